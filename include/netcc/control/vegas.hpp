// SPDX-License-Identifier: MIT
/// @file
/// @brief TCP Vegas: a window that keeps between alpha and beta of the flow's packets queued in
/// the network, from the gap between the expected and the actual rate (RTT samples only).
///
/// Sources: L. S. Brakmo, L. L. Peterson, "TCP Vegas: End to End Congestion Avoidance on a Global
/// Internet", IEEE Journal on Selected Areas in Communications 13(8):1465-1480, 1995 (below: "the
/// paper"): §III-A (new retransmission mechanism: a window is decreased for a loss only if the
/// lost segment was sent after the last decrease), §III-B (congestion avoidance: BaseRTT, Expected,
/// Actual, Diff against alpha and beta), §III-C (modified slow start: exponential growth only
/// every other RTT, left when Diff exceeds gamma). Seed 003: S. Lehal, N. Luangsomboon,
/// J. Liebeherr, "Network Calculus Characterization of Congestion Control for Time-Varying
/// Traffic", §III-E and Appendix C, Algorithm 3 (below: "Alg. 3"), which writes the per-RTT rule as
/// an algorithm and uses the Samios-Vernon reading of the paper (SIGMETRICS 2003). Linux's
/// tcp_vegas.c was read for behaviour only (where it is named below as "Linux").
///
/// What is implemented, rule by rule, and where each rule comes from
/// - BaseRTT = the smallest RTT sample of the flow (the paper §III-B: "the minimum of all measured
///   round trip times"; Alg. 3 line 2 takes it from the model instead). Samples <= 0 are no
///   samples (netcc::ack_event carries 0 when the stack has none).
/// - Rounds of one RTT, tracked with the snd_nxt marker (netcc::per_rtt_marker, as Linux's
///   beg_snd_nxt): a round ends at the first ACK whose cumulative sequence reaches the snd_nxt
///   recorded when the round began (every byte sent before it is acknowledged); the first ACK of
///   the flow (and the first after a timeout) begins a round. minRTT = the smallest sample of the
///   round (Alg. 3 line 7 "minRTT"; Linux; the paper measures one distinguished segment per RTT,
///   the minimum over the round is the common practice that filters ACK compression and delayed
///   ACKs, as Low, Peterson and Wang's analysis of Vegas assumes).
/// - Once per round, at its last ACK (Alg. 3 line 8, the paper's Diff = (Expected - Actual) *
///   BaseRTT in packets): diff = (cwnd / MSS) (1 - BaseRTT / minRTT), with Expected = cwnd / BaseRTT
///   and Actual = cwnd / minRTT (netcc::vegas_diff). Linux divides by BaseRTT instead of minRTT
///   (its diff is the paper's times minRTT / BaseRTT); netcc follows the paper and Alg. 3.
/// - Slow start (the paper §III-C; Alg. 3 lines 9-18): if diff > gamma, cwnd = cwnd * BaseRTT /
///   minRTT (Alg. 3 line 11: the window the measured Actual rate fills in BaseRTT, i.e. the excess
///   diff packets are taken out) and slow start ends; otherwise the window doubles in every other
///   round (line 15, starting with the first) and holds in the rounds between, so that the
///   comparison is made on a window that stayed fixed (lines 14-17). After a timeout, slow start
///   also ends when the window reaches ssthresh (Reno's rule, RFC 5681 §3.1, which Vegas keeps).
/// - Congestion avoidance (the paper §III-B; Alg. 3 lines 20-24 with I_max = one packet): diff <
///   alpha: cwnd + MSS; diff > beta: cwnd - MSS, not below the floor of two packets; otherwise
///   unchanged. One adjustment per round, at its end (Alg. 3 and Linux; the paper spreads the one
///   packet over the next RTT's ACKs, which changes the window by the same amount per RTT).
/// - Loss (the paper §III-A), netcc::basic_vegas::on_loss, for a retransmission found by
///   duplicate ACKs or by Vegas's fine-grained timeout check: the window is decreased only if the
///   retransmitted segment (the one at the cumulative ACK) was sent after the last decrease, i.e.
///   its sequence has reached the snd_nxt recorded at that decrease. The decrease is that of the
///   authors' implementation as the ns-2 and INET Vegas models carry it (the paper fixes when, not
///   by how much): to 3/4 of the window, to 1/2 if the segment had been retransmitted before, to
///   two packets if the window is at most three. Slow start ends and a new round begins (Linux
///   restarts its per-RTT measurement when recovery ends).
/// - Timeout, netcc::basic_vegas::on_timeout (a coarse-grained retransmission timeout, which
///   Vegas handles as Reno does): ssthresh = max(cwnd / 2, 2 MSS) (RFC 5681 §3.1 Eq. 4 with cwnd
///   for FlightSize; held when no ACK arrived since the previous timeout, as RFC 5681 §3.1 holds
///   it for a segment the timer retransmits again), cwnd = the floor (two packets: Vegas's
///   implementation restarts from 2 rather than Reno's 1; min_cwnd if set), and the modified slow
///   start begins again with a fresh round. The timeout is a decrease for the §III-A rule; its
///   snd_nxt is that of the first ACK after it.
///
/// Defaults (netcc::vegas_params) and their sources
/// - alpha = 2, beta = 4 packets: the paper's "Vegas-2,4" setting, also the defaults of Linux's and
///   of ns-3's Vegas (the seed's §III-E simulation runs ns-3's); the paper also studies alpha = 1,
///   beta = 3. gamma = 1 packet: the paper §III-C ("one router buffer"), Linux, ns-3.
/// - MSS = 1460 B (1500 B Ethernet MTU less 40 B of IPv4 and TCP headers).
/// - Initial window: RFC 6928, min(10 MSS, max(2 MSS, 14600 B)) (init_cwnd = 0), common practice
///   (Linux); the paper's Reno started from one segment. Alg. 3 takes any W_o.
/// - Floor: two packets (min_cwnd = 0 means 2 MSS): the paper's and Linux's floor.
/// - max_cwnd = 2^31 - 1 B (the range of netcc::arith::q32).
///
/// Decisions left open, and deviations
/// - The window is kept in bytes and is not rounded to whole segments: the exit from slow start
///   (Alg. 3 line 11) can leave a fraction of a segment (Linux rounds its target down and adds
///   one). cwnd() rounds down to whole bytes.
/// - A round without an RTT sample changes nothing (no comparison can be made); in slow start it
///   does not count as a doubling or a holding round. Linux also falls back to Reno's growth in a
///   round with fewer than three samples; netcc does not (Vegas's laws hold per round).
/// - The first round begins at the flow's first ACK (the controller learns snd_nxt from ACKs), so
///   the first comparison is made when the data outstanding at that ACK is acknowledged.
/// - Fast recovery's window inflation (the authors' implementation adds three packets, as Reno
///   does) belongs to the stack's loss recovery and is not applied here. The fine-grained timeout
///   check itself (retransmit on the first duplicate ACK when the segment is older than the
///   fine-grained RTO) is the stack's too: it calls on_loss when it retransmits.
/// - Window-limited growth (cwnd_limited_growth, off by default: the paper has no such rule): a
///   round's doubling or one-packet increase is made only if the window limited the sender, judged
///   from the data in flight when the round's last ACK arrived (snd_nxt - ACK + acked): at least
///   half the window in slow start, at least the window less one MSS in congestion avoidance (RFC
///   7661's principle, with Linux's thresholds). Without it, a sender held back by its application
///   or by its own NIC (whose queue the RTT samples do not see) sees diff = 0 and grows its window
///   by a packet per RTT up to max_cwnd; decreases are never gated.
/// - Vegas is window-based: there is no pacing_rate() (the testbench then sends unpaced).
/// - Invalid parameters fall back to their defaults (the controller never fails); call
///   netcc::validate() to see them.
/// - Configuration and per-flow state: netcc::basic_vegas::config (parameters and derived
///   numbers, shared by a class of flows) runs the event logic on a netcc::basic_vegas::flow_state
///   (56 B in full width). netcc::vegas_compact keeps that state in 32 B (whole-byte windows,
///   32-bit RTTs and sequence marks; its comment states the ranges and the bound against q32).
/// - Fixed point: every step is computed in the arithmetic policy (netcc::arith::q32 or double);
///   the two agree to the rounding of the policies, and take the same decisions unless a diff is
///   within that rounding of alpha, beta or gamma (tested on the same event sequences).
///
/// @code
/// using namespace netcc::literals;
/// netcc::vegas cc;   // alpha 2, beta 4, gamma 1, MSS 1460 B, 10-segment initial window
/// // The first ACK begins a round; the round ends when 14600 (snd_nxt then) is acknowledged.
/// cc.on_ack(netcc::ack_event{.ack_seq = 1460, .snd_nxt = 14'600, .rtt = 100_us});
/// cc.on_ack(netcc::ack_event{.ack_seq = 14'600, .snd_nxt = 29'200, .rtt = 100_us});
/// // diff = 10 (1 - 100/100) = 0 <= gamma: slow start doubles the window
/// netcc::bytes w = cc.cwnd();   // 29200 B
/// @endcode
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "netcc/control/controller_concepts.hpp"
#include "netcc/core/arith.hpp"
#include "netcc/core/feedback.hpp"
#include "netcc/core/per_rtt.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/validation.hpp"

