// SPDX-License-Identifier: MIT
// Reproduction: Bolt NSDI'23 §5.1.1 (Figure 10, a flow joins) and §5.1.2 (Figure 11, a flow
// completes) against HPCC and Swift, on netcc-sim's built-ins "bolt-join" and "bolt-finish"
// (docs/reproductions.md has the set-up, what differs and the numbers). Bottleneck throughput
// is taken in 4 us windows (half a base RTT, about 33 packets).
//
// Claims asserted (Figure 10): Bolt "starts decrementing cwnd before the queue occupancy
// reaches BDP": its peak queue after the join stays below one BDP (100 Gbps x 8 us = 100 kB)
// and below HPCC's; "HPCC's link utilization drops ... after draining the queue", Bolt's
// per-packet decisions avoid it: Bolt's lowest 4 us window after the join is above HPCC's.
// (Figure 11): after the flow completion Bolt takes the freed bandwidth faster than Swift's
// additive increase. Printed, not asserted (they do not reproduce, see the docs): the drain
// "in less than 2 RTTs" from the join, and Bolt's refill "in 1 us" ahead of HPCC's 20 us.
#include <netcc/testbench/controllers.hpp>
#include <netcc/testbench/scenario.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

namespace tb = netcc::testbench;

namespace {

struct measured {
  tb::run_summary r;
  double worst_gbps = 1e9;  // lowest 4 us window of bottleneck Gbps after `from`
  double refill_us = 0;     // from `from` until the 4 us windows stay at 90 Gbps or more
};

measured run(const std::string& scen, const std::string& cc, bool from_finish) {
  const auto all = tb::builtin_scenarios();
  const tb::scenario& s = all.at(scen).second;
  measured m;
  for (const auto& c : tb::controllers()) {
    if (c.name != cc) continue;
    tb::series ts;
    m.r = tb::run_scenario(s, c, ts);
    const double from = from_finish ? m.r.last_finish_us : s.long_start_gap_us;
    double sum = 0, n = 0, start = from;
    for (std::size_t i = 0; i < ts.t.size(); ++i) {
      const double t = static_cast<double>(ts.t[i].count()) / 1000.0;
      if (t < from) continue;
      if (t >= start + 4) {
        const double g = sum / n;
        m.worst_gbps = std::min(m.worst_gbps, g);
        if (g < 90) m.refill_us = start + 4 - from;
        start += 4;
        sum = n = 0;
      }
      sum += ts.columns[1][i];
      ++n;
    }
    std::printf(
        "%-9s %-7s peak %6.0f B, drain %5.1f us, lowest 4 us window %5.1f Gbps, at 90 Gbps "
        "or more from %5.1f us on\n",
        scen.c_str(), cc.c_str(), m.r.peak_queue, m.r.drain_us, m.worst_gbps, m.refill_us);
    return m;
  }
  ADD_FAILURE() << "no controller " << cc;
  return m;
}

}  // namespace

TEST(ReproBolt, FlowJoinsASaturatedLink) {
  const auto bolt = run("bolt-join", "bolt", false);
  const auto hpcc = run("bolt-join", "hpcc", false);
  (void)run("bolt-join", "swift", false);
  const double bdp = 100e9 / 8 * 8e-6;
  EXPECT_LT(bolt.r.peak_queue, bdp);
  EXPECT_LT(bolt.r.peak_queue, hpcc.r.peak_queue);
  EXPECT_GT(bolt.worst_gbps, hpcc.worst_gbps);
}

TEST(ReproBolt, FlowCompletes) {
  const auto bolt = run("bolt-finish", "bolt", true);
  (void)run("bolt-finish", "hpcc", true);
  const auto swift = run("bolt-finish", "swift", true);
  ASSERT_GT(bolt.r.last_finish_us, 0);
  EXPECT_LT(bolt.refill_us, swift.refill_us);
}
