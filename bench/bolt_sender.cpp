// SPDX-License-Identifier: MIT
// Bolt sender (Algorithm 2, §4.2): nanoseconds per event, by event type (SRC, ACK, send) and
// arithmetic policy (double, q32), plus the per-flow state in bytes (counter "state_B") and the
// whole controller with its configuration ("sizeof_B"). Events come from a pre-generated ring
// of well-formed feedback: SRCs with queues of 0 to 20 packets and rtt_src of 2 to 6 us (47 % of
// them decrement; the controller restarts with the ring), ACKs advancing by one packet with INC
// on half of them (an AI round every ~64 ACKs), sends of full packets against a long pending
// count. "compact" is netcc::bolt_sender_compact (q32, 32-B state). bolt_flows/<policy>/<n>:
// n flows' states in one contiguous array (1 to 2^20) driven through a shared config, each event
// to a flow drawn at random, each flow seeing the one-flow stream of SRCs and ACKs in turn
// (flow_order.hpp): ns per event, and "bytes_per_flow".
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include <netcc/control/bolt_sender.hpp>

#include "flow_order.hpp"

namespace {

using namespace netcc::literals;

constexpr std::size_t ring = 4096;

std::vector<netcc::src_event> srcs() {
  std::mt19937_64 rng(7);
  std::vector<netcc::src_event> v(ring);
  std::int64_t t = 1'000'000;
  for (auto& e : v) {
    t += 100 + static_cast<std::int64_t>(rng() % 400);
    e = {.now = netcc::timestamp{t},
         .queue = netcc::bytes{static_cast<std::int64_t>(rng() % 20) * 1500},
         .link_rate = 100_Gbps,
         .tx_timestamp =
             static_cast<std::uint32_t>(t - 2000 - static_cast<std::int64_t>(rng() % 4000))};
  }
  return v;
}

std::vector<netcc::ack_event> acks() {
  std::mt19937_64 rng(9);
  std::vector<netcc::ack_event> v(ring);
  std::int64_t t = 1'000'000;
  netcc::sequence s = 0;
  for (auto& e : v) {
    t += 120;
    s += 1500;
    e = {.now = netcc::timestamp{t},
         .ack_seq = s,
         .snd_nxt = s + 96'000,
         .acked = 1500_B,
         .rtt = netcc::duration{8000 + static_cast<std::int64_t>(rng() % 2000)},
         .inc = (rng() & 1) != 0};
  }
  return v;
}

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

// Flows in random order (flow_order.hpp): each flow's j-th event is the one-flow stream's j-th
// (SRC and ACK in turn from the rings, time advanced by the laps before it).
template <class C>
void BM_bolt_flows(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto s = srcs();
  const auto a = acks();
  const typename C::config cfg{};
  netcc_bench::flow_array<typename C::flow_state> flows(n, cfg.initial_state());
  const netcc_bench::flow_order order(n);
  std::uint64_t i = 0;
  for (auto _ : state) {
    const auto f = order.at(i++);
    const std::uint64_t j = f.index;
    const std::size_t k = (j >> 1) & (ring - 1);
    const auto lap =
        static_cast<std::int64_t>(j / (2 * ring)) * 500 * static_cast<std::int64_t>(ring);
    auto& st = flows[f.flow];
    if (j & 1) {
      auto e = a[k];
      e.now += netcc::duration{lap};
      cfg.on_ack(st, e);
    } else {
      auto e = s[k];
      e.now += netcc::duration{lap};
      e.tx_timestamp += static_cast<std::uint32_t>(lap);
      cfg.on_src(st, e);
    }
  }
  benchmark::DoNotOptimize(flows.data());
  state.counters["bytes_per_flow"] = static_cast<double>(sizeof(typename C::flow_state));
  state.counters["flows"] = static_cast<double>(n);
}
BENCHMARK(BM_bolt_flows<bolt_double>)
    ->Name("bolt_flows/double")
    ->Arg(1)
    ->Arg(1 << 10)
    ->Arg(1 << 16)
    ->Arg(1 << 20);
BENCHMARK(BM_bolt_flows<bolt_q32>)
    ->Name("bolt_flows/q32")
    ->Arg(1)
    ->Arg(1 << 10)
    ->Arg(1 << 16)
    ->Arg(1 << 20);
BENCHMARK(BM_bolt_flows<bolt_compact>)
    ->Name("bolt_flows/compact")
    ->Arg(1)
    ->Arg(1 << 10)
    ->Arg(1 << 16)
    ->Arg(1 << 20);

}  // namespace
