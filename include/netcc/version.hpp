// SPDX-License-Identifier: MIT
/// @file
/// @brief netcc's version. The one place it is written is `project(VERSION)` in the top-level
/// CMakeLists.txt; this header, the CMake package version file, pkg-config, the Conan recipe and
/// the vcpkg port are each generated from it or checked against it by the test
/// `packaging.version_agrees`.
///
/// Sources: none; the version follows Semantic Versioning 2.0.0 (before 1.0 a minor version may
/// change the API; CHANGELOG.md says where it did).
/// @code
/// #include <netcc/version.hpp>
/// static_assert(NETCC_VERSION >= 200);  // 0.2.0 or newer
/// std::puts(netcc::version_string);     // "0.2.0"
/// @endcode
#pragma once

/// @brief Major version (API breaks).
#define NETCC_VERSION_MAJOR 0
/// @brief Minor version (new components and features).
#define NETCC_VERSION_MINOR 2
/// @brief Patch version (fixes).
#define NETCC_VERSION_PATCH 0

/// @brief The version as one comparable number, major * 10000 + minor * 100 + patch.
#define NETCC_VERSION \
  (NETCC_VERSION_MAJOR * 10000 + NETCC_VERSION_MINOR * 100 + NETCC_VERSION_PATCH)

/// @cond
#define NETCC_DETAIL_STR2(x) #x
#define NETCC_DETAIL_STR(x) NETCC_DETAIL_STR2(x)
/// @endcond
namespace netcc {
/// @brief The version as "major.minor.patch", spelled from the three macros.
inline constexpr const char* version_string =
    NETCC_DETAIL_STR(NETCC_VERSION_MAJOR) "." NETCC_DETAIL_STR(
        NETCC_VERSION_MINOR) "." NETCC_DETAIL_STR(NETCC_VERSION_PATCH);
}  // namespace netcc
#undef NETCC_DETAIL_STR
#undef NETCC_DETAIL_STR2
