// SPDX-License-Identifier: MIT
/// @file
/// @brief PowerTCP (INT) and theta-PowerTCP (RTT): one power-based window control law over two
/// signal policies.
///
/// Paper: Vamsi Addanki, Oliver Michel, Stefan Schmid, "PowerTCP: Pushing the Performance
/// Limits of Datacenter Networks", USENIX NSDI 2022.
///
/// What is implemented
/// - The control law, Eq. 7 / Algorithm 1 line 27 (= Algorithm 2 line 20):
///   \f$ w \leftarrow \gamma\,(w_{old}/\Gamma_{norm} + \beta) + (1-\gamma)\,w \f$, with
///   \f$ w_{old} \f$ the window in force when the acknowledged data was sent (GETCWND by
///   sequence, UPDATEOLD once per RTT, lines 3 and 7, via netcc::window_history), the
///   time-weighted smoothing of the normalised power over tau (line 23 / Alg. 2 line 13, via
///   netcc::time_weight), pacing rate = cwnd / tau (line 6), line-rate sending in the first RTT
///   and cwnd_init = HostBw * tau (§3.3 "Parameters").
/// - Two signal policies of one template, netcc::basic_powertcp<Policy, Signal>:
///   | signal                | normalised power                                     | window update | alias                 |
///   | --------------------- | ---------------------------------------------------- | ------------- | --------------------- |
///   | netcc::int_power<S>   | Algorithm 1 NORMPOWER (Eq. 6): per hop ((dq/dt + tx rate)/b) * ((qlen + b*tau)/(b*tau)), max over hops | every ACK with a new sample (Alg. 1) | netcc::powertcp |
///   | netcc::rtt_power      | Eq. 8 / Algorithm 2: (dRTT/dt + 1) * RTT / tau        | once per RTT (Alg. 2 lines 17-22) | netcc::theta_powertcp |
/// - tau: the configured base RTT, or the minimum RTT observed (§3.3 "If baseRTT is not
///   precisely known, an alternative is to keep track of minimum observed RTT").
///
/// Defaults (netcc::basic_powertcp_params) and their sources
/// - gamma = 0.9: §3.3 "Parameters" ("We recommend gamma = 0.9"), also §4.1.
/// - beta = HostBw * tau / N: §3.3 "Parameters" (`beta = 0` in the params means "derive it").
/// - cwnd_init = HostBw * tau, line rate in the first RTT: §3.3 "Parameters".
/// - HostBw = 25 Gbps: §4.1 ("HostBw is set to the server NIC bandwidth"; server links 25 Gbps).
/// - tau = 28 us: §4.1 sets tau to the maximum RTT of the evaluation fat-tree; its longest path
///   (host-ToR-Agg-Core-Agg-ToR-host, 1+1+5+5+1+1 us one way) gives 28 us of propagation.
/// - N (expected_flows) = 1: the paper gives no number; 1 is the formula with no sharing
///   expected. Set it to the expected number of flows on the NIC.
/// - min_cwnd = 1500 B, max_cwnd = 2^31 - 1 B, min_rate = 0, max_rate = HostBw: not in the paper
///   (netcc: one MTU so a flow can always send; the range of the q32 policy; the NIC rate).
///
/// Decisions the paper leaves open (each tested in tests/control/powertcp_test.cpp)
/// - First ACK: no previous record, so no power sample; the records are stored and the window
///   is left at cwnd_init. The first sample initialises the smoothed power (no average with an
///   undefined start value).
/// - dt <= 0: no division. dt == 0 (a duplicate) gives no sample and keeps the stored record;
///   dt < 0 (a reordered ACK, or a gap above half the timestamp range) gives no sample and
///   re-synchronises the record. An ACK without any sample leaves the smoothed power alone and,
///   for PowerTCP, the window too (Algorithm 1 updates on new feedback; a duplicate carries none).
/// - Path change: a hop count or a link rate that differs from the stored records resets the
///   per-hop history (the ACK then counts as a first ACK); more hops than the signal can hold
///   forgets the history and gives no sample.
/// - Wrapped counters: timestamp and tx-byte deltas are taken modulo their widths
///   (netcc::wrapping_clock, netcc::wrapping_counter from the event's feedback traits).
/// - Near-zero power, bounded increase: by Property 1 the power at the bottleneck is at least
///   b * w_old (the aggregate window contains this flow's), so w_old / Gamma_norm <= b * tau. The
///   multiplicative term is therefore capped at HostBw * tau (this flow cannot use more than its
///   NIC), and it is computed without dividing by a power below w_old / (HostBw * tau). One update
///   raises the window by at most gamma * (HostBw * tau + beta).
///
/// Deviations from the paper, and why
/// - A per-hop current (dq/dt + tx rate), and theta-PowerTCP's (dRTT/dt + 1), below zero is
///   taken as zero: an arrival rate cannot be negative; a negative value is counter noise.
/// - The normalised power is clamped to [0, 2^30]; above it w_old / power is below 2 bytes for
///   every window the policies represent, so the clamp changes no window.
/// - Algorithm 1 line 20 picks the hop with the strictly largest power starting from 0, so an
///   all-idle path (power 0 everywhere) would never set Delta t; netcc takes the first valid hop
///   as the initial candidate (ties keep the earlier hop). Double compares the hops' powers by
///   cross-multiplication and divides out the chosen one only; fixed point computes each hop's
///   power through cached reciprocals of its link rate and BDP (the same values as dividing).
/// - Line 23 with Delta t > tau would give the old value a negative weight; the weight is
///   min(Delta t, tau)/tau (netcc::time_weight).
/// - For PowerTCP (INT), the minimum-RTT tau needs an RTT sample on the ACK; it is used when
///   the event type has one (netcc::RttFeedback) and is non-zero.
/// - GETCWND(ack.seq) looks up the last acknowledged byte, ack_seq - 1: the data an ACK with
///   cumulative ack_seq acknowledges ends there. UPDATEOLD records cwnd from snd_nxt on.
/// - Invalid parameters are not rejected by the controller (it never fails): each invalid field
///   falls back to its default, max_cwnd to at least min_cwnd; call netcc::validate() to see them.
///
/// @code
/// using namespace netcc::literals;
/// netcc::powertcp cc{{.host_rate = 100_Gbps, .base_rtt = 20_us, .expected_flows = 8}};
/// netcc::ack_event a{.now = netcc::timestamp{1000}, .ack_seq = 1500, .snd_nxt = 9000};
/// a.hops.push({.ts = 1000, .qlen = 0_B, .tx_bytes = 0, .link_rate = 100_Gbps});
/// cc.on_ack(a);
/// netcc::bytes w = cc.cwnd();              // bytes
/// netcc::bit_rate r = cc.pacing_rate();    // line rate in the first RTT, then cwnd / tau
/// @endcode
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "netcc/control/controller_concepts.hpp"
#include "netcc/control/detail/packed_state.hpp"
#include "netcc/control/detail/powertcp_hops.hpp"
#include "netcc/control/int_utilisation.hpp"
#include "netcc/core/arith.hpp"
#include "netcc/core/ewma.hpp"
#include "netcc/core/feedback.hpp"
#include "netcc/core/int_wire.hpp"
#include "netcc/core/per_rtt.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/validation.hpp"
#include "netcc/core/window_history.hpp"
#include "netcc/core/wrap.hpp"

// clang++ leaves some per-hop helpers out of line where g++ inlines them (see their comments).
#if defined(__clang__)
#define NETCC_DETAIL_CLANG_INLINE [[gnu::always_inline]]
#else
#define NETCC_DETAIL_CLANG_INLINE
#endif

