// SPDX-License-Identifier: MIT
// The generic driver (netcc/calculus/cc_driver.hpp): run time of netcc controllers through the
// path-server model. DCQCN on the seed's §V scenario (31 senders x 10 MB into 100 Gbit/s, RED of
// Table II, CNPs 50 us apart, 5 us timer ticks; 2 ms) with and without PFC, and PowerTCP in a
// 10:1 incast (25 Gbit/s, 1 ms). Counters: "steps" of the evaluation grid per run, and
// "ns_per_step".
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include <netcc/calculus/cc_driver.hpp>
#include <netcc/control/dcqcn.hpp>
#include <netcc/control/powertcp.hpp>

namespace {

namespace nc = netcc::calculus;
using netcc::bit_rate;
using netcc::bytes;
using netcc::duration;

template <class C>
void run(benchmark::State& state, const nc::driver_config& cfg,
         const std::vector<nc::driver_flow<C>>& flows, duration horizon) {
  double step = 1;
  for (auto _ : state) {
    nc::cc_driver<C> d(cfg, flows);
    auto r = d.run(horizon);
    step = r.step;
    benchmark::DoNotOptimize(r);
  }
  const double steps = static_cast<double>(horizon.count()) / step;
  state.counters["steps"] = steps;
  state.counters["ns_per_step"] =
      benchmark::Counter(steps * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_DriverDcqcn(benchmark::State& state) {
  nc::driver_config c{.capacity = bit_rate{100'000'000'000},
                      .feedback_delay = duration{4'000},
                      .packet_size = bytes{1000},
                      .ecn = true,
                      .k_min = bytes{5'000},
                      .k_max = bytes{200'000},
                      .p_max = 0.01,
                      .cnp_interval = duration{50'000},
                      .pfc = state.range(0) != 0,
                      .x_off = bytes{9'500 * 3200},
                      .x_on = bytes{9'250 * 3200},
                      .tick = duration{5'000}};
  std::vector<nc::driver_flow<netcc::dcqcn>> f(31);
  for (auto& x : f) {
    x.cc = netcc::dcqcn{netcc::dcqcn_params{.line_rate = bit_rate{100'000'000'000}}};
    x.arrivals = nc::double_curve::token_bucket(0.0, 10.0e6);
  }
  run(state, c, f, duration{2'000'000});
}
BENCHMARK(BM_DriverDcqcn)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_DriverPowerTcpIncast(benchmark::State& state) {
  nc::driver_config c{.capacity = bit_rate{25'000'000'000}, .feedback_delay = duration{20'000}};
  std::vector<nc::driver_flow<netcc::powertcp>> f(10);
  for (auto& x : f) {
    x.cc = netcc::powertcp{netcc::powertcp_params{
        .host_rate = bit_rate{25'000'000'000}, .base_rtt = duration{20'000}, .expected_flows = 10}};
    x.arrivals = nc::double_curve::token_bucket(0.0, 1.0e15);
    x.line_rate = bit_rate{25'000'000'000};
  }
  run(state, c, f, duration{1'000'000});
}
BENCHMARK(BM_DriverPowerTcpIncast)->Unit(benchmark::kMillisecond);

}  // namespace
