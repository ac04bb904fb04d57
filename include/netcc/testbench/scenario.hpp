// SPDX-License-Identifier: MIT
/// @file
/// @brief Scenarios for the runner: a flat set of `key = value` settings, named built-ins, a
/// parser for scenario files, and the code that builds and runs one on the engine.
///
/// The file format is deliberately the smallest that works: one `key = value` per line, `#`
/// starts a comment, blank lines are ignored, keys are the fields of netcc::testbench::scenario
/// (listed by `netcc-sim keys`). Every value is checked; a bad line gives one message naming
/// the line, key, value and rule. A hand-written reader keeps the runner free of dependencies
/// (no INI or YAML library is needed for forty keys of numbers and names).
///
/// Sources: the papers' evaluation scenarios; each built-in names the figure it reproduces, and
/// docs/reproductions.md sets netcc's results beside the papers'.
///
/// @code
/// # incast.scn
/// topology = star
/// senders = 11
/// incast_flows = 10
/// incast_size_bytes = 500000
/// @endcode
#pragma once

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>
#if __has_include(<unistd.h>)
#include <unistd.h>
#endif

#include "netcc/core/units.hpp"
#include "netcc/testbench/io.hpp"
#include "netcc/testbench/metrics.hpp"
#include "netcc/testbench/network.hpp"
#include "netcc/testbench/topology.hpp"
#include "netcc/testbench/workload.hpp"

