// SPDX-License-Identifier: MIT
// Fuzz harness: netcc::fasttune_compact (netcc/control/fasttune.hpp, the FastTune sender in q32
// with a 64-B per-flow state at wire width) through its config and an external flow_state,
// side by side with the same compact form as an object and with
// basic_fasttune<arith::q32, hpcc_int_format::stack>, fed the wire copy of the
// int_ack_stream.hpp stream (host and switch ACKs over full paths and prefixes, wrapping 24-bit
// timestamps and 20-bit counters, duplicates, reordering, clock jumps) with its sequence
// numbers moved across 2^31, 2^32 and 2^64 (run_int_window_compact), over parameters decoded by
// read_int_window_params (invalid ones too).
// Invariants: those of run_int_window_compact (window, rate and U within the parameters'
// bounds in any stream; config + state equal to the object; within the documented sequence
// range the q32 object's rule, SACKUpdate, W, W^c and U bit for bit), and SACKUpdate never
// turns true again once a switch ACK consumed it.
#include <netcc/control/fasttune.hpp>

#include "int_window_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  bool consumed = false;
  netcc::fuzz::run_int_window_compact<netcc::fasttune_compact>(
      data, size,
      [](netcc::fasttune_branch b) { return b == netcc::fasttune_branch::reference_ack; },
      [](netcc::fasttune_params&) {},
      [&](const auto& cfg, const auto& st) {
        if (consumed) NETCC_FUZZ_CHECK(!cfg.sack_update(st));
        if (!cfg.sack_update(st)) consumed = true;
      });
  return 0;
}
