// SPDX-License-Identifier: MIT
#include <netcc/calculus/rational.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

namespace netcc_tests::calculus_rational {

using netcc::calculus::rational;

TEST(Rational, ReducesAndOrders) {
  EXPECT_EQ(rational::of(2, 4), rational::of(1, 2));    // gcd(2,4) = 2
  EXPECT_EQ(rational::of(3, -6), rational::of(-1, 2));  // sign moves to numerator
  EXPECT_EQ(rational::of(1, 3) + rational::of(1, 6), rational::of(1, 2));  // 2/6 + 1/6 = 3/6
  EXPECT_EQ(rational::of(2, 3) * rational::of(3, 4), rational::of(1, 2));  // 6/12
  EXPECT_EQ(rational::of(1, 2) / rational::of(1, 4), rational{2});
  EXPECT_LT(rational::of(1, 3), rational::of(1, 2));
  EXPECT_EQ(netcc::calculus::floor(rational::of(-1, 2)), -1);
  EXPECT_EQ(netcc::calculus::floor(rational::of(7, 2)), 3);
}

TEST(Rational, OverflowIsLoudAndSticky) {
  const rational big{std::numeric_limits<std::int64_t>::max()};
  EXPECT_TRUE(big.valid());
  EXPECT_FALSE((big + rational{1}).valid());  // 2^63 does not fit
  EXPECT_FALSE((big * rational{2}).valid());
  EXPECT_FALSE(((big + rational{1}) - rational{5}).valid());  // sticky
  EXPECT_FALSE((rational{1} / rational{0}).valid());
  EXPECT_FALSE(rational{std::numeric_limits<std::int64_t>::min()}.valid());
  // Comparison of extremes is exact: (2^63-1)/(2^63-2) > 1.
  EXPECT_GT(rational::of(std::numeric_limits<std::int64_t>::max(),
                         std::numeric_limits<std::int64_t>::max() - 1),
            rational{1});
}

// Law: when the result is valid it equals the double computation within rounding.
RC_GTEST_PROP(Rational, AgreesWithDouble, (std::int32_t a, std::int32_t b, std::int32_t c)) {
  RC_PRE(b != 0 && c != 0);
  const rational x = rational::of(a, b), y = rational::of(c, b);
  const rational s = x + y / rational{c};
  RC_ASSERT(s.valid());
  const double e = double(a) / b + (double(c) / b) / c;
  RC_ASSERT(std::abs(s.to_double() - e) <= 1e-9 * (1 + std::abs(e)));
}

TEST(WideRational, ExactBeyondInt64AndNarrowsBackOnlyWhenItFits) {
  using netcc::calculus::wide_rational;
  const auto a = wide_rational::of(1, 3'000'000'000);
  const auto b = wide_rational::of(1, 5'000'000'000);
  const auto p = a * b;  // 1 / 1.5e19: the denominator exceeds int64
  ASSERT_TRUE(p.valid());
  EXPECT_FALSE(p.to_rational().valid());
  EXPECT_EQ(p / b, a);  // divides back exactly
  EXPECT_EQ((p / a).to_rational(), rational::of(1, 5'000'000'000));
  EXPECT_EQ(a - a, wide_rational{0});
  EXPECT_EQ(wide_rational::of(2, -4), wide_rational::of(-1, 2));
  EXPECT_EQ(wide_rational{rational::of(3, 7)}.to_rational(), rational::of(3, 7));
  // 1/3e9 + 1/5e9 = 8e9 / 1.5e19 = 1 / 1.875e9
  EXPECT_EQ((a + b).to_rational(), rational::of(1, 1'875'000'000));
  // order by 256-bit cross products
  EXPECT_LT(p, a);
  EXPECT_LT(-a, -p);
  EXPECT_LT(-a, p);
  EXPECT_FALSE(p < p);
  // overflow is sticky: (2^62)^3 does not fit 127 bits
  const wide_rational big{std::int64_t{1} << 62};
  EXPECT_TRUE((big * big).valid());
  EXPECT_FALSE((big * big * big).valid());
  EXPECT_FALSE((big * big * big + wide_rational{1}).valid());
  EXPECT_FALSE((wide_rational{1} / wide_rational{0}).valid());
  EXPECT_FALSE(wide_rational{rational::invalid()}.valid());
}

RC_GTEST_PROP(WideRationalLaws, AgreesWithRationalWhereBothFit, ()) {
  using netcc::calculus::wide_rational;
  const auto gen = [] {
    return rational::of(*rc::gen::inRange<std::int64_t>(-1'000'000'000, 1'000'000'000),
                        *rc::gen::inRange<std::int64_t>(1, 1'000'000'000));
  };
  const rational x = gen();
  const rational y = gen();
  const wide_rational wx{x};
  const wide_rational wy{y};
  RC_ASSERT((wx + wy).to_rational() == x + y);
  RC_ASSERT((wx - wy).to_rational() == x - y);
  RC_ASSERT((wx * wy).to_rational() == x * y);
  if (!(y == rational{})) RC_ASSERT((wx / wy).to_rational() == x / y);
  RC_ASSERT((wx < wy) == (x < y));
  RC_ASSERT((wx == wy) == (x == y));
}

}  // namespace netcc_tests::calculus_rational
