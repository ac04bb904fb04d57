// SPDX-License-Identifier: MIT
// Fuzz harness: the ns-3 adapter's seam (adapters/ns3/include/netcc-ns3/bridge.h), which carries
// everything ns-3 hands netcc: every controller kind made from decoded Attribute values (invalid
// ones included: made or refused with a message, never anything else) and driven through
// netcc::ns3::controller by decoded event streams (ACKs with any sequence, RTT, ECN, INC and up
// to five INT hops of any value; losses, timeouts, sends with any remaining count, CNPs, SRCs,
// timer ticks at any time); and the switch functions behind the seam (INT push, RED/ECN, the
// DCQCN notification point, Bolt's ingress), checked against netcc's own functions.
// Invariants:
//   * a kind's check_field accepts each default value; make() either succeeds or explains;
//   * after every event the window is UINT64_MAX (rate-based) or below 2^52 B (no wrapped value),
//     and the pacing rate UINT64_MAX (unpaced) or at most 2^63 bit/s; a clone has the same
//     outputs;
//   * int_push appends exactly one record (netcc::make_int_hop of the port) below the hop limit
//     and changes nothing at it; red_decide, np_on_packet, bolt_on_packet and fasttune_on_packet
//     decide exactly as netcc::red_ecn_on_packet, netcc::dcqcn_np_on_packet,
//     netcc::bolt_ingress and netcc::fasttune_switch do.
#include <netcc/fabric/bolt.hpp>
#include <netcc/fabric/dcqcn_np.hpp>
#include <netcc/fabric/fasttune_switch.hpp>
#include <netcc/fabric/int_push.hpp>
#include <netcc/fabric/red_ecn.hpp>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "netcc-ns3/bridge.h"

