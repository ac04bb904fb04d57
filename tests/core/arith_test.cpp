// SPDX-License-Identifier: MIT
#include <netcc/core/arith.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

namespace netcc_tests::core_arith {

namespace {
using q32 = netcc::fixed_point<31, 32>;
using q16 = netcc::fixed_point<15, 16>;
constexpr double q32_ulp = 1.0 / 4294967296.0;  // 2^-32
constexpr double q16_ulp = 1.0 / 65536.0;       // 2^-16
}  // namespace

TEST(FixedPoint, ConstructionRoundsToNearest) {
  EXPECT_EQ(q16{0.5}.raw(), 32768);
  EXPECT_EQ(q16{1.0 / 131072}.raw(), 1);  // exactly half an ulp: ties away from zero
  EXPECT_EQ(q16{-1.0 / 131072}.raw(), -1);
  EXPECT_EQ(q16{1.0 / 262144}.raw(), 0);  // a quarter ulp rounds down
  EXPECT_EQ(q16{3}.raw(), 3 * 65536);
  EXPECT_EQ(q16{std::nan("")}.raw(), 0);
}

TEST(FixedPoint, SaturatesInsteadOfWrapping) {
  EXPECT_EQ(q16{1e9}, q16::max());
  EXPECT_EQ(q16{-1e9}, q16::lowest());
  EXPECT_EQ(q16::max() + q16{1}, q16::max());
  EXPECT_EQ(q16::lowest() - q16{1}, q16::lowest());
  EXPECT_EQ(q16{30000} * q16{30000}, q16::max());
  EXPECT_EQ(q16{-30000} * q16{30000}, q16::lowest());
  EXPECT_EQ(-q16::lowest(), q16::max());  // symmetric range: negation is exact
  EXPECT_EQ(q16{std::numeric_limits<double>::infinity()}, q16::max());
}

TEST(FixedPoint, DivisionByZeroIsTotal) {
  EXPECT_EQ(q16{5} / q16{0}, q16::max());
  EXPECT_EQ(q16{-5} / q16{0}, q16::lowest());
  EXPECT_EQ(q16{0} / q16{0}, q16{0});
}

TEST(FixedPoint, HandComputedProductsAndQuotients) {
  // 0.9 * 100 in q32: 0.9 is 3865470566 / 2^32 (0.8999999999), times 100 rounds to 90.0 - 1.4e-8.
  const q32 g{0.9};
  EXPECT_NEAR((g * q32{100}).to_double(), 90.0, 100 * q32_ulp);
  EXPECT_EQ((q16{3} / q16{4}).to_double(), 0.75);
  EXPECT_EQ((q16{1} / q16{3}).raw(), 21845);  // 65536/3 = 21845.33 -> 21845
  EXPECT_EQ((q16{2} / q16{3}).raw(), 43691);  // 43690.67 -> 43691
  EXPECT_EQ(q16{7}.to_int(), 7);
  EXPECT_EQ(q16{-7.5}.to_int(), -7);
}

TEST(FixedPoint, RatioIsIntegerExact) {
  EXPECT_EQ(netcc::ratio<q16>(1, 3).raw(), 21845);
  EXPECT_EQ(netcc::ratio<q16>(5, 0), q16::max());
  EXPECT_EQ(netcc::ratio<q16>(-5, 0), q16::lowest());
  EXPECT_EQ(netcc::ratio<q16>(0, 0), q16{0});
  EXPECT_EQ(netcc::ratio<double>(1, 4), 0.25);
  EXPECT_EQ(netcc::ratio<double>(1, 0), std::numeric_limits<double>::max());
}

// Bounds convert toward the inside of the range they bound (issue 16: q32's nearest value to
// 0.001 is below it).
TEST(FixedPoint, BoundsRoundTowardTheInside) {
  EXPECT_LT(q32{0.001}.to_double(), 0.001);  // nearest: 0.00099999993
  EXPECT_GE(netcc::num_up<q32>(0.001).to_double(), 0.001);
  EXPECT_EQ(netcc::num_up<q32>(0.001).raw(), q32{0.001}.raw() + 1);
  EXPECT_LE(netcc::num_down<q32>(0.001).to_double(), 0.001);
  EXPECT_LE(netcc::num_down<q32>(10.05).to_double(), 10.05);
  EXPECT_GE(netcc::num_up<q32>(10.05).to_double(), 10.05);
  EXPECT_EQ(netcc::num_up<q32>(0.5), q32{0.5});  // exact values stay
  EXPECT_EQ(netcc::num_down<q32>(-0.5), q32{-0.5});
  EXPECT_LE(netcc::num_up<q32>(-0.001).to_double(), -0.0009999);
  EXPECT_GE(netcc::num_up<q32>(-0.001).to_double(), -0.001);
  EXPECT_LE(netcc::num_down<q32>(-0.001).to_double(), -0.001);
  EXPECT_EQ(netcc::num_up<q32>(1e300), q32::max());
  EXPECT_EQ(netcc::num_down<q32>(-1e300), q32::lowest());
  EXPECT_EQ(netcc::num_up<q32>(std::nan("")), q32{0});
  EXPECT_EQ(netcc::num_up<q32>(1e-300).raw(), 1);  // above zero: one ulp
  EXPECT_EQ(netcc::num_down<q32>(1e-300).raw(), 0);
  EXPECT_EQ(netcc::num_up<double>(0.001), 0.001);
  // 17 bps in Mbps: 73014.44 ulps; 1000001 bps: 4294971590.97 ulps.
  EXPECT_EQ(netcc::ratio<q32>(17, 1'000'000).raw(), 73014);
  EXPECT_EQ(netcc::ratio_up<q32>(17, 1'000'000).raw(), 73015);
  EXPECT_EQ(netcc::ratio_down<q32>(1'000'001, 1'000'000).raw(), 4294971590);
  EXPECT_EQ(netcc::ratio_up<q32>(-17, 1'000'000).raw(), -73014);
  EXPECT_EQ(netcc::ratio_down<q32>(-17, 1'000'000).raw(), -73015);
  EXPECT_EQ(netcc::ratio_up<q32>(1, 2), q32{0.5});
  EXPECT_EQ(netcc::ratio_up<q32>(5, 0), q32::max());
  EXPECT_EQ(netcc::ratio_down<double>(1, 4), 0.25);
}

RC_GTEST_PROP(FixedPoint, DirectedConversionBracketsTheValue, ()) {
  const double x =
      std::ldexp(static_cast<double>(*rc::gen::inRange<std::int64_t>(-(1LL << 52), 1LL << 52)),
                 -*rc::gen::inRange(32, 90));  // |x| <= 2^20: x * 2^32 and the raws exact
  const q32 up = netcc::num_up<q32>(x), down = netcc::num_down<q32>(x);
  // The raw values bracket x * 2^32 exactly (x * 2^32 is exact in double).
  const double s = std::ldexp(x, 32);
  RC_ASSERT(static_cast<double>(up.raw()) >= s);
  RC_ASSERT(static_cast<double>(down.raw()) <= s);
  RC_ASSERT(up.raw() - down.raw() <= 1);
}

TEST(NumberTraits, ClampMapsNanToLowerBound) {
  EXPECT_EQ(netcc::clamp_num(std::nan(""), 1.0, 2.0), 1.0);
  EXPECT_EQ(netcc::clamp_num(5.0, 1.0, 2.0), 2.0);
  EXPECT_EQ(netcc::clamp_num(q16{-3}, q16{0}, q16{1}), q16{0});
  EXPECT_FALSE(netcc::number_traits<double>::is_finite(std::numeric_limits<double>::infinity()));
  EXPECT_TRUE(netcc::number_traits<q16>::is_finite(q16::max()));
}

// Error bounds against double (stated in arith.hpp): conversion and each of * and / is within
// half an ulp of the exact result of the *represented* operands, while inside the range.
RC_GTEST_PROP(FixedPoint, ConversionWithinHalfUlp, ()) {
  const double x = *rc::gen::inRange<std::int64_t>(-1'000'000'000, 1'000'000'000) / 1000.0;
  RC_ASSERT(std::fabs(q32{x}.to_double() - x) <= q32_ulp / 2 + 1e-15 * std::fabs(x));
}

RC_GTEST_PROP(FixedPoint, AddSubExactInRange, ()) {
  const auto a = q32::from_raw(*rc::gen::inRange<std::int64_t>(-(1LL << 61), 1LL << 61));
  const auto b = q32::from_raw(*rc::gen::inRange<std::int64_t>(-(1LL << 61), 1LL << 61));
  RC_ASSERT((a + b).raw() == a.raw() + b.raw());
  RC_ASSERT((a - b).raw() == a.raw() - b.raw());
}

RC_GTEST_PROP(FixedPoint, MulDivWithinHalfUlpOfExact, ()) {
  // Operands in [-2^15, 2^15) so products stay in q32's range; exact reference in 128 bits.
  const auto a = q32::from_raw(*rc::gen::inRange<std::int64_t>(-(1LL << 47), 1LL << 47));
  const auto b = q32::from_raw(*rc::gen::inRange<std::int64_t>(-(1LL << 47), 1LL << 47));
  const netcc::detail::i128 exact_num = static_cast<netcc::detail::i128>(a.raw()) * b.raw();
  // |prod*2^32 - exact_num| <= 2^31 (half an ulp, in raw units squared-scaled)
  const netcc::detail::i128 err =
      static_cast<netcc::detail::i128>((a * b).raw()) * q32::raw_one - exact_num;
  RC_ASSERT(err <= q32::raw_one / 2 && err >= -(q32::raw_one / 2));
  if (b.raw() != 0) {
    const double qd = a.to_double() / b.to_double();
    if (std::fabs(qd) < 1e9) {
      // Relative to double's own rounding, the quotient is within half an ulp plus double's error.
      RC_ASSERT(std::fabs((a / b).to_double() - qd) <= q32_ulp / 2 + 1e-15 * std::fabs(qd) + 1e-12);
    }
  }
}

RC_GTEST_PROP(FixedPoint, ProductIsTheRoundedDivisionBitForBit,
              (std::int64_t ra, std::int64_t rb)) {
  // operator* rounds by a shift of the magnitude; it equals the 128-bit division by 2^F
  // rounded to nearest, ties away from zero, then saturated, for any raw operands (q32, q16).
  const auto ref = [](netcc::detail::i128 p, netcc::detail::i128 one, netcc::detail::i128 max) {
    const netcc::detail::i128 q = netcc::detail::div_nearest(p, one);
    return q > max ? max : (q < -max ? -max : q);
  };
  const auto a = q32::from_raw(ra), b = q32::from_raw(rb);
  RC_ASSERT(netcc::detail::i128{(a * b).raw()} ==
            ref(netcc::detail::i128{a.raw()} * b.raw(), q32::raw_one, q32::raw_max));
  const auto c = q16::from_raw(static_cast<std::int32_t>(ra)),
             d = q16::from_raw(static_cast<std::int32_t>(rb));
  RC_ASSERT(netcc::detail::i128{(c * d).raw()} ==
            ref(netcc::detail::i128{c.raw()} * d.raw(), q16::raw_one, q16::raw_max));
  // Small operands, where ties (an odd multiple of 2^(F-1)) are frequent.
  const auto e = q32::from_raw(ra % 4096), f = q32::from_raw(rb % (std::int64_t{1} << 33));
  RC_ASSERT(netcc::detail::i128{(e * f).raw()} ==
            ref(netcc::detail::i128{e.raw()} * f.raw(), q32::raw_one, q32::raw_max));
}

RC_GTEST_PROP(FixedPoint, OrderingMatchesDouble, ()) {
  const auto a = q16::from_raw(*rc::gen::arbitrary<std::int32_t>());
  const auto b = q16::from_raw(*rc::gen::arbitrary<std::int32_t>());
  RC_ASSERT((a < b) == (a.to_double() < b.to_double()));
  RC_ASSERT((a == b) == (a.to_double() == b.to_double()));
}

RC_GTEST_PROP(FixedPoint, OperationsNeverLeaveTheRange, (std::int64_t ra, std::int64_t rb)) {
  const auto a = q16::from_raw(ra), b = q16::from_raw(rb);
  for (const q16 r : {a + b, a - b, a * b, a / b, -a}) {
    RC_ASSERT(r <= q16::max());
    RC_ASSERT(r >= q16::lowest());
  }
}

RC_GTEST_PROP(FixedPoint, Q16EwmaTracksDoubleWithinStatedBound, ()) {
  // A 64-step EWMA (weight 1/8) in q16 stays within 64 * 1.5 ulp of the double trajectory:
  // each step makes at most one rounding in * (half an ulp) plus the weight's representation.
  const auto samples = *rc::gen::container<std::vector<std::int32_t>>(
      64, rc::gen::inRange<std::int32_t>(-10000, 10000));
  double d = 0;
  q16 f{0};
  const q16 w{0.125};
  for (const auto s : samples) {
    d += 0.125 * (s - d);
    f = f + w * (q16{s} - f);
  }
  RC_ASSERT(std::fabs(f.to_double() - d) <= 64 * 1.5 * q16_ulp);
}

namespace {

// Reference semantics of +, - and * in 128-bit arithmetic (the definitions in core/arith.hpp's
// file comment): exact sum or product, the product's magnitude rounded half up at 2^F, then
// clamped to +-raw_max.
template <class Q>
std::int64_t clamp_ref(netcc::detail::i128 v) {
  return static_cast<std::int64_t>(v > Q::raw_max ? Q::raw_max
                                                  : (v < -Q::raw_max ? -Q::raw_max : v));
}
template <class Q>
std::int64_t mul_ref(std::int64_t a, std::int64_t b) {
  const netcc::detail::i128 p = netcc::detail::i128{a} * b;
  const netcc::detail::i128 m = p < 0 ? -p : p;
  const netcc::detail::i128 q =
      (m + (netcc::detail::i128{1} << (Q::fraction_bits - 1))) >> Q::fraction_bits;
  return clamp_ref<Q>(p < 0 ? -q : q);
}

// A raw value of any magnitude in range: small, around 2^31-2^32 (the 64-bit product limit), or
// anywhere up to raw_max, either sign.
template <class Q>
std::int64_t gen_raw() {
  const int bits = *rc::gen::inRange(0, Q::integer_bits + Q::fraction_bits + 1);
  std::uint64_t u = bits == 0 ? 0 : *rc::gen::arbitrary<std::uint64_t>() >> (64 - bits);
  if (u > static_cast<std::uint64_t>(Q::raw_max)) u = static_cast<std::uint64_t>(Q::raw_max);
  const auto mag = static_cast<std::int64_t>(u);
  return *rc::gen::arbitrary<bool>() ? -mag : mag;
}

template <class Q>
void check_fast_paths() {
  const std::int64_t a = gen_raw<Q>(), b = gen_raw<Q>();
  const Q x = Q::from_raw(a), y = Q::from_raw(b);
  RC_ASSERT((x + y).raw() == clamp_ref<Q>(netcc::detail::i128{a} + b));
  RC_ASSERT((x - y).raw() == clamp_ref<Q>(netcc::detail::i128{a} - b));
  RC_ASSERT((x * y).raw() == mul_ref<Q>(a, b));
  if (a >= 0 && b > 0) RC_ASSERT(netcc::div_recip(x, y) == x / y);
  if (b > 0) RC_ASSERT(netcc::ratio_recip<Q>(a, b) == netcc::ratio<Q>(a, b));
}

}  // namespace

RC_GTEST_PROP(ArithProp, FastPathsEqualThe128BitDefinitions, ()) {
  // +, - and * take 64-bit paths when no overflow occurs; div_recip and ratio_recip divide through
  // a reciprocal built without a division: all bit for bit the 128-bit definitions.
  check_fast_paths<q32>();
  check_fast_paths<q16>();
  check_fast_paths<netcc::fixed_point<40, 20>>();
}

// detail::udiv_128_64 (the hardware's 128/64-bit division on x86-64) and detail::udiv (it where
// the quotient fits 64 bits) are the library's 128-bit division, bit for bit: at the edge where
// the quotient just fits 64 bits, and at random (dividends of every width, divisors of 1 to 128
// bits); detail::div_nearest against its definition.
TEST(Int128, HardwareDivisionEqualsTheLibraryDivision) {
  using netcc::detail::u128;
  const std::uint64_t max = ~std::uint64_t{0};
  for (const std::uint64_t d : {std::uint64_t{1}, std::uint64_t{3}, std::uint64_t{1} << 32, max}) {
    const u128 top = (u128{d - 1} << 64) | max;  // the largest dividend with a 64-bit quotient
    EXPECT_EQ(netcc::detail::udiv_128_64(top, d), static_cast<std::uint64_t>(top / d));
    EXPECT_EQ(netcc::detail::udiv(top + 1, u128{d}), (top + 1) / d);  // quotient 2^64: library
  }
  static_assert(netcc::detail::udiv_128_64(netcc::detail::u128{10} << 64, 11) ==
                static_cast<std::uint64_t>((netcc::detail::u128{10} << 64) / 11));
}

RC_GTEST_PROP(Int128, QuotientsEqualTheLibraryDivision, ()) {
  using netcc::detail::i128;
  using netcc::detail::u128;
  const auto wide = [](int bits) {
    const u128 v =
        (u128{*rc::gen::arbitrary<std::uint64_t>()} << 64) | *rc::gen::arbitrary<std::uint64_t>();
    return bits >= 128 ? v : v & ((u128{1} << bits) - 1);
  };
  const u128 n = wide(*rc::gen::inRange(0, 129));
  u128 d = wide(*rc::gen::inRange(1, 129));
  if (d == 0) d = 1;
  RC_ASSERT(netcc::detail::udiv(n, d) == n / d);
  if ((d >> 64) == 0 && (n >> 64) < d)
    RC_ASSERT(netcc::detail::udiv_128_64(n, static_cast<std::uint64_t>(d)) == n / d);
  // div_nearest on signed operands below 2^126 in magnitude: (|n| + |d| / 2) / |d|, signed.
  const i128 sn = static_cast<i128>(n >> 2) * (*rc::gen::element(1, -1));
  const i128 sd = static_cast<i128>(d >> 2 == 0 ? 1 : d >> 2) * (*rc::gen::element(1, -1));
  const u128 an = sn < 0 ? static_cast<u128>(-sn) : static_cast<u128>(sn);
  const u128 ad = sd < 0 ? static_cast<u128>(-sd) : static_cast<u128>(sd);
  const auto q = static_cast<i128>((an + ad / 2) / ad);
  RC_ASSERT(netcc::detail::div_nearest(sn, sd) == (((sn < 0) != (sd < 0)) ? -q : q));
}

// netcc::detail::divisor_u63 (TIMELY's §5 scale and line 4 in fixed point): floor and nearest
// quotients equal the hardware division for every divisor in [1, 2^63] and dividend below 2^63
// (the ends, powers of two and their neighbours included); a divisor above 2^63 is taken as
// 2^63, 0 as 1.
RC_GTEST_PROP(DivisorU63, IsExactBelow2To63, ()) {
  constexpr std::uint64_t top = std::uint64_t{1} << 63;
  const int bits = *rc::gen::inRange(1, 64);
  const std::uint64_t p2 = std::uint64_t{1} << *rc::gen::inRange(0, 64);
  const std::uint64_t d = *rc::gen::oneOf(
      rc::gen::inRange<std::uint64_t>(1, 5'000),
      rc::gen::map(rc::gen::arbitrary<std::uint64_t>(),
                   [bits](std::uint64_t x) { return (x >> (64 - bits)) | 1; }),
      rc::gen::element<std::uint64_t>(1, 2, 3, 1000, 20'000, top - 1, top, p2, p2 - 1, p2 + 1));
  if (d == 0 || d > top) return;
  const std::uint64_t n = *rc::gen::oneOf(
      rc::gen::inRange<std::uint64_t>(0, 1'000'000), rc::gen::inRange<std::uint64_t>(0, top),
      rc::gen::element<std::uint64_t>(0, d - 1, d, d + 1, top - 1, top - 1 - d / 2, top - d));
  if (n >= top) return;
  const netcc::detail::divisor_u63 v{d};
  RC_ASSERT(v.divisor() == d);
  RC_ASSERT(v.div_floor(n) == n / d);
  if (n < top - d / 2) RC_ASSERT(v.div_nearest(n) == (n + d / 2) / d);
}

TEST(DivisorU63, HandComputedQuotientsAndRange) {
  constexpr netcc::detail::divisor_u63 d{20'000};
  static_assert(d.div_floor(1'000'000) == 50 && d.div_nearest(30'000) == 2);
  constexpr netcc::detail::divisor_u63 one{1};
  EXPECT_EQ(one.div_floor((std::uint64_t{1} << 63) - 1), (std::uint64_t{1} << 63) - 1);
  EXPECT_EQ(netcc::detail::divisor_u63{0}.divisor(), 1u);
  EXPECT_EQ(netcc::detail::divisor_u63{~std::uint64_t{0}}.divisor(), std::uint64_t{1} << 63);
  EXPECT_EQ(netcc::detail::divisor_u63{}.divisor(), 0u);
}

}  // namespace netcc_tests::core_arith
