// SPDX-License-Identifier: MIT
// ns3::NetccTcpCongestionOps: any netcc controller as an ns-3 TCP congestion control, and the
// registration of one TypeId per controller kind. C++17, ns-3 headers and bridge.h only.
#include "netcc-ns3/tcp-congestion-ops.h"

#include "netcc-ns3/rate-transport.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <mutex>
#include <string>

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-socket-state.h"

namespace {

// DCQCN and Bolt need CNPs and SRCs, which TCP does not carry: they run over the rate-based
// transport (rate-transport.h) instead.
bool RunsOverTcp(const netcc::ns3::controller_kind& k) {
  return k.need != netcc::ns3::feedback_need::cnp && k.need != netcc::ns3::feedback_need::src;
}

}  // namespace

namespace ns3 {

NS_LOG_COMPONENT_DEFINE("NetccTcpCongestionOps");

namespace {

// The INT of the segment being delivered to TCP right now (see SetIncomingInt). ns-3 runs one
// event at a time on a thread; thread_local keeps independent simulations on other threads
// apart.
struct IncomingInt {
  bool valid = false;
  std::int64_t now_ns = 0;
  std::uint32_t ack = 0;
  bool switchAck = false;
  std::uint8_t count = 0;
  netcc::ns3::hop_record hops[netcc::ns3::max_int_hops]{};
};
thread_local IncomingInt g_incoming;

// The window ns-3 is given: the controller's, at least one segment (a controller's window
// below one packet is carried out by its pacing rate), at most half the 32-bit range.
std::uint32_t WindowFor(std::uint64_t w, std::uint32_t segment) {
  constexpr std::uint64_t top = std::numeric_limits<std::uint32_t>::max() / 2;
  const std::uint64_t clamped = std::min<std::uint64_t>(w, top);
  return static_cast<std::uint32_t>(std::max<std::uint64_t>(clamped, segment));
}

}  // namespace

TypeId NetccTcpCongestionOps::GetTypeId() {
  static TypeId tid =
      TypeId("ns3::NetccTcpCongestionOps").SetParent<TcpCongestionOps>().SetGroupName("Netcc");
  return tid;
}

NetccTcpCongestionOps::NetccTcpCongestionOps() = default;

NetccTcpCongestionOps::NetccTcpCongestionOps(const NetccTcpCongestionOps& other)
    : TcpCongestionOps(other),
      NetccParameterHolder(other),
      m_kind(other.m_kind),
      m_values(other.m_values),
      m_cc(other.m_cc ? other.m_cc->clone() : nullptr) {}

NetccTcpCongestionOps::~NetccTcpCongestionOps() = default;

const netcc::ns3::controller_kind& NetccTcpCongestionOps::Kind() const {
  if (m_kind == nullptr) {
    const std::string name = GetInstanceTypeId().GetName();
    m_kind = netcc::ns3::find_controller_kind(name);
    if (m_kind == nullptr || !RunsOverTcp(*m_kind)) {
      NS_FATAL_ERROR("netcc: " << name
                               << " is not a netcc TCP congestion control; create it through its "
                                  "TypeId (e.g. ns3::NetccDctcp)");
    }
  }
  return *m_kind;
}

const netcc::ns3::controller_kind* NetccTcpCongestionOps::GetKind() const {
  if (m_kind == nullptr &&
      netcc::ns3::find_controller_kind(GetInstanceTypeId().GetName()) == nullptr) {
    return nullptr;
  }
  return &Kind();
}

std::string NetccTcpCongestionOps::GetName() const {
  const std::string& id = Kind().type_id;
  return id.rfind("ns3::", 0) == 0 ? id.substr(5) : id;
}

void NetccTcpCongestionOps::SetNetccParam(std::size_t index, const netcc::ns3::param_value& v) {
  if (m_values.empty()) m_values = NetccDefaultParams(Kind());
  if (index < m_values.size()) m_values[index] = v;
}

netcc::ns3::param_value NetccTcpCongestionOps::GetNetccParam(std::size_t index) const {
  if (index < m_values.size()) return m_values[index];
  const auto& k = Kind();
  return index < k.params.size() ? k.params[index].initial : netcc::ns3::param_value{};
}

void NetccTcpCongestionOps::MakeController(Ptr<TcpSocketState> tcb) {
  const auto& k = Kind();
  if (m_values.empty()) m_values = NetccDefaultParams(k);
  std::string error;
  m_cc = k.make(m_values, tcb->m_segmentSize, error);
  if (!m_cc) {
    NS_FATAL_ERROR("netcc: " << k.type_id << ": invalid parameters: " << error);
  }
}

void NetccTcpCongestionOps::Init(Ptr<TcpSocketState> tcb) {
  NS_LOG_FUNCTION(this << tcb);
  const auto& k = Kind();
  if (k.need == netcc::ns3::feedback_need::ecn) {
    // DCTCP needs every CE mark echoed (RFC 8257 §3.2), not RFC 3168's latch.
    tcb->m_useEcn = TcpSocketState::On;
    tcb->m_ecnMode = TcpSocketState::DctcpEcn;
    tcb->m_ectCodePoint = TcpSocketState::Ect0;
  }
  MakeController(tcb);
  if (m_cc->pacing_bps() != std::numeric_limits<std::uint64_t>::max()) tcb->m_pacing = true;
  m_haveSeq = false;
  m_havePending = false;
  m_ceState = false;
  m_delayedAckPending = false;
}

void NetccTcpCongestionOps::Apply(Ptr<TcpSocketState> tcb) {
  if (!m_cc) return;
  const std::uint32_t w = WindowFor(m_cc->cwnd(), std::max<std::uint32_t>(tcb->m_segmentSize, 1));
  tcb->m_cWnd = w;
  tcb->m_cWndInfl = w;
  const std::uint64_t r = m_cc->pacing_bps();
  if (r != std::numeric_limits<std::uint64_t>::max()) {
    tcb->m_pacingRate = DataRate(std::max<std::uint64_t>(r, 1));
  }
}

netcc::ns3::ack_info NetccTcpCongestionOps::MakeAck(Ptr<const TcpSocketState> tcb) {
  netcc::ns3::ack_info a;
  a.now_ns = Simulator::Now().GetNanoSeconds();
  const std::uint32_t ack32 = tcb->m_lastAckedSeq.GetValue();
  const std::uint32_t nxt32 = tcb->m_highTxMark.Get().GetValue();
  const std::uint64_t previous = m_ack64;
  if (!m_haveSeq) {
    // Start one wrap up, so that a sequence that moves back never goes below zero.
    m_ack64 = (std::uint64_t{1} << 32) + ack32;
    m_nxt64 = (std::uint64_t{1} << 32) + nxt32;
    m_haveSeq = true;
  } else {
    m_ack64 += static_cast<std::uint64_t>(
        static_cast<std::int64_t>(static_cast<std::int32_t>(ack32 - m_lastAck32)));
    m_nxt64 += static_cast<std::uint64_t>(
        static_cast<std::int64_t>(static_cast<std::int32_t>(nxt32 - m_lastNxt32)));
  }
  m_lastAck32 = ack32;
  m_lastNxt32 = nxt32;
  const bool advanced = m_ack64 > previous;
  a.ack_seq = m_ack64;
  a.snd_nxt = std::max(m_nxt64, m_ack64);
  a.acked = tcb->m_lastAckedSackedBytes;
  const Time rtt = tcb->m_lastRtt.Get();
  a.rtt_ns = advanced && rtt.IsStrictlyPositive() ? rtt.GetNanoSeconds() : 0;
  a.ecn_echo = advanced && tcb->m_ecnState == TcpSocketState::ECN_ECE_RCVD;
  if (m_havePending) {
    a.hop_count = m_pendingCount;
    std::copy(m_pendingHops, m_pendingHops + m_pendingCount, a.hops);
    a.switch_ack = m_pendingSwitchAck;
    m_havePending = false;
  } else if (g_incoming.valid && g_incoming.now_ns == a.now_ns && g_incoming.ack == ack32) {
    a.hop_count = g_incoming.count;
    std::copy(g_incoming.hops, g_incoming.hops + g_incoming.count, a.hops);
    a.switch_ack = g_incoming.switchAck;
    g_incoming.valid = false;
  }
  return a;
}

void NetccTcpCongestionOps::SetPendingInt(const netcc::ns3::hop_record* hops, std::uint8_t count,
                                          bool switchAck) {
  m_pendingCount = std::min<std::uint8_t>(count, netcc::ns3::max_int_hops);
  std::copy(hops, hops + m_pendingCount, m_pendingHops);
  m_pendingSwitchAck = switchAck;
  m_havePending = true;
}

void NetccTcpCongestionOps::SetIncomingInt(const netcc::ns3::hop_record* hops, std::uint8_t count,
                                           bool switchAck, std::uint32_t ackNumber) {
  g_incoming.valid = count > 0;
  if (!g_incoming.valid) return;
  g_incoming.now_ns = Simulator::Now().GetNanoSeconds();
  g_incoming.ack = ackNumber;
  g_incoming.switchAck = switchAck;
  g_incoming.count = std::min<std::uint8_t>(count, netcc::ns3::max_int_hops);
  std::copy(hops, hops + g_incoming.count, g_incoming.hops);
}

uint32_t NetccTcpCongestionOps::GetSsThresh(Ptr<const TcpSocketState> tcb,
                                            uint32_t /*bytesInFlight*/) {
  // ns-3 asks on entering CWR, recovery or loss; the controller keeps its own state, so the
  // threshold only mirrors its window.
  if (!m_cc) return 2 * tcb->m_segmentSize;
  return std::max(WindowFor(m_cc->cwnd(), tcb->m_segmentSize), 2 * tcb->m_segmentSize);
}

void NetccTcpCongestionOps::IncreaseWindow(Ptr<TcpSocketState> /*tcb*/,
                                           uint32_t /*segmentsAcked*/) {
  // Unused: CongControl owns the window.
}

void NetccTcpCongestionOps::PktsAcked(Ptr<TcpSocketState> /*tcb*/, uint32_t /*segmentsAcked*/,
                                      const Time& /*rtt*/) {
  // Unused: CongControl reads the ACK from TcpSocketState after ns-3's bookkeeping.
}

void NetccTcpCongestionOps::CongestionStateSet(Ptr<TcpSocketState> tcb,
                                               const TcpSocketState::TcpCongState_t newState) {
  if (!m_cc) return;
  const std::int64_t now = Simulator::Now().GetNanoSeconds();
  if (newState == TcpSocketState::CA_RECOVERY && (Kind().events & netcc::ns3::ev_loss)) {
    netcc::ns3::ack_info a = m_lastAck;
    a.now_ns = now;
    m_cc->on_loss(a);
    Apply(tcb);
  } else if (newState == TcpSocketState::CA_LOSS && (Kind().events & netcc::ns3::ev_timeout)) {
    m_cc->on_timeout(now);
  }
}

void NetccTcpCongestionOps::CwndEvent(Ptr<TcpSocketState> tcb,
                                      const TcpSocketState::TcpCAEvent_t event) {
  switch (event) {
    case TcpSocketState::CA_EVENT_TX_START:
      // Sending from idle: start from the controller's window (its initial window the first
      // time), not ns-3's InitialCwnd.
      Apply(tcb);
      break;
    case TcpSocketState::CA_EVENT_DELAYED_ACK:
      m_delayedAckPending = true;
      break;
    case TcpSocketState::CA_EVENT_NON_DELAYED_ACK:
      m_delayedAckPending = false;
      break;
    case TcpSocketState::CA_EVENT_ECN_IS_CE:
    case TcpSocketState::CA_EVENT_ECN_NO_CE: {
      if (Kind().need != netcc::ns3::feedback_need::ecn) break;
      // RFC 8257 §3.2: echo each packet's CE exactly; when the CE state changes while an ACK
      // is being delayed, first send that ACK with the old state.
      const bool ce = event == TcpSocketState::CA_EVENT_ECN_IS_CE;
      if (ce != m_ceState && m_delayedAckPending && !tcb->m_sendEmptyPacketCallback.IsNull()) {
        tcb->m_ecnState = m_ceState ? TcpSocketState::ECN_CE_RCVD : TcpSocketState::ECN_IDLE;
        tcb->m_sendEmptyPacketCallback(m_ceState ? (TcpHeader::ACK | TcpHeader::ECE)
                                                 : TcpHeader::ACK);
        m_delayedAckPending = false;
      }
      m_ceState = ce;
      tcb->m_ecnState = ce ? TcpSocketState::ECN_CE_RCVD : TcpSocketState::ECN_IDLE;
      break;
    }
    default:
      break;
  }
}

bool NetccTcpCongestionOps::HasCongControl() const {
  return true;
}

void NetccTcpCongestionOps::CongControl(Ptr<TcpSocketState> tcb,
                                        const TcpRateOps::TcpRateConnection& /*rc*/,
                                        const TcpRateOps::TcpRateSample& /*rs*/) {
  if (!m_cc) MakeController(tcb);
  m_lastAck = MakeAck(tcb);
  if (Kind().events & (netcc::ns3::ev_ack | netcc::ns3::ev_rtt)) m_cc->on_ack(m_lastAck);
  Apply(tcb);
}

Ptr<TcpCongestionOps> NetccTcpCongestionOps::Fork() {
  return CopyObject<NetccTcpCongestionOps>(this);
}

std::uint64_t NetccTcpCongestionOps::GetControllerCwnd() const {
  return m_cc ? m_cc->cwnd() : 0;
}

std::uint64_t NetccTcpCongestionOps::GetControllerPacingRate() const {
  return m_cc ? m_cc->pacing_bps() : 0;
}

}  // namespace ns3

