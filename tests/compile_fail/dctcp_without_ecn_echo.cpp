// expect: (required expression .*ecn_echo\(e\).* is invalid|ecn_echo\(e\).* would be invalid)
// SPDX-License-Identifier: MIT
// DCTCP reads the ECN echo: an ACK without ecn_echo(e) is rejected naming it.
#ifdef NETCC_COMPILE_FAIL
#define CF_DROP_ECN
#endif
#include "foreign_ack.hpp"

#include <netcc/control/dctcp.hpp>

void f() {
  netcc::dctcp cc;
  cc.on_ack(cf::ack{});
}
