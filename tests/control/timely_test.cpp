// SPDX-License-Identifier: MIT
// TIMELY (netcc/control/timely.hpp): hand-computed examples of SIGCOMM'15 §3.1 (the RTT),
// Algorithm 1 line by line, HAI counting, the §5 rules (application-limited increases, the cap
// and floor, per-minimum-RTT scaling) and the §6 defaults; RapidCheck properties (bounds for
// any RTT sequence, T_high never raises and T_low never lowers the rate, the HAI counter law,
// double and q32 agree).
#include <netcc/control/timely.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <utility>
#include <vector>

namespace netcc_tests::control_timely {

using namespace netcc::literals;

namespace {

using q32_timely = netcc::basic_timely<netcc::arith::q32>;

double d(double v) {
  return v;
}
double d(netcc::fixed_point<31, 32> v) {
  return v.to_double();
}

// A completion at `t_us` microseconds with an RTT of `rtt_ns` nanoseconds.
netcc::rtt_event at(double t_us, std::int64_t rtt_ns) {
  return {.now = netcc::timestamp{static_cast<std::int64_t>(t_us * 1000)},
          .rtt = netcc::duration{rtt_ns}};
}

// Parameters that start a flow at 5 Gbps, so both increases and decreases are visible.
netcc::timely_params mid() {
  return {.initial_rate = 5_Gbps};
}

// q32 rounds each operation to 2^-32; a handful of operations stays far below this (Mbps).
constexpr double q32_tol = 1e-6;

}  // namespace

// ---------------------------------------------------------------------------------------------
// Defaults, validation, sanitising.

TEST(Timely, DefaultsAreSection6AndSection5) {
  const netcc::timely cc;
  const auto p = cc.params();
  EXPECT_EQ(p.t_low, 50_us);           // §6
  EXPECT_EQ(p.t_high, 500_us);         // §6
  EXPECT_EQ(p.delta, 10_Mbps);         // §6
  EXPECT_DOUBLE_EQ(p.beta, 0.8);       // §6
  EXPECT_EQ(p.segment, 16_KB);         // §6 (16,000 B)
  EXPECT_DOUBLE_EQ(p.alpha, 0.02);     // the authors' code snippet
  EXPECT_EQ(p.hai_threshold, 5u);      // Algorithm 1, §6.1
  EXPECT_EQ(p.hai_factor, 5u);         // Algorithm 1
  EXPECT_EQ(p.min_rtt, 20_us);         // §5
  EXPECT_EQ(p.line_rate, 10_Gbps);     // §5, §6
  EXPECT_DOUBLE_EQ(p.app_limit, 0.8);  // §5
  EXPECT_TRUE(p.scale_updates);        // §5
  EXPECT_EQ(p.ack_rtt, netcc::timely_ack_rtt::completion_time);
  EXPECT_TRUE(netcc::validate(p).ok());
  EXPECT_EQ(cc.rate(), 10_Gbps);  // starts at the line rate
  EXPECT_EQ(cc.pacing_rate(), cc.rate());
  EXPECT_EQ(cc.last_action(), netcc::timely_action::none);
  EXPECT_EQ(cc.outstanding_limit(), netcc::bytes::max());
  EXPECT_EQ(netcc::timely::state_bytes, 64u);
  EXPECT_EQ(q32_timely::state_bytes, 64u);
}

TEST(Timely, TimelyHasNoWindow) {
  // Rate-based (§3.3): cwnd() is the contract's "no window limit", bytes::max(), for a stack
  // or the testbench to enforce as no limit at all.
  EXPECT_EQ(netcc::timely{}.cwnd(), netcc::bytes::max());
  EXPECT_EQ(q32_timely{}.cwnd(), netcc::bytes::max());
  netcc::timely cc{{.max_outstanding = 1_MB}};
  EXPECT_EQ(cc.outstanding_limit(), 1_MB);  // §3.3's static safeguard, enforced by the stack
}

TEST(Timely, ValidateNamesFieldValueAndRule) {
  const auto v = netcc::validate(netcc::timely_params{.beta = 1.5});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].message(), "timely.beta = 1.5: must be in (0, 1]");

  netcc::timely_params p;
  p.t_low = -1_us;
  p.t_high = 0_us;
  p.delta = 11_Gbps;
  p.alpha = 0;
  p.hai_threshold = 0;
  p.hai_factor = 2'000'000;
  p.min_rtt = 0_us;
  p.segment = 0_B;
  p.min_rate = 0_bps;
  p.initial_rate = 20_Gbps;
  p.app_limit = 1.5;
  p.send_rate_window = -1_us;
  p.ack_rtt = static_cast<netcc::timely_ack_rtt>(7);
  p.max_outstanding = netcc::bytes{-1};
  const auto w = netcc::validate(p);
  for (const char* f :
       {"timely.t_low", "timely.t_high", "timely.delta", "timely.alpha", "timely.hai_threshold",
        "timely.hai_factor", "timely.min_rtt", "timely.segment", "timely.min_rate",
        "timely.initial_rate", "timely.app_limit", "timely.send_rate_window", "timely.ack_rtt",
        "timely.max_outstanding"})
    EXPECT_TRUE(w.names(f)) << f;
  EXPECT_FALSE(w.names("timely.beta"));
  EXPECT_EQ(netcc::validate(netcc::timely_params{.t_low = 600_us}).to_string(),
            "timely.t_high = 500000 ns: must be at least t_low\n");
  EXPECT_EQ(netcc::validate(netcc::timely_params{.line_rate = netcc::bit_rate{-1}})[0].message(),
            "timely.line_rate = -1 bps: must be in (0, 2 Pbps]");
}

TEST(Timely, InvalidFieldsFallBackToDefaults) {
  netcc::timely_params p;
  p.beta = std::numeric_limits<double>::quiet_NaN();
  p.alpha = 2;
  p.t_low = 600_us;  // above T_high: both thresholds fall back
  p.min_rtt = -5_us;
  p.line_rate = netcc::bit_rate{0};
  p.min_rate = 20_Gbps;
  const netcc::timely cc{p};
  const auto q = cc.params();
  EXPECT_TRUE(netcc::validate(q).ok()) << netcc::validate(q).to_string();
  EXPECT_DOUBLE_EQ(q.beta, 0.8);
  EXPECT_DOUBLE_EQ(q.alpha, 0.02);
  EXPECT_EQ(q.t_low, 50_us);
  EXPECT_EQ(q.t_high, 500_us);
  EXPECT_EQ(q.min_rtt, 20_us);
  EXPECT_EQ(q.line_rate, 10_Gbps);
  EXPECT_EQ(q.min_rate, 10_Mbps);
  // A min_rate default above a small line rate falls back to the line rate.
  const netcc::timely small{{.line_rate = 5_Mbps, .min_rate = 0_bps}};
  EXPECT_EQ(small.params().min_rate, 5_Mbps);
  EXPECT_EQ(small.params().delta, 5_Mbps);
  EXPECT_EQ(small.rate(), 5_Mbps);
}

// ---------------------------------------------------------------------------------------------
// §3.1: the RTT.

