// SPDX-License-Identifier: MIT
// Shared by every harness: a byte reader that decodes raw fuzzer bytes into netcc feedback
// (never reading past the end: missing bytes read as zero), and NETCC_FUZZ_CHECK, which
// aborts with the failed invariant so both libFuzzer and the replay main report it.
//
// Extreme values (issue 16): time_after() moves a clock by small steps as small_step() does,
// and for one selector byte in sixteen jumps to either end of the int64 clock, to any value,
// or by a power of two in either direction (saturating); edge_i64() gives the ends of the
// int64 range, powers of two and their neighbours, small values around zero, or anything;
// wide_hop() is an INT record with queue lengths and link rates across their whole type range.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

#include <netcc/core.hpp>

#define NETCC_FUZZ_CHECK(cond)                                                          \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      std::fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                     \
    }                                                                                   \
  } while (0)

namespace netcc::fuzz {

/// Consumes fuzzer input front to back; every read is total.
class byte_reader {
 public:
  byte_reader(const std::uint8_t* data, std::size_t size) noexcept : p_(data), n_(size) {}

  [[nodiscard]] bool empty() const noexcept { return n_ == 0; }
  [[nodiscard]] std::size_t remaining() const noexcept { return n_; }

  std::uint64_t bytes_le(unsigned k) noexcept {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < k; ++i) {
      std::uint64_t b = 0;
      if (n_ > 0) {
        b = *p_++;
        --n_;
      }
      v |= b << (8 * i);
    }
    return v;
  }
  std::uint8_t u8() noexcept { return static_cast<std::uint8_t>(bytes_le(1)); }
  std::uint16_t u16() noexcept { return static_cast<std::uint16_t>(bytes_le(2)); }
  std::uint32_t u32() noexcept { return static_cast<std::uint32_t>(bytes_le(4)); }
  std::uint64_t u64() noexcept { return bytes_le(8); }
  std::int64_t i64() noexcept {
    const std::uint64_t u = u64();
    std::int64_t v;
    std::memcpy(&v, &u, sizeof v);
    return v;
  }
  bool boolean() noexcept { return (u8() & 1) != 0; }
  /// A value in [0, n) (0 when n == 0).
  std::uint64_t below(std::uint64_t n) noexcept { return n == 0 ? 0 : u64() % n; }
  /// A double from raw bits: NaN, infinities, denormals and huge values all occur.
  double raw_double() noexcept {
    const std::uint64_t u = u64();
    double d;
    std::memcpy(&d, &u, sizeof d);
    return d;
  }
  /// A signed step biased toward small magnitudes, zero and negatives (time deltas).
  std::int64_t small_step(std::int64_t scale) noexcept {
    switch (u8() % 4) {
      case 0:
        return 0;
      case 1:
        return -static_cast<std::int64_t>(below(static_cast<std::uint64_t>(scale)));
      default:
        return static_cast<std::int64_t>(below(static_cast<std::uint64_t>(scale) * 4));
    }
  }

  /// An INT hop record: raw counters anywhere in their range, rates including zero. One
  /// queue value in sixteen (top nibble of the u32 set) and one rate in sixteen (top nibble of
  /// the u64 set) instead span their whole int64 type: negative, beyond 2^32, near 2^62.
  int_hop hop() noexcept {
    int_hop h;
    h.ts = u64();
    const std::uint32_t q = u32();
    h.qlen = bytes{(q >> 28) == 0xF ? static_cast<std::int64_t>(std::uint64_t{q} << 36)
                                    : static_cast<std::int64_t>(q)};
    h.tx_bytes = u64();
    const std::uint64_t r = u64();
    h.link_rate = bit_rate{(r >> 60) == 0xF ? static_cast<std::int64_t>(r << 4)
                                            : static_cast<std::int64_t>(r % 1'000'000'000'001ULL)};
    return h;
  }

  /// An INT hop record with every field across its whole type: timestamps and counters
  /// anywhere, queue lengths and link rates from edge_i64() (negative, 0, near 2^32, 2^62,
  /// INT64_MAX).
  int_hop wide_hop() noexcept {
    int_hop h;
    h.ts = u64();
    h.qlen = bytes{edge_i64()};
    h.tx_bytes = u64();
    h.link_rate = bit_rate{edge_i64()};
    return h;
  }

  /// A value biased to the edges of int64: its ends (INT64_MIN + k, INT64_MAX - k), +-2^j + k
  /// for j in [0, 62], small values around zero, or any value.
  std::int64_t edge_i64() noexcept {
    constexpr std::int64_t lo = std::numeric_limits<std::int64_t>::min();
    constexpr std::int64_t hi = std::numeric_limits<std::int64_t>::max();
    const std::uint8_t b = u8();
    const auto k = static_cast<std::int64_t>(u8() % 4);
    const auto pow2 = std::int64_t{1} << ((b >> 3) % 63);
    switch (b % 8) {
      case 0:
        return lo + k;
      case 1:
        return hi - k;
      case 2:
        return pow2 + k - 2;  // 2^j - 2 .. 2^j + 1 (no overflow: 2^62 + 1 < INT64_MAX)
      case 3:
        return -pow2 - k + 2;
      case 4:
        return static_cast<std::int64_t>(b >> 3) - 16;  // around zero
      default:
        return i64();
    }
  }

