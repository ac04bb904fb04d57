// SPDX-License-Identifier: MIT
// Sub-additive and super-additive closures (netcc/calculus/closure.hpp) and max-plus
// operations on UPP curves (netcc/calculus/maxplus.hpp): worked examples (the source of each
// expected value is stated with it), the refusals, and laws checked exactly on random small
// exact UPP curves: idempotence f* ⊗ f* = f*, f* <= min(delta_0, f), (f*)* = f*,
// sub-additivity on sampled points, isotonicity, and f* against the minimum of the iterated
// convolutions of f (brute force on the unrolled curve, on a sampled horizon); the dual laws
// for the super-additive closure; max-plus convolution of UPP curves against brute force.
#include <netcc/calculus/closure.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <ostream>
#include <vector>

#include "calculus/curve_gen.hpp"
#include "calculus/upp_show.hpp"

namespace netcc_tests::calculus_closure {

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

const upp& delta0() {
  static const upp d = upp::from_curve(curve::delay(q(0)));
  return d;
}

// ---------------------------------------------------------------- sub-additive: examples

TEST(ClosureExamples, TokenBucketIsItsOwnClosure) {
  // Le Boudec, Thiran 2001, §3.1.10 (Corollary: f is sub-additive with f(0) = 0 iff
  // f = f*); a token bucket gamma_{r,b} (0 at 0, b + r t after) is concave with f(0) = 0,
  // hence sub-additive (LB-T §1.2): its closure is itself.
  for (const auto& [r, b] :
       {std::pair{q(2), q(5)}, std::pair{q(1, 3), q(0)}, std::pair{q(0), q(7, 2)}}) {
    const curve tb = curve::token_bucket(r, b);
    const upp s = subadditive_closure(tb);
    ASSERT_TRUE(s.valid());
    EXPECT_EQ(s, upp::from_curve(tb));
    EXPECT_EQ(s.to_curve(), tb);
  }
}

TEST(ClosureExamples, RateLatencyAndDelayCloseToZero) {
  // Derived by hand from LB-T §3.1 (printed there: beta_{R,T} ⊗ beta_{R,T'} = beta_{R,T+T'}
  // and delta_T ⊗ delta_T' = delta_{T+T'}): beta_{R,T}^(n) = beta_{R,nT}, which is 0 on
  // [0, nT], so the minimum over n is 0 everywhere; likewise delta_T^(n) = delta_{nT}.
  const upp z = upp::from_curve(curve::zero());
  EXPECT_EQ(subadditive_closure(curve::rate_latency(q(3), q(1))), z);
  EXPECT_EQ(subadditive_closure(curve::rate_latency(q(7, 2), q(5, 4))), z);
  EXPECT_EQ(subadditive_closure(curve::delay(q(2))), z);
  // T = 0: beta_{R,0} = R t is sub-additive with f(0) = 0: itself
  EXPECT_EQ(subadditive_closure(curve::rate_latency(q(3), q(0))).to_curve(), curve::rate(q(3)));
}

TEST(ClosureExamples, WindowFlowControlStaircase) {
  // Window flow control (LB-T §4.3: the closed-loop service curve is the closure of
  // beta + W). h(0) = 0, h(t) = W + R (t - T)+ for t > 0. Derived by hand: n pieces cost
  // n W + R (t - n T)+ at best, so h*(t) = min_n {n W + R (t - n T)+}.
  //  - W >= R T: n = 1 is best, h* = h.
  //  - W < R T: W on (0, T] (one piece), and on (kT, (k+1)T] for k >= 1,
  //    h*(t) = min((k + 1) W, k W + R (t - k T)) = k W + min(W, R (t - k T)): period T,
  //    rise W, from T.
  const rational R = q(2);
  const rational T = q(3);
  const auto h_of = [&](rational w) {
    return upp::from_curve(curve::rate_latency(R, T) + curve::window(w));
  };
  EXPECT_EQ(subadditive_closure(h_of(q(6))), h_of(q(6)));  // W = R T
  EXPECT_EQ(subadditive_closure(h_of(q(9))), h_of(q(9)));
  const upp s = subadditive_closure(h_of(q(4)));  // W = 4 < R T = 6
  ASSERT_TRUE(s.valid());
  EXPECT_EQ(s.period(), T);
  EXPECT_EQ(s.rise(), q(4));
  EXPECT_EQ(s.transient(), q(2));  // the flat [2, 3] repeats as [5, 6]: periodic from 2
  EXPECT_EQ(s(q(0)), E(0));
  EXPECT_EQ(s.right_limit(q(0)), E(4));  // k = 0: one piece, W
  EXPECT_EQ(s(q(3)), E(4));
  EXPECT_EQ(s(q(7, 2)), E(5));  // k = 1: 4 + min(4, 1)
  EXPECT_EQ(s(q(4)), E(6));
  EXPECT_EQ(s(q(5)), E(8));
  EXPECT_EQ(s(q(6)), E(8));
  EXPECT_EQ(s(q(31)), E(42));  // k = 10: 40 + min(4, 2)
  // the same function built directly: 0 at 0, 4 on (0, 3], 4 + 2 (t - 3) on [3, 5], 8 on
  // [5, 6], then repeating with period 3 and rise 4 from 3
  const curve pattern = curve::from_breakpoints(std::vector<bp>{
      bp{q(0), E(0), E(4), q(0)}, bp{q(3), E(4), E(4), q(2)}, bp{q(5), E(8), E(8), q(0)}});
  EXPECT_EQ(s, upp::make(pattern, q(3), q(3), q(4)));
}

TEST(ClosureExamples, PointAndSegmentElements) {
  // By hand from the definition: f = 5 at t = 2 only (+infinity elsewhere): f^(n) = 5 n at
  // 2 n only, f* = 5 n at 2 n.
  const curve pt = curve::from_breakpoints(std::vector<bp>{
      bp{q(0), ext::infinity(), ext::infinity(), q(0)}, bp{q(2), E(5), ext::infinity(), q(0)}});
  const upp s = subadditive_closure(pt);
  ASSERT_TRUE(s.valid());
  EXPECT_EQ(s(q(0)), E(0));
  EXPECT_EQ(s(q(2)), E(5));
  EXPECT_EQ(s(q(3)), ext::infinity());
  EXPECT_EQ(s(q(20)), E(50));
  EXPECT_EQ(s(q(21)), ext::infinity());
  // f = 1 on (1, 3/2) only: f^(n) = n on (n, 3n/2); f*(t) = the smallest such n: for
  // t in (2, 9/4) none of (1, 3/2), (2, 3): n = 2 (t < 3); t = 5/2: n = 2; t = 13/4: n = 3.
  const curve seg = curve::from_breakpoints(std::vector<bp>{
      bp{q(0), ext::infinity(), ext::infinity(), q(0)}, bp{q(1), ext::infinity(), E(1), q(0)},
      bp{q(3, 2), ext::infinity(), ext::infinity(), q(0)}});
  const upp g = subadditive_closure(seg);
  ASSERT_TRUE(g.valid());
  EXPECT_EQ(g(q(1)), ext::infinity());
  EXPECT_EQ(g(q(5, 4)), E(1));
  EXPECT_EQ(g(q(7, 4)), ext::infinity());  // (1, 3/2) and (2, 3) both miss it
  EXPECT_EQ(g(q(5, 2)), E(2));
  EXPECT_EQ(g(q(13, 4)), E(3));
  EXPECT_EQ(g(q(3)), ext::infinity());  // (2, 3) and (3, 9/2) are open: both miss 3
}

TEST(ClosureExamples, PreconditionsAndValueAtZero) {
  // f(0) > 0 does not matter: f*(0) = 0 (f^(0) = delta_0); f = 2 + t (affine with 2 at 0)
  const upp s = subadditive_closure(curve::affine(q(2), E(2), q(1)));
  ASSERT_TRUE(s.valid());
  EXPECT_EQ(s(q(0)), E(0));
  EXPECT_EQ(s(q(3)), E(5));
  // f(0) < 0 or f(0+) < 0: -infinity, refused
  EXPECT_EQ(subadditive_closure(curve::affine(q(-1), E(0), q(1))).error(),
            curve_error::precondition);
  EXPECT_EQ(subadditive_closure(curve::affine(q(0), E(-1), q(1))).error(),
            curve_error::precondition);
  // a negative slope from f(0+) = 0 is fine: f = -t is its own closure on t > 0
  EXPECT_EQ(subadditive_closure(curve::rate(q(-1))).to_curve(), curve::rate(q(-1)));
  EXPECT_EQ(subadditive_closure(upp::invalid(curve_error::overflow)).error(),
            curve_error::overflow);
  // +infinity everywhere after 0: delta_0
  EXPECT_EQ(subadditive_closure(curve::infinite()), delta0());
}

TEST(ClosureExamples, DoubleCurves) {
  // the window example over double
  const double_upp h =
      double_upp::from_curve(netcc::calculus::double_curve::rate_latency(2.0, 3.0) +
                             netcc::calculus::double_curve::window(4.0));
  const double_upp s = subadditive_closure(h);
  ASSERT_TRUE(s.valid());
  EXPECT_DOUBLE_EQ(s(3.5).value(), 5.0);
  EXPECT_DOUBLE_EQ(s(31.0).value(), 42.0);
}

// ---------------------------------------------------------------- super-additive: examples

TEST(SuperClosureExamples, ConvexCurvesAndInfinities) {
  // LB-T §3.2 (max-plus dual of §3.1.10): f super-additive with f(0) = 0 iff f is its own
  // super-additive closure; a rate-latency curve is convex with f(0) = 0, hence
  // super-additive.
  const curve rl = curve::rate_latency(q(2), q(3));
  EXPECT_EQ(superadditive_closure(rl).to_curve(), rl);
  EXPECT_EQ(superadditive_closure(curve::rate(q(5, 2))).to_curve(), curve::rate(q(5, 2)));
  // derived by hand: f(0) <= 0 < f(0+) (a token bucket with b > 0): n - 1 short pieces each
  // worth about b: +infinity for t > 0, 0 at 0
  EXPECT_EQ(superadditive_closure(curve::token_bucket(q(1), q(4))), delta0());
  // f(0) > 0: n f(0) at 0 already: +infinity everywhere
  EXPECT_EQ(superadditive_closure(curve::constant(q(1))), upp::from_curve(curve::infinite()));
  // +infinity elsewhere (with f(0), f(0+) <= 0): -f needs -infinity
  EXPECT_EQ(superadditive_closure(curve::delay(q(1))).error(), curve_error::precondition);
  // f = 2 on (0, 1], 2 + 3 (t - 1) after, minus 2 from 0+ ... by hand: g(t) = -(t) for
  // t <= 1 then slope 1: g = max(-t, t - 2); two pieces of length t/2 each give
  // 2 max(-t/2, t/2 - 2) >= g(t), so g's super-additive closure at t = 2 is max over
  // splits: g(2) = 0, g(1) + g(1) = -2, g(2 - s) + g(s)... the sup is 0 = g(2).
  const curve g = curve::from_breakpoints(
      std::vector<bp>{bp{q(0), E(0), E(0), q(-1)}, bp{q(1), E(-1), E(-1), q(1)}});
  const upp gs = superadditive_closure(g);
  ASSERT_TRUE(gs.valid());
  EXPECT_EQ(gs(q(2)), E(0));
  EXPECT_EQ(gs(q(1, 2)), E(-1, 2));  // only s = 0 or s = t: g(1/2) = -1/2
}

// ---------------------------------------------------------------- max-plus on UPP curves

TEST(MaxPlusUpp, PacketisersAndRates) {
  // sup_{0<=s<=t} {s + 2 (t - s)} = 2 t (at s = 0), as for curves
  const upp a = upp::from_curve(curve::rate(q(1)));
  const upp b = upp::from_curve(curve::rate(q(2)));
  EXPECT_EQ(maxplus_convolve(a, b).to_curve(), curve::rate(q(2)));
  // packetiser P_2(s) = 2 floor(s / 2) against the rate 1: sup_s {2 floor(s/2) + t - s}:
  // s = 2 floor(t/2) gives t, and P_2(s) <= s: so t
  EXPECT_EQ(maxplus_convolve(upp::packetizer(q(2)), a).to_curve(), curve::rate(q(1)));
  // by hand: P_2 ⊗̄ P_2 (t) = sup 2 floor(s/2) + 2 floor((t-s)/2) = P_2(t) (floor is
  // super-additive: floor(x) + floor(y) <= floor(x + y), reached at s = 0)
  EXPECT_EQ(maxplus_convolve(upp::packetizer(q(2)), upp::packetizer(q(2))), upp::packetizer(q(2)));
  // negation is an involution and refuses +infinity
  EXPECT_EQ(negate(negate(upp::staircase(q(3), q(2)))), upp::staircase(q(3), q(2)));
  EXPECT_EQ(negate(upp::from_curve(curve::delay(q(1)))).error(), curve_error::precondition);
  EXPECT_EQ(maxplus_convolve(upp::from_curve(curve::delay(q(1))), a).error(),
            curve_error::precondition);
  EXPECT_EQ(negate(upp::packetizer(q(2)))(q(5)), E(-4));
}

TEST(MaxPlusUpp, Deconvolution) {
  // inf_{u >= 0} {2 (t + u) - P_1(u)} with P_1(u) = floor(u) <= u: 2 t + inf_u {2 u - floor(u)}
  // = 2 t (at u = 0), by hand
  const upp r2 = upp::from_curve(curve::rate(q(2)));
  EXPECT_EQ(maxplus_deconvolve(r2, upp::packetizer(q(1))).to_curve(), curve::rate(q(2)));
  // inf_{u >= 0} {P_2(t + u) - u}, by hand: with x = t + u >= t, P_2(x) - x + t, and
  // P_2(x) - x = -(x mod 2) in (-2, 0] approaches -2 just below every multiple of 2: the
  // infimum is t - 2 (approached, not reached).
  const upp d = maxplus_deconvolve(upp::packetizer(q(2)), upp::from_curve(curve::rate(q(1))));
  ASSERT_TRUE(d.valid());
  EXPECT_EQ(d(q(0)), E(-2));
  EXPECT_EQ(d(q(7, 2)), E(3, 2));
  // g faster than f: -infinity, refused as for curves
  EXPECT_EQ(maxplus_deconvolve(upp::from_curve(curve::rate(q(1))), r2).error(),
            curve_error::undefined);
  EXPECT_EQ(maxplus_deconvolve(upp::from_curve(curve::delay(q(1))), r2).error(),
            curve_error::precondition);
}

}  // namespace

