// SPDX-License-Identifier: MIT
// Fuzz harness: DCTCP (netcc/control/dctcp.hpp; the paper's Eq. 1-2, RFC 8257 §3.3-3.5) in six
// instantiations (double and q32 windows; alpha exact and scaled in 1/1024; growth proportional
// and by byte counting, RFC 5681 §3.1) over decoded event
// streams: cumulative ACKs advancing, duplicated, reordered and wrapping past 2^64; acked counts
// zero, negative and huge; snd_nxt running ahead or pulled back (go-back-N); echoes in bursts;
// fast-retransmit losses, timeouts (alone and in runs of up to 32) and sends; event times
// anywhere on the clock, its ends included (DCTCP reads none: they must change nothing);
// arbitrary parameters, invalid ones included.
// Invariants after every event:
//   * window finite and within [min_cwnd, max_cwnd] of the parameters in force, exactly in
//     the policy's number type, ssthresh too; alpha in [0, 1];
//   * a reduction exactly when a signal (echo, loss, timeout) meets no open window of data: a
//     window opens at a reduction and closes at the first later ACK beyond the SND.NXT of the
//     reduction (of the first ACK after a timeout, which cannot close it);
//   * an ACK with an echo never raises the window, one without never lowers it; CWR is pending
//     after an ECN cut until a send takes it;
//   * every instantiation takes the same reductions (the compact q32 state's 32-bit sequence
//     marks are exact here: every ACK stays within 2^31 B of them); while the byte counts stay
//     within the compact state's ranges (at most 2^26 B per ACK, 2^27 B in all), the q32 alpha
//     is within 3 * 2^-33 / g of the double one and the integer alphas are identical; the scaled
//     alpha is within its stated bound of Eq. 1 (when g is a power of two); without the
//     window-limited test the q32 windows are within their rounding bound (the compact state
//     adds 2^-21 B per stored window and ssthresh per event).
//   * byte counting takes the same reductions as the proportional rule, and its count stays
//     within [0, cwnd].
#include <netcc/control/dctcp.hpp>

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "fuzz_common.hpp"

namespace {

using netcc::fuzz::byte_reader;
using dctcp_q32 = netcc::basic_dctcp<netcc::arith::q32>;
using dctcp_scaled = netcc::basic_dctcp<netcc::arith::ieee_double, netcc::dctcp_alpha_scaled<10>>;

template <class C>
void check_bounds(const C& cc) {
  const auto& p = cc.params();
  using nt = netcc::number_traits<std::remove_cvref_t<decltype(cc.window())>>;
  NETCC_FUZZ_CHECK(netcc::fuzz::finite(cc.window()));
  NETCC_FUZZ_CHECK(cc.window() >= nt::from_int(p.min_cwnd.count()));
  NETCC_FUZZ_CHECK(cc.window() <= nt::from_int(p.max_cwnd.count()));
  NETCC_FUZZ_CHECK(cc.ssthresh() >= nt::from_int(p.min_cwnd.count()));
  NETCC_FUZZ_CHECK(cc.ssthresh() <= nt::from_int(p.max_cwnd.count()));
  NETCC_FUZZ_CHECK(cc.cwnd() >= p.min_cwnd && cc.cwnd() <= p.max_cwnd);
  const double t = netcc::to_double(cc.ssthresh());
  NETCC_FUZZ_CHECK(t >= static_cast<double>(p.min_cwnd.count()) &&
                   t <= static_cast<double>(p.max_cwnd.count()));
  const double a = netcc::to_double(cc.alpha());
  NETCC_FUZZ_CHECK(a >= 0.0 && a <= 1.0);
}

struct harness {
  netcc::dctcp d;
  dctcp_q32 q;
  dctcp_scaled s;
  netcc::dctcp_fixed f;
  // Byte counting in congestion avoidance (netcc::dctcp_growth_counting), double and compact.
  netcc::dctcp_counting dc;
  netcc::dctcp_fixed_counting fc;
  // The model of the window of data (see the file comment).
  bool open = false, arm_next = false;
  netcc::sequence end = 0;
  int events = 0;
  double wmax = 0;
  // Whether every byte count so far is within the compact state's counter range.
  bool counts_in_range = true;
  std::uint64_t counted = 0;

  explicit harness(const netcc::dctcp_params& p) : d(p), q(p), s(p), f(p), dc(p), fc(p) {
    wmax = d.window();
  }

