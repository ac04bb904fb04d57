# SPDX-License-Identifier: MIT
"""Stand-in for conan.tools.layout."""
from conan import record


def basic_layout(conanfile, src_folder="."):
    record("basic_layout", src_folder=src_folder)
