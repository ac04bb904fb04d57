// SPDX-License-Identifier: MIT
/// @file
/// @brief The controllers the scenario runner can drive, by name, with the switch features
/// each needs and its parameters derived from the scenario (host rate, base RTT, N).
///
/// Sources: each controller's paper (on its header's page); the parameters derived from a scenario
/// follow the papers' rules, e.g. PowerTCP (NSDI'22) §3.3 (beta = HostBw * tau / N, cwnd_init =
/// HostBw * tau) and HPCC (SIGCOMM'19) §3.3 (W_AI).
///
/// @code
/// for (const auto& c : netcc::testbench::controllers()) std::puts(c.name.c_str());
/// @endcode
#pragma once

#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
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
/// @brief The scenario's controller-parameter overrides, applied to a parameter struct's fields:
/// a set key (not NaN) replaces the field; durations are given in us, rates in Mbps, sizes in
/// bytes, counts as whole numbers (anything else is refused here, naming the key, before the
/// controller's validate() sees the value).
namespace cc_param {
/// @brief Whether `v` is set.
[[nodiscard]] inline bool given(double v) noexcept {
  return !std::isnan(v);
}
/// @brief A dimensionless field.
inline void apply(double v, double& field) {
  if (given(v)) field = v;
}
/// @brief A whole-number field (counts, stages).
template <std::integral T>
inline void apply(double v, T& field, const char* key) {
  if (!given(v)) return;
  if (v != std::floor(v) || v < static_cast<double>(std::numeric_limits<T>::min()) ||
      v > static_cast<double>(std::numeric_limits<T>::max())) {
    std::ostringstream m;
    m << key << " = " << v << ": must be a whole number in [" << +std::numeric_limits<T>::min()
      << ", " << +std::numeric_limits<T>::max() << "]";
    throw std::invalid_argument(m.str());
  }
  field = static_cast<T>(v);
}
/// @brief A duration given in us.
inline void apply_us(double v, duration& field) {
  if (given(v)) field = duration{static_cast<std::int64_t>(std::llround(v * 1e3))};
}
/// @brief A rate given in Mbps.
inline void apply_mbps(double v, bit_rate& field) {
  if (given(v)) field = bit_rate{static_cast<std::int64_t>(std::llround(v * 1e6))};
}
/// @brief A size given in bytes.
inline void apply_bytes(double v, bytes& field) {
  if (given(v)) field = bytes{static_cast<std::int64_t>(std::llround(v))};
}
}  // namespace cc_param

