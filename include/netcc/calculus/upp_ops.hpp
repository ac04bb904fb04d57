// SPDX-License-Identifier: MIT
/// @file
/// @brief Further operations on ultimately pseudo-periodic curves (netcc/calculus/upp.hpp):
/// min-plus deconvolution, the upper pseudo-inverse, composition, and the vertical and
/// horizontal deviations with the time at which each is reached.
///
/// Sources: A. Bouillard, É. Thierry, "An Algorithmic Toolbox for Network Calculus", Discrete
/// Event Dynamic Systems 18(1), 2008 (UPP functions are closed under deconvolution; the
/// operations are computed on transient and periodic parts); A. Bouillard, M. Boyer,
/// E. Le Corronc, "Deterministic Network Calculus", 2018 (the seed's reference [27]);
/// R. Zippo, P. Nikolaus, G. Stea, "Extending the Network Calculus Algorithmic Toolbox for
/// Ultimately Pseudo-Periodic Functions: Pseudo-Inverse and Composition", Discrete Event
/// Dynamic Systems 33, 2023 (pseudo-inverses and composition of UPP curves). The transient
/// and period bounds used here are derived in this file (the argument is given with each
/// function); they may exceed the papers' tightest bounds, which changes only the work done,
/// since every result is brought to canonical form (basic_upp::make).
///
/// Conventions (those of netcc/calculus/minplus.hpp): netcc keeps +infinity but no
/// -infinity. Where the algebra would produce -infinity everywhere (a deconvolution by a
/// curve that is +infinity everywhere, a composition with f's limit -infinity) the result is
/// invalid with curve_error::undefined, as for basic_curve.
///
/// @code
/// using netcc::calculus::curve;
/// using netcc::calculus::rational;
/// using netcc::calculus::upp;
/// const upp s = upp::staircase(rational{3}, rational{2});          // 3 ceil(t / 2)
/// const upp r = upp::from_curve(curve::rate_latency(rational{2}, rational{1}));
/// const upp out = deconvolve(s, r);                                // output arrival curve
/// const upp acks = compose(upp::packetizer(rational{1500}),
///                          upp::from_curve(curve::rate(rational{1000})));
/// auto delay = horizontal_deviation_point(s, r);                   // value and time
/// @endcode
#pragma once

#include <cstdint>
#include <type_traits>

#include "netcc/calculus/curve.hpp"
#include "netcc/calculus/minplus.hpp"
#include "netcc/calculus/upp.hpp"

namespace netcc::detail {

// f non-decreasing, checked on two periods past its transient (the rest repeats).
template <class T>
bool upp_non_decreasing(const calculus::basic_upp<T>& f) {
  if (f.is_ultimately_affine()) return f.to_curve().is_non_decreasing();
  return !(f.rise() < T{}) && f.unroll(f.transient() + f.period() + f.period()).is_non_decreasing();
}

// The smallest k >= 0 with f(T + k d) > y for a UPP f whose periodic part rises (c > 0):
// f(T + k d) = f(T) + k c.
template <class T>
bool upp_periods_above(const calculus::basic_upp<T>& f, T y, std::int64_t& k) {
  const calculus::extended<T> ft = f(f.transient());
  if (!ft.is_finite()) return false;
  if (y < ft.value()) {
    k = 0;
    return true;
  }
  if (!upp_floor_div<T>(y - ft.value(), f.rise(), k)) return false;
  k = k + 1;
  return true;
}

}  // namespace netcc::detail

