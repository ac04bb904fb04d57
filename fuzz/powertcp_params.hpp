// SPDX-License-Identifier: MIT
// Shared by the PowerTCP and theta-PowerTCP harnesses: parameters decoded from raw bytes, half
// the time the paper's defaults, otherwise anything (out-of-range values included, which the
// controller must survive by falling back); with the mode byte's top bit, every integer field
// from byte_reader::edge_i64 (tau = 2^63 - 1 ns, host rates near 2^62, INT64_MIN, ...).
#pragma once

#include <netcc/control/powertcp.hpp>

#include "fuzz_common.hpp"

namespace netcc::fuzz {

/// P is netcc::powertcp_params or netcc::theta_powertcp_params.
template <class P>
P read_powertcp_params(byte_reader& in) {
  P p;
  const std::uint8_t mode = in.u8();
  if (mode & 1) return p;  // paper defaults
  const bool wide = (mode & 0x80) != 0;
  p.gamma = static_cast<double>(in.u16()) / 65535.0 * (in.boolean() ? 1.0 : 1.5);
  p.host_rate = bit_rate{wide ? in.edge_i64()
                              : static_cast<std::int64_t>(in.below(900'000'000'001ULL)) - 1000};
  p.base_rtt = duration{wide ? in.edge_i64() : static_cast<std::int64_t>(in.below(2'000'001)) - 10};
  p.expected_flows = wide ? in.edge_i64() : static_cast<std::int64_t>(in.u16()) - 2;
  p.beta = bytes{wide ? in.edge_i64() : static_cast<std::int64_t>(in.u32()) - 1000};
  p.cwnd_init = bytes{wide ? in.edge_i64() : static_cast<std::int64_t>(in.u32()) - 1000};
  p.min_cwnd = bytes{wide ? in.edge_i64() : static_cast<std::int64_t>(in.u32() % 200'000) - 10};
  p.max_cwnd = bytes{wide ? in.edge_i64() : static_cast<std::int64_t>(in.u32())};
  p.min_rate =
      bit_rate{wide ? in.edge_i64() : static_cast<std::int64_t>(in.below(100'000'000'000ULL)) - 10};
  p.max_rate =
      bit_rate{wide ? in.edge_i64() : static_cast<std::int64_t>(in.below(900'000'000'000ULL))};
  p.tau_source = in.boolean() ? powertcp_tau::min_rtt : powertcp_tau::configured;
  p.line_rate_first_rtt = in.boolean();
  return p;
}

/// The checks both PowerTCP harnesses make after every event, besides their own: window finite
/// and within [min_cwnd, max_cwnd] exactly in the policy's number type (bytes are integers,
/// exact in q32), cwnd() within the same bytes, pacing_rate() within [max(min_rate, 1 bps),
/// max_rate] of the parameters in force (never 0: the window is always open).
template <class C, class P>
void check_powertcp_bounds(const C& cc, const P& p) {
  using nt = number_traits<typename C::value_type>;
  NETCC_FUZZ_CHECK(finite(cc.window()));
  NETCC_FUZZ_CHECK(cc.window() >= nt::from_int(p.min_cwnd.count()));
  NETCC_FUZZ_CHECK(cc.window() <= nt::from_int(p.max_cwnd.count()));
  NETCC_FUZZ_CHECK(cc.cwnd() >= p.min_cwnd && cc.cwnd() <= p.max_cwnd);
  const bit_rate max_rate = p.max_rate > bit_rate::zero()
                                ? (p.max_rate < p.min_rate ? p.min_rate : p.max_rate)
                                : (p.host_rate < p.min_rate ? p.min_rate : p.host_rate);
  const bit_rate floor = p.min_rate > min_pacing_rate ? p.min_rate : min_pacing_rate;
  NETCC_FUZZ_CHECK(cc.pacing_rate() >= floor && cc.pacing_rate() <= max_rate);
  NETCC_FUZZ_CHECK(cc.pacing_rate() > bit_rate::zero());
}

}  // namespace netcc::fuzz
