// SPDX-License-Identifier: MIT
// UPP curves (netcc/calculus/upp.hpp) whose periods hold +infinity between finite points,
// combined with curves of another rate: convolution, min and max against brute force on the
// unrolled curves, and min's refusal (curve_error::undefined) exactly where the minimum is not
// ultimately pseudo-periodic.
#include <netcc/calculus/upp.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <vector>

#include "calculus/curve_gen.hpp"
#include "calculus/upp_show.hpp"

namespace netcc_tests::calculus_upp_gaps {

namespace {

using calc_test::bp;
using calc_test::ext;
using calc_test::q;
using netcc::calculus::curve;
using netcc::calculus::curve_error;
using netcc::calculus::rational;
using netcc::calculus::upp;

const ext inf = ext::infinity();

ext E(std::int64_t n, std::int64_t d = 1) {
  return ext{q(n, d)};
}

// Horizon of the checks: the result's transient and two of its periods, and at least `least`.
rational check_horizon(const upp& h, rational least) {
  const rational hz = h.transient() + h.period() * rational{2};
  return hz < least ? least : hz;
}

// h = f ⊗ g at every point of a 1/8 grid (all breakpoints here are multiples of 1/4, so
// the grid holds them and a point inside every piece), by brute force on the unrolled curves.
::testing::AssertionResult conv_matches(const upp& f, const upp& g, const upp& h) {
  if (!h.valid()) return ::testing::AssertionFailure() << "invalid convolution";
  const rational hz = check_horizon(h, q(10));
  const curve uf = f.unroll(hz);
  const curve ug = g.unroll(hz);
  for (const rational& t : calc_test::grid(hz, q(1, 8))) {
    const ext want = calc_test::brute_conv(uf, ug, t);
    if (!(h(t) == want)) {
      return ::testing::AssertionFailure()
             << "at t = " << t << ": " << h(t) << " but brute force gives " << want;
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(UppGaps, ConvolutionWithGapsInTheFasterPeriod) {
  // fast (rate 1): -1 + k / 2 at t = 1/4 + k / 2, +infinity elsewhere; slow (rate 0): -1 at
  // t = 1/2 + 3 k / 4, +infinity elsewhere. (fast ⊗ slow)(t) is finite at sums of one point
  // of each: t = 3/4 + j / 4, j >= 0, j != 1. A bound on how far into the faster period a
  // split can lie that ignores the +infinity points (shifts of the faster operand's argument
  // by 3/4 land on them) gave +infinity at t = 5/4, where the definition gives -3/2 (-1/2 at
  // 3/4 plus -1 at 1/2).
  const upp fast = upp::make(curve::from_breakpoints(std::vector<bp>{
                                 {q(0), inf, inf, q(0)}, {q(1, 4), ext{q(-1)}, inf, q(0)}}),
                             q(0), q(1, 2), q(1, 2));
  const upp slow = upp::make(curve::from_breakpoints(std::vector<bp>{
                                 {q(0), inf, inf, q(0)}, {q(1, 2), ext{q(-1)}, inf, q(0)}}),
                             q(0), q(3, 4), q(0));
  ASSERT_TRUE(fast.valid() && slow.valid());
  EXPECT_TRUE(conv_matches(fast, slow, convolve(fast, slow)));
  EXPECT_TRUE(conv_matches(slow, fast, convolve(slow, fast)));
}

TEST(UppGaps, MinIsRefusedWhereTheSlowerCurveHasGaps) {
  // f = 1 at every k / 2 (k >= 1), +infinity elsewhere (rate 0); k(t) = 1/2 at 0, then
  // ceil(2 t) / 2 + 1/2 ... rate 1: from the pattern 1/2 at 0, 1 on (0, 1/2), rise 1/2.
  // min(f, k) is k where f is +infinity and f at k / 2 eventually: not UPP.
  const upp f = upp::make(curve::from_breakpoints(std::vector<bp>{{q(0), inf, inf, q(0)},
                                                                  {q(1, 2), ext{q(1)}, inf, q(0)}}),
                          q(1, 2), q(1, 2), q(0));
  const upp k =
      upp::make(curve::from_breakpoints(std::vector<bp>{{q(0), ext{q(1, 2)}, ext{q(1)}, q(0)}}),
                q(0), q(1, 2), q(1, 2));
  ASSERT_TRUE(f.valid() && k.valid());
  EXPECT_EQ(f(q(5, 4)), inf);
  EXPECT_EQ(k(q(5, 4)), E(2));
  const upp m = min(f, k);
  EXPECT_FALSE(m.valid());
  EXPECT_EQ(m.error(), curve_error::undefined);
  EXPECT_EQ(min(k, f).error(), curve_error::undefined);
  // max(f, k) is UPP: +infinity where f is, k elsewhere (k >= f there from t = 1/2 on)
  const upp x = max(f, k);
  ASSERT_TRUE(x.valid());
  for (const rational& t : calc_test::grid(q(10), q(1, 8))) {
    EXPECT_EQ(x(t), calc_test::emax(f(t), k(t))) << "t = " << t;
  }
  // the faster curve +infinity wherever the slower one is: the minimum is the slower curve
  // eventually, UPP (k restricted to the points k / 2)
  const upp kp =
      max(k, upp::make(curve::from_breakpoints(std::vector<bp>{{q(0), ext{q(0)}, inf, q(0)}}), q(0),
                       q(1, 2), q(0)));
  const upp m2 = min(f, kp);
  ASSERT_TRUE(m2.valid());
  for (const rational& t : calc_test::grid(q(10), q(1, 8))) {
    EXPECT_EQ(m2(t), calc_test::emin(f(t), kp(t))) << "t = " << t;
  }
}

}  // namespace

namespace {

// A random UPP curve whose period may hold +infinity: breakpoints on multiples of 1/4, each a
// finite or +infinity value, a finite or +infinity right limit; transient 0..1, period
// 1/2, 3/4, 1 or 3/2, rise 0..3.
rc::Gen<upp> gen_gap_upp() {
  return rc::gen::exec([]() {
    const rational t0 = q(*rc::gen::inRange(0, 3), 2);
    const std::vector<rational> ds{q(1, 2), q(3, 4), q(1), q(3, 2)};
    const rational d = ds[static_cast<std::size_t>(*rc::gen::inRange(0, 4))];
    const rational c = q(*rc::gen::inRange(0, 7), 2);
    std::vector<bp> v;
    rational t{0};
    while (t < t0 + d) {
      bp p;
      p.t = t;
      p.value = *rc::gen::inRange(0, 4) == 0 ? inf : ext{q(*rc::gen::inRange(-2, 5), 2)};
      const bool seg_inf = *rc::gen::inRange(0, 2) == 0;
      p.right = seg_inf ? inf : ext{q(*rc::gen::inRange(-2, 5), 2)};
      p.slope = seg_inf ? q(0) : q(*rc::gen::inRange(-2, 3), 2);
      v.push_back(p);
      t = t + q(*rc::gen::inRange(1, 4), 4);
    }
    const upp u = upp::make(curve::from_breakpoints(v), t0, d, c);
    RC_ASSERT(u.valid());
    return u;
  });
}

// Convolution against brute force, with +infinity gaps and (mostly) different rates.
RC_GTEST_PROP(UppGapsLaws, ConvolutionMatchesBruteForce, ()) {
  const upp f = *gen_gap_upp();
  const upp g = *gen_gap_upp();
  RC_CLASSIFY(f.rise() * g.period() != g.rise() * f.period(), "different rates");
  const upp h = convolve(f, g);
  RC_CLASSIFY(!h.valid(), "convolution not UPP");
  if (!h.valid()) {
    // refused only as not UPP, with evidence from the definition: past both transients and
    // two common periods l (and within 24 more time units), some time repeats with the
    // slower rate and another with the faster one over three shifts by l (a UPP result has a
    // single rate)
    RC_ASSERT(h.error() == curve_error::undefined);
    RC_ASSERT(convolve(g, f).error() == curve_error::undefined);
    rational l = f.period();
    while ((l / g.period()).den() != 1) l = l + f.period();
    const rational t0 = f.transient() + g.transient() + l * rational{2};
    const rational hz = t0 + l * rational{4} + q(24);
    const curve uf = f.unroll(hz);
    const curve ug = g.unroll(hz);
    const rational rf = f.rise() / f.period();
    const rational rg = g.rise() / g.period();
    std::vector<ext> v;  // the definition on the 1/8 grid from t0
    for (const rational& t : calc_test::grid(hz - t0, q(1, 8))) {
      v.push_back(calc_test::brute_conv(uf, ug, t0 + t));
    }
    const auto step = static_cast<std::size_t>((l * q(8)).num());
    bool seen_f = false;
    bool seen_g = false;
    for (std::size_t i = 0; i + 3 * step < v.size() && !(seen_f && seen_g); ++i) {
      if (!v[i].is_finite()) continue;
      bool as_f = true;
      bool as_g = true;
      for (std::size_t n = 1; n < 4; ++n) {
        const rational dn = l * q(static_cast<std::int64_t>(n));
        as_f = as_f && v[i + n * step] == v[i] + ext{dn * rf};
        as_g = as_g && v[i + n * step] == v[i] + ext{dn * rg};
      }
      seen_f = seen_f || as_f;
      seen_g = seen_g || as_g;
    }
    RC_ASSERT(seen_f && seen_g);
    return;
  }
  RC_ASSERT(h == convolve(g, f));
  const rational hz = check_horizon(h, q(6));
  const curve uf = f.unroll(hz);
  const curve ug = g.unroll(hz);
  for (const rational& t : calc_test::grid(hz, q(1, 8))) {
    RC_ASSERT(h(t) == calc_test::brute_conv(uf, ug, t));
  }
}

// min and max against pointwise evaluation; min refused (curve_error::undefined) only when the
// slower curve is +infinity at sampled times where the faster one is finite, past both
// transients.
RC_GTEST_PROP(UppGapsLaws, MinMaxMatchPointwiseOrMinIsRefused, ()) {
  const upp f = *gen_gap_upp();
  const upp g = *gen_gap_upp();
  const upp mx = max(f, g);
  RC_ASSERT(mx.valid());
  const upp mn = min(f, g);
  RC_CLASSIFY(!mn.valid(), "min not UPP");
  const rational least = q(10);
  if (mn.valid()) {
    for (const rational& t : calc_test::grid(check_horizon(mn, least), q(1, 8))) {
      RC_ASSERT(mn(t) == calc_test::emin(f(t), g(t)));
    }
  } else {
    RC_ASSERT(mn.error() == curve_error::undefined);
    RC_ASSERT(!f.periodic_infinite() && !g.periodic_infinite());
    RC_ASSERT(f.rise() * g.period() != g.rise() * f.period());
    const bool f_slow = f.rise() * g.period() < g.rise() * f.period();
    const upp& slow = f_slow ? f : g;
    const upp& fast = f_slow ? g : f;
    const rational t0 = f.transient() < g.transient() ? g.transient() : f.transient();
    bool seen = false;  // within one common period (3 covers every pair of periods here)
    for (const rational& t : calc_test::grid(q(3), q(1, 8))) {
      if (slow(t0 + t).is_inf() && fast(t0 + t).is_finite()) seen = true;
    }
    RC_ASSERT(seen);
  }
  for (const rational& t : calc_test::grid(check_horizon(mx, least), q(1, 8))) {
    RC_ASSERT(mx(t) == calc_test::emax(f(t), g(t)));
  }
}

}  // namespace

}  // namespace netcc_tests::calculus_upp_gaps
