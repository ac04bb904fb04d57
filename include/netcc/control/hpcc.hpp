// SPDX-License-Identifier: MIT
/// @file
/// @brief HPCC: INT-driven window control toward a target utilisation eta, with additive
/// increase stages (the baseline PowerTCP, FastTune and Bolt compare against).
///
/// Paper: Yuliang Li, Rui Miao, Hongqiang Harry Liu, Yan Zhuang, Fei Feng, Lingbo Tang,
/// Zheng Cao, Ming Zhang, Frank Kelly, Mohammad Alizadeh, Minlan Yu, "HPCC: High Precision
/// Congestion Control", ACM SIGCOMM 2019. It is not one of netcc's seed papers; the seeds
/// compare against it (PowerTCP NSDI'22 §4, FastTune §V), and its rules here follow its own
/// §3.3 and Algorithm 1.
///
/// What is implemented (Algorithm 1)
/// - MeasureInflight (lines 1-11): netcc::int_utilisation (shared with FastTune).
/// - ComputeWind (lines 12-21): if U >= eta or incStage >= maxStage,
///   \f$ W = W^c / (U/\eta) + W_{AI} \f$ and, when the reference window is updated, incStage = 0;
///   otherwise \f$ W = W^c + W_{AI} \f$ and incStage + 1; \f$ W^c = W \f$ on update.
/// - NewAck (lines 22-28): the reference window is updated once per RTT, when ack.seq passes
///   lastUpdateSeq (then lastUpdateSeq = snd_nxt); W is recomputed on every ACK; R = W / T.
///
/// Defaults (netcc::hpcc_params) and their sources
/// - eta = 0.95, maxStage = 5: HPCC §5 (also FastTune §V-A "Parameters").
/// - W_AI = BDP * (1 - eta) / N with BDP = HostBw * T: HPCC §3.3, FastTune §V-A
///   (`w_ai = 0` in the params means "derive it").
/// - W_init = HostBw * T (the flow starts at line rate): HPCC §3.3.
/// - HostBw = 25 Gbps, T = 28 us: PowerTCP §4.1, which runs HPCC beside PowerTCP with T = the
///   maximum RTT of its topology and HostBw = the server NIC; the same as netcc::powertcp_params.
/// - N (expected_flows) = 1: no paper value; set it to the expected number of flows on a link.
/// - max_cwnd = HostBw * T: HPCC caps the sending rate at the NIC rate, and R = W / T.
/// - min_cwnd = 1500 B: netcc (one MTU, so a flow can always send).
///
/// Decisions the paper leaves open (tested in tests/control/hpcc_test.cpp)
/// - Before U has a sample (the first ACK, or ACKs with no usable record) the window stays at
///   W_init and the reference window is not updated; lastUpdateSeq is not moved either, so the
///   first ACK that yields a sample updates W^c.
/// - An ACK with no new sample (a duplicate: dt == 0 on every hop) still runs ComputeWind with
///   the unchanged U, as Algorithm 1 does.
/// - The sample handling of netcc::int_utilisation (dt <= 0, path changes, wrapped counters,
///   zero link rates, an idle path).
/// - U near zero: \f$ W^c \eta / U \f$ is computed only when it is below max_cwnd (no division
///   by a vanishing U); W is then clamped to [min_cwnd, max_cwnd], and so is W^c.
///
/// Deviations: none in the control law. The window is in bytes (HPCC's Algorithm 1 is in
/// bytes too); the reference window is clamped with W.
///
/// @code
/// using namespace netcc::literals;
/// netcc::hpcc cc{{.host_rate = 100_Gbps, .base_rtt = 12_us, .expected_flows = 16}};
/// cc.on_ack(ack);                      // netcc::ack_event with INT hops
/// netcc::bytes w = cc.cwnd();
/// netcc::bit_rate r = cc.pacing_rate();  // W / T
/// @endcode
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "netcc/control/controller_concepts.hpp"
#include "netcc/control/detail/packed_state.hpp"
#include "netcc/control/int_utilisation.hpp"
#include "netcc/core/arith.hpp"
#include "netcc/core/feedback.hpp"
#include "netcc/core/int_wire.hpp"
#include "netcc/core/per_rtt.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/validation.hpp"
#include "netcc/core/wrap.hpp"

