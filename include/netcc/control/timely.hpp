// SPDX-License-Identifier: MIT
/// @file
/// @brief TIMELY: rate control from the gradient of NIC-timestamped RTTs, with a low and a
/// high RTT threshold, hyperactive increase, and the sender-side helpers a stack needs (the
/// §3.1 RTT, the §5 application-limited test and per-minimum-RTT update scaling).
///
/// Paper: Radhika Mittal, Vinh The Lam, Nandita Dukkipati, Emily Blem, Hassan Wassel, Monia
/// Ghobadi, Amin Vahdat, Yaogong Wang, David Wetherall, David Zats, "TIMELY: RTT-based
/// Congestion Control for the Datacenter", ACM SIGCOMM 2015.
///
/// What is implemented
/// - §3.1 RTT measurement: netcc::timely_rtt(), RTT = t_completion - t_send - seg. size / NIC
///   line rate (the equation of §3.1), so the RTT the law sees is independent of segment size.
/// - §3.2 / §4.3 rate computation engine, Algorithm 1, on every completion event:
///   - lines 1-3: new_rtt_diff = new_rtt - prev_rtt; prev_rtt = new_rtt;
///     rtt_diff = (1 - alpha) rtt_diff + alpha new_rtt_diff;
///   - line 4: normalized_gradient = rtt_diff / minRTT;
///   - lines 5-7: new_rtt < T_low: rate += delta;
///   - lines 8-10: new_rtt > T_high: rate *= 1 - beta (1 - T_high / new_rtt), on the
///     instantaneous RTT (§4.3 "we use the instantaneous rather than smoothed RTT");
///   - lines 11-12: normalized_gradient <= 0: rate += N delta, N = 5 in hyperactive increase
///     (HAI, §4.3) and 1 otherwise;
///   - lines 13-14: otherwise rate *= 1 - beta normalized_gradient.
/// - §5 "Application limited behavior": the rate increases (lines 5-7 and 11-12) only if the
///   application sends at more than 80% of the target rate; the target rate is capped at the
///   line rate ("we also cap the maximum target rate at 10 Gbps").
/// - §5 "Rate update frequency": the rate is updated on every completion, with each update
///   scaled by the fraction of a minimum RTT since the previous completion (below).
/// - §3.3 "As a safeguard, we limit the volume of outstanding data to a static worst-case
///   limit": timely_params::max_outstanding, reported by outstanding_limit() for the stack to
///   enforce (TIMELY is rate-based: there is no congestion window, and no cwnd()).
///
/// Decisions the paper leaves open (each tested in tests/control/timely_test.cpp)
/// - HAI counting: a completion whose normalised gradient is negative increments a counter,
///   any other completion (gradient zero or positive) resets it to 0; lines 11-12 use
///   N = hai_factor when the counter, this completion included, is at least hai_threshold. With
///   the defaults the 5th consecutive completion with a negative gradient is the first to add
///   5 delta ("N = 5 if gradient < 0 for five completion events", Algorithm 1), and the first
///   completion whose gradient is not negative ends HAI. The counter follows the gradient on
///   every completion, also those that take the T_low or T_high branch, since the gradient is
///   computed on all of them (lines 1-4 run before the thresholds).
/// - The first completion has no prev_rtt: its new_rtt_diff is 0 (no gradient yet), not
///   new_rtt - 0, which would read the whole RTT as one sudden rise.
/// - §5 scaling, stated as a rule: an update (the increase delta, N delta, or the decrease
///   beta (...) of lines 9 and 14) is multiplied by f = min(1, (t - t_prev) / minRTT), where t is
///   the completion time and t_prev that of the previous completion. With at most one
///   completion per minimum RTT (the paper's 64 KB segments at 10 Gbps) f = 1 and Algorithm 1
///   runs unchanged; k completions spread over one minimum RTT then add up to about one update
///   ("scale the updates by the number of completions per minimum RTT interval so that we do
///   not overweigh the new information", §5). The first completion has f = 1; a completion
///   stamped at or before the previous one has f = 0 (it still updates prev_rtt, rtt_diff and
///   the HAI counter, but moves no rate). netcc::timely_params::scale_updates = false runs
///   Algorithm 1 unscaled (f = 1 always).
/// - A decrease factor below zero (beta f g > 1 for a steep gradient, or 1 - T_high/RTT) sends
///   the rate to min_rate; the rate always stays in [min_rate, line_rate].
/// - Application-limited test (§5), two ways for a stack to drive it:
///   1. on_send(bytes, now) for every segment or packet sent: a meter measures the sending
///      rate over windows of at least send_rate_window (minRTT by default). A window closes at
///      the first send at least that long after it opened, as bytes / elapsed; at a completion
///      the rate is that of the open window if it is already that old (so a sender that went
///      quiet is seen as such), else of the last closed one. Until the first on_send, or while
///      no window has yet covered send_rate_window, the flow counts as backlogged.
///   2. on_rtt(e, send_rate) / on_ack(e, send_rate): the stack passes its own measurement.
///   An increase is applied only if send_rate > app_limit * rate (strictly more than 80%);
///   app_limit = 0 turns the rule off. A withheld increase still counts as an update (t_prev
///   moves; increase_held() reports it).
/// - Completion events. on_rtt(e) takes the event's RTT as the §3.1 RTT already (what
///   netcc::rtt_event documents; compute it with netcc::timely_rtt). on_ack(e) takes an ACK
///   whose RTT is a completion time, t_completion - t_send, and by default (ack_rtt =
///   netcc::timely_ack_rtt::completion_time) subtracts the serialisation of the acknowledged
///   bytes at line_rate through netcc::timely_rtt, counting at most one segment (`segment`
///   bytes): the sample is the RTT of the last segment acknowledged. netcc's testbench stamps
///   ack_event::rtt as ACK arrival minus the moment the data packet started serialising at
///   the sender's NIC, so it includes serialisation and the default applies; ack_rtt =
///   netcc::timely_ack_rtt::net uses the ACK's RTT as it is. An ACK that acknowledges no new
///   bytes is not a completion (§3.1: "A completion event is generated upon receiving an ACK
///   for a segment of data") and is ignored.
/// - An RTT of zero or below is no sample (netcc::ack_event uses 0 for "none"; timely_rtt()
///   returns 0 when the readings contradict the line rate) and changes nothing.
///
/// Defaults (netcc::timely_params) and their sources
/// - T_low = 50 us, T_high = 500 us, delta = 10 Mbps, beta = 0.8, 16 KB segments: §6 ("Unless
///   mentioned otherwise..."). 16 KB is taken as 16,000 B: §3.1's "serialization of 64 KB takes
///   51 us" at 10 Gbps is 64,000 B (65,536 B would take 52.4 us).
/// - HAI: N = 5 after five completions with a negative gradient: Algorithm 1, §6.1 ("a HAI
///   threshold of five successive RTTs").
/// - minRTT = 20 us, fixed, not tracked: §4.3 ("we use a fixed value representing the wire
///   propagation delay across the datacenter network, which is known ahead of time"), §5 ("with
///   a minimum RTT of 20 us"), §7 (TIMELY "does not rely on measuring the minimum RTT").
/// - alpha = 0.02: the paper names alpha ("EWMA weight parameter", Algorithm 1) but gives no
///   value. 0.02 is eRPC's (Kalia et al., NSDI 2019; src/cc/timely.h, kTimelyEwmaAlpha), whose
///   TIMELY states it follows the first author's published code snippet
///   (people.eecs.berkeley.edu/~radhika/timely-code-snippet.cc). It weighs a new difference by
///   1/50: the filter for the "overall trend in the rise and fall in the queue" of §4.3.
/// - line_rate = 10 Gbps: §5 (cap at 10 Gbps) and §6 ("All links are 10 Gbps"); the flow starts
///   at the line rate (initial_rate = 0 derives it; the paper gives no initial rate).
/// - app_limit = 0.8: §5. send_rate_window = minRTT: netcc (the paper does not say how the
///   application's rate is measured).
/// - min_rate = 10 Mbps: not in the paper (a positive floor keeps pacing defined; one delta).
/// - max_outstanding = 0 (no limit): §3.3 gives no value.
///
/// Fixed point without division: line 9's T_high / new_rtt goes through an integer reciprocal
/// (netcc/core/rsqrt.hpp, relative error below 2^-36: a rate error below 2^-36 of the rate);
/// the other per-completion quotients (line 4 by minRTT, the §5 scale, unit conversions, the
/// §3.1 serialisation) through reciprocals (netcc::detail::invariant_divisor, and 64-bit
/// multiplications for the §5 scale and the ns-to-us conversion of line 3), with the same
/// values as the fixed-point quotients. The send meter divides once per closed window. The
/// products of lines 3, 6, 9, 12 and 14 run on raw integers, each sign applied once and each
/// factor's known sign and range used (config::ewma, raised, lowered, gradient_cut): the same
/// values, bit for bit, as the number type's operators (the Q32RawProductsAreTheOperatorForms
/// BitForBit property holds them to a reference written with those operators).
///
/// Deviations: none in Algorithm 1. Rates are held in Mbps in the policy's number type (q32
/// then covers up to 2 Pbps with 2^-32 Mbps resolution) and rtt_diff in microseconds (q32: up
/// to 2^31 us, saturating beyond); rate() rounds to whole bps. Invalid parameters fall back to
/// their defaults (the controller never fails; netcc::validate() reports them).
/// - Branches in fixed point: lines 11-14 and the HAI counter test the sign of rtt_diff, which
///   is the sign of normalized_gradient (minRTT > 0), not of the quotient, which q32 rounds to 0
///   once |rtt_diff| < minRTT 2^-33 us and would then end HAI on a slowly decaying negative
///   difference while the paper's arithmetic keeps counting. A filter fed zero differences
///   keeps its sign (see update()), as exact arithmetic does. Double and q32 then take the
///   same line on every completion unless the two rtt_diff values straddle 0, which needs
///   |rtt_diff| within their rounding distance (below 1e-6 us for RTTs under 1 s; checked by
///   the DoubleAndQ32TakeTheSameLine property), or an RTT difference beyond q32's 2^31 us.
///
/// @code
/// using namespace netcc::literals;
/// netcc::timely cc{{.line_rate = 10_Gbps}};
/// // The stack timestamps a 16 KB segment's post and its NIC completion (§3.1).
/// cc.on_send(16_KB, netcc::timestamp{0});
/// const netcc::duration rtt =
///     netcc::timely_rtt(netcc::timestamp{80'000}, netcc::timestamp{0}, 16_KB, 10_Gbps);  // 67.2 us
/// cc.on_rtt(netcc::rtt_event{.now = netcc::timestamp{80'000}, .rtt = rtt, .acked = 16_KB});
/// netcc::bit_rate r = cc.pacing_rate();  // the gap between segments is segment / r
/// @endcode
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "netcc/control/controller_concepts.hpp"
#include "netcc/core/arith.hpp"
#include "netcc/core/detail/int128.hpp"
#include "netcc/core/divisor.hpp"
#include "netcc/core/feedback.hpp"
#include "netcc/core/rsqrt.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/validation.hpp"

