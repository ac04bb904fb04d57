// SPDX-License-Identifier: MIT
// Swift (netcc/control/swift.hpp; SIGCOMM'20 Algorithm 1, §3.3-3.5): nanoseconds per ACK for the
// double controller and the same in q32 (the §3.5 flow-scaled target with its square root, in
// integers for q32, runs on every ACK), with netcc::ack_event (fabric window only) and with
// netcc::swift_ack_event (fabric and endpoint windows), and per timeout. Counters: "state_B", the
// per-flow state (two windows, two decrease clocks, the last RTT, retransmit_cnt and flags,
// padding included; static_asserted at 48 B in the header), and "object_B", the
// whole controller with its configuration. Feedback is a pre-generated ring of one-packet ACKs 2
// us apart whose RTTs straddle the target (30-90 us against about 64 us), so AI, MD and the
// once-per-RTT test all run. netcc::swift_compact (the q32 rules over a 32-B packed state: each
// event unpacks it and packs it back) runs the same entries back to back with q32. Many flows:
// netcc_bench_flows_at_scale (bench/flows_at_scale.cpp).
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <netcc/control/swift.hpp>

namespace {

constexpr std::size_t ring = 1024;

template <class E>
std::vector<E> events() {
  std::mt19937_64 rng(5);
  std::vector<E> v(ring);
  std::int64_t t = 0;
  for (auto& a : v) {
    t += 2'000;
    a.now = netcc::timestamp{t};
    a.rtt = netcc::duration{30'000 + static_cast<std::int64_t>(rng() % 60'000)};
    a.acked = netcc::bytes{1460};
    if constexpr (requires { a.remote_queuing; }) {
      a.remote_queuing = netcc::duration{static_cast<std::int64_t>(rng() % 70'000)};
    }
  }
  return v;
}

template <class C, class E>
void BM_swift_ack(benchmark::State& state) {
  const auto v = events<E>();
  C cc{};
  std::size_t i = 0;
  std::int64_t lap = 0;
  for (auto _ : state) {
    auto e = v[i & (ring - 1)];
    e.now += netcc::duration{lap};  // time keeps advancing across laps of the ring
    cc.on_ack(e);
    if ((++i & (ring - 1)) == 0) lap += 2'000 * static_cast<std::int64_t>(ring);
    benchmark::DoNotOptimize(cc);
  }
  benchmark::DoNotOptimize(cc.cwnd());
  state.counters["state_B"] = static_cast<double>(C::state_bytes);
  state.counters["object_B"] = static_cast<double>(sizeof(C));
}

template <class C>
void BM_swift_timeout(benchmark::State& state) {
  C cc{};
  std::int64_t t = 0;
  for (auto _ : state) {
    t += 1'000;
    cc.on_timeout(netcc::timestamp{t});
    cc.on_ack(netcc::ack_event{.now = netcc::timestamp{t}, .rtt = netcc::duration{20'000}});
    benchmark::DoNotOptimize(cc);
  }
  state.counters["state_B"] = static_cast<double>(C::state_bytes);
}

using swift_q32 = netcc::basic_swift<netcc::arith::q32>;

BENCHMARK(BM_swift_ack<netcc::swift, netcc::ack_event>)->Name("swift_ack/double");
BENCHMARK(BM_swift_ack<swift_q32, netcc::ack_event>)->Name("swift_ack/q32");
BENCHMARK(BM_swift_ack<netcc::swift_compact, netcc::ack_event>)->Name("swift_ack/compact");
BENCHMARK(BM_swift_ack<netcc::swift, netcc::swift_ack_event>)->Name("swift_ack_endpoint/double");
BENCHMARK(BM_swift_ack<swift_q32, netcc::swift_ack_event>)->Name("swift_ack_endpoint/q32");
BENCHMARK(BM_swift_ack<netcc::swift_compact, netcc::swift_ack_event>)
    ->Name("swift_ack_endpoint/compact");
BENCHMARK(BM_swift_timeout<netcc::swift>)->Name("swift_timeout_then_ack/double");
BENCHMARK(BM_swift_timeout<swift_q32>)->Name("swift_timeout_then_ack/q32");
BENCHMARK(BM_swift_timeout<netcc::swift_compact>)->Name("swift_timeout_then_ack/compact");

}  // namespace
