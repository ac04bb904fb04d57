// SPDX-License-Identifier: MIT
// theta-PowerTCP (NSDI'22 §3.5, Eq. 8, Appendix D Algorithm 2): PowerTCP's law over the RTT
// signal. Hand-computed values per algorithm line, the per-RTT gate, dt = 0 and missing
// samples, tau tracking, and properties: bounds for any RTT sequence, the gamma*beta step at
// RTT = tau with zero gradient, monotonicity in the RTT, and q32 against double.
#include <netcc/control/powertcp.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "control/powertcp_branch_testing.hpp"

namespace netcc_tests::control_theta_powertcp {

using namespace netcc::literals;

namespace {

using netcc::bit_rate;
using netcc::bytes;
using netcc::duration;
using netcc::timestamp;

using q32_theta = netcc::basic_powertcp<netcc::arith::q32, netcc::rtt_power>;

// One template, two signals: theta-PowerTCP is PowerTCP's law over rtt_power.
static_assert(std::is_same_v<netcc::theta_powertcp,
                             netcc::basic_powertcp<netcc::arith::ieee_double, netcc::rtt_power>>);
static_assert(std::is_same_v<netcc::theta_powertcp::params_type, netcc::theta_powertcp_params>);

netcc::rtt_event ev(std::int64_t now, duration rtt, netcc::sequence ack_seq,
                    netcc::sequence snd_nxt) {
  return {.now = timestamp{now},
          .rtt = rtt,
          .acked = bytes{1000},
          .ack_seq = ack_seq,
          .snd_nxt = snd_nxt};
}

template <class C>
double win(const C& c) {
  return netcc::to_double(c.window());
}
template <class C>
double power(const C& c) {
  return netcc::to_double(c.norm_power());
}

// 100 Gbps, tau = 10 us: HostBw * tau = 125000 B; N = 10: beta = 12500 B.
netcc::theta_powertcp_params base_params() {
  return {.host_rate = 100_Gbps, .base_rtt = 10_us, .expected_flows = 10};
}

}  // namespace

TEST(ThetaPowerTcp, DefaultsAndValidation) {
  netcc::theta_powertcp cc{base_params()};
  EXPECT_DOUBLE_EQ(netcc::to_double(cc.beta()), 12500.0);  // HostBw * tau / N
  EXPECT_EQ(cc.cwnd(), 125000_B);                          // HostBw * tau
  EXPECT_EQ(cc.pacing_rate(), 100_Gbps);                   // line rate in the first RTT
  EXPECT_DOUBLE_EQ(cc.params().gamma, 0.9);
  const auto v = netcc::validate(netcc::theta_powertcp_params{.gamma = 0, .base_rtt = 0_ns});
  EXPECT_TRUE(v.names("theta_powertcp.gamma"));
  EXPECT_TRUE(v.names("theta_powertcp.base_rtt"));
  EXPECT_FALSE(v.names("powertcp.gamma"));
  EXPECT_EQ(v[0].message(), "theta_powertcp.gamma = 0: must be in (0, 1]");
}

TEST(ThetaPowerTcp, HandComputedAlgorithm2) {
  netcc::theta_powertcp cc{base_params()};
  // ACK 1: first RTT sample, nothing to difference against: no power, no update.
  cc.on_ack(ev(0, 10_us, 1000, 130'000));
  EXPECT_EQ(cc.cwnd(), 125000_B);
  EXPECT_TRUE(cc.in_first_rtt());
  // ACK 2: line 11 dt = 1000 ns; line 12 thetadot = (10.5 - 10) us / 1 us = 0.5;
  //  line 13 Gamma_norm = (0.5 + 1) * 10.5 / 10 = 1.575 (first sample: Gamma_smooth = 1.575).
  //  line 17: lastUpdated not set yet -> update; cwnd_old = cwnd_init = 125000:
  //  line 20 cwnd = 0.9 * (125000/1.575 + 12500) + 0.1 * 125000
  //             = 0.9 * (79365.079365 + 12500) + 12500 = 95178.571429
  //  line 22 lastUpdated = snd_nxt = 131000.
  cc.on_ack(ev(1000, 10500_ns, 2000, 131'000));
  EXPECT_NEAR(power(cc), 1.575, 1e-12);
  EXPECT_NEAR(win(cc), 95178.571429, 1e-5);
  EXPECT_EQ(cc.pacing_rate(), bytes{95178} / 10_us);  // line 6: cwnd / tau
  // ACK 3: thetadot = 0, Gamma_norm = 1.05; line 14: 1.575 + 0.1 * (1.05 - 1.575) = 1.5225.
  //  ack.seq 3000 < lastUpdated 131000: no update (line 17).
  cc.on_ack(ev(2000, 10500_ns, 3000, 132'000));
  EXPECT_NEAR(power(cc), 1.5225, 1e-12);
  EXPECT_NEAR(win(cc), 95178.571429, 1e-5);
  // ACK 4: thetadot = -0.5, Gamma_norm = 0.5 * 10 / 10 = 0.5;
  //  Gamma_smooth = 1.5225 + 0.1 * (0.5 - 1.5225) = 1.42025. ack.seq 131000 >= lastUpdated:
  //  cwnd_old = GETCWND(130999) = 125000 (sent before the update):
  //  cwnd = 0.9 * (125000/1.42025 + 12500) + 0.1 * 95178.571429
  //       = 0.9 * (88012.673825 + 12500) + 9517.857143 = 99979.263585
  cc.on_ack(ev(3000, 10_us, 131'000, 232'000));
  EXPECT_NEAR(power(cc), 1.42025, 1e-12);
  EXPECT_NEAR(win(cc), 99979.263585, 1e-5);
  // ACK 5: the history holds (131000: 95178.57) from ACK 2 and (232000: 99979.26) from ACK 4;
  //  GETCWND(232000) gives the window recorded at ACK 4.
  //  thetadot = 0, Gamma_norm = 1; Gamma_smooth = 1.42025 + 0.1 * (1 - 1.42025) = 1.378225
  //  cwnd = 0.9 * (99979.263585/1.378225 + 12500) + 0.1 * 99979.263585
  cc.on_ack(ev(4000, 10_us, 232'001, 300'000));
  const double expect = 0.9 * (99979.263585 / 1.378225 + 12500) + 0.1 * 99979.263585;
  EXPECT_NEAR(power(cc), 1.378225, 1e-12);
  EXPECT_NEAR(win(cc), expect, 1e-4);
}

TEST(ThetaPowerTcp, ZeroDtMissingAndReorderedSamples) {
  netcc::theta_powertcp cc{base_params()};
  cc.on_ack(ev(0, 10_us, 1, 100'000));
  cc.on_ack(ev(1000, 10_us, 2, 100'000));  // power 1, update, lastUpdated = 100000
  const double w = win(cc), p = power(cc);
  EXPECT_NEAR(p, 1.0, 1e-12);
  // Same timestamp (dt = 0): no division, no sample; the earlier sample is kept.
  cc.on_ack(ev(1000, 50_us, 3, 100'000));
  EXPECT_EQ(power(cc), p);
  // No RTT sample (0) and a negative one: ignored.
  cc.on_ack(ev(2000, 0_us, 4, 100'000));
  cc.on_ack(ev(2500, duration{-5}, 5, 100'000));
  EXPECT_EQ(power(cc), p);
  // Next sample at t = 3000 differences against (t = 1000, 10 us): thetadot = 1 us / 2 us = 0.5
  //  Gamma_norm = 1.5 * 11 / 10 = 1.65; Gamma_smooth = 1 + 0.2 * 0.65 = 1.13.
  cc.on_ack(ev(3000, 11_us, 6, 100'000));
  EXPECT_NEAR(power(cc), 1.13, 1e-12);
  // Reordered (earlier timestamp): no sample, resync to it.
  cc.on_ack(ev(2000, 20_us, 7, 100'000));
  EXPECT_NEAR(power(cc), 1.13, 1e-12);
  EXPECT_EQ(win(cc), w);  // no round passed: the window did not move
}

// Issue 16: an event at timestamp{INT64_MIN} made line 11 negate INT64_MIN (UB, and in practice
// dt saturated to INT64_MIN, so the next sample was lost). dt is a saturating subtraction: the
// clock's ends are ordinary times, and a jump across the whole range saturates to INT64_MAX.
template <class C>
void extreme_timestamps() {
  constexpr std::int64_t lo = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t hi = std::numeric_limits<std::int64_t>::max();
  C cc{base_params()};
  cc.on_ack(ev(lo, 10_us, 1, 100'000));
  // dt = 1000 ns, thetadot = 2 us / 1 us = 2: Gamma_norm = (2 + 1) * 12 / 10 = 3.6.
  cc.on_ack(ev(lo + 1000, 12_us, 2, 100'000));
  EXPECT_NEAR(power(cc), 3.6, 1e-6);
  // A jump to the other end: dt saturates to 2^63 - 1, thetadot = 0, Gamma_norm = 1.2 with
  // weight 1 (dt >= tau).
  cc.on_ack(ev(hi, 12_us, 3, 100'000));
  EXPECT_NEAR(power(cc), 1.2, 1e-6);
  // And back: a reordered sample (dt < 0), resync, no sample.
  cc.on_ack(ev(lo, 20_us, 4, 100'000));
  EXPECT_NEAR(power(cc), 1.2, 1e-6);
  cc.on_ack(ev(lo + 2000, 20_us, 5, 100'000));  // Gamma_norm = 1 * 20 / 10 = 2, weight 0.2
  EXPECT_NEAR(power(cc), 1.2 + 0.2 * (2 - 1.2), 1e-6);
  EXPECT_GE(cc.cwnd(), cc.params().min_cwnd);
}

TEST(ThetaPowerTcp, ExtremeTimestampsDouble) {
  extreme_timestamps<netcc::theta_powertcp>();
}
TEST(ThetaPowerTcp, ExtremeTimestampsQ32) {
  extreme_timestamps<q32_theta>();
}

TEST(ThetaPowerTcp, NegativeGradientGivesBoundedIncrease) {
  auto p = base_params();
  p.cwnd_init = 20000_B;
  netcc::theta_powertcp cc{p};
  cc.on_ack(ev(0, 100_us, 1, 100'000));
  // RTT falls 90 us in 1 us: thetadot = -90, thetadot + 1 < 0 -> taken as 0: power 0.
  // cwnd = 0.9 * (HostBw*tau + beta) + 0.1 * 20000 = 0.9 * 137500 + 2000 = 125750
  cc.on_ack(ev(1000, 10_us, 2, 100'000));
  EXPECT_EQ(power(cc), 0.0);
  EXPECT_NEAR(win(cc), 125750.0, 1e-6);
}

TEST(ThetaPowerTcp, TauTracksMinimumRtt) {
  auto p = base_params();
  p.tau_source = netcc::powertcp_tau::min_rtt;
  netcc::theta_powertcp cc{p};
  cc.on_ack(ev(0, 20_us, 1, 100'000));
  EXPECT_EQ(cc.tau(), 20_us);
  cc.on_ack(ev(1000, 16_us, 2, 100'000));
  EXPECT_EQ(cc.tau(), 16_us);
  // thetadot = -4 us / 1 us = -4 -> current 0 -> power 0 (tau = 16 us used for RTT/tau)
  EXPECT_EQ(power(cc), 0.0);
  cc.on_ack(ev(2000, 18_us, 3, 100'000));
  EXPECT_EQ(cc.tau(), 16_us);
  // power sample: (2/1 + 1) * 18/16 = 3.375; smoothing weight 1000/16000
  EXPECT_NEAR(power(cc), 3.375 * 1000.0 / 16000.0, 1e-12);
  // beta = 100 Gbps * 16 us / 10 = 20000 B
  EXPECT_DOUBLE_EQ(netcc::to_double(cc.beta()), 20000.0);
  auto fixed = base_params();
  netcc::theta_powertcp f{fixed};
  f.on_ack(ev(0, 3_us, 1, 100'000));
  EXPECT_EQ(f.tau(), 10_us);
}

TEST(ThetaPowerTcp, AckEventAndRttEventDriveItAlike) {
  netcc::theta_powertcp a{base_params()}, b{base_params()};
  const std::int64_t rtts[] = {10000, 12000, 11000, 15000, 9000, 10000};
  netcc::sequence s = 0;
  for (int k = 0; k < 6; ++k) {
    s += 40'000;
    a.on_ack(ev(1000 * k, duration{rtts[k]}, s, s + 100'000));
    b.on_ack(netcc::ack_event{.now = timestamp{1000 * k},
                              .ack_seq = s,
                              .snd_nxt = s + 100'000,
                              .acked = 1000_B,
                              .rtt = duration{rtts[k]}});
    EXPECT_EQ(win(a), win(b));
  }
}

// ---------------------------------------------------------------------------------------------
// Properties

// theta-PowerTCP's RTT gradient through one 64-bit division (detail::powertcp_ratio) equals
// netcc::ratio bit for bit in q32 (and is ratio in double): RTT changes of either sign up to
// and beyond the 2^31 ns the fast form takes, any positive interval.
RC_GTEST_PROP(ThetaPowerTcp, GradientRatioEqualsRatio, ()) {
  using q = netcc::fixed_point<31, 32>;
  constexpr std::int64_t lim = std::int64_t{1} << 31;
  const std::int64_t n = *rc::gen::oneOf(
      rc::gen::arbitrary<std::int64_t>(), rc::gen::inRange<std::int64_t>(-100'000, 100'000),
      rc::gen::inRange<std::int64_t>(lim - 3, lim + 3),
      rc::gen::inRange<std::int64_t>(-lim - 3, -lim + 3),
      rc::gen::element(std::numeric_limits<std::int64_t>::min(),
                       std::numeric_limits<std::int64_t>::max(), std::int64_t{0}));
  const std::int64_t d = *rc::gen::oneOf(
      rc::gen::inRange<std::int64_t>(1, 5000), rc::gen::inRange<std::int64_t>(1, 3),
      rc::gen::inRange<std::int64_t>(1, std::numeric_limits<std::int64_t>::max()),
      rc::gen::element(std::numeric_limits<std::int64_t>::max(), std::int64_t{1} << 62));
  RC_ASSERT(netcc::detail::powertcp_ratio<q>(n, d) == netcc::ratio<q>(n, d));
  // A tie (|n| 2^32 / d exactly half-way, d = 2^33 and n odd) rounds away from zero in both.
  const std::int64_t odd = (n % lim) | 1;
  RC_ASSERT(netcc::detail::powertcp_ratio<q>(odd, std::int64_t{1} << 33) ==
            netcc::ratio<q>(odd, std::int64_t{1} << 33));
  RC_ASSERT(std::bit_cast<std::uint64_t>(netcc::detail::powertcp_ratio<double>(n, d)) ==
            std::bit_cast<std::uint64_t>(netcc::ratio<double>(n, d)));
}

// Inputs for the fast forms' properties: their ranges, their edges, and beyond them.
std::int64_t rtt_input() {
  constexpr std::int64_t lim = std::int64_t{1} << 30;
  return *rc::gen::oneOf(
      rc::gen::inRange<std::int64_t>(1'000, 200'000), rc::gen::inRange<std::int64_t>(0, lim + 3),
      rc::gen::inRange<std::int64_t>(lim - 3, lim + 3),
      rc::gen::inRange<std::int64_t>(0, std::numeric_limits<std::int64_t>::max()),
      rc::gen::element(std::int64_t{0}, std::int64_t{1}, std::numeric_limits<std::int64_t>::max()));
}
std::int64_t positive_input() {  // a dt or a tau
  constexpr std::int64_t lim = std::int64_t{1} << 31;
  return *rc::gen::oneOf(
      rc::gen::inRange<std::int64_t>(1, 20'000), rc::gen::inRange<std::int64_t>(1, 4),
      rc::gen::inRange<std::int64_t>(lim - 3, lim + 3),
      rc::gen::map(rc::gen::inRange(0, 63), [](int k) { return std::int64_t{1} << k; }),
      rc::gen::inRange<std::int64_t>(1, std::numeric_limits<std::int64_t>::max()),
      rc::gen::just(std::numeric_limits<std::int64_t>::max()));
}

// theta-PowerTCP's normalised power in q32 (detail::theta_powertcp_power: raw integers for RTTs
// below 2^30 ns, one 64-bit division, tau's reciprocal, a 128-bit product) is the operator form
// bit for bit: netcc::ratio for the gradient and RTT / tau, operator+ and operator*, the clamps
// to [0, 2^30]; for RTTs at and beyond 2^30 ns, any dt and tau (powers of two included).
RC_GTEST_PROP(ThetaPowerTcp, Q32PowerFastFormIsTheOperatorForm, ()) {
  using q = netcc::fixed_point<31, 32>;
  const std::int64_t rtt = rtt_input(), prev = rtt_input(), dt = positive_input(),
                     tau = positive_input();
  const netcc::detail::invariant_divisor td{static_cast<std::uint64_t>(tau)};
  const q zero{0}, one{1}, pmax = netcc::powertcp_max_power<q>();
  const q current =
      netcc::clamp_num(netcc::ratio<q>(netcc::detail::sat_sub(rtt, prev), dt) + one, zero, pmax);
  const q voltage = netcc::clamp_num(netcc::ratio<q>(rtt, tau), zero, pmax);
  const q expect = netcc::clamp_num(current * voltage, zero, pmax);
  RC_ASSERT(netcc::detail::theta_powertcp_power<q>(rtt, prev, dt, td).raw() == expect.raw());
  RC_ASSERT(netcc::detail::theta_powertcp_power_ops<q>(rtt, prev, dt, td).raw() == expect.raw());
}

// theta-PowerTCP's smoothing step in q32 (detail::theta_powertcp_smooth: the weight through
// tau's reciprocal, one 128-bit product and a rounding shift, no branch) is the operator form
// bit for bit: w = 1 for dt >= tau, else netcc::ratio(dt, tau); Gamma_smooth + w (Gamma_norm -
// Gamma_smooth) with operator-, operator* and operator+; for powers in [0, 2^30] and at the
// ends of the q32 range (negative ones included), any dt and tau.
RC_GTEST_PROP(ThetaPowerTcp, Q32SmoothFastFormIsTheOperatorForm, ()) {
  using q = netcc::fixed_point<31, 32>;
  constexpr std::int64_t pmax = std::int64_t{1} << 62;
  const auto power_raw = [] {
    return *rc::gen::oneOf(rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 36),
                           rc::gen::inRange<std::int64_t>(0, pmax + 1),
                           rc::gen::inRange<std::int64_t>(pmax - 3, pmax + 3),
                           rc::gen::arbitrary<std::int64_t>(),
                           rc::gen::element(std::int64_t{0}, std::int64_t{1}, q::raw_max,
                                            -q::raw_max, std::int64_t{-1}));
  };
  const q s = q::from_raw(power_raw()), p = q::from_raw(power_raw());
  const std::int64_t dt = positive_input(), tau = positive_input();
  const netcc::detail::invariant_divisor td{static_cast<std::uint64_t>(tau)};
  const q w = dt >= tau ? q{1} : netcc::ratio<q>(dt, tau);
  const q expect = s + w * (p - s);
  RC_ASSERT(netcc::detail::theta_powertcp_smooth(s, p, dt, td).raw() == expect.raw());
  RC_ASSERT(netcc::detail::theta_powertcp_smooth_ops(s, p, dt, td).raw() == expect.raw());
}

// Algorithm 2 in q32 in the operator form: basic_powertcp<q32, rtt_power>'s steps (NEWACK,
// NORMPOWER, the smoothing, UPDATEWINDOW once per RTT, UPDATEOLD, the minimum-RTT tau) written
// with netcc::ratio, operator+, -, *, / and clamp_num, without the fast forms of the header.
struct q32_operator_form {
  using q = netcc::fixed_point<31, 32>;
  netcc::theta_powertcp_params p;
  q gamma, min_w, max_w, beta, host_bdp, cwnd, smooth{};
  duration tau, prev_rtt{};
  timestamp prev_t{};
  bool beta_auto, have_power = false, armed = false, have_rtt = false, have_prev = false,
                  first_rtt = true;
  netcc::per_rtt_marker marker{};
  netcc::window_history<q, 2> hist{};
  netcc::powertcp_branch branch = netcc::powertcp_branch::none;

  explicit q32_operator_form(const q32_theta& cc)
      : p(cc.params()),
        gamma(netcc::num<q>(p.gamma)),
        min_w(q{p.min_cwnd.count()}),
        max_w(q{p.max_cwnd.count()}),
        beta(cc.beta()),
        cwnd(cc.window()),
        beta_auto(p.beta == bytes::zero()) {
    set_tau(p.base_rtt);
  }
  void set_tau(duration t) {
    tau = t;
    const bytes bdp = p.host_rate * t;
    host_bdp = netcc::clamp_num(q{bdp.count()}, q{0}, max_w);
    if (beta_auto) beta = netcc::clamp_num(q{(bdp / p.expected_flows).count()}, q{0}, max_w);
  }
  void on_ack(const netcc::rtt_event& e) {
    const q zero{0}, one{1}, pmax = netcc::powertcp_max_power<q>();
    if (p.tau_source == netcc::powertcp_tau::min_rtt && e.rtt > duration::zero() &&
        (!have_rtt || e.rtt < tau)) {
      have_rtt = true;
      set_tau(e.rtt);
    }
    const netcc::sequence last = e.ack_seq - 1;
    if (hist.size() == 0) hist.remember(last, cwnd);
    bool valid = false;
    q power{};
    duration dt{};
    if (e.rtt > duration::zero()) {
      if (have_prev) dt = e.now - prev_t;
      if (have_prev && dt > duration::zero()) {
        const q current = netcc::clamp_num(
            netcc::ratio<q>(netcc::detail::sat_sub(e.rtt.count(), prev_rtt.count()), dt.count()) +
                one,
            zero, pmax);
        const q voltage = netcc::clamp_num(netcc::ratio<q>(e.rtt.count(), tau.count()), zero, pmax);
        power = netcc::clamp_num(current * voltage, zero, pmax);
        valid = true;
      }
      if (!have_prev || dt != duration::zero()) {
        prev_rtt = e.rtt;
        prev_t = e.now;
        have_prev = true;
      }
    }
    if (valid) {
      if (have_power) {
        const q w = dt >= tau ? one : netcc::ratio<q>(dt.count(), tau.count());
        smooth = smooth + w * (power - smooth);
      } else {
        smooth = power;
        have_power = true;
      }
    }
    const bool round = !armed || marker.reached(e.ack_seq);
    branch = netcc::powertcp_branch::hold;
    if (have_power && round) {
      const q cwnd_old = hist.window_at(last, cwnd);
      const bool uncapped = smooth * host_bdp > cwnd_old;
      branch = uncapped ? netcc::powertcp_branch::update : netcc::powertcp_branch::update_capped;
      const q mi = uncapped ? cwnd_old / smooth : host_bdp;
      cwnd = netcc::clamp_num(gamma * (mi + beta) + (one - gamma) * cwnd, min_w, max_w);
      first_rtt = false;
      hist.remember(e.snd_nxt, cwnd);
      marker.arm(e.snd_nxt);
      armed = true;
    }
  }
};

// basic_powertcp<q32, rtt_power> (its per-ACK steps inlined, the window update out of line, the
// power and smoothing in raw integers: detail::theta_powertcp_power and _smooth) is the
// operator form bit for bit after every event: window, smoothed power, rule, tau, first RTT; on
// realistic traces and on RTTs, intervals and taus at and beyond the fast forms' ranges (RTTs
// of 2^30 ns and more, intervals of 2^31 ns and more, missing and reordered samples, both tau
// sources).
RC_GTEST_PROP(ThetaPowerTcp, Q32ObjectIsTheOperatorForm, ()) {
  const bool wide = *rc::gen::arbitrary<bool>();
  netcc::theta_powertcp_params p{
      .gamma = *rc::gen::inRange(1, 1001) / 1000.0,
      .host_rate = bit_rate{*rc::gen::inRange<std::int64_t>(1, 400) * 1'000'000'000},
      .base_rtt = duration{wide ? positive_input() : *rc::gen::inRange<std::int64_t>(1, 200'000)},
      .expected_flows = *rc::gen::inRange<std::int64_t>(1, 64),
      .beta = bytes{*rc::gen::element<std::int64_t>(0, 0, 3000)},
      .tau_source =
          *rc::gen::element(netcc::powertcp_tau::configured, netcc::powertcp_tau::min_rtt)};
  q32_theta cc{p};
  q32_operator_form ref{cc};
  std::int64_t t = *rc::gen::inRange<std::int64_t>(-(std::int64_t{1} << 40), std::int64_t{1} << 40);
  netcc::sequence s = *rc::gen::arbitrary<netcc::sequence>();
  const int n = *rc::gen::inRange(1, 300);
  for (int k = 0; k < n; ++k) {
    const int kind = *rc::gen::inRange(0, 100);
    std::int64_t step = *rc::gen::inRange<std::int64_t>(1, 30'000);
    if (kind < 3) step = 0;
    if (kind >= 3 && kind < 6) step = -*rc::gen::inRange<std::int64_t>(1, 5'000);
    if (wide && kind >= 6 && kind < 10) step = positive_input() / 4;
    t = static_cast<std::int64_t>(static_cast<std::uint64_t>(t) + static_cast<std::uint64_t>(step));
    std::int64_t rtt = *rc::gen::inRange<std::int64_t>(1'000, 150'000);
    if (kind >= 10 && kind < 13) rtt = *rc::gen::element<std::int64_t>(0, -5);
    if (wide && kind >= 13 && kind < 20) rtt = rtt_input();
    s += *rc::gen::inRange<std::uint64_t>(0, 60'000);
    const auto e = ev(t, duration{rtt}, s, s + *rc::gen::inRange<std::uint64_t>(0, 300'000));
    cc.on_ack(e);
    ref.on_ack(e);
    RC_ASSERT(cc.window().raw() == ref.cwnd.raw());
    RC_ASSERT(cc.norm_power().raw() == ref.smooth.raw());
    RC_ASSERT(cc.last_branch() == ref.branch);
    RC_ASSERT(cc.tau() == ref.tau);
    RC_ASSERT(cc.in_first_rtt() == ref.first_rtt);
  }
}

RC_GTEST_PROP(ThetaPowerTcp, OutputsFiniteAndWithinLimitsForAnyRttSequence, (bool q32)) {
  const auto min_w = *rc::gen::inRange<std::int64_t>(1, 100'000);
  const auto max_w = min_w + *rc::gen::inRange<std::int64_t>(0, 10'000'000);
  netcc::theta_powertcp_params p{
      .gamma = *rc::gen::inRange(1, 1001) / 1000.0,
      .host_rate = bit_rate{*rc::gen::inRange<std::int64_t>(1, 800) * 1'000'000'000},
      .base_rtt = duration{*rc::gen::inRange<std::int64_t>(1, 1'000'000)},
      .expected_flows = *rc::gen::inRange<std::int64_t>(1, 1000),
      .min_cwnd = bytes{min_w},
      .max_cwnd = bytes{max_w},
      .min_rate = bit_rate{*rc::gen::inRange<std::int64_t>(0, 1'000'000'000)},
      .tau_source =
          *rc::gen::element(netcc::powertcp_tau::configured, netcc::powertcp_tau::min_rtt)};
  RC_PRE(netcc::validate(p).ok());
  // RTTs: zero, huge, negative, decreasing; timestamps: equal, decreasing, jumps.
  const auto rtts = *rc::gen::container<std::vector<std::int64_t>>(
      rc::gen::oneOf(rc::gen::just<std::int64_t>(0), rc::gen::inRange<std::int64_t>(-1000, 200'000),
                     rc::gen::just(std::numeric_limits<std::int64_t>::max()),
                     rc::gen::inRange<std::int64_t>(1, std::numeric_limits<std::int64_t>::max())));
  const auto steps = *rc::gen::container<std::vector<std::int64_t>>(
      rtts.size(), rc::gen::oneOf(rc::gen::just<std::int64_t>(0),
                                  rc::gen::inRange<std::int64_t>(-5000, 50'000)));
  const auto seqs = *rc::gen::container<std::vector<std::uint64_t>>(
      rtts.size(), rc::gen::inRange<std::uint64_t>(0, 300'000));
  auto run = [&](auto cc) {
    std::int64_t t = *rc::gen::arbitrary<std::int64_t>();
    netcc::sequence s = *rc::gen::arbitrary<std::uint64_t>();
    for (std::size_t i = 0; i < rtts.size(); ++i) {
      t = static_cast<std::int64_t>(static_cast<std::uint64_t>(t) +
                                    static_cast<std::uint64_t>(steps[i]));
      s += seqs[i];
      cc.on_ack(ev(t, duration{rtts[i]}, s - seqs[i] % 7, s + seqs[i]));
      RC_ASSERT(std::isfinite(netcc::to_double(cc.window())));
      RC_ASSERT(cc.cwnd() >= p.min_cwnd);
      RC_ASSERT(cc.cwnd() <= p.max_cwnd);
      RC_ASSERT(cc.pacing_rate() >= p.min_rate);
      RC_ASSERT(cc.pacing_rate() <= p.host_rate);
    }
  };
  if (q32) {
    run(q32_theta{p});
  } else {
    run(netcc::theta_powertcp{p});
  }
}

// RTT = tau, zero gradient, cwnd_old = cwnd: one update raises the window by gamma * beta.
template <class Policy>
void unit_power_case(double tol) {
  const auto gbps = *rc::gen::inRange<std::int64_t>(1, 400);
  const auto tau_ns = *rc::gen::inRange<std::int64_t>(1000, 200'000);
  netcc::theta_powertcp_params p{.gamma = *rc::gen::inRange(1, 1001) / 1000.0,
                                 .host_rate = bit_rate{gbps * 1'000'000'000},
                                 .base_rtt = duration{tau_ns},
                                 .expected_flows = *rc::gen::inRange<std::int64_t>(1, 64)};
  const bytes bdp = p.host_rate * p.base_rtt;
  RC_PRE(bdp >= 1500_B);
  p.cwnd_init = bytes{*rc::gen::inRange<std::int64_t>(1500, bdp.count() + 1)};
  netcc::basic_powertcp<Policy, netcc::rtt_power> cc{p};
  const double before = netcc::to_double(cc.window());
  const double beta = netcc::to_double(cc.beta());
  const auto dt = *rc::gen::inRange<std::int64_t>(1, 100'000);
  cc.on_ack(ev(0, p.base_rtt, 1, 1'000'000));
  cc.on_ack(ev(dt, p.base_rtt, 2, 1'000'000));
  RC_ASSERT(netcc::to_double(cc.norm_power()) == 1.0);
  const double gamma = netcc::to_double(netcc::num<typename Policy::value_type>(p.gamma));
  RC_ASSERT(std::abs(netcc::to_double(cc.window()) - before - gamma * beta) <= tol);
}

RC_GTEST_PROP(ThetaPowerTcp, RttEqualTauZeroGradientAddsGammaBetaDouble, ()) {
  unit_power_case<netcc::arith::ieee_double>(1e-9);
}
RC_GTEST_PROP(ThetaPowerTcp, RttEqualTauZeroGradientAddsGammaBetaQ32, ()) {
  unit_power_case<netcc::arith::q32>(1e-6);
}

// From the same state, a larger RTT on the next completion never gives a larger window.
template <class Policy>
void monotone_case() {
  using cc_t = netcc::basic_powertcp<Policy, netcc::rtt_power>;
  auto p = base_params();
  p.gamma = *rc::gen::inRange(1, 101) / 100.0;
  cc_t cc{p};
  std::int64_t t = 0;
  netcc::sequence s = 0;
  const int n = *rc::gen::inRange(0, 20);
  for (int k = 0; k < n; ++k) {
    t += *rc::gen::inRange<std::int64_t>(1, 20'000);
    s += *rc::gen::inRange<std::uint64_t>(0, 80'000);
    cc.on_ack(ev(t, duration{*rc::gen::inRange<std::int64_t>(1, 100'000)}, s, s + 100'000));
  }
  t += *rc::gen::inRange<std::int64_t>(1, 20'000);
  s += *rc::gen::inRange<std::uint64_t>(0, 200'000);
  const auto r1 = *rc::gen::inRange<std::int64_t>(1, 100'000);
  const auto r2 = r1 + *rc::gen::inRange<std::int64_t>(0, 100'000);
  cc_t lo = cc, hi = cc;
  lo.on_ack(ev(t, duration{r1}, s, s + 100'000));
  hi.on_ack(ev(t, duration{r2}, s, s + 100'000));
  RC_ASSERT(hi.norm_power() >= lo.norm_power());
  RC_ASSERT(hi.window() <= lo.window());
}

RC_GTEST_PROP(ThetaPowerTcp, LargerRttNeverGivesLargerWindowDouble, ()) {
  monotone_case<netcc::arith::ieee_double>();
}
RC_GTEST_PROP(ThetaPowerTcp, LargerRttNeverGivesLargerWindowQ32, ()) {
  monotone_case<netcc::arith::q32>();
}

// q32 against double on the same RTT sequence: within 1e-6 relative (+ 0.01 B).
RC_GTEST_PROP(ThetaPowerTcp, Q32TrajectoryTracksDouble, ()) {
  auto p = base_params();
  p.gamma = *rc::gen::inRange(1, 101) / 100.0;
  p.cwnd_init = bytes{*rc::gen::inRange<std::int64_t>(1500, 500'000)};
  netcc::theta_powertcp d{p};
  q32_theta f{p};
  std::int64_t t = 0;
  netcc::sequence s = 0;
  const int n = *rc::gen::inRange(1, 300);
  for (int k = 0; k < n; ++k) {
    t += *rc::gen::inRange<std::int64_t>(100, 20'000);
    s += *rc::gen::inRange<std::uint64_t>(0, 60'000);
    const auto e = ev(t, duration{*rc::gen::inRange<std::int64_t>(8'000, 80'000)}, s, s + 120'000);
    const double wd_prev = netcc::to_double(d.window());
    d.on_ack(e);
    f.on_ack(e);
    const double wd = netcc::to_double(d.window()), wf = netcc::to_double(f.window());
    RC_ASSERT(std::abs(wd - wf) <= 1e-6 * wd + 0.01);
    netcc_test::check_same_powertcp_branch(d, f, wd_prev);
  }
}

}  // namespace netcc_tests::control_theta_powertcp
