// SPDX-License-Identifier: MIT
/// @file
/// @brief ns3::NetccQueueDisc: a switch egress FIFO that runs netcc's switch functions (the ns-3
/// half, C++17): RED/ECN marking with netcc::red_ecn_on_packet (the network-calculus seed §III-B;
/// DCTCP's step at K when K_min = K_max), INT push at dequeue with netcc::int_push (PowerTCP
/// §3.3, HPCC §3.2) onto packets that carry a NetccIntTag, and Bolt's switch (NSDI'23 Algorithm 1
/// with Algorithm 3's supply matching) on the rate transport's data packets as they join the
/// queue: an SRC goes back to the data's sender as a UDP packet from this node's own IP stack
/// (routed like any packet, so it works across MPI ranks), and INC/DEC are rewritten in place;
/// and FastTune's switch (ISPA'21 Algorithm 1): per flow and node a NewACK flag; a data packet
/// of the rate transport with NewACK makes an S-ACK with this port's INT; an ACK (of TCP or the
/// rate transport) clears NewACK and is padded with the INT of the port its flow's data leaves
/// by (found through the node's routing).
///
/// The hop record's queue length is the bytes left in this queue disc after the packet leaves,
/// its byte counter the bytes this queue disc has sent, its rate the device's DataRate.
/// Install it as the root queue disc on switch ports (before Ipv4AddressHelper::Assign, which
/// would otherwise install ns-3's default):
/// @code
/// TrafficControlHelper tch;
/// tch.SetRootQueueDisc("ns3::NetccQueueDisc", "Ecn", BooleanValue(true),
///                      "KMin", UintegerValue(97'500), "KMax", UintegerValue(97'500),
///                      "PMax", DoubleValue(1.0));
/// tch.Install(switchDevices);
/// @endcode
#ifndef NETCC_NS3_QUEUE_DISC_H
#define NETCC_NS3_QUEUE_DISC_H

#include <cstdint>

#include "netcc-ns3/bridge.h"
#include "ns3/ipv4-address.h"
#include "ns3/queue-disc.h"
#include "ns3/random-variable-stream.h"
#include "ns3/socket.h"

namespace ns3 {

/// @brief A FIFO queue disc running netcc's RED/ECN and INT push (see the file comment).
class NetccQueueDisc : public QueueDisc {
 public:
  /// @brief Its TypeId, "ns3::NetccQueueDisc", with Attributes MaxSize, Int, MaxHops, Ecn,
  /// EcnAtDequeue, KMin, KMax, PMax, DropNotEct.
  static TypeId GetTypeId();
  NetccQueueDisc();
  ~NetccQueueDisc() override;

  /// @brief Reason string of a packet netcc's RED marked.
  static constexpr const char* kMark = "netcc RED/ECN mark";
  /// @brief Reason string of a Not-ECT packet netcc's RED dropped.
  static constexpr const char* kRedDrop = "netcc RED drop (Not-ECT)";
  /// @brief Reason string of a packet dropped for lack of room.
  static constexpr const char* kOverflow = "queue disc full";

  /// @brief S-ACKs this port generated (FastTune).
  std::uint64_t GetSacks() const { return m_sacks; }
  /// @brief This port's state as the switch functions see it (queue bytes, bytes sent, rate).
  netcc::ns3::port_state GetPortState();
  /// @brief SRCs this port generated (Bolt).
  std::uint64_t GetSrcs() const { return m_srcs; }
  /// @brief Bytes this queue disc has sent (INT's tx counter).
  std::uint64_t GetTxBytes() const { return m_txBytes; }
  /// @brief Use `stream` for the RED draws; returns the streams used (1).
  int64_t AssignStreams(int64_t stream);

 private:
  void DoDispose() override;
  void SetBoltCcThresh(std::uint64_t v);
  std::uint64_t GetBoltCcThresh() const;
  void SetBoltMtu(std::uint64_t v);
  std::uint64_t GetBoltMtu() const;
  void SetBoltPru(bool v);
  bool GetBoltPru() const;
  void SetBoltSm(bool v);
  bool GetBoltSm() const;
  void SetFtSacks(bool v);
  bool GetFtSacks() const;
  void SetFtPadding(bool v);
  bool GetFtPadding() const;
  bool DoEnqueue(Ptr<QueueDiscItem> item) override;
  Ptr<QueueDiscItem> DoDequeue() override;
  bool CheckConfig() override;
  void InitializeParams() override;
  // Mark or drop `item` as netcc's RED decides at `backlog`; false if dropped.
  bool Red(Ptr<QueueDiscItem> item, std::uint64_t backlog, bool dequeue);
  std::uint64_t LinkRate();
  netcc::ns3::red_config Config() const;
  // Bolt's ingress on a data packet of the rate transport; sends the SRC it may generate.
  void Bolt(Ptr<QueueDiscItem> item);
  void SendSrc(Ipv4Address to, std::uint16_t port, netcc::ns3::bolt_src_out src);
  // FastTune's switch on a data packet or ACK of either transport; sends the S-ACK it may make.
  void FastTune(Ptr<QueueDiscItem> item);
  void SendSack(Ipv4Address to, std::uint16_t port, std::uint64_t ts, netcc::ns3::fasttune_out s);
  Ptr<Socket> NodeSocket();

  bool m_int = true;
  std::uint8_t m_maxHops = netcc::ns3::max_int_hops;
  bool m_ecn = false;
  bool m_ecnAtDequeue = false;
  std::uint64_t m_kMin = 5'000;
  std::uint64_t m_kMax = 200'000;
  double m_pMax = 0.01;
  bool m_dropNotEct = true;
  std::uint64_t m_txBytes = 0;
  std::uint64_t m_rate = 0;
  Ptr<UniformRandomVariable> m_uv;
  bool m_bolt = false;
  netcc::ns3::bolt_switch_config m_boltConfig;
  netcc::ns3::bolt_port m_boltPort;
  Ptr<Socket> m_srcSocket;
  std::uint64_t m_srcs = 0;
  bool m_fasttune = false;
  netcc::ns3::fasttune_config m_ftConfig;
  std::uint64_t m_sacks = 0;
};

}  // namespace ns3

#endif  // NETCC_NS3_QUEUE_DISC_H
