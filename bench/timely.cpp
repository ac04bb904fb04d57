// SPDX-License-Identifier: MIT
// TIMELY (SIGCOMM'15 Algorithm 1 with the §5 rules): nanoseconds per event for double and q32 —
//   * rtt:   on_rtt of a completion every 5 us (f = 0.25 of the 20 us min RTT) with RTTs
//            cycling through the gradient zone (rising and falling by a few us around 100 us),
//            so lines 1-4, the HAI counter, the §5 scale and lines 11-14 all run;
//   * bands: the same with RTTs cycling below T_low, inside the zone and above T_high, so every
//            branch of Algorithm 1 is taken;
//   * ack:   on_ack of a 16 KB segment: the §3.1 serialisation subtraction, then Algorithm 1
//            with the §5 application-limited test from the on_send meter;
//   * send:  on_send of one 1460 B packet (the §5 meter), the common per-packet call;
//   * mixed: a packet sent every 1.2 us (10 Gbps), a completion for every 11th, cost per call.
//   * rtt_compact: rtt with netcc::timely_compact (the q32 rules over a 32-B packed state).
// Counters: "state_B" (per-flow state, basic_timely::state_bytes = sizeof(flow_state),
// static_asserted in the header) and "object_B" (the whole controller with its configuration).
// Many flows: netcc_bench_flows_at_scale (bench/flows_at_scale.cpp).
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <vector>

#include <netcc/control/timely.hpp>

namespace {

template <class Policy>
void counters(benchmark::State& state) {
  state.counters["state_B"] = static_cast<double>(netcc::basic_timely<Policy>::state_bytes);
  state.counters["object_B"] = static_cast<double>(sizeof(netcc::basic_timely<Policy>));
}

// RTTs in ns around 100 us: rising and falling runs, so the gradient changes sign.
constexpr std::array<std::int64_t, 16> zone{100'000, 103'000, 107'000, 110'000, 112'000, 111'000,
                                            108'000, 104'000, 100'000, 97'000,  95'000,  94'000,
                                            96'000,  99'000,  101'000, 100'500};
// RTTs in every band: below T_low (50 us), the zone, above T_high (500 us).
constexpr std::array<std::int64_t, 8> bands{30'000,  120'000, 60'000,  700'000,
                                            480'000, 45'000,  150'000, 900'000};

template <class C>
void rtt_loop(benchmark::State& state, C& cc) {
  std::int64_t t = 0;
  std::size_t i = 0;
  for (auto _ : state) {
    t += 5'000;
    cc.on_rtt(netcc::rtt_event{.now = netcc::timestamp{t}, .rtt = netcc::duration{zone[i]}});
    i = (i + 1) % zone.size();
    benchmark::DoNotOptimize(cc);
  }
}

template <class Policy>
void BM_timely_rtt(benchmark::State& state) {
  netcc::basic_timely<Policy> cc{{.initial_rate = netcc::bit_rate{5'000'000'000}}};
  rtt_loop(state, cc);
  counters<Policy>(state);
}

// netcc::timely_compact: the q32 rules over the 32-B packed state (unpack, q32 rule, pack).
void BM_timely_rtt_compact(benchmark::State& state) {
  netcc::timely_compact cc{{.initial_rate = netcc::bit_rate{5'000'000'000}}};
  rtt_loop(state, cc);
  state.counters["state_B"] = static_cast<double>(netcc::timely_compact::state_bytes);
  state.counters["object_B"] = static_cast<double>(sizeof(netcc::timely_compact));
}

template <class Policy>
void BM_timely_bands(benchmark::State& state) {
  netcc::basic_timely<Policy> cc{{.initial_rate = netcc::bit_rate{5'000'000'000}}};
  std::int64_t t = 0;
  std::size_t i = 0;
  for (auto _ : state) {
    t += 5'000;
    cc.on_rtt(netcc::rtt_event{.now = netcc::timestamp{t}, .rtt = netcc::duration{bands[i]}});
    i = (i + 1) % bands.size();
    benchmark::DoNotOptimize(cc);
  }
  counters<Policy>(state);
}

template <class Policy>
void BM_timely_ack(benchmark::State& state) {
  netcc::basic_timely<Policy> cc{{.initial_rate = netcc::bit_rate{5'000'000'000}}};
  std::int64_t t = 0;
  std::size_t i = 0;
  for (auto _ : state) {
    t += 25'600;  // one 16 KB segment per 25.6 us: 5 Gbps
    cc.on_send(netcc::bytes{16'000}, netcc::timestamp{t});
    // Completion time = RTT + 12.8 us of serialisation at 10 Gbps.
    cc.on_ack(netcc::ack_event{.now = netcc::timestamp{t},
                               .acked = netcc::bytes{16'000},
                               .rtt = netcc::duration{zone[i] + 12'800}});
    i = (i + 1) % zone.size();
    benchmark::DoNotOptimize(cc);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.SetLabel("on_send + on_ack per iteration");
  counters<Policy>(state);
}

template <class Policy>
void BM_timely_send(benchmark::State& state) {
  netcc::basic_timely<Policy> cc{};
  std::int64_t t = 0;
  for (auto _ : state) {
    t += 1'200;
    cc.on_send(netcc::bytes{1'460}, netcc::timestamp{t});
    benchmark::DoNotOptimize(cc);
  }
  counters<Policy>(state);
}

template <class Policy>
void BM_timely_mixed(benchmark::State& state) {
  netcc::basic_timely<Policy> cc{{.initial_rate = netcc::bit_rate{5'000'000'000}}};
  std::int64_t t = 0;
  std::uint32_t n = 0;
  std::size_t i = 0;
  for (auto _ : state) {
    t += 1'200;
    if (++n % 11 == 0) {
      cc.on_ack(netcc::ack_event{.now = netcc::timestamp{t},
                                 .acked = netcc::bytes{1'460},
                                 .rtt = netcc::duration{zone[i]}});
      i = (i + 1) % zone.size();
    } else {
      cc.on_send(netcc::bytes{1'460}, netcc::timestamp{t});
    }
    benchmark::DoNotOptimize(cc);
  }
  counters<Policy>(state);
}

BENCHMARK(BM_timely_rtt<netcc::arith::ieee_double>);
BENCHMARK(BM_timely_rtt<netcc::arith::q32>);
BENCHMARK(BM_timely_rtt_compact);
BENCHMARK(BM_timely_bands<netcc::arith::ieee_double>);
BENCHMARK(BM_timely_bands<netcc::arith::q32>);
BENCHMARK(BM_timely_ack<netcc::arith::ieee_double>);
BENCHMARK(BM_timely_ack<netcc::arith::q32>);
BENCHMARK(BM_timely_send<netcc::arith::ieee_double>);
BENCHMARK(BM_timely_send<netcc::arith::q32>);
BENCHMARK(BM_timely_mixed<netcc::arith::ieee_double>);
BENCHMARK(BM_timely_mixed<netcc::arith::q32>);

}  // namespace
