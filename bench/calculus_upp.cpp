// SPDX-License-Identifier: MIT
// Ultimately pseudo-periodic curves (netcc/calculus/upp.hpp): time of the min-plus convolution
// against the number of segments in the transient and in the period, exact (rational).
// Operands: non-decreasing curves with a transient of n_t unit segments and a period of n_p
// unit segments (slopes 1..3, a jump after every other breakpoint), the same period length for
// both (so lcm(d_f, d_g) = n_p), equal rates (BM_upp_convolve_equal_rates) or a second operand
// one unit per period faster (BM_upp_convolve_other_rates). Arguments: n_t, n_p. Counter
// "segments" = transient + period segments of both operands.
// Deconvolution (netcc/calculus/upp_ops.hpp), BM_upp_deconvolve: the same operands, the
// divisor one unit per period faster (a finite result). BM_upp_delay_point: the horizontal
// deviation with its time, same operands.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include <netcc/calculus/upp.hpp>
#include <netcc/calculus/upp_ops.hpp>

namespace {

using netcc::calculus::breakpoint;
using netcc::calculus::curve;
using netcc::calculus::extended;
using netcc::calculus::rational;
using netcc::calculus::upp;

upp make_upp(std::int64_t nt, std::int64_t np, std::int64_t phase, std::int64_t extra_rise) {
  std::vector<breakpoint<rational>> v;
  rational left{0};
  for (std::int64_t k = 0; k < nt + np; ++k) {
    const std::int64_t ki = k + phase;
    const rational jump{ki % 2};
    const rational slope{1 + ki % 3};
    v.push_back({rational{k}, extended<rational>{left}, extended<rational>{left + jump}, slope});
    left = left + jump + slope;
  }
  const curve base = curve::from_breakpoints(v);
  const rational rise = left - base(rational{nt}).value() + rational{1 + extra_rise};
  return upp::make(base, rational{nt}, rational{np}, rise);
}

void run(benchmark::State& state, std::int64_t extra) {
  const std::int64_t nt = state.range(0);
  const std::int64_t np = state.range(1);
  const upp f = make_upp(nt, np, 0, 0);
  const upp g = make_upp(nt, np, 1, extra);
  std::size_t out_t = 0;
  std::size_t out_p = 0;
  for (auto _ : state) {
    const upp h = convolve(f, g);
    const auto s = h.segments();
    out_t = s.first;
    out_p = s.second;
    benchmark::DoNotOptimize(out_t);
  }
  const auto sf = f.segments();
  const auto sg = g.segments();
  state.counters["segments"] = static_cast<double>(sf.first + sf.second + sg.first + sg.second);
  state.counters["out_transient"] = static_cast<double>(out_t);
  state.counters["out_period"] = static_cast<double>(out_p);
}

void BM_upp_convolve_equal_rates(benchmark::State& state) {
  run(state, 0);
}

void BM_upp_convolve_other_rates(benchmark::State& state) {
  run(state, 1);
}

void BM_upp_deconvolve(benchmark::State& state) {
  const std::int64_t nt = state.range(0);
  const std::int64_t np = state.range(1);
  const upp f = make_upp(nt, np, 0, 0);
  const upp g = make_upp(nt, np, 1, 1);
  std::size_t out_t = 0;
  std::size_t out_p = 0;
  for (auto _ : state) {
    const upp h = deconvolve(f, g);
    const auto s = h.segments();
    out_t = s.first;
    out_p = s.second;
    benchmark::DoNotOptimize(out_t);
  }
  const auto sf = f.segments();
  const auto sg = g.segments();
  state.counters["segments"] = static_cast<double>(sf.first + sf.second + sg.first + sg.second);
  state.counters["out_transient"] = static_cast<double>(out_t);
  state.counters["out_period"] = static_cast<double>(out_p);
}

void BM_upp_delay_point(benchmark::State& state) {
  const upp f = make_upp(state.range(0), state.range(1), 0, 0);
  const upp g = make_upp(state.range(0), state.range(1), 1, 1);
  for (auto _ : state) {
    const auto p = horizontal_deviation_point(f, g);
    benchmark::DoNotOptimize(p.time);
  }
}

void args(benchmark::internal::Benchmark* b) {
  for (std::int64_t p : {1, 4, 16, 64, 256}) b->Args({4, p});
  for (std::int64_t t : {16, 64, 256}) b->Args({t, 4});
  b->Args({64, 64});
}

BENCHMARK(BM_upp_convolve_equal_rates)->Apply(args)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_upp_convolve_other_rates)->Apply(args)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_upp_deconvolve)->Apply(args)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_upp_delay_point)->Apply(args)->Unit(benchmark::kMillisecond);

}  // namespace
