// SPDX-License-Identifier: MIT
// Fuzz harness: Swift (netcc/control/swift.hpp; SIGCOMM'20 Algorithm 1 with §3.3-3.6) in double
// and q32 over decoded event streams: ACKs with RTT samples (netcc::ack_event, with or without
// INT hop records) and with endpoint delays and hop counts (netcc::swift_ack_event); RTTs zero,
// negative, tiny, around the targets, huge; times advancing, equal, stepping back, jumping to the
// ends of the clock; acked counts zero, negative and absurd; retransmission timeouts (alone and
// in runs of up to 32, past RETX_RESET_THRESHOLD) and fast recoveries; arbitrary parameters,
// invalid ones included.
// Invariants after every event, for both policies:
//   * every window finite and within [min_cwnd, max_cwnd] of the parameters in force (which
//     validate), exactly: q32's raw value is compared with the bounds scaled by 2^32, no
//     tolerance (when no q32 value lies in [min_cwnd, max_cwnd] the floor wins: the window is
//     min_cwnd rounded up); cwnd() >= 1 B; pacing exactly when the window is below one packet,
//     with the inter-packet delay RTT / cwnd (§3.4) within rounding for the double controller,
//     and a pacing rate of at least 1 bps (never 0: the window is always open);
//   * an ACK below its target never lowers a window, one above it never raises one;
//   * each window decreases (the reset after RETX_RESET_THRESHOLD timeouts aside) only when the
//     time since its previous decrease is at least the RTT compared with (Algorithm 1's
//     can_decrease), judged by a clock that restarts at any earlier event time (never later
//     than the controller's, so the check is sound);
//   * while their targets agree and num_acked stays within q32's range, q32's windows are within
//     the accumulated rounding bound of double's (tests/control/swift_test.cpp states it);
//   * netcc::swift_compact (32-B state) keeps the same bounds on any stream, the same
//     retransmit count as q32, and, while the stream stays within its ranges (RTTs up to 2^30
//     ns, consecutive events at most 2^30 ns apart either way), the same rule on each window
//     and the same windows as q32, bit for bit.
#include <netcc/control/swift.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "fuzz_common.hpp"

namespace {

using netcc::fuzz::byte_reader;
using swift_q32 = netcc::basic_swift<netcc::arith::q32>;
using netcc::detail::i128;

// True when the policy holds no value in [lo, hi] (q32: the two bounds between two
// consecutive values), so the floor wins over the ceiling.
template <class T>
bool no_value_between(double lo, double hi) {
  if constexpr (std::is_same_v<T, double>) {
    return lo > hi;
  } else {
    return std::floor(std::ldexp(hi, T::fraction_bits)) <
           std::ceil(std::ldexp(lo, T::fraction_bits));
  }
}

template <class C>
void check_bounds(const C& cc) {
  using T = typename C::value_type;
  const auto& p = cc.params();
  const bool squeezed = no_value_between<T>(p.min_cwnd, p.max_cwnd);
  for (const auto w : {cc.window(), cc.fabric_window(), cc.endpoint_window()}) {
    NETCC_FUZZ_CHECK(netcc::fuzz::finite(w));
    NETCC_FUZZ_CHECK(netcc::fuzz::exact_ge(w, p.min_cwnd));  // the floor, exactly
    if (squeezed) {
      NETCC_FUZZ_CHECK(w == netcc::num_up<T>(p.min_cwnd));
    } else {
      NETCC_FUZZ_CHECK(netcc::fuzz::exact_le(w, p.max_cwnd));
    }
  }
  NETCC_FUZZ_CHECK(cc.cwnd() >= netcc::bytes{1});
  const bool below = cc.window() < netcc::num<T>(1);
  NETCC_FUZZ_CHECK((cc.pacing_delay() > netcc::duration::zero()) == below);
  NETCC_FUZZ_CHECK((cc.pacing_rate() == netcc::bit_rate::max()) == !below);
  NETCC_FUZZ_CHECK(cc.pacing_rate() >= netcc::min_pacing_rate);
}

struct clock_model {
  std::int64_t last = 0;
  bool any = false;
  void step_back(std::int64_t now) {
    if (any && now < last) last = now;
  }
  [[nodiscard]] bool allows(std::int64_t now, std::int64_t rtt) const {
    return !any || i128{now} - last >= rtt;
  }
  void decreased(std::int64_t now) {
    last = now;
    any = true;
  }
};

struct harness {
  netcc::swift d;
  swift_q32 q;
  netcc::swift_compact c;
  clock_model fm, em;
  bool compact_in_range = true;  // the stream so far is within swift_compact's ranges
  bool started = false;
  std::int64_t prev = 0;
  double err = 0x1p-33;
  bool agree = true;

