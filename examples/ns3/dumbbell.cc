// SPDX-License-Identifier: MIT
// A dumbbell in stock ns-3: N long flows share one 10 Gbps bottleneck, 1 us links.
//   netcc-ns3-dumbbell --cc=netcc-vegas --flows=10
//   netcc-ns3-dumbbell --cc=ns3::TcpDctcp --queue=red --redK=65 --out=dctcp.csv
#include "common.h"

int main(int argc, char** argv) {
  ns3::NetccNs3Scenario s;
  s.topology = "dumbbell";
  return netcc_example::Run(argc, argv, s, "netcc-ns3-dumbbell");
}
