// SPDX-License-Identifier: MIT
/// @file
/// @brief DCTCP: the fraction of ECN-marked bytes, estimated once per window of data, scales a
/// window cut made at most once per window, over standard slow start and congestion avoidance.
///
/// Sources: M. Alizadeh, A. Greenberg, D. A. Maltz, J. Padhye, P. Patel, B. Prabhakar,
/// S. Sengupta, M. Sridharan, "Data Center TCP (DCTCP)", ACM SIGCOMM 2010 (below: "the paper"),
/// §3.1 (Eq. 1: alpha <- (1 - g) alpha + g F once per window of data; Eq. 2: cwnd <- cwnd
/// (1 - alpha / 2)) and §3.3 (the steady-state analysis, Eq. 3-12, and the guidelines for K and
/// g); S. Bensley, D. Thaler, P. Balasubramanian, L. Eggert, G. Judd, RFC 8257 "Data Center TCP
/// (DCTCP): TCP Congestion Control for Data Centers" (2017), §3.3 (the sender: DCTCP.Alpha,
/// DCTCP.WindowEnd, DCTCP.BytesAcked, DCTCP.BytesMarked; the cut once per window of data, as
/// RFC 3168 reacts to ECN; CWR as RFC 3168), §3.4 (window growth as RFC 5681), §3.5 (loss as
/// RFC 5681, one reduction per window of data across all signals, a timeout always to the loss
/// window), §4.2 (g = 1/16; scaled fixed-point alpha). RFC 5681 (slow start, congestion
/// avoidance, ssthresh on loss), RFC 6928 (initial window), RFC 3168 §6.1.2 (CWR).
///
/// What is implemented, rule by rule
/// - Per ACK (netcc::basic_dctcp::on_ack), RFC 8257 §3.3: BytesAcked += the bytes the ACK newly
///   acknowledges; BytesMarked += the same when it echoes CE. When the cumulative ACK reaches
///   WindowEnd: F = BytesMarked / BytesAcked, alpha = (1 - g) alpha + g F (the paper's Eq. 1),
///   WindowEnd = SND.NXT, both counters reset. F counts bytes (RFC 8257), the paper counts
///   packets: with full-sized segments they agree.
/// - The cut, Eq. 2 and RFC 8257 §3.3: an ACK that echoes CE, when no reduction has happened in
///   the current window of data, sets ssthresh = max(cwnd (1 - alpha / 2), 2 MSS) and cwnd =
///   min(cwnd, ssthresh) (RFC 5681's floor of two segments; a cut never raises the window), and
///   opens a reduction window that ends when the cumulative ACK passes the SND.NXT of the cut.
///   The ACK that echoes CE grows nothing (RFC 3168 §6.1.2). After the cut the next new data
///   segment carries CWR (netcc::basic_dctcp::on_send returns true once; RFC 3168 §6.1.2).
/// - Growth, RFC 8257 §3.4 = RFC 5681 §3.1: below ssthresh (slow start) cwnd += the bytes acked,
///   up to ssthresh; what slow start leaves of the acked bytes goes to congestion avoidance,
///   cwnd += MSS * acked / cwnd, at most one MSS per ACK (one MSS per window of data).
///   With netcc::dctcp_growth_counting instead, congestion avoidance counts the acked bytes and
///   adds one MSS each time the count reaches cwnd (RFC 5681 §3.1's recommended byte counting,
///   RFC 3465 §2.1; the rule Linux and ns-3's TcpLinuxReno/TcpDctcp apply per segment): the same
///   one MSS per window of data without a division per ACK.
/// - Loss, RFC 8257 §3.5 with RFC 5681: a retransmission timeout (on_timeout) sets cwnd to the
///   loss window (one MSS, or min_cwnd if larger) always, and ssthresh = max(cwnd / 2, 2 MSS)
///   unless the current window of data was already reduced; a loss found by fast retransmit
///   (on_loss) sets ssthresh = max(cwnd / 2, 2 MSS) and cwnd = min(cwnd, ssthresh), once per
///   window of data shared with the ECN cuts. alpha is kept across losses.
/// - Guidelines and analysis (§3.3): netcc::dctcp_k_floor (K > C * RTT / 7),
///   netcc::dctcp_gain_ceiling (g < 1.386 / sqrt(2 (C * RTT + K))) and netcc::dctcp_sawtooth
///   (the synchronised-flows sawtooth: W*, alpha, D, A, T_C, Q_max = K + N, Q_min).
///
/// Defaults (netcc::dctcp_params) and their sources
/// - g = 1/16: RFC 8257 §4.2 (the fixed gain implementations use) and the paper's experiments;
///   inside the paper's bound
///   1.386 / sqrt(2 (C * RTT + K)) whenever C * RTT + K < 245 packets (for example 10 Gbps,
///   100 us, K = 65 packets: bound 0.081).
/// - alpha_init = 1: RFC 8257 §3.3 initialises DCTCP.Alpha to 1, and §4.2 discusses the choice:
///   1 is conservative (a flow that meets congestion in its first window halves like RFC 3168),
///   0 starts aggressive (the first cuts are tiny until alpha has learnt the marking level, which
///   can overrun a shallow buffer). netcc takes 1; alpha_init sets any value in [0, 1].
/// - Initial window: RFC 6928, min(10 MSS, max(2 MSS, 14600 B)) (init_cwnd = 0), 14600 B for the
///   default MSS; init_cwnd sets any other.
/// - MSS = 1460 B (1500 B Ethernet MTU less 40 B of IPv4 and TCP headers); min_cwnd = one MSS
///   (RFC 5681's loss window); max_cwnd = 2^31 - 1 B (the range of netcc::arith::q32).
///
/// Decisions left open, and deviations
/// - Where a window of data ends. The alpha window ends at the ACK that *reaches* WindowEnd
///   (netcc::per_rtt_marker::reached, ack >= WindowEnd), after its bytes are counted: that ACK
///   acknowledges the window's last bytes, so F is exactly the window's fraction (as Linux
///   tests it; RFC 8257 §3.3's "less than or equal to DCTCP.WindowEnd, stop processing" would
///   fold one ACK of the next window into this one). The reduction window ends at the first ACK
///   that *passes* the SND.NXT of the reduction (netcc::per_rtt_marker::passed, ack > mark):
///   an ACK up to the mark acknowledges data sent before the cut, and its echo reports
///   congestion the cut has answered (Linux likewise holds its CWR state "until something above
///   high_seq is ACKed"). With ">=" the echo on the ACK of the last segment sent before a cut
///   would cut again one window later: twice per sawtooth period in the testbench scenario of
///   tests/testbench/dctcp_scenario_test.cpp, against the analysis' once.
/// - WindowEnd starts at the SND.NXT of the first ACK (the controller learns SND.NXT from ACKs).
/// - A window with BytesAcked = 0 (duplicate ACKs only) leaves alpha unchanged: F is undefined.
/// - The cut is applied at once (cwnd = ssthresh); Linux reaches ssthresh through proportional
///   rate reduction over the reduction window and grows nothing meanwhile, netcc grows on the
///   unmarked ACKs of the reduction window (RFC 8257 §3.4, and the paper's analysis, in which
///   windows grow by one packet per RTT throughout).
/// - Window-limited growth (cwnd_limited_growth, on by default): the window grows only while it
///   limits the sender, judged from the data in flight when the ACK arrived (SND.NXT - ACK +
///   acked): at least half the window in slow start, at least the window less one MSS in
///   congestion avoidance (RFC 7661's principle, with the thresholds Linux uses). A flow held
///   back by its NIC or its application would otherwise grow its window without bound.
/// - RFC 5681 computes ssthresh from FlightSize; netcc uses cwnd (a window-limited sender has
///   FlightSize close to cwnd; Linux does the same).
/// - RFC 5681 lets slow start add at most one SMSS per ACK (RFC 3465: L = 2 SMSS); like Linux,
///   netcc adds all acked bytes (abc_limit = 0). Set abc_limit to one or two MSS for the RFC's.
/// - Byte counting (netcc::dctcp_growth_counting) restarts its count at every reduction (ECN cut,
///   loss, timeout), as Linux restarts its per-segment count when it reduces the window; RFC 3465
///   does not say. It adds at most one MSS per ACK (as the proportional rule) and keeps the count
///   within [0, cwnd], where Linux would add several segments for one ACK of several windows.
/// - Fast recovery's window inflation (RFC 5681 §3.2 steps 4-6) belongs to the stack's loss
///   recovery; on_loss leaves the window at ssthresh, where recovery ends.
/// - The byte counters never saturate: when BytesAcked would pass 2^62 both are halved, which
///   keeps F. Acked counts below zero count as zero.
/// - Fixed point: see netcc::dctcp_alpha_scaled (alpha in 2^-FracBits units as Linux keeps it in
///   1/1024, updated with shifts as RFC 8257 §4.2 describes) and the arithmetic policy
///   (netcc::arith::q32 for the window). Both are tested against double on the same ACKs.
/// - Invalid parameters fall back to their defaults (the controller never fails); call
///   netcc::validate() to see them.
///
/// @code
/// netcc::dctcp cc{{.mss = netcc::bytes{1460}}};
/// cc.on_ack(netcc::ack_event{.now = netcc::timestamp{1000}, .ack_seq = 1460,
///                            .snd_nxt = 14'600, .acked = netcc::bytes{1460}});
/// netcc::bytes w = cc.cwnd();   // 14600 + 1460 B: slow start
/// @endcode
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "netcc/control/controller_concepts.hpp"
#include "netcc/core/arith.hpp"
#include "netcc/core/detail/int128.hpp"
#include "netcc/core/feedback.hpp"
#include "netcc/core/per_rtt.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/validation.hpp"

