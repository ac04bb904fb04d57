// SPDX-License-Identifier: MIT
/// @file
/// @brief The core layer: units, arithmetic policies, wrap-safe counters, EWMA, per-RTT
/// bookkeeping, window history, feedback traits and parameter validation.
///
/// Sources: those of the headers it includes, each cited on its own page.
/// @code
/// #include <netcc/core.hpp>
/// using namespace netcc::literals;
/// netcc::bytes bdp = 100_Gbps * 8_us;                 // 100'000 B
/// netcc::ewma<double, netcc::fixed_weight<double>> a{netcc::fixed_weight<double>{1.0 / 16}};
/// @endcode
#pragma once

#include "netcc/core/arith.hpp"
#include "netcc/core/ewma.hpp"
#include "netcc/core/feedback.hpp"
#include "netcc/core/per_rtt.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/validation.hpp"
#include "netcc/core/window_history.hpp"
#include "netcc/core/wrap.hpp"
