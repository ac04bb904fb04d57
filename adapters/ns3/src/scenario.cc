// SPDX-License-Identifier: MIT
// The dumbbell and incast set-ups of netcc's ns-3 examples and tests (scenario.h). C++17,
// stock ns-3 parts only.
#include "netcc-ns3/scenario.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "netcc-ns3/int.h"
#include "netcc-ns3/queue-disc.h"
#include "netcc-ns3/rate-transport.h"
#include "netcc-ns3/tcp-congestion-ops.h"
#include "ns3/boolean.h"
#include "ns3/bulk-send-application.h"
#include "ns3/bulk-send-helper.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/integer.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/pointer.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

namespace ns3 {
namespace {

[[noreturn]] void Bad(const std::string& field, const std::string& value, const std::string& rule) {
  throw std::invalid_argument(field + " = " + value + ": " + rule);
}

void Check(const NetccNs3Scenario& s) {
  if (s.topology != "dumbbell" && s.topology != "incast")
    Bad("topology", s.topology, "must be dumbbell or incast");
  if (s.transport != "tcp" && s.transport != "rate")
    Bad("transport", s.transport, "must be tcp or rate");
  if (s.transport == "rate") {
    if (netcc::ns3::find_controller_kind(s.cc) == nullptr)
      Bad("cc", s.cc, "is not a netcc controller (the rate transport runs netcc's controllers)");
  } else {
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(s.cc, &tid)) Bad("cc", s.cc, "is not a registered TypeId");
    if (!tid.IsChildOf(TcpCongestionOps::GetTypeId()) || !tid.HasConstructor())
      Bad("cc", s.cc, "must be a TCP congestion control (a child of ns3::TcpCongestionOps)");
  }
  if (s.flows < 1 || s.flows > 1024) Bad("flows", std::to_string(s.flows), "must be in [1, 1024]");
  if (s.topology == "incast" && s.incastFlows > 1024)
    Bad("incast_flows", std::to_string(s.incastFlows), "must be in [0, 1024]");
  if (s.rate.GetBitRate() == 0) Bad("rate", "0bps", "must be positive");
  if (s.delay.IsNegative())
    Bad("delay", std::to_string(s.delay.GetNanoSeconds()) + " ns", "must be >= 0");
  if (!s.duration.IsStrictlyPositive()) Bad("duration", "<= 0", "must be positive");
  if (!s.sample.IsStrictlyPositive()) Bad("sample", "<= 0", "must be positive");
  if (s.duration.GetNanoSeconds() / s.sample.GetNanoSeconds() > 10'000'000)
    Bad("sample", std::to_string(s.sample.GetNanoSeconds()) + " ns",
        "gives more than 10^7 samples over the duration");
  if (s.queue != "fifo" && s.queue != "red" && s.queue != "netcc" && s.queue != "netcc-red" &&
      s.queue != "netcc-bolt" && s.queue != "netcc-fasttune")
    Bad("queue", s.queue, "must be fifo, red, netcc, netcc-red, netcc-bolt or netcc-fasttune");
  if (s.redK < 1) Bad("red_k", "0", "must be at least one packet");
  if (s.bufferPackets < 1) Bad("buffer_packets", "0", "must be at least one packet");
  if (s.segmentSize < 64 || s.segmentSize > 9000)
    Bad("segment_size", std::to_string(s.segmentSize), "must be in [64, 9000] B");
  if (s.delAckCount < 1 || s.delAckCount > 64)
    Bad("del_ack_count", std::to_string(s.delAckCount), "must be in [1, 64]");
}

// Per-run measurement state; trace sinks reach it through bound pointers.
struct Monitor {
  std::uint64_t bottleneckBytes = 0;
  std::vector<std::uint64_t> flowBytes;
  std::vector<std::uint32_t> cwnd;
  std::vector<bool> connected;
};

void OnDequeue(Monitor* m, Ptr<const QueueDiscItem> item) {
  m->bottleneckBytes += item->GetSize();
}

void OnFlowRx(Monitor* m, std::uint32_t i, Ptr<const Packet> p, const Address& /*from*/) {
  m->flowBytes[i] += p->GetSize();
}

void OnCwnd(Monitor* m, std::uint32_t i, std::uint32_t /*old*/, std::uint32_t now) {
  m->cwnd[i] = now;
}

void OnRateRx(Monitor* m, std::uint32_t i, Ptr<const Packet> p, const Address& /*from*/) {
  NetccRateHeader h;
  if (p->PeekHeader(h) != 0 && h.type == NetccRateHeader::DATA) m->flowBytes[i] += h.length;
}

struct Recorder {
  const NetccNs3Scenario* s = nullptr;
  Monitor* mon = nullptr;
  NetccNs3Result* r = nullptr;
  Ptr<QueueDisc> bottleneck;
  std::vector<Ptr<BulkSendApplication>> longApps;
  std::vector<Ptr<NetccRateSender>> rateApps;
  std::uint64_t lastBottleneck = 0;
  std::vector<std::uint64_t> lastFlow;