namespace netcc::testbench {

struct scenario;

/// @brief What a controller factory is told about the flow it builds a controller for.
struct cc_context {
  /// @brief The sending host's NIC rate.
  bit_rate host_rate{};
  /// @brief The path's base round-trip time (propagation + serialisation, no queueing).
  duration base_rtt{};
  /// @brief Expected number of flows sharing a NIC or bottleneck (the papers' N).
  int expected_flows = 1;
  /// @brief Wire size of a full packet.
  bytes mtu{};
  /// @brief The bottleneck link's rate.
  bit_rate bottleneck_rate{};
  /// @brief The scenario whose controller-parameter keys (dcqcn_g, timely_t_low_us, ...)
  /// replace the factory's defaults where set; none: the defaults.
  const scenario* params = nullptr;
};

/// @brief A named controller constructor.
struct cc_entry {
  /// @brief Name used on the command line.
  std::string name;
  /// @brief One line on what it is.
  std::string description;
  /// @brief Switch features it needs (INT, ECN thresholds...).
  std::function<void(switch_config&, const cc_context&)> configure_switch;
  /// @brief Builds one controller for one flow.
  std::function<std::unique_ptr<sender_cc>(const cc_context&)> make;
};

/// @brief A scenario: topology, links, workload, run length, recording.
struct scenario {
  /// @brief Name (for output files).
  std::string name = "incast";
  /// @brief star | dumbbell | leafspine | fattree.
  std::string topology = "star";
  /// @brief Leaf-spine: leaf (ToR) switches.
  int leaves = 2;
  /// @brief Leaf-spine: spine switches (every leaf links to each).
  int spines = 2;
  /// @brief Leaf-spine: hosts under each leaf.
  int hosts_per_leaf = 8;
  /// @brief Fat-tree: k of the k-ary fat-tree (netcc::testbench::fat_tree_shape::k_ary); the
  /// shape keys below override its parts.
  int fattree_k = 4;
  /// @brief Fat-tree: pods (0: k).
  int pods = 0;
  /// @brief Fat-tree: ToRs per pod (0: k/2).
  int tors_per_pod = 0;
  /// @brief Fat-tree: aggregation switches per pod (0: k/2).
  int aggs_per_pod = 0;
  /// @brief Fat-tree: hosts under each ToR (0: k/2).
  int hosts_per_tor = 0;
  /// @brief Fat-tree: core switches (0: (k/2)^2).
  int cores = 0;
  /// @brief Fat-tree: ToR-aggregation link rate, Gbps (0: bottleneck_gbps).
  double agg_gbps = 0;
  /// @brief Fat-tree: aggregation-core link rate, Gbps (0: bottleneck_gbps).
  double core_gbps = 0;
  /// @brief Fat-tree: ToR-aggregation link delay, ns (0: link_delay_ns).
  std::int64_t agg_delay_ns = 0;
  /// @brief Fat-tree: aggregation-core link delay, ns (0: link_delay_ns).
  std::int64_t core_delay_ns = 0;
  /// @brief Hosts that send (star: all on one switch; dumbbell: pairs).
  int senders = 11;
  /// @brief Host NIC rate, Gbps.
  double host_gbps = 100;
  /// @brief Bottleneck (switch to receiver, or switch to switch) rate, Gbps.
  double bottleneck_gbps = 100;
  /// @brief One-way delay of every link, ns.
  std::int64_t link_delay_ns = 1000;
  /// @brief Egress buffer per port, bytes.
  std::int64_t buffer_bytes = 32'000'000;
  /// @brief Long-running flows (senders 0..long_flows-1), started long_start_gap_us apart.
  int long_flows = 1;
  /// @brief Gap between long-flow starts, us.
  double long_start_gap_us = 0;
  /// @brief When each long flow stops, us after it starts (0: runs to the end).
  double long_stop_after_us = 0;
  /// @brief 1: the long flows after the first all start together, long_start_gap_us after it
  /// (a many-to-one join); 0: each starts long_start_gap_us after the previous one.
  int long_join_together = 0;
  /// @brief When the last reroute_flows long flows leave the bottleneck, us (0: never). A
  /// rerouted flow stops sending new data at that time without the LAST marking of a flow that
  /// completes (its packets in flight still drain): the unannounced capacity release of Bolt
  /// NSDI'23 §3.3 and §5.1.3 ("link and device failures or route changes"), which PRU cannot
  /// foresee and only supply matching (or additive increase) can take up.
  double reroute_us = 0;
  /// @brief How many long flows reroute_us moves away: the last ones (1 to long_flows).
  int reroute_flows = 1;
  /// @brief Incast flows (from the next senders), started together or incast_gap_us apart.
  int incast_flows = 10;
  /// @brief Size of each incast flow, bytes.
  std::int64_t incast_size_bytes = 500'000;
  /// @brief Incast start, us.
  double incast_at_us = 500;
  /// @brief Gap between incast flow starts, us (0: all at incast_at_us).
  double incast_gap_us = 0;
  /// @brief Bolt switches: proactive ramp-up (1) or not (0), Bolt §5.1.2 Table 1.
  int bolt_pru = 1;
  /// @brief Bolt switches: supply matching (1) or not (0), Bolt §5.1.2 Table 1, §5.1.3.
  int bolt_sm = 1;
  /// @brief Simulated time, us.
  double duration_us = 3000;
  /// @brief Sampling interval, ns.
  std::int64_t sample_ns = 1000;
  /// @brief Seed.
  std::uint64_t seed = 1;
  /// @brief The papers' N (expected flows per NIC/bottleneck) given to controllers.
  int expected_flows = 10;
  /// @brief On/off sources (from the senders after the long and incast flows): each one
  /// connection that writes burst_bytes every burst_period_us from burst_at_us.
  int burst_flows = 0;
  /// @brief Bytes per burst.
  std::int64_t burst_bytes = 1'500'000;
  /// @brief First burst, us.
  double burst_at_us = 0;
  /// @brief Time between bursts, us.
  double burst_period_us = 500;
  /// @brief Bursts per source (0: until the end of the run).
  int burst_count = 0;
  /// @brief Flow-size CDF of a Poisson workload: none, websearch, hadoop, or a file path.
  std::string cdf = "none";
  /// @brief Offered load of the CDF workload, as a fraction of the bottleneck rate.
  double cdf_load = 0.5;
  /// @brief Start of the CDF workload, us.
  double cdf_at_us = 0;
  /// @brief Most flows the CDF workload generates.
  int cdf_max_flows = 10'000;
  /// @brief Receivers acknowledge every this many in-order packets (see network_config).
  int ack_every = 1;
  /// @brief Delayed-ACK timer, ns (with ack_every > 1).
  std::int64_t ack_delay_ns = 10'000;
  /// @brief PFC at every switch (1) or not (0), with the seed's §V thresholds.
  int pfc = 0;
  /// @brief Chain: switches in a line, one host on each (netcc::testbench::make_chain).
  int chain_switches = 3;
  /// @brief Chain: rate of each switch-to-switch link in order, Gbps, comma-separated (empty:
  /// bottleneck_gbps for all; a shorter list repeats).
  std::string chain_gbps;
  /// @brief Chain: delay of each switch-to-switch link in order, ns, comma-separated (empty:
  /// link_delay_ns for all; a shorter list repeats).
  std::string chain_delay_ns;
  /// @brief Extra long-running flows between chosen hosts, comma-separated `A>B` or `A>B@US`
  /// (from host A to host B, starting at US microseconds): the topology's hosts numbered as
  /// netcc::testbench::scenario_host_count says. On a chain, `0>3,0>1,1>2,2>3` is a parking lot.
  std::string flows;
  /// @brief Flows whose cwnd, pacing rate and goodput go into the time series, as flow numbers
  /// (comma-separated, in the order the run adds flows: long flows, `flows`, incast, bursts,
  /// the CDF workload) or `all`; empty: the long flows only. Numbers past the run's last flow
  /// are skipped.
  std::string series_flows;
  /// @brief Flows (numbers as in series_flows) whose path gets a queue column per hop: the
  /// egress queue of the sender's NIC and of every switch the flow's data leaves.
  std::string path_queues;
  /// @brief Flows (numbers as in series_flows, or `all`) whose controller alpha (DCQCN, DCTCP)
  /// and CNPs per sample interval go into the time series.
  std::string cc_series_flows;
  /// @brief Egress ports whose queue, ECN marks and drops per sample go into the time series,
  /// comma-separated: `N:P` (node N's port P, ports numbered in the order the node's links
  /// were made) or `N>M` (node N's port toward its neighbour M), node ids as the topology
  /// builds them (netcc::testbench::parse_port_list).
  std::string monitor_ports;
  /// @brief RED/ECN K_min of every switch, bytes (0: the controller's setting).
  std::int64_t ecn_kmin_bytes = 0;
  /// @brief RED/ECN K_max of every switch, bytes (0: the controller's setting).
  std::int64_t ecn_kmax_bytes = 0;
  /// @brief RED/ECN P_max of every switch (0: the controller's setting).
  double ecn_pmax = 0;
  /// @brief DCQCN notification point: least time between CNPs of a flow, us.
  double cnp_interval_us = 50;
  /// @brief DCQCN notification point: 0 suppresses CNPs within the interval (DCQCN), 1 sends one
  /// at its end (the network-calculus seed's minimum spacing).
  int cnp_schedule = 0;
  /// @brief Shared-memory buffer of every switch, bytes (0: a buffer of buffer_bytes per egress
  /// port); with it, Dynamic Thresholds share it among the egress queues (switch_config).
  std::int64_t shared_buffer_bytes = 0;
  /// @brief Dynamic Thresholds' alpha of every switch queue (with shared_buffer_bytes).
  double dt_alpha = 1.0;
  /// @brief Most memory a run may take, MiB (0: half of this machine's memory,
  /// netcc::testbench::default_memory_limit). Checked against an estimate before the run
  /// (netcc::testbench::estimate_resources) and against the engine's own count during it.
  std::int64_t max_memory_mb = 0;
  /// @brief Retransmission timeout (go-back-N), us: network_config::rto.
  double rto_us = 1000;
  /// @brief RTT-measurement noise, uniform in [-x, x] ns per sample (0: none;
  /// network_config::noise).
  double rtt_noise_uniform_ns = 0;
  /// @brief RTT-measurement noise, normal with this standard deviation in ns per sample (0:
  /// none). At most one of the two noise keys may be set.
  double rtt_noise_normal_ns = 0;
  /// @brief The value of a controller-parameter key that was not set: NaN keeps the
  /// controller's own default or the value the runner derives from the scenario; a set value
  /// replaces it and is checked by the controller's validate() (netcc::make) before the run
  /// (check_controller).
  static constexpr double unset = std::numeric_limits<double>::quiet_NaN();
  /// @brief DCQCN g (alpha's gain, SIGCOMM'15 Eq. 1).
  double dcqcn_g = unset;
  /// @brief DCQCN K: alpha-update timer, us (SIGCOMM'15 §5 "K", 55 us).
  double dcqcn_k_us = unset;
  /// @brief DCQCN T: rate-increase timer, us (55 us).
  double dcqcn_t_us = unset;
  /// @brief DCQCN B: rate-increase byte counter, bytes (10 MB).
  double dcqcn_b_bytes = unset;
  /// @brief DCQCN R_AI: additive-increase step, Mbps (5 Mbps).
  double dcqcn_r_ai_mbps = unset;
  /// @brief DCQCN R_HI: hyper-increase step, Mbps (50 Mbps).
  double dcqcn_r_hi_mbps = unset;
  /// @brief DCQCN F: fast-recovery stages (5).
  double dcqcn_f = unset;
  /// @brief TIMELY T_low, us (SIGCOMM'15 Algorithm 1, 50 us).
  double timely_t_low_us = unset;
  /// @brief TIMELY T_high, us (500 us).
  double timely_t_high_us = unset;
  /// @brief TIMELY alpha: EWMA weight of the RTT difference (0.02).
  double timely_alpha = unset;
  /// @brief TIMELY beta: multiplicative decrease (0.8).
  double timely_beta = unset;
  /// @brief TIMELY delta: additive step, Mbps (10 Mbps).
  double timely_delta_mbps = unset;
  /// @brief TIMELY HAI: completions of negative gradient before hyper-active increase (5).
  double timely_hai = unset;
  /// @brief PowerTCP gamma: EWMA weight of the window update (NSDI'22 Algorithm 1, 0.9).
  double powertcp_gamma = unset;
  /// @brief PowerTCP beta: additive increase, bytes (0: HostBw x tau / N).
  double powertcp_beta_bytes = unset;
  /// @brief HPCC eta: target utilisation (SIGCOMM'19 Algorithm 1, 0.95).
  double hpcc_eta = unset;
  /// @brief HPCC W_AI, bytes (0: the paper's rule from HostBw, T and N).
  double hpcc_w_ai_bytes = unset;
  /// @brief HPCC maxStage (5; hpcc-plus uses 0).
  double hpcc_max_stage = unset;
  /// @brief Swift base (fabric) target delay, us (SIGCOMM'20 §3.1, 50 us).
  double swift_base_target_us = unset;
  /// @brief Swift per-hop scaling of the fabric target, us (1 us).
  double swift_per_hop_us = unset;
  /// @brief Swift endpoint target delay, us (50 us).
  double swift_endpoint_target_us = unset;
  /// @brief Swift flow-scaling range, us (200 us).
  double swift_fs_range_us = unset;
  /// @brief Swift additive increase, packets per RTT (1).
  double swift_ai = unset;
  /// @brief Swift beta: multiplicative-decrease factor (0.8).
  double swift_beta = unset;
  /// @brief Swift max_mdf: largest multiplicative decrease (0.5).
  double swift_max_mdf = unset;
  /// @brief DCTCP g: the gain of alpha's estimate (SIGCOMM'10 §3.1 Eq. 1; RFC 8257 §4.2, 1/16).
  double dctcp_g = unset;
  /// @brief DCTCP's initial alpha (RFC 8257 §3.3, 1).
  double dctcp_alpha_init = unset;
  /// @brief DCTCP's congestion-avoidance rule: 0 grows MSS x acked / cwnd per ACK (RFC 5681
  /// Eq. 3, netcc::dctcp), 1 counts acked bytes to a window's worth (RFC 5681 §3.1's byte
  /// counting, as Linux and ns-3's TcpDctcp do; netcc::dctcp_counting).
  double dctcp_byte_counting = unset;
  /// @brief Vegas alpha: below it (packets queued) the window grows (Brakmo-Peterson §III-B, 2).
  double vegas_alpha = unset;
  /// @brief Vegas beta: above it (packets queued) the window shrinks (4).
  double vegas_beta = unset;
  /// @brief Vegas gamma: packets queued that end slow start (§III-C, 1).
  double vegas_gamma = unset;
  /// @brief FastTune eta: target utilisation (ISPA'21 §V-A, 0.95).
  double fasttune_eta = unset;
  /// @brief FastTune W_AI, bytes (0: BDP x (1 - eta) / N, §III-C.2).
  double fasttune_w_ai_bytes = unset;
  /// @brief Bolt switches' CC_THRESH, bytes (NSDI'23 Algorithm 1; one MTU).
  double bolt_cc_thresh_bytes = unset;
  /// @brief Where the named CDFs live (not a key: set by the runner; data/cdf of the source
  /// tree by default).
#ifdef NETCC_DATA_DIR
  std::string data_dir = NETCC_DATA_DIR "/cdf";
#else
  std::string data_dir = "data/cdf";
#endif
};

/// @brief The fat-tree shape `s` sets (fattree_k, with pods, tors_per_pod, aggs_per_pod,
/// hosts_per_tor and cores overriding its parts when non-zero).
[[nodiscard]] inline fat_tree_shape fat_tree_shape_of(const scenario& s) {
  fat_tree_shape f = fat_tree_shape::k_ary(static_cast<std::size_t>(s.fattree_k));
  if (s.pods > 0) f.pods = static_cast<std::size_t>(s.pods);
  if (s.tors_per_pod > 0) f.tors_per_pod = static_cast<std::size_t>(s.tors_per_pod);
  if (s.aggs_per_pod > 0) f.aggs_per_pod = static_cast<std::size_t>(s.aggs_per_pod);
  if (s.hosts_per_tor > 0) f.hosts_per_tor = static_cast<std::size_t>(s.hosts_per_tor);
  if (s.cores > 0) f.cores = static_cast<std::size_t>(s.cores);
  return f;
}

/// @brief How many hosts the topology of `s` has, as the `flows` key numbers them: star, the
/// senders then the receiver; dumbbell, the senders then the receivers; leafspine, leaf by leaf;
/// fattree, pod by pod and ToR by ToR; chain, switch by switch.
[[nodiscard]] inline std::size_t scenario_host_count(const scenario& s) {
  if (s.topology == "star") return static_cast<std::size_t>(s.senders) + 1;
  if (s.topology == "dumbbell") return 2 * static_cast<std::size_t>(s.senders);
  if (s.topology == "leafspine")
    return static_cast<std::size_t>(s.leaves) * static_cast<std::size_t>(s.hosts_per_leaf);
  if (s.topology == "fattree") return fat_tree_shape_of(s).hosts();
  return static_cast<std::size_t>(s.chain_switches);
}

/// @brief The topology of `s` in words, with its size: "star, 11 senders", "dumbbell, 4 pairs",
/// "leafspine 2 leaves x 8 hosts, 2 spines (16 hosts)".
[[nodiscard]] inline std::string describe_topology(const scenario& s) {
  if (s.topology == "leafspine")
    return "leafspine " + std::to_string(s.leaves) + " leaves x " +
           std::to_string(s.hosts_per_leaf) + " hosts, " + std::to_string(s.spines) + " spines (" +
           std::to_string(s.leaves * s.hosts_per_leaf) + " hosts)";
  if (s.topology == "dumbbell") return "dumbbell, " + std::to_string(s.senders) + " pairs";
  if (s.topology == "chain") return "chain of " + std::to_string(s.chain_switches) + " switches";
  if (s.topology == "fattree") {
    const fat_tree_shape f = fat_tree_shape_of(s);
    return "fattree " + std::to_string(f.pods) + " pods x " + std::to_string(f.tors_per_pod) +
           " ToRs x " + std::to_string(f.hosts_per_tor) + " hosts, " +
           std::to_string(f.aggs_per_pod) + " aggs per pod, " + std::to_string(f.cores) +
           " cores (" + std::to_string(f.hosts()) + " hosts)";
  }
  return s.topology + ", " + std::to_string(s.senders) + " senders";
}

/// @brief The CDF file a scenario's `cdf` names: websearch and hadoop are looked up in
/// `data_dir`; anything else is a path.
[[nodiscard]] inline std::string cdf_path(const scenario& s) {
  if (s.cdf == "websearch" || s.cdf == "hadoop") return s.data_dir + "/" + s.cdf + ".cdf";
  return s.cdf;
}

/// @brief One settable key of a scenario: its field, unit, range and meaning (the table behind
/// netcc::testbench::set_key and `netcc-sim keys`).
struct key_info {
  /// @brief The key as written in a scenario file or after `--set`.
  std::string_view name;
  /// @brief Unit of the value ("" for counts, flags and names).
  std::string_view unit;
  /// @brief Smallest value (numeric keys; 0 for text keys).
  double lo = 0;
  /// @brief Largest value (numeric keys; 0 for text keys).
  double hi = 0;
  /// @brief One line on what it sets.
  std::string_view meaning;
  /// @brief The field it sets.
  std::variant<int scenario::*, std::int64_t scenario::*, std::uint64_t scenario::*,
               double scenario::*, std::string scenario::*>
      field;
  /// @brief Whether the value is a number.
  [[nodiscard]] bool numeric() const noexcept {
    return !std::holds_alternative<std::string scenario::*>(field);
  }
  /// @brief Whether the value must be a whole number.
  [[nodiscard]] bool integral() const noexcept {
    return numeric() && !std::holds_alternative<double scenario::*>(field);
  }
  /// @brief The value of this key in `s`, as text: numbers in the shortest form that reads
  /// back to the same value (std::to_chars).
  [[nodiscard]] std::string value_in(const scenario& s) const {
    return std::visit(
        [&](auto member) -> std::string {
          if constexpr (std::is_same_v<std::remove_cvref_t<decltype(s.*member)>, std::string>) {
            return s.*member;
          } else {
            char buf[32];
            const auto r = std::to_chars(buf, buf + sizeof buf, s.*member);
            return std::string(buf, r.ptr);
          }
        },
        field);
  }
};

/// @brief Every settable key, in the order `netcc-sim keys` lists them.
[[nodiscard]] inline const std::vector<key_info>& scenario_key_table() {
  using sc = scenario;
  static const std::vector<key_info> table{
      {"name", "", 0, 0, "scenario name, the output files' prefix ([A-Za-z0-9._-], 1-64)",
       &sc::name},
      {"topology", "", 0, 0, "star | dumbbell | leafspine | fattree | chain", &sc::topology},
      {"senders", "", 1, 1024, "sending hosts (star, dumbbell)", &sc::senders},
      {"leaves", "", 1, 64, "leafspine: leaf switches", &sc::leaves},
      {"spines", "", 1, 64, "leafspine: spine switches", &sc::spines},
      {"hosts_per_leaf", "", 1, 256, "leafspine: hosts under each leaf", &sc::hosts_per_leaf},
      {"fattree_k", "", 2, 64, "fattree: k of the k-ary fat-tree (even)", &sc::fattree_k},
      {"pods", "", 0, 128, "fattree: pods (0: k)", &sc::pods},
      {"tors_per_pod", "", 0, 128, "fattree: ToRs per pod (0: k/2)", &sc::tors_per_pod},
      {"aggs_per_pod", "", 0, 128, "fattree: aggregation switches per pod (0: k/2)",
       &sc::aggs_per_pod},
      {"hosts_per_tor", "", 0, 256, "fattree: hosts under each ToR (0: k/2)", &sc::hosts_per_tor},
      {"cores", "", 0, 4096, "fattree: core switches (0: (k/2)^2)", &sc::cores},
      {"agg_gbps", "Gbps", 0, 1600, "fattree: ToR-aggregation rate (0: bottleneck_gbps)",
       &sc::agg_gbps},
      {"core_gbps", "Gbps", 0, 1600, "fattree: aggregation-core rate (0: bottleneck_gbps)",
       &sc::core_gbps},
      {"agg_delay_ns", "ns", 0, 1e9, "fattree: ToR-aggregation delay (0: link_delay_ns)",
       &sc::agg_delay_ns},
      {"core_delay_ns", "ns", 0, 1e9, "fattree: aggregation-core delay (0: link_delay_ns)",
       &sc::core_delay_ns},
      {"host_gbps", "Gbps", 0.001, 1600, "host NIC rate", &sc::host_gbps},
      {"bottleneck_gbps", "Gbps", 0.001, 1600, "bottleneck (switch-receiver, inter-switch) rate",
       &sc::bottleneck_gbps},
      {"link_delay_ns", "ns", 1, 1e9, "one-way delay of every link", &sc::link_delay_ns},
      {"buffer_bytes", "B", 1500, 1e10, "egress buffer per port", &sc::buffer_bytes},
      {"long_flows", "", 0, 1024, "long-running flows", &sc::long_flows},
      {"long_start_gap_us", "us", 0, 1e7, "gap between long-flow starts", &sc::long_start_gap_us},
      {"long_stop_after_us", "us", 0, 1e7,
       "each long flow stops this long after it starts (0: never)", &sc::long_stop_after_us},
      {"long_join_together", "", 0, 1,
       "1: long flows after the first start together, one gap after it", &sc::long_join_together},
      {"reroute_us", "us", 0, 1e7, "the last reroute_flows long flows stop unannounced (0: never)",
       &sc::reroute_us},
      {"reroute_flows", "", 1, 1024, "long flows that reroute_us moves away (the last ones)",
       &sc::reroute_flows},
      {"incast_flows", "", 0, 1024, "flows of the incast burst", &sc::incast_flows},
      {"incast_size_bytes", "B", 1, 1e10, "size of each incast flow", &sc::incast_size_bytes},
      {"incast_at_us", "us", 0, 1e7, "incast start", &sc::incast_at_us},
      {"incast_gap_us", "us", 0, 1e7, "gap between incast flow starts (0: together)",
       &sc::incast_gap_us},
      {"bolt_pru", "", 0, 1, "Bolt switches: 1 proactive ramp-up on, 0 off", &sc::bolt_pru},
      {"bolt_sm", "", 0, 1, "Bolt switches: 1 supply matching on, 0 off", &sc::bolt_sm},
      {"duration_us", "us", 1, 1e7, "simulated time", &sc::duration_us},
      {"sample_ns", "ns", 10, 1e9, "time-series sampling interval", &sc::sample_ns},
      {"seed", "", 0, 9e15, "random seed (ECN marking, ECMP, workloads)", &sc::seed},
      {"expected_flows", "", 1, 1e6, "the papers' N given to controllers", &sc::expected_flows},
      {"burst_flows", "", 0, 1024,
       "on/off sources, each one connection writing a burst periodically", &sc::burst_flows},
      {"burst_bytes", "B", 1, 1e10, "bytes per burst", &sc::burst_bytes},
      {"burst_at_us", "us", 0, 1e7, "first burst", &sc::burst_at_us},
      {"burst_period_us", "us", 0.001, 1e7, "time between bursts", &sc::burst_period_us},
      {"burst_count", "", 0, 1e6, "bursts per source (0: until the end)", &sc::burst_count},
      {"cdf", "", 0, 0, "Poisson workload's flow sizes: none | websearch | hadoop | <file>.cdf",
       &sc::cdf},
      {"cdf_load", "", 0.001, 1, "offered load of the CDF workload, a fraction of the bottleneck",
       &sc::cdf_load},
      {"cdf_at_us", "us", 0, 1e7, "start of the CDF workload", &sc::cdf_at_us},
      {"cdf_max_flows", "", 1, 1e6, "most flows of the CDF workload", &sc::cdf_max_flows},
      {"ack_every", "", 1, 64, "receivers acknowledge every N in-order packets", &sc::ack_every},
      {"ack_delay_ns", "ns", 1, 1e9, "delayed-ACK timer with ack_every > 1", &sc::ack_delay_ns},
      {"chain_switches", "", 2, 1024, "chain: switches in a line, one host on each",
       &sc::chain_switches},
      {"chain_gbps", "Gbps", 0, 0, "chain: each switch-to-switch rate, comma-separated",
       &sc::chain_gbps},
      {"chain_delay_ns", "ns", 0, 0, "chain: each switch-to-switch delay, comma-separated",
       &sc::chain_delay_ns},
      {"flows", "", 0, 0, "extra long flows between hosts, A>B or A>B@US, comma-separated",
       &sc::flows},
      {"series_flows", "", 0, 0,
       "flows with cwnd/rate/goodput series: numbers in the order added, or all (empty: long)",
       &sc::series_flows},
      {"path_queues", "", 0, 0, "flows (numbers) whose every hop's egress queue is recorded",
       &sc::path_queues},
      {"cc_series_flows", "", 0, 0,
       "flows (numbers, or all) with alpha (DCQCN, DCTCP) and CNPs-per-sample series",
       &sc::cc_series_flows},
      {"monitor_ports", "", 0, 0,
       "ports with queue/marks/drops series: N:P (node N's port P) or N>M, comma-separated",
       &sc::monitor_ports},
      {"ecn_kmin_bytes", "B", 0, 1e10, "RED/ECN K_min of every switch (0: the controller's)",
       &sc::ecn_kmin_bytes},
      {"ecn_kmax_bytes", "B", 0, 1e10, "RED/ECN K_max of every switch (0: the controller's)",
       &sc::ecn_kmax_bytes},
      {"ecn_pmax", "", 0, 1, "RED/ECN P_max of every switch (0: the controller's)", &sc::ecn_pmax},
      {"cnp_interval_us", "us", 0, 1e6, "DCQCN NP: least time between CNPs of a flow",
       &sc::cnp_interval_us},
      {"cnp_schedule", "", 0, 1, "DCQCN NP: 0 suppress CNPs in the interval, 1 send at its end",
       &sc::cnp_schedule},
      {"shared_buffer_bytes", "B", 0, 1e10,
       "shared buffer of every switch, Dynamic Thresholds (0: buffer_bytes per port)",
       &sc::shared_buffer_bytes},
      {"dt_alpha", "", 0.0078125, 64, "Dynamic Thresholds alpha of every switch queue",
       &sc::dt_alpha},
      {"pfc", "", 0, 1, "1: PFC at every switch (X_off 9.5, X_on 9.25 kB per port per Gbps)",
       &sc::pfc},
      {"rto_us", "us", 1, 1e7, "retransmission timeout (go-back-N)", &sc::rto_us},
      {"rtt_noise_uniform_ns", "ns", 0, 1e9,
       "noise on each RTT sample, uniform in [-x, x] (0: none; TIMELY Fig. 12)",
       &sc::rtt_noise_uniform_ns},
      {"rtt_noise_normal_ns", "ns", 0, 1e9,
       "noise on each RTT sample, normal with this standard deviation (0: none)",
       &sc::rtt_noise_normal_ns},
      {"max_memory_mb", "MiB", 0, 1e9, "most memory a run may take (0: half of this machine's)",
       &sc::max_memory_mb},
      // Controller parameters (unset: the controller's default); any number passes here, the
      // controller's validate() has the rule (check_controller names the key).
      {"dcqcn_g", "", -1e18, 1e18, "DCQCN g, alpha's gain (1/256)", &sc::dcqcn_g},
      {"dcqcn_k_us", "us", -1e18, 1e18, "DCQCN K, alpha-update timer (55)", &sc::dcqcn_k_us},
      {"dcqcn_t_us", "us", -1e18, 1e18, "DCQCN T, rate-increase timer (55)", &sc::dcqcn_t_us},
      {"dcqcn_b_bytes", "B", -1e18, 1e18, "DCQCN B, rate-increase byte counter (10 MB)",
       &sc::dcqcn_b_bytes},
      {"dcqcn_r_ai_mbps", "Mbps", -1e18, 1e18, "DCQCN R_AI, additive increase (5)",
       &sc::dcqcn_r_ai_mbps},
      {"dcqcn_r_hi_mbps", "Mbps", -1e18, 1e18, "DCQCN R_HI, hyper increase (50)",
       &sc::dcqcn_r_hi_mbps},
      {"dcqcn_f", "", -1e18, 1e18, "DCQCN F, fast-recovery stages (5)", &sc::dcqcn_f},
      {"timely_t_low_us", "us", -1e18, 1e18, "TIMELY T_low (50)", &sc::timely_t_low_us},
      {"timely_t_high_us", "us", -1e18, 1e18, "TIMELY T_high (500)", &sc::timely_t_high_us},
      {"timely_alpha", "", -1e18, 1e18, "TIMELY alpha, EWMA weight (0.02)", &sc::timely_alpha},
      {"timely_beta", "", -1e18, 1e18, "TIMELY beta, multiplicative decrease (0.8)",
       &sc::timely_beta},
      {"timely_delta_mbps", "Mbps", -1e18, 1e18, "TIMELY delta, additive step (10)",
       &sc::timely_delta_mbps},
      {"timely_hai", "", -1e18, 1e18, "TIMELY HAI threshold, completions (5)", &sc::timely_hai},
      {"powertcp_gamma", "", -1e18, 1e18, "PowerTCP gamma, EWMA weight (0.9)", &sc::powertcp_gamma},
      {"powertcp_beta_bytes", "B", -1e18, 1e18,
       "PowerTCP beta, additive increase (0: HostBw tau/N)", &sc::powertcp_beta_bytes},
      {"hpcc_eta", "", -1e18, 1e18, "HPCC eta, target utilisation (0.95)", &sc::hpcc_eta},
      {"hpcc_w_ai_bytes", "B", -1e18, 1e18, "HPCC W_AI (0: from HostBw, T and N)",
       &sc::hpcc_w_ai_bytes},
      {"hpcc_max_stage", "", -1e18, 1e18, "HPCC maxStage (5; hpcc-plus 0)", &sc::hpcc_max_stage},
      {"swift_base_target_us", "us", -1e18, 1e18, "Swift base fabric target (50)",
       &sc::swift_base_target_us},
      {"swift_per_hop_us", "us", -1e18, 1e18, "Swift per-hop target scaling (1)",
       &sc::swift_per_hop_us},
      {"swift_endpoint_target_us", "us", -1e18, 1e18, "Swift endpoint target (50)",
       &sc::swift_endpoint_target_us},
      {"swift_fs_range_us", "us", -1e18, 1e18, "Swift flow-scaling range (200)",
       &sc::swift_fs_range_us},
      {"swift_ai", "", -1e18, 1e18, "Swift additive increase, packets per RTT (1)", &sc::swift_ai},
      {"swift_beta", "", -1e18, 1e18, "Swift beta, multiplicative decrease (0.8)", &sc::swift_beta},
      {"swift_max_mdf", "", -1e18, 1e18, "Swift max_mdf, largest decrease (0.5)",
       &sc::swift_max_mdf},
      {"dctcp_g", "", -1e18, 1e18, "DCTCP g, alpha's gain (1/16)", &sc::dctcp_g},
      {"dctcp_alpha_init", "", -1e18, 1e18, "DCTCP initial alpha (1)", &sc::dctcp_alpha_init},
      {"dctcp_byte_counting", "", -1e18, 1e18,
       "DCTCP growth: 0 MSS x acked / cwnd, 1 byte counting (0)", &sc::dctcp_byte_counting},
      {"vegas_alpha", "", -1e18, 1e18, "Vegas alpha, packets queued (2)", &sc::vegas_alpha},
      {"vegas_beta", "", -1e18, 1e18, "Vegas beta, packets queued (4)", &sc::vegas_beta},
      {"vegas_gamma", "", -1e18, 1e18, "Vegas gamma, slow-start exit (1)", &sc::vegas_gamma},
      {"fasttune_eta", "", -1e18, 1e18, "FastTune eta, target utilisation (0.95)",
       &sc::fasttune_eta},
      {"fasttune_w_ai_bytes", "B", -1e18, 1e18, "FastTune W_AI (0: from HostBw, T and N)",
       &sc::fasttune_w_ai_bytes},
      {"bolt_cc_thresh_bytes", "B", -1e18, 1e18, "Bolt switches' CC_THRESH (one MTU)",
       &sc::bolt_cc_thresh_bytes}};
  return table;
}

/// @brief One flow of the `flows` key: from host `from` to host `to`, starting at `start_us`.
struct chosen_flow {
  /// @brief Sending host (index into the topology's hosts).
  int from = 0;
  /// @brief Receiving host.
  int to = 0;
  /// @brief Start, us.
  double start_us = 0;
};

/// @brief Parse a comma-separated list of numbers each in [lo, hi] into `out` (if not null);
/// empty text is an empty list. Returns an empty string or the rule broken.
inline std::string parse_number_list(std::string_view text, double lo, double hi,
                                     std::vector<double>* out) {
  std::vector<double> v;
  while (!text.empty()) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    double x = 0;
    const auto r = std::from_chars(item.data(), item.data() + item.size(), x);
    if (item.empty() || r.ec != std::errc{} || r.ptr != item.data() + item.size())
      return "'" + printable(item) + "' is not a number";
    if (!(x >= lo && x <= hi)) {
      std::ostringstream m;
      m << "'" << printable(item) << "' must be in [" << lo << ", " << hi << "]";
      return m.str();
    }
    v.push_back(x);
    if (comma != std::string_view::npos && text.empty()) return "a list ends with a comma";
  }
  if (out) *out = std::move(v);
  return {};
}

