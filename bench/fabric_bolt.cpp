// SPDX-License-Identifier: MIT
// Switch-side per-packet cost: INT push (in-memory and in place on the wire encoding), Bolt
// ingress (Algorithm 1 with the direct supply and with the §4.1 lookup table), the QoS form
// (Algorithm 4, 8 levels; with the view's weights, and through a netcc::bolt_qos_weights table
// with a non-empty-queue mask), the supply token alone (Algorithm 3, direct and table), the Bolt
// header codec, INT push on the wire format's stack, and the FastTune switch (S-ACK and ACK
// padding) and its flow hash (§IV-B). Each iteration handles one packet; the label/counters
// give the state size.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include <netcc/fabric/bolt.hpp>
#include <netcc/fabric/fasttune_switch.hpp>
#include <netcc/fabric/int_push.hpp>

namespace {

using namespace netcc::literals;
using t100 = netcc::bolt_supply_table<100'000'000'000>;

struct pkt {
  netcc::bolt_header h;
  netcc::bytes size;
  netcc::bytes q;
  std::int64_t gap;
};

std::vector<pkt> packets(std::size_t n) {
  std::mt19937_64 rng(7);
  std::vector<pkt> v(n);
  for (auto& p : v) {
    const std::uint64_t r = rng();
    p.h.data = (r & 15) != 0;
    p.h.last = (r >> 4 & 7) == 0;
    p.h.first = (r >> 7 & 7) == 0;
    p.h.inc = true;
    p.h.dec = (r >> 10 & 7) == 0;
    p.h.t_data_tx = static_cast<std::uint32_t>(r >> 32);
    p.size = netcc::bytes{64 + static_cast<std::int64_t>(r >> 13 & 1023) + 512};
    p.q = netcc::bytes{static_cast<std::int64_t>(r >> 23 & 4095)};
    p.gap = static_cast<std::int64_t>(r >> 40 & 255);
  }
  return v;
}

std::vector<netcc::int_port_view> ports(std::size_t n) {
  std::mt19937_64 rng(3);
  std::vector<netcc::int_port_view> v(n);
  for (auto& p : v) p = {netcc::bytes{static_cast<std::int64_t>(rng() & 0xFFFF)}, rng(), 100_Gbps};
  return v;
}

template <class Supply>
void BM_bolt_ingress(benchmark::State& state) {
  const auto v = packets(4096);
  netcc::bolt_port_state s;
  const netcc::bolt_params p;
  std::int64_t now = 0;
  std::size_t i = 0;
  for (auto _ : state) {
    const pkt& x = v[i++ & 4095];
    netcc::bolt_header h = x.h;
    now += x.gap;
    auto r = netcc::bolt_ingress(s, h, x.size, {x.q, 100_Gbps}, netcc::timestamp{now}, p, Supply{});
    benchmark::DoNotOptimize(r);
    benchmark::DoNotOptimize(h);
  }
  state.counters["state_B"] = sizeof(netcc::bolt_port_state);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_bolt_ingress<netcc::bolt_direct_supply>);
BENCHMARK(BM_bolt_ingress<t100>);

void BM_bolt_qos_ingress(benchmark::State& state) {
  const auto v = packets(4096);
  std::array<netcc::bolt_port_state, 8> s{};
  std::array<netcc::bytes, 8> q{};
  const std::array<std::uint32_t, 8> w{1, 2, 3, 4, 5, 6, 7, 8};
  const netcc::bolt_params p;
  std::int64_t now = 0;
  std::size_t i = 0;
  for (auto _ : state) {
    const pkt& x = v[i & 4095];
    const std::size_t level = i & 7;
    ++i;
    q[level] = x.q;
    netcc::bolt_header h = x.h;
    now += x.gap;
    auto r = netcc::bolt_qos_ingress(s[level], h, x.size, {100_Gbps, q, w}, level,
                                     netcc::timestamp{now}, p);
    benchmark::DoNotOptimize(r);
  }
  state.counters["state_B"] = sizeof(s);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_bolt_qos_ingress);

// The same packets through the weights' table (netcc::bolt_qos_weights, built once) with the
// port's non-empty queues kept as a bit mask as the queues change (the benchmark updates it
// with each occupancy it sets): no per-level sum and no division per packet.
void BM_bolt_qos_ingress_table(benchmark::State& state) {
  const auto v = packets(4096);
  std::array<netcc::bolt_port_state, 8> s{};
  std::array<netcc::bytes, 8> q{};
  const std::array<std::uint32_t, 8> w{1, 2, 3, 4, 5, 6, 7, 8};
  const netcc::bolt_qos_weights table{w};
  std::uint32_t nonempty = 0;
  const netcc::bolt_params p;
  std::int64_t now = 0;
  std::size_t i = 0;
  for (auto _ : state) {
    const pkt& x = v[i & 4095];
    const std::size_t level = i & 7;
    ++i;
    q[level] = x.q;
    const std::uint32_t bit = std::uint32_t{1} << level;
    nonempty = x.q != netcc::bytes{0} ? (nonempty | bit) : (nonempty & ~bit);
    netcc::bolt_header h = x.h;
    now += x.gap;
    auto r = netcc::bolt_qos_ingress(s[level], h, x.size, table, nonempty, x.q, 100_Gbps, level,
                                     netcc::timestamp{now}, p);
    benchmark::DoNotOptimize(r);
  }
  state.counters["state_B"] = sizeof(s);
  state.counters["table_B"] = sizeof(table);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_bolt_qos_ingress_table);

void BM_bolt_header_codec(benchmark::State& state) {
  const auto v = packets(4096);
  std::array<std::uint8_t, 9> b{};
  std::size_t i = 0;
  for (auto _ : state) {
    netcc::encode_bolt_header(v[i++ & 4095].h, b);
    benchmark::DoNotOptimize(b);
    auto d = netcc::decode_bolt_header(b);
    benchmark::DoNotOptimize(d);
  }
}
BENCHMARK(BM_bolt_header_codec);

// The two halves of the codec alone: a switch parses (decodes) on ingress and deparses
// (encodes) on egress, each once per packet.
void BM_bolt_header_encode(benchmark::State& state) {
  const auto v = packets(4096);
  std::array<std::uint8_t, 9> b{};
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(netcc::encode_bolt_header(v[i++ & 4095].h, b));
    benchmark::DoNotOptimize(b);
  }
}
BENCHMARK(BM_bolt_header_encode);

