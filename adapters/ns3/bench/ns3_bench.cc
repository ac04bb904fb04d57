// SPDX-License-Identifier: MIT
// ns-3 events per second with netcc's controllers and with ns-3's own on the same run: netcc's
// Vegas against ns3::TcpVegas and netcc's DCTCP against ns3::TcpDctcp (over RED, K = 65
// packets), on the dumbbell of compare_test.cc (10 Gbps, 1 us links, 10 flows), and netcc's
// INT controllers on the 100 Gbps incast. Each iteration builds, runs and destroys one
// simulation; the counters are ns-3 events executed per wall-clock second of Simulator::Run
// and the events per run. Numbers come from a Release build:
//   cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release
//   cmake --build build/release --target netcc_ns3_bench
//   build/release/adapters/ns3/netcc_ns3_bench
#include <benchmark/benchmark.h>

#include <string>

#include "netcc-ns3/scenario.h"

namespace {

void Run(benchmark::State& state, ns3::NetccNs3Scenario s) {
  double events = 0, wall = 0;
  for (auto _ : state) {
    const ns3::NetccNs3Result r = ns3::RunNetccNs3Scenario(s);
    events += static_cast<double>(r.events);
    wall += r.wallSeconds;
    benchmark::DoNotOptimize(r.peakQueueBytes);
  }
  state.counters["events_per_s"] = wall > 0 ? events / wall : 0;
  state.counters["events_per_run"] = events / static_cast<double>(state.iterations());
}

ns3::NetccNs3Scenario Dumbbell(const std::string& cc, const std::string& queue) {
  ns3::NetccNs3Scenario s;
  s.cc = cc;
  s.flows = 10;
  s.queue = queue;
  s.duration = ns3::MilliSeconds(5);
  s.sample = ns3::MicroSeconds(100);
  return s;
}

void BM_Vegas_netcc(benchmark::State& st) {
  Run(st, Dumbbell("ns3::NetccVegas", "fifo"));
}
void BM_Vegas_ns3(benchmark::State& st) {
  Run(st, Dumbbell("ns3::TcpVegas", "fifo"));
}
void BM_Dctcp_netcc(benchmark::State& st) {
  Run(st, Dumbbell("ns3::NetccDctcp", "red"));
}
void BM_Dctcp_ns3(benchmark::State& st) {
  Run(st, Dumbbell("ns3::TcpDctcp", "red"));
}

void BM_Incast(benchmark::State& st, const std::string& cc, const std::string& transport,
               const std::string& queue) {
  ns3::NetccNs3Scenario s;
  s.topology = "incast";
  s.cc = cc;
  s.transport = transport;
  s.queue = queue;
  s.rate = ns3::DataRate("100Gbps");
  s.duration = ns3::MicroSeconds(1000);
  s.sample = ns3::MicroSeconds(100);
  s.expectedFlows = 10;
  ns3::NetccNs3DeriveDefaults(s);
  Run(st, s);
}

}  // namespace

BENCHMARK(BM_Vegas_netcc)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Vegas_ns3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Dctcp_netcc)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Dctcp_ns3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Incast, PowerTcp_tcp, std::string("ns3::NetccPowerTcp"), std::string("tcp"),
                  std::string("netcc"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Incast, NewReno_tcp, std::string("ns3::TcpNewReno"), std::string("tcp"),
                  std::string("netcc"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Incast, Dcqcn_rate, std::string("ns3::NetccDcqcn"), std::string("rate"),
                  std::string("netcc-red"))
    ->Unit(benchmark::kMillisecond);
