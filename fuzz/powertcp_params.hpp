// SPDX-License-Identifier: MIT
// Shared by the PowerTCP and theta-PowerTCP harnesses: parameters decoded from raw bytes, half
// the time the paper's defaults, otherwise anything (out-of-range values included, which the
// controller must survive by falling back).
#pragma once

#include <netcc/control/powertcp.hpp>

#include "fuzz_common.hpp"

namespace netcc::fuzz {

/// P is netcc::powertcp_params or netcc::theta_powertcp_params.
template <class P>
P read_powertcp_params(byte_reader& in) {
  P p;
  if (in.boolean()) return p;  // paper defaults
  p.gamma = static_cast<double>(in.u16()) / 65535.0 * (in.boolean() ? 1.0 : 1.5);
  p.host_rate = bit_rate{static_cast<std::int64_t>(in.below(900'000'000'001ULL)) - 1000};
  p.base_rtt = duration{static_cast<std::int64_t>(in.below(2'000'001)) - 10};
  p.expected_flows = static_cast<std::int64_t>(in.u16()) - 2;
  p.beta = bytes{static_cast<std::int64_t>(in.u32()) - 1000};
  p.cwnd_init = bytes{static_cast<std::int64_t>(in.u32()) - 1000};
  p.min_cwnd = bytes{static_cast<std::int64_t>(in.u32() % 200'000) - 10};
  p.max_cwnd = bytes{static_cast<std::int64_t>(in.u32())};
  p.min_rate = bit_rate{static_cast<std::int64_t>(in.below(100'000'000'000ULL)) - 10};
  p.max_rate = bit_rate{static_cast<std::int64_t>(in.below(900'000'000'000ULL))};
  p.tau_source = in.boolean() ? powertcp_tau::min_rtt : powertcp_tau::configured;
  p.line_rate_first_rtt = in.boolean();
  return p;
}

}  // namespace netcc::fuzz
