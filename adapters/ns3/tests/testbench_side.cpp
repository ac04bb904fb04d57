// SPDX-License-Identifier: MIT
// The C++20 side of testbench_side.h: netcc's testbench runs netcc-sim's `incast`.
#include "testbench_side.h"

#include <stdexcept>

#include "netcc/testbench/controllers.hpp"
#include "netcc/testbench/metrics.hpp"
#include "netcc/testbench/scenario.hpp"

namespace netcc_ns3_test {

testbench_incast run_testbench_incast(const std::string& cc) {
  const auto scenarios = netcc::testbench::builtin_scenarios();
  const netcc::testbench::scenario s = scenarios.at("incast").second;
  const auto entry = netcc::testbench::find_controller(cc);
  if (!entry) throw std::invalid_argument("no controller " + cc);
  netcc::testbench::series ts;
  const auto r = netcc::testbench::run_scenario(s, *entry, ts);
  return testbench_incast{r.peak_queue, r.drain_us, r.tail_goodput_gbps};
}

}  // namespace netcc_ns3_test
