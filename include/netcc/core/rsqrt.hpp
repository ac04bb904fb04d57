// SPDX-License-Identifier: MIT
/// @file
/// @brief Integer reciprocal square root: a 10-bit table seed and two Newton steps in 64-bit
/// products, for fixed-point control laws that scale by 1/sqrt(x) on every event (Swift's
/// flow-scaled target, §3.5) without a square root or a division.
///
/// Method: x > 0 is normalised by an even shift to n in [2^62, 2^64) (value n 2^-64 in
/// [1/4, 1)); a table indexed by the top ten bits of n gives y0 ~ 1/sqrt(n 2^-64) at the middle
/// of its interval (relative error below 2^-10), and two Newton steps for 1/sqrt,
/// y' = y (3 - x y^2) / 2, square the error twice (each step maps a relative error e to at most
/// 1.5 e^2 + 2^-59 with the truncations of its three products). The result's relative error is
/// below 2^-36 (rsqrt_rel_error), checked against long double for every table interval's ends
/// and at random by tests/core/rsqrt_test.cpp.
///
/// Sources: the Newton-Raphson iteration for 1/sqrt(x), y' = y (3 - x y^2) / 2 (as in
/// Möller-Granlund 2011's reciprocal, a table seed refined by Newton steps); its user is Swift's
/// flow-scaling term alpha / sqrt(cwnd) (Kumar et al., SIGCOMM 2020, §3.5).
///
/// @code
/// // 1/sqrt(4) = 0.5, times 1000 in q32 (raw 1000 * 2^32), result raw in q32:
/// auto r = netcc::detail::mul_rsqrt(std::uint64_t{1000} << 32, std::uint64_t{4} << 32, 32);
/// // r == 500 * 2^32 (within the stated relative error)
/// @endcode
#pragma once

#include <bit>
#include <cstdint>

#include "netcc/core/detail/int128.hpp"

