// SPDX-License-Identifier: MIT
// Fuzz harness: theta-PowerTCP (netcc/control/powertcp.hpp, NSDI'22 §3.5, Algorithm 2), double
// and q32, over decoded RTT/completion sequences: RTTs zero, negative, huge (INT64_MAX),
// decreasing; timestamps equal, decreasing, jumping, negative, at both ends of the clock
// (timestamp{INT64_MIN}, INT64_MAX) and across the whole range; cumulative ACKs duplicated and
// reordered; arbitrary parameters (tau up to 2^63 - 1 ns). Invariants after every event:
//   * window finite and within [min_cwnd, max_cwnd] exactly (in the policy's type); cwnd()
//     within the same bytes; pacing_rate() within [max(min_rate, 1 bps), max_rate] of the
//     parameters in force, never 0;
//   * bounded increase: the window never exceeds max(previous,
//     gamma * (HostBw*tau + beta) + (1 - gamma) * previous);
//   * once per RTT: the window only changes on an ACK at or past the snd_nxt recorded at the
//     previous change (Algorithm 2 line 17), so two changes need an ACK that reached the mark;
//   * an exact duplicate completion leaves the smoothed power unchanged (dt = 0);
//   * tau never rises in min-RTT mode once it has a sample, and is the configured one otherwise.
// netcc::theta_powertcp_compact runs beside them on any stream (its narrowed fields' ranges
// included or not): cwnd within [min_cwnd, max_cwnd], pacing_rate() within
// [max(min_rate, 1 bps), max_rate], its smoothed power within [0, 2^30].
// The q32 fast forms of Algorithm 2 lines 12-14 (the normalised power and the smoothing step on
// raw integers) equal their operator forms bit for bit on every event's RTT, previous RTT,
// interval, tau and smoothed power, and with the previous RTT as tau and the clock's raw
// integer as a smoothed power (any int64).
#include <netcc/control/powertcp.hpp>

#include "powertcp_params.hpp"

namespace {

using netcc::fuzz::byte_reader;

template <class C>
struct checker {
  C cc;
  double prev_w;
  bool changed_once = false;
  netcc::sequence mark = 0;  // snd_nxt at the last window change

  explicit checker(const netcc::theta_powertcp_params& p)
      : cc(p), prev_w(netcc::to_double(cc.window())) {}

