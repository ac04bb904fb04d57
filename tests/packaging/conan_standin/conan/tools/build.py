# SPDX-License-Identifier: MIT
"""Stand-in for conan.tools.build: check_min_cppstd and can_run as Conan 2 defines them."""
from conan import record
from conan.errors import ConanInvalidConfiguration


def _std_number(value):
    text = str(value).replace("gnu", "")
    number = int(text)
    return number + 100 if number < 50 else number  # 98 < 03 < 11 < ... < 20 < 23


def check_min_cppstd(conanfile, cppstd, gnu_extensions=False):
    record("check_min_cppstd", cppstd)
    current = conanfile.settings.get_safe("compiler.cppstd")
    if current is not None and _std_number(current) < _std_number(cppstd):
        raise ConanInvalidConfiguration(
            f"Current cppstd ({current}) is lower than the required C++ standard ({cppstd}).")


def can_run(conanfile):
    record("can_run")
    return True