namespace netcc {

/// @brief Where PowerTCP's tau (base RTT) comes from (§3.3).
enum class powertcp_tau : std::uint8_t {
  configured,  ///< the configured base_rtt ("must be configured at compile time")
  min_rtt,     ///< the minimum RTT sample observed (base_rtt until the first sample)
};

/// @brief Names the parameter set of PowerTCP with INT (Algorithm 1): fields validate as
/// "powertcp.<field>".
struct powertcp_int_tag {
  /// @brief Prefix of field names in validation errors.
  static constexpr const char* name = "powertcp";
};

/// @brief Names the parameter set of theta-PowerTCP (Algorithm 2): fields validate as
/// "theta_powertcp.<field>".
struct powertcp_rtt_tag {
  /// @brief Prefix of field names in validation errors.
  static constexpr const char* name = "theta_powertcp";
};

/// @brief Parameters of PowerTCP and theta-PowerTCP, with the paper's defaults (§3.3, §4.1).
///
/// The two controllers share the law and so the fields; `Tag` only names them in validation
/// errors. Zero in `beta`, `cwnd_init` or `max_rate` means "derive it as the paper does".
/// @tparam Tag netcc::powertcp_int_tag or netcc::powertcp_rtt_tag
/// @code
/// using namespace netcc::literals;
/// netcc::powertcp_params p{.host_rate = 100_Gbps, .base_rtt = 20_us, .expected_flows = 8};
/// // beta = 100 Gbps * 20 us / 8 = 31250 B; cwnd_init = 250000 B
/// @endcode
template <class Tag>
struct basic_powertcp_params {
  /// @brief EWMA parameter gamma in (0, 1] (§3.3: 0.9).
  double gamma = 0.9;
  /// @brief HostBw, the NIC bandwidth (§4.1: the 25 Gbps server NIC).
  bit_rate host_rate{25'000'000'000};
  /// @brief tau, the base RTT (§4.1: the maximum RTT of the topology, 28 us of propagation).
  duration base_rtt{28'000};
  /// @brief N, the expected number of flows sharing the host NIC (no paper value; 1).
  std::int64_t expected_flows = 1;
  /// @brief Additive increase beta; 0 derives HostBw * tau / N (§3.3).
  bytes beta{0};
  /// @brief Initial window; 0 derives HostBw * tau (§3.3).
  bytes cwnd_init{0};
  /// @brief Smallest window (netcc: one MTU).
  bytes min_cwnd{1500};
  /// @brief Largest window (netcc: the q32 range, 2^31 - 1 B).
  bytes max_cwnd{0x7FFF'FFFF};
  /// @brief Smallest pacing rate.
  bit_rate min_rate{0};
  /// @brief Largest pacing rate; 0 means host_rate.
  bit_rate max_rate{0};
  /// @brief Where tau comes from.
  powertcp_tau tau_source = powertcp_tau::configured;
  /// @brief Pace at host_rate until the first window update (§3.3 "line rate in the first RTT").
  bool line_rate_first_rtt = true;
};

/// @brief Parameters of PowerTCP with INT (Algorithm 1).
using powertcp_params = basic_powertcp_params<powertcp_int_tag>;
/// @brief Parameters of theta-PowerTCP (Algorithm 2).
using theta_powertcp_params = basic_powertcp_params<powertcp_rtt_tag>;

/// @brief The largest window the controllers accept (the q32 integer range).
inline constexpr bytes powertcp_window_limit{0x7FFF'FFFF};

/// @brief Check PowerTCP / theta-PowerTCP parameters; every error names
/// "<powertcp|theta_powertcp>.<field>", the value and the rule.
/// @code
/// auto v = netcc::validate(netcc::powertcp_params{.gamma = 1.5});
/// // v[0].message() == "powertcp.gamma = 1.5: must be in (0, 1]"
/// @endcode
template <class Tag>
[[nodiscard]] validation validate(const basic_powertcp_params<Tag>& p) {
  const std::string n = std::string(Tag::name) + ".";
  validation v;
  v.check(p.gamma > 0 && p.gamma <= 1, n + "gamma", p.gamma, "must be in (0, 1]");
  v.check(p.host_rate > bit_rate::zero(), n + "host_rate", p.host_rate, "must be positive");
  v.check(p.base_rtt > duration::zero(), n + "base_rtt", p.base_rtt, "must be positive");
  v.check(p.expected_flows >= 1, n + "expected_flows", p.expected_flows, "must be at least 1");
  v.check(p.beta >= bytes::zero(), n + "beta", p.beta,
          "must be non-negative (0 derives host_rate * base_rtt / expected_flows)");
  v.check(p.min_cwnd >= bytes{1}, n + "min_cwnd", p.min_cwnd, "must be at least one byte");
  v.check(p.max_cwnd >= p.min_cwnd, n + "max_cwnd", p.max_cwnd, "must be at least min_cwnd");
  v.check(p.max_cwnd <= powertcp_window_limit, n + "max_cwnd", p.max_cwnd,
          "must be at most 2147483647 B (the q32 range)");
  v.check(p.cwnd_init >= bytes::zero(), n + "cwnd_init", p.cwnd_init,
          "must be non-negative (0 derives host_rate * base_rtt)");
  if (p.cwnd_init > bytes::zero())
    v.check(p.cwnd_init >= p.min_cwnd && p.cwnd_init <= p.max_cwnd, n + "cwnd_init", p.cwnd_init,
            "must be within [min_cwnd, max_cwnd]");
  v.check(p.min_rate >= bit_rate::zero(), n + "min_rate", p.min_rate, "must be non-negative");
  v.check(p.max_rate >= bit_rate::zero(), n + "max_rate", p.max_rate,
          "must be non-negative (0 means host_rate)");
  const bit_rate eff_max = p.max_rate > bit_rate::zero() ? p.max_rate : p.host_rate;
  v.check(eff_max >= p.min_rate, n + "max_rate", eff_max, "must be at least min_rate");
  v.check(p.tau_source == powertcp_tau::configured || p.tau_source == powertcp_tau::min_rtt,
          n + "tau_source", static_cast<int>(p.tau_source), "must be configured or min_rtt");
  return v;
}

/// @brief One normalised-power measurement from a signal policy: valid, the power
/// (Gamma_norm, dimensionless; 1 = the bottleneck exactly full with an empty queue) and the
/// interval it covers (Algorithm 1 line 21's Delta t).
/// @tparam T the arithmetic policy's number type
template <Number T>
struct power_sample {
  /// @brief False when the event gave no measurement (first ACK, dt <= 0, path change).
  bool valid = false;
  /// @brief The normalised power.
  T power{};
  /// @brief The interval the measurement spans.
  duration dt{};
};

/// @brief Largest normalised power a signal reports (see the deviations in the file comment).
template <Number T>
[[nodiscard]] constexpr T powertcp_max_power() noexcept {
  return num<T>(1073741824.0);  // 2^30
}

namespace detail {
// A PowerTCP signal over INT (netcc::int_power) names its stack; theta-PowerTCP's does not.
template <class Signal>
concept powertcp_int_signal = requires {
  typename Signal::stack_type;
};
// The signal's INT stack, or void for theta-PowerTCP's (named only behind
// powertcp_int_signal, so void is never used as a stack).
template <class Signal>
struct powertcp_stack {
  using type = void;
};
template <class Signal>
requires powertcp_int_signal<Signal>
struct powertcp_stack<Signal> {
  using type = typename Signal::stack_type;
};
}  // namespace detail

namespace detail {

/// cwnd_old / p for cwnd_old >= 0 and p > 0: fixed point divides in unsigned 128-bit
/// arithmetic (the policy's operator/ value: rounded to nearest, ties up, saturating).
/// Shared by netcc::basic_powertcp and netcc::theta_powertcp_compact.
template <Number T>
[[nodiscard]] constexpr T powertcp_quotient(T a, T b) noexcept {
  if constexpr (requires {
                  T::fraction_bits;
                  T::raw_max;
                  T::from_raw(std::int64_t{});
                }) {
    if (a.raw() >= 0 && b.raw() > 0) {
      const auto d = static_cast<u128>(b.raw());
      const u128 q = udiv((static_cast<u128>(a.raw()) << T::fraction_bits) + d / 2, d);
      const auto lim = static_cast<u128>(T::raw_max);
      return T::from_raw(static_cast<std::int64_t>(q > lim ? lim : q));
    }
  }
  return a / b;
}

/// UPDATEWINDOW in the operator form, Algorithm 1 line 27 / Algorithm 2 line 20 (Eq. 7):
/// gamma (cwnd_old / p + beta) + (1 - gamma) cwnd, with cwnd_old / p capped at HostBw * tau
/// (Property 1) and no division by a power below cwnd_old / (HostBw * tau), clamped to
/// [lo, hi]; `uncapped` tells which term applied. The reference of powertcp_update_window.
template <Number T>
[[nodiscard]] constexpr T powertcp_update_window_ops(T p, T host_bdp, T cwnd_old, T gamma, T beta,
                                                     T cwnd, T lo, T hi, bool& uncapped) noexcept {
  uncapped = mul_nonneg(p, host_bdp) > cwnd_old;
  const T mi = uncapped ? powertcp_quotient(cwnd_old, p) : host_bdp;
  const T w = mul_nonneg(gamma, mi + beta) + mul_nonneg(num<T>(1) - gamma, cwnd);
  return clamp_num(w, lo, hi);
}

// The operator form out of line, for the fast form's inputs outside its range.
template <Number T>
[[nodiscard, gnu::noinline, gnu::cold]] constexpr T powertcp_update_window_slow(
    T p, T host_bdp, T cwnd_old, T gamma, T beta, T cwnd, T lo, T hi, bool& uncapped) noexcept {
  return powertcp_update_window_ops<T>(p, host_bdp, cwnd_old, gamma, beta, cwnd, lo, hi, uncapped);
}

/// powertcp_update_window_ops's value bit for bit, in q32 on the raw integers when p, HostBw *
/// tau, cwnd_old, beta and cwnd are non-negative and gamma lies in [0, 1] (2^32 raw), without
/// the operators' sign tests and the saturations that cannot act there. Ranges (F = 32):
/// - p HostBw tau < 2^126: the rounded product round(p h 2^-32) in 128 bits, limited to 2^63 - 1
///   as mul_nonneg, compared with cwnd_old. When it is larger, p > 0 (cwnd_old >= 0) and
///   cwnd_old / p is powertcp_quotient's: floor((cwnd_old 2^32 + floor(p / 2)) / p) by one
///   128/64-bit division of the dividend's two halves (shl_add_halves) when its high half is
///   below p (the quotient fits 64 bits), limited to 2^63 - 1; a high half of p or more means a
///   quotient of 2^64 or more, which that limit gives.
/// - mi + beta: two values in [0, 2^63), their sum below 2^64 in unsigned arithmetic, limited to
///   2^63 - 1 as operator+ saturates.
/// - gamma s with s = mi + beta in [0, 2^63) and gamma <= 2^32: round(gamma s 2^-32) <= s, so
///   mul_nonneg's saturation cannot act; 1 - gamma = 2^32 - gamma in [0, 2^32] (operator-
///   exact), likewise round((1 - gamma) cwnd 2^-32) <= cwnd.
/// - the two terms, each in [0, 2^63), summed below 2^64 unsigned and limited to 2^63 - 1 as
///   operator+; then the clamp to [lo, hi].
/// Other inputs and number types: the operator form (in q32, out of line). Always inlined: the
/// per-ACK window update of basic_powertcp<q32> (PowerTCP's on every ACK).
template <Number T>
[[nodiscard, gnu::always_inline]] constexpr T powertcp_update_window(T p, T host_bdp, T cwnd_old,
                                                                     T gamma, T beta, T cwnd, T lo,
                                                                     T hi,
                                                                     bool& uncapped) noexcept {
  if constexpr (std::is_same_v<T, fixed_point<31, 32>>) {
    constexpr std::uint64_t one = std::uint64_t{1} << 32, half = std::uint64_t{1} << 31;
    constexpr auto raw_max = static_cast<std::uint64_t>(T::raw_max);
    const std::int64_t pr = p.raw(), hr = host_bdp.raw(), cr = cwnd_old.raw(), br = beta.raw(),
                       wr = cwnd.raw();
    const auto g = static_cast<std::uint64_t>(gamma.raw());
    if ((pr | hr | cr | br | wr) >= 0 && g <= one) {
      const u128 ph =
          (u128{static_cast<std::uint64_t>(pr)} * static_cast<std::uint64_t>(hr) + half) >>
          32;  // < 2^94
      uncapped = (ph > raw_max ? raw_max : static_cast<std::uint64_t>(ph)) >
                 static_cast<std::uint64_t>(cr);
      std::uint64_t mi = static_cast<std::uint64_t>(hr);
      if (uncapped) {  // cwnd_old / p as powertcp_quotient: p > 0, cwnd_old >= 0
        const auto d = static_cast<std::uint64_t>(pr);
        const u128_halves x = shl_add_halves<32>(static_cast<std::uint64_t>(cr), d / 2);
        // A high half of d or more: a quotient of 2^64 or more, saturated as a larger one.
        mi = x.hi < d ? udiv_128_64(x.hi, x.lo, d) : raw_max;
        if (mi > raw_max) mi = raw_max;
      }
      std::uint64_t s = mi + static_cast<std::uint64_t>(br);  // < 2^64
      if (s > raw_max) s = raw_max;
      const auto a = static_cast<std::uint64_t>((u128{g} * s + half) >> 32);  // <= s
      const auto b = static_cast<std::uint64_t>(
          (u128{one - g} * static_cast<std::uint64_t>(wr) + half) >> 32);  // <= cwnd
      std::uint64_t w = a + b;                                             // < 2^64
      if (w > raw_max) w = raw_max;
      return clamp_num(raw_in_range<T>(static_cast<std::int64_t>(w)), lo, hi);
    }
    return powertcp_update_window_slow<T>(p, host_bdp, cwnd_old, gamma, beta, cwnd, lo, hi,
                                          uncapped);
  } else {
    return powertcp_update_window_ops<T>(p, host_bdp, cwnd_old, gamma, beta, cwnd, lo, hi,
                                         uncapped);
  }
}

/// ratio<T>(n, d) for d > 0, the same value bit for bit: fixed point with |n| < 2^(63 - F)
/// (theta-PowerTCP's RTT change in ns, below 2.1 s in q32) divides |n| 2^F + d / 2 by d in
/// one unsigned 64-bit division (both below 2^63 + 2^62) instead of ratio's 128-bit one, then
/// puts n's sign back (rounding to nearest, ties away from zero, as ratio; the quotient is at
/// most |n| 2^F, so ratio's saturation never applies). Other values and number types: ratio.
template <Number T>
[[nodiscard]] constexpr T powertcp_ratio(std::int64_t n, std::int64_t d) noexcept {
  if constexpr (requires {
                  T::fraction_bits;
                  T::from_raw(std::int64_t{});
                }) {
    if constexpr (T::fraction_bits < 63) {
      const std::uint64_t mag =
          n < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);
      if (d > 0 && mag < (std::uint64_t{1} << (63 - T::fraction_bits))) {
        const auto ud = static_cast<std::uint64_t>(d);
        const auto q = static_cast<std::int64_t>(((mag << T::fraction_bits) + ud / 2) / ud);
        return T::from_raw(n < 0 ? -q : q);
      }
    }
  }
  return ratio<T>(n, d);
}

/// powertcp_hop_power_recip's value (and so powertcp_hop_power's), bit for bit, with the
/// current's quotient rate / B (rate = dtxBytes-and-dqlen bits per second) taken by one
/// 128-by-64-bit division instruction when the quotient fits 64 bits instead of the
/// reciprocal's multi-word steps: ratio_by's value there (rate 2^F / B rounded to nearest, ties
/// up, saturating at the number type's maximum). Other cases: powertcp_hop_power_recip.
/// Always inlined into NORMPOWER's fixed-point loop: with the hop step in its own helper g++
/// left it out of line, a call per hop (q32, in bench/powertcp.cpp: 394 / 895 -> 441 / 1060
/// instructions per ACK at 1 / 5 hops).
template <Number T>
[[nodiscard, gnu::always_inline]] constexpr T powertcp_hop_power_fast(
    std::int64_t dbytes, duration dt, std::int64_t qlen, const powertcp_rate_recip& r, duration tau,
    T pmax) noexcept {
  if constexpr (requires {
                  T::fraction_bits;
                  T::raw_max;
                  T::from_raw(std::int64_t{});
                }) {
    constexpr std::int64_t dbytes_max = 0x7FFF'FFFF'FFFF'FFFFLL / 8'000'000'000LL;
    // 0 < dbytes <= dbytes_max as one unsigned comparison (dbytes <= 0 wraps above it).
    if (static_cast<std::uint64_t>(dbytes) - 1 < static_cast<std::uint64_t>(dbytes_max) &&
        r.bdp > 0 && r.bps > 0) {
      const T zero = num<T>(0), one = num<T>(1);
      // (bytes{dbytes} / dt).bps(): rounded toward zero, a 64-bit quotient (as _recip).
      const std::uint64_t rate = static_cast<std::uint64_t>(dbytes) * 8'000'000'000ULL /
                                 static_cast<std::uint64_t>(dt.count());
      const auto b = static_cast<std::uint64_t>(r.bps);
      // rate 2^F + floor(b / 2) as its two 64-bit halves (the 128-bit expression's), in
      // registers for the division.
      const u128_halves x = shl_add_halves<T::fraction_bits>(rate, b / 2);
      if (x.hi < b) {
        const std::uint64_t q = udiv_128_64(x.hi, x.lo, b);
        if constexpr (std::is_same_v<T, fixed_point<31, 32>>) {
          // In q32, on the raw integers (pmax = 2^62 raw, one = 2^32) for 0 <= qlen < 2^31 (a
          // record's queue, 2 GiB): the current is min(q, 2^62) (from_raw's limit 2^63 - 1 and
          // the clamp to [0, pmax], q >= 0); ratio_by's 64-bit reciprocal path gives
          // qv = floor((qlen 2^32 + bdp / 2) / bdp) <= qlen 2^32 < 2^63, and 1 + qv clamped to
          // [1, pmax] is pmax when qv >= pmax - 1 (operator+'s saturation included), qv + 1
          // otherwise; both factors in [0, 2^62], their rounded product below 2^93 in 128 bits,
          // limited to pmax (which also covers mul_nonneg's limit 2^63 - 1).
          constexpr std::uint64_t one_r = std::uint64_t{1} << 32, pmax_r = std::uint64_t{1} << 62;
          if (qlen >= 0 && qlen < (std::int64_t{1} << 31)) {
            const std::uint64_t c = q > pmax_r ? pmax_r : q;
            const std::uint64_t qv = r.inv_bdp.div_floor64(
                (static_cast<std::uint64_t>(qlen) << 32) + r.inv_bdp.divisor() / 2);
            const std::uint64_t v = qv >= pmax_r - one_r ? pmax_r : qv + one_r;
            const u128 pw = (u128{c} * v + (u128{1} << 31)) >> 32;
            return raw_in_range<T>(static_cast<std::int64_t>(pw > pmax_r ? pmax_r : pw));
          }
        }
        const T current = clamp_num(
            T::from_raw(q > static_cast<std::uint64_t>(T::raw_max) ? T::raw_max
                                                                   : static_cast<std::int64_t>(q)),
            zero, pmax);
        const T voltage = clamp_num(one + ratio_by<T>(qlen < 0 ? 0 : qlen, r.inv_bdp), one, pmax);
        return clamp_num(mul_nonneg(current, voltage), zero, pmax);
      }
    }
  }
  return powertcp_hop_power_recip<T>(dbytes, dt, qlen, r, tau, pmax);
}

}  // namespace detail

/// @brief PowerTCP's INT signal (Algorithm 1 NORMPOWER, lines 8-22): the normalised power of
/// the most congested hop and its dt, from the hop records of this ACK and of the previous one.
///
/// Keeps one compact record per hop (16 B when the stack's timestamp and counter widths fit in
/// 64 bits together, as HPCC's 24 + 20 bits do; 24 B otherwise).
/// @tparam Stack the INT stack type the events carry (its clock and counter traits and capacity)
/// @code
/// using wire = netcc::hpcc_int_format;   // from netcc/core/int_wire.hpp
/// netcc::basic_powertcp<netcc::arith::q32, netcc::int_power<wire::stack>> cc{{}};
/// @endcode
template <class Stack = int_stack<>>
class int_power {
  using clock = typename Stack::timestamp_clock;
  using counter = typename Stack::tx_counter;
  using record = detail::powertcp_hop_record<clock, counter>;
  static constexpr std::uint8_t no_history = 0xFF;
  static_assert(Stack::max_hops < no_history, "int_power: at most 254 hops");

 public:
  /// @brief Validation prefix of the parameters: "powertcp".
  using params_tag = powertcp_int_tag;
  /// @brief The INT stack type the ACKs carry (netcc::IntFeedbackFor this stack).
  using stack_type = Stack;
  /// @brief Algorithm 1 updates the window on every ACK (with a new sample).
  static constexpr bool once_per_rtt = false;
  /// @brief Capacity in hops.
  static constexpr std::size_t max_hops = Stack::max_hops;
  /// @brief Events this signal reads: INT ACKs whose clock and counter traits are the stack's.
  template <class E>
  static constexpr bool accepts = IntFeedbackFor<E, Stack>;

  /// @brief NORMPOWER(ack): per hop i with dt_i > 0 (line 11),
  /// qdot = dqlen/dt (line 12), mu = dtxBytes/dt (line 13), lambda = qdot + mu (line 14),
  /// v = qlen + b*tau (lines 15-16), Gamma'/e = lambda*v/(b^2*tau) (lines 17-19); the largest
  /// and its dt (lines 20-21). Stores this ACK's records as prevInt (line 7).
  template <Number T, class E>
  requires accepts<E>
  [[gnu::always_inline]] constexpr power_sample<T> sample(const E& e, duration tau) noexcept {
    return sample_impl<T>(e, tau, nullptr);
  }
  /// @brief As sample(e, tau), keeping the reciprocals of the link rates in `cache` (fixed
  /// point: detail::powertcp_hop_power_recip, the same values without a 128-bit division).
  template <Number T, class E>
  requires accepts<E>
  [[gnu::always_inline]] constexpr power_sample<T> sample(
      const E& e, duration tau, detail::powertcp_recip_cache& cache) noexcept {
    return sample_impl<T>(e, tau, &cache);
  }

  /// @brief Hops in the stored history (0 before the first ACK).
  [[nodiscard]] constexpr std::size_t hops() const noexcept {
    return count_ == no_history ? 0 : count_;
  }

 private:
  // Always inlined into NEWACK (as sample_fixed and sample_double): where a translation unit
  // calls on_ack from two places (bench/powertcp.cpp with its two ACK rings), g++ kept it out of
  // line (double: 170 -> 190 instructions per ACK at 1 hop; q32: 307 -> 324).
  template <Number T, class E>
  [[gnu::always_inline]] constexpr power_sample<T> sample_impl(
      const E& e, duration tau, detail::powertcp_recip_cache* cache) noexcept {
    using ft = feedback_traits<E>;
    const std::size_t n = ft::hop_count(e);
    if (n > max_hops) {  // cannot hold this path: forget it, no sample
      count_ = no_history;
      return {};
    }
    if (count_ != n) {  // first ACK or a new hop count: store, no sample
      for (std::size_t j = 0; j < n; ++j) rec_[j].store(ft::hop(e, j));
      count_ = static_cast<std::uint8_t>(n);
      return {};
    }
    if constexpr (std::is_same_v<T, double>) {
      return sample_double(e, tau, n);
    } else {
      return sample_fixed<T>(e, tau, n, cache);
    }
  }

  // One hop's terms for double NORMPOWER, lines 11-19: Gamma' = kn * 8e9 / kd with
  // kn = dbytes * v, v = qlen * 8e9 + b tau, kd = dt * b * b tau (units: bytes, ns, bps).
  struct hop_terms {
    double kn = 0, kd = 0, v = 0;
    std::int64_t dbytes = 0;  // >= 0: a negative byte delta is a current of 0 (file comment)
    duration dt{};
  };

  // What one hop's records give NORMPOWER (lines 11-13 before the divisions by dt).
  struct hop_delta {
    duration dt{};           // line 11: H[i].ts - prevInt[i].ts, > 0
    std::int64_t dbytes{};   // dqlen + dtxBytes (lines 12-13 times dt), saturating
    std::uint32_t qlen = 0;  // H[i].qlen as a record keeps it (powertcp_qlen32)
    bit_rate b{};            // H[i].b
  };

  // Hop i of e against its record, the step both NORMPOWER loops share: the path-change test
  // (a rate that differs in whole Mbps: every record stored, the count set to n; returns -1),
  // dt (line 11; <= 0 returns 0: a duplicate keeps the record, a reordered one resyncs it), and
  // e's record stored as prevInt (line 7); returns 1 with the hop's terms in d. g++ inlines it
  // into both loops (forcing it cost 28 more instructions per q32 ACK); clang++ called it per
  // hop, and is made to inline it (PowerTCP double: 25 / 42 ns per ACK at 1 / 5 hops called,
  // 12.6 / 40 inlined).
  template <class E>
  NETCC_DETAIL_CLANG_INLINE constexpr int hop_step(const E& e, std::size_t i, std::size_t n,
                                                   hop_delta& d) noexcept {
    using ft = feedback_traits<E>;
    const int_hop& h = ft::hop(e, i);
    record& r = rec_[i];
    const std::uint32_t rate = r.rate;
    const std::uint32_t q32 = detail::powertcp_qlen32_fast(h.qlen);
    if (!record::key_is(h, rate)) {  // a path change: store, no sample
      for (std::size_t j = 0; j < n; ++j) rec_[j].store(ft::hop(e, j));
      count_ = static_cast<std::uint8_t>(n);
      return -1;
    }
    const duration dt = clock::diff(h.ts, r.ts());  // line 11: dt = H[i].ts - prevInt[i].ts
    if (dt <= duration::zero()) {
      if (dt < duration::zero()) r.store_raw(h, q32, rate);  // reordered or beyond half: resync
      return 0;  // dt == 0: a duplicate; keep the record
    }
    const std::int64_t dq = static_cast<std::int64_t>(q32) - static_cast<std::int64_t>(r.qlen);
    const std::int64_t dtx = counter::delta_bytes(h.tx_bytes, r.tx());
    r.store_raw(h, q32, rate);
    d.dt = dt;
    d.dbytes = detail::sat_add(dq, dtx);
    d.qlen = q32;
    d.b = h.link_rate;
    return 1;
  }

  // Hop i of e against its record (lines 11-19, through hop_step): 1 and its terms in t when it
  // gives a power; 0 when it gives none (dt <= 0 or b <= 0); -1 on a path change.
  template <class E>
  [[gnu::always_inline]] constexpr int double_terms(const E& e, std::size_t i, std::size_t n,
                                                    double tau_d, hop_terms& t) noexcept {
    hop_delta d;
    const int k = hop_step(e, i, n, d);
    if (k <= 0) return k;
    const bit_rate b = d.b;
    if (b <= bit_rate::zero()) return 0;  // e = b^2 tau = 0: cannot normalise this hop
    // lines 12-19: lambda = dq/dt + dtx/dt (>= 0, file comment), v = qlen + b*tau,
    // Gamma' / e = lambda * v / (b^2 tau) = (lambda / b) * (v / (b tau))
    const double bt = static_cast<double>(b.bps()) * tau_d;
    t.v = static_cast<double>(d.qlen) * 8e9 + bt;
    t.dbytes = d.dbytes < 0 ? 0 : d.dbytes;  // so the chosen power is never below 0
    t.kn = static_cast<double>(t.dbytes) * t.v;
    t.kd = static_cast<double>(d.dt.count()) * static_cast<double>(b.bps()) * bt;
    t.dt = d.dt;
    return 1;
  }

  // NORMPOWER in double: the hops' powers compared by cross-multiplication, clamped at pmax (a
  // hop with kn * 8e9 >= pmax * kd is saturated: no later hop replaces it, and it replaces an
  // unsaturated one); only the chosen hop's power is divided out (detail::powertcp_hop_power's
  // value: its numerator dbytes * 8e9 * v over its denominator dt * b * b tau, the same
  // operations in the same order; dbytes >= 0, so only the clamp at pmax can apply). The first
  // valid hop is the initial candidate (lines 20-21, file comment); its saturation is evaluated
  // only when a later hop follows (a one-hop path never needs it).
  template <class E>
  [[gnu::always_inline]] constexpr power_sample<double> sample_double(const E& e, duration tau,
                                                                      std::size_t n) noexcept {
    const double pmax = powertcp_max_power<double>();
    const double tau_d = static_cast<double>(tau.count());
    hop_terms best, c;
    std::size_t i = 0;
    int k = 0;
    while (i < n && (k = double_terms(e, i++, n, tau_d, best)) == 0) {
    }
    if (k <= 0) return {};  // a path change, or no hop with a sample
    if (i < n) {
      bool bsat = best.kn * 8e9 >= pmax * best.kd;
      for (; i < n; ++i) {
        k = double_terms(e, i, n, tau_d, c);
        if (k < 0) return {};
        // lines 20-21: a larger power replaces the best. Selected without a branch: which hop
        // is larger follows the queues from ACK to ACK, and a mispredicted jump per hop cost
        // more than the whole comparison (bench/powertcp.cpp, 5 hops, g++: 39-40 -> 23 ns per ACK;
        // clang++ 14 turns the selects back into a jump, 40 ns either way).
        // A hop without a power (k == 0) leaves c's terms unused.
        const bool ks = c.kn * 8e9 >= pmax * c.kd;
        const bool unclamped = !bsat;  // a best at the clamp is not exceeded
        const bool take = (k != 0) & unclamped & (ks | (c.kn * best.kd > best.kn * c.kd));
        best.kn = take ? c.kn : best.kn;
        best.kd = take ? c.kd : best.kd;
        best.v = take ? c.v : best.v;
        best.dbytes = take ? c.dbytes : best.dbytes;
        best.dt = take ? c.dt : best.dt;
        bsat = take ? ks : bsat;
      }
    }
    const double p = static_cast<double>(best.dbytes) * 8e9 * best.v / best.kd;  // finite, >= +0
    return {true, p > pmax ? pmax : p, best.dt};
  }

  // NORMPOWER in fixed point (powertcp_hop_power per hop, through the links' cached
  // reciprocals when there is a cache); the largest power, the first valid hop starting.
  // Always inlined into NEWACK: out of line, g++ saved and restored six registers and returned
  // the sample through memory on every ACK (q32, bench/powertcp.cpp: 332.7 / 706.0 -> 302.6 /
  // 676.7 instructions per ACK at 1 / 5 hops).
  template <Number T, class E>
  [[gnu::always_inline]] constexpr power_sample<T> sample_fixed(
      const E& e, duration tau, std::size_t n, detail::powertcp_recip_cache* cache) noexcept {
    const T pmax = powertcp_max_power<T>();
    if (cache != nullptr) cache->set_tau(tau);  // find's tau test, once per ACK
    // Fixed point keeps the largest power's raw integer, -1 before the first valid hop: every
    // hop's power is in [0, pmax] (its clamp), so p > best (or no best yet) is p.raw() > that.
    constexpr bool raw = requires(T x) {
      x.raw();
      T::from_raw(std::int64_t{});
    };
    power_sample<T> best;
    std::int64_t best_raw = -1;
    for (std::size_t i = 0; i < n; ++i) {
      hop_delta d;
      const int k = hop_step(e, i, n, d);  // lines 7 and 11
      if (k < 0) return {};                // a path change: no sample
      if (k == 0) continue;                // no power from this hop
      const bit_rate b = d.b;
      if (b <= bit_rate::zero()) continue;  // e = b^2 tau = 0: cannot normalise this hop
      // lines 12-19: lambda = dq/dt + dtx/dt (>= 0, file comment), v = qlen + b*tau,
      // Gamma' / e = lambda * v / (b^2 tau) = (lambda / b) * (v / (b tau))
      const detail::powertcp_rate_recip* rr = cache != nullptr ? cache->find_rate(b) : nullptr;
      const T p = rr != nullptr
                      ? detail::powertcp_hop_power_fast<T>(d.dbytes, d.dt, d.qlen, *rr, tau, pmax)
                      : detail::powertcp_hop_power<T>(d.dbytes, d.dt, d.qlen, b, tau, pmax);
      if constexpr (raw) {  // lines 20-21
        if (p.raw() > best_raw) {
          best_raw = p.raw();
          best.dt = d.dt;
        }
      } else {
        if (!best.valid || p > best.power) best = {true, p, d.dt};
      }
    }
    if constexpr (raw) {
      if (best_raw >= 0) {
        best.valid = true;
        best.power = T::from_raw(best_raw);
      }
    }
    return best;
  }

  std::array<record, max_hops> rec_{};
  std::uint8_t count_ = no_history;
};

namespace detail {

/// theta-PowerTCP's normalised power in the operator form, Algorithm 2 lines 12-13 (Eq. 8):
/// thetadot + 1 = (RTT - prevRTT) / dt + 1 and RTT / tau, each clamped to [0, 2^30], their
/// product clamped to [0, 2^30]. For dt > 0 and tau_div's divisor tau in [1, 2^63). The
/// reference of theta_powertcp_power (tests/control/theta_powertcp_test.cpp holds the two
/// equal bit for bit).
template <Number T>
[[nodiscard]] constexpr T theta_powertcp_power_ops(std::int64_t rtt, std::int64_t prev_rtt,
                                                   std::int64_t dt,
                                                   const invariant_divisor& tau_div) noexcept {
  const T zero = num<T>(0), one = num<T>(1), pmax = powertcp_max_power<T>();
  const T current =
      clamp_num(powertcp_ratio<T>(sat_sub(rtt, prev_rtt), dt) + one, zero, pmax);  // line 12
  const T voltage = clamp_num(ratio_by<T>(rtt, tau_div), zero, pmax);              // RTT / tau
  return clamp_num(mul_nonneg(current, voltage), zero, pmax);                      // line 13
}

/// theta-PowerTCP's smoothing step in the operator form, Algorithm 2 line 14 (Algorithm 1 line
/// 23): Gamma_smooth + w (Gamma_norm - Gamma_smooth) with the weight w = min(dt, tau) / tau
/// (netcc::time_weight). For dt > 0 and tau_div's divisor tau in [1, 2^63). The reference of
/// theta_powertcp_smooth.
template <Number T>
[[nodiscard]] constexpr T theta_powertcp_smooth_ops(T smooth, T power, std::int64_t dt,
                                                    const invariant_divisor& tau_div) noexcept {
  const T w =
      static_cast<std::uint64_t>(dt) >= tau_div.divisor() ? num<T>(1) : ratio_by<T>(dt, tau_div);
  return smooth + w * (power - smooth);
}

// The operator forms out of line, for the fast forms' inputs outside their ranges: kept out of
// the per-ACK path's code so that it stays small enough for g++ to inline.
template <Number T>
[[nodiscard, gnu::noinline, gnu::cold]] constexpr T theta_powertcp_power_slow(
    std::int64_t rtt, std::int64_t prev_rtt, std::int64_t dt,
    const invariant_divisor& tau_div) noexcept {
  return theta_powertcp_power_ops<T>(rtt, prev_rtt, dt, tau_div);
}
template <Number T>
[[nodiscard, gnu::noinline, gnu::cold]] constexpr T theta_powertcp_smooth_slow(
    T smooth, T power, std::int64_t dt, const invariant_divisor& tau_div) noexcept {
  return theta_powertcp_smooth_ops<T>(smooth, power, dt, tau_div);
}

/// theta_powertcp_power_ops's value bit for bit (Algorithm 2 lines 12-13), in q32 on the raw
/// integers for RTT and prevRTT in [0, 2^30) ns (1.07 s), without the operators' overflow tests
/// and clamps that cannot act there. Ranges (F = 32 fraction bits, pmax = 2^30 = 2^62 raw):
/// - |RTT - prevRTT| < 2^30, so the gradient's dividend |drtt| 2^32 + dt / 2 < 2^62 + 2^62 fits
///   one unsigned 64-bit division (powertcp_ratio's), its quotient q <= |drtt| 2^32 <=
///   2^62 - 2^32, so q + 2^32 lies in (-2^62, 2^62]: operator+ does not saturate and of the
///   clamp to [0, 2^62] only the bound 0 can act (one select).
/// - RTT / tau: RTT 2^32 < 2^62 and tau / 2 < 2^62, so ratio_by's 64-bit reciprocal path
///   applies (invariant_divisor::div_floor64); its quotient is at most RTT 2^32 < 2^62, so
///   neither ratio_by's saturation nor the clamp to [0, 2^62] acts.
/// - the product of two values in [0, 2^62] is below 2^124 in 128 bits; rounded (ties up, as
///   mul_nonneg) and limited to 2^62, which also covers mul_nonneg's saturation at 2^63 - 1.
/// Other inputs and number types: the operator form (in q32, out of line). Always inlined: the
/// per-ACK step of basic_powertcp<q32, rtt_power> and netcc::theta_powertcp_compact.
/// Preconditions: dt > 0; tau_div's divisor in [1, 2^63).
template <Number T>
[[nodiscard, gnu::always_inline]] constexpr T theta_powertcp_power(
    std::int64_t rtt, std::int64_t prev_rtt, std::int64_t dt,
    const invariant_divisor& tau_div) noexcept {
  if constexpr (std::is_same_v<T, fixed_point<31, 32>>) {
    constexpr std::uint64_t rtt_lim = std::uint64_t{1} << 30;
    if ((static_cast<std::uint64_t>(rtt) | static_cast<std::uint64_t>(prev_rtt)) < rtt_lim) {
      constexpr std::int64_t one = std::int64_t{1} << 32, pmax = std::int64_t{1} << 62;
      const std::int64_t drtt = rtt - prev_rtt;  // |drtt| < 2^30
      const std::uint64_t mag = drtt < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(drtt)
                                         : static_cast<std::uint64_t>(drtt);
      const auto ud = static_cast<std::uint64_t>(dt);
      const auto q = static_cast<std::int64_t>(((mag << 32) + ud / 2) / ud);  // <= mag 2^32
      const std::int64_t c = (drtt < 0 ? -q : q) + one;                       // thetadot + 1
      const std::int64_t current = c < 0 ? 0 : c;      // c <= 2^62 - 2^32 + 2^32 = pmax
      const auto voltage = static_cast<std::int64_t>(  // RTT / tau, below 2^62
          tau_div.div_floor64((static_cast<std::uint64_t>(rtt) << 32) + tau_div.divisor() / 2));
      // Both factors in [0, 2^62]: their signed 64 x 64 -> 128-bit product is the unsigned one.
      const i128 p = (i128{current} * voltage + (i128{1} << 31)) >> 32;
      return raw_in_range<T>(p > pmax ? pmax : static_cast<std::int64_t>(p));
    }
    return theta_powertcp_power_slow<T>(rtt, prev_rtt, dt, tau_div);
  } else {
    return theta_powertcp_power_ops<T>(rtt, prev_rtt, dt, tau_div);
  }
}

/// theta_powertcp_smooth_ops's value bit for bit (Algorithm 2 line 14), in q32 on the raw
/// integers for Gamma_smooth and Gamma_norm non-negative and min(dt, tau) < 2^31 ns: the weight
/// w = round(min(dt, tau) 2^32 / tau) (ratio_by's 64-bit reciprocal path; exactly 2^32, the
/// operator form's 1, at dt >= tau) in [0, 2^32], then s + round(w (p - s) / 2^32) in 128 bits
/// without a branch. Ranges: s, p in [0, 2^63) so d = p - s fits 64 bits (operator- does not
/// saturate); |w d| <= 2^32 |d| < 2^95; operator*'s rounding, ties away from zero, is
/// floor((w d + 2^31 - [d < 0]) / 2^32) (for w d < 0: -floor((-w d + 2^31) / 2^32) =
/// floor((w d + 2^31 - 1) / 2^32); w = 0 gives 0 either way, so d's sign stands for w d's), an
/// arithmetic shift; its magnitude is at most |d| (w <= 1), so neither operator*'s saturation
/// nor operator+'s acts and s + round(w d) lies between s and p. Other inputs and number types:
/// the operator form (in q32, out of line). Always inlined, as theta_powertcp_power.
/// Preconditions: dt > 0; tau_div's divisor in [1, 2^63).
template <Number T>
[[nodiscard, gnu::always_inline]] constexpr T theta_powertcp_smooth(
    T smooth, T power, std::int64_t dt, const invariant_divisor& tau_div) noexcept {
  if constexpr (std::is_same_v<T, fixed_point<31, 32>>) {
    const std::uint64_t tau = tau_div.divisor();
    const auto udt = static_cast<std::uint64_t>(dt);
    const std::uint64_t m = udt < tau ? udt : tau;  // min(dt, tau)
    const std::int64_t s = smooth.raw(), p = power.raw();
    if ((s | p) >= 0 && m < (std::uint64_t{1} << 31)) {
      const auto w = static_cast<std::int64_t>(tau_div.div_floor64((m << 32) + tau / 2));
      const std::int64_t d = p - s;
      const std::uint64_t half =
          (std::uint64_t{1} << 31) - (static_cast<std::uint64_t>(d) >> 63);     // 2^31 - [d < 0]
      const auto x = static_cast<i128>(static_cast<u128>(i128{w} * d) + half);  // no overflow
      return raw_in_range<T>(s + static_cast<std::int64_t>(x >> 32));
    }
    return theta_powertcp_smooth_slow<T>(smooth, power, dt, tau_div);
  } else {
    return theta_powertcp_smooth_ops<T>(smooth, power, dt, tau_div);
  }
}

}  // namespace detail

/// @brief theta-PowerTCP's RTT signal (Eq. 8, Algorithm 2 NORMPOWER, lines 10-13):
/// Gamma_norm = (dRTT/dt + 1) * RTT / tau, from consecutive RTT samples.
/// @code
/// netcc::theta_powertcp cc{{.base_rtt = netcc::duration{20'000}}};
/// cc.on_ack(netcc::rtt_event{.now = netcc::timestamp{5000}, .rtt = netcc::duration{21'000}});
/// @endcode
class rtt_power {
 public:
  /// @brief Validation prefix of the parameters: "theta_powertcp".
  using params_tag = powertcp_rtt_tag;
  /// @brief Algorithm 2 lines 17-22: the window changes once per RTT.
  static constexpr bool once_per_rtt = true;
  /// @brief Events this signal reads: cumulative ACKs (for GETCWND and the per-RTT gate) with an
  /// RTT sample.
  template <class E>
  static constexpr bool accepts = AckFeedback<E>&& RttFeedback<E>;

  /// @brief NORMPOWER(ack): dt = t_c - t_c^prev (line 11), thetadot = (RTT - prevRTT)/dt
  /// (line 12), Gamma_norm = (thetadot + 1) * RTT / tau (line 13); remembers RTT and t_c
  /// (lines 7-8). A zero or negative RTT (no sample) is ignored.
  template <Number T, class E>
  requires accepts<E>
  constexpr power_sample<T> sample(const E& e, duration tau) noexcept {
    return sample_impl<T>(e, tau, nullptr);
  }
  /// @brief As sample(e, tau), with tau's reciprocal `tau_div` (holding tau >= 1): RTT / tau
  /// through netcc::ratio_by, the same value as netcc::ratio; in q32, lines 12-13 on the raw
  /// integers for RTTs below 2^30 ns (the same values bit for bit).
  template <Number T, class E>
  requires accepts<E>
  constexpr power_sample<T> sample(const E& e, duration tau,
                                   const detail::invariant_divisor& tau_div) noexcept {
    return sample_impl<T>(e, tau, &tau_div);
  }

 private:
  template <Number T, class E>
  constexpr power_sample<T> sample_impl(const E& e, duration tau,
                                        const detail::invariant_divisor* tau_div) noexcept {
    using ft = feedback_traits<E>;
    const duration rtt = ft::rtt(e);
    const timestamp now = ft::now(e);
    if (rtt <= duration::zero()) return {};
    if (!have_prev_) {  // first sample: nothing to difference against
      remember(rtt, now);
      return {};
    }
    const duration dt = now - prev_t_;  // line 11 (saturating: no negation of INT64_MIN)
    if (dt <= duration::zero()) {
      if (dt < duration::zero()) remember(rtt, now);  // reordered: resync
      return {};                                      // dt == 0: keep the earlier sample
    }
    if (tau_div != nullptr) {  // lines 12-13 through tau's reciprocal (fixed point)
      const T power =
          detail::theta_powertcp_power<T>(rtt.count(), prev_rtt_.count(), dt.count(), *tau_div);
      remember(rtt, now);
      return {true, power, dt};
    }
    const T zero = num<T>(0), one = num<T>(1), pmax = powertcp_max_power<T>();
    const std::int64_t drtt = detail::sat_sub(rtt.count(), prev_rtt_.count());
    const T current =
        clamp_num(detail::powertcp_ratio<T>(drtt, dt.count()) + one, zero, pmax);  // thetadot + 1
    const T voltage = clamp_num(ratio<T>(rtt.count(), tau.count()), zero, pmax);   // RTT / tau
    remember(rtt, now);
    return {true, clamp_num(mul_nonneg(current, voltage), zero, pmax), dt};  // line 13
  }

  constexpr void remember(duration rtt, timestamp now) noexcept {
    prev_rtt_ = rtt;
    prev_t_ = now;
    have_prev_ = true;
  }
  duration prev_rtt_{};
  timestamp prev_t_{};
  bool have_prev_ = false;
};

/// @brief Which rule the latest ACK ran (basic_powertcp::last_branch): the decision record the
/// double and q32 policies are checked to agree on (tests/control/powertcp_test.cpp,
/// theta_powertcp_test.cpp). One byte next to the flags.
/// @code
/// if (cc.last_branch() == netcc::powertcp_branch::update_capped) { /* HostBw * tau bound */ }
/// @endcode
enum class powertcp_branch : std::uint8_t {
  none,           ///< no ACK yet
  hold,           ///< no window update on this ACK (no power yet, or not the end of a round)
  update,         ///< UPDATEWINDOW with the multiplicative term cwnd_old / normPower
  update_capped,  ///< UPDATEWINDOW with that term capped at HostBw * tau (Property 1)
};

/// @brief The PowerTCP control law (Eq. 7, Algorithm 1 / Algorithm 2) over a power signal.
///
/// Per ACK (`on_ack`): GETCWND (line 3), NORMPOWER through `Signal` (line 4), the smoothing of
/// line 23, UPDATEWINDOW (line 5/27; once per RTT for theta-PowerTCP, Alg. 2 line 17), pacing
/// rate = cwnd/tau (line 6), UPDATEOLD once per RTT (line 7). No allocation, no clock reads;
/// cwnd() and pacing_rate() are finite and within [min, max] after any event sequence.
///
/// @tparam Policy arithmetic policy (netcc::arith::ieee_double, netcc::arith::q32, ...)
/// @tparam Signal netcc::int_power<Stack> (PowerTCP) or netcc::rtt_power (theta-PowerTCP)
/// @code
/// using namespace netcc::literals;
/// netcc::theta_powertcp cc{{.host_rate = 100_Gbps, .base_rtt = 20_us,
///                          .tau_source = netcc::powertcp_tau::min_rtt}};
/// cc.on_ack(netcc::rtt_event{.now = netcc::timestamp{30'000}, .rtt = 21_us,
///                            .ack_seq = 1000, .snd_nxt = 250'000});
/// auto w = cc.cwnd();   // cwnd_init = 250000 B until the first update
/// @endcode
template <ArithmeticPolicy Policy = arith::ieee_double, class Signal = int_power<>>
class basic_powertcp {
 public:
  /// @brief The number type of the law.
  using value_type = typename Policy::value_type;
  /// @brief The signal policy.
  using signal_type = Signal;
  /// @brief The parameter struct (netcc::powertcp_params or netcc::theta_powertcp_params).
  using params_type = basic_powertcp_params<typename Signal::params_tag>;

  /// @brief A controller with parameters `p` (unchecked: invalid fields fall back as the file
  /// says; netcc::make reports them instead).
  constexpr explicit basic_powertcp(const params_type& p = {}) noexcept { configure(p); }

  /// @brief Events consumed (netcc::controller_traits): ACKs only.
  static constexpr event_set events = cc_event::ack;

  /// @brief NEWACK(ack): Algorithm 1 lines 2-7, for PowerTCP over INT: the ACK's INT stack must
  /// have the clock and counter traits of the signal's stack (netcc::IntFeedbackFor; a missing
  /// accessor or another clock width is named in the compiler's note).
  /// Always inlined, as new_ack (see there).
  template <class E>
  requires(detail::powertcp_int_signal<Signal>&&
               IntFeedbackFor<E, typename detail::powertcp_stack<Signal>::type>)
      [[gnu::always_inline]] constexpr void on_ack(const E& e) noexcept {
    new_ack(e);
  }
  /// @brief NEWACK(ack): Algorithm 2 lines 2-9, for theta-PowerTCP: a cumulative ACK with an
  /// RTT sample (netcc::AckFeedback and netcc::RttFeedback).
  /// In fixed point its per-ACK steps are always inlined into the caller and the once-per-RTT
  /// window update is not (theta_ack).
  template <class E>
  requires(!detail::powertcp_int_signal<Signal> && AckFeedback<E> && RttFeedback<E>)
      [[gnu::always_inline]] constexpr void on_ack(const E& e) noexcept {
    if constexpr (fixed) {
      theta_ack(e);
    } else {
      new_ack(e);
    }
  }

  /// @brief The congestion window in whole bytes (rounded down), within [min_cwnd, max_cwnd].
  [[nodiscard]] constexpr bytes cwnd() const noexcept {
    return bytes{static_cast<std::int64_t>(to_double(cwnd_))};
  }
  /// @brief Pacing rate: host_rate in the first RTT (if configured), then cwnd / tau (line 6);
  /// within [min_rate, max_rate], and at least netcc::min_pacing_rate (1 bps) even when
  /// min_rate is 0: the window (>= min_cwnd >= 1 B) is always open, and cwnd / tau rounded
  /// toward zero reads 0 bps ("never send") for a small window over a tau of hours.
  [[nodiscard]] constexpr bit_rate pacing_rate() const noexcept {
    bit_rate r = (flags_ & first_rtt) && (flags_ & line_rate) ? params_.host_rate : cwnd() / tau_;
    if (r < params_.min_rate) r = params_.min_rate;
    if (r < min_pacing_rate) r = min_pacing_rate;
    if (r > max_rate_) r = max_rate_;
    return r;
  }
  /// @brief The window as the law computes it (unrounded).
  [[nodiscard]] constexpr value_type window() const noexcept { return cwnd_; }
  /// @brief The smoothed normalised power Gamma_smooth (0 before the first sample).
  [[nodiscard]] constexpr value_type norm_power() const noexcept { return smooth_; }
  /// @brief True until the first window update (the first RTT of line-rate sending).
  [[nodiscard]] constexpr bool in_first_rtt() const noexcept { return (flags_ & first_rtt) != 0; }
  /// @brief The rule the latest ACK ran.
  [[nodiscard]] constexpr powertcp_branch last_branch() const noexcept { return branch_; }
  /// @brief The tau in force (configured, or the minimum RTT seen).
  [[nodiscard]] constexpr duration tau() const noexcept { return tau_; }
  /// @brief beta in force, in bytes (derived from tau unless configured).
  [[nodiscard]] constexpr value_type beta() const noexcept { return beta_; }
  /// @brief The signal policy's state.
  [[nodiscard]] constexpr const Signal& signal() const noexcept { return signal_; }
  /// @brief The parameters in force (after invalid fields fell back; beta, cwnd_init and
  /// max_rate as configured, 0 if derived).
  [[nodiscard]] constexpr params_type params() const noexcept { return params_; }

 private:
  enum : std::uint8_t {
    have_power = 1,    // Gamma_smooth holds a sample
    armed = 2,         // marker_ holds a snd_nxt
    first_rtt = 4,     // no window update yet
    line_rate = 8,     // pace at host_rate in the first RTT
    min_rtt_tau = 16,  // tau tracks the minimum RTT
    have_rtt = 32,     // an RTT sample set tau
    beta_auto = 64,    // beta = host_rate * tau / N
  };

  // NEWACK(ack), shared by both signals (see the two on_ack overloads). Always inlined into
  // on_ack's caller: where a translation unit calls on_ack from two places (bench/powertcp.cpp
  // with its two ACK rings), g++ kept it out of line, a call per ACK with the state saved and
  // reloaded around it (169 -> 189 instructions per ACK in double at 1 hop, 300 -> 324 in q32).
  template <class E>
  [[gnu::always_inline]] constexpr void new_ack(const E& e) noexcept {
    using ft = feedback_traits<E>;
    const sequence ack = ft::ack_seq(e);
    const sequence nxt = ft::snd_nxt(e);
    if constexpr (RttFeedback<E>) track_tau(ft::rtt(e));
    const sequence last_acked = ack - 1;  // the acknowledged data ends here (file comment)
    // Data sent before the first ACK went out under cwnd_init.
    if (hist_.size() == 0) hist_.remember(last_acked, cwnd_);
    // line 3, GETCWND: PowerTCP reads it on every ACK; theta-PowerTCP only when its window
    // changes, once per RTT, below (the history changes only after that, so it is the same).
    value_type cwnd_old{};
    if constexpr (!Signal::once_per_rtt) cwnd_old = hist_.window_at(last_acked, cwnd_);
    power_sample<value_type> s;
    if constexpr (fixed && detail::powertcp_int_signal<Signal>) {
      s = signal_.template sample<value_type>(e, tau_, recip_);  // line 4
    } else if constexpr (fixed) {
      s = signal_.template sample<value_type>(e, tau_, tau_div_);  // line 4
    } else {
      s = signal_.template sample<value_type>(e, tau_);  // line 4
    }
    if (s.valid) {
      if (flags_ & have_power) {  // line 23: smoothing over tau, weight min(dt, tau)/tau
        if constexpr (fixed) {    // a sample's dt > 0 and tau >= 1: theta_powertcp_smooth's
          smooth_ = detail::theta_powertcp_smooth(smooth_, s.power, s.dt.count(), tau_div_);
        } else {
          smooth_ = smooth_ + tau_weight(s.dt) * (s.power - smooth_);
        }
      } else {
        smooth_ = s.power;
        flags_ |= have_power;
      }
    }
    const bool round = !(flags_ & armed) || marker_.reached(ack);
    bool updated = false;
    branch_ = powertcp_branch::hold;
    if ((flags_ & have_power) && (Signal::once_per_rtt ? round : s.valid)) {
      if constexpr (Signal::once_per_rtt) cwnd_old = hist_.window_at(last_acked, cwnd_);
      cwnd_ = update_window(cwnd_old);  // line 5 (Alg. 2 lines 17-20)
      flags_ &= static_cast<std::uint8_t>(~first_rtt);
      updated = true;
    }
    if (round && (updated || !Signal::once_per_rtt)) {  // line 7 / Alg. 2 lines 9, 22
      hist_.remember(nxt, cwnd_);                       // UPDATEOLD: cwnd from snd_nxt on
      marker_.arm(nxt);
      flags_ |= armed;
    }
  }

  // NEWACK(ack) for theta-PowerTCP in fixed point: new_ack's steps in new_ack's order, with
  // the window update of the end of a round (Algorithm 2 lines 17-22, theta_round) and the
  // minimum-RTT tau (track_tau_out) out of line, so that what runs on every ACK (GETCWND's
  // first record, NORMPOWER, the smoothing of line 14, the round test) is inlined into the
  // caller: g++ left the whole of new_ack out of line in bench/powertcp.cpp, a call per ACK.
  // The same state after every event (ThetaPowerTcp.Q32ObjectIsTheOperatorForm).
  template <class E>
  [[gnu::always_inline]] constexpr void theta_ack(const E& e) noexcept {
    using ft = feedback_traits<E>;
    const sequence ack = ft::ack_seq(e);
    if (flags_ & min_rtt_tau) track_tau_out(ft::rtt(e));
    const sequence last_acked = ack - 1;  // the acknowledged data ends here (file comment)
    if (hist_.size() == 0) hist_.remember(last_acked, cwnd_);  // sent under cwnd_init
    const power_sample<value_type> s = signal_.template sample<value_type>(e, tau_, tau_div_);
    if (s.valid) {  // line 14: smoothing over tau, weight min(dt, tau)/tau
      if (flags_ & have_power) {
        smooth_ = detail::theta_powertcp_smooth(smooth_, s.power, s.dt.count(), tau_div_);
      } else {
        smooth_ = s.power;
        flags_ |= have_power;
      }
    }
    const bool round = !(flags_ & armed) || marker_.reached(ack);
    branch_ = powertcp_branch::hold;
    if ((flags_ & have_power) && round) theta_round(last_acked, ft::snd_nxt(e));
  }

  // Algorithm 2 lines 17-22 (new_ack's update and UPDATEOLD for a once-per-RTT signal):
  // GETCWND(ack.seq - 1) (line 3), UPDATEWINDOW, then cwnd from snd_nxt on and the next round's
  // mark.
  [[gnu::noinline]] constexpr void theta_round(sequence last_acked, sequence nxt) noexcept {
    cwnd_ = update_window(hist_.window_at(last_acked, cwnd_));
    flags_ &= static_cast<std::uint8_t>(~first_rtt);
    hist_.remember(nxt, cwnd_);
    marker_.arm(nxt);
    flags_ |= armed;
  }

  // track_tau, out of line (theta_ack).
  [[gnu::noinline]] constexpr void track_tau_out(duration rtt) noexcept { track_tau(rtt); }

  [[nodiscard]] static constexpr value_type from_bytes(bytes b) noexcept {
    return number_traits<value_type>::from_int(b.count());
  }

  constexpr void configure(params_type p) noexcept {
    const params_type d{};
    if (!(p.gamma > 0 && p.gamma <= 1)) p.gamma = d.gamma;
    if (p.host_rate <= bit_rate::zero()) p.host_rate = d.host_rate;
    if (p.base_rtt <= duration::zero()) p.base_rtt = d.base_rtt;
    if (p.expected_flows < 1) p.expected_flows = d.expected_flows;
    if (p.beta < bytes::zero()) p.beta = d.beta;
    if (p.cwnd_init < bytes::zero()) p.cwnd_init = d.cwnd_init;
    if (p.min_cwnd < bytes{1} || p.min_cwnd > powertcp_window_limit) p.min_cwnd = d.min_cwnd;
    if (p.max_cwnd > powertcp_window_limit) p.max_cwnd = powertcp_window_limit;
    if (p.max_cwnd < p.min_cwnd) p.max_cwnd = p.min_cwnd;
    if (p.min_rate < bit_rate::zero()) p.min_rate = d.min_rate;
    if (p.max_rate < bit_rate::zero()) p.max_rate = d.max_rate;
    if (p.tau_source != powertcp_tau::min_rtt) p.tau_source = powertcp_tau::configured;
    params_ = p;

    gamma_ = num<value_type>(p.gamma);
    min_cwnd_ = from_bytes(p.min_cwnd);
    max_cwnd_ = from_bytes(p.max_cwnd);
    max_rate_ = p.max_rate > bit_rate::zero() ? p.max_rate : p.host_rate;
    if (max_rate_ < p.min_rate) max_rate_ = p.min_rate;
    flags_ = first_rtt;
    if (p.line_rate_first_rtt) flags_ |= line_rate;
    if (p.tau_source == powertcp_tau::min_rtt) flags_ |= min_rtt_tau;
    if (p.beta == bytes::zero()) {
      flags_ |= beta_auto;
    } else {
      beta_ = clamp_num(from_bytes(p.beta), num<value_type>(0), max_cwnd_);
    }
    set_tau(p.base_rtt);
    // cwnd_init = HostBw * tau (§3.3), with the configured tau.
    const bytes init = p.cwnd_init > bytes::zero() ? p.cwnd_init : p.host_rate * p.base_rtt;
    cwnd_ = clamp_num(from_bytes(init), min_cwnd_, max_cwnd_);
  }

  /// tau changed: re-derive HostBw * tau and, unless configured, beta = HostBw * tau / N.
  constexpr void set_tau(duration t) noexcept {
    tau_ = t;
    if constexpr (fixed)
      tau_div_ = detail::invariant_divisor{static_cast<std::uint64_t>(t.count())};
    const bytes host_bdp = params_.host_rate * t;
    host_bdp_ = clamp_num(from_bytes(host_bdp), num<value_type>(0), max_cwnd_);
    if (flags_ & beta_auto)
      beta_ =
          clamp_num(from_bytes(host_bdp / params_.expected_flows), num<value_type>(0), max_cwnd_);
  }

  /// §3.3: tau = the minimum RTT observed, when so configured.
  constexpr void track_tau(duration rtt) noexcept {
    if (!(flags_ & min_rtt_tau) || rtt <= duration::zero()) return;
    if ((flags_ & have_rtt) && rtt >= tau_) return;
    flags_ |= have_rtt;
    set_tau(rtt);
  }

  /// netcc::time_weight over tau (line 23): min(dt, tau) / tau, through tau's reciprocal in
  /// fixed point (netcc::ratio_by: the same value as netcc::ratio). A sample's dt is positive
  /// and tau is, so double divides directly (time_weight's value without its checks).
  [[nodiscard]] constexpr value_type tau_weight(duration dt) const noexcept {
    if (dt <= duration::zero()) return num<value_type>(0);
    if (dt >= tau_) return num<value_type>(1);
    if constexpr (std::is_same_v<value_type, double>) {
      return static_cast<double>(dt.count()) / static_cast<double>(tau_.count());
    } else {
      return ratio_by<value_type>(dt.count(), tau_div_);
    }
  }

  /// UPDATEWINDOW, Algorithm 1 line 27 / Algorithm 2 line 20:
  /// cwnd = gamma * (cwnd_old / normPower + beta) + (1 - gamma) * cwnd, with the multiplicative
  /// term cwnd_old / normPower capped at HostBw * tau (Property 1; file comment) and no division
  /// by a power below cwnd_old / (HostBw * tau).
  /// Through detail::powertcp_update_window (in q32 on the raw integers: the same value).
  [[nodiscard]] constexpr value_type update_window(value_type cwnd_old) noexcept {
    bool uncapped = false;
    const value_type w = detail::powertcp_update_window(smooth_, host_bdp_, cwnd_old, gamma_, beta_,
                                                        cwnd_, min_cwnd_, max_cwnd_, uncapped);
    branch_ = uncapped ? powertcp_branch::update : powertcp_branch::update_capped;
    return w;
  }

  // Configuration (sanitised params and the values derived from them).
  params_type params_{};
  value_type gamma_{};
  value_type min_cwnd_{};
  value_type max_cwnd_{};
  bit_rate max_rate_{};
  // Per-flow state.
  value_type beta_{};      // derived from tau unless configured
  value_type host_bdp_{};  // HostBw * tau
  value_type cwnd_{};
  value_type smooth_{};  // Gamma_smooth
  duration tau_{};
  per_rtt_marker marker_{};
  window_history<value_type, 2> hist_{};
  Signal signal_{};
  std::uint8_t flags_ = 0;
  powertcp_branch branch_ = powertcp_branch::none;
  // Reciprocals (fixed point only; nothing in double): tau's, and the INT links' rates'.
  static constexpr bool fixed = !std::is_same_v<value_type, double>;
  [[no_unique_address]] std::conditional_t<fixed, detail::invariant_divisor, detail::powertcp_none>
      tau_div_{};
  [[no_unique_address]] std::conditional_t<fixed && detail::powertcp_int_signal<Signal>,
                                           detail::powertcp_recip_cache, detail::powertcp_none>
      recip_{};
};

/// @brief PowerTCP with INT (Algorithm 1), double arithmetic, netcc's own ACK events.
using powertcp = basic_powertcp<>;
/// @brief theta-PowerTCP (Algorithm 2), double arithmetic.
using theta_powertcp = basic_powertcp<arith::ieee_double, rtt_power>;

// Size budgets, in bytes. Configuration: the params (88 B) and 32 B derived from them (gamma,
// min/max window in the policy's type, the effective max rate). Per-flow state: 104 B (window,
// smoothed power, tau, beta and HostBw*tau that follow tau, the per-RTT marker, a two-entry
// window history of 40 B, flags), plus the signal: int_power 8 B + 16 B per hop when the INT
// timestamp and counter widths fit one word (HPCC's wire format), 24 B per hop otherwise;
// rtt_power 24 B. So: INT <= 224 B + 16 or 24 B per hop, theta <= 248 B in double. Fixed point
// adds reciprocals that depend only on tau and the path's link rates (configuration-like): tau's
// (32 B) and, with INT, those of up to two link rates (168 B).
/// @brief Bytes a fixed-point PowerTCP adds for tau's reciprocal (configuration-like: it
/// depends only on tau).
inline constexpr std::size_t powertcp_fixed_recip_bytes = 32;
/// @brief Bytes a fixed-point INT PowerTCP adds for the reciprocals of up to two link rates and
/// their BDPs (configuration-like: they depend only on tau and the path's links).
inline constexpr std::size_t powertcp_int_recip_bytes = 168;
static_assert(sizeof(powertcp) <= 224 + 24 * 5, "powertcp: 224 B + 24 B per hop");
static_assert(sizeof(basic_powertcp<arith::q32>) <=
                  224 + 24 * 5 + powertcp_fixed_recip_bytes + powertcp_int_recip_bytes,
              "powertcp (q32): 224 B + 24 B/hop + reciprocals");
static_assert(
    sizeof(basic_powertcp<
           arith::q32, int_power<int_stack<5, wrapping_clock<24>, wrapping_counter<20, 128>>>>) <=
        224 + 16 * 5 + powertcp_fixed_recip_bytes + powertcp_int_recip_bytes,
    "powertcp over the HPCC wire format: 224 B + 16 B per hop + reciprocals");
static_assert(sizeof(theta_powertcp) <= 248, "theta_powertcp: 248 B");
static_assert(sizeof(basic_powertcp<arith::q32, rtt_power>) <= 248 + powertcp_fixed_recip_bytes,
              "theta_powertcp (q32): 248 B + tau's reciprocal");

/// @brief theta-PowerTCP (Algorithm 2) in q32 with a 32-byte per-flow state, for arrays of many
/// flows: the q32 controller's law (the same configuration, signal, smoothing and UPDATEWINDOW)
/// over a packed flow_state, with its two windows narrowed to whole bytes.
///
/// Layout and the range of every narrowed field:
/// - Gamma_smooth: q32 as it is (8 B): equal to basic_powertcp<arith::q32, rtt_power>'s bit for
///   bit within the ranges below.
/// - cwnd and the window UPDATEOLD recorded before it (GETCWND's older entry): 32-bit whole bytes
///   (4 B each), rounded to nearest after each UPDATEWINDOW (the law itself runs in q32). The
///   newest history entry of the q32 form always holds cwnd and starts at lastUpdateSeq, so
///   GETCWND(ack.seq - 1) is cwnd from lastUpdateSeq on and the older window before it.
///   Error: each update adds at most 0.5 B; cwnd_old / normPower carries cwnd_old's relative
///   error unchanged (normPower is exact), the cap at HostBw * tau and the clamps do not enlarge
///   it, so after k updates the window is within k * (0.5 / min_cwnd) of the q32 form's,
///   relatively (tests/control/powertcp_theta_compact_test.cpp checks k * 0.55 / min_cwnd).
///   The rule of an ACK (hold or update) is the q32 form's; update and update_capped may differ
///   where cwnd_old / normPower is within that error of HostBw * tau.
/// - lastUpdateSeq: the low 32 bits, compared modulo 2^32, plus an "armed" bit. Range: ack.seq
///   within 2^31 - 1 B of it; snd_nxt never behind the previous snd_nxt, ack.seq never behind
///   the previous ack.seq (a TCP sender's), so the history's newest entry starts at lastUpdateSeq.
/// - the previous RTT sample's time: the low 32 bits of the ns clock (dt read modulo 2^32, signed).
///   Range: consecutive RTT samples less than 2^31 ns (2.1 s) apart.
/// - the previous RTT: 32-bit ns, saturating (range: RTTs below 2^32 ns, 4.29 s).
/// - tau from the minimum RTT (powertcp_tau::min_rtt): 24-bit ns, saturating (range: RTT samples
///   below 2^24 ns, 16.7 ms); the configured tau lives in the config.
/// - five flags and the latest rule (2 bits) share tau's word.
///
/// Outside those ranges the window stays within [min_cwnd, max_cwnd] and the rate within its
/// limits, as for any PowerTCP instantiation.
/// @code
/// const netcc::theta_powertcp_compact::config cfg{{.base_rtt = netcc::duration{20'000}}};
/// std::vector<netcc::theta_powertcp_compact::flow_state> flows(1000, cfg.initial_state());
/// cfg.on_ack(flows[9], netcc::rtt_event{.now = netcc::timestamp{5000},
///                                       .rtt = netcc::duration{21'000}});
/// netcc::bytes w = cfg.cwnd(flows[9]);
/// @endcode
class theta_powertcp_compact {
 public:
  /// @brief The q32 controller this form narrows.
  using wide_type = basic_powertcp<arith::q32, rtt_power>;
  /// @brief The number type of the law (q32).
  using value_type = wide_type::value_type;
  /// @brief The parameter struct.
  using params_type = theta_powertcp_params;
  /// @brief Events consumed: ACKs with an RTT sample.
  static constexpr event_set events = cc_event::ack;
  /// @brief The largest tau kept per flow (2^24 - 1 ns).
  static constexpr std::int64_t tau_limit = (std::int64_t{1} << 24) - 1;

 private:
  using f_tau = detail::bit_field<0, 24>;
  using f_have_power = detail::bit_field<24, 1>;
  using f_armed = detail::bit_field<25, 1>;
  using f_first_rtt = detail::bit_field<26, 1>;
  using f_have_rtt = detail::bit_field<27, 1>;
  using f_have_prev = detail::bit_field<28, 1>;
  using f_branch = detail::bit_field<29, 2>;

 public:
  /// @brief One flow's packed state (32 B, trivially copyable); see the class comment for the
  /// range of each field. Read and change it through config.
  struct flow_state {
    value_type smooth{};         ///< Gamma_smooth (q32)
    std::uint32_t cwnd = 0;      ///< cwnd, whole bytes
    std::uint32_t w_old = 0;     ///< the window UPDATEOLD recorded before cwnd, whole bytes
    std::uint32_t mark = 0;      ///< lastUpdateSeq, low 32 bits
    std::uint32_t prev_t = 0;    ///< time of the previous RTT sample, low 32 bits of ns
    std::uint32_t prev_rtt = 0;  ///< the previous RTT sample, ns, saturating
    std::uint32_t bits = 0;      ///< tau (bits 0-23, ns), flags (24-28), latest rule (29-30)
  };
  static_assert(std::is_trivially_copyable_v<flow_state>);

  /// @brief What a class of flows shares: the sanitised parameters and every derived constant,
  /// with Algorithm 2 as members taking one flow's state.
  class config {
   public:
    /// @brief The configuration for parameters `p` (invalid fields fall back as
    /// basic_powertcp's; netcc::validate reports them).
    constexpr explicit config(const params_type& p = {}) noexcept {
      const wide_type w{p};
      p_ = w.params();
      gamma_ = num<value_type>(p_.gamma);
      min_cwnd_ = from_bytes(p_.min_cwnd);
      max_cwnd_ = from_bytes(p_.max_cwnd);
      max_rate_ = p_.max_rate > bit_rate::zero() ? p_.max_rate : p_.host_rate;
      if (max_rate_ < p_.min_rate) max_rate_ = p_.min_rate;
      beta_auto_ = p_.beta == bytes::zero();
      if (!beta_auto_) beta_fixed_ = clamp_num(from_bytes(p_.beta), num<value_type>(0), max_cwnd_);
      base_ = derive(p_.base_rtt);
      init_ = static_cast<std::uint32_t>(w.window().raw() >> value_type::fraction_bits);
    }

    /// @brief A new flow's state: cwnd = cwnd_init, first RTT, no sample.
    [[nodiscard]] constexpr flow_state initial_state() const noexcept {
      flow_state st{};
      st.cwnd = init_;
      st.w_old = init_;
      f_first_rtt::set(st.bits, 1U);
      return st;
    }
    /// @brief Reset `st` to a new flow's state.
    constexpr void init(flow_state& st) const noexcept { st = initial_state(); }

    /// @brief NEWACK(ack), Algorithm 2 lines 2-22 (basic_powertcp::on_ack) on `st`.
    /// Its per-ACK steps are always inlined into the caller, the window update at the end of a
    /// round is not.
    template <class E>
    requires(AckFeedback<E>&& RttFeedback<E>)
        [[gnu::always_inline]] constexpr void on_ack(flow_state& st, const E& e) const noexcept {
      const duration rtt = feedback_traits<E>::rtt(e);
      std::uint32_t bits = st.bits;
      // §3.3: tau = the minimum RTT observed, when so configured.
      if (p_.tau_source == powertcp_tau::min_rtt && rtt > duration::zero()) {
        const std::uint32_t r24 =
            static_cast<std::uint32_t>(rtt.count() < tau_limit ? rtt.count() : tau_limit);
        if (f_have_rtt::get(bits) == 0 || r24 < f_tau::get(bits)) {
          f_tau::set(bits, r24);
          f_have_rtt::set(bits, 1U);
        }
      }
      // The configured tau's terms are read in place; a tracked tau derives its own (its
      // reciprocal in ack_steps_tracked, the rest where the window changes: round_update).
      if (f_have_rtt::get(bits) != 0) {
        ack_steps_tracked(st, e, bits);
      } else {
        ack_steps(st, e, bits, base_.tau_div);
      }
    }

    /// @brief The window in force (whole bytes, as a q32 value).
    [[nodiscard]] constexpr value_type window(const flow_state& st) const noexcept {
      return from_u32(st.cwnd);
    }
    /// @brief The congestion window in bytes.
    [[nodiscard]] constexpr bytes cwnd(const flow_state& st) const noexcept {
      return bytes{st.cwnd};
    }
    /// @brief Pacing rate: host_rate in the first RTT (if configured), then cwnd / tau (line 6),
    /// within [min_rate, max_rate] and at least 1 bps.
    [[nodiscard]] constexpr bit_rate pacing_rate(const flow_state& st) const noexcept {
      bit_rate r = f_first_rtt::get(st.bits) != 0 && p_.line_rate_first_rtt ? p_.host_rate
                                                                            : cwnd(st) / tau(st);
      if (r < p_.min_rate) r = p_.min_rate;
      if (r < min_pacing_rate) r = min_pacing_rate;
      if (r > max_rate_) r = max_rate_;
      return r;
    }
    /// @brief Gamma_smooth (0 before the first sample).
    [[nodiscard]] constexpr value_type norm_power(const flow_state& st) const noexcept {
      return st.smooth;
    }
    /// @brief True until the first window update.
    [[nodiscard]] constexpr bool in_first_rtt(const flow_state& st) const noexcept {
      return f_first_rtt::get(st.bits) != 0;
    }
    /// @brief The rule the latest ACK ran.
    [[nodiscard]] constexpr powertcp_branch last_branch(const flow_state& st) const noexcept {
      return static_cast<powertcp_branch>(f_branch::get(st.bits));
    }
    /// @brief The tau in force.
    [[nodiscard]] constexpr duration tau(const flow_state& st) const noexcept {
      return f_have_rtt::get(st.bits) != 0 ? duration{f_tau::get(st.bits)} : base_.tau;
    }
    /// @brief The parameters in force (after invalid fields fell back).
    [[nodiscard]] constexpr const params_type& params() const noexcept { return p_; }

   private:
    struct derived {
      duration tau{};
      detail::invariant_divisor tau_div{};
      value_type host_bdp{};
      value_type beta{};
    };
    [[nodiscard]] static constexpr value_type from_bytes(bytes b) noexcept {
      return number_traits<value_type>::from_int(b.count());
    }
    [[nodiscard]] static constexpr value_type from_u32(std::uint32_t b) noexcept {
      return value_type::from_raw(static_cast<std::int64_t>(b) << value_type::fraction_bits);
    }
    /// A q32 window in [min_cwnd, max_cwnd] (below 2^31 B) to whole bytes, rounded to nearest.
    [[nodiscard]] static constexpr std::uint32_t round_bytes(value_type w) noexcept {
      const std::int64_t half = std::int64_t{1} << (value_type::fraction_bits - 1);
      return static_cast<std::uint32_t>((w.raw() + half) >> value_type::fraction_bits);
    }
    /// basic_powertcp::set_tau: tau's reciprocal, HostBw * tau and, unless configured, beta.
    [[nodiscard]] constexpr derived derive(duration t) const noexcept {
      derived d;
      d.tau = t;
      d.tau_div = detail::invariant_divisor{static_cast<std::uint64_t>(t.count())};
      const bytes host_bdp = p_.host_rate * t;
      d.host_bdp = clamp_num(from_bytes(host_bdp), num<value_type>(0), max_cwnd_);
      d.beta = beta_auto_ ? clamp_num(from_bytes(host_bdp / p_.expected_flows), num<value_type>(0),
                                      max_cwnd_)
                          : beta_fixed_;
      return d;
    }

    // on_ack's steps after the minimum-RTT tau, with tau's reciprocal `tau_div`: NORMPOWER
    // (Algorithm 2 lines 10-13), the smoothing (line 14), the round test and, at the end of a
    // round, round_update; then the flow's bits. Always inlined into on_ack.
    template <class E>
    [[gnu::always_inline]] constexpr void ack_steps(
        flow_state& st, const E& e, std::uint32_t bits,
        const detail::invariant_divisor& tau_div) const noexcept {
      using ft = feedback_traits<E>;
      const sequence ack = ft::ack_seq(e);
      const sequence nxt = ft::snd_nxt(e);
      const duration rtt = ft::rtt(e);
      const timestamp now = ft::now(e);
      const bool armed = f_armed::get(bits) != 0;
      // NORMPOWER, Algorithm 2 lines 10-13 (rtt_power::sample).
      bool valid = false;
      value_type power{};
      duration dt{};
      if (rtt > duration::zero()) {
        const auto now32 =
            static_cast<std::uint32_t>(static_cast<std::uint64_t>(now.time_since_epoch().count()));
        const auto rtt32 =
            static_cast<std::uint32_t>(rtt.count() < 0xFFFF'FFFFLL ? rtt.count() : 0xFFFF'FFFFLL);
        if (f_have_prev::get(bits) == 0) {
          st.prev_t = now32;
          st.prev_rtt = rtt32;
          f_have_prev::set(bits, 1U);
        } else {
          dt = duration{modular<32>::diff(now32, st.prev_t)};
          if (dt > duration::zero()) {  // lines 12-13 (rtt_power's steps)
            power = detail::theta_powertcp_power<value_type>(rtt.count(), std::int64_t{st.prev_rtt},
                                                             dt.count(), tau_div);
            valid = true;
          }
          if (dt != duration::zero()) {  // a new sample, or a reordered one: remember it
            st.prev_t = now32;
            st.prev_rtt = rtt32;
          }
        }
      }
      if (valid) {  // line 13 smoothing over tau, weight min(dt, tau)/tau
        if (f_have_power::get(bits) != 0) {
          st.smooth = detail::theta_powertcp_smooth(st.smooth, power, dt.count(), tau_div);
        } else {
          st.smooth = power;
          f_have_power::set(bits, 1U);
        }
      }
      const bool round = !armed || modular<32>::diff(static_cast<std::uint32_t>(ack), st.mark) >= 0;
      f_branch::set(bits, static_cast<std::uint32_t>(powertcp_branch::hold));
      if (f_have_power::get(bits) != 0 && round) bits = round_update(st, bits, armed, ack, nxt);
      st.bits = bits;
    }

    // A tracked tau: its reciprocal (derive's tau_div), then ack_steps; out of line (on_ack).
    template <class E>
    [[gnu::noinline]] constexpr void ack_steps_tracked(flow_state& st, const E& e,
                                                       std::uint32_t bits) const noexcept {
      ack_steps(st, e, bits,
                detail::invariant_divisor{static_cast<std::uint64_t>(f_tau::get(bits))});
    }
    // Algorithm 2 lines 17-22 at the end of a round, out of line (ack_steps): GETCWND(ack.seq -
    // 1) (line 3: read where the window changes; nothing before it in on_ack changes the windows
    // or lastUpdateSeq), UPDATEWINDOW, UPDATEOLD; returns the flow's bits.
    [[nodiscard, gnu::noinline]] constexpr std::uint32_t round_update(flow_state& st,
                                                                      std::uint32_t bits,
                                                                      bool armed, sequence ack,
                                                                      sequence nxt) const noexcept {
      derived tracked{};
      if (f_have_rtt::get(bits) != 0) tracked = derive(duration{f_tau::get(bits)});
      const derived& d = f_have_rtt::get(bits) != 0 ? tracked : base_;
      const value_type cwnd = from_u32(st.cwnd);
      const bool newest =
          !armed || modular<32>::diff(static_cast<std::uint32_t>(ack - 1), st.mark) >= 0;
      const value_type cwnd_old = newest ? cwnd : from_u32(st.w_old);
      const value_type p = st.smooth;
      const bool uncapped = mul_nonneg(p, d.host_bdp) > cwnd_old;
      f_branch::set(bits, static_cast<std::uint32_t>(uncapped ? powertcp_branch::update
                                                              : powertcp_branch::update_capped));
      const value_type mi = uncapped ? detail::powertcp_quotient(cwnd_old, p) : d.host_bdp;
      const value_type w =
          clamp_num(mul_nonneg(gamma_, mi + d.beta) + mul_nonneg(num<value_type>(1) - gamma_, cwnd),
                    min_cwnd_, max_cwnd_);
      // UPDATEOLD: cwnd from snd_nxt on; the previous newest window becomes the older one
      // when snd_nxt moved past lastUpdateSeq (else the newest entry is overwritten).
      const auto nxt32 = static_cast<std::uint32_t>(nxt);
      if (!armed || modular<32>::diff(nxt32, st.mark) > 0) st.w_old = st.cwnd;
      st.cwnd = round_bytes(w);
      st.mark = nxt32;
      f_armed::set(bits, 1U);
      f_first_rtt::set(bits, 0U);
      return bits;
    }

    params_type p_{};
    value_type gamma_{};
    value_type min_cwnd_{};
    value_type max_cwnd_{};
    value_type beta_fixed_{};
    bit_rate max_rate_{};
    bool beta_auto_ = true;
    derived base_{};
    std::uint32_t init_ = 0;
  };

  /// @brief Bytes of per-flow state (sizeof(flow_state)).
  static constexpr std::size_t state_bytes = sizeof(flow_state);

  /// @brief A controller with parameters `p` (invalid fields fall back to their defaults).
  constexpr explicit theta_powertcp_compact(const params_type& p = {}) noexcept
      : cfg_(p), s_(cfg_.initial_state()) {}

  /// @brief NEWACK(ack) (config::on_ack on this flow).
  template <class E>
  requires(AckFeedback<E>&& RttFeedback<E>) constexpr void on_ack(const E& e) noexcept {
    cfg_.on_ack(s_, e);
  }
  /// @brief The congestion window in bytes.
  [[nodiscard]] constexpr bytes cwnd() const noexcept { return cfg_.cwnd(s_); }
  /// @brief The pacing rate.
  [[nodiscard]] constexpr bit_rate pacing_rate() const noexcept { return cfg_.pacing_rate(s_); }
  /// @brief The window in force (whole bytes, as q32).
  [[nodiscard]] constexpr value_type window() const noexcept { return cfg_.window(s_); }
  /// @brief Gamma_smooth.
  [[nodiscard]] constexpr value_type norm_power() const noexcept { return cfg_.norm_power(s_); }
  /// @brief True until the first window update.
  [[nodiscard]] constexpr bool in_first_rtt() const noexcept { return cfg_.in_first_rtt(s_); }
  /// @brief The rule the latest ACK ran.
  [[nodiscard]] constexpr powertcp_branch last_branch() const noexcept {
    return cfg_.last_branch(s_);
  }
  /// @brief The tau in force.
  [[nodiscard]] constexpr duration tau() const noexcept { return cfg_.tau(s_); }
  /// @brief The parameters in force.
  [[nodiscard]] constexpr params_type params() const noexcept { return cfg_.params(); }
  /// @brief The configuration this controller runs (shareable with other flows).
  [[nodiscard]] constexpr const config& configuration() const noexcept { return cfg_; }
  /// @brief This flow's state.
  [[nodiscard]] constexpr const flow_state& state() const noexcept { return s_; }

 private:
  config cfg_;
  flow_state s_;
};

// Per-flow state budget of the compact form: 32 B (Gamma_smooth in q32; two 32-bit windows, a
// 32-bit lastUpdateSeq, RTT clock and RTT; tau, flags and rule in one word).
static_assert(sizeof(theta_powertcp_compact::flow_state) <= 32,
              "theta_powertcp_compact: per-flow state within 32 B");
static_assert(theta_powertcp_compact::state_bytes == sizeof(theta_powertcp_compact::flow_state));

/// @brief PowerTCP with INT (Algorithm 1) in q32 with its per-flow state at wire width: 64 B at 5
/// hops on HPCC's INT format, for arrays of many flows. The q32 object's law
/// (basic_powertcp<arith::q32, int_power<Wire::stack>>: the same NORMPOWER, lines 8-22, smoothing
/// of line 23, UPDATEWINDOW of line 27 with the cap of Property 1, GETCWND and UPDATEOLD of
/// lines 3 and 7) over a packed flow_state; parameters, derived terms and the reciprocals of
/// every link rate of the wire format live in a config shared by a class of flows.
///
/// Layout and the range of every narrowed field:
/// - prevInt (Algorithm 1 line 7), each hop's previous INT record: the hop's 64-bit wire word
///   (netcc::int_wire_format: rate code, timestamp, tx counter, queue length), 8 B per hop.
///   Range: hops as the wire format decodes them (make_hop / decode_hop: a table rate, a queue in
///   whole wire units); a hand-made hop outside that image is read as the wire would carry it
///   (rate rounded down to the table, queue to whole units). A path change is a change of the
///   hop count or of a rate code. Timestamp and tx deltas wrap at the wire's widths.
/// - Gamma_smooth: q32 as it is (bits 0-62; the power is within [0, 2^30]), bit for bit the q32
///   object's; bit 63 says it holds a sample.
/// - cwnd and the two windows of GETCWND's history (the one recorded by the latest UPDATEOLD, in
///   force from lastUpdateSeq on, and the one before it): 31-bit whole bytes (max_cwnd <=
///   2^31 - 1), rounded to nearest after each UPDATEWINDOW (the law itself runs in q32); their
///   top bits hold the stored hop count (0-5; 7 before the first ACK, 0 also after a path too
///   long to hold, which the q32 signal treats the same way). Error: each update adds at most
///   0.5 B; cwnd_old / normPower carries cwnd_old's relative error (normPower is the q32
///   object's exactly), the (1 - gamma) * cwnd term carries cwnd's, and the cap at HostBw * tau
///   and the clamps do not enlarge it, so after k window updates the window is within
///   k * (0.5 / min_cwnd) of the q32 object's, relatively (tests/control/powertcp_compact_test.cpp
///   checks k * 0.55 / min_cwnd). The rule kind of every ACK (hold or update) is the q32
///   object's; update and update_capped may differ where cwnd_old / normPower is within that
///   error of HostBw * tau.
/// - lastUpdateSeq: the low 32 bits, compared modulo 2^32. Range: ack.seq within 2^31 - 1 B of
///   it; snd_nxt never behind ack.seq nor behind the previous snd_nxt (a TCP sender's), so the
///   q32 history's newest entry starts at lastUpdateSeq.
/// - the latest rule is not per-flow state: config::on_ack returns it (the object keeps it).
/// - tau: the configured base_rtt (powertcp_tau::min_rtt is read as configured: a per-flow tau
///   would need per-flow reciprocals); the reciprocals of tau and of each rate code's rate and
///   BDP are the config's (the values the q32 object's per-link cache holds).
///
/// Outside those ranges the window stays within [min_cwnd, max_cwnd] and the rate within its
/// limits. Fed the INT as wire words (Wire::word_stack), it stores each hop's word as it came,
/// with the same state as from the decoded records (Wire::stack).
/// @tparam Wire the INT wire layout (netcc::int_wire_format; HPCC's by default)
/// @code
/// const netcc::powertcp_compact::config cfg{{.host_rate = netcc::bit_rate{100'000'000'000}}};
/// std::vector<netcc::powertcp_compact::flow_state> flows(1000, cfg.initial_state());  // 64 kB
/// cfg.on_ack(flows[7], ack);  // ack: netcc::basic_ack_event<netcc::hpcc_int_format::stack>
/// netcc::bytes w = cfg.cwnd(flows[7]);
/// @endcode
template <class Wire = hpcc_int_format>
class basic_powertcp_compact {
 public:
  /// @brief The INT stack type of the events (the wire format's decoded stack).
  using stack_type = typename Wire::stack;
  /// @brief The q32 controller this form narrows.
  using wide_type = basic_powertcp<arith::q32, int_power<stack_type>>;
  /// @brief The number type of the law (q32).
  using value_type = typename wide_type::value_type;
  /// @brief The parameter struct.
  using params_type = powertcp_params;
  /// @brief Events consumed: ACKs only.
  static constexpr event_set events = cc_event::ack;
  static_assert(Wire::max_hops <= 6, "basic_powertcp_compact: at most 6 hops (3-bit count)");

  /// @brief Check parameters for this form: netcc::validate's rules, and tau from the
  /// configured base RTT (a per-flow minimum-RTT tau would need per-flow reciprocals; unchecked
  /// construction reads powertcp_tau::min_rtt as configured).
  /// @code
  /// auto v = netcc::powertcp_compact::validate({.tau_source = netcc::powertcp_tau::min_rtt});
  /// // v[0].message() == "powertcp_compact.tau_source = 1: must be configured (the compact
  /// //                    form's tau is the configured base_rtt)"
  /// @endcode
  [[nodiscard]] static validation validate(const params_type& p) {
    validation v = netcc::validate(p);
    v.check(p.tau_source != powertcp_tau::min_rtt, "powertcp_compact.tau_source",
            static_cast<int>(p.tau_source),
            "must be configured (the compact form's tau is the configured base_rtt)");
    return v;
  }

 private:
  using clock = typename stack_type::timestamp_clock;
  using counter = typename stack_type::tx_counter;
  using record = detail::int_wire_record<Wire>;
  static constexpr std::uint32_t fresh = 7;  // hop count before the first ACK
  static constexpr std::uint32_t win_mask = 0x7FFF'FFFFU;
  static constexpr std::uint64_t have_power_bit = std::uint64_t{1} << 63;
  static constexpr std::size_t codes = std::size_t{1} << Wire::rate_bits;

 public:
  /// @brief One flow's packed state (64 B at 5 hops, trivially copyable); see the class comment
  /// for each field's range. Read and change it through config.
  struct flow_state {
    std::array<record, Wire::max_hops> hops{};  ///< prevInt: each hop's previous record, wire word
    std::uint64_t smooth = 0;  ///< Gamma_smooth, q32 raw (bits 0-62); bit 63: it holds a sample
    std::uint32_t cwnd = 0;    ///< cwnd, whole bytes (bits 0-30); bit 31: hop count bit 0
    std::uint32_t w_new = 0;   ///< window of the latest UPDATEOLD (0-30); bit 31: count bit 1
    std::uint32_t w_old = 0;   ///< the history's window before it (0-30); bit 31: count bit 2
    std::uint32_t mark = 0;    ///< lastUpdateSeq, low 32 bits
  };
  static_assert(std::is_trivially_copyable_v<flow_state>);

  /// @brief What a class of flows shares: the sanitised parameters, every derived constant and
  /// the reciprocals of each wire rate code's link rate and BDP, with Algorithm 1 as members
  /// taking one flow's state.
  class config {
   public:
    /// @brief The configuration for parameters `p` (invalid fields fall back as
    /// basic_powertcp's; netcc::validate reports them; tau is the configured base_rtt).
    constexpr explicit config(params_type p = {}) noexcept {
      p.tau_source = powertcp_tau::configured;
      const wide_type w{p};
      p_ = w.params();
      gamma_ = num<value_type>(p_.gamma);
      min_cwnd_ = number_traits<value_type>::from_int(p_.min_cwnd.count());
      max_cwnd_ = number_traits<value_type>::from_int(p_.max_cwnd.count());
      max_rate_ = p_.max_rate > bit_rate::zero() ? p_.max_rate : p_.host_rate;
      if (max_rate_ < p_.min_rate) max_rate_ = p_.min_rate;
      tau_ = p_.base_rtt;
      tau_div_ = detail::invariant_divisor{static_cast<std::uint64_t>(tau_.count())};
      const bytes host_bdp = p_.host_rate * tau_;
      host_bdp_ = clamp_num(number_traits<value_type>::from_int(host_bdp.count()),
                            num<value_type>(0), max_cwnd_);
      beta_ = w.beta();
      init_ = static_cast<std::uint32_t>(w.window().raw() >> value_type::fraction_bits);
      for (std::size_t c = 0; c < codes; ++c) {  // powertcp_recip_cache::find, per rate code
        detail::powertcp_rate_recip& r = recip_[c];
        const bit_rate b = Wire::rate_of(c);
        r.bps = b.bps();
        r.bdp = (b * tau_).count();
        r.inv_b = detail::invariant_divisor{static_cast<std::uint64_t>(b.bps())};
        r.inv_bdp = detail::invariant_divisor{static_cast<std::uint64_t>(r.bdp > 0 ? r.bdp : 1)};
      }
    }

    /// @brief A new flow's state: cwnd = cwnd_init, no record, no sample.
    [[nodiscard]] constexpr flow_state initial_state() const noexcept {
      flow_state st{};
      st.cwnd = init_;
      st.w_new = init_;
      st.w_old = init_;
      set_count(st, fresh);
      return st;
    }
    /// @brief Reset `st` to a new flow's state.
    constexpr void init(flow_state& st) const noexcept { st = initial_state(); }

    /// @brief NEWACK(ack), Algorithm 1 lines 2-7 (basic_powertcp::on_ack) on `st`; returns the
    /// rule it ran (hold, update or update_capped). Always inlined into the caller, as
    /// hpcc_compact's (over wire words: 325 / 685 -> 313 / 675 instructions per ACK at 1 / 5
    /// hops, 18.0-18.8 / 37.6-39.5 -> 16.6-16.9 / 35.5-37.3 ns).
    template <class E>
    requires IntFeedbackFor<E, stack_type>
    [[gnu::always_inline]] constexpr powertcp_branch on_ack(flow_state& st,
                                                            const E& e) const noexcept {
      using ft = feedback_traits<E>;
      const sequence ack = ft::ack_seq(e);
      const sequence nxt = ft::snd_nxt(e);
      const std::uint32_t count = get_count(st);
      const bool armed = count != fresh;
      const std::uint32_t cwnd_b = st.cwnd & win_mask;
      // GETCWND(ack.seq - 1), line 3: the newest window from lastUpdateSeq on, the older before.
      std::uint32_t old_b = cwnd_b;
      if (armed)
        old_b = modular<32>::diff(static_cast<std::uint32_t>(ack - 1), st.mark) >= 0
                    ? (st.w_new & win_mask)
                    : (st.w_old & win_mask);
      // NORMPOWER, lines 8-22 (int_power::sample).
      std::uint32_t new_count = count;
      const power_sample<value_type> s = sample(st, e, new_count);
      bool have_power = (st.smooth & have_power_bit) != 0;
      value_type smooth =
          value_type::from_raw(static_cast<std::int64_t>(st.smooth & ~have_power_bit));
      if (s.valid) {       // line 23: smoothing over tau, weight min(dt, tau)/tau
        if (have_power) {  // a sample's dt > 0, tau >= 1: theta_powertcp_smooth's operator form
          smooth = detail::theta_powertcp_smooth(smooth, s.power, s.dt.count(), tau_div_);
        } else {
          smooth = s.power;
          have_power = true;
        }
      }
      powertcp_branch br = powertcp_branch::hold;
      std::uint32_t cwnd_n = cwnd_b;
      if (have_power && s.valid) {  // line 5 / 27: UPDATEWINDOW
        // UPDATEWINDOW, line 27 (detail::powertcp_update_window, in q32 on the raw integers)
        bool uncapped = false;
        const value_type w =
            detail::powertcp_update_window(smooth, host_bdp_, from_u32(old_b), gamma_, beta_,
                                           from_u32(cwnd_b), min_cwnd_, max_cwnd_, uncapped);
        br = uncapped ? powertcp_branch::update : powertcp_branch::update_capped;
        cwnd_n = round_bytes(w);
      }
      std::uint32_t w_new = st.w_new & win_mask, w_old = st.w_old & win_mask;
      const auto nxt32 = static_cast<std::uint32_t>(nxt);
      // line 7, UPDATEOLD once per RTT: cwnd from snd_nxt on (a new entry when snd_nxt moved
      // past lastUpdateSeq, else the newest entry's window is replaced).
      if (!armed) {
        w_new = cwnd_n;
        w_old = cwnd_n;
        st.mark = nxt32;
      } else if (modular<32>::diff(static_cast<std::uint32_t>(ack), st.mark) >= 0) {
        if (modular<32>::diff(nxt32, st.mark) > 0) w_old = w_new;
        w_new = cwnd_n;
        st.mark = nxt32;
      }
      st.smooth = static_cast<std::uint64_t>(smooth.raw()) | (have_power ? have_power_bit : 0);
      st.cwnd = cwnd_n;
      st.w_new = w_new;
      st.w_old = w_old;
      set_count(st, new_count);
      return br;
    }

    /// @brief The window in force (whole bytes, as a q32 value).
    [[nodiscard]] constexpr value_type window(const flow_state& st) const noexcept {
      return from_u32(st.cwnd & win_mask);
    }
    /// @brief The congestion window in bytes.
    [[nodiscard]] constexpr bytes cwnd(const flow_state& st) const noexcept {
      return bytes{static_cast<std::int64_t>(st.cwnd & win_mask)};
    }
    /// @brief Pacing rate: host_rate in the first RTT (if configured), then cwnd / tau (line 6),
    /// within [min_rate, max_rate] and at least 1 bps.
    [[nodiscard]] constexpr bit_rate pacing_rate(const flow_state& st) const noexcept {
      bit_rate r = in_first_rtt(st) && p_.line_rate_first_rtt ? p_.host_rate : cwnd(st) / tau_;
      if (r < p_.min_rate) r = p_.min_rate;
      if (r < min_pacing_rate) r = min_pacing_rate;
      if (r > max_rate_) r = max_rate_;
      return r;
    }
    /// @brief Gamma_smooth (0 before the first sample).
    [[nodiscard]] constexpr value_type norm_power(const flow_state& st) const noexcept {
      return value_type::from_raw(static_cast<std::int64_t>(st.smooth & ~have_power_bit));
    }
    /// @brief True until the first window update (Algorithm 1 updates on the first sample, so
    /// until Gamma_smooth holds one).
    [[nodiscard]] constexpr bool in_first_rtt(const flow_state& st) const noexcept {
      return (st.smooth & have_power_bit) == 0;
    }
    /// @brief Hops with a stored record (0 before the first ACK).
    [[nodiscard]] constexpr std::size_t hops(const flow_state& st) const noexcept {
      const std::uint32_t c = get_count(st);
      return c == fresh ? 0 : c;
    }
    /// @brief tau (the configured base RTT).
    [[nodiscard]] constexpr duration tau() const noexcept { return tau_; }
    /// @brief beta in force, in bytes.
    [[nodiscard]] constexpr value_type beta() const noexcept { return beta_; }
    /// @brief The parameters in force (after invalid fields fell back; tau_source configured).
    [[nodiscard]] constexpr const params_type& params() const noexcept { return p_; }

   private:
    [[nodiscard]] static constexpr value_type from_u32(std::uint32_t b) noexcept {
      return value_type::from_raw(static_cast<std::int64_t>(b) << value_type::fraction_bits);
    }
    /// A q32 window in [min_cwnd, max_cwnd] (below 2^31 B) to whole bytes, rounded to nearest.
    [[nodiscard]] static constexpr std::uint32_t round_bytes(value_type w) noexcept {
      const std::int64_t half = std::int64_t{1} << (value_type::fraction_bits - 1);
      return static_cast<std::uint32_t>((w.raw() + half) >> value_type::fraction_bits);
    }
    [[nodiscard]] static constexpr std::uint32_t get_count(const flow_state& st) noexcept {
      return (st.cwnd >> 31) | ((st.w_new >> 31) << 1) | ((st.w_old >> 31) << 2);
    }
    static constexpr void set_count(flow_state& st, std::uint32_t c) noexcept {
      st.cwnd = (st.cwnd & win_mask) | ((c & 1U) << 31);
      st.w_new = (st.w_new & win_mask) | (((c >> 1) & 1U) << 31);
      st.w_old = (st.w_old & win_mask) | (((c >> 2) & 1U) << 31);
    }

    /// NORMPOWER(ack), Algorithm 1 lines 8-22, as int_power::sample over the wire records:
    /// per hop with dt > 0 (line 11), lambda = (dqlen + dtxBytes) / dt (lines 12-14),
    /// Gamma' / e = (lambda / b) * ((qlen + b tau) / (b tau)) (lines 15-19); the largest (the
    /// first valid hop starting, lines 20-21). `count`: the stored hop count (fresh: none).
    /// Always inlined into on_ack (as int_power's fixed-point NORMPOWER): out of line, a call,
    /// saved registers and the sample returned through memory on every ACK.
    template <class E>
    [[gnu::always_inline]] constexpr power_sample<value_type> sample(
        flow_state& st, const E& e, std::uint32_t& count) const noexcept {
      using ft = feedback_traits<E>;
      const std::size_t n = ft::hop_count(e);
      if (n > Wire::max_hops) {  // cannot hold this path: forget it, no sample
        count = 0;
        return {};
      }
      if (count != n) {  // first ACK or a new hop count: store, no sample
        for (std::size_t j = 0; j < n; ++j) st.hops[j].store(ft::hop(e, j));
        count = static_cast<std::uint32_t>(n);
        return {};
      }
      const value_type pmax = powertcp_max_power<value_type>();
      // The largest power's raw integer, -1 before the first valid hop (powers lie in [0, pmax]:
      // p > best, or no best yet, is p.raw() > best_raw), and its dt.
      std::int64_t best_raw = -1;
      duration best_dt{};
      for (std::size_t i = 0; i < n; ++i) {
        const auto& h = ft::hop(e, i);  // a word_hop of a word stack: record's overloads
        record& r = st.hops[i];
        const std::uint64_t code = r.key();
        if (!record::key_is(h, code)) {  // a link rate changed: a path change, store, no sample
          for (std::size_t j = 0; j < n; ++j) st.hops[j].store(ft::hop(e, j));
          return {};
        }
        const duration dt = clock::diff(h.ts, r.ts());  // line 11
        if (dt <= duration::zero()) {
          if (dt < duration::zero()) r.store_raw(h, 0, code);  // reordered: resync
          continue;                                            // a duplicate: keep the record
        }
        const std::int64_t q_prev = r.qlen_bytes();
        const std::int64_t dtx = counter::delta_bytes(h.tx_bytes, r.tx());
        r.store_raw(h, 0, code);
        const std::int64_t q = r.qlen_bytes();
        const std::int64_t dbytes = detail::sat_add(q - q_prev, dtx);
        const value_type p =
            detail::powertcp_hop_power_fast<value_type>(dbytes, dt, q, recip_[code], tau_, pmax);
        if (p.raw() > best_raw) {  // lines 20-21
          best_raw = p.raw();
          best_dt = dt;
        }
      }
      if (best_raw < 0) return {};
      return {true, value_type::from_raw(best_raw), best_dt};
    }

    params_type p_{};
    value_type gamma_{};
    value_type min_cwnd_{};
    value_type max_cwnd_{};
    value_type host_bdp_{};
    value_type beta_{};
    bit_rate max_rate_{};
    duration tau_{};
    detail::invariant_divisor tau_div_{};
    std::array<detail::powertcp_rate_recip, codes> recip_{};
    std::uint32_t init_ = 0;
  };

  /// @brief Bytes of per-flow state (sizeof(flow_state)).
  static constexpr std::size_t state_bytes = sizeof(flow_state);

  /// @brief A controller with parameters `p` (invalid fields fall back to their defaults).
  constexpr explicit basic_powertcp_compact(const params_type& p = {}) noexcept
      : cfg_(p), s_(cfg_.initial_state()) {}

  /// @brief NEWACK(ack) (config::on_ack on this flow).
  template <class E>
  requires IntFeedbackFor<E, stack_type>
  constexpr void on_ack(const E& e) noexcept { branch_ = cfg_.on_ack(s_, e); }
  /// @brief The congestion window in bytes.
  [[nodiscard]] constexpr bytes cwnd() const noexcept { return cfg_.cwnd(s_); }
  /// @brief The pacing rate.
  [[nodiscard]] constexpr bit_rate pacing_rate() const noexcept { return cfg_.pacing_rate(s_); }
  /// @brief The window in force (whole bytes, as q32).
  [[nodiscard]] constexpr value_type window() const noexcept { return cfg_.window(s_); }
  /// @brief Gamma_smooth.
  [[nodiscard]] constexpr value_type norm_power() const noexcept { return cfg_.norm_power(s_); }
  /// @brief True until the first window update.
  [[nodiscard]] constexpr bool in_first_rtt() const noexcept { return cfg_.in_first_rtt(s_); }
  /// @brief The rule the latest ACK ran.
  [[nodiscard]] constexpr powertcp_branch last_branch() const noexcept { return branch_; }
  /// @brief The tau in force.
  [[nodiscard]] constexpr duration tau() const noexcept { return cfg_.tau(); }
  /// @brief beta in force, in bytes.
  [[nodiscard]] constexpr value_type beta() const noexcept { return cfg_.beta(); }
  /// @brief The parameters in force.
  [[nodiscard]] constexpr params_type params() const noexcept { return cfg_.params(); }
  /// @brief The configuration this controller runs (shareable with other flows).
  [[nodiscard]] constexpr const config& configuration() const noexcept { return cfg_; }
  /// @brief This flow's state.
  [[nodiscard]] constexpr const flow_state& state() const noexcept { return s_; }

 private:
  config cfg_;
  flow_state s_;
  powertcp_branch branch_ = powertcp_branch::none;
};

/// @brief PowerTCP (INT) in q32 with a 64-B per-flow state on HPCC's INT wire format.
using powertcp_compact = basic_powertcp_compact<>;

// Per-flow state budget of the compact form: 64 B at 5 hops (five 8-B wire records, Gamma_smooth
// in q32 with a flag, three 31-bit windows carrying the hop count, a 32-bit lastUpdateSeq).
static_assert(sizeof(powertcp_compact::flow_state) <= 64,
              "powertcp_compact: per-flow state within 64 B");
static_assert(powertcp_compact::state_bytes == sizeof(powertcp_compact::flow_state));

}  // namespace netcc

#undef NETCC_DETAIL_CLANG_INLINE