namespace {

using netcc::fuzz::byte_reader;
namespace bridge = netcc::ns3;
constexpr std::uint64_t none = std::numeric_limits<std::uint64_t>::max();

bridge::param_value decode_value(byte_reader& in, const bridge::param_info& p) {
  bridge::param_value v = p.initial;
  switch (in.u8() % 4) {
    case 0:  // keep the default
      break;
    case 1:  // any value
      v.real = in.raw_double();
      v.integer = in.i64();
      break;
    case 2:  // near the default
      v.real = p.initial.real * (1.0 + static_cast<double>(in.small_step(8)) / 8.0);
      v.integer = p.initial.integer + in.small_step(1 << 20);
      break;
    default:  // a small value
      v.real = static_cast<double>(in.u8()) / 16.0;
      v.integer = in.u16();
      break;
  }
  return v;
}

void check_outputs(const bridge::controller& c) {
  const std::uint64_t w = c.cwnd();
  const std::uint64_t r = c.pacing_bps();
  // No wrapped or garbage window: the largest any kind's valid parameters allow (Swift: its
  // max_cwnd in packets of up to 65535 B) is far below 2^52.
  NETCC_FUZZ_CHECK(w == none || w < (std::uint64_t{1} << 52));
  NETCC_FUZZ_CHECK(r == none || r <= (std::uint64_t{1} << 63));
}

void drive(byte_reader& in) {
  const auto& kinds = bridge::controller_kinds();
  const bridge::controller_kind& k = kinds[in.below(kinds.size())];
  std::vector<bridge::param_value> values;
  for (std::size_t i = 0; i < k.params.size(); ++i) {
    NETCC_FUZZ_CHECK(k.check_field(i, k.params[i].initial).empty());
    values.push_back(decode_value(in, k.params[i]));
  }
  std::string error;
  std::unique_ptr<bridge::controller> c = k.make(values, in.u16(), error);
  if (!c) {
    NETCC_FUZZ_CHECK(!error.empty());
    return;
  }
  check_outputs(*c);
  std::int64_t now = 0;
  for (int step = 0; step < 256 && !in.empty(); ++step) {
    now = in.sat_add(now, in.small_step(10'000));  // the harness's clock saturates
    switch (in.u8() % 8) {
      case 0:
      case 1: {
        bridge::ack_info a;
        a.now_ns = now;
        a.ack_seq = in.u64();
        a.snd_nxt = in.boolean() ? a.ack_seq + in.u32() : in.u64();
        a.acked = in.boolean() ? in.u16() : in.u64();
        a.rtt_ns = in.small_step(100'000);
        a.ecn_echo = in.boolean();
        a.inc = in.boolean();
        a.switch_ack = in.boolean();
        a.hop_count = static_cast<std::uint8_t>(in.u8() % 8);  // beyond 5 too
        for (auto& h : a.hops) h = bridge::hop_record{in.u64(), in.u32(), in.u64(), in.u64()};
        c->on_ack(a);
        break;
      }
      case 2: {
        bridge::ack_info a;
        a.now_ns = now;
        c->on_loss(a);
        break;
      }
      case 3:
        c->on_timeout(now);
        break;
      case 4:
        static_cast<void>(c->on_send(in.u16(), in.boolean() ? none : in.u64(), now));
        break;
      case 5:
        c->on_cnp(now);
        break;
      case 6:
        c->on_src(bridge::src_info{now, in.u32(), in.u64(), in.u32()});
        break;
      default:
        c->on_timer(now);
        break;
    }
    check_outputs(*c);
  }
  const auto copy = c->clone();
  NETCC_FUZZ_CHECK(copy->cwnd() == c->cwnd() && copy->pacing_bps() == c->pacing_bps());
}

void switch_functions(byte_reader& in) {
  const std::int64_t now = in.i64();
  // INT push against netcc::int_push.
  bridge::hop_record hops[bridge::max_int_hops]{};
  std::uint8_t count = static_cast<std::uint8_t>(in.u8() % (bridge::max_int_hops + 1));
  const std::uint8_t before = count;
  const std::uint8_t limit = static_cast<std::uint8_t>(in.u8());
  const bridge::port_state port{in.u64(), in.u64(), in.u64()};
  const bool pushed = bridge::int_push(hops, count, limit, now, port);
  const std::size_t cap =
      std::min<std::size_t>(std::max<std::size_t>(limit, 1), bridge::max_int_hops);
  NETCC_FUZZ_CHECK(pushed == (before < cap));
  NETCC_FUZZ_CHECK(count == before + (pushed ? 1 : 0));
  if (pushed) {
    const netcc::int_hop h = netcc::make_int_hop<netcc::int_stack<>>(
        netcc::timestamp{now},
        netcc::int_port_view{
            netcc::bytes{static_cast<std::int64_t>(std::min<std::uint64_t>(port.qlen, INT64_MAX))},
            port.tx_bytes,
            netcc::bit_rate{
                static_cast<std::int64_t>(std::min<std::uint64_t>(port.rate_bps, INT64_MAX))}});
    const bridge::hop_record& got = hops[before];
    NETCC_FUZZ_CHECK(got.ts_ns == h.ts && got.qlen == static_cast<std::uint64_t>(h.qlen.count()) &&
                     got.tx_bytes == h.tx_bytes &&
                     got.rate_bps == static_cast<std::uint64_t>(h.link_rate.bps()));
  }
  // RED/ECN against netcc::red_ecn_on_packet (valid configurations).
  bridge::red_config red{in.u32(), in.u32(), static_cast<double>(in.u16()) / 65535.0, in.boolean()};
  if (red.k_max < red.k_min) std::swap(red.k_min, red.k_max);
  if (red.p_max > 0 && bridge::check_red(red).empty()) {
    const std::uint8_t ecn = in.u8() & 3;
    const std::uint64_t backlog = in.u32();
    const std::uint32_t draw = in.u32();
    netcc::red_ecn_params p{netcc::bytes{static_cast<std::int64_t>(red.k_min)},
                            netcc::bytes{static_cast<std::int64_t>(red.k_max)},
                            {},
                            red.drop_not_ect};
    p.p_max.raw = red.p_max >= 1.0
                      ? netcc::red_probability::one_raw
                      : static_cast<std::uint64_t>(std::llround(
                            red.p_max * static_cast<double>(netcc::red_probability::one_raw)));
    const auto d =
        netcc::red_ecn_on_packet(static_cast<netcc::ecn_codepoint>(ecn),
                                 netcc::bytes{static_cast<std::int64_t>(backlog)}, draw, p);
    const auto v = bridge::red_decide(red, ecn, backlog, draw);
    NETCC_FUZZ_CHECK((d.action == netcc::red_action::pass) == (v == bridge::red_verdict::pass));
    NETCC_FUZZ_CHECK((d.action == netcc::red_action::mark) == (v == bridge::red_verdict::mark));
  }
  // The notification point against netcc::dcqcn_np_on_packet over a short stream.
  bridge::np_flow f;
  netcc::dcqcn_np_flow_state g;
  const std::int64_t interval = in.small_step(100'000);
  const bool schedule = in.boolean();
  netcc::dcqcn_np_params np{
      netcc::duration{interval < 0 ? 0 : interval},
      schedule ? netcc::dcqcn_np_mode::schedule : netcc::dcqcn_np_mode::suppress};
  std::int64_t t = in.i64();
  for (int i = 0; i < 8; ++i) {
    t = in.sat_add(t, in.small_step(50'000));
    const bool ce = in.boolean();
    std::int64_t at = 0;
    const auto v = bridge::np_on_packet(f, ce, t, interval, schedule, at);
    const auto d = netcc::dcqcn_np_on_packet(g, ce, netcc::timestamp{t}, np);
    NETCC_FUZZ_CHECK(static_cast<int>(v) == static_cast<int>(d.action));
    NETCC_FUZZ_CHECK(f.any == g.any && f.last_cnp_ns == g.last_cnp.count());
  }
  // FastTune's switch against netcc::fasttune_switch.
  {
    bool new_ack = in.boolean();
    netcc::fasttune_flow_state ft{new_ack};
    const auto kind = static_cast<bridge::fasttune_kind>(in.u8() % 3);
    bridge::hop_record fh[bridge::max_int_hops]{};
    std::uint8_t fc = static_cast<std::uint8_t>(in.u8() % (bridge::max_int_hops + 1));
    netcc::int_stack<> st;
    for (std::uint8_t i = 0; i < fc; ++i) {
      fh[i] = bridge::hop_record{in.u32(), in.u32(), in.u32(), in.u32()};
      st.push(netcc::int_hop{fh[i].ts_ns, netcc::bytes{static_cast<std::int64_t>(fh[i].qlen)},
                             fh[i].tx_bytes,
                             netcc::bit_rate{static_cast<std::int64_t>(fh[i].rate_bps)}});
    }
    const bridge::port_state dp{in.u32(), in.u64() >> 1, in.u64() >> 20};
    const bridge::fasttune_config fcfg{in.boolean(), in.boolean(),
                                       static_cast<std::uint8_t>(1 + in.u8() % 5)};
    const std::int64_t t0 = in.i64() / 2;
    const auto out = bridge::fasttune_on_packet(new_ack, kind, fh, fc, dp, t0, fcfg);
    netcc::fasttune_switch_params fp;
    fp.switch_feedback = fcfg.switch_feedback;
    fp.ack_padding = fcfg.ack_padding;
    fp.int_push.max_hops = fcfg.max_hops;
    const auto r = netcc::fasttune_switch(
        ft,
        kind == bridge::fasttune_kind::data       ? netcc::fasttune_packet_kind::data
        : kind == bridge::fasttune_kind::host_ack ? netcc::fasttune_packet_kind::host_ack
                                                  : netcc::fasttune_packet_kind::switch_ack,
        st,
        netcc::int_port_view{netcc::bytes{static_cast<std::int64_t>(dp.qlen)}, dp.tx_bytes,
                             netcc::bit_rate{static_cast<std::int64_t>(dp.rate_bps)}},
        netcc::timestamp{t0}, fp);
    NETCC_FUZZ_CHECK(new_ack == ft.new_ack && out.send == r.send_sack);
    NETCC_FUZZ_CHECK(fc == st.size() && out.count == r.sack_int.size());
  }
  // Bolt's ingress against netcc::bolt_ingress.
  bridge::bolt_switch_config bc{1 + in.below(9000), in.u32() % 100'000, in.boolean(), in.boolean()};
  if (bridge::check_bolt(bc).empty()) {
    bridge::bolt_port bp;
    netcc::bolt_port_state ns;
    netcc::bolt_params p;
    p.mtu = netcc::bytes{static_cast<std::int64_t>(bc.mtu)};
    p.cc_thresh = netcc::bytes{static_cast<std::int64_t>(bc.cc_thresh)};
    p.pru = bc.pru;
    p.sm = bc.sm;
    std::int64_t bt = in.i64() / 2;
    for (int i = 0; i < 8; ++i) {
      bt = in.sat_add(bt, in.small_step(10'000));
      bridge::bolt_packet pk{true,         in.boolean(), in.boolean(),
                             in.boolean(), in.boolean(), in.u32()};
      netcc::bolt_header h;
      h.data = true;
      h.first = pk.first;
      h.last = pk.last;
      h.inc = pk.inc;
      h.dec = pk.dec;
      h.t_data_tx = pk.t_data_tx;
      const std::uint64_t size = in.u16(), q = in.u32(), rate = in.u64() >> 20;
      const auto out = bridge::bolt_on_packet(bp, pk, size, q, rate, bt, bc);
      const auto r = netcc::bolt_ingress(
          ns, h, netcc::bytes{static_cast<std::int64_t>(size)},
          netcc::bolt_port_view{netcc::bytes{static_cast<std::int64_t>(q)},
                                netcc::bit_rate{static_cast<std::int64_t>(rate)}},
          netcc::timestamp{bt}, p);
      NETCC_FUZZ_CHECK(out.send == r.send_src && pk.inc == h.inc && pk.dec == h.dec);
      NETCC_FUZZ_CHECK(bp.sm_token == ns.sm_token && bp.pru_token == ns.pru_token);
      if (out.send) NETCC_FUZZ_CHECK(out.t_data_tx == r.src.t_data_tx);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_reader in(data, size);
  if (in.boolean()) {
    drive(in);
  } else {
    switch_functions(in);
  }
  return 0;
}
