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
  for (const auto& c : tb::controllers()) {
    if (c.name != GetParam()) continue;
    tb::series ts;
    const auto r = tb::run_scenario(s, c, ts);
    std::printf("%s: %.2f Gbps, Jain %.4f, peak queue %.0f B\n", c.name.c_str(),
                r.tail_goodput_gbps, r.jain, r.peak_queue);
    EXPECT_GT(r.tail_goodput_gbps, 90.0) << c.name;
    EXPECT_GT(r.jain, 0.9) << c.name;
    EXPECT_EQ(r.drops, 0u) << c.name;
    return;
  }
  FAIL() << "no controller named " << GetParam();
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
  for (const auto& c : tb::controllers()) {
    if (c.name != "bolt") continue;
    const auto cc = c.make(ctx);
    // One BDP = 100000 B = 66.67 packets of 1460 B payload each.
    EXPECT_EQ(cc->cwnd().count(), 100'000 * payload.count() / net.mtu.count());
    cc->on_ack({.ack_seq = 1460, .snd_nxt = 90'000});  // first ACK: the additive increase
    const netcc::bytes before = cc->cwnd();
    cc->on_ack({.ack_seq = 2920, .snd_nxt = 91'460, .inc = true});  // one INC
    EXPECT_EQ((cc->cwnd() - before).count(), payload.count());
    return;
  }
  FAIL() << "no controller named bolt";
}
