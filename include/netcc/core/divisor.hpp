// SPDX-License-Identifier: MIT
/// @file
/// @brief Division by an invariant 64-bit divisor through a precomputed reciprocal: the exact
/// quotient of a 128-bit dividend with two multiplications and no division instruction.
///
/// Sources: Niels Möller and Torbjörn Granlund, "Improved division by invariant integers", IEEE
/// Transactions on Computers 60(2), 2011, Algorithm 4 (2/1 division with the reciprocal
/// v = floor((2^128 - 1) / d) - 2^64 of a normalised d) and §3 (the reciprocal). The divisor
/// and the dividend are shifted left together so the divisor's top bit is set; the result is
/// the exact floor quotient and remainder, identical to a hardware or library division, for
/// every dividend whose quotient fits 64 bits (dividend < divisor * 2^64). Fixed-point
/// controllers use it for divisions by a configuration value (a minimum RTT, a link's
/// B * T) that a switch or NIC pipeline would hold as a reciprocal.
///
/// @code
/// constexpr netcc::detail::invariant_divisor d{1000};
/// auto q = d.div_nearest(netcc::detail::u128{1'234'567} << 32);  // round(1234567 * 2^32 / 1000)
/// @endcode
#pragma once

#include <bit>
#include <cstdint>

#include "netcc/core/detail/int128.hpp"

namespace netcc::detail {

// Table of Möller-Granlund Algorithm 3, line 5: floor((2^19 - 3 2^8) / d9) for the top nine
// bits d9 in [256, 511] of a normalised divisor (11-bit values).
struct reciprocal_table {
  std::uint16_t v[256]{};
  constexpr reciprocal_table() noexcept {
    for (std::uint32_t i = 0; i < 256; ++i) v[i] = static_cast<std::uint16_t>(0x7fd00u / (256 + i));
  }
};
inline constexpr reciprocal_table reciprocal_seed{};

/// @brief floor((2^128 - 1) / d) - 2^64 for a normalised d (2^63 <= d < 2^64), without a
/// division: Möller and Granlund, "Improved division by invariant integers", Algorithm 3
/// (RECIPROCAL_WORD): an 11-bit table seed and three Newton-like steps in 64-bit products, the
/// last one exact. tests/core/divisor_test.cpp checks it against the 128-bit quotient.
[[nodiscard]] constexpr std::uint64_t reciprocal_word(std::uint64_t d) noexcept {
  const std::uint64_t d0 = d & 1;
  const std::uint64_t d9 = d >> 55;                                   // 9 bits, in [256, 511]
  const std::uint64_t d40 = (d >> 24) + 1;                            // 40 bits (+1)
  const std::uint64_t d63 = (d >> 1) + d0;                            // ceil(d / 2)
  const std::uint64_t v0 = reciprocal_seed.v[d9 - 256];               // line 5
  const std::uint64_t v1 = (v0 << 11) - ((v0 * v0 * d40) >> 40) - 1;  // line 6
  const std::uint64_t v2 = (v1 << 13) + ((v1 * ((std::uint64_t{1} << 60) - v1 * d40)) >> 47);
  const std::uint64_t e = ((v2 >> 1) & (0 - d0)) - v2 * d63;  // line 8, mod 2^64
  const std::uint64_t v3 = (v2 << 31) + static_cast<std::uint64_t>((u128{v2} * e) >> 65);  // line 9
  const u128 p = u128{v3} * d + d;  // line 10
  return v3 - (static_cast<std::uint64_t>(p >> 64) + d);
}

/// @brief A 64-bit divisor d >= 1 with its normalising shift and Möller-Granlund reciprocal.
class invariant_divisor {
 public:
  /// @brief Divisor 1 (the default).
  constexpr invariant_divisor() noexcept : invariant_divisor(1) {}
  /// @brief Divisor `d`; 0 is taken as 1 (callers divide by a positive configuration value).
  constexpr explicit invariant_divisor(std::uint64_t d) noexcept {
    if (d == 0) d = 1;
    d_ = d;
    shift_ = std::countl_zero(d);
    norm_ = d << shift_;
    // v = floor((2^128 - 1) / norm) - 2^64 (§3), by Algorithm 3 (reciprocal_word): no
    // division instruction, so a divisor that changes per event (a window, an RTT) is cheap.
    v_ = reciprocal_word(norm_);
  }

