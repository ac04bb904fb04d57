// SPDX-License-Identifier: MIT
/// @file
/// @brief Exact rational numbers for min-plus curves: int64 numerator/denominator with
/// 128-bit intermediates (rational), and 128-bit numerator/denominator with 256-bit
/// intermediates (wide_rational), both with overflow detection.
///
/// Source: the numeric policy of issue 9 (network calculus layer) for the curves of
/// Lehal, Luangsomboon, Liebeherr, "Network Calculus Characterization of Congestion Control
/// for Time-Varying Traffic" (seed 003), §II. Every result is reduced (gcd = 1, den > 0).
/// A result that does not fit int64 is never rounded: it becomes the documented *invalid*
/// state (`valid() == false`), which is sticky through +, -, *, /. Comparisons are exact
/// (128-bit cross products) and cannot overflow.
///
/// Deviations: none (this is infrastructure, not an algorithm of the paper).
///
/// @code
/// using netcc::calculus::rational;
/// constexpr rational third = rational{1} / rational{3};
/// static_assert(third + third + third == rational{1});          // exact
/// static_assert(!(rational{INT64_MAX} * rational{2}).valid());  // overflow is sticky, never rounded
/// @endcode
#pragma once

#include <cstdint>
#include <limits>

#include "netcc/core/detail/int128.hpp"

namespace netcc::calculus {

/// @brief Exact rational n/d with int64 parts; overflow yields the sticky invalid state.
///
/// @code
/// auto a = netcc::calculus::rational::of(1, 3);
/// auto b = a + netcc::calculus::rational{1};   // 4/3
/// bool ok = b.valid();                         // true; false after an overflow
/// @endcode
class rational {
 public:
  /// @brief Zero.
  constexpr rational() noexcept = default;
  /// @brief The integer `n` (INT64_MIN, whose negation overflows, gives the invalid state).
  constexpr rational(std::int64_t n) noexcept  // NOLINT(google-explicit-constructor)
      : n_(n == std::numeric_limits<std::int64_t>::min() ? 0 : n),
        d_(n == std::numeric_limits<std::int64_t>::min() ? 0 : 1) {}
  /// @brief n/d reduced; d == 0 or a part that does not fit gives the invalid state.
  static constexpr rational of(std::int64_t n, std::int64_t d) noexcept {
    return from_wide(static_cast<detail::i128>(n), static_cast<detail::i128>(d));
  }
  /// @brief The invalid (overflowed / undefined) state.
  static constexpr rational invalid() noexcept {
    rational r;
    r.d_ = 0;
    return r;
  }
  /// @brief Reduces a 128-bit fraction; invalid when it does not fit int64 after reduction.
  static constexpr rational from_wide(detail::i128 n, detail::i128 d) noexcept {
    if (d == 0) return invalid();
    if (d < 0) {
      n = -n;
      d = -d;
    }
    detail::u128 a = n < 0 ? static_cast<detail::u128>(-n) : static_cast<detail::u128>(n);
    detail::u128 b = static_cast<detail::u128>(d);
    while (b != 0) {  // Euclid: gcd(|n|, d)
      const detail::u128 t = a % b;
      a = b;
      b = t;
    }
    if (a > 1) {
      n /= static_cast<detail::i128>(a);
      d /= static_cast<detail::i128>(a);
    }
    constexpr detail::i128 lim = std::numeric_limits<std::int64_t>::max();
    if (n > lim || n < -lim || d > lim) return invalid();
    rational r;
    r.n_ = static_cast<std::int64_t>(n);
    r.d_ = static_cast<std::int64_t>(d);
    return r;
  }

  /// @brief False after an overflow or a division by zero.
  [[nodiscard]] constexpr bool valid() const noexcept { return d_ != 0; }
  /// @brief Numerator (reduced, sign carried here).
  [[nodiscard]] constexpr std::int64_t num() const noexcept { return n_; }
  /// @brief Denominator (> 0 when valid).
  [[nodiscard]] constexpr std::int64_t den() const noexcept { return d_; }
  /// @brief Nearest double (NaN when invalid).
  [[nodiscard]] constexpr double to_double() const noexcept {
    return valid() ? static_cast<double>(n_) / static_cast<double>(d_)
                   : std::numeric_limits<double>::quiet_NaN();
  }

