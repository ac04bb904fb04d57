// SPDX-License-Identifier: MIT
// Shared by the flows-at-scale benchmarks: the order in which events reach N flows, and the
// cache-line-aligned arrays their states live in.
//
// Events reach the flows in random order (each event's flow drawn uniformly), and every flow
// sees its own stream: the j-th event a flow receives is built from j, its own event index,
// exactly as the j-th event of the one-flow benchmark. So each flow takes the same branches and
// does the same arithmetic on its j-th event whatever N is, and what changes with N is only
// where its state is (cache or memory) and how the flows' streams interleave in the branch
// predictor's history. (Built from one global event index instead, each flow would see time
// and sequence numbers jump by about N events between two of its own, and its per-event work
// would change with N: more rounds ended, more timers expired.)
//
// `flow_order::at(k)` gives the k-th event's flow and that flow's own index, from a ring of
// picks computed before timing (read in sequence; no per-flow counter is touched while timing).
// `prefetch` brings a flow's state into the cache ahead of its event, as a NIC or a host stack
// that parses headers ahead of processing does: beside each random-order entry a ".../prefetch"
// entry runs the same events with the state of the event `prefetch_distance` ahead fetched
// first, so the difference between the two is the memory stall and nothing else.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <random>
#include <vector>

namespace netcc_bench {

/// @brief How many events ahead the ".../prefetch" entries fetch a state.
inline constexpr std::uint64_t prefetch_distance = 16;

/// @brief The cache line assumed by prefetch and by the arrays' alignment.
inline constexpr std::size_t cache_line = 64;

/// @brief Allocator of cache-line-aligned arrays: each state of 32 or 64 B then lies in one
/// line, as a NIC lays out its flow table (the default allocator starts a large array 16 B into
/// a line, so half the 32-B states would straddle two lines).
template <class T>
struct line_aligned_allocator {
  using value_type = T;
  line_aligned_allocator() = default;
  template <class U>
  constexpr line_aligned_allocator(const line_aligned_allocator<U>& /*unused*/) noexcept {}
  T* allocate(std::size_t n) {
    return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{cache_line}));
  }
  void deallocate(T* p, std::size_t /*n*/) noexcept {
    ::operator delete (p, std::align_val_t{cache_line});
  }
  template <class U>
  friend bool operator==(const line_aligned_allocator& /*a*/,
                         const line_aligned_allocator<U>& /*b*/) noexcept {
    return true;
  }
};

/// @brief A flow table: N states (or controller objects) in one cache-line-aligned array.
template <class T>
using flow_array = std::vector<T, line_aligned_allocator<T>>;

/// @brief Random flow order with each flow's own event index (see the file comment).
class flow_order {
 public:
  /// @brief One event: the flow it goes to and that flow's own event index (0, 1, 2, ...).
  struct event {
    std::uint32_t flow;
    std::uint64_t index;
  };

  /// @brief The order for `flows` >= 1 flows: a ring of at least 2^16 picks and at least one
  /// per flow on average, a power of two, drawn with a fixed seed.
  explicit flow_order(std::size_t flows) {
    std::size_t n = std::size_t{1} << 16;
    int bits = 16;
    while (n < flows) {
      n <<= 1;
      ++bits;
    }
    lap_bits_ = bits;
    picks_.resize(n);
    std::vector<std::uint32_t> seen(flows, 0);
    std::mt19937_64 rng(11);
    for (auto& p : picks_) {
      p.flow = static_cast<std::uint32_t>(rng() % flows);
      p.before = seen[p.flow]++;
    }
    for (auto& p : picks_) p.per_lap = seen[p.flow];
  }

  /// @brief Event k of the run (k = 0, 1, 2, ...): pick k mod the ring, and the flow's index
  /// as its picks in the earlier laps plus its picks before this one in this lap.
  [[nodiscard]] event at(std::uint64_t k) const noexcept {
    const pick& p = picks_[k & (picks_.size() - 1)];
    return {p.flow, (k >> lap_bits_) * p.per_lap + p.before};
  }
  /// @brief The flow of event k.
  [[nodiscard]] std::uint32_t flow(std::uint64_t k) const noexcept {
    return picks_[k & (picks_.size() - 1)].flow;
  }
  /// @brief Events in one lap of the ring.
  [[nodiscard]] std::size_t size() const noexcept { return picks_.size(); }

 private:
  struct pick {
    std::uint32_t flow;
    std::uint32_t before;   // the flow's picks before this one in the ring
    std::uint32_t per_lap;  // the flow's picks in the whole ring
  };
  std::vector<pick> picks_;
  int lap_bits_ = 16;
};

/// @brief Fetch every cache line of `x` for writing (no effect on the program's values).
template <class T>
inline void prefetch(const T& x) noexcept {
  const auto* p = reinterpret_cast<const char*>(&x);
  for (std::size_t off = 0; off < sizeof(T); off += cache_line) __builtin_prefetch(p + off, 1, 3);
  // The last byte's line, in case the object does not start on a line.
  __builtin_prefetch(p + sizeof(T) - 1, 1, 3);
}

/// @brief The loop of every flows-at-scale entry: the benchmark's events go to the entries of
/// `flows` (one per flow: a state or a controller object) in flow_order's order, `deliver(x, j)`
/// handing a flow's j-th event to its entry x. With `Prefetch`, the entry of the event
/// prefetch_distance ahead is fetched first. With `warm_up`, one lap of the order runs before
/// timing (every flow leaves its initial state, the array is touched once). Sets the counters
/// "flows" and "bytes_per_flow" (the array's stride).
template <bool Prefetch, class T, class Deliver>
void drive(benchmark::State& state, flow_array<T>& flows, Deliver deliver, bool warm_up) {
  const flow_order order(flows.size());
  std::uint64_t k = 0;
  if (warm_up) {
    for (; k < order.size(); ++k) {
      const auto e = order.at(k);
      deliver(flows[e.flow], e.index);
    }
  }
  for (auto _ : state) {
    if constexpr (Prefetch) prefetch(flows[order.flow(k + prefetch_distance)]);
    const auto e = order.at(k++);
    T& x = flows[e.flow];
    deliver(x, e.index);
    benchmark::DoNotOptimize(x);
  }
  state.counters["flows"] = static_cast<double>(flows.size());
  state.counters["bytes_per_flow"] = static_cast<double>(sizeof(T));
}

}  // namespace netcc_bench
