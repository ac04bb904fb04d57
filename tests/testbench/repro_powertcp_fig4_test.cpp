// SPDX-License-Identifier: MIT
// Reproduction: PowerTCP NSDI'22 §4.2, Figure 4 (top row, 10:1 incast), on netcc-sim's built-in
// scenario "powertcp-fig4" (see docs/reproductions.md for the set-up, what differs from the
// paper, and the numbers beside the paper's).
//
// The paper's claims and how each is checked (margins stated in each assertion):
// - PowerTCP "quickly mitigates the incast and reaches near zero queue lengths without losing
//   throughput". Near zero: the mean queue during the incast, after the first 300 us, is below a
//   fifth of the peak and within twice the equilibrium queue of Theorem 1, q_e = beta_hat =
//   HostBw * tau (every flow's beta = HostBw * tau / N, N flows). Throughput: the receiver link
//   carries at least 97% of its 25 Gbps from 300 us after the incast to the end of the run
//   (which includes the end of the incast, when the long flow must take the freed bandwidth).
// - HPCC "gets back to near-zero queue lengths" but "loses throughput after mitigating the
//   incast": its mean queue during the incast is also below a fifth of its peak; its throughput
//   over the same interval is below PowerTCP's, and its lowest 20 us window below 80% of the
//   link.
// - theta-PowerTCP (§4.2, Figure 4b) reacts to the incast like PowerTCP: its peak is within 25%
//   of PowerTCP's and it keeps the link at 97% or more. The trade-off of §3.5 (slower to take
//   freed bandwidth) is measured as the shortfall below the line rate, integrated from incast +
//   1500 us to the end, and printed; it is not asserted (docs/reproductions.md says why).
// - TIMELY "does not control the queue-lengths either and loses throughput after reacting to
//   the incast": during the incast its mean queue stays above T_high * C (its own upper
//   threshold, 500 us) and above ten times PowerTCP's, and the receiver link carries less than
//   80% of its rate from 300 us after the incast on.
// DCQCN runs on the same scenario for the record (the paper's Figure 4 does not show it).
// Not reproduced and therefore not asserted (docs/reproductions.md says why): HPCC's peak
// buffer "approximately 2x" PowerTCP's, and theta-PowerTCP's queue settling like PowerTCP's.
#include <netcc/testbench/controllers.hpp>
#include <netcc/testbench/scenario.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

