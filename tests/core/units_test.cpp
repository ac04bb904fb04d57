// SPDX-License-Identifier: MIT
#include <netcc/core/units.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <limits>

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