  void Sample() {
    const double dt = s->sample.GetSeconds();
    r->timeNs.push_back(Simulator::Now().GetNanoSeconds());
    r->queueBytes.push_back(static_cast<double>(bottleneck->GetNBytes()));
    r->bottleneckGbps.push_back(static_cast<double>(mon->bottleneckBytes - lastBottleneck) * 8 /
                                dt / 1e9);
    lastBottleneck = mon->bottleneckBytes;
    for (std::size_t i = 0; i < rateApps.size(); ++i) {
      const std::uint64_t w = rateApps[i]->GetCwnd();
      const std::uint64_t bps = rateApps[i]->GetPacingRate();
      r->cwndBytes[i].push_back(w == UINT64_MAX ? 0.0 : static_cast<double>(w));
      r->rateGbps[i].push_back(bps == UINT64_MAX ? 0.0 : static_cast<double>(bps) / 1e9);
      r->goodputGbps[i].push_back(static_cast<double>(mon->flowBytes[i] - lastFlow[i]) * 8 / dt /
                                  1e9);
      lastFlow[i] = mon->flowBytes[i];
    }
    for (std::size_t i = 0; i < longApps.size(); ++i) {
      Ptr<Socket> sock = longApps[i]->GetSocket();
      double rate = 0;
      if (sock) {
        if (!mon->connected[i]) {
          sock->TraceConnectWithoutContext(
              "CongestionWindow", MakeBoundCallback(&OnCwnd, mon, static_cast<std::uint32_t>(i)));
          mon->connected[i] = true;
        }
        PointerValue ops;
        sock->GetAttribute("CongestionOps", ops);
        if (auto n = DynamicCast<NetccTcpCongestionOps>(ops.GetObject())) {
          const std::uint64_t bps = n->GetControllerPacingRate();
          if (bps != UINT64_MAX) rate = static_cast<double>(bps) / 1e9;
        }
      }
      r->cwndBytes[i].push_back(static_cast<double>(mon->cwnd[i]));
      r->rateGbps[i].push_back(rate);
      r->goodputGbps[i].push_back(static_cast<double>(mon->flowBytes[i] - lastFlow[i]) * 8 / dt /
                                  1e9);
      lastFlow[i] = mon->flowBytes[i];
    }
    if (Simulator::Now() + s->sample <= s->duration)
      Simulator::Schedule(s->sample, &Recorder::Sample, this);
  }
};

void Summarise(const NetccNs3Scenario& s, NetccNs3Result& r) {
  const std::int64_t from = s.duration.GetNanoSeconds() * 3 / 4;
  std::size_t peak = 0;
  for (std::size_t k = 0; k < r.queueBytes.size(); ++k)
    if (r.queueBytes[k] > r.queueBytes[peak]) peak = k;
  if (!r.queueBytes.empty()) {
    const std::int64_t eventAt = s.topology == "incast" ? s.incastAt.GetNanoSeconds() : 0;
    for (std::size_t k = peak; k < r.queueBytes.size(); ++k) {
      if (r.queueBytes[k] <= 0.1 * r.queueBytes[peak]) {
        r.drainUs = static_cast<double>(r.timeNs[k] - std::min(eventAt, r.timeNs[peak])) / 1000;
        break;
      }
    }
  }
  double qsum = 0, tsum = 0;
  std::size_t n = 0;
  std::vector<double> flow(r.goodputGbps.size(), 0.0);
  for (std::size_t k = 0; k < r.timeNs.size(); ++k) {
    r.peakQueueBytes = std::max(r.peakQueueBytes, r.queueBytes[k]);
    if (r.timeNs[k] <= from) continue;
    qsum += r.queueBytes[k];
    tsum += r.bottleneckGbps[k];
    for (std::size_t i = 0; i < flow.size(); ++i) flow[i] += r.goodputGbps[i][k];
    ++n;
  }
  if (n == 0) return;
  r.settledQueueBytes = qsum / static_cast<double>(n);
  r.throughputGbps = tsum / static_cast<double>(n);
  double sum = 0, sq = 0;
  for (double& f : flow) {
    f /= static_cast<double>(n);
    sum += f;
    sq += f * f;
  }
  r.flowGoodputGbps = flow;
  r.tailGoodputGbps = sum;
  r.jain = sq > 0 ? sum * sum / (static_cast<double>(flow.size()) * sq) : 0;
}

}  // namespace

