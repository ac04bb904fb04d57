// SPDX-License-Identifier: MIT
/// @file
/// @brief Sub-additive closure f* = min_{n >= 0} f^(n) (f^(0) = delta_0, f^(n) the n-fold
/// min-plus convolution) and super-additive closure (its max-plus dual) of ultimately
/// pseudo-periodic curves (netcc/calculus/upp.hpp) and of basic curves, exact for rational.
///
/// Sources: A. Bouillard, É. Thierry, "An Algorithmic Toolbox for Network Calculus", Discrete
/// Event Dynamic Systems 18(1), 2008, the sub-additive closure of UPP functions (a UPP function
/// is the minimum of elementary functions — points and open segments — whose closures are UPP,
/// and the closure of a minimum is the convolution of the closures); A. Bouillard, M. Boyer,
/// E. Le Corronc, "Deterministic Network Calculus", 2018, the sub-additive closure of UPP
/// functions in the chapter on UPP algorithms; J.-Y. Le Boudec, P. Thiran, "Network Calculus",
/// 2001, §3.1.10 (the closure, its properties: f* <= f, f* sub-additive, (f*)* = f*,
/// f <= g => f* <= g*, (f ⊕ g)* = f* ⊗ g*) and §3.2 (max-plus: the super-additive closure).
///
/// Algorithm (sub-additive closure of a UPP f with transient T, period d, rise c):
/// - f = f_t ⊕ f_p with f_t = f on [0, T) and f_p = f on [T, infinity), +infinity elsewhere.
///   f_t is the minimum of finitely many elements: a point (a, f(a)) at each breakpoint and an
///   open segment on (a, b) between consecutive breakpoints (its right limit at a, its slope);
///   where f(a) equals the right limit, point and segment form one element on [a, b).
///   So f_t* = ⊗ of the closures of its elements ((⊕ e_i)* = ⊗ e_i*).
/// - f_p = p ⊗ e* with p = f on [T, T + d) (elements as above) and e the point (d, c) (e* the
///   values k c at k d). Since e* ⊗ e* = e*, f_p^(n) = p^(n) ⊗ e* for n >= 1 and
///   f_p* = delta_0 ⊕ (p ⊗ p* ⊗ e*), p* again the convolution of element closures.
/// - f* = f_t* ⊗ f_p*, every term a UPP curve, convolved and minimised with upp.hpp.
/// - Closure of a point (a, v), a > 0: n v at n a (n >= 0), +infinity elsewhere: UPP with
///   T = 0, period (a, v). A point at 0 (v >= 0) has closure delta_0.
/// - Closure of an open segment s on (a, b), right limit v at a, slope rho: s^(n) is the open
///   segment on (n a, n b) with value n v + rho (t - n a) = rho t + n w, w = v - rho a. So at
///   t > 0, s*(t) = rho t + n w with n the smallest (w >= 0) or largest (w < 0) integer in
///   (t / b, t / a) (a = 0: (t / b, infinity)), +infinity when there is none. Derived here:
///   for t > a b / (b - a) the interval holds floor(t / b) + 1 and ceil(t / a) - 1, so s* is
///   periodic from T_s = a b / (b - a) + a (a > 0; T_s = b for a = 0) with period (b, rho b + w)
///   (w >= 0) or (a, v) (w < 0). s* on [0, T_s + d] is built at the breakpoints k a and k b.
///   For [a, b) the interval is (t / b, t / a] (the largest integer floor(t / a)); the same
///   bound holds.
///
/// Preconditions: f(0) >= 0 and f(0+) >= 0 (right limit at 0); +infinity values are allowed.
/// Then f* takes no -infinity (every element other than the point at 0 and the segment from 0
/// starts at a > 0, so at most t / a of them fit in [0, t], and that segment's copies only
/// add n v >= 0), and f*(0) = 0 whatever f(0) >= 0 is (f^(0) = delta_0). f(0) < 0 gives
/// f*(0) = -infinity and f(0+) < 0 gives f* = -infinity just after 0: not representable,
/// curve_error::precondition. Values of f may be negative elsewhere (f = -t has f* = f on
/// t > 0).
///
/// Super-additive closure (max-plus): f̄* = max_{n >= 0} f^(n) with the max-plus convolution
/// and f^(0) = 0 at 0, -infinity elsewhere. For a finite f with f(0) <= 0 and f(0+) <= 0,
/// f̄* = -((-f)*) (the sub-additive closure of -f, whose preconditions then hold). netcc has
/// no -infinity (see netcc/calculus/maxplus.hpp), and the other cases have exact answers in
/// +infinity: f(0) > 0 gives +infinity everywhere (f̄*(0) >= n f(0)); f(0) <= 0 < f(0+)
/// gives 0 at 0 and +infinity for t > 0 (n - 1 short pieces each worth about f(0+)). A curve
/// that takes +infinity elsewhere (with f(0), f(0+) <= 0) gives curve_error::precondition.
///
/// Shortcut: when g = min(delta_0, f) satisfies g ⊗ g = g (f sub-additive, as for a token
/// bucket or a staircase), f* = g is returned after that one convolution.
///
/// Cost: one UPP convolution per element (two per breakpoint of the transient and of the
/// pattern); periods multiply through lcm, so closures of curves with many segments of
/// unrelated lengths grow quickly.
///
/// @code
/// using netcc::calculus::curve;
/// using netcc::calculus::rational;
/// using netcc::calculus::upp;
/// // a token bucket is sub-additive with f(0) = 0: its own closure
/// const upp tb = subadditive_closure(curve::token_bucket(rational{2}, rational{5}));
/// bool same = tb == upp::from_curve(curve::token_bucket(rational{2}, rational{5}));   // true
/// // a rate-latency curve is 0 near 0: splitting t into short pieces costs nothing
/// const upp z = subadditive_closure(curve::rate_latency(rational{3}, rational{1}));  // 0
/// // 3 on (0, 2] only: the closure is the staircase 3 ceil(t / 2)
/// const upp s = subadditive_closure(
///     upp::make(curve::delay(rational{2}) + curve::window(rational{3}), rational{2},
///               rational{1}, rational{0}));
/// @endcode
#pragma once