namespace netcc::calculus {

/// @brief Min-plus deconvolution (f ⊘ g)(t) = sup_{u >= 0} {f(t + u) - g(u)} of UPP curves
/// ([25] §3.1.10; B–T 2008 and [27]: UPP curves are closed under it), exact for rational.
///
/// Terms with g(u) = +infinity are left out, terms with f(t + u) = +infinity against a finite
/// g(u) are +infinity (as netcc::calculus::deconvolve). Cases, with rates rho = c / d:
/// - g +infinity everywhere: every term is left out, the supremum of nothing (-infinity):
///   curve_error::undefined (as deconvolve on curves).
/// - g finite somewhere in its periodic part and f growing faster (rho_f > rho_g, or f's
///   periodic part +infinity): f(t + u) - g(u) is unbounded in u for every t, so f ⊘ g is
///   +infinity everywhere.
/// - Otherwise, with U = max(T_f, T_g) and l = lcm(d_f, d_g): for u >= U and t >= 0,
///   f(t + u + l) - g(u + l) = f(t + u) - g(u) + l (rho_f - rho_g) <= f(t + u) - g(u), so the
///   terms with u >= U + l are dominated and f ⊘ g = f ⊘ g_U, g_U = g on [0, U + l) and
///   +infinity after (when g's periodic part is +infinity, g = g_U with U + l = T_g + d_g).
///   This is the decomposition of the divisor into a finite part, after which the periodic
///   part adds nothing (B–T 2008's argument for deconvolution, written here for netcc's
///   canonical form).
/// - f ⊘ g_U with g_U supported on [0, e): (f ⊘ g_U)(t + d_f) = (f ⊘ g_U)(t) + c_f for
///   t >= T_f (every term uses f at t + u >= T_f), so the result has f's period from T_f;
///   its base on [0, T_f + d_f] is netcc::calculus::deconvolve_general of f unrolled to
///   T_f + 2 d_f + e and g_U.
/// @code
/// using netcc::calculus::curve;
/// using netcc::calculus::upp;
/// // a staircase 3 ceil(t / 2) through a rate-latency server (R = 2, T = 1)
/// auto out = deconvolve(upp::staircase(3, 2), upp::from_curve(curve::rate_latency(2, 1)));
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_upp<T> deconvolve(const basic_upp<T>& f, const basic_upp<T>& g) {
  using U = basic_upp<T>;
  if (!f.valid()) return f;
  if (!g.valid()) return g;
  bool fi = false;
  bool gi = false;
  const T rf = detail::upp_rate(f, fi);
  const T rg = detail::upp_rate(g, gi);
  const T tf = f.transient();
  const T tg = g.transient();
  T e{};
  if (gi) {
    e = tg + g.period();
  } else {
    if (fi || rg < rf) return U::from_curve(basic_curve<T>::infinite());
    T l{};
    std::int64_t kf = 0;
    std::int64_t kg = 0;
    if (!detail::upp_lcm<T>(f.period(), g.period(), l, kf, kg)) {
      return U::invalid(curve_error::bad_argument);
    }
    e = (tf < tg ? tg : tf) + l;
  }
  const basic_curve<T> gu = detail::upp_piece(g.unroll(e), T{}, e);
  const basic_curve<T> fu = f.unroll(tf + f.period() + f.period() + e);
  const basic_curve<T> r = deconvolve_general(fu, gu);
  if (!r.valid()) return U::invalid(r.error());
  return U::make(r, tf, f.period(), f.rise());
}

/// @brief Upper pseudo-inverse f^↑(y) = sup{x >= 0 | f(x) <= y} of a non-decreasing UPP
/// curve (seed §II; Zippo–Nikolaus–Stea 2023 for UPP curves), as a UPP curve over y >= 0;
/// right-continuous, 0 where the set is empty (y < f(0)), as netcc::calculus::upper_inverse.
///
/// An ultimately affine f (c = 0 included) is inverted exactly as a curve: an ultimately
/// constant f with plateau K has f^↑(y) = +infinity for y >= K (every x qualifies; netcc's
/// choice for the unbounded set). A periodic part that rises (c > 0): for y >= f(T), the set
/// {x | f(x) <= y} reaches past T, and since f(x + d) = f(x) + c there,
/// f^↑(y + c) = f^↑(y) + d: period (c, d) in the level from f(T) (taken from f(T) + c), the
/// base from the curve unrolled to T + 4d. curve_error::precondition when f is not
/// non-decreasing or its periodic part is not affine and does not rise.
/// @code
/// using netcc::calculus::upp;
/// auto inv = upper_inverse(upp::packetizer(2));   // 2 floor(y / 2) + 2
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_upp<T> upper_inverse(const basic_upp<T>& f) {
  using U = basic_upp<T>;
  if (!f.valid()) return f;
  if (!detail::upp_non_decreasing(f)) return U::invalid(curve_error::precondition);
  if (f.is_ultimately_affine()) {
    const basic_curve<T> ui = upper_inverse(f.to_curve());
    return ui.valid() ? U::from_curve(ui) : U::invalid(ui.error());
  }
  const T d = f.period();
  const T c = f.rise();
  const T t0 = f.transient();
  if (!(T{} < c)) return U::invalid(curve_error::precondition);
  const basic_curve<T> ui = upper_inverse(f.unroll(t0 + d + d + d + d));
  const extended<T> ft = f(t0);
  if (!ui.valid()) return U::invalid(ui.error());
  if (!ft.is_finite()) return U::invalid(curve_error::precondition);
  T from = ft.value() + c;
  if (from < T{}) from = T{};
  return U::make(ui, from, c, d);
}

/// @brief Composition (f ∘ g)(t) = f(g(t)) of UPP curves for a non-decreasing g
/// (curve_error::precondition otherwise), exact for rational; f is taken as f(0) below 0 and
/// as its limit at +infinity where g is +infinity (as netcc::calculus::compose).
///
/// Cases (Zippo–Nikolaus–Stea 2023 show UPP curves are closed under composition; the bounds
/// here are derived directly):
/// - both ultimately affine: compose on the curves (to_curve()), exact.
/// - g ultimately constant (c_g = 0) with plateau K: f ∘ g = f(K) from T_g on; computed on
///   the curves, f unrolled past K.
/// - g's periodic part +infinity: f ∘ g takes f's limit at +infinity, +infinity when f's
///   periodic part rises, undefined otherwise (an oscillating or falling f has no limit
///   that netcc can represent).
/// - c_g > 0: with c_g / d_f = p / q in lowest terms, g(t + q d_g) = g(t) + p d_f for
///   t >= T_g, and f(y + p d_f) = f(y) + p c_f for y >= T_f; with t0 = T_g + k d_g, k the
///   first period count with g(T_g + k d_g) > T_f (g is non-decreasing), f ∘ g has period
///   (q d_g, p c_f) from t0. The base is compose on g unrolled to t0 + q d_g and f unrolled
///   past g(t0 + q d_g).
/// @code
/// using netcc::calculus::curve;
/// using netcc::calculus::upp;
/// // the seed's ACK function (§III-B a): 1500 floor(D(t - 20) / 1500) for D(t) = 1000 t
/// auto acks = compose(upp::packetizer(1500),
///                     upp::from_curve(shift_right(curve::rate(1000), 20)));
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_upp<T> compose(const basic_upp<T>& f, const basic_upp<T>& g) {
  using U = basic_upp<T>;
  using nt = curve_number<T>;
  if (!f.valid()) return f;
  if (!g.valid()) return g;
  if (!detail::upp_non_decreasing(g)) return U::invalid(curve_error::precondition);
  const auto from = [](const basic_curve<T>& c) {
    return c.valid() ? U::from_curve(c) : U::invalid(c.error());
  };
  if (f.is_ultimately_affine() && g.is_ultimately_affine()) {
    return from(compose(f.to_curve(), g.to_curve()));
  }
  const T tg = g.transient();
  if (g.periodic_infinite()) {
    // f at +infinity: +infinity when f rises, no limit otherwise (f is not affine here)
    if (!(T{} < f.rise())) return U::invalid(curve_error::undefined);
    const basic_curve<T> gc = g.to_curve();
    T top{};
    for (const auto& p : gc.breakpoints()) {
      for (const extended<T>& y : {p.value, p.right}) {
        if (y.is_finite() && top < y.value()) top = y.value();
      }
    }
    return from(compose(f.unroll(top + f.period()), gc));
  }
  if (g.is_ultimately_affine() && g.rise() == T{}) {
    const extended<T> k = g(tg);
    if (!k.is_finite()) return U::invalid(curve_error::undefined);
    T top = k.value();
    if (top < T{}) top = T{};
    return from(compose(f.unroll(top + f.period()), g.to_curve()));
  }
  // c_g > 0 (g non-decreasing and not ultimately constant)
  T l{};
  std::int64_t q = 0;  // periods of g
  std::int64_t p = 0;  // periods of f
  if (!detail::upp_lcm<T>(g.rise(), f.period(), l, q, p)) {
    return U::invalid(curve_error::bad_argument);
  }
  std::int64_t k = 0;
  if (!detail::upp_periods_above(g, f.transient(), k)) return U::invalid(curve_error::overflow);
  const T t0 = tg + nt::from_int(k) * g.period();
  const T dd = nt::from_int(q) * g.period();
  const T cc = nt::from_int(p) * f.rise();
  const T h = t0 + dd;
  const extended<T> gh = g(h);
  if (!gh.is_finite() || !nt::good(t0) || !nt::good(dd) || !nt::good(cc) || !nt::good(h)) {
    return U::invalid(curve_error::overflow);
  }
  T top = gh.value();
  if (top < T{}) top = T{};
  const basic_curve<T> r = compose(f.unroll(top + f.period()), g.unroll(h));
  if (!r.valid()) return U::invalid(r.error());
  return U::make(r, t0, dd, cc);
}

/// @brief The vertical deviation of UPP curves (as vertical_deviation) with the earliest time
/// at which it is reached (netcc::calculus::deviation_point). Two ultimately affine curves
/// are handled exactly as curves (to_curve()). When f grows faster than g
/// (rho_f > rho_g, and f finite on the horizon below) the value is +infinity with reach
/// at_infinity. Otherwise (f - g)(t + l) <= (f - g)(t) for t >= max(T_f, T_g) (l =
/// lcm(d_f, d_g)), so a supremum reached (or approached) later is also reached one common
/// period earlier: the earliest time lies in [0, max(T_f, T_g) + l] and the curves unrolled
/// there give it exactly (vertical_deviation_point on curves).
/// @code
/// using netcc::calculus::curve;
/// using netcc::calculus::upp;
/// auto p = vertical_deviation_point(upp::staircase(3, 2), upp::from_curve(curve::rate(2)));
/// // 3, approached as t decreases to 0
/// @endcode
template <CurveNumber T>
[[nodiscard]] deviation_point<T> vertical_deviation_point(const basic_upp<T>& f,
                                                          const basic_upp<T>& g) {
  using ext = extended<T>;
  using P = deviation_point<T>;
  if (!f.valid()) return P{ext{}, T{}, deviation_reach::at, false, f.error()};
  if (!g.valid()) return P{ext{}, T{}, deviation_reach::at, false, g.error()};
  if (f.is_ultimately_affine() && g.is_ultimately_affine()) {
    return vertical_deviation_point(f.to_curve(), g.to_curve());  // exact on the curves
  }
  bool fi = false;
  bool gi = false;
  const T rf = detail::upp_rate(f, fi);
  const T rg = detail::upp_rate(g, gi);
  T l{};
  std::int64_t kf = 0;
  std::int64_t kg = 0;
  if (!detail::upp_lcm<T>(f.period(), g.period(), l, kf, kg)) {
    return P{ext{}, T{}, deviation_reach::at, false, curve_error::bad_argument};
  }
  const T h = (f.transient() < g.transient() ? g.transient() : f.transient()) + l;
  const P p = vertical_deviation_point(f.unroll(h), g.unroll(h));
  if (!p.valid() || p.value.is_inf()) return p;
  if (!gi && (fi || rg < rf)) {
    return P{ext::infinity(), T{}, deviation_reach::at_infinity, false, curve_error::none};
  }
  return p;
}

/// @brief The horizontal deviation of UPP curves (as horizontal_deviation) with the arrival
/// time at which it is reached (netcc::calculus::deviation_point); preconditions as
/// horizontal_deviation for UPP curves. Two ultimately affine curves are handled exactly as
/// curves (to_curve(); no common period of the rises is needed).
///
/// With delay(t) = max(t, g^↓(f(t))) - t: when f's periodic part rises (c_f > 0) and g's
/// inverse repeats from level Y (g^↓(y + c_g) = g^↓(y) + d_g for y > g(T_g)), take
/// K_f c_f = K_g c_g (the lcm of the rises); for t >= t1, the first T_f + k d_f with
/// f > g(T_g), delay(t + K_f d_f) = delay(t) + K_g d_g - K_f d_f <= delay(t) when
/// rho_f <= rho_g, so the earliest time lies in [0, t1 + K_f d_f]. An ultimately constant f
/// has a non-increasing delay after T_f (horizon T_f + d_f). The curves are evaluated on that
/// horizon: f unrolled to it, g unrolled until it exceeds f there (or g itself when it is
/// ultimately affine), and times after the horizon left out. When f outgrows g with both
/// finite, the value is +infinity with reach at_infinity; the value always equals
/// horizontal_deviation (curve_error::undefined otherwise, which would be a defect).
/// @code
/// using netcc::calculus::curve;
/// using netcc::calculus::upp;
/// auto p = horizontal_deviation_point(upp::staircase(3, 2), upp::from_curve(curve::rate(2)));
/// // 3/2, approached as t decreases to 0
/// @endcode
template <CurveNumber T>
[[nodiscard]] deviation_point<T> horizontal_deviation_point(const basic_upp<T>& f,
                                                            const basic_upp<T>& g) {
  using ext = extended<T>;
  using P = deviation_point<T>;
  using nt = curve_number<T>;
  const auto fail = [](curve_error e) { return P{ext{}, T{}, deviation_reach::at, false, e}; };
  if (f.valid() && g.valid() && f.is_ultimately_affine() && g.is_ultimately_affine()) {
    return horizontal_deviation_point(f.to_curve(), g.to_curve());  // exact on the curves
  }
  const deviation<T> v = horizontal_deviation(f, g);
  if (v.error != curve_error::none) return fail(v.error);
  const T tf = f.transient();
  T hz{};  // the time horizon
  if (f.periodic_infinite()) {
    hz = tf + f.period();
  } else if (f.is_ultimately_affine() && f.rise() == T{}) {
    hz = tf + f.period();
  } else if (!g.is_ultimately_affine() || !(g.rise() == T{})) {
    // both rise (g's periodic part +infinity is affine with rise 0, handled below)
    bool fi = false;
    bool gi = false;
    const T rf = detail::upp_rate(f, fi);
    const T rg = detail::upp_rate(g, gi);
    if (gi) return fail(curve_error::precondition);
    if (rg < rf) {
      return P{ext::infinity(), T{}, deviation_reach::at_infinity, false, curve_error::none};
    }
    T lc{};
    std::int64_t kf = 0;
    std::int64_t kg = 0;
    if (!detail::upp_lcm<T>(f.rise(), g.rise(), lc, kf, kg)) return fail(curve_error::bad_argument);
    const ext gt = g(g.transient());
    if (!gt.is_finite()) return fail(curve_error::precondition);
    std::int64_t k = 0;
    if (!detail::upp_periods_above(f, gt.value(), k)) return fail(curve_error::overflow);
    hz = tf + nt::from_int(k + kf) * f.period();
  } else {
    // g ultimately constant (or +infinity) and f rises: f passes g's plateau at a finite time
    const basic_curve<T> gc = g.to_curve();
    T top{};
    for (const auto& p : gc.breakpoints()) {
      for (const ext& y : {p.value, p.right}) {
        if (y.is_finite() && top < y.value()) top = y.value();
      }
    }
    std::int64_t k = 0;
    if (!detail::upp_periods_above(f, top, k)) return fail(curve_error::overflow);
    hz = tf + nt::from_int(k + 1) * f.period();
  }
  if (!nt::good(hz)) return fail(curve_error::overflow);
  const basic_curve<T> fc = f.unroll(hz);
  basic_curve<T> gc = basic_curve<T>::invalid(curve_error::undefined);
  if (g.is_ultimately_affine()) {
    gc = g.to_curve();
  } else {
    const ext fh = f(hz);
    if (!fh.is_finite()) return fail(curve_error::precondition);
    std::int64_t k = 0;
    if (!detail::upp_periods_above(g, fh.value(), k)) return fail(curve_error::overflow);
    gc = g.unroll(g.transient() + nt::from_int(k + 1) * g.period());
  }
  // the identity on [0, hz], +infinity after: later times are left out
  detail::curve_builder<T> b;
  b.push(T{}, ext{}, ext{}, nt::from_int(1));
  b.push(hz, ext{hz}, ext::infinity(), T{});
  const basic_curve<T> id = b.finish();
  if (!fc.valid() || !gc.valid() || !id.valid()) return fail(curve_error::overflow);
  const P p = detail::deviation_point_widened<T>(
      fc, gc, id, [](const auto& a, const auto& c, const auto& i) {
        return detail::horizontal_deviation_point_impl(a, c, i);
      });
  if (!p.valid()) return p;
  if (!(p.value == v.value)) return fail(curve_error::undefined);
  return p;
}

}  // namespace netcc::calculus
