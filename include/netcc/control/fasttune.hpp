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

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "netcc/control/controller_concepts.hpp"
#include "netcc/control/hpcc.hpp"
#include "netcc/control/int_utilisation.hpp"
#include "netcc/core/arith.hpp"
#include "netcc/core/feedback.hpp"
#include "netcc/core/int_wire.hpp"
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
  [[gnu::always_inline]] constexpr void on_ack(const E& e) noexcept {
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

/// @brief The FastTune sender in q32 with its per-flow state at wire width: 64 B at 5 hops on
/// HPCC's INT format, for arrays of many flows. The q32 sender's Algorithm 2 (the same
/// configuration, estimator in prefix-path mode, detail::int_util_sample, and Eq. 4,
/// detail::mimd_window) over a packed flow_state; the parameters and derived terms live in a
/// config shared by a class of flows.
///
/// Layout and the range of every narrowed field (as netcc::basic_hpcc_compact):
/// - `Last` (line 19): each hop's 64-bit wire word, 8 B per hop. Range: hops as the wire format
///   decodes them (a table rate, a queue length in whole wire units up to max_qlen).
/// - W^c and U: q32 as they are (8 B each).
/// - W is not stored: W = W^c after a reference update (lines 13, 17) or before the first
///   sample, and W^c / (U / eta) + W_AI (line 11) otherwise; window() recomputes it and the
///   event handler returns it.
/// - lastUpdateSeq: low 32 bits, compared modulo 2^32, plus an "armed" bit. Range: ack.seq within
///   2^31 - 1 B of the last armed lastUpdateSeq.
/// - the latest rule (3 bits), "U has a sample", "armed", SACKUpdate and the stored hop count
///   (7 bits): one 32-bit word.
///
/// Within those ranges every ACK takes the same rule as basic_fasttune<arith::q32, Wire::stack>
/// and leaves the same W, W^c and U bit for bit (tests/control/fasttune_compact_test.cpp).
/// Fed the INT as wire words (Wire::word_stack), it stores each hop's word as it came, with the
/// same state as from the decoded records (Wire::stack).
/// @tparam Wire the INT wire layout (netcc::int_wire_format; HPCC's by default)
/// @code
/// const netcc::fasttune_compact::config cfg{{.base_rtt = netcc::duration{16'000}}};
/// std::vector<netcc::fasttune_compact::flow_state> flows(1000, cfg.initial_state());  // 64 kB
/// cfg.on_ack(flows[3], sack);  // netcc::basic_ack_event<netcc::hpcc_int_format::stack>
/// netcc::bit_rate r = cfg.pacing_rate(flows[3]);
/// @endcode
template <class Wire = hpcc_int_format>
class basic_fasttune_compact {
 public:
  /// @brief The INT stack type of the events (the wire format's decoded stack).
  using stack_type = typename Wire::stack;
  /// @brief The q32 sender this form equals within its ranges.
  using wide_type = basic_fasttune<arith::q32, stack_type>;
  /// @brief The number type of the law (q32).
  using value_type = typename wide_type::value_type;
  /// @brief The parameter struct.
  using params_type = fasttune_params;
  /// @brief Events consumed: ACKs (host ACKs and S-ACKs) only.
  static constexpr event_set events = cc_event::ack;
  static_assert(Wire::max_hops <= 127, "basic_fasttune_compact: at most 127 hops (7-bit count)");

 private:
  using clock = typename stack_type::timestamp_clock;
  using counter = typename stack_type::tx_counter;
  using record = detail::int_wire_record<Wire>;
  using f_branch = detail::bit_field<0, 3>;
  using f_have_u = detail::bit_field<3, 1>;
  using f_armed = detail::bit_field<4, 1>;
  using f_sack = detail::bit_field<5, 1>;
  using f_count = detail::bit_field<6, 7>;

 public:
  /// @brief One flow's packed state (64 B at 5 hops, trivially copyable); see the class
  /// comment for each field's range. Read and change it through config.
  struct flow_state {
    std::array<record, Wire::max_hops> hops{};  ///< each hop's previous INT record, wire word
    value_type wc{};                            ///< W^c, the reference window (q32 bytes)
    value_type u{};                             ///< U, the smoothed utilisation (q32)
    std::uint32_t mark = 0;                     ///< lastUpdateSeq, low 32 bits
    std::uint32_t bits = 0;  ///< rule (bits 0-2), U valid (3), armed (4), SACKUpdate (5), hop
                             ///< count (6-12)
  };
  static_assert(std::is_trivially_copyable_v<flow_state>);

  /// @brief What a class of flows shares: the parameters and every derived constant, with
  /// Algorithm 2 as members taking one flow's state.
  class config {
   public:
    /// @brief The configuration for parameters `p` (invalid fields fall back to their
    /// defaults, as basic_fasttune; netcc::validate reports them).
    constexpr explicit config(const params_type& p = {}) noexcept : p_(p) {
      c_ = detail::make_int_window_config<value_type>(p_, params_type{});
    }

    /// @brief A new flow's state: W = W^c = W_init, SACKUpdate set, no record, no sample.
    [[nodiscard]] constexpr flow_state initial_state() const noexcept {
      flow_state st{};
      st.wc = c_.cwnd_init;
      f_sack::set(st.bits, 1U);
      return st;
    }
    /// @brief Reset `st` to a new flow's state.
    constexpr void init(flow_state& st) const noexcept { st = initial_state(); }

    /// @brief HANDLEACK(ack), Algorithm 2 lines 1-20 (basic_fasttune::on_ack) on `st`;
    /// returns W. Always inlined into the caller, as hpcc_compact's (over wire words: 310 / 656
    /// -> 283 / 622 instructions per ACK at 1 / 5 hops).
    template <class E>
    requires IntFeedbackFor<E, stack_type>
    [[gnu::always_inline]] constexpr value_type on_ack(flow_state& st, const E& e) const noexcept {
      using ft = feedback_traits<E>;
      bool from_switch = false;
      if constexpr (SwitchAckFeedback<E>) from_switch = ft::switch_ack(e);
      std::uint8_t count = static_cast<std::uint8_t>(f_count::get(st.bits));
      bool have_u = f_have_u::get(st.bits) != 0;
      detail::int_util_sample<value_type, int_path::prefix, clock, counter>(
          e, c_.t, &c_.t_div, st.hops, count, st.u, have_u);  // lines 2-10, 19
      std::uint32_t bits = st.bits;
      f_count::set(bits, count);
      f_have_u::set(bits, have_u ? 1U : 0U);
      if (!have_u) {
        f_branch::set(bits, static_cast<std::uint32_t>(fasttune_branch::hold));
        st.bits = bits;
        return st.wc;
      }
      const value_type w = detail::mimd_window(st.wc, st.u, c_);  // line 11
      auto br = fasttune_branch::window;
      if (from_switch) {
        if (f_sack::get(bits) != 0) {  // lines 12-14
          br = fasttune_branch::reference_switch;
          st.wc = w;
          f_sack::set(bits, 0U);
        }
      } else if (detail::seq32_passed(ft::ack_seq(e), st.mark, f_armed::get(bits) != 0)) {
        br = fasttune_branch::reference_ack;                   // line 16
        st.wc = w;                                             // line 17
        st.mark = static_cast<std::uint32_t>(ft::snd_nxt(e));  // line 18
        f_armed::set(bits, 1U);
      }
      f_branch::set(bits, static_cast<std::uint32_t>(br));
      st.bits = bits;
      return w;
    }

    /// @brief W as the law computed it on the latest ACK (see the class comment).
    [[nodiscard]] constexpr value_type window(const flow_state& st) const noexcept {
      return last_branch(st) == fasttune_branch::window ? detail::mimd_window(st.wc, st.u, c_)
                                                        : st.wc;
    }
    /// @brief The window W in whole bytes (rounded down), within [min_cwnd, max_cwnd].
    [[nodiscard]] constexpr bytes cwnd(const flow_state& st) const noexcept {
      return bytes{static_cast<std::int64_t>(to_double(window(st)))};
    }
    /// @brief R = W / T (line 20), within [min_rate, host_rate], at least 1 bps.
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
    /// @brief SACKUpdate: true until a switch ACK has set the reference window.
    [[nodiscard]] constexpr bool sack_update(const flow_state& st) const noexcept {
      return f_sack::get(st.bits) != 0;
    }
    /// @brief The rule of Algorithm 2 the latest ACK ran.
    [[nodiscard]] constexpr fasttune_branch last_branch(const flow_state& st) const noexcept {
      return static_cast<fasttune_branch>(f_branch::get(st.bits));
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
  constexpr explicit basic_fasttune_compact(const params_type& p = {}) noexcept
      : cfg_(p), s_(cfg_.initial_state()) {}

  /// @brief HANDLEACK(ack) (config::on_ack on this flow).
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
  /// @brief SACKUpdate.
  [[nodiscard]] constexpr bool sack_update() const noexcept { return cfg_.sack_update(s_); }
  /// @brief The rule of Algorithm 2 the latest ACK ran.
  [[nodiscard]] constexpr fasttune_branch last_branch() const noexcept {
    return cfg_.last_branch(s_);
  }
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

/// @brief The FastTune sender in q32 with a 64-B per-flow state on HPCC's INT wire format.
using fasttune_compact = basic_fasttune_compact<>;

// Per-flow state budget of the compact form: 64 B at 5 hops (five 8-B wire records, W^c and U in
// q32, a 32-bit lastUpdateSeq, one word of rule, flags and hop count).
static_assert(sizeof(fasttune_compact::flow_state) <= 64,
              "fasttune_compact: per-flow state within 64 B");
static_assert(fasttune_compact::state_bytes == sizeof(fasttune_compact::flow_state));

}  // namespace netcc
