// expect: (required expression .*hop\(e, i\).* is invalid|hop\(e, i\).* would be invalid)
// SPDX-License-Identifier: MIT
// HPCC over INT: an ACK whose traits lack hop(e, i) is rejected naming hop.
#ifdef NETCC_COMPILE_FAIL
#define CF_DROP_HOP
#endif
#include "foreign_ack.hpp"

#include <netcc/control/hpcc.hpp>

void f() {
  netcc::hpcc cc;
  cc.on_ack(cf::ack{});
}
