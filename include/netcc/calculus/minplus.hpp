// SPDX-License-Identifier: MIT
/// @file
/// @brief Min-plus operations on netcc::calculus::basic_curve: convolution (a general
/// algorithm and linear-time special cases), deconvolution, composition, lower and upper
/// pseudo-inverses, and the horizontal (delay) and vertical (backlog) deviations.
///
/// Paper: Harvinder Lehal, Natchanon Luangsomboon, Jörg Liebeherr, "Network Calculus
/// Characterization of Congestion Control for Time-Varying Traffic" (network-calculus seed),
/// §II; algorithms and laws from its references [25] (Le Boudec, Thiran, "Network Calculus",
/// 2001, §3.1) and [27] (Bouillard, Boyer, Le Corronc, "Deterministic Network Calculus", 2018,
/// ch. 4 and 9).
///
/// What is implemented
/// - Min-plus convolution, seed §II: (f ⊗ g)(t) = inf_{0 <= s <= t} { f(s) + g(t - s) }, with
///   the departures of an exact service curve D = A ⊗ S and of the path server D = Â ⊗ S
///   (§III-A), Â = A ⊗ S_r (Eq. 2) and Â = A ⊗ S_W (Eq. 5). netcc::calculus::convolve
///   dispatches to:
///   | case (checked)                                                          | algorithm | cost |
///   | ------------------------------------------------------------------------ | --------- | ---- |
///   | one operand has a single breakpoint: g(0) = c, g(t) = b + r t for t > 0 (rate, token bucket, window S_W, delta_0, constant) | f ⊗ g = min(f + c, b + r t + inf_{[0, t)} (f(s) - r s)), one sweep | O(n) |
///   | one operand is c on [0, T] then b + r (t - T) (rate-latency, delta_T), both non-decreasing | the case above, then a delay by T | O(n) |
///   | both convex ([25] Thm 3.1.7 / [27] Prop. 4.11)                           | slopes merged in increasing order | O(n + m) |
///   | both concave, non-decreasing, f(0) = g(0) = 0 ([25] Thm 3.1.6)            | f ⊗ g = min(f, g) | O(n + m) |
///   | anything else (netcc::calculus::convolve_general)                        | decomposition into convex runs, pairwise convolution of the pieces, lower envelope by a balanced tree of pointwise minima | O(n m log(n m)) typical, see below |
/// - Min-plus deconvolution (f ⊘ g)(t) = sup_{u >= 0} { f(t + u) - g(u) } ([25] §3.1.10):
///   concave runs of f against convex runs of g, points against whole curves, upper envelope;
///   +infinity wherever f is +infinity against a finite g; the term of a u with g(u) =
///   +infinity is left out (so f ⊘ delta_T is f advanced by T even when f reaches +infinity).
///   Fast path: g = delta_T with f non-decreasing gives f(t + T).
/// - Pseudo-inverses of a non-decreasing f, seed §II: the lower pseudo-inverse
///   f^↓(y) = inf{x >= 0 | f(x) >= y} (left-continuous) and the upper pseudo-inverse
///   f^↑(y) = sup{x >= 0 | f(x) <= y} = inf{x >= 0 | f(x) > y} (right-continuous), as curves
///   over y >= 0, O(n).
/// - Composition f ∘ g for a non-decreasing g (seed §III-B a: I_max floor(D(t - dR) / I_max);
///   §IV Theorem 1: Â_i(Â^†(D(t)))), O(m log n + n).
/// - Horizontal deviation h(f, g) = sup_{t >= 0} inf{d >= 0 | f(t) <= g(t + d)} (the delay
///   bound of an arrival curve f at a service curve g; the seed's horizontal distance between
///   A and D, §II, and the RTT of Eq. 1) and vertical deviation v(f, g) = sup_{t >= 0}
///   {f(t) - g(t)} (the backlog bound; B(t) = A(t) - D(t) of §II), O(n + m).
///
/// Deviations from the seed, and netcc's choices
/// - The seed's text prints the lower pseudo-inverse as inf{x | F(x) <= y}; that set contains
///   every x with F(x) <= y, so the infimum would be 0 for all y >= F(0). netcc uses the
///   definition of the seed's references [31], [32]: F^↓(y) = inf{x | F(x) >= y}. The upper
///   pseudo-inverse is as printed. On y < F(0), where {x >= 0 | F(x) <= y} is empty, F^↑(y) is
///   taken as 0 (= inf{x >= 0 | F(x) > y}).
/// - Galois relations (tested): for non-decreasing f and t >= 0, f^↓(y) <= t iff y <= f(t+);
///   for a left-continuous non-decreasing f and y >= f(0), f(t) <= y iff t <= f^↑(y).
/// - Pseudo-inverse curves are defined for y >= 0 (curves live on [0, infinity)); the
///   deviations therefore require f(0) >= 0 and g(0) >= 0, as for the seed's traffic functions.
///
/// Complexity of the general convolution: with n, m breakpoints and R_f, R_g convex runs
/// (R = 1 for a convex curve, R = number of segments for a concave one), the pieces have
/// O(n R_g + m R_f) breakpoints and the envelope costs O(log(n m)) pointwise minima over them:
/// O(n m log(n m)) for general curves. Deconvolution is the same with concave runs of f.
///
/// @code
/// using netcc::calculus::curve;
/// using netcc::calculus::rational;
/// const curve alpha = curve::token_bucket(rational{1}, rational{4});   // b = 4, r = 1
/// const curve beta = curve::rate_latency(rational{2}, rational{3});    // R = 2, T = 3
/// auto d = horizontal_deviation(alpha, beta).value;   // T + b / R = 5
/// auto q = vertical_deviation(alpha, beta).value;     // b + r T = 7
/// const curve out = deconvolve(alpha, beta);          // output arrival curve: 7 + t, t > 0
/// const curve dep = convolve(alpha, beta);            // departures bound
/// @endcode
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "netcc/calculus/curve.hpp"

namespace netcc::calculus {

/// @brief A scalar bound (delay or backlog) with its error: value is +infinity when the
/// bound does not exist; error != curve_error::none when it could not be computed.
/// @code
/// netcc::calculus::deviation<double> d{};
/// bool ok = d.valid();   // true: value 0
/// @endcode
template <CurveNumber T>
struct deviation {
  /// @brief The bound (a number or +infinity).
  extended<T> value{};
  /// @brief Why the bound is missing (none when valid).
  curve_error error = curve_error::none;
  /// @brief True when the bound was computed.
  [[nodiscard]] bool valid() const noexcept { return error == curve_error::none && value.valid(); }
};

}  // namespace netcc::calculus

namespace netcc::detail {

template <class T>
using cbp = calculus::breakpoint<T>;
template <class T>
using cext = calculus::extended<T>;

// A maximal run of finite segments [first, last] joined continuously with monotone slopes
// (non-decreasing for convex runs, non-increasing for concave runs).
struct curve_run {
  std::size_t first;
  std::size_t last;
};

// Splits a curve into runs; boundary[i] is false for the breakpoints inside a run.
template <class T>
void curve_runs(std::span<const cbp<T>> c, bool convex, std::vector<curve_run>& runs,
                std::vector<bool>& boundary) {
  runs.clear();
  boundary.assign(c.size(), true);
  std::size_t k = 0;
  while (k < c.size()) {
    if (c[k].right.is_inf()) {
      ++k;
      continue;
    }
    curve_run r{k, k};
    while (r.last + 1 < c.size()) {
      const cbp<T>& p = c[r.last];
      const cbp<T>& q = c[r.last + 1];
      if (q.right.is_inf() || q.value.is_inf() || !(q.value == q.right)) break;
      const T left = p.right.value() + p.slope * (q.t - p.t);
      if (!calculus::curve_number<T>::good(left) || !(cext<T>{left} == q.value)) break;
      if (convex ? (q.slope < p.slope) : (p.slope < q.slope)) break;
      boundary[r.last + 1] = false;
      ++r.last;
    }
    runs.push_back(r);
    k = r.last + 1;
  }
}

// A piecewise-linear function on an open interval, continuous inside: vertices with the slope
// after each, optionally extended by rays to -infinity (left) or +infinity (right).
template <class T>
struct run_vertex {
  T t;
  T y;
  T s;
};
template <class T>
struct run_shape {
  std::vector<run_vertex<T>> v;
  bool left_ray = false;
  T left_slope{};
  bool right_ray = false;
  bool everywhere_inf = false;
  void clear() {
    v.clear();
    left_ray = right_ray = everywhere_inf = false;
    left_slope = T{};
  }
};

// Flat storage of partial curves (+infinity outside their support) for the envelope.
template <class T>
struct curve_leaves {
  std::vector<cbp<T>> flat;
  std::vector<std::size_t> off{0};
  calculus::curve_error err = calculus::curve_error::none;

