// SPDX-License-Identifier: MIT
/// @file
/// @brief Piecewise-linear curves with jumps for the min-plus network calculus: exact
/// (netcc::calculus::rational) or IEEE double numbers, a canonical representation, standard
/// shapes, evaluation with left and right limits, and the pointwise operations (+, -, min, max,
/// shifts, the seed's change of coordinates).
///
/// Paper: Harvinder Lehal, Natchanon Luangsomboon, Jörg Liebeherr, "Network Calculus
/// Characterization of Congestion Control for Time-Varying Traffic" (network-calculus seed,
/// `seeds/003_7857f230e87c9d73.txt`), §II, with the min-plus algebra of its references [25]
/// (Le Boudec, Thiran, "Network Calculus", 2001, §3.1) and [27] (Bouillard, Boyer, Le Corronc,
/// "Deterministic Network Calculus", 2018). The min-plus operations on these curves
/// (convolution, deconvolution, pseudo-inverses, composition, delay and backlog bounds) are in
/// netcc/calculus/minplus.hpp.
///
/// What a curve is (seed §II)
/// - A function f of time t >= 0. The seed's traffic functions A, D and service curves S are
///   non-negative, non-decreasing and left-continuous, with A(t) the traffic in [0, t) and
///   A(t) = D(t) = S(t) = 0 for t <= 0. netcc represents a wider class so that every operation
///   of the calculus stays inside it: any piecewise-linear function with finitely many
///   breakpoints, with jumps, arbitrary values at the breakpoints, and the value +infinity
///   (the pure-delay curve delta_T of a bounded-delay element is 0 on [0, T] and +infinity
///   after). Whether a curve is non-decreasing, left-continuous, concave or convex is a checked
///   property (basic_curve::is_non_decreasing() and friends); the operations that need one
///   check it and flag a curve_error::precondition result otherwise.
/// - Representation: breakpoints 0 = t_0 < t_1 < ... < t_{n-1}; at each, the value f(t_i), the
///   right limit f(t_i+) (so a jump is right - value, and a left-continuous curve has its jumps
///   there), and the slope on the open segment (t_i, t_{i+1}); the last segment extends to
///   infinity. The left limit f(t_i-) is the previous segment's end. A right limit of +infinity
///   makes the whole following segment +infinity (its slope is stored as 0).
/// - For t < 0 a curve is constant f(0), which is the seed's convention A(t) = 0 for t <= 0 for
///   its curves (all have f(0) = 0) and makes shift_right(f, T) equal f(t - T).
/// - Canonical form: a breakpoint is dropped when the curve is affine through it (left limit =
///   value = right limit, same slope on both sides) or +infinity on both sides. Every curve is
///   built through this form, so two exact curves are equal functions iff they compare equal
///   with ==. Each breakpoint's left limit is checked to be representable when it is built.
///
/// Numbers (template parameter, netcc::calculus::curve_number traits)
/// | number type                  | alias                      | use it when |
/// | ---------------------------- | -------------------------- | ----------- |
/// | netcc::calculus::rational    | netcc::calculus::curve     | the default: exact results, == is equality of functions; an overflow of int64 numerators/denominators makes the result invalid (curve_error::overflow), never silently wrong |
/// | double                       | netcc::calculus::double_curve | large curves or benchmarks where speed matters more than exactness; results are correct up to rounding, a non-finite intermediate makes the result invalid (curve_error::overflow); equality is only exact up to rounding |
/// | netcc::calculus::wide_rational | netcc::calculus::wide_curve | exact with 128-bit numerators/denominators (256-bit intermediates), a few times slower: intermediate values that do not fit int64; curve_cast converts from and (checked) back to rational |
///
/// Errors: no operation throws for bad input (allocation failure throws std::bad_alloc as
/// usual). An invalid curve (valid() == false) has no breakpoints and names its
/// netcc::calculus::curve_error; every operation on an invalid curve returns an invalid curve
/// with the first operand's error, and evaluation of an invalid curve or at a bad point returns
/// an invalid extended value (extended::valid() == false).
///
/// Standard shapes (static members of netcc::calculus::basic_curve): rate R t (§II, an egress
/// port), rate-latency R (t - T)+, token bucket b + r t for t > 0 and 0 at 0 (§II),
/// pure delay delta_T, the window step S_W of seed §III-D (Eq. 5), a left-continuous
/// staircase, the packetiser x -> L floor(x / L) of the seed's ACK function (§III-B a),
/// affine, constant, +infinity, and curves from sampled data (linear or step interpolation).
///
/// Decisions the seed leaves open (and netcc's choices)
/// - Curves are unit-free numbers. The seed's units (bytes and seconds) are the caller's; with
///   time in ns and data in bytes, a link rate of C bit/s is the exact rational C / 8e9.
/// - The staircase and the packetiser are finite (a curve has finitely many breakpoints): they
///   are exact up to a number of steps the caller chooses and constant after it.
/// - The seed's coordinate shift of §III-C (A^rem(t) = A(t + t_TO) - D(t_TO - dR) with
///   A^rem(t) = 0 for t <= 0) is netcc::calculus::rebase; its update of the original functions
///   for t >= t_TO is netcc::calculus::splice.
///
/// Complexity (n, m breakpoints): evaluation O(log n); +, -, min, max O(n + m); shifts,
/// rebase, splice, shift_up O(n); canonical construction O(n); property checks O(n).
///
/// @code
/// using netcc::calculus::curve;
/// using netcc::calculus::rational;
/// const curve beta = curve::rate_latency(rational{10}, rational{2});   // 10 (t - 2)+
/// const curve alpha = curve::token_bucket(rational{3}, rational{5});   // 5 + 3 t, t > 0
/// const curve lo = min(alpha, beta);
/// auto v = lo(rational{3});               // min(14, 10) = 10
/// bool ok = lo.valid() && lo.is_non_decreasing();
/// @endcode
#pragma once

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "netcc/calculus/rational.hpp"

