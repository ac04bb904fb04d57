# SPDX-License-Identifier: MIT
"""Stand-in for conan.tools.cmake that really configures and builds with CMake.

CMakeToolchain writes conan_toolchain.cmake (the C++ standard from compiler.cppstd, the build
type); CMakeDeps writes <name>-config.cmake and <name>-config-version.cmake for each dependency
from its cpp_info, as Conan's CMakeDeps does (an imported INTERFACE target named by the
cmake_target_name property, its include directories and defines). CMake then runs the real cmake.
"""
import os
import subprocess

from conan import record


def cmake_layout(conanfile, src_folder="."):
    record("cmake_layout", src_folder=src_folder)
    conanfile.cpp.build.bindir = conanfile.build_folder


class CMakeToolchain:
    def __init__(self, conanfile):
        self._conanfile = conanfile

    def generate(self):
        record("CMakeToolchain.generate")
        settings = self._conanfile.settings
        lines = [f'set(CMAKE_BUILD_TYPE "{settings.get_safe("build_type", "Release")}")']
        cppstd = settings.get_safe("compiler.cppstd")
        if cppstd:
            lines += [f"set(CMAKE_CXX_STANDARD {str(cppstd).replace('gnu', '')})",
                      "set(CMAKE_CXX_STANDARD_REQUIRED ON)",
                      f"set(CMAKE_CXX_EXTENSIONS {'ON' if 'gnu' in str(cppstd) else 'OFF'})"]
        path = os.path.join(self._conanfile.generators_folder, "conan_toolchain.cmake")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")


class CMakeDeps:
    def __init__(self, conanfile, dependencies):
        self._conanfile = conanfile
        self._dependencies = dependencies  # [(recipe instance with package_info() run)]

    def generate(self):
        record("CMakeDeps.generate")
        for dep in self._dependencies:
            info = dep.cpp_info
            file_name = info.get_property("cmake_file_name") or dep.name
            target = info.get_property("cmake_target_name") or f"{dep.name}::{dep.name}"
            incs = [os.path.join(dep.package_folder, d) for d in info.includedirs]
            defs = [d.replace('"', '\\"') for d in info.defines]
            out = self._conanfile.generators_folder
            with open(os.path.join(out, f"{file_name}-config.cmake"), "w", encoding="utf-8") as f:
                f.write(f"if(NOT TARGET {target})\n"
                        f"  add_library({target} INTERFACE IMPORTED)\n"
                        f"  set_target_properties({target} PROPERTIES\n"
                        f"    INTERFACE_INCLUDE_DIRECTORIES \"{';'.join(incs)}\"\n"
                        f"    INTERFACE_COMPILE_DEFINITIONS \"{';'.join(defs)}\")\n"
                        "endif()\n")
            with open(os.path.join(out, f"{file_name}-config-version.cmake"), "w",
                      encoding="utf-8") as f:
                f.write(f'set(PACKAGE_VERSION "{dep.version}")\n'
                        "if(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)\n"
                        "  set(PACKAGE_VERSION_COMPATIBLE FALSE)\n"
                        "else()\n  set(PACKAGE_VERSION_COMPATIBLE TRUE)\nendif()\n")


class CMake:
    def __init__(self, conanfile):
        self._conanfile = conanfile

    def configure(self, variables=None):
        record("CMake.configure", variables=variables)
        c = self._conanfile
        cmd = ["cmake", "-S", c.source_folder, "-B", c.build_folder,
               f"-DCMAKE_TOOLCHAIN_FILE={os.path.join(c.generators_folder, 'conan_toolchain.cmake')}",
               f"-DCMAKE_PREFIX_PATH={c.generators_folder}"]
        cxx = os.environ.get("CXX")
        if cxx:
            cmd.append(f"-DCMAKE_CXX_COMPILER={cxx}")
        for key, value in (variables or {}).items():
            cmd.append(f"-D{key}={value}")
        subprocess.run(cmd, check=True)

    def build(self, target=None):
        record("CMake.build", target=target)
        cmd = ["cmake", "--build", self._conanfile.build_folder]
        if target:
            cmd += ["--target", target]
        subprocess.run(cmd, check=True)

    def install(self):
        record("CMake.install")
        subprocess.run(["cmake", "--install", self._conanfile.build_folder, "--prefix",
                        self._conanfile.package_folder], check=True)
