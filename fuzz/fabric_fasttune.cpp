// SPDX-License-Identifier: MIT
// Fuzz harness: FastTune switch (ISPA'21 Algorithm 1) over packet sequences of a few flows.
// Invariants:
//   * NewACK of a flow is true exactly until the first H-ACK or S-ACK of that flow passes;
//   * an S-ACK is generated exactly for data packets of flows whose NewACK holds (with switch
//     feedback on), and it carries one record: the data path's egress port at `now`;
//   * an ACK is padded with that record when its stack is below the hop limit, otherwise left
//     unchanged: a stack is never overrun;
//   * data and other packets never change their INT stack.
#include <netcc/fabric/fasttune_switch.hpp>

#include <array>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  netcc::fuzz::byte_reader in(data, size);
  netcc::fasttune_switch_params p;
  p.switch_feedback = (in.u8() % 8) != 0;
  p.ack_padding = (in.u8() % 8) != 0;
  p.int_push.max_hops = static_cast<std::size_t>(in.below(255)) + 1;
  NETCC_FUZZ_CHECK(validate(p).ok());
  using stack = netcc::int_stack<5>;
  const std::size_t limit = p.int_push.max_hops < 5 ? p.int_push.max_hops : 5;
  constexpr std::size_t flows = 4;
  std::array<netcc::fasttune_flow_state, flows> st{};
  std::array<bool, flows> acked{};
  while (!in.empty()) {
    const std::size_t fl = in.below(flows);
    const auto kind = static_cast<netcc::fasttune_packet_kind>(in.u8() % 4);
    stack s;
    const std::size_t pre = in.below(6);
    for (std::size_t j = 0; j < pre; ++j) s.push(in.hop());
    const stack s0 = s;
    netcc::int_port_view port;
    port.qlen = netcc::bytes{static_cast<std::int64_t>(in.u32()) - 1000};
    port.tx_bytes = in.u64();
    port.link_rate = netcc::bit_rate{in.i64()};
    const netcc::timestamp now{in.i64()};
    const auto r = netcc::fasttune_switch(st[fl], kind, s, port, now, p);
    const bool is_ack = kind == netcc::fasttune_packet_kind::host_ack ||
                        kind == netcc::fasttune_packet_kind::switch_ack;
    const bool want_sack =
        kind == netcc::fasttune_packet_kind::data && !acked[fl] && p.switch_feedback;
    NETCC_FUZZ_CHECK(r.send_sack == want_sack);
    const netcc::int_hop rec = netcc::make_int_hop<stack>(now, port);
    NETCC_FUZZ_CHECK(rec.qlen >= netcc::bytes{0} && rec.link_rate >= netcc::bit_rate{0});
    if (r.send_sack) NETCC_FUZZ_CHECK(r.sack_int.size() == 1 && r.sack_int[0] == rec);
    if (is_ack) acked[fl] = true;
    for (std::size_t k = 0; k < flows; ++k) NETCC_FUZZ_CHECK(st[k].new_ack == !acked[k]);
    if (is_ack && p.ack_padding && s0.size() < limit) {
      NETCC_FUZZ_CHECK(r.action == netcc::fasttune_action::ack_padded);
      NETCC_FUZZ_CHECK(s.size() == s0.size() + 1 && s[s0.size()] == rec);
      for (std::size_t j = 0; j < s0.size(); ++j) NETCC_FUZZ_CHECK(s[j] == s0[j]);
    } else {
      NETCC_FUZZ_CHECK(s == s0);
    }
    NETCC_FUZZ_CHECK(s.size() <= stack::max_hops);
  }
  return 0;
}