/// @brief Parse a comma-separated list of flow numbers (whole numbers from 0) into `out` (if
/// not null); empty text is an empty list.
inline std::string parse_flow_numbers(std::string_view text, std::vector<flow_id>* out) {
  std::vector<flow_id> v;
  while (!text.empty()) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    flow_id x = 0;
    const auto r = std::from_chars(item.data(), item.data() + item.size(), x);
    if (item.empty() || r.ec != std::errc{} || r.ptr != item.data() + item.size())
      return "'" + printable(item) + "' is not a flow number (a whole number from 0)";
    v.push_back(x);
    if (comma != std::string_view::npos && text.empty()) return "a list ends with a comma";
  }
  if (out) *out = std::move(v);
  return {};
}

/// @brief One egress port named by the `monitor_ports` key: node `node`'s port `port`
/// (`N:P`), or its port toward neighbour `port` (`N>M`, `by_peer`).
struct port_ref {
  /// @brief Node id.
  std::uint32_t node = 0;
  /// @brief Port index, or the neighbour's node id when by_peer.
  std::uint32_t port = 0;
  /// @brief `N>M`: `port` is the neighbour's node id.
  bool by_peer = false;
  /// @brief The reference as written.
  std::string text;
};

/// @brief Parse the `monitor_ports` key (`N:P` or `N>M`, comma-separated, whole numbers from 0)
/// into `out` (if not null); empty text is an empty list. Whether the nodes and ports exist is
/// checked against the built topology (netcc::testbench::resolve_ports).
/// @code
/// std::vector<netcc::testbench::port_ref> v;
/// netcc::testbench::parse_port_list("0:2,5>0", &v);   // node 0 port 2; node 5 toward node 0
/// @endcode
inline std::string parse_port_list(std::string_view text, std::vector<port_ref>* out) {
  std::vector<port_ref> v;
  while (!text.empty()) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    const auto sep = item.find_first_of(":>");
    const auto whole = [](std::string_view t, std::uint32_t& x) {
      const auto r = std::from_chars(t.data(), t.data() + t.size(), x);
      return !t.empty() && r.ec == std::errc{} && r.ptr == t.data() + t.size();
    };
    port_ref r;
    if (sep == std::string_view::npos || !whole(item.substr(0, sep), r.node) ||
        !whole(item.substr(sep + 1), r.port))
      return "'" + printable(item) + "' is not N:P (node N's port P) or N>M (node N toward " +
             "node M), whole numbers from 0";
    r.by_peer = item[sep] == '>';
    r.text = std::string(item);
    v.push_back(std::move(r));
    if (comma != std::string_view::npos && text.empty()) return "a list ends with a comma";
  }
  if (out) *out = std::move(v);
  return {};
}

/// @brief Parse the `flows` key (`A>B` or `A>B@US`, comma-separated) into `out` (if not null).
inline std::string parse_flow_list(std::string_view text, std::vector<chosen_flow>* out) {
  std::vector<chosen_flow> v;
  while (!text.empty()) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    const auto gt = item.find('>'), at = item.find('@');
    const auto whole = [](std::string_view t, int& x) {
      const auto r = std::from_chars(t.data(), t.data() + t.size(), x);
      return !t.empty() && r.ec == std::errc{} && r.ptr == t.data() + t.size() && x >= 0;
    };
    chosen_flow f;
    if (gt == std::string_view::npos || !whole(item.substr(0, gt), f.from) ||
        !whole(item.substr(gt + 1, at == std::string_view::npos ? at : at - gt - 1), f.to))
      return "'" + printable(item) + "' is not A>B or A>B@US (host numbers from 0)";
    if (at != std::string_view::npos) {
      const std::string_view us = item.substr(at + 1);
      const auto r = std::from_chars(us.data(), us.data() + us.size(), f.start_us);
      if (us.empty() || r.ec != std::errc{} || r.ptr != us.data() + us.size() ||
          !(f.start_us >= 0 && f.start_us <= 1e7))
        return "'" + printable(item) + "': the start must be a number of us in [0, 1e7]";
    }
    if (f.from == f.to) return "'" + printable(item) + "': a flow needs two different hosts";
    v.push_back(f);
    if (comma != std::string_view::npos && text.empty()) return "a list ends with a comma";
  }
  if (out) *out = std::move(v);
  return {};
}

/// @brief Set one key of `s` from text; returns an empty string or the error message, which
/// names the key, the value (quoted printable) and the rule. `s` is unchanged on error.
/// @code
/// netcc::testbench::scenario s;
/// netcc::testbench::set_key(s, "senders", "2.7");   // "senders = 2.7: must be a whole number"
/// @endcode
inline std::string set_key(scenario& s, std::string_view key, std::string_view value) {
  const auto& table = scenario_key_table();
  const auto it =
      std::find_if(table.begin(), table.end(), [&](const key_info& k) { return k.name == key; });
  if (it == table.end()) return "unknown key '" + printable(key) + "' (netcc-sim keys lists them)";
  const std::string shown = std::string(key) + " = " + printable(value);
  if (key == "name") {
    if (auto err = check_file_name(key, value); !err.empty()) return err;
    s.name = std::string(value);
    return {};
  }
  if (key == "topology") {
    if (value != "star" && value != "dumbbell" && value != "leafspine" && value != "fattree" &&
        value != "chain")
      return shown + ": must be star, dumbbell, leafspine, fattree or chain";
    s.topology = std::string(value);
    return {};
  }
  if (key == "chain_gbps" || key == "chain_delay_ns") {
    const bool rate = key == "chain_gbps";
    if (auto err = parse_number_list(value, rate ? 0.001 : 1, rate ? 1600 : 1e9, nullptr);
        !err.empty())
      return shown + ": " + err;
    (rate ? s.chain_gbps : s.chain_delay_ns) = std::string(value);
    return {};
  }
  if (key == "series_flows" || key == "path_queues" || key == "cc_series_flows") {
    if (!(key != "path_queues" && value == "all"))
      if (auto err = parse_flow_numbers(value, nullptr); !err.empty()) return shown + ": " + err;
    (key == "series_flows" ? s.series_flows
                           : (key == "path_queues" ? s.path_queues : s.cc_series_flows)) =
        std::string(value);
    return {};
  }
  if (key == "monitor_ports") {
    if (auto err = parse_port_list(value, nullptr); !err.empty()) return shown + ": " + err;
    s.monitor_ports = std::string(value);
    return {};
  }
  if (key == "flows") {
    if (auto err = parse_flow_list(value, nullptr); !err.empty()) return shown + ": " + err;
    s.flows = std::string(value);
    return {};
  }
  if (key == "cdf") {
    if (value.empty()) return "cdf = : must be none, websearch, hadoop or a file path";
    s.cdf = std::string(value);
    return {};
  }
  double v = 0;
  const auto r = std::from_chars(value.data(), value.data() + value.size(), v);
  if (value.empty() || r.ec != std::errc{} || r.ptr != value.data() + value.size())
    return shown + ": not a number";
  if (!(v >= it->lo && v <= it->hi)) {
    std::ostringstream m;
    m << shown << ": must be in [" << it->lo << ", " << it->hi << "]";
    return m.str();
  }
  if (it->integral() && v != std::floor(v)) return shown + ": must be a whole number";
  std::visit(
      [&](auto member) {
        using field_t = std::remove_reference_t<decltype(s.*member)>;
        if constexpr (std::is_arithmetic_v<field_t>) s.*member = static_cast<field_t>(v);
      },
      it->field);
  return {};
}

/// @brief `s` as scenario-file text: a comment line, then `key = value` for the name and every
/// key whose value differs from a default-constructed scenario, in netcc-sim keys' order, at
/// full precision. Loading the text into a default scenario gives `s` back (data_dir aside).
/// @code
/// auto text = netcc::testbench::format_scenario(netcc::testbench::scenario{});   // "name = incast\n"
/// @endcode
[[nodiscard]] inline std::string format_scenario(const scenario& s, std::string_view comment = {}) {
  std::string out;
  if (!comment.empty()) out += "# " + printable(comment) + "\n";
  const scenario defaults{};
  for (const auto& k : scenario_key_table()) {
    const std::string v = k.value_in(s);
    if (k.name == "name" || v != k.value_in(defaults))
      out += std::string(k.name) + " = " + v + "\n";
  }
  return out;
}

/// @brief Every settable key with a one-line description (unit and range appended).
[[nodiscard]] inline std::vector<std::pair<std::string, std::string>> scenario_keys() {
  std::vector<std::pair<std::string, std::string>> v;
  for (const auto& k : scenario_key_table()) {
    std::string d(k.meaning);
    if (!k.unit.empty()) d += ", " + std::string(k.unit);
    v.emplace_back(std::string(k.name), std::move(d));
  }
  return v;
}

/// @brief This machine's physical memory in bytes (0 where it cannot be read).
[[nodiscard]] inline std::uint64_t machine_memory_bytes() noexcept {
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGE_SIZE)
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0)
    return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