#include <cstdint>
#include <vector>

#include "netcc/calculus/curve.hpp"
#include "netcc/calculus/maxplus.hpp"
#include "netcc/calculus/upp.hpp"

namespace netcc::detail {

// delta_0 as a UPP curve: 0 at 0, +infinity after.
template <class T>
calculus::basic_upp<T> closure_delta() {
  return calculus::basic_upp<T>::from_curve(calculus::basic_curve<T>::delay(T{}));
}

// Closure of the point (a, v), a > 0: n v at n a, +infinity elsewhere.
template <class T>
calculus::basic_upp<T> closure_of_point(T a, T v) {
  using ext = calculus::extended<T>;
  curve_builder<T> b;
  b.push(T{}, ext{T{}}, ext::infinity(), T{});
  b.push(a, ext{v}, ext::infinity(), T{});
  return calculus::basic_upp<T>::make(b.finish(), T{}, a, v);
}

// floor(x / y) and ceil(x / y) for y > 0; false when they do not fit.
template <class T>
bool closure_floor(T x, T y, std::int64_t& k) {
  return upp_floor_div<T>(x, y, k);
}
template <class T>
bool closure_ceil(T x, T y, std::int64_t& k) {
  if (!upp_floor_div<T>(T{} - x, y, k)) return false;
  k = -k;
  return true;
}

// Closure of the open segment on (a, b) with right limit v at a and slope rho (0 <= a < b;
// v >= 0 when a = 0), or of [a, b) when closed_left (the point (a, v) and the open segment
// together: n copies then cover [n a, n b), n <= t / a): see the file comment.
template <class T>
calculus::basic_upp<T> closure_of_segment(T a, T b, T v, T rho, bool closed_left = false) {
  using U = calculus::basic_upp<T>;
  using ext = calculus::extended<T>;
  using nt = calculus::curve_number<T>;
  const T zero{};
  const T w = v - rho * a;
  const bool smallest = !(w < zero);
  const T t0 = a == zero ? b : a * b / (b - a) + a;
  const T d = smallest ? b : a;
  const T c = rho * d + w;
  const T h = t0 + d;
  if (!nt::good(w) || !nt::good(t0) || !nt::good(c) || !nt::good(h)) {
    return U::invalid(calculus::curve_error::overflow);
  }
  // n at time t > 0 (inside an open interval between breakpoints or at one): the chosen
  // integer in (t / b, t / a), or none
  bool fits = true;
  const auto pick = [&](T t, std::int64_t& n) -> bool {
    std::int64_t lo = 0;
    if (!closure_floor<T>(t, b, lo)) return fits = false;
    lo += 1;
    if (a == zero) {
      n = lo;
      return true;
    }
    std::int64_t hi = 0;
    if (closed_left) {
      if (!closure_floor<T>(t, a, hi)) return fits = false;
    } else {
      if (!closure_ceil<T>(t, a, hi)) return fits = false;
      hi -= 1;
    }
    if (hi < lo) return false;
    n = smallest ? lo : hi;
    return true;
  };
  const auto value = [&](T t) -> ext {
    std::int64_t n = 0;
    if (!pick(t, n)) return ext::infinity();
    return ext{rho * t + nt::from_int(n) * w};
  };
  std::vector<T> xs{zero, h};
  std::int64_t kb = 0;
  if (!closure_floor<T>(h, b, kb)) return U::invalid(calculus::curve_error::overflow);
  for (std::int64_t k = 1; k <= kb; ++k) xs.push_back(nt::from_int(k) * b);
  if (zero < a) {
    std::int64_t ka = 0;
    if (!closure_floor<T>(h, a, ka)) return U::invalid(calculus::curve_error::overflow);
    for (std::int64_t k = 1; k <= ka; ++k) xs.push_back(nt::from_int(k) * a);
  }
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  curve_builder<T> out;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const T x = xs[i];
    const ext vx = x == zero ? ext{zero} : value(x);
    if (i + 1 == xs.size()) {
      out.push(x, vx, ext::infinity(), zero);
      break;
    }
    const T mid = x + (xs[i + 1] - x) / nt::from_int(2);
    std::int64_t n = 0;
    if (pick(mid, n)) {
      out.push(x, vx, ext{rho * x + nt::from_int(n) * w}, rho);
    } else {
      out.push(x, vx, ext::infinity(), zero);
    }
  }
  if (!fits) return U::invalid(calculus::curve_error::overflow);
  return U::make(out.finish(), t0, d, c);
}

