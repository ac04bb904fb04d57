// SPDX-License-Identifier: MIT
// INT tags and the host helper that marks, reflects and delivers INT (int.h). C++17.
#include "netcc-ns3/int.h"

#include <array>
#include <map>
#include <tuple>

#include "netcc-ns3/tcp-congestion-ops.h"
#include "ns3/callback.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-l4-protocol.h"

namespace ns3 {

namespace {
// One record: timestamp, queue length, tx bytes, rate, 8 bytes each; then the count.
constexpr uint32_t kTagSize = 1 + netcc::ns3::max_int_hops * 4 * 8;
}  // namespace

uint32_t NetccIntRecords::GetSerializedSize() const {
  return kTagSize;
}

void NetccIntRecords::Serialize(TagBuffer i) const {
  i.WriteU8(count);
  for (const auto& h : hops) {
    i.WriteU64(h.ts_ns);
    i.WriteU64(h.qlen);
    i.WriteU64(h.tx_bytes);
    i.WriteU64(h.rate_bps);
  }
}

void NetccIntRecords::Deserialize(TagBuffer i) {
  count = i.ReadU8();
  if (count > netcc::ns3::max_int_hops) count = netcc::ns3::max_int_hops;
  for (auto& h : hops) {
    h.ts_ns = i.ReadU64();
    h.qlen = i.ReadU64();
    h.tx_bytes = i.ReadU64();
    h.rate_bps = i.ReadU64();
  }
}

void NetccIntRecords::Print(std::ostream& os) const {
  os << "hops=" << unsigned{count};
  for (unsigned k = 0; k < count && k < netcc::ns3::max_int_hops; ++k)
    os << " [ts=" << hops[k].ts_ns << " q=" << hops[k].qlen << " tx=" << hops[k].tx_bytes
       << " b=" << hops[k].rate_bps << "]";
}

NS_OBJECT_ENSURE_REGISTERED(NetccIntTag);
NS_OBJECT_ENSURE_REGISTERED(NetccIntEchoTag);

TypeId NetccIntTag::GetTypeId() {
  static TypeId tid = TypeId("ns3::NetccIntTag")
                          .SetParent<Tag>()
                          .SetGroupName("Netcc")
                          .AddConstructor<NetccIntTag>();
  return tid;
}
TypeId NetccIntTag::GetInstanceTypeId() const {
  return GetTypeId();
}

TypeId NetccIntEchoTag::GetTypeId() {
  static TypeId tid = TypeId("ns3::NetccIntEchoTag")
                          .SetParent<Tag>()
                          .SetGroupName("Netcc")
                          .AddConstructor<NetccIntEchoTag>();
  return tid;
}
TypeId NetccIntEchoTag::GetInstanceTypeId() const {
  return GetTypeId();
}

namespace {

// A flow as its data packets name it: source address and port, destination address and port.
using FlowKey = std::tuple<uint32_t, uint16_t, uint32_t, uint16_t>;

// One host's reflector: the latest INT each flow's data brought here. Aggregated to the node,
// so it lives exactly as long as the node (and its traces) do.
class NetccIntHost : public Object {
 public:
  static TypeId GetTypeId() {
    static TypeId tid = TypeId("ns3::NetccIntHost").SetParent<Object>().SetGroupName("Netcc");
    return tid;
  }
  std::map<FlowKey, NetccIntEchoTag> latest;
};
using HostInt = NetccIntHost;

void OnSendOutgoing(HostInt* host, const Ipv4Header& ip, Ptr<const Packet> p, uint32_t) {
  if (ip.GetProtocol() != TcpL4Protocol::PROT_NUMBER) return;
  TcpHeader tcp;
  if (p->PeekHeader(tcp) == 0) return;
  // A data segment starts collecting INT (HPCC §3.2: the sender adds the INT header).
  if (p->GetSize() > tcp.GetSerializedSize()) {
    NetccIntTag empty;
    if (!p->PeekPacketTag(empty)) p->AddPacketTag(NetccIntTag{});
  }
  // Any segment of a flow whose data arrived here carries that data's INT back (the ACK).
  const FlowKey reverse{ip.GetDestination().Get(), tcp.GetDestinationPort(), ip.GetSource().Get(),
                        tcp.GetSourcePort()};
  auto it = host->latest.find(reverse);
  if (it != host->latest.end()) {
    NetccIntEchoTag old;
    if (!p->PeekPacketTag(old)) p->AddPacketTag(it->second);
  }
}

void OnLocalDeliver(HostInt* host, const Ipv4Header& ip, Ptr<const Packet> p, uint32_t) {
  NetccIntEchoTag echo;
  if (ip.GetProtocol() != TcpL4Protocol::PROT_NUMBER) {
    NetccTcpCongestionOps::SetIncomingInt(echo.hops, 0, false, 0);
    return;
  }
  TcpHeader tcp;
  p->PeekHeader(tcp);
  NetccIntTag path;
  if (p->PeekPacketTag(path)) {
    NetccIntEchoTag& keep =
        host->latest[FlowKey{ip.GetSource().Get(), tcp.GetSourcePort(), ip.GetDestination().Get(),
                             tcp.GetDestinationPort()}];
    keep.count = path.count;
    std::copy(path.hops, path.hops + netcc::ns3::max_int_hops, keep.hops);
  }
  if (p->PeekPacketTag(echo)) {
    NetccTcpCongestionOps::SetIncomingInt(echo.hops, echo.count, false,
                                          tcp.GetAckNumber().GetValue());
  } else {
    NetccTcpCongestionOps::SetIncomingInt(echo.hops, 0, false, 0);
  }
}

}  // namespace

void NetccIntHelper::Install(const NodeContainer& hosts) {
  for (auto it = hosts.Begin(); it != hosts.End(); ++it) {
    Ptr<Ipv4L3Protocol> ip = (*it)->GetObject<Ipv4L3Protocol>();
    NS_ABORT_MSG_IF(!ip,
                    "NetccIntHelper::Install: node " << (*it)->GetId() << " has no IPv4 stack");
    if ((*it)->GetObject<NetccIntHost>()) continue;  // installed already
    Ptr<NetccIntHost> host = CreateObject<NetccIntHost>();
    (*it)->AggregateObject(host);
    ip->TraceConnectWithoutContext("SendOutgoing",
                                   MakeBoundCallback(&OnSendOutgoing, PeekPointer(host)));
    ip->TraceConnectWithoutContext("LocalDeliver",
                                   MakeBoundCallback(&OnLocalDeliver, PeekPointer(host)));
  }
}

}  // namespace ns3
