// expect: (required expression .*rtt\(e\).* is invalid|rtt\(e\).* would be invalid)
// SPDX-License-Identifier: MIT
// Vegas reads RTT samples: an ACK without rtt(e) is rejected naming it.
#ifdef NETCC_COMPILE_FAIL
#define CF_DROP_RTT
#endif
#include "foreign_ack.hpp"

#include <netcc/control/vegas.hpp>

void f() {
  netcc::vegas cc;
  cc.on_ack(cf::ack{});
}
