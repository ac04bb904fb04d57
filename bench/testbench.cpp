// SPDX-License-Identifier: MIT
// Testbench speed: simulated packet-hops per wall-clock second (counter "hops_per_s") on a
// 100 Gbps dumbbell. Target (TARGETS.md): >= 5 M packet-hops/s single-threaded; Debian's
// ns-3 does ~41 k on a 10 Gbps dumbbell on this machine.
#include <benchmark/benchmark.h>

#include <memory>

#include <netcc/control/powertcp.hpp>
#include <netcc/testbench/metrics.hpp>
#include <netcc/testbench/network.hpp>
#include <netcc/testbench/scenario.hpp>
#include <netcc/testbench/topology.hpp>

namespace {
using namespace netcc::literals;
namespace tb = netcc::testbench;

void BM_dumbbell_fixed_window(benchmark::State& state) {
  const auto pairs = static_cast<std::size_t>(state.range(0));
  std::uint64_t hops = 0;
  for (auto _ : state) {
    tb::network net{{.sample_interval = netcc::duration{0}}};
    const auto d = tb::make_dumbbell(net, pairs, {.rate = 100_Gbps, .delay = 1_us},
                                     {.rate = 100_Gbps, .delay = 1_us}, {.ecn = true});
    for (std::size_t i = 0; i < pairs; ++i) {
      net.add_flow({.src = d.senders[i],
                    .dst = d.receivers[i],
                    .cc = std::make_unique<tb::cc_model<tb::fixed_window>>("fixed", 100_KB)});
    }
    net.run_until(netcc::timestamp{2'000'000});
    hops += net.packet_hops();
  }
  state.counters["hops_per_s"] =
      benchmark::Counter(static_cast<double>(hops), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_dumbbell_fixed_window)->Arg(1)->Arg(8)->Unit(benchmark::kMillisecond);

// The same dumbbell with a real controller on every flow (PowerTCP over INT pushed at every
// switch): the engine's cost plus a controller update per ACK.
void BM_dumbbell_powertcp(benchmark::State& state) {
  const auto pairs = static_cast<std::size_t>(state.range(0));
  std::uint64_t hops = 0;
  for (auto _ : state) {
    tb::network net{{.sample_interval = netcc::duration{0}}};
    const auto d = tb::make_dumbbell(net, pairs, {.rate = 100_Gbps, .delay = 1_us},
                                     {.rate = 100_Gbps, .delay = 1_us});
    for (std::size_t i = 0; i < pairs; ++i) {
      net.add_flow(
          {.src = d.senders[i],
           .dst = d.receivers[i],
           .cc = std::make_unique<tb::cc_model<netcc::powertcp>>(
               "powertcp", netcc::powertcp_params{
                               .host_rate = 100_Gbps, .base_rtt = 7_us, .expected_flows = 8})});
    }
    net.run_until(netcc::timestamp{2'000'000});
    hops += net.packet_hops();
  }
  state.counters["hops_per_s"] =
      benchmark::Counter(static_cast<double>(hops), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_dumbbell_powertcp)->Arg(1)->Arg(8)->Unit(benchmark::kMillisecond);

// The runner's CSV (metrics.hpp): integer-ns time and shortest round-trip doubles
// (std::to_chars) for a 100k-row, 5-column series, in rows per second.
void BM_format_csv(benchmark::State& state) {
  tb::series ts;
  ts.names = {"queue_bytes", "bottleneck_gbps", "long0_cwnd_bytes", "long0_rate_gbps",
              "long0_goodput_gbps"};
  ts.columns.resize(5);
  for (int r = 0; r < 100'000; ++r) {
    ts.t.push_back(netcc::timestamp{std::int64_t{r} * 1000});
    for (int c = 0; c < 5; ++c)
      ts.columns[static_cast<std::size_t>(c)].push_back(r * 1.37 + c / 3.0);
  }
  for (auto _ : state) benchmark::DoNotOptimize(tb::format_csv(ts));
  state.counters["rows_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()) * 1e5,
                                                    benchmark::Counter::kIsRate);
}
BENCHMARK(BM_format_csv)->Unit(benchmark::kMillisecond);

// The resource estimate a run is checked against before it starts (scenario.hpp).
void BM_estimate_resources(benchmark::State& state) {
  tb::scenario s;
  s.topology = "leafspine";
  s.leaves = 64;
  s.spines = 64;
  s.hosts_per_leaf = 256;
  for (auto _ : state) benchmark::DoNotOptimize(tb::estimate_resources(s).total_bytes());
}
BENCHMARK(BM_estimate_resources);

}  // namespace