namespace netcc::calculus {

/// @brief Why a curve or a scalar result is invalid.
///
/// @code
/// auto f = netcc::calculus::curve::rate(netcc::calculus::rational{-1});
/// bool bad = f.error() == netcc::calculus::curve_error::bad_argument;   // true
/// @endcode
enum class curve_error : std::uint8_t {
  none = 0,      ///< valid
  overflow,      ///< an exact number overflowed int64, or a double became non-finite
  bad_argument,  ///< a parameter out of range (negative rate or time, NaN, unsorted samples)
  precondition,  ///< an input lacks a property the operation requires (e.g. non-decreasing)
  undefined,     ///< the result is not representable (-infinity, infinity - infinity)
};

/// @brief Number traits for curve arithmetic; specialised for double and
/// netcc::calculus::rational (a user type may specialise it too).
///
/// Members: `exact` (comparisons and arithmetic are exact), `native_infinity` (T has a
/// +infinity of its own, returned by `infinity()`), `from_int`, `ratio(n, d)`,
/// `good(x)` (x is a valid finite number), `invalid()` (a number with good() == false),
/// `to_double`, `mag(x)` (|x|) and `le_rounded(a, b, scale)` (a <= b, up to rounding for
/// inexact numbers whose operands have magnitude `scale`).
/// @code
/// using nt = netcc::calculus::curve_number<netcc::calculus::rational>;
/// auto half = nt::ratio(1, 2);
/// bool ok = nt::good(half);   // true
/// @endcode
template <class T>
struct curve_number;

/// @brief curve_number for IEEE double: inexact; non-finite values are not good.
template <>
struct curve_number<double> {
  /// @brief Arithmetic rounds.
  static constexpr bool exact = false;
  /// @brief IEEE +infinity is netcc's +infinity (netcc::calculus::extended<double> is 8 bytes).
  static constexpr bool native_infinity = true;
  /// @brief +infinity.
  static constexpr double infinity() noexcept { return std::numeric_limits<double>::infinity(); }
  /// @brief The integer v (rounded to the nearest double).
  static constexpr double from_int(std::int64_t v) noexcept { return static_cast<double>(v); }
  /// @brief n / d rounded (NaN or infinity when d == 0).
  static constexpr double ratio(std::int64_t n, std::int64_t d) noexcept {
    return static_cast<double>(n) / static_cast<double>(d);
  }
  /// @brief True for finite values.
  static bool good(double x) noexcept { return std::isfinite(x); }
  /// @brief A quiet NaN.
  static constexpr double invalid() noexcept { return std::numeric_limits<double>::quiet_NaN(); }
  /// @brief Identity.
  static constexpr double to_double(double x) noexcept { return x; }
  /// @brief |x|.
  static constexpr double mag(double x) noexcept { return x < 0 ? -x : x; }
  /// @brief a <= b up to the rounding of results whose operands have magnitude `scale`:
  /// a <= b + 64 eps scale (the property checks of a double curve use it, so that a curve that
  /// is non-decreasing, continuous or convex up to rounding passes them).
  static constexpr bool le_rounded(double a, double b, double scale) noexcept {
    return a <= b + 64.0 * std::numeric_limits<double>::epsilon() * scale;
  }
};

/// @brief curve_number for netcc::calculus::rational: exact; overflow gives the invalid state.
template <>
struct curve_number<rational> {
  /// @brief Arithmetic and comparisons are exact.
  static constexpr bool exact = true;
  /// @brief No +infinity of its own: netcc::calculus::extended<rational> carries a flag.
  static constexpr bool native_infinity = false;
  /// @brief The integer v (INT64_MIN is invalid).
  static constexpr rational from_int(std::int64_t v) noexcept { return rational{v}; }
  /// @brief n / d reduced (invalid when d == 0).
  static constexpr rational ratio(std::int64_t n, std::int64_t d) noexcept {
    return rational::of(n, d);
  }
  /// @brief True unless x is the invalid state.
  static constexpr bool good(rational x) noexcept { return x.valid(); }
  /// @brief The invalid state.
  static constexpr rational invalid() noexcept { return rational::invalid(); }
  /// @brief Nearest double.
  static constexpr double to_double(rational x) noexcept { return x.to_double(); }
  /// @brief |x|.
  static constexpr rational mag(rational x) noexcept { return x < rational{} ? -x : x; }
  /// @brief Exactly a <= b (exact numbers need no tolerance).
  static constexpr bool le_rounded(rational a, rational b, rational) noexcept { return a <= b; }
};

/// @brief curve_number for netcc::calculus::wide_rational: exact, 128-bit parts; overflow
/// gives the invalid state.
template <>
struct curve_number<wide_rational> {
  /// @brief Arithmetic and comparisons are exact.
  static constexpr bool exact = true;
  /// @brief No +infinity of its own.
  static constexpr bool native_infinity = false;
  /// @brief The integer v.
  static constexpr wide_rational from_int(std::int64_t v) noexcept { return wide_rational{v}; }
  /// @brief n / d reduced (invalid when d == 0).
  static constexpr wide_rational ratio(std::int64_t n, std::int64_t d) noexcept {
    return wide_rational::of(n, d);
  }
  /// @brief True unless x is the invalid state.
  static constexpr bool good(wide_rational x) noexcept { return x.valid(); }
  /// @brief The invalid state.
  static constexpr wide_rational invalid() noexcept { return wide_rational::invalid(); }
  /// @brief Nearest double.
  static constexpr double to_double(wide_rational x) noexcept { return x.to_double(); }
  /// @brief |x|.
  static constexpr wide_rational mag(wide_rational x) noexcept {
    return x < wide_rational{} ? -x : x;
  }
  /// @brief Exactly a <= b.
  static constexpr bool le_rounded(wide_rational a, wide_rational b, wide_rational) noexcept {
    return a <= b;
  }
};

/// @brief A number type curves can be built on: a field with exact or rounded arithmetic,
/// an order, and netcc::calculus::curve_number traits.
///
/// @code
/// static_assert(netcc::calculus::CurveNumber<double>);
/// static_assert(netcc::calculus::CurveNumber<netcc::calculus::rational>);
/// @endcode
template <class T>
concept CurveNumber = std::regular<T> && requires(T a, T b, std::int64_t i) {
  { curve_number<T>::exact } -> std::convertible_to<bool>;
  { curve_number<T>::native_infinity } -> std::convertible_to<bool>;
  { curve_number<T>::from_int(i) } -> std::same_as<T>;
  { curve_number<T>::ratio(i, i) } -> std::same_as<T>;
  { curve_number<T>::good(a) } -> std::same_as<bool>;
  { curve_number<T>::invalid() } -> std::same_as<T>;
  { curve_number<T>::to_double(a) } -> std::same_as<double>;
  { curve_number<T>::mag(a) } -> std::same_as<T>;
  { curve_number<T>::le_rounded(a, b, a) } -> std::same_as<bool>;
  { a + b } -> std::same_as<T>;
  { a - b } -> std::same_as<T>;
  { a* b } -> std::same_as<T>;
  { a / b } -> std::same_as<T>;
  { -a } -> std::same_as<T>;
  { a < b } -> std::convertible_to<bool>;
};

/// @brief A curve value: a finite number or +infinity (the value of delta_T after T, seed §II
/// service curves of bounded-delay elements).
///
/// Order: +infinity is above every number; +infinity == +infinity. The sum with +infinity is
/// +infinity. An extended holding a number that is not good (curve_number::good) is the
/// invalid value returned by evaluations that fail (valid() == false). For a number type with
/// its own +infinity (curve_number::native_infinity: double), that value is the +infinity and
/// the type has the size of the number; a finite sum that overflows is invalid (NaN), never
/// +infinity.
/// @code
/// using x = netcc::calculus::extended<double>;
/// bool b = x{3.0} < x::infinity();        // true
/// x s = x{1.0} + x::infinity();           // +infinity
/// @endcode
template <CurveNumber T>
class extended {
  using nt = curve_number<T>;
  static constexpr bool native = nt::native_infinity;
  struct no_flag {};

 public:
  /// @brief Zero.
  constexpr extended() noexcept = default;
  /// @brief The finite value v (for a native +infinity, v may be it).
  constexpr extended(T v) noexcept : v_(v) {}  // NOLINT(google-explicit-constructor)
  /// @brief +infinity.
  static constexpr extended infinity() noexcept {
    extended e;
    if constexpr (native) {
      e.v_ = nt::infinity();
    } else {
      e.inf_ = true;
    }
    return e;
  }
  /// @brief True for +infinity.
  [[nodiscard]] constexpr bool is_inf() const noexcept {
    if constexpr (native) {
      return v_ == nt::infinity();
    } else {
      return inf_;
    }
  }
  /// @brief True for a (possibly invalid) number, false for +infinity.
  [[nodiscard]] constexpr bool is_finite() const noexcept { return !is_inf(); }
  /// @brief The number (zero for +infinity).
  [[nodiscard]] constexpr T value() const noexcept { return is_inf() ? T{} : v_; }
  /// @brief +infinity, or a good number.
  [[nodiscard]] constexpr bool valid() const noexcept { return is_inf() || nt::good(v_); }
  /// @brief The value as a double (+inf for +infinity, NaN when invalid).
  [[nodiscard]] constexpr double to_double() const noexcept {
    return is_inf() ? std::numeric_limits<double>::infinity() : nt::to_double(v_);
  }
  /// @brief Equality (+infinity equals +infinity).
  friend constexpr bool operator==(const extended& a, const extended& b) noexcept {
    if constexpr (native) {
      return a.v_ == b.v_;
    } else {
      return a.inf_ == b.inf_ && (a.inf_ || a.v_ == b.v_);
    }
  }
  /// @brief Order with +infinity on top.
  friend constexpr bool operator<(const extended& a, const extended& b) noexcept {
    if constexpr (native) {
      return a.v_ < b.v_;
    } else {
      if (a.inf_) return false;
      if (b.inf_) return true;
      return a.v_ < b.v_;
    }
  }
  /// @brief Order with +infinity on top.
  friend constexpr bool operator>(const extended& a, const extended& b) noexcept { return b < a; }
  /// @brief Order with +infinity on top.
  friend constexpr bool operator<=(const extended& a, const extended& b) noexcept {
    return !(b < a);
  }
  /// @brief Order with +infinity on top.
  friend constexpr bool operator>=(const extended& a, const extended& b) noexcept {
    return !(a < b);
  }
  /// @brief Sum; +infinity absorbs; an overflow of two numbers is invalid.
  friend constexpr extended operator+(const extended& a, const extended& b) noexcept {
    if constexpr (native) {
      const T s = a.v_ + b.v_;
      if (s == nt::infinity() && !a.is_inf() && !b.is_inf()) return extended{nt::invalid()};
      return extended{s};
    } else {
      if (a.inf_ || b.inf_) return infinity();
      return extended{a.v_ + b.v_};
    }
  }