  void close(const curve_builder<T>& b) {
    if (!b.ok()) {
      if (err == calculus::curve_error::none) err = b.error();
      flat.resize(off.back());
      return;
    }
    if (flat.size() > off.back()) off.push_back(flat.size());
  }
  [[nodiscard]] std::size_t count() const { return off.size() - 1; }
};

// Emits a run shape restricted to t >= 0 as a leaf (negated when asked: deconvolution works
// with -f so that its upper envelope is a lower one); nothing when no part lies at t >= 0.
template <class T>
void emit_run_leaf(const run_shape<T>& sh, bool negate, curve_leaves<T>& out) {
  using ext = cext<T>;
  const auto Y = [negate](T y) { return negate ? -y : y; };
  const T zero{};
  const std::size_t K = sh.v.size();
  if (K == 0) return;
  if (!sh.right_ray && !(zero < sh.v.back().t)) return;  // ends at or before 0
  if (!sh.left_ray && K == 1 && !sh.right_ray) return;   // empty
  curve_builder<T> b(out.flat);
  std::size_t k = 0;
  if (!sh.left_ray && !(sh.v[0].t < zero)) {
    if (zero < sh.v[0].t) b.push(zero, ext::infinity(), ext::infinity(), zero);
    b.push(sh.v[0].t, ext::infinity(), ext{Y(sh.v[0].y)}, Y(sh.v[0].s));
    k = 1;
  } else {
    while (k < K && !(zero < sh.v[k].t)) ++k;
    T val;
    T slope;
    if (k == 0) {
      val = b.chk(sh.v[0].y + sh.left_slope * (zero - sh.v[0].t));
      slope = sh.left_slope;
    } else {
      const run_vertex<T>& p = sh.v[k - 1];
      val = b.chk(p.y + p.s * (zero - p.t));
      slope = p.s;
    }
    b.push(zero, ext{Y(val)}, ext{Y(val)}, Y(slope));
  }
  for (; k < K; ++k) {
    if (k + 1 == K && !sh.right_ray) {
      b.push(sh.v[k].t, ext::infinity(), ext::infinity(), zero);
    } else {
      b.push(sh.v[k].t, ext{Y(sh.v[k].y)}, ext{Y(sh.v[k].y)}, Y(sh.v[k].s));
    }
  }
  out.close(b);
}

// Lower envelope of the leaves by a balanced tree of pointwise minima.
template <class T>
calculus::basic_curve<T> curve_envelope(curve_leaves<T>& L) {
  if (L.err != calculus::curve_error::none) return calculus::basic_curve<T>::invalid(L.err);
  if (L.count() == 0) return calculus::basic_curve<T>::infinite();
  std::vector<cbp<T>> cur = std::move(L.flat);
  std::vector<std::size_t> off = std::move(L.off);
  std::vector<cbp<T>> nxt;
  std::vector<std::size_t> noff;
  while (off.size() > 2) {
    nxt.clear();
    noff.assign(1, 0);
    const std::size_t K = off.size() - 1;
    for (std::size_t k = 0; k < K; k += 2) {
      const std::span<const cbp<T>> a(cur.data() + off[k], off[k + 1] - off[k]);
      if (k + 1 == K) {
        nxt.insert(nxt.end(), a.begin(), a.end());
      } else {
        const std::span<const cbp<T>> c(cur.data() + off[k + 1], off[k + 2] - off[k + 1]);
        curve_builder<T> b(nxt);
        curve_combine<T>(a, c, b,
                         [](auto& o, T tau, bool has_next, T next, const auto& x, const auto& y) {
                           curve_emit_minmax<T>(o, tau, has_next, next, x, y, false);
                         });
        if (!b.ok()) return calculus::basic_curve<T>::invalid(b.error());
      }
      noff.push_back(nxt.size());
    }
    std::swap(cur, nxt);
    std::swap(off, noff);
  }
  return curve_access::make<T>(std::move(cur), calculus::curve_error::none);
}

// Leaf: curve c delayed by dt and raised by dy (+infinity before dt).
template <class T>
void leaf_shifted(std::span<const cbp<T>> c, T dt, T dy, curve_leaves<T>& out) {
  using ext = cext<T>;
  curve_builder<T> b(out.flat);
  if (T{} < dt) b.push(T{}, ext::infinity(), ext::infinity(), T{});
  for (const auto& p : c) b.push(b.chk(p.t + dt), p.value + dy, p.right + dy, p.slope);
  out.close(b);
}

template <class T>
bool seg_finite_len(std::span<const cbp<T>> c, std::size_t k) {
  return k + 1 < c.size();
}

// Convolution of two convex runs: start at the sum of their starts, slopes in increasing order.
template <class T>
void conv_runs(std::span<const cbp<T>> F, curve_run ra, std::span<const cbp<T>> G, curve_run rb,
               run_shape<T>& sh, curve_builder<T>& chk) {
  sh.clear();
  T t = chk.chk(F[ra.first].t + G[rb.first].t);
  T y = chk.chk(F[ra.first].right.value() + G[rb.first].right.value());
  std::size_t i = ra.first;
  std::size_t j = rb.first;
  for (;;) {
    const bool fi = i <= ra.last;
    const bool gj = j <= rb.last;
    if (!fi && !gj) {
      sh.v.push_back({t, y, T{}});
      return;
    }
    const bool take_f = fi && (!gj || !(G[j].slope < F[i].slope));
    std::span<const cbp<T>> C = take_f ? F : G;
    const std::size_t k = take_f ? i : j;
    sh.v.push_back({t, y, C[k].slope});
    if (!seg_finite_len(C, k)) {
      sh.right_ray = true;
      return;
    }
    const T len = C[k + 1].t - C[k].t;
    t = chk.chk(t + len);
    y = chk.chk(y + C[k].slope * len);
    if (take_f) {
      ++i;
    } else {
      ++j;
    }
    if (!chk.ok()) return;
  }
}

// Max-plus convolution of a concave run of f with the reflection of a convex run of g:
// the sup over x - u = t of f(x) - g(u) for x in the f-run and u in the g-run.
template <class T>
void deconv_runs(std::span<const cbp<T>> F, curve_run ra, std::span<const cbp<T>> G, curve_run rb,
                 run_shape<T>& sh, curve_builder<T>& chk) {
  sh.clear();
  const bool f_ray = !seg_finite_len(F, ra.last);
  const bool g_ray = !seg_finite_len(G, rb.last);
  const T a1 = F[ra.first].t;
  const T b1 = G[rb.first].t;
  const T F0 = F[ra.first].right.value();
  const T G0 = G[rb.first].right.value();
  const auto len = [](std::span<const cbp<T>> C, std::size_t k) { return C[k + 1].t - C[k].t; };
  // Totals over the finite segments.
  T fa = a1;
  T fy = F0;
  const std::size_t f_fin_end = f_ray ? ra.last : ra.last + 1;  // finite items [first, end)
  const std::size_t g_fin_end = g_ray ? rb.last : rb.last + 1;
  T gb = b1;
  T gy = G0;
  for (std::size_t k = rb.first; k < g_fin_end; ++k) {
    gb = chk.chk(gb + len(G, k));
    gy = chk.chk(gy + G[k].slope * len(G, k));
  }
  if (!chk.ok()) return;

  // Descending merge from (t, y): F items from index i forward, G finite items from index j
  // (inclusive) backward down to rb.first; stops at F's ray.
  const auto descend = [&](T t, T y, std::size_t i, std::size_t jp1) {
    // jp1 = one past the next G item to use (items jp1-1, jp1-2, ..., rb.first)
    for (;;) {
      const bool fi = i <= ra.last;
      const bool gj = jp1 > rb.first;
      if (!fi && !gj) {
        sh.v.push_back({t, y, T{}});
        return;
      }
      const bool take_f = fi && (!gj || !(F[i].slope < G[jp1 - 1].slope));
      const std::size_t k = take_f ? i : jp1 - 1;
      const T s = take_f ? F[k].slope : G[k].slope;
      sh.v.push_back({t, y, s});
      if (take_f && !seg_finite_len(F, k)) {
        sh.right_ray = true;
        return;
      }
      const T l = take_f ? len(F, k) : len(G, k);
      t = chk.chk(t + l);
      y = chk.chk(y + s * l);
      if (take_f) {
        ++i;
      } else {
        --jp1;
      }
      if (!chk.ok()) return;
    }
  };

  if (!g_ray) {
    // Start at the left end: x at the f-run's start, u at the g-run's end.
    descend(chk.chk(a1 - gb), chk.chk(F0 - gy), ra.first, rb.last + 1);
    return;
  }
  const T tau_last = G[rb.last].slope;
  if (!f_ray) {
    // Build leftwards from the right end (x at the f-run's end, u at the g-run's start).
    for (std::size_t k = ra.first; k < f_fin_end; ++k) {
      fa = chk.chk(fa + len(F, k));
      fy = chk.chk(fy + F[k].slope * len(F, k));
    }
    if (!chk.ok()) return;
    T t = chk.chk(fa - b1);
    T y = chk.chk(fy - G0);
    std::size_t ip1 = ra.last + 1;  // F items reversed: ip1-1 down to ra.first (ascending)
    std::size_t j = rb.first;       // G items forward (ascending), last one is the ray
    std::vector<run_vertex<T>>& v = sh.v;
    v.push_back({t, y, T{}});
    for (;;) {
      const bool fi = ip1 > ra.first;
      const bool take_f = fi && !(G[j].slope < F[ip1 - 1].slope);
      if (!take_f && j == rb.last) {  // G's ray: extends to -infinity
        sh.left_ray = true;
        sh.left_slope = tau_last;
        break;
      }
      const std::size_t k = take_f ? ip1 - 1 : j;
      const T s = take_f ? F[k].slope : G[k].slope;
      const T l = take_f ? len(F, k) : len(G, k);
      t = chk.chk(t - l);
      y = chk.chk(y - s * l);
      v.push_back({t, y, s});
      if (take_f) {
        --ip1;
      } else {
        ++j;
      }
      if (!chk.ok()) return;
    }
    std::reverse(v.begin(), v.end());
    return;
  }
  // Both rays.
  if (tau_last < F[ra.last].slope) {
    sh.everywhere_inf = true;
    return;
  }
  std::size_t i = ra.first;
  while (i < ra.last && tau_last < F[i].slope) {
    fa = chk.chk(fa + len(F, i));
    fy = chk.chk(fy + F[i].slope * len(F, i));
    ++i;
  }
  sh.left_ray = true;
  sh.left_slope = tau_last;
  descend(chk.chk(fa - gb), chk.chk(fy - gy), i, rb.last);
}

// Leaf: r(t) = c(x0 - t) + dy on [0, x0], +infinity after.
template <class T>
void leaf_reflected(std::span<const cbp<T>> c, T x0, T dy, curve_leaves<T>& out) {
  using ext = cext<T>;
  curve_builder<T> b(out.flat);
  const auto left_at = [&](std::size_t k, T t) -> ext {  // value on the segment from k at t
    if (c[k].right.is_inf()) return ext::infinity();
    return ext{b.chk(c[k].right.value() + c[k].slope * (t - c[k].t))};
  };
  if (x0 == T{}) {
    b.push(T{}, c[0].value + dy, ext::infinity(), T{});
    out.close(b);
    return;
  }
  std::size_t k = 0;  // last breakpoint strictly before x0
  while (k + 1 < c.size() && c[k + 1].t < x0) ++k;
  const ext at_x0 = (k + 1 < c.size() && c[k + 1].t == x0) ? c[k + 1].value : left_at(k, x0);
  b.push(T{}, at_x0 + dy, left_at(k, x0) + dy, -c[k].slope);
  for (std::size_t idx = k; idx >= 1; --idx) {
    b.push(b.chk(x0 - c[idx].t), c[idx].value + dy, left_at(idx - 1, c[idx].t) + dy,
           -c[idx - 1].slope);
  }
  b.push(x0, c[0].value + dy, ext::infinity(), T{});
  out.close(b);
}

// Leaf: c(t + u) + dy for t >= 0.
template <class T>
void leaf_advanced(std::span<const cbp<T>> c, T u, T dy, curve_leaves<T>& out) {
  curve_builder<T> b(out.flat);
  std::size_t i = 0;
  while (i + 1 < c.size() && !(u < c[i + 1].t)) ++i;
  const curve_local<T> s = curve_state<T>(c, i, u, b);
  b.push(T{}, s.v + dy, s.r + dy, s.s);
  for (std::size_t k = i + 1; k < c.size(); ++k) {
    b.push(b.chk(c[k].t - u), c[k].value + dy, c[k].right + dy, c[k].slope);
  }
  out.close(b);
}

// An interval of the time axis with open/closed/infinite ends.
template <class T>
struct curve_interval {
  T lo{};
  bool lo_closed = true;
  bool lo_inf = false;  // -infinity
  T hi{};
  bool hi_closed = true;
  bool hi_inf = false;  // +infinity
};

// Maximal intervals where the curve is +infinity (want_inf) or finite.
template <class T>
std::vector<curve_interval<T>> curve_intervals(std::span<const cbp<T>> c, bool want_inf) {
  std::vector<curve_interval<T>> out;
  bool open = false;
  curve_interval<T> cur;
  for (std::size_t i = 0; i < c.size(); ++i) {
    // point piece at t_i, then segment piece (t_i, t_{i+1})
    const bool pt = c[i].value.is_inf() == want_inf;
    const bool sg = c[i].right.is_inf() == want_inf;
    if (pt && !open) {
      cur = curve_interval<T>{};
      cur.lo = c[i].t;
      cur.lo_closed = true;
      open = true;
    } else if (!pt && open) {
      cur.hi = c[i].t;
      cur.hi_closed = false;
      out.push_back(cur);
      open = false;
    }
    if (sg && !open) {
      cur = curve_interval<T>{};
      cur.lo = c[i].t;
      cur.lo_closed = false;
      open = true;
    } else if (!sg && open) {
      cur.hi = c[i].t;
      cur.hi_closed = true;
      out.push_back(cur);
      open = false;
    }
  }
  if (open) {
    cur.hi_inf = true;
    cur.hi_closed = false;
    out.push_back(cur);
  }
  return out;
}

// Leaf: 0 on the interval (clipped to t >= 0), +infinity elsewhere.
template <class T>
void leaf_indicator(curve_interval<T> d, curve_leaves<T>& out) {
  using ext = cext<T>;
  const T zero{};
  if (!d.hi_inf && (d.hi < zero || (d.hi == zero && !d.hi_closed))) return;
  if (d.lo_inf || d.lo < zero) {
    d.lo = zero;
    d.lo_inf = false;
    d.lo_closed = true;
  }
  const bool point = !d.hi_inf && d.lo == d.hi;
  if (point && !(d.lo_closed && d.hi_closed)) return;
  curve_builder<T> b(out.flat);
  if (zero < d.lo) b.push(zero, ext::infinity(), ext::infinity(), zero);
  b.push(d.lo, d.lo_closed ? ext{} : ext::infinity(), point ? ext::infinity() : ext{}, zero);
  if (!point && !d.hi_inf)
    b.push(d.hi, d.hi_closed ? ext{} : ext::infinity(), ext::infinity(), zero);
  out.close(b);
}

// f ⊗ g for g with one breakpoint: g(0) = c, g(t) = b + r t for t > 0, in one sweep over f,
// emitted delayed by `shift` (h(0) on [0, shift]). With M(t) = inf_{[0, t)} (f(s) - r s):
//   (f ⊗ g)(t) = min(f(t) + c, b + r t + M(t)).
// At a breakpoint t_i, M(t_i) = m (the infimum so far) and M(t_i+) = m2 = min(m, f(t_i) - r t_i,
// f(t_i+) - r t_i). On the open segment after t_i, M(t) = min(m2, f(t) - r t) (the infimum of
// the segment so far is its current value if it decreases, its start if not), so
//   h(t) = min(f(t) + min(c, b), b + m2 + r t),
// the minimum of two lines (curve_emit_minmax).
template <class T>
calculus::basic_curve<T> conv_affine(std::span<const cbp<T>> F, const cbp<T>& g, T shift) {
  using ext = cext<T>;
  const ext c = g.value;
  const ext b = g.right;
  const T r = g.slope;
  curve_builder<T> out;
  out.reserve(2 * F.size() + 2);
  const ext h0 = F[0].value + c;
  if (T{} < shift) out.push(T{}, h0, h0, T{});
  if (b.is_inf()) {  // h = f + c
    for (const auto& p : F) out.push(out.chk(p.t + shift), p.value + c, p.right + c, p.slope);
    return out.finish();
  }
  const ext cmin = ext_min(c, b);
  const T bv = b.value();
  ext m = ext::infinity();
  bool on_line = false;  // the last piece emitted is the line b + m_line + r t
  ext m_line = ext::infinity();
  for (std::size_t i = 0; i < F.size() && out.ok(); ++i) {
    const cbp<T>& p = F[i];
    const bool has_next = i + 1 < F.size();
    const T rt = out.chk(r * p.t);
    const ext second_v = m.is_inf() ? m : ext{out.chk(bv + m.value() + rt)};
    const ext phi_v = p.value.is_inf() ? p.value : ext{out.chk(p.value.value() - rt)};
    const ext phi_r = p.right.is_inf() ? p.right : ext{out.chk(p.right.value() - rt)};
    const ext m2 = ext_min(m, ext_min(phi_v, phi_r));
    const curve_local<T> a{p.value + c, p.right + cmin, p.slope};
    const curve_local<T> line{second_v, m2.is_inf() ? m2 : ext{out.chk(bv + m2.value() + rt)}, r};
    const T tau = out.chk(p.t + shift);
    const T next = has_next ? out.chk(F[i + 1].t + shift) : T{};
    if (!out.ok()) break;
    bool skip = false;
    if (on_line && m2 == m_line && a.r.is_finite() && !(a.v < line.v)) {
      // Still on the same line through t_i (its value there, and at or below f + min(c, b)
      // over the segment): the breakpoint would be dropped as redundant, so it is not emitted.
      const T lr = line.r.value();
      const T ar = a.r.value();
      bool below = lr < ar || (lr == ar && !(a.s < r));
      if (below && has_next) {
        const T d = next - tau;
        const T fe = ar + a.s * d;
        const T le = lr + r * d;
        below = calculus::curve_number<T>::good(fe) && calculus::curve_number<T>::good(le) &&
                !(fe < le);
      } else if (below) {
        below = !(a.s < r);
      }
      skip = below;
    }
    if (!skip) {
      on_line =
          curve_emit_minmax<T>(out, tau, has_next, next, a, line, false) && line.r.is_finite();
      m_line = m2;
    }
    if (has_next && p.right.is_finite()) {  // M(t_{i+1}) = min(m2, f(t_{i+1}-) - r t_{i+1})
      const T t1 = F[i + 1].t;
      const T end = out.chk(p.right.value() + p.slope * (t1 - p.t) - r * t1);
      m = ext_min(m2, ext{end});
    } else {
      m = m2;
    }
  }
  return out.finish();
}

// g = c on [0, T], then b + r (t - T) for t > T, with T > 0, c <= b, r >= 0.
template <class T>
bool is_delayed_affine(std::span<const cbp<T>> g) {
  if (g.size() != 2) return false;
  const cbp<T>& p = g[0];
  const cbp<T>& q = g[1];
  if (p.value.is_inf() || !(p.value == p.right) || !(p.slope == T{})) return false;
  if (!(q.value == p.value) || q.right < q.value) return false;
  return q.right.is_inf() || !(q.slope < T{});
}

// f ⊗ g = (f ⊗ g1) ⊗ delta_T = (f ⊗ g1)(t - T) for the one-breakpoint g1 = g(t + T) and
// non-decreasing f and g (the convolution of non-decreasing curves is non-decreasing).
template <class T>
calculus::basic_curve<T> conv_delayed_affine(std::span<const cbp<T>> F, std::span<const cbp<T>> g) {
  const cbp<T> a{T{}, g[1].value, g[1].right, g[1].slope};
  return conv_affine(F, a, g[1].t);
}

// Convolution of convex curves: vertices written directly in canonical form (the merged chain
// is continuous; equal consecutive slopes join; a time that rounding did not advance folds
// into the previous vertex).
template <class T>
calculus::basic_curve<T> conv_convex_merge(std::span<const cbp<T>> F, std::span<const cbp<T>> G) {
  using ext = cext<T>;
  using nt = calculus::curve_number<T>;
  std::vector<cbp<T>> out;
  out.reserve(F.size() + G.size());
  bool ok = true;
  const auto chk = [&ok](T x) {
    if (!nt::good(x)) ok = false;
    return x;
  };
  const auto emit = [&out](T t, T y, ext right, T slope) {
    if (!out.empty() && !(out.back().t < t)) {  // double rounding: fold
      out.back().right = right;
      out.back().slope = slope;
    } else if (out.empty() || right.is_inf() || !(out.back().slope == slope)) {
      out.push_back(cbp<T>{t, ext{y}, right, slope});
    }
  };
  std::size_t i = 0;
  std::size_t j = 0;
  T t{};
  T y = chk(F[0].value.value() + G[0].value.value());
  while (ok) {
    const bool fw = F[i].right.is_inf();
    const bool gw = G[j].right.is_inf();
    if (fw && gw) {
      emit(t, y, ext::infinity(), T{});
      break;
    }
    const bool take_f = gw || (!fw && !(G[j].slope < F[i].slope));
    const std::span<const cbp<T>> C = take_f ? F : G;
    const std::size_t k = take_f ? i : j;
    emit(t, y, ext{y}, C[k].slope);
    if (k + 1 == C.size()) break;  // a ray
    const T len = C[k + 1].t - C[k].t;
    t = chk(t + len);
    y = chk(y + C[k].slope * len);
    if (take_f) {
      ++i;
    } else {
      ++j;
    }
  }
  if (!ok) return calculus::basic_curve<T>::invalid(calculus::curve_error::overflow);
  return curve_access::make<T>(std::move(out), calculus::curve_error::none);
}

// f(+infinity): the limit of the last segment.
template <class T>
cext<T> curve_limit(std::span<const cbp<T>> c, bool& undefined) {
  const cbp<T>& p = c.back();
  if (p.right.is_inf() || T{} < p.slope) return cext<T>::infinity();
  if (p.slope < T{}) undefined = true;
  return p.right;
}

// The deconvolution from the envelope e of its negated finite terms and the indicator `mark`
// of its +infinity region (finite = inside).
template <class T>
cext<T> deconv_value(curve_builder<T>& o, const cext<T>& e, const cext<T>& mark) {
  if (mark.is_finite()) return cext<T>::infinity();
  if (e.is_inf()) {
    // Covered neither by a finite term nor by the +infinity region: impossible for exact
    // numbers once g is finite somewhere; for double, times rounded apart at a boundary of the
    // +infinity region, which is then the value.
    if (calculus::curve_number<T>::exact) o.fail(calculus::curve_error::undefined);
    return cext<T>::infinity();
  }
  return cext<T>{-e.value()};
}

template <class T>
calculus::extended<T> curve_sup(std::span<const cbp<T>> c, calculus::curve_error& err) {
  using ext = cext<T>;
  ext s = c[0].value;
  for (std::size_t i = 0; i < c.size(); ++i) {
    const cbp<T>& p = c[i];
    if (i > 0) {
      const cbp<T>& q = c[i - 1];
      if (q.right.is_inf()) return ext::infinity();
      const T l = q.right.value() + q.slope * (p.t - q.t);
      if (!calculus::curve_number<T>::good(l)) {
        err = calculus::curve_error::overflow;
        return ext{};
      }
      s = ext_max(s, ext{l});
    }
    s = ext_max(s, ext_max(p.value, p.right));
  }
  const cbp<T>& last = c.back();
  if (last.right.is_inf() || T{} < last.slope) return ext::infinity();
  return s;
}

// Exactly (no rounding tolerance) finite, concave, non-decreasing and 0 at 0: what
// basic_curve::shape() reports as concave && non_decreasing with f(0) = 0, in one tight pass.
template <class T>
bool concave_origin_exact(std::span<const cbp<T>> c) {
  const cbp<T>& p0 = c[0];
  if (!(p0.value == cext<T>{}) || p0.right.is_inf() || p0.right.value() < T{} || p0.slope < T{}) {
    return false;
  }
  for (std::size_t i = 1; i < c.size(); ++i) {
    const cbp<T>& q = c[i - 1];
    const cbp<T>& p = c[i];
    if (p.value.is_inf() || p.right.is_inf() || q.slope < p.slope || p.slope < T{}) {
      return false;
    }
    const T left = q.right.value() + q.slope * (p.t - q.t);
    if (!calculus::curve_number<T>::good(left) || !(left == p.value.value()) ||
        !(p.value == p.right)) {
      return false;
    }
  }
  return true;
}

// The previous general algorithm, kept as a reference for the tests: all pieces of the
// decomposition materialised, lower envelope by a balanced tree of pointwise minima;
// O(n m log(n m)) time and O(n m) memory.
template <class T>
calculus::basic_curve<T> convolve_leaf_tree(const calculus::basic_curve<T>& f,
                                            const calculus::basic_curve<T>& g) {
  if (!f.valid()) return f;
  if (!g.valid()) return g;
  const std::span<const cbp<T>> F = f.breakpoints();
  const std::span<const cbp<T>> G = g.breakpoints();
  std::vector<curve_run> rf;
  std::vector<curve_run> rg;
  std::vector<bool> bf;
  std::vector<bool> bg;
  curve_runs<T>(F, true, rf, bf);
  curve_runs<T>(G, true, rg, bg);
  curve_leaves<T> L;
  for (std::size_t i = 0; i < F.size(); ++i) {
    if (bf[i] && F[i].value.is_finite()) leaf_shifted<T>(G, F[i].t, F[i].value.value(), L);
  }
  for (std::size_t j = 0; j < G.size(); ++j) {
    if (bg[j] && G[j].value.is_finite()) leaf_shifted<T>(F, G[j].t, G[j].value.value(), L);
  }
  run_shape<T> sh;
  curve_builder<T> chk;
  for (const auto& ra : rf) {
    for (const auto& rb : rg) {
      conv_runs<T>(F, ra, G, rb, sh, chk);
      if (!chk.ok()) return calculus::basic_curve<T>::invalid(chk.error());
      emit_run_leaf<T>(sh, false, L);
    }
  }
  return curve_envelope<T>(L);
}

// curve_combine from time tau (f[i].t <= tau, g[j].t + gdt <= tau) of f and of g delayed by
// gdt and raised by gdy (when `shifted`), until the merged breakpoint at `stop` has been
// processed (when has_stop) or both curves end.
template <class T, class Op>
void curve_combine_range(std::span<const cbp<T>> f, std::size_t i, std::span<const cbp<T>> g,
                         std::size_t j, bool shifted, T gdt, T gdy, T tau, bool has_stop, T stop,
                         curve_builder<T>& b, Op&& op) {
  for (;;) {
    const curve_local<T> a = curve_state(f, i, tau, b);
    curve_local<T> c;
    if (shifted) {
      c = curve_state(g, j, b.chk(tau - gdt), b);
      c.v = c.v + gdy;
      c.r = c.r + gdy;
    } else {
      c = curve_state(g, j, tau, b);
    }
    const bool fn = i + 1 < f.size();
    const bool gn = j + 1 < g.size();
    const T gnext = gn ? (shifted ? b.chk(g[j + 1].t + gdt) : g[j + 1].t) : T{};
    T next{};
    if (fn && gn) {
      next = f[i + 1].t < gnext ? f[i + 1].t : gnext;
    } else if (fn) {
      next = f[i + 1].t;
    } else if (gn) {
      next = gnext;
    }
    op(b, tau, fn || gn, next, a, c);
    if (!(fn || gn) || !b.ok() || (has_stop && !(tau < stop))) return;
    tau = next;
    if (fn && f[i + 1].t == tau) ++i;
    if (gn && gnext == tau) ++j;
  }
}

// Sweep-based lower envelope of partial curves (+infinity outside their support) that arrive
// in non-decreasing order of their first finite time s. The envelope is kept as a final part
// (before the sweep position: no later piece reaches it) and an active part stored in reverse
// order, so that merging a piece that ends at time e rewrites only the active breakpoints in
// [s, e]: O(|piece| + active breakpoints in [s, e]) per piece.
template <class T>
class sweep_envelope {
 public:
  sweep_envelope() {
    active_.push_back(cbp<T>{T{}, cext<T>::infinity(), cext<T>::infinity(), T{}});
  }
  [[nodiscard]] calculus::curve_error error() const noexcept { return err_; }

