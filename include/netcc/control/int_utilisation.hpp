// SPDX-License-Identifier: MIT
/// @file
/// @brief The INT utilisation estimator HPCC and FastTune share: per-hop inflight utilisation
/// from two consecutive INT records, the most congested hop, and its time-weighted EWMA.
///
/// Papers: Yuliang Li et al., "HPCC: High Precision Congestion Control", ACM SIGCOMM 2019,
/// §3.3 and Algorithm 1 (MeasureInflight); Xiaocheng Zhou, Dezun Dong, Xiangyu Huang, Chenglong
/// Bai (FastTune), "FastTune: Timely and Precise Congestion Control in Data Center Network",
/// §III-C.1, Eq. 1 and Algorithm 2 lines 2-10.
///
/// Both papers compute, per hop i of the ACK's INT stack against the previous ACK's record of
/// the same hop,
/// \f[ u'_i = \frac{\min(q_i, q_i^{prev}) + txRate_i \cdot T}{B_i \cdot T},\qquad
///     txRate_i = \frac{txBytes_i - txBytes_i^{prev}}{ts_i - ts_i^{prev}} \f]
/// (HPCC writes it as \f$ \min(q)/(B T) + txRate/B \f$, the same number), keep the largest and
/// its \f$ \tau = ts_i - ts_i^{prev} \f$, and fold it into
/// \f$ U \leftarrow (1 - \tau/T)\,U + (\tau/T)\,u \f$ with \f$ \tau \le T \f$. One class does
/// this for both, so the arithmetic exists once; the controllers (netcc::basic_hpcc,
/// netcc::basic_fasttune) differ only in their window laws.
///
/// | path mode            | what an ACK with a different hop list means | used by |
/// | -------------------- | ------------------------------------------- | ------- |
/// | netcc::int_path::whole  | a path change: forget every record (HPCC's INT covers the whole path on every ACK) | HPCC |
/// | netcc::int_path::prefix | hops 0..n-1 of the same path: difference those, keep the rest (a FastTune S-ACK covers only the switches up to the one that made it) | FastTune |
///
/// Decisions the papers leave open (tested in tests/control/hpcc_test.cpp and fasttune_test.cpp)
/// - First ACK (no previous record): the records are stored and there is no sample.
/// - The first sample initialises U (no average against an undefined start value).
/// - dt <= 0 on a hop: no division. dt == 0 (a duplicate) keeps the stored record and gives no
///   sample for that hop; dt < 0 (reordered, or beyond half the timestamp range) re-synchronises
///   the record. A hop with link rate 0 cannot be normalised and is skipped.
/// - A link rate that differs from the stored record is a path change for that hop (whole: for
///   the path). Rates are compared in whole Mbps (netcc::detail::powertcp_rate32).
/// - Algorithm 1 line 7 (FastTune Alg. 2 line 7) starts from u = 0 and takes strictly larger
///   values, so an idle path (u = 0 everywhere) would leave tau unset; netcc takes the first
///   valid hop as the initial candidate (ties keep the earlier hop). "Larger" compares the
///   hops' u' without dividing (cross-multiplication of u' = n / e; values at or above the
///   2^30 clamp are equal): exactly in fixed point, in floating point for double, so two hops
///   whose u' differ by less than the policy's rounding are told apart by their exact values;
///   only the chosen hop's u' is divided out, once per ACK.
/// - A negative tx-byte delta (counter noise) counts as a zero tx rate; u' is clamped to
///   [0, 2^30] (above it the window laws' Wc * eta / U is below 2 bytes for any window).
/// - Wrapped counters: timestamp and tx-byte deltas are modulo their widths, from the event's
///   clock and counter traits (netcc::wrapping_clock, netcc::wrapping_counter).
///
/// @code
/// netcc::int_utilisation<double> est;
/// auto s = est.sample(ack, netcc::duration{16'000});   // s.valid once two records exist
/// double u = est.value();                              // the EWMA U
/// @endcode
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "netcc/control/detail/powertcp_hops.hpp"
#include "netcc/core/arith.hpp"
#include "netcc/core/detail/int128.hpp"
#include "netcc/core/divisor.hpp"
#include "netcc/core/ewma.hpp"
#include "netcc/core/feedback.hpp"
#include "netcc/core/int_wire.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/wrap.hpp"