// Appends the closures of the elements of w on [from, to): the point at each breakpoint and
// the open segment after it (finite ones; the point at 0 has closure delta_0).
template <class T>
bool closure_elements(const calculus::basic_curve<T>& w, T from, T to,
                      std::vector<calculus::basic_upp<T>>& out) {
  if (!(from < to)) return true;
  const auto pts = w.breakpoints();
  std::vector<T> starts{from};
  for (const auto& p : pts) {
    if (from < p.t && p.t < to) starts.push_back(p.t);
  }
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const T a = starts[i];
    const T b = i + 1 < starts.size() ? starts[i + 1] : to;
    const auto va = w.at(a);
    const auto ra = w.right_limit(a);
    if (!va.valid() || !ra.valid()) return false;
    // a point continuous with the segment after it joins it: [a, b) is one element
    const bool joined = T{} < a && va.is_finite() && va == ra;
    if (T{} < a && va.is_finite() && !joined) out.push_back(closure_of_point<T>(a, va.value()));
    if (ra.is_finite()) {
      // the slope of w just after a
      std::size_t j = 0;
      while (j + 1 < pts.size() && !(a < pts[j + 1].t)) ++j;
      out.push_back(closure_of_segment<T>(a, b, ra.value(), pts[j].slope, joined));
    }
    if (!out.empty() && !out.back().valid()) return false;
  }
  return true;
}

