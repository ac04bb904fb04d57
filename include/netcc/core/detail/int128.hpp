// SPDX-License-Identifier: MIT
// Internal: 128-bit intermediates for overflow-free products and quotients of 64-bit values.
#pragma once

#include <cstdint>
#include <limits>

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
