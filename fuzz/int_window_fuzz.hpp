// SPDX-License-Identifier: MIT
// Shared by the HPCC and FastTune harnesses: decodes parameters, feeds the INT ACK stream of
// int_ack_stream.hpp to three controllers (double over netcc's 64-bit INT stack, q32 over the
// same 64-bit stack, q32 over the HPCC wire format), and checks the invariants the two MI/MD
// controllers share after every event:
//   * window finite and within [min_cwnd, max_window()] exactly (compared in the policy's own
//     number type: the floor is honoured exactly in q32); cwnd() within the same bytes;
//   * pacing_rate() within [max(min_rate, 1 bps), host_rate] of the parameters in force: never
//     0 while the window is open (it always is: min_cwnd >= 1 B);
//   * U finite and within [0, 2^30];
//   * an exact duplicate of the previous ACK leaves U unchanged (dt = 0 carries no sample).
// Parameters are the paper's defaults, or decoded over the ranges of a real NIC, or (one mode
// bit) over their whole type: T, HostBw, min/max window and min_rate from edge values, so the
// 128-bit intermediates of the utilisation meet T = 2^63 - 1 and rates near 2^62.
#pragma once

#include "int_ack_stream.hpp"

namespace netcc::fuzz {

template <class P>
P read_int_window_params(byte_reader& in) {
  P p;
  const std::uint8_t mode = in.u8();
  if (mode & 1) return p;  // paper defaults
  const bool wide = (mode & 0x80) != 0;
  p.eta = static_cast<double>(in.u16()) / 65535.0 * (in.boolean() ? 1.0 : 1.2);
  p.host_rate = bit_rate{wide ? in.edge_i64()
                              : static_cast<std::int64_t>(in.below(900'000'000'001ULL)) - 1000};
  p.base_rtt = duration{wide ? in.edge_i64() : static_cast<std::int64_t>(in.below(2'000'001)) - 10};
  p.expected_flows = wide ? in.edge_i64() : static_cast<std::int64_t>(in.u16()) - 2;
  p.w_ai = bytes{wide ? in.edge_i64() : static_cast<std::int64_t>(in.u32()) - 1000};
  p.cwnd_init = bytes{wide ? in.edge_i64() : static_cast<std::int64_t>(in.u32()) - 1000};
  p.min_cwnd = bytes{wide ? in.edge_i64() : static_cast<std::int64_t>(in.u32() % 200'000) - 10};
  p.max_cwnd = bytes{wide ? in.edge_i64() : static_cast<std::int64_t>(in.u32()) - 1000};
  p.min_rate =
      bit_rate{wide ? in.edge_i64() : static_cast<std::int64_t>(in.below(100'000'000'000ULL)) - 10};
  return p;
}

template <class C>
struct int_window_checker {
  using value_type = typename C::value_type;
  C cc;
  explicit int_window_checker(const typename C::params_type& p) : cc(p) { check(); }

  void check() const {
    const auto p = cc.params();  // sanitised: what the controller enforces
    using nt = number_traits<value_type>;
    NETCC_FUZZ_CHECK(finite(cc.window()));
    // Exact bounds in the policy's type (window bytes are integers, exact in q32).
    NETCC_FUZZ_CHECK(cc.window() >= nt::from_int(p.min_cwnd.count()));
    NETCC_FUZZ_CHECK(cc.window() <= nt::from_int(cc.max_window().count()));
    NETCC_FUZZ_CHECK(cc.cwnd() >= p.min_cwnd && cc.cwnd() <= cc.max_window());
    const bit_rate floor = p.min_rate > min_pacing_rate ? p.min_rate : min_pacing_rate;
    NETCC_FUZZ_CHECK(cc.pacing_rate() >= floor && cc.pacing_rate() <= p.host_rate);
    NETCC_FUZZ_CHECK(cc.pacing_rate() > bit_rate::zero());
    NETCC_FUZZ_CHECK(finite(cc.utilisation()));
    NETCC_FUZZ_CHECK(cc.utilisation() >= num<value_type>(0));
    NETCC_FUZZ_CHECK(cc.utilisation() <= int_utilisation_max<value_type>());
  }

  template <class E>
  void step(const E& e, bool duplicate) {
    const auto u_before = cc.utilisation();
    cc.on_ack(e);
    check();
    if (duplicate) NETCC_FUZZ_CHECK(cc.utilisation() == u_before);
  }
};

/// Drives a double controller and a q32 one over netcc's 64-bit INT stack, and a q32 one over
/// the HPCC wire format, with the same decoded stream; `extra` checks controller-specific
/// invariants. Cd and Cq64 take netcc::ack_event, Cq netcc::hpcc_int_format's stack.
template <class Cd, class Cq64, class Cq, class Extra>
void run_int_window(const std::uint8_t* data, std::size_t size, Extra extra) {
  using wire = hpcc_int_format;
  byte_reader in(data, size);
  const auto params = read_int_window_params<typename Cd::params_type>(in);
  int_window_checker<Cd> raw{params};
  int_window_checker<Cq64> raw_q{params};
  int_window_checker<Cq> wired{params};
  for_each_int_ack(in,
                   [&](const ack_event& a, const basic_ack_event<wire::stack>& b, bool duplicate) {
                     raw.step(a, duplicate);
                     raw_q.step(a, duplicate);
                     wired.step(b, duplicate);
                     extra(raw.cc);
                     extra(raw_q.cc);
                     extra(wired.cc);
                   });
}

}  // namespace netcc::fuzz