namespace netcc {

/// @brief DCTCP's alpha as a number of the controller's arithmetic policy: Eq. 1 as written,
/// alpha <- alpha + g (F - alpha), with g any value in (0, 1].
///
/// | alpha representation            | storage per flow             | g                      | use it when |
/// | ------------------------------- | ---------------------------- | ---------------------- | ----------- |
/// | netcc::dctcp_alpha_exact        | the policy's number (8 B)    | any in (0, 1]          | the default: the paper's Eq. 1 |
/// | netcc::dctcp_alpha_scaled<F>    | an integer in 2^-F units     | 2^-s, s in [0, F]      | integer-only targets; F = 10 is Linux's 1/1024 |
/// @code
/// netcc::basic_dctcp<netcc::arith::ieee_double, netcc::dctcp_alpha_exact> cc;
/// @endcode
struct dctcp_alpha_exact {
  /// @brief The update rule for number type T: the gain (configuration) and the operations on
  /// one flow's alpha.
  template <Number T>
  struct rule {
    /// @brief One flow's alpha.
    using storage = T;
    /// @brief The gain g.
    T g{};
    /// @brief A rule with gain `g_in` (in (0, 1]; the caller sanitises it).
    constexpr explicit rule(double g_in) noexcept : g(num<T>(g_in)) {}
    /// @brief alpha from a value in [0, 1].
    [[nodiscard]] constexpr storage init(double alpha0) const noexcept {
      return clamp_num(num<T>(alpha0), num<T>(0), num<T>(1));
    }
    /// @brief Eq. 1 with F = marked / acked (acked > 0, marked <= acked <= 2^62).
    [[nodiscard]] constexpr storage update(storage a, std::uint64_t marked,
                                           std::uint64_t acked) const noexcept {
      // (ratio_recip: ratio's value through a reciprocal, no 128-bit division in fixed point.)
      const T f =
          ratio_recip<T>(static_cast<std::int64_t>(marked), static_cast<std::int64_t>(acked));
      return clamp_num(a + g * (f - a), num<T>(0), num<T>(1));
    }
    /// @brief alpha as a number in [0, 1].
    [[nodiscard]] static constexpr T value(storage a) noexcept { return a; }
    /// @brief The gain in force.
    [[nodiscard]] constexpr double gain() const noexcept { return to_double(g); }
  };
};

/// @brief DCTCP's alpha as an integer in units of 2^-FracBits, updated with shifts (RFC 8257
/// §4.2; Linux keeps alpha in 1/1024 units, FracBits = 10): g = 2^-s, the configured g rounded
/// to the nearest power of two (nearest in log2; s at most FracBits).
///
/// Update per window of data, in integers only:
/// alpha <- min(alpha - ceil(alpha / 2^s) + floor(marked * 2^(FracBits - s) / acked), 2^FracBits).
/// The decay is rounded up, so alpha reaches 0 once marks stop, as RFC 8257 §4.2 asks
/// ("SHOULD ensure that DCTCP.Alpha is able to reach 0"); the clamp is the §4.2 "MUST be
/// clamped". (Linux rounds the decay down and resets alpha below 2^s units to zero; a window
/// with a small F can then hold alpha far below F.) Against Eq. 1 in exact arithmetic each update
/// errs by less than two units, both roundings downward, so after any ACK sequence
/// exact - 2/g units - 0.5 unit < scaled <= exact + 0.5 unit (the half unit is the rounding of
/// alpha_init, decaying by (1 - g) per window).
/// @tparam FracBits fraction bits of alpha, in [1, 30]
/// @code
/// netcc::basic_dctcp<netcc::arith::q32, netcc::dctcp_alpha_scaled<10>> cc;  // integer only
/// @endcode
template <int FracBits = 10>
struct dctcp_alpha_scaled {
  static_assert(FracBits >= 1 && FracBits <= 30, "dctcp_alpha_scaled: FracBits in [1, 30]");
  /// @brief Fraction bits.
  static constexpr int fraction_bits = FracBits;
  /// @brief alpha = 1 in raw units (2^FracBits).
  static constexpr std::uint32_t one = std::uint32_t{1} << FracBits;

