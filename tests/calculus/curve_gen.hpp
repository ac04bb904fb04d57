// SPDX-License-Identifier: MIT
// Shared by the calculus tests: RapidCheck generators of random canonical curves with small
// rational breakpoints (times on multiples of 1/4), and brute-force evaluations of the min-plus
// operations written directly from their definitions (seed §II), independent of the algorithms
// in netcc/calculus/minplus.hpp. They use only a curve's breakpoints and its evaluation at a
// point and at left/right limits (tested on their own in curve_test.cpp).
#pragma once

#include <netcc/calculus/minplus.hpp>

#include <rapidcheck.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <vector>

namespace calc_test {

using netcc::calculus::breakpoint;
using netcc::calculus::curve;
using netcc::calculus::double_curve;
using netcc::calculus::rational;
using ext = netcc::calculus::extended<rational>;
using bp = breakpoint<rational>;

inline rational q(std::int64_t n, std::int64_t d = 1) {
  return rational::of(n, d);
}

/// What kind of random curve to draw.
struct shape {
  int max_points = 4;             // breakpoints before canonicalisation
  bool monotone = true;           // non-decreasing
  bool causal = true;             // f(0) = 0
  bool allow_inf = true;          // may end in +infinity (value or right limit)
  bool left_continuous = false;   // jumps only as right limits
  bool finite_tail_rate = false;  // last slope >= 1 and finite (for delay bounds)
};

/// A random curve of the given shape, built through from_breakpoints (so canonical).
inline rc::Gen<curve> gen_curve(shape s) {
  return rc::gen::exec([s]() {
    const int n = *rc::gen::inRange(1, s.max_points + 1);
    std::vector<bp> v;
    rational t{0};
    ext left{0};
    for (int i = 0; i < n; ++i) {
      bp p;
      p.t = t;
      const bool last = i + 1 == n;
      if (i == 0) {
        left = s.causal ? rational{0} : q(*rc::gen::inRange(-4, 5), 2);
        if (!s.monotone && !s.causal) left = q(*rc::gen::inRange(-6, 7), 2);
      }
      // value at the point and right limit: small jumps, often none
      const auto jump = [&](bool allow) -> rational {
        if (!allow || *rc::gen::inRange(0, 3) != 0) return rational{0};
        const int lo = s.monotone ? 1 : -4;
        return q(*rc::gen::inRange(lo, 5), 2);
      };
      const rational j1 = jump(!s.left_continuous && !(i == 0 && s.causal));
      const rational j2 = jump(true);
      p.value = ext{left.value() + j1};
      p.right = ext{p.value.value() + j2};
      if (i == 0 && s.causal) p.value = ext{0};
      const int slo = s.monotone ? 0 : -4;
      p.slope = q(*rc::gen::inRange(slo, 7), 2);
      if (last && s.finite_tail_rate) p.slope = q(*rc::gen::inRange(2, 7), 2);
      if (last && s.allow_inf && *rc::gen::inRange(0, 5) == 0) {
        p.right = ext::infinity();
        p.slope = rational{0};
        if (*rc::gen::inRange(0, 3) == 0 && !s.left_continuous && i > 0) {
          p.value = ext::infinity();
        }
      }
      v.push_back(p);
      if (!last) {
        const rational dt = q(*rc::gen::inRange(1, 9), 4);
        left = p.right.is_inf() ? ext::infinity() : ext{p.right.value() + p.slope * dt};
        t = t + dt;
        if (left.is_inf()) break;
      }
    }
    const curve c = curve::from_breakpoints(v);
    RC_ASSERT(c.valid());
    return c;
  });
}

/// A random convex curve (rate-latency-like chains, optionally ending in +infinity).
inline rc::Gen<curve> gen_convex(bool monotone) {
  return rc::gen::exec([monotone]() {
    const int n = *rc::gen::inRange(1, 5);
    std::vector<int> slopes;
    for (int i = 0; i < n; ++i) slopes.push_back(*rc::gen::inRange(monotone ? 0 : -4, 7));
    std::sort(slopes.begin(), slopes.end());
    std::vector<bp> v;
    rational t{0};
    rational y = monotone ? rational{0} : q(*rc::gen::inRange(-4, 5), 2);
    const bool wall = *rc::gen::inRange(0, 4) == 0;
    for (int i = 0; i < n; ++i) {
      const rational s = q(slopes[static_cast<std::size_t>(i)], 2);
      v.push_back(bp{t, ext{y}, ext{y}, s});
      const rational dt = q(*rc::gen::inRange(1, 9), 4);
      t = t + dt;
      y = y + s * dt;
    }
    if (wall) v.push_back(bp{t, ext{y}, ext::infinity(), rational{0}});
    return curve::from_breakpoints(v);
  });
}

/// A random concave, non-decreasing curve with f(0) = 0 (token-bucket-like).
inline rc::Gen<curve> gen_concave() {
  return rc::gen::exec([]() {
    const int n = *rc::gen::inRange(1, 5);
    std::vector<int> slopes;
    for (int i = 0; i < n; ++i) slopes.push_back(*rc::gen::inRange(0, 7));
    std::sort(slopes.rbegin(), slopes.rend());
    std::vector<bp> v;
    rational t{0};
    rational y = q(*rc::gen::inRange(0, 5), 2);  // burst at 0+
    for (int i = 0; i < n; ++i) {
      const rational s = q(slopes[static_cast<std::size_t>(i)], 2);
      v.push_back(bp{t, ext{i == 0 ? rational{0} : y}, ext{y}, s});
      const rational dt = q(*rc::gen::inRange(1, 9), 4);
      t = t + dt;
      y = y + s * dt;
    }
    return curve::from_breakpoints(v);
  });
}

inline ext emin(const ext& a, const ext& b) {
  return b < a ? b : a;
}
inline ext emax(const ext& a, const ext& b) {
  return a < b ? b : a;
}

/// Times on a grid: 0, step, 2 step, ..., up to h.
inline std::vector<rational> grid(rational h, rational step) {
  std::vector<rational> g;
  for (rational t{0}; t <= h; t = t + step) g.push_back(t);
  return g;
}

/// The last breakpoint time of a curve.
inline rational horizon(const curve& f) {
  return f.breakpoints().back().t;
}

/// (f ⊗ g)(t) from the definition: the infimum over s in [0, t] of f(s) + g(t - s) is taken at
/// the breakpoints of f(s) and of g(t - s), by values or by one-sided limits.
inline ext brute_conv(const curve& f, const curve& g, rational t) {
  std::vector<rational> cand{rational{0}, t};
  for (const auto& p : f.breakpoints()) {
    if (p.t <= t) cand.push_back(p.t);
  }
  for (const auto& p : g.breakpoints()) {
    if (p.t <= t) cand.push_back(t - p.t);
  }
  ext best = ext::infinity();
  for (const rational& s : cand) {
    best = emin(best, f(s) + g(t - s));
    if (s < t) best = emin(best, f.right_limit(s) + g.left_limit(t - s));
    if (rational{0} < s) best = emin(best, f.left_limit(s) + g.right_limit(t - s));
  }
  return best;
}

/// f(+infinity) of a curve's last segment; slope > 0 or +infinity gives +infinity.
inline ext tail_limit(const curve& f) {
  const auto& p = f.breakpoints().back();
  if (p.right.is_inf() || rational{0} < p.slope) return ext::infinity();
  return p.right;
}

/// (f ⊘ g)(t) from the definition: sup over u >= 0 of f(t + u) - g(u), leaving out g(u) =
/// +infinity; the second member is false when every term is left out.
inline std::pair<ext, bool> brute_deconv(const curve& f, const curve& g, rational t) {
  std::vector<rational> cand{rational{0}};
  for (const auto& p : g.breakpoints()) cand.push_back(p.t);
  for (const auto& p : f.breakpoints()) {
    if (t <= p.t) cand.push_back(p.t - t);
  }
  std::sort(cand.begin(), cand.end());
  bool any = false;
  ext best{0};
  const auto take = [&](const ext& a, const ext& b) {
    if (b.is_inf()) return;
    const ext d = a.is_inf() ? a : ext{a.value() - b.value()};
    best = any ? emax(best, d) : d;
    any = true;
  };
  for (const rational& u : cand) {
    take(f(t + u), g(u));
    take(f.right_limit(t + u), g.right_limit(u));
    if (rational{0} < u) take(f.left_limit(t + u), g.left_limit(u));
  }
  // beyond the last candidate both are affine (or +infinity)
  const auto& fl = f.breakpoints().back();
  const auto& gl = g.breakpoints().back();
  if (gl.right.is_finite()) {
    if (fl.right.is_inf() || gl.slope < fl.slope) take(ext::infinity(), gl.right);
  }
  return {best, any};
}

/// inf{x >= 0 | f(x) >= y} (strict = false) or inf{x >= 0 | f(x) > y} (strict = true) of a
/// non-decreasing f, by scanning its pieces.
inline ext brute_inverse(const curve& f, rational y, bool strict) {
  const auto reach = [&](const ext& v) { return strict ? ext{y} < v : ext{y} <= v; };
  const auto pts = f.breakpoints();
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const auto& p = pts[i];
    if (reach(p.value) || reach(p.right)) return ext{p.t};
    if (p.right.is_inf() || !(rational{0} < p.slope)) continue;
    const rational x = p.t + (y - p.right.value()) / p.slope;  // where the segment reaches y
    if (i + 1 == pts.size() || x < pts[i + 1].t) return ext{x};
  }
  return ext::infinity();
}

