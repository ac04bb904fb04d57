// SPDX-License-Identifier: MIT
/// @file
/// @brief The testbench's packet: one plain struct for data, ACK, CNP, SRC and switch ACKs.
///
/// Packets live in a pool owned by netcc::testbench::network and move between queues by
/// index, so the engine allocates no memory per packet once the pool has grown to the
/// working set. A packet is one cache line (64 B): the INT hop records a packet carries
/// (`int_count` of them) live in a second pool of the network, at the packet's own index, so
/// that an event's packet and INT records can be loaded together; an SRC, which carries no
/// data, holds its report in the data fields (set_src_report()).
///
/// Sources: the fields of the papers' packets: INT hop records (HPCC, SIGCOMM'19, §3.2), Bolt's SRC
/// and flags (NSDI'23, Listing 1), DCQCN's CNP (SIGCOMM'15, §3.1), FastTune's S-ACK (Algorithm 1).
///
/// @code
/// netcc::testbench::packet p{};
/// p.kind = netcc::testbench::packet_kind::data;
/// p.flow = 7;
/// p.size = netcc::bytes{1500};
/// bool carries_int = p.int_count != 0;   // false until a switch pushes
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

/// @brief An INT hop record (netcc::int_hop) as the testbench keeps it in flight: 16 B instead
/// of 32, and exact.
///
/// The hop's timestamp is kept as its offset from the packet's send time (an ACK echoes its
/// data packet's), the link rate as an index into a table of the rates a network has seen, the
/// queue length in 32 bits and the transmitted-bytes counter in 48. encode() refuses a record
/// out of that range (a hop more than 2^32 ns after the send time or before it, a queue of
/// 2^32 B or more or a negative one, a counter of 2^48 B or more, or no rate index), so that
/// decode() of an encoded record always gives back the record.
/// @code
/// netcc::testbench::compact_int_hop c{};
/// const netcc::int_hop h{.ts = 1500, .qlen = netcc::bytes{3000}, .tx_bytes = 9000,
///                        .link_rate = netcc::bit_rate{100'000'000'000}};
/// if (netcc::testbench::compact_int_hop::encode(h, 0, netcc::timestamp{1000}, c)) {
///   // c.decode(netcc::timestamp{1000}, h.link_rate) == h
/// }
/// @endcode
struct compact_int_hop {
  /// @brief No rate index: encode() refuses the record.
  static constexpr std::uint16_t no_rate = std::numeric_limits<std::uint16_t>::max();
  /// @brief The transmitted-bytes counter's bits in tx_rate.
  static constexpr std::uint64_t tx_mask = (std::uint64_t{1} << 48) - 1;
  /// @brief int_hop::ts minus the packet's send time, ns.
  std::uint32_t ts_rel = 0;
  /// @brief int_hop::qlen, bytes.
  std::uint32_t qlen = 0;
  /// @brief int_hop::tx_bytes in the low 48 bits, the rate index in the high 16.
  std::uint64_t tx_rate = 0;

  /// @brief Record `h` of a packet sent at `sent`, its link rate at `rate_index` of the
  /// caller's table, into `out`; false, and `out` unchanged, when a field is out of range.
  [[nodiscard]] static constexpr bool encode(const int_hop& h, std::uint16_t rate_index,
                                             timestamp sent, compact_int_hop& out) noexcept {
    const std::uint64_t d = h.ts - static_cast<std::uint64_t>(sent.count());
    const std::int64_t q = h.qlen.count();
    constexpr std::uint64_t u32 = std::numeric_limits<std::uint32_t>::max();
    if (d > u32 || q < 0 || static_cast<std::uint64_t>(q) > u32 || h.tx_bytes > tx_mask ||
        rate_index == no_rate)
      return false;
    out = {.ts_rel = static_cast<std::uint32_t>(d),
           .qlen = static_cast<std::uint32_t>(q),
           .tx_rate = h.tx_bytes | std::uint64_t{rate_index} << 48};
    return true;
  }
  /// @brief The rate index encode() was given.
  [[nodiscard]] constexpr std::uint16_t rate_index() const noexcept {
    return static_cast<std::uint16_t>(tx_rate >> 48);
  }
  /// @brief The record of a packet sent at `sent`, its link rate `rate` (the table's entry at
  /// rate_index()).
  [[nodiscard]] constexpr int_hop decode(timestamp sent, bit_rate rate) const noexcept {
    return {.ts = static_cast<std::uint64_t>(sent.count()) + ts_rel,
            .qlen = bytes{static_cast<std::int64_t>(qlen)},
            .tx_bytes = tx_rate & tx_mask,
            .link_rate = rate};
  }
};
static_assert(sizeof(compact_int_hop) == 16, "compact_int_hop: 16 B");

