// expect: (no match for .*operator\+|invalid operands to binary expression)
// SPDX-License-Identifier: MIT
// Adding a rate to a size must not compile.
#include <netcc/core/units.hpp>

auto f() {
  using namespace netcc::literals;
#ifdef NETCC_COMPILE_FAIL
  return 1500_B + 100_Gbps;
#else
  return 1500_B + 100_Gbps * 1_us;
#endif
}
