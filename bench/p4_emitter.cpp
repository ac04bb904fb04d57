// SPDX-License-Identifier: MIT
// The P4 emitter (netcc/adapters/p4/emitter.hpp): time to write each switch function's P4_16
// program and its CLI commands, and their sizes (bytes of P4, command lines). Bolt's commands
// carry the 65536-entry supply table, RED's the 1024 probability cells.
#include <netcc/adapters/p4/emitter.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>

namespace {

void BM_EmitSource(benchmark::State& state) {
  const auto f = netcc::p4::all_functions[static_cast<std::size_t>(state.range(0))];
  const netcc::p4::emit_params p{};
  std::size_t bytes = 0;
  for (auto _ : state) {
    const std::string s = netcc::p4::emit_source(f, p);
    bytes = s.size();
    benchmark::DoNotOptimize(s.data());
  }
  state.counters["p4_bytes"] = static_cast<double>(bytes);
}

void BM_EmitCommands(benchmark::State& state) {
  const auto f = netcc::p4::all_functions[static_cast<std::size_t>(state.range(0))];
  const netcc::p4::emit_params p{};
  std::size_t lines = 0;
  for (auto _ : state) {
    const std::string s = netcc::p4::emit_commands(f, p);
    lines = static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
    benchmark::DoNotOptimize(s.data());
  }
  state.counters["command_lines"] = static_cast<double>(lines);
}

}  // namespace

// 0 int_push, 1 red_ecn, 2 bolt, 3 fasttune, 4 dcqcn_np, 5 token_bucket.
BENCHMARK(BM_EmitSource)->DenseRange(0, 5)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EmitCommands)->DenseRange(0, 5)->Unit(benchmark::kMicrosecond);
