// SPDX-License-Identifier: MIT
/// @file
/// @brief The controllers the scenario runner can drive, by name, with the switch features
/// each needs and its parameters derived from the scenario (host rate, base RTT, N).
/// @code
/// for (const auto& c : netcc::testbench::controllers()) std::puts(c.name.c_str());
/// @endcode
#pragma once

#include <memory>
#include <vector>

#include "netcc/testbench/scenario.hpp"
#include "netcc/testbench/sender_cc.hpp"

namespace netcc::testbench {

/// @brief Every controller the runner knows, in display order.
[[nodiscard]] inline std::vector<cc_entry> controllers() {
  std::vector<cc_entry> v;
  v.push_back({"fixed-bdp", "reference: a fixed window of one BDP, no congestion control", nullptr,
               [](const cc_context& c) -> std::unique_ptr<sender_cc> {
                 return std::make_unique<cc_model<fixed_window>>("fixed-bdp",
                                                                 c.host_rate * c.base_rtt);
               }});
  return v;
}

}  // namespace netcc::testbench
