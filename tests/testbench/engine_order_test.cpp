// SPDX-License-Identifier: MIT
// The engine's events per packet-hop: a packet that finds a switch port's link free is sent at
// once and its arrival at the next node is its hop's only event (no event for the end of its
// transmission); a host's NIC still has one, as its senders are pulled when it frees; a port
// with packets waiting gets one per transmission, at the time and order of the transmission's
// end.
#include <netcc/testbench/network.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>

namespace netcc_tests::testbench_engine_order {

namespace {

namespace tb = netcc::testbench;

std::unique_ptr<tb::sender_cc> fixed(netcc::bytes w) {
  return std::make_unique<tb::cc_model<tb::fixed_window>>("fixed", w);
}

constexpr tb::link_spec link{.rate = netcc::bit_rate{100'000'000'000},
                             .delay = netcc::duration{1000}};

// h0 - s1 - s2 - h1.
struct chain {
  tb::network net{{.seed = 1}};
  tb::node_id h0 = net.add_host(), h1 = net.add_host();
  tb::node_id s1 = net.add_switch(), s2 = net.add_switch();
  chain() {
    net.connect(h0, s1, link);
    net.connect(s1, s2, link);
    net.connect(s2, h1, link);
  }
};

TEST(EngineOrder, AHopThroughAnIdleSwitchPortIsOneEvent) {
  chain c;
  c.net.add_flow(
      {.src = c.h0, .dst = c.h1, .size = netcc::bytes{1000}, .cc = fixed(netcc::bytes{100'000})});
  c.net.run_until(netcc::timestamp{100'000});  // well before the retransmission timeout
  ASSERT_TRUE(c.net.stats(0).completed());
  // The data packet and its ACK cross three links each.
  EXPECT_EQ(c.net.packet_hops(), 6u);
  // The flow's start, one arrival per hop, and the end of each host NIC's transmission.
  EXPECT_EQ(c.net.events(), 1u + 6u + 2u);
}

TEST(EngineOrder, APacketThatReachesAPortAsItsTransmissionEndsWaitsForThatEnd) {
  chain c;
  // Ten full packets leave h0 back to back, so each after the first reaches s1 (and then s2)
  // at the very nanosecond the switch finishes sending the one before. It was sent before that
  // transmission started, so it comes first in the (time, order) sequence: the link is not
  // yet free, and the packet waits for the transmission's end, which becomes an event.
  c.net.add_flow({.src = c.h0,
                  .dst = c.h1,
                  .size = netcc::bytes{14'600},
                  .cc = fixed(netcc::bytes{1'000'000})});
  c.net.run_until(netcc::timestamp{100'000});
  ASSERT_TRUE(c.net.stats(0).completed());
  const std::uint64_t hops = c.net.packet_hops();
  EXPECT_EQ(hops, 10u * 3u + 10u * 3u);
  // The start; an arrival per hop; the end of every host transmission (10 data packets at h0,
  // 10 ACKs at h1); the end of each switch transmission a packet waited for (9 per switch).
  // The ACKs, 64 B a serialisation of 1500 B apart, find every link free.
  EXPECT_EQ(c.net.events(), 1u + hops + 20u + 2u * 9u);
}

TEST(EngineOrder, TwoPacketsArrivingTogetherAtOnePortCostOneEventMore) {
  // Two senders one link away from a switch send one packet each at the same time toward one
  // port of it: the second to arrive waits for the first's transmission to end, one event.
  tb::network net{{.seed = 1}};
  const tb::node_id a = net.add_host(), b = net.add_host(), d = net.add_host();
  const tb::node_id s = net.add_switch();
  net.connect(a, s, link);
  net.connect(b, s, link);
  net.connect(s, d, link);
  net.add_flow(
      {.src = a, .dst = d, .size = netcc::bytes{1460}, .cc = fixed(netcc::bytes{100'000})});
  net.add_flow(
      {.src = b, .dst = d, .size = netcc::bytes{1460}, .cc = fixed(netcc::bytes{100'000})});
  net.run_until(netcc::timestamp{100'000});
  ASSERT_TRUE(net.stats(0).completed());
  ASSERT_TRUE(net.stats(1).completed());
  EXPECT_EQ(net.packet_hops(), 8u);
  // Two starts, eight arrivals, four host NIC ends, and one for the packet that waited at s
  // (the two data packets reach it at the same time; the ACKs leave d one after the other).
  EXPECT_EQ(net.events(), 2u + 8u + 4u + 1u);
}

}  // namespace

}  // namespace netcc_tests::testbench_engine_order