  // Moves the breakpoints before the sweep position s to the final part.
  void advance(T s) {
    while (active_.size() >= 2 && !(s < active_[active_.size() - 2].t)) {
      done_.push_back(active_.back());
      active_.pop_back();
    }
  }

  // True when the envelope is at or below the piece (a continuous polyline on the open
  // interval between its first and last vertex, which start at or after the sweep position)
  // everywhere on it, limits included: the piece changes nothing. Both are linear between the
  // union of their breakpoints, so those are checked.
  [[nodiscard]] bool below(const std::vector<run_vertex<T>>& V) const {
    using nt = calculus::curve_number<T>;
    const T e = V.back().t;
    std::size_t pk = 0;
    const auto piece = [&](T x) {
      while (pk + 1 < V.size() && !(x < V[pk + 1].t)) ++pk;
      return V[pk].y + V[pk].s * (x - V[pk].t);
    };
    const std::size_t front = active_.size() - 1;  // the last breakpoint at or before the start
    for (std::size_t kk = front; kk-- > 0;) {      // envelope breakpoints inside the piece
      const cbp<T>& p = active_[kk];
      if (!(p.t < e)) break;
      const cbp<T>& q = active_[kk + 1];
      if (p.value.is_inf() || p.right.is_inf() || q.right.is_inf()) return false;
      const T y = piece(p.t);
      const T l = q.right.value() + q.slope * (p.t - q.t);
      if (!nt::good(y) || !nt::good(l) || y < p.value.value() || y < p.right.value() || y < l) {
        return false;
      }
    }
    std::size_t kk = front;    // the piece's vertices: the envelope's right limit at the start,
    for (const auto& v : V) {  // its left limits after it
      while (kk > 0 && active_[kk - 1].t < v.t) --kk;
      const cbp<T>& p = active_[kk];
      if (p.right.is_inf()) return false;
      const T y = p.t == v.t ? p.right.value() : p.right.value() + p.slope * (v.t - p.t);
      if (!nt::good(y) || v.y < y) return false;
    }
    return true;
  }

