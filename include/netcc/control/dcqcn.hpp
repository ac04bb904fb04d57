// SPDX-License-Identifier: MIT
/// @file
/// @brief DCQCN reaction point: current and target rates and alpha, a cut on every CNP, alpha
/// decay every K, and rate increases driven by a timer T and a byte counter B through fast
/// recovery, additive increase and hyper increase.
///
/// Sources
/// - Y. Zhu, H. Eran, D. Firestone, C. Guo, M. Lipshteyn, Y. Liron, J. Padhye, S. Raindel,
///   M. H. Yahia, M. Zhang, "Congestion Control for Large-Scale RDMA Deployments" (DCQCN),
///   ACM SIGCOMM 2015, §3.1, the RP algorithm: Eq. 1 (the reaction to a CNP), Eq. 2 (alpha
///   decay), Eq. 3 (fast recovery), Eq. 4 (additive increase), hyper increase and the timer /
///   byte-counter stages (text and the Figure 7 state machine), and its parameter values.
/// - The network-calculus seed (`seeds/003_7857f230e87c9d73.txt`, Lehal, Luangsomboon,
///   Liebeherr) §V: the bullet list of the sender's rules, Table I (the increase phase as a
///   function of the counters i_T, i_B) and Table II (parameters).
///
/// What is implemented, rule by rule
/// - On a CNP (DCQCN Eq. 1; seed §V first bullet): R_T = R_C; R_C cut (see "The rate cut");
///   alpha = (1 - g) alpha + g, computed after the cut with the old alpha; i_T = i_B = 0; the
///   byte counter, the rate timer and the alpha timer restart at the CNP.
/// - Alpha timer (DCQCN Eq. 2; seed §V second bullet): every K since the last CNP without a
///   CNP, alpha = (1 - g) alpha.
/// - Rate timer and byte counter (DCQCN §3.1; seed §V third bullet): every T without a CNP,
///   i_T += 1 and one increase event; every B bytes sent without a CNP, i_B += 1 and one
///   increase event. Each counter is incremented before its event is classified.
/// - Increase event, the seed's Table I exactly (F = 5), checked in this order:
///   | phase             | condition                | R_T                         | R_C         |
///   | ----------------- | ------------------------ | --------------------------- | ----------- |
///   | hyper increase    | min(i_T, i_B) >= F       | += (min(i_T, i_B) - F) R_HI | (R_T+R_C)/2 |
///   | additive increase | max >= F > min(i_T, i_B) | += R_AI (DCQCN Eq. 4)       | (R_T+R_C)/2 |
///   | fast recovery     | max(i_T, i_B) < F        | unchanged                   | (R_T+R_C)/2 |
///   (R_C = (R_T + R_C)/2 alone is DCQCN Eq. 3.)
///   So fast recovery lasts while both counters are below F: after a CNP, the F-th event of
///   either counter is the first additive increase. As written in Table I, the first
///   hyper-increase event (min = F) adds 0; netcc::dcqcn_hyper::from_one counts from 1.
/// - R_C and R_T stay in [min_rate, line_rate]; R_C <= R_T always.
///
/// Before the first CNP and the first CNP
/// - A flow starts at R_C = R_T = line rate with alpha = alpha_init = 1 (seed §V: "Initially,
///   R_T and R_C are set to the line rates, and alpha is set to 1"; DCQCN has no slow start).
///   Until the first CNP nothing runs: the alpha timer counts "since the last CNP arrival"
///   (seed §V), and increases are meaningless at line rate, so alpha stays 1, the counters stay
///   0 and sends are not counted. (A NIC likewise allocates the flow's rate limiter on its first
///   CNP.)
/// - The first CNP therefore always sees alpha = 1: R_T = line rate, R_C = line rate / 2
///   (half_alpha; min_rate with full_alpha), alpha = (1 - g) 1 + g = 1; it starts the timers
///   and the byte counter.
///
/// The rate cut (which formula)
/// - Default netcc::dcqcn_cut::half_alpha: R_C = R_C (1 - alpha/2), DCQCN Eq. 1 and what NICs
///   implement: a fully congested flow (alpha = 1) halves its rate, as DCTCP's window does.
/// - Option netcc::dcqcn_cut::full_alpha: R_C = (1 - alpha) R_C, as the seed's §V bullet writes
///   it; with alpha near 1 (always the case on the first CNPs) it sends the rate to min_rate,
///   which is why it is not the default. Offered for reproducing the seed's text.
///
/// Time
/// - Time comes with the calls, never from a clock. on_timer(now) runs every rate-timer and
///   alpha-timer expiry in (last time seen, now], as many periods as have passed when called
///   late; on_send(bytes, now) does the same and then counts the bytes; on_cnp runs the timers
///   up to the CNP's time first.
/// - A time earlier than the latest one seen (out of order) moves no timer: on_timer changes
///   nothing; on_send still counts its bytes (the byte counter does not depend on time); a CNP
///   is still taken, as if it arrived at the latest time seen (a congestion signal is not
///   dropped because of its stamp).
///
/// Defaults (netcc::dcqcn_params) and their sources
/// - g = 1/256, K = T = 55 us, B = 10 MB, R_AI = 5 Mbps, R_HI = 50 Mbps: seed Table II (from
///   the DCQCN paper's parameter choice and the NIC vendor's settings).
/// - F = 5: seed Table I and §V ("After 5 increments"), DCQCN §3.1.
/// - alpha_init = 1, initial R_C = R_T = line rate: seed §V, DCQCN §3.1.
/// - line_rate = 40 Gbps: the DCQCN paper's NICs and testbed, for which Table II's values were
///   chosen (the seed's §V case study runs the same parameters at 100 Gbps).
/// - min_rate = 1 Mbps: DCQCN gives no floor; 1 Mbps is the NIC default (rpg_min_rate) of the
///   hardware the paper's implementation runs on.
/// - target = every_cnp, hyper = table_i: DCQCN Eq. 1 and seed Table I.
///
/// Options that follow deployed variants (not the defaults)
/// - netcc::dcqcn_target::after_timer_increase: R_T = R_C on a CNP only if a rate-timer
///   increase happened since the previous CNP (NIC setting clamp_tgt_rate = 0 with
///   clamp_tgt_rate_after_time_inc = 1); a burst of CNPs then keeps the higher target.
/// - netcc::dcqcn_hyper::from_one: hyper increase adds (min(i_T, i_B) - F + 1) R_HI, so the
///   first hyper event adds R_HI (QCN-style counting, as in the DCQCN authors' simulator).
/// - Not modelled: the NIC's rate_reduce_monitor_period (at most one cut per 4 us) and its
///   timer-driven alpha update; the receiver's CNP spacing is netcc::dcqcn_np_on_packet.
///
/// Decisions and deviations
/// - Rates are kept in Mbps in the policy's number type (q32's 2^31 range then covers 2 Pbps
///   with 2^-32 Mbps resolution); rate() rounds to whole bps. R_C = (R_T + R_C)/2 is computed
///   as R_C + (R_T - R_C)/2, which cannot overflow.
/// - Alpha affects only cuts, so a call applies all alpha-timer periods up to its time at once,
///   alpha (1 - g)^n (square-and-multiply).
/// - One call runs at most netcc::dcqcn_max_expiries increase events one by one. When the
///   rates stop changing at the line rate, or after that many events, the remaining events
///   only advance the counters (exact in the first case; in the second, a stack that calls at
///   least every 4096 T and sends at most 4096 B per call loses nothing).
/// - Counters saturate at 2^32 - 1; B is at most 2^32 - 1 bytes (the remainder is 32 bits).
/// - Invalid parameters fall back to their defaults (the controller never fails).
/// - Configuration and per-flow state: netcc::basic_dcqcn::config (parameters and derived
///   rates, shared by the flows of a NIC or path class) runs the event logic on a
///   netcc::basic_dcqcn::flow_state (64 B in full width). netcc::dcqcn_compact keeps it in 32
///   B (rates on a 2^-12 Mbps grid, alpha in 2^-31, 56-bit clock with 24-bit timer offsets,
///   8-bit stage counters); its comment states the ranges and the bound against q32.
///
/// @code
/// using namespace netcc::literals;
/// netcc::dcqcn rp{{.line_rate = 40_Gbps}};
/// rp.on_cnp(netcc::cnp_event{.now = netcc::timestamp{10'000}});  // R_T = 40, R_C = 20 Gbps
/// rp.on_timer(netcc::timestamp{65'000});  // one T: fast recovery, R_C = (40 + 20)/2 = 30 Gbps
/// rp.on_send(1500_B, netcc::timestamp{66'000});  // feeds the byte counter
/// netcc::bit_rate r = rp.pacing_rate();
/// @endcode
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "netcc/control/controller_concepts.hpp"
#include "netcc/core/arith.hpp"
#include "netcc/core/detail/int128.hpp"
#include "netcc/core/feedback.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/validation.hpp"