  template <class Fn>
  void each(Fn fn) {
    fn(d);
    fn(q);
    fn(s);
    fn(f);
    fn(dc);
    fn(fc);
  }

  void before_ack(const netcc::ack_event& e) {
    if (arm_next) {
      end = e.snd_nxt;
      arm_next = false;
    } else if (open && netcc::seq_gt(e.ack_seq, end)) {
      open = false;
    }
  }

  void after(bool signal, bool timeout, netcc::sequence nxt, std::uint32_t before) {
    const std::uint32_t made = d.reductions() - before;
    NETCC_FUZZ_CHECK(made == (signal && !open ? 1u : 0u));
    if (timeout) {
      open = true;
      arm_next = true;
    } else if (made == 1u) {
      open = true;
      end = nxt;
    }
    NETCC_FUZZ_CHECK(d.in_reduction_window() == open);
    NETCC_FUZZ_CHECK(q.reductions() == d.reductions() && s.reductions() == d.reductions() &&
                     f.reductions() == d.reductions());
    NETCC_FUZZ_CHECK(q.in_reduction_window() == open && s.in_reduction_window() == open &&
                     f.in_reduction_window() == open);
    each([](const auto& c) { check_bounds(c); });
    // Reductions are decided by sequence numbers and signals alone, whatever the growth rule;
    // the byte count stays within [0, cwnd].
    NETCC_FUZZ_CHECK(dc.reductions() == d.reductions() && fc.reductions() == f.reductions());
    NETCC_FUZZ_CHECK(dc.ca_bytes() >= 0 && dc.ca_bytes() <= dc.window());
    NETCC_FUZZ_CHECK(netcc::to_double(fc.ca_bytes()) >= 0 && fc.ca_bytes() <= fc.window());
    compare();
  }

  void compare() {
    ++events;
    wmax = std::max(wmax, d.window());
    const double g = d.gain();
    const double alpha_tol = 3 * 0x1p-33 / g + 1e-15;
    if (s.gain() == g) {  // dctcp_alpha_scaled's bound: (-(2/g + 0.5), 0.5] units of 2^-10
      const double err = s.alpha() - d.alpha();
      NETCC_FUZZ_CHECK(err <= 0.5 * 0x1p-10 + 1e-12);
      NETCC_FUZZ_CHECK(err > -(2 / g + 0.5) * 0x1p-10 - 1e-12);
    }
    if (!counts_in_range) return;  // the compact counters halved where 64-bit ones did not
    NETCC_FUZZ_CHECK(std::abs(d.alpha() - netcc::to_double(q.alpha())) <= alpha_tol);
    NETCC_FUZZ_CHECK(s.alpha_raw() == f.alpha_raw());
    if (!d.params().cwnd_limited_growth) {  // the law is continuous: rounding bounds hold
      const auto mss = static_cast<double>(d.params().mss.count());
      const double per_event = (mss + 2) * 0x1p-33 + 4 * 0x1p-53 * wmax + 2 * 0x1p-21;
      NETCC_FUZZ_CHECK(std::abs(d.window() - netcc::to_double(q.window())) <=
                       events * (per_event + wmax * alpha_tol / 2) + 1e-9);
      NETCC_FUZZ_CHECK(std::abs(s.window() - netcc::to_double(f.window())) <=
                       events * per_event + 1e-9);
    }
  }

  void note_count(netcc::bytes acked) {
    const std::int64_t a = acked.count() > 0 ? acked.count() : 0;
    counted += static_cast<std::uint64_t>(a < (std::int64_t{1} << 40) ? a : std::int64_t{1} << 40);
    if (a > (std::int64_t{1} << 26) || counted > (std::uint64_t{1} << 27)) counts_in_range = false;
  }

  void ack(const netcc::ack_event& e) {
    note_count(e.acked);
    before_ack(e);
    const auto before = d.reductions();
    const double w0[4] = {d.window(), netcc::to_double(q.window()), s.window(),
                          netcc::to_double(f.window())};
    each([&](auto& c) { c.on_ack(e); });
    const double w1[4] = {d.window(), netcc::to_double(q.window()), s.window(),
                          netcc::to_double(f.window())};
    for (int i = 0; i < 4; ++i) NETCC_FUZZ_CHECK(e.ecn_echo ? w1[i] <= w0[i] : w1[i] >= w0[i]);
    const bool cut = d.reductions() != before;
    if (cut) NETCC_FUZZ_CHECK(d.cwr_pending() && f.cwr_pending());
    after(e.ecn_echo, false, e.snd_nxt, before);
  }

