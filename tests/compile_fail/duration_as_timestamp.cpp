// expect: (conversion from .*duration.* to non-scalar type .*timestamp|no viable conversion from .*duration.* to .*timestamp)
// SPDX-License-Identifier: MIT
// An interval is not a point in time: a duration does not convert to a timestamp implicitly.
#include <netcc/core/units.hpp>

netcc::timestamp f(netcc::duration rtt) {
#ifdef NETCC_COMPILE_FAIL
  netcc::timestamp t = rtt;
#else
  netcc::timestamp t{rtt};
#endif
  return t;
}
