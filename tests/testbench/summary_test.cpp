// SPDX-License-Identifier: MIT
// The runner's summary of a run (netcc::testbench::run_summary): metrics that mean what they
// say, and say so when a scenario leaves them undefined (issue 20).
#include <netcc/testbench/controllers.hpp>
#include <netcc/testbench/scenario.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace netcc_tests::testbench_summary {

namespace tb = netcc::testbench;

namespace {

tb::run_summary run(const tb::scenario& s, const std::string& cc) {
  const auto c = tb::find_controller(cc);
  EXPECT_TRUE(c.has_value()) << cc;
  EXPECT_EQ(tb::check(s), "");
  tb::series ts;
  return tb::run_scenario(s, *c, ts);
}

// `fairness` shortened: four long flows join 200 us apart and leave 800 us after joining.
tb::scenario short_fairness() {
  tb::scenario s = tb::builtin_scenarios().at("fairness").second;
  s.long_start_gap_us = 200;
  s.long_stop_after_us = 800;
  s.duration_us = 1600;
  return s;
}

}  // namespace

// Jain's index is taken while the most long flows run together. Before, it was taken over the
// run's last quarter, which on `fairness` holds one flow and the tail of another: ~0.5 for
// every controller, equal fixed windows included.
TEST(Summary, JainIsOverTheFlowsRunningTogether) {
  const auto r = run(short_fairness(), "fixed-bdp");
  EXPECT_EQ(r.jain_flows, 4u);
  EXPECT_GT(r.jain, 0.95);  // four equal windows on one link share it equally
  EXPECT_DOUBLE_EQ(r.jain_from_us, 700);
  EXPECT_DOUBLE_EQ(r.jain_to_us, 800);
}

TEST(Summary, FairnessWindowIsTheLaterHalfOfTheMostConcurrentStretch) {
  using ts = netcc::timestamp;
  const ts end{8'000'000};
  std::vector<std::pair<ts, ts>> spans;
  for (int i = 0; i < 4; ++i) spans.emplace_back(ts{i * 1'000'000}, ts{i * 1'000'000 + 4'000'000});
  EXPECT_EQ(tb::fairness_window(spans, end), std::pair(ts{3'500'000}, ts{4'000'000}));
  // Every flow to the end: the run's last quarter.
  spans.assign(3, {ts{0}, ts::max()});
  EXPECT_EQ(tb::fairness_window(spans, end), std::pair(ts{6'000'000}, end));
  // Late joiners: the later half of the stretch after the last join, at most a quarter.
  spans = {{ts{0}, ts::max()}, {ts{7'000'000}, ts::max()}};
  EXPECT_EQ(tb::fairness_window(spans, end), std::pair(ts{7'500'000}, end));
}

// With no long flow, tail goodput and Jain's index are undefined (NaN; the runner prints
// "none"), not 0.00 Gbps and 1.0000. Before: 0 and 1.
TEST(Summary, NoLongFlowLeavesGoodputAndJainUndefined) {
  tb::scenario s = tb::builtin_scenarios().at("bolt-star").second;
  s.duration_us = 100;
  const auto r = run(s, "fixed-bdp");
  EXPECT_TRUE(std::isnan(r.tail_goodput_gbps));
  EXPECT_TRUE(std::isnan(r.jain));
  EXPECT_EQ(r.jain_flows, 0u);
}

// No completed finite flow and no finite flow at all are told apart: slowdowns are NaN in both
// (not 0.00) and finite_flows says which. Before: 0 in both cases.
TEST(Summary, SlowdownsAreUndefinedWithoutCompletionsAndSaySo) {
  tb::scenario none_done = tb::scenario{};  // incast of 500 kB flows at 500 us ...
  none_done.duration_us = 510;              // ... that cannot finish in 10 us
  const auto a = run(none_done, "fixed-bdp");
  EXPECT_EQ(a.finite_flows, 10u);
  EXPECT_EQ(a.completed, 0u);
  EXPECT_TRUE(std::isnan(a.mean_slowdown));
  EXPECT_TRUE(std::isnan(a.p99_slowdown));
  EXPECT_TRUE(std::isnan(a.max_slowdown));
  const auto b = run(short_fairness(), "fixed-bdp");
  EXPECT_EQ(b.finite_flows, 0u);
  EXPECT_TRUE(std::isnan(b.mean_slowdown));
  tb::scenario some = tb::scenario{};
  some.duration_us = 1500;
  const auto c = run(some, "fixed-bdp");
  EXPECT_EQ(c.completed, 10u);
  EXPECT_GE(c.mean_slowdown, 1.0);
}

