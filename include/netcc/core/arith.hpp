// SPDX-License-Identifier: MIT
/// @file
/// @brief Arithmetic policies: IEEE double and a saturating constexpr fixed-point type.
///
/// Every controller is a template over one of these policies; its state and control law are
/// computed in `Policy::value_type`.
///
/// | policy                        | value_type               | use it when                                      |
/// | ----------------------------- | ------------------------ | ------------------------------------------------ |
/// | netcc::arith::ieee_double     | `double`                 | host stacks, simulators, anything with an FPU (the default) |
/// | netcc::arith::fixed<I, F>     | netcc::fixed_point<I, F> | NIC firmware or pipelines without floating point; results are bit-identical everywhere |
/// | netcc::arith::q32             | fixed_point<31, 32>      | the recommended fixed-point default: windows up to 2 GB, rates in Mbps-scaled units, 2^-32 resolution |
///
/// Fixed-point semantics (netcc::fixed_point<I, F>): a signed 64-bit raw integer holding
/// value * 2^F, with I integer bits and one sign bit (1 + I + F <= 64). The range is the
/// symmetric interval [-(2^(I+F) - 1), 2^(I+F) - 1] / 2^F, so negation is always exact.
/// - +, -, *, / **saturate** at the range limits instead of wrapping;
/// - * and / round to nearest (ties away from zero): error at most 1/2 ULP (2^-(F+1)) per op;
/// - division by zero saturates to the limit with the dividend's sign (0/0 = 0);
/// - conversion from double rounds to nearest and saturates; NaN converts to 0;
/// - bounds (a floor or a ceiling a controller clamps to) convert with netcc::num_up /
///   netcc::num_down and netcc::ratio_up / netcc::ratio_down instead: rounded toward the inside
///   of the range they bound, so a value clamped to them never lies past the configured bound
///   (a min_cwnd of 0.001 is 0.001000000047 in q32, not 0.00099999993).
///
/// Sources: the fixed-point form is how hardware keeps these quantities without an FPU, as RFC 8257
/// §4.2 keeps DCTCP's alpha as a scaled integer; the double policy is IEEE 754 binary64. The
/// saturating q-format and its rounding rules are netcc's own (no paper prescribes one).
///
/// @code
/// using q = netcc::fixed_point<31, 32>;
/// constexpr q gamma{0.9};
/// constexpr q w = gamma * q{100} + q{0.5};      // 90.5, exactly representable
/// static_assert(w.to_double() == 90.5);
/// @endcode
#pragma once

#include <bit>
#include <cmath>
#include <compare>
#include <concepts>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "netcc/core/detail/int128.hpp"
#include "netcc/core/divisor.hpp"

namespace netcc {

/// @brief Signed saturating fixed-point number with `IntBits` integer and `FracBits`
/// fraction bits (value = raw / 2^FracBits).
///
/// @tparam IntBits  integer bits, excluding the sign bit (>= 1)
/// @tparam FracBits fraction bits (>= 0); 1 + IntBits + FracBits <= 64
///
/// @code
/// netcc::fixed_point<15, 16> a{1.5}, b{2};
/// auto c = a * b;           // 3.0
/// auto d = a / netcc::fixed_point<15, 16>{0};   // saturates to max()
/// @endcode
template <int IntBits, int FracBits>
class fixed_point {
  static_assert(IntBits >= 1 && FracBits >= 0 && 1 + IntBits + FracBits <= 64,
                "fixed_point: need IntBits >= 1, FracBits >= 0, 1 + IntBits + FracBits <= 64");

 public:
  /// @brief The raw storage type.
  using rep = std::int64_t;
  /// @brief Integer bits (excluding sign).
  static constexpr int integer_bits = IntBits;
  /// @brief Fraction bits.
  static constexpr int fraction_bits = FracBits;
  /// @brief Raw value of 1.0.
  static constexpr rep raw_one = rep{1} << FracBits;
  /// @brief Largest raw value; the smallest is its negation.
  static constexpr rep raw_max = static_cast<rep>((detail::u128{1} << (IntBits + FracBits)) - 1);

  /// @brief Zero.
  constexpr fixed_point() noexcept = default;
  /// @brief From an integer, saturating.
  template <std::integral T>
  constexpr explicit fixed_point(T v) noexcept : raw_(clamp(detail::i128{v} * raw_one)) {}
  /// @brief From a double, rounded to nearest and saturating; NaN gives 0.
  constexpr explicit fixed_point(double v) noexcept : raw_(from_double(v)) {}

