// SPDX-License-Identifier: MIT
// DCQCN reaction point (netcc/control/dcqcn.hpp): hand-computed examples of DCQCN SIGCOMM'15
// §3.1 and the network-calculus seed's §V rules, Table I and Table II, and RapidCheck properties
// (bounds, a CNP never raises R_C, Table I for every increase event, late timers equal step-by-
// step timers, double and q32 agree; config with an external flow_state equals the object; the
// 32-B compact state against q32 within its stated bound), and the compact ranges' validation.
#include <netcc/control/dcqcn.hpp>
#include <netcc/control/make.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace netcc_tests::control_dcqcn {

using namespace netcc::literals;

namespace {

using q32_dcqcn = netcc::basic_dcqcn<netcc::arith::q32>;

netcc::cnp_event cnp(std::int64_t t) {
  return {.now = netcc::timestamp{t}};
}

double gbps(netcc::bit_rate r) {
  return static_cast<double>(r.bps()) / 1e9;
}

double mbps(double v) {
  return v;
}
double mbps(netcc::fixed_point<31, 32> v) {
  return v.to_double();
}

constexpr double g = 1.0 / 256;

struct op {
  int kind;  // 0 CNP, 1 timer, 2 send
  std::int64_t t;
  std::int64_t bytes;
};

// Random call sequences: times mostly advancing (some equal, some earlier), CNP storms, long
// silences, sends of any size.
std::vector<op> gen_ops() {
  const auto n = *rc::gen::inRange(1, 300);
  std::vector<op> v;
  std::int64_t t = 0;
  for (int i = 0; i < n; ++i) {
    const int kind = *rc::gen::inRange(0, 3);
    const int dt = *rc::gen::inRange(0, 10);
    if (dt < 6) {
      t += *rc::gen::inRange<std::int64_t>(0, 60'000);
    } else if (dt < 8) {
      t += *rc::gen::inRange<std::int64_t>(0, 5'000'000);
    } else if (dt == 8) {
      t -= *rc::gen::inRange<std::int64_t>(0, 100'000);  // out of order
    }                                                    // else: the same time
    v.push_back({kind, t, *rc::gen::element<std::int64_t>(0, 1500, 4096, 10'000'000, 1LL << 40)});
  }
  return v;
}

// Valid parameters across the options, rates and timers.
netcc::dcqcn_params gen_params() {
  netcc::dcqcn_params p;
  p.line_rate = netcc::bit_rate{
      *rc::gen::element<std::int64_t>(10'000'000'000, 40'000'000'000, 100'000'000'000)};
  p.min_rate = netcc::bit_rate{*rc::gen::element<std::int64_t>(1, 1'000'000, 100'000'000)};
  p.g = *rc::gen::element(1.0 / 256, 1.0 / 16, 1.0);
  p.alpha_timer = netcc::duration{*rc::gen::element<std::int64_t>(1'000, 55'000, 300'000)};
  p.rate_timer = netcc::duration{*rc::gen::element<std::int64_t>(1'000, 55'000, 300'000)};
  p.byte_counter = netcc::bytes{*rc::gen::element<std::int64_t>(32'767, 10'000'000)};
  p.r_ai = netcc::bit_rate{*rc::gen::element<std::int64_t>(0, 5'000'000, 40'000'000)};
  p.r_hi = netcc::bit_rate{*rc::gen::element<std::int64_t>(0, 50'000'000, 1'000'000'000)};
  p.f = static_cast<std::uint32_t>(*rc::gen::inRange(1, 8));
  p.cut = *rc::gen::element(netcc::dcqcn_cut::half_alpha, netcc::dcqcn_cut::full_alpha);
  p.target =
      *rc::gen::element(netcc::dcqcn_target::every_cnp, netcc::dcqcn_target::after_timer_increase);
  p.hyper = *rc::gen::element(netcc::dcqcn_hyper::table_i, netcc::dcqcn_hyper::from_one);
  return p;
}

template <class C>
void apply(C& rp, const op& o) {
  if (o.kind == 0) {
    rp.on_cnp(cnp(o.t));
  } else if (o.kind == 1) {
    rp.on_timer(netcc::timestamp{o.t});
  } else {
    rp.on_send(netcc::bytes{o.bytes}, netcc::timestamp{o.t});
  }
}

}  // namespace

TEST(Dcqcn, DefaultsAreTableIIAndThePaper) {
  const netcc::dcqcn rp;
  const auto p = rp.params();
  EXPECT_DOUBLE_EQ(p.g, 1.0 / 256);
  EXPECT_EQ(p.alpha_timer, 55_us);
  EXPECT_EQ(p.rate_timer, 55_us);
  EXPECT_EQ(p.byte_counter, 10_MB);
  EXPECT_EQ(p.r_ai, 5_Mbps);
  EXPECT_EQ(p.r_hi, 50_Mbps);
  EXPECT_EQ(p.f, 5u);
  EXPECT_EQ(p.line_rate, 40_Gbps);
  EXPECT_EQ(p.min_rate, 1_Mbps);
  EXPECT_EQ(p.cut, netcc::dcqcn_cut::half_alpha);
  EXPECT_EQ(p.target, netcc::dcqcn_target::every_cnp);
  EXPECT_EQ(p.hyper, netcc::dcqcn_hyper::table_i);
  EXPECT_EQ(rp.rate(), 40_Gbps);  // starts at line rate, alpha = 1
  EXPECT_EQ(rp.target_rate(), 40_Gbps);
  EXPECT_DOUBLE_EQ(rp.alpha(), 1.0);
  EXPECT_EQ(rp.cnps(), 0u);
  EXPECT_TRUE(netcc::validate(p).ok());
  EXPECT_EQ(netcc::dcqcn::state_bytes, 64u);
  EXPECT_EQ(q32_dcqcn::state_bytes, 64u);
}

TEST(Dcqcn, FirstCnpHalvesTheLineRateAndKeepsAlphaAtOne) {
  netcc::dcqcn rp;
  // Nothing runs before the first CNP: 10 ms of timers and 100 MB of sends change nothing.
  rp.on_timer(netcc::timestamp{10'000'000});
  rp.on_send(100_MB, netcc::timestamp{10'000'000});
  EXPECT_EQ(rp.rate(), 40_Gbps);
  EXPECT_DOUBLE_EQ(rp.alpha(), 1.0);
  EXPECT_EQ(rp.byte_count(), 0u);
  EXPECT_EQ(rp.timer_count(), 0u);
  // First CNP: R_T = R_C = 40; R_C = 40 (1 - 1/2) = 20 Gbps; alpha = (1 - g) 1 + g = 1.
  rp.on_cnp(cnp(10'001'000));
  EXPECT_DOUBLE_EQ(gbps(rp.rate()), 20.0);
  EXPECT_DOUBLE_EQ(gbps(rp.target_rate()), 40.0);
  EXPECT_DOUBLE_EQ(rp.alpha(), 1.0);
  EXPECT_EQ(rp.cnps(), 1u);
  // Second CNP: R_T = 20, R_C = 10 Gbps.
  rp.on_cnp(cnp(10'002'000));
  EXPECT_DOUBLE_EQ(gbps(rp.rate()), 10.0);
  EXPECT_DOUBLE_EQ(gbps(rp.target_rate()), 20.0);
}

TEST(Dcqcn, RateTimerRunsFastRecoveryThenAdditiveIncrease) {
  netcc::dcqcn rp;
  rp.on_cnp(cnp(1000));
  rp.on_cnp(cnp(2000));  // R_T = 20, R_C = 10 Gbps; timers restart at 2 us
  // Rate timer from 2 us: expiries at 57, 112, 167, 222 us: i_T = 1..4 < F, fast recovery,
  // R_C = (R_C + 20) / 2: 15, 17.5, 18.75, 19.375 Gbps; R_T stays 20.
  const double fr[] = {15.0, 17.5, 18.75, 19.375};
  for (int k = 0; k < 4; ++k) {
    rp.on_timer(netcc::timestamp{2000 + 55'000 * (k + 1)});
    EXPECT_EQ(rp.timer_count(), static_cast<std::uint32_t>(k + 1));
    EXPECT_EQ(rp.phase(), netcc::dcqcn_phase::fast_recovery);
    EXPECT_DOUBLE_EQ(gbps(rp.rate()), fr[k]);
    EXPECT_DOUBLE_EQ(gbps(rp.target_rate()), 20.0);
  }
  // i_T = 5 = F: additive, R_T = 20 + 0.005 = 20.005, R_C = (19.375 + 20.005) / 2 = 19.69 Gbps.
  rp.on_timer(netcc::timestamp{2000 + 55'000 * 5});
  EXPECT_EQ(rp.phase(), netcc::dcqcn_phase::additive);
  EXPECT_DOUBLE_EQ(gbps(rp.target_rate()), 20.005);
  EXPECT_DOUBLE_EQ(gbps(rp.rate()), 19.69);
  // The alpha timer (K = 55 us) fired five times since the CNP: alpha = (1 - g)^5.
  EXPECT_NEAR(rp.alpha(), std::pow(1 - g, 5), 1e-15);
  // A CNP now cuts with that alpha: R_T = 19.69, R_C = 19.69 (1 - alpha / 2) Gbps, and
  // alpha = (1 - g) alpha + g; both counters reset.
  const double a = rp.alpha();
  rp.on_cnp(cnp(2000 + 55'000 * 5));
  EXPECT_NEAR(gbps(rp.target_rate()), 19.69, 1e-9);
  EXPECT_NEAR(gbps(rp.rate()), 19.69 * (1 - a / 2), 1e-9);
  EXPECT_NEAR(rp.alpha(), (1 - g) * a + g, 1e-15);
  EXPECT_EQ(rp.timer_count(), 0u);
}

TEST(Dcqcn, ByteCounterAndHyperIncreaseFollowTableI) {
  for (const auto h : {netcc::dcqcn_hyper::table_i, netcc::dcqcn_hyper::from_one}) {
    netcc::dcqcn rp{{.hyper = h}};
    const double one = h == netcc::dcqcn_hyper::from_one ? 1.0 : 0.0;
    rp.on_cnp(cnp(0));
    rp.on_cnp(cnp(0));  // R_T = 20, R_C = 10 Gbps (alpha stays 1)
    // Five B-byte sends at t = 0: i_B = 1..4 fast recovery (15, 17.5, 18.75, 19.375); i_B = 5:
    // max(i_T, i_B) = 5, additive: R_T = 20.005, R_C = 19.69 Gbps.
    for (int k = 0; k < 5; ++k) rp.on_send(10_MB, netcc::timestamp{0});
    EXPECT_EQ(rp.byte_count(), 5u);
    EXPECT_DOUBLE_EQ(gbps(rp.rate()), 19.69);
    // Timer expiries i_T = 1..4 stay additive (i_B = 5, i_T < 5): R_T += 5 Mbps each: 20.025.
    for (int k = 1; k <= 4; ++k) rp.on_timer(netcc::timestamp{55'000 * k});
    EXPECT_NEAR(gbps(rp.target_rate()), 20.025, 1e-12);
    // i_T = 5: min(i_T, i_B) = 5, hyper by (5 - 5 [+1]) R_HI; i_T = 6: min still 5, again.
    rp.on_timer(netcc::timestamp{55'000 * 5});
    EXPECT_EQ(rp.phase(), netcc::dcqcn_phase::hyper);
    EXPECT_NEAR(gbps(rp.target_rate()), 20.025 + one * 0.05, 1e-12);
    rp.on_timer(netcc::timestamp{55'000 * 6});
    EXPECT_NEAR(gbps(rp.target_rate()), 20.025 + 2 * one * 0.05, 1e-12);
    // One more B: i_B = 6, min = 6, hyper by (6 - 5 [+1]) x 50 Mbps.
    rp.on_send(10_MB, netcc::timestamp{55'000 * 6});
    EXPECT_NEAR(gbps(rp.target_rate()), 20.025 + (2 * one + 1 + one) * 0.05, 1e-12);
  }
}

TEST(Dcqcn, TheSeedsCutIsAnOption) {
  netcc::dcqcn seed{{.cut = netcc::dcqcn_cut::full_alpha}};
  seed.on_cnp(cnp(0));  // R_C = (1 - 1) 40 Gbps = 0: the floor, 1 Mbps; R_T = 40 Gbps
  EXPECT_EQ(seed.rate(), 1_Mbps);
  EXPECT_EQ(seed.target_rate(), 40_Gbps);
  seed.on_timer(netcc::timestamp{55'000});  // fast recovery: (1 + 40000) / 2 = 20000.5 Mbps
  EXPECT_EQ(seed.rate(), netcc::bit_rate{20'000'500'000});
}

// Issue 16: q32 bounds round toward the inside of [min_rate, line_rate] (17 bps and 1000001
// bps both fell outside it when rounded to nearest). Compared in the fixed-point domain:
// raw * 10^6 against bps * 2^32.
TEST(Dcqcn, Q32RateBoundsHonouredExactly) {
  using netcc::detail::i128;
  const auto within = [](netcc::fixed_point<31, 32> v) {
    const i128 scaled = i128{v.raw()} * 1'000'000;
    return scaled >= (i128{17} << 32) && scaled <= (i128{1'000'001} << 32);
  };
  q32_dcqcn rp{{.line_rate = netcc::bit_rate{1'000'001},
                .min_rate = netcc::bit_rate{17},
                .cut = netcc::dcqcn_cut::full_alpha}};
  EXPECT_TRUE(within(rp.current_mbps()) && within(rp.target_mbps()));  // at the line rate
  rp.on_cnp(cnp(0));  // R_C = (1 - 1) R_C: the floor
  EXPECT_TRUE(within(rp.current_mbps()) && within(rp.target_mbps()));
  EXPECT_EQ(rp.rate(), netcc::bit_rate{17});
  rp.on_timer(netcc::timestamp{std::numeric_limits<std::int64_t>::max()});  // every increase
  EXPECT_TRUE(within(rp.current_mbps()) && within(rp.target_mbps()));
}

// Found by the widened fuzzer (issue 16): with both counters saturated at 2^32 - 1, a hyper
// increase adds (2^32 - 1 - F) R_HI; q32 took the step count through its 2^31 integer range
// and added half of it. R_HI = 15625 bps = 2^-6 Mbps (exact in q32) on a 200 Tbps line: the
// step is (2^32 - 6) / 64 = 67108863.90625 Mbps in both policies.
TEST(Dcqcn, HyperIncreaseWithSaturatedCountersAgreesInQ32) {
  const netcc::dcqcn_params p{.line_rate = netcc::bit_rate{200'000'000'000'000},
                              .r_ai = 0_bps,
                              .r_hi = netcc::bit_rate{15'625}};
  netcc::dcqcn d{p};
  q32_dcqcn q{p};
  const auto run = [](auto& rp) {
    rp.on_cnp(cnp(0));
    rp.on_cnp(cnp(1));  // R_T = 200 Gbps, R_C = 100 Gbps
    rp.on_timer(netcc::timestamp{std::numeric_limits<std::int64_t>::max()});  // i_T saturates
    rp.on_send(netcc::bytes{std::numeric_limits<std::int64_t>::max()},
               netcc::timestamp{std::numeric_limits<std::int64_t>::max()});  // i_B saturates
  };
  run(d);
  run(q);
  ASSERT_EQ(d.timer_count(), 0xFFFF'FFFFu);
  ASSERT_EQ(d.byte_count(), 0xFFFF'FFFFu);
  const double before = mbps(d.target_mbps());
  d.on_send(d.params().byte_counter, netcc::timestamp{std::numeric_limits<std::int64_t>::max()});
  q.on_send(q.params().byte_counter, netcc::timestamp{std::numeric_limits<std::int64_t>::max()});
  EXPECT_DOUBLE_EQ(mbps(d.target_mbps()) - before, 67108863.90625);
  EXPECT_NEAR(mbps(q.target_mbps()), mbps(d.target_mbps()), 1e-3);
  EXPECT_NEAR(mbps(q.current_mbps()), mbps(d.current_mbps()), 1e-3);
}

TEST(Dcqcn, TargetAfterTimerIncreaseKeepsTheTargetThroughACnpBurst) {
  netcc::dcqcn nic{{.target = netcc::dcqcn_target::after_timer_increase}};
  netcc::dcqcn paper;
  for (auto* rp : {&nic, &paper}) {
    rp->on_cnp(cnp(0));     // first CNP: R_T = 40, R_C = 20 Gbps in both
    rp->on_cnp(cnp(1000));  // no timer increase since: the NIC variant keeps R_T = 40
    rp->on_send(10_MB, netcc::timestamp{2000});  // a byte-counter increase does not count
    rp->on_cnp(cnp(3000));
  }
  // Paper: R_T = 20, R_C = 10, then i_B = 1: R_C = 15, then R_T = 15, R_C = 7.5 Gbps.
  EXPECT_DOUBLE_EQ(gbps(paper.target_rate()), 15.0);
  EXPECT_DOUBLE_EQ(gbps(paper.rate()), 7.5);
  // NIC: R_T = 40, R_C = 10, then R_C = (10 + 40) / 2 = 25, then R_T stays 40, R_C = 12.5.
  EXPECT_DOUBLE_EQ(gbps(nic.target_rate()), 40.0);
  EXPECT_DOUBLE_EQ(gbps(nic.rate()), 12.5);
  // A timer increase (58 us: i_T = 1, R_C = (12.5 + 40) / 2 = 26.25), then a CNP: R_T = 26.25.
  // The alpha timer also fired at 58 us (alpha = 1 - g), so R_C = 26.25 (1 - (1 - g) / 2).
  nic.on_timer(netcc::timestamp{58'000});
  nic.on_cnp(cnp(59'000));
  EXPECT_DOUBLE_EQ(gbps(nic.target_rate()), 26.25);
  EXPECT_NEAR(gbps(nic.rate()), 26.25 * (1 - (1 - g) / 2), 1e-9);
}

TEST(Dcqcn, LateTimersCatchUpEveryPeriod) {
  netcc::dcqcn late, step;
  for (auto* rp : {&late, &step}) {
    rp->on_cnp(cnp(0));
    rp->on_cnp(cnp(0));  // R_T = 20, R_C = 10 Gbps
  }
  late.on_timer(netcc::timestamp{550'000});  // ten T and ten K at once
  for (int k = 1; k <= 10; ++k) step.on_timer(netcc::timestamp{55'000 * k});
  EXPECT_EQ(late.timer_count(), 10u);
  EXPECT_EQ(late.current_mbps(), step.current_mbps());
  EXPECT_EQ(late.target_mbps(), step.target_mbps());
  EXPECT_NEAR(late.alpha(), std::pow(1 - g, 10), 1e-15);
  EXPECT_NEAR(late.alpha(), step.alpha(), 1e-15);
  // Four fast-recovery events, then six additive ones: R_T = 20 + 6 x 0.005 = 20.03 Gbps.
  EXPECT_NEAR(gbps(late.target_rate()), 20.03, 1e-12);
  // Then one call across a second (18181 periods; i_B = 0, so every event after the fourth
  // is additive): R_T climbs 5 Mbps per event to the line rate and R_C follows; the call runs
  // the same events as one call per period and ends at the line rate.
  late.on_timer(netcc::timestamp{1'000'000'000});
  for (int k = 11; k <= 1'000'000'000 / 55'000; ++k) step.on_timer(netcc::timestamp{55'000 * k});
  EXPECT_EQ(late.timer_count(), 1'000'000'000u / 55'000);
  EXPECT_EQ(late.timer_count(), step.timer_count());
  EXPECT_EQ(late.current_mbps(), step.current_mbps());
  EXPECT_EQ(late.target_mbps(), step.target_mbps());
  EXPECT_EQ(late.rate(), 40_Gbps);
  EXPECT_EQ(late.target_rate(), 40_Gbps);
  EXPECT_NEAR(late.alpha(), std::pow(1 - g, 18181), 1e-40);
}

TEST(Dcqcn, OutOfOrderTimesMoveNoTimer) {
  netcc::dcqcn rp;
  rp.on_cnp(cnp(0));
  rp.on_timer(netcc::timestamp{550'000});
  const auto rc = rp.rate(), rt = rp.target_rate();
  const double a = rp.alpha();
  rp.on_timer(netcc::timestamp{100});  // the past: nothing changes
  EXPECT_EQ(rp.timer_count(), 10u);
  EXPECT_EQ(rp.rate(), rc);
  EXPECT_EQ(rp.target_rate(), rt);
  EXPECT_EQ(rp.alpha(), a);
  EXPECT_EQ(rp.last_time(), netcc::timestamp{550'000});
  // A send stamped in the past counts its bytes (no timer runs).
  rp.on_send(4_MB, netcc::timestamp{200});
  EXPECT_EQ(rp.byte_remainder(), 4_MB);
  // A CNP stamped in the past is taken as if it arrived at 550 us: the cut applies, the
  // timers restart at 550 us (the next rate expiry is 605 us).
  rp.on_cnp(cnp(300));
  EXPECT_EQ(rp.cnps(), 2u);
  EXPECT_NEAR(static_cast<double>(rp.rate().bps()), static_cast<double>(rc.bps()) * (1 - a / 2),
              1.0);
  rp.on_timer(netcc::timestamp{604'999});
  EXPECT_EQ(rp.timer_count(), 0u);
  rp.on_timer(netcc::timestamp{605'000});
  EXPECT_EQ(rp.timer_count(), 1u);
}

TEST(Dcqcn, HugeSendsAndTheEndOfTheClockStayBounded) {
  netcc::dcqcn rp;
  q32_dcqcn q;
  constexpr auto end = std::numeric_limits<std::int64_t>::max();
  for (auto t : {std::numeric_limits<std::int64_t>::min(), std::int64_t{-5}, end - 1, end}) {
    rp.on_cnp(cnp(t));
    q.on_cnp(cnp(t));
    rp.on_send(netcc::bytes{std::numeric_limits<std::int64_t>::max()}, netcc::timestamp{t});
    q.on_send(netcc::bytes{std::numeric_limits<std::int64_t>::max()}, netcc::timestamp{t});
    rp.on_timer(netcc::timestamp{end});
    q.on_timer(netcc::timestamp{end});
  }
  // The last sends: 2^63 - 1 B = 922337203685 B-periods, saturating i_B at 2^32 - 1.
  EXPECT_EQ(rp.byte_count(), 0xFFFF'FFFFu);
  EXPECT_EQ(q.byte_count(), 0xFFFF'FFFFu);
  EXPECT_EQ(rp.rate(), 40_Gbps);  // i_B alone: additive increase until the rates reach line
  EXPECT_EQ(q.rate(), 40_Gbps);
  EXPECT_EQ(rp.timer_count(), 0u);  // a timer due after the end of the clock never fires
}

TEST(Dcqcn, BadParametersAreNamedAndFallBack) {
  const netcc::dcqcn_params bad{.line_rate = netcc::bit_rate{0},
                                .g = 2,
                                .rate_timer = netcc::duration{0},
                                .byte_counter = netcc::bytes{5'000'000'000},
                                .f = 0};
  const auto v = netcc::validate(bad);
  ASSERT_EQ(v.size(), 5u);
  EXPECT_EQ(v[0].message(), "dcqcn.line_rate = 0 bps: must be in (0, 2 Pbps]");
  EXPECT_EQ(v[1].message(), "dcqcn.g = 2: must be in (0, 1]");
  EXPECT_EQ(v[2].message(), "dcqcn.rate_timer = 0 ns: must be positive");
  EXPECT_EQ(v[3].message(), "dcqcn.byte_counter = 5000000000 B: must be in [1, 4294967295] B");
  EXPECT_EQ(v[4].message(), "dcqcn.f = 0: must be at least 1");
  const netcc::dcqcn rp{bad};
  EXPECT_EQ(rp.params().line_rate, 40_Gbps);
  EXPECT_DOUBLE_EQ(rp.params().g, 1.0 / 256);
  EXPECT_EQ(rp.params().rate_timer, 55_us);
  EXPECT_EQ(rp.params().byte_counter, 10_MB);
  EXPECT_EQ(rp.params().f, 5u);
  EXPECT_TRUE(netcc::validate(rp.params()).ok());
  // A min_rate above a valid line rate falls back under it; an enum outside its values too.
  const netcc::dcqcn low{
      {.line_rate = 500_Kbps, .min_rate = 1_Gbps, .cut = static_cast<netcc::dcqcn_cut>(7)}};
  EXPECT_EQ(low.params().min_rate, 500_Kbps);
  EXPECT_EQ(low.params().cut, netcc::dcqcn_cut::half_alpha);
  EXPECT_TRUE(netcc::validate(low.params()).ok());
}

RC_GTEST_PROP(DcqcnProperties, RatesBoundedAlphaInUnitForAnySequence, ()) {
  const auto p = gen_params();
  netcc::dcqcn d{p};
  q32_dcqcn q{p};
  for (const auto& o : gen_ops()) {
    apply(d, o);
    apply(q, o);
    for (const auto r : {d.rate(), d.target_rate(), q.rate(), q.target_rate()}) {
      RC_ASSERT(r >= p.min_rate);
      RC_ASSERT(r <= p.line_rate);
    }
    RC_ASSERT(std::isfinite(d.current_mbps()) && std::isfinite(d.target_mbps()));
    RC_ASSERT(d.current_mbps() <= d.target_mbps());
    RC_ASSERT(q.current_mbps() <= q.target_mbps());
    RC_ASSERT(d.alpha() >= 0.0 && d.alpha() <= 1.0);
    RC_ASSERT(q.alpha().to_double() >= 0.0 && q.alpha().to_double() <= 1.0);
  }
}

RC_GTEST_PROP(DcqcnProperties, ACnpNeverRaisesTheCurrentRate, ()) {
  const auto p = gen_params();
  netcc::dcqcn d{p};
  q32_dcqcn q{p};
  for (const auto& o : gen_ops()) {
    if (o.kind != 0) {
      apply(d, o);
      apply(q, o);
      continue;
    }
    d.on_timer(netcc::timestamp{o.t});  // timers first, so the CNP alone is measured
    q.on_timer(netcc::timestamp{o.t});
    const double a = d.alpha(), before = d.current_mbps();
    const auto qbefore = q.current_mbps();
    d.on_cnp(cnp(o.t));
    q.on_cnp(cnp(o.t));
    RC_ASSERT(d.current_mbps() <= before);
    RC_ASSERT(q.current_mbps() <= qbefore);
    // ... and cuts by the configured factor, down to the floor.
    const double f = p.cut == netcc::dcqcn_cut::half_alpha ? 1 - a / 2 : 1 - a;
    const double want = std::max(before * f, static_cast<double>(p.min_rate.bps()) / 1e6);
    RC_ASSERT(std::abs(d.current_mbps() - want) <= 1e-9 * want);
    RC_ASSERT(d.timer_count() == 0 && d.byte_count() == 0);
  }
}

RC_GTEST_PROP(DcqcnProperties, EachIncreaseEventFollowsTableI, ()) {
  // From a random history, a CNP, then single increase events, each either one rate-timer
  // expiry (on_timer exactly at the next period) or one byte-counter stage (B bytes at the
  // current time). After each, R_T and R_C are Table I's for the new counters.
  const auto p = gen_params();
  netcc::dcqcn rp{p};
  std::int64_t t = 0;
  for (const auto& o : gen_ops()) {
    apply(rp, o);
    t = std::max(t, o.t);
  }
  rp.on_cnp(cnp(++t));
  const std::int64_t c = t;
  const double lo = static_cast<double>(p.min_rate.bps()) / 1e6;
  const double hi = static_cast<double>(p.line_rate.bps()) / 1e6;
  const double ai = static_cast<double>(p.r_ai.bps()) / 1e6;
  const double hai = static_cast<double>(p.r_hi.bps()) / 1e6;
  const auto n = *rc::gen::inRange(1, 40);
  for (int k = 0; k < n; ++k) {
    const double rt = rp.target_mbps(), rc0 = rp.current_mbps();
    std::uint32_t it = rp.timer_count(), ib = rp.byte_count();
    if (*rc::gen::arbitrary<bool>()) {
      ++it;
      t = c + static_cast<std::int64_t>(it) * p.rate_timer.count();
      rp.on_timer(netcc::timestamp{t});
    } else {
      ++ib;
      rp.on_send(p.byte_counter, netcc::timestamp{t});
    }
    RC_ASSERT(rp.timer_count() == it && rp.byte_count() == ib);
    double want_t = rt;
    const std::uint32_t lo_count = std::min(it, ib), hi_count = std::max(it, ib);
    if (lo_count >= p.f) {  // hyper increase
      const double extra = p.hyper == netcc::dcqcn_hyper::from_one ? 1.0 : 0.0;
      want_t = rt + (static_cast<double>(lo_count - p.f) + extra) * hai;
      RC_ASSERT(rp.phase() == netcc::dcqcn_phase::hyper);
    } else if (hi_count >= p.f) {  // additive increase
      want_t = rt + ai;
      RC_ASSERT(rp.phase() == netcc::dcqcn_phase::additive);
    } else {  // fast recovery
      RC_ASSERT(rp.phase() == netcc::dcqcn_phase::fast_recovery);
    }
    want_t = std::clamp(want_t, lo, hi);
    const double want_c = std::clamp((rc0 + want_t) / 2, lo, hi);
    RC_ASSERT(std::abs(rp.target_mbps() - want_t) <= 1e-9 * want_t);
    RC_ASSERT(std::abs(rp.current_mbps() - want_c) <= 1e-9 * want_c);
  }
}

// on_timer(now) runs every expiry up to now: one late call and one call per microsecond end
// with the same counters and rates (alpha within rounding of (1 - g)^n). A call one period late
// takes advance()'s one-expiry path, a later one the loop of increase events: the rates are the
// same bit for bit in each number type.
template <class C>
void late_timer_equals_step_by_step(double alpha_tolerance) {
  const auto p = gen_params();
  C late{p}, step{p};
  late.on_cnp(cnp(0));
  step.on_cnp(cnp(0));
  const auto sends = *rc::gen::inRange(0, 6);
  for (int k = 0; k < sends; ++k) {  // move i_B so that every phase can occur
    late.on_send(p.byte_counter, netcc::timestamp{0});
    step.on_send(p.byte_counter, netcc::timestamp{0});
  }
  const std::int64_t end = *rc::gen::inRange<std::int64_t>(0, 3'000'000);
  for (std::int64_t t = 1000; t <= end; t += 1000) step.on_timer(netcc::timestamp{t});
  step.on_timer(netcc::timestamp{end});
  late.on_timer(netcc::timestamp{end});
  RC_ASSERT(late.timer_count() == step.timer_count());
  RC_ASSERT(late.timer_count() == static_cast<std::uint32_t>(end / p.rate_timer.count()));
  RC_ASSERT(late.current_mbps() == step.current_mbps());
  RC_ASSERT(late.target_mbps() == step.target_mbps());
  RC_ASSERT(std::abs(netcc::to_double(late.alpha()) - netcc::to_double(step.alpha())) <=
            alpha_tolerance);
}

RC_GTEST_PROP(DcqcnProperties, ALateTimerEqualsStepByStepTimers, ()) {
  late_timer_equals_step_by_step<netcc::dcqcn>(1e-12);
}

RC_GTEST_PROP(DcqcnProperties, ALateTimerEqualsStepByStepTimersQ32, ()) {
  // Alpha: up to 3000 single-period products against square-and-multiply, each rounded to
  // 2^-32, apart by at most one unit per product.
  late_timer_equals_step_by_step<netcc::basic_dcqcn<netcc::arith::q32>>(3001.0 / 4294967296.0);
}

RC_GTEST_PROP(DcqcnProperties, AnOutOfOrderTimerChangesNothing, ()) {
  const auto p = gen_params();
  netcc::dcqcn rp{p};
  std::int64_t t = 0;
  for (const auto& o : gen_ops()) {
    apply(rp, o);
    t = std::max(t, o.t);
  }
  const auto before = rp;
  rp.on_timer(netcc::timestamp{t - *rc::gen::inRange<std::int64_t>(0, 1'000'000)});
  RC_ASSERT(rp.current_mbps() == before.current_mbps());
  RC_ASSERT(rp.target_mbps() == before.target_mbps());
  RC_ASSERT(rp.alpha() == before.alpha());
  RC_ASSERT(rp.timer_count() == before.timer_count());
  RC_ASSERT(rp.byte_count() == before.byte_count());
}

RC_GTEST_PROP(DcqcnProperties, DoubleAndFixedPointAgree, ()) {
  // The same calls through both policies: identical counters (they are integers) and rates
  // within 1 kbps. q32 keeps Mbps with 2^-32 resolution and rounds each operation by at most
  // half of it; 300 calls of at most 4096 events of two rounded operations each stay below
  // 300 * 4096 * 2^-32 Mbps = 3e-4 Mbps, and alpha's error scales the cut by less.
  const auto p = gen_params();
  netcc::dcqcn d{p};
  q32_dcqcn q{p};
  for (const auto& o : gen_ops()) {
    apply(d, o);
    apply(q, o);
    // The branch record: every decision of DCQCN is on integers (timer expiries on integer
    // times, the byte counter, CNPs), and the increase rule of each event is Table I's phase
    // of (i_T, i_B): the same counters and phase mean the same rule on every event.
    RC_ASSERT(d.timer_count() == q.timer_count() && d.byte_count() == q.byte_count());
    RC_ASSERT(d.phase() == q.phase());
    RC_ASSERT(d.cnps() == q.cnps());
    RC_ASSERT(std::abs(mbps(d.current_mbps()) - mbps(q.current_mbps())) <= 1e-3);
    RC_ASSERT(std::abs(mbps(d.target_mbps()) - mbps(q.target_mbps())) <= 1e-3);
    RC_ASSERT(std::abs(d.alpha() - q.alpha().to_double()) <= 1e-6);
  }
}

// ---------------------------------------------------------------- config, flow_state, compact

TEST(Dcqcn, ConfigRunsAnArrayOfCompactStates) {
  static_assert(netcc::dcqcn_compact::state_bytes == 32);
  static_assert(q32_dcqcn::state_bytes == 64);
  const netcc::dcqcn_compact::config cfg{{}};
  std::vector<netcc::dcqcn_compact::flow_state> flows(3, cfg.initial_state());
  EXPECT_EQ(sizeof(flows[0]), 32u);
  // The first CNP halves the line rate; one T later fast recovery takes R_C half way back.
  cfg.on_cnp(flows[1], cnp(10'000));
  EXPECT_EQ(cfg.rate(flows[1]), 20_Gbps);
  EXPECT_EQ(cfg.target_rate(flows[1]), 40_Gbps);
  cfg.on_timer(flows[1], netcc::timestamp{65'000});
  EXPECT_EQ(cfg.rate(flows[1]), 30_Gbps);
  EXPECT_EQ(cfg.timer_count(flows[1]), 1u);
  EXPECT_EQ(cfg.phase(flows[1]), netcc::dcqcn_phase::fast_recovery);
  // One B of bytes: one byte-counter event, with no division (less than 2 B at once).
  cfg.on_send(flows[1], 10_MB, netcc::timestamp{66'000});
  EXPECT_EQ(cfg.byte_count(flows[1]), 1u);
  EXPECT_EQ(cfg.rate(flows[1]), 35_Gbps);
  EXPECT_EQ(cfg.last_time(flows[1]), netcc::timestamp{66'000});
  for (const std::size_t i : {0u, 2u}) {
    EXPECT_EQ(cfg.rate(flows[i]), 40_Gbps);
    EXPECT_EQ(cfg.cnps(flows[i]), 0u);
    EXPECT_EQ(cfg.last_time(flows[i]), netcc::timestamp::min());
  }
}

TEST(Dcqcn, CompactCountersSaturateAndRangesAreValidated) {
  netcc::dcqcn_compact c{{.r_ai = 0_bps, .r_hi = 0_bps}};
  q32_dcqcn q{{.r_ai = 0_bps, .r_hi = 0_bps}};
  for (std::int64_t k = 0; k < 300; ++k) {
    c.on_cnp(cnp(k));
    q.on_cnp(cnp(k));
  }
  EXPECT_EQ(q.cnps(), 300u);
  EXPECT_EQ(c.cnps(), 255u);
  c.on_timer(netcc::timestamp{300 + 1000 * 55'000});  // 1000 rate-timer periods
  q.on_timer(netcc::timestamp{300 + 1000 * 55'000});
  EXPECT_EQ(q.timer_count(), 1000u);
  EXPECT_EQ(c.timer_count(), 255u);
  EXPECT_EQ(c.phase(), q.phase());
  EXPECT_NEAR(c.current_mbps().to_double(), q.current_mbps().to_double(), 0x1p-11);
  const netcc::dcqcn_params wide{
      .line_rate = 2_Tbps, .rate_timer = netcc::duration{20'000'000}, .r_hi = 1_Mbps, .f = 255};
  const auto v = netcc::validate(wide, netcc::dcqcn_state_compact{});
  ASSERT_EQ(v.size(), 3u);  // r_hi's rule needs F below 255
  EXPECT_EQ(v[0].message(),
            "dcqcn.line_rate = 2000000000000 bps: must be at most 1 Tbps in the "
            "compact state");
  EXPECT_EQ(v[1].message(),
            "dcqcn.rate_timer = 20000000 ns: must be at most 16777215 ns in the compact state");
  EXPECT_EQ(v[2].message(), "dcqcn.f = 255: must be at most 254 in the compact state");
  EXPECT_TRUE(netcc::validate(wide).ok());
  const netcc::dcqcn_compact fallen{wide};
  EXPECT_EQ(fallen.params().line_rate, 40_Gbps);
  EXPECT_EQ(fallen.params().rate_timer, 55_us);
  EXPECT_EQ(fallen.params().f, 5u);
  // R_HI too small to reach a 100 Gbps line before i_T, i_B saturate at 255 (F = 5).
  const auto h = netcc::validate(netcc::dcqcn_params{.line_rate = 100_Gbps, .r_hi = 1_Mbps},
                                 netcc::dcqcn_state_compact{});
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].field, "dcqcn.r_hi");
  EXPECT_TRUE(netcc::validate(netcc::dcqcn_params{}, netcc::dcqcn_state_compact{}).ok());
  // netcc::make checks the compact ranges for the compact form only.
  EXPECT_FALSE(netcc::make<netcc::dcqcn_compact>(wide).ok());
  EXPECT_TRUE(netcc::make<q32_dcqcn>(wide).ok());
}

namespace {

template <class C>
void same_as_object(const C& obj, const typename C::config& cfg, const typename C::flow_state& st) {
  RC_ASSERT(cfg.rate(st) == obj.rate());
  RC_ASSERT(cfg.target_rate(st) == obj.target_rate());
  RC_ASSERT(cfg.current_mbps(st) == obj.current_mbps());
  RC_ASSERT(cfg.target_mbps(st) == obj.target_mbps());
  RC_ASSERT(cfg.alpha(st) == obj.alpha());
  RC_ASSERT(cfg.timer_count(st) == obj.timer_count());
  RC_ASSERT(cfg.byte_count(st) == obj.byte_count());
  RC_ASSERT(cfg.byte_remainder(st) == obj.byte_remainder());
  RC_ASSERT(cfg.phase(st) == obj.phase());
  RC_ASSERT(cfg.cnps(st) == obj.cnps());
  RC_ASSERT(cfg.last_time(st) == obj.last_time());
}

template <class C>
void config_equals_object(const netcc::dcqcn_params& p, const std::vector<op>& ops) {
  C obj{p};
  const typename C::config cfg{p};
  auto st = cfg.initial_state();
  same_as_object(obj, cfg, st);
  for (const auto& o : ops) {
    apply(obj, o);
    if (o.kind == 0) {
      cfg.on_cnp(st, cnp(o.t));
    } else if (o.kind == 1) {
      cfg.on_timer(st, netcc::timestamp{o.t});
    } else {
      cfg.on_send(st, netcc::bytes{o.bytes}, netcc::timestamp{o.t});
    }
    same_as_object(obj, cfg, st);
  }
}

}  // namespace

RC_GTEST_PROP(DcqcnProperties, ConfigWithExternalFlowStateEqualsTheObject, ()) {
  const auto p = gen_params();
  const auto ops = gen_ops();
  config_equals_object<netcc::dcqcn>(p, ops);
  config_equals_object<q32_dcqcn>(p, ops);
  config_equals_object<netcc::dcqcn_compact>(p, ops);
}

RC_GTEST_PROP(DcqcnProperties, CompactEventIsTheQ32RuleOnItsUnpackedState, ()) {
  // Every compact event equals, bit for bit, the q32 rule run on the unpacked state and packed
  // again (the compact form's definition), the events it handles on its stored fields included.
  // The compact configuration puts its rate bounds and steps on its grid of 2^-12 Mbps; with
  // whole-Mbps rates (gen_params' rates, min_rate raised from 1 bps to 1 Mbps) both
  // configurations hold the same numbers.
  auto p = gen_params();
  if (p.min_rate < 1_Mbps) p.min_rate = 1_Mbps;
  const netcc::dcqcn_compact::config c{p};
  const q32_dcqcn::config q{p};
  auto st = c.initial_state();
  for (const auto& o : gen_ops()) {
    auto w = st.load();
    auto ref = st;
    if (o.kind == 0) {
      c.on_cnp(st, cnp(o.t));
      q.on_cnp(w, cnp(o.t));
    } else if (o.kind == 1) {
      c.on_timer(st, netcc::timestamp{o.t});
      q.on_timer(w, netcc::timestamp{o.t});
    } else {
      c.on_send(st, netcc::bytes{o.bytes}, netcc::timestamp{o.t});
      q.on_send(w, netcc::bytes{o.bytes}, netcc::timestamp{o.t});
    }
    ref.store(w);
    RC_ASSERT(st.clock == ref.clock);
    RC_ASSERT(st.r_c == ref.r_c);
    RC_ASSERT(st.r_t == ref.r_t);
    RC_ASSERT(st.alpha == ref.alpha);
    RC_ASSERT(st.byte_acc == ref.byte_acc);
    RC_ASSERT(st.timers == ref.timers);
  }
}

RC_GTEST_PROP(DcqcnProperties, CompactAgreesWithQ32WithinItsBound, ()) {
  // gen_params stays within the compact ranges (line rate <= 100 Gbps, timers <= 300 us, F <=
  // 7, whole-Mbps steps; R_HI = 50 Mbps reaches 1.5 Tbps before the counters saturate).
  const auto p = gen_params();
  RC_ASSERT(netcc::validate(p, netcc::dcqcn_state_compact{}).ok());
  q32_dcqcn q{p};
  netcc::dcqcn_compact c{p};
  const double line = static_cast<double>(p.line_rate.bps()) / 1e6;
  const double alpha_bound = 0x1p-31 / p.g + 0x1p-31;
  double worst = 0;
  for (const auto& o : gen_ops()) {
    apply(q, o);
    apply(c, o);
    // The same rule on every event: the counters (up to their saturation), the phase, the CNP
    // count (up to 255), the byte remainder and the clock.
    RC_ASSERT(c.timer_count() == std::min(q.timer_count(), 255u));
    RC_ASSERT(c.byte_count() == std::min(q.byte_count(), 255u));
    RC_ASSERT(c.phase() == q.phase());
    RC_ASSERT(c.cnps() == std::min(q.cnps(), 255u));
    RC_ASSERT(c.byte_remainder() == q.byte_remainder());
    RC_ASSERT(c.last_time() == q.last_time());
    // Values within the stated bounds: alpha within 2^-31 / g; rates within (CNPs + 2)
    // (line 2^-30 / g + 2^-10) Mbps.
    RC_ASSERT(std::abs(c.alpha().to_double() - q.alpha().to_double()) <= alpha_bound);
    const double rate_bound =
        (static_cast<double>(q.cnps()) + 2) * (line * 0x1p-30 / p.g + 0x1p-10);
    const double dr = std::abs(c.current_mbps().to_double() - q.current_mbps().to_double());
    const double dt = std::abs(c.target_mbps().to_double() - q.target_mbps().to_double());
    RC_ASSERT(dr <= rate_bound);
    RC_ASSERT(dt <= rate_bound);
    RC_ASSERT(c.current_mbps() <= c.target_mbps());
    worst = std::max(worst, std::max(dr, dt) / rate_bound);
  }
  RC_CLASSIFY(worst > 0.01, "rate difference above 1% of the bound");
}

}  // namespace netcc_tests::control_dcqcn