Time NetccNs3BaseRtt(const NetccNs3Scenario& s) {
  const std::int64_t hops = s.topology == "incast" ? 2 : 3;
  const std::uint64_t bits = (std::uint64_t{s.segmentSize} + 40 + 40) * 8;  // a packet, an ACK
  const double serialise = static_cast<double>(bits) / static_cast<double>(s.rate.GetBitRate());
  return NanoSeconds(2 * hops * s.delay.GetNanoSeconds()) + Seconds(serialise * hops);
}

std::vector<std::string> NetccNs3DeriveDefaults(const NetccNs3Scenario& s) {
  std::vector<std::string> set;
  const auto* kind = netcc::ns3::find_controller_kind(s.cc);
  if (kind == nullptr) return set;
  const std::string typeId =
      s.transport == "rate" ? kind->type_id + netcc::ns3::sender_suffix : kind->type_id;
  const std::uint32_t flows = s.expectedFlows > 0
                                  ? s.expectedFlows
                                  : (s.topology == "incast" ? s.incastFlows + 1 : s.flows);
  for (const auto& p : kind->params) {
    const std::string name = typeId + "::" + p.attribute;
    if (p.attribute == "HostRate" || p.attribute == "LineRate") {
      Config::SetDefault(name, DataRateValue(s.rate));
      set.push_back(p.attribute + "=" + std::to_string(s.rate.GetBitRate()) + "bps");
    } else if (p.attribute == "BaseRtt" || p.attribute == "MinRtt") {
      Config::SetDefault(name, TimeValue(NetccNs3BaseRtt(s)));
      set.push_back(p.attribute + "=" + std::to_string(NetccNs3BaseRtt(s).GetNanoSeconds()) + "ns");
    } else if (p.attribute == "ExpectedFlows") {
      Config::SetDefault(name, IntegerValue(flows));
      set.push_back(p.attribute + "=" + std::to_string(flows));
    }
  }
  return set;
}

