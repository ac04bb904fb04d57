// SPDX-License-Identifier: MIT
/// @file
/// @brief netcc's version.
#pragma once

/// @brief Major version (API breaks).
#define NETCC_VERSION_MAJOR 0
/// @brief Minor version.
#define NETCC_VERSION_MINOR 1
/// @brief Patch version.
#define NETCC_VERSION_PATCH 0

namespace netcc {
/// @brief The version as "major.minor.patch".
inline constexpr const char* version_string = "0.1.0";
}  // namespace netcc
