// SPDX-License-Identifier: MIT
// static_assert-only: DCTCP (netcc/control/dctcp.hpp) runs at compile time (no allocation, no
// clock, no exceptions) with both arithmetic policies and both alpha representations; the
// hand-computed alpha update and cut of tests/control/dctcp_test.cpp evaluated by the compiler;
// the per-flow state budget; the feedback concept it needs; the §3.3 helpers.
#include <netcc/control/dctcp.hpp>

#include <type_traits>

namespace netcc_tests::static_dctcp {

namespace {

template <class C>
constexpr double alpha_then_cut() {
  C cc{{.alpha_init = 0.0}};
  cc.on_ack(netcc::ack_event{.ack_seq = 7300, .snd_nxt = 14'600, .acked = netcc::bytes{7300}});
  cc.on_ack(netcc::ack_event{
      .ack_seq = 14'600, .snd_nxt = 30'000, .acked = netcc::bytes{7300}, .ecn_echo = true});
  return netcc::to_double(cc.window());
}

// Slow start to 21900; F = 0.5, alpha = 0 + 0.5/16 = 1/32; cwnd = 21900 * (1 - 1/64).
static_assert(alpha_then_cut<netcc::dctcp>() == 21'557.8125);
static_assert(alpha_then_cut<netcc::basic_dctcp<netcc::arith::q32>>() == 21'557.8125);
// Scaled: alpha = 0 - 0 + floor(7300 * 64 / 14600) = 32 units = 1/32 as well: the same cut.
static_assert(alpha_then_cut<netcc::dctcp_fixed>() == 21'557.8125);

template <class C>
constexpr bool timeout_to_one_mss() {
  C cc{};
  cc.on_timeout(netcc::timestamp{5});
  return cc.cwnd() == netcc::bytes{1460} && netcc::to_double(cc.ssthresh()) == 7300.0 &&
         cc.reductions() == 1u;
}
static_assert(timeout_to_one_mss<netcc::dctcp>());
static_assert(timeout_to_one_mss<netcc::dctcp_fixed>());

// Per-flow state: 32 B for the integer form (the compact state), 40 B for q32 with the exact
// alpha, 64 B for double; the state is trivially copyable and the controller is config + state.
static_assert(netcc::dctcp::state_bytes <= 64);
static_assert(netcc::basic_dctcp<netcc::arith::q32>::state_bytes <= 40);
static_assert(netcc::dctcp_fixed::state_bytes <= 32);
static_assert(sizeof(netcc::dctcp_fixed::flow_state) == netcc::dctcp_fixed::state_bytes);
static_assert(std::is_trivially_copyable_v<netcc::dctcp_fixed::flow_state>);
static_assert(std::is_trivially_copyable_v<netcc::dctcp::flow_state>);

// The shared configuration runs a state held outside any controller, in constant evaluation too.
constexpr bool config_drives_a_state() {
  const netcc::dctcp_fixed::config cfg{};
  auto st = cfg.initial_state();
  cfg.on_ack(st, netcc::ack_event{.ack_seq = 1460, .snd_nxt = 14'600, .acked = netcc::bytes{1460}});
  return cfg.cwnd(st) == netcc::bytes{14'600 + 1460} &&
         cfg.last_branch(st) == netcc::dctcp_branch::slow_start;
}
static_assert(config_drives_a_state());
static_assert(sizeof(netcc::dctcp_fixed::alpha_storage) == 2);
static_assert(sizeof(netcc::basic_dctcp<netcc::arith::ieee_double,
                                        netcc::dctcp_alpha_scaled<20>>::alpha_storage) == 4);

// Alpha representations satisfy the concept; a type without a rule does not.
static_assert(netcc::DctcpAlphaRep<netcc::dctcp_alpha_exact, double>);
static_assert(netcc::DctcpAlphaRep<netcc::dctcp_alpha_scaled<10>, netcc::fixed_point<31, 32>>);
struct no_rule {};
static_assert(!netcc::DctcpAlphaRep<no_rule, double>);

// DCTCP reads ECN echoes from cumulative ACKs: netcc::ack_event has them, rtt_event does not.
static_assert(netcc::EcnFeedback<netcc::ack_event>);
static_assert(!netcc::EcnFeedback<netcc::rtt_event>);
template <class C, class E>
concept accepts = requires(C c, const E& e) {
  c.on_ack(e);
};
static_assert(accepts<netcc::dctcp, netcc::ack_event>);
static_assert(!accepts<netcc::dctcp, netcc::rtt_event>);

// §3.3: K > C * RTT / 7; Q_max = K + N (Eq. 11).
static_assert(netcc::dctcp_k_floor(77.0) == 11.0);
static_assert(netcc::dctcp_sawtooth::of(10, 83.0, 40.0).q_max == 50.0);
static_assert(netcc::dctcp_gain_ceiling(98.0, 0.0) > 0.099 &&
              netcc::dctcp_gain_ceiling(98.0, 0.0) < 0.0991);  // 1.386294 / 14

}  // namespace

}  // namespace netcc_tests::static_dctcp