#endif
  return 0;
}

/// @brief The memory limit `max_memory_mb = 0` stands for: half of this machine's memory, or
/// 4 GiB where that cannot be read.
[[nodiscard]] inline std::uint64_t default_memory_limit() noexcept {
  const std::uint64_t m = machine_memory_bytes();
  return m > 0 ? m / 2 : std::uint64_t{4} << 30;
}

/// @brief The memory limit of a scenario, bytes (max_memory_mb, or the default for 0).
[[nodiscard]] inline std::uint64_t memory_limit(const scenario& s) noexcept {
  return s.max_memory_mb > 0 ? static_cast<std::uint64_t>(s.max_memory_mb) << 20
                             : default_memory_limit();
}

/// @brief What a scenario will ask of the machine, worked out before it runs (per controller
/// run; the runner runs controllers one after another). Sizes are upper estimates of what the
/// engine and runner store: the time series (held by the engine, copied out and formatted as
/// CSV), the burst sources' scheduled writes, the flows, nodes, ports and routes, and the
/// packets that can be on the links at once (each link full in both directions, one ACK per
/// data packet). Packets queued in switches depend on the controllers; the engine counts them
/// during the run against the same limit (network_config::memory_limit).
struct resource_estimate {
  /// @brief Nodes (hosts and switches).
  std::uint64_t nodes = 0;
  /// @brief Links (full duplex).
  std::uint64_t links = 0;
  /// @brief Switches.
  std::uint64_t switches = 0;
  /// @brief Flows at most (long, incast, burst, and the CDF workload's cap).
  std::uint64_t flows = 0;
  /// @brief Rows of the time series.
  std::uint64_t samples = 0;
  /// @brief Columns of the time series (time excluded).
  std::uint64_t columns = 0;
  /// @brief Scheduled application writes of the burst sources.
  std::uint64_t writes = 0;
  /// @brief Packets that fit on the links at once.
  std::uint64_t packets_on_links = 0;
  /// @brief Engine events at most: every data packet the senders' NICs can emit in the run
  /// (long and on/off flows at the NIC rate, incast bytes, the CDF workload's offered load),
  /// each with a transmission and an arrival per hop for it and for its ACK. A measure of run
  /// time, not memory: it is printed by `netcc-sim --dry-run`, not checked against a limit.
  std::uint64_t events = 0;
  /// @brief Bytes of the time series (engine, copy and CSV text).
  std::uint64_t series_bytes = 0;
  /// @brief Bytes of the scheduled writes.
  std::uint64_t writes_bytes = 0;
  /// @brief Bytes of the flows and their controllers.
  std::uint64_t flow_bytes = 0;
  /// @brief Bytes of nodes, ports and routes.
  std::uint64_t topology_bytes = 0;
  /// @brief Bytes of the packets the links hold.
  std::uint64_t packet_bytes = 0;
  /// @brief The sum of the parts, bytes.
  [[nodiscard]] std::uint64_t total_bytes() const noexcept {
    return series_bytes + writes_bytes + flow_bytes + topology_bytes + packet_bytes;
  }
};

namespace detail {
// a * b, saturating at 2^64 - 1 (estimates of absurd scenarios must not wrap to small ones).
[[nodiscard]] inline std::uint64_t sat_mul(std::uint64_t a, std::uint64_t b) noexcept {
  return b != 0 && a > std::numeric_limits<std::uint64_t>::max() / b
             ? std::numeric_limits<std::uint64_t>::max()
             : a * b;
}
[[nodiscard]] inline std::uint64_t sat_add(std::uint64_t a, std::uint64_t b) noexcept {
  return a > std::numeric_limits<std::uint64_t>::max() - b
             ? std::numeric_limits<std::uint64_t>::max()
             : a + b;
}
// A non-negative double as a count, saturating (the keys' ranges keep these finite).
[[nodiscard]] inline std::uint64_t count_of(double x) noexcept {
  if (!(x > 0)) return 0;
  return x >= 1.8e19 ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(x);
}
}  // namespace detail

/// @brief Estimate what running `s` once takes (see netcc::testbench::resource_estimate).
/// @code
/// netcc::testbench::scenario s;   // the default incast
/// auto e = netcc::testbench::estimate_resources(s);   // e.samples == 3001, e.total_bytes() ~ 1 MB
/// @endcode
[[nodiscard]] inline resource_estimate estimate_resources(const scenario& s) {
  using detail::count_of;
  using detail::sat_add;
  using detail::sat_mul;
  resource_estimate e;
  const double host_bps = s.host_gbps * 1e9, core_bps = s.bottleneck_gbps * 1e9;
  double wire_bits = 0;  // sum over links of rate x one-way delay, one direction
  const auto delay_s = static_cast<double>(s.link_delay_ns) * 1e-9;
  if (s.topology == "star") {
    e.switches = 1;
    e.nodes = static_cast<std::uint64_t>(s.senders) + 2;
    e.links = static_cast<std::uint64_t>(s.senders) + 1;
    wire_bits = (s.senders * host_bps + core_bps) * delay_s;
  } else if (s.topology == "dumbbell") {
    e.switches = 2;
    e.nodes = 2 * static_cast<std::uint64_t>(s.senders) + 2;
    e.links = 2 * static_cast<std::uint64_t>(s.senders) + 1;
    wire_bits = (2 * s.senders * host_bps + core_bps) * delay_s;
  } else if (s.topology == "chain") {
    e.switches = static_cast<std::uint64_t>(s.chain_switches);
    e.nodes = 2 * e.switches;
    e.links = 2 * e.switches - 1;
    std::vector<double> rates;  // validated by set_key
    (void)parse_number_list(s.chain_gbps, 0.001, 1600, &rates);
    double fastest = s.bottleneck_gbps;
    for (const double r : rates) fastest = std::max(fastest, r);
    std::vector<double> delays;
    (void)parse_number_list(s.chain_delay_ns, 1, 1e9, &delays);
    double longest = static_cast<double>(s.link_delay_ns);
    for (const double d : delays) longest = std::max(longest, d);
    wire_bits = static_cast<double>(e.switches) * host_bps * delay_s +
                static_cast<double>(e.switches - 1) * fastest * 1e9 * longest * 1e-9;
  } else if (s.topology == "fattree") {
    const fat_tree_shape f = fat_tree_shape_of(s);
    e.switches = f.switches();
    e.nodes = f.hosts() + e.switches;
    e.links = f.links();
    const double agg_bps = (s.agg_gbps > 0 ? s.agg_gbps : s.bottleneck_gbps) * 1e9;
    const double c_bps = (s.core_gbps > 0 ? s.core_gbps : s.bottleneck_gbps) * 1e9;
    const double d_agg = static_cast<double>(s.agg_delay_ns > 0 ? s.agg_delay_ns : s.link_delay_ns);
    const double d_core =
        static_cast<double>(s.core_delay_ns > 0 ? s.core_delay_ns : s.link_delay_ns);
    wire_bits =
        static_cast<double>(f.hosts()) * host_bps * delay_s +
        static_cast<double>(f.pods * f.tors_per_pod * f.aggs_per_pod) * agg_bps * d_agg * 1e-9 +
        static_cast<double>(f.pods * f.aggs_per_pod * f.cores_per_agg()) * c_bps * d_core * 1e-9;
  } else {
    const auto hosts =
        static_cast<std::uint64_t>(s.leaves) * static_cast<std::uint64_t>(s.hosts_per_leaf);
    const auto fabric = static_cast<std::uint64_t>(s.leaves) * static_cast<std::uint64_t>(s.spines);
    e.switches = static_cast<std::uint64_t>(s.leaves + s.spines);
    e.nodes = hosts + e.switches;
    e.links = hosts + fabric;
    wire_bits =
        (static_cast<double>(hosts) * host_bps + static_cast<double>(fabric) * core_bps) * delay_s;
  }
  const network_config cfg{};
  // Data packets on the links both ways, and as many ACKs.
  e.packets_on_links = sat_add(
      sat_mul(count_of(wire_bits / (8.0 * static_cast<double>(cfg.mtu.count()))), 4), 4 * e.links);
  e.packet_bytes = sat_mul(e.packets_on_links, network::bytes_per_packet());
  // Nodes, two ports per link, and each switch's route entry toward every edge switch (the
  // switches with hosts), with a distinct list of equal-cost ports per entry at most.
  const std::uint64_t hosts = e.nodes - e.switches;
  std::uint64_t edge_switches = e.switches, ecmp = 1;
  if (s.topology == "leafspine") {
    edge_switches = static_cast<std::uint64_t>(s.leaves);
    ecmp = static_cast<std::uint64_t>(s.spines);
  } else if (s.topology == "fattree") {
    const fat_tree_shape f = fat_tree_shape_of(s);
    edge_switches = f.pods * f.tors_per_pod;
    ecmp = std::max(f.aggs_per_pod, f.cores_per_agg());
  }
  e.topology_bytes =
      sat_add(sat_add(sat_mul(e.nodes, network::bytes_per_node()),
                      sat_mul(2 * e.links, network::bytes_per_port())),
              sat_mul(sat_mul(e.switches, edge_switches),
                      network::bytes_per_route() + network::bytes_per_route_list() + 4 * ecmp));
  // The time series: the engine's columns grow by doubling (up to twice the rows), the runner
  // copies them out, and the CSV text takes up to ~24 characters a value.
  const double run_ns = s.duration_us * 1000;
  e.samples = count_of(run_ns / static_cast<double>(s.sample_ns)) + 1;
  std::vector<chosen_flow> chosen;
  (void)parse_flow_list(s.flows, &chosen);
  e.columns = 2 + 3 * (static_cast<std::uint64_t>(s.long_flows) + chosen.size());
  e.series_bytes = sat_mul(sat_mul(e.samples, e.columns + 1), 3 * sizeof(double) + 24);
  // Burst sources: one scheduled write per period until the end or burst_count.
  if (s.burst_flows > 0 && s.burst_at_us < s.duration_us) {
    std::uint64_t per_flow = count_of((s.duration_us - s.burst_at_us) / s.burst_period_us) + 1;
    if (s.burst_count > 0)
      per_flow = std::min<std::uint64_t>(per_flow, static_cast<std::uint64_t>(s.burst_count));
    e.writes = sat_mul(per_flow, static_cast<std::uint64_t>(s.burst_flows));
  }
  e.writes_bytes = sat_mul(e.writes, 2 * network::bytes_per_write());
  e.flows = static_cast<std::uint64_t>(s.long_flows + s.incast_flows + s.burst_flows) +
            chosen.size() + (s.cdf != "none" ? static_cast<std::uint64_t>(s.cdf_max_flows) : 0);
  // A flow, its controller (at most a few hundred bytes) and the workload's record of it.
  e.flow_bytes = sat_mul(e.flows, network::bytes_per_flow() + 1024);
  // Data packets: unbounded flows send at most their NIC rate for the whole run; finite ones
  // their bytes; the CDF workload its offered load.
  const double mtu = static_cast<double>(cfg.mtu.count());
  const double run_s = s.duration_us * 1e-6;
  const double packets =
      (s.long_flows + s.burst_flows + static_cast<double>(chosen.size())) * host_bps * run_s / 8 /
          mtu +
      static_cast<double>(s.incast_flows) *
          std::ceil(static_cast<double>(s.incast_size_bytes) / mtu) +
      (s.cdf != "none" ? s.cdf_load *
                             (s.topology == "leafspine" || s.topology == "fattree"
                                  ? static_cast<double>(hosts) * host_bps
                                  : core_bps) *
                             run_s / 8 / mtu
                       : 0.0);
  const std::uint64_t hops = s.topology == "star"       ? 2
                             : s.topology == "dumbbell" ? 3
                             : s.topology == "fattree"  ? 6
                                                        : 4;
  e.events = sat_mul(count_of(packets), 4 * hops);
  return e;
}

/// @brief Empty when `e` fits `limit` bytes; otherwise one line naming the estimate, the limit
/// and the part that dominates with the keys that set it.
[[nodiscard]] inline std::string check_resources(const scenario& s, const resource_estimate& e,
                                                 std::uint64_t limit) {
  if (e.total_bytes() <= limit) return {};
  const auto gib = [](std::uint64_t b) {
    std::ostringstream m;
    m.precision(3);
    m << static_cast<double>(b) / static_cast<double>(1ULL << 30) << " GiB";
    return m.str();
  };
  std::ostringstream m;
  m << "the run would take about " << gib(e.total_bytes()) << ", over the limit of " << gib(limit)
    << " (max_memory_mb = " << s.max_memory_mb
    << (s.max_memory_mb == 0 ? ": half of this machine's memory" : "") << "); most of it ";
  const std::uint64_t parts[] = {e.series_bytes, e.writes_bytes, e.flow_bytes, e.topology_bytes,
                                 e.packet_bytes};
  switch (std::max_element(std::begin(parts), std::end(parts)) - std::begin(parts)) {
    case 0:
      m << "is the time series, " << e.samples << " samples x " << e.columns
        << " columns (sample_ns = " << s.sample_ns << ", duration_us = " << s.duration_us
        << ", long_flows = " << s.long_flows << ")";
      break;
    case 1:
      m << "is " << e.writes << " scheduled burst writes (burst_flows = " << s.burst_flows
        << ", burst_period_us = " << s.burst_period_us << ", burst_count = " << s.burst_count
        << ", duration_us = " << s.duration_us << ")";
      break;
    case 2:
      m << "is " << e.flows << " flows (cdf_max_flows = " << s.cdf_max_flows
        << ", long_flows, incast_flows, burst_flows)";
      break;
    case 3:
      m << "is the topology's " << e.nodes << " nodes and their routes (topology = " << s.topology;
      if (s.topology == "fattree")
        m << ", fattree_k = " << s.fattree_k << ", pods = " << s.pods
          << ", tors_per_pod = " << s.tors_per_pod << ", hosts_per_tor = " << s.hosts_per_tor
          << ", cores = " << s.cores << ")";
      else
        m << ", leaves = " << s.leaves << ", spines = " << s.spines
          << ", hosts_per_leaf = " << s.hosts_per_leaf << ", senders = " << s.senders << ")";
      break;
    default:
      m << "is " << e.packets_on_links
        << " packets the links hold at once (link_delay_ns = " << s.link_delay_ns
        << ", host_gbps = " << s.host_gbps << ", bottleneck_gbps = " << s.bottleneck_gbps << ", "
        << e.links << " links)";
  }
  return m.str();
}

/// @brief Thrown by netcc::testbench::run_scenario when the engine passes the scenario's
/// memory limit during the run; the message names the time, the bytes and the keys to change.
struct resource_limit_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// @brief The hosts and the monitored port of a scenario's topology, as
/// netcc::testbench::build_topology makes them.
struct scenario_topology {
  /// @brief Senders of the long, incast and burst flows, in order.
  std::vector<node_id> src;
  /// @brief Their receivers.
  std::vector<node_id> dst;
  /// @brief Every host (leaf-spine and fat-tree: the all-to-all workload's hosts).
  std::vector<node_id> all_hosts;
  /// @brief The hosts as the `flows` key numbers them.
  std::vector<node_id> numbered;
  /// @brief The monitored (bottleneck) port: node and peer.
  node_id q_node = 0;
  /// @brief The monitored port's peer.
  node_id q_peer = 0;
  /// @brief The monitored port's rate.
  bit_rate q_rate{};
};

