// SPDX-License-Identifier: MIT
// Bolt sender (netcc/control/bolt_sender.hpp, NSDI'23 Algorithm 2, §3.2, §4.2, Swift's loss
// rules): defaults and validation; hand-computed examples per algorithm line, run for double and
// q32 (typed tests); the decisions the paper leaves open; RapidCheck properties: outputs finite
// and bounded for any event sequence (wrapped timestamps, zero link rate, zero queue included),
// at most one decrement per rtt_src / target_q and a decrement whenever one is due, INC gives
// exactly one packet, the per-RTT additive increase, the FIRST/LAST/INC marking laws against a
// model of the §4.2 counters, and q32 against double on the same events.
#include <netcc/control/bolt_sender.hpp>
#include <netcc/control/make.hpp>
#include <netcc/fabric/bolt_header.hpp>
#include <netcc/fabric/bolt_supply.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace netcc_tests::control_bolt_sender {

using namespace netcc::literals;

namespace {

using bolt_q32 = netcc::basic_bolt_sender<netcc::arith::q32>;
using clock32 = netcc::wrapping_clock<32>;

// An SRC arriving at `now` for a data packet sent `rtt_src` ns earlier (32-bit TX timestamp).
netcc::src_event src(std::int64_t now, std::int64_t rtt_src, std::int64_t queue,
                     netcc::bit_rate link) {
  return {
      .now = netcc::timestamp{now},
      .queue = netcc::bytes{queue},
      .link_rate = link,
      .tx_timestamp = static_cast<std::uint32_t>(clock32::encode(netcc::duration{now - rtt_src}))};
}

netcc::ack_event ack(netcc::sequence seq, netcc::sequence nxt, bool inc = false,
                     std::int64_t rtt = 0) {
  return {.ack_seq = seq, .snd_nxt = nxt, .rtt = netcc::duration{rtt}, .inc = inc};
}

template <class C>
double w(const C& cc) {
  return netcc::to_double(cc.window());
}

// A send descriptor as a stack would pass it (the testbench's send_info has the same fields).
struct send_view {
  netcc::timestamp now{};
  netcc::bytes payload{};
  netcc::bytes remaining{};
};

}  // namespace

// ---------------------------------------------------------------- defaults and validation

// An SRC whose reflected timestamp is a full 64-bit ns clock (any ClockTraits may be).
struct wide_clock_src {
  netcc::timestamp now;
  netcc::bytes queue;
  netcc::bit_rate link;
  std::uint64_t tx;
};

}  // namespace netcc_tests::control_bolt_sender

template <>
struct netcc::feedback_traits<netcc_tests::control_bolt_sender::wide_clock_src> {
  using wide_clock_src = netcc_tests::control_bolt_sender::wide_clock_src;
  using src_clock = netcc::wrapping_clock<64>;
  static constexpr netcc::timestamp now(const wide_clock_src& e) noexcept { return e.now; }
  static constexpr netcc::bytes queue_size(const wide_clock_src& e) noexcept { return e.queue; }
  static constexpr netcc::bit_rate link_rate(const wide_clock_src& e) noexcept { return e.link; }
  static constexpr std::uint64_t tx_timestamp(const wide_clock_src& e) noexcept { return e.tx; }
};

