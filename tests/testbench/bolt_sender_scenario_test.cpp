// SPDX-License-Identifier: MIT
// The Bolt sender (netcc/control/bolt_sender.hpp) with Bolt switches (netcc/fabric/bolt.hpp,
// switch_config::bolt) in the testbench, held to the behaviour the paper derives and reports
// in its micro-benchmarks (Bolt NSDI'23 §5.1), on its set-ups: a 100 Gbps dumbbell with two
// flows (§5.1.1, footnote 3) and a 100 Gbps star with 5 senders of 500 KB starting 15 us apart
// (§5.1.2). Every bound below comes from the algorithm's formulas, as each test's comment says:
//
// - Flow arrival (§5.1.1, Figure 10). A flow joining a saturated link at line rate with one BDP
//   of window can add at most that BDP of queue (the "RTT-based ideal scheme" reaches exactly
//   BDP and drains it in a second RTT); Bolt starts decrementing on SRCs within rtt_src < RTT,
//   so its peak stays below one BDP and the queue is back at CC_THRESH within 2 base RTTs of
//   crossing it.
// - Steady state (§3.1). Once converged, every SRC decrement removes one packet and the
//   decrements of all flows sum to the reported queue over one rtt_src (sum of reaction
//   factors = 1 at a saturated link), so the queue is held at CC_THRESH plus what arrives in one
//   feedback delay: at most one additive-increase packet per flow per RTT (Algorithm 2 line 13;
//   INC grants need a queue below CC_THRESH). Time-averaged queue <= CC_THRESH + N MTU. The
//   windows are moved one packet at a time, so their sum never falls more than N packets below
//   the BDP while the queue is empty: goodput >= (1 - N MTU / BDP) of the payload capacity,
//   and each flow's share is within N MTU / BDP of 1/N (the flows drain in proportion to their
//   rates, §3.1, up to the same packet granularity).
// - Flow completion (§3.2, §5.1.2, Figure 11). When one flow completes, the other has only
//   tokens (PRU from the finishing flow's LAST packets, supply-matching tokens from the freed
//   bandwidth, lines 10-11) and the per-RTT additive increase (lines 12-14) to grow; additive
//   increase alone needs (BDP - w) / MTU RTTs to reach one BDP. The remaining flow must get
//   there in fewer, and no later than the same senders without LAST marking (PRU off).
// - Star (§5.1.2, Table 1): every flow completes with no drop and no timeout; at most one SRC
//   per data packet (§3.1, the DEC flag); the bottleneck's utilisation over the whole transfer
//   is at least 1 - N MTU / BDP, and marking LAST (PRU on) does not lower it compared with the
//   same senders that never mark LAST (PRU off).
#include <netcc/control/bolt_sender.hpp>
#include <netcc/testbench/network.hpp>
#include <netcc/testbench/topology.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace netcc_tests::testbench_bolt_sender_scenario {

using namespace netcc::literals;
namespace tb = netcc::testbench;

namespace {

constexpr double mtu = 1500;      // wire bytes of a full data packet (1460 B payload + 40 B)
constexpr double payload = 1460;  // its payload

// The same sender that never marks LAST: PRU off (Table 1's "PRU OFF" column).
class bolt_without_last : public netcc::bolt_sender {
 public:
  using netcc::bolt_sender::bolt_sender;
  template <class Info, class Packet>
  void on_send(const Info& s, Packet& p) {
    netcc::bolt_sender::on_send(s, p);
    p.last = false;
  }
};

const tb::switch_config bolt_switch{.int_push = false, .bolt = true};

// Base RTT of a dumbbell (3 links each way) with one-way delay `d` per link at 100 Gbps: 1500-B
// data serialised in 120 ns per hop, 64-B ACKs in 6 ns (5.12 rounded up).
constexpr std::int64_t dumbbell_rtt_ns(std::int64_t d) {
  return 6 * d + 3 * 120 + 3 * 6;
}

}  // namespace

