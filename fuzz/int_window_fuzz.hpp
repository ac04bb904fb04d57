// SPDX-License-Identifier: MIT
// Shared by the HPCC and FastTune harnesses: decodes parameters, feeds the INT ACK stream of
// int_ack_stream.hpp, and checks the invariants the two MI/MD controllers share after every
// event:
//   * window finite; cwnd() within [min_cwnd, max_window()]; pacing_rate() within
//     [min_rate, host_rate] of the parameters in force;
//   * U finite and non-negative;
//   * an exact duplicate of the previous ACK leaves U unchanged (dt = 0 carries no sample).
#pragma once

#include "int_ack_stream.hpp"

namespace netcc::fuzz {

template <class P>
P read_int_window_params(byte_reader& in) {
  P p;
  if (in.boolean()) return p;  // paper defaults
  p.eta = static_cast<double>(in.u16()) / 65535.0 * (in.boolean() ? 1.0 : 1.2);
  p.host_rate = bit_rate{static_cast<std::int64_t>(in.below(900'000'000'001ULL)) - 1000};
  p.base_rtt = duration{static_cast<std::int64_t>(in.below(2'000'001)) - 10};
  p.expected_flows = static_cast<std::int64_t>(in.u16()) - 2;
  p.w_ai = bytes{static_cast<std::int64_t>(in.u32()) - 1000};
  p.cwnd_init = bytes{static_cast<std::int64_t>(in.u32()) - 1000};
  p.min_cwnd = bytes{static_cast<std::int64_t>(in.u32() % 200'000) - 10};
  p.max_cwnd = bytes{static_cast<std::int64_t>(in.u32()) - 1000};
  p.min_rate = bit_rate{static_cast<std::int64_t>(in.below(100'000'000'000ULL)) - 10};
  return p;
}

template <class C>
struct int_window_checker {
  C cc;
  explicit int_window_checker(const typename C::params_type& p) : cc(p) {}

  template <class E>
  void step(const E& e, bool duplicate) {
    const auto u_before = cc.utilisation();
    cc.on_ack(e);
    const auto p = cc.params();  // sanitised: what the controller enforces
    NETCC_FUZZ_CHECK(finite(cc.window()));
    NETCC_FUZZ_CHECK(cc.cwnd() >= p.min_cwnd && cc.cwnd() <= cc.max_window());
    NETCC_FUZZ_CHECK(cc.pacing_rate() >= p.min_rate && cc.pacing_rate() <= p.host_rate);
    NETCC_FUZZ_CHECK(finite(cc.utilisation()) && to_double(cc.utilisation()) >= 0.0);
    if (duplicate) NETCC_FUZZ_CHECK(cc.utilisation() == u_before);
  }
};

/// Drives a double controller over netcc's 64-bit INT stack and a q32 one over the HPCC wire
/// format with the same decoded stream; `extra` checks controller-specific invariants.
template <class Cd, class Cq, class Extra>
void run_int_window(const std::uint8_t* data, std::size_t size, Extra extra) {
  using wire = hpcc_int_format;
  byte_reader in(data, size);
  const auto params = read_int_window_params<typename Cd::params_type>(in);
  int_window_checker<Cd> raw{params};
  int_window_checker<Cq> wired{params};
  for_each_int_ack(in,
                   [&](const ack_event& a, const basic_ack_event<wire::stack>& b, bool duplicate) {
                     raw.step(a, duplicate);
                     wired.step(b, duplicate);
                     extra(raw.cc);
                     extra(wired.cc);
                   });
}

}  // namespace netcc::fuzz