 private:
  T v_{};
  [[no_unique_address]] std::conditional_t<native, no_flag, bool> inf_{};
};

/// @brief One breakpoint of a curve: time t, value f(t), right limit f(t+), and the slope on
/// the open segment up to the next breakpoint (to infinity for the last one).
///
/// A right limit of +infinity makes the following segment +infinity; its slope is then 0.
/// @code
/// netcc::calculus::breakpoint<double> b{.t = 0.0, .value = 0.0, .right = 5.0, .slope = 3.0};
/// // with only this breakpoint: the token bucket 5 + 3 t for t > 0, 0 at 0
/// @endcode
template <CurveNumber T>
struct breakpoint {
  /// @brief Time of the breakpoint (0 for the first).
  T t{};
  /// @brief f(t).
  extended<T> value{};
  /// @brief f(t+), the right limit.
  extended<T> right{};
  /// @brief Slope on (t, next t); 0 when right is +infinity.
  T slope{};
  /// @brief Member-wise equality.
  friend constexpr bool operator==(const breakpoint&, const breakpoint&) = default;
};

/// @brief A data sample (time, value) for basic_curve::from_samples.
/// @code
/// netcc::calculus::sample<double> s{.t = 1.0, .y = 1500.0};
/// @endcode
template <CurveNumber T>
struct sample {
  /// @brief Sample time (>= 0, strictly increasing along a series).
  T t{};
  /// @brief Sample value.
  T y{};
};

/// @brief How basic_curve::from_samples joins samples.
/// @code
/// auto how = netcc::calculus::interpolation::step;
/// @endcode
enum class interpolation : std::uint8_t {
  linear,  ///< straight lines between samples (a continuous curve)
  step,    ///< left-continuous steps: 0 on [0, t_0], y_k on (t_k, t_{k+1}]
};

/// @brief The shape properties of a curve (basic_curve::shape()), each as documented on the
/// matching basic_curve::is_* member.
/// @code
/// netcc::calculus::curve_shape s{};   // all false
/// @endcode
struct curve_shape {
  bool non_decreasing = false;   ///< basic_curve::is_non_decreasing()
  bool left_continuous = false;  ///< basic_curve::is_left_continuous()
  bool finite = false;           ///< basic_curve::is_finite()
  bool concave = false;          ///< basic_curve::is_concave()
  bool convex = false;           ///< basic_curve::is_convex()
};

template <CurveNumber T>
class basic_curve;

}  // namespace netcc::calculus

namespace netcc::detail {

// Grants the construction helpers access to a curve's breakpoint vector.
struct curve_access {
  template <class T>
  static calculus::basic_curve<T> make(std::vector<calculus::breakpoint<T>>&& points,
                                       calculus::curve_error e);
  template <class T>
  static const std::vector<calculus::breakpoint<T>>& points(const calculus::basic_curve<T>& c) {
    return c.bp_;
  }
};

// Appends breakpoints in time order and keeps them canonical: a breakpoint through which the
// curve is affine (or +infinity on both sides) is dropped as soon as it is complete, a right
// limit of +infinity gets slope 0, every number is checked (curve_number::good) and so is each
// breakpoint's left limit. A second breakpoint at the same time folds into the first (its value
// stays, right limit and slope are replaced); for double, rounding can also produce a time
// below the last one, which folds the same way (for exact numbers that would be a logic error
// and is reported as curve_error::undefined). Writes either into its own vector (finish()
// makes the curve) or appends to a caller's vector (flat leaf buffers of the convolution).
template <class T>
class curve_builder {
 public:
  using bp = calculus::breakpoint<T>;
  using ext = calculus::extended<T>;
  using nt = calculus::curve_number<T>;

  curve_builder() : out_(&own_), base_(0) {}
  explicit curve_builder(std::vector<bp>& out) : out_(&out), base_(out.size()) {}
  curve_builder(const curve_builder&) = delete;
  curve_builder& operator=(const curve_builder&) = delete;

  // from_breakpoints: times must increase strictly (else bad_argument), nothing folds.
  void set_strict() noexcept { strict_ = true; }
  // The first breakpoint is at t0 instead of 0 (a piece of a curve, spliced in by the caller).
  void set_origin(T t0) noexcept { origin_ = t0; }
  [[nodiscard]] bool ok() const noexcept { return err_ == calculus::curve_error::none; }
  [[nodiscard]] calculus::curve_error error() const noexcept { return err_; }
  void fail(calculus::curve_error e) noexcept {
    if (ok()) err_ = e;
  }
  T chk(T x) noexcept {
    if (!nt::good(x)) fail(calculus::curve_error::overflow);
    return x;
  }
  ext chk(ext x) noexcept {
    if (!x.valid()) fail(calculus::curve_error::overflow);
    return x;
  }
  [[nodiscard]] std::size_t size() const noexcept { return out_->size() - base_; }
  void reserve(std::size_t n) { out_->reserve(out_->size() + n); }

  void push(T t, ext v, ext r, T s) {
    if (!ok()) return;
    if (!nt::good(t) || !v.valid() || !r.valid() || !nt::good(s)) {
      fail(strict_ ? calculus::curve_error::bad_argument : calculus::curve_error::overflow);
      return;
    }
    if (r.is_inf()) s = T{};
    std::vector<bp>& o = *out_;
    if (size() == 0) {
      if (!(t == origin_)) {
        fail(strict_ ? calculus::curve_error::bad_argument : calculus::curve_error::undefined);
        return;
      }
      o.push_back(bp{t, v, r, s});
      return;
    }
    bp& last = o.back();
    if (!(last.t < t)) {
      if (strict_) {
        fail(calculus::curve_error::bad_argument);
        return;
      }
      if (last.t == t || !nt::exact) {
        last.right = r;
        last.slope = s;
        settle();
        return;
      }
      fail(calculus::curve_error::undefined);
      return;
    }
    o.push_back(bp{t, v, r, s});
    settle();
  }

  calculus::basic_curve<T> finish() {
    if (!ok() || size() == 0) {
      return curve_access::make<T>({}, ok() ? calculus::curve_error::undefined : err_);
    }
    return curve_access::make<T>(std::move(own_), calculus::curve_error::none);
  }

 private:
  void settle() {
    std::vector<bp>& o = *out_;
    if (size() < 2) return;
    const bp& p = o[o.size() - 2];
    const T t = o.back().t;
    ext left = ext::infinity();
    if (p.right.is_finite()) left = ext{chk(p.right.value() + p.slope * (t - p.t))};
    if (!ok()) return;
    const bp& k = o.back();
    if (!(left == k.value) || !(k.value == k.right)) return;
    if (k.right.is_finite() && !(k.slope == p.slope)) return;
    o.pop_back();
  }