namespace netcc::detail {

/// @brief Bound on the relative error of rsqrt_q62() and mul_rsqrt() (before their final
/// rounding): 2^-36.
inline constexpr double rsqrt_rel_error = 0x1p-36;

// floor(sqrt(v)) of a 128-bit value, digit by digit (compile time only: the table below).
constexpr u128 isqrt_u128(u128 v) noexcept {
  u128 r = 0;
  u128 bit = u128{1} << 126;
  while (bit > v) bit >>= 2;
  while (bit != 0) {
    if (v >= r + bit) {
      v -= r + bit;
      r = (r >> 1) + bit;
    } else {
      r >>= 1;
    }
    bit >>= 2;
  }
  return r;
}

// Seeds 1/sqrt(m) for m = (i + 1/2) / 1024, i in [256, 1023] (the top ten bits of a normalised
// n), in Q2.30: sqrt(1024 / (i + 1/2)) 2^30 = sqrt(2^71 / (2i + 1)).
struct rsqrt_table {
  std::uint32_t v[768]{};
  constexpr rsqrt_table() noexcept {
    for (std::uint32_t i = 256; i < 1024; ++i)
      v[i - 256] = static_cast<std::uint32_t>(isqrt_u128((u128{1} << 71) / (2 * i + 1)));
  }
};
inline constexpr rsqrt_table rsqrt_seed{};

/// @brief 1/sqrt(n 2^-64) in Q2.62 (a value in (1, 2] times 2^62) for n in [2^62, 2^64),
/// relative error below rsqrt_rel_error.
[[nodiscard]] constexpr std::uint64_t rsqrt_q62(std::uint64_t n) noexcept {
  std::uint64_t y = std::uint64_t{rsqrt_seed.v[(n >> 54) - 256]} << 32;  // Q2.62
  for (int step = 0; step < 2; ++step) {
    // x y^2 in Q4.60: y^2 (Q.124) >> 64 is Q.60; times n 2^-64.
    const auto y2 = static_cast<std::uint64_t>((u128{y} * y) >> 64);
    const auto xy2 = static_cast<std::uint64_t>((u128{n} * y2) >> 64);
    const std::uint64_t h = (std::uint64_t{3} << 60) - xy2;  // 3 - x y^2 > 0, Q.60
    y = static_cast<std::uint64_t>((u128{y} * h) >> 61);     // y h / 2, Q.62
  }
  return y;
}

// x > 0 in raw fixed point with `frac_bits` fraction bits, normalised for a / sqrt(x): x = n
// 2^-shift with n in [2^62, 2^64) and shift + frac_bits even (shift = lz puts n in [2^63, 2^64),
// lz - 1, the parity, in [2^62, 2^63); -1 is x >> 1), so 1/sqrt(x 2^-F) = 1/sqrt(n 2^-64)
// 2^((shift + F - 64) / 2); and a / sqrt(x) in units of 2^-F is a y 2^-62 2^-(64 - shift - F) / 2
// for y = 1/sqrt(n 2^-64) in Q2.62: a right shift by sh = 62 + (64 - shift - F) / 2, in [31, 94]
// for F in [0, 63].
struct rsqrt_operand {
  std::uint64_t n;
  int sh;
};
// (Written for a short instruction path: the shift is lz less the parity bit of lz + frac_bits,
// never negative for an even frac_bits, so x >> 1 is reached only for odd ones; 64 - shift -
// frac_bits is even, so an arithmetic shift halves it exactly, also when negative.)
[[nodiscard]] constexpr rsqrt_operand rsqrt_normalise(std::uint64_t x, int frac_bits) noexcept {
  const int lz = std::countl_zero(x);
  const int shift = lz - ((lz ^ frac_bits) & 1);
  return {(frac_bits & 1) == 0 || shift >= 0 ? x << shift : x >> 1,
          62 + ((64 - shift - frac_bits) >> 1)};
}

/// @brief round(a / sqrt(x)) in raw fixed point: `a` and `x` raw values with `frac_bits`
/// fraction bits (a >= 0, x > 0), the result raw with the same fraction bits, saturating at
/// 2^63 - 1. Relative error below rsqrt_rel_error plus the final rounding (half a unit).
[[nodiscard]] constexpr std::uint64_t mul_rsqrt(std::uint64_t a, std::uint64_t x,
                                                int frac_bits) noexcept {
  if (x == 0) return a != 0 ? ~std::uint64_t{0} >> 1 : 0;  // a = 0 below gives 0 too
  const rsqrt_operand o = rsqrt_normalise(x, frac_bits);
  const std::uint64_t y = rsqrt_q62(o.n);
  const u128 q = (u128{a} * y + (u128{1} << (o.sh - 1))) >> o.sh;  // a y < 2^127
  constexpr std::uint64_t cap = ~std::uint64_t{0} >> 1;
  return q > cap ? cap : static_cast<std::uint64_t>(q);
}

/// @brief floor(a / sqrt(x)) estimated from the table seed alone (mul_rsqrt without its two
/// Newton steps), in raw fixed point with `frac_bits` fraction bits (a >= 0, x > 0; saturating
/// at 2^63 - 1). The seed's relative error is below 2^-10, mul_rsqrt's below 2^-36 plus half a
/// unit, so the two differ by less than est 2^-9 + 3 units (est the estimate): a bound for
/// deciding a comparison before the exact value's latency (Swift's q32 target; checked across
/// the seed's intervals and at random by tests/control/swift_test.cpp).
[[nodiscard]] constexpr std::uint64_t mul_rsqrt_estimate(std::uint64_t a, std::uint64_t x,
                                                         int frac_bits) noexcept {
  if (x == 0) return a != 0 ? ~std::uint64_t{0} >> 1 : 0;  // a = 0 below gives 0 too
  const rsqrt_operand o = rsqrt_normalise(x, frac_bits);
  const std::uint64_t y0 = std::uint64_t{rsqrt_seed.v[(o.n >> 54) - 256]} << 32;  // Q2.62
  const u128 q = (u128{a} * y0) >> o.sh;                                          // a y0 < 2^126
  constexpr std::uint64_t cap = ~std::uint64_t{0} >> 1;
  return q > cap ? cap : static_cast<std::uint64_t>(q);
}

// Seeds 1/m for m = (i + 1/2) / 1024, i in [512, 1023] (the top ten bits of a normalised n),
// in Q2.30: 2^40 / (i + 1/2) = 2^41 / (2i + 1), rounded down.
struct recip_table {
  std::uint32_t v[512]{};
  constexpr recip_table() noexcept {
    for (std::uint32_t i = 512; i < 1024; ++i)
      v[i - 512] = static_cast<std::uint32_t>((std::uint64_t{1} << 41) / (2 * i + 1));
  }
};
inline constexpr recip_table recip_seed{};

/// @brief Bound on the relative error of recip_q62() and mul_recip() (before their final
/// rounding): 2^-36.
inline constexpr double recip_rel_error = 0x1p-36;

/// @brief 1/(n 2^-64) in Q2.62 (a value in (1, 2] times 2^62) for n in [2^63, 2^64): a 10-bit
/// table seed (relative error below 2^-10) and two Newton steps r' = r (2 - u r), each squaring
/// the error (plus 2^-61 of truncation): relative error below recip_rel_error.
[[nodiscard]] constexpr std::uint64_t recip_q62(std::uint64_t n) noexcept {
  std::uint64_t r = std::uint64_t{recip_seed.v[(n >> 54) - 512]} << 32;  // Q2.62
  for (int step = 0; step < 2; ++step) {
    const auto ur = static_cast<std::uint64_t>((u128{n} * r) >> 64);  // u r, Q.62, about 2^62
    const std::uint64_t h = (std::uint64_t{1} << 63) - ur;            // 2 - u r, Q.62
    r = static_cast<std::uint64_t>((u128{r} * h) >> 62);
  }
  return r;
}

/// @brief round(a / x) in raw fixed point: `a` and `x` raw values with `frac_bits` fraction
/// bits (a >= 0, x > 0), the result raw with the same fraction bits, saturating at 2^63 - 1,
/// through recip_q62 (no division). Relative error below recip_rel_error plus the final
/// rounding (half a unit).
/// @code
/// // 1 / 8 in q32: 2^32 / (8 2^32) -> 2^29 (within the stated error)
/// auto r = netcc::detail::mul_recip(std::uint64_t{1} << 32, std::uint64_t{8} << 32, 32);
/// @endcode
[[nodiscard]] constexpr std::uint64_t mul_recip(std::uint64_t a, std::uint64_t x,
                                                int frac_bits) noexcept {
  constexpr std::uint64_t cap = ~std::uint64_t{0} >> 1;
  if (x == 0 || a == 0) return x == 0 && a != 0 ? cap : 0;
  // x = n 2^-lz, n = u 2^64: a / x = a r 2^-62 2^(lz - 64); in units of 2^-F a shift right
  // by 126 - F - lz (positive for F <= 63).
  const int lz = std::countl_zero(x);
  const std::uint64_t r = recip_q62(x << lz);
  const int sh = 126 - frac_bits - lz;
  const u128 p = u128{a} * r;  // < 2^127
  if (sh <= 0) return cap;
  const u128 q = sh >= 127 ? 0 : (p + (u128{1} << (sh - 1))) >> sh;
  return q > cap ? cap : static_cast<std::uint64_t>(q);
}

/// @brief mul_recip(a, x, frac_bits) for a < x (a ratio below 1, as TIMELY's 1 - T_high /
/// new_rtt), the same value bit for bit, for frac_bits in [0, 62]: with x = u 2^-lz and a < x,
/// a 2^lz fits 64 bits, so a r 2^(lz - 62 - 64 + F) is the product (a 2^lz) r shifted right by
/// the constant 126 - F (the same rational, numerator and denominator times 2^lz), without
/// mul_recip's shift by a variable count and its saturation, which a quotient of at most 2^F
/// cannot reach. Other inputs: mul_recip.
/// @code
/// // 3 / 4 in q32 (within recip_rel_error of 0.75 2^32)
/// auto r = netcc::detail::mul_recip_below(3, 4, 32);
/// @endcode
[[nodiscard]] constexpr std::uint64_t mul_recip_below(std::uint64_t a, std::uint64_t x,
                                                      int frac_bits) noexcept {
  if (a == 0 || a >= x || frac_bits < 0 || frac_bits > 62) return mul_recip(a, x, frac_bits);
  const int lz = std::countl_zero(x);
  const std::uint64_t r = recip_q62(x << lz);
  const u128 p = u128{a << lz} * r;  // a 2^lz < x 2^lz < 2^64
  const int sh = 126 - frac_bits;    // in [64, 126]
  return static_cast<std::uint64_t>((p + (u128{1} << (sh - 1))) >> sh);
}

}  // namespace netcc::detail
