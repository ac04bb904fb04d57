// expect: (conversion from .*int.* to non-scalar type|no viable conversion)
// SPDX-License-Identifier: MIT
// A bare integer is not a byte count: the conversion is explicit.
#include <netcc/core/units.hpp>

netcc::bytes f() {
#ifdef NETCC_COMPILE_FAIL
  netcc::bytes b = 1500;
#else
  netcc::bytes b{1500};
#endif
  return b;
}
