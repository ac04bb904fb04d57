// SPDX-License-Identifier: MIT
// The netcc half of the ns-3 adapter: netcc's built-in controllers as controller kinds, and the
// registry of kinds. C++20, no ns-3 headers (see bridge.h).
#include <deque>
#include <iterator>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "netcc-ns3/bridge.h"
#include "netcc-ns3/register.hpp"
#include "netcc/control/bolt_sender.hpp"
#include "netcc/control/dcqcn.hpp"
#include "netcc/control/dctcp.hpp"
#include "netcc/control/fasttune.hpp"
#include "netcc/control/hpcc.hpp"
#include "netcc/control/powertcp.hpp"
#include "netcc/control/swift.hpp"
#include "netcc/control/timely.hpp"
#include "netcc/control/vegas.hpp"

namespace netcc::ns3 {
namespace {

// The parameters shared by PowerTCP and theta-PowerTCP (one control law, two signals).
template <class P>
std::vector<field_binding<P>> powertcp_fields(const std::string& n) {
  return {
      field<&P::gamma>("Gamma", n + "gamma", "EWMA weight of the window update, (0, 1] (Alg. 1)"),
      field<&P::host_rate>("HostRate", n + "host_rate", "HostBw: the NIC rate"),
      field<&P::base_rtt>("BaseRtt", n + "base_rtt", "tau: the base RTT"),
      field<&P::expected_flows>("ExpectedFlows", n + "expected_flows",
                                "N: flows sharing the bottleneck, for the default beta"),
      field<&P::beta>("Beta", n + "beta", "additive increase, bytes (0: HostBw * tau / N, §3.3)"),
      field<&P::cwnd_init>("InitCwnd", n + "cwnd_init", "initial window, bytes (0: HostBw * tau)"),
      field<&P::min_cwnd>("MinCwnd", n + "min_cwnd", "window floor, bytes"),
      field<&P::max_cwnd>("MaxCwnd", n + "max_cwnd", "window ceiling, bytes"),
      field<&P::min_rate>("MinRate", n + "min_rate", "pacing floor (0: none)"),
      field<&P::max_rate>("MaxRate", n + "max_rate", "pacing ceiling (0: HostBw)"),
      field<&P::tau_source>("TauSource", n + "tau_source",
                            "tau from the configured base RTT or the minimum RTT seen",
                            {"Configured", "MinRtt"}),
      field<&P::line_rate_first_rtt>("LineRateFirstRtt", n + "line_rate_first_rtt",
                                     "send at line rate in the first RTT (§3.3)"),
  };
}

template <class P>
std::vector<field_binding<P>> hpcc_like_fields(const std::string& n) {
  return {
      field<&P::eta>("Eta", n + "eta", "target utilisation eta (HPCC §3.3)"),
      field<&P::host_rate>("HostRate", n + "host_rate", "the NIC rate"),
      field<&P::base_rtt>("BaseRtt", n + "base_rtt", "T: the base RTT"),
      field<&P::expected_flows>("ExpectedFlows", n + "expected_flows",
                                "flows sharing the bottleneck, for the default W_AI"),
      field<&P::w_ai>("WAi", n + "w_ai", "additive increase W_AI, bytes (0: derived)"),
      field<&P::cwnd_init>("InitCwnd", n + "cwnd_init", "initial window, bytes (0: rate * T)"),
      field<&P::min_cwnd>("MinCwnd", n + "min_cwnd", "window floor, bytes"),
      field<&P::max_cwnd>("MaxCwnd", n + "max_cwnd", "window ceiling, bytes (0: rate * T)"),
      field<&P::min_rate>("MinRate", n + "min_rate", "pacing floor (0: none)"),
  };
}

std::vector<controller_kind> builtin_kinds() {
  std::vector<controller_kind> k;
  {
    using P = vegas_params;
    k.push_back(make_kind<vegas>(
        "vegas", "ns3::NetccVegas",
        "TCP Vegas (Brakmo, Peterson, JSAC 1995, §III; netcc/control/vegas.hpp)",
        feedback_need::rtt,
        {field<&P::alpha>("Alpha", "vegas.alpha", "alpha, packets of queue (§III-A)"),
         field<&P::beta>("Beta", "vegas.beta", "beta, packets of queue (§III-A)"),
         field<&P::gamma>("Gamma", "vegas.gamma", "gamma, slow-start exit, packets (§III-C)"),
         mss_field(field<&P::mss>("Mss", "vegas.mss", "the socket's segment size")),
         field<&P::init_cwnd>("InitCwnd", "vegas.init_cwnd", "initial window, bytes (0: RFC 6928)"),
         field<&P::min_cwnd>("MinCwnd", "vegas.min_cwnd", "window floor, bytes (0: two MSS)"),
         field<&P::max_cwnd>("MaxCwnd", "vegas.max_cwnd", "window ceiling, bytes"),
         field<&P::cwnd_limited_growth>("CwndLimitedGrowth", "vegas.cwnd_limited_growth",
                                        "grow only while the window limits the sender")}));
  }
  for (const bool counting : {false, true}) {
    // Congestion avoidance by MSS * acked / cwnd (netcc::dctcp), or by RFC 5681's byte counting
    // (netcc::dctcp_counting, the rule ns-3's own TcpDctcp inherits from TcpLinuxReno).
    const std::string n = counting ? "dctcp_counting" : "dctcp";
    const std::string tid = counting ? "ns3::NetccDctcpCounting" : "ns3::NetccDctcp";
    const std::string doc =
        std::string(
            "DCTCP (Alizadeh et al., SIGCOMM 2010, §3, Eq. 1-2; RFC 8257; "
            "netcc/control/dctcp.hpp)") +
        (counting ? ", congestion avoidance by RFC 5681 §3.1 byte counting" : "");
    using P = dctcp_params;
    std::vector<field_binding<P>> f = {
        field<&P::g>("G", "dctcp.g", "EWMA gain g of alpha (Eq. 1)"),
        field<&P::alpha_init>("AlphaInit", "dctcp.alpha_init", "initial alpha (RFC 8257 §4.2)"),
        mss_field(field<&P::mss>("Mss", "dctcp.mss", "the socket's segment size")),
        field<&P::init_cwnd>("InitCwnd", "dctcp.init_cwnd", "initial window, bytes (0: RFC 6928)"),
        field<&P::min_cwnd>("MinCwnd", "dctcp.min_cwnd", "window floor, bytes (0: two MSS)"),
        field<&P::max_cwnd>("MaxCwnd", "dctcp.max_cwnd", "window ceiling, bytes"),
        field<&P::abc_limit>("AbcLimit", "dctcp.abc_limit",
                             "bytes counted per ACK in slow start (0: two MSS, RFC 3465)"),
        field<&P::cwnd_limited_growth>("CwndLimitedGrowth", "dctcp.cwnd_limited_growth",
                                       "grow only while the window limits the sender")};
    if (counting) {
      k.push_back(make_kind<dctcp_counting>(n, tid, doc, feedback_need::ecn, std::move(f)));
    } else {
      k.push_back(make_kind<dctcp>(n, tid, doc, feedback_need::ecn, std::move(f)));
    }
  }
  {
    using P = swift_params;
    k.push_back(make_kind<swift>(
        "swift", "ns3::NetccSwift",
        "Swift (Kumar et al., SIGCOMM 2020, §3, Alg. 1; netcc/control/swift.hpp)",
        feedback_need::rtt,
        {mss_field(field<&P::mss>("Mss", "swift.mss", "the socket's segment size")),
         field<&P::ai>("Ai", "swift.ai", "additive increment, packets per RTT"),
         field<&P::beta>("Beta", "swift.beta", "multiplicative-decrease constant beta"),
         field<&P::max_mdf>("MaxMdf", "swift.max_mdf", "largest decrease per RTT"),
         field<&P::retx_reset_threshold>("RetxResetThreshold", "swift.retx_reset_threshold",
                                         "timeouts before the window resets to its minimum"),
         field<&P::min_cwnd>("MinCwnd", "swift.min_cwnd", "window floor, packets"),
         field<&P::max_cwnd>("MaxCwnd", "swift.max_cwnd", "window ceiling, packets"),
         field<&P::init_cwnd>("InitCwnd", "swift.init_cwnd", "initial window, packets"),
         field<&P::base_target>("BaseTarget", "swift.base_target", "base target delay"),
         field<&P::per_hop>("PerHop", "swift.per_hop", "target added per hop"),
         field<&P::hops>("Hops", "swift.hops", "hops assumed for the target"),
         field<&P::fs_range>("FsRange", "swift.fs_range", "flow-scaling range (§3.5)"),
         field<&P::fs_min_cwnd>("FsMinCwnd", "swift.fs_min_cwnd", "flow scaling's min window"),
         field<&P::fs_max_cwnd>("FsMaxCwnd", "swift.fs_max_cwnd", "flow scaling's max window"),
         field<&P::endpoint_target>("EndpointTarget", "swift.endpoint_target",
                                    "endpoint (host) target delay")}));
  }
  {
    using P = timely_params;
    k.push_back(make_kind<timely>(
        "timely", "ns3::NetccTimely",
        "TIMELY (Mittal et al., SIGCOMM 2015, §4, Alg. 1, §5; netcc/control/timely.hpp)",
        feedback_need::rtt,
        {field<&P::t_low>("TLow", "timely.t_low", "T_low"),
         field<&P::t_high>("THigh", "timely.t_high", "T_high"),
         field<&P::delta>("Delta", "timely.delta", "additive step delta"),
         field<&P::beta>("Beta", "timely.beta", "multiplicative decrease beta"),
         field<&P::alpha>("Alpha", "timely.alpha", "EWMA weight alpha of the gradient"),
         field<&P::hai_threshold>("HaiThreshold", "timely.hai_threshold",
                                  "negative gradients before HAI"),
         field<&P::hai_factor>("HaiFactor", "timely.hai_factor", "HAI multiplier N"),
         field<&P::min_rtt>("MinRtt", "timely.min_rtt", "min RTT normalising the gradient"),
         field<&P::segment>("Segment", "timely.segment", "segment size of one RTT sample, bytes"),
         field<&P::line_rate>("LineRate", "timely.line_rate", "rate ceiling (§5)"),
         field<&P::min_rate>("MinRate", "timely.min_rate", "rate floor"),
         field<&P::initial_rate>("InitialRate", "timely.initial_rate", "start rate (0: line)"),
         field<&P::app_limit>("AppLimit", "timely.app_limit",
                              "increase only above this share of the rate (§5)"),
         field<&P::send_rate_window>("SendRateWindow", "timely.send_rate_window",
                                     "send-rate meter window (0: min RTT)"),
         field<&P::scale_updates>("ScaleUpdates", "timely.scale_updates",
                                  "scale updates by segment time / min RTT (§5)"),
         field<&P::ack_rtt>("AckRtt", "timely.ack_rtt",
                            "the ACK's RTT: completion time (serialisation removed) or net",
                            {"CompletionTime", "Net"}),
         field<&P::max_outstanding>("MaxOutstanding", "timely.max_outstanding",
                                    "window cap, bytes (0: none)")}));
  }
  k.push_back(make_kind<theta_powertcp>("theta-powertcp", "ns3::NetccThetaPowerTcp",
                                        "theta-PowerTCP, RTT only (Addanki et al., NSDI 2022, "
                                        "§3.4, Alg. 2; netcc/control/powertcp.hpp)",
                                        feedback_need::rtt,
                                        powertcp_fields<theta_powertcp_params>("theta_powertcp.")));
  k.push_back(make_kind<powertcp>(
      "powertcp", "ns3::NetccPowerTcp",
      "PowerTCP with INT (Addanki et al., NSDI 2022, §3.3, Alg. 1; netcc/control/powertcp.hpp)",
      feedback_need::int_, powertcp_fields<powertcp_params>("powertcp.")));
  {
    auto f = hpcc_like_fields<hpcc_params>("hpcc.");
    f.push_back(field<&hpcc_params::max_stage>("MaxStage", "hpcc.max_stage",
                                               "additive-increase stages maxStage (Alg. 1)"));
    k.push_back(
        make_kind<hpcc>("hpcc", "ns3::NetccHpcc",
                        "HPCC (Li et al., SIGCOMM 2019, §3.3, Alg. 1; netcc/control/hpcc.hpp)",
                        feedback_need::int_, std::move(f)));
  }
  k.push_back(make_kind<fasttune>(
      "fasttune", "ns3::NetccFastTune",
      "FastTune sender (ISPA 2021, §III-C, Alg. 2; netcc/control/fasttune.hpp)",
      feedback_need::int_padded, hpcc_like_fields<fasttune_params>("fasttune.")));
  {
    using P = dcqcn_params;
    k.push_back(make_kind<dcqcn>(
        "dcqcn", "ns3::NetccDcqcn",
        "DCQCN reaction point (Zhu et al., SIGCOMM 2015, §3.1; netcc/control/dcqcn.hpp)",
        feedback_need::cnp,
        {field<&P::line_rate>("LineRate", "dcqcn.line_rate", "the NIC rate, the start rate"),
         field<&P::min_rate>("MinRate", "dcqcn.min_rate", "rate floor"),
         field<&P::g>("G", "dcqcn.g", "alpha's EWMA gain g"),
         field<&P::alpha_init>("AlphaInit", "dcqcn.alpha_init", "initial alpha"),
         field<&P::alpha_timer>("AlphaTimer", "dcqcn.alpha_timer", "alpha update period K"),
         field<&P::rate_timer>("RateTimer", "dcqcn.rate_timer", "rate increase timer T"),
         field<&P::byte_counter>("ByteCounter", "dcqcn.byte_counter", "byte counter B, bytes"),
         field<&P::r_ai>("RAi", "dcqcn.r_ai", "additive increase R_AI"),
         field<&P::r_hi>("RHi", "dcqcn.r_hi", "hyper increase R_HI"),
         field<&P::f>("F", "dcqcn.f", "fast-recovery steps F"),
         field<&P::cut>("Cut", "dcqcn.cut", "the CNP cut", {"HalfAlpha", "FullAlpha"}),
         field<&P::target>("Target", "dcqcn.target", "when a CNP resets R_T",
                           {"EveryCnp", "AfterTimerIncrease"}),
         field<&P::hyper>("Hyper", "dcqcn.hyper", "how hyper increase counts",
                          {"TableI", "FromOne"})}));
  }
  {
    using P = bolt_sender_params;
    k.push_back(make_kind<bolt_sender>(
        "bolt", "ns3::NetccBolt",
        "Bolt sender (Arslan et al., NSDI 2023, §3, Alg. 2, §4.2; netcc/control/bolt_sender.hpp)",
        feedback_need::src,
        {field<&P::mtu>("Mtu", "bolt_sender.mtu", "MTU, bytes (target_q counts MTUs)"),
         mss_field(field<&P::mss>("Mss", "bolt_sender.mss", "payload per packet")),
         field<&P::host_rate>("HostRate", "bolt_sender.host_rate", "the NIC rate"),
         field<&P::base_rtt>("BaseRtt", "bolt_sender.base_rtt", "the base RTT"),
         field<&P::cwnd_init>("InitCwnd", "bolt_sender.cwnd_init", "initial window (0: BDP)"),
         field<&P::min_cwnd>("MinCwnd", "bolt_sender.min_cwnd", "window floor, bytes"),
         field<&P::max_cwnd>("MaxCwnd", "bolt_sender.max_cwnd", "window ceiling, bytes"),
         field<&P::max_mdf>("MaxMdf", "bolt_sender.max_mdf", "largest decrease per RTT"),
         field<&P::retx_reset_threshold>("RetxResetThreshold", "bolt_sender.retx_reset_threshold",
                                         "timeouts before the window resets"),
         field<&P::additive_increase>("AdditiveIncrease", "bolt_sender.additive_increase",
                                      "per-RTT additive increase (Alg. 2)")}));
  }
  return k;
}

struct registry {
  std::mutex lock;
  std::deque<controller_kind> kinds = [] {
    auto v = builtin_kinds();
    return std::deque<controller_kind>(std::make_move_iterator(v.begin()),
                                       std::make_move_iterator(v.end()));
  }();
};

registry& the_registry() {
  static registry r;
  return r;
}

}  // namespace

const std::deque<controller_kind>& controller_kinds() {
  return the_registry().kinds;
}

const controller_kind* find_controller_kind(const std::string& key) {
  for (const auto& k : the_registry().kinds)
    if (k.type_id == key || k.name == key || k.type_id + sender_suffix == key) return &k;
  return nullptr;
}

bool add_controller_kind(controller_kind kind) {
  {
    registry& r = the_registry();
    const std::lock_guard<std::mutex> g(r.lock);
    for (const auto& k : r.kinds)
      if (k.type_id == kind.type_id || k.name == kind.name) return false;
    r.kinds.push_back(std::move(kind));
  }
  return true;
}

}  // namespace netcc::ns3