  std::vector<bp> own_;
  std::vector<bp>* out_;
  std::size_t base_;
  calculus::curve_error err_ = calculus::curve_error::none;
  bool strict_ = false;
  T origin_{};
};

}  // namespace netcc::detail

namespace netcc::calculus {

/// @brief A piecewise-linear curve with jumps and +infinity values over t >= 0 (seed §II), in
/// canonical form; see the file comment for the representation.
///
/// @tparam T a netcc::calculus::CurveNumber: netcc::calculus::rational (exact, the default)
///           or double.
///
/// Shapes are static members; operations are free functions (this header and
/// netcc/calculus/minplus.hpp). Every curve is immutable once built.
/// @code
/// using netcc::calculus::curve;
/// using netcc::calculus::rational;
/// const curve s = curve::rate(rational{100});            // S(t) = max{100 t, 0}, seed §II
/// const curve w = curve::window(rational{64});           // S_W, seed §III-D
/// auto a = w(rational{0});                               // 0
/// auto b = w(rational::of(1, 1000));                     // 64
/// @endcode
template <CurveNumber T = rational>
class basic_curve {
  using nt = curve_number<T>;
  using ext = extended<T>;
  using bp = breakpoint<T>;

 public:
  /// @brief The number type.
  using number_type = T;
  /// @brief The type of curve values (a number or +infinity).
  using value_type = extended<T>;
  /// @brief The breakpoint type.
  using breakpoint_type = breakpoint<T>;

  /// @brief The zero curve f(t) = 0.
  basic_curve() : bp_{bp{}} {}

  /// @brief Builds a curve from breakpoints and brings it into canonical form.
  ///
  /// The first breakpoint must be at t = 0 and times must increase strictly; numbers must be
  /// good (finite for double). Otherwise the result is invalid with curve_error::bad_argument
  /// (or curve_error::overflow when a left limit is not representable). A slope after a right
  /// limit of +infinity is ignored.
  /// @code
  /// using B = netcc::calculus::breakpoint<double>;
  /// std::vector<B> v{{0.0, 0.0, 0.0, 1.0}, {2.0, 2.0, 2.0, 1.0}};   // redundant second point
  /// auto f = netcc::calculus::double_curve::from_breakpoints(v);    // rate 1, one breakpoint
  /// @endcode
  static basic_curve from_breakpoints(std::span<const bp> points) {
    detail::curve_builder<T> b;
    b.set_strict();
    if (points.empty()) b.fail(curve_error::bad_argument);
    for (const bp& p : points) b.push(p.t, p.value, p.right, p.slope);
    return b.finish();
  }

  /// @brief An invalid curve carrying `e` (curve_error::none is taken as undefined).
  /// @code
  /// auto f = netcc::calculus::curve::invalid(netcc::calculus::curve_error::overflow);
  /// @endcode
  static basic_curve invalid(curve_error e) {
    basic_curve c;
    c.bp_.clear();
    c.err_ = e == curve_error::none ? curve_error::undefined : e;
    return c;
  }

  /// @brief f(t) = 0 (the min-plus neutral element of +).
  /// @code
  /// auto z = netcc::calculus::curve::zero();
  /// @endcode
  static basic_curve zero() { return basic_curve{}; }

  /// @brief f(t) = +infinity for all t >= 0 (the min-plus zero element: neutral for min,
  /// absorbing for convolution).
  /// @code
  /// auto e = netcc::calculus::curve::infinite();
  /// @endcode
  static basic_curve infinite() { return single(T{}, ext::infinity(), ext::infinity(), T{}); }

  /// @brief f(t) = c.
  /// @code
  /// auto f = netcc::calculus::double_curve::constant(2.5);
  /// @endcode
  static basic_curve constant(T c) {
    if (!nt::good(c)) return invalid(curve_error::bad_argument);
    return single(T{}, ext{c}, ext{c}, T{});
  }

  /// @brief f(0) = at_zero and f(t) = after_zero + slope t for t > 0 (after_zero may be
  /// +infinity): the general one-breakpoint curve.
  /// @code
  /// auto f = netcc::calculus::double_curve::affine(0.0, 5.0, 3.0);   // a token bucket
  /// @endcode
  static basic_curve affine(T at_zero, ext after_zero, T slope) {
    if (!nt::good(at_zero) || !after_zero.valid() || !nt::good(slope)) {
      return invalid(curve_error::bad_argument);
    }
    return single(T{}, ext{at_zero}, after_zero, slope);
  }

  /// @brief The rate curve S(t) = max{r t, 0} of an egress port with link rate r (seed §II);
  /// r >= 0.
  /// @code
  /// auto s = netcc::calculus::curve::rate(netcc::calculus::rational{100});
  /// @endcode
  static basic_curve rate(T r) {
    if (!nonneg(r)) return invalid(curve_error::bad_argument);
    return single(T{}, ext{}, ext{}, r);
  }

  /// @brief The rate-latency curve R (t - T)+ (rate R >= 0, latency >= 0), i.e. delta_T
  /// convolved with the rate curve ([25] §1.4.1).
  /// @code
  /// auto b = netcc::calculus::curve::rate_latency(netcc::calculus::rational{10},
  ///                                               netcc::calculus::rational{2});
  /// @endcode
  static basic_curve rate_latency(T r, T latency) {
    if (!nonneg(r) || !nonneg(latency)) return invalid(curve_error::bad_argument);
    if (latency == T{}) return rate(r);
    detail::curve_builder<T> b;
    b.push(T{}, ext{}, ext{}, T{});
    b.push(latency, ext{}, ext{}, r);
    return b.finish();
  }

  /// @brief The token-bucket curve of seed §II: 0 at t = 0, b + r t for t > 0 (r, b >= 0).
  ///
  /// The seed writes max{b + r t, 0}; netcc keeps the value 0 at t = 0 that the seed's
  /// convention S(t) = 0 for t <= 0 requires (the burst b is the right limit at 0).
  /// @code
  /// auto g = netcc::calculus::curve::token_bucket(netcc::calculus::rational{3},
  ///                                               netcc::calculus::rational{5});
  /// @endcode
  static basic_curve token_bucket(T r, T b) {
    if (!nonneg(r) || !nonneg(b)) return invalid(curve_error::bad_argument);
    return single(T{}, ext{}, ext{b}, r);
  }

  /// @brief The pure-delay curve delta_T: 0 on [0, T], +infinity after (T >= 0). delta_0 is
  /// the neutral element of convolution; f convolved with delta_T is f delayed by T.
  /// @code
  /// auto d = netcc::calculus::curve::delay(netcc::calculus::rational{4});
  /// @endcode
  static basic_curve delay(T latency) {
    if (!nonneg(latency)) return invalid(curve_error::bad_argument);
    if (latency == T{}) return single(T{}, ext{}, ext::infinity(), T{});
    detail::curve_builder<T> b;
    b.push(T{}, ext{}, ext{}, T{});
    b.push(latency, ext{}, ext::infinity(), T{});
    return b.finish();
  }

  /// @brief The window service curve S_W of seed §III-D (Eq. 5): 0 for t <= 0, W for t > 0
  /// (W >= 0).
  /// @code
  /// auto sw = netcc::calculus::curve::window(netcc::calculus::rational{64000});
  /// @endcode
  static basic_curve window(T w) {
    if (!nonneg(w)) return invalid(curve_error::bad_argument);
    return single(T{}, ext{}, ext{w}, T{});
  }

