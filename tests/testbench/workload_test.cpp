// SPDX-License-Identifier: MIT
#include <netcc/testbench/workload.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace netcc_tests::testbench_workload {

namespace tb = netcc::testbench;

namespace {

tb::flow_size_cdf shipped(const std::string& name) {
  tb::flow_size_cdf c;
  const std::string err = tb::load_cdf(std::string(NETCC_DATA_DIR) + "/cdf/" + name + ".cdf", c);
  EXPECT_EQ(err, "");
  return c;
}

}  // namespace

TEST(Workload, ShippedCdfsLoadWithHandComputedMeans) {
  // Mean of a piecewise-linear CDF: sum over segments of dp * (x0 + x1) / 2.
  // Web search: 0.15*5e3 + 0.05*15e3 + 0.1*25e3 + 0.1*40e3 + 0.13*65e3 + 0.07*140e3 + 0.1*600e3
  //   + 0.1*1.5e6 + 0.1*3.5e6 + 0.07*7.5e6 + 0.03*20e6 = 750 + 750 + 2500 + 4000 + 8450 + 9800
  //   + 60000 + 150000 + 350000 + 525000 + 600000 = 1,711,250 B (about 1.7 MB).
  const auto web = shipped("websearch");
  EXPECT_NEAR(web.mean(), 1'711'250.0, 1e-6);
  EXPECT_EQ(web.sample(0.0), 1);  // the 0-byte point is clamped to one byte
  EXPECT_EQ(web.sample(0.15), 10'000);
  EXPECT_EQ(web.sample(0.175), 15'000);  // halfway between (10 kB, 0.15) and (20 kB, 0.20)
  EXPECT_EQ(web.sample(1.0), 30'000'000);
  // Hadoop: most flows are small (70% below 7 kB), the mean is dominated by the tail.
  const auto hdp = shipped("hadoop");
  EXPECT_EQ(hdp.sample(0.5), 700);
  EXPECT_GT(hdp.mean(), 100'000.0);
  EXPECT_LT(hdp.mean(), 300'000.0);
}

TEST(Workload, BadCdfTextNamesTheLineAndRule) {
  tb::flow_size_cdf c;
  EXPECT_EQ(tb::parse_cdf("0 0\n10 0.5\n5 1\n", "x.cdf", c),
            "x.cdf:3: point (5, 1): sizes and probabilities must not decrease");
  EXPECT_EQ(tb::parse_cdf("0 0\n10 1.5\n", "x.cdf", c),
            "x.cdf:2: probability = 1.5: must be in [0, 1]");
  EXPECT_EQ(tb::parse_cdf("0 0\nten 1\n", "x.cdf", c), "x.cdf:2: 'ten' is not a number");
  EXPECT_EQ(tb::parse_cdf("0 0.1\n10 1\n", "x.cdf", c), "x.cdf: the first probability must be 0");
  EXPECT_EQ(tb::parse_cdf("0 0\n10 0.9\n", "x.cdf", c), "x.cdf: the last probability must be 1");
  EXPECT_EQ(tb::parse_cdf("# only a comment\n", "x.cdf", c), "x.cdf: needs at least two points");
  EXPECT_EQ(tb::parse_cdf("0 0\n10 1 7\n", "x.cdf", c),
            "x.cdf:2: expected '<bytes> <cumulative probability>', got a third value");
  EXPECT_EQ(tb::load_cdf("/nonexistent/z.cdf", c),
            "/nonexistent/z.cdf: cannot open: No such file or directory");
  EXPECT_TRUE(c.points.empty());  // nothing was replaced by a failed parse
  // Sizes beyond 10 GB (1e300 would overflow every byte count downstream), all-zero sizes (no
  // flow to generate), and text that is not text.
  EXPECT_EQ(tb::parse_cdf("0 0\n1e300 1\n", "x.cdf", c),
            "x.cdf:2: size = 1e+300: must be in [0, 1e+10] bytes");
  EXPECT_EQ(tb::parse_cdf("0 0\n0 0.5\n0 1\n", "x.cdf", c),
            "x.cdf: every size is below 1 byte: the largest size must be at least 1");
  EXPECT_EQ(tb::parse_cdf("0 0\n\x1b[2J 1\n", "x.cdf", c), "x.cdf:2: '\\x1b[2J' is not a number");
  EXPECT_TRUE(c.points.empty());
  EXPECT_EQ(tb::parse_cdf("0 0\n1e10 1\n", "x.cdf", c), "");  // the largest size allowed
}

TEST(Workload, PoissonArrivalsOfferTheTargetLoad) {
  // 50% of 100 Gbps with 1.71 MB flows: 3652 flows/s; over 1 s about 3652 flows whose bytes
  // sum to about 6.25 GB. The sum of many heavy-tailed sizes converges slowly: 10% slack.
  const auto web = shipped("websearch");
  const auto flows =
      tb::poisson_flows(web, 0.5, netcc::bit_rate{100'000'000'000}, 8, netcc::timestamp{0},
                        netcc::timestamp{1'000'000'000}, 1'000'000, 7);
  double bytes = 0;
  for (std::size_t i = 0; i < flows.size(); ++i) {
    bytes += static_cast<double>(flows[i].size.count());
    EXPECT_LT(flows[i].sender, 8u);
    if (i > 0) {
      EXPECT_GE(flows[i].start, flows[i - 1].start);
    }
  }
  EXPECT_NEAR(bytes * 8 / 1e9 / 100, 0.5, 0.05);
  EXPECT_NEAR(static_cast<double>(flows.size()), 0.5 * 100e9 / 8 / web.mean(), 0.05 * 3652);
  // Same seed, same workload; another seed, another one.
  const auto again =
      tb::poisson_flows(web, 0.5, netcc::bit_rate{100'000'000'000}, 8, netcc::timestamp{0},
                        netcc::timestamp{1'000'000'000}, 1'000'000, 7);
  ASSERT_EQ(again.size(), flows.size());
  for (std::size_t i = 0; i < flows.size(); ++i) {
    EXPECT_EQ(again[i].start, flows[i].start);
    EXPECT_EQ(again[i].size, flows[i].size);
  }
  EXPECT_TRUE(tb::poisson_flows(web, 0, netcc::bit_rate{1}, 8, netcc::timestamp{0},
                                netcc::timestamp{1'000'000}, 10, 1)
                  .empty());
}

RC_GTEST_PROP(Workload, SamplesStayWithinTheCdfAndAreMonotone, (double a, double b)) {
  const auto web = shipped("websearch");
  const double u = std::isfinite(a) ? std::abs(std::fmod(a, 1.0)) : 0.5;
  const double v = std::isfinite(b) ? std::abs(std::fmod(b, 1.0)) : 0.25;
  const auto su = web.sample(u), sv = web.sample(v);
  RC_ASSERT(su >= 1);
  RC_ASSERT(su <= 30'000'000);
  if (u <= v) RC_ASSERT(su <= sv);
}

}  // namespace netcc_tests::testbench_workload