  // min(envelope, piece) for a piece that is +infinity before the sweep position.
  void merge(std::span<const cbp<T>> piece) {
    if (err_ != calculus::curve_error::none) return;
    const cbp<T>& last = piece.back();
    const bool has_stop = last.right.is_inf();
    take(has_stop, last.t);
    const T tau0 = tmp_.front().t;
    const auto it = std::upper_bound(piece.begin(), piece.end(), tau0,
                                     [](const T& x, const cbp<T>& p) { return x < p.t; });
    const std::size_t j =
        it == piece.begin() ? 0 : static_cast<std::size_t>(it - piece.begin()) - 1;
    chunk_.clear();
    curve_builder<T> b(chunk_);
    b.set_origin(tau0);
    curve_combine_range<T>(tmp_, 0, piece, j, false, T{}, T{}, tau0, has_stop, last.t, b, min_op());
    put_back(b);
  }

  // min(envelope, g delayed by dt >= sweep position and raised by dy), without building the
  // shifted copy: +infinity before dt.
  void merge_shifted(std::span<const cbp<T>> g, T dt, T dy) {
    if (err_ != calculus::curve_error::none) return;
    const cbp<T>& last = g.back();
    const bool has_stop = last.right.is_inf();
    chunk_.clear();
    curve_builder<T> b(chunk_);
    const T stop = b.chk(last.t + dt);
    take(has_stop, stop);
    const T tau0 = tmp_.front().t;
    b.set_origin(tau0);
    if (tau0 < dt) {  // the envelope alone up to dt
      b.push(tau0, tmp_.front().value, tmp_.front().right, tmp_.front().slope);
    }
    curve_combine_range<T>(tmp_, 0, g, 0, true, dt, dy, dt, has_stop, stop, b, min_op());
    put_back(b);
  }

