// SPDX-License-Identifier: MIT
// Downstream program: includes the umbrella header and uses a little of the core.
#include <netcc/netcc.hpp>

#include <cstdio>

int main() {
  using namespace netcc::literals;
  const netcc::bytes bdp = 100_Gbps * 8_us;
  if (bdp != 100'000_B) return 1;
  std::printf("netcc consumer ok (netcc %s, BDP %lld B)\n", netcc::version_string,
              static_cast<long long>(bdp.count()));
  return 0;
}