/// @brief DCQCN's parameters with the scenario's dcqcn_* keys applied (SIGCOMM'15 §5, Table I:
/// g, K, T, B, R_AI, R_HI, F).
inline void apply_scenario_params(const cc_context& c, dcqcn_params& p) {
  if (!c.params) return;
  const scenario& s = *c.params;
  cc_param::apply(s.dcqcn_g, p.g);
  cc_param::apply_us(s.dcqcn_k_us, p.alpha_timer);
  cc_param::apply_us(s.dcqcn_t_us, p.rate_timer);
  cc_param::apply_bytes(s.dcqcn_b_bytes, p.byte_counter);
  cc_param::apply_mbps(s.dcqcn_r_ai_mbps, p.r_ai);
  cc_param::apply_mbps(s.dcqcn_r_hi_mbps, p.r_hi);
  cc_param::apply(s.dcqcn_f, p.f, "dcqcn_f");
}
/// @brief TIMELY's parameters with the timely_* keys (SIGCOMM'15 Algorithm 1: T_low, T_high,
/// alpha, beta, delta, HAI).
inline void apply_scenario_params(const cc_context& c, timely_params& p) {
  if (!c.params) return;
  const scenario& s = *c.params;
  cc_param::apply_us(s.timely_t_low_us, p.t_low);
  cc_param::apply_us(s.timely_t_high_us, p.t_high);
  cc_param::apply(s.timely_alpha, p.alpha);
  cc_param::apply(s.timely_beta, p.beta);
  cc_param::apply_mbps(s.timely_delta_mbps, p.delta);
  cc_param::apply(s.timely_hai, p.hai_threshold, "timely_hai");
}
/// @brief PowerTCP's (and theta-PowerTCP's) parameters with the powertcp_* keys (NSDI'22
/// Algorithm 1: gamma, beta).
template <class Tag>
inline void apply_scenario_params(const cc_context& c, basic_powertcp_params<Tag>& p) {
  if (!c.params) return;
  cc_param::apply(c.params->powertcp_gamma, p.gamma);
  cc_param::apply_bytes(c.params->powertcp_beta_bytes, p.beta);
}
/// @brief HPCC's parameters with the hpcc_* keys (SIGCOMM'19 Algorithm 1: eta, W_AI, maxStage).
inline void apply_scenario_params(const cc_context& c, hpcc_params& p) {
  if (!c.params) return;
  cc_param::apply(c.params->hpcc_eta, p.eta);
  cc_param::apply_bytes(c.params->hpcc_w_ai_bytes, p.w_ai);
  cc_param::apply(c.params->hpcc_max_stage, p.max_stage, "hpcc_max_stage");
}
/// @brief Swift's parameters with the swift_* keys (SIGCOMM'20 Algorithm 1 and §3.1-3.2:
/// targets, flow-scaling range, ai, beta, max_mdf).
inline void apply_scenario_params(const cc_context& c, swift_params& p) {
  if (!c.params) return;
  const scenario& s = *c.params;
  cc_param::apply_us(s.swift_base_target_us, p.base_target);
  cc_param::apply_us(s.swift_per_hop_us, p.per_hop);
  cc_param::apply_us(s.swift_endpoint_target_us, p.endpoint_target);
  cc_param::apply_us(s.swift_fs_range_us, p.fs_range);
  cc_param::apply(s.swift_ai, p.ai);
  cc_param::apply(s.swift_beta, p.beta);
  cc_param::apply(s.swift_max_mdf, p.max_mdf);
}
/// @brief DCTCP's parameters with the dctcp_* keys (SIGCOMM'10 §3.1 Eq. 1: g; RFC 8257 §3.3:
/// the initial alpha). dctcp_byte_counting chooses the controller type (controllers()).
inline void apply_scenario_params(const cc_context& c, dctcp_params& p) {
  if (!c.params) return;
  cc_param::apply(c.params->dctcp_g, p.g);
  cc_param::apply(c.params->dctcp_alpha_init, p.alpha_init);
}
/// @brief Vegas's parameters with the vegas_* keys (Brakmo-Peterson §III-B and §III-C: alpha,
/// beta, gamma, in packets).
inline void apply_scenario_params(const cc_context& c, vegas_params& p) {
  if (!c.params) return;
  cc_param::apply(c.params->vegas_alpha, p.alpha);
  cc_param::apply(c.params->vegas_beta, p.beta);
  cc_param::apply(c.params->vegas_gamma, p.gamma);
}
/// @brief FastTune's parameters with the fasttune_* keys (ISPA'21 §III-C and §V-A: eta, W_AI).
inline void apply_scenario_params(const cc_context& c, fasttune_params& p) {
  if (!c.params) return;
  cc_param::apply(c.params->fasttune_eta, p.eta);
  cc_param::apply_bytes(c.params->fasttune_w_ai_bytes, p.w_ai);
}
/// @brief Whether dctcp_byte_counting asks for byte counting (netcc::dctcp_counting): 0 or 1,
/// anything else refused naming the key.
[[nodiscard]] inline bool dctcp_byte_counting(const cc_context& c) {
  if (!c.params || !cc_param::given(c.params->dctcp_byte_counting)) return false;
  int on = 0;
  cc_param::apply(c.params->dctcp_byte_counting, on, "dctcp_byte_counting");
  if (on != 0 && on != 1)
    throw std::invalid_argument("dctcp_byte_counting = " + std::to_string(on) +
                                ": must be 0 (MSS x acked / cwnd per ACK) or 1 (byte counting)");
  return on == 1;
}
/// @brief Bolt switches' CC_THRESH from bolt_cc_thresh_bytes (NSDI'23 Algorithm 1 line 4): a
/// whole number of bytes of at least one.
inline void apply_scenario_params(const cc_context& c, bolt_params& p) {
  if (!c.params || !cc_param::given(c.params->bolt_cc_thresh_bytes)) return;
  std::int64_t b = 0;
  cc_param::apply(c.params->bolt_cc_thresh_bytes, b, "bolt_cc_thresh_bytes");
  if (b < 1)
    throw std::invalid_argument("bolt_cc_thresh_bytes = " + std::to_string(b) +
                                ": must be at least 1 (a queue in bytes)");
  p.cc_thresh = bytes{b};
}

