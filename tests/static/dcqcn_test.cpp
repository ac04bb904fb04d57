// SPDX-License-Identifier: MIT
// static_assert-only: the DCQCN reaction point runs at compile time (no allocation, no clock,
// no exceptions) with both policies; the seed's Table I phases and hyper steps; the
// hand-computed cut and fast-recovery step of tests/control/dcqcn_test.cpp evaluated by the
// compiler; the per-flow state budget.
#include <netcc/control/dcqcn.hpp>

namespace netcc_tests::static_dcqcn {

namespace {

// Table I: fast recovery while both counters are below F, additive once one reaches F, hyper
// once both have.
static_assert(netcc::dcqcn_phase_of(0, 0, 5) == netcc::dcqcn_phase::fast_recovery);
static_assert(netcc::dcqcn_phase_of(4, 4, 5) == netcc::dcqcn_phase::fast_recovery);
static_assert(netcc::dcqcn_phase_of(5, 4, 5) == netcc::dcqcn_phase::additive);
static_assert(netcc::dcqcn_phase_of(4, 5, 5) == netcc::dcqcn_phase::additive);
static_assert(netcc::dcqcn_phase_of(0, 4'000'000'000u, 5) == netcc::dcqcn_phase::additive);
static_assert(netcc::dcqcn_phase_of(5, 5, 5) == netcc::dcqcn_phase::hyper);
// Hyper steps: (min - F) R_HI in Table I; one more with QCN-style counting.
static_assert(netcc::dcqcn_hyper_steps(5, 5, 5, netcc::dcqcn_hyper::table_i) == 0);
static_assert(netcc::dcqcn_hyper_steps(9, 7, 5, netcc::dcqcn_hyper::table_i) == 2);
static_assert(netcc::dcqcn_hyper_steps(9, 7, 5, netcc::dcqcn_hyper::from_one) == 3);
static_assert(netcc::dcqcn_hyper_steps(9, 4, 5, netcc::dcqcn_hyper::from_one) == 0);
static_assert(netcc::dcqcn_hyper_steps(0xFFFF'FFFFu, 0xFFFF'FFFFu, 1,
                                       netcc::dcqcn_hyper::from_one) == 0xFFFF'FFFFu);

// First CNP at 10 us on the default 40 Gbps line: R_T = 40, R_C = 40 (1 - 1/2) = 20 Gbps. One
// rate-timer period later (65 us), i_T = 1 < F: fast recovery, R_C = (40 + 20) / 2 = 30 Gbps.
template <class Policy>
constexpr std::int64_t cut_then_recover() {
  netcc::basic_dcqcn<Policy> rp{};
  rp.on_cnp(netcc::cnp_event{.now = netcc::timestamp{10'000}});
  if (rp.rate().bps() != 20'000'000'000 || rp.target_rate().bps() != 40'000'000'000) return -1;
  rp.on_timer(netcc::timestamp{65'000});
  return rp.rate().bps();
}
static_assert(cut_then_recover<netcc::arith::ieee_double>() == 30'000'000'000);
static_assert(cut_then_recover<netcc::arith::q32>() == 30'000'000'000);

// Before the first CNP nothing runs: a second of timers and 1 GB of sends leave the flow at the
// line rate with alpha = 1 and both counters at 0.
template <class Policy>
constexpr bool dormant_until_first_cnp() {
  netcc::basic_dcqcn<Policy> rp{};
  rp.on_timer(netcc::timestamp{1'000'000'000});
  rp.on_send(netcc::bytes{1'000'000'000}, netcc::timestamp{1'000'000'001});
  return rp.rate().bps() == 40'000'000'000 && rp.timer_count() == 0 && rp.byte_count() == 0 &&
         netcc::to_double(rp.alpha()) == 1.0 && rp.cnps() == 0;
}
static_assert(dormant_until_first_cnp<netcc::arith::ieee_double>());
static_assert(dormant_until_first_cnp<netcc::arith::q32>());

static_assert(netcc::CnpFeedback<netcc::cnp_event>);
static_assert(netcc::dcqcn::state_bytes == 64);
static_assert(netcc::basic_dcqcn<netcc::arith::q32>::state_bytes == 64);
static_assert(netcc::dcqcn_compact::state_bytes == 32);
static_assert(sizeof(netcc::dcqcn_compact::flow_state) == 32);

// The compact state follows the same hand-computed steps (every value on its 2^-12 Mbps grid),
// and a config with an external flow_state evaluates as the object does.
template <class Policy, class Storage>
constexpr std::int64_t cut_then_recover_in() {
  netcc::basic_dcqcn<Policy, Storage> rp{};
  rp.on_cnp(netcc::cnp_event{.now = netcc::timestamp{10'000}});
  rp.on_timer(netcc::timestamp{65'000});
  return rp.rate().bps();
}
static_assert(cut_then_recover_in<netcc::arith::q32, netcc::dcqcn_state_compact>() ==
              30'000'000'000);
constexpr bool config_matches_object() {
  const netcc::dcqcn_compact::config cfg{};
  auto st = cfg.initial_state();
  cfg.on_cnp(st, netcc::cnp_event{.now = netcc::timestamp{10'000}});
  cfg.on_timer(st, netcc::timestamp{65'000});
  return cfg.rate(st).bps() == cut_then_recover_in<netcc::arith::q32, netcc::dcqcn_state_compact>();
}
static_assert(config_matches_object());

}  // namespace

}  // namespace netcc_tests::static_dcqcn
