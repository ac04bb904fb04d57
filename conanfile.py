# SPDX-License-Identifier: MIT
"""Conan 2 recipe for netcc, a header-only C++20 library.

    conan create . --build=missing        # packages the headers and runs test_package/

The version is read from the top-level CMakeLists.txt (`project(VERSION)`), the one place it is
written. The package holds the headers, the licence, and the testbench's data (flow-size CDFs and
scenario files) under res/netcc, whose path the package passes to consumers as NETCC_DATA_DIR,
as the CMake package does.
"""
import os
import re

from conan import ConanFile
from conan.tools.build import check_min_cppstd
from conan.tools.files import copy, load
from conan.tools.layout import basic_layout

required_conan_version = ">=2.0"


class NetccConan(ConanFile):
    name = "netcc"
    description = ("Header-only C++20 library of datacenter congestion-control algorithms: "
                   "DCTCP, DCQCN, TIMELY, Swift, HPCC, PowerTCP, Bolt, FastTune and their switch "
                   "functions, a testbench and a network-calculus model")
    license = "MIT"
    topics = ("congestion-control", "datacenter", "networking", "rdma", "header-only")
    package_type = "header-library"
    settings = "os", "arch", "compiler", "build_type"
    no_copy_source = True
    exports_sources = ("CMakeLists.txt", "LICENSE", "include/*", "data/cdf/*",
                       "examples/scenarios/*")

    _min_cppstd = 20

    def set_version(self):
        text = load(self, os.path.join(self.recipe_folder, "CMakeLists.txt"))
        match = re.search(r"project\(\s*netcc\s+VERSION\s+([0-9]+\.[0-9]+\.[0-9]+)", text)
        if not match:
            raise ValueError("conanfile.py: no project(netcc VERSION x.y.z) in CMakeLists.txt")
        self.version = match.group(1)

    def layout(self):
        basic_layout(self, src_folder=".")

    def package_id(self):
        self.info.clear()

    def validate(self):
        if self.settings.get_safe("compiler.cppstd"):
            check_min_cppstd(self, self._min_cppstd)

    def package(self):
        copy(self, "LICENSE", src=self.source_folder,
             dst=os.path.join(self.package_folder, "licenses"))
        copy(self, "*.hpp", src=os.path.join(self.source_folder, "include"),
             dst=os.path.join(self.package_folder, "include"))
        copy(self, "*", src=os.path.join(self.source_folder, "data", "cdf"),
             dst=os.path.join(self.package_folder, "res", "netcc", "cdf"))
        copy(self, "*.scn", src=os.path.join(self.source_folder, "examples", "scenarios"),
             dst=os.path.join(self.package_folder, "res", "netcc", "scenarios"))

    def package_info(self):
        self.cpp_info.set_property("cmake_file_name", "netcc")
        self.cpp_info.set_property("cmake_target_name", "netcc::netcc")
        self.cpp_info.set_property("pkg_config_name", "netcc")
        self.cpp_info.bindirs = []
        self.cpp_info.libdirs = []
        self.cpp_info.resdirs = ["res"]
        data_dir = os.path.join(self.package_folder, "res", "netcc").replace("\\", "/")
        self.cpp_info.defines = [f'NETCC_DATA_DIR="{data_dir}"']
