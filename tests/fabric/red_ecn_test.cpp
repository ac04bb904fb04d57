// SPDX-License-Identifier: MIT
// RED/ECN marking (seed 003 §III-B d, Table II), DCTCP's single threshold (DCTCP §3.1,
// RFC 8257 §3.1), RFC 3168 handling of Not-ECT and CE, and the compile-time probability table;
// hand-computed values and RapidCheck properties (monotone in backlog, bounded, table never
// above the formula and within one cell's slope of it).
#include <netcc/fabric/red_ecn.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>

#include <netcc/core/arith.hpp>

namespace netcc_tests::fabric_red_ecn {

using namespace netcc::literals;
using netcc::bytes;
using netcc::ecn_codepoint;
using netcc::red_action;
using netcc::red_ecn_params;
using netcc::red_probability;

namespace {

constexpr std::uint64_t one = red_probability::one_raw;

std::uint64_t p_of(std::int64_t x, const red_ecn_params& p = {}) {
  return netcc::red_marking_probability(bytes{x}, p).raw;
}

// Random valid parameters: thresholds up to 16 MB, P_max in (0, 1].
red_ecn_params gen_params() {
  red_ecn_params p;
  p.k_min = bytes{*rc::gen::inRange<std::int64_t>(0, 16'000'000)};
  p.k_max = p.k_min + bytes{*rc::gen::inRange<std::int64_t>(0, 16'000'000)};
  p.p_max.raw = *rc::gen::inRange<std::uint64_t>(1, one + 1);
  p.drop_not_ect = *rc::gen::arbitrary<bool>();
  return p;
}

}  // namespace

TEST(RedEcn, TableIIDefaults) {
  const red_ecn_params p;
  EXPECT_EQ(p.k_min, 5000_B);
  EXPECT_EQ(p.k_max, 200000_B);
  EXPECT_EQ(p.p_max.raw, 42949673u);  // round(2^32 * 0.01) = round(42949672.96)
  EXPECT_NEAR(p.p_max.to_double(), 0.01, 1e-10);
  EXPECT_TRUE(p.drop_not_ect);
  EXPECT_TRUE(validate(p).ok());
}

TEST(RedEcn, ProbabilityByHand) {
  // x <= K_min: 0.
  EXPECT_EQ(p_of(-100), 0u);
  EXPECT_EQ(p_of(0), 0u);
  EXPECT_EQ(p_of(5000), 0u);
  // K_min < x < K_max: floor(42949673 * (x - 5000) / 195000).
  EXPECT_EQ(p_of(5001), 220u);         // 42949673 / 195000 = 220.25
  EXPECT_EQ(p_of(24500), 4294967u);    // 19500 / 195000 = 1/10: 4294967.3
  EXPECT_EQ(p_of(102500), 21474836u);  // 1/2: 21474836.5
  EXPECT_EQ(p_of(180500), 38654705u);  // 175500 / 195000 = 9/10: 38654705.7
  EXPECT_EQ(p_of(199999), 42949452u);  // 194999 / 195000: 42949452.75
  // x >= K_max: 1.
  EXPECT_EQ(p_of(200000), one);
  EXPECT_EQ(p_of(std::int64_t{1} << 62), one);
  // Doubles for orientation: 0.5 % at the midpoint.
  EXPECT_NEAR(netcc::red_marking_probability(102500_B, {}).to_double(), 0.005, 1e-9);
}

TEST(RedEcn, DrawSelectsBelowP) {
  const red_ecn_params p;
  // p(102500) = 21474836: draws 0 .. 21474835 select, 21474836 .. 2^32-1 do not.
  for (std::uint32_t d : {0u, 1u, 21474835u}) {
    const auto r = netcc::red_ecn_on_packet(ecn_codepoint::ect0, 102500_B, d, p);
    EXPECT_EQ(r.action, red_action::mark) << d;
    EXPECT_EQ(r.ecn, ecn_codepoint::ce);
    EXPECT_EQ(r.p.raw, 21474836u);
  }
  for (std::uint32_t d : {21474836u, 21474837u, 0xFFFFFFFFu}) {
    const auto r = netcc::red_ecn_on_packet(ecn_codepoint::ect1, 102500_B, d, p);
    EXPECT_EQ(r.action, red_action::pass) << d;
    EXPECT_EQ(r.ecn, ecn_codepoint::ect1);
  }
  // p = 1: even the largest draw marks; p = 0: even draw 0 passes.
  EXPECT_EQ(netcc::red_ecn_on_packet(ecn_codepoint::ect0, 200000_B, 0xFFFFFFFFu, p).action,
            red_action::mark);
  EXPECT_EQ(netcc::red_ecn_on_packet(ecn_codepoint::ect0, 5000_B, 0u, p).action, red_action::pass);
}

TEST(RedEcn, Rfc3168NotEctAndCe) {
  red_ecn_params p;
  // Selected Not-ECT packet: dropped (RFC 3168 §7), keeps its field.
  auto r = netcc::red_ecn_on_packet(ecn_codepoint::not_ect, 300000_B, 5u, p);
  EXPECT_EQ(r.action, red_action::drop);
  EXPECT_EQ(r.ecn, ecn_codepoint::not_ect);
  // With drop_not_ect = false (lossless class): passed unchanged.
  p.drop_not_ect = false;
  r = netcc::red_ecn_on_packet(ecn_codepoint::not_ect, 300000_B, 5u, p);
  EXPECT_EQ(r.action, red_action::pass);
  EXPECT_EQ(r.ecn, ecn_codepoint::not_ect);
  // Not selected Not-ECT: passes.
  r = netcc::red_ecn_on_packet(ecn_codepoint::not_ect, 1000_B, 5u, p);
  EXPECT_EQ(r.action, red_action::pass);
  // CE stays CE whether selected or not.
  EXPECT_EQ(netcc::red_ecn_on_packet(ecn_codepoint::ce, 300000_B, 5u, p).ecn, ecn_codepoint::ce);
  EXPECT_EQ(netcc::red_ecn_on_packet(ecn_codepoint::ce, 0_B, 5u, p).ecn, ecn_codepoint::ce);
}

TEST(RedEcn, DctcpSingleThreshold) {
  // K = 65 packets of 1500 B = 97500 B (DCTCP §3.4 guideline at 10 Gbps). Marks iff x > K.
  const auto p = netcc::dctcp_red_params(97500_B);
  EXPECT_TRUE(validate(p).ok());
  EXPECT_EQ(p_of(97500, p), 0u);
  EXPECT_EQ(p_of(97501, p), one);
  EXPECT_EQ(netcc::red_ecn_on_packet(ecn_codepoint::ect0, 97500_B, 0u, p).action, red_action::pass);
  EXPECT_EQ(netcc::red_ecn_on_packet(ecn_codepoint::ect0, 97501_B, 0xFFFFFFFFu, p).action,
            red_action::mark);
  // Degenerate RED with K_min = K_max = K directly: the seed's formula marks at x >= K.
  const red_ecn_params eq{.k_min = 1000_B, .k_max = 1000_B};
  EXPECT_EQ(p_of(999, eq), 0u);
  EXPECT_EQ(p_of(1000, eq), one);
  // Totality at the extremes.
  EXPECT_EQ(netcc::dctcp_red_params(bytes{-5}).k_max, 1_B);
  EXPECT_EQ(netcc::dctcp_red_params(bytes::max()).k_max, bytes::max());
}

TEST(RedEcn, ValidateNamesFields) {
  red_ecn_params p{.k_min = bytes{-1}, .k_max = bytes{-2}};
  p.p_max.raw = 0;
  const auto v = validate(p);
  EXPECT_EQ(v.size(), 3u);
  EXPECT_TRUE(v.names("red_ecn.k_min"));
  EXPECT_TRUE(v.names("red_ecn.k_max"));
  EXPECT_TRUE(v.names("red_ecn.p_max"));
  p = red_ecn_params{};
  p.p_max.raw = one + 1;
  EXPECT_TRUE(validate(p).names("red_ecn.p_max"));
  EXPECT_EQ(red_probability::from_ratio(3, 0), red_probability::one());
  EXPECT_EQ(red_probability::from_ratio(0, 0), red_probability::zero());
  EXPECT_EQ(red_probability::from_ratio(5, 4), red_probability::one());
  EXPECT_EQ(red_probability::from_ratio(1, 2).raw, one / 2);
}

TEST(RedEcn, TableAgainstDirect) {
  constexpr red_ecn_params p;
  constexpr auto t = netcc::make_red_ecn_table<1024>(p, netcc::red_ecn_table_shift(p, 1024));
  static_assert(t.shift == 8 && t.covers() && t.size_bytes == 4096);
  EXPECT_TRUE(t.check(0, 1024));
  // Every backlog from 0 to 210000: table <= direct, and direct - table within one cell's slope
  // P_max * 255 / 195000 = 56166.7 (units of 2^-32), plus 1 for the two floors.
  for (std::int64_t x = 0; x <= 210000; ++x) {
    const auto d = netcc::red_marking_probability(bytes{x}, p).raw;
    const auto l = t.lookup(bytes{x}).raw;
    ASSERT_LE(l, d) << x;
    ASSERT_LE(d - l, 56167u) << x;
  }
  // A table too small to cover K_max clamps to its last cell (documented), still monotone.
  constexpr auto small = netcc::make_red_ecn_table<16>(p, 8);
  EXPECT_FALSE(small.covers());
  EXPECT_EQ(small.lookup(100000_B).raw, small.entries[15]);
  EXPECT_EQ(small.lookup(200000_B), red_probability::one());
}

// Integer p(x) against the same formula in IEEE double and in q32 fixed point (the two arith
// policies): they agree within 2^-31 (the integer floor loses < 2^-32, q32 rounds each of its
// two operations to 2^-33).
TEST(RedEcn, IntegerMatchesDoubleAndQ32) {
  using q32 = netcc::fixed_point<31, 32>;
  const red_ecn_params p;
  for (std::int64_t x = 5000; x <= 200000; x += 97) {
    const double pi = netcc::red_marking_probability(bytes{x}, p).to_double();
    const double pd = x >= 200000 ? 1.0 : p.p_max.to_double() * (x - 5000) / 195000.0;
    const q32 pq = x >= 200000 ? q32{1}
                               : q32::from_raw(static_cast<std::int64_t>(p.p_max.raw)) *
                                     netcc::ratio<q32>(x - 5000, 195000);
    EXPECT_NEAR(pi, pd, 0x1p-31) << x;
    EXPECT_NEAR(pi, pq.to_double(), 0x1p-31) << x;
  }
}

RC_GTEST_PROP(RedEcn, MonotoneInBacklog, ()) {
  const auto p = gen_params();
  const auto a = *rc::gen::inRange<std::int64_t>(-1000, 40'000'000);
  const auto b = a + *rc::gen::inRange<std::int64_t>(0, 40'000'000);
  const auto pa = netcc::red_marking_probability(bytes{a}, p);
  const auto pb = netcc::red_marking_probability(bytes{b}, p);
  RC_ASSERT(pa <= pb);
  RC_ASSERT(pb.raw <= one);
  // The seed's three regions.
  if (b >= p.k_max.count()) RC_ASSERT(pb == red_probability::one());
  if (a <= p.k_min.count()) RC_ASSERT(pa == red_probability::zero());
  if (a > p.k_min.count() && a < p.k_max.count()) RC_ASSERT(pa.raw < p.p_max.raw || pa.raw == 0);
}

RC_GTEST_PROP(RedEcn, DecisionMonotoneInDrawAndBacklog, ()) {
  const auto p = gen_params();
  const auto x = *rc::gen::inRange<std::int64_t>(0, 40'000'000);
  const auto y = x + *rc::gen::inRange<std::int64_t>(0, 1'000'000);
  const auto d = *rc::gen::arbitrary<std::uint32_t>();
  const auto e = *rc::gen::inRange<std::uint32_t>(0, d == 0 ? 1 : d);    // e <= d
  const auto ecn = static_cast<ecn_codepoint>(*rc::gen::inRange(1, 3));  // ECT(1) or ECT(0)
  const auto rd = netcc::red_ecn_on_packet(ecn, bytes{x}, d, p);
  // Marked with draw d => marked with any smaller draw, and at any larger backlog.
  if (rd.action == red_action::mark) {
    RC_ASSERT(netcc::red_ecn_on_packet(ecn, bytes{x}, e, p).action == red_action::mark);
    RC_ASSERT(netcc::red_ecn_on_packet(ecn, bytes{y}, d, p).action == red_action::mark);
  }
  RC_ASSERT(rd.action != red_action::drop);  // ECN-capable packets are never dropped
  RC_ASSERT((rd.action == red_action::mark) == (rd.ecn == ecn_codepoint::ce));
}

RC_GTEST_PROP(RedEcn, TableNeverAboveDirectAndMonotone, ()) {
  auto p = gen_params();
  p.k_max = p.k_min + bytes{*rc::gen::inRange<std::int64_t>(0, 60'000)};
  const auto shift = *rc::gen::inRange(0u, 6u);
  const auto t = netcc::make_red_ecn_table<256>(p, netcc::red_ecn_table_shift(p, 256) + shift);
  RC_ASSERT(t.covers());
  RC_ASSERT(t.check(0, 256));
  const auto x = *rc::gen::inRange<std::int64_t>(0, 4'000'000);
  const auto y = x + *rc::gen::inRange<std::int64_t>(0, 100'000);
  RC_ASSERT(t.lookup(bytes{x}) <= netcc::red_marking_probability(bytes{x}, p));
  RC_ASSERT(t.lookup(bytes{x}) <= t.lookup(bytes{y}));
  // Within one cell of the direct value: lookup(x) == p(x rounded down to its cell's edge).
  if (x < p.k_max.count()) {
    const std::int64_t edge = (x >> t.shift) << t.shift;
    RC_ASSERT(t.lookup(bytes{x}) == netcc::red_marking_probability(bytes{edge}, p));
  }
}

}  // namespace netcc_tests::fabric_red_ecn
