// SPDX-License-Identifier: MIT
/// @file
/// @brief Ultimately pseudo-periodic (UPP) curves: a transient part on [0, T) and a pattern of
/// length d that repeats from T on, each time raised by c (f(t + d) = f(t) + c for t >= T);
/// exact (netcc::calculus::rational) or double; canonical form; +, min, max and the min-plus
/// convolution.
///
/// Source: A. Bouillard, É. Thierry, "An Algorithmic Toolbox for Network Calculus", Discrete
/// Event Dynamic Systems 18(1), 2008 (the class of UPP functions and its closure under min, +
/// and convolution, computed on transient and periodic parts), and A. Bouillard, M. Boyer,
/// E. Le Corronc, "Deterministic Network Calculus", 2018 (the seed's reference [27]), which
/// presents the same class and algorithms. The network-calculus seed's packetiser (§III-B a)
/// and its staircase arrivals are UPP but not ultimately affine; its window curve S_W (Eq. 5)
/// is ultimately affine.
///
/// Representation: basic_upp<T> holds (T, d, c) and the canonical basic_curve of f on
/// [0, T + d) (value f(T + d) at T + d and +infinity after, so that == compares functions).
/// Every netcc::calculus::basic_curve is UPP (basic_upp::from_curve: the last segment as the
/// pattern) and an ultimately affine UPP converts back losslessly (to_curve()).
///
/// Canonical form (what basic_upp::make returns): the smallest period (d, c) (for an affine
/// tail: d = 1, c = its slope, or c = 0 for +infinity), then the smallest transient T at which
/// f(t + d) = f(t) + c holds for all t >= T. netcc's choice where that set of T is open (the
/// relation holds on (a, infinity) but not at a, as for a token bucket's jump at 0): T = a + d.
///
/// Algorithms (f, g UPP with transients T_f, T_g, periods (d_f, c_f), (d_g, c_g), rates
/// rho = c / d, +infinity when the periodic part is +infinity). The transient bounds are
/// derived here (the argument is given with each); they may exceed the papers' tightest
/// bounds, which changes only the work done, since every result is brought to canonical form.
/// - f + g, and min, max with equal rates: period lcm(d_f, d_g), transient max(T_f, T_g)
///   (both repeat with the common period). Different rates (min, max): the curve with the
///   smaller (min) or larger (max) rate wins from
///   T* = max(T_f, T_g, (M_lo - m_hi) / (rho_hi - rho_lo)), where M_lo is the supremum of
///   f_lo(t) - rho_lo t over its pattern and m_hi the infimum of f_hi(t) - rho_hi t (then
///   f_lo(t) <= M_lo + rho_lo t <= m_hi + rho_hi t <= f_hi(t)) — at the times where f_lo is
///   finite. Where f_lo is +infinity, min = f_hi and max = +infinity; these times form a set
///   that repeats with period l = lcm(d_f, d_g) from max(T_f, T_g) (and f_hi's finite times
///   too), so one window of length l decides whether f_lo is ever +infinity where f_hi is
///   finite from then on. If not, the winner above is the result. If so, min takes rate
///   rho_hi on a repeating set of times and rho_lo on another, which no (d, c) satisfies: min
///   is not UPP and is refused with curve_error::undefined; max is +infinity on that set and
///   f_hi elsewhere, UPP with period l and rise l rho_hi from T*.
/// - f ⊗ g = min(f_t ⊗ g_t, f_t ⊗ g_p, f_p ⊗ g_t, f_p ⊗ g_p) with f_t = f on [0, T_f) and
///   f_p = f on [T_f, infinity), +infinity elsewhere (the decomposition of B–T 2008). A finite
///   part (support in [0, e)) ⊗ a periodic part from T_p is periodic with the latter's period
///   from e + T_p (every split leaves the periodic operand past T_p). f_p ⊗ g_p with equal
///   rates: a split (T_f + a, T_g + b) with a >= l = lcm(d_f, d_g) costs the same as
///   (T_f + a - l, T_g + b + l), so a < l suffices and the result repeats with period l from
///   T_f + T_g + l. With rho_f < rho_g, moving K d_f from g's argument to f's adds K c_f and
///   removes at least rho_g K d_f - (M_g - m_g) (M, m as above, for g), so with
///   K = floor((M_g - m_g) / ((rho_g - rho_f) d_f)) + 1 only g on [T_g, T_g + K d_f) matters,
///   which is the finite-part case. That bound needs g finite at both ends of the move, so
///   it holds only when g's pattern has no +infinity (a point or a piece): a move of K d_f
///   can land g's argument on a +infinity point. With such gaps the move is by
///   l = lcm(d_f, d_g) = a d_g = b d_f: for a split (T_f + x, T_g + y) with y >= l and
///   g(T_g + y) finite, g(T_g + y - l) = g(T_g + y) - a c_g is finite too (same phase) and
///   f(T_f + x + l) = f(T_f + x) + b c_f, so the cost changes by b c_f - a c_g
///   = l (rho_f - rho_g) < 0; hence only g on [T_g, T_g + l) matters. The parts are
///   combined by min, slowest rate first: with +infinity gaps and different rates, f ⊗ g
///   need not be UPP (f_p ⊗ g_p, of the slower rate, can be +infinity on a repeating set
///   where a part of the faster rate is finite), and is then refused with
///   curve_error::undefined as min is. Each part is computed exactly by
///   netcc::calculus::convolve on the curves unrolled to the horizon where the result's
///   pattern is complete (the convolution at t uses the operands on [0, t] only).
///
/// Numbers: exact for rational. double is supported when the periods are commensurable
/// (their ratio a fraction with denominator <= 10^6 within 1e-12); otherwise the result is
/// invalid with curve_error::bad_argument. Errors as for basic_curve (no throw).
///
/// Also: dominance (is_below; equivalence is ==), the vertical deviation, the lower
/// pseudo-inverse and the horizontal deviation of curves whose periodic part rises (c > 0) or
/// that are ultimately affine. In netcc/calculus/upp_ops.hpp: min-plus deconvolution, the
/// upper pseudo-inverse, composition and the deviations with the times at which they are
/// reached.
///
/// @code
/// using netcc::calculus::upp;
/// using netcc::calculus::rational;
/// const upp p = upp::packetizer(rational{1500});          // x -> 1500 floor(x / 1500)
/// auto v = p(rational{4000});                              // 3000
/// const upp s = upp::staircase(rational{1500}, rational{120});
/// const upp r = convolve(s, upp::from_curve(netcc::calculus::curve::rate(rational{10})));
/// @endcode
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "netcc/calculus/curve.hpp"
#include "netcc/calculus/minplus.hpp"