  /// @brief Exact sum (invalid on overflow).
  friend constexpr rational operator+(rational a, rational b) noexcept {
    if (!a.valid() || !b.valid()) return invalid();
    return from_wide(w(a.n_) * b.d_ + w(b.n_) * a.d_, w(a.d_) * b.d_);
  }
  /// @brief Exact difference (invalid on overflow).
  friend constexpr rational operator-(rational a, rational b) noexcept {
    if (!a.valid() || !b.valid()) return invalid();
    return from_wide(w(a.n_) * b.d_ - w(b.n_) * a.d_, w(a.d_) * b.d_);
  }
  /// @brief Exact negation.
  friend constexpr rational operator-(rational a) noexcept {
    if (!a.valid()) return invalid();
    a.n_ = -a.n_;
    return a;
  }
  /// @brief Exact product (invalid on overflow).
  friend constexpr rational operator*(rational a, rational b) noexcept {
    if (!a.valid() || !b.valid()) return invalid();
    return from_wide(w(a.n_) * b.n_, w(a.d_) * b.d_);
  }
  /// @brief Exact quotient (invalid on overflow or division by zero).
  friend constexpr rational operator/(rational a, rational b) noexcept {
    if (!a.valid() || !b.valid()) return invalid();
    return from_wide(w(a.n_) * b.d_, w(a.d_) * b.n_);
  }
  /// @brief Representation equality (exact for reduced values; invalid == invalid).
  friend constexpr bool operator==(rational a, rational b) noexcept {
    return a.n_ == b.n_ && a.d_ == b.d_;
  }
  /// @brief Exact order of valid values (128-bit cross products; never overflows).
  friend constexpr bool operator<(rational a, rational b) noexcept {
    return w(a.n_) * b.d_ < w(b.n_) * a.d_;
  }
  /// @brief Exact order.
  friend constexpr bool operator>(rational a, rational b) noexcept { return b < a; }
  /// @brief Exact order.
  friend constexpr bool operator<=(rational a, rational b) noexcept { return !(b < a); }
  /// @brief Exact order.
  friend constexpr bool operator>=(rational a, rational b) noexcept { return !(a < b); }

 private:
  static constexpr detail::i128 w(std::int64_t x) noexcept { return x; }
  std::int64_t n_ = 0;
  std::int64_t d_ = 1;
};

/// @brief Exact rational n/d with 128-bit parts (|n|, d < 2^127) and 256-bit intermediates:
/// the wider number policy for curves whose intermediate values exceed int64
/// (netcc::calculus::basic_curve<wide_rational>, alias netcc::calculus::wide_curve).
///
/// Same contract as netcc::calculus::rational: every result is reduced (gcd = 1, den > 0), a
/// result that does not fit is the sticky invalid state (`valid() == false`), comparisons are
/// exact (256-bit cross products). About 3-10 times slower than rational; used by the
/// deviations of exact curves when a 64-bit intermediate overflows, or directly as the number
/// type of a curve. Converting back to rational (to_rational()) is exact or invalid.
///
/// @code
/// using netcc::calculus::wide_rational;
/// auto big = wide_rational::of(1, 3'000'000'000) * wide_rational::of(1, 5'000'000'000);
/// bool ok = big.valid();                           // true: den 1.5e19 > int64 max
/// bool narrow = big.to_rational().valid();         // false: does not fit rational
/// @endcode
class wide_rational {
 public:
  /// @brief Zero.
  constexpr wide_rational() noexcept = default;
  /// @brief The integer n.
  constexpr wide_rational(std::int64_t n) noexcept
      : n_(n) {}  // NOLINT(google-explicit-constructor)
  /// @brief The same value as r (invalid when r is).
  constexpr explicit wide_rational(rational r) noexcept : n_(r.num()), d_(r.valid() ? r.den() : 0) {
    if (!r.valid()) n_ = 0;
  }
  /// @brief n/d reduced; d == 0 gives the invalid state.
  static constexpr wide_rational of(std::int64_t n, std::int64_t d) noexcept {
    if (d == 0) return invalid();
    return make(n < 0, mag(n), d < 0, mag(d));
  }
  /// @brief The invalid (overflowed / undefined) state.
  static constexpr wide_rational invalid() noexcept {
    wide_rational r;
    r.d_ = 0;
    return r;
  }
  /// @brief False after an overflow or a division by zero.
  [[nodiscard]] constexpr bool valid() const noexcept { return d_ != 0; }
  /// @brief The same value as a rational; invalid when a part does not fit int64.
  [[nodiscard]] constexpr rational to_rational() const noexcept {
    if (!valid()) return rational::invalid();
    return rational::from_wide(n_, d_);
  }
  /// @brief Nearest double (NaN when invalid).
  [[nodiscard]] constexpr double to_double() const noexcept {
    return valid() ? static_cast<double>(n_) / static_cast<double>(d_)
                   : std::numeric_limits<double>::quiet_NaN();
  }

