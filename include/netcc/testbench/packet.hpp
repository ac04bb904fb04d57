// SPDX-License-Identifier: MIT
/// @file
/// @brief The testbench's packet: one plain struct for data, ACK, CNP, SRC and switch ACKs.
///
/// Packets live in a pool owned by netcc::testbench::network and move between queues by
/// index, so the engine allocates no memory per packet once the pool has grown to the
/// working set. A packet is compact (96 B, the fields every hop reads in its first 32 B): the
/// INT hop records a packet carries live in a second pool of the network, at the packet's own
/// index (`int_slot`, set once a switch pushes a record), so that an event's packet and INT
/// records can be loaded together.
///
/// Sources: the fields of the papers' packets: INT hop records (HPCC, SIGCOMM'19, §3.2), Bolt's SRC
/// and flags (NSDI'23, Listing 1), DCQCN's CNP (SIGCOMM'15, §3.1), FastTune's S-ACK (Algorithm 1).
///
/// @code
/// netcc::testbench::packet p{};
/// p.kind = netcc::testbench::packet_kind::data;
/// p.flow = 7;
/// p.size = netcc::bytes{1500};
/// bool carries_int = p.int_slot != netcc::testbench::no_int_slot;   // false until a switch pushes
/// @endcode
#pragma once

#include <cstdint>
#include <limits>

#include "netcc/core/feedback.hpp"
#include "netcc/core/units.hpp"

namespace netcc::testbench {

/// @brief Index of a node (host or switch) in a network.
using node_id = std::uint32_t;
/// @brief Index of a flow in a network.
using flow_id = std::uint32_t;

/// @brief What a packet is.
enum class packet_kind : std::uint8_t {
  data,        ///< payload from a sender
  ack,         ///< receiver acknowledgment (reflects INT, ECN echo, Bolt INC)
  cnp,         ///< DCQCN congestion notification (receiver NP to sender RP)
  src,         ///< Bolt switch-generated congestion notification (switch to sender)
  switch_ack,  ///< FastTune switch-generated ACK (S-ACK)
};

/// @brief `packet::int_slot` of a packet that carries no INT records.
inline constexpr std::uint32_t no_int_slot = std::numeric_limits<std::uint32_t>::max();

/// @brief One packet in flight.
/// @code
/// netcc::testbench::packet p;
/// p.kind = netcc::testbench::packet_kind::data;
/// p.size = netcc::bytes{1500};
/// @endcode
struct alignas(32) packet {
  /// @brief Data, ACK, CNP, SRC or S-ACK.
  packet_kind kind = packet_kind::data;
  /// @brief Served from the strict-priority control queue of every port.
  bool control : 1 = false;
  /// @brief ECN-capable transport.
  bool ect : 1 = true;
  /// @brief Congestion Experienced (set by a switch).
  bool ce : 1 = false;
  /// @brief ACK: the acknowledged data was CE-marked.
  bool ecn_echo : 1 = false;
  /// @brief Bolt INC flag.
  bool inc : 1 = false;
  /// @brief Bolt DEC flag (an SRC was already generated for this packet).
  bool dec : 1 = false;
  /// @brief Bolt FIRST flag.
  bool first : 1 = false;
  /// @brief Bolt LAST flag.
  bool last : 1 = false;
  /// @brief A go-back-N retransmission.
  bool retransmit : 1 = false;
  /// @brief The flow it belongs to.
  flow_id flow = 0;
  /// @brief Source host.
  node_id src = 0;
  /// @brief Destination host.
  node_id dst = 0;
  /// @brief The port of the current node it arrived on (for PFC's per-ingress accounting).
  std::uint32_t in_port = 0;
  /// @brief Its INT hop records' slot in the network's INT pool, the packet's own pool index
  /// (pushed by switches at dequeue on data, reflected on the ACK), or no_int_slot: none yet.
  std::uint32_t int_slot = no_int_slot;
  /// @brief Size on the wire, headers included.
  bytes size{};
  /// @brief Data: first byte carried. ACK: cumulative ACK (next byte expected).
  sequence seq = 0;
  /// @brief Data: payload bytes. ACK: bytes this ACK newly acknowledges.
  bytes payload{};
  /// @brief Data: the sender's snd_nxt after this packet. ACK: echoed.
  sequence snd_nxt = 0;
  /// @brief Data: send time. ACK: the acknowledged packet's send time, echoed.
  timestamp sent_at{};
  /// @brief SRC: queue size reported by the switch.
  bytes src_queue{};
  /// @brief SRC: link rate reported by the switch.
  bit_rate src_rate{};
  /// @brief SRC: the data packet's reflected 32-bit TX timestamp.
  std::uint32_t src_tx_ts = 0;
};
static_assert(sizeof(packet) <= 96, "packet: 96 B budget (INT records live in their own pool)");

}  // namespace netcc::testbench