  /// @brief The update rule for number type T: the shift s (configuration) and the integer
  /// operations on one flow's alpha.
  template <Number T>
  struct rule {
    /// @brief One flow's alpha in 2^-FracBits units (16 bits suffice up to FracBits = 15).
    using storage = std::conditional_t<(FracBits <= 15), std::uint16_t, std::uint32_t>;
    /// @brief g = 2^-shift.
    int shift = 0;
    /// @brief A rule whose g is the power of two nearest to `g_in` (in log2).
    constexpr explicit rule(double g_in) noexcept {
      double edge = 0.70710678118654752;  // 2^-(s + 1/2): above it, 2^-s is nearer than 2^-(s+1)
      while (shift < FracBits && g_in < edge) {
        ++shift;
        edge *= 0.5;
      }
    }
    /// @brief alpha from a value in [0, 1], rounded to the nearest unit.
    [[nodiscard]] constexpr storage init(double alpha0) const noexcept {
      const double a = alpha0 >= 0 ? (alpha0 <= 1 ? alpha0 : 1.0) : 0.0;  // NaN gives 0
      return static_cast<storage>(a * static_cast<double>(one) + 0.5);
    }
    /// @brief The integer update above (acked > 0, marked <= acked <= 2^62).
    [[nodiscard]] constexpr storage update(storage a, std::uint64_t marked,
                                           std::uint64_t acked) const noexcept {
      const std::uint32_t raw = a;
      const std::uint32_t decay = (raw + (std::uint32_t{1} << shift) - 1) >> shift;
      // marked 2^(FracBits - s) / acked <= 2^(FracBits - s), in 64 bits when the product fits
      // (always for counters below 2^(64 - FracBits)), else in 128: the same quotient.
      const int up = FracBits - shift;
      const auto in = static_cast<std::uint32_t>(
          marked < (std::uint64_t{1} << (63 - up))
              ? (marked << up) / acked
              : static_cast<std::uint64_t>((detail::u128{marked} << up) / acked));
      const std::uint32_t next = raw - decay + in;
      return static_cast<storage>(next < one ? next : one);
    }
    /// @brief alpha as a number in [0, 1] (exact in double and in q32: a fixed-point number with
    /// at least FracBits fraction bits takes the units by a shift, no division).
    [[nodiscard]] static constexpr T value(storage a) noexcept {
      if constexpr (requires {
                      { T::fraction_bits } -> std::convertible_to<int>;
                      T::from_raw(std::int64_t{});
                    }) {
        if constexpr (T::fraction_bits >= FracBits)
          return T::from_raw(static_cast<std::int64_t>(a) << (T::fraction_bits - FracBits));
      }
      return ratio<T>(static_cast<std::int64_t>(a), static_cast<std::int64_t>(one));
    }
    /// @brief The gain in force, 2^-shift.
    [[nodiscard]] constexpr double gain() const noexcept {
      double g = 1.0;
      for (int i = 0; i < shift; ++i) g *= 0.5;
      return g;
    }
  };
};

namespace detail {
// The update rule of alpha representation A for number type T.
template <class A, class T>
using dctcp_alpha_rule = typename A::template rule<T>;
}  // namespace detail

/// @brief What basic_dctcp needs of an alpha representation `A` for number type `T`: a nested
/// `rule<T>` built from the gain, with init, update (once per window of data) and value.
template <class A, class T>
concept DctcpAlphaRep = Number<T> &&
    requires(const detail::dctcp_alpha_rule<A, T>& r,
             typename detail::dctcp_alpha_rule<A, T>::storage a, double d, std::uint64_t u) {
  { detail::dctcp_alpha_rule<A, T>(d) } -> std::same_as<detail::dctcp_alpha_rule<A, T>>;
  { r.init(d) } -> std::same_as<typename detail::dctcp_alpha_rule<A, T>::storage>;
  { r.update(a, u, u) } -> std::same_as<typename detail::dctcp_alpha_rule<A, T>::storage>;
  { detail::dctcp_alpha_rule<A, T>::value(a) } -> std::same_as<T>;
  { r.gain() } -> std::convertible_to<double>;
};

/// @brief Congestion avoidance by RFC 5681 §3.1's equation 3, the default: every ACK adds
/// MSS * acked / cwnd, at most one MSS (so one MSS per window of data). One division per ACK
/// (a floating-point or a 64-bit integer division, on the chain from one window to the next).
/// @code
/// netcc::basic_dctcp<netcc::arith::ieee_double, netcc::dctcp_alpha_exact,
///                    netcc::dctcp_growth_proportional> cc;  // netcc::dctcp
/// @endcode
struct dctcp_growth_proportional {};

/// @brief Congestion avoidance by byte counting, the method RFC 5681 §3.1 recommends (RFC 3465
/// §2.1): the bytes acked in congestion avoidance add up, and each time the count reaches cwnd,
/// cwnd comes off the count and cwnd grows by one MSS (at most one MSS per ACK; the count is
/// kept within [0, cwnd] and restarts at every reduction). One MSS per window of data as with
/// the proportional rule, but no division per ACK: a compare, a subtraction and an addition.
/// This is the rule Linux applies per segment (tcp_cong_avoid_ai, which ns-3's TcpLinuxReno and
/// TcpDctcp follow). It costs a counter per flow (8 B in the compact state: 40 B for
/// netcc::dctcp_fixed_counting).
/// @code
/// netcc::dctcp_counting cc{{.mss = netcc::bytes{1000}, .init_cwnd = netcc::bytes{10'000}}};
/// @endcode
struct dctcp_growth_counting {};

/// @brief A congestion-avoidance rule of basic_dctcp: netcc::dctcp_growth_proportional or
/// netcc::dctcp_growth_counting.
template <class G>
concept DctcpGrowth =
    std::same_as<G, dctcp_growth_proportional> || std::same_as<G, dctcp_growth_counting>;

/// @brief Parameters of DCTCP, with the defaults of RFC 8257, RFC 6928 and RFC 5681.
/// @code
/// netcc::dctcp_params p{.g = 1.0 / 16, .alpha_init = 1.0, .mss = netcc::bytes{8960}};
/// // init_cwnd 0: RFC 6928, min(10 * 8960, max(2 * 8960, 14600)) = 17920 B
/// @endcode
struct dctcp_params {
  /// @brief Estimation gain g in (0, 1] (RFC 8257 §4.2: 1/16).
  double g = 1.0 / 16;
  /// @brief Initial alpha in [0, 1] (RFC 8257 §3.3: 1; §4.2 discusses 0).
  double alpha_init = 1.0;
  /// @brief Maximum segment size: payload bytes of a full segment.
  bytes mss{1460};
  /// @brief Initial window; 0 means RFC 6928's min(10 MSS, max(2 MSS, 14600 B)).
  bytes init_cwnd{0};
  /// @brief Smallest window (RFC 5681's loss window, one MSS, when 0).
  bytes min_cwnd{0};
  /// @brief Largest window (the q32 range).
  bytes max_cwnd{0x7FFF'FFFF};
  /// @brief Largest slow-start increase per ACK; 0 means none (Linux). RFC 5681: one MSS;
  /// RFC 3465: two.
  bytes abc_limit{0};
  /// @brief Grow only while the window limits the sender (RFC 7661's principle).
  bool cwnd_limited_growth = true;
};

/// @brief Check DCTCP parameters; each error names "dctcp.<field>", the value and the rule.
/// @code
/// auto v = netcc::validate(netcc::dctcp_params{.g = 0});
/// // v[0].message() == "dctcp.g = 0: must be in (0, 1]"
/// @endcode
[[nodiscard]] inline validation validate(const dctcp_params& p) {
  validation v;
  v.check(p.g > 0 && p.g <= 1, "dctcp.g", p.g, "must be in (0, 1]");
  v.check(p.alpha_init >= 0 && p.alpha_init <= 1, "dctcp.alpha_init", p.alpha_init,
          "must be in [0, 1]");
  v.check(p.mss >= bytes{1} && p.mss <= bytes{65535}, "dctcp.mss", p.mss,
          "must be in [1, 65535] B");
  v.check(p.min_cwnd >= bytes{0} && p.min_cwnd <= bytes{0x7FFF'FFFF}, "dctcp.min_cwnd", p.min_cwnd,
          "must be in [0, 2147483647] B (0 means one MSS)");
  v.check(p.max_cwnd >= bytes{1} && p.max_cwnd <= bytes{0x7FFF'FFFF}, "dctcp.max_cwnd", p.max_cwnd,
          "must be in [1, 2147483647] B (the q32 range)");
  const bytes mss = p.mss >= bytes{1} && p.mss <= bytes{65535} ? p.mss : dctcp_params{}.mss;
  const bytes min_eff = p.min_cwnd > bytes{0} ? p.min_cwnd : mss;
  v.check(p.max_cwnd >= min_eff, "dctcp.max_cwnd", p.max_cwnd,
          "must be at least min_cwnd (one MSS when 0)");
  v.check(p.init_cwnd >= bytes{0} && p.init_cwnd <= p.max_cwnd, "dctcp.init_cwnd", p.init_cwnd,
          "must be in [0, max_cwnd] (0 means RFC 6928's initial window)");
  v.check(p.abc_limit >= bytes{0}, "dctcp.abc_limit", p.abc_limit,
          "must be non-negative (0 means no limit)");
  return v;
}

/// @brief Which rule the latest event ran (basic_dctcp::last_branch): the decision record the
/// double and q32 policies are checked to agree on (tests/control/dctcp_test.cpp). One byte of
/// per-flow state.
/// @code
/// if (cc.last_branch() == netcc::dctcp_branch::ecn_cut) { /* eq. 2 on this ACK */ }
/// @endcode
enum class dctcp_branch : std::uint8_t {
  none,        ///< no event yet
  ecn_cut,     ///< ACK with ECE outside a reduction window: cwnd (1 - alpha / 2) (eq. 2)
  ecn_held,    ///< ACK with ECE inside a reduction window: no change, no growth
  no_growth,   ///< ACK acknowledging nothing, or window-limited (cwnd_limited_growth)
  slow_start,  ///< ACK growing the window from below ssthresh (RFC 5681 §3.1)
  avoidance,   ///< ACK growing the window at or above ssthresh (congestion avoidance)
  loss_cut,    ///< loss outside a reduction window: cwnd / 2
  loss_held,   ///< loss inside a reduction window: no change
  timeout,     ///< retransmission timeout: cwnd = 1 MSS
};

namespace detail {

/// number_traits<T>::from_int(b) for a byte count 0 <= b < 2^31 (basic_dctcp's ACK path: the
/// acked bytes and the data in flight, both capped at 2^31 - 1). In a fixed point of at least 31
/// integer bits, b 2^F < 2^(I+F) lies within range, so from_int's 128-bit product and saturation
/// are idle: the shift alone gives the same raw value. Other number types: from_int itself.
template <class T>
[[nodiscard]] constexpr T dctcp_window_bytes(std::int64_t b) noexcept {
  if constexpr (requires { T::integer_bits; }) {
    if constexpr (T::integer_bits >= 31) return T::from_raw(b << T::fraction_bits);
  }
  return number_traits<T>::from_int(b);
}

// Whether number type T is a fixed-point window of at most 31 integer bits and at least 20
// fraction bits: the compact per-flow state holds such a window in 51 bits (31.20).
template <class T>
inline constexpr bool dctcp_compact_window = false;
template <int I, int F>
inline constexpr bool dctcp_compact_window<fixed_point<I, F>> = (I <= 31 && F >= 20);

// Whether alpha representation A packs into 11 bits of the compact state (an integer alpha of
// at most 2^10 units).
template <class A>
inline constexpr bool dctcp_alpha_packs = false;
template <int F>
inline constexpr bool dctcp_alpha_packs<dctcp_alpha_scaled<F>> = (F <= 10);

// No member: the place of an alpha the compact state packs into its bit fields.
struct dctcp_no_alpha {};
// No member: the place of the byte count of netcc::dctcp_growth_counting under the other rule.
struct dctcp_no_count {};

// The per-flow state of basic_dctcp in full width (double, or a fixed-point number outside the
// compact form): the policy's numbers, 64-bit byte counters and sequence marks.
template <class T, class S, bool Counting>
class dctcp_wide_state {
 public:
  // Byte counters halve when BytesAcked would pass this; one ACK counts at most half of it.
  static constexpr std::uint64_t counter_cap = std::uint64_t{1} << 62;
  static constexpr int reduction_bits = 32;

  [[nodiscard]] constexpr T window() const noexcept { return cwnd_; }
  constexpr void set_window(T w) noexcept { cwnd_ = w; }
  [[nodiscard]] constexpr T ssthresh() const noexcept { return ssthresh_; }
  constexpr void set_ssthresh(T w) noexcept { ssthresh_ = w; }
  [[nodiscard]] constexpr S alpha() const noexcept { return alpha_; }
  constexpr void set_alpha(S a) noexcept { alpha_ = a; }
  [[nodiscard]] constexpr std::uint64_t bytes_acked() const noexcept { return bytes_acked_; }
  [[nodiscard]] constexpr std::uint64_t bytes_marked() const noexcept { return bytes_marked_; }
  constexpr void set_counts(std::uint64_t acked, std::uint64_t marked) noexcept {
    bytes_acked_ = acked;
    bytes_marked_ = marked;
  }
  [[nodiscard]] constexpr bool window_end_reached(sequence ack) const noexcept {
    return seq_geq(ack, window_end_);
  }
  constexpr void arm_window_end(sequence nxt) noexcept { window_end_ = nxt; }
  [[nodiscard]] constexpr bool reduction_end_passed(sequence ack) const noexcept {
    return seq_gt(ack, reduction_end_);
  }
  constexpr void arm_reduction_end(sequence nxt) noexcept { reduction_end_ = nxt; }
  [[nodiscard]] constexpr std::uint32_t reductions() const noexcept { return reductions_; }
  constexpr void add_reduction() noexcept { ++reductions_; }
  [[nodiscard]] constexpr std::uint8_t flags() const noexcept { return flags_; }
  constexpr void set_flags(std::uint8_t f) noexcept { flags_ = f; }
  [[nodiscard]] constexpr dctcp_branch branch() const noexcept { return branch_; }
  constexpr void set_branch(dctcp_branch b) noexcept { branch_ = b; }
  [[nodiscard]] constexpr T ca_bytes() const noexcept {
    if constexpr (Counting) {
      return ca_bytes_;
    } else {
      return T{};
    }
  }
  constexpr void set_ca_bytes([[maybe_unused]] T c) noexcept {
    if constexpr (Counting) ca_bytes_ = c;
  }

 private:
  T cwnd_{};
  T ssthresh_{};
  std::uint64_t bytes_acked_ = 0;   // DCTCP.BytesAcked
  std::uint64_t bytes_marked_ = 0;  // DCTCP.BytesMarked
  sequence window_end_ = 0;         // DCTCP.WindowEnd
  sequence reduction_end_ = 0;      // SND.NXT at the last reduction
  std::uint32_t reductions_ = 0;
  std::uint8_t flags_ = 0;
  dctcp_branch branch_ = dctcp_branch::none;  // the rule the latest event ran
  S alpha_{};                                 // DCTCP.Alpha (a 16-bit alpha packs after the flags)
  [[no_unique_address]] std::conditional_t<Counting, T, dctcp_no_count> ca_bytes_{};
};

// The compact per-flow state of basic_dctcp for a fixed-point window (see the class comment of
// basic_dctcp, "Per-flow state"): 32 B with an alpha of at most 2^10 units, 40 B otherwise.
template <class T, class S, bool PackAlpha, bool Counting>
class dctcp_compact_state {
 public:
  static constexpr int window_fraction_bits = 20;
  static constexpr std::uint64_t counter_cap = std::uint64_t{1} << 27;
  static constexpr int reduction_bits = 13;

  [[nodiscard]] constexpr T window() const noexcept { return load(w0_ & window_mask); }
  constexpr void set_window(T w) noexcept { w0_ = (w0_ & ~window_mask) | store(w); }
  [[nodiscard]] constexpr T ssthresh() const noexcept { return load(w1_ & window_mask); }
  constexpr void set_ssthresh(T w) noexcept { w1_ = (w1_ & ~window_mask) | store(w); }
  [[nodiscard]] constexpr S alpha() const noexcept {
    if constexpr (PackAlpha) {
      return static_cast<S>(w1_ >> 51);
    } else {
      return wide_alpha_;
    }
  }
  constexpr void set_alpha(S a) noexcept {
    if constexpr (PackAlpha) {
      w1_ = (w1_ & window_mask) | ((static_cast<std::uint64_t>(a) & 0x7FF) << 51);
    } else {
      wide_alpha_ = a;
    }
  }
  [[nodiscard]] constexpr std::uint64_t bytes_acked() const noexcept { return w2_ & count_mask; }
  [[nodiscard]] constexpr std::uint64_t bytes_marked() const noexcept {
    return (w2_ >> 28) & count_mask;
  }
  constexpr void set_counts(std::uint64_t acked, std::uint64_t marked) noexcept {
    w2_ = (w2_ & ~((count_mask << 28) | count_mask)) | (acked & count_mask) |
          ((marked & count_mask) << 28);
  }
  [[nodiscard]] constexpr bool window_end_reached(sequence ack) const noexcept {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(ack) - window_end_) >= 0;
  }
  constexpr void arm_window_end(sequence nxt) noexcept {
    window_end_ = static_cast<std::uint32_t>(nxt);
  }
  [[nodiscard]] constexpr bool reduction_end_passed(sequence ack) const noexcept {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(ack) - reduction_end_) > 0;
  }
  constexpr void arm_reduction_end(sequence nxt) noexcept {
    reduction_end_ = static_cast<std::uint32_t>(nxt);
  }
  [[nodiscard]] constexpr std::uint32_t reductions() const noexcept {
    return static_cast<std::uint32_t>(w0_ >> 51);
  }
  constexpr void add_reduction() noexcept { w0_ += std::uint64_t{1} << 51; }  // wraps mod 2^13
  [[nodiscard]] constexpr std::uint8_t flags() const noexcept {
    return static_cast<std::uint8_t>((w2_ >> 56) & 0xF);
  }
  constexpr void set_flags(std::uint8_t f) noexcept {
    w2_ = (w2_ & ~(std::uint64_t{0xF} << 56)) | (std::uint64_t{f & 0xFu} << 56);
  }
  [[nodiscard]] constexpr dctcp_branch branch() const noexcept {
    return static_cast<dctcp_branch>(w2_ >> 60);
  }
  constexpr void set_branch(dctcp_branch b) noexcept {
    w2_ = (w2_ & ~(std::uint64_t{0xF} << 60)) | ((static_cast<std::uint64_t>(b) & 0xF) << 60);
  }
  [[nodiscard]] constexpr T ca_bytes() const noexcept {
    if constexpr (Counting) {
      return load(w3_);
    } else {
      return T{};
    }
  }
  constexpr void set_ca_bytes([[maybe_unused]] T c) noexcept {
    if constexpr (Counting) w3_ = store(c);
  }

 private:
  static constexpr std::uint64_t window_mask = (std::uint64_t{1} << 51) - 1;
  static constexpr std::uint64_t count_mask = (std::uint64_t{1} << 28) - 1;
  static constexpr int shift = T::fraction_bits - window_fraction_bits;
  // A window in [0, 2^31) B, rounded to the nearest 2^-20 B (a whole byte count, as every
  // bound is, is kept exactly, so clamping and min() stay exact).
  static constexpr std::uint64_t store(T w) noexcept {
    const std::int64_t r = w.raw() > 0 ? w.raw() : 0;
    if constexpr (shift == 0) {
      return static_cast<std::uint64_t>(r) & window_mask;
    } else {
      return ((static_cast<std::uint64_t>(r) + (std::uint64_t{1} << (shift - 1))) >> shift) &
             window_mask;
    }
  }
  static constexpr T load(std::uint64_t v) noexcept {
    return T::from_raw(static_cast<std::int64_t>(v << shift));
  }

  // Whole 64-bit words, each read and written as one (no partial loads of a recent store).
  std::uint64_t w0_ = 0;  // bits 0-50: the window (2^-20 B); 51-63: reductions modulo 2^13
  std::uint64_t w1_ = 0;  // bits 0-50: ssthresh (2^-20 B); 51-61: alpha when it packs
  std::uint64_t w2_ = 0;  // bits 0-27: BytesAcked; 28-55: BytesMarked; 56-59: flags; 60-63: branch
  std::uint32_t window_end_ = 0;     // DCTCP.WindowEnd modulo 2^32
  std::uint32_t reduction_end_ = 0;  // SND.NXT at the last reduction, modulo 2^32
  [[no_unique_address]] std::conditional_t<PackAlpha, dctcp_no_alpha, S> wide_alpha_{};
  // The byte count of netcc::dctcp_growth_counting, as the window (51 bits, 2^-20 B).
  [[no_unique_address]] std::conditional_t<Counting, std::uint64_t, dctcp_no_count> w3_{};
};

template <class T, class A, class S, bool Counting>
using dctcp_state = std::conditional_t<dctcp_compact_window<T>,
                                       dctcp_compact_state<T, S, dctcp_alpha_packs<A>, Counting>,
                                       dctcp_wide_state<T, S, Counting>>;

}  // namespace detail

/// @brief DCTCP's sender (the paper §3.1; RFC 8257 §3.3-3.5) over arithmetic policy `Policy`
/// and alpha representation `AlphaRep`.
///
/// After any event sequence: cwnd() within [min_cwnd, max_cwnd], alpha() in [0, 1], at most one
/// reduction (ECN cut, fast-retransmit halving, first timeout) per window of data, none without
/// an ECN echo or a loss. No allocation, no virtual functions, no clock reads.
///
/// Configuration and per-flow state. The controller is a netcc::basic_dctcp::config (the
/// parameters and the numbers derived from them, shared by every flow of a class) and a
/// netcc::basic_dctcp::flow_state (what changes per flow); the event logic is written once, as
/// members of config taking the state (`cfg.on_ack(st, e)`), and the controller forwards to it.
/// A caller holding many flows keeps one config per path class and an array of flow_state.
///
/// Per-flow state. With double (and any fixed-point number outside the form below) the state
/// keeps the policy's numbers, 64-bit byte counters and 64-bit sequence marks (56-64 B). With a
/// fixed-point window of at most 31 integer and at least 20 fraction bits (netcc::arith::q32)
/// it is compact, 32 B with an alpha of at most 2^10 units (netcc::dctcp_fixed), 40 B with the
/// exact alpha (an 8-byte number): the arithmetic is the policy's, and what is stored narrows
/// as follows (each a documented range, each clamped):
/// - cwnd and ssthresh: 51 bits each, whole bytes below 2^31 and 20 fraction bits (rounded to
///   nearest 2^-20 B after each event; a whole byte count, and so every bound, exactly);
/// - BytesAcked and BytesMarked: 28 bits; both halve when BytesAcked would pass 2^27 B (rather
///   than 2^62), which keeps F to 2^-26, and one ACK counts at most 2^26 B toward them (growth
///   still uses the whole acked count);
/// - WindowEnd and the reduction window's end: the SND.NXT modulo 2^32, compared with ACKs
///   modulo 2^32 (as TCP's 32-bit sequence numbers): exact while an ACK stays within 2^31 B of
///   the mark it is compared with;
/// - the reduction count modulo 2^13, the four flags and the branch record in 4 bits each, an
///   alpha of at most 2^10 units in 11 bits.
/// Byte counting (netcc::dctcp_growth_counting) adds its count, one more number in the wide
/// state, 8 B (51 bits, as the window) in the compact one.
/// @tparam Policy netcc::arith::ieee_double or a fixed-point policy such as netcc::arith::q32
/// @tparam AlphaRep netcc::dctcp_alpha_exact or netcc::dctcp_alpha_scaled<F>
/// @tparam Growth netcc::dctcp_growth_proportional (RFC 5681's equation 3) or
/// netcc::dctcp_growth_counting (RFC 5681's byte counting; 8 more bytes of state)
/// @code
/// netcc::basic_dctcp<netcc::arith::q32, netcc::dctcp_alpha_scaled<>> cc;
/// cc.on_ack(netcc::ack_event{.ack_seq = 1460, .snd_nxt = 29'200,
///                            .acked = netcc::bytes{1460}, .ecn_echo = true});
/// // alpha is still 1 (its window has not ended): the echo halves cwnd to 7300 B
/// @endcode
template <ArithmeticPolicy Policy = arith::ieee_double, class AlphaRep = dctcp_alpha_exact,
          class Growth = dctcp_growth_proportional>
requires DctcpAlphaRep<AlphaRep, typename Policy::value_type> && DctcpGrowth<Growth>
class basic_dctcp {
 public:
  /// @brief The number type of the window.
  using value_type = typename Policy::value_type;
  /// @brief The alpha update rule in force.
  using alpha_rule = typename AlphaRep::template rule<value_type>;
  /// @brief How one flow stores alpha.
  using alpha_storage = typename alpha_rule::storage;
  /// @brief The parameter struct.
  using params_type = dctcp_params;
  /// @brief The congestion-avoidance rule.
  using growth_rule = Growth;
  /// @brief Whether congestion avoidance counts bytes (netcc::dctcp_growth_counting).
  static constexpr bool counts_bytes = std::is_same_v<Growth, dctcp_growth_counting>;
  /// @brief Events consumed (netcc::controller_traits): ACKs, losses, timeouts, and sends (the
  /// CWR marking of RFC 8257 §3.3).
  static constexpr event_set events =
      cc_event::ack | cc_event::loss | cc_event::timeout | cc_event::send;

