// SPDX-License-Identifier: MIT
/// @file
/// @brief DCQCN reaction point: current and target rates and alpha, a cut on every CNP, alpha
/// decay every K, and rate increases driven by a timer T and a byte counter B through fast
/// recovery, additive increase and hyper increase.
///
/// Sources: Y. Zhu, H. Eran, D. Firestone, C. Guo, M. Lipshteyn, Y. Liron, J. Padhye,
/// S. Raindel, M. H. Yahia, M. Zhang, "Congestion Control for Large-Scale RDMA Deployments"
/// (DCQCN), ACM SIGCOMM 2015, §3.1 (reaction point: on a CNP R_T = R_C,
/// R_C = R_C (1 - alpha/2), alpha = (1 - g) alpha + g; alpha = (1 - g) alpha after K without a
/// CNP; the timer and the byte counter each count increase events; fast recovery for the first
/// F = 5 events, then additive and hyper increase); and the network-calculus seed
/// (`seeds/003_7857f230e87c9d73.txt`) §V: the bullet list, Table I (the increase phase as a
/// function of the counters i_T, i_B) and Table II (parameters).
///
/// What is implemented, by rule
/// - on_cnp: R_T = R_C; R_C cut (below); alpha = (1 - g) alpha + g; i_T = i_B = 0; the byte
///   counter, the rate timer and the alpha timer restart at the CNP.
/// - Alpha timer: every K since the last CNP (or the start) without a CNP, alpha = (1 - g) alpha.
/// - Rate timer: every T without a CNP, i_T += 1 and one increase event. Byte counter: every B
///   bytes sent without a CNP, i_B += 1 and one increase event.
/// - Increase event, Table I exactly (F = 5), checked in this order:
///   | phase             | condition             | change                                         |
///   | ----------------- | --------------------- | ---------------------------------------------- |
///   | hyper increase    | min(i_T, i_B) >= F    | R_T += (min(i_T, i_B) - F) R_HI; R_C = (R_C + R_T)/2 |
///   | additive increase | max(i_T, i_B) >= F    | R_T += R_AI; R_C = (R_C + R_T)/2               |
///   | fast recovery     | max(i_T, i_B) < F     | R_C = (R_C + R_T)/2                            |
///   (Table I's hyper increase adds nothing when min(i_T, i_B) = F exactly; that is the table.)
/// - R_C and R_T stay in [min_rate, line_rate].
/// - Time comes with the calls: on_timer(now) runs every timer expiry up to `now` in time order
///   (several periods when called late); on_send(bytes, now) does the same and then counts the
///   bytes. A `now` earlier than the last one changes nothing.
///
/// The rate cut (the issue of which formula)
/// - Default netcc::dcqcn_cut::half_alpha: R_C = R_C (1 - alpha/2), the DCQCN paper's §3.1 rule
///   and what NICs implement; with the initial alpha = 1 the first CNP halves the rate.
/// - Option netcc::dcqcn_cut::full_alpha: R_C = (1 - alpha) R_C, as the seed's §V bullet list
///   writes it; with alpha = 1 the first CNP sends the rate to min_rate. Offered for
///   reproducing the seed's text.
///
/// Defaults (netcc::dcqcn_params) and sources
/// - g = 1/256, K = T = 55 us, B = 10 MB, R_AI = 5 Mbps, R_HI = 50 Mbps: seed Table II (from
///   DCQCN [5] and its deployment notes).
/// - F = 5: seed Table I and DCQCN §3.1.
/// - line rate 100 Gbps and initial rates = line rate, alpha = 1: seed §V ("Initially, R_T and
///   R_C are set to the line rates, and alpha is set to 1"), DCQCN §3.1.
/// - min_rate = 10 Mbps: no paper value (netcc's choice: a floor that keeps a flow probing).
///
/// Decisions and deviations
/// - Rates are kept in Mbps in the policy's number type (the q32 range, 2^31, then covers
///   2 Pbps with 2^-32 Mbps resolution); rate() rounds to whole bps.
/// - A late on_timer processes at most netcc::dcqcn_max_expiries rate-timer expiries and folds
///   any further alpha-timer periods into one power (1 - g)^n; a stack that calls it at least
///   every 4096 T loses nothing.
/// - Invalid parameters fall back to their defaults (the controller never fails).
///
/// @code
/// using namespace netcc::literals;
/// netcc::dcqcn rp{{.line_rate = 100_Gbps}};
/// rp.on_cnp(netcc::cnp_event{.now = netcc::timestamp{10'000}});   // R_C = 50 Gbps
/// rp.on_timer(netcc::timestamp{65'000});   // one T: fast recovery, R_C = 75 Gbps
/// netcc::bit_rate r = rp.rate();
/// @endcode
#pragma once

