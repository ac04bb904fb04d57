// SPDX-License-Identifier: MIT
/// @file
/// @brief DCTCP: ECN-fraction estimate alpha once per window of data and a window cut by
/// alpha / 2 at most once per window, over standard slow start and congestion avoidance.
///
/// Sources: M. Alizadeh, A. Greenberg, D. A. Maltz, J. Padhye, P. Patel, B. Prabhakar,
/// S. Sengupta, M. Sridharan, "Data Center TCP (DCTCP)", ACM SIGCOMM 2010, §3.1 (Eq. 1:
/// alpha <- (1 - g) * alpha + g * F once per window of data, F the fraction of marked packets;
/// Eq. 2: cwnd <- cwnd * (1 - alpha / 2)), §3.4 (g = 1/16); and RFC 8257 (DCTCP for data
/// centers), §3.3 (DCTCP.WindowEnd, DCTCP.BytesAcked, DCTCP.BytesMarked: F counts bytes, the
/// window ends when SND.UNA passes WindowEnd = SND.NXT recorded at its start), §3.4 (the cut
/// happens at most once per window of data, as RFC 3168 reacts to ECN), §3.5 (loss is handled
/// as standard TCP: RFC 5681), §4.2 (initial alpha: 1 is the conservative choice).
///
/// What is implemented, by rule
/// - Per ACK (netcc::basic_dctcp::on_ack): BytesAcked += acked; BytesMarked += acked when the
///   ACK echoes CE (RFC 8257 §3.3 steps 1-2). When the cumulative ACK reaches WindowEnd:
///   F = BytesMarked / BytesAcked, alpha = (1 - g) * alpha + g * F (Eq. 1), WindowEnd =
///   SND.NXT, counters reset (steps 3-6).
/// - ECN echo (§3.4): if no cut happened in the current window of data, ssthresh = cwnd =
///   max(cwnd * (1 - alpha / 2), 2 MSS) (Eq. 2, with RFC 5681's floor of two segments; a
///   window already below two segments, after a timeout, is kept, never raised), and the cut
///   window ends at SND.NXT; an ACK with an echo grows nothing.
/// - Otherwise: slow start below ssthresh, cwnd += min(acked, 2 MSS) (RFC 3465 appropriate
///   byte counting, L = 2); congestion avoidance above, cwnd += MSS * acked / cwnd (about one MSS
///   per window of data, RFC 5681 §3.1). The window grows only while it limits the sender
///   (RFC 7661's principle, with Linux's tcp_is_cwnd_limited thresholds): the data in flight
///   when the ACK arrived, snd_nxt - ack_seq + acked, must be at least half the window in slow
///   start and at least the window less one MSS in congestion avoidance. Without this a flow
///   limited by its NIC or its application would grow its window without bound and then burst.
/// - Loss (RFC 8257 §3.5, RFC 5681): on_timeout: ssthresh = max(cwnd / 2, 2 MSS), cwnd = one
///   MSS (the loss window); on_loss (fast retransmit): ssthresh = cwnd = max(cwnd / 2, 2 MSS).
///   alpha is kept.
///
/// Defaults (netcc::dctcp_params) and sources
/// - g = 1/16: DCTCP §3.4 and RFC 8257 §4.2 (Linux's dctcp_shift_g = 4).
/// - alpha_init = 1: RFC 8257 §4.2 ("initialize ... to 1", conservative: the first window of
///   marks cuts by half); Linux's dctcp_alpha_on_init = 1024 (= 1.0).
/// - mss = 1460 B (Ethernet MTU 1500 with 40 B of IPv4/TCP headers).
/// - initial window 10 MSS (RFC 6928); ssthresh starts unbounded (RFC 5681 §3.1).
/// - min_cwnd = 1 MSS (the loss window), max_cwnd = 2^31 - 1 B (the q32 range).
///
/// Decisions and deviations
/// - Fixed point: the arithmetic policy is a template parameter; netcc::arith::q32 keeps
///   alpha with 32 fractional bits (Linux keeps it in 1/1024 units, a coarser fixed point;
///   both round the same update toward zero). The double and q32 instantiations are tested
///   against each other.
/// - F counts bytes (RFC 8257), not packets (the 2010 paper's description); with equal-size
///   segments they agree.
/// - A window with BytesAcked = 0 (only duplicate ACKs) leaves alpha unchanged: F is undefined.
/// - The window of data ends when the cumulative ACK reaches WindowEnd (SND.UNA >= WindowEnd,
///   as Linux's tcp_dctcp tests it): every byte sent before WindowEnd was set is acknowledged.
/// - The counters are 64-bit and saturate; sequence comparisons are wrap-safe
///   (netcc::per_rtt_marker).
/// - Invalid parameters fall back to their defaults (the controller never fails); call
///   netcc::validate() to see them.
///
/// @code
/// netcc::dctcp cc{{.mss = netcc::bytes{1460}}};
/// cc.on_ack(netcc::ack_event{.now = netcc::timestamp{1000}, .ack_seq = 1460,
///                            .snd_nxt = 14'600, .acked = netcc::bytes{1460}});
/// netcc::bytes w = cc.cwnd();   // 10 MSS + 1460 B (slow start)
/// @endcode
#pragma once