 private:
  static auto min_op() {
    return [](auto& o, T tau, bool has_next, T next, const auto& x, const auto& y) {
      curve_emit_minmax<T>(o, tau, has_next, next, x, y, false);
    };
  }
  // Moves the active breakpoints up to `stop` (all when !has_stop; at least the first) to tmp_.
  void take(bool has_stop, const T& stop) {
    tmp_.clear();
    do {
      tmp_.push_back(active_.back());
      active_.pop_back();
    } while (!active_.empty() && (!has_stop || !(stop < active_.back().t)));
  }
  void put_back(const curve_builder<T>& b) {
    if (!b.ok()) {
      err_ = b.error();
      return;
    }
    for (std::size_t k = chunk_.size(); k-- > 0;) active_.push_back(chunk_[k]);
  }

 public:
  calculus::basic_curve<T> finish() {
    if (err_ != calculus::curve_error::none) return calculus::basic_curve<T>::invalid(err_);
    curve_builder<T> b;
    b.reserve(done_.size() + active_.size());
    for (const auto& p : done_) b.push(p.t, p.value, p.right, p.slope);
    for (std::size_t k = active_.size(); k-- > 0;) {
      const auto& p = active_[k];
      b.push(p.t, p.value, p.right, p.slope);
    }
    return b.finish();
  }

 private:
  std::vector<cbp<T>> done_;
  std::vector<cbp<T>> active_;
  std::vector<cbp<T>> tmp_;
  std::vector<cbp<T>> chunk_;
  calculus::curve_error err_ = calculus::curve_error::none;
};

}  // namespace netcc::detail

namespace netcc::calculus {

/// @brief Min-plus convolution by the general algorithm only (no special cases); any curves.
///
/// (f ⊗ g)(t) = inf_{0 <= s <= t} {f(s) + g(t - s)} (seed §II). Both curves are cut into
/// maximal convex runs (open intervals) and the breakpoints between them ([27] §4.2: a
/// piecewise-linear function as the minimum of convex pieces); every pair of pieces is
/// convolved exactly (point with curve: a shift; run with run: slopes merged, [27] Prop. 4.11)
/// and the result is their lower envelope, computed by a sweep: the pieces are generated in
/// order of their start time (a heap over the runs of f, each walking the runs of g in
/// order) and merged one at a time into an envelope whose part before the sweep position is
/// final; a piece rewrites only the envelope's breakpoints inside its own support.
///
/// Cost, with n, m breakpoints, n_b, m_b breakpoints between runs, R_f, R_g runs and r the size
/// of the result: the n_b + m_b shifted copies of whole curves cost O(m + r) or O(n + r) each
/// and the R_f R_g run pairs O(run lengths + overlap) each, plus O(R_f R_g log R_f) for the
/// heap: O((n + m) (n + m + r)) in all, O(n^2) for two n-segment curves whose convolution has
/// O(n) segments, in O(n + m + r) memory. (The previous algorithm materialised all pieces:
/// O(n m log(n m)) time and O(n m) memory.)
/// @code
/// using netcc::calculus::curve;
/// auto h = convolve_general(curve::rate_latency(2, 1), curve::rate_latency(3, 2));
/// // = rate_latency(2, 3)
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> convolve_general(const basic_curve<T>& f, const basic_curve<T>& g) {
  if (!f.valid()) return f;
  if (!g.valid()) return g;
  const std::span<const breakpoint<T>> F = f.breakpoints();
  const std::span<const breakpoint<T>> G = g.breakpoints();
  std::vector<detail::curve_run> rf;
  std::vector<detail::curve_run> rg;
  std::vector<bool> bf;
  std::vector<bool> bg;
  detail::curve_runs<T>(F, true, rf, bf);
  detail::curve_runs<T>(G, true, rg, bg);
  std::vector<std::size_t> fp;  // breakpoints between runs, with a finite value
  std::vector<std::size_t> gp;
  for (std::size_t i = 0; i < F.size(); ++i) {
    if (bf[i] && F[i].value.is_finite()) fp.push_back(i);
  }
  for (std::size_t j = 0; j < G.size(); ++j) {
    if (bg[j] && G[j].value.is_finite()) gp.push_back(j);
  }
  // Streams of pieces in start order: 0 = points of f (shifted g), 1 = points of g (shifted f),
  // 2 + k = run k of f against the runs of g in order.
  struct item {
    T key;
    std::size_t stream;
    std::size_t pos;
  };
  detail::curve_builder<T> chk;
  const auto key_of = [&](std::size_t stream, std::size_t pos) -> T {
    if (stream == 0) return F[fp[pos]].t;
    if (stream == 1) return G[gp[pos]].t;
    return chk.chk(F[rf[stream - 2].first].t + G[rg[pos].first].t);
  };
  const auto later = [](const item& a, const item& b) { return b.key < a.key; };
  std::vector<item> heap;
  heap.reserve(rf.size() + 2);
  if (!fp.empty()) heap.push_back({key_of(0, 0), 0, 0});
  if (!gp.empty()) heap.push_back({key_of(1, 0), 1, 0});
  if (!rg.empty()) {
    for (std::size_t k = 0; k < rf.size(); ++k) heap.push_back({key_of(k + 2, 0), k + 2, 0});
  }
  if (!chk.ok()) return basic_curve<T>::invalid(chk.error());
  std::make_heap(heap.begin(), heap.end(), later);
  detail::sweep_envelope<T> env;
  detail::curve_leaves<T> L;
  detail::run_shape<T> sh;
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    const item it = heap.back();
    heap.pop_back();
    L.flat.clear();
    L.off.assign(1, 0);
    std::size_t count = 0;
    if (it.stream < 2) {  // a point of one curve against the whole other: a shifted copy
      const bool of_f = it.stream == 0;
      const breakpoint<T>& p = of_f ? F[fp[it.pos]] : G[gp[it.pos]];
      env.advance(it.key);
      env.merge_shifted(of_f ? G : F, p.t, p.value.value());
      if (env.error() != curve_error::none) return basic_curve<T>::invalid(env.error());
      count = of_f ? fp.size() : gp.size();
    } else {
      detail::conv_runs<T>(F, rf[it.stream - 2], G, rg[it.pos], sh, chk);
      if (!chk.ok()) return basic_curve<T>::invalid(chk.error());
      count = rg.size();
      // A piece that lies above the envelope is skipped; most run pairs are.
      bool skip = false;
      if (!sh.right_ray && !sh.left_ray && sh.v.size() >= 2) {
        env.advance(it.key);
        skip = env.below(sh.v);
      }
      if (!skip) detail::emit_run_leaf<T>(sh, false, L);
    }
    if (L.err != curve_error::none) return basic_curve<T>::invalid(L.err);
    if (L.count() > 0) {
      env.advance(it.key);
      env.merge(std::span<const breakpoint<T>>(L.flat.data(), L.off[1]));
      if (env.error() != curve_error::none) return basic_curve<T>::invalid(env.error());
    }
    if (it.pos + 1 < count) {
      heap.push_back({key_of(it.stream, it.pos + 1), it.stream, it.pos + 1});
      if (!chk.ok()) return basic_curve<T>::invalid(chk.error());
      std::push_heap(heap.begin(), heap.end(), later);
    }
  }
  return env.finish();
}

/// @brief Convolution of two convex curves (basic_curve::is_convex) by merging their segments
/// in increasing slope order, O(n + m) ([25] Thm 3.1.7; [27] Prop. 4.11);
/// curve_error::precondition when an operand is not convex.
/// @code
/// using netcc::calculus::curve;
/// auto h = convolve_convex(curve::rate_latency(2, 1), curve::delay(3));   // rate_latency(2, 4)
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> convolve_convex(const basic_curve<T>& f, const basic_curve<T>& g) {
  if (!f.valid()) return f;
  if (!g.valid()) return g;
  if (!f.shape().convex || !g.shape().convex) {
    return basic_curve<T>::invalid(curve_error::precondition);
  }
  return detail::conv_convex_merge<T>(f.breakpoints(), g.breakpoints());
}

/// @brief Convolution of two concave, non-decreasing curves with f(0) = g(0) = 0: the
/// pointwise minimum, O(n + m) ([25] Thm 3.1.6); curve_error::precondition otherwise.
/// @code
/// using netcc::calculus::curve;
/// auto h = convolve_concave(curve::token_bucket(1, 4), curve::rate(2));   // = min of the two
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> convolve_concave(const basic_curve<T>& f, const basic_curve<T>& g) {
  if (!f.valid()) return f;
  if (!g.valid()) return g;
  const extended<T> zero{};
  const curve_shape sf = f.shape();
  const curve_shape sg = g.shape();
  if (!sf.concave || !sg.concave || !sf.non_decreasing || !sg.non_decreasing ||
      !(f.breakpoints()[0].value == zero) || !(g.breakpoints()[0].value == zero)) {
    return basic_curve<T>::invalid(curve_error::precondition);
  }
  return min(f, g);
}

