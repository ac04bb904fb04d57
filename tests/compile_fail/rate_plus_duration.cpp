// expect: (no match for .*operator\+|invalid operands to binary expression)
// SPDX-License-Identifier: MIT
// Adding a duration to a rate must not compile.
#include <netcc/core/units.hpp>

auto f() {
  using namespace netcc::literals;
#ifdef NETCC_COMPILE_FAIL
  return 100_Gbps + 5_us;
#else
  return 100_Gbps + 1500_B / 5_us;
#endif
}
