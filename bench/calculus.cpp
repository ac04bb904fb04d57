// SPDX-License-Identifier: MIT
// Min-plus curves (netcc/calculus/minplus.hpp): time against segment count, exact (rational)
// and double. Counter "segments/s" = (n + m) input segments per second.
// - The general convolution (convolve_general: convex runs, pairwise pieces, sweep-based lower
//   envelope) on two n-segment curves with a jump at every other breakpoint, so that no
//   segment joins a convex run: the worst case for the decomposition, O(n^2). Range 1..16384
//   (double), 1..4096 (rational). The previous algorithm (all pieces, tree of minima,
//   O(n^2 log n) time and O(n^2) memory) as BM_convolve_leaf_tree, 1..1024.
// - The linear-time special cases through convolve's dispatch (including its property checks):
//   convex ⊗ convex (slopes merged), concave ⊗ concave through the origin (the minimum), a
//   rate-latency or token-bucket operand against an arbitrary n-segment curve. Range 1..10^5.
// - Deconvolution (general, same worst-case curves, 1..512), the lower pseudo-inverse and the
//   pointwise minimum (1..10^5).
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include <netcc/calculus/minplus.hpp>

namespace {

using netcc::calculus::basic_curve;
using netcc::calculus::breakpoint;
using netcc::calculus::curve_number;
using netcc::calculus::extended;
using netcc::calculus::rational;

template <class T>
T num(std::int64_t n, std::int64_t d = 1) {
  return curve_number<T>::ratio(n, d);
}

// Non-decreasing, neither convex nor concave: slope 1 + (k mod 3) on [k, k + 1], a jump of 1
// after every odd breakpoint (shifted pattern with `phase`).
template <class T>
basic_curve<T> general_curve(std::size_t n, std::int64_t phase) {
  std::vector<breakpoint<T>> v;
  T left = num<T>(0);
  for (std::size_t k = 0; k < n; ++k) {
    const auto ki = static_cast<std::int64_t>(k) + phase;
    const T jump = num<T>(ki % 2);
    const T slope = num<T>(1 + ki % 3);
    v.push_back({num<T>(static_cast<std::int64_t>(k)), left, left + jump, slope});
    left = left + jump + slope;
  }
  return basic_curve<T>::from_breakpoints(v);
}

// Convex: slopes 1, 2, ..., n (plus an offset) on unit segments.
template <class T>
basic_curve<T> convex_curve(std::size_t n, std::int64_t offset) {
  std::vector<breakpoint<T>> v;
  T y = num<T>(0);
  for (std::size_t k = 0; k < n; ++k) {
    const T s = num<T>(static_cast<std::int64_t>(k) + offset);
    v.push_back({num<T>(static_cast<std::int64_t>(k)), y, y, s});
    y = y + s;
  }
  return basic_curve<T>::from_breakpoints(v);
}

// Concave through the origin: a burst at 0+, then slopes n + offset down to 1 + offset.
template <class T>
basic_curve<T> concave_curve(std::size_t n, std::int64_t offset) {
  std::vector<breakpoint<T>> v;
  T y = num<T>(3);
  for (std::size_t k = 0; k < n; ++k) {
    const T s = num<T>(static_cast<std::int64_t>(n - k) + offset);
    v.push_back({num<T>(static_cast<std::int64_t>(k)), k == 0 ? num<T>(0) : y, y, s});
    y = y + s;
  }
  return basic_curve<T>::from_breakpoints(v);
}

void set_counters(benchmark::State& state, std::size_t segments) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(segments));
  state.counters["segments/s"] = benchmark::Counter(static_cast<double>(segments),
                                                    benchmark::Counter::kIsIterationInvariantRate);
  state.counters["n"] = static_cast<double>(state.range(0));
}

template <class T>
void BM_convolve_general(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto f = general_curve<T>(n, 0);
  const auto g = general_curve<T>(n, 1);
  std::size_t out = 0;
  for (auto _ : state) {
    const auto h = netcc::calculus::convolve_general(f, g);
    out = h.size();
    benchmark::DoNotOptimize(out);
  }
  state.counters["out_segments"] = static_cast<double>(out);
  set_counters(state, f.size() + g.size());
}

// The previous general algorithm (every piece materialised, tree of minima), for comparison.
template <class T>
void BM_convolve_leaf_tree(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto f = general_curve<T>(n, 0);
  const auto g = general_curve<T>(n, 1);
  std::size_t out = 0;
  for (auto _ : state) {
    const auto h = netcc::detail::convolve_leaf_tree(f, g);
    out = h.size();
    benchmark::DoNotOptimize(out);
  }
  state.counters["out_segments"] = static_cast<double>(out);
  set_counters(state, f.size() + g.size());
}

