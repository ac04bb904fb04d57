// SPDX-License-Identifier: MIT
// DCTCP held to the paper's analysis in the testbench (DCTCP SIGCOMM'10 §3.3): N long flows on a
// 10 Gbps dumbbell with a base RTT of about 100 us and a step ECN threshold K = 40 packets at the
// bottleneck, g = 1/16 (the setting in which the paper sets its analysis against simulations).
// The analysis (netcc::dctcp_sawtooth) predicts a sawtooth: the queue peaks at Q_max = K + N
// packets (Eq. 11), falls by A = N (W* + 1) alpha / 2 (Eq. 9, about sqrt(2 N (C * RTT + K)) / 2)
// and rises back linearly (Eq. 3, every window one packet per RTT), so it oscillates around K
// and averages Q_max - A / 2; with K > C * RTT / 7 its minimum Q_min = Q_max - A stays above
// zero, so the link never idles and throughput is the capacity.
//
// Measured over 20 ms after 10 ms of warm-up (alpha from 1 to its steady value takes some 70
// windows at g = 1/16), the queue sampled every 300 ns (a packet takes 1200 ns):
// - peak <= K + N + 1 packets. The one packet: the step marks a packet that finds more than K
//   packets waiting (netcc::dctcp_red_params, "queue exceeds K" as the paper states), so the
//   sawtooth starts its last RTT at K + 1, not K.
// - time average within one packet of Q_max - A / 2 (with the same shift): the queue is counted
//   in whole packets, the one on the wire excluded.
// - never empty (Q_min > 0), goodput at the payload capacity less one packet per flow of edge
//   effect over the interval, no drops, no timeouts.
// The analysis assumes synchronised flows that each cut once per period; it holds while the
// period T_C (Eq. 10) leaves room for a reduction window and a marking interval, T_C >= 2 RTTs,
// which the test checks of each N it runs (N = 2, 5, 10; at N = 20, T_C = 1.96).
#include <netcc/control/dctcp.hpp>
#include <netcc/fabric/red_ecn.hpp>
#include <netcc/testbench/metrics.hpp>
#include <netcc/testbench/network.hpp>
#include <netcc/testbench/topology.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <vector>

namespace netcc_tests::testbench_dctcp_scenario {

using namespace netcc::literals;
namespace tb = netcc::testbench;

namespace {

class DctcpSawtooth : public ::testing::TestWithParam<int> {};

}  // namespace

TEST_P(DctcpSawtooth, QueueFollowsSection33WithFullThroughput) {
  const int n = GetParam();
  constexpr double packet = 1500;  // wire bytes of a full segment (1460 B payload + 40 B)
  constexpr double k = 40;         // packets
  // Base RTT: 3 links of 16 us each way, 1500-B data serialised in 1200 ns per hop, 64-B ACKs
  // in 52 ns (51.2 rounded up): 6 * 16000 + 3 * 1200 + 3 * 52 = 99756 ns.
  // C * RTT = 10 Gbps * 99756 ns = 124695 B = 83.13 packets; K / (C * RTT / 7) = 3.4.
  constexpr double bdp = 10e9 * 99'756e-9 / 8 / packet;
  ASSERT_GT(k, netcc::dctcp_k_floor(bdp));
  const auto model = netcc::dctcp_sawtooth::of(n, bdp, k);
  ASSERT_GE(model.period, 2.0);  // the regime of the analysis (file comment)
  const netcc::dctcp_params params{};
  ASSERT_LT(params.g, netcc::dctcp_gain_ceiling(bdp, k));  // the §3.3 bound on g holds

  tb::network net{{.seed = 1, .sample_interval = netcc::duration{300}}};
  const auto red = netcc::dctcp_red_params(netcc::bytes{static_cast<std::int64_t>(k * packet)});
  const tb::switch_config sw{
      .int_push = false, .ecn = true, .ecn_kmin = red.k_min, .ecn_kmax = red.k_max};
  const tb::link_spec link{.rate = 10_Gbps, .delay = 16_us};
  const auto d = tb::make_dumbbell(net, static_cast<std::size_t>(n), link, link, sw);
  for (int i = 0; i < n; ++i)
    net.add_flow({.src = d.senders[static_cast<std::size_t>(i)],
                  .dst = d.receivers[static_cast<std::size_t>(i)],
                  .start = netcc::timestamp{i * 1000},
                  .cc = std::make_unique<tb::cc_model<netcc::dctcp>>("dctcp", params)});
  net.monitor_queue(d.left, d.right, "bottleneck");

  net.run_until(netcc::timestamp{10'000'000});
  const std::size_t from = net.time_series().t.size();
  std::vector<std::int64_t> acked0;
  for (int i = 0; i < n; ++i)
    acked0.push_back(net.stats(static_cast<tb::flow_id>(i)).acked.count());
  constexpr double seconds = 0.020;
  net.run_until(netcc::timestamp{30'000'000});

  const auto& q = net.time_series().columns[0];
  double peak = 0, trough = 1e18, mean = 0;
  for (std::size_t i = from; i < q.size(); ++i) {
    peak = std::max(peak, q[i] / packet);
    trough = std::min(trough, q[i] / packet);
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
  const double q_max = model.q_max + 1;  // the step at K + 1 packets
  const double q_mean = q_max - model.amplitude / 2;
  const double capacity = 10.0 * 1460 / 1500;        // Gbps of payload
  const double edge = n * 1460 * 8 / seconds / 1e9;  // one packet per flow, Gbps
  std::printf(
      "N = %d: queue %.0f..%.0f packets, mean %.2f | analysis (+1): Q_max %.0f, Q_min %.1f, "
      "A %.1f, mean %.2f, T_C %.2f RTT, alpha %.3f | goodput %.4f of %.4f Gbps, Jain %.3f\n",
      n, trough, peak, mean, q_max, q_max - model.amplitude, model.amplitude, q_mean, model.period,
      model.alpha, goodput, capacity, tb::jain_index(goodputs));

  EXPECT_LE(peak, q_max);               // Eq. 11
  EXPECT_GT(peak, k);                   // the queue crosses K ...
  EXPECT_LT(trough, k + 1);             // ... both ways: it oscillates around it
  EXPECT_NEAR(mean, q_mean, 1.0);       // Eq. 9 through the sawtooth's average
  EXPECT_GT(trough, 0.0);               // Q_min > 0: the link never idles (K > C * RTT / 7)
  EXPECT_GE(goodput, capacity - edge);  // full throughput
  EXPECT_EQ(net.drops(), 0u);
  EXPECT_EQ(timeouts, 0u);
}

INSTANTIATE_TEST_SUITE_P(Flows, DctcpSawtooth, ::testing::Values(2, 5, 10));

}  // namespace netcc_tests::testbench_dctcp_scenario
