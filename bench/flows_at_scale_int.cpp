// SPDX-License-Identifier: MIT
// Flows at scale for the INT controllers and theta-PowerTCP: 1 to 2^20 flows' states in one
// contiguous, cache-line-aligned array (the compact forms' 64-B and 32-B states, or q32
// controller objects), events in random flow order, each flow seeing the one-flow stream of the
// per-ACK benchmarks (its j-th ACK the ring's j-th, flow_order.hpp). The compact states also run
// with each state prefetched ahead of its event (".../prefetch"): the difference between the two
// entries is the memory stall. "bytes_per_flow" is the array's stride. These entries live apart
// from the per-ACK benchmarks (int_window.cpp, powertcp.cpp) so that neither file's code changes
// how the compiler builds the other's loops.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include <netcc/control/fasttune.hpp>
#include <netcc/control/hpcc.hpp>
#include <netcc/control/powertcp.hpp>
#include <netcc/core/int_wire.hpp>

#include "flow_order.hpp"
#include "int_acks.hpp"
#include "theta_events.hpp"

namespace {

using namespace netcc::literals;
using netcc_bench::int_acks;
using netcc_bench::ring;
using netcc_bench::theta_events;
using netcc_bench::theta_params;
using wire5 = netcc::hpcc_int_format::stack;
using netcc::arith::q32;

netcc::powertcp_params bench_params() {
  return {.host_rate = 100_Gbps, .base_rtt = 10_us, .expected_flows = 8};
}

// Flows in random order (flow_order.hpp): each flow's j-th ACK is the ring's j-th (mod the
// ring), as on one flow, so every flow's ACKs advance its timestamps and counters and the
// per-ACK work is that of one flow at every N; only where the states are changes. With
// Prefetch, the state of the ACK prefetch_distance ahead is fetched first.
template <class C, bool Prefetch = false>
void BM_int_window_compact_flows(benchmark::State& state) {
  const auto flows = static_cast<std::size_t>(state.range(0));
  const auto acks = int_acks<typename C::stack_type>(5);
  const netcc_bench::flow_order order(flows);
  typename C::params_type p;
  p.host_rate = 100_Gbps;
  p.base_rtt = 10_us;
  p.expected_flows = 8;
  const typename C::config cfg{p};
  netcc_bench::flow_array<typename C::flow_state> st(flows, cfg.initial_state());
  std::uint64_t k = 0;
  for (auto _ : state) {
    if constexpr (Prefetch)
      netcc_bench::prefetch(st[order.flow(k + netcc_bench::prefetch_distance)]);
    const auto e = order.at(k++);
    benchmark::DoNotOptimize(cfg.on_ack(st[e.flow], acks[e.index & (ring - 1)]));
  }
  state.counters["bytes_per_flow"] = static_cast<double>(sizeof(typename C::flow_state));
  state.counters["flows"] = static_cast<double>(flows);
}

template <class C>
void BM_int_window_object_flows(benchmark::State& state) {
  const auto flows = static_cast<std::size_t>(state.range(0));
  const auto acks = int_acks<typename C::estimator_type::stack_type>(5);
  const netcc_bench::flow_order order(flows);
  typename C::params_type p;
  p.host_rate = 100_Gbps;
  p.base_rtt = 10_us;
  p.expected_flows = 8;
  netcc_bench::flow_array<C> cc(flows, C{p});
  std::uint64_t k = 0;
  for (auto _ : state) {
    const auto e = order.at(k++);
    C& c = cc[e.flow];
    c.on_ack(acks[e.index & (ring - 1)]);
    benchmark::DoNotOptimize(c);
  }
  state.counters["bytes_per_flow"] = static_cast<double>(sizeof(C));
  state.counters["flows"] = static_cast<double>(flows);
}

BENCHMARK(BM_int_window_compact_flows<netcc::hpcc_compact>)->RangeMultiplier(16)->Range(1, 1 << 20);
BENCHMARK(BM_int_window_compact_flows<netcc::fasttune_compact>)
    ->RangeMultiplier(16)
    ->Range(1, 1 << 20);
BENCHMARK(BM_int_window_object_flows<netcc::basic_hpcc<q32, wire5>>)
    ->RangeMultiplier(16)
    ->Range(1, 1 << 20);
BENCHMARK(BM_int_window_compact_flows<netcc::hpcc_compact, true>)
    ->Name("BM_int_window_compact_flows<netcc::hpcc_compact>/prefetch")
    ->RangeMultiplier(16)
    ->Range(1, 1 << 20);
BENCHMARK(BM_int_window_compact_flows<netcc::fasttune_compact, true>)
    ->Name("BM_int_window_compact_flows<netcc::fasttune_compact>/prefetch")
    ->RangeMultiplier(16)
    ->Range(1, 1 << 20);

// Flows at scale: 1 to 1M flow states in a contiguous array (compact states, or q32 controller
// objects), events delivered in random flow order, each flow's j-th event the ring's j-th as on
// one flow (flow_order.hpp); "bytes_per_flow" is the array's stride. With Prefetch, the state of
// the event prefetch_distance ahead is fetched first (the rest is the memory stall).
template <bool Prefetch = false>
void BM_theta_powertcp_compact_flows(benchmark::State& state) {
  const auto flows = static_cast<std::size_t>(state.range(0));
  const auto v = theta_events();
  const netcc_bench::flow_order order(flows);
  const netcc::theta_powertcp_compact::config cfg{theta_params};
  netcc_bench::flow_array<netcc::theta_powertcp_compact::flow_state> st(flows, cfg.initial_state());
  std::uint64_t k = 0;
  for (auto _ : state) {
    if constexpr (Prefetch)
      netcc_bench::prefetch(st[order.flow(k + netcc_bench::prefetch_distance)]);
    const auto e = order.at(k++);
    auto& s = st[e.flow];
    cfg.on_ack(s, v[e.index & (ring - 1)]);
    benchmark::DoNotOptimize(s);
  }
  state.counters["bytes_per_flow"] = static_cast<double>(sizeof(st[0]));
  state.counters["flows"] = static_cast<double>(flows);
}
BENCHMARK(BM_theta_powertcp_compact_flows<>)
    ->Name("BM_theta_powertcp_compact_flows")
    ->RangeMultiplier(16)
    ->Range(1, 1 << 20);
BENCHMARK(BM_theta_powertcp_compact_flows<true>)
    ->Name("BM_theta_powertcp_compact_flows/prefetch")
    ->RangeMultiplier(16)
    ->Range(1, 1 << 20);

void BM_theta_powertcp_q32_flows(benchmark::State& state) {
  using cc_t = netcc::basic_powertcp<netcc::arith::q32, netcc::rtt_power>;
  const auto flows = static_cast<std::size_t>(state.range(0));
  const auto v = theta_events();
  const netcc_bench::flow_order order(flows);
  netcc_bench::flow_array<cc_t> cc(flows, cc_t{theta_params});
  std::uint64_t k = 0;
  for (auto _ : state) {
    const auto e = order.at(k++);
    auto& c = cc[e.flow];
    c.on_ack(v[e.index & (ring - 1)]);
    benchmark::DoNotOptimize(c);
  }
  state.counters["bytes_per_flow"] = static_cast<double>(sizeof(cc_t));
  state.counters["flows"] = static_cast<double>(flows);
}
BENCHMARK(BM_theta_powertcp_q32_flows)->RangeMultiplier(16)->Range(1, 1 << 20);

template <bool Prefetch = false>
void BM_powertcp_compact_flows(benchmark::State& state) {
  const auto flows = static_cast<std::size_t>(state.range(0));
  const auto acks = int_acks<wire5>(5);
  const netcc_bench::flow_order order(flows);
  const netcc::powertcp_compact::config cfg{bench_params()};
  netcc_bench::flow_array<netcc::powertcp_compact::flow_state> st(flows, cfg.initial_state());
  std::uint64_t k = 0;
  for (auto _ : state) {
    if constexpr (Prefetch)
      netcc_bench::prefetch(st[order.flow(k + netcc_bench::prefetch_distance)]);
    const auto e = order.at(k++);
    auto& s = st[e.flow];
    benchmark::DoNotOptimize(cfg.on_ack(s, acks[e.index & (ring - 1)]));
    benchmark::DoNotOptimize(s);
  }
  state.counters["bytes_per_flow"] = static_cast<double>(sizeof(st[0]));
  state.counters["flows"] = static_cast<double>(flows);
}
BENCHMARK(BM_powertcp_compact_flows<>)
    ->Name("BM_powertcp_compact_flows")
    ->RangeMultiplier(16)
    ->Range(1, 1 << 20);
BENCHMARK(BM_powertcp_compact_flows<true>)
    ->Name("BM_powertcp_compact_flows/prefetch")
    ->RangeMultiplier(16)
    ->Range(1, 1 << 20);

void BM_powertcp_q32_wire_flows(benchmark::State& state) {
  using cc_t = netcc::basic_powertcp<netcc::arith::q32, netcc::int_power<wire5>>;
  const auto flows = static_cast<std::size_t>(state.range(0));
  const auto acks = int_acks<wire5>(5);
  const netcc_bench::flow_order order(flows);
  netcc_bench::flow_array<cc_t> cc(flows, cc_t{bench_params()});
  std::uint64_t k = 0;
  for (auto _ : state) {
    const auto e = order.at(k++);
    auto& c = cc[e.flow];
    c.on_ack(acks[e.index & (ring - 1)]);
    benchmark::DoNotOptimize(c);
  }
  state.counters["bytes_per_flow"] = static_cast<double>(sizeof(cc_t));
  state.counters["flows"] = static_cast<double>(flows);
}
BENCHMARK(BM_powertcp_q32_wire_flows)->RangeMultiplier(16)->Range(1, 1 << 16);

}  // namespace