NetccNs3Result RunNetccNs3Scenario(const NetccNs3Scenario& s) {
  Check(s);
  RngSeedManager::SetSeed(1);
  RngSeedManager::SetRun(s.seed);

  // Every default this run relies on, set each time (a process may run several scenarios).
  Config::SetDefault(
      "ns3::TcpL4Protocol::SocketType",
      TypeIdValue(TypeId::LookupByName(s.transport == "tcp" ? s.cc : "ns3::TcpNewReno")));
  Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(s.segmentSize));
  Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(s.delAckCount));
  Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1 << 24));
  Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1 << 24));
  Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(1)));
  // TCP timestamps count milliseconds in ns-3: RTTs from them are 0 or 1 ms in a datacenter.
  // Without them RTT samples are timed from each segment's send time, to the nanosecond.
  Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
  Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(MicroSeconds(1)));
  Config::SetDefault("ns3::RttMeanDeviation::Alpha", DoubleValue(s.rawRtt ? 1.0 : 0.125));

  const bool incast = s.topology == "incast";
  const std::uint32_t senders = incast ? s.incastFlows + 1 : s.flows;
  const std::uint32_t receivers = incast ? 1 : s.flows;
  NodeContainer tx, rx, sw;
  tx.Create(senders);
  rx.Create(receivers);
  sw.Create(incast ? 1 : 2);
  InternetStackHelper stack;
  stack.Install(tx);
  stack.Install(rx);
  stack.Install(sw);

  PointToPointHelper p2p;
  p2p.SetDeviceAttribute("DataRate", DataRateValue(s.rate));
  p2p.SetChannelAttribute("Delay", TimeValue(s.delay));
  // A one-packet device queue: the queue forms in the queue disc, where it is measured.
  p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize("1p")));

  TrafficControlHelper host;
  host.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize",
                        QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, s.bufferPackets)));
  TrafficControlHelper port;
  if (s.queue == "red") {
    port.SetRootQueueDisc("ns3::RedQueueDisc", "MinTh", DoubleValue(s.redK), "MaxTh",
                          DoubleValue(s.redK), "QW", DoubleValue(1), "UseEcn", BooleanValue(true),
                          "UseHardDrop", BooleanValue(false), "MeanPktSize",
                          UintegerValue(s.segmentSize + 40), "LinkBandwidth", DataRateValue(s.rate),
                          "LinkDelay", TimeValue(s.delay), "MaxSize",
                          QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, s.bufferPackets)));
  } else if (s.queue == "netcc-fasttune") {
    // FastTune's switch (ISPA'21 Algorithm 1): S-ACKs and ACK padding, no INT on data.
    port.SetRootQueueDisc("ns3::NetccQueueDisc", "MaxSize",
                          QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, s.bufferPackets)), "Int",
                          BooleanValue(false), "FastTune", BooleanValue(true));
  } else if (s.queue == "netcc-bolt") {
    // Bolt's switch (NSDI'23 Algorithm 1): SRCs at CC_THRESH, PRU and supply matching.
    port.SetRootQueueDisc("ns3::NetccQueueDisc", "MaxSize",
                          QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, s.bufferPackets)), "Int",
                          BooleanValue(false), "Bolt", BooleanValue(true), "BoltMtu",
                          UintegerValue(s.segmentSize + 40));
  } else if (s.queue == "netcc" || s.queue == "netcc-red") {
    // netcc's switch functions: INT push at dequeue; with netcc-red, netcc's RED/ECN, a ramp
    // from kMin to kMax bytes up to pMax, or (kMax = 0) a step at K packets (DCTCP's marking).
    const std::uint64_t k = std::uint64_t{s.redK} * (s.segmentSize + 40);
    const bool ramp = s.kMax > 0;
    port.SetRootQueueDisc(
        "ns3::NetccQueueDisc", "MaxSize",
        QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, s.bufferPackets)), "Int",
        BooleanValue(true), "Ecn", BooleanValue(s.queue == "netcc-red"), "KMin",
        UintegerValue(ramp ? s.kMin : k), "KMax", UintegerValue(ramp ? s.kMax : k), "PMax",
        DoubleValue(ramp ? s.pMax : 1.0), "EcnAtDequeue", BooleanValue(s.ecnAtDequeue));
  } else {
    port = host;
  }

  Ipv4AddressHelper addr("10.0.0.0", "255.255.255.0");
  std::vector<Ipv4Address> rxAddr(receivers);
  NetDeviceContainer bottleneckLink;
  QueueDiscContainer switchQueues;
  auto connect = [&](Ptr<Node> a, Ptr<Node> b, bool aIsSwitch, bool bIsSwitch) {
    NetDeviceContainer d = p2p.Install(a, b);
    QueueDiscContainer qa = (aIsSwitch ? port : host).Install(d.Get(0));
    QueueDiscContainer qb = (bIsSwitch ? port : host).Install(d.Get(1));
    if (aIsSwitch) switchQueues.Add(qa);
    if (bIsSwitch) switchQueues.Add(qb);
    Ipv4InterfaceContainer i = addr.Assign(d);
    addr.NewNetwork();
    return std::make_pair(d, i);
  };
  Ptr<Node> first = sw.Get(0);
  Ptr<Node> last = incast ? sw.Get(0) : sw.Get(1);
  for (std::uint32_t i = 0; i < senders; ++i) connect(tx.Get(i), first, false, true);
  if (!incast) bottleneckLink = connect(first, last, true, true).first;
  for (std::uint32_t i = 0; i < receivers; ++i) {
    auto [d, ifc] = connect(last, rx.Get(i), true, false);
    rxAddr[i] = ifc.GetAddress(1);
    if (incast) bottleneckLink = d;
  }
  Ipv4GlobalRoutingHelper::PopulateRoutingTables();
  const bool rate = s.transport == "rate";
  // INT controllers need their hosts to mark data and reflect INT onto ACKs.
  if (const auto* kind = netcc::ns3::find_controller_kind(s.cc); kind != nullptr && !rate) {
    // FastTune's INT comes reflected by the receiver, as HPCC's does (docs/ns3.md).
    if (kind->need == netcc::ns3::feedback_need::int_ ||
        kind->need == netcc::ns3::feedback_need::int_padded) {
      NetccIntHelper::Install(tx);
      NetccIntHelper::Install(rx);
    }
  }

  NetccNs3Result r;
  Monitor mon;
  Recorder rec;
  const std::uint32_t longFlows = incast ? 1 : s.flows;
  mon.flowBytes.assign(longFlows, 0);
  mon.cwnd.assign(longFlows, 0);
  mon.connected.assign(longFlows, false);
  r.cwndBytes.resize(longFlows);
  r.rateGbps.resize(longFlows);
  r.goodputGbps.resize(longFlows);

  const std::uint16_t basePort = 5000;
  for (std::uint32_t f = 0; f < senders; ++f) {
    const std::uint32_t to = incast ? 0 : f;
    const std::uint16_t p = static_cast<std::uint16_t>(basePort + f);
    const bool isLong = f < longFlows;
    const Time start = isLong ? Seconds(0) : s.incastAt;
    if (rate) {
      Ptr<NetccRateReceiver> recv = CreateObject<NetccRateReceiver>();
      recv->SetAttribute("Port", UintegerValue(p));
      rx.Get(to)->AddApplication(recv);
      recv->SetStartTime(Seconds(0));
      if (isLong) recv->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnRateRx, &mon, f));
      Ptr<NetccRateSender> send = NetccRateSender::Create(s.cc);
      send->SetAttribute("Remote", AddressValue(InetSocketAddress(rxAddr[to], p)));
      send->SetAttribute("PacketSize", UintegerValue(s.segmentSize + 12));
      send->SetAttribute("MaxBytes", UintegerValue(isLong ? 0 : s.incastBytes));
      tx.Get(f)->AddApplication(send);
      send->SetStartTime(start);
      if (isLong) rec.rateApps.push_back(send);
      continue;
    }
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), p));
    ApplicationContainer a = sink.Install(rx.Get(to));
    a.Start(Seconds(0));
    if (isLong) a.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnFlowRx, &mon, f));
    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(rxAddr[to], p));
    bulk.SetAttribute("SendSize", UintegerValue(s.segmentSize));
    bulk.SetAttribute("MaxBytes", UintegerValue(isLong ? 0 : s.incastBytes));
    ApplicationContainer b = bulk.Install(tx.Get(f));
    b.Start(start);
    if (isLong) rec.longApps.push_back(DynamicCast<BulkSendApplication>(b.Get(0)));
  }

  Ptr<TrafficControlLayer> tc = bottleneckLink.Get(0)->GetNode()->GetObject<TrafficControlLayer>();
  rec.bottleneck = tc->GetRootQueueDiscOnDevice(bottleneckLink.Get(0));
  rec.bottleneck->TraceConnectWithoutContext("Dequeue", MakeBoundCallback(&OnDequeue, &mon));
  rec.s = &s;
  rec.mon = &mon;
  rec.r = &r;
  rec.lastFlow.assign(longFlows, 0);
  Simulator::Schedule(s.sample, &Recorder::Sample, &rec);

  Simulator::Stop(s.duration);
  const auto t0 = std::chrono::steady_clock::now();
  Simulator::Run();
  r.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.events = Simulator::GetEventCount();
  const QueueDisc::Stats& st = rec.bottleneck->GetStats();
  r.drops = st.nTotalDroppedPackets;
  r.marks = st.nTotalMarkedPackets;
  for (auto it = switchQueues.Begin(); it != switchQueues.End(); ++it) {
    if (auto n = DynamicCast<NetccQueueDisc>(*it)) {
      r.srcs += n->GetSrcs();
      r.sacks += n->GetSacks();
    }
  }
  switchQueues = QueueDiscContainer();
  rec.bottleneck = nullptr;
  rec.longApps.clear();
  rec.rateApps.clear();
  Simulator::Destroy();
  Summarise(s, r);
  return r;
}

std::string WriteNetccNs3Csv(const std::string& path, const NetccNs3Result& r) {
  const std::string tmp = path + ".partial";
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) return "cannot write " + tmp;
    out << "time_ns,queue_bytes,bottleneck_gbps";
    for (std::size_t i = 0; i < r.cwndBytes.size(); ++i)
      out << ",long" << i << "_cwnd_bytes,long" << i << "_rate_gbps,long" << i << "_goodput_gbps";
    out << '\n';
    for (std::size_t k = 0; k < r.timeNs.size(); ++k) {
      out << r.timeNs[k] << ',' << r.queueBytes[k] << ',' << r.bottleneckGbps[k];
      for (std::size_t i = 0; i < r.cwndBytes.size(); ++i)
        out << ',' << r.cwndBytes[i][k] << ',' << r.rateGbps[i][k] << ',' << r.goodputGbps[i][k];
      out << '\n';
    }
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      return "cannot write " + tmp;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return "cannot rename " + tmp + " to " + path;
  }
  return "";
}

}  // namespace ns3
