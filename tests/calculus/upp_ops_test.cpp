// SPDX-License-Identifier: MIT
// Deconvolution, pseudo-inverses, composition and deviations with their times on ultimately
// pseudo-periodic curves (netcc/calculus/upp_ops.hpp), and the deviation times on basic curves
// (netcc/calculus/minplus.hpp): worked examples (each with its source) and laws on random UPP
// curves, checked exactly and against brute-force evaluation of the definitions on sampled
// horizons.
#include <netcc/calculus/path_server.hpp>
#include <netcc/calculus/upp_ops.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <vector>

#include "calculus/curve_gen.hpp"
#include "calculus/upp_show.hpp"

namespace netcc_tests::calculus_upp_ops {

namespace {

using calc_test::ext;
using calc_test::q;
using netcc::calculus::curve;
using netcc::calculus::curve_error;
using netcc::calculus::deviation_reach;
using netcc::calculus::double_upp;
using netcc::calculus::rational;
using netcc::calculus::upp;

ext E(std::int64_t n, std::int64_t d = 1) {
  return ext{q(n, d)};
}

// ------------------------------------------------------------------ worked examples

TEST(UppOps, TokenBucketThroughRateLatencyLeBoudecThiran) {
  // Le Boudec & Thiran 2001, §1.4 (Theorems 1.4.1-1.4.3 applied to the token bucket
  // gamma_{r,b} and the rate-latency beta_{R,T} with r <= R, as printed there): backlog bound
  // b + r T, delay bound T + b / R, output arrival curve b + r T + r t (t > 0). The numbers
  // (r = 1, b = 4, R = 2, T = 3) are substituted by hand: 7, 5 and 7 + t.
  const upp a = upp::from_curve(curve::token_bucket(q(1), q(4)));
  const upp s = upp::from_curve(curve::rate_latency(q(2), q(3)));
  const auto v = vertical_deviation_point(a, s);
  ASSERT_TRUE(v.valid());
  EXPECT_EQ(v.value, E(7));
  EXPECT_EQ(v.time, q(3));  // reached at the end of the latency
  EXPECT_EQ(v.reach, deviation_reach::at);
  const auto h = horizontal_deviation_point(a, s);
  ASSERT_TRUE(h.valid());
  EXPECT_EQ(h.value, E(5));
  EXPECT_EQ(h.time, q(0));  // the burst arrives just after 0: approached, never reached
  EXPECT_EQ(h.reach, deviation_reach::after);
  EXPECT_FALSE(h.attained);
  const upp out = deconvolve(a, s);
  ASSERT_TRUE(out.valid());
  EXPECT_EQ(out(q(0)), E(7));
  EXPECT_EQ(out(q(5)), E(12));
  EXPECT_EQ(out.to_curve(), netcc::calculus::deconvolve(curve::token_bucket(q(1), q(4)),
                                                        curve::rate_latency(q(2), q(3))));
  // the same on curves
  const auto hc =
      horizontal_deviation_point(curve::token_bucket(q(1), q(4)), curve::rate_latency(q(2), q(3)));
  EXPECT_EQ(hc.value, E(5));
  EXPECT_EQ(hc.reach, deviation_reach::after);
  EXPECT_FALSE(hc.attained);
}

TEST(UppOps, PacketizerLeBoudecThiran17) {
  // Le Boudec & Thiran 2001, §1.7: the packetizer P^L delays no bit past the next packet
  // boundary, x - l_max < P^L(x) <= x for constant packet length l_max = L. Derived by hand
  // for L = 3: sup_x x - P(x) = 3 is approached as x increases to 3 (and to every 3k) and
  // never reached; P^L ∘ P^L = P^L.
  const upp p = upp::packetizer(q(3));
  const upp id = upp::from_curve(curve::rate(q(1)));
  const auto v = vertical_deviation_point(id, p);
  ASSERT_TRUE(v.valid());
  EXPECT_EQ(v.value, E(3));
  EXPECT_EQ(v.time, q(3));
  EXPECT_EQ(v.reach, deviation_reach::before);
  EXPECT_FALSE(v.attained);
  EXPECT_TRUE(is_below(p, id));
  EXPECT_EQ(compose(p, p), p);
  // the packetiser of a rate-1 flow is the packetiser itself; of a rate-2 flow it steps
  // twice as often: 3 floor(2 t / 3), a staircase with period 3/2
  EXPECT_EQ(compose(p, id), p);
  const upp p2 = compose(p, upp::from_curve(curve::rate(q(2))));
  ASSERT_TRUE(p2.valid());
  EXPECT_EQ(p2.period(), q(3, 2));
  EXPECT_EQ(p2.rise(), q(3));
  EXPECT_EQ(p2(q(3, 2)), E(3));
  EXPECT_EQ(p2.left_limit(q(3, 2)), E(0));
}

TEST(UppOps, StaircaseDeconvolutionByHand) {
  // f = 3 ceil(t / 2) (a packetised source), g = 2 t, derived by hand from the definition
  // (f ⊘ g)(t) = sup_u 3 ceil((t + u) / 2) - 2 u: the term decreases in u while the step
  // stays, so the candidates are u = 0 (f(t)) and u just after 2k - t for the steps 2k >= t:
  // 3 (k + 1) - 2 (2k - t), largest for the first such k = ceil(t / 2). Hence
  // (f ⊘ g)(t) = max(f(t), 3 - ceil(t / 2) + 2 t), approached from the right.
  const upp f = upp::staircase(q(3), q(2));
  const upp g = upp::from_curve(curve::rate(q(2)));
  const upp h = deconvolve(f, g);
  ASSERT_TRUE(h.valid());
  for (const rational& t : calc_test::grid(q(12), q(1, 4))) {
    const rational k = -rational{netcc::calculus::floor(-t / q(2))};  // ceil(t / 2)
    EXPECT_EQ(h(t), calc_test::emax(f(t), ext{q(3) - k + q(2) * t})) << t;
  }
  EXPECT_EQ(h.period(), q(2));
  EXPECT_EQ(h.rise(), q(3));
  // a faster divisor is needed: f ⊘ (t) is +infinity (f grows at 3/2 > 1)
  const upp inf = deconvolve(f, upp::from_curve(curve::rate(q(1))));
  EXPECT_EQ(inf(q(0)), ext::infinity());
  // a divisor that is +infinity everywhere: the supremum of nothing is -infinity
  EXPECT_EQ(deconvolve(f, upp::from_curve(curve::infinite())).error(), curve_error::undefined);
  // deconvolution by delta_T advances f by T
  const upp adv = deconvolve(f, upp::from_curve(curve::delay(q(1))));
  for (const rational& t : calc_test::grid(q(10), q(1, 4))) EXPECT_EQ(adv(t), f(t + q(1)));
}

TEST(UppOps, IssueExampleDelayDoesNotOverflow) {
  // token bucket sigma = 1, rho = 2441407 / 10^9 against the rate-latency R =
  // 149850048000 / 12309415288891, T = 27439 / 40: T + sigma / R = 115102801965691 /
  // 149850048000 (the bound of LB&T §1.4, by hand), approached just after 0. The composition
  // of the inverse with the arrival curve multiplies slopes past 64 bits: widened.
  const curve a = curve::token_bucket(q(2441407, 1'000'000'000), q(1));
  const curve s = curve::rate_latency(q(149850048000, 12309415288891), q(27439, 40));
  const auto p = horizontal_deviation_point(a, s);
  ASSERT_TRUE(p.valid());
  EXPECT_EQ(p.value, ext{q(115102801965691, 149850048000)});
  EXPECT_EQ(p.time, q(0));
  EXPECT_EQ(p.reach, deviation_reach::after);
  const auto u = horizontal_deviation_point(upp::from_curve(a), upp::from_curve(s));
  ASSERT_TRUE(u.valid());
  EXPECT_EQ(u.value, p.value);
}

TEST(UppOps, PseudoInversesOfAPacketizerAndAPlateau) {
  // by hand from the definitions: P = 2 floor(x / 2); P^↓(y) = 2 ceil(y / 2),
  // P^↑(y) = sup{x | 2 floor(x / 2) <= y} = 2 floor(y / 2) + 2
  const upp p = upp::packetizer(q(2));
  const upp lo = lower_inverse(p);
  const upp up = upper_inverse(p);
  ASSERT_TRUE(lo.valid() && up.valid());
  for (const rational& y : calc_test::grid(q(12), q(1, 4))) {
    EXPECT_EQ(lo(y), ext{q(-2) * rational{netcc::calculus::floor(-y / q(2))}});
    EXPECT_EQ(up(y), ext{q(2) * rational{netcc::calculus::floor(y / q(2))} + q(2)});
  }
  // an ultimately constant curve (plateau 5 from t = 3, rate 5/3 before): netcc's choice,
  // the lower inverse is +infinity above 5, the upper from 5 on
  const upp w = upp::from_curve(min(curve::rate(q(5, 3)), curve::affine(q(5), E(5), q(0))));
  ASSERT_TRUE(w.valid());
  EXPECT_EQ(w.rise(), q(0));
  const upp wl = lower_inverse(w);
  const upp wu = upper_inverse(w);
  ASSERT_TRUE(wl.valid() && wu.valid());
  EXPECT_EQ(wl(q(5)), E(3));
  EXPECT_EQ(wl(q(6)), ext::infinity());
  EXPECT_EQ(wu(q(4)), E(12, 5));
  EXPECT_EQ(wu(q(5)), ext::infinity());
  // the window step S_W (seed Eq. 5): reached at once
  const upp sw = upp::from_curve(curve::window(q(64)));
  EXPECT_EQ(lower_inverse(sw)(q(64)), E(0));
  EXPECT_EQ(upper_inverse(sw)(q(63)), E(0));
  EXPECT_EQ(upper_inverse(sw)(q(64)), ext::infinity());
  EXPECT_EQ(upper_inverse(upp::make(curve::rate(q(1)), q(0), q(1), q(-1))).error(),
            curve_error::precondition);
}

TEST(UppOps, SeedAckFunctionAndPathServerCurves) {
  // the seed's ACK function I_max floor(D(t - dR) / I_max) (§III-B a) for all t, as a UPP
  // composition, agrees with the finite ack_function where the latter is exact
  const rational imax = q(100);
  const rational dr = q(5);
  const curve dep =
      netcc::calculus::path_departures(curve::token_bucket(q(0), q(1000)), curve::rate(q(10)));
  const curve d = curve::rate_latency(q(10), q(2));
  const upp acks = compose(upp::packetizer(imax), upp::from_curve(shift_right(d, dr)));
  ASSERT_TRUE(acks.valid());
  const curve fin = netcc::calculus::ack_function(d, dr, imax, 20);
  for (const rational& t : calc_test::grid(q(200), q(1, 2))) {
    EXPECT_EQ(acks(t), fin(t)) << t;
  }
  EXPECT_EQ(acks(q(1'000'007)), E(10'000'000));  // D(t - 5) = 10 (t - 7): exactly 1e7
  EXPECT_EQ(acks.period(), q(10));
  // the model's curves are UPP: admitted arrivals through S_r and S_W (Eq. 2, Eq. 5), the
  // rate server, departures; each converts losslessly and the UPP convolution agrees
  const curve a = curve::token_bucket(q(3), q(40));
  const curve sr = curve::rate(q(5));
  const curve sw = curve::window(q(64));
  const curve srv = curve::rate(q(8));
  for (const curve& c : {a, sr, sw, srv, dep, convolve(a, sr), convolve(a, sw)}) {
    const upp u = upp::from_curve(c);
    ASSERT_TRUE(u.valid());
    EXPECT_EQ(u.to_curve(), c);
  }
  EXPECT_EQ(convolve(upp::from_curve(convolve(a, sw)), upp::from_curve(srv)).to_curve(),
            netcc::calculus::path_departures(convolve(a, sw), srv));
}

TEST(UppOps, InfiniteValuesAndUndefinedCases) {
  // f = delta_2 (0 on [0, 2], +infinity after) against a finite g: for every t some u puts
  // t + u past 2 with g(u) finite, so f ⊘ g = +infinity; against delta_1 (g finite on [0, 1]
  // only): (f ⊘ delta_1)(t) = sup_{u <= 1} f(t + u) = 0 for t + 1 <= 2, +infinity after
  // (by hand from the definition, LB&T §3.1.10)
  const upp d2 = upp::from_curve(curve::delay(q(2)));
  EXPECT_EQ(deconvolve(d2, upp::staircase(q(1), q(1)))(q(0)), ext::infinity());
  const upp adv = deconvolve(d2, upp::from_curve(curve::delay(q(1))));
  ASSERT_TRUE(adv.valid());
  EXPECT_EQ(adv(q(1)), E(0));
  EXPECT_EQ(adv.right_limit(q(1)), ext::infinity());
  EXPECT_EQ(adv, upp::from_curve(curve::delay(q(1))));
  // composition: the inner curve must be non-decreasing; an oscillating outer curve has no
  // limit where the inner one is +infinity (-infinity and oscillation are not represented)
  const upp saw = upp::make(curve::rate(q(1)), q(0), q(1), q(0));  // t - floor(t)
  EXPECT_EQ(compose(upp::packetizer(q(1)), saw).error(), curve_error::precondition);
  EXPECT_EQ(compose(saw, upp::from_curve(curve::delay(q(1)))).error(), curve_error::undefined);
  // ... while a rising outer curve tends to +infinity there
  const upp up = compose(upp::packetizer(q(1)), upp::from_curve(curve::delay(q(1))));
  ASSERT_TRUE(up.valid());
  EXPECT_EQ(up(q(1)), E(0));
  EXPECT_EQ(up(q(2)), ext::infinity());
  // the deviation times where f is +infinity at a finite time: reached just after it
  const auto v = vertical_deviation_point(d2, upp::from_curve(curve::rate(q(1))));
  ASSERT_TRUE(v.valid());
  EXPECT_EQ(v.value, ext::infinity());
  EXPECT_EQ(v.time, q(2));
  EXPECT_EQ(v.reach, deviation_reach::after);
  EXPECT_TRUE(v.attained);
  // a bounded service (plateau 5 from t = 5) cannot serve a staircase: the delay is +infinity
  // from the first arrival above 5 (3 ceil(t / 2) = 6 on (2, 4]), reached just after t = 2
  const upp capped = upp::from_curve(min(curve::rate(q(1)), curve::affine(q(5), E(5), q(0))));
  const auto h = horizontal_deviation_point(upp::staircase(q(3), q(2)), capped);
  ASSERT_TRUE(h.valid());
  EXPECT_EQ(h.value, ext::infinity());
  EXPECT_EQ(h.time, q(2));
  EXPECT_EQ(h.reach, deviation_reach::after);
}

TEST(UppOps, DoubleDeconvolutionAndComposition) {
  const double_upp f = double_upp::staircase(3.0, 2.0);
  const double_upp g = double_upp::from_curve(netcc::calculus::double_curve::rate(2.0));
  const double_upp h = deconvolve(f, g);
  ASSERT_TRUE(h.valid());
  const upp he = deconvolve(upp::staircase(q(3), q(2)), upp::from_curve(curve::rate(q(2))));
  for (const rational& t : calc_test::grid(q(9), q(1, 4))) {
    EXPECT_DOUBLE_EQ(h(t.to_double()).value(), he(t).value().to_double());
  }
  const double_upp c = compose(double_upp::packetizer(1.5), g);
  ASSERT_TRUE(c.valid());
  EXPECT_DOUBLE_EQ(c(1.0).value(), 1.5);
  // the deviation times and the upper inverse over double agree with the exact ones
  const auto vd = vertical_deviation_point(f, g);
  const auto hd = horizontal_deviation_point(f, g);
  ASSERT_TRUE(vd.valid() && hd.valid());
  EXPECT_DOUBLE_EQ(vd.value.value(), 3.0);
  EXPECT_DOUBLE_EQ(hd.value.value(), 1.5);
  EXPECT_DOUBLE_EQ(hd.time, 0.0);
  EXPECT_EQ(hd.reach, deviation_reach::after);
  const auto hc = horizontal_deviation_point(netcc::calculus::double_curve::token_bucket(1.0, 4.0),
                                             netcc::calculus::double_curve::rate_latency(2.0, 3.0));
  EXPECT_DOUBLE_EQ(hc.value.value(), 5.0);
  const double_upp ui = upper_inverse(double_upp::packetizer(2.0));
  ASSERT_TRUE(ui.valid());
  EXPECT_DOUBLE_EQ(ui(3.0).value(), 4.0);
}

// ------------------------------------------------------------------ properties

}  // namespace

namespace {

// A random UPP curve: a random finite curve as base, transient 0..3 / 2, period 1..3 / 2 and
// a rise -2..4 / 2 (non-decreasing: the base's own increase over a period added).
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

ext diff(const ext& a, const ext& b) {
  return a.is_inf() ? a : ext{a.value() - b.value()};
}

// inf{d >= 0 | f(t) <= g(t + d)} for non-decreasing f, g, including f(t) = +infinity (met
// where g is +infinity: from its first +infinity on, g being non-decreasing).
ext delay_at(const curve& f, const curve& g, rational t) {
  if (!f(t).is_inf()) return calc_test::brute_delay_at(f, g, t);
  for (const auto& p : g.breakpoints()) {
    if (p.value.is_inf() || p.right.is_inf()) return ext{p.t < t ? q(0) : p.t - t};
  }
  return ext::infinity();
}

// Deconvolution: the definition sampled (a lower bound for every u, equal to the supremum over
// the unrolled curves), and the residuation laws of LB&T Thm 3.1.12 checked exactly on
// canonical forms: (f ⊘ g) ⊗ g >= f and (f ⊗ g) ⊘ g <= f.
RC_GTEST_PROP(UppOpsLaws, DeconvolutionMatchesDefinitionAndResiduation, ()) {
  const bool mono = *rc::gen::arbitrary<bool>();
  const upp f = *gen_upp(mono);
  upp g = *gen_upp(mono);
  // often a faster divisor, so that most results are finite
  if (*rc::gen::arbitrary<bool>()) g = g + upp::from_curve(curve::rate(q(2)));
  const upp h = deconvolve(f, g);
  RC_ASSERT(h.valid());
  const bool all_inf = h(q(0)).is_inf() && h.periodic_infinite() && h.transient() == q(0);
  RC_CLASSIFY(all_inf, "+infinity");
  for (const rational& t : calc_test::grid(q(6), q(1))) {
    for (const rational& u : calc_test::grid(q(12), q(1, 2))) {
      RC_ASSERT(diff(f(t + u), g(u)) <= h(t));
    }
  }
  if (!all_inf) {
    // the supremum is reached for u < max(T_f, T_g) + lcm: unrolled far past it
    const rational hz = h.transient() + h.period() * rational{2};
    const rational span = q(12) + f.transient() + g.transient();  // lcm <= 3 here
    const curve uf = f.unroll(hz + span);
    const curve ug = g.unroll(span);
    for (const rational& t : calc_test::grid(hz, q(1, 2))) {
      const auto b = calc_test::brute_deconv(uf, ug, t);
      RC_ASSERT(b.second);
      RC_ASSERT(h(t) == b.first);
    }
    RC_ASSERT(is_below(f, convolve(h, g)));
  }
  RC_ASSERT(is_below(deconvolve(convolve(f, g), g), f));
}

// Galois connections of the pseudo-inverses of a non-decreasing f, checked exactly on grids
// (the forms stated in minplus.hpp's file comment, from the definitions): for t, y >= 0,
//   f^↓(y) <= t  iff  y <= f(t+)              (lower inverse)
//   f^↑(y) >= t  iff  f(t-) <= y   (t > 0, y >= f(0))   (upper inverse)
// f^↑(y) = f^↓(y+), f^↓ <= f^↑, and the compositions f^↓(f(t)) <= t <= f^↑(f(t)),
// checked as UPP compositions: f^↓ ∘ f <= id <= f^↑ ∘ f (where f(t) >= 0).
RC_GTEST_PROP(UppOpsLaws, PseudoInverseGaloisConnections, ()) {
  const upp f = *gen_upp(true);
  const upp lo = lower_inverse(f);
  const upp up = upper_inverse(f);
  RC_CLASSIFY(f.rise() == q(0), "ultimately constant");
  RC_ASSERT(lo.valid() && up.valid());
  const rational top = q(8);
  for (const rational& y : calc_test::grid(top, q(1, 3))) {
    RC_ASSERT(lo(y) <= up(y));
    RC_ASSERT(up(y) == lo.right_limit(y));
    for (const rational& t : calc_test::grid(top, q(2, 3))) {
      RC_ASSERT((lo(y) <= ext{t}) == (ext{y} <= f.right_limit(t)));
      if (q(0) < t && f(q(0)) <= ext{y}) {
        RC_ASSERT((ext{t} <= up(y)) == (f.left_limit(t) <= ext{y}));
      }
    }
  }
  const upp id = upp::from_curve(curve::rate(q(1)));
  const upp lf = compose(lo, f);
  const upp uf = compose(up, f);
  RC_ASSERT(lf.valid() && uf.valid());
  RC_ASSERT(is_below(lf, id));  // f(t) >= f(0) = 0 here (the generator is causal)
  RC_ASSERT(is_below(id, uf));
}

// Composition against the definition on a grid, and associativity with a second
// non-decreasing inner curve.
RC_GTEST_PROP(UppOpsLaws, CompositionMatchesDefinition, ()) {
  const upp f = *gen_upp(*rc::gen::arbitrary<bool>());
  const upp g = *gen_upp(true);
  const upp h = compose(f, g);
  RC_CLASSIFY(g.rise() == q(0), "inner ultimately constant");
  RC_ASSERT(h.valid());
  const rational hz = h.transient() + h.period() * rational{2} + q(4);
  for (const rational& t : calc_test::grid(hz, q(1, 4))) {
    const ext y = g(t);
    RC_ASSERT(y.is_finite());
    RC_ASSERT(h(t) == f(y.value()));
  }
  const upp k = *gen_upp(true);
  RC_ASSERT(compose(compose(f, g), k) == compose(f, compose(g, k)));
}

// Deviation times: the value equals the deviation without time, the reported time reaches or
// approaches it as stated, and no earlier sampled time reaches it.
RC_GTEST_PROP(UppOpsLaws, DeviationTimes, ()) {
  const bool mono = *rc::gen::arbitrary<bool>();
  const upp f = *gen_upp(mono);
  const upp g = *gen_upp(mono);
  const auto v = vertical_deviation(f, g);
  const auto vp = vertical_deviation_point(f, g);
  RC_ASSERT(v.valid() && vp.valid());
  RC_ASSERT(vp.value == v.value);
  RC_CLASSIFY(vp.reach == deviation_reach::at, "at");
  RC_CLASSIFY(vp.reach == deviation_reach::after, "after");
  RC_CLASSIFY(vp.reach == deviation_reach::before, "before");
  RC_CLASSIFY(vp.reach == deviation_reach::at_infinity, "at infinity");
  const rational t = vp.time;
  switch (vp.reach) {
    case deviation_reach::at:
      RC_ASSERT(vp.attained && diff(f(t), g(t)) == vp.value);
      break;
    case deviation_reach::after:
      RC_ASSERT(diff(f.right_limit(t), g.right_limit(t)) == vp.value);
      RC_ASSERT(!(diff(f(t), g(t)) == vp.value));
      break;
    case deviation_reach::before:
      RC_ASSERT(!vp.attained && diff(f.left_limit(t), g.left_limit(t)) == vp.value);
      break;
    case deviation_reach::at_infinity:
      RC_ASSERT(vp.value == ext::infinity() && !vp.attained);
      break;
  }
  if (vp.reach != deviation_reach::at_infinity) {
    for (const rational& s : calc_test::grid(t, q(1, 8))) {
      if (s < t && !g(s).is_inf()) RC_ASSERT(diff(f(s), g(s)) < vp.value);
    }
  }
  if (mono) {
    const auto hd = horizontal_deviation(f, g);
    const auto hp = horizontal_deviation_point(f, g);
    RC_ASSERT(hd.error == hp.error);
    if (hd.valid()) {
      RC_ASSERT(hp.value == hd.value);
      RC_CLASSIFY(hp.reach == deviation_reach::at, "delay at");
      RC_CLASSIFY(hp.reach == deviation_reach::after, "delay after");
      RC_CLASSIFY(hp.reach == deviation_reach::before, "delay before");
      const rational hz = hp.time + q(8) + f.transient() + g.transient();
      const curve cf = f.unroll(hz);
      curve cg = g.to_curve();  // exact when ultimately affine
      if (!g.is_ultimately_affine()) {
        rational gh = q(64);
        while (g(gh) <= f(hz)) gh = gh * q(2);  // g rises: past every level f reaches
        cg = g.unroll(gh);
      }
      if (hp.reach == deviation_reach::at) {
        RC_ASSERT(delay_at(cf, cg, hp.time) == hp.value);
      }
      if (hp.reach != deviation_reach::at_infinity) {
        for (const rational& s : calc_test::grid(hp.time, q(1, 8))) {
          if (s < hp.time) RC_ASSERT(delay_at(cf, cg, s) < hp.value);
        }
      }
    }
  }
}

// Deviation times on basic curves, against the same checks.
RC_GTEST_PROP(UppOpsLaws, CurveDeviationTimes, ()) {
  calc_test::shape sh;
  sh.monotone = *rc::gen::arbitrary<bool>();
  const curve f = *calc_test::gen_curve(sh);
  const curve g = *calc_test::gen_curve(sh);
  const auto v = netcc::calculus::vertical_deviation(f, g);
  const auto vp = vertical_deviation_point(f, g);
  RC_ASSERT(v.error == vp.error);
  if (!v.valid()) return;
  RC_ASSERT(vp.value == v.value);
  const rational t = vp.time;
  if (vp.reach == deviation_reach::at) RC_ASSERT(diff(f(t), g(t)) == vp.value);
  if (vp.reach == deviation_reach::after) {
    RC_ASSERT(diff(f.right_limit(t), g.right_limit(t)) == vp.value);
  }
  if (vp.reach == deviation_reach::before) {
    RC_ASSERT(diff(f.left_limit(t), g.left_limit(t)) == vp.value);
  }
  if (vp.reach != deviation_reach::at_infinity) {
    for (const rational& s : calc_test::grid(t, q(1, 8))) {
      if (s < t && !g(s).is_inf()) RC_ASSERT(diff(f(s), g(s)) < vp.value);
    }
  }
  if (sh.monotone) {
    const auto hd = netcc::calculus::horizontal_deviation(f, g);
    const auto hp = horizontal_deviation_point(f, g);
    RC_ASSERT(hd.error == hp.error);
    if (hd.valid()) {
      RC_ASSERT(hp.value == hd.value);
      if (hp.reach == deviation_reach::at) {
        RC_ASSERT(delay_at(f, g, hp.time) == hp.value);
      }
      if (hp.reach != deviation_reach::at_infinity) {
        for (const rational& s : calc_test::grid(hp.time, q(1, 8))) {
          if (s < hp.time) RC_ASSERT(delay_at(f, g, s) < hp.value);
        }
      }
    }
  }
}

}  // namespace

}  // namespace netcc_tests::calculus_upp_ops
