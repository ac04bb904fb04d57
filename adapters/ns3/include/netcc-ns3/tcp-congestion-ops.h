// SPDX-License-Identifier: MIT
/// @file
/// @brief Any netcc controller as an ns-3 TCP congestion control (the ns-3 half, C++17).
///
/// One class, ns3::NetccTcpCongestionOps, serves every controller: each netcc controller kind
/// (bridge.h) is registered as its own TypeId (`ns3::NetccVegas`, `ns3::NetccDctcp`,
/// `ns3::NetccSwift`, `ns3::NetccTimely`, `ns3::NetccThetaPowerTcp`, `ns3::NetccPowerTcp`,
/// `ns3::NetccHpcc`, `ns3::NetccFastTune`, ...) whose parent is this class and whose Attributes
/// are the controller's parameters. An object finds its controller from its own TypeId.
///
/// It owns the window and the pacing rate: HasCongControl() is true, and CongControl(), which
/// TcpSocketBase calls once per ACK after its own bookkeeping, hands the ACK to the controller
/// and writes `m_cWnd` and `m_pacingRate` (pacing is switched on for controllers that pace).
/// The ACK the controller sees:
/// - `ack_seq`, `snd_nxt`: TcpSocketState's m_lastAckedSeq and m_highTxMark, unwrapped to 64
///   bits; `acked`: m_lastAckedSackedBytes (bytes newly delivered, SACKed included);
/// - `rtt`: m_lastRtt on an ACK that advanced the window, else none. ns-3 3.37 stores its RTT
///   estimator's smoothed value there; set `ns3::RttMeanDeviation::Alpha` to 1 for raw samples,
///   as the netcc examples do (delay-based controllers are defined on samples);
/// - `ecn_echo`: the ACK carried ECE for new data (ECN is switched on for controllers that need
///   it, in DCTCP's per-packet echo mode, with RFC 8257 §3.2's receiver state machine);
/// - INT hop records: those reflected onto the ACK (NetccIntReflector), when the controller is an
///   INT controller.
/// Losses found by duplicate ACKs (CA_RECOVERY) go to the controller's on_loss, retransmission
/// timeouts (CA_LOSS) to on_timeout.
///
/// @code
/// Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::NetccDctcp"));
/// Config::SetDefault("ns3::NetccDctcp::G", DoubleValue(1.0 / 16));
/// @endcode
#ifndef NETCC_NS3_TCP_CONGESTION_OPS_H
#define NETCC_NS3_TCP_CONGESTION_OPS_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "netcc-ns3/attributes.h"
#include "netcc-ns3/bridge.h"
#include "ns3/tcp-congestion-ops.h"

namespace ns3 {

/// @brief A netcc controller driving an ns-3 TCP socket (see the file comment).
class NetccTcpCongestionOps : public TcpCongestionOps, public NetccParameterHolder {
 public:
  /// @brief The parent TypeId of every `ns3::Netcc<Name>` TCP congestion control.
  static TypeId GetTypeId();
  NetccTcpCongestionOps();
  /// @brief A copy with the controller in the same state (Fork()).
  NetccTcpCongestionOps(const NetccTcpCongestionOps& other);
  ~NetccTcpCongestionOps() override;

  std::string GetName() const override;
  void Init(Ptr<TcpSocketState> tcb) override;
  uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override;
  void IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked) override;
  void PktsAcked(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked, const Time& rtt) override;
  void CongestionStateSet(Ptr<TcpSocketState> tcb,
                          const TcpSocketState::TcpCongState_t newState) override;
  void CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t event) override;
  bool HasCongControl() const override;
  void CongControl(Ptr<TcpSocketState> tcb, const TcpRateOps::TcpRateConnection& rc,
                   const TcpRateOps::TcpRateSample& rs) override;
  Ptr<TcpCongestionOps> Fork() override;

  void SetNetccParam(std::size_t index, const netcc::ns3::param_value& v) override;
  netcc::ns3::param_value GetNetccParam(std::size_t index) const override;

  /// @brief INT hop records to attach to the next ACK this socket processes (NetccIntReflector
  /// calls this from the socket's "Rx" trace, which fires before CongControl).
  void SetPendingInt(const netcc::ns3::hop_record* hops, std::uint8_t count, bool switchAck);
  /// @brief INT hop records carried by the segment the host is about to hand to TCP, with its
  /// ACK number (NetccIntHelper sets this from the IPv4 LocalDeliver trace, which fires just
  /// before TCP processes the segment; the next CongControl at the same time and ACK number
  /// takes it). `count` 0 clears it.
  static void SetIncomingInt(const netcc::ns3::hop_record* hops, std::uint8_t count, bool switchAck,
                             std::uint32_t ackNumber);
  /// @brief The controller kind (nullptr before the object is bound to its TypeId).
  const netcc::ns3::controller_kind* GetKind() const;
  /// @brief The controller's window, bytes (0 before Init).
  std::uint64_t GetControllerCwnd() const;
  /// @brief The controller's pacing rate, bit/s (UINT64_MAX if it does not pace; 0 before Init).
  std::uint64_t GetControllerPacingRate() const;

 private:
  const netcc::ns3::controller_kind& Kind() const;
  void MakeController(Ptr<TcpSocketState> tcb);
  void Apply(Ptr<TcpSocketState> tcb);
  netcc::ns3::ack_info MakeAck(Ptr<const TcpSocketState> tcb);

  mutable const netcc::ns3::controller_kind* m_kind = nullptr;
  std::vector<netcc::ns3::param_value> m_values;
  std::unique_ptr<netcc::ns3::controller> m_cc;
  // 64-bit unwrapping of ns-3's 32-bit sequence numbers.
  bool m_haveSeq = false;
  std::uint32_t m_lastAck32 = 0;
  std::uint64_t m_ack64 = 0;
  std::uint32_t m_lastNxt32 = 0;
  std::uint64_t m_nxt64 = 0;
  netcc::ns3::ack_info m_lastAck{};
  // INT reflected onto the ACK being processed.
  netcc::ns3::hop_record m_pendingHops[netcc::ns3::max_int_hops]{};
  std::uint8_t m_pendingCount = 0;
  bool m_pendingSwitchAck = false;
  bool m_havePending = false;
  // RFC 8257 §3.2 receiver: the CE state of the last data packet, and a pending delayed ACK.
  bool m_ceState = false;
  bool m_delayedAckPending = false;
};

}  // namespace ns3

#endif  // NETCC_NS3_TCP_CONGESTION_OPS_H