  void step(const netcc::rtt_event& e, bool duplicate) {
    const double p_before = netcc::to_double(cc.norm_power());
    const netcc::duration tau_before = cc.tau();
    cc.on_ack(e);
    const auto p = cc.params();
    const double w = netcc::to_double(cc.window());
    netcc::fuzz::check_powertcp_bounds(cc, p);
    const double cap = static_cast<double>(p.max_cwnd.count());
    double bdp = static_cast<double>((p.host_rate * cc.tau()).count());
    if (bdp > cap) bdp = cap;
    const double beta = netcc::to_double(cc.beta());
    const double bound = p.gamma * (bdp + beta) + (1 - p.gamma) * prev_w;
    // q32 rounds gamma to 2^-33: allow that much of the terms.
    const double tol = 1e-9 * (bdp + std::abs(beta) + prev_w) + 1e-3;
    NETCC_FUZZ_CHECK(w <= std::max(prev_w, bound) + tol);
    if (w != prev_w) {  // a window update: only when the ACK reached the last mark
      if (changed_once) NETCC_FUZZ_CHECK(netcc::seq_geq(e.ack_seq, mark));
      changed_once = true;
      mark = e.snd_nxt;
    }
    if (duplicate) NETCC_FUZZ_CHECK(netcc::to_double(cc.norm_power()) == p_before);
    if (p.tau_source == netcc::powertcp_tau::configured) {
      NETCC_FUZZ_CHECK(cc.tau() == p.base_rtt);
    } else if (tau_before != p.base_rtt) {
      NETCC_FUZZ_CHECK(cc.tau() <= tau_before);
    }
    prev_w = w;
  }
};

void check_compact(netcc::theta_powertcp_compact& c, const netcc::rtt_event& e) {
  c.on_ack(e);
  const auto p = c.params();
  NETCC_FUZZ_CHECK(c.cwnd() >= p.min_cwnd && c.cwnd() <= p.max_cwnd);
  const netcc::bit_rate r = c.pacing_rate();
  const netcc::bit_rate hi = p.max_rate > netcc::bit_rate::zero() ? p.max_rate : p.host_rate;
  NETCC_FUZZ_CHECK(r >= netcc::min_pacing_rate && r >= p.min_rate);
  NETCC_FUZZ_CHECK(r <= (hi > p.min_rate ? hi : p.min_rate));
  const double pw = netcc::to_double(c.norm_power());
  NETCC_FUZZ_CHECK(pw >= 0 && pw <= 1073741824.0);
}

// detail::theta_powertcp_power and _smooth against their operator forms (q32).
void check_fast_forms(std::int64_t rtt, std::int64_t prev_rtt, std::int64_t dt, std::int64_t tau,
                      netcc::fixed_point<31, 32> smooth) {
  using q = netcc::fixed_point<31, 32>;
  if (dt <= 0 || tau <= 0) return;  // the forms' preconditions
  const netcc::detail::invariant_divisor td{static_cast<std::uint64_t>(tau)};
  const q p = netcc::detail::theta_powertcp_power_ops<q>(rtt, prev_rtt, dt, td);
  NETCC_FUZZ_CHECK(netcc::detail::theta_powertcp_power<q>(rtt, prev_rtt, dt, td) == p);
  NETCC_FUZZ_CHECK(netcc::detail::theta_powertcp_smooth(smooth, p, dt, td) ==
                   netcc::detail::theta_powertcp_smooth_ops(smooth, p, dt, td));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_reader in(data, size);
  const auto params = netcc::fuzz::read_powertcp_params<netcc::theta_powertcp_params>(in);
  checker<netcc::theta_powertcp> d{params};
  checker<netcc::basic_powertcp<netcc::arith::q32, netcc::rtt_power>> f{params};
  netcc::theta_powertcp_compact c{params};
  netcc::rtt_event last{};
  std::int64_t now = static_cast<std::int64_t>(in.u64() >> 2);
  netcc::sequence seq = in.u64();
  for (int k = 0; k < 512 && !in.empty(); ++k) {
    const std::uint8_t op = in.u8();
    if (op % 5 == 0) {  // exact duplicate
      d.step(last, true);
      f.step(last, true);
      check_compact(c, last);
      continue;
    }
    now = in.time_after(now, 20'000);
    std::int64_t rtt;
    switch (in.u8() % 6) {
      case 0:
        rtt = 0;
        break;
      case 1:
        rtt = -static_cast<std::int64_t>(in.below(100'000));
        break;
      case 2:
        rtt = (in.u8() & 1) != 0 ? in.edge_i64() : in.i64();
        break;  // anything, huge and the int64 ends included
      case 3:
        rtt = byte_reader::sat_add(last.rtt.count(), -static_cast<std::int64_t>(in.below(5'000)));
        break;
      default:
        rtt = static_cast<std::int64_t>(in.below(200'000)) + 1;
        break;
    }
    seq += static_cast<std::uint64_t>(in.small_step(60'000));
    const netcc::rtt_event e{.now = netcc::timestamp{now},
                             .rtt = netcc::duration{rtt},
                             .acked = netcc::bytes{1000},
                             .ack_seq = seq,
                             .snd_nxt = seq + in.below(400'000)};
    check_fast_forms(e.rtt.count(), last.rtt.count(), (e.now - last.now).count(),
                     f.cc.tau().count(), f.cc.norm_power());
    check_fast_forms(e.rtt.count(), last.rtt.count(), (e.now - last.now).count(), last.rtt.count(),
                     netcc::fixed_point<31, 32>::from_raw(now));
    d.step(e, false);
    f.step(e, false);
    check_compact(c, e);
    last = e;
  }
  return 0;
}
