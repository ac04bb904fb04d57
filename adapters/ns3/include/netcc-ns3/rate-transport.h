// SPDX-License-Identifier: MIT
/// @file
/// @brief An RDMA-style rate-based transport over UDP in stock ns-3 (the ns-3 half, C++17), for
/// the controllers that are defined over a NIC's rate rather than a TCP window: DCQCN (CNPs from
/// a notification point), TIMELY (RTT per ACK), HPCC and PowerTCP in their rate form (INT per
/// ACK), and any other netcc controller.
///
/// - NetccRateSender (one TypeId per controller kind, `ns3::Netcc<Name>Sender`, with the
///   controller's parameters as Attributes): sends `MaxBytes` (0: without end) to `Remote` in
///   packets of `PacketSize` bytes of UDP payload, paced at the controller's pacing rate (at most
///   the NIC's rate) and, for controllers with a window, with at most cwnd bytes unacknowledged.
///   Data packets are ECN-capable (ECT(0)) and carry an empty NetccIntTag when the controller
///   reads INT. ACKs go to on_ack (RTT from the echoed send time, ECN echo, reflected INT), CNPs
///   to on_cnp, SRCs to on_src; on_send sees every packet and on_timer ticks every
///   `TimerInterval` for controllers with timers (DCQCN's K and T).
/// - NetccRateReceiver: acknowledges every data packet (cumulative sequence, echoed send time,
///   CE echo, the data's INT reflected), and is DCQCN's notification point: a CE-marked packet
///   makes a CNP as netcc::dcqcn_np_on_packet decides (`CnpInterval`, 50 us: one per flow per
///   interval).
/// The fabric is assumed lossless, as RoCE's is with PFC: there are no retransmissions.
/// @code
/// Ptr<NetccRateSender> tx = NetccRateSender::Create("dcqcn");   // ns3::NetccDcqcnSender
/// tx->SetAttribute("Remote", AddressValue(InetSocketAddress(dst, 9000)));
/// tx->SetAttribute("LineRate", DataRateValue(DataRate("100Gbps")));   // DCQCN's R_C ceiling
/// senderNode->AddApplication(tx);
/// @endcode
#ifndef NETCC_NS3_RATE_TRANSPORT_H
#define NETCC_NS3_RATE_TRANSPORT_H

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "netcc-ns3/attributes.h"
#include "netcc-ns3/bridge.h"
#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/header.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

namespace ns3 {

/// @brief The transport's header, first in every UDP payload (42 bytes, fixed).
class NetccRateHeader : public Header {
 public:
  /// @brief Packet types.
  enum Type : std::uint8_t { DATA = 0, ACK = 1, CNP = 2, SRC = 3, SACK = 4 };
  /// @brief Flag bits.
  enum Flag : std::uint8_t { ECN_ECHO = 1, FIRST = 2, LAST = 4, INC = 8, DEC = 16 };
  static TypeId GetTypeId();
  TypeId GetInstanceTypeId() const override;
  uint32_t GetSerializedSize() const override;
  void Serialize(Buffer::Iterator start) const override;
  uint32_t Deserialize(Buffer::Iterator start) override;
  void Print(std::ostream& os) const override;

  std::uint8_t type = DATA;  ///< DATA, ACK, CNP or SRC.
  std::uint8_t flags = 0;    ///< Flag bits.
  std::uint64_t seq = 0;     ///< DATA: first byte; ACK: cumulative ACK (next byte expected).
  std::uint32_t length = 0;  ///< DATA: payload bytes after the header.
  std::uint64_t ts = 0;      ///< DATA: send time (ns); ACK: the data's, echoed.
  std::uint64_t queue = 0;   ///< SRC: queue bytes at the congested port.
  std::uint64_t rate = 0;    ///< SRC: its link rate, bit/s.
  std::uint32_t txTs32 = 0;  ///< SRC: the data packet's send time, low 32 bits (ns).
};

/// @brief The sender (see the file comment); created per controller kind.
class NetccRateSender : public Application, public NetccParameterHolder {
 public:
  /// @brief The parent TypeId: Attributes Remote, PacketSize, MaxBytes, NicRate, TimerInterval.
  static TypeId GetTypeId();
  /// @brief A sender for netcc controller kind `name` ("dcqcn") or its sender TypeId.
  static Ptr<NetccRateSender> Create(const std::string& name);
  NetccRateSender();
  ~NetccRateSender() override;

  void SetNetccParam(std::size_t index, const netcc::ns3::param_value& v) override;
  netcc::ns3::param_value GetNetccParam(std::size_t index) const override;

  /// @brief The controller kind (found from the object's TypeId).
  const netcc::ns3::controller_kind& Kind() const;
  /// @brief The controller's window (UINT64_MAX if none) and pacing rate (bit/s).
  std::uint64_t GetCwnd() const;
  /// @brief The controller's pacing rate, bit/s (UINT64_MAX if it does not pace).
  std::uint64_t GetPacingRate() const;
  /// @brief Payload bytes acknowledged so far.
  std::uint64_t GetAcked() const { return m_acked; }

 protected:
  void DoDispose() override;

 private:
  void StartApplication() override;
  void StopApplication() override;
  void SendNext();
  void Receive(Ptr<Socket> s);
  void Tick();
  Time Gap(std::uint32_t wireBytes) const;
  std::uint32_t Payload() const;

  mutable const netcc::ns3::controller_kind* m_kind = nullptr;
  std::vector<netcc::ns3::param_value> m_values;
  std::unique_ptr<netcc::ns3::controller> m_cc;
  Address m_remote;
  std::uint32_t m_packetSize = 1472;
  std::uint64_t m_maxBytes = 0;
  DataRate m_lineRate{0};
  Time m_timerInterval;
  Ptr<Socket> m_socket;
  EventId m_sendEvent;
  EventId m_tickEvent;
  std::uint64_t m_sndNxt = 0;
  std::uint64_t m_acked = 0;
  bool m_blocked = false;
};

/// @brief The receiver and DCQCN notification point (see the file comment).
class NetccRateReceiver : public Application {
 public:
  /// @brief Its TypeId, "ns3::NetccRateReceiver": Attributes Port, CnpInterval, CnpSchedule.
  static TypeId GetTypeId();
  NetccRateReceiver();
  ~NetccRateReceiver() override;
  /// @brief Payload bytes received in order.
  std::uint64_t GetReceived() const { return m_received; }
  /// @brief CNPs sent.
  std::uint64_t GetCnps() const { return m_cnps; }

 protected:
  void DoDispose() override;

 private:
  void StartApplication() override;
  void StopApplication() override;
  void Receive(Ptr<Socket> s);
  void SendCnp(Address to);

  struct Flow {
    std::uint64_t next = 0;
    netcc::ns3::np_flow np;
  };
  std::uint16_t m_port = 9000;
  Time m_cnpInterval;
  bool m_cnpSchedule = false;
  Ptr<Socket> m_socket;
  std::map<Address, Flow> m_flows;
  std::uint64_t m_received = 0;
  std::uint64_t m_cnps = 0;
  TracedCallback<Ptr<const Packet>, const Address&> m_rxTrace;
};

}  // namespace ns3

#endif  // NETCC_NS3_RATE_TRANSPORT_H
