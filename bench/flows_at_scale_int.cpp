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
using words5 = netcc::hpcc_int_format::word_stack;
using netcc::arith::q32;

// Flows in random order (flow_order.hpp): each flow's j-th event is the ring's j-th (mod the
// ring), as on one flow, so every flow's ACKs advance its timestamps and counters and the
// per-ACK work is that of one flow at every N; only where the states are changes.

// An array of states run by `cfg`, event j of a flow being events[j mod ring] (netcc_bench::drive).
template <bool Prefetch, class Config, class Event>
void run_states(benchmark::State& state, const Config& cfg, const std::vector<Event>& events) {
  netcc_bench::flow_array<decltype(cfg.initial_state())> st(
      static_cast<std::size_t>(state.range(0)), cfg.initial_state());
  netcc_bench::drive<Prefetch>(
      state, st, [&](auto& s, std::uint64_t j) { cfg.on_ack(s, events[j & (ring - 1)]); }, false);
}

// An array of controller objects, copies of `proto`.
template <class C, class Event>
void run_objects(benchmark::State& state, const C& proto, const std::vector<Event>& events) {
  netcc_bench::flow_array<C> cc(static_cast<std::size_t>(state.range(0)), proto);
  netcc_bench::drive<false>(
      state, cc, [&](C& c, std::uint64_t j) { c.on_ack(events[j & (ring - 1)]); }, false);
}

template <class P>
P int_params() {
  P p;
  p.host_rate = 100_Gbps;
  p.base_rtt = 10_us;
  p.expected_flows = 8;
  return p;
}

// HPCC's and FastTune's compact forms at 5 hops, wire-format ACKs carrying their INT as the wire
// words (as a NIC receives them; the forms keep each word as it came).
template <class C, bool Prefetch = false>
void BM_int_window_compact_flows(benchmark::State& state) {
  const typename C::config cfg{int_params<typename C::params_type>()};
  run_states<Prefetch>(state, cfg, int_acks<words5>(5));
}

template <class C>
void BM_int_window_object_flows(benchmark::State& state) {
  run_objects(state, C{int_params<typename C::params_type>()},
              int_acks<typename C::estimator_type::stack_type>(5));
}

template <bool Prefetch = false>
void BM_theta_powertcp_compact_flows(benchmark::State& state) {
  const netcc::theta_powertcp_compact::config cfg{theta_params};
  run_states<Prefetch>(state, cfg, theta_events());
}

void BM_theta_powertcp_q32_flows(benchmark::State& state) {
  using cc_t = netcc::basic_powertcp<q32, netcc::rtt_power>;
  run_objects(state, cc_t{theta_params}, theta_events());
}

template <bool Prefetch = false>
void BM_powertcp_compact_flows(benchmark::State& state) {
  const netcc::powertcp_compact::config cfg{int_params<netcc::powertcp_params>()};
  run_states<Prefetch>(state, cfg, int_acks<words5>(5));
}

void BM_powertcp_q32_wire_flows(benchmark::State& state) {
  using cc_t = netcc::basic_powertcp<q32, netcc::int_power<wire5>>;
  run_objects(state, cc_t{int_params<netcc::powertcp_params>()}, int_acks<wire5>(5));
}

void sizes(benchmark::internal::Benchmark* b) {
  b->RangeMultiplier(16)->Range(1, 1 << 20);
}

BENCHMARK(BM_int_window_compact_flows<netcc::hpcc_compact>)->Apply(sizes);
BENCHMARK(BM_int_window_compact_flows<netcc::fasttune_compact>)->Apply(sizes);
BENCHMARK(BM_int_window_object_flows<netcc::basic_hpcc<q32, wire5>>)->Apply(sizes);
BENCHMARK(BM_theta_powertcp_compact_flows<>)->Name("BM_theta_powertcp_compact_flows")->Apply(sizes);
BENCHMARK(BM_theta_powertcp_q32_flows)->Apply(sizes);
BENCHMARK(BM_powertcp_compact_flows<>)->Name("BM_powertcp_compact_flows")->Apply(sizes);
BENCHMARK(BM_powertcp_q32_wire_flows)->RangeMultiplier(16)->Range(1, 1 << 16);
// The compact states again, each prefetched prefetch_distance events ahead of its event.
BENCHMARK(BM_int_window_compact_flows<netcc::hpcc_compact, true>)
    ->Name("BM_int_window_compact_flows<netcc::hpcc_compact>/prefetch")
    ->Apply(sizes);
BENCHMARK(BM_int_window_compact_flows<netcc::fasttune_compact, true>)
    ->Name("BM_int_window_compact_flows<netcc::fasttune_compact>/prefetch")
    ->Apply(sizes);
BENCHMARK(BM_theta_powertcp_compact_flows<true>)
    ->Name("BM_theta_powertcp_compact_flows/prefetch")
    ->Apply(sizes);
BENCHMARK(BM_powertcp_compact_flows<true>)
    ->Name("BM_powertcp_compact_flows/prefetch")
    ->Apply(sizes);

}  // namespace
