#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs netcc's Conan recipe and its test_package against the stand-in `conan` modules.

    conan_recipe_test.py <source dir> <work dir> <expected version>

Checks what the recipe declares (a header-library with no_copy_source and a cleared package id),
what each method asks for (layout, version from CMakeLists.txt, C++20, the files it packages, the
CMake names it gives), then runs test_package/conanfile.py the way `conan create` would: its
generators write a CMake config from the recipe's package_info, CMake builds the consumer against
the packaged folder, and test() runs it. Exit status 0 when every check passes.
"""
import importlib.util
import os
import shutil
import sys

sys.dont_write_bytecode = True  # never write __pycache__ into the source tree

SRC, WORK, VERSION = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "conan_standin"))

import conan  # noqa: E402  (the stand-in)
from conan.errors import ConanInvalidConfiguration  # noqa: E402
from conan.tools import cmake as conan_cmake  # noqa: E402

failures = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        failures.append(what)


def load_recipe(path, name):
    with open(path, encoding="utf-8") as f:
        compile(f.read(), path, "exec")  # byte-compiles, or raises SyntaxError
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    classes = [v for v in vars(module).values()
               if isinstance(v, type) and issubclass(v, conan.ConanFile) and v is not conan.ConanFile]
    check(len(classes) == 1, f"{os.path.relpath(path, SRC)} defines one ConanFile")
    return classes[0]


def called(name):
    return [c for c in conan.calls if c[0] == name]


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
settings = {"os": "Linux", "arch": "x86_64", "compiler": "gcc", "compiler.version": "12",
            "compiler.cppstd": "20", "build_type": "Release"}

# ------------------------------------------------------------------ the recipe
Recipe = load_recipe(os.path.join(SRC, "conanfile.py"), "netcc_recipe")
check(Recipe.name == "netcc", "name = netcc")
check(Recipe.package_type == "header-library", 'package_type = "header-library"')
check(Recipe.no_copy_source is True, "no_copy_source = True")
check(Recipe.license == "MIT", "license = MIT")
check(set(Recipe.settings) == {"os", "arch", "compiler", "build_type"}, "settings")
for needed in ("CMakeLists.txt", "LICENSE", "include/*"):
    check(needed in Recipe.exports_sources, f"exports_sources has {needed}")

r = Recipe(settings)
r.recipe_folder = SRC
r.source_folder = SRC
r.package_folder = os.path.join(WORK, "package")
r.set_version()
check(r.version == VERSION, f"set_version() reads {VERSION} from CMakeLists.txt (got {r.version})")

r.layout()
check(called("basic_layout") == [("basic_layout", (), {"src_folder": "."})],
      "layout() is basic_layout(src_folder='.')")

r.package_id()
check(r.info.cleared, "package_id() clears the id (one package for every configuration)")

r.validate()
check(any(c[1] == (20,) or c[1] == ("20",) for c in called("check_min_cppstd")),
      "validate() requires C++20")
try:
    Recipe(dict(settings, **{"compiler.cppstd": "17"})).validate()
    check(False, "validate() rejects C++17")
except ConanInvalidConfiguration:
    check(True, "validate() rejects C++17")

r.package()
pkg = r.package_folder
for rel in ("licenses/LICENSE", "include/netcc/netcc.hpp", "include/netcc/version.hpp",
            "include/netcc/control/dctcp.hpp", "include/netcc/testbench/scenario.hpp",
            "res/netcc/cdf/websearch.cdf", "res/netcc/scenarios/incast.scn"):
    check(os.path.isfile(os.path.join(pkg, rel)), f"package() installs {rel}")
headers_src = sorted(os.path.relpath(os.path.join(d, f), os.path.join(SRC, "include"))
                     for d, _, fs in os.walk(os.path.join(SRC, "include")) for f in fs
                     if f.endswith(".hpp"))
headers_pkg = sorted(os.path.relpath(os.path.join(d, f), os.path.join(pkg, "include"))
                     for d, _, fs in os.walk(os.path.join(pkg, "include")) for f in fs)
check(headers_src == headers_pkg, f"package() has every public header and nothing else "
      f"({len(headers_pkg)} of {len(headers_src)})")
check(not any(os.path.exists(os.path.join(pkg, d)) for d in ("tests", "bench", "lib", "bin")),
      "package() holds no tests, benchmarks, libraries or programs")

r.package_info()
props = r.cpp_info.properties
check(props.get("cmake_file_name") == "netcc", "cmake_file_name = netcc")
check(props.get("cmake_target_name") == "netcc::netcc", "cmake_target_name = netcc::netcc")
check(props.get("pkg_config_name") == "netcc", "pkg_config_name = netcc")
check(r.cpp_info.libdirs == [] and r.cpp_info.bindirs == [], "no lib or bin directories")
data = [d for d in r.cpp_info.defines if d.startswith("NETCC_DATA_DIR=")]
check(len(data) == 1 and os.path.isdir(data[0].split("=", 1)[1].strip('"') + "/cdf"),
      "NETCC_DATA_DIR names the packaged data")

# ------------------------------------------------------------------ test_package
TP = os.path.join(SRC, "test_package")
Tester = load_recipe(os.path.join(TP, "conanfile.py"), "netcc_test_package")
t = Tester(settings)
t.tested_reference_str = f"netcc/{r.version}"
t.recipe_folder = TP
t.source_folder = TP
t.build_folder = os.path.join(WORK, "test_package", "build")
t.generators_folder = os.path.join(t.build_folder, "generators")
os.makedirs(t.generators_folder)
t.requirements()
check(t.requires_seen == [f"netcc/{VERSION}"], "test_package requires the tested reference")
t.layout()
check(len(called("cmake_layout")) == 1, "test_package uses cmake_layout")
check(set(Tester.generators) == {"CMakeDeps", "CMakeToolchain"},
      "test_package generators: CMakeDeps and CMakeToolchain")
conan_cmake.CMakeToolchain(t).generate()
conan_cmake.CMakeDeps(t, [r]).generate()
t.build()
check(len(called("CMake.configure")) == 1 and len(called("CMake.build")) == 1,
      "test_package build() configures and builds with CMake")
t.test()
check(len(called("run")) == 1, "test_package test() runs the consumer")

print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
