// SPDX-License-Identifier: MIT
// netcc/core/divisor.hpp: division by an invariant divisor through a precomputed reciprocal
// (Möller and Granlund 2011, Algorithm 4) is exact: the same quotient as a 128-bit division for
// every dividend whose quotient fits 64 bits.
#include <netcc/core/arith.hpp>
#include <netcc/core/divisor.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

namespace netcc_tests::core_divisor {

namespace {

using netcc::detail::invariant_divisor;
using netcc::detail::u128;

// A divisor of any width: 1 bit to 64 bits, powers of two and their neighbours included.
std::uint64_t gen_divisor() {
  const int bits = *rc::gen::inRange(1, 65);
  const std::uint64_t top = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  switch (*rc::gen::inRange(0, 4)) {
    case 0:
      return std::uint64_t{1} << (bits - 1);  // a power of two
    case 1:
      return top;  // all ones
    default: {
      const std::uint64_t d = *rc::gen::arbitrary<std::uint64_t>() & top;
      return d == 0 ? 1 : d;
    }
  }
}

// A dividend whose quotient by d fits 64 bits: (hi, lo) with hi < d.
u128 gen_dividend(std::uint64_t d) {
  const std::uint64_t hi =
      *rc::gen::element(0, 1, 2) == 0 ? 0 : (*rc::gen::arbitrary<std::uint64_t>()) % d;
  const std::uint64_t lo = *rc::gen::arbitrary<std::uint64_t>();
  return (u128{hi} << 64) | lo;
}

}  // namespace

TEST(InvariantDivisor, HandComputedQuotients) {
  constexpr invariant_divisor k{1000};
  static_assert(k.div_floor(u128{999}) == 0);
  static_assert(k.div_floor(u128{1000}) == 1);
  static_assert(k.div_nearest(u128{1499}) == 1);
  static_assert(k.div_nearest(u128{1500}) == 2);                        // ties up
  EXPECT_EQ(k.div_nearest(u128{1'234'567} << 32), 5'302'424'889'721u);  // 1234567 * 2^32 / 1000
  constexpr invariant_divisor one{1};
  EXPECT_EQ(one.div_floor(~std::uint64_t{0}), ~std::uint64_t{0});
  constexpr invariant_divisor top{~std::uint64_t{0}};
  const u128 big = (u128{~std::uint64_t{0} - 1} << 64) | ~std::uint64_t{0};  // quotient 2^64 - 1
  EXPECT_TRUE(top.fits(big));
  EXPECT_EQ(top.div_floor(big), ~std::uint64_t{0});
  EXPECT_FALSE(top.fits(u128{~std::uint64_t{0}} << 64));
  EXPECT_EQ(invariant_divisor{0}.divisor(), 1u);  // 0 is taken as 1
}

RC_GTEST_PROP(InvariantDivisorProp, FloorEqualsA128BitDivision, ()) {
  const std::uint64_t d = gen_divisor();
  const invariant_divisor inv{d};
  const u128 n = gen_dividend(d);
  RC_ASSERT(inv.fits(n));
  RC_ASSERT(u128{inv.div_floor(n)} == n / d);
}

// The 64-bit path (div_floor64: Granlund-Montgomery's multiplier, read off the Möller-Granlund
// reciprocal) against the hardware division, at the edges of both operands.
TEST(InvariantDivisor, SixtyFourBitDividendsAtTheEdges) {
  std::vector<std::uint64_t> ds{1, 2, 3, 5, 7, 10, 1000, 1'000'000'007ULL, ~std::uint64_t{0}};
  for (int b = 1; b < 64; ++b) {
    const std::uint64_t p = std::uint64_t{1} << b;
    ds.insert(ds.end(), {p - 1, p, p + 1});
  }
  for (const std::uint64_t d : ds) {
    const invariant_divisor inv{d};
    const std::uint64_t max = ~std::uint64_t{0};
    for (const std::uint64_t n :
         {std::uint64_t{0}, std::uint64_t{1}, d - 1, d, d + 1, 2 * d - 1, 2 * d, max - d, max / 2,
          max / 2 + 1, max - 1, max, max / d * d, max / d * d - 1}) {
      EXPECT_EQ(inv.div_floor64(n), n / d) << n << " / " << d;
      EXPECT_EQ(inv.div_floor(u128{n}), n / d) << n << " / " << d;
    }
  }
}

RC_GTEST_PROP(InvariantDivisorProp, SixtyFourBitPathEqualsTheHardwareDivision, ()) {
  const std::uint64_t d = gen_divisor();
  const invariant_divisor inv{d};
  const auto n = *rc::gen::oneOf(rc::gen::arbitrary<std::uint64_t>(),
                                 rc::gen::inRange<std::uint64_t>(0, 3 * d < d ? d : 3 * d));
  RC_ASSERT(inv.div_floor64(n) == n / d);
}

RC_GTEST_PROP(InvariantDivisorProp, NearestEqualsRoundedDivision, ()) {
  const std::uint64_t d = gen_divisor();
  const invariant_divisor inv{d};
  const u128 n = gen_dividend(d);
  if (!inv.fits(n + d / 2)) return;  // only the quotient 2^64 - 1 plus a half can overflow
  RC_ASSERT(u128{inv.div_nearest(n)} == (n + d / 2) / d);
}

RC_GTEST_PROP(InvariantDivisorProp, RatioByEqualsRatioBitForBit, ()) {
  // netcc::ratio_by is netcc::ratio through the reciprocal: the same q32 value for any n and
  // any positive divisor (saturation and the fallback for wide quotients included).
  const auto n = *rc::gen::oneOf(rc::gen::arbitrary<std::int64_t>(),
                                 rc::gen::inRange<std::int64_t>(-5'000'000, 5'000'000),
                                 rc::gen::element(std::numeric_limits<std::int64_t>::min(),
                                                  std::numeric_limits<std::int64_t>::max()));
  auto d = static_cast<std::int64_t>(gen_divisor() >> 1);
  if (d <= 0) d = 1;
  using q32 = netcc::fixed_point<31, 32>;
  const q32 a = netcc::ratio_by<q32>(n, invariant_divisor{static_cast<std::uint64_t>(d)});
  RC_ASSERT(a.raw() == netcc::ratio<q32>(n, d).raw());
  const double b = netcc::ratio_by<double>(n, invariant_divisor{static_cast<std::uint64_t>(d)});
  RC_ASSERT(b == netcc::ratio<double>(n, d));
}

// Algorithm 3 (reciprocal_word) against the 128-bit quotient it replaces, at the ends of the
// normalised range, next to every table boundary, and at random.
TEST(ReciprocalWord, EqualsThe128BitQuotientAtTheEdges) {
  const auto exact = [](std::uint64_t d) {
    return static_cast<std::uint64_t>(~u128{0} / d);  // 2^64 + v, truncated to v
  };
  const std::uint64_t top = std::uint64_t{1} << 63;
  for (std::uint64_t k = 0; k < 512; ++k) {
    const std::uint64_t base = top + (k << 54);  // every table boundary (9 top bits)
    for (const std::uint64_t d : {base, base + 1, base - 1, base + 0xFFFF, base | 0xFFFFFFFF}) {
      if (d < top) continue;
      ASSERT_EQ(netcc::detail::reciprocal_word(d), exact(d)) << d;
    }
  }
  EXPECT_EQ(netcc::detail::reciprocal_word(~std::uint64_t{0}), exact(~std::uint64_t{0}));
  EXPECT_EQ(netcc::detail::reciprocal_word(top), exact(top));
  static_assert(netcc::detail::reciprocal_word(std::uint64_t{1} << 63) == ~std::uint64_t{0});
}

RC_GTEST_PROP(ReciprocalWordProp, EqualsThe128BitQuotient, ()) {
  const std::uint64_t d = *rc::gen::arbitrary<std::uint64_t>() | (std::uint64_t{1} << 63);
  RC_ASSERT(netcc::detail::reciprocal_word(d) == static_cast<std::uint64_t>(~u128{0} / d));
}

}  // namespace netcc_tests::core_divisor
