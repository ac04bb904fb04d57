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
  nc::path_config<double> cfg{.capacity = 12.5,
                              .feedback_delay = 4000.0,
                              .packet_size = 1000.0,
                              .timeouts = true,
                              .timeout = 3.0e6};
  cfg.ecn = {.enabled = true, .k_min = 5.0e3, .k_max = 2.0e5, .p_max = 0.01, .spacing = 50000.0};
  cfg.pfc = {.enabled = pfc, .x_off = 9.5e3 * 3200, .x_on = 9.25e3 * 3200};
  nc::flow_config<double> f;
  f.arrivals = double_curve::token_bucket(0.0, 10.0e6);
  f.cc = nc::path_cc::rate_aimd;
  f.multiplicity = 31;
  f.rate = {.initial_rate = 12.5,
            .alpha = 0.005 / 8,
            .beta = 0.75,
            .increase_interval = 55000.0,
            .min_rate = 0.01 / 8,
            .max_rate = 12.5,
            .decrease_on_notification = true};
  return nc::basic_path_server<double>(cfg, {f});
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
  nc::path_config<double> cfg{.capacity = 12.5, .feedback_delay = 20000.0, .packet_size = 1460.0};
  nc::flow_config<double> f;
  f.arrivals = double_curve::token_bucket(6.25, 4.0e6);
  for (int k = 0; k < 4; ++k) {
    const std::vector<nc::sample<double>> s{{1.0e6 + 0.5e6 * k, 1.5e6}};
    f.arrivals = f.arrivals + double_curve::from_samples(s, nc::interpolation::step);
  }
  f.cc = nc::path_cc::vegas;
  nc::basic_path_server<double> ps(cfg, {f});
  run_and_count(state, ps, 3.0e6);
}
BENCHMARK(BM_VegasBursts)->Unit(benchmark::kMillisecond);

void BM_AimdFairness(benchmark::State& state) {
  nc::path_config<double> cfg{.capacity = 12.5,
                              .feedback_delay = 20000.0,
                              .packet_size = 1460.0,
                              .timeouts = true,
                              .timeout = 100000.0};
  std::vector<nc::flow_config<double>> fs(2);
  for (std::size_t k = 0; k < 2; ++k) {
    fs[k].arrivals = double_curve::affine(0.0, nc::extended<double>::infinity(), 0.0);
    fs[k].cc = nc::path_cc::rate_aimd;
    fs[k].rate = {.initial_rate = k == 0 ? 7.5 : 11.25,
                  .alpha = 0.0125,
                  .beta = 0.8,
                  .increase_interval = 30000.0,
                  .min_rate = 0.001,
                  .max_rate = 1.0e6};
  }
  nc::basic_path_server<double> ps(cfg, fs);
  run_and_count(state, ps, 50.0e6);
}
BENCHMARK(BM_AimdFairness)->Unit(benchmark::kMillisecond);

}  // namespace