void BM_bolt_header_decode(benchmark::State& state) {
  const auto v = packets(4096);
  std::vector<std::array<std::uint8_t, 9>> wire(v.size());
  for (std::size_t k = 0; k < v.size(); ++k) netcc::encode_bolt_header(v[k].h, wire[k]);
  std::size_t i = 0;
  for (auto _ : state) {
    auto d = netcc::decode_bolt_header(wire[i++ & 4095]);
    benchmark::DoNotOptimize(d);
  }
}
BENCHMARK(BM_bolt_header_decode);

void BM_int_push(benchmark::State& state) {
  const auto pv = ports(4096);
  std::size_t i = 0;
  netcc::int_stack<> s;
  const netcc::int_push_params p;
  std::int64_t now = 0;
  for (auto _ : state) {
    if (s.size() == 5) s.count = 0;  // a fresh packet every five hops
    const netcc::int_port_view& port = pv[++i & 4095];
    benchmark::DoNotOptimize(netcc::int_push(s, port, netcc::timestamp{++now}, p));
  }
  state.counters["stack_B"] = sizeof(s);
}
BENCHMARK(BM_int_push);

void BM_int_push_encoded(benchmark::State& state) {
  using fmt = netcc::hpcc_int_format;
  const auto pv = ports(4096);
  std::size_t i = 0;
  std::array<std::uint8_t, fmt::max_encoded_size> buf{};
  std::size_t used = 2;
  const netcc::int_push_params p;
  std::int64_t now = 0;
  for (auto _ : state) {
    if (used == fmt::max_encoded_size) {
      buf[0] = 0;
      used = 2;
    }
    const netcc::int_port_view& port = pv[++i & 4095];
    used = netcc::int_push_encoded<fmt>(buf, used, port, netcc::timestamp{++now}, p).size;
    benchmark::DoNotOptimize(buf);
  }
  state.counters["stack_B"] = fmt::max_encoded_size;
}
BENCHMARK(BM_int_push_encoded);

void BM_int_push_wire(benchmark::State& state) {
  using fmt = netcc::hpcc_int_format;
  const auto pv = ports(4096);
  std::size_t i = 0;
  fmt::stack s;
  const netcc::int_push_params p;
  std::int64_t now = 0;
  for (auto _ : state) {
    if (s.size() == 5) s.count = 0;  // a fresh packet every five hops
    const netcc::int_port_view& port = pv[++i & 4095];
    benchmark::DoNotOptimize(netcc::int_push_wire<fmt>(s, port, netcc::timestamp{++now}, p));
  }
  state.counters["stack_B"] = sizeof(s);
}
BENCHMARK(BM_int_push_wire);

template <class Supply>
void BM_bolt_supply_token(benchmark::State& state) {
  const auto v = packets(4096);
  netcc::bolt_port_state s;
  const netcc::bolt_params p;
  std::int64_t now = 0;
  std::size_t i = 0;
  for (auto _ : state) {
    const pkt& x = v[i++ & 4095];
    now += x.gap;
    benchmark::DoNotOptimize(
        netcc::bolt_supply_token(s, x.size, 100_Gbps, netcc::timestamp{now}, p, Supply{}));
  }
  state.counters["state_B"] = sizeof(netcc::bolt_port_state);
}
BENCHMARK(BM_bolt_supply_token<netcc::bolt_direct_supply>);
BENCHMARK(BM_bolt_supply_token<t100>);

void BM_fasttune_flow_hash(benchmark::State& state) {
  std::mt19937_64 rng(9);
  std::vector<netcc::fasttune_five_tuple> v(4096);
  for (auto& t : v) {
    const std::uint64_t r = rng();
    t = {static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(r >> 32),
         static_cast<std::uint16_t>(r >> 7), 80, 6};
  }
  std::size_t i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(netcc::fasttune_flow_hash(netcc::fasttune_data_path(v[i++ & 4095])));
}
BENCHMARK(BM_fasttune_flow_hash);

void BM_fasttune_switch(benchmark::State& state) {
  // A mix: every 8th packet starts a new flow (NewACK true: S-ACK), the rest alternate data
  // and ACKs that get padded.
  const auto pv = ports(4096);
  std::size_t i = 0;
  netcc::fasttune_flow_state f;
  netcc::int_stack<> s;
  const netcc::fasttune_switch_params p;
  std::int64_t now = 0;
  std::uint64_t k = 0;
  for (auto _ : state) {
    if ((k & 7) == 0) f = {};
    if (s.size() == 5) s.count = 0;
    const auto kind =
        (k & 1) ? netcc::fasttune_packet_kind::host_ack : netcc::fasttune_packet_kind::data;
    ++k;
    const netcc::int_port_view& port = pv[++i & 4095];
    auto r = netcc::fasttune_switch(f, kind, s, port, netcc::timestamp{++now}, p);
    benchmark::DoNotOptimize(r);
  }
  state.counters["state_B"] = sizeof(netcc::fasttune_flow_state);
}
BENCHMARK(BM_fasttune_switch);

}  // namespace