#include <cstdint>

#include "netcc/core/arith.hpp"
#include "netcc/core/detail/int128.hpp"
#include "netcc/core/feedback.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/validation.hpp"

namespace netcc {

/// @brief Which rate cut a CNP applies (see the file comment).
enum class dcqcn_cut : std::uint8_t {
  half_alpha,  ///< R_C = R_C (1 - alpha/2): DCQCN SIGCOMM'15 §3.1 (default)
  full_alpha,  ///< R_C = (1 - alpha) R_C: the network-calculus seed's §V text
};

/// @brief Most rate-timer expiries one on_timer / on_send call processes.
inline constexpr std::uint32_t dcqcn_max_expiries = 4096;

/// @brief DCQCN reaction-point parameters, with the seed's Table II defaults.
/// @code
/// netcc::dcqcn_params p{.line_rate = netcc::bit_rate{40'000'000'000}, .byte_counter = netcc::bytes{150'000}};
/// @endcode
struct dcqcn_params {
  /// @brief Line rate: the cap of both rates and the initial rate (seed §V: 100 Gbps).
  bit_rate line_rate{100'000'000'000};
  /// @brief Smallest rate (netcc's choice: 10 Mbps).
  bit_rate min_rate{10'000'000};
  /// @brief g, alpha's gain, in (0, 1] (Table II: 1/256).
  double g = 1.0 / 256;
  /// @brief Initial alpha in [0, 1] (seed §V, DCQCN §3.1: 1).
  double alpha_init = 1.0;
  /// @brief K, the alpha timer (Table II: 55 us).
  duration alpha_timer{55'000};
  /// @brief T, the rate-increase timer (Table II: 55 us).
  duration rate_timer{55'000};
  /// @brief B, the byte counter (Table II: 10 MB).
  bytes byte_counter{10'000'000};
  /// @brief R_AI, additive increase (Table II: 5 Mbps).
  bit_rate r_ai{5'000'000};
  /// @brief R_HI, hyper increase (Table II: 50 Mbps).
  bit_rate r_hi{50'000'000};
  /// @brief F, the fast-recovery threshold (Table I: 5).
  std::uint32_t f = 5;
  /// @brief The rate cut on a CNP.
  dcqcn_cut cut = dcqcn_cut::half_alpha;
};

/// @brief Check DCQCN parameters; each error names "dcqcn.<field>", the value and the rule.
/// @code
/// auto v = netcc::validate(netcc::dcqcn_params{.g = 2});
/// // v[0].message() == "dcqcn.g = 2: must be in (0, 1]"
/// @endcode
[[nodiscard]] inline validation validate(const dcqcn_params& p) {
  validation v;
  v.check(p.line_rate > bit_rate{0} && p.line_rate <= bit_rate{2'000'000'000'000'000},
          "dcqcn.line_rate", p.line_rate, "must be in (0, 2 Pbps]");
  v.check(p.min_rate > bit_rate{0} && p.min_rate <= p.line_rate, "dcqcn.min_rate", p.min_rate,
          "must be in (0, line_rate]");
  v.check(p.g > 0 && p.g <= 1, "dcqcn.g", p.g, "must be in (0, 1]");
  v.check(p.alpha_init >= 0 && p.alpha_init <= 1, "dcqcn.alpha_init", p.alpha_init,
          "must be in [0, 1]");
  v.check(p.alpha_timer > duration::zero(), "dcqcn.alpha_timer", p.alpha_timer, "must be positive");
  v.check(p.rate_timer > duration::zero(), "dcqcn.rate_timer", p.rate_timer, "must be positive");
  v.check(p.byte_counter > bytes{0}, "dcqcn.byte_counter", p.byte_counter, "must be positive");
  v.check(p.r_ai >= bit_rate{0} && p.r_ai <= p.line_rate, "dcqcn.r_ai", p.r_ai,
          "must be in [0, line_rate]");
  v.check(p.r_hi >= bit_rate{0} && p.r_hi <= p.line_rate, "dcqcn.r_hi", p.r_hi,
          "must be in [0, line_rate]");
  v.check(p.f >= 1 && p.f <= 1000, "dcqcn.f", p.f, "must be in [1, 1000]");
  v.check(p.cut == dcqcn_cut::half_alpha || p.cut == dcqcn_cut::full_alpha, "dcqcn.cut",
          static_cast<int>(p.cut), "must be half_alpha (0) or full_alpha (1)");
  return v;
}

/// @brief The increase phase Table I assigns to counter values (i_T, i_B) with threshold F.
enum class dcqcn_phase : std::uint8_t {
  fast_recovery,  ///< max(i_T, i_B) < F
  additive,       ///< max(i_T, i_B) >= F > min(i_T, i_B)
  hyper,          ///< min(i_T, i_B) >= F
};

/// @brief Table I's phase for counters `i_t`, `i_b` and threshold `f`.
[[nodiscard]] constexpr dcqcn_phase dcqcn_phase_of(std::uint32_t i_t, std::uint32_t i_b,
                                                   std::uint32_t f) noexcept {
  const std::uint32_t lo = i_t < i_b ? i_t : i_b;
  const std::uint32_t hi = i_t < i_b ? i_b : i_t;
  if (lo >= f) return dcqcn_phase::hyper;
  if (hi >= f) return dcqcn_phase::additive;
  return dcqcn_phase::fast_recovery;
}

/// @brief The DCQCN reaction point (DCQCN SIGCOMM'15 §3.1; seed §V, Tables I and II) over
/// arithmetic policy `Policy`. rate() is in [min_rate, line_rate] and alpha() in [0, 1] after
/// any call sequence; a CNP never raises R_C. No allocation, no clock reads.
/// @tparam Policy netcc::arith::ieee_double or a fixed-point policy such as netcc::arith::q32
/// @code
/// netcc::basic_dcqcn<netcc::arith::q32> rp{{}};
/// rp.on_send(netcc::bytes{1'000'000}, netcc::timestamp{1000});
/// @endcode
template <ArithmeticPolicy Policy = arith::ieee_double>
class basic_dcqcn {
 public:
  /// @brief The number type of the rates (Mbps) and alpha.
  using value_type = typename Policy::value_type;

  /// @brief A reaction point with parameters `p` (invalid fields fall back to defaults).
  constexpr explicit basic_dcqcn(const dcqcn_params& p = {}) noexcept { configure(p); }

  /// @brief A CNP arrived: timers up to its time first, then the cut (file comment).
  template <class E>
  requires CnpFeedback<E>
  constexpr void on_cnp(const E& e) noexcept {
    const timestamp now = feedback_traits<E>::now(e);
    advance(now);
    if (now < last_) return;  // from the past: ignored, like every call
    const value_type one = num<value_type>(1);
    r_t_ = r_c_;
    const value_type factor =
        params_.cut == dcqcn_cut::half_alpha ? one - alpha_ * num<value_type>(0.5) : one - alpha_;
    r_c_ = clamp_rate(r_c_ * factor);
    if (r_c_ > r_t_) r_c_ = r_t_;  // never raised (min_rate > R_T cannot happen: R_T >= min)
    alpha_ = clamp_num(alpha_ + g_ * (one - alpha_), num<value_type>(0), one);
    i_t_ = i_b_ = 0;
    byte_acc_ = 0;
    next_alpha_ = after(now, params_.alpha_timer, 1);
    next_rate_ = after(now, params_.rate_timer, 1);
    ++cnps_;
  }

  /// @brief Run the alpha and rate timers up to `now`.
  constexpr void on_timer(timestamp now) noexcept { advance(now); }

  /// @brief `b` bytes were sent at `now`: timers up to `now`, then the byte counter (one i_B
  /// increment and increase event per B bytes).
  constexpr void on_send(bytes b, timestamp now) noexcept {
    advance(now);
    if (now < last_ || b <= bytes{0}) return;
    const auto add = static_cast<std::uint64_t>(b.count());
    byte_acc_ = byte_acc_ > ~std::uint64_t{0} - add ? ~std::uint64_t{0} : byte_acc_ + add;
    const auto bc = static_cast<std::uint64_t>(params_.byte_counter.count());
    std::uint32_t n = 0;
    while (byte_acc_ >= bc && n < dcqcn_max_expiries) {
      byte_acc_ -= bc;
      if (i_b_ < 0xFFFF'FFFFu) ++i_b_;
      increase();
      ++n;
    }
    if (byte_acc_ >= bc) byte_acc_ %= bc;  // beyond the per-call cap (file comment)
  }

  /// @brief The current rate R_C, rounded to whole bps, in [min_rate, line_rate].
  [[nodiscard]] constexpr bit_rate rate() const noexcept { return to_rate(r_c_); }
  /// @brief The pacing rate (= rate()).
  [[nodiscard]] constexpr bit_rate pacing_rate() const noexcept { return rate(); }
  /// @brief The target rate R_T.
  [[nodiscard]] constexpr bit_rate target_rate() const noexcept { return to_rate(r_t_); }
  /// @brief R_C in Mbps as the policy computes it.
  [[nodiscard]] constexpr value_type current_mbps() const noexcept { return r_c_; }
  /// @brief R_T in Mbps as the policy computes it.
  [[nodiscard]] constexpr value_type target_mbps() const noexcept { return r_t_; }
  /// @brief alpha, in [0, 1].
  [[nodiscard]] constexpr value_type alpha() const noexcept { return alpha_; }
  /// @brief i_T, the rate-timer count since the last CNP.
  [[nodiscard]] constexpr std::uint32_t timer_count() const noexcept { return i_t_; }
  /// @brief i_B, the byte-counter count since the last CNP.
  [[nodiscard]] constexpr std::uint32_t byte_count() const noexcept { return i_b_; }
  /// @brief CNPs taken.
  [[nodiscard]] constexpr std::uint64_t cnps() const noexcept { return cnps_; }
  /// @brief The parameters in force (after invalid fields fell back).
  [[nodiscard]] constexpr dcqcn_params params() const noexcept { return params_; }

 private:
  static constexpr value_type mbps(bit_rate r) noexcept {
    return ratio<value_type>(r.bps(), 1'000'000);
  }
  static constexpr bit_rate to_rate(value_type mb) noexcept {
    return bit_rate{static_cast<std::int64_t>(to_double(mb) * 1e6 + 0.5)};
  }
  [[nodiscard]] constexpr value_type clamp_rate(value_type r) const noexcept {
    return clamp_num(r, min_mbps_, line_mbps_);
  }

  constexpr void configure(dcqcn_params p) noexcept {
    const dcqcn_params d{};
    if (!(p.line_rate > bit_rate{0} && p.line_rate <= bit_rate{2'000'000'000'000'000}))
      p.line_rate = d.line_rate;
    if (!(p.min_rate > bit_rate{0} && p.min_rate <= p.line_rate))
      p.min_rate = d.min_rate <= p.line_rate ? d.min_rate : p.line_rate;
    if (!(p.g > 0 && p.g <= 1)) p.g = d.g;
    if (!(p.alpha_init >= 0 && p.alpha_init <= 1)) p.alpha_init = d.alpha_init;
    if (p.alpha_timer <= duration::zero()) p.alpha_timer = d.alpha_timer;
    if (p.rate_timer <= duration::zero()) p.rate_timer = d.rate_timer;
    if (p.byte_counter <= bytes{0}) p.byte_counter = d.byte_counter;
    if (!(p.r_ai >= bit_rate{0} && p.r_ai <= p.line_rate)) p.r_ai = d.r_ai;
    if (!(p.r_hi >= bit_rate{0} && p.r_hi <= p.line_rate)) p.r_hi = d.r_hi;
    if (p.f < 1 || p.f > 1000) p.f = d.f;
    if (p.cut != dcqcn_cut::full_alpha) p.cut = dcqcn_cut::half_alpha;
    params_ = p;
    g_ = num<value_type>(p.g);
    line_mbps_ = mbps(p.line_rate);
    min_mbps_ = mbps(p.min_rate);
    if (min_mbps_ > line_mbps_) min_mbps_ = line_mbps_;
    ai_mbps_ = mbps(p.r_ai);
    hi_mbps_ = mbps(p.r_hi);
    r_c_ = r_t_ = line_mbps_;
    alpha_ = clamp_num(num<value_type>(p.alpha_init), num<value_type>(0), num<value_type>(1));
    next_alpha_ = timestamp{} + p.alpha_timer;
    next_rate_ = timestamp{} + p.rate_timer;
  }

  // One increase event (Table I), with the counters as they now are.
  constexpr void increase() noexcept {
    const std::uint32_t lo = i_t_ < i_b_ ? i_t_ : i_b_;
    switch (dcqcn_phase_of(i_t_, i_b_, params_.f)) {
      case dcqcn_phase::hyper:
        r_t_ = clamp_rate(r_t_ + number_traits<value_type>::from_int(lo - params_.f) * hi_mbps_);
        break;
      case dcqcn_phase::additive:
        r_t_ = clamp_rate(r_t_ + ai_mbps_);
        break;
      case dcqcn_phase::fast_recovery:
        break;
    }
    r_c_ = clamp_rate((r_c_ + r_t_) * num<value_type>(0.5));
  }

  // t + n * d, saturating at timestamp::max() (a timer that would fire beyond the clock never
  // fires).
  static constexpr timestamp after(timestamp t, duration d, std::int64_t n) noexcept {
    const detail::i128 x = detail::i128{t.count()} + detail::i128{d.count()} * n;
    return timestamp{detail::saturate_i64(x)};
  }

  // Every timer expiry up to `now`, in time order.
  constexpr void advance(timestamp now) noexcept {
    if (now < last_) return;
    last_ = now;
    std::uint32_t n = 0;
    while (next_rate_ <= now && n < dcqcn_max_expiries) {
      decay_alpha_until(next_rate_);  // alpha periods that ended first
      if (i_t_ < 0xFFFF'FFFFu) ++i_t_;
      increase();
      next_rate_ = after(next_rate_, params_.rate_timer, 1);
      ++n;
    }
    if (next_rate_ <= now) {  // beyond the per-call cap: skip to the next period after now
      next_rate_ =
          after(next_rate_, params_.rate_timer, (now - next_rate_) / params_.rate_timer + 1);
    }
    decay_alpha_until(now);
  }

  // alpha = (1 - g)^n alpha for the n alpha-timer periods that end at or before `t`.
  constexpr void decay_alpha_until(timestamp t) noexcept {
    if (next_alpha_ > t) return;
    const auto n = static_cast<std::uint64_t>((t - next_alpha_) / params_.alpha_timer) + 1;
    next_alpha_ = after(next_alpha_, params_.alpha_timer, static_cast<std::int64_t>(n));
    value_type base = num<value_type>(1) - g_, factor = num<value_type>(1);
    for (std::uint64_t k = n; k > 0 && factor > num<value_type>(0); k >>= 1) {  // (1 - g)^n
      if (k & 1) factor = factor * base;
      base = base * base;
    }
    alpha_ = clamp_num(alpha_ * factor, num<value_type>(0), num<value_type>(1));
  }

  // Configuration.
  dcqcn_params params_{};
  value_type g_{};
  value_type line_mbps_{};
  value_type min_mbps_{};
  value_type ai_mbps_{};
  value_type hi_mbps_{};
  // Per-flow state.
  value_type r_c_{};
  value_type r_t_{};
  value_type alpha_{};
  std::uint64_t byte_acc_ = 0;
  timestamp next_alpha_{};
  timestamp next_rate_{};
  timestamp last_{};
  std::uint64_t cnps_ = 0;
  std::uint32_t i_t_ = 0;
  std::uint32_t i_b_ = 0;
};

/// @brief The DCQCN reaction point with double arithmetic.
using dcqcn = basic_dcqcn<>;

// Size budget. Per-flow state: R_C, R_T, alpha (24 B), the byte accumulator (8 B), the two
// timers' next expiries and the last time seen (24 B), the CNP count (8 B), i_T and i_B (8 B):
// 72 B. Configuration: the params (88 B) and 40 B derived from them (rates in Mbps, g).
static_assert(sizeof(dcqcn) <= 200, "dcqcn: 128 B config + 72 B per-flow state");
static_assert(sizeof(basic_dcqcn<arith::q32>) <= 200, "dcqcn q32: 128 B config + 72 B state");

}  // namespace netcc