  /// @brief One flow's state (trivially copyable; compact for a fixed-point window, see the
  /// class comment): window, ssthresh, alpha, the two byte counters, WindowEnd, the reduction
  /// window's end, the reduction count, flags and the latest branch. Read it through config.
  using flow_state = detail::dctcp_state<value_type, AlphaRep, alpha_storage, counts_bytes>;
  /// @brief Whether flow_state is the compact form (a fixed-point window; see the class comment).
  static constexpr bool compact = detail::dctcp_compact_window<value_type>;
  static_assert(std::is_trivially_copyable_v<flow_state>);

  /// @brief What a class of flows shares: the parameters (invalid fields fallen back) and the
  /// numbers derived from them, with the event logic as members taking one flow's state.
  /// @code
  /// const netcc::dctcp_fixed::config cfg{{.mss = netcc::bytes{1460}}};
  /// std::vector<netcc::dctcp_fixed::flow_state> flows(1000, cfg.initial_state());
  /// cfg.on_ack(flows[7], netcc::ack_event{.ack_seq = 1460, .snd_nxt = 14'600,
  ///                                       .acked = netcc::bytes{1460}});
  /// netcc::bytes w = cfg.cwnd(flows[7]);  // 14600 + 1460 B
  /// @endcode
  class config {
   public:
    /// @brief The configuration for parameters `p` (invalid fields fall back to defaults).
    constexpr explicit config(const dctcp_params& p = {}) noexcept
        : params_(sanitise(p)), rule_(params_.g) {
      mss_ = from_bytes(params_.mss.count());
      min_cwnd_ = from_bytes(params_.min_cwnd.count());
      max_cwnd_ = from_bytes(params_.max_cwnd.count());
      abc_ = from_bytes(params_.abc_limit.count());
    }