/// @brief Min-plus convolution (f ⊗ g)(t) = inf_{0 <= s <= t} {f(s) + g(t - s)} (seed §II),
/// with the linear-time special cases of the file comment and convolve_general otherwise.
///
/// Commutative and associative, min distributes over it, delta_0 is neutral and
/// basic_curve::infinite() absorbing (tested). Exact for rational; an overflow gives
/// curve_error::overflow.
/// @code
/// using netcc::calculus::curve;
/// using netcc::calculus::rational;
/// const curve a = curve::window(rational{64});             // Â = A ⊗ S_W, seed Eq. 5
/// const curve d = convolve(a, curve::rate(rational{10}));  // D = Â ⊗ S
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> convolve(const basic_curve<T>& f, const basic_curve<T>& g) {
  if (!f.valid()) return f;
  if (!g.valid()) return g;
  const std::span<const breakpoint<T>> F = f.breakpoints();
  const std::span<const breakpoint<T>> G = g.breakpoints();
  if (G.size() == 1) return detail::conv_affine<T>(F, G[0], T{});
  if (F.size() == 1) return detail::conv_affine<T>(G, F[0], T{});
  // (is_delayed_affine also checks that its curve is non-decreasing)
  if (detail::is_delayed_affine<T>(G) && f.is_non_decreasing()) {
    return detail::conv_delayed_affine<T>(F, G);
  }
  if (detail::is_delayed_affine<T>(F) && g.is_non_decreasing()) {
    return detail::conv_delayed_affine<T>(G, F);
  }
  // The concave case first by an exact one-pass check (a curve with two or more breakpoints
  // that passes it is not convex, so the order of the cases does not matter); for double a
  // curve concave only up to rounding goes on to the tolerant shape() checks below.
  if (detail::concave_origin_exact<T>(F) && detail::concave_origin_exact<T>(G)) return min(f, g);
  const curve_shape sf = f.shape();
  const curve_shape sg = g.shape();
  const bool mono = sf.non_decreasing && sg.non_decreasing;
  if (sf.convex && sg.convex) return detail::conv_convex_merge<T>(F, G);
  const extended<T> zero{};
  if (mono && sf.concave && sg.concave && F[0].value == zero && G[0].value == zero) {
    return min(f, g);
  }
  return convolve_general(f, g);
}

/// @brief Min-plus deconvolution by the general algorithm only; any curves with g not
/// +infinity everywhere (curve_error::undefined otherwise).
///
/// (f ⊘ g)(t) = sup_{u >= 0} {f(t + u) - g(u)} ([25] §3.1.10); terms with g(u) = +infinity
/// are left out, terms with f(t + u) = +infinity and g(u) finite make the result +infinity.
/// @code
/// using netcc::calculus::curve;
/// auto h = deconvolve_general(curve::token_bucket(1, 4), curve::rate_latency(2, 3));
/// // 7 + t for t > 0 (and 7 at 0)
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> deconvolve_general(const basic_curve<T>& f, const basic_curve<T>& g) {
  using ext = extended<T>;
  if (!f.valid()) return f;
  if (!g.valid()) return g;
  const std::span<const breakpoint<T>> F = f.breakpoints();
  const std::span<const breakpoint<T>> G = g.breakpoints();
  // Every t has the term of a u with g(u) finite unless g is +infinity everywhere.
  bool g_finite_somewhere = false;
  for (const auto& p : G) g_finite_somewhere |= p.value.is_finite() || p.right.is_finite();
  if (!g_finite_somewhere) return basic_curve<T>::invalid(curve_error::undefined);
  std::vector<detail::curve_run> rf;
  std::vector<detail::curve_run> rg;
  std::vector<bool> bf;
  std::vector<bool> bg;
  detail::curve_runs<T>(F, false, rf, bf);
  detail::curve_runs<T>(G, true, rg, bg);
  // -f on its finite part, +infinity (absent) where f is +infinity.
  std::vector<breakpoint<T>> negf;
  negf.reserve(F.size());
  for (const auto& p : F) {
    negf.push_back(breakpoint<T>{p.t, p.value.is_inf() ? p.value : ext{-p.value.value()},
                                 p.right.is_inf() ? p.right : ext{-p.right.value()},
                                 p.right.is_inf() ? T{} : -p.slope});
  }
  detail::curve_leaves<T> L;  // the negated finite terms
  detail::curve_leaves<T> I;  // where the result is +infinity
  for (std::size_t j = 0; j < G.size(); ++j) {
    if (bg[j] && G[j].value.is_finite()) {
      detail::leaf_advanced<T>(negf, G[j].t, G[j].value.value(), L);
    }
  }
  for (std::size_t i = 0; i < F.size(); ++i) {
    if (bf[i] && F[i].value.is_finite()) {
      detail::leaf_reflected<T>(G, F[i].t, -F[i].value.value(), L);
    }
  }
  detail::run_shape<T> sh;
  detail::curve_builder<T> chk;
  for (const auto& ra : rf) {
    for (const auto& rb : rg) {
      detail::deconv_runs<T>(F, ra, G, rb, sh, chk);
      if (!chk.ok()) return basic_curve<T>::invalid(chk.error());
      if (sh.everywhere_inf) {
        detail::curve_interval<T> all;
        all.hi_inf = true;
        detail::leaf_indicator<T>(all, I);
      } else {
        detail::emit_run_leaf<T>(sh, true, L);
      }
    }
  }
  for (const auto& x : detail::curve_intervals<T>(F, true)) {
    for (const auto& u : detail::curve_intervals<T>(G, false)) {
      detail::curve_interval<T> d;
      d.lo_inf = u.hi_inf;
      if (!d.lo_inf) d.lo = chk.chk(x.lo - u.hi);
      d.lo_closed = x.lo_closed && u.hi_closed;
      d.hi_inf = x.hi_inf;
      if (!d.hi_inf) d.hi = chk.chk(x.hi - u.lo);
      d.hi_closed = x.hi_closed && u.lo_closed;
      detail::leaf_indicator<T>(d, I);
    }
  }
  if (!chk.ok()) return basic_curve<T>::invalid(chk.error());
  const basic_curve<T> env = detail::curve_envelope<T>(L);
  if (!env.valid()) return env;
  const basic_curve<T> ind = detail::curve_envelope<T>(I);
  if (!ind.valid()) return ind;
  detail::curve_builder<T> b;
  detail::curve_combine<T>(env.breakpoints(), ind.breakpoints(), b,
                           [](auto& o, T tau, bool, T, const auto& e, const auto& in) {
                             o.push(tau, detail::deconv_value<T>(o, e.v, in.v),
                                    detail::deconv_value<T>(o, e.r, in.r), -e.s);
                           });
  return b.finish();
}

/// @brief Min-plus deconvolution (f ⊘ g)(t) = sup_{u >= 0} {f(t + u) - g(u)} ([25] §3.1.10):
/// the output arrival curve of a flow with arrival curve f through service curve g.
/// f ⊘ delta_T = f(t + T) for a non-decreasing f (fast path); otherwise deconvolve_general.
/// @code
/// using netcc::calculus::curve;
/// auto out = deconvolve(curve::token_bucket(1, 4), curve::rate_latency(2, 3));   // b + r T = 7
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> deconvolve(const basic_curve<T>& f, const basic_curve<T>& g) {
  if (!f.valid()) return f;
  if (!g.valid()) return g;
  const std::span<const breakpoint<T>> G = g.breakpoints();
  const extended<T> zero{};
  if (f.is_non_decreasing()) {
    if (G.size() == 1 && G[0].value == zero && G[0].right.is_inf()) return f;
    if (G.size() == 2 && G[0].value == zero && G[0].right == zero && G[0].slope == T{} &&
        G[1].value == zero && G[1].right.is_inf()) {
      return shift_left(f, G[1].t);
    }
  }
  return deconvolve_general(f, g);
}

/// @brief Composition (f ∘ g)(t) = f(g(t)) for a non-decreasing g (curve_error::precondition
/// otherwise); f is taken as f(0) below 0 and as its limit at +infinity where g is +infinity
/// (curve_error::undefined if that limit is -infinity). O(m log n + n).
///
/// The seed's ACK function I_max floor(D(t - dR) / I_max) (§III-B a) is
/// compose(packetizer(I_max, k), shift_right(D, dR)); Theorem 1 of §IV evaluates
/// Â_i(Â^†(D(t))).
/// @code
/// using netcc::calculus::curve;
/// using netcc::calculus::rational;
/// const curve d = curve::rate(rational{1000});   // D(t), bytes
/// auto acks = compose(curve::packetizer(rational{1500}, 100), shift_right(d, rational{20}));
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> compose(const basic_curve<T>& f, const basic_curve<T>& g) {
  using ext = extended<T>;
  if (!f.valid()) return f;
  if (!g.valid()) return g;
  if (!g.is_non_decreasing()) return basic_curve<T>::invalid(curve_error::precondition);
  const std::span<const breakpoint<T>> F = f.breakpoints();
  const std::span<const breakpoint<T>> G = g.breakpoints();
  bool undef = false;
  detail::curve_builder<T> b;
  const auto f_at = [&](const ext& y) -> ext {
    if (y.is_inf()) {
      bool u = false;
      const ext lim = detail::curve_limit<T>(F, u);
      if (u) undef = true;
      return lim;
    }
    return f.at(y.value());  // f(0) below 0
  };
  for (std::size_t j = 0; j < G.size() && b.ok(); ++j) {
    const breakpoint<T>& p = G[j];
    const ext hv = f_at(p.value);
    if (p.right.is_inf() || p.slope == T{}) {
      b.push(p.t, hv, f_at(p.right), T{});
      continue;
    }
    const T r = p.right.value();
    const T s = p.slope;
    // f just after r (f is constant f(0) below 0)
    ext fr = F[0].value;
    T fs{};
    if (!(r < T{})) {
      fr = f.right_limit(r);
      const auto it = std::upper_bound(F.begin(), F.end(), r,
                                       [](const T& x, const breakpoint<T>& q) { return x < q.t; });
      fs = (it - 1)->right.is_inf() ? T{} : (it - 1)->slope;
    }
    b.push(p.t, hv, fr, b.chk(fs * s));
    const bool has_next = j + 1 < G.size();
    const T end_y = has_next ? b.chk(r + s * (G[j + 1].t - p.t)) : T{};
    auto it = std::upper_bound(F.begin(), F.end(), r,
                               [](const T& x, const breakpoint<T>& q) { return x < q.t; });
    for (; it != F.end() && (!has_next || it->t < end_y) && b.ok(); ++it) {
      const T tau = b.chk(p.t + (it->t - r) / s);
      b.push(tau, it->value, it->right, b.chk(it->slope * s));
    }
  }
  if (undef) return basic_curve<T>::invalid(curve_error::undefined);
  return b.finish();
}