namespace netcc::calculus {

template <CurveNumber T>
class basic_upp;

}  // namespace netcc::calculus

namespace netcc::detail {

// floor(x / d) for d > 0; false when it does not fit int64.
template <class T>
bool upp_floor_div(T x, T d, std::int64_t& k) {
  if constexpr (std::is_same_v<T, double>) {
    const double q = std::floor(x / d);
    if (!(q > -9.0e18 && q < 9.0e18)) return false;
    k = static_cast<std::int64_t>(q);
    return true;
  } else {
    const T q = x / d;
    if (!q.valid()) return false;
    k = calculus::floor(q);
    return true;
  }
}

// lcm(a, b) of positive periods and the multipliers lcm / a, lcm / b; false when none is found.
template <class T>
bool upp_lcm(T a, T b, T& l, std::int64_t& ka, std::int64_t& kb) {
  if constexpr (std::is_same_v<T, double>) {
    // continued fraction of a / b = kb / ka
    const double x = a / b;
    double h0 = 1;
    double h1 = 0;
    double k0 = 0;
    double k1 = 1;
    double r = x;
    for (int it = 0; it < 64; ++it) {
      const double q = std::floor(r);
      const double h = q * h0 + h1;
      const double k = q * k0 + k1;
      h1 = h0;
      h0 = h;
      k1 = k0;
      k0 = k;
      if (k0 > 1.0e6) return false;
      if (std::fabs(h0 / k0 - x) <= 1.0e-12 * x) {
        kb = static_cast<std::int64_t>(h0);  // a / b = h0 / k0: lcm = k0 a = h0 b
        ka = static_cast<std::int64_t>(k0);
        l = static_cast<double>(ka) * a;
        return true;
      }
      const double fr = r - q;
      if (fr <= 0) return false;
      r = 1.0 / fr;
    }
    return false;
  } else {
    const T q = a / b;  // = p / s reduced: lcm = s a = p b
    if (!q.valid()) return false;
    ka = q.den();
    kb = q.num();
    l = a * T{ka};
    return l.valid();
  }
}

}  // namespace netcc::detail

namespace netcc::calculus {

/// @brief An ultimately pseudo-periodic curve (see the file comment): f(t + d) = f(t) + c for
/// t >= T, in canonical form.
///
/// @tparam T netcc::calculus::rational (exact, the default) or double.
/// @code
/// using netcc::calculus::upp;
/// const upp w = upp::from_curve(netcc::calculus::curve::window(netcc::calculus::rational{64}));
/// bool affine = w.is_ultimately_affine();   // true
/// @endcode
template <CurveNumber T = rational>
class basic_upp {
  using nt = curve_number<T>;
  using ext = extended<T>;
  using bp = breakpoint<T>;
  static_assert(std::is_same_v<T, rational> || std::is_same_v<T, double>,
                "basic_upp supports rational and double");

 public:
  /// @brief The number type.
  using number_type = T;

  /// @brief The zero curve.
  basic_upp() : basic_upp(from_curve(basic_curve<T>::zero())) {}

  /// @brief The UPP curve equal to `base` on [0, t0 + d) with f(t + d) = f(t) + c for
  /// t >= t0, in canonical form. t0 >= 0, d > 0, numbers good (curve_error::bad_argument
  /// otherwise); an invalid base gives its error.
  /// @code
  /// using netcc::calculus::curve;
  /// using netcc::calculus::rational;
  /// // 0 on [0, 1), 1 on [1, 2), then repeating with rise 1: the staircase floor(t)
  /// auto f = netcc::calculus::upp::make(curve::packetizer(rational{1}, 1), rational{0},
  ///                                     rational{1}, rational{1});
  /// @endcode
  static basic_upp make(const basic_curve<T>& base, T t0, T d, T c) {
    if (!base.valid()) return invalid(base.error());
    if (!nt::good(t0) || !nt::good(d) || !nt::good(c) || t0 < T{} || !(T{} < d)) {
      return invalid(curve_error::bad_argument);
    }
    basic_upp u{nullptr};
    u.t0_ = t0;
    u.d_ = d;
    u.c_ = c;
    u.base_ = base;
    u.err_ = curve_error::none;
    u.canonicalize();
    return u;
  }

  /// @brief The curve f as a UPP curve: its last segment is the pattern (lossless).
  /// @code
  /// auto u = netcc::calculus::upp::from_curve(netcc::calculus::curve::rate(3));
  /// @endcode
  static basic_upp from_curve(const basic_curve<T>& f) {
    if (!f.valid()) return invalid(f.error());
    const bp& last = f.breakpoints().back();
    const T one = nt::from_int(1);
    const T c = last.right.is_inf() ? T{} : last.slope;
    return make(f, last.t + one, one, c);
  }