TEST(BoltScenario, FlowArrivalDrainsWithinTwoRttsAndHoldsANearZeroQueue) {
  // §5.1.1: 100 Gbps dumbbell, 1 us per link: base RTT 6378 ns, BDP = 79725 B.
  const std::int64_t rtt = dumbbell_rtt_ns(1000);
  const double bdp = 100e9 * static_cast<double>(rtt) * 1e-9 / 8;
  const double cc_thresh = static_cast<double>(bolt_switch.bolt_cfg.cc_thresh.count());
  constexpr int n = 2;
  tb::network net{{.seed = 1, .sample_interval = netcc::duration{100}}};
  const tb::link_spec link{.rate = 100_Gbps, .delay = 1_us};
  const auto d = tb::make_dumbbell(net, n, link, link, bolt_switch);
  const netcc::bolt_sender_params p{.host_rate = 100_Gbps, .base_rtt = netcc::duration{rtt}};
  constexpr std::int64_t join = 50'000;
  for (int i = 0; i < n; ++i)
    net.add_flow({.src = d.senders[static_cast<std::size_t>(i)],
                  .dst = d.receivers[static_cast<std::size_t>(i)],
                  .start = netcc::timestamp{i * join},
                  .cc = std::make_unique<tb::cc_model<netcc::bolt_sender>>("bolt", p)});
  net.monitor_queue(d.left, d.right, "bottleneck");

  // Arrival: from the join to 20 RTTs later.
  const std::int64_t settle = join + 20 * rtt;
  net.run_until(netcc::timestamp{settle});
  const auto& ts = net.time_series();
  double peak = 0;
  std::int64_t over = -1, back = -1;
  for (std::size_t k = 0; k < ts.t.size(); ++k) {
    if (ts.t[k].count() < join) continue;
    const double q = ts.columns[0][k];
    peak = std::max(peak, q);
    if (over < 0 && q > cc_thresh) over = ts.t[k].count();
    if (over >= 0 && back < 0 && q <= cc_thresh && q < peak) back = ts.t[k].count();
  }
  std::printf(
      "arrival: peak %.0f B (BDP %.0f B), above CC_THRESH from %lld to %lld ns (%.2f RTT)\n", peak,
      bdp, static_cast<long long>(over), static_cast<long long>(back),
      static_cast<double>(back - over) / static_cast<double>(rtt));
  ASSERT_GE(over, 0);  // the join does congest the link
  ASSERT_GE(back, 0);
  EXPECT_LT(peak, bdp);
  EXPECT_LT(back - over, 2 * rtt);

  // Steady state: 100 RTTs.
  const std::size_t from = ts.t.size();
  std::vector<std::int64_t> acked0;
  for (int i = 0; i < n; ++i)
    acked0.push_back(net.stats(static_cast<tb::flow_id>(i)).acked.count());
  const std::int64_t span = 100 * rtt;
  net.run_until(netcc::timestamp{settle + span});
  double qsum = 0;
  for (std::size_t k = from; k < ts.t.size(); ++k) qsum += ts.columns[0][k];
  const double qmean = qsum / static_cast<double>(ts.t.size() - from);
  double good = 0;
  std::vector<double> share;
  for (int i = 0; i < n; ++i) {
    const double b = static_cast<double>(net.stats(static_cast<tb::flow_id>(i)).acked.count() -
                                         acked0[static_cast<std::size_t>(i)]);
    good += b;
    share.push_back(b);
  }
  const double capacity = 100e9 / 8 * static_cast<double>(span) * 1e-9 * payload / mtu;
  const double util = good / capacity;
  std::printf("steady: mean queue %.0f B (bound %.0f B), utilisation %.4f (bound %.4f), shares",
              qmean, cc_thresh + n * mtu, util, 1 - n * mtu / bdp);
  for (double s : share) std::printf(" %.3f", s / good);
  std::printf("\n");
  EXPECT_LE(qmean, cc_thresh + n * mtu);
  EXPECT_GE(util, 1 - n * mtu / bdp);
  for (double s : share) EXPECT_NEAR(s / good, 1.0 / n, n * mtu / bdp);
  const auto& port = net.port_stats_toward(d.left, d.right);
  EXPECT_GT(port.srcs, 0u);
  EXPECT_EQ(port.drops, 0u);
  for (int i = 0; i < n; ++i) EXPECT_EQ(net.stats(static_cast<tb::flow_id>(i)).timeouts, 0u);
}