// f ⊗ g for UPP curves, routed so that two periodic parts of different rates are never
// convolved directly: with L = lcm(d_f, d_g) and g the faster part, a split (s, u) with
// s >= T_f and u >= T_g + L costs more than (s + L, u - L) (the change is
// L (rho_f - rho_g) < 0, and both points stay where f and g are finite or +infinity alike), so
// f ⊗ g = min(f ⊗ g|[0, T_g + L], f|[0, T_f] ⊗ g), each a convolution with a finite piece.
// This stays exact when the faster pattern takes +infinity between finite points (closures
// of points and segments do), where a bound from the pattern's finite values alone would not
// hold; without such gaps the UPP convolution is used as is.
template <class T>
calculus::basic_upp<T> closure_convolve(const calculus::basic_upp<T>& f,
                                        const calculus::basic_upp<T>& g) {
  using U = calculus::basic_upp<T>;
  if (!f.valid()) return f;
  if (!g.valid()) return g;
  if (f.periodic_infinite() || g.periodic_infinite() ||
      f.rise() * g.period() == g.rise() * f.period()) {
    return convolve(f, g);
  }
  const bool g_fast = f.rise() * g.period() < g.rise() * f.period();
  const U& slow = g_fast ? f : g;
  const U& fast = g_fast ? g : f;
  bool gaps = false;  // +infinity between finite points of the faster pattern
  const T end = fast.transient() + fast.period();
  for (const auto& p : fast.base().breakpoints()) {
    if (p.t < fast.transient() || !(p.t < end)) continue;
    if (p.value.is_inf() || p.right.is_inf()) gaps = true;
  }
  if (fast.base().right_limit(fast.transient()).is_inf()) gaps = true;
  if (!gaps) return convolve(f, g);
  T l{};
  std::int64_t ka = 0;
  std::int64_t kb = 0;
  if (!upp_lcm<T>(slow.period(), fast.period(), l, ka, kb)) {
    return U::invalid(calculus::curve_error::bad_argument);
  }
  const U fast_head = U::from_curve(fast.unroll(fast.transient() + l));
  const U slow_head = U::from_curve(slow.unroll(slow.transient()));
  if (!fast_head.valid()) return fast_head;
  if (!slow_head.valid()) return slow_head;
  const U a = convolve(slow, fast_head);
  if (!a.valid()) return a;
  const U b = convolve(slow_head, fast);
  if (!b.valid()) return b;
  return min(a, b);
}

// The convolution of a list of UPP curves (delta_0 for none).
template <class T>
calculus::basic_upp<T> closure_product(const std::vector<calculus::basic_upp<T>>& v) {
  if (v.empty()) return closure_delta<T>();
  calculus::basic_upp<T> r = v.front();
  for (std::size_t i = 1; i < v.size() && r.valid(); ++i) r = closure_convolve(r, v[i]);
  return r;
}

}  // namespace netcc::detail

