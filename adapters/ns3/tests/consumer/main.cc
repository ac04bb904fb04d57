// SPDX-License-Identifier: MIT
// The three lines of "netcc in ns-3" (README), in an installed-package consumer: name a netcc
// controller as the TCP congestion control, set a parameter, run.
#include <cstdio>

#include "netcc-ns3/scenario.h"
#include "ns3/config.h"
#include "ns3/double.h"

int main() {
  ns3::Config::SetDefault("ns3::NetccDctcp::G", ns3::DoubleValue(1.0 / 16));
  ns3::NetccNs3Scenario s;
  s.cc = "ns3::NetccDctcp";
  s.queue = "red";
  s.duration = ns3::MilliSeconds(2);
  s.sample = ns3::MicroSeconds(10);
  const ns3::NetccNs3Result r = ns3::RunNetccNs3Scenario(s);
  if (r.throughputGbps < 5 || r.marks == 0) {
    std::printf("netcc ns3 consumer: throughput %.2f Gbps, %llu marks\n", r.throughputGbps,
                static_cast<unsigned long long>(r.marks));
    return 1;
  }
  std::printf("netcc ns3 consumer ok\n");
  return 0;
}
