// SPDX-License-Identifier: MIT
// Internal: 128-bit intermediates for overflow-free products and quotients of 64-bit values.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

namespace netcc::detail {

// `__extension__` keeps -Wpedantic quiet: the type is a GCC/Clang extension, used only as a
// wide intermediate; no 128-bit value crosses a public interface.
__extension__ using i128 = __int128;
__extension__ using u128 = unsigned __int128;

// Clamp a 128-bit intermediate to the int64 range (saturation, never wrap).
constexpr std::int64_t saturate_i64(i128 v) noexcept {
  constexpr i128 hi = std::numeric_limits<std::int64_t>::max();
  constexpr i128 lo = std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(v > hi ? hi : (v < lo ? lo : v));
}

// floor((hi 2^64 + lo) / d) for d > 0 and hi < d (the quotient fits 64 bits): one hardware
// 128/64-bit division on x86-64 with GCC or Clang (the library's 128-bit division normalises
// both operands and calls out first); the library division in constant evaluation and on other
// targets. The dividend as its two 64-bit halves: built as one 128-bit expression (a shift and a
// sum), g++ passed it to the division through the stack, a store and a reload on the quotient's
// dependency chain; the halves go to the division in two registers (see shl_add_halves).
[[nodiscard]] constexpr std::uint64_t udiv_128_64(std::uint64_t hi, std::uint64_t lo,
                                                  std::uint64_t d) noexcept {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (!std::is_constant_evaluated()) {
    std::uint64_t q = 0, r = 0;
    __asm__("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "rm"(d) : "cc");
    return q;
  }
#endif
  return static_cast<std::uint64_t>(((u128{hi} << 64) | lo) / d);
}

// floor(n / d) for d > 0 and n < d * 2^64: udiv_128_64 on n's two halves.
[[nodiscard]] constexpr std::uint64_t udiv_128_64(u128 n, std::uint64_t d) noexcept {
  return udiv_128_64(static_cast<std::uint64_t>(n >> 64), static_cast<std::uint64_t>(n), d);
}

// floor(n / d) for unsigned n and d > 0, through udiv_128_64 whenever the quotient fits 64 bits.
// For the divisions on a controller's per-event path; the general quotients below keep the
// library division (inlined into every caller, the hardware path's fixed registers cost more
// than a rare division saves).
[[nodiscard]] constexpr u128 udiv(u128 n, u128 d) noexcept {
  if ((d >> 64) == 0 && static_cast<std::uint64_t>(n >> 64) < static_cast<std::uint64_t>(d))
    return udiv_128_64(n, static_cast<std::uint64_t>(d));
  return n / d;
}

// Quotient rounded away from zero; d must be non-zero.
constexpr i128 div_away_from_zero(i128 n, i128 d) noexcept {
  i128 q = n / d;
  if (q * d != n) q += ((n < 0) == (d < 0)) ? 1 : -1;
  return q;
}

// Quotient rounded toward negative infinity; d must be non-zero.
constexpr i128 div_floor(i128 n, i128 d) noexcept {
  const i128 q = n / d;
  return (q * d != n && ((n < 0) != (d < 0))) ? q - 1 : q;
}

// Quotient rounded toward positive infinity; d must be non-zero.
constexpr i128 div_ceil(i128 n, i128 d) noexcept {
  const i128 q = n / d;
  return (q * d != n && ((n < 0) == (d < 0))) ? q + 1 : q;
}

// Quotient rounded to nearest, ties away from zero; d must be non-zero.
constexpr i128 div_nearest(i128 n, i128 d) noexcept {
  const bool neg = (n < 0) != (d < 0);
  const i128 an = n < 0 ? -n : n;
  const i128 ad = d < 0 ? -d : d;
  const i128 q = (an + ad / 2) / ad;
  return neg ? -q : q;
}

}  // namespace netcc::detail
