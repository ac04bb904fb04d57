// SPDX-License-Identifier: MIT
// netcc's own testbench, seen from a C++17 ns-3 test: one run of netcc-sim's built-in `incast`
// with one controller (testbench_side.cpp is the C++20 side).
#ifndef NETCC_NS3_TESTS_TESTBENCH_SIDE_H
#define NETCC_NS3_TESTS_TESTBENCH_SIDE_H

#include <string>

namespace netcc_ns3_test {

struct testbench_incast {
  double peak_queue = 0;  // bytes
  double drain_us = -1;   // from the incast until the queue is under 10% of its peak
  double tail_gbps = 0;   // the long flow's goodput over the last quarter
};

// netcc-sim's `incast` (100 Gbps star, 1 us links, a long flow and ten 500 kB flows at 500 us,
// 3 ms) with controller `cc` ("powertcp", "hpcc", ...).
testbench_incast run_testbench_incast(const std::string& cc);

}  // namespace netcc_ns3_test

#endif  // NETCC_NS3_TESTS_TESTBENCH_SIDE_H
