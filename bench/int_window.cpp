// SPDX-License-Identifier: MIT
// HPCC (SIGCOMM'19 Algorithm 1) and the FastTune sender (Algorithm 2): nanoseconds per ACK by
// INT hop count (1, 2, 5, 8) and arithmetic policy (double, q32), on netcc's 64-bit INT stack
// and on the HPCC wire format, with the per-flow state in bytes (counter "state_B") and the
// whole controller with its configuration ("object_B"). Every ACK yields a utilisation sample
// and a window update (MeasureInflight over all hops, the EWMA, ComputeWind / Eq. 4).
// The compact forms (netcc::hpcc_compact, netcc::fasttune_compact: 64-B states at wire width)
// per ACK on one flow, and flows at scale: 1 to 1M flow states in a contiguous array (compact
// states, or q32 controller objects), 5-hop ACKs delivered in random flow order, each flow
// seeing the one-flow ACK stream ("bytes_per_flow"; flow_order.hpp), the compact states also
// with each state prefetched ahead of its ACK (".../prefetch": the rest is the memory stall). The
// per-ACK entries also run over a 1024-ACK ring (", long_ring" in their names), where the
// choice of the most congested hop cannot be learnt by the branch predictor.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include <netcc/control/fasttune.hpp>
#include <netcc/control/hpcc.hpp>
#include <netcc/core/int_wire.hpp>

#include "flow_order.hpp"
#include "int_acks.hpp"

namespace {

using namespace netcc::literals;
using netcc_bench::int_acks;
using netcc_bench::long_ring;
using netcc_bench::ring;

template <class C, std::size_t Ring = ring>
void BM_int_window_ack(benchmark::State& state) {
  const auto acks = int_acks<typename C::estimator_type::stack_type>(
      static_cast<std::size_t>(state.range(0)), Ring);
  typename C::params_type p;
  p.host_rate = 100_Gbps;
  p.base_rtt = 10_us;
  p.expected_flows = 8;
  C cc{p};
  std::size_t i = 0;
  for (auto _ : state) {
    cc.on_ack(acks[i++ & (Ring - 1)]);
    benchmark::DoNotOptimize(cc);
  }
  benchmark::DoNotOptimize(cc.cwnd());
  state.counters["state_B"] = static_cast<double>(C::state_bytes);
  state.counters["object_B"] = static_cast<double>(sizeof(C));
  state.counters["hops"] = static_cast<double>(state.range(0));
}

using stack8 = netcc::int_stack<8>;
using wire5 = netcc::hpcc_int_format::stack;
using netcc::arith::ieee_double;
using netcc::arith::q32;

BENCHMARK(BM_int_window_ack<netcc::basic_hpcc<ieee_double, stack8>>)
    ->Arg(1)
    ->Arg(2)
    ->Arg(5)
    ->Arg(8);
BENCHMARK(BM_int_window_ack<netcc::basic_hpcc<q32, stack8>>)->Arg(1)->Arg(2)->Arg(5)->Arg(8);
BENCHMARK(BM_int_window_ack<netcc::basic_hpcc<ieee_double, wire5>>)->Arg(1)->Arg(5);
BENCHMARK(BM_int_window_ack<netcc::basic_hpcc<q32, wire5>>)->Arg(1)->Arg(5);
BENCHMARK(BM_int_window_ack<netcc::basic_fasttune<ieee_double, stack8>>)
    ->Arg(1)
    ->Arg(2)
    ->Arg(5)
    ->Arg(8);
BENCHMARK(BM_int_window_ack<netcc::basic_fasttune<q32, stack8>>)->Arg(1)->Arg(2)->Arg(5)->Arg(8);
BENCHMARK(BM_int_window_ack<netcc::basic_fasttune<ieee_double, wire5>>)->Arg(1)->Arg(5);
BENCHMARK(BM_int_window_ack<netcc::basic_fasttune<q32, wire5>>)->Arg(1)->Arg(5);
// The same controllers over the 1024-ACK ring (netcc_bench::long_ring), whose sequence of most
// congested hops a branch predictor cannot learn by heart.
BENCHMARK(BM_int_window_ack<netcc::basic_hpcc<ieee_double, stack8>, long_ring>)->Arg(1)->Arg(5);
BENCHMARK(BM_int_window_ack<netcc::basic_hpcc<q32, stack8>, long_ring>)->Arg(1)->Arg(5);
BENCHMARK(BM_int_window_ack<netcc::basic_fasttune<ieee_double, stack8>, long_ring>)->Arg(1)->Arg(5);
BENCHMARK(BM_int_window_ack<netcc::basic_fasttune<q32, stack8>, long_ring>)->Arg(1)->Arg(5);

// One flow through the compact form's config and an external state.
template <class C, std::size_t Ring = ring>
void BM_int_window_compact_ack(benchmark::State& state) {
  const auto acks =
      int_acks<typename C::stack_type>(static_cast<std::size_t>(state.range(0)), Ring);
  typename C::params_type p;
  p.host_rate = 100_Gbps;
  p.base_rtt = 10_us;
  p.expected_flows = 8;
  const typename C::config cfg{p};
  auto st = cfg.initial_state();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(cfg.on_ack(st, acks[i++ & (Ring - 1)]));
    benchmark::DoNotOptimize(st);
  }
  state.counters["state_B"] = static_cast<double>(sizeof(st));
  state.counters["hops"] = static_cast<double>(state.range(0));
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

BENCHMARK(BM_int_window_compact_ack<netcc::hpcc_compact>)->Arg(1)->Arg(5);
BENCHMARK(BM_int_window_compact_ack<netcc::fasttune_compact>)->Arg(1)->Arg(5);
BENCHMARK(BM_int_window_compact_ack<netcc::hpcc_compact, long_ring>)->Arg(1)->Arg(5);
BENCHMARK(BM_int_window_compact_ack<netcc::fasttune_compact, long_ring>)->Arg(1)->Arg(5);
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

}  // namespace
