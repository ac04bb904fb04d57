// SPDX-License-Identifier: MIT
// Curves (netcc/calculus/curve.hpp; network-calculus seed §II): the standard shapes with their
// values, left and right limits computed by hand, the canonical form (merging, equality that
// does not depend on the representation), parameter checks, loud overflow, the pointwise
// operations (+, -, min, max, shifts, the seed's change of coordinates of §III-C), and
// properties against brute-force evaluation; exact against double.
#include <netcc/calculus/curve.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "calculus/curve_gen.hpp"

namespace netcc_tests::calculus_curve {

namespace {

using calc_test::bp;
using calc_test::ext;
using calc_test::q;
using netcc::calculus::curve;
using netcc::calculus::curve_error;
using netcc::calculus::double_curve;
using netcc::calculus::interpolation;
using netcc::calculus::rational;
using netcc::calculus::sample;

const ext inf = ext::infinity();

ext E(std::int64_t n, std::int64_t d = 1) {
  return ext{q(n, d)};
}
curve pts(std::vector<bp> v) {
  return curve::from_breakpoints(v);
}

// --------------------------------------------------------------------------- shapes

TEST(CurveShapes, RateAndRateLatency) {
  const curve r = curve::rate(q(5, 2));  // S(t) = max{5/2 t, 0}
  EXPECT_EQ(r.size(), 1u);
  EXPECT_EQ(r(q(0)), E(0));
  EXPECT_EQ(r(q(4)), E(10));                         // 5/2 * 4
  EXPECT_EQ(r(q(-3)), E(0));                         // constant f(0) below 0
  const curve b = curve::rate_latency(q(10), q(2));  // 10 (t - 2)+
  EXPECT_EQ(b.size(), 2u);
  EXPECT_EQ(b(q(1)), E(0));
  EXPECT_EQ(b(q(2)), E(0));
  EXPECT_EQ(b(q(5, 2)), E(5));  // 10 * 1/2
  EXPECT_TRUE(b.is_convex() && b.is_non_decreasing() && b.is_left_continuous());
  EXPECT_FALSE(b.is_concave());
  EXPECT_EQ(curve::rate_latency(q(3), q(0)), curve::rate(q(3)));  // no latency: a rate
}

TEST(CurveShapes, TokenBucketHasItsBurstAsRightLimitAtZero) {
  const curve g = curve::token_bucket(q(3), q(5));  // 0 at 0, 5 + 3 t for t > 0
  EXPECT_EQ(g(q(0)), E(0));
  EXPECT_EQ(g.right_limit(q(0)), E(5));
  EXPECT_EQ(g(q(2)), E(11));  // 5 + 6
  EXPECT_EQ(g.left_limit(q(2)), E(11));
  EXPECT_TRUE(g.is_concave() && g.is_left_continuous() && g.is_non_decreasing());
  EXPECT_FALSE(g.is_convex());
}

TEST(CurveShapes, DelayIsZeroThenInfinite) {
  const curve d = curve::delay(q(4));  // delta_4
  EXPECT_EQ(d(q(4)), E(0));
  EXPECT_EQ(d.right_limit(q(4)), inf);
  EXPECT_EQ(d(q(9, 2)), inf);
  EXPECT_TRUE(d.is_convex() && d.is_left_continuous() && d.is_non_decreasing());
  EXPECT_FALSE(d.is_finite());
  const curve d0 = curve::delay(q(0));
  EXPECT_EQ(d0(q(0)), E(0));
  EXPECT_EQ(d0(q(1, 1000)), inf);
}

TEST(CurveShapes, WindowStepOfSeedEq5) {
  const curve w = curve::window(q(64));  // S_W: 0 for t <= 0, W for t > 0
  EXPECT_EQ(w(q(0)), E(0));
  EXPECT_EQ(w(q(1, 1000000)), E(64));
  EXPECT_EQ(w(q(1000)), E(64));
  EXPECT_TRUE(w.is_concave());
}

TEST(CurveShapes, StaircaseAndPacketizer) {
  // 2 ceil(t / 3) on [0, 9], 6 after: jumps just after 0, 3 and 6
  const curve s = curve::staircase(q(2), q(3), 3);
  EXPECT_EQ(s.size(), 3u);
  EXPECT_EQ(s(q(0)), E(0));
  EXPECT_EQ(s(q(1)), E(2));
  EXPECT_EQ(s(q(3)), E(2));
  EXPECT_EQ(s.right_limit(q(3)), E(4));
  EXPECT_EQ(s(q(9)), E(6));
  EXPECT_EQ(s(q(100)), E(6));
  EXPECT_TRUE(s.is_left_continuous());
  // 5 floor(x / 5), exact on [0, 20)
  const curve p = curve::packetizer(q(5), 3);
  EXPECT_EQ(p(q(4)), E(0));
  EXPECT_EQ(p(q(5)), E(5));  // right-continuous: the step belongs to x = 5
  EXPECT_EQ(p.left_limit(q(5)), E(0));
  EXPECT_EQ(p(q(19)), E(15));
  EXPECT_FALSE(p.is_left_continuous());
  EXPECT_TRUE(p.is_non_decreasing());
  EXPECT_EQ(curve::staircase(q(2), q(3), 0), curve::zero());
}

TEST(CurveShapes, FromSamples) {
  const std::vector<sample<rational>> s{{q(1), q(4)}, {q(3), q(8)}, {q(4), q(8)}};
  // linear: 4 on [0, 1], slope 2 to (3, 8), flat to (4, 8), then slope 1
  const curve lin =
      curve::from_samples(std::span<const sample<rational>>(s), interpolation::linear, q(1));
  EXPECT_EQ(lin(q(0)), E(4));
  EXPECT_EQ(lin(q(2)), E(6));
  EXPECT_EQ(lin(q(7, 2)), E(8));
  EXPECT_EQ(lin(q(6)), E(10));
  // step: 0 on [0, 1], 4 on (1, 3], 8 on (3, 4], then 8 + (t - 4)
  const curve st =
      curve::from_samples(std::span<const sample<rational>>(s), interpolation::step, q(1));
  EXPECT_EQ(st(q(1)), E(0));
  EXPECT_EQ(st.right_limit(q(1)), E(4));
  EXPECT_EQ(st(q(3)), E(4));
  EXPECT_EQ(st(q(7, 2)), E(8));
  EXPECT_EQ(st(q(6)), E(10));
  EXPECT_TRUE(st.is_left_continuous() && st.is_non_decreasing());
  // a burst at time 0 is a right limit at 0 (traffic in [0, t), seed §II)
  const std::vector<sample<rational>> b{{q(0), q(1500)}};
  const curve burst =
      curve::from_samples(std::span<const sample<rational>>(b), interpolation::step);
  EXPECT_EQ(burst, curve::window(q(1500)));
}

TEST(CurveShapes, BadArgumentsAreFlagged) {
  EXPECT_EQ(curve::rate(q(-1)).error(), curve_error::bad_argument);
  EXPECT_EQ(curve::rate_latency(q(1), q(-1)).error(), curve_error::bad_argument);
  EXPECT_EQ(curve::token_bucket(q(1), q(-1)).error(), curve_error::bad_argument);
  EXPECT_EQ(curve::delay(q(-1)).error(), curve_error::bad_argument);
  EXPECT_EQ(curve::window(q(-1)).error(), curve_error::bad_argument);
  EXPECT_EQ(curve::staircase(q(1), q(0), 3).error(), curve_error::bad_argument);
  EXPECT_EQ(curve::packetizer(q(0), 3).error(), curve_error::bad_argument);
  EXPECT_EQ(curve::rate(rational::invalid()).error(), curve_error::bad_argument);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(double_curve::rate(nan).error(), curve_error::bad_argument);
  EXPECT_EQ(double_curve::constant(std::numeric_limits<double>::infinity()).error(),
            curve_error::bad_argument);
  const std::vector<sample<rational>> unsorted{{q(2), q(1)}, {q(1), q(2)}};
  EXPECT_EQ(curve::from_samples(std::span<const sample<rational>>(unsorted), interpolation::linear)
                .error(),
            curve_error::bad_argument);
  EXPECT_EQ(curve::from_samples(std::span<const sample<rational>>{}, interpolation::linear).error(),
            curve_error::bad_argument);
  // from_breakpoints: first time 0, strictly increasing
  const std::vector<bp> late{bp{q(1), E(0), E(0), q(0)}};
  EXPECT_EQ(curve::from_breakpoints(late).error(), curve_error::bad_argument);
  const std::vector<bp> dup{bp{q(0), E(0), E(0), q(1)}, bp{q(0), E(0), E(0), q(1)}};
  EXPECT_EQ(curve::from_breakpoints(dup).error(), curve_error::bad_argument);
  EXPECT_EQ(curve::from_breakpoints(std::vector<bp>{}).error(), curve_error::bad_argument);
  // evaluation at a bad point is an invalid value, not a number
  EXPECT_FALSE(double_curve::rate(1.0)(nan).valid());
  EXPECT_FALSE(curve::invalid(curve_error::overflow)(q(1)).valid());
}

// --------------------------------------------------------------------------- canonical form

TEST(CurveCanonical, CollinearBreakpointsMerge) {
  // 0 -> slope 1 -> (2, 2) slope 1 -> (3, 3) slope 1: one ray
  const std::vector<bp> v{bp{q(0), E(0), E(0), q(1)}, bp{q(2), E(2), E(2), q(1)},
                          bp{q(3), E(3), E(3), q(1)}};
  const curve c = curve::from_breakpoints(v);
  EXPECT_EQ(c, curve::rate(q(1)));
  EXPECT_EQ(c.size(), 1u);
  // +infinity on both sides of a breakpoint: dropped; the slope after +infinity is ignored
  const std::vector<bp> w{bp{q(0), E(0), E(0), q(0)}, bp{q(1), E(0), inf, q(7)},
                          bp{q(2), inf, inf, q(3)}};
  EXPECT_EQ(curve::from_breakpoints(w), curve::delay(q(1)));
  // a jump or a kink is kept
  const std::vector<bp> k{bp{q(0), E(0), E(0), q(1)}, bp{q(2), E(2), E(2), q(2)}};
  EXPECT_EQ(curve::from_breakpoints(k).size(), 2u);
  EXPECT_TRUE(curve::from_breakpoints(k).is_canonical());
}

TEST(CurveCanonical, OverflowIsLoud) {
  const rational big{std::numeric_limits<std::int64_t>::max() / 2 + 1};
  EXPECT_EQ((curve::rate(big) + curve::rate(big)).error(), curve_error::overflow);
  const curve far = shift_right(curve::rate(q(1)), big);  // breakpoint at 2^62: fits
  EXPECT_TRUE(far.valid());
  EXPECT_EQ(shift_right(far, big).error(), curve_error::overflow);  // 2^63 does not
  EXPECT_EQ(shift_up(curve::constant(big), big).error(), curve_error::overflow);
  // a left limit that does not fit: slope 2^40 over 2^30
  const std::vector<bp> v{bp{q(0), E(0), E(0), q(std::int64_t{1} << 40)},
                          bp{q(std::int64_t{1} << 30), E(0), E(0), q(0)}};
  EXPECT_EQ(curve::from_breakpoints(v).error(), curve_error::overflow);
  // invalid operands propagate their error
  const curve bad = curve::invalid(curve_error::overflow);
  EXPECT_EQ(min(bad, curve::rate(q(1))).error(), curve_error::overflow);
  EXPECT_EQ(max(curve::rate(q(1)), bad).error(), curve_error::overflow);
  EXPECT_EQ(shift_left(bad, q(1)).error(), curve_error::overflow);
  EXPECT_EQ(curve::invalid(curve_error::none).error(), curve_error::undefined);
}

TEST(CurveCanonical, ShapeFlags) {
  const auto flags = [](const curve& c) {
    const auto s = c.shape();
    return std::vector<bool>{s.non_decreasing, s.left_continuous, s.finite, s.concave, s.convex};
  };
  using V = std::vector<bool>;
  // order: non-decreasing, left-continuous, finite, concave, convex
  EXPECT_EQ(flags(curve::rate_latency(q(2), q(1))), (V{true, true, true, false, true}));
  EXPECT_EQ(flags(curve::token_bucket(q(2), q(1))), (V{true, true, true, true, false}));
  EXPECT_EQ(flags(curve::rate(q(2))), (V{true, true, true, true, true}));
  EXPECT_EQ(flags(curve::delay(q(2))), (V{true, true, false, false, true}));
  // slopes 1 then 2 with a drop of the right limit at t = 1 (value 1, right 0)
  EXPECT_EQ(flags(pts({bp{q(0), E(0), E(0), q(1)}, bp{q(1), E(1), E(0), q(2)}})),
            (V{false, true, true, false, false}));
  // slopes 2 then 1 with a burst after t = 1 (value 2, right 3)
  EXPECT_EQ(flags(pts({bp{q(0), E(0), E(0), q(2)}, bp{q(1), E(2), E(3), q(1)}})),
            (V{true, true, true, false, false}));
  // +infinity on (1, 2), finite again from 2 on (f(2-) = +infinity > f(2) = 5)
  EXPECT_EQ(flags(pts({bp{q(0), E(0), E(0), q(0)}, bp{q(1), E(0), inf, q(0)},
                       bp{q(2), E(5), E(5), q(1)}})),
            (V{false, false, false, false, false}));
  // a point value above both limits at t = 1
  EXPECT_EQ(flags(pts({bp{q(0), E(0), E(0), q(1)}, bp{q(1), E(3), E(1), q(1)}})),
            (V{false, false, true, false, false}));
  // a value at 0 above the right limit: not concave on [0, infinity), not non-decreasing, and
  // not convex in netcc's sense (continuous on its finite domain)
  EXPECT_EQ(flags(curve::affine(q(2), E(1), q(0))), (V{false, true, true, false, false}));
  // double: continuity and convexity up to rounding (0.03 + 1.5 * 0.6 rounds above 0.93)
  const std::vector<sample<double>> s{{0.0, 0.0}, {0.1, 0.03}, {0.7, 0.93}};
  const auto d =
      double_curve::from_samples(std::span<const sample<double>>(s), interpolation::linear, 2.0);
  EXPECT_TRUE(d.is_left_continuous() && d.is_convex() && d.is_non_decreasing());
}

// --------------------------------------------------------------------------- pointwise ops

TEST(CurvePointwise, MinCrossesWhereTheLinesMeet) {
  // min(4 + t, 2 t): 2 t up to t = 4 (8 = 8), then 4 + t; value 0 at 0
  const curve m = min(curve::token_bucket(q(1), q(4)), curve::rate(q(2)));
  const std::vector<bp> expect{bp{q(0), E(0), E(0), q(2)}, bp{q(4), E(8), E(8), q(1)}};
  EXPECT_EQ(m, curve::from_breakpoints(expect));
  // max(S_3, t): 3 on (0, 3], then t
  const curve x = max(curve::window(q(3)), curve::rate(q(1)));
  const std::vector<bp> ex{bp{q(0), E(0), E(3), q(0)}, bp{q(3), E(3), E(3), q(1)}};
  EXPECT_EQ(x, curve::from_breakpoints(ex));
  // +infinity: min keeps the finite curve, max keeps +infinity
  EXPECT_EQ(min(curve::delay(q(2)), curve::rate(q(1))),
            curve::from_breakpoints(
                std::vector<bp>{bp{q(0), E(0), E(0), q(0)}, bp{q(2), E(0), E(2), q(1)}}));
  EXPECT_EQ(max(curve::delay(q(2)), curve::rate(q(1))),
            curve::from_breakpoints(
                std::vector<bp>{bp{q(0), E(0), E(0), q(1)}, bp{q(2), E(2), inf, q(0)}}));
}

TEST(CurvePointwise, SumAndBacklogDifference) {
  // (b + r t) + R t = b + (r + R) t
  EXPECT_EQ(curve::token_bucket(q(1), q(4)) + curve::rate(q(2)), curve::token_bucket(q(3), q(4)));
  // seed §III-B d: B(t) = Â(t) - D(t) with Â = token bucket (4, 1), D = 10 (t - 1)+:
  // B = 4 + t on (0, 1], then 4 + t - 10 (t - 1) = 14 - 9 t
  const curve b = curve::token_bucket(q(1), q(4)) - curve::rate_latency(q(10), q(1));
  EXPECT_EQ(b(q(1)), E(5));
  EXPECT_EQ(b(q(3, 2)), E(1, 2));  // 14 - 27/2
  EXPECT_FALSE(b.is_non_decreasing());
  EXPECT_EQ((curve::rate(q(1)) - curve::delay(q(1))).error(), curve_error::undefined);
  EXPECT_EQ(curve::delay(q(1)) - curve::rate(q(1)),
            curve::from_breakpoints(
                std::vector<bp>{bp{q(0), E(0), E(0), q(-1)}, bp{q(1), E(-1), inf, q(0)}}));
}

TEST(CurvePointwise, Shifts) {
  const curve g = curve::token_bucket(q(3), q(5));
  // delayed by 2: 0 on [0, 2], 5 + 3 (t - 2) after
  const curve d = shift_right(g, q(2));
  EXPECT_EQ(d(q(2)), E(0));
  EXPECT_EQ(d.right_limit(q(2)), E(5));
  EXPECT_EQ(d(q(3)), E(8));
  EXPECT_EQ(shift_left(d, q(2)), g);
  // advanced by 1: value 8 at 0
  EXPECT_EQ(shift_left(g, q(1)), curve::affine(q(8), E(8), q(3)));
  EXPECT_EQ(shift_up(g, q(-5)), curve::affine(q(-5), E(0), q(3)));
  EXPECT_EQ(shift_right(g, q(-1)).error(), curve_error::bad_argument);
  EXPECT_EQ(shift_right(g, q(0)), g);
}

TEST(CurvePointwise, SeedChangeOfCoordinates) {
  // seed §III-C: a timeout at t_TO = 5 with D(t_TO - dR) = 4 and A = 2 t:
  // A^rem(t) = A(t + 5) - 4 = 6 + 2 t for t > 0, A^rem(0) = 0 (an initial burst of 6)
  const curve a = curve::rate(q(2));
  const curve rem = rebase(a, q(5), q(4));
  EXPECT_EQ(rem, curve::token_bucket(q(2), q(6)));
  // and back: Â(t) = Â^rem(t - 5) + 4 for t >= 5, the old Â before (here 2 t): the function
  // drops to 4 at t = 5 (Go-Back-N retransmission), so it is no longer non-decreasing.
  const curve back = splice(a, q(5), shift_up(rem, q(4)));
  EXPECT_EQ(back.left_limit(q(5)), E(10));
  EXPECT_EQ(back(q(5)), E(4));
  EXPECT_EQ(back.right_limit(q(5)), E(10));
  EXPECT_EQ(back(q(6)), E(12));
  EXPECT_FALSE(back.is_non_decreasing());
  EXPECT_EQ(splice(a, q(0), rem), rem);
}

TEST(CurvePointwise, DoubleCurves) {
  const double_curve m = min(double_curve::token_bucket(1.0, 4.0), double_curve::rate(2.0));
  EXPECT_DOUBLE_EQ(m(3.0).value(), 6.0);
  EXPECT_DOUBLE_EQ(m(5.0).value(), 9.0);
  EXPECT_EQ(netcc::calculus::curve_cast<double>(curve::token_bucket(q(1), q(4))),
            double_curve::token_bucket(1.0, 4.0));
  // a double overflow is flagged, not +infinity
  const double big = std::numeric_limits<double>::max();
  EXPECT_EQ((double_curve::rate(big) + double_curve::rate(big)).error(), curve_error::overflow);
}

// --------------------------------------------------------------------------- properties

// Canonical form is idempotent and does not depend on the representation: inserting
// redundant breakpoints in every segment gives back the same curve.
RC_GTEST_PROP(CurveLaws, CanonicalFormIsRepresentationIndependent, ()) {
  const curve f = *calc_test::gen_curve({.monotone = false, .causal = false});
  RC_ASSERT(f.is_canonical());
  RC_ASSERT(curve::from_breakpoints(f.breakpoints()) == f);
  const auto split = calc_test::split_segments(f);
  RC_ASSERT(split.size() > f.size());
  RC_ASSERT(curve::from_breakpoints(split) == f);
}

// Pointwise operations agree with evaluation at every grid point, value and both limits.
RC_GTEST_PROP(CurveLaws, PointwiseOperationsMatchEvaluation, ()) {
  const calc_test::shape s{.monotone = false, .causal = false};
  const curve f = *calc_test::gen_curve(s);
  const curve g = *calc_test::gen_curve(s);
  const curve lo = min(f, g);
  const curve hi = max(f, g);
  const curve sum = f + g;
  RC_ASSERT(lo.is_canonical() && hi.is_canonical() && sum.is_canonical());
  for (const rational& t : calc_test::grid(q(12), q(1, 8))) {
    RC_ASSERT(lo(t) == calc_test::emin(f(t), g(t)));
    RC_ASSERT(lo.right_limit(t) == calc_test::emin(f.right_limit(t), g.right_limit(t)));
    RC_ASSERT(lo.left_limit(t) == calc_test::emin(f.left_limit(t), g.left_limit(t)));
    RC_ASSERT(hi(t) == calc_test::emax(f(t), g(t)));
    RC_ASSERT(hi.right_limit(t) == calc_test::emax(f.right_limit(t), g.right_limit(t)));
    RC_ASSERT(sum(t) == f(t) + g(t));
    RC_ASSERT(sum.left_limit(t) == f.left_limit(t) + g.left_limit(t));
  }
  if (g.is_finite()) {
    const curve diff = f - g;
    RC_ASSERT(diff.valid());
    for (const rational& t : calc_test::grid(q(12), q(1, 4))) {
      const ext want = f(t).is_inf() ? f(t) : ext{f(t).value() - g(t).value()};
      RC_ASSERT(diff(t) == want);
    }
  }
}

// min and max preserve non-decreasing, sums too; shifts are exact translations.
RC_GTEST_PROP(CurveLaws, MonotonicityAndShifts, ()) {
  const curve f = *calc_test::gen_curve({});
  const curve g = *calc_test::gen_curve({});
  RC_ASSERT(min(f, g).is_non_decreasing());
  RC_ASSERT(max(f, g).is_non_decreasing());
  RC_ASSERT((f + g).is_non_decreasing());
  const rational d = q(*rc::gen::inRange(0, 13), 4);
  const curve r = shift_right(f, d);
  const curve l = shift_left(f, d);
  for (const rational& t : calc_test::grid(q(10), q(1, 8))) {
    RC_ASSERT(r(t) == f(t - d));  // f(0) below 0
    RC_ASSERT(r.right_limit(t + d) == f.right_limit(t));
    RC_ASSERT(l(t) == f(t + d));
    RC_ASSERT(l.left_limit(t + q(1, 8)) == f.left_limit(t + q(1, 8) + d));
  }
  RC_ASSERT(shift_left(r, d) == f);
}

// The double policy agrees with the exact one on the same shapes, within rounding.
RC_GTEST_PROP(CurveLaws, DoubleAgreesWithExact, ()) {
  const calc_test::shape s{.monotone = false, .causal = false};
  const curve f = *calc_test::gen_curve(s);
  const curve g = *calc_test::gen_curve(s);
  const auto df = netcc::calculus::curve_cast<double>(f);
  const auto dg = netcc::calculus::curve_cast<double>(g);
  const curve ops[] = {min(f, g), max(f, g), f + g};
  const double_curve dops[] = {min(df, dg), max(df, dg), df + dg};
  for (std::size_t k = 0; k < 3; ++k) {
    RC_ASSERT(dops[k].valid());
    for (const rational& t : calc_test::grid(q(12), q(1, 8))) {
      const double x = ops[k](t).to_double();
      const double y = dops[k](t.to_double()).to_double();
      if (std::isinf(x) || std::isinf(y)) {
        RC_ASSERT(x == y);
      } else {
        RC_ASSERT(std::abs(x - y) <= 1e-9 * (1.0 + std::abs(x)));
      }
    }
  }
}

}  // namespace

}  // namespace netcc_tests::calculus_curve
