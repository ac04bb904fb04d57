// SPDX-License-Identifier: MIT
// static_assert-only: Swift (netcc/control/swift.hpp) runs at compile time (no allocation, no
// clock, no exceptions) in both arithmetic policies; hand-computed lines of Algorithm 1 and the
// §3.5 target from tests/control/swift_test.cpp evaluated by the compiler; the per-flow state
// budget; the feedback concepts it reads.
#include <netcc/control/swift.hpp>

namespace netcc_tests::static_swift {

namespace {

using swift_q32 = netcc::basic_swift<netcc::arith::q32>;

constexpr netcc::swift_params flat{.init_cwnd = 10, .fs_range = netcc::duration{0}};

constexpr netcc::ack_event ack(std::int64_t now, std::int64_t rtt) {
  return {.now = netcc::timestamp{now}, .acked = netcc::bytes{1460}, .rtt = netcc::duration{rtt}};
}

constexpr bool near(double a, double b) {
  return a - b < 1e-8 && b - a < 1e-8;
}

// AI: 10 + 1/10; MD: * (1 - 0.8 * 50 / 100) = 0.6; within the RTT: nothing; timeout: * 0.5.
template <class C>
constexpr bool algorithm_1() {
  C cc{flat};
  cc.on_ack(ack(100'000, 20'000));
  if (!near(netcc::to_double(cc.window()), 10.1)) return false;
  cc.on_ack(ack(1'000'000, 100'000));
  if (!near(netcc::to_double(cc.window()), 6.06)) return false;
  cc.on_ack(ack(1'050'000, 100'000));
  if (!near(netcc::to_double(cc.window()), 6.06)) return false;
  cc.on_timeout(netcc::timestamp{1'200'000});
  if (!near(netcc::to_double(cc.window()), 3.03) || cc.retransmit_count() != 1u) return false;
  cc.on_fast_recovery(netcc::timestamp{1'210'000});  // 10 us < 100 us since the cut
  return near(netcc::to_double(cc.window()), 3.03) && cc.retransmit_count() == 0u;
}
static_assert(algorithm_1<netcc::swift>());
static_assert(algorithm_1<swift_q32>());
static_assert(algorithm_1<netcc::swift_compact>());
static_assert(sizeof(netcc::swift_compact::flow_state) <= 32);

// §3.5 flow scaling with the defaults: alpha = 65310.864 ns, beta = -6531.086 ns.
template <class C>
constexpr std::int64_t target_at(double w) {
  return C{{.min_cwnd = 1e-6, .init_cwnd = w}}.fabric_target().count();
}
static_assert(target_at<netcc::swift>(10) == 64'122 && target_at<swift_q32>(10) == 64'122);
static_assert(target_at<netcc::swift>(1) == 108'780 && target_at<swift_q32>(1) == 108'780);
static_assert(target_at<netcc::swift>(1e-6) == 250'000 && target_at<swift_q32>(1e-6) == 250'000);
static_assert(target_at<netcc::swift>(100) == 50'000 && target_at<swift_q32>(100) == 50'000);

// §3.4: below one packet the inter-packet delay is rtt / cwnd (base_target before a sample).
static_assert(netcc::swift{{.init_cwnd = 0.5}}.pacing_delay() == netcc::duration{100'000});
static_assert(swift_q32{{.init_cwnd = 0.25}}.pacing_delay() == netcc::duration{200'000});
static_assert(netcc::swift{}.pacing_rate() == netcc::bit_rate::max());

// The integer square root of the fixed-point policy.
static_assert(netcc::detail::swift_isqrt(0) == 0 && netcc::detail::swift_isqrt(15) == 3 &&
              netcc::detail::swift_isqrt(16) == 4 &&
              netcc::detail::swift_isqrt(~std::uint64_t{0}) == 0xFFFF'FFFFu);
static_assert(netcc::detail::swift_sqrt_num(netcc::fixed_point<31, 32>{2.25}).to_double() == 1.5);
static_assert(netcc::detail::swift_sqrt_num(netcc::fixed_point<31, 32>{1e9}).to_double() >
              31622.776601 * (1 - 0x1p-30));
static_assert(netcc::detail::swift_sqrt(2.25) == 1.5);

// Per-flow state within 48 B (budget 64 B) in both policies.
static_assert(netcc::swift::state_bytes <= 48);
static_assert(swift_q32::state_bytes <= 48);

// Swift reads RTT samples: both netcc event types qualify; endpoint delays come with
// netcc::swift_ack_event only; a CNP is not enough.
template <class C, class E>
concept accepts = requires(C c, const E& e) {
  c.on_ack(e);
};
static_assert(accepts<netcc::swift, netcc::ack_event>);
static_assert(accepts<netcc::swift, netcc::rtt_event>);
static_assert(accepts<netcc::swift, netcc::swift_ack_event>);
static_assert(!accepts<netcc::swift, netcc::cnp_event>);
static_assert(netcc::SwiftEndpointFeedback<netcc::swift_ack_event>);
static_assert(!netcc::SwiftEndpointFeedback<netcc::rtt_event>);
static_assert(!netcc::HopCountFeedback<netcc::rtt_event>);

}  // namespace

}  // namespace netcc_tests::static_swift
