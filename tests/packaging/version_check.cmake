# SPDX-License-Identifier: MIT
# The version is written once, in project(VERSION) of the top-level CMakeLists.txt. This script
# checks that every other place that states it agrees:
#   cmake -DVERSION=<x.y.z> -DSOURCE_DIR=<netcc> -DBINARY_DIR=<build> -P version_check.cmake
cmake_minimum_required(VERSION 3.25)
set(bad "")
macro(expect what got)
  if(NOT "${got}" STREQUAL "${VERSION}")
    string(APPEND bad "\n  ${what} says '${got}', project(VERSION) says '${VERSION}'")
  endif()
endmacro()

file(READ "${SOURCE_DIR}/include/netcc/version.hpp" hpp)
foreach(part MAJOR MINOR PATCH)
  string(REGEX MATCH "#define NETCC_VERSION_${part} ([0-9]+)" _ "${hpp}")
  set(${part} "${CMAKE_MATCH_1}")
endforeach()
expect("include/netcc/version.hpp (NETCC_VERSION_MAJOR/MINOR/PATCH)" "${MAJOR}.${MINOR}.${PATCH}")

file(READ "${SOURCE_DIR}/ports/netcc/vcpkg.json" manifest)
string(JSON vcpkg GET "${manifest}" version-semver)
expect("ports/netcc/vcpkg.json (version-semver)" "${vcpkg}")

file(STRINGS "${SOURCE_DIR}/CHANGELOG.md" releases REGEX "^## \\[[0-9]+\\.[0-9]+\\.[0-9]+\\]")
list(GET releases 0 newest)
string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" newest "${newest}")
expect("CHANGELOG.md (newest release heading)" "${newest}")

file(STRINGS "${BINARY_DIR}/netcc.pc" pc REGEX "^Version: ")
string(REPLACE "Version: " "" pc "${pc}")
expect("netcc.pc (Version)" "${pc}")

include("${BINARY_DIR}/netccConfigVersion.cmake")
expect("netccConfigVersion.cmake (PACKAGE_VERSION)" "${PACKAGE_VERSION}")

# conanfile.py reads project(VERSION) itself; its reading is checked by packaging.conan_recipe.
if(bad)
  message(FATAL_ERROR "version disagreement:${bad}")
endif()
message(STATUS "version ${VERSION} agrees in version.hpp, vcpkg.json, CHANGELOG.md, netcc.pc, the CMake package")