/// @brief The host links (`first`) and bottleneck links (`second`) of `s`.
[[nodiscard]] inline std::pair<link_spec, link_spec> scenario_links(const scenario& s) {
  const link_spec edge{.rate = bit_rate{static_cast<std::int64_t>(s.host_gbps * 1e9)},
                       .delay = duration{s.link_delay_ns},
                       .buffer = bytes{s.buffer_bytes}};
  link_spec core = edge;
  core.rate = bit_rate{static_cast<std::int64_t>(s.bottleneck_gbps * 1e9)};
  return {edge, core};
}

/// @brief Build the topology of `s` into `net` (switches configured as `sw`): the nodes get
/// their ids in the order the topology's builder (topology.hpp) adds them.
inline scenario_topology build_topology(network& net, const scenario& s, const switch_config& sw) {
  const link_spec edge = scenario_links(s).first, core = scenario_links(s).second;
  scenario_topology t0;
  std::vector<node_id>&src = t0.src, &dst = t0.dst, &all_hosts = t0.all_hosts,
  &numbered = t0.numbered;
  node_id &q_node = t0.q_node, &q_peer = t0.q_peer;
  bit_rate& q_rate = t0.q_rate;
  q_rate = core.rate;
  if (s.topology == "star") {
    const auto st = make_star(net, static_cast<std::size_t>(s.senders), edge, core, sw);
    numbered = st.senders;
    numbered.push_back(st.receiver);
    src = st.senders;
    dst.assign(src.size(), st.receiver);
    q_node = st.sw;
    q_peer = st.receiver;
  } else if (s.topology == "dumbbell") {
    const auto d = make_dumbbell(net, static_cast<std::size_t>(s.senders), edge, core, sw);
    numbered = d.senders;
    numbered.insert(numbered.end(), d.receivers.begin(), d.receivers.end());
    src = d.senders;
    dst = d.receivers;
    q_node = d.left;
    q_peer = d.right;
  } else if (s.topology == "chain") {
    // Chain (parking lot): switch i has host i; link i joins switches i and i + 1 at its own rate
    // and delay. Long, incast and burst flows go from the first host to the last, through every
    // link; the monitored port is the first of the slowest switch-to-switch links. Cross traffic
    // comes from the flows key.
    std::vector<double> rates, delays;
    (void)parse_number_list(s.chain_gbps, 0.001, 1600, &rates);
    (void)parse_number_list(s.chain_delay_ns, 1, 1e9, &delays);
    const std::size_t links = static_cast<std::size_t>(s.chain_switches) - 1;
    std::vector<link_spec> between(links, core);
    for (std::size_t i = 0; i < links; ++i) {
      if (!rates.empty())
        between[i].rate = bit_rate{static_cast<std::int64_t>(rates[i % rates.size()] * 1e9)};
      if (!delays.empty())
        between[i].delay = duration{static_cast<std::int64_t>(delays[i % delays.size()])};
    }
    const auto c = make_chain(net, static_cast<std::size_t>(s.chain_switches), edge, between, sw);
    numbered = c.hosts;
    const std::size_t senders =
        static_cast<std::size_t>(std::max(1, s.long_flows + s.incast_flows + s.burst_flows));
    src.assign(senders, c.hosts.front());
    dst.assign(senders, c.hosts.back());
    std::size_t slowest = 0;  // the monitored port: the first of the slowest links
    for (std::size_t i = 1; i < links; ++i)
      if (between[i].rate < between[slowest].rate) slowest = i;
    q_node = c.switches[slowest];
    q_peer = c.switches[slowest + 1];
    q_rate = between[slowest].rate;
  } else if (s.topology == "fattree") {
    // Fat-tree: the last host (of the last pod's last ToR) receives the long, incast and burst
    // flows (its ToR's downlink is the monitored bottleneck); every other host sends them. The
    // CDF workload is all-to-all (below).
    link_spec agg = core, top = core;
    if (s.agg_gbps > 0) agg.rate = bit_rate{static_cast<std::int64_t>(s.agg_gbps * 1e9)};
    if (s.core_gbps > 0) top.rate = bit_rate{static_cast<std::int64_t>(s.core_gbps * 1e9)};
    if (s.agg_delay_ns > 0) agg.delay = duration{s.agg_delay_ns};
    if (s.core_delay_ns > 0) top.delay = duration{s.core_delay_ns};
    const auto t = make_fat_tree(net, fat_tree_shape_of(s), edge, agg, top, sw);
    all_hosts = t.hosts;
    numbered = all_hosts;
    const node_id r = all_hosts.back();
    src.assign(all_hosts.begin(), all_hosts.end() - 1);
    dst.assign(src.size(), r);
    q_node = t.tors.back().back();
    q_peer = r;
    q_rate = edge.rate;
  } else {
    // Leaf-spine: the last host of the last leaf receives the long, incast and burst flows
    // (its leaf's downlink is the monitored bottleneck); every other host sends them. The CDF
    // workload is all-to-all (below).
    const auto t =
        make_leaf_spine(net, static_cast<std::size_t>(s.leaves), static_cast<std::size_t>(s.spines),
                        static_cast<std::size_t>(s.hosts_per_leaf), edge, core, sw);
    for (const auto& rack : t.hosts) all_hosts.insert(all_hosts.end(), rack.begin(), rack.end());
    numbered = all_hosts;
    const node_id r = all_hosts.back();
    src.assign(all_hosts.begin(), all_hosts.end() - 1);
    dst.assign(src.size(), r);
    q_node = t.leaves.back();
    q_peer = r;
    q_rate = edge.rate;
  }
  return t0;
}

/// @brief Resolve the `monitor_ports` references `refs` against the built network `net` into
/// (node, port index) pairs (`out`, if not null). Returns an empty string or the rule broken,
/// naming the reference.
inline std::string resolve_ports(const network& net, const std::vector<port_ref>& refs,
                                 std::vector<std::pair<node_id, std::uint32_t>>* out) {
  std::vector<std::pair<node_id, std::uint32_t>> v;
  for (const auto& r : refs) {
    if (r.node >= net.node_count())
      return "'" + printable(r.text) + "': node " + std::to_string(r.node) +
             " does not exist (the topology has nodes 0 to " +
             std::to_string(net.node_count() - 1) + ")";
    const std::size_t ports = net.port_count(r.node);
    std::string peers;
    for (std::uint32_t p = 0; p < ports && p < 16; ++p)
      peers +=
          (p == 0 ? "" : ", ") + std::to_string(p) + ">" + std::to_string(net.peer_of(r.node, p));
    if (ports > 16) peers += ", ...";
    const std::string has = " (node " + std::to_string(r.node) + " has " + std::to_string(ports) +
                            (ports == 1 ? " port: " : " ports: ") + peers + ")";
    std::uint32_t port = r.port;
    if (r.by_peer) {
      port = static_cast<std::uint32_t>(ports);
      for (std::uint32_t p = 0; p < ports; ++p)
        if (net.peer_of(r.node, p) == r.port) {
          port = p;
          break;
        }
      if (port == ports)
        return "'" + printable(r.text) + "': node " + std::to_string(r.node) +
               " has no link to node " + std::to_string(r.port) + has;
    } else if (port >= ports) {
      return "'" + printable(r.text) + "': port " + std::to_string(r.port) + " does not exist" +
             has;
    }
    v.emplace_back(r.node, port);
  }
  if (out) *out = std::move(v);
  return {};
}

/// @brief Check cross-key consistency, the order of events in time, and the resource estimate
/// (netcc::testbench::estimate_resources) against the scenario's memory limit; empty when fine.
[[nodiscard]] inline std::string check(const scenario& s) {
  // Keys that contradict each other.
  if (s.dt_alpha != 1.0 && s.shared_buffer_bytes == 0) {
    std::ostringstream m;
    m << "dt_alpha = " << s.dt_alpha
      << ": conflicts with shared_buffer_bytes = 0 (Dynamic Thresholds share a switch's buffer; "
         "set shared_buffer_bytes)";
    return m.str();
  }
  if (s.rtt_noise_uniform_ns > 0 && s.rtt_noise_normal_ns > 0) {
    std::ostringstream m;
    m << "rtt_noise_normal_ns = " << s.rtt_noise_normal_ns
      << ": conflicts with rtt_noise_uniform_ns = " << s.rtt_noise_uniform_ns
      << " (one noise distribution per run; set the other to 0)";
    return m.str();
  }
  if (s.topology != "fattree") {
    const std::pair<const char*, double> fat_keys[] = {
        {"fattree_k", s.fattree_k == 4 ? 0 : s.fattree_k},
        {"pods", s.pods},
        {"tors_per_pod", s.tors_per_pod},
        {"aggs_per_pod", s.aggs_per_pod},
        {"hosts_per_tor", s.hosts_per_tor},
        {"cores", s.cores},
        {"agg_gbps", s.agg_gbps},
        {"core_gbps", s.core_gbps},
        {"agg_delay_ns", static_cast<double>(s.agg_delay_ns)},
        {"core_delay_ns", static_cast<double>(s.core_delay_ns)}};
    for (const auto& [key, v] : fat_keys) {
      if (v == 0) continue;
      std::ostringstream m;
      m << key << " = " << (std::string(key) == "fattree_k" ? s.fattree_k : v)
        << ": conflicts with topology = " << s.topology << " (a fattree key)";
      return m.str();
    }
  }
  if (s.shared_buffer_bytes > 0 && s.shared_buffer_bytes < 1500)
    return "shared_buffer_bytes = " + std::to_string(s.shared_buffer_bytes) +
           ": must be 0 or at least one packet (1500)";
  if (s.topology != "chain") {
    if (s.chain_switches != 3)
      return "chain_switches = " + std::to_string(s.chain_switches) +
             ": conflicts with topology = " + s.topology + " (a chain key)";
    if (!s.chain_gbps.empty())
      return "chain_gbps = " + printable(s.chain_gbps) +
             ": conflicts with topology = " + s.topology + " (a chain key)";
    if (!s.chain_delay_ns.empty())
      return "chain_delay_ns = " + printable(s.chain_delay_ns) +
             ": conflicts with topology = " + s.topology + " (a chain key)";
  }
  if (s.ecn_kmin_bytes > 0 && s.ecn_kmax_bytes > 0 && s.ecn_kmin_bytes > s.ecn_kmax_bytes)
    return "ecn_kmin_bytes = " + std::to_string(s.ecn_kmin_bytes) +
           ": must be at most ecn_kmax_bytes (" + std::to_string(s.ecn_kmax_bytes) + ")";
  if (!s.flows.empty()) {
    std::vector<chosen_flow> fl;
    if (auto err = parse_flow_list(s.flows, &fl); !err.empty())
      return "flows = " + printable(s.flows) + ": " + err;
    const std::size_t hosts = scenario_host_count(s);
    for (const auto& f : fl) {
      const int bad = static_cast<std::size_t>(f.from) >= hosts ? f.from : f.to;
      if (static_cast<std::size_t>(bad) >= hosts)
        return "flows = " + printable(s.flows) + ": host " + std::to_string(bad) +
               " does not exist (topology = " + s.topology + " has " + std::to_string(hosts) +
               " hosts, numbered from 0)";
      if (f.start_us >= s.duration_us) {
        std::ostringstream m;
        m << "flows = " << printable(s.flows) << ": a flow starts at " << f.start_us
          << " us: must be before the end of the run (duration_us = " << s.duration_us << ")";
        return m.str();
      }
    }
  }
  const int needed = s.long_flows + s.burst_flows + (s.topology == "dumbbell" ? 0 : s.incast_flows);
  if (s.topology == "chain") {
    // Long, incast and burst flows all go from the first host to the last: no count limit.
  } else if (s.topology == "fattree") {
    if (s.fattree_k % 2 != 0)
      return "fattree_k = " + std::to_string(s.fattree_k) + ": must be even";
    const fat_tree_shape f = fat_tree_shape_of(s);
    if (f.pods == 0 || f.tors_per_pod == 0 || f.aggs_per_pod == 0 || f.hosts_per_tor == 0 ||
        f.cores == 0)
      return "fattree_k = " + std::to_string(s.fattree_k) +
             ": gives an empty tier (pods, tors_per_pod, aggs_per_pod, hosts_per_tor, cores)";
    if (f.hosts() > 1'000'000)
      return "the fat-tree has " + std::to_string(f.hosts()) +
             " hosts (fattree_k, pods, tors_per_pod, hosts_per_tor): must be at most 1000000";
    if (f.hosts() < 2) return "the fat-tree has 1 host: must have at least 2";
    if (needed > static_cast<int>(f.hosts()) - 1)
      return "the fat-tree's " + std::to_string(f.hosts()) +
             " hosts: must exceed long_flows + incast_flows + burst_flows (" +
             std::to_string(needed) + "; one host receives)";
  } else if (s.topology == "leafspine") {
    const int hosts = s.leaves * s.hosts_per_leaf;
    if (hosts < 2)
      return "leaves * hosts_per_leaf = " + std::to_string(hosts) + ": must be at least 2";
    if (needed > hosts - 1) {
      return "leaves * hosts_per_leaf = " + std::to_string(hosts) +
             ": must exceed long_flows + incast_flows + burst_flows (" + std::to_string(needed) +
             "; one host receives)";
    }
  } else if (needed > s.senders) {
    return "senders = " + std::to_string(s.senders) +
           ": must be at least long_flows + incast_flows + burst_flows (" + std::to_string(needed) +
           ")";
  }
  if (s.reroute_us > 0 && s.reroute_flows > s.long_flows) {
    return "reroute_flows = " + std::to_string(s.reroute_flows) + ": must be at most long_flows (" +
           std::to_string(s.long_flows) + ") when reroute_us > 0";
  }
  if (s.topology == "dumbbell" && s.incast_flows > 0) {
    return "incast_flows = " + std::to_string(s.incast_flows) + ": must be 0 on a dumbbell";
  }
  if (s.cdf != "none") {
    flow_size_cdf c;
    if (auto err = load_cdf(cdf_path(s), c); !err.empty())
      return "cdf = " + printable(s.cdf) + ": " + err;
  }
  if (needed == 0 && s.cdf == "none" && s.flows.empty())
    return "long_flows, incast_flows and burst_flows are 0 and cdf = none: the scenario has no "
           "flow";
  // Everything that is scheduled must start inside the run.
  const auto late = [&](const char* what, double at_us, const char* keys) -> std::string {
    if (at_us < s.duration_us) return {};
    std::ostringstream m;
    m << what << " at " << at_us << " us (" << keys
      << "): must be before the end of the run (duration_us = " << s.duration_us << ")";
    return m.str();
  };
  std::string err;
  if (s.long_flows > 1) {
    const int slot = s.long_join_together != 0 ? 1 : s.long_flows - 1;
    err = late("the last long flow starts", slot * s.long_start_gap_us, "long_start_gap_us");
  }
  if (err.empty() && s.incast_flows > 0)
    err =
        late("the last incast flow starts", s.incast_at_us + (s.incast_flows - 1) * s.incast_gap_us,
             "incast_at_us, incast_gap_us");
  if (err.empty() && s.burst_flows > 0) err = late("the first burst", s.burst_at_us, "burst_at_us");
  if (err.empty() && s.cdf != "none")
    err = late("the CDF workload starts", s.cdf_at_us, "cdf_at_us");
  if (err.empty() && s.reroute_us > 0) err = late("the reroute", s.reroute_us, "reroute_us");
  if (!err.empty()) return err;
  if (static_cast<double>(s.sample_ns) > s.duration_us * 1000) {
    std::ostringstream m;
    m << "sample_ns = " << s.sample_ns
      << ": must be at most the run, duration_us = " << s.duration_us << " ("
      << s.duration_us * 1000 << " ns)";
    return m.str();
  }
  err = check_resources(s, estimate_resources(s), memory_limit(s));
  if (!err.empty() || s.monitor_ports.empty()) return err;
  // The port references against the topology itself (built without flows: it fits, as checked).
  std::vector<port_ref> refs;
  err = parse_port_list(s.monitor_ports, &refs);
  if (err.empty()) {
    network net{};
    (void)build_topology(net, s, switch_config{});
    err = resolve_ports(net, refs, nullptr);
  }
  return err.empty() ? err : "monitor_ports = " + printable(s.monitor_ports) + ": " + err;
}

