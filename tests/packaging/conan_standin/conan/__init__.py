# SPDX-License-Identifier: MIT
"""Stand-in for Conan 2's `conan` package, enough to run netcc's recipes without Conan.

Conan cannot be installed on netcc's build machines, so tests/packaging/conan_recipe_test.py
runs conanfile.py and test_package/conanfile.py against these modules. They implement the calls
the recipes make with Conan 2's documented behaviour where it matters to the result (copy, load,
the cpp_info model, settings) and record every call in `conan.calls` for the test to check.
"""
import types

calls = []  # (name, args) for every stand-in tool call, in order


def record(name, *args, **kwargs):
    calls.append((name, args, kwargs))


class _Settings:
    """`self.settings`: attribute access, get_safe with dotted names."""

    def __init__(self, values):
        self._values = dict(values)

    def get_safe(self, name, default=None):
        return self._values.get(name, default)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self._values.get(name)


class _CppInfo:
    """`self.cpp_info`: Conan 2's defaults (include, lib, bin, res dirs) and properties."""

    def __init__(self):
        self.includedirs = ["include"]
        self.libdirs = ["lib"]
        self.bindirs = ["bin"]
        self.resdirs = []
        self.defines = []
        self.system_libs = []
        self.libs = []
        self.properties = {}

    def set_property(self, name, value):
        self.properties[name] = value

    def get_property(self, name):
        return self.properties.get(name)


class _Info:
    def __init__(self):
        self.cleared = False

    def clear(self):
        self.cleared = True
        record("info.clear")


class ConanFile:
    """The base class. The test sets the folders and settings a Conan run would set."""

    name = None
    version = None
    settings = ()
    generators = ()

    def __init__(self, settings=None):
        self.settings = _Settings(settings or {})
        self.cpp_info = _CppInfo()
        self.info = _Info()
        self.cpp = types.SimpleNamespace(build=types.SimpleNamespace(bindir="."))
        self.recipe_folder = None
        self.source_folder = None
        self.build_folder = None
        self.package_folder = None
        self.generators_folder = None
        self.tested_reference_str = None
        self.requires_seen = []
        self.output = types.SimpleNamespace(info=lambda msg: record("output.info", msg))

    def requires(self, ref):
        self.requires_seen.append(ref)
        record("requires", ref)

    def run(self, command, env=None):
        import shlex
        import subprocess

        record("run", command, env=env)
        argv = command if isinstance(command, list) else shlex.split(command)
        subprocess.run(argv, check=True)
