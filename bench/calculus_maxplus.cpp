// SPDX-License-Identifier: MIT
// Max-plus curves (netcc/calculus/maxplus.hpp): time against segment count, exact (rational)
// and double. Counter "segments/s" = (n + m) input segments per second.
// - maxplus_convolve on two n-segment non-decreasing curves with a jump at every other
//   breakpoint (negated, neither convex nor concave: the general min-plus algorithm, O(n^2)),
//   1..1024 (double), 1..512 (rational).
// - maxplus_convolve of two concave curves (negated: convex, the linear slope merge),
//   1..10^5.
// - maxplus_deconvolve on the general curves (f against a slower g, so the result is finite),
//   1..256.
// - maxplus_convolve of two UPP curves (netcc/calculus/upp.hpp): the general curves of n
//   segments as transient plus one unit period (rises 2 and 3), 1..64, exact.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include <netcc/calculus/maxplus.hpp>

namespace {

using netcc::calculus::basic_curve;
using netcc::calculus::breakpoint;
using netcc::calculus::curve_number;
using netcc::calculus::rational;

template <class T>
T num(std::int64_t n, std::int64_t d = 1) {
  return curve_number<T>::ratio(n, d);
}

// Non-decreasing, neither convex nor concave: slope `base` + (k mod 3) on [k, k + 1], a jump
// of 1 after every odd breakpoint (shifted pattern with `phase`).
template <class T>
basic_curve<T> general_curve(std::size_t n, std::int64_t phase, std::int64_t base) {
  std::vector<breakpoint<T>> v;
  T left = num<T>(0);
  for (std::size_t k = 0; k < n; ++k) {
    const auto ki = static_cast<std::int64_t>(k) + phase;
    const T jump = num<T>(ki % 2);
    const T slope = num<T>(base + ki % 3);
    v.push_back({num<T>(static_cast<std::int64_t>(k)), left, left + jump, slope});
    left = left + jump + slope;
  }
  return basic_curve<T>::from_breakpoints(v);
}

// Concave, continuous: slopes n + offset, ..., 1 + offset on unit segments.
template <class T>
basic_curve<T> concave_curve(std::size_t n, std::int64_t offset) {
  std::vector<breakpoint<T>> v;
  T y = num<T>(0);
  for (std::size_t k = 0; k < n; ++k) {
    const T s = num<T>(static_cast<std::int64_t>(n - k) + offset);
    v.push_back({num<T>(static_cast<std::int64_t>(k)), y, y, s});
    y = y + s;
  }
  return basic_curve<T>::from_breakpoints(v);
}

void set_counters(benchmark::State& state, std::size_t segments, std::size_t out) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(segments));
  state.counters["segments/s"] = benchmark::Counter(static_cast<double>(segments),
                                                    benchmark::Counter::kIsIterationInvariantRate);
  state.counters["n"] = static_cast<double>(state.range(0));
  state.counters["out_segments"] = static_cast<double>(out);
}

template <class T>
void BM_maxplus_convolve_general(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto f = general_curve<T>(n, 0, 1);
  const auto g = general_curve<T>(n, 1, 1);
  std::size_t out = 0;
  for (auto _ : state) {
    const auto h = netcc::calculus::maxplus_convolve(f, g);
    out = h.size();
    benchmark::DoNotOptimize(out);
  }
  set_counters(state, f.size() + g.size(), out);
}

template <class T>
void BM_maxplus_convolve_concave(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto f = concave_curve<T>(n, 0);
  const auto g = concave_curve<T>(n, 1);
  std::size_t out = 0;
  for (auto _ : state) {
    const auto h = netcc::calculus::maxplus_convolve(f, g);
    out = h.size();
    benchmark::DoNotOptimize(out);
  }
  set_counters(state, f.size() + g.size(), out);
}

template <class T>
void BM_maxplus_deconvolve_general(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto f = general_curve<T>(n, 0, 4);  // tail slope >= 4 > g's: the infimum is finite
  const auto g = general_curve<T>(n, 1, 1);
  std::size_t out = 0;
  for (auto _ : state) {
    const auto h = netcc::calculus::maxplus_deconvolve(f, g);
    out = h.size();
    benchmark::DoNotOptimize(out);
  }
  set_counters(state, f.size() + g.size(), out);
}

// The general curve's n segments as the transient, then a unit period rising `rise`.
netcc::calculus::upp general_upp(std::size_t n, std::int64_t phase, std::int64_t rise) {
  const auto c = general_curve<rational>(n + 1, phase, 1);
  return netcc::calculus::upp::make(c, rational{static_cast<std::int64_t>(n)}, rational{1},
                                    rational{rise});
}

void BM_maxplus_convolve_upp(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto f = general_upp(n, 0, 2);
  const auto g = general_upp(n, 1, 3);
  std::size_t out = 0;
  for (auto _ : state) {
    const auto h = netcc::calculus::maxplus_convolve(f, g);
    out = h.base().size();
    benchmark::DoNotOptimize(out);
  }
  set_counters(state, f.base().size() + g.base().size(), out);
}

constexpr std::int64_t big = 100000;

}  // namespace

BENCHMARK(BM_maxplus_convolve_general<double>)->RangeMultiplier(4)->Range(1, 1024);
BENCHMARK(BM_maxplus_convolve_general<rational>)->RangeMultiplier(2)->Range(1, 512);
BENCHMARK(BM_maxplus_convolve_concave<double>)->RangeMultiplier(10)->Range(1, big);
BENCHMARK(BM_maxplus_convolve_concave<rational>)->RangeMultiplier(10)->Range(1, big);
BENCHMARK(BM_maxplus_deconvolve_general<double>)->RangeMultiplier(4)->Range(1, 256);
BENCHMARK(BM_maxplus_deconvolve_general<rational>)->RangeMultiplier(4)->Range(1, 256);
BENCHMARK(BM_maxplus_convolve_upp)->RangeMultiplier(4)->Range(1, 64);