/// @brief Parse a scenario file into `s`; returns an empty string or "file:line: message".
/// A UTF-8 byte-order mark at the start is skipped; a key set twice, a file with no setting,
/// and a NUL byte are errors. `s` is changed only when the whole file is good.
inline std::string load_scenario_file(const std::string& path, scenario& s) {
  const std::string where = printable(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) return where + ": cannot open: " + std::strerror(errno);
  scenario parsed = s;
  std::map<std::string, int, std::less<>> seen;  // key -> line
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (n == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);  // UTF-8 BOM
    if (line.find('\0') != std::string::npos)
      return where + ":" + std::to_string(n) + ": a NUL byte: not a text file";
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    const auto trim = [](std::string_view v) {
      while (!v.empty() && (v.front() == ' ' || v.front() == '\t' || v.front() == '\r'))
        v.remove_prefix(1);
      while (!v.empty() && (v.back() == ' ' || v.back() == '\t' || v.back() == '\r'))
        v.remove_suffix(1);
      return v;
    };
    const std::string_view l = trim(line);
    if (l.empty()) continue;
    const auto eq = l.find('=');
    if (eq == std::string_view::npos) {
      return where + ":" + std::to_string(n) + ": expected 'key = value', got '" + printable(l) +
             "'";
    }
    const std::string_view key = trim(l.substr(0, eq));
    if (const auto it = seen.find(key); it != seen.end()) {
      return where + ":" + std::to_string(n) + ": " + printable(key) +
             " is set twice (first on line " + std::to_string(it->second) + ")";
    }
    if (auto err = set_key(parsed, key, trim(l.substr(eq + 1))); !err.empty()) {
      return where + ":" + std::to_string(n) + ": " + err;
    }
    seen.emplace(std::string(key), n);
  }
  if (in.bad()) return where + ": cannot read: " + std::strerror(errno);
  if (seen.empty())
    return where + ": no setting (an empty scenario file; netcc-sim keys lists them)";
  s = std::move(parsed);
  return {};
}

/// @brief The built-in scenarios, by name.
[[nodiscard]] inline std::map<std::string, std::pair<std::string, scenario>> builtin_scenarios() {
  std::map<std::string, std::pair<std::string, scenario>> m;
  m["incast"] = {
      "a long flow and a 10:1 incast of 500 kB flows at 500 us; 100 Gbps star, 1 us links",
      scenario{}};
  scenario fair;
  fair.name = "fairness";
  fair.topology = "dumbbell";
  fair.senders = 4;
  fair.long_flows = 4;
  fair.incast_flows = 0;
  fair.long_start_gap_us = 1000;
  fair.long_stop_after_us = 4000;
  fair.duration_us = 8000;
  fair.expected_flows = 4;
  m["fairness"] = {
      "4 long flows joining 1 ms apart and leaving 4 ms after joining; 100 Gbps dumbbell", fair};
  scenario big = scenario{};
  big.name = "incast255";
  big.senders = 256;
  big.incast_flows = 255;
  big.incast_size_bytes = 64'000;
  big.host_gbps = 25;
  big.expected_flows = 255;
  m["incast255"] = {"a long flow and a 255:1 incast of 64 kB flows; 25 Gbps hosts, 100 Gbps fabric",
                    big};
  // PowerTCP NSDI'22 §4.2, Figure 4 (top row): a long flow to a receiver, then ten flows to
  // the same receiver at once. 25 Gbps hosts and 100 Gbps fabric as in §4.1; a two-leaf,
  // two-spine leaf-spine instead of the paper's 256-host fat tree, 1 us on every link (the
  // paper: 5 us on core links), 500 kB incast flows, default buffers (no shared-memory dynamic
  // thresholds). The bottleneck is the receiver's 25 Gbps downlink.
  scenario fig4;
  fig4.name = "powertcp-fig4";
  fig4.topology = "leafspine";
  fig4.host_gbps = 25;
  fig4.long_flows = 1;
  fig4.incast_flows = 10;
  fig4.incast_size_bytes = 500'000;
  fig4.incast_at_us = 500;
  fig4.duration_us = 3000;
  fig4.expected_flows = 11;
  m["powertcp-fig4"] = {
      "PowerTCP Fig. 4: a long flow and a 10:1 incast at 500 us onto a 25 Gbps "
      "receiver; leaf-spine, 25 Gbps hosts, 100 Gbps fabric",
      fig4};
  // PowerTCP Figure 4, bottom row: the 255:1 incast. The same long flow and receiver, and 254
  // responders under the two leaves (128 hosts per leaf) answering a query at once; the paper
  // does not state Figure 4's response size, so the incast carries the 2 MB request of its
  // §4.3 (Figure 7c-d), 7874 B per responder. N = 255 flows for PowerTCP's beta and HPCC's
  // additive increase.
  scenario fig4b = fig4;
  fig4b.name = "powertcp-fig4-255";
  fig4b.hosts_per_leaf = 128;
  fig4b.incast_flows = 254;
  fig4b.incast_size_bytes = 7'874;
  fig4b.expected_flows = 255;
  m["powertcp-fig4-255"] = {
      "PowerTCP Fig. 4 (bottom): a long flow and a 255:1 incast (2 MB in all) at 500 us onto a "
      "25 Gbps receiver; leaf-spine of 2 x 128 hosts",
      fig4b};
  // FastTune §V-B, Figure 7: many-to-one; flow 1 alone, then flows 2-4 together at line rate.
  // 10 Gbps links and 2 us per link as the paper's Clos (§V-A); a star of four senders stands
  // for its unspecified many-to-one topology. HPCC's parameters for every INT controller.
  scenario fig7;
  fig7.name = "fasttune-fig7";
  fig7.senders = 4;
  fig7.host_gbps = 10;
  fig7.bottleneck_gbps = 10;
  fig7.link_delay_ns = 2000;
  fig7.long_flows = 4;
  fig7.long_join_together = 1;
  fig7.long_start_gap_us = 200;
  fig7.incast_flows = 0;
  fig7.duration_us = 800;
  fig7.expected_flows = 4;
  m["fasttune-fig7"] = {
      "FastTune Fig. 7: one flow, then three more join together at line rate; "
      "10 Gbps star, 2 us links",
      fig7};
  // TIMELY §6.1, Table 1: 40 connections onto a 20 Gbps bottleneck (the paper: 10 clients x 4
  // connections onto a server's 2 x 10 Gbps; here 40 senders on 10 Gbps links into one 20 Gbps
  // link), 2 us links (a rack), one ACK per 11 packets so that a completion covers a 16 KB
  // segment as TIMELY's NIC reports it.
  scenario t1;
  t1.name = "timely-table1";
  t1.senders = 40;
  t1.host_gbps = 10;
  t1.bottleneck_gbps = 20;
  t1.link_delay_ns = 2000;
  t1.long_flows = 40;
  t1.incast_flows = 0;
  t1.ack_every = 11;
  t1.duration_us = 20'000;
  t1.expected_flows = 40;
  m["timely-table1"] = {
      "TIMELY Table 1: 40 connections onto a 20 Gbps bottleneck, completions "
      "per 16 KB; 10 Gbps star, 2 us links",
      t1};
  // Bolt §5.1.1 (Figure 10): a second flow joins a saturated 100 Gbps link at 100 us; 8 us
  // base RTT (footnote 3) from 1.27 us per link on the dumbbell's three links.
  scenario join;
  join.name = "bolt-join";
  join.topology = "dumbbell";
  join.senders = 2;
  join.link_delay_ns = 1270;
  join.long_flows = 2;
  join.long_start_gap_us = 100;
  join.incast_flows = 0;
  join.duration_us = 300;
  join.expected_flows = 2;
  m["bolt-join"] = {"Bolt Fig. 10: a second flow joins a saturated 100 Gbps link; 8 us RTT", join};
  // Bolt §5.1.2 (Figure 11): of two flows sharing a 100 Gbps link, one completes (1.25 MB, about
  // 200 us at half the link); 8 us base RTT from 1.94 us per link on a two-sender star.
  scenario finish;
  finish.name = "bolt-finish";
  finish.senders = 2;
  finish.link_delay_ns = 1940;
  finish.long_flows = 1;
  finish.incast_flows = 1;
  finish.incast_size_bytes = 1'250'000;
  finish.incast_at_us = 0;
  finish.duration_us = 800;
  finish.expected_flows = 2;
  m["bolt-finish"] = {"Bolt Fig. 11: one of two flows on a 100 Gbps link completes; 8 us RTT",
                      finish};
  // Bolt §5.1.2 (Table 1): 5 senders x 500 KB starting 15 us apart to one receiver; 100 Gbps
  // star, 5 us base RTT from 1.19 us per link. Keys bolt_pru and bolt_sm turn PRU and SM off.
  scenario star5;
  star5.name = "bolt-star";
  star5.senders = 5;
  star5.link_delay_ns = 1190;
  star5.long_flows = 0;
  star5.incast_flows = 5;
  star5.incast_size_bytes = 500'000;
  star5.incast_at_us = 0;
  star5.incast_gap_us = 15;
  star5.duration_us = 400;
  star5.expected_flows = 5;
  m["bolt-star"] = {
      "Bolt Table 1: 5 senders x 500 KB starting 15 us apart; 100 Gbps star, 5 us "
      "RTT",
      star5};
  // Bolt §5.1.3 (Figure 12): the set-up of Figures 4 and 11 (two flows on the 100 Gbps dumbbell
  // with an 8 us base RTT, as bolt-join), but at 200 us the second flow is rerouted away instead
  // of completing: it stops without LAST marking, so no PRU token announces the freed capacity.
  // Key bolt_sm turns supply matching off (Figure 12b: additive increase alone).
  scenario reroute = join;
  reroute.name = "bolt-reroute";
  reroute.long_start_gap_us = 0;
  reroute.reroute_us = 200;
  reroute.duration_us = 600;
  m["bolt-reroute"] = {
      "Bolt Fig. 12: of two flows on a 100 Gbps link one is rerouted away at 200 us (no LAST); "
      "8 us RTT",
      reroute};
  // Bolt §5.2.1 (Figure 13) and Appendix A (Eq. 3): the bandwidth SRCs take at 80% load, on the
  // §5.1.2 star (100 Gbps, 5 us base RTT), 16 senders towards one receiver. The paper's READ RPC
  // workload is not public; the Facebook Hadoop sizes (Bolt §5.4's other workload, most flows
  // within a BDP) stand in.
  scenario srcload = star5;
  srcload.name = "bolt-src";
  srcload.senders = 16;
  srcload.incast_flows = 0;
  srcload.cdf = "hadoop";
  srcload.cdf_load = 0.8;
  srcload.duration_us = 20'000;
  srcload.sample_ns = 10'000;
  srcload.expected_flows = 16;
  m["bolt-src"] = {
      "Bolt Fig. 13: SRC bandwidth at 80% load, Hadoop flow sizes from 16 senders to one "
      "receiver; 100 Gbps star, 5 us RTT",
      srcload};
  // PowerTCP §4.1's fat-tree: 4 pods of 2 ToRs (32 hosts each) and 2 aggregation switches, 2
  // cores; 25 Gbps hosts, 100 Gbps fabric, 1 us links and 5 us on the core links; shared-memory
  // switches with Dynamic Thresholds (alpha 1). The paper sizes buffers by Tofino's
  // bandwidth-buffer ratio (22 MB for 6.5 Tbps, ~3.4 kB per Gbps); one size for every switch
  // here, that of a ToR's 1 Tbps: 3.4 MB.
  scenario ft;
  ft.topology = "fattree";
  ft.fattree_k = 4;
  ft.pods = 4;
  ft.tors_per_pod = 2;
  ft.aggs_per_pod = 2;
  ft.hosts_per_tor = 32;
  ft.cores = 2;
  ft.host_gbps = 25;
  ft.core_delay_ns = 5000;
  ft.shared_buffer_bytes = 3'400'000;
  // PowerTCP §4.2, Figure 4 (top row) on that fat-tree: a long flow and a 10:1 incast of 500 kB
  // flows at 500 us onto one receiver's 25 Gbps downlink; the senders are the first hosts (pod
  // 0), the receiver the last (pod 3): every flow crosses the core.
  scenario fig4ft = ft;
  fig4ft.name = "powertcp-fig4-fattree";
  fig4ft.long_flows = 1;
  fig4ft.incast_flows = 10;
  fig4ft.incast_size_bytes = 500'000;
  fig4ft.incast_at_us = 500;
  fig4ft.duration_us = 3000;
  fig4ft.expected_flows = 11;
  m["powertcp-fig4-fattree"] = {
      "PowerTCP Fig. 4 on its 4.1 fat-tree (256 hosts, shared buffers with Dynamic "
      "Thresholds): a long flow and a 10:1 incast at 500 us onto a 25 Gbps receiver",
      fig4ft};
  // PowerTCP §4.2, Figure 6: web search at 60% load, all-to-all on that fat-tree.
  scenario web6 = ft;
  web6.name = "powertcp-fig6-fattree";
  web6.long_flows = 0;
  web6.incast_flows = 0;
  web6.cdf = "websearch";
  web6.cdf_load = 0.6;
  web6.duration_us = 10'000;
  web6.sample_ns = 10'000;
  web6.cdf_max_flows = 1'000'000;
  web6.expected_flows = 16;
  m["powertcp-fig6-fattree"] = {
      "PowerTCP Fig. 6: web-search flow sizes, all-to-all at 60% load on its 4.1 fat-tree "
      "(256 x 25 Gbps hosts, shared buffers with Dynamic Thresholds)",
      web6};
  // A parking lot (two bottlenecks loaded at once): four switches in a line, the middle link at
  // 50 Gbps; one flow crosses every link, one more enters and leaves on each link.
  scenario lot;
  lot.name = "parking-lot";
  lot.topology = "chain";
  lot.chain_switches = 4;
  lot.chain_gbps = "100,50,100";
  lot.flows = "0>3,0>1,1>2,2>3";
  lot.long_flows = 0;
  lot.incast_flows = 0;
  lot.duration_us = 2000;
  lot.expected_flows = 2;
  m["parking-lot"] = {
      "parking lot: a flow over a chain of 4 switches (100, 50, 100 Gbps links) and one flow "
      "on each link",
      lot};
  scenario web = scenario{};
  web.name = "websearch";
  web.topology = "leafspine";
  web.long_flows = 0;
  web.incast_flows = 0;
  web.cdf = "websearch";
  web.cdf_load = 0.6;
  web.duration_us = 10'000;
  web.expected_flows = 16;
  m["websearch"] = {
      "web-search flow sizes, all-to-all Poisson arrivals at 60% load; leaf-spine "
      "of 2 leaves x 8 hosts and 2 spines, 100 Gbps",
      web};
  return m;
}