    /// @brief A new flow's state: the initial window, ssthresh = max_cwnd, alpha_init.
    [[nodiscard]] constexpr flow_state initial_state() const noexcept {
      flow_state st{};
      init(st);
      return st;
    }
    /// @brief Reset `st` to a new flow's state.
    constexpr void init(flow_state& st) const noexcept {
      st = flow_state{};
      st.set_window(clamp_window(from_bytes(params_.init_cwnd.count())));
      st.set_ssthresh(max_cwnd_);
      st.set_alpha(rule_.init(params_.alpha_init));
    }

    /// @brief basic_dctcp::on_ack for the flow of state `st`.
    template <class E>
    requires EcnFeedback<E>
    constexpr void on_ack(flow_state& st, const E& e) const noexcept {
      // The compact state's fields share words: the event works on a copy in registers, with
      // one read and one write of the state.
      if constexpr (compact) {
        flow_state s = st;
        handle_ack(s, feedback_traits<E>::ack_seq(e), feedback_traits<E>::snd_nxt(e),
                   acked_count(feedback_traits<E>::acked_bytes(e)),
                   feedback_traits<E>::ecn_echo(e));
        st = s;
      } else {
        handle_ack(st, feedback_traits<E>::ack_seq(e), feedback_traits<E>::snd_nxt(e),
                   acked_count(feedback_traits<E>::acked_bytes(e)),
                   feedback_traits<E>::ecn_echo(e));
      }
    }

    /// @brief basic_dctcp::on_loss for the flow of state `st`.
    template <class E>
    requires AckFeedback<E>
    constexpr void on_loss(flow_state& st, const E& e) const noexcept {
      if constexpr (compact) {
        flow_state s = st;
        handle_loss(s, feedback_traits<E>::ack_seq(e), feedback_traits<E>::snd_nxt(e));
        st = s;
      } else {
        handle_loss(st, feedback_traits<E>::ack_seq(e), feedback_traits<E>::snd_nxt(e));
      }
    }

    /// @brief basic_dctcp::on_timeout for the flow of state `st`.
    constexpr void on_timeout(flow_state& st, timestamp /*now*/ = {}) const noexcept {
      if constexpr (compact) {
        flow_state s = st;
        handle_timeout(s);
        st = s;
      } else {
        handle_timeout(st);
      }
    }

