# SPDX-License-Identifier: MIT
"""Conan's test package for netcc: builds a small consumer against the package and runs it."""
import os

from conan import ConanFile
from conan.tools.build import can_run
from conan.tools.cmake import CMake, cmake_layout


class NetccTestConan(ConanFile):
    settings = "os", "arch", "compiler", "build_type"
    generators = "CMakeDeps", "CMakeToolchain"

    def requirements(self):
        self.requires(self.tested_reference_str)

    def layout(self):
        cmake_layout(self)

    def build(self):
        cmake = CMake(self)
        cmake.configure()
        cmake.build()

    def test(self):
        if can_run(self):
            cmake_bin = os.path.join(self.cpp.build.bindir, "netcc_test_package")
            self.run(cmake_bin, env="conanrun")
