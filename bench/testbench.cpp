// SPDX-License-Identifier: MIT
// Testbench speed: simulated packet-hops per wall-clock second (counter "hops_per_s") on a
// 100 Gbps dumbbell. Target (TARGETS.md): >= 5 M packet-hops/s single-threaded; Debian's
// ns-3 does ~41 k on a 10 Gbps dumbbell on this machine.
#include <benchmark/benchmark.h>

#include <memory>

#include <netcc/control/powertcp.hpp>
#include <netcc/testbench/network.hpp>
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

}  // namespace
