// SPDX-License-Identifier: MIT
// static_assert-only: DCTCP runs at compile time (no allocation, no clock, no exceptions) with
// both policies; the hand-computed alpha update and cut of tests/control/dctcp_test.cpp
// evaluated by the compiler; the feedback concept it needs.
#include <netcc/control/dctcp.hpp>

namespace {

template <class Policy>
constexpr double alpha_then_cut() {
  netcc::basic_dctcp<Policy> cc{{.alpha_init = 0.0}};
  cc.on_ack(netcc::ack_event{.ack_seq = 7300, .snd_nxt = 14'600, .acked = netcc::bytes{7300}});
  cc.on_ack(netcc::ack_event{
      .ack_seq = 14'600, .snd_nxt = 30'000, .acked = netcc::bytes{7300}, .ecn_echo = true});
  return netcc::to_double(cc.window());
}

// Slow start to 17520, then F = 0.5, alpha = 1/32, cwnd = 17520 * (1 - 1/64) = 17246.25.
static_assert(alpha_then_cut<netcc::arith::ieee_double>() == 17'246.25);
static_assert(alpha_then_cut<netcc::arith::q32>() == 17'246.25);  // exact in 32 fraction bits

template <class Policy>
constexpr bool timeout_to_one_mss() {
  netcc::basic_dctcp<Policy> cc{};
  cc.on_timeout(netcc::timestamp{5});
  return cc.cwnd() == netcc::bytes{1460} && netcc::to_double(cc.ssthresh()) == 7300.0;
}
static_assert(timeout_to_one_mss<netcc::arith::ieee_double>());
static_assert(timeout_to_one_mss<netcc::arith::q32>());

// DCTCP reads ECN echoes from cumulative ACKs: netcc::ack_event has them, rtt_event does not.
static_assert(netcc::EcnFeedback<netcc::ack_event>);
static_assert(!netcc::EcnFeedback<netcc::rtt_event>);
template <class C, class E>
concept accepts = requires(C c, const E& e) {
  c.on_ack(e);
};
static_assert(accepts<netcc::dctcp, netcc::ack_event>);
static_assert(!accepts<netcc::dctcp, netcc::rtt_event>);

}  // namespace
