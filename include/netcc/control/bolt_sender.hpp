// SPDX-License-Identifier: MIT
/// @file
/// @brief Bolt sender (Algorithm 2): a packet-granular window decremented by sub-RTT switch
/// feedback (SRC) and incremented by switch-granted INC flags and a per-RTT additive increase,
/// with the FIRST/LAST/INC marking of §3.2 and §4.2 and Swift's loss reaction.
///
/// Paper: Serhat Arslan, Yuliang Li, Gautam Kumar, Nandita Dukkipati, "Bolt: Sub-RTT Congestion
/// Control for Ultra-Low Latency", USENIX NSDI 2023. The switch half (Algorithm 1, 3, 4 and the
/// Listing 1 header) is netcc/fabric/bolt.hpp; netcc::src_event and netcc::IncFeedback /
/// netcc::SrcFeedback (netcc/core/feedback.hpp) carry its feedback to this sender.
///
/// What is implemented, line by line
/// - HandleSrc (Algorithm 2 lines 1-8, §3.1), netcc::basic_bolt_sender::on_src:
///   line 2 `rtt_src = now - pkt.t_tx_data`, from the reflected 32-bit TX timestamp, wrap-safe
///   (the event's `src_clock` traits: the difference modulo 2^32 ns read as a signed value);
///   line 3 `reaction_factor = flow.rate / pkt.link_rate`; lines 4-5 `target_q = queue_size *
///   reaction_factor`, in packets (queue bytes / mtu); lines 6-8: `cwnd -= 1 packet` and
///   `last_dec_time = now` only if `rtt_src / target_q <= now - last_dec_time`.
/// - HandleAck (Algorithm 2 lines 9-14, §3.2, §3.3), netcc::basic_bolt_sender::on_ack:
///   lines 10-11 `cwnd += 1 packet` when the ACK reflects INC (every switch on the path had a
///   PRU or supply token for the packet); lines 12-14 the per-RTT additive increase of one packet
///   when the ACK passes `seq_no_at_last_ai`, which then becomes `snd_nxt`
///   (netcc::per_rtt_marker). Line 12 tests the acknowledged packet's sequence number,
///   `seq_no >= seq_no_at_last_ai`: the packet was sent at or after the last increase. netcc's
///   ACKs are cumulative (ack_seq = the next byte expected = that packet's seq_no + its length),
///   so the same test reads `ack_seq > seq_no_at_last_ai` (per_rtt_marker::passed): one increase
///   per round trip of the data sent after the previous one, not a second one for the rest of
///   the ACK train that was already in flight.
/// - Send side (§3.2, §4.2), netcc::basic_bolt_sender::on_write and on_send: INC on every data
///   packet ("when transmitting a packet, senders mark the INC flag"); FIRST while the
///   bytes-sent counter, reset when the application writes after an idle period, is below cwnd;
///   LAST while the pending-bytes counter (+ the length of every application send, - every
///   transmitted packet) is below cwnd, for a burst longer than one BDP ("flows larger than one
///   BDP", §3.2). A generic on_send(view, packet) reads `now`, `payload` and `remaining` from the
///   stack's send descriptor and sets `first`, `last` and `inc` on its packet (netcc::bolt_header,
///   the testbench packet, or a stack's own type).
/// - Window: cwnd in bytes (the arithmetic policy's number), moved in steps of one packet
///   (`mss` bytes of window, `mtu` unless set), within [min_cwnd, max_cwnd]; below one packet
///   the sender paces at cwnd / RTT (one packet every RTT / cwnd packets), as Swift does, and
///   never below 1 bps (netcc::min_pacing_rate: a 0 bps rate would stop a flow whose window is
///   open); otherwise pacing_rate() is the NIC rate (no pacing beyond the window).
/// - Losses and timeouts (§3.1: "handling retransmission timeouts, selective acknowledgments,
///   and loss recovery are kept the same as in Swift"): Swift's rules (G. Kumar et al., "Swift:
///   Delay is Simple and Effective for Congestion Control in the Datacenter", SIGCOMM 2020,
///   Algorithm 1), implemented here: every ACK resets `retransmit_cnt`; a retransmission
///   timeout (on_timeout) increments it and sets cwnd to min_cwnd once it reaches
///   `RETX_RESET_THRESHOLD`, otherwise cuts cwnd by (1 - max_mdf) if no loss cut happened in the
///   last RTT (`can_decrease`); fast recovery (on_loss) resets `retransmit_cnt` and makes the same
///   once-per-RTT cut.
///
/// Defaults (netcc::bolt_sender_params) and their sources
/// - mtu = 1500 B: the packet on the wire, unit of target_q "in number of packets" (the queue
///   an SRC reports counts wire bytes); Bolt does not state its MTU, 1500 B is the Ethernet MTU
///   and the default of netcc::bolt_params (the switch's CC_THRESH and token size), so both
///   halves agree.
/// - mss = 0 (= mtu): the window bytes one packet takes, the step of Algorithm 2's "cwnd +- 1"
///   (lines 7, 11, 13). Algorithm 2 counts cwnd in packets; a stack that counts its window in
///   wire bytes steps by mtu, one that counts payload (sequence) bytes, as TCP and the netcc
///   testbench do, must step by its MSS, or every INC, SRC and additive increase moves the
///   window by mtu / mss packets instead of one (1500 / 1460 = 1.027 in the testbench).
/// - host_rate = 100 Gbps, base_rtt = 8 us: the §5.1 dumbbell ("8 us RTT at 100Gbps").
/// - cwnd_init = host_rate * base_rtt (one BDP): §5.1.1, "a new flow starting at line rate emits
///   BDP worth of packets until it receives the first congestion feedback"; in window bytes,
///   host_rate * base_rtt * mss / mtu (BDP / mtu packets of mss bytes each).
/// - min_cwnd = 10 B: netcc's choice. Swift lets cwnd fall below one packet and paces; 10 B is
///   below the fair share of the paper's largest incast (§5.4: 5000 flows into one 100 Gbps
///   port of the 5 us star of §5.1.2, 62500 B / 5000 = 12.5 B).
/// - max_cwnd = 2^31 - 1 B: the range of netcc::arith::q32.
/// - max_mdf = 0.5, retx_reset_threshold = 5: Swift names both as parameters without fixing
///   them in Algorithm 1; netcc halves (as TCP does on loss) and resets after five consecutive
///   timeouts.
///
/// Decisions the paper leaves open (each tested in tests/control/bolt_sender_test.cpp)
/// - flow.rate (line 3) = min(cwnd / RTT, host_rate), with RTT the latest ACK RTT sample
///   (base_rtt until one arrives, or when the ACK type carries none): the rate the window
///   sustains, and never more than the NIC.
/// - Before the first decrement `now - last_dec_time` is unbounded: the first SRC is judged
///   with the cap of line 6 below (it decrements unless its interval exceeds 1.07 s).
/// - A negative rtt_src (the reflected timestamp is ahead of `now`, or the SRC is older than
///   half the 32-bit range, 2.1 s) is no sample: nothing changes. rtt_src = 0 gives interval 0.
/// - target_q <= 0 (empty queue, negative queue field) decrements nothing and divides by
///   nothing. A reported link rate of zero (no rate in the SRC) gives reaction_factor = 1: the
///   flow is taken as the queue's only contributor, the conservative reading.
/// - An SRC whose `now` is before last_dec_time (reordered) decrements nothing.
/// - The first ACK starts the first additive-increase round (seq_no_at_last_ai starts "unset",
///   as Algorithm 2's zero-initialised variable does for a flow starting at sequence 0).
/// - Idle (§4.2 "keeps track of idle periods"): the connection is idle when its last ACK
///   acknowledged everything sent (ack_seq >= snd_nxt) and no packet left since; an application
///   write that finds it idle with nothing pending resets the bytes-sent counter.
/// - FIRST compares the bytes-sent counter before this packet with cwnd (the first packet of a
///   burst is always FIRST); LAST compares the pending counter after this packet is subtracted
///   (§4.2 decrements on transmission, then tests the counter). "Longer than one BDP" is the
///   burst (bytes sent since idle + pending) against one BDP in window bytes (bdp()).
/// - INC is set on LAST packets too ("senders mark the INC flag", §3.2); Algorithm 1 leaves a
///   LAST packet's INC alone at an uncongested switch, so a finishing flow may still gain window
///   it no longer needs.
/// - The additive increase of lines 12-14 runs whether or not the window is in use (Algorithm 2
///   has no cwnd-limited test): a flow limited by its NIC or its application keeps growing its
///   window, up to max_cwnd.
/// - Swift's `can_decrease` uses the time of the last loss cut (timeouts and fast recovery)
///   and the latest RTT; Bolt's SRC decrements keep their own `last_dec_time` (they are spaced by
///   line 6, not once per RTT).
///
/// Deviations from the paper, and why
/// - Line 6 compares `rtt_src / target_q` with `now - last_dec_time` capped at 2^30 ns (1.07 s):
///   an interval longer than that (target_q below rtt_src / 1.07 s packets: at rtt_src = 10 us,
///   0.014 B of queue attributed to the flow) never decrements. The cap keeps both arithmetic
///   policies inside the q32 range and so in agreement.
/// - Fixed point (q32) decides lines 3-6 exactly, without a division: with W = cwnd 2^32, the
///   test rtt_src / target_q <= elapsed becomes rtt_src mtu link_rate <= elapsed queue 8e9
///   flow.rate, cross-multiplied into 192-bit integer products (flow.rate = min(W / (RTT 2^32),
///   host_rate / 8e9) picked by one more product comparison). The paper's division and the
///   rounded q32 quotients it used to take are gone; the decision is the exact one, which the
///   double policy approximates (tests/control/bolt_sender_test.cpp checks q32 against an
///   exact rational evaluation and against double).
/// - Invalid parameters are not rejected by the controller (it never fails): each invalid field
///   falls back to its default, max_cwnd to at least min_cwnd; call netcc::validate() to see
///   them.
///
/// @code
/// using namespace netcc::literals;
/// netcc::bolt_sender cc{{.host_rate = 100_Gbps, .base_rtt = 8_us}};   // cwnd = 100000 B
/// cc.on_write(1_MB);                                  // the application's send()
/// netcc::bolt_marks m = cc.on_send(1500_B, netcc::timestamp{0});       // INC, FIRST
/// cc.on_src(netcc::src_event{.now = netcc::timestamp{3000}, .queue = 3000_B,
///                            .link_rate = 100_Gbps, .tx_timestamp = 0});  // cwnd - 1500 B
/// cc.on_ack(netcc::ack_event{.now = netcc::timestamp{8000}, .ack_seq = 1500,
///                            .snd_nxt = 1500, .rtt = 8_us, .inc = true});
/// // + 1500 B for INC, + 1500 B for the first additive increase: cwnd = 101500 B
/// @endcode
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "netcc/control/controller_concepts.hpp"
#include "netcc/core/arith.hpp"
#include "netcc/core/detail/int128.hpp"
#include "netcc/core/divisor.hpp"
#include "netcc/core/feedback.hpp"
#include "netcc/core/per_rtt.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/validation.hpp"
#include "netcc/core/wrap.hpp"

