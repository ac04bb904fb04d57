// SPDX-License-Identifier: MIT
// netcc's Vegas and DCTCP (both growth rules) against ns-3's own TcpVegas and TcpDctcp: the same
// script, the same dumbbell (10 Gbps, 1 us links, 2 and 10 flows; DCTCP over RED with K = 65 packets).
//
// Margins, and why:
// - bottleneck throughput: both at least 95% of the link, within 2% of each other;
// - Jain's index of the flows' goodput: both at least 0.95, within 0.02 of each other;
// - settled queue (mean over the last quarter): within 15% of each other. Vegas defines its
//   queue only to within [alpha, beta] packets per flow (Brakmo-Peterson §III-A), so both must
//   also sit inside N * [alpha, beta] packets; 15% is under one packet per flow at 10 flows.
//   DCTCP's queue oscillates about K (Alizadeh et al. §3.3); both must settle within
//   [K / 2, 2 K] packets.
// ns-3's Vegas follows Linux (a window in whole segments, changed once per RTT from the RTT's
// minimum sample); netcc's follows the paper. ns-3's DCTCP cuts on entering CWR; netcc's once per
// window of data (RFC 8257 §3.3). The margins absorb those differences.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>

#include "netcc-ns3/scenario.h"

namespace {

ns3::NetccNs3Scenario Dumbbell(const std::string& cc, std::uint32_t flows, const std::string& q) {
  ns3::NetccNs3Scenario s;
  s.topology = "dumbbell";
  s.cc = cc;
  s.flows = flows;
  s.queue = q;
  s.redK = 65;
  s.duration = ns3::MilliSeconds(20);
  s.sample = ns3::MicroSeconds(10);
  return s;
}

void ExpectClose(const ns3::NetccNs3Result& a, const ns3::NetccNs3Result& b, double line) {
  EXPECT_GE(a.throughputGbps, 0.95 * line);
  EXPECT_GE(b.throughputGbps, 0.95 * line);
  EXPECT_NEAR(a.throughputGbps, b.throughputGbps, 0.02 * line);
  EXPECT_GE(a.jain, 0.95);
  EXPECT_GE(b.jain, 0.95);
  EXPECT_NEAR(a.jain, b.jain, 0.02);
  const double q = std::max(a.settledQueueBytes, b.settledQueueBytes);
  EXPECT_LE(std::abs(a.settledQueueBytes - b.settledQueueBytes), 0.15 * q)
      << "netcc " << a.settledQueueBytes << " B, ns-3 " << b.settledQueueBytes << " B";
  EXPECT_EQ(a.drops, 0u);
  EXPECT_EQ(b.drops, 0u);
}

class VegasVsNs3 : public ::testing::TestWithParam<std::uint32_t> {};

TEST_P(VegasVsNs3, SameQueueThroughputAndFairness) {
  const std::uint32_t n = GetParam();
  const auto netcc = ns3::RunNetccNs3Scenario(Dumbbell("ns3::NetccVegas", n, "fifo"));
  const auto ns3own = ns3::RunNetccNs3Scenario(Dumbbell("ns3::TcpVegas", n, "fifo"));
  ExpectClose(netcc, ns3own, 10.0);
  // alpha = 2, beta = 4 packets of 1500 B per flow, with one packet of slack each side.
  for (const auto* r : {&netcc, &ns3own}) {
    EXPECT_GE(r->settledQueueBytes, (2.0 * n - 1) * 1500);
    EXPECT_LE(r->settledQueueBytes, (4.0 * n + 1) * 1500);
  }
}

INSTANTIATE_TEST_SUITE_P(Flows, VegasVsNs3, ::testing::Values(2u, 10u));

// netcc's DCTCP with either congestion-avoidance rule (MSS * acked / cwnd, or RFC 5681's byte
// counting, which ns-3's TcpDctcp inherits from TcpLinuxReno), 2 and 10 flows.
class DctcpVsNs3 : public ::testing::TestWithParam<std::tuple<const char*, std::uint32_t>> {};

TEST_P(DctcpVsNs3, SameQueueThroughputAndFairnessOverRed) {
  const auto [tid, n] = GetParam();
  const auto netcc = ns3::RunNetccNs3Scenario(Dumbbell(tid, n, "red"));
  const auto ns3own = ns3::RunNetccNs3Scenario(Dumbbell("ns3::TcpDctcp", n, "red"));
  ExpectClose(netcc, ns3own, 10.0);
  for (const auto* r : {&netcc, &ns3own}) {
    EXPECT_GT(r->marks, 0u);
    EXPECT_GE(r->settledQueueBytes, 65.0 / 2 * 1500);
    EXPECT_LE(r->settledQueueBytes, 65.0 * 2 * 1500);
  }
}

INSTANTIATE_TEST_SUITE_P(Flows, DctcpVsNs3,
                         ::testing::Combine(::testing::Values("ns3::NetccDctcp",
                                                              "ns3::NetccDctcpCounting"),
                                            ::testing::Values(2u, 10u)),
                         // Readable CTest names: NetccDctcpCounting_10, not a pointer.
                         [](const auto& param_info) {
                           std::string name = std::get<0>(param_info.param);
                           name.erase(0, name.find("::") + 2);
                           return name + "_" + std::to_string(std::get<1>(param_info.param));
                         });

TEST(Ns3Scenario, BadSetUpsAreRefusedNamingFieldValueAndRule) {
  auto s = Dumbbell("ns3::NoSuchTcp", 2, "fifo");
  try {
    ns3::RunNetccNs3Scenario(s);
    FAIL() << "accepted an unknown TypeId";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "cc = ns3::NoSuchTcp: is not a registered TypeId");
  }
  s = Dumbbell("ns3::NetccDctcp", 2, "fifo");
  s.topology = "ring";
  EXPECT_THROW(ns3::RunNetccNs3Scenario(s), std::invalid_argument);
  s = Dumbbell("ns3::Ipv4L3Protocol", 2, "fifo");
  try {
    ns3::RunNetccNs3Scenario(s);
    FAIL() << "accepted a TypeId that is not a congestion control";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("must be a TCP congestion control"), std::string::npos);
  }
  s = Dumbbell("ns3::NetccDctcp", 0, "fifo");
  EXPECT_THROW(ns3::RunNetccNs3Scenario(s), std::invalid_argument);
}

TEST(Ns3Scenario, TheControllerOwnsTheSocketsWindow) {
  // Two flows share the bottleneck (one alone would queue in its own NIC's queue disc, where
  // nothing marks). netcc's DCTCP over RED keeps each window near half of BDP + K once settled,
  // and the window ns-3 used (the socket's trace) is that window.
  auto s = Dumbbell("ns3::NetccDctcp", 2, "red");
  s.duration = ns3::MilliSeconds(5);
  const auto r = ns3::RunNetccNs3Scenario(s);
  ASSERT_EQ(r.cwndBytes.size(), 2u);
  for (const auto& flow : r.cwndBytes) {
    double late = 0;
    for (std::size_t k = flow.size() / 2; k < flow.size(); ++k) late = std::max(late, flow[k]);
    EXPECT_GT(late, 0);
    EXPECT_LT(late, 2.0 * 65 * 1500);
  }
  EXPECT_LT(r.peakQueueBytes, 3.0 * 65 * 1500);
}

}  // namespace
