// SPDX-License-Identifier: MIT
// Min-plus operations (netcc/calculus/minplus.hpp; network-calculus seed §II, §III): examples
// computed by hand (rate-latency ⊗ rate-latency, token bucket against rate-latency: backlog
// b + r T, delay T + b / R, output b + r T + r t; the window S_W of Eq. 5, the ACK staircase and
// RTT of Eq. 1, pseudo-inverses), and laws on random curves: convolution commutative,
// associative, delta_0 neutral, +infinity absorbing, min distributive, the special cases equal
// to the general algorithm, convolution and deconvolution equal to brute-force evaluation of
// their definitions, deconvolution identities, the pseudo-inverse Galois relations, backlog and
// delay bounds against a fine grid, composition, and double against exact.
#include <netcc/calculus/minplus.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "calculus/curve_gen.hpp"

namespace netcc_tests::calculus_minplus {

namespace {

using calc_test::bp;
using calc_test::ext;
using calc_test::q;
using netcc::calculus::curve;
using netcc::calculus::curve_error;
using netcc::calculus::double_curve;
using netcc::calculus::rational;

const ext inf = ext::infinity();
ext E(std::int64_t n, std::int64_t d = 1) {
  return ext{q(n, d)};
}

curve pts(std::vector<bp> v) {
  return curve::from_breakpoints(v);
}

// --------------------------------------------------------------------------- convolution

TEST(Convolution, RateLatencyChainsAddLatenciesAndTakeTheMinimumRate) {
  // beta_{2,1} ⊗ beta_{3,2} = beta_{min(2,3), 1+2} = beta_{2,3}  ([25] §1.4.1)
  const curve a = curve::rate_latency(q(2), q(1));
  const curve b = curve::rate_latency(q(3), q(2));
  const curve want = curve::rate_latency(q(2), q(3));
  EXPECT_EQ(convolve(a, b), want);
  EXPECT_EQ(convolve_general(a, b), want);
  EXPECT_EQ(convolve_convex(a, b), want);
  // with a pure delay: latency adds
  EXPECT_EQ(convolve(a, curve::delay(q(5))), curve::rate_latency(q(2), q(6)));
  EXPECT_EQ(convolve_general(curve::delay(q(5)), a), curve::rate_latency(q(2), q(6)));
}

TEST(Convolution, TokenBucketThroughRateLatency) {
  // alpha = 4 + t (t > 0), beta = 2 (t - 3)+: 0 on [0, 3], 2 (t - 3) until it meets
  // 4 + (t - 3) at t = 7 (value 8), then t + 1
  const curve alpha = curve::token_bucket(q(1), q(4));
  const curve beta = curve::rate_latency(q(2), q(3));
  const curve want =
      pts({bp{q(0), E(0), E(0), q(0)}, bp{q(3), E(0), E(0), q(2)}, bp{q(7), E(8), E(8), q(1)}});
  EXPECT_EQ(convolve(alpha, beta), want);
  EXPECT_EQ(convolve_general(alpha, beta), want);
}

TEST(Convolution, ConcaveCurvesThroughTheOriginGiveTheMinimum) {
  // gamma_{1,4} ⊗ gamma_{2,1}: min(4 + t, 1 + 2 t), crossing at t = 3 (value 7); 0 at 0
  const curve a = curve::token_bucket(q(1), q(4));
  const curve b = curve::token_bucket(q(2), q(1));
  const curve want = pts({bp{q(0), E(0), E(1), q(2)}, bp{q(3), E(7), E(7), q(1)}});
  EXPECT_EQ(convolve(a, b), want);
  EXPECT_EQ(convolve_concave(a, b), want);
  EXPECT_EQ(convolve_general(a, b), want);
  EXPECT_EQ(convolve_concave(a, curve::rate_latency(q(1), q(1))).error(),
            curve_error::precondition);
  EXPECT_EQ(convolve_convex(a, b).error(), curve_error::precondition);
}

TEST(Convolution, SeedWindowAndPathServer) {
  // seed Eq. 5: Â = A ⊗ S_W with A = 10 t and W = 64: min(10 t, 64) (A(0) + W = 64);
  // D = Â ⊗ S with S = 8 t: min(8 t, 64), reaching 64 at t = 8
  const curve a = curve::rate(q(10));
  const curve ahat = convolve(a, curve::window(q(64)));
  EXPECT_EQ(ahat, pts({bp{q(0), E(0), E(0), q(10)}, bp{q(32, 5), E(64), E(64), q(0)}}));
  const curve d = convolve(ahat, curve::rate(q(8)));
  EXPECT_EQ(d, pts({bp{q(0), E(0), E(0), q(8)}, bp{q(8), E(64), E(64), q(0)}}));
  EXPECT_EQ(convolve_general(ahat, curve::rate(q(8))), d);
  // seed Eq. 2: Â = A ⊗ S_r for a bursty A (a 6-unit burst at 0+, then 1 per unit time) and
  // r = 2: the burst drains at rate 2 until 2 t = 6 + t, i.e. t = 6
  const curve ahat2 = convolve(curve::token_bucket(q(1), q(6)), curve::rate(q(2)));
  EXPECT_EQ(ahat2, pts({bp{q(0), E(0), E(0), q(2)}, bp{q(6), E(12), E(12), q(1)}}));
}

TEST(Convolution, NeutralAndAbsorbingElements) {
  const curve f =
      curve::token_bucket(q(1), q(4)) - curve::rate_latency(q(3), q(2));  // not monotone
  EXPECT_EQ(convolve(f, curve::delay(q(0))), f);
  EXPECT_EQ(convolve_general(curve::delay(q(0)), f), f);
  EXPECT_EQ(convolve(f, curve::infinite()), curve::infinite());
  EXPECT_EQ(convolve_general(f, curve::infinite()), curve::infinite());
  // f ⊗ 0 = inf_{[0, t]} f: the running minimum of f = 4 + t - 3 (t - 2)+, 0 at 0:
  // min(0, 10 - 2 t) after t = 5
  EXPECT_EQ(convolve(f, curve::zero()),
            pts({bp{q(0), E(0), E(0), q(0)}, bp{q(5), E(0), E(0), q(-2)}}));
}

TEST(Convolution, OverflowIsFlagged) {
  const rational big{std::int64_t{1} << 62};
  // latencies 2^62 + 2^62 = 2^63 do not fit
  const curve a = curve::rate_latency(q(1), big);
  EXPECT_EQ(convolve(a, a).error(), curve_error::overflow);
  EXPECT_EQ(convolve_general(a, a).error(), curve_error::overflow);
  const curve s = pts({bp{q(0), E(0), E(0), q(1)}, bp{big, ext{big}, ext{big}, q(0)}});
  EXPECT_EQ(convolve_general(s, shift_right(curve::window(q(1)), big)).error(),
            curve_error::overflow);
}

TEST(Convolution, DoubleMatchesExactOnAnExample) {
  const auto a = double_curve::token_bucket(1.0, 4.0);
  const auto b = double_curve::rate_latency(2.0, 3.0);
  const auto c = convolve_general(a, b);
  EXPECT_DOUBLE_EQ(c(5.0).value(), 4.0);   // 2 (5 - 3)
  EXPECT_DOUBLE_EQ(c(9.0).value(), 10.0);  // 9 + 1
  EXPECT_EQ(c, convolve(a, b));
}

// --------------------------------------------------------------------------- deconvolution

TEST(Deconvolution, OutputArrivalCurveOfTokenBucket) {
  // alpha ⊘ beta = b + r T + r t = 7 + t, value 7 at 0 ([25] Thm 1.4.3)
  const curve alpha = curve::token_bucket(q(1), q(4));
  const curve beta = curve::rate_latency(q(2), q(3));
  EXPECT_EQ(deconvolve(alpha, beta), curve::affine(q(7), E(7), q(1)));
  EXPECT_EQ(deconvolve_general(alpha, beta), curve::affine(q(7), E(7), q(1)));
}

TEST(Deconvolution, DelayAdvancesAndInfinityRules) {
  const curve f = curve::rate_latency(q(1), q(1));
  EXPECT_EQ(deconvolve(f, curve::delay(q(3))), curve::affine(q(2), E(2), q(1)));  // f(t + 3)
  EXPECT_EQ(deconvolve_general(f, curve::delay(q(3))), curve::affine(q(2), E(2), q(1)));
  // delta_5 ⊘ delta_3 = delta_2: terms with g = +infinity are left out
  EXPECT_EQ(deconvolve_general(curve::delay(q(5)), curve::delay(q(3))), curve::delay(q(2)));
  // a rate against a slower rate: unbounded
  EXPECT_EQ(deconvolve(curve::rate(q(2)), curve::rate(q(1))), curve::infinite());
  // f ⊘ 0 = sup_{u} f(t + u): for a bounded f, its supremum
  EXPECT_EQ(deconvolve(curve::window(q(3)), curve::zero()), curve::constant(q(3)));
  EXPECT_EQ(deconvolve(f, curve::infinite()).error(), curve_error::undefined);
}

// --------------------------------------------------------------------------- bounds

TEST(Bounds, TokenBucketAgainstRateLatency) {
  const curve alpha = curve::token_bucket(q(1), q(4));  // r = 1, b = 4
  const curve beta = curve::rate_latency(q(2), q(3));   // R = 2, T = 3
  const auto h = horizontal_deviation(alpha, beta);
  const auto v = vertical_deviation(alpha, beta);
  ASSERT_TRUE(h.valid() && v.valid());
  EXPECT_EQ(h.value, E(5));  // T + b / R = 3 + 2
  EXPECT_EQ(v.value, E(7));  // b + r T = 4 + 3
  const auto hd = horizontal_deviation(double_curve::token_bucket(1.0, 4.0),
                                       double_curve::rate_latency(2.0, 3.0));
  EXPECT_DOUBLE_EQ(hd.value.value(), 5.0);
}

TEST(Bounds, BurstsInfinityAndPreconditions) {
  // a burst of 10 at 0+ served at rate 2: delay 5, backlog 10 (a supremum: t -> 0+)
  EXPECT_EQ(horizontal_deviation(curve::window(q(10)), curve::rate(q(2))).value, E(5));
  EXPECT_EQ(vertical_deviation(curve::window(q(10)), curve::rate(q(2))).value, E(10));
  // through a pure delay: the delay itself, no backlog beyond... +infinity is left out
  EXPECT_EQ(horizontal_deviation(curve::rate(q(1)), curve::delay(q(4))).value, E(4));
  EXPECT_EQ(vertical_deviation(curve::rate(q(1)), curve::delay(q(4))).value, E(4));
  // a faster source: unbounded
  EXPECT_EQ(horizontal_deviation(curve::rate(q(2)), curve::rate(q(1))).value, inf);
  EXPECT_EQ(vertical_deviation(curve::rate(q(2)), curve::rate(q(1))).value, inf);
  // a service that stops: a source that exceeds it waits forever
  EXPECT_EQ(horizontal_deviation(curve::rate(q(1)), curve::window(q(5))).value, inf);
  EXPECT_EQ(horizontal_deviation(curve::window(q(5)), curve::window(q(5))).value, E(0));
  EXPECT_EQ(horizontal_deviation(curve::rate(q(1)) - curve::rate(q(2)), curve::rate(q(1))).error,
            curve_error::precondition);
  EXPECT_EQ(vertical_deviation(curve::rate(q(1)), curve::infinite()).error, curve_error::undefined);
}

TEST(Bounds, DelayWhoseCompositionSlopeNeedsMoreThan64Bits) {
  // sigma = 1, rho = 2441407/10^9 against R = 149850048000/12309415288891, T = 27439/40:
  // h = T + sigma / R ([25] Thm 1.4.2 for a token bucket and a rate-latency curve, rho <= R),
  // = 27439/40 + 12309415288891/149850048000 = 115102801965691/149850048000 (both fractions
  // over 149850048000 = 40 * 3746251200). The composition g^↓ ∘ f multiplies 1/R by rho, a
  // 65-bit numerator.
  const rational sigma{1};
  const rational rho = q(2441407, 1000000000);
  const rational R = q(149850048000, 12309415288891);
  const rational T = q(27439, 40);
  const auto h = horizontal_deviation(curve::token_bucket(rho, sigma), curve::rate_latency(R, T));
  ASSERT_TRUE(h.valid()) << static_cast<int>(h.error);
  EXPECT_EQ(h.value, E(115102801965691, 149850048000));
  EXPECT_EQ(h.value, ext{T + sigma / R});
  // backlog b + rho T fits too
  const auto v = vertical_deviation(curve::token_bucket(rho, sigma), curve::rate_latency(R, T));
  ASSERT_TRUE(v.valid());
  EXPECT_EQ(v.value, ext{sigma + rho * T});
}

TEST(Bounds, AnOverflowingCandidateThatIsNotTheMaximumIsRecomputedWide) {
  // f: y1 = 1/1000003 just after 0, then 1 from t = 1 on; g as above. The delay at level y1,
  // T + y1 / R, needs a 67-bit numerator over 149850048000 * 1000003; the bound is at level 1:
  // g^↓(1) - f^↓(1) = T + 1 / R - 1 = (115102801965691 - 149850048000) / 149850048000.
  const rational R = q(149850048000, 12309415288891);
  const rational T = q(27439, 40);
  const rational y1 = q(1, 1000003);
  ASSERT_FALSE((T + y1 / R).valid());  // the 64-bit candidate overflows
  const curve f = pts({{q(0), E(0), ext{y1}, q(0)}, {q(1), ext{y1}, E(1), q(0)}});
  const auto h = horizontal_deviation(f, curve::rate_latency(R, T));
  ASSERT_TRUE(h.valid()) << static_cast<int>(h.error);
  EXPECT_EQ(h.value, E(115102801965691 - 149850048000, 149850048000));
  // the same in wide_rational directly, and its value at y1 (exact there)
  using netcc::calculus::wide_curve;
  using netcc::calculus::wide_rational;
  const auto hw =
      horizontal_deviation(netcc::calculus::curve_cast<wide_rational>(f),
                           netcc::calculus::curve_cast<wide_rational>(curve::rate_latency(R, T)));
  ASSERT_TRUE(hw.valid());
  EXPECT_EQ(hw.value.value().to_rational(), h.value.value());
  const wide_rational at_y1 = wide_rational{T} + wide_rational{y1} / wide_rational{R};
  EXPECT_TRUE(at_y1.valid());
  EXPECT_LT(at_y1, hw.value.value());
  // a bound that itself does not fit int64 is still reported as an overflow
  const curve f2 = pts({{q(0), E(0), ext{y1}, q(0)}});
  EXPECT_EQ(horizontal_deviation(f2, curve::rate_latency(R, T)).error, curve_error::overflow);
}

// --------------------------------------------------------------------------- inverses

TEST(PseudoInverse, HandComputed) {
  const curve b = curve::rate_latency(q(2), q(3));
  // lower: inf{x | 2 (x - 3)+ >= y} = 3 + y / 2 for y > 0, 0 at y = 0
  EXPECT_EQ(lower_inverse(b), curve::affine(q(0), E(3), q(1, 2)));
  // upper: sup{x | f(x) <= y} = 3 + y / 2 for y >= 0
  EXPECT_EQ(upper_inverse(b), curve::affine(q(3), E(3), q(1, 2)));
  // S_5: lower 0 on [0, 5], +infinity after; upper 0 below 5, +infinity from 5 on
  EXPECT_EQ(lower_inverse(curve::window(q(5))), curve::delay(q(5)));
  EXPECT_EQ(upper_inverse(curve::window(q(5))),
            pts({bp{q(0), E(0), E(0), q(0)}, bp{q(5), inf, inf, q(0)}}));
  // 2 ceil(t / 3) (3 steps): y in (0, 2] -> 0, (2, 4] -> 3, (4, 6] -> 6, above -> +infinity
  const curve st = lower_inverse(curve::staircase(q(2), q(3), 3));
  EXPECT_EQ(st(q(2)), E(0));
  EXPECT_EQ(st(q(3)), E(3));
  EXPECT_EQ(st(q(6)), E(6));
  EXPECT_EQ(st(q(13, 2)), inf);
  // the inverse of a rate is a rate; of delta_T a step to T
  EXPECT_EQ(lower_inverse(curve::rate(q(4))), curve::rate(q(1, 4)));
  EXPECT_EQ(lower_inverse(curve::delay(q(4))), curve::window(q(4)));
  EXPECT_EQ(lower_inverse(curve::rate(q(1)) - curve::rate(q(2))).error(),
            curve_error::precondition);
}

TEST(PseudoInverse, SeedRttEquation1) {
  // Â = S_64 (a 64-unit burst at 0+), S = 8 t: D = min(8 t, 64). With dR = 2, seed Eq. 1:
  // RTT(t) = t - Â^↓(D(t - dR)); at t = 6: D(4) = 32, Â^↓(32) = 0, RTT = 6 (the unit of data
  // number 32 waited 4 in the path and 2 for its ACK).
  const curve ahat = curve::window(q(64));
  const curve d = convolve(ahat, curve::rate(q(8)));
  const curve ack = shift_right(d, q(2));
  const curve inv = lower_inverse(ahat);
  const rational t{6};
  EXPECT_EQ(t - inv(ack(t).value()).value(), q(6));
  // as a curve: RTT(t) = t - Â^↓(D(t - 2)) = t for t > 2 while Â^↓ is 0
  const curve rtt = curve::rate(q(1)) - compose(inv, ack);
  EXPECT_EQ(rtt(q(5)), E(5));
}

// --------------------------------------------------------------------------- composition

TEST(Composition, SeedAckStaircase) {
  // I_max floor(D(t - dR) / I_max) with D = t, I_max = 3, dR = 2: 0 until t = 5, then steps of
  // 3 every 3 time units; right-continuous (the ACK for bytes [0, 3) arrives at t = 5)
  const curve acks = compose(curve::packetizer(q(3), 10), shift_right(curve::rate(q(1)), q(2)));
  EXPECT_EQ(acks(q(5)), E(3));
  EXPECT_EQ(acks.left_limit(q(5)), E(0));
  EXPECT_EQ(acks(q(19, 2)), E(6));  // D(7.5) = 7.5 -> 6
  EXPECT_EQ(compose(curve::rate(q(1)), curve::rate(q(1)) - curve::rate(q(2))).error(),
            curve_error::precondition);
  // f(+infinity) of a decreasing f is -infinity: undefined
  EXPECT_EQ(compose(curve::rate(q(0)) - curve::rate(q(1)), curve::delay(q(1))).error(),
            curve_error::undefined);
}

// --------------------------------------------------------------------------- properties

const calc_test::shape general{.monotone = false, .causal = false};
const calc_test::shape monotone{};

// Convolution equals its definition evaluated by brute force, for arbitrary curves (jumps in
// both directions, values at breakpoints off their limits, +infinity tails).
RC_GTEST_PROP(ConvolutionLaws, GeneralAlgorithmMatchesDefinition, ()) {
  const curve f = *calc_test::gen_curve(general);
  const curve g = *calc_test::gen_curve(general);
  const curve h = convolve_general(f, g);
  RC_ASSERT(h.valid() && h.is_canonical());
  for (const rational& t : calc_test::grid(q(12), q(1, 8))) {
    RC_ASSERT(h(t) == calc_test::brute_conv(f, g, t));
  }
}

// The sweep (convolve_general) against the previous algorithm (every piece materialised, lower
// envelope by a tree of minima) as exact curves, and against the definition on a sampled
// horizon including left and right limits, on curves with many runs.
RC_GTEST_PROP(ConvolutionLaws, SweepEqualsLeafTreeAndSampledDefinition, ()) {
  const curve f = *calc_test::gen_curve(general);
  const curve g = *calc_test::gen_curve(general);
  const curve h = convolve_general(f, g);
  const curve old = netcc::detail::convolve_leaf_tree(f, g);
  RC_ASSERT(h.valid() && old.valid());
  RC_ASSERT(h == old);
  // the same on longer curves built as sums (more breakpoints, more runs)
  const curve f2 = f + *calc_test::gen_curve(monotone);
  const curve g2 = g + *calc_test::gen_curve(monotone);
  RC_PRE(f2.valid() && g2.valid());
  const curve h2 = convolve_general(f2, g2);
  RC_ASSERT(h2 == netcc::detail::convolve_leaf_tree(f2, g2));
  for (const rational& t : calc_test::grid(q(6), q(1, 3))) {
    RC_ASSERT(h2(t) == calc_test::brute_conv(f2, g2, t));
  }
}

RC_GTEST_PROP(ConvolutionLaws, CommutativeAndDispatchAgrees, ()) {
  const bool mono = *rc::gen::arbitrary<bool>();
  const curve f = *calc_test::gen_curve(mono ? monotone : general);
  const curve g = *calc_test::gen_curve(mono ? monotone : general);
  const curve h = convolve(f, g);
  RC_ASSERT(h == convolve(g, f));
  RC_ASSERT(h == convolve_general(f, g));
  RC_ASSERT(h == convolve_general(g, f));
  if (mono) RC_ASSERT(h.is_non_decreasing());
}

RC_GTEST_PROP(ConvolutionLaws, Associative, ()) {
  const bool mono = *rc::gen::arbitrary<bool>();
  calc_test::shape s = mono ? monotone : general;
  s.max_points = 3;
  const curve f = *calc_test::gen_curve(s);
  const curve g = *calc_test::gen_curve(s);
  const curve h = *calc_test::gen_curve(s);
  RC_ASSERT(convolve(convolve(f, g), h) == convolve(f, convolve(g, h)));
}

RC_GTEST_PROP(ConvolutionLaws, IdentitiesAndDelays, ()) {
  const curve f = *calc_test::gen_curve(general);
  RC_ASSERT(convolve(f, curve::delay(q(0))) == f);
  RC_ASSERT(convolve_general(f, curve::delay(q(0))) == f);
  RC_ASSERT(convolve(f, curve::infinite()) == curve::infinite());
  RC_ASSERT(min(f, curve::infinite()) == f);
  const curve m = *calc_test::gen_curve(monotone);
  const rational d = q(*rc::gen::inRange(0, 13), 4);
  RC_ASSERT(convolve(m, curve::delay(d)) == shift_right(m, d));
  RC_ASSERT(convolve_general(curve::delay(d), m) == shift_right(m, d));
}

RC_GTEST_PROP(ConvolutionLaws, MinDistributes, ()) {
  calc_test::shape s = general;
  s.max_points = 3;
  const curve f = *calc_test::gen_curve(s);
  const curve g = *calc_test::gen_curve(s);
  const curve h = *calc_test::gen_curve(s);
  RC_ASSERT(convolve(min(f, g), h) == min(convolve(f, h), convolve(g, h)));
}

// The linear-time special cases return exactly what the general algorithm returns.
RC_GTEST_PROP(ConvolutionLaws, SpecialCasesEqualGeneral, ()) {
  const bool mono = *rc::gen::arbitrary<bool>();
  const curve cx1 = *calc_test::gen_convex(mono);
  const curve cx2 = *calc_test::gen_convex(mono);
  RC_ASSERT(cx1.is_convex() && cx2.is_convex());
  const curve cc = convolve_convex(cx1, cx2);
  RC_ASSERT(cc == convolve_general(cx1, cx2));
  RC_ASSERT(cc.is_convex());
  const curve cv1 = *calc_test::gen_concave();
  const curve cv2 = *calc_test::gen_concave();
  RC_ASSERT(cv1.is_concave() && cv2.is_concave());
  RC_ASSERT(convolve_concave(cv1, cv2) == convolve_general(cv1, cv2));
  // one-breakpoint operand (rate, token bucket, window, affine) against any curve
  const curve any = *calc_test::gen_curve(general);
  const curve one = curve::affine(
      q(*rc::gen::inRange(-4, 5), 2),
      *rc::gen::inRange(0, 4) == 0 ? ext::infinity() : ext{q(*rc::gen::inRange(-4, 9), 2)},
      q(*rc::gen::inRange(-2, 7), 2));
  RC_ASSERT(convolve(any, one) == convolve_general(any, one));
  // rate-latency-like operand against a non-decreasing curve
  const curve m = *calc_test::gen_curve(monotone);
  const curve rl = shift_right(
      curve::affine(
          q(1), *rc::gen::inRange(0, 4) == 0 ? ext::infinity() : ext{q(*rc::gen::inRange(2, 9), 2)},
          q(*rc::gen::inRange(0, 7), 2)),
      q(*rc::gen::inRange(1, 9), 4));
  RC_ASSERT(convolve(m, rl) == convolve_general(m, rl));
}

RC_GTEST_PROP(DeconvolutionLaws, GeneralAlgorithmMatchesDefinition, ()) {
  const curve f = *calc_test::gen_curve(general);
  const curve g = *calc_test::gen_curve(general);
  const curve h = deconvolve_general(f, g);
  RC_ASSERT(h.valid() && h.is_canonical());
  for (const rational& t : calc_test::grid(q(12), q(1, 8))) {
    const auto [want, any] = calc_test::brute_deconv(f, g, t);
    RC_ASSERT(any);
    RC_ASSERT(h(t) == want);
  }
}

RC_GTEST_PROP(DeconvolutionLaws, AdjointAndChainRules, ()) {
  calc_test::shape s = general;
  s.max_points = 3;
  s.allow_inf = false;
  const curve f = *calc_test::gen_curve(s);
  const curve g = *calc_test::gen_curve(s);
  const curve h = *calc_test::gen_curve(s);
  // (f ⊘ g) ⊘ h = f ⊘ (g ⊗ h)
  RC_ASSERT(deconvolve(deconvolve(f, g), h) == deconvolve(f, convolve(g, h)));
  // f <= (f ⊘ g) ⊗ g
  const curve back = convolve(deconvolve(f, g), g);
  for (const rational& t : calc_test::grid(q(12), q(1, 8))) RC_ASSERT(f(t) <= back(t));
  // f ⊘ delta_T = f(t + T) for non-decreasing f
  const curve m = *calc_test::gen_curve(monotone);
  const rational d = q(*rc::gen::inRange(0, 13), 4);
  RC_ASSERT(deconvolve_general(m, curve::delay(d)) == shift_left(m, d));
  RC_ASSERT(deconvolve(m, curve::delay(d)) == shift_left(m, d));
}

RC_GTEST_PROP(PseudoInverseLaws, MatchDefinitionAndGaloisRelations, ()) {
  const bool lc = *rc::gen::arbitrary<bool>();
  calc_test::shape s = monotone;
  s.causal = *rc::gen::arbitrary<bool>();
  s.left_continuous = lc;
  const curve f = *calc_test::gen_curve(s);
  const curve lo = lower_inverse(f);
  const curve up = upper_inverse(f);
  RC_ASSERT(lo.valid() && up.valid() && lo.is_non_decreasing() && up.is_non_decreasing());
  RC_ASSERT(lo.is_left_continuous());
  const auto ys = calc_test::grid(q(30), q(1, 4));
  const auto ts = calc_test::grid(q(12), q(1, 4));
  for (const rational& y : ys) {
    RC_ASSERT(lo(y) == calc_test::brute_inverse(f, y, false));
    RC_ASSERT(up(y) == calc_test::brute_inverse(f, y, true));
    RC_ASSERT(lo(y) <= up(y));
    RC_ASSERT(up(y) == lo.right_limit(y));
    for (const rational& t : ts) {
      // f^↓(y) <= t  iff  y <= f(t+)
      RC_ASSERT((lo(y) <= ext{t}) == (ext{y} <= f.right_limit(t)));
      // left-continuous f, y >= f(0): f(t) <= y  iff  t <= f^↑(y)
      if (lc && f(q(0)) <= ext{y}) RC_ASSERT((f(t) <= ext{y}) == (ext{t} <= up(y)));
    }
  }
}

RC_GTEST_PROP(CompositionLaws, MatchesEvaluation, ()) {
  const curve f = *calc_test::gen_curve(general);
  calc_test::shape s = monotone;
  s.causal = false;
  const curve g = *calc_test::gen_curve(s);
  const curve h = compose(f, g);
  const auto& last = f.breakpoints().back();
  if (!g.is_finite() && last.right.is_finite() && last.slope < rational{0}) {
    RC_ASSERT(h.error() == curve_error::undefined);
    return;
  }
  RC_ASSERT(h.valid() && h.is_canonical());
  for (const rational& t : calc_test::grid(q(12), q(1, 8))) {
    const ext y = g(t);
    RC_ASSERT(h(t) == (y.is_inf() ? calc_test::tail_limit(f) : f(y.value())));
  }
}

// Backlog bound = the supremum of f - g over all times: on a grid containing every
// breakpoint, with limits, plus the tail.
RC_GTEST_PROP(BoundLaws, BacklogMatchesGrid, ()) {
  const curve f = *calc_test::gen_curve(general);
  const curve g = *calc_test::gen_curve(general);
  const auto v = vertical_deviation(f, g);
  RC_ASSERT(v.valid());
  const rational hmax = (calc_test::horizon(f) < calc_test::horizon(g) ? calc_test::horizon(g)
                                                                       : calc_test::horizon(f)) +
                        q(1);
  bool any = false;
  ext best{};
  const auto take = [&](const ext& a, const ext& b) {
    if (b.is_inf()) return;
    const ext d = a.is_inf() ? a : ext{a.value() - b.value()};
    best = any ? calc_test::emax(best, d) : d;
    any = true;
  };
  for (const rational& t : calc_test::grid(hmax, q(1, 4))) {
    take(f(t), g(t));
    take(f.left_limit(t), g.left_limit(t));
    take(f.right_limit(t), g.right_limit(t));
  }
  const auto& fl = f.breakpoints().back();
  const auto& gl = g.breakpoints().back();
  if (gl.right.is_finite() && (fl.right.is_inf() || gl.slope < fl.slope)) best = inf;
  RC_ASSERT(any);
  RC_ASSERT(v.value == best);
}

// The delay bound in the value domain (sup of g^↓ - f^↓) equals the time-domain formula
// sup_t (g^↓(f(t)) - t)+ through the composition, and the same bound computed with 128-bit
// parts, on every pair where the composition is defined (any monotone curves, +infinity too).
RC_GTEST_PROP(BoundLaws, DelayEqualsTheCompositionFormulaAndTheWideComputation, ()) {
  const curve f = *calc_test::gen_curve(monotone);
  const curve g = *calc_test::gen_curve(monotone);
  const auto h = horizontal_deviation(f, g);
  RC_ASSERT(h.valid());
  const curve c = compose(lower_inverse(g), f);
  RC_PRE(c.valid());
  const curve d = c - curve::rate(q(1));
  RC_PRE(d.valid());
  ext sup = d.breakpoints()[0].value;
  for (std::size_t i = 0; i < d.size(); ++i) {
    const auto& p = d.breakpoints()[i];
    if (i > 0) sup = calc_test::emax(sup, d.left_limit(p.t));
    sup = calc_test::emax(sup, calc_test::emax(p.value, p.right));
  }
  const auto& last = d.breakpoints().back();
  if (last.right.is_inf() || q(0) < last.slope) sup = inf;
  if (sup < E(0)) sup = E(0);
  RC_ASSERT(h.value == sup);
  using netcc::calculus::wide_rational;
  const auto hw = horizontal_deviation(netcc::calculus::curve_cast<wide_rational>(f),
                                       netcc::calculus::curve_cast<wide_rational>(g));
  RC_ASSERT(hw.valid());
  RC_ASSERT(hw.value.is_inf() == h.value.is_inf());
  if (h.value.is_finite()) RC_ASSERT(hw.value.value().to_rational() == h.value.value());
}

// Delay bound against brute force on a grid of step 1/8: the grid maximum is a lower bound and
// the bound exceeds it by at most one step (the delay decreases at most at unit speed).
RC_GTEST_PROP(BoundLaws, DelayMatchesGrid, ()) {
  calc_test::shape sf = monotone;
  sf.allow_inf = false;
  calc_test::shape sg = sf;
  sg.finite_tail_rate = true;
  const curve f = *calc_test::gen_curve(sf);
  const curve g = *calc_test::gen_curve(sg);
  const auto h = horizontal_deviation(f, g);
  RC_ASSERT(h.valid());
  if (g.breakpoints().back().slope < f.breakpoints().back().slope) {
    RC_ASSERT(h.value == inf);
    return;
  }
  RC_ASSERT(h.value.is_finite());
  const rational step = q(1, 8);
  ext lo{};
  for (const rational& t : calc_test::grid(q(80), step)) {
    lo = calc_test::emax(lo, calc_test::brute_delay_at(f, g, t));
  }
  RC_ASSERT(lo <= h.value);
  RC_ASSERT(h.value <= lo + ext{step});
}

// The double policy tracks the exact one for convolution, deconvolution and the inverse.
RC_GTEST_PROP(MinPlusLaws, DoubleAgreesWithExact, ()) {
  const curve f = *calc_test::gen_curve(monotone);
  const curve g = *calc_test::gen_curve(monotone);
  const auto df = netcc::calculus::curve_cast<double>(f);
  const auto dg = netcc::calculus::curve_cast<double>(g);
  const curve ex[] = {convolve_general(f, g), deconvolve_general(f, g), lower_inverse(f)};
  const double_curve fp[] = {convolve_general(df, dg), deconvolve_general(df, dg),
                             lower_inverse(df)};
  const rational delta = q(1, 1024);
  for (std::size_t k = 0; k < 3; ++k) {
    RC_ASSERT(ex[k].valid() && fp[k].valid());
    RC_ASSERT(ex[k].is_non_decreasing());
    for (const rational& t : calc_test::grid(q(12), q(1, 8))) {
      const double y = fp[k](t.to_double()).to_double();
      const double lo = ex[k](t - delta).to_double();
      const double hi = ex[k](t + delta).to_double();
      if (std::isinf(y)) {
        RC_ASSERT(std::isinf(hi));
      } else {
        RC_ASSERT(!std::isinf(lo));
        RC_ASSERT(lo - 1e-9 * (1.0 + std::abs(lo)) <= y);
        RC_ASSERT(std::isinf(hi) || y <= hi + 1e-9 * (1.0 + std::abs(hi)));
      }
    }
  }
}

}  // namespace

}  // namespace netcc_tests::calculus_minplus
