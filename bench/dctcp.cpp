// SPDX-License-Identifier: MIT
// DCTCP (netcc/control/dctcp.hpp; SIGCOMM'10, RFC 8257): nanoseconds per ACK for the double
// controller (alpha as in Eq. 1), the same in q32, and the integer-only one (q32 window, alpha
// in 1/1024 units with g = 2^-4), with counters for the per-flow state ("state_B": window,
// ssthresh, alpha, the two byte counters, WindowEnd, the reduction window's end, reduction count
// and flags, padding included; 32 B in the compact integer form, TARGETS.md's budget) and the
// whole controller with its configuration ("object_B"), and the same ACKs through a shared
// config and an external flow_state ("dctcp_ack_state/..."). Feedback is a pre-generated ring
// of cumulative ACKs of one segment each, a quarter of them echoing CE, so every path runs: byte
// counting, the once-per-window alpha update, cuts at most once per window, slow start and
// congestion avoidance. The "_counting" entries grow by byte counting
// (netcc::dctcp_growth_counting) instead of MSS * acked / cwnd. TARGETS.md: <= 10 ns per event.
// Side by side with ns-3's TcpDctcp: adapters/ns3/bench/cc_side_by_side.cc.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include <netcc/control/dctcp.hpp>

namespace {

constexpr std::size_t ring = 1024;

std::vector<netcc::ack_event> acks() {
  std::mt19937_64 rng(3);
  std::vector<netcc::ack_event> v(ring);
  netcc::sequence s = 0;
  for (auto& a : v) {
    s += 1460;
    a = {.ack_seq = s,
         .snd_nxt = s + 60'000,
         .acked = netcc::bytes{1460},
         .ecn_echo = rng() % 4 == 0};
  }
  return v;
}

template <class C>
void BM_dctcp_ack(benchmark::State& state) {
  const auto v = acks();
  C cc{};
  std::size_t i = 0;
  for (auto _ : state) {
    cc.on_ack(v[i++ & (ring - 1)]);
    benchmark::DoNotOptimize(cc);
  }
  benchmark::DoNotOptimize(cc.cwnd());
  state.counters["state_B"] = static_cast<double>(C::state_bytes);
  state.counters["object_B"] = static_cast<double>(sizeof(C));
}
// The same ACKs through a shared config and an external flow_state (the logic the controller
// forwards to): bytes_per_flow = sizeof(flow_state).
template <class C>
void BM_dctcp_ack_state(benchmark::State& state) {
  const auto v = acks();
  const typename C::config cfg{};
  typename C::flow_state st = cfg.initial_state();
  std::size_t i = 0;
  for (auto _ : state) {
    cfg.on_ack(st, v[i++ & (ring - 1)]);
    benchmark::DoNotOptimize(st);
  }
  benchmark::DoNotOptimize(cfg.cwnd(st));
  state.counters["state_B"] = static_cast<double>(sizeof(st));
  state.counters["config_B"] = static_cast<double>(sizeof(cfg));
}
BENCHMARK(BM_dctcp_ack<netcc::dctcp>)->Name("dctcp_ack/double");
BENCHMARK(BM_dctcp_ack<netcc::basic_dctcp<netcc::arith::q32>>)->Name("dctcp_ack/q32");
BENCHMARK(BM_dctcp_ack<netcc::dctcp_fixed>)->Name("dctcp_ack/q32_alpha1024");
BENCHMARK(BM_dctcp_ack_state<netcc::dctcp>)->Name("dctcp_ack_state/double");
BENCHMARK(BM_dctcp_ack_state<netcc::basic_dctcp<netcc::arith::q32>>)->Name("dctcp_ack_state/q32");
BENCHMARK(BM_dctcp_ack_state<netcc::dctcp_fixed>)->Name("dctcp_ack_state/q32_alpha1024");
// Congestion avoidance by byte counting (netcc::dctcp_growth_counting, RFC 5681 §3.1's
// recommended method): no division per ACK.
BENCHMARK(BM_dctcp_ack<netcc::dctcp_counting>)->Name("dctcp_ack/double_counting");
BENCHMARK(BM_dctcp_ack<netcc::dctcp_fixed_counting>)->Name("dctcp_ack/q32_alpha1024_counting");
BENCHMARK(BM_dctcp_ack_state<netcc::dctcp_fixed_counting>)
    ->Name("dctcp_ack_state/q32_alpha1024_counting");

}  // namespace