  /// @brief The smallest value not below `v` (rounded toward +infinity), saturating; NaN
  /// gives 0. Use it for a lower bound, so a value clamped to it is never below `v`.
  /// @code
  /// auto lo = netcc::fixed_point<31, 32>::from_double_up(0.001);   // >= 0.001
  /// @endcode
  [[nodiscard]] static constexpr fixed_point from_double_up(double v) noexcept {
    return from_raw(from_double_directed(v, true));
  }
  /// @brief The largest value not above `v` (rounded toward -infinity), saturating; NaN gives
  /// 0. Use it for an upper bound, so a value clamped to it is never above `v`.
  /// @code
  /// auto hi = netcc::fixed_point<31, 32>::from_double_down(10.05);  // <= 10.05
  /// @endcode
  [[nodiscard]] static constexpr fixed_point from_double_down(double v) noexcept {
    return from_raw(from_double_directed(v, false));
  }

  /// @brief Build from a raw scaled integer (clamped into range).
  [[nodiscard]] static constexpr fixed_point from_raw(rep r) noexcept {
    fixed_point f;
    f.raw_ = clamp(r);
    return f;
  }
  /// @brief The largest value.
  [[nodiscard]] static constexpr fixed_point max() noexcept { return from_raw(raw_max); }
  /// @brief The smallest (most negative) value.
  [[nodiscard]] static constexpr fixed_point lowest() noexcept { return from_raw(-raw_max); }
  /// @brief The resolution, 2^-FracBits.
  [[nodiscard]] static constexpr fixed_point epsilon() noexcept { return from_raw(1); }

  /// @brief The raw scaled integer.
  [[nodiscard]] constexpr rep raw() const noexcept { return raw_; }
  /// @brief The value as a double (exact when 1 + IntBits + FracBits <= 53).
  [[nodiscard]] constexpr double to_double() const noexcept {
    return static_cast<double>(raw_) / static_cast<double>(raw_one);
  }
  /// @brief The value truncated toward zero to an integer.
  [[nodiscard]] constexpr rep to_int() const noexcept { return raw_ / raw_one; }

  /// @brief Saturating sum.
  [[nodiscard]] friend constexpr fixed_point operator+(fixed_point a, fixed_point b) noexcept {
    rep s = 0;
    if (!__builtin_add_overflow(a.raw_, b.raw_, &s)) return from_raw(s);
    return a.raw_ > 0 ? max() : lowest();  // both of one sign, beyond int64
  }
  /// @brief Saturating difference.
  [[nodiscard]] friend constexpr fixed_point operator-(fixed_point a, fixed_point b) noexcept {
    rep s = 0;
    if (!__builtin_sub_overflow(a.raw_, b.raw_, &s)) return from_raw(s);
    return a.raw_ > 0 ? max() : lowest();  // a and -b of one sign, beyond int64
  }
  /// @brief Negation (exact: the range is symmetric).
  [[nodiscard]] friend constexpr fixed_point operator-(fixed_point a) noexcept {
    return from_raw(-a.raw_);
  }
  /// @brief Saturating product, rounded to nearest (ties away from zero). The division by
  /// 2^FracBits is a rounding shift of the magnitude: the same value as a 128-bit division,
  /// without the library call a compiler emits for one. A product of raw values that fits 64
  /// bits (the common case: a window or rate times a factor below one) is rounded in 64 bits,
  /// with the same result as the 128-bit path.
  [[nodiscard]] friend constexpr fixed_point operator*(fixed_point a, fixed_point b) noexcept {
    if constexpr (FracBits > 0) {
      rep p64 = 0;
      if (!__builtin_mul_overflow(a.raw_, b.raw_, &p64)) {
        // |p64| as unsigned (exact also for INT64_MIN), rounded shift, sign back.
        const std::uint64_t sign = p64 < 0 ? ~std::uint64_t{0} : 0;
        const std::uint64_t m = (static_cast<std::uint64_t>(p64) ^ sign) - sign;
        const std::uint64_t q = (m >> FracBits) + ((m >> (FracBits - 1)) & 1);  // <= 2^63
        return from_raw(static_cast<rep>((q ^ sign) - sign));
      }
    }
    const detail::i128 p = detail::i128{a.raw_} * b.raw_;  // |p| <= 2^126
    if constexpr (FracBits == 0) {
      return from_raw128(p);
    } else {
      const detail::u128 m =
          p < 0 ? detail::u128{0} - static_cast<detail::u128>(p) : static_cast<detail::u128>(p);
      const auto q =
          static_cast<detail::i128>((m + (detail::u128{1} << (FracBits - 1))) >> FracBits);
      return from_raw128(p < 0 ? -q : q);
    }
  }
  /// @brief Saturating quotient, rounded to nearest; x/0 saturates with the sign of x.
  [[nodiscard]] friend constexpr fixed_point operator/(fixed_point a, fixed_point b) noexcept {
    if (b.raw_ == 0) return a.raw_ > 0 ? max() : (a.raw_ < 0 ? lowest() : fixed_point{});
    return from_raw128(detail::div_nearest(detail::i128{a.raw_} * raw_one, b.raw_));
  }
  /// @brief `*this = *this + b`.
  constexpr fixed_point& operator+=(fixed_point b) noexcept { return *this = *this + b; }
  /// @brief `*this = *this - b`.
  constexpr fixed_point& operator-=(fixed_point b) noexcept { return *this = *this - b; }
  /// @brief `*this = *this * b`.
  constexpr fixed_point& operator*=(fixed_point b) noexcept { return *this = *this * b; }
  /// @brief `*this = *this / b`.
  constexpr fixed_point& operator/=(fixed_point b) noexcept { return *this = *this / b; }