namespace netcc {

namespace detail {

/// @brief (r k + 2^(F-1) - [r < 0]) >> F (arithmetic shift), truncated to 64 bits, for k in
/// [0, 2^F]: TIMELY's line 3 term (1 - alpha) rtt_diff in fixed point with F fraction bits (k
/// the raw 1 - alpha; basic_timely's ewma), the same bits as that 128-bit expression.
///
/// For F <= 32, on r's two parts r = r_h 2^F + r_l (r_h = r >> F, 0 <= r_l < 2^F):
/// floor((r k + a) / 2^F) = r_h k + floor((r_l k + a) / 2^F), as r_h k 2^F is a multiple of
/// 2^F. Both products are 64-bit: |r_h| <= 2^(63-F) and k <= 2^F give r_h k in [-2^63,
/// 2^63 - 2^F]; r_l k + a <= (2^F - 1) 2^F + 2^(F-1) < 2^64. The result, (r k + a) >> F with
/// r k in [-2^63 2^F, (2^63 - 1) 2^F] and a < 2^F, lies in [-2^63, 2^63 - 1], so r_h k plus
/// the nonnegative second term reaches it without overflow. As one 128-bit expression g++
/// passed the sign-extended addend through the stack (a store and a reload of each half on
/// rtt_diff's chain from one completion to the next); built from the product's 64-bit halves
/// it still stored and reloaded the high half. Beyond 32 fraction bits, the 128-bit expression.
/// @tparam F fraction bits, 1 .. 63
template <int F>
[[nodiscard, gnu::always_inline]] constexpr std::int64_t timely_keep_term(std::int64_t r,
                                                                          std::int64_t k) noexcept {
  static_assert(F >= 1 && F <= 63, "timely_keep_term: 1 .. 63 fraction bits");
  const std::uint64_t a = (std::uint64_t{1} << (F - 1)) - (r < 0 ? 1u : 0u);
  if constexpr (F <= 32) {
    const std::int64_t r_h = r >> F;  // arithmetic (C++20)
    const std::uint64_t r_l = static_cast<std::uint64_t>(r) & ((std::uint64_t{1} << F) - 1);
    const std::uint64_t low = (r_l * static_cast<std::uint64_t>(k) + a) >> F;  // < 2^F
    return r_h * k + static_cast<std::int64_t>(low);
  } else {
    return static_cast<std::int64_t>((i128{r} * k + static_cast<i128>(a)) >> F);
  }
}

}  // namespace detail

/// @brief TIMELY's RTT (§3.1): completion time minus send time minus the serialisation of the
/// segment at the NIC line rate,
/// \f$ RTT = t_{completion} - t_{send} - \mathit{seg.size} / \mathit{line\_rate} \f$.
///
/// The serialisation is rounded up to the nanosecond (netcc::bytes / netcc::bit_rate). A
/// segment or line rate of zero or below subtracts nothing. The result is clamped to
/// [0, duration::max()]: a completion earlier than the send plus serialisation (inconsistent
/// readings) gives 0, which the controller treats as no sample.
/// @param completion the NIC's completion timestamp of the segment (t_completion)
/// @param send       the NIC time read just before posting the segment (t_send)
/// @param segment    the segment's size in bytes
/// @param line_rate  the NIC line rate (or the NIC pacing rate, §6 "we subtract the
///                   serialization delay introduced by NIC pacers")
/// @code
/// using namespace netcc::literals;
/// // 64 KB (64,000 B) at 10 Gbps serialise in 51.2 us (§3.1); 80 us after the post:
/// auto rtt = netcc::timely_rtt(netcc::timestamp{80'000}, netcc::timestamp{0}, 64_KB, 10_Gbps);
/// // rtt == 28.8 us
/// @endcode
[[nodiscard]] constexpr duration timely_rtt(timestamp completion, timestamp send, bytes segment,
                                            bit_rate line_rate) noexcept {
  detail::i128 t = detail::i128{completion.count()} - send.count();
  if (segment > bytes::zero() && line_rate > bit_rate::zero())
    t -= detail::i128{(segment / line_rate).count()};
  return t <= 0 ? duration::zero() : duration{detail::saturate_i64(t)};
}

/// @brief TIMELY's RTT (§3.1) from a completion time already taken as t_completion - t_send.
/// @code
/// using namespace netcc::literals;
/// auto rtt = netcc::timely_rtt(netcc::duration{30'000}, 16_KB, 10_Gbps);  // 30 - 12.8 us
/// @endcode
[[nodiscard]] constexpr duration timely_rtt(duration completion_time, bytes segment,
                                            bit_rate line_rate) noexcept {
  return timely_rtt(timestamp{completion_time.count()}, timestamp{0}, segment, line_rate);
}

/// @brief What the RTT of an ACK given to basic_timely::on_ack is.
/// @code
/// netcc::timely_params p{.ack_rtt = netcc::timely_ack_rtt::net};
/// @endcode
enum class timely_ack_rtt : std::uint8_t {
  completion_time,  ///< t_completion - t_send: on_ack subtracts the serialisation (§3.1; default)
  net,              ///< already the §3.1 RTT: used as it is
};

/// @brief Which line of Algorithm 1 the latest completion ran.
/// @code
/// if (cc.last_action() == netcc::timely_action::increase_hai) { /* 5 delta */ }
/// @endcode
enum class timely_action : std::uint8_t {
  none,               ///< no completion yet
  increase_low,       ///< lines 5-7: new_rtt < T_low, rate += delta
  decrease_high,      ///< lines 8-10: new_rtt > T_high, rate *= 1 - beta (1 - T_high/new_rtt)
  increase,           ///< lines 11-12 with N = 1: rate += delta
  increase_hai,       ///< lines 11-12 in HAI: rate += N delta
  decrease_gradient,  ///< lines 13-14: rate *= 1 - beta normalized_gradient
};

/// @brief Largest line rate (the q32 policy holds rates in Mbps below 2^31).
inline constexpr bit_rate timely_max_line_rate{2'000'000'000'000'000};

/// @brief Largest hai_threshold and hai_factor accepted.
inline constexpr std::uint32_t timely_max_hai = 1'000'000;

/// @brief TIMELY parameters, with the defaults of §6 (see the file comment for each source).
/// Zero in `initial_rate` and `send_rate_window` means "derive it" (line_rate, min_rtt).
/// @code
/// using namespace netcc::literals;
/// netcc::timely_params p{.t_low = 50_us, .t_high = 500_us, .line_rate = 40_Gbps};
/// @endcode
struct timely_params {
  /// @brief T_low: below it, additive increase whatever the gradient (§6: 50 us; 0 disables).
  duration t_low{50'000};
  /// @brief T_high: above it, multiplicative decrease on the instantaneous RTT (§6: 500 us).
  duration t_high{500'000};
  /// @brief delta, the additive increment step (§6: 10 Mbps).
  bit_rate delta{10'000'000};
  /// @brief beta, the multiplicative decrement factor in (0, 1] (§6: 0.8).
  double beta = 0.8;
  /// @brief alpha, the EWMA weight of a new RTT difference in (0, 1] (Algorithm 1; no value
  /// in the paper: 0.02, eRPC's, after the first author's published code snippet).
  double alpha = 0.02;
  /// @brief Completions with a negative gradient, this one included, that engage HAI
  /// (Algorithm 1, §6.1: 5).
  std::uint32_t hai_threshold = 5;
  /// @brief N, the HAI multiplier of delta (Algorithm 1: 5).
  std::uint32_t hai_factor = 5;
  /// @brief minRTT: normalises the gradient (line 4) and scales updates (§5); fixed (§4.3;
  /// §5: 20 us).
  duration min_rtt{20'000};
  /// @brief Segment size of the rate control engine (§3.3; §6: 16 KB); on_ack subtracts the
  /// serialisation of at most one segment.
  bytes segment{16'000};
  /// @brief NIC line rate: the §3.1 serialisation and the rate cap (§5, §6: 10 Gbps).
  bit_rate line_rate{10'000'000'000};
  /// @brief Smallest rate (not in the paper: 10 Mbps).
  bit_rate min_rate{10'000'000};
  /// @brief Rate before the first completion; 0 means line_rate (not in the paper).
  bit_rate initial_rate{0};
  /// @brief Increase only if the sending rate exceeds this fraction of the rate (§5: 0.8;
  /// 0 turns the rule off).
  double app_limit = 0.8;
  /// @brief Shortest window of the on_send meter; 0 means min_rtt (netcc).
  duration send_rate_window{0};
  /// @brief Scale each update by min(1, time since the previous completion / minRTT) (§5).
  bool scale_updates = true;
  /// @brief What on_ack's RTT is (default: a completion time; serialisation is subtracted).
  timely_ack_rtt ack_rtt = timely_ack_rtt::completion_time;
  /// @brief Static limit on outstanding data for the stack to enforce (§3.3; 0: none).
  bytes max_outstanding{0};
};

/// @brief Check TIMELY parameters; each error names "timely.<field>", the value and the rule.
/// @code
/// auto v = netcc::validate(netcc::timely_params{.beta = 1.5});
/// // v[0].message() == "timely.beta = 1.5: must be in (0, 1]"
/// @endcode
[[nodiscard]] inline validation validate(const timely_params& p) {
  validation v;
  const bool line_ok = p.line_rate > bit_rate::zero() && p.line_rate <= timely_max_line_rate;
  v.check(line_ok, "timely.line_rate", p.line_rate, "must be in (0, 2 Pbps]");
  // Rates below are checked against the line rate in force (the default if it is invalid).
  const bit_rate line = line_ok ? p.line_rate : timely_params{}.line_rate;
  v.check(p.t_low >= duration::zero(), "timely.t_low", p.t_low, "must be non-negative");
  v.check(p.t_high > duration::zero(), "timely.t_high", p.t_high, "must be positive");
  v.check(p.t_high >= p.t_low, "timely.t_high", p.t_high, "must be at least t_low");
  v.check(p.delta >= bit_rate::zero() && p.delta <= line, "timely.delta", p.delta,
          "must be in [0, line_rate]");
  v.check(p.beta > 0 && p.beta <= 1, "timely.beta", p.beta, "must be in (0, 1]");
  v.check(p.alpha > 0 && p.alpha <= 1, "timely.alpha", p.alpha, "must be in (0, 1]");
  v.check(p.hai_threshold >= 1 && p.hai_threshold <= timely_max_hai, "timely.hai_threshold",
          p.hai_threshold, "must be in [1, 1000000]");
  v.check(p.hai_factor >= 1 && p.hai_factor <= timely_max_hai, "timely.hai_factor", p.hai_factor,
          "must be in [1, 1000000]");
  v.check(p.min_rtt > duration::zero(), "timely.min_rtt", p.min_rtt, "must be positive");
  v.check(p.segment > bytes::zero(), "timely.segment", p.segment, "must be positive");
  v.check(p.min_rate > bit_rate::zero() && p.min_rate <= line, "timely.min_rate", p.min_rate,
          "must be in (0, line_rate]");
  v.check(p.initial_rate >= bit_rate::zero() && p.initial_rate <= line, "timely.initial_rate",
          p.initial_rate, "must be in [0, line_rate] (0 means line_rate)");
  v.check(p.app_limit >= 0 && p.app_limit <= 1, "timely.app_limit", p.app_limit,
          "must be in [0, 1] (0 turns the rule off)");
  v.check(p.send_rate_window >= duration::zero(), "timely.send_rate_window", p.send_rate_window,
          "must be non-negative (0 means min_rtt)");
  v.check(p.ack_rtt == timely_ack_rtt::completion_time || p.ack_rtt == timely_ack_rtt::net,
          "timely.ack_rtt", static_cast<int>(p.ack_rtt), "must be completion_time (0) or net (1)");
  v.check(p.max_outstanding >= bytes::zero(), "timely.max_outstanding", p.max_outstanding,
          "must be non-negative (0 means no limit)");
  return v;
}

class timely_compact;

/// @brief TIMELY (SIGCOMM'15 Algorithm 1 with the §5 rules) over arithmetic policy `Policy`.
///
/// Per completion (on_rtt, on_ack): lines 1-4 (RTT difference, EWMA, normalised gradient),
/// the HAI counter, the §5 scale f, then one of lines 5-7, 8-10, 11-12, 13-14; increases only
/// when the application is not limited (§5). rate() and pacing_rate() are finite and in
/// [min_rate, line_rate] after any event sequence; an RTT above T_high never raises the rate
/// and one below T_low never lowers it. No allocation, no virtual functions, no clock reads;
/// the per-flow state is state_bytes (64 B) next to the parameters.
/// @tparam Policy netcc::arith::ieee_double or a fixed-point policy such as netcc::arith::q32
/// @code
/// using namespace netcc::literals;
/// netcc::basic_timely<netcc::arith::q32> cc{{.line_rate = 25_Gbps, .min_rtt = 10_us}};
/// cc.on_ack(netcc::ack_event{.now = netcc::timestamp{40'000}, .ack_seq = 16'000,
///                            .acked = 16_KB, .rtt = 40_us});   // 40 - 5.12 us of serialisation
/// auto r = cc.rate();
/// @endcode
template <ArithmeticPolicy Policy = arith::ieee_double>
class basic_timely {
 public:
  /// @brief The number type of the rate (Mbps), rtt_diff (us) and the gradient.
  using value_type = typename Policy::value_type;
  /// @brief The parameter struct.
  using params_type = timely_params;

  /// @brief A controller with parameters `p` (invalid fields fall back to their defaults).
  /// @brief Events consumed (netcc::controller_traits): ACKs that complete a segment (with
  /// their RTT) and sends (the §5 rate meter). on_rtt(e), the paper's completion event with an
  /// RTT already net of serialisation, is the alternative for stacks that compute that RTT.
  static constexpr event_set events = cc_event::ack | cc_event::send;

  /// @brief One flow's state (trivially copyable): the rate, rtt_diff, the meter's last rate,
  /// prev_rtt, the previous completion, the meter's window, the HAI counter, the last action
  /// and flags; everything else is config, shared by a class of flows. Read and change it
  /// through config.
  struct flow_state {
    value_type rate{};                           ///< Mbps
    value_type rtt_diff{};                       ///< us (Algorithm 1 line 3)
    value_type sent{};                           ///< Mbps, the meter's last closed window
    duration prev_rtt{};                         ///< prev_rtt (line 2)
    timestamp last{};                            ///< time of the previous completion (§5 scaling)
    timestamp meter_start{};                     ///< opening of the meter's current window
    std::int64_t meter_bytes = 0;                ///< bytes sent in the current window
    std::uint32_t neg = 0;                       ///< consecutive negative gradients (HAI)
    timely_action action = timely_action::none;  ///< the latest rule (last_action)
    std::uint8_t flags = 0;  ///< have_prev, have_last, meter_on, sent_known, held
  };
  static_assert(std::is_trivially_copyable_v<flow_state>);

  /// @brief What a class of flows shares: the parameters (invalid fields fallen back) and the
  /// numbers derived from them (reciprocals of minRTT and the line rate, a segment's
  /// serialisation), with Algorithm 1 and the §5 rules as members taking one flow's state.
  /// @code
  /// const netcc::basic_timely<netcc::arith::q32>::config cfg{{.line_rate = netcc::bit_rate{
  ///                                                               25'000'000'000}}};
  /// std::vector<netcc::basic_timely<netcc::arith::q32>::flow_state> flows(
  ///     1000, cfg.initial_state());
  /// cfg.on_rtt(flows[7], netcc::rtt_event{.now = netcc::timestamp{40'000},
  ///                                       .rtt = netcc::duration{30'000}});
  /// netcc::bit_rate r = cfg.rate(flows[7]);
  /// @endcode
  class config {
   public:
    /// @brief The configuration for parameters `p` (unchecked: invalid fields fall back to
    /// their defaults; netcc::validate reports them).
    constexpr explicit config(const timely_params& p = {}) noexcept { configure(p); }

    /// @brief A new flow's state: the initial rate (line_rate unless initial_rate is set), no
    /// RTT sample, no completion, the meter off.
    [[nodiscard]] constexpr flow_state initial_state() const noexcept {
      flow_state st{};
      init(st);
      return st;
    }
    /// @brief Reset `st` to a new flow's state.
    constexpr void init(flow_state& st) const noexcept {
      st = flow_state{};
      const bit_rate r0 =
          params_.initial_rate > bit_rate::zero() ? params_.initial_rate : params_.line_rate;
      st.rate = clamp_num(mbps(r0), min_, line_);
    }

    /// @brief A completion event whose RTT is the §3.1 RTT (net of serialisation): Algorithm 1
    /// with the §5 rules, the application's rate taken from the on_send meter. An RTT of zero or
    /// below is ignored.
    /// @tparam E any event type whose feedback_traits give `now` and `rtt` (netcc::RttFeedback)
    template <class E>
    requires RttFeedback<E>
    constexpr void on_rtt(flow_state& st, const E& e) const noexcept {
      using ft = feedback_traits<E>;
      const timestamp now = ft::now(e);
      const duration rtt = ft::rtt(e);
      if (rtt <= duration::zero()) return;
      update(st, now, rtt, meter_allows(st, now));
    }

    /// @brief As on_rtt(e), with the application's sending rate measured by the stack (§5):
    /// increases apply only if `send_rate` > app_limit * rate(st).
    template <class E>
    requires RttFeedback<E>
    constexpr void on_rtt(flow_state& st, const E& e, bit_rate send_rate) const noexcept {
      using ft = feedback_traits<E>;
      const duration rtt = ft::rtt(e);
      if (rtt <= duration::zero()) return;
      update(st, ft::now(e), rtt, rate_allows(st, send_rate));
    }

    /// @brief An ACK completing a segment: its RTT is a completion time (t_completion - t_send)
    /// and the serialisation of min(acked bytes, segment) at line_rate is subtracted (§3.1), unless
    /// ack_rtt = timely_ack_rtt::net; then as on_rtt. An ACK with no RTT (zero) or no newly
    /// acknowledged bytes is not a completion and is ignored.
    /// @tparam E an ACK type with an RTT sample (netcc::AckFeedback and netcc::RttFeedback)
    template <class E>
    requires(AckFeedback<E>&& RttFeedback<E>) constexpr void on_ack(flow_state& st,
                                                                    const E& e) const noexcept {
      using ft = feedback_traits<E>;
      const duration rtt = ack_rtt(ft::rtt(e), ft::acked_bytes(e));
      if (rtt <= duration::zero()) return;
      const timestamp now = ft::now(e);
      update(st, now, rtt, meter_allows(st, now));
    }

    /// @brief As on_ack(e), with the application's sending rate measured by the stack (§5).
    template <class E>
    requires(AckFeedback<E>&& RttFeedback<E>) constexpr void on_ack(
        flow_state& st, const E& e, bit_rate send_rate) const noexcept {
      using ft = feedback_traits<E>;
      const duration rtt = ack_rtt(ft::rtt(e), ft::acked_bytes(e));
      if (rtt <= duration::zero()) return;
      update(st, ft::now(e), rtt, rate_allows(st, send_rate));
    }

    /// @brief `b` bytes were sent at `now`: the §5 send-rate meter (see the file comment). A
    /// window closes at the first send at least send_rate_window after it opened; negative byte
    /// counts count as zero; a send stamped before the window opened counts in it.
    constexpr void on_send(flow_state& st, bytes b, timestamp now) const noexcept {
      const std::int64_t n = b > bytes::zero() ? b.count() : 0;
      if ((st.flags & meter_on) == 0) {
        st.flags |= meter_on;
        st.meter_start = now;
        st.meter_bytes = n;
        return;
      }
      if (now > st.meter_start) {
        const duration elapsed = since(st.meter_start, now);
        if (elapsed >= window_) {
          st.sent = mbps(rate_of(st.meter_bytes, elapsed));
          st.flags |= sent_known;
          st.meter_start = now;
          st.meter_bytes = n;
          return;
        }
      }
      st.meter_bytes = n > std::numeric_limits<std::int64_t>::max() - st.meter_bytes
                           ? std::numeric_limits<std::int64_t>::max()
                           : st.meter_bytes + n;
    }

    /// @brief The target rate, rounded to whole bps, in [min_rate, line_rate].
    [[nodiscard]] constexpr bit_rate rate(const flow_state& st) const noexcept {
      const bit_rate r{static_cast<std::int64_t>(to_double(st.rate) * 1e6 + 0.5)};
      return r < params_.min_rate ? params_.min_rate
                                  : (r > params_.line_rate ? params_.line_rate : r);
    }
    /// @brief The pacing rate (= rate(st); TIMELY is rate-based, §3.3).
    [[nodiscard]] constexpr bit_rate pacing_rate(const flow_state& st) const noexcept {
      return rate(st);
    }
    /// @brief The congestion window: bytes::max(), TIMELY is rate-based and has none (the
    /// netcc::Controller convention for "no window limit").
    [[nodiscard]] constexpr bytes cwnd() const noexcept { return bytes::max(); }
    /// @brief The rate in Mbps as the policy computes it.
    [[nodiscard]] constexpr value_type rate_mbps(const flow_state& st) const noexcept {
      return st.rate;
    }
    /// @brief rtt_diff, the EWMA of consecutive RTT differences, in microseconds (line 3).
    [[nodiscard]] constexpr value_type rtt_diff_us(const flow_state& st) const noexcept {
      return st.rtt_diff;
    }
    /// @brief normalized_gradient = rtt_diff / minRTT (line 4), dimensionless.
    [[nodiscard]] constexpr value_type gradient(const flow_state& st) const noexcept {
      return gradient_of(st.rtt_diff);
    }
    /// @brief prev_rtt, the latest RTT sample (zero before the first).
    [[nodiscard]] constexpr duration prev_rtt(const flow_state& st) const noexcept {
      return st.prev_rtt;
    }
    /// @brief Consecutive completions with a negative gradient, the latest included (saturating).
    [[nodiscard]] constexpr std::uint32_t negative_gradients(const flow_state& st) const noexcept {
      return st.neg;
    }
    /// @brief True when HAI is engaged: the latest hai_threshold completions or more all had a
    /// negative gradient (a completion in the gradient zone then adds N delta).
    [[nodiscard]] constexpr bool hai(const flow_state& st) const noexcept {
      return st.neg >= params_.hai_threshold;
    }
    /// @brief Which line of Algorithm 1 the latest completion ran.
    [[nodiscard]] constexpr timely_action last_action(const flow_state& st) const noexcept {
      return st.action;
    }
    /// @brief True when the latest completion's increase was withheld as application-limited.
    [[nodiscard]] constexpr bool increase_held(const flow_state& st) const noexcept {
      return (st.flags & held) != 0;
    }
    /// @brief The meter's sending rate of its last closed window (zero before one closed).
    [[nodiscard]] constexpr bit_rate send_rate(const flow_state& st) const noexcept {
      if ((st.flags & sent_known) == 0) return bit_rate::zero();
      // A window of 2^63 bps or more (bytes / elapsed saturates there) reads as bit_rate::max().
      const double bps = to_double(st.sent) * 1e6 + 0.5;
      return bps >= 0x1p63 ? bit_rate::max() : bit_rate{static_cast<std::int64_t>(bps)};
    }
    /// @brief §3.3's static limit on outstanding data (bytes::max() when there is none).
    [[nodiscard]] constexpr bytes outstanding_limit() const noexcept {
      return params_.max_outstanding > bytes::zero() ? params_.max_outstanding : bytes::max();
    }
    /// @brief The parameters in force (after invalid fields fell back; derived fields as given).
    [[nodiscard]] constexpr timely_params params() const noexcept { return params_; }

   private:
    friend class timely_compact;  // runs Algorithm 1 on its unpacked state

    static constexpr std::uint8_t have_prev = 1;   // prev_rtt holds a sample
    static constexpr std::uint8_t have_last = 2;   // last holds a completion time
    static constexpr std::uint8_t meter_on = 4;    // on_send has been called
    static constexpr std::uint8_t sent_known = 8;  // a meter window has closed
    static constexpr std::uint8_t held = 16;       // the latest increase was withheld

    // One Mbps in bps: rates to the policy's Mbps through a reciprocal (the same value as
    // ratio(bps, 1e6), without a 128-bit division).
    static constexpr detail::invariant_divisor per_mbps{1'000'000};
    // 31250's reciprocal: mbps()'s quotient by one multiply-high, with no division instruction
    // however g++ lays the meter's window-closing path out.
    static constexpr detail::invariant_divisor per_31250{31'250};
    // Fixed point with F >= 6 fraction bits and 0 <= bps < 2^(68-F) (q32: 68.7 Gbps): 1e6 = 2^6
    // 15625, so (bps 2^F + 500000) / 1e6 = (bps 2^(F-5) + 15625) / 31250 exactly, below 2^63:
    // its floor, ratio's rounding to nearest, by per_31250's 64-bit division (a multiply-high)
    // instead of per_mbps's 128-bit reciprocal.
    static constexpr value_type mbps(bit_rate r) noexcept {
      if constexpr (requires { value_type::fraction_bits; }) {
        constexpr int fb = value_type::fraction_bits;
        if constexpr (fb >= 6 && fb < 63) {
          const std::int64_t b = r.bps();
          if (b >= 0 && b < (std::int64_t{1} << (68 - fb)))
            return detail::raw_in_range<value_type>(static_cast<std::int64_t>(
                per_31250.div_floor64((static_cast<std::uint64_t>(b) << (fb - 5)) + 15'625)));
        }
      }
      return ratio_by<value_type>(r.bps(), per_mbps);
    }
    // The send meter's rate of a window, bytes{n} / elapsed: one division per window of at
    // least send_rate_window (once per minimum RTT by default), not per packet; a reciprocal
    // built per window (netcc::detail::reciprocal_word) measured slower than the division here.
    static constexpr bit_rate rate_of(std::int64_t n, duration elapsed) noexcept {
      return bytes{n} / elapsed;
    }
    // b - a for a < b, saturating at duration::max().
    static constexpr duration since(timestamp a, timestamp b) noexcept {
      std::int64_t d = 0;
      if (__builtin_sub_overflow(b.count(), a.count(), &d))
        d = b.count() >= 0 ? std::numeric_limits<std::int64_t>::max()
                           : std::numeric_limits<std::int64_t>::min();
      return duration{d};
    }

    constexpr void configure(timely_params p) noexcept {
      const timely_params d{};
      if (!(p.line_rate > bit_rate::zero() && p.line_rate <= timely_max_line_rate))
        p.line_rate = d.line_rate;
      if (p.t_low < duration::zero()) p.t_low = d.t_low;
      if (p.t_high <= duration::zero()) p.t_high = d.t_high;
      if (p.t_high < p.t_low) {  // both back to the defaults (T_low < T_high)
        p.t_low = d.t_low;
        p.t_high = d.t_high;
      }
      if (!(p.delta >= bit_rate::zero() && p.delta <= p.line_rate))
        p.delta = d.delta <= p.line_rate ? d.delta : p.line_rate;
      if (!(p.beta > 0 && p.beta <= 1)) p.beta = d.beta;
      if (!(p.alpha > 0 && p.alpha <= 1)) p.alpha = d.alpha;
      if (p.hai_threshold < 1 || p.hai_threshold > timely_max_hai)
        p.hai_threshold = d.hai_threshold;
      if (p.hai_factor < 1 || p.hai_factor > timely_max_hai) p.hai_factor = d.hai_factor;
      if (p.min_rtt <= duration::zero()) p.min_rtt = d.min_rtt;
      if (p.segment <= bytes::zero()) p.segment = d.segment;
      if (!(p.min_rate > bit_rate::zero() && p.min_rate <= p.line_rate))
        p.min_rate = d.min_rate <= p.line_rate ? d.min_rate : p.line_rate;
      if (!(p.initial_rate >= bit_rate::zero() && p.initial_rate <= p.line_rate))
        p.initial_rate = d.initial_rate;
      if (!(p.app_limit >= 0 && p.app_limit <= 1)) p.app_limit = d.app_limit;
      if (p.send_rate_window < duration::zero()) p.send_rate_window = d.send_rate_window;
      if (p.ack_rtt != timely_ack_rtt::net) p.ack_rtt = timely_ack_rtt::completion_time;
      if (p.max_outstanding < bytes::zero()) p.max_outstanding = d.max_outstanding;
      params_ = p;
      const value_type zero = num<value_type>(0), one = num<value_type>(1);
      alpha_ = clamp_num(num<value_type>(p.alpha), zero, one);
      keep_ = one - alpha_;
      decays_ = p.alpha < 1;
      beta_ = clamp_num(num<value_type>(p.beta), zero, one);
      app_limit_ = clamp_num(num<value_type>(p.app_limit), zero, one);
      delta_ = mbps(p.delta);
      hai_delta_ = number_traits<value_type>::from_int(p.hai_factor) * delta_;
      // The bounds round toward the inside of [min_rate, line_rate] (netcc::ratio_up /
      // ratio_down), so the rate in Mbps never lies past them in q32; the floor wins if both
      // round past each other (min_rate == line_rate between two q32 values).
      line_ = ratio_down<value_type>(p.line_rate.bps(), 1'000'000);
      min_ = ratio_up<value_type>(p.min_rate.bps(), 1'000'000);
      if (line_ < min_) line_ = min_;
      min_rtt_us_ = ratio<value_type>(p.min_rtt.count(), 1000);
      if (min_rtt_us_ <= zero) min_rtt_us_ = ratio<value_type>(1, 1000);  // 1 ns: q32 resolution
      window_ = p.send_rate_window > duration::zero() ? p.send_rate_window : p.min_rtt;
      if constexpr (requires { value_type::fraction_bits; }) {
        if (p.min_rtt.count() <= (std::int64_t{1} << (62 - value_type::fraction_bits)))
          scale_div_ = detail::divisor_u63{static_cast<std::uint64_t>(p.min_rtt.count())};
      }
      if constexpr (requires { min_rtt_us_.raw(); }) {
        const auto m = static_cast<std::uint64_t>(min_rtt_us_.raw());
        min_rtt_us_raw_ = detail::invariant_divisor{m};
        if (m < (std::uint64_t{1} << 62)) {
          // m = M 2^s, s = min(trailing zeros, F) (gradient_of; gradient_lim_ stays 0, so the
          // 64-bit path is never taken, when m is too large for it).
          const int tz = std::countr_zero(m);
          const int s = tz < value_type::fraction_bits ? tz : value_type::fraction_bits;
          gradient_div_ = detail::divisor_u63{m >> s};
          gradient_shift_ = static_cast<std::uint8_t>(value_type::fraction_bits - s);
          gradient_lim_ = std::int64_t{1} << (62 - gradient_shift_);
        }
      }
      line_div_ = detail::invariant_divisor{static_cast<std::uint64_t>(p.line_rate.bps())};
      serial_segment_ = p.segment / p.line_rate;
    }

    // on_ack's §3.1 RTT: the ACK's completion time less the serialisation of the acknowledged
    // bytes (at most one segment) at the line rate; 0 (no sample) when no bytes were acknowledged.
    [[nodiscard]] constexpr duration ack_rtt(duration rtt, bytes acked) const noexcept {
      if (acked <= bytes::zero() || rtt <= duration::zero()) return duration::zero();
      if (params_.ack_rtt == timely_ack_rtt::net) return rtt;
      // timely_rtt(rtt, min(acked, segment), line_rate): a whole segment's serialisation is
      // configuration; a shorter one is ceil(8e9 acked / line_rate) through the line rate's
      // reciprocal (the same value as bytes / bit_rate).
      std::int64_t ser = serial_segment_.count();
      if (acked < params_.segment) {
        const detail::u128 x =
            detail::u128{static_cast<std::uint64_t>(acked.count())} * 8'000'000'000u +
            (line_div_.divisor() - 1);
        if (line_div_.fits(x)) {  // a quotient beyond 2^63 - 1 ns saturates, as bytes / bit_rate
          const std::uint64_t qv = line_div_.div_floor(x);
          ser = qv > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
                    ? std::numeric_limits<std::int64_t>::max()
                    : static_cast<std::int64_t>(qv);
        } else {
          ser = (acked / params_.line_rate).count();
        }
      }
      return rtt.count() > ser ? duration{rtt.count() - ser} : duration::zero();
    }

    // One microsecond in ns: RTT differences (ns) to the policy's us.
    static constexpr detail::invariant_divisor per_us{1000};

    // new_rtt_diff in us, d / 1000 (line 3's input). Fixed point: the same value as
    // ratio_by(d, per_us), |d| 2^F / 1000 rounded to nearest (ties away from zero) with d's sign,
    // by a 64-bit division by the constant 1000 (a multiplication) when |d| < 2^(62-F) ns (q32:
    // RTT differences up to 1.07 s); beyond, through per_us.
    [[nodiscard]] static constexpr value_type us_of(std::int64_t d) noexcept {
      if constexpr (requires { value_type::fraction_bits; }) {
        constexpr int fb = value_type::fraction_bits;
        constexpr std::int64_t lim = std::int64_t{1} << (62 - fb);
        if (d > -lim && d < lim) {
          const std::uint64_t mag = d < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(d)
                                          : static_cast<std::uint64_t>(d);
          const auto q = static_cast<std::int64_t>(((mag << fb) + 500) / 1000);
          return value_type::from_raw(d < 0 ? -q : q);
        }
      }
      return ratio_by<value_type>(d, per_us);
    }

    // normalized_gradient = d / minRTT (line 4): fixed point divides by minRTT's raw value through
    // its reciprocal (the same quotient as operator/); double divides.
    // With minRTT's raw value m = M 2^s (s = min(its trailing zeros, F)), the operator's
    // floor((|d| 2^F + floor(m / 2)) / m) equals floor((|d| 2^(F - s) + floor(M / 2)) / M):
    // for s >= 1, dividing the dividend by 2^s first takes |d| 2^(F - s) + M / 2, whose floor
    // is |d| 2^(F - s) + floor(M / 2), and floor(floor(x / a) / b) == floor(x / (a b)). So the
    // 64-bit reciprocal of M (divisor_u63) serves every |d| with |d| 2^(F - s) + M / 2 below
    // 2^63: |d| below 2^(62 - F + s) (|d| 2^(F - s) < 2^62, and M / 2 < 2^61 for m < 2^62).
    // q32 with minRTT in whole microseconds (s = F): any |rtt_diff| below 2^30 us; in general at
    // least |rtt_diff| below 0.5 us (s = 0).
    [[nodiscard]] constexpr value_type gradient_of(value_type d) const noexcept {
      if constexpr (requires { d.raw(); }) {
        const std::int64_t r = d.raw();
        if (r > -gradient_lim_ && r < gradient_lim_) {
          const std::uint64_t mag = r < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(r)
                                          : static_cast<std::uint64_t>(r);
          const auto q = static_cast<std::int64_t>(gradient_quotient(mag));
          return value_type::from_raw(r < 0 ? -q : q);
        }
        return ratio_by<value_type>(r, min_rtt_us_raw_);
      } else {
        return d / min_rtt_us_;
      }
    }

    // gradient_of's 64-bit path: |rtt_diff| / minRTT in raw units for a raw magnitude below
    // gradient_lim_ (fixed point only).
    [[nodiscard, gnu::always_inline]] constexpr std::uint64_t gradient_quotient(
        std::uint64_t mag) const noexcept {
      return gradient_div_.div_nearest(mag << gradient_shift_);
    }

    // 1 - T_high / new_rtt = (new_rtt - T_high) / new_rtt for new_rtt > T_high (line 9). Fixed
    // point: through an integer reciprocal of new_rtt (netcc/core/rsqrt.hpp: a table seed and two
    // Newton steps, relative error below 2^-36, no division; mul_recip_below, the ratio being
    // below 1: mul_recip's value with a shift by a constant); double divides.
    [[nodiscard]] constexpr value_type high_excess(duration rtt) const noexcept {
      const std::int64_t n = rtt.count() - params_.t_high.count();  // in (0, rtt)
      if constexpr (requires { value_type::fraction_bits; }) {
        return value_type::from_raw(static_cast<std::int64_t>(detail::mul_recip_below(
            static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(rtt.count()),
            value_type::fraction_bits)));
      } else {
        return ratio<value_type>(n, rtt.count());
      }
    }

    // §5: may the rate increase, given the stack's measured sending rate?
    [[nodiscard]] constexpr bool rate_allows(const flow_state& st,
                                             bit_rate send_rate) const noexcept {
      if (app_limit_ == num<value_type>(0)) return true;
      return mbps(send_rate) > app_share(st.rate);
    }

    // §5 with the on_send meter: the open window if it already spans the meter window, else the
    // last closed window; backlogged until the meter has a measurement.
    [[nodiscard]] constexpr bool meter_allows(const flow_state& st, timestamp now) const noexcept {
      if (app_limit_ == num<value_type>(0) || (st.flags & meter_on) == 0) return true;
      if (now > st.meter_start) {
        const duration elapsed = since(st.meter_start, now);
        if (elapsed >= window_) return rate_allows(st, rate_of(st.meter_bytes, elapsed));
      }
      if ((st.flags & sent_known) == 0) return true;
      return st.sent > app_share(st.rate);
    }

    // app_limit rate (§5), operator*'s value: fixed point multiplies the raw rate (>= 0) by
    // app_limit in [0, 1] without operator*'s sign and overflow handling (mul_unit_raw).
    [[nodiscard]] constexpr value_type app_share(value_type rate) const noexcept {
      if constexpr (requires { value_type::fraction_bits; }) {
        return detail::raw_in_range<value_type>(static_cast<std::int64_t>(mul_unit_raw(
            static_cast<std::uint64_t>(rate.raw()), static_cast<std::uint64_t>(app_limit_.raw()))));
      } else {
        return app_limit_ * rate;
      }
    }

    // §5 scale of this completion's update: min(1, (now - t_prev) / minRTT); 1 for the first
    // completion or unscaled; 0 at or before the previous completion.
    [[nodiscard]] constexpr value_type scale(const flow_state& st, timestamp now) const noexcept {
      const value_type one = num<value_type>(1);
      if (!params_.scale_updates || (st.flags & have_last) == 0) return one;
      if (now <= st.last) return num<value_type>(0);
      const duration gap = since(st.last, now);
      if (gap >= params_.min_rtt) return one;
      if constexpr (requires { value_type::fraction_bits; }) {
        // gap < minRTT <= 2^(62-F) ns: gap 2^F + minRTT / 2 is below 2^62 + 2^61 < 2^63 (the
        // range of divisor_u63) and the quotient, below 2^F, in the number type: the value of
        // ratio_by through a 64-bit reciprocal.
        if (scale_div_.divisor() != 0)
          return detail::raw_in_range<value_type>(static_cast<std::int64_t>(scale_div_.div_nearest(
              static_cast<std::uint64_t>(gap.count()) << value_type::fraction_bits)));
      }
      return ratio<value_type>(gap.count(), params_.min_rtt.count());  // minRTT > 2^(62-F) ns
    }

    // a * b for b in [0, 1] and a of either sign: operator*'s value bit for bit in fixed point
    // (|a| b rounded to nearest, ties away from zero, with a's sign) through one unsigned
    // 64 x 64 -> 128-bit product, without operator*'s 64-bit overflow test and 128-bit signed
    // path or mul_nonneg's sign test and saturation. Range proof: |a| <= 2^63 and 0 <= b <= 2^F
    // raw give |a| b + 2^(F-1) < 2^127, and a quotient of at most |a| (b <= 1), which fits a's
    // type with a's sign: nothing can overflow or saturate. Every caller passes as b one of
    // alpha, 1 - alpha, beta (clamped into [0, 1] by configure) or the §5 scale f (in [0, 1]:
    // scale()), or the decrease factor clamped into [0, 1]. Double: a * b.
    [[nodiscard]] static constexpr value_type mul_unit(value_type a, value_type b) noexcept {
      if constexpr (requires { a.raw(); }) {
        const std::int64_t r = a.raw();
        const std::uint64_t sign = r < 0 ? ~std::uint64_t{0} : 0;
        const std::uint64_t m = (static_cast<std::uint64_t>(r) ^ sign) - sign;  // |a|
        const std::uint64_t q = mul_unit_raw(m, static_cast<std::uint64_t>(b.raw()));
        return value_type::from_raw(static_cast<std::int64_t>((q ^ sign) - sign));
      } else {
        return a * b;
      }
    }

    // Fixed point, the products of update() on raw values: round(a b 2^-F) for a in [0, 2^63)
    // and b in [0, 2^F] (a factor in [0, 1]), operator*'s value for non-negative operands
    // (a b + 2^(F-1) < 2^127; the quotient, at most a, needs no saturation), without mul_unit's
    // sign handling; the helpers below apply a sign once and build one value at the end.
    [[nodiscard, gnu::always_inline]] static constexpr std::uint64_t mul_unit_raw(
        std::uint64_t a, std::uint64_t b) noexcept {
      constexpr int fb = value_type::fraction_bits;
      return static_cast<std::uint64_t>((detail::u128{a} * b + (detail::u128{1} << (fb - 1))) >>
                                        fb);
    }

    // Line 3: (1 - alpha) rtt_diff + alpha new_rtt_diff, new_rtt_diff = d ns in us. Fixed point:
    // mul_unit(prev, keep_) + mul_unit(us_of(d), alpha_) bit for bit (operator+ saturating).
    // rtt_diff is the one value each completion carries to the next through this sum (the
    // gradient's sign, and so the branches of lines 5-14, wait for it), so its term is kept short:
    // - (1 - alpha) prev by one signed 64 x 64 -> 128-bit product, K = keep_'s raw in [0, 2^F]:
    //   (prev K + 2^(F-1) - [prev < 0]) >> F (arithmetic) is mul_unit's |prev| K rounded to
    //   nearest, ties away from zero, with prev's sign: for prev >= 0 it is the same expression;
    //   for prev < 0, with m = |prev| K, floor((2^(F-1) - 1 - m) / 2^F) = -ceil((m - 2^(F-1) + 1)
    //   / 2^F) = -floor((m + 2^(F-1)) / 2^F). |prev K| < 2^95: no overflow.
    // - alpha new_rtt_diff on magnitudes, d's sign applied once: q = |us_of(d)| = (|d| 2^F + 500)
    //   / 1000 below 2^52 for |d| < 2^(62-F) (q32: RTT differences up to 1.07 s).
    // - the sum without operator+'s overflow test and from_raw's clamp, which cannot act there:
    //   K + A = 2^F (A = alpha_'s raw; keep_ = 1 - alpha_), so A = 0 leaves the sum at prev, and
    //   A >= 1 bounds it by |prev| K / 2^F + 1/2 + 2^52 A / 2^F + 1/2 <= raw_max - A (raw_max -
    //   2^52) / 2^F + 1 < raw_max.
    // Beyond that d, us_of's 128-bit path and operator+'s saturation as before. Double: the same
    // expression.
    [[nodiscard, gnu::always_inline]] constexpr value_type ewma(value_type prev,
                                                                std::int64_t d) const noexcept {
      if constexpr (requires { value_type::fraction_bits; }) {
        constexpr int fb = value_type::fraction_bits;
        constexpr std::int64_t lim = std::int64_t{1} << (62 - fb);
        const std::int64_t r = prev.raw();
        const std::int64_t kept = detail::timely_keep_term<fb>(r, keep_.raw());
        if (d > -lim && d < lim) {
          const std::uint64_t ds = d < 0 ? ~std::uint64_t{0} : 0;
          const std::uint64_t mag = (static_cast<std::uint64_t>(d) ^ ds) - ds;
          const std::uint64_t q = ((mag << fb) + 500) / 1000;  // |us_of(d)|
          const auto added = static_cast<std::int64_t>(
              (mul_unit_raw(q, static_cast<std::uint64_t>(alpha_.raw())) ^ ds) - ds);
          return detail::raw_in_range<value_type>(kept + added);  // within +-raw_max (above)
        }
        const std::int64_t added = mul_unit(us_of(d), alpha_).raw();
        std::int64_t sum = 0;  // operator+ on the two (each within +-raw_max)
        if (__builtin_add_overflow(kept, added, &sum))
          return kept > 0 ? value_type::max() : value_type::lowest();
        return value_type::from_raw(sum);
      } else {
        return mul_unit(prev, keep_) + mul_unit(us_of(d), alpha_);
      }
    }

    // Lines 6 and 12: clamp_num(rate + mul_unit(n_delta, f), min_, line_) for n_delta >= 0 and
    // f in [0, 1]. Fixed point, the same value: rate in [min_, line_] (>= 0) and the product in
    // [0, n_delta] add as unsigned below 2^64 without wrapping; operator+'s saturation at raw_max
    // >= line_ and the clamp then give min(max(sum, min_), line_) (min_ <= line_, configure()).
    [[nodiscard, gnu::always_inline]] constexpr value_type raised(value_type rate,
                                                                  value_type n_delta,
                                                                  value_type f) const noexcept {
      if constexpr (requires { value_type::fraction_bits; }) {
        const std::uint64_t sum = static_cast<std::uint64_t>(rate.raw()) +
                                  mul_unit_raw(static_cast<std::uint64_t>(n_delta.raw()),
                                               static_cast<std::uint64_t>(f.raw()));
        const auto hi = static_cast<std::uint64_t>(line_.raw());
        const auto lo = static_cast<std::uint64_t>(min_.raw());
        const std::uint64_t v = sum < hi ? sum : hi;
        return detail::raw_in_range<value_type>(
            static_cast<std::int64_t>(v < lo ? lo : v));  // in [min_, line_]
      } else {
        return clamp_num(rate + mul_unit(n_delta, f), min_, line_);
      }
    }

    // Lines 9 and 14: clamp_num(mul_unit(rate, clamp_num(1 - mul_unit(cut, f), 0, 1)), min_,
    // line_) for cut >= 0 and f in [0, 1]. Fixed point, the same value: cut f in [0, cut], so 1 -
    // cut f is at most 1 and cannot overflow (the clamp keeps only its floor, 0); rate >= 0 times
    // the factor is mul_unit_raw.
    [[nodiscard, gnu::always_inline]] constexpr value_type lowered(value_type rate, value_type cut,
                                                                   value_type f) const noexcept {
      if constexpr (requires { value_type::fraction_bits; }) {
        constexpr auto one = static_cast<std::uint64_t>(value_type::raw_one);
        const std::uint64_t x = mul_unit_raw(static_cast<std::uint64_t>(cut.raw()),
                                             static_cast<std::uint64_t>(f.raw()));
        const std::uint64_t v =
            mul_unit_raw(static_cast<std::uint64_t>(rate.raw()), x < one ? one - x : 0);
        const auto hi = static_cast<std::uint64_t>(line_.raw());
        const auto lo = static_cast<std::uint64_t>(min_.raw());
        const std::uint64_t c = v < hi ? v : hi;
        return detail::raw_in_range<value_type>(
            static_cast<std::int64_t>(c < lo ? lo : c));  // in [min_, line_]
      } else {
        const value_type zero = num<value_type>(0), one = num<value_type>(1);
        return clamp_num(mul_unit(rate, clamp_num(one - mul_unit(cut, f), zero, one)), min_, line_);
      }
    }

    // Line 14's cut, beta normalized_gradient = mul_unit(gradient_of(d), beta_), for d =
    // rtt_diff > 0. Fixed point, the same value: gradient_of's 64-bit path without its sign
    // handling (d > 0), then mul_unit_raw (the gradient is >= 0).
    [[nodiscard, gnu::always_inline]] constexpr value_type gradient_cut(
        value_type d) const noexcept {
      if constexpr (requires { d.raw(); }) {
        const std::int64_t r = d.raw();
        const std::uint64_t g = r < gradient_lim_
                                    ? gradient_quotient(static_cast<std::uint64_t>(r))
                                    : static_cast<std::uint64_t>(gradient_of(d).raw());
        return beta_share(g);
      } else {
        return mul_unit(gradient_of(d), beta_);
      }
    }

    // Fixed point: beta g for a raw g in [0, raw_max], mul_unit's value for g >= 0
    // (mul_unit_raw; at most g, as beta <= 1: in range). Lines 9 and 14's cuts.
    [[nodiscard, gnu::always_inline]] constexpr value_type beta_share(
        std::uint64_t g) const noexcept {
      return detail::raw_in_range<value_type>(
          static_cast<std::int64_t>(mul_unit_raw(g, static_cast<std::uint64_t>(beta_.raw()))));
    }

    // Line 9's cut, beta (1 - T_high / new_rtt) = mul_unit(high_excess(rtt), beta_), for
    // new_rtt > T_high. Fixed point, the same value: high_excess is in [0, 1], so mul_unit's
    // sign handling is not needed (beta_share, as gradient_cut).
    [[nodiscard, gnu::always_inline]] constexpr value_type high_cut(duration rtt) const noexcept {
      if constexpr (requires { value_type::fraction_bits; }) {
        return beta_share(static_cast<std::uint64_t>(high_excess(rtt).raw()));
      } else {
        return mul_unit(high_excess(rtt), beta_);
      }
    }

    // Algorithm 1 on one completion with RTT `rtt` > 0 at `now`; `may_increase` is §5's test.
    // Always inlined: g++ kept the q32 instantiation out of line (double's it inlines), and the
    // call, six saved registers and the state reloaded around it cost about a tenth of a q32
    // completion (callgrind).
    [[gnu::always_inline]] constexpr void update(flow_state& st, timestamp now, duration rtt,
                                                 bool may_increase) const noexcept {
      const value_type zero = num<value_type>(0);
      // Lines 1-2: new_rtt_diff = new_rtt - prev_rtt (0 for the first sample); prev_rtt = new_rtt.
      // Both are in (0, 2^63), so the difference cannot overflow.
      const std::int64_t diff_ns =
          (st.flags & have_prev) != 0 ? rtt.count() - st.prev_rtt.count() : 0;
      st.prev_rtt = rtt;
      st.flags |= have_prev;
      // Line 3: rtt_diff = (1 - alpha) rtt_diff + alpha new_rtt_diff (in us). In exact
      // arithmetic a filter fed zero differences decays towards 0 without reaching it, so its
      // sign (the gradient's) holds: when a zero difference would round a nonzero rtt_diff to 0
      // (q32 below 2^-32 us with alpha > 1/2; double below its smallest subnormal) it keeps its
      // last value instead, the same rule in both policies. With alpha = 1 the filter is the last
      // difference and a zero difference is exactly 0 (decays_ is false).
      const value_type prev_diff = st.rtt_diff;
      st.rtt_diff = ewma(prev_diff, diff_ns);
      if (diff_ns == 0 && st.rtt_diff == zero && decays_) st.rtt_diff = prev_diff;
      // Line 4: normalized_gradient = rtt_diff / minRTT. Its sign is rtt_diff's (minRTT > 0), so
      // the branches below test rtt_diff itself: the quotient would round a small rtt_diff to 0
      // in fixed point (|rtt_diff| < minRTT 2^-33 us in q32) and end HAI while double, and the
      // paper's arithmetic, keep counting. g is only needed for line 14's magnitude.
      // HAI counter: consecutive completions with a negative gradient.
      if (st.rtt_diff < zero) {
        if (st.neg != 0xFFFF'FFFFu) ++st.neg;
      } else {
        st.neg = 0;
      }
      // §5: scale of this update; the previous-completion time never moves backwards.
      const value_type f = scale(st, now);
      if ((st.flags & have_last) == 0 || now > st.last) st.last = now;
      st.flags = static_cast<std::uint8_t>((st.flags | have_last) & ~held);
      // The line's step: N delta to add (lines 6 and 12) or a cut to apply (lines 9 and 14); one
      // rate update below, each helper inlined once.
      value_type step = delta_;
      bool up = true;
      if (rtt < params_.t_low) {  // lines 5-7: rate += delta
        st.action = timely_action::increase_low;
      } else if (rtt > params_.t_high) {  // lines 8-10: rate *= 1 - beta (1 - T_high/new_rtt)
        st.action = timely_action::decrease_high;
        step = high_cut(rtt);
        up = false;
      } else if (st.rtt_diff <= zero) {  // lines 11-12 (gradient <= 0): rate += N delta
        const bool in_hai = st.neg >= params_.hai_threshold;
        st.action = in_hai ? timely_action::increase_hai : timely_action::increase;
        if (in_hai) step = hai_delta_;
      } else {  // lines 13-14: rate *= 1 - beta normalized_gradient
        st.action = timely_action::decrease_gradient;
        step = gradient_cut(st.rtt_diff);
        up = false;
      }
      if (!up) {
        st.rate = lowered(st.rate, step, f);  // rate *= 1 - f cut, the factor clamped to [0, 1]
      } else if (may_increase) {
        st.rate = raised(st.rate, step, f);  // clamp(rate + N delta f, min_rate, line_rate)
      } else {
        st.flags |= held;
      }
    }

    // The parameters in force and the numbers derived from them.
    timely_params params_{};
    value_type alpha_{};
    value_type beta_{};
    value_type app_limit_{};
    value_type delta_{};
    value_type line_{};
    value_type min_{};
    value_type min_rtt_us_{};
    // Divisions by configuration values through reciprocals, the same quotients without a
    // division instruction: minRTT in the policy's us for line 4 (128-bit dividends), minRTT in
    // ns for the §5 scale (dividends below 2^63 in fixed point: divisor_u63, one product and
    // one shift).
    detail::invariant_divisor min_rtt_us_raw_{};
    detail::divisor_u63
        scale_div_{};  // minRTT in ns for the §5 scale in fixed point (d = 0: not used)
    detail::divisor_u63 gradient_div_{};  // line 4 in fixed point: minRTT's raw value without its
                                          // low zero bits (gradient_of; d = 0: not used)
    std::int64_t gradient_lim_ = 0;       // |rtt_diff| raw below it: gradient_div_ applies
                                          // (0: it never does)
    value_type keep_{};                   // 1 - alpha (line 3)
    value_type hai_delta_{};              // N delta (line 12 in HAI)
    duration window_{};
    detail::invariant_divisor line_div_{};  // line rate in bps (§3.1 serialisation)
    duration serial_segment_{};             // one segment at the line rate
    bool decays_ = true;                    // alpha < 1: rtt_diff keeps a share of its past
    std::uint8_t gradient_shift_ = 0;       // F less the zero bits taken off (gradient_of)
  };

  /// @brief Bytes of per-flow state, sizeof(flow_state): rate, rtt_diff and the metered send
  /// rate (3 numbers), prev_rtt, the previous completion time, the meter's window opening and
  /// byte count (4 x 64 bits), the HAI counter (32 bits), the last action and flags (2 bytes),
  /// padded: 64 B for double and q32. The parameters and the constants derived from them are
  /// config, shared by every flow of a class.
  static constexpr std::size_t state_bytes = sizeof(flow_state);

  /// @brief A controller with parameters `p` (unchecked: invalid fields fall back to their
  /// defaults; netcc::make reports them instead).
  constexpr explicit basic_timely(const timely_params& p = {}) noexcept
      : cfg_(p), s_(cfg_.initial_state()) {}

  /// @brief A completion event whose RTT is the §3.1 RTT (net of serialisation): Algorithm 1
  /// with the §5 rules, the application's rate taken from the on_send meter (config::on_rtt).
  /// An RTT of zero or below is ignored.
  template <class E>
  requires RttFeedback<E>
  constexpr void on_rtt(const E& e) noexcept { cfg_.on_rtt(s_, e); }
  /// @brief As on_rtt(e), with the application's sending rate measured by the stack (§5).
  template <class E>
  requires RttFeedback<E>
  constexpr void on_rtt(const E& e, bit_rate send_rate) noexcept { cfg_.on_rtt(s_, e, send_rate); }
  /// @brief An ACK completing a segment, its RTT a completion time (config::on_ack).
  template <class E>
  requires(AckFeedback<E>&& RttFeedback<E>) constexpr void on_ack(const E& e) noexcept {
    cfg_.on_ack(s_, e);
  }
  /// @brief As on_ack(e), with the application's sending rate measured by the stack (§5).
  template <class E>
  requires(AckFeedback<E>&& RttFeedback<E>) constexpr void on_ack(const E& e,
                                                                  bit_rate send_rate) noexcept {
    cfg_.on_ack(s_, e, send_rate);
  }
  /// @brief `b` bytes were sent at `now`: the §5 send-rate meter (config::on_send).
  constexpr void on_send(bytes b, timestamp now) noexcept { cfg_.on_send(s_, b, now); }

  /// @brief The target rate, rounded to whole bps, in [min_rate, line_rate].
  [[nodiscard]] constexpr bit_rate rate() const noexcept { return cfg_.rate(s_); }
  /// @brief The pacing rate (= rate(); TIMELY is rate-based, §3.3).
  [[nodiscard]] constexpr bit_rate pacing_rate() const noexcept { return cfg_.pacing_rate(s_); }
  /// @brief The congestion window: bytes::max(), TIMELY is rate-based and has none.
  [[nodiscard]] constexpr bytes cwnd() const noexcept { return cfg_.cwnd(); }
  /// @brief The rate in Mbps as the policy computes it.
  [[nodiscard]] constexpr value_type rate_mbps() const noexcept { return cfg_.rate_mbps(s_); }
  /// @brief rtt_diff, the EWMA of consecutive RTT differences, in microseconds (line 3).
  [[nodiscard]] constexpr value_type rtt_diff_us() const noexcept { return cfg_.rtt_diff_us(s_); }
  /// @brief normalized_gradient = rtt_diff / minRTT (line 4), dimensionless.
  [[nodiscard]] constexpr value_type gradient() const noexcept { return cfg_.gradient(s_); }
  /// @brief prev_rtt, the latest RTT sample (zero before the first).
  [[nodiscard]] constexpr duration prev_rtt() const noexcept { return cfg_.prev_rtt(s_); }
  /// @brief Consecutive completions with a negative gradient, the latest included (saturating).
  [[nodiscard]] constexpr std::uint32_t negative_gradients() const noexcept {
    return cfg_.negative_gradients(s_);
  }
  /// @brief True when HAI is engaged (config::hai).
  [[nodiscard]] constexpr bool hai() const noexcept { return cfg_.hai(s_); }
  /// @brief Which line of Algorithm 1 the latest completion ran.
  [[nodiscard]] constexpr timely_action last_action() const noexcept {
    return cfg_.last_action(s_);
  }
  /// @brief True when the latest completion's increase was withheld as application-limited.
  [[nodiscard]] constexpr bool increase_held() const noexcept { return cfg_.increase_held(s_); }
  /// @brief The meter's sending rate of its last closed window (zero before one closed).
  [[nodiscard]] constexpr bit_rate send_rate() const noexcept { return cfg_.send_rate(s_); }
  /// @brief §3.3's static limit on outstanding data (bytes::max() when there is none).
  [[nodiscard]] constexpr bytes outstanding_limit() const noexcept {
    return cfg_.outstanding_limit();
  }
  /// @brief The parameters in force (after invalid fields fell back; derived fields as given).
  [[nodiscard]] constexpr timely_params params() const noexcept { return cfg_.params(); }
  /// @brief The configuration this controller runs (shareable with other flows).
  [[nodiscard]] constexpr const config& configuration() const noexcept { return cfg_; }
  /// @brief This flow's state.
  [[nodiscard]] constexpr const flow_state& state() const noexcept { return s_; }

 private:
  config cfg_;
  flow_state s_;
};

/// @brief TIMELY with double arithmetic.
using timely = basic_timely<>;

// Per-flow state budget: 64 B (see basic_timely::state_bytes for what is counted), state_bytes =
// sizeof(flow_state), in double and in q32. The 32-B fixed-point form is netcc::timely_compact
// (below: the q32 rules over a packed state, rtt_diff exact, the rate in a 32-bit unit, 32-bit
// RTT, clocks and meter fields). The configuration (config: the parameters, nine derived
// numbers, two 128-bit and two 64-bit reciprocals, the meter window and a segment's
// serialisation) is shared by a class of flows.
static_assert(sizeof(timely::flow_state) <= 64, "timely: per-flow state within 64 B");
static_assert(sizeof(basic_timely<arith::q32>::flow_state) <= 64,
              "timely q32: per-flow state within 64 B");
static_assert(timely::state_bytes == sizeof(timely::flow_state));
static_assert(sizeof(timely) <= 64 + 336, "timely: 64 B state + at most 336 B configuration");
static_assert(sizeof(basic_timely<arith::q32>) <= 64 + 336,
              "timely q32: 64 B state + at most 336 B configuration");

/// @brief TIMELY in q32 with a 32-byte per-flow state: basic_timely<arith::q32>'s Algorithm 1 and
/// §5 rules (the same config, branches and arithmetic) over a packed flow_state, for arrays of
/// many flows. Each event leaves the state that unpacking it, running the q32 rule and packing it
/// would leave, bit for bit; a completion converts only the fields Algorithm 1 reads or writes
/// (the meter's window stays packed unless the §5 test reads it).
///
/// Layout and the range of every narrowed field:
/// - rtt_diff: q32 microseconds as they are, in 56 bits (|rtt_diff| < 2^23 us). Every RTT
///   sample up to max_rtt (2^32 - 1 ns, 4.29 s) keeps |new_rtt_diff| and hence the filter below
///   2^22.1 us: within that range rtt_diff equals the q32 form's bit for bit, sub-microsecond
///   precision (the sign rule of basic_timely's line 3) included. Beyond it, it saturates at
///   +-(2^55 - 1) 2^-32 us with its sign kept.
/// - the HAI counter: 8 bits, saturating at 255 (negative_gradients() reads at most 255). HAI is
///   exact for hai_threshold <= 255; a larger threshold falls back to the default (5), and
///   timely_compact::validate() reports it.
/// - the rate: the q32 rate in Mbps rounded to nearest to a multiple of 2^rate_shift() raw units
///   and held as a 32-bit count of them, rate_shift() = max(0, bit_width(line_rate's q32 raw) -
///   32): 2^-18 Mbps (3.8 bps) at 10 Gbps, 2^-15 Mbps at 100 Gbps, 2^-12 Mbps at 1 Tbps. Its
///   range is [min_rate, line_rate] (both rounded inwards to the unit; if they round past each
///   other, the floor wins, as in the q32 form). An event moves the q32 rate by Algorithm 1 from the rounded one; the rounding
///   adds at most 2^rate_shift() raw units per completion, and a decrease factor in [0, 1] never
///   enlarges an earlier difference, so after n completions the rate is within
///   (n + 1)(2^rate_shift() + 1) 2^-32 Mbps of the q32 form's (the
///   CompactWithinItsRateBoundOfQ32 property), while every branch, rtt_diff, prev_rtt and the
///   HAI count stay equal. The application-limited test (§5) compares app_limit * rate with the
///   sending rate, so the two forms may differ there when the sending rate lies within that
///   bound (or the send meter's unit, below) of 80 % of the rate.
/// - prev_rtt: 32-bit ns, saturating at max_rtt (an RTT above it enters the next difference as
///   max_rtt; the completion's own branch uses the full RTT).
/// - the previous completion and the meter window's opening: the low 32 bits of the ns clock,
///   read back as now - d, d the wrapping distance in (-2^24, 2^32 - 2^24] ns: a time up to
///   less than clock_step_back (2^24 ns, 16.8 ms) after `now` is read as a step back (as q32
///   keeps it),
///   any other as up to 4.28 s before `now`. Exact while consecutive completions (and the sends
///   and completions that read a meter window) are at most 2^32 - 2^24 ns apart and step back by
///   less than 2^24 ns; after a longer silence the gap is read modulo 2^32 ns (one update may
///   then be scaled by f < 1, or the meter read from a shorter window).
/// - the meter's bytes in its current window: 32 bits, saturating (exact below 4 GB a window).
/// - the meter's last closed rate: 27 bits as a count of 2^sent_shift() q32 raw units,
///   sent_shift() = rate_shift() + 6, rounded down and saturating at a value above the line rate
///   (a rate at or above it passes the 80 % test in both forms): 2^-12 Mbps (244 bps) at 10
///   Gbps. The 80 % test on it differs from q32's only when the sending rate lies within one
///   unit above 80 % of the rate.
/// - have_prev (prev_rtt != 0), have_last (an action was taken) and sent_known (a nonzero count)
///   are implied; meter_on, held and the last action (3 bits) share the word of the meter rate.
///
/// Outside the ranges the rate stays finite and in [min_rate, line_rate] and an RTT above T_high
/// never raises it, as for any TIMELY instantiation (tests/control/timely_compact_test.cpp).
/// @code
/// const netcc::timely_compact::config cfg{{.line_rate = netcc::bit_rate{25'000'000'000}}};
/// std::vector<netcc::timely_compact::flow_state> flows(1000, cfg.initial_state());  // 32 kB
/// cfg.on_rtt(flows[7], netcc::rtt_event{.now = netcc::timestamp{40'000},
///                                       .rtt = netcc::duration{30'000}});
/// netcc::bit_rate r = cfg.rate(flows[7]);  // 25 Gbps: the line rate, as the q32 form
/// @endcode
class timely_compact {
  using wide = basic_timely<arith::q32>;
  using wide_state = wide::flow_state;
  using wide_config = wide::config;

 public:
  /// @brief The number type of the rate (Mbps), rtt_diff (us) and the gradient (q32).
  using value_type = wide::value_type;
  /// @brief The parameter struct.
  using params_type = timely_params;
  /// @brief Events consumed: as basic_timely.
  static constexpr event_set events = wide::events;
  /// @brief Largest prev_rtt held, ns (2^32 - 1, 4.29 s): the range of exact RTT samples.
  static constexpr std::int64_t max_rtt = 0xFFFF'FFFF;
  /// @brief Largest step back of a completion or send behind a stored clock read as one, ns
  /// (2^24, 16.8 ms).
  static constexpr std::int64_t clock_step_back = std::int64_t{1} << 24;
  /// @brief Largest HAI count held, and largest hai_threshold accepted (255).
  static constexpr std::uint32_t max_hai_threshold = 255;

  /// @brief Check parameters for the compact form: netcc::validate(timely_params) and
  /// hai_threshold <= 255 (the 8-bit HAI count); each error names the field, value and rule.
  /// @code
  /// auto v = netcc::timely_compact::validate({.hai_threshold = 300});
  /// // v[0].message() == "timely.hai_threshold = 300: must be at most 255 in timely_compact ..."
  /// @endcode
  [[nodiscard]] static validation validate(const timely_params& p) {
    validation v = netcc::validate(p);
    v.check(p.hai_threshold <= max_hai_threshold, "timely.hai_threshold", p.hai_threshold,
            "must be at most 255 in timely_compact (an 8-bit HAI count)");
    return v;
  }

  /// @brief One flow's packed state (32 B, trivially copyable); see the class comment for the
  /// range of each field. Read and change it through config.
  struct flow_state {
    std::uint64_t diff_hai = 0;     ///< rtt_diff (q32 us, bits 0-55), HAI count (bits 56-63)
    std::uint32_t rate = 0;         ///< the rate, units of 2^rate_shift() q32 raw Mbps
    std::uint32_t prev_rtt = 0;     ///< prev_rtt, ns, saturating (0: no sample yet)
    std::uint32_t last = 0;         ///< previous completion, low 32 bits of the ns clock
    std::uint32_t meter_start = 0;  ///< meter window's opening, low 32 bits of the ns clock
    std::uint32_t meter_bytes = 0;  ///< bytes in the meter's window, saturating
    std::uint32_t bits = 0;  ///< meter rate + 1 (0-26; 0: none), held, meter_on, action (29-31)
  };
  static_assert(std::is_trivially_copyable_v<flow_state>);

  /// @brief What a class of flows shares: the q32 configuration and the units of the narrowed
  /// rate fields, with Algorithm 1 as members taking one flow's packed state.
  class config {
   public:
    /// @brief The configuration for parameters `p` (invalid fields, and hai_threshold above 255,
    /// fall back to their defaults; timely_compact::validate reports them).
    constexpr explicit config(const timely_params& p = {}) noexcept : q_(sanitize(p)) {
      const auto line = static_cast<std::uint64_t>(q_.line_.raw());
      const int bw = std::bit_width(line);
      rate_shift_ = bw > 32 ? bw - 32 : 0;
      sent_shift_ = rate_shift_ + 6;
      rate_half_ = rate_shift_ > 0 ? std::uint64_t{1} << (rate_shift_ - 1) : 0;
      rate_hi_ = static_cast<std::uint32_t>(line >> rate_shift_);
      const auto lo =
          (static_cast<std::uint64_t>(q_.min_.raw()) + ((std::uint64_t{1} << rate_shift_) - 1)) >>
          rate_shift_;
      // min_rate and line_rate within one unit (rounded past each other): the floor wins, as in
      // the q32 form (a unit above the line rate at most); it stays in 32 bits.
      rate_lo_ = lo > 0xFFFF'FFFFu ? 0xFFFF'FFFFu : static_cast<std::uint32_t>(lo);
      if (rate_hi_ < rate_lo_) rate_hi_ = rate_lo_;
    }

    /// @brief A new flow's state: as basic_timely::config::initial_state, packed.
    [[nodiscard]] constexpr flow_state initial_state() const noexcept {
      return pack(q_.initial_state());
    }
    /// @brief Reset `st` to a new flow's state.
    constexpr void init(flow_state& st) const noexcept { st = initial_state(); }

    /// @brief A completion with the §3.1 RTT (basic_timely::config::on_rtt).
    template <class E>
    requires RttFeedback<E>
    constexpr void on_rtt(flow_state& st, const E& e) const noexcept {
      using ft = feedback_traits<E>;
      const duration rtt = ft::rtt(e);
      if (rtt <= duration::zero()) return;
      const timestamp now = ft::now(e);
      complete(st, now, rtt, [&](const wide_state& w) { return q_.meter_allows(w, now); });
    }
    /// @brief As on_rtt(st, e), with the stack's sending rate (§5).
    template <class E>
    requires RttFeedback<E>
    constexpr void on_rtt(flow_state& st, const E& e, bit_rate send_rate) const noexcept {
      using ft = feedback_traits<E>;
      const duration rtt = ft::rtt(e);
      if (rtt <= duration::zero()) return;
      const timestamp now = ft::now(e);
      complete(st, now, rtt, [&](const wide_state& w) { return q_.rate_allows(w, send_rate); });
    }
    /// @brief An ACK completing a segment (basic_timely::config::on_ack).
    template <class E>
    requires(AckFeedback<E>&& RttFeedback<E>) constexpr void on_ack(flow_state& st,
                                                                    const E& e) const noexcept {
      using ft = feedback_traits<E>;
      const duration rtt = q_.ack_rtt(ft::rtt(e), ft::acked_bytes(e));
      if (rtt <= duration::zero()) return;
      const timestamp now = ft::now(e);
      complete(st, now, rtt, [&](const wide_state& w) { return q_.meter_allows(w, now); });
    }
    /// @brief As on_ack(st, e), with the stack's sending rate (§5).
    template <class E>
    requires(AckFeedback<E>&& RttFeedback<E>) constexpr void on_ack(
        flow_state& st, const E& e, bit_rate send_rate) const noexcept {
      using ft = feedback_traits<E>;
      const duration rtt = q_.ack_rtt(ft::rtt(e), ft::acked_bytes(e));
      if (rtt <= duration::zero()) return;
      const timestamp now = ft::now(e);
      complete(st, now, rtt, [&](const wide_state& w) { return q_.rate_allows(w, send_rate); });
    }
    /// @brief `b` bytes sent at `now`: the §5 meter (basic_timely::config::on_send).
    constexpr void on_send(flow_state& st, bytes b, timestamp now) const noexcept {
      wide_state w = unpack(st, now);
      q_.on_send(w, b, now);
      st = pack(w);
    }

    /// @brief The target rate, rounded to whole bps, in [min_rate, line_rate].
    [[nodiscard]] constexpr bit_rate rate(const flow_state& st) const noexcept {
      return q_.rate(view(st));
    }
    /// @brief The pacing rate (= rate(st)).
    [[nodiscard]] constexpr bit_rate pacing_rate(const flow_state& st) const noexcept {
      return rate(st);
    }
    /// @brief The congestion window: bytes::max() (TIMELY is rate-based).
    [[nodiscard]] constexpr bytes cwnd() const noexcept { return bytes::max(); }
    /// @brief The rate in Mbps (a multiple of 2^rate_shift() q32 raw units).
    [[nodiscard]] constexpr value_type rate_mbps(const flow_state& st) const noexcept {
      return view(st).rate;
    }
    /// @brief rtt_diff in microseconds (line 3).
    [[nodiscard]] constexpr value_type rtt_diff_us(const flow_state& st) const noexcept {
      return view(st).rtt_diff;
    }
    /// @brief normalized_gradient = rtt_diff / minRTT (line 4).
    [[nodiscard]] constexpr value_type gradient(const flow_state& st) const noexcept {
      return q_.gradient(view(st));
    }
    /// @brief prev_rtt (zero before the first sample), saturated at max_rtt.
    [[nodiscard]] constexpr duration prev_rtt(const flow_state& st) const noexcept {
      return duration{st.prev_rtt};
    }
    /// @brief Consecutive completions with a negative gradient, saturated at 255.
    [[nodiscard]] constexpr std::uint32_t negative_gradients(const flow_state& st) const noexcept {
      return static_cast<std::uint32_t>(st.diff_hai >> 56);
    }
    /// @brief True when HAI is engaged (basic_timely::config::hai).
    [[nodiscard]] constexpr bool hai(const flow_state& st) const noexcept {
      return negative_gradients(st) >= q_.params_.hai_threshold;
    }
    /// @brief Which line of Algorithm 1 the latest completion ran.
    [[nodiscard]] constexpr timely_action last_action(const flow_state& st) const noexcept {
      return static_cast<timely_action>(st.bits >> 29);
    }
    /// @brief True when the latest completion's increase was withheld as application-limited.
    [[nodiscard]] constexpr bool increase_held(const flow_state& st) const noexcept {
      return (st.bits & held_bit) != 0;
    }
    /// @brief The meter's last closed rate (zero before one closed), in the meter's unit.
    [[nodiscard]] constexpr bit_rate send_rate(const flow_state& st) const noexcept {
      return q_.send_rate(view(st));
    }
    /// @brief §3.3's static limit on outstanding data (bytes::max() when there is none).
    [[nodiscard]] constexpr bytes outstanding_limit() const noexcept {
      return q_.outstanding_limit();
    }
    /// @brief The parameters in force (after invalid fields fell back).
    [[nodiscard]] constexpr timely_params params() const noexcept { return q_.params(); }
    /// @brief The rate's unit: 2^rate_shift() q32 raw units (2^(rate_shift() - 32) Mbps).
    [[nodiscard]] constexpr int rate_shift() const noexcept { return rate_shift_; }
    /// @brief The meter rate's unit: 2^sent_shift() q32 raw units.
    [[nodiscard]] constexpr int sent_shift() const noexcept { return sent_shift_; }
    /// @brief The q32 configuration the rules run on.
    [[nodiscard]] constexpr const wide_config& wide_configuration() const noexcept { return q_; }
    /// @brief The q32 state `st` stands for at `now` (its 32-bit clocks read back at now): the
    /// state each event's q32 rule runs on. Every event leaves packed(e applied by
    /// wide_configuration() to unpacked(st, now)), bit for bit (the form's definition).
    [[nodiscard]] constexpr wide_state unpacked(const flow_state& st,
                                                timestamp now) const noexcept {
      return unpack(st, now);
    }
    /// @brief A q32 state packed, its fields narrowed as the class comment states.
    [[nodiscard]] constexpr flow_state packed(const wide_state& w) const noexcept {
      return pack(w);
    }

   private:
    static constexpr std::uint64_t diff_mask = (std::uint64_t{1} << 56) - 1;
    static constexpr std::int64_t diff_max = (std::int64_t{1} << 55) - 1;
    static constexpr std::uint32_t sent_mask = (std::uint32_t{1} << 27) - 1;
    static constexpr std::uint32_t held_bit = std::uint32_t{1} << 27;
    static constexpr std::uint32_t meter_bit = std::uint32_t{1} << 28;

    static constexpr timely_params sanitize(timely_params p) noexcept {
      if (p.hai_threshold > max_hai_threshold) p.hai_threshold = timely_params{}.hai_threshold;
      return p;
    }

    // The wide state's fields that need no clock (the two clocks are left at zero).
    [[nodiscard]] constexpr wide_state view(const flow_state& st) const noexcept {
      wide_state w = view_rule_fields(st);
      w.meter_bytes = st.meter_bytes;
      if ((st.bits & meter_bit) != 0) w.flags |= wide_config::meter_on;
      if ((st.bits & held_bit) != 0) w.flags |= wide_config::held;
      view_sent(st, w);
      return w;
    }

    // The fields Algorithm 1 reads on every completion (rate, rtt_diff and the HAI count,
    // prev_rtt, the action) with their have_prev / have_last flags; no clock, no meter.
    [[nodiscard]] constexpr wide_state view_rule_fields(const flow_state& st) const noexcept {
      wide_state w{};
      w.rate = value_type::from_raw(
          static_cast<std::int64_t>(static_cast<std::uint64_t>(st.rate) << rate_shift_));
      w.rtt_diff = value_type::from_raw(static_cast<std::int64_t>(st.diff_hai << 8) >> 8);
      w.neg = static_cast<std::uint32_t>(st.diff_hai >> 56);
      w.prev_rtt = duration{st.prev_rtt};
      w.action = static_cast<timely_action>(st.bits >> 29);
      if (st.prev_rtt != 0) w.flags |= wide_config::have_prev;
      if (w.action != timely_action::none) w.flags |= wide_config::have_last;
      return w;
    }

    // The meter's rate, when one is stored (sent_known).
    constexpr void view_sent(const flow_state& st, wide_state& w) const noexcept {
      if (const std::uint32_t s = st.bits & sent_mask; s != 0) {
        w.flags |= wide_config::sent_known;
        w.sent = value_type::from_raw(
            static_cast<std::int64_t>(static_cast<std::uint64_t>(s - 1) << sent_shift_));
      }
    }

    // A clock's 64-bit time read back at `now` from its low 32 bits: a time up to
    // less than clock_step_back after now is a step back, any other lies up to 2^32 - 2^24 ns
    // before now.
    [[nodiscard]] static constexpr timestamp clock(std::uint32_t low, timestamp now) noexcept {
      const auto now_low = static_cast<std::uint32_t>(static_cast<std::uint64_t>(now.count()));
      const std::uint32_t fwd = now_low - low;  // now - t, modulo 2^32
      const std::int64_t back = (std::int64_t{1} << 32) - fwd;
      const std::int64_t d = fwd != 0 && back < clock_step_back ? -back : std::int64_t{fwd};
      std::int64_t t = 0;  // now - d, saturating
      if (__builtin_sub_overflow(now.count(), d, &t))
        t = d < 0 ? std::numeric_limits<std::int64_t>::max()
                  : std::numeric_limits<std::int64_t>::min();
      return timestamp{t};
    }

    // A completion (basic_timely's update) on the packed state, bit for bit unpack, update and
    // pack (the CompactEventIsTheQ32RuleOnItsUnpackedState property) without their full cost:
    // update() neither reads nor writes the meter's window opening and bytes, so those stay
    // packed (unpacked only when the §5 test reads them, meter on). Both round-trip through
    // unpack and pack unchanged while |now| < 2^62 (a clock read back as now - d, |d| < 2^32,
    // keeps its low 32 bits unless now - d saturates); nearer the ends of the clock the full
    // unpack and pack run. flatten: Algorithm 1 is inlined here, so the working state stays in
    // registers.
    template <class Allows>
    [[gnu::flatten]] constexpr void complete(flow_state& st, timestamp now, duration rtt,
                                             const Allows& allows) const noexcept {
      constexpr std::int64_t near_end = std::int64_t{1} << 62;
      if (now.count() >= near_end || now.count() <= -near_end) {
        wide_state w = unpack(st, now);
        q_.update(w, now, rtt, allows(w));
        st = pack(w);
        return;
      }
      wide_state w = view_rule_fields(st);
      if (w.action != timely_action::none) w.last = clock(st.last, now);
      if ((st.bits & meter_bit) != 0) {  // the §5 meter test reads the meter's fields
        w.flags |= wide_config::meter_on;
        w.meter_start = clock(st.meter_start, now);
        w.meter_bytes = st.meter_bytes;
        view_sent(st, w);
      }
      q_.update(w, now, rtt, allows(w));
      // pack()'s rules for the fields update() writes: rtt_diff and the HAI count, the rate,
      // prev_rtt (now a sample), the previous completion, the action and the held flag.
      std::int64_t d = w.rtt_diff.raw();
      d = d > diff_max ? diff_max : (d < -diff_max ? -diff_max : d);
      const std::uint32_t neg = w.neg < max_hai_threshold ? w.neg : max_hai_threshold;
      st.diff_hai = (static_cast<std::uint64_t>(d) & diff_mask) | (std::uint64_t{neg} << 56);
      st.rate = narrow_rate(w.rate);
      const std::int64_t p = rtt.count();  // w.prev_rtt, > 0
      st.prev_rtt = p >= max_rtt ? 0xFFFF'FFFFu : static_cast<std::uint32_t>(p);
      st.last = static_cast<std::uint32_t>(static_cast<std::uint64_t>(w.last.count()));
      // The meter's rate through view()'s and pack()'s rules (a count whose raw value passes
      // 2^63 reads back as 0, so it is not always kept as it was).
      std::uint32_t sent = st.bits & sent_mask;
      if (sent != 0) {
        const auto raw =
            static_cast<std::int64_t>(static_cast<std::uint64_t>(sent - 1) << sent_shift_);
        const std::uint64_t units = static_cast<std::uint64_t>(raw > 0 ? raw : 0) >> sent_shift_;
        sent = static_cast<std::uint32_t>(units < sent_mask - 1 ? units : sent_mask - 1) + 1;
      }
      st.bits = (static_cast<std::uint32_t>(w.action) << 29) | sent | (st.bits & meter_bit) |
                ((w.flags & wide_config::held) != 0 ? held_bit : 0u);
    }

    // The rate to its 32-bit count of 2^rate_shift() raw units: rounded to nearest, within
    // [rate_lo_, rate_hi_].
    [[nodiscard]] constexpr std::uint32_t narrow_rate(value_type rate) const noexcept {
      const auto r = static_cast<std::uint64_t>(rate.raw() > 0 ? rate.raw() : 0);
      const std::uint64_t units = (r + rate_half_) >> rate_shift_;
      return units < rate_lo_ ? rate_lo_
                              : (units > rate_hi_ ? rate_hi_ : static_cast<std::uint32_t>(units));
    }

    [[nodiscard]] constexpr wide_state unpack(const flow_state& st, timestamp now) const noexcept {
      wide_state w = view(st);
      w.last = clock(st.last, now);
      w.meter_start = clock(st.meter_start, now);
      return w;
    }

    [[nodiscard]] constexpr flow_state pack(const wide_state& w) const noexcept {
      flow_state st{};
      std::int64_t d = w.rtt_diff.raw();
      d = d > diff_max ? diff_max : (d < -diff_max ? -diff_max : d);
      const std::uint32_t neg = w.neg < max_hai_threshold ? w.neg : max_hai_threshold;
      st.diff_hai = (static_cast<std::uint64_t>(d) & diff_mask) | (std::uint64_t{neg} << 56);
      st.rate = narrow_rate(w.rate);
      if ((w.flags & wide_config::have_prev) != 0) {
        const std::int64_t p = w.prev_rtt.count();
        st.prev_rtt = p <= 0 ? 1u : (p >= max_rtt ? 0xFFFF'FFFFu : static_cast<std::uint32_t>(p));
      }
      st.last = static_cast<std::uint32_t>(static_cast<std::uint64_t>(w.last.count()));
      st.meter_start =
          static_cast<std::uint32_t>(static_cast<std::uint64_t>(w.meter_start.count()));
      st.meter_bytes = w.meter_bytes <= 0 ? 0u
                                          : (w.meter_bytes >= 0xFFFF'FFFF
                                                 ? 0xFFFF'FFFFu
                                                 : static_cast<std::uint32_t>(w.meter_bytes));
      std::uint32_t bits = static_cast<std::uint32_t>(w.action) << 29;
      if ((w.flags & wide_config::sent_known) != 0) {
        const auto s =
            static_cast<std::uint64_t>(w.sent.raw() > 0 ? w.sent.raw() : 0) >> sent_shift_;
        bits |= static_cast<std::uint32_t>(s < sent_mask - 1 ? s : sent_mask - 1) + 1;
      }
      if ((w.flags & wide_config::held) != 0) bits |= held_bit;
      if ((w.flags & wide_config::meter_on) != 0) bits |= meter_bit;
      st.bits = bits;
      return st;
    }

    wide_config q_;
    std::uint64_t rate_half_ = 0;  // half the rate's unit (narrow_rate's rounding), or 0
    int rate_shift_ = 0;
    int sent_shift_ = 0;
    std::uint32_t rate_lo_ = 0;
    std::uint32_t rate_hi_ = 0;
  };

  /// @brief Bytes of per-flow state (sizeof(flow_state)).
  static constexpr std::size_t state_bytes = sizeof(flow_state);

  /// @brief A controller with parameters `p` (invalid fields fall back to their defaults).
  constexpr explicit timely_compact(const timely_params& p = {}) noexcept
      : cfg_(p), s_(cfg_.initial_state()) {}

  /// @brief A completion with the §3.1 RTT (config::on_rtt on this flow).
  template <class E>
  requires RttFeedback<E>
  constexpr void on_rtt(const E& e) noexcept { cfg_.on_rtt(s_, e); }
  /// @brief As on_rtt(e), with the stack's sending rate (§5).
  template <class E>
  requires RttFeedback<E>
  constexpr void on_rtt(const E& e, bit_rate send_rate) noexcept { cfg_.on_rtt(s_, e, send_rate); }
  /// @brief An ACK completing a segment (config::on_ack).
  template <class E>
  requires(AckFeedback<E>&& RttFeedback<E>) constexpr void on_ack(const E& e) noexcept {
    cfg_.on_ack(s_, e);
  }
  /// @brief As on_ack(e), with the stack's sending rate (§5).
  template <class E>
  requires(AckFeedback<E>&& RttFeedback<E>) constexpr void on_ack(const E& e,
                                                                  bit_rate send_rate) noexcept {
    cfg_.on_ack(s_, e, send_rate);
  }
  /// @brief `b` bytes were sent at `now` (config::on_send).
  constexpr void on_send(bytes b, timestamp now) noexcept { cfg_.on_send(s_, b, now); }

  /// @brief The target rate, rounded to whole bps, in [min_rate, line_rate].
  [[nodiscard]] constexpr bit_rate rate() const noexcept { return cfg_.rate(s_); }
  /// @brief The pacing rate (= rate()).
  [[nodiscard]] constexpr bit_rate pacing_rate() const noexcept { return cfg_.pacing_rate(s_); }
  /// @brief The congestion window: bytes::max().
  [[nodiscard]] constexpr bytes cwnd() const noexcept { return cfg_.cwnd(); }
  /// @brief The rate in Mbps.
  [[nodiscard]] constexpr value_type rate_mbps() const noexcept { return cfg_.rate_mbps(s_); }
  /// @brief rtt_diff in microseconds (line 3).
  [[nodiscard]] constexpr value_type rtt_diff_us() const noexcept { return cfg_.rtt_diff_us(s_); }
  /// @brief normalized_gradient (line 4).
  [[nodiscard]] constexpr value_type gradient() const noexcept { return cfg_.gradient(s_); }
  /// @brief prev_rtt, saturated at max_rtt.
  [[nodiscard]] constexpr duration prev_rtt() const noexcept { return cfg_.prev_rtt(s_); }
  /// @brief Consecutive negative gradients, saturated at 255.
  [[nodiscard]] constexpr std::uint32_t negative_gradients() const noexcept {
    return cfg_.negative_gradients(s_);
  }
  /// @brief True when HAI is engaged.
  [[nodiscard]] constexpr bool hai() const noexcept { return cfg_.hai(s_); }
  /// @brief Which line of Algorithm 1 the latest completion ran.
  [[nodiscard]] constexpr timely_action last_action() const noexcept {
    return cfg_.last_action(s_);
  }
  /// @brief True when the latest completion's increase was withheld.
  [[nodiscard]] constexpr bool increase_held() const noexcept { return cfg_.increase_held(s_); }
  /// @brief The meter's last closed rate.
  [[nodiscard]] constexpr bit_rate send_rate() const noexcept { return cfg_.send_rate(s_); }
  /// @brief §3.3's static limit on outstanding data.
  [[nodiscard]] constexpr bytes outstanding_limit() const noexcept {
    return cfg_.outstanding_limit();
  }
  /// @brief The parameters in force.
  [[nodiscard]] constexpr timely_params params() const noexcept { return cfg_.params(); }
  /// @brief The configuration this controller runs (shareable with other flows).
  [[nodiscard]] constexpr const config& configuration() const noexcept { return cfg_; }
  /// @brief This flow's state.
  [[nodiscard]] constexpr const flow_state& state() const noexcept { return s_; }

 private:
  config cfg_;
  flow_state s_;
};

// Per-flow state budget of the compact form: 32 B (rtt_diff and the HAI count in one word; the
// rate, prev_rtt, two 32-bit wrapping clocks, the meter's bytes, and its rate with the flags and
// the last action, 32 bits each).
static_assert(sizeof(timely_compact::flow_state) <= 32,
              "timely_compact: per-flow state within 32 B");
static_assert(timely_compact::state_bytes == sizeof(timely_compact::flow_state));

}  // namespace netcc
