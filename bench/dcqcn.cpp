// SPDX-License-Identifier: MIT
// DCQCN reaction point (DCQCN SIGCOMM'15 §3.1, seed 003 Tables I-II): nanoseconds per event for
// double and q32 — a CNP (the cut), a timer call that fires one rate-timer and one alpha-timer
// expiry, and a send that completes a byte-counter stage — and the size in bytes (counter
// "state_B"). TARGETS.md: <= 10 ns per event.
#include <benchmark/benchmark.h>

#include <cstdint>

#include <netcc/control/dcqcn.hpp>

namespace {

template <class Policy>
void BM_dcqcn_cnp(benchmark::State& state) {
  netcc::basic_dcqcn<Policy> rp{};
  std::int64_t t = 0;
  for (auto _ : state) {
    t += 50'000;
    rp.on_cnp(netcc::cnp_event{.now = netcc::timestamp{t}});
    benchmark::DoNotOptimize(rp);
  }
  state.counters["state_B"] = static_cast<double>(sizeof(rp));
}

template <class Policy>
void BM_dcqcn_timer(benchmark::State& state) {
  netcc::basic_dcqcn<Policy> rp{};
  std::int64_t t = 0;
  for (auto _ : state) {
    t += 55'000;  // one rate-timer and one alpha-timer period per call
    rp.on_timer(netcc::timestamp{t});
    benchmark::DoNotOptimize(rp);
  }
}

template <class Policy>
void BM_dcqcn_send(benchmark::State& state) {
  netcc::basic_dcqcn<Policy> rp{};
  std::int64_t t = 0;
  for (auto _ : state) {
    ++t;  // same timer period: only the byte counter works (one stage per call)
    rp.on_send(netcc::bytes{10'000'000}, netcc::timestamp{t});
    benchmark::DoNotOptimize(rp);
  }
}

BENCHMARK(BM_dcqcn_cnp<netcc::arith::ieee_double>);
BENCHMARK(BM_dcqcn_cnp<netcc::arith::q32>);
BENCHMARK(BM_dcqcn_timer<netcc::arith::ieee_double>);
BENCHMARK(BM_dcqcn_timer<netcc::arith::q32>);
BENCHMARK(BM_dcqcn_send<netcc::arith::ieee_double>);
BENCHMARK(BM_dcqcn_send<netcc::arith::q32>);

}  // namespace