namespace netcc {

/// @brief Which rate cut a CNP applies (see the file comment).
/// @code
/// netcc::dcqcn_params p{.cut = netcc::dcqcn_cut::full_alpha};  // the seed's text
/// @endcode
enum class dcqcn_cut : std::uint8_t {
  half_alpha,  ///< R_C = R_C (1 - alpha/2): DCQCN SIGCOMM'15 §3.1 Eq. 1 (default)
  full_alpha,  ///< R_C = (1 - alpha) R_C: the network-calculus seed's §V text
};

/// @brief When a CNP sets the target rate R_T to the current rate R_C.
/// @code
/// netcc::dcqcn_params p{.target = netcc::dcqcn_target::after_timer_increase};
/// @endcode
enum class dcqcn_target : std::uint8_t {
  every_cnp,             ///< on every CNP: DCQCN §3.1 Eq. 1, seed §V (default)
  after_timer_increase,  ///< only if a rate-timer increase happened since the previous CNP
};

/// @brief How the hyper-increase step counts (see the file comment).
/// @code
/// netcc::dcqcn_params p{.hyper = netcc::dcqcn_hyper::from_one};
/// @endcode
enum class dcqcn_hyper : std::uint8_t {
  table_i,   ///< R_T += (min(i_T, i_B) - F) R_HI: the seed's Table I (default)
  from_one,  ///< R_T += (min(i_T, i_B) - F + 1) R_HI: QCN-style, 1 R_HI at the first event
};

/// @brief Most increase events one on_timer / on_send / on_cnp call runs one by one.
inline constexpr std::uint32_t dcqcn_max_expiries = 4096;

/// @brief Largest byte counter B, in bytes (the per-flow remainder is 32 bits).
inline constexpr bytes dcqcn_max_byte_counter{0xFFFF'FFFF};

/// @brief Largest line rate (the q32 policy holds rates in Mbps below 2^31).
inline constexpr bit_rate dcqcn_max_line_rate{2'000'000'000'000'000};

/// @brief DCQCN reaction-point parameters: seed Table II, DCQCN SIGCOMM'15 where it is silent.
/// @code
/// using namespace netcc::literals;
/// netcc::dcqcn_params p{.line_rate = 100_Gbps, .byte_counter = 150_KB};
/// @endcode
struct dcqcn_params {
  /// @brief Line rate: the cap of both rates and the initial rate (DCQCN's NICs: 40 Gbps).
  bit_rate line_rate{40'000'000'000};
  /// @brief Smallest rate (no paper value; 1 Mbps, the NIC default rpg_min_rate).
  bit_rate min_rate{1'000'000};
  /// @brief g, alpha's gain, in (0, 1] (Table II: 1/256).
  double g = 1.0 / 256;
  /// @brief Initial alpha in [0, 1] (seed §V, DCQCN §3.1: 1).
  double alpha_init = 1.0;
  /// @brief K, the alpha timer (Table II: 55 us).
  duration alpha_timer{55'000};
  /// @brief T, the rate-increase timer (Table II: 55 us).
  duration rate_timer{55'000};
  /// @brief B, the byte counter (Table II: 10 MB), at most netcc::dcqcn_max_byte_counter.
  bytes byte_counter{10'000'000};
  /// @brief R_AI, the additive-increase step of R_T (Table II: 5 Mbps).
  bit_rate r_ai{5'000'000};
  /// @brief R_HI, the hyper-increase step of R_T (Table II: 50 Mbps).
  bit_rate r_hi{50'000'000};
  /// @brief F, the fast-recovery threshold of Table I (5).
  std::uint32_t f = 5;
  /// @brief The rate cut on a CNP (default: DCQCN's R_C (1 - alpha/2)).
  dcqcn_cut cut = dcqcn_cut::half_alpha;
  /// @brief When a CNP sets R_T = R_C (default: every CNP).
  dcqcn_target target = dcqcn_target::every_cnp;
  /// @brief Hyper-increase counting (default: Table I).
  dcqcn_hyper hyper = dcqcn_hyper::table_i;
};

/// @brief Check DCQCN parameters; each error names "dcqcn.<field>", the value and the rule.
/// @code
/// auto v = netcc::validate(netcc::dcqcn_params{.g = 2});
/// // v[0].message() == "dcqcn.g = 2: must be in (0, 1]"
/// @endcode
[[nodiscard]] inline validation validate(const dcqcn_params& p) {
  validation v;
  const bool line_ok = p.line_rate > bit_rate{0} && p.line_rate <= dcqcn_max_line_rate;
  v.check(line_ok, "dcqcn.line_rate", p.line_rate, "must be in (0, 2 Pbps]");
  // The rates below are checked against the line rate in force (the default if it is invalid).
  const bit_rate line = line_ok ? p.line_rate : dcqcn_params{}.line_rate;
  v.check(p.min_rate > bit_rate{0} && p.min_rate <= line, "dcqcn.min_rate", p.min_rate,
          "must be in (0, line_rate]");
  v.check(p.g > 0 && p.g <= 1, "dcqcn.g", p.g, "must be in (0, 1]");
  v.check(p.alpha_init >= 0 && p.alpha_init <= 1, "dcqcn.alpha_init", p.alpha_init,
          "must be in [0, 1]");
  v.check(p.alpha_timer > duration::zero(), "dcqcn.alpha_timer", p.alpha_timer, "must be positive");
  v.check(p.rate_timer > duration::zero(), "dcqcn.rate_timer", p.rate_timer, "must be positive");
  v.check(p.byte_counter > bytes{0} && p.byte_counter <= dcqcn_max_byte_counter,
          "dcqcn.byte_counter", p.byte_counter, "must be in [1, 4294967295] B");
  v.check(p.r_ai >= bit_rate{0} && p.r_ai <= line, "dcqcn.r_ai", p.r_ai,
          "must be in [0, line_rate]");
  v.check(p.r_hi >= bit_rate{0} && p.r_hi <= line, "dcqcn.r_hi", p.r_hi,
          "must be in [0, line_rate]");
  v.check(p.f >= 1, "dcqcn.f", p.f, "must be at least 1");
  v.check(p.cut == dcqcn_cut::half_alpha || p.cut == dcqcn_cut::full_alpha, "dcqcn.cut",
          static_cast<int>(p.cut), "must be half_alpha (0) or full_alpha (1)");
  v.check(p.target == dcqcn_target::every_cnp || p.target == dcqcn_target::after_timer_increase,
          "dcqcn.target", static_cast<int>(p.target),
          "must be every_cnp (0) or after_timer_increase (1)");
  v.check(p.hyper == dcqcn_hyper::table_i || p.hyper == dcqcn_hyper::from_one, "dcqcn.hyper",
          static_cast<int>(p.hyper), "must be table_i (0) or from_one (1)");
  return v;
}

/// @brief The increase phase the seed's Table I assigns to counter values (i_T, i_B).
/// @code
/// static_assert(netcc::dcqcn_phase_of(5, 2, 5) == netcc::dcqcn_phase::additive);
/// @endcode
enum class dcqcn_phase : std::uint8_t {
  fast_recovery,  ///< max(i_T, i_B) < F
  additive,       ///< max(i_T, i_B) >= F > min(i_T, i_B)
  hyper,          ///< min(i_T, i_B) >= F
};

/// @brief Table I's phase for counters `i_t`, `i_b` and threshold `f` (seed §V, Table I).
/// @code
/// auto ph = netcc::dcqcn_phase_of(4, 4, 5);   // fast_recovery
/// @endcode
[[nodiscard]] constexpr dcqcn_phase dcqcn_phase_of(std::uint32_t i_t, std::uint32_t i_b,
                                                   std::uint32_t f) noexcept {
  const std::uint32_t lo = i_t < i_b ? i_t : i_b;
  const std::uint32_t hi = i_t < i_b ? i_b : i_t;
  if (lo >= f) return dcqcn_phase::hyper;
  if (hi >= f) return dcqcn_phase::additive;
  return dcqcn_phase::fast_recovery;
}

/// @brief How many R_HI a hyper-increase event adds to R_T: min(i_T, i_B) - F (Table I), plus
/// one with netcc::dcqcn_hyper::from_one; 0 outside the hyper phase.
/// @code
/// static_assert(netcc::dcqcn_hyper_steps(7, 9, 5, netcc::dcqcn_hyper::table_i) == 2);
/// @endcode
[[nodiscard]] constexpr std::uint64_t dcqcn_hyper_steps(std::uint32_t i_t, std::uint32_t i_b,
                                                        std::uint32_t f, dcqcn_hyper h) noexcept {
  const std::uint32_t lo = i_t < i_b ? i_t : i_b;
  if (lo < f) return 0;
  return std::uint64_t{lo} - f + (h == dcqcn_hyper::from_one ? 1 : 0);
}

/// @brief Storage of basic_dcqcn's per-flow state: the policy's numbers, 64-bit times and
/// 32-bit counters (the default, exact).
/// @code
/// netcc::basic_dcqcn<netcc::arith::q32, netcc::dcqcn_state_full> rp;   // 64-B state
/// @endcode
struct dcqcn_state_full {};
/// @brief Storage of basic_dcqcn's per-flow state in 32 B (q32 only; netcc::dcqcn_compact
/// states the ranges).
/// @code
/// netcc::basic_dcqcn<netcc::arith::q32, netcc::dcqcn_state_compact> rp;   // = dcqcn_compact
/// @endcode
struct dcqcn_state_compact {};

/// @brief Largest line rate of the compact state (its rates are 32-bit counts of 2^-12 Mbps).
inline constexpr bit_rate dcqcn_compact_max_line_rate{1'000'000'000'000};
/// @brief Longest rate timer T and alpha timer K of the compact state (24-bit offsets, ns).
inline constexpr duration dcqcn_compact_max_timer{0xFF'FFFF};
/// @brief Where the compact state's stage counters i_T and i_B saturate.
inline constexpr std::uint32_t dcqcn_compact_max_count = 255;

/// @brief Check DCQCN parameters for the compact state (netcc::dcqcn_compact): every rule of
/// netcc::validate(const dcqcn_params&), and the compact ranges: line_rate at most 1 Tbps,
/// rate_timer and alpha_timer at most 2^24 - 1 ns, F at most 254, and (for the hyper step to
/// reach the line rate before the 8-bit counters saturate) r_hi = 0 or line_rate <= r_hi (255 -
/// F)(256 - F) / 2. A controller falls back to the defaults for the first three; the last
/// keeps the hyper step at (255 - F) R_HI once a counter saturates.
/// @code
/// auto v = netcc::validate(netcc::dcqcn_params{.rate_timer = netcc::duration{20'000'000}},
///                          netcc::dcqcn_state_compact{});
/// // v names dcqcn.rate_timer: "must be at most 16777215 ns in the compact state"
/// @endcode
[[nodiscard]] inline validation validate(const dcqcn_params& p, dcqcn_state_compact /*tag*/) {
  validation v = validate(p);
  v.check(p.line_rate <= dcqcn_compact_max_line_rate, "dcqcn.line_rate", p.line_rate,
          "must be at most 1 Tbps in the compact state");
  v.check(p.rate_timer <= dcqcn_compact_max_timer, "dcqcn.rate_timer", p.rate_timer,
          "must be at most 16777215 ns in the compact state");
  v.check(p.alpha_timer <= dcqcn_compact_max_timer, "dcqcn.alpha_timer", p.alpha_timer,
          "must be at most 16777215 ns in the compact state");
  v.check(p.f <= dcqcn_compact_max_count - 1, "dcqcn.f", p.f,
          "must be at most 254 in the compact state");
  if (p.f >= 1 && p.f < dcqcn_compact_max_count && p.r_hi > bit_rate{0}) {
    const std::uint64_t span =
        std::uint64_t{dcqcn_compact_max_count - p.f} * (dcqcn_compact_max_count + 1 - p.f) / 2;
    const double reach = static_cast<double>(p.r_hi.bps()) * static_cast<double>(span);
    v.check(static_cast<double>(p.line_rate.bps()) <= reach, "dcqcn.r_hi", p.r_hi,
            "must be 0 or at least 2 line_rate / ((255 - F)(256 - F)) in the compact state");
  }
  return v;
}

namespace detail {

// The per-flow state of basic_dcqcn in full width; also the working form the event logic runs
// on for the compact state.
template <class T>
struct dcqcn_full_state {
  T r_c{};                            // R_C, Mbps
  T r_t{};                            // R_T, Mbps
  T alpha{};                          // alpha
  timestamp last = timestamp::min();  // latest time seen
  timestamp next_rate{};              // next rate-timer expiry (max(): never)
  timestamp next_alpha{};             // next alpha-timer expiry (max(): never)
  std::uint32_t byte_acc = 0;         // bytes toward the next i_B increment
  std::uint32_t i_t = 0;              // i_T
  std::uint32_t i_b = 0;              // i_B
  std::uint32_t cnps = 0;             // CNPs taken; 0: timers not started
};

// The 32-B per-flow state of netcc::dcqcn_compact (see its comment for the ranges).
struct dcqcn_compact_state {
  static constexpr int rate_shift = 20;  // q32 raw Mbps (2^-32) to 2^-12 Mbps
  static constexpr std::int64_t no_time = -(std::int64_t{1} << 55);  // timestamp::min()
  static constexpr std::int64_t time_max = (std::int64_t{1} << 55) - 1;
  static constexpr std::uint64_t time_mask = (std::uint64_t{1} << 56) - 1;
  static constexpr std::uint64_t offset_mask = 0xFF'FFFF;

  // bits 0-55: the latest time in ns (signed; no_time: none yet); 56-63: CNPs (saturating)
  std::uint64_t clock = static_cast<std::uint64_t>(no_time) & time_mask;
  std::uint32_t r_c = 0;       // R_C in 2^-12 Mbps
  std::uint32_t r_t = 0;       // R_T in 2^-12 Mbps
  std::uint32_t alpha = 0;     // alpha in 2^-31
  std::uint32_t byte_acc = 0;  // bytes toward the next i_B increment
  // bits 0-23: next rate-timer expiry - latest time; 24-47: next alpha-timer expiry - latest
  // time (both 0 before the first CNP); 48-55: i_T; 56-63: i_B (both saturating at 255)
  std::uint64_t timers = 0;

  using work = dcqcn_full_state<arith::q32::value_type>;

  [[nodiscard]] constexpr work load() const noexcept {
    using T = arith::q32::value_type;
    work w;
    w.r_c = T::from_raw(static_cast<std::int64_t>(r_c) << rate_shift);
    w.r_t = T::from_raw(static_cast<std::int64_t>(r_t) << rate_shift);
    w.alpha = T::from_raw(static_cast<std::int64_t>(alpha) << 1);
    const std::int64_t t = static_cast<std::int64_t>(clock << 8) >> 8;  // sign-extend 56 bits
    w.last = t == no_time ? timestamp::min() : timestamp{t};
    w.cnps = static_cast<std::uint32_t>(clock >> 56);
    if (w.cnps == 0) {
      w.next_rate = w.next_alpha = timestamp::max();
    } else {
      w.next_rate = timestamp{t + static_cast<std::int64_t>(timers & offset_mask)};
      w.next_alpha = timestamp{t + static_cast<std::int64_t>((timers >> 24) & offset_mask)};
    }
    w.byte_acc = byte_acc;
    w.i_t = static_cast<std::uint32_t>((timers >> 48) & 0xFF);
    w.i_b = static_cast<std::uint32_t>(timers >> 56);
    return w;
  }

  [[nodiscard]] constexpr std::uint32_t cnp_count() const noexcept {
    return static_cast<std::uint32_t>(clock >> 56);
  }
  // The clock moved to `t` in place when that runs no timer (advance's rule on the stored
  // fields): true when done (or `t` is not after the latest time: nothing moves); false, with
  // nothing changed, when a timer falls due by `t` or `t` lies past the clock's range.
  constexpr bool move_clock(std::int64_t t) noexcept {
    const std::int64_t l = static_cast<std::int64_t>(clock << 8) >> 8;
    if (t <= l) return true;
    if (t > time_max) return false;
    if (cnp_count() != 0) {  // started: both expiries must stay after t
      const auto dt = static_cast<std::uint64_t>(t - l);
      if (dt >= (timers & offset_mask) || dt >= ((timers >> 24) & offset_mask)) return false;
      timers -= dt | (dt << 24);
    }
    clock = (static_cast<std::uint64_t>(t) & time_mask) | (clock & ~time_mask);
    return true;
  }

  static constexpr std::uint32_t narrow_rate(std::int64_t raw) noexcept {
    const std::int64_t r = raw > 0 ? raw : 0;
    const std::int64_t u = (r + (std::int64_t{1} << (rate_shift - 1))) >> rate_shift;
    return static_cast<std::uint32_t>(u < 0xFFFF'FFFF ? u : 0xFFFF'FFFF);
  }
  static constexpr std::uint64_t saturate(std::uint32_t v, std::uint32_t cap) noexcept {
    return v < cap ? v : cap;
  }
  static constexpr std::uint64_t offset(timestamp next, std::int64_t t) noexcept {
    const std::int64_t d = next.count() - t;  // in (0, T] within the ranges
    return static_cast<std::uint64_t>(d < 0 ? 0
                                            : (d > std::int64_t{offset_mask} ? offset_mask : d));
  }
  // Rates and alpha rounded to nearest; times within +-(2^55 - 1) ns, counters saturating.
  constexpr void store(const work& w) noexcept {
    r_c = narrow_rate(w.r_c.raw());
    r_t = narrow_rate(w.r_t.raw());
    const std::int64_t a = w.alpha.raw() > 0 ? w.alpha.raw() : 0;
    alpha = static_cast<std::uint32_t>((a + 1) >> 1);  // alpha <= 1: at most 2^31
    std::int64_t t = no_time;
    if (w.last != timestamp::min())
      t = w.last.count() < -time_max ? -time_max
                                     : (w.last.count() > time_max ? time_max : w.last.count());
    clock = (static_cast<std::uint64_t>(t) & time_mask) | (saturate(w.cnps, 255) << 56);
    byte_acc = w.byte_acc;
    const std::uint64_t offs =
        w.cnps == 0 ? 0 : offset(w.next_rate, t) | (offset(w.next_alpha, t) << 24);
    timers = offs | (saturate(w.i_t, dcqcn_compact_max_count) << 48) |
             (saturate(w.i_b, dcqcn_compact_max_count) << 56);
  }
};

template <class T, class S>
struct dcqcn_storage {
  using type = dcqcn_full_state<T>;
};
template <>
struct dcqcn_storage<arith::q32::value_type, dcqcn_state_compact> {
  using type = dcqcn_compact_state;
};

// x / 2 as the policy's x * 0.5 computes it: a rounding shift in fixed point (the same value,
// ties away from zero, without the 128-bit product a rate times 0.5 takes).
template <class T>
[[nodiscard]] constexpr T dcqcn_half(T x) noexcept {
  if constexpr (std::is_floating_point_v<T>) {
    return x * 0.5;
  } else {
    const std::int64_t r = x.raw();
    const std::uint64_t sign = r < 0 ? ~std::uint64_t{0} : 0;
    const std::uint64_t m = (static_cast<std::uint64_t>(r) ^ sign) - sign;
    const std::uint64_t q = (m >> 1) + (m & 1);
    return T::from_raw(static_cast<std::int64_t>((q ^ sign) - sign));
  }
}

// Products and differences of alpha-like numbers in [0, 1] and non-negative rates, with the
// range proof that lets fixed point drop the saturation and sign handling of the general
// operations (the same values bit for bit: the CompactEventIsTheQ32RuleOnItsUnpackedState and
// q32-against-double properties, and the state hashes over random traces, are unchanged).

// a * b for a >= 0 and b in [0, 1]: netcc::mul_nonneg's value. Fixed point: (a b + 2^(F-1)) >>
// F, at most a (b <= 1), so mul_nonneg's sign test and its saturation at raw_max never act
// here and are left out. Callers: the rate or alpha times a factor in [0, 1] (1 - alpha/2,
// 1 - alpha, 1 - g, (1 - g)^n) and g times 1 - alpha (alpha, g in [0, 1]: configure clamps g,
// every rule clamps alpha).
template <class T>
[[nodiscard]] constexpr T dcqcn_scale(T a, T b) noexcept {
  if constexpr (std::is_floating_point_v<T>) {
    return a * b;
  } else {
    constexpr int fb = T::fraction_bits;
    const auto q = static_cast<std::uint64_t>(
        (u128{static_cast<std::uint64_t>(a.raw())} * static_cast<std::uint64_t>(b.raw()) +
         (u128{1} << (fb - 1))) >>
        fb);
    return T::from_raw(static_cast<std::int64_t>(q));
  }
}

// 1 - x for x in [0, 1]: operator-'s value (fixed point: raw_one - x, in [0, raw_one], which
// cannot overflow, so the saturating subtraction's overflow test is left out).
template <class T>
[[nodiscard]] constexpr T dcqcn_one_minus(T x) noexcept {
  if constexpr (std::is_floating_point_v<T>) {
    return 1 - x;
  } else {
    return T::from_raw(T::raw_one - x.raw());
  }
}

// x / 2 for x >= 0: dcqcn_half's value (a rounding shift, ties up) without its sign handling.
template <class T>
[[nodiscard]] constexpr T dcqcn_half_nonneg(T x) noexcept {
  if constexpr (std::is_floating_point_v<T>) {
    return x * 0.5;
  } else {
    const auto m = static_cast<std::uint64_t>(x.raw());
    return T::from_raw(static_cast<std::int64_t>((m >> 1) + (m & 1)));
  }
}

}  // namespace detail

/// @brief The DCQCN reaction point (DCQCN SIGCOMM'15 §3.1; seed §V, Tables I and II) over
/// arithmetic policy `Policy`.
///
/// rate() is in [min_rate, line_rate], R_C <= R_T and alpha() in [0, 1] after any call
/// sequence; a CNP never raises R_C. No allocation, no virtual functions, no clock reads.
///
/// Configuration and per-flow state. The controller is a netcc::basic_dcqcn::config (the
/// parameters and the constants derived from them, shared by every flow of a NIC or path class)
/// and a netcc::basic_dcqcn::flow_state (what changes per flow); the event logic is written
/// once, as members of config taking the state (`cfg.on_cnp(st, e)`), and the controller
/// forwards to it. With `Storage` = netcc::dcqcn_state_full (the default) the state keeps the
/// policy's numbers and 64-bit times (64 B); with netcc::dcqcn_state_compact (q32 only,
/// netcc::dcqcn_compact) 32 B: an event leaves what unpacking it, running the q32 rule and
/// packing it would leave, bit for bit; the usual CNP, timer and byte-counter events convert only
/// the fields their rule reads or writes.
/// @tparam Policy netcc::arith::ieee_double or a fixed-point policy such as netcc::arith::q32
/// @tparam Storage netcc::dcqcn_state_full or (with q32) netcc::dcqcn_state_compact
/// @code
/// netcc::basic_dcqcn<netcc::arith::q32> rp{{}};
/// rp.on_cnp(netcc::cnp_event{.now = netcc::timestamp{0}});
/// rp.on_send(netcc::bytes{10'000'000}, netcc::timestamp{1000});  // i_B = 1: fast recovery
/// @endcode
template <ArithmeticPolicy Policy = arith::ieee_double, class Storage = dcqcn_state_full>
requires std::is_same_v<Storage, dcqcn_state_full> ||
    (std::is_same_v<Storage, dcqcn_state_compact>&&
         std::is_same_v<typename Policy::value_type, arith::q32::value_type>)class basic_dcqcn {
 public:
  /// @brief The number type of the rates (Mbps) and alpha.
  using value_type = typename Policy::value_type;
  /// @brief The parameter struct.
  using params_type = dcqcn_params;
  /// @brief Events consumed (netcc::controller_traits): CNPs, timer ticks (the alpha and rate
  /// timers) and sends (the byte counter).
  static constexpr event_set events = cc_event::cnp | cc_event::timer | cc_event::send;

  /// @brief Whether flow_state is the 32-B compact form (netcc::dcqcn_state_compact).
  static constexpr bool compact = std::is_same_v<Storage, dcqcn_state_compact>;
  /// @brief One flow's state (trivially copyable): R_C, R_T, alpha, the latest time, the next
  /// rate- and alpha-timer expiries, the byte remainder, i_T, i_B and the CNP count. Read it
  /// through config.
  using flow_state = typename detail::dcqcn_storage<value_type, Storage>::type;
  static_assert(std::is_trivially_copyable_v<flow_state>);

  /// @brief What a class of flows shares: the parameters (invalid fields fallen back) and the
  /// constants derived from them, with the event logic as members taking one flow's state.
  /// @code
  /// const netcc::dcqcn_compact::config cfg{{}};
  /// std::vector<netcc::dcqcn_compact::flow_state> flows(1000, cfg.initial_state());  // 32 kB
  /// cfg.on_cnp(flows[7], netcc::cnp_event{.now = netcc::timestamp{10'000}});
  /// netcc::bit_rate r = cfg.rate(flows[7]);  // 20 Gbps
  /// @endcode
  class config {
   public:
    /// @brief The configuration for parameters `p` (invalid fields fall back to defaults).
    constexpr explicit config(const dcqcn_params& p = {}) noexcept { configure(p); }

    /// @brief A new flow's state: R_C = R_T = line rate, alpha = alpha_init, timers not started.
    [[nodiscard]] constexpr flow_state initial_state() const noexcept {
      flow_state st{};
      init(st);
      return st;
    }
    /// @brief Reset `st` to a new flow's state.
    constexpr void init(flow_state& st) const noexcept {
      work s{};
      s.r_c = s.r_t = line_mbps_;  // seed §V: both start at the line rate
      s.alpha =
          clamp_num(num<value_type>(params_.alpha_init), num<value_type>(0), num<value_type>(1));
      s.next_rate = s.next_alpha = timestamp::max();  // not started before the first CNP
      put(st, s);
    }

    /// @brief basic_dcqcn::on_cnp for the flow of state `st`.
    template <class E>
    requires CnpFeedback<E>
    constexpr void on_cnp(flow_state& st, const E& e) const noexcept {
      if constexpr (compact) {
        const timestamp now = feedback_traits<E>::now(e);
        if (cnp_packed(st, now.count())) return;
        work s = st.load();
        handle_cnp(s, now);
        st.store(s);
      } else {
        handle_cnp(st, feedback_traits<E>::now(e));
      }
    }
    /// @brief basic_dcqcn::on_timer for the flow of state `st`.
    constexpr void on_timer(flow_state& st, timestamp now) const noexcept {
      if constexpr (compact) {
        if (st.move_clock(now.count())) return;      // no timer due: the clock alone moves
        if (timers_packed(st, now.count())) return;  // each timer due once
        work s = st.load();
        advance(s, now);
        st.store(s);
      } else {
        advance(st, now);
      }
    }
    /// @brief basic_dcqcn::on_send for the flow of state `st`.
    constexpr void on_send(flow_state& st, bytes b, timestamp now) const noexcept {
      if constexpr (compact) {
        // The usual packet: no timer due and no B completed; the clock and the remainder
        // move on the stored fields (handle_send's rules), the rest is not unpacked.
        const auto bc = static_cast<std::uint64_t>(params_.byte_counter.count());
        if (st.cnp_count() == 0 || b <= bytes{0}) {
          if (st.move_clock(now.count())) return;
        } else if (static_cast<std::uint64_t>(b.count()) < bc - st.byte_acc) {
          if (st.move_clock(now.count())) {
            st.byte_acc += static_cast<std::uint32_t>(b.count());
            return;
          }
        } else if (static_cast<std::uint64_t>(b.count()) - (bc - st.byte_acc) < bc) {
          // Exactly one B completed (handle_send's n = 1): one byte-counter increase event on
          // the stored rates and i_B, the remainder total - B.
          if (st.move_clock(now.count())) {
            const std::uint64_t total =
                std::uint64_t{st.byte_acc} + static_cast<std::uint64_t>(b.count());
            st.byte_acc = static_cast<std::uint32_t>(total - bc);  // < B <= 2^32 - 1
            increase_packed(st, false);
            return;
          }
        }
        work s = st.load();
        handle_send(s, b, now);
        st.store(s);
      } else {
        handle_send(st, b, now);
      }
    }

    /// @brief basic_dcqcn::rate of state `st`.
    [[nodiscard]] constexpr bit_rate rate(const flow_state& st) const noexcept {
      return to_rate(current_mbps(st));
    }
    /// @brief basic_dcqcn::target_rate of state `st`.
    [[nodiscard]] constexpr bit_rate target_rate(const flow_state& st) const noexcept {
      return to_rate(target_mbps(st));
    }
    /// @brief basic_dcqcn::current_mbps of state `st`.
    [[nodiscard]] constexpr value_type current_mbps(const flow_state& st) const noexcept {
      return get(st).r_c;
    }
    /// @brief basic_dcqcn::target_mbps of state `st`.
    [[nodiscard]] constexpr value_type target_mbps(const flow_state& st) const noexcept {
      return get(st).r_t;
    }
    /// @brief basic_dcqcn::alpha of state `st`.
    [[nodiscard]] constexpr value_type alpha(const flow_state& st) const noexcept {
      return get(st).alpha;
    }
    /// @brief basic_dcqcn::timer_count of state `st`.
    [[nodiscard]] constexpr std::uint32_t timer_count(const flow_state& st) const noexcept {
      return get(st).i_t;
    }
    /// @brief basic_dcqcn::byte_count of state `st`.
    [[nodiscard]] constexpr std::uint32_t byte_count(const flow_state& st) const noexcept {
      return get(st).i_b;
    }
    /// @brief basic_dcqcn::byte_remainder of state `st`.
    [[nodiscard]] constexpr bytes byte_remainder(const flow_state& st) const noexcept {
      return bytes{st.byte_acc};
    }
    /// @brief basic_dcqcn::phase of state `st`.
    [[nodiscard]] constexpr dcqcn_phase phase(const flow_state& st) const noexcept {
      const work s = get(st);
      return dcqcn_phase_of(s.i_t, s.i_b, params_.f);
    }
    /// @brief basic_dcqcn::cnps of state `st`.
    [[nodiscard]] constexpr std::uint32_t cnps(const flow_state& st) const noexcept {
      return get(st).cnps;
    }
    /// @brief basic_dcqcn::last_time of state `st`.
    [[nodiscard]] constexpr timestamp last_time(const flow_state& st) const noexcept {
      return get(st).last;
    }
    /// @brief The parameters in force (after invalid fields fell back).
    [[nodiscard]] constexpr const dcqcn_params& params() const noexcept { return params_; }

   private:
    using work = detail::dcqcn_full_state<value_type>;

    static constexpr work get(const flow_state& st) noexcept {
      if constexpr (compact) {
        return st.load();
      } else {
        return st;
      }
    }
    static constexpr void put(flow_state& st, const work& s) noexcept {
      if constexpr (compact) {
        st.store(s);
      } else {
        st = s;
      }
    }

    static constexpr value_type mbps(bit_rate r) noexcept {
      return ratio<value_type>(r.bps(), 1'000'000);
    }
    [[nodiscard]] constexpr bit_rate to_rate(value_type mb) const noexcept {
      const bit_rate r{static_cast<std::int64_t>(to_double(mb) * 1e6 + 0.5)};
      return r < params_.min_rate ? params_.min_rate
                                  : (r > params_.line_rate ? params_.line_rate : r);
    }
    [[nodiscard]] constexpr value_type clamp_rate(value_type r) const noexcept {
      return clamp_num(r, min_mbps_, line_mbps_);
    }

    constexpr void configure(dcqcn_params p) noexcept {
      const dcqcn_params d{};
      if (!(p.line_rate > bit_rate{0} && p.line_rate <= dcqcn_max_line_rate))
        p.line_rate = d.line_rate;
      if (!(p.min_rate > bit_rate{0} && p.min_rate <= p.line_rate))
        p.min_rate = d.min_rate <= p.line_rate ? d.min_rate : p.line_rate;
      if (!(p.g > 0 && p.g <= 1)) p.g = d.g;
      if (!(p.alpha_init >= 0 && p.alpha_init <= 1)) p.alpha_init = d.alpha_init;
      if (p.alpha_timer <= duration::zero()) p.alpha_timer = d.alpha_timer;
      if (p.rate_timer <= duration::zero()) p.rate_timer = d.rate_timer;
      if (!(p.byte_counter > bytes{0} && p.byte_counter <= dcqcn_max_byte_counter))
        p.byte_counter = d.byte_counter;
      if (!(p.r_ai >= bit_rate{0} && p.r_ai <= p.line_rate))
        p.r_ai = d.r_ai <= p.line_rate ? d.r_ai : p.line_rate;
      if (!(p.r_hi >= bit_rate{0} && p.r_hi <= p.line_rate))
        p.r_hi = d.r_hi <= p.line_rate ? d.r_hi : p.line_rate;
      if (p.f < 1) p.f = d.f;
      if (p.cut != dcqcn_cut::full_alpha) p.cut = dcqcn_cut::half_alpha;
      if (p.target != dcqcn_target::after_timer_increase) p.target = dcqcn_target::every_cnp;
      if (p.hyper != dcqcn_hyper::from_one) p.hyper = dcqcn_hyper::table_i;
      if constexpr (compact) {  // the compact ranges (netcc::validate with dcqcn_state_compact)
        if (p.line_rate > dcqcn_compact_max_line_rate) {
          p.line_rate = d.line_rate;
          if (p.min_rate > p.line_rate) p.min_rate = d.min_rate;
          if (p.r_ai > p.line_rate) p.r_ai = d.r_ai;
          if (p.r_hi > p.line_rate) p.r_hi = d.r_hi;
        }
        if (p.alpha_timer > dcqcn_compact_max_timer) p.alpha_timer = d.alpha_timer;
        if (p.rate_timer > dcqcn_compact_max_timer) p.rate_timer = d.rate_timer;
        if (p.f >= dcqcn_compact_max_count) p.f = d.f;
      }
      params_ = p;
      g_ = clamp_num(num<value_type>(p.g), num<value_type>(0), num<value_type>(1));
      // The bounds round toward the inside of [min_rate, line_rate] (netcc::ratio_up /
      // ratio_down), so R_C and R_T in Mbps never lie past them in q32; the floor wins if both
      // round past each other (min_rate == line_rate between two q32 values).
      line_mbps_ = ratio_down<value_type>(p.line_rate.bps(), 1'000'000);
      min_mbps_ = ratio_up<value_type>(p.min_rate.bps(), 1'000'000);
      ai_mbps_ = mbps(p.r_ai);
      hi_mbps_ = mbps(p.r_hi);
      if constexpr (compact) {
        // On the compact state's grid of 2^-12 Mbps (still inside the bounds), so a clamped
        // rate is stored exactly and a whole-grid step adds no rounding.
        constexpr std::int64_t unit = std::int64_t{1} << flow_state::rate_shift;
        line_mbps_ = value_type::from_raw(line_mbps_.raw() / unit * unit);
        min_mbps_ = value_type::from_raw((min_mbps_.raw() + unit - 1) / unit * unit);
        ai_mbps_ = value_type::from_raw(flow_state::narrow_rate(ai_mbps_.raw()) * unit);
        hi_mbps_ = value_type::from_raw(flow_state::narrow_rate(hi_mbps_.raw()) * unit);
      }
      if (line_mbps_ < min_mbps_) line_mbps_ = min_mbps_;
      no_steps_ = ai_mbps_ == num<value_type>(0) && hi_mbps_ == num<value_type>(0);
    }

    // The compact state's common events on its stored fields, without unpacking the rest:
    // each returns false, with nothing changed, outside its case (the caller then runs the rule
    // on the unpacked state). Each equals, bit for bit, st.load(), the rule, st.store() (the
    // CompactEventIsTheQ32RuleOnItsUnpackedState property): the fields a rule leaves alone
    // round-trip unchanged through load and store (a rate x 2^20 raw rounds back to x, an
    // alpha 2 a raw to a), so only the fields it reads or writes are converted here.

    // R_C, R_T, alpha, i_T, i_B and the CNP count of the compact state as the rules' working
    // form (the times and byte remainder, which these rules do not read, left at defaults).
    [[nodiscard]] static constexpr work rates_of(const flow_state& st) noexcept {
      using cs = detail::dcqcn_compact_state;
      work w;
      w.r_c = value_type::from_raw(static_cast<std::int64_t>(st.r_c) << cs::rate_shift);
      w.r_t = value_type::from_raw(static_cast<std::int64_t>(st.r_t) << cs::rate_shift);
      w.alpha = value_type::from_raw(static_cast<std::int64_t>(st.alpha) << 1);
      w.i_t = static_cast<std::uint32_t>((st.timers >> 48) & 0xFF);
      w.i_b = static_cast<std::uint32_t>(st.timers >> 56);
      w.cnps = st.cnp_count();
      return w;
    }
    // The rates and alpha back into the compact state, rounded as store() rounds them.
    static constexpr void put_rates(flow_state& st, const work& w) noexcept {
      using cs = detail::dcqcn_compact_state;
      st.r_c = cs::narrow_rate(w.r_c.raw());
      st.r_t = cs::narrow_rate(w.r_t.raw());
      const std::int64_t a = w.alpha.raw() > 0 ? w.alpha.raw() : 0;
      st.alpha = static_cast<std::uint32_t>((a + 1) >> 1);  // alpha <= 1: at most 2^31
    }

    // One increase event counted on i_T (`timer`) or i_B (run_increases with n = 1: the
    // counter, then the rule), the counters stored saturating at 255 as store() does. Always
    // inlined: out of line, g++ called it from on_send's one-stage path with the state behind
    // a pointer and `timer` unknown (a fifth of that path's instructions).
    [[gnu::always_inline]] constexpr void increase_packed(flow_state& st,
                                                          bool timer) const noexcept {
      work w = rates_of(st);
      if (timer) {
        ++w.i_t;  // at most 256 (the stored count saturates at 255)
      } else {
        ++w.i_b;
      }
      increase(w);
      put_rates(st, w);
      const std::uint64_t it = w.i_t < dcqcn_compact_max_count ? w.i_t : dcqcn_compact_max_count;
      const std::uint64_t ib = w.i_b < dcqcn_compact_max_count ? w.i_b : dcqcn_compact_max_count;
      st.timers = (st.timers & ((std::uint64_t{1} << 48) - 1)) | (it << 48) | (ib << 56);
    }

    // advance() when the timers have started, `t` lies after the latest time and within the
    // clock's range, and each timer falls due at most once by `t` (the usual timer call).
    constexpr bool timers_packed(flow_state& st, std::int64_t t) const noexcept {
      using cs = detail::dcqcn_compact_state;
      const std::int64_t l = static_cast<std::int64_t>(st.clock << 8) >> 8;
      if (st.cnp_count() == 0 || t <= l || t > cs::time_max) return false;
      // Both in [-(2^55 - 1), 2^55 - 1] (started: a CNP stored a time): dt in (0, 2^56).
      const auto dt = static_cast<std::uint64_t>(t - l);
      const std::uint64_t off_r = st.timers & cs::offset_mask;
      const std::uint64_t off_a = (st.timers >> 24) & cs::offset_mask;
      const auto t_r = static_cast<std::uint64_t>(params_.rate_timer.count());   // <= 2^24 - 1
      const auto t_a = static_cast<std::uint64_t>(params_.alpha_timer.count());  // <= 2^24 - 1
      // A timer due at l + off expires once by t when off <= dt < off + T (expiries()'s one
      // period); its next expiry, l + off + T, lies T - (dt - off) in (0, T] after t.
      const bool rate_due = dt >= off_r, alpha_due = dt >= off_a;
      if ((rate_due && dt - off_r >= t_r) || (alpha_due && dt - off_a >= t_a)) return false;
      const std::uint64_t new_r = rate_due ? t_r - (dt - off_r) : off_r - dt;
      const std::uint64_t new_a = alpha_due ? t_a - (dt - off_a) : off_a - dt;
      st.clock = (static_cast<std::uint64_t>(t) & cs::time_mask) | (st.clock & ~cs::time_mask);
      st.timers = (st.timers & ~((std::uint64_t{1} << 48) - 1)) | new_r | (new_a << 24);
      if (rate_due) increase_packed(st, true);
      if (alpha_due) {  // alpha = (1 - g) alpha: advance()'s single period
        work w = rates_of(st);
        w.alpha = clamp_num(detail::dcqcn_scale(w.alpha, detail::dcqcn_one_minus(g_)),
                            num<value_type>(0), num<value_type>(1));
        const std::int64_t a = w.alpha.raw() > 0 ? w.alpha.raw() : 0;
        st.alpha = static_cast<std::uint32_t>((a + 1) >> 1);
      }
      return true;
    }

    // handle_cnp when the timers have started and no timer falls due by the CNP's time (the
    // clock moves on the stored fields, move_clock's rule), then the cut on the stored rates.
    constexpr bool cnp_packed(flow_state& st, std::int64_t t) const noexcept {
      using cs = detail::dcqcn_compact_state;
      if (st.cnp_count() == 0 || !st.move_clock(t)) return false;
      // now = max(t, the latest time): the clock as move_clock left it, within its range.
      const std::int64_t now = static_cast<std::int64_t>(st.clock << 8) >> 8;
      work w = rates_of(st);
      cut(w, timestamp{now});
      put_rates(st, w);
      // cut(): i_T = i_B = 0, the byte remainder 0, both timers restarted T after now (T <=
      // 2^24 - 1 in the compact ranges), one more CNP (the stored count saturates at 255).
      const std::uint64_t c = st.cnp_count();
      const std::uint64_t cnps = c < 255 ? c + 1 : 255;
      st.clock = (st.clock & cs::time_mask) | (cnps << 56);
      st.byte_acc = 0;
      st.timers = static_cast<std::uint64_t>(params_.rate_timer.count()) |
                  (static_cast<std::uint64_t>(params_.alpha_timer.count()) << 24);
      return true;
    }

    constexpr void handle_cnp(work& s, timestamp now) const noexcept {
      if (now < s.last) now = s.last;
      advance(s, now);
      cut(s, now);
    }

    // The CNP's rule once the timers have run to `now` (DCQCN §3.1 Eq. 1; seed §V).
    constexpr void cut(work& s, timestamp now) const noexcept {
      const value_type one = num<value_type>(1);
      // Eq. 1: R_T = R_C (with after_timer_increase: only after a timer increase, or the
      // first).
      if (s.cnps == 0 || params_.target == dcqcn_target::every_cnp || s.i_t > 0) s.r_t = s.r_c;
      // Eq. 1: R_C = R_C (1 - alpha/2) (DCQCN), or R_C = (1 - alpha) R_C (the seed's text).
      const value_type factor = params_.cut == dcqcn_cut::half_alpha
                                    ? detail::dcqcn_one_minus(detail::dcqcn_half_nonneg(s.alpha))
                                    : detail::dcqcn_one_minus(s.alpha);
      s.r_c = clamp_rate(detail::dcqcn_scale(s.r_c, factor));
      if (s.r_c > s.r_t) s.r_c = s.r_t;  // rounding guard: a CNP never raises R_C above R_T
      // alpha = (1 - g) alpha + g, written alpha + g (1 - alpha) so it stays <= 1.
      s.alpha = clamp_num(s.alpha + detail::dcqcn_scale(g_, detail::dcqcn_one_minus(s.alpha)),
                          num<value_type>(0), one);
      s.i_t = s.i_b = 0;
      s.byte_acc = 0;
      s.next_alpha = after_one(now, params_.alpha_timer);
      s.next_rate = after_one(now, params_.rate_timer);
      if (s.cnps != 0xFFFF'FFFFu) ++s.cnps;
    }

    constexpr void handle_send(work& s, bytes b, timestamp now) const noexcept {
      advance(s, now);
      if (s.cnps == 0 || b <= bytes{0}) return;
      const std::uint64_t total = std::uint64_t{s.byte_acc} + static_cast<std::uint64_t>(b.count());
      const auto bc = static_cast<std::uint64_t>(params_.byte_counter.count());
      // total / B and total % B; no division for the usual sends (less than 2 B at once).
      std::uint64_t n = 0;
      std::uint64_t rem = total;
      if (total >= bc) {
        if (total - bc < bc) {
          n = 1;
          rem = total - bc;
        } else {
          n = total / bc;
          rem = total % bc;
        }
      }
      s.byte_acc = static_cast<std::uint32_t>(rem);  // < B <= 2^32 - 1
      if (n != 0) run_increases(s, s.i_b, n);
    }

    // One increase event (seed Table I; DCQCN §3.1 Eq. 3, 4 and hyper increase), with the
    // counters as they now are.
    constexpr void increase(work& s) const noexcept {
      switch (dcqcn_phase_of(s.i_t, s.i_b, params_.f)) {
        case dcqcn_phase::hyper: {  // R_T += (min(i_T, i_B) - F) R_HI
          const std::uint64_t k = dcqcn_hyper_steps(s.i_t, s.i_b, params_.f, params_.hyper);
          s.r_t = clamp_rate(s.r_t + hyper_step(k));
          break;
        }
        case dcqcn_phase::additive:  // R_T += R_AI
          s.r_t = clamp_rate(s.r_t + ai_mbps_);
          break;
        case dcqcn_phase::fast_recovery:  // R_T unchanged
          break;
      }
      // R_C = (R_T + R_C) / 2, as R_C + (R_T - R_C) / 2 (R_C <= R_T; no overflow).
      s.r_c = clamp_rate(s.r_c + detail::dcqcn_half(s.r_t - s.r_c));
      if (s.r_c > s.r_t) s.r_c = s.r_t;
    }

    // k R_HI for k up to 2^32 (saturated counters): as (k / 4) (4 R_HI) + (k mod 4) R_HI, so
    // no factor leaves the 2^31 integer range of netcc::arith::q32 (k itself would saturate
    // there and the step fall short of double's). 4 R_HI is exact (a power-of-two scale); it
    // saturates only when R_HI >= 2^29 Mbps, where k R_HI exceeds every line rate anyway.
    [[nodiscard]] constexpr value_type hyper_step(std::uint64_t k) const noexcept {
      using nt = number_traits<value_type>;
      if (k <= (std::uint64_t{1} << 30))
        return mul_nonneg(nt::from_int(static_cast<std::int64_t>(k)), hi_mbps_);
      const value_type four = hi_mbps_ * num<value_type>(4);
      return nt::from_int(static_cast<std::int64_t>(k >> 2)) * four +
             nt::from_int(static_cast<std::int64_t>(k & 3)) * hi_mbps_;
    }

    // `n` increase events, each incrementing `counter` (i_T or i_B of `s`) first. Once the
    // rates stop changing at the line rate (or with no increase steps at all) every further
    // event changes nothing but the counter; past dcqcn_max_expiries events the rest only
    // count.
    constexpr void run_increases(work& s, std::uint32_t& counter, std::uint64_t n) const noexcept {
      for (std::uint64_t k = 0; k < n; ++k) {
        if (k == dcqcn_max_expiries) {
          counter = sat_add(counter, n - k);
          return;
        }
        counter = sat_add(counter, 1);
        const value_type rc = s.r_c, rt = s.r_t;
        increase(s);
        if (s.r_c == rc && s.r_t == rt && (rt == line_mbps_ || no_steps_)) {
          counter = sat_add(counter, n - k - 1);
          return;
        }
      }
    }

    static constexpr std::uint32_t sat_add(std::uint32_t c, std::uint64_t n) noexcept {
      const std::uint64_t s = std::uint64_t{c} + (n > 0xFFFF'FFFFu ? 0xFFFF'FFFFu : n);
      return s > 0xFFFF'FFFFu ? 0xFFFF'FFFFu : static_cast<std::uint32_t>(s);
    }

    // t + n * d, saturating at timestamp::max() (a timer that would fire beyond the clock never
    // fires).
    static constexpr timestamp after(timestamp t, duration d, detail::i128 n) noexcept {
      return timestamp{detail::saturate_i64(detail::i128{t.count()} + detail::i128{d.count()} * n)};
    }

    // t + d for d > 0, saturating at timestamp::max() (after(t, d, 1) in 64 bits).
    static constexpr timestamp after_one(timestamp t, duration d) noexcept {
      return t.count() > INT64_MAX - d.count() ? timestamp::max()
                                               : timestamp{t.count() + d.count()};
    }

    // Expiries of a timer of period `d` due at `next` within (.., now]; moves `next` past
    // `now`.
    static constexpr std::uint64_t expiries(timestamp& next, duration d, timestamp now) noexcept {
      if (next > now || next == timestamp::max()) return 0;
      // One period, the usual case: the lateness now - next >= 0 in 64 bits when it fits (a
      // lateness beyond 2^63 - 1 ns is more than one period of d < 2^63).
      if (std::int64_t late64 = 0;
          !__builtin_sub_overflow(now.count(), next.count(), &late64) && late64 < d.count()) {
        next = after_one(next, d);
        return 1;
      }
      const detail::i128 late = detail::i128{now.count()} - next.count();
      // One period: no division; a lateness within 64 bits (always, unless the clock spans
      // more than 2^63 ns): a 64-bit division, the same quotient as the 128-bit one.
      const detail::i128 n =
          late < d.count()
              ? 1
              : (late <= INT64_MAX ? detail::i128{static_cast<std::int64_t>(late) / d.count()}
                                   : late / d.count()) +
                    1;
      next = after(next, d, n);
      return n > detail::i128{0xFFFF'FFFF'FFFF'FFFFu} ? 0xFFFF'FFFF'FFFF'FFFFu
                                                      : static_cast<std::uint64_t>(n);
    }

    // Every timer expiry in (latest time seen, now]: the rate timer's increase events in order,
    // and alpha = (1 - g)^n alpha for the n alpha-timer periods (DCQCN Eq. 2).
    constexpr void advance(work& s, timestamp now) const noexcept {
      if (now <= s.last) return;
      s.last = now;
      if (s.cnps == 0) return;  // timers start at the first CNP
      const std::uint64_t r = expiries(s.next_rate, params_.rate_timer, now);
      if (r == 1) {
        // One period, the usual case: run_increases(s, s.i_t, 1) without its loop (one event,
        // the counter first; the early exit it might take adds 0 to the counter).
        static_assert(dcqcn_max_expiries >= 1);
        s.i_t = sat_add(s.i_t, 1);
        increase(s);
      } else if (r != 0) {
        run_increases(s, s.i_t, r);
      }
      std::uint64_t n = expiries(s.next_alpha, params_.alpha_timer, now);
      if (n == 0) return;
      const value_type zero = num<value_type>(0);
      value_type base = num<value_type>(1) - g_;
      // (1 - g)^n by square-and-multiply (one period, the usual case, needs no loop).
      value_type factor = (n & 1) != 0 ? base : num<value_type>(1);
      for (n >>= 1; n > 0 && factor > zero; n >>= 1) {
        base = mul_nonneg(base, base);
        if (n & 1) factor = mul_nonneg(factor, base);
      }
      s.alpha = clamp_num(detail::dcqcn_scale(s.alpha, factor), zero, num<value_type>(1));
    }

    dcqcn_params params_{};
    value_type g_{};
    value_type line_mbps_{};
    value_type min_mbps_{};
    value_type ai_mbps_{};
    value_type hi_mbps_{};
    bool no_steps_ = false;
  };

  /// @brief A controller with parameters `p` (unchecked: invalid fields fall back to their
  /// defaults; netcc::make reports them instead).
  constexpr explicit basic_dcqcn(const dcqcn_params& p = {}) noexcept
      : cfg_(p), s_(cfg_.initial_state()) {}

  /// @brief A CNP arrived: the timers run up to its time, then R_T = R_C (per `target`),
  /// the cut, alpha = (1 - g) alpha + g, i_T = i_B = 0 and the timers and byte counter
  /// restart (DCQCN §3.1 Eq. 1; seed §V). A CNP stamped before the latest time seen is taken
  /// at that time.
  /// @tparam E any event type whose feedback_traits give `now` (netcc::CnpFeedback)
  template <class E>
  requires CnpFeedback<E>
  constexpr void on_cnp(const E& e) noexcept { cfg_.on_cnp(s_, e); }

  /// @brief Run every alpha-timer and rate-timer expiry up to `now` (several periods when
  /// called late; nothing when `now` is not after the latest time seen).
  constexpr void on_timer(timestamp now) noexcept { cfg_.on_timer(s_, now); }

  /// @brief `b` bytes were sent at `now`: the timers run up to `now`, then the byte counter
  /// counts the bytes (one i_B increment and one increase event per B bytes; DCQCN §3.1).
  /// Before the first CNP nothing is counted; a send stamped in the past still counts.
  constexpr void on_send(bytes b, timestamp now) noexcept { cfg_.on_send(s_, b, now); }

  /// @brief The current rate R_C, rounded to whole bps, in [min_rate, line_rate].
  [[nodiscard]] constexpr bit_rate rate() const noexcept { return cfg_.rate(s_); }
  /// @brief The pacing rate (= rate(); DCQCN is purely rate-based).
  [[nodiscard]] constexpr bit_rate pacing_rate() const noexcept { return rate(); }
  /// @brief The congestion window: bytes::max(), DCQCN is rate-based and has none (the
  /// netcc::Controller convention for "no window limit").
  [[nodiscard]] constexpr bytes cwnd() const noexcept { return bytes::max(); }
  /// @brief The target rate R_T, in [rate(), line_rate].
  [[nodiscard]] constexpr bit_rate target_rate() const noexcept { return cfg_.target_rate(s_); }
  /// @brief R_C in Mbps as the policy computes it.
  [[nodiscard]] constexpr value_type current_mbps() const noexcept { return cfg_.current_mbps(s_); }
  /// @brief R_T in Mbps as the policy computes it.
  [[nodiscard]] constexpr value_type target_mbps() const noexcept { return cfg_.target_mbps(s_); }
  /// @brief alpha, in [0, 1].
  [[nodiscard]] constexpr value_type alpha() const noexcept { return cfg_.alpha(s_); }
  /// @brief i_T, the rate-timer count since the last CNP (saturating at 2^32 - 1; 255 in the
  /// compact state).
  [[nodiscard]] constexpr std::uint32_t timer_count() const noexcept {
    return cfg_.timer_count(s_);
  }
  /// @brief i_B, the byte-counter count since the last CNP (saturating as timer_count()).
  [[nodiscard]] constexpr std::uint32_t byte_count() const noexcept { return cfg_.byte_count(s_); }
  /// @brief Bytes counted toward the next i_B increment (less than B).
  [[nodiscard]] constexpr bytes byte_remainder() const noexcept { return cfg_.byte_remainder(s_); }
  /// @brief Table I's phase for the current counters (the phase of the latest increase).
  [[nodiscard]] constexpr dcqcn_phase phase() const noexcept { return cfg_.phase(s_); }
  /// @brief CNPs taken (saturating at 2^32 - 1; 255 in the compact state); zero means the
  /// timers have not started.
  [[nodiscard]] constexpr std::uint32_t cnps() const noexcept { return cfg_.cnps(s_); }
  /// @brief The latest time seen (timestamp::min() before any call).
  [[nodiscard]] constexpr timestamp last_time() const noexcept { return cfg_.last_time(s_); }
  /// @brief The parameters in force (after invalid fields fell back).
  [[nodiscard]] constexpr dcqcn_params params() const noexcept { return cfg_.params(); }
  /// @brief The parameter check netcc::make applies: netcc::validate(p), and for the compact
  /// state also its ranges (netcc::validate with netcc::dcqcn_state_compact).
  [[nodiscard]] static validation validate(const dcqcn_params& p) {
    if constexpr (compact) {
      return netcc::validate(p, dcqcn_state_compact{});
    } else {
      return netcc::validate(p);
    }
  }
  /// @brief The configuration (shared part) of this controller.
  [[nodiscard]] constexpr const config& configuration() const noexcept { return cfg_; }
  /// @brief This controller's per-flow state.
  [[nodiscard]] constexpr const flow_state& state() const noexcept { return s_; }

  /// @brief Bytes of per-flow state, sizeof(flow_state): in full width R_C, R_T, alpha (3
  /// numbers), the latest time and the next rate- and alpha-timer expiries (3 timestamps), the
  /// byte remainder, i_T, i_B and the CNP count (4 x 32 bits), 64 B for double and q32; compact,
  /// 32 B (see netcc::dcqcn_compact). The parameters and the constants derived from them are
  /// configuration, shared by every flow of a NIC.
  static constexpr std::size_t state_bytes = sizeof(flow_state);

 private:
  config cfg_;
  flow_state s_;
};

/// @brief The DCQCN reaction point with double arithmetic.
using dcqcn = basic_dcqcn<>;
/// @brief The DCQCN reaction point in q32 with a 32-B per-flow state (the budget of ECN
/// controllers in fixed point). The arithmetic is q32's, run on the state unpacked in registers;
/// what is stored narrows as follows (netcc::validate with netcc::dcqcn_state_compact checks
/// the parameter ranges; a controller falls back to the defaults outside them):
/// - R_C and R_T: 32-bit counts of 2^-12 Mbps (244.140625 bps), rounded to nearest; line_rate
///   at most 1 Tbps. The bounds are rounded inward to that grid, and R_AI and R_HI to nearest
///   on it (exact for whole Mbps). Each cut and each halving step rounds by at most half a
///   grid unit; R_T copies R_C at a CNP, so the difference from the q32 controller can grow by
///   a few units per CNP (and by the rate times the alpha difference over two) until both
///   reach the line rate, where it is the bound's rounding again; the properties check
///   (CNPs + 2) (line_mbps 2^-30 / g + 2^-10) Mbps.
/// - alpha: 2^-31 units in 32 bits (rounded to nearest; within 2^-31 / g of q32's alpha).
/// - the latest time: 56-bit signed ns (+-2^55 ns, 417 days; clamped), the next timer expiries
///   as 24-bit offsets from it (rate_timer and alpha_timer at most 2^24 - 1 ns, 16.7 ms); the
///   byte remainder 32 bits (as before).
/// - i_T and i_B saturate at 255 (F at most 254): the phase is unchanged, the hyper step stays
///   (255 - F) R_HI once a counter would pass 255, which changes nothing while R_HI (255 - F)
///   (256 - F) / 2 >= line_rate (1.57 Tbps for Table II's values): R_T is at the line rate
///   by then. The CNP count saturates at 255 (only zero or not matters to the rules).
/// @code
/// netcc::dcqcn_compact rp;
/// rp.on_cnp(netcc::cnp_event{.now = netcc::timestamp{10'000}});   // R_C = 20 Gbps
/// static_assert(netcc::dcqcn_compact::state_bytes == 32);
/// @endcode
using dcqcn_compact = basic_dcqcn<arith::q32, dcqcn_state_compact>;

// Per-flow state budget (TARGETS.md: 32 B for ECN controllers in fixed point): dcqcn_compact's
// state is 32 B; the full width (double and q32) is 64 B (printed by bench/dcqcn.cpp). The whole
// object adds the parameters (72 B) and the derived constants (g and four rates, 48 B).
static_assert(dcqcn::state_bytes <= 64, "dcqcn: per-flow state within 64 B");
static_assert(basic_dcqcn<arith::q32>::state_bytes <= 64, "dcqcn q32: per-flow state within 64 B");
static_assert(sizeof(dcqcn_compact::flow_state) <= 32, "dcqcn_compact: per-flow state in 32 B");
static_assert(dcqcn_compact::state_bytes <= 32, "dcqcn_compact: per-flow state within 32 B");
static_assert(sizeof(dcqcn) <= 64 + 128, "dcqcn: 64 B state + at most 128 B configuration");
static_assert(sizeof(basic_dcqcn<arith::q32>) <= 64 + 128,
              "dcqcn q32: 64 B state + at most 128 B configuration");
static_assert(sizeof(dcqcn_compact) <= 32 + 128,
              "dcqcn_compact: 32 B state + at most 128 B configuration");

}  // namespace netcc