namespace {

struct completion_result {
  double w_at_completion = 0;  // remaining flow's window when the other completes, bytes
  double ramp_ns = -1;         // from the completion to the remaining flow's window >= BDP
  double bdp = 0;
  std::int64_t rtt = 0;
};

template <class C>
completion_result run_completion() {
  const std::int64_t rtt = dumbbell_rtt_ns(1000);
  tb::network net{{.seed = 1, .sample_interval = netcc::duration{100}}};
  const tb::link_spec link{.rate = 100_Gbps, .delay = 1_us};
  const auto d = tb::make_dumbbell(net, 2, link, link, bolt_switch);
  const netcc::bolt_sender_params p{.host_rate = 100_Gbps, .base_rtt = netcc::duration{rtt}};
  net.add_flow({.src = d.senders[0],
                .dst = d.receivers[0],
                .cc = std::make_unique<tb::cc_model<C>>("bolt", p)});
  net.add_flow({.src = d.senders[1],
                .dst = d.receivers[1],
                .size = 2_MB,
                .start = netcc::timestamp{50'000},
                .cc = std::make_unique<tb::cc_model<C>>("bolt", p)});
  net.monitor_flow(0, "remaining");
  net.run_until(netcc::timestamp{1'000'000});
  const auto& s1 = net.stats(1);
  EXPECT_TRUE(s1.completed());
  completion_result r;
  r.rtt = rtt;
  r.bdp = static_cast<double>((p.host_rate * p.base_rtt).count());
  const std::int64_t done = (s1.start + s1.fct()).count();
  const auto& ts = net.time_series();
  for (std::size_t k = 0; k < ts.t.size(); ++k) {
    if (ts.t[k].count() < done) {
      r.w_at_completion = ts.columns[0][k];
      continue;
    }
    if (ts.columns[0][k] >= r.bdp) {
      r.ramp_ns = static_cast<double>(ts.t[k].count() - done);
      break;
    }
  }
  EXPECT_EQ(net.port_stats_toward(d.left, d.right).drops, 0u);
  return r;
}

}  // namespace

TEST(BoltScenario, RemainingFlowRampsFasterThanAdditiveIncreaseAfterACompletion) {
  const completion_result on = run_completion<netcc::bolt_sender>();
  const completion_result off = run_completion<bolt_without_last>();
  const double ai_only = (on.bdp - on.w_at_completion) / mtu * static_cast<double>(on.rtt);
  std::printf(
      "completion: window %.0f B -> BDP %.0f B in %.0f ns (additive increase alone: %.0f "
      "ns); without LAST: %.0f B in %.0f ns\n",
      on.w_at_completion, on.bdp, on.ramp_ns, ai_only, off.w_at_completion, off.ramp_ns);
  ASSERT_GE(on.ramp_ns, 0);
  EXPECT_LT(on.w_at_completion, on.bdp);  // it did share the link before
  EXPECT_LT(on.ramp_ns, ai_only);
  EXPECT_LE(on.ramp_ns, off.ramp_ns);  // PRU tokens only add to the supply-matching ones
}

namespace {

struct star_result {
  double util = 0;
  std::uint64_t drops = 0, timeouts = 0, srcs = 0, data_packets = 0;
  bool all_done = true;
};

// §5.1.2: star, 100 Gbps, base RTT 5 us (1187 ns per link: 4 * 1187 + 2 * 120 + 2 * 6 = 5000 ns
// over the two hops), 5 senders x 500 KB, 15 us apart.
template <class C>
star_result run_star() {
  constexpr std::int64_t rtt = 4 * 1187 + 2 * 120 + 2 * 6;
  tb::network net{{.seed = 1}};
  const tb::link_spec link{.rate = 100_Gbps, .delay = netcc::duration{1187}};
  const auto st = tb::make_star(net, 5, link, link, bolt_switch);
  const netcc::bolt_sender_params p{.host_rate = 100_Gbps, .base_rtt = netcc::duration{rtt}};
  for (std::size_t i = 0; i < 5; ++i)
    net.add_flow({.src = st.senders[i],
                  .dst = st.receiver,
                  .size = 500_KB,
                  .start = netcc::timestamp{static_cast<std::int64_t>(i) * 15'000},
                  .cc = std::make_unique<tb::cc_model<C>>("bolt", p)});
  net.run_until(netcc::timestamp{2'000'000});
  star_result r;
  std::int64_t end = 0;
  for (tb::flow_id f = 0; f < 5; ++f) {
    const auto& s = net.stats(f);
    r.all_done = r.all_done && s.completed();
    r.timeouts += s.timeouts;
    if (s.completed()) end = std::max(end, (s.start + s.fct()).count());
  }
  const auto& port = net.port_stats_toward(st.sw, st.receiver);
  r.drops = port.drops;
  r.srcs = port.srcs;
  r.data_packets = port.tx_packets;  // the port toward the receiver carries data only
  // The transfer needs 5 * 500 KB of payload in 1500-B packets at 100 Gbps.
  const double ideal = 5 * 500e3 / payload * mtu * 8 / 100e9 * 1e9;
  r.util = ideal / static_cast<double>(end);
  return r;
}

}  // namespace

TEST(BoltScenario, StarTransfersAtHighUtilisationAndPruDoesNotHurt) {
  const star_result on = run_star<netcc::bolt_sender>();
  const star_result off = run_star<bolt_without_last>();
  const double bdp = 100e9 / 8 * 5000e-9;  // 62500 B
  std::printf("star: utilisation %.4f with PRU, %.4f without (bound %.4f); %llu SRCs\n", on.util,
              off.util, 1 - 5 * mtu / bdp, static_cast<unsigned long long>(on.srcs));
  EXPECT_TRUE(on.all_done);
  EXPECT_EQ(on.drops, 0u);
  EXPECT_EQ(on.timeouts, 0u);
  EXPECT_GT(on.srcs, 0u);
  EXPECT_LE(on.srcs, on.data_packets);  // §3.1: at most one SRC per data packet (DEC)
  EXPECT_GE(on.util, 1 - 5 * mtu / bdp);
  EXPECT_GE(on.util, off.util);
}

}  // namespace netcc_tests::testbench_bolt_sender_scenario
