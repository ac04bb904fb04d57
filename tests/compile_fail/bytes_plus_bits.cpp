// expect: (no match for .*operator\+|invalid operands to binary expression)
// SPDX-License-Identifier: MIT
// Adding bits to bytes must not compile: the units differ by a factor the type must carry.
#include <netcc/core/units.hpp>

auto f() {
  netcc::bytes a{1};
  netcc::bits b{8};
#ifdef NETCC_COMPILE_FAIL
  return a + b;
#else
  return a + netcc::to_bytes_floor(b);
#endif
}
