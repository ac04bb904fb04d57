// SPDX-License-Identifier: MIT
// Fuzz harness: Bolt switch ingress (NSDI'23 Algorithm 1) over packet/port event sequences on
// a few egress ports, with the direct or the §4.1 table supply, and the QoS form (Algorithm 4).
// Invariants:
//   * the supply token stays within [bolt_sm_token_floor, MTU] (it saturates, never wraps);
//   * an SRC is never generated for a packet that arrived with DEC set; when one is generated
//     the packet leaves with DEC set and INC cleared and the SRC reflects t_data_tx;
//   * PRU tokens are conserved: +1 only for an uncongested LAST-not-FIRST data packet, -1 only
//     for an INC packet that keeps its flag; the count equals start + added - removed;
//   * a non-data packet changes neither itself nor the state;
//   * table lookups equal the direct product inside the table;
//   * the header round-trips through its 9-byte encoding;
//   * the QoS form over a netcc::bolt_qos_weights table and the non-empty mask gives the view's
//     decision, header and state.
#include <netcc/fabric/bolt.hpp>

#include <array>
#include <limits>

#include "fuzz_common.hpp"

namespace {

using t100 = netcc::bolt_supply_table<100'000'000'000>;

netcc::bolt_header read_header(netcc::fuzz::byte_reader& in) {
  std::array<std::uint8_t, 9> b{};
  for (auto& x : b) x = in.u8();
  const auto d = netcc::decode_bolt_header(b);
  NETCC_FUZZ_CHECK(d.ok);
  std::array<std::uint8_t, 9> back{};
  NETCC_FUZZ_CHECK(netcc::encode_bolt_header(d.header, back) == 9);
  NETCC_FUZZ_CHECK(back == b);
  return d.header;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  netcc::fuzz::byte_reader in(data, size);
  netcc::bolt_params p;
  p.mtu = netcc::bytes{static_cast<std::int64_t>(in.below(65535)) + 1};
  p.cc_thresh = netcc::bytes{static_cast<std::int64_t>(in.below(100'000))};
  NETCC_FUZZ_CHECK(validate(p).ok());
  const bool use_table = in.boolean();
  constexpr std::size_t ports = 4;
  std::array<netcc::bolt_port_state, ports> st{};
  std::array<std::int64_t, ports> added{}, removed{}, start{};
  for (std::size_t k = 0; k < ports; ++k) {
    st[k].sm_token = static_cast<std::int32_t>(in.u32());
    if (st[k].sm_token > p.mtu.count()) st[k].sm_token = static_cast<std::int32_t>(p.mtu.count());
    st[k].pru_token = in.u8();
    start[k] = st[k].pru_token;
  }
  std::array<netcc::bytes, ports> qs{};
  std::array<std::uint32_t, ports> ws{};
  for (std::size_t k = 0; k < ports; ++k) ws[k] = in.u16();
  const netcc::bolt_qos_weights weights{ws};
  netcc::timestamp now{static_cast<std::int64_t>(in.u32())};
  while (!in.empty()) {
    const std::size_t port = in.below(ports);
    netcc::bolt_header h = read_header(in);
    const netcc::bolt_header before = h;
    const netcc::bytes pkt_size{static_cast<std::int64_t>(in.u32() % 70'000) - 100};
    const netcc::bytes q{static_cast<std::int64_t>(in.u32() % 200'000) - 10};
    const netcc::bit_rate rate{static_cast<std::int64_t>(in.below(800'000'000'001))};
    now += netcc::duration{in.small_step(100'000)};
    qs[port] = q;
    const bool qos = in.boolean();
    const netcc::bolt_port_state s0 = st[port];
    netcc::bolt_ingress_result r;
    if (qos) {
      // The weights' table with the non-empty mask gives the view's decision and state.
      netcc::bolt_port_state ts = st[port];
      netcc::bolt_header th = h;
      std::uint32_t nonempty = 0;
      for (std::size_t k = 0; k < ports; ++k)
        if (qs[k] != netcc::bytes{0}) nonempty |= std::uint32_t{1} << k;
      const auto tr =
          netcc::bolt_qos_ingress(ts, th, pkt_size, weights, nonempty, q, rate, port, now, p);
      r = netcc::bolt_qos_ingress(st[port], h, pkt_size, {rate, qs, ws}, port, now, p);
      NETCC_FUZZ_CHECK(tr.action == r.action && tr.send_src == r.send_src && tr.src == r.src);
      NETCC_FUZZ_CHECK(th == h && ts == st[port]);
    } else if (use_table) {
      r = netcc::bolt_ingress(st[port], h, pkt_size, {q, rate}, now, p, t100{});
    } else {
      r = netcc::bolt_ingress(st[port], h, pkt_size, {q, rate}, now, p);
    }
    const auto& s = st[port];
    NETCC_FUZZ_CHECK(s.sm_token <= p.mtu.count());
    NETCC_FUZZ_CHECK(s.sm_token >= netcc::bolt_sm_token_floor.count());
    if (!before.data) {
      NETCC_FUZZ_CHECK(r.action == netcc::bolt_action::not_data && h == before && s == s0);
      continue;
    }
    if (before.dec) NETCC_FUZZ_CHECK(!r.send_src);
    if (r.send_src) {
      NETCC_FUZZ_CHECK(!before.dec && h.dec && !h.inc && q >= p.cc_thresh);
      NETCC_FUZZ_CHECK(r.src.src && !r.src.data && r.src.t_data_tx == before.t_data_tx);
      NETCC_FUZZ_CHECK(r.src.q_size == netcc::bolt_encode_q_size(q));
    }
    NETCC_FUZZ_CHECK(h.data == before.data && h.last == before.last && h.first == before.first &&
                     h.t_data_tx == before.t_data_tx);
    NETCC_FUZZ_CHECK(!h.inc || before.inc);  // INC is never set by a switch
    const std::int64_t d = std::int64_t{s.pru_token} - s0.pru_token;
    NETCC_FUZZ_CHECK(d >= -1 && d <= 1);
    // Each branch that owns a token change makes it (the converse of the checks below).
    NETCC_FUZZ_CHECK((r.action == netcc::bolt_action::inc_pru) == (d == -1));
    if (r.action == netcc::bolt_action::pru_added)
      NETCC_FUZZ_CHECK(d == 1 || s0.pru_token == std::numeric_limits<std::uint32_t>::max());
    if (d == 1) {
      NETCC_FUZZ_CHECK(before.last && !before.first && q < p.cc_thresh);
      ++added[port];
    }
    if (d == -1) {
      NETCC_FUZZ_CHECK(before.inc && h.inc && r.action == netcc::bolt_action::inc_pru);
      ++removed[port];
    }
    if (r.action == netcc::bolt_action::inc_sm)
      NETCC_FUZZ_CHECK(h.inc && s.sm_token == 0);  // it was exactly one MTU (capped)
    const netcc::duration dt{static_cast<std::int64_t>(in.u32() % 70'000)};
    const auto lk = t100::lookup(dt);
    NETCC_FUZZ_CHECK(lk.beyond_table == (dt.count() >= 65536));
    if (!lk.beyond_table)
      NETCC_FUZZ_CHECK(lk.bytes == netcc::bolt_direct_supply_bytes(t100::rate, dt));
  }
  for (std::size_t k = 0; k < ports; ++k)
    NETCC_FUZZ_CHECK(std::int64_t{st[k].pru_token} == start[k] + added[k] - removed[k]);
  return 0;
}
