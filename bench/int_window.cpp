// SPDX-License-Identifier: MIT
// HPCC (SIGCOMM'19 Algorithm 1) and the FastTune sender (Algorithm 2): nanoseconds per ACK by
// INT hop count (1, 2, 5, 8) and arithmetic policy (double, q32), on netcc's 64-bit INT stack
// and on the HPCC wire format, with the per-flow state in bytes (counter "state_B") and the
// whole controller with its configuration ("object_B"). Every ACK yields a utilisation sample
// and a window update (MeasureInflight over all hops, the EWMA, ComputeWind / Eq. 4).
// The compact forms (netcc::hpcc_compact, netcc::fasttune_compact: 64-B states at wire width)
// per ACK on one flow (many flows: netcc_bench_flows_at_scale_int). The per-ACK entries also run over a 1024-ACK ring (", long_ring" in their names), where the
// choice of the most congested hop cannot be learnt by the branch predictor.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include <netcc/control/fasttune.hpp>
#include <netcc/control/hpcc.hpp>
#include <netcc/core/int_wire.hpp>

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

// One flow through the compact form's config and an external state. `Stack`: the ACKs' INT,
// decoded records (the form's stack_type) or the wire words as received (word_stack).
template <class C, std::size_t Ring = ring, class Stack = typename C::stack_type>
void BM_int_window_compact_ack(benchmark::State& state) {
  const auto acks = int_acks<Stack>(static_cast<std::size_t>(state.range(0)), Ring);
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

BENCHMARK(BM_int_window_compact_ack<netcc::hpcc_compact>)->Arg(1)->Arg(5);
BENCHMARK(BM_int_window_compact_ack<netcc::fasttune_compact>)->Arg(1)->Arg(5);
BENCHMARK(BM_int_window_compact_ack<netcc::hpcc_compact, long_ring>)->Arg(1)->Arg(5);
BENCHMARK(BM_int_window_compact_ack<netcc::fasttune_compact, long_ring>)->Arg(1)->Arg(5);
// The same ACKs carrying their INT as wire words (netcc::hpcc_int_format::word_stack): each hop
// is read from its word and the form's record keeps the word, with nothing packed per hop.
using words = netcc::hpcc_int_format::word_stack;
BENCHMARK(BM_int_window_compact_ack<netcc::hpcc_compact, ring, words>)
    ->Name("BM_int_window_compact_words<netcc::hpcc_compact>")
    ->Arg(1)
    ->Arg(5);
BENCHMARK(BM_int_window_compact_ack<netcc::fasttune_compact, ring, words>)
    ->Name("BM_int_window_compact_words<netcc::fasttune_compact>")
    ->Arg(1)
    ->Arg(5);
BENCHMARK(BM_int_window_compact_ack<netcc::hpcc_compact, long_ring, words>)
    ->Name("BM_int_window_compact_words<netcc::hpcc_compact, long_ring>")
    ->Arg(1)
    ->Arg(5);
BENCHMARK(BM_int_window_compact_ack<netcc::fasttune_compact, long_ring, words>)
    ->Name("BM_int_window_compact_words<netcc::fasttune_compact, long_ring>")
    ->Arg(1)
    ->Arg(5);

}  // namespace