  /// @brief The periodic staircase height * ceil(t / width) (left-continuous; a packetised
  /// periodic source, seed §III-B a), height >= 0, width > 0.
  /// @code
  /// auto s = netcc::calculus::upp::staircase(1500, 120);
  /// @endcode
  static basic_upp staircase(T height, T width) {
    if (!nt::good(height) || !nt::good(width) || height < T{} || !(T{} < width)) {
      return invalid(curve_error::bad_argument);
    }
    return make(basic_curve<T>::staircase(height, width, 1), T{}, width, height);
  }

  /// @brief The packetiser x -> L floor(x / L) of the seed's ACK function (§III-B a), for all
  /// x >= 0 (basic_curve::packetizer is its finite truncation); L > 0.
  /// @code
  /// auto p = netcc::calculus::upp::packetizer(1500);
  /// @endcode
  static basic_upp packetizer(T size) {
    if (!nt::good(size) || !(T{} < size)) return invalid(curve_error::bad_argument);
    return make(basic_curve<T>::packetizer(size, 1), T{}, size, size);
  }

  /// @brief An invalid UPP curve carrying `e`.
  static basic_upp invalid(curve_error e) {
    basic_upp u{nullptr};
    u.err_ = e == curve_error::none ? curve_error::undefined : e;
    return u;
  }

  /// @brief False for an invalid curve.
  [[nodiscard]] bool valid() const noexcept { return err_ == curve_error::none; }
  /// @brief Why the curve is invalid.
  [[nodiscard]] curve_error error() const noexcept { return err_; }
  /// @brief End of the transient part T.
  [[nodiscard]] T transient() const noexcept { return t0_; }
  /// @brief Period length d.
  [[nodiscard]] T period() const noexcept { return d_; }
  /// @brief Rise per period c.
  [[nodiscard]] T rise() const noexcept { return c_; }
  /// @brief f on [0, T + d), +infinity after T + d (canonical).
  [[nodiscard]] const basic_curve<T>& base() const noexcept { return base_; }
  /// @brief True when the periodic part is +infinity.
  [[nodiscard]] bool periodic_infinite() const {
    return is_aff_ && base_.right_limit(t0_).is_inf();
  }
  /// @brief True when f is affine (or +infinity) on [T, infinity).
  [[nodiscard]] bool is_ultimately_affine() const noexcept { return is_aff_; }
  /// @brief Segments in the transient and in one period of the canonical form.
  [[nodiscard]] std::pair<std::size_t, std::size_t> segments() const {
    std::size_t tr = 0;
    std::size_t pe = 0;
    for (const auto& p : base_.breakpoints()) {
      if (p.t < t0_) {
        ++tr;
      } else if (p.t < t0_ + d_) {
        ++pe;
      }
    }
    return {tr, pe == 0 ? 1 : pe};
  }

  /// @brief f(t) (f(0) for t < 0). O(log n).
  [[nodiscard]] ext operator()(T t) const { return at(t); }
  /// @brief f(t).
  [[nodiscard]] ext at(T t) const { return eval(t, 0); }
  /// @brief f(t-).
  [[nodiscard]] ext left_limit(T t) const { return eval(t, -1); }
  /// @brief f(t+).
  [[nodiscard]] ext right_limit(T t) const { return eval(t, 1); }

  /// @brief f on [0, h] as a curve, +infinity after h (h >= 0).
  /// @code
  /// auto c = netcc::calculus::upp::packetizer(1).unroll(10);   // floor(t) on [0, 10]
  /// @endcode
  [[nodiscard]] basic_curve<T> unroll(T h) const {
    if (!valid()) return basic_curve<T>::invalid(err_);
    if (!nt::good(h) || h < T{}) return basic_curve<T>::invalid(curve_error::bad_argument);
    detail::curve_builder<T> b;
    const auto pts = base_.breakpoints();
    for (const auto& p : pts) {
      if (!(p.t < t0_) || h < p.t) break;
      b.push(p.t, p.value, p.right, p.slope);
    }
    std::vector<bp> pattern;  // breakpoints in [t0, t0 + d), the first at t0
    const ext v0 = base_.at(t0_);
    const ext r0 = base_.right_limit(t0_);
    T s0{};
    for (const auto& p : pts) {
      if (!(p.t < t0_ + d_)) break;
      if (!(t0_ < p.t)) s0 = p.slope;
      if (t0_ < p.t) pattern.push_back(p);
    }
    pattern.insert(pattern.begin(), bp{t0_, v0, r0, r0.is_inf() ? T{} : s0});
    for (std::int64_t k = 0; b.ok(); ++k) {
      const T kd = b.chk(nt::from_int(k) * d_);
      const T kc = b.chk(nt::from_int(k) * c_);
      if (h < t0_ + kd) break;
      for (const auto& p : pattern) {
        const T t = b.chk(p.t + kd);
        if (h < t) break;
        b.push(t, p.value + kc, p.right + kc, p.slope);
      }
      if (!b.ok()) break;
    }
    b.push(h, at(h), ext::infinity(), T{});
    return b.finish();
  }

