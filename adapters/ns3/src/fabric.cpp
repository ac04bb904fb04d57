// SPDX-License-Identifier: MIT
// The netcc half of the ns-3 adapter's switch side: netcc's INT push and RED/ECN behind the
// bridge (bridge.h). C++20, no ns-3 headers.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "netcc-ns3/bridge.h"
#include "netcc/core/feedback.hpp"
#include "netcc/core/units.hpp"
#include "netcc/fabric/bolt.hpp"
#include "netcc/fabric/dcqcn_np.hpp"
#include "netcc/fabric/fasttune_switch.hpp"
#include "netcc/fabric/int_push.hpp"
#include "netcc/fabric/red_ecn.hpp"

namespace netcc::ns3 {
namespace {

std::int64_t clamp_i64(std::uint64_t v) {
  return v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
             ? std::numeric_limits<std::int64_t>::max()
             : static_cast<std::int64_t>(v);
}

bolt_params to_params(const bolt_switch_config& c) {
  bolt_params p;
  p.mtu = bytes{clamp_i64(c.mtu)};
  p.cc_thresh = bytes{clamp_i64(c.cc_thresh)};
  p.pru = c.pru;
  p.sm = c.sm;
  return p;
}

red_ecn_params to_params(const red_config& c) {
  red_ecn_params p;
  p.k_min = bytes{clamp_i64(c.k_min)};
  p.k_max = bytes{clamp_i64(c.k_max)};
  // P_max in units of 2^-32, as red_probability holds it; NaN and out-of-range values are left
  // for validate() to name.
  const double pm = std::isfinite(c.p_max) ? c.p_max : -1.0;
  p.p_max.raw = pm <= 0     ? 0
                : pm >= 1.0 ? red_probability::one_raw + (pm > 1.0 ? 1 : 0)
                            : static_cast<std::uint64_t>(
                                  std::llround(pm * static_cast<double>(red_probability::one_raw)));
  p.drop_not_ect = c.drop_not_ect;
  return p;
}

}  // namespace

bool int_push(hop_record* hops, std::uint8_t& count, std::uint8_t max_hops, std::int64_t now_ns,
              const port_state& port) {
  int_stack<max_int_hops> s;
  const std::size_t n = std::min<std::size_t>(count, max_int_hops);
  for (std::size_t i = 0; i < n; ++i)
    static_cast<void>(s.push(int_hop{hops[i].ts_ns, bytes{clamp_i64(hops[i].qlen)},
                                     hops[i].tx_bytes, bit_rate{clamp_i64(hops[i].rate_bps)}}));
  const int_port_view view{bytes{clamp_i64(port.qlen)}, port.tx_bytes,
                           bit_rate{clamp_i64(port.rate_bps)}};
  int_push_params p;
  p.max_hops = std::clamp<std::size_t>(max_hops, 1, max_int_hops);
  if (int_push(s, view, timestamp{now_ns}, p) != int_push_result::pushed) return false;
  const int_hop& h = s[s.size() - 1];
  hops[s.size() - 1] = hop_record{h.ts, static_cast<std::uint64_t>(h.qlen.count()), h.tx_bytes,
                                  static_cast<std::uint64_t>(h.link_rate.bps())};
  count = static_cast<std::uint8_t>(s.size());
  return true;
}

std::string check_red(const red_config& c) {
  std::string out;
  if (!std::isfinite(c.p_max))
    out = "red_ecn.p_max = " + std::to_string(c.p_max) + ": must be finite";
  for (const auto& e : validate(to_params(c))) out += (out.empty() ? "" : "; ") + e.message();
  return out;
}

red_verdict red_decide(const red_config& c, std::uint8_t ecn, std::uint64_t backlog,
                       std::uint32_t draw) {
  const red_decision d = red_ecn_on_packet(static_cast<ecn_codepoint>(ecn & 3u),
                                           bytes{clamp_i64(backlog)}, draw, to_params(c));
  switch (d.action) {
    case red_action::mark:
      return red_verdict::mark;
    case red_action::drop:
      return red_verdict::drop;
    case red_action::pass:
      break;
  }
  return red_verdict::pass;
}

np_verdict np_on_packet(np_flow& f, bool ce, std::int64_t now_ns, std::int64_t interval_ns,
                        bool schedule_mode, std::int64_t& at_ns) {
  dcqcn_np_flow_state st{timestamp{f.last_cnp_ns}, f.any};
  dcqcn_np_params p;
  p.interval = duration{interval_ns < 0 ? 0 : interval_ns};
  p.mode = schedule_mode ? dcqcn_np_mode::schedule : dcqcn_np_mode::suppress;
  const dcqcn_np_decision d = dcqcn_np_on_packet(st, ce, timestamp{now_ns}, p);
  f.last_cnp_ns = st.last_cnp.count();
  f.any = st.any;
  at_ns = d.at.count();
  switch (d.action) {
    case dcqcn_np_action::send_now:
      return np_verdict::send_now;
    case dcqcn_np_action::schedule:
      return np_verdict::schedule;
    case dcqcn_np_action::none:
      break;
  }
  return np_verdict::none;
}

bolt_src_out bolt_on_packet(bolt_port& port, bolt_packet& pkt, std::uint64_t pkt_size,
                            std::uint64_t q_size, std::uint64_t rate_bps, std::int64_t now_ns,
                            const bolt_switch_config& c) {
  bolt_port_state st;
  st.last_sm_time = timestamp{port.last_sm_ns};
  st.sm_token = port.sm_token;
  st.pru_token = port.pru_token;
  bolt_header h;
  h.data = pkt.data;
  h.first = pkt.first;
  h.last = pkt.last;
  h.inc = pkt.inc;
  h.dec = pkt.dec;
  h.t_data_tx = pkt.t_data_tx;
  const bolt_params p = to_params(c);
  const bolt_ingress_result r =
      bolt_ingress(st, h, bytes{clamp_i64(pkt_size)},
                   bolt_port_view{bytes{clamp_i64(q_size)}, bit_rate{clamp_i64(rate_bps)}},
                   timestamp{now_ns}, p);
  port.last_sm_ns = st.last_sm_time.count();
  port.sm_token = st.sm_token;
  port.pru_token = st.pru_token;
  pkt.inc = h.inc;
  pkt.dec = h.dec;
  bolt_src_out out;
  if (r.send_src) {
    out.send = true;
    out.queue = static_cast<std::uint64_t>(bolt_decode_q_size(r.src.q_size).count());
    out.rate_bps =
        static_cast<std::uint64_t>(bolt_decode_link_rate(r.src.link_rate, p.link_rate_unit).bps());
    out.t_data_tx = r.src.t_data_tx;
  }
  return out;
}

std::string check_bolt(const bolt_switch_config& c) {
  std::string out;
  for (const auto& e : validate(to_params(c))) out += (out.empty() ? "" : "; ") + e.message();
  return out;
}

fasttune_out fasttune_on_packet(bool& new_ack, fasttune_kind kind, hop_record* hops,
                                std::uint8_t& count, const port_state& data_egress,
                                std::int64_t now_ns, const fasttune_config& c) {
  int_stack<max_int_hops> s;
  const std::size_t n = std::min<std::size_t>(count, max_int_hops);
  for (std::size_t i = 0; i < n; ++i)
    static_cast<void>(s.push(int_hop{hops[i].ts_ns, bytes{clamp_i64(hops[i].qlen)},
                                     hops[i].tx_bytes, bit_rate{clamp_i64(hops[i].rate_bps)}}));
  fasttune_flow_state flow{new_ack};
  fasttune_switch_params p;
  p.switch_feedback = c.switch_feedback;
  p.ack_padding = c.ack_padding;
  p.int_push.max_hops = std::clamp<std::size_t>(c.max_hops, 1, max_int_hops);
  const fasttune_packet_kind k = kind == fasttune_kind::data ? fasttune_packet_kind::data
                                 : kind == fasttune_kind::host_ack
                                     ? fasttune_packet_kind::host_ack
                                     : fasttune_packet_kind::switch_ack;
  const int_port_view view{bytes{clamp_i64(data_egress.qlen)}, data_egress.tx_bytes,
                           bit_rate{clamp_i64(data_egress.rate_bps)}};
  const auto r = fasttune_switch(flow, k, s, view, timestamp{now_ns}, p);
  new_ack = flow.new_ack;
  auto out_of = [](const int_hop& h) {
    return hop_record{h.ts, static_cast<std::uint64_t>(h.qlen.count()), h.tx_bytes,
                      static_cast<std::uint64_t>(h.link_rate.bps())};
  };
  for (std::size_t i = 0; i < s.size(); ++i) hops[i] = out_of(s[i]);
  count = static_cast<std::uint8_t>(s.size());
  fasttune_out out;
  out.send = r.send_sack;
  out.count = static_cast<std::uint8_t>(r.sack_int.size());
  for (std::size_t i = 0; i < r.sack_int.size(); ++i) out.hops[i] = out_of(r.sack_int[i]);
  return out;
}

}  // namespace netcc::ns3
