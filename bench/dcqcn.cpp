// SPDX-License-Identifier: MIT
// DCQCN reaction point (DCQCN SIGCOMM'15 §3.1, seed 003 Tables I-II): nanoseconds per event for
// double and q32 —
//   * cnp:   a CNP every 50 us (the NP's spacing): timers up to it (none due), the cut, alpha,
//            counter and timer restart;
//   * timer: on_timer every T = 55 us: one rate-timer increase event and one alpha-timer decay;
//   * send:  on_send of one 1 KB packet (the byte counter; a B stage completes every
//            10^4 calls), the common per-packet call;
//   * stage: on_send of B bytes: one byte-counter increase event per call;
//   * mixed: a recorded-style stream (a packet every 100 ns at 80 Gbps, a tick every 5 us, a
//            CNP every 50 us for 200 us out of each ms), cost per call.
// The flow is kept below the line rate (a CNP every 50 us or periodic CNPs) so increases do
// real work. Each for double, q32 and q32 with the 32-B compact state (netcc::dcqcn_compact,
// "<..., dcqcn_state_compact>"). Counters: "state_B" (per-flow state, basic_dcqcn::state_bytes:
// 64 B in full width, 32 B compact) and "object_B" (the whole controller with its parameters).
#include <benchmark/benchmark.h>

#include <cstdint>

#include <netcc/control/dcqcn.hpp>

namespace {

template <class Policy, class Storage>
void counters(benchmark::State& state) {
  using C = netcc::basic_dcqcn<Policy, Storage>;
  state.counters["state_B"] = static_cast<double>(C::state_bytes);
  state.counters["object_B"] = static_cast<double>(sizeof(C));
}

template <class Policy, class Storage = netcc::dcqcn_state_full>
void BM_dcqcn_cnp(benchmark::State& state) {
  netcc::basic_dcqcn<Policy, Storage> rp{};
  std::int64_t t = 0;
  for (auto _ : state) {
    t += 50'000;
    rp.on_cnp(netcc::cnp_event{.now = netcc::timestamp{t}});
    benchmark::DoNotOptimize(rp);
  }
  counters<Policy, Storage>(state);
}

template <class Policy, class Storage = netcc::dcqcn_state_full>
void BM_dcqcn_timer(benchmark::State& state) {
  netcc::basic_dcqcn<Policy, Storage> rp{};
  std::int64_t t = 0;
  std::uint64_t n = 0;
  for (auto _ : state) {
    if ((++n & 63) == 0) rp.on_cnp(netcc::cnp_event{.now = netcc::timestamp{t}});
    t += 55'000;  // one rate-timer and one alpha-timer period per call
    rp.on_timer(netcc::timestamp{t});
    benchmark::DoNotOptimize(rp);
  }
  counters<Policy, Storage>(state);
}

template <class Policy, class Storage = netcc::dcqcn_state_full>
void BM_dcqcn_send(benchmark::State& state) {
  netcc::basic_dcqcn<Policy, Storage> rp{};
  rp.on_cnp(netcc::cnp_event{.now = netcc::timestamp{0}});
  std::int64_t t = 0;
  for (auto _ : state) {
    t += 100;  // 1 KB every 100 ns; the timers fire every 550 calls
    rp.on_send(netcc::bytes{1000}, netcc::timestamp{t});
    benchmark::DoNotOptimize(rp);
  }
  counters<Policy, Storage>(state);
}

template <class Policy, class Storage = netcc::dcqcn_state_full>
void BM_dcqcn_stage(benchmark::State& state) {
  netcc::basic_dcqcn<Policy, Storage> rp{};
  std::int64_t t = 0;
  std::uint64_t n = 0;
  for (auto _ : state) {
    if ((n++ & 63) == 0) rp.on_cnp(netcc::cnp_event{.now = netcc::timestamp{t}});
    ++t;  // same timer period: only the byte counter works (one stage per call)
    rp.on_send(netcc::bytes{10'000'000}, netcc::timestamp{t});
    benchmark::DoNotOptimize(rp);
  }
  counters<Policy, Storage>(state);
}

template <class Policy, class Storage = netcc::dcqcn_state_full>
void BM_dcqcn_mixed(benchmark::State& state) {
  netcc::basic_dcqcn<Policy, Storage> rp{};
  std::int64_t t = 0;
  for (auto _ : state) {
    t += 100;
    if (t % 50'000 == 0 && t % 1'000'000 < 200'000) {
      rp.on_cnp(netcc::cnp_event{.now = netcc::timestamp{t}});
    } else if (t % 5'000 == 0) {
      rp.on_timer(netcc::timestamp{t});
    } else {
      rp.on_send(netcc::bytes{1000}, netcc::timestamp{t});
    }
    benchmark::DoNotOptimize(rp);
  }
  counters<Policy, Storage>(state);
}

BENCHMARK(BM_dcqcn_cnp<netcc::arith::ieee_double>);
BENCHMARK(BM_dcqcn_cnp<netcc::arith::q32>);
BENCHMARK(BM_dcqcn_timer<netcc::arith::ieee_double>);
BENCHMARK(BM_dcqcn_timer<netcc::arith::q32>);
BENCHMARK(BM_dcqcn_send<netcc::arith::ieee_double>);
BENCHMARK(BM_dcqcn_send<netcc::arith::q32>);
BENCHMARK(BM_dcqcn_stage<netcc::arith::ieee_double>);
BENCHMARK(BM_dcqcn_stage<netcc::arith::q32>);
BENCHMARK(BM_dcqcn_mixed<netcc::arith::ieee_double>);
BENCHMARK(BM_dcqcn_mixed<netcc::arith::q32>);
BENCHMARK_TEMPLATE(BM_dcqcn_cnp, netcc::arith::q32, netcc::dcqcn_state_compact);
BENCHMARK_TEMPLATE(BM_dcqcn_timer, netcc::arith::q32, netcc::dcqcn_state_compact);
BENCHMARK_TEMPLATE(BM_dcqcn_send, netcc::arith::q32, netcc::dcqcn_state_compact);
BENCHMARK_TEMPLATE(BM_dcqcn_stage, netcc::arith::q32, netcc::dcqcn_state_compact);
BENCHMARK_TEMPLATE(BM_dcqcn_mixed, netcc::arith::q32, netcc::dcqcn_state_compact);

}  // namespace
