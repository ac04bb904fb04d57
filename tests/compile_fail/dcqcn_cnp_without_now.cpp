// expect: (required expression .*now\(e\).* is invalid|now\(e\).* would be invalid)
// SPDX-License-Identifier: MIT
// DCQCN's CNP handler needs the CNP's arrival time: a CNP without now(e) is rejected naming it.
#ifdef NETCC_COMPILE_FAIL
#define CF_DROP_CNP_NOW
#endif
#include "foreign_ack.hpp"

#include <netcc/control/dcqcn.hpp>

void f() {
  netcc::dcqcn cc;
  cc.on_cnp(cf::cnp{});
}