/// @brief One packet in flight.
/// @code
/// netcc::testbench::packet p;
/// p.kind = netcc::testbench::packet_kind::data;
/// p.size = netcc::bytes{1500};
/// @endcode
struct alignas(64) packet {
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
  /// @brief The engine keeps this packet's INT records in full width (one was out of the
  /// compact form's range); not part of the modelled packet.
  bool int_wide : 1 = false;

  /// @brief INT hop records it carries (pushed by switches at dequeue on data, reflected on the
  /// ACK): the network's INT pool holds them at the packet's own pool index.
  std::uint8_t int_count = 0;
  /// @brief The flow it belongs to.
  flow_id flow = 0;
  /// @brief Source host.
  node_id src = 0;
  /// @brief Destination host.
  node_id dst = 0;
  /// @brief The port of the current node it arrived on (for PFC's per-ingress accounting).
  std::uint32_t in_port = 0;
  /// @brief Size on the wire, headers included.
  bytes size{};
  /// @brief Data: first byte carried. ACK: cumulative ACK (next byte expected). SRC: the data
  /// packet's reflected 32-bit TX timestamp (src_tx_ts()).
  sequence seq = 0;
  /// @brief Data: payload bytes. ACK: bytes this ACK newly acknowledges. SRC: the queue size
  /// the switch reports (src_queue()).
  bytes payload{};
  /// @brief Data: the sender's snd_nxt after this packet. ACK: echoed. SRC: the link rate the
  /// switch reports, in bps (src_rate()).
  sequence snd_nxt = 0;
  /// @brief Data: send time. ACK: the acknowledged packet's send time, echoed.
  timestamp sent_at{};

  /// @brief SRC: the switch's report (Bolt, NSDI'23, Listing 1: queue size, link rate and the
  /// data packet's TX timestamp), held in the fields an SRC does not otherwise use.
  /// @code
  /// netcc::testbench::packet s;
  /// s.kind = netcc::testbench::packet_kind::src;
  /// s.set_src_report(netcc::bytes{3000}, netcc::bit_rate{100'000'000'000}, 42);
  /// // s.src_queue() == netcc::bytes{3000}, s.src_tx_ts() == 42
  /// @endcode
  constexpr void set_src_report(bytes queue, bit_rate rate, std::uint32_t tx_ts) noexcept {
    payload = queue;
    snd_nxt = static_cast<sequence>(rate.bps());
    seq = tx_ts;
  }
  /// @brief SRC: queue size reported by the switch.
  [[nodiscard]] constexpr bytes src_queue() const noexcept { return payload; }
  /// @brief SRC: link rate reported by the switch.
  [[nodiscard]] constexpr bit_rate src_rate() const noexcept {
    return bit_rate{static_cast<std::int64_t>(snd_nxt)};
  }
  /// @brief SRC: the data packet's reflected 32-bit TX timestamp.
  [[nodiscard]] constexpr std::uint32_t src_tx_ts() const noexcept {
    return static_cast<std::uint32_t>(seq);
  }
};
static_assert(sizeof(packet) == 64, "packet: one cache line (INT records live in their own pool)");

}  // namespace netcc::testbench
