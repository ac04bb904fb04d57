// SPDX-License-Identifier: MIT
// The rate-based transport: NetccRateHeader, NetccRateSender, NetccRateReceiver
// (rate-transport.h). C++17, ns-3 headers and bridge.h only.
#include "netcc-ns3/rate-transport.h"

#include <algorithm>
#include <limits>

#include "netcc-ns3/int.h"
#include "ns3/address-utils.h"
#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3 {

NS_LOG_COMPONENT_DEFINE("NetccRateTransport");
NS_OBJECT_ENSURE_REGISTERED(NetccRateHeader);
NS_OBJECT_ENSURE_REGISTERED(NetccRateSender);
NS_OBJECT_ENSURE_REGISTERED(NetccRateReceiver);

namespace {
constexpr std::uint32_t kHeaderSize = 1 + 1 + 8 + 4 + 8 + 8 + 8 + 4;
constexpr std::uint32_t kUdpIpBytes = 28;
constexpr std::uint8_t kEct0 = 0x02;
constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();
}  // namespace

// ---------------------------------------------------------------- header

TypeId NetccRateHeader::GetTypeId() {
  static TypeId tid = TypeId("ns3::NetccRateHeader")
                          .SetParent<Header>()
                          .SetGroupName("Netcc")
                          .AddConstructor<NetccRateHeader>();
  return tid;
}
TypeId NetccRateHeader::GetInstanceTypeId() const {
  return GetTypeId();
}
uint32_t NetccRateHeader::GetSerializedSize() const {
  return kHeaderSize;
}

void NetccRateHeader::Serialize(Buffer::Iterator i) const {
  i.WriteU8(type);
  i.WriteU8(flags);
  i.WriteHtonU64(seq);
  i.WriteHtonU32(length);
  i.WriteHtonU64(ts);
  i.WriteHtonU64(queue);
  i.WriteHtonU64(rate);
  i.WriteHtonU32(txTs32);
}

uint32_t NetccRateHeader::Deserialize(Buffer::Iterator i) {
  type = i.ReadU8();
  flags = i.ReadU8();
  seq = i.ReadNtohU64();
  length = i.ReadNtohU32();
  ts = i.ReadNtohU64();
  queue = i.ReadNtohU64();
  rate = i.ReadNtohU64();
  txTs32 = i.ReadNtohU32();
  return kHeaderSize;
}

void NetccRateHeader::Print(std::ostream& os) const {
  os << "type=" << unsigned{type} << " flags=" << unsigned{flags} << " seq=" << seq
     << " len=" << length << " ts=" << ts;
}

// ---------------------------------------------------------------- sender

