// SPDX-License-Identifier: MIT
// The controller contract (netcc/control/controller_concepts.hpp) from a stack's side: a foreign
// ACK, CNP and SRC type, wired through feedback_traits, drive every controller through one
// generic adapter that knows nothing of any controller but netcc::consumes, the handlers of
// the contract and the outputs cwnd() (bytes) and pacing_rate() (bit_rate).
#include <netcc/control/bolt_sender.hpp>
#include <netcc/control/controller_concepts.hpp>
#include <netcc/control/dcqcn.hpp>
#include <netcc/control/dctcp.hpp>
#include <netcc/control/fasttune.hpp>
#include <netcc/control/hpcc.hpp>
#include <netcc/control/make.hpp>
#include <netcc/control/powertcp.hpp>
#include <netcc/control/swift.hpp>
#include <netcc/control/timely.hpp>
#include <netcc/control/vegas.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

// ----------------------------------------------------------------- a stack of someone else's
namespace my_stack {
struct int_record {  // as a NIC might lay out one INT hop: raw counters, rate in Gbps
  std::uint64_t egress_ns;
  std::uint32_t queue_bytes;
  std::uint64_t tx_bytes;
  std::uint16_t gbps;
};
struct ack {
  std::uint64_t t_ns;
  std::uint64_t cum_ack, next_seq;
  std::uint32_t newly_acked;
  std::uint32_t rtt_ns;
  bool ce, inc;
  std::uint8_t nhops;
  int_record hop[5];
};
struct cnp {
  std::uint64_t t_ns;
};
struct src {
  std::uint64_t t_ns;
  std::uint32_t queue_bytes;
  std::uint16_t gbps;
  std::uint32_t tx_ts;
};
}  // namespace my_stack