  /// @brief Equality of raw values.
  friend constexpr bool operator==(fixed_point, fixed_point) noexcept = default;
  /// @brief Ordering of raw values.
  friend constexpr std::strong_ordering operator<=>(fixed_point, fixed_point) noexcept = default;

 private:
  static constexpr rep clamp(detail::i128 v) noexcept {
    return static_cast<rep>(v > raw_max ? raw_max : (v < -raw_max ? -raw_max : v));
  }
  static constexpr fixed_point from_raw128(detail::i128 v) noexcept {
    fixed_point f;
    f.raw_ = clamp(v);
    return f;
  }
  static constexpr rep from_double(double v) noexcept {
    if (v != v) return 0;  // NaN
    const double scaled = v * static_cast<double>(raw_one);
    const double lim = static_cast<double>(raw_max);
    if (scaled >= lim) return raw_max;
    if (scaled <= -lim) return -raw_max;
    return static_cast<rep>(scaled < 0 ? scaled - 0.5 : scaled + 0.5);
  }

  // v * 2^F rounded up or down. The scaling by a power of two is exact; below 2^53 the
  // truncated integer is exact as a double, and at or above it the scaled value is already an
  // integer, so the comparison that corrects the truncation is exact too.
  static constexpr rep from_double_directed(double v, bool up) noexcept {
    if (v != v) return 0;  // NaN
    const double scaled = v * static_cast<double>(raw_one);
    const double lim = static_cast<double>(raw_max);
    if (scaled >= lim) return raw_max;
    if (scaled <= -lim) return -raw_max;
    rep t = static_cast<rep>(scaled);  // toward zero
    if (up && static_cast<double>(t) < scaled) ++t;
    if (!up && static_cast<double>(t) > scaled) --t;
    return t;
  }