namespace netcc {

/// @brief How an INT stack whose hop list differs from the stored one is read (see the table
/// in netcc/control/int_utilisation.hpp).
enum class int_path : std::uint8_t {
  whole,   ///< every ACK covers the whole path; a different hop count is a path change (HPCC)
  prefix,  ///< an ACK may cover the first n hops only (FastTune's switch ACKs)
};

/// @brief One utilisation measurement: valid, the most congested hop's u and its interval tau
/// (before the min(tau, T) of HPCC Algorithm 1 / FastTune Algorithm 2 line 9).
/// @tparam T the arithmetic policy's number type
template <Number T>
struct utilisation_sample {
  /// @brief False when the ACK gave no measurement (first ACK, dt <= 0, path change).
  bool valid = false;
  /// @brief u of the most congested hop (1 = exactly full with an empty queue).
  T u{};
  /// @brief The interval that hop's records span.
  duration tau{};
};

/// @brief Largest per-hop utilisation reported (2^30; see the file comment).
template <Number T>
[[nodiscard]] constexpr T int_utilisation_max() noexcept {
  return num<T>(1073741824.0);
}

namespace detail {

/// n / d for non-negative 128-bit n and positive d, in number type T: both are halved until
/// they fit 64 bits (only at magnitudes far beyond any real link), then netcc::ratio.
template <Number T>
[[nodiscard]] constexpr T ratio_wide(i128 n, i128 d) noexcept {
  constexpr i128 lim = 0x7FFF'FFFF'FFFF'FFFFLL;
  while (n > lim || d > lim) {
    n >>= 1;
    d >>= 1;
  }
  if (d <= 0) return n > 0 ? number_traits<T>::max() : num<T>(0);
  return ratio<T>(static_cast<std::int64_t>(n), static_cast<std::int64_t>(d));
}

/// Bits of a non-negative 64-bit value (0 for 0): a product of factors whose widths sum to at
/// most k bits is below 2^k.
[[nodiscard]] constexpr int int_util_width(std::int64_t v) noexcept {
  return static_cast<int>(std::bit_width(static_cast<std::uint64_t>(v)));
}

/// Bits of an unsigned 128-bit value (0 for 0).
[[nodiscard]] constexpr int int_util_width128(u128 v) noexcept {
  const auto hi = static_cast<std::uint64_t>(v >> 64);
  return hi != 0 ? 64 + static_cast<int>(std::bit_width(hi))
                 : static_cast<int>(std::bit_width(static_cast<std::uint64_t>(v)));
}

/// powertcp_qlen32(q) with one comparison for a queue in [0, 2^32 - 1) bytes.
[[nodiscard]] constexpr std::uint32_t powertcp_qlen32_fast(bytes q) noexcept {
  if (static_cast<std::uint64_t>(q.count()) < 0xFFFF'FFFFU)
    return static_cast<std::uint32_t>(q.count());
  return powertcp_qlen32(q);
}

/// HPCC Algorithm 1 lines 5-6 / FastTune Eq. 1 for one hop (bytes, ns, bps):
/// u' = qmin * 8e9 / (B * T) + dtx * 8e9 / (dt * B) = (qmin * dt + dtx * T) * 8e9 / (B * dt * T),
/// with one division; negative inputs count as zero, the result is clamped to [0, umax]. Double
/// computes it in floating point; other number types as an exact ratio of 128-bit integers
/// (netcc::detail::ratio_wide), so no intermediate is rounded.
///
/// The single fraction needs up to 2 * 63 + 34 bits in its numerator and 3 * 63 in its
/// denominator (a 4 GB queue over a timestamp jump of 2^63 - 1 ns, a link rate near 2^62 bps),
/// beyond 128 bits. The factors' bit widths bound both products: when either could overflow,
/// the two terms are computed as separate ratios instead (numerators below 2^97, denominators
/// below 2^126: each fits) and added, saturating. That path differs from the exact one by at
/// most one rounding per term (2^-F each); it is only taken where the exact one would overflow,
/// so every input of a real path (HPCC's 24-bit wire stack, rates up to 4 Pbps with T and dt
/// up to minutes) keeps the exact ratio.
/// dt > 0, b > 0 and t > 0 are the caller's to ensure.
template <Number T>
[[nodiscard]] constexpr T hop_utilisation(std::int64_t dtx, duration dt, std::int64_t qmin,
                                          bit_rate b, duration t, T umax) noexcept {
  if (dtx < 0) dtx = 0;
  if (qmin < 0) qmin = 0;
  if constexpr (std::is_same_v<T, double>) {
    const double ddt = static_cast<double>(dt.count()), dt_ = static_cast<double>(t.count());
    const double u = (static_cast<double>(qmin) * ddt + static_cast<double>(dtx) * dt_) * 8e9 /
                     (static_cast<double>(b.bps()) * ddt * dt_);
    return clamp_num(u, 0.0, umax);
  } else {
    constexpr i128 scale = 8'000'000'000;  // bits per byte * ns per s; 33 bits
    const int wq = int_util_width(qmin), wx = int_util_width(dtx);
    const int wdt = int_util_width(dt.count()), wt = int_util_width(t.count());
    const int wb = int_util_width(b.bps());
    // n < 2^(max(wq + wdt, wx + wt) + 1 + 33), d < 2^(wb + wdt + wt): both below 2^127?
    const int wn = (wq + wdt > wx + wt ? wq + wdt : wx + wt) + 1 + 33;
    if (wn <= 127 && wb + wdt + wt <= 127) {
      const i128 n = (i128{qmin} * dt.count() + i128{dtx} * t.count()) * scale;
      const i128 d = i128{b.bps()} * dt.count() * t.count();
      return clamp_num(ratio_wide<T>(n, d), num<T>(0), umax);
    }
    // Two terms: qmin * 8e9 / (B * T) (< 2^65 / < 2^126) + dtx * 8e9 / (B * dt) (< 2^96 / <
    // 2^126); the sum saturates in T and is clamped.
    const T queue =
        clamp_num(ratio_wide<T>(i128{qmin} * scale, i128{b.bps()} * t.count()), num<T>(0), umax);
    const T tx =
        clamp_num(ratio_wide<T>(i128{dtx} * scale, i128{b.bps()} * dt.count()), num<T>(0), umax);
    return clamp_num(queue + tx, num<T>(0), umax);
  }
}

/// The tau/T weight of HPCC Algorithm 1 line 10 (netcc::time_weight), through T's reciprocal
/// when the caller holds one (netcc::ratio_by: the same value as netcc::ratio).
template <Number T>
[[nodiscard, gnu::always_inline]] constexpr T int_time_weight(
    duration tau, duration t, const invariant_divisor* t_div) noexcept {
  if (tau <= duration::zero() || t <= duration::zero())
    return t <= duration::zero() ? num<T>(1) : num<T>(0);
  if (tau >= t) return num<T>(1);
  if constexpr (requires {
                  T::fraction_bits;
                  T::raw_max;
                  T::from_raw(std::int64_t{});
                }) {
    // 0 < tau < T <= 2^31 and F <= 32: the rounded dividend tau 2^F + floor(T / 2) is at most
    // (2^31 - 1) 2^32 + 2^30 < 2^64, so div_nearest's division is div_floor64's (the 64-bit
    // dividend's multiply-high by T's reciprocal, inlined), the same quotient.
    if (T::fraction_bits <= 32 &&
        static_cast<std::uint64_t>(T::raw_max) >= (std::uint64_t{1} << T::fraction_bits) &&
        t_div != nullptr && t_div->divisor() <= (std::uint64_t{1} << 31))
      // The quotient is at most 2^F <= raw_max (the test above): in range.
      return raw_in_range<T>(static_cast<std::int64_t>(t_div->div_floor64(
          (static_cast<std::uint64_t>(tau.count()) << T::fraction_bits) + t_div->divisor() / 2)));
    // 0 < tau < T: tau 2^F / T rounds to at most 2^F (<= raw_max here), so the quotient fits
    // 64 bits and nothing saturates: ratio_by's value without its sign and range handling.
    if (T::fraction_bits < 63 &&
        static_cast<std::uint64_t>(T::raw_max) >= (std::uint64_t{1} << T::fraction_bits) &&
        t_div != nullptr && t_div->divisor() <= (std::uint64_t{1} << 62))
      return T::from_raw(static_cast<std::int64_t>(t_div->div_nearest(
          static_cast<u128>(static_cast<std::uint64_t>(tau.count())) << T::fraction_bits)));
  }
  return t_div != nullptr ? ratio_by<T>(tau.count(), *t_div) : ratio<T>(tau.count(), t.count());
}

/// T's reciprocals for the tau/T weight of HPCC Algorithm 1 line 10 (int_time_weight), derived
/// once per configuration: netcc::detail::invariant_divisor (every T) and, for T in [2, 2^31],
/// netcc::detail::divisor_u63 (dividends below 2^63: one multiply-high and one shift, with no
/// power-of-two case and no correction step, where invariant_divisor::div_floor64 serves 64-bit
/// dividends).
class int_weight_divisor {
 public:
  /// @brief T = 1 (the default).
  constexpr int_weight_divisor() noexcept : int_weight_divisor(1) {}
  /// @brief T = `t`; 0 is taken as 1 (as invariant_divisor takes it).
  constexpr explicit int_weight_divisor(std::uint64_t t) noexcept : div_(t) {
    const std::uint64_t d = div_.divisor();
    if (d >= 2 && d <= (std::uint64_t{1} << 31)) short_ = divisor_u63{d};
  }
  /// @brief T's reciprocal for every dividend.
  [[nodiscard]] constexpr const invariant_divisor& general() const noexcept { return div_; }
  /// @brief True when T lies in [2, 2^31]: short_div applies.
  [[nodiscard]] constexpr bool short_form() const noexcept { return short_.divisor() != 0; }
  /// @brief T's multiplier for dividends below 2^63 (short_form only).
  [[nodiscard]] constexpr const divisor_u63& short_div() const noexcept { return short_; }

 private:
  invariant_divisor div_;
  divisor_u63 short_{};
};

/// int_time_weight through int_weight_divisor (`t_div` holds t): the same value. Fixed point with
/// F <= 32 and raw_max >= 2^F, T in [2, 2^31]: for 0 < tau < T the rounded dividend
/// tau 2^F + floor(T / 2) is at most (2^31 - 1) 2^32 + 2^30 < 2^63, so short_div() gives the
/// quotient invariant_divisor::div_floor64 gives (both floor(n / T), exact), at most 2^F <=
/// raw_max: in range. tau <= 0 and tau >= T take the general form's values (0 and 1; T > 0
/// here). Other T, other number types: int_time_weight with the general reciprocal.
/// (A template on the divisor type, so that a bare nullptr still names the general form.)
template <Number T, class Div>
requires std::is_same_v<Div, int_weight_divisor>
[[nodiscard, gnu::always_inline]] constexpr T int_time_weight(duration tau, duration t,
                                                              const Div* t_div) noexcept {
  if constexpr (requires {
                  T::fraction_bits;
                  T::raw_max;
                  T::from_raw(std::int64_t{});
                }) {
    if constexpr (T::fraction_bits >= 0 && T::fraction_bits <= 32) {
      if (static_cast<std::uint64_t>(T::raw_max) >= (std::uint64_t{1} << T::fraction_bits) &&
          t_div != nullptr && t_div->short_form()) {
        if (tau <= duration::zero()) return num<T>(0);
        if (tau >= t) return num<T>(1);
        return raw_in_range<T>(static_cast<std::int64_t>(t_div->short_div().div_nearest(
            static_cast<std::uint64_t>(tau.count()) << T::fraction_bits)));
      }
    }
  }
  return int_time_weight<T>(tau, t, t_div != nullptr ? &t_div->general() : nullptr);
}

/// HPCC Algorithm 1 line 10 (FastTune Algorithm 2 line 10): U + w (u - U), the EWMA step with
/// the tau/T weight `w`, as the number type's operators compute it. Fixed point, for U and u in
/// [0, raw_max] and w in [0, 1] (the estimator's: U and u are clamped to [0, umax], the weight
/// is int_time_weight's): d = u - U lies in [-raw_max, raw_max] (no saturation), the product's
/// magnitude |d| w_raw is below 2^(63 + F) <= 2^127 (one signed 64 x 64 -> 128-bit product),
/// rounded to nearest with ties away from zero as operator* rounds it (the sign folded into the
/// rounding addend, proved below) and at most |d| (w <= 1), so U + w d lies between U and u:
/// operator+ cannot saturate and from_raw cannot clamp. Other inputs, other number types: the
/// operator form.
template <Number T>
[[nodiscard, gnu::always_inline]] constexpr T int_ewma_step(T big_u, T u, T w) noexcept {
  if constexpr (requires {
                  T::fraction_bits;
                  T::raw_max;
                  T::from_raw(std::int64_t{});
                }) {
    if constexpr (T::fraction_bits > 0 && T::fraction_bits < 63) {
      constexpr std::int64_t one = std::int64_t{1} << T::fraction_bits;
      // U, u >= 0 and 0 <= w <= 1 in two unsigned comparisons.
      if (T::raw_max >= one &&
          ((static_cast<std::uint64_t>(big_u.raw()) | static_cast<std::uint64_t>(u.raw())) >> 63) ==
              0 &&
          static_cast<std::uint64_t>(w.raw()) <= static_cast<std::uint64_t>(one)) {
        const std::int64_t d = u.raw() - big_u.raw();  // both in [0, raw_max]: no overflow
        // The signed product m = d w (|m| <= |d| 2^F < 2^(63 + F) <= 2^127: one signed
        // 64 x 64 -> 128-bit product) rounded without taking |d|: for m >= 0,
        // (m + 2^(F-1)) >> F; for m < 0, -((-m + 2^(F-1)) >> F) = floor((m + 2^(F-1) - 1) / 2^F)
        // (-floor(a / N) = floor((N - 1 - a) / N) with N = 2^F, a = -m + 2^(F-1), and
        // N - 2^(F-1) = 2^(F-1)), the arithmetic shift of m + 2^(F-1) - 1. The addend
        // 2^(F-1) + (m >> 127) is 2^(F-1) less the sign bit.
        const i128 m = i128{d} * w.raw();
        const auto q = static_cast<std::int64_t>(
            (m + ((i128{1} << (T::fraction_bits - 1)) + (m >> 127))) >> T::fraction_bits);
        // |q| <= |d| (w <= 1): U + q lies between U and u, both in [0, raw_max]: in range.
        return raw_in_range<T>(big_u.raw() + q);
      }
    }
  }
  return big_u + w * (u - big_u);
}

/// A hop's u' in the form the fixed-point estimator compares across hops without dividing:
/// u' = n * 8e9 / (e * T) with n = qmin * dt + dtx * T and e = B * dt (T is common to every hop
/// of an ACK), and whether u' reaches the clamp 2^30 (n * 8e9 >= e * T * 2^30). `exact` is
/// false when n or e exceeds 64 bits or T exceeds 2^34 ns; such a hop is compared by value.
struct int_util_key {
  std::uint64_t n = 0;
  std::uint64_t e = 0;
  bool exact = false;
  bool sat = false;
  std::uint32_t qmin = 0;
  std::int64_t dtx = 0;
  duration dt{};
  bit_rate b{};
};

/// int_util_key for double: n, e and the clamp test in floating point (sat_scale = umax * T).
struct int_util_key_double {
  double n;
  double e;
  double sat_scale;
  bool sat;
  std::uint32_t qmin;
  std::int64_t dtx;
  bit_rate b;
};

/// The per-ACK constants of the comparison (T and T * 2^30).
struct int_util_scale {
  std::uint64_t t = 0;
  std::uint64_t t_sat = 0;  // T * 2^30, when T < 2^34 (else 0: keys are not exact)

  constexpr explicit int_util_scale(duration period) noexcept
      : t(period.count() > 0 ? static_cast<std::uint64_t>(period.count()) : 0),
        t_sat(t > 0 && t < (std::uint64_t{1} << 34) ? t << 30 : 0) {}

  /// The key of a hop (dtx >= 0, dt > 0, b > 0).
  [[nodiscard]] constexpr int_util_key key(std::int64_t dtx, duration dt, std::uint32_t qmin,
                                           bit_rate b) const noexcept {
    int_util_key k;
    k.qmin = qmin;
    k.dtx = dtx;
    k.dt = dt;
    k.b = b;
    const auto udt = static_cast<std::uint64_t>(dt.count());
    const u128 n = u128{qmin} * udt + u128{static_cast<std::uint64_t>(dtx)} * t;
    const u128 e = u128{static_cast<std::uint64_t>(b.bps())} * udt;
    if (t_sat == 0 || (n >> 64) != 0 || (e >> 64) != 0) return k;
    k.n = static_cast<std::uint64_t>(n);
    k.e = static_cast<std::uint64_t>(e);
    k.exact = true;
    k.sat = u128{k.n} * 8'000'000'000U >= u128{k.e} * t_sat;
    return k;
  }

  /// True when k's u' (clamped to umax) is above the current best's (HPCC Algorithm 1 line 7:
  /// strictly larger, so ties keep the earlier hop). `best_u` is the best's value when its key
  /// is not exact.
  template <Number T>
  [[nodiscard]] constexpr bool above(const int_util_key& k, const int_util_key& best, T best_u,
                                     duration period, T umax) const noexcept {
    if (k.exact && best.exact) {
      if (best.sat) return false;
      if (k.sat) return true;
      return u128{k.n} * best.e > u128{best.n} * k.e;  // n_k / e_k > n_b / e_b
    }
    const T uk = utilisation<T>(k, period, umax);
    const T ub = best.exact ? utilisation<T>(best, period, umax) : best_u;
    return uk > ub;
  }

  /// u' of a key, clamped to [0, umax]: the value detail::hop_utilisation gives for its inputs.
  /// An exact key takes hop_utilisation's exact path without its width checks (n * 8e9 and
  /// e * T are below 2^98): both halved together until they fit 63 bits (a shift of both by
  /// the same count, as ratio_wide's halving steps), then one unsigned rounded division.
  /// Always inlined into the estimators' loops (a call there costs about a third of an ACK).
  template <Number T>
  [[nodiscard, gnu::always_inline]] constexpr T utilisation(const int_util_key& k, duration period,
                                                            T umax) const noexcept {
    if constexpr (requires {
                    T::fraction_bits;
                    T::raw_max;
                    T::from_raw(std::int64_t{});
                  }) {
      if (k.exact) {
        u128 n = u128{k.n} * 8'000'000'000U;
        u128 d = u128{k.e} * t;
        // Both below 2^63 (the common case, tested on their 64-bit halves): no shift.
        const auto hi = static_cast<std::uint64_t>(n >> 64) | static_cast<std::uint64_t>(d >> 64);
        if ((hi | ((static_cast<std::uint64_t>(n) | static_cast<std::uint64_t>(d)) >> 63)) != 0) {
          const int wn = int_util_width128(n), wd = int_util_width128(d);
          const int sh = (wn > wd ? wn : wd) - 63;
          n >>= sh;
          d >>= sh;
        }
        if (d == 0) return n > 0 ? umax : num<T>(0);
        // d < 2^63: one 128/64-bit division when the quotient fits 64 bits; a larger one is
        // above raw_max, so u saturates there and the clamp gives umax (<= raw_max).
        const u128 x = (n << T::fraction_bits) + d / 2;
        const auto d64 = static_cast<std::uint64_t>(d);
        if (static_cast<std::uint64_t>(x >> 64) >= d64) return umax;
        const std::uint64_t q = udiv_128_64(x, d64);
        const auto lim = static_cast<std::uint64_t>(T::raw_max);
        const T u = T::from_raw(static_cast<std::int64_t>(q > lim ? lim : q));
        return u > umax ? umax : u;
      }
    }
    return hop_utilisation<T>(k.dtx, k.dt, k.qmin, k.b, period, umax);
  }
};

/// The chosen hop's u' (HPCC Algorithm 1 lines 5-6 for the hop lines 7-8 keep), as
/// int_util_scale::utilisation gives it for an exact key `k` of a hop with B > 0 and dt > 0
/// over a T in [1, 2^34) (the estimator's exact keys), bit for bit. When n < 2^30 and
/// e T < 2^63, its numerator n 8e9 (< 2^63) and denominator e T (>= 1: e = B dt >= 1) both fit
/// 63 bits, so utilisation takes no shift: the same one 128/64-bit division of
/// n 8e9 2^F + floor(e T / 2), from the two 64-bit products without its 128-bit ones and
/// width tests; its clamps, to raw_max then to umax (<= raw_max), are one to umax. Other keys:
/// int_util_scale::utilisation itself.
template <Number T>
[[nodiscard, gnu::always_inline]] constexpr T int_util_chosen(const int_util_key& k, duration t,
                                                              T umax) noexcept {
  if constexpr (requires {
                  T::fraction_bits;
                  T::raw_max;
                  T::from_raw(std::int64_t{});
                }) {
    if constexpr (T::fraction_bits >= 0 && T::fraction_bits < 64) {
      const auto ut = static_cast<std::uint64_t>(t.count());
      std::uint64_t d = 0;
      if (k.exact && k.n < (std::uint64_t{1} << 30) && ut - 1 < (std::uint64_t{1} << 34) - 1 &&
          !__builtin_mul_overflow(k.e, ut, &d) && d - 1 < (std::uint64_t{1} << 63) - 1) {
        const std::uint64_t n = k.n * 8'000'000'000U;  // < 2^63
        // n 2^F + floor(d / 2) from its two 64-bit halves (shl_add_halves), in registers.
        const u128_halves x = shl_add_halves<T::fraction_bits>(n, d / 2);
        if (x.hi >= d) return umax;  // quotient beyond 64 bits
        const std::uint64_t q = udiv_128_64(x.hi, x.lo, d);
        const auto lim = static_cast<std::uint64_t>(umax.raw());
        // min(q, umax raw) lies in [0, umax raw], umax a positive T: in range.
        return raw_in_range<T>(static_cast<std::int64_t>(q > lim ? lim : q));
      }
    }
  }
  return int_util_scale{t}.template utilisation<T>(k, t, umax);
}

/// The previous INT record of one hop at wire width (netcc::int_wire_format `Wire`): the hop's
/// 64-bit wire word (rate code, timestamp, tx counter, queue length in the wire's units), as the
/// compact controllers keep it. Its path-change key is the rate code; its queue length is the
/// wire's (whole `Wire::q_unit` units, saturating at Wire::max_qlen). For hops as the wire
/// format decodes them (netcc::int_wire_format::decode_hop, make_hop) it holds the same values
/// as netcc::detail::powertcp_hop_record: the same samples.
template <class Wire>
struct int_wire_record {
  static_assert(Wire::max_qlen.count() <= 0xFFFF'FFFFLL,
                "int_wire_record: the wire's largest queue length must fit 32 bits of bytes");
  static constexpr unsigned tx_shift = Wire::q_bits;
  static constexpr unsigned ts_shift = Wire::q_bits + Wire::tx_bits;
  static constexpr unsigned code_shift = ts_shift + Wire::ts_bits;

  std::uint64_t word = 0;

  [[nodiscard]] static constexpr std::uint64_t key_of(const int_hop& h) noexcept {
    return Wire::rate_code(h.link_rate);
  }
  [[nodiscard]] constexpr std::uint64_t key() const noexcept { return word >> code_shift; }
  /// key_of(h) == k, the path-change test, without computing key_of(h) (Wire::rate_code_is).
  [[nodiscard]] static constexpr bool key_is(const int_hop& h, std::uint64_t k) noexcept {
    return Wire::rate_code_is(h.link_rate, k);
  }
  [[nodiscard]] constexpr std::uint32_t qlen_bytes() const noexcept {
    return static_cast<std::uint32_t>((word & modular<Wire::q_bits>::mask) *
                                      static_cast<std::uint64_t>(Wire::q_unit));
  }
  [[nodiscard]] constexpr std::uint64_t ts() const noexcept {
    return (word >> ts_shift) & modular<Wire::ts_bits>::mask;
  }
  [[nodiscard]] constexpr std::uint64_t tx() const noexcept {
    return (word >> tx_shift) & modular<Wire::tx_bits>::mask;
  }
  constexpr void store(const int_hop& h) noexcept { word = Wire::encode_hop(h); }
  /// As store(h), with the rate code already computed (`key`); `q` is unused (the wire's
  /// queue field is taken from h.qlen).
  constexpr void store_raw(const int_hop& h, std::uint32_t, std::uint64_t key) noexcept {
    word = Wire::pack(h.ts, h.tx_bytes, h.qlen, key);
  }
  // A hop read from a word of this format (Wire::word_stack): its canonical word is what the
  // overloads above would pack from its fields, so it is kept as it came, and its rate code is
  // the word's.
  [[nodiscard]] static constexpr std::uint64_t key_of(const typename Wire::word_hop& h) noexcept {
    return h.word >> code_shift;
  }
  [[nodiscard]] static constexpr bool key_is(const typename Wire::word_hop& h,
                                             std::uint64_t k) noexcept {
    return key_of(h) == k;
  }
  constexpr void store(const typename Wire::word_hop& h) noexcept { word = h.word; }
  constexpr void store_raw(const typename Wire::word_hop& h, std::uint32_t,
                           std::uint64_t) noexcept {
    store(h);
  }
};
static_assert(sizeof(int_wire_record<hpcc_int_format>) == 8);

/// HPCC Algorithm 1 lines 7-8 for a hop with an exact key (kn, ke) against an exact best (bn,
/// be, its clamp test bsat: 0 not yet run, 1 below, 2 at; `have` false when there is none yet):
/// true, with the best replaced by the hop, when the hop's u' is above the best's clamped u'.
/// clamp(u_k) > clamp(u_b) iff u_k > u_b and u_b < umax, so the best's clamp test runs only when
/// a later hop is larger (n_k e_b > n_b e_k), and ties keep the earlier hop. `ut` is T (below
/// 2^34 for exact keys).
[[nodiscard, gnu::always_inline]] constexpr bool int_util_take_exact(
    std::uint64_t kn, std::uint64_t ke, std::uint64_t ut, bool have, std::uint64_t& bn,
    std::uint64_t& be, std::uint8_t& bsat) noexcept {
  bool take = !have;
  if (!take && u128{kn} * be > u128{bn} * ke) {  // u'_k > u'_best, unclamped
    if (bsat == 0) bsat = u128{bn} * 8'000'000'000U >= u128{be} * (ut << 30) ? 2 : 1;
    take = bsat == 1;  // a best at the clamp is not exceeded
  }
  if (take) {
    bn = kn;
    be = ke;
    bsat = 0;
  }
  return take;
}

/// The state int_util_sample's pass over the hops carries from hop to hop, handed to the general
/// pass (int_util_rest) by value: the best hop so far (its tau and validity; its u when its key
/// is not exact), that hop's key (fixed point) and its clamp test, the records still describing
/// this ACK's hops, and whether a changed link rate made the whole path be forgotten (HPCC).
template <Number T>
struct int_util_pass {
  utilisation_sample<T> best;
  int_util_key key;
  std::uint8_t best_sat;  // the best's clamp test: 0 not yet run, 1 below, 2 at
  std::size_t keep;       // records still describing the same hops as this ACK's
  bool forget;            // a whole path was forgotten: no sample
};

/// Hops [i0, n) of int_util_sample's pass (MeasureInflight, HPCC Algorithm 1 lines 2-8 /
/// FastTune Algorithm 2 lines 2-8) over the records `rec`; `best`, `key`, `best_sat`, `keep` and
/// `forget` (int_util_pass's fields) hold the state after hop i0 - 1 and are updated. Double and
/// the general fixed-point pass (`General`) compare every hop as it comes and return n. The
/// fast fixed-point pass (`General` false, from an empty best) handles hops whose key fits 64
/// bits (every hop of a real path: int_util_key's exact keys) and returns the index of the first
/// other one, its record untouched (n when there is none): the caller hands the rest to the
/// general pass, out of line (int_util_rest), so the common loop carries neither the general
/// comparison's code nor the registers it needs. Instructions per ACK at 1 / 5 hops (one flow,
/// callgrind): HPCC q32 240 / 616 -> 220 / 550, FastTune q32 269 / 593 -> 249 / 537,
/// hpcc_compact over wire words 264 / 656 -> 243 / 563, fasttune_compact 283 / 622 -> 269 /
/// 557. Both passes take the same decisions on every hop.
template <bool General, Number T, int_path Path, class Clock, class Counter, class Record,
          std::size_t MaxHops, class E>
[[gnu::always_inline]] constexpr std::size_t int_util_hops(
    const E& e, std::size_t i0, std::size_t n, duration t, std::array<Record, MaxHops>& rec,
    utilisation_sample<T>& best_out, int_util_key& key, std::uint8_t& best_sat,
    std::size_t& keep_out, bool& forget) noexcept {
  using ft = feedback_traits<E>;
  constexpr bool fixed = !std::is_same_v<T, double>;
  const T umax = int_utilisation_max<T>();
  // T for the exact keys (int_util_scale's t; keys are exact only for 0 < T < 2^34), without
  // the scale's T 2^30, which only a later larger hop needs.
  [[maybe_unused]] const std::uint64_t ut =
      t.count() > 0 ? static_cast<std::uint64_t>(t.count()) : 0;
  [[maybe_unused]] const bool t_exact = ut - 1 < (std::uint64_t{1} << 34) - 1;
  [[maybe_unused]] int_util_key_double dkey{0, 0, 0, false, 0, 0, {}};
  if constexpr (!fixed) dkey.sat_scale = umax * static_cast<double>(t.count());
  utilisation_sample<T> best = best_out;
  std::size_t keep = keep_out;
  // The fast pass: no key is exact unless 0 < T < 2^34 (then the general pass from hop i0,
  // no record touched). Its best hop's key, clamp test and tau, in registers (key, best_sat
  // and best at its end); e = B dt >= 1 for a hop with a key, so be == 0 means no best yet.
  if constexpr (fixed && !General) {
    if (!t_exact) return i0;
  }
  [[maybe_unused]] std::uint64_t bn = key.n, be = key.e;
  [[maybe_unused]] std::uint8_t bsat = best_sat;
  [[maybe_unused]] duration btau = best.tau;

  for (std::size_t i = i0; i < n; ++i) {
    const auto& h = ft::hop(e, i);  // a word_hop of a word stack reaches Record's overloads
    Record& r = rec[i];
    const auto rate = r.key();  // h's key while the hop is the same (Record::key_is)
    const std::uint32_t q = powertcp_qlen32_fast(h.qlen);
    if (i >= keep || !Record::key_is(h, rate)) {  // a new hop, or a changed rate
      if (i < keep) {  // a link rate changed: a path change from hop i on
        if constexpr (Path == int_path::whole) {
          for (std::size_t j = 0; j < n; ++j) rec[j].store(ft::hop(e, j));  // forget the path
          forget = true;
          return n;
        } else {
          keep = i;  // the hops before i are the same; from i on, a new path
        }
      }
      r.store_raw(h, q, Record::key_of(h));  // first sight of this hop (or path): no sample
      continue;
    }
    const duration dt = Clock::diff(h.ts, r.ts());  // ack.L[i].ts - L[i].ts
    if (dt <= duration::zero()) {
      if (dt < duration::zero()) r.store_raw(h, q, rate);  // reordered or beyond half: resync
      continue;                                            // dt == 0: a duplicate; keep the Record
    }
    const std::uint32_t rq = r.qlen_bytes();
    const std::uint32_t qmin = q < rq ? q : rq;  // min(ack.L[i].qlen, L[i].qlen)
    const std::int64_t dtx = Counter::delta_bytes(h.tx_bytes, r.tx());  // txBytes delta
    if constexpr (fixed) {
      // The key's n and e in 64 bits (the common case: scale.key's exact keys, without its
      // 128-bit products and struct), compared against an exact best (int_util_take_exact, as
      // scale.above decides it).
      const auto udt = static_cast<std::uint64_t>(dt.count());
      const auto udtx = static_cast<std::uint64_t>(dtx < 0 ? 0 : dtx);
      std::uint64_t qn = 0, tn = 0, kn = 0, ke = 0;
      const bool exact =
          (!General || t_exact) && !__builtin_mul_overflow(std::uint64_t{qmin}, udt, &qn) &&
          !__builtin_mul_overflow(udtx, ut, &tn) && !__builtin_add_overflow(qn, tn, &kn) &&
          !__builtin_mul_overflow(static_cast<std::uint64_t>(h.link_rate.bps()), udt, &ke);
      if constexpr (!General) {
        // The fast pass's best is always exact: it stops before the first inexact key.
        if (!exact && h.link_rate > bit_rate::zero()) {  // hand over, its record untouched
          if (be != 0) {
            best_out.valid = true;
            best_out.tau = btau;
          }
          keep_out = keep;
          key.n = bn;
          key.e = be;
          key.exact = be != 0;
          best_sat = bsat;
          return i;
        }
        r.store_raw(h, q, rate);
        if (h.link_rate <= bit_rate::zero()) continue;  // B = 0: cannot normalise this hop
        if (int_util_take_exact(kn, ke, ut, be != 0, bn, be, bsat)) btau = dt;  // lines 7-8
        continue;
      }
      r.store_raw(h, q, rate);
      if (h.link_rate <= bit_rate::zero()) continue;  // B = 0: cannot normalise this hop
      if (exact && (!best.valid || key.exact)) {
        if (int_util_take_exact(kn, ke, ut, best.valid, key.n, key.e, best_sat)) {  // lines 7-8
          best.valid = true;
          best.tau = dt;
          key.exact = true;
        }
      } else if constexpr (General) {
        const int_util_scale scale{t};
        const int_util_key k = scale.key(static_cast<std::int64_t>(udtx), dt, qmin, h.link_rate);
        if (!best.valid || scale.above(k, key, best.u, t, umax)) {  // lines 7-8
          best.valid = true;
          best.tau = dt;
          key = k;
          best_sat = k.exact ? (k.sat ? 2 : 1) : 0;
          if (!k.exact) best.u = scale.template utilisation<T>(k, t, umax);
        }
      }
    } else {
      r.store_raw(h, q, rate);
      if (h.link_rate <= bit_rate::zero()) continue;  // B = 0: cannot normalise this hop
      // u' = n * 8e9 / (e * T): compared across hops by cross-multiplication, clamped at
      // umax (n * 8e9 >= umax * e * T); only the chosen hop's u' is divided out below.
      const double ddt = static_cast<double>(dt.count());
      const double kn = static_cast<double>(qmin) * ddt +
                        static_cast<double>(dtx < 0 ? 0 : dtx) * static_cast<double>(t.count());
      const double ke = static_cast<double>(h.link_rate.bps()) * ddt;
      const bool ks = kn * 8e9 >= dkey.sat_scale * ke;
      if (!best.valid || (!dkey.sat && (ks || kn * dkey.e > dkey.n * ke))) {  // lines 7-8
        best.valid = true;
        best.tau = dt;
        dkey = {kn, ke, dkey.sat_scale, ks, qmin, dtx, h.link_rate};
      }
    }
  }
  if constexpr (!fixed) {
    if (best.valid) best.u = hop_utilisation<T>(dkey.dtx, best.tau, dkey.qmin, dkey.b, t, umax);
  }
  if constexpr (fixed && !General) {  // the fast pass's registers into the caller's state
    if (be != 0) {
      best.valid = true;
      best.tau = btau;
    }
    key.n = bn;
    key.e = be;
    key.exact = be != 0;
    best_sat = bsat;
  }
  best_out = best;
  keep_out = keep;
  return n;
}

/// The general pass over hops [i, n) after the fast one stopped at hop i (int_util_hops): out of
/// line and cold, it runs only for a hop whose key does not fit 64 bits (T of 2^34 ns or more,
/// or n_i, e_i beyond 2^64: never on a real path).
template <Number T, int_path Path, class Clock, class Counter, class Record, std::size_t MaxHops,
          class E>
[[gnu::noinline, gnu::cold]] constexpr int_util_pass<T> int_util_rest(
    const E& e, std::size_t i, std::size_t n, duration t, std::array<Record, MaxHops>& rec,
    int_util_pass<T> p) noexcept {
  int_util_hops<true, T, Path, Clock, Counter>(e, i, n, t, rec, p.best, p.key, p.best_sat, p.keep,
                                               p.forget);
  return p;
}

/// MeasureInflight over a flow's records (netcc::int_utilisation::sample, and the compact
/// controllers' wire-width records): one pass over the hops (int_util_hops); the records, the
/// hop count, U and whether U holds a sample are the caller's (by reference). Fixed point: the
/// most congested hop is chosen by comparing u' exactly through cross-multiplication,
/// u'_i = n_i * 8e9 / (e_i * T) with n_i = qmin_i * dt_i + dtx_i * T and e_i = B_i * dt_i (T and
/// 8e9 are common to every hop), so only the chosen hop's u' is divided out
/// (detail::hop_utilisation, exact as before). A hop whose n_i or e_i exceeds 64 bits (never on
/// a real path) is compared by its value instead, in the general pass. Double: the same
/// comparison in floating point.
/// Always inlined, as the estimator's sample() and the controllers' on_ack that call it: where a
/// translation unit calls on_ack from two places (bench/int_window.cpp with its two ACK rings),
/// g++ kept this or its caller out of line (FastTune q32: 256 -> 314 instructions per ACK).
template <Number T, int_path Path, class Clock, class Counter, class Record, std::size_t MaxHops,
          class E, class Div>
[[gnu::always_inline]] constexpr utilisation_sample<T> int_util_sample(
    const E& e, duration t, const Div* t_div, std::array<Record, MaxHops>& rec,
    std::uint8_t& count_out, T& u_out, bool& have_u_out) noexcept {
  // The caller's count, U and flag are read once and written once (locals: the records' stores
  // cannot alias them).
  std::uint8_t count = count_out;
  using ft = feedback_traits<E>;
  const std::size_t n = ft::hop_count(e);
  if (n > MaxHops) {  // cannot hold this path: forget it, no sample
    count_out = 0;
    return {};
  }
  std::size_t keep = count;  // records still describing the same hops as this ACK's
  if constexpr (Path == int_path::whole) {
    if (keep != n) keep = 0;
  } else {
    if (keep > n) keep = n;
  }
  utilisation_sample<T> best;
  int_util_key key{};         // fixed point: the chosen hop's inputs
  std::uint8_t best_sat = 0;  // its clamp test: 0 not yet run, 1 below, 2 at
  bool forget = false;
  if constexpr (std::is_same_v<T, double>) {
    int_util_hops<true, T, Path, Clock, Counter>(e, 0, n, t, rec, best, key, best_sat, keep,
                                                 forget);
  } else {
    const std::size_t stop = int_util_hops<false, T, Path, Clock, Counter>(
        e, 0, n, t, rec, best, key, best_sat, keep, forget);
    if (stop < n) [[unlikely]] {  // an inexact key at hop `stop`: the general pass from there
      const int_util_pass<T> p = int_util_rest<T, Path, Clock, Counter>(
          e, stop, n, t, rec, int_util_pass<T>{best, key, best_sat, keep, forget});
      best = p.best;
      key = p.key;
      keep = p.keep;
      forget = p.forget;
    }
  }
  if constexpr (Path == int_path::whole) {
    if (forget) {
      count_out = static_cast<std::uint8_t>(n);
      return {};
    }
  }
  if constexpr (!std::is_same_v<T, double>) {
    if (best.valid && key.exact) best.u = int_util_chosen<T>(key, t, int_utilisation_max<T>());
  }
  if constexpr (Path == int_path::whole) {
    count = static_cast<std::uint8_t>(n);
  } else {
    if (n > count || keep < n) count = static_cast<std::uint8_t>(n);
    // A prefix ACK whose hops all matched keeps the longer stored path.
  }
  count_out = count;
  if (best.valid) {
    // line 9: tau = min(tau, T); line 10: U = (1 - tau/T) U + (tau/T) u
    if (have_u_out) {
      const T u = u_out;
      u_out = int_ewma_step(u, best.u, int_time_weight<T>(best.tau, t, t_div));
    } else {
      u_out = best.u;
      have_u_out = true;
    }
  }
  return best;
}

}  // namespace detail

/// @brief HPCC's MeasureInflight (Algorithm 1) = FastTune's Algorithm 2 lines 2-10: per-hop
/// records, the most congested hop's utilisation, and its EWMA U over T.
///
/// Per-flow state: one 16-byte record per hop when the stack's timestamp and counter widths
/// fit one word together (HPCC's 24 + 20 bits), 24 bytes otherwise; U; the hop count.
/// @tparam T     number type (the controller's arithmetic policy)
/// @tparam Stack INT stack type of the events (clock and counter traits, capacity)
/// @tparam Path  netcc::int_path::whole (HPCC) or netcc::int_path::prefix (FastTune)
/// @code
/// netcc::int_utilisation<double, netcc::int_stack<>, netcc::int_path::whole> est;
/// est.sample(ack, netcc::duration{28'000});
/// if (est.has_value()) { double U = est.value(); }
/// @endcode
template <Number T, class Stack = int_stack<>, int_path Path = int_path::whole>
class int_utilisation {
  using clock = typename Stack::timestamp_clock;
  using counter = typename Stack::tx_counter;
  using record = detail::powertcp_hop_record<clock, counter>;