  /// @brief Exact sum (invalid on overflow).
  friend constexpr wide_rational operator+(wide_rational a, wide_rational b) noexcept {
    return add(a, b, false);
  }
  /// @brief Exact difference (invalid on overflow).
  friend constexpr wide_rational operator-(wide_rational a, wide_rational b) noexcept {
    return add(a, b, true);
  }
  /// @brief Exact negation.
  friend constexpr wide_rational operator-(wide_rational a) noexcept {
    a.n_ = -a.n_;
    return a;
  }
  /// @brief Exact product (invalid on overflow).
  friend constexpr wide_rational operator*(wide_rational a, wide_rational b) noexcept {
    if (!a.valid() || !b.valid()) return invalid();
    // cross-cancel first so that a product that fits after reduction is found
    const u128 g1 = gcd(mag(a.n_), static_cast<u128>(b.d_));
    const u128 g2 = gcd(mag(b.n_), static_cast<u128>(a.d_));
    bool ok = true;
    const u128 n = mul(mag(a.n_) / g1, mag(b.n_) / g2, ok);
    const u128 d = mul(static_cast<u128>(a.d_) / g2, static_cast<u128>(b.d_) / g1, ok);
    if (!ok) return invalid();
    return make((a.n_ < 0) != (b.n_ < 0), n, false, d);
  }
  /// @brief Exact quotient (invalid on overflow or division by zero).
  friend constexpr wide_rational operator/(wide_rational a, wide_rational b) noexcept {
    if (!a.valid() || !b.valid() || b.n_ == 0) return invalid();
    wide_rational r;
    r.n_ = b.n_ < 0 ? -b.d_ : b.d_;
    r.d_ = b.n_ < 0 ? -b.n_ : b.n_;
    return a * r;
  }
  /// @brief Representation equality (exact for reduced values; invalid == invalid).
  friend constexpr bool operator==(wide_rational a, wide_rational b) noexcept {
    return a.n_ == b.n_ && a.d_ == b.d_;
  }
  /// @brief Exact order of valid values (256-bit cross products).
  friend constexpr bool operator<(wide_rational a, wide_rational b) noexcept {
    const bool an = a.n_ < 0;
    const bool bn = b.n_ < 0;
    if (an != bn) return an;
    u128 h1 = 0;
    u128 l1 = 0;
    u128 h2 = 0;
    u128 l2 = 0;
    mul_full(mag(a.n_), static_cast<u128>(b.d_), h1, l1);
    mul_full(mag(b.n_), static_cast<u128>(a.d_), h2, l2);
    const bool less = h1 < h2 || (h1 == h2 && l1 < l2);
    const bool greater = h1 > h2 || (h1 == h2 && l1 > l2);
    return an ? greater : less;
  }
  /// @brief Exact order.
  friend constexpr bool operator>(wide_rational a, wide_rational b) noexcept { return b < a; }
  /// @brief Exact order.
  friend constexpr bool operator<=(wide_rational a, wide_rational b) noexcept { return !(b < a); }
  /// @brief Exact order.
  friend constexpr bool operator>=(wide_rational a, wide_rational b) noexcept { return !(a < b); }

