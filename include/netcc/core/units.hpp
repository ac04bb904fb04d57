// SPDX-License-Identifier: MIT
/// @file
/// @brief Strong unit types: bytes, bits, bit rates, and nanosecond time.
///
/// Every quantity that the congestion-control papers write with a unit (a window in bytes,
/// a link rate in Gbps, an RTT in microseconds) has a type here, and an expression that makes
/// no physical sense does not compile: `bytes + bits`, `bytes + bit_rate`, `bit_rate + duration`
/// are all rejected (see tests/compile_fail/). The mixed products and quotients the
/// algorithms need exist, each with a stated rounding rule:
///
/// | expression                 | result     | rounding                                      |
/// | -------------------------- | ---------- | --------------------------------------------- |
/// | `bit_rate * duration`      | `bytes`    | toward zero (bytes not yet fully sent are not counted) |
/// | `bytes / duration`         | `bit_rate` | toward zero                                   |
/// | `bytes / bit_rate`         | `duration` | up, away from zero (serialisation ends after the last bit) |
/// | `bits / duration`, `bit_rate * duration` via bits_in() | `bits`/`bit_rate` | toward zero |
///
/// All of them compute with a 128-bit intermediate and saturate at the limits of the 64-bit
/// result instead of overflowing; a zero divisor yields the saturated maximum (with the sign
/// of the dividend), so the functions are total. Same-unit arithmetic saturates too
/// (`bytes::max() + 1_B == bytes::max()`, `-bytes::min() == bytes::max()`), so no expression
/// of netcc's quantities has undefined behaviour.
///
/// An interval is `std::chrono::nanoseconds` (netcc::duration). An event time is a
/// netcc::timestamp: a point on a clock the caller chooses, in nanoseconds since its epoch. It
/// is a type of its own, so `timestamp + timestamp` does not compile, while
/// `timestamp - timestamp` is a duration and `timestamp + duration` a timestamp (both
/// saturating at the ends of the clock).
///
/// Sources: none; these are the units the papers write their rules in (bytes, Gbps, microseconds),
/// made types.
///
/// @code
/// using namespace netcc::literals;
/// netcc::bytes bdp = 100_Gbps * 8_us;        // 100000 B
/// netcc::duration ser = 4_KiB / 100_Gbps;      // 328 ns (327.68 rounded up)
/// netcc::bit_rate r = 64_KiB / 10_us;          // 52.4288 Gbps
/// @endcode
#pragma once

#include <chrono>
#include <compare>
#include <concepts>
#include <cstdint>
#include <limits>

#include "netcc/core/detail/int128.hpp"