  rep raw_ = 0;
};

/// @brief The arithmetic policies; see the table in core/arith.hpp.
namespace arith {

/// @brief IEEE-754 double arithmetic: the default policy.
struct ieee_double {
  /// @brief The number type controllers compute in.
  using value_type = double;
};

/// @brief Saturating fixed-point arithmetic with I integer and F fraction bits.
template <int I, int F>
struct fixed {
  /// @brief The number type controllers compute in.
  using value_type = fixed_point<I, F>;
};

/// @brief Recommended fixed-point policy: 31 integer bits, 32 fraction bits.
using q32 = fixed<31, 32>;

}  // namespace arith

/// @brief Operations every arithmetic value type supports, so control laws are written once.
///
/// Specialised for `double` and for every netcc::fixed_point. A user's own number type can be
/// used by specialising it.
/// @code
/// using nt = netcc::number_traits<double>;
/// double x = nt::from_double(0.5);
/// @endcode
template <class T>
struct number_traits;

/// @brief number_traits for IEEE double.
template <>
struct number_traits<double> {
  /// @brief Convert from double (identity).
  [[nodiscard]] static constexpr double from_double(double v) noexcept { return v; }
  /// @brief Convert to double (identity).
  [[nodiscard]] static constexpr double to_double(double v) noexcept { return v; }
  /// @brief An integer as double.
  [[nodiscard]] static constexpr double from_int(std::int64_t v) noexcept {
    return static_cast<double>(v);
  }
  /// @brief n / d; d == 0 gives +-max() (0 for 0/0), never infinity or NaN.
  [[nodiscard]] static constexpr double ratio(std::int64_t n, std::int64_t d) noexcept {
    if (d == 0) return n > 0 ? max() : (n < 0 ? -max() : 0.0);
    return static_cast<double>(n) / static_cast<double>(d);
  }
  /// @brief A lower bound from double: `v` itself (double is the reference arithmetic).
  [[nodiscard]] static constexpr double from_double_up(double v) noexcept { return v; }
  /// @brief An upper bound from double: `v` itself.
  [[nodiscard]] static constexpr double from_double_down(double v) noexcept { return v; }
  /// @brief A lower bound n / d: as ratio() (double is the reference arithmetic).
  [[nodiscard]] static constexpr double ratio_up(std::int64_t n, std::int64_t d) noexcept {
    return ratio(n, d);
  }
  /// @brief An upper bound n / d: as ratio().
  [[nodiscard]] static constexpr double ratio_down(std::int64_t n, std::int64_t d) noexcept {
    return ratio(n, d);
  }
  /// @brief Largest finite value.
  [[nodiscard]] static constexpr double max() noexcept {
    return std::numeric_limits<double>::max();
  }
  /// @brief True unless NaN or infinite.
  [[nodiscard]] static constexpr bool is_finite(double v) noexcept {
    return v == v && v <= max() && v >= -max();
  }
};

/// @brief number_traits for netcc::fixed_point (always finite).
template <int I, int F>
struct number_traits<fixed_point<I, F>> {
  /// @brief Convert from double (rounded, saturating).
  [[nodiscard]] static constexpr fixed_point<I, F> from_double(double v) noexcept {
    return fixed_point<I, F>{v};
  }
  /// @brief Convert to double.
  [[nodiscard]] static constexpr double to_double(fixed_point<I, F> v) noexcept {
    return v.to_double();
  }
  /// @brief An integer, saturating.
  [[nodiscard]] static constexpr fixed_point<I, F> from_int(std::int64_t v) noexcept {
    return fixed_point<I, F>{v};
  }
  /// @brief n / d computed in integers (no floating point), rounded to nearest, saturating;
  /// d == 0 saturates with the sign of n (0/0 = 0).
  [[nodiscard]] static constexpr fixed_point<I, F> ratio(std::int64_t n, std::int64_t d) noexcept {
    using fp = fixed_point<I, F>;
    if (d == 0) return n > 0 ? fp::max() : (n < 0 ? fp::lowest() : fp{});
    const detail::i128 q = detail::div_nearest(detail::i128{n} * fp::raw_one, d);
    const detail::i128 lim = fp::raw_max;
    return fp::from_raw(static_cast<std::int64_t>(q > lim ? lim : (q < -lim ? -lim : q)));
  }
  /// @brief A lower bound from double: rounded up (toward +infinity), saturating.
  [[nodiscard]] static constexpr fixed_point<I, F> from_double_up(double v) noexcept {
    return fixed_point<I, F>::from_double_up(v);
  }
  /// @brief An upper bound from double: rounded down (toward -infinity), saturating.
  [[nodiscard]] static constexpr fixed_point<I, F> from_double_down(double v) noexcept {
    return fixed_point<I, F>::from_double_down(v);
  }
  /// @brief A lower bound n / d in integers, rounded up, saturating; d == 0 as ratio().
  [[nodiscard]] static constexpr fixed_point<I, F> ratio_up(std::int64_t n,
                                                            std::int64_t d) noexcept {
    if (d == 0) return ratio(n, d);
    return saturate(detail::div_ceil(detail::i128{n} * fixed_point<I, F>::raw_one, d));
  }
  /// @brief An upper bound n / d in integers, rounded down, saturating; d == 0 as ratio().
  [[nodiscard]] static constexpr fixed_point<I, F> ratio_down(std::int64_t n,
                                                              std::int64_t d) noexcept {
    if (d == 0) return ratio(n, d);
    return saturate(detail::div_floor(detail::i128{n} * fixed_point<I, F>::raw_one, d));
  }
  /// @brief Largest value.
  [[nodiscard]] static constexpr fixed_point<I, F> max() noexcept {
    return fixed_point<I, F>::max();
  }
  /// @brief Always true: a fixed-point value is never NaN or infinite.
  [[nodiscard]] static constexpr bool is_finite(fixed_point<I, F>) noexcept { return true; }

