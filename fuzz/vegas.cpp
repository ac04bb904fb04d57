// SPDX-License-Identifier: MIT
// Fuzz harness: TCP Vegas (netcc/control/vegas.hpp; Brakmo-Peterson JSAC'95 §III; seed 003
// Algorithm 3) in double and q32 over decoded event streams: cumulative ACKs advancing,
// duplicated, reordered and wrapping past 2^64; snd_nxt running ahead or pulled back (go-back-N);
// RTT samples of zero, negative, one nanosecond, around a base, an hour, 2^63 - 1 ns, and runs of
// decreasing or repeated ones; acked counts zero, negative and huge; losses (first and repeated
// retransmissions) and timeouts (alone and in runs of up to 32); event times anywhere on the
// clock, its ends included (Vegas reads none); arbitrary parameters, invalid ones included.
// Invariants after every event:
//   * window finite and within [min_cwnd, max_cwnd] of the parameters in force, exactly in the
//     policy's number type, ssthresh too;
//   * rounds: the window changes on an ACK only when that ACK ends a round, as an independent
//     model of the snd_nxt marker says (it begins at the first ACK, after a timeout, or at a
//     loss decrease, at the snd_nxt then, and ends at the first ACK reaching it), and the round
//     count moves by one exactly then;
//   * outside slow start, a round with a sample moves the window by one MSS at most (less at the
//     bounds): up only if diff < alpha, down only if diff > beta (diff recomputed from the model's
//     BaseRTT and minRTT, compared within the rounding of each policy), and a round without a
//     sample moves nothing;
//   * a loss never raises the window and decreases exactly when no decrease happened before or
//     its segment reached the snd_nxt of the last decrease (§III-A); a timeout always decreases;
//   * double and q32 take the same rounds and decreases, and the same slow-start state, until
//     their own arithmetic puts a value on different sides of a threshold;
//   * the compact form (netcc::vegas_compact) on the same events: window and ssthresh within
//     [min_cwnd, max_cwnd] on any stream (its agreement with q32 within its ranges is a property
//     of tests/control/vegas_test.cpp).
#include <netcc/control/vegas.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "fuzz_common.hpp"

namespace {

using netcc::duration;
using netcc::sequence;
using netcc::fuzz::byte_reader;
using q32 = netcc::vegas_fixed::value_type;

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
}

struct harness {
  netcc::vegas d;
  netcc::vegas_fixed q;
  netcc::vegas_compact c;  // the 32-B state: bounds and counters on any stream
  double m = 0, lo = 0, hi = 0;
  // The round model (see the file comment).
  bool armed = false, sampled = false;
  sequence mark = 0;
  duration base = duration::max(), rmin = duration::max();
  // The §III-A model.
  bool decreased = false, rearm = false;
  sequence loss_mark = 0;
  // Whether the two policies still take the same decisions.
  bool together = true;

  explicit harness(const netcc::vegas_params& p) : d(p), q(p), c(p) {
    m = static_cast<double>(d.params().mss.count());
    lo = static_cast<double>(d.params().min_cwnd.count());
    hi = static_cast<double>(d.params().max_cwnd.count());
  }

  void check_both() {
    check_bounds(d);
    check_bounds(q);
    check_bounds(c);
    if (!together) return;
    NETCC_FUZZ_CHECK(q.rounds() == d.rounds() && q.reductions() == d.reductions());
    NETCC_FUZZ_CHECK(q.in_slow_start() == d.in_slow_start());
    NETCC_FUZZ_CHECK(q.doubling_round() == d.doubling_round());
    NETCC_FUZZ_CHECK(q.base_rtt() == d.base_rtt() && q.round_min_rtt() == d.round_min_rtt());
  }

