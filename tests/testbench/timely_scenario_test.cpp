// SPDX-License-Identifier: MIT
// TIMELY (netcc/control/timely.hpp) held to its paper in the testbench, at the §6 defaults
// (T_low = 50 us, T_high = 500 us, delta = 10 Mbps, beta = 0.8; minRTT 20 us, §5) on 10 Gbps
// links (§6 "All links are 10 Gbps"), 1 us per hop. TIMELY is rate-based: cc_model reads
// pacing_rate() (the testbench spaces a flow's packets at it) and finds no cwnd(), so no window
// limits the flow; every data packet goes through on_send (the §5 meter) and every ACK through
// on_ack, whose RTT (ACK arrival minus the start of the packet's serialisation at the sender)
// is a completion time: the §3.1 serialisation at line rate is subtracted.
//
// Incast (§6.1, scaled from 40 connections over 20 Gbps to 8 over 10 Gbps; fair share
// 1.25 Gbps), all flows starting together at the line rate (the paper gives no initial rate).
// The start-up overshoot (8 x 10 Gbps) is left behind in the first 20 ms; over the next 20 ms:
//   * every rate the controllers ever report lies in [min_rate, line_rate] (§5 cap and floor),
//     and on every real completion Algorithm 1's thresholds hold: RTT > T_high never raised
//     the flow's rate, RTT < T_low never lowered it (lines 5-10);
//   * the RTT cannot stay below T_low: there every completion adds delta (lines 5-7, scaled
//     by the §5 rule to delta per minRTT per flow while completions come less than a minRTT
//     apart), so the aggregate grows by N delta / minRTT = 4 Gbps per ms, exceeds C = 10 Gbps
//     within 2.5 ms and, growing on, queues T_low * C = 62.5 kB within another 0.5 ms
//     (Q = (N delta / minRTT) t^2 / 2): every 3 ms window holds an RTT of at least T_low
//     (check_reaches_t_low derives the window from the parameters);
//   * the RTT stays below T_high, the paper's bound on tolerable queueing (§4.3; §6.1 reports
//     a 99th percentile of 116 us at these thresholds);
//   * the link stays busy (§6.1: 19.5 of 20 Gbps; the bar is 90 % of the payload rate) with no
//     loss (§6.1 "No loss"), and the flows share it: Jain's index above §6.1's 0.953.
// Two flows on a dumbbell, the second joining 2 ms after the first, both at the line rate: the
// same laws with N = 2 (an 11 ms window for T_low), the link busy, the shares fair (both are
// driven by one RTT signal; §4.3: "Connections sending at a higher rate observe a stronger
// decrease in their rate, while the increase in rate remains same"). Here the gradient settles
// at zero over a standing queue between the thresholds (§4.3: "it is possible for the gradient
// to stay at zero while the queue remains at a high, fixed level"), which T_high bounds.
#include <netcc/control/timely.hpp>
#include <netcc/testbench/metrics.hpp>
#include <netcc/testbench/network.hpp>
#include <netcc/testbench/topology.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace netcc_tests::testbench_timely_scenario {

using namespace netcc::literals;
namespace tb = netcc::testbench;

namespace {

constexpr netcc::bit_rate line = 10_Gbps;
const netcc::timely_params params{.line_rate = line};

// The controller, recording each completion's RTT and checking lines 5-10 on it.
class recorded_timely {
 public:
  recorded_timely(const netcc::timely_params& p, netcc::timestamp watch)
      : watch_from(watch), cc_(p) {}
  void on_ack(const netcc::ack_event& a) {
    const netcc::bit_rate before = cc_.rate();
    cc_.on_ack(a);
    lo = std::min(lo, cc_.rate());
    hi = std::max(hi, cc_.rate());
    if (a.now >= watch_from) lo_watched = std::min(lo_watched, cc_.rate());
    // §3.1: the completion time less one packet's serialisation at the line rate.
    const auto& p = cc_.params();
    const netcc::duration rtt = netcc::timely_rtt(a.rtt, std::min(a.acked, p.segment), p.line_rate);
    if (a.acked <= netcc::bytes{0} || rtt <= netcc::duration::zero()) return;  // no completion
    EXPECT_EQ(cc_.prev_rtt(), rtt);
    samples.push_back({a.now, rtt});
    if (rtt > cc_.params().t_high && cc_.rate() > before) ++raised_above_t_high;
    if (rtt < cc_.params().t_low && cc_.rate() < before) ++lowered_below_t_low;
  }
  void on_send(netcc::bytes b, netcc::timestamp now) { cc_.on_send(b, now); }
  [[nodiscard]] netcc::bit_rate pacing_rate() const { return cc_.pacing_rate(); }
  [[nodiscard]] const netcc::timely& cc() const { return cc_; }

