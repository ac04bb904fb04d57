// SPDX-License-Identifier: MIT
// netcc::theta_powertcp_compact (theta-PowerTCP in q32 with a 32-B per-flow state): its layout,
// the q32 object's smoothed power and rules on realistic RTT traces, its windows within the
// stated bound of the q32 object's, config + external states equal to objects, and the narrowed
// clocks and sequence numbers across 2^32.
#include <netcc/control/controller_concepts.hpp>
#include <netcc/control/powertcp.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace netcc_tests::control_powertcp_theta_compact {

using namespace netcc::literals;
using compact = netcc::theta_powertcp_compact;

static_assert(sizeof(compact::flow_state) <= 32);
static_assert(std::is_trivially_copyable_v<compact::flow_state>);
static_assert(netcc::ControllerFor<compact, netcc::rtt_event>);

namespace {

netcc::theta_powertcp_params random_params() {
  using namespace rc;
  netcc::theta_powertcp_params p;
  p.gamma = *gen::element(0.5, 0.8, 0.9, 1.0);
  p.host_rate = netcc::bit_rate{*gen::element<std::int64_t>(10, 25, 100, 400) * 1'000'000'000};
  p.base_rtt = netcc::duration{*gen::inRange<std::int64_t>(2'000, 100'000)};
  p.expected_flows = *gen::inRange<std::int64_t>(1, 33);
  p.min_cwnd = netcc::bytes{*gen::inRange<std::int64_t>(1500, 5001)};
  p.beta = netcc::bytes{*gen::element<std::int64_t>(0, 0, 3000)};
  p.tau_source = *gen::element(netcc::powertcp_tau::configured, netcc::powertcp_tau::min_rtt);
  p.line_rate_first_rtt = *gen::arbitrary<bool>();
  return p;
}

// RTT completions of a TCP sender: time moving by up to 50 us (sometimes 0 or backwards),
// RTTs from half to ten times the base RTT (sometimes missing), ack.seq never behind and moving
// by whole segments, snd_nxt never behind and never below ack.seq; random starts (times and sequence numbers across 2^32).
std::vector<netcc::rtt_event> rtt_trace(const netcc::theta_powertcp_params& p, std::size_t n) {
  using namespace rc;
  std::vector<netcc::rtt_event> v;
  std::int64_t now = *gen::inRange<std::int64_t>(0, std::int64_t{1} << 40);
  netcc::sequence ack = *gen::oneOf(gen::arbitrary<netcc::sequence>(),
                                    gen::inRange<netcc::sequence>(0xFFF0'0000, 0x1'0001'0000));
  netcc::sequence nxt = ack + *gen::inRange<netcc::sequence>(0, 300'000);
  for (std::size_t k = 0; k < n; ++k) {
    const int kind = *gen::inRange(0, 100);
    std::int64_t dt = *gen::inRange<std::int64_t>(1, 50'000);
    if (kind < 3) dt = 0;
    if (kind >= 3 && kind < 5) dt = -*gen::inRange<std::int64_t>(1, 5'000);
    now += dt;
    ack += 1'000 * *gen::inRange<netcc::sequence>(0, 30);  // whole 1000-B segments, so that
    const netcc::sequence want = ack + 1'000 * *gen::inRange<netcc::sequence>(0, 300);  // ACKs
    // land exactly on an earlier snd_nxt (GETCWND then reads the older window)
    if (netcc::seq_gt(want, nxt)) nxt = want;
    if (netcc::seq_gt(ack, nxt)) nxt = ack;
    const std::int64_t b = p.base_rtt.count();
    const std::int64_t rtt = kind >= 5 && kind < 8 ? 0 : *gen::inRange<std::int64_t>(b / 2, 10 * b);
    v.push_back({.now = netcc::timestamp{now},
                 .rtt = netcc::duration{rtt},
                 .acked = netcc::bytes{1000},
                 .ack_seq = ack,
                 .snd_nxt = nxt});
  }
  return v;
}

}  // namespace

TEST(ThetaPowerTcpCompact, StartsAsTheQ32Object) {
  const netcc::theta_powertcp_params p{.host_rate = 100_Gbps, .base_rtt = 20_us};
  const compact c{p};
  const compact::wide_type q{p};
  EXPECT_EQ(c.cwnd(), q.cwnd());
  EXPECT_EQ(c.cwnd(), 250000_B);
  EXPECT_EQ(c.pacing_rate(), q.pacing_rate());
  EXPECT_EQ(c.tau(), q.tau());
  EXPECT_TRUE(c.in_first_rtt());
  EXPECT_EQ(c.last_branch(), netcc::powertcp_branch::none);
  EXPECT_EQ(compact::state_bytes, 32U);
}

// The narrowed RTT clock (32 bits of ns) and lastUpdateSeq (32 bits): the same run shifted
// across 2^32 ns and 2^32 B takes the same rules and leaves the same windows and power.
TEST(ThetaPowerTcpCompact, ClocksAndSequencesAcross2To32) {
  const netcc::theta_powertcp_params p{.host_rate = 25_Gbps, .base_rtt = 10_us};
  auto run = [&](std::int64_t t0, netcc::sequence s0) {
    const compact::config cfg{p};
    auto st = cfg.initial_state();
    std::vector<std::int64_t> out;
    for (std::int64_t k = 0; k < 60; ++k) {
      cfg.on_ack(
          st, netcc::rtt_event{.now = netcc::timestamp{t0 + k * 2'000},
                               .rtt = netcc::duration{10'000 + (k % 7) * 1'500},
                               .ack_seq = s0 + static_cast<netcc::sequence>(k) * 20'000,
                               .snd_nxt = s0 + static_cast<netcc::sequence>(k) * 20'000 + 60'000});
      out.push_back(static_cast<std::int64_t>(st.cwnd));
      out.push_back(st.smooth.raw());
      out.push_back(static_cast<std::int64_t>(cfg.last_branch(st)));
    }
    return out;
  };
  const auto plain = run(1'000, 1);
  EXPECT_EQ(run((std::int64_t{1} << 32) - 50'000, 0xFFFF'FFFFULL - 400'000), plain);
  EXPECT_NE(plain[3 * 59], plain[0]);  // the window moved
}

// Same smoothed power, tau and rule kind (hold or update) as the q32 object on every event; the
// window within k * 0.55 / min_cwnd of the q32 one, relatively, after k updates (the class
// comment's bound); update and update_capped differ only near the cap.
RC_GTEST_PROP(ThetaPowerTcpCompact, Q32PowerAndRulesWindowWithinBound, ()) {
  const auto p = random_params();
  const compact::config cfg{p};
  auto st = cfg.initial_state();
  compact::wide_type q{p};
  const double min_cwnd = static_cast<double>(q.params().min_cwnd.count());
  int updates = 0;
  for (const auto& e : rtt_trace(p, *rc::gen::inRange<std::size_t>(1, 200))) {
    cfg.on_ack(st, e);
    q.on_ack(e);
    RC_ASSERT(cfg.norm_power(st).raw() == q.norm_power().raw());
    RC_ASSERT(cfg.tau(st) == q.tau());
    RC_ASSERT(cfg.in_first_rtt(st) == q.in_first_rtt());
    const auto bc = cfg.last_branch(st), bq = q.last_branch();
    RC_ASSERT((bc == netcc::powertcp_branch::hold) == (bq == netcc::powertcp_branch::hold));
    if (bc != bq) RC_TAG("update and update_capped differ");
    if (bq != netcc::powertcp_branch::hold) ++updates;
    const double wc = netcc::to_double(cfg.window(st)), wq = netcc::to_double(q.window());
    RC_ASSERT(std::abs(wc - wq) <= updates * 0.55 / min_cwnd * wq + 1e-6);
    RC_ASSERT(cfg.cwnd(st) >= q.params().min_cwnd);
    RC_ASSERT(cfg.cwnd(st) <= q.params().max_cwnd);
    if (cfg.in_first_rtt(st)) RC_ASSERT(cfg.pacing_rate(st) == q.pacing_rate());
  }
  RC_TAG(updates > 0 ? "updated" : "no update");
}

RC_GTEST_PROP(ThetaPowerTcpCompact, ConfigAndStatesEqualObjects, ()) {
  const auto p = random_params();
  const std::size_t flows = *rc::gen::inRange<std::size_t>(1, 5);
  const compact::config cfg{p};
  std::vector<compact::flow_state> states(flows, cfg.initial_state());
  std::vector<compact> objects(flows, compact{p});
  for (std::size_t f = 0; f < flows; ++f) {
    for (const auto& e : rtt_trace(p, *rc::gen::inRange<std::size_t>(1, 40))) {
      cfg.on_ack(states[f], e);
      objects[f].on_ack(e);
    }
  }
  for (std::size_t f = 0; f < flows; ++f)
    RC_ASSERT(std::memcmp(&states[f], &objects[f].state(), sizeof(states[f])) == 0);
}

}  // namespace netcc_tests::control_powertcp_theta_compact
