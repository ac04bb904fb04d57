// SPDX-License-Identifier: MIT
// Fuzz harness: netcc::hpcc_compact (netcc/control/hpcc.hpp, HPCC in q32 with a 64-B per-flow
// state at wire width) through its config and an external flow_state, side by side with the
// same compact form as an object and with basic_hpcc<arith::q32, hpcc_int_format::stack>, fed
// the wire copy of the int_ack_stream.hpp stream (wrapping 24-bit timestamps and 20-bit
// counters, hop-count and path changes, duplicates, reordering, clock jumps) with its sequence
// numbers moved across 2^31, 2^32 and 2^64 (run_int_window_compact), over parameters decoded
// by read_int_window_params (invalid ones too) and max_stage over its valid range and beyond.
// Invariants: those of run_int_window_compact (window, rate and U within the parameters'
// bounds in any stream; config + state equal to the object; within the documented sequence
// range the q32 object's rule, incStage, W, W^c and U bit for bit), and incStage within
// [0, maxStage].
#include <netcc/control/hpcc.hpp>

#include "int_window_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte picks max_stage (HPCC's is not decoded by read_int_window_params): the
  // default, small values, the ends of the compact form's 20-bit field and invalid values.
  static constexpr std::int64_t stages[] = {5, 0, 1, 2, 9, 1'000'000, 1'000'001, -1};
  const std::int64_t max_stage = stages[data[0] % 8];
  netcc::fuzz::run_int_window_compact<netcc::hpcc_compact>(
      data + 1, size - 1,
      [](netcc::hpcc_branch b) {
        return b == netcc::hpcc_branch::multiplicative_reference ||
               b == netcc::hpcc_branch::additive_reference;
      },
      [&](netcc::hpcc_params& p) { p.max_stage = max_stage; },
      [](const auto& cfg, const auto& st) {
        NETCC_FUZZ_CHECK(cfg.inc_stage(st) >= 0 && cfg.inc_stage(st) <= cfg.params().max_stage);
      });
  return 0;
}