/// @brief The lower pseudo-inverse f^↓(y) = inf{x >= 0 | f(x) >= y} of a non-decreasing f
/// (seed §II, as in its references [31], [32]; see the file comment), as a curve over y >= 0:
/// non-decreasing and left-continuous, +infinity above the supremum of f. O(n).
/// curve_error::precondition when f is not non-decreasing.
/// @code
/// using netcc::calculus::curve;
/// auto inv = lower_inverse(curve::rate_latency(2, 3));   // y -> 3 + y / 2 for y > 0, 0 at 0
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> lower_inverse(const basic_curve<T>& f) {
  using ext = extended<T>;
  if (!f.valid()) return f;
  if (!f.is_non_decreasing()) return basic_curve<T>::invalid(curve_error::precondition);
  const std::span<const breakpoint<T>> F = f.breakpoints();
  if (F[0].value.is_inf()) return basic_curve<T>::zero();
  // Boundaries y_k: f^↓ has value val_k at y_k and follows start_k + slope_k (y - y_k) on
  // (y_k, y_{k+1}].
  struct boundary {
    T y;
    T val;
    ext start;
    T slope;
  };
  std::vector<boundary> B;
  detail::curve_builder<T> b;
  T cur_y = F[0].value.value();
  T cur_val{};
  bool done = false;
  for (std::size_t i = 0; i < F.size() && !done && b.ok(); ++i) {
    const breakpoint<T>& p = F[i];
    const ext top = p.right;
    if (ext{cur_y} < top) {  // a jump at t_i: f^↓ = t_i on (cur_y, top]
      B.push_back({cur_y, cur_val, ext{p.t}, T{}});
      if (top.is_inf()) {
        done = true;
        break;
      }
      cur_y = top.value();
      cur_val = p.t;
    }
    const bool last = i + 1 == F.size();
    if (T{} < p.slope) {
      B.push_back({cur_y, cur_val, ext{p.t}, b.chk(curve_number<T>::from_int(1) / p.slope)});
      if (last) {
        done = true;
      } else {
        cur_y = b.chk(p.right.value() + p.slope * (F[i + 1].t - p.t));
        cur_val = F[i + 1].t;
      }
    } else if (last) {
      B.push_back({cur_y, cur_val, ext::infinity(), T{}});
      done = true;
    }
  }
  if (!b.ok()) return basic_curve<T>::invalid(b.error());
  const T zero{};
  std::size_t k = 0;
  if (zero < B[0].y) {
    b.push(zero, ext{}, ext{}, zero);
  } else {
    while (k + 1 < B.size() && !(zero < B[k + 1].y)) ++k;
    if (B[k].y == zero) {
      b.push(zero, ext{B[k].val}, B[k].start, B[k].slope);
    } else {
      const ext v = B[k].start.is_inf()
                        ? B[k].start
                        : ext{b.chk(B[k].start.value() + B[k].slope * (zero - B[k].y))};
      b.push(zero, v, v, B[k].slope);
    }
    ++k;
  }
  for (; k < B.size(); ++k) b.push(B[k].y, ext{B[k].val}, B[k].start, B[k].slope);
  return b.finish();
}

/// @brief The upper pseudo-inverse f^↑(y) = sup{x >= 0 | f(x) <= y} of a non-decreasing f
/// (seed §II), as a curve over y >= 0: the right-continuous version of lower_inverse
/// (f^↑(y) = f^↓(y+)), 0 where the set is empty. O(n).
/// @code
/// using netcc::calculus::curve;
/// auto inv = upper_inverse(curve::window(5));   // 0 for y < 5, +infinity from y = 5
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> upper_inverse(const basic_curve<T>& f) {
  const basic_curve<T> lo = lower_inverse(f);
  if (!lo.valid()) return lo;
  detail::curve_builder<T> b;
  for (const auto& p : lo.breakpoints()) b.push(p.t, p.right, p.right, p.slope);
  return b.finish();
}

/// @brief Horizontal deviation h(f, g) = sup_{t >= 0} inf{d >= 0 | f(t) <= g(t + d)}: the
/// delay bound of arrivals f through service g ([25] Thm 1.4.2; the seed's horizontal
/// distance, §II). f, g non-decreasing with f(0), g(0) >= 0 (curve_error::precondition
/// otherwise); +infinity when f outgrows g.
///
/// Computed in the value domain, at breakpoints only: with inf{d >= 0 | f(t) <= g(t + d)} =
/// (g^↓(f(t)) - t)+ and f^↓(f(t)) <= t, h(f, g) = max(0, sup_y {g^↓(y) - f^↓(y)}) over the
/// levels y that f reaches (f^↓(y) finite), which is the vertical deviation of the two lower
/// pseudo-inverses ([27] §5.2: the delay bound as the largest horizontal distance). The
/// candidates are g^↓ and f^↓ at the breakpoints of either (limits included), and the tails
/// are compared by slope; no product of two slopes is formed (the composition g^↓ ∘ f would
/// multiply 1/R by the rate of f). For exact rational curves, a 64-bit intermediate that
/// overflows makes the computation restart with netcc::calculus::wide_rational (128-bit parts)
/// and the result is narrowed back: curve_error::overflow only when the bound itself does not
/// fit. O(n + m).
/// @code
/// using netcc::calculus::curve;
/// auto d = horizontal_deviation(curve::token_bucket(1, 4), curve::rate_latency(2, 3));   // 5
/// @endcode
template <CurveNumber T>
[[nodiscard]] deviation<T> horizontal_deviation(const basic_curve<T>& f, const basic_curve<T>& g);

/// @brief Vertical deviation v(f, g) = sup_{t >= 0} {f(t) - g(t)}: the backlog bound of
/// arrivals f at service g ([25] Thm 1.4.1; the backlog B(t) = A(t) - D(t) of seed §II).
/// Any curves: limits count (a supremum), times where g is +infinity are left out,
/// +infinity where f is +infinity against a finite g; curve_error::undefined if g is
/// +infinity everywhere. For exact rational curves an intermediate overflow restarts the
/// computation with netcc::calculus::wide_rational (see horizontal_deviation). O(n + m).
/// @code
/// using netcc::calculus::curve;
/// auto q = vertical_deviation(curve::token_bucket(1, 4), curve::rate_latency(2, 3));   // 7
/// @endcode
template <CurveNumber T>
[[nodiscard]] deviation<T> vertical_deviation(const basic_curve<T>& f, const basic_curve<T>& g);

}  // namespace netcc::calculus

namespace netcc::detail {

template <class T>
calculus::deviation<T> vertical_deviation_impl(const calculus::basic_curve<T>& f,
                                               const calculus::basic_curve<T>& g) {
  using ext = calculus::extended<T>;
  if (!f.valid()) return {ext{}, f.error()};
  if (!g.valid()) return {ext{}, g.error()};
  bool any = false;
  ext sup{};
  curve_builder<T> b;
  const auto consider = [&](const ext& x, const ext& y) {
    if (y.is_inf()) return;
    ext d = ext::infinity();
    if (x.is_finite()) d = ext{b.chk(x.value() - y.value())};
    sup = any ? ext_max(sup, d) : d;
    any = true;
  };
  curve_combine<T>(f.breakpoints(), g.breakpoints(), b,
                   [&](auto& o, T tau, bool has_next, T next, const auto& a, const auto& c) {
                     consider(a.v, c.v);
                     consider(a.r, c.r);
                     if (has_next) {
                       const auto end = [&o, tau, next](const auto& s) -> ext {
                         if (s.r.is_inf()) return s.r;
                         return ext{o.chk(s.r.value() + s.s * (next - tau))};
                       };
                       consider(end(a), end(c));
                     } else if (c.r.is_finite() && (a.r.is_inf() || c.s < a.s)) {
                       consider(ext::infinity(), c.r);
                     }
                   });
  if (!b.ok()) return {ext{}, b.error()};
  if (!any) return {ext{}, calculus::curve_error::undefined};
  return {sup, calculus::curve_error::none};
}

template <class T>
calculus::deviation<T> horizontal_deviation_impl(const calculus::basic_curve<T>& f,
                                                 const calculus::basic_curve<T>& g) {
  using ext = calculus::extended<T>;
  if (!f.valid()) return {ext{}, f.error()};
  if (!g.valid()) return {ext{}, g.error()};
  const ext zero{};
  if (!f.is_non_decreasing() || !g.is_non_decreasing() || f.breakpoints()[0].value < zero ||
      g.breakpoints()[0].value < zero) {
    return {ext{}, calculus::curve_error::precondition};
  }
  const calculus::basic_curve<T> fi = lower_inverse(f);
  const calculus::basic_curve<T> gi = lower_inverse(g);
  if (!fi.valid()) return {ext{}, fi.error()};
  if (!gi.valid()) return {ext{}, gi.error()};
  // sup over the levels f reaches (f^↓ finite); g^↓ = +infinity there makes it +infinity;
  // f^↓(0) = 0, so the set of levels is never empty
  calculus::deviation<T> d = vertical_deviation_impl(gi, fi);
  if (d.error != calculus::curve_error::none) return d;
  if (d.value < zero) d.value = zero;
  return d;
}

// An exact rational deviation that overflowed, recomputed with 128-bit parts and narrowed.
template <class T, class Impl>
calculus::deviation<T> deviation_widened(const calculus::basic_curve<T>& f,
                                         const calculus::basic_curve<T>& g, Impl impl) {
  calculus::deviation<T> d = impl(f, g);
  if constexpr (std::is_same_v<T, calculus::rational>) {
    if (d.error == calculus::curve_error::overflow) {
      using W = calculus::wide_rational;
      const calculus::deviation<W> w = impl(calculus::curve_cast<W>(f), calculus::curve_cast<W>(g));
      if (w.error != calculus::curve_error::none) return {calculus::extended<T>{}, w.error};
      if (w.value.is_inf()) return {calculus::extended<T>::infinity(), w.error};
      const calculus::rational r = w.value.value().to_rational();
      if (!r.valid()) return {calculus::extended<T>{}, calculus::curve_error::overflow};
      return {calculus::extended<T>{r}, calculus::curve_error::none};
    }
  }
  return d;
}

}  // namespace netcc::detail

