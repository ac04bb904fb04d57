// SPDX-License-Identifier: MIT
/// @file
/// @brief Topology builders: dumbbell, star (N:1 incast), chain of bottlenecks, leaf-spine.
///
/// Each builder adds hosts, switches and links to a netcc::testbench::network and returns the
/// node ids a scenario needs. Link rates and delays are per link class (edge, core).
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

}  // namespace netcc::testbench