  struct sample {
    netcc::timestamp t;
    netcc::duration rtt;
  };
  std::vector<sample> samples;
  netcc::bit_rate lo = netcc::bit_rate::max(), hi = netcc::bit_rate::zero();
  netcc::timestamp watch_from;  // lo_watched: the lowest rate from watch_from on
  netcc::bit_rate lo_watched = netcc::bit_rate::max();
  int raised_above_t_high = 0;
  int lowered_below_t_low = 0;

 private:
  netcc::timely cc_;
};

using model = tb::cc_model<recorded_timely>;

const recorded_timely& cc_of(const tb::network& net, tb::flow_id f) {
  return dynamic_cast<const model&>(net.controller(f)).controller();
}

// RTT samples (us) of all flows from `from` on.
std::vector<double> rtts_after(const tb::network& net, netcc::timestamp from) {
  std::vector<double> v;
  for (tb::flow_id f = 0; f < net.flow_count(); ++f)
    for (const auto& s : cc_of(net, f).samples)
      if (s.t >= from) v.push_back(static_cast<double>(s.rtt.count()) / 1e3);
  return v;
}

void check_completion_laws(const tb::network& net) {
  for (tb::flow_id f = 0; f < net.flow_count(); ++f) {
    const auto& c = cc_of(net, f);
    EXPECT_FALSE(c.samples.empty()) << "flow " << f;
    EXPECT_EQ(c.raised_above_t_high, 0) << "flow " << f;
    EXPECT_EQ(c.lowered_below_t_low, 0) << "flow " << f;
    EXPECT_GE(c.lo, c.cc().params().min_rate) << "flow " << f;
    EXPECT_LE(c.hi, line) << "flow " << f;
  }
}

// Below T_low every completion adds delta * min(1, gap / minRTT) (lines 5-7 with the §5
// scale). While each flow's completions come less than a minRTT apart (its rate above one
// packet per minRTT, 1500 B / 20 us = 600 Mbps), that sums to delta per minRTT per flow, so
// with the RTT below T_low throughout, N flows' aggregate would exceed C within
// C / (N delta / minRTT) and then queue T_low * C within sqrt(2 T_low C / (N delta / minRTT)).
// Every window of that length must therefore hold a completion with an RTT of at least T_low.
void check_reaches_t_low(const tb::network& net, netcc::timestamp from, netcc::timestamp end,
                         const netcc::timely_params& p) {
  const double n = static_cast<double>(net.flow_count());
  const double c = static_cast<double>(line.bps());
  const double growth =
      n * static_cast<double>(p.delta.bps()) / netcc::to_seconds(p.min_rtt);  // bps/s
  const double secs = c / growth + std::sqrt(2 * netcc::to_seconds(p.t_low) * c / growth);
  const netcc::duration window{static_cast<std::int64_t>(std::ceil(secs * 1e9))};
  const netcc::bit_rate one_per_min_rtt = 1500_B / p.min_rtt;
  for (tb::flow_id f = 0; f < net.flow_count(); ++f)
    ASSERT_GE(cc_of(net, f).lo_watched, one_per_min_rtt) << "flow " << f;
  int windows = 0;
  for (netcc::timestamp w = from; w + window <= end; w += window, ++windows) {
    netcc::duration top{};
    for (tb::flow_id f = 0; f < net.flow_count(); ++f)
      for (const auto& s : cc_of(net, f).samples)
        if (s.t >= w && s.t < w + window) top = std::max(top, s.rtt);
    EXPECT_GE(top, p.t_low) << "window of " << window.count() << " ns from " << w.count();
  }
  EXPECT_GE(windows, 1);
}

}  // namespace

