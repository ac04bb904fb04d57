// SPDX-License-Identifier: MIT
#include <netcc/core/units.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <limits>

namespace netcc_tests::core_units {

using namespace netcc::literals;

TEST(Units, LiteralsAndAccessors) {
  EXPECT_EQ((64_KiB).count(), 65536);
  EXPECT_EQ((100_Gbps).bps(), 100'000'000'000);
  EXPECT_DOUBLE_EQ((25_Gbps).gbps(), 25.0);
  EXPECT_EQ(5_us, netcc::duration{5000});
  EXPECT_EQ(2_ms, netcc::duration{2'000'000});
  EXPECT_EQ(1_s, netcc::duration{1'000'000'000});
  EXPECT_EQ(12.5_Mbps, netcc::bit_rate{12'500'000});
}

TEST(Units, BdpAndSerialisation) {
  // The quantities every paper computes: BDP and per-packet serialisation.
  EXPECT_EQ(25_Gbps * 12_us, 37'500_B);
  EXPECT_EQ(1500_B / 100_Gbps, 120_ns);
  EXPECT_EQ(16_KiB / 10_Gbps, netcc::duration{13'108});  // 13107.2 rounds up
  EXPECT_EQ(1500_B / 1_us, 12_Gbps);
}

TEST(Units, RoundingRulesAreAsDocumented) {
  // rate * time: toward zero, also for negative durations.
  EXPECT_EQ(1_Gbps * 7_ns, 0_B);
  EXPECT_EQ(1_Gbps * netcc::duration{-7}, 0_B);
  // bytes / time: toward zero.
  EXPECT_EQ(1_B / 3_ns, netcc::bit_rate{2'666'666'666});
  // bytes / rate: away from zero.
  EXPECT_EQ(1_B / 3_Gbps, 3_ns);
  EXPECT_EQ(-1_B / 3_Gbps, -3_ns);
}

TEST(Units, ZeroDivisorsSaturate) {
  EXPECT_EQ(1_B / netcc::bit_rate{0}, netcc::duration::max());
  EXPECT_EQ(-1_B / netcc::bit_rate{0}, netcc::duration::min());
  EXPECT_EQ(0_B / netcc::bit_rate{0}, netcc::duration::zero());
  EXPECT_EQ(1_B / 0_ns, netcc::bit_rate::max());
  EXPECT_EQ(netcc::bits{-1} / 0_ns, netcc::bit_rate::min());
}

TEST(Units, SameUnitArithmetic) {
  netcc::bytes w = 3000_B;
  w += 1500_B;
  w -= 500_B;
  EXPECT_EQ(w, 4000_B);
  EXPECT_EQ(w * 2, 8000_B);
  EXPECT_EQ(3 * w, 12000_B);
  EXPECT_EQ(w / 3, 1333_B);
  EXPECT_DOUBLE_EQ(w / 1000_B, 4.0);
  EXPECT_LT(1_B, 2_B);
  EXPECT_EQ(-w, netcc::bytes{-4000});
}

// Products and quotients agree with exact rational arithmetic for every operand range a
// datacenter uses (rates up to 1.6 Tbps, times up to 1 s, sizes up to 1 GB).
RC_GTEST_PROP(Units, RateTimesDurationIsFloorOfExactProduct, ()) {
  const auto bps = *rc::gen::inRange<std::int64_t>(0, 1'600'000'000'001);
  const auto ns = *rc::gen::inRange<std::int64_t>(0, 1'000'000'001);
  const netcc::bytes b = netcc::bit_rate{bps} * netcc::duration{ns};
  const netcc::detail::i128 exact8 = static_cast<netcc::detail::i128>(bps) * ns;  // 8e9 * bytes
  RC_ASSERT(static_cast<netcc::detail::i128>(b.count()) * 8'000'000'000 <= exact8);
  RC_ASSERT(static_cast<netcc::detail::i128>(b.count() + 1) * 8'000'000'000 > exact8);
}

RC_GTEST_PROP(Units, SerialisationTimeIsCeilingAndCoversTheBytes, ()) {
  const auto n = *rc::gen::inRange<std::int64_t>(0, 1'000'000'001);
  const auto bps = *rc::gen::inRange<std::int64_t>(1, 1'600'000'000'001);
  const netcc::duration t = netcc::bytes{n} / netcc::bit_rate{bps};
  // At rate r, in t the link sends at least n bytes, and one ns less would not be enough.
  RC_ASSERT(netcc::bit_rate{bps} * t >= netcc::bytes{n} ||
            static_cast<netcc::detail::i128>(bps) * t.count() >=
                static_cast<netcc::detail::i128>(n) * 8'000'000'000);
  if (t.count() > 0) {
    RC_ASSERT(static_cast<netcc::detail::i128>(bps) * (t.count() - 1) <
              static_cast<netcc::detail::i128>(n) * 8'000'000'000);
  }
}

RC_GTEST_PROP(Units, RateRoundTripNeverOvershoots, ()) {
  const auto n = *rc::gen::inRange<std::int64_t>(0, 1'000'000'001);
  const auto ns = *rc::gen::inRange<std::int64_t>(1, 1'000'000'001);
  const netcc::bit_rate r = netcc::bytes{n} / netcc::duration{ns};
  RC_ASSERT(r * netcc::duration{ns} <= netcc::bytes{n});
}

RC_GTEST_PROP(Units, ExtremeOperandsSaturateInsteadOfOverflowing,
              (std::int64_t a, std::int64_t b)) {
  const netcc::bytes x = netcc::bit_rate{a} * netcc::duration{b};
  const netcc::detail::i128 exact = static_cast<netcc::detail::i128>(a) * b / 8'000'000'000;
  const netcc::detail::i128 clamped = exact > std::numeric_limits<std::int64_t>::max()
                                          ? std::numeric_limits<std::int64_t>::max()
                                          : (exact < std::numeric_limits<std::int64_t>::min()
                                                 ? std::numeric_limits<std::int64_t>::min()
                                                 : exact);
  RC_ASSERT(static_cast<netcc::detail::i128>(x.count()) == clamped);
}

namespace {
// The exact value clamped to int64, as every saturating operation must give.
std::int64_t clamp128(netcc::detail::i128 v) {
  constexpr auto lo = std::numeric_limits<std::int64_t>::min();
  constexpr auto hi = std::numeric_limits<std::int64_t>::max();
  return v > hi ? hi : (v < lo ? lo : static_cast<std::int64_t>(v));
}
}  // namespace

// bytes / duration and bytes / bit_rate take a 64-bit path when b * 8e9 < 2^63; both equal their
// 128-bit definitions (toward zero; away from zero), clamped, for operands of every magnitude and
// at the edge of that path.
RC_GTEST_PROP(Units, QuotientsEqualTheir128BitDefinitions, ()) {
  using netcc::detail::i128;
  constexpr std::int64_t edge = netcc::detail::max_bytes_64;
  const auto b = *rc::gen::oneOf(rc::gen::arbitrary<std::int64_t>(),
                                 rc::gen::inRange<std::int64_t>(-10, 2'000'000'000),
                                 rc::gen::inRange<std::int64_t>(edge - 3, edge + 4));
  const auto d = *rc::gen::oneOf(
      rc::gen::arbitrary<std::int64_t>(), rc::gen::inRange<std::int64_t>(1, 2'000'000'000'000),
      rc::gen::element<std::int64_t>(1, 2, 7, -1, std::numeric_limits<std::int64_t>::max()));
  if (d == 0) return;
  const i128 n = i128{b} * 8'000'000'000;
  RC_ASSERT((netcc::bytes{b} / netcc::duration{d}).count() == clamp128(n / d));
  RC_ASSERT((netcc::bytes{b} / netcc::bit_rate{d}).count() ==
            clamp128(netcc::detail::div_away_from_zero(n, i128{d})));
}

TEST(Units, SameUnitArithmeticSaturatesAtTheLimits) {
  EXPECT_EQ(netcc::bytes::max() + 1_B, netcc::bytes::max());
  EXPECT_EQ(netcc::bytes::min() - 1_B, netcc::bytes::min());
  EXPECT_EQ(-netcc::bytes::min(), netcc::bytes::max());
  EXPECT_EQ(netcc::bytes::max() * 2, netcc::bytes::max());
  EXPECT_EQ(-3 * netcc::bytes::max(), netcc::bytes::min());
  EXPECT_EQ(netcc::bytes::min() / -1, netcc::bytes::max());
  EXPECT_EQ(1500_B / 0, netcc::bytes::max());  // a zero divisor saturates, as rate / 0 does
  EXPECT_EQ(netcc::bytes{-1} / 0, netcc::bytes::min());
  EXPECT_EQ(netcc::bytes{0} / 0, netcc::bytes{0});
  netcc::bytes b = netcc::bytes::max();
  b += 1_B;
  EXPECT_EQ(b, netcc::bytes::max());
  b = netcc::bytes::min();
  b -= 1_B;
  EXPECT_EQ(b, netcc::bytes::min());
  EXPECT_EQ(netcc::bit_rate::max() + 1_bps, netcc::bit_rate::max());
  // Consistent with the mixed products: both saturate at the same limit.
  EXPECT_EQ(netcc::bit_rate::max() * netcc::duration{1'000'000'000'000},
            netcc::bytes::max() + netcc::bytes::max());
}

TEST(Units, TimestampIsAPointInTime) {
  const netcc::timestamp sent{1'000}, acked{29'000};
  const netcc::duration rtt = acked - sent;
  EXPECT_EQ(rtt, 28_us);
  EXPECT_EQ(acked + 2 * rtt, netcc::timestamp{85'000});
  EXPECT_EQ(rtt + acked, acked + rtt);
  EXPECT_EQ(acked - rtt, sent);
  EXPECT_EQ(netcc::timestamp{5_us}.count(), 5000);
  EXPECT_EQ(netcc::timestamp{5_us}.time_since_epoch(), 5_us);
  EXPECT_LT(sent, acked);
  EXPECT_EQ(netcc::timestamp{}, netcc::timestamp{0});
  netcc::timestamp t = sent;
  t += rtt;
  EXPECT_EQ(t, acked);
  t -= rtt;
  EXPECT_EQ(t, sent);
  // The ends of the clock saturate instead of overflowing.
  EXPECT_EQ(netcc::timestamp::max() + 1_ns, netcc::timestamp::max());
  EXPECT_EQ(netcc::timestamp::min() - 1_ns, netcc::timestamp::min());
  EXPECT_EQ(netcc::timestamp::max() - netcc::timestamp::min(), netcc::duration::max());
  EXPECT_EQ(netcc::timestamp::min() - netcc::timestamp::max(), netcc::duration::min());
  static_assert(!std::is_convertible_v<netcc::duration, netcc::timestamp>);
  static_assert(!std::is_convertible_v<std::int64_t, netcc::timestamp>);
}

RC_GTEST_PROP(Units, SameUnitSumsAndProductsAreTheExactValueClamped,
              (std::int64_t a, std::int64_t b)) {
  using netcc::detail::i128;
  RC_ASSERT((netcc::bytes{a} + netcc::bytes{b}).count() == clamp128(i128{a} + b));
  RC_ASSERT((netcc::bytes{a} - netcc::bytes{b}).count() == clamp128(i128{a} - b));
  RC_ASSERT((netcc::bytes{a} * b).count() == clamp128(i128{a} * b));
  RC_ASSERT((-netcc::bytes{a}).count() == clamp128(-i128{a}));
  if (b != 0) RC_ASSERT((netcc::bytes{a} / b).count() == clamp128(i128{a} / b));
}

RC_GTEST_PROP(Units, TimestampArithmeticIsTheExactValueClamped, (std::int64_t a, std::int64_t b)) {
  using netcc::detail::i128;
  const netcc::timestamp t{a}, u{b};
  RC_ASSERT((t - u).count() == clamp128(i128{a} - b));
  RC_ASSERT((t + netcc::duration{b}).count() == clamp128(i128{a} + b));
  RC_ASSERT((t - netcc::duration{b}).count() == clamp128(i128{a} - b));
  // Away from the ends, subtraction undoes addition.
  if (i128{a} + b == clamp128(i128{a} + b))
    RC_ASSERT(t + netcc::duration{b} - netcc::duration{b} == t);
}

}  // namespace netcc_tests::core_units