namespace netcc::calculus {

template <CurveNumber T>
deviation<T> horizontal_deviation(const basic_curve<T>& f, const basic_curve<T>& g) {
  return detail::deviation_widened<T>(
      f, g, [](const auto& a, const auto& b) { return detail::horizontal_deviation_impl(a, b); });
}

template <CurveNumber T>
deviation<T> vertical_deviation(const basic_curve<T>& f, const basic_curve<T>& g) {
  return detail::deviation_widened<T>(
      f, g, [](const auto& a, const auto& b) { return detail::vertical_deviation_impl(a, b); });
}

}  // namespace netcc::calculus

namespace netcc::calculus {

/// @brief Where a deviation's supremum is reached (see deviation_point).
enum class deviation_reach : std::uint8_t {
  at,           ///< reached at `time`, the earliest time at which it is reached
  after,        ///< the limit as the time decreases to `time` (the right limit there)
  before,       ///< the limit as the time increases to `time` (the left limit there)
  at_infinity,  ///< +infinity approached as the time grows without bound (`time` is 0)
};

/// @brief A deviation (delay or backlog bound) with the time at which it is reached.
///
/// For the vertical deviation sup_t {f(t) - g(t)} the time is the t of the supremum; for the
/// horizontal deviation sup_t delay(t) it is the arrival time t whose delay is the bound.
/// The earliest such time is reported: `reach == at` when the supremum is a value at `time`.
/// Otherwise the supremum is a one-sided limit at `time`; `attained` then says whether the
/// supremum is still reached, on the open interval just after `time` (the difference is
/// constant there, so no earliest time exists), or only approached.
/// @code
/// using netcc::calculus::curve;
/// auto p = vertical_deviation_point(curve::token_bucket(1, 4), curve::rate_latency(2, 3));
/// // value 7 at time 3 (reach at)
/// @endcode
template <CurveNumber T>
struct deviation_point {
  /// @brief The bound (a number or +infinity).
  extended<T> value{};
  /// @brief The earliest time at which the bound is reached or approached (see reach).
  T time{};
  /// @brief How the bound relates to `time`.
  deviation_reach reach = deviation_reach::at;
  /// @brief False when the supremum is only approached, never a value of the function.
  bool attained = true;
  /// @brief Why the bound is missing (none when valid).
  curve_error error = curve_error::none;
  /// @brief True when the bound was computed.
  [[nodiscard]] bool valid() const noexcept { return error == curve_error::none && value.valid(); }
};

/// @brief vertical_deviation with the earliest time at which the supremum is reached (or, if
/// it is only a limit, approached): candidates in time order are, at each breakpoint tau of
/// f or g, the left limit at tau, the value at tau and the right limit at tau; an attained
/// candidate (a value, or a right limit on a segment where f - g is constant) is preferred to
/// a limit that is only approached. Same conventions and errors as vertical_deviation. O(n + m).
/// @code
/// using netcc::calculus::curve;
/// auto p = vertical_deviation_point(curve::token_bucket(1, 4), curve::rate(2));
/// // 4, approached as t decreases to 0 (reach after, not attained)
/// @endcode
template <CurveNumber T>
[[nodiscard]] deviation_point<T> vertical_deviation_point(const basic_curve<T>& f,
                                                          const basic_curve<T>& g);

/// @brief horizontal_deviation with the arrival time at which the delay bound is reached:
/// delay(t) = max(t, g^↓(f(t))) - t exactly (g non-decreasing), so the bound and its time
/// are those of the vertical deviation of g^↓ ∘ f against the identity (clamped at 0: a
/// bound of 0 is reached at t = 0). Preconditions as horizontal_deviation; for exact
/// rational curves an intermediate overflow (the composition multiplies slopes) restarts the
/// computation with netcc::calculus::wide_rational and narrows value and time back.
/// O((n + m) log n).
/// @code
/// using netcc::calculus::curve;
/// auto p = horizontal_deviation_point(curve::token_bucket(1, 4), curve::rate_latency(2, 3));
/// // 5 = T + b / R, approached as t decreases to 0 (the burst arrives just after 0)
/// @endcode
template <CurveNumber T>
[[nodiscard]] deviation_point<T> horizontal_deviation_point(const basic_curve<T>& f,
                                                            const basic_curve<T>& g);

}  // namespace netcc::calculus

namespace netcc::detail {

template <class T>
calculus::deviation_point<T> vertical_deviation_point_impl(const calculus::basic_curve<T>& f,
                                                           const calculus::basic_curve<T>& g) {
  using ext = calculus::extended<T>;
  using P = calculus::deviation_point<T>;
  using R = calculus::deviation_reach;
  if (!f.valid()) return P{ext{}, T{}, R::at, false, f.error()};
  if (!g.valid()) return P{ext{}, T{}, R::at, false, g.error()};
  bool any_att = false;
  bool any_lim = false;
  P att{};  // the best attained candidate, earliest first
  P lim{};  // the best candidate that is only approached
  curve_builder<T> b;
  const auto consider = [&](const ext& x, const ext& y, T t, R reach, bool attained) {
    if (y.is_inf()) return;
    ext d = ext::infinity();
    if (x.is_finite()) d = ext{b.chk(x.value() - y.value())};
    P& best = attained ? att : lim;
    bool& any = attained ? any_att : any_lim;
    if (!any || best.value < d) best = P{d, t, reach, attained, calculus::curve_error::none};
    any = true;
  };
  curve_combine<T>(f.breakpoints(), g.breakpoints(), b,
                   [&](auto& o, T tau, bool has_next, T next, const auto& a, const auto& c) {
                     consider(a.v, c.v, tau, R::at, true);
                     // f - g constant on the open segment after tau: reached there
                     const bool flat = a.r.is_inf() || (c.r.is_finite() && a.s == c.s);
                     consider(a.r, c.r, tau, R::after, flat);
                     if (has_next) {
                       const auto end = [&o, tau, next](const auto& s) -> ext {
                         if (s.r.is_inf()) return s.r;
                         return ext{o.chk(s.r.value() + s.s * (next - tau))};
                       };
                       consider(end(a), end(c), next, R::before, false);
                     } else if (c.r.is_finite() && (a.r.is_finite() && c.s < a.s)) {
                       consider(ext::infinity(), c.r, T{}, R::at_infinity, false);
                     }
                   });
  if (!b.ok()) return P{ext{}, T{}, R::at, false, b.error()};
  if (!any_att && !any_lim) return P{ext{}, T{}, R::at, false, calculus::curve_error::undefined};
  if (any_att && (!any_lim || !(att.value < lim.value))) return att;
  return lim;
}

template <class T>
calculus::deviation_point<T> horizontal_deviation_point_impl(const calculus::basic_curve<T>& f,
                                                             const calculus::basic_curve<T>& g,
                                                             const calculus::basic_curve<T>& id) {
  using ext = calculus::extended<T>;
  using P = calculus::deviation_point<T>;
  using R = calculus::deviation_reach;
  if (!f.valid()) return P{ext{}, T{}, R::at, false, f.error()};
  if (!g.valid()) return P{ext{}, T{}, R::at, false, g.error()};
  const ext zero{};
  if (!f.is_non_decreasing() || !g.is_non_decreasing() || f.breakpoints()[0].value < zero ||
      g.breakpoints()[0].value < zero) {
    return P{ext{}, T{}, R::at, false, calculus::curve_error::precondition};
  }
  const calculus::basic_curve<T> gi = lower_inverse(g);
  if (!gi.valid()) return P{ext{}, T{}, R::at, false, gi.error()};
  const calculus::basic_curve<T> leave = compose(gi, f);  // g^↓(f(t))
  if (!leave.valid()) return P{ext{}, T{}, R::at, false, leave.error()};
  P p = vertical_deviation_point_impl(leave, id);
  if (p.error != calculus::curve_error::none) return p;
  if (!(zero < p.value)) p = P{zero, T{}, R::at, true, calculus::curve_error::none};
  return p;
}

// A deviation point computed with rational that overflowed, recomputed with wide_rational.
template <class T, class Impl>
calculus::deviation_point<T> deviation_point_widened(const calculus::basic_curve<T>& f,
                                                     const calculus::basic_curve<T>& g,
                                                     const calculus::basic_curve<T>& h, Impl impl) {
  calculus::deviation_point<T> d = impl(f, g, h);
  if constexpr (std::is_same_v<T, calculus::rational>) {
    if (d.error == calculus::curve_error::overflow) {
      using W = calculus::wide_rational;
      const calculus::deviation_point<W> w =
          impl(calculus::curve_cast<W>(f), calculus::curve_cast<W>(g), calculus::curve_cast<W>(h));
      calculus::deviation_point<T> r{calculus::extended<T>{}, T{}, w.reach, w.attained, w.error};
      if (w.error != calculus::curve_error::none) return r;
      const calculus::rational time = w.time.to_rational();
      if (!time.valid()) {
        r.error = calculus::curve_error::overflow;
        return r;
      }
      r.time = time;
      if (w.value.is_inf()) {
        r.value = calculus::extended<T>::infinity();
        return r;
      }
      const calculus::rational v = w.value.value().to_rational();
      if (!v.valid()) {
        r.error = calculus::curve_error::overflow;
        return r;
      }
      r.value = calculus::extended<T>{v};
      return r;
    }
  }
  return d;
}

}  // namespace netcc::detail

namespace netcc::calculus {

template <CurveNumber T>
deviation_point<T> vertical_deviation_point(const basic_curve<T>& f, const basic_curve<T>& g) {
  return detail::deviation_point_widened<T>(f, g, basic_curve<T>::zero(),
                                            [](const auto& a, const auto& b, const auto&) {
                                              return detail::vertical_deviation_point_impl(a, b);
                                            });
}

template <CurveNumber T>
deviation_point<T> horizontal_deviation_point(const basic_curve<T>& f, const basic_curve<T>& g) {
  return detail::deviation_point_widened<T>(
      f, g, basic_curve<T>::rate(curve_number<T>::from_int(1)),
      [](const auto& a, const auto& b, const auto& id) {
        return detail::horizontal_deviation_point_impl(a, b, id);
      });
}

}  // namespace netcc::calculus
