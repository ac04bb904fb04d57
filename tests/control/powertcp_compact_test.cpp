// SPDX-License-Identifier: MIT
// netcc::powertcp_compact (PowerTCP with INT in q32 with a 64-B per-flow state at wire width):
// its layout, hand examples, the q32 wire-stack object's rules and smoothed power bit for bit
// with the window within the stated bound on realistic wire traces, bounds on any stream, and
// config + external states equal to objects.
#include <netcc/control/controller_concepts.hpp>
#include <netcc/control/make.hpp>
#include <netcc/control/powertcp.hpp>
#include <netcc/core/int_wire.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace netcc_tests::control_powertcp_compact {

using namespace netcc::literals;
using compact = netcc::powertcp_compact;
using wire = netcc::hpcc_int_format;
using wire_ack = netcc::basic_ack_event<wire::stack>;

static_assert(sizeof(compact::flow_state) <= 64);
static_assert(std::is_trivially_copyable_v<compact::flow_state>);
static_assert(netcc::ControllerFor<compact, wire_ack>);

namespace {

netcc::powertcp_params random_params() {
  using namespace rc;
  netcc::powertcp_params p;
  p.gamma = *gen::element(0.5, 0.8, 0.9, 1.0);
  p.host_rate = netcc::bit_rate{*gen::element<std::int64_t>(10, 25, 100, 400) * 1'000'000'000};
  p.base_rtt = netcc::duration{*gen::inRange<std::int64_t>(2'000, 100'000)};
  p.expected_flows = *gen::inRange<std::int64_t>(1, 33);
  p.min_cwnd = netcc::bytes{*gen::inRange<std::int64_t>(1500, 5001)};
  p.beta = netcc::bytes{*gen::element<std::int64_t>(0, 0, 3000)};
  p.max_cwnd = netcc::bytes{*gen::element<std::int64_t>(0x7FFF'FFFF, 0x7FFF'FFFF, 200'000)};
  p.line_rate_first_rtt = *gen::arbitrary<bool>();
  return p;
}

wire_ack one_hop_ack(std::int64_t now, netcc::sequence ack, netcc::sequence nxt, std::int64_t q,
                     std::uint64_t tx, netcc::bit_rate b) {
  wire_ack a{.now = netcc::timestamp{now}, .ack_seq = ack, .snd_nxt = nxt};
  a.hops.push(wire::make_hop(netcc::timestamp{now}, netcc::bytes{q}, tx, b));
  return a;
}

// A TCP sender's ACKs over HPCC's wire format: 1-5 hops with table rates (make_hop: timestamps
// and tx counters wrapped to 24 / 20 bits from random 64-bit starts, queues in whole 80-B
// units), timestamps advancing by up to 40 us (sometimes 0, a duplicate, or backwards, a
// reordered ACK), tx bytes up to 1.2x the link rate, queues up to 2 MB; now and then a path
// change (a rate or the hop count) and switch ACKs covering the first hops; ack.seq never behind
// and moving by whole 1000-B segments, snd_nxt never behind and never below ack.seq, from a
// random start (across 2^32 too).
std::vector<wire_ack> tcp_wire_trace(std::size_t n_acks) {
  using namespace rc;
  const auto rate = [] {
    return netcc::bit_rate{*gen::element<std::int64_t>(10, 25, 40, 100, 400) * 1'000'000'000};
  };
  std::size_t hops = *gen::inRange<std::size_t>(1, 6);
  std::vector<netcc::bit_rate> rates;
  for (std::size_t i = 0; i < 5; ++i) rates.push_back(rate());
  std::vector<std::uint64_t> tx;
  for (std::size_t i = 0; i < 5; ++i) tx.push_back(*gen::arbitrary<std::uint64_t>() >> 1);
  std::int64_t now = *gen::inRange<std::int64_t>(0, std::int64_t{1} << 40);
  netcc::sequence ack = *gen::oneOf(gen::arbitrary<netcc::sequence>(),
                                    gen::inRange<netcc::sequence>(0xFFF0'0000, 0x1'0001'0000));
  netcc::sequence nxt = ack + *gen::inRange<netcc::sequence>(0, 300'000);
  std::vector<wire_ack> out;
  for (std::size_t k = 0; k < n_acks; ++k) {
    const int kind = *gen::inRange(0, 100);
    if (kind < 3) hops = *gen::inRange<std::size_t>(1, 6);                        // new length
    if (kind >= 3 && kind < 6) rates[*gen::inRange<std::size_t>(0, 5)] = rate();  // new link
    std::int64_t dt = *gen::inRange<std::int64_t>(1, 40'000);
    if (kind >= 6 && kind < 9) dt = 0;
    if (kind >= 9 && kind < 11) dt = -*gen::inRange<std::int64_t>(1, 5'000);
    now += dt;
    ack += 1'000 * *gen::inRange<netcc::sequence>(0, 30);  // whole segments, so that ACKs land
    const netcc::sequence want = ack + 1'000 * *gen::inRange<netcc::sequence>(0, 300);  // on
    if (netcc::seq_gt(want, nxt)) nxt = want;  // an earlier snd_nxt (GETCWND's older window)
    if (netcc::seq_gt(ack, nxt)) nxt = ack;
    const bool sw = kind >= 11 && kind < 21;
    wire_ack a{.now = netcc::timestamp{now},
               .ack_seq = ack,
               .snd_nxt = nxt,
               .acked = netcc::bytes{1000},
               .switch_ack = sw};
    const std::size_t n = sw ? *gen::inRange<std::size_t>(1, hops + 1) : hops;
    for (std::size_t i = 0; i < n; ++i) {
      const auto b = rates[i];
      if (dt > 0) {
        const auto cap = static_cast<std::uint64_t>(b.bps() / 8'000'000) *
                         static_cast<std::uint64_t>(dt) * 12 / 10'000;
        tx[i] += *gen::inRange<std::uint64_t>(0, cap + 1);
      }
      a.hops.push(wire::make_hop(netcc::timestamp{now + static_cast<std::int64_t>(i) * 37},
                                 netcc::bytes{*gen::inRange<std::int64_t>(0, 2'000'000)}, tx[i],
                                 b));
    }
    out.push_back(a);
  }
  return out;
}

// Anything: random wire words (any rate code, timestamp, counter, queue), 0-5 hops, sequence
// numbers and snd_nxt anywhere, time anywhere.
std::vector<wire_ack> any_wire_stream(std::size_t n_acks) {
  using namespace rc;
  std::vector<wire_ack> out;
  for (std::size_t k = 0; k < n_acks; ++k) {
    wire_ack a{.now = netcc::timestamp{*gen::inRange<std::int64_t>(0, std::int64_t{1} << 40)},
               .ack_seq = *gen::arbitrary<netcc::sequence>(),
               .snd_nxt = *gen::arbitrary<netcc::sequence>()};
    const std::size_t n = *gen::inRange<std::size_t>(0, 6);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t w =
          *gen::oneOf(gen::arbitrary<std::uint64_t>(), gen::inRange<std::uint64_t>(0, 1U << 20));
      a.hops.push(wire::decode_hop(w));
    }
    out.push_back(a);
  }
  return out;
}

}  // namespace

TEST(PowerTcpCompact, StartsAsTheQ32Object) {
  const netcc::powertcp_params p{.host_rate = 100_Gbps, .base_rtt = 10_us, .expected_flows = 5};
  const compact c{p};
  const compact::wide_type q{p};
  EXPECT_EQ(c.cwnd(), q.cwnd());
  EXPECT_EQ(c.cwnd(), 125000_B);
  EXPECT_EQ(c.pacing_rate(), q.pacing_rate());
  EXPECT_EQ(c.tau(), q.tau());
  EXPECT_TRUE(c.in_first_rtt());
  EXPECT_EQ(c.last_branch(), netcc::powertcp_branch::none);
  EXPECT_EQ(c.configuration().hops(c.state()), 0U);
  EXPECT_EQ(c.configuration().beta().raw(), q.beta().raw());
  EXPECT_EQ(compact::state_bytes, 64U);
}

// Hand example, one 100 Gbps hop, tau = 10 us (BDP 125000 B), beta = 25000 B, gamma = 0.9:
// ACK 1 stores the record (hold). ACK 2, 1 us later: 12800 B sent (current 1.024), empty queue:
// power 1.024, Gamma_smooth = 1.024 (first sample); cwnd_old = 125000 and 1.024 * 125000 >
// 125000, so w = 0.9 * (125000 / 1.024 + 25000) + 0.1 * 125000 = 144863.28 -> 144863 B.
// ACK 3, 1 us later: queue 64000 B, 12800 B sent: current (64000 + 12800) B/us over 12.5 B/ns
// = 6.144, voltage 1 + 64000/125000 = 1.512, power 9.289728; weight dt/tau = 0.1:
// Gamma_smooth = 1.024 + 0.1 * 8.265728 = 1.8505728. ACK 3 acknowledges data sent before
// lastUpdateSeq (snd_nxt of ACK 1), so cwnd_old = cwnd_init = 125000:
// w = 0.9 * (125000 / 1.8505728 + 25000) + 0.1 * 144863 = 97778.29 -> 97778 B (the q32 object, from
// 144863.28: 0.03 B more).
TEST(PowerTcpCompact, ValidateRefusesMinRttTau) {
  const auto v = compact::validate({.tau_source = netcc::powertcp_tau::min_rtt});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].message(),
            "powertcp_compact.tau_source = 1: must be configured (the compact form's tau is the "
            "configured base_rtt)");
  EXPECT_TRUE(compact::validate({}).ok());
  EXPECT_FALSE(compact::validate({.gamma = 2.0}).ok());  // the parameters' own rules too
  static_assert(netcc::Controller<compact>);
  EXPECT_FALSE(netcc::make<compact>({.tau_source = netcc::powertcp_tau::min_rtt}).ok());
  EXPECT_TRUE(netcc::make<compact>({}).ok());
}

TEST(PowerTcpCompact, HandExampleOneHop) {
  const netcc::powertcp_params p{.host_rate = 100_Gbps, .base_rtt = 10_us, .expected_flows = 5};
  const compact::config cfg{p};
  auto st = cfg.initial_state();
  compact::wide_type q{p};
  const auto b = 100_Gbps;
  const wire_ack acks[] = {one_hop_ack(1'000, 1'001, 200'001, 0, 128'000, b),
                           one_hop_ack(2'000, 2'001, 200'001, 0, 140'800, b),
                           one_hop_ack(3'000, 3'001, 200'001, 64'000, 153'600, b)};
  EXPECT_EQ(cfg.on_ack(st, acks[0]), netcc::powertcp_branch::hold);
  q.on_ack(acks[0]);
  EXPECT_EQ(cfg.hops(st), 1U);
  EXPECT_TRUE(cfg.in_first_rtt(st));
  EXPECT_EQ(cfg.cwnd(st), 125000_B);

  EXPECT_EQ(cfg.on_ack(st, acks[1]), netcc::powertcp_branch::update);
  q.on_ack(acks[1]);
  EXPECT_NEAR(netcc::to_double(cfg.norm_power(st)), 1.024, 1e-9);
  EXPECT_EQ(cfg.norm_power(st).raw(), q.norm_power().raw());
  EXPECT_EQ(cfg.cwnd(st), 144863_B);
  EXPECT_NEAR(netcc::to_double(q.window()), 144863.28125, 1e-3);
  EXPECT_FALSE(cfg.in_first_rtt(st));

  EXPECT_EQ(cfg.on_ack(st, acks[2]), netcc::powertcp_branch::update);
  q.on_ack(acks[2]);
  EXPECT_NEAR(netcc::to_double(cfg.norm_power(st)), 1.8505728, 1e-8);
  EXPECT_EQ(cfg.norm_power(st).raw(), q.norm_power().raw());
  const double want = 0.9 * (125000 / 1.8505728 + 25000) + 0.1 * 144863;
  EXPECT_NEAR(netcc::to_double(cfg.window(st)), want, 0.5 + 1e-6);
  EXPECT_NEAR(netcc::to_double(q.window()), want, 0.1);
  EXPECT_EQ(cfg.cwnd(st), 97778_B);
  EXPECT_EQ(cfg.pacing_rate(st), cfg.cwnd(st) / 10_us);
}

// Duplicates (dt = 0) keep the record and hold; a reordered ACK (dt < 0) resynchronises; a path
// change (rate code, hop count) stores and holds; each as the q32 object.
TEST(PowerTcpCompact, HandExampleHoldsAndPathChanges) {
  const netcc::powertcp_params p{.host_rate = 25_Gbps, .base_rtt = 20_us};
  const compact::config cfg{p};
  auto st = cfg.initial_state();
  compact::wide_type q{p};
  std::vector<wire_ack> acks{one_hop_ack(1'000, 1, 100'000, 8'000, 0, 25_Gbps),
                             one_hop_ack(1'000, 2, 100'000, 8'000, 0, 25_Gbps),        // dup
                             one_hop_ack(3'000, 3, 100'000, 16'000, 6'400, 25_Gbps),   // sample
                             one_hop_ack(2'500, 4, 100'000, 8'000, 0, 25_Gbps),        // reordered
                             one_hop_ack(4'000, 5, 100'000, 8'000, 6'400, 100_Gbps)};  // new rate
  wire_ack two = one_hop_ack(5'000, 6, 100'000, 0, 12'800, 100_Gbps);
  two.hops.push(wire::make_hop(netcc::timestamp{5'000}, 0_B, 0, 10_Gbps));  // new hop count
  acks.push_back(two);
  const netcc::powertcp_branch want[] = {
      netcc::powertcp_branch::hold, netcc::powertcp_branch::hold, netcc::powertcp_branch::update,
      netcc::powertcp_branch::hold, netcc::powertcp_branch::hold, netcc::powertcp_branch::hold};
  const std::size_t hops[] = {1, 1, 1, 1, 1, 2};
  for (std::size_t k = 0; k < acks.size(); ++k) {
    EXPECT_EQ(cfg.on_ack(st, acks[k]), want[k]) << k;
    q.on_ack(acks[k]);
    EXPECT_EQ(q.last_branch(), want[k]) << k;
    EXPECT_EQ(cfg.hops(st), hops[k]) << k;
    EXPECT_EQ(cfg.hops(st), q.signal().hops()) << k;
    EXPECT_EQ(cfg.norm_power(st).raw(), q.norm_power().raw()) << k;
    // one update from an exact window: the q32 window rounded to whole bytes
    EXPECT_EQ(cfg.cwnd(st).count(), std::llround(netcc::to_double(q.window()))) << k;
  }
}

// lastUpdateSeq at 32 bits: a run across 2^32 takes the same rules and windows as far from it.
TEST(PowerTcpCompact, SequenceNumbersAcross2To32) {
  const netcc::powertcp_params p{.host_rate = 100_Gbps, .base_rtt = 10_us, .expected_flows = 4};
  auto run = [&](netcc::sequence s0) {
    const compact::config cfg{p};
    auto st = cfg.initial_state();
    std::vector<std::int64_t> out;
    for (std::uint64_t k = 0; k < 40; ++k) {
      const auto now = static_cast<std::int64_t>(k * 1000);
      const auto a = one_hop_ack(now, s0 + k * 30'000, s0 + k * 30'000 + 100'000,
                                 8'000 * static_cast<std::int64_t>(k % 5), k * 12'000, 100_Gbps);
      out.push_back(static_cast<std::int64_t>(cfg.on_ack(st, a)));
      out.push_back(cfg.cwnd(st).count());
      out.push_back(cfg.norm_power(st).raw());
    }
    return out;
  };
  const auto plain = run(1);
  EXPECT_EQ(run(0xFFFF'FFFFULL - 500'000), plain);
  EXPECT_NE(plain[3 * 39 + 1], plain[1]);  // the window moved
}

// The same rule kind (hold or update) and Gamma_smooth bit for bit as the q32 wire-stack object
// on every ACK; the window within k * 0.55 / min_cwnd of the q32 one, relatively, after k
// updates (the class comment's bound); update and update_capped differ only near the cap.
RC_GTEST_PROP(PowerTcpCompact, Q32PowerAndRulesWindowWithinBound, ()) {
  const auto p = random_params();
  const compact::config cfg{p};
  auto st = cfg.initial_state();
  compact::wide_type q{p};
  const double min_cwnd = static_cast<double>(q.params().min_cwnd.count());
  int updates = 0;
  for (const auto& e : tcp_wire_trace(*rc::gen::inRange<std::size_t>(1, 200))) {
    const auto bc = cfg.on_ack(st, e);
    q.on_ack(e);
    const auto bq = q.last_branch();
    RC_ASSERT((bc == netcc::powertcp_branch::hold) == (bq == netcc::powertcp_branch::hold));
    if (bc != bq) RC_TAG("update and update_capped differ");
    RC_ASSERT(cfg.norm_power(st).raw() == q.norm_power().raw());
    RC_ASSERT(cfg.in_first_rtt(st) == q.in_first_rtt());
    RC_ASSERT(cfg.hops(st) == q.signal().hops());
    if (bq != netcc::powertcp_branch::hold) ++updates;
    const double wc = netcc::to_double(cfg.window(st)), wq = netcc::to_double(q.window());
    RC_ASSERT(std::abs(wc - wq) <= updates * 0.55 / min_cwnd * wq + 1e-6);
    RC_ASSERT(cfg.cwnd(st) >= q.params().min_cwnd);
    RC_ASSERT(cfg.cwnd(st) <= q.params().max_cwnd);
    if (cfg.in_first_rtt(st)) RC_ASSERT(cfg.pacing_rate(st) == q.pacing_rate());
  }
  RC_TAG(updates > 0 ? "updated" : "no update");
}

// Any stream: the window within [min_cwnd, max_cwnd], the rate within its limits, the power
// within [0, 2^30].
RC_GTEST_PROP(PowerTcpCompact, BoundsOnAnyStream, ()) {
  const auto p = random_params();
  const compact c0{p};
  const compact::config& cfg = c0.configuration();
  auto st = cfg.initial_state();
  const auto pr = cfg.params();
  const netcc::bit_rate max_rate =
      pr.max_rate > netcc::bit_rate::zero() ? pr.max_rate : pr.host_rate;
  for (const auto& e : any_wire_stream(*rc::gen::inRange<std::size_t>(1, 100))) {
    cfg.on_ack(st, e);
    RC_ASSERT(cfg.cwnd(st) >= pr.min_cwnd);
    RC_ASSERT(cfg.cwnd(st) <= pr.max_cwnd);
    RC_ASSERT(cfg.pacing_rate(st) >= netcc::min_pacing_rate);
    RC_ASSERT(cfg.pacing_rate(st) <= max_rate);
    RC_ASSERT(netcc::to_double(cfg.norm_power(st)) >= 0.0);
    RC_ASSERT(netcc::to_double(cfg.norm_power(st)) <= 1073741824.0);
    RC_ASSERT(cfg.hops(st) <= 5U);
  }
}

RC_GTEST_PROP(PowerTcpCompact, ConfigAndStatesEqualObjects, ()) {
  const auto p = random_params();
  const std::size_t flows = *rc::gen::inRange<std::size_t>(1, 5);
  const compact::config cfg{p};
  std::vector<compact::flow_state> states(flows, cfg.initial_state());
  std::vector<compact> objects(flows, compact{p});
  for (std::size_t f = 0; f < flows; ++f) {
    for (const auto& e : tcp_wire_trace(*rc::gen::inRange<std::size_t>(1, 40))) {
      const auto br = cfg.on_ack(states[f], e);
      objects[f].on_ack(e);
      RC_ASSERT(br == objects[f].last_branch());
    }
  }
  for (std::size_t f = 0; f < flows; ++f)
    RC_ASSERT(std::memcmp(&states[f], &objects[f].state(), sizeof(states[f])) == 0);
}

// The same ACKs with their INT as the wire words they came in (word_stack), on realistic traces
// and on anything: the state byte for byte and the rule as with the decoded records.
RC_GTEST_PROP(PowerTcpCompact, WireWordsEqualDecodedRecords, ()) {
  const compact::config cfg{random_params()};
  compact::flow_state st = cfg.initial_state();
  compact::flow_state sw = cfg.initial_state();
  const std::size_t n = *rc::gen::inRange<std::size_t>(1, 120);
  const auto acks = *rc::gen::arbitrary<bool>() ? tcp_wire_trace(n) : any_wire_stream(n);
  for (const auto& a : acks) {
    const auto br = cfg.on_ack(st, a);
    RC_ASSERT(cfg.on_ack(sw, wire::with_words(a)) == br);
    RC_ASSERT(std::memcmp(&sw, &st, sizeof st) == 0);
  }
}

}  // namespace netcc_tests::control_powertcp_compact
