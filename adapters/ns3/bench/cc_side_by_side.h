// SPDX-License-Identifier: MIT
// The synthetic ACK stream shared by both halves of netcc_ns3_cc_bench (the ns-3 half is C++17,
// netcc's C++20, so this header uses neither's types): cumulative ACKs of one 1448-B segment
// each, 20 segments in flight, RTT samples from 100 to 140 us (so Vegas's per-round diff moves
// between 0 and ~6 packets and it increases, holds and decreases), and one ACK in four echoing
// CE (so DCTCP counts marked bytes, updates alpha once per window and cuts at most once per
// window). Both halves deliver the same entries in the same order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace netcc_ns3_bench {

/// @brief Segment size of the stream (ns-3's default TCP segment size is 536 B; the bench sets
/// 1448 B on both sides).
inline constexpr std::uint32_t segment = 1448;
/// @brief Segments in flight after each ACK (snd_nxt - ack_seq).
inline constexpr std::uint32_t in_flight = 20;
/// @brief Entries in the ring; a power of two.
inline constexpr std::size_t ring = 1024;

/// @brief One ACK of the stream: the RTT sample and the ECN echo. The cumulative ACK is the
/// entry's running index times the segment (computed by each harness as it goes).
struct synthetic_ack {
  std::int64_t rtt_ns;
  bool ece;
};

/// @brief The stream (deterministic: the same on both sides).
inline std::vector<synthetic_ack> make_stream() {
  std::mt19937_64 rng(3);
  std::vector<synthetic_ack> v(ring);
  for (auto& a : v) a = {100'000 + static_cast<std::int64_t>(rng() % 40'000), rng() % 4 == 0};
  return v;
}

}  // namespace netcc_ns3_bench
