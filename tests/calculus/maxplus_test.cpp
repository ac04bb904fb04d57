// SPDX-License-Identifier: MIT
// Max-plus operations (netcc/calculus/maxplus.hpp; Le Boudec, Thiran §3.2): worked examples
// computed by hand (derivations in the comments), the refusals (+infinity operands, a
// deconvolution of -infinity, invalid operands), and laws checked exactly on random rational
// curves: negation an involution, max-plus convolution commutative and associative, the
// dualities with the min-plus operations, both operations equal to brute-force evaluation of
// their definitions (sup / inf over every breakpoint, one-sided limits and a fine grid), and
// max-plus convolution >= min-plus convolution for non-decreasing curves.
#include <netcc/calculus/maxplus.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "calculus/curve_gen.hpp"

namespace netcc_tests::calculus_maxplus {

namespace {

using calc_test::bp;
using calc_test::ext;
using calc_test::q;
using netcc::calculus::curve;
using netcc::calculus::curve_error;
using netcc::calculus::double_curve;
using netcc::calculus::rational;

ext E(std::int64_t n, std::int64_t d = 1) {
  return ext{q(n, d)};
}

curve pts(std::vector<bp> v) {
  return curve::from_breakpoints(v);
}

// Random finite curves: any sign and slope, jumps (general), or non-decreasing (monotone).
const calc_test::shape general{
    .max_points = 4, .monotone = false, .causal = false, .allow_inf = false};
const calc_test::shape monotone{
    .max_points = 4, .monotone = true, .causal = false, .allow_inf = false};
const calc_test::shape small{
    .max_points = 3, .monotone = false, .causal = false, .allow_inf = false};

// Candidate times in [0, hi]: 0, hi, every breakpoint of f and every hi - (breakpoint of g)
// inside, and a grid of step 1/8.
std::vector<rational> candidates(const curve& f, const curve& g, rational t, rational hi) {
  std::vector<rational> c = calc_test::grid(hi, q(1, 8));
  c.push_back(rational{0});
  c.push_back(hi);
  for (const auto& p : f.breakpoints()) {
    if (p.t <= hi) c.push_back(p.t);
    if (t <= p.t && p.t - t <= hi) c.push_back(p.t - t);
  }
  for (const auto& p : g.breakpoints()) {
    if (p.t <= hi) c.push_back(p.t);
    if (p.t <= t) c.push_back(t - p.t);
  }
  std::sort(c.begin(), c.end());
  c.erase(std::unique(c.begin(), c.end()), c.end());
  return c;
}

// (f ⊗̄ g)(t) from the definition: the supremum over s in [0, t] of f(s) + g(t - s), a
// piecewise-linear function of s, is reached at (or approached next to) a breakpoint of f(s)
// or of g(t - s): values and one-sided limits at those and on the grid. Finite curves.
ext brute_maxconv(const curve& f, const curve& g, rational t) {
  bool any = false;
  ext best{};
  const auto take = [&](const ext& v) {
    best = any ? calc_test::emax(best, v) : v;
    any = true;
  };
  for (const rational& s : candidates(f, g, t, t)) {
    take(f(s) + g(t - s));
    if (s < t) take(f.right_limit(s) + g.left_limit(t - s));
    if (rational{0} < s) take(f.left_limit(s) + g.right_limit(t - s));
  }
  return best;
}

// (f ⊘̄ g)(t) from the definition: the infimum over u >= 0 of f(t + u) - g(u), at the
// breakpoints of f(t + u) and g(u), with one-sided limits, and on a grid; beyond the last
// breakpoint both are affine, and a tail slope of f below g's makes it -infinity (the second
// member false). Finite curves.
std::pair<rational, bool> brute_maxdeconv(const curve& f, const curve& g, rational t) {
  const rational hi = std::max(calc_test::horizon(f), calc_test::horizon(g)) + q(1);
  if (f.breakpoints().back().slope < g.breakpoints().back().slope) return {rational{0}, false};
  bool any = false;
  rational best{0};
  const auto take = [&](const ext& a, const ext& b) {
    const rational d = a.value() - b.value();
    best = any ? std::min(best, d) : d;
    any = true;
  };
  for (const rational& u : candidates(f, g, t, hi)) {
    take(f(t + u), g(u));
    take(f.right_limit(t + u), g.right_limit(u));
    if (rational{0} < u) take(f.left_limit(t + u), g.left_limit(u));
  }
  return {best, true};
}

// ---------------------------------------------------------------- worked examples

TEST(MaxPlusExamples, RateAgainstRate) {
  // sup_{0<=s<=t} {s + 2 (t - s)} = sup_s {2 t - s} = 2 t (at s = 0).
  EXPECT_EQ(maxplus_convolve(curve::rate(1), curve::rate(2)), curve::rate(2));
  EXPECT_EQ(maxplus_convolve(curve::rate(2), curve::rate(1)), curve::rate(2));
}

TEST(MaxPlusExamples, TokenBucketAgainstRate) {
  // f = token_bucket(r = 1, b = 4): f(0) = 0, f(s) = 4 + s for s > 0; g(u) = 2 u.
  // At t = 0 only s = 0: f(0) + g(0) = 0. For t > 0: s = 0 gives 2 t; s in (0, t] gives
  // 4 + s + 2 (t - s) = 4 + 2 t - s, whose supremum (s -> 0+) is 4 + 2 t. So 0 at 0 and
  // 4 + 2 t for t > 0 (a supremum that is not attained).
  const curve h = maxplus_convolve(curve::token_bucket(1, 4), curve::rate(2));
  EXPECT_EQ(h, pts({bp{q(0), E(0), E(4), q(2)}}));
  EXPECT_EQ(h(q(0)), E(0));
  EXPECT_EQ(h(q(3)), E(10));
}

TEST(MaxPlusExamples, RateLatencyAgainstRateLatencyIsTheMaximum) {
  // f(s) = 2 (s - 3)+, g(u) = (u - 1)+: s -> f(s) + g(t - s) is convex, so its supremum on
  // [0, t] is at an end: s = 0 gives g(t) = (t - 1)+, s = t gives f(t) = 2 (t - 3)+. Their
  // maximum: 0 on [0, 1], t - 1 on [1, 5], 2 t - 6 after (t - 1 = 2 t - 6 at t = 5).
  const curve h = maxplus_convolve(curve::rate_latency(2, 3), curve::rate_latency(1, 1));
  EXPECT_EQ(
      h, pts({bp{q(0), E(0), E(0), q(0)}, bp{q(1), E(0), E(0), q(1)}, bp{q(5), E(4), E(4), q(2)}}));
  EXPECT_EQ(h, max(curve::rate_latency(2, 3), curve::rate_latency(1, 1)));
}

TEST(MaxPlusExamples, ConcaveAgainstRate) {
  // f(s) = min(3 s, s + 2) (slope 3 on [0, 1], then 1), g(u) = 2 u. f(s) + 2 (t - s) =
  // 2 t + (f(s) - 2 s), and f(s) - 2 s rises with slope 1 on [0, 1] and falls with slope -1
  // after: the supremum is at s = min(t, 1). For t <= 1: 3 t; for t >= 1: 2 t + 1.
  const curve f = pts({bp{q(0), E(0), E(0), q(3)}, bp{q(1), E(3), E(3), q(1)}});
  const curve h = maxplus_convolve(f, curve::rate(2));
  EXPECT_EQ(h, pts({bp{q(0), E(0), E(0), q(3)}, bp{q(1), E(3), E(3), q(2)}}));
  EXPECT_EQ(h(q(1, 2)), E(3, 2));
  EXPECT_EQ(h(q(4)), E(9));
}

TEST(MaxPlusExamples, ConstantIsAShift) {
  // g = c: sup_s {f(s) + c} over s in [0, t] = c + max_{[0, t]} f. For f(s) = s this is
  // c + t; for a non-decreasing f in general it is f + c.
  EXPECT_EQ(maxplus_convolve(curve::rate(1), curve::constant(q(5, 2))),
            shift_up(curve::rate(1), q(5, 2)));
  // f(s) = 3 - s (decreasing), g = 0: sup over [0, t] of 3 - s is 3.
  const curve dec = pts({bp{q(0), E(3), E(3), q(-1)}});
  EXPECT_EQ(maxplus_convolve(dec, curve::zero()), curve::constant(q(3)));
}

TEST(MaxPlusExamples, DeconvolutionOfRates) {
  // inf_{u>=0} {2 (t + u) - u} = 2 t + inf_u u = 2 t.
  EXPECT_EQ(maxplus_deconvolve(curve::rate(2), curve::rate(1)), curve::rate(2));
  // inf_u {2 (t + u) - 2 u} = 2 t.
  EXPECT_EQ(maxplus_deconvolve(curve::rate(2), curve::rate(2)), curve::rate(2));
}

TEST(MaxPlusExamples, DeconvolutionAgainstATokenBucket) {
  // f(t) = 2 t, g = token_bucket(r = 1, b = 5): g(0) = 0, g(u) = 5 + u for u > 0.
  // u = 0 gives 2 t; u > 0 gives 2 t + 2 u - 5 - u = 2 t - 5 + u, infimum 2 t - 5 (u -> 0+).
  // So 2 t - 5 for every t >= 0, including -5 at t = 0.
  const curve d = maxplus_deconvolve(curve::rate(2), curve::token_bucket(1, 5));
  EXPECT_EQ(d, pts({bp{q(0), E(-5), E(-5), q(2)}}));
}

TEST(MaxPlusExamples, RefusesInfinityAndMinusInfinity) {
  const curve f = curve::rate(1);
  // delta_1 takes +infinity after 1: its negation would take -infinity.
  EXPECT_EQ(maxplus_convolve(f, curve::delay(1)).error(), curve_error::precondition);
  EXPECT_EQ(maxplus_convolve(curve::delay(1), f).error(), curve_error::precondition);
  EXPECT_EQ(maxplus_deconvolve(f, curve::infinite()).error(), curve_error::precondition);
  EXPECT_EQ(maxplus_deconvolve(curve::delay(0), f).error(), curve_error::precondition);
  EXPECT_EQ(negate(curve::delay(2)).error(), curve_error::precondition);
  // inf_u {(t + u) - 2 u} = t - sup_u u = -infinity: not representable.
  EXPECT_EQ(maxplus_deconvolve(curve::rate(1), curve::rate(2)).error(), curve_error::undefined);
  // an invalid operand is passed on with its own error
  const curve bad = curve::invalid(curve_error::overflow);
  EXPECT_EQ(maxplus_convolve(bad, f).error(), curve_error::overflow);
  EXPECT_EQ(maxplus_convolve(f, bad).error(), curve_error::overflow);
  EXPECT_EQ(maxplus_deconvolve(bad, curve::delay(1)).error(), curve_error::overflow);
  EXPECT_EQ(negate(bad).error(), curve_error::overflow);
}

TEST(MaxPlusExamples, Negate) {
  // token_bucket(1, 4): 0 at 0, 4 + t after; negated: 0 at 0, -4 - t after.
  EXPECT_EQ(negate(curve::token_bucket(1, 4)), pts({bp{q(0), E(0), E(-4), q(-1)}}));
  EXPECT_EQ(negate(negate(curve::rate_latency(3, 2))), curve::rate_latency(3, 2));
}

TEST(MaxPlusExamples, DoubleCurves) {
  // The same as TokenBucketAgainstRate over double: 0 at 0, 4 + 2 t after.
  const double_curve h =
      maxplus_convolve(double_curve::token_bucket(1.0, 4.0), double_curve::rate(2.0));
  ASSERT_TRUE(h.valid());
  EXPECT_DOUBLE_EQ(h(0.0).value(), 0.0);
  EXPECT_DOUBLE_EQ(h(1.5).value(), 7.0);
  EXPECT_EQ(maxplus_convolve(double_curve::rate(1.0), double_curve::delay(1.0)).error(),
            curve_error::precondition);
}

// ---------------------------------------------------------------- laws on random curves

RC_GTEST_PROP(MaxPlusLaws, NegationIsAnInvolution, ()) {
  const curve f = *calc_test::gen_curve(general);
  const curve m = negate(f);
  RC_ASSERT(m.valid() && m.is_canonical());
  RC_ASSERT(negate(m) == f);
  RC_ASSERT(m + f == curve::zero());
}

RC_GTEST_PROP(MaxPlusLaws, ConvolutionCommutative, ()) {
  const curve f = *calc_test::gen_curve(general);
  const curve g = *calc_test::gen_curve(general);
  const curve h = maxplus_convolve(f, g);
  RC_ASSERT(h.valid() && h.is_canonical() && h.is_finite());
  RC_ASSERT(h == maxplus_convolve(g, f));
}

RC_GTEST_PROP(MaxPlusLaws, ConvolutionAssociative, ()) {
  const curve f = *calc_test::gen_curve(small);
  const curve g = *calc_test::gen_curve(small);
  const curve k = *calc_test::gen_curve(small);
  const curve a = maxplus_convolve(maxplus_convolve(f, g), k);
  const curve b = maxplus_convolve(f, maxplus_convolve(g, k));
  RC_ASSERT(a.valid() && b.valid());
  RC_ASSERT(a == b);
}

RC_GTEST_PROP(MaxPlusLaws, DualityWithMinPlus, ()) {
  const curve f = *calc_test::gen_curve(general);
  const curve g = *calc_test::gen_curve(general);
  // f ⊗̄ g = -((-f) ⊗ (-g)), and the other way round f ⊗ g = -((-f) ⊗̄ (-g)).
  const curve h = maxplus_convolve(f, g);
  RC_ASSERT(negate(h) == convolve(negate(f), negate(g)));
  RC_ASSERT(convolve(f, g) == negate(maxplus_convolve(negate(f), negate(g))));
  // f ⊘̄ g = -((-f) ⊘ (-g)) (both sides refused together when it is -infinity), and
  // f ⊘ g = -((-f) ⊘̄ (-g)) whenever the min-plus one is finite.
  const curve d = maxplus_deconvolve(f, g);
  const curve m = deconvolve(negate(f), negate(g));
  RC_ASSERT(m.valid());
  if (m.is_finite()) {
    RC_ASSERT(d == negate(m));
  } else {
    RC_ASSERT(d.error() == curve_error::undefined);
  }
  const curve mm = deconvolve(f, g);
  RC_ASSERT(mm.valid());
  const curve dd = maxplus_deconvolve(negate(f), negate(g));
  if (mm.is_finite()) {
    RC_ASSERT(dd == negate(mm));
  } else {
    RC_ASSERT(dd.error() == curve_error::undefined);
  }
}

RC_GTEST_PROP(MaxPlusLaws, ConvolutionMatchesDefinition, ()) {
  const curve f = *calc_test::gen_curve(general);
  const curve g = *calc_test::gen_curve(general);
  const curve h = maxplus_convolve(f, g);
  RC_ASSERT(h.valid());
  const rational hi = calc_test::horizon(f) + calc_test::horizon(g) + q(1);
  for (const rational& t : calc_test::grid(hi, q(1, 8))) {
    RC_ASSERT(h(t) == brute_maxconv(f, g, t));
  }
}

RC_GTEST_PROP(MaxPlusLaws, DeconvolutionMatchesDefinition, ()) {
  const curve f = *calc_test::gen_curve(general);
  const curve g = *calc_test::gen_curve(general);
  const curve d = maxplus_deconvolve(f, g);
  const rational hi = calc_test::horizon(f) + q(1);
  const auto at0 = brute_maxdeconv(f, g, rational{0});
  RC_CLASSIFY(!at0.second, "minus infinity");
  if (!at0.second) {
    RC_ASSERT(d.error() == curve_error::undefined);
    return;
  }
  RC_ASSERT(d.valid() && d.is_finite());
  for (const rational& t : calc_test::grid(hi, q(1, 8))) {
    const auto b = brute_maxdeconv(f, g, t);
    RC_ASSERT(b.second);
    RC_ASSERT(d(t) == ext{b.first});
  }
}

RC_GTEST_PROP(MaxPlusLaws, MaxPlusAboveMinPlusForNonDecreasing, ()) {
  const curve f = *calc_test::gen_curve(monotone);
  const curve g = *calc_test::gen_curve(monotone);
  const curve hi = maxplus_convolve(f, g);
  const curve lo = convolve(f, g);
  RC_ASSERT(hi.valid() && lo.valid());
  // pointwise, as curves (exact): max(hi, lo) = hi
  RC_ASSERT(max(hi, lo) == hi);
  // and the max-plus convolution of non-decreasing curves is non-decreasing
  RC_ASSERT(hi.is_non_decreasing());
}

}  // namespace

}  // namespace netcc_tests::calculus_maxplus
