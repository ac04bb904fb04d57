// SPDX-License-Identifier: MIT
// DCTCP held to its paper in the testbench (DCTCP SIGCOMM'10 §3.3): N long flows on a 100 Gbps
// dumbbell with a step ECN threshold K at the paper's guideline K > C * RTT / 7 (the runner's
// choice: C * RTT / 7 plus one packet). The analysis predicts the queue's sawtooth peaks at
// Q_max = K + N packets (Eq. 9: every flow adds one packet in the RTT it takes the marks to
// arrive) and that with this K the queue does not underflow long enough to lose throughput.
// Measured over the second half of a 4 ms run (sampled every 1 us), with one packet of slack
// for the sampling grid.
#include <netcc/testbench/controllers.hpp>
#include <netcc/testbench/scenario.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace tb = netcc::testbench;

namespace {

const tb::cc_entry& dctcp_entry() {
  static const auto all = tb::controllers();
  for (const auto& c : all)
    if (c.name == "dctcp") return c;
  throw std::runtime_error("dctcp is not in the runner");
}

class DctcpQueue : public ::testing::TestWithParam<int> {};

}  // namespace

TEST_P(DctcpQueue, PeaksAtKPlusNPacketsWithFullThroughput) {
  const int n = GetParam();
  tb::scenario s;
  s.topology = "dumbbell";
  s.senders = n;
  s.long_flows = n;
  s.incast_flows = 0;
  s.duration_us = 4000;
  s.expected_flows = n;
  ASSERT_EQ(tb::check(s), "");
  tb::series ts;
  const auto r = tb::run_scenario(s, dctcp_entry(), ts);
  // The runner's K for this path: base RTT = 2 * 3 us + 3 * (120 + 6) ns = 6378 ns;
  // C * RTT = 79725 B; K = 79725 / 7 + 1500 = 12889 B.
  const double k = 79'725.0 / 7 + 1500;
  const double q_max = k + n * 1500.0;  // Eq. 9, in bytes of 1500-B packets
  const auto& q = ts.columns[0];
  double peak = 0, mean = 0;
  const std::size_t from = q.size() / 2;
  for (std::size_t i = from; i < q.size(); ++i) {
    peak = std::max(peak, q[i]);
    mean += q[i] / static_cast<double>(q.size() - from);
  }
  std::printf(
      "N = %d: queue peak %.0f B (K + N = %.0f), mean %.0f B, goodput %.2f Gbps, Jain %.4f\n", n,
      peak, q_max, mean, r.tail_goodput_gbps, r.jain);
  EXPECT_LE(peak, q_max + 1500);
  EXPECT_LE(mean, q_max);
  EXPECT_GT(r.tail_goodput_gbps, 0.95 * 100 * 1460 / 1500);  // 95% of the payload capacity
  EXPECT_GT(r.jain, 0.9);
  EXPECT_EQ(r.drops, 0u);
}

INSTANTIATE_TEST_SUITE_P(Flows, DctcpQueue, ::testing::Values(2, 4, 8));