  /// @brief The left-continuous staircase height * ceil(t / width) on [0, steps * width],
  /// constant steps * height after (height >= 0, width > 0, steps <= 2^31): a packetised
  /// periodic source or a stair service curve.
  /// @code
  /// auto st = netcc::calculus::curve::staircase(netcc::calculus::rational{1500},
  ///                                             netcc::calculus::rational{120}, 100);
  /// @endcode
  static basic_curve staircase(T height, T width, std::size_t steps) {
    if (!nonneg(height) || !nonneg(width) || width == T{} || steps > max_steps) {
      return invalid(curve_error::bad_argument);
    }
    if (steps == 0) return zero();
    detail::curve_builder<T> b;
    for (std::size_t k = 0; k < steps && b.ok(); ++k) {
      const T kk = nt::from_int(static_cast<std::int64_t>(k));
      b.push(b.chk(kk * width), ext{b.chk(kk * height)}, ext{b.chk((kk + one()) * height)}, T{});
    }
    return b.finish();
  }

  /// @brief The packetiser x -> L floor(x / L) of the seed's ACK function I_max floor(D / I_max)
  /// (§III-B a), exact on [0, (steps + 1) L) and constant steps * L after (L > 0,
  /// steps <= 2^31); right-continuous. Compose it with a departure curve (compose()).
  /// @code
  /// auto p = netcc::calculus::curve::packetizer(netcc::calculus::rational{1500}, 1000);
  /// @endcode
  static basic_curve packetizer(T size, std::size_t steps) {
    if (!nonneg(size) || size == T{} || steps > max_steps) {
      return invalid(curve_error::bad_argument);
    }
    detail::curve_builder<T> b;
    b.push(T{}, ext{}, ext{}, T{});
    for (std::size_t k = 1; k <= steps && b.ok(); ++k) {
      const T x = b.chk(nt::from_int(static_cast<std::int64_t>(k)) * size);
      b.push(x, ext{x}, ext{x}, T{});
    }
    return b.finish();
  }

  /// @brief A curve through sampled data (times >= 0, strictly increasing, at least one).
  ///
  /// - interpolation::linear: y_0 on [0, t_0], straight lines between samples,
  ///   y_last + final_slope (t - t_last) after the last sample.
  /// - interpolation::step (left-continuous, the seed's "traffic in [0, t)"): 0 on [0, t_0],
  ///   y_k on (t_k, t_{k+1}], y_last + final_slope (t - t_last) for t > t_last. A sample is
  ///   the cumulative amount just after its time, e.g. a packet arrival.
  /// @code
  /// std::vector<netcc::calculus::sample<double>> s{{0.0, 1500.0}, {1.0, 3000.0}};
  /// auto a = netcc::calculus::double_curve::from_samples(s, netcc::calculus::interpolation::step);
  /// // a(0) = 0, a(0.5) = 1500, a(1) = 1500, a(2) = 3000
  /// @endcode
  static basic_curve from_samples(std::span<const sample<T>> s, interpolation how,
                                  T final_slope = T{}) {
    if (s.empty() || !nt::good(final_slope)) return invalid(curve_error::bad_argument);
    for (std::size_t k = 0; k < s.size(); ++k) {
      if (!nt::good(s[k].t) || !nt::good(s[k].y) || s[k].t < T{}) {
        return invalid(curve_error::bad_argument);
      }
      if (k > 0 && !(s[k - 1].t < s[k].t)) return invalid(curve_error::bad_argument);
    }
    detail::curve_builder<T> b;
    const std::size_t n = s.size();
    if (how == interpolation::linear) {
      if (T{} < s[0].t) b.push(T{}, ext{s[0].y}, ext{s[0].y}, T{});
      for (std::size_t k = 0; k < n; ++k) {
        const T slope =
            k + 1 < n ? b.chk((s[k + 1].y - s[k].y) / (s[k + 1].t - s[k].t)) : final_slope;
        b.push(s[k].t, ext{s[k].y}, ext{s[k].y}, slope);
      }
    } else {
      if (T{} < s[0].t) b.push(T{}, ext{}, ext{}, T{});
      for (std::size_t k = 0; k < n; ++k) {
        const T before = k == 0 ? T{} : s[k - 1].y;
        b.push(s[k].t, ext{before}, ext{s[k].y}, k + 1 < n ? T{} : final_slope);
      }
    }
    return b.finish();
  }

  /// @brief False for an invalid curve (see error()).
  [[nodiscard]] bool valid() const noexcept { return err_ == curve_error::none; }
  /// @brief Why the curve is invalid (curve_error::none when valid).
  [[nodiscard]] curve_error error() const noexcept { return err_; }
  /// @brief The canonical breakpoints (empty when invalid).
  [[nodiscard]] std::span<const bp> breakpoints() const noexcept { return bp_; }
  /// @brief Number of breakpoints (segments) in canonical form.
  [[nodiscard]] std::size_t size() const noexcept { return bp_.size(); }

  /// @brief f(t); f(0) for t < 0. O(log n). Invalid value for an invalid curve or bad t.
  /// @code
  /// auto g = netcc::calculus::double_curve::token_bucket(3.0, 5.0);
  /// double v = g(2.0).value();   // 11
  /// @endcode
  [[nodiscard]] ext operator()(T t) const { return at(t); }

  /// @brief f(t); f(0) for t < 0. O(log n).
  /// @code
  /// auto v = netcc::calculus::double_curve::window(8.0).at(0.0);   // 0
  /// @endcode
  [[nodiscard]] ext at(T t) const {
    if (!valid() || !nt::good(t)) return bad();
    if (!(T{} < t)) return bp_.front().value;
    const bp& p = last_at_or_before(t);
    if (p.t == t) return p.value;
    return along(p, t);
  }

  /// @brief The left limit f(t-); f(0) for t <= 0. O(log n).
  /// @code
  /// auto v = netcc::calculus::double_curve::window(8.0).left_limit(1.0);   // 8
  /// @endcode
  [[nodiscard]] ext left_limit(T t) const {
    if (!valid() || !nt::good(t)) return bad();
    if (!(T{} < t)) return bp_.front().value;
    auto it = std::lower_bound(bp_.begin(), bp_.end(), t,
                               [](const bp& p, const T& x) { return p.t < x; });
    --it;  // the last breakpoint strictly before t (t > 0 = t_0)
    return along(*it, t);
  }

  /// @brief The right limit f(t+); f(0) for t < 0. O(log n).
  /// @code
  /// auto v = netcc::calculus::double_curve::window(8.0).right_limit(0.0);   // 8
  /// @endcode
  [[nodiscard]] ext right_limit(T t) const {
    if (!valid() || !nt::good(t)) return bad();
    if (t < T{}) return bp_.front().value;
    const bp& p = last_at_or_before(t);
    if (p.t == t) return p.right;
    return along(p, t);
  }

  /// @brief All shape properties in one pass (what the operations check before choosing an
  /// algorithm); see the is_* members for each. All false for an invalid curve. O(n).
  /// @code
  /// auto s = netcc::calculus::curve::rate_latency(1, 2).shape();
  /// bool b = s.convex && s.non_decreasing;   // true
  /// @endcode
  [[nodiscard]] curve_shape shape() const {
    curve_shape sh{};
    if (!valid()) return sh;
    sh = curve_shape{true, true, true, true, true};
    bool convex_open = true;  // still inside the finite domain [0, D] of a convex curve
    const auto no_scale = [] { return T{}; };
    for (std::size_t i = 0; i < bp_.size(); ++i) {
      const bp& p = bp_[i];
      const bool fin = p.value.is_finite() && p.right.is_finite();
      sh.finite = sh.finite && fin;
      sh.concave = sh.concave && fin;
      const bool vr = le_x(p.value, p.right, no_scale);
      if (!vr) sh.non_decreasing = false;
      if (p.right.is_finite() && p.slope < T{}) sh.non_decreasing = false;
      if (i == 0) {
        if (!vr) sh.concave = false;
      } else {
        const bp& q = bp_[i - 1];
        const ext l = along(q, p.t);
        const bool lv = l.valid();
        const auto scale = [&] { return along_scale(q, p.t); };
        const bool lle = lv && le_x(l, p.value, scale);
        if (!lle) sh.non_decreasing = false;
        const bool cont = lle && le_x(p.value, l, scale);
        sh.left_continuous = sh.left_continuous && cont;
        const auto slopes = [&] { return nt::mag(p.slope) + nt::mag(q.slope); };
        if (sh.concave && (!cont || !vr || !le_x(p.right, p.value, no_scale) ||
                           !le_x(ext{p.slope}, ext{q.slope}, slopes))) {
          sh.concave = false;
        }
        if (sh.convex && (!convex_open || !cont ||
                          (p.right.is_finite() && !le_x(ext{q.slope}, ext{p.slope}, slopes)))) {
          sh.convex = false;
        }
      }
      if (sh.convex) {
        if (p.value.is_inf()) {
          sh.convex = false;
        } else if (p.right.is_inf()) {
          convex_open = false;  // +infinity from here on; nothing may follow
        } else if (!vr || !le_x(p.right, p.value, no_scale)) {
          sh.convex = false;
        }
      }
      if (!sh.non_decreasing && !sh.left_continuous && !sh.finite && !sh.convex) break;
    }
    return sh;
  }

