# SPDX-License-Identifier: MIT
# vcpkg port of netcc, a header-only library: one release configuration, no binaries.
#
# As an overlay port from a clone (the port builds the clone it sits in):
#   vcpkg install netcc --overlay-ports=<clone>/ports
# For a registry, replace SOURCE_PATH with vcpkg_from_git/vcpkg_from_github at a release tag.
set(VCPKG_BUILD_TYPE release)
get_filename_component(SOURCE_PATH "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)

vcpkg_cmake_configure(
  SOURCE_PATH "${SOURCE_PATH}"
  OPTIONS -DNETCC_BUILD_TESTS=OFF
          -DNETCC_BUILD_BENCH=OFF
          -DNETCC_BUILD_EXAMPLES=OFF
          -DNETCC_BUILD_FUZZ=OFF
          -DNETCC_BUILD_DOCS=OFF
          -DNETCC_BUILD_ADAPTERS=OFF
          -DNETCC_INSTALL=ON)
vcpkg_cmake_install()
# netcc installs its CMake package to share/cmake/netcc; vcpkg wants it in share/netcc.
vcpkg_cmake_config_fixup(CONFIG_PATH share/cmake/netcc)
vcpkg_fixup_pkgconfig()

file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/debug" "${CURRENT_PACKAGES_DIR}/lib"
     "${CURRENT_PACKAGES_DIR}/share/doc")
file(INSTALL "${CMAKE_CURRENT_LIST_DIR}/usage" DESTINATION "${CURRENT_PACKAGES_DIR}/share/${PORT}")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