namespace netcc::calculus {

/// @brief Sub-additive closure f* = min_{n >= 0} f^(n) of a UPP curve (f^(0) = delta_0: 0 at
/// 0, +infinity after), exact for rational, by elements (Bouillard–Thierry 2008; see the file
/// comment). f* is sub-additive, f*(0) = 0, f* <= f on t > 0, and f* is the largest
/// sub-additive function below min(delta_0, f) (Le Boudec, Thiran §3.1.10).
///
/// Preconditions: f(0) >= 0 and f(0+) >= 0, else curve_error::precondition (f* would be
/// -infinity); +infinity values allowed. An invalid f is returned as is; an overflow or
/// incommensurable double periods give the error of the UPP operation that met it.
/// @code
/// using netcc::calculus::upp;
/// auto s = subadditive_closure(upp::staircase(3, 2));   // 3 ceil(t / 2), already sub-additive
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_upp<T> subadditive_closure(const basic_upp<T>& f) {
  using U = basic_upp<T>;
  if (!f.valid()) return f;
  const extended<T> f0 = f(T{});
  const extended<T> f0r = f.right_limit(T{});
  if (!f0.valid() || !f0r.valid()) return U::invalid(curve_error::overflow);
  if (f0 < extended<T>{} || f0r < extended<T>{}) return U::invalid(curve_error::precondition);
  // g = min(delta_0, f) has g* = f*; when g ⊗ g = g, g^(n) = g for all n and f* = g (a
  // sub-additive f with f(0) = 0 is its own closure, LB-T §3.1.10): one convolution
  const U g = min(detail::closure_delta<T>(), f);
  if (!g.valid()) return g;
  const U gg = detail::closure_convolve(g, g);
  if (gg.valid() && gg == g) return g;
  const T t0 = f.transient();
  const T d = f.period();
  const basic_curve<T> w = f.unroll(t0 + d);
  if (!w.valid()) return U::invalid(w.error());
  std::vector<U> transient;
  if (!detail::closure_elements<T>(w, T{}, t0, transient)) {
    return U::invalid(transient.empty() ? curve_error::overflow : transient.back().error());
  }
  U result = detail::closure_product<T>(transient);
  if (!result.valid() || f.periodic_infinite()) return result;
  std::vector<U> pattern;
  if (!detail::closure_elements<T>(w, t0, t0 + d, pattern)) {
    return U::invalid(pattern.empty() ? curve_error::overflow : pattern.back().error());
  }
  // p: f on [t0, t0 + d), +infinity elsewhere
  const U p = U::from_curve(detail::upp_piece(w, t0, t0 + d));
  if (!p.valid()) return p;
  bool finite_piece = false;
  for (const auto& q : p.base().breakpoints()) {
    if (q.value.is_finite() || q.right.is_finite()) finite_piece = true;
  }
  if (!finite_piece) return result;
  U fp = detail::closure_convolve(p, detail::closure_product<T>(pattern));
  if (!fp.valid()) return fp;
  fp = detail::closure_convolve(fp, detail::closure_of_point<T>(d, f.rise()));
  if (!fp.valid()) return fp;
  fp = min(detail::closure_delta<T>(), fp);
  if (!fp.valid()) return fp;
  return detail::closure_convolve(result, fp);
}

/// @brief Sub-additive closure of a basic curve, through its UPP form (the closure of an
/// ultimately affine curve is UPP, in general not ultimately affine: use to_curve() when it
/// is). Preconditions as for the UPP overload.
/// @code
/// auto z = subadditive_closure(netcc::calculus::curve::rate_latency(2, 1));   // 0
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_upp<T> subadditive_closure(const basic_curve<T>& f) {
  return subadditive_closure(basic_upp<T>::from_curve(f));
}

/// @brief Super-additive closure (max-plus) f̄* = max_{n >= 0} f^(n) of a UPP curve, with the
/// max-plus convolution and f^(0) = 0 at 0, -infinity after; f̄* = -((-f)*) for a finite f
/// with f(0) <= 0 and f(0+) <= 0 (Le Boudec, Thiran §3.2; see the file comment). f(0) > 0
/// gives +infinity everywhere; f(0) <= 0 < f(0+) gives 0 at 0 and +infinity after. Any other
/// f that takes +infinity: curve_error::precondition (-f would take -infinity).
/// @code
/// using netcc::calculus::upp;
/// // a rate-latency curve is convex with f(0) = 0: its own super-additive closure
/// auto s = superadditive_closure(upp::from_curve(netcc::calculus::curve::rate_latency(2, 1)));
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_upp<T> superadditive_closure(const basic_upp<T>& f) {
  using U = basic_upp<T>;
  if (!f.valid()) return f;
  const extended<T> f0 = f(T{});
  const extended<T> f0r = f.right_limit(T{});
  if (!f0.valid() || !f0r.valid()) return U::invalid(curve_error::overflow);
  if (extended<T>{} < f0) return U::from_curve(basic_curve<T>::infinite());
  if (extended<T>{} < f0r) return detail::closure_delta<T>();
  if (!detail::upp_all_finite(f)) return U::invalid(curve_error::precondition);
  const U m = negate(f);
  if (!m.valid()) return m;
  const U c = subadditive_closure(m);
  if (!c.valid()) return c;
  if (!detail::upp_all_finite(c)) return U::invalid(curve_error::undefined);
  return negate(c);
}

/// @brief Super-additive closure of a basic curve, through its UPP form; as for the UPP
/// overload.
/// @code
/// auto s = superadditive_closure(netcc::calculus::curve::rate(3));   // 3 t
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_upp<T> superadditive_closure(const basic_curve<T>& f) {
  return superadditive_closure(basic_upp<T>::from_curve(f));
}

}  // namespace netcc::calculus