  explicit harness(const netcc::swift_params& p) : d(p), q(p), c(p) {
    NETCC_FUZZ_CHECK(netcc::validate(d.params()).ok());
    check_bounds(d);
    check_bounds(q);
    check_bounds(c);
  }

  [[nodiscard]] double f() const { return netcc::to_double(d.fabric_window()); }
  [[nodiscard]] double e() const { return netcc::to_double(d.endpoint_window()); }

  // Runs `fn` on both controllers and checks every invariant. `rtt` is the sample compared
  // with (the last one for timeouts), `target` and `tq` the fabric targets of an ACK in double
  // and q32 (0 otherwise),
  // `ed` its endpoint delay if it has one, n its num_acked.
  template <class Fn>
  void step(Fn fn, std::int64_t now, std::int64_t rtt, bool is_ack, std::int64_t target,
            std::int64_t tq, const std::int64_t* ed, double n, bool timeout) {
    const double f0 = f(), e0 = e();
    const double qf0 = netcc::to_double(q.fabric_window());
    const bool was_active = d.endpoint_active();
    const bool targets_agree = d.fabric_target() == q.fabric_target();
    fm.step_back(now);
    em.step_back(now);
    if (!was_active && ed != nullptr && rtt > 0) em = fm;
    double lip = 1;
    for (const double w : {f0, e0}) {
      const double wl = std::max(1.0, w - err);
      lip = std::max(lip, d.params().ai * n / (wl * wl) - 1);
    }
    fn(d);
    fn(q);
    fn(c);
    check_bounds(d);
    check_bounds(q);
    check_bounds(c);
    NETCC_FUZZ_CHECK(d.retransmit_count() == q.retransmit_count());
    NETCC_FUZZ_CHECK(c.retransmit_count() == q.retransmit_count());
    constexpr std::int64_t horizon = netcc::swift_compact::clock_horizon;
    if (rtt > horizon || (started && (i128{now} - prev > horizon || i128{prev} - now > horizon)))
      compact_in_range = false;
    started = true;
    prev = now;
    if (compact_in_range) {
      NETCC_FUZZ_CHECK(c.last_branch() == q.last_branch());
      NETCC_FUZZ_CHECK(c.last_endpoint_branch() == q.last_endpoint_branch());
      NETCC_FUZZ_CHECK(c.fabric_window() == q.fabric_window());
      NETCC_FUZZ_CHECK(c.endpoint_window() == q.endpoint_window());
      NETCC_FUZZ_CHECK(c.pacing_delay() == q.pacing_delay());
    }
    // Below the target no decrease, above it no increase (fabric window; each policy against
    // its own target).
    if (is_ack && rtt > 0) {
      std::int64_t fabric = rtt;
      if (ed != nullptr) fabric = rtt - std::clamp<std::int64_t>(*ed, 0, rtt);
      if (fabric < target) NETCC_FUZZ_CHECK(f() >= f0);
      if (fabric > target) NETCC_FUZZ_CHECK(f() <= f0);
      if (fabric < tq) NETCC_FUZZ_CHECK(netcc::to_double(q.fabric_window()) >= qf0);
      if (fabric > tq) NETCC_FUZZ_CHECK(netcc::to_double(q.fabric_window()) <= qf0);
    }
    // At most one decrease per RTT per window.
    if (timeout && d.retransmit_count() >= d.params().retx_reset_threshold) {
      fm.decreased(now);
      em.decreased(now);
    } else {
      if (f() < f0) {
        NETCC_FUZZ_CHECK(fm.allows(now, rtt));
        fm.decreased(now);
      }
      if (d.endpoint_active() && e() < e0) {
        NETCC_FUZZ_CHECK(em.allows(now, rtt));
        em.decreased(now);
      }
    }
    // Pacing law (double): RTT / cwnd below one packet, in whole ns.
    if (d.window() < 1 && d.rtt() > netcc::duration::zero()) {
      const double expect = static_cast<double>(d.rtt().count()) / d.window();
      if (expect < 0x1p61)
        NETCC_FUZZ_CHECK(std::abs(static_cast<double>(d.pacing_delay().count()) - expect) <=
                         1 + expect * 1e-12);
    }
    // q32 against double.
    if (!agree || !targets_agree || n >= 0x1p31) {
      agree = false;
      return;
    }
    const double w1 = std::max({f0, e0, f(), e()});
    err = lip * err + 6 * 0x1p-33 * (1 + d.params().ai + n + w1) + 8 * 0x1p-53 * w1;
    NETCC_FUZZ_CHECK(std::abs(f() - netcc::to_double(q.fabric_window())) <= err);
    NETCC_FUZZ_CHECK(std::abs(e() - netcc::to_double(q.endpoint_window())) <= err);
  }
};

double num_acked(std::int64_t acked, const netcc::swift_params& p) {
  return acked <= 0 ? 0.0 : static_cast<double>(acked) / static_cast<double>(p.mss.count());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_reader in(data, size);
  netcc::swift_params p;
  const std::uint8_t mode = in.u8();
  if (mode & 1) {  // arbitrary parameters, invalid ones included
    p.mss = netcc::bytes{static_cast<std::int64_t>(in.u32() % 70'000) - 100};
    p.ai = in.raw_double();
    p.beta = in.raw_double();
    p.max_mdf = in.raw_double();
    p.retx_reset_threshold = in.u8();
    p.min_cwnd = in.raw_double();
    p.max_cwnd = in.raw_double();
    p.init_cwnd = in.raw_double();
    p.base_target = netcc::duration{in.i64()};
    p.per_hop = netcc::duration{in.i64()};
    p.hops = in.u8();
    p.fs_range = netcc::duration{in.i64()};
    p.fs_min_cwnd = in.raw_double();
    p.fs_max_cwnd = in.raw_double();
    p.endpoint_target = netcc::duration{in.i64()};
  } else if (mode & 2) {  // valid, spread over their ranges
    p.mss = netcc::bytes{1 + static_cast<std::int64_t>(in.u16())};
    p.ai = 1e-3 + static_cast<double>(in.u16()) / 4096.0;
    p.beta = (1 + static_cast<double>(in.u8())) / 256.0;
    p.max_mdf = (1 + static_cast<double>(in.u8())) / 256.0;
    p.retx_reset_threshold = 1 + in.u8() % 8;
    p.min_cwnd = std::ldexp(1.0, -static_cast<int>(in.u8() % 20));
    if (mode & 4) p.min_cwnd = 1e-3 * (1 + in.u8() % 100);  // 0.001 (§3.4): not a q32 value
    p.max_cwnd = p.min_cwnd * (1 + static_cast<double>(in.u32() % 1'000'000));
    p.init_cwnd = p.min_cwnd + (p.max_cwnd - p.min_cwnd) * static_cast<double>(in.u8()) / 255.0;
    p.base_target = netcc::duration{1 + static_cast<std::int64_t>(in.u32() % 1'000'000)};
    p.per_hop = netcc::duration{static_cast<std::int64_t>(in.u16())};
    p.hops = in.u8();
    p.fs_range = netcc::duration{static_cast<std::int64_t>(in.u32() % 2'000'000)};
    p.fs_min_cwnd = std::ldexp(1.0, -static_cast<int>(in.u8() % 10));
    p.fs_max_cwnd = p.fs_min_cwnd * (2 + static_cast<double>(in.u16()));
    p.endpoint_target = netcc::duration{1 + static_cast<std::int64_t>(in.u32() % 1'000'000)};
  }
  harness h{p};
  const netcc::swift_params& q = h.d.params();
  std::int64_t t = static_cast<std::int64_t>(in.u32());
  for (int k = 0; k < 512 && !in.empty(); ++k) {
    const std::uint8_t op = in.u8();
    // Time: advance, stay, step back, or jump to an end of the clock.
    switch ((op >> 4) % 8) {
      case 0:
        break;
      case 1:
        t = std::numeric_limits<std::int64_t>::max() - static_cast<std::int64_t>(in.u8());
        break;
      case 2:
        t = std::numeric_limits<std::int64_t>::min() + static_cast<std::int64_t>(in.u8());
        break;
      default: {
        const std::int64_t s = in.small_step(200'000);
        t = netcc::detail::saturate_i64(i128{t} + s);
        break;
      }
    }
    // RTT: none, negative, tiny, near the targets, huge.
    std::int64_t rtt = 0;
    switch (in.u8() % 8) {
      case 0:
        rtt = 0;
        break;
      case 1:
        rtt = -static_cast<std::int64_t>(in.u32());
        break;
      case 2:
        rtt = in.i64();
        break;
      case 3:
        rtt = 1 + in.u8();
        break;
      default:
        rtt = static_cast<std::int64_t>(in.u32() % 400'000);
        break;
    }
    std::int64_t acked = 0;
    switch (in.u8() % 6) {
      case 0:
        acked = 0;
        break;
      case 1:
        acked = in.i64();
        break;
      default:
        acked = static_cast<std::int64_t>(in.u16());
        break;
    }
    const double n = num_acked(acked, q);
    const std::int64_t now = t;
    switch (op % 8) {
      case 0: {  // retransmission timeout; with bit 3, a run of up to 32 of them
        const int runs = (op & 0x08) != 0 ? 1 + in.u8() % 32 : 1;
        for (int i = 0; i < runs; ++i) {
          const std::int64_t at = i == 0 ? now : (t = in.time_after(t, 200'000));
          const std::int64_t last = h.d.rtt().count();
          h.step([&](auto& c) { c.on_timeout(netcc::timestamp{at}); }, at, last, false, 0, 0,
                 nullptr, 0, true);
        }
        break;
      }
      case 1: {  // fast recovery
        const std::int64_t last = h.d.rtt().count();
        h.step([&](auto& c) { c.on_fast_recovery(netcc::timestamp{now}); }, now, last, false, 0, 0,
               nullptr, 0, false);
        break;
      }
      case 2:
      case 3: {  // netcc::swift_ack_event: endpoint delay and hop count
        const netcc::swift_ack_event a{.now = netcc::timestamp{now},
                                       .rtt = netcc::duration{rtt},
                                       .remote_queuing = netcc::duration{in.small_step(100'000)},
                                       .local_rx_delay = netcc::duration{in.small_step(10'000)},
                                       .acked = netcc::bytes{acked},
                                       .hops = in.u8()};
        const std::int64_t ed =
            netcc::feedback_traits<netcc::swift_ack_event>::endpoint_delay(a).count();
        const std::size_t hops = a.hops != 0 ? a.hops : q.hops;
        const std::int64_t target = h.d.fabric_target(hops).count();
        const std::int64_t tq = h.q.fabric_target(hops).count();
        if (target != tq) h.agree = false;
        h.step([&](auto& c) { c.on_ack(a); }, now, rtt, true, target, tq, &ed, n, false);
        break;
      }
      default: {  // netcc::ack_event, sometimes with INT hop records
        netcc::ack_event a{.now = netcc::timestamp{now},
                           .acked = netcc::bytes{acked},
                           .rtt = netcc::duration{rtt}};
        const unsigned hops = op & 0x08 ? in.u8() % 6 : 0;
        for (unsigned i = 0; i < hops; ++i) a.hops.push({});
        const std::size_t hc = hops != 0 ? hops : q.hops;
        const std::int64_t target = h.d.fabric_target(hc).count();
        const std::int64_t tq = h.q.fabric_target(hc).count();
        if (target != tq) h.agree = false;
        h.step([&](auto& c) { c.on_ack(a); }, now, rtt, true, target, tq, nullptr, n, false);
        break;
      }
    }
  }
  return 0;
}
