// SPDX-License-Identifier: MIT
// DCQCN held to its paper in the testbench (DCQCN SIGCOMM'15 §3, §5: DCQCN shares a bottleneck
// fairly and keeps its queue short; seed 003 Table II parameters): a long flow on a 100 Gbps
// dumbbell, a second joining at 500 us. Over the last quarter of a 10 ms run each flow gets
// its fair half within 10 %, the link stays above 90 % of its payload capacity, and the
// queue stays below K_max (RED marks every packet above it, so a stable DCQCN keeps it lower).
#include <netcc/testbench/controllers.hpp>
#include <netcc/testbench/scenario.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

namespace tb = netcc::testbench;

TEST(DcqcnScenario, TwoFlowsConvergeToFairSharesWithAShortQueue) {
  tb::scenario s;
  s.topology = "dumbbell";
  s.senders = 2;
  s.long_flows = 2;
  s.incast_flows = 0;
  s.long_start_gap_us = 500;
  s.duration_us = 10'000;
  s.sample_ns = 10'000;
  s.expected_flows = 2;
  ASSERT_EQ(tb::check(s), "");
  const tb::cc_entry* dcqcn = nullptr;
  const auto all = tb::controllers();
  for (const auto& c : all)
    if (c.name == "dcqcn") dcqcn = &c;
  ASSERT_NE(dcqcn, nullptr);
  tb::series ts;
  const auto r = tb::run_scenario(s, *dcqcn, ts);
  // Columns: queue, then (cwnd, rate, goodput) per long flow.
  const std::size_t rows = ts.t.size(), from = rows - rows / 4;
  double g0 = 0, g1 = 0, qmax = 0;
  for (std::size_t i = from; i < rows; ++i) {
    g0 += ts.columns[3][i] / static_cast<double>(rows - from);
    g1 += ts.columns[6][i] / static_cast<double>(rows - from);
    qmax = std::max(qmax, ts.columns[0][i]);
  }
  std::printf("flow goodputs %.2f and %.2f Gbps, tail queue max %.0f B, CNPs %llu\n", g0, g1, qmax,
              static_cast<unsigned long long>(r.cnps));
  const double payload = 100.0 * 1460 / 1500;
  EXPECT_GT(g0 + g1, 0.9 * payload);
  EXPECT_NEAR(g0, (g0 + g1) / 2, 0.1 * (g0 + g1) / 2);
  EXPECT_NEAR(g1, (g0 + g1) / 2, 0.1 * (g0 + g1) / 2);
  EXPECT_LT(qmax, 200'000.0);  // K_max of Table II
  EXPECT_GT(r.cnps, 0u);
  EXPECT_EQ(r.drops, 0u);
}