template <>
struct netcc::feedback_traits<my_stack::ack> {
  using timestamp_clock = netcc::wrapping_clock<64>;
  using tx_counter = netcc::wrapping_counter<64, 1>;
  static netcc::timestamp now(const my_stack::ack& a) {
    return netcc::timestamp{static_cast<std::int64_t>(a.t_ns)};
  }
  static netcc::sequence ack_seq(const my_stack::ack& a) { return a.cum_ack; }
  static netcc::sequence snd_nxt(const my_stack::ack& a) { return a.next_seq; }
  static netcc::bytes acked_bytes(const my_stack::ack& a) { return netcc::bytes{a.newly_acked}; }
  static netcc::duration rtt(const my_stack::ack& a) { return netcc::duration{a.rtt_ns}; }
  static bool ecn_echo(const my_stack::ack& a) { return a.ce; }
  static bool inc(const my_stack::ack& a) { return a.inc; }
  static std::size_t hop_count(const my_stack::ack& a) { return std::min<std::size_t>(a.nhops, 5); }
  static netcc::int_hop hop(const my_stack::ack& a, std::size_t i) {
    const auto& h = a.hop[i];
    return {.ts = h.egress_ns,
            .qlen = netcc::bytes{h.queue_bytes},
            .tx_bytes = h.tx_bytes,
            .link_rate = netcc::bit_rate{std::int64_t{h.gbps} * 1'000'000'000}};
  }
};

template <>
struct netcc::feedback_traits<my_stack::cnp> {
  static netcc::timestamp now(const my_stack::cnp& c) {
    return netcc::timestamp{static_cast<std::int64_t>(c.t_ns)};
  }
};

template <>
struct netcc::feedback_traits<my_stack::src> {
  using src_clock = netcc::wrapping_clock<32>;
  static netcc::timestamp now(const my_stack::src& s) {
    return netcc::timestamp{static_cast<std::int64_t>(s.t_ns)};
  }
  static netcc::bytes queue_size(const my_stack::src& s) { return netcc::bytes{s.queue_bytes}; }
  static netcc::bit_rate link_rate(const my_stack::src& s) {
    return netcc::bit_rate{std::int64_t{s.gbps} * 1'000'000'000};
  }
  static std::uint64_t tx_timestamp(const my_stack::src& s) { return s.tx_ts; }
};

namespace netcc_tests::control_contract {

using namespace netcc::literals;

// ------------------------------------------------------------------------ the one adapter
namespace {

struct trace {
  bool reacted = false;  // some output moved away from its initial value
  bool bounded = true;   // outputs positive at every step
  netcc::bytes min_cwnd = netcc::bytes::max();
  netcc::bit_rate min_rate = netcc::bit_rate::max();
  int events = 0;  // handler calls made
};

// A sender on one 100 Gbps bottleneck, 10 us base RTT: 3000 packets of 1460 B, one per 120 ns;
// the queue rises by one packet per two ACKs from ACK 500 to 1500, then drains. CE marks, CNPs
// and SRCs follow the queue; a loss at ACK 2000 and a timeout at 2500.
template <class C>
requires netcc::ControllerFor<C, my_stack::ack, my_stack::cnp, my_stack::src> trace drive(C cc) {
  using netcc::cc_event;
  trace tr;
  const netcc::bytes w0 = cc.cwnd();
  const netcc::bit_rate r0 = cc.pacing_rate();
  std::uint64_t t = 1'000'000, seq = 0, tx = 0;
  std::uint32_t q = 0;
  for (int i = 0; i < 3000; ++i) {
    t += 120;
    seq += 1460;
    tx += 1500;
    if (i >= 500 && i < 1500 && i % 2 == 0) q += 1500;
    if (i >= 1500 && q >= 3000) q -= 3000;
    const bool congested = q > 30'000;
    if constexpr (netcc::consumes<C>(cc_event::send)) {
      cc.on_send(netcc::bytes{1460}, netcc::timestamp{static_cast<std::int64_t>(t)});
      ++tr.events;
    }
    my_stack::ack a{.t_ns = t,
                    .cum_ack = seq,
                    .next_seq = seq + 20 * 1460,
                    .newly_acked = 1460,
                    .rtt_ns = 10'000 + q / 12,  // base + queueing at 100 Gbps (12.5 B/ns)
                    .ce = congested,
                    .inc = i % 16 == 0,
                    .nhops = 1,
                    .hop = {}};
    a.hop[0] = {.egress_ns = t - 5000, .queue_bytes = q, .tx_bytes = tx, .gbps = 100};
    if constexpr (netcc::consumes<C>(cc_event::ack)) {
      cc.on_ack(a);
      ++tr.events;
    }
    if constexpr (netcc::consumes<C>(cc_event::rtt)) {
      cc.on_rtt(a);
      ++tr.events;
    }
    if constexpr (netcc::consumes<C>(cc_event::cnp)) {
      if (congested && i % 50 == 0) {
        cc.on_cnp(my_stack::cnp{t});
        ++tr.events;
      }
    }
    if constexpr (netcc::consumes<C>(cc_event::src)) {
      if (congested && i % 8 == 0) {
        cc.on_src(my_stack::src{t, q, 100, static_cast<std::uint32_t>(t - 6000)});
        ++tr.events;
      }
    }
    if constexpr (netcc::consumes<C>(cc_event::timer)) {
      cc.on_timer(netcc::timestamp{static_cast<std::int64_t>(t)});
      ++tr.events;
    }
    if constexpr (netcc::consumes<C>(cc_event::loss)) {
      if (i == 2000) {
        cc.on_loss(a);
        ++tr.events;
      }
    }
    if constexpr (netcc::consumes<C>(cc_event::timeout)) {
      if (i == 2500) {
        cc.on_timeout(netcc::timestamp{static_cast<std::int64_t>(t)});
        ++tr.events;
      }
    }
    const netcc::bytes w = cc.cwnd();
    const netcc::bit_rate r = cc.pacing_rate();
    tr.reacted = tr.reacted || w != w0 || r != r0;
    tr.bounded = tr.bounded && w > netcc::bytes{0} && r > netcc::bit_rate{0};
    tr.min_cwnd = std::min(tr.min_cwnd, w);
    tr.min_rate = std::min(tr.min_rate, r);
  }
  return tr;
}

template <class C>
C built() {
  auto made = netcc::make<C>();  // the papers' defaults, checked
  EXPECT_TRUE(made.ok()) << made.errors().to_string();
  return *made;
}

template <class C>
class Contract : public ::testing::Test {};
using every_controller = ::testing::Types<
    netcc::powertcp, netcc::basic_powertcp<netcc::arith::q32>, netcc::theta_powertcp,
    netcc::basic_powertcp<netcc::arith::q32, netcc::rtt_power>, netcc::hpcc,
    netcc::basic_hpcc<netcc::arith::q32>, netcc::fasttune, netcc::basic_fasttune<netcc::arith::q32>,
    netcc::swift, netcc::basic_swift<netcc::arith::q32>, netcc::dctcp, netcc::dctcp_fixed,
    netcc::vegas, netcc::vegas_fixed, netcc::bolt_sender,
    netcc::basic_bolt_sender<netcc::arith::q32>, netcc::timely,
    netcc::basic_timely<netcc::arith::q32>, netcc::dcqcn, netcc::basic_dcqcn<netcc::arith::q32>>;
TYPED_TEST_SUITE(Contract, every_controller);

}  // namespace

// Every controller, double and fixed point, models the contract and takes the foreign types.
static_assert(netcc::ControllerFor<netcc::powertcp, my_stack::ack>);
static_assert(netcc::ControllerFor<netcc::theta_powertcp, my_stack::ack>);
static_assert(netcc::ControllerFor<netcc::hpcc, my_stack::ack>);
static_assert(netcc::ControllerFor<netcc::fasttune, my_stack::ack>);
static_assert(netcc::ControllerFor<netcc::swift, my_stack::ack>);
static_assert(netcc::ControllerFor<netcc::dctcp, my_stack::ack>);
static_assert(netcc::ControllerFor<netcc::vegas, my_stack::ack>);
static_assert(
    netcc::ControllerFor<netcc::bolt_sender, my_stack::ack, my_stack::cnp, my_stack::src>);
static_assert(netcc::ControllerFor<netcc::timely, my_stack::ack>);
static_assert(netcc::ControllerFor<netcc::dcqcn, my_stack::ack, my_stack::cnp>);
// An ACK without INT does not fit the INT controllers; an RTT event fits TIMELY's on_rtt alias.
static_assert(!netcc::ControllerFor<netcc::hpcc, netcc::rtt_event>);
static_assert(!netcc::ControllerFor<netcc::powertcp, netcc::rtt_event>);
static_assert(netcc::RttConsumer<netcc::timely, netcc::rtt_event>);

TYPED_TEST(Contract, ReactsThroughTheContractAloneWithBoundedOutputs) {
  const trace tr = drive(built<TypeParam>());
  EXPECT_GT(tr.events, 0);
  EXPECT_TRUE(tr.reacted) << "outputs never moved";
  EXPECT_TRUE(tr.bounded) << "min cwnd " << tr.min_cwnd.count() << " B, min rate "
                          << tr.min_rate.count() << " bps";
}

TYPED_TEST(Contract, OutputsFollowTheUnitConventions) {
  const TypeParam cc = built<TypeParam>();
  constexpr bool rate_based = !netcc::consumes<TypeParam>(netcc::cc_event::ack);
  // A purely rate-based controller has no window; every controller reports a rate or
  // bit_rate::max() (not paced).
  if (rate_based) {
    EXPECT_EQ(cc.cwnd(), netcc::bytes::max());
  }
  EXPECT_GT(cc.pacing_rate(), netcc::bit_rate{0});
  EXPECT_GT(cc.cwnd(), netcc::bytes{0});
}

TEST(Contract, EventSets) {
  using netcc::cc_event;
  static_assert(netcc::consumes<netcc::dcqcn>(cc_event::cnp));
  static_assert(netcc::consumes<netcc::dcqcn>(cc_event::timer));
  static_assert(!netcc::consumes<netcc::dcqcn>(cc_event::ack));
  static_assert(netcc::consumes<netcc::bolt_sender>(cc_event::src));
  static_assert(netcc::consumes<netcc::timely>(cc_event::ack));
  static_assert(netcc::controller_traits<netcc::swift>::events ==
                (cc_event::ack | cc_event::loss | cc_event::timeout));
  constexpr netcc::event_set none{};
  EXPECT_TRUE(none.empty());
  EXPECT_FALSE((cc_event::ack | cc_event::rtt).contains(cc_event::cnp));
}

TEST(Contract, CheckedConstructionNamesEveryBadField) {
  auto bad = netcc::make<netcc::powertcp>({.gamma = 1.5, .host_rate = netcc::bit_rate{0}});
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(bad.errors().names("powertcp.gamma"));
  EXPECT_TRUE(bad.errors().names("powertcp.host_rate"));
  for (const auto& e : bad.errors()) {
    EXPECT_FALSE(e.value.empty());
    EXPECT_FALSE(e.rule.empty());
  }
  auto good = netcc::make<netcc::dctcp>();
  ASSERT_TRUE(good);
  EXPECT_EQ(good->cwnd(), netcc::dctcp{}.cwnd());
}

// Checked construction agrees with validate(): it builds exactly when the parameters are valid,
// and then builds what the unchecked constructor builds.
RC_GTEST_PROP(Contract, MakeBuildsExactlyTheValidParameters, ()) {
  netcc::swift_params p;
  p.base_target = netcc::duration{*rc::gen::inRange<std::int64_t>(-1000, 100'000)};
  p.max_mdf = *rc::gen::element(-0.5, 0.0, 0.25, 0.5, 1.0, 1.5);
  const auto made = netcc::make<netcc::swift>(p);
  RC_ASSERT(made.ok() == validate(p).ok());
  if (made) RC_ASSERT(made->cwnd() == netcc::swift{p}.cwnd());
}

RC_GTEST_PROP(Contract, FastFixedPointQuotientIsOperatorDivision, ()) {
  // detail::quotient (one hardware division) gives operator/'s value for every pair of raw
  // values: small, large, negative, zero divisors, saturating quotients.
  using q32 = netcc::fixed_point<31, 32>;
  using q16 = netcc::fixed_point<20, 16>;
  const auto raw = [](std::int64_t lim) {
    return *rc::gen::oneOf(rc::gen::inRange<std::int64_t>(-lim, lim),
                           rc::gen::inRange<std::int64_t>(-4096, 4097),
                           rc::gen::element<std::int64_t>(0, 1, -1, lim, -lim, lim / 2));
  };
  const q32 a = q32::from_raw(raw(q32::raw_max)), b = q32::from_raw(raw(q32::raw_max));
  RC_ASSERT(netcc::detail::quotient(a, b) == a / b);
  const q16 c = q16::from_raw(raw(q16::raw_max)), d = q16::from_raw(raw(q16::raw_max));
  RC_ASSERT(netcc::detail::quotient(c, d) == c / d);
  RC_ASSERT(netcc::detail::quotient(1.5, 0.5) == 3.0);
}

}  // namespace netcc_tests::control_contract
