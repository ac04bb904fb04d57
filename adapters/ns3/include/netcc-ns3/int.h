// SPDX-License-Identifier: MIT
/// @file
/// @brief INT in stock ns-3 (the ns-3 half, C++17): fixed-size packet tags for the hop records a
/// data packet collects and the ones its ACK reflects, and the host helper that marks data
/// packets, reflects INT onto ACKs and hands it to the sender's controller.
///
/// The path: a sending host tags each TCP data segment with an empty NetccIntTag (HPCC §3.2: the
/// sender inserts the INT header); every NetccQueueDisc with `Int` on appends its hop at dequeue
/// (netcc::int_push); the receiving host keeps the latest records per flow and copies them
/// onto the flow's next ACK as a NetccIntEchoTag (HPCC §3.2: the receiver copies INT into the
/// ACK); the sending host's IPv4 LocalDeliver trace, which fires just before TCP processes the
/// ACK, passes them to the socket's NetccTcpCongestionOps (PowerTCP §3.3, HPCC Alg. 1 read them).
/// All of it is trace sources and tags: nothing in ns-3 is modified, and tags cross MPI ranks.
///
/// Tags have a constant serialized size (ns-3 rewrites a tag in place; a tag that grew by a hop
/// would overwrite memory), so a tag always holds netcc::ns3::max_int_hops records and a count.
/// @code
/// NetccIntHelper::Install(hosts);   // senders and receivers
/// @endcode
#ifndef NETCC_NS3_INT_H
#define NETCC_NS3_INT_H

#include <cstdint>

#include "netcc-ns3/bridge.h"
#include "ns3/node-container.h"
#include "ns3/tag.h"

namespace ns3 {

/// @brief Hop records in a packet tag: always netcc::ns3::max_int_hops records and a count (a
/// constant serialized size), first hop first.
class NetccIntRecords : public Tag {
 public:
  uint32_t GetSerializedSize() const override;
  void Serialize(TagBuffer i) const override;
  void Deserialize(TagBuffer i) override;
  void Print(std::ostream& os) const override;

  std::uint8_t count = 0;                                   ///< Valid records.
  netcc::ns3::hop_record hops[netcc::ns3::max_int_hops]{};  ///< First hop first.
};

/// @brief The hop records a data packet has collected.
class NetccIntTag : public NetccIntRecords {
 public:
  /// @brief Its TypeId, "ns3::NetccIntTag".
  static TypeId GetTypeId();
  TypeId GetInstanceTypeId() const override;
};

/// @brief The hop records an ACK reflects to the sender.
class NetccIntEchoTag : public NetccIntRecords {
 public:
  /// @brief Its TypeId, "ns3::NetccIntEchoTag".
  static TypeId GetTypeId();
  TypeId GetInstanceTypeId() const override;
};

/// @brief Installs INT marking and reflection on hosts (see the file comment).
class NetccIntHelper {
 public:
  /// @brief Connect to each node's Ipv4L3Protocol "SendOutgoing" and "LocalDeliver" traces.
  /// Install it on every host whose flows use an INT controller, senders and receivers.
  static void Install(const NodeContainer& hosts);
};

}  // namespace ns3

#endif  // NETCC_NS3_INT_H