namespace netcc::ns3 {

void register_type_ids() {
  static std::mutex lock;
  const std::lock_guard<std::mutex> g(lock);
  for (const auto& k : controller_kinds()) {
    ::ns3::TypeId existing;
    // Every kind drives the rate-based transport's sender; those that TCP can carry are also
    // TCP congestion controls.
    if (!::ns3::TypeId::LookupByNameFailSafe(k.type_id + sender_suffix, &existing)) {
      ::ns3::TypeId tid = ::ns3::TypeId(k.type_id + sender_suffix)
                              .SetParent(::ns3::NetccRateSender::GetTypeId())
                              .SetGroupName("Netcc")
                              .AddConstructor<::ns3::NetccRateSender>();
      ::ns3::AddNetccAttributes(tid, k);
    }
    if (!RunsOverTcp(k) || ::ns3::TypeId::LookupByNameFailSafe(k.type_id, &existing)) continue;
    ::ns3::TypeId tid = ::ns3::TypeId(k.type_id)
                            .SetParent(::ns3::NetccTcpCongestionOps::GetTypeId())
                            .SetGroupName("Netcc")
                            .AddConstructor<::ns3::NetccTcpCongestionOps>();
    ::ns3::AddNetccAttributes(tid, k);
  }
}

namespace {
// The built-in kinds become TypeIds when the library loads, so that a script can name them in
// Config::SetDefault or on the command line without calling anything first.
[[maybe_unused]] const bool g_registered = (register_type_ids(), true);
}  // namespace

}  // namespace netcc::ns3
