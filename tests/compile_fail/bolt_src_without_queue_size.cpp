// expect: (required expression .*queue_size\(e\).* is invalid|queue_size\(e\).* would be invalid)
// SPDX-License-Identifier: MIT
// Bolt's SRC handler reads the reported queue: an SRC without queue_size(e) is rejected naming it.
#ifdef NETCC_COMPILE_FAIL
#define CF_DROP_QUEUE_SIZE
#endif
#include "foreign_ack.hpp"

#include <netcc/control/bolt_sender.hpp>

void f() {
  netcc::bolt_sender cc;
  cc.on_src(cf::src{});
}
