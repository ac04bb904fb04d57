// SPDX-License-Identifier: MIT
// static_assert-only: the Bolt sender (netcc/control/bolt_sender.hpp) runs at compile time (no
// allocation, no clock, no exceptions) with both arithmetic policies; hand-computed steps of
// Algorithm 2 and the §4.2 marking from tests/control/bolt_sender_test.cpp evaluated by the
// compiler; the per-flow state budget; the feedback and send-side concepts it needs.
#include <netcc/control/bolt_sender.hpp>
#include <netcc/fabric/bolt_header.hpp>

#include <type_traits>

namespace netcc_tests::static_bolt_sender {

namespace {
using namespace netcc::literals;

// HandleSrc: cwnd_init 101500 B; first SRC decrements to 100000 B; flow.rate 12.5 B/ns, link
// 50 Gbps = 6.25 B/ns: factor 2; queue 3000 B = 2 packets: target_q 4; rtt_src 2000 ns:
// interval 500 ns. An SRC 499 ns later is too soon, one 500 ns later decrements to 98500 B.
template <class Policy>
constexpr double handle_src_schedule() {
  netcc::basic_bolt_sender<Policy> cc{{.cwnd_init = 101'500_B}};
  const auto at = [](std::int64_t now) {
    return netcc::src_event{.now = netcc::timestamp{now},
                            .queue = 3000_B,
                            .link_rate = 50_Gbps,
                            .tx_timestamp = static_cast<std::uint32_t>(now - 2000)};
  };
  cc.on_src(at(10'000));
  cc.on_src(at(10'499));
  cc.on_src(at(10'500));
  return netcc::to_double(cc.window());
}
static_assert(handle_src_schedule<netcc::arith::ieee_double>() == 98'500.0);
static_assert(handle_src_schedule<netcc::arith::q32>() == 98'500.0);

// HandleAck: first ACK +1 (AI, mark 90000), INC +1, an ACK beyond the mark with INC +2:
// 100000 + 4 * 1500.
template <class Policy>
constexpr netcc::bytes handle_ack() {
  netcc::basic_bolt_sender<Policy> cc{};
  cc.on_ack(netcc::ack_event{.ack_seq = 1500, .snd_nxt = 90'000});
  cc.on_ack(netcc::ack_event{.ack_seq = 3000, .snd_nxt = 91'500, .inc = true});
  cc.on_ack(netcc::ack_event{.ack_seq = 91'500, .snd_nxt = 120'000, .inc = true});
  return cc.cwnd();
}
static_assert(handle_ack<netcc::arith::ieee_double>() == 106'000_B);
static_assert(handle_ack<netcc::arith::q32>() == 106'000_B);

// §4.2: 300000 B written; packet k of 1500 B is FIRST for k <= 67 and LAST for k >= 134.
constexpr bool marking() {
  netcc::bolt_sender cc{};
  cc.on_write(300'000_B);
  for (int k = 1; k <= 200; ++k) {
    const netcc::bolt_marks m = cc.on_send(1500_B);
    if (!m.inc || m.first != (k <= 67) || m.last != (k >= 134)) return false;
  }
  return true;
}
static_assert(marking());

// The generic on_send sets Listing 1's flags on a netcc::bolt_header.
struct view {
  netcc::timestamp now{};
  netcc::bytes payload{};
  netcc::bytes remaining{};
};
constexpr netcc::bolt_header marked_header() {
  netcc::bolt_sender cc{};
  netcc::bolt_header h{.data = true};
  cc.on_send(view{.payload = 1500_B, .remaining = 0_B}, h);
  return h;
}
static_assert(marked_header().first && marked_header().inc && !marked_header().last);

// Swift's timeout rule: five consecutive timeouts end at min_cwnd.
constexpr netcc::bytes after_timeouts() {
  netcc::basic_bolt_sender<netcc::arith::q32> cc{};
  for (int i = 0; i < 5; ++i) cc.on_timeout(netcc::timestamp{i * 100'000});
  return cc.cwnd();
}
static_assert(after_timeouts() == 10_B);

// Per-flow state budget: 64 B for both policies, 32 B for the compact q32 form.
static_assert(netcc::bolt_sender::state_bytes <= 64);
static_assert(netcc::basic_bolt_sender<netcc::arith::q32>::state_bytes <= 64);
static_assert(netcc::bolt_sender_compact::state_bytes <= 32);
static_assert(std::is_trivially_copyable_v<netcc::bolt_sender_compact::flow_state>);
static_assert(std::is_trivially_copyable_v<netcc::bolt_sender::flow_state>);

// The compact form and a config with an external state run the same schedule as the object.
constexpr double compact_src_schedule() {
  netcc::bolt_sender_compact cc{{.cwnd_init = 101'500_B}};
  const auto at = [](std::int64_t now) {
    return netcc::src_event{.now = netcc::timestamp{now},
                            .queue = 3000_B,
                            .link_rate = 50_Gbps,
                            .tx_timestamp = static_cast<std::uint32_t>(now - 2000)};
  };
  cc.on_src(at(10'000));
  cc.on_src(at(10'499));
  cc.on_src(at(10'500));
  return netcc::to_double(cc.window());
}
static_assert(compact_src_schedule() == 98'500.0);
constexpr netcc::bytes config_handle_ack() {
  const netcc::basic_bolt_sender<netcc::arith::q32>::config cfg{};
  auto st = cfg.initial_state();
  cfg.on_ack(st, netcc::ack_event{.ack_seq = 1500, .snd_nxt = 90'000});
  cfg.on_ack(st, netcc::ack_event{.ack_seq = 3000, .snd_nxt = 91'500, .inc = true});
  cfg.on_ack(st, netcc::ack_event{.ack_seq = 91'500, .snd_nxt = 120'000, .inc = true});
  return cfg.cwnd(st);
}
static_assert(config_handle_ack() == 106'000_B);

// What it consumes: SRCs (netcc::src_event, 32-bit clock), ACKs with INC; what it marks.
static_assert(netcc::SrcFeedback<netcc::src_event>);
static_assert(netcc::IncFeedback<netcc::ack_event>);
static_assert(!netcc::IncFeedback<netcc::rtt_event>);
static_assert(netcc::BoltMarkablePacket<netcc::bolt_header>);
static_assert(netcc::BoltSendView<view>);
static_assert(!netcc::BoltSendView<netcc::ack_event>);
template <class C, class E>
concept takes_ack = requires(C c, E e) {
  c.on_ack(e);
};
template <class C, class E>
concept takes_src = requires(C c, E e) {
  c.on_src(e);
};
static_assert(takes_ack<netcc::bolt_sender, netcc::ack_event>);
static_assert(takes_src<netcc::bolt_sender, netcc::src_event>);
static_assert(!takes_ack<netcc::bolt_sender, netcc::rtt_event>);  // no INC flag
static_assert(!takes_src<netcc::bolt_sender, netcc::ack_event>);
static_assert(takes_ack<netcc::bolt_sender_compact, netcc::ack_event>);
static_assert(takes_src<netcc::bolt_sender_compact, netcc::src_event>);
static_assert(netcc::Controller<netcc::bolt_sender_compact>);

}  // namespace

}  // namespace netcc_tests::static_bolt_sender
