// SPDX-License-Identifier: MIT
// Swift held to Algorithm 1's operating point in the testbench (SIGCOMM'20 §3.2): N long flows
// share a 10 Gbps bottleneck (a two-flow dumbbell, and an 8:1 star incast), with a flat fabric
// target T (flow scaling off, no hop scaling, so every flow aims at the same delay) above the
// base RTT. Algorithm 1 predicts:
// - the RTT settles at T: below it every flow grows (AI), above it every flow shrinks (MD), so
//   the queue holds the standing delay T - base RTT;
// - the link stays busy: after a cut at a delay d >= T the flows' windows shrink by at most
//   beta (d - T) / d, so the RTT they support falls to no less than d - beta (d - T) >= T > base
//   RTT, and the queue never drains;
// - the mean delay stays within N ai / beta packets of T: growth adds N ai packets per RTT, and
//   a cut at d removes beta (d - T) / d of the windows, beta (d - T) C of the pipe, at most once
//   per RTT; growth and cuts balance at d - T = N ai / (beta C) (in packets at rate C), so a mean
//   further above T would shrink the windows every RTT, and one further below would need a
//   second cut (the one-RTT lag of the delay behind a cut) larger than the balance allows;
// - fair shares: every flow sees the same delay against the same target, so the same AI and the
//   same proportional MD; AIMD converges to equal windows (Chiu and Jain).
// Measured over 20 ms after 5 ms of warm-up, the queue sampled every 300 ns:
// - mean queueing delay within (N ai / beta + 1) packets (1500 B at 10 Gbps) of T - base RTT
//   (the one packet: samples count the queue in whole packets, the one on the wire excluded);
// - the queue never empty, goodput the payload capacity less one packet per flow over the
//   interval, no drops, no timeouts, Jain's index of the goodputs at least 0.99.
#include <netcc/control/swift.hpp>
#include <netcc/testbench/metrics.hpp>
#include <netcc/testbench/network.hpp>
#include <netcc/testbench/topology.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <vector>

namespace netcc_tests::testbench_swift_scenario {

using namespace netcc::literals;
namespace tb = netcc::testbench;

namespace {

struct shape {
  int flows;
  bool star;
};

class SwiftOperatingPoint : public ::testing::TestWithParam<shape> {};

}  // namespace

TEST_P(SwiftOperatingPoint, DelaySettlesAtTargetWithFullFairThroughput) {
  const auto [n, star] = GetParam();
  constexpr double packet = 1500;                // wire bytes of a full segment
  constexpr double packet_ns = packet * 8 / 10;  // 1200 ns at 10 Gbps
  // Base RTT. Dumbbell: 3 links of 3 us each way, 1500-B data serialised in 1200 ns per hop,
  // 64-B ACKs in 52 ns (51.2 rounded up): 6 * 3000 + 3 * 1200 + 3 * 52 = 21756 ns. Star: 2 links
  // each way, 4 * 3000 + 2 * 1200 + 2 * 52 = 14504 ns.
  const double base_rtt = star ? 14'504 : 21'756;
  const netcc::duration target = 40_us;
  const netcc::swift_params params{.base_target = target, .per_hop = 0_ns, .fs_range = 0_ns};
  ASSERT_TRUE(netcc::validate(params).ok());
  const double standing = static_cast<double>(target.count()) - base_rtt;  // ns of queue
  const double band = (n * params.ai / params.beta + 1) * packet_ns;

  tb::network net{{.seed = 1, .sample_interval = netcc::duration{300}}};
  const tb::link_spec link{.rate = 10_Gbps, .delay = 3_us};
  const tb::switch_config sw{.int_push = false};
  std::vector<tb::node_id> src, dst;
  tb::node_id qa = 0, qb = 0;
  if (star) {
    const auto s = tb::make_star(net, static_cast<std::size_t>(n), link, link, sw);
    src = s.senders;
    dst.assign(src.size(), s.receiver);
    qa = s.sw;
    qb = s.receiver;
  } else {
    const auto d = tb::make_dumbbell(net, static_cast<std::size_t>(n), link, link, sw);
    src = d.senders;
    dst = d.receivers;
    qa = d.left;
    qb = d.right;
  }
  for (int i = 0; i < n; ++i)
    net.add_flow({.src = src[static_cast<std::size_t>(i)],
                  .dst = dst[static_cast<std::size_t>(i)],
                  .start = netcc::timestamp{i * 1000},
                  .cc = std::make_unique<tb::cc_model<netcc::swift>>("swift", params)});
  net.monitor_queue(qa, qb, "bottleneck");

  net.run_until(netcc::timestamp{5'000'000});
  const std::size_t from = net.time_series().t.size();
  std::vector<std::int64_t> acked0;
  for (int i = 0; i < n; ++i)
    acked0.push_back(net.stats(static_cast<tb::flow_id>(i)).acked.count());
  constexpr double seconds = 0.020;
  net.run_until(netcc::timestamp{25'000'000});

  const auto& q = net.time_series().columns[0];
  double peak = 0, trough = 1e18, mean = 0;
  for (std::size_t i = from; i < q.size(); ++i) {
    const double delay = q[i] * 8 / 10;  // ns at 10 Gbps
    peak = std::max(peak, delay);
    trough = std::min(trough, delay);
    mean += delay / static_cast<double>(q.size() - from);
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
  const double capacity = 10.0 * 1460 / 1500;        // Gbps of payload
  const double edge = n * 1460 * 8 / seconds / 1e9;  // one packet per flow, Gbps
  std::printf(
      "%s N = %d: queueing delay %.0f..%.0f ns, mean %.0f | Algorithm 1: standing %.0f +- %.0f ns "
      "| goodput %.4f of %.4f Gbps, Jain %.4f\n",
      star ? "star" : "dumbbell", n, trough, peak, mean, standing, band, goodput, capacity,
      tb::jain_index(goodputs));

  EXPECT_NEAR(mean, standing, band);  // the RTT settles at the target
  EXPECT_GT(trough, 0.0);             // the queue never drains: the link never idles
  EXPECT_GE(goodput, capacity - edge);
  EXPECT_GE(tb::jain_index(goodputs), 0.99);
  EXPECT_EQ(net.drops(), 0u);
  EXPECT_EQ(timeouts, 0u);
}

INSTANTIATE_TEST_SUITE_P(Flows, SwiftOperatingPoint,
                         ::testing::Values(shape{2, false}, shape{8, true}));

}  // namespace netcc_tests::testbench_swift_scenario
