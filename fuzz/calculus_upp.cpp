// SPDX-License-Identifier: MIT
// Fuzz harness: ultimately pseudo-periodic curves (netcc/calculus/upp.hpp). Decodes bytes into
// a few small exact UPP curves (a base curve of up to four breakpoints with jumps either way,
// a transient, a period and a rise, or the packetiser and staircase shapes) and a sequence of
// operations (+, min, max, convolution, the deviations, dominance). Invariants after every
// operation:
//   * a result is valid, or invalid with a documented reason (overflow, bad argument);
//   * a valid result is canonical: make() of its own parts returns it unchanged, and its
//     transient, period and rise are good numbers with d > 0;
//   * evaluation agrees with the unrolled curve on a horizon of two periods past the transient;
//   * + and min are commutative; the convolution is commutative and equals the infimum of its
//     definition on the unrolled operands at sampled times; min(f, g) is below f and g; the
//     deviations are valid or fail for a documented reason, and the delay bound is >= 0;
//   * deconvolution (netcc/calculus/upp_ops.hpp) is at least every term f(t + u) - g(u) at
//     sampled t, u, and f <= (f ⊘ g) ⊗ g when finite; composition with a non-decreasing g
//     equals f(g(t)) at sampled t; the pseudo-inverses of a non-decreasing f satisfy
//     f^↓ <= f^↑ and f^↓(y) <= t iff y <= f(t+) at sampled y, t; the deviations with time
//     have the values of the deviations and reach them at the reported time as stated.
#include <netcc/calculus/upp.hpp>
#include <netcc/calculus/upp_ops.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_common.hpp"
#include "upp_decode.hpp"

namespace {

using netcc::calculus::curve;
using netcc::calculus::curve_error;
using netcc::calculus::rational;
using netcc::calculus::upp;
using netcc::fuzz::byte_reader;
using ext = netcc::calculus::extended<rational>;

constexpr std::size_t max_pool = 6;
constexpr std::size_t max_segments = 40;  // transient + period segments of a pooled curve

constexpr netcc::fuzz::upp_ranges ranges{9, 3, 6, 3, 4, 5};

upp decode_upp(byte_reader& r) {
  return netcc::fuzz::decode_upp(r, ranges);
}

bool small_enough(const upp& u) {
  const auto s = u.segments();
  return s.first + s.second <= max_segments;
}

void check_upp(const upp& u) {
  if (!u.valid()) {
    NETCC_FUZZ_CHECK(u.error() == curve_error::overflow || u.error() == curve_error::bad_argument);
    return;
  }
  NETCC_FUZZ_CHECK(rational{0} < u.period() && !(u.transient() < rational{0}));
  NETCC_FUZZ_CHECK(upp::make(u.base(), u.transient(), u.period(), u.rise()) == u);
  const rational h = u.transient() + u.period() * rational{2};
  const curve w = u.unroll(h);
  if (!w.valid()) return;  // an overflow while unrolling
  const rational step = h / rational{7};
  for (rational t{0}; step.valid() && t <= h; t = t + step) {
    NETCC_FUZZ_CHECK(u(t) == w(t));
  }
}

// (f ⊗ g)(t) from the definition on curves exact on [0, t]: candidates at the breakpoints.
ext brute(const curve& f, const curve& g, rational t) {
  std::vector<rational> cand{rational{0}, t};
  for (const auto& p : f.breakpoints()) {
    if (p.t <= t) cand.push_back(p.t);
  }
  for (const auto& p : g.breakpoints()) {
    if (p.t <= t) cand.push_back(t - p.t);
  }
  ext best = ext::infinity();
  for (const rational& s : cand) {
    const auto take = [&best](const ext& x) {
      if (x < best) best = x;
    };
    take(f(s) + g(t - s));
    if (s < t) take(f.right_limit(s) + g.left_limit(t - s));
    if (rational{0} < s) take(f.left_limit(s) + g.right_limit(t - s));
  }
  return best;
}

ext diff(const ext& a, const ext& b) {
  return a.is_inf() ? a : ext{a.value() - b.value()};
}

bool non_decreasing(const upp& u) {
  return !(u.rise() < rational{0}) &&
         u.unroll(u.transient() + u.period() * rational{2}).is_non_decreasing();
}

// No +infinity on [0, T + d) (the pool's curves stay finite, as the decoded ones).
bool finite(const upp& u) {
  for (const auto& p : u.base().breakpoints()) {
    if (p.t < u.transient() + u.period() && (p.value.is_inf() || p.right.is_inf())) return false;
  }
  return true;
}

bool documented(curve_error e) {
  return e == curve_error::overflow || e == curve_error::bad_argument;
}

void check_deconvolve(const upp& f, const upp& g, const upp& out) {
  if (!out.valid()) {
    NETCC_FUZZ_CHECK(documented(out.error()));
    return;
  }
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      const rational t{i};
      const rational u = rational::of(3 * j, 2);
      const ext fu = f(t + u);
      const ext gu = g(u);
      if (!fu.valid() || !gu.valid() || gu.is_inf()) continue;
      NETCC_FUZZ_CHECK(diff(fu, gu) <= out(t));
    }
  }
  if (out(rational{0}).is_finite() && small_enough(out)) {
    const upp back = convolve(out, g);
    if (back.valid()) NETCC_FUZZ_CHECK(is_below(f, back));
  }
}