/// @brief Build `C` from `p` with the scenario's parameter keys applied, checked (checked_model).
template <class C>
[[nodiscard]] std::unique_ptr<cc_model<C>> scenario_model(
    const std::string& name, const cc_context& c, typename controller_traits<C>::params_type p) {
  apply_scenario_params(c, p);
  return checked_model<C>(name, p);
}

/// @brief Every controller the runner can drive, by name, in the order `netcc-sim list` shows.
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
                 return scenario_model<powertcp>(
                     "powertcp", c,
                     powertcp_params{.host_rate = c.host_rate,
                                     .base_rtt = c.base_rtt,
                                     .expected_flows = c.expected_flows});
               }});
  v.push_back({"theta-powertcp", "theta-PowerTCP, RTT only (NSDI'22 Algorithm 2)", nullptr,
               [](const cc_context& c) -> std::unique_ptr<sender_cc> {
                 return scenario_model<theta_powertcp>(
                     "theta-powertcp", c,
                     theta_powertcp_params{.host_rate = c.host_rate,
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
                 return scenario_model<timely>(
                     "timely", c, timely_params{.min_rtt = c.base_rtt, .line_rate = c.host_rate});
               }});
  // Swift: RTT samples only, the defaults of netcc::swift_params (50 us base target and a
  // 200 us flow-scaling range, as Bolt §5.3 configures Swift), packets of MTU - 40 B payload.
  v.push_back({"swift", "Swift, delay target with flow scaling (SIGCOMM'20 Algorithm 1)",
               [](switch_config& sw, const cc_context&) { sw.int_push = false; },
               [](const cc_context& c) -> std::unique_ptr<sender_cc> {
                 return scenario_model<swift>("swift", c, swift_params{.mss = c.mtu - bytes{40}});
               }});
  // TCP Vegas: RTT samples only, a window of whole segments (MSS = MTU - 40 B of IPv4 and TCP
  // headers), the paper's alpha = 2, beta = 4, gamma = 1, and growth only while the window limits
  // the sender (Linux's rule): a host whose NIC is the bottleneck waits for its own link, a
  // delay its RTT samples do not contain, and would otherwise grow its window without bound.
  v.push_back({"vegas", "TCP Vegas, RTT only (Brakmo-Peterson 1995; seed 003 Alg. 3)",
               [](switch_config& sw, const cc_context&) { sw.int_push = false; },
               [](const cc_context& c) -> std::unique_ptr<sender_cc> {
                 return scenario_model<vegas>(
                     "vegas", c,
                     vegas_params{.mss = c.mtu - bytes{40}, .cwnd_limited_growth = true});
               }});
  v.push_back({"hpcc", "HPCC with INT (SIGCOMM'19 Algorithm 1)", nullptr,
               [](const cc_context& c) -> std::unique_ptr<sender_cc> {
                 return scenario_model<hpcc>("hpcc", c,
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
                 return scenario_model<hpcc>("hpcc-plus", c, p);
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
                 apply_scenario_params(c, sw.bolt_cfg);
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
                 return scenario_model<fasttune>(
                     "fasttune", c,
                     fasttune_params{.host_rate = c.host_rate,
                                     .base_rtt = c.base_rtt,
                                     .expected_flows = c.expected_flows});
               }});
  // DCTCP: a single ECN threshold K at the switches (K_min = K_max), at the paper's guideline
  // K > C * RTT / 7 (DCTCP SIGCOMM'10 §3.3, Eq. 13) for the bottleneck C and the path's base RTT:
  // C * RTT / 7 plus one full packet. INT is not needed. The window grows by MSS x acked / cwnd
  // per ACK, or with dctcp_byte_counting = 1 by RFC 5681's byte counting (netcc::dctcp_counting).
  v.push_back({"dctcp", "DCTCP over a step ECN threshold K (SIGCOMM'10; RFC 8257)",
               [](switch_config& sw, const cc_context& c) {
                 sw.int_push = false;
                 sw.ecn = true;
                 sw.ecn_kmin = sw.ecn_kmax = (c.bottleneck_rate * c.base_rtt) / 7 + c.mtu;
               },
               [](const cc_context& c) -> std::unique_ptr<sender_cc> {
                 const dctcp_params p{.mss = c.mtu - bytes{40}};
                 if (dctcp_byte_counting(c)) return scenario_model<dctcp_counting>("dctcp", c, p);
                 return scenario_model<dctcp>("dctcp", c, p);
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
                 auto m = scenario_model<dcqcn>("dcqcn", c, dcqcn_params{.line_rate = c.host_rate});
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
