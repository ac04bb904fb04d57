// SPDX-License-Identifier: MIT
/// @file
/// @brief The integer-only forms the P4 programs use where the C++ function divides or uses
/// 64-bit time: each is a C++ model of the emitted P4 statement, so the emitter and the
/// tests share one definition, and each states where it equals the C++ function.
///
/// | form                          | replaces                          | equal to the C++ when          |
/// | ----------------------------- | --------------------------------- | ------------------------------ |
/// | netcc::p4::reciprocal         | `q / QUnit` (INT queue units)     | always, for a 32-bit queue     |
/// | netcc::p4::wrap_diff48        | 64-bit `now - last` (Bolt, DCQCN) | the true difference is within  |
/// |                               |                                   | (-2^47, 2^47) ns (39 hours)    |
/// | netcc::p4::token_bucket_gain  | 128-bit `credit + r dt` capped    | always (guarded 64-bit product)|
///
/// Sources: the INT layout is HPCC's (Li et al., SIGCOMM 2019, §3.2 and Figure 4, in
/// netcc/core/int_wire.hpp); the 48-bit time is the width of a PISA switch's nanosecond
/// timestamps; the reciprocal is Granlund and Montgomery's division by invariant integers
/// using multiplication (PLDI 1994, §4), which a switch without a divider needs.
///
/// @code
/// constexpr auto r = netcc::p4::make_reciprocal(80);   // HPCC's 80-byte queue unit
/// static_assert(r.exact && r.apply(8000) == 100 && r.apply(79) == 0);
/// static_assert(netcc::p4::wrap_diff48(5, (std::uint64_t{1} << 48) - 10) == 15);
/// @endcode
#pragma once

#include <cstdint>

#include "netcc/core/detail/int128.hpp"

namespace netcc::p4 {

/// @brief Division of a 32-bit unsigned value by a constant as P4 writes it: a right shift, a
/// 64-bit multiply and a right shift (Granlund and Montgomery, PLDI 1994, §4).
/// @code
/// auto r = netcc::p4::make_reciprocal(128);   // a power of two: pre_shift 7, multiplier 1
/// @endcode
struct reciprocal {
  /// @brief The divisor.
  std::uint64_t divisor = 1;
  /// @brief Shift applied first (the divisor's factor of two).
  unsigned pre_shift = 0;
  /// @brief 64-bit multiplier (1 for a power of two).
  std::uint64_t multiplier = 1;
  /// @brief Shift applied after the multiply.
  unsigned post_shift = 0;
  /// @brief True when apply(x) == x / divisor for every 32-bit x and the product never
  /// exceeds 64 bits (make_reciprocal proves both).
  bool exact = false;
  /// @brief ((x >> pre_shift) * multiplier) >> post_shift, modulo 2^64 as in P4.
  [[nodiscard]] constexpr std::uint64_t apply(std::uint32_t x) const noexcept {
    return ((std::uint64_t{x} >> pre_shift) * multiplier) >> post_shift;
  }
};

/// @brief The reciprocal of `d` (>= 1) for 32-bit dividends: d = 2^a o with o odd, then
/// m = ceil(2^(N+l) / o) with N = 32 - a and l = ceil(log2 o); exact when
/// m o - 2^(N+l) <= 2^l (Granlund and Montgomery, Theorem 4.2) and (2^N - 1) m < 2^64.
/// @code
/// static_assert(netcc::p4::make_reciprocal(80).multiplier == 429496730);
/// @endcode
[[nodiscard]] constexpr reciprocal make_reciprocal(std::uint64_t d) noexcept {
  reciprocal r;
  r.divisor = d == 0 ? 1 : d;
  std::uint64_t o = r.divisor;
  unsigned a = 0;
  while ((o & 1u) == 0) {
    o >>= 1;
    ++a;
  }
  if (a >= 32) {  // every 32-bit dividend gives 0
    r.pre_shift = 32;
    r.multiplier = 0;
    r.exact = true;
    return r;
  }
  r.pre_shift = a;
  if (o == 1) {
    r.exact = true;
    return r;
  }
  const unsigned n = 32 - a;
  unsigned l = 0;
  while ((std::uint64_t{1} << l) < o) ++l;
  if (n + l >= 63) return r;  // the multiplier would not fit: not exact
  const std::uint64_t pow = std::uint64_t{1} << (n + l);
  const std::uint64_t m = pow / o + (pow % o != 0 ? 1 : 0);
  r.multiplier = m;
  r.post_shift = n + l;
  const bool bound = m * o - pow <= (std::uint64_t{1} << l);
  const netcc::detail::u128 top = (netcc::detail::u128{1} << n) - 1;
  const bool fits = top * m < (netcc::detail::u128{1} << 64);
  r.exact = bound && fits;
  return r;
}

/// @brief `later - earlier` of two 48-bit timestamps, read as a signed number in
/// [-2^47, 2^47): what the P4 programs compute from their 48-bit time registers. Equal to the
/// 64-bit difference of the full timestamps whenever that lies in [-2^47, 2^47).
/// @code
/// static_assert(netcc::p4::wrap_diff48(10, 20) == -10);
/// @endcode
[[nodiscard]] constexpr std::int64_t wrap_diff48(std::uint64_t later,
                                                 std::uint64_t earlier) noexcept {
  constexpr std::uint64_t mask = (std::uint64_t{1} << 48) - 1;
  const std::uint64_t d = (later - earlier) & mask;
  return d >= (std::uint64_t{1} << 47) ? static_cast<std::int64_t>(d) - (std::int64_t{1} << 48)
                                       : static_cast<std::int64_t>(d);
}

/// @brief The token-bucket refill in 64-bit integers, as the P4 program computes it:
/// min(cap, credit + rate dt) where the product is taken only below `dt_full` =
/// ceil(cap / rate), the idle time that fills an empty bucket, so it never exceeds 64 bits.
/// Equal to the C++ function's 128-bit form for credit in [0, cap] and cap < 2^63.
/// @code
/// // 8 Gbps adds 8e9 units of 1/8e9 B per ns; a 1500 B bucket holds 1.2e13 units and
/// // fills in 1500 ns; 100 ns add 8e11 units (100 B).
/// auto c = netcc::p4::token_bucket_gain(0, 100, 8'000'000'000, 12'000'000'000'000, 1500);
/// @endcode
[[nodiscard]] constexpr std::uint64_t token_bucket_gain(std::uint64_t credit, std::uint64_t dt,
                                                        std::uint64_t rate, std::uint64_t cap,
                                                        std::uint64_t dt_full) noexcept {
  if (credit > cap) credit = cap;
  if (dt == 0 || rate == 0) return credit;
  if (dt >= dt_full) return cap;
  const std::uint64_t gain = rate * dt;  // < cap: dt < ceil(cap / rate)
  return gain >= cap - credit ? cap : credit + gain;
}

}  // namespace netcc::p4