#include <cstdint>
#include <string>

#include "netcc/core/arith.hpp"
#include "netcc/core/feedback.hpp"
#include "netcc/core/per_rtt.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/validation.hpp"

namespace netcc {

/// @brief Parameters of DCTCP, with the defaults of DCTCP (SIGCOMM'10) and RFC 8257.
/// @code
/// netcc::dctcp_params p{.g = 1.0 / 16, .alpha_init = 1.0, .mss = netcc::bytes{8960}};
/// @endcode
struct dctcp_params {
  /// @brief EWMA gain g in (0, 1] (DCTCP §3.4, RFC 8257 §4.2: 1/16).
  double g = 1.0 / 16;
  /// @brief Initial alpha in [0, 1] (RFC 8257 §4.2: 1).
  double alpha_init = 1.0;
  /// @brief Maximum segment size (payload bytes per packet).
  bytes mss{1460};
  /// @brief Initial window in segments (RFC 6928: 10).
  std::int64_t init_segments = 10;
  /// @brief Smallest window (the loss window of RFC 5681: one MSS; 0 means one MSS).
  bytes min_cwnd{0};
  /// @brief Largest window (the q32 range).
  bytes max_cwnd{0x7FFF'FFFF};
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
  v.check(p.init_segments >= 1 && p.init_segments <= 1'000'000, "dctcp.init_segments",
          p.init_segments, "must be in [1, 1000000]");
  v.check(p.min_cwnd >= bytes{0}, "dctcp.min_cwnd", p.min_cwnd,
          "must be non-negative (0 means one MSS)");
  v.check(p.max_cwnd <= bytes{0x7FFF'FFFF}, "dctcp.max_cwnd", p.max_cwnd,
          "must be at most 2147483647 B (the q32 range)");
  const bytes min_eff = p.min_cwnd > bytes{0} ? p.min_cwnd : p.mss;
  v.check(p.max_cwnd >= min_eff, "dctcp.max_cwnd", p.max_cwnd,
          "must be at least min_cwnd (one MSS when 0)");
  return v;
}

/// @brief DCTCP's sender (DCTCP SIGCOMM'10 §3.1; RFC 8257 §3.3-3.5) over arithmetic policy
/// `Policy`: cwnd() in bytes within [min_cwnd, max_cwnd] after any event sequence, alpha() in
/// [0, 1], at most one ECN cut per window of data. No allocation, no clock reads.
/// @tparam Policy netcc::arith::ieee_double or a fixed-point policy such as netcc::arith::q32
/// @code
/// netcc::basic_dctcp<netcc::arith::q32> cc{{}};
/// cc.on_ack(netcc::ack_event{.ack_seq = 1460, .snd_nxt = 29'200,
///                            .acked = netcc::bytes{1460}, .ecn_echo = true});
/// // first window: alpha stays 1 (the window has not ended); the echo cuts cwnd by half
/// @endcode
template <ArithmeticPolicy Policy = arith::ieee_double>
class basic_dctcp {
 public:
  /// @brief The number type of cwnd and alpha.
  using value_type = typename Policy::value_type;

  /// @brief A controller with parameters `p` (invalid fields fall back to their defaults).
  constexpr explicit basic_dctcp(const dctcp_params& p = {}) noexcept { configure(p); }

  /// @brief One ACK (RFC 8257 §3.3 steps 1-6, §3.4; growth per RFC 5681 / RFC 3465).
  template <class E>
  requires EcnFeedback<E>
  constexpr void on_ack(const E& e) noexcept {
    using ft = feedback_traits<E>;
    const sequence ack = ft::ack_seq(e);
    const sequence nxt = ft::snd_nxt(e);
    const bytes acked_b = ft::acked_bytes(e);
    const std::uint64_t acked =
        acked_b.count() > 0 ? static_cast<std::uint64_t>(acked_b.count()) : 0;
    const bool ece = ft::ecn_echo(e);
    if (!(flags_ & armed)) {  // the first ACK opens the first observation window
      window_end_.arm(nxt);
      flags_ |= armed;
    }
    bytes_acked_ = sat_add(bytes_acked_, acked);             // step 1
    if (ece) bytes_marked_ = sat_add(bytes_marked_, acked);  // step 2
    if (window_end_.reached(ack)) {  // SND.UNA at or beyond WindowEnd (as Linux: !before())
      update_alpha();                // steps 3-5: once per window of data
      window_end_.arm(nxt);
    }
    if ((flags_ & cut_pending) && cut_end_.reached(ack))
      flags_ &= static_cast<std::uint8_t>(~cut_pending);
    if (ece) {
      if (!(flags_ & cut_pending)) {  // §3.4: at most one cut per window of data
        const value_type half = num<value_type>(0.5);
        const value_type w = cwnd_ - cwnd_ * alpha_ * half;       // Eq. 2: cwnd * (1 - alpha/2)
        cwnd_ = clamp_window(min_v(cwnd_, max_v(w, two_mss())));  // a cut never raises
        ssthresh_ = cwnd_;
        cut_end_.arm(nxt);
        flags_ |= cut_pending;
        ++cuts_;
      }
      return;  // no growth on an ACK that echoes CE
    }
    // Window-limited test: the data in flight when this ACK arrived (file comment).
    const sequence flight = seq_geq(nxt, ack) ? nxt - ack : 0;
    grow(acked, sat_add(flight, acked));
  }

  /// @brief Retransmission timeout (RFC 5681 §3.1): ssthresh = max(cwnd/2, 2 MSS), cwnd =
  /// one MSS (bounded by min_cwnd). The time is not needed (no timers inside).
  constexpr void on_timeout(timestamp /*now*/ = {}) noexcept {
    ssthresh_ = clamp_window(max_v(cwnd_ * num<value_type>(0.5), two_mss()));
    cwnd_ = clamp_window(mss_);
    flags_ &= static_cast<std::uint8_t>(~cut_pending);
  }

  /// @brief Loss detected by fast retransmit (RFC 5681 §3.2): ssthresh = cwnd =
  /// max(cwnd/2, 2 MSS).
  constexpr void on_loss(timestamp /*now*/ = {}) noexcept {
    ssthresh_ = clamp_window(max_v(cwnd_ * num<value_type>(0.5), two_mss()));
    cwnd_ = ssthresh_;
  }

  /// @brief The congestion window in whole bytes (rounded down), in [min_cwnd, max_cwnd].
  [[nodiscard]] constexpr bytes cwnd() const noexcept {
    return bytes{static_cast<std::int64_t>(to_double(cwnd_))};
  }
  /// @brief The window as computed (unrounded).
  [[nodiscard]] constexpr value_type window() const noexcept { return cwnd_; }
  /// @brief The slow-start threshold (max_cwnd until the first cut or loss).
  [[nodiscard]] constexpr value_type ssthresh() const noexcept { return ssthresh_; }
  /// @brief alpha, the estimated fraction of marked bytes, in [0, 1].
  [[nodiscard]] constexpr value_type alpha() const noexcept { return alpha_; }
  /// @brief ECN cuts made so far.
  [[nodiscard]] constexpr std::uint64_t cuts() const noexcept { return cuts_; }
  /// @brief Whether an ECN cut has happened in the current window of data.
  [[nodiscard]] constexpr bool in_cut_window() const noexcept {
    return (flags_ & cut_pending) != 0;
  }
  /// @brief The parameters in force (after invalid fields fell back).
  [[nodiscard]] constexpr dctcp_params params() const noexcept { return params_; }

 private:
  enum : std::uint8_t { armed = 1, cut_pending = 2 };

  static constexpr std::uint64_t sat_add(std::uint64_t a, std::uint64_t b) noexcept {
    return a > ~std::uint64_t{0} - b ? ~std::uint64_t{0} : a + b;
  }
  static constexpr value_type max_v(value_type a, value_type b) noexcept { return a < b ? b : a; }
  static constexpr value_type min_v(value_type a, value_type b) noexcept { return b < a ? b : a; }
  [[nodiscard]] constexpr value_type two_mss() const noexcept { return mss_ + mss_; }
  [[nodiscard]] constexpr value_type clamp_window(value_type w) const noexcept {
    return clamp_num(w, min_cwnd_, max_cwnd_);
  }
  static constexpr value_type from_bytes(std::int64_t b) noexcept {
    return number_traits<value_type>::from_int(b);
  }

  constexpr void configure(dctcp_params p) noexcept {
    const dctcp_params d{};
    if (!(p.g > 0 && p.g <= 1)) p.g = d.g;
    if (!(p.alpha_init >= 0 && p.alpha_init <= 1)) p.alpha_init = d.alpha_init;
    if (p.mss < bytes{1} || p.mss > bytes{65535}) p.mss = d.mss;
    if (p.init_segments < 1 || p.init_segments > 1'000'000) p.init_segments = d.init_segments;
    if (p.min_cwnd <= bytes{0} || p.min_cwnd > bytes{0x7FFF'FFFF}) p.min_cwnd = p.mss;
    if (p.max_cwnd > bytes{0x7FFF'FFFF}) p.max_cwnd = d.max_cwnd;
    if (p.max_cwnd < p.min_cwnd) p.max_cwnd = p.min_cwnd;
    params_ = p;
    g_ = num<value_type>(p.g);
    mss_ = from_bytes(p.mss.count());
    min_cwnd_ = from_bytes(p.min_cwnd.count());
    max_cwnd_ = from_bytes(p.max_cwnd.count());
    alpha_ = clamp_num(num<value_type>(p.alpha_init), num<value_type>(0), num<value_type>(1));
    cwnd_ = clamp_window(from_bytes(p.init_segments * p.mss.count()));
    ssthresh_ = max_cwnd_;
  }

  // RFC 8257 §3.3 steps 3-6: F = BytesMarked / BytesAcked; alpha = (1 - g) alpha + g F.
  constexpr void update_alpha() noexcept {
    if (bytes_acked_ > 0) {
      const std::uint64_t m = bytes_marked_ < bytes_acked_ ? bytes_marked_ : bytes_acked_;
      // F in [0, 1]; both counts scaled into int64 by a common shift when needed.
      std::uint64_t a = bytes_acked_, k = m;
      while (a > 0x3FFF'FFFF'FFFF'FFFFULL) {
        a >>= 1;
        k >>= 1;
      }
      const value_type f =
          ratio<value_type>(static_cast<std::int64_t>(k), static_cast<std::int64_t>(a));
      alpha_ = clamp_num(alpha_ + g_ * (f - alpha_), num<value_type>(0), num<value_type>(1));
    }
    bytes_acked_ = 0;
    bytes_marked_ = 0;
  }

  // RFC 5681 §3.1: slow start (RFC 3465, L = 2) below ssthresh, else MSS * acked / cwnd; only
  // while window-limited.
  constexpr void grow(std::uint64_t acked, std::uint64_t flight) noexcept {
    if (acked == 0) return;
    const std::int64_t a = acked > 0x7FFF'FFFFULL ? 0x7FFF'FFFF : static_cast<std::int64_t>(acked);
    const std::int64_t fl =
        flight > 0x7FFF'FFFFULL ? 0x7FFF'FFFF : static_cast<std::int64_t>(flight);
    const value_type ab = from_bytes(a);
    const value_type in_flight = from_bytes(fl);
    const bool slow_start = cwnd_ < ssthresh_;
    // Not window-limited (the application or the NIC, not cwnd, limits the flight): no growth.
    if (slow_start ? in_flight + in_flight < cwnd_ : in_flight + mss_ < cwnd_) return;
    if (slow_start) {
      cwnd_ = clamp_window(cwnd_ + (ab < two_mss() ? ab : two_mss()));
    } else {
      const value_type inc = mss_ * ab / cwnd_;  // cwnd >= min_cwnd >= 1 B
      cwnd_ = clamp_window(cwnd_ + (inc < mss_ ? inc : mss_));
    }
  }

  // Configuration.
  dctcp_params params_{};
  value_type g_{};
  value_type mss_{};
  value_type min_cwnd_{};
  value_type max_cwnd_{};
  // Per-flow state.
  value_type cwnd_{};
  value_type ssthresh_{};
  value_type alpha_{};
  std::uint64_t bytes_acked_ = 0;
  std::uint64_t bytes_marked_ = 0;
  per_rtt_marker window_end_{};  // DCTCP.WindowEnd
  per_rtt_marker cut_end_{};     // end of the window of the last cut
  std::uint64_t cuts_ = 0;
  std::uint8_t flags_ = 0;
};

/// @brief DCTCP with double arithmetic.
using dctcp = basic_dctcp<>;

// Size budget. Per-flow state: cwnd, ssthresh, alpha (3 x 8 B), two byte counters (16 B),
// WindowEnd and the cut window's end (16 B), the cut count (8 B) and flags: 72 B with padding.
// Configuration: the params (48 B) and 32 B derived from them (g, MSS, min and max window).
static_assert(sizeof(dctcp) <= 160, "dctcp: 80 B config + 80 B per-flow state");
static_assert(sizeof(basic_dctcp<arith::q32>) <= 160, "dctcp q32: 80 B config + 80 B state");

}  // namespace netcc
