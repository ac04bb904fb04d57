// SPDX-License-Identifier: MIT
// FastTune sender (Algorithm 2, Eq. 1-4): defaults and validation, hand-computed values per
// algorithm line with switch ACKs (S-ACK, partial paths) and host ACKs, the SACKUpdate and
// per-RTT reference-window rules, the line-10 EWMA deviation, and properties: bounds,
// monotonicity, the W_AI step at U = eta, q32 against double.
#include <netcc/control/fasttune.hpp>
#include <netcc/core/int_wire.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "control/int_window_testing.hpp"

namespace netcc_tests::control_fasttune {

using namespace netcc::literals;
using netcc_test::ack;
using netcc_test::hop;
using netcc_test::util;
using netcc_test::win;
using netcc_test::wref;

namespace {

// 100 Gbps, T = 10 us: BDP = 125000 B; N = 10: W_AI = 625 B.
netcc::fasttune_params base_params() {
  return {.host_rate = 100_Gbps, .base_rtt = 10_us, .expected_flows = 10};
}

}  // namespace

TEST(FastTune, PaperDefaults) {
  const netcc::fasttune_params p{};
  EXPECT_DOUBLE_EQ(p.eta, 0.95);    // §V-A (HPCC's)
  EXPECT_EQ(p.host_rate, 10_Gbps);  // §V-A host links
  EXPECT_EQ(p.base_rtt, 16_us);     // §V-A: 4 links x 2 us each way
  EXPECT_TRUE(netcc::validate(p).ok());
  netcc::fasttune d{};  // BDP = 10 Gbps * 16 us = 20000 B; W_AI = 20000 * 0.05 = 1000 B
  EXPECT_EQ(d.cwnd(), 20000_B);
  EXPECT_DOUBLE_EQ(wref(d), 20000.0);  // W and W^c start at the BDP (Algorithm 2 caption)
  EXPECT_NEAR(netcc::to_double(d.w_ai()), 1000.0, 1e-9);
  EXPECT_TRUE(d.sack_update());
  EXPECT_EQ(d.pacing_rate(), 10_Gbps);
}

TEST(FastTune, ValidateNamesEveryBadField) {
  const netcc::fasttune_params p{.eta = 0,
                                 .host_rate = 0_bps,
                                 .base_rtt = 0_ns,
                                 .expected_flows = 0,
                                 .w_ai = netcc::bytes{-1},
                                 .cwnd_init = netcc::bytes{-1},
                                 .min_cwnd = 0_B,
                                 .max_cwnd = netcc::bytes{0x8000'0000LL},
                                 .min_rate = netcc::bit_rate{-1}};
  const auto v = netcc::validate(p);
  for (const char* f : {"eta", "host_rate", "base_rtt", "expected_flows", "w_ai", "cwnd_init",
                        "min_cwnd", "max_cwnd", "min_rate"})
    EXPECT_TRUE(v.names(std::string("fasttune.") + f)) << f;
  EXPECT_EQ(v[0].message(), "fasttune.eta = 0: must be in (0, 1]");
  EXPECT_EQ(netcc::validate(netcc::fasttune_params{.expected_flows = 0})[0].message(),
            "fasttune.expected_flows = 0: must be at least 1");
  netcc::fasttune cc{p};  // every bad field fell back
  EXPECT_EQ(cc.params().host_rate, 10_Gbps);
  EXPECT_EQ(cc.cwnd(), 20000_B);
}

// ---------------------------------------------------------------------------------------------
// Algorithm 2, line by line

TEST(FastTune, SwitchAckThenHostAcksHandComputed) {
  netcc::fasttune cc{base_params()};
  // S-ACK from switch 1 (one hop): first record, no sample; W stays at the BDP.
  cc.on_ack(ack(0, 0, 1'000'000, {hop(0, 0, 0, 100_Gbps)}, true));
  EXPECT_FALSE(cc.estimator().has_value());
  EXPECT_TRUE(cc.sack_update());
  EXPECT_DOUBLE_EQ(win(cc), 125000.0);
  EXPECT_EQ(cc.last_branch(), netcc::fasttune_branch::hold);
  // S-ACK from switch 2 (two hops: a prefix-path extension). Hop 0: dt = 500 ns, 6250 B ->
  // txRate = B, qLen = min(0, 0): u = 1.0. Hop 1 is new: stored. U = 1.0 (first sample).
  // Line 11: W = 125000 / (1.0 / 0.95) + 625 = 119375; lines 12-14: Wc = W, SACKUpdate = false.
  cc.on_ack(
      ack(500, 0, 1'000'000, {hop(500, 0, 6250, 100_Gbps), hop(500, 10000, 0, 100_Gbps)}, true));
  EXPECT_DOUBLE_EQ(util(cc), 1.0);
  EXPECT_NEAR(win(cc), 119375.0, 1e-9);
  EXPECT_NEAR(wref(cc), 119375.0, 1e-9);
  EXPECT_FALSE(cc.sack_update());
  EXPECT_EQ(cc.last_branch(), netcc::fasttune_branch::reference_switch);
  EXPECT_EQ(cc.estimator().hops(), 2u);
  // H-ACK over both hops, dt = 1 us. Hop 0: u = 1.0. Hop 1: txRate = B, qLen = min(20000, 10000)
  // = 10000: u = 10000 / 125000 + 1 = 1.08 (the max). U = 0.9 * 1.0 + 0.1 * 1.08 = 1.008.
  // W = 119375 * 0.95 / 1.008 + 625; ack.seq 1001 > lastUpdateSeq 0: Wc = W (lines 16-18).
  cc.on_ack(ack(1500, 1001, 1'100'000,
                {hop(1500, 0, 18750, 100_Gbps), hop(1500, 20000, 12500, 100_Gbps)}));
  EXPECT_NEAR(util(cc), 1.008, 1e-12);
  const double w3 = 113406.25 / 1.008 + 625;
  EXPECT_NEAR(win(cc), w3, 1e-6);
  EXPECT_NEAR(wref(cc), w3, 1e-6);
  EXPECT_EQ(cc.last_branch(), netcc::fasttune_branch::reference_ack);
  // A late S-ACK from switch 1: its hop 0 is differenced (dt = 100 ns, 1250 B: u = 1.0),
  // U = 0.99 * 1.008 + 0.01 * 1.0; W from Wc; but Wc stays (SACKUpdate is false, and a switch
  // ACK does not take the per-RTT branch).
  cc.on_ack(ack(1600, 0, 1'100'000, {hop(1600, 0, 20000, 100_Gbps)}, true));
  const double u4 = 0.99 * 1.008 + 0.01 * 1.0;
  EXPECT_NEAR(util(cc), u4, 1e-12);
  EXPECT_NEAR(win(cc), w3 * 0.95 / u4 + 625, 1e-6);
  EXPECT_NEAR(wref(cc), w3, 1e-6);
  EXPECT_EQ(cc.last_branch(), netcc::fasttune_branch::window);
  EXPECT_EQ(cc.estimator().hops(), 2u);  // the longer stored path is kept
  // H-ACK within the round (ack.seq 2001 <= lastUpdateSeq 1100000): W moves, Wc does not.
  cc.on_ack(
      ack(2600, 2001, 1'200'000, {hop(2600, 0, 32500, 100_Gbps), hop(2600, 0, 25000, 100_Gbps)}));
  const double u5 = u4 + 0.1 * (1.0 - u4);
  EXPECT_NEAR(util(cc), u5, 1e-12);
  EXPECT_NEAR(win(cc), w3 * 0.95 / u5 + 625, 1e-6);
  EXPECT_NEAR(wref(cc), w3, 1e-6);
  // H-ACK past lastUpdateSeq: Wc = W.
  cc.on_ack(ack(3600, 1'100'001, 1'300'000,
                {hop(3600, 0, 45000, 100_Gbps), hop(3600, 0, 37500, 100_Gbps)}));
  EXPECT_NEAR(wref(cc), win(cc), 1e-9);
  EXPECT_EQ(cc.pacing_rate(), cc.cwnd() / 10_us);  // line 20: R = W / T
}

TEST(FastTune, OnlyTheFirstSwitchAckSetsTheReferenceWindow) {
  netcc::fasttune cc{base_params()};
  cc.on_ack(ack(0, 0, 500'000, {hop(0, 0, 0, 100_Gbps)}, true));
  cc.on_ack(ack(1000, 0, 500'000, {hop(1000, 0, 25000, 100_Gbps)}, true));  // u = 2
  const double wc = wref(cc);
  EXPECT_NEAR(wc, 125000 * 0.95 / 2 + 625, 1e-6);
  cc.on_ack(ack(2000, 0, 500'000, {hop(2000, 0, 37500, 100_Gbps)}, true));  // u = 1
  EXPECT_EQ(wref(cc), wc);
  EXPECT_NEAR(win(cc), wc * 0.95 / (2.0 + 0.1 * (1.0 - 2.0)) + 625, 1e-6);
}

TEST(FastTune, PartialPathRateMismatchForgetsTheRestOfThePath) {
  netcc::fasttune cc{base_params()};
  cc.on_ack(
      ack(0, 1, 500'000, {hop(0, 0, 0, 100_Gbps), hop(0, 0, 0, 100_Gbps), hop(0, 0, 0, 100_Gbps)}));
  EXPECT_EQ(cc.estimator().hops(), 3u);
  // Hop 1 now reports 25 Gbps: hops 1.. are a different path; hop 0 still samples.
  cc.on_ack(ack(1000, 2, 500'000, {hop(1000, 0, 12500, 100_Gbps), hop(1000, 0, 0, 25_Gbps)}));
  EXPECT_EQ(cc.estimator().hops(), 2u);
  EXPECT_DOUBLE_EQ(util(cc), 1.0);
}

// Algorithm 2 line 10 is printed as U = (1 - tau/T) U + u; netcc implements the EWMA
// U = (1 - tau/T) U + (tau/T) u that the text describes. Under constant feedback u, U settles
// at u; the printed recurrence would settle at u * T / tau.
TEST(FastTune, UtilisationSettlesAtTheFeedbackNotAtUTimesTOverTau) {
  netcc::fasttune cc{base_params()};  // T = 10 us
  cc.on_ack(ack(0, 1, 100'000'000, {hop(0, 0, 0, 100_Gbps)}));
  // u = 0.6 every 2 us (tau / T = 0.2), starting from a first sample of 2.0.
  cc.on_ack(ack(2000, 2, 100'000'000, {hop(2000, 0, 50000, 100_Gbps)}));
  EXPECT_DOUBLE_EQ(util(cc), 2.0);
  double printed = 2.0;
  for (std::uint64_t k = 2; k <= 80; ++k) {
    const auto t = static_cast<std::int64_t>(2000 * k);
    cc.on_ack(ack(t, 2 + k, 100'000'000, {hop(t, 0, 50000 + 15000 * (k - 1), 100_Gbps)}));
    printed = (1 - 0.2) * printed + 0.6;
  }
  EXPECT_NEAR(util(cc), 0.6, 1e-6);
  EXPECT_NEAR(printed, 0.6 * 10 / 2, 1e-6);  // what the printed line would give: 3.0
  // And W settles where Eq. 4 puts it for the settled U: Wc * eta / 0.6 + W_AI.
  EXPECT_NEAR(win(cc), wref(cc) * 0.95 / util(cc) + 625, 1e-6);
}

// A stack without switch ACKs: its traits lack switch_ack, and every ACK is a host ACK.
namespace {
struct plain_ack {
  std::int64_t t;
  netcc::sequence seq, nxt;
  netcc::int_stack<> hops;
};
}  // namespace
}  // namespace netcc_tests::control_fasttune

template <>
struct netcc::feedback_traits<netcc_tests::control_fasttune::plain_ack> {
  using plain_ack = netcc_tests::control_fasttune::plain_ack;
  using timestamp_clock = netcc::wrapping_clock<64>;
  using tx_counter = netcc::wrapping_counter<64, 1>;
  static constexpr netcc::timestamp now(const plain_ack& a) { return netcc::timestamp{a.t}; }
  static constexpr netcc::sequence ack_seq(const plain_ack& a) { return a.seq; }
  static constexpr netcc::sequence snd_nxt(const plain_ack& a) { return a.nxt; }
  static constexpr netcc::bytes acked_bytes(const plain_ack&) { return netcc::bytes{1000}; }
  static constexpr std::size_t hop_count(const plain_ack& a) { return a.hops.size(); }
  static constexpr netcc::int_hop hop(const plain_ack& a, std::size_t i) { return a.hops[i]; }
};

namespace netcc_tests::control_fasttune {

TEST(FastTune, AckTypeWithoutSwitchFlagIsReadAsHostAcks) {
  static_assert(netcc::IntFeedback<plain_ack> && !netcc::SwitchAckFeedback<plain_ack>);
  netcc::fasttune cc{base_params()};
  plain_ack a{.t = 0, .seq = 1, .nxt = 1000, .hops = {}};
  a.hops.push(hop(0, 0, 0, 100_Gbps));
  cc.on_ack(a);
  plain_ack b{.t = 1000, .seq = 2, .nxt = 2000, .hops = {}};
  b.hops.push(hop(1000, 0, 12500, 100_Gbps));
  cc.on_ack(b);
  EXPECT_TRUE(cc.sack_update());          // never consumed
  EXPECT_NEAR(wref(cc), 119375.0, 1e-9);  // the per-RTT branch took it
}

TEST(FastTune, WrappedCountersDouble) {
  netcc_test::wrapped_counters_case<
      netcc::basic_fasttune<netcc::arith::ieee_double, netcc::hpcc_int_format::stack>>(
      base_params(), 2);
}
TEST(FastTune, WrappedCountersQ32) {
  netcc_test::wrapped_counters_case<
      netcc::basic_fasttune<netcc::arith::q32, netcc::hpcc_int_format::stack>>(base_params(), 2);
}

// Issue 16: q32 over the default 64-bit INT stack with a 4 GB queue, a timestamp jump to
// 2^63 - 1, link rates of 2^62 bps and T = 2^63 - 1 ns: no 128-bit overflow, U as in double.
TEST(FastTune, ExtremeIntInputsQ32OverTheDefaultStack) {
  netcc_test::extreme_int_inputs_case<netcc::fasttune, netcc::basic_fasttune<netcc::arith::q32>>(
      base_params());
}

// Issue 16: R = W / T with min_rate = 0 (the default) read 0 bps for a 1-byte window over
// T = 2^62 ns, though the window is open: the rate is floored at 1 bps.
TEST(FastTune, PacingRateNeverZeroWhileTheWindowIsOpen) {
  auto p = base_params();
  p.base_rtt = netcc::duration{std::int64_t{1} << 62};
  p.cwnd_init = p.min_cwnd = p.max_cwnd = 1_B;
  const netcc::fasttune d{p};
  const netcc::basic_fasttune<netcc::arith::q32> q{p};
  EXPECT_EQ(d.cwnd(), 1_B);
  EXPECT_EQ(d.pacing_rate(), netcc::min_pacing_rate);
  EXPECT_EQ(q.pacing_rate(), netcc::min_pacing_rate);
}

TEST(FastTune, IdlePathGoesToTheCapWithoutDividingByZero) {
  auto p = base_params();
  p.cwnd_init = 20000_B;
  netcc::fasttune cc{p};
  cc.on_ack(ack(0, 1, 1'000'000, {hop(0, 0, 0, 100_Gbps)}));
  cc.on_ack(ack(1000, 2, 1'000'000, {hop(1000, 0, 0, 100_Gbps)}));
  EXPECT_EQ(util(cc), 0.0);
  EXPECT_EQ(cc.cwnd(), cc.max_window());
  EXPECT_EQ(cc.pacing_rate(), 100_Gbps);
}

// ---------------------------------------------------------------------------------------------
// Properties

RC_GTEST_PROP(FastTune, OutputsFiniteAndWithinLimitsDouble, ()) {
  netcc_test::outputs_within_limits<netcc::fasttune>(
      *rc::gen::container<std::vector<netcc_test::raw_event>>(netcc_test::gen_raw_event()));
}
RC_GTEST_PROP(FastTune, OutputsFiniteAndWithinLimitsQ32, ()) {
  netcc_test::outputs_within_limits<netcc::basic_fasttune<netcc::arith::q32>>(
      *rc::gen::container<std::vector<netcc_test::raw_event>>(netcc_test::gen_raw_event()));
}
RC_GTEST_PROP(FastTune, LargerBottleneckQueueOrTxNeverGivesLargerWindowDouble, ()) {
  netcc_test::bottleneck_monotone<netcc::fasttune>();
}
RC_GTEST_PROP(FastTune, LargerBottleneckQueueOrTxNeverGivesLargerWindowQ32, ()) {
  netcc_test::bottleneck_monotone<netcc::basic_fasttune<netcc::arith::q32>>();
}
RC_GTEST_PROP(FastTune, AtTargetOneUpdateAddsExactlyWaiDouble, ()) {
  netcc_test::at_target_adds_w_ai<netcc::fasttune>();
}
RC_GTEST_PROP(FastTune, AtTargetOneUpdateAddsExactlyWaiQ32, ()) {
  netcc_test::at_target_adds_w_ai<netcc::basic_fasttune<netcc::arith::q32>>();
}
RC_GTEST_PROP(FastTune, Q32TrajectoryTracksDouble, ()) {
  netcc_test::q32_tracks_double<netcc::fasttune, netcc::basic_fasttune<netcc::arith::q32>>();
}

}  // namespace netcc_tests::control_fasttune
