// SPDX-License-Identifier: MIT
/// @file
/// @brief Swift: additive increase while the measured delay is below a target delay, a
/// multiplicative decrease proportional to the excess at most once per RTT, a target scaled by
/// hop count and by the flow's window, windows below one packet enforced by pacing.
///
/// Paper: Gautam Kumar, Nandita Dukkipati, Keon Jang, Hassan M. G. Wassel, Xian Wu, Behnam
/// Montazeri, Yaogong Wang, Kevin Springborn, Christopher Alfeld, Michael Ryan, David Wetherall,
/// Amin Vahdat, "Swift: Delay is Simple and Effective for Congestion Control in the Datacenter",
/// ACM SIGCOMM 2020 (below: "the paper"). Section numbers are the paper's §3 (design):
/// §3.1 the delay measurement and its split into fabric and endpoint parts, §3.2 Algorithm 1,
/// §3.3 the fabric and endpoint windows, §3.4 large-scale incast (windows below one packet),
/// §3.5 scaling the fabric target delay, §3.6 loss recovery.
///
/// What is implemented, rule by rule (Algorithm 1 and the sections it refers to)
/// - Per ACK with an RTT sample (netcc::basic_swift::on_ack), Algorithm 1 "On Receiving ACK":
///   retransmit_cnt <- 0; target_delay <- TargetDelay(); if delay < target_delay, additive
///   increase: cwnd <- cwnd + ai / cwnd * num_acked when cwnd >= 1 (ai packets per RTT: a
///   window's worth of ACKs arrives per RTT), cwnd <- cwnd + ai * num_acked when cwnd < 1 (ai per
///   ACK, one ACK per pacing delay rtt / cwnd); else, if can_decrease, multiplicative
///   decrease cwnd <- max(1 - beta * (delay - target_delay) / delay, 1 - max_mdf) * cwnd, where
///   can_decrease = (now - t_last_decrease >= rtt): at most one decrease per RTT.
/// - Retransmission timeout (on_timeout), Algorithm 1 "On Retransmit Timeout": retransmit_cnt
///   <- retransmit_cnt + 1; if retransmit_cnt >= RETX_RESET_THRESHOLD, cwnd <- min_cwnd; else, if
///   can_decrease, cwnd <- (1 - max_mdf) * cwnd.
/// - Fast recovery (on_fast_recovery, or on_loss with the ACK that found the loss), Algorithm 1
///   "On Fast Recovery" (§3.6: SACK-based loss detection): retransmit_cnt <- 0; if
///   can_decrease, cwnd <- (1 - max_mdf) * cwnd.
/// - After every event: cwnd <- clamp(min_cwnd, cwnd, max_cwnd) (Algorithm 1), in packets,
///   fractional; min_cwnd down to 0.001 packets (§3.4).
/// - Pacing below one packet (§3.4, the last lines of Algorithm 1): pacing_delay <- rtt / cwnd
///   when cwnd < 1, else 0 (no pacing). netcc::basic_swift::pacing_delay gives the inter-packet
///   delay, netcc::basic_swift::pacing_rate the rate that spaces MSS-sized packets by it
///   (RTT * MSS / cwnd_bytes); bit_rate::max() means "not paced".
/// - The fabric target (§3.5): target = base_target + hops * h
///   + max(0, min(alpha / sqrt(fcwnd) + beta_fs, fs_range)), with
///   alpha = fs_range / (1 / sqrt(fs_min_cwnd) - 1 / sqrt(fs_max_cwnd)) and
///   beta_fs = -alpha / sqrt(fs_max_cwnd): the flow-scaling term is fs_range at fs_min_cwnd and
///   falls as 1 / sqrt(fcwnd) to 0 at fs_max_cwnd. The hop count comes from the event when its feedback
///   traits have `hop_count(e)` and it is non-zero (an INT stack's record count, or a hop count a
///   stack derives from the IP TTL as the paper does), otherwise from swift_params::hops.
/// - Fabric and endpoint windows (§3.3): when the event's traits have `endpoint_delay(e)`
///   (netcc::SwiftEndpointFeedback; the paper's endpoint delay is the remote queuing echoed in
///   the ACK plus the local NIC Rx delay, netcc::swift_ack_event), the endpoint delay drives
///   ecwnd against endpoint_target and fabric delay = RTT - endpoint delay drives fcwnd against
///   the scaled fabric target, each window by Algorithm 1 with its own t_last_decrease; the
///   window in force is min(fcwnd, ecwnd). An event without an endpoint delay (netcc::ack_event,
///   netcc::rtt_event) counts its whole RTT as fabric delay and leaves ecwnd alone. Timeouts and
///   fast recovery act on both windows.
///
/// Defaults (netcc::swift_params) and their sources
/// - min_cwnd = 0.001 packets: §3.4 ("a minimum of 0.001 packets").
/// - base_target = 50 us: the Bolt paper (NSDI'23, seed 001, §5.3 footnote 5) configures Swift
///   with "50 us base target delay as specified in the paper".
/// - fs_range = 200 us: the same footnote (Swift's flow-scaling range in Bolt's 25 Gbps testbed).
/// - fs_min_cwnd = 0.1 packets, fs_max_cwnd = 100 packets: the window range over which §3.5
///   scales the target (from a tenth of a packet, deep in the §3.4 incast regime, up to windows
///   that only few flows sharing a link reach).
/// - max_mdf = 0.5: a loss or timeout at most halves the window, as in TCP; the MD cut is bounded
///   the same way.
/// - beta = 0.8: the paper names the constant and gives no number here; netcc takes TIMELY's
///   multiplicative-decrease factor (seed 002, §6: beta = 0.8), Swift's predecessor's.
/// - ai = 1 packet per RTT: no number in the paper; TCP's congestion-avoidance increase (and
///   Bolt's fall-back additive increase, seed 001 §3.4: "cwnd is incremented once every RTT").
/// - RETX_RESET_THRESHOLD = 5 consecutive timeouts: named, not valued, by the paper; netcc.
/// - per-hop h = 1 us, hops = 0 (when the event has none), endpoint_target = 50 us,
///   init_cwnd = 10 packets (RFC 6928's initial window; Swift has no slow start),
///   max_cwnd = 10^6 packets, MSS = 1460 B: not in the paper; netcc's choices, to be set per
///   fabric (h is about one switch's propagation, serialisation and switching delay).
///
/// Decisions the paper leaves open (each tested in tests/control/swift_test.cpp)
/// - delay == target_delay: Algorithm 1's MD branch with a factor of exactly 1; netcc treats it
///   as no decrease (and does not restart the decrease clock).
/// - An event with RTT <= 0 carries no delay sample (netcc::ack_event's convention): it resets
///   retransmit_cnt (it is an ACK) and changes no window. An endpoint delay outside [0, RTT] is
///   clamped into it.
/// - num_acked = acked bytes / MSS (fractional; a duplicate ACK acknowledges 0); an event
///   without acked bytes counts as one packet. Negative counts count as 0. The fixed-point
///   policy holds num_acked up to 2^31 packets per ACK (more saturates there).
/// - The RTT that can_decrease compares with: the ACK's own sample on an ACK; the last sample
///   on a timeout or fast recovery (0, i.e. no wait, before the first sample). The pacing delay
///   uses the last sample, or base_target before the first one.
/// - The endpoint window starts, at the first endpoint-delay sample, as a copy of the fabric
///   window and its decrease clock (an event type without endpoint delays never limits cwnd).
/// - A clock that steps back (now before t_last_decrease) restarts the decrease clock at now.
/// - The fabric target is kept in whole ns: the flow-scaling term is rounded to the nearest ns.
///   An ACK whose fabric delay is below base_target + hops * h takes the AI rule whatever the
///   term (it is at least 0), so on_ack evaluates the term only for the other ACKs.
/// - Fixed point (netcc::arith::q32): every event is integer arithmetic without a square root
///   or a library 128-bit division (one hardware 128/64-bit division at most per window and
///   ACK, below). §3.5's alpha / sqrt(fcwnd) is alpha times an integer 1/sqrt (a
///   10-bit table seed and two Newton steps, netcc/core/rsqrt.hpp; relative error below 2^-36,
///   so the term is within term 2^-36 + 2^-32 (2 + 1/sqrt(fcwnd)) ns of the exact one before it
///   is rounded to whole ns; tests/control/swift_test.cpp checks this bound for any window and
///   curve). The additive increase is (ai num_acked) / cwnd rounded once to nearest, by one
///   128/64-bit hardware division (netcc::detail::udiv_128_64; a 64-bit quotient). The
///   divisions by the delay (the MD excess) and by the MSS (num_acked) go through reciprocals
///   built without a division instruction (netcc::ratio_recip, netcc::ratio_by): the same
///   values, bit for bit, as the fixed-point quotients. The windows agree with double within the rounding bound that
///   tests/control/swift_test.cpp states, on the same events.
/// - cwnd() in bytes is floor(cwnd_packets * MSS), at least 1 B (a sub-packet window still lets
///   the sender put one paced packet on the wire when nothing is in flight).
///
/// Deviations from the paper, and why
/// - Algorithm 1 writes "if cwnd <= cwnd_prev then t_last_decrease <- now". Read literally, an
///   ACK that leaves the window unchanged (the delay above target while can_decrease is false,
///   or the window pinned at a bound) restarts the clock, so with more than one ACK per RTT
///   under persistent congestion no second decrease would ever come, against the stated "once
///   every RTT". netcc restarts the clock when a decrease rule acts: the MD rule with delay above
///   target, a timeout's or fast recovery's cut, or the reset to min_cwnd. This also keeps the
///   double and fixed-point instantiations on the same decrease schedule (a value comparison
///   would depend on rounding).
/// - The flow-scaling term is evaluated at fcwnd clamped to [fs_min_cwnd, fs_max_cwnd], which
///   equals the paper's clamp of the term to [0, fs_range] (the term falls monotonically in
///   fcwnd) and never divides by the square root of a tiny window.
/// - Invalid parameters fall back to their defaults (the controller never fails); call
///   netcc::validate() to see them.
///
/// @code
/// using namespace netcc::literals;
/// netcc::swift cc{{.init_cwnd = 10, .base_target = 20_us, .per_hop = 1_us}};
/// // target = 20 us + 0 hops + flow scaling at 10 packets (14.12 us): 34.12 us > 15 us
/// cc.on_ack(netcc::ack_event{.now = netcc::timestamp{100'000}, .acked = 1460_B, .rtt = 15_us});
/// netcc::bytes w = cc.cwnd();          // 10.1 packets (+ ai / cwnd): 14746 B
/// netcc::bit_rate r = cc.pacing_rate();  // bit_rate::max(): not paced at cwnd >= 1
/// @endcode
#pragma once

