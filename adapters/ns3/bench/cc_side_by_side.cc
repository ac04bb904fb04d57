// SPDX-License-Identifier: MIT
// Side by side with ns-3: the per-ACK cost of ns-3's own TcpVegas and TcpDctcp, called through
// their TcpCongestionOps interface, and of netcc's Vegas and DCTCP (cc_side_by_side_netcc.cpp),
// all driven by the same synthetic ACK stream (cc_side_by_side.h), in one run. Each side also
// runs its harness alone (the loop and the feedback it builds, without a controller), and the
// summary after the benchmarks prints each controller net of its harness and the ratio
// ns-3 / netcc (the medians when --benchmark_repetitions is given, CPU time).
// ns-3's TcpDctcp grows as TcpLinuxReno, by counting acked segments (no division per ACK);
// netcc::dctcp adds MSS * acked / cwnd per ACK (RFC 5681's equation 3, one division on the chain
// from ACK to ACK). The like-for-like row is "dctcp_counting" (netcc::dctcp_growth_counting, RFC
// 5681's byte counting); the others are printed beside it.
//
// ns-3's half mirrors what TcpSocketBase does with a new cumulative ACK in ns-3 3.37: set
// m_lastAckedSeq and m_nextTxSequence (and m_ecnState from the ECE bit, for DCTCP), call
// PktsAcked, and in CA_OPEN IncreaseWindow; on an ECE in CA_OPEN enter CA_CWR (GetSsThresh,
// cwnd := ssthresh, CongestionStateSet), and leave it once the ACK passes the recovery point.
// The harness alone performs the same tcb updates.
//
//   cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DNETCC_BUILD_ADAPTERS=ON
//   cmake --build build/release --target netcc_ns3_cc_bench
//   build/release/adapters/ns3/netcc_ns3_cc_bench --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true   (one command line)
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "cc_side_by_side.h"
#include "ns3/core-module.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-dctcp.h"
#include "ns3/tcp-socket-state.h"
#include "ns3/tcp-vegas.h"