 private:
  static constexpr fixed_point<I, F> saturate(detail::i128 q) noexcept {
    const detail::i128 lim = fixed_point<I, F>::raw_max;
    return fixed_point<I, F>::from_raw(
        static_cast<std::int64_t>(q > lim ? lim : (q < -lim ? -lim : q)));
  }
};

/// @brief A number type usable in a control law: closed under + - * /, ordered, and with
/// number_traits.
template <class T>
concept Number = std::regular<T> && std::totally_ordered<T> && requires(T a, T b, double d) {
  { a + b } -> std::same_as<T>;
  { a - b } -> std::same_as<T>;
  { a* b } -> std::same_as<T>;
  { a / b } -> std::same_as<T>;
  { number_traits<T>::from_double(d) } -> std::same_as<T>;
  { number_traits<T>::to_double(a) } -> std::same_as<double>;
  { number_traits<T>::from_int(std::int64_t{}) } -> std::same_as<T>;
  { number_traits<T>::ratio(std::int64_t{}, std::int64_t{}) } -> std::same_as<T>;
};

/// @brief An arithmetic policy: a type naming its Number as `value_type`.
template <class P>
concept ArithmeticPolicy = Number<typename P::value_type>;

/// @brief Shorthand: a compile-time-convertible constant of number type T.
/// @code
/// auto g = netcc::num<netcc::fixed_point<31, 32>>(0.9);
/// @endcode
template <Number T>
[[nodiscard]] constexpr T num(double v) noexcept {
  return number_traits<T>::from_double(v);
}

/// @brief n / d in number type T, without floating point for fixed-point T; total.
/// @code
/// auto w = netcc::ratio<netcc::fixed_point<31, 32>>(3, 4);   // 0.75
/// @endcode
template <Number T>
[[nodiscard]] constexpr T ratio(std::int64_t n, std::int64_t d) noexcept {
  return number_traits<T>::ratio(n, d);
}

namespace detail {

/// @brief A divisor d >= 1 with its Granlund-Montgomery multiplier for 64-bit dividends: exact
/// floor(n / d) and n / d rounded to nearest (ties up) by one 64 x 64 -> 128-bit product, two
/// shifts and two additions, no division instruction (cheaper than invariant_divisor, whose
/// dividends are 128-bit). Torbjörn Granlund and Peter L. Montgomery, "Division by invariant
/// integers using multiplication", PLDI 1994, Figure 4.1 with N = 64: l = ceil(log2 d),
/// m' = floor(2^64 (2^l - d) / d) + 1, t = mulhi(m', n),
/// floor(n / d) = (t + ((n - t) >> min(l, 1))) >> max(l - 1, 0), exact for every n < 2^64.
/// @code
/// constexpr netcc::detail::divisor_u64 d{1460};
/// static_assert(d.div_floor(1'000'000) == 684 && d.div_nearest(2190) == 2);
/// @endcode
class divisor_u64 {
 public:
  /// @brief No divisor (divisor() == 0): a marker for "use another path".
  constexpr divisor_u64() noexcept = default;
  /// @brief Divisor `d` (0 is taken as 1). Builds m' with one 128-bit division, once.
  constexpr explicit divisor_u64(std::uint64_t d) noexcept : d_(d == 0 ? 1 : d) {
    const int l = std::bit_width(d_ - 1);
    m_ = static_cast<std::uint64_t>((((u128{1} << l) - d_) << 64) / d_) + 1;
    sh1_ = l < 1 ? l : 1;
    sh2_ = l > 1 ? l - 1 : 0;
  }
  /// @brief The divisor (0 for the default-constructed marker).
  [[nodiscard]] constexpr std::uint64_t divisor() const noexcept { return d_; }
  /// @brief floor(n / d), exact for any n.
  [[nodiscard]] constexpr std::uint64_t div_floor(std::uint64_t n) const noexcept {
    const auto t = static_cast<std::uint64_t>((u128{m_} * n) >> 64);
    return (t + ((n - t) >> sh1_)) >> sh2_;
  }
  /// @brief n / d rounded to nearest, ties up: floor((n + floor(d / 2)) / d); requires
  /// n + d / 2 < 2^64.
  [[nodiscard]] constexpr std::uint64_t div_nearest(std::uint64_t n) const noexcept {
    return div_floor(n + d_ / 2);
  }

