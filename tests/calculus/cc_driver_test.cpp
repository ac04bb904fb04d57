// SPDX-License-Identifier: MIT
// The generic driver (netcc/calculus/cc_driver.hpp): netcc controllers through the path-server
// model of the network-calculus seed. Hand-computed cases with a fixed window and a fixed rate
// (throughput, standing backlog, the RTT of Eq. 1, ECN marks, CNP spacing, PFC, a timeout with
// Go-Back-N, multiplicity), parameter checks, real controllers (DCTCP holds the queue near K,
// PowerTCP drains an incast, netcc's Vegas against the seed's own Vegas model), and laws on random
// scenarios (D_j <= Â_j <= A_j, B = transmitted - departed >= 0, everything finite).
#include <netcc/calculus/cc_driver.hpp>
#include <netcc/calculus/path_server.hpp>
#include <netcc/control/dcqcn.hpp>
#include <netcc/control/dctcp.hpp>
#include <netcc/control/powertcp.hpp>
#include <netcc/control/vegas.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace netcc_tests::calculus_cc_driver {

namespace {

namespace nc = netcc::calculus;
using netcc::bit_rate;
using netcc::bytes;
using netcc::duration;
using netcc::timestamp;

constexpr bit_rate gbps(std::int64_t g) {
  return bit_rate{g * 1'000'000'000};
}

// A test controller: a fixed window and/or rate; it records what it was told.
struct probe {
  bytes w = bytes::max();
  bit_rate r = bit_rate::max();
  std::vector<netcc::ack_event> acks{};
  std::vector<timestamp> cnps{};
  std::vector<timestamp> timeouts{};
  void on_ack(const netcc::ack_event& a) { acks.push_back(a); }
  void on_cnp(const netcc::cnp_event& e) { cnps.push_back(e.now); }
  void on_timeout(timestamp now) { timeouts.push_back(now); }
  [[nodiscard]] bytes cwnd() const { return w; }
  [[nodiscard]] bit_rate pacing_rate() const { return r; }
};

nc::double_curve burst(double b) {
  return nc::double_curve::token_bucket(0.0, b);
}
nc::double_curve saturated() {
  return nc::double_curve::token_bucket(0.0, 1.0e15);
}

double mean_backlog(const nc::driver_result& r, double from, double to) {
  double s = 0;
  int n = 0;
  for (const auto& x : r.samples) {
    if (x.t >= from && x.t <= to) {
      s += x.backlog;
      ++n;
    }
  }
  return n > 0 ? s / n : 0.0;
}

double rate_gbps(const nc::driver_result& r, double from, double to) {
  double d0 = 0, d1 = 0, t0 = 0, t1 = 0;
  bool have = false;
  for (const auto& x : r.samples) {
    if (x.t >= from && !have) {
      d0 = x.departed;
      t0 = x.t;
      have = true;
    }
    if (x.t <= to) {
      d1 = x.departed;
      t1 = x.t;
    }
  }
  return t1 > t0 ? (d1 - d0) / (t1 - t0) * 8.0 : 0.0;
}

// ------------------------------------------------------------------------------- parameters

TEST(CcDriver, BadParametersAreReportedByNameAndNothingRuns) {
  nc::driver_config c{.capacity = bit_rate{0}};
  std::vector<nc::driver_flow<probe>> f(1);
  auto r = nc::cc_driver<probe>(c, f).run(duration{1000});
  EXPECT_EQ(r.error, "driver.capacity = 0 bps: must be positive");
  EXPECT_TRUE(r.samples.empty());
  EXPECT_FALSE(r.complete);

  nc::driver_config ok{};
  f[0].arrivals = nc::double_curve::affine(5.0, nc::extended<double>{5.0}, 0.0);  // A(0) = 5
  r = nc::cc_driver<probe>(ok, f).run(duration{1000});
  EXPECT_EQ(r.error, "driver.flows[0].arrivals(0) = 5: must be 0 (a burst at 0 is A(0+))");

  f[0].arrivals = burst(1000);
  f[0].multiplicity = 0;
  r = nc::cc_driver<probe>(ok, f).run(duration{1000});
  EXPECT_EQ(r.error, "driver.flows[0].multiplicity = 0: must be at least 1");

  nc::driver_config pfc{.pfc = true, .x_off = bytes{10}, .x_on = bytes{10}};
  EXPECT_EQ(nc::validate(pfc)[0].message(), "driver.x_off = 10 B: must be greater than x_on");
  nc::driver_config to{.feedback_delay = duration{20'000}, .timeout = duration{10'000}};
  EXPECT_EQ(nc::validate(to)[0].message(),
            "driver.timeout = 10000 ns: must be zero (off) or longer than feedback_delay");
  EXPECT_TRUE(nc::validate(nc::driver_config{}).ok());
}

// ------------------------------------------------------------------ fixed window, fixed rate

TEST(CcDriver, WindowBelowTheBdpGivesWindowPerRoundTripAndTheRttOfEq1) {
  // C = 100 Gbit/s = 12.5 B/ns, dR = 20 us, I_max = 1250 B (h = 100 ns): BDP = 250 kB.
  // A window of 50 kB (40 packets) sends W per round trip dR + h: 50e3 / 20.1e3 B/ns = 19.9 Gbps,
  // with no standing queue; every ACK carries RTT = dR + the packet's time in the server.
  nc::driver_config c{
      .capacity = gbps(100), .feedback_delay = duration{20'000}, .packet_size = bytes{1250}};
  std::vector<nc::driver_flow<probe>> f(1);
  f[0].cc.w = bytes{50'000};
  f[0].arrivals = saturated();
  nc::cc_driver<probe> d(c, f);
  const auto r = d.run(duration{400'000});
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_TRUE(r.complete);
  EXPECT_DOUBLE_EQ(r.step, 100.0);
  EXPECT_NEAR(rate_gbps(r, 100'000, 400'000), 50e3 / 20.1e3 * 8, 0.3);
  const auto& acks = d.controller(0).acks;
  ASSERT_GT(acks.size(), 100u);
  for (const auto& a : acks) {
    EXPECT_EQ(a.acked, bytes{1250});
    EXPECT_GE(a.rtt, duration{20'000});
    EXPECT_LE(a.rtt, duration{20'000 + 50'000 / 12});  // at most the whole window queued
    EXPECT_EQ(a.hops.size(), 1u);
    EXPECT_EQ(a.hops.hops[0].link_rate, gbps(100));
    EXPECT_FALSE(a.ecn_echo);
  }
  // in steady state the window is spread out: one packet per window/RTT, RTT ~ dR + h
  EXPECT_LE(acks.back().rtt, duration{20'200});
}

TEST(CcDriver, WindowAboveTheBdpFillsTheLinkAndQueuesTheExcess) {
  // W = 400 kB > C dR = 250 kB: full rate, standing backlog W - C (dR + h) = 148.75 kB.
  nc::driver_config c{
      .capacity = gbps(100), .feedback_delay = duration{20'000}, .packet_size = bytes{1250}};
  std::vector<nc::driver_flow<probe>> f(1);
  f[0].cc.w = bytes{400'000};
  f[0].arrivals = saturated();
  const auto r = nc::cc_driver<probe>(c, f).run(duration{300'000});
  EXPECT_NEAR(rate_gbps(r, 100'000, 300'000), 100.0, 0.5);
  EXPECT_NEAR(mean_backlog(r, 100'000, 300'000), 400e3 - 12.5 * 20'100, 1500.0);
  // D <= Â <= A at every sample, B = transmitted - departed
  for (std::size_t i = 0; i < r.samples.size(); ++i) {
    const auto& s = r.samples[i];
    const auto& fs = r.flows[0].samples[i];
    EXPECT_LE(fs.departed, fs.admitted + 1e-6);
    EXPECT_LE(fs.acked, fs.departed + 1e-6);
    EXPECT_NEAR(s.backlog, s.transmitted - s.departed, 1e-3);
  }
}

TEST(CcDriver, RateLimitAndLineRateBoundTheAdmission) {
  // pacing 30 Gbit/s, line rate 25 Gbit/s: the flow sends at 25 Gbit/s, no queue at 100.
  nc::driver_config c{.capacity = gbps(100), .feedback_delay = duration{10'000}};
  std::vector<nc::driver_flow<probe>> f(1);
  f[0].cc.r = gbps(30);
  f[0].line_rate = gbps(25);
  f[0].arrivals = saturated();
  const auto r = nc::cc_driver<probe>(c, f).run(duration{200'000});
  EXPECT_NEAR(rate_gbps(r, 50'000, 200'000), 25.0, 0.2);
  EXPECT_LT(mean_backlog(r, 50'000, 200'000), 1500.0);
}

TEST(CcDriver, SourceLimitsAndFinishTime) {
  // 125 kB at t = 0 through 100 Gbit/s with no window: departs in 10 us, the last ACK arrives
  // at 10 us + dR = 30 us.
  nc::driver_config c{
      .capacity = gbps(100), .feedback_delay = duration{20'000}, .packet_size = bytes{1250}};
  std::vector<nc::driver_flow<probe>> f(1);
  f[0].arrivals = burst(125'000);
  nc::cc_driver<probe> d(c, f);
  const auto r = d.run(duration{100'000});
  EXPECT_NEAR(r.flows[0].finish, 30'000.0, 101.0);
  EXPECT_DOUBLE_EQ(r.flows[0].acked, 125'000.0);
  EXPECT_EQ(r.flows[0].acks, 100u);
  // the byte at 12.5 kB departs at 1 us (the 10th ACK), its RTT is 21 us
  EXPECT_EQ(d.controller(0).acks[9].rtt, duration{21'000});
}

TEST(CcDriver, EcnMarksAtAndAboveKmaxAndCnpsAreSpaced) {
  // W = 400 kB holds ~149 kB of backlog: with K = 100 kB (step) every packet is marked; CNPs
  // at most one per 50 us.
  nc::driver_config c{.capacity = gbps(100),
                      .feedback_delay = duration{20'000},
                      .packet_size = bytes{1250},
                      .ecn = true,
                      .k_min = bytes{100'000},
                      .k_max = bytes{100'000},
                      .cnp_interval = duration{50'000}};
  std::vector<nc::driver_flow<probe>> f(1);
  f[0].cc.w = bytes{400'000};
  f[0].arrivals = saturated();
  nc::cc_driver<probe> d(c, f);
  const auto r = d.run(duration{500'000});
  const auto& acks = d.controller(0).acks;
  std::size_t late_unmarked = 0;
  for (const auto& a : acks) {
    if (a.now > timestamp{100'000} && !a.ecn_echo) ++late_unmarked;
    EXPECT_EQ(a.ecn_echo, a.hops.hops[0].qlen >= bytes{100'000}) << a.now.count();
  }
  EXPECT_EQ(late_unmarked, 0u);
  const auto& cnps = d.controller(0).cnps;
  ASSERT_GE(cnps.size(), 8u);
  EXPECT_LE(cnps.size(), 10u);
  for (std::size_t i = 1; i < cnps.size(); ++i) EXPECT_GE(cnps[i] - cnps[i - 1], duration{50'000});
  EXPECT_EQ(r.flows[0].cnps, cnps.size());
}

TEST(CcDriver, RedMarksAFractionInItsBand) {
  // backlog ~149 kB in a RED band 100..200 kB with P_max 1: p ~ 0.49 of the packets marked.
  nc::driver_config c{.capacity = gbps(100),
                      .feedback_delay = duration{20'000},
                      .packet_size = bytes{1250},
                      .ecn = true,
                      .k_min = bytes{100'000},
                      .k_max = bytes{200'000}};
  std::vector<nc::driver_flow<probe>> f(1);
  f[0].cc.w = bytes{400'000};
  f[0].arrivals = saturated();
  nc::cc_driver<probe> d(c, f);
  (void)d.run(duration{400'000});
  std::size_t n = 0, m = 0;
  for (const auto& a : d.controller(0).acks) {
    if (a.now < timestamp{100'000}) continue;
    ++n;
    if (a.ecn_echo) ++m;
  }
  ASSERT_GT(n, 1000u);
  EXPECT_NEAR(static_cast<double>(m) / static_cast<double>(n), 0.49, 0.03);
}

TEST(CcDriver, PfcHoldsTheBacklogAtXoff) {
  // two unlimited sources at 100 Gbit/s each into 100: PFC pauses at 200 kB, resumes at 190 kB.
  nc::driver_config c{.capacity = gbps(100),
                      .feedback_delay = duration{10'000},
                      .pfc = true,
                      .x_off = bytes{200'000},
                      .x_on = bytes{190'000}};
  std::vector<nc::driver_flow<probe>> f(2);
  for (auto& x : f) {
    x.line_rate = gbps(100);
    x.arrivals = saturated();
  }
  const auto r = nc::cc_driver<probe>(c, f).run(duration{200'000});
  double peak = 0;
  bool paused = false;
  for (const auto& s : r.samples) {
    peak = std::max(peak, s.backlog);
    paused = paused || s.paused;
  }
  EXPECT_TRUE(paused);
  EXPECT_LE(peak, 200'000.0 + 2 * 1460.0 * 2);  // one step of both sources beyond X_off
  EXPECT_GE(mean_backlog(r, 50'000, 200'000), 185'000.0);
  EXPECT_NEAR(rate_gbps(r, 50'000, 200'000), 100.0, 0.5);
}

TEST(CcDriver, TimeoutGoesBackNAndTheFlowStillCompletes) {
  // C = 10 Gbit/s, dR = 10 us, tau_o = 50 us. Flow 0 puts 200 kB in at t = 0 (160 us of
  // service) and its ACKs come every 1.2 us: no timeout. Flow 1's first packet waits behind it,
  // so flow 1 hears nothing for 160 us + dR > tau_o: it times out, goes back N, and completes.
  nc::driver_config c{
      .capacity = gbps(10), .feedback_delay = duration{10'000}, .timeout = duration{50'000}};
  std::vector<nc::driver_flow<probe>> f(2);
  f[0].arrivals = burst(200'000);
  // flow 1: a 1.46 kB window, sent behind flow 0's 200 kB (160 us at 10 Gbit/s) -> timeout
  f[1].cc.w = bytes{1460};
  f[1].arrivals = burst(20'000);
  nc::cc_driver<probe> d(c, f);
  const auto r = d.run(duration{1'000'000});
  EXPECT_EQ(r.flows[0].timeouts, 0u);
  EXPECT_GE(r.flows[1].timeouts, 1u);
  EXPECT_EQ(d.controller(1).timeouts.size(), r.flows[1].timeouts);
  EXPECT_GE(d.controller(1).timeouts.front(), timestamp{50'000});
  EXPECT_DOUBLE_EQ(r.flows[1].acked, 20'000.0);
  EXPECT_GT(r.flows[1].finish, 0.0);
  // retransmissions: more put into the server than the two sources hold
  EXPECT_GT(r.samples.back().transmitted, 220'000.0);
}

TEST(CcDriver, MultiplicityEqualsThatManySeparateFlows) {
  // three sources paced at 40 Gbit/s into 100 Gbit/s (the queue grows at 20 Gbit/s): one entry
  // of multiplicity 3 and three entries of one give the same aggregate curves.
  nc::driver_config c{.capacity = gbps(100), .feedback_delay = duration{8'000}};
  std::vector<nc::driver_flow<probe>> one(1), three(3);
  one[0].multiplicity = 3;
  one[0].cc.r = gbps(40);
  one[0].arrivals = burst(500'000);
  for (auto& x : three) x = one[0], x.multiplicity = 1;
  const auto a = nc::cc_driver<probe>(c, one).run(duration{300'000});
  const auto b = nc::cc_driver<probe>(c, three).run(duration{300'000});
  ASSERT_EQ(a.samples.size(), b.samples.size());
  for (std::size_t i = 0; i < a.samples.size(); ++i) {
    EXPECT_NEAR(a.samples[i].backlog, b.samples[i].backlog, 3 * 1460.0);
    EXPECT_NEAR(a.samples[i].departed, b.samples[i].departed, 3 * 1460.0);
  }
  EXPECT_NEAR(a.flows[0].finish, b.flows[2].finish, 200.0);
  EXPECT_GT(a.flows[0].finish, 500'000.0 * 3 / 12.5);  // 1.5 MB at 100 Gbit/s
}

// ------------------------------------------------------------------------ real controllers

TEST(CcDriver, DctcpHoldsTheQueueNearK) {
  // DCTCP over a step threshold K = 65 kB on 100 Gbit/s, dR = 20 us, two long flows: the queue
  // oscillates around K (DCTCP §3.3) and the link stays busy.
  nc::driver_config c{.capacity = gbps(100),
                      .feedback_delay = duration{20'000},
                      .ecn = true,
                      .k_min = bytes{65'000},
                      .k_max = bytes{65'000}};
  std::vector<nc::driver_flow<netcc::dctcp>> f(2);
  for (auto& x : f) {
    x.cc = netcc::dctcp{netcc::dctcp_params{.mss = bytes{1460}}};
    x.arrivals = saturated();
    x.line_rate = gbps(100);
  }
  const auto r = nc::cc_driver<netcc::dctcp>(c, f).run(duration{3'000'000});
  const double q = mean_backlog(r, 1'000'000, 3'000'000);
  EXPECT_GT(q, 20'000.0);
  EXPECT_LT(q, 130'000.0);
  EXPECT_GT(rate_gbps(r, 1'000'000, 3'000'000), 95.0);
  EXPECT_GT(r.flows[0].marks, 0u);
}

TEST(CcDriver, PowerTcpIncastKeepsTheLinkBusyWithABoundedQueue) {
  // 10 flows of 25 Gbit/s hosts each starting at one BDP (PowerTCP's cwnd_init) into 25 Gbit/s,
  // dR = 20 us, N = 10 expected flows. The first round trip queues about 560 kB; then
  // Algorithm 1's dequeue-time INT makes the windows oscillate for about 1 ms before they settle
  // (docs/calculus.md; the testbench shows the same, tests/testbench/
  // calculus_driver_compare_test.cpp).
  nc::driver_config c{.capacity = gbps(25), .feedback_delay = duration{20'000}};
  std::vector<nc::driver_flow<netcc::powertcp>> f(1);
  f[0].multiplicity = 10;
  f[0].cc = netcc::powertcp{netcc::powertcp_params{
      .host_rate = gbps(25), .base_rtt = duration{20'000}, .expected_flows = 10}};
  f[0].arrivals = saturated();
  f[0].line_rate = gbps(25);
  const auto r = nc::cc_driver<netcc::powertcp>(c, f).run(duration{1'000'000});
  double peak = 0, late_peak = 0;
  for (const auto& s : r.samples) {
    peak = std::max(peak, s.backlog);
    if (s.t > 500'000) late_peak = std::max(late_peak, s.backlog);
  }
  EXPECT_GT(peak, 500'000.0);  // 10 windows of 62.5 kB against one BDP of room
  // the windows are cut and regrow: the backlog stays below the first burst plus one window
  // per flow, and the link stays busy
  EXPECT_LT(late_peak, peak + 10 * 68'750.0);
  EXPECT_GT(rate_gbps(r, 500'000, 1'000'000), 24.5);
}

TEST(CcDriver, NetccVegasAgainstTheSeedsVegasModel) {
  // The §III-E scenario with one long burst: 4 MB at t = 0 over 100 Gbit/s, dR = 20 us. The
  // seed's Vegas (basic_path_server, Algorithm 3) and netcc's Vegas (control/vegas.hpp, through
  // the driver) both leave slow start within a few hundred us and then hold a few packets in the
  // server (alpha..beta = 2..4 packets); the bursts differ in detail (Algorithm 3 updates every
  // minRTT, netcc per round of snd_nxt).
  const double c_bpns = 12.5;
  nc::path_config<double> pc{.capacity = c_bpns, .feedback_delay = 20'000.0, .packet_size = 1460.0};
  nc::flow_config<double> mf;
  mf.arrivals = burst(4.0e6);
  mf.cc = nc::path_cc::vegas;
  const auto model = nc::basic_path_server<double>(pc, {mf}).run(800'000.0);
  ASSERT_EQ(model.status, nc::path_status::ok);

  nc::driver_config c{.capacity = gbps(100), .feedback_delay = duration{20'000}};
  std::vector<nc::driver_flow<netcc::vegas>> f(1);
  f[0].cc = netcc::vegas{netcc::vegas_params{.mss = bytes{1460}}};
  f[0].arrivals = burst(4.0e6);
  const auto r = nc::cc_driver<netcc::vegas>(c, f).run(duration{800'000});
  ASSERT_TRUE(r.error.empty());
  // both deliver the 4 MB well within the run, at a similar time (the driver's finish is the
  // last ACK, dR after the last departure)
  const double fin_driver = r.flows[0].finish;
  ASSERT_GT(fin_driver, 0.0);
  double fin_model = -1;
  for (double t = 0; t <= 800'000.0; t += 100.0) {
    if (model.departures.at(t).value() >= 4.0e6 - 1.0) {
      fin_model = t + 20'000.0;
      break;
    }
  }
  ASSERT_GT(fin_model, 0.0);
  EXPECT_LT(std::fabs(fin_driver - fin_model), 0.5 * fin_model);
  // both build their peak backlog in slow start and end with a few packets queued
  double peak_model = 0, peak_driver = 0;
  for (double t = 0; t <= 800'000.0; t += 1000.0) {
    peak_model = std::max(peak_model, model.backlog.at(t).value());
  }
  for (const auto& x : r.samples) peak_driver = std::max(peak_driver, x.backlog);
  EXPECT_GT(peak_model, 100'000.0);
  EXPECT_GT(peak_driver, 100'000.0);
  std::printf(
      "Vegas 4 MB: finish model %.1f us, driver %.1f us; peak backlog model %.0f B, driver %.0f "
      "B\n",
      fin_model / 1e3, fin_driver / 1e3, peak_model, peak_driver);
}

// ------------------------------------------------------------------------------------- laws

// A random scenario: 1-3 flows of a fixed window or rate (or both), random bursts, a random
// server with ECN, PFC and timeouts switched at random.
struct scenario {
  nc::driver_config cfg{};
  std::vector<nc::driver_flow<probe>> flows{};
};

rc::Gen<scenario> gen_scenario() {
  return rc::gen::exec([] {
    scenario s;
    s.cfg.capacity = gbps(*rc::gen::inRange<std::int64_t>(1, 101));
    s.cfg.feedback_delay = duration{*rc::gen::inRange<std::int64_t>(500, 20'000)};
    s.cfg.packet_size = bytes{*rc::gen::inRange<std::int64_t>(64, 9001)};
    s.cfg.sample_interval = duration{500};
    if (*rc::gen::arbitrary<bool>()) {
      s.cfg.ecn = true;
      s.cfg.k_min = bytes{*rc::gen::inRange<std::int64_t>(0, 100'000)};
      s.cfg.k_max = s.cfg.k_min + bytes{*rc::gen::inRange<std::int64_t>(1, 100'000)};
      s.cfg.p_max = *rc::gen::inRange(1, 101) / 100.0;
      s.cfg.cnp_interval = duration{*rc::gen::inRange<std::int64_t>(0, 50'000)};
    }
    if (*rc::gen::arbitrary<bool>()) {
      s.cfg.pfc = true;
      s.cfg.x_on = bytes{*rc::gen::inRange<std::int64_t>(0, 200'000)};
      s.cfg.x_off = s.cfg.x_on + bytes{*rc::gen::inRange<std::int64_t>(1, 50'000)};
    }
    if (*rc::gen::arbitrary<bool>()) {
      s.cfg.timeout = s.cfg.feedback_delay + duration{*rc::gen::inRange<std::int64_t>(1, 100'000)};
    }
    const int n = *rc::gen::inRange(1, 4);
    for (int j = 0; j < n; ++j) {
      nc::driver_flow<probe> f;
      std::vector<nc::sample<double>> pts;
      double t = 0, y = 0;
      const int bursts = *rc::gen::inRange(1, 4);
      for (int k = 0; k < bursts; ++k) {
        t += *rc::gen::inRange(0, 100'000);
        y += *rc::gen::inRange(1, 500'000);
        pts.push_back({t, y});
      }
      f.arrivals = nc::double_curve::from_samples(pts, nc::interpolation::step);
      if (*rc::gen::arbitrary<bool>()) f.cc.w = bytes{*rc::gen::inRange<std::int64_t>(1, 400'000)};
      if (*rc::gen::arbitrary<bool>()) f.cc.r = gbps(*rc::gen::inRange<std::int64_t>(1, 200));
      if (*rc::gen::arbitrary<bool>()) f.line_rate = gbps(*rc::gen::inRange<std::int64_t>(1, 200));
      f.multiplicity = static_cast<std::uint32_t>(*rc::gen::inRange(1, 4));
      s.flows.push_back(std::move(f));
    }
    return s;
  });
}

RC_GTEST_PROP(CcDriverLaws, DeparturesBelowAdmittedBelowArrivalsAndBacklogBalances, ()) {
  const scenario s = *gen_scenario();
  nc::cc_driver<probe> d(s.cfg, s.flows);
  const auto r = d.run(duration{400'000});
  RC_ASSERT(r.error.empty());
  RC_ASSERT(r.complete);
  for (std::size_t i = 0; i < r.samples.size(); ++i) {
    const auto& x = r.samples[i];
    RC_ASSERT(std::isfinite(x.backlog) && x.backlog >= 0.0);
    RC_ASSERT(std::fabs(x.backlog - (x.transmitted - x.departed - x.discarded)) <=
              1e-6 * (1 + x.transmitted));
    if (i > 0) RC_ASSERT(x.departed >= r.samples[i - 1].departed);
    // the server never serves faster than C
    if (i > 0) {
      const double dt = x.t - r.samples[i - 1].t;
      const double c = static_cast<double>(s.cfg.capacity.bps()) / 8e9;
      RC_ASSERT(x.departed - r.samples[i - 1].departed <= c * dt + 1e-6 * (1 + x.departed));
    }
    for (std::size_t j = 0; j < r.flows.size(); ++j) {
      const auto& f = r.flows[j].samples[i];
      const double a = s.flows[j].arrivals.right_limit(f.t).value();
      RC_ASSERT(f.acked <= f.departed + 1e-6);
      RC_ASSERT(f.departed <= f.admitted + 1e-6);
      RC_ASSERT(f.admitted <= a + 1e-6);
    }
  }
  // every ACK acknowledges new data, in order, with a finite RTT of at least dR
  for (std::size_t j = 0; j < r.flows.size(); ++j) {
    const auto& acks = d.controller(j).acks;
    for (std::size_t k = 0; k < acks.size(); ++k) {
      RC_ASSERT(acks[k].acked > bytes{0});
      RC_ASSERT(acks[k].rtt >= s.cfg.feedback_delay - duration{1});
      if (k > 0) RC_ASSERT(acks[k].now >= acks[k - 1].now);
    }
    RC_ASSERT(r.flows[j].acks == acks.size());
  }
}

RC_GTEST_PROP(CcDriverLaws, WithoutCongestionEveryBurstIsDeliveredAndAcknowledged, ()) {
  // no window, no rate limit, no timeout: every byte of A is acknowledged by
  // last burst + total / C + dR (+ one step)
  scenario s = *gen_scenario();
  s.cfg.timeout = duration{0};
  s.cfg.pfc = false;
  for (auto& f : s.flows) f.cc = probe{}, f.line_rate = bit_rate::max();
  double total = 0, last = 0;
  for (const auto& f : s.flows) {
    const auto& pts = f.arrivals.breakpoints();
    total += pts.back().right.value() * f.multiplicity;
    last = std::max(last, pts.back().t);
  }
  const double c = static_cast<double>(s.cfg.capacity.bps()) / 8e9;
  const double bound = last + total / c + static_cast<double>(s.cfg.feedback_delay.count()) +
                       2 * static_cast<double>(s.cfg.packet_size.count()) / c + 2;
  const auto r =
      nc::cc_driver<probe>(s.cfg, s.flows).run(duration{static_cast<std::int64_t>(bound) + 1000});
  for (std::size_t j = 0; j < s.flows.size(); ++j) {
    RC_ASSERT(r.flows[j].acked == s.flows[j].arrivals.breakpoints().back().right.value());
    RC_ASSERT(r.flows[j].finish > 0.0);
    RC_ASSERT(r.flows[j].finish <= bound);
  }
}

}  // namespace

}  // namespace netcc_tests::calculus_cc_driver