  /// @brief The curve itself when it is ultimately affine (lossless); curve_error::precondition
  /// otherwise.
  [[nodiscard]] basic_curve<T> to_curve() const {
    if (!valid()) return basic_curve<T>::invalid(err_);
    if (!is_aff_) return basic_curve<T>::invalid(curve_error::precondition);
    detail::curve_builder<T> b;
    for (const auto& p : base_.breakpoints()) {
      if (!(p.t < t0_)) break;
      b.push(p.t, p.value, p.right, p.slope);
    }
    const ext r = base_.right_limit(t0_);
    b.push(t0_, base_.at(t0_), r, r.is_inf() ? T{} : c_ / d_);
    return b.finish();
  }

  /// @brief Equality of canonical forms: equality of the functions for exact numbers.
  friend bool operator==(const basic_upp& a, const basic_upp& b) {
    return a.err_ == b.err_ && a.t0_ == b.t0_ && a.d_ == b.d_ && a.c_ == b.c_ && a.base_ == b.base_;
  }

 private:
  explicit basic_upp(std::nullptr_t) : base_(basic_curve<T>::invalid(curve_error::undefined)) {}

  ext eval(T t, int side) const {
    if (!valid() || !nt::good(t)) return ext{nt::invalid()};
    const T end = t0_ + d_;
    if (t < end || (side < 0 && t == end)) {
      return side == 0 ? base_.at(t) : (side < 0 ? base_.left_limit(t) : base_.right_limit(t));
    }
    std::int64_t k = 0;
    if (!detail::upp_floor_div<T>(t - t0_, d_, k)) return ext{nt::invalid()};
    T u = t - nt::from_int(k) * d_;
    if (side < 0 && u == t0_) {  // the left limit at a period boundary comes from before it
      --k;
      u = u + d_;
    }
    const ext y = side == 0 ? base_.at(u) : (side < 0 ? base_.left_limit(u) : base_.right_limit(u));
    return y + ext{nt::from_int(k) * c_};
  }

  // f(t + d) - c on [0, t0 + d) from base (W = f on [0, t0 + d]).
  void canonicalize() {
    const T one = nt::from_int(1);
    // f on [0, t0 + 3d]; its breakpoints in (t0, t0 + 2d] are two copies of the pattern
    base_ = cut(base_, t0_ + d_);
    if (!base_.valid()) return fail(base_.error());
    const basic_curve<T> u3 = unroll(t0_ + d_ + d_ + d_);
    if (!u3.valid()) return fail(u3.error());
    std::vector<T> pat;
    std::size_t m1 = 0;  // breakpoints in (t0, t0 + d]
    for (const auto& p : u3.breakpoints()) {
      if (t0_ < p.t && !(t0_ + d_ + d_ < p.t)) {
        pat.push_back(p.t);
        if (!(t0_ + d_ < p.t)) ++m1;
      }
    }
    if (pat.empty()) {  // one line on (t0, infinity): period (1, slope)
      const bp& p = u3.breakpoints()[last_at_or_before(u3, t0_)];
      d_ = one;
      c_ = p.right.is_inf() ? T{} : p.slope;
      is_aff_ = true;
      detail::curve_builder<T> b;
      for (const auto& q : u3.breakpoints()) {
        if (!(q.t < t0_)) break;
        b.push(q.t, q.value, q.right, q.slope);
      }
      const ext r = u3.right_limit(t0_);
      b.push(t0_, u3.at(t0_), r, c_);
      b.push(b.chk(t0_ + one), r + ext{c_}, ext::infinity(), T{});
      base_ = b.finish();
      if (!base_.valid()) return fail(base_.error());
    } else {
      is_aff_ = false;
      // the smallest period divides d: try d / k for k dividing m1, largest k first, comparing
      // f(t + d / k) - c / k with f(t) on [t0, t0 + d] at the breakpoints of both (values and
      // limits) and between them
      for (std::size_t k = m1; k >= 2; --k) {
        if (m1 % k != 0) continue;
        const T dk = d_ / nt::from_int(static_cast<std::int64_t>(k));
        const ext ck{c_ / nt::from_int(static_cast<std::int64_t>(k))};
        std::vector<T> xs{t0_, t0_ + d_};
        for (const T& x : pat) {
          if (!(t0_ + d_ < x)) xs.push_back(x);
          const T y = x - dk;
          if (!(y < t0_) && !(t0_ + d_ < y)) xs.push_back(y);
        }
        std::sort(xs.begin(), xs.end());
        xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
        bool ok = true;
        for (std::size_t i = 0; i < xs.size() && ok; ++i) {
          const T x = xs[i];
          ok = u3.at(x + dk) == u3.at(x) + ck && u3.right_limit(x + dk) == u3.right_limit(x) + ck;
          if (ok && t0_ < x) ok = u3.left_limit(x + dk) == u3.left_limit(x) + ck;
          if (ok && i + 1 < xs.size()) {
            const T mid = x + (xs[i + 1] - x) / nt::from_int(2);
            ok = u3.at(mid + dk) == u3.at(mid) + ck;
          }
        }
        if (ok) {
          d_ = dk;
          c_ = ck.value();
          base_ = cut(u3, t0_ + d_);
          if (!base_.valid()) return fail(base_.error());
          break;
        }
      }
    }
    // smallest transient: f(t) = f(t + d) - c on [tau, t0)
    const basic_curve<T> w = unroll(t0_ + d_);
    if (!w.valid()) return fail(w.error());
    const basic_curve<T> g = shift_up(shift_left(w, d_), -c_);
    if (!g.valid()) return fail(g.error());
    std::vector<T> cand;
    for (const auto& p : w.breakpoints()) {
      if (p.t < t0_) cand.push_back(p.t);
    }
    for (const auto& p : g.breakpoints()) {
      if (p.t < t0_) cand.push_back(p.t);
    }
    std::sort(cand.begin(), cand.end());
    cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
    T t0 = t0_;
    for (std::size_t i = cand.size(); i-- > 0;) {
      const T x = cand[i];
      const T y = i + 1 < cand.size() ? cand[i + 1] : t0_;
      const T mid = x + (y - x) / nt::from_int(2);
      const bool open_ok = w.right_limit(x) == g.right_limit(x) && w(mid) == g(mid);
      if (!open_ok) break;
      if (!(w(x) == g(x))) {
        t0 = x + d_;  // periodic on (x, infinity) only: netcc's choice T = x + d
        break;
      }
      t0 = x;
    }
    base_ = cut(unroll(t0 + d_), t0 + d_);  // unroll with the current t0
    t0_ = t0;
    if (!base_.valid()) return fail(base_.error());
    if (is_aff_) {
      const ext r = base_.right_limit(t0_);
      if (r.is_inf()) c_ = T{};
    }
  }

