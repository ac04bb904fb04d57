// SPDX-License-Identifier: MIT
// ns3::NetccQueueDisc: a FIFO running netcc's RED/ECN and INT push (queue-disc.h). C++17.
#include "netcc-ns3/queue-disc.h"

#include <iostream>
#include <limits>
#include <map>
#include <tuple>

#include "netcc-ns3/int.h"
#include "netcc-ns3/rate-transport.h"
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/udp-header.h"
#include "ns3/udp-l4-protocol.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3 {

NS_LOG_COMPONENT_DEFINE("NetccQueueDisc");
NS_OBJECT_ENSURE_REGISTERED(NetccQueueDisc);

TypeId NetccQueueDisc::GetTypeId() {
  static TypeId tid =
      TypeId("ns3::NetccQueueDisc")
          .SetParent<QueueDisc>()
          .SetGroupName("Netcc")
          .AddConstructor<NetccQueueDisc>()
          .AddAttribute("MaxSize", "The queue disc's capacity", QueueSizeValue(QueueSize("1000p")),
                        MakeQueueSizeAccessor(&QueueDisc::SetMaxSize, &QueueDisc::GetMaxSize),
                        MakeQueueSizeChecker())
          .AddAttribute("Int", "Append an INT hop record at dequeue to packets with a NetccIntTag",
                        BooleanValue(true), MakeBooleanAccessor(&NetccQueueDisc::m_int),
                        MakeBooleanChecker())
          .AddAttribute("MaxHops", "Hop records a packet may collect (netcc int_push.max_hops)",
                        UintegerValue(netcc::ns3::max_int_hops),
                        MakeUintegerAccessor(&NetccQueueDisc::m_maxHops),
                        MakeUintegerChecker<std::uint8_t>(1, netcc::ns3::max_int_hops))
          .AddAttribute("Ecn", "Run netcc's RED/ECN (mark ECT packets, drop selected Not-ECT)",
                        BooleanValue(false), MakeBooleanAccessor(&NetccQueueDisc::m_ecn),
                        MakeBooleanChecker())
          .AddAttribute("EcnAtDequeue",
                        "Decide on the queue a packet leaves (RoCE switches) instead of the one it "
                        "joins",
                        BooleanValue(false), MakeBooleanAccessor(&NetccQueueDisc::m_ecnAtDequeue),
                        MakeBooleanChecker())
          .AddAttribute("KMin", "RED K_min, bytes", UintegerValue(5'000),
                        MakeUintegerAccessor(&NetccQueueDisc::m_kMin),
                        MakeUintegerChecker<std::uint64_t>())
          .AddAttribute("KMax", "RED K_max, bytes", UintegerValue(200'000),
                        MakeUintegerAccessor(&NetccQueueDisc::m_kMax),
                        MakeUintegerChecker<std::uint64_t>())
          .AddAttribute("PMax", "RED P_max, the marking probability at K_max", DoubleValue(0.01),
                        MakeDoubleAccessor(&NetccQueueDisc::m_pMax),
                        MakeDoubleChecker<double>(0, 1))
          .AddAttribute("DropNotEct", "Drop a selected Not-ECT packet (RFC 3168 §7)",
                        BooleanValue(true), MakeBooleanAccessor(&NetccQueueDisc::m_dropNotEct),
                        MakeBooleanChecker())
          .AddAttribute("Bolt", "Run Bolt's switch on the rate transport's data packets",
                        BooleanValue(false), MakeBooleanAccessor(&NetccQueueDisc::m_bolt),
                        MakeBooleanChecker())
          .AddAttribute("BoltCcThresh", "Bolt CC_THRESH: the queue (bytes) from which SRCs go out",
                        UintegerValue(1500),
                        MakeUintegerAccessor(&NetccQueueDisc::SetBoltCcThresh,
                                             &NetccQueueDisc::GetBoltCcThresh),
                        MakeUintegerChecker<std::uint64_t>())
          .AddAttribute(
              "BoltMtu", "Bolt MTU, bytes (a supply token's unit)", UintegerValue(1500),
              MakeUintegerAccessor(&NetccQueueDisc::SetBoltMtu, &NetccQueueDisc::GetBoltMtu),
              MakeUintegerChecker<std::uint64_t>())
          .AddAttribute(
              "BoltPru", "Bolt proactive ramp-up (§3.2)", BooleanValue(true),
              MakeBooleanAccessor(&NetccQueueDisc::SetBoltPru, &NetccQueueDisc::GetBoltPru),
              MakeBooleanChecker())
          .AddAttribute("BoltSm", "Bolt supply matching (§3.3)", BooleanValue(true),
                        MakeBooleanAccessor(&NetccQueueDisc::SetBoltSm, &NetccQueueDisc::GetBoltSm),
                        MakeBooleanChecker())
          .AddAttribute("FastTune", "Run FastTune's switch (S-ACKs and ACK padding)",
                        BooleanValue(false), MakeBooleanAccessor(&NetccQueueDisc::m_fasttune),
                        MakeBooleanChecker())
          .AddAttribute(
              "FastTuneSacks", "FastTune: send S-ACKs (Algorithm 1 lines 2-5)", BooleanValue(true),
              MakeBooleanAccessor(&NetccQueueDisc::SetFtSacks, &NetccQueueDisc::GetFtSacks),
              MakeBooleanChecker())
          .AddAttribute(
              "FastTunePadding", "FastTune: pad ACKs with INT (lines 6-8)", BooleanValue(true),
              MakeBooleanAccessor(&NetccQueueDisc::SetFtPadding, &NetccQueueDisc::GetFtPadding),
              MakeBooleanChecker());
  return tid;
}

NetccQueueDisc::NetccQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::SINGLE_INTERNAL_QUEUE),
      m_uv(CreateObject<UniformRandomVariable>()) {}

NetccQueueDisc::~NetccQueueDisc() = default;

int64_t NetccQueueDisc::AssignStreams(int64_t stream) {
  m_uv->SetStream(stream);
  return 1;
}

std::uint64_t NetccQueueDisc::LinkRate() {
  if (m_rate != 0) return m_rate;
  Ptr<NetDeviceQueueInterface> ndqi = GetNetDeviceQueueInterface();
  Ptr<NetDevice> dev = ndqi ? ndqi->GetObject<NetDevice>() : nullptr;
  DataRateValue rate;
  if (dev && dev->GetAttributeFailSafe("DataRate", rate)) m_rate = rate.Get().GetBitRate();
  return m_rate;
}

bool NetccQueueDisc::Red(Ptr<QueueDiscItem> item, std::uint64_t backlog, bool dequeue) {
  std::uint8_t ecn = 0;
  if (auto ip = DynamicCast<Ipv4QueueDiscItem>(item)) ecn = ip->GetHeader().GetEcn();
  const auto draw = static_cast<std::uint32_t>(m_uv->GetInteger(0, 0xFFFF'FFFFu));
  switch (netcc::ns3::red_decide(Config(), ecn, backlog, draw)) {
    case netcc::ns3::red_verdict::mark:
      Mark(item, kMark);
      return true;
    case netcc::ns3::red_verdict::drop:
      if (dequeue) {
        DropAfterDequeue(item, kRedDrop);
      } else {
        DropBeforeEnqueue(item, kRedDrop);
      }
      return false;
    case netcc::ns3::red_verdict::pass:
      break;
  }
  return true;
}

bool NetccQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item) {
  if (GetCurrentSize() + item > GetMaxSize()) {
    DropBeforeEnqueue(item, kOverflow);
    return false;
  }
  if (m_ecn && !m_ecnAtDequeue && !Red(item, GetNBytes(), false)) return false;
  if (m_bolt) Bolt(item);
  if (m_fasttune) FastTune(item);
  return GetInternalQueue(0)->Enqueue(item);
}

Ptr<QueueDiscItem> NetccQueueDisc::DoDequeue() {
  while (true) {
    Ptr<QueueDiscItem> item = GetInternalQueue(0)->Dequeue();
    if (!item) return nullptr;
    const std::uint64_t left = GetInternalQueue(0)->GetNBytes();
    if (m_ecn && m_ecnAtDequeue && !Red(item, left + item->GetSize(), true)) continue;
    m_txBytes += item->GetSize();
    if (m_int) {
      NetccIntTag tag;
      Ptr<Packet> p = item->GetPacket();
      if (p->PeekPacketTag(tag)) {
        netcc::ns3::port_state port{left, m_txBytes, LinkRate()};
        if (netcc::ns3::int_push(tag.hops, tag.count, m_maxHops, Simulator::Now().GetNanoSeconds(),
                                 port)) {
          p->ReplacePacketTag(tag);
        }
      }
    }
    return item;
  }
}

void NetccQueueDisc::Bolt(Ptr<QueueDiscItem> item) {
  auto ip = DynamicCast<Ipv4QueueDiscItem>(item);
  if (!ip || ip->GetHeader().GetProtocol() != UdpL4Protocol::PROT_NUMBER) return;
  Ptr<Packet> p = item->GetPacket();
  UdpHeader udp;
  NetccRateHeader h;
  if (p->GetSize() < udp.GetSerializedSize() + h.GetSerializedSize()) return;
  p->RemoveHeader(udp);
  p->RemoveHeader(h);
  if (h.type == NetccRateHeader::DATA) {
    netcc::ns3::bolt_packet b;
    b.first = (h.flags & NetccRateHeader::FIRST) != 0;
    b.last = (h.flags & NetccRateHeader::LAST) != 0;
    b.inc = (h.flags & NetccRateHeader::INC) != 0;
    b.dec = (h.flags & NetccRateHeader::DEC) != 0;
    b.t_data_tx = h.txTs32;
    const netcc::ns3::bolt_src_out src =
        netcc::ns3::bolt_on_packet(m_boltPort, b, item->GetSize(), GetNBytes(), LinkRate(),
                                   Simulator::Now().GetNanoSeconds(), m_boltConfig);
    h.flags = static_cast<std::uint8_t>((h.flags & ~(NetccRateHeader::INC | NetccRateHeader::DEC)) |
                                        (b.inc ? NetccRateHeader::INC : 0) |
                                        (b.dec ? NetccRateHeader::DEC : 0));
    if (src.send) {
      // After this enqueue returns: the SRC leaves through this node's IP stack.
      Simulator::ScheduleNow(&NetccQueueDisc::SendSrc, this, ip->GetHeader().GetSource(),
                             udp.GetSourcePort(), src);
    }
  }
  p->AddHeader(h);
  p->AddHeader(udp);
}

Ptr<Socket> NetccQueueDisc::NodeSocket() {
  if (!m_srcSocket) {
    Ptr<NetDeviceQueueInterface> ndqi = GetNetDeviceQueueInterface();
    Ptr<NetDevice> dev = ndqi ? ndqi->GetObject<NetDevice>() : nullptr;
    if (!dev) return nullptr;
    m_srcSocket = Socket::CreateSocket(dev->GetNode(), UdpSocketFactory::GetTypeId());
    m_srcSocket->Bind();
  }
  return m_srcSocket;
}

netcc::ns3::port_state NetccQueueDisc::GetPortState() {
  return netcc::ns3::port_state{GetNBytes(), m_txBytes, LinkRate()};
}

namespace {

// A flow as its data packets name it: source address and port, destination address and port.
using FtKey = std::tuple<std::uint32_t, std::uint16_t, std::uint32_t, std::uint16_t>;

// One switch's FastTune state, shared by its ports: NewACK per flow, and its NetccQueueDiscs by
// device (the port a flow's data leaves by, for padding its ACKs).
class NetccFastTuneNode : public Object {
 public:
  static TypeId GetTypeId() {
    static TypeId tid = TypeId("ns3::NetccFastTuneNode").SetParent<Object>().SetGroupName("Netcc");
    return tid;
  }
  std::map<FtKey, bool> newAck;
  std::map<NetDevice*, Ptr<NetccQueueDisc>> ports;

 protected:
  void DoDispose() override {
    ports.clear();
    Object::DoDispose();
  }
};

}  // namespace

void NetccQueueDisc::FastTune(Ptr<QueueDiscItem> item) {
  auto ip = DynamicCast<Ipv4QueueDiscItem>(item);
  if (!ip) return;
  Ptr<NetDeviceQueueInterface> ndqi = GetNetDeviceQueueInterface();
  Ptr<NetDevice> dev = ndqi ? ndqi->GetObject<NetDevice>() : nullptr;
  if (!dev) return;
  Ptr<Node> node = dev->GetNode();
  Ptr<NetccFastTuneNode> st = node->GetObject<NetccFastTuneNode>();
  if (!st) {
    st = CreateObject<NetccFastTuneNode>();
    node->AggregateObject(st);
  }
  st->ports[PeekPointer(dev)] = this;

  const Ipv4Header& iph = ip->GetHeader();
  Ptr<Packet> p = item->GetPacket();
  netcc::ns3::fasttune_kind kind;
  std::uint16_t sport = 0, dport = 0;
  std::uint64_t dataTs = 0;
  bool rate = false;
  if (iph.GetProtocol() == TcpL4Protocol::PROT_NUMBER) {
    TcpHeader tcp;
    if (p->PeekHeader(tcp) == 0) return;
    sport = tcp.GetSourcePort();
    dport = tcp.GetDestinationPort();
    if (p->GetSize() > tcp.GetSerializedSize()) {
      kind = netcc::ns3::fasttune_kind::data;
    } else if (tcp.GetFlags() & TcpHeader::ACK) {
      kind = netcc::ns3::fasttune_kind::host_ack;
    } else {
      return;
    }
  } else if (iph.GetProtocol() == UdpL4Protocol::PROT_NUMBER) {
    Ptr<Packet> copy = p->Copy();
    UdpHeader udp;
    NetccRateHeader h;
    if (copy->GetSize() < udp.GetSerializedSize() + h.GetSerializedSize()) return;
    copy->RemoveHeader(udp);
    copy->RemoveHeader(h);
    sport = udp.GetSourcePort();
    dport = udp.GetDestinationPort();
    rate = true;
    dataTs = h.ts;
    if (h.type == NetccRateHeader::DATA) {
      kind = netcc::ns3::fasttune_kind::data;
    } else if (h.type == NetccRateHeader::ACK) {
      kind = netcc::ns3::fasttune_kind::host_ack;
    } else if (h.type == NetccRateHeader::SACK) {
      kind = netcc::ns3::fasttune_kind::switch_ack;
    } else {
      return;
    }
  } else {
    return;
  }
  const bool data = kind == netcc::ns3::fasttune_kind::data;
  const FtKey key = data ? FtKey{iph.GetSource().Get(), sport, iph.GetDestination().Get(), dport}
                         : FtKey{iph.GetDestination().Get(), dport, iph.GetSource().Get(), sport};
  // The data's egress port: this one for data; for an ACK, the port toward its source.
  NetccQueueDisc* dataPort = this;
  if (!data) {
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    Ptr<Ipv4RoutingProtocol> routing = ipv4 ? ipv4->GetRoutingProtocol() : nullptr;
    if (!routing) return;
    Ipv4Header toReceiver;
    toReceiver.SetDestination(iph.GetSource());
    toReceiver.SetProtocol(iph.GetProtocol());
    Socket::SocketErrno err;
    Ptr<Ipv4Route> route = routing->RouteOutput(nullptr, toReceiver, nullptr, err);
    if (!route) return;
    auto it = st->ports.find(PeekPointer(route->GetOutputDevice()));
    if (it == st->ports.end()) return;
    dataPort = PeekPointer(it->second);
  }
  NetccIntEchoTag echo;
  const bool hadEcho = !data && p->PeekPacketTag(echo);
  auto [flag, inserted] = st->newAck.emplace(key, true);
  static_cast<void>(inserted);
  const netcc::ns3::fasttune_out out = netcc::ns3::fasttune_on_packet(
      flag->second, kind, echo.hops, echo.count, dataPort->GetPortState(),
      Simulator::Now().GetNanoSeconds(), m_ftConfig);
  if (!data && echo.count > 0) {
    if (hadEcho) {
      p->ReplacePacketTag(echo);
    } else {
      p->AddPacketTag(echo);
    }
  }
  // S-ACKs travel the rate transport (ns-3's TCP would take a switch-made segment for a
  // duplicate ACK: docs/ns3.md).
  if (out.send && rate) {
    Simulator::ScheduleNow(&NetccQueueDisc::SendSack, this, iph.GetSource(), sport, dataTs, out);
  }
}

void NetccQueueDisc::SendSack(Ipv4Address to, std::uint16_t port, std::uint64_t ts,
                              netcc::ns3::fasttune_out s) {
  Ptr<Socket> sock = NodeSocket();
  if (!sock) return;
  NetccRateHeader h;
  h.type = NetccRateHeader::SACK;
  h.ts = ts;
  Ptr<Packet> p = Create<Packet>(0);
  p->AddHeader(h);
  NetccIntEchoTag echo;
  echo.count = s.count;
  std::copy(s.hops, s.hops + netcc::ns3::max_int_hops, echo.hops);
  p->AddPacketTag(echo);
  sock->SendTo(p, 0, InetSocketAddress(to, port));
  ++m_sacks;
}

void NetccQueueDisc::SendSrc(Ipv4Address to, std::uint16_t port, netcc::ns3::bolt_src_out src) {
  if (!NodeSocket()) return;
  NetccRateHeader h;
  h.type = NetccRateHeader::SRC;
  h.queue = src.queue;
  h.rate = src.rate_bps;
  h.txTs32 = src.t_data_tx;
  Ptr<Packet> p = Create<Packet>(0);
  p->AddHeader(h);
  m_srcSocket->SendTo(p, 0, InetSocketAddress(to, port));
  ++m_srcs;
}

void NetccQueueDisc::DoDispose() {
  m_srcSocket = nullptr;
  QueueDisc::DoDispose();
}

void NetccQueueDisc::SetBoltCcThresh(std::uint64_t v) {
  m_boltConfig.cc_thresh = v;
}
std::uint64_t NetccQueueDisc::GetBoltCcThresh() const {
  return m_boltConfig.cc_thresh;
}
void NetccQueueDisc::SetBoltMtu(std::uint64_t v) {
  m_boltConfig.mtu = v;
}
std::uint64_t NetccQueueDisc::GetBoltMtu() const {
  return m_boltConfig.mtu;
}
void NetccQueueDisc::SetBoltPru(bool v) {
  m_boltConfig.pru = v;
}
bool NetccQueueDisc::GetBoltPru() const {
  return m_boltConfig.pru;
}
void NetccQueueDisc::SetBoltSm(bool v) {
  m_boltConfig.sm = v;
}
bool NetccQueueDisc::GetBoltSm() const {
  return m_boltConfig.sm;
}
void NetccQueueDisc::SetFtSacks(bool v) {
  m_ftConfig.switch_feedback = v;
}
bool NetccQueueDisc::GetFtSacks() const {
  return m_ftConfig.switch_feedback;
}
void NetccQueueDisc::SetFtPadding(bool v) {
  m_ftConfig.ack_padding = v;
}
bool NetccQueueDisc::GetFtPadding() const {
  return m_ftConfig.ack_padding;
}

bool NetccQueueDisc::CheckConfig() {
  if (GetNQueueDiscClasses() > 0 || GetNPacketFilters() > 0) {
    NS_LOG_ERROR("NetccQueueDisc has no classes and no packet filters");
    return false;
  }
  if (m_bolt) {
    const std::string why = netcc::ns3::check_bolt(m_boltConfig);
    if (!why.empty()) {
      std::cerr << "netcc: ns3::NetccQueueDisc: " << why << '\n';
      return false;
    }
  }
  if (m_ecn) {
    const std::string why = netcc::ns3::check_red(Config());
    if (!why.empty()) {
      std::cerr << "netcc: ns3::NetccQueueDisc: " << why << '\n';
      return false;
    }
  }
  if (GetNInternalQueues() == 0) {
    AddInternalQueue(CreateObjectWithAttributes<DropTailQueue<QueueDiscItem>>(
        "MaxSize", QueueSizeValue(GetMaxSize())));
  }
  return GetNInternalQueues() == 1;
}

void NetccQueueDisc::InitializeParams() {}

netcc::ns3::red_config NetccQueueDisc::Config() const {
  return netcc::ns3::red_config{m_kMin, m_kMax, m_pMax, m_dropNotEct};
}

}  // namespace ns3