namespace netcc {

/// @brief The largest window the INT window controllers accept (the q32 integer range).
inline constexpr bytes int_window_limit{0x7FFF'FFFF};

/// @brief Parameters of HPCC, with the defaults of HPCC §3.3/§5 and PowerTCP §4.1.
/// Zero in `w_ai`, `cwnd_init` or `max_cwnd` means "derive it as the paper does".
/// @code
/// using namespace netcc::literals;
/// netcc::hpcc_params p{.host_rate = 100_Gbps, .base_rtt = 10_us, .expected_flows = 10};
/// // W_init = 125000 B; W_AI = 125000 * 0.05 / 10 = 625 B
/// @endcode
struct hpcc_params {
  /// @brief eta, the target utilisation (HPCC §5: 0.95).
  double eta = 0.95;
  /// @brief maxStage, the additive-increase stages before a multiplicative step (HPCC §5: 5).
  std::int64_t max_stage = 5;
  /// @brief HostBw, the NIC bandwidth (PowerTCP §4.1: 25 Gbps server NICs).
  bit_rate host_rate{25'000'000'000};
  /// @brief T, the base RTT (PowerTCP §4.1: the topology's maximum RTT, 28 us).
  duration base_rtt{28'000};
  /// @brief N, the expected number of flows sharing a link (no paper value; 1).
  std::int64_t expected_flows = 1;
  /// @brief W_AI; 0 derives HostBw * T * (1 - eta) / N (HPCC §3.3).
  bytes w_ai{0};
  /// @brief Initial window; 0 derives HostBw * T (HPCC §3.3).
  bytes cwnd_init{0};
  /// @brief Smallest window (netcc: one MTU).
  bytes min_cwnd{1500};
  /// @brief Largest window; 0 derives HostBw * T (the NIC rate cap).
  bytes max_cwnd{0};
  /// @brief Smallest pacing rate.
  bit_rate min_rate{0};
};

namespace detail {

/// The checks HPCC and FastTune share (their parameter structs have the same window fields);
/// `n` is the field-name prefix ("hpcc." or "fasttune.").
template <class P>
void validate_int_window(const P& p, const std::string& n, validation& v) {
  v.check(p.eta > 0 && p.eta <= 1, n + "eta", p.eta, "must be in (0, 1]");
  v.check(p.host_rate > bit_rate::zero(), n + "host_rate", p.host_rate, "must be positive");
  v.check(p.base_rtt > duration::zero(), n + "base_rtt", p.base_rtt, "must be positive");
  v.check(p.expected_flows >= 1, n + "expected_flows", p.expected_flows, "must be at least 1");
  v.check(p.w_ai >= bytes::zero(), n + "w_ai", p.w_ai,
          "must be non-negative (0 derives host_rate * base_rtt * (1 - eta) / expected_flows)");
  v.check(p.min_cwnd >= bytes{1} && p.min_cwnd <= int_window_limit, n + "min_cwnd", p.min_cwnd,
          "must be in [1, 2147483647] B");
  v.check(p.max_cwnd >= bytes::zero() && p.max_cwnd <= int_window_limit, n + "max_cwnd", p.max_cwnd,
          "must be in [0, 2147483647] B (0 derives host_rate * base_rtt)");
  if (p.max_cwnd > bytes::zero())
    v.check(p.max_cwnd >= p.min_cwnd, n + "max_cwnd", p.max_cwnd, "must be at least min_cwnd");
  v.check(p.cwnd_init >= bytes::zero(), n + "cwnd_init", p.cwnd_init,
          "must be non-negative (0 derives host_rate * base_rtt)");
  v.check(p.min_rate >= bit_rate::zero(), n + "min_rate", p.min_rate, "must be non-negative");
  v.check(p.min_rate <= p.host_rate, n + "min_rate", p.min_rate, "must be at most host_rate");
}

}  // namespace detail

/// @brief Check HPCC parameters; every error names "hpcc.<field>", the value and the rule.
/// @code
/// auto v = netcc::validate(netcc::hpcc_params{.eta = 1.2});
/// // v[0].message() == "hpcc.eta = 1.2: must be in (0, 1]"
/// @endcode
[[nodiscard]] inline validation validate(const hpcc_params& p) {
  validation v;
  detail::validate_int_window(p, "hpcc.", v);
  v.check(p.max_stage >= 0 && p.max_stage <= 1'000'000, "hpcc.max_stage", p.max_stage,
          "must be in [0, 1000000]");
  return v;
}

namespace detail {

/// The window limits and derived terms HPCC and FastTune share, sanitised: invalid fields fall
/// back to their defaults (the controllers never fail; validate() reports them).
template <Number T>
struct int_window_config {
  T eta{};
  T w_ai{};
  T min_cwnd{};
  T max_cwnd{};
  T cwnd_init{};
  bit_rate host_rate{};
  bit_rate min_rate{};
  duration t{};
  /// T's reciprocal: the tau/T weight of the utilisation EWMA without a division per ACK (in
  /// fixed point with int_weight_divisor's short form; other number types divide through
  /// invariant_divisor, as int_weight_divisor's general form would).
  std::conditional_t < requires { T::fraction_bits; }
  , int_weight_divisor, invariant_divisor > t_div{};
  /// int_window_raw_ranges(*this), set by make_int_window_config: eta in [0, 1] and max_cwnd,
  /// min_cwnd and W_AI in [0, 2^62) raw, the ranges mimd_window's raw-integer path needs. A
  /// hand-built configuration keeps false: the operator form.
  bool raw_ranges = false;
};

/// True when `c` lies in the ranges of mimd_window's raw-integer path: a fixed-point type with
/// 0 < F <= 32 and raw_max >= 2^62, eta in [0, 1] (raw at most 2^F), max_cwnd, min_cwnd and
/// W_AI in [0, 2^62) raw. make_int_window_config's values are whenever the largest window is
/// below 2^30 B (eta in (0, 1]; min_cwnd and W_AI at most max_cwnd); a larger one keeps the
/// operator form.
template <Number T>
[[nodiscard]] constexpr bool int_window_raw_ranges(const int_window_config<T>& c) noexcept {
  if constexpr (requires {
                  T::fraction_bits;
                  T::raw_max;
                  T::from_raw(std::int64_t{});
                }) {
    if constexpr (T::fraction_bits > 0 && T::fraction_bits <= 32 &&
                  static_cast<std::uint64_t>(T::raw_max) >= (std::uint64_t{1} << 62)) {
      const auto e = static_cast<std::uint64_t>(c.eta.raw());
      const auto m = static_cast<std::uint64_t>(c.max_cwnd.raw());
      const auto lo = static_cast<std::uint64_t>(c.min_cwnd.raw());
      const auto ai = static_cast<std::uint64_t>(c.w_ai.raw());
      return e <= (std::uint64_t{1} << T::fraction_bits) && ((m | lo | ai) >> 62) == 0;
    }
  }
  return false;
}

/// Sanitise the shared fields of `p` against the defaults `d` and derive W_AI, W_init and the
/// window cap (HPCC §3.3; FastTune §III-C.2 and §V-A).
template <Number T, class P>
[[nodiscard]] constexpr int_window_config<T> make_int_window_config(P& p, const P& d) noexcept {
  if (!(p.eta > 0 && p.eta <= 1)) p.eta = d.eta;
  if (p.host_rate <= bit_rate::zero()) p.host_rate = d.host_rate;
  if (p.base_rtt <= duration::zero()) p.base_rtt = d.base_rtt;
  if (p.expected_flows < 1) p.expected_flows = d.expected_flows;
  if (p.w_ai < bytes::zero()) p.w_ai = d.w_ai;
  if (p.cwnd_init < bytes::zero()) p.cwnd_init = d.cwnd_init;
  if (p.min_cwnd < bytes{1} || p.min_cwnd > int_window_limit) p.min_cwnd = d.min_cwnd;
  if (p.max_cwnd < bytes::zero() || p.max_cwnd > int_window_limit) p.max_cwnd = d.max_cwnd;
  if (p.min_rate < bit_rate::zero() || p.min_rate > p.host_rate) p.min_rate = d.min_rate;
  const auto from = [](bytes b) { return number_traits<T>::from_int(b.count()); };
  int_window_config<T> c;
  c.host_rate = p.host_rate;
  c.min_rate = p.min_rate;
  c.t = p.base_rtt;
  c.t_div = decltype(c.t_div){static_cast<std::uint64_t>(p.base_rtt.count())};
  c.eta = num<T>(p.eta);
  bytes bdp = p.host_rate * p.base_rtt;  // HostBw * T
  if (bdp > int_window_limit) bdp = int_window_limit;
  bytes hi = p.max_cwnd > bytes::zero() ? p.max_cwnd : bdp;
  if (hi < p.min_cwnd) hi = p.min_cwnd;
  c.min_cwnd = from(p.min_cwnd);
  c.max_cwnd = from(hi);
  // W_AI = BDP * (1 - eta) / N, computed in double at configuration time (not on the hot path).
  const double ai = p.w_ai > bytes::zero() ? static_cast<double>(p.w_ai.count())
                                           : static_cast<double>(bdp.count()) * (1.0 - p.eta) /
                                                 static_cast<double>(p.expected_flows);
  c.w_ai = clamp_num(num<T>(ai), num<T>(0), c.max_cwnd);
  c.cwnd_init =
      clamp_num(from(p.cwnd_init > bytes::zero() ? p.cwnd_init : bdp), c.min_cwnd, c.max_cwnd);
  c.raw_ranges = int_window_raw_ranges(c);
  return c;
}

/// Eq. 3/4 (FastTune) = HPCC Algorithm 1 line 14: Wc / (U / eta) + W_AI, clamped to
/// [min_cwnd, max_cwnd], with no division by a U so small that the quotient exceeds max_cwnd.
/// Fixed point: wc_eta and u are positive there, so the quotient is taken in unsigned 128-bit
/// arithmetic (the same value as the policy's operator/, rounded to nearest, ties up).
///
/// With c.raw_ranges (int_window_raw_ranges) and W^c and U in [0, 2^62) raw (windows below
/// 2^31 B, U at most the 2^30 clamp), the same value bit for bit on raw integers (W = W^c,
/// E = eta, M = max_cwnd, all raw): W E rounds to at most W (E <= 2^F), so mul_nonneg's clamp
/// cannot act and wc_eta < 2^62 < raw_max; U M (< 2^124) rounded is compared unclamped (its
/// clamp to raw_max leaves the comparison with a wc_eta below raw_max unchanged); the test
/// implies U > 0 and, as above, a quotient at most M + 1 < 2^63 (no clamp); the sum with W_AI
/// is below 2^63 (no saturation) and is clamped as clamp_num clamps it.
template <Number T>
[[nodiscard, gnu::always_inline]] constexpr T mimd_window(T wc, T u,
                                                          const int_window_config<T>& c) noexcept {
  if constexpr (requires {
                  T::fraction_bits;
                  T::raw_max;
                  T::from_raw(std::int64_t{});
                }) {
    if constexpr (T::fraction_bits > 0 && T::fraction_bits <= 32) {
      const auto w = static_cast<std::uint64_t>(wc.raw());
      const auto uu = static_cast<std::uint64_t>(u.raw());
      if (c.raw_ranges && ((w | uu) >> 62) == 0) {
        const auto e = static_cast<std::uint64_t>(c.eta.raw());
        const auto m = static_cast<std::uint64_t>(c.max_cwnd.raw());
        constexpr u128 half = u128{1} << (T::fraction_bits - 1);
        const auto we = static_cast<std::uint64_t>((u128{w} * e + half) >> T::fraction_bits);
        std::uint64_t mi = m;
        // U M / 2^F rounded > W^c eta (then U > 0), on the product's 64-bit halves: above 2^64
        // when its high half has bits from F on, else its bits F..F+63 are the rounded value.
        const u128 um = u128{uu} * m + half;
        const auto um_hi = static_cast<std::uint64_t>(um >> 64);
        if ((um_hi >> T::fraction_bits) != 0 ||
            static_cast<std::uint64_t>(um >> T::fraction_bits) > we) {
          // W^c eta 2^F + floor(U / 2) from its two halves (shl_add_halves), in registers.
          const u128_halves x = shl_add_halves<T::fraction_bits>(we, uu / 2);
          mi = udiv_128_64(x.hi, x.lo, uu);  // <= M + 1
        }
        auto r = static_cast<std::int64_t>(mi + static_cast<std::uint64_t>(c.w_ai.raw()));
        if (!(r >= c.min_cwnd.raw())) r = c.min_cwnd.raw();
        if (r > c.max_cwnd.raw()) r = c.max_cwnd.raw();
        // r is min_cwnd's raw, max_cwnd's, or between them: a raw value of T, in range.
        return raw_in_range<T>(r);
      }
    }
  }
  const T wc_eta = mul_nonneg(wc, c.eta);
  T mi = c.max_cwnd;
  if (mul_nonneg(u, c.max_cwnd) > wc_eta) {
    if constexpr (requires {
                    T::fraction_bits;
                    T::raw_max;
                    T::from_raw(std::int64_t{});
                  }) {
      if (wc_eta.raw() >= 0 && u.raw() > 0) {
        // One 128/64-bit division: with W = wc_eta, U = u, M = max_cwnd (raw, all >= 0), the
        // test above, round(U M 2^-F) > W (saturated or not), gives U M > W 2^F, so the
        // dividend W 2^F + U / 2 is below U (M + 1) <= U 2^63: the quotient fits 64 bits.
        const auto d = static_cast<std::uint64_t>(u.raw());
        const u128_halves x =
            shl_add_halves<T::fraction_bits>(static_cast<std::uint64_t>(wc_eta.raw()), d / 2);
        const std::uint64_t q = udiv_128_64(x.hi, x.lo, d);
        const auto lim = static_cast<std::uint64_t>(T::raw_max);
        mi = T::from_raw(static_cast<std::int64_t>(q > lim ? lim : q));
      } else {
        mi = wc_eta / u;
      }
    } else {
      mi = wc_eta / u;
    }
  }
  return clamp_num(mi + c.w_ai, c.min_cwnd, c.max_cwnd);
}

/// R = W / T, within [min_rate, HostBw] and at least netcc::min_pacing_rate (1 bps): W >=
/// min_cwnd >= 1 B is always an open window, and W / T rounded toward zero reads 0 bps ("never
/// send") for a small window over a T of seconds or more, with min_rate 0 (the default).
[[nodiscard]] constexpr bit_rate int_window_rate(bytes w, duration t, bit_rate lo,
                                                 bit_rate hi) noexcept {
  bit_rate r = w / t;
  if (r > hi) r = hi;
  if (r < lo) r = lo;
  if (r < min_pacing_rate) r = min_pacing_rate;
  return r;
}

}  // namespace detail

/// @brief Which rule of ComputeWind the latest ACK ran (basic_hpcc::last_branch): the decision
/// record the double and q32 policies are checked to agree on (tests/control/hpcc_test.cpp).
/// One byte of per-flow state.
/// @code
/// if (cc.last_branch() == netcc::hpcc_branch::additive) { /* line 18 */ }
/// @endcode
enum class hpcc_branch : std::uint8_t {
  none,                      ///< no ACK yet
  hold,                      ///< no utilisation estimate yet: the window is unchanged
  multiplicative,            ///< line 14 (U >= eta or incStage >= maxStage), W^c kept
  multiplicative_reference,  ///< line 14, and W^c = W, incStage = 0 (line 16)
  additive,                  ///< line 18 (W = W^c + W_AI), W^c kept
  additive_reference,        ///< line 18, and W^c = W, incStage + 1 (line 20)
};

namespace detail {

/// ComputeWind(U, updateWc), HPCC Algorithm 1 lines 12-21, on a flow's reference window `wc`
/// and incStage `stage` (both updated when `update_wc`); records the rule in `branch` and
/// returns W. Shared by netcc::basic_hpcc and netcc::basic_hpcc_compact.
template <Number T, class Stage>
[[nodiscard]] constexpr T hpcc_compute_wind(T u, bool update_wc, T& wc, Stage& stage,
                                            std::int64_t max_stage, hpcc_branch& branch,
                                            const int_window_config<T>& c) noexcept {
  T w;
  if (u >= c.eta || static_cast<std::int64_t>(stage) >= max_stage) {
    branch = update_wc ? hpcc_branch::multiplicative_reference : hpcc_branch::multiplicative;
    w = mimd_window(wc, u, c);  // line 14: W = Wc / (U/eta) + W_AI
    if (update_wc) {
      stage = 0;  // line 16
      wc = w;     // line 16
    }
  } else {
    branch = update_wc ? hpcc_branch::additive_reference : hpcc_branch::additive;
    w = clamp_num(wc + c.w_ai, c.min_cwnd, c.max_cwnd);  // line 18: W = Wc + W_AI
    if (update_wc) {
      if (static_cast<std::int64_t>(stage) < max_stage) ++stage;  // line 20
      wc = w;                                                     // line 20
    }
  }
  return w;
}

}  // namespace detail

/// @brief HPCC (SIGCOMM'19 Algorithm 1) over any arithmetic policy and INT stack.
///
/// Per ACK (`on_ack`): MeasureInflight through netcc::int_utilisation, ComputeWind with the
/// reference window updated once per RTT, R = W / T. No allocation, no clock reads; cwnd() and
/// pacing_rate() are finite and within their limits after any event sequence.
/// @tparam Policy arithmetic policy (netcc::arith::ieee_double, netcc::arith::q32, ...)
/// @tparam Stack  the INT stack type of the events (e.g. netcc::hpcc_int_format::stack)
/// @code
/// using namespace netcc::literals;
/// netcc::basic_hpcc<netcc::arith::q32> cc{{.host_rate = 100_Gbps, .base_rtt = 8_us}};
/// cc.on_ack(ack);
/// auto w = cc.cwnd();
/// @endcode
template <ArithmeticPolicy Policy = arith::ieee_double, class Stack = int_stack<>>
class basic_hpcc {
 public:
  /// @brief The number type of the law.
  using value_type = typename Policy::value_type;
  /// @brief The utilisation estimator (shared with netcc::basic_fasttune).
  using estimator_type = int_utilisation<value_type, Stack, int_path::whole>;
  /// @brief The parameter struct.
  using params_type = hpcc_params;

  /// @brief A controller with parameters `p` (unchecked: invalid fields fall back to their
  /// defaults; netcc::make reports them instead).
  constexpr explicit basic_hpcc(const params_type& p = {}) noexcept {
    params_ = p;
    cfg_ = detail::make_int_window_config<value_type>(params_, params_type{});
    if (params_.max_stage < 0 || params_.max_stage > 1'000'000)
      params_.max_stage = params_type{}.max_stage;
    w_ = wc_ = cfg_.cwnd_init;
  }

  /// @brief Events consumed (netcc::controller_traits): ACKs only.
  static constexpr event_set events = cc_event::ack;

  /// @brief NewAck(ack): Algorithm 1 lines 22-28. The ACK's INT stack must have the clock and
  /// counter traits of `Stack` (netcc::IntFeedbackFor; the compiler's note names a missing
  /// accessor or the clock width that differs).
  template <class E>
  requires IntFeedbackFor<E, Stack>
  [[gnu::always_inline]] constexpr void on_ack(const E& e) noexcept {
    using ft = feedback_traits<E>;
    est_.sample(e, cfg_.t, cfg_.t_div);  // MeasureInflight; stores L = ack.L (line 28)
    branch_ = hpcc_branch::hold;
    if (!est_.has_value()) return;
    const bool update_wc = marker_.passed(ft::ack_seq(e));  // line 23: ack.seq > lastUpdateSeq
    w_ = compute_wind(est_.value(), update_wc);             // lines 24 / 27
    if (update_wc) marker_.arm(ft::snd_nxt(e));             // line 25: lastUpdateSeq = snd_nxt
  }

  /// @brief The window W in whole bytes (rounded down), within [min_cwnd, max_cwnd].
  [[nodiscard]] constexpr bytes cwnd() const noexcept {
    return bytes{static_cast<std::int64_t>(to_double(w_))};
  }
  /// @brief R = W / T (line 28), within [min_rate, host_rate], at least 1 bps
  /// (netcc::min_pacing_rate: the window is always open).
  [[nodiscard]] constexpr bit_rate pacing_rate() const noexcept {
    return detail::int_window_rate(cwnd(), cfg_.t, cfg_.min_rate, cfg_.host_rate);
  }
  /// @brief W as the law computes it (unrounded).
  [[nodiscard]] constexpr value_type window() const noexcept { return w_; }
  /// @brief The reference window W^c.
  [[nodiscard]] constexpr value_type reference_window() const noexcept { return wc_; }
  /// @brief U, the smoothed utilisation (0 before the first sample).
  [[nodiscard]] constexpr value_type utilisation() const noexcept { return est_.value(); }
  /// @brief incStage, the additive-increase stages since the last multiplicative step.
  [[nodiscard]] constexpr std::int64_t inc_stage() const noexcept { return inc_stage_; }
  /// @brief The rule of ComputeWind the latest ACK ran.
  [[nodiscard]] constexpr hpcc_branch last_branch() const noexcept { return branch_; }
  /// @brief W_AI in force, in bytes.
  [[nodiscard]] constexpr value_type w_ai() const noexcept { return cfg_.w_ai; }
  /// @brief The utilisation estimator's state.
  [[nodiscard]] constexpr const estimator_type& estimator() const noexcept { return est_; }
  /// @brief The parameters in force (after invalid fields fell back; derived fields as given).
  [[nodiscard]] constexpr params_type params() const noexcept { return params_; }
  /// @brief The largest window in force (max_cwnd, or HostBw * T when derived).
  [[nodiscard]] constexpr bytes max_window() const noexcept {
    return bytes{static_cast<std::int64_t>(to_double(cfg_.max_cwnd))};
  }

 private:
  /// ComputeWind(U, updateWc), Algorithm 1 lines 12-21 (detail::hpcc_compute_wind).
  [[nodiscard]] constexpr value_type compute_wind(value_type u, bool update_wc) noexcept {
    return detail::hpcc_compute_wind(u, update_wc, wc_, inc_stage_, params_.max_stage, branch_,
                                     cfg_);
  }

  // Configuration (per class of flows in a NIC; kept here so the controller is one value).
  params_type params_{};
  detail::int_window_config<value_type> cfg_{};
  // Per-flow state: W, W^c, lastUpdateSeq, incStage, the estimator (U and L).
  value_type w_{};
  value_type wc_{};
  per_rtt_marker marker_{};
  std::int64_t inc_stage_ = 0;
  estimator_type est_{};
  hpcc_branch branch_ = hpcc_branch::none;  // the rule the latest ACK ran

 public:
  /// @brief Bytes of per-flow state (W, W^c, lastUpdateSeq, incStage, U, the per-hop records,
  /// the branch record), as opposed to the configuration every flow of a class shares.
  static constexpr std::size_t state_bytes = 2 * sizeof(value_type) + sizeof(per_rtt_marker) +
                                             sizeof(std::int64_t) + sizeof(estimator_type) +
                                             sizeof(hpcc_branch);
};

/// @brief HPCC with double arithmetic over netcc's own ACK events.
using hpcc = basic_hpcc<>;

// Per-flow state budget: 64 B + 16 B per hop on the HPCC wire format (24-bit timestamps and
// 20-bit counters share one word per hop), 64 B + 24 B per hop with 64-bit counters. The
// configuration (parameters and derived terms) is shared by a class of flows in a NIC.
static_assert(
    basic_hpcc<arith::ieee_double,
               int_stack<5, wrapping_clock<24>, wrapping_counter<20, 128>>>::state_bytes <=
        64 + 16 * 5,
    "hpcc: per-flow state over the HPCC wire format within 64 B + 16 B per hop");
static_assert(
    basic_hpcc<arith::q32,
               int_stack<5, wrapping_clock<24>, wrapping_counter<20, 128>>>::state_bytes <=
        64 + 16 * 5,
    "hpcc (q32): per-flow state within 64 B + 16 B per hop");
static_assert(hpcc::state_bytes <= 64 + 24 * 5, "hpcc: per-flow state within 64 B + 24 B per hop");

/// @brief HPCC in q32 with its per-flow state at wire width: 64 B at 5 hops on HPCC's INT
/// format, for arrays of many flows. The q32 controller's Algorithm 1 (the same configuration,
/// estimator and ComputeWind, detail::int_util_sample and detail::hpcc_compute_wind) over a
/// packed flow_state; the parameters and derived terms live in a config shared by a class of
/// flows.
///
/// Layout and the range of every narrowed field:
/// - the previous INT record of each hop (`L`, line 22): the hop's 64-bit wire word
///   (netcc::int_wire_format: rate code, timestamp, tx counter, queue length), 8 B per hop.
///   Range: hops as the wire format decodes them (int_wire_format::decode_hop / make_hop: a
///   table rate, a queue length in whole wire units up to max_qlen); a hand-made hop outside
///   that image is read as the wire would carry it (rate rounded down to the table, queue to
///   whole units), which is what a switch with that format reports. Timestamp and tx-counter
///   deltas wrap at the wire's widths, as in the q32 object over the decoded stack.
/// - W^c and U: q32 as they are (8 B each; not narrowed: HPCC's W^c / (U / eta) needs q32's
///   resolution for bit-identical windows).
/// - W is not stored: it is a function of W^c, U and the rule of the latest ACK (W = W^c after
///   a reference update or before the first sample, W^c / (U / eta) + W_AI after line 14
///   without update, W^c + W_AI after line 18 without update), recomputed by window(); the
///   event handler returns it.
/// - lastUpdateSeq: the low 32 bits of the sequence number (4 B), compared modulo 2^32, plus a
///   bit saying it was armed (a fresh marker compares at full width against 0). Range: ack.seq
///   within 2^31 - 1 B of the last armed lastUpdateSeq.
/// - incStage (20 bits; max_stage <= 1000000 < 2^20), the latest rule (3 bits), "U has a
///   sample", "lastUpdateSeq armed" and the stored hop count (7 bits): one 32-bit word.
///
/// Within those ranges every ACK takes the same rule as basic_hpcc<arith::q32, Wire::stack> and
/// leaves the same W, W^c, U and incStage bit for bit (tests/control/hpcc_compact_test.cpp).
///
/// The ACKs may carry their INT as decoded records (Wire::stack) or as the wire words they came
/// in (Wire::word_stack, from Wire::decode_words): from words, each hop's word is stored as it
/// came rather than packed again from its fields, with the same state byte for byte.
/// @tparam Wire the INT wire layout (netcc::int_wire_format; HPCC's by default)
/// @code
/// const netcc::hpcc_compact::config cfg{{.host_rate = netcc::bit_rate{100'000'000'000}}};
/// std::vector<netcc::hpcc_compact::flow_state> flows(1000, cfg.initial_state());  // 64 kB
/// cfg.on_ack(flows[7], ack);  // ack: netcc::basic_ack_event<netcc::hpcc_int_format::word_stack>
/// netcc::bytes w = cfg.cwnd(flows[7]);
/// @endcode
template <class Wire = hpcc_int_format>
class basic_hpcc_compact {
 public:
  /// @brief The INT stack type of the events (the wire format's decoded stack).
  using stack_type = typename Wire::stack;
  /// @brief The q32 controller this form equals within its ranges.
  using wide_type = basic_hpcc<arith::q32, stack_type>;
  /// @brief The number type of the law (q32).
  using value_type = typename wide_type::value_type;
  /// @brief The parameter struct.
  using params_type = hpcc_params;
  /// @brief Events consumed: ACKs only.
  static constexpr event_set events = cc_event::ack;
  static_assert(Wire::max_hops <= 127, "basic_hpcc_compact: at most 127 hops (7-bit count)");

 private:
  using clock = typename stack_type::timestamp_clock;
  using counter = typename stack_type::tx_counter;
  using record = detail::int_wire_record<Wire>;
  using f_stage = detail::bit_field<0, 20>;
  using f_branch = detail::bit_field<20, 3>;
  using f_have_u = detail::bit_field<23, 1>;
  using f_armed = detail::bit_field<24, 1>;
  using f_count = detail::bit_field<25, 7>;

 public:
  /// @brief One flow's packed state (64 B at 5 hops, trivially copyable); see the class
  /// comment for each field's range. Read and change it through config.
  struct flow_state {
    std::array<record, Wire::max_hops> hops{};  ///< each hop's previous INT record, wire word
    value_type wc{};                            ///< W^c, the reference window (q32 bytes)
    value_type u{};                             ///< U, the smoothed utilisation (q32)
    std::uint32_t mark = 0;                     ///< lastUpdateSeq, low 32 bits
    std::uint32_t bits = 0;  ///< incStage (bits 0-19), rule (20-22), U valid (23), armed (24),
                             ///< hop count (25-31)
  };
  static_assert(std::is_trivially_copyable_v<flow_state>);

  /// @brief What a class of flows shares: the parameters and every derived constant, with
  /// Algorithm 1 as members taking one flow's state.
  class config {
   public:
    /// @brief The configuration for parameters `p` (invalid fields fall back to their
    /// defaults, as basic_hpcc; netcc::validate reports them).
    constexpr explicit config(const params_type& p = {}) noexcept : p_(p) {
      c_ = detail::make_int_window_config<value_type>(p_, params_type{});
      if (p_.max_stage < 0 || p_.max_stage > 1'000'000) p_.max_stage = params_type{}.max_stage;
    }

    /// @brief A new flow's state: W = W^c = W_init, no record, no sample.
    [[nodiscard]] constexpr flow_state initial_state() const noexcept {
      flow_state st{};
      st.wc = c_.cwnd_init;
      return st;
    }
    /// @brief Reset `st` to a new flow's state.
    constexpr void init(flow_state& st) const noexcept { st = initial_state(); }

    /// @brief NewAck(ack), Algorithm 1 lines 22-28 (basic_hpcc::on_ack) on `st`; returns W.
    /// Always inlined into the caller: out of line, the call saved and restored registers on
    /// every ACK (over wire words, bench/int_window.cpp: 284 / 666 -> 264 / 656 instructions
    /// per ACK at 1 / 5 hops, 13.2-13.5 / 29.0-29.7 -> 11.2-11.5 / 27.7-29.0 ns).
    template <class E>
    requires IntFeedbackFor<E, stack_type>
    [[gnu::always_inline]] constexpr value_type on_ack(flow_state& st, const E& e) const noexcept {
      using ft = feedback_traits<E>;
      std::uint8_t count = static_cast<std::uint8_t>(f_count::get(st.bits));
      bool have_u = f_have_u::get(st.bits) != 0;
      detail::int_util_sample<value_type, int_path::whole, clock, counter>(
          e, c_.t, &c_.t_div, st.hops, count, st.u, have_u);
      std::uint32_t bits = st.bits;
      f_count::set(bits, count);
      f_have_u::set(bits, have_u ? 1U : 0U);
      if (!have_u) {
        f_branch::set(bits, static_cast<std::uint32_t>(hpcc_branch::hold));
        st.bits = bits;
        return st.wc;
      }
      const bool armed = f_armed::get(bits) != 0;
      const bool update_wc = detail::seq32_passed(ft::ack_seq(e), st.mark, armed);  // line 23
      std::uint32_t stage = f_stage::get(bits);
      hpcc_branch br{};
      const value_type w =
          detail::hpcc_compute_wind(st.u, update_wc, st.wc, stage, p_.max_stage, br, c_);
      if (update_wc) {  // line 25: lastUpdateSeq = snd_nxt
        st.mark = static_cast<std::uint32_t>(ft::snd_nxt(e));
        f_armed::set(bits, 1U);
      }
      f_stage::set(bits, stage);
      f_branch::set(bits, static_cast<std::uint32_t>(br));
      st.bits = bits;
      return w;
    }

    /// @brief W as the law computed it on the latest ACK (see the class comment).
    [[nodiscard]] constexpr value_type window(const flow_state& st) const noexcept {
      switch (last_branch(st)) {
        case hpcc_branch::multiplicative:
          return detail::mimd_window(st.wc, st.u, c_);
        case hpcc_branch::additive:
          return clamp_num(st.wc + c_.w_ai, c_.min_cwnd, c_.max_cwnd);
        default:
          return st.wc;
      }
    }
    /// @brief The window W in whole bytes (rounded down), within [min_cwnd, max_cwnd].
    [[nodiscard]] constexpr bytes cwnd(const flow_state& st) const noexcept {
      return bytes{static_cast<std::int64_t>(to_double(window(st)))};
    }
    /// @brief R = W / T (line 28), within [min_rate, host_rate], at least 1 bps.
    [[nodiscard]] constexpr bit_rate pacing_rate(const flow_state& st) const noexcept {
      return detail::int_window_rate(cwnd(st), c_.t, c_.min_rate, c_.host_rate);
    }
    /// @brief The reference window W^c.
    [[nodiscard]] constexpr value_type reference_window(const flow_state& st) const noexcept {
      return st.wc;
    }
    /// @brief U (0 before the first sample).
    [[nodiscard]] constexpr value_type utilisation(const flow_state& st) const noexcept {
      return st.u;
    }
    /// @brief True once U holds a sample.
    [[nodiscard]] constexpr bool has_utilisation(const flow_state& st) const noexcept {
      return f_have_u::get(st.bits) != 0;
    }
    /// @brief Hops with a stored record.
    [[nodiscard]] constexpr std::size_t hops(const flow_state& st) const noexcept {
      return f_count::get(st.bits);
    }
    /// @brief incStage.
    [[nodiscard]] constexpr std::int64_t inc_stage(const flow_state& st) const noexcept {
      return f_stage::get(st.bits);
    }
    /// @brief The rule of ComputeWind the latest ACK ran.
    [[nodiscard]] constexpr hpcc_branch last_branch(const flow_state& st) const noexcept {
      return static_cast<hpcc_branch>(f_branch::get(st.bits));
    }
    /// @brief W_AI in force, in bytes.
    [[nodiscard]] constexpr value_type w_ai() const noexcept { return c_.w_ai; }
    /// @brief The parameters in force (after invalid fields fell back).
    [[nodiscard]] constexpr const params_type& params() const noexcept { return p_; }
    /// @brief The largest window in force.
    [[nodiscard]] constexpr bytes max_window() const noexcept {
      return bytes{static_cast<std::int64_t>(to_double(c_.max_cwnd))};
    }

   private:
    params_type p_;
    detail::int_window_config<value_type> c_{};
  };

  /// @brief Bytes of per-flow state (sizeof(flow_state)).
  static constexpr std::size_t state_bytes = sizeof(flow_state);

  /// @brief A controller with parameters `p` (invalid fields fall back to their defaults).
  constexpr explicit basic_hpcc_compact(const params_type& p = {}) noexcept
      : cfg_(p), s_(cfg_.initial_state()) {}

  /// @brief NewAck(ack) (config::on_ack on this flow).
  template <class E>
  requires IntFeedbackFor<E, stack_type>
  constexpr void on_ack(const E& e) noexcept { cfg_.on_ack(s_, e); }
  /// @brief The window W in whole bytes.
  [[nodiscard]] constexpr bytes cwnd() const noexcept { return cfg_.cwnd(s_); }
  /// @brief R = W / T.
  [[nodiscard]] constexpr bit_rate pacing_rate() const noexcept { return cfg_.pacing_rate(s_); }
  /// @brief W as the law computes it (unrounded).
  [[nodiscard]] constexpr value_type window() const noexcept { return cfg_.window(s_); }
  /// @brief The reference window W^c.
  [[nodiscard]] constexpr value_type reference_window() const noexcept {
    return cfg_.reference_window(s_);
  }
  /// @brief U (0 before the first sample).
  [[nodiscard]] constexpr value_type utilisation() const noexcept { return cfg_.utilisation(s_); }
  /// @brief incStage.
  [[nodiscard]] constexpr std::int64_t inc_stage() const noexcept { return cfg_.inc_stage(s_); }
  /// @brief The rule of ComputeWind the latest ACK ran.
  [[nodiscard]] constexpr hpcc_branch last_branch() const noexcept { return cfg_.last_branch(s_); }
  /// @brief W_AI in force.
  [[nodiscard]] constexpr value_type w_ai() const noexcept { return cfg_.w_ai(); }
  /// @brief The parameters in force.
  [[nodiscard]] constexpr params_type params() const noexcept { return cfg_.params(); }
  /// @brief The largest window in force.
  [[nodiscard]] constexpr bytes max_window() const noexcept { return cfg_.max_window(); }
  /// @brief The configuration this controller runs (shareable with other flows).
  [[nodiscard]] constexpr const config& configuration() const noexcept { return cfg_; }
  /// @brief This flow's state.
  [[nodiscard]] constexpr const flow_state& state() const noexcept { return s_; }

 private:
  config cfg_;
  flow_state s_;
};

/// @brief HPCC in q32 with a 64-B per-flow state on HPCC's INT wire format.
using hpcc_compact = basic_hpcc_compact<>;

// Per-flow state budget of the compact form: 64 B at 5 hops (five 8-B wire records, W^c and U in
// q32, a 32-bit lastUpdateSeq, one word of incStage, rule, flags and hop count).
static_assert(sizeof(hpcc_compact::flow_state) <= 64, "hpcc_compact: per-flow state within 64 B");
static_assert(hpcc_compact::state_bytes == sizeof(hpcc_compact::flow_state));

}  // namespace netcc