  /// @brief The divisor.
  [[nodiscard]] constexpr std::uint64_t divisor() const noexcept { return d_; }

  /// @brief True when n / d fits 64 bits (n < d * 2^64): the precondition of div_floor().
  [[nodiscard]] constexpr bool fits(u128 n) const noexcept {
    return static_cast<std::uint64_t>(n >> 64) < d_;
  }

  /// @brief floor(n / d), exact; requires fits(n). A dividend below 2^64 takes div_floor64.
  [[nodiscard]] constexpr std::uint64_t div_floor(u128 n) const noexcept {
    if ((n >> 64) == 0) return div_floor64(static_cast<std::uint64_t>(n));
    std::uint64_t r = 0;
    return divrem(n, r);
  }

  /// @brief floor(n / d) for a 64-bit dividend, exact for every n: one 64 x 64 -> 128-bit
  /// product, a subtraction, an addition and two shifts. The same reciprocal serves both
  /// algorithms: for a d that is not a power of two, Granlund and Montgomery's multiplier for
  /// 64-bit dividends (PLDI 1994, Figure 4.1: l = ceil(log2 d) = 64 - shift,
  /// m' = floor(2^64 (2^l - d) / d) + 1 = floor(2^(64 + l) / d) - 2^64 + 1) equals v + 1, since
  /// 2^(64 + l) / d = 2^128 / (d 2^shift) and the normalised d does not divide 2^128. A power of
  /// two is a shift.
  [[nodiscard]] constexpr std::uint64_t div_floor64(std::uint64_t n) const noexcept {
    const int sh = 63 - shift_;  // l - 1 (log2 d for a power of two)
    if (norm_ == (std::uint64_t{1} << 63)) return n >> sh;
    const auto t = static_cast<std::uint64_t>((u128{v_ + 1} * n) >> 64);
    return (t + ((n - t) >> 1)) >> sh;
  }

  /// @brief n / d rounded to nearest, ties up (away from zero), exact; requires
  /// fits(n + d / 2).
  [[nodiscard]] constexpr std::uint64_t div_nearest(u128 n) const noexcept {
    return div_floor(n + d_ / 2);
  }

 private:
  // Algorithm 4 on the normalised dividend (u1, u0) = n << shift, u1 < norm.
  [[nodiscard]] constexpr std::uint64_t divrem(u128 n, std::uint64_t& rem) const noexcept {
    std::uint64_t u1 = static_cast<std::uint64_t>(n >> 64);
    std::uint64_t u0 = static_cast<std::uint64_t>(n);
    if (shift_ != 0) {
      u1 = (u1 << shift_) | (u0 >> (64 - shift_));
      u0 <<= shift_;
    }
    const u128 p = u128{v_} * u1 + ((u128{u1} << 64) | u0) + (u128{1} << 64);
    std::uint64_t q1 = static_cast<std::uint64_t>(p >> 64);
    const std::uint64_t q0 = static_cast<std::uint64_t>(p);
    std::uint64_t r = u0 - q1 * norm_;  // modulo 2^64
    // The first adjustment is taken about half the time: without a branch (a mispredicted one
    // costs more than the masks).
    const std::uint64_t m = 0 - static_cast<std::uint64_t>(r > q0);
    q1 += m;  // q1 - 1 when r > q0
    r += norm_ & m;
    if (r >= norm_) {
      ++q1;
      r -= norm_;
    }
    rem = r >> shift_;
    return q1;
  }

  std::uint64_t d_ = 1;
  std::uint64_t norm_ = 0;
  std::uint64_t v_ = 0;
  int shift_ = 0;
};

}  // namespace netcc::detail
