// SPDX-License-Identifier: MIT
// TCP Vegas held to its equilibrium in the testbench (Brakmo, Peterson 1995, §III-B; seed 003
// §III-E, Appendix C). Each Vegas flow adjusts its window once per RTT until its Diff, the
// estimate of its own packets queued at the bottleneck, lies in [alpha, beta]. With N flows
// sharing one FIFO bottleneck and seeing the same queueing delay q, flow i keeps
// rate_i * q packets queued, so in equilibrium the bottleneck queue holds between N * alpha and
// N * beta packets (the Vegas fixed point of Low, Peterson and Wang's analysis): a small standing
// queue, the link busy, no loss.
//
// The scenario: N long flows (N = 1, 2, 4) on a dumbbell with a 10 Gbps bottleneck behind
// 25 Gbps host links (so that the queue forms at the switch, where the RTT sees it, even for one
// flow) and a base RTT of about 100 us (C * RTT = 80 packets), unpaced senders, a deep buffer, flows started
// together so that each one's BaseRTT is the true propagation delay (a flow that starts over a
// standing queue takes the queue into its BaseRTT: Vegas's known persistent-congestion bias,
// not tested here). Measured over 10 ms after 25 ms of warm-up, the queue sampled every 300 ns.
// The warm-up covers slow start's overshoot and its drain: a round's minRTT comes from its
// first ACKs, which a window doubled at once sends ahead of its own burst, so the check that
// should end slow start (Diff > gamma) sees the queue one doubling late. One flow leaves slow
// start at about twice the BDP, 80 packets queued, and congestion avoidance removes them one
// packet per RTT: some 80 RTTs of up to 200 us. Then:
// - time-average queue within [N * alpha - 1, N * beta + 1] packets: the window moves in whole
//   packets once per RTT, so the queue can step one packet outside the band before the next
//   adjustment brings it back, and the one packet on the wire is not counted;
// - goodput at the payload capacity (less one packet per flow of edge effect), no drops, no
//   timeouts;
// - Jain's index of the goodputs at least its worst case under the equilibrium: every flow
//   keeps between alpha and beta packets queued behind the same queueing delay, so rates differ
//   by at most beta / alpha; the index is smallest when k flows run at that ratio to the rest,
//   (N - k + k r)^2 / (N (N - k + k r^2)) over k (0.889 for r = 2, N = 1..4).
#include <netcc/control/vegas.hpp>
#include <netcc/testbench/metrics.hpp>
#include <netcc/testbench/network.hpp>
#include <netcc/testbench/topology.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <vector>

namespace netcc_tests::testbench_vegas_scenario {

using namespace netcc::literals;
namespace tb = netcc::testbench;

namespace {

class VegasEquilibrium : public ::testing::TestWithParam<int> {};

}  // namespace

TEST_P(VegasEquilibrium, QueueHoldsAlphaToBetaPacketsPerFlowAtFullThroughput) {
  const int n = GetParam();
  constexpr double packet = 1500;  // wire bytes of a full segment (1460 B payload + 40 B)
  const netcc::vegas_params params{};
  const double alpha = params.alpha, beta = params.beta;

  tb::network net{{.seed = 1, .sample_interval = netcc::duration{300}}};
  const tb::switch_config sw{.int_push = false};
  const tb::link_spec edge{.rate = 25_Gbps, .delay = 16_us};
  const tb::link_spec core{.rate = 10_Gbps, .delay = 16_us};
  const auto d = tb::make_dumbbell(net, static_cast<std::size_t>(n), edge, core, sw);
  for (int i = 0; i < n; ++i)
    net.add_flow({.src = d.senders[static_cast<std::size_t>(i)],
                  .dst = d.receivers[static_cast<std::size_t>(i)],
                  .start = netcc::timestamp{0},
                  .cc = std::make_unique<tb::cc_model<netcc::vegas>>("vegas", params)});
  net.monitor_queue(d.left, d.right, "bottleneck");

  net.run_until(netcc::timestamp{25'000'000});
  const std::size_t from = net.time_series().t.size();
  std::vector<std::int64_t> acked0;
  for (int i = 0; i < n; ++i)
    acked0.push_back(net.stats(static_cast<tb::flow_id>(i)).acked.count());
  constexpr double seconds = 0.010;
  net.run_until(netcc::timestamp{35'000'000});

  const auto& q = net.time_series().columns[0];
  double peak = 0, mean = 0;
  for (std::size_t i = from; i < q.size(); ++i) {
    peak = std::max(peak, q[i] / packet);
    mean += q[i] / packet / static_cast<double>(q.size() - from);
  }
  std::vector<double> goodputs;
  double goodput = 0;
  std::uint64_t timeouts = 0;
  for (int i = 0; i < n; ++i) {
    const auto& st = net.stats(static_cast<tb::flow_id>(i));
    goodputs.push_back(static_cast<double>(st.acked.count() - acked0[static_cast<std::size_t>(i)]) *
                       8 / seconds / 1e9);
    goodput += goodputs.back();
    timeouts += st.timeouts;
  }
  const double capacity = 10.0 * 1460 / 1500;               // Gbps of payload
  const double edge_effect = n * 1460 * 8 / seconds / 1e9;  // one packet per flow, Gbps
  std::printf(
      "N = %d: queue mean %.2f, peak %.0f packets | band [%.0f, %.0f] | goodput %.4f of "
      "%.4f Gbps, Jain %.4f\n",
      n, mean, peak, n * alpha, n * beta, goodput, capacity, tb::jain_index(goodputs));

  EXPECT_GE(mean, n * alpha - 1);
  EXPECT_LE(mean, n * beta + 1);
  EXPECT_GE(goodput, capacity - edge_effect);
  const double r = beta / alpha;
  double jain_floor = 1;
  for (int k = 1; k < n; ++k)
    jain_floor =
        std::min(jain_floor, (n - k + k * r) * (n - k + k * r) / (n * (n - k + k * r * r)));
  EXPECT_GE(tb::jain_index(goodputs), jain_floor);
  EXPECT_EQ(net.drops(), 0u);
  EXPECT_EQ(timeouts, 0u);
}

INSTANTIATE_TEST_SUITE_P(Flows, VegasEquilibrium, ::testing::Values(1, 2, 4));

}  // namespace netcc_tests::testbench_vegas_scenario