  /// @brief True when f is non-decreasing on [0, infinity): at each breakpoint
  /// left limit <= value <= right limit and every finite segment has slope >= 0 (the seed's
  /// A, D, S, §II). For double, value and limits are compared up to rounding
  /// (curve_number::le_rounded); exact curves are checked exactly. O(n).
  /// @code
  /// bool b = netcc::calculus::curve::token_bucket(1, 2).is_non_decreasing();   // true
  /// @endcode
  [[nodiscard]] bool is_non_decreasing() const {
    if (!valid()) return false;
    const auto no_scale = [] { return T{}; };
    for (std::size_t i = 0; i < bp_.size(); ++i) {
      const bp& p = bp_[i];
      if (!le_x(p.value, p.right, no_scale)) return false;
      if (p.right.is_finite() && p.slope < T{}) return false;
      if (i == 0) continue;
      const bp& q = bp_[i - 1];
      const ext l = along(q, p.t);
      if (!l.valid() || !le_x(l, p.value, [&] { return along_scale(q, p.t); })) return false;
    }
    return true;
  }

  /// @brief True when f(t-) = f(t) at every t > 0 (the seed's convention for A, D, S); up to
  /// rounding for double. O(n).
  /// @code
  /// bool b = netcc::calculus::curve::delay(1).is_left_continuous();   // true
  /// @endcode
  [[nodiscard]] bool is_left_continuous() const { return shape().left_continuous; }

  /// @brief True when f never takes +infinity. O(n).
  /// @code
  /// bool b = netcc::calculus::curve::delay(1).is_finite();   // false
  /// @endcode
  [[nodiscard]] bool is_finite() const { return shape().finite; }

  /// @brief True when f is finite and concave on [0, infinity): continuous on (0, infinity)
  /// with non-increasing slopes and f(0) <= f(0+) (a burst at 0, as for the token bucket,
  /// is allowed); up to rounding for double. O(n).
  /// @code
  /// bool b = netcc::calculus::curve::token_bucket(1, 2).is_concave();   // true
  /// @endcode
  [[nodiscard]] bool is_concave() const { return shape().concave; }

  /// @brief True when f is convex on [0, infinity) with values in (-infinity, +infinity]:
  /// finite and continuous on a closed [0, D] (or on [0, infinity)) with non-decreasing
  /// slopes, and +infinity after D (rate-latency curves and delta_T are convex); up to
  /// rounding for double. O(n).
  /// @code
  /// bool b = netcc::calculus::curve::rate_latency(1, 2).is_convex();   // true
  /// @endcode
  [[nodiscard]] bool is_convex() const { return shape().convex; }

  /// @brief Checks the canonical-form invariants (first breakpoint at 0, increasing times,
  /// good numbers, slope 0 after +infinity, no removable breakpoint, representable left
  /// limits). Always true for a valid curve; exposed for tests and fuzzers. O(n).
  /// @code
  /// bool b = netcc::calculus::curve::rate(1).is_canonical();   // true
  /// @endcode
  [[nodiscard]] bool is_canonical() const {
    if (!valid()) return bp_.empty();
    if (bp_.empty() || !(bp_.front().t == T{})) return false;
    for (std::size_t i = 0; i < bp_.size(); ++i) {
      const bp& p = bp_[i];
      if (!nt::good(p.t) || !p.value.valid() || !p.right.valid() || !nt::good(p.slope)) {
        return false;
      }
      if (p.right.is_inf() && !(p.slope == T{})) return false;
      if (i == 0) continue;
      const bp& q = bp_[i - 1];
      if (!(q.t < p.t)) return false;
      const ext l = along(q, p.t);
      if (!l.valid()) return false;
      if (l == p.value && p.value == p.right && (p.right.is_inf() || p.slope == q.slope)) {
        return false;
      }
    }
    return true;
  }

  /// @brief Equal breakpoints and error: for exact curves, equality of the functions.
  friend bool operator==(const basic_curve&, const basic_curve&) = default;

 private:
  friend struct detail::curve_access;
  static constexpr std::size_t max_steps = std::size_t{1} << 31;

  static constexpr T one() { return nt::from_int(1); }
  static bool nonneg(T x) { return nt::good(x) && !(x < T{}); }
  static ext bad() { return ext{nt::invalid()}; }
  static basic_curve single(T t, ext v, ext r, T s) {
    basic_curve c;
    c.bp_.front() = bp{t, v, r, r.is_inf() ? T{} : s};
    return c;
  }
  // The value at t on the segment that starts at p (t > p.t); invalid when not representable.
  static ext along(const bp& p, T t) {
    if (p.right.is_inf()) return ext::infinity();
    const T v = p.right.value() + p.slope * (t - p.t);
    return nt::good(v) ? ext{v} : bad();
  }
  // The magnitude of the operands of along(p, t), for rounding tolerances: the sum, and the
  // rounding of the times themselves (|slope| (|t_i| + |t|)).
  static T along_scale(const bp& p, T t) {
    if (p.right.is_inf()) return T{};
    return nt::mag(p.right.value()) + nt::mag(p.slope * (t - p.t)) +
           nt::mag(p.slope) * (nt::mag(p.t) + nt::mag(t));
  }
  // a <= b; for inexact numbers also when within rounding at scale() + |a| + |b| (the scale is
  // computed only when the exact comparison fails).
  template <class Scale>
  static bool le_x(const ext& a, const ext& b, const Scale& scale) {
    if (b.is_inf()) return true;
    if (a.is_inf()) return false;
    if (!(b.value() < a.value())) return true;
    if constexpr (nt::exact) {
      return false;
    } else {
      return nt::le_rounded(a.value(), b.value(),
                            scale() + nt::mag(a.value()) + nt::mag(b.value()));
    }
  }
  const bp& last_at_or_before(T t) const {
    auto it = std::upper_bound(bp_.begin(), bp_.end(), t,
                               [](const T& x, const bp& p) { return x < p.t; });
    return *(it - 1);
  }

  std::vector<bp> bp_;
  curve_error err_ = curve_error::none;
};

/// @brief Exact curves (the default).
using curve = basic_curve<>;
/// @brief Curves over IEEE double.
using double_curve = basic_curve<double>;
/// @brief Exact curves with 128-bit numerators and denominators (netcc::calculus::wide_rational):
/// for intermediate values that exceed int64; convert with curve_cast.
using wide_curve = basic_curve<wide_rational>;

}  // namespace netcc::calculus

