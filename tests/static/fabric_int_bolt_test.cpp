// SPDX-License-Identifier: MIT
// static_assert-only: INT push, the Bolt header, Bolt ingress (Algorithm 1), supply matching
// (Algorithms 3 and 4), the FastTune switch (Algorithm 1), and the whole §4.1 supply lookup
// table for 100 Gbps checked entry by entry against the direct product. The table check is
// split into four static_asserts of 16384 entries because clang's default constexpr step limit
// (-fconstexpr-steps=1048576) stops a single evaluation over all 65536 entries.
#include <netcc/fabric/bolt.hpp>
#include <netcc/fabric/fasttune_switch.hpp>
#include <netcc/fabric/int_push.hpp>

#include <array>
#include <cstdint>

namespace netcc_tests::static_fabric_int_bolt {

namespace {
using namespace netcc::literals;

// ---- §4.1 supply lookup table: 65536 entries x 4 B = 256 KiB, every entry == direct product.
using t100 = netcc::bolt_supply_table<100'000'000'000>;
static_assert(t100::size == 65536 && t100::size_bytes == 262144);
static_assert(t100::check(0, 16384));
static_assert(t100::check(16384, 32768));
static_assert(t100::check(32768, 49152));
static_assert(t100::check(49152, 65536));
// 100 Gbps = 12.5 B/ns: 1 ns -> 12 B (12.5 floored), 120 ns -> 1500 B, 65535 ns -> 819187 B.
static_assert(t100::entries[0] == 0 && t100::entries[1] == 12 && t100::entries[2] == 25);
static_assert(t100::entries[120] == 1500 && t100::entries[65535] == 819187);
static_assert(t100::lookup(65535_ns).bytes == 819187 && !t100::lookup(65535_ns).beyond_table);
static_assert(t100::lookup(65536_ns).beyond_table && t100::lookup(-1_ns).bytes == 0);
// A small table at an awkward rate (7 bits/s short of 1 Gbps) and one that saturates at Cap.
using todd = netcc::bolt_supply_table<999'999'993, 4096>;
static_assert(todd::check(0, 4096));
using tcap = netcc::bolt_supply_table<800'000'000'000, 1024, 5000>;  // 100 B/ns, cap 5000
static_assert(tcap::check(0, 1024) && tcap::entries[49] == 4900 && tcap::entries[51] == 5000);

// ---- Algorithm 3: token = min(token + BW*dt - size, MTU).
constexpr std::int32_t alg3(std::int64_t t0, std::int64_t dt_ns, std::int64_t size) {
  netcc::bolt_port_state s{.last_sm_time = netcc::timestamp{1000},
                           .sm_token = static_cast<std::int32_t>(t0)};
  return netcc::bolt_supply_token(s, netcc::bytes{size}, 100_Gbps, netcc::timestamp{1000 + dt_ns},
                                  netcc::bolt_params{});
}
static_assert(alg3(0, 100, 1000) == 250);                          // 0 + 1250 - 1000
static_assert(alg3(0, 1000, 1000) == 1500);                        // 12500 - 1000 capped at one MTU
static_assert(alg3(-500, 0, 1500) == -2000);                       // no supply: the deficit grows
static_assert(alg3(0, -50, 100) == -100);                          // negative dt: zero supply
static_assert(alg3(-2147483647 - 1, 0, 1500) == -2147483647 - 1);  // saturates at the floor
// The table supply: beyond 65535 ns the token is set to one MTU (§4.1).
constexpr std::int32_t alg3_table(std::int64_t dt_ns) {
  netcc::bolt_port_state s{.last_sm_time = netcc::timestamp{0}, .sm_token = -100000};
  return netcc::bolt_supply_token(s, 1500_B, 100_Gbps, netcc::timestamp{dt_ns},
                                  netcc::bolt_params{}, t100{});
}
static_assert(alg3_table(8000) == -1500);  // -100000 + 100000 - 1500
static_assert(alg3_table(70000) == 1500);  // beyond the table: one MTU directly

// ---- Algorithm 4: q = {0, 3000, 0}, w = {1, 3, 4}; queue 0: w_eff = 1 + 3 = 4.
constexpr std::array<netcc::bytes, 3> qos_q{0_B, 3000_B, 0_B};
constexpr std::array<std::uint32_t, 3> qos_w{1, 3, 4};
static_assert(netcc::bolt_effective_weight({100_Gbps, qos_q, qos_w}, 0) == 4);
static_assert(netcc::bolt_effective_weight({100_Gbps, qos_q, qos_w}, 2) == 7);  // 3 + 4
static_assert(netcc::bolt_effective_weight({100_Gbps, qos_q, qos_w}, 3) == 0);  // no level
// 1000 ns at 100 Gbps = 12500 B; x 3/7 = 5357.14 -> 5357.
static_assert(netcc::bolt_qos_supply_bytes(100_Gbps, 1000_ns, 3, 7) == 5357);
constexpr std::int32_t alg4() {
  netcc::bolt_port_state s;
  netcc::bolt_qos_view v{100_Gbps, qos_q, qos_w};
  s.last_sm_time = netcc::timestamp{0};
  s.sm_token = -2000;
  // 400 ns x 12.5 B/ns = 5000 B; x 1/4 = 1250 B; -2000 + 1250 - 1000 = -1750.
  return netcc::bolt_qos_supply_token(s, 0, 1000_B, v, netcc::timestamp{400}, {}).sm_token;
}
static_assert(alg4() == -1750);

// ---- Algorithm 1.
struct step {
  netcc::bolt_ingress_result r;
  netcc::bolt_header h;
  netcc::bolt_port_state s;
};
constexpr step ingress(netcc::bolt_header h, netcc::bolt_port_state s, netcc::bytes q,
                       std::int64_t now_ns) {
  const auto r = netcc::bolt_ingress(s, h, 1500_B, {q, 100_Gbps}, netcc::timestamp{now_ns},
                                     netcc::bolt_params{});
  return {r, h, s};
}
constexpr netcc::bolt_port_state busy{
    .last_sm_time = netcc::timestamp{0}, .sm_token = 0, .pru_token = 0};
// Congested (queue 1500 B >= CC_THRESH 1500 B), DEC clear: SRC; DEC set, INC cleared.
constexpr step c1 = ingress({.data = true, .inc = true, .t_data_tx = 42}, busy, 1500_B, 0);
static_assert(c1.r.action == netcc::bolt_action::src_generated && c1.r.send_src);
static_assert(c1.r.src.src && !c1.r.src.data && c1.r.src.q_size == 1500 &&
              c1.r.src.link_rate == 20 && c1.r.src.t_data_tx == 42);
static_assert(c1.h.dec && !c1.h.inc);
// Same packet at the next congested hop: no second SRC.
static_assert(ingress(c1.h, busy, 9000_B, 0).r.action == netcc::bolt_action::congested_dec);
static_assert(!ingress(c1.h, busy, 9000_B, 0).r.send_src);
// Just below CC_THRESH: not congested.
static_assert(ingress({.data = true}, busy, 1499_B, 0).r.action == netcc::bolt_action::forwarded);
// LAST and not FIRST adds a PRU token; LAST and FIRST does not.
static_assert(ingress({.data = true, .last = true}, busy, 0_B, 0).s.pru_token == 1);
static_assert(ingress({.data = true, .last = true, .first = true}, busy, 0_B, 0).r.action ==
              netcc::bolt_action::last_first);
// INC: PRU token first, then one MTU of SM token, else INC cleared.
constexpr netcc::bolt_port_state with_pru{
    .last_sm_time = netcc::timestamp{0}, .sm_token = 1500, .pru_token = 2};
static_assert(ingress({.data = true, .inc = true}, with_pru, 0_B, 0).r.action ==
              netcc::bolt_action::inc_pru);
static_assert(ingress({.data = true, .inc = true}, with_pru, 0_B, 0).s.pru_token == 1);
// sm_token 1500, dt 0: 1500 + 0 - 1500 = 0 < MTU: cleared.
constexpr netcc::bolt_port_state with_sm{
    .last_sm_time = netcc::timestamp{0}, .sm_token = 1500, .pru_token = 0};
static_assert(ingress({.data = true, .inc = true}, with_sm, 0_B, 0).r.action ==
              netcc::bolt_action::inc_cleared);
static_assert(!ingress({.data = true, .inc = true}, with_sm, 0_B, 0).h.inc);
// dt 240 ns: 1500 + 3000 - 1500 = 3000 -> capped 1500 >= MTU: granted, token 0.
static_assert(ingress({.data = true, .inc = true}, with_sm, 0_B, 240).r.action ==
              netcc::bolt_action::inc_sm);
static_assert(ingress({.data = true, .inc = true}, with_sm, 0_B, 240).s.sm_token == 0);
// Not data: untouched.
static_assert(ingress({.ack = true, .inc = true}, with_sm, 9000_B, 240).s == with_sm);

// ---- Bolt header round trip.
constexpr bool header_round_trip() {
  const netcc::bolt_header h{.q_size = 0xABCDEF,
                             .link_rate = 80,
                             .data = true,
                             .first = true,
                             .inc = true,
                             .reserved = true,
                             .t_data_tx = 0xDEADBEEF};
  std::array<std::uint8_t, 9> b{};
  if (netcc::encode_bolt_header(h, b) != 9) return false;
  const auto d = netcc::decode_bolt_header(b);
  return d.ok && d.header == h && b[0] == 0xAB && b[3] == 80 && b[4] == 0x8D && b[5] == 0xDE;
}
static_assert(header_round_trip());
static_assert(netcc::bolt_encode_link_rate(400_Gbps) == 80 &&
              netcc::bolt_encode_link_rate(1_Gbps) == 1 &&
              netcc::bolt_encode_link_rate(2_Tbps) == 255 &&
              netcc::bolt_encode_link_rate(0_bps) == 0);
static_assert(netcc::bolt_encode_q_size(20_MB) == 0xFFFFFF);

// ---- INT push.
constexpr std::size_t int_fill() {
  netcc::int_stack<3> s;
  const netcc::int_port_view port{.qlen = 80_B, .tx_bytes = 10, .link_rate = 100_Gbps};
  for (int k = 0; k < 5; ++k) (void)netcc::int_push(s, port, netcc::timestamp{k}, {});
  return s.size() * 10 + s[2].ts;
}
static_assert(int_fill() == 32);  // 3 hops kept, the third one stamped at t = 2
constexpr bool int_encoded() {
  using fmt = netcc::hpcc_int_format;
  std::array<std::uint8_t, fmt::max_encoded_size> buf{};
  std::size_t n = 2;
  for (int k = 0; k < 6; ++k) {
    const auto r = netcc::int_push_encoded<fmt>(
        buf, n, {.qlen = 800_B, .tx_bytes = 1280, .link_rate = 100_Gbps}, netcc::timestamp{k}, {});
    if ((k < 5) != (r.result == netcc::int_push_result::pushed)) return false;
    n = r.size;
  }
  const auto d = fmt::decode(std::span<const std::uint8_t>(buf.data(), n));
  return n == 42 && d.hops.size() == 5 && d.hops[4].ts == 4 && d.hops[0].qlen == 800_B;
}
static_assert(int_encoded());

// ---- FastTune switch.
constexpr bool fasttune() {
  netcc::fasttune_flow_state f;
  netcc::int_stack<> none, ack;
  const netcc::int_port_view port{.qlen = 3000_B, .tx_bytes = 7, .link_rate = 10_Gbps};
  const auto d1 = netcc::fasttune_switch(f, netcc::fasttune_packet_kind::data, none, port,
                                         netcc::timestamp{1}, {});
  const auto a = netcc::fasttune_switch(f, netcc::fasttune_packet_kind::host_ack, ack, port,
                                        netcc::timestamp{2}, {});
  const auto d2 = netcc::fasttune_switch(f, netcc::fasttune_packet_kind::data, none, port,
                                         netcc::timestamp{3}, {});
  return d1.send_sack && d1.sack_int.size() == 1 && d1.sack_int[0].qlen == 3000_B &&
         a.action == netcc::fasttune_action::ack_padded && ack.size() == 1 && ack[0].ts == 2 &&
         !f.new_ack && !d2.send_sack && none.size() == 0;
}
static_assert(fasttune());
static_assert(netcc::fasttune_flow_hash(netcc::fasttune_data_path(
                  {.src_ip = 2, .dst_ip = 1, .src_port = 80, .dst_port = 1000, .protocol = 6})) ==
              netcc::fasttune_flow_hash(
                  {.src_ip = 1, .dst_ip = 2, .src_port = 1000, .dst_port = 80, .protocol = 6}));
}  // namespace

// ---- Bolt header codes and the sender's view of an SRC (bolt_header.hpp).
namespace {
static_assert(netcc::bolt_encode_link_rate(100_Gbps) == 20);    // 5 Gbps units
static_assert(netcc::bolt_encode_link_rate(7500_Mbps) == 2);    // 1.5 units: ties round up
static_assert(netcc::bolt_encode_link_rate(2_Gbps) == 1);       // any positive rate: >= 1
static_assert(netcc::bolt_encode_link_rate(2000_Gbps) == 255);  // saturates
static_assert(netcc::bolt_encode_link_rate(netcc::bit_rate{0}) == 0);
static_assert(netcc::bolt_encode_link_rate(100_Gbps, netcc::bit_rate{0}) == 0);
static_assert(netcc::bolt_decode_link_rate(20) == 100_Gbps);
static_assert(netcc::bolt_decode_link_rate(255, netcc::bit_rate{1'000'000'000'000'000'000}) ==
              netcc::bit_rate::max());  // saturating product
static_assert(netcc::bolt_decode_link_rate(7, netcc::bit_rate{0}) == netcc::bit_rate{0});
static_assert(netcc::bolt_encode_q_size(netcc::bytes{-5}) == 0);
static_assert(netcc::bolt_encode_q_size(netcc::bytes{1'073'741'824}) ==
              0xFFFFFFu);                                         // 2^30: saturates
static_assert(netcc::bolt_decode_q_size(0xFF000BB8u) == 3000_B);  // only the low 24 bits
constexpr netcc::src_event src_view = netcc::to_src_event(
    netcc::bolt_header{.q_size = 3000, .link_rate = 20, .src = true, .t_data_tx = 77},
    netcc::timestamp{100});
static_assert(src_view.now == netcc::timestamp{100} && src_view.queue == 3000_B &&
              src_view.link_rate == 100_Gbps && src_view.tx_timestamp == 77u);

// ---- Algorithm 1 with QoS (Appendix B.1): queue i's occupancy and supply.
constexpr std::array<netcc::bytes, 2> qos_queues{netcc::bytes{0}, netcc::bytes{6000}};
constexpr std::array<std::uint32_t, 2> qos_weights{1, 1};
constexpr netcc::bolt_action qos(std::size_t i) {
  netcc::bolt_port_state s{};
  netcc::bolt_header pkt{.data = true, .inc = true, .t_data_tx = 5};
  return netcc::bolt_qos_ingress(
             s, pkt, 1500_B,
             {.link_rate = 100_Gbps, .queue_sizes = qos_queues, .weights = qos_weights}, i,
             netcc::timestamp{1'000'000}, netcc::bolt_params{})
      .action;
}
static_assert(qos(1) == netcc::bolt_action::src_generated);  // 6000 B >= CC_THRESH (one MTU)
static_assert(qos(0) == netcc::bolt_action::inc_sm);         // empty after 1 ms idle: supply pays
static_assert(qos(2) == netcc::bolt_action::invalid_queue);  // not a level of the port

// ---- INT push in the wire's quantisation (int_push.hpp): the stack holds what a packet would.
constexpr int int_wire_pushes() {
  netcc::hpcc_int_format::stack s;
  const netcc::int_port_view port{.qlen = 3000_B, .tx_bytes = 1000, .link_rate = 100_Gbps};
  int pushed = 0;
  for (int i = 0; i < 7; ++i)
    if (netcc::int_push_wire<netcc::hpcc_int_format>(s, port, netcc::timestamp{i}, {}) ==
        netcc::int_push_result::pushed)
      ++pushed;
  return pushed;
}
static_assert(int_wire_pushes() == 5);  // the hop limit (HPCC §3.2), then refused
}  // namespace

}  // namespace netcc_tests::static_fabric_int_bolt
