// expect: wrapping_clock<24[^>]*>.*wrapping_clock<64
// SPDX-License-Identifier: MIT
// PowerTCP's default INT stack has 64-bit timestamps: a 24-bit clock is named as the mismatch.
#ifdef NETCC_COMPILE_FAIL
#define CF_CLOCK24
#endif
#include "foreign_ack.hpp"

#include <netcc/control/powertcp.hpp>

void f() {
  netcc::powertcp cc;
  cc.on_ack(cf::ack{});
}