namespace netcc {

/// @brief Time interval with nanosecond resolution; the time type of every netcc interface.
using duration = std::chrono::nanoseconds;

namespace detail {

/// a + b, saturating at the limits of int64.
[[nodiscard]] constexpr std::int64_t sat_add(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t r = 0;
  if (!__builtin_add_overflow(a, b, &r)) return r;
  return b > 0 ? std::numeric_limits<std::int64_t>::max()
               : std::numeric_limits<std::int64_t>::min();
}
/// a - b, saturating at the limits of int64.
[[nodiscard]] constexpr std::int64_t sat_sub(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t r = 0;
  if (!__builtin_sub_overflow(a, b, &r)) return r;
  return b < 0 ? std::numeric_limits<std::int64_t>::max()
               : std::numeric_limits<std::int64_t>::min();
}
/// a * b, saturating at the limits of int64.
[[nodiscard]] constexpr std::int64_t sat_mul(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t r = 0;
  if (!__builtin_mul_overflow(a, b, &r)) return r;
  return (a < 0) != (b < 0) ? std::numeric_limits<std::int64_t>::min()
                            : std::numeric_limits<std::int64_t>::max();
}
/// a / b toward zero, total: a zero divisor gives the limit with the sign of `a` (0 for 0), and
/// min / -1 gives max.
[[nodiscard]] constexpr std::int64_t sat_div(std::int64_t a, std::int64_t b) noexcept {
  if (b == 0)
    return a > 0 ? std::numeric_limits<std::int64_t>::max()
                 : (a < 0 ? std::numeric_limits<std::int64_t>::min() : 0);
  if (b == -1)
    return a == std::numeric_limits<std::int64_t>::min() ? std::numeric_limits<std::int64_t>::max()
                                                         : -a;
  return a / b;
}

}  // namespace detail

/// @brief A point in time: nanoseconds since an epoch chosen by the caller.
///
/// netcc never reads a clock: every event carries its time as a `timestamp`, and only
/// differences between timestamps of one caller are meaningful. The arithmetic a point in time
/// has, and no more: `t - t` is a netcc::duration, `t + d`, `d + t` and `t - d` are
/// timestamps; `t + t` does not compile (tests/compile_fail/timestamp_plus_timestamp.cpp).
/// Every operation saturates at the ends of the int64 clock instead of overflowing, so an event
/// at `timestamp::min()` or `timestamp::max()` is as defined as any other.
/// @code
/// netcc::timestamp sent{1'000}, acked{29'000};
/// netcc::duration rtt = acked - sent;          // 28 us
/// netcc::timestamp deadline = acked + 2 * rtt; // 85 us
/// @endcode
class timestamp {
 public:
  /// @brief The count's type: signed 64-bit nanoseconds.
  using rep = std::int64_t;
  /// @brief The epoch itself (0 ns).
  constexpr timestamp() noexcept = default;
  /// @brief `ns` nanoseconds after the epoch.
  constexpr explicit timestamp(rep ns) noexcept : ns_(ns) {}
  /// @brief `since_epoch` after the epoch.
  constexpr explicit timestamp(duration since_epoch) noexcept : ns_(since_epoch.count()) {}
  /// @brief Nanoseconds since the epoch.
  [[nodiscard]] constexpr rep count() const noexcept { return ns_; }
  /// @brief The interval since the epoch.
  [[nodiscard]] constexpr duration time_since_epoch() const noexcept { return duration{ns_}; }
  /// @brief The earliest representable time.
  [[nodiscard]] static constexpr timestamp min() noexcept {
    return timestamp{std::numeric_limits<rep>::min()};
  }
  /// @brief The latest representable time.
  [[nodiscard]] static constexpr timestamp max() noexcept {
    return timestamp{std::numeric_limits<rep>::max()};
  }
  /// @brief The interval from `b` to `a`, saturating.
  [[nodiscard]] friend constexpr duration operator-(timestamp a, timestamp b) noexcept {
    return duration{detail::sat_sub(a.ns_, b.ns_)};
  }
  /// @brief `d` after `t`, saturating.
  [[nodiscard]] friend constexpr timestamp operator+(timestamp t, duration d) noexcept {
    return timestamp{detail::sat_add(t.ns_, d.count())};
  }
  /// @brief `d` after `t`, saturating.
  [[nodiscard]] friend constexpr timestamp operator+(duration d, timestamp t) noexcept {
    return t + d;
  }
  /// @brief `d` before `t`, saturating.
  [[nodiscard]] friend constexpr timestamp operator-(timestamp t, duration d) noexcept {
    return timestamp{detail::sat_sub(t.ns_, d.count())};
  }
  /// @brief Move `d` later, saturating.
  constexpr timestamp& operator+=(duration d) noexcept { return *this = *this + d; }
  /// @brief Move `d` earlier, saturating.
  constexpr timestamp& operator-=(duration d) noexcept { return *this = *this - d; }
  /// @brief Same instant.
  friend constexpr bool operator==(timestamp, timestamp) noexcept = default;
  /// @brief Earlier or later.
  friend constexpr std::strong_ordering operator<=>(timestamp, timestamp) noexcept = default;

 private:
  rep ns_ = 0;
};

namespace detail {

/// CRTP base giving a strong integral quantity its same-unit arithmetic. Only quantities
/// of one and the same Derived type combine; a different unit is a different type and so
/// cannot be added, subtracted or compared.
template <class Derived>
class quantity {
 public:
  using rep = std::int64_t;

  constexpr quantity() noexcept = default;
  constexpr explicit quantity(rep n) noexcept : n_(n) {}

  [[nodiscard]] constexpr rep count() const noexcept { return n_; }

  [[nodiscard]] static constexpr Derived zero() noexcept { return Derived{0}; }
  [[nodiscard]] static constexpr Derived max() noexcept {
    return Derived{std::numeric_limits<rep>::max()};
  }
  [[nodiscard]] static constexpr Derived min() noexcept {
    return Derived{std::numeric_limits<rep>::min()};
  }

