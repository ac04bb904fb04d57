// SPDX-License-Identifier: MIT
// DCQCN notification point (DCQCN §3, NP: at most one CNP per flow per 50 us) and the seed's
// minimum-spacing variant (seed 003 §III-B d, cases 1-3); hand-computed sequences and
// RapidCheck properties: CNPs of one flow are never closer than the interval, and (schedule
// mode, time non-decreasing) every marked packet is covered by a CNP within one interval.
#include <netcc/fabric/dcqcn_np.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <vector>

namespace netcc_tests::fabric_dcqcn_np {

using namespace netcc::literals;
using netcc::dcqcn_np_action;
using netcc::dcqcn_np_flow_state;
using netcc::dcqcn_np_mode;
using netcc::dcqcn_np_params;
using netcc::timestamp;

TEST(DcqcnNp, Defaults) {
  const dcqcn_np_params p;
  EXPECT_EQ(p.interval, 50_us);  // DCQCN N = 50 us; seed Table II T_gap = 50 us
  EXPECT_EQ(p.mode, dcqcn_np_mode::suppress);
  EXPECT_TRUE(validate(p).ok());
  const auto v = validate(
      dcqcn_np_params{.interval = netcc::duration{-1}, .mode = static_cast<dcqcn_np_mode>(7)});
  EXPECT_EQ(v.size(), 2u);
  EXPECT_TRUE(v.names("dcqcn_np.interval"));
  EXPECT_TRUE(v.names("dcqcn_np.mode"));
}

TEST(DcqcnNp, SuppressByHand) {
  const dcqcn_np_params p;
  dcqcn_np_flow_state f;
  // First marked packet at 3 us: no CNP yet (t_ = -inf) -> send now, t_ = 3 us.
  auto d = netcc::dcqcn_np_on_packet(f, true, timestamp{3_us}, p);
  EXPECT_EQ(d.action, dcqcn_np_action::send_now);
  EXPECT_EQ(d.at, timestamp{3_us});
  // Unmarked packets never send, and leave the state alone.
  EXPECT_EQ(netcc::dcqcn_np_on_packet(f, false, timestamp{100_us}, p).action,
            dcqcn_np_action::none);
  EXPECT_EQ(f.last_cnp, timestamp{3_us});
  // 52.999 us: 52999 - 3000 = 49999 < 50000 -> suppressed.
  EXPECT_EQ(netcc::dcqcn_np_on_packet(f, true, timestamp{52'999}, p).action, dcqcn_np_action::none);
  // 53 us: 53000 - 3000 = 50000 >= 50000 -> send now.
  d = netcc::dcqcn_np_on_packet(f, true, timestamp{53_us}, p);
  EXPECT_EQ(d.action, dcqcn_np_action::send_now);
  EXPECT_EQ(f.last_cnp, timestamp{53_us});
  // Time going backwards (40 us < 53 us): case 3, nothing.
  EXPECT_EQ(netcc::dcqcn_np_on_packet(f, true, timestamp{40_us}, p).action, dcqcn_np_action::none);
  EXPECT_EQ(f.last_cnp, timestamp{53_us});
}

TEST(DcqcnNp, ScheduleThreeCases) {
  const dcqcn_np_params p{.mode = dcqcn_np_mode::schedule};
  dcqcn_np_flow_state f;
  // t = 0, t_ = -inf: case 1, send at 0.
  auto d = netcc::dcqcn_np_on_packet(f, true, timestamp{0}, p);
  EXPECT_EQ(d.action, dcqcn_np_action::send_now);
  // t = 20 us: 0 <= 20 - 0 < 50 -> case 2: next at 0 + 50 = 50 us; t_ = 50 us.
  d = netcc::dcqcn_np_on_packet(f, true, timestamp{20_us}, p);
  EXPECT_EQ(d.action, dcqcn_np_action::schedule);
  EXPECT_EQ(d.at, timestamp{50_us});
  EXPECT_EQ(f.last_cnp, timestamp{50_us});
  // t = 30 us: 30 - 50 < 0 -> case 3: already scheduled.
  EXPECT_EQ(netcc::dcqcn_np_on_packet(f, true, timestamp{30_us}, p).action, dcqcn_np_action::none);
  // t = 50 us: 0 <= 50 - 50 < 50 -> case 2: next at 100 us.
  d = netcc::dcqcn_np_on_packet(f, true, timestamp{50_us}, p);
  EXPECT_EQ(d.action, dcqcn_np_action::schedule);
  EXPECT_EQ(d.at, timestamp{100_us});
  // t = 150 us: 150 - 100 = 50 >= 50 -> case 1: now.
  d = netcc::dcqcn_np_on_packet(f, true, timestamp{150_us}, p);
  EXPECT_EQ(d.action, dcqcn_np_action::send_now);
  EXPECT_EQ(d.at, timestamp{150_us});
}

TEST(DcqcnNp, ZeroIntervalAndOverflow) {
  // Interval 0: every marked packet sends (t - t_ >= 0), except when time goes backwards.
  const dcqcn_np_params z{.interval = netcc::duration{0}};
  dcqcn_np_flow_state f;
  EXPECT_EQ(netcc::dcqcn_np_on_packet(f, true, timestamp{5}, z).action, dcqcn_np_action::send_now);
  EXPECT_EQ(netcc::dcqcn_np_on_packet(f, true, timestamp{5}, z).action, dcqcn_np_action::send_now);
  EXPECT_EQ(netcc::dcqcn_np_on_packet(f, true, timestamp{4}, z).action, dcqcn_np_action::none);
  // Schedule mode near timestamp::max(): t_ + interval would overflow -> not scheduled.
  const dcqcn_np_params s{.mode = dcqcn_np_mode::schedule};
  dcqcn_np_flow_state g;
  const timestamp late = timestamp::max() - netcc::duration{10};
  EXPECT_EQ(netcc::dcqcn_np_on_packet(g, true, late, s).action, dcqcn_np_action::send_now);
  EXPECT_EQ(netcc::dcqcn_np_on_packet(g, true, timestamp::max(), s).action, dcqcn_np_action::none);
  EXPECT_EQ(g.last_cnp, late);
  // Extreme time differences do not overflow.
  dcqcn_np_flow_state h;
  (void)netcc::dcqcn_np_on_packet(h, true, timestamp::min(), s);
  EXPECT_EQ(netcc::dcqcn_np_on_packet(h, true, timestamp::max(), s).action,
            dcqcn_np_action::send_now);
}

namespace {

struct np_trace {
  std::vector<std::int64_t> cnps;  // send times, in decision order
  bool ok_cover = true;            // schedule mode: every mark covered within one interval
};

np_trace run(const dcqcn_np_params& p, bool monotone) {
  dcqcn_np_flow_state f;
  np_trace tr;
  std::int64_t t = *rc::gen::inRange<std::int64_t>(-1'000'000, 1'000'000);
  const auto n = *rc::gen::inRange(1, 200);
  for (int i = 0; i < n; ++i) {
    const auto step = *rc::gen::inRange<std::int64_t>(monotone ? 0 : -30'000, 80'000);
    t += step;
    const bool ce = *rc::gen::arbitrary<bool>();
    const auto d = netcc::dcqcn_np_on_packet(f, ce, timestamp{t}, p);
    if (!ce) RC_ASSERT(d.action == dcqcn_np_action::none);
    if (d.action == dcqcn_np_action::send_now) RC_ASSERT(d.at == timestamp{t});
    if (d.action == dcqcn_np_action::schedule) RC_ASSERT(d.at > timestamp{t});
    if (d.action != dcqcn_np_action::none) tr.cnps.push_back(d.at.count());
    if (p.mode == dcqcn_np_mode::suppress) RC_ASSERT(d.action != dcqcn_np_action::schedule);
    if (ce && monotone && p.mode == dcqcn_np_mode::schedule) {
      // There is a CNP at f.last_cnp in [t, t + interval].
      tr.ok_cover = tr.ok_cover && f.any && f.last_cnp.count() >= t &&
                    f.last_cnp.count() - t <= p.interval.count();
    }
  }
  return tr;
}

}  // namespace

RC_GTEST_PROP(DcqcnNp, CnpsNeverCloserThanInterval, ()) {
  const dcqcn_np_params p{
      .interval = netcc::duration{*rc::gen::inRange<std::int64_t>(0, 100'000)},
      .mode = *rc::gen::element(dcqcn_np_mode::suppress, dcqcn_np_mode::schedule)};
  const bool monotone = *rc::gen::arbitrary<bool>();
  const auto tr = run(p, monotone);
  for (std::size_t i = 1; i < tr.cnps.size(); ++i) {
    RC_ASSERT(tr.cnps[i] - tr.cnps[i - 1] >= p.interval.count());
  }
  RC_ASSERT(tr.ok_cover);
}

// Suppress mode, liveness: a marked packet at least one interval after the last CNP sends.
RC_GTEST_PROP(DcqcnNp, SuppressSendsWhenDue, ()) {
  const dcqcn_np_params p;
  dcqcn_np_flow_state f;
  const auto t0 = *rc::gen::inRange<std::int64_t>(0, 1'000'000);
  (void)netcc::dcqcn_np_on_packet(f, true, timestamp{t0}, p);
  const auto dt = *rc::gen::inRange<std::int64_t>(0, 200'000);
  const auto d = netcc::dcqcn_np_on_packet(f, true, timestamp{t0 + dt}, p);
  RC_ASSERT((d.action == dcqcn_np_action::send_now) == (dt >= 50'000));
}

}  // namespace netcc_tests::fabric_dcqcn_np