namespace {

using netcc_ns3_bench::in_flight;
using netcc_ns3_bench::ring;
using netcc_ns3_bench::segment;

ns3::Ptr<ns3::TcpSocketState> make_tcb() {
  ns3::Ptr<ns3::TcpSocketState> tcb = ns3::CreateObject<ns3::TcpSocketState>();
  tcb->m_segmentSize = segment;
  tcb->m_initialCWnd = in_flight;
  tcb->m_cWnd = in_flight * segment;
  tcb->m_ssThresh = 0x7FFFFFFF;
  tcb->m_congState = ns3::TcpSocketState::CA_OPEN;
  return tcb;
}

// The stream's RTT samples as ns-3 Times, converted before timing.
std::vector<ns3::Time> rtts(const std::vector<netcc_ns3_bench::synthetic_ack>& s) {
  std::vector<ns3::Time> v;
  v.reserve(s.size());
  for (const auto& a : s) v.push_back(ns3::NanoSeconds(a.rtt_ns));
  return v;
}

// The tcb updates of a new cumulative ACK k (shared by the harness and the drivers).
void ack_tcb(ns3::TcpSocketState& tcb, std::uint64_t k, bool ece) {
  const auto seq = static_cast<std::uint32_t>(segment * (k + 1));
  tcb.m_lastAckedSeq = ns3::SequenceNumber32(seq);
  tcb.m_nextTxSequence = ns3::SequenceNumber32(seq + in_flight * segment);
  tcb.m_ecnState = ece ? ns3::TcpSocketState::ECN_ECE_RCVD : ns3::TcpSocketState::ECN_IDLE;
}

void drive(benchmark::State& state, const ns3::Ptr<ns3::TcpCongestionOps>& cc, bool ecn) {
  const auto s = netcc_ns3_bench::make_stream();
  const auto rtt = rtts(s);
  ns3::Ptr<ns3::TcpSocketState> tcb = make_tcb();
  ns3::SequenceNumber32 recover(0);
  std::uint64_t k = 0;
  for (auto _ : state) {
    const std::size_t i = k & (ring - 1);
    const bool ece = ecn && s[i].ece;
    ack_tcb(*tcb, k, ece);
    ++k;
    cc->PktsAcked(tcb, 1, rtt[i]);
    if (ece && tcb->m_congState == ns3::TcpSocketState::CA_OPEN) {
      tcb->m_ssThresh = cc->GetSsThresh(tcb, in_flight * segment);
      tcb->m_cWnd = tcb->m_ssThresh;
      tcb->m_congState = ns3::TcpSocketState::CA_CWR;
      cc->CongestionStateSet(tcb, ns3::TcpSocketState::CA_CWR);
      recover = tcb->m_nextTxSequence;
    } else if (tcb->m_congState == ns3::TcpSocketState::CA_CWR && tcb->m_lastAckedSeq >= recover) {
      tcb->m_congState = ns3::TcpSocketState::CA_OPEN;
      cc->CongestionStateSet(tcb, ns3::TcpSocketState::CA_OPEN);
    }
    if (tcb->m_congState == ns3::TcpSocketState::CA_OPEN) cc->IncreaseWindow(tcb, 1);
    benchmark::DoNotOptimize(tcb->m_cWnd.Get());
  }
}

void BM_ns3_harness(benchmark::State& state) {
  const auto s = netcc_ns3_bench::make_stream();
  const auto rtt = rtts(s);
  ns3::Ptr<ns3::TcpSocketState> tcb = make_tcb();
  std::uint64_t k = 0;
  for (auto _ : state) {
    const std::size_t i = k & (ring - 1);
    ack_tcb(*tcb, k, s[i].ece);
    ++k;
    benchmark::DoNotOptimize(rtt[i]);
    benchmark::DoNotOptimize(tcb->m_cWnd.Get());
  }
}

void BM_ns3_vegas(benchmark::State& state) {
  drive(state, ns3::CreateObject<ns3::TcpVegas>(), false);
}

void BM_ns3_dctcp(benchmark::State& state) {
  drive(state, ns3::CreateObject<ns3::TcpDctcp>(), true);
}

// Keeps each benchmark's CPU time per iteration in ns (the median aggregate when there is one).
class summary_reporter : public benchmark::ConsoleReporter {
 public:
  summary_reporter() : ConsoleReporter(OO_Tabular) {}
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      if (r.error_occurred) continue;
      const bool median = r.run_type == Run::RT_Aggregate && r.aggregate_name == "median";
      const std::string name = r.run_name.str();
      if (r.run_type == Run::RT_Aggregate && !median) continue;
      if (median || medians_.count(name) == 0) ns_[name] = r.GetAdjustedCPUTime();
      if (median) medians_[name] = true;
    }
  }
  double get(const std::string& n) const {
    const auto it = ns_.find(n);
    return it == ns_.end() ? -1 : it->second;
  }

 private:
  std::map<std::string, double> ns_;
  std::map<std::string, bool> medians_;
};

}  // namespace

BENCHMARK(BM_ns3_harness)->Name("harness/ns3");
BENCHMARK(BM_ns3_vegas)->Name("vegas/ns3");
BENCHMARK(BM_ns3_dctcp)->Name("dctcp/ns3");

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  summary_reporter rep;
  benchmark::RunSpecifiedBenchmarks(&rep);
  benchmark::Shutdown();
  const double hn = rep.get("harness/netcc"), h3 = rep.get("harness/ns3");
  if (hn < 0 || h3 < 0) return 0;  // filtered: no summary
  std::printf("\nper ACK, CPU ns (harness: netcc %.2f, ns-3 %.2f)\n", hn, h3);
  std::printf("%-26s %10s %10s %12s %12s %8s\n", "cc", "netcc", "ns-3", "netcc_net", "ns-3_net",
              "ratio");
  for (const char* cc : {"vegas", "dctcp"}) {
    const double b = rep.get(std::string(cc) + "/ns3");
    for (const char* form :
         {"", "_q32", "_q32_alpha1024", "_counting", "_q32_alpha1024_counting"}) {
      const double a = rep.get(std::string(cc) + "/netcc" + form);
      if (a < 0 || b < 0) continue;
      const double an = a - hn, bn = b - h3;
      std::printf("%-26s %10.2f %10.2f %12.2f %12.2f %8.1f\n", (std::string(cc) + form).c_str(), a,
                  b, an, bn, an > 0 ? bn / an : 0.0);
    }
  }
  return 0;
}
