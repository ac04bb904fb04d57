// SPDX-License-Identifier: MIT
/// @file
/// @brief FastTune sender: MI/MD window control from INT padded into host and switch ACKs.
///
/// Paper: Xiaocheng Zhou, Dezun Dong, Xiangyu Huang, Chenglong Bai, "FastTune: Timely and
/// Precise Congestion Control in Data Center Network", §III-C (host), Algorithm 2, Eq. 1-4.
/// The switch half (S-ACK generation, ACK padding, Algorithm 1) is netcc/fabric/fasttune_switch.hpp.
///
/// What is implemented (Algorithm 2, per ACK)
/// - Lines 2-10: the utilisation U of the most congested hop, through netcc::int_utilisation
///   (shared with HPCC) in netcc::int_path::prefix mode: an S-ACK carries the INT of the switches
///   up to the one that made it (§III-B.1), so its hops are the first hops of the path.
/// - Line 11 (Eq. 4): \f$ W = W^c / (U/\eta) + W_{AI} \f$ on every ACK.
/// - Lines 12-14: the first S-ACK sets the reference window W^c = W, once (SACKUpdate).
/// - Lines 15-18: a host ACK with ack.seq > lastUpdateSeq sets W^c = W and
///   lastUpdateSeq = snd_nxt (the per-RTT update of §III-C.2).
/// - Line 20: R = W / T.
///
/// Defaults (netcc::fasttune_params) and their sources
/// - eta = 0.95 and W_AI = BDP * (1 - eta) / N: §V-A "Parameters" (HPCC's; FastTune has no
///   maxStage). `w_ai = 0` means "derive it".
/// - W_init = W^c_init = BDP (Algorithm 2 caption), BDP = HostBw * T.
/// - HostBw = 10 Gbps, T = 16 us: §V-A (10 Gbps host links; 2 us between adjacent nodes, so
///   host-leaf-spine-leaf-host is 8 us one way).
/// - N (expected_flows) = 1: no paper value; set it to the expected number of flows on a link.
/// - max_cwnd = HostBw * T (as HPCC, whose parameters FastTune takes: the rate is capped at the
///   NIC rate and R = W / T); min_cwnd = 1500 B (netcc: one MTU).
///
/// Deviations from the paper, and why
/// - Algorithm 2 line 10 as printed is \f$ U = (1 - \tau/T)\,U + u \f$, without the
///   \f$ \tau/T \f$ weight on u that an EWMA has; taken literally, constant feedback u makes U
///   settle at \f$ u\,T/\tau \f$, not u. The text calls line 10 an exponentially weighted moving
///   average, and HPCC's identical line has the weight, so netcc implements
///   \f$ U = (1 - \tau/T)\,U + (\tau/T)\,u \f$ (tests/control/fasttune_test.cpp shows U settling
///   at u under constant feedback).
/// - Lines 12-18 as printed send an S-ACK that finds SACKUpdate false into the per-RTT branch,
///   where its sequence number would be compared with lastUpdateSeq. A switch-made ACK
///   acknowledges no data, and §III-C.2 says "the switch ACK can update the reference window
///   only once"; netcc lets only host ACKs take the per-RTT branch.
/// - Algorithm 2 lines 7-8 start from u = 0; an idle path would leave tau unset. See
///   netcc::int_utilisation for this and the other decisions on samples (first ACK, dt <= 0,
///   path changes, wrapped counters).
/// - Before U has a sample the window stays at W_init, and neither SACKUpdate nor lastUpdateSeq
///   is consumed.
/// - An ACK type without a `switch_ack` accessor (netcc::SwitchAckFeedback) is read as a host ACK.
///
/// @code
/// using namespace netcc::literals;
/// netcc::fasttune cc{{.host_rate = 100_Gbps, .base_rtt = 8_us, .expected_flows = 4}};
/// netcc::ack_event sack{.now = netcc::timestamp{3'000}, .switch_ack = true};
/// sack.hops.push({.ts = 3'000, .qlen = 0_B, .tx_bytes = 0, .link_rate = 100_Gbps});
/// cc.on_ack(sack);
/// netcc::bytes w = cc.cwnd();
/// @endcode
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "netcc/control/controller_concepts.hpp"
#include "netcc/control/hpcc.hpp"
#include "netcc/control/int_utilisation.hpp"
#include "netcc/core/arith.hpp"
#include "netcc/core/feedback.hpp"
#include "netcc/core/per_rtt.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/validation.hpp"

