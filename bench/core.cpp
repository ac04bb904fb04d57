// SPDX-License-Identifier: MIT
// Core operations: wrap-safe INT deltas, fixed-point vs double arithmetic, EWMA updates,
// per-RTT marker and window-history lookups. Each is a building block of a per-ACK update,
// so each should cost a few nanoseconds at most.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include <netcc/core.hpp>

namespace {

std::vector<std::uint64_t> random_words(std::size_t n) {
  std::mt19937_64 rng(42);
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) x = rng();
  return v;
}

template <unsigned N>
void BM_wrap_diff(benchmark::State& state) {
  const auto v = random_words(1024);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(netcc::wrapping_counter<N, (N == 64 ? 1 : 128)>::delta_bytes(
        v[i & 1023], v[(i + 1) & 1023]));
    ++i;
  }
}
BENCHMARK(BM_wrap_diff<20>);
BENCHMARK(BM_wrap_diff<24>);
BENCHMARK(BM_wrap_diff<64>);

template <class T>
void BM_ewma_time_weighted(benchmark::State& state) {
  netcc::ewma<T, netcc::time_weight<T>> e{{.period = netcc::duration{10'000}}, netcc::num<T>(1)};
  const auto v = random_words(1024);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto w = v[i & 1023];
    benchmark::DoNotOptimize(
        e.update(netcc::ratio<T>(static_cast<std::int64_t>(w & 0xFFFF), 0x8000),
                 netcc::duration{static_cast<std::int64_t>((w >> 16) & 0x3FFF)}));
    ++i;
  }
}
BENCHMARK(BM_ewma_time_weighted<double>);
BENCHMARK(BM_ewma_time_weighted<netcc::fixed_point<31, 32>>);

template <class T>
void BM_mul_div(benchmark::State& state) {
  T a = netcc::num<T>(1.25), b = netcc::num<T>(0.9), c = netcc::num<T>(3.0);
  for (auto _ : state) {
    benchmark::DoNotOptimize(a);
    a = (a * b + c) / b;
    if (a > netcc::num<T>(1e6)) a = netcc::num<T>(1.25);
  }
}
BENCHMARK(BM_mul_div<double>);
BENCHMARK(BM_mul_div<netcc::fixed_point<31, 32>>);

void BM_window_history_lookup(benchmark::State& state) {
  netcc::window_history<double, 4> h;
  for (int k = 0; k < 4; ++k) h.remember(static_cast<netcc::sequence>(k) * 100'000, 1000.0 * k);
  const auto v = random_words(1024);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(h.window_at(v[i & 1023] % 400'000, 0.0));
    ++i;
  }
}
BENCHMARK(BM_window_history_lookup);

void BM_rate_times_duration(benchmark::State& state) {
  const auto v = random_words(1024);
  std::size_t i = 0;
  for (auto _ : state) {
    const netcc::bit_rate r{static_cast<std::int64_t>(v[i & 1023] % 800'000'000'000ULL)};
    const netcc::duration t{static_cast<std::int64_t>(v[(i + 7) & 1023] % 1'000'000)};
    benchmark::DoNotOptimize(r * t);
    ++i;
  }
}
BENCHMARK(BM_rate_times_duration);

// Same-unit arithmetic saturates (units.hpp): a sum of two byte counts and a timestamp step,
// each checked for overflow, as controllers and the engine do per packet.
void BM_bytes_saturating_add(benchmark::State& state) {
  const auto v = random_words(1024);
  std::size_t i = 0;
  netcc::bytes acc{0};
  for (auto _ : state) {
    acc += netcc::bytes{static_cast<std::int64_t>(v[i & 1023] >> 1)};
    benchmark::DoNotOptimize(acc);
    ++i;
  }
}
BENCHMARK(BM_bytes_saturating_add);

void BM_timestamp_step_and_diff(benchmark::State& state) {
  const auto v = random_words(1024);
  std::size_t i = 0;
  netcc::timestamp t{0};
  for (auto _ : state) {
    const netcc::timestamp next =
        t + netcc::duration{static_cast<std::int64_t>(v[i & 1023] % 100'000)};
    benchmark::DoNotOptimize(next - t);
    t = next;
    ++i;
  }
}
BENCHMARK(BM_timestamp_step_and_diff);

}  // namespace
