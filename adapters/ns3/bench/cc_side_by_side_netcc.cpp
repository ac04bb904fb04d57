// SPDX-License-Identifier: MIT
// netcc's half of netcc_ns3_cc_bench (C++20): netcc::vegas and netcc::dctcp (both growth rules)
// driven by the synthetic ACK stream of cc_side_by_side.h through on_ack, and the harness alone
// (the same loop building the same ack_event for a controller that does nothing with it). See
// cc_side_by_side.cc for the ns-3 half and the summary.
#include <benchmark/benchmark.h>

#include <cstdint>

#include <netcc/control/dctcp.hpp>
#include <netcc/control/vegas.hpp>
#include <netcc/core/feedback.hpp>

#include "cc_side_by_side.h"

namespace {

using netcc_ns3_bench::in_flight;
using netcc_ns3_bench::ring;
using netcc_ns3_bench::segment;

// ACK k of the stream as netcc's ack_event (the ECN echo only where the controller uses ECN, as
// the ns-3 half sets ECN_ECE_RCVD only for TcpDctcp).
netcc::ack_event ack_at(const netcc_ns3_bench::synthetic_ack& a, std::uint64_t k, bool ecn) {
  const auto seq = static_cast<netcc::sequence>(segment * (k + 1));
  return {.now = netcc::timestamp{static_cast<std::int64_t>(k) * 5'000},
          .ack_seq = seq,
          .snd_nxt = seq + in_flight * segment,
          .acked = netcc::bytes{segment},
          .rtt = netcc::duration{a.rtt_ns},
          .ecn_echo = ecn && a.ece};
}

template <class C>
void drive(benchmark::State& state, C cc, bool ecn) {
  const auto s = netcc_ns3_bench::make_stream();
  std::uint64_t k = 0;
  for (auto _ : state) {
    cc.on_ack(ack_at(s[k & (ring - 1)], k, ecn));
    ++k;
    benchmark::DoNotOptimize(cc);
  }
  benchmark::DoNotOptimize(cc.cwnd());
}

// The harness alone: drive() itself, with a controller that takes the event's fields and does
// nothing with them. The fields a controller reads are handed to an empty asm statement as
// register operands: they are computed as they are when a controller's on_ack is inlined (in
// registers), and nothing else is (no store of the event, no memory clobber, no extra
// arithmetic). DoNotOptimize on each field would store the event to memory every iteration,
// which the controllers' loops never do, and so would subtract more than the harness costs.
struct null_controller {
  void on_ack(const netcc::ack_event& e) {
    asm volatile("" ::"r"(e.now.count()), "r"(e.ack_seq), "r"(e.snd_nxt), "r"(e.acked.count()),
                 "r"(e.rtt.count()), "r"(e.ecn_echo));
  }
  [[nodiscard]] int cwnd() const { return 0; }
};

void BM_netcc_harness(benchmark::State& state) {
  drive(state, null_controller{}, true);
}

template <class C>
void BM_netcc_vegas(benchmark::State& state) {
  typename C::params_type p;
  p.mss = netcc::bytes{segment};
  p.init_cwnd = netcc::bytes{in_flight * segment};
  drive(state, C{p}, false);
}

template <class C>
void BM_netcc_dctcp(benchmark::State& state) {
  typename C::params_type p;
  p.mss = netcc::bytes{segment};
  p.init_cwnd = netcc::bytes{in_flight * segment};
  drive(state, C{p}, true);
}

}  // namespace

BENCHMARK(BM_netcc_harness)->Name("harness/netcc");
BENCHMARK(BM_netcc_vegas<netcc::vegas>)->Name("vegas/netcc");
BENCHMARK(BM_netcc_vegas<netcc::vegas_fixed>)->Name("vegas/netcc_q32");
BENCHMARK(BM_netcc_dctcp<netcc::dctcp>)->Name("dctcp/netcc");
BENCHMARK(BM_netcc_dctcp<netcc::basic_dctcp<netcc::arith::q32>>)->Name("dctcp/netcc_q32");
BENCHMARK(BM_netcc_dctcp<netcc::dctcp_fixed>)->Name("dctcp/netcc_q32_alpha1024");
// Congestion avoidance by byte counting (netcc::dctcp_growth_counting): the rule ns-3's
// TcpDctcp inherits from TcpLinuxReno (a count of acked segments, one more segment each time it
// reaches the window), where netcc::dctcp adds MSS * acked / cwnd per ACK (one division).
BENCHMARK(BM_netcc_dctcp<netcc::dctcp_counting>)->Name("dctcp/netcc_counting");
BENCHMARK(BM_netcc_dctcp<netcc::dctcp_fixed_counting>)->Name("dctcp/netcc_q32_alpha1024_counting");
