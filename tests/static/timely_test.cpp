// SPDX-License-Identifier: MIT
// static_assert-only: TIMELY (netcc/control/timely.hpp) runs at compile time (no allocation, no
// clock, no exceptions) with both policies; the §3.1 RTT helper, the hand-computed steps of
// Algorithm 1 from tests/control/timely_test.cpp, HAI on the fifth negative gradient, the §5
// scaling and application-limited rule evaluated by the compiler; the events it accepts; the
// per-flow state budgets, and netcc::timely_compact's Algorithm 1 steps.
#include <netcc/control/timely.hpp>

namespace netcc_tests::static_timely {

namespace {
using namespace netcc::literals;

// §3.1: 64,000 B at 10 Gbps serialise in 51.2 us; 80 us after the post the RTT is 28.8 us.
static_assert(netcc::timely_rtt(netcc::timestamp{80'000}, netcc::timestamp{0}, 64_KB, 10_Gbps) ==
              28'800_ns);
static_assert(netcc::timely_rtt(30_us, 16_KB, 10_Gbps) == 17'200_ns);  // 30 - 12.8 us
static_assert(netcc::timely_rtt(10_us, 16_KB, 10_Gbps) == 0_ns);       // inconsistent: no sample
static_assert(netcc::timely_rtt(netcc::timestamp::max(), netcc::timestamp::min(), 1_B, 10_Gbps) ==
              netcc::duration::max());

constexpr netcc::timely_params mid{.initial_rate = 5_Gbps};

constexpr netcc::rtt_event at(std::int64_t t_us, std::int64_t rtt_ns) {
  return {.now = netcc::timestamp{t_us * 1000}, .rtt = netcc::duration{rtt_ns}};
}

constexpr bool near(double a, double b) {
  return a - b < 1e-6 && b - a < 1e-6;
}

// Algorithm 1, completions 100 us apart (f = 1), from 5000 Mbps:
//   100 us RTT, first sample: g = 0, line 12: 5010;
//   120 us: rtt_diff = 0.02 * 20 = 0.4 us, g = 0.02, line 14: 5010 * (1 - 0.8 * 0.02) = 4929.84;
//   1000 us > T_high, lines 8-10: 4929.84 * (1 - 0.8 * (1 - 500/1000)) = 2957.904;
//   30 us < T_low, lines 5-7: 2967.904.
template <class Policy>
constexpr bool algorithm1_lines() {
  netcc::basic_timely<Policy> cc{mid};
  cc.on_rtt(at(100, 100'000));
  if (!near(netcc::to_double(cc.rate_mbps()), 5010) ||
      cc.last_action() != netcc::timely_action::increase)
    return false;
  cc.on_rtt(at(200, 120'000));
  if (!near(netcc::to_double(cc.gradient()), 0.02) ||
      !near(netcc::to_double(cc.rate_mbps()), 4929.84) ||
      cc.last_action() != netcc::timely_action::decrease_gradient)
    return false;
  cc.on_rtt(at(300, 1'000'000));
  if (!near(netcc::to_double(cc.rate_mbps()), 2957.904) ||
      cc.last_action() != netcc::timely_action::decrease_high)
    return false;
  cc.on_rtt(at(400, 30'000));
  return near(netcc::to_double(cc.rate_mbps()), 2967.904) &&
         cc.last_action() == netcc::timely_action::increase_low;
}
static_assert(algorithm1_lines<netcc::arith::ieee_double>());
static_assert(algorithm1_lines<netcc::arith::q32>());

// HAI with alpha = 1 (the gradient is the last difference): RTT falling 1 us per completion
// from 200 us; the 1st-4th negative gradients add delta, the 5th and 6th add 5 delta; an equal
// RTT ends HAI at once: 5000 + 10 (first sample) + 4 * 10 + 2 * 50 + 10 = 5160 Mbps.
template <class Policy>
constexpr bool hai_fifth() {
  netcc::basic_timely<Policy> cc{{.alpha = 1, .initial_rate = 5_Gbps}};
  cc.on_rtt(at(100, 200'000));
  for (std::int64_t k = 1; k <= 6; ++k) {
    cc.on_rtt(at(100 + 100 * k, 200'000 - 1'000 * k));
    if (cc.hai() != (k >= 5) || cc.negative_gradients() != static_cast<std::uint32_t>(k))
      return false;
  }
  cc.on_rtt(at(800, 194'000));
  return !cc.hai() && cc.negative_gradients() == 0 && cc.rate() == 5160_Mbps;
}
static_assert(hai_fifth<netcc::arith::ieee_double>());
static_assert(hai_fifth<netcc::arith::q32>());

// §5 scaling: four completions 5 us apart at min RTT 20 us scale by 0.25 each: one delta.
template <class Policy>
constexpr netcc::bit_rate four_within_one_min_rtt() {
  netcc::basic_timely<Policy> cc{mid};
  cc.on_rtt(at(100, 30'000));  // first: f = 1, 5010
  for (std::int64_t i = 1; i <= 4; ++i)
    cc.on_rtt(netcc::rtt_event{.now = netcc::timestamp{100'000 + 5'000 * i}, .rtt = 30_us});
  return cc.rate();
}
static_assert(four_within_one_min_rtt<netcc::arith::ieee_double>() == 5020_Mbps);
static_assert(four_within_one_min_rtt<netcc::arith::q32>() == 5020_Mbps);

// §5: an increase needs the application above 80 % of the rate (4000 of 5000 Mbps is not).
constexpr bool app_limited_holds() {
  netcc::timely cc{mid};
  cc.on_rtt(at(100, 30'000), 4000_Mbps);
  return cc.increase_held() && cc.rate() == 5_Gbps;
}
static_assert(app_limited_holds());

// The §5 cap and floor: from 9995 Mbps one delta reaches the 10 Gbps line rate, no more; an
// hour of RTT cuts to the floor.
constexpr bool cap_and_floor() {
  netcc::timely up{{.initial_rate = 9'995_Mbps}};
  up.on_rtt(at(100, 10'000));
  netcc::timely down{{.min_rate = 100_Mbps}};
  for (std::int64_t i = 1; i <= 10; ++i) down.on_rtt(at(1000 * i, 3'600'000'000'000));
  return up.rate() == 10_Gbps && down.rate() == 100_Mbps;
}
static_assert(cap_and_floor());

// Events: completions through RttFeedback (on_rtt), ACKs with an RTT (on_ack); not a CNP.
template <class C, class E>
concept takes_rtt = requires(C c, const E& e) {
  c.on_rtt(e);
};
template <class C, class E>
concept takes_ack = requires(C c, const E& e) {
  c.on_ack(e);
};
static_assert(takes_rtt<netcc::timely, netcc::rtt_event>);
static_assert(takes_rtt<netcc::timely, netcc::ack_event>);
static_assert(takes_ack<netcc::timely, netcc::ack_event>);
static_assert(!takes_rtt<netcc::timely, netcc::cnp_event>);
static_assert(!takes_ack<netcc::timely, netcc::cnp_event>);
static_assert(!takes_ack<netcc::timely, netcc::src_event>);

// Per-flow state budget: 64 B with either policy; 32 B in the compact q32 form.
static_assert(netcc::timely::state_bytes <= 64);
static_assert(netcc::basic_timely<netcc::arith::q32>::state_bytes <= 64);
static_assert(netcc::timely_compact::state_bytes <= 32);

// The compact form runs Algorithm 1's hand-computed steps at compile time too: the same lines,
// the rate within its 2^-18 Mbps unit (10 Gbps line rate) of the exact values.
constexpr bool compact_algorithm1_lines() {
  netcc::timely_compact cc{mid};
  const std::int64_t rtts[] = {100'000, 120'000, 1'000'000, 30'000};
  const netcc::timely_action lines[] = {
      netcc::timely_action::increase, netcc::timely_action::decrease_gradient,
      netcc::timely_action::decrease_high, netcc::timely_action::increase_low};
  const double mbps[] = {5010, 4929.84, 2957.904, 2967.904};
  for (int i = 0; i < 4; ++i) {
    cc.on_rtt(at(100 * (i + 1), rtts[i]));
    const double r = cc.rate_mbps().to_double();
    if (cc.last_action() != lines[i] || r - mbps[i] > 0x1p-17 || mbps[i] - r > 0x1p-17)
      return false;
  }
  return true;
}
static_assert(compact_algorithm1_lines());

}  // namespace

}  // namespace netcc_tests::static_timely
