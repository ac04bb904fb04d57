# SPDX-License-Identifier: MIT
"""Stand-in for conan.errors."""


class ConanException(Exception):
    pass


class ConanInvalidConfiguration(ConanException):
    pass