namespace netcc::detail {

template <class T>
calculus::basic_curve<T> curve_access::make(std::vector<calculus::breakpoint<T>>&& points,
                                            calculus::curve_error e) {
  calculus::basic_curve<T> c;
  c.bp_ = std::move(points);
  c.err_ = e;
  if (e != calculus::curve_error::none) c.bp_.clear();
  return c;
}

template <class T>
const std::vector<calculus::breakpoint<T>>& curve_points(const calculus::basic_curve<T>& c) {
  return curve_access::points(c);
}

// Local state of a curve at time tau: value, right limit, slope after tau.
template <class T>
struct curve_local {
  calculus::extended<T> v, r;
  T s;
};

// State at tau of curve c whose breakpoint i is the last at or before tau.
template <class T>
curve_local<T> curve_state(std::span<const calculus::breakpoint<T>> c, std::size_t i, T tau,
                           curve_builder<T>& b) {
  const auto& p = c[i];
  if (p.t == tau) return {p.value, p.right, p.slope};
  if (p.right.is_inf()) return {p.right, p.right, T{}};
  const calculus::extended<T> x{b.chk(p.right.value() + p.slope * (tau - p.t))};
  return {x, x, p.slope};
}

// Sweeps the union of the breakpoints of f and g; calls
// op(builder, tau, has_next, next, state_f, state_g) once per merged breakpoint; op appends
// the result's pieces on [tau, next).
template <class T, class Op>
void curve_combine(std::span<const calculus::breakpoint<T>> f,
                   std::span<const calculus::breakpoint<T>> g, curve_builder<T>& b, Op&& op) {
  std::size_t i = 0;
  std::size_t j = 0;
  T tau{};
  for (;;) {
    const curve_local<T> a = curve_state(f, i, tau, b);
    const curve_local<T> c = curve_state(g, j, tau, b);
    const bool fn = i + 1 < f.size();
    const bool gn = j + 1 < g.size();
    T next{};
    if (fn && gn) {
      next = f[i + 1].t < g[j + 1].t ? f[i + 1].t : g[j + 1].t;
    } else if (fn) {
      next = f[i + 1].t;
    } else if (gn) {
      next = g[j + 1].t;
    }
    op(b, tau, fn || gn, next, a, c);
    if (!(fn || gn) || !b.ok()) return;
    tau = next;
    if (fn && f[i + 1].t == tau) ++i;
    if (gn && g[j + 1].t == tau) ++j;
  }
}

template <class T>
calculus::extended<T> ext_min(const calculus::extended<T>& a, const calculus::extended<T>& b) {
  return b < a ? b : a;
}
template <class T>
calculus::extended<T> ext_max(const calculus::extended<T>& a, const calculus::extended<T>& b) {
  return a < b ? b : a;
}

// min (take_max = false) or max of two local pieces on [tau, next): the winner at tau+, and
// the crossing point where the other line takes over inside the interval. Returns true when
// c's line is the one in force at the end of the interval.
template <class T>
bool curve_emit_minmax(curve_builder<T>& b, T tau, bool has_next, T next, const curve_local<T>& a,
                       const curve_local<T>& c, bool take_max) {
  using ext = calculus::extended<T>;
  const ext v = take_max ? ext_max(a.v, c.v) : ext_min(a.v, c.v);
  if (a.r.is_inf() || c.r.is_inf()) {
    if (take_max || (a.r.is_inf() && c.r.is_inf())) {
      b.push(tau, v, ext::infinity(), T{});
      return false;
    }
    if (a.r.is_inf()) {
      b.push(tau, v, c.r, c.s);
      return true;
    }
    b.push(tau, v, a.r, a.s);
    return false;
  }
  const T ar = a.r.value();
  const T cr = c.r.value();
  bool a_wins;
  if (take_max) {
    a_wins = cr < ar || (ar == cr && !(a.s < c.s));
  } else {
    a_wins = ar < cr || (ar == cr && !(c.s < a.s));
  }
  const curve_local<T>& w = a_wins ? a : c;
  const curve_local<T>& l = a_wins ? c : a;
  const bool crosses = take_max ? (w.s < l.s) : (l.s < w.s);
  if (!crosses) {
    b.push(tau, v, w.r, w.s);
    return !a_wins;
  }
  if (has_next) {  // no division when the winner is still ahead at the end of the interval
    const T d = next - tau;
    const T we = w.r.value() + w.s * d;
    const T le = l.r.value() + l.s * d;
    const bool ends_ok = calculus::curve_number<T>::good(we) && calculus::curve_number<T>::good(le);
    if (ends_ok && (take_max ? !(we < le) : !(le < we))) {
      b.push(tau, v, w.r, w.s);
      return !a_wins;
    }
  }
  const T x = b.chk((l.r.value() - w.r.value()) / (w.s - l.s));
  const T tc = b.chk(tau + x);
  if (!b.ok()) return false;
  if (!(tau < tc)) {  // rounding put the crossing at tau: the other line wins at once
    b.push(tau, v, l.r, l.s);
    return a_wins;
  }
  if (has_next && !(tc < next)) {
    b.push(tau, v, w.r, w.s);
    return !a_wins;
  }
  b.push(tau, v, w.r, w.s);
  const ext y{b.chk(w.r.value() + w.s * x)};
  b.push(tc, y, y, l.s);
  return a_wins;
}

}  // namespace netcc::detail

