// SPDX-License-Identifier: MIT
/// @file
/// @brief The seam between netcc (C++20) and ns-3 (C++17): plain event records, a run-time
/// controller interface and a registry of controller kinds with their parameters.
///
/// ns-3 3.37's headers do not compile as C++20 under g++ 12, and netcc's headers need C++20.
/// The adapter is therefore two halves that never see each other's headers: the netcc half
/// (C++20, `register.hpp`) wraps each netcc controller behind netcc::ns3::controller, and the
/// ns-3 half (C++17, `tcp-congestion-ops.h`, `int-queue-disc.h`, ...) speaks only this file. An
/// ns-3 script is built as C++17 with any compiler and links `netcc::ns3`.
///
/// This header needs only the standard library (C++17).
#ifndef NETCC_NS3_BRIDGE_H
#define NETCC_NS3_BRIDGE_H

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace netcc::ns3 {

/// @brief How a parameter is typed in ns-3: which AttributeValue carries it.
enum class value_kind : std::uint8_t {
  real,     ///< DoubleValue
  integer,  ///< IntegerValue (signed 64-bit)
  boolean,  ///< BooleanValue
  bytes,    ///< UintegerValue, in bytes
  time,     ///< TimeValue, nanoseconds on the netcc side
  rate,     ///< DataRateValue, bits per second on the netcc side
  choice    ///< EnumValue over param_info::choices (index 0, 1, ...)
};

/// @brief A parameter's value on its way across the seam: `real` for value_kind::real, `integer`
/// for every other kind (0/1, bytes, ns, bit/s, choice index).
struct param_value {
  double real = 0;           ///< The value of a value_kind::real parameter.
  std::int64_t integer = 0;  ///< The value of every other kind.
};

/// @brief One controller parameter as an ns-3 Attribute.
struct param_info {
  std::string attribute;               ///< The Attribute's name, e.g. "Alpha".
  std::string field;                   ///< netcc's field name in its errors, e.g. "vegas.alpha".
  std::string help;                    ///< The Attribute's help text.
  value_kind kind = value_kind::real;  ///< Its ns-3 value type.
  param_value initial;                 ///< netcc's default.
  std::vector<std::string> choices;    ///< The names of a value_kind::choice parameter's values.
};

/// @brief The most INT hop records an event carries (netcc::int_stack's default).
inline constexpr std::size_t max_int_hops = 5;

/// @brief One INT hop record (netcc::int_hop): egress timestamp (ns), queue length (bytes),
/// transmitted-bytes counter and link rate (bit/s) at the hop.
struct hop_record {
  std::uint64_t ts_ns = 0;     ///< Egress timestamp, ns.
  std::uint64_t qlen = 0;      ///< Queue length at dequeue, bytes.
  std::uint64_t tx_bytes = 0;  ///< The port's transmitted-bytes counter.
  std::uint64_t rate_bps = 0;  ///< The port's link rate, bit/s.
};

/// @brief An ACK as the sender's stack sees it (netcc::ack_event).
struct ack_info {
  std::int64_t now_ns = 0;          ///< Arrival time, ns.
  std::uint64_t ack_seq = 0;        ///< Cumulative ACK (unwrapped, 64-bit).
  std::uint64_t snd_nxt = 0;        ///< Highest sequence sent + 1 (unwrapped).
  std::uint64_t acked = 0;          ///< Bytes newly acknowledged by this ACK.
  std::int64_t rtt_ns = 0;          ///< RTT sample, ns (0 when this ACK has none).
  bool ecn_echo = false;            ///< ECN-Echo.
  bool inc = false;                 ///< Bolt's INC flag.
  bool switch_ack = false;          ///< FastTune: a switch-generated S-ACK.
  std::uint8_t hop_count = 0;       ///< Valid entries of `hops`.
  hop_record hops[max_int_hops]{};  ///< INT hop records, first hop first.
};

/// @brief A Bolt SRC (netcc::src_event).
struct src_info {
  std::int64_t now_ns = 0;         ///< Arrival time, ns.
  std::uint64_t queue = 0;         ///< Queue size carried, bytes.
  std::uint64_t rate_bps = 0;      ///< The congested link's rate, bit/s.
  std::uint32_t tx_timestamp = 0;  ///< The data packet's 32-bit send timestamp, echoed.
};

/// @brief Bit `1 << netcc::cc_event` for each event a controller consumes.
enum event_bit : unsigned {
  ev_ack = 1u << 0,      ///< on_ack
  ev_rtt = 1u << 1,      ///< on_rtt (delivered as on_ack)
  ev_cnp = 1u << 2,      ///< on_cnp
  ev_src = 1u << 3,      ///< on_src
  ev_timer = 1u << 4,    ///< on_timer
  ev_send = 1u << 5,     ///< on_send
  ev_loss = 1u << 6,     ///< on_loss
  ev_timeout = 1u << 7,  ///< on_timeout
};

/// @brief Marks a sender puts on a data packet (controller::on_send).
enum send_mark : unsigned {
  mark_first = 1u << 0,  ///< Bolt FIRST: in the flow's first window.
  mark_last = 1u << 1,   ///< Bolt LAST: in the flow's last window.
  mark_inc = 1u << 2,    ///< Bolt INC: asks the switches for a packet of window.
};

/// @brief What the switches and receivers must provide for a controller kind.
enum class feedback_need : std::uint8_t {
  rtt,         ///< RTT samples only (Vegas, Swift, TIMELY, theta-PowerTCP).
  ecn,         ///< ECN marks echoed per packet (DCTCP).
  int_,        ///< INT hop records reflected onto ACKs (PowerTCP, HPCC).
  int_padded,  ///< INT padded into ACKs and switch S-ACKs (FastTune).
  cnp,         ///< ECN marks turned into CNPs by a notification point (DCQCN).
  src          ///< Bolt's switch SRCs and INC marks (Bolt).
};

/// @brief One flow's controller behind a virtual interface. Every output is finite and inside
/// the controller's bounds whatever the input (netcc's contract).
class controller {
 public:
  virtual ~controller() = default;
  /// @brief An ACK arrived.
  virtual void on_ack(const ack_info& a) = 0;
  /// @brief A loss was detected by duplicate ACKs (`a` is the ACK that revealed it).
  virtual void on_loss(const ack_info& a) = 0;
  /// @brief The retransmission timer fired.
  virtual void on_timeout(std::int64_t now_ns) = 0;
  /// @brief A data packet of `payload` bytes leaves now; the application has `remaining` bytes
  /// after it (UINT64_MAX: without end). Returns the marks the controller puts on the packet
  /// (mark_first | mark_last | mark_inc: Bolt §4.2), 0 for other controllers.
  virtual unsigned on_send(std::uint64_t payload, std::uint64_t remaining, std::int64_t now_ns) = 0;
  /// @brief A DCQCN CNP arrived.
  virtual void on_cnp(std::int64_t now_ns) = 0;
  /// @brief A Bolt SRC arrived.
  virtual void on_src(const src_info& s) = 0;
  /// @brief A periodic tick (DCQCN's timers).
  virtual void on_timer(std::int64_t now_ns) = 0;
  /// @brief Congestion window, bytes (UINT64_MAX for a purely rate-based controller).
  [[nodiscard]] virtual std::uint64_t cwnd() const = 0;
  /// @brief Pacing rate, bit/s (UINT64_MAX for a purely window-based controller).
  [[nodiscard]] virtual std::uint64_t pacing_bps() const = 0;
  /// @brief A copy in the same state (ns-3's Fork()).
  [[nodiscard]] virtual std::unique_ptr<controller> clone() const = 0;
};

/// @brief One kind of controller: its ns-3 TypeId, its parameters, and how to make one.
struct controller_kind {
  std::string name;                         ///< netcc's name, e.g. "dctcp".
  std::string type_id;                      ///< The ns-3 TypeId, e.g. "ns3::NetccDctcp".
  std::string description;                  ///< With the paper reference.
  unsigned events = 0;                      ///< event_bit mask.
  feedback_need need = feedback_need::rtt;  ///< What the network must provide.
  bool window_in_mss = false;      ///< The controller has an MSS parameter, set from the socket.
  std::vector<param_info> params;  ///< Its Attributes.
  /// @brief netcc's rules for one field with the others at their defaults: "" when `v` is
  /// valid, else netcc's messages ("field = value: rule"), "; "-separated.
  std::function<std::string(std::size_t index, const param_value& v)> check_field;
  /// @brief A controller from a full set of values (`mss` > 0 overrides the MSS parameter);
  /// nullptr and `error` set to netcc's messages when netcc rejects them.
  std::function<std::unique_ptr<controller>(const std::vector<param_value>& values,
                                            std::uint32_t mss, std::string& error)>
      make;
};

/// @brief Every kind known to the adapter: netcc's built-in controllers first (registered when
/// the library loads), then any added with add_controller_kind(). Elements never move, so a
/// pointer to one stays valid.
const std::deque<controller_kind>& controller_kinds();

/// @brief The suffix of a kind's rate-transport sender TypeId: `type_id + sender_suffix`.
inline constexpr const char* sender_suffix = "Sender";

/// @brief The kind registered under `type_id` ("ns3::NetccDctcp"), its sender TypeId
/// ("ns3::NetccDctcpSender") or netcc name ("dctcp"); nullptr if none.
const controller_kind* find_controller_kind(const std::string& type_id_or_name);

/// @brief Add a kind (netcc::ns3::register_controller does this from a netcc controller type,
/// then registers its TypeIds). Returns false, adding nothing, if the name or TypeId is taken.
bool add_controller_kind(controller_kind kind);

/// @brief One switch egress port as netcc's switch functions see it.
struct port_state {
  std::uint64_t qlen = 0;      ///< Bytes queued (at dequeue: after the packet left).
  std::uint64_t tx_bytes = 0;  ///< Bytes the port has transmitted.
  std::uint64_t rate_bps = 0;  ///< Its link rate, bit/s.
};

/// @brief netcc::int_push (PowerTCP §3.3, HPCC §3.2): append this port's hop record at `now_ns`
/// to `hops[0, count)` unless `count` has reached `max_hops` (at most max_int_hops). True if
/// pushed.
bool int_push(hop_record* hops, std::uint8_t& count, std::uint8_t max_hops, std::int64_t now_ns,
              const port_state& port);

/// @brief netcc::red_ecn_params: K_min, K_max (bytes), P_max, and whether a selected Not-ECT
/// packet is dropped (RFC 3168 §7).
struct red_config {
  std::uint64_t k_min = 5'000;    ///< Bytes.
  std::uint64_t k_max = 200'000;  ///< Bytes.
  double p_max = 0.01;            ///< Marking probability at K_max.
  bool drop_not_ect = true;       ///< Drop a selected Not-ECT packet.
};

/// @brief netcc's validate() of `c`: "" or its messages.
std::string check_red(const red_config& c);

/// @brief What netcc::red_ecn_on_packet decides for a packet.
enum class red_verdict : std::uint8_t { pass, mark, drop };

/// @brief netcc::red_ecn_on_packet: the decision for a packet with ECN codepoint `ecn` (the IP
/// field, 0-3) arriving to `backlog` bytes, given a uniform 32-bit `draw`.
red_verdict red_decide(const red_config& c, std::uint8_t ecn, std::uint64_t backlog,
                       std::uint32_t draw);

/// @brief One flow's state at a DCQCN notification point (netcc::dcqcn_np_flow_state).
struct np_flow {
  std::int64_t last_cnp_ns = 0;  ///< When the last CNP was (or is to be) sent.
  bool any = false;              ///< Whether one was.
};

/// @brief What netcc::dcqcn_np_on_packet decides.
enum class np_verdict : std::uint8_t { none, send_now, schedule };

/// @brief netcc::dcqcn_np_on_packet (the network-calculus seed §III-B d; DCQCN §3.1): for a
/// packet that arrives at `now_ns`, CE-marked or not, with CNPs at least `interval_ns` apart;
/// `schedule_mode` picks the minimum-spacing variant, which sets `at_ns` for a later CNP.
np_verdict np_on_packet(np_flow& f, bool ce, std::int64_t now_ns, std::int64_t interval_ns,
                        bool schedule_mode, std::int64_t& at_ns);

/// @brief netcc::bolt_params: MTU, CC_THRESH (bytes), proactive ramp-up and supply matching.
struct bolt_switch_config {
  std::uint64_t mtu = 1500;        ///< Bytes.
  std::uint64_t cc_thresh = 1500;  ///< Bytes: the queue from which a port is congested.
  bool pru = true;                 ///< Proactive ramp-up (Bolt §3.2).
  bool sm = true;                  ///< Supply matching (Bolt §3.3).
};

/// @brief One port's Bolt state (netcc::bolt_port_state).
struct bolt_port {
  std::int64_t last_sm_ns = 0;  ///< Last supply-token update.
  std::int32_t sm_token = 0;    ///< Supply token, bytes.
  std::uint32_t pru_token = 0;  ///< Proactive ramp-up tokens.
};

/// @brief The Bolt fields of a data packet the switch reads and rewrites.
struct bolt_packet {
  bool data = true;             ///< A data packet (others pass untouched).
  bool first = false;           ///< FIRST.
  bool last = false;            ///< LAST.
  bool inc = false;             ///< INC (cleared when no token is left).
  bool dec = false;             ///< DEC (set when an SRC was sent).
  std::uint32_t t_data_tx = 0;  ///< The sender's 32-bit send time.
};

/// @brief An SRC to send back to the data packet's sender, if `send`.
struct bolt_src_out {
  bool send = false;            ///< An SRC was generated.
  std::uint64_t queue = 0;      ///< Its queue size, bytes (as encoded on the wire).
  std::uint64_t rate_bps = 0;   ///< Its link rate (as encoded on the wire).
  std::uint32_t t_data_tx = 0;  ///< The data packet's send time, echoed.
};

/// @brief netcc::bolt_ingress (Bolt NSDI'23 Algorithm 1 with Algorithm 3's supply token) for a
/// packet of `pkt_size` bytes joining a port with `q_size` bytes queued at `rate_bps`.
bolt_src_out bolt_on_packet(bolt_port& port, bolt_packet& pkt, std::uint64_t pkt_size,
                            std::uint64_t q_size, std::uint64_t rate_bps, std::int64_t now_ns,
                            const bolt_switch_config& c);

/// @brief netcc's validate() of `c`: "" or its messages.
std::string check_bolt(const bolt_switch_config& c);

/// @brief netcc::fasttune_switch_params: S-ACKs on, ACK padding on, the hop limit.
struct fasttune_config {
  bool switch_feedback = true;           ///< Send S-ACKs (FastTune Algorithm 1 lines 2-5).
  bool ack_padding = true;               ///< Pad ACKs with the data port's INT (lines 6-8).
  std::uint8_t max_hops = max_int_hops;  ///< INT records an ACK may carry.
};

/// @brief What a FastTune switch sees: a data packet, the receiver's ACK or a switch's S-ACK.
enum class fasttune_kind : std::uint8_t { data, host_ack, switch_ack };

/// @brief An S-ACK to send back to the data's sender, if `send`, with its one INT record.
struct fasttune_out {
  bool send = false;                ///< An S-ACK was generated.
  std::uint8_t count = 0;           ///< Its INT records (one).
  hop_record hops[max_int_hops]{};  ///< The data port's record.
};

/// @brief netcc::fasttune_switch (FastTune ISPA'21 Algorithm 1) for one packet of a flow whose
/// NewACK flag is `new_ack`: data may make an S-ACK carrying `data_egress`'s INT; an ACK turns
/// NewACK off and gets `data_egress`'s INT pushed onto `hops[0, count)`.
fasttune_out fasttune_on_packet(bool& new_ack, fasttune_kind kind, hop_record* hops,
                                std::uint8_t& count, const port_state& data_egress,
                                std::int64_t now_ns, const fasttune_config& c);

/// @brief Register the ns-3 TypeIds of every kind not yet registered (done at load time for
/// the built-ins and by register_controller(); safe to call again). Defined by the ns-3 half.
void register_type_ids();

}  // namespace netcc::ns3

#endif  // NETCC_NS3_BRIDGE_H
