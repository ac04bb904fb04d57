// SPDX-License-Identifier: MIT
/// @file
/// @brief Exponentially weighted moving average with the weight as a policy.
///
/// | weight policy            | weight of a new sample        | used by                          |
/// | ------------------------ | ----------------------------- | -------------------------------- |
/// | netcc::fixed_weight<T>   | a constant alpha              | TIMELY's RTT-difference filter, DCTCP's alpha, DCQCN's alpha |
/// | netcc::time_weight<T>    | min(max(dt, 0), period)/period | PowerTCP's power smoothing (Algorithm 1 line 23), HPCC's and FastTune's utilisation |
///
/// The update is \f$ v \leftarrow v + w\,(x - v) = (1 - w)\,v + w\,x \f$ and,
/// for time_weight, PowerTCP's `(smooth*(tau - dt) + sample*dt)/tau` with dt clamped to tau.
/// A weight of 0 (dt <= 0) leaves the value unchanged, so equal timestamps never divide by
/// zero; a weight of 1 (dt >= period) replaces it.
///
/// Sources: fixed weights as in DCTCP (SIGCOMM 2010) Eq. 1 and TIMELY (SIGCOMM'15) Algorithm 1 (the
/// rtt_diff filter); time weights as in PowerTCP (NSDI'22) Algorithm 1 line 23 and HPCC
/// (SIGCOMM'19) Algorithm 1 (MeasureInflight).
///
/// @code
/// netcc::ewma<double, netcc::time_weight<double>> p{{.period = netcc::duration{20'000}}, 1.0};
/// p.update(2.0, netcc::duration{10'000});   // halfway: 1.5
/// @endcode
#pragma once

#include "netcc/core/arith.hpp"
#include "netcc/core/units.hpp"

namespace netcc {

/// @brief EWMA weight policy: the same weight `alpha` for every sample.
/// @code
/// netcc::fixed_weight<double> w{.alpha = 1.0 / 16};
/// @endcode
template <Number T>
struct fixed_weight {
  /// @brief Weight of a new sample, in [0, 1].
  T alpha = num<T>(0.5);
  /// @brief The weight (clamped to [0, 1]).
  [[nodiscard]] constexpr T operator()() const noexcept {
    return clamp_num(alpha, num<T>(0), num<T>(1));
  }
};

/// @brief EWMA weight policy: a sample that covers `dt` of a `period` gets weight
/// min(max(dt, 0), period) / period.
/// @code
/// netcc::time_weight<double> w{.period = netcc::duration{8'000}};
/// double half = w(netcc::duration{4'000});   // 0.5
/// @endcode
template <Number T>
struct time_weight {
  /// @brief The averaging horizon (PowerTCP's and HPCC's tau, FastTune's T).
  duration period{1};
  /// @brief The weight of a sample spanning `dt`.
  [[nodiscard]] constexpr T operator()(duration dt) const noexcept {
    if (dt <= duration::zero() || period <= duration::zero()) {
      return period <= duration::zero() ? num<T>(1) : num<T>(0);
    }
    if (dt >= period) return num<T>(1);
    return ratio<T>(dt.count(), period.count());
  }
};

/// @brief An exponentially weighted moving average of samples of type T.
/// @tparam T      a netcc::Number
/// @tparam Weight fixed_weight<T> or time_weight<T> (or any callable returning T)
template <Number T, class Weight>
class ewma {
 public:
  /// @brief An average with weight policy `w`, starting at `initial`.
  constexpr explicit ewma(Weight w, T initial = T{}) noexcept : weight_(w), value_(initial) {}

  /// @brief Fold in `sample`; `args` are passed to the weight policy (e.g. dt).
  /// @return the new average
  template <class... Args>
  constexpr T update(T sample, Args... args) noexcept {
    const T w = weight_(args...);
    value_ = value_ + w * (sample - value_);
    return value_;
  }
  /// @brief The current average.
  [[nodiscard]] constexpr T value() const noexcept { return value_; }
  /// @brief Overwrite the average (e.g. on a path change).
  constexpr void reset(T v) noexcept { value_ = v; }
  /// @brief The weight policy.
  [[nodiscard]] constexpr const Weight& weight() const noexcept { return weight_; }

 private:
  Weight weight_;
  T value_;
};

}  // namespace netcc
