// SPDX-License-Identifier: MIT
/// @file
/// @brief The controllers the scenario runner can drive, by name, with the switch features
/// each needs and its parameters derived from the scenario (host rate, base RTT, N).
/// @code
/// for (const auto& c : netcc::testbench::controllers()) std::puts(c.name.c_str());
/// @endcode
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "netcc/control/bolt_sender.hpp"
#include "netcc/control/dcqcn.hpp"
#include "netcc/control/dctcp.hpp"
#include "netcc/control/fasttune.hpp"
#include "netcc/control/hpcc.hpp"
#include "netcc/control/make.hpp"
#include "netcc/control/powertcp.hpp"
#include "netcc/control/swift.hpp"
#include "netcc/control/timely.hpp"
#include "netcc/control/vegas.hpp"
#include "netcc/testbench/scenario.hpp"
#include "netcc/testbench/sender_cc.hpp"

namespace netcc::testbench {

/// @brief A controller built by checked construction (netcc::make): the parameters a scenario
/// derives are validated, and a bad one throws std::invalid_argument naming the controller and
/// every field, value and rule (the runner reports it and exits 2), instead of the controller
/// silently falling back to its defaults.
template <class C>
[[nodiscard]] std::unique_ptr<cc_model<C>> checked_model(
    const std::string& name, const typename controller_traits<C>::params_type& p) {
  auto made = make<C>(p);
  if (!made) {
    std::string why;
    for (const auto& e : made.errors()) why += (why.empty() ? "" : "; ") + e.message();
    throw std::invalid_argument(name + ": the scenario gives invalid parameters: " + why);
  }
  return std::make_unique<cc_model<C>>(name, std::move(made).value());
}

/// @brief Every controller the runner knows, in display order.
[[nodiscard]] inline std::vector<cc_entry> controllers() {
  std::vector<cc_entry> v;
  v.push_back({"fixed-bdp", "reference: a fixed window of one BDP, no congestion control", nullptr,
               [](const cc_context& c) -> std::unique_ptr<sender_cc> {
                 return std::make_unique<cc_model<fixed_window>>("fixed-bdp",
                                                                 c.host_rate * c.base_rtt);
               }});
  // INT controllers: the switches push INT at dequeue (switch_config::int_push, on by default).
  // Parameters as each paper's evaluation sets them: HostBw = the NIC rate, tau / T = the
  // path's base RTT, N = the scenario's expected flows.
  v.push_back({"powertcp", "PowerTCP with INT (NSDI'22 Algorithm 1)", nullptr,
               [](const cc_context& c) -> std::unique_ptr<sender_cc> {
                 return checked_model<powertcp>(
                     "powertcp", powertcp_params{.host_rate = c.host_rate,
                                                 .base_rtt = c.base_rtt,
                                                 .expected_flows = c.expected_flows});
               }});
  v.push_back({"theta-powertcp", "theta-PowerTCP, RTT only (NSDI'22 Algorithm 2)", nullptr,
               [](const cc_context& c) -> std::unique_ptr<sender_cc> {
                 return checked_model<theta_powertcp>(
                     "theta-powertcp", theta_powertcp_params{.host_rate = c.host_rate,
                                                             .base_rtt = c.base_rtt,
                                                             .expected_flows = c.expected_flows});
               }});
  // TIMELY: RTT samples only, the paper's thresholds, delta, beta, alpha and 16 KB segment
  // (§6), its rate capped at the NIC rate and min RTT = the path's base RTT. An ACK completes
  // the packets it acknowledges (one, or a segment's worth with delayed ACKs), and the
  // serialisation subtracted from its RTT is theirs, at most one segment's.
  v.push_back({"timely", "TIMELY, RTT gradient (SIGCOMM'15 Algorithm 1)",
               [](switch_config& sw, const cc_context&) { sw.int_push = false; },
               [](const cc_context& c) -> std::unique_ptr<sender_cc> {
                 return checked_model<timely>(
                     "timely", timely_params{.min_rtt = c.base_rtt, .line_rate = c.host_rate});
               }});
  // Swift: RTT samples only, the defaults of netcc::swift_params (50 us base target and a
  // 200 us flow-scaling range, as Bolt §5.3 configures Swift), packets of MTU - 40 B payload.
  v.push_back({"swift", "Swift, delay target with flow scaling (SIGCOMM'20 Algorithm 1)",
               [](switch_config& sw, const cc_context&) { sw.int_push = false; },
               [](const cc_context& c) -> std::unique_ptr<sender_cc> {
                 return checked_model<swift>("swift", swift_params{.mss = c.mtu - bytes{40}});
               }});
  // TCP Vegas: RTT samples only, a window of whole segments (MSS = MTU - 40 B of IPv4 and TCP
  // headers), the paper's alpha = 2, beta = 4, gamma = 1, and growth only while the window limits
  // the sender (Linux's rule): a host whose NIC is the bottleneck waits for its own link, a
  // delay its RTT samples do not contain, and would otherwise grow its window without bound.
  v.push_back({"vegas", "TCP Vegas, RTT only (Brakmo-Peterson 1995; seed 003 Alg. 3)",
               [](switch_config& sw, const cc_context&) { sw.int_push = false; },
               [](const cc_context& c) -> std::unique_ptr<sender_cc> {
                 return checked_model<vegas>(
                     "vegas", vegas_params{.mss = c.mtu - bytes{40}, .cwnd_limited_growth = true});
               }});
  v.push_back({"hpcc", "HPCC with INT (SIGCOMM'19 Algorithm 1)", nullptr,
               [](const cc_context& c) -> std::unique_ptr<sender_cc> {
                 return checked_model<hpcc>("hpcc",
                                            hpcc_params{.host_rate = c.host_rate,
                                                        .base_rtt = c.base_rtt,
                                                        .expected_flows = c.expected_flows});
               }});
  // HPCC+ (FastTune §V-A "Schemes"): HPCC without its additive-increase stages (maxStage = 0),
  // the comparison FastTune's evaluation adds; otherwise HPCC's parameters.
  v.push_back({"hpcc-plus", "HPCC+ of FastTune §V-A: HPCC with maxStage = 0", nullptr,
               [](const cc_context& c) -> std::unique_ptr<sender_cc> {
                 hpcc_params p{.host_rate = c.host_rate,
                               .base_rtt = c.base_rtt,
                               .expected_flows = c.expected_flows};
                 p.max_stage = 0;
                 return checked_model<hpcc>("hpcc-plus", p);
               }});
  // Bolt: the switches run Bolt's ingress (SRCs at CC_THRESH, PRU and supply tokens, INC;
  // NSDI'23 Algorithm 1) instead of pushing INT; the sender is Algorithm 2 with §4.2's
  // FIRST/LAST marking, at the NIC rate and the path's base RTT, starting at one BDP. The
  // engine counts windows in payload bytes, so one packet of window ("cwnd +- 1", Algorithm 2)
  // is the payload of a full packet, MTU - 40 B, while target_q counts the queue in MTUs.
  v.push_back({"bolt", "Bolt sender with Bolt switches (NSDI'23 Alg. 1-2, §4.2)",
               [](switch_config& sw, const cc_context& c) {
                 sw.int_push = false;
                 sw.bolt = true;
                 sw.bolt_cfg.mtu = c.mtu;
               },
               [](const cc_context& c) -> std::unique_ptr<sender_cc> {
                 return checked_model<bolt_sender>("bolt",
                                                   bolt_sender_params{.mtu = c.mtu,
                                                                      .mss = c.mtu - bytes{40},
                                                                      .host_rate = c.host_rate,
                                                                      .base_rtt = c.base_rtt});
               }});
  // FastTune: INT comes padded into ACKs and S-ACKs by FastTune switches (Algorithm 1), not
  // pushed onto data packets.
  v.push_back({"fasttune", "FastTune sender with S-ACKs and ACK padding (ISPA'21 Alg. 1, 2)",
               [](switch_config& sw, const cc_context&) {
                 sw.int_push = false;
                 sw.fasttune = true;
               },
               [](const cc_context& c) -> std::unique_ptr<sender_cc> {
                 return checked_model<fasttune>(
                     "fasttune", fasttune_params{.host_rate = c.host_rate,
                                                 .base_rtt = c.base_rtt,
                                                 .expected_flows = c.expected_flows});
               }});
  // DCTCP: a single ECN threshold K at the switches (K_min = K_max), at the paper's guideline
  // K > C * RTT / 7 (DCTCP SIGCOMM'10 §3.3, Eq. 13) for the bottleneck C and the path's base RTT:
  // C * RTT / 7 plus one full packet. INT is not needed.
  v.push_back({"dctcp", "DCTCP over a step ECN threshold K (SIGCOMM'10; RFC 8257)",
               [](switch_config& sw, const cc_context& c) {
                 sw.int_push = false;
                 sw.ecn = true;
                 sw.ecn_kmin = sw.ecn_kmax = (c.bottleneck_rate * c.base_rtt) / 7 + c.mtu;
               },
               [](const cc_context& c) -> std::unique_ptr<sender_cc> {
                 return checked_model<dctcp>("dctcp", dctcp_params{.mss = c.mtu - bytes{40}});
               }});
  // DCQCN: RED/ECN at the switches with the seed's Table II (K_min 5 kB, K_max 200 kB,
  // P_max 1 %), marked at dequeue as RoCE switches do, CNPs from the receiver's notification point (network_config::cnp_interval,
  // 50 us), the reaction point at the NIC rate. Its timers run on every send and on a 5 us tick.
  v.push_back({"dcqcn", "DCQCN reaction point over RED/ECN and CNPs (SIGCOMM'15; seed Tables I-II)",
               [](switch_config& sw, const cc_context&) {
                 sw.int_push = false;
                 sw.ecn = true;
                 sw.ecn_kmin = bytes{5'000};
                 sw.ecn_kmax = bytes{200'000};
                 sw.ecn_pmax = 0.01;
                 sw.ecn_at_dequeue = true;
               },
               [](const cc_context& c) -> std::unique_ptr<sender_cc> {
                 auto m = checked_model<dcqcn>("dcqcn", dcqcn_params{.line_rate = c.host_rate});
                 m->set_tick(duration{5'000});
                 return m;
               }});
  return v;
}

/// @brief The controller named `name` (as on netcc-sim's command line), or nothing.
/// @code
/// if (const auto c = netcc::testbench::find_controller("powertcp")) std::puts(c->description.c_str());
/// @endcode
[[nodiscard]] inline std::optional<cc_entry> find_controller(std::string_view name) {
  for (auto& c : controllers())
    if (c.name == name) return std::move(c);
  return std::nullopt;
}

}  // namespace netcc::testbench
