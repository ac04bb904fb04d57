// SPDX-License-Identifier: MIT
/// @file
/// @brief Everything in the library proper: core, and (as they land) fabric, control and
/// calculus. The testbench and the adapters are included explicitly.
///
/// @code
/// #include <netcc/netcc.hpp>
/// using namespace netcc::literals;
/// netcc::bytes bdp = 100_Gbps * 10_us;
/// @endcode
#pragma once

#include "netcc/core.hpp"
#include "netcc/version.hpp"