  /// `t` moved by one decoded step: as small_step(scale) (0, back, forward; saturating) for 15
  /// selector bytes in 16, otherwise an extreme: the ends of the clock, any time, a jump of
  /// +-2^j, or to the opposite end (a jump across the whole range).
  std::int64_t time_after(std::int64_t t, std::int64_t scale) noexcept {
    constexpr std::int64_t lo = std::numeric_limits<std::int64_t>::min();
    constexpr std::int64_t hi = std::numeric_limits<std::int64_t>::max();
    const std::uint8_t b = u8();
    if (b >= 0xF0) {
      switch (b % 8) {
        case 0:
          return lo + static_cast<std::int64_t>(u8());
        case 1:
          return hi - static_cast<std::int64_t>(u8());
        case 2:
          return i64();
        case 3:
          return sat_add(t, std::int64_t{1} << (u8() % 63));
        case 4:
          return sat_add(t, -(std::int64_t{1} << (u8() % 63)));
        case 5:
          return t < 0 ? hi : lo;  // across the whole range
        default:
          return sat_add(t, i64());
      }
    }
    switch (b % 4) {
      case 0:
        return t;
      case 1:
        return sat_add(t, -static_cast<std::int64_t>(below(static_cast<std::uint64_t>(scale))));
      default:
        return sat_add(t, static_cast<std::int64_t>(below(static_cast<std::uint64_t>(scale) * 4)));
    }
  }

  /// a + b, saturating at the ends of int64.
  static std::int64_t sat_add(std::int64_t a, std::int64_t b) noexcept {
    return detail::saturate_i64(detail::i128{a} + b);
  }

 private:
  const std::uint8_t* p_;
  std::size_t n_;
};

/// True when `x` is finite (doubles) or always (fixed point).
template <class T>
bool finite(T x) noexcept {
  return number_traits<T>::is_finite(x);
}

/// The exact value of `x` as a ratio n / 2^e: for fixed point the raw value over 2^F, for
/// double x itself (e = 0). Bounds are checked with it without rounding (exact_ge / exact_le).
template <class T>
struct exact_value;
template <>
struct exact_value<double> {
  /// x >= b exactly.
  static bool ge(double x, double b) noexcept { return x >= b; }
  /// x <= b exactly.
  static bool le(double x, double b) noexcept { return x <= b; }
};
template <int I, int F>
struct exact_value<fixed_point<I, F>> {
  // b * 2^F is exact in double (a power-of-two scale) unless it overflows; raw is compared
  // with its ceiling (floor), computed by std::ceil (std::floor), exact on doubles.
  static bool ge(fixed_point<I, F> x, double b) noexcept {
    const double s = std::ldexp(b, F);
    if (!(s < 0x1p63)) return false;
    if (s < -0x1p63) return true;
    return x.raw() >= static_cast<std::int64_t>(std::ceil(s));
  }
  static bool le(fixed_point<I, F> x, double b) noexcept {
    const double s = std::ldexp(b, F);
    if (!(s >= -0x1p63)) return false;
    if (s >= 0x1p63) return true;
    return x.raw() <= static_cast<std::int64_t>(std::floor(s));
  }
};

/// `x` >= the real number `b`, exactly (no rounding of either side).
template <class T>
bool exact_ge(T x, double b) noexcept {
  return exact_value<T>::ge(x, b);
}
/// `x` <= the real number `b`, exactly.
template <class T>
bool exact_le(T x, double b) noexcept {
  return exact_value<T>::le(x, b);
}
/// `x` >= n / d exactly, for d > 0 (fixed point: raw * d >= n * 2^F in 128 bits).
template <class T>
bool ratio_ge(T x, std::int64_t n, std::int64_t d) noexcept {
  if constexpr (std::is_same_v<T, double>) {
    return x >= static_cast<double>(n) / static_cast<double>(d);
  } else {
    return detail::i128{x.raw()} * d >= detail::i128{n} * T::raw_one;
  }
}
/// `x` <= n / d exactly, for d > 0.
template <class T>
bool ratio_le(T x, std::int64_t n, std::int64_t d) noexcept {
  if constexpr (std::is_same_v<T, double>) {
    return x <= static_cast<double>(n) / static_cast<double>(d);
  } else {
    return detail::i128{x.raw()} * d <= detail::i128{n} * T::raw_one;
  }
}

}  // namespace netcc::fuzz
