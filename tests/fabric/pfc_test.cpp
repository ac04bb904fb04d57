// SPDX-License-Identifier: MIT
// PFC at an ingress port (seed 003 §III-B e; §V X_off = 9.5, X_on = 9.25 kB/port/Gbps):
// thresholds per rate, pause/resume by hand, the resume time t_R = t_P + (X_off - X_on)/C, and
// 802.1Qbb quanta; RapidCheck: a pause only when the backlog exceeds X_off, a resume only at or
// below X_on, strict alternation, no flapping in between.
#include <netcc/fabric/pfc.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>

namespace netcc_tests::fabric_pfc {

using namespace netcc::literals;
using netcc::bytes;
using netcc::pfc_action;
using netcc::pfc_params;
using netcc::pfc_port_state;
using netcc::pfc_thresholds;

TEST(Pfc, SeedDefaultsAndThresholds) {
  const pfc_params p;
  EXPECT_EQ(p.x_off_per_gbps, 9500_B);
  EXPECT_EQ(p.x_on_per_gbps, 9250_B);
  EXPECT_TRUE(validate(p).ok());
  // 100 Gbps: 9500 * 100 = 950000 B, 9250 * 100 = 925000 B.
  EXPECT_EQ(netcc::pfc_thresholds_for(100_Gbps, p), (pfc_thresholds{950000_B, 925000_B}));
  // 400 Gbps: 3.8 MB and 3.7 MB.
  EXPECT_EQ(netcc::pfc_thresholds_for(400_Gbps, p), (pfc_thresholds{3800000_B, 3700000_B}));
  // 2.5 Gbps: 23750 B and 23125 B.
  EXPECT_EQ(netcc::pfc_thresholds_for(2.5_Gbps, p), (pfc_thresholds{23750_B, 23125_B}));
  // 1 Mbps: 9.5 B -> 9 B and 9.25 B -> 9 B (floors meet: documented; hysteresis still holds).
  EXPECT_EQ(netcc::pfc_thresholds_for(1_Mbps, p), (pfc_thresholds{9_B, 9_B}));
  EXPECT_EQ(netcc::pfc_thresholds_for(netcc::bit_rate{-5}, p), (pfc_thresholds{0_B, 0_B}));
}

TEST(Pfc, ValidateNamesFields) {
  const auto v = validate(pfc_params{.x_off_per_gbps = 100_B, .x_on_per_gbps = bytes{-1}});
  EXPECT_TRUE(v.names("pfc.x_on_per_gbps"));
  EXPECT_FALSE(v.names("pfc.x_off_per_gbps"));
  EXPECT_TRUE(validate(pfc_params{.x_off_per_gbps = 100_B, .x_on_per_gbps = 100_B})
                  .names("pfc.x_off_per_gbps"));
  EXPECT_TRUE(validate(pfc_params{.x_off_per_gbps = bytes{(std::int64_t{1} << 40) + 1}})
                  .names("pfc.x_off_per_gbps"));
}

TEST(Pfc, PauseResumeByHand) {
  const pfc_params p;
  pfc_port_state s;
  // 100 Gbps port: X_off = 950000, X_on = 925000.
  EXPECT_EQ(netcc::pfc_on_backlog(s, 950000_B, 100_Gbps, p), pfc_action::none);  // not > X_off
  EXPECT_EQ(netcc::pfc_on_backlog(s, 950001_B, 100_Gbps, p), pfc_action::pause);
  EXPECT_TRUE(s.paused);
  EXPECT_EQ(netcc::pfc_on_backlog(s, 5000000_B, 100_Gbps, p), pfc_action::none);  // one pause
  EXPECT_EQ(netcc::pfc_on_backlog(s, 940000_B, 100_Gbps, p), pfc_action::none);
  EXPECT_EQ(netcc::pfc_on_backlog(s, 925001_B, 100_Gbps, p), pfc_action::none);
  EXPECT_EQ(netcc::pfc_on_backlog(s, 925000_B, 100_Gbps, p), pfc_action::resume);  // reaches X_on
  EXPECT_FALSE(s.paused);
  EXPECT_EQ(netcc::pfc_on_backlog(s, 0_B, 100_Gbps, p), pfc_action::none);
  EXPECT_EQ(netcc::pfc_on_backlog(s, 949999_B, 100_Gbps, p), pfc_action::none);
  // Precomputed thresholds give the same decisions.
  pfc_port_state u;
  const pfc_thresholds t{1000_B, 900_B};
  EXPECT_EQ(netcc::pfc_on_backlog(u, 1001_B, t), pfc_action::pause);
  EXPECT_EQ(netcc::pfc_on_backlog(u, bytes{-7}, t), pfc_action::resume);
}

TEST(Pfc, ResumeTimeAtLineRate) {
  const pfc_params p;
  // (X_off - X_on) / C = 25000 B * 8 / 100 Gbps = 2 us; the same at every rate, since both
  // thresholds scale with C: (9500 - 9250) B/Gbps * 8 bit/B = 2000 ns.
  EXPECT_EQ(netcc::pfc_resume_delay(100_Gbps, p), 2_us);
  EXPECT_EQ(netcc::pfc_resume_delay(400_Gbps, p), 2_us);
  EXPECT_EQ(netcc::pfc_resume_delay(10_Gbps, p), 2_us);
  // 1 Mbps: thresholds floor to 9 and 9: no drain needed.
  EXPECT_EQ(netcc::pfc_resume_delay(1_Mbps, p), 0_ns);
  // 3 Gbps: 28500 - 27750 = 750 B = 6000 bit / 3e9 = 2000 ns.
  EXPECT_EQ(netcc::pfc_resume_delay(3_Gbps, p), 2_us);
  // 7 bps-odd rate: 1000000007 bps: X_off = 9500, X_on = 9250 -> 2000 bit / 1.000000007 Gbps
  // = 1999.99998 ns -> rounded up 2000.
  EXPECT_EQ(netcc::pfc_resume_delay(netcc::bit_rate{1'000'000'007}, p), 2_us);
  EXPECT_EQ(netcc::pfc_resume_delay(netcc::bit_rate{0}, p), netcc::duration::max());
  // t_R = t_P + 2 us; saturates.
  EXPECT_EQ(netcc::pfc_resume_time(netcc::timestamp{1_ms}, 100_Gbps, p),
            netcc::timestamp{1_ms + 2_us});
  EXPECT_EQ(netcc::pfc_resume_time(netcc::timestamp::max(), 100_Gbps, p), netcc::timestamp::max());
}

TEST(Pfc, Quanta) {
  // 1 quantum = 512 bit: 5.12 ns at 100 Gbps -> 6 ns (rounded up); 51.2 ns at 10 Gbps -> 52.
  EXPECT_EQ(netcc::pfc_quanta_duration(1, 100_Gbps), 6_ns);
  EXPECT_EQ(netcc::pfc_quanta_duration(1, 10_Gbps), 52_ns);
  EXPECT_EQ(netcc::pfc_quanta_duration(0, 100_Gbps), 0_ns);  // XON
  // 65535 * 512 / 100e9 = 335539.2 ns -> 335540; above 65535 clamps.
  EXPECT_EQ(netcc::pfc_quanta_duration(65535, 100_Gbps), netcc::duration{335540});
  EXPECT_EQ(netcc::pfc_quanta_duration(1'000'000, 100_Gbps), netcc::duration{335540});
  EXPECT_EQ(netcc::pfc_quanta_duration(5, netcc::bit_rate{0}), netcc::duration::max());
}

RC_GTEST_PROP(Pfc, PauseAboveXoffResumeAtXonNoFlap, ()) {
  const auto off = *rc::gen::inRange<std::int64_t>(1, 20'000);
  const pfc_params q{.x_off_per_gbps = bytes{off},
                     .x_on_per_gbps = bytes{*rc::gen::inRange<std::int64_t>(0, off)}};
  const netcc::bit_rate rate{*rc::gen::inRange<std::int64_t>(0, 800'000'000'000)};
  const auto t = netcc::pfc_thresholds_for(rate, q);
  RC_ASSERT(t.x_on <= t.x_off);
  pfc_port_state s;
  bool model_paused = false;
  pfc_action last = pfc_action::resume;  // the first frame must be a pause
  std::int64_t x = *rc::gen::inRange<std::int64_t>(0, 2 * t.x_off.count() + 2);
  const auto n = *rc::gen::inRange(1, 300);
  for (int i = 0; i < n; ++i) {
    x += *rc::gen::inRange<std::int64_t>(-200'000, 200'000);
    if (x < 0) x = *rc::gen::inRange<std::int64_t>(0, 100);
    const auto a = netcc::pfc_on_backlog(s, bytes{x}, rate, q);
    if (a == pfc_action::pause) {
      RC_ASSERT(x > t.x_off.count());         // pause only above X_off
      RC_ASSERT(last == pfc_action::resume);  // strict alternation
      RC_ASSERT(!model_paused);
      model_paused = true;
      last = a;
    } else if (a == pfc_action::resume) {
      RC_ASSERT(x <= t.x_on.count());  // resume only at or below X_on
      RC_ASSERT(last == pfc_action::pause);
      RC_ASSERT(model_paused);
      model_paused = false;
      last = a;
    } else {
      // No frame: the state did not need to change.
      if (model_paused) RC_ASSERT(x > t.x_on.count());
      if (!model_paused) RC_ASSERT(x <= t.x_off.count());
    }
    RC_ASSERT(s.paused == model_paused);
  }
}

RC_GTEST_PROP(Pfc, NothingBetweenThresholds, ()) {
  const pfc_params p;
  const netcc::bit_rate rate{*rc::gen::inRange<std::int64_t>(1'000'000'000, 800'000'000'000)};
  const auto t = netcc::pfc_thresholds_for(rate, p);
  pfc_port_state s{.paused = *rc::gen::arbitrary<bool>()};
  const auto before = s;
  const auto x = *rc::gen::inRange<std::int64_t>(t.x_on.count() + 1, t.x_off.count() + 1);
  RC_ASSERT(netcc::pfc_on_backlog(s, bytes{x}, rate, p) == pfc_action::none);
  RC_ASSERT(s == before);
}

}  // namespace netcc_tests::fabric_pfc
