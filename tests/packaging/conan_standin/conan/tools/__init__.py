# SPDX-License-Identifier: MIT
"""Stand-in for conan.tools."""