#include <bit>
#include <cmath>
#include <concepts>
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

/// @brief Parameters of Swift, in the paper's units (windows in packets, fractional), with the
/// defaults the file comment lists with their sources.
/// @code
/// using namespace netcc::literals;
/// netcc::swift_params p{.base_target = 25_us, .per_hop = 2_us, .fs_range = 50_us};
/// // fabric target at fcwnd = fs_min_cwnd over 3 hops: 25 + 3 * 2 + 50 = 81 us
/// @endcode
struct swift_params {
  /// @brief Bytes per packet: cwnd() = window in packets * mss (netcc: 1460 B).
  bytes mss{1460};
  /// @brief Additive increment ai, packets per RTT, in [1e-6, 2^20] (Algorithm 1; netcc: 1).
  double ai = 1.0;
  /// @brief Multiplicative decrease constant beta in (0, 1] (Algorithm 1; netcc: 0.8).
  double beta = 0.8;
  /// @brief Maximum multiplicative decrease factor max_mdf in (0, 1] (Algorithm 1; 0.5).
  double max_mdf = 0.5;
  /// @brief Consecutive timeouts after which cwnd restarts at min_cwnd (Algorithm 1's
  /// RETX_RESET_THRESHOLD; netcc: 5).
  std::uint32_t retx_reset_threshold = 5;
  /// @brief Smallest window, packets (§3.4: 0.001).
  double min_cwnd = 0.001;
  /// @brief Largest window, packets (netcc: 10^6).
  double max_cwnd = 1'000'000.0;
  /// @brief Initial window, packets (netcc: 10).
  double init_cwnd = 10.0;
  /// @brief base_target of the fabric target delay (§3.5; 50 us, Bolt §5.3 footnote 5).
  duration base_target{50'000};
  /// @brief Per-hop scaling factor h of the fabric target (§3.5; netcc: 1 us).
  duration per_hop{1'000};
  /// @brief Hop count when the event reports none (§3.5 takes it from the TTL; netcc: 0).
  std::uint8_t hops = 0;
  /// @brief fs_range: the flow-scaling part of the target at fs_min_cwnd (§3.5; 200 us, Bolt
  /// §5.3 footnote 5). At most 1 s (the fixed-point policy computes it in ns).
  duration fs_range{200'000};
  /// @brief fs_min_cwnd: at or below this window the flow-scaling term is fs_range (§3.5; 0.1).
  double fs_min_cwnd = 0.1;
  /// @brief fs_max_cwnd: at or above this window the flow-scaling term is 0 (§3.5; 100).
  double fs_max_cwnd = 100.0;
  /// @brief Target of the endpoint delay (§3.3; netcc: 50 us).
  duration endpoint_target{50'000};
};

/// @brief The largest window, in packets, the controller accepts (headroom in the q32 range).
inline constexpr double swift_window_limit = 1073741824.0;  // 2^30
/// @brief The smallest window and fs_min_cwnd, in packets (4295 units of q32's resolution).
inline constexpr double swift_window_floor = 1e-6;

namespace detail {

// sqrt for doubles, usable in constant expressions (std::sqrt is not, under clang 14): Newton's
// iteration from above at compile time, std::sqrt at run time. 0 for x <= 0 and NaN.
constexpr double swift_sqrt(double x) noexcept {
  if (!(x > 0)) return 0.0;
  if (!std::is_constant_evaluated()) return std::sqrt(x);
  double r = x < 1 ? 1.0 : x;
  for (int i = 0; i < 2000; ++i) {
    const double next = 0.5 * (r + x / r);
    if (next >= r) break;  // monotone from above: converged
    r = next;
  }
  return r;
}

// floor(sqrt(v)), digit by digit (64-bit shifts, adds and compares only).
constexpr std::uint64_t swift_isqrt(std::uint64_t v) noexcept {
  if (v == 0) return 0;
  const int top = (static_cast<int>(std::bit_width(v)) - 1) & ~1;
  std::uint64_t bit = std::uint64_t{1} << top;  // the largest power of four <= v
  std::uint64_t r = 0;
  while (bit != 0) {
    if (v >= r + bit) {
      v -= r + bit;
      r = (r >> 1) + bit;
    } else {
      r >>= 1;
    }
    bit >>= 2;
  }
  return r;
}

// sqrt in number type T for x >= 0 (0 otherwise): doubles as above; netcc::fixed_point in
// integers: sqrt(raw * 2^F) = sqrt(raw * 2^s) * 2^((F - s) / 2), with raw * 2^s normalised to 61
// or 62 bits (s of F's parity) and its square root taken in 64 bits, so the result is rounded
// down with a relative error below 2^-30 (one 64-bit root instead of a 128-bit one); other
// types via double.
template <Number T>
constexpr T swift_sqrt_num(T x) noexcept {
  if constexpr (std::is_same_v<T, double>) {
    return swift_sqrt(x);
  } else if constexpr (is_fixed_point<T>) {
    if (!(x > T{})) return T{};
    const auto raw = static_cast<std::uint64_t>(x.raw());
    int s = 62 - static_cast<int>(std::bit_width(raw));
    if (((s - T::fraction_bits) & 1) != 0) --s;
    const std::uint64_t m = s >= 0 ? raw << s : raw >> -s;
    const std::uint64_t r = swift_isqrt(m);
    const int e = (T::fraction_bits - s) / 2;
    return T::from_raw(static_cast<std::int64_t>(e >= 0 ? r << e : r >> -e));
  } else {
    return number_traits<T>::from_double(swift_sqrt(number_traits<T>::to_double(x)));
  }
}

// x rounded to the nearest integer (halves up) for 0 <= x < 2^62 (fixed point in integers).
// Nearest, not floor: the ends of the flow-scaling curve (fs_range at fs_min_cwnd, 0 at
// fs_max_cwnd) are exact in real arithmetic and land within a rounding error of an integer in
// either policy; floor would turn fs_range - 2^-40 into fs_range - 1 ns.
template <Number T>
constexpr std::int64_t swift_round(T x) noexcept {
  if constexpr (is_fixed_point<T>) {
    return (x.raw() + (T::raw_one >> 1)) >> T::fraction_bits;
  } else {
    return static_cast<std::int64_t>(number_traits<T>::to_double(x) + 0.5);
  }
}

// floor(n / d) for n >= 0 and d > 0, saturating at 2^62 (fixed point in integers).
template <Number T>
constexpr std::int64_t swift_div_floor(std::int64_t n, T d) noexcept {
  constexpr std::int64_t cap = std::int64_t{1} << 62;
  if constexpr (is_fixed_point<T>) {
    const i128 q = i128{n} * T::raw_one / d.raw();
    return q > cap ? cap : static_cast<std::int64_t>(q);
  } else {
    const double q = static_cast<double>(n) / number_traits<T>::to_double(d);
    return q < static_cast<double>(cap) ? static_cast<std::int64_t>(q) : cap;
  }
}

// a + b saturating at the int64 ends (the value of saturate_i64(i128{a} + b) in 64 bits).
constexpr std::int64_t swift_add(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t r = 0;
  if (!__builtin_add_overflow(a, b, &r)) return r;
  return a > 0 ? std::numeric_limits<std::int64_t>::max()
               : std::numeric_limits<std::int64_t>::min();
}

// a - b saturating at the int64 ends (the value of saturate_i64(i128{a} - b) in 64 bits).
constexpr std::int64_t swift_sub(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t r = 0;
  if (!__builtin_sub_overflow(a, b, &r)) return r;
  return a >= 0 ? std::numeric_limits<std::int64_t>::max()
                : std::numeric_limits<std::int64_t>::min();
}

// alpha of §3.5 for valid fs_min_cwnd < fs_max_cwnd.
constexpr double swift_fs_alpha(double fs_range_ns, double fs_min, double fs_max) noexcept {
  return fs_range_ns / (1.0 / swift_sqrt(fs_min) - 1.0 / swift_sqrt(fs_max));
}

// The flow-scaling curve stays inside the q32 range: alpha and the largest quotient the curve
// takes, alpha / sqrt(fs_min_cwnd), at most 2^31 - 1 ns (else the fixed-point quotient would
// saturate and, with beta_fs added, fall below fs_range where double does not).
constexpr bool swift_fs_fits(double fs_range_ns, double fs_min, double fs_max) noexcept {
  constexpr double lim = 2147483647.0;
  const double alpha = swift_fs_alpha(fs_range_ns, fs_min, fs_max);
  return alpha <= lim && alpha / swift_sqrt(fs_min) <= lim;
}

}  // namespace detail

/// @brief Check Swift parameters; every error names "swift.<field>", the value and the rule.
/// @code
/// auto v = netcc::validate(netcc::swift_params{.max_mdf = 0});
/// // v[0].message() == "swift.max_mdf = 0: must be in (0, 1]"
/// @endcode
[[nodiscard]] inline validation validate(const swift_params& p) {
  validation v;
  v.check(p.mss >= bytes{1} && p.mss <= bytes{65535}, "swift.mss", p.mss,
          "must be in [1, 65535] B");
  v.check(p.ai >= 1e-6 && p.ai <= 1048576.0, "swift.ai", p.ai,
          "must be in [1e-06, 1048576] packets per RTT");
  v.check(p.beta > 0 && p.beta <= 1, "swift.beta", p.beta, "must be in (0, 1]");
  v.check(p.max_mdf > 0 && p.max_mdf <= 1, "swift.max_mdf", p.max_mdf, "must be in (0, 1]");
  v.check(p.retx_reset_threshold >= 1, "swift.retx_reset_threshold", p.retx_reset_threshold,
          "must be at least 1");
  v.check(p.min_cwnd >= swift_window_floor && p.min_cwnd <= swift_window_limit, "swift.min_cwnd",
          p.min_cwnd, "must be in [1e-06, 1073741824] packets");
  v.check(p.max_cwnd >= swift_window_floor && p.max_cwnd <= swift_window_limit, "swift.max_cwnd",
          p.max_cwnd, "must be in [1e-06, 1073741824] packets (2^30: the q32 range)");
  v.check(!(p.max_cwnd < p.min_cwnd), "swift.max_cwnd", p.max_cwnd, "must be at least min_cwnd");
  v.check(p.init_cwnd >= p.min_cwnd && p.init_cwnd <= p.max_cwnd, "swift.init_cwnd", p.init_cwnd,
          "must be within [min_cwnd, max_cwnd]");
  v.check(p.base_target > duration::zero(), "swift.base_target", p.base_target, "must be positive");
  v.check(p.per_hop >= duration::zero(), "swift.per_hop", p.per_hop, "must be non-negative");
  v.check(p.fs_range >= duration::zero() && p.fs_range <= duration{1'000'000'000}, "swift.fs_range",
          p.fs_range, "must be in [0, 1 s]");
  v.check(p.fs_min_cwnd >= swift_window_floor && p.fs_min_cwnd <= swift_window_limit,
          "swift.fs_min_cwnd", p.fs_min_cwnd, "must be in [1e-06, 1073741824] packets");
  const bool order = p.fs_max_cwnd > p.fs_min_cwnd && p.fs_max_cwnd <= swift_window_limit;
  v.check(order, "swift.fs_max_cwnd", p.fs_max_cwnd,
          "must be above fs_min_cwnd and at most 1073741824 packets");
  if (order && p.fs_min_cwnd >= swift_window_floor && p.fs_range >= duration::zero() &&
      p.fs_range <= duration{1'000'000'000}) {
    v.check(detail::swift_fs_fits(static_cast<double>(p.fs_range.count()), p.fs_min_cwnd,
                                  p.fs_max_cwnd),
            "swift.fs_max_cwnd", p.fs_max_cwnd,
            "too close to fs_min_cwnd: alpha = fs_range / (1/sqrt(fs_min_cwnd) - "
            "1/sqrt(fs_max_cwnd)) and alpha / sqrt(fs_min_cwnd) must be at most 2^31 - 1 ns "
            "(the q32 range)");
  }
  v.check(p.endpoint_target > duration::zero(), "swift.endpoint_target", p.endpoint_target,
          "must be positive");
  return v;
}

/// @brief An ACK as a Swift stack sees it (§3.1): the RTT, the endpoint-delay components the
/// paper measures with NIC timestamps, the acknowledged bytes and the forward hop count.
///
/// endpoint delay = remote_queuing (echoed by the receiver in the ACK) + local_rx_delay (the
/// local NIC's receive delay); fabric delay = rtt - endpoint delay (§3.1, §3.3).
/// @code
/// using namespace netcc::literals;
/// netcc::swift_ack_event a{.now = netcc::timestamp{90'000}, .rtt = 30_us,
///                          .remote_queuing = 4_us, .local_rx_delay = 1_us,
///                          .acked = 1460_B, .hops = 3};
/// // endpoint delay 5 us, fabric delay 25 us
/// @endcode
struct swift_ack_event {
  /// @brief Arrival time of the ACK.
  timestamp now{};
  /// @brief The RTT sample (zero when there is none).
  duration rtt{};
  /// @brief Remote queuing delay echoed in the ACK.
  duration remote_queuing{};
  /// @brief Local NIC receive delay of the ACK.
  duration local_rx_delay{};
  /// @brief Bytes newly acknowledged.
  bytes acked{};
  /// @brief Forward-path hop count (0 when unknown).
  std::uint8_t hops = 0;
};

/// @brief Traits for netcc::swift_ack_event.
template <>
struct feedback_traits<swift_ack_event> {
  /// @brief Arrival time.
  static constexpr timestamp now(const swift_ack_event& e) noexcept { return e.now; }
  /// @brief RTT sample.
  static constexpr duration rtt(const swift_ack_event& e) noexcept { return e.rtt; }
  /// @brief Endpoint delay: remote queuing + local NIC Rx delay (saturating).
  static constexpr duration endpoint_delay(const swift_ack_event& e) noexcept {
    return duration{detail::swift_add(e.remote_queuing.count(), e.local_rx_delay.count())};
  }
  /// @brief Newly acknowledged bytes.
  static constexpr bytes acked_bytes(const swift_ack_event& e) noexcept { return e.acked; }
  /// @brief Forward-path hop count.
  static constexpr std::size_t hop_count(const swift_ack_event& e) noexcept { return e.hops; }
};

/// @brief The event carries the endpoint part of its RTT (§3.3): Swift then runs the endpoint
/// window as well.
template <class E>
concept SwiftEndpointFeedback = RttFeedback<E> && requires(const E& e) {
  { feedback_traits<E>::endpoint_delay(e) } -> std::convertible_to<duration>;
};

/// @brief The event says how many hops its path has (INT record count, or a TTL-derived count).
template <class E>
concept HopCountFeedback = requires(const E& e) {
  { feedback_traits<E>::hop_count(e) } -> std::convertible_to<std::size_t>;
};

static_assert(SwiftEndpointFeedback<swift_ack_event> && HopCountFeedback<swift_ack_event>);
static_assert(!SwiftEndpointFeedback<ack_event> && HopCountFeedback<ack_event>);

/// @brief Which rule of Algorithm 1 the latest event ran on a window (basic_swift::last_branch,
/// basic_swift::last_endpoint_branch): the decision record the double and q32 policies are
/// checked to agree on (tests/control/swift_test.cpp). One byte of per-flow state per window.
/// @code
/// if (cc.last_branch() == netcc::swift_branch::decrease) { /* MD on this ACK */ }
/// @endcode
enum class swift_branch : std::uint8_t {
  none,      ///< no event yet on this window (or an ACK without a delay sample)
  increase,  ///< ACK, delay < target: AI
  decrease,  ///< ACK, delay > target and can_decrease: MD
  hold,      ///< ACK, delay == target, or delay > target but not can_decrease
  cut,       ///< timeout or fast recovery with can_decrease: cwnd (1 - max_mdf)
  no_cut,    ///< timeout or fast recovery without can_decrease: no change
  reset,     ///< retransmit_cnt >= RETX_RESET_THRESHOLD: cwnd = min_cwnd
};

class swift_compact;

/// @brief Swift's sender (the paper's Algorithm 1 with §3.3-3.6) over arithmetic policy `Policy`.
///
/// Windows are kept in packets (fractional). After any event sequence the windows are finite and
/// within [min_cwnd, max_cwnd], each window decreases at most once per RTT through Algorithm 1's
/// can_decrease (the reset after RETX_RESET_THRESHOLD timeouts excepted), and an ACK whose delay
/// is below its target never decreases its window. No allocation, no virtual functions, no clock
/// reads.
/// @tparam Policy netcc::arith::ieee_double or a fixed-point policy such as netcc::arith::q32
/// (integer arithmetic per event, square root included)
/// @code
/// using namespace netcc::literals;
/// netcc::basic_swift<netcc::arith::q32> cc{{.init_cwnd = 0.5}};
/// // below one packet: one packet every rtt / cwnd = 2 RTTs (base_target before a sample)
/// netcc::duration gap = cc.pacing_delay();   // 100 us
/// @endcode
template <ArithmeticPolicy Policy = arith::ieee_double>
class basic_swift {
 public:
  /// @brief The number type of the windows.
  using value_type = typename Policy::value_type;

  /// @brief The parameter struct.
  using params_type = swift_params;
  /// @brief Events consumed (netcc::controller_traits): ACKs, losses (fast recovery) and
  /// retransmission timeouts.
  static constexpr event_set events = cc_event::ack | cc_event::loss | cc_event::timeout;

  /// @brief One flow's state (trivially copyable): the two windows, their decrease clocks, the
  /// last RTT, retransmit_cnt, flags and the latest rules; everything else is config, shared
  /// by a class of flows. Read and change it through config.
  struct flow_state {
    value_type fcwnd{};                          ///< fabric window, packets
    value_type ecwnd{};                          ///< endpoint window, packets
    timestamp f_last{};                          ///< t_last_decrease of fcwnd
    timestamp e_last{};                          ///< t_last_decrease of ecwnd
    duration rtt{};                              ///< the last RTT sample
    std::uint32_t retransmits = 0;               ///< retransmit_cnt
    std::uint8_t flags = 0;                      ///< have_rtt, f_decreased, e_decreased, endpoint
    swift_branch f_branch = swift_branch::none;  ///< the latest rule run on fcwnd
    swift_branch e_branch = swift_branch::none;  ///< the latest rule run on ecwnd
  };
  static_assert(std::is_trivially_copyable_v<flow_state>);

  /// @brief What a class of flows shares: the parameters (invalid fields fallen back) and the
  /// numbers derived from them, with Algorithm 1 as members taking one flow's state.
  /// @code
  /// const netcc::basic_swift<netcc::arith::q32>::config cfg{{.init_cwnd = 10}};
  /// std::vector<netcc::basic_swift<netcc::arith::q32>::flow_state> flows(1000,
  ///                                                                     cfg.initial_state());
  /// cfg.on_ack(flows[7], netcc::ack_event{.now = netcc::timestamp{100'000},
  ///                                       .acked = netcc::bytes{1460},
  ///                                       .rtt = netcc::duration{15'000}});
  /// netcc::bytes w = cfg.cwnd(flows[7]);  // 10.1 packets
  /// @endcode
  class config {
   public:
    /// @brief The configuration for parameters `p` (unchecked: invalid fields fall back to
    /// their defaults; netcc::validate reports them).
    constexpr explicit config(const swift_params& p = {}) noexcept : params_(sanitise(p)) {
      ai_ = num<value_type>(params_.ai);
      beta_ = num<value_type>(params_.beta);
      keep_ = num<value_type>(1.0 - params_.max_mdf);
      // The bounds round toward the inside of [min_cwnd, max_cwnd] (netcc::num_up / num_down),
      // so a clamped window never lies past them: q32's nearest value to 0.001 is below it. If
      // both round past each other (min_cwnd == max_cwnd between two q32 values), the floor wins.
      min_ = num_up<value_type>(params_.min_cwnd);
      max_ = num_down<value_type>(params_.max_cwnd);
      if (max_ < min_) max_ = min_;
      fs_min_ = num<value_type>(params_.fs_min_cwnd);
      fs_max_ = num<value_type>(params_.fs_max_cwnd);
      const double alpha = detail::swift_fs_alpha(static_cast<double>(params_.fs_range.count()),
                                                  params_.fs_min_cwnd, params_.fs_max_cwnd);
      fs_alpha_ = num<value_type>(alpha);
      fs_beta_ = num<value_type>(-alpha / detail::swift_sqrt(params_.fs_max_cwnd));
      fs_range_ = number_traits<value_type>::from_int(params_.fs_range.count());
      mss_div_ = detail::invariant_divisor{static_cast<std::uint64_t>(params_.mss.count())};
      if constexpr (detail::is_fixed_point<value_type>) {
        if (params_.mss.count() < (std::int64_t{1} << 62))
          mss_u64_ = detail::divisor_u64{static_cast<std::uint64_t>(params_.mss.count())};
      }
    }

    /// @brief A new flow's state: both windows at init_cwnd, no RTT sample, no decrease yet.
    [[nodiscard]] constexpr flow_state initial_state() const noexcept {
      flow_state st{};
      init(st);
      return st;
    }
    /// @brief Reset `st` to a new flow's state.
    constexpr void init(flow_state& st) const noexcept {
      st = flow_state{};
      st.fcwnd = clamp_window(num<value_type>(params_.init_cwnd));
      st.ecwnd = st.fcwnd;
    }

    /// @brief Algorithm 1 "On Receiving ACK" for the fabric window, and for the endpoint window
    /// when the event carries an endpoint delay (§3.3).
    /// @param st the flow's state (updated)
    /// @param e an event with an RTT sample; acked bytes (acked_bytes), a hop count (hop_count)
    /// and an endpoint delay (endpoint_delay) are used when its traits have them
    template <class E>
    requires RttFeedback<E>
    constexpr void on_ack(flow_state& st, const E& e) const noexcept {
      using ft = feedback_traits<E>;
      st.retransmits = 0;  // retransmit_cnt <- 0
      const duration rtt = ft::rtt(e);
      if (rtt <= duration::zero()) {  // no delay sample
        st.f_branch = swift_branch::none;
        return;
      }
      const timestamp now = ft::now(e);
      st.rtt = rtt;
      st.flags |= have_rtt;
      const value_type n = acked_packets(e);
      // TargetDelay() at the current fcwnd: base_target + hops * h, then the flow-scaling term.
      const std::int64_t hop_part = hop_target(hops_of(e));
      duration fabric = rtt;
      if constexpr (SwiftEndpointFeedback<E>) {
        duration ed = ft::endpoint_delay(e);
        if (ed < duration::zero()) ed = duration::zero();
        if (ed > rtt) ed = rtt;
        fabric = rtt - ed;             // §3.3: fabric delay = RTT - endpoint delay
        if (!(st.flags & endpoint)) {  // the first endpoint sample: ecwnd starts as fcwnd
          st.ecwnd = st.fcwnd;
          st.e_last = st.f_last;
          if (st.flags & f_decreased) st.flags |= e_decreased;
          st.flags |= endpoint;
        }
        react(st, st.ecwnd, st.e_last, e_decreased, st.e_branch, ed, params_.endpoint_target, n,
              now, rtt);
      }
      // The flow-scaling term (§3.5) is at least 0, so a fabric delay below base_target + hops *
      // h is below the whole target: the AI rule then runs, and reads nothing else of the
      // target, so the term (a square root of the window) is computed only when the comparison
      // needs it; the same branch and window, bit for bit. fcwnd is still the window this ACK
      // found (the endpoint rule above changes only ecwnd).
      const duration target{
          fabric.count() < hop_part ? hop_part : fabric_target_for(st, hop_part, fabric, now, rtt)};
      react(st, st.fcwnd, st.f_last, f_decreased, st.f_branch, fabric, target, n, now, rtt);
    }

    /// @brief Algorithm 1 "On Retransmit Timeout": retransmit_cnt + 1; at RETX_RESET_THRESHOLD
    /// every window restarts at min_cwnd, below it each window is cut by (1 - max_mdf) if it may
    /// decrease (can_decrease against the last RTT sample).
    constexpr void on_timeout(flow_state& st, timestamp now) const noexcept {
      if (st.retransmits < 0xFFFF'FFFFu) ++st.retransmits;
      if (st.retransmits >= params_.retx_reset_threshold) {
        reset(st, st.fcwnd, st.f_last, f_decreased, st.f_branch, now);
        if (st.flags & endpoint) reset(st, st.ecwnd, st.e_last, e_decreased, st.e_branch, now);
        return;
      }
      cut(st, st.fcwnd, st.f_last, f_decreased, st.f_branch, now);
      if (st.flags & endpoint) cut(st, st.ecwnd, st.e_last, e_decreased, st.e_branch, now);
    }

    /// @brief Algorithm 1 "On Fast Recovery" (§3.6: a loss found by SACK / duplicate ACKs):
    /// retransmit_cnt <- 0; each window cut by (1 - max_mdf) if it may decrease.
    constexpr void on_fast_recovery(flow_state& st, timestamp now) const noexcept {
      st.retransmits = 0;
      cut(st, st.fcwnd, st.f_last, f_decreased, st.f_branch, now);
      if (st.flags & endpoint) cut(st, st.ecwnd, st.e_last, e_decreased, st.e_branch, now);
    }

    /// @brief A loss detected on ACK `e` (three duplicate ACKs or a SACK hole): fast recovery at
    /// the ACK's time, as on_fast_recovery.
    template <class E>
    requires TimedFeedback<E>
    constexpr void on_loss(flow_state& st, const E& e) const noexcept {
      on_fast_recovery(st, feedback_traits<E>::now(e));
    }

    /// @brief The window in force in packets: min(fcwnd, ecwnd) once endpoint delays arrive, else
    /// fcwnd; in [min_cwnd, max_cwnd].
    [[nodiscard]] constexpr value_type window(const flow_state& st) const noexcept {
      return (st.flags & endpoint) && st.ecwnd < st.fcwnd ? st.ecwnd : st.fcwnd;
    }
    /// @brief The fabric window fcwnd, packets.
    [[nodiscard]] constexpr value_type fabric_window(const flow_state& st) const noexcept {
      return st.fcwnd;
    }
    /// @brief The rule of Algorithm 1 the latest event ran on the fabric window.
    [[nodiscard]] constexpr swift_branch last_branch(const flow_state& st) const noexcept {
      return st.f_branch;
    }
    /// @brief The rule of Algorithm 1 the latest event ran on the endpoint window (none before
    /// the first endpoint delay).
    [[nodiscard]] constexpr swift_branch last_endpoint_branch(const flow_state& st) const noexcept {
      return st.e_branch;
    }
    /// @brief The endpoint window ecwnd, packets (a copy of fcwnd until the first endpoint delay).
    [[nodiscard]] constexpr value_type endpoint_window(const flow_state& st) const noexcept {
      return (st.flags & endpoint) ? st.ecwnd : st.fcwnd;
    }
    /// @brief Whether an endpoint delay has arrived (the endpoint window is in force).
    [[nodiscard]] constexpr bool endpoint_active(const flow_state& st) const noexcept {
      return (st.flags & endpoint) != 0;
    }
    /// @brief The congestion window in bytes: floor(window(st) * mss), at least 1 B.
    [[nodiscard]] constexpr bytes cwnd(const flow_state& st) const noexcept {
      const double b = to_double(window(st)) * static_cast<double>(params_.mss.count());
      return bytes{b >= 1 ? static_cast<std::int64_t>(b) : 1};
    }
    /// @brief The inter-packet delay (§3.4): last RTT / window(st) when window(st) < 1 packet (the
    /// base target before the first RTT sample), zero (no pacing) otherwise.
    [[nodiscard]] constexpr duration pacing_delay(const flow_state& st) const noexcept {
      const value_type w = window(st);
      if (!(w < num<value_type>(1))) return duration::zero();
      const duration rtt = (st.flags & have_rtt) ? st.rtt : params_.base_target;
      return duration{detail::swift_div_floor(rtt.count(), w)};
    }
    /// @brief The pacing rate that spaces MSS-sized packets by pacing_delay(st) (MSS * cwnd / RTT,
    /// §3.4), rounded toward zero but at least netcc::min_pacing_rate (1 bps); bit_rate::max()
    /// when not pacing (window(st) >= 1 packet). The window never falls below min_cwnd > 0, so it
    /// is always open, and a rate of 0 bps ("never send") from a tiny window over an RTT of
    /// hours would contradict it; 1 bps is the nearest rate that still sends.
    [[nodiscard]] constexpr bit_rate pacing_rate(const flow_state& st) const noexcept {
      const duration d = pacing_delay(st);
      if (d <= duration::zero()) return bit_rate::max();
      const bit_rate r = params_.mss / d;
      return r < min_pacing_rate ? min_pacing_rate : r;
    }
    /// @brief The fabric target delay (§3.5) for `hops` hops at the current fcwnd:
    /// base_target + hops * h + max(0, min(alpha / sqrt(fcwnd) + beta_fs, fs_range)), in whole
    /// ns (the flow-scaling term rounded to nearest); hop counts above 255 count as 255.
    [[nodiscard]] constexpr duration fabric_target(const flow_state& st,
                                                   std::size_t hops) const noexcept {
      return duration{detail::swift_add(hop_target(hops), flow_scaling(st.fcwnd))};
    }
    /// @brief The fabric target with the configured hop count (swift_params::hops).
    [[nodiscard]] constexpr duration fabric_target(const flow_state& st) const noexcept {
      return fabric_target(st, params_.hops);
    }
    /// @brief The endpoint target delay (§3.3).
    [[nodiscard]] constexpr duration endpoint_target() const noexcept {
      return params_.endpoint_target;
    }
    /// @brief The last RTT sample (zero before the first).
    [[nodiscard]] constexpr duration rtt(const flow_state& st) const noexcept { return st.rtt; }
    /// @brief retransmit_cnt: consecutive timeouts since the last ACK or fast recovery.
    [[nodiscard]] constexpr std::uint32_t retransmit_count(const flow_state& st) const noexcept {
      return st.retransmits;
    }
    /// @brief Whether the fabric window may decrease at `now` (Algorithm 1's can_decrease,
    /// against `rtt`): no decrease yet, or now - t_last_decrease >= rtt.
    [[nodiscard]] constexpr bool can_decrease(const flow_state& st, timestamp now,
                                              duration rtt) const noexcept {
      if (!(st.flags & f_decreased)) return true;
      const std::int64_t since =
          detail::saturate_i64(detail::i128{now.count()} - st.f_last.count());
      return (since < 0 ? std::int64_t{0} : since) >= rtt.count();  // a step back restarts
    }
    /// @brief The parameters in force (after invalid fields fell back).
    [[nodiscard]] constexpr const swift_params& params() const noexcept { return params_; }

   private:
    friend class swift_compact;  // packs and unpacks these flags
    enum : std::uint8_t { have_rtt = 1, f_decreased = 2, e_decreased = 4, endpoint = 8 };

    static constexpr swift_params sanitise(swift_params p) noexcept {
      const swift_params d{};
      if (!(p.mss >= bytes{1} && p.mss <= bytes{65535})) p.mss = d.mss;
      if (!(p.ai >= 1e-6 && p.ai <= 1048576.0)) p.ai = d.ai;
      if (!(p.beta > 0 && p.beta <= 1)) p.beta = d.beta;
      if (!(p.max_mdf > 0 && p.max_mdf <= 1)) p.max_mdf = d.max_mdf;
      if (p.retx_reset_threshold < 1) p.retx_reset_threshold = d.retx_reset_threshold;
      if (!(p.min_cwnd >= swift_window_floor && p.min_cwnd <= swift_window_limit))
        p.min_cwnd = d.min_cwnd;
      if (!(p.max_cwnd >= swift_window_floor && p.max_cwnd <= swift_window_limit))
        p.max_cwnd = d.max_cwnd;
      if (p.max_cwnd < p.min_cwnd) p.max_cwnd = p.min_cwnd;
      if (!(p.init_cwnd >= p.min_cwnd && p.init_cwnd <= p.max_cwnd))
        p.init_cwnd = d.init_cwnd < p.min_cwnd
                          ? p.min_cwnd
                          : (d.init_cwnd > p.max_cwnd ? p.max_cwnd : d.init_cwnd);
      if (p.base_target <= duration::zero()) p.base_target = d.base_target;
      if (p.per_hop < duration::zero()) p.per_hop = d.per_hop;
      if (p.endpoint_target <= duration::zero()) p.endpoint_target = d.endpoint_target;
      bool fs_ok = p.fs_range >= duration::zero() && p.fs_range <= duration{1'000'000'000} &&
                   p.fs_min_cwnd >= swift_window_floor && p.fs_min_cwnd <= swift_window_limit &&
                   p.fs_max_cwnd > p.fs_min_cwnd && p.fs_max_cwnd <= swift_window_limit;
      if (fs_ok)
        fs_ok = detail::swift_fs_fits(static_cast<double>(p.fs_range.count()), p.fs_min_cwnd,
                                      p.fs_max_cwnd);
      if (!fs_ok) {  // the three define one curve: fall back together
        p.fs_range = d.fs_range;
        p.fs_min_cwnd = d.fs_min_cwnd;
        p.fs_max_cwnd = d.fs_max_cwnd;
      }
      return p;
    }

    [[nodiscard]] constexpr value_type clamp_window(value_type w) const noexcept {
      return clamp_num(w, min_, max_);  // cwnd <- clamp(min_cwnd, cwnd, max_cwnd)
    }

    // base_target + hops * h in ns (hop counts above 255 count as 255), saturating: the fabric
    // target without its flow-scaling term.
    [[nodiscard]] constexpr std::int64_t hop_target(std::size_t hops) const noexcept {
      const auto h = static_cast<std::int64_t>(hops < 255 ? hops : 255);
      std::int64_t topo = 0;  // h * per_hop, saturating (h in [0, 255])
      if (__builtin_mul_overflow(h, params_.per_hop.count(), &topo))
        topo = params_.per_hop.count() < 0 ? std::numeric_limits<std::int64_t>::min()
                                           : std::numeric_limits<std::int64_t>::max();
      return detail::swift_add(params_.base_target.count(), topo);
    }

    // The fabric target react() is given for a fabric delay at or above base_target + hops * h
    // (hop_part). Fixed point: an estimate of the flow-scaling term from rsqrt's table seed
    // (detail::mul_rsqrt_estimate, without the two Newton steps whose latency would delay the
    // AI / MD branch) bounds the exact target within [lo, hi]. A delay below lo takes the AI
    // rule and one above hi, when the window may not decrease, the hold rule; neither reads
    // the target beyond that comparison, so lo or hi stands in for it: the same branch and
    // window, bit for bit. A delay within [lo, hi], or above hi with a decrease due (the MD
    // rule reads the target), gets the exact one. Range proof of [lo, hi]: with est the
    // estimate's raw value, the exact scaled term differs from it by less than est 2^-9 + 3
    // raw units; adding beta_fs (saturating) and clamping to [0, fs_range] move both by the
    // same or less, and rounding each to whole ns adds under 1 ns: the terms differ by less
    // than est 2^-(9+F) + 2 ns, below margin = est 2^-(8+F) + 4 ns. hop_part plus a term is
    // monotone in the term (swift_add saturates), so lo = hop_part + (term_est - margin) <=
    // target <= hop_part + (term_est + margin) = hi. The decrease test is may_decrease's value
    // (rtt > 0: a clock that stepped back is not due) without its restart of the clock, which
    // react then runs. Double: the exact target.
    [[nodiscard]] constexpr std::int64_t fabric_target_for(const flow_state& st,
                                                           std::int64_t hop_part, duration fabric,
                                                           timestamp now,
                                                           duration rtt) const noexcept {
      if constexpr (detail::is_fixed_point<value_type>) {
        constexpr int fb = value_type::fraction_bits;
        const value_type c = clamp_num(st.fcwnd, fs_min_, fs_max_);
        const std::uint64_t est = detail::mul_rsqrt_estimate(
            static_cast<std::uint64_t>(fs_alpha_.raw()), static_cast<std::uint64_t>(c.raw()), fb);
        const std::int64_t t = fs_term_ns(est);                              // in [0, fs_range]
        const auto margin = static_cast<std::int64_t>(est >> (8 + fb)) + 4;  // < 2^24
        const std::int64_t lo = detail::swift_add(hop_part, t - margin);
        if (fabric.count() < lo) return lo;
        const std::int64_t hi = detail::swift_add(hop_part, t + margin);
        if (fabric.count() > hi) {
          bool due = !(st.flags & f_decreased);
          if (!due) {
            std::int64_t since = 0;  // now - t_last_decrease, saturating
            if (__builtin_sub_overflow(now.count(), st.f_last.count(), &since))
              since = now.count() < st.f_last.count() ? std::numeric_limits<std::int64_t>::min()
                                                      : std::numeric_limits<std::int64_t>::max();
            due = since >= rtt.count();
          }
          if (!due) return hi;
        }
      }
      return detail::swift_add(hop_part, flow_scaling(st.fcwnd));
    }

    // Fixed point: swift_round(clamp_num(from_raw(scaled) + fs_beta_, 0, fs_range_)) for a raw
    // alpha / sqrt(c) `scaled` below 2^63, on raw integers: from_raw(scaled) is scaled, and
    // scaled + beta_fs (beta_fs <= 0) neither overflows nor passes -raw_max, so operator+ and
    // from_raw add nothing to the plain sum; the same value without their tests.
    [[nodiscard]] constexpr std::int64_t fs_term_ns(std::uint64_t scaled) const noexcept {
      constexpr int fb = value_type::fraction_bits;
      std::int64_t r = static_cast<std::int64_t>(scaled) + fs_beta_.raw();
      r = r < 0 ? 0 : (r > fs_range_.raw() ? fs_range_.raw() : r);
      return (r + (value_type::raw_one >> 1)) >> fb;
    }

    // §3.5 flow-based scaling, in ns, rounded to nearest: max(0, min(alpha / sqrt(c) + beta_fs,
    // fs_range)) with c = fcwnd clamped to [fs_min_cwnd, fs_max_cwnd] (file comment).
    [[nodiscard]] constexpr std::int64_t flow_scaling(value_type fcwnd) const noexcept {
      const value_type c = clamp_num(fcwnd, fs_min_, fs_max_);
      if constexpr (detail::is_fixed_point<value_type>) {
        // alpha / sqrt(c) in integers, no square root or division: table seed and two Newton
        // steps for 1/sqrt(c) (netcc/core/rsqrt.hpp), relative error below 2^-36 (file comment).
        return fs_term_ns(detail::mul_rsqrt(static_cast<std::uint64_t>(fs_alpha_.raw()),
                                            static_cast<std::uint64_t>(c.raw()),
                                            value_type::fraction_bits));
      } else {
        const value_type scaled = fs_alpha_ / detail::swift_sqrt_num(c);  // sqrt(c) > 0
        return detail::swift_round(clamp_num(scaled + fs_beta_, value_type{}, fs_range_));
      }
    }

    // num_acked in packets: acked bytes / MSS (one packet for an event without acked bytes).
    template <class E>
    [[nodiscard]] constexpr value_type acked_packets(const E& e) const noexcept {
      if constexpr (requires { feedback_traits<E>::acked_bytes(e); }) {
        const std::int64_t b = bytes{feedback_traits<E>::acked_bytes(e)}.count();
        if (b <= 0) return value_type{};
        if constexpr (detail::is_fixed_point<value_type>) {
          // One MSS (the common ACK): exactly 1, the quotient below without its multiplication
          // (floor((MSS 2^F + floor(MSS / 2)) / MSS) = 2^F, as floor(MSS / 2) < MSS).
          if (b == params_.mss.count()) return num<value_type>(1);
          // b 2^F + MSS / 2 below 2^64 (q32: b < 2^31 B): the same quotient through a 64-bit
          // multiplication (netcc::detail::divisor_u64) instead of a 128-bit reciprocal.
          constexpr int fb = value_type::fraction_bits;
          if (mss_u64_.divisor() != 0 && b < (std::int64_t{1} << (62 - fb))) {
            const std::uint64_t q = mss_u64_.div_nearest(static_cast<std::uint64_t>(b) << fb);
            return value_type::from_raw(q > static_cast<std::uint64_t>(value_type::raw_max)
                                            ? value_type::raw_max
                                            : static_cast<std::int64_t>(q));
          }
        }
        return ratio_by<value_type>(b, mss_div_);  // the same as ratio()
      } else {
        return num<value_type>(1.0);
      }
    }

    // #hops: the event's count when it has one and it is non-zero, else the configured one.
    template <class E>
    [[nodiscard]] constexpr std::size_t hops_of(const E& e) const noexcept {
      if constexpr (HopCountFeedback<E>) {
        const std::size_t h = feedback_traits<E>::hop_count(e);
        if (h > 0) return h;
      }
      return params_.hops;
    }

    // can_decrease = (now - t_last_decrease >= rtt), for a window whose clock is `last` (valid
    // when `bit` is set). A clock that stepped back restarts at now (file comment).
    constexpr bool may_decrease(flow_state& st, timestamp& last, std::uint8_t bit, timestamp now,
                                duration rtt) const noexcept {
      if (!(st.flags & bit)) return true;
      std::int64_t since = 0;  // now - last, saturating (the sign is all a step back needs)
      if (__builtin_sub_overflow(now.count(), last.count(), &since))
        since = now.count() < last.count() ? std::numeric_limits<std::int64_t>::min()
                                           : std::numeric_limits<std::int64_t>::max();
      if (since < 0) {
        last = now;
        since = 0;
      }
      return since >= rtt.count();
    }

    // A decrease rule acted: t_last_decrease <- now (see the deviations in the file comment).
    constexpr void decreased(flow_state& st, timestamp& last, std::uint8_t bit,
                             timestamp now) const noexcept {
      last = now;
      st.flags |= bit;
    }

    // Algorithm 1 "On Receiving ACK" for one window with its delay and target. Always inlined:
    // g++ kept the q32 instantiation out of line (double's it inlines), and its call with ten
    // arguments, the window and clock behind references, cost a sixth of a q32 ACK (callgrind).
    [[gnu::always_inline]] constexpr void react(flow_state& st, value_type& w, timestamp& last,
                                                std::uint8_t bit, swift_branch& branch,
                                                duration delay, duration target, value_type n,
                                                timestamp now, duration rtt) const noexcept {
      const value_type one = num<value_type>(1);
      branch = swift_branch::hold;
      if (delay < target) {
        branch = swift_branch::increase;
        // AI: cwnd + ai / cwnd * num_acked (cwnd >= 1), cwnd + ai * num_acked (cwnd < 1).
        const value_type inc = w >= one ? additive_increase(n, w) : mul_nonneg(ai_, n);
        w = clamp_window(w + inc);
      } else if (delay > target && may_decrease(st, last, bit, now, rtt)) {
        // MD: max(1 - beta * (delay - target) / delay, 1 - max_mdf) * cwnd; delay > target >= 0.
        const value_type excess =
            ratio_recip<value_type>(delay.count() - target.count(), delay.count());
        // Non-negative products (beta, the excess, the window, the factor): netcc::mul_nonneg,
        // operator*'s value without its sign and 64-bit overflow handling.
        const value_type factor = one - mul_nonneg(beta_, excess);
        w = clamp_window(mul_nonneg(w, factor < keep_ ? keep_ : factor));
        decreased(st, last, bit, now);
        branch = swift_branch::decrease;
      }
    }

    // ai / cwnd * num_acked for cwnd >= 1. Fixed point: (ai num_acked) / cwnd, the fixed-point
    // quotient rounded to nearest (operator/'s value), one rounding instead of two, by one
    // 128/64-bit hardware division (netcc::detail::udiv_128_64): its 1 instruction replaces the
    // reciprocal's table seed, two Newton steps and 128-bit shifts (about 45 instructions, and a
    // longer latency on the window's dependency chain). Range proof: an = ai num_acked >= 0 below
    // 2^63 raw and w >= 1 (raw >= 2^F), so the dividend an 2^F + w / 2 is below w 2^64 and the
    // quotient, at most an + 1, fits 64 bits. One MSS acknowledged (num_acked exactly 1) takes
    // ai itself. ai num_acked beyond the q32 range takes the exact quotient first
    // (netcc::div_recip), as before. Double: ai / cwnd * n (ai / cwnd for n = 1). Always
    // inlined, as react: where on_ack itself is inlined into its caller (swift_compact's
    // flattened on_ack), g++ otherwise left this out of line (30 more instructions per ACK).
    [[nodiscard, gnu::always_inline]] constexpr value_type additive_increase(
        value_type n, value_type w) const noexcept {
      if constexpr (detail::is_fixed_point<value_type>) {
        constexpr int fb = value_type::fraction_bits;
        // Off the window's dependency chain; ai n = ai for n = 1 (mul_nonneg's value).
        const value_type an = n == num<value_type>(1) ? ai_ : mul_nonneg(ai_, n);
        if (an < value_type::max()) {
          const auto wr = static_cast<std::uint64_t>(w.raw());
          // The dividend an 2^F + w / 2 from its two 64-bit halves (detail::shl_add_halves):
          // built as a 128-bit expression, g++ passed it to the division through the stack, a
          // store and a reload on the window's dependency chain on every increase.
          const detail::u128_halves x =
              detail::shl_add_halves<fb>(static_cast<std::uint64_t>(an.raw()), wr / 2);
          const std::uint64_t q = detail::udiv_128_64(x.hi, x.lo, wr);
          return value_type::from_raw(q > static_cast<std::uint64_t>(value_type::raw_max)
                                          ? value_type::raw_max
                                          : static_cast<std::int64_t>(q));
        }
        return div_recip(ai_, w) * n;
      } else {
        // One MSS acknowledged (n exactly 1): ai / cwnd itself, the product's value (x 1 is
        // exact), without the multiplication's latency on the window's dependency chain.
        const value_type q = ai_ / w;
        return n == num<value_type>(1) ? q : q * n;
      }
    }

    // Timeout below RETX_RESET_THRESHOLD, or fast recovery: cwnd <- (1 - max_mdf) * cwnd if
    // can_decrease (against the last RTT sample).
    constexpr void cut(flow_state& st, value_type& w, timestamp& last, std::uint8_t bit,
                       swift_branch& branch, timestamp now) const noexcept {
      branch = swift_branch::no_cut;
      if (!may_decrease(st, last, bit, now, st.rtt)) return;
      w = clamp_window(mul_nonneg(w, keep_));
      decreased(st, last, bit, now);
      branch = swift_branch::cut;
    }

    // retransmit_cnt >= RETX_RESET_THRESHOLD: cwnd <- min_cwnd.
    constexpr void reset(flow_state& st, value_type& w, timestamp& last, std::uint8_t bit,
                         swift_branch& branch, timestamp now) const noexcept {
      branch = swift_branch::reset;
      w = min_;
      decreased(st, last, bit, now);
    }

    // The parameters in force and the numbers derived from them.
    swift_params params_;
    value_type ai_{};
    value_type beta_{};
    value_type keep_{};  // 1 - max_mdf
    value_type min_{};
    value_type max_{};
    value_type fs_min_{};
    value_type fs_max_{};
    value_type fs_alpha_{};                // ns * sqrt(packets)
    value_type fs_beta_{};                 // ns
    value_type fs_range_{};                // ns
    detail::invariant_divisor mss_div_{};  // num_acked = bytes / MSS through its reciprocal
    detail::divisor_u64 mss_u64_{};        // the same for 64-bit dividends (fixed point)
  };

  /// @brief Bytes of per-flow state (sizeof(flow_state)): the two windows, their two
  /// t_last_decrease, the last RTT, retransmit_cnt, flags and the two latest rules, with
  /// padding; the configuration is shared by a class of flows (config).
  static constexpr std::size_t state_bytes = sizeof(flow_state);

  /// @brief A controller with parameters `p` (unchecked: invalid fields fall back to their
  /// defaults; netcc::make reports them instead).
  constexpr explicit basic_swift(const swift_params& p = {}) noexcept
      : cfg_(p), s_(cfg_.initial_state()) {}

  /// @brief Algorithm 1 "On Receiving ACK" for the fabric window, and for the endpoint window
  /// when the event carries an endpoint delay (§3.3): config::on_ack on this flow.
  /// @param e an event with an RTT sample; acked bytes (acked_bytes), a hop count (hop_count)
  /// and an endpoint delay (endpoint_delay) are used when its traits have them
  template <class E>
  requires RttFeedback<E>
  constexpr void on_ack(const E& e) noexcept { cfg_.on_ack(s_, e); }
  /// @brief Algorithm 1 "On Retransmit Timeout" (config::on_timeout).
  constexpr void on_timeout(timestamp now) noexcept { cfg_.on_timeout(s_, now); }
  /// @brief Algorithm 1 "On Fast Recovery" (config::on_fast_recovery).
  constexpr void on_fast_recovery(timestamp now) noexcept { cfg_.on_fast_recovery(s_, now); }
  /// @brief A loss detected on ACK `e`: fast recovery at the ACK's time (config::on_loss).
  template <class E>
  requires TimedFeedback<E>
  constexpr void on_loss(const E& e) noexcept { cfg_.on_loss(s_, e); }

  /// @brief The window in force in packets: min(fcwnd, ecwnd) once endpoint delays arrive, else
  /// fcwnd; in [min_cwnd, max_cwnd].
  [[nodiscard]] constexpr value_type window() const noexcept { return cfg_.window(s_); }
  /// @brief The fabric window fcwnd, packets.
  [[nodiscard]] constexpr value_type fabric_window() const noexcept {
    return cfg_.fabric_window(s_);
  }
  /// @brief The rule of Algorithm 1 the latest event ran on the fabric window.
  [[nodiscard]] constexpr swift_branch last_branch() const noexcept { return cfg_.last_branch(s_); }
  /// @brief The rule of Algorithm 1 the latest event ran on the endpoint window (none before
  /// the first endpoint delay).
  [[nodiscard]] constexpr swift_branch last_endpoint_branch() const noexcept {
    return cfg_.last_endpoint_branch(s_);
  }
  /// @brief The endpoint window ecwnd, packets (a copy of fcwnd until the first endpoint delay).
  [[nodiscard]] constexpr value_type endpoint_window() const noexcept {
    return cfg_.endpoint_window(s_);
  }
  /// @brief Whether an endpoint delay has arrived (the endpoint window is in force).
  [[nodiscard]] constexpr bool endpoint_active() const noexcept { return cfg_.endpoint_active(s_); }
  /// @brief The congestion window in bytes: floor(window() * mss), at least 1 B.
  [[nodiscard]] constexpr bytes cwnd() const noexcept { return cfg_.cwnd(s_); }
  /// @brief The inter-packet delay (§3.4): last RTT / window() when window() < 1 packet (the
  /// base target before the first RTT sample), zero (no pacing) otherwise.
  [[nodiscard]] constexpr duration pacing_delay() const noexcept { return cfg_.pacing_delay(s_); }
  /// @brief The pacing rate that spaces MSS-sized packets by pacing_delay() (config::pacing_rate);
  /// bit_rate::max() when not pacing.
  [[nodiscard]] constexpr bit_rate pacing_rate() const noexcept { return cfg_.pacing_rate(s_); }
  /// @brief The fabric target delay (§3.5) for `hops` hops at the current fcwnd, in whole ns
  /// (config::fabric_target).
  [[nodiscard]] constexpr duration fabric_target(std::size_t hops) const noexcept {
    return cfg_.fabric_target(s_, hops);
  }
  /// @brief The fabric target with the configured hop count (swift_params::hops).
  [[nodiscard]] constexpr duration fabric_target() const noexcept { return cfg_.fabric_target(s_); }
  /// @brief The endpoint target delay (§3.3).
  [[nodiscard]] constexpr duration endpoint_target() const noexcept {
    return cfg_.endpoint_target();
  }
  /// @brief The last RTT sample (zero before the first).
  [[nodiscard]] constexpr duration rtt() const noexcept { return cfg_.rtt(s_); }
  /// @brief retransmit_cnt: consecutive timeouts since the last ACK or fast recovery.
  [[nodiscard]] constexpr std::uint32_t retransmit_count() const noexcept {
    return cfg_.retransmit_count(s_);
  }
  /// @brief Whether the fabric window may decrease at `now` (Algorithm 1's can_decrease,
  /// against `rtt`): no decrease yet, or now - t_last_decrease >= rtt.
  [[nodiscard]] constexpr bool can_decrease(timestamp now, duration rtt) const noexcept {
    return cfg_.can_decrease(s_, now, rtt);
  }
  /// @brief The parameters in force (after invalid fields fell back).
  [[nodiscard]] constexpr const swift_params& params() const noexcept { return cfg_.params(); }
  /// @brief The configuration this controller runs (shareable with other flows).
  [[nodiscard]] constexpr const config& configuration() const noexcept { return cfg_; }
  /// @brief This flow's state.
  [[nodiscard]] constexpr const flow_state& state() const noexcept { return s_; }

 private:
  config cfg_;
  flow_state s_;
};

/// @brief Swift with double arithmetic.
using swift = basic_swift<>;

// Per-flow state budget: 48 B (two windows, two decrease clocks, the last RTT: five 8-byte
// words; retransmit_cnt, flags and the two latest rules in the sixth), state_bytes =
// sizeof(flow_state), in double and in q32. The configuration (params and the values derived
// from them, config) is shared by a class of flows. The 32-B form is netcc::swift_compact (q32
// windows, 32-bit wrapping decrease clocks, narrowed RTT and counters; below).
static_assert(sizeof(swift::flow_state) <= 48, "swift: per-flow state within 48 B");
static_assert(sizeof(basic_swift<arith::q32>::flow_state) <= 48,
              "swift (q32): per-flow state in 48 B");
static_assert(swift::state_bytes == sizeof(swift::flow_state));
static_assert(sizeof(swift) <= 48 + 256, "swift: 48 B of state + at most 256 B of configuration");
static_assert(sizeof(basic_swift<arith::q32>) <= 48 + 256,
              "swift (q32): 48 B of state + at most 256 B of configuration");

/// @brief Swift in q32 with a 32-byte per-flow state: the q32 controller's Algorithm 1 (the same
/// config, rules and arithmetic) over a packed flow_state, for arrays of many flows.
///
/// Layout and the range of every narrowed field (the windows are not narrowed):
/// - fcwnd, ecwnd: the q32 windows as they are (8 B each). Swift's AI step ai / cwnd per ACK at
///   windows up to max_cwnd needs q32's 2^-32-packet resolution across [2^-20, 2^30] packets
///   (50 bits of range); a 32-bit window would lose the increase at large windows, so the
///   windows are kept and equal the q32 form's bit for bit.
/// - t_last_decrease of each window: the low 32 bits of the ns clock (4 B each), read back as
///   now - d with d the signed 32-bit wrapping distance from now (netcc::modular<32> arithmetic).
///   Range: the age of a decrease clock is only needed up to the largest RTT it is compared with;
///   RTTs up to clock_horizon = 2^30 ns (1.07 s) compare exactly. A clock 2^30 ns old or older
///   when an event reads it has expired: the window may decrease (as it would in q32 for any RTT
///   up to 2^30 ns), and the flag is cleared. A clock that stepped back by less than 2^31 ns
///   restarts at now, as in q32. Precondition for exact agreement with q32: a flow whose decrease
///   clock runs sees events at most 2^30 ns (1.07 s) apart (so that an unexpired clock, under 2^30
///   ns old at one event, is under 2^31 ns old at the next); after a longer silence
///   the age is read modulo 2^32 ns, so a decrease may wait up to one more RTT (never more, and
///   never a second decrease within an RTT).
/// - the last RTT sample: 32-bit ns (4 B), saturating at 2^32 - 1 ns (4.29 s); RTTs above are out
///   of range (the next timeout's can_decrease then compares with 4.29 s).
/// - retransmit_cnt: 16 bits, saturating at 65535 (exact for retx_reset_threshold <= 65536; a
///   larger threshold is never reached: the window is still cut on every timeout).
/// - the four flags and the two latest rules (3 bits each): one 16-bit word.
///
/// Within those ranges (RTTs and the times between consecutive events up to 2^30 ns, step-backs
/// under 2^30 ns) every event takes the same branch as basic_swift<arith::q32> and
/// leaves the same windows, bit for bit (tests/control/swift_test.cpp). Outside them the windows
/// stay finite and in [min_cwnd, max_cwnd], as for any Swift instantiation.
/// @code
/// const netcc::swift_compact::config cfg{{.init_cwnd = 10}};
/// std::vector<netcc::swift_compact::flow_state> flows(1000, cfg.initial_state());  // 32 kB
/// cfg.on_ack(flows[7], netcc::ack_event{.now = netcc::timestamp{100'000},
///                                       .acked = netcc::bytes{1460},
///                                       .rtt = netcc::duration{15'000}});
/// netcc::bytes w = cfg.cwnd(flows[7]);  // 10.1 packets, as basic_swift<arith::q32>
/// @endcode
class swift_compact {
  using wide = basic_swift<arith::q32>;
  using wide_state = wide::flow_state;
  using wide_config = wide::config;

 public:
  /// @brief The number type of the windows (q32).
  using value_type = wide::value_type;
  /// @brief The parameter struct.
  using params_type = swift_params;
  /// @brief Events consumed: as basic_swift.
  static constexpr event_set events = wide::events;
  /// @brief The age, ns, beyond which a decrease clock has expired, and the largest RTT the
  /// decrease clocks compare exactly (2^30 ns, 1.07 s).
  static constexpr std::int64_t clock_horizon = std::int64_t{1} << 30;

  /// @brief One flow's packed state (32 B, trivially copyable); see the class comment for the
  /// range of each field. Read and change it through config.
  struct flow_state {
    value_type fcwnd{};             ///< fabric window, q32 packets
    value_type ecwnd{};             ///< endpoint window, q32 packets
    std::uint32_t f_last = 0;       ///< t_last_decrease of fcwnd, low 32 bits of the ns clock
    std::uint32_t e_last = 0;       ///< t_last_decrease of ecwnd, low 32 bits of the ns clock
    std::uint32_t rtt = 0;          ///< the last RTT sample, ns, saturating
    std::uint16_t retransmits = 0;  ///< retransmit_cnt, saturating at 65535
    std::uint16_t bits = 0;         ///< flags (bits 0-3), fcwnd's rule (4-6), ecwnd's (7-9)
  };
  static_assert(std::is_trivially_copyable_v<flow_state>);

  /// @brief What a class of flows shares: the q32 configuration, with Algorithm 1 as members
  /// taking one flow's packed state (each event unpacks it, runs the q32 rule and packs it).
  class config {
   public:
    /// @brief The configuration for parameters `p` (invalid fields fall back to their defaults;
    /// netcc::validate reports them).
    constexpr explicit config(const swift_params& p = {}) noexcept : q_(p) {}

    /// @brief A new flow's state: both windows at init_cwnd, no RTT sample, no decrease yet.
    [[nodiscard]] constexpr flow_state initial_state() const noexcept {
      return pack(q_.initial_state());
    }
    /// @brief Reset `st` to a new flow's state.
    constexpr void init(flow_state& st) const noexcept { st = initial_state(); }

    /// @brief Algorithm 1 "On Receiving ACK" (basic_swift::config::on_ack).
    // Flattened: with the q32 on_ack out of line the event is built in memory and the unpacked
    // state passed through it (timeout then ACK in the benchmark: 12-16 ns -> 6 ns).
    template <class E>
    requires RttFeedback<E>
    [[gnu::flatten]] constexpr void on_ack(flow_state& st, const E& e) const noexcept {
      wide_state w = unpack(st, feedback_traits<E>::now(e));
      q_.on_ack(w, e);
      st = pack(w);
    }
    /// @brief Algorithm 1 "On Retransmit Timeout" (basic_swift::config::on_timeout).
    constexpr void on_timeout(flow_state& st, timestamp now) const noexcept {
      wide_state w = unpack(st, now);
      q_.on_timeout(w, now);
      st = pack(w);
    }
    /// @brief Algorithm 1 "On Fast Recovery" (basic_swift::config::on_fast_recovery).
    constexpr void on_fast_recovery(flow_state& st, timestamp now) const noexcept {
      wide_state w = unpack(st, now);
      q_.on_fast_recovery(w, now);
      st = pack(w);
    }
    /// @brief A loss detected on ACK `e`: fast recovery at the ACK's time.
    template <class E>
    requires TimedFeedback<E>
    constexpr void on_loss(flow_state& st, const E& e) const noexcept {
      on_fast_recovery(st, feedback_traits<E>::now(e));
    }

    /// @brief The window in force in packets (basic_swift::config::window).
    [[nodiscard]] constexpr value_type window(const flow_state& st) const noexcept {
      return q_.window(view(st));
    }
    /// @brief The fabric window fcwnd, packets.
    [[nodiscard]] constexpr value_type fabric_window(const flow_state& st) const noexcept {
      return st.fcwnd;
    }
    /// @brief The endpoint window ecwnd, packets (a copy of fcwnd until the first endpoint delay).
    [[nodiscard]] constexpr value_type endpoint_window(const flow_state& st) const noexcept {
      return q_.endpoint_window(view(st));
    }
    /// @brief The rule of Algorithm 1 the latest event ran on the fabric window.
    [[nodiscard]] constexpr swift_branch last_branch(const flow_state& st) const noexcept {
      return static_cast<swift_branch>((st.bits >> 4) & 7u);
    }
    /// @brief The rule of Algorithm 1 the latest event ran on the endpoint window.
    [[nodiscard]] constexpr swift_branch last_endpoint_branch(const flow_state& st) const noexcept {
      return static_cast<swift_branch>((st.bits >> 7) & 7u);
    }
    /// @brief Whether an endpoint delay has arrived (the endpoint window is in force).
    [[nodiscard]] constexpr bool endpoint_active(const flow_state& st) const noexcept {
      return (st.bits & wide_config::endpoint) != 0;
    }
    /// @brief The congestion window in bytes: floor(window(st) * mss), at least 1 B.
    [[nodiscard]] constexpr bytes cwnd(const flow_state& st) const noexcept {
      return q_.cwnd(view(st));
    }
    /// @brief The inter-packet delay below one packet (basic_swift::config::pacing_delay).
    [[nodiscard]] constexpr duration pacing_delay(const flow_state& st) const noexcept {
      return q_.pacing_delay(view(st));
    }
    /// @brief The pacing rate (basic_swift::config::pacing_rate); bit_rate::max() when not pacing.
    [[nodiscard]] constexpr bit_rate pacing_rate(const flow_state& st) const noexcept {
      return q_.pacing_rate(view(st));
    }
    /// @brief The fabric target delay (§3.5) for `hops` hops at the current fcwnd, whole ns.
    [[nodiscard]] constexpr duration fabric_target(const flow_state& st,
                                                   std::size_t hops) const noexcept {
      return q_.fabric_target(view(st), hops);
    }
    /// @brief The fabric target with the configured hop count (swift_params::hops).
    [[nodiscard]] constexpr duration fabric_target(const flow_state& st) const noexcept {
      return q_.fabric_target(view(st));
    }
    /// @brief The endpoint target delay (§3.3).
    [[nodiscard]] constexpr duration endpoint_target() const noexcept {
      return q_.endpoint_target();
    }
    /// @brief The last RTT sample (zero before the first), saturated at 2^32 - 1 ns.
    [[nodiscard]] constexpr duration rtt(const flow_state& st) const noexcept {
      return duration{st.rtt};
    }
    /// @brief retransmit_cnt, saturated at 65535.
    [[nodiscard]] constexpr std::uint32_t retransmit_count(const flow_state& st) const noexcept {
      return st.retransmits;
    }
    /// @brief Whether the fabric window may decrease at `now` against `rtt` (Algorithm 1's
    /// can_decrease; a clock clock_horizon old or older has expired).
    [[nodiscard]] constexpr bool can_decrease(const flow_state& st, timestamp now,
                                              duration rtt) const noexcept {
      return q_.can_decrease(unpack(st, now), now, rtt);
    }
    /// @brief The parameters in force (after invalid fields fell back).
    [[nodiscard]] constexpr const swift_params& params() const noexcept { return q_.params(); }
    /// @brief The q32 configuration the rules run on.
    [[nodiscard]] constexpr const wide_config& wide_configuration() const noexcept { return q_; }

   private:
    // The wide state's fields that need no clock (the decrease clocks are left at zero).
    [[nodiscard]] static constexpr wide_state view(const flow_state& st) noexcept {
      wide_state w{};
      w.fcwnd = st.fcwnd;
      w.ecwnd = st.ecwnd;
      w.rtt = duration{st.rtt};
      w.retransmits = st.retransmits;
      w.flags = static_cast<std::uint8_t>(st.bits & 0xFu);
      w.f_branch = static_cast<swift_branch>((st.bits >> 4) & 7u);
      w.e_branch = static_cast<swift_branch>((st.bits >> 7) & 7u);
      return w;
    }

    // A decrease clock's 64-bit time read back at `now` from its low 32 bits: now - d, d the
    // signed wrapping distance; an age of clock_horizon or more expires the clock (flag cleared).
    static constexpr void clock(wide_state& w, timestamp& last, std::uint32_t low, std::uint8_t bit,
                                timestamp now) noexcept {
      if (!(w.flags & bit)) return;
      const auto now_low = static_cast<std::uint32_t>(static_cast<std::uint64_t>(now.count()));
      const auto d = static_cast<std::int32_t>(now_low - low);  // modular, C++20
      if (d >= clock_horizon) {
        w.flags = static_cast<std::uint8_t>(w.flags & ~bit);
        return;
      }
      last = timestamp{detail::swift_sub(now.count(), d)};
    }

    [[nodiscard]] static constexpr wide_state unpack(const flow_state& st, timestamp now) noexcept {
      wide_state w = view(st);
      clock(w, w.f_last, st.f_last, wide_config::f_decreased, now);
      clock(w, w.e_last, st.e_last, wide_config::e_decreased, now);
      return w;
    }

    [[nodiscard]] static constexpr flow_state pack(const wide_state& w) noexcept {
      flow_state st{};
      st.fcwnd = w.fcwnd;
      st.ecwnd = w.ecwnd;
      st.f_last = static_cast<std::uint32_t>(static_cast<std::uint64_t>(w.f_last.count()));
      st.e_last = static_cast<std::uint32_t>(static_cast<std::uint64_t>(w.e_last.count()));
      const std::int64_t r = w.rtt.count();
      st.rtt = r <= 0 ? 0u : (r >= 0xFFFF'FFFF ? 0xFFFF'FFFFu : static_cast<std::uint32_t>(r));
      st.retransmits =
          static_cast<std::uint16_t>(w.retransmits < 0xFFFFu ? w.retransmits : 0xFFFFu);
      st.bits =
          static_cast<std::uint16_t>((w.flags & 0xFu) | (static_cast<unsigned>(w.f_branch) << 4) |
                                     (static_cast<unsigned>(w.e_branch) << 7));
      return st;
    }

    wide_config q_;
  };

  /// @brief Bytes of per-flow state (sizeof(flow_state)).
  static constexpr std::size_t state_bytes = sizeof(flow_state);

  /// @brief A controller with parameters `p` (invalid fields fall back to their defaults).
  constexpr explicit swift_compact(const swift_params& p = {}) noexcept
      : cfg_(p), s_(cfg_.initial_state()) {}

  /// @brief Algorithm 1 "On Receiving ACK" (config::on_ack on this flow).
  template <class E>
  requires RttFeedback<E>
  constexpr void on_ack(const E& e) noexcept { cfg_.on_ack(s_, e); }
  /// @brief Algorithm 1 "On Retransmit Timeout" (config::on_timeout).
  constexpr void on_timeout(timestamp now) noexcept { cfg_.on_timeout(s_, now); }
  /// @brief Algorithm 1 "On Fast Recovery" (config::on_fast_recovery).
  constexpr void on_fast_recovery(timestamp now) noexcept { cfg_.on_fast_recovery(s_, now); }
  /// @brief A loss detected on ACK `e`: fast recovery at the ACK's time.
  template <class E>
  requires TimedFeedback<E>
  constexpr void on_loss(const E& e) noexcept { cfg_.on_loss(s_, e); }

  /// @brief The window in force in packets.
  [[nodiscard]] constexpr value_type window() const noexcept { return cfg_.window(s_); }
  /// @brief The fabric window fcwnd, packets.
  [[nodiscard]] constexpr value_type fabric_window() const noexcept {
    return cfg_.fabric_window(s_);
  }
  /// @brief The endpoint window ecwnd, packets.
  [[nodiscard]] constexpr value_type endpoint_window() const noexcept {
    return cfg_.endpoint_window(s_);
  }
  /// @brief The rule of Algorithm 1 the latest event ran on the fabric window.
  [[nodiscard]] constexpr swift_branch last_branch() const noexcept { return cfg_.last_branch(s_); }
  /// @brief The rule of Algorithm 1 the latest event ran on the endpoint window.
  [[nodiscard]] constexpr swift_branch last_endpoint_branch() const noexcept {
    return cfg_.last_endpoint_branch(s_);
  }
  /// @brief Whether an endpoint delay has arrived.
  [[nodiscard]] constexpr bool endpoint_active() const noexcept { return cfg_.endpoint_active(s_); }
  /// @brief The congestion window in bytes.
  [[nodiscard]] constexpr bytes cwnd() const noexcept { return cfg_.cwnd(s_); }
  /// @brief The inter-packet delay below one packet (§3.4).
  [[nodiscard]] constexpr duration pacing_delay() const noexcept { return cfg_.pacing_delay(s_); }
  /// @brief The pacing rate; bit_rate::max() when not pacing.
  [[nodiscard]] constexpr bit_rate pacing_rate() const noexcept { return cfg_.pacing_rate(s_); }
  /// @brief The fabric target delay (§3.5) for `hops` hops.
  [[nodiscard]] constexpr duration fabric_target(std::size_t hops) const noexcept {
    return cfg_.fabric_target(s_, hops);
  }
  /// @brief The fabric target with the configured hop count.
  [[nodiscard]] constexpr duration fabric_target() const noexcept { return cfg_.fabric_target(s_); }
  /// @brief The endpoint target delay (§3.3).
  [[nodiscard]] constexpr duration endpoint_target() const noexcept {
    return cfg_.endpoint_target();
  }
  /// @brief The last RTT sample (saturated at 2^32 - 1 ns).
  [[nodiscard]] constexpr duration rtt() const noexcept { return cfg_.rtt(s_); }
  /// @brief retransmit_cnt (saturated at 65535).
  [[nodiscard]] constexpr std::uint32_t retransmit_count() const noexcept {
    return cfg_.retransmit_count(s_);
  }
  /// @brief Algorithm 1's can_decrease for the fabric window at `now` against `rtt`.
  [[nodiscard]] constexpr bool can_decrease(timestamp now, duration rtt) const noexcept {
    return cfg_.can_decrease(s_, now, rtt);
  }
  /// @brief The parameters in force.
  [[nodiscard]] constexpr const swift_params& params() const noexcept { return cfg_.params(); }
  /// @brief The configuration this controller runs (shareable with other flows).
  [[nodiscard]] constexpr const config& configuration() const noexcept { return cfg_; }
  /// @brief This flow's state.
  [[nodiscard]] constexpr const flow_state& state() const noexcept { return s_; }

 private:
  config cfg_;
  flow_state s_;
};

// Per-flow state budget of the compact form: 32 B (two q32 windows, two 32-bit wrapping decrease
// clocks, a 32-bit RTT, a 16-bit retransmit count, a 16-bit word of flags and rules).
static_assert(sizeof(swift_compact::flow_state) <= 32, "swift_compact: per-flow state within 32 B");
static_assert(swift_compact::state_bytes == sizeof(swift_compact::flow_state));

}  // namespace netcc