  static std::size_t last_at_or_before(const basic_curve<T>& f, T t) {
    const auto pts = f.breakpoints();
    std::size_t i = 0;
    while (i + 1 < pts.size() && !(t < pts[i + 1].t)) ++i;
    return i;
  }

  // f on [0, h), value f(h) at h, +infinity after.
  static basic_curve<T> cut(const basic_curve<T>& f, T h) {
    detail::curve_builder<T> b;
    for (const auto& p : f.breakpoints()) {
      if (!(p.t < h)) break;
      b.push(p.t, p.value, p.right, p.slope);
    }
    b.push(h, f.at(h), ext::infinity(), T{});
    return b.finish();
  }

  void fail(curve_error e) {
    err_ = e;
    base_ = basic_curve<T>::invalid(e);
  }

  basic_curve<T> base_;
  T t0_{};
  T d_ = nt::from_int(1);
  T c_{};
  bool is_aff_ = false;
  curve_error err_ = curve_error::undefined;
};

/// @brief Exact UPP curves.
using upp = basic_upp<rational>;
/// @brief UPP curves over double.
using double_upp = basic_upp<double>;

}  // namespace netcc::calculus

namespace netcc::detail {

// Rate c / d of a UPP curve's periodic part; inf = true when it is +infinity.
template <class T>
T upp_rate(const calculus::basic_upp<T>& f, bool& inf) {
  inf = f.periodic_infinite();
  return inf ? T{} : f.rise() / f.period();
}

// sup (want_max) or inf of f(t) - rho t over one pattern [T, T + d] (limits included).
template <class T>
T upp_pattern_extreme(const calculus::basic_upp<T>& f, T rho, bool want_max) {
  const calculus::basic_curve<T> w = f.unroll(f.transient() + f.period());
  const T t0 = f.transient();
  const T t1 = t0 + f.period();
  bool any = false;
  T best{};
  const auto take = [&](const calculus::extended<T>& y, T t) {
    if (y.is_inf()) return;
    const T v = y.value() - rho * t;
    if (!any || (want_max ? best < v : v < best)) best = v;
    any = true;
  };
  take(w.at(t0), t0);
  take(w.right_limit(t0), t0);
  for (const auto& p : w.breakpoints()) {
    if (p.t < t0 || t1 < p.t) continue;
    take(w.left_limit(p.t), p.t);
    take(p.value, p.t);
    take(p.right, p.t);
  }
  take(w.left_limit(t1), t1);
  return best;
}

// True when f is +infinity somewhere on its pattern [T, T + d) (at a point or on a piece).
template <class T>
bool upp_pattern_has_inf(const calculus::basic_upp<T>& f) {
  const T t0 = f.transient();
  const T t1 = t0 + f.period();
  const calculus::basic_curve<T> w = f.unroll(t1);
  if (w.at(t0).is_inf() || w.right_limit(t0).is_inf()) return true;
  for (const auto& p : w.breakpoints()) {
    if (!(t0 < p.t) || !(p.t < t1)) continue;
    if (p.value.is_inf() || p.right.is_inf()) return true;
  }
  return false;
}

// True when some t in [a, b) has a(t) = +infinity and b(t) finite (u, v: curves defined on
// [a, b]). Between consecutive breakpoints of either curve both are one piece each, finite or
// +infinity throughout, so the points and the pieces just right of them decide.
template <class T>
bool upp_inf_where_finite(const calculus::basic_curve<T>& u, const calculus::basic_curve<T>& v, T a,
                          T b) {
  std::vector<T> ts{a};
  for (const auto& p : u.breakpoints()) {
    if (a < p.t && p.t < b) ts.push_back(p.t);
  }
  for (const auto& p : v.breakpoints()) {
    if (a < p.t && p.t < b) ts.push_back(p.t);
  }
  for (const T& t : ts) {
    if (u.at(t).is_inf() && !v.at(t).is_inf()) return true;
    if (u.right_limit(t).is_inf() && !v.right_limit(t).is_inf()) return true;
  }
  return false;
}

// Pointwise op of two UPP curves with equal rates (or both +infinity periodic parts).
template <class T, class Op>
calculus::basic_upp<T> upp_same_rate(const calculus::basic_upp<T>& f,
                                     const calculus::basic_upp<T>& g, Op op) {
  T l{};
  std::int64_t kf = 0;
  std::int64_t kg = 0;
  if (!upp_lcm<T>(f.period(), g.period(), l, kf, kg)) {
    return calculus::basic_upp<T>::invalid(calculus::curve_error::bad_argument);
  }
  const T t0 = f.transient() < g.transient() ? g.transient() : f.transient();
  const T h = t0 + l;
  using nt = calculus::curve_number<T>;
  const T c = op(nt::from_int(kf) * f.rise(), nt::from_int(kg) * g.rise());
  return calculus::basic_upp<T>::make(op(f.unroll(h), g.unroll(h)), t0, l, c);
}

// min (take_max = false) or max of two UPP curves.
template <class T>
calculus::basic_upp<T> upp_minmax(const calculus::basic_upp<T>& f, const calculus::basic_upp<T>& g,
                                  bool take_max) {
  using U = calculus::basic_upp<T>;
  if (!f.valid()) return f;
  if (!g.valid()) return g;
  const auto op_curve = [take_max](const auto& a, const auto& b) {
    return take_max ? max(a, b) : min(a, b);
  };
  bool fi = false;
  bool gi = false;
  const T rf = upp_rate(f, fi);
  const T rg = upp_rate(g, gi);
  const T t0 = f.transient() < g.transient() ? g.transient() : f.transient();
  if ((fi && gi) || (!fi && !gi && rf == rg)) {
    const auto op = [&](const auto& a, const auto& b) {
      if constexpr (std::is_same_v<std::decay_t<decltype(a)>, T>) {
        return (fi && gi) ? T{} : a;  // equal rates: either rise over the common period
      } else {
        return op_curve(a, b);
      }
    };
    return upp_same_rate<T>(f, g, op);
  }
  // lo: the smaller rate (+infinity is the largest)
  const bool f_lo = gi || (!fi && rf < rg);
  const U& lo = f_lo ? f : g;
  const U& hi = f_lo ? g : f;
  const U& win = take_max ? hi : lo;
  T ts = t0;
  if (!hi.periodic_infinite()) {
    const T rlo = f_lo ? rf : rg;
    const T rhi = f_lo ? rg : rf;
    const T big = upp_pattern_extreme(lo, rlo, true);
    const T small = upp_pattern_extreme(hi, rhi, false);
    const T cross = (big - small) / (rhi - rlo);
    if (ts < cross) ts = cross;
  }
  if (!hi.periodic_infinite() && upp_pattern_has_inf(lo)) {
    // lo +infinity where hi is finite, past both transients (a set that repeats with
    // l = lcm(d_f, d_g) from t0, so one window [t0, t0 + l) decides): there min = hi, growing
    // at rho_hi, while min = lo elsewhere eventually, at rho_lo: not UPP. max is +infinity
    // there and hi elsewhere from ts on: UPP with period l and rise l rho_hi.
    T l{};
    std::int64_t kf = 0;
    std::int64_t kg = 0;
    if (!upp_lcm<T>(f.period(), g.period(), l, kf, kg)) {
      return U::invalid(calculus::curve_error::bad_argument);
    }
    const T e = t0 + l;
    if (upp_inf_where_finite(lo.unroll(e), hi.unroll(e), t0, e)) {
      if (!take_max) return U::invalid(calculus::curve_error::undefined);
      const T h = ts + l;
      const T c = calculus::curve_number<T>::from_int(f_lo ? kg : kf) * hi.rise();
      return U::make(max(f.unroll(h), g.unroll(h)), ts, l, c);
    }
  }
  const T h = ts + win.period();
  return U::make(op_curve(f.unroll(h), g.unroll(h)), ts, win.period(), win.rise());
}

// f restricted to [a, b) (+infinity elsewhere; b_inf: to infinity) as a UPP curve.
template <class T>
calculus::basic_curve<T> upp_piece(const calculus::basic_curve<T>& w, T a, T b) {
  using ext = calculus::extended<T>;
  curve_builder<T> out;
  if (T{} < a) out.push(T{}, ext::infinity(), ext::infinity(), T{});
  const auto pts = w.breakpoints();
  const ext va = w.at(a);
  const ext ra = w.right_limit(a);
  std::size_t i = 0;
  while (i + 1 < pts.size() && !(a < pts[i + 1].t)) ++i;
  const T sa = ra.is_inf() ? T{} : pts[i].slope;
  if (a < b) {
    out.push(a, va, ra, sa);
    for (const auto& p : pts) {
      if (!(a < p.t)) continue;
      if (!(p.t < b)) break;
      out.push(p.t, p.value, p.right, p.slope);
    }
    out.push(b, ext::infinity(), ext::infinity(), T{});
  } else {
    out.push(T{}, ext::infinity(), ext::infinity(), T{});
  }
  return out.finish();
}

}  // namespace netcc::detail