 private:
  std::uint64_t d_ = 0;
  std::uint64_t m_ = 1;
  int sh1_ = 0;
  int sh2_ = 0;
};

/// @brief A divisor d in [1, 2^63] with a multiplier for dividends below 2^63: floor(n / d) by
/// one 64 x 64 -> 128-bit product and one shift, no division instruction and two fewer steps
/// than divisor_u64 (whose dividends may use all 64 bits). Granlund and Montgomery (PLDI 1994,
/// Theorem 4.2 with N = 63). With l = ceil(log2 d) and
/// m = ceil(2^(63 + l) / d) (below 2^64, as d > 2^(l - 1)), floor(n / d) = floor(m 2n /
/// 2^(64 + l)) for every n < 2^63: m = 2^(63 + l) / d + e with 0 <= e < 1 gives
/// n m / 2^(63 + l) = n / d + n e / 2^(63 + l), the added term below 2^-l <= 1 / d, and n / d's
/// fraction at most (d - 1) / d, so the floor is floor(n / d).
/// @code
/// constexpr netcc::detail::divisor_u63 d{20'000};
/// static_assert(d.div_floor(1'000'000) == 50 && d.div_nearest(30'000) == 2);
/// @endcode
class divisor_u63 {
 public:
  /// @brief No divisor (divisor() == 0): a marker for "use another path".
  constexpr divisor_u63() noexcept = default;
  /// @brief Divisor `d`: 0 is taken as 1, and above 2^63 as 2^63 (the range the multiplier
  /// serves). Builds m with one 128-bit division, once.
  constexpr explicit divisor_u63(std::uint64_t d) noexcept
      : d_(d == 0 ? 1 : (d > (std::uint64_t{1} << 63) ? std::uint64_t{1} << 63 : d)) {
    sh_ = std::bit_width(d_ - 1);  // ceil(log2 d), in [0, 63]
    m_ = static_cast<std::uint64_t>(((u128{1} << (63 + sh_)) + (d_ - 1)) / d_);
  }
  /// @brief The divisor (0 for the default-constructed marker).
  [[nodiscard]] constexpr std::uint64_t divisor() const noexcept { return d_; }
  /// @brief floor(n / d) for n < 2^63.
  [[nodiscard, gnu::always_inline]] constexpr std::uint64_t div_floor(
      std::uint64_t n) const noexcept {
    return static_cast<std::uint64_t>((u128{m_} * (n << 1)) >> 64) >> sh_;
  }
  /// @brief n / d rounded to nearest, ties up: floor((n + floor(d / 2)) / d); requires
  /// n + d / 2 < 2^63.
  [[nodiscard, gnu::always_inline]] constexpr std::uint64_t div_nearest(
      std::uint64_t n) const noexcept {
    return div_floor(n + d_ / 2);
  }

