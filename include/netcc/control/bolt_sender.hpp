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
#include <string>

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

/// @brief The Bolt sender (Algorithm 2 with §3.2/§4.2 marking and Swift's loss handling).
///
/// Events: on_src (HandleSrc), on_ack (HandleAck), on_write / on_send (the §4.2 counters and
/// the packet's flags), on_timeout and on_loss (Swift). No allocation, no clock reads; cwnd()
/// and pacing_rate() are finite and within bounds after any event sequence.
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

  /// @brief A controller with parameters `p` (invalid fields fall back as the file says).
  /// @brief Events consumed (netcc::controller_traits): SRCs, ACKs, sends (FIRST/LAST/INC
  /// marking), losses and timeouts.
  static constexpr event_set events =
      cc_event::src | cc_event::ack | cc_event::send | cc_event::loss | cc_event::timeout;

  /// @brief A controller with parameters `p` (unchecked: invalid fields fall back to their
  /// defaults; netcc::make reports them instead).
  constexpr explicit basic_bolt_sender(const bolt_sender_params& p = {}) noexcept { configure(p); }

  /// @brief HandleSrc, Algorithm 2 lines 1-8 (§3.1): decrement cwnd by one packet unless the
  /// last decrement was less than rtt_src / target_q ago.
  template <class E>
  requires SrcFeedback<E>
  constexpr void on_src(const E& e) noexcept {
    using ft = feedback_traits<E>;
    using clock = typename ft::src_clock;
    const timestamp now = ft::now(e);
    // line 2: rtt_src = now - t_tx_data, modulo the reflected timestamp's width.
    const duration rtt_src = clock::diff(clock::encode(now), ft::tx_timestamp(e));
    s_.branch = bolt_branch::src_ignored;
    if (rtt_src < duration::zero()) return;  // no sample (file comment)
    // line 3: reaction_factor = flow.rate / link_rate
    const value_type factor = reaction_factor(ft::link_rate(e));
    // lines 4-5: target_q = queue_size * reaction_factor, in packets
    const value_type target_q =
        ratio_recip<value_type>(ft::queue_size(e).count(), mtu_bytes_) * factor;
    if (!(target_q > num<value_type>(0))) return;  // no queue of ours: nothing to drain
    // line 6: rtt_src / target_q <= now - last_dec_time (capped; no decrement yet: the cap)
    const std::int64_t elapsed =
        (s_.flags & has_dec) ? detail::bolt_sat_sub(now.count(), s_.last_dec.count()) : elapsed_cap;
    if (elapsed < 0) return;  // reordered
    s_.branch = bolt_branch::src_too_soon;
    if (!interval_due(from_int(rtt_src.count()), target_q,
                      from_int(elapsed < elapsed_cap ? elapsed : elapsed_cap)))
      return;
    s_.branch = bolt_branch::src_decrement;
    s_.cwnd = clamp_window(s_.cwnd - pkt_);  // line 7: cwnd = cwnd - 1
    s_.last_dec = now;                       // line 8: last_dec_time = now
    s_.flags |= has_dec;
    ++s_.decrements;
  }

  /// @brief HandleAck, Algorithm 2 lines 9-14: one packet for a reflected INC (lines 10-11) and
  /// one per RTT, when ack_seq passes seq_no_at_last_ai (lines 12-14); also resets Swift's
  /// retransmit counter, takes the ACK's RTT sample (if the event type has one) and notes
  /// whether everything sent is acknowledged.
  template <class E>
  requires IncFeedback<E>
  constexpr void on_ack(const E& e) noexcept {
    using ft = feedback_traits<E>;
    const sequence ack = ft::ack_seq(e);
    const sequence nxt = ft::snd_nxt(e);
    if constexpr (RttFeedback<E>) {
      const duration r = ft::rtt(e);
      if (r > duration::zero()) s_.rtt = r;
    }
    s_.retx = 0;  // Swift Algorithm 1: every ACK resets retransmit_cnt
    value_type w = s_.cwnd;
    const bool inc = ft::inc(e);
    if (inc) w = w + pkt_;  // lines 10-11: capacity available
    s_.branch = inc ? bolt_branch::ack_inc : bolt_branch::ack_none;
    if (params_.additive_increase && (!(s_.flags & ai_armed) || s_.ai.passed(ack))) {
      s_.branch = inc ? bolt_branch::ack_inc_ai : bolt_branch::ack_ai;
      w = w + pkt_;    // line 13: per-RTT additive increase
      s_.ai.arm(nxt);  // line 14: seq_no_at_last_ai = snd_next
      s_.flags |= ai_armed;
    }
    s_.cwnd = clamp_window(w);
    if (seq_geq(ack, nxt)) {
      s_.flags |= idle_bit;  // everything sent is acknowledged
    } else {
      s_.flags &= static_cast<std::uint8_t>(~idle_bit);
    }
  }

  /// @brief The application hands `len` bytes to the connection (§4.2: a `send` call of length
  /// `len`): pending += len; a write that finds the connection idle with nothing pending starts
  /// a new burst (the bytes-sent counter restarts at 0). A non-positive `len` does nothing.
  constexpr void on_write(bytes len) noexcept {
    if (len <= bytes::zero()) return;
    if (s_.pending == 0 && (s_.flags & idle_bit)) s_.sent = 0;
    s_.pending = detail::bolt_sat_add(s_.pending, len.count());
  }

  /// @brief A data packet of `payload` bytes leaves (§3.2, §4.2): returns its flags. INC always;
  /// FIRST when the bytes sent since idle (before this packet) are below cwnd; then the packet
  /// is counted (bytes sent += payload, pending -= payload, at least 0); LAST when the pending
  /// bytes are below cwnd and the burst is longer than one BDP.
  constexpr bolt_marks on_send(bytes payload, timestamp /*now*/ = {}) noexcept {
    const std::int64_t b = payload > bytes::zero() ? payload.count() : 0;
    bolt_marks m;
    m.inc = true;                           // §3.2: every packet asks for a token
    m.first = from_int(s_.sent) < s_.cwnd;  // §4.2: bytes-sent counter < cwnd
    s_.sent = detail::bolt_sat_add(s_.sent, b);
    s_.pending = s_.pending > b ? s_.pending - b : 0;
    // §4.2: pending counter < cwnd; §3.2: only for flows longer than one BDP.
    m.last = from_int(s_.pending) < s_.cwnd && detail::bolt_sat_add(s_.sent, s_.pending) > bdp_;
    s_.flags &= static_cast<std::uint8_t>(~idle_bit);
    return m;
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
  constexpr void on_send(const Info& s, Packet& pkt) noexcept {
    const bytes payload = s.payload;
    const bytes remaining = s.remaining;
    const std::int64_t known =
        detail::bolt_sat_add(remaining > bytes::zero() ? remaining.count() : 0,
                             payload > bytes::zero() ? payload.count() : 0);
    if (known > s_.pending) {
      on_write(bytes{known - s_.pending});
    } else {
      s_.pending = known;
    }
    const bolt_marks m = on_send(payload, s.now);
    pkt.first = m.first;
    pkt.last = m.last;
    pkt.inc = m.inc;
  }

  /// @brief Retransmission timeout, Swift Algorithm 1: retransmit_cnt += 1; at
  /// RETX_RESET_THRESHOLD cwnd = min_cwnd, otherwise cwnd *= (1 - max_mdf) if can_decrease
  /// (no loss cut within the last RTT).
  constexpr void on_timeout(timestamp now) noexcept {
    if (s_.retx < 0xFFFF) ++s_.retx;
    if (s_.retx >= params_.retx_reset_threshold) {
      s_.branch = bolt_branch::reset;
      s_.cwnd = min_cwnd_;
      note_cut(now);
    } else {
      loss_cut(now);
    }
  }

  /// @brief Fast recovery (a loss found by duplicate ACKs or SACK), Swift Algorithm 1:
  /// retransmit_cnt = 0; cwnd *= (1 - max_mdf) if can_decrease.
  constexpr void on_loss(timestamp now) noexcept {
    s_.retx = 0;
    loss_cut(now);
  }
  /// @brief As on_loss(now), at the time of the event that revealed the loss (the contract's
  /// form, netcc::LossConsumer).
  template <class E>
  requires TimedFeedback<E>
  constexpr void on_loss(const E& e) noexcept { on_loss(feedback_traits<E>::now(e)); }

  /// @brief The congestion window in whole bytes (rounded down), within [min_cwnd, max_cwnd].
  [[nodiscard]] constexpr bytes cwnd() const noexcept {
    return bytes{static_cast<std::int64_t>(to_double(s_.cwnd))};
  }
  /// @brief The window as computed (unrounded bytes).
  [[nodiscard]] constexpr value_type window() const noexcept { return s_.cwnd; }
  /// @brief The window in packets (cwnd / mss, mss defaulting to mtu).
  [[nodiscard]] constexpr value_type window_packets() const noexcept { return s_.cwnd / pkt_; }
  /// @brief Pacing rate: host_rate (no pacing beyond the NIC) at or above one packet of window;
  /// below it cwnd / RTT (Swift's pacing delay RTT / cwnd per packet), at most host_rate and at
  /// least netcc::min_pacing_rate (1 bps). The window is never below min_cwnd >= 1 B, so it is
  /// always open; cwnd / RTT rounded toward zero would read 0 bps ("never send") for a window of
  /// a few bytes over a long RTT (10 B over a 1 h RTT after RETX_RESET_THRESHOLD timeouts is
  /// 0.022 bps), and 1 bps is the nearest rate that still sends.
  [[nodiscard]] constexpr bit_rate pacing_rate() const noexcept {
    if (!(s_.cwnd < pkt_)) return params_.host_rate;
    bit_rate r = cwnd() / s_.rtt;
    if (r < min_pacing_rate) r = min_pacing_rate;
    return r < params_.host_rate ? r : params_.host_rate;
  }
  /// @brief The RTT in use: the latest ACK sample, base_rtt before one.
  [[nodiscard]] constexpr duration rtt() const noexcept { return s_.rtt; }
  /// @brief flow.rate of Algorithm 2 line 3: min(cwnd / RTT, host_rate).
  [[nodiscard]] constexpr bit_rate flow_rate() const noexcept {
    const bit_rate r = cwnd() / s_.rtt;
    return r < params_.host_rate ? r : params_.host_rate;
  }
  /// @brief True once an SRC has decremented the window.
  [[nodiscard]] constexpr bool decremented() const noexcept { return (s_.flags & has_dec) != 0; }
  /// @brief SRC decrements made so far (Algorithm 2 line 7 taken), modulo 2^32.
  [[nodiscard]] constexpr std::uint32_t decrements() const noexcept { return s_.decrements; }
  /// @brief The rule the latest congestion event (SRC, ACK, timeout, loss) ran.
  [[nodiscard]] constexpr bolt_branch last_branch() const noexcept { return s_.branch; }
  /// @brief last_dec_time of Algorithm 2 (meaningful when decremented()).
  [[nodiscard]] constexpr timestamp last_decrement() const noexcept { return s_.last_dec; }
  /// @brief seq_no_at_last_ai of Algorithm 2 (meaningful after the first ACK).
  [[nodiscard]] constexpr sequence ai_mark() const noexcept { return s_.ai.mark(); }
  /// @brief The §4.2 pending-bytes counter.
  [[nodiscard]] constexpr bytes pending() const noexcept { return bytes{s_.pending}; }
  /// @brief The §4.2 bytes-sent counter (since the connection was last idle).
  [[nodiscard]] constexpr bytes sent_since_idle() const noexcept { return bytes{s_.sent}; }
  /// @brief True when everything sent is acknowledged and nothing was sent since.
  [[nodiscard]] constexpr bool idle() const noexcept { return (s_.flags & idle_bit) != 0; }
  /// @brief Swift's retransmit_cnt (consecutive timeouts since the last ACK or fast recovery).
  [[nodiscard]] constexpr std::uint32_t retransmit_count() const noexcept { return s_.retx; }
  /// @brief The BDP of the LAST rule and of cwnd_init, in window bytes: host_rate * base_rtt *
  /// mss / mtu (host_rate * base_rtt when mss is 0).
  [[nodiscard]] constexpr bytes bdp() const noexcept { return bytes{bdp_}; }
  /// @brief The parameters in force (after invalid fields fell back).
  [[nodiscard]] constexpr const bolt_sender_params& params() const noexcept { return params_; }

 private:
  enum : std::uint8_t {
    has_dec = 1,   // an SRC decremented (last_dec is set)
    has_cut = 2,   // a Swift loss cut happened (last_cut is set)
    ai_armed = 4,  // seq_no_at_last_ai is set
    idle_bit = 8,  // everything sent is acknowledged
  };
  static constexpr std::int64_t elapsed_cap = std::int64_t{1} << 30;  // line 6 (file comment)

  // Per-flow state: what changes per flow, as opposed to the configuration a class of flows
  // shares.
  struct flow_state {
    value_type cwnd{};
    duration rtt{};                // latest RTT sample (base_rtt before one)
    timestamp last_dec{};          // Algorithm 2 last_dec_time
    timestamp last_cut{};          // Swift t_last_decrease (loss cuts)
    per_rtt_marker ai{};           // Algorithm 2 seq_no_at_last_ai
    std::int64_t pending = 0;      // §4.2 pending-bytes counter
    std::int64_t sent = 0;         // §4.2 bytes-sent counter since idle
    std::uint32_t decrements = 0;  // SRC decrements made (modulo 2^32)
    std::uint16_t retx = 0;        // Swift retransmit_cnt (saturating)
    std::uint8_t flags = idle_bit;
    bolt_branch branch = bolt_branch::none;  // the rule the latest congestion event ran
  };

 public:
  /// @brief Bytes of per-flow state (window, RTT, the two decrease times, seq_no_at_last_ai,
  /// the pending and bytes-sent counters, the decrement and retransmit counters and flags), as
  /// opposed to the configuration every flow of a class shares.
  static constexpr std::size_t state_bytes = sizeof(flow_state);

 private:
  // A timeout below RETX_RESET_THRESHOLD or a loss: cut if can_decrease.
  constexpr void loss_cut(timestamp now) noexcept {
    s_.branch = bolt_branch::no_cut;
    if (!can_decrease(now)) return;
    s_.branch = bolt_branch::cut;
    cut(now);
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
    bdp_ =
        detail::saturate_i64(detail::i128{(p.host_rate * p.base_rtt).count()} * step / mtu_bytes_);
    const bytes init = p.cwnd_init > bytes::zero() ? p.cwnd_init : bytes{bdp_};
    s_.cwnd = clamp_window(from_int(init.count()));
    s_.rtt = p.base_rtt;
  }

  [[nodiscard]] constexpr value_type clamp_window(value_type w) const noexcept {
    return clamp_num(w, min_cwnd_, max_cwnd_);
  }

  // Algorithm 2 line 3: flow.rate / link_rate, both in bytes per ns; flow.rate =
  // min(cwnd / RTT, host_rate); a zero (absent) link rate gives 1 (file comment).
  // Line 6's test, rtt_src / target_q <= elapsed, with the quotient rounded as operator/
  // rounds it (rtt_src >= 0, target_q > 0, 0 <= elapsed < 2^31). In fixed point the same
  // decision without the division: with N = raw(rtt_src) 2^F and D = raw(target_q), the rounded
  // quotient floor((N + floor(D / 2)) / D) is at most M = raw(elapsed) exactly when
  // N + floor(D / 2) < (M + 1) D (both sides below 2^127).
  [[nodiscard]] static constexpr bool interval_due(value_type rtt_src, value_type target_q,
                                                   value_type elapsed) noexcept {
    if constexpr (requires { value_type::fraction_bits; }) {
      using u128 = detail::u128;
      const u128 n =
          (u128{static_cast<std::uint64_t>(rtt_src.raw())} << value_type::fraction_bits) +
          static_cast<std::uint64_t>(target_q.raw()) / 2;
      const u128 bound = (u128{static_cast<std::uint64_t>(elapsed.raw())} + 1) *
                         static_cast<std::uint64_t>(target_q.raw());
      return n < bound;
    } else {
      return rtt_src / target_q <= elapsed;
    }
  }

  [[nodiscard]] constexpr value_type reaction_factor(bit_rate link) const noexcept {
    if (link <= bit_rate::zero()) return num<value_type>(1);
    // The divisions give operator/'s and ratio's values, without a 128-bit library division in
    // fixed point (detail::quotient; netcc::ratio_by with the constant 8e9 bits per byte-ns).
    value_type rate = detail::quotient(s_.cwnd, from_int(s_.rtt.count()));
    if (host_bytes_per_ns_ < rate) rate = host_bytes_per_ns_;
    return detail::quotient(rate, ratio_by<value_type>(link.bps(), bits_per_byte_ns));
  }

  // Swift Algorithm 1 can_decrease: no loss cut within the last RTT.
  [[nodiscard]] constexpr bool can_decrease(timestamp now) const noexcept {
    if (!(s_.flags & has_cut)) return true;
    return detail::bolt_sat_sub(now.count(), s_.last_cut.count()) >= s_.rtt.count();
  }
  constexpr void cut(timestamp now) noexcept {
    s_.cwnd = clamp_window(s_.cwnd * keep_);  // Swift: cwnd = (1 - max_mdf) * cwnd
    note_cut(now);
  }
  constexpr void note_cut(timestamp now) noexcept {
    s_.last_cut = now;
    s_.flags |= has_cut;
  }

  // Configuration (sanitised params and the values derived from them).
  bolt_sender_params params_{};
  std::int64_t mtu_bytes_ = 0;
  // 8e9: bits per second in one byte per nanosecond.
  static constexpr detail::invariant_divisor bits_per_byte_ns{8'000'000'000};
  std::int64_t bdp_ = 0;  // one BDP in window bytes
  value_type pkt_{};      // one packet of window (mss, or mtu)
  value_type min_cwnd_{};
  value_type max_cwnd_{};
  value_type keep_{};  // 1 - max_mdf
  value_type host_bytes_per_ns_{};
  // Per-flow state.
  flow_state s_{};
};

/// @brief The Bolt sender with double arithmetic.
using bolt_sender = basic_bolt_sender<>;

// Size budgets, in bytes. Per-flow state: 64 B (window, RTT, last_dec_time, Swift's last cut,
// seq_no_at_last_ai, the §4.2 pending and bytes-sent counters: seven 8-byte words; the
// decrement count, the retransmit counter and flags in the eighth). Configuration: the params
// (72 B) and 56 B derived from them (192 B in all).
static_assert(bolt_sender::state_bytes <= 64, "bolt_sender: per-flow state within 64 B");
static_assert(basic_bolt_sender<arith::q32>::state_bytes <= 64,
              "bolt_sender (q32): per-flow state within 64 B");
static_assert(sizeof(bolt_sender) <= 192, "bolt_sender: 192 B with its configuration");
static_assert(sizeof(basic_bolt_sender<arith::q32>) <= 192, "bolt_sender (q32): 192 B");

}  // namespace netcc
