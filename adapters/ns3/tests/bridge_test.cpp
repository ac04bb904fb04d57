// SPDX-License-Identifier: MIT
// The ns-3 adapter's netcc half, without ns-3 (C++20): every controller kind and switch function
// behind the seam (bridge.h) behaves exactly as the netcc code it wraps. Properties: a kind's
// defaults are netcc's and valid; an Attribute value round-trips; a controller driven through
// bridge_model sees the same events as one driven directly (same window and rate after any ACK
// stream); the seam's INT push, RED/ECN, notification point and Bolt ingress decide as netcc's.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "netcc-ns3/bridge.h"
#include "netcc-ns3/register.hpp"
#include "netcc/control/dctcp.hpp"
#include "netcc/control/hpcc.hpp"
#include "netcc/control/powertcp.hpp"
#include "netcc/control/vegas.hpp"
#include "netcc/fabric/dcqcn_np.hpp"
#include "netcc/fabric/int_push.hpp"
#include "netcc/fabric/red_ecn.hpp"

namespace {

namespace bridge = netcc::ns3;

TEST(Bridge, EveryKindIsMadeFromItsDefaultsAndEachDefaultPassesItsFieldCheck) {
  const auto& kinds = bridge::controller_kinds();
  EXPECT_EQ(kinds.size(), 11u);  // ten controllers, DCTCP with both growth rules
  for (const auto& k : kinds) {
    std::vector<bridge::param_value> v;
    for (std::size_t i = 0; i < k.params.size(); ++i) {
      EXPECT_EQ(k.check_field(i, k.params[i].initial), "") << k.name << " " << k.params[i].field;
      v.push_back(k.params[i].initial);
    }
    std::string error;
    const auto c = k.make(v, 1460, error);
    ASSERT_NE(c, nullptr) << k.name << ": " << error;
    EXPECT_EQ(error, "");
  }
}

TEST(Bridge, DefaultsAreNetccs) {
  const auto* v = bridge::find_controller_kind("vegas");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->params[0].field, "vegas.alpha");
  EXPECT_EQ(v->params[0].initial.real, netcc::vegas_params{}.alpha);
  const auto* p = bridge::find_controller_kind("ns3::NetccPowerTcp");
  ASSERT_NE(p, nullptr);
  for (const auto& f : p->params) {
    if (f.attribute == "BaseRtt") {
      EXPECT_EQ(f.initial.integer, netcc::powertcp_params{}.base_rtt.count());
    }
    if (f.attribute == "HostRate") {
      EXPECT_EQ(f.initial.integer, netcc::powertcp_params{}.host_rate.bps());
    }
  }
  // The MSS is the socket's, not an Attribute.
  for (const auto& f : v->params) EXPECT_NE(f.attribute, "Mss");
  EXPECT_TRUE(v->window_in_mss);
}

TEST(Bridge, AnInvalidValueIsExplainedInNetccsWords) {
  const auto* k = bridge::find_controller_kind("dctcp");
  ASSERT_NE(k, nullptr);
  std::size_t g = 0;
  while (k->params[g].attribute != "G") ++g;
  bridge::param_value bad;
  bad.real = 2.0;
  EXPECT_EQ(k->check_field(g, bad), "dctcp.g = 2: must be in (0, 1]");
  std::vector<bridge::param_value> v;
  for (const auto& f : k->params) v.push_back(f.initial);
  v[g] = bad;
  std::string error;
  EXPECT_EQ(k->make(v, 1460, error), nullptr);
  EXPECT_EQ(error, "dctcp.g = 2: must be in (0, 1]");
}

TEST(Bridge, AKindCanBeAddedOnceOnly) {
  auto k = bridge::make_kind<netcc::vegas>(
      "vegas-test", "ns3::NetccVegasTest", "Vegas again", bridge::feedback_need::rtt,
      {bridge::field<&netcc::vegas_params::alpha>("Alpha", "vegas.alpha", "alpha")});
  EXPECT_TRUE(bridge::add_controller_kind(k));
  EXPECT_FALSE(bridge::add_controller_kind(k));
  EXPECT_NE(bridge::find_controller_kind("vegas-test"), nullptr);
}

