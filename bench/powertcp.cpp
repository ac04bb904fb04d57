// SPDX-License-Identifier: MIT
// PowerTCP (INT, Algorithm 1) and theta-PowerTCP (Algorithm 2): nanoseconds per ACK, by INT hop
// count (1, 2, 5, 8) and arithmetic policy (double, q32), plus the HPCC wire format, and the
// controller's size in bytes (counter "state_B"). Feedback is a pre-generated ring of
// well-formed ACKs (every ACK yields a power sample and a window update), so the numbers are
// the full per-ACK path: GETCWND, NORMPOWER over all hops, smoothing, UPDATEWINDOW, UPDATEOLD.
// The 1- and 5-hop entries also run over a 1024-ACK ring (", long_ring" in their names), whose
// choice of hop a branch predictor cannot learn by heart as it can the 128-ACK ring's.
// theta-PowerTCP's 32-B compact form per ACK. PowerTCP's 64-B compact form
// (netcc::powertcp_compact, HPCC's wire format) per ACK at 1 and 5 hops next to the q32 object on
// the same stack. Many flows: netcc_bench_flows_at_scale_int (bench/flows_at_scale_int.cpp).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include <netcc/control/powertcp.hpp>
#include <netcc/core/int_wire.hpp>

#include "int_acks.hpp"
#include "theta_events.hpp"

namespace {

using namespace netcc::literals;
using netcc_bench::int_acks;
using netcc_bench::long_ring;
using netcc_bench::ring;
using netcc_bench::theta_events;
using netcc_bench::theta_params;

netcc::powertcp_params bench_params() {
  return {.host_rate = 100_Gbps, .base_rtt = 10_us, .expected_flows = 8};
}

template <class Policy, class Stack, std::size_t Ring = ring>
void BM_powertcp_ack(benchmark::State& state) {
  using cc_t = netcc::basic_powertcp<Policy, netcc::int_power<Stack>>;
  const auto acks = int_acks<Stack>(static_cast<std::size_t>(state.range(0)), Ring);
  cc_t cc{bench_params()};
  std::size_t i = 0;
  for (auto _ : state) {
    cc.on_ack(acks[i++ & (Ring - 1)]);
    benchmark::DoNotOptimize(cc);
  }
  benchmark::DoNotOptimize(cc.cwnd());
  state.counters["state_B"] = static_cast<double>(sizeof(cc_t));
  state.counters["hops"] = static_cast<double>(state.range(0));
}

using stack8 = netcc::int_stack<8>;
using wire5 = netcc::hpcc_int_format::stack;

BENCHMARK(BM_powertcp_ack<netcc::arith::ieee_double, stack8>)->Arg(1)->Arg(2)->Arg(5)->Arg(8);
BENCHMARK(BM_powertcp_ack<netcc::arith::q32, stack8>)->Arg(1)->Arg(2)->Arg(5)->Arg(8);
BENCHMARK(BM_powertcp_ack<netcc::arith::ieee_double, netcc::int_stack<5>>)->Arg(5);
BENCHMARK(BM_powertcp_ack<netcc::arith::ieee_double, wire5>)->Arg(1)->Arg(5);
BENCHMARK(BM_powertcp_ack<netcc::arith::q32, wire5>)->Arg(1)->Arg(5);
// Over the 1024-ACK ring (netcc_bench::long_ring): a choice of hop the predictor cannot learn.
BENCHMARK(BM_powertcp_ack<netcc::arith::ieee_double, stack8, long_ring>)->Arg(1)->Arg(5);
BENCHMARK(BM_powertcp_ack<netcc::arith::q32, stack8, long_ring>)->Arg(1)->Arg(5);

template <class Policy>
void BM_theta_powertcp_ack(benchmark::State& state) {
  using cc_t = netcc::basic_powertcp<Policy, netcc::rtt_power>;
  const auto v = theta_events();
  cc_t cc{theta_params};
  std::size_t i = 0;
  for (auto _ : state) {
    cc.on_ack(v[i++ & (ring - 1)]);
    benchmark::DoNotOptimize(cc);
  }
  state.counters["state_B"] = static_cast<double>(sizeof(cc_t));
}
BENCHMARK(BM_theta_powertcp_ack<netcc::arith::ieee_double>);
BENCHMARK(BM_theta_powertcp_ack<netcc::arith::q32>);

// theta-PowerTCP's 32-B compact form (netcc::theta_powertcp_compact) on one flow.
void BM_theta_powertcp_compact_ack(benchmark::State& state) {
  const auto v = theta_events();
  const netcc::theta_powertcp_compact::config cfg{theta_params};
  auto st = cfg.initial_state();
  std::size_t i = 0;
  for (auto _ : state) {
    cfg.on_ack(st, v[i++ & (ring - 1)]);
    benchmark::DoNotOptimize(st);
  }
  state.counters["state_B"] = static_cast<double>(sizeof(st));
}
BENCHMARK(BM_theta_powertcp_compact_ack);

// PowerTCP's 64-B compact form (netcc::powertcp_compact) on one flow, wire-format ACKs: their
// INT decoded (wire5) or as the wire words (word_stack), which the form's records keep as they
// came.
template <std::size_t Ring = ring, class Stack = wire5>
void BM_powertcp_compact_ack(benchmark::State& state) {
  const auto acks = int_acks<Stack>(static_cast<std::size_t>(state.range(0)), Ring);
  const netcc::powertcp_compact::config cfg{bench_params()};
  auto st = cfg.initial_state();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(cfg.on_ack(st, acks[i++ & (Ring - 1)]));
    benchmark::DoNotOptimize(st);
  }
  state.counters["state_B"] = static_cast<double>(sizeof(st));
  state.counters["hops"] = static_cast<double>(state.range(0));
}
BENCHMARK(BM_powertcp_compact_ack<>)->Name("BM_powertcp_compact_ack")->Arg(1)->Arg(5);
BENCHMARK(BM_powertcp_compact_ack<long_ring>)->Arg(1)->Arg(5);
using words = netcc::hpcc_int_format::word_stack;
BENCHMARK(BM_powertcp_compact_ack<ring, words>)->Name("BM_powertcp_compact_words")->Arg(1)->Arg(5);
BENCHMARK(BM_powertcp_compact_ack<long_ring, words>)
    ->Name("BM_powertcp_compact_words<long_ring>")
    ->Arg(1)
    ->Arg(5);

template <class C>
void BM_powertcp_outputs(benchmark::State& state) {
  C cc{};
  for (auto _ : state) {
    benchmark::DoNotOptimize(cc.cwnd());
    benchmark::DoNotOptimize(cc.pacing_rate());
  }
}
BENCHMARK(BM_powertcp_outputs<netcc::powertcp>);
BENCHMARK(BM_powertcp_outputs<netcc::basic_powertcp<netcc::arith::q32>>);

}  // namespace
