// expect: (required expression .*rtt\(e\).* is invalid|rtt\(e\).* would be invalid)
// SPDX-License-Identifier: MIT
// Swift reads RTT samples: an ACK without rtt(e) is rejected naming it.
#ifdef NETCC_COMPILE_FAIL
#define CF_DROP_RTT
#endif
#include "foreign_ack.hpp"

#include <netcc/control/swift.hpp>

void f() {
  netcc::swift cc;
  cc.on_ack(cf::ack{});
}
