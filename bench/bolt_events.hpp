// SPDX-License-Identifier: MIT
// Shared by the Bolt sender benchmarks (bench/bolt_sender.cpp, bench/flows_at_scale.cpp): a ring
// of SRCs (queues of 0 to 20 packets, rtt_src of 2 to 6 us) and a ring of ACKs advancing by one
// packet, INC on half of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <netcc/core/feedback.hpp>
#include <netcc/core/units.hpp>

namespace netcc_bench {

/// @brief Events in each ring.
inline constexpr std::size_t bolt_ring = 4096;

/// @brief The ring of SRCs (deterministic).
[[gnu::noinline]] inline std::vector<netcc::src_event> srcs() {
  std::mt19937_64 rng(7);
  std::vector<netcc::src_event> v(bolt_ring);
  std::int64_t t = 1'000'000;
  for (auto& e : v) {
    t += 100 + static_cast<std::int64_t>(rng() % 400);
    e = {.now = netcc::timestamp{t},
         .queue = netcc::bytes{static_cast<std::int64_t>(rng() % 20) * 1500},
         .link_rate = netcc::bit_rate{100'000'000'000},
         .tx_timestamp =
             static_cast<std::uint32_t>(t - 2000 - static_cast<std::int64_t>(rng() % 4000))};
  }
  return v;
}

/// @brief The ring of ACKs (deterministic).
[[gnu::noinline]] inline std::vector<netcc::ack_event> acks() {
  std::mt19937_64 rng(9);
  std::vector<netcc::ack_event> v(bolt_ring);
  std::int64_t t = 1'000'000;
  netcc::sequence s = 0;
  for (auto& e : v) {
    t += 120;
    s += 1500;
    e = {.now = netcc::timestamp{t},
         .ack_seq = s,
         .snd_nxt = s + 96'000,
         .acked = netcc::bytes{1500},
         .rtt = netcc::duration{8000 + static_cast<std::int64_t>(rng() % 2000)},
         .inc = (rng() & 1) != 0};
  }
  return v;
}

}  // namespace netcc_bench
