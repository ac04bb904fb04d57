// SPDX-License-Identifier: MIT
// What netcc's two ns-3 examples share: the command line, the controller name, the summary.
#ifndef NETCC_NS3_EXAMPLES_COMMON_H
#define NETCC_NS3_EXAMPLES_COMMON_H

#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>

#include "netcc-ns3/bridge.h"
#include "netcc-ns3/scenario.h"
#include "ns3/command-line.h"

namespace netcc_example {

// "netcc-<name>" (a netcc controller kind, e.g. netcc-dctcp) or any ns-3 TypeId
// (ns3::TcpDctcp, ns3::NetccVegas).
inline std::string TypeIdFor(const std::string& cc) {
  if (cc.rfind("netcc-", 0) == 0) {
    const auto* k = netcc::ns3::find_controller_kind(cc.substr(6));
    return k != nullptr ? k->type_id : cc;
  }
  return cc;
}

// Parse the shared options into `s`, run, print the summary and write the CSV. Exit status:
// 0, or 2 with one line on a bad option.
inline int Run(int argc, char** argv, ns3::NetccNs3Scenario s, const char* name) {
  std::string cc = "netcc-dctcp";
  std::string out;
  double durationUs = s.duration.GetMicroSeconds();
  double sampleNs = static_cast<double>(s.sample.GetNanoSeconds());
  double gbps = static_cast<double>(s.rate.GetBitRate()) / 1e9;
  double delayNs = static_cast<double>(s.delay.GetNanoSeconds());
  ns3::CommandLine cmd(__FILE__);
  cmd.Usage(std::string(name) +
            ": a netcc controller or an ns-3 one in stock ns-3, measured as netcc-sim measures.\n"
            "--cc takes netcc-<name> (netcc-vegas, netcc-dctcp, netcc-swift, netcc-timely,\n"
            "netcc-theta-powertcp, ...) or any TCP congestion-control TypeId (ns3::TcpVegas).\n"
            "Controller parameters are Attributes: --ns3::NetccDctcp::G=0.0625");
  cmd.AddValue("cc", "congestion control", cc);
  cmd.AddValue("transport", "tcp (ns-3 TCP) | rate (netcc's rate transport over UDP)", s.transport);
  cmd.AddValue("flows", "dumbbell: long flows", s.flows);
  cmd.AddValue("kMin", "netcc-red: K_min bytes (with kMax)", s.kMin);
  cmd.AddValue("kMax", "netcc-red: K_max bytes (0: a step at redK packets)", s.kMax);
  cmd.AddValue("pMax", "netcc-red: P_max (with kMax)", s.pMax);
  cmd.AddValue("ecnAtDequeue", "netcc-red: mark on the queue a packet leaves", s.ecnAtDequeue);
  cmd.AddValue("incastFlows", "incast: flows of the burst", s.incastFlows);
  cmd.AddValue("incastBytes", "incast: bytes per burst flow", s.incastBytes);
  cmd.AddValue("queue",
               "switch ports: fifo | red (ns-3 RED, ECN at K packets) | netcc (INT) | netcc-red "
               "(INT + netcc's RED/ECN at K) | netcc-bolt (Bolt's switch) | netcc-fasttune "
               "(FastTune's switch)",
               s.queue);
  cmd.AddValue("redK", "RED/ECN threshold K, packets", s.redK);
  cmd.AddValue("buffer", "queue disc capacity per port, packets", s.bufferPackets);
  cmd.AddValue("gbps", "every link's rate, Gbps", gbps);
  cmd.AddValue("delayNs", "every link's one-way delay, ns", delayNs);
  cmd.AddValue("durationUs", "simulated time, us", durationUs);
  cmd.AddValue("sampleNs", "time-series interval, ns", sampleNs);
  cmd.AddValue("segment", "TCP segment size, bytes", s.segmentSize);
  cmd.AddValue("delAck", "ACK every N segments", s.delAckCount);
  cmd.AddValue("rawRtt", "unsmoothed RTT samples (RttMeanDeviation::Alpha = 1)", s.rawRtt);
  cmd.AddValue("seed", "ns-3 RngRun", s.seed);
  cmd.AddValue("out", "CSV file to write (netcc-sim's columns); none if empty", out);
  bool derive = true;
  cmd.AddValue("derive",
               "set a netcc controller's HostRate/LineRate, BaseRtt/MinRtt and ExpectedFlows "
               "from the set-up, as netcc-sim does (0: use the Attributes as given)",
               derive);
  cmd.AddValue("expectedFlows", "N given to controllers (0: the flows that start)",
               s.expectedFlows);
  cmd.Parse(argc, argv);
  s.cc = TypeIdFor(cc);
  s.rate = ns3::DataRate(static_cast<std::uint64_t>(gbps * 1e9));
  s.delay = ns3::NanoSeconds(static_cast<std::int64_t>(delayNs));
  s.duration = ns3::MicroSeconds(static_cast<std::int64_t>(durationUs));
  s.sample = ns3::NanoSeconds(static_cast<std::int64_t>(sampleNs));
  try {
    if (derive) {
      for (const auto& a : ns3::NetccNs3DeriveDefaults(s)) std::printf("derived %s\n", a.c_str());
    }
    const ns3::NetccNs3Result r = ns3::RunNetccNs3Scenario(s);
    std::printf(
        "%s cc=%s flows=%u: peak queue %.0f B, drain %.1f us, settled queue %.0f B, "
        "throughput %.3f Gbps, long flows' goodput %.3f Gbps, Jain %.4f, drops %llu, marks %llu, "
        "SRCs %llu, S-ACKs %llu, "
        "%llu events in %.2f s (%.2f M events/s)\n",
        name, cc.c_str(), s.topology == "incast" ? s.incastFlows + 1 : s.flows, r.peakQueueBytes,
        r.drainUs, r.settledQueueBytes, r.throughputGbps, r.tailGoodputGbps, r.jain,
        static_cast<unsigned long long>(r.drops), static_cast<unsigned long long>(r.marks),
        static_cast<unsigned long long>(r.srcs), static_cast<unsigned long long>(r.sacks),
        static_cast<unsigned long long>(r.events), r.wallSeconds,
        r.wallSeconds > 0 ? static_cast<double>(r.events) / r.wallSeconds / 1e6 : 0);
    if (!out.empty()) {
      const std::string err = ns3::WriteNetccNs3Csv(out, r);
      if (!err.empty()) {
        std::fprintf(stderr, "%s: %s\n", name, err.c_str());
        return 2;
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", name, e.what());
    return 2;
  }
  return 0;
}

}  // namespace netcc_example

#endif  // NETCC_NS3_EXAMPLES_COMMON_H