template <class T>
void BM_convolve_convex(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto f = convex_curve<T>(n, 0);
  const auto g = convex_curve<T>(n, 1);
  for (auto _ : state) benchmark::DoNotOptimize(netcc::calculus::convolve(f, g));
  set_counters(state, f.size() + g.size());
}

template <class T>
void BM_convolve_concave(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto f = concave_curve<T>(n, 0);
  const auto g = concave_curve<T>(n, 1);
  for (auto _ : state) benchmark::DoNotOptimize(netcc::calculus::convolve(f, g));
  set_counters(state, f.size() + g.size());
}

template <class T>
void BM_convolve_rate_latency(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto f = general_curve<T>(n, 0);
  const auto g = basic_curve<T>::rate_latency(num<T>(2), num<T>(5));
  for (auto _ : state) benchmark::DoNotOptimize(netcc::calculus::convolve(f, g));
  set_counters(state, f.size() + g.size());
}

template <class T>
void BM_convolve_token_bucket(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto f = general_curve<T>(n, 0);
  const auto g = basic_curve<T>::token_bucket(num<T>(2), num<T>(7));
  for (auto _ : state) benchmark::DoNotOptimize(netcc::calculus::convolve(f, g));
  set_counters(state, f.size() + g.size());
}

template <class T>
void BM_deconvolve_general(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto f = general_curve<T>(n, 0);
  const auto g = general_curve<T>(n, 1) + basic_curve<T>::rate(num<T>(3));  // g outgrows f
  for (auto _ : state) benchmark::DoNotOptimize(netcc::calculus::deconvolve_general(f, g));
  set_counters(state, f.size() + g.size());
}

template <class T>
void BM_lower_inverse(benchmark::State& state) {
  const auto f = general_curve<T>(static_cast<std::size_t>(state.range(0)), 0);
  for (auto _ : state) benchmark::DoNotOptimize(netcc::calculus::lower_inverse(f));
  set_counters(state, f.size());
}

template <class T>
void BM_min(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto f = general_curve<T>(n, 0);
  const auto g = general_curve<T>(n, 1);
  for (auto _ : state) benchmark::DoNotOptimize(min(f, g));
  set_counters(state, f.size() + g.size());
}

constexpr std::int64_t big = 100'000;

BENCHMARK(BM_convolve_general<double>)->RangeMultiplier(2)->Range(1, 16384);
BENCHMARK(BM_convolve_general<rational>)->RangeMultiplier(2)->Range(1, 4096);
BENCHMARK(BM_convolve_leaf_tree<double>)->RangeMultiplier(2)->Range(1, 1024);
BENCHMARK(BM_convolve_leaf_tree<rational>)->RangeMultiplier(2)->Range(1, 512);
BENCHMARK(BM_convolve_convex<double>)->RangeMultiplier(10)->Range(1, big);
BENCHMARK(BM_convolve_convex<rational>)->RangeMultiplier(10)->Range(1, big);
BENCHMARK(BM_convolve_concave<double>)->RangeMultiplier(10)->Range(1, big);
BENCHMARK(BM_convolve_concave<rational>)->RangeMultiplier(10)->Range(1, big);
BENCHMARK(BM_convolve_rate_latency<double>)->RangeMultiplier(10)->Range(1, big);
BENCHMARK(BM_convolve_rate_latency<rational>)->RangeMultiplier(10)->Range(1, big);
BENCHMARK(BM_convolve_token_bucket<double>)->RangeMultiplier(10)->Range(1, big);
BENCHMARK(BM_convolve_token_bucket<rational>)->RangeMultiplier(10)->Range(1, big);
BENCHMARK(BM_deconvolve_general<double>)->RangeMultiplier(2)->Range(1, 512);
BENCHMARK(BM_deconvolve_general<rational>)->RangeMultiplier(2)->Range(1, 512);
BENCHMARK(BM_lower_inverse<double>)->RangeMultiplier(10)->Range(1, big);
BENCHMARK(BM_lower_inverse<rational>)->RangeMultiplier(10)->Range(1, big);
BENCHMARK(BM_min<double>)->RangeMultiplier(10)->Range(1, big);
BENCHMARK(BM_min<rational>)->RangeMultiplier(10)->Range(1, big);

}  // namespace
