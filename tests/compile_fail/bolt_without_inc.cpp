// expect: (required expression .*inc\(e\).* is invalid|inc\(e\).* would be invalid)
// SPDX-License-Identifier: MIT
// Bolt reads the reflected INC flag: an ACK without inc(e) is rejected naming it.
#ifdef NETCC_COMPILE_FAIL
#define CF_DROP_INC
#endif
#include "foreign_ack.hpp"

#include <netcc/control/bolt_sender.hpp>

void f() {
  netcc::bolt_sender cc;
  cc.on_ack(cf::ack{});
}
