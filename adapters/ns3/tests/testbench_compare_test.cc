// SPDX-License-Identifier: MIT
// netcc's controllers in stock ns-3 against the same controllers in netcc's own testbench, on
// netcc-sim's `incast` built the same way in both: a 100 Gbps star with 1 us links, a long flow
// from time 0 and ten 500 kB flows at 500 us onto one receiver, 3 ms, the controllers given the
// same host rate, base RTT and N = 10, and the switches running the same netcc functions (INT
// push at dequeue; DCQCN's RED/ECN; Bolt's ingress; FastTune's S-ACKs and ACK padding). PowerTCP
// and HPCC run over ns-3's TCP and over the rate transport; DCQCN, TIMELY, Bolt and FastTune
// over the rate transport.
//
// Margins, and why: peak queue within 15%, drain time within 25% (or 10 us), the long flow's
// goodput over the last quarter within 5% of the link. The two networks differ where ns-3 is
// ns-3: the incast flows open with a TCP handshake (one RTT later, less synchronised), a packet
// carries 2 more bytes of PPP header and ACKs are 42 B, and the egress queue is a queue disc
// above a one-packet device queue. These move the peak by a few packets per flow and the drain
// by a few RTTs; they do not change what the control laws do with the INT they read.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "netcc-ns3/scenario.h"
#include "testbench_side.h"

namespace {

ns3::NetccNs3Result RunInNs3(const std::string& typeId, const std::string& transport = "tcp",
                             const std::string& queue = "netcc") {
  ns3::NetccNs3Scenario s;
  s.topology = "incast";
  s.cc = typeId;
  s.transport = transport;
  s.rate = ns3::DataRate("100Gbps");
  s.delay = ns3::MicroSeconds(1);
  s.duration = ns3::MicroSeconds(3000);
  s.sample = ns3::MicroSeconds(1);
  s.queue = queue;
  if (queue == "netcc-red") {
    // DCQCN's switches in netcc-sim: RED/ECN with the seed's Table II (K_min 5 kB, K_max
    // 200 kB, P_max 1%), decided on the queue a packet leaves.
    s.kMin = 5'000;
    s.kMax = 200'000;
    s.pMax = 0.01;
    s.ecnAtDequeue = true;
  }
  s.expectedFlows = 10;
  ns3::NetccNs3DeriveDefaults(s);
  return ns3::RunNetccNs3Scenario(s);
}

void ExpectSameRun(const std::string& cc, const std::string& typeId,
                   const std::string& transport = "tcp", const std::string& queue = "netcc") {
  const auto tb = netcc_ns3_test::run_testbench_incast(cc);
  const auto n3 = RunInNs3(typeId, transport, queue);
  const std::string line =
      cc + ": testbench peak " + std::to_string(tb.peak_queue) + " B, drain " +
      std::to_string(tb.drain_us) + " us, tail " + std::to_string(tb.tail_gbps) +
      " Gbps; ns-3 peak " + std::to_string(n3.peakQueueBytes) + " B, drain " +
      std::to_string(n3.drainUs) + " us, tail " + std::to_string(n3.tailGoodputGbps) + " Gbps";
  std::printf("%s\n", line.c_str());
  SCOPED_TRACE(line);
  EXPECT_LE(std::abs(tb.peak_queue - n3.peakQueueBytes),
            0.15 * std::max(tb.peak_queue, n3.peakQueueBytes));
  ASSERT_GT(tb.drain_us, 0);
  ASSERT_GT(n3.drainUs, 0);
  EXPECT_LE(std::abs(tb.drain_us - n3.drainUs), std::max(10.0, 0.25 * tb.drain_us));
  EXPECT_NEAR(tb.tail_gbps, n3.tailGoodputGbps, 5.0);
  EXPECT_EQ(n3.drops, 0u);
}

TEST(Ns3AgainstTestbench, PowerTcpOnTheIncast) {
  ExpectSameRun("powertcp", "ns3::NetccPowerTcp");
}

TEST(Ns3AgainstTestbench, HpccOnTheIncast) {
  ExpectSameRun("hpcc", "ns3::NetccHpcc");
}

// The rate-based transport over UDP: DCQCN with CNPs from the receiver's notification point,
// TIMELY on per-packet RTTs, HPCC in its rate form, Bolt with SRCs from the switches.
TEST(Ns3AgainstTestbench, DcqcnOverTheRateTransport) {
  ExpectSameRun("dcqcn", "ns3::NetccDcqcn", "rate", "netcc-red");
}

TEST(Ns3AgainstTestbench, TimelyOverTheRateTransport) {
  ExpectSameRun("timely", "ns3::NetccTimely", "rate", "fifo");
}

TEST(Ns3AgainstTestbench, HpccOverTheRateTransport) {
  ExpectSameRun("hpcc", "ns3::NetccHpcc", "rate", "netcc");
}

TEST(Ns3AgainstTestbench, BoltOverTheRateTransport) {
  ExpectSameRun("bolt", "ns3::NetccBolt", "rate", "netcc-bolt");
}

TEST(Ns3AgainstTestbench, FastTuneOverTheRateTransport) {
  // FastTune's switches make S-ACKs and pad ACKs (ISPA'21 Algorithm 1) in both networks.
  ExpectSameRun("fasttune", "ns3::NetccFastTune", "rate", "netcc-fasttune");
}

TEST(Ns3AgainstTestbench, WithoutIntTheIntControllersCannotReact) {
  // The same run with plain FIFO ports (no INT pushed): the window never moves from its
  // initial value, so the queue drains only as the burst ends. The INT path is what the two
  // tests above measure.
  ns3::NetccNs3Scenario s;
  s.topology = "incast";
  s.cc = "ns3::NetccHpcc";
  s.rate = ns3::DataRate("100Gbps");
  s.duration = ns3::MicroSeconds(1500);
  s.sample = ns3::MicroSeconds(1);
  s.queue = "fifo";
  s.expectedFlows = 10;
  ns3::NetccNs3DeriveDefaults(s);
  const auto blind = ns3::RunNetccNs3Scenario(s);
  s.queue = "netcc";
  const auto seeing = ns3::RunNetccNs3Scenario(s);
  ASSERT_GT(blind.drainUs, 0);
  ASSERT_GT(seeing.drainUs, 0);
  EXPECT_LT(seeing.drainUs, 0.5 * blind.drainUs);
}

}  // namespace