  void ack(const netcc::ack_event& e) {
    if (rearm) {
      loss_mark = e.snd_nxt;
      rearm = false;
    }
    if (!armed) {
      mark = e.snd_nxt;
      armed = true;
    }
    if (e.rtt > duration::zero()) {
      base = std::min(base, e.rtt);
      rmin = sampled ? std::min(rmin, e.rtt) : e.rtt;
      sampled = true;
    }
    const bool ends = netcc::seq_geq(e.ack_seq, mark);
    const bool had = sampled;
    const duration b = base, r = rmin;
    if (ends) {
      sampled = false;
      rmin = duration::max();
      mark = e.snd_nxt;
    }
    const auto& p = d.params();
    const double w0 = d.window();
    const q32 wq0 = q.window();
    const bool ss = d.in_slow_start();
    const auto rounds = d.rounds();
    // Window-limited test at this ACK, as the controller computes it (true when not asked for).
    const sequence out = netcc::seq_geq(e.snd_nxt, e.ack_seq) ? e.snd_nxt - e.ack_seq : 0;
    const sequence a = e.acked.count() > 0 ? static_cast<sequence>(e.acked.count()) : 0;
    constexpr sequence cap = 0x7FFF'FFFF;
    const auto f = static_cast<std::int64_t>(out < cap && a < cap - out ? out + a : cap);
    const auto fd = static_cast<double>(f);
    const q32 fq = netcc::number_traits<q32>::from_int(f);
    const q32 mq = netcc::number_traits<q32>::from_int(p.mss.count());
    const bool may_grow = !p.cwnd_limited_growth || (ss ? !(fd + fd < w0) : !(fd + m < w0));
    const bool may_grow_q = !p.cwnd_limited_growth || (ss ? !(fq + fq < wq0) : !(fq + mq < wq0));
    if (together && ends && had) {
      // Do the policies' own values fall on one side of each threshold? If not, their decisions
      // may differ from here on (a rounding tie), and the comparison stops.
      const double diff = netcc::vegas_diff(w0 / m, b, r);
      const q32 diff_q = netcc::vegas_diff(wq0 / mq, b, r);
      const auto side = [](auto x, double t) {
        return (x < netcc::num<decltype(x)>(t) ? 1 : 0) + (x > netcc::num<decltype(x)>(t) ? 2 : 0);
      };
      for (const double t : {p.alpha, p.beta, p.gamma})
        if (side(diff, t) != side(diff_q, t)) together = false;
      if (may_grow != may_grow_q) together = false;
      if (ss && ((w0 + w0 < d.ssthresh()) != (wq0 + wq0 < q.ssthresh()))) together = false;
    }
    d.on_ack(e);
    q.on_ack(e);
    c.on_ack(e);
    const double w1 = d.window();
    NETCC_FUZZ_CHECK(d.rounds() == rounds + (ends ? 1u : 0u));
    if (!ends || !had) {
      NETCC_FUZZ_CHECK(w1 == w0);  // no change inside a round, nor without a sample
    } else {
      // diff as the double controller computes it: the comparisons below are exact.
      const double diff = netcc::vegas_diff(w0 / m, b, r);
      if (!ss) {  // Alg. 3 lines 20-24
        if (w1 > w0) NETCC_FUZZ_CHECK(diff < p.alpha && may_grow && w1 == std::min(w0 + m, hi));
        if (w1 < w0) NETCC_FUZZ_CHECK(diff > p.beta && w1 == std::max(w0 - m, lo));
        if (w1 == w0)
          NETCC_FUZZ_CHECK(!(diff < p.alpha && may_grow && w0 < hi) && !(diff > p.beta && w0 > lo));
      } else if (diff > p.gamma) {  // lines 10-12
        const double ratio = static_cast<double>(b.count()) / static_cast<double>(r.count());
        NETCC_FUZZ_CHECK(w1 == std::clamp(w0 * ratio, lo, hi) && !d.in_slow_start());
      } else {  // lines 14-17: hold, or double up to ssthresh
        NETCC_FUZZ_CHECK(w1 == w0 || w1 == std::clamp(std::min(w0 + w0, d.ssthresh()), lo, hi));
      }
    }
    check_both();
  }

  void loss(const netcc::ack_event& e, bool again) {
    if (rearm) {
      loss_mark = e.snd_nxt;
      rearm = false;
    }
    const double w0 = d.window();
    const auto before = d.reductions();
    if (together && ((w0 > 3 * m) != (q.window() > netcc::number_traits<q32>::from_int(
                                                       3 * d.params().mss.count()))))
      together = false;
    d.on_loss(e, again);
    q.on_loss(e, again);
    c.on_loss(e, again);
    const bool expect = !decreased || netcc::seq_geq(e.ack_seq, loss_mark);
    NETCC_FUZZ_CHECK(d.reductions() == static_cast<std::uint16_t>(before + (expect ? 1 : 0)));
    NETCC_FUZZ_CHECK(d.window() <= w0);
    if (expect) {
      decreased = true;
      loss_mark = e.snd_nxt;
      armed = true;  // the decrease begins a round
      mark = e.snd_nxt;
      sampled = false;
      rmin = duration::max();
      NETCC_FUZZ_CHECK(!d.in_slow_start() && !q.in_slow_start());
    } else {
      NETCC_FUZZ_CHECK(d.window() == w0);
    }
    check_both();
  }

  void timeout(std::int64_t now) {
    const auto before = d.reductions();
    d.on_timeout(netcc::timestamp{now});
    q.on_timeout(netcc::timestamp{now});
    c.on_timeout(netcc::timestamp{now});
    NETCC_FUZZ_CHECK(d.reductions() == static_cast<std::uint16_t>(before + 1));
    NETCC_FUZZ_CHECK(d.window() == lo && d.in_slow_start());
    decreased = rearm = true;
    armed = sampled = false;
    rmin = duration::max();
    check_both();
  }
};