namespace netcc_tests::control_bolt_sender {

TEST(BoltSender, HugeSrcRttFromAWideClockIsDecidedExactly) {
  // rtt_src = 2^62 ns against a 1-B queue: line 6's interval is astronomically long, so the SRC
  // comes too soon in every policy (q32 decides it in wide integers: R U would pass 64 bits).
  const netcc::bolt_sender_params p{.mtu = netcc::bytes{4096}, .mss = netcc::bytes{4096}};
  bolt_q32 q{p};
  netcc::bolt_sender d{p};
  const std::int64_t now = (std::int64_t{1} << 62) + 1000;
  const wide_clock_src e{netcc::timestamp{now}, netcc::bytes{1}, netcc::bit_rate{100'000'000'000},
                         1000};
  q.on_src(e);
  d.on_src(e);
  EXPECT_EQ(d.last_branch(), netcc::bolt_branch::src_too_soon);
  EXPECT_EQ(q.last_branch(), netcc::bolt_branch::src_too_soon);
  EXPECT_EQ(q.cwnd(), d.cwnd());
}

TEST(BoltSender, DefaultsFromThePaper) {
  const netcc::bolt_sender_params p{};
  EXPECT_EQ(p.mtu, 1500_B);          // = netcc::bolt_params' MTU (switch side)
  EXPECT_EQ(p.host_rate, 100_Gbps);  // §5.1 dumbbell
  EXPECT_EQ(p.base_rtt, 8_us);       // §5.1 "8 us RTT at 100Gbps"
  EXPECT_EQ(p.min_cwnd, 10_B);       // 0.01 packet (file comment)
  EXPECT_DOUBLE_EQ(p.max_mdf, 0.5);  // Swift parameter, netcc's value
  EXPECT_EQ(p.retx_reset_threshold, 5u);
  EXPECT_TRUE(p.additive_increase);
  EXPECT_EQ(p.mtu, netcc::bolt_params{}.mtu);
  EXPECT_TRUE(netcc::validate(p).ok());

  const netcc::bolt_sender cc{};
  EXPECT_EQ(cc.cwnd(), 100'000_B);  // §5.1.1 one BDP: 100 Gbps * 8 us / 8 = 100000 B
  EXPECT_EQ(cc.bdp(), 100'000_B);
  EXPECT_EQ(cc.rtt(), 8_us);  // base_rtt until a sample
  EXPECT_EQ(cc.pacing_rate(), 100_Gbps);
  EXPECT_EQ(cc.flow_rate(), 100_Gbps);  // 100000 B / 8 us
  EXPECT_FALSE(cc.decremented());
  EXPECT_TRUE(cc.idle());
  EXPECT_EQ(cc.retransmit_count(), 0u);
  EXPECT_EQ(cc.pending(), 0_B);
  EXPECT_DOUBLE_EQ(netcc::to_double(cc.window_packets()), 100'000.0 / 1500);
}

TEST(BoltSender, ValidateNamesFieldValueAndRule) {
  const auto v = netcc::validate(netcc::bolt_sender_params{.mtu = 0_B,
                                                           .host_rate = 0_bps,
                                                           .base_rtt = netcc::duration{-1},
                                                           .cwnd_init = netcc::bytes{-5},
                                                           .min_cwnd = 0_B,
                                                           .max_mdf = 1.5,
                                                           .retx_reset_threshold = 0});
  const std::string s = v.to_string();
  EXPECT_NE(s.find("bolt_sender.mtu = 0 B: must be in [1, 65535] B"), std::string::npos) << s;
  EXPECT_NE(s.find("bolt_sender.host_rate = 0 bps: must be positive"), std::string::npos) << s;
  EXPECT_NE(s.find("bolt_sender.base_rtt = -1 ns: must be positive"), std::string::npos) << s;
  EXPECT_NE(s.find("bolt_sender.cwnd_init = -5 B: must be non-negative"), std::string::npos) << s;
  EXPECT_NE(s.find("bolt_sender.min_cwnd = 0 B: must be at least one byte"), std::string::npos)
      << s;
  EXPECT_NE(s.find("bolt_sender.max_mdf = 1.5: must be in [0, 1]"), std::string::npos) << s;
  EXPECT_NE(s.find("bolt_sender.retx_reset_threshold = 0: must be at least 1"), std::string::npos)
      << s;
  const auto v2 = netcc::validate(netcc::bolt_sender_params{
      .cwnd_init = 10_B, .min_cwnd = 100_B, .max_cwnd = netcc::bytes{std::int64_t{1} << 40}});
  EXPECT_TRUE(v2.names("bolt_sender.max_cwnd"));
  EXPECT_TRUE(v2.names("bolt_sender.cwnd_init"));
  EXPECT_NE(v2.to_string().find("must be at most 2147483647 B"), std::string::npos);
  EXPECT_TRUE(netcc::validate(netcc::bolt_sender_params{.min_cwnd = 3000_B, .max_cwnd = 2000_B})
                  .names("bolt_sender.max_cwnd"));
  EXPECT_TRUE(netcc::validate(netcc::bolt_sender_params{.max_mdf = std::nan("")})
                  .names("bolt_sender.max_mdf"));
  const auto v3 = netcc::validate(netcc::bolt_sender_params{.mtu = 1500_B, .mss = 1501_B});
  EXPECT_NE(v3.to_string().find("bolt_sender.mss = 1501 B: must be in [0, mtu] B"),
            std::string::npos)
      << v3.to_string();
  EXPECT_TRUE(
      netcc::validate(netcc::bolt_sender_params{.mss = netcc::bytes{-1}}).names("bolt_sender.mss"));
  EXPECT_TRUE(netcc::validate(netcc::bolt_sender_params{.mss = 1460_B}).ok());
}

TEST(BoltSender, InvalidParametersFallBack) {
  const netcc::bolt_sender cc{{.mtu = 0_B,
                               .mss = netcc::bytes{-7},
                               .host_rate = netcc::bit_rate{-1},
                               .base_rtt = netcc::duration{0},
                               .cwnd_init = netcc::bytes{-1},
                               .min_cwnd = netcc::bytes{-3},
                               .max_cwnd = netcc::bytes{std::int64_t{1} << 40},
                               .max_mdf = std::nan(""),
                               .retx_reset_threshold = 0}};
  const auto& p = cc.params();
  EXPECT_EQ(p.mtu, 1500_B);
  EXPECT_EQ(p.mss, 0_B);
  EXPECT_EQ(p.host_rate, 100_Gbps);
  EXPECT_EQ(p.base_rtt, 8_us);
  EXPECT_EQ(p.cwnd_init, 0_B);
  EXPECT_EQ(p.min_cwnd, 10_B);
  EXPECT_EQ(p.max_cwnd, netcc::bolt_sender_window_limit);
  EXPECT_DOUBLE_EQ(p.max_mdf, 0.5);
  EXPECT_EQ(p.retx_reset_threshold, 5u);
  EXPECT_EQ(cc.cwnd(), 100'000_B);
  EXPECT_TRUE(netcc::validate(p).ok());
  // max below min is raised to min; cwnd_init beyond the range is clamped.
  const netcc::bolt_sender c2{{.cwnd_init = 1_MB, .min_cwnd = 3000_B, .max_cwnd = 2000_B}};
  EXPECT_EQ(c2.params().max_cwnd, 3000_B);
  EXPECT_EQ(c2.cwnd(), 3000_B);
}

// ------------------------------------------------------- per algorithm line, both policies

template <class C>
class BoltLines : public ::testing::Test {};
using policies = ::testing::Types<netcc::bolt_sender, bolt_q32>;
TYPED_TEST_SUITE(BoltLines, policies);

// Set-up used below: cwnd_init = 101500 B so that after the first decrement cwnd = 100000 B,
// flow.rate = 100000 B / 8000 ns = 12.5 B/ns = 100 Gbps (= host_rate, not capped).
// Link 50 Gbps = 6.25 B/ns: reaction_factor = 2 (line 3). Queue 3000 B = 2 packets:
// target_q = 2 * 2 = 4 (lines 4-5). rtt_src = 2000 ns: interval = 2000 / 4 = 500 ns (line 6).
TYPED_TEST(BoltLines, HandleSrcLines2To8) {
  TypeParam cc{{.cwnd_init = 101'500_B}};
  cc.on_src(src(10'000, 2000, 3000, 50_Gbps));  // first SRC: no earlier decrement
  EXPECT_EQ(w(cc), 100'000.0);                  // line 7: cwnd - 1 packet
  EXPECT_TRUE(cc.decremented());
  EXPECT_EQ(cc.last_decrement(), netcc::timestamp{10'000});  // line 8
  EXPECT_EQ(cc.last_branch(), netcc::bolt_branch::src_decrement);
  cc.on_src(src(10'499, 2000, 3000, 50_Gbps));  // 499 < 500: too soon
  EXPECT_EQ(w(cc), 100'000.0);
  EXPECT_EQ(cc.last_branch(), netcc::bolt_branch::src_too_soon);
  EXPECT_EQ(cc.last_decrement(), netcc::timestamp{10'000});
  cc.on_src(src(10'500, 2000, 3000, 50_Gbps));  // 500 <= 500: due
  EXPECT_EQ(w(cc), 98'500.0);
  EXPECT_EQ(cc.last_decrement(), netcc::timestamp{10'500});
  // Now cwnd 98500: rate 12.3125 B/ns, factor 1.97, target_q 3.94, interval 507.6 ns.
  cc.on_src(src(11'007, 2000, 3000, 50_Gbps));  // 507 < 507.6
  EXPECT_EQ(w(cc), 98'500.0);
  cc.on_src(src(11'008, 2000, 3000, 50_Gbps));  // 508 >= 507.6
  EXPECT_EQ(w(cc), 97'000.0);
}

// Line 2 across the 32-bit wrap: the same schedule with the second SRC after now crossed 2^32 ns.
TYPED_TEST(BoltLines, RttSrcIsWrapSafe) {
  TypeParam cc{{.cwnd_init = 101'500_B}};
  const std::int64_t t0 = (std::int64_t{1} << 32) - 300;  // 300 ns before the wrap
  cc.on_src(src(t0, 2000, 3000, 50_Gbps));
  EXPECT_EQ(w(cc), 100'000.0);
  // now = 2^32 + 199 (raw 199), TX raw = 2^32 - 1801 + ...: rtt_src = 2000 across the wrap.
  const auto e = src(t0 + 499, 2000, 3000, 50_Gbps);
  EXPECT_LT(static_cast<std::uint32_t>(clock32::encode(e.now)), e.tx_timestamp);
  cc.on_src(e);  // 499 < 500
  EXPECT_EQ(w(cc), 100'000.0);
  cc.on_src(src(t0 + 500, 2000, 3000, 50_Gbps));
  EXPECT_EQ(w(cc), 98'500.0);
  // A timestamp far in the 64-bit past but equal modulo 2^32 gives the same rtt_src.
  TypeParam c2{{.cwnd_init = 101'500_B}};
  c2.on_src(src(t0, 2000, 3000, 50_Gbps));
  auto far = src(t0 + 500, 2000, 3000, 50_Gbps);
  far.now += netcc::duration{std::int64_t{7} << 32};
  c2.on_src(far);  // elapsed is 7 * 2^32 + 500 ns: due as well
  EXPECT_EQ(w(c2), 98'500.0);
}

// Line 3: flow.rate = min(cwnd / RTT, host_rate). cwnd 1 MB / 8 us = 125 B/ns = 1 Tbps, capped
// at 100 Gbps: factor = 1 on a 100 Gbps link (not 10). Queue 1500 B: target_q = 1; rtt_src
// 1000 ns: interval 1000 ns (uncapped it would be 100 ns).
TYPED_TEST(BoltLines, FlowRateIsCappedAtTheHostRate) {
  TypeParam cc{{.cwnd_init = 1_MB}};
  cc.on_src(src(0, 1000, 1500, 100_Gbps));
  EXPECT_EQ(w(cc), 998'500.0);
  EXPECT_EQ(cc.flow_rate(), 100_Gbps);
  cc.on_src(src(999, 1000, 1500, 100_Gbps));
  EXPECT_EQ(w(cc), 998'500.0);
  cc.on_src(src(1000, 1000, 1500, 100_Gbps));
  EXPECT_EQ(w(cc), 997'000.0);
}

// Line 3 with the RTT sample of an ACK: RTT 16 us halves flow.rate. cwnd 100000 B (AI off, no
// INC): rate 6.25 B/ns; link 50 Gbps: factor 1; queue 3000 B: target_q 2; rtt_src 2000: 1000 ns.
TYPED_TEST(BoltLines, FlowRateUsesTheLatestRttSample) {
  TypeParam cc{{.cwnd_init = 101'500_B, .additive_increase = false}};
  cc.on_src(src(0, 2000, 3000, 50_Gbps));
  cc.on_ack(ack(1500, 3000, false, 16'000));
  EXPECT_EQ(cc.rtt(), 16_us);
  EXPECT_EQ(w(cc), 100'000.0);
  cc.on_src(src(999, 2000, 3000, 50_Gbps));
  EXPECT_EQ(w(cc), 100'000.0);
  cc.on_src(src(1000, 2000, 3000, 50_Gbps));
  EXPECT_EQ(w(cc), 98'500.0);
  cc.on_ack(ack(1500, 3000, false, 0));  // no sample: the RTT stays
  EXPECT_EQ(cc.rtt(), 16_us);
  cc.on_ack(ack(1500, 3000, false, -5));
  EXPECT_EQ(cc.rtt(), 16_us);
}

// Lines 4-6 edge cases: target_q <= 0 divides by nothing and decrements nothing; a zero link
// rate gives reaction_factor 1; a negative rtt_src is no sample; a reordered SRC does nothing.
TYPED_TEST(BoltLines, EmptyQueueZeroRateNegativeRttAndReordering) {
  TypeParam cc{};
  cc.on_src(src(5000, 2000, 0, 100_Gbps));  // queue 0: target_q 0
  cc.on_src(src(5000, 2000, -3000, 100_Gbps));
  EXPECT_EQ(w(cc), 100'000.0);
  EXPECT_FALSE(cc.decremented());
  cc.on_src(src(5000, -1, 3000, 100_Gbps));  // TX timestamp 1 ns in the future
  EXPECT_FALSE(cc.decremented());
  // Zero link rate: factor 1, target_q = 3000 / 1500 = 2, rtt_src 2000: interval 1000.
  cc.on_src(src(5000, 2000, 3000, 0_bps));
  EXPECT_EQ(w(cc), 98'500.0);
  cc.on_src(src(5999, 2000, 3000, 0_bps));
  EXPECT_EQ(w(cc), 98'500.0);
  cc.on_src(src(6000, 2000, 3000, 0_bps));
  EXPECT_EQ(w(cc), 97'000.0);
  cc.on_src(src(5000, 0, 1'000'000, 0_bps));  // earlier than last_dec_time: reordered
  EXPECT_EQ(w(cc), 97'000.0);
  // rtt_src = 0: interval 0, due at once (also at the same instant).
  cc.on_src(src(6000, 0, 3000, 0_bps));
  EXPECT_EQ(w(cc), 95'500.0);
}

// Line 7 stops at min_cwnd; below one packet the sender paces at cwnd / RTT.
TYPED_TEST(BoltLines, DecrementStopsAtMinAndPacesBelowOnePacket) {
  TypeParam cc{{.cwnd_init = 3000_B}};
  for (int i = 0; i < 4; ++i) cc.on_src(src(10'000 * (i + 1), 0, 3000, 100_Gbps));
  EXPECT_EQ(cc.cwnd(), 10_B);
  EXPECT_EQ(cc.decrements(), 4u);  // the last two were clamped, but taken
  // 10 B per 8 us = 10 * 8e9 / 8000 = 10 Mbps: one 1500-B packet every 1.2 ms (RTT / cwnd =
  // 8 us / (10 / 1500) packet).
  EXPECT_EQ(cc.pacing_rate(), 10_Mbps);
  cc.on_ack(ack(0, 0, true));  // INC + first AI: 10 + 3000
  EXPECT_EQ(cc.cwnd(), 3010_B);
  EXPECT_EQ(cc.pacing_rate(), 100_Gbps);  // at least one packet: no pacing
}

// Line 6 cap: an interval beyond 2^30 ns never decrements. cwnd 15 B: rate 15 / 8000 =
// 0.001875 B/ns, factor on 100 Gbps 0.00015, queue 1 B: target_q 1e-7, rtt_src 2000 ns:
// interval 2e10 ns > 2^30, even an hour later.
TYPED_TEST(BoltLines, IntervalsBeyondTheCapNeverDecrement) {
  // Even the first SRC: cwnd 15 B from the start, same interval.
  TypeParam first{{.cwnd_init = 15_B}};
  first.on_src(src(0, 2000, 1, 100_Gbps));
  EXPECT_FALSE(first.decremented());
  first.on_src(src(10, 2000, 1500, 100_Gbps));  // target_q 1.5e-4: interval 1.33e7 ns < 2^30
  EXPECT_TRUE(first.decremented());
  EXPECT_EQ(first.decrements(), 1u);
  TypeParam cc{{.cwnd_init = 1515_B}};
  cc.on_src(src(0, 0, 1500, 100_Gbps));
  EXPECT_EQ(cc.cwnd(), 15_B);
  cc.on_ack(ack(0, 0, true));  // 15 + 1500 (INC) + 1500 (AI) = 3015
  cc.on_src(src(1, 0, 1500, 100_Gbps));
  cc.on_src(src(2, 0, 1500, 100_Gbps));
  EXPECT_EQ(cc.cwnd(), 15_B);
  cc.on_src(src(3'600'000'000'000, 2000, 1, 100_Gbps));
  EXPECT_EQ(cc.cwnd(), 15_B);
  EXPECT_EQ(cc.last_decrement(), netcc::timestamp{2});
}

// Lines 10-14: INC gives one packet; the first ACK starts an AI round (+1, mark = snd_nxt);
// the next AI needs the ACK of a packet sent at or after the mark (seq_no >= mark), i.e. a
// cumulative ACK beyond it: ack_seq = 90000 acknowledges the bytes before 90000, all sent before
// the increase; ack_seq = 91500 acknowledges the packet that starts at 90000.
TYPED_TEST(BoltLines, HandleAckLines10To14) {
  TypeParam cc{};
  cc.on_ack(ack(1500, 90'000));  // first ACK: AI, mark 90000
  EXPECT_EQ(w(cc), 101'500.0);
  EXPECT_EQ(cc.ai_mark(), 90'000u);
  cc.on_ack(ack(3000, 91'500, true));  // INC only
  EXPECT_EQ(w(cc), 103'000.0);
  cc.on_ack(ack(89'999, 120'000));  // before the mark: nothing
  EXPECT_EQ(w(cc), 103'000.0);
  cc.on_ack(ack(90'000, 120'000));  // the rest of the train in flight at the increase: nothing
  EXPECT_EQ(w(cc), 103'000.0);
  cc.on_ack(ack(91'500, 120'000, true));  // the packet sent at the mark: INC + AI
  EXPECT_EQ(w(cc), 106'000.0);
  EXPECT_EQ(cc.ai_mark(), 120'000u);
  cc.on_ack(ack(91'500, 120'000, true));  // a duplicate still reflects one packet's INC
  EXPECT_EQ(w(cc), 107'500.0);
  // Without the additive increase only INC moves the window.
  TypeParam na{{.additive_increase = false}};
  na.on_ack(ack(1500, 90'000));
  EXPECT_EQ(w(na), 100'000.0);
  na.on_ack(ack(1500, 90'000, true));
  EXPECT_EQ(w(na), 101'500.0);
  // max_cwnd caps both.
  TypeParam capped{{.cwnd_init = 100'000_B, .max_cwnd = 102'000_B}};
  capped.on_ack(ack(1500, 90'000, true));
  EXPECT_EQ(capped.cwnd(), 102'000_B);
}

// Algorithm 2 counts cwnd in packets. A window counted in payload bytes (mss 1460 of a 1500-B
// packet) moves by one packet's payload on each INC, SRC decrement and additive increase, starts
// at one BDP of packets (100000 / 1500 = 66.67 packets = 97333 B), and keeps target_q in wire
// packets: 3000 B of queue = 2 packets, as with the default step.
TYPED_TEST(BoltLines, WindowStepIsOnePacketOfPayloadWithAnMss) {
  TypeParam cc{{.mtu = 1500_B, .mss = 1460_B}};
  EXPECT_EQ(cc.cwnd(), 97'333_B);
  EXPECT_EQ(cc.bdp(), 97'333_B);
  cc.on_ack(ack(1460, 90'000));  // first ACK: AI
  EXPECT_EQ(cc.cwnd(), 98'793_B);
  cc.on_ack(ack(2920, 91'460, true));  // INC only
  EXPECT_EQ(cc.cwnd(), 100'253_B);
  // SRC: flow.rate = 100253 B / 8000 ns = 12.53 B/ns, capped at 12.5 (100 Gbps); link 50 Gbps:
  // reaction_factor 2; queue 3000 B = 2 MTUs: target_q 4; rtt_src 2000 ns: interval 500 ns.
  cc.on_src(src(10'000, 2000, 3000, 50_Gbps));
  EXPECT_EQ(cc.cwnd(), 98'793_B);  // line 7: one packet of payload
  // Now flow.rate = 98793 / 8000 = 12.349 B/ns, factor 1.976, target_q 3.952 (3000 B / 1500 B
  // = 2 packets; in 1460-B packets it would be 4.06, interval 492.6 ns): interval 506.1 ns.
  cc.on_src(src(10'499, 2000, 3000, 50_Gbps));
  EXPECT_EQ(cc.cwnd(), 98'793_B);
  cc.on_src(src(10'507, 2000, 3000, 50_Gbps));
  EXPECT_EQ(cc.cwnd(), 97'333_B);
  EXPECT_NEAR(netcc::to_double(cc.window_packets()), 97'333.0 / 1460, 1e-6);
  // mss = 0 is the default step (mtu); mss = mtu is the same window.
  TypeParam same{{.mtu = 1500_B, .mss = 1500_B}};
  EXPECT_EQ(same.cwnd(), 100'000_B);
  same.on_ack(ack(1500, 90'000, true));
  EXPECT_EQ(same.cwnd(), 103'000_B);
}

// The per-RTT marker compares sequence numbers modulo 2^64.
TYPED_TEST(BoltLines, AdditiveIncreaseAcrossTheSequenceWrap) {
  TypeParam cc{{.cwnd_init = 30'000_B}};
  const netcc::sequence top = std::numeric_limits<netcc::sequence>::max() - 999;
  cc.on_ack(ack(top, top + 3000));  // first ACK: AI; mark wraps to 2000
  EXPECT_EQ(w(cc), 31'500.0);
  EXPECT_EQ(cc.ai_mark(), 2000u);
  cc.on_ack(ack(top + 1500, top + 6000));  // 500: before the mark
  EXPECT_EQ(w(cc), 31'500.0);
  cc.on_ack(ack(top + 3000, top + 6000));  // 2000: at the mark, not beyond
  EXPECT_EQ(w(cc), 31'500.0);
  cc.on_ack(ack(top + 4500, top + 6000));  // 3500: beyond
  EXPECT_EQ(w(cc), 33'000.0);
}

// §3.2 / §4.2: INC always; FIRST while bytes sent since idle < cwnd; LAST while pending <
// cwnd for a burst longer than one BDP (100000 B).
TYPED_TEST(BoltLines, FirstLastAndIncMarking) {
  TypeParam cc{};
  cc.on_write(300'000_B);
  int first = 0, last = 0, first_last = -1, last_first = -1;
  for (int k = 1; k <= 200; ++k) {
    const auto m = cc.on_send(1500_B, netcc::timestamp{k});
    EXPECT_TRUE(m.inc);
    if (m.first) {
      ++first;
      first_last = k;
    }
    if (m.last) {
      ++last;
      if (last_first < 0) last_first = k;
    }
  }
  // FIRST: sent before packet k = 1500 (k - 1) < 100000 for k <= 67.
  EXPECT_EQ(first, 67);
  EXPECT_EQ(first_last, 67);
  // LAST: pending after packet k = 300000 - 1500 k < 100000 for k >= 134.
  EXPECT_EQ(last_first, 134);
  EXPECT_EQ(last, 67);
  EXPECT_EQ(cc.pending(), 0_B);
  EXPECT_EQ(cc.sent_since_idle(), 300'000_B);
  // A burst of exactly one BDP is not "longer than one BDP": no LAST.
  TypeParam bdp{};
  bdp.on_write(100'000_B);
  bool any_last = false, all_first = true;
  for (int k = 0; k < 67; ++k) {  // 66 * 1500 B + 1000 B
    const auto m = bdp.on_send(k < 66 ? 1500_B : 1000_B);
    any_last = any_last || m.last;
    all_first = all_first && m.first;
  }
  EXPECT_FALSE(any_last);
  EXPECT_TRUE(all_first);
}

// §4.2 idle periods: a write after everything was acknowledged restarts the bytes-sent counter
// (FIRST again); a write while data is still unacknowledged continues the burst.
TYPED_TEST(BoltLines, IdleResetsTheBytesSentCounter) {
  TypeParam cc{{.additive_increase = false}};
  cc.on_write(150'000_B);
  for (int k = 0; k < 100; ++k) cc.on_send(1500_B);
  EXPECT_FALSE(cc.idle());
  cc.on_ack(ack(100'000, 150'000));  // not all acknowledged
  EXPECT_FALSE(cc.idle());
  cc.on_write(3000_B);  // continues the burst
  EXPECT_EQ(cc.sent_since_idle(), 150'000_B);
  EXPECT_FALSE(cc.on_send(1500_B).first);
  cc.on_send(1500_B);
  cc.on_ack(ack(153'000, 153'000));  // everything acknowledged
  EXPECT_TRUE(cc.idle());
  cc.on_write(1500_B);
  EXPECT_EQ(cc.sent_since_idle(), 0_B);
  const auto m = cc.on_send(1500_B);
  EXPECT_TRUE(m.first);
  EXPECT_FALSE(m.last);  // a one-packet burst is below one BDP
  // A write that finds bytes still pending does not reset, even when all sent data is acked.
  TypeParam c2{};
  c2.on_write(3000_B);
  c2.on_send(1500_B);
  c2.on_ack(ack(1500, 1500));
  c2.on_write(1500_B);
  EXPECT_EQ(c2.sent_since_idle(), 1500_B);
  EXPECT_EQ(c2.pending(), 3000_B);
  // Non-positive writes and payloads count nothing.
  c2.on_write(netcc::bytes{-5});
  c2.on_send(netcc::bytes{-5});
  EXPECT_EQ(c2.pending(), 3000_B);
  EXPECT_EQ(c2.sent_since_idle(), 1500_B);
}

// The generic on_send: the descriptor's remaining + payload is the pending count; the packet
// gets the flags (here netcc::bolt_header, Listing 1).
TYPED_TEST(BoltLines, GenericOnSendMarksAStacksPacket) {
  TypeParam cc{};
  netcc::bolt_header h{.data = true};
  // A 300000-B flow: first packet, 298500 B remain after it.
  cc.on_send(send_view{.payload = 1500_B, .remaining = 298'500_B}, h);
  EXPECT_TRUE(h.first && h.inc && !h.last);
  EXPECT_EQ(cc.pending(), 298'500_B);
  for (int k = 2; k <= 134; ++k)
    cc.on_send(send_view{.payload = 1500_B, .remaining = netcc::bytes{300'000 - 1500 * k}}, h);
  EXPECT_TRUE(h.last && !h.first);  // packet 134 leaves 99000 < 100000
  // A go-back-N retransmission raises `remaining` again: taken as more to send, no reset.
  cc.on_send(send_view{.payload = 1500_B, .remaining = 150'000_B}, h);
  EXPECT_FALSE(h.last);
  EXPECT_EQ(cc.pending(), 150'000_B);
  EXPECT_EQ(cc.sent_since_idle(), 135 * 1500_B);
  // An unbounded flow (remaining = bytes::max()) is never LAST.
  TypeParam inf{};
  for (int k = 0; k < 10; ++k) {
    inf.on_send(send_view{.payload = 1500_B, .remaining = netcc::bytes::max()}, h);
    EXPECT_FALSE(h.last);
  }
}

// Swift Algorithm 1, as Bolt §3.1 keeps it: RTO cuts by (1 - max_mdf) once per RTT, resets to
// min_cwnd at RETX_RESET_THRESHOLD consecutive timeouts; fast recovery cuts once per RTT and
// resets the counter; every ACK resets it.
TYPED_TEST(BoltLines, SwiftLossAndTimeoutRules) {
  TypeParam cc{{.additive_increase = false}};
  cc.on_timeout(netcc::timestamp{1'000'000});  // retx 1: cut 100000 * 0.5
  EXPECT_EQ(w(cc), 50'000.0);
  EXPECT_EQ(cc.retransmit_count(), 1u);
  cc.on_timeout(netcc::timestamp{1'007'999});  // within one RTT (8 us): no cut
  EXPECT_EQ(w(cc), 50'000.0);
  cc.on_timeout(netcc::timestamp{1'008'000});  // one RTT later: cut
  EXPECT_EQ(w(cc), 25'000.0);
  cc.on_timeout(netcc::timestamp{1'100'000});  // retx 4
  EXPECT_EQ(w(cc), 12'500.0);
  cc.on_timeout(netcc::timestamp{1'100'001});  // retx 5 = threshold: min_cwnd
  EXPECT_EQ(cc.cwnd(), 10_B);
  EXPECT_EQ(cc.retransmit_count(), 5u);
  cc.on_ack(ack(0, 0));
  EXPECT_EQ(cc.retransmit_count(), 0u);

  TypeParam fr{{.additive_increase = false}};
  fr.on_timeout(netcc::timestamp{0});
  fr.on_loss(netcc::timestamp{7999});  // within one RTT of the timeout's cut: no cut
  EXPECT_EQ(w(fr), 50'000.0);
  EXPECT_EQ(fr.retransmit_count(), 0u);  // fast recovery resets the counter
  fr.on_loss(netcc::timestamp{8000});
  EXPECT_EQ(w(fr), 25'000.0);
  // The RTT of can_decrease is the latest sample.
  fr.on_ack(ack(0, 0, false, 20'000));
  fr.on_loss(netcc::timestamp{8000 + 19'999});
  EXPECT_EQ(w(fr), 25'000.0);
  fr.on_loss(netcc::timestamp{8000 + 20'000});
  EXPECT_EQ(w(fr), 12'500.0);
  // max_mdf = 1 cuts to min_cwnd; max_mdf = 0 never cuts.
  TypeParam all{{.max_mdf = 1.0}};
  all.on_loss(netcc::timestamp{0});
  EXPECT_EQ(all.cwnd(), 10_B);
  TypeParam none{{.max_mdf = 0.0}};
  none.on_loss(netcc::timestamp{0});
  EXPECT_EQ(none.cwnd(), 100'000_B);
}

// Issue 16: after a 1 h RTT sample and RETX_RESET_THRESHOLD (5) timeouts the window is min_cwnd
// (10 B) and cwnd / RTT = 10 * 8e9 / 3.6e12 = 0.022 bps, which rounded to 0 bps: a pacer would
// never send although the window is open. The pacing rate is floored at 1 bps.
TYPED_TEST(BoltLines, PacingNeverZeroAfterAnHourRttAndFiveTimeouts) {
  TypeParam cc{{.additive_increase = false}};
  cc.on_ack(ack(0, 0, false, 3'600'000'000'000));
  for (int i = 0; i < 5; ++i) cc.on_timeout(netcc::timestamp{std::int64_t{i} << 43});
  EXPECT_EQ(cc.cwnd(), 10_B);
  EXPECT_EQ(cc.retransmit_count(), 5u);
  EXPECT_EQ(cc.pacing_rate(), netcc::min_pacing_rate);
  EXPECT_EQ(cc.pacing_rate(), netcc::bit_rate{1});
  // The longest RTT there is: still 1 bps.
  cc.on_ack(ack(0, 0, false, std::numeric_limits<std::int64_t>::max()));
  EXPECT_EQ(cc.pacing_rate(), netcc::bit_rate{1});
}

// ---------------------------------------------------------------- properties

namespace {

enum class kind : std::uint8_t { src, ack, write, send, timeout, loss };

struct event {
  kind k = kind::src;
  std::int64_t now = 0;
  // SRC
  std::uint32_t tx = 0;
  std::int64_t queue = 0;
  std::int64_t link = 0;
  // ACK
  netcc::sequence seq = 0, nxt = 0;
  std::int64_t rtt = 0;
  bool inc = false;
  // write / send
  std::int64_t len = 0;
};

// Arbitrary events: time mostly advancing (sometimes standing still, going back, or jumping by
// hours), starting anywhere (2^32 multiples included, so the 32-bit TX timestamp wraps); SRCs
// with plausible and absurd rtt_src, queues (zero and negative included) and link rates (zero
// included); ACKs advancing, duplicated, reordered and wrapping, with RTTs of 0 to an hour and
// INC; writes and sends of any size; timeouts and fast recoveries.
std::vector<event> gen_events(bool losses, bool realistic = false) {
  const auto n = *rc::gen::inRange(1, 300);
  std::vector<event> v;
  std::int64_t now = *rc::gen::element<std::int64_t>(0, (std::int64_t{1} << 32) - 5000,
                                                     std::int64_t{77} << 32, 1'000'000'007);
  netcc::sequence una = *rc::gen::element<netcc::sequence>(
      0, 1'000'000, std::numeric_limits<netcc::sequence>::max() - 50'000);
  netcc::sequence nxt = una + 30'000;
  for (int i = 0; i < n; ++i) {
    event e;
    e.k = losses
              ? *rc::gen::element(kind::src, kind::src, kind::src, kind::ack, kind::ack, kind::ack,
                                  kind::write, kind::send, kind::send, kind::timeout, kind::loss)
              : *rc::gen::element(kind::src, kind::src, kind::src, kind::ack, kind::ack, kind::ack,
                                  kind::write, kind::send, kind::send);
    switch (*rc::gen::inRange(0, realistic ? 3 : 12)) {
      case 0:
        break;  // same instant
      case 1:
        now -= *rc::gen::inRange<std::int64_t>(0, 20'000);
        break;
      case 2:
        now += *rc::gen::element<std::int64_t>(3'600'000'000'000, std::int64_t{1} << 31);
        break;
      default:
        now += *rc::gen::inRange<std::int64_t>(0, 30'000);
    }
    e.now = now;
    switch (e.k) {
      case kind::src: {
        const auto r =
            realistic ? *rc::gen::inRange<std::int64_t>(100, 40'000)
                      : *rc::gen::element<std::int64_t>(*rc::gen::inRange<std::int64_t>(0, 40'000),
                                                        *rc::gen::inRange<std::int64_t>(0, 40'000),
                                                        *rc::gen::inRange<std::int64_t>(-2000, 0),
                                                        std::int64_t{1} << 31);
        e.tx = static_cast<std::uint32_t>(clock32::encode(netcc::duration{now - r}));
        if (!realistic && *rc::gen::inRange(0, 10) == 0)
          e.tx = *rc::gen::arbitrary<std::uint32_t>();
        e.queue = realistic ? *rc::gen::element<std::int64_t>(
                                  0, *rc::gen::inRange<std::int64_t>(1, 200'000),
                                  *rc::gen::inRange<std::int64_t>(1500, 20'000))
                            : *rc::gen::element<std::int64_t>(
                                  0, -1500, *rc::gen::inRange<std::int64_t>(1, 200'000),
                                  *rc::gen::inRange<std::int64_t>(1, 200'000),
                                  (std::int64_t{1} << 24) - 1, std::int64_t{1} << 50);
        e.link =
            realistic
                ? *rc::gen::element<std::int64_t>(25'000'000'000, 100'000'000'000, 400'000'000'000)
                : *rc::gen::element<std::int64_t>(0, 1, 5'000'000'000, 25'000'000'000,
                                                  100'000'000'000, 400'000'000'000,
                                                  std::numeric_limits<std::int64_t>::max(), -7);
        break;
      }
      case kind::ack: {
        const int step = *rc::gen::inRange(0, 10);
        if (step < 7) una += static_cast<netcc::sequence>(*rc::gen::inRange(0, 30'000));
        if (netcc::seq_gt(una, nxt)) nxt = una;
        nxt += static_cast<netcc::sequence>(*rc::gen::inRange(0, 30'000));
        if (*rc::gen::inRange(0, 8) == 0) nxt = una;  // all acknowledged
        e.seq = step == 9 ? una - 4500 : una;         // reordered
        e.nxt = nxt;
        e.rtt =
            realistic
                ? *rc::gen::element<std::int64_t>(0, *rc::gen::inRange<std::int64_t>(1000, 50'000))
                : *rc::gen::element<std::int64_t>(0, -5, *rc::gen::inRange<std::int64_t>(1, 50'000),
                                                  3'600'000'000'000);
        e.inc = *rc::gen::arbitrary<bool>();
        break;
      }
      case kind::write:
      case kind::send:
        e.len = *rc::gen::element<std::int64_t>(*rc::gen::inRange<std::int64_t>(0, 9001), 1500, -3,
                                                std::int64_t{1} << 40,
                                                std::numeric_limits<std::int64_t>::max());
        break;
      default:
        break;
    }
    v.push_back(e);
  }
  return v;
}

netcc::bolt_sender_params gen_params() {
  const auto mtu = *rc::gen::element<std::int64_t>(1500, 1500, 4096, 9000, 64);
  const auto min_cwnd = *rc::gen::element<std::int64_t>(10, 1, 1500, 100'000);
  const auto max_cwnd = *rc::gen::element<std::int64_t>(0x7FFF'FFFF, 200'000, min_cwnd, 5'000'000);
  return {.mtu = netcc::bytes{mtu},
          .host_rate = netcc::bit_rate{*rc::gen::element<std::int64_t>(
              25'000'000'000, 100'000'000'000, 400'000'000'000, 1'000'000)},
          .base_rtt = netcc::duration{*rc::gen::element<std::int64_t>(8000, 5000, 1, 1'000'000)},
          .cwnd_init = netcc::bytes{*rc::gen::element<std::int64_t>(0, min_cwnd, max_cwnd)},
          .min_cwnd = netcc::bytes{min_cwnd},
          .max_cwnd = netcc::bytes{max_cwnd},
          // exactly representable in q32, so the two policies cut identically
          .max_mdf = *rc::gen::element(0.5, 0.25, 0.125, 1.0, 0.0),
          .retx_reset_threshold = *rc::gen::element<std::uint32_t>(5, 1, 2)};
}

netcc::src_event to_src(const event& e) {
  return {.now = netcc::timestamp{e.now},
          .queue = netcc::bytes{e.queue},
          .link_rate = netcc::bit_rate{e.link},
          .tx_timestamp = e.tx};
}

template <class C>
void apply(C& cc, const event& e) {
  switch (e.k) {
    case kind::src:
      cc.on_src(to_src(e));
      break;
    case kind::ack: {
      netcc::ack_event a = ack(e.seq, e.nxt, e.inc, e.rtt);
      a.now = netcc::timestamp{e.now};
      cc.on_ack(a);
      break;
    }
    case kind::write:
      cc.on_write(netcc::bytes{e.len});
      break;
    case kind::send:
      cc.on_send(netcc::bytes{e.len}, netcc::timestamp{e.now});
      break;
    case kind::timeout:
      cc.on_timeout(netcc::timestamp{e.now});
      break;
    case kind::loss:
      cc.on_loss(netcc::timestamp{e.now});
      break;
  }
}

template <class C>
void check_bounds(const C& cc) {
  const auto& p = cc.params();
  RC_ASSERT(netcc::number_traits<typename C::value_type>::is_finite(cc.window()));
  RC_ASSERT(cc.cwnd() >= p.min_cwnd);
  RC_ASSERT(cc.cwnd() <= p.max_cwnd);
  RC_ASSERT(cc.pacing_rate() >= netcc::bit_rate::zero());
  RC_ASSERT(cc.pacing_rate() <= p.host_rate);
  RC_ASSERT(cc.rtt() > netcc::duration::zero());
  RC_ASSERT(cc.pending() >= netcc::bytes::zero());
  RC_ASSERT(cc.sent_since_idle() >= netcc::bytes::zero());
}

// Line 6 evaluated in double from the controller's state before the SRC: the interval
// rtt_src / target_q, or a negative value when no decrement can be due (no sample, no queue).
template <class C>
double interval_of(const C& cc, const netcc::src_event& s) {
  const double rtt_src =
      static_cast<double>(clock32::diff(clock32::encode(s.now), s.tx_timestamp).count());
  if (rtt_src < 0) return -1;
  const auto& p = cc.params();
  double rate = netcc::to_double(cc.window()) / static_cast<double>(cc.rtt().count());
  rate = std::min(rate, static_cast<double>(p.host_rate.bps()) / 8e9);
  const double factor =
      s.link_rate.bps() > 0 ? rate / (static_cast<double>(s.link_rate.bps()) / 8e9) : 1.0;
  const double target_q =
      static_cast<double>(s.queue.count()) / static_cast<double>(p.mtu.count()) * factor;
  if (!(target_q > 0)) return -1;
  return rtt_src / target_q;
}

}  // namespace

RC_GTEST_PROP(BoltSenderProperties, OutputsFiniteAndBoundedForAnyEvents, ()) {
  auto p = gen_params();
  if (*rc::gen::inRange(0, 4) == 0) {  // invalid fields too
    p.mtu = netcc::bytes{*rc::gen::element<std::int64_t>(0, -1, 70'000)};
    p.min_cwnd = netcc::bytes{*rc::gen::element<std::int64_t>(0, -1, std::int64_t{1} << 40)};
    p.max_mdf = *rc::gen::element(-1.0, 2.0, std::nan(""));
    p.base_rtt = netcc::duration{*rc::gen::element<std::int64_t>(0, -5)};
  }
  netcc::bolt_sender d{p};
  bolt_q32 q{p};
  for (const auto& e : gen_events(true)) {
    apply(d, e);
    apply(q, e);
    check_bounds(d);
    check_bounds(q);
  }
}

RC_GTEST_PROP(BoltSenderProperties, AtMostOneDecrementPerIntervalAndOneWhenDue, ()) {
  // Line 6 against its formula evaluated here in double (interval_of): a decrement only when
  // rtt_src / target_q <= min(now - last_dec_time, 2^30 ns) (the first SRC: 2^30 ns), and then
  // exactly one packet (or down to min_cwnd); none when not due. Rounding slack 1e-12.
  netcc::bolt_sender cc{gen_params()};
  const double cap = static_cast<double>(std::int64_t{1} << 30);
  for (const auto& e : gen_events(true)) {
    if (e.k != kind::src) {
      apply(cc, e);
      continue;
    }
    const auto s = to_src(e);
    const double interval = interval_of(cc, s);
    const bool had = cc.decremented();
    const auto last = cc.last_decrement();
    const auto n0 = cc.decrements();
    const double before = netcc::to_double(cc.window());
    cc.on_src(s);
    const double since = had ? std::min(static_cast<double>((s.now - last).count()), cap) : cap;
    if (cc.decrements() != n0) {
      RC_ASSERT(cc.decrements() == n0 + 1);
      RC_ASSERT(interval >= 0);
      RC_ASSERT(since >= 0);
      RC_ASSERT(interval <= since * (1 + 1e-12) + 1e-9);
      RC_ASSERT(cc.last_decrement() == s.now);
      const double mtu = static_cast<double>(cc.params().mtu.count());
      const double floor = static_cast<double>(cc.params().min_cwnd.count());
      RC_ASSERT(netcc::to_double(cc.window()) == std::max(before - mtu, floor));
    } else {
      RC_ASSERT(netcc::to_double(cc.window()) == before);
      RC_ASSERT(cc.last_decrement() == last);
      if (interval >= 0 && since >= 0) RC_ASSERT(interval >= since * (1 - 1e-12) - 1e-9);
    }
  }
}

RC_GTEST_PROP(BoltSenderProperties, IncGivesExactlyOnePacket, ()) {
  // Lines 10-11: after any history, the same ACK with INC leaves exactly one packet more than
  // without (exact in q32; to double's rounding), unless max_cwnd clamps.
  netcc::bolt_sender_params p = gen_params();
  p.max_cwnd = netcc::bolt_sender_window_limit;
  netcc::bolt_sender d{p};
  bolt_q32 q{p};
  for (const auto& e : gen_events(true)) {
    apply(d, e);
    apply(q, e);
    if (e.k != kind::ack) continue;
    // The same ACK with and without INC, on copies of the state.
    netcc::ack_event a = ack(e.seq, e.nxt, false, e.rtt);
    a.now = netcc::timestamp{e.now};
    auto with_d = d, without_d = d;
    auto with_q = q, without_q = q;
    netcc::ack_event ai = a;
    ai.inc = true;
    with_d.on_ack(ai);
    without_d.on_ack(a);
    with_q.on_ack(ai);
    without_q.on_ack(a);
    const double mtu = static_cast<double>(with_d.params().mtu.count());
    if (netcc::to_double(with_d.window()) < 2147483647.0 - 1) {
      // double rounds a window with more than 53 significant bits (after cuts): 1e-6 B
      RC_ASSERT(std::abs(netcc::to_double(with_d.window()) - netcc::to_double(without_d.window()) -
                         mtu) <= 1e-6);
      RC_ASSERT(netcc::to_double(with_q.window()) - netcc::to_double(without_q.window()) == mtu);
    }
  }
}

RC_GTEST_PROP(BoltSenderProperties, AdditiveIncreaseOncePerRound, ()) {
  // Only ACKs without INC: the window grows by one packet exactly on the ACKs beyond
  // seq_no_at_last_ai (and on the first ACK), and the mark becomes that ACK's snd_nxt.
  netcc::bolt_sender cc{gen_params()};
  bool armed = false;
  netcc::sequence mark = 0;
  for (auto e : gen_events(false)) {
    if (e.k != kind::ack) continue;
    e.inc = false;
    const double before = netcc::to_double(cc.window());
    apply(cc, e);
    const bool due = !armed || netcc::seq_gt(e.seq, mark);
    const double mtu = static_cast<double>(cc.params().mtu.count());
    const double max = static_cast<double>(cc.params().max_cwnd.count());
    RC_ASSERT(netcc::to_double(cc.window()) == (due ? std::min(before + mtu, max) : before));
    if (due) {
      armed = true;
      mark = e.nxt;
    }
    RC_ASSERT(cc.ai_mark() == mark);
  }
}

RC_GTEST_PROP(BoltSenderProperties, FirstLastIncMarkingLaws, ()) {
  // A model of the §4.2 counters (saturating 64-bit byte counts): pending (+ writes, - sends,
  // at least 0), bytes sent since idle (reset by a write that finds nothing pending and
  // everything acknowledged). INC always; FIRST iff sent (before) < cwnd; LAST iff pending
  // (after) < cwnd and sent + pending > BDP, so never for a burst of at most one BDP.
  netcc::bolt_sender cc{gen_params()};
  const std::int64_t bdp = cc.bdp().count();
  const auto sat_add = [](std::int64_t a, std::int64_t b) {
    return a > std::numeric_limits<std::int64_t>::max() - b
               ? std::numeric_limits<std::int64_t>::max()
               : a + b;
  };
  std::int64_t pending = 0, sent = 0;
  bool idle = true;
  for (const auto& e : gen_events(true)) {
    const std::int64_t len = e.len > 0 ? e.len : 0;
    if (e.k == kind::write) {
      if (len > 0 && pending == 0 && idle) sent = 0;
      pending = sat_add(pending, len);
      apply(cc, e);
    } else if (e.k == kind::send) {
      const double cwnd = netcc::to_double(cc.window());
      const auto m = cc.on_send(netcc::bytes{e.len}, netcc::timestamp{e.now});
      RC_ASSERT(m.inc);
      RC_ASSERT(m.first == (static_cast<double>(sent) < cwnd));
      sent = sat_add(sent, len);
      pending = pending > len ? pending - len : 0;
      RC_ASSERT(m.last == (static_cast<double>(pending) < cwnd && sat_add(sent, pending) > bdp));
      if (sat_add(sent, pending) <= bdp) RC_ASSERT(!m.last);
      idle = false;
    } else {
      apply(cc, e);
      if (e.k == kind::ack) idle = netcc::seq_geq(e.seq, e.nxt);
    }
    RC_ASSERT(cc.pending().count() == pending);
    RC_ASSERT(cc.sent_since_idle().count() == sent);
    RC_ASSERT(cc.idle() == idle);
  }
}

RC_GTEST_PROP(BoltSenderProperties, DoubleAndQ32AgreeOnTheSameEvents, ()) {
  // On plausible feedback (RTTs of 1 to 50 us, link rates of 25 to 400 Gbps, rtt_src of 0.1 to
  // 40 us). Window changes are +- one packet, clamps and cuts by a dyadic (1 - max_mdf): exact
  // in q32 (32 fraction bits), exact in double until a value needs more than 53 significant
  // bits, so the windows agree within 1e-3 B (stated tolerance; each double operation rounds by
  // at most 2^-22 B below 2^31 B). Decisions (last_branch) must then agree, except:
  // - line 6 at a rounding tie, |interval - elapsed| <= 1e-5 relative (q32 holds flow.rate to
  //   2^-33 B/ns, at least 3e-4 B/ns here);
  // - a comparison of the window with a byte count (FIRST, LAST, cwnd()) when an integer lies
  //   between the two windows;
  // after either the runs are not compared further.
  auto p = gen_params();
  p.base_rtt = netcc::duration{*rc::gen::element<std::int64_t>(5000, 8000)};
  netcc::bolt_sender d{p};
  bolt_q32 q{p};
  const double cap = static_cast<double>(std::int64_t{1} << 30);
  for (const auto& e : gen_events(true, true)) {
    const double wd = netcc::to_double(d.window()), wq = netcc::to_double(q.window());
    RC_ASSERT(std::abs(wd - wq) <= 1e-3);
    const bool straddle = wd != wq && (std::floor(wd) != std::floor(wq) || wd == std::floor(wd) ||
                                       wq == std::floor(wq));
    if (straddle) {
      RC_TAG("stopped at a straddled integer");
      return;
    }
    RC_ASSERT(d.cwnd() == q.cwnd());
    RC_ASSERT(d.pacing_rate() == q.pacing_rate());
    RC_ASSERT(d.flow_rate() == q.flow_rate());
    if (e.k == kind::send) {
      RC_ASSERT(d.on_send(netcc::bytes{e.len}, netcc::timestamp{e.now}) ==
                q.on_send(netcc::bytes{e.len}, netcc::timestamp{e.now}));
    } else if (e.k == kind::src) {
      const double interval = interval_of(d, to_src(e));
      const double since =
          d.decremented() ? std::min(static_cast<double>(e.now - d.last_decrement().count()), cap)
                          : cap;
      apply(d, e);
      apply(q, e);
      if (d.decrements() != q.decrements()) {
        RC_ASSERT(std::abs(interval - since) <= 1e-5 * std::max(1.0, since));
        RC_TAG("stopped at a line-6 tie");
        return;  // the runs diverge from here
      }
    } else {
      apply(d, e);
      apply(q, e);
    }
    RC_ASSERT(d.last_branch() == q.last_branch());  // the same rule on every event
    RC_ASSERT(d.pending() == q.pending() && d.sent_since_idle() == q.sent_since_idle());
    RC_ASSERT(d.retransmit_count() == q.retransmit_count());
    RC_ASSERT(d.last_decrement() == q.last_decrement());
    RC_ASSERT(d.idle() == q.idle());
  }
}

// ---------------------------------------------------------------- config + flow_state, compact

namespace {

using compact = netcc::bolt_sender_compact;

// Runs `e` on a config and an external state, as apply() runs it on a controller.
template <class Cfg, class St>
void apply_cfg(const Cfg& cfg, St& st, const event& e) {
  switch (e.k) {
    case kind::src:
      cfg.on_src(st, to_src(e));
      break;
    case kind::ack: {
      netcc::ack_event a = ack(e.seq, e.nxt, e.inc, e.rtt);
      a.now = netcc::timestamp{e.now};
      cfg.on_ack(st, a);
      break;
    }
    case kind::write:
      cfg.on_write(st, netcc::bytes{e.len});
      break;
    case kind::send:
      cfg.on_send(st, netcc::bytes{e.len}, netcc::timestamp{e.now});
      break;
    case kind::timeout:
      cfg.on_timeout(st, netcc::timestamp{e.now});
      break;
    case kind::loss:
      cfg.on_loss(st, netcc::timestamp{e.now});
      break;
  }
}

template <class C>
void config_and_state_equal_object() {
  const auto p = gen_params();
  C cc{p};
  const typename C::config cfg{p};
  typename C::flow_state st = cfg.initial_state();
  for (const auto& e : gen_events(true)) {
    apply(cc, e);
    apply_cfg(cfg, st, e);
    const auto& o = cc.state();
    RC_ASSERT(netcc::to_double(st.cwnd) == netcc::to_double(o.cwnd));
    RC_ASSERT(st.rtt == o.rtt && st.last_dec == o.last_dec && st.last_cut == o.last_cut);
    RC_ASSERT(st.ai.mark() == o.ai.mark());
    RC_ASSERT(st.pending == o.pending && st.sent == o.sent);
    RC_ASSERT(st.decrements == o.decrements && st.retx == o.retx);
    RC_ASSERT(st.flags == o.flags && st.branch == o.branch);
    RC_ASSERT(cfg.cwnd(st) == cc.cwnd() && cfg.pacing_rate(st) == cc.pacing_rate());
  }
}

}  // namespace

TEST(BoltSenderCompact, StateBudgetRangesAndValidation) {
  EXPECT_LE(sizeof(compact::flow_state), 32U);
  EXPECT_EQ(compact::state_bytes, sizeof(compact::flow_state));
  EXPECT_TRUE(compact::validate({}).ok());
  const auto v = compact::validate({.cwnd_init = netcc::bytes{1'073'741'824}});
  ASSERT_EQ(v.size(), 1U);
  EXPECT_EQ(v[0].message(),
            "bolt_sender_compact.cwnd_init = 1073741824 B: must be at most 16777215 B (the "
            "compact window's range)");
  const auto r = compact::validate({.base_rtt = netcc::duration{std::int64_t{1} << 31}});
  ASSERT_FALSE(r.ok());  // the clocks' range, and a BDP of 26.8 GB beyond the counter's
  EXPECT_NE(r[0].message().find("bolt_sender_compact.base_rtt"), std::string::npos);
  EXPECT_NE(r[1].message().find("bolt_sender_compact.host_rate"), std::string::npos);
  // Unchecked construction lowers max_cwnd to the compact range.
  const compact cc{{.max_cwnd = netcc::bytes{1'073'741'824}}};
  EXPECT_EQ(cc.params().max_cwnd, netcc::bytes{compact::window_limit});
  // The default BDP (100 kB) is the initial window, as in q32.
  EXPECT_EQ(cc.cwnd(), bolt_q32{}.cwnd());
}

TEST(BoltSenderCompact, RetransmitThresholdWithinTheSevenBitCount) {
  // Swift's retransmit count is 7 bits in the compact state: a reset threshold above 127 would
  // never be reached there, so validate (and make) refuse it.
  const auto v = compact::validate({.retx_reset_threshold = 200});
  ASSERT_EQ(v.size(), 1U);
  EXPECT_EQ(v[0].message(),
            "bolt_sender_compact.retx_reset_threshold = 200: must be at most 127 (the 7-bit "
            "retransmit count)");
  EXPECT_TRUE(compact::validate({.retx_reset_threshold = 127}).ok());
  EXPECT_FALSE(netcc::make<compact>({.retx_reset_threshold = 128}).ok());
}

TEST(BoltSenderCompact, MakeChecksTheCompactRanges) {
  const auto made = netcc::make<compact>({.cwnd_init = netcc::bytes{1'073'741'824}});
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.errors()[0].message(),
            "bolt_sender_compact.cwnd_init = 1073741824 B: must be at most 16777215 B (the "
            "compact window's range)");
  EXPECT_TRUE(netcc::make<bolt_q32>({.cwnd_init = netcc::bytes{1'073'741'824}}).ok());
}

TEST(BoltSenderCompact, SameStepsAsQ32) {
  compact c{{.cwnd_init = 101'500_B}};
  bolt_q32 q{{.cwnd_init = 101'500_B}};
  for (std::int64_t now : {10'000, 10'499, 10'500}) {
    c.on_src(src(now, 2000, 3000, 50_Gbps));
    q.on_src(src(now, 2000, 3000, 50_Gbps));
    EXPECT_EQ(c.window().raw(), q.window().raw());
    EXPECT_EQ(c.last_branch(), q.last_branch());
  }
  EXPECT_EQ(c.cwnd(), 98'500_B);
  // An SRC after 1.5 2^30 ns of silence: the clock reads 2^30 ns old (line 6's cap), as q32.
  c.on_src(src(10'500 + (std::int64_t{3} << 29), 2000, 3000, 50_Gbps));
  q.on_src(src(10'500 + (std::int64_t{3} << 29), 2000, 3000, 50_Gbps));
  EXPECT_EQ(c.last_branch(), netcc::bolt_branch::src_decrement);
  EXPECT_EQ(c.window().raw(), q.window().raw());
  // The generic on_send marks a header.
  netcc::bolt_header h{.data = true};
  c.on_send(send_view{.payload = 1500_B, .remaining = 0_B}, h);
  EXPECT_TRUE(h.first && h.inc && !h.last);
  // Timeouts: Swift's reset at the threshold.
  for (int i = 0; i < 5; ++i) c.on_timeout(netcc::timestamp{i * 100'000});
  EXPECT_EQ(c.cwnd(), 10_B);
  EXPECT_EQ(c.retransmit_count(), 5U);
}

RC_GTEST_PROP(BoltSenderProperties, ConfigAndExternalStateEqualTheObject, ()) {
  config_and_state_equal_object<netcc::bolt_sender>();
  config_and_state_equal_object<bolt_q32>();
}

RC_GTEST_PROP(BoltSenderProperties, CompactEqualsQ32WithinItsRanges, ()) {
  // Realistic traces within the compact ranges (windows below 2^24 B, BDP below 2^25 B, RTTs
  // and gaps between events below 2^30 ns, writes keeping pending below 2^32 B): every event
  // takes the same branch and leaves the same window bit for bit, marks, counters and flags.
  auto p = gen_params();
  p.base_rtt = netcc::duration{*rc::gen::element<std::int64_t>(5000, 8000)};
  if (p.max_cwnd > netcc::bytes{compact::window_limit})
    p.max_cwnd = netcc::bytes{compact::window_limit};
  if (p.cwnd_init > p.max_cwnd) p.cwnd_init = p.max_cwnd;
  RC_PRE(compact::validate(p).ok());
  bolt_q32 q{p};
  const compact::config cfg{p};
  std::vector<compact::flow_state> flows(3, cfg.initial_state());  // state in an array
  const std::size_t k = *rc::gen::inRange<std::size_t>(0, 3);
  compact::flow_state& st = flows[k];
  // Time as generated, with every gap between timed events (the jumps of an hour or 2^31 ns
  // included) shortened to at most 2^30 - 1 ns; each SRC's TX timestamp moves with its `now`.
  std::int64_t shift = 0, last_timed = 0;
  bool timed = false;
  for (auto e : gen_events(true, true)) {
    if (e.len > (std::int64_t{1} << 20)) e.len = *rc::gen::inRange<std::int64_t>(0, 1 << 20);
    std::int64_t now = e.now - shift;
    if (timed && now - last_timed >= compact::clock_horizon) {
      shift += now - last_timed - (compact::clock_horizon - 1);
      now = last_timed + compact::clock_horizon - 1;
    }
    e.tx = static_cast<std::uint32_t>(e.tx - static_cast<std::uint32_t>(e.now - now));
    e.now = now;
    if (e.k != kind::write && e.k != kind::send) {
      timed = true;
      last_timed = now;
    }
    if (e.k == kind::send) {
      RC_ASSERT(q.on_send(netcc::bytes{e.len}, netcc::timestamp{e.now}) ==
                cfg.on_send(st, netcc::bytes{e.len}, netcc::timestamp{e.now}));
    } else {
      apply(q, e);
      apply_cfg(cfg, st, e);
    }
    RC_ASSERT(cfg.window(st).raw() == q.window().raw());
    RC_ASSERT(cfg.last_branch(st) == q.last_branch());
    RC_ASSERT(cfg.rtt(st) == q.rtt());
    RC_ASSERT(cfg.pending(st) == q.pending() && cfg.sent_since_idle(st) == q.sent_since_idle());
    RC_ASSERT(cfg.retransmit_count(st) == q.retransmit_count());
    RC_ASSERT(cfg.idle(st) == q.idle() && cfg.decremented(st) == q.decremented());
    RC_ASSERT(cfg.cwnd(st) == q.cwnd() && cfg.pacing_rate(st) == q.pacing_rate());
    RC_ASSERT(cfg.flow_rate(st) == q.flow_rate());
  }
  for (std::size_t j = 0; j < flows.size(); ++j)  // the other flows are untouched
    if (j != k) RC_ASSERT(flows[j].word == cfg.initial_state().word);
}

RC_GTEST_PROP(BoltSenderProperties, CompactBoundedForAnyEvents, ()) {
  compact cc{gen_params()};
  for (const auto& e : gen_events(true)) {
    apply(cc, e);
    const auto& p = cc.params();
    RC_ASSERT(cc.cwnd() >= p.min_cwnd);
    RC_ASSERT(cc.cwnd() <= p.max_cwnd);
    RC_ASSERT(cc.cwnd() <= netcc::bytes{compact::window_limit});
    RC_ASSERT(cc.pacing_rate() > netcc::bit_rate::zero());
    RC_ASSERT(cc.pacing_rate() <= p.host_rate);
  }
}

// ---------------------------------------------------------------- q32 line 6 without division

namespace {

// Exact products of non-negative integers as little-endian 32-bit limbs (the reference).
std::vector<std::uint32_t> product(std::initializer_list<std::uint64_t> xs) {
  std::vector<std::uint32_t> r{1};
  for (std::uint64_t x : xs) {
    const std::uint32_t xl[2] = {static_cast<std::uint32_t>(x),
                                 static_cast<std::uint32_t>(x >> 32)};
    std::vector<std::uint32_t> out(r.size() + 3, 0);
    for (std::size_t i = 0; i < r.size(); ++i) {
      std::uint64_t carry = 0;
      for (std::size_t j = 0; j < 2; ++j) {
        const std::uint64_t t = static_cast<std::uint64_t>(r[i]) * xl[j] + out[i + j] + carry;
        out[i + j] = static_cast<std::uint32_t>(t);
        carry = t >> 32;
      }
      for (std::size_t k = i + 2; carry != 0; ++k) {
        const std::uint64_t t = out[k] + carry;
        out[k] = static_cast<std::uint32_t>(t);
        carry = t >> 32;
      }
    }
    while (out.size() > 1 && out.back() == 0) out.pop_back();
    r = std::move(out);
  }
  return r;
}

bool leq(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
  if (a.size() != b.size()) return a.size() < b.size();
  for (std::size_t i = a.size(); i-- > 0;)
    if (a[i] != b[i]) return a[i] < b[i];
  return true;
}

}  // namespace

RC_GTEST_PROP(BoltSenderProperties, Q32Line6EqualsTheExactRationalDecision, ()) {
  // The q32 SRC decision (lines 3-6 without a division) against the straightforward exact
  // evaluation: flow.rate = min(cwnd / RTT, host_rate) as a fraction, target_q = queue / mtu *
  // flow.rate / link_rate, decrement iff rtt_src <= elapsed * target_q, in exact integers.
  const auto p = gen_params();
  const bolt_q32::config cfg{p};
  bolt_q32::flow_state st = cfg.initial_state();
  const auto& pp = cfg.params();
  st.cwnd = netcc::arith::q32::value_type::from_raw(
      *rc::gen::inRange<std::int64_t>(pp.min_cwnd.count() << 32, (pp.max_cwnd.count() << 32) + 1));
  st.rtt = netcc::duration{*rc::gen::element<std::int64_t>(
      *rc::gen::inRange<std::int64_t>(1, 100'000), *rc::gen::inRange<std::int64_t>(1, 1 << 30),
      3'600'000'000'000, std::numeric_limits<std::int64_t>::max())};
  const std::int64_t now = std::int64_t{1} << 40;
  const bool had = *rc::gen::arbitrary<bool>();
  const std::int64_t ago =
      *rc::gen::element<std::int64_t>(*rc::gen::inRange<std::int64_t>(0, 100'000),
                                      *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 31));
  if (had) {
    st.flags = 1;  // has_dec
    st.last_dec = netcc::timestamp{now - ago};
  } else {
    st.flags = 0;
  }
  const std::int64_t r = *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 31);
  const std::int64_t q = *rc::gen::element<std::int64_t>(
      *rc::gen::inRange<std::int64_t>(1, 300'000), *rc::gen::inRange<std::int64_t>(1, 1 << 30),
      std::numeric_limits<std::int64_t>::max());
  const std::int64_t l = *rc::gen::element<std::int64_t>(
      0, 1, *rc::gen::inRange<std::int64_t>(1'000'000'000, 1'000'000'000'000),
      std::numeric_limits<std::int64_t>::max());
  const auto e = src(now, r, q, netcc::bit_rate{l});
  const auto before = st;
  cfg.on_src(st, e);
  const std::uint64_t m = had ? static_cast<std::uint64_t>(std::min<std::int64_t>(ago, 1 << 30))
                              : std::uint64_t{1} << 30;
  const auto u = static_cast<std::uint64_t>(pp.mtu.count());
  const auto w = static_cast<std::uint64_t>(before.cwnd.raw());
  const auto t = static_cast<std::uint64_t>(before.rtt.count());
  const auto h = static_cast<std::uint64_t>(pp.host_rate.bps());
  const std::uint64_t bpns = 8'000'000'000;
  bool due = false;
  if (l <= 0) {
    due = leq(product({static_cast<std::uint64_t>(r), u}),
              product({m, static_cast<std::uint64_t>(q)}));
  } else {
    // flow.rate = rn / rd bytes per ns
    const bool host = leq(product({h, t, std::uint64_t{1} << 32}), product({w, bpns}));
    const std::vector<std::uint64_t> rn =
        host ? std::vector<std::uint64_t>{h} : std::vector<std::uint64_t>{w};
    const std::vector<std::uint64_t> rd =
        host ? std::vector<std::uint64_t>{bpns}
             : std::vector<std::uint64_t>{t, std::uint64_t{1} << 32};
    // r <= m * q / u * (rn / rd) * bpns / l  <=>  r u rd l <= m q rn bpns
    const auto lhs =
        rd.size() == 1
            ? product({static_cast<std::uint64_t>(r), u, rd[0], static_cast<std::uint64_t>(l)})
            : product(
                  {static_cast<std::uint64_t>(r), u, rd[0], rd[1], static_cast<std::uint64_t>(l)});
    const auto rhs = product({m, static_cast<std::uint64_t>(q), rn[0], bpns});
    due = leq(lhs, rhs);
  }
  RC_TAG(due ? "due" : "not due");
  RC_ASSERT(st.branch ==
            (due ? netcc::bolt_branch::src_decrement : netcc::bolt_branch::src_too_soon));
}

}  // namespace netcc_tests::control_bolt_sender