/// inf{d >= 0 | f(t) <= g(t + d)} for non-decreasing f, g.
inline ext brute_delay_at(const curve& f, const curve& g, rational t) {
  const ext y = f(t);
  if (y.is_inf()) return ext::infinity();
  const ext x = brute_inverse(g, y.value(), false);
  if (x.is_inf()) return x;
  return ext{t < x.value() ? x.value() - t : rational{0}};
}

/// Inserts a redundant breakpoint in the middle of every finite segment (same function).
inline std::vector<bp> split_segments(const curve& f) {
  std::vector<bp> out;
  const auto pts = f.breakpoints();
  for (std::size_t i = 0; i < pts.size(); ++i) {
    out.push_back(pts[i]);
    const rational dt = i + 1 < pts.size() ? (pts[i + 1].t - pts[i].t) / rational{2} : rational{1};
    const ext mid =
        pts[i].right.is_inf() ? pts[i].right : ext{pts[i].right.value() + pts[i].slope * dt};
    out.push_back(bp{pts[i].t + dt, mid, mid, pts[i].slope});
  }
  return out;
}

}  // namespace calc_test

namespace netcc::calculus {
// RapidCheck prints counterexamples through these.
inline void showValue(const rational& r, std::ostream& os) {
  if (!r.valid()) {
    os << "invalid";
  } else {
    os << r.num() << "/" << r.den();
  }
}
inline std::ostream& operator<<(std::ostream& os, const rational& r) {
  showValue(r, os);
  return os;
}
inline std::ostream& operator<<(std::ostream& os, const extended<rational>& e) {
  if (e.is_inf()) return os << "inf";
  return os << e.value();
}
inline std::ostream& operator<<(std::ostream& os, const basic_curve<rational>& c) {
  if (!c.valid()) return os << "invalid(" << static_cast<int>(c.error()) << ")";
  os << "curve{";
  for (const auto& p : c.breakpoints()) {
    os << " [t=" << p.t << " v=" << p.value << " r=" << p.right << " s=" << p.slope << "]";
  }
  return os << " }";
}
inline void showValue(const basic_curve<rational>& c, std::ostream& os) {
  os << c;
}
}  // namespace netcc::calculus
