// SPDX-License-Identifier: MIT
/// @file
/// @brief The two set-ups netcc's ns-3 examples and tests run, built from stock ns-3 parts
/// (point-to-point links, IPv4 routers, BulkSend and PacketSink, a root queue disc per port),
/// measured the way `netcc-sim` measures its own runs (the ns-3 half, C++17).
///
/// - `dumbbell`: `flows` senders - switch - bottleneck - switch - `flows` receivers, one
///   long-running flow per pair, all starting at time 0 (netcc-sim's `dumbbell`).
/// - `incast`: `incastFlows + 1` senders - switch - one receiver; one long flow from time 0 and
///   `incastFlows` flows of `incastBytes` starting together at `incastAt` (netcc-sim's
///   `incast`).
/// Every link has rate `rate` and one-way delay `delay`; the bottleneck is the switch port toward
/// the receiver(s). The TCP congestion control is any TypeId (`ns3::NetccDctcp`,
/// `ns3::TcpDctcp`, ...). Results: the bottleneck queue and throughput and each long flow's
/// window, pacing rate and goodput per `sample`, plus the summary netcc-sim prints.
#ifndef NETCC_NS3_SCENARIO_H
#define NETCC_NS3_SCENARIO_H

#include <cstdint>
#include <string>
#include <vector>

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

namespace ns3 {

/// @brief A dumbbell or incast run (see the file comment).
struct NetccNs3Scenario {
  std::string topology = "dumbbell";  ///< "dumbbell" or "incast".
  /// The congestion control: with TCP, a TCP congestion control's TypeId (ns3::NetccDctcp,
  /// ns3::TcpDctcp); with the rate transport, a netcc controller (ns3::NetccDcqcn, or "dcqcn").
  std::string cc = "ns3::NetccDctcp";
  /// "tcp" (BulkSend over ns-3 TCP) or "rate" (NetccRateSender / NetccRateReceiver over UDP).
  std::string transport = "tcp";
  std::uint32_t flows = 2;              ///< Dumbbell: long flows (sender/receiver pairs).
  std::uint32_t incastFlows = 10;       ///< Incast: flows of the burst.
  std::uint64_t incastBytes = 500'000;  ///< Incast: bytes per burst flow.
  Time incastAt = MicroSeconds(500);    ///< Incast: when the burst starts.
  DataRate rate = DataRate("10Gbps");   ///< Every link's rate.
  Time delay = MicroSeconds(1);         ///< Every link's one-way delay.
  Time duration = MilliSeconds(20);     ///< Simulated time.
  Time sample = MicroSeconds(1);        ///< Time-series interval.
  /// Switch ports: "fifo"; "red" (ns-3's RedQueueDisc, ECN at K packets); "netcc"
  /// (NetccQueueDisc: netcc's INT push at dequeue); "netcc-red" (that, plus netcc's RED/ECN as
  /// a step at K packets).
  std::string queue = "fifo";
  std::uint32_t redK = 65;    ///< RED/ECN: MinTh = MaxTh = K packets, QW = 1.
  std::uint64_t kMin = 0;     ///< netcc-red: K_min bytes (with kMax > 0; else the step at redK).
  std::uint64_t kMax = 0;     ///< netcc-red: K_max bytes (0: the step at redK).
  double pMax = 1.0;          ///< netcc-red: P_max (with kMax > 0).
  bool ecnAtDequeue = false;  ///< netcc-red: decide on the queue a packet leaves (RoCE).
  std::uint32_t bufferPackets = 10'000;  ///< Queue disc capacity per port, packets.
  std::uint32_t segmentSize = 1460;      ///< TCP MSS (1500-byte packets; no TCP timestamps).
  std::uint32_t delAckCount = 1;         ///< ACK every N segments.
  bool rawRtt = true;                    ///< RttMeanDeviation::Alpha = 1: RTT samples unsmoothed.
  std::uint32_t seed = 1;                ///< ns-3's RngRun.
  std::uint32_t expectedFlows = 0;       ///< N given to controllers (0: the flows that start).
};

/// @brief What a run measured.
struct NetccNs3Result {
  std::vector<std::int64_t> timeNs;              ///< Sample times.
  std::vector<double> queueBytes;                ///< Bottleneck queue (queue disc bytes).
  std::vector<double> bottleneckGbps;            ///< Bottleneck throughput over each sample.
  std::vector<std::vector<double>> cwndBytes;    ///< Per long flow: congestion window.
  std::vector<std::vector<double>> rateGbps;     ///< Per long flow: pacing rate (0: unpaced).
  std::vector<std::vector<double>> goodputGbps;  ///< Per long flow: goodput over each sample.
  double peakQueueBytes = 0;                     ///< Largest sampled queue.
  double settledQueueBytes = 0;                  ///< Mean queue over the last quarter.
  double throughputGbps = 0;                     ///< Bottleneck throughput over the last quarter.
  double jain = 0;             ///< Jain's index of long flows' goodput, last quarter.
  double tailGoodputGbps = 0;  ///< Long flows' goodput over the last quarter (sum).
  /// Time from the incast (dumbbell: time 0) until the queue is first back under 10% of its
  /// peak after the peak, us; negative if it never is (netcc-sim's drain_us).
  double drainUs = -1;
  std::vector<double> flowGoodputGbps;  ///< Each long flow's goodput over the last quarter.
  std::uint64_t drops = 0;              ///< Packets dropped at the bottleneck.
  std::uint64_t marks = 0;              ///< Packets ECN-marked at the bottleneck.
  std::uint64_t srcs = 0;               ///< Bolt SRCs the switches sent.
  std::uint64_t sacks = 0;              ///< FastTune S-ACKs the switches sent.
  std::uint64_t events = 0;             ///< ns-3 events executed.
  double wallSeconds = 0;               ///< Wall-clock time of Simulator::Run.
};

/// @brief The path's base RTT as netcc-sim defines it (scenario_base_rtt): propagation both ways
/// over the hops of a sender-receiver path, plus one full packet and one ACK serialised per hop.
Time NetccNs3BaseRtt(const NetccNs3Scenario& s);

/// @brief For a netcc controller `s.cc`, set the Attribute defaults netcc-sim derives from the
/// set-up (HostRate and LineRate: the link rate; BaseRtt and MinRtt: NetccNs3BaseRtt; ExpectedFlows:
/// s.expectedFlows), so a run in ns-3 and one in netcc-sim configure the controller alike. Returns
/// the Attributes set ("Name=value" each); does nothing for an ns-3 congestion control.
std::vector<std::string> NetccNs3DeriveDefaults(const NetccNs3Scenario& s);

/// @brief Build `s` in a fresh simulation, run it, destroy it and return the measurements.
/// Throws std::invalid_argument naming the field, value and rule on a bad scenario.
NetccNs3Result RunNetccNs3Scenario(const NetccNs3Scenario& s);

/// @brief Write the time series as netcc-sim's CSV columns (time_ns, queue_bytes,
/// bottleneck_gbps, long<i>_cwnd_bytes, long<i>_rate_gbps, long<i>_goodput_gbps), whole or not
/// at all (a temporary file renamed into place). Returns "" or the error.
std::string WriteNetccNs3Csv(const std::string& path, const NetccNs3Result& r);

}  // namespace ns3

#endif  // NETCC_NS3_SCENARIO_H
