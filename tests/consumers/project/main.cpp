// SPDX-License-Identifier: MIT
// Downstream program: includes the umbrella header and uses a little of the core.
#include <netcc/netcc.hpp>
#include <netcc/testbench/scenario.hpp>

#include <cstdio>
#include <filesystem>

int main() {
  using namespace netcc::literals;
  const netcc::bytes bdp = 100_Gbps * 8_us;
  if (bdp != 100'000_B) return 1;
#ifdef NETCC_DATA_DIR
  // The package says where its data is: the source tree, or the installed share/netcc.
  const auto web = std::filesystem::path(netcc::testbench::scenario{}.data_dir) / "websearch.cdf";
  if (!std::filesystem::is_regular_file(web)) {
    std::printf("netcc consumer: no %s\n", web.c_str());
    return 1;
  }
#endif
  std::printf("netcc consumer ok (netcc %s, BDP %lld B)\n", netcc::version_string,
              static_cast<long long>(bdp.count()));
  return 0;
}