 private:
  using i128 = detail::i128;
  using u128 = detail::u128;
  static constexpr u128 lim = (u128{1} << 127) - 1;

  static constexpr u128 mag(i128 x) noexcept {
    return x < 0 ? static_cast<u128>(0) - static_cast<u128>(x) : static_cast<u128>(x);
  }
  static constexpr u128 gcd(u128 a, u128 b) noexcept {
    while (b != 0) {
      const u128 t = a % b;
      a = b;
      b = t;
    }
    return a == 0 ? 1 : a;
  }
  // Full 128 x 128 -> 256-bit product (hi, lo) from 64-bit limbs.
  static constexpr void mul_full(u128 a, u128 b, u128& hi, u128& lo) noexcept {
    constexpr u128 m = ~std::uint64_t{0};
    const u128 a0 = a & m;
    const u128 a1 = a >> 64;
    const u128 b0 = b & m;
    const u128 b1 = b >> 64;
    const u128 p00 = a0 * b0;
    const u128 p01 = a0 * b1;
    const u128 p10 = a1 * b0;
    const u128 mid = (p00 >> 64) + (p01 & m) + (p10 & m);
    lo = (p00 & m) | (mid << 64);
    hi = a1 * b1 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
  }
  // a * b, clearing ok when it exceeds the magnitude limit.
  static constexpr u128 mul(u128 a, u128 b, bool& ok) noexcept {
    u128 hi = 0;
    u128 lo = 0;
    mul_full(a, b, hi, lo);
    if (hi != 0 || lo > lim) ok = false;
    return lo;
  }
  // (-1)^nn n / ((-1)^dn d) reduced; d != 0; parts must be <= lim after reduction.
  static constexpr wide_rational make(bool nn, u128 n, bool dn, u128 d) noexcept {
    const u128 g = gcd(n, d);
    n /= g;
    d /= g;
    if (n > lim || d > lim) return invalid();
    wide_rational r;
    const i128 sn = static_cast<i128>(n);
    r.n_ = nn != dn ? -sn : sn;
    r.d_ = static_cast<i128>(d);
    return r;
  }
  static constexpr wide_rational add(wide_rational a, wide_rational b, bool negate_b) noexcept {
    if (!a.valid() || !b.valid()) return invalid();
    const u128 da = static_cast<u128>(a.d_);
    const u128 db = static_cast<u128>(b.d_);
    const u128 g = gcd(da, db);
    bool ok = true;
    const u128 x = mul(mag(a.n_), db / g, ok);
    const u128 y = mul(mag(b.n_), da / g, ok);
    const u128 d = mul(da, db / g, ok);
    if (!ok) return invalid();
    const bool xn = a.n_ < 0;
    const bool yn = (b.n_ < 0) != negate_b && b.n_ != 0;
    bool neg = false;
    u128 n = 0;
    if (xn == yn) {
      n = x + y;  // both <= lim < 2^127: no wrap
      neg = xn;
    } else if (x >= y) {
      n = x - y;
      neg = xn;
    } else {
      n = y - x;
      neg = yn;
    }
    if (n > lim) return invalid();
    return make(neg, n, false, d);
  }

  i128 n_ = 0;
  i128 d_ = 1;
};

/// @brief Largest integer <= x (x valid).
[[nodiscard]] constexpr std::int64_t floor(rational x) noexcept {
  const std::int64_t q = x.num() / x.den();
  return (x.num() % x.den() != 0 && x.num() < 0) ? q - 1 : q;
}

}  // namespace netcc::calculus