/// @brief Summary of one scenario run with one controller.
struct run_summary {
  /// @brief Controller name.
  std::string cc;
  /// @brief Largest bottleneck queue, bytes.
  double peak_queue = 0;
  /// @brief 99th percentile of the sampled bottleneck queue from the incast on, bytes.
  double p99_queue = 0;
  /// @brief Time from the incast (or first join) until the queue is first back under 10% of
  /// its peak after the peak, us (negative if it never is).
  double drain_us = -1;
  /// @brief Goodput of the long flows over the last quarter of the run, Gbps (NaN when the
  /// scenario has no long flow).
  double tail_goodput_gbps = std::numeric_limits<double>::quiet_NaN();
  /// @brief Jain's index of the long flows' goodput over the fairness window (NaN when fewer
  /// than two flows carried traffic in it: see jain_flows). The window is the later half of the
  /// last stretch in which the most long flows run together, and at most the run's last quarter
  /// (the last quarter when every long flow runs to the end; on `fairness`, where flows join 1 ms
  /// apart and leave 4 ms after joining, [3.5, 4] ms, when all four run).
  double jain = std::numeric_limits<double>::quiet_NaN();
  /// @brief Long flows with goodput in the fairness window (Jain's index means something from
  /// two on).
  std::size_t jain_flows = 0;
  /// @brief Start of the fairness window, us.
  double jain_from_us = 0;
  /// @brief End of the fairness window, us.
  double jain_to_us = 0;
  /// @brief Finite flows of the workload (incast and CDF workload; bursts excluded).
  std::size_t finite_flows = 0;
  /// @brief Finite flows that completed; the slowdowns are NaN when none did (and when there
  /// is no finite flow: finite_flows says which).
  std::size_t completed = 0;
  /// @brief Mean FCT slowdown of the completed finite flows (NaN if none).
  double mean_slowdown = std::numeric_limits<double>::quiet_NaN();
  /// @brief Largest FCT slowdown of the completed finite flows (NaN if none).
  double max_slowdown = std::numeric_limits<double>::quiet_NaN();
  /// @brief Drops at any port.
  std::uint64_t drops = 0;
  /// @brief Go-back-N timeouts over all flows.
  std::uint64_t timeouts = 0;
  /// @brief Packet-hops simulated (transmissions on any port).
  std::uint64_t hops = 0;
  /// @brief Engine events processed.
  std::uint64_t events = 0;
  /// @brief Wall-clock time of the run itself (set-up excluded), seconds; not deterministic.
  double wall_seconds = 0;
  /// @brief Bottleneck utilisation over the run: bytes sent on it / (rate * duration).
  double utilisation = 0;
  /// @brief 99th-percentile FCT slowdown of the completed finite flows (NaN if none).
  double p99_slowdown = std::numeric_limits<double>::quiet_NaN();
  /// @brief 99th-percentile FCT slowdown of the completed short flows (< 10 kB, the PowerTCP
  /// and HPCC evaluations' class) and how many there were.
  double p99_slowdown_short = 0;
  /// @brief Completed short flows.
  std::size_t short_flows = 0;
  /// @brief 99th-percentile FCT slowdown of the completed long flows (> 1 MB).
  double p99_slowdown_long = 0;
  /// @brief Completed long flows.
  std::size_t long_flows = 0;
  /// @brief When the last finite flow completed, us (-1 if none did).
  double last_finish_us = -1;
  /// @brief When the first finite flow completed, us (-1 if none did).
  double first_finish_us = -1;
  /// @brief ECN marks at any port.
  std::uint64_t ecn_marks = 0;
  /// @brief CNPs received by senders, network-wide.
  std::uint64_t cnps = 0;
  /// @brief CNPs one flow received (an entry of run_summary::flow_cnps).
  struct flow_cnp_count {
    /// @brief The flow's number (in the order the run adds flows, as series_flows numbers them).
    flow_id flow = 0;
    /// @brief Its size, bytes (0: long-running).
    std::int64_t size_bytes = 0;
    /// @brief CNPs it received.
    std::uint64_t cnps = 0;
  };
  /// @brief The flows that received CNPs, by flow number, with their counts (they sum to cnps).
  std::vector<flow_cnp_count> flow_cnps;
  /// @brief Bolt SRCs generated by switches.
  std::uint64_t srcs = 0;
  /// @brief Bandwidth of the Bolt SRCs generated over the run at every switch port: their bytes
  /// (the engine's control-packet size each) per second of the run, Gbps.
  double src_gbps = 0;
  /// @brief Bolt SRCs generated for packets toward the monitored (bottleneck) port.
  std::uint64_t bottleneck_srcs = 0;
  /// @brief Their bandwidth, Gbps: what Bolt NSDI'23 §5.2.1 reports as the "bandwidth occupied
  /// by SRC packets" of a congested link, and Appendix A Eq. 3 estimates
  /// (netcc::testbench::bolt_src_bandwidth_eq3).
  double bottleneck_src_gbps = 0;
  /// @brief The monitored port's line rate, Gbps (the denominator of SRC and utilisation
  /// shares: on a leaf-spine or fat-tree it is the receiver's downlink, at host_gbps).
  double bottleneck_rate_gbps = 0;
  /// @brief Packets sent on the bottleneck port over the run (data only, on a star or dumbbell).
  std::uint64_t bottleneck_packets = 0;
  /// @brief FastTune S-ACKs generated by switches.
  std::uint64_t sacks = 0;
  /// @brief PFC pause frames sent.
  std::uint64_t pauses = 0;
};

/// @brief The base RTT run_scenario gives the controllers (cc_context::base_rtt): propagation
/// both ways over the links of the topology's longest sender-receiver path, plus one full
/// packet (cfg.mtu) and one ACK (cfg.control_size) serialised per hop at the slower of the host
/// and bottleneck rates.
/// @code
/// netcc::testbench::scenario s;   // star, 1 us links, 100 Gbps: 4 us + 2 x (120 + 6) ns
/// auto rtt = netcc::testbench::scenario_base_rtt(s);   // 4252 ns
/// @endcode
[[nodiscard]] inline duration scenario_base_rtt(const scenario& s, const network_config& cfg = {}) {
  if (s.topology == "fattree") {
    // Between pods: host-ToR-aggregation-core-aggregation-ToR-host, six links.
    const fat_tree_shape f = fat_tree_shape_of(s);
    const std::int64_t d_agg = s.agg_delay_ns > 0 ? s.agg_delay_ns : s.link_delay_ns;
    const std::int64_t d_core = s.core_delay_ns > 0 ? s.core_delay_ns : s.link_delay_ns;
    const int hops = f.pods > 1 ? 6 : (f.tors_per_pod > 1 ? 4 : 2);
    const std::int64_t one_way =
        2 * s.link_delay_ns + (hops >= 4 ? 2 * d_agg : 0) + (hops == 6 ? 2 * d_core : 0);
    double slowest_gbps = s.host_gbps;
    if (hops >= 4)
      slowest_gbps = std::min(slowest_gbps, s.agg_gbps > 0 ? s.agg_gbps : s.bottleneck_gbps);
    if (hops == 6)
      slowest_gbps = std::min(slowest_gbps, s.core_gbps > 0 ? s.core_gbps : s.bottleneck_gbps);
    const bit_rate slowest{static_cast<std::int64_t>(slowest_gbps * 1e9)};
    return duration{2 * one_way} + hops * (cfg.mtu / slowest + cfg.control_size / slowest);
  }
  if (s.topology == "chain") {
    // First host to last: two host links and every switch-to-switch link.
    std::vector<double> rates, delays;
    (void)parse_number_list(s.chain_gbps, 0.001, 1600, &rates);
    (void)parse_number_list(s.chain_delay_ns, 1, 1e9, &delays);
    const int links = s.chain_switches - 1;
    double one_way = 2.0 * static_cast<double>(s.link_delay_ns), slowest_gbps = s.host_gbps;
    for (int i = 0; i < links; ++i) {
      const auto k = static_cast<std::size_t>(i);
      one_way += delays.empty() ? static_cast<double>(s.link_delay_ns) : delays[k % delays.size()];
      slowest_gbps =
          std::min(slowest_gbps, rates.empty() ? s.bottleneck_gbps : rates[k % rates.size()]);
    }
    const bit_rate slowest{static_cast<std::int64_t>(slowest_gbps * 1e9)};
    return duration{static_cast<std::int64_t>(2 * one_way)} +
           (links + 2) * (cfg.mtu / slowest + cfg.control_size / slowest);
  }
  const int hops_on_path =
      s.topology == "star" ? 2 : (s.topology == "dumbbell" ? 3 : (s.leaves > 1 ? 4 : 2));
  const bit_rate slowest{static_cast<std::int64_t>(std::min(s.host_gbps, s.bottleneck_gbps) * 1e9)};
  return duration{2 * hops_on_path * s.link_delay_ns} +
         hops_on_path * (cfg.mtu / slowest + cfg.control_size / slowest);
}

/// @brief What run_scenario tells each controller factory about `s` (netcc::testbench::cc_context).
[[nodiscard]] inline cc_context scenario_cc_context(const scenario& s,
                                                    const network_config& cfg = {}) {
  return {.host_rate = bit_rate{static_cast<std::int64_t>(s.host_gbps * 1e9)},
          .base_rtt = scenario_base_rtt(s, cfg),
          .expected_flows = s.expected_flows,
          .mtu = cfg.mtu,
          .bottleneck_rate = bit_rate{static_cast<std::int64_t>(s.bottleneck_gbps * 1e9)},
          .params = &s};
}

/// @brief Empty when controller `cc` can be built for `s` (its factory's checked construction
/// accepts the parameters the scenario derives); otherwise the reason, naming fields, values
/// and rules. The runner asks this before it runs or writes anything.
///
/// A controller-parameter key (dcqcn_g, ...) the controller refuses is named with its value:
/// each set key is tried alone, and the first the controller refuses alone is the one reported
/// ("dcqcn_g = 2: dcqcn: ... g must be in (0, 1]"); when only their combination is refused, the
/// set keys are listed before the controller's reason.
[[nodiscard]] inline std::string check_controller(const scenario& s, const cc_entry& cc) {
  const auto refusal = [&](const scenario& t) -> std::string {
    try {
      const cc_context ctx = scenario_cc_context(t);
      switch_config sw{};
      if (cc.configure_switch) cc.configure_switch(sw, ctx);
      (void)cc.make(ctx);
    } catch (const std::exception& e) {
      return e.what();
    }
    return {};
  };
  std::string why = refusal(s);
  if (why.empty()) return {};
  // The controller-parameter keys set in `s`: those whose field is a double defaulting to NaN.
  const scenario defaults{};
  std::vector<const key_info*> set;
  for (const auto& k : scenario_key_table())
    if (const auto* m = std::get_if<double scenario::*>(&k.field);
        m && std::isnan(defaults.**m) && !std::isnan(s.**m))
      set.push_back(&k);
  if (set.empty()) return why;
  scenario alone = s;
  for (const key_info* k : set) alone.*std::get<double scenario::*>(k->field) = scenario::unset;
  std::string names;
  for (const key_info* k : set) {
    const auto m = std::get<double scenario::*>(k->field);
    alone.*m = s.*m;
    if (auto err = refusal(alone); !err.empty()) {
      const std::string shown = std::string(k->name) + " = " + k->value_in(s) + ": ";
      return err.starts_with(shown) ? err : shown + err;  // a unit check names the key itself
    }
    alone.*m = scenario::unset;
    names += (names.empty() ? "" : ", ") + std::string(k->name) + " = " + k->value_in(s);
  }
  return names + " together: " + why;
}

/// @brief The window over which run_scenario computes Jain's index of the long flows: of the
/// stretches in which the largest number of long flows run together (each flow over [start,
/// stop), stops past `end` at `end`), the last; of it, the later half, and at most its last
/// `end` / 4 (so the last quarter of the run when every flow runs to the end, and the part where
/// all flows have joined and converged when flows come and go, as on `fairness`).
/// @code
/// // flows over [0, 4), [1, 5), [2, 6), [3, 7) ms in an 8 ms run: all four in [3, 4) ms
/// auto [from, to] = netcc::testbench::fairness_window(spans, netcc::timestamp{8'000'000});
/// // from = 3.5 ms, to = 4 ms
/// @endcode
[[nodiscard]] inline std::pair<timestamp, timestamp> fairness_window(
    const std::vector<std::pair<timestamp, timestamp>>& spans, timestamp end) {
  std::vector<std::pair<timestamp, int>> edges;  // +1 at a start, -1 at a stop
  for (const auto& [a, b] : spans) {
    const timestamp stop = std::min(b, end);
    if (a >= stop) continue;
    edges.emplace_back(a, 1);
    edges.emplace_back(stop, -1);
  }
  std::sort(edges.begin(), edges.end());  // at equal times a stop (-1) comes first
  int now = 0, best = 0;
  timestamp from = end - (end - timestamp{}) / 4, to = end;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    now += edges[i].second;
    const bool last_at_time = i + 1 == edges.size() || edges[i + 1].first != edges[i].first;
    if (!last_at_time || now == 0 || now < best) continue;
    const timestamp next = i + 1 < edges.size() ? edges[i + 1].first : end;
    if (next <= edges[i].first) continue;
    best = now;
    from = edges[i].first;
    to = next;
  }
  const duration half = (to - from) / 2, quarter = (end - timestamp{}) / 4;
  return {to - std::min(half, quarter), to};
}