namespace netcc {

/// @brief The largest window the Bolt sender accepts (the q32 integer range).
inline constexpr bytes bolt_sender_window_limit{0x7FFF'FFFF};

/// @brief Parameters of the Bolt sender, with the paper's defaults (§5.1) and netcc's choices
/// where the paper gives none (see the file comment).
/// @code
/// using namespace netcc::literals;
/// netcc::bolt_sender_params p{.host_rate = 25_Gbps, .base_rtt = 12_us};
/// // cwnd_init = 25 Gbps * 12 us = 37500 B; LAST only for bursts above 37500 B
/// @endcode
struct bolt_sender_params {
  /// @brief One packet on the wire: the unit of target_q (Algorithm 2 line 4), and the window
  /// step when mss is 0. Default 1500 B (Ethernet; the switch's netcc::bolt_params).
  bytes mtu{1500};
  /// @brief Window bytes of one packet: the step of every window change (Algorithm 2 lines 7,
  /// 11, 13: cwnd +- 1 packet). 0 (default) takes mtu, for a window counted in wire bytes; a
  /// window counted in payload bytes (TCP, the netcc testbench) sets its MSS, in [1, mtu].
  bytes mss{0};
  /// @brief The NIC rate: caps flow.rate (line 3) and is the pacing rate at or above one packet
  /// of window. Default 100 Gbps (§5.1).
  bit_rate host_rate{100'000'000'000};
  /// @brief Base RTT: with host_rate, the BDP of cwnd_init and of the LAST rule, and the RTT
  /// until the first sample. Default 8 us (§5.1).
  duration base_rtt{8'000};
  /// @brief Initial window; 0 derives one BDP (§5.1.1: line rate): host_rate * base_rtt, times
  /// mss / mtu when mss is set.
  bytes cwnd_init{0};
  /// @brief Smallest window; below one packet the sender paces (Swift). Default 10 B.
  bytes min_cwnd{10};
  /// @brief Largest window (netcc: the q32 range, 2^31 - 1 B).
  bytes max_cwnd{0x7FFF'FFFF};
  /// @brief Swift's max_mdf: a loss cut multiplies cwnd by (1 - max_mdf); in [0, 1].
  double max_mdf = 0.5;
  /// @brief Swift's RETX_RESET_THRESHOLD: consecutive timeouts after which cwnd = min_cwnd.
  std::uint32_t retx_reset_threshold = 5;
  /// @brief Run the per-RTT additive increase (Algorithm 2 lines 12-14, the §3.3 fail-safe).
  bool additive_increase = true;
};

/// @brief Check Bolt sender parameters; every error names "bolt_sender.<field>", the value and
/// the rule.
/// @code
/// auto v = netcc::validate(netcc::bolt_sender_params{.max_mdf = 1.5});
/// // v[0].message() == "bolt_sender.max_mdf = 1.5: must be in [0, 1]"
/// @endcode
[[nodiscard]] inline validation validate(const bolt_sender_params& p) {
  const std::string n = "bolt_sender.";
  validation v;
  v.check(p.mtu >= bytes{1} && p.mtu <= bytes{65535}, n + "mtu", p.mtu, "must be in [1, 65535] B");
  v.check(p.mss >= bytes::zero() && p.mss <= p.mtu, n + "mss", p.mss,
          "must be in [0, mtu] B (0 takes mtu)");
  v.check(p.host_rate > bit_rate::zero(), n + "host_rate", p.host_rate, "must be positive");
  v.check(p.base_rtt > duration::zero(), n + "base_rtt", p.base_rtt, "must be positive");
  v.check(p.min_cwnd >= bytes{1}, n + "min_cwnd", p.min_cwnd, "must be at least one byte");
  v.check(p.min_cwnd <= bolt_sender_window_limit, n + "min_cwnd", p.min_cwnd,
          "must be at most 2147483647 B (the q32 range)");
  v.check(p.max_cwnd >= p.min_cwnd, n + "max_cwnd", p.max_cwnd, "must be at least min_cwnd");
  v.check(p.max_cwnd <= bolt_sender_window_limit, n + "max_cwnd", p.max_cwnd,
          "must be at most 2147483647 B (the q32 range)");
  v.check(p.cwnd_init >= bytes::zero(), n + "cwnd_init", p.cwnd_init,
          "must be non-negative (0 derives host_rate * base_rtt)");
  if (p.cwnd_init > bytes::zero())
    v.check(p.cwnd_init >= p.min_cwnd && p.cwnd_init <= p.max_cwnd, n + "cwnd_init", p.cwnd_init,
            "must be within [min_cwnd, max_cwnd]");
  v.check(p.max_mdf >= 0 && p.max_mdf <= 1, n + "max_mdf", p.max_mdf, "must be in [0, 1]");
  v.check(p.retx_reset_threshold >= 1, n + "retx_reset_threshold", p.retx_reset_threshold,
          "must be at least 1");
  return v;
}

/// @brief The Bolt flags a data packet carries (§3.2, §4.2; Listing 1's `first`, `last`,
/// `inc`), as netcc::basic_bolt_sender::on_send decides them.
/// @code
/// netcc::bolt_marks m{.first = true, .last = false, .inc = true};
/// @endcode
struct bolt_marks {
  /// @brief FIRST: the packet is in the first cwnd of the flow (since it was idle).
  bool first = false;
  /// @brief LAST: the packet is in the last cwnd of a flow longer than one BDP.
  bool last = false;
  /// @brief INC: the sender asks the switches for one packet of window (always set).
  bool inc = false;
  /// @brief Field-wise equality.
  friend constexpr bool operator==(const bolt_marks&, const bolt_marks&) noexcept = default;
};

/// @brief A stack's send descriptor as the generic on_send reads it: the send time `now`, the
/// packet's `payload` and the bytes the connection still has to send after it, `remaining`
/// (its pending-bytes count, §4.2). netcc::testbench::send_info is one.
template <class I>
concept BoltSendView = requires(const I& s) {
  { s.now } -> std::convertible_to<timestamp>;
  { s.payload } -> std::convertible_to<bytes>;
  { s.remaining } -> std::convertible_to<bytes>;
};

/// @brief A packet the sender can mark: boolean `first`, `last` and `inc` members
/// (netcc::bolt_header, the testbench packet, or a stack's own header view).
template <class P>
concept BoltMarkablePacket = requires(P& p) {
  p.first = true;
  p.last = true;
  p.inc = true;
};

namespace detail {

[[nodiscard]] constexpr std::int64_t bolt_sat_add(std::int64_t a, std::int64_t b) noexcept {
  return saturate_i64(i128{a} + b);
}
[[nodiscard]] constexpr std::int64_t bolt_sat_sub(std::int64_t a, std::int64_t b) noexcept {
  return saturate_i64(i128{a} - b);
}

}  // namespace detail

/// @brief Which rule the latest congestion event (SRC, ACK, timeout, loss) ran
/// (basic_bolt_sender::last_branch): the decision record the double and q32 policies are
/// checked to agree on (tests/control/bolt_sender_test.cpp). One byte of per-flow state.
/// @code
/// if (cc.last_branch() == netcc::bolt_branch::src_decrement) { /* line 7 ran */ }
/// @endcode
enum class bolt_branch : std::uint8_t {
  none,           ///< no congestion event yet
  src_ignored,    ///< SRC without a sample, queue of ours, or reordered (lines 2-5)
  src_too_soon,   ///< SRC, line 6 false: the last decrement is too recent
  src_decrement,  ///< SRC, line 6 true: cwnd - 1 (line 7)
  ack_none,       ///< ACK with neither INC nor the per-RTT increase
  ack_inc,        ///< ACK with INC only (lines 10-11)
  ack_ai,         ///< ACK with the per-RTT increase only (lines 12-14)
  ack_inc_ai,     ///< ACK with both
  reset,          ///< timeout at RETX_RESET_THRESHOLD: cwnd = min_cwnd
  cut,            ///< timeout below it, or loss, with can_decrease: cwnd (1 - max_mdf)
  no_cut,         ///< timeout below it, or loss, without can_decrease: no change
};

class bolt_sender_compact;

/// @brief The Bolt sender (Algorithm 2 with §3.2/§4.2 marking and Swift's loss handling).
///
/// Events: on_src (HandleSrc), on_ack (HandleAck), on_write / on_send (the §4.2 counters and
/// the packet's flags), on_timeout and on_loss (Swift). No allocation, no clock reads; cwnd()
/// and pacing_rate() are finite and within bounds after any event sequence.
///
/// The rules are written once, in config (the parameters and the numbers derived from them,
/// shared by a class of flows), as members taking one flow's flow_state; the controller is a
/// config and a flow_state and forwards to them. netcc::bolt_sender_compact runs the q32 config
/// on a 32-byte packed state.
///
/// @tparam Policy arithmetic policy (netcc::arith::ieee_double, netcc::arith::q32, ...)
/// @code
/// netcc::basic_bolt_sender<netcc::arith::q32> cc{};
/// cc.on_src(netcc::src_event{.now = netcc::timestamp{5000}, .queue = netcc::bytes{3000},
///                            .link_rate = netcc::bit_rate{100'000'000'000},
///                            .tx_timestamp = 1000});
/// netcc::bytes w = cc.cwnd();   // 100000 - 1500 = 98500 B
/// @endcode
template <ArithmeticPolicy Policy = arith::ieee_double>
class basic_bolt_sender {
 public:
  /// @brief The number type of the window arithmetic.
  using value_type = typename Policy::value_type;
  /// @brief The parameter struct.
  using params_type = bolt_sender_params;

  /// @brief Events consumed (netcc::controller_traits): SRCs, ACKs, sends (FIRST/LAST/INC
  /// marking), losses and timeouts.
  static constexpr event_set events =
      cc_event::src | cc_event::ack | cc_event::send | cc_event::loss | cc_event::timeout;

  /// @brief One flow's state (trivially copyable): what changes per flow, as opposed to the
  /// config a class of flows shares. Read and change it through config.
  struct flow_state {
    value_type cwnd{};             ///< the window, bytes, within [min_cwnd, max_cwnd]
    duration rtt{};                ///< latest ACK RTT sample (base_rtt before one)
    timestamp last_dec{};          ///< Algorithm 2 last_dec_time (set when has_dec)
    timestamp last_cut{};          ///< Swift t_last_decrease of the loss cuts (when has_cut)
    per_rtt_marker ai{};           ///< Algorithm 2 seq_no_at_last_ai (set when ai_armed)
    std::int64_t pending = 0;      ///< §4.2 pending-bytes counter, >= 0
    std::int64_t sent = 0;         ///< §4.2 bytes-sent counter since idle, >= 0
    std::uint32_t decrements = 0;  ///< SRC decrements made (modulo 2^32)
    std::uint16_t retx = 0;        ///< Swift retransmit_cnt (saturating at 65535)
    std::uint8_t flags = 0;        ///< has_dec, has_cut, ai_armed, idle (config's bits)
    bolt_branch branch = bolt_branch::none;  ///< the rule the latest congestion event ran
  };
  static_assert(std::is_trivially_copyable_v<flow_state>);

  /// @brief What a class of flows shares: the parameters (invalid fields fallen back) and the
  /// numbers derived from them, with Algorithm 2, the §4.2 marking and Swift's loss rules as
  /// members taking one flow's state.
  /// @code
  /// const netcc::basic_bolt_sender<netcc::arith::q32>::config cfg{};
  /// std::vector<netcc::basic_bolt_sender<netcc::arith::q32>::flow_state> flows(
  ///     1000, cfg.initial_state());
  /// cfg.on_ack(flows[7], netcc::ack_event{.ack_seq = 1500, .snd_nxt = 90'000, .inc = true});
  /// netcc::bytes w = cfg.cwnd(flows[7]);   // 100000 + 2 * 1500 B
  /// @endcode
  class config {
   public:
    /// @brief The configuration for parameters `p` (unchecked: invalid fields fall back to
    /// their defaults; netcc::validate reports them).
    constexpr explicit config(const bolt_sender_params& p = {}) noexcept { configure(p); }

    /// @brief A new flow's state: cwnd_init (clamped), RTT base_rtt, idle, no decrement, cut or
    /// additive-increase round yet.
    [[nodiscard]] constexpr flow_state initial_state() const noexcept {
      flow_state st{};
      init(st);
      return st;
    }
    /// @brief Reset `st` to a new flow's state.
    constexpr void init(flow_state& st) const noexcept {
      st = flow_state{};
      st.cwnd = clamp_window(
          from_int(params_.cwnd_init > bytes::zero() ? params_.cwnd_init.count() : bdp_));
      st.rtt = params_.base_rtt;
      st.flags = idle_bit;
    }

    /// @brief HandleSrc, Algorithm 2 lines 1-8 (§3.1): decrement cwnd by one packet unless the
    /// last decrement was less than rtt_src / target_q ago.
    template <class E>
    requires SrcFeedback<E>
    constexpr void on_src(flow_state& st, const E& e) const noexcept {
      using ft = feedback_traits<E>;
      using clock = typename ft::src_clock;
      const timestamp now = ft::now(e);
      // line 2: rtt_src = now - t_tx_data, modulo the reflected timestamp's width.
      const duration rtt_src = clock::diff(clock::encode(now), ft::tx_timestamp(e));
      st.branch = bolt_branch::src_ignored;
      if (rtt_src < duration::zero()) return;  // no sample (file comment)
      const std::int64_t queue = ft::queue_size(e).count();
      if constexpr (is_fixed) {
        // lines 3-6 decided exactly in integers (exact_due): target_q > 0 exactly when the
        // queue is (flow.rate and 8e9 / link_rate are positive).
        if (queue <= 0) return;  // no queue of ours: nothing to drain
        const std::int64_t elapsed = elapsed_since(st, now);
        if (elapsed < 0) return;  // reordered
        st.branch = bolt_branch::src_too_soon;
        if (!exact_due(st, rtt_src.count(), queue, ft::link_rate(e).bps(), elapsed)) return;
      } else {
        // line 3: reaction_factor = flow.rate / link_rate
        const value_type factor = reaction_factor(st, ft::link_rate(e));
        // lines 4-5: target_q = queue_size * reaction_factor, in packets
        const value_type target_q = ratio_recip<value_type>(queue, mtu_bytes_) * factor;
        if (!(target_q > num<value_type>(0))) return;  // no queue of ours: nothing to drain
        // line 6: rtt_src / target_q <= now - last_dec_time (capped; no decrement yet: the cap)
        const std::int64_t elapsed = elapsed_since(st, now);
        if (elapsed < 0) return;  // reordered
        st.branch = bolt_branch::src_too_soon;
        if (!(from_int(rtt_src.count()) / target_q <= from_int(elapsed))) return;
      }
      st.branch = bolt_branch::src_decrement;
      st.cwnd = clamp_window(st.cwnd - pkt_);  // line 7: cwnd = cwnd - 1
      st.last_dec = now;                       // line 8: last_dec_time = now
      st.flags |= has_dec;
      ++st.decrements;
    }

    /// @brief HandleAck, Algorithm 2 lines 9-14: one packet for a reflected INC (lines 10-11)
    /// and one per RTT, when ack_seq passes seq_no_at_last_ai (lines 12-14); also resets Swift's
    /// retransmit counter, takes the ACK's RTT sample (if the event type has one) and notes
    /// whether everything sent is acknowledged.
    template <class E>
    requires IncFeedback<E>
    constexpr void on_ack(flow_state& st, const E& e) const noexcept {
      using ft = feedback_traits<E>;
      const sequence ack = ft::ack_seq(e);
      const sequence nxt = ft::snd_nxt(e);
      if constexpr (RttFeedback<E>) {
        const duration r = ft::rtt(e);
        if (r > duration::zero()) st.rtt = r;
      }
      st.retx = 0;  // Swift Algorithm 1: every ACK resets retransmit_cnt
      value_type w = st.cwnd;
      const bool inc = ft::inc(e);
      if (inc) w = w + pkt_;  // lines 10-11: capacity available
      st.branch = inc ? bolt_branch::ack_inc : bolt_branch::ack_none;
      if (params_.additive_increase && (!(st.flags & ai_armed) || st.ai.passed(ack))) {
        st.branch = inc ? bolt_branch::ack_inc_ai : bolt_branch::ack_ai;
        w = w + pkt_;    // line 13: per-RTT additive increase
        st.ai.arm(nxt);  // line 14: seq_no_at_last_ai = snd_next
        st.flags |= ai_armed;
      }
      st.cwnd = clamp_window(w);
      if (seq_geq(ack, nxt)) {
        st.flags |= idle_bit;  // everything sent is acknowledged
      } else {
        st.flags &= static_cast<std::uint8_t>(~idle_bit);
      }
    }

    /// @brief The application hands `len` bytes to the connection (§4.2): pending += len; a
    /// write that finds the connection idle with nothing pending starts a new burst (the
    /// bytes-sent counter restarts at 0). A non-positive `len` does nothing.
    constexpr void on_write(flow_state& st, bytes len) const noexcept {
      if (len <= bytes::zero()) return;
      if (st.pending == 0 && (st.flags & idle_bit)) st.sent = 0;
      st.pending = detail::bolt_sat_add(st.pending, len.count());
    }

    /// @brief A data packet of `payload` bytes leaves (§3.2, §4.2): returns its flags. INC
    /// always; FIRST when the bytes sent since idle (before this packet) are below cwnd; then
    /// the packet is counted (bytes sent += payload, pending -= payload, at least 0); LAST when
    /// the pending bytes are below cwnd and the burst is longer than one BDP.
    constexpr bolt_marks on_send(flow_state& st, bytes payload,
                                 timestamp /*now*/ = {}) const noexcept {
      const std::int64_t b = payload > bytes::zero() ? payload.count() : 0;
      bolt_marks m;
      m.inc = true;                              // §3.2: every packet asks for a token
      m.first = below_window(st.sent, st.cwnd);  // §4.2: bytes-sent counter < cwnd
      st.sent = detail::bolt_sat_add(st.sent, b);
      st.pending = st.pending > b ? st.pending - b : 0;
      // §4.2: pending counter < cwnd; §3.2: only for flows longer than one BDP.
      m.last = from_int(st.pending) < st.cwnd && detail::bolt_sat_add(st.sent, st.pending) > bdp_;
      st.flags &= static_cast<std::uint8_t>(~idle_bit);
      return m;
    }

    /// @brief on_send for a stack's send descriptor and packet (basic_bolt_sender::on_send).
    template <class Info, class Packet>
    requires BoltSendView<Info> && BoltMarkablePacket<Packet>
    constexpr void on_send(flow_state& st, const Info& s, Packet& pkt) const noexcept {
      const bytes payload = s.payload;
      const bytes remaining = s.remaining;
      const std::int64_t known =
          detail::bolt_sat_add(remaining > bytes::zero() ? remaining.count() : 0,
                               payload > bytes::zero() ? payload.count() : 0);
      if (known > st.pending) {
        on_write(st, bytes{known - st.pending});
      } else {
        st.pending = known;
      }
      const bolt_marks m = on_send(st, payload, s.now);
      pkt.first = m.first;
      pkt.last = m.last;
      pkt.inc = m.inc;
    }

    /// @brief Retransmission timeout, Swift Algorithm 1: retransmit_cnt += 1; at
    /// RETX_RESET_THRESHOLD cwnd = min_cwnd, otherwise cwnd *= (1 - max_mdf) if can_decrease.
    constexpr void on_timeout(flow_state& st, timestamp now) const noexcept {
      if (st.retx < 0xFFFF) ++st.retx;
      if (st.retx >= params_.retx_reset_threshold) {
        st.branch = bolt_branch::reset;
        st.cwnd = min_cwnd_;
        note_cut(st, now);
      } else {
        loss_cut(st, now);
      }
    }
    /// @brief Fast recovery, Swift Algorithm 1: retransmit_cnt = 0; cwnd *= (1 - max_mdf) if
    /// can_decrease.
    constexpr void on_loss(flow_state& st, timestamp now) const noexcept {
      st.retx = 0;
      loss_cut(st, now);
    }
    /// @brief As on_loss(st, now), at the time of the event that revealed the loss.
    template <class E>
    requires TimedFeedback<E>
    constexpr void on_loss(flow_state& st, const E& e) const noexcept {
      on_loss(st, feedback_traits<E>::now(e));
    }

    /// @brief The congestion window in whole bytes (rounded down).
    [[nodiscard]] constexpr bytes cwnd(const flow_state& st) const noexcept {
      return bytes{static_cast<std::int64_t>(to_double(st.cwnd))};
    }
    /// @brief The window as computed (unrounded bytes).
    [[nodiscard]] constexpr value_type window(const flow_state& st) const noexcept {
      return st.cwnd;
    }
    /// @brief The window in packets (cwnd / mss, mss defaulting to mtu).
    [[nodiscard]] constexpr value_type window_packets(const flow_state& st) const noexcept {
      return st.cwnd / pkt_;
    }
    /// @brief Pacing rate (basic_bolt_sender::pacing_rate).
    [[nodiscard]] constexpr bit_rate pacing_rate(const flow_state& st) const noexcept {
      if (!(st.cwnd < pkt_)) return params_.host_rate;
      bit_rate r = cwnd(st) / st.rtt;
      if (r < min_pacing_rate) r = min_pacing_rate;
      return r < params_.host_rate ? r : params_.host_rate;
    }
    /// @brief The RTT in use: the latest ACK sample, base_rtt before one.
    [[nodiscard]] constexpr duration rtt(const flow_state& st) const noexcept { return st.rtt; }
    /// @brief flow.rate of Algorithm 2 line 3: min(cwnd / RTT, host_rate).
    [[nodiscard]] constexpr bit_rate flow_rate(const flow_state& st) const noexcept {
      const bit_rate r = cwnd(st) / st.rtt;
      return r < params_.host_rate ? r : params_.host_rate;
    }
    /// @brief True once an SRC has decremented the window.
    [[nodiscard]] constexpr bool decremented(const flow_state& st) const noexcept {
      return (st.flags & has_dec) != 0;
    }
    /// @brief SRC decrements made so far, modulo 2^32.
    [[nodiscard]] constexpr std::uint32_t decrements(const flow_state& st) const noexcept {
      return st.decrements;
    }
    /// @brief The rule the latest congestion event ran.
    [[nodiscard]] constexpr bolt_branch last_branch(const flow_state& st) const noexcept {
      return st.branch;
    }
    /// @brief last_dec_time (meaningful when decremented(st)).
    [[nodiscard]] constexpr timestamp last_decrement(const flow_state& st) const noexcept {
      return st.last_dec;
    }
    /// @brief seq_no_at_last_ai (meaningful after the first ACK).
    [[nodiscard]] constexpr sequence ai_mark(const flow_state& st) const noexcept {
      return st.ai.mark();
    }
    /// @brief The §4.2 pending-bytes counter.
    [[nodiscard]] constexpr bytes pending(const flow_state& st) const noexcept {
      return bytes{st.pending};
    }
    /// @brief The §4.2 bytes-sent counter (since the connection was last idle).
    [[nodiscard]] constexpr bytes sent_since_idle(const flow_state& st) const noexcept {
      return bytes{st.sent};
    }
    /// @brief True when everything sent is acknowledged and nothing was sent since.
    [[nodiscard]] constexpr bool idle(const flow_state& st) const noexcept {
      return (st.flags & idle_bit) != 0;
    }
    /// @brief Swift's retransmit_cnt.
    [[nodiscard]] constexpr std::uint32_t retransmit_count(const flow_state& st) const noexcept {
      return st.retx;
    }
    /// @brief The BDP of the LAST rule and of cwnd_init, in window bytes.
    [[nodiscard]] constexpr bytes bdp() const noexcept { return bytes{bdp_}; }
    /// @brief The parameters in force (after invalid fields fell back).
    [[nodiscard]] constexpr const bolt_sender_params& params() const noexcept { return params_; }

   private:
    friend class bolt_sender_compact;  // packs and unpacks the flags

    enum : std::uint8_t {
      has_dec = 1,   // an SRC decremented (last_dec is set)
      has_cut = 2,   // a Swift loss cut happened (last_cut is set)
      ai_armed = 4,  // seq_no_at_last_ai is set
      idle_bit = 8,  // everything sent is acknowledged
    };
    static constexpr std::int64_t elapsed_cap = std::int64_t{1} << 30;  // line 6 (file comment)

    // A timeout below RETX_RESET_THRESHOLD or a loss: cut if can_decrease.
    constexpr void loss_cut(flow_state& st, timestamp now) const noexcept {
      st.branch = bolt_branch::no_cut;
      if (!can_decrease(st, now)) return;
      st.branch = bolt_branch::cut;
      st.cwnd = clamp_window(st.cwnd * keep_);  // Swift: cwnd = (1 - max_mdf) * cwnd
      note_cut(st, now);
    }
    static constexpr void note_cut(flow_state& st, timestamp now) noexcept {
      st.last_cut = now;
      st.flags |= has_cut;
    }
    [[nodiscard]] static constexpr value_type from_int(std::int64_t v) noexcept {
      return number_traits<value_type>::from_int(v);
    }

    constexpr void configure(bolt_sender_params p) noexcept {
      const bolt_sender_params d{};
      if (p.mtu < bytes{1} || p.mtu > bytes{65535}) p.mtu = d.mtu;
      if (p.mss < bytes::zero() || p.mss > p.mtu) p.mss = d.mss;
      if (p.host_rate <= bit_rate::zero()) p.host_rate = d.host_rate;
      if (p.base_rtt <= duration::zero()) p.base_rtt = d.base_rtt;
      if (p.min_cwnd < bytes{1} || p.min_cwnd > bolt_sender_window_limit) p.min_cwnd = d.min_cwnd;
      if (p.max_cwnd > bolt_sender_window_limit) p.max_cwnd = bolt_sender_window_limit;
      if (p.max_cwnd < p.min_cwnd) p.max_cwnd = p.min_cwnd;
      if (p.cwnd_init < bytes::zero()) p.cwnd_init = d.cwnd_init;
      if (!(p.max_mdf >= 0 && p.max_mdf <= 1)) p.max_mdf = d.max_mdf;  // NaN too
      if (p.retx_reset_threshold < 1) p.retx_reset_threshold = d.retx_reset_threshold;
      params_ = p;

      mtu_bytes_ = p.mtu.count();
      const std::int64_t step = p.mss > bytes::zero() ? p.mss.count() : mtu_bytes_;
      pkt_ = from_int(step);  // one packet of window
      min_cwnd_ = from_int(p.min_cwnd.count());
      max_cwnd_ = from_int(p.max_cwnd.count());
      keep_ = num<value_type>(1.0 - p.max_mdf);
      host_bytes_per_ns_ = ratio<value_type>(p.host_rate.bps(), 8'000'000'000);
      // One BDP of packets in window bytes: BDP / mtu packets of `step` bytes.
      bdp_ = detail::saturate_i64(detail::i128{(p.host_rate * p.base_rtt).count()} * step /
                                  mtu_bytes_);
    }

    [[nodiscard]] constexpr value_type clamp_window(value_type w) const noexcept {
      return clamp_num(w, min_cwnd_, max_cwnd_);
    }

    static constexpr bool is_fixed = requires { value_type::fraction_bits; };

    // from_int(n) < w for a byte count n >= 0 and a window w >= 0. Fixed point without the
    // saturating conversion: n 2^F < raw(w) <=> n < ceil(raw(w) / 2^F) (n an integer), which
    // also holds where from_int saturates (n >= 2^31 > every window).
    [[nodiscard]] static constexpr bool below_window(std::int64_t n, value_type w) noexcept {
      if constexpr (is_fixed) {
        constexpr std::int64_t one = std::int64_t{1} << value_type::fraction_bits;
        return n < ((w.raw() + (one - 1)) >> value_type::fraction_bits);
      } else {
        return from_int(n) < w;
      }
    }

    // now - last_dec_time, capped at elapsed_cap (the cap before the first decrement);
    // negative when the SRC is older than the last decrement (reordered).
    [[nodiscard]] static constexpr std::int64_t elapsed_since(const flow_state& st,
                                                              timestamp now) noexcept {
      if (!(st.flags & has_dec)) return elapsed_cap;
      const std::int64_t e = detail::bolt_sat_sub(now.count(), st.last_dec.count());
      return e < elapsed_cap ? e : elapsed_cap;
    }

    // 192-bit unsigned products for exact_due: a 128-bit value times a 64-bit one.
    struct wide192 {
      std::uint64_t hi = 0;
      detail::u128 lo = 0;
    };
    [[nodiscard]] static constexpr wide192 mul192(detail::u128 a, std::uint64_t b) noexcept {
      using u128 = detail::u128;
      const u128 p0 = u128{static_cast<std::uint64_t>(a)} * b;
      const u128 p1 = u128{static_cast<std::uint64_t>(a >> 64)} * b;
      const u128 lo = p0 + (u128{static_cast<std::uint64_t>(p1)} << 64);
      const std::uint64_t carry = lo < p0 ? 1 : 0;
      return {static_cast<std::uint64_t>(p1 >> 64) + carry, lo};
    }
    [[nodiscard]] static constexpr bool leq192(const wide192& a, const wide192& b) noexcept {
      return a.hi != b.hi ? a.hi < b.hi : a.lo <= b.lo;
    }

    // Fixed point: Algorithm 2 lines 3-6 decided exactly, without a division. With R = rtt_src,
    // M = the capped elapsed time (ns), Q = queue > 0, U = mtu (bytes), L = link rate, H =
    // host rate (bps), T = the RTT (ns) and W = raw(cwnd) = cwnd 2^32:
    //   flow.rate = min(W / (T 2^32), H / 8e9) B/ns, target_q = Q / U * flow.rate * 8e9 / L,
    //   and rtt_src / target_q <= M  <=>  R U L <= M Q 8e9 flow.rate, i.e.
    //   R U L <= M Q H                    when the host rate binds (H T 2^32 <= W 8e9),
    //   R U L T 2^32 <= M 8e9 Q W         otherwise,
    //   R U <= M Q                        for an absent link rate (L <= 0: factor 1).
    // Every product is exact: R U < 2^79 (R < 2^63: any reflected clock's width, U < 2^16), R U L
    // < 2^142 in 192 bits, and the right sides below 2^189 (M <= 2^30, 8e9 < 2^33, the others
    // < 2^63), so a left side of 2^192 or more (R U L T 2^32 with a huge R) decides at once.
    [[nodiscard]] constexpr bool exact_due(const flow_state& st, std::int64_t r, std::int64_t q,
                                           std::int64_t link, std::int64_t m) const noexcept {
      using u128 = detail::u128;
      const u128 ru = u128{static_cast<std::uint64_t>(r)} * static_cast<std::uint64_t>(mtu_bytes_);
      const auto uq = static_cast<std::uint64_t>(q);
      const auto um = static_cast<std::uint64_t>(m);
      if (link <= 0) return ru <= u128{um} * uq;
      const wide192 rul = mul192(ru, static_cast<std::uint64_t>(link));
      const auto w = static_cast<std::uint64_t>(st.cwnd.raw());
      const auto t = static_cast<std::uint64_t>(st.rtt.count());
      const auto h = static_cast<std::uint64_t>(params_.host_rate.bps());
      constexpr std::uint64_t bpns = 8'000'000'000;
      if (u128{h} * t <= ((u128{w} * bpns) >> 32))  // H T 2^32 <= W 8e9 (H T an integer)
        return leq192(rul, mul192(u128{um} * h, uq));
      // R U L T: the low 128 bits' product, plus the high word's, which must fit 192 bits.
      wide192 lhs = mul192(rul.lo, t);
      if (rul.hi != 0) {
        const u128 top = u128{rul.hi} * t;
        if ((top >> 64) != 0 || lhs.hi + static_cast<std::uint64_t>(top) < lhs.hi) return false;
        lhs.hi += static_cast<std::uint64_t>(top);
      }
      if (lhs.hi >> 32) return false;  // R U L T 2^32 >= 2^224 > M 8e9 Q W
      const wide192 lhs32{(lhs.hi << 32) | static_cast<std::uint64_t>(lhs.lo >> 96), lhs.lo << 32};
      return leq192(lhs32, mul192(u128{um * bpns} * uq, w));
    }

    // Algorithm 2 line 3: flow.rate / link_rate, both in bytes per ns; flow.rate =
    // min(cwnd / RTT, host_rate); a zero (absent) link rate gives 1 (file comment).
    [[nodiscard]] constexpr value_type reaction_factor(const flow_state& st,
                                                       bit_rate link) const noexcept {
      if (link <= bit_rate::zero()) return num<value_type>(1);
      // Used by the floating-point policies (fixed point decides lines 3-6 in exact_due).
      value_type rate = detail::quotient(st.cwnd, from_int(st.rtt.count()));
      if (host_bytes_per_ns_ < rate) rate = host_bytes_per_ns_;
      return detail::quotient(rate, ratio_by<value_type>(link.bps(), bits_per_byte_ns));
    }

    // Swift Algorithm 1 can_decrease: no loss cut within the last RTT.
    [[nodiscard]] static constexpr bool can_decrease(const flow_state& st, timestamp now) noexcept {
      if (!(st.flags & has_cut)) return true;
      return detail::bolt_sat_sub(now.count(), st.last_cut.count()) >= st.rtt.count();
    }

    // 8e9: bits per second in one byte per nanosecond.
    static constexpr detail::invariant_divisor bits_per_byte_ns{8'000'000'000};
    bolt_sender_params params_{};
    std::int64_t mtu_bytes_ = 0;
    std::int64_t bdp_ = 0;  // one BDP in window bytes
    value_type pkt_{};      // one packet of window (mss, or mtu)
    value_type min_cwnd_{};
    value_type max_cwnd_{};
    value_type keep_{};  // 1 - max_mdf
    value_type host_bytes_per_ns_{};
  };

  /// @brief Bytes of per-flow state (window, RTT, the two decrease times, seq_no_at_last_ai,
  /// the pending and bytes-sent counters, the decrement and retransmit counters and flags), as
  /// opposed to the configuration every flow of a class shares.
  static constexpr std::size_t state_bytes = sizeof(flow_state);

  /// @brief A controller with parameters `p` (unchecked: invalid fields fall back to their
  /// defaults; netcc::make reports them instead).
  constexpr explicit basic_bolt_sender(const bolt_sender_params& p = {}) noexcept
      : cfg_(p), s_(cfg_.initial_state()) {}

  /// @brief HandleSrc, Algorithm 2 lines 1-8 (§3.1): decrement cwnd by one packet unless the
  /// last decrement was less than rtt_src / target_q ago.
  template <class E>
  requires SrcFeedback<E>
  constexpr void on_src(const E& e) noexcept { cfg_.on_src(s_, e); }

  /// @brief HandleAck, Algorithm 2 lines 9-14: one packet for a reflected INC (lines 10-11) and
  /// one per RTT, when ack_seq passes seq_no_at_last_ai (lines 12-14); also resets Swift's
  /// retransmit counter, takes the ACK's RTT sample (if the event type has one) and notes
  /// whether everything sent is acknowledged.
  template <class E>
  requires IncFeedback<E>
  constexpr void on_ack(const E& e) noexcept { cfg_.on_ack(s_, e); }

  /// @brief The application hands `len` bytes to the connection (§4.2: a `send` call of length
  /// `len`): pending += len; a write that finds the connection idle with nothing pending starts
  /// a new burst (the bytes-sent counter restarts at 0). A non-positive `len` does nothing.
  constexpr void on_write(bytes len) noexcept { cfg_.on_write(s_, len); }

  /// @brief A data packet of `payload` bytes leaves (§3.2, §4.2): returns its flags. INC always;
  /// FIRST when the bytes sent since idle (before this packet) are below cwnd; then the packet
  /// is counted (bytes sent += payload, pending -= payload, at least 0); LAST when the pending
  /// bytes are below cwnd and the burst is longer than one BDP.
  constexpr bolt_marks on_send(bytes payload, timestamp now = {}) noexcept {
    return cfg_.on_send(s_, payload, now);
  }

  /// @brief on_send for a stack's send descriptor and packet: the descriptor's `remaining` (+
  /// this packet's payload) is the stack's own pending count; bytes beyond the sender's count are
  /// taken as application writes (on_write), a smaller count replaces it. Then on_send(payload,
  /// now), and the packet's `first`, `last` and `inc` are set.
  /// @code
  /// netcc::bolt_sender cc{};
  /// struct info { netcc::timestamp now; netcc::bytes payload, remaining; };
  /// info s{{}, netcc::bytes{1460}, netcc::bytes{0}};
  /// netcc::bolt_header h{.data = true};
  /// cc.on_send(s, h);   // h.first && h.inc; !h.last (a one-packet flow is below one BDP)
  /// @endcode
  template <class Info, class Packet>
  requires BoltSendView<Info> && BoltMarkablePacket<Packet>
  constexpr void on_send(const Info& s, Packet& pkt) noexcept { cfg_.on_send(s_, s, pkt); }

  /// @brief Retransmission timeout, Swift Algorithm 1: retransmit_cnt += 1; at
  /// RETX_RESET_THRESHOLD cwnd = min_cwnd, otherwise cwnd *= (1 - max_mdf) if can_decrease
  /// (no loss cut within the last RTT).
  constexpr void on_timeout(timestamp now) noexcept { cfg_.on_timeout(s_, now); }

  /// @brief Fast recovery (a loss found by duplicate ACKs or SACK), Swift Algorithm 1:
  /// retransmit_cnt = 0; cwnd *= (1 - max_mdf) if can_decrease.
  constexpr void on_loss(timestamp now) noexcept { cfg_.on_loss(s_, now); }
  /// @brief As on_loss(now), at the time of the event that revealed the loss (the contract's
  /// form, netcc::LossConsumer).
  template <class E>
  requires TimedFeedback<E>
  constexpr void on_loss(const E& e) noexcept { cfg_.on_loss(s_, e); }

  /// @brief The congestion window in whole bytes (rounded down), within [min_cwnd, max_cwnd].
  [[nodiscard]] constexpr bytes cwnd() const noexcept { return cfg_.cwnd(s_); }
  /// @brief The window as computed (unrounded bytes).
  [[nodiscard]] constexpr value_type window() const noexcept { return cfg_.window(s_); }
  /// @brief The window in packets (cwnd / mss, mss defaulting to mtu).
  [[nodiscard]] constexpr value_type window_packets() const noexcept {
    return cfg_.window_packets(s_);
  }
  /// @brief Pacing rate: host_rate (no pacing beyond the NIC) at or above one packet of window;
  /// below it cwnd / RTT (Swift's pacing delay RTT / cwnd per packet), at most host_rate and at
  /// least netcc::min_pacing_rate (1 bps). The window is never below min_cwnd >= 1 B, so it is
  /// always open; cwnd / RTT rounded toward zero would read 0 bps ("never send") for a window of
  /// a few bytes over a long RTT (10 B over a 1 h RTT after RETX_RESET_THRESHOLD timeouts is
  /// 0.022 bps), and 1 bps is the nearest rate that still sends.
  [[nodiscard]] constexpr bit_rate pacing_rate() const noexcept { return cfg_.pacing_rate(s_); }
  /// @brief The RTT in use: the latest ACK sample, base_rtt before one.
  [[nodiscard]] constexpr duration rtt() const noexcept { return cfg_.rtt(s_); }
  /// @brief flow.rate of Algorithm 2 line 3: min(cwnd / RTT, host_rate).
  [[nodiscard]] constexpr bit_rate flow_rate() const noexcept { return cfg_.flow_rate(s_); }
  /// @brief True once an SRC has decremented the window.
  [[nodiscard]] constexpr bool decremented() const noexcept { return cfg_.decremented(s_); }
  /// @brief SRC decrements made so far (Algorithm 2 line 7 taken), modulo 2^32.
  [[nodiscard]] constexpr std::uint32_t decrements() const noexcept { return cfg_.decrements(s_); }
  /// @brief The rule the latest congestion event (SRC, ACK, timeout, loss) ran.
  [[nodiscard]] constexpr bolt_branch last_branch() const noexcept { return cfg_.last_branch(s_); }
  /// @brief last_dec_time of Algorithm 2 (meaningful when decremented()).
  [[nodiscard]] constexpr timestamp last_decrement() const noexcept {
    return cfg_.last_decrement(s_);
  }
  /// @brief seq_no_at_last_ai of Algorithm 2 (meaningful after the first ACK).
  [[nodiscard]] constexpr sequence ai_mark() const noexcept { return cfg_.ai_mark(s_); }
  /// @brief The §4.2 pending-bytes counter.
  [[nodiscard]] constexpr bytes pending() const noexcept { return cfg_.pending(s_); }
  /// @brief The §4.2 bytes-sent counter (since the connection was last idle).
  [[nodiscard]] constexpr bytes sent_since_idle() const noexcept {
    return cfg_.sent_since_idle(s_);
  }
  /// @brief True when everything sent is acknowledged and nothing was sent since.
  [[nodiscard]] constexpr bool idle() const noexcept { return cfg_.idle(s_); }
  /// @brief Swift's retransmit_cnt (consecutive timeouts since the last ACK or fast recovery).
  [[nodiscard]] constexpr std::uint32_t retransmit_count() const noexcept {
    return cfg_.retransmit_count(s_);
  }
  /// @brief The BDP of the LAST rule and of cwnd_init, in window bytes: host_rate * base_rtt *
  /// mss / mtu (host_rate * base_rtt when mss is 0).
  [[nodiscard]] constexpr bytes bdp() const noexcept { return cfg_.bdp(); }
  /// @brief The parameters in force (after invalid fields fell back).
  [[nodiscard]] constexpr const bolt_sender_params& params() const noexcept {
    return cfg_.params();
  }
  /// @brief The configuration this controller runs (shareable with other flows).
  [[nodiscard]] constexpr const config& configuration() const noexcept { return cfg_; }
  /// @brief This flow's state.
  [[nodiscard]] constexpr const flow_state& state() const noexcept { return s_; }

 private:
  config cfg_;
  flow_state s_;
};

/// @brief The Bolt sender with double arithmetic.
using bolt_sender = basic_bolt_sender<>;

/// @brief The Bolt sender in q32 with a 32-byte per-flow state: the q32 controller's rules (the
/// same config, Algorithm 2, §4.2 marking and Swift's loss rules, the same arithmetic) over a
/// packed flow_state, for arrays of many flows.
///
/// Layout and the range of every narrowed field:
/// - the window: the q32 window's raw value in the low 56 bits of one word (4 B of flags and
///   the latest rule in its top 8 bits): windows below 2^24 B (16.7 MB) are kept bit for bit.
///   max_cwnd is at most window_limit = 2^24 - 1 B (a larger max_cwnd, the default included, is
///   lowered to it; validate reports a min_cwnd or cwnd_init above it); 16 MB is 167 BDPs of the paper's 100 Gbps x 8 us and more than one BDP of 800
///   Gbps x 100 us.
/// - last_dec_time and Swift's last loss cut: the low 32 bits of the ns clock each, read back at
///   an event's `now` as now - d, d the signed 32-bit wrapping distance. An age of clock_horizon
///   = 2^30 ns (1.07 s) or more reads as exactly 2^30 ns: line 6 caps its interval there anyway
///   (the file comment), and can_decrease compares it with RTTs up to 2^30 ns exactly. Every
///   timed event (SRC, ACK, timeout, loss) reads the clocks and stores them back, so that an age
///   past 2^30 ns stays there. Exact while consecutive timed events come less than 2^30 ns
///   apart (after a silence of 2^30 ns or more the age is read modulo 2^32 ns: one SRC may be
///   taken as reordered, or a decrement come early) and step back by less than 2^30 ns, and no
///   event steps back behind a time at which a clock was already held at the horizon (the held
///   clock no longer knows its true age: the earlier event reads an age up to its step shorter
///   than q32 does, which can change a loss cut or line 6).
/// - the RTT: 32-bit ns, saturating at 2^32 - 1 ns; exact comparisons need RTTs up to 2^30 ns.
/// - seq_no_at_last_ai: its low 32 bits, compared with an ACK through the signed 32-bit
///   distance; exact while the ACK is within 2^31 B of the mark (less than 2 GiB in flight).
/// - the §4.2 pending-bytes counter: 32 bits, saturating at 2^32 - 1 B (pending_limit); exact
///   while the application has at most 4 GiB written and unsent.
/// - the §4.2 bytes-sent counter: 25 bits, saturating at sent_limit = 2^25 - 1 B. It is only
///   compared with cwnd (< 2^24 B) and, with pending, with the BDP, so saturation changes no
///   FIRST or LAST mark while bdp() < sent_limit (validate reports a larger BDP).
/// - Swift's retransmit_cnt: 7 bits, saturating at retx_limit = 127 (exact for
///   retx_reset_threshold <= 127, which validate requires; unchecked, a larger threshold is
///   never reached and every timeout cuts).
/// - the SRC decrement count (basic_bolt_sender::decrements, a statistic) is not kept.
///
/// Within those ranges every event takes the same branch as basic_bolt_sender<arith::q32> and
/// leaves the same window, bit for bit, the same RTT, counters and flags
/// (tests/control/bolt_sender_test.cpp). Outside them the window stays within [min_cwnd,
/// max_cwnd].
/// @code
/// const netcc::bolt_sender_compact::config cfg{};
/// std::vector<netcc::bolt_sender_compact::flow_state> flows(1000, cfg.initial_state());  // 32 kB
/// cfg.on_ack(flows[7], netcc::ack_event{.ack_seq = 1500, .snd_nxt = 90'000, .inc = true});
/// netcc::bytes w = cfg.cwnd(flows[7]);  // 103000 B, as basic_bolt_sender<arith::q32>
/// @endcode
class bolt_sender_compact {
  using wide = basic_bolt_sender<arith::q32>;
  using wide_state = wide::flow_state;
  using wide_config = wide::config;

 public:
  /// @brief The number type of the window (q32).
  using value_type = wide::value_type;
  /// @brief The parameter struct.
  using params_type = bolt_sender_params;
  /// @brief Events consumed: as basic_bolt_sender.
  static constexpr event_set events = wide::events;
  /// @brief The age, ns, at which a decrease clock reads as exactly this old (2^30 ns), and the
  /// largest RTT the loss-cut clock compares exactly.
  static constexpr std::int64_t clock_horizon = std::int64_t{1} << 30;
  /// @brief The largest window, bytes (2^24 - 1): max_cwnd's upper bound in this form.
  static constexpr std::int64_t window_limit = (std::int64_t{1} << 24) - 1;
  /// @brief Where the bytes-sent counter saturates (2^25 - 1 B); bdp() must stay below it.
  static constexpr std::int64_t sent_limit = (std::int64_t{1} << 25) - 1;
  /// @brief Where the pending-bytes counter saturates (2^32 - 1 B).
  static constexpr std::int64_t pending_limit = 0xFFFF'FFFF;
  /// @brief Where retransmit_cnt saturates (127).
  static constexpr std::uint32_t retx_limit = 127;

  /// @brief One flow's packed state (32 B, trivially copyable); see the class comment for the
  /// range of each field. Read and change it through config.
  struct flow_state {
    std::uint64_t word = 0;       ///< q32 window raw (bits 0-55), flags (56-59), rule (60-63)
    std::uint32_t rtt = 0;        ///< the RTT in use, ns, saturating at 2^32 - 1
    std::uint32_t last_dec = 0;   ///< last_dec_time, low 32 bits of the ns clock
    std::uint32_t last_cut = 0;   ///< Swift's last loss cut, low 32 bits of the ns clock
    std::uint32_t ai_mark = 0;    ///< seq_no_at_last_ai, low 32 bits
    std::uint32_t pending = 0;    ///< §4.2 pending bytes, saturating at pending_limit
    std::uint32_t sent_retx = 0;  ///< bytes sent since idle (bits 0-24), retransmit_cnt (25-31)
  };
  static_assert(std::is_trivially_copyable_v<flow_state>);

  /// @brief Check parameters for this form: netcc::validate's rules, and the ranges above
  /// (each error names "bolt_sender_compact.<field>", the value and the rule). A max_cwnd above
  /// window_limit (the default 2^31 - 1 B included) is no error: it is lowered to window_limit.
  /// @code
  /// auto v = netcc::bolt_sender_compact::validate({.cwnd_init = netcc::bytes{1'073'741'824}});
  /// // v[0].message() == "bolt_sender_compact.cwnd_init = 1073741824 B: must be at most
  /// //                    16777215 B (the compact window's range)"
  /// @endcode
  [[nodiscard]] static validation validate(const bolt_sender_params& p) {
    validation v = netcc::validate(p);
    const std::string n = "bolt_sender_compact.";
    v.check(p.min_cwnd <= bytes{window_limit}, n + "min_cwnd", p.min_cwnd,
            "must be at most 16777215 B (the compact window's range)");
    v.check(p.cwnd_init <= bytes{window_limit}, n + "cwnd_init", p.cwnd_init,
            "must be at most 16777215 B (the compact window's range)");
    v.check(p.base_rtt <= duration{clock_horizon}, n + "base_rtt", p.base_rtt,
            "must be at most 1073741824 ns (the compact clocks' range)");
    v.check(p.retx_reset_threshold <= retx_limit, n + "retx_reset_threshold",
            p.retx_reset_threshold, "must be at most 127 (the 7-bit retransmit count)");
    if (netcc::validate(p).ok()) {
      const wide_config c{p};
      v.check(c.bdp() < bytes{sent_limit}, n + "host_rate", p.host_rate,
              "with base_rtt, must give a BDP below 33554431 B (the bytes-sent counter's range)");
    }
    return v;
  }

  /// @brief What a class of flows shares: the q32 configuration, with the rules as members
  /// taking one flow's packed state (each event unpacks the fields its rule reads, runs the q32
  /// rule and packs the state back).
  class config {
   public:
    /// @brief The configuration for parameters `p` (unchecked: invalid fields fall back as
    /// basic_bolt_sender's; max_cwnd above window_limit is lowered to it, a min_cwnd above it
    /// falls back to its default).
    constexpr explicit config(const bolt_sender_params& p = {}) noexcept : q_(narrow(p)) {}

    /// @brief A new flow's state (basic_bolt_sender::config::initial_state).
    [[nodiscard]] constexpr flow_state initial_state() const noexcept {
      flow_state st{};
      const wide_state w = q_.initial_state();
      pack(st, w);
      st.last_dec = low32(w.last_dec);
      st.last_cut = low32(w.last_cut);
      return st;
    }
    /// @brief Reset `st` to a new flow's state.
    constexpr void init(flow_state& st) const noexcept { st = initial_state(); }

    /// @brief HandleSrc, Algorithm 2 lines 1-8 (basic_bolt_sender::config::on_src).
    template <class E>
    requires SrcFeedback<E>
    constexpr void on_src(flow_state& st, const E& e) const noexcept {
      const timestamp now = feedback_traits<E>::now(e);
      st.last_cut = age(st.last_cut, now);  // read by loss events only: kept within reach
      wide_state w = view(st);
      w.last_dec = clock(st.last_dec, now);
      q_.on_src(w, e);
      pack_word(st, w);  // an SRC changes only the window, flags and rule, and last_dec
      st.last_dec = low32(w.last_dec);
    }
    /// @brief HandleAck, Algorithm 2 lines 9-14 (basic_bolt_sender::config::on_ack).
    template <class E>
    requires IncFeedback<E> && TimedFeedback<E>
    constexpr void on_ack(flow_state& st, const E& e) const noexcept {
      const timestamp now = feedback_traits<E>::now(e);
      st.last_dec = age(st.last_dec, now);  // no clock is read on an ACK: both kept in reach
      st.last_cut = age(st.last_cut, now);
      wide_state w = view(st);
      // seq_no_at_last_ai from its low 32 bits: the sequence at the signed 32-bit distance
      // from this ACK.
      const sequence ack = feedback_traits<E>::ack_seq(e);
      const auto d = static_cast<std::int32_t>(static_cast<std::uint32_t>(ack) - st.ai_mark);
      w.ai.arm(ack - static_cast<sequence>(static_cast<std::int64_t>(d)));
      q_.on_ack(w, e);
      pack(st, w);
      st.ai_mark = static_cast<std::uint32_t>(w.ai.mark());
    }
    /// @brief §4.2 application write (basic_bolt_sender::config::on_write).
    constexpr void on_write(flow_state& st, bytes len) const noexcept {
      wide_state w = view(st);
      q_.on_write(w, len);
      pack(st, w);
    }
    /// @brief A data packet leaves: its FIRST/LAST/INC marks (basic_bolt_sender::config::on_send).
    constexpr bolt_marks on_send(flow_state& st, bytes payload, timestamp now = {}) const noexcept {
      wide_state w = view(st);
      const bolt_marks m = q_.on_send(w, payload, now);
      pack(st, w);
      return m;
    }
    /// @brief on_send for a stack's send descriptor and packet.
    template <class Info, class Packet>
    requires BoltSendView<Info> && BoltMarkablePacket<Packet>
    constexpr void on_send(flow_state& st, const Info& s, Packet& pkt) const noexcept {
      wide_state w = view(st);
      q_.on_send(w, s, pkt);
      pack(st, w);
    }
    /// @brief Retransmission timeout (basic_bolt_sender::config::on_timeout).
    constexpr void on_timeout(flow_state& st, timestamp now) const noexcept {
      st.last_dec = age(st.last_dec, now);
      wide_state w = view(st);
      w.last_cut = clock(st.last_cut, now);
      q_.on_timeout(w, now);
      pack(st, w);
      st.last_cut = low32(w.last_cut);
    }
    /// @brief Fast recovery (basic_bolt_sender::config::on_loss).
    constexpr void on_loss(flow_state& st, timestamp now) const noexcept {
      st.last_dec = age(st.last_dec, now);
      wide_state w = view(st);
      w.last_cut = clock(st.last_cut, now);
      q_.on_loss(w, now);
      pack(st, w);
      st.last_cut = low32(w.last_cut);
    }
    /// @brief Fast recovery at the time of the event that revealed the loss.
    template <class E>
    requires TimedFeedback<E>
    constexpr void on_loss(flow_state& st, const E& e) const noexcept {
      on_loss(st, feedback_traits<E>::now(e));
    }

    /// @brief The congestion window in whole bytes (rounded down).
    [[nodiscard]] constexpr bytes cwnd(const flow_state& st) const noexcept {
      return q_.cwnd(view(st));
    }
    /// @brief The window as computed (unrounded bytes, q32).
    [[nodiscard]] constexpr value_type window(const flow_state& st) const noexcept {
      return value_type::from_raw(static_cast<std::int64_t>(st.word & raw_mask));
    }
    /// @brief The window in packets.
    [[nodiscard]] constexpr value_type window_packets(const flow_state& st) const noexcept {
      return q_.window_packets(view(st));
    }
    /// @brief Pacing rate (basic_bolt_sender::pacing_rate).
    [[nodiscard]] constexpr bit_rate pacing_rate(const flow_state& st) const noexcept {
      return q_.pacing_rate(view(st));
    }
    /// @brief The RTT in use (saturated at 2^32 - 1 ns).
    [[nodiscard]] constexpr duration rtt(const flow_state& st) const noexcept {
      return duration{st.rtt};
    }
    /// @brief flow.rate of Algorithm 2 line 3.
    [[nodiscard]] constexpr bit_rate flow_rate(const flow_state& st) const noexcept {
      return q_.flow_rate(view(st));
    }
    /// @brief True once an SRC has decremented the window.
    [[nodiscard]] constexpr bool decremented(const flow_state& st) const noexcept {
      return q_.decremented(view(st));
    }
    /// @brief The rule the latest congestion event ran.
    [[nodiscard]] constexpr bolt_branch last_branch(const flow_state& st) const noexcept {
      return static_cast<bolt_branch>(st.word >> 60);
    }
    /// @brief The §4.2 pending-bytes counter (saturated at pending_limit).
    [[nodiscard]] constexpr bytes pending(const flow_state& st) const noexcept {
      return bytes{st.pending};
    }
    /// @brief The §4.2 bytes-sent counter (saturated at sent_limit).
    [[nodiscard]] constexpr bytes sent_since_idle(const flow_state& st) const noexcept {
      return bytes{static_cast<std::int64_t>(st.sent_retx & sent_mask)};
    }
    /// @brief True when everything sent is acknowledged and nothing was sent since.
    [[nodiscard]] constexpr bool idle(const flow_state& st) const noexcept {
      return q_.idle(view(st));
    }
    /// @brief Swift's retransmit_cnt (saturated at retx_limit).
    [[nodiscard]] constexpr std::uint32_t retransmit_count(const flow_state& st) const noexcept {
      return st.sent_retx >> 25;
    }
    /// @brief The BDP of the LAST rule and of cwnd_init, in window bytes.
    [[nodiscard]] constexpr bytes bdp() const noexcept { return q_.bdp(); }
    /// @brief The parameters in force (after invalid fields fell back or were lowered).
    [[nodiscard]] constexpr const bolt_sender_params& params() const noexcept {
      return q_.params();
    }
    /// @brief The q32 configuration the rules run on.
    [[nodiscard]] constexpr const wide_config& wide_configuration() const noexcept { return q_; }

   private:
    static constexpr std::uint64_t raw_mask = (std::uint64_t{1} << 56) - 1;
    static constexpr std::uint32_t sent_mask = (std::uint32_t{1} << 25) - 1;

    [[nodiscard]] static constexpr bolt_sender_params narrow(bolt_sender_params p) noexcept {
      if (p.max_cwnd > bytes{window_limit}) p.max_cwnd = bytes{window_limit};
      if (p.min_cwnd > bytes{window_limit}) p.min_cwnd = bolt_sender_params{}.min_cwnd;
      return p;
    }

    // The wide state's fields that need no clock (the decrease clocks and the AI mark zero).
    [[nodiscard]] static constexpr wide_state view(const flow_state& st) noexcept {
      wide_state w{};
      w.cwnd = value_type::from_raw(static_cast<std::int64_t>(st.word & raw_mask));
      w.flags = static_cast<std::uint8_t>((st.word >> 56) & 0xFu);
      w.branch = static_cast<bolt_branch>(st.word >> 60);
      w.rtt = duration{st.rtt};
      w.pending = st.pending;
      w.sent = st.sent_retx & sent_mask;
      w.retx = static_cast<std::uint16_t>(st.sent_retx >> 25);
      return w;
    }

    // A clock's 64-bit time read back at `now` from its low 32 bits: now - d, d the signed
    // wrapping distance, at most clock_horizon.
    [[nodiscard]] static constexpr timestamp clock(std::uint32_t low, timestamp now) noexcept {
      const auto now_low = static_cast<std::uint32_t>(static_cast<std::uint64_t>(now.count()));
      std::int64_t d = static_cast<std::int32_t>(now_low - low);  // modular, C++20
      if (d > clock_horizon) d = clock_horizon;
      std::int64_t t = 0;
      if (__builtin_sub_overflow(now.count(), d, &t))
        t = d > 0 ? std::numeric_limits<std::int64_t>::min()
                  : std::numeric_limits<std::int64_t>::max();
      return timestamp{t};
    }
    // A clock an event does not read, kept within reach: its low 32 bits, or now - clock_horizon
    // once it is older (as clock() would read it back, then low32()).
    [[nodiscard]] static constexpr std::uint32_t age(std::uint32_t low, timestamp now) noexcept {
      const auto now_low = static_cast<std::uint32_t>(static_cast<std::uint64_t>(now.count()));
      const auto d = static_cast<std::int32_t>(now_low - low);
      return d > clock_horizon ? now_low - static_cast<std::uint32_t>(clock_horizon) : low;
    }
    [[nodiscard]] static constexpr std::uint32_t low32(timestamp t) noexcept {
      return static_cast<std::uint32_t>(static_cast<std::uint64_t>(t.count()));
    }

    // The window, flags and rule of `w` into `st`.
    static constexpr void pack_word(flow_state& st, const wide_state& w) noexcept {
      st.word = (static_cast<std::uint64_t>(w.cwnd.raw()) & raw_mask) |
                (static_cast<std::uint64_t>(w.flags & 0xFu) << 56) |
                (static_cast<std::uint64_t>(w.branch) << 60);
    }
    // Narrow `w` into `st` (the clocks and the AI mark are stored by the events that use them).
    static constexpr void pack(flow_state& st, const wide_state& w) noexcept {
      pack_word(st, w);
      const std::int64_t r = w.rtt.count();
      st.rtt = r <= 0 ? 0u : (r >= pending_limit ? 0xFFFF'FFFFu : static_cast<std::uint32_t>(r));
      st.pending =
          static_cast<std::uint32_t>(w.pending < pending_limit ? w.pending : pending_limit);
      const auto sent = static_cast<std::uint32_t>(w.sent < sent_limit ? w.sent : sent_limit);
      const std::uint32_t retx = w.retx < retx_limit ? w.retx : retx_limit;
      st.sent_retx = sent | (retx << 25);
    }

    wide_config q_;
  };

  /// @brief Bytes of per-flow state (sizeof(flow_state)).
  static constexpr std::size_t state_bytes = sizeof(flow_state);

  /// @brief A controller with parameters `p` (invalid fields fall back, as config says).
  constexpr explicit bolt_sender_compact(const bolt_sender_params& p = {}) noexcept
      : cfg_(p), s_(cfg_.initial_state()) {}

  /// @brief HandleSrc (config::on_src on this flow).
  template <class E>
  requires SrcFeedback<E>
  constexpr void on_src(const E& e) noexcept { cfg_.on_src(s_, e); }
  /// @brief HandleAck (config::on_ack).
  template <class E>
  requires IncFeedback<E> && TimedFeedback<E>
  constexpr void on_ack(const E& e) noexcept { cfg_.on_ack(s_, e); }
  /// @brief §4.2 application write (config::on_write).
  constexpr void on_write(bytes len) noexcept { cfg_.on_write(s_, len); }
  /// @brief A data packet leaves: its marks (config::on_send).
  constexpr bolt_marks on_send(bytes payload, timestamp now = {}) noexcept {
    return cfg_.on_send(s_, payload, now);
  }
  /// @brief on_send for a stack's send descriptor and packet.
  template <class Info, class Packet>
  requires BoltSendView<Info> && BoltMarkablePacket<Packet>
  constexpr void on_send(const Info& s, Packet& pkt) noexcept { cfg_.on_send(s_, s, pkt); }
  /// @brief Retransmission timeout (config::on_timeout).
  constexpr void on_timeout(timestamp now) noexcept { cfg_.on_timeout(s_, now); }
  /// @brief Fast recovery (config::on_loss).
  constexpr void on_loss(timestamp now) noexcept { cfg_.on_loss(s_, now); }
  /// @brief Fast recovery at the time of the event that revealed the loss.
  template <class E>
  requires TimedFeedback<E>
  constexpr void on_loss(const E& e) noexcept { cfg_.on_loss(s_, e); }

  /// @brief The congestion window in whole bytes.
  [[nodiscard]] constexpr bytes cwnd() const noexcept { return cfg_.cwnd(s_); }
  /// @brief The window as computed (q32 bytes).
  [[nodiscard]] constexpr value_type window() const noexcept { return cfg_.window(s_); }
  /// @brief The window in packets.
  [[nodiscard]] constexpr value_type window_packets() const noexcept {
    return cfg_.window_packets(s_);
  }
  /// @brief Pacing rate.
  [[nodiscard]] constexpr bit_rate pacing_rate() const noexcept { return cfg_.pacing_rate(s_); }
  /// @brief The RTT in use.
  [[nodiscard]] constexpr duration rtt() const noexcept { return cfg_.rtt(s_); }
  /// @brief flow.rate of Algorithm 2 line 3.
  [[nodiscard]] constexpr bit_rate flow_rate() const noexcept { return cfg_.flow_rate(s_); }
  /// @brief True once an SRC has decremented the window.
  [[nodiscard]] constexpr bool decremented() const noexcept { return cfg_.decremented(s_); }
  /// @brief The rule the latest congestion event ran.
  [[nodiscard]] constexpr bolt_branch last_branch() const noexcept { return cfg_.last_branch(s_); }
  /// @brief The §4.2 pending-bytes counter.
  [[nodiscard]] constexpr bytes pending() const noexcept { return cfg_.pending(s_); }
  /// @brief The §4.2 bytes-sent counter.
  [[nodiscard]] constexpr bytes sent_since_idle() const noexcept {
    return cfg_.sent_since_idle(s_);
  }
  /// @brief True when everything sent is acknowledged and nothing was sent since.
  [[nodiscard]] constexpr bool idle() const noexcept { return cfg_.idle(s_); }
  /// @brief Swift's retransmit_cnt.
  [[nodiscard]] constexpr std::uint32_t retransmit_count() const noexcept {
    return cfg_.retransmit_count(s_);
  }
  /// @brief The BDP in window bytes.
  [[nodiscard]] constexpr bytes bdp() const noexcept { return cfg_.bdp(); }
  /// @brief The parameters in force.
  [[nodiscard]] constexpr const bolt_sender_params& params() const noexcept {
    return cfg_.params();
  }
  /// @brief The configuration this controller runs (shareable with other flows).
  [[nodiscard]] constexpr const config& configuration() const noexcept { return cfg_; }
  /// @brief This flow's state.
  [[nodiscard]] constexpr const flow_state& state() const noexcept { return s_; }

 private:
  config cfg_;
  flow_state s_;
};

// Size budgets, in bytes. Per-flow state: 64 B (window, RTT, last_dec_time, Swift's last cut,
// seq_no_at_last_ai, the §4.2 pending and bytes-sent counters: seven 8-byte words; the
// decrement count, the retransmit counter and flags in the eighth). Configuration: the params
// (72 B) and 56 B derived from them (192 B in all).
static_assert(bolt_sender::state_bytes <= 64, "bolt_sender: per-flow state within 64 B");
static_assert(basic_bolt_sender<arith::q32>::state_bytes <= 64,
              "bolt_sender (q32): per-flow state within 64 B");
static_assert(bolt_sender::state_bytes == sizeof(bolt_sender::flow_state));
static_assert(sizeof(bolt_sender) <= 192, "bolt_sender: 192 B with its configuration");
static_assert(sizeof(basic_bolt_sender<arith::q32>) <= 192, "bolt_sender (q32): 192 B");
// The compact form: 32 B (a word of q32 window, flags and rule; 32-bit RTT, decrease clocks,
// AI mark and pending count; 25-bit bytes-sent count and 7-bit retransmit count).
static_assert(sizeof(bolt_sender_compact::flow_state) <= 32,
              "bolt_sender_compact: per-flow state within 32 B");
static_assert(bolt_sender_compact::state_bytes == sizeof(bolt_sender_compact::flow_state));

}  // namespace netcc