namespace netcc::calculus {

/// @brief Pointwise sum; period lcm(d_f, d_g).
/// @code
/// auto s = netcc::calculus::upp::packetizer(2) + netcc::calculus::upp::packetizer(3);
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_upp<T> operator+(const basic_upp<T>& f, const basic_upp<T>& g) {
  if (!f.valid()) return f;
  if (!g.valid()) return g;
  return detail::upp_same_rate<T>(f, g, [](const auto& a, const auto& b) { return a + b; });
}

/// @brief Pointwise minimum (transient: see the file comment). curve_error::undefined when
/// the minimum is not UPP: different rates and the slower curve +infinity, in every period,
/// at times where the faster one is finite (see the file comment).
/// @code
/// auto m = min(netcc::calculus::upp::packetizer(2), netcc::calculus::upp::staircase(1, 1));
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_upp<T> min(const basic_upp<T>& f, const basic_upp<T>& g) {
  return detail::upp_minmax<T>(f, g, false);
}

/// @brief Pointwise maximum (transient and, with +infinity gaps in the slower curve, the
/// period: see the file comment).
/// @code
/// auto m = max(netcc::calculus::upp::packetizer(2), netcc::calculus::upp::staircase(1, 1));
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_upp<T> max(const basic_upp<T>& f, const basic_upp<T>& g) {
  return detail::upp_minmax<T>(f, g, true);
}

/// @brief Dominance: true when f(t) <= g(t) for every t >= 0 (min(f, g) == f on canonical
/// forms, exact for rational). False when either is invalid or the minimum cannot be formed.
/// Equivalence of two UPP curves is ==.
/// @code
/// using netcc::calculus::upp;
/// bool b = is_below(upp::packetizer(2), upp::staircase(3, 2));   // true
/// @endcode
template <CurveNumber T>
[[nodiscard]] bool is_below(const basic_upp<T>& f, const basic_upp<T>& g) {
  if (!f.valid() || !g.valid()) return false;
  const basic_upp<T> m = min(f, g);
  return m.valid() && m == f;
}

/// @brief Vertical deviation v(f, g) = sup_{t >= 0} {f(t) - g(t)} (the backlog bound, as
/// netcc::calculus::vertical_deviation for curves: limits count, times where g is +infinity
/// are left out). +infinity when f grows faster than g (rho_f > rho_g). Otherwise, with
/// l = lcm(d_f, d_g) and T = max(T_f, T_g), (f - g)(t + l) = (f - g)(t) + l (rho_f - rho_g)
/// <= (f - g)(t) for t >= T, so the supremum is taken over [0, T + l] on the unrolled curves.
/// @code
/// using netcc::calculus::upp;
/// auto v = vertical_deviation(upp::staircase(3, 2), upp::from_curve(netcc::calculus::curve::rate(2)));
/// // 3, just after t = 0
/// @endcode
template <CurveNumber T>
[[nodiscard]] deviation<T> vertical_deviation(const basic_upp<T>& f, const basic_upp<T>& g) {
  using ext = extended<T>;
  if (!f.valid()) return {ext{}, f.error()};
  if (!g.valid()) return {ext{}, g.error()};
  bool fi = false;
  bool gi = false;
  const T rf = detail::upp_rate(f, fi);
  const T rg = detail::upp_rate(g, gi);
  if (!gi && (fi || rg < rf)) return {ext::infinity(), curve_error::none};
  T l{};
  std::int64_t kf = 0;
  std::int64_t kg = 0;
  if (!detail::upp_lcm<T>(f.period(), g.period(), l, kf, kg)) {
    return {ext{}, curve_error::bad_argument};
  }
  const T h = (f.transient() < g.transient() ? g.transient() : f.transient()) + l;
  return vertical_deviation(f.unroll(h), g.unroll(h));
}

/// @brief Lower pseudo-inverse f^↓(y) = inf{t >= 0 | f(t) >= y} (as
/// netcc::calculus::lower_inverse) of a non-decreasing UPP curve whose periodic part rises
/// (c > 0), as a UPP curve over y >= 0: f^↓(y + c) = f^↓(y) + d for y > f(T) (the levels above
/// f(T) are reached after T only, where f repeats), so the transient ends at level f(T) + c
/// and the base comes from the curve unrolled to T + 3d. An ultimately affine f (an
/// ultimately constant one, c = 0, included) is inverted exactly as a curve
/// (netcc::calculus::lower_inverse of to_curve()): the inverse of a curve with plateau K is
/// +infinity for y > K (netcc's choice: no level above the plateau is ever reached).
/// curve_error::precondition when f is not non-decreasing, or when its periodic part is not
/// affine and does not rise (c <= 0).
/// @code
/// using netcc::calculus::upp;
/// auto inv = lower_inverse(upp::packetizer(2));   // 2 ceil(y / 2)
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_upp<T> lower_inverse(const basic_upp<T>& f) {
  if (!f.valid()) return f;
  if (f.is_ultimately_affine()) {  // exact as a curve, +infinity above a plateau
    const basic_curve<T> li = lower_inverse(f.to_curve());
    return li.valid() ? basic_upp<T>::from_curve(li) : basic_upp<T>::invalid(li.error());
  }
  const T d = f.period();
  const T c = f.rise();
  const T t0 = f.transient();
  if (f.periodic_infinite() || !(T{} < c) || !f.unroll(t0 + d + d).is_non_decreasing()) {
    return basic_upp<T>::invalid(curve_error::precondition);
  }
  const basic_curve<T> li = lower_inverse(f.unroll(t0 + d + d + d));
  const extended<T> ft = f(t0);
  if (!li.valid() || !ft.valid() || ft.is_inf()) return basic_upp<T>::invalid(li.error());
  return basic_upp<T>::make(li, ft.value() + c, c, d);
}

/// @brief Horizontal deviation h(f, g) = sup_{t >= 0} inf{d >= 0 | f(t) <= g(t + d)} (the
/// delay bound) of non-decreasing UPP curves with f(0), g(0) >= 0 and rising periodic parts
/// (c > 0) or ultimately affine (c = 0 included; curve_error::precondition otherwise):
/// max(0, sup_y g^↓(y) - f^↓(y)), the vertical
/// deviation of the two pseudo-inverses (as for curves, horizontal_deviation); +infinity when
/// f grows faster than g.
/// @code
/// using netcc::calculus::upp;
/// auto h = horizontal_deviation(upp::staircase(3, 2),
///                               upp::from_curve(netcc::calculus::curve::rate(2)));   // 3/2
/// @endcode
template <CurveNumber T>
[[nodiscard]] deviation<T> horizontal_deviation(const basic_upp<T>& f, const basic_upp<T>& g) {
  using ext = extended<T>;
  if (!f.valid()) return {ext{}, f.error()};
  if (!g.valid()) return {ext{}, g.error()};
  if (f(T{}) < ext{} || g(T{}) < ext{}) return {ext{}, curve_error::precondition};
  const basic_upp<T> fi = lower_inverse(f);
  const basic_upp<T> gi = lower_inverse(g);
  if (!fi.valid()) return {ext{}, fi.error()};
  if (!gi.valid()) return {ext{}, gi.error()};
  deviation<T> v = vertical_deviation(gi, fi);
  if (v.valid() && v.value < ext{}) v.value = ext{};
  return v;
}

/// @brief Min-plus convolution of UPP curves by transient and periodic parts (see the file
/// comment). curve_error::undefined when the result is not UPP (possible only with +infinity
/// gaps in a period and different rates).
/// Exact for rational. Cost: convolve on curves unrolled to T_f + T_g + a few periods.
/// @code
/// using netcc::calculus::upp;
/// auto h = convolve(upp::staircase(1500, 120), upp::from_curve(netcc::calculus::curve::rate(10)));
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_upp<T> convolve(const basic_upp<T>& f, const basic_upp<T>& g) {
  using U = basic_upp<T>;
  if (!f.valid()) return f;
  if (!g.valid()) return g;
  const T tf = f.transient();
  const T tg = g.transient();
  bool fi = false;
  bool gi = false;
  const T rf = detail::upp_rate(f, fi);
  const T rg = detail::upp_rate(g, gi);
  // a finite piece a (support in [0, e)) convolved with a periodic part p from tp: periodic
  // with p's period from e + tp
  const auto finite_with_periodic = [](const basic_curve<T>& a, T e, const U& p, T from,
                                       T tp) -> U {
    const T t0 = e + tp;
    const T h = t0 + p.period();
    const basic_curve<T> pp = detail::upp_piece(p.unroll(h), from, h + p.period());
    return U::make(convolve(a, pp), t0, p.period(), p.rise());
  };
  std::vector<U> terms;
  const basic_curve<T> wf = f.unroll(tf + f.period());
  const basic_curve<T> wg = g.unroll(tg + g.period());
  const basic_curve<T> ft = detail::upp_piece(wf, T{}, tf);
  const basic_curve<T> gt = detail::upp_piece(wg, T{}, tg);
  if (T{} < tf && T{} < tg) {
    terms.push_back(U::make(convolve(ft, gt), tf + tg, curve_number<T>::from_int(1), T{}));
  }
  if (T{} < tf && !gi) terms.push_back(finite_with_periodic(ft, tf, g, tg, tg));
  if (T{} < tg && !fi) terms.push_back(finite_with_periodic(gt, tg, f, tf, tf));
  if (!fi && !gi) {
    if (rf == rg) {
      T l{};
      std::int64_t kf = 0;
      std::int64_t kg = 0;
      if (!detail::upp_lcm<T>(f.period(), g.period(), l, kf, kg)) {
        return U::invalid(curve_error::bad_argument);
      }
      const T t0 = tf + tg + l;
      const T h = t0 + l;
      const basic_curve<T> fp = detail::upp_piece(f.unroll(h), tf, h + l);
      const basic_curve<T> gp = detail::upp_piece(g.unroll(h), tg, h + l);
      terms.push_back(U::make(convolve(fp, gp), t0, l, curve_number<T>::from_int(kf) * f.rise()));
    } else {
      // the faster-growing part only matters on a bounded prefix of its periodic part
      const bool f_slow = rf < rg;
      const U& slow = f_slow ? f : g;
      const U& fast = f_slow ? g : f;
      const T rs = f_slow ? rf : rg;
      const T rq = f_slow ? rg : rf;
      const T tq = fast.transient();
      T e{};
      if (detail::upp_pattern_has_inf(fast)) {
        // +infinity in the faster pattern: only shifts by l = lcm(d_f, d_g) keep its phase
        // (see the file comment), so splits in the faster operand's [T, T + l) suffice
        T l{};
        std::int64_t kf = 0;
        std::int64_t kg = 0;
        if (!detail::upp_lcm<T>(f.period(), g.period(), l, kf, kg)) {
          return U::invalid(curve_error::bad_argument);
        }
        e = tq + l;
      } else {
        const T spread = detail::upp_pattern_extreme(fast, rq, true) -
                         detail::upp_pattern_extreme(fast, rq, false);
        std::int64_t k = 0;
        if (!detail::upp_floor_div<T>(spread, (rq - rs) * slow.period(), k)) {
          return U::invalid(curve_error::overflow);
        }
        k = k + 1 < 1 ? 1 : k + 1;
        e = tq + curve_number<T>::from_int(k) * slow.period();
      }
      const basic_curve<T> q = detail::upp_piece(fast.unroll(e), tq, e);
      terms.push_back(finite_with_periodic(q, e, slow, slow.transient(), slow.transient()));
    }
  }
  if (terms.empty()) return U::from_curve(basic_curve<T>::infinite());  // f or g is +infinity
  // slowest first, so that each min meets an accumulated minimum of no larger rate and refuses
  // (curve_error::undefined) exactly when the whole minimum is not UPP (see the file comment)
  std::stable_sort(terms.begin(), terms.end(), [](const U& a, const U& b) {
    if (a.periodic_infinite() || b.periodic_infinite()) return !a.periodic_infinite();
    return a.rise() * b.period() < b.rise() * a.period();
  });
  U h = terms[0];
  for (std::size_t i = 1; i < terms.size(); ++i) h = min(h, terms[i]);
  return h;
}

}  // namespace netcc::calculus
