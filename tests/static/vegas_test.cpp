// SPDX-License-Identifier: MIT
// static_assert-only: TCP Vegas (netcc/control/vegas.hpp) runs at compile time (no allocation, no
// clock, no exceptions) with both arithmetic policies; hand-computed rounds of
// tests/control/vegas_test.cpp evaluated by the compiler (the seed's Algorithm 3 lines 8-25); the
// per-flow state budget (full and compact); config with an external flow_state; the feedback
// concepts it needs.
#include <netcc/control/vegas.hpp>

namespace netcc_tests::static_vegas {

namespace {

using netcc::duration;

constexpr netcc::ack_event ack(netcc::sequence seq, netcc::sequence nxt, std::int64_t rtt_ns) {
  return {.ack_seq = seq, .snd_nxt = nxt, .acked = netcc::bytes{1460}, .rtt = duration{rtt_ns}};
}

// Alg. 3 lines 8, 15, 17, 10-12, 20-24: 8 packets, BaseRTT 87.5 us. Round 1 (minRTT = BaseRTT,
// diff 0) doubles to 16; round 2 (holding) measures 100 us: diff = 16 (1 - 0.875) = 2 > gamma,
// W = 16 * 0.875 = 14 packets; rounds 3, 4: diff 1.75, 1.875 < alpha: + 1 each; round 5: diff 2
// = alpha: unchanged; round 6 at 125 us: diff = 16 * 0.3 = 4.8 > beta: - 1. Every factor is a
// power of two or exact, so double and q32 give the same bytes.
template <class C>
constexpr double six_rounds() {
  C cc{{.init_cwnd = netcc::bytes{8 * 1460}}};
  cc.on_ack(ack(1460, 11'680, 87'500));
  cc.on_ack(ack(11'680, 20'000, 87'500));
  cc.on_ack(ack(20'000, 30'000, 100'000));
  cc.on_ack(ack(30'000, 40'000, 100'000));
  cc.on_ack(ack(40'000, 50'000, 100'000));
  cc.on_ack(ack(50'000, 60'000, 100'000));
  cc.on_ack(ack(60'000, 70'000, 125'000));
  return netcc::to_double(cc.window());
}
static_assert(six_rounds<netcc::vegas>() == 15 * 1460.0);
static_assert(six_rounds<netcc::vegas_fixed>() == 15 * 1460.0);
static_assert(six_rounds<netcc::vegas_compact>() == 15 * 1460.0);  // whole bytes throughout

// §III-A and the timeout: 3/4 on a loss, none for data sent before it; a timeout halves into
// ssthresh and restarts from the two-packet floor.
template <class C>
constexpr bool loss_then_timeout() {
  C cc;
  cc.on_loss(ack(1460, 14'600, 0));  // 10950
  cc.on_loss(ack(5000, 20'000, 0));  // 5000 < 14600: ignored
  const bool cut = netcc::to_double(cc.window()) == 10'950.0 && cc.reductions() == 1u;
  cc.on_timeout(netcc::timestamp{1});
  return cut && cc.cwnd() == netcc::bytes{2920} && netcc::to_double(cc.ssthresh()) == 5475.0 &&
         cc.in_slow_start() && cc.doubling_round();
}
static_assert(loss_then_timeout<netcc::vegas>());
static_assert(loss_then_timeout<netcc::vegas_fixed>());
static_assert(loss_then_timeout<netcc::vegas_compact>());

// Diff = (Expected - Actual) * BaseRTT = W (1 - BaseRTT / minRTT).
static_assert(netcc::vegas_diff(12.0, duration{75'000}, duration{100'000}) == 3.0);
static_assert(netcc::vegas_diff(12.0, duration{100'000}, duration{100'000}) == 0.0);
static_assert(netcc::vegas_diff(12.0, duration{1}, duration{0}) == 0.0);

// Per-flow state: 56 B in full width (both policies), 32 B in the compact form (the budget of
// RTT controllers in fixed point).
static_assert(netcc::vegas::state_bytes <= 56);
static_assert(netcc::vegas_fixed::state_bytes <= 56);
static_assert(netcc::vegas_compact::state_bytes == 32);
static_assert(sizeof(netcc::vegas_compact::flow_state) == 32);

// config with a flow_state evaluates as the object does, at compile time too.
constexpr bool config_matches_object() {
  const netcc::vegas_compact::config cfg{{.init_cwnd = netcc::bytes{8 * 1460}}};
  auto st = cfg.initial_state();
  netcc::vegas_compact cc{{.init_cwnd = netcc::bytes{8 * 1460}}};
  cfg.on_ack(st, ack(1460, 11'680, 87'500));
  cfg.on_ack(st, ack(11'680, 20'000, 87'500));
  cc.on_ack(ack(1460, 11'680, 87'500));
  cc.on_ack(ack(11'680, 20'000, 87'500));
  return cfg.cwnd(st) == cc.cwnd() && cfg.cwnd(st) == netcc::bytes{16 * 1460};
}
static_assert(config_matches_object());

// Vegas reads ACKs with an RTT: netcc::ack_event and netcc::rtt_event have both; a CNP has
// neither.
template <class C, class E>
concept accepts = requires(C c, const E& e) {
  c.on_ack(e);
};
static_assert(accepts<netcc::vegas, netcc::ack_event>);
static_assert(accepts<netcc::vegas, netcc::rtt_event>);
static_assert(!accepts<netcc::vegas, netcc::cnp_event>);
static_assert(!accepts<netcc::vegas, netcc::src_event>);

}  // namespace

}  // namespace netcc_tests::static_vegas
