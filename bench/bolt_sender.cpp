// SPDX-License-Identifier: MIT
// Bolt sender (Algorithm 2, §4.2): nanoseconds per event, by event type (SRC, ACK, send) and
// arithmetic policy (double, q32), plus the per-flow state in bytes (counter "state_B") and the
// whole controller with its configuration ("sizeof_B"). Events come from a pre-generated ring
// of well-formed feedback: SRCs with queues of 0 to 20 packets and rtt_src of 2 to 6 us (47 % of
// them decrement; the controller restarts with the ring), ACKs advancing by one packet with INC
// on half of them (an AI round every ~64 ACKs), sends of full packets against a long pending
// count. "compact" is netcc::bolt_sender_compact (q32, 32-B state). Many flows:
// netcc_bench_flows_at_scale (bench/flows_at_scale.cpp), on these rings (bench/bolt_events.hpp).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include <netcc/control/bolt_sender.hpp>

#include "bolt_events.hpp"

namespace {

using namespace netcc::literals;

using netcc_bench::acks;
constexpr std::size_t ring = netcc_bench::bolt_ring;
using netcc_bench::srcs;

template <class cc_t>
void BM_bolt_src(benchmark::State& state) {
  const auto v = srcs();
  // A window of 1 GiB: flow.rate is the host rate (reaction_factor 1), the window never reaches
  // min_cwnd within the ring, and 1927 of the 4096 SRCs decrement (the compact form lowers the
  // window to its 16 MB limit: the same factor and decrements).
  const cc_t fresh{{.cwnd_init = netcc::bytes{std::int64_t{1} << 30}}};
  cc_t cc = fresh;
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t k = i++ & (ring - 1);
    if (k == 0) cc = fresh;  // the same ring from the same state: decrements stay ~half
    cc.on_src(v[k]);
    benchmark::DoNotOptimize(cc);
  }
  state.counters["state_B"] = static_cast<double>(cc_t::state_bytes);
  state.counters["sizeof_B"] = static_cast<double>(sizeof(cc_t));
}
using bolt_double = netcc::basic_bolt_sender<netcc::arith::ieee_double>;
using bolt_q32 = netcc::basic_bolt_sender<netcc::arith::q32>;
using bolt_compact = netcc::bolt_sender_compact;

BENCHMARK(BM_bolt_src<bolt_double>)->Name("BM_bolt_src/double");
BENCHMARK(BM_bolt_src<bolt_q32>)->Name("BM_bolt_src/q32");
BENCHMARK(BM_bolt_src<bolt_compact>)->Name("BM_bolt_src/compact");

template <class cc_t>
void BM_bolt_ack(benchmark::State& state) {
  const auto v = acks();
  cc_t cc{};
  std::size_t i = 0;
  for (auto _ : state) {
    cc.on_ack(v[i++ & (ring - 1)]);
    benchmark::DoNotOptimize(cc);
  }
  state.counters["state_B"] = static_cast<double>(cc_t::state_bytes);
  state.counters["sizeof_B"] = static_cast<double>(sizeof(cc_t));
}
BENCHMARK(BM_bolt_ack<bolt_double>)->Name("BM_bolt_ack/double");
BENCHMARK(BM_bolt_ack<bolt_q32>)->Name("BM_bolt_ack/q32");
BENCHMARK(BM_bolt_ack<bolt_compact>)->Name("BM_bolt_ack/compact");

template <class cc_t>
void BM_bolt_send(benchmark::State& state) {
  cc_t cc{};
  cc.on_write(netcc::bytes{std::int64_t{1} << 50});
  std::int64_t t = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(cc.on_send(1500_B, netcc::timestamp{t += 120}));
  }
  state.counters["state_B"] = static_cast<double>(cc_t::state_bytes);
  state.counters["sizeof_B"] = static_cast<double>(sizeof(cc_t));
}
BENCHMARK(BM_bolt_send<bolt_double>)->Name("BM_bolt_send/double");
BENCHMARK(BM_bolt_send<bolt_q32>)->Name("BM_bolt_send/q32");
BENCHMARK(BM_bolt_send<bolt_compact>)->Name("BM_bolt_send/compact");

template <class cc_t>
void BM_bolt_outputs(benchmark::State& state) {
  cc_t cc{};
  for (auto _ : state) {
    benchmark::DoNotOptimize(cc.cwnd());
    benchmark::DoNotOptimize(cc.pacing_rate());
  }
}
BENCHMARK(BM_bolt_outputs<bolt_double>)->Name("BM_bolt_outputs/double");
BENCHMARK(BM_bolt_outputs<bolt_q32>)->Name("BM_bolt_outputs/q32");
BENCHMARK(BM_bolt_outputs<bolt_compact>)->Name("BM_bolt_outputs/compact");

}  // namespace