   private:
    // The ACK's fields alone (the event itself may be large: an INT stack).
    constexpr void handle_ack(flow_state& st, sequence ack, sequence nxt, std::uint64_t acked,
                              bool ece) const noexcept {
      const bool fresh_window = open_windows(st, nxt);
      // RFC 8257 §3.3: count acked and marked bytes; at the end of the window update alpha.
      count(st, acked, ece);
      if (st.window_end_reached(ack)) {
        if (st.bytes_acked() > 0)
          st.set_alpha(rule_.update(st.alpha(), st.bytes_marked(), st.bytes_acked()));
        st.set_counts(0, 0);
        st.arm_window_end(nxt);  // WindowEnd = SND.NXT
      }
      if (!fresh_window) end_reduction_window(st, ack);
      if (ece) {
        st.set_branch(dctcp_branch::ecn_held);
        if (!(st.flags() & reduced)) {
          st.set_branch(dctcp_branch::ecn_cut);
          // Eq. 2: cwnd (1 - alpha / 2), floored at two segments (RFC 5681).
          const value_type w0 = st.window();
          const value_type w = w0 - w0 * alpha(st) * num<value_type>(0.5);
          reduce_to(st, w, nxt);
          st.set_flags(st.flags() | cwr);  // RFC 3168 §6.1.2: CWR on the next new data segment
        }
        return;  // RFC 3168 §6.1.2: no growth on an ACK that echoes CE
      }
      grow(st, acked, nxt, ack);
    }

    constexpr void handle_loss(flow_state& st, sequence ack, sequence nxt) const noexcept {
      if (!open_windows(st, nxt)) end_reduction_window(st, ack);
      st.set_branch(dctcp_branch::loss_held);
      if (!(st.flags() & reduced)) {
        st.set_branch(dctcp_branch::loss_cut);
        reduce_to(st, st.window() * num<value_type>(0.5), nxt);
      }
    }

    constexpr void handle_timeout(flow_state& st) const noexcept {
      st.set_branch(dctcp_branch::timeout);
      if (!(st.flags() & reduced)) {
        st.set_ssthresh(clamp_window(max_v(st.window() * num<value_type>(0.5), two_mss())));
        st.add_reduction();
      }
      st.set_window(clamp_window(mss_));
      st.set_ca_bytes(value_type{});
      st.set_flags(st.flags() | reduced | rearm);
    }

   public:
    /// @brief basic_dctcp::on_send for the flow of state `st`.
    constexpr bool on_send(flow_state& st, bytes payload, timestamp /*now*/ = {}) const noexcept {
      if (payload <= bytes{0} || !(st.flags() & cwr)) return false;
      st.set_flags(static_cast<std::uint8_t>(st.flags() & ~cwr));
      return true;
    }

    /// @brief basic_dctcp::cwnd of `st`.
    [[nodiscard]] constexpr bytes cwnd(const flow_state& st) const noexcept {
      return bytes{static_cast<std::int64_t>(to_double(st.window()))};
    }
    /// @brief basic_dctcp::window of `st`.
    [[nodiscard]] constexpr value_type window(const flow_state& st) const noexcept {
      return st.window();
    }
    /// @brief basic_dctcp::ssthresh of `st`.
    [[nodiscard]] constexpr value_type ssthresh(const flow_state& st) const noexcept {
      return st.ssthresh();
    }
    /// @brief basic_dctcp::last_branch of `st`.
    [[nodiscard]] constexpr dctcp_branch last_branch(const flow_state& st) const noexcept {
      return st.branch();
    }
    /// @brief basic_dctcp::alpha of `st`.
    [[nodiscard]] constexpr value_type alpha(const flow_state& st) const noexcept {
      return alpha_rule::value(st.alpha());
    }
    /// @brief basic_dctcp::alpha_raw of `st`.
    [[nodiscard]] constexpr alpha_storage alpha_raw(const flow_state& st) const noexcept {
      return st.alpha();
    }
    /// @brief basic_dctcp::ca_bytes of `st`.
    [[nodiscard]] constexpr value_type ca_bytes(const flow_state& st) const noexcept {
      return st.ca_bytes();
    }
    /// @brief basic_dctcp::reductions of `st` (modulo 2^reduction_bits).
    [[nodiscard]] constexpr std::uint32_t reductions(const flow_state& st) const noexcept {
      return st.reductions();
    }
    /// @brief basic_dctcp::in_reduction_window of `st`.
    [[nodiscard]] constexpr bool in_reduction_window(const flow_state& st) const noexcept {
      return (st.flags() & reduced) != 0;
    }
    /// @brief basic_dctcp::cwr_pending of `st`.
    [[nodiscard]] constexpr bool cwr_pending(const flow_state& st) const noexcept {
      return (st.flags() & cwr) != 0;
    }
    /// @brief The gain g in force.
    [[nodiscard]] constexpr double gain() const noexcept { return rule_.gain(); }
    /// @brief The parameters in force (after invalid fields fell back).
    [[nodiscard]] constexpr const dctcp_params& params() const noexcept { return params_; }

   private:
    static constexpr value_type max_v(value_type a, value_type b) noexcept { return a < b ? b : a; }
    static constexpr value_type min_v(value_type a, value_type b) noexcept { return b < a ? b : a; }
    [[nodiscard]] constexpr value_type two_mss() const noexcept { return mss_ + mss_; }
    [[nodiscard]] constexpr value_type clamp_window(value_type w) const noexcept {
      return clamp_num(w, min_cwnd_, max_cwnd_);
    }

    // The first ACK arms WindowEnd; the first ACK after a timeout arms the end of the
    // timeout's reduction window. Returns true if the reduction window was armed by this ACK
    // (it cannot end on it).
    static constexpr bool open_windows(flow_state& st, sequence nxt) noexcept {
      std::uint8_t f = st.flags();
      if ((f & (armed | rearm)) == armed) return false;  // the common case: nothing to arm
      if (!(f & armed)) {
        st.arm_window_end(nxt);
        f |= armed;
      }
      bool fresh = false;
      if (f & rearm) {
        st.arm_reduction_end(nxt);
        f &= static_cast<std::uint8_t>(~rearm);
        fresh = true;
      }
      st.set_flags(f);
      return fresh;
    }

    // The reduction window ends at the first ACK beyond the SND.NXT of the reduction.
    // (Both tests are evaluated and the flag cleared by a mask: whether a reduction window is
    // open and whether this ACK passes its end are data, a branch on them mispredicts.)
    static constexpr void end_reduction_window(flow_state& st, sequence ack) noexcept {
      const std::uint8_t f = st.flags();
      const unsigned passed = st.reduction_end_passed(ack) ? unsigned{reduced} : 0u;
      st.set_flags(static_cast<std::uint8_t>(f & ~passed));
    }

    // RFC 8257 §3.3 steps 1-2; near the cap both counters halve (F is kept).
    static constexpr void count(flow_state& st, std::uint64_t acked, bool ece) noexcept {
      constexpr std::uint64_t cap = flow_state::counter_cap;
      if (acked > cap / 2) acked = cap / 2;
      std::uint64_t a = st.bytes_acked();
      std::uint64_t m = st.bytes_marked();
      if (a > cap - acked) {
        a >>= 1;
        m >>= 1;
        acked >>= 1;
      }
      a += acked;
      m += ece ? acked : 0;
      st.set_counts(a, m);
    }

    // One reduction of the window of data ending at `nxt`: ssthresh = max(w, 2 MSS), cwnd
    // never raised.
    constexpr void reduce_to(flow_state& st, value_type w, sequence nxt) const noexcept {
      st.set_ssthresh(clamp_window(max_v(w, two_mss())));
      st.set_window(min_v(st.window(), st.ssthresh()));
      st.arm_reduction_end(nxt);
      st.set_flags(st.flags() | reduced);
      st.add_reduction();
      st.set_ca_bytes(value_type{});  // byte counting restarts (no-op for the proportional rule)
    }

