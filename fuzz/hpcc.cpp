// SPDX-License-Identifier: MIT
// Fuzz harness: HPCC (netcc/control/hpcc.hpp, SIGCOMM'19 Algorithm 1), double and q32 over
// netcc's 64-bit INT stack and q32 over the HPCC wire format, fed the stream of
// int_window_fuzz.hpp (wrapped counters, zero and negative dt, hop-count and rate changes,
// duplicates, reordering, timestamps jumping to 2^63 - 1, queues and rates over their whole
// type, parameters up to T = 2^63 - 1 ns).
// Invariants: those of int_window_fuzz.hpp, and incStage within [0, maxStage].
#include <netcc/control/hpcc.hpp>

#include "int_window_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using wire = netcc::hpcc_int_format;
  netcc::fuzz::run_int_window<netcc::hpcc, netcc::basic_hpcc<netcc::arith::q32>,
                              netcc::basic_hpcc<netcc::arith::q32, wire::stack>>(
      data, size, [](const auto& cc) {
        NETCC_FUZZ_CHECK(cc.inc_stage() >= 0 && cc.inc_stage() <= cc.params().max_stage);
      });
  return 0;
}
