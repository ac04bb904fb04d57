// SPDX-License-Identifier: MIT
// Monitors on any port (the monitor_ports key: queue, ECN marks and drops per sample of chosen
// egress ports, named N:P or N>M) and the CNP counts of a run (network-wide and per flow).
#include <netcc/testbench/controllers.hpp>
#include <netcc/testbench/scenario.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace netcc_tests::testbench_monitor_ports {

namespace tb = netcc::testbench;

namespace {

std::size_t column(const tb::series& ts, const std::string& name) {
  const auto it = std::find(ts.names.begin(), ts.names.end(), name);
  EXPECT_NE(it, ts.names.end()) << name;
  return static_cast<std::size_t>(it - ts.names.begin());
}

double sum(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0);
}

// The star incast, short, with the bottleneck port (switch toward receiver) found from the
// topology as the runner builds it.
struct incast_case {
  tb::scenario s = tb::builtin_scenarios().at("incast").second;
  tb::node_id node = 0, peer = 0;
  std::uint32_t port = 0;
  incast_case() {
    s.incast_at_us = 20;
    s.duration_us = 300;
    s.sample_ns = 2'000;
    tb::network net;
    const auto t = tb::build_topology(net, s, {});
    node = t.q_node;
    peer = t.q_peer;
    for (std::uint32_t p = 0; p < net.port_count(node); ++p)
      if (net.peer_of(node, p) == peer) port = p;
  }
};

}  // namespace

// A monitored port named by its index and by its neighbour gives the same columns, and its
// queue column is the bottleneck queue the runner records anyway; the marks column adds up to
// the run's ECN marks (on the star only that port's data is marked).
TEST(MonitorPorts, QueueAndMarksOfAChosenPort) {
  incast_case c;
  const std::string by_index = std::to_string(c.node) + ":" + std::to_string(c.port);
  const std::string by_peer = std::to_string(c.node) + ">" + std::to_string(c.peer);
  ASSERT_EQ(tb::set_key(c.s, "monitor_ports", by_index + "," + by_peer), "");
  ASSERT_EQ(tb::check(c.s), "");
  tb::series ts;
  const auto r = tb::run_scenario(c.s, *tb::find_controller("dctcp"), ts);
  const std::string name = "node" + std::to_string(c.node) + "_port" + std::to_string(c.port);
  const auto q = column(ts, name + "_queue_bytes");
  const auto marks = column(ts, name + "_marks");
  const auto drops = column(ts, name + "_drops");
  EXPECT_EQ(ts.columns[q], ts.columns[0]);  // the runner's queue_bytes: the same port
  EXPECT_GT(*std::max_element(ts.columns[q].begin(), ts.columns[q].end()), 0.0);
  ASSERT_GT(r.ecn_marks, 0u);
  EXPECT_EQ(sum(ts.columns[marks]), static_cast<double>(r.ecn_marks));
  EXPECT_EQ(sum(ts.columns[drops]), static_cast<double>(r.drops));
  // Both references name the same port: its three columns appear twice, equal.
  EXPECT_EQ(std::count(ts.names.begin(), ts.names.end(), name + "_queue_bytes"), 2);
}

// Drops per sample: a small buffer at the bottleneck drops packets of the incast, and the
// column counts every one of them.
TEST(MonitorPorts, DropsPerSample) {
  incast_case c;
  c.s.buffer_bytes = 20'000;
  ASSERT_EQ(
      tb::set_key(c.s, "monitor_ports", std::to_string(c.node) + ">" + std::to_string(c.peer)), "");
  tb::series ts;
  const auto r = tb::run_scenario(c.s, *tb::find_controller("fixed-bdp"), ts);
  const auto drops =
      column(ts, "node" + std::to_string(c.node) + "_port" + std::to_string(c.port) + "_drops");
  ASSERT_GT(r.drops, 0u);
  EXPECT_EQ(sum(ts.columns[drops]), static_cast<double>(r.drops));
}

