// SPDX-License-Identifier: MIT
#include <netcc/core/wrap.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <chrono>
#include <cstdint>

namespace netcc_tests::core_wrap {

TEST(Wrap, HandComputedDifferences) {
  EXPECT_EQ(netcc::modular<16>::diff(3, 65533), 6);
  EXPECT_EQ(netcc::modular<16>::diff(65533, 3), -6);
  EXPECT_EQ(netcc::modular<16>::diff(32768, 0), -32768);  // exactly half the range reads negative
  EXPECT_EQ(netcc::modular<24>::diff(0x000010, 0xFFFFF0), 32);
  EXPECT_EQ(netcc::modular<32>::diff(0, 0xFFFFFFFF), 1);
  EXPECT_EQ(netcc::modular<64>::diff(0, ~std::uint64_t{0}), 1);
  EXPECT_EQ(netcc::modular<17>::diff(0x1FFFF + 5, 0x1FFFF), 5);  // stray high bits ignored
  EXPECT_TRUE(netcc::modular<20>::after(1, 0xFFFFF));
}

TEST(Wrap, ScaledCountersAsIntUses) {
  using tx = netcc::wrapping_counter<20, 128>;  // HPCC tx bytes
  using q = netcc::wrapping_counter<17, 80>;    // HPCC queue units
  EXPECT_EQ(tx::delta_bytes(2, 0xFFFFF), 3 * 128);
  EXPECT_EQ(q::delta_bytes(10, 4), 6 * 80);
  EXPECT_EQ(tx::encode(128 * 5 + 127), 5u);
  EXPECT_EQ(tx::encode(std::uint64_t{128} << 20), 0u);  // wraps
}

TEST(Wrap, ClocksConvertTicksToNanoseconds) {
  using us32 = netcc::wrapping_clock<32, std::micro>;
  EXPECT_EQ(us32::diff(5, 0xFFFFFFFF), std::chrono::nanoseconds{6000});
  using ns24 = netcc::wrapping_clock<24>;
  EXPECT_EQ(ns24::encode(std::chrono::nanoseconds{(1 << 24) + 7}), 7u);
  EXPECT_EQ(ns24::diff(ns24::encode(std::chrono::nanoseconds{(1 << 24) + 7}),
                       ns24::encode(std::chrono::nanoseconds{(1 << 24) - 9})),
            std::chrono::nanoseconds{16});
}

TEST(Wrap, UnwrapperExtendsAcrossWraps) {
  netcc::unwrapper<32> u{0xFFFFFF00};
  EXPECT_EQ(u.extend(0xFFFFFFF0), 0xFFFFFFF0u);
  EXPECT_EQ(u.extend(0x00000010), 0x100000010u);
  EXPECT_EQ(u.extend(0x00000008), 0x100000008u);  // a small step back stays in the new epoch
  EXPECT_EQ(u.last(), 0x100000008u);
}

namespace {
// The wrap law for width N: diff((a + d) mod 2^N, a) == d for any a, |d| < 2^(N-1).
template <unsigned N>
void wrap_law() {
  using m = netcc::modular<N>;
  const auto a = *rc::gen::arbitrary<std::uint64_t>();
  constexpr std::int64_t lim =
      N == 64 ? INT64_MAX : static_cast<std::int64_t>((std::uint64_t{1} << (N - 1)) - 1);
  const auto d = *rc::gen::inRange<std::int64_t>(-lim, lim);
  RC_ASSERT(m::diff(m::add(a, d), a) == d);
  RC_ASSERT(m::diff(m::wrap(a + static_cast<std::uint64_t>(d)), a) == d);
}
}  // namespace

RC_GTEST_PROP(Wrap, LawHolds16, ()) {
  wrap_law<16>();
}
RC_GTEST_PROP(Wrap, LawHolds17, ()) {
  wrap_law<17>();
}
RC_GTEST_PROP(Wrap, LawHolds20, ()) {
  wrap_law<20>();
}
RC_GTEST_PROP(Wrap, LawHolds24, ()) {
  wrap_law<24>();
}
RC_GTEST_PROP(Wrap, LawHolds32, ()) {
  wrap_law<32>();
}
RC_GTEST_PROP(Wrap, LawHolds64, ()) {
  wrap_law<64>();
}

namespace {
// diff by its definition: the difference modulo 2^N, at or above half the range read as negative.
template <unsigned N>
std::int64_t diff_by_definition(std::uint64_t later, std::uint64_t earlier) {
  const std::uint64_t d = (later - earlier) & netcc::modular<N>::mask;
  if (N == 64 || d < (std::uint64_t{1} << (N - 1))) return static_cast<std::int64_t>(d);
  return -static_cast<std::int64_t>((netcc::modular<N>::mask - d) + 1);
}
template <unsigned N>
void diff_is_its_definition() {
  const auto a = *rc::gen::arbitrary<std::uint64_t>();
  const std::uint64_t half = std::uint64_t{1} << (N - 1);
  // Any two values (stray high bits included), and differences at the half range and beside it.
  const auto b = *rc::gen::oneOf(rc::gen::arbitrary<std::uint64_t>(),
                                 rc::gen::element(a + half, a + half - 1, a + half + 1, a, a - 1));
  RC_ASSERT(netcc::modular<N>::diff(b, a) == diff_by_definition<N>(b, a));
}
}  // namespace

RC_GTEST_PROP(Wrap, DiffIsTheSignedResidueAtEveryWidth, ()) {
  diff_is_its_definition<1>();
  diff_is_its_definition<2>();
  diff_is_its_definition<16>();
  diff_is_its_definition<17>();
  diff_is_its_definition<20>();
  diff_is_its_definition<24>();
  diff_is_its_definition<32>();
  diff_is_its_definition<63>();
  diff_is_its_definition<64>();
}

TEST(Wrap, DiffAtTheHalfRangeIsNegative) {
  static_assert(netcc::modular<24>::diff(std::uint64_t{1} << 23, 0) == -(std::int64_t{1} << 23));
  static_assert(netcc::modular<24>::diff((std::uint64_t{1} << 23) - 1, 0) ==
                (std::int64_t{1} << 23) - 1);
  static_assert(netcc::modular<1>::diff(1, 0) == -1);
  static_assert(netcc::modular<64>::diff(0, 1) == -1);
  EXPECT_EQ(netcc::modular<20>::diff(0xFFFFF, 0), -1);
}

RC_GTEST_PROP(Wrap, ScaledDeltaIsUnitsTimesScale, ()) {
  using c = netcc::wrapping_counter<20, 128>;
  const auto a = *rc::gen::arbitrary<std::uint64_t>();
  const auto d = *rc::gen::inRange<std::int64_t>(-(1 << 19) + 1, 1 << 19);
  RC_ASSERT(c::delta_bytes(netcc::modular<20>::add(a, d), a) == d * 128);
}

RC_GTEST_PROP(Wrap, UnwrapperFollowsSmallSteps, ()) {
  const auto start = *rc::gen::arbitrary<std::uint32_t>();
  const auto steps = *rc::gen::container<std::vector<std::int32_t>>(
      rc::gen::inRange<std::int32_t>(-(1 << 30), 1 << 30));
  netcc::unwrapper<32> u{start};
  std::uint64_t truth = start;
  for (const auto s : steps) {
    truth += static_cast<std::uint64_t>(static_cast<std::int64_t>(s));
    RC_ASSERT(u.extend(truth & 0xFFFFFFFF) == truth);
  }
}

}  // namespace netcc_tests::core_wrap
