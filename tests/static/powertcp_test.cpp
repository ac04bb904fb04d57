// SPDX-License-Identifier: MIT
// static_assert-only: PowerTCP and theta-PowerTCP run at compile time (no allocation, no clock,
// no exceptions), both policies; the hand-computed Algorithm 1 step of
// tests/control/powertcp_test.cpp evaluated by the compiler; the signal concepts.
#include <netcc/control/powertcp.hpp>
#include <netcc/core/int_wire.hpp>

namespace netcc_tests::static_powertcp {

namespace {
using namespace netcc::literals;

constexpr netcc::powertcp_params params{
    .host_rate = 100_Gbps, .base_rtt = 10_us, .expected_flows = 10};

template <class Policy>
constexpr double algorithm1_two_acks() {
  netcc::basic_powertcp<Policy> cc{params};
  netcc::ack_event a{.now = netcc::timestamp{0}, .ack_seq = 1000, .snd_nxt = 126'000};
  a.hops.push({.ts = 0, .qlen = 10000_B, .tx_bytes = 0, .link_rate = 100_Gbps});
  cc.on_ack(a);
  netcc::ack_event b{.now = netcc::timestamp{1000}, .ack_seq = 2000, .snd_nxt = 126'000};
  b.hops.push({.ts = 1000, .qlen = 12500_B, .tx_bytes = 12500, .link_rate = 100_Gbps});
  cc.on_ack(b);
  return netcc::to_double(cc.window());
}

// power 1.2 * 1.1 = 1.32; cwnd = 0.9 * (125000 / 1.32 + 12500) + 0.1 * 125000 = 108977.27...
constexpr double w_double = algorithm1_two_acks<netcc::arith::ieee_double>();
constexpr double w_q32 = algorithm1_two_acks<netcc::arith::q32>();
static_assert(w_double > 108977.2727 && w_double < 108977.2728);
static_assert(w_q32 > 108977.2727 && w_q32 < 108977.2728);

constexpr netcc::bytes theta_after_zero_gradient() {
  netcc::theta_powertcp cc{netcc::theta_powertcp_params{
      .host_rate = 100_Gbps, .base_rtt = 10_us, .expected_flows = 10, .cwnd_init = 100000_B}};
  cc.on_ack(
      netcc::rtt_event{.now = netcc::timestamp{0}, .rtt = 10_us, .ack_seq = 1, .snd_nxt = 10});
  cc.on_ack(
      netcc::rtt_event{.now = netcc::timestamp{500}, .rtt = 10_us, .ack_seq = 2, .snd_nxt = 10});
  return cc.cwnd();
}
// RTT = tau, zero gradient: 100000 + 0.9 * 12500 = 111250
static_assert(theta_after_zero_gradient() == 111250_B);

// The signals and which events they accept.
static_assert(netcc::int_power<>::accepts<netcc::ack_event>);
static_assert(!netcc::int_power<>::accepts<netcc::rtt_event>);
static_assert(!netcc::int_power<netcc::hpcc_int_format::stack>::accepts<netcc::ack_event>);
static_assert(netcc::int_power<netcc::hpcc_int_format::stack>::accepts<
              netcc::basic_ack_event<netcc::hpcc_int_format::stack>>);
static_assert(netcc::rtt_power::accepts<netcc::rtt_event>);
static_assert(netcc::rtt_power::accepts<netcc::ack_event>);
static_assert(!netcc::rtt_power::accepts<netcc::cnp_event>);
static_assert(!netcc::int_power<>::once_per_rtt && netcc::rtt_power::once_per_rtt);
}  // namespace

}  // namespace netcc_tests::static_powertcp
