// SPDX-License-Identifier: MIT
// Fuzz harness: the DCQCN reaction point (netcc/control/dcqcn.hpp; DCQCN SIGCOMM'15 §3.1, seed
// 003 §V Tables I-II), double and q32 side by side, over decoded call sequences: CNP storms,
// timers called late, early, out of order or at either end of the clock, sends of any size up
// to 2^63 - 1 bytes, arbitrary parameters (invalid ones included); times jump to either end of
// the clock and across it (byte_reader::time_after). Invariants after every call:
//   * R_C and R_T within [min_rate, line_rate] of the parameters in force, R_C <= R_T, finite;
//     in Mbps exactly (q32: raw * 10^6 against bps * 2^32; the floor wins when no q32 value
//     lies between them); pacing_rate() >= 1 bps; alpha in [0, 1];
//   * a CNP never raises R_C, cuts it by the configured factor (down to min_rate), and leaves
//     both counters and the byte remainder at zero;
//   * a timer call from the past changes nothing; a send from the past moves no timer;
//   * the byte remainder stays below B;
//   * both policies count the same timer, byte and CNP events; with a gain g that q32 holds
//     exactly, their rates agree within 1 kbps + 1e-6 of the line rate and alpha within 1e-6;
//   * the compact form (netcc::dcqcn_compact) on the same calls: its parameters pass the compact
//     validation, rates within [min_rate, line_rate] and R_C <= R_T, alpha in [0, 1], remainder
//     below B, on any stream; while every time stays within its clock (+-(2^55 - 1) ns), the
//     same counters as q32 up to their saturation at 255, the same CNP count up to 255, the same
//     remainder and clock.
#include <netcc/control/dcqcn.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "fuzz_common.hpp"

