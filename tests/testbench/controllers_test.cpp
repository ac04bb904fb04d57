// SPDX-License-Identifier: MIT
// Basic behaviour of every controller the runner knows, on the engine: two long flows on a
// 100 Gbps dumbbell (the second joins after 500 us) must share the bottleneck fully and
// fairly once converged. Margins: utilisation above 90% and Jain's index above 0.9 over the
// last quarter of a 4 ms run (the bar; the measured values are in the closing notes).
#include <netcc/testbench/controllers.hpp>
#include <netcc/testbench/scenario.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace netcc_tests::testbench_controllers {

namespace tb = netcc::testbench;

namespace {

tb::scenario two_long_flows() {
  tb::scenario s;
  s.name = "two-flows";
  s.topology = "dumbbell";
  s.senders = 2;
  s.long_flows = 2;
  s.incast_flows = 0;
  s.long_start_gap_us = 500;
  s.duration_us = 4000;
  s.sample_ns = 10'000;
  s.expected_flows = 2;
  return s;
}

class EveryController : public ::testing::TestWithParam<std::string> {};

}  // namespace

TEST_P(EveryController, TwoLongFlowsShareADumbbellFullyAndFairly) {
  const auto s = two_long_flows();
  ASSERT_EQ(tb::check(s), "");
  const auto c = tb::find_controller(GetParam());
  ASSERT_TRUE(c.has_value()) << "no controller named " << GetParam();
  tb::series ts;
  const auto r = tb::run_scenario(s, *c, ts);
  std::printf("%s: %.2f Gbps, Jain %.4f, peak queue %.0f B\n", c->name.c_str(), r.tail_goodput_gbps,
              r.jain, r.peak_queue);
  EXPECT_GT(r.tail_goodput_gbps, 90.0) << c->name;
  EXPECT_GT(r.jain, 0.9) << c->name;
  EXPECT_EQ(r.drops, 0u) << c->name;
}

INSTANTIATE_TEST_SUITE_P(Runner, EveryController, ::testing::ValuesIn([] {
                           std::vector<std::string> names;
                           for (const auto& c : tb::controllers()) names.push_back(c.name);
                           return names;
                         }()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           std::string n = p.param;
                           for (char& ch : n)
                             if (ch == '-') ch = '_';
                           return n;
                         });

// Bolt's window moves one packet at a time (NSDI'23 Algorithm 2 lines 7, 11, 13: cwnd +- 1) and
// starts at one BDP of packets (§5.1.1). The engine counts a window in payload (sequence) bytes
// and a full packet carries mtu - header = 1460 B of it, so the runner's Bolt controller must
// step by 1460 B, not by the 1500-B MTU (which let 1.027 packets in per INC and started flows
// 1.8 packets above the BDP).
TEST(RunnerWiring, BoltWindowStepIsOneEnginePacket) {
  const tb::network_config net{};
  const netcc::bytes payload = net.mtu - net.header;
  const tb::cc_context ctx{.host_rate = netcc::bit_rate{100'000'000'000},
                           .base_rtt = netcc::duration{8'000},
                           .expected_flows = 2,
                           .mtu = net.mtu,
                           .bottleneck_rate = netcc::bit_rate{100'000'000'000}};
  const auto c = tb::find_controller("bolt");
  ASSERT_TRUE(c.has_value()) << "no controller named bolt";
  const auto cc = c->make(ctx);
  // One BDP = 100000 B = 66.67 packets of 1460 B payload each.
  EXPECT_EQ(cc->cwnd().count(), 100'000 * payload.count() / net.mtu.count());
  cc->on_ack({.ack_seq = 1460, .snd_nxt = 90'000});  // first ACK: the additive increase
  const netcc::bytes before = cc->cwnd();
  cc->on_ack({.ack_seq = 2920, .snd_nxt = 91'460, .inc = true});  // one INC
  EXPECT_EQ((cc->cwnd() - before).count(), payload.count());
}

// Lookup by name: every registered controller is found as registered, an unknown name is not.
TEST(RunnerWiring, FindControllerByName) {
  for (const auto& c : tb::controllers()) {
    const auto found = tb::find_controller(c.name);
    ASSERT_TRUE(found.has_value()) << c.name;
    EXPECT_EQ(found->name, c.name);
    EXPECT_EQ(found->description, c.description);
  }
  EXPECT_FALSE(tb::find_controller("nosuch").has_value());
  EXPECT_FALSE(tb::find_controller("").has_value());
}

// The base RTT the runner hands the controllers: propagation over the topology's longest path
// both ways plus a full packet and an ACK serialised per hop at the slower rate.
TEST(RunnerWiring, ScenarioBaseRtt) {
  tb::scenario s;  // star, 1 us links, 100 Gbps: 2 hops, 1500 B = 120 ns, 64 B = 5.12 -> 6 ns
  EXPECT_EQ(tb::scenario_base_rtt(s), netcc::duration{4 * 1000 + 2 * (120 + 6)});
  s.topology = "dumbbell";  // 3 hops
  EXPECT_EQ(tb::scenario_base_rtt(s), netcc::duration{6 * 1000 + 3 * (120 + 6)});
  s.topology = "leafspine";  // 4 hops with two leaves; at 25 Gbps hosts: 480 and 20.48 -> 21 ns
  s.leaves = 2;
  s.host_gbps = 25;
  EXPECT_EQ(tb::scenario_base_rtt(s), netcc::duration{8 * 1000 + 4 * (480 + 21)});
  s.leaves = 1;  // one leaf: 2 hops
  EXPECT_EQ(tb::scenario_base_rtt(s), netcc::duration{4 * 1000 + 2 * (480 + 21)});
}

}  // namespace netcc_tests::testbench_controllers
