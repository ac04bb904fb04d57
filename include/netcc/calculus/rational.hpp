// SPDX-License-Identifier: MIT
/// @file
/// @brief Exact rational numbers for min-plus curves: int64 numerator/denominator with
/// 128-bit intermediates and overflow detection.
///
/// Source: the numeric policy of issue 9 (network calculus layer) for the curves of
/// Lehal, Luangsomboon, Liebeherr, "Network Calculus Characterization of Congestion Control
/// for Time-Varying Traffic" (seed 003), §II. Every result is reduced (gcd = 1, den > 0).
/// A result that does not fit int64 is never rounded: it becomes the documented *invalid*
/// state (`valid() == false`), which is sticky through +, -, *, /. Comparisons are exact
/// (128-bit cross products) and cannot overflow.
///
/// Deviations: none (this is infrastructure, not an algorithm of the paper).
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

/// @brief Largest integer <= x (x valid).
[[nodiscard]] constexpr std::int64_t floor(rational x) noexcept {
  const std::int64_t q = x.num() / x.den();
  return (x.num() % x.den() != 0 && x.num() < 0) ? q - 1 : q;
}

}  // namespace netcc::calculus