 public:
  /// @brief The INT stack type of the events.
  using stack_type = Stack;
  /// @brief Capacity in hops.
  static constexpr std::size_t max_hops = Stack::max_hops;
  /// @brief The path mode.
  static constexpr int_path path_mode = Path;
  /// @brief Events this estimator reads: INT ACKs whose clock and counter traits are the
  /// stack's.
  template <class E>
  static constexpr bool accepts = IntFeedbackFor<E, Stack>;

  /// @brief MeasureInflight(ack): the most congested hop's u' and tau (HPCC Alg. 1 lines 2-8,
  /// FastTune Alg. 2 lines 2-8), folded into U (lines 9-10 with the tau/T weight on u; see
  /// netcc::basic_fasttune for FastTune's printed line 10); stores the ACK's records as `L` /
  /// `Last` (HPCC line 22, FastTune line 19).
  /// @param e the ACK
  /// @param t T, the base RTT the utilisation is measured over
  /// @return the sample (before smoothing)
  template <class E>
  requires accepts<E>
  [[gnu::always_inline]] constexpr utilisation_sample<T> sample(const E& e, duration t) noexcept {
    return sample_impl(e, t, static_cast<const detail::invariant_divisor*>(nullptr));
  }
  /// @brief As sample(e, t), with T's reciprocal precomputed (`t_div` holds t, t >= 1): the
  /// tau/T weight is then a multiplication (netcc::ratio_by: the same value as netcc::ratio).
  template <class E>
  requires accepts<E>
  [[gnu::always_inline]] constexpr utilisation_sample<T> sample(
      const E& e, duration t, const detail::invariant_divisor& t_div) noexcept {
    return sample_impl(e, t, &t_div);
  }
  /// @brief As sample(e, t, t_div.general()), the same values: for t in [2, 2^31] the tau/T
  /// weight is one multiply-high and a shift (detail::int_weight_divisor).
  template <class E>
  requires accepts<E>
  [[gnu::always_inline]] constexpr utilisation_sample<T> sample(
      const E& e, duration t, const detail::int_weight_divisor& t_div) noexcept {
    // Only fixed point takes the short form; other number types keep the general reciprocal
    // (the same instantiation as sample(e, t, t_div.general())).
    if constexpr (requires { T::fraction_bits; })
      return sample_impl(e, t, &t_div);
    else
      return sample_impl(e, t, &t_div.general());
  }

  /// @brief True once U holds a sample.  /// @brief True once U holds a sample.
  [[nodiscard]] constexpr bool has_value() const noexcept { return have_u_; }
  /// @brief U, the smoothed utilisation of the most congested hop (0 before the first sample).
  [[nodiscard]] constexpr T value() const noexcept { return u_; }
  /// @brief Hops with a stored record.
  [[nodiscard]] constexpr std::size_t hops() const noexcept { return count_; }

 private:
  // MeasureInflight in one pass over the hops (detail::int_util_sample, which the compact
  // controllers run on their wire-width records too).
  template <class E, class Div>
  [[gnu::always_inline]] constexpr utilisation_sample<T> sample_impl(const E& e, duration t,
                                                                     const Div* t_div) noexcept {
    return detail::int_util_sample<T, Path, clock, counter>(e, t, t_div, rec_, count_, u_, have_u_);
  }

  std::array<record, max_hops> rec_{};
  T u_{};
  std::uint8_t count_ = 0;
  bool have_u_ = false;
};

}  // namespace netcc
