// SPDX-License-Identifier: MIT
// A 10:1 incast in stock ns-3, as netcc-sim's `incast`: a long flow, then ten 500 kB flows at
// 500 us onto the same receiver; 100 Gbps, 1 us links, 3 ms.
//   netcc-ns3-incast --cc=netcc-powertcp --out=incast_powertcp.csv
#include "common.h"

int main(int argc, char** argv) {
  ns3::NetccNs3Scenario s;
  s.topology = "incast";
  s.rate = ns3::DataRate("100Gbps");
  s.duration = ns3::MicroSeconds(3000);
  s.expectedFlows = 10;  // netcc-sim's incast gives its controllers N = 10
  return netcc_example::Run(argc, argv, s, "netcc-ns3-incast");
}