namespace netcc::calculus {

/// @brief Pointwise sum (f + g)(t) = f(t) + g(t); +infinity absorbs. O(n + m).
///
/// Aggregates flows (seed §IV: the admitted arrivals of N flows sum to Â).
/// @code
/// auto s = netcc::calculus::curve::rate(1) + netcc::calculus::curve::window(2);
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> operator+(const basic_curve<T>& f, const basic_curve<T>& g) {
  if (!f.valid()) return f;
  if (!g.valid()) return g;
  detail::curve_builder<T> b;
  b.reserve(f.size() + g.size() + 1);
  detail::curve_combine<T>(f.breakpoints(), g.breakpoints(), b,
                           [](auto& out, T tau, bool, T, const auto& a, const auto& c) {
                             out.push(tau, a.v + c.v, a.r + c.r, out.chk(a.s + c.s));
                           });
  return b.finish();
}

/// @brief Pointwise difference (f - g)(t), e.g. the backlog B(t) = Â(t) - D(t) of seed
/// §III-B d. g must be finite (curve_error::undefined otherwise: -infinity or
/// infinity - infinity); f may take +infinity. O(n + m).
/// @code
/// using netcc::calculus::curve;
/// auto b = curve::token_bucket(1, 4) - curve::rate(1);   // 4 for t > 0, 0 at 0
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> operator-(const basic_curve<T>& f, const basic_curve<T>& g) {
  if (!f.valid()) return f;
  if (!g.valid()) return g;
  using ext = extended<T>;
  detail::curve_builder<T> b;
  detail::curve_combine<T>(
      f.breakpoints(), g.breakpoints(), b,
      [](auto& out, T tau, bool, T, const auto& a, const auto& c) {
        if (c.v.is_inf() || c.r.is_inf()) {
          out.fail(curve_error::undefined);
          return;
        }
        const ext v = a.v.is_inf() ? a.v : ext{out.chk(a.v.value() - c.v.value())};
        const ext r = a.r.is_inf() ? a.r : ext{out.chk(a.r.value() - c.r.value())};
        out.push(tau, v, r, out.chk(a.s - c.s));
      });
  return b.finish();
}

/// @brief Pointwise minimum (the min-plus "sum" ⊕; seed §III-C, a rate limit in front of a
/// path). O(n + m).
/// @code
/// using netcc::calculus::curve;
/// auto m = min(curve::token_bucket(1, 4), curve::rate(2));   // 2 t up to t = 4, then 4 + t
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> min(const basic_curve<T>& f, const basic_curve<T>& g) {
  if (!f.valid()) return f;
  if (!g.valid()) return g;
  detail::curve_builder<T> b;
  b.reserve(f.size() + g.size() + 1);
  detail::curve_combine<T>(
      f.breakpoints(), g.breakpoints(), b,
      [](auto& out, T tau, bool has_next, T next, const auto& a, const auto& c) {
        detail::curve_emit_minmax<T>(out, tau, has_next, next, a, c, false);
      });
  return b.finish();
}

/// @brief Pointwise maximum. O(n + m).
/// @code
/// using netcc::calculus::curve;
/// auto m = max(curve::window(3), curve::rate(1));   // 3 on (0, 3], then t
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> max(const basic_curve<T>& f, const basic_curve<T>& g) {
  if (!f.valid()) return f;
  if (!g.valid()) return g;
  detail::curve_builder<T> b;
  b.reserve(f.size() + g.size() + 1);
  detail::curve_combine<T>(
      f.breakpoints(), g.breakpoints(), b,
      [](auto& out, T tau, bool has_next, T next, const auto& a, const auto& c) {
        detail::curve_emit_minmax<T>(out, tau, has_next, next, a, c, true);
      });
  return b.finish();
}

/// @brief Vertical shift f(t) + c (any sign; +infinity stays). O(n).
/// @code
/// auto f = shift_up(netcc::calculus::curve::rate(1), netcc::calculus::rational{-2});
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> shift_up(const basic_curve<T>& f, T c) {
  if (!f.valid()) return f;
  if (!curve_number<T>::good(c)) return basic_curve<T>::invalid(curve_error::bad_argument);
  detail::curve_builder<T> b;
  for (const auto& p : f.breakpoints()) b.push(p.t, p.value + c, p.right + c, p.slope);
  return b.finish();
}

/// @brief Delay by d >= 0: g(t) = f(t - d), which is f(0) on [0, d] (seed §III-B: the ACK
/// function D(t - dR)). For a non-decreasing f this is f convolved with delta_d. O(n).
/// @code
/// auto a = shift_right(netcc::calculus::curve::rate(1), netcc::calculus::rational{2});
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> shift_right(const basic_curve<T>& f, T d) {
  if (!f.valid()) return f;
  if (!curve_number<T>::good(d) || d < T{}) {
    return basic_curve<T>::invalid(curve_error::bad_argument);
  }
  if (d == T{}) return f;
  detail::curve_builder<T> b;
  const auto pts = f.breakpoints();
  b.push(T{}, pts[0].value, pts[0].value, T{});
  for (const auto& p : pts) b.push(b.chk(p.t + d), p.value, p.right, p.slope);
  return b.finish();
}

/// @brief Advance by d >= 0: g(t) = f(t + d) for t >= 0 (seed §III-C: A(t + t_TO)). O(n).
/// @code
/// auto a = shift_left(netcc::calculus::curve::rate_latency(1, 3), netcc::calculus::rational{3});
/// // a = rate(1)
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> shift_left(const basic_curve<T>& f, T d) {
  if (!f.valid()) return f;
  if (!curve_number<T>::good(d) || d < T{}) {
    return basic_curve<T>::invalid(curve_error::bad_argument);
  }
  if (d == T{}) return f;
  const auto pts = f.breakpoints();
  std::size_t i = 0;
  while (i + 1 < pts.size() && !(d < pts[i + 1].t)) ++i;
  detail::curve_builder<T> b;
  const auto s = detail::curve_state<T>(pts, i, d, b);
  b.push(T{}, s.v, s.r, s.s);
  for (std::size_t k = i + 1; k < pts.size(); ++k) {
    b.push(b.chk(pts[k].t - d), pts[k].value, pts[k].right, pts[k].slope);
  }
  return b.finish();
}

/// @brief The seed's change of coordinates (§III-C, §III-D; Algorithm 1 lines 13, 19): the
/// origin moves to (t0, y0): g(0) = 0 and g(t) = f(t + t0) - y0 for t > 0 (t0 >= 0).
///
/// With f = A, t0 = t_TO and y0 = D(t_TO - dR) this is A^rem, including its initial burst
/// A(t_TO+) - y0. O(n).
/// @code
/// using netcc::calculus::curve;
/// using netcc::calculus::rational;
/// auto rem = rebase(curve::rate(2), rational{5}, rational{4});   // 0 at 0, 6 + 2 t after
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> rebase(const basic_curve<T>& f, T t0, T y0) {
  if (!f.valid()) return f;
  if (!curve_number<T>::good(t0) || t0 < T{} || !curve_number<T>::good(y0)) {
    return basic_curve<T>::invalid(curve_error::bad_argument);
  }
  const basic_curve<T> g = shift_left(f, t0);
  if (!g.valid()) return g;
  const T minus = -y0;
  detail::curve_builder<T> b;
  const auto pts = g.breakpoints();
  b.push(T{}, extended<T>{}, pts[0].right + minus, pts[0].slope);
  for (std::size_t k = 1; k < pts.size(); ++k) {
    b.push(pts[k].t, pts[k].value + minus, pts[k].right + minus, pts[k].slope);
  }
  return b.finish();
}

/// @brief h(t) = f(t) for t < t0 and g(t - t0) for t >= t0 (t0 >= 0): the seed's update of
/// the original functions after a change of coordinates (§III-C: Â(t) = Â^rem(t - t_TO) +
/// D(t_TO - dR) for t >= t_TO, with g = shift_up(Â^rem, D(t_TO - dR))). O(n + m).
/// @code
/// using netcc::calculus::curve;
/// auto h = splice(curve::rate(2), netcc::calculus::rational{3}, curve::constant(1));
/// // 2 t on [0, 3), then 1
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> splice(const basic_curve<T>& f, T t0, const basic_curve<T>& g) {
  if (!f.valid()) return f;
  if (!g.valid()) return g;
  if (!curve_number<T>::good(t0) || t0 < T{}) {
    return basic_curve<T>::invalid(curve_error::bad_argument);
  }
  if (t0 == T{}) return g;
  detail::curve_builder<T> b;
  for (const auto& p : f.breakpoints()) {
    if (!(p.t < t0)) break;
    b.push(p.t, p.value, p.right, p.slope);
  }
  for (const auto& p : g.breakpoints()) b.push(b.chk(p.t + t0), p.value, p.right, p.slope);
  return b.finish();
}

/// @brief The same curve over another number type: to double (numbers round to the nearest
/// double), to its own type, or between the exact types rational and wide_rational (exact;
/// to rational, a number that does not fit int64 makes the result invalid with
/// curve_error::overflow). O(n).
/// @code
/// auto d = netcc::calculus::curve_cast<double>(netcc::calculus::curve::rate(1));
/// auto w = netcc::calculus::curve_cast<netcc::calculus::wide_rational>(
///     netcc::calculus::curve::rate(1));
/// @endcode
template <CurveNumber U, CurveNumber T>
requires(std::is_same_v<U, T> || std::is_same_v<U, double> ||
         (std::is_same_v<U, wide_rational> && std::is_same_v<T, rational>) ||
         (std::is_same_v<U, rational> && std::is_same_v<T, wide_rational>))
    [[nodiscard]] basic_curve<U> curve_cast(const basic_curve<T>& f) {
  if (!f.valid()) return basic_curve<U>::invalid(f.error());
  const auto conv = [](T x) {
    if constexpr (std::is_same_v<U, T>) {
      return x;
    } else if constexpr (std::is_same_v<U, wide_rational> && std::is_same_v<T, rational>) {
      return wide_rational{x};
    } else if constexpr (std::is_same_v<U, rational> && std::is_same_v<T, wide_rational>) {
      return x.to_rational();
    } else {
      return static_cast<U>(curve_number<T>::to_double(x));
    }
  };
  const auto conv_ext = [&](const extended<T>& x) {
    return x.is_inf() ? extended<U>::infinity() : extended<U>{conv(x.value())};
  };
  detail::curve_builder<U> b;
  for (const auto& p : f.breakpoints()) {
    b.push(conv(p.t), conv_ext(p.value), conv_ext(p.right), conv(p.slope));
  }
  return b.finish();
}

}  // namespace netcc::calculus