  // Saturating, as rate x time is: a sum past the limit is the limit, never a wrap.
  [[nodiscard]] friend constexpr Derived operator+(Derived a, Derived b) noexcept {
    return Derived{sat_add(a.count(), b.count())};
  }
  [[nodiscard]] friend constexpr Derived operator-(Derived a, Derived b) noexcept {
    return Derived{sat_sub(a.count(), b.count())};
  }
  [[nodiscard]] friend constexpr Derived operator-(Derived a) noexcept {
    return Derived{sat_sub(0, a.count())};
  }
  [[nodiscard]] friend constexpr Derived operator*(Derived a, rep k) noexcept {
    return Derived{sat_mul(a.count(), k)};
  }
  [[nodiscard]] friend constexpr Derived operator*(rep k, Derived a) noexcept {
    return Derived{sat_mul(a.count(), k)};
  }
  /// Integer division, toward zero; total (see detail::sat_div).
  [[nodiscard]] friend constexpr Derived operator/(Derived a, rep k) noexcept {
    return Derived{sat_div(a.count(), k)};
  }
  /// Ratio of two same-unit quantities, as a plain number.
  [[nodiscard]] friend constexpr double operator/(Derived a, Derived b) noexcept {
    return static_cast<double>(a.count()) / static_cast<double>(b.count());
  }
  constexpr Derived& operator+=(Derived b) noexcept {
    n_ = sat_add(n_, b.count());
    return static_cast<Derived&>(*this);
  }
  constexpr Derived& operator-=(Derived b) noexcept {
    n_ = sat_sub(n_, b.count());
    return static_cast<Derived&>(*this);
  }
  friend constexpr bool operator==(Derived a, Derived b) noexcept { return a.n_ == b.n_; }
  friend constexpr std::strong_ordering operator<=>(Derived a, Derived b) noexcept {
    return a.n_ <=> b.n_;
  }