std::int64_t rtt_of(byte_reader& in, std::int64_t base, std::int64_t& last) {
  std::int64_t r = 0;
  switch (in.u8() % 12) {
    case 0:
      r = 0;
      break;
    case 1:
      r = -static_cast<std::int64_t>(in.below(1'000'000'000));
      break;
    case 2:
      r = 1;
      break;
    case 3:
      r = 3'600'000'000'000;  // an hour
      break;
    case 4:
      r = std::numeric_limits<std::int64_t>::max();
      break;
    case 5:
      r = in.i64();
      break;
    case 6:  // decreasing
      r = last > std::numeric_limits<std::int64_t>::min() + 1000
              ? last - static_cast<std::int64_t>(in.below(1000))
              : last;
      break;
    case 7:  // repeated
      r = last;
      break;
    default:  // around the base: a queue of a few packets for windows of tens to thousands
      r = base + base / static_cast<std::int64_t>(1 + in.below(2000));
      break;
  }
  last = r;
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_reader in(data, size);
  netcc::vegas_params p;
  const std::uint8_t mode = in.u8();
  if (mode & 1) {  // arbitrary parameters, invalid ones included
    p.alpha = in.raw_double();
    p.beta = in.raw_double();
    p.gamma = in.raw_double();
    p.mss = netcc::bytes{static_cast<std::int64_t>(in.u32() % 70'000) - 100};
    p.init_cwnd = netcc::bytes{in.i64() % 0x1'0000'0000};
    p.min_cwnd = netcc::bytes{static_cast<std::int64_t>(in.u32()) - 1000};
    p.max_cwnd = netcc::bytes{in.i64()};
  } else if (mode & 2) {  // valid, varied
    p.alpha = static_cast<double>(in.u8() % 16) / 4;
    p.beta = p.alpha + static_cast<double>(1 + in.u8() % 16) / 4;
    p.gamma = static_cast<double>(in.u8() % 8) / 4;
    p.mss = netcc::bytes{1 + static_cast<std::int64_t>(in.u16() % 9000)};
    p.init_cwnd = netcc::bytes{static_cast<std::int64_t>(in.u32() % 10'000'000)};
    p.max_cwnd =
        netcc::bytes{2 * p.mss.count() + static_cast<std::int64_t>(in.u32() % 0x7FFF'0000)};
  }
  p.cwnd_limited_growth = (mode & 4) != 0;
  harness h{p};
  const auto base = static_cast<std::int64_t>(1 + in.below(100'000'000));
  std::int64_t last = base;
  sequence una = in.u64();  // anywhere, so sequence numbers wrap
  sequence nxt = una + in.below(1'000'000);
  std::int64_t now = 0;
  for (int k = 0; k < 512 && !in.empty(); ++k) {
    const std::uint8_t op = in.u8();
    if (op & 0x40) now = in.time_after(now, 20'000);  // any time, the clock's ends included
    if (op % 16 == 0) {                               // a timeout; with bit 7, a run of up to 32
      const int runs = (op & 0x80) != 0 ? 1 + in.u8() % 32 : 1;
      for (int i = 0; i < runs; ++i) h.timeout(now);
      continue;
    }
    std::int64_t acked = 0;
    sequence seq = una;
    switch (in.u8() % 7) {
      case 0:  // duplicate
        break;
      case 1:  // reordered (an older cumulative ACK)
        seq = una - in.below(100'000);
        break;
      case 2:  // nonsense count
        acked = in.i64();
        una += static_cast<sequence>(in.below(1u << 20));
        seq = una;
        break;
      case 3:  // go-back-N: snd_nxt back to the cumulative ACK
        acked = static_cast<std::int64_t>(in.below(20'000));
        una += static_cast<sequence>(acked);
        seq = una;
        nxt = una;
        break;
      default:
        acked = static_cast<std::int64_t>(in.below(200'000));
        una += static_cast<sequence>(acked);
        seq = una;
        break;
    }
    if (netcc::seq_gt(una, nxt)) nxt = una;
    nxt += in.below(100'000);
    const netcc::ack_event e{.now = netcc::timestamp{now},  // time is never read
                             .ack_seq = seq,
                             .snd_nxt = nxt,
                             .acked = netcc::bytes{acked},
                             .rtt = duration{rtt_of(in, base, last)}};
    if (op % 16 == 1) {
      h.loss(e, (op & 0x20) != 0);
    } else {
      h.ack(e);
    }
  }
  return 0;
}
