// SPDX-License-Identifier: MIT
/// @file
/// @brief Topology builders: dumbbell, star (N:1 incast), chain of bottlenecks, leaf-spine,
/// three-tier fat-tree.
///
/// Each builder adds hosts, switches and links to a netcc::testbench::network and returns the
/// node ids a scenario needs. Link rates and delays are per link class (edge, core).
///
/// Sources: the k-ary fat-tree of M. Al-Fares, A. Loukissas, A. Vahdat, "A Scalable, Commodity Data
/// Center Network Architecture", SIGCOMM 2008, with the tiers, rates and delays of PowerTCP
/// (NSDI'22) §4.1 and HPCC (SIGCOMM'19) §5; the dumbbells and stars of the papers'
/// micro-benchmarks.
///
/// @code
/// netcc::testbench::network net;
/// auto d = netcc::testbench::make_dumbbell(net, 2, {}, {});
/// // flows d.senders[i] -> d.receivers[i] share the d.left -> d.right link
/// @endcode
#pragma once

#include <cstddef>
#include <vector>

#include "netcc/testbench/network.hpp"

namespace netcc::testbench {

/// @brief Node ids of a dumbbell.
struct dumbbell {
  /// @brief Hosts on the left.
  std::vector<node_id> senders;
  /// @brief Hosts on the right.
  std::vector<node_id> receivers;
  /// @brief Left switch (its port toward `right` is the bottleneck).
  node_id left = 0;
  /// @brief Right switch.
  node_id right = 0;
};

/// @brief `pairs` senders - switch - bottleneck - switch - `pairs` receivers.
inline dumbbell make_dumbbell(network& net, std::size_t pairs, link_spec edge, link_spec core,
                              switch_config sw = {}) {
  dumbbell d;
  d.left = net.add_switch(sw);
  d.right = net.add_switch(sw);
  net.connect(d.left, d.right, core);
  for (std::size_t i = 0; i < pairs; ++i) {
    d.senders.push_back(net.add_host());
    net.connect(d.senders.back(), d.left, edge);
    d.receivers.push_back(net.add_host());
    net.connect(d.right, d.receivers.back(), edge);
  }
  return d;
}

/// @brief Node ids of a star.
struct star {
  /// @brief The N senders.
  std::vector<node_id> senders;
  /// @brief The receiver.
  node_id receiver = 0;
  /// @brief The switch (its port toward `receiver` is the bottleneck).
  node_id sw = 0;
};

/// @brief N senders and one receiver on one switch: the N:1 incast topology.
inline star make_star(network& net, std::size_t n, link_spec edge, link_spec to_receiver,
                      switch_config sw = {}) {
  star s;
  s.sw = net.add_switch(sw);
  for (std::size_t i = 0; i < n; ++i) {
    s.senders.push_back(net.add_host());
    net.connect(s.senders.back(), s.sw, edge);
  }
  s.receiver = net.add_host();
  net.connect(s.sw, s.receiver, to_receiver);
  return s;
}

/// @brief Node ids of a chain.
struct chain {
  /// @brief Switches in order; link i joins switches[i] and switches[i+1].
  std::vector<node_id> switches;
  /// @brief One host per switch.
  std::vector<node_id> hosts;
};

/// @brief `n` switches in a line, one host on each: a flow from hosts[i] to hosts[j] crosses
/// j - i switch-to-switch links (several bottlenecks when their rates differ).
inline chain make_chain(network& net, std::size_t n, link_spec edge,
                        const std::vector<link_spec>& between, switch_config sw = {}) {
  chain c;
  for (std::size_t i = 0; i < n; ++i) {
    c.switches.push_back(net.add_switch(sw));
    c.hosts.push_back(net.add_host());
    net.connect(c.hosts.back(), c.switches.back(), edge);
    if (i > 0) net.connect(c.switches[i - 1], c.switches[i], between[(i - 1) % between.size()]);
  }
  return c;
}

/// @brief Node ids of a two-tier leaf-spine.
struct leaf_spine {
  /// @brief Leaf (top-of-rack) switches.
  std::vector<node_id> leaves;
  /// @brief Spine switches.
  std::vector<node_id> spines;
  /// @brief hosts[l] are the hosts under leaf l.
  std::vector<std::vector<node_id>> hosts;
};

/// @brief `leaves` leaves with `hosts_per_leaf` hosts each, every leaf linked to each of
/// `spines` spines; inter-leaf flows spread over spines by ECMP.
inline leaf_spine make_leaf_spine(network& net, std::size_t leaves, std::size_t spines,
                                  std::size_t hosts_per_leaf, link_spec edge, link_spec core,
                                  switch_config sw = {}) {
  leaf_spine t;
  for (std::size_t s = 0; s < spines; ++s) t.spines.push_back(net.add_switch(sw));
  for (std::size_t l = 0; l < leaves; ++l) {
    t.leaves.push_back(net.add_switch(sw));
    for (const node_id s : t.spines) net.connect(t.leaves.back(), s, core);
    t.hosts.emplace_back();
    for (std::size_t h = 0; h < hosts_per_leaf; ++h) {
      t.hosts.back().push_back(net.add_host());
      net.connect(t.hosts.back().back(), t.leaves.back(), edge);
    }
  }
  return t;
}

/// @brief Shape of a three-tier fat-tree (Clos): pods of ToR and aggregation switches under a
/// core. `k_ary(k)` gives Al-Fares et al.'s k-ary fat-tree (SIGCOMM'08): k pods of k/2 ToRs and
/// k/2 aggregation switches, k/2 hosts per ToR, (k/2)^2 cores, k^3/4 hosts. PowerTCP NSDI'22 §4.1
/// uses 4 pods of 2 ToRs and 2 aggregation switches, 32 hosts per ToR (256 hosts) and 2 cores.
/// @code
/// auto shape = netcc::testbench::fat_tree_shape::k_ary(16);   // 1024 hosts
/// @endcode
struct fat_tree_shape {
  /// @brief Pods.
  std::size_t pods = 4;
  /// @brief ToR (edge) switches per pod.
  std::size_t tors_per_pod = 2;
  /// @brief Aggregation switches per pod (every ToR of the pod links to each).
  std::size_t aggs_per_pod = 2;
  /// @brief Hosts under each ToR.
  std::size_t hosts_per_tor = 2;
  /// @brief Core switches. Aggregation switch j of every pod links to the cores of group j
  /// (cores / aggs_per_pod consecutive cores each); with fewer cores than aggregation switches,
  /// to core j mod cores.
  std::size_t cores = 4;
  /// @brief The k-ary fat-tree (k even, at least 2).
  [[nodiscard]] static constexpr fat_tree_shape k_ary(std::size_t k) noexcept {
    return {.pods = k,
            .tors_per_pod = k / 2,
            .aggs_per_pod = k / 2,
            .hosts_per_tor = k / 2,
            .cores = (k / 2) * (k / 2)};
  }
  /// @brief Hosts in all.
  [[nodiscard]] constexpr std::size_t hosts() const noexcept {
    return pods * tors_per_pod * hosts_per_tor;
  }
  /// @brief Switches in all.
  [[nodiscard]] constexpr std::size_t switches() const noexcept {
    return pods * (tors_per_pod + aggs_per_pod) + cores;
  }
  /// @brief Links in all (host, ToR-aggregation and aggregation-core links).
  [[nodiscard]] constexpr std::size_t links() const noexcept {
    return hosts() + pods * tors_per_pod * aggs_per_pod + pods * aggs_per_pod * cores_per_agg();
  }
  /// @brief Core links of each aggregation switch.
  [[nodiscard]] constexpr std::size_t cores_per_agg() const noexcept {
    if (aggs_per_pod == 0 || cores == 0) return 0;
    return cores >= aggs_per_pod ? cores / aggs_per_pod : 1;
  }
};

/// @brief Node ids of a fat-tree.
struct fat_tree {
  /// @brief tors[p][t]: ToR t of pod p.
  std::vector<std::vector<node_id>> tors;
  /// @brief aggs[p][a]: aggregation switch a of pod p.
  std::vector<std::vector<node_id>> aggs;
  /// @brief Core switches.
  std::vector<node_id> cores;
  /// @brief Every host, pod by pod and ToR by ToR (hosts_per_tor consecutive hosts per ToR).
  std::vector<node_id> hosts;
};

/// @brief A three-tier fat-tree with a link spec per tier: `edge` host-ToR, `tor_agg` ToR to
/// aggregation, `agg_core` aggregation to core (PowerTCP NSDI'22 §4.1: 25 Gbps hosts, 100 Gbps
/// fabric, 1 us links and 5 us on the core links). Flows between pods spread over aggregation
/// and core switches by ECMP.
/// @code
/// netcc::testbench::network net;
/// auto t = netcc::testbench::make_fat_tree(net, netcc::testbench::fat_tree_shape::k_ary(4),
///                                          {}, {}, {});   // 16 hosts, 20 switches
/// @endcode
inline fat_tree make_fat_tree(network& net, const fat_tree_shape& shape, link_spec edge,
                              link_spec tor_agg, link_spec agg_core, switch_config sw = {}) {
  fat_tree t;
  for (std::size_t c = 0; c < shape.cores; ++c) t.cores.push_back(net.add_switch(sw));
  const std::size_t per_agg = shape.cores_per_agg();
  t.hosts.reserve(shape.hosts());
  for (std::size_t p = 0; p < shape.pods; ++p) {
    t.aggs.emplace_back();
    t.tors.emplace_back();
    for (std::size_t a = 0; a < shape.aggs_per_pod; ++a) {
      t.aggs[p].push_back(net.add_switch(sw));
      for (std::size_t c = 0; c < per_agg; ++c) {
        const std::size_t core =
            shape.cores >= shape.aggs_per_pod ? a * per_agg + c : a % shape.cores;
        net.connect(t.aggs[p][a], t.cores[core], agg_core);
      }
    }
    for (std::size_t r = 0; r < shape.tors_per_pod; ++r) {
      const node_id tor = net.add_switch(sw);
      t.tors[p].push_back(tor);
      for (const node_id a : t.aggs[p]) net.connect(tor, a, tor_agg);
      for (std::size_t h = 0; h < shape.hosts_per_tor; ++h) {
        t.hosts.push_back(net.add_host());
        net.connect(t.hosts.back(), tor, edge);
      }
    }
  }
  return t;
}

}  // namespace netcc::testbench