TEST(TimelyScenario, IncastKeepsRttBetweenThresholdsWithTheLinkBusy) {
  constexpr std::size_t n = 8;
  constexpr netcc::timestamp end{40'000'000}, from{20'000'000};
  tb::network net{{.sample_interval = netcc::duration{0}}};
  const auto st =
      tb::make_star(net, n, {.rate = line, .delay = 1_us}, {.rate = line, .delay = 1_us}, {});
  for (std::size_t i = 0; i < n; ++i)
    net.add_flow({.src = st.senders[i],
                  .dst = st.receiver,
                  .cc = std::make_unique<model>("timely", params, from)});
  net.run_until(from);
  std::vector<std::int64_t> acked_at_from;
  for (tb::flow_id f = 0; f < n; ++f) acked_at_from.push_back(net.stats(f).acked.count());
  net.run_until(end);

  check_completion_laws(net);
  EXPECT_EQ(net.drops(), 0u);
  std::vector<double> goodput;  // Gbps over [from, end)
  double total = 0;
  for (tb::flow_id f = 0; f < n; ++f) {
    goodput.push_back(static_cast<double>(net.stats(f).acked.count() - acked_at_from[f]) * 8 /
                      static_cast<double>((end - from).count()));
    total += goodput.back();
  }
  const double payload = line.gbps() * 1460 / 1500;
  const auto rtts = rtts_after(net, from);
  ASSERT_FALSE(rtts.empty());
  std::printf("incast: goodput %.2f of %.2f Gbps, Jain %.4f; RTT p50 %.1f, p99 %.1f, max %.1f us\n",
              total, payload, tb::jain_index(goodput), tb::percentile(rtts, 50),
              tb::percentile(rtts, 99), tb::percentile(rtts, 100));
  EXPECT_GT(total, 0.9 * payload);
  EXPECT_GT(tb::jain_index(goodput), 0.953);
  EXPECT_LT(tb::percentile(rtts, 100), 500.0);  // below T_high
  check_reaches_t_low(net, from, end, params);
}

namespace {

// Two flows through one 10 Gbps bottleneck with T_high = `t_high`: goodputs and RTTs over
// [40, 60) ms.
void two_flows(netcc::duration t_high) {
  constexpr netcc::timestamp end{60'000'000}, from{40'000'000};
  const netcc::timely_params p{.t_high = t_high, .line_rate = line};
  tb::network net{{.sample_interval = netcc::duration{0}}};
  const auto d =
      tb::make_dumbbell(net, 2, {.rate = line, .delay = 1_us}, {.rate = line, .delay = 1_us}, {});
  for (std::size_t i = 0; i < 2; ++i)
    net.add_flow({.src = d.senders[i],
                  .dst = d.receivers[i],
                  .start = netcc::timestamp{static_cast<std::int64_t>(i) * 2'000'000},
                  .cc = std::make_unique<model>("timely", p, from)});
  net.run_until(from);
  const std::int64_t a0 = net.stats(0).acked.count(), a1 = net.stats(1).acked.count();
  net.run_until(end);

  check_completion_laws(net);
  EXPECT_EQ(net.drops(), 0u);
  const double span = static_cast<double>((end - from).count());
  const double g0 = static_cast<double>(net.stats(0).acked.count() - a0) * 8 / span;
  const double g1 = static_cast<double>(net.stats(1).acked.count() - a1) * 8 / span;
  const double payload = line.gbps() * 1460 / 1500;
  const auto rtts = rtts_after(net, from);
  ASSERT_FALSE(rtts.empty());
  std::printf(
      "two flows, T_high %.0f us: goodput %.2f + %.2f of %.2f Gbps; RTT p50 %.1f, "
      "p99 %.1f, max %.1f us\n",
      static_cast<double>(t_high.count()) / 1e3, g0, g1, payload, tb::percentile(rtts, 50),
      tb::percentile(rtts, 99), tb::percentile(rtts, 100));
  EXPECT_GT(g0 + g1, 0.9 * payload);
  EXPECT_GT(tb::jain_index({g0, g1}), 0.953);
  EXPECT_LT(tb::percentile(rtts, 100), static_cast<double>(t_high.count()) / 1e3);
  check_reaches_t_low(net, from, end, p);
}

}  // namespace

TEST(TimelyScenario, TwoFlowsOnADumbbellShareBetweenThresholds) {
  two_flows(500_us);  // §6 default
}

}  // namespace netcc_tests::testbench_timely_scenario