TypeId NetccRateSender::GetTypeId() {
  static TypeId tid =
      TypeId("ns3::NetccRateSender")
          .SetParent<Application>()
          .SetGroupName("Netcc")
          .AddAttribute("Remote", "The receiver's address and port", AddressValue(),
                        MakeAddressAccessor(&NetccRateSender::m_remote), MakeAddressChecker())
          .AddAttribute("PacketSize",
                        "UDP payload per data packet, bytes (the 42-byte header "
                        "included)",
                        UintegerValue(1472), MakeUintegerAccessor(&NetccRateSender::m_packetSize),
                        MakeUintegerChecker<std::uint32_t>(kHeaderSize + 1, 65'000))
          .AddAttribute("MaxBytes", "Payload bytes to send (0: without end)", UintegerValue(0),
                        MakeUintegerAccessor(&NetccRateSender::m_maxBytes),
                        MakeUintegerChecker<std::uint64_t>())
          .AddAttribute("NicRate",
                        "The NIC's rate, the pacing ceiling (0: the node's first "
                        "device's DataRate)",
                        DataRateValue(DataRate(0)),
                        MakeDataRateAccessor(&NetccRateSender::m_lineRate), MakeDataRateChecker())
          .AddAttribute("TimerInterval", "Period of on_timer for controllers with timers",
                        TimeValue(MicroSeconds(5)),
                        MakeTimeAccessor(&NetccRateSender::m_timerInterval),
                        MakeTimeChecker(NanoSeconds(1)));
  return tid;
}

Ptr<NetccRateSender> NetccRateSender::Create(const std::string& name) {
  const netcc::ns3::controller_kind* k = netcc::ns3::find_controller_kind(name);
  NS_ABORT_MSG_IF(k == nullptr, "netcc: no controller kind " << name);
  ObjectFactory f(k->type_id + netcc::ns3::sender_suffix);
  return f.Create<NetccRateSender>();
}

NetccRateSender::NetccRateSender() = default;
NetccRateSender::~NetccRateSender() = default;

void NetccRateSender::DoDispose() {
  m_socket = nullptr;
  m_cc.reset();
  Application::DoDispose();
}

const netcc::ns3::controller_kind& NetccRateSender::Kind() const {
  if (m_kind == nullptr) {
    m_kind = netcc::ns3::find_controller_kind(GetInstanceTypeId().GetName());
    NS_ABORT_MSG_IF(m_kind == nullptr, "netcc: " << GetInstanceTypeId().GetName()
                                                 << " is not a netcc sender; create one with "
                                                    "NetccRateSender::Create(\"dcqcn\")");
  }
  return *m_kind;
}

void NetccRateSender::SetNetccParam(std::size_t index, const netcc::ns3::param_value& v) {
  if (m_values.empty()) m_values = NetccDefaultParams(Kind());
  if (index < m_values.size()) m_values[index] = v;
}

netcc::ns3::param_value NetccRateSender::GetNetccParam(std::size_t index) const {
  if (index < m_values.size()) return m_values[index];
  const auto& k = Kind();
  return index < k.params.size() ? k.params[index].initial : netcc::ns3::param_value{};
}

std::uint64_t NetccRateSender::GetCwnd() const {
  return m_cc ? m_cc->cwnd() : 0;
}
std::uint64_t NetccRateSender::GetPacingRate() const {
  return m_cc ? m_cc->pacing_bps() : 0;
}

std::uint32_t NetccRateSender::Payload() const {
  return m_packetSize - kHeaderSize;
}

Time NetccRateSender::Gap(std::uint32_t wireBytes) const {
  std::uint64_t rate = m_lineRate.GetBitRate();
  const std::uint64_t pace = m_cc->pacing_bps();
  if (pace != kNone) rate = std::min(rate, std::max<std::uint64_t>(pace, 1));
  return Seconds(static_cast<double>(wireBytes) * 8.0 / static_cast<double>(rate));
}

void NetccRateSender::StartApplication() {
  const auto& k = Kind();
  if (m_values.empty()) m_values = NetccDefaultParams(k);
  std::string error;
  m_cc = k.make(m_values, Payload(), error);
  if (!m_cc) NS_FATAL_ERROR("netcc: " << k.type_id << "Sender: invalid parameters: " << error);
  if (m_lineRate.GetBitRate() == 0) {
    for (std::uint32_t i = 0; i < GetNode()->GetNDevices(); ++i) {
      DataRateValue r;
      if (GetNode()->GetDevice(i)->GetAttributeFailSafe("DataRate", r)) {
        m_lineRate = r.Get();
        break;
      }
    }
  }
  NS_ABORT_MSG_IF(m_lineRate.GetBitRate() == 0,
                  "netcc: NetccRateSender: NicRate is 0 and no device has a DataRate");
  m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
  // Not connected: SRCs come from switches, not from the receiver.
  m_socket->Bind();
  // SendTo takes the TOS from the address: data packets are ECN-capable, ECT(0).
  if (InetSocketAddress::IsMatchingType(m_remote)) {
    InetSocketAddress a = InetSocketAddress::ConvertFrom(m_remote);
    a.SetTos(kEct0);
    m_remote = a;
  }
  m_socket->SetRecvCallback(MakeCallback(&NetccRateSender::Receive, this));
  if (k.events & netcc::ns3::ev_timer)
    m_tickEvent = Simulator::Schedule(m_timerInterval, &NetccRateSender::Tick, this);
  SendNext();
}

void NetccRateSender::StopApplication() {
  m_sendEvent.Cancel();
  m_tickEvent.Cancel();
  if (m_socket) m_socket->Close();
}

void NetccRateSender::Tick() {
  m_cc->on_timer(Simulator::Now().GetNanoSeconds());
  m_tickEvent = Simulator::Schedule(m_timerInterval, &NetccRateSender::Tick, this);
}

void NetccRateSender::SendNext() {
  if (m_maxBytes != 0 && m_sndNxt >= m_maxBytes) return;
  std::uint32_t len = Payload();
  if (m_maxBytes != 0)
    len = static_cast<std::uint32_t>(std::min<std::uint64_t>(len, m_maxBytes - m_sndNxt));
  const std::uint64_t cwnd = m_cc->cwnd();
  if (cwnd != kNone && m_sndNxt > m_acked && m_sndNxt - m_acked + len > cwnd) {
    m_blocked = true;  // resumed by the next ACK
    return;
  }
  const std::int64_t now = Simulator::Now().GetNanoSeconds();
  const std::uint64_t remaining =
      m_maxBytes == 0 ? std::numeric_limits<std::uint64_t>::max() : m_maxBytes - m_sndNxt - len;
  const unsigned marks = m_cc->on_send(len, remaining, now);
  NetccRateHeader h;
  h.type = NetccRateHeader::DATA;
  h.flags =
      static_cast<std::uint8_t>((marks & netcc::ns3::mark_first ? NetccRateHeader::FIRST : 0) |
                                (marks & netcc::ns3::mark_last ? NetccRateHeader::LAST : 0) |
                                (marks & netcc::ns3::mark_inc ? NetccRateHeader::INC : 0));
  h.seq = m_sndNxt;
  h.length = len;
  h.ts = static_cast<std::uint64_t>(now);
  h.txTs32 = static_cast<std::uint32_t>(now);
  Ptr<Packet> p = ns3::Create<Packet>(len);
  p->AddHeader(h);
  const auto need = Kind().need;
  // Data collects INT for PowerTCP and HPCC; FastTune's comes padded into ACKs by switches.
  if (need == netcc::ns3::feedback_need::int_) p->AddPacketTag(NetccIntTag{});
  m_socket->SendTo(p, 0, m_remote);
  m_sndNxt += len;
  m_sendEvent =
      Simulator::Schedule(Gap(len + kHeaderSize + kUdpIpBytes), &NetccRateSender::SendNext, this);
}

void NetccRateSender::Receive(Ptr<Socket> s) {
  Address from;
  while (Ptr<Packet> p = s->RecvFrom(from)) {
    NetccRateHeader h;
    if (p->GetSize() < kHeaderSize) continue;
    p->RemoveHeader(h);
    const std::int64_t now = Simulator::Now().GetNanoSeconds();
    switch (h.type) {
      case NetccRateHeader::ACK: {
        netcc::ns3::ack_info a;
        a.now_ns = now;
        const std::uint64_t ack = std::min(h.seq, m_sndNxt);
        a.acked = ack > m_acked ? ack - m_acked : 0;
        m_acked = std::max(m_acked, ack);
        a.ack_seq = m_acked;
        a.snd_nxt = m_sndNxt;
        a.rtt_ns =
            h.ts <= static_cast<std::uint64_t>(now) ? now - static_cast<std::int64_t>(h.ts) : 0;
        a.ecn_echo = (h.flags & NetccRateHeader::ECN_ECHO) != 0;
        a.inc = (h.flags & NetccRateHeader::INC) != 0;
        NetccIntEchoTag echo;
        if (p->PeekPacketTag(echo)) {
          a.hop_count = std::min<std::uint8_t>(echo.count, netcc::ns3::max_int_hops);
          std::copy(echo.hops, echo.hops + a.hop_count, a.hops);
        }
        m_cc->on_ack(a);
        if (m_blocked && !m_sendEvent.IsRunning()) {
          m_blocked = false;
          SendNext();
        }
        break;
      }
      case NetccRateHeader::SACK: {
        // FastTune's S-ACK: a switch's INT, no acknowledgement.
        netcc::ns3::ack_info a;
        a.now_ns = now;
        a.ack_seq = m_acked;
        a.snd_nxt = m_sndNxt;
        a.switch_ack = true;
        a.rtt_ns =
            h.ts <= static_cast<std::uint64_t>(now) ? now - static_cast<std::int64_t>(h.ts) : 0;
        NetccIntEchoTag echo;
        if (p->PeekPacketTag(echo)) {
          a.hop_count = std::min<std::uint8_t>(echo.count, netcc::ns3::max_int_hops);
          std::copy(echo.hops, echo.hops + a.hop_count, a.hops);
        }
        m_cc->on_ack(a);
        break;
      }
      case NetccRateHeader::CNP:
        m_cc->on_cnp(now);
        break;
      case NetccRateHeader::SRC: {
        netcc::ns3::src_info src{now, h.queue, h.rate, h.txTs32};
        m_cc->on_src(src);
        if (m_blocked && !m_sendEvent.IsRunning()) {
          m_blocked = false;
          SendNext();
        }
        break;
      }
      default:
        break;
    }
  }
}

// ---------------------------------------------------------------- receiver

TypeId NetccRateReceiver::GetTypeId() {
  static TypeId tid =
      TypeId("ns3::NetccRateReceiver")
          .SetParent<Application>()
          .SetGroupName("Netcc")
          .AddConstructor<NetccRateReceiver>()
          .AddAttribute("Port", "UDP port to listen on", UintegerValue(9000),
                        MakeUintegerAccessor(&NetccRateReceiver::m_port),
                        MakeUintegerChecker<std::uint16_t>())
          .AddAttribute("CnpInterval", "DCQCN NP: least time between a flow's CNPs (50 us)",
                        TimeValue(MicroSeconds(50)),
                        MakeTimeAccessor(&NetccRateReceiver::m_cnpInterval),
                        MakeTimeChecker(Time(0)))
          .AddAttribute("CnpSchedule",
                        "DCQCN NP: schedule a CNP for the end of the interval "
                        "instead of suppressing it (the minimum-spacing variant)",
                        BooleanValue(false), MakeBooleanAccessor(&NetccRateReceiver::m_cnpSchedule),
                        MakeBooleanChecker())
          .AddTraceSource("Rx", "A data packet arrived",
                          MakeTraceSourceAccessor(&NetccRateReceiver::m_rxTrace),
                          "ns3::Packet::AddressTracedCallback");
  return tid;
}

NetccRateReceiver::NetccRateReceiver() = default;
NetccRateReceiver::~NetccRateReceiver() = default;

void NetccRateReceiver::DoDispose() {
  m_socket = nullptr;
  Application::DoDispose();
}

void NetccRateReceiver::StartApplication() {
  m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
  m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
  m_socket->SetIpRecvTos(true);
  m_socket->SetRecvCallback(MakeCallback(&NetccRateReceiver::Receive, this));
}

void NetccRateReceiver::StopApplication() {
  if (m_socket) m_socket->Close();
}

void NetccRateReceiver::SendCnp(Address to) {
  NetccRateHeader h;
  h.type = NetccRateHeader::CNP;
  h.ts = static_cast<std::uint64_t>(Simulator::Now().GetNanoSeconds());
  Ptr<Packet> p = ns3::Create<Packet>(0);
  p->AddHeader(h);
  m_socket->SendTo(p, 0, to);
  ++m_cnps;
}

void NetccRateReceiver::Receive(Ptr<Socket> s) {
  Address from;
  while (Ptr<Packet> p = s->RecvFrom(from)) {
    if (p->GetSize() < kHeaderSize) continue;
    SocketIpTosTag tos;
    const bool ce = p->PeekPacketTag(tos) && (tos.GetTos() & 0x03) == 0x03;
    NetccIntTag path;
    const bool hasInt = p->PeekPacketTag(path);
    m_rxTrace(p, from);
    NetccRateHeader h;
    p->RemoveHeader(h);
    if (h.type != NetccRateHeader::DATA) continue;
    Flow& f = m_flows[from];
    // Lossless fabric: a packet beyond the expected sequence is counted as it comes.
    if (h.seq + h.length > f.next) {
      m_received += h.seq + h.length - std::max(h.seq, f.next);
      f.next = h.seq + h.length;
    }
    NetccRateHeader ack;
    ack.type = NetccRateHeader::ACK;
    ack.flags = static_cast<std::uint8_t>((ce ? NetccRateHeader::ECN_ECHO : 0) |
                                          (h.flags & NetccRateHeader::INC));
    ack.seq = f.next;
    ack.ts = h.ts;
    Ptr<Packet> a = ns3::Create<Packet>(0);
    a->AddHeader(ack);
    if (hasInt) {
      NetccIntEchoTag echo;
      echo.count = path.count;
      std::copy(path.hops, path.hops + netcc::ns3::max_int_hops, echo.hops);
      a->AddPacketTag(echo);
    }
    m_socket->SendTo(a, 0, from);
    std::int64_t at = 0;
    const std::int64_t now = Simulator::Now().GetNanoSeconds();
    switch (netcc::ns3::np_on_packet(f.np, ce, now, m_cnpInterval.GetNanoSeconds(), m_cnpSchedule,
                                     at)) {
      case netcc::ns3::np_verdict::send_now:
        SendCnp(from);
        break;
      case netcc::ns3::np_verdict::schedule:
        Simulator::Schedule(NanoSeconds(at - now), &NetccRateReceiver::SendCnp, this, from);
        break;
      case netcc::ns3::np_verdict::none:
        break;
    }
  }
}

}  // namespace ns3