// Random ACK streams: one controller through the seam, one directly with netcc's ack_event.
template <class C>
void SameThroughTheSeam(const char* kind) {
  rc::check(std::string("bridge_model<") + kind + "> == direct", [kind] {
    const auto* k = bridge::find_controller_kind(kind);
    RC_ASSERT(k != nullptr);
    std::vector<bridge::param_value> values;
    for (const auto& f : k->params) values.push_back(f.initial);
    std::string error;
    auto seam = k->make(values, 1460, error);
    RC_ASSERT(seam != nullptr);
    typename netcc::controller_traits<C>::params_type p{};
    if constexpr (requires { p.mss; }) p.mss = netcc::bytes{1460};
    C direct{p};
    std::uint64_t seq = 1'000'000, nxt = 1'000'000;
    std::int64_t now = 1'000;
    const auto n = *rc::gen::inRange(1, 200);
    for (int i = 0; i < n; ++i) {
      now += *rc::gen::inRange<std::int64_t>(1, 20'000);
      nxt += *rc::gen::inRange<std::uint64_t>(0, 20'000);
      const std::uint64_t acked = *rc::gen::inRange<std::uint64_t>(0, nxt - seq + 1);
      seq += acked;
      bridge::ack_info a;
      a.now_ns = now;
      a.ack_seq = seq;
      a.snd_nxt = nxt;
      a.acked = acked;
      a.rtt_ns = *rc::gen::inRange<std::int64_t>(0, 200'000);
      a.ecn_echo = *rc::gen::arbitrary<bool>();
      a.hop_count = static_cast<std::uint8_t>(*rc::gen::inRange(0, 6));
      netcc::ack_event e;
      e.now = netcc::timestamp{a.now_ns};
      e.ack_seq = a.ack_seq;
      e.snd_nxt = a.snd_nxt;
      e.acked = netcc::bytes{static_cast<std::int64_t>(a.acked)};
      e.rtt = netcc::duration{a.rtt_ns};
      e.ecn_echo = a.ecn_echo;
      for (std::uint8_t h = 0; h < a.hop_count; ++h) {
        a.hops[h] =
            bridge::hop_record{static_cast<std::uint64_t>(now) - h * 100,
                               *rc::gen::inRange<std::uint64_t>(0, 1'000'000),
                               *rc::gen::inRange<std::uint64_t>(0, 1ull << 40), 25'000'000'000ull};
        e.hops.push(netcc::int_hop{a.hops[h].ts_ns,
                                   netcc::bytes{static_cast<std::int64_t>(a.hops[h].qlen)},
                                   a.hops[h].tx_bytes, netcc::bit_rate{25'000'000'000}});
      }
      seam->on_ack(a);
      direct.on_ack(e);
      const netcc::bytes w = direct.cwnd();
      RC_ASSERT(seam->cwnd() == (w == netcc::bytes::max()
                                     ? std::numeric_limits<std::uint64_t>::max()
                                     : static_cast<std::uint64_t>(w.count())));
      const netcc::bit_rate r = direct.pacing_rate();
      RC_ASSERT(seam->pacing_bps() == (r == netcc::bit_rate::max()
                                           ? std::numeric_limits<std::uint64_t>::max()
                                           : static_cast<std::uint64_t>(r.bps())));
    }
  });
}

TEST(Bridge, VegasThroughTheSeamIsVegas) {
  SameThroughTheSeam<netcc::vegas>("vegas");
}
TEST(Bridge, DctcpThroughTheSeamIsDctcp) {
  SameThroughTheSeam<netcc::dctcp>("dctcp");
}
TEST(Bridge, DctcpCountingThroughTheSeamIsDctcpCounting) {
  SameThroughTheSeam<netcc::dctcp_counting>("dctcp_counting");
}
TEST(Bridge, PowerTcpThroughTheSeamIsPowerTcp) {
  SameThroughTheSeam<netcc::powertcp>("powertcp");
}
TEST(Bridge, HpccThroughTheSeamIsHpcc) {
  SameThroughTheSeam<netcc::hpcc>("hpcc");
}

RC_GTEST_PROP(BridgeSwitch, IntPushAppendsNetccsHopBelowTheLimit,
              (std::uint8_t start, std::uint8_t limit, std::int64_t now, std::uint32_t q,
               std::uint64_t tx, std::uint32_t rate)) {
  bridge::hop_record hops[bridge::max_int_hops]{};
  std::uint8_t count = static_cast<std::uint8_t>(start % (bridge::max_int_hops + 1));
  const std::uint8_t before = count;
  const bool pushed = bridge::int_push(hops, count, limit, now, bridge::port_state{q, tx, rate});
  const std::size_t cap =
      std::min<std::size_t>(std::max<std::size_t>(limit, 1), bridge::max_int_hops);
  RC_ASSERT(pushed == (before < cap));
  RC_ASSERT(count == before + (pushed ? 1 : 0));
  if (pushed) {
    const auto h = netcc::make_int_hop<netcc::int_stack<>>(
        netcc::timestamp{now}, netcc::int_port_view{netcc::bytes{q}, tx, netcc::bit_rate{rate}});
    RC_ASSERT(hops[before].ts_ns == h.ts);
    RC_ASSERT(hops[before].qlen == q);
    RC_ASSERT(hops[before].tx_bytes == tx);
    RC_ASSERT(hops[before].rate_bps == rate);
  }
}

RC_GTEST_PROP(BridgeSwitch, RedDecidesAsNetcc,
              (std::uint16_t kmin, std::uint16_t span, std::uint16_t pm, std::uint8_t ecn,
               std::uint32_t backlog, std::uint32_t draw)) {
  const bridge::red_config c{kmin, std::uint64_t{kmin} + span, (pm + 1) / 65536.0, true};
  RC_ASSERT(bridge::check_red(c).empty());
  netcc::red_ecn_params p{netcc::bytes{static_cast<std::int64_t>(c.k_min)},
                          netcc::bytes{static_cast<std::int64_t>(c.k_max)},
                          {},
                          true};
  p.p_max.raw = static_cast<std::uint64_t>(
      std::llround(c.p_max * static_cast<double>(netcc::red_probability::one_raw)));
  const auto d = netcc::red_ecn_on_packet(static_cast<netcc::ecn_codepoint>(ecn & 3),
                                          netcc::bytes{backlog % 200'000}, draw, p);
  const auto v = bridge::red_decide(c, ecn & 3, backlog % 200'000, draw);
  RC_ASSERT(static_cast<int>(v) == static_cast<int>(d.action));
}

RC_GTEST_PROP(BridgeSwitch, TheNotificationPointDecidesAsNetcc,
              (std::vector<std::pair<std::uint16_t, bool>> packets, std::uint16_t interval,
               bool schedule)) {
  bridge::np_flow f;
  netcc::dcqcn_np_flow_state g;
  const netcc::dcqcn_np_params p{netcc::duration{interval}, schedule
                                                                ? netcc::dcqcn_np_mode::schedule
                                                                : netcc::dcqcn_np_mode::suppress};
  std::int64_t t = 0;
  for (const auto& [gap, ce] : packets) {
    t += gap;
    std::int64_t at = 0;
    const auto v = bridge::np_on_packet(f, ce, t, interval, schedule, at);
    const auto d = netcc::dcqcn_np_on_packet(g, ce, netcc::timestamp{t}, p);
    RC_ASSERT(static_cast<int>(v) == static_cast<int>(d.action));
    if (d.action == netcc::dcqcn_np_action::schedule) RC_ASSERT(at == d.at.count());
  }
}

}  // namespace