namespace netcc_tests::testbench_repro_powertcp_fig4 {

namespace tb = netcc::testbench;

namespace {

struct measured {
  double peak = 0;          // bytes
  double incast_queue = 0;  // mean queue over [incast + 300 us, incast + 1500 us], bytes
  double worst_gbps = 1e9;  // lowest 20 us window of bottleneck throughput after incast + 300 us
  double mean_gbps = 0;     // bottleneck throughput from incast + 300 us to the end
  double shortfall_kb = 0;  // unused link from incast + 1500 us to the end, kB
  double late_queue = 0;    // mean queue from incast + 1000 us to the end, bytes
};

measured measure(const tb::scenario& s, const std::string& cc, double line_gbps) {
  measured m;
  const auto c = tb::find_controller(cc);
  if (!c) {
    ADD_FAILURE() << "no controller " << cc;
    return m;
  }
  tb::series ts;
  const auto r = tb::run_scenario(s, *c, ts);
  m.peak = r.peak_queue;
  const double t0 = s.incast_at_us + 300, t1 = s.incast_at_us + 1500;
  double qsum = 0, n = 0, wsum = 0, wn = 0, wstart = -1, tsum = 0, tn = 0, lsum = 0, ln = 0;
  const double dt_us = static_cast<double>(s.sample_ns) / 1000.0;
  for (std::size_t i = 0; i < ts.t.size(); ++i) {
    const double t = static_cast<double>(ts.t[i].count()) / 1000.0;
    if (t >= t0 && t < t1) {
      qsum += ts.columns[0][i];
      ++n;
    }
    if (t >= s.incast_at_us + 1000) {
      lsum += ts.columns[0][i];
      ++ln;
    }
    if (t < t0) continue;
    tsum += ts.columns[1][i];
    ++tn;
    if (t >= t1) m.shortfall_kb += std::max(0.0, line_gbps - ts.columns[1][i]) * dt_us / 8;
    if (wstart < 0 || t >= wstart + 20) {  // close the 20 us window
      if (wn > 0 && t <= s.duration_us) m.worst_gbps = std::min(m.worst_gbps, wsum / wn);
      wstart = t;
      wsum = wn = 0;
    }
    wsum += ts.columns[1][i];
    ++wn;
  }
  m.incast_queue = n > 0 ? qsum / n : 0;
  m.mean_gbps = tn > 0 ? tsum / tn : 0;
  m.late_queue = ln > 0 ? lsum / ln : 0;
  std::printf(
      "%-15s peak %7.0f B, queue during incast %7.0f B, throughput %5.2f Gbps, worst "
      "20 us %5.2f Gbps, shortfall after the incast %6.1f kB, queue from incast + 1 ms %7.0f B\n",
      cc.c_str(), m.peak, m.incast_queue, m.mean_gbps, m.worst_gbps, m.shortfall_kb, m.late_queue);
  return m;
}

}  // namespace

TEST(ReproPowertcpFig4, TenToOneIncast) {
  const auto all = tb::builtin_scenarios();
  const auto it = all.find("powertcp-fig4");
  ASSERT_NE(it, all.end());
  const tb::scenario& s = it->second.second;
  ASSERT_EQ(tb::check(s), "");
  const double line_gbps = s.host_gbps;
  // Theorem 1's equilibrium queue with the runner's tau (its base RTT on the leaf-spine: four
  // links of 1 us each way, a 1500 B packet and a 64 B ACK serialised per link at 25 Gbps).
  const double tau_s = (8 * 1000 + 4 * (480 + 20.48)) * 1e-9;
  const double beta_hat = line_gbps * 1e9 / 8 * tau_s;

  const auto power = measure(s, "powertcp", line_gbps);
  const auto theta = measure(s, "theta-powertcp", line_gbps);
  const auto hpcc = measure(s, "hpcc", line_gbps);
  const auto timely = measure(s, "timely", line_gbps);
  (void)measure(s, "dcqcn", line_gbps);

  EXPECT_LT(power.incast_queue, 0.2 * power.peak);
  EXPECT_LT(power.incast_queue, 2 * beta_hat) << "beta_hat " << beta_hat;
  EXPECT_GT(power.mean_gbps, 0.97 * line_gbps);

  EXPECT_LT(hpcc.incast_queue, 0.2 * hpcc.peak);
  EXPECT_LT(hpcc.worst_gbps, 0.8 * line_gbps);
  EXPECT_LT(hpcc.mean_gbps, power.mean_gbps);

  // theta-PowerTCP reacts like PowerTCP: a peak within 25% of PowerTCP's and the link kept
  // busy. Its slower take-up of freed bandwidth is printed (shortfall), not asserted: its queue
  // does not settle at beta_hat here, and the standing queue it holds when the incast ends
  // feeds the link while its window grows (docs/reproductions.md).
  EXPECT_LT(theta.peak, 1.25 * power.peak);
  EXPECT_GT(theta.mean_gbps, 0.97 * line_gbps);

  // TIMELY does not control the queue: during the incast its mean queueing delay stays above
  // its own upper threshold T_high = 500 us, and its queue is over ten times PowerTCP's.
  const double t_high_bytes = line_gbps * 1e9 / 8 * 500e-6;
  EXPECT_GT(timely.incast_queue, t_high_bytes);
  EXPECT_GT(timely.incast_queue, 10 * power.incast_queue);
  EXPECT_LT(timely.mean_gbps, 0.8 * line_gbps);
}

// PowerTCP §4.2, Figure 4 bottom row: the 255:1 incast (built-in "powertcp-fig4-255": the
// long flow, and 254 responders with 2 MB in all at 500 us). Claims and checks:
// - PowerTCP "reacts quickly and converges to near-zero queue-lengths without losing
//   throughput": from 1 ms after the incast its mean queue is within twice beta_hat, and from
//   300 us after the incast the link carries 97% of its rate with no 20 us window below 80%.
// - HPCC and TIMELY "lose throughput immediately after reacting": HPCC's lowest 20 us window is
//   below 80% of the link and its mean below PowerTCP's; TIMELY carries less than 80%.
// - theta-PowerTCP converges to a near-zero queue too (asserted as for PowerTCP); its
//   throughput is printed, not asserted: it dips like HPCC's here (docs/reproductions.md).
TEST(ReproPowertcpFig4, TwoFiftyFiveToOneIncast) {
  const auto all = tb::builtin_scenarios();
  const auto it = all.find("powertcp-fig4-255");
  ASSERT_NE(it, all.end());
  const tb::scenario& s = it->second.second;
  ASSERT_EQ(tb::check(s), "");
  const double line_gbps = s.host_gbps;
  const double beta_hat = line_gbps * 1e9 / 8 * 10e-6;  // HostBw * tau, tau ~ 10 us
  const auto power = measure(s, "powertcp", line_gbps);
  const auto theta = measure(s, "theta-powertcp", line_gbps);
  const auto hpcc = measure(s, "hpcc", line_gbps);
  const auto timely = measure(s, "timely", line_gbps);
  (void)measure(s, "dcqcn", line_gbps);

  EXPECT_LT(power.late_queue, 2 * beta_hat);
  EXPECT_GT(power.mean_gbps, 0.97 * line_gbps);
  EXPECT_GT(power.worst_gbps, 0.8 * line_gbps);
  EXPECT_LT(theta.late_queue, 2 * beta_hat);

  EXPECT_LT(hpcc.worst_gbps, 0.8 * line_gbps);
  EXPECT_LT(hpcc.mean_gbps, power.mean_gbps);
  EXPECT_LT(timely.mean_gbps, 0.8 * line_gbps);
}

}  // namespace netcc_tests::testbench_repro_powertcp_fig4
