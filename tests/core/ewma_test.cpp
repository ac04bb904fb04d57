// SPDX-License-Identifier: MIT
#include <netcc/core/ewma.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

namespace netcc_tests::core_ewma {

namespace {
using q32 = netcc::fixed_point<31, 32>;
using tw = netcc::time_weight<double>;
}  // namespace

TEST(Ewma, FixedWeightHandComputed) {
  // alpha = 1/16 (DCTCP's g): 0 -> 1/16 -> 1/16 + (1 - 1/16)/16 = 0.12109375
  netcc::ewma<double, netcc::fixed_weight<double>> e{{.alpha = 1.0 / 16}, 0.0};
  EXPECT_DOUBLE_EQ(e.update(1.0), 0.0625);
  EXPECT_DOUBLE_EQ(e.update(1.0), 0.12109375);
}

TEST(Ewma, TimeWeightMatchesPowerTcpSmoothing) {
  // PowerTCP Alg. 1 line 23: smooth = (smooth*(tau - dt) + x*dt)/tau, tau = 20 us.
  netcc::ewma<double, tw> e{{.period = netcc::duration{20'000}}, 1.0};
  EXPECT_DOUBLE_EQ(e.update(3.0, netcc::duration{5'000}), (1.0 * 15'000 + 3.0 * 5'000) / 20'000);
  // dt >= tau replaces the value; dt <= 0 leaves it (no division by zero).
  EXPECT_DOUBLE_EQ(e.update(7.0, netcc::duration{0}), 1.5);
  EXPECT_DOUBLE_EQ(e.update(7.0, netcc::duration{-40}), 1.5);
  EXPECT_DOUBLE_EQ(e.update(7.0, netcc::duration{50'000}), 7.0);
}

TEST(Ewma, ZeroPeriodMeansNoSmoothing) {
  netcc::ewma<double, tw> e{{.period = netcc::duration{0}}, 1.0};
  EXPECT_DOUBLE_EQ(e.update(4.0, netcc::duration{10}), 4.0);
}

TEST(Ewma, FixedPointTimeWeightUsesIntegerRatio) {
  netcc::time_weight<q32> w{.period = netcc::duration{8'000}};
  EXPECT_EQ(w(netcc::duration{2'000}), q32{0.25});
  EXPECT_EQ(w(netcc::duration{9'000}), q32{1});
  netcc::ewma<q32, netcc::time_weight<q32>> e{w, q32{1}};
  EXPECT_EQ(e.update(q32{3}, netcc::duration{4'000}), q32{2});
  e.reset(q32{0});
  EXPECT_EQ(e.value(), q32{0});
}

RC_GTEST_PROP(Ewma, StaysWithinRangeOfSamples, ()) {
  // A convex combination never leaves [min, max] of the initial value and the samples.
  const auto xs =
      *rc::gen::container<std::vector<std::int32_t>>(rc::gen::arbitrary<std::int32_t>());
  const auto dts =
      *rc::gen::container<std::vector<std::int32_t>>(xs.size(), rc::gen::arbitrary<std::int32_t>());
  netcc::ewma<double, tw> e{{.period = netcc::duration{10'000}}, 0.0};
  double lo = 0, hi = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    lo = std::min<double>(lo, xs[i]);
    hi = std::max<double>(hi, xs[i]);
    const double v = e.update(xs[i], netcc::duration{dts[i]});
    RC_ASSERT(v >= lo - 1e-6 && v <= hi + 1e-6);
  }
}

RC_GTEST_PROP(Ewma, ConstantInputConvergesToIt, ()) {
  const double x = *rc::gen::inRange(-1000, 1000);
  netcc::ewma<double, netcc::fixed_weight<double>> e{{.alpha = 0.25}, 0.0};
  for (int i = 0; i < 200; ++i) e.update(x);
  RC_ASSERT(std::fabs(e.value() - x) < 1e-9);
}

RC_GTEST_PROP(Ewma, FixedPointTracksDouble, ()) {
  // q32 vs double over 100 time-weighted updates: each step rounds the weight (<= 1/2 ulp,
  // relative error on a ratio below 1) and one product (1/2 ulp); 100 steps of samples up to
  // 1e4 stay within 1e-4.
  const auto xs =
      *rc::gen::container<std::vector<std::int16_t>>(100, rc::gen::arbitrary<std::int16_t>());
  const auto dts =
      *rc::gen::container<std::vector<std::uint16_t>>(100, rc::gen::arbitrary<std::uint16_t>());
  netcc::ewma<double, tw> d{{.period = netcc::duration{20'000}}, 0.0};
  netcc::ewma<q32, netcc::time_weight<q32>> f{{.period = netcc::duration{20'000}}, q32{0}};
  for (std::size_t i = 0; i < 100; ++i) {
    d.update(xs[i], netcc::duration{dts[i]});
    f.update(q32{xs[i]}, netcc::duration{dts[i]});
  }
  RC_ASSERT(std::fabs(d.value() - f.value().to_double()) < 1e-4);
}

}  // namespace netcc_tests::core_ewma
