// SPDX-License-Identifier: MIT
// static_assert-only: the DCQCN reaction point runs at compile time (no allocation, no clock,
// no exceptions) with both policies; Table I's phases; the hand-computed cut and fast-recovery
// step of tests/control/dcqcn_test.cpp evaluated by the compiler.
#include <netcc/control/dcqcn.hpp>

namespace {

static_assert(netcc::dcqcn_phase_of(4, 4, 5) == netcc::dcqcn_phase::fast_recovery);
static_assert(netcc::dcqcn_phase_of(5, 4, 5) == netcc::dcqcn_phase::additive);
static_assert(netcc::dcqcn_phase_of(4, 5, 5) == netcc::dcqcn_phase::additive);
static_assert(netcc::dcqcn_phase_of(5, 5, 5) == netcc::dcqcn_phase::hyper);

template <class Policy>
constexpr std::int64_t cut_then_recover() {
  netcc::basic_dcqcn<Policy> rp{};
  rp.on_cnp(netcc::cnp_event{.now = netcc::timestamp{10'000}});  // 100 -> 50 Gbps
  rp.on_timer(netcc::timestamp{65'000});                         // fast recovery: 75 Gbps
  return rp.rate().bps();
}
static_assert(cut_then_recover<netcc::arith::ieee_double>() == 75'000'000'000);
static_assert(cut_then_recover<netcc::arith::q32>() == 75'000'000'000);

static_assert(netcc::CnpFeedback<netcc::cnp_event>);

}  // namespace