TEST(Timely, RttSubtractsSegmentSerialisation) {
  // §3.1: "in a 10 Gbps network, serialization of 64 KB takes 51 us": 64,000 B * 8 / 10 Gbps
  // = 51.2 us. Completion 80 us after the post: RTT = 80 - 51.2 = 28.8 us.
  EXPECT_EQ(64_KB / 10_Gbps, 51'200_ns);
  EXPECT_EQ(netcc::timely_rtt(netcc::timestamp{80'000}, netcc::timestamp{0}, 64_KB, 10_Gbps),
            28'800_ns);
  // 16 KB at 10 Gbps: 12.8 us; the clock's epoch does not matter.
  EXPECT_EQ(
      netcc::timely_rtt(netcc::timestamp{1'030'000}, netcc::timestamp{1'000'000}, 16_KB, 10_Gbps),
      17'200_ns);
  EXPECT_EQ(netcc::timely_rtt(30_us, 16_KB, 10_Gbps), 17'200_ns);
  // 1460 B at 10 Gbps: 1168 ns. 1 B at 3 bps: 2.67 s, rounded up to the nanosecond.
  EXPECT_EQ(netcc::timely_rtt(10_us, 1460_B, 10_Gbps), 8'832_ns);
  EXPECT_EQ(netcc::timely_rtt(3_s, 1_B, 3_bps), 333'333'333_ns);
  // Inconsistent readings give 0 (no sample); nothing is subtracted without a size or rate.
  EXPECT_EQ(netcc::timely_rtt(netcc::timestamp{10'000}, netcc::timestamp{0}, 16_KB, 10_Gbps), 0_ns);
  EXPECT_EQ(netcc::timely_rtt(netcc::timestamp{0}, netcc::timestamp{10}, 0_B, 10_Gbps), 0_ns);
  EXPECT_EQ(netcc::timely_rtt(25_us, 0_B, 10_Gbps), 25_us);
  EXPECT_EQ(netcc::timely_rtt(25_us, 16_KB, netcc::bit_rate{0}), 25_us);
  EXPECT_EQ(netcc::timely_rtt(25_us, netcc::bytes{-5}, 10_Gbps), 25_us);
  // The ends of the clock saturate instead of overflowing.
  EXPECT_EQ(netcc::timely_rtt(netcc::timestamp::max(), netcc::timestamp::min(), 1_B, 10_Gbps),
            netcc::duration::max());
  EXPECT_EQ(netcc::timely_rtt(netcc::timestamp::min(), netcc::timestamp::max(), 1_B, 10_Gbps),
            0_ns);
}

TEST(Timely, OnAckSubtractsTheAcknowledgedSegment) {
  // The ACK's RTT is a completion time (the testbench's convention). 16,000 B at 10 Gbps is
  // 12.8 us: 60 - 12.8 = 47.2 us < T_low.
  netcc::timely a{mid()};
  a.on_ack(netcc::ack_event{.now = netcc::timestamp{100'000}, .acked = 16_KB, .rtt = 60_us});
  EXPECT_EQ(a.prev_rtt(), 47'200_ns);
  EXPECT_EQ(a.last_action(), netcc::timely_action::increase_low);
  EXPECT_EQ(a.rate(), 5010_Mbps);
  // One 1460 B packet: 1.168 us, so 58.832 us: in the gradient zone (first sample: g = 0, +delta).
  netcc::timely b{mid()};
  b.on_ack(netcc::ack_event{.now = netcc::timestamp{100'000}, .acked = 1460_B, .rtt = 60_us});
  EXPECT_EQ(b.prev_rtt(), 58'832_ns);
  EXPECT_EQ(b.last_action(), netcc::timely_action::increase);
  // A cumulative ACK of 100 kB counts one segment (16 KB) of serialisation.
  netcc::timely c{mid()};
  c.on_ack(netcc::ack_event{.now = netcc::timestamp{100'000}, .acked = 100_KB, .rtt = 60_us});
  EXPECT_EQ(c.prev_rtt(), 47'200_ns);
  // ack_rtt = net: the RTT as it is.
  netcc::timely e{{.initial_rate = 5_Gbps, .ack_rtt = netcc::timely_ack_rtt::net}};
  e.on_ack(netcc::ack_event{.now = netcc::timestamp{100'000}, .acked = 16_KB, .rtt = 60_us});
  EXPECT_EQ(e.prev_rtt(), 60_us);
  // Not completions: no RTT, no newly acknowledged bytes, an RTT within the serialisation.
  netcc::timely f{mid()};
  f.on_ack(netcc::ack_event{.now = netcc::timestamp{1'000}, .acked = 16_KB, .rtt = 0_us});
  f.on_ack(netcc::ack_event{.now = netcc::timestamp{2'000}, .acked = 0_B, .rtt = 60_us});
  f.on_ack(netcc::ack_event{.now = netcc::timestamp{3'000}, .acked = 16_KB, .rtt = 12_us});
  EXPECT_EQ(f.last_action(), netcc::timely_action::none);
  EXPECT_EQ(f.prev_rtt(), 0_ns);
  EXPECT_EQ(f.rate(), 5_Gbps);
}

// ---------------------------------------------------------------------------------------------
// Algorithm 1, line by line (completions a minimum RTT or more apart: f = 1).

template <class C>
void low_threshold_adds_delta() {
  C cc{mid()};
  cc.on_rtt(at(100, 30'000));  // lines 5-7: 30 us < T_low = 50 us: 5000 + 10 = 5010 Mbps
  EXPECT_EQ(cc.last_action(), netcc::timely_action::increase_low);
  EXPECT_NEAR(d(cc.rate_mbps()), 5010, q32_tol);
  cc.on_rtt(at(200, 49'999));  // still below: 5020 (the +20 us rise is ignored below T_low)
  EXPECT_EQ(cc.last_action(), netcc::timely_action::increase_low);
  EXPECT_NEAR(d(cc.rate_mbps()), 5020, q32_tol);
  // ...but it is folded into rtt_diff: 0.98 * 0 + 0.02 * 19.999 = 0.39998 us (line 3).
  EXPECT_NEAR(d(cc.rtt_diff_us()), 0.39998, q32_tol);
  EXPECT_NEAR(d(cc.gradient()), 0.39998 / 20, q32_tol);
}
TEST(Timely, LowThresholdAddsDelta) {
  low_threshold_adds_delta<netcc::timely>();
  low_threshold_adds_delta<q32_timely>();
}

template <class C>
void high_threshold_cuts_on_instantaneous_rtt() {
  C cc{mid()};
  // lines 8-10: RTT = 1000 us > T_high: 5000 * (1 - 0.8 * (1 - 500/1000)) = 5000 * 0.6 = 3000.
  cc.on_rtt(at(1'000, 1'000'000));
  EXPECT_EQ(cc.last_action(), netcc::timely_action::decrease_high);
  EXPECT_NEAR(d(cc.rate_mbps()), 3000, q32_tol);
  // 625 us: the gradient is negative (rtt_diff = 0.02 * -375 = -7.5 us, g = -0.375), but above
  // T_high the instantaneous RTT decides: 3000 * (1 - 0.8 * (1 - 500/625)) = 3000 * 0.84 = 2520.
  cc.on_rtt(at(2'000, 625'000));
  EXPECT_EQ(cc.last_action(), netcc::timely_action::decrease_high);
  EXPECT_NEAR(d(cc.gradient()), -0.375, q32_tol);
  EXPECT_NEAR(d(cc.rate_mbps()), 2520, q32_tol);
  // Exactly T_high is not above it: the gradient zone (g < 0: +delta).
  cc.on_rtt(at(3'000, 500'000));
  EXPECT_EQ(cc.last_action(), netcc::timely_action::increase);
  EXPECT_NEAR(d(cc.rate_mbps()), 2530, q32_tol);
}
TEST(Timely, HighThresholdCutsOnInstantaneousRtt) {
  high_threshold_cuts_on_instantaneous_rtt<netcc::timely>();
  high_threshold_cuts_on_instantaneous_rtt<q32_timely>();
}

template <class C>
void gradient_zone() {
  C cc{mid()};
  // c1: first sample, new_rtt_diff = 0, g = 0 <= 0: line 12, N = 1: 5000 + 10 = 5010.
  cc.on_rtt(at(100, 100'000));
  EXPECT_EQ(cc.last_action(), netcc::timely_action::increase);
  EXPECT_NEAR(d(cc.rate_mbps()), 5010, q32_tol);
  // c2: +20 us: rtt_diff = 0.02 * 20 = 0.4 us; g = 0.4 / 20 = 0.02 > 0: line 14,
  //     5010 * (1 - 0.8 * 0.02) = 5010 * 0.984 = 4929.84.
  cc.on_rtt(at(200, 120'000));
  EXPECT_EQ(cc.last_action(), netcc::timely_action::decrease_gradient);
  EXPECT_NEAR(d(cc.rtt_diff_us()), 0.4, q32_tol);
  EXPECT_NEAR(d(cc.gradient()), 0.02, q32_tol);
  EXPECT_NEAR(d(cc.rate_mbps()), 4929.84, q32_tol);
  // c3: -10 us: rtt_diff = 0.98 * 0.4 - 0.02 * 10 = 0.192; g = 0.0096, still positive (the
  //     EWMA keeps the trend): 4929.84 * (1 - 0.8 * 0.0096) = 4891.9788288.
  cc.on_rtt(at(300, 110'000));
  EXPECT_EQ(cc.last_action(), netcc::timely_action::decrease_gradient);
  EXPECT_NEAR(d(cc.rtt_diff_us()), 0.192, q32_tol);
  EXPECT_NEAR(d(cc.rate_mbps()), 4891.9788288, q32_tol);
  EXPECT_EQ(cc.negative_gradients(), 0u);
  // c4: -30 us: rtt_diff = 0.98 * 0.192 - 0.02 * 30 = -0.41184; g = -0.020592 < 0: +10.
  cc.on_rtt(at(400, 80'000));
  EXPECT_EQ(cc.last_action(), netcc::timely_action::increase);
  EXPECT_NEAR(d(cc.rtt_diff_us()), -0.41184, q32_tol);
  EXPECT_NEAR(d(cc.gradient()), -0.020592, q32_tol);
  EXPECT_NEAR(d(cc.rate_mbps()), 4901.9788288, q32_tol);
  EXPECT_EQ(cc.negative_gradients(), 1u);
  EXPECT_EQ(cc.prev_rtt(), 80_us);
}
TEST(Timely, GradientZoneFollowsAlgorithm1) {
  gradient_zone<netcc::timely>();
  gradient_zone<q32_timely>();
}

template <class C>
void steep_gradient_floors() {
  // alpha = 1: rtt_diff is the last difference. 50 -> 450 us: g = 400 / 20 = 20, and
  // 1 - 0.8 * 20 < 0: the rate goes to min_rate (10 Mbps), not below zero.
  C cc{{.alpha = 1, .initial_rate = 5_Gbps}};
  cc.on_rtt(at(100, 50'000));  // exactly T_low is not below it: the zone, g = 0, +delta
  EXPECT_EQ(cc.last_action(), netcc::timely_action::increase);
  EXPECT_NEAR(d(cc.rate_mbps()), 5010, q32_tol);
  cc.on_rtt(at(200, 450'000));
  EXPECT_EQ(cc.last_action(), netcc::timely_action::decrease_gradient);
  EXPECT_NEAR(d(cc.gradient()), 20, q32_tol);
  EXPECT_EQ(cc.rate(), 10_Mbps);
}
TEST(Timely, SteepGradientFloorsAtMinRate) {
  steep_gradient_floors<netcc::timely>();
  steep_gradient_floors<q32_timely>();
}

TEST(Timely, RateIsCappedAtLineRateAndFlooredAtMinRate) {
  // §5: "we also cap the maximum target rate at 10 Gbps".
  netcc::timely up{{.initial_rate = 9'995_Mbps}};
  up.on_rtt(at(100, 10'000));  // 9995 + 10 capped at 10000
  EXPECT_EQ(up.rate(), 10_Gbps);
  up.on_rtt(at(200, 10'000));
  EXPECT_EQ(up.rate(), 10_Gbps);
  // An hour of RTT: (1 - 0.8 (1 - 500 us / 1 h)) ~ 0.2 per completion, down to min_rate.
  netcc::timely down{{.min_rate = 100_Mbps}};
  for (int i = 1; i <= 10; ++i) down.on_rtt(at(i * 1000.0, 3'600'000'000'000));
  EXPECT_EQ(down.rate(), 100_Mbps);
  EXPECT_EQ(down.last_action(), netcc::timely_action::decrease_high);
}

// Issue 16: q32 bounds round toward the inside of [min_rate, line_rate]. 17 bps is
// 73014.44 * 2^-32 Mbps and 1000001 bps is 4294971590.97 * 2^-32 Mbps: rounded to nearest, the
// floor fell below min_rate and the ceiling above line_rate. Compared in the fixed-point
// domain: raw * 10^6 against bps * 2^32.
TEST(Timely, Q32RateBoundsHonouredExactly) {
  using netcc::detail::i128;
  const auto mbps_raw_within = [](const q32_timely& cc, std::int64_t lo, std::int64_t hi) {
    const i128 scaled = i128{cc.rate_mbps().raw()} * 1'000'000;
    return scaled >= (i128{lo} << 32) && scaled <= (i128{hi} << 32);
  };
  q32_timely cc{{.line_rate = netcc::bit_rate{1'000'001}, .min_rate = netcc::bit_rate{17}}};
  EXPECT_TRUE(mbps_raw_within(cc, 17, 1'000'001));  // starts at the line rate
  cc.on_rtt(at(100, 10'000));                       // below T_low: + delta, capped
  EXPECT_TRUE(mbps_raw_within(cc, 17, 1'000'001));
  for (int i = 2; i <= 40; ++i) cc.on_rtt(at(i * 1000.0, 3'600'000'000'000));  // to the floor
  EXPECT_TRUE(mbps_raw_within(cc, 17, 1'000'001));
  EXPECT_EQ(cc.rate(), netcc::bit_rate{17});
  EXPECT_EQ(cc.rate_mbps().raw(), 73015);  // the floor, rounded up: 73015 * 2^-32 Mbps
}

// ---------------------------------------------------------------------------------------------
// HAI.

template <class C>
void hai_on_fifth() {
  // alpha = 1 makes the gradient the last difference. RTTs fall by 1 us per completion in the
  // gradient zone: completions 1-4 with a negative gradient add delta, the 5th and later add
  // 5 delta; a completion with a zero gradient (equal RTT) ends HAI at once.
  C cc{{.alpha = 1, .initial_rate = 5_Gbps}};
  cc.on_rtt(at(100, 200'000));  // first sample: g = 0, +10
  EXPECT_EQ(cc.negative_gradients(), 0u);
  double want = 5010;
  for (int k = 1; k <= 7; ++k) {
    cc.on_rtt(at(100.0 + 100 * k, 200'000 - 1'000 * k));
    EXPECT_EQ(cc.negative_gradients(), static_cast<std::uint32_t>(k));
    EXPECT_EQ(cc.hai(), k >= 5) << k;
    EXPECT_EQ(cc.last_action(),
              k >= 5 ? netcc::timely_action::increase_hai : netcc::timely_action::increase)
        << k;
    want += k >= 5 ? 50 : 10;
    EXPECT_NEAR(d(cc.rate_mbps()), want, q32_tol) << k;
  }
  cc.on_rtt(at(1'000, 193'000));  // equal RTT: g = 0 is not negative: counter 0, N = 1
  EXPECT_EQ(cc.negative_gradients(), 0u);
  EXPECT_FALSE(cc.hai());
  EXPECT_EQ(cc.last_action(), netcc::timely_action::increase);
  EXPECT_NEAR(d(cc.rate_mbps()), want + 10, q32_tol);
}
TEST(Timely, HaiEngagesOnTheFifthNegativeGradientAndEndsAtOnce) {
  hai_on_fifth<netcc::timely>();
  hai_on_fifth<q32_timely>();
}

TEST(Timely, HaiCountsTheSmoothedGradientOnEveryCompletion) {
  // With the default alpha the counter follows the EWMA, not the last difference: after a rise
  // of 100 us, RTT falls by 1 us per completion and rtt_diff stays positive for a while.
  netcc::timely cc{mid()};
  cc.on_rtt(at(100, 100'000));
  cc.on_rtt(at(200, 200'000));  // rtt_diff = 2 us
  std::int64_t rtt = 200'000;
  int k = 0;
  while (cc.gradient() >= 0) {
    rtt -= 1'000;
    cc.on_rtt(at(300.0 + 100 * k++, rtt));
  }
  // 2 * 0.98^k - (1 - 0.98^k) < 0 for the first k with 0.98^k < 1/3: k = 55.
  EXPECT_EQ(k, 55);
  EXPECT_EQ(cc.negative_gradients(), 1u);
  // The counter runs through the T_low region too: RTT steps from 145 us to 40 us.
  cc.on_rtt(at(10'000, 145'000 - 1'000));
  cc.on_rtt(at(10'100, 40'000));
  EXPECT_EQ(cc.last_action(), netcc::timely_action::increase_low);
  EXPECT_EQ(cc.negative_gradients(), 3u);
  cc.on_rtt(at(10'200, 39'000));
  cc.on_rtt(at(10'300, 60'000));  // back in the zone, still negative on average: 5th -> HAI
  EXPECT_LT(cc.gradient(), 0);
  EXPECT_EQ(cc.negative_gradients(), 5u);
  EXPECT_EQ(cc.last_action(), netcc::timely_action::increase_hai);
}

// A slowly decaying negative difference: RTT falls by 1 us once and then holds, so rtt_diff
// = -alpha (1 - alpha)^k us after k equal samples: negative for every k in exact arithmetic
// (and in double), so every completion counts towards HAI. q32 used to test the sign of
// rtt_diff / minRTT: its rtt_diff settles at about -1 / (2 alpha) units of 2^-32 us (rounding
// to nearest stops the decay there), and the quotient rounds that to 0 once minRTT exceeds
// about 1 / alpha us, resetting the counter while double kept counting.
template <class C>
void slow_decay_keeps_hai(double alpha, std::int64_t min_rtt_ns, int n) {
  netcc::timely_params p = mid();
  p.alpha = alpha;
  p.min_rtt = netcc::duration{min_rtt_ns};
  C cc{p};
  cc.on_rtt(at(0, 100'000));
  for (int k = 1; k <= n; ++k) {
    cc.on_rtt(at(200.0 * k, 99'000));  // in the gradient zone (T_low < RTT < T_high)
    ASSERT_LT(d(cc.rtt_diff_us()), 0) << "k = " << k;
    ASSERT_EQ(cc.negative_gradients(), static_cast<std::uint32_t>(k)) << "k = " << k;
    ASSERT_EQ(cc.last_action(),
              k >= 5 ? netcc::timely_action::increase_hai : netcc::timely_action::increase)
        << "k = " << k;
  }
}

TEST(Timely, SlowlyDecayingNegativeDifferenceKeepsHaiInBothPolicies) {
  for (const std::int64_t min_rtt : {20'000, 100'000}) {
    for (const double alpha : {0.02, 0.1}) {
      SCOPED_TRACE(testing::Message() << "alpha " << alpha << ", min_rtt " << min_rtt);
      slow_decay_keeps_hai<netcc::timely>(alpha, min_rtt, 2'000);
      slow_decay_keeps_hai<q32_timely>(alpha, min_rtt, 2'000);
    }
  }
  // alpha > 1/2: each step more than halves rtt_diff; q32 rounds it to 0 after ~35 steps and
  // double after ~360 (below its smallest subnormal). Both keep the last nonzero value.
  slow_decay_keeps_hai<netcc::timely>(0.875, 20'000, 600);
  slow_decay_keeps_hai<q32_timely>(0.875, 20'000, 600);
}

TEST(Timely, ZeroDifferencesFromZeroStayZero) {
  // The sign rule keeps a nonzero filter nonzero; a filter that is 0 stays 0 (gradient 0: the
  // N = 1 increase of lines 11-12, and the HAI counter resets).
  q32_timely cc{mid()};
  for (int k = 0; k < 10; ++k) cc.on_rtt(at(20.0 * k, 99'000));
  EXPECT_EQ(cc.rtt_diff_us().raw(), 0);
  EXPECT_EQ(cc.negative_gradients(), 0u);
  EXPECT_EQ(cc.last_action(), netcc::timely_action::increase);
}

// ---------------------------------------------------------------------------------------------
// §5: scaling by the fraction of a minimum RTT.

template <class C>
void scaling() {
  C cc{mid()};
  cc.on_rtt(at(100, 30'000));  // first completion: f = 1, 5010
  EXPECT_NEAR(d(cc.rate_mbps()), 5010, q32_tol);
  // Four completions 5 us apart: f = 5/20 = 0.25 each, together one delta: 5020.
  for (int i = 1; i <= 4; ++i) cc.on_rtt(at(100 + 5.0 * i, 30'000));
  EXPECT_NEAR(d(cc.rate_mbps()), 5020, q32_tol);
  // 40 us later: f = min(1, 2) = 1.
  cc.on_rtt(at(160, 30'000));
  EXPECT_NEAR(d(cc.rate_mbps()), 5030, q32_tol);
  // Same timestamp: f = 0, the rate holds, but prev_rtt and rtt_diff move.
  cc.on_rtt(at(160, 1'000'000));
  EXPECT_NEAR(d(cc.rate_mbps()), 5030, q32_tol);
  EXPECT_EQ(cc.prev_rtt(), 1'000'000_ns);
  EXPECT_EQ(cc.last_action(), netcc::timely_action::decrease_high);
  // Earlier than the previous completion: f = 0 too.
  cc.on_rtt(at(150, 1'000'000));
  EXPECT_NEAR(d(cc.rate_mbps()), 5030, q32_tol);
  // 5 us after the latest time seen (160): f = 0.25 on the T_high cut:
  // 5030 * (1 - 0.25 * 0.8 * (1 - 500/1000)) = 5030 * 0.9 = 4527.
  cc.on_rtt(at(165, 1'000'000));
  EXPECT_NEAR(d(cc.rate_mbps()), 4527, q32_tol);
}
TEST(Timely, UpdatesScaleByTheFractionOfMinRtt) {
  scaling<netcc::timely>();
  scaling<q32_timely>();
}

TEST(Timely, UnscaledRunsAlgorithm1PerCompletion) {
  netcc::timely cc{{.initial_rate = 5_Gbps, .scale_updates = false}};
  for (int i = 0; i < 4; ++i) cc.on_rtt(at(100, 30'000));  // same time, each a full delta
  EXPECT_EQ(cc.rate(), 5040_Mbps);
}

// ---------------------------------------------------------------------------------------------
// §5: application-limited increases.

TEST(Timely, IncreasesNeedMoreThan80PercentOfTheRate) {
  netcc::timely cc{mid()};
  // Exactly 80% (4000 of 5000 Mbps) is not "more than 80%": the increase is withheld.
  cc.on_rtt(at(100, 30'000), 4000_Mbps);
  EXPECT_EQ(cc.rate(), 5_Gbps);
  EXPECT_TRUE(cc.increase_held());
  EXPECT_EQ(cc.last_action(), netcc::timely_action::increase_low);
  cc.on_rtt(at(200, 30'000), netcc::bit_rate{4'000'000'001});
  EXPECT_EQ(cc.rate(), 5010_Mbps);
  EXPECT_FALSE(cc.increase_held());
  // Decreases apply whatever the application does.
  cc.on_rtt(at(300, 1'000'000), 0_bps);  // 5010 * 0.6 = 3006
  EXPECT_EQ(cc.rate(), 3006_Mbps);
  // The gradient-zone increase is held too: a first sample of 100 us (g = 0, line 12) with the
  // application at 1 Gbps < 0.8 * 5 Gbps.
  netcc::timely zone{mid()};
  zone.on_rtt(at(100, 100'000), 1_Gbps);
  EXPECT_EQ(zone.last_action(), netcc::timely_action::increase);
  EXPECT_TRUE(zone.increase_held());
  EXPECT_EQ(zone.rate(), 5_Gbps);
  // app_limit = 0: the rule is off.
  netcc::timely off{{.initial_rate = 5_Gbps, .app_limit = 0}};
  off.on_rtt(at(100, 30'000), 0_bps);
  EXPECT_EQ(off.rate(), 5010_Mbps);
}

TEST(Timely, SendMeterMeasuresTheApplicationRate) {
  netcc::timely cc{{.initial_rate = 1_Gbps}};  // meter window = minRTT = 20 us
  // Backlogged until the first on_send.
  cc.on_rtt(at(10, 30'000));
  EXPECT_EQ(cc.rate(), 1010_Mbps);
  // 12,500 B every 100 us is 1 Gbps. The window opened at 0 closes at 100: 12500 B / 100 us.
  cc.on_send(12'500_B, netcc::timestamp{0});
  cc.on_rtt(at(50, 30'000));  // open window spans 50 us >= 20 us: 12500 B / 50 us = 2 Gbps
  EXPECT_EQ(cc.rate(), 1020_Mbps);
  cc.on_send(12'500_B, netcc::timestamp{100'000});
  EXPECT_EQ(cc.send_rate(), 1_Gbps);
  cc.on_send(12'500_B, netcc::timestamp{200'000});
  // At 210 us the open window (200 us, 12,500 B) spans only 10 us: the closed one decides,
  // 1 Gbps > 0.8 * 1020 Mbps = 816 Mbps.
  cc.on_rtt(at(210, 30'000));
  EXPECT_EQ(cc.rate(), 1030_Mbps);
  // The application stops. At 350 us: 12,500 B / 150 us = 666.7 Mbps < 0.8 * 1030 = 824: held.
  cc.on_rtt(at(350, 30'000));
  EXPECT_TRUE(cc.increase_held());
  EXPECT_EQ(cc.rate(), 1030_Mbps);
  // Sends within one window are summed (a send stamped before the window opened counts in it,
  // a negative size as zero); the window closes at the first send 20 us or more after it
  // opened: 30,000 B over 30 us = 8 Gbps.
  netcc::timely m{{.initial_rate = 1_Gbps}};
  m.on_send(10'000_B, netcc::timestamp{0});
  m.on_send(10'000_B, netcc::timestamp{5'000});
  m.on_send(10'000_B, netcc::timestamp{-1'000});  // stamped before the window: counted in it
  m.on_send(netcc::bytes{-7}, netcc::timestamp{10'000});
  EXPECT_EQ(m.send_rate(), 0_bps);           // no window closed yet
  m.on_send(1_B, netcc::timestamp{30'000});  // 30,000 B / 30 us = 8 Gbps
  EXPECT_EQ(m.send_rate(), 8_Gbps);
}

// ---------------------------------------------------------------------------------------------
// Feedback traits, no-sample events, double vs q32.

}  // namespace netcc_tests::control_timely

namespace my_stack {
struct completion {
  std::uint64_t t_ns;
  std::uint32_t rtt_ns;
};
}  // namespace my_stack

template <>
struct netcc::feedback_traits<my_stack::completion> {
  static constexpr netcc::timestamp now(const my_stack::completion& c) noexcept {
    return netcc::timestamp{static_cast<std::int64_t>(c.t_ns)};
  }
  static constexpr netcc::duration rtt(const my_stack::completion& c) noexcept {
    return netcc::duration{c.rtt_ns};
  }
};

namespace netcc_tests::control_timely {

TEST(Timely, TakesAStacksOwnCompletionType) {
  netcc::timely a{mid()}, b{mid()};
  a.on_rtt(my_stack::completion{100'000, 30'000});
  b.on_rtt(at(100, 30'000));
  EXPECT_EQ(a.rate(), b.rate());
  EXPECT_EQ(a.rate(), 5010_Mbps);
}

TEST(Timely, ZeroAndNegativeRttsAreNoSample) {
  netcc::timely cc{mid()};
  cc.on_rtt(at(100, 0));
  cc.on_rtt(at(200, -5'000));
  cc.on_rtt(at(300, 0), 10_Gbps);
  EXPECT_EQ(cc.last_action(), netcc::timely_action::none);
  EXPECT_EQ(cc.rate(), 5_Gbps);
  cc.on_rtt(at(400, 1));  // 1 ns is a sample: below T_low, +delta (first completion: f = 1)
  EXPECT_EQ(cc.rate(), 5010_Mbps);
}

TEST(Timely, DoubleAndQ32AgreeOnAnIncastLikeTrace) {
  // RTTs rising through the zone past T_high and falling back below T_low, completions 4 us
  // apart (f = 0.2), the application at the line rate.
  netcc::timely a;
  q32_timely b;
  std::int64_t t = 0;
  for (int i = 0; i < 2000; ++i) {
    const std::int64_t rtt =
        i < 400 ? 20'000 + 1'500 * i
                : (i < 800 ? 620'000 - 1'500 * (i - 400) : 30'000 + (i % 7) * 4'000);
    t += 4'000;
    a.on_send(5'000_B, netcc::timestamp{t});
    b.on_send(5'000_B, netcc::timestamp{t});
    a.on_rtt(netcc::rtt_event{.now = netcc::timestamp{t}, .rtt = netcc::duration{rtt}});
    b.on_rtt(netcc::rtt_event{.now = netcc::timestamp{t}, .rtt = netcc::duration{rtt}});
    ASSERT_EQ(a.last_action(), b.last_action()) << i;
    ASSERT_EQ(a.negative_gradients(), b.negative_gradients()) << i;
    ASSERT_NEAR(a.rate_mbps(), b.rate_mbps().to_double(), 1e-4) << i;
    ASSERT_NEAR(a.rtt_diff_us(), b.rtt_diff_us().to_double(), 1e-6) << i;
  }
}

// ---------------------------------------------------------------------------------------------
// Properties.

namespace {

struct op {
  int kind;  // 0: on_rtt, 1: on_rtt with a send rate, 2: on_ack, 3: on_send
  std::int64_t t;
  std::int64_t rtt;
  std::int64_t amount;  // bytes (ack, send) or bps (send rate)
};

std::int64_t gen_rtt() {
  switch (*rc::gen::inRange(0, 8)) {
    case 0:
      return 0;
    case 1:
      return *rc::gen::element<std::int64_t>(3'600'000'000'000,
                                             std::numeric_limits<std::int64_t>::max(), -1,
                                             std::numeric_limits<std::int64_t>::min());
    case 2:
      return *rc::gen::inRange<std::int64_t>(1, 60'000);  // around T_low
    case 3:
      return *rc::gen::inRange<std::int64_t>(400'000, 2'000'000);  // around T_high
    default:
      return *rc::gen::inRange<std::int64_t>(1, 700'000);
  }
}

// Random sequences: RTTs anywhere (zero, an hour, the int64 ends, rising, falling, equal),
// times mostly advancing with equal and earlier ones, sends and ACKs of any size.
std::vector<op> gen_ops() {
  const auto n = *rc::gen::inRange(1, 300);
  std::vector<op> v;
  std::int64_t t = 0;
  std::int64_t rtt = 100'000;
  for (int i = 0; i < n; ++i) {
    const int dt = *rc::gen::inRange(0, 10);
    if (dt < 6) {
      t += *rc::gen::inRange<std::int64_t>(0, 40'000);
    } else if (dt < 8) {
      t += *rc::gen::inRange<std::int64_t>(0, 5'000'000);
    } else if (dt == 8) {
      t -= *rc::gen::inRange<std::int64_t>(0, 100'000);
    }
    const int r = *rc::gen::inRange(0, 4);
    if (r == 0) {
      rtt = gen_rtt();
    } else if (r == 1 && rtt > 5'000) {
      rtt -= *rc::gen::inRange<std::int64_t>(0, 5'000);  // decreasing runs (HAI)
    } else if (r == 2 && rtt < 1'000'000'000) {
      rtt += *rc::gen::inRange<std::int64_t>(0, 5'000);
    }  // else: equal
    v.push_back({*rc::gen::inRange(0, 4), t, rtt,
                 *rc::gen::element<std::int64_t>(0, 1460, 16'000, 1'000'000'000, 1LL << 40, -1)});
  }
  return v;
}

netcc::timely_params gen_params() {
  netcc::timely_params p;
  p.line_rate = netcc::bit_rate{
      *rc::gen::element<std::int64_t>(1'000'000'000, 10'000'000'000, 100'000'000'000)};
  p.min_rate = netcc::bit_rate{*rc::gen::element<std::int64_t>(1, 10'000'000, 500'000'000)};
  p.t_low = netcc::duration{*rc::gen::element<std::int64_t>(0, 10'000, 50'000)};
  p.t_high = netcc::duration{*rc::gen::element<std::int64_t>(50'000, 200'000, 500'000)};
  p.delta = netcc::bit_rate{*rc::gen::element<std::int64_t>(0, 10'000'000, 500'000'000)};
  p.beta = *rc::gen::element(0.1, 0.5, 0.8, 1.0);
  p.alpha = *rc::gen::element(0.02, 0.125, 0.875, 1.0);
  p.hai_threshold = static_cast<std::uint32_t>(*rc::gen::inRange(1, 8));
  p.hai_factor = static_cast<std::uint32_t>(*rc::gen::inRange(1, 8));
  p.min_rtt = netcc::duration{*rc::gen::element<std::int64_t>(1, 5'000, 20'000)};
  p.initial_rate = netcc::bit_rate{*rc::gen::element<std::int64_t>(0, 100'000'000)};
  p.app_limit = *rc::gen::element(0.0, 0.8, 1.0);
  p.scale_updates = *rc::gen::arbitrary<bool>();
  p.ack_rtt = *rc::gen::element(netcc::timely_ack_rtt::completion_time, netcc::timely_ack_rtt::net);
  return p;
}

template <class C>
void apply(C& cc, const op& o) {
  const netcc::timestamp t{o.t};
  const netcc::duration rtt{o.rtt};
  switch (o.kind) {
    case 0:
      cc.on_rtt(netcc::rtt_event{.now = t, .rtt = rtt});
      break;
    case 1:
      cc.on_rtt(netcc::rtt_event{.now = t, .rtt = rtt}, netcc::bit_rate{o.amount});
      break;
    case 2:
      cc.on_ack(netcc::ack_event{.now = t, .acked = netcc::bytes{o.amount}, .rtt = rtt});
      break;
    default:
      cc.on_send(netcc::bytes{o.amount}, t);
  }
}

// The RTT the controller sees for `o` (0: no sample).
netcc::duration seen_rtt(const netcc::timely_params& p, const op& o) {
  if (o.kind == 3 || o.rtt <= 0) return netcc::duration::zero();
  if (o.kind != 2 || p.ack_rtt == netcc::timely_ack_rtt::net)
    return o.kind == 2 && o.amount <= 0 ? netcc::duration::zero() : netcc::duration{o.rtt};
  if (o.amount <= 0) return netcc::duration::zero();
  const netcc::bytes seg = netcc::bytes{o.amount} < p.segment ? netcc::bytes{o.amount} : p.segment;
  return netcc::timely_rtt(netcc::duration{o.rtt}, seg, p.line_rate);
}

template <class C>
void check_bounds(const C& cc) {
  const auto p = cc.params();
  RC_ASSERT(netcc::validate(p).ok());
  RC_ASSERT(cc.rate() >= p.min_rate);
  RC_ASSERT(cc.rate() <= p.line_rate);
  RC_ASSERT(netcc::number_traits<typename C::value_type>::is_finite(cc.rate_mbps()));
  RC_ASSERT(netcc::number_traits<typename C::value_type>::is_finite(cc.gradient()));
  const double mb = netcc::to_double(cc.rate_mbps());
  RC_ASSERT(mb >= static_cast<double>(p.min_rate.bps()) / 1e6 - 1e-9);
  RC_ASSERT(mb <= static_cast<double>(p.line_rate.bps()) / 1e6 + 1e-9);
}

// The laws of one step from any reachable state.
template <class C>
void check_laws(const netcc::timely_params& p, const std::vector<op>& ops) {
  C cc{p};
  const auto q = cc.params();
  for (const auto& o : ops) {
    const C before = cc;
    apply(cc, o);
    check_bounds(cc);
    const netcc::duration rtt = seen_rtt(q, o);
    if (rtt <= netcc::duration::zero()) {  // no completion: only the meter may move
      RC_ASSERT(cc.rate_mbps() == before.rate_mbps());
      RC_ASSERT(cc.negative_gradients() == before.negative_gradients());
      RC_ASSERT(cc.prev_rtt() == before.prev_rtt());
      continue;
    }
    RC_ASSERT(cc.prev_rtt() == rtt);
    // The gradient's sign is rtt_diff's (minRTT > 0): the policy tests rtt_diff, not the
    // quotient, which q32 may round to 0 for a small difference (line 4 then line 5).
    const double g = netcc::to_double(cc.rtt_diff_us());
    // An RTT above T_high never raises the rate; one below T_low never lowers it.
    if (rtt > q.t_high) {
      RC_ASSERT(cc.rate_mbps() <= before.rate_mbps());
      RC_ASSERT(cc.last_action() == netcc::timely_action::decrease_high);
    }
    if (rtt < q.t_low) {
      RC_ASSERT(cc.rate_mbps() >= before.rate_mbps());
      RC_ASSERT(cc.last_action() == netcc::timely_action::increase_low);
    }
    // HAI: the counter is the run of negative gradients; HAI exactly when it reaches the
    // threshold, and it ends on the first completion whose gradient is not negative.
    if (g < 0) {
      const auto prev = before.negative_gradients();
      RC_ASSERT(cc.negative_gradients() == (prev == 0xFFFF'FFFFu ? prev : prev + 1));
    } else {
      RC_ASSERT(cc.negative_gradients() == 0u);
      RC_ASSERT(!cc.hai());
    }
    RC_ASSERT(cc.hai() == (cc.negative_gradients() >= q.hai_threshold));
    const auto a = cc.last_action();
    if (a == netcc::timely_action::increase || a == netcc::timely_action::increase_hai) {
      RC_ASSERT(g <= 0);
      RC_ASSERT((a == netcc::timely_action::increase_hai) == cc.hai());
    }
    if (a == netcc::timely_action::decrease_gradient) RC_ASSERT(g > 0);
    // Increases never lower, decreases never raise; a held increase changes nothing.
    if (a == netcc::timely_action::increase || a == netcc::timely_action::increase_hai ||
        a == netcc::timely_action::increase_low)
      RC_ASSERT(cc.rate_mbps() >= before.rate_mbps());
    else
      RC_ASSERT(cc.rate_mbps() <= before.rate_mbps());
    if (cc.increase_held()) RC_ASSERT(cc.rate_mbps() == before.rate_mbps());
  }
}

}  // namespace

RC_GTEST_PROP(TimelyProp, OutputsFiniteAndBoundedForAnyRttSequence, ()) {
  const auto p = gen_params();
  const auto ops = gen_ops();
  netcc::timely a{p};
  q32_timely b{p};
  for (const auto& o : ops) {
    apply(a, o);
    apply(b, o);
    check_bounds(a);
    check_bounds(b);
  }
}

RC_GTEST_PROP(TimelyProp, ThresholdAndHaiLawsHoldEveryStep, ()) {
  const auto p = gen_params();
  const auto ops = gen_ops();
  check_laws<netcc::timely>(p, ops);
  check_laws<q32_timely>(p, ops);
}

RC_GTEST_PROP(TimelyProp, HaiEngagesAfterFiveNegativeGradientsAndStopsAtOnce, ()) {
  // Falling RTTs in the gradient zone with alpha = 1: the k-th negative completion is in HAI
  // iff k >= 5; a rise or an equal RTT ends it on that completion.
  const int falls = *rc::gen::inRange(1, 20);
  netcc::timely cc{{.alpha = 1, .initial_rate = 1_Gbps}};
  std::int64_t t = 0, rtt = 400'000;
  cc.on_rtt(netcc::rtt_event{.now = netcc::timestamp{t}, .rtt = netcc::duration{rtt}});
  for (int k = 1; k <= falls; ++k) {
    t += *rc::gen::inRange<std::int64_t>(0, 40'000);
    rtt -= *rc::gen::inRange<std::int64_t>(1, 10'000);
    cc.on_rtt(netcc::rtt_event{.now = netcc::timestamp{t}, .rtt = netcc::duration{rtt}});
    RC_ASSERT(cc.negative_gradients() == static_cast<std::uint32_t>(k));
    RC_ASSERT(cc.last_action() ==
              (k >= 5 ? netcc::timely_action::increase_hai : netcc::timely_action::increase));
  }
  t += *rc::gen::inRange<std::int64_t>(0, 40'000);
  rtt += *rc::gen::inRange<std::int64_t>(0, 2);  // not lower: gradient >= 0
  cc.on_rtt(netcc::rtt_event{.now = netcc::timestamp{t}, .rtt = netcc::duration{rtt}});
  RC_ASSERT(cc.negative_gradients() == 0u);
  RC_ASSERT(!cc.hai());
  RC_ASSERT(cc.last_action() != netcc::timely_action::increase_hai);
}

RC_GTEST_PROP(TimelyProp, DoubleAndQ32TakeTheSameLine, ()) {
  // Same events, RTTs below a second, alpha and beta exact in q32, with long runs of equal RTTs
  // (slowly decaying differences). rtt_diff agrees within 1e-6 us. On every completion both
  // policies take the same line of Algorithm 1 (last_action()) and hold the same HAI count,
  // with one stated exception: the two rtt_diff values straddle 0 (one negative, the other not),
  // which needs |rtt_diff| within their rounding distance (1e-6 us); the comparison stops there
  // (the histories differ from then on). The application test on its 80 % boundary stops it
  // too. Rates agree within 1e-6 of the line rate + 1e-3 Mbps.
  auto p = gen_params();
  p.alpha = *rc::gen::element(0.5, 0.25, 0.125, 0.0625, 1.0);  // exact in both policies
  p.beta = *rc::gen::element(0.5, 0.75, 1.0);
  p.min_rtt = netcc::duration{*rc::gen::element<std::int64_t>(5'000, 20'000, 100'000)};
  auto ops = gen_ops();
  // Runs of equal RTTs after a step: the filter decays towards 0 without reaching it.
  const auto runs = *rc::gen::inRange(0, 3);
  for (int r = 0; r < runs; ++r) {
    const std::int64_t t0 = ops.empty() ? 0 : ops.back().t;
    const std::int64_t rtt = *rc::gen::inRange<std::int64_t>(60'000, 450'000);
    const std::int64_t step = *rc::gen::inRange<std::int64_t>(-3'000, 3'000);
    ops.push_back({0, t0 + 20'000, rtt, 0});
    const int len = *rc::gen::inRange(1, 200);
    for (int i = 1; i <= len; ++i) ops.push_back({0, t0 + 20'000 * (i + 1), rtt + step, 0});
  }
  netcc::timely a{p};
  q32_timely b{p};
  const double line = static_cast<double>(a.params().line_rate.bps()) / 1e6;
  for (const auto& o : ops) {
    if (o.rtt <= 0 || o.rtt > 1'000'000'000) continue;
    apply(a, o);
    apply(b, o);
    // rtt_diff is the same filter over the same integer samples: rounding apart, equal.
    const double da = a.rtt_diff_us(), db = b.rtt_diff_us().to_double();
    RC_ASSERT(std::abs(da - db) <= 1e-6);
    if (a.last_action() != b.last_action() || a.negative_gradients() != b.negative_gradients()) {
      RC_TAG("stopped: rtt_diff straddles 0");
      RC_ASSERT((da < 0) != (db < 0));  // only a sign split explains a different line
      RC_ASSERT(std::abs(da) <= 1e-6);
      return;
    }
    if (a.increase_held() != b.increase_held()) {
      RC_TAG("stopped: send rate on the 80 % boundary");
      return;
    }
    RC_ASSERT(std::abs(a.rate_mbps() - b.rate_mbps().to_double()) <= 1e-6 * line + 1e-3);
  }
}

RC_GTEST_PROP(TimelyProp, Q32HighThresholdCutWithinItsErrorBound, ()) {
  // Line 9 in q32 takes T_high / new_rtt through an integer reciprocal (relative error below
  // 2^-36): for any T_high, any RTT above it (up to the int64 end) and any rate, the q32 rate
  // after the cut is within rate (2^-35 + 2^-31) + 2^-30 Mbps of double's: the reciprocal
  // (2^-36 of the cut, beta <= 1), and the roundings of beta, the cut, 1 - cut (2^-33 each,
  // scaled by the rate) and of the rate and the product (2^-33 Mbps each).
  netcc::timely_params p;
  p.t_low = netcc::duration::zero();
  p.t_high = netcc::duration{*rc::gen::inRange<std::int64_t>(1, 1'000'000'000'000)};
  p.beta = *rc::gen::element(0.5, 0.75, 1.0, 0.8);
  p.line_rate = netcc::bit_rate{100'000'000'000};
  p.min_rate = netcc::bit_rate{1};
  p.initial_rate = netcc::bit_rate{*rc::gen::inRange<std::int64_t>(1'000'000, 100'000'000'000)};
  const std::int64_t above = *rc::gen::element<std::int64_t>(
      1, 1000, std::numeric_limits<std::int64_t>::max() - p.t_high.count());
  const std::int64_t rtt = p.t_high.count() + *rc::gen::inRange<std::int64_t>(1, above + 1);
  netcc::timely a{p};
  q32_timely b{p};
  a.on_rtt(netcc::rtt_event{.now = netcc::timestamp{1}, .rtt = netcc::duration{rtt}});
  b.on_rtt(netcc::rtt_event{.now = netcc::timestamp{1}, .rtt = netcc::duration{rtt}});
  RC_ASSERT(a.last_action() == netcc::timely_action::decrease_high);
  RC_ASSERT(b.last_action() == netcc::timely_action::decrease_high);
  const double ra = a.rate_mbps(), rb = b.rate_mbps().to_double();
  const double r0 = static_cast<double>(p.initial_rate.bps()) / 1e6;
  RC_ASSERT(std::abs(ra - rb) <= r0 * (0x1p-35 + 0x1p-31) + 0x1p-30);
}

namespace {

// One flow run through a shared config and an external flow_state: the same calls as apply()
// on the controller object.
template <class C>
struct external_flow {
  const typename C::config* cfg;
  typename C::flow_state st;
  template <class E>
  void on_rtt(const E& e) {
    cfg->on_rtt(st, e);
  }
  template <class E>
  void on_rtt(const E& e, netcc::bit_rate r) {
    cfg->on_rtt(st, e, r);
  }
  template <class E>
  void on_ack(const E& e) {
    cfg->on_ack(st, e);
  }
  void on_send(netcc::bytes b, netcc::timestamp t) { cfg->on_send(st, b, t); }
};

template <class C>
void check_external_matches_object(const netcc::timely_params& p, const std::vector<op>& ops) {
  C cc{p};
  const typename C::config cfg{p};
  external_flow<C> ext{&cfg, cfg.initial_state()};
  for (const auto& o : ops) {
    apply(cc, o);
    apply(ext, o);
    const auto& s = cc.state();
    const auto& t = ext.st;
    RC_ASSERT(s.rate == t.rate && s.rtt_diff == t.rtt_diff && s.sent == t.sent);
    RC_ASSERT(s.prev_rtt == t.prev_rtt && s.last == t.last && s.meter_start == t.meter_start);
    RC_ASSERT(s.meter_bytes == t.meter_bytes && s.neg == t.neg && s.action == t.action &&
              s.flags == t.flags);
    RC_ASSERT(cfg.rate(t) == cc.rate() && cfg.gradient(t) == cc.gradient());
    RC_ASSERT(cfg.last_action(t) == cc.last_action() && cfg.hai(t) == cc.hai());
    RC_ASSERT(cfg.send_rate(t) == cc.send_rate() && cfg.increase_held(t) == cc.increase_held());
  }
}

}  // namespace

RC_GTEST_PROP(TimelyProp, SharedConfigWithExternalStateMatchesTheController, ()) {
  // The controller is {config, flow_state}: one shared config and a flow's own flow_state give
  // bit-identical states and outputs on any trace, in both policies.
  const auto p = gen_params();
  const auto ops = gen_ops();
  check_external_matches_object<netcc::timely>(p, ops);
  check_external_matches_object<q32_timely>(p, ops);
}

namespace {

// Algorithm 1 in q32 as first written, on the number type's operators (mul_unit is operator*'s
// value, us_of ratio(d, 1000), the §5 scale ratio(gap, minRTT), gradient_of rtt_diff / minRTT in
// us: the properties above hold each to them): the reference the header's raw-integer products
// (ewma, raised, lowered, gradient_cut) must equal bit for bit.
struct reference_q32 {
  using q = netcc::fixed_point<31, 32>;
  netcc::timely_params p;
  q alpha, keep, beta, delta, hai_delta, min, line, m;

  explicit reference_q32(const netcc::timely_params& in) : p(in) {
    const q zero{0}, one{1};
    alpha = netcc::clamp_num(q{p.alpha}, zero, one);
    keep = one - alpha;
    beta = netcc::clamp_num(q{p.beta}, zero, one);
    delta = netcc::ratio<q>(p.delta.bps(), 1'000'000);
    hai_delta = q{static_cast<std::int64_t>(p.hai_factor)} * delta;
    line = netcc::ratio_down<q>(p.line_rate.bps(), 1'000'000);
    min = netcc::ratio_up<q>(p.min_rate.bps(), 1'000'000);
    if (line < min) line = min;
    m = netcc::ratio<q>(p.min_rtt.count(), 1000);
    if (m.raw() <= 0) m = netcc::ratio<q>(1, 1000);
  }

  // The rate and rtt_diff after a completion (RTT `rtt` > 0 at `now`, increases allowed) on `st`.
  std::pair<q, q> after(const q32_timely::flow_state& st, std::int64_t now,
                        std::int64_t rtt) const {
    const q zero{0}, one{1};
    const bool have_prev = (st.flags & 1) != 0, have_last = (st.flags & 2) != 0;
    const std::int64_t diff = have_prev ? rtt - st.prev_rtt.count() : 0;
    q rd = st.rtt_diff * keep + netcc::ratio<q>(diff, 1000) * alpha;
    if (diff == 0 && rd == zero && p.alpha < 1) rd = st.rtt_diff;
    const std::uint32_t neg = rd < zero ? (st.neg == 0xFFFF'FFFFu ? st.neg : st.neg + 1) : 0;
    q f = one;
    if (p.scale_updates && have_last) {
      const std::int64_t last = st.last.count();
      if (now <= last) {
        f = zero;
      } else if (now - last < p.min_rtt.count()) {
        f = netcc::ratio<q>(now - last, p.min_rtt.count());
      }
    }
    q rate = st.rate;
    const auto decrease = [&](q cut) {
      rate = netcc::clamp_num(rate * netcc::clamp_num(one - cut * f, zero, one), min, line);
    };
    if (rtt < p.t_low.count()) {
      rate = netcc::clamp_num(rate + delta * f, min, line);
    } else if (rtt > p.t_high.count()) {
      const auto n = static_cast<std::uint64_t>(rtt - p.t_high.count());
      decrease(q::from_raw(static_cast<std::int64_t>(
                   netcc::detail::mul_recip(n, static_cast<std::uint64_t>(rtt), 32))) *
               beta);
    } else if (rd <= zero) {
      rate = netcc::clamp_num(rate + (neg >= p.hai_threshold ? hai_delta : delta) * f, min, line);
    } else {
      decrease(rd / m * beta);
    }
    return {rate, rd};
  }
};

}  // namespace

RC_GTEST_PROP(TimelyProp, Q32RawProductsAreTheOperatorFormsBitForBit, ()) {
  // Any parameters, any state (rtt_diff and the rate anywhere in their ranges, the clocks and
  // prev_rtt anywhere), any RTT and time: rtt_diff and the rate after a completion are the
  // reference's, bit for bit (the saturating ends of line 3's sum and of the rate included).
  using q = netcc::fixed_point<31, 32>;
  auto p = gen_params();
  p.app_limit = 0;  // increases always allowed: the arithmetic is under test here
  p.alpha = *rc::gen::element(0.02, 0.125, 0.875, 1.0, 0.3, 1e-9);
  p.beta = *rc::gen::element(0.1, 0.5, 0.8, 1.0, 0.333);
  p.min_rtt =
      netcc::duration{*rc::gen::element<std::int64_t>(1, 5'000, 20'000, 12'500, 20'250, 1LL << 40)};
  const q32_timely::config cfg{p};
  const reference_q32 ref{cfg.params()};
  const int n = *rc::gen::inRange(1, 40);
  q32_timely::flow_state st = cfg.initial_state();
  const auto big = [] {
    constexpr std::int64_t top = q::raw_max;
    return *rc::gen::oneOf(
        rc::gen::inRange<std::int64_t>(-top, top),
        rc::gen::inRange<std::int64_t>(-(1LL << 40), 1LL << 40),
        rc::gen::element(std::int64_t{top}, std::int64_t{-top}, std::int64_t{0}, std::int64_t{1},
                         std::int64_t{-1}, std::int64_t{1} << 62));
  };
  if (*rc::gen::arbitrary<bool>()) {  // a state from anywhere in the ranges
    st.rtt_diff = q::from_raw(big());
    st.rate = q::from_raw(*rc::gen::inRange(ref.min.raw(), ref.line.raw() + 1));
  }
  std::int64_t t = *rc::gen::inRange<std::int64_t>(-(1LL << 40), 1LL << 40);
  for (int i = 0; i < n; ++i) {
    t += *rc::gen::oneOf(rc::gen::inRange<std::int64_t>(-1'000, 50'000),
                         rc::gen::element<std::int64_t>(0, 1LL << 40));
    const std::int64_t rtt = *rc::gen::oneOf(
        rc::gen::inRange<std::int64_t>(1, 700'000), rc::gen::inRange<std::int64_t>(1, 1LL << 62),
        rc::gen::element<std::int64_t>(1, std::numeric_limits<std::int64_t>::max(), (1LL << 30) - 1,
                                       1LL << 30, p.t_low.count(), p.t_high.count(),
                                       st.prev_rtt.count()));
    if (rtt <= 0) continue;  // no sample (a zero T_low or no prev_rtt yet)
    const auto [rate, rd] = ref.after(st, t, rtt);
    cfg.on_rtt(st, netcc::rtt_event{.now = netcc::timestamp{t}, .rtt = netcc::duration{rtt}},
               netcc::bit_rate{1});
    RC_ASSERT(st.rtt_diff.raw() == rd.raw());
    RC_ASSERT(st.rate.raw() == rate.raw());
  }
}

RC_GTEST_PROP(TimelyProp, Q32Line3IsTheOperatorFormBitForBit, ()) {
  // Line 3 in q32 (the signed product for (1 - alpha) rtt_diff, the sum without operator+'s
  // overflow test for |new_rtt_diff| < 2^30 ns) against the reference's operators: any alpha
  // (1/2 and 1/4 make exact ties of the rounding, 1e-12 a zero raw alpha), any rtt_diff (the
  // ends of the range, odd and small values of both signs), any difference, the edges of the
  // fast range and beyond it; the sign rule for a zero difference included.
  using q = netcc::fixed_point<31, 32>;
  netcc::timely_params p{};
  p.alpha = *rc::gen::oneOf(
      rc::gen::element(0.02, 0.5, 0.25, 0.75, 1.0, 1e-12, 0x1p-32),
      rc::gen::map(rc::gen::inRange(1, 1'000'000), [](int k) { return k / 1'000'000.0; }));
  const q32_timely::config cfg{p};
  const reference_q32 ref{cfg.params()};
  constexpr std::int64_t top = q::raw_max, lim = std::int64_t{1} << 30;
  const std::int64_t prev = *rc::gen::oneOf(
      rc::gen::inRange<std::int64_t>(-top, top), rc::gen::inRange<std::int64_t>(-4'096, 4'096),
      rc::gen::map(rc::gen::inRange<std::int64_t>(-(1LL << 40), 1LL << 40),
                   [](std::int64_t v) { return v | 1; }),
      rc::gen::element(top, -top, top - 1, -top + 1, std::int64_t{0}, std::int64_t{1},
                       std::int64_t{-1}, std::int64_t{1} << 62, -(std::int64_t{1} << 62)));
  const std::int64_t d = *rc::gen::oneOf(
      rc::gen::inRange<std::int64_t>(-lim, lim + 1),
      rc::gen::inRange<std::int64_t>(-(1LL << 40), 1LL << 40),
      rc::gen::element(std::int64_t{0}, std::int64_t{1}, std::int64_t{-1}, lim - 1, -(lim - 1), lim,
                       -lim, lim + 1, -(lim + 1), std::int64_t{1} << 42));
  const std::int64_t a = std::int64_t{1} << 43;  // a + d > 0
  q32_timely::flow_state st = cfg.initial_state();
  cfg.on_rtt(st, netcc::rtt_event{.now = netcc::timestamp{1}, .rtt = netcc::duration{a}});
  st.rtt_diff = q::from_raw(prev);
  const q want = ref.after(st, 2, a + d).second;
  cfg.on_rtt(st, netcc::rtt_event{.now = netcc::timestamp{2}, .rtt = netcc::duration{a + d}});
  RC_ASSERT(st.rtt_diff.raw() == want.raw());
}

namespace {

// The line 3 keep term as the 128-bit expression it replaces: (r k + 2^(F-1) - [r < 0]) >> F.
template <int F>
std::int64_t keep_term_128(std::int64_t r, std::int64_t k) {
  using netcc::detail::i128;
  return static_cast<std::int64_t>(
      (i128{r} * k + ((std::int64_t{1} << (F - 1)) - (r < 0 ? 1 : 0))) >> F);
}

template <int F>
void check_keep_term(std::int64_t r, std::int64_t k) {
  RC_ASSERT(netcc::detail::timely_keep_term<F>(r, k) == keep_term_128<F>(r, k));
}

}  // namespace

static_assert(netcc::detail::timely_keep_term<32>(-1, std::int64_t{1} << 32) == -1);
static_assert(netcc::detail::timely_keep_term<32>(std::numeric_limits<std::int64_t>::min(),
                                                  std::int64_t{1} << 32) ==
              std::numeric_limits<std::int64_t>::min());
static_assert(netcc::detail::timely_keep_term<32>(3, std::int64_t{1} << 31) == 2);    // 1.5: up
static_assert(netcc::detail::timely_keep_term<32>(-3, std::int64_t{1} << 31) == -2);  // away

RC_GTEST_PROP(TimelyProp, Q32KeepTermIsThe128BitExpression, ()) {
  // Line 3's (1 - alpha) rtt_diff from r's two 64-bit parts against the 128-bit expression, bit
  // for bit: any r (both ends of int64, odd values of both signs, exact ties), any k in
  // [0, 2^F] (0, 1, 2^(F-1), 2^F - 1, 2^F), for q32's F = 32 and for F = 1, 16, 31 and 40.
  const std::int64_t r = *rc::gen::oneOf(
      rc::gen::arbitrary<std::int64_t>(), rc::gen::inRange<std::int64_t>(-4'096, 4'096),
      rc::gen::map(rc::gen::arbitrary<std::int64_t>(),
                   [](std::int64_t v) { return v | (std::int64_t{1} << 31); }),
      rc::gen::element(std::numeric_limits<std::int64_t>::min(),
                       std::numeric_limits<std::int64_t>::max(), std::int64_t{0}, std::int64_t{1},
                       std::int64_t{-1}, std::numeric_limits<std::int64_t>::min() + 1));
  const auto kq = [](int f) {
    const std::int64_t top = std::int64_t{1} << f;
    return *rc::gen::oneOf(
        rc::gen::inRange<std::int64_t>(0, top + 1),
        rc::gen::element(std::int64_t{0}, std::int64_t{1}, top / 2, top - 1, top));
  };
  check_keep_term<32>(r, kq(32));
  check_keep_term<1>(r, kq(1));
  check_keep_term<16>(r, kq(16));
  check_keep_term<31>(r, kq(31));
  check_keep_term<40>(r, kq(40));
}

RC_GTEST_PROP(TimelyProp, Q32MbpsIsTheExactQuotient, ()) {
  // Rates to q32 Mbps (a 64-bit division by the constant 31250 below 2^36 bps, else a 128-bit
  // reciprocal): the initial rate is ratio(bps, 1e6) clamped into [min_rate, line_rate], for
  // any line rate up to 2 Pbps and any initial rate below it.
  using q = netcc::fixed_point<31, 32>;
  const std::int64_t line = *rc::gen::oneOf(
      rc::gen::inRange<std::int64_t>(10'000'000, 1LL << 37),
      rc::gen::inRange<std::int64_t>(10'000'000, netcc::timely_max_line_rate.bps() + 1));
  const std::int64_t init =
      *rc::gen::oneOf(rc::gen::inRange<std::int64_t>(1, line + 1),
                      rc::gen::element(std::int64_t{line}, std::int64_t{(1LL << 36) - 1},
                                       std::int64_t{1LL << 36}, std::int64_t{(1LL << 36) + 1}));
  if (init > line) return;
  const netcc::timely_params p{.line_rate = netcc::bit_rate{line},
                               .min_rate = netcc::bit_rate{1},
                               .initial_rate = netcc::bit_rate{init}};
  const q32_timely cc{p};
  q lo = netcc::ratio_up<q>(1, 1'000'000), hi = netcc::ratio_down<q>(line, 1'000'000);
  if (hi < lo) hi = lo;
  RC_ASSERT(cc.rate_mbps() == std::clamp(netcc::ratio<q>(init, 1'000'000), lo, hi));
}

RC_GTEST_PROP(TimelyProp, Q32Div31250IsTheOperatorQuotient, ()) {
  // The division by 31250 of the rates to q32 Mbps (invariant_divisor's multiply-high, which
  // replaced the operator's division by the constant) is x / 31250 for every x below 2^63: any x, multiples of
  // 31250 and their neighbours, the top of the range, and the dividends mbps() forms from rates
  // below 2^36 bps (bps 2^27 + 15625).
  const std::uint64_t top = std::uint64_t{1} << 63;
  const std::uint64_t k = *rc::gen::inRange<std::uint64_t>(0, top / 31'250 + 1);
  const std::uint64_t bps = *rc::gen::inRange<std::uint64_t>(0, std::uint64_t{1} << 36);
  const std::uint64_t x =
      *rc::gen::oneOf(rc::gen::inRange<std::uint64_t>(0, top),
                      rc::gen::just(k * 31'250 > 0 ? k * 31'250 - 1 : 0), rc::gen::just(k * 31'250),
                      rc::gen::just(k * 31'250 + 31'249 < top ? k * 31'250 + 31'249 : top - 1),
                      rc::gen::element(std::uint64_t{0}, std::uint64_t{31'249},
                                       std::uint64_t{31'250}, top - 1, top - 31'250, top - 31'251),
                      rc::gen::just((bps << 27) + 15'625));
  RC_ASSERT(x < top);
  static constexpr netcc::detail::invariant_divisor per_31250{31'250};
  RC_ASSERT(per_31250.div_floor64(x) == x / 31'250);
}

TEST(Timely, StateSizes) {
  std::printf("timely flow_state: double %zu B, q32 %zu B; config: double %zu B, q32 %zu B\n",
              sizeof(netcc::timely::flow_state), sizeof(q32_timely::flow_state),
              sizeof(netcc::timely::config), sizeof(q32_timely::config));
  EXPECT_EQ(netcc::timely::state_bytes, sizeof(netcc::timely::flow_state));
  EXPECT_EQ(q32_timely::state_bytes, sizeof(q32_timely::flow_state));
}

RC_GTEST_PROP(TimelyProp, Q32NewRttDiffIsTheExactQuotient, ()) {
  // Line 3's input d / 1000 us (a 64-bit division by the constant for |d| < 2^30 ns, else the
  // 128-bit path): with alpha = 1, rtt_diff is exactly ratio(d, 1000) for any difference d.
  const std::int64_t a = *rc::gen::inRange<std::int64_t>(1, std::int64_t{1} << 40);
  const std::int64_t b =
      *rc::gen::oneOf(rc::gen::inRange<std::int64_t>(1, std::int64_t{1} << 40),
                      rc::gen::inRange<std::int64_t>(a > 2'000 ? a - 2'000 : 1, a + 2'000));
  q32_timely cc{{.alpha = 1}};
  cc.on_rtt(netcc::rtt_event{.now = netcc::timestamp{1}, .rtt = netcc::duration{a}});
  cc.on_rtt(netcc::rtt_event{.now = netcc::timestamp{2}, .rtt = netcc::duration{b}});
  RC_ASSERT((cc.rtt_diff_us() == netcc::ratio<netcc::fixed_point<31, 32>>(b - a, 1000)));
}

RC_GTEST_PROP(TimelyProp, Q32ScaleIsTheExactQuotient, ()) {
  // §5's f = gap / minRTT (a 64-bit reciprocal of minRTT in q32): after a first completion at
  // the line rate's floor side, a second below T_low adds exactly ratio(gap, minRTT) delta.
  const std::int64_t min_rtt = *rc::gen::oneOf(rc::gen::inRange<std::int64_t>(1, 100'000),
                                               rc::gen::inRange<std::int64_t>(1, 1LL << 34));
  const std::int64_t gap = *rc::gen::inRange<std::int64_t>(0, min_rtt);
  const netcc::timely_params p{
      .t_low = 1_s, .t_high = 2_s, .min_rtt = netcc::duration{min_rtt}, .initial_rate = 100_Mbps};
  q32_timely cc{p};
  const std::int64_t t0 = *rc::gen::inRange<std::int64_t>(0, 1LL << 50);
  cc.on_rtt(netcc::rtt_event{.now = netcc::timestamp{t0}, .rtt = 10_us});
  const auto r1 = cc.rate_mbps();
  cc.on_rtt(netcc::rtt_event{.now = netcc::timestamp{t0 + gap}, .rtt = 10_us});
  using q = netcc::fixed_point<31, 32>;
  RC_ASSERT(cc.rate_mbps() == r1 + netcc::ratio<q>(gap, min_rtt) * netcc::ratio<q>(10, 1));
}

RC_GTEST_PROP(TimelyProp, Q32GradientIsTheExactQuotient, ()) {
  // Line 4's rtt_diff / minRTT in q32 (a 64-bit reciprocal of minRTT's raw value without its low
  // zero bits while |rtt_diff| is in that path's range, else a 128-bit one): the same value as
  // operator/ for any rtt_diff and minRTT, minRTTs in whole, half and quarter microseconds
  // (raw values with 30-32 or more low zero bits) included.
  const std::int64_t min_rtt = *rc::gen::oneOf(
      rc::gen::inRange<std::int64_t>(1, 100'000), rc::gen::inRange<std::int64_t>(1, 1LL << 40),
      rc::gen::map(rc::gen::inRange<std::int64_t>(1, 1LL << 20),
                   [](std::int64_t us) { return us * 1000; }),
      rc::gen::map(rc::gen::inRange<std::int64_t>(1, 1LL << 20),
                   [](std::int64_t q) { return q * 250; }));
  const std::int64_t a = *rc::gen::inRange<std::int64_t>(1, std::int64_t{1} << 40);
  const std::int64_t b =
      *rc::gen::oneOf(rc::gen::inRange<std::int64_t>(1, std::int64_t{1} << 40),
                      rc::gen::inRange<std::int64_t>(a > 600 ? a - 600 : 1, a + 600));
  q32_timely cc{{.alpha = *rc::gen::element(1.0, 0.02, 0.5), .min_rtt = netcc::duration{min_rtt}}};
  cc.on_rtt(netcc::rtt_event{.now = netcc::timestamp{1}, .rtt = netcc::duration{a}});
  cc.on_rtt(netcc::rtt_event{.now = netcc::timestamp{2}, .rtt = netcc::duration{b}});
  using q = netcc::fixed_point<31, 32>;
  q m = netcc::ratio<q>(min_rtt, 1000);
  if (m.raw() <= 0) m = netcc::ratio<q>(1, 1000);
  RC_ASSERT(cc.gradient() == cc.rtt_diff_us() / m);
}

RC_GTEST_PROP(TimelyProp, MulNonnegIsOperatorTimes, ()) {
  // netcc::mul_nonneg (the rate and scale products of lines 5-14 in fixed point) equals
  // operator* bit for bit for any non-negative q32 operands, saturation included, and for
  // negative ones (where it is operator*).
  using q = netcc::fixed_point<31, 32>;
  const auto raw = [] {
    return *rc::gen::oneOf(rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 33),
                           rc::gen::inRange<std::int64_t>(0, q::raw_max),
                           rc::gen::inRange<std::int64_t>(-q::raw_max, q::raw_max),
                           rc::gen::element<std::int64_t>(0, 1, q::raw_max, std::int64_t{1} << 31));
  };
  const q a = q::from_raw(raw()), b = q::from_raw(raw());
  RC_ASSERT(netcc::mul_nonneg(a, b) == a * b);
  const netcc::fixed_point<15, 0> c{*rc::gen::inRange(0, 40'000)}, e{*rc::gen::inRange(0, 3)};
  RC_ASSERT(netcc::mul_nonneg(c, e) == c * e);
  RC_ASSERT(netcc::mul_nonneg(a.to_double(), b.to_double()) == a.to_double() * b.to_double());
}

RC_GTEST_PROP(TimelyProp, DivisorU64IsExact, ()) {
  // netcc::detail::divisor_u64 (Swift's num_acked; divisor_u63 serves TIMELY): floor and
  // nearest quotients equal the hardware division for any divisor and 64-bit dividend.
  const std::uint64_t d =
      *rc::gen::oneOf(rc::gen::inRange<std::uint64_t>(1, 5'000),
                      rc::gen::inRange<std::uint64_t>(1, std::numeric_limits<std::uint64_t>::max()),
                      rc::gen::element<std::uint64_t>(1, 2, 3, 1000, std::uint64_t{1} << 63,
                                                      (std::uint64_t{1} << 63) + 1,
                                                      std::numeric_limits<std::uint64_t>::max()));
  const std::uint64_t n = *rc::gen::oneOf(
      rc::gen::inRange<std::uint64_t>(0, 1'000'000),
      rc::gen::inRange<std::uint64_t>(0, std::numeric_limits<std::uint64_t>::max()),
      rc::gen::element<std::uint64_t>(0, d - 1, d, d + 1, std::numeric_limits<std::uint64_t>::max(),
                                      std::numeric_limits<std::uint64_t>::max() - d / 2));
  const netcc::detail::divisor_u64 v{d};
  RC_ASSERT(v.div_floor(n) == n / d);
  if (n <= std::numeric_limits<std::uint64_t>::max() - d / 2)
    RC_ASSERT(v.div_nearest(n) == (n + d / 2) / d);
}

TEST(Timely, AckSerialisationBeyondTheClockIsNoSample) {
  // 4.5e18 B at 2 Gbps serialise in 1.8e19 ns, beyond 2^63 - 1: the §3.1 RTT of an hour-long
  // completion time is then 0 (no sample), as timely_rtt gives, in both policies.
  const netcc::timely_params p{.segment = netcc::bytes{std::numeric_limits<std::int64_t>::max()},
                               .line_rate = 2_Gbps};
  const netcc::ack_event e{.now = netcc::timestamp{1'000},
                           .acked = netcc::bytes{4'469'609'775'865'790'301},
                           .rtt = netcc::duration{3'600'000'000'000}};
  EXPECT_EQ(netcc::timely_rtt(e.rtt, e.acked, p.line_rate), netcc::duration::zero());
  netcc::timely a{p};
  q32_timely b{p};
  a.on_ack(e);
  b.on_ack(e);
  EXPECT_EQ(a.prev_rtt(), netcc::duration::zero());
  EXPECT_EQ(b.prev_rtt(), netcc::duration::zero());
  EXPECT_EQ(a.last_action(), netcc::timely_action::none);
}

}  // namespace netcc_tests::control_timely
