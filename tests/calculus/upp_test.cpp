// SPDX-License-Identifier: MIT
// Ultimately pseudo-periodic curves (netcc/calculus/upp.hpp): the seed's packetiser and
// staircase, canonical form (smallest period, smallest transient), lossless conversion of
// basic_curve, and laws on random UPP curves checked exactly (canonical forms compared with ==)
// and against brute-force evaluation of the definitions on a sampled horizon.
#include <netcc/calculus/upp.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <vector>

#include "calculus/curve_gen.hpp"
#include "calculus/upp_show.hpp"

namespace netcc_tests::calculus_upp {

namespace {

using calc_test::bp;
using calc_test::ext;
using calc_test::q;
using netcc::calculus::curve;
using netcc::calculus::curve_error;
using netcc::calculus::double_upp;
using netcc::calculus::rational;
using netcc::calculus::upp;

ext E(std::int64_t n, std::int64_t d = 1) {
  return ext{q(n, d)};
}

TEST(Upp, SeedPacketizerForAllInputs) {
  // x -> L floor(x / L), seed §III-B a, L = 1500: the definition evaluated by hand
  const upp p = upp::packetizer(q(1500));
  ASSERT_TRUE(p.valid());
  EXPECT_EQ(p(q(0)), E(0));
  EXPECT_EQ(p(q(1499)), E(0));
  EXPECT_EQ(p(q(1500)), E(1500));
  EXPECT_EQ(p(q(4000)), E(3000));
  EXPECT_EQ(p(q(1'500'000'000)), E(1'500'000'000));
  EXPECT_EQ(p.left_limit(q(3000)), E(1500));
  EXPECT_EQ(p.transient(), q(0));
  EXPECT_EQ(p.period(), q(1500));
  EXPECT_EQ(p.rise(), q(1500));
  EXPECT_FALSE(p.is_ultimately_affine());
  // the finite curve agrees where it is exact, [0, (steps + 1) L)
  const curve c = curve::packetizer(q(1500), 4);
  for (const rational& t : calc_test::grid(q(7499), q(250))) EXPECT_EQ(p(t), c(t));
  EXPECT_EQ(p.to_curve().error(), curve_error::precondition);
}

TEST(Upp, StaircaseAndWindowStep) {
  // h ceil(t / w), h = 1500, w = 120 (a packetised periodic source)
  const upp s = upp::staircase(q(1500), q(120));
  EXPECT_EQ(s(q(0)), E(0));
  EXPECT_EQ(s(q(1)), E(1500));
  EXPECT_EQ(s(q(120)), E(1500));
  EXPECT_EQ(s(q(121)), E(3000));
  EXPECT_EQ(s.right_limit(q(240)), E(4500));
  // the window step S_W of seed Eq. 5 is ultimately affine (constant W): lossless both ways
  const curve w = curve::window(q(64));
  const upp uw = upp::from_curve(w);
  EXPECT_TRUE(uw.is_ultimately_affine());
  EXPECT_EQ(uw.to_curve(), w);
  EXPECT_EQ(uw(q(1000)), E(64));
  EXPECT_EQ(upp::staircase(q(-1), q(1)).error(), curve_error::bad_argument);
  EXPECT_EQ(upp::packetizer(q(0)).error(), curve_error::bad_argument);
}

TEST(Upp, CanonicalFormHasTheSmallestPeriodAndTransient) {
  // the staircase described over two steps and after a transient of three steps
  const upp s = upp::staircase(q(2), q(3));
  const upp twice = upp::make(s.unroll(q(15)), q(9), q(6), q(4));
  ASSERT_TRUE(twice.valid());
  EXPECT_EQ(twice, s);
  EXPECT_EQ(twice.period(), q(3));
  EXPECT_EQ(twice.transient(), q(0));
  // a token bucket: periodic on (0, infinity) but not at its jump: T = 0 + d (netcc's choice)
  const upp tb = upp::from_curve(curve::token_bucket(q(2), q(5)));
  EXPECT_EQ(tb.period(), q(1));
  EXPECT_EQ(tb.rise(), q(2));
  EXPECT_EQ(tb.transient(), q(1));
  EXPECT_EQ(tb.to_curve(), curve::token_bucket(q(2), q(5)));
  // a rate: periodic from 0
  EXPECT_EQ(upp::from_curve(curve::rate(q(3))).transient(), q(0));
}

TEST(Upp, StaircaseThroughARateServer) {
  // f = 3 ceil(t / 2) (a packetised source), g = 2 t, from the definition ([25] §3.1.1):
  // (f ⊗ g)(t) = inf_s f(s) + 2 (t - s); the candidates are s = 2k (3k + 2 (t - 2k)) and s = t
  // (f(t)), so on (2k, 2k + 2]: 2 t - k up to t = 2k + 3/2, then 3k + 3; period (2, 3) from 0.
  const upp s = upp::staircase(q(3), q(2));
  const upp r = upp::from_curve(curve::rate(q(2)));
  const upp h = convolve(s, r);
  ASSERT_TRUE(h.valid());
  EXPECT_EQ(h(q(0)), E(0));
  EXPECT_EQ(h(q(1)), E(2));
  EXPECT_EQ(h(q(3, 2)), E(3));
  EXPECT_EQ(h(q(7, 4)), E(3));
  EXPECT_EQ(h(q(2)), E(3));
  EXPECT_EQ(h(q(3)), E(5));
  EXPECT_EQ(h(q(1001)), E(1502));  // k = 500
  EXPECT_EQ(h.period(), q(2));
  EXPECT_EQ(h.rise(), q(3));
  EXPECT_EQ(h.transient(), q(0));
  EXPECT_EQ(convolve(r, s), h);
  // a staircase above a rate through the origin: the rate itself (f >= g, f(0) = 0)
  EXPECT_EQ(convolve(s, upp::from_curve(curve::rate(q(1)))).to_curve(), curve::rate(q(1)));
}

TEST(Upp, RatesDifferAndTheSlowerWins) {
  // min(2 t, 1 + t): t up to 1, then 1 + t ([27] §4.4 min of UPP, by hand)
  const upp a = upp::from_curve(curve::rate(q(2)));
  const upp b = upp::from_curve(curve::affine(q(1), E(1), q(1)));
  const upp m = min(a, b);
  ASSERT_TRUE(m.valid());
  EXPECT_EQ(m.to_curve(), min(curve::rate(q(2)), curve::affine(q(1), E(1), q(1))));
  EXPECT_EQ(max(a, b).to_curve(), max(curve::rate(q(2)), curve::affine(q(1), E(1), q(1))));
  // packetiser (rate 1) against a staircase of rate 3/2: the packetiser is the minimum for
  // t >= 0 here since 2 floor(t / 2) <= t <= 3 ceil(t / 2)
  const upp p = upp::packetizer(q(2));
  const upp st = upp::staircase(q(3), q(2));
  EXPECT_EQ(min(p, st), p);
  EXPECT_EQ(max(p, st), st);
  EXPECT_TRUE(is_below(p, st));
  EXPECT_FALSE(is_below(st, p));
  EXPECT_TRUE(is_below(p, p));
}

TEST(Upp, DoubleWithCommensurablePeriods) {
  const double_upp a = double_upp::packetizer(1.5);
  const double_upp b = double_upp::packetizer(2.0);
  const double_upp s = a + b;
  ASSERT_TRUE(s.valid());
  EXPECT_DOUBLE_EQ(s.period(), 6.0);
  EXPECT_DOUBLE_EQ(s(7.0).value(), 6.0 + 6.0);
  EXPECT_DOUBLE_EQ(
      convolve(double_upp::staircase(3.0, 2.0),
               double_upp::from_curve(netcc::calculus::double_curve::rate(2.0)))(1001.0)
          .value(),
      1502.0);
}

TEST(Upp, BacklogOfAStaircaseAtARateServer) {
  // f = 3 ceil(t / 2), g = 2 t: f - g is 3 (k + 1) - 2 t on (2k, 2k + 2], largest at t = 2k+:
  // 3 (k + 1) - 4 k = 3 - k, so the supremum is 3 (t = 0+); by hand from the definition.
  const upp f = upp::staircase(q(3), q(2));
  const upp g = upp::from_curve(curve::rate(q(2)));
  const auto v = vertical_deviation(f, g);
  ASSERT_TRUE(v.valid());
  EXPECT_EQ(v.value, E(3));
  // the other way round the rates decide: 2 t outgrows 3/2 t
  EXPECT_EQ(vertical_deviation(g, f).value, ext::infinity());
  // equal rates: 3 ceil(t / 2) against 3/2 t, largest just after each step: 3
  EXPECT_EQ(vertical_deviation(f, upp::from_curve(curve::rate(q(3, 2)))).value, E(3));
}

TEST(Upp, DelayOfAStaircaseAtARateServer) {
  // f = 3 ceil(t / 2), g = 2 t: the bits arriving at 2k+ (level 3 (k + 1)) leave at
  // 3 (k + 1) / 2, a delay of 3/2 - k/2: largest at k = 0, 3/2 (from the definition).
  const upp f = upp::staircase(q(3), q(2));
  const upp g = upp::from_curve(curve::rate(q(2)));
  const auto h = horizontal_deviation(f, g);
  ASSERT_TRUE(h.valid());
  EXPECT_EQ(h.value, E(3, 2));
  EXPECT_EQ(horizontal_deviation(g, f).value, ext::infinity());
  // the packetiser's inverse: 2 ceil(y / 2) for y >= 0
  const upp pi = lower_inverse(upp::packetizer(q(2)));
  ASSERT_TRUE(pi.valid());
  EXPECT_EQ(pi(q(0)), E(0));
  EXPECT_EQ(pi(q(1, 2)), E(2));
  EXPECT_EQ(pi(q(2)), E(2));
  EXPECT_EQ(pi(q(5)), E(6));
  // an ultimately constant curve (the window step S_W, W = 3) is inverted as a curve: 0 up to
  // its plateau, +infinity above it (no level above W is ever reached)
  const upp wi = lower_inverse(upp::from_curve(curve::window(q(3))));
  ASSERT_TRUE(wi.valid());
  EXPECT_EQ(wi(q(3)), E(0));
  EXPECT_EQ(wi(q(4)), ext::infinity());
  // a periodic part that falls is not non-decreasing
  EXPECT_EQ(lower_inverse(upp::make(curve::rate(q(1)), q(0), q(1), q(-1))).error(),
            curve_error::precondition);
}

// ------------------------------------------------------------------ properties

// A random UPP curve: a random (possibly non-monotone, finite) curve as base, transient
// 0..3 / 2, period 1..3 / 2 and a rise -2..4 / 2.
}  // namespace

namespace {

rc::Gen<upp> gen_upp(bool monotone) {
  return rc::gen::exec([monotone]() {
    calc_test::shape sh;
    sh.allow_inf = false;
    sh.monotone = monotone;
    sh.causal = monotone;
    sh.max_points = 3;
    const curve base = *calc_test::gen_curve(sh);
    const rational t0 = q(*rc::gen::inRange(0, 4), 2);
    const rational d = q(*rc::gen::inRange(1, 4), 2);
    // a non-decreasing pattern needs a rise of at least its own increase over a period
    rational c = q(*rc::gen::inRange(monotone ? 0 : -2, 5), 2);
    if (monotone) {
      const auto lo = base.at(t0);
      const auto hi = base.left_limit(t0 + d);
      if (lo.is_finite() && hi.is_finite()) c = c + (hi.value() - lo.value());
    }
    const upp u = upp::make(base, t0, d, c);
    RC_ASSERT(u.valid());
    return u;
  });
}

// The canonical form represents the same function (unrolled), and is a fixed point.
RC_GTEST_PROP(UppLaws, CanonicalFormIsTheSameFunction, ()) {
  calc_test::shape sh;
  sh.allow_inf = false;
  const curve base = *calc_test::gen_curve(sh);
  const rational t0 = q(*rc::gen::inRange(0, 4), 2);
  const rational d = q(*rc::gen::inRange(1, 4), 2);
  const rational c = q(*rc::gen::inRange(-2, 5), 2);
  const upp u = upp::make(base, t0, d, c);
  RC_ASSERT(u.valid());
  RC_ASSERT(upp::make(u.base(), u.transient(), u.period(), u.rise()) == u);
  RC_ASSERT(u.transient() <= t0 + u.period());  // T <= t0, or a + d with a <= t0
  // the definition, unrolled by hand: f(t) = base(t) below t0 + d, f(t + d) = f(t) + c
  for (const rational& t : calc_test::grid(t0 + d * rational{3}, q(1, 4))) {
    rational x = t;
    rational rise{0};
    while (t0 + d <= x) {
      x = x - d;
      rise = rise + c;
    }
    RC_ASSERT(u(t) == base(x) + ext{rise});
  }
}

// Every curve converts losslessly, and agrees with its UPP form on a horizon.
RC_GTEST_PROP(UppLaws, CurvesConvertLosslessly, ()) {
  const curve f = *calc_test::gen_curve(calc_test::shape{.monotone = false, .causal = false});
  const upp u = upp::from_curve(f);
  RC_ASSERT(u.valid() && u.is_ultimately_affine());
  RC_ASSERT(u.to_curve() == f);
  for (const rational& t : calc_test::grid(q(10), q(1, 4))) RC_ASSERT(u(t) == f(t));
}

// min and + are commutative and associative, + distributes over min, checked exactly on the
// canonical forms and against pointwise evaluation.
RC_GTEST_PROP(UppLaws, MinAndPlusLaws, ()) {
  const upp f = *gen_upp(false);
  const upp g = *gen_upp(false);
  const upp h = *gen_upp(false);
  const upp m = min(f, g);
  const upp s = f + g;
  RC_ASSERT(m.valid() && s.valid());
  RC_ASSERT(m == min(g, f));
  RC_ASSERT(s == g + f);
  RC_ASSERT(min(m, h) == min(f, min(g, h)));
  RC_ASSERT(min(f, g) + h == min(f + h, g + h));
  RC_ASSERT(max(f, g) == max(g, f));
  RC_ASSERT(is_below(m, f) && is_below(m, g) && is_below(f, max(f, g)));
  // dominance against sampling: a sampled point above refutes it
  if (is_below(f, g)) {
    for (const rational& t : calc_test::grid(q(10), q(1, 3))) RC_ASSERT(f(t) <= g(t));
  }
  for (const rational& t : calc_test::grid(q(10), q(1, 3))) {
    RC_ASSERT(m(t) == calc_test::emin(f(t), g(t)));
    RC_ASSERT(max(f, g)(t) == calc_test::emax(f(t), g(t)));
    RC_ASSERT(s(t) == f(t) + g(t));
  }
}

// Convolution against brute force on the unrolled curves over a horizon past the result's
// transient and two of its periods; commutative and associative; min distributes over it.
RC_GTEST_PROP(UppLaws, ConvolutionMatchesDefinitionAndLaws, ()) {
  const bool mono = *rc::gen::arbitrary<bool>();
  const upp f = *gen_upp(mono);
  const upp g = *gen_upp(mono);
  const upp h = convolve(f, g);
  RC_ASSERT(h.valid());
  RC_ASSERT(h == convolve(g, f));
  rational hz = h.transient() + h.period() * rational{2};
  if (hz < q(8)) hz = q(8);
  const curve uf = f.unroll(hz);
  const curve ug = g.unroll(hz);
  for (const rational& t : calc_test::grid(hz, q(1, 4))) {
    RC_ASSERT(h(t) == calc_test::brute_conv(uf, ug, t));
  }
  // the backlog bound against the supremum of f - g over a long sampled horizon (a lower
  // bound on it) and, for equal or slower f, no more than the horizon's supremum with limits
  const auto v = vertical_deviation(f, g);
  RC_ASSERT(v.valid());
  ext sampled = f(q(0)) + ext{-g(q(0)).value()};
  for (const rational& t : calc_test::grid(hz * rational{2}, q(1, 8))) {
    const ext ft = f(t);
    const ext gt = g(t);
    if (gt.is_inf()) continue;
    const ext d = ft.is_inf() ? ft : ext{ft.value() - gt.value()};
    sampled = calc_test::emax(sampled, d);
  }
  RC_ASSERT(sampled <= v.value);
  if (v.value.is_finite()) {
    RC_ASSERT(v.value ==
              vertical_deviation(f.unroll(hz * rational{2}), g.unroll(hz * rational{2})).value);
  }
  if (mono) {  // the delay bound against the definition on a grid (a lower bound, and at
               // most one grid step above it when the rates allow a bound)
    const auto d = horizontal_deviation(f, g);
    RC_CLASSIFY(d.error == curve_error::none && d.value.is_finite(), "finite delay bound");
    if (d.error == curve_error::none && d.value.is_finite()) {
      const rational hh = hz * rational{2};
      const curve cf = f.unroll(hh);
      const curve cg = g.unroll(hh * rational{8});
      ext lo{};
      for (const rational& t : calc_test::grid(hh, q(1, 8))) {
        lo = calc_test::emax(lo, calc_test::brute_delay_at(cf, cg, t));
      }
      RC_ASSERT(lo <= d.value);
      RC_ASSERT(d.value <= lo + ext{q(1, 8)});
    }
  }
  const upp k = *gen_upp(mono);
  // associative, exactly on canonical forms (equal functions have equal canonical forms)
  const upp left = convolve(h, k);
  const upp right = convolve(f, convolve(g, k));
  RC_ASSERT(left.valid() && right.valid());
  RC_ASSERT(left == right);
  const upp lhs = convolve(f, min(g, k));
  const upp rhs = min(h, convolve(f, k));
  for (const rational& t : calc_test::grid(q(12), q(1, 4))) RC_ASSERT(lhs(t) == rhs(t));
  RC_ASSERT(lhs.transient() == rhs.transient());
  RC_ASSERT(lhs.period() == rhs.period());
  RC_ASSERT(lhs.rise() == rhs.rise());
  RC_ASSERT(lhs == rhs);
}

}  // namespace

}  // namespace netcc_tests::calculus_upp