  void loss(const netcc::ack_event& e) {
    before_ack(e);
    const auto before = d.reductions();
    each([&](auto& c) { c.on_loss(e); });
    after(true, false, e.snd_nxt, before);
  }

  void timeout(std::int64_t now) {
    const auto before = d.reductions();
    each([&](auto& c) { c.on_timeout(netcc::timestamp{now}); });
    after(true, true, 0, before);
  }

  void send(netcc::bytes payload, std::int64_t now) {
    const bool pending = d.cwr_pending();
    bool took[6] = {};
    int i = 0;
    each([&](auto& c) { took[i++] = c.on_send(payload, netcc::timestamp{now}); });
    const bool expect = pending && payload > netcc::bytes{0};
    for (const bool t : took) NETCC_FUZZ_CHECK(t == expect);
    NETCC_FUZZ_CHECK(d.cwr_pending() == (pending && !expect));
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_reader in(data, size);
  netcc::dctcp_params p;
  const std::uint8_t mode = in.u8();
  if (mode & 1) {  // arbitrary parameters, invalid ones included
    p.g = in.raw_double();
    p.alpha_init = in.raw_double();
    p.mss = netcc::bytes{static_cast<std::int64_t>(in.u32() % 70'000) - 100};
    p.init_cwnd = netcc::bytes{in.i64() % 0x1'0000'0000};
    p.min_cwnd = netcc::bytes{static_cast<std::int64_t>(in.u32()) - 1000};
    p.max_cwnd = netcc::bytes{in.i64()};
    p.abc_limit = netcc::bytes{static_cast<std::int64_t>(in.u32() % 20'000) - 100};
  } else if (mode & 2) {  // valid, with g a power of two (the scaled bound applies)
    p.g = std::ldexp(1.0, -static_cast<int>(in.u8() % 11));
    p.alpha_init = static_cast<double>(in.u16()) / 65535.0;
    p.mss = netcc::bytes{1 + static_cast<std::int64_t>(in.u16() % 9000)};
    p.max_cwnd = netcc::bytes{p.mss.count() + static_cast<std::int64_t>(in.u32() % 0x7FFF'0000)};
  }
  p.cwnd_limited_growth = (mode & 4) == 0;
  harness h{p};
  netcc::sequence una = in.u64();  // anywhere, so sequence numbers wrap
  netcc::sequence nxt = una + in.below(1'000'000);
  std::int64_t now = 0;
  for (int k = 0; k < 512 && !in.empty(); ++k) {
    const std::uint8_t op = in.u8();
    if (op & 0x40) now = in.time_after(now, 20'000);  // any time, the clock's ends included
    switch (op % 16) {
      case 0: {  // a timeout; with bit 7, a run of up to 32
        const int runs = (op & 0x80) != 0 ? 1 + in.u8() % 32 : 1;
        for (int i = 0; i < runs; ++i) h.timeout(now);
        continue;
      }
      case 1:
        h.send(netcc::bytes{static_cast<std::int64_t>(in.below(3)) * 1460 - 1}, now);
        continue;
      default:
        break;
    }
    std::int64_t acked = 0;
    netcc::sequence seq = una;
    switch (in.u8() % 7) {
      case 0:  // duplicate
        break;
      case 1:  // reordered (an older cumulative ACK)
        seq = una - in.below(100'000);
        break;
      case 2:  // nonsense count
        acked = in.i64();
        una += static_cast<netcc::sequence>(in.below(1u << 20));
        seq = una;
        break;
      case 3:  // go-back-N: snd_nxt back to the cumulative ACK
        acked = static_cast<std::int64_t>(in.below(20'000));
        una += static_cast<netcc::sequence>(acked);
        seq = una;
        nxt = una;
        break;
      default:
        acked = static_cast<std::int64_t>(in.below(200'000));
        una += static_cast<netcc::sequence>(acked);
        seq = una;
        break;
    }
    if (netcc::seq_gt(una, nxt)) nxt = una;
    nxt += in.below(100'000);
    const netcc::ack_event e{.now = netcc::timestamp{now},
                             .ack_seq = seq,
                             .snd_nxt = nxt,
                             .acked = netcc::bytes{acked},
                             .ecn_echo = (op & 0x20) != 0};
    if (op % 16 == 2) {
      h.loss(e);
    } else {
      h.ack(e);
    }
  }
  return 0;
}
