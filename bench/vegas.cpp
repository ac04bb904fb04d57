// SPDX-License-Identifier: MIT
// TCP Vegas (netcc/control/vegas.hpp; JSAC'95, seed 003 Algorithm 3): nanoseconds per ACK for the
// double and the q32 controller and for vegas_compact (q32 with the 32-B state), with counters for
// the per-flow state ("state_B": window, ssthresh, BaseRTT, the round's minRTT, the round's and
// the last decrease's snd_nxt, counters and flags, padding included; 56 B in full width, 32 B
// compact, the budget of RTT controllers in fixed point) and the whole controller with its
// configuration ("object_B"). The ".../state_array" entries run 4096 flows' flow_state from one
// shared config (flows taken in turn), as a NIC keeps per-flow state apart from its parameters. Feedback is a pre-generated ring of cumulative ACKs of one segment
// each with RTT samples that wander around a base (so rounds end every ~20 ACKs with increases,
// holds and decreases); every ACK takes a sample, the round's last one also the per-RTT decision.
// TARGETS.md: <= 10 ns per event; ns-3's TcpVegas per-ACK call (PktsAcked + IncreaseWindow) costs
// about 58-62 ns on this machine through a harness of about 24 ns.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <netcc/control/vegas.hpp>

namespace {

constexpr std::size_t ring = 1024;

std::vector<netcc::ack_event> acks() {
  std::mt19937_64 rng(3);
  std::vector<netcc::ack_event> v(ring);
  netcc::sequence s = 0;
  for (auto& a : v) {
    s += 1460;
    // 20 segments in flight; RTTs 100-140 us: diff from 0 to ~6 packets at 20 packets.
    a = {.ack_seq = s,
         .snd_nxt = s + 20 * 1460,
         .acked = netcc::bytes{1460},
         .rtt = netcc::duration{100'000 + static_cast<std::int64_t>(rng() % 40'000)}};
  }
  return v;
}

template <class C>
void BM_vegas_ack(benchmark::State& state) {
  auto v = acks();
  C cc{{.init_cwnd = netcc::bytes{20 * 1460}}};
  std::size_t i = 0;
  netcc::sequence shift = 0;
  for (auto _ : state) {
    auto a = v[i & (ring - 1)];
    a.ack_seq += shift;
    a.snd_nxt += shift;
    cc.on_ack(a);
    if ((++i & (ring - 1)) == 0) shift += ring * 1460;  // keep the sequence numbers advancing
    benchmark::DoNotOptimize(cc);
  }
  benchmark::DoNotOptimize(cc.cwnd());
  state.counters["state_B"] = static_cast<double>(C::state_bytes);
  state.counters["object_B"] = static_cast<double>(sizeof(C));
}
template <class C>
void BM_vegas_ack_states(benchmark::State& state) {
  constexpr std::size_t flows = 4096;
  auto v = acks();
  const typename C::config cfg{{.init_cwnd = netcc::bytes{20 * 1460}}};
  std::vector<typename C::flow_state> st(flows, cfg.initial_state());
  std::size_t i = 0;
  for (auto _ : state) {
    // Flows in turn; each sees the ring's stream in order (its n-th ACK is the ring's n-th,
    // shifted by a ring's bytes per lap), so rounds end every ~20 of its ACKs as above.
    const std::size_t n = i / flows;
    // (A 48-B netcc::rtt_event built in registers, not a copy of the ring's ack_event with its
    // INT stack.)
    const auto& r = v[n & (ring - 1)];
    const auto shift = static_cast<netcc::sequence>(n / ring) * ring * 1460;
    auto& s = st[i & (flows - 1)];
    cfg.on_ack(s, netcc::rtt_event{.rtt = r.rtt,
                                   .acked = r.acked,
                                   .ack_seq = r.ack_seq + shift,
                                   .snd_nxt = r.snd_nxt + shift});
    benchmark::DoNotOptimize(s);
    ++i;
  }
  state.counters["state_B"] = static_cast<double>(sizeof(typename C::flow_state));
  state.counters["object_B"] = static_cast<double>(sizeof(C));
}

BENCHMARK(BM_vegas_ack<netcc::vegas>)->Name("vegas_ack/double");
BENCHMARK(BM_vegas_ack<netcc::vegas_fixed>)->Name("vegas_ack/q32");
BENCHMARK(BM_vegas_ack<netcc::vegas_compact>)->Name("vegas_ack/q32_compact");
BENCHMARK(BM_vegas_ack_states<netcc::vegas>)->Name("vegas_ack/double/state_array");
BENCHMARK(BM_vegas_ack_states<netcc::vegas_fixed>)->Name("vegas_ack/q32/state_array");
BENCHMARK(BM_vegas_ack_states<netcc::vegas_compact>)->Name("vegas_ack/q32_compact/state_array");

}  // namespace
