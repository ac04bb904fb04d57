// SPDX-License-Identifier: MIT
// static_assert-only: HPCC and the FastTune sender run at compile time (constexpr, no
// allocation), and their first steps match the hand-computed values of the unit tests.
#include <netcc/control/fasttune.hpp>
#include <netcc/control/hpcc.hpp>

namespace netcc_tests::static_int_window {

namespace {

using namespace netcc::literals;

template <class C>
constexpr double window_after_two_acks(bool switch_ack) {
  typename C::params_type p;
  p.host_rate = 100_Gbps;
  p.base_rtt = 10_us;
  p.expected_flows = 10;
  C cc{p};
  netcc::ack_event a{.now = netcc::timestamp{0}, .ack_seq = 1, .snd_nxt = 200'000};
  a.switch_ack = switch_ack;
  a.hops.push({.ts = 0, .qlen = 0_B, .tx_bytes = 0, .link_rate = 100_Gbps});
  cc.on_ack(a);
  netcc::ack_event b{.now = netcc::timestamp{1000}, .ack_seq = 1001, .snd_nxt = 201'000};
  b.switch_ack = switch_ack;
  b.hops.push({.ts = 1000, .qlen = 25000_B, .tx_bytes = 12500, .link_rate = 100_Gbps});
  cc.on_ack(b);
  return netcc::to_double(cc.window()) + netcc::to_double(cc.reference_window());
}

// u = 1.0: W = Wc = 125000 * 0.95 + 625 = 119375 (HPCC line 14; FastTune Eq. 4 and line 13).
static_assert(window_after_two_acks<netcc::hpcc>(false) == 2 * 119375.0);
static_assert(window_after_two_acks<netcc::fasttune>(true) == 2 * 119375.0);
static_assert(window_after_two_acks<netcc::fasttune>(false) == 2 * 119375.0);
static_assert(window_after_two_acks<netcc::basic_hpcc<netcc::arith::q32>>(false) > 2 * 119374.99 &&
              window_after_two_acks<netcc::basic_hpcc<netcc::arith::q32>>(false) < 2 * 119375.01);

// The shared per-hop utilisation (HPCC Alg. 1 line 6 = FastTune Eq. 1): 25000 B queued on a
// 125000 B BDP plus a full link = 1.2.
static_assert(netcc::detail::hop_utilisation<double>(12500, 1000_ns, 25000, 100_Gbps, 10_us, 1e9) ==
              1.2);
static_assert(netcc::detail::hop_utilisation<double>(-5, 1000_ns, -1, 100_Gbps, 10_us, 1e9) == 0.0);

}  // namespace

}  // namespace netcc_tests::static_int_window
