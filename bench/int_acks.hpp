// SPDX-License-Identifier: MIT
// Shared by the INT controller benchmarks: a ring of well-formed INT ACKs (every ACK advances
// every hop's timestamp and tx counter, so each yields a sample), wrapped to the stack's widths,
// of `ring` ACKs or, for the entries that name it, `long_ring` (a power of two either way).
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <netcc/core/feedback.hpp>
#include <netcc/core/wrap.hpp>

namespace netcc_bench {

inline constexpr std::size_t ring = 128;  // ~40 KB of ACKs at 8 hops: stays in L1 and L2
// A ring whose hop choices a branch predictor cannot learn by heart (~300 KB at 8 hops: L2).
// Over the 128-ACK ring a predictor replays the ring's sequence of most congested hops; over
// this one it meets them as a real stream would, at random.
inline constexpr std::size_t long_ring = 1024;

template <class Stack>
std::vector<netcc::basic_ack_event<Stack>> int_acks(std::size_t hops, std::size_t n = ring) {
  std::mt19937_64 rng(7);
  std::vector<netcc::basic_ack_event<Stack>> v(n);
  std::uint64_t ts = 0, tx = 0;
  netcc::sequence s = 0;
  for (auto& a : v) {
    ts += 500 + rng() % 1000;
    tx += 4000 + rng() % 8000;
    s += 4096;
    a.now = netcc::timestamp{static_cast<std::int64_t>(ts)};
    a.ack_seq = s;
    a.snd_nxt = s + 120'000;
    for (std::size_t h = 0; h < hops; ++h)
      a.hops.push({.ts = (ts + h) & netcc::modular<Stack::timestamp_clock::width>::mask,
                   .qlen = netcc::bytes{static_cast<std::int64_t>(rng() % 80'000)},
                   .tx_bytes = (tx / Stack::tx_counter::unit) &
                               netcc::modular<Stack::tx_counter::width>::mask,
                   .link_rate = netcc::bit_rate{100'000'000'000}});
  }
  return v;
}

}  // namespace netcc_bench
