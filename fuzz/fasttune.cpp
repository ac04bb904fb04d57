// SPDX-License-Identifier: MIT
// Fuzz harness: the FastTune sender (netcc/control/fasttune.hpp, Algorithm 2), double and q32
// over netcc's 64-bit INT stack and q32 over the HPCC wire format, fed the stream of
// int_window_fuzz.hpp with host and switch ACKs over full paths and prefixes (timestamps
// jumping to 2^63 - 1, queues and rates over their whole type, parameters up to T = 2^63 - 1
// ns). Invariants: those of int_window_fuzz.hpp, and SACKUpdate never turns true again once a
// switch ACK consumed it.
#include <netcc/control/fasttune.hpp>

#include <type_traits>

#include "int_window_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using wire = netcc::hpcc_int_format;
  using q64 = netcc::basic_fasttune<netcc::arith::q32>;
  bool consumed_d = false, consumed_q64 = false, consumed_q = false;
  netcc::fuzz::run_int_window<netcc::fasttune, q64,
                              netcc::basic_fasttune<netcc::arith::q32, wire::stack>>(
      data, size, [&](const auto& cc) {
        using cc_t = std::remove_cvref_t<decltype(cc)>;
        bool& consumed = std::is_same_v<cc_t, netcc::fasttune>
                             ? consumed_d
                             : (std::is_same_v<cc_t, q64> ? consumed_q64 : consumed_q);
        if (consumed) NETCC_FUZZ_CHECK(!cc.sack_update());
        if (!cc.sack_update()) consumed = true;
      });
  return 0;
}