// Bolt's SRC share is that of the monitored port's SRCs over that port's rate. Before, every
// switch's SRCs were divided by bottleneck_gbps (20.58% on websearch, where the SRCs come from
// every congested port of the leaf-spine).
TEST(Summary, BoltSrcShareIsThatOfTheBottleneckPort) {
  tb::scenario s = tb::builtin_scenarios().at("websearch").second;
  s.duration_us = 300;
  const auto r = run(s, "bolt");
  EXPECT_GT(r.srcs, 0u);
  EXPECT_LE(r.bottleneck_srcs, r.srcs);
  EXPECT_LE(r.bottleneck_src_gbps, r.src_gbps);
  EXPECT_DOUBLE_EQ(r.bottleneck_rate_gbps, s.host_gbps);  // the receiver's downlink
  EXPECT_DOUBLE_EQ(r.bottleneck_src_gbps,
                   static_cast<double>(r.bottleneck_srcs) * 64 * 8 / (s.duration_us * 1e-6) / 1e9);
}

// The header names the topology's size: a 1024-host leaf-spine is not "11 senders".
TEST(Summary, TopologyIsDescribedWithItsSize) {
  tb::scenario s = tb::builtin_scenarios().at("websearch").second;
  s.leaves = 32;
  s.hosts_per_leaf = 32;
  EXPECT_EQ(tb::describe_topology(s), "leafspine 32 leaves x 32 hosts, 2 spines (1024 hosts)");
  EXPECT_EQ(tb::describe_topology(tb::scenario{}), "star, 11 senders");
}

// A parking lot (chain of four switches, the middle link at 50 Gbps): a flow across every link
// and one on each link alone. The two flows on the 50 Gbps link share it, the others take the
// rest of their 100 Gbps links: about 25, 75, 25 and 75 Gbps (max-min fair), 200 in all.
TEST(Summary, ParkingLotLoadsTwoBottlenecks) {
  tb::scenario s;
  for (const auto& [k, v] :
       std::initializer_list<std::pair<const char*, const char*>>{{"topology", "chain"},
                                                                  {"chain_switches", "4"},
                                                                  {"chain_gbps", "100,50,100"},
                                                                  {"flows", "0>3,0>1,1>2,2>3"},
                                                                  {"long_flows", "0"},
                                                                  {"incast_flows", "0"},
                                                                  {"duration_us", "1000"}})
    ASSERT_EQ(tb::set_key(s, k, v), "") << k;
  const auto r = run(s, "fixed-bdp");
  EXPECT_EQ(r.jain_flows, 4u);
  EXPECT_NEAR(r.tail_goodput_gbps, 200, 20);
  EXPECT_NEAR(r.bottleneck_rate_gbps, 50, 1e-9);  // the monitored port is the slow link
  EXPECT_GT(r.utilisation, 0.9);
}

TEST(Summary, FlowsKeyNamesHostsAndRules) {
  tb::scenario s;
  EXPECT_NE(tb::set_key(s, "flows", "0-3").find("is not A>B or A>B@US"), std::string::npos);
  EXPECT_NE(tb::set_key(s, "flows", "2>2").find("two different hosts"), std::string::npos);
  EXPECT_NE(tb::set_key(s, "flows", "0>1,").find("ends with a comma"), std::string::npos);
  ASSERT_EQ(tb::set_key(s, "flows", "0>11@100"), "");
  EXPECT_EQ(tb::check(s), "");  // star of 11 senders: host 11 is the receiver
  ASSERT_EQ(tb::set_key(s, "flows", "0>12"), "");
  EXPECT_NE(tb::check(s).find("host 12 does not exist (topology = star has 12 hosts"),
            std::string::npos);
  EXPECT_NE(tb::set_key(s, "chain_gbps", "100,x").find("'x' is not a number"), std::string::npos);
}

}  // namespace netcc_tests::testbench_summary
