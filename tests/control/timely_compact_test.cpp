// SPDX-License-Identifier: MIT
// netcc::timely_compact (netcc/control/timely.hpp): TIMELY's q32 rules over a 32-B packed
// per-flow state. Within the stated ranges every completion takes the same line of Algorithm 1
// as basic_timely<arith::q32>, with the same rtt_diff, prev_rtt and HAI count bit for bit, and
// the rate within the stated rounding bound; outside them the rate stays in [min_rate,
// line_rate]; a shared config with external states equals the object; validation names the
// compact form's extra rule.
#include <netcc/control/make.hpp>
#include <netcc/control/timely.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <vector>

namespace netcc_tests::control_timely_compact {

using namespace netcc::literals;

namespace {

using q32_timely = netcc::basic_timely<netcc::arith::q32>;
using compact = netcc::timely_compact;

struct op {
  int kind;  // 0: on_rtt, 1: on_rtt with a send rate, 2: on_ack, 3: on_send
  std::int64_t t;
  std::int64_t rtt;
  std::int64_t amount;  // bytes (ack, send) or bps (send rate)
};

template <class C>
void apply(C& cc, const op& o) {
  const netcc::timestamp t{o.t};
  const netcc::duration rtt{o.rtt};
  switch (o.kind) {
    case 0:
      cc.on_rtt(netcc::rtt_event{.now = t, .rtt = rtt});
      break;
    case 1:
      cc.on_rtt(netcc::rtt_event{.now = t, .rtt = rtt}, netcc::bit_rate{o.amount});
      break;
    case 2:
      cc.on_ack(netcc::ack_event{.now = t, .acked = netcc::bytes{o.amount}, .rtt = rtt});
      break;
    default:
      cc.on_send(netcc::bytes{o.amount}, t);
  }
}

netcc::timely_params gen_params() {
  netcc::timely_params p;
  p.line_rate = netcc::bit_rate{*rc::gen::element<std::int64_t>(
      1'000'000'000, 10'000'000'000, 100'000'000'000, 400'000'000'000, 2'000'000'000'000'000)};
  p.min_rate = netcc::bit_rate{*rc::gen::element<std::int64_t>(1, 10'000'000, 500'000'000)};
  p.t_low = netcc::duration{*rc::gen::element<std::int64_t>(0, 10'000, 50'000)};
  p.t_high = netcc::duration{*rc::gen::element<std::int64_t>(50'000, 200'000, 500'000)};
  p.delta = netcc::bit_rate{*rc::gen::element<std::int64_t>(0, 10'000'000, 500'000'000)};
  p.beta = *rc::gen::element(0.1, 0.5, 0.8, 1.0);
  p.alpha = *rc::gen::element(0.02, 0.125, 0.875, 1.0);
  p.hai_threshold = static_cast<std::uint32_t>(*rc::gen::inRange(1, 8));
  p.hai_factor = static_cast<std::uint32_t>(*rc::gen::inRange(1, 8));
  p.min_rtt = netcc::duration{*rc::gen::element<std::int64_t>(1, 5'000, 20'000)};
  p.initial_rate = netcc::bit_rate{*rc::gen::element<std::int64_t>(0, 100'000'000)};
  p.app_limit = *rc::gen::element(0.0, 0.8, 1.0);
  p.scale_updates = *rc::gen::arbitrary<bool>();
  p.ack_rtt = *rc::gen::element(netcc::timely_ack_rtt::completion_time, netcc::timely_ack_rtt::net);
  return p;
}

// Traces within the compact form's ranges: RTTs in (0, 2^32) ns (mostly datacenter RTTs with
// rising, falling and equal runs), times from a base anywhere on the clock (so the 32-bit clocks
// wrap) advancing by up to 4 s or stepping back by up to 1 ms, sends and ACKs of up to 1 MB;
// no event later than 2^32 - 2^24 ns after the latest on_rtt completion or the meter's window
// (which opens at most one window, 20 us here, before the latest send), as the ranges require.
// `wild` adds what the ranges exclude: RTTs up to the int64 end, silences of minutes, step-backs
// of seconds, sends of 2^40 B.
std::vector<op> gen_ops(bool wild) {
  const auto n = *rc::gen::inRange(1, 300);
  std::vector<op> v;
  std::int64_t t = *rc::gen::element<std::int64_t>(0, (std::int64_t{1} << 32) - 30'000,
                                                   std::int64_t{1} << 62, -(std::int64_t{1} << 40));
  std::int64_t rtt = 100'000;
  std::optional<std::int64_t> last_rtt, last_send;
  constexpr std::int64_t reach = (std::int64_t{1} << 32) - (std::int64_t{1} << 24) - 20'001;
  for (int i = 0; i < n; ++i) {
    const int dt = *rc::gen::inRange(0, 12);
    if (dt < 6) {
      t += *rc::gen::inRange<std::int64_t>(0, 40'000);
    } else if (dt < 8) {
      t += *rc::gen::inRange<std::int64_t>(0, 5'000'000);
    } else if (dt == 8) {
      t += *rc::gen::inRange<std::int64_t>(0, 4'000'000'000);
    } else if (dt == 9) {
      t -= *rc::gen::inRange<std::int64_t>(0, 1'000'000);
    } else if (dt == 10 && wild) {
      t += *rc::gen::element<std::int64_t>(5'000'000'000, 300'000'000'000, -3'000'000'000);
    }
    if (!wild)
      for (const auto& a : {last_rtt, last_send})
        if (a && t > *a + reach) t = *a + reach;
    const int r = *rc::gen::inRange(0, 5);
    if (r == 0) {
      rtt = *rc::gen::inRange<std::int64_t>(1, 700'000);
    } else if (r == 1 && rtt > 5'000) {
      rtt -= *rc::gen::inRange<std::int64_t>(0, 5'000);
    } else if (r == 2 && rtt < 3'000'000'000) {
      rtt += *rc::gen::inRange<std::int64_t>(0, 5'000);
    } else if (r == 3) {
      rtt = wild ? *rc::gen::element<std::int64_t>(0, -1, 3'600'000'000'000,
                                                   std::numeric_limits<std::int64_t>::max())
                 : *rc::gen::element<std::int64_t>(1, 0xFFFF'FFFF, 1'000'000'000);
    }
    const std::int64_t amount =
        wild ? *rc::gen::element<std::int64_t>(0, 1460, 16'000, 1LL << 40, -1)
             : *rc::gen::element<std::int64_t>(0, 1460, 16'000, 1'000'000, 8'000'000'000);
    const int kind = *rc::gen::inRange(0, 4);
    if (kind <= 1) last_rtt = t;  // on_rtt: a completion (RTTs here are positive)
    if (kind == 3) last_send = t;
    v.push_back({kind, t, rtt, amount});
  }
  return v;
}

// The rate bound of the class comment: (n + 1)(2^rate_shift + 1) q32 raw units after n
// completions.
double rate_bound_mbps(const compact::config& c, int completions) {
  return (completions + 1) * (std::ldexp(1.0, c.rate_shift()) + 1) * 0x1p-32;
}

}  // namespace

TEST(TimelyCompact, StateIs32Bytes) {
  std::printf("timely flow_state: q32 %zu B, compact %zu B; compact config %zu B\n",
              sizeof(q32_timely::flow_state), sizeof(compact::flow_state), sizeof(compact::config));
  EXPECT_LE(sizeof(compact::flow_state), 32u);
  EXPECT_EQ(compact::state_bytes, sizeof(compact::flow_state));
}

TEST(TimelyCompact, RateUnitFollowsTheLineRate) {
  // 10 Gbps = 10^4 Mbps: q32 raw below 2^46, so units of 2^14 raw (2^-18 Mbps); 1 Tbps: 2^-12.
  EXPECT_EQ(compact::config{{.line_rate = 10_Gbps}}.rate_shift(), 14);
  EXPECT_EQ(compact::config{{.line_rate = netcc::bit_rate{1'000'000'000'000}}}.rate_shift(), 20);
  EXPECT_EQ(compact::config{{.line_rate = 10_Gbps}}.sent_shift(), 20);
}

TEST(TimelyCompact, Algorithm1LinesAsQ32) {
  // The hand-computed steps of timely_test.cpp: first sample, gradient, T_high, T_low.
  compact a{{.initial_rate = 5_Gbps}};
  q32_timely b{{.initial_rate = 5_Gbps}};
  const std::int64_t rtts[] = {100'000, 120'000, 1'000'000, 30'000};
  const netcc::timely_action lines[] = {
      netcc::timely_action::increase, netcc::timely_action::decrease_gradient,
      netcc::timely_action::decrease_high, netcc::timely_action::increase_low};
  const double mbps[] = {5010, 4929.84, 2957.904, 2967.904};
  for (int i = 0; i < 4; ++i) {
    const netcc::rtt_event e{.now = netcc::timestamp{100'000 * (i + 1)},
                             .rtt = netcc::duration{rtts[i]}};
    a.on_rtt(e);
    b.on_rtt(e);
    EXPECT_EQ(a.last_action(), lines[i]);
    EXPECT_EQ(a.last_action(), b.last_action());
    EXPECT_EQ(a.rtt_diff_us(), b.rtt_diff_us());
    EXPECT_NEAR(a.rate_mbps().to_double(), mbps[i], 1e-6);
    EXPECT_NEAR(a.rate_mbps().to_double(), b.rate_mbps().to_double(), 0x1p-17);
  }
}

TEST(TimelyCompact, SlowlyDecayingNegativeDifferenceKeepsHai) {
  // The sub-microsecond rtt_diff: one 1 us fall, then equal RTTs; the filter decays towards 0
  // without reaching it and HAI keeps counting, as in q32.
  compact a{{.initial_rate = 5_Gbps}};
  q32_timely b{{.initial_rate = 5_Gbps}};
  std::int64_t t = 0;
  for (int i = 0; i < 2000; ++i) {
    t += 20'000;
    const netcc::rtt_event e{.now = netcc::timestamp{t},
                             .rtt = netcc::duration{i == 0 ? 101'000 : 100'000}};
    a.on_rtt(e);
    b.on_rtt(e);
    ASSERT_EQ(a.rtt_diff_us(), b.rtt_diff_us()) << i;
    ASSERT_EQ(a.last_action(), b.last_action()) << i;
    ASSERT_EQ(a.negative_gradients(), b.negative_gradients() < 255 ? b.negative_gradients() : 255u)
        << i;
  }
  EXPECT_LT(a.rtt_diff_us().raw(), 0);
  EXPECT_TRUE(a.hai());
  EXPECT_EQ(a.negative_gradients(), 255u);
}

TEST(TimelyCompact, ClocksWrapAndStepBack) {
  // Completions 5 us apart across the 2^32 ns boundary scale by 0.25 of a 20 us min RTT, as q32;
  // one stamped 10 us back (within 2^24 ns) scales by 0.
  compact a{{.initial_rate = 5_Gbps}};
  q32_timely b{{.initial_rate = 5_Gbps}};
  std::int64_t t = (std::int64_t{1} << 32) - 12'000;
  for (int i = 0; i < 8; ++i) {
    t += i == 5 ? -10'000 : 5'000;
    const netcc::rtt_event e{.now = netcc::timestamp{t}, .rtt = 30_us};
    a.on_rtt(e);
    b.on_rtt(e);
    ASSERT_NEAR(a.rate_mbps().to_double(), b.rate_mbps().to_double(), 0x1p-16) << i;
  }
  // The first (f = 1), four at f = 0.25, then three at or behind the latest time (f = 0).
  EXPECT_NEAR(a.rate_mbps().to_double(), 5010 + 4 * 2.5, 1e-4);
}

TEST(TimelyCompact, ClockRangeEndsAreReadAsDocumented) {
  // The longest forward gap the compact clocks read exactly, 2^32 - 2^24 ns, is a gap (f = 1 on
  // line 9's decrease, as q32), not a step back of 2^24 ns (f = 0); one step back of 2^24 - 1 ns
  // is a step back.
  const std::int64_t longest = (std::int64_t{1} << 32) - (std::int64_t{1} << 24);
  for (const std::int64_t gap : {longest, longest - 1}) {
    compact a{};
    q32_timely b{};
    for (const auto& e : {netcc::rtt_event{.now = netcc::timestamp{1000}, .rtt = 100_us},
                          netcc::rtt_event{.now = netcc::timestamp{1000 + gap}, .rtt = 1_ms}}) {
      a.on_rtt(e);
      b.on_rtt(e);
    }
    EXPECT_EQ(a.last_action(), b.last_action()) << gap;
    EXPECT_NEAR(a.rate_mbps().to_double(), b.rate_mbps().to_double(), 0x1p-16) << gap;
    EXPECT_LT(a.rate_mbps().to_double(), 9000.0) << gap;  // the decrease happened (f = 1)
  }
  compact a{};
  q32_timely b{};
  const std::int64_t t0 = std::int64_t{1} << 40;
  for (const auto& e :
       {netcc::rtt_event{.now = netcc::timestamp{t0}, .rtt = 100_us},
        netcc::rtt_event{.now = netcc::timestamp{t0 - (std::int64_t{1} << 24) + 1}, .rtt = 1_ms}}) {
    a.on_rtt(e);
    b.on_rtt(e);
  }
  EXPECT_EQ(a.last_action(), b.last_action());
  EXPECT_NEAR(a.rate_mbps().to_double(), b.rate_mbps().to_double(), 0x1p-16);
}

TEST(TimelyCompact, ValidateNamesTheCompactRule) {
  const auto v = compact::validate({.hai_threshold = 300});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].message(),
            "timely.hai_threshold = 300: must be at most 255 in timely_compact (an 8-bit HAI "
            "count)");
  EXPECT_TRUE(compact::validate({.hai_threshold = 255}).ok());
  EXPECT_FALSE(compact::validate({.beta = 1.5}).ok());
  EXPECT_EQ(compact{{.hai_threshold = 300}}.params().hai_threshold, 5u);  // falls back
}

TEST(TimelyCompact, MakeChecksTheCompactRule) {
  // netcc::make uses the form's own validate: the compact rule is reported, nothing is built.
  const auto made = netcc::make<compact>({.hai_threshold = 300});
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.errors()[0].message(),
            "timely.hai_threshold = 300: must be at most 255 in timely_compact (an 8-bit HAI "
            "count)");
  EXPECT_TRUE(netcc::make<compact>({.hai_threshold = 255}).ok());
  // The full-width form has no such limit.
  EXPECT_TRUE(netcc::make<netcc::basic_timely<netcc::arith::q32>>({.hai_threshold = 300}).ok());
}

RC_GTEST_PROP(TimelyCompactProp, CompactWithinItsRateBoundOfQ32, ()) {
  // Within the ranges: every completion takes q32's line with q32's HAI count, rtt_diff and
  // prev_rtt bit for bit; the rate is within (n + 1)(2^rate_shift + 1) 2^-32 Mbps after n
  // completions. The application-limited test may differ when the sending rate lies within
  // that bound (or the meter's unit) of 80 % of the rate: the comparison stops there.
  const auto p = gen_params();
  const auto ops = gen_ops(false);
  compact a{p};
  q32_timely b{p};
  int completions = 0;
  for (const auto& o : ops) {
    apply(a, o);
    apply(b, o);
    if (o.kind != 3) ++completions;  // at most one completion per event
    if (a.increase_held() != b.increase_held()) {
      RC_TAG("stopped: send rate on the 80 % boundary");
      RC_ASSERT(p.app_limit > 0);
      return;
    }
    RC_ASSERT(a.last_action() == b.last_action());
    RC_ASSERT(a.negative_gradients() ==
              (b.negative_gradients() < 255 ? b.negative_gradients() : 255u));
    RC_ASSERT(a.hai() == b.hai());
    RC_ASSERT(a.rtt_diff_us() == b.rtt_diff_us());
    RC_ASSERT(a.gradient() == b.gradient());
    RC_ASSERT(a.prev_rtt() == b.prev_rtt());
    RC_ASSERT(std::abs(a.rate_mbps().to_double() - b.rate_mbps().to_double()) <=
              rate_bound_mbps(a.configuration(), completions));
  }
}

RC_GTEST_PROP(TimelyCompactProp, CompactEventIsTheQ32RuleOnItsUnpackedState, ()) {
  // Any trace, the ranges ignored: every event leaves the packed state that the q32 rule run on
  // the unpacked state (at the event's time) and packed again leaves, bit for bit.
  const auto p = gen_params();
  const compact::config cfg{p};
  const auto& q = cfg.wide_configuration();
  compact::flow_state st = cfg.initial_state();
  for (const auto& o : gen_ops(true)) {
    const netcc::timestamp t{o.t};
    const netcc::duration rtt{o.rtt};
    auto w = cfg.unpacked(st, t);
    switch (o.kind) {
      case 0:
        cfg.on_rtt(st, netcc::rtt_event{.now = t, .rtt = rtt});
        q.on_rtt(w, netcc::rtt_event{.now = t, .rtt = rtt});
        break;
      case 1:
        cfg.on_rtt(st, netcc::rtt_event{.now = t, .rtt = rtt}, netcc::bit_rate{o.amount});
        q.on_rtt(w, netcc::rtt_event{.now = t, .rtt = rtt}, netcc::bit_rate{o.amount});
        break;
      case 2:
        cfg.on_ack(st, netcc::ack_event{.now = t, .acked = netcc::bytes{o.amount}, .rtt = rtt});
        q.on_ack(w, netcc::ack_event{.now = t, .acked = netcc::bytes{o.amount}, .rtt = rtt});
        break;
      default:
        cfg.on_send(st, netcc::bytes{o.amount}, t);
        q.on_send(w, netcc::bytes{o.amount}, t);
    }
    // An event that is no completion (an RTT of zero or below, an ACK of no bytes or whose RTT
    // is no longer than the serialisation) changes nothing: the state as it was.
    const auto& in = cfg.params();
    const bool no_ack_rtt = in.ack_rtt == netcc::timely_ack_rtt::completion_time &&
                            netcc::timely_rtt(rtt, std::min(netcc::bytes{o.amount}, in.segment),
                                              in.line_rate) <= netcc::duration::zero();
    const bool ignored =
        o.kind != 3 && (o.rtt <= 0 || (o.kind == 2 && (o.amount <= 0 || no_ack_rtt)));
    const compact::flow_state ref = ignored ? st : cfg.packed(w);
    RC_ASSERT(st.diff_hai == ref.diff_hai);
    RC_ASSERT(st.rate == ref.rate);
    RC_ASSERT(st.prev_rtt == ref.prev_rtt);
    RC_ASSERT(st.last == ref.last);
    RC_ASSERT(st.meter_start == ref.meter_start);
    RC_ASSERT(st.meter_bytes == ref.meter_bytes);
    RC_ASSERT(st.bits == ref.bits);
  }
}

RC_GTEST_PROP(TimelyCompactProp, BoundedForAnyTrace, ()) {
  // Any trace, the ranges ignored: the rate stays in [min_rate, line_rate]; an RTT above T_high
  // never raises it and one below T_low never lowers it.
  const auto p = gen_params();
  compact cc{p};
  const auto q = cc.params();
  for (const auto& o : gen_ops(true)) {
    const auto before = cc.rate_mbps();
    apply(cc, o);
    RC_ASSERT(cc.rate() >= q.min_rate);
    RC_ASSERT(cc.rate() <= q.line_rate);
    RC_ASSERT(cc.rate_mbps().to_double() <= static_cast<double>(q.line_rate.bps()) / 1e6);
    if (o.kind == 0 && o.rtt > q.t_high.count()) RC_ASSERT(cc.rate_mbps() <= before);
    if (o.kind == 0 && o.rtt > 0 && o.rtt < q.t_low.count()) RC_ASSERT(cc.rate_mbps() >= before);
  }
}

RC_GTEST_PROP(TimelyCompactProp, SharedConfigWithExternalStateMatchesTheObject, ()) {
  const auto p = gen_params();
  compact cc{p};
  const compact::config cfg{p};
  compact::flow_state st = cfg.initial_state();
  for (const auto& o : gen_ops(true)) {
    apply(cc, o);
    const netcc::timestamp t{o.t};
    const netcc::duration rtt{o.rtt};
    switch (o.kind) {
      case 0:
        cfg.on_rtt(st, netcc::rtt_event{.now = t, .rtt = rtt});
        break;
      case 1:
        cfg.on_rtt(st, netcc::rtt_event{.now = t, .rtt = rtt}, netcc::bit_rate{o.amount});
        break;
      case 2:
        cfg.on_ack(st, netcc::ack_event{.now = t, .acked = netcc::bytes{o.amount}, .rtt = rtt});
        break;
      default:
        cfg.on_send(st, netcc::bytes{o.amount}, t);
    }
    const auto& s = cc.state();
    RC_ASSERT(s.diff_hai == st.diff_hai && s.rate == st.rate && s.prev_rtt == st.prev_rtt);
    RC_ASSERT(s.last == st.last && s.meter_start == st.meter_start &&
              s.meter_bytes == st.meter_bytes && s.bits == st.bits);
    RC_ASSERT(cfg.rate(st) == cc.rate() && cfg.send_rate(st) == cc.send_rate());
  }
}

}  // namespace netcc_tests::control_timely_compact
