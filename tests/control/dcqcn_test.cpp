// SPDX-License-Identifier: MIT
#include <netcc/control/dcqcn.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

using namespace netcc::literals;

namespace {

netcc::cnp_event cnp(std::int64_t t) {
  return {.now = netcc::timestamp{t}};
}

double gbps(netcc::bit_rate r) {
  return static_cast<double>(r.bps()) / 1e9;
}

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

TEST(Dcqcn, DefaultsAreTableII) {
  const netcc::dcqcn rp;
  const auto p = rp.params();
  EXPECT_DOUBLE_EQ(p.g, 1.0 / 256);
  EXPECT_EQ(p.alpha_timer, 55_us);
  EXPECT_EQ(p.rate_timer, 55_us);
  EXPECT_EQ(p.byte_counter, 10_MB);
  EXPECT_EQ(p.r_ai, 5_Mbps);
  EXPECT_EQ(p.r_hi, 50_Mbps);
  EXPECT_EQ(p.f, 5u);
  EXPECT_EQ(rp.rate(), 100_Gbps);  // starts at line rate, alpha = 1
  EXPECT_DOUBLE_EQ(rp.alpha(), 1.0);
  EXPECT_TRUE(netcc::validate(p).ok());
}

TEST(Dcqcn, CnpCutsThenFastRecoveryThenAdditiveIncrease) {
  netcc::dcqcn rp;
  rp.on_cnp(cnp(1000));  // R_T = 100, R_C = 100 (1 - 1/2) = 50 Gbps, alpha = 1 + g(1 - 1) = 1
  EXPECT_DOUBLE_EQ(gbps(rp.rate()), 50.0);
  EXPECT_DOUBLE_EQ(gbps(rp.target_rate()), 100.0);
  rp.on_cnp(cnp(2000));  // R_T = 50, R_C = 25 Gbps
  EXPECT_DOUBLE_EQ(gbps(rp.rate()), 25.0);
  EXPECT_DOUBLE_EQ(gbps(rp.target_rate()), 50.0);
  // Rate timer from 2000: expiries at 57, 112, 167, 222 us: i_T = 1..4, fast recovery,
  // R_C = (R_C + 50) / 2: 37.5, 43.75, 46.875, 48.4375.
  const double fr[] = {37.5, 43.75, 46.875, 48.4375};
  for (int k = 0; k < 4; ++k) {
    rp.on_timer(netcc::timestamp{2000 + 55'000 * (k + 1)});
    EXPECT_EQ(rp.timer_count(), static_cast<std::uint32_t>(k + 1));
    EXPECT_DOUBLE_EQ(gbps(rp.rate()), fr[k]);
  }
  // i_T = 5: additive increase, R_T = 50.005, R_C = (48.4375 + 50.005) / 2 = 49.22125 Gbps.
  rp.on_timer(netcc::timestamp{2000 + 55'000 * 5});
  EXPECT_DOUBLE_EQ(gbps(rp.target_rate()), 50.005);
  EXPECT_DOUBLE_EQ(gbps(rp.rate()), 49.22125);
  // Alpha decayed once per K since the CNP: five periods, (1 - 1/256)^5.
  EXPECT_NEAR(rp.alpha(), std::pow(1 - 1.0 / 256, 5), 1e-15);
}

TEST(Dcqcn, ByteCounterAndHyperIncreaseFollowTableI) {
  netcc::dcqcn rp;
  rp.on_cnp(cnp(0));
  rp.on_cnp(cnp(0));  // R_T = 50, R_C = 25 Gbps (alpha stays 1)
  // Five B-byte sends at t = 0: i_B = 1..5. Events 1-4 fast recovery (37.5, 43.75, 46.875,
  // 48.4375); event 5: max(i_T, i_B) = 5, additive: R_T = 50.005, R_C = 49.22125.
  for (int k = 0; k < 5; ++k) rp.on_send(10_MB, netcc::timestamp{0});
  EXPECT_EQ(rp.byte_count(), 5u);
  EXPECT_DOUBLE_EQ(gbps(rp.rate()), 49.22125);
  // Timer expiries: i_T = 1..4 keep additive increase (i_B = 5): R_T += 5 Mbps each.
  for (int k = 1; k <= 4; ++k) rp.on_timer(netcc::timestamp{55'000 * k});
  EXPECT_NEAR(gbps(rp.target_rate()), 50.025, 1e-12);
  // i_T = 5, then 6: min(i_T, i_B) = 5, hyper increase by (5 - 5) * R_HI = 0 (Table I as
  // written). One more B bytes: i_B = 6, min = 6, hyper by (6 - 5) * 50 Mbps.
  rp.on_timer(netcc::timestamp{55'000 * 5});
  rp.on_timer(netcc::timestamp{55'000 * 6});
  EXPECT_NEAR(gbps(rp.target_rate()), 50.025, 1e-12);
  rp.on_send(10_MB, netcc::timestamp{55'000 * 6});
  EXPECT_NEAR(gbps(rp.target_rate()), 50.075, 1e-12);
  EXPECT_EQ(netcc::dcqcn_phase_of(4, 4, 5), netcc::dcqcn_phase::fast_recovery);
  EXPECT_EQ(netcc::dcqcn_phase_of(5, 0, 5), netcc::dcqcn_phase::additive);
  EXPECT_EQ(netcc::dcqcn_phase_of(0, 9, 5), netcc::dcqcn_phase::additive);
  EXPECT_EQ(netcc::dcqcn_phase_of(5, 5, 5), netcc::dcqcn_phase::hyper);
}

TEST(Dcqcn, TheSeedsCutIsAnOptionAndLateTimersCatchUp) {
  netcc::dcqcn seed{{.cut = netcc::dcqcn_cut::full_alpha}};
  seed.on_cnp(cnp(0));  // R_C = (1 - 1) * 100 Gbps: the floor
  EXPECT_EQ(seed.rate(), 10_Mbps);
  netcc::dcqcn rp;
  rp.on_cnp(cnp(0));
  rp.on_timer(netcc::timestamp{550'000});  // ten K and ten T at once
  EXPECT_NEAR(rp.alpha(), std::pow(1 - 1.0 / 256, 10), 1e-15);
  EXPECT_EQ(rp.timer_count(), 10u);
  rp.on_timer(netcc::timestamp{100});  // the past: nothing changes
  EXPECT_EQ(rp.timer_count(), 10u);
  rp.on_cnp(cnp(200));  // a CNP from the past is ignored too
  EXPECT_EQ(rp.cnps(), 1u);
}

TEST(Dcqcn, BadParametersAreNamedAndFallBack) {
  const auto v = netcc::validate(netcc::dcqcn_params{.g = 2, .rate_timer = netcc::duration{0}});
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].message(), "dcqcn.g = 2: must be in (0, 1]");
  EXPECT_EQ(v[1].message(), "dcqcn.rate_timer = 0 ns: must be positive");
  const netcc::dcqcn rp{{.g = 2, .rate_timer = netcc::duration{0}}};
  EXPECT_DOUBLE_EQ(rp.params().g, 1.0 / 256);
  EXPECT_EQ(rp.params().rate_timer, 55_us);
}

RC_GTEST_PROP(DcqcnProperties, RatesBoundedAlphaInUnitAndCnpsNeverRaise, ()) {
  const netcc::dcqcn_params p{
      .line_rate = netcc::bit_rate{*rc::gen::element<std::int64_t>(10'000'000'000, 100'000'000'000,
                                                                   400'000'000'000)},
      .cut = *rc::gen::element(netcc::dcqcn_cut::half_alpha, netcc::dcqcn_cut::full_alpha)};
  netcc::dcqcn d{p};
  netcc::basic_dcqcn<netcc::arith::q32> q{p};
  for (const auto& o : gen_ops()) {
    apply(d, o);
    apply(q, o);
    for (const auto r : {d.rate(), d.target_rate(), q.rate(), q.target_rate()}) {
      RC_ASSERT(r >= p.min_rate);
      RC_ASSERT(r <= p.line_rate);
    }
    RC_ASSERT(d.alpha() >= 0.0 && d.alpha() <= 1.0);
    RC_ASSERT(netcc::to_double(q.alpha()) >= 0.0 && netcc::to_double(q.alpha()) <= 1.0);
    if (o.kind == 0) {  // a CNP never raises R_C (timers up to it may, before it)
      RC_ASSERT(d.rate() <= d.target_rate());
      RC_ASSERT(q.rate() <= q.target_rate());
    }
  }
}

RC_GTEST_PROP(DcqcnProperties, ACnpNeverRaisesTheCurrentRate, ()) {
  netcc::dcqcn rp;
  for (const auto& o : gen_ops()) {
    if (o.kind != 0) {
      apply(rp, o);
      continue;
    }
    rp.on_timer(netcc::timestamp{o.t});  // timers first, so the CNP alone is measured
    const auto before = rp.rate();
    rp.on_cnp(cnp(o.t));
    RC_ASSERT(rp.rate() <= before);
  }
}

RC_GTEST_PROP(DcqcnProperties, EachIncreaseFollowsTableI, ()) {
  // One byte-counter event at a time (B bytes at the time of the last call: no timer fires),
  // from any state reached by a random history: the change is Table I's for the new counters.
  netcc::dcqcn rp;
  std::int64_t last = 0;
  for (const auto& o : gen_ops()) {
    apply(rp, o);
    last = std::max(last, o.t);
    const double rt = rp.target_mbps(), rc = rp.current_mbps();
    const std::uint32_t it = rp.timer_count(), ib = rp.byte_count() + 1;
    rp.on_send(10_MB, netcc::timestamp{last});
    double want_t = rt;
    switch (netcc::dcqcn_phase_of(it, ib, 5)) {
      case netcc::dcqcn_phase::hyper:
        want_t = rt + (std::min(it, ib) - 5.0) * 50.0;
        break;
      case netcc::dcqcn_phase::additive:
        want_t = rt + 5.0;
        break;
      case netcc::dcqcn_phase::fast_recovery:
        break;
    }
    want_t = std::clamp(want_t, 10.0, 100'000.0);
    const double want_c = std::clamp((rc + want_t) / 2, 10.0, 100'000.0);
    RC_ASSERT(rp.byte_count() == std::min<std::uint32_t>(ib, 0xFFFF'FFFFu));
    RC_ASSERT(std::abs(rp.target_mbps() - want_t) <= 1e-9 * want_t);
    RC_ASSERT(std::abs(rp.current_mbps() - want_c) <= 1e-9 * want_c);
  }
}

RC_GTEST_PROP(DcqcnProperties, DoubleAndFixedPointAgree, ()) {
  netcc::dcqcn d;
  netcc::basic_dcqcn<netcc::arith::q32> q;
  for (const auto& o : gen_ops()) {
    apply(d, o);
    apply(q, o);
    RC_ASSERT(d.timer_count() == q.timer_count() && d.byte_count() == q.byte_count());
    // q32 keeps Mbps with 2^-32 resolution: far below 1 kbps after 300 calls.
    RC_ASSERT(std::abs(netcc::to_double(d.current_mbps()) - netcc::to_double(q.current_mbps())) <=
              1e-3);
    RC_ASSERT(std::abs(d.alpha() - netcc::to_double(q.alpha())) <= 1e-6);
  }
}
