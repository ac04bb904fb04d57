// SPDX-License-Identifier: MIT
// Switch queue functions, one packet per iteration (ns per packet): RED/ECN marking by the
// direct formula and by the compile-time table, the DCQCN notification point (both modes,
// 1024 flows), PFC with per-Gbps and with precomputed thresholds, and the token bucket (offer
// and earliest-conforming time). Inputs are pre-generated random packets; counters give the
// per-port/per-flow state size in bytes.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include <netcc/fabric/dcqcn_np.hpp>
#include <netcc/fabric/pfc.hpp>
#include <netcc/fabric/red_ecn.hpp>
#include <netcc/fabric/token_bucket.hpp>

namespace {

struct pkt {
  std::int64_t backlog;
  std::uint32_t draw;
  std::uint32_t flow;
  std::int64_t dt;
  std::int64_t size;
  std::uint8_t ecn;
};

const std::vector<pkt>& packets() {
  static const std::vector<pkt> v = [] {
    std::mt19937_64 rng(7);
    std::vector<pkt> r(4096);
    for (auto& p : r) {
      p.backlog = static_cast<std::int64_t>(rng() % 2'000'000);
      p.draw = static_cast<std::uint32_t>(rng());
      p.flow = static_cast<std::uint32_t>(rng() % 1024);
      p.dt = static_cast<std::int64_t>(rng() % 200);
      p.size = 64 + static_cast<std::int64_t>(rng() % 1437);
      p.ecn = static_cast<std::uint8_t>(rng() % 4);
    }
    return r;
  }();
  return v;
}

void BM_red_direct(benchmark::State& state) {
  const auto& v = packets();
  const netcc::red_ecn_params p;
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& k = v[i++ & 4095];
    benchmark::DoNotOptimize(netcc::red_ecn_on_packet(static_cast<netcc::ecn_codepoint>(k.ecn),
                                                      netcc::bytes{k.backlog / 8}, k.draw, p));
  }
  state.counters["state_B"] = 0;  // stateless: the backlog is the port view
}
BENCHMARK(BM_red_direct);

void BM_red_table(benchmark::State& state) {
  static constexpr auto table = netcc::make_red_ecn_table<1024>(netcc::red_ecn_params{}, 8);
  const auto& v = packets();
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& k = v[i++ & 4095];
    benchmark::DoNotOptimize(table.on_packet(static_cast<netcc::ecn_codepoint>(k.ecn),
                                             netcc::bytes{k.backlog / 8}, k.draw));
  }
  state.counters["state_B"] = 0;
  state.counters["table_B"] = static_cast<double>(table.size_bytes);
}
BENCHMARK(BM_red_table);

void BM_dcqcn_np(benchmark::State& state) {
  const auto& v = packets();
  const netcc::dcqcn_np_params p{.mode = state.range(0) ? netcc::dcqcn_np_mode::schedule
                                                        : netcc::dcqcn_np_mode::suppress};
  std::vector<netcc::dcqcn_np_flow_state> flows(1024);
  std::int64_t now = 0;
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& k = v[i++ & 4095];
    now += k.dt;
    benchmark::DoNotOptimize(
        netcc::dcqcn_np_on_packet(flows[k.flow], (k.draw & 3) != 0, netcc::timestamp{now}, p));
  }
  state.counters["state_B"] = sizeof(netcc::dcqcn_np_flow_state);
  state.SetLabel(state.range(0) ? "schedule" : "suppress");
}
BENCHMARK(BM_dcqcn_np)->Arg(0)->Arg(1);

void BM_pfc_per_gbps(benchmark::State& state) {
  const auto& v = packets();
  const netcc::pfc_params p;
  std::array<netcc::pfc_port_state, 64> ports{};
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& k = v[i++ & 4095];
    // Port rates 25/50/100/200 Gbps by port, so the per-Gbps scaling is computed per packet.
    const netcc::bit_rate rate{std::int64_t{25'000'000'000} << (k.flow & 3)};
    benchmark::DoNotOptimize(
        netcc::pfc_on_backlog(ports[k.flow & 63], netcc::bytes{k.backlog}, rate, p));
  }
  state.counters["state_B"] = sizeof(netcc::pfc_port_state);
}
BENCHMARK(BM_pfc_per_gbps);

void BM_pfc_precomputed(benchmark::State& state) {
  const auto& v = packets();
  const auto t = netcc::pfc_thresholds_for(netcc::bit_rate{100'000'000'000}, netcc::pfc_params{});
  std::array<netcc::pfc_port_state, 64> ports{};
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& k = v[i++ & 4095];
    benchmark::DoNotOptimize(netcc::pfc_on_backlog(ports[k.flow & 63], netcc::bytes{k.backlog}, t));
  }
  state.counters["state_B"] = sizeof(netcc::pfc_port_state);
}
BENCHMARK(BM_pfc_precomputed);

void BM_token_bucket_consume(benchmark::State& state) {
  const auto& v = packets();
  const netcc::token_bucket_params p{.rate = netcc::bit_rate{50'000'000'000},
                                     .bucket = netcc::bytes{15'000}};
  auto s = netcc::token_bucket_state::full(p, netcc::timestamp{0});
  std::int64_t now = 0;
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& k = v[i++ & 4095];
    now += k.dt;
    benchmark::DoNotOptimize(
        netcc::token_bucket_consume(s, netcc::bytes{k.size}, netcc::timestamp{now}, p));
  }
  state.counters["state_B"] = sizeof(netcc::token_bucket_state);
}
BENCHMARK(BM_token_bucket_consume);

void BM_token_bucket_earliest(benchmark::State& state) {
  const auto& v = packets();
  const netcc::token_bucket_params p{.rate = netcc::bit_rate{50'000'000'000},
                                     .bucket = netcc::bytes{15'000}};
  const netcc::token_bucket_state s{netcc::timestamp{0}, 0};
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& k = v[i++ & 4095];
    benchmark::DoNotOptimize(
        netcc::token_bucket_earliest(s, netcc::bytes{k.size}, netcc::timestamp{k.dt}, p));
  }
  state.counters["state_B"] = sizeof(netcc::token_bucket_state);
}
BENCHMARK(BM_token_bucket_earliest);

}  // namespace
