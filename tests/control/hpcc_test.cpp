// SPDX-License-Identifier: MIT
// HPCC (SIGCOMM'19 Algorithm 1): defaults and validation, hand-computed values per algorithm
// line (MeasureInflight, ComputeWind's two branches and maxStage, the per-RTT reference window),
// the decisions the paper leaves open, and properties: bounds, monotonicity, the W_AI step at
// U = eta, q32 against double.
#include <netcc/control/hpcc.hpp>
#include <netcc/core/int_wire.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "control/int_window_testing.hpp"

namespace netcc_tests::control_hpcc {

using namespace netcc::literals;
using netcc_test::ack;
using netcc_test::hop;
using netcc_test::util;
using netcc_test::win;
using netcc_test::wref;

namespace {

// 100 Gbps, T = 10 us: BDP = 125000 B; N = 10: W_AI = 125000 * 0.05 / 10 = 625 B.
netcc::hpcc_params base_params() {
  return {.host_rate = 100_Gbps, .base_rtt = 10_us, .expected_flows = 10};
}

}  // namespace

TEST(Hpcc, PaperDefaults) {
  const netcc::hpcc_params p{};
  EXPECT_DOUBLE_EQ(p.eta, 0.95);    // HPCC §5
  EXPECT_EQ(p.max_stage, 5);        // HPCC §5
  EXPECT_EQ(p.host_rate, 25_Gbps);  // PowerTCP §4.1
  EXPECT_EQ(p.base_rtt, 28_us);     // PowerTCP §4.1
  EXPECT_TRUE(netcc::validate(p).ok());

  netcc::hpcc d{};  // 25 Gbps * 28 us = 87500 B; W_AI = 87500 * 0.05 = 4375 B
  EXPECT_EQ(d.cwnd(), 87500_B);
  EXPECT_NEAR(netcc::to_double(d.w_ai()), 4375.0, 1e-9);
  EXPECT_EQ(d.max_window(), 87500_B);
  EXPECT_EQ(d.pacing_rate(), 25_Gbps);  // W_init / T: line rate from the start

  netcc::hpcc cc{base_params()};
  EXPECT_EQ(cc.cwnd(), 125000_B);
  EXPECT_NEAR(netcc::to_double(cc.w_ai()), 625.0, 1e-9);
  EXPECT_EQ(cc.inc_stage(), 0);
  EXPECT_FALSE(cc.estimator().has_value());
}

TEST(Hpcc, ExplicitWaiInitAndMax) {
  auto p = base_params();
  p.w_ai = 100_B;
  p.cwnd_init = 40000_B;
  p.max_cwnd = 300000_B;
  netcc::hpcc cc{p};
  EXPECT_NEAR(netcc::to_double(cc.w_ai()), 100.0, 1e-9);
  EXPECT_EQ(cc.cwnd(), 40000_B);
  EXPECT_EQ(cc.max_window(), 300000_B);
}

TEST(Hpcc, ValidateNamesEveryBadField) {
  const netcc::hpcc_params p{.eta = 1.2,
                             .max_stage = -1,
                             .host_rate = 0_bps,
                             .base_rtt = 0_ns,
                             .expected_flows = 0,
                             .w_ai = netcc::bytes{-1},
                             .cwnd_init = netcc::bytes{-1},
                             .min_cwnd = 0_B,
                             .max_cwnd = netcc::bytes{-3},
                             .min_rate = netcc::bit_rate{-1}};
  const auto v = netcc::validate(p);
  for (const char* f : {"eta", "max_stage", "host_rate", "base_rtt", "expected_flows", "w_ai",
                        "cwnd_init", "min_cwnd", "max_cwnd", "min_rate"})
    EXPECT_TRUE(v.names(std::string("hpcc.") + f)) << f;
  EXPECT_EQ(v[0].message(), "hpcc.eta = 1.2: must be in (0, 1]");
  auto q = base_params();
  q.min_cwnd = 5000_B;
  q.max_cwnd = 4000_B;
  q.min_rate = 200_Gbps;
  const auto w = netcc::validate(q);
  EXPECT_TRUE(w.names("hpcc.max_cwnd"));
  EXPECT_TRUE(w.names("hpcc.min_rate"));
  EXPECT_FALSE(w.names("hpcc.eta"));
  EXPECT_FALSE(netcc::validate(netcc::hpcc_params{.eta = std::nan("")}).ok());
}

TEST(Hpcc, InvalidParamsFallBackAndStayBounded) {
  netcc::hpcc cc{{.eta = -3,
                  .max_stage = -2,
                  .host_rate = netcc::bit_rate{-1},
                  .base_rtt = netcc::duration{-1},
                  .expected_flows = 0,
                  .min_cwnd = netcc::bytes{-1},
                  .max_cwnd = netcc::bytes{-1}}};
  const auto p = cc.params();
  EXPECT_DOUBLE_EQ(p.eta, 0.95);
  EXPECT_EQ(p.max_stage, 5);
  EXPECT_EQ(p.host_rate, 25_Gbps);
  EXPECT_EQ(p.base_rtt, 28_us);
  EXPECT_EQ(p.expected_flows, 1);
  EXPECT_EQ(p.min_cwnd, 1500_B);
  EXPECT_EQ(cc.cwnd(), 87500_B);
}

// ---------------------------------------------------------------------------------------------
// Algorithm 1, line by line

TEST(Hpcc, FirstAckStoresRecordsAndDoesNotUpdate) {
  netcc::hpcc cc{base_params()};
  cc.on_ack(ack(0, 1, 200'000, {hop(0, 0, 0, 100_Gbps)}));
  EXPECT_EQ(cc.estimator().hops(), 1u);
  EXPECT_FALSE(cc.estimator().has_value());
  EXPECT_DOUBLE_EQ(win(cc), 125000.0);
  EXPECT_DOUBLE_EQ(wref(cc), 125000.0);
}

TEST(Hpcc, HandComputedMeasureInflightAndComputeWind) {
  netcc::hpcc cc{base_params()};
  cc.on_ack(ack(0, 1, 200'000, {hop(0, 0, 0, 100_Gbps)}));
  // dt = 1 us, 12500 B sent: txRate = 100 Gbps = B; qlen = min(25000, 0) = 0 -> u = 1.0 (line 6)
  // First sample: U = 1.0. ack.seq 1001 > lastUpdateSeq 0: update (line 23).
  // U >= eta: W = Wc / (U/eta) + W_AI = 125000 * 0.95 + 625 = 119375 (line 14); Wc = W.
  cc.on_ack(ack(1000, 1001, 201'000, {hop(1000, 25000, 12500, 100_Gbps)}));
  EXPECT_DOUBLE_EQ(util(cc), 1.0);
  EXPECT_NEAR(win(cc), 119375.0, 1e-9);
  EXPECT_NEAR(wref(cc), 119375.0, 1e-9);
  // qlen = min(25000, 25000) = 25000: u = 25000 / 125000 + 1 = 1.2; tau = 1 us of T = 10 us:
  // U = 0.9 * 1.0 + 0.1 * 1.2 = 1.02 (line 10). Within the round: W = 119375 * 0.95 / 1.02 + 625.
  cc.on_ack(ack(2000, 2001, 202'000, {hop(2000, 25000, 25000, 100_Gbps)}));
  EXPECT_NEAR(util(cc), 1.02, 1e-12);
  EXPECT_NEAR(win(cc), 113406.25 / 1.02 + 625, 1e-6);
  EXPECT_NEAR(wref(cc), 119375.0, 1e-9);  // Wc unchanged
  // Past lastUpdateSeq = 201000: qlen = min(0, 25000) = 0, u = 1.0, U = 0.9 * 1.02 + 0.1 = 1.018.
  cc.on_ack(ack(3000, 201'001, 400'000, {hop(3000, 0, 37500, 100_Gbps)}));
  EXPECT_NEAR(util(cc), 1.018, 1e-12);
  EXPECT_NEAR(win(cc), 113406.25 / 1.018 + 625, 1e-6);
  EXPECT_NEAR(wref(cc), win(cc), 1e-9);  // Wc = W
  EXPECT_EQ(cc.pacing_rate(), cc.cwnd() / 10_us);
}

TEST(Hpcc, AdditiveIncreaseStagesThenMultiplicative) {
  auto p = base_params();
  p.cwnd_init = 50000_B;
  p.max_cwnd = 1'000'000_B;
  netcc::hpcc cc{p};
  cc.on_ack(ack(0, 1, 1'000'000, {hop(0, 0, 0, 100_Gbps)}));
  // u = 0.5 on every ACK (6250 B per us at 100 Gbps), each ACK past lastUpdateSeq.
  auto step = [&](std::int64_t k) {
    cc.on_ack(ack(1000 * k, static_cast<netcc::sequence>(k) * 1'000'000 + 1,
                  static_cast<netcc::sequence>(k + 1) * 1'000'000,
                  {hop(1000 * k, 0, 6250u * static_cast<std::uint64_t>(k), 100_Gbps)}));
  };
  // U < eta and incStage < maxStage: W = Wc + W_AI, incStage + 1 (lines 18-20).
  for (std::int64_t k = 1; k <= 5; ++k) {
    step(k);
    EXPECT_NEAR(win(cc), 50000.0 + 625.0 * static_cast<double>(k), 1e-9) << k;
    EXPECT_EQ(cc.inc_stage(), k);
    EXPECT_EQ(cc.last_branch(), netcc::hpcc_branch::additive_reference);
  }
  // incStage = maxStage: W = Wc / (U/eta) + W_AI = 53125 * 1.9 + 625 = 101562.5, incStage = 0.
  step(6);
  EXPECT_NEAR(win(cc), 101562.5, 1e-6);
  EXPECT_EQ(cc.inc_stage(), 0);
  EXPECT_EQ(cc.last_branch(), netcc::hpcc_branch::multiplicative_reference);
  step(7);
  EXPECT_NEAR(win(cc), 102187.5, 1e-6);
  EXPECT_EQ(cc.inc_stage(), 1);
  // Within a round (no Wc update): W = Wc + W_AI, the stage does not move.
  cc.on_ack(ack(8000, 7'000'002, 9'000'000, {hop(8000, 0, 50000, 100_Gbps)}));
  EXPECT_NEAR(win(cc), 102812.5, 1e-6);
  EXPECT_EQ(cc.inc_stage(), 1);
  EXPECT_EQ(cc.last_branch(), netcc::hpcc_branch::additive);
  EXPECT_NEAR(wref(cc), 102187.5, 1e-6);
}

TEST(Hpcc, MaxStageZeroIsPureMimd) {
  auto p = base_params();
  p.max_stage = 0;
  p.max_cwnd = 1'000'000_B;
  netcc::hpcc cc{p};
  cc.on_ack(ack(0, 1, 1'000'000, {hop(0, 0, 0, 100_Gbps)}));
  cc.on_ack(ack(1000, 2, 1'000'000, {hop(1000, 0, 6250, 100_Gbps)}));  // U = 0.5
  EXPECT_NEAR(win(cc), 125000 * 1.9 + 625, 1e-6);
}

TEST(Hpcc, DuplicateAndReorderedAcks) {
  netcc::hpcc cc{base_params()};
  const auto a0 = ack(0, 1, 200'000, {hop(0, 0, 0, 100_Gbps)});
  const auto a1 = ack(1000, 1001, 201'000, {hop(1000, 0, 12500, 100_Gbps)});
  const auto a2 = ack(2000, 2001, 202'000, {hop(2000, 50000, 20000, 100_Gbps)});
  cc.on_ack(a0);
  cc.on_ack(a1);
  cc.on_ack(a2);
  const double u = util(cc), w = win(cc);
  cc.on_ack(a2);  // duplicate: dt = 0, no sample; ComputeWind with the same U and Wc
  EXPECT_EQ(util(cc), u);
  EXPECT_EQ(win(cc), w);
  cc.on_ack(a1);  // reordered: dt < 0, no sample, the record re-synchronises
  EXPECT_EQ(util(cc), u);
  // The next ACK differences against a1's record (ts 1000, tx 12500): dt = 2 us, 25000 B.
  cc.on_ack(ack(3000, 2002, 202'000, {hop(3000, 0, 37500, 100_Gbps)}));
  EXPECT_NEAR(util(cc), u + 0.2 * (1.0 - u), 1e-12);
}

TEST(Hpcc, PathChangeResetsHistory) {
  netcc::hpcc cc{base_params()};
  cc.on_ack(ack(0, 1, 200'000, {hop(0, 0, 0, 100_Gbps)}));
  cc.on_ack(ack(1000, 2, 200'000, {hop(1000, 0, 12500, 100_Gbps)}));
  const double u = util(cc);
  // Two hops now: a new path. Stored, no sample.
  cc.on_ack(ack(2000, 3, 200'000, {hop(2000, 0, 0, 100_Gbps), hop(2000, 99999, 5, 100_Gbps)}));
  EXPECT_EQ(util(cc), u);
  EXPECT_EQ(cc.estimator().hops(), 2u);
  // Same count, changed rate on hop 1: again a path change.
  cc.on_ack(ack(3000, 4, 200'000, {hop(3000, 0, 0, 100_Gbps), hop(3000, 0, 10, 25_Gbps)}));
  EXPECT_EQ(util(cc), u);
  // Then samples resume: idle hop 0, hop 1 at 25 Gbps sending 3125 B/us = full -> u = 1.
  cc.on_ack(ack(4000, 5, 200'000, {hop(4000, 0, 0, 100_Gbps), hop(4000, 0, 3135, 25_Gbps)}));
  EXPECT_NEAR(util(cc), u + 0.1 * (1.0 - u), 1e-12);
  // More hops than the stack holds cannot arrive through int_stack; a zero-rate hop is skipped.
  cc.on_ack(ack(5000, 6, 200'000, {hop(5000, 0, 0, 0_bps), hop(5000, 0, 6260, 25_Gbps)}));
  EXPECT_EQ(util(cc), util(cc));  // finite
}

TEST(Hpcc, IdlePathStillSamplesAndRaisesTheWindowToItsCap) {
  auto p = base_params();
  p.cwnd_init = 20000_B;
  netcc::hpcc cc{p};
  cc.on_ack(ack(0, 1, 1'000'000, {hop(0, 0, 0, 100_Gbps), hop(0, 0, 0, 100_Gbps)}));
  cc.on_ack(ack(1000, 2, 1'000'000, {hop(1000, 0, 0, 100_Gbps), hop(1000, 0, 0, 100_Gbps)}));
  EXPECT_TRUE(cc.estimator().has_value());  // u = 0 everywhere still sets tau (first hop)
  EXPECT_EQ(util(cc), 0.0);
  // U = 0 < eta: additive stage first (W = Wc + W_AI); the MI branch would divide by U = 0.
  EXPECT_NEAR(win(cc), 20625.0, 1e-9);
  netcc::hpcc mi{{.max_stage = 0, .host_rate = 100_Gbps, .base_rtt = 10_us}};
  mi.on_ack(ack(0, 1, 1'000'000, {hop(0, 0, 0, 100_Gbps)}));
  mi.on_ack(ack(1000, 2, 1'000'000, {hop(1000, 0, 0, 100_Gbps)}));
  EXPECT_EQ(mi.cwnd(), mi.max_window());  // no division by U = 0: the cap
}

TEST(Hpcc, WindowAndRateLimits) {
  auto p = base_params();
  p.min_cwnd = 10000_B;
  p.max_cwnd = 60000_B;
  p.min_rate = 20_Gbps;
  netcc::hpcc cc{p};
  EXPECT_EQ(cc.cwnd(), 60000_B);  // W_init 125000 clamped
  cc.on_ack(ack(0, 1, 1'000'000, {hop(0, 0, 0, 100_Gbps)}));
  for (int k = 1; k <= 50; ++k)
    cc.on_ack(ack(1000 * k, static_cast<netcc::sequence>(k) * 2'000'000, (k + 1) * 2'000'000ULL,
                  {hop(1000 * k, 10'000'000, 12500u * static_cast<std::uint64_t>(k), 100_Gbps)}));
  EXPECT_EQ(cc.cwnd(), 10000_B);
  EXPECT_EQ(cc.pacing_rate(), 20_Gbps);  // 10000 B / 10 us = 8 Gbps, raised to min_rate
}

// 24-bit timestamps and 20-bit 128-byte tx counters (HPCC's wire format): a run across the wrap
// equals the same run away from it.
TEST(Hpcc, WrappedCountersDouble) {
  netcc_test::wrapped_counters_case<
      netcc::basic_hpcc<netcc::arith::ieee_double, netcc::hpcc_int_format::stack>>(base_params(),
                                                                                   0);
}
TEST(Hpcc, WrappedCountersQ32) {
  netcc_test::wrapped_counters_case<
      netcc::basic_hpcc<netcc::arith::q32, netcc::hpcc_int_format::stack>>(base_params(), 0);
}

// Issue 16: q32 over the default 64-bit INT stack with a 4 GB queue, a timestamp jump to
// 2^63 - 1, link rates of 2^62 bps and T = 2^63 - 1 ns: no 128-bit overflow, U as in double.
TEST(Hpcc, ExtremeIntInputsQ32OverTheDefaultStack) {
  netcc_test::extreme_int_inputs_case<netcc::hpcc, netcc::basic_hpcc<netcc::arith::q32>>(
      base_params());
}

// Issue 16: R = W / T with min_rate = 0 (the default) read 0 bps for a 1-byte window over
// T = 2^62 ns, though the window is open: the rate is floored at 1 bps.
TEST(Hpcc, PacingRateNeverZeroWhileTheWindowIsOpen) {
  auto p = base_params();
  p.base_rtt = netcc::duration{std::int64_t{1} << 62};
  p.cwnd_init = p.min_cwnd = p.max_cwnd = 1_B;
  const netcc::hpcc d{p};
  const netcc::basic_hpcc<netcc::arith::q32> q{p};
  EXPECT_EQ(d.cwnd(), 1_B);
  EXPECT_EQ(d.pacing_rate(), netcc::min_pacing_rate);
  EXPECT_EQ(q.pacing_rate(), netcc::min_pacing_rate);
}

TEST(Hpcc, PerFlowStateBudget) {
  using wire = netcc::hpcc_int_format;
  EXPECT_LE((netcc::basic_hpcc<netcc::arith::q32, wire::stack>::state_bytes), 64u + 16u * 5u);
  EXPECT_LE(netcc::hpcc::state_bytes, 64u + 24u * 5u);
}

// ---------------------------------------------------------------------------------------------
// Properties

RC_GTEST_PROP(Hpcc, OutputsFiniteAndWithinLimitsDouble, ()) {
  netcc_test::outputs_within_limits<netcc::hpcc>(
      *rc::gen::container<std::vector<netcc_test::raw_event>>(netcc_test::gen_raw_event()));
}
RC_GTEST_PROP(Hpcc, OutputsFiniteAndWithinLimitsQ32, ()) {
  netcc_test::outputs_within_limits<netcc::basic_hpcc<netcc::arith::q32>>(
      *rc::gen::container<std::vector<netcc_test::raw_event>>(netcc_test::gen_raw_event()));
}
RC_GTEST_PROP(Hpcc, LargerBottleneckQueueOrTxNeverGivesLargerWindowDouble, ()) {
  netcc_test::bottleneck_monotone<netcc::hpcc>();
}
RC_GTEST_PROP(Hpcc, LargerBottleneckQueueOrTxNeverGivesLargerWindowQ32, ()) {
  netcc_test::bottleneck_monotone<netcc::basic_hpcc<netcc::arith::q32>>();
}
RC_GTEST_PROP(Hpcc, AtTargetOneUpdateAddsExactlyWaiDouble, ()) {
  netcc_test::at_target_adds_w_ai<netcc::hpcc>();
}
RC_GTEST_PROP(Hpcc, AtTargetOneUpdateAddsExactlyWaiQ32, ()) {
  netcc_test::at_target_adds_w_ai<netcc::basic_hpcc<netcc::arith::q32>>();
}
RC_GTEST_PROP(Hpcc, Q32TrajectoryTracksDouble, ()) {
  netcc_test::q32_tracks_double<netcc::hpcc, netcc::basic_hpcc<netcc::arith::q32>>();
}

// ---------------------------------------------------------------------------------------------
// The estimator's division-free choice of the most congested hop (int_utilisation.hpp)

namespace {

// Inputs of one hop's u' over their whole range or a realistic one.
struct util_inputs {
  std::int64_t dtx;
  netcc::duration dt;
  std::uint32_t qmin;
  netcc::bit_rate b;
};

util_inputs gen_util_inputs() {
  const bool wide = *rc::gen::inRange(0, 4) == 0;
  const auto any = [](std::int64_t hi) { return *rc::gen::inRange<std::int64_t>(0, hi); };
  return {
      wide ? any(std::numeric_limits<std::int64_t>::max()) : any(1'000'000'000),
      netcc::duration{wide ? 1 + any(std::numeric_limits<std::int64_t>::max() - 1)
                           : 1 + any(20'000'000)},
      *rc::gen::arbitrary<std::uint32_t>(),
      netcc::bit_rate{wide ? 1 + any(std::int64_t{1} << 62)
                           : *rc::gen::element<std::int64_t>(1, 10, 25, 100, 400) * 1'000'000'000}};
}

}  // namespace

// The u' of a key is detail::hop_utilisation's value, bit for bit, in q32 and double.
RC_GTEST_PROP(IntUtilisation, KeyUtilisationEqualsHopUtilisation, ()) {
  using q = netcc::fixed_point<31, 32>;
  const auto x = gen_util_inputs();
  const netcc::duration t{1 + *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 36)};
  const netcc::detail::int_util_scale s{t};
  const auto k = s.key(x.dtx, x.dt, x.qmin, x.b);
  const q umax = netcc::int_utilisation_max<q>();
  RC_ASSERT(s.utilisation<q>(k, t, umax) ==
            netcc::detail::hop_utilisation<q>(x.dtx, x.dt, x.qmin, x.b, t, umax));
}

// The cross-multiplied comparison orders two hops as their u' (clamped at 2^30) order: a hop
// judged above has a u' not below the other's, and one not judged above has a u' not above it
// (q32 values, rounded to nearest from the exact ratios, keep the exact order weakly).
RC_GTEST_PROP(IntUtilisation, KeyComparisonOrdersAsTheUtilisations, ()) {
  using q = netcc::fixed_point<31, 32>;
  const netcc::duration t{1 + *rc::gen::inRange<std::int64_t>(0, 1'000'000)};
  const netcc::detail::int_util_scale s{t};
  const q umax = netcc::int_utilisation_max<q>();
  const auto a = gen_util_inputs(), b = gen_util_inputs();
  const auto ka = s.key(a.dtx, a.dt, a.qmin, a.b), kb = s.key(b.dtx, b.dt, b.qmin, b.b);
  const q ua = s.utilisation<q>(ka, t, umax), ub = s.utilisation<q>(kb, t, umax);
  if (s.above<q>(ka, kb, ub, t, umax)) {
    RC_ASSERT(ua >= ub);
  } else {
    RC_ASSERT(ua <= ub);
  }
  RC_ASSERT(!s.above<q>(ka, ka, ua, t, umax));  // ties keep the earlier hop
}

// A whole ACK: the sample is the largest per-hop u' (q32: exactly; double: to rounding), and its
// tau is the interval of a hop with that u'.
RC_GTEST_PROP(IntUtilisation, SampleIsTheLargestHopUtilisation, (bool use_q32)) {
  using q = netcc::fixed_point<31, 32>;
  const std::size_t n = *rc::gen::inRange<std::size_t>(1, 6);
  const netcc::duration t{*rc::gen::inRange<std::int64_t>(1'000, 100'000)};
  std::vector<netcc::int_hop> h0, h1;
  for (std::size_t i = 0; i < n; ++i) {
    const auto b = netcc::bit_rate{*rc::gen::element<std::int64_t>(10, 25, 100) * 1'000'000'000};
    const std::int64_t dt = *rc::gen::inRange<std::int64_t>(1, 50'000);
    const std::int64_t q0 = *rc::gen::inRange<std::int64_t>(0, 2'000'000);
    const std::int64_t q1 = *rc::gen::inRange<std::int64_t>(0, 2'000'000);
    const std::uint64_t dtx = *rc::gen::inRange<std::uint64_t>(0, 2'000'000);
    h0.push_back(hop(1000, q0, 5000, b));
    h1.push_back(hop(1000 + dt, q1, 5000 + dtx, b));
  }
  auto run = [&](auto est, auto umax) {
    netcc::ack_event a0, a1;
    for (std::size_t i = 0; i < n; ++i) {
      a0.hops.push(h0[i]);
      a1.hops.push(h1[i]);
    }
    est.sample(a0, t);
    const auto s = est.sample(a1, t);
    RC_ASSERT(s.valid);
    using T = decltype(umax);
    T best{};
    std::vector<T> us;
    bool tau_ok = false;
    for (std::size_t i = 0; i < n; ++i) {
      const netcc::duration dt{static_cast<std::int64_t>(h1[i].ts - h0[i].ts)};
      const std::int64_t qmin = std::min(h0[i].qlen.count(), h1[i].qlen.count());
      const T u = netcc::detail::hop_utilisation<T>(
          static_cast<std::int64_t>(h1[i].tx_bytes - h0[i].tx_bytes), dt, qmin, h1[i].link_rate, t,
          umax);
      us.push_back(u);
      if (i == 0 || u > best) best = u;
    }
    if constexpr (std::is_same_v<T, double>) {
      RC_ASSERT(std::abs(s.u - best) <= 1e-12 * best);
    } else {
      RC_ASSERT(s.u == best);
    }
    for (std::size_t i = 0; i < n; ++i) {
      const netcc::duration dt{static_cast<std::int64_t>(h1[i].ts - h0[i].ts)};
      bool top = us[i] == best;
      if constexpr (std::is_same_v<T, double>) top = us[i] >= best * (1 - 1e-12);
      tau_ok = tau_ok || (dt == s.tau && top);
    }
    RC_ASSERT(tau_ok);
  };
  if (use_q32) {
    run(netcc::int_utilisation<q>{}, netcc::int_utilisation_max<q>());
  } else {
    run(netcc::int_utilisation<double>{}, netcc::int_utilisation_max<double>());
  }
}

// The tau/T weight through T's reciprocal is netcc::ratio's value bit for bit (q32), for every
// tau: below 0, inside (0, T) where it divides through the reciprocal, and at or beyond T.
RC_GTEST_PROP(IntUtilisation, TimeWeightEqualsTheRatio, ()) {
  using q = netcc::fixed_point<31, 32>;
  const std::int64_t t = 1 + *rc::gen::element<std::int64_t>(
                                 *rc::gen::inRange<std::int64_t>(0, 1'000'000),
                                 *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 62));
  const std::int64_t tau = *rc::gen::element<std::int64_t>(
      *rc::gen::inRange<std::int64_t>(-5, t + 5), *rc::gen::inRange<std::int64_t>(0, t), t - 1,
      *rc::gen::arbitrary<std::int64_t>());
  const netcc::detail::invariant_divisor d{static_cast<std::uint64_t>(t)};
  const q w = netcc::detail::int_time_weight<q>(netcc::duration{tau}, netcc::duration{t}, &d);
  const q want = tau <= 0 ? q{} : tau >= t ? netcc::num<q>(1) : netcc::ratio<q>(tau, t);
  RC_ASSERT(w == want);
  RC_ASSERT(netcc::detail::int_time_weight<q>(netcc::duration{tau}, netcc::duration{t}, nullptr) ==
            want);
}

// The estimator's one pass chooses the hop detail::int_util_scale's keys choose (key and above:
// the exact cross-multiplied order, ties and hops at the 2^30 clamp keep the earlier hop), with
// the same u' bit for bit, on ACKs of 1 to 8 hops mixing realistic and full-range inputs (the
// fast path keeps n and e in 64 bits; wider hops take the keys themselves), equal u' on
// different intervals, and hops at the clamp.
RC_GTEST_PROP(IntUtilisation, SampleChoosesTheHopTheKeysChoose, ()) {
  using q = netcc::fixed_point<31, 32>;
  using stack = netcc::int_stack<8>;
  const std::size_t n = *rc::gen::inRange<std::size_t>(1, 9);
  const netcc::duration t{1 + *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 36)};
  const netcc::detail::int_util_scale s{t};
  const q umax = netcc::int_utilisation_max<q>();
  netcc::basic_ack_event<stack> a0, a1;
  bool valid = false;
  netcc::detail::int_util_key best{};
  q best_u{};
  netcc::duration tau{};
  util_inputs prev{};
  for (std::size_t i = 0; i < n; ++i) {
    auto x = gen_util_inputs();
    const int shape = *rc::gen::inRange(0, 6);
    if (shape == 0 && i > 0 && prev.qmin == 0 && prev.dtx <= (std::int64_t{1} << 40) &&
        prev.dt.count() <= (std::int64_t{1} << 40)) {
      x = {2 * prev.dtx, netcc::duration{2 * prev.dt.count()}, 0, prev.b};  // the same u'
    } else if (shape == 1) {
      x.b = netcc::bit_rate{1};  // at the clamp unless idle
    } else if (shape == 2) {
      x.qmin = 0;
    }
    prev = x;
    const std::uint64_t ts0 = 1000 + i, tx0 = 5000 + i;
    a0.hops.push({.ts = ts0, .qlen = netcc::bytes{x.qmin}, .tx_bytes = tx0, .link_rate = x.b});
    a1.hops.push({.ts = ts0 + static_cast<std::uint64_t>(x.dt.count()),
                  .qlen = netcc::bytes{x.qmin},
                  .tx_bytes = tx0 + static_cast<std::uint64_t>(x.dtx),
                  .link_rate = x.b});
    const auto k = s.key(x.dtx, x.dt, x.qmin, x.b);
    if (!valid || s.above<q>(k, best, best_u, t, umax)) {
      valid = true;
      best = k;
      best_u = s.utilisation<q>(k, t, umax);
      tau = x.dt;
    }
  }
  netcc::int_utilisation<q, stack> est;
  est.sample(a0, t);
  const auto r = est.sample(a1, t);
  RC_ASSERT(r.valid);
  RC_ASSERT(r.tau == tau);
  RC_ASSERT(r.u == best_u);
  RC_ASSERT(est.value() == best_u);
}

// T of 2^34 ns or more: the hops' n and e may still fit 64 bits, but the clamp test's e T 2^30
// does not, so no key is exact and the estimator compares the hops by value (the general pass).
// A later, more utilised hop is chosen, with its own interval (and at T just below 2^34, where
// the keys are exact, the same).
TEST(IntUtilisation, BaseRttFrom2To34NsComparesHopsByValue) {
  using q = netcc::fixed_point<31, 32>;
  const q umax = netcc::int_utilisation_max<q>();
  const netcc::bit_rate b = netcc::bit_rate{1'000'000'000};
  for (const std::int64_t t_ns :
       {(std::int64_t{1} << 34) - 1, std::int64_t{1} << 34, std::int64_t{1} << 35}) {
    const netcc::duration t{t_ns};
    netcc::int_utilisation<q, netcc::int_stack<8>> est;
    netcc::ack_event a0, a1;
    // u' = dtx 8e9 / (B dt) with empty queues: 0.8 at hop 0 (over 1 us), 0.96 at hop 1 (2 us).
    a0.hops.push(hop(1000, 0, 0, b));
    a0.hops.push(hop(1000, 0, 0, b));
    a1.hops.push(hop(2000, 0, 100, b));
    a1.hops.push(hop(3000, 0, 240, b));
    est.sample(a0, t);
    const auto r = est.sample(a1, t);
    ASSERT_TRUE(r.valid);
    EXPECT_EQ(r.tau, netcc::duration{2000});
    EXPECT_EQ(r.u, (netcc::detail::hop_utilisation<q>(240, netcc::duration{2000}, 0, b, t, umax)));
    EXPECT_NEAR(netcc::to_double(r.u), 0.96, 1e-9);
  }
}

// A hop's path-change test in the estimator (its record's key_is) is key_of(h) == key: through
// powertcp_rate_is for records keyed in whole Mbps, for any rate and stored key (the same, one
// off, saturated, any), and through the wire format's rate-code interval otherwise.
RC_GTEST_PROP(IntUtilisation, HopKeyTestEqualsKeyComparison, ()) {
  using rec =
      netcc::detail::powertcp_hop_record<netcc::wrapping_clock<64>, netcc::wrapping_counter<64>>;
  using wire_rec = netcc::detail::int_wire_record<netcc::hpcc_int_format>;
  const std::int64_t bps = *rc::gen::oneOf(
      rc::gen::arbitrary<std::int64_t>(), rc::gen::inRange<std::int64_t>(-2'000'000, 2'000'000),
      rc::gen::map(rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 42),
                   [](std::int64_t m) { return m * 1'000'000 + (m % 3) - 1; }),
      rc::gen::element<std::int64_t>(25'000'000'000, 100'000'000'000, 400'000'000'000));
  const netcc::int_hop h{
      .ts = 0, .qlen = netcc::bytes{0}, .tx_bytes = 0, .link_rate = netcc::bit_rate{bps}};
  const std::uint32_t k = rec::key_of(h);
  const std::uint32_t key = *rc::gen::element<std::uint32_t>(
      std::uint32_t{k}, k + 1U, k - 1U, 0U, 0xFFFF'FFFFU, *rc::gen::arbitrary<std::uint32_t>());
  RC_ASSERT(rec::key_is(h, key) == (k == key));
  const std::uint64_t wk = wire_rec::key_of(h);
  const std::uint64_t wkey =
      *rc::gen::element<std::uint64_t>(std::uint64_t{wk}, wk + 1U, std::uint64_t{0});
  RC_ASSERT(wire_rec::key_is(h, wkey) == (wk == wkey));
}

// Eq. 4 / line 14 in q32 (detail::mimd_window) takes one 128/64-bit division: the same window
// bit for bit as the policy's quotient W^c eta / U (operator/), for any W^c and U, configured
// eta, max_cwnd and W_AI, the division taken where U max_cwnd rounds above W^c eta.
RC_GTEST_PROP(Hpcc, MimdWindowEqualsTheQuotientFormQ32, ()) {
  using q = netcc::fixed_point<31, 32>;
  netcc::hpcc_params p = base_params();
  p.eta = *rc::gen::element(0.95, 0.5, 1.0, 1e-6, 0.999999);
  p.max_cwnd = netcc::bytes{*rc::gen::element<std::int64_t>(0, 1500, 125'000, 0x7FFF'FFFF)};
  p.w_ai = netcc::bytes{*rc::gen::element<std::int64_t>(0, 1, 625)};
  const auto c = netcc::detail::make_int_window_config<q>(p, netcc::hpcc_params{});
  const auto raw = [](std::int64_t hi) {
    return q::from_raw(*rc::gen::oneOf(rc::gen::inRange<std::int64_t>(0, hi),
                                       rc::gen::inRange<std::int64_t>(0, 1 << 20),
                                       rc::gen::just(hi)));
  };
  const q wc = raw(c.max_cwnd.raw());
  const q u =
      *rc::gen::oneOf(rc::gen::just(raw(std::int64_t{1} << 40)),
                      rc::gen::just(raw(std::int64_t{1} << 62)), rc::gen::just(q::from_raw(0)));
  const q wc_eta = netcc::mul_nonneg(wc, c.eta);
  const q mi = netcc::mul_nonneg(u, c.max_cwnd) > wc_eta ? wc_eta / u : c.max_cwnd;
  RC_ASSERT(netcc::detail::mimd_window(wc, u, c) ==
            netcc::clamp_num(mi + c.w_ai, c.min_cwnd, c.max_cwnd));
}

// The tau/T weight's multiply-high path (T <= 2^31: the rounded dividend fits 64 bits, so the
// reciprocal's 64-bit division serves) is netcc::ratio's value bit for bit, at the edges of
// that range (T = 2, 2^31 and one either side) and of tau in (0, T).
RC_GTEST_PROP(IntUtilisation, TimeWeightMultiplyHighEqualsTheRatio, ()) {
  using q = netcc::fixed_point<31, 32>;
  constexpr std::int64_t e31 = std::int64_t{1} << 31;
  const std::int64_t t = *rc::gen::element<std::int64_t>(
      2, 3, 10'000, e31 - 1, e31, e31 + 1, *rc::gen::inRange<std::int64_t>(2, e31 + 2),
      *rc::gen::inRange<std::int64_t>(2, 100'000));
  const std::int64_t tau = *rc::gen::element<std::int64_t>(1, t - 1, t / 2, (t + 1) / 2,
                                                           *rc::gen::inRange<std::int64_t>(1, t));
  const netcc::detail::invariant_divisor d{static_cast<std::uint64_t>(t)};
  RC_ASSERT(netcc::detail::int_time_weight<q>(netcc::duration{tau}, netcc::duration{t}, &d) ==
            netcc::ratio<q>(tau, t));
}

// The tau/T weight through detail::int_weight_divisor (for T in [2, 2^31] one multiply-high by
// Granlund and Montgomery's 63-bit-dividend multiplier and a shift) is the weight through T's
// invariant_divisor and netcc::ratio's value, bit for bit (q32): T at 1, 2, 3, powers of two and
// their neighbours up to 2^31 + 1 (the short form's edges) and beyond, anywhere; tau below 0, at
// 0, in (0, T) at its edges and anywhere, at and beyond T. Two narrower fixed points take the
// same short form (F = 16, and F = 8 with a 40-bit integer part).
template <class Q>
void check_weight_divisor(std::int64_t t, std::int64_t tau) {
  const netcc::detail::int_weight_divisor w{static_cast<std::uint64_t>(t)};
  const netcc::detail::invariant_divisor d{static_cast<std::uint64_t>(t)};
  const netcc::duration dtau{tau}, dt{t};
  const Q got = netcc::detail::int_time_weight<Q>(dtau, dt, &w);
  RC_ASSERT(got.raw() == netcc::detail::int_time_weight<Q>(dtau, dt, &d).raw());
  const Q want = tau <= 0 ? Q{} : tau >= t ? netcc::num<Q>(1) : netcc::ratio<Q>(tau, t);
  RC_ASSERT(got.raw() == want.raw());
}

RC_GTEST_PROP(IntUtilisation, TimeWeightShortFormEqualsTheRatio, ()) {
  constexpr std::int64_t e31 = std::int64_t{1} << 31;
  const int k = *rc::gen::inRange(0, 32);
  const std::int64_t p2 = std::int64_t{1} << k;
  const std::int64_t t = *rc::gen::element<std::int64_t>(
      1, 2, 3, p2, p2 - 1 > 0 ? p2 - 1 : 1, p2 + 1, e31 - 1, e31, e31 + 1,
      *rc::gen::inRange<std::int64_t>(1, e31 + 2), *rc::gen::inRange<std::int64_t>(1, 100'000),
      *rc::gen::inRange<std::int64_t>(1, std::int64_t{1} << 62));
  const std::int64_t tau = *rc::gen::element<std::int64_t>(
      -1, 0, 1, t - 1, t, t + 1, t / 2, (t + 1) / 2, *rc::gen::inRange<std::int64_t>(1, t + 1),
      *rc::gen::arbitrary<std::int64_t>());
  check_weight_divisor<netcc::fixed_point<31, 32>>(t, tau);
  check_weight_divisor<netcc::fixed_point<47, 16>>(t, tau);
  check_weight_divisor<netcc::fixed_point<40, 8>>(t, tau);
}
static_assert(netcc::detail::int_time_weight<netcc::fixed_point<31, 32>>(
                  netcc::duration{3}, netcc::duration{7},
                  static_cast<const netcc::detail::int_weight_divisor*>(nullptr))
                  .raw() == netcc::ratio<netcc::fixed_point<31, 32>>(3, 7).raw());

// Line 10's EWMA step in q32 (detail::int_ewma_step: one unsigned product, the sign applied once)
// is U + w (u - U) with the number type's operators, bit for bit: U and u anywhere in
// [0, raw_max] (0, 1, the 2^30 clamp, raw_max and random), w in [0, 1] (its edges, 2^-32 steps
// either side of them and random), and inputs outside those ranges (taking the operator form).
RC_GTEST_PROP(IntUtilisation, EwmaStepEqualsTheOperatorForm, ()) {
  using q = netcc::fixed_point<31, 32>;
  constexpr std::int64_t one = std::int64_t{1} << 32;
  const auto val = [] {
    return q::from_raw(*rc::gen::element<std::int64_t>(
        0, 1, 2, std::int64_t{1} << 62, (std::int64_t{1} << 62) - 1, q::raw_max, q::raw_max - 1,
        *rc::gen::inRange<std::int64_t>(0, q::raw_max),
        *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 62),
        *rc::gen::inRange<std::int64_t>(0, one << 4), -1, -q::raw_max,
        *rc::gen::arbitrary<std::int64_t>()));
  };
  const q big_u = val(), u = val();
  const q w = q::from_raw(*rc::gen::element<std::int64_t>(
      0, 1, one / 2, one / 2 + 1, one - 1, one, one + 1, -1,
      *rc::gen::inRange<std::int64_t>(0, one + 1), *rc::gen::arbitrary<std::int64_t>()));
  RC_ASSERT(netcc::detail::int_ewma_step(big_u, u, w) == big_u + w * (u - big_u));
}

// The EWMA step's signed rounding (one signed 128-bit product, the sign folded into the rounding
// addend) is operator*'s ties away from zero in both signs: products at exact ties (w = 2^-F and
// d an odd multiple of 2^(F-1), either sign), one below and above them, and d w anywhere, against
// the operator form (q32 and a 16-bit fraction).
template <class Q>
void check_ewma_ties(std::int64_t big_u, std::int64_t k, std::int64_t off, std::int64_t w) {
  constexpr std::int64_t half = std::int64_t{1} << (Q::fraction_bits - 1);
  const std::int64_t lim = std::int64_t{1} << 61;
  const std::int64_t u_raw = big_u + ((2 * (k % (lim / half / 4)) + 1) * half) + off;
  const Q bu = Q::from_raw(big_u), u = Q::from_raw(u_raw < 0 ? 0 : u_raw), wq = Q::from_raw(w);
  RC_ASSERT(netcc::detail::int_ewma_step(bu, u, wq).raw() == (bu + wq * (u - bu)).raw());
  RC_ASSERT(netcc::detail::int_ewma_step(u, bu, wq).raw() == (u + wq * (bu - u)).raw());
}

RC_GTEST_PROP(IntUtilisation, EwmaStepRoundsTiesAwayFromZeroInBothSigns, ()) {
  const std::int64_t big_u = *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 61);
  const std::int64_t k = *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 40);
  const std::int64_t off = *rc::gen::element<std::int64_t>(0, 0, -1, 1);
  const std::int64_t w32 = *rc::gen::element<std::int64_t>(
      1, 1, 3, (std::int64_t{1} << 32) - 1,
      *rc::gen::inRange<std::int64_t>(0, (std::int64_t{1} << 32) + 1));
  const std::int64_t w16 = *rc::gen::element<std::int64_t>(
      1, 1, 3, *rc::gen::inRange<std::int64_t>(0, (std::int64_t{1} << 16) + 1));
  check_ewma_ties<netcc::fixed_point<31, 32>>(big_u, k, off, w32);
  check_ewma_ties<netcc::fixed_point<47, 16>>(big_u, k, off, w16);
}

// The chosen hop's u' in q32 (detail::int_util_chosen: two 64-bit products when n < 2^30 and
// e T < 2^63) is int_util_scale::utilisation's value bit for bit, for exact keys with n and e
// anywhere in 64 bits (at and beside 2^30, e T at and beside 2^63, quotients beyond 64 bits)
// and T in [1, 2^34) (1, 2^34 - 1 and between).
RC_GTEST_PROP(IntUtilisation, ChosenHopUtilisationEqualsKeyUtilisation, ()) {
  using q = netcc::fixed_point<31, 32>;
  constexpr std::int64_t e34 = std::int64_t{1} << 34;
  const std::int64_t t = *rc::gen::element<std::int64_t>(
      1, 2, 10'000, 28'000, e34 - 1, *rc::gen::inRange<std::int64_t>(1, e34),
      *rc::gen::inRange<std::int64_t>(1, 1'000'000));
  const auto ut = static_cast<std::uint64_t>(t);
  const std::uint64_t e63 = std::uint64_t{1} << 63, e30 = std::uint64_t{1} << 30;
  netcc::detail::int_util_key k;
  k.exact = true;
  k.n = *rc::gen::element<std::uint64_t>(
      0, 1, e30 - 1, e30, e30 + 1, *rc::gen::inRange<std::uint64_t>(0, e30),
      *rc::gen::inRange<std::uint64_t>(0, 1'000'000), *rc::gen::arbitrary<std::uint64_t>());
  k.e = *rc::gen::element<std::uint64_t>(1, 2, (e63 - 1) / ut, (e63 - 1) / ut + 1, e63 / ut,
                                         *rc::gen::inRange<std::uint64_t>(1, 1U << 20),
                                         *rc::gen::inRange<std::uint64_t>(1, (e63 - 1) / ut + 2),
                                         *rc::gen::arbitrary<std::uint64_t>());
  if (k.e == 0) k.e = 1;
  k.sat = *rc::gen::arbitrary<bool>();
  const netcc::duration period{t};
  const q umax = netcc::int_utilisation_max<q>();
  RC_ASSERT(netcc::detail::int_util_chosen<q>(k, period, umax) ==
            netcc::detail::int_util_scale{period}.utilisation<q>(k, period, umax));
}

// The rounded dividends of the fixed-point quotients built from their two 64-bit halves
// (detail::shl_add_halves: mimd_window's W^c eta 2^F + U / 2, int_util_chosen's n 8e9 2^F +
// e T / 2) are the 128-bit expression (u128{x} << S) + a, and the division of the halves
// (detail::udiv_128_64(hi, lo, d)) is the 128-bit dividend's quotient, whenever it fits 64 bits
// (d above the high half). Any x and a (the low half's carry: a near 2^64 with x 2^S mod 2^64
// near 2^64), shifts 0, 1, 31, 32, 33 and 63, divisors at the high half's edge, 1 above it and
// anywhere.
template <int S>
void check_dividend_halves(std::uint64_t x, std::uint64_t a, std::uint64_t d_pick,
                           std::uint64_t d_any) {
  using netcc::detail::u128;
  const netcc::detail::u128_halves h = netcc::detail::shl_add_halves<S>(x, a);
  const u128 v = (u128{x} << S) + a;
  RC_ASSERT(h.hi == static_cast<std::uint64_t>(v >> 64));
  RC_ASSERT(h.lo == static_cast<std::uint64_t>(v));
  constexpr std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
  for (const std::uint64_t d : {d_any, h.hi + 1 + (top - h.hi - 1 < d_pick ? 0 : d_pick), top}) {
    if (d == 0 || d <= h.hi) continue;  // the quotient would not fit 64 bits
    const std::uint64_t q = netcc::detail::udiv_128_64(h.hi, h.lo, d);
    RC_ASSERT(q == netcc::detail::udiv_128_64(v, d));
    RC_ASSERT(q == static_cast<std::uint64_t>(v / d));
  }
}

RC_GTEST_PROP(IntUtilisation, DividendHalvesAreThe128BitDividend, ()) {
  constexpr std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
  const auto any = [=] {
    return *rc::gen::element<std::uint64_t>(
        0, 1, top, top - 1, std::uint64_t{1} << 62, (std::uint64_t{1} << 63) - 1,
        std::uint64_t{1} << 63, *rc::gen::inRange<std::uint64_t>(0, std::uint64_t{1} << 32),
        *rc::gen::arbitrary<std::uint64_t>());
  };
  const std::uint64_t x = any(), a = any(), d_any = any();
  const std::uint64_t d_pick = *rc::gen::element<std::uint64_t>(
      0, 1, *rc::gen::inRange<std::uint64_t>(0, 1'000'000), *rc::gen::arbitrary<std::uint64_t>());
  check_dividend_halves<0>(x, a, d_pick, d_any);
  check_dividend_halves<1>(x, a, d_pick, d_any);
  check_dividend_halves<31>(x, a, d_pick, d_any);
  check_dividend_halves<32>(x, a, d_pick, d_any);
  check_dividend_halves<33>(x, a, d_pick, d_any);
  check_dividend_halves<63>(x, a, d_pick, d_any);
}

// detail::raw_in_range (the raw results of the fast forms: the chosen hop's u', the tau/T
// weight, the EWMA step, Eq. 4's window) is from_raw for every raw value in [-raw_max,
// raw_max]: q32 and two narrower fixed points (whose clamps act below 2^63), at the range's
// ends, around 0 and anywhere in it.
template <class Q>
void check_raw_in_range(std::int64_t pick) {
  const std::int64_t r = *rc::gen::element<std::int64_t>(
      0, 1, -1, Q::raw_max, -Q::raw_max, Q::raw_max - 1, -Q::raw_max + 1, pick % Q::raw_max);
  RC_ASSERT(netcc::detail::raw_in_range<Q>(r).raw() == Q::from_raw(r).raw());
}

RC_GTEST_PROP(IntUtilisation, RawInRangeIsFromRawWithinTheRange, ()) {
  const std::int64_t pick = *rc::gen::arbitrary<std::int64_t>();
  check_raw_in_range<netcc::fixed_point<31, 32>>(pick);
  check_raw_in_range<netcc::fixed_point<15, 16>>(pick);
  check_raw_in_range<netcc::fixed_point<40, 8>>(pick);
}
static_assert(netcc::detail::raw_in_range<netcc::fixed_point<31, 32>>(-5).raw() == -5);

// The constant-evaluation path of the halves' division (the library's 128-bit division).
static_assert(netcc::detail::udiv_128_64(std::uint64_t{1}, std::uint64_t{0}, std::uint64_t{2}) ==
              std::uint64_t{1} << 63);
static_assert(netcc::detail::shl_add_halves<32>(~std::uint64_t{0}, ~std::uint64_t{0}).hi ==
              std::uint64_t{1} << 32);

// Eq. 4 / line 14's raw-integer form in q32 (detail::mimd_window with the configuration's
// raw_ranges and W^c, U below 2^62 raw) is the operator form bit for bit: mul_nonneg's products,
// operator/ and the saturating sum clamped to [min_cwnd, max_cwnd]. W^c and U across and beyond
// that range (0, 2^62 and one either side, raw_max, negative, random); eta at 0, 1, one step
// above 1 and between; max_cwnd, W_AI and min_cwnd from the parameters or anywhere, the flag
// recomputed (detail::int_window_raw_ranges) or left false.
RC_GTEST_PROP(Hpcc, MimdWindowRawFormEqualsTheOperatorFormQ32, ()) {
  using q = netcc::fixed_point<31, 32>;
  constexpr std::int64_t e62 = std::int64_t{1} << 62, one = std::int64_t{1} << 32;
  const auto raw = [=] {
    return q::from_raw(*rc::gen::element<std::int64_t>(
        0, 1, e62 - 1, e62, e62 + 1, q::raw_max, -1, *rc::gen::inRange<std::int64_t>(0, e62),
        *rc::gen::inRange<std::int64_t>(0, one << 30), *rc::gen::inRange<std::int64_t>(0, one),
        *rc::gen::arbitrary<std::int64_t>()));
  };
  netcc::hpcc_params p = base_params();
  p.max_cwnd = netcc::bytes{
      *rc::gen::element<std::int64_t>(0, 1500, 125'000, (1 << 30) - 1, 1 << 30, 0x7FFF'FFFF)};
  p.w_ai = netcc::bytes{*rc::gen::element<std::int64_t>(0, 1, 625)};
  auto c = netcc::detail::make_int_window_config<q>(p, netcc::hpcc_params{});
  RC_ASSERT(c.raw_ranges == (p.max_cwnd < netcc::bytes{1 << 30}));
  const q wc =
      *rc::gen::arbitrary<bool>()
          ? raw()
          : q::from_raw(*rc::gen::inRange<std::int64_t>(c.min_cwnd.raw(), c.max_cwnd.raw() + 1));
  if (*rc::gen::arbitrary<bool>()) {
    c.eta = q::from_raw(*rc::gen::element<std::int64_t>(0, 1, one - 1, one, one + 1,
                                                        *rc::gen::inRange<std::int64_t>(0, one + 1),
                                                        *rc::gen::arbitrary<std::int64_t>()));
    if (*rc::gen::arbitrary<bool>()) c.max_cwnd = raw();
    if (*rc::gen::arbitrary<bool>()) c.w_ai = raw();
    if (*rc::gen::arbitrary<bool>()) c.min_cwnd = raw();
    c.raw_ranges = *rc::gen::arbitrary<bool>() && netcc::detail::int_window_raw_ranges(c);
  }
  const q u = raw();
  const q wc_eta = netcc::mul_nonneg(wc, c.eta);
  const q mi = netcc::mul_nonneg(u, c.max_cwnd) > wc_eta ? wc_eta / u : c.max_cwnd;
  RC_ASSERT(netcc::detail::mimd_window(wc, u, c) ==
            netcc::clamp_num(mi + c.w_ai, c.min_cwnd, c.max_cwnd));
}

}  // namespace netcc_tests::control_hpcc
