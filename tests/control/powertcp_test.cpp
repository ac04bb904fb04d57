// SPDX-License-Identifier: MIT
// PowerTCP with INT (NSDI'22 §3.3, Algorithm 1): hand-computed values per algorithm line, the
// decisions the paper leaves open, and properties: bounds, monotonicity, the gamma*beta step at
// normalised power 1, Theorem 2 (exponential approach, time constant dt/gamma), Theorem 3
// (beta-weighted fairness), and q32 against double.
#include <netcc/control/powertcp.hpp>
#include <netcc/core/int_wire.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <utility>
#include <vector>

#include "control/powertcp_branch_testing.hpp"

namespace netcc_tests::control_powertcp {

using namespace netcc::literals;

namespace {

using netcc::bit_rate;
using netcc::bytes;
using netcc::duration;
using netcc::int_hop;
using netcc::timestamp;

using q32_powertcp = netcc::basic_powertcp<netcc::arith::q32>;

int_hop hop(std::int64_t ts, std::int64_t qlen, std::uint64_t tx, bit_rate b) {
  return int_hop{
      .ts = static_cast<std::uint64_t>(ts), .qlen = bytes{qlen}, .tx_bytes = tx, .link_rate = b};
}

netcc::ack_event ack(std::int64_t now, netcc::sequence ack_seq, netcc::sequence snd_nxt,
                     std::initializer_list<int_hop> hops, duration rtt = duration::zero()) {
  netcc::ack_event a{.now = timestamp{now},
                     .ack_seq = ack_seq,
                     .snd_nxt = snd_nxt,
                     .acked = bytes{1000},
                     .rtt = rtt};
  for (const auto& h : hops) a.hops.push(h);
  return a;
}

template <class C>
double win(const C& c) {
  return netcc::to_double(c.window());
}
template <class C>
double power(const C& c) {
  return netcc::to_double(c.norm_power());
}

// 100 Gbps, tau = 10 us: BDP = 125000 B; N = 10: beta = 12500 B.
netcc::powertcp_params base_params() {
  return {.host_rate = 100_Gbps, .base_rtt = 10_us, .expected_flows = 10};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Parameters, defaults, validation

TEST(PowerTcp, PaperDefaults) {
  const netcc::powertcp_params p{};
  EXPECT_DOUBLE_EQ(p.gamma, 0.9);   // §3.3
  EXPECT_EQ(p.host_rate, 25_Gbps);  // §4.1 server NIC
  EXPECT_EQ(p.base_rtt, 28_us);     // §4.1 max RTT of the fat-tree
  EXPECT_EQ(p.tau_source, netcc::powertcp_tau::configured);
  EXPECT_TRUE(p.line_rate_first_rtt);
  EXPECT_TRUE(netcc::validate(p).ok());

  netcc::powertcp cc{base_params()};
  // beta = HostBw * tau / N = 100e9 * 10e-6 / 8 / 10 = 12500 B
  EXPECT_DOUBLE_EQ(netcc::to_double(cc.beta()), 12500.0);
  // cwnd_init = HostBw * tau = 125000 B
  EXPECT_EQ(cc.cwnd(), 125000_B);
  EXPECT_EQ(cc.tau(), 10_us);
  EXPECT_TRUE(cc.in_first_rtt());
  EXPECT_EQ(cc.pacing_rate(), 100_Gbps);  // line rate in the first RTT

  netcc::powertcp d{};  // all defaults: 25 Gbps * 28 us = 87500 B, beta = 87500 / 1
  EXPECT_EQ(d.cwnd(), 87500_B);
  EXPECT_DOUBLE_EQ(netcc::to_double(d.beta()), 87500.0);
}

TEST(PowerTcp, ExplicitBetaAndInitialWindow) {
  auto p = base_params();
  p.beta = 3000_B;
  p.cwnd_init = 40000_B;
  netcc::powertcp cc{p};
  EXPECT_DOUBLE_EQ(netcc::to_double(cc.beta()), 3000.0);
  EXPECT_EQ(cc.cwnd(), 40000_B);
  EXPECT_EQ(cc.params().beta, 3000_B);
}

TEST(PowerTcp, ValidateNamesEveryBadField) {
  netcc::powertcp_params p{.gamma = 1.5,
                           .host_rate = 0_bps,
                           .base_rtt = 0_ns,
                           .expected_flows = 0,
                           .beta = bytes{-1},
                           .cwnd_init = bytes{-5},
                           .min_cwnd = 0_B,
                           .max_cwnd = bytes{0x8000'0000LL},
                           .min_rate = bit_rate{-1},
                           .max_rate = bit_rate{-2},
                           .tau_source = static_cast<netcc::powertcp_tau>(7)};
  const auto v = netcc::validate(p);
  for (const char* f : {"gamma", "host_rate", "base_rtt", "expected_flows", "beta", "cwnd_init",
                        "min_cwnd", "max_cwnd", "min_rate", "max_rate", "tau_source"})
    EXPECT_TRUE(v.names(std::string("powertcp.") + f)) << f;
  EXPECT_EQ(v[0].message(), "powertcp.gamma = 1.5: must be in (0, 1]");

  netcc::powertcp_params q = base_params();
  q.min_cwnd = 5000_B;
  q.max_cwnd = 4000_B;
  q.cwnd_init = 100_B;
  q.min_rate = 200_Gbps;  // above host_rate, the effective max_rate
  const auto w = netcc::validate(q);
  EXPECT_TRUE(w.names("powertcp.max_cwnd"));
  EXPECT_TRUE(w.names("powertcp.cwnd_init"));
  EXPECT_TRUE(w.names("powertcp.max_rate"));
  EXPECT_FALSE(w.names("powertcp.gamma"));
  EXPECT_TRUE(netcc::validate(netcc::powertcp_params{.gamma = 1.0}).ok());
  EXPECT_FALSE(netcc::validate(netcc::powertcp_params{.gamma = std::nan("")}).ok());
}

TEST(PowerTcp, InvalidParamsFallBackAndStayBounded) {
  netcc::powertcp_params p{.gamma = -1,
                           .host_rate = bit_rate{-5},
                           .base_rtt = duration{-3},
                           .expected_flows = -2,
                           .min_cwnd = bytes{-1},
                           .max_cwnd = bytes{10}};
  netcc::powertcp cc{p};
  const auto q = cc.params();
  EXPECT_DOUBLE_EQ(q.gamma, 0.9);
  EXPECT_EQ(q.host_rate, 25_Gbps);
  EXPECT_EQ(q.base_rtt, 28_us);
  EXPECT_EQ(q.expected_flows, 1);
  EXPECT_EQ(q.min_cwnd, 1500_B);
  EXPECT_EQ(q.max_cwnd, 1500_B);  // raised to min_cwnd
  EXPECT_TRUE(netcc::validate(q).ok());
  EXPECT_EQ(cc.cwnd(), 1500_B);
}

// ---------------------------------------------------------------------------------------------
// Algorithm 1, line by line

TEST(PowerTcp, FirstAckStoresRecordsAndDoesNotUpdate) {
  netcc::powertcp cc{base_params()};
  cc.on_ack(ack(1000, 1000, 126000, {hop(0, 10000, 0, 100_Gbps), hop(5, 0, 7, 40_Gbps)}));
  EXPECT_EQ(cc.signal().hops(), 2u);
  EXPECT_EQ(cc.cwnd(), 125000_B);    // cwnd_init unchanged
  EXPECT_DOUBLE_EQ(power(cc), 0.0);  // no sample yet
  EXPECT_TRUE(cc.in_first_rtt());
  EXPECT_EQ(cc.pacing_rate(), 100_Gbps);
}

TEST(PowerTcp, HandComputedNormPowerSmoothingAndWindow) {
  netcc::powertcp cc{base_params()};
  // ACK 1: prevInt = {ts 0, qlen 10000 B, tx 0}.
  cc.on_ack(ack(20'000, 1000, 126000, {hop(0, 10000, 0, 100_Gbps)}));
  // ACK 2, dt = 1000 ns (line 11):
  //  line 12: qdot = (12500 - 10000) B / 1 us = 2500 B/us = 20 Gbps
  //  line 13: mu = 12500 B / 1 us = 100 Gbps;  line 14: lambda = 120 Gbps
  //  lines 15-16: BDP = 100 Gbps * 10 us = 125000 B, v = 12500 + 125000 = 137500 B
  //  lines 17-19: Gamma'/e = lambda*v / (b^2 tau) = (120/100) * (137500/125000) = 1.2 * 1.1 = 1.32
  //  line 23: first sample -> Gamma_smooth = 1.32
  //  line 3: cwnd_old = cwnd_init = 125000 (data sent before the first ACK)
  //  line 27: cwnd = 0.9 * (125000/1.32 + 12500) + 0.1 * 125000
  //               = 0.9 * (94696.969697 + 12500) + 12500 = 108977.272727
  cc.on_ack(ack(21'000, 2000, 126000, {hop(1000, 12500, 12500, 100_Gbps)}));
  EXPECT_NEAR(power(cc), 1.32, 1e-12);
  EXPECT_NEAR(win(cc), 108977.272727, 1e-5);
  EXPECT_EQ(cc.cwnd(), 108977_B);
  EXPECT_FALSE(cc.in_first_rtt());
  // line 6: rate = cwnd / tau = 108977 B * 8 / 10 us = 87.1816 Gbps
  EXPECT_EQ(cc.pacing_rate(), bit_rate{87'181'600'000});

  // ACK 3, dt = 1000 ns: qdot = 0, mu = 100 Gbps -> lambda/b = 1; v/BDP = 1.1 -> 1.1
  //  line 23: Gamma_smooth = (1.32 * (10000 - 1000) + 1.1 * 1000) / 10000 = 1.298
  //  line 27: cwnd_old still 125000 (ack_seq below the snd_nxt recorded at ACK 1)
  //  cwnd = 0.9 * (125000/1.298 + 12500) + 0.1 * 108977.272727
  //       = 0.9 * (96302.003082 + 12500) + 10897.727273 = 108819.530047
  cc.on_ack(ack(22'000, 3000, 127000, {hop(2000, 12500, 25000, 100_Gbps)}));
  EXPECT_NEAR(power(cc), 1.298, 1e-12);
  EXPECT_NEAR(win(cc), 108819.530047, 1e-5);
}

TEST(PowerTcp, MostCongestedHopAndItsDtAreUsed) {
  netcc::powertcp cc{base_params()};
  cc.on_ack(ack(0, 1, 1'000'000, {hop(0, 0, 0, 100_Gbps), hop(0, 0, 0, 25_Gbps)}));
  // Hop 0: dt = 1000, 6250 B sent -> 50 Gbps of 100: 0.5 * 1 = 0.5.
  // Hop 1: dt = 5000, qlen 31250 (= 1 BDP of 25 Gbps * 10 us), 15625 B sent -> mu = 25 Gbps,
  //  qdot = 31250 B / 5 us = 50 Gbps: lambda/b = 75/25 = 3; v/BDP = (31250+31250)/31250 = 2: 6.
  // First sample: Gamma_smooth = 6 (hop 1).
  cc.on_ack(ack(1, 2, 1'000'000, {hop(1000, 0, 6250, 100_Gbps), hop(5000, 31250, 15625, 25_Gbps)}));
  EXPECT_NEAR(power(cc), 6.0, 1e-12);
  // Next: hop 0 (dt 1000): 12500 B -> 100 Gbps, q = 0: 1. Hop 1 (dt 2000): queue steady,
  //  mu = 6250 B / 2 us = 25 Gbps: 1 * 2 = 2 -> hop 1 again, Delta t = 2000:
  //  Gamma_smooth = 6 + (2000/10000) * (2 - 6) = 5.2 (the dt of hop 0 would give 5.6).
  cc.on_ack(
      ack(2, 3, 1'000'000, {hop(2000, 0, 18750, 100_Gbps), hop(7000, 31250, 21875, 25_Gbps)}));
  EXPECT_NEAR(power(cc), 5.2, 1e-12);
}

TEST(PowerTcp, IdlePathStillSetsDeltaT) {
  netcc::powertcp cc{base_params()};
  cc.on_ack(ack(0, 1, 1'000'000, {hop(0, 0, 0, 100_Gbps)}));
  cc.on_ack(ack(1, 2, 1'000'000, {hop(1000, 0, 12500, 100_Gbps)}));  // power 1
  // Idle: no bytes, no queue: power 0 with dt = 5000 -> 1 + 0.5 * (0 - 1) = 0.5.
  cc.on_ack(ack(2, 3, 1'000'000, {hop(6000, 0, 12500, 100_Gbps)}));
  EXPECT_NEAR(power(cc), 0.5, 1e-12);
}

TEST(PowerTcp, ZeroAndNegativeDtKeepTheEstimate) {
  netcc::powertcp cc{base_params()};
  cc.on_ack(ack(0, 1, 1'000'000, {hop(1000, 0, 0, 100_Gbps)}));
  cc.on_ack(ack(1, 2, 1'000'000, {hop(2000, 0, 12500, 100_Gbps)}));  // power 1
  const double w = win(cc), p = power(cc);
  // Duplicate (dt = 0): no division, no change; the stored record stays.
  cc.on_ack(ack(2, 2, 1'000'000, {hop(2000, 99999, 999999, 100_Gbps)}));
  EXPECT_EQ(win(cc), w);
  EXPECT_EQ(power(cc), p);
  // Reordered (dt < 0): no sample; the older record replaces the stored one.
  cc.on_ack(ack(3, 2, 1'000'000, {hop(1500, 0, 6250, 100_Gbps)}));
  EXPECT_EQ(win(cc), w);
  EXPECT_EQ(power(cc), p);
  // Next in-order ACK measures against the older record: dt = 3000 - 1500, bytes 25000 - 6250
  // = 18750 -> 100 Gbps, power 1 again; the window moves (one update at power 1).
  cc.on_ack(ack(4, 3, 1'000'000, {hop(3000, 0, 25000, 100_Gbps)}));
  EXPECT_NEAR(power(cc), 1.0, 1e-12);
  EXPECT_NE(win(cc), w);
}

TEST(PowerTcp, PathChangeResetsHistory) {
  netcc::powertcp cc{base_params()};
  cc.on_ack(ack(0, 1, 1'000'000, {hop(0, 0, 0, 100_Gbps)}));
  cc.on_ack(ack(1, 2, 1'000'000, {hop(1000, 0, 12500, 100_Gbps)}));  // power 1
  const double w = win(cc);
  // Hop count changes: no sample (the new second hop has no history), window untouched.
  cc.on_ack(ack(2, 3, 1'000'000, {hop(2000, 0, 25000, 100_Gbps), hop(0, 500000, 0, 10_Gbps)}));
  EXPECT_EQ(cc.signal().hops(), 2u);
  EXPECT_EQ(win(cc), w);
  EXPECT_NEAR(power(cc), 1.0, 1e-12);
  // Link rate of hop 0 changes (a different switch): reset again, no sample.
  cc.on_ack(ack(3, 4, 1'000'000, {hop(3000, 0, 37500, 40_Gbps), hop(1000, 500000, 1250, 10_Gbps)}));
  EXPECT_EQ(win(cc), w);
  // Same path now: samples are taken against the records of the previous ACK only.
  // Hop 0: 5000 B in 1 us at 40 Gbps -> 1; hop 1: 1250 B in 1 us at 10 Gbps -> 1, with
  // v = (500000 + 12500)/12500 = 41 -> 41.
  cc.on_ack(ack(4, 5, 1'000'000, {hop(4000, 0, 42500, 40_Gbps), hop(2000, 500000, 2500, 10_Gbps)}));
  EXPECT_NEAR(power(cc), 1.0 + 0.1 * (41.0 - 1.0), 1e-9);
  // More hops than the signal holds: history forgotten, no sample.
  netcc::basic_powertcp<netcc::arith::ieee_double, netcc::int_power<netcc::int_stack<1>>> one{
      base_params()};
  netcc::basic_ack_event<netcc::int_stack<1>> a{.ack_seq = 1, .snd_nxt = 10};
  a.hops.push(hop(0, 0, 0, 100_Gbps));
  one.on_ack(a);
  EXPECT_EQ(one.signal().hops(), 1u);
  a.hops.count = 2;  // a stack claiming more hops than it holds reads as its capacity
  EXPECT_EQ(a.hops.size(), 1u);
}

TEST(PowerTcp, ZeroLinkRateHopIsSkipped) {
  netcc::powertcp cc{base_params()};
  cc.on_ack(ack(0, 1, 1'000'000, {hop(0, 0, 0, 0_bps), hop(0, 0, 0, 100_Gbps)}));
  cc.on_ack(ack(1, 2, 1'000'000, {hop(1000, 900, 500, 0_bps), hop(1000, 0, 12500, 100_Gbps)}));
  EXPECT_NEAR(power(cc), 1.0, 1e-12);
  netcc::powertcp only_zero{base_params()};
  only_zero.on_ack(ack(0, 1, 1'000'000, {hop(0, 0, 0, 0_bps)}));
  only_zero.on_ack(ack(1, 2, 1'000'000, {hop(1000, 900, 500, 0_bps)}));
  EXPECT_EQ(only_zero.cwnd(), 125000_B);
  EXPECT_TRUE(only_zero.in_first_rtt());
}

// Wrapped 24-bit timestamps and 20-bit tx counters (HPCC wire format): the sample across the
// wrap equals the same sample away from the wrap.
template <class Policy>
void wrapped_counters_case() {
  using fmt = netcc::hpcc_int_format;
  using cc_t = netcc::basic_powertcp<Policy, netcc::int_power<fmt::stack>>;
  auto run = [](std::uint64_t t0, std::uint64_t tx0) {
    cc_t cc{base_params()};
    const std::int64_t qs[] = {8000, 16000, 4000, 0, 40000};
    std::uint64_t tx = tx0;
    timestamp t{static_cast<std::int64_t>(t0)};
    std::vector<double> out;
    for (int k = 0; k < 5; ++k) {
      netcc::basic_ack_event<fmt::stack> a{.now = t, .ack_seq = 10u + k, .snd_nxt = 1'000'000};
      a.hops.push(fmt::make_hop(t, bytes{qs[k]}, tx, 100_Gbps));
      // the hop's INT survives an encode/decode round trip
      std::array<std::uint8_t, fmt::max_encoded_size> buf{};
      const auto n = fmt::encode(a.hops, buf);
      a.hops = fmt::decode(std::span<const std::uint8_t>(buf.data(), n)).hops;
      cc.on_ack(a);
      out.push_back(netcc::to_double(cc.window()));
      out.push_back(netcc::to_double(cc.norm_power()));
      t += 1500_ns;
      tx += 15000 + 128 * static_cast<std::uint64_t>(k);
    }
    return out;
  };
  // Both starts are whole 128-B units, so the wire quantises every delta the same way.
  const auto plain = run(1'000'000, 7813 * 128);
  // Start 2000 ns before the 24-bit timestamp wraps and 156 units (19968 B) before the 20-bit
  // counter of 128-B units (2^20 * 128 B) wraps: both wrap inside the sequence.
  const auto wrapped = run((1u << 24) - 2000, (std::uint64_t{1} << 20) * 128 - 156 * 128);
  ASSERT_EQ(plain.size(), wrapped.size());
  for (std::size_t i = 0; i < plain.size(); ++i) EXPECT_EQ(plain[i], wrapped[i]) << i;
  EXPECT_GT(plain[3], 0.0);  // samples were taken
}

TEST(PowerTcp, WrappedCountersDouble) {
  wrapped_counters_case<netcc::arith::ieee_double>();
}
TEST(PowerTcp, WrappedCountersQ32) {
  wrapped_counters_case<netcc::arith::q32>();
}

TEST(PowerTcp, NearZeroPowerGivesBoundedIncrease) {
  auto p = base_params();
  p.cwnd_init = 20000_B;
  netcc::powertcp cc{p};
  EXPECT_EQ(cc.last_branch(), netcc::powertcp_branch::none);
  cc.on_ack(ack(0, 1, 1'000'000, {hop(0, 0, 0, 100_Gbps)}));
  EXPECT_EQ(cc.last_branch(), netcc::powertcp_branch::hold);  // no power sample yet
  // 1 byte in 10 us at 100 Gbps: power 8e-6. Unbounded, cwnd_old/power = 2.5e9 B; the cap is
  // HostBw * tau = 125000 B: cwnd = 0.9 * (125000 + 12500) + 0.1 * 20000 = 125750.
  cc.on_ack(ack(1, 2, 1'000'000, {hop(10000, 0, 1, 100_Gbps)}));
  EXPECT_NEAR(power(cc), 8e-6, 1e-12);
  EXPECT_NEAR(win(cc), 125750.0, 1e-6);
  EXPECT_EQ(cc.last_branch(), netcc::powertcp_branch::update_capped);
  // Exactly zero power (idle link): the same bound, no division.
  netcc::powertcp z{p};
  z.on_ack(ack(0, 1, 1'000'000, {hop(0, 0, 0, 100_Gbps)}));
  z.on_ack(ack(1, 2, 1'000'000, {hop(20000, 0, 0, 100_Gbps)}));
  EXPECT_EQ(power(z), 0.0);
  EXPECT_NEAR(win(z), 125750.0, 1e-6);
  // Negative current (counter noise: queue drops more than was sent) is taken as zero.
  netcc::powertcp n{p};
  n.on_ack(ack(0, 1, 1'000'000, {hop(0, 50000, 0, 100_Gbps)}));
  n.on_ack(ack(1, 2, 1'000'000, {hop(1000, 0, 100, 100_Gbps)}));
  EXPECT_EQ(power(n), 0.0);
  EXPECT_NEAR(win(n), 125750.0, 1e-6);
}

TEST(PowerTcp, WindowAndRateLimits) {
  auto p = base_params();
  p.min_cwnd = 10000_B;
  p.max_cwnd = 60000_B;
  p.min_rate = 20_Gbps;
  p.max_rate = 40_Gbps;
  p.beta = 100_B;
  netcc::powertcp cc{p};
  EXPECT_EQ(cc.cwnd(), 60000_B);         // cwnd_init 125000 clamped to max
  EXPECT_EQ(cc.pacing_rate(), 40_Gbps);  // line rate 100 Gbps clamped to max_rate
  cc.on_ack(ack(0, 1, 1'000'000, {hop(0, 0, 0, 100_Gbps)}));
  // Huge queue: power = 1 * (10 MB + BDP) / BDP = 81 -> the window heads for
  // cwnd_old / 81 + beta = 60000 / 81 + 100 = 840 B and stops at min_cwnd.
  for (int k = 1; k <= 50; ++k)
    cc.on_ack(ack(k, 2, 1'000'000, {hop(1000 * k, 10'000'000, 12500u * k, 100_Gbps)}));
  EXPECT_EQ(cc.cwnd(), 10000_B);
  EXPECT_EQ(cc.pacing_rate(), 20_Gbps);  // 10000 B / 10 us = 8 Gbps, raised to min_rate
  // Idle path: the smoothed power decays to 0 -> window rises to max_cwnd.
  for (int k = 51; k <= 200; ++k)
    cc.on_ack(ack(k, 2, 1'000'000, {hop(1000 * k, 0, 12500u * 50, 100_Gbps)}));
  EXPECT_EQ(cc.cwnd(), 60000_B);
  EXPECT_EQ(cc.pacing_rate(), 40_Gbps);  // 60000 B / 10 us = 48 Gbps, capped
}

TEST(PowerTcp, PacingIsCwndOverTauAfterTheFirstRtt) {
  auto p = base_params();
  p.line_rate_first_rtt = false;
  p.cwnd_init = 50000_B;
  netcc::powertcp cc{p};
  EXPECT_EQ(cc.pacing_rate(), 40_Gbps);  // 50000 B / 10 us, no line-rate start
  auto q = base_params();
  q.cwnd_init = 50000_B;
  netcc::powertcp lr{q};
  EXPECT_EQ(lr.pacing_rate(), 100_Gbps);  // line rate in the first RTT
  lr.on_ack(ack(0, 1, 1'000'000, {hop(0, 0, 0, 100_Gbps)}));
  EXPECT_EQ(lr.pacing_rate(), 100_Gbps);  // first ACK: no update yet
  lr.on_ack(ack(1, 2, 1'000'000, {hop(1000, 0, 12500, 100_Gbps)}));
  // power 1: cwnd = 0.9 * (50000 + 12500) + 0.1 * 50000 = 61250 -> 61250 B / 10 us = 49 Gbps
  EXPECT_EQ(lr.cwnd(), 61250_B);
  EXPECT_EQ(lr.pacing_rate(), 49_Gbps);
}

// Issue 16: with min_rate = 0 (the default) a 1-byte window over tau = 2^62 ns paced at
// 8e9 / 2^62 bps, rounded to 0 bps, though the window is open: the rate is floored at 1 bps.
template <class C, class P>
void pacing_floor_case() {
  P p{.base_rtt = duration{std::int64_t{1} << 62},
      .cwnd_init = 1_B,
      .min_cwnd = 1_B,
      .max_cwnd = 1_B,
      .line_rate_first_rtt = false};
  C cc{p};
  EXPECT_EQ(cc.cwnd(), 1_B);
  EXPECT_EQ(cc.pacing_rate(), netcc::min_pacing_rate);
}
TEST(PowerTcp, PacingRateNeverZeroWhileTheWindowIsOpen) {
  pacing_floor_case<netcc::powertcp, netcc::powertcp_params>();
  pacing_floor_case<q32_powertcp, netcc::powertcp_params>();
  pacing_floor_case<netcc::theta_powertcp, netcc::theta_powertcp_params>();
}

// GETCWND / UPDATEOLD (lines 3 and 7): the old window is the one remembered once per RTT.
TEST(PowerTcp, OldWindowIsRememberedOncePerRtt) {
  auto p = base_params();
  p.cwnd_init = 50000_B;
  p.gamma = 0.5;
  netcc::powertcp cc{p};
  auto at_power_1 = [&](std::int64_t k, netcc::sequence a, netcc::sequence nxt) {
    cc.on_ack(ack(k, a, nxt, {hop(1000 * k, 0, 12500u * static_cast<std::uint64_t>(k), 100_Gbps)}));
  };
  // ACK 0 (first): UPDATEOLD records 50000 from snd_nxt = 100000 on.
  at_power_1(0, 1000, 100'000);
  // ACKs within the round (ack_seq < 100000): cwnd_old = 50000 each time, power 1:
  //  w1 = 0.5 * (50000 + 12500) + 0.5 * 50000 = 56250
  //  w2 = 0.5 * (50000 + 12500) + 0.5 * 56250 = 59375
  at_power_1(1, 2000, 101'000);
  EXPECT_NEAR(win(cc), 56250.0, 1e-9);
  at_power_1(2, 3000, 102'000);
  EXPECT_NEAR(win(cc), 59375.0, 1e-9);
  // ACK reaching 100000: new round. GETCWND(99999) still gives 50000 (sent before the mark):
  //  w3 = 0.5 * 62500 + 0.5 * 59375 = 60937.5; then UPDATEOLD records 60937.5 from 200000.
  at_power_1(3, 100'000, 200'000);
  EXPECT_NEAR(win(cc), 60937.5, 1e-9);
  // ACK for data sent after 102000 but before 200000: still the window recorded at ACK 0?
  // No: the history has (99999: 50000), (100000: 50000), (200000: 60937.5); 150000 maps to
  // the entry at 100000 = 50000.  w4 = 31250 + 30468.75 = 61718.75
  at_power_1(4, 150'001, 210'000);
  EXPECT_NEAR(win(cc), 61718.75, 1e-9);
  // ACK past 200000: cwnd_old = 60937.5 (the window recorded once per RTT).
  //  w5 = 0.5 * (60937.5 + 12500) + 0.5 * 61718.75 = 36718.75 + 30859.375 = 67578.125
  at_power_1(5, 200'001, 300'000);
  EXPECT_NEAR(win(cc), 67578.125, 1e-9);
}

TEST(PowerTcp, TauConfiguredOrTrackedAsMinimumRtt) {
  auto p = base_params();
  netcc::powertcp fixed{p};
  fixed.on_ack(ack(0, 1, 10, {hop(0, 0, 0, 100_Gbps)}, 7_us));
  EXPECT_EQ(fixed.tau(), 10_us);  // configured: RTT samples ignored

  p.tau_source = netcc::powertcp_tau::min_rtt;
  netcc::powertcp cc{p};
  EXPECT_EQ(cc.tau(), 10_us);  // base_rtt until the first sample
  cc.on_ack(ack(0, 1, 10, {hop(0, 0, 0, 100_Gbps)}, 12_us));
  EXPECT_EQ(cc.tau(), 12_us);  // the first sample replaces the configured guess
  // beta = 100 Gbps * 12 us / 10 = 15000 B
  EXPECT_DOUBLE_EQ(netcc::to_double(cc.beta()), 15000.0);
  cc.on_ack(ack(1, 2, 10, {hop(1, 0, 0, 100_Gbps)}, 8_us));
  EXPECT_EQ(cc.tau(), 8_us);
  cc.on_ack(ack(2, 3, 10, {hop(2, 0, 0, 100_Gbps)}, 9_us));
  EXPECT_EQ(cc.tau(), 8_us);
  cc.on_ack(ack(3, 4, 10, {hop(3, 0, 0, 100_Gbps)}, 0_us));  // no sample
  EXPECT_EQ(cc.tau(), 8_us);
  EXPECT_DOUBLE_EQ(netcc::to_double(cc.beta()), 10000.0);
  // Pacing uses the tracked tau: cwnd_init 125000 stays (no sample -> no update), line rate off
  p.line_rate_first_rtt = false;
  netcc::powertcp r{p};
  r.on_ack(ack(0, 1, 10, {hop(0, 0, 0, 100_Gbps)}, 20_us));
  EXPECT_EQ(r.pacing_rate(), 50_Gbps);  // 125000 B / 20 us
}

// ---------------------------------------------------------------------------------------------
// Properties

namespace {

struct hop_gen {
  std::int64_t dts, qlen;
  std::uint64_t dtx;
  std::int64_t rate_gbps;
};

// A random ACK stream with anything in it: wrap-around counters, zero/negative dt, hop-count
// and rate changes, zero rates, duplicate and reordered sequence numbers, RTT samples.
template <class C>
void feed_random(C& cc, std::uint64_t seed, int n) {
  std::uint64_t x = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  auto next = [&x] {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
  };
  std::uint64_t ts[4] = {next(), next(), next(), next()};
  std::uint64_t tx[4] = {next(), next(), next(), next()};
  netcc::sequence s = next();
  for (int k = 0; k < n; ++k) {
    netcc::ack_event a;
    a.now = timestamp{static_cast<std::int64_t>(next() % 1'000'000'000)};
    s += next() % 3 == 0 ? 0 : next() % 100'000;
    a.ack_seq = next() % 7 == 0 ? s - next() % 50'000 : s;
    a.snd_nxt = s + next() % 300'000;
    a.rtt = duration{static_cast<std::int64_t>(next() % 100'000) - 1000};
    const std::size_t hops = next() % 5 == 0 ? next() % 5 : 2;
    for (std::size_t i = 0; i < hops; ++i) {
      const std::uint64_t r = next();
      switch (r % 5) {
        case 0:
          ts[i % 4] = next();
          break;  // anything
        case 1:
          break;  // dt = 0
        case 2:
          ts[i % 4] -= next() % 5000;
          break;  // negative dt
        default:
          ts[i % 4] += next() % 20'000;
          break;  // normal
      }
      tx[i % 4] += r % 3 == 0 ? next() : next() % 300'000;
      const std::int64_t gb[] = {0, 10, 25, 100, 400};
      a.hops.push(hop(static_cast<std::int64_t>(ts[i % 4]),
                      static_cast<std::int64_t>(next() % 4 == 0 ? next() : next() % 2'000'000),
                      tx[i % 4], bit_rate{gb[next() % 5] * 1'000'000'000}));
    }
    cc.on_ack(a);
  }
}

}  // namespace

RC_GTEST_PROP(PowerTcp, OutputsFiniteAndWithinLimitsForAnyFeedback,
              (std::uint64_t seed, bool q32)) {
  const auto min_w = *rc::gen::inRange<std::int64_t>(1, 100'000);
  const auto max_w = min_w + *rc::gen::inRange<std::int64_t>(0, 10'000'000);
  const auto min_r = *rc::gen::inRange<std::int64_t>(0, 50'000'000'000);
  const auto max_r = min_r + *rc::gen::inRange<std::int64_t>(0, 400'000'000'000);
  netcc::powertcp_params p{
      .gamma = *rc::gen::inRange(1, 1001) / 1000.0,
      .host_rate = bit_rate{*rc::gen::inRange<std::int64_t>(1, 800) * 1'000'000'000},
      .base_rtt = duration{*rc::gen::inRange<std::int64_t>(1, 1'000'000)},
      .expected_flows = *rc::gen::inRange<std::int64_t>(1, 1000),
      .min_cwnd = bytes{min_w},
      .max_cwnd = bytes{max_w},
      .min_rate = bit_rate{min_r},
      .max_rate = bit_rate{max_r},
      .tau_source =
          *rc::gen::element(netcc::powertcp_tau::configured, netcc::powertcp_tau::min_rtt)};
  RC_PRE(netcc::validate(p).ok());
  auto check = [&](const auto& cc) {
    RC_ASSERT(std::isfinite(netcc::to_double(cc.window())));
    RC_ASSERT(cc.cwnd() >= p.min_cwnd);
    RC_ASSERT(cc.cwnd() <= p.max_cwnd);
    RC_ASSERT(cc.pacing_rate() >= p.min_rate);
    RC_ASSERT(cc.pacing_rate() <= (p.max_rate > bit_rate::zero() ? p.max_rate : p.host_rate));
  };
  for (int n : {1, 5, 60}) {
    if (q32) {
      q32_powertcp cc{p};
      feed_random(cc, seed, n);
      check(cc);
    } else {
      netcc::powertcp cc{p};
      feed_random(cc, seed, n);
      check(cc);
    }
  }
}

// A well-formed path: every hop's timestamp advances by the same dt (so the bottleneck choice
// does not change which Delta t is used), counters advance, queues anywhere.
template <class Policy>
void monotonicity_case() {
  using cc_t = netcc::basic_powertcp<Policy>;
  const auto hops = *rc::gen::inRange<std::size_t>(1, 6);
  const auto steps = *rc::gen::inRange(1, 12);
  netcc::powertcp_params p = base_params();
  p.gamma = *rc::gen::inRange(1, 101) / 100.0;
  cc_t cc{p};
  std::vector<std::uint64_t> tx(hops, 0);
  std::vector<std::int64_t> rate(hops);
  for (auto& r : rate) r = *rc::gen::element<std::int64_t>(10, 25, 40, 100);
  std::int64_t t = 0;
  netcc::sequence s = 1;
  auto make = [&](const std::vector<std::int64_t>& q, const std::vector<std::uint64_t>& txv) {
    netcc::ack_event a{.now = timestamp{t}, .ack_seq = s, .snd_nxt = s + 100'000};
    for (std::size_t i = 0; i < hops; ++i)
      a.hops.push(hop(t, q[i], txv[i], bit_rate{rate[i] * 1'000'000'000}));
    return a;
  };
  for (int k = 0; k < steps; ++k) {
    std::vector<std::int64_t> q(hops);
    for (std::size_t i = 0; i < hops; ++i) {
      q[i] = *rc::gen::inRange<std::int64_t>(0, 3'000'000);
      tx[i] += *rc::gen::inRange<std::uint64_t>(0, 200'000);
    }
    cc.on_ack(make(q, tx));
    t += *rc::gen::inRange<std::int64_t>(1, 30'000);
    s += *rc::gen::inRange<std::uint64_t>(0, 60'000);
  }
  // The same state, one more ACK: a smaller and a larger bottleneck queue or tx count.
  const std::size_t b = *rc::gen::inRange<std::size_t>(0, hops);
  std::vector<std::int64_t> q(hops);
  std::vector<std::uint64_t> txv = tx;
  for (std::size_t i = 0; i < hops; ++i) {
    q[i] = *rc::gen::inRange<std::int64_t>(0, 3'000'000);
    txv[i] += *rc::gen::inRange<std::uint64_t>(0, 200'000);
  }
  auto q_hi = q;
  auto tx_hi = txv;
  if (*rc::gen::arbitrary<bool>()) {
    q_hi[b] += *rc::gen::inRange<std::int64_t>(0, 1'000'000);
  } else {
    tx_hi[b] += *rc::gen::inRange<std::uint64_t>(0, 200'000);
  }
  cc_t lo = cc, hi = cc;
  lo.on_ack(make(q, txv));
  hi.on_ack(make(q_hi, tx_hi));
  RC_ASSERT(hi.norm_power() >= lo.norm_power());
  RC_ASSERT(hi.window() <= lo.window());
}

RC_GTEST_PROP(PowerTcp, LargerBottleneckQueueOrTxNeverGivesLargerWindowDouble, ()) {
  monotonicity_case<netcc::arith::ieee_double>();
}
RC_GTEST_PROP(PowerTcp, LargerBottleneckQueueOrTxNeverGivesLargerWindowQ32, ()) {
  monotonicity_case<netcc::arith::q32>();
}

// Normalised power exactly 1 (tx rate = b, empty queue) and cwnd_old = cwnd: one update adds
// exactly gamma * beta (Eq. 7: gamma * (cwnd/1 + beta) + (1 - gamma) * cwnd = cwnd + gamma*beta).
template <class Policy>
void unit_power_case(double abs_tol, double rel_tol) {
  const auto gbps = *rc::gen::inRange<std::int64_t>(1, 400);
  const auto tau_us = *rc::gen::inRange<std::int64_t>(1, 200);
  netcc::powertcp_params p{.gamma = *rc::gen::inRange(1, 1001) / 1000.0,
                           .host_rate = bit_rate{gbps * 1'000'000'000},
                           .base_rtt = duration{tau_us * 1000},
                           .expected_flows = *rc::gen::inRange<std::int64_t>(1, 64)};
  const std::int64_t bdp = gbps * tau_us * 125;  // Gbps * us / 8 = B * 1000 / 8
  p.cwnd_init = bytes{*rc::gen::inRange<std::int64_t>(1500, bdp + 1)};
  RC_PRE(p.cwnd_init <= bytes{bdp});
  netcc::basic_powertcp<Policy> cc{p};
  const double before = netcc::to_double(cc.window());
  const double beta = netcc::to_double(cc.beta());
  const bit_rate b{*rc::gen::inRange<std::int64_t>(1, 800) * 1'000'000'000};
  cc.on_ack(ack(0, 1, 1'000'000, {hop(0, 0, 0, b)}));
  // dt = 8 us: tx = b * 8 us / 8 = b[bps] / 1e6 bytes, exactly b.
  const auto dtx = static_cast<std::uint64_t>(b.bps() / 1'000'000);
  cc.on_ack(ack(1, 2, 1'000'000, {hop(8000, 0, dtx, b)}));
  RC_ASSERT(netcc::to_double(cc.norm_power()) == 1.0);
  const double gamma = netcc::to_double(netcc::num<typename Policy::value_type>(p.gamma));
  const double after = netcc::to_double(cc.window());
  RC_ASSERT(std::abs(after - before - gamma * beta) <= abs_tol + rel_tol * std::max(after, before));
}

RC_GTEST_PROP(PowerTcp, UnitPowerAddsExactlyGammaBetaDouble, ()) {
  // A few roundings of the window's magnitude (up to 10^7 B here, where one ulp is 1.9e-9 B):
  // 8 ulps of it, not a fixed 1e-9 B, which seed 7 at 20000 cases showed to be below one ulp.
  unit_power_case<netcc::arith::ieee_double>(1e-9, 8 * std::numeric_limits<double>::epsilon());
}
RC_GTEST_PROP(PowerTcp, UnitPowerAddsExactlyGammaBetaQ32, ()) {
  unit_power_case<netcc::arith::q32>(1e-6, 0.0);  // a few q32 roundings of 2^-33 B each
}

// Theorem 2: after a step change of the feedback, the window approaches its new equilibrium
// exponentially; the error shrinks by (1 - gamma) per update, time constant about dt/gamma.
TEST(PowerTcp, Theorem2ExponentialApproachAfterAStep) {
  for (double gamma : {0.9, 0.5, 0.1, 0.05, 0.02}) {
    auto p = base_params();
    p.gamma = gamma;
    p.cwnd_init = 60000_B;  // w0/power stays below the HostBw*tau cap for both powers
    netcc::powertcp cc{p};
    const double w0 = 60000.0, beta = 12500.0;
    constexpr std::int64_t dt = 10'000;  // one update per tau: smoothing weight 1
    std::uint64_t tx = 0;
    std::int64_t t = 0;
    // ack_seq stays below snd_nxt of the first ACK: cwnd_old = w0 throughout.
    auto feed = [&](double power) {
      tx += static_cast<std::uint64_t>(std::llround(power * 125000.0));  // power * b * dt / 8
      t += dt;
      cc.on_ack(ack(t, 2, 10'000'000, {hop(t, 0, tx, 100_Gbps)}));
    };
    cc.on_ack(ack(0, 1, 10'000'000, {hop(0, 0, 0, 100_Gbps)}));
    for (int k = 0; k < 2000; ++k) feed(1.25);  // settle at w0/1.25 + beta
    EXPECT_NEAR(win(cc), w0 / 1.25 + beta, 1e-6);
    EXPECT_EQ(cc.last_branch(), netcc::powertcp_branch::update);  // below the cap
    // Step: power 1.25 -> 0.8. New equilibrium w0/0.8 + beta.
    const double w_inf = w0 / 0.8 + beta;
    const double e0 = win(cc) - w_inf;
    std::vector<double> err{e0};
    for (int k = 0; k < 60; ++k) {
      feed(0.8);
      err.push_back(win(cc) - w_inf);
    }
    // The discrete law: each update multiplies the error by exactly (1 - gamma).
    EXPECT_NEAR(err[1] / err[0], 1 - gamma, 1e-9) << gamma;
    EXPECT_NEAR(err[2] / err[1], 1 - gamma, 1e-9) << gamma;
    // Time constant, numerically: first time the error is below e0/e, interpolated
    // log-linearly, in units of the update interval dt.
    std::size_t k = 1;
    while (k < err.size() && std::abs(err[k]) > std::abs(e0) / std::exp(1.0)) ++k;
    ASSERT_LT(k, err.size()) << gamma;
    const double fit = -1.0 / std::log(std::abs(err[k] / err[k - 1]));
    if (gamma <= 0.1) {
      // Euler regime of Theorem 2's proof: time constant dt/gamma within 6%.
      EXPECT_NEAR(fit * gamma, 1.0, 0.06) << gamma;
    } else {
      // Large gamma: the discrete decay is faster than exp(-gamma t/dt) (1 - g < e^-g).
      EXPECT_LT(fit, 1.0 / gamma) << gamma;
    }
  }
}

// Theorem 3: two flows fed the same bottleneck feedback settle at windows proportional to
// their beta; the aggregate at b*tau + beta_1 + beta_2 (Appendix A).
template <class Policy>
void fairness_case(double tol) {
  using cc_t = netcc::basic_powertcp<Policy>;
  auto p1 = base_params();
  auto p2 = base_params();
  p1.beta = 5000_B;
  p2.beta = 15000_B;
  p1.cwnd_init = 100000_B;  // start unfair the other way round
  p2.cwnd_init = 20000_B;
  cc_t f1{p1}, f2{p2};
  // Fluid bottleneck: b = 100 Gbps = 12.5 B/ns, tau = 10 us; one ACK per flow every 1 us.
  const double b = 12.5, tau = 10'000.0, dt = 1000.0;
  double q = 0, txd = 0;
  double seq1 = 0, seq2 = 0;
  for (int k = 0; k < 6000; ++k) {
    const double w1 = netcc::to_double(f1.window()), w2 = netcc::to_double(f2.window());
    const double rtt = tau + q / b;
    const double lam = (w1 + w2) / rtt;  // aggregate sending rate, B/ns
    const double q_next = std::max(0.0, q + (lam - b) * dt);
    const double served = std::min(q + lam * dt, b * dt);  // bytes sent on the link
    q = q_next;
    txd += served;
    seq1 += w1 / rtt * dt;
    seq2 += w2 / rtt * dt;
    const auto t = static_cast<std::int64_t>((k + 1) * dt);
    const auto h = hop(t, std::llround(q), static_cast<std::uint64_t>(std::llround(txd)), 100_Gbps);
    f1.on_ack(
        ack(t, static_cast<netcc::sequence>(seq1), static_cast<netcc::sequence>(seq1 + w1), {h}));
    f2.on_ack(
        ack(t, static_cast<netcc::sequence>(seq2), static_cast<netcc::sequence>(seq2 + w2), {h}));
  }
  const double w1 = netcc::to_double(f1.window()), w2 = netcc::to_double(f2.window());
  // (w_i)_e = beta_i * (b tau + beta_hat) / beta_hat = beta_i * 145000 / 20000
  EXPECT_NEAR(w1 / w2, 5000.0 / 15000.0, tol);
  EXPECT_NEAR(w1, 36250.0, 36250.0 * tol);
  EXPECT_NEAR(w2, 108750.0, 108750.0 * tol);
  EXPECT_NEAR(q, 20000.0, 20000.0 * 5 * tol);  // q_e = beta_hat
}

TEST(PowerTcp, Theorem3BetaWeightedFairnessDouble) {
  fairness_case<netcc::arith::ieee_double>(0.01);
}
TEST(PowerTcp, Theorem3BetaWeightedFairnessQ32) {
  fairness_case<netcc::arith::q32>(0.01);
}

// q32 against double on the same well-formed feedback: the trajectories stay within
// 1e-6 relative (+ 0.01 B) of each other.
RC_GTEST_PROP(PowerTcp, Q32TrajectoryTracksDouble, ()) {
  netcc::powertcp_params p = base_params();
  p.gamma = *rc::gen::inRange(1, 101) / 100.0;
  p.cwnd_init = bytes{*rc::gen::inRange<std::int64_t>(1500, 500'000)};
  netcc::powertcp d{p};
  q32_powertcp f{p};
  const auto hops = *rc::gen::inRange<std::size_t>(1, 4);
  std::vector<std::uint64_t> tx(hops, 0), ts(hops, 0);
  netcc::sequence s = 0;
  const int n = *rc::gen::inRange(1, 200);
  for (int k = 0; k < n; ++k) {
    netcc::ack_event a{.now = timestamp{k}, .ack_seq = s, .snd_nxt = s + 200'000};
    for (std::size_t i = 0; i < hops; ++i) {
      ts[i] += *rc::gen::inRange<std::uint64_t>(100, 20'000);
      tx[i] += *rc::gen::inRange<std::uint64_t>(0, 250'000);
      a.hops.push(hop(static_cast<std::int64_t>(ts[i]),
                      *rc::gen::inRange<std::int64_t>(0, 1'000'000), tx[i], 100_Gbps));
    }
    s += *rc::gen::inRange<std::uint64_t>(0, 40'000);
    const double wd_prev = netcc::to_double(d.window());
    d.on_ack(a);
    f.on_ack(a);
    const double wd = netcc::to_double(d.window()), wf = netcc::to_double(f.window());
    RC_ASSERT(std::abs(wd - wf) <= 1e-6 * wd + 0.01);
    netcc_test::check_same_powertcp_branch(d, f, wd_prev);
  }
}

namespace {

// One hop's NORMPOWER inputs for the fixed-point forms' properties: any byte delta (negative:
// counter noise), interval, queue, rate and tau. A quarter across the types' whole ranges; with
// `edges`, another quarter at the edge of powertcp_hop_power_fast's 64-bit quotient (deltas
// around 2^63 / 8e9 B, intervals of 1-4 ns, any rate); the rest the ranges of real links.
struct hop_power_case {
  std::int64_t dbytes;
  duration dt;
  std::int64_t qlen;
  bit_rate b;
  duration tau;
};
hop_power_case gen_hop_power_case(bool edges) {
  const int kind = *rc::gen::inRange(0, 4);
  const bool wide = kind == 0;
  const bool edge = edges && kind == 1;
  constexpr std::int64_t dmax = 0x7FFF'FFFF'FFFF'FFFFLL / 8'000'000'000LL;
  hop_power_case c{};
  c.dbytes = wide   ? *rc::gen::arbitrary<std::int64_t>()
             : edge ? *rc::gen::inRange<std::int64_t>(dmax - 3, dmax + 3)
                    : *rc::gen::inRange<std::int64_t>(-1000, 1 << 30);
  c.dt = duration{1 + *rc::gen::inRange<std::int64_t>(
                          0, wide ? (std::int64_t{1} << 62) : (edge ? 3 : 20'000'000))};
  c.qlen = *rc::gen::arbitrary<std::uint32_t>();
  c.b =
      bit_rate{wide || edge ? 1 + *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 50)
                            : *rc::gen::element<std::int64_t>(1, 10, 25, 100, 400) * 1'000'000'000};
  c.tau =
      duration{1 + *rc::gen::inRange<std::int64_t>(0, wide ? (std::int64_t{1} << 40) : 1'000'000)};
  return c;
}

using hop_q32 = netcc::fixed_point<31, 32>;

// `form` (a fixed-point NORMPOWER through a link's cached reciprocals, called with the case, the
// reciprocals and the largest power) gives detail::powertcp_hop_power's value for case `c`.
template <class F>
void check_against_dividing_path(const hop_power_case& c, F form) {
  netcc::detail::powertcp_recip_cache cache;
  const auto* r = cache.find(c.b, c.tau);
  RC_ASSERT(r != nullptr);
  const hop_q32 pmax = netcc::powertcp_max_power<hop_q32>();
  RC_ASSERT(form(c, *r, pmax) ==
            netcc::detail::powertcp_hop_power<hop_q32>(c.dbytes, c.dt, c.qlen, c.b, c.tau, pmax));
}

}  // namespace

// The fixed-point NORMPOWER through a link's cached reciprocals gives the dividing path's
// value bit for bit (detail::powertcp_hop_power_recip against detail::powertcp_hop_power), for
// any byte delta (negative: counter noise), interval, queue, rate and tau.
RC_GTEST_PROP(PowerTcp, ReciprocalHopPowerEqualsDividingPath, ()) {
  check_against_dividing_path(gen_hop_power_case(false), [](const hop_power_case& c, const auto& r,
                                                            hop_q32 pmax) {
    return netcc::detail::powertcp_hop_power_recip<hop_q32>(c.dbytes, c.dt, c.qlen, r, c.tau, pmax);
  });
}

// The fixed-point NORMPOWER with the current's quotient by one 128-by-64-bit division
// (detail::powertcp_hop_power_fast) gives the dividing path's value bit for bit, for any byte
// delta, interval, queue, rate and tau, including quotients beyond 64 bits (saturated) and
// rates and deltas at the edge of the fast form.
RC_GTEST_PROP(PowerTcp, DividingInstructionHopPowerEqualsDividingPath, ()) {
  check_against_dividing_path(gen_hop_power_case(true), [](const hop_power_case& c, const auto& r,
                                                           hop_q32 pmax) {
    return netcc::detail::powertcp_hop_power_fast<hop_q32>(c.dbytes, c.dt, c.qlen, r, c.tau, pmax);
  });
}

// In q32 the hop's power after the current's quotient is taken on the raw integers
// (detail::powertcp_hop_power_fast for queues below 2^31 B): the dividing path's value bit for
// bit, with queues at and around 2^31 and 2^32, and links whose BDP is a few bytes (a voltage at
// and beyond pmax: 1 + qlen / BDP saturating), next to real links.
RC_GTEST_PROP(PowerTcp, Q32RawHopPowerTailEqualsDividingPath, ()) {
  hop_power_case c = gen_hop_power_case(true);
  c.qlen = *rc::gen::element<std::int64_t>(
      0, 1, (std::int64_t{1} << 31) - 1, std::int64_t{1} << 31, (std::int64_t{1} << 31) + 1,
      0xFFFF'FFFFLL, *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 31),
      *rc::gen::inRange<std::int64_t>(0, 1'000'000));
  if (*rc::gen::arbitrary<bool>()) {  // BDP of 1 to about 100 bytes
    c.b = bit_rate{*rc::gen::inRange<std::int64_t>(8, 100'000'000'000)};
    c.tau = duration{*rc::gen::inRange<std::int64_t>(1, 8)};
    if (c.b * c.tau <= bytes::zero()) c.tau = duration{8};
  }
  check_against_dividing_path(c, [](const hop_power_case& k, const auto& r, hop_q32 pmax) {
    return netcc::detail::powertcp_hop_power_fast<hop_q32>(k.dbytes, k.dt, k.qlen, r, k.tau, pmax);
  });
}

// UPDATEWINDOW's fast form (detail::powertcp_update_window: in q32 on the raw integers) is the
// operator form (detail::powertcp_update_window_ops: mul_nonneg, powertcp_quotient, operator+,
// operator- and clamp_num) bit for bit, with the same rule, for any power, HostBw * tau, old and
// current window, beta and gamma: the object's ranges (powers in [0, 2^30], windows below 2^31
// B, gamma in (0, 1]), their edges, and any raw values (negative, gamma beyond 1: the operator
// form out of line).
RC_GTEST_PROP(PowerTcp, Q32UpdateWindowFastFormIsTheOperatorForm, ()) {
  using q = hop_q32;
  const int kind = *rc::gen::inRange(0, 4);
  const auto raw = [&](std::int64_t hi) {
    if (kind == 0) return *rc::gen::arbitrary<std::int64_t>();
    if (kind == 1)
      return *rc::gen::element<std::int64_t>(0, 1, hi - 1, hi, q::raw_max,
                                             *rc::gen::inRange<std::int64_t>(0, hi));
    return *rc::gen::inRange<std::int64_t>(0, hi);
  };
  constexpr std::int64_t pmax = std::int64_t{1} << 62, wmax = 0x7FFF'FFFFLL << 32;
  const q p = q::from_raw(kind == 3 ? *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 36)
                                    : raw(pmax));
  const q h = q::from_raw(raw(wmax)), old = q::from_raw(raw(wmax)), beta = q::from_raw(raw(wmax)),
          cwnd = q::from_raw(raw(wmax));
  const q gamma =
      q::from_raw(kind == 0 ? *rc::gen::arbitrary<std::int64_t>()
                            : *rc::gen::element<std::int64_t>(
                                  0, 1, std::int64_t{1} << 32, (std::int64_t{1} << 32) + 1,
                                  *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 32)));
  std::int64_t lo = raw(wmax), hi = raw(wmax);
  if (lo > hi) std::swap(lo, hi);
  bool u_fast = false, u_ops = false;
  const q w = netcc::detail::powertcp_update_window(p, h, old, gamma, beta, cwnd, q::from_raw(lo),
                                                    q::from_raw(hi), u_fast);
  const q r = netcc::detail::powertcp_update_window_ops(p, h, old, gamma, beta, cwnd,
                                                        q::from_raw(lo), q::from_raw(hi), u_ops);
  RC_ASSERT(w.raw() == r.raw());
  RC_ASSERT(u_fast == u_ops);
}

// The path-change test's fast form (detail::powertcp_rate_is) is powertcp_rate32(b) == rate for
// every rate and key: around whole Mbps, below 1 Mbps, negative, at the 32-bit saturation and
// anywhere in int64.
RC_GTEST_PROP(PowerTcp, RateTestEqualsRate32Comparison, ()) {
  const int kind = *rc::gen::inRange(0, 4);
  std::int64_t bps = 0;
  if (kind == 0) {
    bps = *rc::gen::arbitrary<std::int64_t>();
  } else if (kind == 1) {  // near a whole Mbps, including near 2^32 - 1 Mbps
    const std::int64_t m = *rc::gen::element<std::int64_t>(
        0, 1, 25'000, 100'000, 0xFFFF'FFFELL, 0xFFFF'FFFFLL, 0x1'0000'0000LL,
        *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 40));
    bps = m * 1'000'000 + *rc::gen::inRange<std::int64_t>(-2, 3) +
          *rc::gen::element<std::int64_t>(0, 999'998, 999'999, 1'000'000, -1'000'000);
  } else if (kind == 2) {
    bps = *rc::gen::inRange<std::int64_t>(-2'000'000, 2'000'000);
  } else {
    bps = *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 62);
  }
  const bit_rate b{bps};
  const std::uint32_t r32 = netcc::detail::powertcp_rate32(b);
  const std::uint32_t any = *rc::gen::arbitrary<std::uint32_t>();
  const std::uint32_t rate = *rc::gen::element<std::uint32_t>(
      std::uint32_t{r32}, r32 + 1U, r32 - 1U, 0U, 0xFFFF'FFFFU, std::uint32_t{any});
  RC_ASSERT(netcc::detail::powertcp_rate_is(b, rate) == (r32 == rate));
}

// The queue length's fast form equals powertcp_qlen32 for any queue.
RC_GTEST_PROP(PowerTcp, QueueFastFormEqualsQlen32, ()) {
  const std::int64_t q =
      *rc::gen::oneOf(rc::gen::arbitrary<std::int64_t>(), rc::gen::inRange<std::int64_t>(-3, 3),
                      rc::gen::inRange<std::int64_t>(0xFFFF'FFFFLL - 3, 0xFFFF'FFFFLL + 3),
                      rc::gen::inRange<std::int64_t>(0, 0xFFFF'FFFFLL));
  RC_ASSERT(netcc::detail::powertcp_qlen32_fast(bytes{q}) ==
            netcc::detail::powertcp_qlen32(bytes{q}));
}

namespace {

// NORMPOWER in double as netcc computed it before the choice of hop evaluated the chosen hop's
// saturation lazily and read the rate and queue through their fast forms (issue 21): every hop
// with dt > 0 and b > 0, compared by cross-multiplication with the saturation of each candidate
// taken as it comes, the chosen hop's power divided out and clamped to [0, pmax]. The second
// ACK's sample, the first ACK's hops as the stored records (64-bit clock and counter).
netcc::power_sample<double> reference_double_sample(const std::vector<int_hop>& prev,
                                                    const std::vector<int_hop>& cur, duration tau) {
  using clock = netcc::wrapping_clock<64>;
  using counter = netcc::wrapping_counter<64, 1>;
  const double pmax = netcc::powertcp_max_power<double>();
  netcc::power_sample<double> best;
  for (std::size_t i = 0; i < cur.size(); ++i)
    if (netcc::detail::powertcp_rate32(cur[i].link_rate) !=
        netcc::detail::powertcp_rate32(prev[i].link_rate))
      return {};  // a path change
  double bn = 0, bd = 0, b_v = 0;
  bool bsat = false;
  std::int64_t b_dbytes = 0;
  for (std::size_t i = 0; i < cur.size(); ++i) {
    const int_hop& h = cur[i];
    const duration dt = clock::diff(h.ts, prev[i].ts);
    if (dt <= duration::zero()) continue;
    const std::uint32_t q32 = netcc::detail::powertcp_qlen32(h.qlen);
    const std::int64_t dq = static_cast<std::int64_t>(q32) -
                            static_cast<std::int64_t>(netcc::detail::powertcp_qlen32(prev[i].qlen));
    const std::int64_t dtx = counter::delta_bytes(h.tx_bytes, prev[i].tx_bytes);
    const bit_rate b = h.link_rate;
    if (b <= bit_rate::zero()) continue;
    const std::int64_t dbytes = netcc::detail::sat_add(dq, dtx);
    const double bt = static_cast<double>(b.bps()) * static_cast<double>(tau.count());
    const double v = static_cast<double>(q32) * 8e9 + bt;
    const double kn = static_cast<double>(dbytes < 0 ? 0 : dbytes) * v;
    const double kd = static_cast<double>(dt.count()) * static_cast<double>(b.bps()) * bt;
    const bool ks = kn * 8e9 >= pmax * kd;
    if (!best.valid || (!bsat && (ks || kn * bd > bn * kd))) {
      best.valid = true;
      best.dt = dt;
      bn = kn;
      bd = kd;
      bsat = ks;
      b_dbytes = dbytes;
      b_v = v;
    }
  }
  if (best.valid)
    best.power = netcc::clamp_num(static_cast<double>(b_dbytes) * 8e9 * b_v / bd, 0.0, pmax);
  return best;
}

}  // namespace

// int_power's double NORMPOWER equals the reference above bit for bit (the power's bits, its dt,
// whether there is a sample) over paths of 1 to 8 hops with queues that shrink faster than the
// link drains (negative currents), duplicate and reordered timestamps, zero, tiny and changed
// link rates, saturating powers and wide counters.
RC_GTEST_PROP(PowerTcp, DoubleNormPowerEqualsReference, ()) {
  using stack = netcc::int_stack<8>;
  const auto n = static_cast<std::size_t>(*rc::gen::inRange(1, 9));
  const bool wide = *rc::gen::inRange(0, 5) == 0;
  const duration tau{*rc::gen::element<std::int64_t>(1, 1000, 10'000, 28'000, 1'000'000)};
  std::vector<int_hop> prev(n), cur(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t bps =
        *rc::gen::inRange(0, 12) == 0
            ? *rc::gen::element<std::int64_t>(0, -1, 999'999, 1'000'000, 1'500'000)
            : *rc::gen::element<std::int64_t>(10, 25, 100, 400) * 1'000'000'000;
    prev[i] = hop(*rc::gen::inRange<std::int64_t>(0, 1'000'000),
                  *rc::gen::inRange<std::int64_t>(-10, 200'000),
                  *rc::gen::arbitrary<std::uint64_t>(), bit_rate{bps});
    const std::int64_t dts = *rc::gen::oneOf(rc::gen::inRange<std::int64_t>(-3, 3),
                                             rc::gen::inRange<std::int64_t>(1, 5000));
    const std::uint64_t dtx =
        wide ? *rc::gen::arbitrary<std::uint64_t>() : *rc::gen::inRange<std::uint64_t>(0, 40'000);
    const std::int64_t q =
        wide ? *rc::gen::arbitrary<std::int64_t>() : *rc::gen::inRange<std::int64_t>(-10, 200'000);
    const std::int64_t cbps = *rc::gen::inRange(0, 40) == 0 ? bps + 1'000'000 : bps;
    cur[i] =
        hop(static_cast<std::int64_t>(prev[i].ts) + dts, q, prev[i].tx_bytes + dtx, bit_rate{cbps});
  }
  netcc::basic_ack_event<stack> a1, a2;
  for (std::size_t i = 0; i < n; ++i) {
    a1.hops.push(prev[i]);
    a2.hops.push(cur[i]);
  }
  netcc::int_power<stack> sig;
  RC_ASSERT(!sig.sample<double>(a1, tau).valid);
  const netcc::power_sample<double> got = sig.sample<double>(a2, tau);
  const netcc::power_sample<double> want = reference_double_sample(prev, cur, tau);
  RC_ASSERT(got.valid == want.valid);
  RC_ASSERT(got.dt == want.dt);
  RC_ASSERT(std::bit_cast<std::uint64_t>(got.power) == std::bit_cast<std::uint64_t>(want.power));
  if (want.valid) RC_TAG(want.power == 0 ? "zero power" : "positive power");
}

// The cache holds two rates per tau and re-derives them when tau changes.
TEST(PowerTcp, ReciprocalCacheKeysOnRateAndTau) {
  netcc::detail::powertcp_recip_cache c;
  const auto* a = c.find(100_Gbps, 10_us);
  const auto* b = c.find(25_Gbps, 10_us);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(c.find(100_Gbps, 10_us), a);
  EXPECT_EQ(c.find(400_Gbps, 10_us), nullptr);  // full: the dividing path
  EXPECT_EQ(a->bdp, (100_Gbps * 10_us).count());
  const auto* a2 = c.find(100_Gbps, 20_us);
  ASSERT_NE(a2, nullptr);
  EXPECT_EQ(a2->bdp, (100_Gbps * 20_us).count());
  EXPECT_EQ(a2->inv_b.divisor(), 100'000'000'000U);
}

}  // namespace netcc_tests::control_powertcp