// ---------------------------------------------------------------- laws

namespace {

// Random small exact UPP curves with f(0) >= 0 and f(0+) >= 0 (the closure's preconditions):
// up to `max_points` breakpoints on multiples of 1/2 (so the periods' lcm stays small),
// values of either sign after 0, optionally +infinity pieces, a transient of 0 or 1/2 and a
// period of 1/2 or 1. Small on purpose: every element (point or segment) of the transient and
// of the period adds a convolution to the closure.
rc::Gen<upp> gen_closable(bool monotone, int max_points = 2) {
  return rc::gen::exec([monotone, max_points]() {
    const int n = *rc::gen::inRange(1, max_points + 1);
    std::vector<bp> v;
    rational t{0};
    rational left = q(*rc::gen::inRange(0, 3), 2);
    for (int i = 0; i < n; ++i) {
      const int lo = monotone ? 0 : (i == 0 ? 0 : -2);
      const rational value = i == 0 ? left : left + q(*rc::gen::inRange(monotone ? 0 : -1, 3), 2);
      rational right = value + q(*rc::gen::inRange(lo, 4), 2);
      if (right < rational{0}) right = rational{0};
      const rational slope = q(*rc::gen::inRange(monotone ? 0 : -2, 5), 2);
      const bool inf_piece = !monotone && *rc::gen::inRange(0, 6) == 0;
      v.push_back(bp{t, ext{value}, inf_piece ? ext::infinity() : ext{right}, slope});
      const rational dt = q(*rc::gen::inRange(1, 3), 2);
      left = inf_piece ? value + q(1) : right + slope * dt;
      t = t + dt;
    }
    const curve base = curve::from_breakpoints(v);
    RC_ASSERT(base.valid());
    const rational t0 = q(*rc::gen::inRange(0, 2), 2);
    const rational d = q(*rc::gen::inRange(1, 3), 2);
    rational c = q(*rc::gen::inRange(0, 5), 2);
    if (monotone) {
      const auto a = base.at(t0);
      const auto b = base.left_limit(t0 + d);
      if (a.is_finite() && b.is_finite()) c = c + (b.value() - a.value());
    }
    const upp u = upp::make(base, t0, d, c);
    RC_ASSERT(u.valid());
    RC_ASSERT(!(u(q(0)) < ext{}) && !(u.right_limit(q(0)) < ext{}));
    return u;
  });
}

// min over n of f^(n) on [0, h] by repeated squaring of min(delta_0, f) unrolled to h:
// (delta_0 ⊕ f)^(m) = min_{n <= m} f^(n). m >= 3 h / b0 + 1 pieces suffice (b0: f's first
// breakpoint after 0): pieces of length >= b0 are at most h / b0; pieces shorter than b0 lie
// on f's first segment, and two of them whose lengths add to less than b0 merge at no loss
// (2 v + rho (x + y) >= v + rho (x + y) for v = f(0+) >= 0), so at most 2 h / b0 + 1 remain.
curve brute_closure(const upp& f, rational h) {
  const curve w = f.unroll(h);
  rational b0 = h;
  for (const auto& p : w.breakpoints()) {
    if (rational{0} < p.t) {
      b0 = p.t;
      break;
    }
  }
  const rational need = h * rational{3} / b0 + rational{1};
  curve g = min(curve::delay(q(0)), w);
  for (rational m{1}; m < need; m = m * rational{2}) {
    g = convolve(g, g);
    RC_ASSERT(g.valid());
    g = g + curve::delay(h);  // keep [0, h] only
  }
  return g;
}

// One closure per case, checked against every law (a closure is the costly step).
RC_GTEST_PROP(ClosureLaws, IdempotentBelowSubAdditiveAndIterated, ()) {
  const upp f = *gen_closable(*rc::gen::arbitrary<bool>());
  const upp s = subadditive_closure(f);
  RC_ASSERT(s.valid());
  RC_ASSERT(s(q(0)) == E(0));
  RC_ASSERT(convolve(s, s) == s);            // f* ⊗ f* = f*
  RC_ASSERT(subadditive_closure(s) == s);    // (f*)* = f*
  RC_ASSERT(is_below(s, min(delta0(), f)));  // f* <= f on t > 0, f*(0) = 0
  const auto pts = calc_test::grid(q(4), q(1, 4));
  for (const rational& a : pts) {
    for (const rational& b : pts) {
      if (a <= b) RC_ASSERT(s(a + b) <= s(a) + s(b));
    }
  }
  // the minimum of the iterated convolutions on [0, 5], values and one-sided limits
  const rational h = q(5);
  const curve b = brute_closure(f, h);
  for (const rational& t : calc_test::grid(h, q(1, 8))) {
    RC_ASSERT(s(t) == b(t));
    if (t < h) RC_ASSERT(s.right_limit(t) == b.right_limit(t));
    if (rational{0} < t) RC_ASSERT(s.left_limit(t) == b.left_limit(t));
  }
}

// Isotone, and the closure of a minimum is the convolution of the closures (LB-T §3.1.10):
// g = min(f, k) <= f with k a token bucket (sub-additive with k(0) = 0, so k* = k), so
// g* <= f* and g* = f* ⊗ k. (f without +infinity pieces: the minimum of a UPP curve with
// +infinity between finite points and a faster-growing one is not UPP, which min() does not
// detect.)
RC_GTEST_PROP(ClosureLaws, IsotoneAndClosureOfAMinimum, ()) {
  const upp f = *gen_closable(true);
  const upp k = upp::from_curve(
      curve::token_bucket(q(*rc::gen::inRange(0, 7), 2), q(*rc::gen::inRange(0, 7), 2)));
  const upp g = min(f, k);
  RC_ASSERT(g.valid());
  const upp sf = subadditive_closure(f);
  const upp sg = subadditive_closure(g);
  RC_ASSERT(sf.valid() && sg.valid());
  RC_ASSERT(subadditive_closure(k) == k);
  for (const rational& t : calc_test::grid(q(6), q(1, 8))) RC_ASSERT(sg(t) <= sf(t));
  RC_ASSERT(sg == convolve(sf, k));
}

// Super-additive: -f with f closable has f(0), f(0+) <= 0; f̄* >= f, idempotent in max-plus,
// (f̄*)̄* = f̄*, super-additive on sampled points.
RC_GTEST_PROP(SuperClosureLaws, DualLaws, ()) {
  const upp f0 = *gen_closable(*rc::gen::arbitrary<bool>());
  RC_PRE(netcc::detail::upp_all_finite(f0));
  const upp f = negate(f0);
  RC_ASSERT(f.valid());
  const upp s = superadditive_closure(f);
  RC_ASSERT(s.valid());
  RC_ASSERT(s(q(0)) == E(0));
  RC_ASSERT(maxplus_convolve(s, s) == s);
  RC_ASSERT(superadditive_closure(s) == s);
  RC_ASSERT(is_below(f, s));  // f̄* >= f (f(0) <= 0 = f̄*(0))
  const auto pts = calc_test::grid(q(4), q(1, 4));
  for (const rational& a : pts) {
    if (rational{0} < a) RC_ASSERT(f(a) <= s(a));
    for (const rational& b : pts) {
      if (a <= b) RC_ASSERT(s(a) + s(b) <= s(a + b));
    }
  }
}

// Max-plus deconvolution of UPP curves agrees with the curves' maxplus_deconvolve on
// ultimately affine operands (random finite curves), pointwise on a grid.
RC_GTEST_PROP(MaxPlusUppLaws, DeconvolutionMatchesCurves, ()) {
  const calc_test::shape sh{
      .max_points = 3, .monotone = false, .causal = false, .allow_inf = false};
  const curve f = *calc_test::gen_curve(sh);
  const curve g = *calc_test::gen_curve(sh);
  const curve ref = maxplus_deconvolve(f, g);
  const upp h = maxplus_deconvolve(upp::from_curve(f), upp::from_curve(g));
  RC_ASSERT(ref.valid() == h.valid());
  if (!ref.valid()) {
    RC_ASSERT(ref.error() == h.error());
    return;
  }
  for (const rational& t : calc_test::grid(q(6), q(1, 8))) RC_ASSERT(h(t) == ref(t));
}

// Max-plus convolution of UPP curves against its definition on the unrolled curves (the
// curves' maxplus_convolve, itself tested against brute force in maxplus_test.cpp), and
// commutative.
RC_GTEST_PROP(MaxPlusUppLaws, ConvolutionMatchesCurvesAndCommutes, ()) {
  const upp f = *gen_closable(*rc::gen::arbitrary<bool>());
  const upp g = *gen_closable(*rc::gen::arbitrary<bool>());
  RC_PRE(netcc::detail::upp_all_finite(f) && netcc::detail::upp_all_finite(g));
  const upp h = maxplus_convolve(f, g);
  RC_ASSERT(h.valid());
  RC_ASSERT(h == maxplus_convolve(g, f));
  RC_ASSERT(negate(negate(f)) == f);
  const rational hz = q(6);
  // the max-plus convolution at t uses the operands on [0, t]; the curves' version needs
  // finite curves, so extend the unrolled ones by their last value with slope 0 past hz
  const auto finite_to = [hz](const upp& u) {
    netcc::detail::curve_builder<rational> b;
    const curve w = u.unroll(hz);
    for (const auto& p : w.breakpoints()) {
      if (p.t < hz) b.push(p.t, p.value, p.right, p.slope);
    }
    const ext y = u(hz);
    b.push(hz, y, y, q(0));
    return b.finish();
  };
  const curve ref = maxplus_convolve(finite_to(f), finite_to(g));
  RC_ASSERT(ref.valid());
  for (const rational& t : calc_test::grid(hz, q(1, 8))) {
    RC_ASSERT(h(t) == ref(t));
    if (rational{0} < t) RC_ASSERT(h.left_limit(t) == ref.left_limit(t));
  }
}

}  // namespace

}  // namespace netcc_tests::calculus_closure
