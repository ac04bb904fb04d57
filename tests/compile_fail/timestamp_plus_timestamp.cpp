// expect: (no match for .*operator\+|invalid operands to binary expression)
// SPDX-License-Identifier: MIT
// Two points in time do not add: a timestamp is not an interval. Their difference is one.
#include <netcc/core/units.hpp>

auto f(netcc::timestamp sent, netcc::timestamp acked) {
#ifdef NETCC_COMPILE_FAIL
  return sent + acked;
#else
  return sent + (acked - sent);
#endif
}