 private:
  std::uint64_t d_ = 0;
  std::uint64_t m_ = 0;
  int sh_ = 0;
};

/// The two 64-bit halves of x 2^S + a, for any 64-bit x and a and 0 <= S < 64: the low half is
/// (x 2^S mod 2^64) + a mod 2^64, the high half floor(x / 2^(64 - S)) (0 for S = 0) plus that
/// sum's carry.
/// x 2^S + a <= (2^64 - 1) 2^S + 2^64 - 1 < 2^128, so the halves are those of the 128-bit
/// expression (u128{x} << S) + a, which cannot wrap. The rounded dividends of the fixed-point
/// quotients (x 2^F + floor(d / 2)) are built so for udiv_128_64(hi, lo, d).
struct u128_halves {
  std::uint64_t hi = 0;
  std::uint64_t lo = 0;
};
template <int S>
[[nodiscard, gnu::always_inline]] constexpr u128_halves shl_add_halves(std::uint64_t x,
                                                                       std::uint64_t a) noexcept {
  static_assert(S >= 0 && S < 64);
  const std::uint64_t lo = (x << S) + a;
  const std::uint64_t carry = lo < a ? 1 : 0;  // the low half's sum wrapped
  if constexpr (S == 0) {
    return {carry, lo};
  } else {
    return {(x >> (64 - S)) + carry, lo};
  }
}

/// True for netcc::fixed_point's specialisations.
template <class T>
inline constexpr bool is_fixed_point = false;
template <int I, int F>
inline constexpr bool is_fixed_point<fixed_point<I, F>> = true;

/// T::from_raw(r) for an r its caller proves in [-raw_max, raw_max], where from_raw's clamp is
/// the identity: for netcc::fixed_point (one signed 64-bit raw integer, trivially copyable) its
/// bits without the clamp's compare (g++ keeps the compare where it cannot see the range); for
/// other number types, from_raw itself. Each caller states why r is in range.
template <Number T>
[[nodiscard, gnu::always_inline]] constexpr T raw_in_range(std::int64_t r) noexcept {
  if constexpr (is_fixed_point<T>) {
    static_assert(sizeof(T) == sizeof(std::int64_t) && std::is_trivially_copyable_v<T>);
    return std::bit_cast<T>(r);
  } else {
    return T::from_raw(r);
  }
}

}  // namespace detail

/// @brief n / d as netcc::ratio, for a divisor d >= 1 held as a netcc::detail::invariant_divisor
/// (a configuration value divided by on every event). Fixed point: the same value as ratio(n,
/// d), bit for bit (n 2^F / d rounded to nearest, ties away from zero, saturating), through the
/// divisor's reciprocal instead of a 128-bit division whenever the quotient fits 64 bits (else
/// through ratio). Other number types: ratio(n, d).
/// @code
/// constexpr netcc::detail::invariant_divisor us{1000};
/// auto t = netcc::ratio_by<netcc::fixed_point<31, 32>>(1500, us);   // 1.5
/// @endcode
template <Number T>
[[nodiscard]] constexpr T ratio_by(std::int64_t n, const detail::invariant_divisor& d) noexcept {
  const auto dd = static_cast<std::int64_t>(d.divisor());
  if constexpr (requires {
                  T::fraction_bits;
                  T::raw_max;
                  T::from_raw(std::int64_t{});
                }) {
    if (dd <= 0) return number_traits<T>::ratio(n, dd);  // beyond int64: not a divisor here
    if (T::fraction_bits < 63 && n >= 0 && n < (std::int64_t{1} << (63 - T::fraction_bits))) {
      // n 2^F < 2^63 and d / 2 < 2^62: the rounded dividend fits 64 bits, the quotient (at most
      // n 2^F) the number type; the 64-bit reciprocal path.
      const std::uint64_t x = static_cast<std::uint64_t>(n) << T::fraction_bits;
      const std::uint64_t q = d.div_floor64(x + d.divisor() / 2);
      if (q <= static_cast<std::uint64_t>(T::raw_max))
        return T::from_raw(static_cast<std::int64_t>(q));
    }
    const bool neg = n < 0;
    const detail::u128 mag = neg ? detail::u128{0} - static_cast<detail::u128>(detail::i128{n})
                                 : static_cast<detail::u128>(n);
    const detail::u128 x = mag << T::fraction_bits;  // < 2^(64 + F)
    if (!d.fits(x + d.divisor() / 2)) return number_traits<T>::ratio(n, dd);
    std::uint64_t q = d.div_nearest(x);
    if (q > static_cast<std::uint64_t>(T::raw_max)) q = static_cast<std::uint64_t>(T::raw_max);
    const auto r = static_cast<std::int64_t>(q);
    return T::from_raw(neg ? -r : r);
  } else {
    return number_traits<T>::ratio(n, dd);
  }
}

/// @brief n / d as netcc::ratio for a divisor that changes from call to call (an RTT, a
/// window): fixed point builds the divisor's reciprocal without a division
/// (netcc::detail::reciprocal_word) and divides through it, the same value as ratio(n, d) bit
/// for bit; d <= 0, other number types: ratio(n, d).
/// @code
/// auto f = netcc::ratio_recip<netcc::fixed_point<31, 32>>(450'000, 600'000);   // 0.75
/// @endcode
template <Number T>
[[nodiscard]] constexpr T ratio_recip(std::int64_t n, std::int64_t d) noexcept {
  if constexpr (requires { T::fraction_bits; }) {
    if (d <= 0) return number_traits<T>::ratio(n, d);
    return ratio_by<T>(n, detail::invariant_divisor{static_cast<std::uint64_t>(d)});
  } else {
    return number_traits<T>::ratio(n, d);
  }
}

/// @brief a / b for a >= 0 and b > 0, as operator/ (fixed point: the same value bit for bit,
/// rounded to nearest and saturating), through a reciprocal of b built without a division
/// (netcc::detail::reciprocal_word) for fixed point; other cases and number types: a / b.
/// @code
/// using q = netcc::fixed_point<31, 32>;
/// auto r = netcc::div_recip(q{1}, q{8});   // 0.125
/// @endcode
template <Number T>
[[nodiscard]] constexpr T div_recip(T a, T b) noexcept {
  if constexpr (requires {
                  T::fraction_bits;
                  T::raw_max;
                  T::from_raw(std::int64_t{});
                }) {
    if (a.raw() < 0 || b.raw() <= 0) return a / b;
    const detail::invariant_divisor d{static_cast<std::uint64_t>(b.raw())};
    const detail::u128 x = detail::u128{static_cast<std::uint64_t>(a.raw())} << T::fraction_bits;
    if (!d.fits(x + d.divisor() / 2)) return a / b;
    const std::uint64_t q = d.div_nearest(x);
    return T::from_raw(q > static_cast<std::uint64_t>(T::raw_max) ? T::raw_max
                                                                  : static_cast<std::int64_t>(q));
  } else {
    return a / b;
  }
}

/// @brief a * b for a >= 0 and b >= 0, as operator* (fixed point: the same value bit for bit,
/// rounded to nearest and saturating) through one unsigned 64 x 64 -> 128-bit product and a
/// rounding shift, without operator*'s sign handling and 64-bit overflow test (a rate times a
/// factor in [0, 1] overflows 64 bits in q32 and would take its slower 128-bit path). A negative
/// operand, other number types: a * b.
/// @code
/// using q = netcc::fixed_point<31, 32>;
/// auto r = netcc::mul_nonneg(q{5000}, q{0.75});   // 3750
/// @endcode
template <Number T>
[[nodiscard]] constexpr T mul_nonneg(T a, T b) noexcept {
  if constexpr (requires {
                  T::fraction_bits;
                  T::raw_max;
                  T::from_raw(std::int64_t{});
                }) {
    if (a.raw() < 0 || b.raw() < 0) return a * b;
    const detail::u128 p =
        detail::u128{static_cast<std::uint64_t>(a.raw())} * static_cast<std::uint64_t>(b.raw());
    detail::u128 q = p;
    if constexpr (T::fraction_bits > 0)
      q = (p + (detail::u128{1} << (T::fraction_bits - 1))) >> T::fraction_bits;
    return T::from_raw(q > static_cast<detail::u128>(T::raw_max) ? T::raw_max
                                                                 : static_cast<std::int64_t>(q));
  } else {
    return a * b;
  }
}

/// @brief `v` as a lower bound in number type T: the smallest T not below `v` (fixed point:
/// rounded toward +infinity, saturating). A value clamped to it honours the bound exactly.
/// Number types whose traits lack `from_double_up` convert as netcc::num.
/// @code
/// auto lo = netcc::num_up<netcc::fixed_point<31, 32>>(0.001);
/// static_assert(netcc::num_up<netcc::fixed_point<31, 32>>(0.001).to_double() >= 0.001);
/// @endcode
template <Number T>
[[nodiscard]] constexpr T num_up(double v) noexcept {
  if constexpr (requires { number_traits<T>::from_double_up(v); }) {
    return number_traits<T>::from_double_up(v);
  } else {
    return number_traits<T>::from_double(v);
  }
}

/// @brief `v` as an upper bound in number type T: the largest T not above `v` (fixed point:
/// rounded toward -infinity, saturating). Number types whose traits lack `from_double_down`
/// convert as netcc::num.
/// @code
/// static_assert(netcc::num_down<netcc::fixed_point<31, 32>>(10.05).to_double() <= 10.05);
/// @endcode
template <Number T>
[[nodiscard]] constexpr T num_down(double v) noexcept {
  if constexpr (requires { number_traits<T>::from_double_down(v); }) {
    return number_traits<T>::from_double_down(v);
  } else {
    return number_traits<T>::from_double(v);
  }
}

/// @brief n / d as a lower bound in number type T (fixed point: rounded toward +infinity, in
/// integers); d == 0 as netcc::ratio. Number types whose traits lack `ratio_up` use ratio().
/// @code
/// auto min_mbps = netcc::ratio_up<netcc::fixed_point<31, 32>>(1, 1'000'000);   // >= 1e-6
/// @endcode
template <Number T>
[[nodiscard]] constexpr T ratio_up(std::int64_t n, std::int64_t d) noexcept {
  if constexpr (requires { number_traits<T>::ratio_up(n, d); }) {
    return number_traits<T>::ratio_up(n, d);
  } else {
    return number_traits<T>::ratio(n, d);
  }
}

/// @brief n / d as an upper bound in number type T (fixed point: rounded toward -infinity, in
/// integers); d == 0 as netcc::ratio. Number types whose traits lack `ratio_down` use ratio().
/// @code
/// auto max_mbps = netcc::ratio_down<netcc::fixed_point<31, 32>>(7, 1'000'000);  // <= 7e-6
/// @endcode
template <Number T>
[[nodiscard]] constexpr T ratio_down(std::int64_t n, std::int64_t d) noexcept {
  if constexpr (requires { number_traits<T>::ratio_down(n, d); }) {
    return number_traits<T>::ratio_down(n, d);
  } else {
    return number_traits<T>::ratio(n, d);
  }
}

/// @brief A number as double.
template <Number T>
[[nodiscard]] constexpr double to_double(T v) noexcept {
  return number_traits<T>::to_double(v);
}

/// @brief Clamp `v` into [lo, hi] (hi wins if lo > hi); NaN maps to lo.
template <Number T>
[[nodiscard]] constexpr T clamp_num(T v, T lo, T hi) noexcept {
  if (!(v >= lo)) v = lo;  // also catches NaN
  if (v > hi) v = hi;
  return v;
}

static_assert(ArithmeticPolicy<arith::ieee_double>);
static_assert(ArithmeticPolicy<arith::q32>);

}  // namespace netcc