namespace netcc {

/// @brief Parameters of the FastTune sender, with the defaults of FastTune §V-A.
/// Zero in `w_ai`, `cwnd_init` or `max_cwnd` means "derive it as the paper does".
/// @code
/// using namespace netcc::literals;
/// netcc::fasttune_params p{.host_rate = 100_Gbps, .base_rtt = 8_us, .expected_flows = 4};
/// // BDP = 100000 B; W_AI = 100000 * 0.05 / 4 = 1250 B
/// @endcode
struct fasttune_params {
  /// @brief eta, the expected link utilisation (§V-A: 0.95, HPCC's).
  double eta = 0.95;
  /// @brief HostBw, the NIC bandwidth (§V-A: 10 Gbps host links).
  bit_rate host_rate{10'000'000'000};
  /// @brief T, the base RTT (§V-A: 4 links of 2 us each way, 16 us).
  duration base_rtt{16'000};
  /// @brief N, the maximum number of concurrent flows on a link (no paper value; 1).
  std::int64_t expected_flows = 1;
  /// @brief W_AI; 0 derives BDP * (1 - eta) / N (§III-C.2).
  bytes w_ai{0};
  /// @brief Initial W and W^c; 0 derives the BDP (Algorithm 2 caption).
  bytes cwnd_init{0};
  /// @brief Smallest window (netcc: one MTU).
  bytes min_cwnd{1500};
  /// @brief Largest window; 0 derives HostBw * T (the NIC rate cap).
  bytes max_cwnd{0};
  /// @brief Smallest pacing rate.
  bit_rate min_rate{0};
};

/// @brief Check FastTune sender parameters; every error names "fasttune.<field>", the value and
/// the rule.
/// @code
/// auto v = netcc::validate(netcc::fasttune_params{.expected_flows = 0});
/// // v[0].message() == "fasttune.expected_flows = 0: must be at least 1"
/// @endcode
[[nodiscard]] inline validation validate(const fasttune_params& p) {
  validation v;
  detail::validate_int_window(p, "fasttune.", v);
  return v;
}

/// @brief Which rule of Algorithm 1 the latest ACK ran (basic_fasttune::last_branch): the
/// decision record the double and q32 policies are checked to agree on
/// (tests/control/fasttune_test.cpp). One byte of per-flow state.
/// @code
/// if (cc.last_branch() == netcc::fasttune_branch::reference_switch) { /* lines 12-14 */ }
/// @endcode
enum class fasttune_branch : std::uint8_t {
  none,              ///< no ACK yet
  hold,              ///< no utilisation estimate yet: the window is unchanged
  window,            ///< line 11 only: W = W^c / (U/eta) + W_AI, W^c kept
  reference_switch,  ///< line 11 and lines 12-14: a switch ACK with SACKUpdate sets W^c = W
  reference_ack,     ///< line 11 and lines 16-18: ack.seq > lastUpdateSeq sets W^c = W
};

/// @brief The FastTune sender (Algorithm 2) over any arithmetic policy and INT stack.
///
/// Per ACK (`on_ack`), host ACK or switch ACK: U through netcc::int_utilisation, W from the
/// reference window (Eq. 4), W^c once from the first S-ACK and then once per RTT from host ACKs,
/// R = W / T. No allocation, no clock reads; cwnd() and pacing_rate() are finite and within
/// their limits after any event sequence.
/// @tparam Policy arithmetic policy (netcc::arith::ieee_double, netcc::arith::q32, ...)
/// @tparam Stack  the INT stack type of the events
/// @code
/// netcc::basic_fasttune<netcc::arith::q32> cc{};
/// cc.on_ack(ack);
/// auto r = cc.pacing_rate();
/// @endcode
template <ArithmeticPolicy Policy = arith::ieee_double, class Stack = int_stack<>>
class basic_fasttune {
 public:
  /// @brief The number type of the law.
  using value_type = typename Policy::value_type;
  /// @brief The utilisation estimator (shared with netcc::basic_hpcc), in prefix-path mode.
  using estimator_type = int_utilisation<value_type, Stack, int_path::prefix>;
  /// @brief The parameter struct.
  using params_type = fasttune_params;

  /// @brief A controller with parameters `p` (unchecked: invalid fields fall back to their
  /// defaults; netcc::make reports them instead).
  constexpr explicit basic_fasttune(const params_type& p = {}) noexcept {
    params_ = p;
    cfg_ = detail::make_int_window_config<value_type>(params_, params_type{});
    w_ = wc_ = cfg_.cwnd_init;
  }

  /// @brief Events consumed (netcc::controller_traits): ACKs (host ACKs and S-ACKs) only.
  static constexpr event_set events = cc_event::ack;

  /// @brief HANDLEACK(ack): Algorithm 2 lines 1-20, for host ACKs and switch ACKs alike. The
  /// ACK's INT stack must have the clock and counter traits of `Stack` (netcc::IntFeedbackFor);
  /// netcc::SwitchAckFeedback is optional (without it every ACK is a host ACK).
  template <class E>
  requires IntFeedbackFor<E, Stack>
  constexpr void on_ack(const E& e) noexcept {
    using ft = feedback_traits<E>;
    bool from_switch = false;
    if constexpr (SwitchAckFeedback<E>) from_switch = ft::switch_ack(e);
    est_.sample(e, cfg_.t, cfg_.t_div);  // lines 2-10; Last = ack.Info (line 19)
    branch_ = fasttune_branch::hold;
    if (!est_.has_value()) return;
    w_ = detail::mimd_window(wc_, est_.value(), cfg_);  // line 11: W = Wc / (U/eta) + W_AI
    branch_ = fasttune_branch::window;
    if (from_switch) {
      if (sack_update_) {  // lines 12-14
        branch_ = fasttune_branch::reference_switch;
        wc_ = w_;
        sack_update_ = false;
      }
    } else if (marker_.passed(ft::ack_seq(e))) {  // line 16: ack.seq > lastUpdateSeq
      branch_ = fasttune_branch::reference_ack;
      wc_ = w_;                     // line 17
      marker_.arm(ft::snd_nxt(e));  // line 18: lastUpdateSeq = snd_nxt
    }
  }

  /// @brief The window W in whole bytes (rounded down), within [min_cwnd, max_cwnd].
  [[nodiscard]] constexpr bytes cwnd() const noexcept {
    return bytes{static_cast<std::int64_t>(to_double(w_))};
  }
  /// @brief R = W / T (line 20), within [min_rate, host_rate], at least 1 bps
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
  /// @brief SACKUpdate: true until a switch ACK has set the reference window.
  [[nodiscard]] constexpr bool sack_update() const noexcept { return sack_update_; }
  /// @brief The rule of Algorithm 1 the latest ACK ran.
  [[nodiscard]] constexpr fasttune_branch last_branch() const noexcept { return branch_; }
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
  // Configuration (per class of flows in a NIC; kept here so the controller is one value).
  params_type params_{};
  detail::int_window_config<value_type> cfg_{};
  // Per-flow state: W, W^c, lastUpdateSeq, SACKUpdate, the estimator (U and Last).
  value_type w_{};
  value_type wc_{};
  per_rtt_marker marker_{};
  estimator_type est_{};
  bool sack_update_ = true;
  fasttune_branch branch_ = fasttune_branch::none;  // the rule the latest ACK ran

 public:
  /// @brief Bytes of per-flow state (W, W^c, lastUpdateSeq, SACKUpdate, U, the per-hop
  /// records, the branch record), as opposed to the configuration every flow of a class shares.
  static constexpr std::size_t state_bytes =
      2 * sizeof(value_type) + sizeof(per_rtt_marker) + sizeof(estimator_type) + 2;
};

/// @brief The FastTune sender with double arithmetic over netcc's own ACK events.
using fasttune = basic_fasttune<>;

// Per-flow state budget, as for HPCC: 64 B + 16 B per hop on the HPCC wire format, 64 B + 24 B
// per hop with 64-bit counters.
static_assert(
    basic_fasttune<arith::q32,
                   int_stack<5, wrapping_clock<24>, wrapping_counter<20, 128>>>::state_bytes <=
        64 + 16 * 5,
    "fasttune: per-flow state over the HPCC wire format within 64 B + 16 B per hop");
static_assert(fasttune::state_bytes <= 64 + 24 * 5,
              "fasttune: per-flow state within 64 B + 24 B per hop");

}  // namespace netcc
