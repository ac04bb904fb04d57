// SPDX-License-Identifier: MIT
// static_assert-only: RED/ECN marking (seed 003 §III-B d, Table II), the DCTCP single
// threshold, the compile-time RED probability table (every entry checked against the direct
// formula), the DCQCN notification point (both modes, the seed's three cases), PFC (seed
// §III-B e, §V thresholds), and the token bucket.
#include <netcc/fabric/dcqcn_np.hpp>
#include <netcc/fabric/pfc.hpp>
#include <netcc/fabric/red_ecn.hpp>
#include <netcc/fabric/token_bucket.hpp>

#include <cstdint>

namespace netcc_tests::static_fabric_queue {

namespace {
using namespace netcc::literals;
using netcc::bytes;
using netcc::red_probability;
using netcc::timestamp;

// ---- RED/ECN: p(x) with Table II (K_min 5 kB, K_max 200 kB, P_max 1 %).
constexpr netcc::red_ecn_params red{};
// P_max = round(2^32 / 100) = round(42949672.96) = 42949673.
static_assert(red.p_max.raw == 42949673);
constexpr auto pr(std::int64_t x) {
  return netcc::red_marking_probability(bytes{x}, red).raw;
}
static_assert(pr(-1) == 0 && pr(0) == 0 && pr(5000) == 0);  // x <= K_min: 0
static_assert(pr(5001) == 42949673 / 195000);               // floor(42949673 * 1 / 195000) = 220
static_assert(pr(5001) == 220);
static_assert(pr(102500) == 21474836);      // (97500 / 195000) * 42949673 = 21474836.5 -> floor
static_assert(pr(199999) == 42949452);      // 42949673 * 194999 / 195000 = 42949452.7 -> floor
static_assert(pr(200000) == (1ULL << 32));  // x >= K_max: 1
static_assert(pr(1'000'000'000) == (1ULL << 32));
// Decisions: a draw selects when draw < p.
constexpr auto ect0 = netcc::ecn_codepoint::ect0;
static_assert(netcc::red_ecn_on_packet(ect0, 102500_B, 21474835u, red).action ==
              netcc::red_action::mark);
static_assert(netcc::red_ecn_on_packet(ect0, 102500_B, 21474836u, red).action ==
              netcc::red_action::pass);
static_assert(netcc::red_ecn_on_packet(ect0, 200000_B, 0xFFFFFFFFu, red).ecn ==
              netcc::ecn_codepoint::ce);
static_assert(netcc::red_ecn_on_packet(netcc::ecn_codepoint::not_ect, 200000_B, 0, red).action ==
              netcc::red_action::drop);
static_assert(netcc::red_ecn_on_packet(ect0, 5000_B, 0, red).action == netcc::red_action::pass);
// DCTCP, K = 65 kB: marks at 65001 B (queue > K), not at 65000 B.
constexpr auto dctcp = netcc::dctcp_red_params(65000_B);
static_assert(dctcp.k_min == 65001_B && dctcp.k_max == 65001_B);
static_assert(netcc::red_marking_probability(65000_B, dctcp) == red_probability::zero());
static_assert(netcc::red_marking_probability(65001_B, dctcp) == red_probability::one());
static_assert(netcc::red_ecn_on_packet(netcc::ecn_codepoint::ect1, 65001_B, 0xFFFFFFFFu, dctcp)
                  .action == netcc::red_action::mark);

// ---- RED table: 1024 cells of 256 B cover [0, 262144) >= K_max; 4 KiB; every entry checked.
static_assert(netcc::red_ecn_table_shift(red, 1024) == 8);
constexpr auto red_table = netcc::make_red_ecn_table<1024>(red, 8);
static_assert(red_table.size_bytes == 4096 && red_table.covers());
static_assert(red_table.check(0, 1024));
// cell 19 = [4864, 5120): p(4864) = 0; cell 20 = [5120, 5376): floor(42949673*120/195000) = 26430.
static_assert(red_table.entries[19] == 0 && red_table.entries[20] == 26430);
static_assert(red_table.lookup(5375_B).raw == 26430 &&
              red_table.lookup(199999_B).raw ==
                  netcc::red_marking_probability(bytes{781 * 256}, red).raw);
static_assert(red_table.lookup(200000_B) == red_probability::one());  // K_max comparator
static_assert(red_table.on_packet(ect0, 300000_B, 0xFFFFFFFFu).action == netcc::red_action::mark);
// Exact table (1-byte cells) for small thresholds.
constexpr netcc::red_ecn_params small{.k_min = bytes{10}, .k_max = bytes{100}};
constexpr auto exact = netcc::make_red_ecn_table<128>(small, 0);
static_assert(exact.check(0, 128) &&
              exact.lookup(55_B) == netcc::red_marking_probability(55_B, small));

// ---- DCQCN NP.
constexpr netcc::dcqcn_np_params np{};  // 50 us, suppress
static_assert(np.interval == 50_us);
struct np_run {
  netcc::dcqcn_np_action a[4];
  std::int64_t at[4];
};
constexpr np_run run_np(netcc::dcqcn_np_mode m, const std::int64_t (&t)[4]) {
  netcc::dcqcn_np_flow_state f;
  netcc::dcqcn_np_params p{.mode = m};
  np_run r{};
  for (int i = 0; i < 4; ++i) {
    const auto d = netcc::dcqcn_np_on_packet(f, true, timestamp{t[i]}, p);
    r.a[i] = d.action;
    r.at[i] = d.at.count();
  }
  return r;
}
using A = netcc::dcqcn_np_action;
// Suppress: 0 -> send (t_ = -inf); 10 us -> none (10 < 50); 50 us -> send (50 >= 50); 99 us none.
constexpr np_run sup = run_np(netcc::dcqcn_np_mode::suppress, {0, 10'000, 50'000, 99'999});
static_assert(sup.a[0] == A::send_now && sup.a[1] == A::none && sup.a[2] == A::send_now &&
              sup.a[3] == A::none && sup.at[2] == 50'000);
// Schedule: 0 -> case 1 now; 10 us -> case 2, at 0 + 50 = 50 us; 20 us -> case 3 (20 < 50);
// 120 us -> case 1 (120 - 50 = 70 >= 50), now.
constexpr np_run sch = run_np(netcc::dcqcn_np_mode::schedule, {0, 10'000, 20'000, 120'000});
static_assert(sch.a[0] == A::send_now && sch.a[1] == A::schedule && sch.at[1] == 50'000 &&
              sch.a[2] == A::none && sch.a[3] == A::send_now && sch.at[3] == 120'000);
// Unmarked packets never trigger a CNP.
constexpr bool unmarked_quiet() {
  netcc::dcqcn_np_flow_state f;
  const auto d = netcc::dcqcn_np_on_packet(f, false, timestamp{0}, np);
  return d.action == A::none && !f.any;
}
static_assert(unmarked_quiet());

// ---- PFC: 100 Gbps: X_off = 9500 * 100 = 950000 B, X_on = 925000 B.
constexpr netcc::pfc_params pfc{};
static_assert(netcc::pfc_thresholds_for(100_Gbps, pfc) ==
              netcc::pfc_thresholds{bytes{950000}, bytes{925000}});
static_assert(netcc::pfc_thresholds_for(25_Gbps, pfc) ==
              netcc::pfc_thresholds{bytes{237500}, bytes{231250}});
constexpr bool pfc_cycle() {
  netcc::pfc_port_state s;
  using P = netcc::pfc_action;
  bool ok = netcc::pfc_on_backlog(s, 950000_B, 100_Gbps, pfc) == P::none;  // not > X_off
  ok = ok && netcc::pfc_on_backlog(s, 950001_B, 100_Gbps, pfc) == P::pause && s.paused;
  ok = ok && netcc::pfc_on_backlog(s, 2000000_B, 100_Gbps, pfc) == P::none;  // already paused
  ok = ok && netcc::pfc_on_backlog(s, 925001_B, 100_Gbps, pfc) == P::none;   // > X_on
  ok = ok && netcc::pfc_on_backlog(s, 925000_B, 100_Gbps, pfc) == P::resume && !s.paused;
  ok = ok && netcc::pfc_on_backlog(s, 940000_B, 100_Gbps, pfc) == P::none;  // between: no flap
  return ok;
}
static_assert(pfc_cycle());
// t_R - t_P = (950000 - 925000) * 8 / 100e9 s = 2 us; at 25 Gbps 6250 B * 8 / 25e9 = 2 us too.
static_assert(netcc::pfc_resume_delay(100_Gbps, pfc) == 2_us);
static_assert(netcc::pfc_resume_delay(25_Gbps, pfc) == 2_us);
static_assert(netcc::pfc_resume_time(timestamp{10_us}, 100_Gbps, pfc) == timestamp{12_us});
static_assert(netcc::pfc_resume_delay(netcc::bit_rate{0}, pfc) == netcc::duration::max());
// 65535 quanta * 512 bit / 100 Gbps = 335539.2 ns -> 335540 ns.
static_assert(netcc::pfc_quanta_duration(65535, 100_Gbps) == netcc::duration{335540});

// ---- Token bucket: r = 10 Gbps (1.25 B/ns), b = 3000 B.
constexpr netcc::token_bucket_params tb{.rate = 10_Gbps, .bucket = 3000_B};
constexpr bool tb_sequence() {
  auto s = netcc::token_bucket_state::full(tb, timestamp{0});
  bool ok = netcc::token_bucket_tokens(s, timestamp{0}, tb) == 3000_B;
  ok = ok && netcc::token_bucket_consume(s, 3000_B, timestamp{0}, tb);  // 3000 -> 0
  ok = ok && !netcc::token_bucket_consume(s, 1_B, timestamp{0}, tb);    // empty
  ok = ok && netcc::token_bucket_tokens(s, timestamp{1}, tb) == 1_B;    // 1.25 -> 1
  ok = ok && netcc::token_bucket_tokens(s, timestamp{4}, tb) == 5_B;    // 4 * 1.25 = 5
  // 1500 B need 1500 / 1.25 = 1200 ns.
  ok = ok && netcc::token_bucket_earliest(s, 1500_B, timestamp{0}, tb) == timestamp{1200};
  ok = ok && !netcc::token_bucket_conforms(s, 1500_B, timestamp{1199}, tb);
  ok = ok && netcc::token_bucket_conforms(s, 1500_B, timestamp{1200}, tb);
  ok = ok && netcc::token_bucket_tokens(s, timestamp{1'000'000}, tb) == 3000_B;  // capped at b
  ok = ok && netcc::token_bucket_earliest(s, 3001_B, timestamp{0}, tb) == timestamp::max();
  return ok;
}
static_assert(tb_sequence());
// Exact accrual: 1 ns steps at 10 Gbps give 1.25 B each; 4 steps of 1 ns make 5 B exactly.
constexpr bool tb_exact() {
  netcc::token_bucket_state s{};
  for (int i = 1; i <= 4; ++i) (void)netcc::token_bucket_consume(s, 0_B, timestamp{i}, tb);
  return netcc::token_bucket_tokens(s, timestamp{4}, tb) == 5_B;
}
static_assert(tb_exact());
static_assert(netcc::token_bucket_after_idle(0_B, 100_ns, tb) == 125_B);    // 100 * 1.25
static_assert(netcc::token_bucket_after_idle(2900_B, 1_us, tb) == 3000_B);  // capped
static_assert(netcc::token_bucket_after_idle(-5_B, -1_ns, tb) == 0_B);      // clamped
constexpr auto curve = netcc::token_bucket_arrival_curve(tb);
static_assert(curve.at(0_ns) == 0_B && curve.at(1_ns) == 3001_B && curve.at(1_us) == 4250_B);

}  // namespace

}  // namespace netcc_tests::static_fabric_queue
