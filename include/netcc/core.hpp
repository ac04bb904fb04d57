// SPDX-License-Identifier: MIT
/// @file
/// @brief The core layer: units, arithmetic policies, wrap-safe counters, EWMA, per-RTT
/// bookkeeping, window history, feedback traits and parameter validation.
#pragma once

#include "netcc/core/arith.hpp"
#include "netcc/core/ewma.hpp"
#include "netcc/core/feedback.hpp"
#include "netcc/core/per_rtt.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/validation.hpp"
#include "netcc/core/window_history.hpp"
#include "netcc/core/wrap.hpp"