/// @brief Build and run `s` with controller `cc`; the time series goes to `ts_out`. `progress`,
/// when given, is called about every million engine events (netcc::testbench::network::set_progress).
inline run_summary run_scenario(const scenario& s, const cc_entry& cc, series& ts_out,
                                const std::function<void(const network&)>& progress = {}) {
  network_config cfg{
      .seed = s.seed,
      .rto = duration{static_cast<std::int64_t>(s.rto_us * 1000)},
      .cnp_interval = duration{static_cast<std::int64_t>(s.cnp_interval_us * 1000)},
      .cnp_mode = s.cnp_schedule != 0 ? dcqcn_np_mode::schedule : dcqcn_np_mode::suppress,
      .sample_interval = duration{s.sample_ns},
      .ack_every = static_cast<std::uint32_t>(s.ack_every),
      .ack_delay = duration{s.ack_delay_ns},
      .memory_limit = memory_limit(s),
      .noise = s.rtt_noise_uniform_ns > 0
                   ? rtt_noise::uniform
                   : (s.rtt_noise_normal_ns > 0 ? rtt_noise::normal : rtt_noise::none),
      .rtt_noise_ns = duration{static_cast<std::int64_t>(
          std::llround(std::max(s.rtt_noise_uniform_ns, s.rtt_noise_normal_ns)))}};
  network net{cfg};
  const auto [edge, core] = scenario_links(s);
  const duration base_rtt = scenario_base_rtt(s, cfg);
  const cc_context ctx = scenario_cc_context(s, cfg);
  switch_config sw{};
  if (cc.configure_switch) cc.configure_switch(sw, ctx);
  sw.pfc = s.pfc != 0;
  sw.shared_buffer = bytes{s.shared_buffer_bytes};
  if (s.ecn_kmin_bytes > 0) sw.ecn_kmin = bytes{s.ecn_kmin_bytes};
  if (s.ecn_kmax_bytes > 0) sw.ecn_kmax = bytes{s.ecn_kmax_bytes};
  if (s.ecn_pmax > 0) sw.ecn_pmax = s.ecn_pmax;
  sw.dt_alpha = s.dt_alpha;
  sw.bolt_cfg.pru = s.bolt_pru != 0;
  sw.bolt_cfg.sm = s.bolt_sm != 0;

  const scenario_topology topo = build_topology(net, s, sw);
  const std::vector<node_id>&src = topo.src, &dst = topo.dst, &all_hosts = topo.all_hosts,
        &numbered = topo.numbered;
  const node_id q_node = topo.q_node, q_peer = topo.q_peer;
  const bit_rate q_rate = topo.q_rate;

  std::vector<flow_id> long_ids, incast_ids;
  std::vector<std::pair<timestamp, timestamp>> long_spans;  // [start, stop) of each long flow
  for (int i = 0; i < s.long_flows; ++i) {
    const int slot = s.long_join_together != 0 ? std::min(i, 1) : i;
    const timestamp start{static_cast<std::int64_t>(slot * s.long_start_gap_us * 1000)};
    timestamp stop = s.long_stop_after_us > 0
                         ? start + duration{static_cast<std::int64_t>(s.long_stop_after_us * 1000)}
                         : timestamp::max();
    // Rerouted away (Bolt §5.1.3): the flow stops sending here, unannounced (no LAST marking).
    if (s.reroute_us > 0 && i >= s.long_flows - s.reroute_flows)
      stop = std::min(stop, timestamp{static_cast<std::int64_t>(s.reroute_us * 1000)});
    long_spans.emplace_back(start, stop);
    long_ids.push_back(net.add_flow({.src = src[static_cast<std::size_t>(i)],
                                     .dst = dst[static_cast<std::size_t>(i)],
                                     .start = start,
                                     .stop = stop,
                                     .cc = cc.make(ctx)}));
  }
  {  // the flows key: long-running flows between chosen hosts (after the long flows)
    std::vector<chosen_flow> chosen;
    (void)parse_flow_list(s.flows, &chosen);  // check() validated it
    for (const auto& f : chosen) {
      const timestamp start{static_cast<std::int64_t>(f.start_us * 1000)};
      long_spans.emplace_back(start, timestamp::max());
      long_ids.push_back(net.add_flow({.src = numbered[static_cast<std::size_t>(f.from)],
                                       .dst = numbered[static_cast<std::size_t>(f.to)],
                                       .start = start,
                                       .cc = cc.make(ctx)}));
    }
  }
  for (int i = 0; i < s.incast_flows; ++i) {
    const auto k = static_cast<std::size_t>(s.long_flows + i);
    incast_ids.push_back(net.add_flow({.src = src[k],
                                       .dst = dst[k],
                                       .size = bytes{s.incast_size_bytes},
                                       .start = timestamp{static_cast<std::int64_t>(
                                           (s.incast_at_us + i * s.incast_gap_us) * 1000)},
                                       .cc = cc.make(ctx)}));
  }
  for (int i = 0; i < s.burst_flows; ++i) {
    const auto k =
        static_cast<std::size_t>(s.long_flows + (s.topology == "star" ? s.incast_flows : 0) + i);
    const timestamp first{static_cast<std::int64_t>(s.burst_at_us * 1000)};
    const duration period{static_cast<std::int64_t>(s.burst_period_us * 1000)};
    const timestamp end_of_run{static_cast<std::int64_t>(s.duration_us * 1000)};
    std::vector<std::pair<timestamp, bytes>> writes;
    for (int b = 1; s.burst_count == 0 || b < s.burst_count; ++b) {
      const timestamp at = first + b * period;
      if (at >= end_of_run) break;
      writes.emplace_back(at, bytes{s.burst_bytes});
    }
    net.add_flow({.src = src[k],
                  .dst = dst[k],
                  .size = bytes{s.burst_bytes},
                  .start = first,
                  .writes = std::move(writes),
                  .cc = cc.make(ctx)});
  }
  if (s.cdf != "none") {
    flow_size_cdf cdf;
    if (load_cdf(cdf_path(s), cdf).empty()) {  // check() reported a bad file already
      // Star and dumbbell: the load is a fraction of the bottleneck. Leaf-spine: all-to-all
      // between random distinct hosts, the load a fraction of every host's link (as the
      // HPCC and PowerTCP evaluations define it).
      const bool all_to_all = s.topology == "leafspine" || s.topology == "fattree";
      const std::size_t senders = all_to_all ? all_hosts.size() : src.size();
      const bit_rate capacity =
          all_to_all ? bit_rate{edge.rate.count() * static_cast<std::int64_t>(senders)} : core.rate;
      const auto flows = poisson_flows(cdf, s.cdf_load, capacity, senders,
                                       timestamp{static_cast<std::int64_t>(s.cdf_at_us * 1000)},
                                       timestamp{static_cast<std::int64_t>(s.duration_us * 1000)},
                                       static_cast<std::size_t>(s.cdf_max_flows), s.seed);
      std::mt19937_64 pick{s.seed ^ 0x9E3779B97F4A7C15ULL};
      for (const auto& w : flows) {
        node_id from = 0, to = 0;
        if (all_to_all) {
          from = all_hosts[w.sender];
          auto k = static_cast<std::size_t>(uniform01(pick) * static_cast<double>(senders - 1));
          if (k >= w.sender) ++k;  // any host but the sender
          to = all_hosts[std::min(k, senders - 1)];
        } else {
          from = src[w.sender];
          to = dst[w.sender];
        }
        // The controller is built when the flow starts and released when it completes (the
        // factory below): a long workload holds controllers for its active flows only.
        incast_ids.push_back(
            net.add_flow({.src = from, .dst = to, .size = w.size, .start = w.start, .cc = {}}));
      }
    }
  }
  net.monitor_queue(q_node, q_peer, "queue_bytes");
  net.monitor_port_rate(q_node, q_peer, "bottleneck_gbps");
  for (std::size_t i = 0; i < long_ids.size(); ++i)
    net.monitor_flow(long_ids[i], "long" + std::to_string(i));
  {
    // Chosen flows' series and per-hop queues (set_key validated the lists).
    std::vector<flow_id> chosen_series, chosen_paths, chosen_cc;
    const auto numbers = [&](const std::string& text, std::vector<flow_id>& out) {
      if (text == "all") {
        for (flow_id f = 0; f < net.flow_count(); ++f) out.push_back(f);
      } else {
        (void)parse_flow_numbers(text, &out);
      }
    };
    numbers(s.series_flows, chosen_series);
    numbers(s.cc_series_flows, chosen_cc);
    (void)parse_flow_numbers(s.path_queues, &chosen_paths);
    for (const flow_id f : chosen_series)
      if (f < net.flow_count()) net.monitor_flow(f, "flow" + std::to_string(f));
    for (const flow_id f : chosen_cc)
      if (f < net.flow_count()) net.monitor_flow_cc(f, "flow" + std::to_string(f));
    std::vector<port_ref> refs;
    std::vector<std::pair<node_id, std::uint32_t>> ports;
    (void)parse_port_list(s.monitor_ports, &refs);
    if (auto err = resolve_ports(net, refs, &ports); !err.empty())
      throw std::invalid_argument("monitor_ports = " + printable(s.monitor_ports) + ": " + err);
    for (const auto& [node, port] : ports)
      net.monitor_port(node, port, "node" + std::to_string(node) + "_port" + std::to_string(port));
    for (const flow_id f : chosen_paths) {
      if (f >= net.flow_count()) continue;
      const auto hops = net.path(f);
      for (std::size_t h = 0; h < hops.size(); ++h)
        net.monitor_queue(hops[h].first, hops[h].second,
                          "flow" + std::to_string(f) + "_hop" + std::to_string(h) + "_queue_bytes");
    }
  }
  net.set_controller_factory([&](flow_id) { return cc.make(ctx); });
  if (progress) net.set_progress(progress);
  const timestamp end{static_cast<std::int64_t>(s.duration_us * 1000)};
  const auto wall_start = std::chrono::steady_clock::now();
  net.run_until(end);
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (net.over_memory_limit()) {
    std::ostringstream m;
    m << cc.name << ": the run passed its memory limit (max_memory_mb = " << s.max_memory_mb
      << (s.max_memory_mb == 0 ? ": half of this machine's memory" : "") << ", "
      << (memory_limit(s) >> 20) << " MiB) at " << static_cast<double>(net.now().count()) / 1000
      << " us with " << (net.memory_bytes() >> 20) << " MiB, " << net.bytes_in_network()
      << " bytes of packets queued or on links; lower buffer_bytes, "
      << "link_delay_ns or the load, or raise max_memory_mb";
    throw resource_limit_error(m.str());
  }
  ts_out = net.time_series();

  run_summary r;
  r.cc = cc.name;
  const auto& q = ts_out.columns[0];
  const timestamp event_at{static_cast<std::int64_t>(
      (s.incast_flows > 0 ? s.incast_at_us : s.long_start_gap_us) * 1000)};
  std::vector<double> after;
  std::size_t peak_i = 0;
  for (std::size_t i = 0; i < q.size(); ++i) {
    if (q[i] > q[peak_i]) peak_i = i;
    if (ts_out.t[i] >= event_at) after.push_back(q[i]);
  }
  r.peak_queue = static_cast<double>(net.port_stats_toward(q_node, q_peer).max_queue.count());
  r.p99_queue = percentile(after, 99);
  if (!q.empty()) {
    for (std::size_t i = peak_i; i < q.size(); ++i) {
      if (q[i] <= 0.1 * q[peak_i]) {
        r.drain_us =
            static_cast<double>((ts_out.t[i] - std::min(event_at, ts_out.t[peak_i])).count()) /
            1000.0;
        break;
      }
    }
  }
  // Goodput over the last quarter of the run, and fairness over the fairness window (the later
  // half of the last stretch with the most long flows running together, within the last
  // quarter's length), from the sampled columns.
  const std::size_t rows = ts_out.t.size();
  const std::size_t from = rows - rows / 4;
  if (!long_ids.empty()) {
    r.tail_goodput_gbps = 0;
    for (std::size_t f = 0; f < long_ids.size(); ++f) {
      const auto& g = ts_out.columns[2 + 3 * f + 2];
      double m = 0;
      for (std::size_t i = from; i < rows; ++i) m += g[i] / static_cast<double>(rows - from);
      r.tail_goodput_gbps += m;
    }
    const auto [w_from, w_to] = fairness_window(long_spans, end);
    r.jain_from_us = static_cast<double>(w_from.count()) / 1000.0;
    r.jain_to_us = static_cast<double>(w_to.count()) / 1000.0;
    std::vector<double> shares;
    for (std::size_t f = 0; f < long_ids.size(); ++f) {
      const auto& g = ts_out.columns[2 + 3 * f + 2];
      double m = 0;
      std::size_t k = 0;
      for (std::size_t i = 0; i < rows; ++i) {
        // A sample covers the interval before it.
        if (ts_out.t[i] <= w_from || ts_out.t[i] > w_to) continue;
        m += g[i];
        ++k;
      }
      if (k > 0 && m > 0) shares.push_back(m / static_cast<double>(k));
    }
    r.jain_flows = shares.size();
    if (shares.size() >= 2) r.jain = jain_index(shares);
  }
  double sum = 0;
  std::vector<double> slowdowns, short_sd, long_sd;
  r.finite_flows = incast_ids.size();
  for (const auto id : incast_ids) {
    const auto& st = net.stats(id);
    if (!st.completed()) continue;
    const double sd = slowdown(st, edge.rate, base_rtt);
    sum += sd;
    r.max_slowdown = slowdowns.empty() ? sd : std::max(r.max_slowdown, sd);
    slowdowns.push_back(sd);
    const double fin = static_cast<double>(st.finish.count()) / 1000.0;
    r.last_finish_us = std::max(r.last_finish_us, fin);
    r.first_finish_us = r.first_finish_us < 0 ? fin : std::min(r.first_finish_us, fin);
    if (st.size < bytes{10'000}) short_sd.push_back(sd);
    if (st.size > bytes{1'000'000}) long_sd.push_back(sd);
  }
  r.short_flows = short_sd.size();
  r.long_flows = long_sd.size();
  r.p99_slowdown_short = percentile(short_sd, 99);
  r.p99_slowdown_long = percentile(long_sd, 99);
  r.completed = slowdowns.size();
  if (!slowdowns.empty()) {
    r.mean_slowdown = sum / static_cast<double>(slowdowns.size());
    r.p99_slowdown = percentile(slowdowns, 99);
  }
  const auto& bottleneck = net.port_stats_toward(q_node, q_peer);
  r.utilisation = static_cast<double>(bottleneck.tx_bytes) * 8 /
                  (static_cast<double>(q_rate.count()) * s.duration_us * 1e-6);
  r.bottleneck_packets = bottleneck.tx_packets;
  for (const auto& [node, peer, ps, buffer] : net.ports()) {
    r.ecn_marks += ps.ecn_marks;
    r.srcs += ps.srcs;
    r.sacks += ps.sacks;
    r.pauses += ps.pauses;
  }
  r.src_gbps = static_cast<double>(r.srcs) * static_cast<double>(cfg.control_size.count()) * 8 /
               (s.duration_us * 1e-6) / 1e9;
  r.bottleneck_srcs = bottleneck.srcs;
  r.bottleneck_src_gbps = static_cast<double>(bottleneck.srcs) *
                          static_cast<double>(cfg.control_size.count()) * 8 /
                          (s.duration_us * 1e-6) / 1e9;
  r.bottleneck_rate_gbps = q_rate.gbps();
  for (flow_id f = 0; f < net.flow_count(); ++f) {
    const flow_stats& st = net.stats(f);
    r.cnps += st.cnps;
    if (st.cnps > 0) r.flow_cnps.push_back({f, st.size.count(), st.cnps});
  }
  r.drops = net.drops();
  for (flow_id f = 0; f < net.flow_count(); ++f) r.timeouts += net.stats(f).timeouts;
  r.hops = net.packet_hops();
  r.events = net.events();
  r.wall_seconds = wall_s;
  return r;
}

/// @brief The per-flow CNP counts of a run as CSV: a header `flow,size_bytes,cnps`, then one row
/// per flow that received CNPs, by flow number (netcc-sim writes it as
/// `<name>_<controller>_cnps.csv` when the run had CNPs).
/// @code
/// netcc::testbench::run_summary r;
/// r.flow_cnps.push_back({3, 20000, 2});
/// auto csv = netcc::testbench::format_flow_cnps_csv(r);   // "flow,size_bytes,cnps\n3,20000,2\n"
/// @endcode
[[nodiscard]] inline std::string format_flow_cnps_csv(const run_summary& r) {
  std::string out = "flow,size_bytes,cnps\n";
  for (const auto& f : r.flow_cnps)
    out += std::to_string(f.flow) + "," + std::to_string(f.size_bytes) + "," +
           std::to_string(f.cnps) + "\n";
  return out;
}

}  // namespace netcc::testbench
