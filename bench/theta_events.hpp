// SPDX-License-Identifier: MIT
// Shared by the theta-PowerTCP benchmarks (bench/powertcp.cpp, bench/flows_at_scale_int.cpp): a
// ring of RTT-feedback ACKs 0.5-1.5 us apart, RTTs of 10-15 us, 4 KB acknowledged each, and the
// parameters they run with.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include <netcc/control/powertcp.hpp>
#include <netcc/core/feedback.hpp>

#include "int_acks.hpp"

namespace netcc_bench {

/// @brief The ring of `ring` theta-PowerTCP ACKs (deterministic).
inline std::vector<netcc::rtt_event> theta_events() {
  std::mt19937_64 rng(9);
  std::vector<netcc::rtt_event> v(ring);
  std::int64_t t = 0;
  netcc::sequence s = 0;
  for (auto& e : v) {
    t += 500 + static_cast<std::int64_t>(rng() % 1000);
    s += 4096;
    e = {.now = netcc::timestamp{t},
         .rtt = netcc::duration{10'000 + static_cast<std::int64_t>(rng() % 5000)},
         .acked = netcc::bytes{4096},
         .ack_seq = s,
         .snd_nxt = s + 120'000};
  }
  return v;
}

/// @brief theta-PowerTCP's parameters in these benchmarks: 100 Gbps, 10 us base RTT, 8 flows.
inline const netcc::theta_powertcp_params theta_params{
    .host_rate = netcc::bit_rate{100'000'000'000},
    .base_rtt = netcc::duration{10'000},
    .expected_flows = 8};

}  // namespace netcc_bench