namespace netcc {

/// @brief Vegas's Diff in packets (the paper §III-B; Alg. 3 line 8): (Expected - Actual) *
/// BaseRTT = W (1 - BaseRTT / minRTT), with W = `window_packets`, Expected = W / BaseRTT and
/// Actual = W / minRTT. It is the flow's estimate of its own packets queued in the network.
///
/// Total: 0 when minRTT <= 0 or BaseRTT >= minRTT (no queueing measured); a negative BaseRTT
/// counts as 0.
/// @code
/// double d = netcc::vegas_diff(20.0, netcc::duration{100'000}, netcc::duration{125'000});
/// // 20 * (1 - 100/125) = 4 packets
/// @endcode
template <Number T>
[[nodiscard]] constexpr T vegas_diff(T window_packets, duration base_rtt,
                                     duration min_rtt) noexcept {
  if (min_rtt <= duration::zero() || base_rtt >= min_rtt) return T{};
  const duration base = base_rtt < duration::zero() ? duration::zero() : base_rtt;
  return window_packets * ratio<T>((min_rtt - base).count(), min_rtt.count());
}

/// @brief Parameters of TCP Vegas, with the defaults of the paper (Vegas-2,4; gamma = 1), RFC
/// 6928 and the two-packet floor.
/// @code
/// netcc::vegas_params p{.alpha = 1, .beta = 3, .mss = netcc::bytes{8960}};
/// // init_cwnd 0: RFC 6928, min(10 * 8960, max(2 * 8960, 14600)) = 17920 B; floor 17920 B
/// @endcode
struct vegas_params {
  /// @brief alpha in packets: below it the window grows by one packet per RTT (the paper: 2 in
  /// Vegas-2,4; 1 in Vegas-1,3).
  double alpha = 2.0;
  /// @brief beta in packets: above it the window shrinks by one packet per RTT (the paper: 4).
  double beta = 4.0;
  /// @brief gamma in packets: above it slow start ends (the paper §III-C: one buffer).
  double gamma = 1.0;
  /// @brief Maximum segment size: one "packet" of the thresholds and of the window steps.
  bytes mss{1460};
  /// @brief Initial window; 0 means RFC 6928's min(10 MSS, max(2 MSS, 14600 B)).
  bytes init_cwnd{0};
  /// @brief Smallest window; 0 means two segments (Vegas's floor).
  bytes min_cwnd{0};
  /// @brief Largest window (the q32 range).
  bytes max_cwnd{0x7FFF'FFFF};
  /// @brief Grow (double, or add one packet) only while the window limits the sender (RFC 7661's
  /// principle; not in the paper, hence off by default).
  bool cwnd_limited_growth = false;
};

/// @brief Largest alpha, beta or gamma accepted, in packets (keeps every product in q32 range).
inline constexpr double vegas_threshold_limit = 1 << 20;

/// @brief Check Vegas parameters; each error names "vegas.<field>", the value and the rule.
/// @code
/// auto v = netcc::validate(netcc::vegas_params{.alpha = 5, .beta = 4});
/// // v[0].message() == "vegas.beta = 4: must be greater than alpha"
/// @endcode
[[nodiscard]] inline validation validate(const vegas_params& p) {
  validation v;
  const bool alpha_ok = p.alpha >= 0 && p.alpha <= vegas_threshold_limit;
  v.check(alpha_ok, "vegas.alpha", p.alpha, "must be in [0, 1048576] packets");
  const bool beta_ok = p.beta >= 0 && p.beta <= vegas_threshold_limit;
  v.check(beta_ok, "vegas.beta", p.beta, "must be in [0, 1048576] packets");
  if (alpha_ok && beta_ok)
    v.check(p.beta > p.alpha, "vegas.beta", p.beta, "must be greater than alpha");
  v.check(p.gamma >= 0 && p.gamma <= vegas_threshold_limit, "vegas.gamma", p.gamma,
          "must be in [0, 1048576] packets");
  const bool mss_ok = p.mss >= bytes{1} && p.mss <= bytes{65535};
  v.check(mss_ok, "vegas.mss", p.mss, "must be in [1, 65535] B");
  v.check(p.min_cwnd >= bytes{0} && p.min_cwnd <= bytes{0x7FFF'FFFF}, "vegas.min_cwnd", p.min_cwnd,
          "must be in [0, 2147483647] B (0 means two MSS)");
  v.check(p.max_cwnd >= bytes{1} && p.max_cwnd <= bytes{0x7FFF'FFFF}, "vegas.max_cwnd", p.max_cwnd,
          "must be in [1, 2147483647] B (the q32 range)");
  const bytes mss = mss_ok ? p.mss : vegas_params{}.mss;
  const bytes min_eff = p.min_cwnd > bytes{0} ? p.min_cwnd : mss * 2;
  v.check(p.max_cwnd >= min_eff, "vegas.max_cwnd", p.max_cwnd,
          "must be at least min_cwnd (two MSS when 0)");
  v.check(p.init_cwnd >= bytes{0} && p.init_cwnd <= p.max_cwnd, "vegas.init_cwnd", p.init_cwnd,
          "must be in [0, max_cwnd] (0 means RFC 6928's initial window)");
  return v;
}

/// @brief Which rule the latest event ran (basic_vegas::last_branch): the decision record the
/// double and q32 policies are checked to agree on (tests/control/vegas_test.cpp). One byte of
/// per-flow state.
/// @code
/// if (cc.last_branch() == netcc::vegas_branch::avoid_down) { /* W - 1 this round */ }
/// @endcode
enum class vegas_branch : std::uint8_t {
  none,          ///< no event yet
  in_round,      ///< ACK within a round: samples only
  no_sample,     ///< ACK ending a round without an RTT sample: no comparison
  ss_exit,       ///< slow start, diff > gamma: W = W BaseRTT / minRTT, leave slow start
  ss_double,     ///< slow start, a doubling round: W = 2 W (up to ssthresh)
  ss_hold,       ///< slow start, a skipped (or window-limited) round: no change
  avoid_up,      ///< congestion avoidance, diff < alpha: W + 1 (held if window-limited)
  avoid_down,    ///< congestion avoidance, diff > beta: W - 1
  avoid_hold,    ///< congestion avoidance, alpha <= diff <= beta: no change
  loss_cut,      ///< loss of data sent after the last decrease: cut (§III-A)
  loss_ignored,  ///< loss of data sent before the last decrease: no change
  timeout,       ///< retransmission timeout: slow start from min_cwnd
};

/// @brief Storage of basic_vegas's per-flow state: the policy's numbers, 64-bit durations and
/// sequence marks (the default, exact).
/// @code
/// netcc::basic_vegas<netcc::arith::q32, netcc::vegas_state_full> cc;   // = netcc::vegas_fixed
/// @endcode
struct vegas_state_full {};
/// @brief Storage of basic_vegas's per-flow state in 32 B (q32 only; see netcc::vegas_compact
/// for the ranges): whole-byte windows, 32-bit RTTs and 32-bit wrapping sequence marks.
/// @code
/// netcc::basic_vegas<netcc::arith::q32, netcc::vegas_state_compact> cc;  // = vegas_compact
/// @endcode
struct vegas_state_compact {};

/// @brief Largest RTT the compact state keeps exactly, in ns (2^32 - 2, about 4.29 s); longer
/// samples are kept as this value.
inline constexpr std::int64_t vegas_compact_max_rtt_ns = 0xFFFF'FFFE;

namespace detail {

enum : std::uint8_t {
  vegas_armed = 1,        // round_end holds the snd_nxt of the current round's start
  vegas_sampled = 2,      // round_min holds a sample of the current round
  vegas_slow_start = 4,   // Alg. 3 Flag_slowstart
  vegas_grow = 8,         // Alg. 3 Flag_skip == 0: this slow-start round ends with a doubling
  vegas_lost = 16,        // a loss or timeout decrease happened: loss_mark is meaningful
  vegas_loss_rearm = 32,  // a timeout happened: the next event's snd_nxt sets loss_mark
};

// The per-flow state of basic_vegas in full width: the policy's numbers, 64-bit durations and
// 64-bit sequence marks. Also the working form the event logic runs on for the compact state.
template <class T>
struct vegas_full_state {
  T cwnd{};                              // W, bytes
  T ssthresh{};                          // slow-start threshold, bytes
  duration base_rtt = duration::max();   // BaseRTT
  duration round_min = duration::max();  // minRTT of the current round
  per_rtt_marker round_end{};            // snd_nxt when the current round began
  per_rtt_marker loss_mark{};            // snd_nxt at the last decrease (§III-A)
  std::uint32_t rounds = 0;
  std::uint16_t reductions = 0;
  std::uint8_t flags = 0;
  vegas_branch branch = vegas_branch::none;  // the rule the latest event ran
};

// The 32-B per-flow state of netcc::vegas_compact (see its comment for the ranges).
struct vegas_compact_state {
  std::uint32_t cwnd = 0;                    // W in whole bytes, rounded down
  std::uint32_t ssthresh = 0;                // ssthresh in whole bytes, rounded up
  std::uint32_t base_rtt = 0xFFFF'FFFF;      // BaseRTT in ns; 2^32 - 1: no sample yet
  std::uint32_t round_min = 0xFFFF'FFFF;     // the round's minRTT in ns; 2^32 - 1: none
  std::uint32_t round_end = 0;               // snd_nxt at the round's start, modulo 2^32
  std::uint32_t loss_mark = 0;               // snd_nxt at the last decrease, modulo 2^32
  std::uint32_t rounds = 0;                  // rounds ended, modulo 2^32
  std::uint16_t reductions = 0;              // decreases, modulo 2^16
  std::uint8_t flags = 0;                    // the six flags above
  vegas_branch branch = vegas_branch::none;  // the rule the latest event ran

  using work = vegas_full_state<arith::q32::value_type>;

  static constexpr duration load_rtt(std::uint32_t v) noexcept {
    return v == 0xFFFF'FFFFu ? duration::max() : duration{std::int64_t{v}};
  }
  static constexpr std::uint32_t store_rtt(duration d) noexcept {
    if (d == duration::max()) return 0xFFFF'FFFFu;
    const std::int64_t n = d.count();
    return static_cast<std::uint32_t>(n < vegas_compact_max_rtt_ns ? n : vegas_compact_max_rtt_ns);
  }
  // A 32-bit mark as the 64-bit sequence within 2^31 of `near` with the same low 32 bits: a
  // comparison with `near` then reads as TCP's 32-bit sequence comparison.
  static constexpr sequence load_mark(std::uint32_t m, sequence near) noexcept {
    const auto d = static_cast<std::int32_t>(m - static_cast<std::uint32_t>(near));
    return near + static_cast<sequence>(static_cast<std::int64_t>(d));
  }
  // The working form, with the marks placed near sequence `near` (the event's ACK).
  [[nodiscard]] constexpr work load(sequence near) const noexcept {
    using T = arith::q32::value_type;
    work w;
    w.cwnd = T::from_raw(static_cast<std::int64_t>(cwnd) << 32);
    w.ssthresh = T::from_raw(static_cast<std::int64_t>(ssthresh) << 32);
    w.base_rtt = load_rtt(base_rtt);
    w.round_min = load_rtt(round_min);
    w.round_end.arm(load_mark(round_end, near));
    w.loss_mark.arm(load_mark(loss_mark, near));
    w.rounds = rounds;
    w.reductions = reductions;
    w.flags = flags;
    w.branch = branch;
    return w;
  }
  // Windows in [0, 2^31) B: cwnd rounded down (cwnd() is unchanged), ssthresh rounded up (a
  // whole-byte window compares with it as with the exact threshold).
  constexpr void store(const work& w) noexcept {
    const std::int64_t c = w.cwnd.raw() > 0 ? w.cwnd.raw() : 0;
    const std::int64_t s = w.ssthresh.raw() > 0 ? w.ssthresh.raw() : 0;
    cwnd = static_cast<std::uint32_t>(c >> 32);
    ssthresh = static_cast<std::uint32_t>((s + 0xFFFF'FFFF) >> 32);
    base_rtt = store_rtt(w.base_rtt);
    round_min = store_rtt(w.round_min);
    round_end = static_cast<std::uint32_t>(w.round_end.mark());
    loss_mark = static_cast<std::uint32_t>(w.loss_mark.mark());
    rounds = w.rounds;
    reductions = w.reductions;
    flags = w.flags;
    branch = w.branch;
  }
};

template <class T, class S>
struct vegas_storage {
  using type = vegas_full_state<T>;
};
template <>
struct vegas_storage<arith::q32::value_type, vegas_state_compact> {
  using type = vegas_compact_state;
};

}  // namespace detail

/// @brief TCP Vegas's sender (the paper §III; the seed's Algorithm 3) over arithmetic policy
/// `Policy`.
///
/// After any event sequence: cwnd() within [min_cwnd, max_cwnd]; the window changes on an ACK only
/// at the end of a round (at most once per RTT); in congestion avoidance by exactly one MSS (less
/// at the bounds) according to diff against alpha and beta. No allocation, no virtual functions,
/// no clock reads (the RTT comes with the ACK).
///
/// Configuration and per-flow state. The controller is a netcc::basic_vegas::config (the
/// parameters and the numbers derived from them, shared by every flow of a class) and a
/// netcc::basic_vegas::flow_state (what changes per flow); the event logic is written once, as
/// members of config taking the state (`cfg.on_ack(st, e)`), and the controller forwards to it.
/// A caller holding many flows keeps one config per path class and an array of flow_state.
/// With `Storage` = netcc::vegas_state_full (the default) flow_state keeps the policy's numbers,
/// 64-bit durations and 64-bit sequence marks (56 B); with netcc::vegas_state_compact (q32 only,
/// netcc::vegas_compact) it keeps 32 B, and each event runs on the full form unpacked in
/// registers.
/// @tparam Policy netcc::arith::ieee_double or a fixed-point policy such as netcc::arith::q32
/// @tparam Storage netcc::vegas_state_full or (with q32) netcc::vegas_state_compact
/// @code
/// using namespace netcc::literals;
/// netcc::basic_vegas<netcc::arith::q32> cc;   // 10-segment initial window
/// cc.on_ack(netcc::rtt_event{.rtt = 100_us, .ack_seq = 1460, .snd_nxt = 14'600});
/// cc.on_ack(netcc::rtt_event{.rtt = 100_us, .ack_seq = 14'600, .snd_nxt = 29'200});
/// // round 1: diff = 10 (1 - 100/100) = 0 <= gamma, a doubling round: 20 packets
/// cc.on_ack(netcc::rtt_event{.rtt = 125_us, .ack_seq = 29'200, .snd_nxt = 43'800});
/// // round 2: diff = 20 (1 - 100/125) = 4 > gamma: slow start ends at 20 * 100/125 = 16 packets
/// @endcode
template <ArithmeticPolicy Policy = arith::ieee_double, class Storage = vegas_state_full>
requires std::is_same_v<Storage, vegas_state_full> ||
    (std::is_same_v<Storage, vegas_state_compact>&&
         std::is_same_v<typename Policy::value_type, arith::q32::value_type>)class basic_vegas {
 public:
  /// @brief The number type of the window and of diff.
  using value_type = typename Policy::value_type;
  /// @brief The parameter struct.
  using params_type = vegas_params;
  /// @brief Events consumed (netcc::controller_traits): ACKs, losses and timeouts.
  static constexpr event_set events = cc_event::ack | cc_event::loss | cc_event::timeout;

  /// @brief Whether flow_state is the 32-B compact form (netcc::vegas_state_compact).
  static constexpr bool compact = std::is_same_v<Storage, vegas_state_compact>;
  /// @brief One flow's state (trivially copyable): window, ssthresh, BaseRTT, the round's
  /// minRTT, the round's and the last decrease's snd_nxt, the round and decrease counts, the
  /// flags and the latest branch. Read it through config.
  using flow_state = typename detail::vegas_storage<value_type, Storage>::type;
  static_assert(std::is_trivially_copyable_v<flow_state>);

  /// @brief What a class of flows shares: the parameters (invalid fields fallen back) and the
  /// numbers derived from them, with the event logic as members taking one flow's state.
  /// @code
  /// const netcc::vegas_compact::config cfg{{.init_cwnd = netcc::bytes{20 * 1460}}};
  /// std::vector<netcc::vegas_compact::flow_state> flows(1000, cfg.initial_state());  // 32 kB
  /// cfg.on_ack(flows[7], netcc::ack_event{.ack_seq = 1460, .snd_nxt = 29'200,
  ///                                       .rtt = netcc::duration{100'000}});
  /// netcc::bytes w = cfg.cwnd(flows[7]);  // 29200 B: the first round has not ended
  /// @endcode
  class config {
   public:
    /// @brief The configuration for parameters `p` (invalid fields fall back to defaults).
    constexpr explicit config(const vegas_params& p = {}) noexcept : params_(sanitise(p)) {
      mss_ = from_bytes(params_.mss.count());
      min_cwnd_ = from_bytes(params_.min_cwnd.count());
      max_cwnd_ = from_bytes(params_.max_cwnd.count());
      alpha_ = num<value_type>(params_.alpha);
      beta_ = num<value_type>(params_.beta);
      gamma_ = num<value_type>(params_.gamma);
    }

    /// @brief A new flow's state: the initial window, ssthresh = max_cwnd, slow start with a
    /// doubling first round (Alg. 3 line 1).
    [[nodiscard]] constexpr flow_state initial_state() const noexcept {
      flow_state st{};
      init(st);
      return st;
    }
    /// @brief Reset `st` to a new flow's state.
    constexpr void init(flow_state& st) const noexcept {
      work s{};
      s.cwnd = clamp_window(from_bytes(params_.init_cwnd.count()));
      s.ssthresh = max_cwnd_;
      s.flags = detail::vegas_slow_start | detail::vegas_grow;  // Flag_slowstart 1, Flag_skip 0
      if constexpr (compact) {
        st.store(s);
      } else {
        st = s;
      }
    }

    /// @brief basic_vegas::on_ack for the flow of state `st`.
    template <class E>
    requires AckFeedback<E> && RttFeedback<E>
    constexpr void on_ack(flow_state& st, const E& e) const noexcept {
      // The event's fields, not the event, go to the handler: an event with an INT stack would
      // otherwise be built in memory wherever the handler is not inlined.
      using ft = feedback_traits<E>;
      ack_fields(st, ft::ack_seq(e), ft::snd_nxt(e), ft::rtt(e), ft::acked_bytes(e));
    }

    /// @brief basic_vegas::on_loss for the flow of state `st`.
    template <class E>
    requires AckFeedback<E>
    constexpr void on_loss(flow_state& st, const E& e,
                           bool retransmitted_before = false) const noexcept {
      using ft = feedback_traits<E>;
      const sequence ack = ft::ack_seq(e);
      if constexpr (compact) {
        work s = st.load(ack);
        handle_loss(s, ack, ft::snd_nxt(e), retransmitted_before);
        st.store(s);
      } else {
        handle_loss(st, ack, ft::snd_nxt(e), retransmitted_before);
      }
    }

    /// @brief basic_vegas::on_timeout for the flow of state `st`.
    constexpr void on_timeout(flow_state& st, timestamp /*now*/ = {}) const noexcept {
      if constexpr (compact) {
        work s = st.load(sequence{st.round_end});
        handle_timeout(s);
        st.store(s);
      } else {
        handle_timeout(st);
      }
    }

    /// @brief basic_vegas::cwnd of state `st`.
    [[nodiscard]] constexpr bytes cwnd(const flow_state& st) const noexcept {
      return bytes{static_cast<std::int64_t>(to_double(window(st)))};
    }
    /// @brief basic_vegas::window of state `st`.
    [[nodiscard]] constexpr value_type window(const flow_state& st) const noexcept {
      if constexpr (compact) {
        return from_bytes(st.cwnd);
      } else {
        return st.cwnd;
      }
    }
    /// @brief basic_vegas::ssthresh of state `st`.
    [[nodiscard]] constexpr value_type ssthresh(const flow_state& st) const noexcept {
      if constexpr (compact) {
        return from_bytes(st.ssthresh);
      } else {
        return st.ssthresh;
      }
    }
    /// @brief basic_vegas::base_rtt of state `st`.
    [[nodiscard]] constexpr duration base_rtt(const flow_state& st) const noexcept {
      if constexpr (compact) {
        return flow_state::load_rtt(st.base_rtt);
      } else {
        return st.base_rtt;
      }
    }
    /// @brief basic_vegas::round_min_rtt of state `st`.
    [[nodiscard]] constexpr duration round_min_rtt(const flow_state& st) const noexcept {
      if constexpr (compact) {
        return flow_state::load_rtt(st.round_min);
      } else {
        return st.round_min;
      }
    }
    /// @brief basic_vegas::in_slow_start of state `st`.
    [[nodiscard]] constexpr bool in_slow_start(const flow_state& st) const noexcept {
      return (st.flags & detail::vegas_slow_start) != 0;
    }
    /// @brief basic_vegas::doubling_round of state `st`.
    [[nodiscard]] constexpr bool doubling_round(const flow_state& st) const noexcept {
      return (st.flags & detail::vegas_grow) != 0;
    }
    /// @brief basic_vegas::rounds of state `st`.
    [[nodiscard]] constexpr std::uint32_t rounds(const flow_state& st) const noexcept {
      return st.rounds;
    }
    /// @brief basic_vegas::last_branch of state `st`.
    [[nodiscard]] constexpr vegas_branch last_branch(const flow_state& st) const noexcept {
      return st.branch;
    }
    /// @brief basic_vegas::reductions of state `st`.
    [[nodiscard]] constexpr std::uint16_t reductions(const flow_state& st) const noexcept {
      return st.reductions;
    }
    /// @brief basic_vegas::after_decrease of state `st`.
    [[nodiscard]] constexpr bool after_decrease(const flow_state& st) const noexcept {
      return (st.flags & detail::vegas_lost) != 0;
    }
    /// @brief The parameters in force (after invalid fields fell back).
    [[nodiscard]] constexpr const vegas_params& params() const noexcept { return params_; }

   private:
    using work = detail::vegas_full_state<value_type>;
    static constexpr std::uint8_t armed = detail::vegas_armed;
    static constexpr std::uint8_t sampled = detail::vegas_sampled;
    static constexpr std::uint8_t slow_start = detail::vegas_slow_start;
    static constexpr std::uint8_t grow = detail::vegas_grow;
    static constexpr std::uint8_t lost = detail::vegas_lost;
    static constexpr std::uint8_t loss_rearm = detail::vegas_loss_rearm;

    constexpr void ack_fields(flow_state& st, sequence ack, sequence nxt, duration rtt,
                              bytes acked) const noexcept {
      if constexpr (compact) {
        // The common ACK, within an armed round with no timeout mark pending, moves only the
        // RTT samples: handle_ack's sampling lines on the stored 32-bit fields (a sample past
        // 2^32 - 2 ns is kept as that either way), without unpacking the rest.
        if ((st.flags & (armed | loss_rearm)) == armed &&
            static_cast<std::int32_t>(static_cast<std::uint32_t>(ack) - st.round_end) < 0) {
          if (rtt > duration::zero()) {
            const std::uint32_t r = flow_state::store_rtt(rtt);
            if (r < st.base_rtt) st.base_rtt = r;
            if (!(st.flags & sampled) || r < st.round_min) st.round_min = r;
            st.flags |= sampled;
          }
          st.branch = vegas_branch::in_round;
          return;
        }
        work s = st.load(ack);
        handle_ack(s, ack, nxt, rtt, acked);
        st.store(s);
      } else {
        handle_ack(st, ack, nxt, rtt, acked);
      }
    }

    constexpr void handle_ack(work& s, sequence ack, sequence nxt, duration rtt,
                              bytes acked) const noexcept {
      if (!(s.flags & armed)) {  // the first ACK (of the flow, or after a timeout) begins a round
        s.round_end.arm(nxt);
        s.flags |= armed;
      }
      if (s.flags & loss_rearm) {  // the §III-A mark of a timeout: snd_nxt of the ACK after it
        s.loss_mark.arm(nxt);
        s.flags &= static_cast<std::uint8_t>(~loss_rearm);
      }
      if (rtt > duration::zero()) {
        if (rtt < s.base_rtt) s.base_rtt = rtt;  // BaseRTT: the minimum of all samples
        if (!(s.flags & sampled) || rtt < s.round_min) s.round_min = rtt;  // the round's minRTT
        s.flags |= sampled;
      }
      s.branch = vegas_branch::in_round;
      if (s.round_end.reached(ack)) {  // every byte sent before the round began is acknowledged
        end_round(s, window_limited_by(s, ack, nxt, acked));
        s.round_end.arm(nxt);
      }
    }

    constexpr void handle_loss(work& s, sequence ack, sequence nxt,
                               bool retransmitted_before) const noexcept {
      if (s.flags & loss_rearm) {
        s.loss_mark.arm(nxt);
        s.flags &= static_cast<std::uint8_t>(~loss_rearm);
      }
      // §III-A: a loss of data sent before the last decrease says nothing of the current window.
      s.branch = vegas_branch::loss_ignored;
      if ((s.flags & lost) && !s.loss_mark.reached(ack)) return;
      s.branch = vegas_branch::loss_cut;
      value_type w;
      if (!(s.cwnd > mss_ * num<value_type>(3))) {
        w = mss_ + mss_;
      } else if (retransmitted_before) {
        w = s.cwnd * num<value_type>(0.5);
      } else {
        w = s.cwnd - s.cwnd * num<value_type>(0.25);
      }
      if (s.cwnd < w) w = s.cwnd;
      s.cwnd = clamp_window(w);
      s.loss_mark.arm(nxt);
      s.round_end.arm(nxt);
      s.round_min = duration::max();
      s.flags = static_cast<std::uint8_t>((s.flags | lost | armed) & ~(slow_start | sampled));
      ++s.reductions;
    }

    constexpr void handle_timeout(work& s) const noexcept {
      s.branch = vegas_branch::timeout;
      if (!(s.flags & loss_rearm))
        s.ssthresh = clamp_window(max_v(s.cwnd * num<value_type>(0.5), mss_ + mss_));
      s.cwnd = min_cwnd_;
      s.round_min = duration::max();
      s.flags = static_cast<std::uint8_t>(slow_start | grow | lost | loss_rearm);
      ++s.reductions;
    }

    static constexpr value_type max_v(value_type a, value_type b) noexcept { return a < b ? b : a; }
    [[nodiscard]] constexpr value_type clamp_window(value_type w) const noexcept {
      return clamp_num(w, min_cwnd_, max_cwnd_);
    }

    // Data in flight when an ACK arrived, SND.NXT - ACK + acked, in bytes (saturating at the
    // window range), and whether it shows the window limiting the sender (always true when the
    // option is off): at least half the window in slow start, at least the window less one MSS
    // after it.
    [[nodiscard]] constexpr bool window_limited_by(const work& s, sequence ack, sequence nxt,
                                                   bytes acked) const noexcept {
      if (!params_.cwnd_limited_growth) return true;
      constexpr auto cap = static_cast<std::uint64_t>(window_cap);
      const std::uint64_t out = seq_geq(nxt, ack) ? nxt - ack : 0;
      const std::uint64_t a = acked.count() > 0 ? static_cast<std::uint64_t>(acked.count()) : 0;
      const std::uint64_t flight = out < cap && a < cap - out ? out + a : cap;
      const value_type f = from_bytes(static_cast<std::int64_t>(flight));
      return (s.flags & slow_start) ? !(f + f < s.cwnd) : !(f + mss_ < s.cwnd);
    }

    // The once-per-RTT decision at the last ACK of a round (Alg. 3 lines 8-25); growth only if
    // `may_grow` (see window_limited_by).
    constexpr void end_round(work& s, bool may_grow) const noexcept {
      ++s.rounds;
      s.branch = vegas_branch::no_sample;
      if (!(s.flags & sampled)) return;  // no sample, no comparison
      const duration min_rtt = s.round_min;
      s.round_min = duration::max();
      s.flags &= static_cast<std::uint8_t>(~sampled);
      // Line 8: diff = BaseRTT (W / BaseRTT - W / minRTT), W in packets.
      const value_type diff = vegas_diff(s.cwnd / mss_, s.base_rtt, min_rtt);
      if (s.flags & slow_start) {
        s.branch = vegas_branch::ss_hold;
        if (diff > gamma_) {
          s.branch = vegas_branch::ss_exit;
          // Lines 10-12: W = W * BaseRTT / minRTT, leave slow start.
          s.cwnd = clamp_window(s.cwnd * ratio<value_type>(s.base_rtt.count(), min_rtt.count()));
          s.flags &= static_cast<std::uint8_t>(~(slow_start | grow));
          return;
        }
        if ((s.flags & grow) && may_grow) {
          s.branch = vegas_branch::ss_double;
          // Line 15: W = 2 W; up to ssthresh, where slow start ends (RFC 5681 §3.1).
          value_type w = s.cwnd + s.cwnd;
          if (!(w < s.ssthresh)) {
            w = s.ssthresh;
            s.flags &= static_cast<std::uint8_t>(~slow_start);
          }
          s.cwnd = clamp_window(w);
        }
        s.flags ^= grow;  // line 17: Flag_skip = (1 + Flag_skip) mod 2
        return;
      }
      s.branch = vegas_branch::avoid_hold;
      if (diff < alpha_) {
        s.branch = vegas_branch::avoid_up;
        if (may_grow) s.cwnd = clamp_window(s.cwnd + mss_);  // line 21: W = W + I_max
      } else if (diff > beta_) {
        s.branch = vegas_branch::avoid_down;
        s.cwnd = clamp_window(s.cwnd - mss_);  // line 23: W = W - I_max, not below the floor
      }
    }

    vegas_params params_;
    value_type mss_{};
    value_type min_cwnd_{};
    value_type max_cwnd_{};
    value_type alpha_{};
    value_type beta_{};
    value_type gamma_{};
  };

  /// @brief A controller with parameters `p` (unchecked: invalid fields fall back to their
  /// defaults; netcc::make reports them instead).
  constexpr explicit basic_vegas(const vegas_params& p = {}) noexcept
      : cfg_(p), s_(cfg_.initial_state()) {}

  /// @brief One ACK with an RTT sample: BaseRTT and the round's minRTT take the sample (the
  /// paper §III-B; Alg. 3 lines 2, 7); at the end of a round, the once-per-RTT decision (Alg. 3
  /// lines 8-25: slow start, or congestion avoidance against alpha and beta).
  /// @param e an event with cumulative ack_seq, snd_nxt and an RTT sample (<= 0: none)
  template <class E>
  requires AckFeedback<E> && RttFeedback<E>
  constexpr void on_ack(const E& e) noexcept { cfg_.on_ack(s_, e); }

  /// @brief A retransmission found by duplicate ACKs or by Vegas's fine-grained timeout check,
  /// on ACK `e` (the paper §III-A): the window is decreased only if the retransmitted segment
  /// (at the cumulative ACK) was sent after the last decrease; then to 3/4 (1/2 when
  /// `retransmitted_before`, two packets when the window is at most three), slow start ends and
  /// a new round begins. Never raises the window.
  /// @param e the ACK that triggered the retransmission (its ack_seq and snd_nxt are used)
  /// @param retransmitted_before the segment had already been retransmitted once or more
  template <class E>
  requires AckFeedback<E>
  constexpr void on_loss(const E& e, bool retransmitted_before = false) noexcept {
    cfg_.on_loss(s_, e, retransmitted_before);
  }

  /// @brief Retransmission timeout (Reno's, which Vegas keeps): ssthresh = max(cwnd / 2, 2 MSS)
  /// (RFC 5681 §3.1; held if no ACK arrived since the previous timeout), cwnd = the floor (two
  /// packets), the modified slow start begins again with a fresh round (Alg. 3 line 1's flags).
  /// The time is not needed.
  constexpr void on_timeout(timestamp now = {}) noexcept { cfg_.on_timeout(s_, now); }

  /// @brief The congestion window in whole bytes (rounded down), in [min_cwnd, max_cwnd].
  [[nodiscard]] constexpr bytes cwnd() const noexcept { return cfg_.cwnd(s_); }
  /// @brief The pacing rate: bit_rate::max(), Vegas is window-based and does not pace (the
  /// netcc::Controller convention for "not paced").
  [[nodiscard]] constexpr bit_rate pacing_rate() const noexcept { return bit_rate::max(); }
  /// @brief The window as computed (unrounded; whole bytes in the compact state), in bytes.
  [[nodiscard]] constexpr value_type window() const noexcept { return cfg_.window(s_); }
  /// @brief The slow-start threshold (max_cwnd until a timeout sets it).
  [[nodiscard]] constexpr value_type ssthresh() const noexcept { return cfg_.ssthresh(s_); }
  /// @brief BaseRTT, the smallest RTT sample so far (duration::max() before the first).
  [[nodiscard]] constexpr duration base_rtt() const noexcept { return cfg_.base_rtt(s_); }
  /// @brief The current round's minRTT so far (duration::max() while it has no sample).
  [[nodiscard]] constexpr duration round_min_rtt() const noexcept { return cfg_.round_min_rtt(s_); }
  /// @brief True in (modified) slow start.
  [[nodiscard]] constexpr bool in_slow_start() const noexcept { return cfg_.in_slow_start(s_); }
  /// @brief In slow start: true when the current round ends with a doubling (Alg. 3's Flag_skip
  /// = 0), false when it holds the window.
  [[nodiscard]] constexpr bool doubling_round() const noexcept { return cfg_.doubling_round(s_); }
  /// @brief Rounds ended so far (with or without a sample), modulo 2^32.
  [[nodiscard]] constexpr std::uint32_t rounds() const noexcept { return cfg_.rounds(s_); }
  /// @brief The rule the latest event ran.
  [[nodiscard]] constexpr vegas_branch last_branch() const noexcept { return cfg_.last_branch(s_); }
  /// @brief Loss and timeout decreases made so far, modulo 2^16.
  [[nodiscard]] constexpr std::uint16_t reductions() const noexcept { return cfg_.reductions(s_); }
  /// @brief Whether a decrease has happened and the §III-A mark is set (a loss of data sent
  /// before it is ignored).
  [[nodiscard]] constexpr bool after_decrease() const noexcept { return cfg_.after_decrease(s_); }
  /// @brief The parameters in force (after invalid fields fell back).
  [[nodiscard]] constexpr const vegas_params& params() const noexcept { return cfg_.params(); }
  /// @brief The configuration (shared part) of this controller.
  [[nodiscard]] constexpr const config& configuration() const noexcept { return cfg_; }
  /// @brief This controller's per-flow state.
  [[nodiscard]] constexpr const flow_state& state() const noexcept { return s_; }

  /// @brief Bytes of per-flow state, sizeof(flow_state): in full width the window and ssthresh
  /// (two policy numbers), BaseRTT and the round's minRTT (two 64-bit durations), the round's
  /// and the last decrease's snd_nxt (two 64-bit sequences), the round and decrease counters and
  /// the flags, with padding (56 B); in the compact form the same fields in 32 bits each but
  /// the decrease count (16) and the flags and branch (8 each), 32 B. The configuration is
  /// shared by a class of flows.
  static constexpr std::size_t state_bytes = sizeof(flow_state);

 private:
  static constexpr std::int64_t window_cap = 0x7FFF'FFFF;

  static constexpr vegas_params sanitise(vegas_params p) noexcept {
    const vegas_params d{};
    const auto threshold_ok = [](double x) { return x >= 0 && x <= vegas_threshold_limit; };
    if (!threshold_ok(p.alpha)) p.alpha = d.alpha;
    if (!threshold_ok(p.beta)) p.beta = d.beta;
    if (!(p.beta > p.alpha)) {
      p.alpha = d.alpha;
      p.beta = d.beta;
    }
    if (!threshold_ok(p.gamma)) p.gamma = d.gamma;
    if (p.mss < bytes{1} || p.mss > bytes{65535}) p.mss = d.mss;
    if (p.min_cwnd <= bytes{0} || p.min_cwnd > bytes{window_cap}) p.min_cwnd = p.mss * 2;
    if (p.max_cwnd < bytes{1} || p.max_cwnd > bytes{window_cap}) p.max_cwnd = d.max_cwnd;
    if (p.max_cwnd < p.min_cwnd) p.max_cwnd = p.min_cwnd;
    if (p.init_cwnd <= bytes{0} || p.init_cwnd > p.max_cwnd) {
      // RFC 6928: min(10 MSS, max(2 MSS, 14600 B)); within [min_cwnd, max_cwnd] after clamping.
      const std::int64_t m = p.mss.count();
      const std::int64_t two = 2 * m > 14'600 ? 2 * m : 14'600;
      p.init_cwnd = bytes{10 * m < two ? 10 * m : two};
    }
    return p;
  }

  static constexpr value_type from_bytes(std::int64_t b) noexcept {
    return number_traits<value_type>::from_int(b);
  }

  config cfg_;
  flow_state s_;
};

/// @brief TCP Vegas with double arithmetic.
using vegas = basic_vegas<>;
/// @brief TCP Vegas in fixed point (netcc::arith::q32): no floating point per event (parameters
/// are converted once, at construction).
using vegas_fixed = basic_vegas<arith::q32>;
/// @brief TCP Vegas in q32 with a 32-B per-flow state (issue budget for RTT controllers in fixed
/// point). The arithmetic is vegas_fixed's, run on the state unpacked in registers; what is
/// stored narrows as follows:
/// - cwnd and ssthresh: whole bytes in 32 bits (windows are below 2^31 B), cwnd rounded down
///   (cwnd() is the q32 window's) and ssthresh rounded up (so a whole-byte window compares with
///   it as with the exact value). The window drops the fraction of a byte that slow-start exits
///   and loss cuts leave, so it is at most 4 B below vegas_fixed's on the same events (each cut
///   contracts the difference by 3/4 or more before adding less than 1 B; every other step
///   keeps it), or less than 1 B above it (a window set to ssthresh), while the two take the
///   same branches; and they take the same branches unless diff (which moves by less than
///   4 / MSS packets for 4 B) or a window comparison lies within that of a threshold.
/// - BaseRTT and the round's minRTT: ns in 32 bits, exact up to 2^32 - 2 ns (4.29 s); longer
///   samples count as netcc::vegas_compact_max_rtt_ns.
/// - the round's and the last decrease's snd_nxt: modulo 2^32, compared with ACKs modulo 2^32
///   (TCP's 32-bit sequence space): exact while an ACK lies within 2^31 B of the mark.
/// - the round count modulo 2^32, the decrease count modulo 2^16 (as vegas_fixed), the six
///   flags and the branch record in one byte each.
/// @code
/// netcc::vegas_compact cc;
/// cc.on_ack(netcc::ack_event{.ack_seq = 1460, .snd_nxt = 14'600, .rtt = netcc::duration{100'000}});
/// static_assert(netcc::vegas_compact::state_bytes == 32);
/// @endcode
using vegas_compact = basic_vegas<arith::q32, vegas_state_compact>;

// Per-flow state budget (TARGETS.md: 32 B for RTT controllers in fixed point): vegas_compact's
// state is 32 B; the full width (double, and q32 with 64-bit durations and sequence marks) is
// 56 B, printed by bench/vegas.cpp. Counted: sizeof of the per-flow part (flow_state), padding
// included; the configuration (params, MSS, bounds and thresholds in the policy's numbers) is
// shared by a class of flows (basic_vegas::config).
static_assert(vegas::state_bytes <= 56, "vegas: per-flow state within 56 B");
static_assert(vegas_fixed::state_bytes <= 56, "vegas (q32): per-flow state within 56 B");
static_assert(sizeof(vegas_compact::flow_state) <= 32, "vegas_compact: per-flow state in 32 B");
static_assert(vegas_compact::state_bytes <= 32, "vegas_compact: per-flow state within 32 B");
static_assert(sizeof(vegas) <= 56 + 112, "vegas: 56 B of state + at most 112 B of configuration");
static_assert(sizeof(vegas_fixed) <= 56 + 112,
              "vegas_fixed: 56 B + at most 112 B of configuration");
static_assert(sizeof(vegas_compact) <= 32 + 112,
              "vegas_compact: 32 B + at most 112 B of configuration");

}  // namespace netcc