void check_inverses(const upp& f) {
  if (!non_decreasing(f)) return;
  const upp lo = lower_inverse(f);
  const upp up = upper_inverse(f);
  if (!lo.valid() || !up.valid()) {
    NETCC_FUZZ_CHECK(documented(lo.error()) || documented(up.error()));
    return;
  }
  check_upp(lo);
  check_upp(up);
  for (int i = 0; i < 6; ++i) {
    const rational y = rational::of(i, 2);
    NETCC_FUZZ_CHECK(lo(y) <= up(y));
    for (int j = 0; j < 6; ++j) {
      const rational t = rational::of(j, 2);
      NETCC_FUZZ_CHECK((lo(y) <= ext{t}) == (ext{y} <= f.right_limit(t)));
    }
  }
}

void check_compose(const upp& f, const upp& g, const upp& out) {
  if (!out.valid()) {
    NETCC_FUZZ_CHECK(documented(out.error()));
    return;
  }
  for (int i = 0; i < 8; ++i) {
    const rational t = rational::of(i, 2);
    const ext y = g(t);
    if (y.is_finite()) NETCC_FUZZ_CHECK(out(t) == f(y.value()));
  }
}

void check_points(const upp& f, const upp& g) {
  using netcc::calculus::deviation_reach;
  const auto v = vertical_deviation(f, g);
  const auto vp = vertical_deviation_point(f, g);
  if (v.valid() && vp.valid()) {
    NETCC_FUZZ_CHECK(v.value == vp.value);
    const rational t = vp.time;
    if (vp.reach == deviation_reach::at) NETCC_FUZZ_CHECK(diff(f(t), g(t)) == vp.value);
    if (vp.reach == deviation_reach::after) {
      NETCC_FUZZ_CHECK(diff(f.right_limit(t), g.right_limit(t)) == vp.value);
    }
    if (vp.reach == deviation_reach::before) {
      NETCC_FUZZ_CHECK(diff(f.left_limit(t), g.left_limit(t)) == vp.value);
    }
  } else if (!v.valid()) {
    NETCC_FUZZ_CHECK(vp.error == v.error);  // the same reason (undefined: g is +infinity)
  } else {
    NETCC_FUZZ_CHECK(documented(vp.error));
  }
  const auto h = horizontal_deviation(f, g);
  const auto hp = horizontal_deviation_point(f, g);
  if (h.valid() && hp.valid()) NETCC_FUZZ_CHECK(h.value == hp.value);
  if (h.valid() && !hp.valid()) NETCC_FUZZ_CHECK(documented(hp.error));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_reader r(data, size);
  std::vector<upp> pool;
  const int n0 = 1 + r.u8() % 3;
  for (int i = 0; i < n0; ++i) {
    const upp u = decode_upp(r);
    check_upp(u);
    if (u.valid()) pool.push_back(u);
  }
  for (int step = 0; step < 6 && !r.empty() && !pool.empty(); ++step) {
    const upp& f = pool[r.u8() % pool.size()];
    const upp& g = pool[r.u8() % pool.size()];
    if (!small_enough(f) || !small_enough(g)) break;
    upp out;
    switch (r.u8() % 8) {
      case 5:
        out = deconvolve(f, g);
        check_deconvolve(f, g, out);
        break;
      case 6:
        check_inverses(f);
        check_points(f, g);
        break;
      case 7:
        if (!non_decreasing(g)) break;
        out = compose(f, g);
        check_compose(f, g, out);
        break;
      case 4: {  // bounds and dominance
        const auto v = vertical_deviation(f, g);
        NETCC_FUZZ_CHECK(v.valid() || v.error == curve_error::overflow ||
                         v.error == curve_error::bad_argument);
        const auto h = horizontal_deviation(f, g);
        NETCC_FUZZ_CHECK(h.valid() || h.error == curve_error::precondition ||
                         h.error == curve_error::overflow || h.error == curve_error::bad_argument);
        if (h.valid() && h.value.is_finite()) NETCC_FUZZ_CHECK(!(h.value < ext{rational{0}}));
        out = min(f, g);
        if (out.valid()) NETCC_FUZZ_CHECK(is_below(out, f) && is_below(out, g));
        break;
      }
      case 0:
        out = f + g;
        if (out.valid()) NETCC_FUZZ_CHECK(out == g + f);
        break;
      case 1:
        out = min(f, g);
        if (out.valid()) NETCC_FUZZ_CHECK(out == min(g, f));
        break;
      case 2:
        out = max(f, g);
        break;
      default: {
        out = convolve(f, g);
        if (!out.valid()) break;
        NETCC_FUZZ_CHECK(out == convolve(g, f));
        const rational h = out.transient() + out.period() * rational{2};
        const curve uf = f.unroll(h);
        const curve ug = g.unroll(h);
        if (!uf.valid() || !ug.valid()) break;
        const rational dt = h / rational{5};
        for (rational t{0}; dt.valid() && t <= h; t = t + dt) {
          NETCC_FUZZ_CHECK(out(t) == brute(uf, ug, t));
        }
        break;
      }
    }
    check_upp(out);
    if (out.valid() && small_enough(out) && finite(out) && pool.size() < max_pool) {
      pool.push_back(out);
    }
  }
  return 0;
}
