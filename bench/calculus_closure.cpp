// SPDX-License-Identifier: MIT
// Sub-additive and super-additive closures (netcc/calculus/closure.hpp): time against the
// number of segments in the transient and in the period, exact (rational).
// Operand of BM_subadditive_closure: a non-decreasing UPP curve with f(0) = 0, a transient of
// n_t unit segments and a period of n_p unit segments (slopes 1..3, a jump of 1 at 0+ and after
// every other breakpoint; not sub-additive, so the one-convolution shortcut does not apply and every
// element — point or segment — costs a UPP convolution). BM_subadditive_closure_subadditive:
// the staircase 3 ceil(t / n_p), a sub-additive input (f(0) = 0), closed by the
// shortcut. BM_superadditive_closure: the negation of the first operand (f(0), f(0+) <= 0).
// Arguments: n_t, n_p. Counters: "segments" = transient + period segments of the input,
// "out_transient" / "out_period" those of the closure.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include <netcc/calculus/closure.hpp>

namespace {

using netcc::calculus::breakpoint;
using netcc::calculus::curve;
using netcc::calculus::extended;
using netcc::calculus::rational;
using netcc::calculus::upp;

upp make_input(std::int64_t nt, std::int64_t np) {
  std::vector<breakpoint<rational>> v;
  rational left{0};
  for (std::int64_t k = 0; k < nt + np; ++k) {
    const rational jump{(k + 1) % 2};
    const rational slope{1 + k % 3};
    v.push_back({rational{k}, extended<rational>{left}, extended<rational>{left + jump}, slope});
    left = left + jump + slope;
  }
  const curve base = curve::from_breakpoints(v);
  const rational rise = left - base(rational{nt}).value() + rational{1};
  return upp::make(base, rational{nt}, rational{np}, rise);
}

void report(benchmark::State& state, const upp& in, const upp& out) {
  const auto si = in.segments();
  const auto so = out.segments();
  state.counters["segments"] = static_cast<double>(si.first + si.second);
  state.counters["out_transient"] = static_cast<double>(so.first);
  state.counters["out_period"] = static_cast<double>(so.second);
  if (!out.valid()) state.SkipWithError("closure failed");
}

void BM_subadditive_closure(benchmark::State& state) {
  const upp f = make_input(state.range(0), state.range(1));
  upp s;
  for (auto _ : state) {
    s = subadditive_closure(f);
    benchmark::DoNotOptimize(s);
  }
  report(state, f, s);
}

void BM_subadditive_closure_subadditive(benchmark::State& state) {
  const upp f = upp::staircase(rational{3}, rational{state.range(1)});
  upp s;
  for (auto _ : state) {
    s = subadditive_closure(f);
    benchmark::DoNotOptimize(s);
  }
  report(state, f, s);
}

void BM_superadditive_closure(benchmark::State& state) {
  const upp f = negate(make_input(state.range(0), state.range(1)));
  upp s;
  for (auto _ : state) {
    s = superadditive_closure(f);
    benchmark::DoNotOptimize(s);
  }
  report(state, f, s);
}

void args(benchmark::internal::Benchmark* b) {
  for (std::int64_t p : {1, 2, 4, 8}) b->Args({1, p});
  for (std::int64_t t : {2, 4, 8}) b->Args({t, 1});
  b->Args({4, 4});
}

}  // namespace

BENCHMARK(BM_subadditive_closure)->Apply(args)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_subadditive_closure_subadditive)->Args({0, 1})->Args({0, 8})->Args({0, 64});
BENCHMARK(BM_superadditive_closure)->Apply(args)->Unit(benchmark::kMillisecond);
