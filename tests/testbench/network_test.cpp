// SPDX-License-Identifier: MIT
#include <netcc/testbench/metrics.hpp>
#include <netcc/testbench/network.hpp>
#include <netcc/testbench/topology.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

namespace netcc_tests::testbench_network {

using namespace netcc::literals;
namespace tb = netcc::testbench;

namespace {

std::unique_ptr<tb::sender_cc> fixed(netcc::bytes w) {
  return std::make_unique<tb::cc_model<tb::fixed_window>>("fixed", w);
}

// Records the smallest RTT sample and the number of ACKs it is given.
class rtt_probe {
 public:
  explicit rtt_probe(netcc::bytes w) : w_(w) {}
  void on_ack(const netcc::ack_event& a) {
    min_rtt_ = std::min(min_rtt_, a.rtt);
    ++acks_;
    hops_ = a.hops.size();
    min_hops_ = std::min(min_hops_, a.hops.size());
  }
  [[nodiscard]] netcc::bytes cwnd() const { return w_; }
  netcc::bytes w_;
  netcc::duration min_rtt_ = netcc::duration::max();
  int acks_ = 0;
  std::size_t hops_ = 0;
  std::size_t min_hops_ = 99;
};

// A fixed window that asks for INC on every data packet and records the Bolt SRCs and INC
// echoes it gets back (the engine's Bolt switch path, without a Bolt sender).
class bolt_probe {
 public:
  explicit bolt_probe(netcc::bytes w) : w_(w) {}
  void on_send(const tb::send_info&, tb::packet& p) { p.inc = true; }
  void on_ack(const netcc::ack_event& a) { inc_acks_ += a.inc ? 1 : 0; }
  void on_src(const netcc::src_event& s) {
    ++srcs_;
    max_queue_ = std::max(max_queue_, s.queue);
    rate_ = s.link_rate;
    // The reflected TX timestamp is the data packet's send time (low 32 bits): the SRC
    // arrives after it, by no more than the run length.
    const auto now32 = static_cast<std::uint32_t>(s.now.count());
    max_src_rtt_ = std::max<std::uint32_t>(max_src_rtt_, now32 - s.tx_timestamp);
  }
  [[nodiscard]] netcc::bytes cwnd() const { return w_; }
  netcc::bytes w_;
  int srcs_ = 0, inc_acks_ = 0;
  netcc::bytes max_queue_{};
  netcc::bit_rate rate_{};
  std::uint32_t max_src_rtt_ = 0;
};

// Counts timer ticks (a controller with on_timer, such as DCQCN's reaction point).
class tick_counter {
 public:
  explicit tick_counter(netcc::bytes w) : w_(w) {}
  void on_ack(const netcc::ack_event&) noexcept {}
  void on_timer(netcc::timestamp now) {
    ++ticks_;
    if (now <= last_) ++non_increasing_;
    last_ = now;
  }
  [[nodiscard]] netcc::bytes cwnd() const { return w_; }
  netcc::bytes w_;
  int ticks_ = 0, non_increasing_ = 0;
  netcc::timestamp last_{};
};

// Counts FastTune S-ACKs and the INT hops on host ACKs and S-ACKs.
class sack_probe {
 public:
  explicit sack_probe(netcc::bytes w) : w_(w) {}
  void on_ack(const netcc::ack_event& a) {
    if (a.switch_ack) {
      ++sacks_;
      max_sack_hops_ = std::max(max_sack_hops_, a.hops.size());
      if (a.acked != netcc::bytes{0}) ++sacks_with_data_;
    } else {
      ++acks_;
      ack_hops_ = a.hops.size();
    }
  }
  [[nodiscard]] netcc::bytes cwnd() const { return w_; }
  netcc::bytes w_;
  int sacks_ = 0, acks_ = 0, sacks_with_data_ = 0;
  std::size_t max_sack_hops_ = 0, ack_hops_ = 0;
};

// Records CNP arrival times (a DCQCN reaction point's input).
class cnp_probe {
 public:
  explicit cnp_probe(netcc::bytes w) : w_(w) {}
  void on_ack(const netcc::ack_event&) noexcept {}
  void on_cnp(const netcc::cnp_event& e) { times_.push_back(e.now); }
  [[nodiscard]] netcc::bytes cwnd() const { return w_; }
  netcc::bytes w_;
  std::vector<netcc::timestamp> times_;
};

}  // namespace

TEST(Network, SingleFlowFctIsHandComputed) {
  // host -(100G, 1 us)- switch -(100G, 1 us)- host; 10 packets of 1460 B payload (1500 B wire,
  // 120 ns each), window large enough to send all at once. The 10th packet leaves the host at
  // 1200 ns, reaches the switch at 2200, leaves it at 2320 (no queue: packets arrive as fast as
  // they leave), arrives at 3320. Its 64-B ACK takes 6 ns (5.12 rounded up) per hop: 3326,
  // +1 us = 4326, +6 = 4332, +1 us = 5332 ns.
  tb::network net{{.sample_interval = netcc::duration{0}}};
  const auto a = net.add_host(), s = net.add_switch(), b = net.add_host();
  net.connect(a, s, {.rate = 100_Gbps, .delay = 1_us});
  net.connect(s, b, {.rate = 100_Gbps, .delay = 1_us});
  const auto f = net.add_flow({.src = a, .dst = b, .size = 14'600_B, .cc = fixed(1_MB)});
  net.run_until(netcc::timestamp{1'000'000});
  ASSERT_TRUE(net.stats(f).completed());
  EXPECT_EQ(net.stats(f).fct(), 5332_ns);
  EXPECT_EQ(net.stats(f).acked, 14'600_B);
  EXPECT_EQ(net.stats(f).timeouts, 0u);
  EXPECT_EQ(net.packet_hops(), 40u);  // 10 data + 10 ACKs, two hops each
}

TEST(Network, AckCarriesIntFromEverySwitchAndAnRttSample) {
  tb::network net{{.sample_interval = netcc::duration{0}}};
  const auto c = tb::make_chain(net, 3, {.rate = 100_Gbps, .delay = 1_us},
                                {{.rate = 100_Gbps, .delay = 2_us}});
  auto probe = std::make_unique<tb::cc_model<rtt_probe>>("probe", 1_MB);
  const auto* p = probe.get();
  net.add_flow({.src = c.hosts[0], .dst = c.hosts[2], .size = 1460_B, .cc = std::move(probe)});
  net.run_until(netcc::timestamp{1'000'000});
  EXPECT_EQ(p->controller().acks_, 1);
  EXPECT_EQ(p->controller().hops_, 3u);  // three switches on the path
  // RTT = data: 4 hops of 120 ns + 1+2+2+1 us; ACK: 4 hops of 6 ns + 6 us.
  EXPECT_EQ(p->controller().min_rtt_, netcc::duration{4 * 120 + 6000 + 4 * 6 + 6000});
}

TEST(Network, BufferOverflowDropsAndGoBackNRecovers) {
  // 4:1 incast with windows of 200 kB into a 100 kB buffer: drops, timeouts, then completion.
  tb::network net{{.rto = 200_us, .sample_interval = netcc::duration{0}}};
  const auto st = tb::make_star(net, 4, {.rate = 100_Gbps, .delay = 1_us},
                                {.rate = 100_Gbps, .delay = 1_us, .buffer = 100_KB});
  for (const auto h : st.senders)
    net.add_flow({.src = h, .dst = st.receiver, .size = 1_MB, .cc = fixed(200_KB)});
  net.run_until(netcc::timestamp{100'000'000});
  EXPECT_GT(net.port_stats_toward(st.sw, st.receiver).drops, 0u);
  std::uint64_t timeouts = 0;
  for (tb::flow_id f = 0; f < 4; ++f) {
    EXPECT_TRUE(net.stats(f).completed());
    timeouts += net.stats(f).timeouts;
  }
  EXPECT_GT(timeouts, 0u);
  EXPECT_LE(net.port_stats_toward(st.sw, st.receiver).max_queue, 100_KB);
}

TEST(Network, EcnMarksAboveThresholdAndNpSendsCnps) {
  tb::network net{{.sample_interval = netcc::duration{0}}};
  const auto st =
      tb::make_star(net, 2, {.rate = 100_Gbps, .delay = 1_us}, {.rate = 100_Gbps, .delay = 1_us},
                    {.ecn = true, .ecn_kmin = 20_KB, .ecn_kmax = 20_KB});
  for (const auto h : st.senders)
    net.add_flow({.src = h, .dst = st.receiver, .size = 2_MB, .cc = fixed(150_KB)});
  net.run_until(netcc::timestamp{10'000'000});
  EXPECT_GT(net.port_stats_toward(st.sw, st.receiver).ecn_marks, 0u);
  EXPECT_GT(net.stats(0).cnps + net.stats(1).cnps, 0u);
  // At most one CNP per flow per 50 us: the flows lasted at most ~400 us.
  EXPECT_LE(net.stats(0).cnps, 9u);
  // Marking at dequeue sees the queue a packet leaves behind: the same standing queue of
  // ~280 kB (two 150 kB windows less the BDP in flight) is marked there too.
  tb::network deq{{.sample_interval = netcc::duration{0}}};
  const auto st2 =
      tb::make_star(deq, 2, {.rate = 100_Gbps, .delay = 1_us}, {.rate = 100_Gbps, .delay = 1_us},
                    {.ecn = true, .ecn_kmin = 20_KB, .ecn_kmax = 20_KB, .ecn_at_dequeue = true});
  for (const auto h : st2.senders)
    deq.add_flow({.src = h, .dst = st2.receiver, .size = 2_MB, .cc = fixed(150_KB)});
  deq.run_until(netcc::timestamp{10'000'000});
  EXPECT_GT(deq.port_stats_toward(st2.sw, st2.receiver).ecn_marks, 0u);
  EXPECT_GT(deq.stats(0).cnps, 0u);
}

TEST(Network, BoltSwitchSendsSrcsWhenCongestedAndRationsInc) {
  // 2:1 incast, fixed windows of 60 kB each: the bottleneck queue passes CC_THRESH (one MTU),
  // so the switch sends SRCs (at most one per data packet, none before the queue builds) that
  // report the queue and the 100 Gbps link, and clears INC on the packets it sent SRCs for.
  tb::network net{{.sample_interval = netcc::duration{0}}};
  const auto st =
      tb::make_star(net, 2, {.rate = 100_Gbps, .delay = 1_us}, {.rate = 100_Gbps, .delay = 1_us},
                    {.int_push = false, .bolt = true});
  std::vector<const tb::cc_model<bolt_probe>*> probes;
  for (const auto h : st.senders) {
    auto m = std::make_unique<tb::cc_model<bolt_probe>>("bolt-probe", 60_KB);
    probes.push_back(m.get());
    net.add_flow({.src = h, .dst = st.receiver, .size = 300_KB, .cc = std::move(m)});
  }
  net.run_until(netcc::timestamp{2'000'000});
  const auto& ps = net.port_stats_toward(st.sw, st.receiver);
  int srcs = 0, inc_acks = 0;
  for (const auto* p : probes) {
    srcs += p->controller().srcs_;
    inc_acks += p->controller().inc_acks_;
    EXPECT_LE(p->controller().max_queue_, ps.max_queue);
    EXPECT_GT(p->controller().max_src_rtt_, 0u);
    EXPECT_LT(p->controller().max_src_rtt_, 2'000'000u);
    if (p->controller().srcs_ > 0) {
      EXPECT_EQ(p->controller().rate_, 100_Gbps);
    }
  }
  EXPECT_GT(srcs, 0);
  EXPECT_EQ(static_cast<std::uint64_t>(srcs), ps.srcs);  // every SRC reached its sender
  const int data_packets = 2 * (300'000 / 1460 + 1);
  EXPECT_LE(srcs, data_packets);
  // A packet that triggered an SRC lost its INC; so did any the supply could not pay for.
  EXPECT_LE(inc_acks + srcs, data_packets);
  EXPECT_TRUE(net.stats(0).completed());
  EXPECT_TRUE(net.stats(1).completed());
}

TEST(Network, PfcPausesUpstreamInsteadOfDropping) {
  // 4:1 incast, fixed windows of 200 kB into a 500 kB egress buffer: 800 kB cannot fit, so
  // without PFC packets are dropped. With X_off = 50 kB and X_on = 40 kB per ingress port
  // (500 and 400 B per Gbps at 100 Gbps), an ingress holds at most X_off plus what is in flight
  // during one link delay each way (2 us of 100 Gbps = 25 kB) and one packet: 4 * 76.5 kB fits.
  auto run = [](bool pfc) {
    auto net =
        std::make_unique<tb::network>(tb::network_config{.sample_interval = netcc::duration{0}});
    const auto st = tb::make_star(
        *net, 4, {.rate = 100_Gbps, .delay = 1_us},
        {.rate = 100_Gbps, .delay = 1_us, .buffer = 500_KB},
        {.int_push = false,
         .pfc = pfc,
         .pfc_cfg = {.x_off_per_gbps = netcc::bytes{500}, .x_on_per_gbps = netcc::bytes{400}}});
    for (const auto h : st.senders)
      net->add_flow({.src = h, .dst = st.receiver, .size = 2_MB, .cc = fixed(200_KB)});
    net->run_until(netcc::timestamp{5'000'000});
    return std::make_pair(std::move(net), st);
  };
  const auto [lossy, st0] = run(false);
  EXPECT_GT(lossy->port_stats_toward(st0.sw, st0.receiver).drops, 0u);
  const auto [lossless, st] = run(true);
  EXPECT_EQ(lossless->port_stats_toward(st.sw, st.receiver).drops, 0u);
  EXPECT_LE(lossless->port_stats_toward(st.sw, st.receiver).max_queue, 4 * 76'500_B);
  std::uint64_t pauses = 0;
  for (const auto h : st.senders) {
    pauses += lossless->port_stats_toward(st.sw, h).pauses;
    EXPECT_GT(lossless->port_stats_toward(h, st.sw).paused_time, netcc::duration::zero());
  }
  EXPECT_GT(pauses, 0u);
  for (netcc::testbench::flow_id f = 0; f < 4; ++f) {
    EXPECT_TRUE(lossless->stats(f).completed());
    EXPECT_EQ(lossless->stats(f).timeouts, 0u);
  }
}

TEST(Network, ApplicationWritesReopenAFlowAndItsTimer) {
  // One connection, bursts of 100 kB at 0, 300 and 600 us: each burst takes ~10 us at
  // 100 Gbps, so the flow is idle between them; it completes after the last one, with every
  // byte acknowledged once, and its 10 us timer runs only while it has data (one chain).
  tb::network net{{.sample_interval = netcc::duration{0}}};
  const auto a = net.add_host(), s = net.add_switch(), b = net.add_host();
  net.connect(a, s, {.rate = 100_Gbps, .delay = 1_us});
  net.connect(s, b, {.rate = 100_Gbps, .delay = 1_us});
  auto m = std::make_unique<tb::cc_model<tick_counter>>("ticks", 1_MB);
  m->set_tick(10_us);
  const auto* probe = m.get();
  const auto f = net.add_flow(
      {.src = a,
       .dst = b,
       .size = 100_KB,
       .writes = {{netcc::timestamp{300'000}, 100_KB}, {netcc::timestamp{600'000}, 100_KB}},
       .cc = std::move(m)});
  net.run_until(netcc::timestamp{2'000'000});
  ASSERT_TRUE(net.stats(f).completed());
  EXPECT_EQ(net.stats(f).acked, 300_KB);
  EXPECT_EQ(net.stats(f).size, 300_KB);
  EXPECT_GT(net.stats(f).finish, netcc::timestamp{600'000});
  EXPECT_LT(net.stats(f).finish, netcc::timestamp{650'000});
  // Three active periods of ~12 us: a handful of ticks, never two at one time.
  EXPECT_GE(probe->controller().ticks_, 3);
  EXPECT_LE(probe->controller().ticks_, 9);
  EXPECT_EQ(probe->controller().non_increasing_, 0);
}

TEST(Network, FastTuneSwitchesSendSacksInTheFirstRttAndPadAcks) {
  // Three FastTune switches in a chain, INT push off. Until the first ACK passes back through a
  // switch, each data packet makes it send an S-ACK (with one INT record, its own, padded by
  // the switches upstream); afterwards none. Every host ACK carries the padded INT of all three.
  tb::network net{{.sample_interval = netcc::duration{0}}};
  const auto c =
      tb::make_chain(net, 3, {.rate = 100_Gbps, .delay = 1_us}, {{.rate = 100_Gbps, .delay = 1_us}},
                     {.int_push = false, .fasttune = true});
  auto m = std::make_unique<tb::cc_model<sack_probe>>("sack", 1_MB);
  const auto* p = m.get();
  const auto f =
      net.add_flow({.src = c.hosts[0], .dst = c.hosts[2], .size = 500_KB, .cc = std::move(m)});
  net.run_until(netcc::timestamp{1'000'000});
  ASSERT_TRUE(net.stats(f).completed());
  const auto& pr = p->controller();
  EXPECT_GT(pr.sacks_, 0);
  EXPECT_EQ(pr.sacks_with_data_, 0);  // an S-ACK acknowledges no data
  EXPECT_LE(pr.max_sack_hops_, 3u);
  EXPECT_EQ(pr.ack_hops_, 3u);
  // The first RTT is about 8 us of propagation: at 100 Gbps at most ~70 packets leave in it,
  // and each of them yields at most one S-ACK per switch; the flow has 343 packets.
  EXPECT_LE(pr.sacks_, 3 * 80);
  EXPECT_EQ(pr.acks_, 343);
}

TEST(Network, DelayedAcksCoverEveryNPacketsTheEndOfDataAndATimer) {
  // Ten packets, an ACK every four: after packets 4 and 8, then at once for packet 10 (it ends
  // the data written so far): three ACKs, acknowledging everything.
  {
    tb::network net{{.sample_interval = netcc::duration{0}, .ack_every = 4}};
    const auto a = net.add_host(), s = net.add_switch(), b = net.add_host();
    net.connect(a, s, {.rate = 100_Gbps, .delay = 1_us});
    net.connect(s, b, {.rate = 100_Gbps, .delay = 1_us});
    auto probe = std::make_unique<tb::cc_model<rtt_probe>>("probe", 1_MB);
    const auto* p = probe.get();
    const auto f = net.add_flow({.src = a, .dst = b, .size = 14'600_B, .cc = std::move(probe)});
    net.run_until(netcc::timestamp{1'000'000});
    ASSERT_TRUE(net.stats(f).completed());
    EXPECT_EQ(p->controller().acks_, 3);
    EXPECT_EQ(net.stats(f).acked, 14'600_B);
  }
  // A window of three packets never lets four arrive unacknowledged: only the 10 us
  // delayed-ACK timer acknowledges them (without it the flow would stall until its 1 ms
  // retransmission timeout), and the flow keeps going without a timeout.
  {
    tb::network net{{.sample_interval = netcc::duration{0}, .ack_every = 4}};
    const auto a = net.add_host(), s = net.add_switch(), b = net.add_host();
    net.connect(a, s, {.rate = 100_Gbps, .delay = 1_us});
    net.connect(s, b, {.rate = 100_Gbps, .delay = 1_us});
    const auto f =
        net.add_flow({.src = a, .dst = b, .stop = netcc::timestamp{500'000}, .cc = fixed(4500_B)});
    net.run_until(netcc::timestamp{3'000'000});
    EXPECT_EQ(net.stats(f).timeouts, 0u);
    // One window per delayed-ACK period plus the round trip (10 + ~4.4 us): ~35 in 500 us.
    EXPECT_GE(net.stats(f).acked, 30 * 4380_B);
    EXPECT_EQ(net.stats(f).acked.count() % 1460, 0);
    EXPECT_EQ(net.bytes_in_network(), 0u);  // everything sent was delivered and acknowledged
  }
}

// Issue 20: ACKs the delayed-ACK timer releases (and those a CE change sends early) reflect the
// INT of the latest packet they cover, as ACKs sent at once do; without it an INT controller
// whose window holds fewer than ack_every packets sees no INT at all and stops adapting.
TEST(Network, DelayedAcksReflectInt) {
  for (const bool ecn : {false, true}) {
    tb::network net{{.sample_interval = netcc::duration{0}, .ack_every = 4}};
    const auto c = tb::make_chain(net, 3, {.rate = 100_Gbps, .delay = 1_us},
                                  {{.rate = 10_Gbps, .delay = 1_us}},
                                  {.ecn = ecn, .ecn_kmin = 3_KB, .ecn_kmax = 6_KB});
    auto probe = std::make_unique<tb::cc_model<rtt_probe>>("probe", 4380_B);  // 3 packets
    const auto* p = probe.get();
    net.add_flow({.src = c.hosts[0],
                  .dst = c.hosts[2],
                  .stop = netcc::timestamp{200'000},
                  .cc = std::move(probe)});
    net.run_until(netcc::timestamp{1'000'000});
    EXPECT_GE(p->controller().acks_, 8);
    EXPECT_EQ(p->controller().min_hops_, 3u) << "ecn " << ecn;  // every ACK: three switches
  }
}

// Records every INT stack its ACKs carry.
class int_recorder {
 public:
  explicit int_recorder(netcc::bytes w) : w_(w) {}
  void on_ack(const netcc::ack_event& a) { stacks_.push_back(a.hops); }
  [[nodiscard]] netcc::bytes cwnd() const { return w_; }
  netcc::bytes w_;
  std::vector<netcc::int_stack<>> stacks_;
};

// The engine keeps INT records compact in flight (testbench::compact_int_hop, 16 B) and in full
// when a record is out of the compact range: either way an ACK hands its controller the exact
// records the switches pushed. Host -(100G)- s1 -(100G)- s2 -(1 kbps)- host, three 1500-B
// packets sent at 0, 120 and 240 ns. Each leaves s1 at once (hop 0: 1120 + 120 k ns, an empty
// queue, compact); at s2 the slow link takes 12 s a packet, so packets 1 and 2 leave it 12 and
// 24 s after they were sent: their hop 1 is out of the compact range (2^32 ns), and their hop 0,
// already compact, moves to the full-width store with it.
TEST(Network, IntRecordsAreExactCompactOrInFull) {
  tb::network net{
      {.rto = netcc::duration{1'000'000'000'000}, .sample_interval = netcc::duration{0}}};
  const auto a = net.add_host(), s1 = net.add_switch(), s2 = net.add_switch(), b = net.add_host();
  const netcc::bit_rate slow{1000};
  net.connect(a, s1, {.rate = 100_Gbps, .delay = 1_us});
  net.connect(s1, s2, {.rate = 100_Gbps, .delay = 1_us});
  net.connect(s2, b, {.rate = slow, .delay = 1_us});
  auto probe = std::make_unique<tb::cc_model<int_recorder>>("recorder", 1_MB);
  const auto* p = probe.get();
  net.add_flow({.src = a, .dst = b, .size = 4380_B, .cc = std::move(probe)});
  net.run_until(netcc::timestamp{60'000'000'000});
  const auto& st = p->controller().stacks_;
  ASSERT_EQ(st.size(), 3u);
  constexpr std::uint64_t ser = 12'000'000'000;  // 1500 B at 1 kbps, ns
  for (std::uint64_t k = 0; k < 3; ++k) {
    SCOPED_TRACE(k);
    ASSERT_EQ(st[k].size(), 2u);
    EXPECT_EQ(st[k][0], (netcc::int_hop{.ts = 1120 + 120 * k,
                                        .qlen = netcc::bytes{0},
                                        .tx_bytes = 1500 * (k + 1),
                                        .link_rate = 100_Gbps}));
    // s2: packet 0 arrives at 2240 ns and leaves at once; the others wait for the one before.
    EXPECT_EQ(st[k][1].ts, 2240 + ser * k);
    EXPECT_EQ(st[k][1].tx_bytes, 1500 * (k + 1));
    EXPECT_EQ(st[k][1].link_rate, slow);
    EXPECT_EQ(st[k][1].qlen, netcc::bytes{k == 1 ? 1500 : 0});  // packet 2 waits behind 1
  }
}

// compact_int_hop: a record in range encodes and decodes to itself; one out of range is refused
// and leaves the target as it was.
RC_GTEST_PROP(Network, CompactIntHopIsExactInRangeAndRefusesTheRest, ()) {
  constexpr std::uint64_t u32 = std::uint64_t{1} << 32, u48 = std::uint64_t{1} << 48;
  // Values around a limit `lim` (below, at, above it) or anywhere.
  const auto near = [](std::uint64_t lim) {
    return rc::gen::oneOf(rc::gen::inRange<std::uint64_t>(0, 2 * lim + 2),
                          rc::gen::element<std::uint64_t>(0, lim - 1, lim, lim + 1),
                          rc::gen::arbitrary<std::uint64_t>());
  };
  const auto sent = *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 62);
  const std::uint64_t d = *near(u32);
  const auto q = *rc::gen::oneOf(
      rc::gen::inRange<std::int64_t>(-2, 2),
      rc::gen::map(near(u32), [](std::uint64_t v) { return static_cast<std::int64_t>(v >> 1); }),
      rc::gen::map(near(u32),
                   [](std::uint64_t v) { return static_cast<std::int64_t>(v & (u32 * 4 - 1)); }));
  const std::uint64_t tx = *near(u48);
  const auto ri = *rc::gen::arbitrary<std::uint16_t>();
  const netcc::int_hop h{
      .ts = static_cast<std::uint64_t>(sent) + d,
      .qlen = netcc::bytes{q},
      .tx_bytes = tx,
      .link_rate = netcc::bit_rate{*rc::gen::inRange<std::int64_t>(1, std::int64_t{1} << 50)}};
  const bool in_range = d < u32 && q >= 0 && static_cast<std::uint64_t>(q) < u32 && tx < u48 &&
                        ri != tb::compact_int_hop::no_rate;
  const tb::compact_int_hop before{.ts_rel = 7, .qlen = 8, .tx_rate = 9};
  tb::compact_int_hop c = before;
  RC_ASSERT(tb::compact_int_hop::encode(h, ri, netcc::timestamp{sent}, c) == in_range);
  if (in_range) {
    RC_ASSERT(c.rate_index() == ri);
    RC_ASSERT(c.decode(netcc::timestamp{sent}, h.link_rate) == h);
  } else {
    RC_ASSERT(c.ts_rel == before.ts_rel && c.qlen == before.qlen && c.tx_rate == before.tx_rate);
  }
}

// Issue 20: the sender's scheduler looks only at flows that may still send. A host that has
// run thousands of short flows (one after another, each done before the next starts) examines
// about one flow per send decision, not every flow it ever had: before, the work per event grew
// with the finished (and not yet started) flows, and a long run slowed down as it went.
TEST(Network, SchedulerWorkDoesNotGrowWithFinishedFlows) {
  tb::network net{{.sample_interval = netcc::duration{0}}};
  const auto a = net.add_host(), s = net.add_switch(), b = net.add_host();
  net.connect(a, s, {.rate = 100_Gbps, .delay = 1_us});
  net.connect(s, b, {.rate = 100_Gbps, .delay = 1_us});
  constexpr int n = 2000;
  for (int i = 0; i < n; ++i)
    net.add_flow({.src = a,
                  .dst = b,
                  .size = 2920_B,
                  .start = netcc::timestamp{std::int64_t{i} * 10'000},
                  .cc = fixed(1_MB)});
  net.run_until(netcc::timestamp{std::int64_t{n} * 10'000 + 100'000});
  for (tb::flow_id f = 0; f < n; ++f) ASSERT_TRUE(net.stats(f).completed());
  // Two data packets per flow; the scheduler runs on each start, ACK and idle NIC.
  EXPECT_LE(net.flow_visits(), std::uint64_t{10} * n);
}

// What a run holds: flows on the senders' lists and packets in the pool, counted before the
// flows start, while they send and after they finish.
TEST(Network, ActiveFlowsAndPacketsHeldFollowTheRun) {
  tb::network net{{.sample_interval = netcc::duration{0}}};
  const auto a = net.add_host(), s = net.add_switch(), b = net.add_host();
  net.connect(a, s, {.rate = 100_Gbps, .delay = 1_us});
  net.connect(s, b, {.rate = 100_Gbps, .delay = 1_us});
  for (int i = 0; i < 3; ++i)
    net.add_flow(
        {.src = a, .dst = b, .size = 1_MB, .start = netcc::timestamp{10'000}, .cc = fixed(50_KB)});
  net.run_until(netcc::timestamp{5'000});
  EXPECT_EQ(net.active_flows(), 0u);
  EXPECT_EQ(net.packets_held(), 0u);
  net.run_until(netcc::timestamp{30'000});
  EXPECT_EQ(net.active_flows(), 3u);
  // Windows of 50 kB, about 35 packets each, are in flight or queued.
  EXPECT_GT(net.packets_held(), 30u);
  net.run_until(netcc::timestamp{2'000'000});
  for (tb::flow_id f = 0; f < 3; ++f) ASSERT_TRUE(net.stats(f).completed());
  EXPECT_EQ(net.active_flows(), 0u);
  EXPECT_EQ(net.packets_held(), 0u);
}

TEST(Network, NotificationPointSpacesCnpsBySuppressingOrScheduling) {
  // Two flows of fixed 150 kB windows over a 20 kB ECN step: CE marks on most packets. The NP
  // (netcc::dcqcn_np_on_packet) sends at most one CNP per flow per 50 us; in the seed's
  // spacing mode it schedules one at the end of each gap instead of dropping it, so it sends
  // at least as many, still at least 50 us apart (the CNP path adds the same delay to each).
  auto run = [](netcc::dcqcn_np_mode mode) {
    tb::network net{{.cnp_mode = mode, .sample_interval = netcc::duration{0}}};
    const auto st =
        tb::make_star(net, 2, {.rate = 100_Gbps, .delay = 1_us}, {.rate = 100_Gbps, .delay = 1_us},
                      {.ecn = true, .ecn_kmin = 20_KB, .ecn_kmax = 20_KB});
    for (const auto h : st.senders) {
      net.add_flow({.src = h,
                    .dst = st.receiver,
                    .size = 4_MB,
                    .cc = std::make_unique<tb::cc_model<cnp_probe>>("cnp", 150_KB)});
    }
    net.run_until(netcc::timestamp{5'000'000});
    std::vector<std::vector<netcc::timestamp>> per_flow;
    for (tb::flow_id f = 0; f < 2; ++f)
      per_flow.push_back(
          dynamic_cast<const tb::cc_model<cnp_probe>&>(net.controller(f)).controller().times_);
    return per_flow;
  };
  const auto suppress = run(netcc::dcqcn_np_mode::suppress);
  const auto spaced = run(netcc::dcqcn_np_mode::schedule);
  for (std::size_t f = 0; f < 2; ++f) {
    EXPECT_GT(suppress[f].size(), 5u);
    EXPECT_GE(spaced[f].size(), suppress[f].size());
    for (const auto* v : {&suppress[f], &spaced[f]})
      for (std::size_t i = 1; i < v->size(); ++i) EXPECT_GE((*v)[i] - (*v)[i - 1], 50_us);
  }
}

TEST(Network, TimeSeriesAndMetrics) {
  tb::network net{{.sample_interval = 10_us}};
  const auto d = tb::make_dumbbell(net, 2, {.rate = 100_Gbps, .delay = 1_us},
                                   {.rate = 100_Gbps, .delay = 1_us});
  // RTT ~6 us, BDP ~75 kB: two 60-kB windows keep the bottleneck busy.
  for (int i = 0; i < 2; ++i)
    net.add_flow({.src = d.senders[i], .dst = d.receivers[i], .cc = fixed(60_KB)});
  net.monitor_queue(d.left, d.right, "bottleneck");
  net.monitor_flow(0, "f0");
  net.monitor_flow(1, "f1");
  net.run_until(netcc::timestamp{500'000});
  const auto& ts = net.time_series();
  ASSERT_EQ(ts.columns.size(), 7u);
  EXPECT_EQ(ts.t.size(), 51u);
  // Equal windows on equal paths: equal goodput, and together they fill the bottleneck.
  // Mean goodput over the last 20 samples (one sample holds whole packets only).
  auto mean_tail = [](const std::vector<double>& c) {
    double m = 0;
    for (std::size_t i = c.size() - 20; i < c.size(); ++i) m += c[i] / 20;
    return m;
  };
  const double g0 = mean_tail(ts.columns[3]), g1 = mean_tail(ts.columns[6]);
  EXPECT_NEAR(tb::jain_index({g0, g1}), 1.0, 1e-3);
  EXPECT_NEAR(g0 + g1, 100.0 * 1460 / 1500, 2.0);
  EXPECT_DOUBLE_EQ(tb::percentile({3, 1, 2, 4}, 50), 3);
  EXPECT_NEAR(tb::jain_index({1, 1, 0.5}), 2.5 * 2.5 / (3 * 2.25), 1e-12);
}

namespace {

struct scenario_result {
  std::vector<tb::flow_stats> flows;
  std::uint64_t hops, events;
  std::vector<double> last_row;
};

// A random small incast: 1..6 senders, random sizes, windows, buffers and delays.
scenario_result run_random(tb::network& net, std::uint64_t seed) {
  std::mt19937_64 r(seed);
  const int n = 1 + static_cast<int>(r() % 6);
  const auto st = tb::make_star(
      net, static_cast<std::size_t>(n),
      {.rate = netcc::bit_rate{static_cast<std::int64_t>(10 + r() % 91) * 1'000'000'000},
       .delay = netcc::duration{static_cast<std::int64_t>(100 + r() % 3000)}},
      {.rate = 100_Gbps,
       .delay = 1_us,
       .buffer = netcc::bytes{static_cast<std::int64_t>(3000 + r() % 200'000)}},
      {.ecn = (r() & 1) != 0, .ecn_kmin = 10_KB, .ecn_kmax = 50_KB});
  for (const auto h : st.senders) {
    net.add_flow({.src = h,
                  .dst = st.receiver,
                  .size = netcc::bytes{static_cast<std::int64_t>(1 + r() % 300'000)},
                  .start = netcc::timestamp{static_cast<std::int64_t>(r() % 20'000)},
                  .cc = fixed(netcc::bytes{static_cast<std::int64_t>(1500 + r() % 100'000)})});
  }
  net.monitor_queue(st.sw, st.receiver, "q");
  net.run_until(netcc::timestamp{static_cast<std::int64_t>(50'000 + r() % 2'000'000)});
  scenario_result out{{}, net.packet_hops(), net.events(), {}};
  for (tb::flow_id f = 0; f < net.flow_count(); ++f) out.flows.push_back(net.stats(f));
  for (const auto& c : net.time_series().columns) out.last_row.push_back(c.empty() ? -1 : c.back());
  return out;
}

}  // namespace

RC_GTEST_PROP(Network, BytesAreConservedAndBuffersRespected, (std::uint64_t seed)) {
  tb::network net{{.seed = seed, .rto = 100_us, .sample_interval = 5_us}};
  run_random(net, seed);
  // injected = delivered + dropped + in flight (queued or on a wire)
  RC_ASSERT(net.bytes_injected() ==
            net.bytes_delivered() + net.bytes_dropped() + net.bytes_in_network());
  for (const auto& [node, peer, st, buffer] : net.ports()) RC_ASSERT(st.max_queue <= buffer);
  // FIFO per port on a single-path topology: without drops nothing arrives out of order.
  if (net.bytes_dropped() == 0) RC_ASSERT(net.out_of_order() == 0u);
  for (tb::flow_id f = 0; f < net.flow_count(); ++f) {
    const auto& s = net.stats(f);
    RC_ASSERT(s.acked <= s.size);
    if (s.completed()) RC_ASSERT(s.acked == s.size);
  }
}

RC_GTEST_PROP(Network, NoPacketBeatsPropagationPlusSerialisation, ()) {
  const auto delay = *rc::gen::inRange<std::int64_t>(1, 5000);
  const auto gbps = *rc::gen::inRange<std::int64_t>(1, 401);
  tb::network net{{.sample_interval = netcc::duration{0}}};
  const auto st = tb::make_star(
      net, 2, {.rate = netcc::bit_rate{gbps * 1'000'000'000}, .delay = netcc::duration{delay}},
      {.rate = netcc::bit_rate{gbps * 1'000'000'000}, .delay = netcc::duration{delay}});
  auto probe = std::make_unique<tb::cc_model<rtt_probe>>("probe", 64_KB);
  const auto* p = probe.get();
  net.add_flow({.src = st.senders[0], .dst = st.receiver, .size = 200_KB, .cc = std::move(probe)});
  net.add_flow({.src = st.senders[1], .dst = st.receiver, .size = 200_KB, .cc = fixed(64_KB)});
  net.run_until(netcc::timestamp{100'000'000});
  const netcc::bit_rate r{gbps * 1'000'000'000};
  // The smallest data packet is 41 B (one payload byte): a floor for any sample.
  const netcc::duration floor = 2 * (41_B / r) + 2 * (64_B / r) + netcc::duration{4 * delay};
  RC_ASSERT(p->controller().acks_ > 0);
  RC_ASSERT(p->controller().min_rtt_ >= floor);
}

RC_GTEST_PROP(Network, SameSeedSameResult, (std::uint64_t seed)) {
  tb::network a{{.seed = seed, .rto = 100_us, .sample_interval = 5_us}};
  tb::network b{{.seed = seed, .rto = 100_us, .sample_interval = 5_us}};
  const auto ra = run_random(a, seed), rb = run_random(b, seed);
  RC_ASSERT(ra.hops == rb.hops && ra.events == rb.events);
  RC_ASSERT(ra.last_row == rb.last_row);
  RC_ASSERT(ra.flows.size() == rb.flows.size());
  for (std::size_t i = 0; i < ra.flows.size(); ++i) {
    RC_ASSERT(ra.flows[i].finish == rb.flows[i].finish);
    RC_ASSERT(ra.flows[i].sent == rb.flows[i].sent);
  }
}

// Issue 20: routing state is linear in the nodes. Switches route toward the destination's
// edge switch, so a 64 x 256-host leaf-spine (16,512 nodes) holds a few bytes of routes per
// node, and four times the leaves take about four times the memory. Before, each switch held
// a list toward every node (128 x 16,512 lists, ~340 MB here; 16 x the memory for 4 x leaves).
TEST(Network, RoutingStateIsLinearInNodes) {
  const auto memory = [](std::size_t leaves) {
    tb::network net{{.seed = 1}};
    const tb::link_spec l{.rate = 100_Gbps, .delay = netcc::duration{1000}};
    const auto t = tb::make_leaf_spine(net, leaves, 64, 256, l, l);
    net.add_flow({.src = t.hosts[0][0],
                  .dst = t.hosts[leaves - 1][255],
                  .size = netcc::bytes{100'000},
                  .cc = fixed(netcc::bytes{30'000})});
    net.run_until(netcc::timestamp{100'000});
    EXPECT_TRUE(net.stats(0).completed());
    EXPECT_FALSE(net.over_memory_limit());
    return std::pair{net.memory_bytes(), leaves * 256 + leaves + 64};
  };
  const auto [small, small_nodes] = memory(16);
  const auto [big, big_nodes] = memory(64);
  EXPECT_LT(big, std::uint64_t{2048} * big_nodes);  // bytes per node, ports and packets included
  EXPECT_LT(static_cast<double>(big) / static_cast<double>(small),
            1.25 * static_cast<double>(big_nodes) / static_cast<double>(small_nodes));
}

// Past network_config::memory_limit the engine stops early and says so; under it nothing
// changes (the same run without a limit gives the same result).
TEST(Network, MemoryLimitStopsARunThatQueuesTooMuch) {
  auto build = [](std::uint64_t limit) {
    auto net = std::make_unique<tb::network>(tb::network_config{.seed = 1, .memory_limit = limit});
    const tb::link_spec edge{
        .rate = 100_Gbps, .delay = netcc::duration{1000}, .buffer = netcc::bytes{10'000'000'000}};
    tb::link_spec slow = edge;
    slow.rate = netcc::bit_rate{1'000'000'000};
    const auto st = tb::make_star(*net, 200, edge, slow);
    for (const auto h : st.senders)
      net->add_flow({.src = h,
                     .dst = st.receiver,
                     .size = netcc::bytes{1'000'000},
                     .cc = fixed(netcc::bytes{400'000})});
    return net;
  };
  // 200 windows of 400 kB queue ~53,000 packets at the slow link within 200 us: well past 2 MiB
  // of pool at the engine's packet size.
  constexpr std::uint64_t cap = std::uint64_t{2} << 20;
  auto capped = build(cap);
  capped->run_until(netcc::timestamp{200'000});
  EXPECT_TRUE(capped->over_memory_limit());
  EXPECT_LT(capped->now(), netcc::timestamp{200'000});
  EXPECT_GT(capped->memory_bytes(), cap);
  auto roomy = build(std::uint64_t{1} << 30);
  auto free = build(0);
  roomy->run_until(netcc::timestamp{50'000});
  free->run_until(netcc::timestamp{50'000});
  EXPECT_FALSE(roomy->over_memory_limit());
  EXPECT_EQ(roomy->bytes_delivered(), free->bytes_delivered());
  EXPECT_EQ(roomy->events(), free->events());
}

// A k-ary fat-tree (k = 4: 16 hosts, 4 pods, 4 cores) routes between every pair of hosts, over
// paths of two, four or six links (same ToR, same pod, other pod), and ECMP spreads flows
// between pods over the cores; the tiers keep their own rates.
TEST(Network, FatTreeRoutesEveryPairOverShortestPaths) {
  tb::network net{{.sample_interval = netcc::duration{0}}};
  const auto shape = tb::fat_tree_shape::k_ary(4);
  EXPECT_EQ(shape.hosts(), 16u);
  EXPECT_EQ(shape.switches(), 20u);
  EXPECT_EQ(shape.links(), 16u + 16u + 16u);
  const auto t =
      tb::make_fat_tree(net, shape, {.rate = 25_Gbps, .delay = 1_us},
                        {.rate = 100_Gbps, .delay = 1_us}, {.rate = 100_Gbps, .delay = 5_us});
  ASSERT_EQ(t.hosts.size(), 16u);
  std::vector<tb::flow_id> ids;
  for (std::size_t a = 0; a < 16; ++a)
    for (std::size_t b = 0; b < 16; ++b)
      if (a != b)
        ids.push_back(net.add_flow(
            {.src = t.hosts[a],
             .dst = t.hosts[b],
             .size = 1460_B,
             .start =
                 netcc::timestamp{std::int64_t{100'000} * static_cast<std::int64_t>(ids.size())},
             .cc = fixed(1_MB)}));  // one at a time: no queueing
  net.run_until(netcc::timestamp{30'000'000});
  std::size_t k = 0;
  for (std::size_t a = 0; a < 16; ++a) {
    for (std::size_t b = 0; b < 16; ++b) {
      if (a == b) continue;
      const auto& st = net.stats(ids[k++]);
      ASSERT_TRUE(st.completed()) << a << " -> " << b;
      // Propagation both ways: 2 us (same ToR), 4 us (same pod), 4 + 20 us (other pod).
      const std::int64_t prop = a / 2 == b / 2 ? 4'000 : (a / 4 == b / 4 ? 8'000 : 28'000);
      EXPECT_GE(st.fct().count(), prop) << a << " -> " << b;
      EXPECT_LT(st.fct().count(), prop + 2'000) << a << " -> " << b;
    }
  }
  // Every core carried some of the inter-pod flows.
  for (const auto c : t.cores) {
    std::uint64_t tx = 0;
    for (const auto& [node, peer, ps, buffer] : net.ports())
      if (node == c) tx += ps.tx_packets;
    EXPECT_GT(tx, 0u) << "core " << c;
  }
}

// Dynamic Thresholds (Choudhury-Hahne 1998): with a shared buffer B and alpha, one congested
// queue alone peaks at alpha / (1 + alpha) of B (T = alpha (B - Q), Q = T), and a second
// congested queue takes its share from it (each alpha / (1 + 2 alpha) of B); the switch never
// holds more than B. Per-port buffers (shared_buffer 0) are unchanged.
TEST(Network, SharedBufferSharesByDynamicThresholds) {
  const auto run = [](double alpha, int congested) {
    tb::network net{{.sample_interval = netcc::duration{0}}};
    const tb::switch_config sw{.shared_buffer = 300'000_B, .dt_alpha = alpha};
    const auto s = net.add_switch(sw);
    std::vector<netcc::testbench::node_id> rx;
    for (int i = 0; i < congested; ++i) {
      rx.push_back(net.add_host());
      net.connect(s, rx.back(), {.rate = 10_Gbps, .delay = 1_us});
      for (int k = 0; k < 2; ++k) {  // two 100 Gbps senders per receiver
        const auto h = net.add_host();
        net.connect(h, s, {.rate = 100_Gbps, .delay = 1_us});
        net.add_flow({.src = h, .dst = rx.back(), .cc = fixed(1_MB)});
      }
    }
    net.run_until(netcc::timestamp{500'000});
    std::vector<double> q;
    for (const auto r : rx)
      q.push_back(static_cast<double>(net.port_stats_toward(s, r).max_queue.count()));
    EXPECT_LE(net.buffer_held(s), 300'000_B);
    EXPECT_GT(net.drops(), 0u);
    return q;
  };
  for (const double alpha : {0.5, 1.0, 2.0}) {
    const auto one = run(alpha, 1);
    EXPECT_NEAR(one[0], alpha / (1 + alpha) * 300'000, 1600) << alpha;
    const auto two = run(alpha, 2);
    for (const double q : two) EXPECT_NEAR(q, alpha / (1 + 2 * alpha) * 300'000, 3200) << alpha;
  }
}

namespace {

// Records every RTT sample.
class rtt_recorder {
 public:
  explicit rtt_recorder(netcc::bytes w) : w_(w) {}
  void on_ack(const netcc::ack_event& a) { samples_.push_back(a.rtt.count()); }
  [[nodiscard]] netcc::bytes cwnd() const { return w_; }
  netcc::bytes w_;
  std::vector<std::int64_t> samples_;
};

// One flow with a window far below the BDP (no queue: every RTT the same) and the given noise.
std::vector<std::int64_t> noisy_rtts(tb::rtt_noise kind, std::int64_t ns, std::uint64_t seed) {
  tb::network net{{.seed = seed, .noise = kind, .rtt_noise_ns = netcc::duration{ns}}};
  const auto d = tb::make_dumbbell(net, 1, {.rate = 100_Gbps, .delay = 1_us},
                                   {.rate = 100_Gbps, .delay = 1_us}, {});
  net.add_flow({.src = d.senders[0],
                .dst = d.receivers[0],
                .cc = std::make_unique<tb::cc_model<rtt_recorder>>("rec", netcc::bytes{1460})});
  net.run_until(netcc::timestamp{2'000'000});
  return dynamic_cast<const tb::cc_model<rtt_recorder>&>(net.controller(0)).controller().samples_;
}

}  // namespace

// TIMELY Figure 12's noise: uniform stays within +-w of the noiseless RTT and spreads over it;
// normal has about the asked standard deviation; the samples are a function of the seed.
TEST(Network, RttNoiseIsUniformOrNormalPerSampleAndSeeded) {
  const auto clean = noisy_rtts(tb::rtt_noise::none, 5'000, 1);
  ASSERT_GT(clean.size(), 100u);
  const std::int64_t base = clean[1];
  for (std::size_t i = 1; i < clean.size(); ++i) ASSERT_EQ(clean[i], base);  // no queue
  const auto uni = noisy_rtts(tb::rtt_noise::uniform, 2'000, 1);
  ASSERT_EQ(uni.size(), clean.size());  // the packets' timing is unchanged
  std::int64_t lo = base, hi = base;
  for (std::size_t i = 1; i < uni.size(); ++i) {
    EXPECT_LE(std::abs(uni[i] - base), 2'000);
    lo = std::min(lo, uni[i]);
    hi = std::max(hi, uni[i]);
  }
  EXPECT_LT(lo, base - 1'500);
  EXPECT_GT(hi, base + 1'500);
  const auto norm = noisy_rtts(tb::rtt_noise::normal, 1'000, 1);
  double sum = 0, sq = 0;
  for (std::size_t i = 1; i < norm.size(); ++i) {
    const auto x = static_cast<double>(norm[i] - base);
    sum += x;
    sq += x * x;
  }
  const auto n = static_cast<double>(norm.size() - 1);
  EXPECT_NEAR(sum / n, 0.0, 150.0);
  EXPECT_NEAR(std::sqrt(sq / n - (sum / n) * (sum / n)), 1'000.0, 150.0);
  EXPECT_EQ(noisy_rtts(tb::rtt_noise::uniform, 2'000, 1), uni);
  EXPECT_NE(noisy_rtts(tb::rtt_noise::uniform, 2'000, 2), uni);
}

}  // namespace netcc_tests::testbench_network