 private:
  rep n_ = 0;
};

}  // namespace detail

/// @brief A size in bytes (signed 64-bit, so deficits and deltas are representable).
///
/// @code
/// netcc::bytes mtu{1500};
/// netcc::bytes two = mtu * 2;   // 3000 B
/// double ratio = two / mtu;     // 2.0
/// @endcode
class bytes : public detail::quantity<bytes> {
 public:
  using detail::quantity<bytes>::quantity;
};

/// @brief A size in bits; converts to and from netcc::bytes only explicitly.
///
/// @code
/// netcc::bits b = netcc::to_bits(netcc::bytes{2});   // 16 bits
/// @endcode
class bits : public detail::quantity<bits> {
 public:
  using detail::quantity<bits>::quantity;
};

/// @brief A bit rate in bits per second (64-bit, so up to 9.2 Ebps).
///
/// @code
/// using namespace netcc::literals;
/// netcc::bit_rate r = 25_Gbps;
/// double g = r.gbps();   // 25.0
/// @endcode
class bit_rate : public detail::quantity<bit_rate> {
 public:
  using detail::quantity<bit_rate>::quantity;
  /// @brief The rate in bits per second.
  [[nodiscard]] constexpr rep bps() const noexcept { return count(); }
  /// @brief The rate in Gbps, as a double (for printing and floating-point controllers).
  [[nodiscard]] constexpr double gbps() const noexcept {
    return static_cast<double>(count()) / 1e9;
  }
};

/// @brief Exact conversion of bytes to bits (saturating at the 64-bit limits).
[[nodiscard]] constexpr bits to_bits(bytes b) noexcept {
  return bits{detail::saturate_i64(detail::i128{b.count()} * 8)};
}

/// @brief Bits to whole bytes, rounding toward zero.
[[nodiscard]] constexpr bytes to_bytes_floor(bits b) noexcept {
  return bytes{b.count() / 8};
}

/// @brief Bits to whole bytes, rounding away from zero (a partial byte occupies a byte).
[[nodiscard]] constexpr bytes to_bytes_ceil(bits b) noexcept {
  return bytes{detail::saturate_i64(detail::div_away_from_zero(detail::i128{b.count()}, 8))};
}

/// @brief The smallest pacing rate a controller reports while its window is open: 1 bps, the
/// smallest non-zero netcc::bit_rate.
///
/// A window-derived rate such as cwnd / RTT is rounded toward zero (`bytes / duration`), so a
/// small window over a long RTT (10 B over 1 h is 0.022 bps) reads 0 bps, which a pacer takes
/// as "never send" (an infinite gap) although the window allows data. Every controller whose
/// pacing rate comes from its window floors it here instead: 1 bps is the representable rate
/// nearest to the true one that still lets the flow send.
/// @code
/// using namespace netcc::literals;
/// netcc::bit_rate r = 10_B / netcc::duration{3'600'000'000'000};   // 0 bps
/// if (r < netcc::min_pacing_rate) r = netcc::min_pacing_rate;        // 1 bps
/// @endcode
inline constexpr bit_rate min_pacing_rate{1};

/// @brief Bytes a link at `r` transmits in `t`: r*t/8, rounded toward zero, saturating.
[[nodiscard]] constexpr bytes operator*(bit_rate r, duration t) noexcept {
  return bytes{detail::saturate_i64(detail::i128{r.count()} * t.count() / 8'000'000'000)};
}
/// @brief Same as `r * t`.
[[nodiscard]] constexpr bytes operator*(duration t, bit_rate r) noexcept {
  return r * t;
}

/// @brief Bits a link at `r` transmits in `t`, rounded toward zero, saturating.
[[nodiscard]] constexpr bits bits_in(bit_rate r, duration t) noexcept {
  return bits{detail::saturate_i64(detail::i128{r.count()} * t.count() / 1'000'000'000)};
}

namespace detail {
// The largest byte count whose bits times 1e9 (b * 8e9) stay below 2^63: 1,152,921,504 B.
inline constexpr std::int64_t max_bytes_64 = 0x7FFF'FFFF'FFFF'FFFFLL / 8'000'000'000LL;
}  // namespace detail

/// @brief The rate that moves `b` in `t`: 8*b/t, rounded toward zero.
///
/// A zero `t` gives bit_rate::max() (or min() for a negative `b`, zero for zero bytes).
[[nodiscard]] constexpr bit_rate operator/(bytes b, duration t) noexcept {
  if (t.count() == 0) {
    return b.count() > 0 ? bit_rate::max() : (b.count() < 0 ? bit_rate::min() : bit_rate::zero());
  }
  // The common case, b * 8e9 < 2^63 and t > 0: the same quotient in 64 bits (no 128-bit call).
  if (b.count() >= 0 && b.count() <= detail::max_bytes_64 && t.count() > 0)
    return bit_rate{
        static_cast<std::int64_t>(static_cast<std::uint64_t>(b.count()) * 8'000'000'000U /
                                  static_cast<std::uint64_t>(t.count()))};
  return bit_rate{detail::saturate_i64(detail::i128{b.count()} * 8'000'000'000 / t.count())};
}

/// @brief The rate that moves `b` bits in `t`, rounded toward zero; zero `t` as for bytes.
[[nodiscard]] constexpr bit_rate operator/(bits b, duration t) noexcept {
  if (t.count() == 0) {
    return b.count() > 0 ? bit_rate::max() : (b.count() < 0 ? bit_rate::min() : bit_rate::zero());
  }
  return bit_rate{detail::saturate_i64(detail::i128{b.count()} * 1'000'000'000 / t.count())};
}

/// @brief Serialisation time of `b` at rate `r`: 8*b/r, rounded away from zero.
///
/// A zero rate gives duration::max() (or min() for negative `b`, zero for zero bytes).
[[nodiscard]] constexpr duration operator/(bytes b, bit_rate r) noexcept {
  if (r.count() == 0) {
    return b.count() > 0 ? duration::max() : (b.count() < 0 ? duration::min() : duration::zero());
  }
  // The common case, b * 8e9 < 2^63 and r > 0: ceil(b * 8e9 / r) in 64 bits (the sum below
  // 2^64), the same value as the 128-bit quotient rounded away from zero.
  if (b.count() >= 0 && b.count() <= detail::max_bytes_64 && r.count() > 0) {
    const std::uint64_t n = static_cast<std::uint64_t>(b.count()) * 8'000'000'000U;
    const auto d = static_cast<std::uint64_t>(r.count());
    return duration{static_cast<std::int64_t>((n + d - 1) / d)};
  }
  return duration{detail::saturate_i64(
      detail::div_away_from_zero(detail::i128{b.count()} * 8'000'000'000, r.count()))};
}

/// @brief A duration as seconds in floating point (for floating-point control laws).
[[nodiscard]] constexpr double to_seconds(duration t) noexcept {
  return static_cast<double>(t.count()) * 1e-9;
}

/// @brief User-defined literals for sizes (`_B`, `_KB`, `_KiB`, ...), rates (`_bps` ..
/// `_Tbps`) and times (`_ns`, `_us`, `_ms`, `_s`).
///
/// Decimal prefixes are powers of 1000 and binary prefixes powers of 1024, as in IEC 80000-13.
/// Floating-point forms (`2.5_Gbps`, `1.5_us`) round to the nearest unit.
/// @code
/// using namespace netcc::literals;
/// auto w = 64_KiB;      // netcc::bytes{65536}
/// auto r = 2.5_Gbps;    // netcc::bit_rate{2500000000}
/// auto t = 5_us;        // netcc::duration{5000}
/// @endcode
namespace literals {

/// @brief `n` bytes.
constexpr bytes operator""_B(unsigned long long n) noexcept {
  return bytes{static_cast<std::int64_t>(n)};
}
/// @brief `n` x 1000 bytes.
constexpr bytes operator""_KB(unsigned long long n) noexcept {
  return bytes{static_cast<std::int64_t>(n * 1000ULL)};
}
/// @brief `n` x 1024 bytes.
constexpr bytes operator""_KiB(unsigned long long n) noexcept {
  return bytes{static_cast<std::int64_t>(n * 1024ULL)};
}
/// @brief `n` x 10^6 bytes.
constexpr bytes operator""_MB(unsigned long long n) noexcept {
  return bytes{static_cast<std::int64_t>(n * 1000'000ULL)};
}
/// @brief `n` x 2^20 bytes.
constexpr bytes operator""_MiB(unsigned long long n) noexcept {
  return bytes{static_cast<std::int64_t>(n * 1048576ULL)};
}
/// @brief `n` x 10^9 bytes.
constexpr bytes operator""_GB(unsigned long long n) noexcept {
  return bytes{static_cast<std::int64_t>(n * 1000'000'000ULL)};
}
/// @brief `n` bits.
constexpr bits operator""_bit(unsigned long long n) noexcept {
  return bits{static_cast<std::int64_t>(n)};
}
/// @brief `n` bits per second.
constexpr bit_rate operator""_bps(unsigned long long n) noexcept {
  return bit_rate{static_cast<std::int64_t>(n)};
}
/// @brief `n` x 10^3 bits per second.
constexpr bit_rate operator""_Kbps(unsigned long long n) noexcept {
  return bit_rate{static_cast<std::int64_t>(n * 1000ULL)};
}
/// @brief `n` x 10^6 bits per second.
constexpr bit_rate operator""_Mbps(unsigned long long n) noexcept {
  return bit_rate{static_cast<std::int64_t>(n * 1000'000ULL)};
}
/// @brief `n` x 10^9 bits per second.
constexpr bit_rate operator""_Gbps(unsigned long long n) noexcept {
  return bit_rate{static_cast<std::int64_t>(n * 1000'000'000ULL)};
}
/// @brief `n` x 10^12 bits per second.
constexpr bit_rate operator""_Tbps(unsigned long long n) noexcept {
  return bit_rate{static_cast<std::int64_t>(n * 1000'000'000'000ULL)};
}
/// @brief `x` x 10^6 bits per second, rounded to the nearest bit per second.
constexpr bit_rate operator""_Mbps(long double x) noexcept {
  return bit_rate{static_cast<std::int64_t>(x * 1e6L + 0.5L)};
}
/// @brief `x` x 10^9 bits per second, rounded to the nearest bit per second.
constexpr bit_rate operator""_Gbps(long double x) noexcept {
  return bit_rate{static_cast<std::int64_t>(x * 1e9L + 0.5L)};
}
/// @brief `n` nanoseconds.
constexpr duration operator""_ns(unsigned long long n) noexcept {
  return duration{static_cast<std::int64_t>(n)};
}
/// @brief `n` microseconds.
constexpr duration operator""_us(unsigned long long n) noexcept {
  return duration{static_cast<std::int64_t>(n * 1000ULL)};
}
/// @brief `n` milliseconds.
constexpr duration operator""_ms(unsigned long long n) noexcept {
  return duration{static_cast<std::int64_t>(n * 1000'000ULL)};
}
/// @brief `n` seconds.
constexpr duration operator""_s(unsigned long long n) noexcept {
  return duration{static_cast<std::int64_t>(n * 1000'000'000ULL)};
}
/// @brief `x` microseconds, rounded to the nearest nanosecond.
constexpr duration operator""_us(long double x) noexcept {
  return duration{static_cast<std::int64_t>(x * 1e3L + 0.5L)};
}
/// @brief `x` milliseconds, rounded to the nearest nanosecond.
constexpr duration operator""_ms(long double x) noexcept {
  return duration{static_cast<std::int64_t>(x * 1e6L + 0.5L)};
}

}  // namespace literals

}  // namespace netcc