    // RFC 5681 §3.1: slow start up to ssthresh, the rest of the acked bytes to congestion
    // avoidance (MSS * acked / cwnd, at most one MSS); only while window-limited. Apart from
    // the window-limited test (a threshold), the new window is continuous in the old one and
    // in ssthresh, so rounding cannot grow into a different decision.
    constexpr void grow(flow_state& st, std::uint64_t acked, sequence nxt,
                        sequence ack) const noexcept {
      st.set_branch(dctcp_branch::no_growth);
      if (acked == 0) return;
      const std::int64_t a = acked < window_cap ? static_cast<std::int64_t>(acked) : window_cap;
      value_type cw = st.window();
      const value_type ss = st.ssthresh();
      if (params_.cwnd_limited_growth) {
        // Data in flight when the ACK arrived: SND.NXT - ACK + acked.
        constexpr auto cap = static_cast<std::uint64_t>(window_cap);
        const std::uint64_t out = seq_geq(nxt, ack) ? nxt - ack : 0;
        const std::uint64_t flight = acked < cap && out < cap - acked ? out + acked : cap;
        const value_type f = window_bytes(static_cast<std::int64_t>(flight));  // <= window_cap
        const bool slow_start = cw < ss;
        if (slow_start ? f + f < cw : f + mss_ < cw) return;
      }
      value_type left = window_bytes(a);  // a <= window_cap
      st.set_branch(dctcp_branch::avoidance);
      if (cw < ss) {
        st.set_branch(dctcp_branch::slow_start);
        // The bytes acked below ssthresh grow the window one for one (RFC 3465's limit, if
        // set); those beyond it count toward congestion avoidance.
        const value_type below = min_v(left, ss - cw);
        cw = clamp_window(cw + (params_.abc_limit > bytes{0} ? min_v(below, abc_) : below));
        left = left - below;
        if (!(left > value_type{})) {
          st.set_window(cw);
          return;
        }
      }
      if constexpr (counts_bytes) {
        // RFC 5681 §3.1 byte counting (RFC 3465 §2.1): when the count reaches cwnd, cwnd comes
        // off it and the window grows by one MSS; the count stays within [0, cwnd].
        const value_type c = st.ca_bytes();
        const value_type room = c < cw ? cw - c : value_type{};
        if (left < room) {
          st.set_ca_bytes(c + left);
          st.set_window(cw);
          return;
        }
        const value_type next = clamp_window(cw + mss_);
        st.set_ca_bytes(min_v(left - room, next));
        st.set_window(next);
      } else {
        // cwnd >= min_cwnd >= 1 B, so the ratio is finite; an ACK of a whole window or more
        // adds one MSS.
        // (The ratio by one hardware division in fixed point: detail::quotient, operator/'s
        // value.)
        const value_type inc = left < cw ? mss_ * detail::quotient(left, cw) : mss_;
        st.set_window(clamp_window(cw + inc));
      }
    }

    dctcp_params params_;
    alpha_rule rule_;
    value_type mss_{};
    value_type min_cwnd_{};
    value_type max_cwnd_{};
    value_type abc_{};
  };

  /// @brief A controller with parameters `p` (unchecked: invalid fields fall back to their
  /// defaults; netcc::make reports them instead).
  constexpr explicit basic_dctcp(const dctcp_params& p = {}) noexcept
      : cfg_(p), s_(cfg_.initial_state()) {}

  /// @brief One ACK: RFC 8257 §3.3 (byte counts, alpha once per window of data, the cut at
  /// most once per window), §3.4 (growth as RFC 5681).
  /// @param e an ACK event with cumulative ack_seq, snd_nxt, newly acked bytes and the ECN echo
  template <class E>
  requires EcnFeedback<E>
  constexpr void on_ack(const E& e) noexcept { cfg_.on_ack(s_, e); }

  /// @brief A loss found by fast retransmit on ACK `e` (RFC 8257 §3.5, RFC 5681 §3.2):
  /// ssthresh = max(cwnd / 2, 2 MSS), cwnd = min(cwnd, ssthresh), unless the current window of
  /// data was already reduced (by an ECN cut, a loss or a timeout).
  template <class E>
  requires AckFeedback<E>
  constexpr void on_loss(const E& e) noexcept { cfg_.on_loss(s_, e); }

  /// @brief Retransmission timeout (RFC 8257 §3.5, RFC 5681 §3.1): cwnd = the loss window (one
  /// MSS, at least min_cwnd) always; ssthresh = max(cwnd / 2, 2 MSS) unless the current window
  /// of data was already reduced (a repeated timeout, or one after a cut). The window of data
  /// this timeout covers ends when an ACK passes the SND.NXT of the first ACK after it. Time is
  /// not needed.
  constexpr void on_timeout(timestamp now = {}) noexcept { cfg_.on_timeout(s_, now); }

  /// @brief A segment of `payload` new data bytes leaves (RFC 3168 §6.1.2): true when it must
  /// carry CWR, i.e. for the first new data segment after an ECN cut. Call it for new data
  /// only, not for retransmissions or pure ACKs.
  constexpr bool on_send(bytes payload, timestamp now = {}) noexcept {
    return cfg_.on_send(s_, payload, now);
  }

  /// @brief The congestion window in whole bytes (rounded down), in [min_cwnd, max_cwnd].
  [[nodiscard]] constexpr bytes cwnd() const noexcept { return cfg_.cwnd(s_); }
  /// @brief The pacing rate: bit_rate::max(), DCTCP is window-based and does not pace (the
  /// netcc::Controller convention for "not paced").
  [[nodiscard]] constexpr bit_rate pacing_rate() const noexcept { return bit_rate::max(); }
  /// @brief The window as computed (unrounded; in the compact state, to 2^-20 B).
  [[nodiscard]] constexpr value_type window() const noexcept { return cfg_.window(s_); }
  /// @brief The slow-start threshold (max_cwnd until the first reduction).
  [[nodiscard]] constexpr value_type ssthresh() const noexcept { return cfg_.ssthresh(s_); }
  /// @brief The rule the latest event ran.
  [[nodiscard]] constexpr dctcp_branch last_branch() const noexcept { return cfg_.last_branch(s_); }
  /// @brief alpha, the estimated fraction of marked bytes, in [0, 1].
  [[nodiscard]] constexpr value_type alpha() const noexcept { return cfg_.alpha(s_); }
  /// @brief alpha as stored (the policy's number, or raw 2^-FracBits units).
  [[nodiscard]] constexpr alpha_storage alpha_raw() const noexcept { return cfg_.alpha_raw(s_); }
  /// @brief The bytes counted toward congestion avoidance's next MSS, in [0, cwnd]
  /// (netcc::dctcp_growth_counting; always 0 under the proportional rule).
  [[nodiscard]] constexpr value_type ca_bytes() const noexcept { return cfg_.ca_bytes(s_); }
  /// @brief The gain g in force (for netcc::dctcp_alpha_scaled, a power of two).
  [[nodiscard]] constexpr double gain() const noexcept { return cfg_.gain(); }
  /// @brief Reductions made so far (ECN cuts, fast-retransmit halvings, first timeouts of a
  /// window of data), modulo 2^reduction_bits (2^32; 2^13 in the compact state).
  [[nodiscard]] constexpr std::uint32_t reductions() const noexcept { return cfg_.reductions(s_); }
  /// @brief Whether the current window of data has been reduced (no further cut in it).
  [[nodiscard]] constexpr bool in_reduction_window() const noexcept {
    return cfg_.in_reduction_window(s_);
  }
  /// @brief Whether the next new data segment must carry CWR (see on_send).
  [[nodiscard]] constexpr bool cwr_pending() const noexcept { return cfg_.cwr_pending(s_); }
  /// @brief The parameters in force (after invalid fields fell back).
  [[nodiscard]] constexpr const dctcp_params& params() const noexcept { return cfg_.params(); }
  /// @brief The configuration (shared part) of this controller.
  [[nodiscard]] constexpr const config& configuration() const noexcept { return cfg_; }
  /// @brief This controller's per-flow state.
  [[nodiscard]] constexpr const flow_state& state() const noexcept { return s_; }

  /// @brief Bytes of per-flow state, sizeof(flow_state) (see the class comment), as opposed to
  /// the configuration every flow of a class shares.
  static constexpr std::size_t state_bytes = sizeof(flow_state);
  /// @brief Bits of the reduction count (reductions() is modulo 2^reduction_bits).
  static constexpr int reduction_bits = flow_state::reduction_bits;

 private:
  enum : std::uint8_t { armed = 1, reduced = 2, rearm = 4, cwr = 8 };
  static constexpr std::int64_t window_cap = 0x7FFF'FFFF;

  static constexpr dctcp_params sanitise(dctcp_params p) noexcept {
    const dctcp_params d{};
    if (!(p.g > 0 && p.g <= 1)) p.g = d.g;
    if (!(p.alpha_init >= 0 && p.alpha_init <= 1)) p.alpha_init = d.alpha_init;
    if (p.mss < bytes{1} || p.mss > bytes{65535}) p.mss = d.mss;
    if (p.min_cwnd <= bytes{0} || p.min_cwnd > bytes{window_cap}) p.min_cwnd = p.mss;
    if (p.max_cwnd < bytes{1} || p.max_cwnd > bytes{window_cap}) p.max_cwnd = d.max_cwnd;
    if (p.max_cwnd < p.min_cwnd) p.max_cwnd = p.min_cwnd;
    if (p.init_cwnd <= bytes{0} || p.init_cwnd > p.max_cwnd) {
      // RFC 6928: min(10 MSS, max(2 MSS, 14600 B)); within [min_cwnd, max_cwnd] after clamping.
      const std::int64_t m = p.mss.count();
      const std::int64_t two = 2 * m > 14'600 ? 2 * m : 14'600;
      p.init_cwnd = bytes{10 * m < two ? 10 * m : two};
    }
    if (p.abc_limit < bytes{0}) p.abc_limit = bytes{0};
    if (p.abc_limit > bytes{window_cap}) p.abc_limit = bytes{window_cap};
    return p;
  }

