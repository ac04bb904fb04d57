// SPDX-License-Identifier: MIT
// The path-server model (netcc/calculus/path_server.hpp): run time of whole scenarios of the
// network-calculus seed in double: §V-B DCQCN (31 senders x 10 MB, 10 ms) with and without PFC,
// §III-E Vegas burst scenario (3 ms), §IV-B AIMD fairness (two flows, 50 ms). Counter "events"
// = model events per run.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <vector>

#include <netcc/calculus/path_server.hpp>

namespace {

namespace nc = netcc::calculus;
using nc::double_curve;

nc::basic_path_server<double> dcqcn(bool pfc) {
  const nc::path_scenario sc = nc::seed_dcqcn_incast(pfc);
  return nc::basic_path_server<double>(sc.config, sc.flows);
}

void run_and_count(benchmark::State& state, nc::basic_path_server<double>& ps, double horizon) {
  std::size_t events = 0;
  for (auto _ : state) {
    auto r = ps.run(horizon);
    events = r.events.size();
    benchmark::DoNotOptimize(r);
  }
  state.counters["events"] = static_cast<double>(events);
}

void BM_Dcqcn(benchmark::State& state) {
  auto ps = dcqcn(state.range(0) != 0);
  run_and_count(state, ps, 10.0e6);
}
BENCHMARK(BM_Dcqcn)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_VegasBursts(benchmark::State& state) {
  const nc::path_scenario sc = nc::seed_vegas_bursts();
  nc::basic_path_server<double> ps(sc.config, sc.flows);
  run_and_count(state, ps, sc.horizon);
}
BENCHMARK(BM_VegasBursts)->Unit(benchmark::kMillisecond);

void BM_AimdFairness(benchmark::State& state) {
  const nc::path_scenario sc = nc::seed_aimd_fairness();
  nc::basic_path_server<double> ps(sc.config, sc.flows);
  run_and_count(state, ps, sc.horizon);
}
BENCHMARK(BM_AimdFairness)->Unit(benchmark::kMillisecond);

}  // namespace
