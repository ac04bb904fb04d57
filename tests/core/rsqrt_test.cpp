// SPDX-License-Identifier: MIT
// netcc/core/rsqrt.hpp: the integer reciprocal square root and reciprocal (table seed, two
// Newton steps) stay within their stated relative errors, rsqrt_rel_error and recip_rel_error
// (2^-36), of the exact values (long double) for every input: both ends of every table
// interval, the ends of the range, and at random.
#include <netcc/core/rsqrt.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>

namespace netcc_tests::core_rsqrt {

namespace {

using netcc::detail::mul_rsqrt;
using netcc::detail::rsqrt_q62;

// Relative error of rsqrt_q62(n) against 1/sqrt(n 2^-64).
long double rsqrt_error(std::uint64_t n) {
  const long double u = std::ldexp(static_cast<long double>(n), -64);
  const long double exact = 1.0L / std::sqrt(u);
  const long double got = std::ldexp(static_cast<long double>(rsqrt_q62(n)), -62);
  return std::fabs(got - exact) / exact;
}

TEST(Rsqrt, WithinTheBoundAtEveryTableInterval) {
  for (std::uint64_t i = 256; i < 1024; ++i) {
    const std::uint64_t lo = i << 54;
    for (const std::uint64_t n :
         {lo, lo + 1, lo + (std::uint64_t{1} << 53), lo | ((std::uint64_t{1} << 54) - 1)})
      ASSERT_LE(rsqrt_error(n), netcc::detail::rsqrt_rel_error) << n;
  }
  EXPECT_LE(rsqrt_error(~std::uint64_t{0}), netcc::detail::rsqrt_rel_error);
}

// |mul_rsqrt(a, x, f) - a / sqrt(x 2^-f)| within half a unit plus the stated relative error.
void expect_within(std::uint64_t a, std::uint64_t x, int f, long double exact) {
  const long double got = static_cast<long double>(mul_rsqrt(a, x, f));
  EXPECT_LE(std::fabs(got - exact), 0.5L + exact * netcc::detail::rsqrt_rel_error)
      << a << " " << x << " " << f;
}

TEST(Rsqrt, HandComputedProducts) {
  // 1000 / sqrt(4) = 500 and 3 / sqrt(0.25) = 6 in q32 raw units; 16 / sqrt(64) = 2 with 31
  // fraction bits (odd: the normalisation takes the other parity).
  expect_within(std::uint64_t{1000} << 32, std::uint64_t{4} << 32, 32, 500.0L * 0x1p32L);
  expect_within(std::uint64_t{3} << 32, std::uint64_t{1} << 30, 32, 6.0L * 0x1p32L);
  expect_within(std::uint64_t{16} << 31, std::uint64_t{64} << 31, 31, 2.0L * 0x1p31L);
  expect_within(std::uint64_t{1} << 40, ~std::uint64_t{0} >> 1, 0,
                0x1p40L / std::sqrt(0x1p63L - 1));
  EXPECT_EQ(mul_rsqrt(0, 5, 32), 0u);
  EXPECT_EQ(mul_rsqrt(1, 0, 32), ~std::uint64_t{0} >> 1);  // a / 0 saturates
}

RC_GTEST_PROP(RsqrtProp, Q62WithinItsRelativeError, ()) {
  const std::uint64_t n = *rc::gen::arbitrary<std::uint64_t>() | (std::uint64_t{1} << 62);
  RC_ASSERT(rsqrt_error(n) <= netcc::detail::rsqrt_rel_error);
}

RC_GTEST_PROP(RsqrtProp, MulRsqrtWithinItsBoundForAnyWidth, ()) {
  // Any x of 1 to 63 bits, any a, fraction bits 0 to 40: |result - a / sqrt(x)| <= 1/2 unit
  // (the rounding) + rsqrt_rel_error of the exact value (results beyond 2^63 saturate).
  const int xbits = *rc::gen::inRange(1, 64);
  const int abits = *rc::gen::inRange(0, 64);
  const int f = *rc::gen::inRange(0, 41);
  const std::uint64_t x = (*rc::gen::arbitrary<std::uint64_t>() >> (64 - xbits)) | 1;
  const std::uint64_t a = abits == 0 ? 0 : *rc::gen::arbitrary<std::uint64_t>() >> (64 - abits);
  const long double exact =
      static_cast<long double>(a) / std::sqrt(std::ldexp(static_cast<long double>(x), -f));
  const long double got = static_cast<long double>(mul_rsqrt(a, x, f));
  if (exact >= 0x1p63L) {
    RC_ASSERT(got >= 0x1p63L - 1 - 0x1p63L * netcc::detail::rsqrt_rel_error);
    return;
  }
  RC_ASSERT(std::fabs(got - exact) <= 0.5L + exact * netcc::detail::rsqrt_rel_error);
}

// The normalisation and the two products as first written (the parity by a branch, the
// exponent by a signed division, a zero a tested apart): rsqrt.hpp's shorter forms must give the
// same values bit for bit.
std::uint64_t reference_mul_rsqrt(std::uint64_t a, std::uint64_t x, int f, bool estimate) {
  using netcc::detail::u128;
  if (x == 0 || a == 0) return x == 0 && a != 0 ? ~std::uint64_t{0} >> 1 : 0;
  const int lz = std::countl_zero(x);
  const int shift = ((lz + f) & 1) == 0 ? lz : lz - 1;
  const std::uint64_t n = shift >= 0 ? x << shift : x >> 1;
  const int sh = 62 + (64 - shift - f) / 2;
  const std::uint64_t y =
      estimate ? std::uint64_t{netcc::detail::rsqrt_seed.v[(n >> 54) - 256]} << 32 : rsqrt_q62(n);
  const u128 q = estimate ? (u128{a} * y) >> sh : (u128{a} * y + (u128{1} << (sh - 1))) >> sh;
  return q > (~std::uint64_t{0} >> 1) ? ~std::uint64_t{0} >> 1 : static_cast<std::uint64_t>(q);
}

RC_GTEST_PROP(RsqrtProp, ShortFormsAreTheReferenceBitForBit, ()) {
  // Any x of 0 to 64 bits, any a, any fraction bits 0 to 63, both parities and lz = 0.
  const int xbits = *rc::gen::inRange(0, 65);
  const int abits = *rc::gen::inRange(0, 65);
  const int f = *rc::gen::inRange(0, 64);
  const std::uint64_t x = xbits == 0 ? 0 : *rc::gen::arbitrary<std::uint64_t>() >> (64 - xbits);
  const std::uint64_t a = abits == 0 ? 0 : *rc::gen::arbitrary<std::uint64_t>() >> (64 - abits);
  RC_ASSERT(mul_rsqrt(a, x, f) == reference_mul_rsqrt(a, x, f, false));
  RC_ASSERT(netcc::detail::mul_rsqrt_estimate(a, x, f) == reference_mul_rsqrt(a, x, f, true));
}

// Relative error of recip_q62(n) against 1/(n 2^-64).
long double recip_error(std::uint64_t n) {
  const long double exact = 1.0L / std::ldexp(static_cast<long double>(n), -64);
  const long double got = std::ldexp(static_cast<long double>(netcc::detail::recip_q62(n)), -62);
  return std::fabs(got - exact) / exact;
}

TEST(Recip, WithinTheBoundAtEveryTableInterval) {
  for (std::uint64_t i = 512; i < 1024; ++i) {
    const std::uint64_t lo = i << 54;
    for (const std::uint64_t n :
         {lo, lo + 1, lo + (std::uint64_t{1} << 53), lo | ((std::uint64_t{1} << 54) - 1)})
      ASSERT_LE(recip_error(n), netcc::detail::recip_rel_error) << n;
  }
  EXPECT_LE(recip_error(~std::uint64_t{0}), netcc::detail::recip_rel_error);
}

TEST(Recip, HandComputedQuotients) {
  using netcc::detail::mul_recip;
  const auto within = [](std::uint64_t a, std::uint64_t x, int f, long double exact) {
    const long double got = static_cast<long double>(mul_recip(a, x, f));
    EXPECT_LE(std::fabs(got - exact), 0.5L + exact * netcc::detail::recip_rel_error)
        << a << " " << x;
  };
  within(std::uint64_t{1} << 32, std::uint64_t{8} << 32, 32, 0x1p29L);          // 1 / 8
  within(std::uint64_t{3} << 32, std::uint64_t{10} << 32, 32, 0.3L * 0x1p32L);  // 3 / 10
  within(450'000, 600'000, 32, 0.75L * 0x1p32L);  // a ratio of integers (TIMELY's T_high cut)
  EXPECT_EQ(mul_recip(0, 5, 32), 0u);
  EXPECT_EQ(mul_recip(1, 0, 32), ~std::uint64_t{0} >> 1);
}

RC_GTEST_PROP(RecipProp, MulRecipWithinItsBoundForAnyWidth, ()) {
  const int xbits = *rc::gen::inRange(1, 65);
  const int abits = *rc::gen::inRange(0, 64);
  const int f = *rc::gen::inRange(0, 41);
  const std::uint64_t x = (*rc::gen::arbitrary<std::uint64_t>() >> (64 - xbits)) | 1;
  const std::uint64_t a = abits == 0 ? 0 : *rc::gen::arbitrary<std::uint64_t>() >> (64 - abits);
  const long double exact =
      std::ldexp(static_cast<long double>(a) / static_cast<long double>(x), f);
  const long double got = static_cast<long double>(netcc::detail::mul_recip(a, x, f));
  if (exact >= 0x1p63L) {
    RC_ASSERT(got >= 0x1p63L - 1 - 0x1p63L * netcc::detail::recip_rel_error);
    return;
  }
  RC_ASSERT(std::fabs(got - exact) <= 0.5L + exact * netcc::detail::recip_rel_error);
}

// mul_recip_below is mul_recip bit for bit: for a < x (its constant-shift path) with x of any
// width and F in [0, 62], and for every other input (where it is mul_recip itself).
RC_GTEST_PROP(RecipProp, MulRecipBelowIsMulRecip, ()) {
  const int xbits = *rc::gen::inRange(1, 65);
  const std::uint64_t x = (*rc::gen::arbitrary<std::uint64_t>() >> (64 - xbits)) | 1;
  const std::uint64_t a = *rc::gen::element<std::uint64_t>(
      *rc::gen::inRange<std::uint64_t>(0, x), x - 1, x, *rc::gen::arbitrary<std::uint64_t>(), 0);
  const int f = *rc::gen::inRange(-1, 65);
  RC_ASSERT(netcc::detail::mul_recip_below(a, x, f) == netcc::detail::mul_recip(a, x, f));
}

TEST(Recip, MulRecipBelowHandComputed) {
  using netcc::detail::mul_recip_below;
  // TIMELY's line 9 at new_rtt = 600 us, T_high = 500 us: 1 - 500/600 = 1/6 of 2^32.
  const long double exact = 0x1p32L / 6;
  EXPECT_LE(std::fabs(static_cast<long double>(mul_recip_below(100'000, 600'000, 32)) - exact),
            0.5L + exact * netcc::detail::recip_rel_error);
  EXPECT_EQ(mul_recip_below(0, 600'000, 32), 0u);
  EXPECT_EQ(mul_recip_below(1, ~std::uint64_t{0}, 62),
            netcc::detail::mul_recip(1, ~std::uint64_t{0}, 62));
}

}  // namespace

}  // namespace netcc_tests::core_rsqrt
