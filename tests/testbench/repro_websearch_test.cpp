// SPDX-License-Identifier: MIT
// Reproduction: PowerTCP NSDI'22 §4.2, Figure 6b (web search at 60% load), on netcc-sim's
// built-in scenario "websearch" (docs/reproductions.md has the set-up, what differs and the
// numbers). The paper reports 99.9th-percentile FCT slowdowns; with the few thousand flows a
// test can afford we compare 99th percentiles, as the issue that asks for this reproduction
// does.
//
// Claims asserted: PowerTCP's short flows (< 10 kB) finish with a lower 99th-percentile
// slowdown than TIMELY's and DCQCN's ("improves ... by 74% compared to TIMELY and DCQCN"); its
// long flows (> 1 MB) are not penalised: their 99th-percentile slowdown is within 10% of HPCC's
// or below it. Not reproduced, so printed only: "by 33% compared to HPCC" (HPCC's short flows
// do better here; docs/reproductions.md).
#include <netcc/testbench/controllers.hpp>
#include <netcc/testbench/scenario.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>

namespace netcc_tests::testbench_repro_websearch {

namespace tb = netcc::testbench;

TEST(ReproWebsearch, PowertcpShortensShortFlowTails) {
  const auto all = tb::builtin_scenarios();
  const auto it = all.find("websearch");
  ASSERT_NE(it, all.end());
  const tb::scenario& s = it->second.second;
  ASSERT_EQ(tb::check(s), "");
  std::map<std::string, tb::run_summary> r;
  for (const auto& c : tb::controllers()) {
    if (c.name != "powertcp" && c.name != "theta-powertcp" && c.name != "hpcc" &&
        c.name != "timely" && c.name != "dcqcn")
      continue;
    tb::series ts;
    r[c.name] = tb::run_scenario(s, c, ts);
    const auto& x = r[c.name];
    std::printf("%-15s p99 slowdown: short %7.2f (%zu flows), long %7.2f (%zu flows), all %7.2f\n",
                c.name.c_str(), x.p99_slowdown_short, x.short_flows, x.p99_slowdown_long,
                x.long_flows, x.p99_slowdown);
  }
  ASSERT_EQ(r.size(), 5u);
  const auto& p = r["powertcp"];
  ASSERT_GT(p.short_flows, 50u);
  ASSERT_GT(p.long_flows, 5u);
  EXPECT_LT(p.p99_slowdown_short, r["timely"].p99_slowdown_short);
  EXPECT_LT(p.p99_slowdown_short, r["dcqcn"].p99_slowdown_short);
  EXPECT_LE(p.p99_slowdown_long, 1.1 * r["hpcc"].p99_slowdown_long);
}

}  // namespace netcc_tests::testbench_repro_websearch
