// SPDX-License-Identifier: MIT
// Reproduction: TIMELY SIGCOMM'15 §6.1 (Table 1) and §4.4 (Figure 9), on netcc-sim's built-in
// scenario "timely-table1" (docs/reproductions.md has the set-up, what differs and the
// numbers). 40 connections onto a 20 Gbps bottleneck, one completion per 16 KB segment.
//
// Measured over the second half of the run: bottleneck throughput, and the mean and 99th
// percentile of the RTT a packet arriving at the bottleneck would see, base RTT + queue / C,
// from the queue sampled every microsecond.
//
// Claims (Figure 9, §4.4): the queue-target approach "can maintain either low latency or high
// throughput, but finds it hard to do both": a 50 us target keeps the RTT low, a 500 us target
// builds a standing queue up to it. Asserted: the 500 us target's mean RTT is above the 50 us
// target's and above 50 us; the 50 us target's 99th-percentile RTT is below 500 us.
// The gradient design's Table 1 figures (19.4 Gbps, 61 us mean, 116 us p99) do not reproduce
// here and are printed, not asserted: see docs/reproductions.md.
#include <netcc/control/timely.hpp>
#include <netcc/testbench/controllers.hpp>
#include <netcc/testbench/metrics.hpp>
#include <netcc/testbench/scenario.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace netcc_tests::testbench_repro_timely {

namespace tb = netcc::testbench;

namespace {

struct measured {
  double gbps = 0, mean_rtt_us = 0, p99_rtt_us = 0;
};

// TIMELY with T_low = T_high = target (§4.4's queue-target variant) or the defaults (target 0).
tb::cc_entry timely_entry(const std::string& name, netcc::duration target) {
  return {name, "TIMELY variant",
          [](tb::switch_config& sw, const tb::cc_context&) { sw.int_push = false; },
          [name, target](const tb::cc_context& c) -> std::unique_ptr<tb::sender_cc> {
            netcc::timely_params p{.min_rtt = c.base_rtt, .line_rate = c.host_rate};
            if (target > netcc::duration::zero()) p.t_low = p.t_high = target;
            return std::make_unique<tb::cc_model<netcc::timely>>(name, p);
          }};
}

measured measure(const tb::scenario& s, const tb::cc_entry& cc) {
  tb::series ts;
  (void)tb::run_scenario(s, cc, ts);
  // Base RTT as the runner computes it for a star: two links each way, one packet and one ACK
  // serialised per link at the slower rate (10 Gbps hosts).
  const double base_us = 4 * s.link_delay_ns / 1000.0 + 2 * (1500 + 64) * 8 / (s.host_gbps * 1e3);
  std::vector<double> rtts;
  double sum = 0, thr = 0;
  const std::size_t from = ts.t.size() / 2;
  for (std::size_t i = from; i < ts.t.size(); ++i) {
    const double rtt = base_us + ts.columns[0][i] * 8 / (s.bottleneck_gbps * 1e3);
    rtts.push_back(rtt);
    sum += rtt;
    thr += ts.columns[1][i];
  }
  measured m;
  const auto n = static_cast<double>(ts.t.size() - from);
  m.gbps = thr / n;
  m.mean_rtt_us = sum / n;
  m.p99_rtt_us = tb::percentile(rtts, 99);
  std::printf("%-18s %6.2f Gbps, RTT mean %7.1f us, p99 %7.1f us\n", cc.name.c_str(), m.gbps,
              m.mean_rtt_us, m.p99_rtt_us);
  return m;
}

}  // namespace

TEST(ReproTimely, Table1AndFigure9) {
  const auto all = tb::builtin_scenarios();
  const auto it = all.find("timely-table1");
  ASSERT_NE(it, all.end());
  const tb::scenario& s = it->second.second;
  ASSERT_EQ(tb::check(s), "");
  (void)measure(s, timely_entry("timely", netcc::duration::zero()));
  const auto low = measure(s, timely_entry("timely-target50", netcc::duration{50'000}));
  const auto high = measure(s, timely_entry("timely-target500", netcc::duration{500'000}));
  for (const auto& c : tb::controllers())
    if (c.name == "dctcp") (void)measure(s, c);

  EXPECT_GT(high.mean_rtt_us, low.mean_rtt_us);
  EXPECT_GT(high.mean_rtt_us, 50.0);
  EXPECT_LT(low.p99_rtt_us, 500.0);
}

}  // namespace netcc_tests::testbench_repro_timely