  static constexpr value_type from_bytes(std::int64_t b) noexcept {
    return number_traits<value_type>::from_int(b);
  }
  // from_bytes(b) for 0 <= b <= window_cap < 2^31 (the ACK path's byte counts).
  static constexpr value_type window_bytes(std::int64_t b) noexcept {
    return detail::dctcp_window_bytes<value_type>(b);
  }
  // An ACK's newly acknowledged bytes; below zero counts as zero, at most 2^61.
  static constexpr std::uint64_t acked_count(bytes b) noexcept {
    constexpr std::uint64_t cap = std::uint64_t{1} << 61;
    const std::int64_t c = b.count();
    if (c <= 0) return 0;
    return static_cast<std::uint64_t>(c) < cap ? static_cast<std::uint64_t>(c) : cap;
  }

  config cfg_;
  flow_state s_;
};

/// @brief DCTCP with double arithmetic and alpha as in Eq. 1.
using dctcp = basic_dctcp<>;
/// @brief DCTCP in integers only (per event; parameters are converted once, at construction):
/// the window in netcc::arith::q32, alpha in 1/1024 units with g = 2^-4 (Linux's representation;
/// RFC 8257 §4.2).
using dctcp_fixed = basic_dctcp<arith::q32, dctcp_alpha_scaled<10>>;
/// @brief netcc::dctcp with RFC 5681's byte counting in congestion avoidance
/// (netcc::dctcp_growth_counting): no division per ACK.
using dctcp_counting = basic_dctcp<arith::ieee_double, dctcp_alpha_exact, dctcp_growth_counting>;
/// @brief netcc::dctcp_fixed with RFC 5681's byte counting (netcc::dctcp_growth_counting): no
/// division per ACK, 40 B of per-flow state.
using dctcp_fixed_counting = basic_dctcp<arith::q32, dctcp_alpha_scaled<10>, dctcp_growth_counting>;

/// @brief The paper's guideline for the marking threshold (§3.3, from Q_min > 0): K must exceed
/// C * RTT / 7 for the queue not to underflow, so that throughput stays at capacity.
/// @param bdp C * RTT, in any unit (packets in the paper); the result is in the same unit
/// @code
/// double k = netcc::dctcp_k_floor(83.3);   // 11.9 packets for 10 Gbps, 100 us, 1500 B
/// @endcode
[[nodiscard]] constexpr double dctcp_k_floor(double bdp) noexcept {
  return bdp > 0 ? bdp / 7 : 0.0;
}

namespace detail {
// Newton's square root for x >= 0 (constexpr; std::sqrt is not under clang 14).
constexpr double dctcp_sqrt(double x) noexcept {
  if (!(x > 0)) return 0.0;
  double r = x < 1 ? 1.0 : x;
  for (int i = 0; i < 2000; ++i) {
    const double next = 0.5 * (r + x / r);
    if (next >= r) break;  // monotone from above: converged
    r = next;
  }
  return r;
}
}  // namespace detail

/// @brief The paper's guideline for the gain (§3.3): the EWMA must span a congestion event,
/// (1 - g)^T_C > 1/2 with T_C the sawtooth period in RTTs at N = 1, which gives
/// g < 1.386 / sqrt(2 (C * RTT + K)) (1.386 = 2 ln 2).
/// @param bdp_packets C * RTT in packets
/// @param k_packets the marking threshold K in packets
/// @code
/// double g_max = netcc::dctcp_gain_ceiling(83.3, 40);   // 0.0883: g = 1/16 is inside
/// @endcode
[[nodiscard]] constexpr double dctcp_gain_ceiling(double bdp_packets, double k_packets) noexcept {
  const double w = (bdp_packets > 0 ? bdp_packets : 0.0) + (k_packets > 0 ? k_packets : 0.0);
  return w > 0 ? 1.3862943611198906 / detail::dctcp_sqrt(2 * w) : 1.0;
}

/// @brief The sawtooth of N synchronised long-lived DCTCP flows through one bottleneck with a
/// step marking threshold K (the paper §3.3, Eq. 3-12). All sizes in packets, times in RTTs.
/// @code
/// auto s = netcc::dctcp_sawtooth::of(2, 83.1, 40);
/// // s.q_max == 42 (K + N); s.amplitude ~ 11.4; s.q_min ~ 30.6 > 0: no underflow
/// @endcode
struct dctcp_sawtooth {
  /// @brief W* = (C * RTT + K) / N: the window at which the queue reaches K (from Eq. 3).
  double w_star = 0;
  /// @brief alpha in steady state: the root in [0, 1] of alpha^2 (1 - alpha / 4) =
  /// (2 W* + 1) / (W* + 1)^2 (Eq. 6; about sqrt(2 / W*), Eq. 7).
  double alpha = 0;
  /// @brief D = (W* + 1) alpha / 2: a flow's window drop per period (Eq. 8).
  double window_drop = 0;
  /// @brief A = N D: the queue's oscillation amplitude (Eq. 9; about
  /// sqrt(2 N (C * RTT + K)) / 2).
  double amplitude = 0;
  /// @brief T_C = D: the period, in RTTs (Eq. 10).
  double period = 0;
  /// @brief Q_max = N (W* + 1) - C * RTT = K + N (Eq. 11).
  double q_max = 0;
  /// @brief Q_min = Q_max - A (Eq. 12); the link stays busy while it is positive.
  double q_min = 0;

  /// @brief The sawtooth for `flows` flows (at least 1), C * RTT = `bdp_packets` and K =
  /// `k_packets` (negative values count as 0).
  [[nodiscard]] static constexpr dctcp_sawtooth of(double flows, double bdp_packets,
                                                   double k_packets) noexcept {
    const double n = flows >= 1 ? flows : 1.0;
    const double bdp = bdp_packets > 0 ? bdp_packets : 0.0;
    const double k = k_packets > 0 ? k_packets : 0.0;
    dctcp_sawtooth s;
    s.w_star = (bdp + k) / n;
    // Eq. 6: the left side grows on [0, 1] (derivative 2a - 3a^2/4 > 0); bisect.
    const double rhs = (2 * s.w_star + 1) / ((s.w_star + 1) * (s.w_star + 1));
    double lo = 0, hi = 1;
    if (rhs >= 0.75) {
      lo = 1;  // the left side is at most 3/4: every packet marked
    } else {
      for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        (mid * mid * (1 - mid / 4) < rhs ? lo : hi) = mid;
      }
    }
    s.alpha = lo;
    s.window_drop = (s.w_star + 1) * s.alpha / 2;
    s.amplitude = n * s.window_drop;
    s.period = s.window_drop;
    s.q_max = k + n;
    s.q_min = s.q_max - s.amplitude;
    return s;
  }
};

// Per-flow state budget (TARGETS.md: 32 B for RTT/ECN controllers in fixed point): the integer
// form's compact state is 32 B; q32 with the exact alpha adds the 8-byte alpha; double keeps full
// width (printed by bench/dctcp.cpp). The configuration (params and the derived MSS, bounds,
// gain) is shared by a class of flows: basic_dctcp::config.
static_assert(dctcp::state_bytes <= 64, "dctcp: per-flow state within 64 B");
static_assert(basic_dctcp<arith::q32>::state_bytes <= 40, "dctcp (q32): per-flow state in 40 B");
static_assert(sizeof(dctcp_fixed::flow_state) <= 32, "dctcp_fixed: per-flow state within 32 B");
static_assert(dctcp_fixed::state_bytes <= 32, "dctcp_fixed: per-flow state within 32 B");
static_assert(sizeof(dctcp) <= 64 + 128, "dctcp: 64 B of state + at most 128 B of configuration");
static_assert(sizeof(dctcp_fixed) <= 32 + 128, "dctcp_fixed: 32 B state + 128 B configuration");
// Byte counting keeps one more number per flow.
static_assert(dctcp_counting::state_bytes <= 72, "dctcp_counting: per-flow state within 72 B");
static_assert(dctcp_fixed_counting::state_bytes <= 40,
              "dctcp_fixed_counting: per-flow state within 40 B");

}  // namespace netcc