namespace {

using netcc::fuzz::byte_reader;

template <class C>
void check(const C& rp) {
  const auto p = rp.params();
  NETCC_FUZZ_CHECK(netcc::validate(p).ok());
  for (const auto r : {rp.rate(), rp.target_rate()}) {
    NETCC_FUZZ_CHECK(r >= p.min_rate && r <= p.line_rate);
  }
  NETCC_FUZZ_CHECK(rp.pacing_rate() >= netcc::min_pacing_rate);
  NETCC_FUZZ_CHECK(netcc::fuzz::finite(rp.current_mbps()) && netcc::fuzz::finite(rp.target_mbps()));
  using T = typename C::value_type;
  const T lo = netcc::ratio_up<T>(p.min_rate.bps(), 1'000'000);
  const bool squeezed = netcc::ratio_down<T>(p.line_rate.bps(), 1'000'000) < lo;
  for (const T v : {rp.current_mbps(), rp.target_mbps()}) {  // exactly, in the policy's type
    NETCC_FUZZ_CHECK(netcc::fuzz::ratio_ge(v, p.min_rate.bps(), 1'000'000));
    NETCC_FUZZ_CHECK(squeezed ? v == lo : netcc::fuzz::ratio_le(v, p.line_rate.bps(), 1'000'000));
  }
  NETCC_FUZZ_CHECK(rp.current_mbps() <= rp.target_mbps());
  const double a = netcc::to_double(rp.alpha());
  NETCC_FUZZ_CHECK(a >= 0.0 && a <= 1.0);
  NETCC_FUZZ_CHECK(rp.byte_remainder() < p.byte_counter);
}

template <class C>
void step(C& rp, int kind, std::int64_t t, std::int64_t b) {
  const bool past = netcc::timestamp{t} < rp.last_time();
  const C before = rp;
  if (kind == 0) {
    rp.on_timer(netcc::timestamp{t});  // timers first, so the CNP alone is checked
    const double rc = netcc::to_double(rp.current_mbps());
    const double a = netcc::to_double(rp.alpha());
    const auto cnps = rp.cnps();
    rp.on_cnp(netcc::cnp_event{.now = netcc::timestamp{t}});
    const double now_rc = netcc::to_double(rp.current_mbps());
    NETCC_FUZZ_CHECK(now_rc <= rc);
    const auto p = rp.params();
    const double f = p.cut == netcc::dcqcn_cut::half_alpha ? 1 - a / 2 : 1 - a;
    const double floor = static_cast<double>(p.min_rate.bps()) / 1e6;
    const double want = rc * f > floor ? rc * f : floor;
    NETCC_FUZZ_CHECK(std::abs(now_rc - want) <= 1e-6 * want + 1e-6);
    NETCC_FUZZ_CHECK(rp.timer_count() == 0 && rp.byte_count() == 0);
    NETCC_FUZZ_CHECK(rp.byte_remainder() == netcc::bytes{0});
    NETCC_FUZZ_CHECK(rp.cnps() == (cnps == 0xFFFF'FFFFu ? cnps : cnps + 1));
  } else if (kind == 1) {
    rp.on_timer(netcc::timestamp{t});
    if (past) {
      NETCC_FUZZ_CHECK(rp.current_mbps() == before.current_mbps());
      NETCC_FUZZ_CHECK(rp.target_mbps() == before.target_mbps());
      NETCC_FUZZ_CHECK(rp.alpha() == before.alpha());
      NETCC_FUZZ_CHECK(rp.timer_count() == before.timer_count());
      NETCC_FUZZ_CHECK(rp.byte_count() == before.byte_count());
    }
  } else {
    rp.on_send(netcc::bytes{b}, netcc::timestamp{t});
    if (past) NETCC_FUZZ_CHECK(rp.timer_count() == before.timer_count());
  }
  NETCC_FUZZ_CHECK(rp.last_time() >= before.last_time());
  check(rp);
}

}  // namespace

void check_compact(const netcc::dcqcn_compact& c) {
  const auto p = c.params();
  // In force: the compact ranges (fallen back to the defaults) but R_HI's reach, which only
  // caps the hyper step (see netcc::dcqcn_compact).
  for (const auto& e : netcc::validate(p, netcc::dcqcn_state_compact{}))
    NETCC_FUZZ_CHECK(e.field == "dcqcn.r_hi");
  for (const auto r : {c.rate(), c.target_rate()}) {
    NETCC_FUZZ_CHECK(r >= p.min_rate && r <= p.line_rate);
  }
  NETCC_FUZZ_CHECK(c.current_mbps() <= c.target_mbps());
  const double a = c.alpha().to_double();
  NETCC_FUZZ_CHECK(a >= 0.0 && a <= 1.0);
  NETCC_FUZZ_CHECK(c.byte_remainder() < p.byte_counter);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_reader in(data, size);
  netcc::dcqcn_params p;
  if (in.boolean()) {  // arbitrary parameters, invalid ones included
    p.line_rate = netcc::bit_rate{in.i64()};
    p.min_rate = netcc::bit_rate{in.i64()};
    p.g = in.raw_double();
    p.alpha_init = in.raw_double();
    p.alpha_timer = netcc::duration{in.small_step(100'000)};
    p.rate_timer = netcc::duration{in.small_step(100'000)};
    p.byte_counter = netcc::bytes{in.boolean() ? in.i64() : in.small_step(20'000'000)};
    p.r_ai = netcc::bit_rate{in.i64()};
    p.r_hi = netcc::bit_rate{in.i64()};
    p.f = in.u32() % 20;
    p.cut = static_cast<netcc::dcqcn_cut>(in.u8() % 3);
    p.target = static_cast<netcc::dcqcn_target>(in.u8() % 3);
    p.hyper = static_cast<netcc::dcqcn_hyper>(in.u8() % 3);
  }
  netcc::dcqcn d{p};
  netcc::basic_dcqcn<netcc::arith::q32> q{p};
  netcc::dcqcn_compact c{p};
  check(d);
  check(q);
  check_compact(c);
  // The compact form equals q32's counters while it runs q32's parameters and every time lies
  // within its clock.
  const netcc::dcqcn_params qp = q.params();
  const netcc::dcqcn_params cp = c.params();
  bool in_range = qp.line_rate == cp.line_rate && qp.rate_timer == cp.rate_timer &&
                  qp.alpha_timer == cp.alpha_timer && qp.f == cp.f;
  constexpr std::int64_t clock_max = (std::int64_t{1} << 55) - 1;
  const double line = static_cast<double>(d.params().line_rate.bps()) / 1e6;
  // The policies agree only if they run the same gain: g must be a q32 value (a multiple of
  // 2^-32, as 1/256 is); otherwise alpha drifts apart by (1 - g)^n over n idle periods.
  const double g32 = std::ldexp(d.params().g, 32);
  const bool same_g = g32 == std::floor(g32);
  std::int64_t t = 0;
  for (int k = 0; k < 512 && !in.empty(); ++k) {
    const std::uint8_t op = in.u8();
    switch (op % 8) {
      case 0: {  // out of order, saturating at the start of the clock
        const auto back = static_cast<std::int64_t>(in.below(200'000));
        t = t < std::numeric_limits<std::int64_t>::min() + back
                ? std::numeric_limits<std::int64_t>::min()
                : t - back;
        break;
      }
      case 1:  // anywhere, both ends of the clock included
        t = in.i64();
        break;
      default:  // a small step (mostly forward), saturating, or a jump to or across the ends
        t = in.time_after(t, 100'000);
        break;
    }
    const int kind = (op >> 3) % 3;
    const std::int64_t b =
        in.boolean() ? in.i64() : static_cast<std::int64_t>(in.below(30'000'000));
    step(d, kind, t, b);
    step(q, kind, t, b);
    if (kind == 0) c.on_timer(netcc::timestamp{t});  // as step() does
    if (kind == 0) {
      c.on_cnp(netcc::cnp_event{.now = netcc::timestamp{t}});
    } else if (kind == 1) {
      c.on_timer(netcc::timestamp{t});
    } else {
      c.on_send(netcc::bytes{b}, netcc::timestamp{t});
    }
    check_compact(c);
    in_range = in_range && t >= -clock_max && t <= clock_max;
    if (in_range) {
      NETCC_FUZZ_CHECK(c.timer_count() == std::min(q.timer_count(), 255u));
      NETCC_FUZZ_CHECK(c.byte_count() == std::min(q.byte_count(), 255u));
      NETCC_FUZZ_CHECK(c.cnps() == std::min(q.cnps(), 255u));
      NETCC_FUZZ_CHECK(c.byte_remainder() == q.byte_remainder());
      NETCC_FUZZ_CHECK(c.last_time() == q.last_time());
    }
    NETCC_FUZZ_CHECK(d.timer_count() == q.timer_count() && d.byte_count() == q.byte_count());
    NETCC_FUZZ_CHECK(d.cnps() == q.cnps() && d.byte_remainder() == q.byte_remainder());
    if (!same_g) continue;
    const double tol = 1e-3 + 1e-6 * line;
    NETCC_FUZZ_CHECK(std::abs(d.current_mbps() - q.current_mbps().to_double()) <= tol);
    NETCC_FUZZ_CHECK(std::abs(d.target_mbps() - q.target_mbps().to_double()) <= tol);
    NETCC_FUZZ_CHECK(std::abs(d.alpha() - q.alpha().to_double()) <= 1e-6);
  }
  return 0;
}