// Bad references: the syntax at set_key, nodes, ports and neighbours against the topology at
// check(); each message names the key, the value and the rule.
TEST(MonitorPorts, BadReferencesAreRefusedNamingKeyValueAndRule) {
  incast_case c;
  tb::scenario t = c.s;
  EXPECT_EQ(tb::set_key(t, "monitor_ports", "0-1"),
            "monitor_ports = 0-1: '0-1' is not N:P (node N's port P) or N>M (node N toward node "
            "M), whole numbers from 0");
  EXPECT_EQ(tb::set_key(t, "monitor_ports", "0:1,").rfind("monitor_ports = 0:1,: a list ends", 0),
            0u);
  EXPECT_NE(tb::set_key(t, "monitor_ports", "x:1"), "");
  EXPECT_NE(tb::set_key(t, "monitor_ports", "1:-1"), "");
  EXPECT_EQ(t.monitor_ports, "");  // unchanged on error

  tb::network net;
  (void)tb::build_topology(net, c.s, {});
  const auto nodes = net.node_count();
  ASSERT_EQ(tb::set_key(t, "monitor_ports", std::to_string(nodes) + ":0"), "");
  EXPECT_EQ(tb::check(t), "monitor_ports = " + std::to_string(nodes) + ":0: '" +
                              std::to_string(nodes) + ":0': node " + std::to_string(nodes) +
                              " does not exist (the topology has nodes 0 to " +
                              std::to_string(nodes - 1) + ")");
  const auto ports = net.port_count(c.node);
  const std::string bad_port = std::to_string(c.node) + ":" + std::to_string(ports);
  ASSERT_EQ(tb::set_key(t, "monitor_ports", bad_port), "");
  EXPECT_EQ(tb::check(t).rfind("monitor_ports = " + bad_port + ": '" + bad_port + "': port " +
                                   std::to_string(ports) + " does not exist (node " +
                                   std::to_string(c.node) + " has " + std::to_string(ports) +
                                   " ports: 0>",
                               0),
            0u)
      << tb::check(t);
  const std::string self = std::to_string(c.node) + ">" + std::to_string(c.node);
  ASSERT_EQ(tb::set_key(t, "monitor_ports", self), "");
  EXPECT_NE(tb::check(t).find("has no link to node " + std::to_string(c.node)), std::string::npos)
      << tb::check(t);
  // The good list after a bad one passes.
  ASSERT_EQ(tb::set_key(t, "monitor_ports", std::to_string(c.node) + ":0"), "");
  EXPECT_EQ(tb::check(t), "");
}

// CNPs: the network-wide total is the sum of the per-flow counts, each flow listed once, in
// flow order, with the counts the cc_series_flows columns add up to.
TEST(Cnps, TotalAndPerFlowCountsAgree) {
  incast_case c;
  ASSERT_EQ(tb::set_key(c.s, "cc_series_flows", "all"), "");
  tb::series ts;
  const auto r = tb::run_scenario(c.s, *tb::find_controller("dcqcn"), ts);
  ASSERT_GT(r.cnps, 0u);
  ASSERT_FALSE(r.flow_cnps.empty());
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < r.flow_cnps.size(); ++i) {
    const auto& f = r.flow_cnps[i];
    EXPECT_GT(f.cnps, 0u);
    if (i > 0) {
      EXPECT_LT(r.flow_cnps[i - 1].flow, f.flow);
    }
    total += f.cnps;
    EXPECT_EQ(sum(ts.columns[column(ts, "flow" + std::to_string(f.flow) + "_cnps")]),
              static_cast<double>(f.cnps));
  }
  EXPECT_EQ(total, r.cnps);
  // Flows absent from the list got none.
  for (std::size_t k = 0; k < ts.names.size(); ++k) {
    const auto& n = ts.names[k];
    if (n.size() < 5 || n.substr(n.size() - 5) != "_cnps") continue;
    const auto f = static_cast<tb::flow_id>(std::stoul(n.substr(4)));
    const bool listed = std::any_of(r.flow_cnps.begin(), r.flow_cnps.end(),
                                    [&](const auto& e) { return e.flow == f; });
    if (!listed) {
      EXPECT_EQ(sum(ts.columns[k]), 0.0) << n;
    }
  }
  const std::string csv = tb::format_flow_cnps_csv(r);
  EXPECT_EQ(csv.rfind("flow,size_bytes,cnps\n", 0), 0u);
  EXPECT_EQ(static_cast<std::size_t>(std::count(csv.begin(), csv.end(), '\n')),
            r.flow_cnps.size() + 1);
}

// Controllers without CNPs leave the list empty.
TEST(Cnps, NoneWithoutANotificationPoint) {
  incast_case c;
  tb::series ts;
  const auto r = tb::run_scenario(c.s, *tb::find_controller("fixed-bdp"), ts);
  EXPECT_EQ(r.cnps, 0u);
  EXPECT_TRUE(r.flow_cnps.empty());
}

}  // namespace netcc_tests::testbench_monitor_ports
