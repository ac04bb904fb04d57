// SPDX-License-Identifier: MIT
// Fuzz harness: the Bolt sender (netcc/control/bolt_sender.hpp, NSDI'23 Algorithm 2, §3.2, §4.2,
// Swift's loss rules), double and q32, over decoded event sequences: SRCs with any reflected
// 32-bit TX timestamp (wrapped, from the future), queues zero, negative or huge, link rates zero
// or absurd; ACKs duplicated, reordered, wrapping, with RTTs of zero, negative or an hour and
// INC; application writes and sends of any size; timeouts (alone and in runs of up to 32, past
// RETX_RESET_THRESHOLD) and fast recoveries; time standing still, going back, jumping, negative
// and at both ends of the clock; arbitrary parameters (invalid ones included). Invariants after
// every event, for both policies:
//   * window finite and within [min_cwnd, max_cwnd] exactly (in the policy's type); cwnd()
//     within the same bytes; pacing_rate() within [1 bps, host_rate]: never 0, since the window
//     (>= min_cwnd >= 1 B) is always open;
//   * an SRC changes the window only by one decrement (one packet, or down to min_cwnd), counted
//     once, stamped with the SRC's time, and spaced from the previous one by a non-negative time;
//   * an ACK never lowers the window and raises it by at most two packets (INC + AI), one when
//     it carries no INC, none when it neither carries INC nor reaches seq_no_at_last_ai;
//   * a write or a send leaves the window alone; a timeout or a loss never raises it;
//   * every data packet carries INC; LAST only for a burst longer than one BDP; the pending and
//     bytes-sent counters never go negative; FIRST and LAST agree between the two policies
//     while their windows are equal.
// The compact q32 form (netcc::bolt_sender_compact) runs the same events: window within
// [min_cwnd, max_cwnd] (max_cwnd at most its 16 MB limit), pacing_rate() within [1 bps,
// host_rate], every packet INC, and the same marks as q32 while their windows are equal.
#include <netcc/control/bolt_sender.hpp>

#include <algorithm>

#include "fuzz_common.hpp"

namespace {

using netcc::fuzz::byte_reader;

netcc::bolt_sender_params read_params(byte_reader& in) {
  netcc::bolt_sender_params p;
  if (in.boolean()) return p;  // the paper's defaults
  p.mtu = netcc::bytes{static_cast<std::int64_t>(in.u32() % 70'000) - 10};
  p.host_rate = netcc::bit_rate{static_cast<std::int64_t>(in.below(900'000'000'001ULL)) - 1000};
  p.base_rtt = netcc::duration{static_cast<std::int64_t>(in.below(2'000'001)) - 10};
  p.cwnd_init = netcc::bytes{static_cast<std::int64_t>(in.u32()) - 1000};
  p.min_cwnd = netcc::bytes{static_cast<std::int64_t>(in.u32() % 200'000) - 10};
  p.max_cwnd = netcc::bytes{static_cast<std::int64_t>(in.u32())};
  p.max_mdf = in.boolean() ? static_cast<double>(in.u16()) / 65535.0 : in.raw_double();
  p.retx_reset_threshold = in.u8();
  p.additive_increase = in.boolean();
  return p;
}

template <class C>
struct checker {
  C cc;

  explicit checker(const netcc::bolt_sender_params& p) : cc(p) {}

  [[nodiscard]] double w() const { return netcc::to_double(cc.window()); }
  [[nodiscard]] double mtu() const { return static_cast<double>(cc.params().mtu.count()); }

  void bounds() const {
    const auto& p = cc.params();
    using nt = netcc::number_traits<typename C::value_type>;
    NETCC_FUZZ_CHECK(netcc::fuzz::finite(cc.window()));
    NETCC_FUZZ_CHECK(cc.window() >= nt::from_int(p.min_cwnd.count()));
    NETCC_FUZZ_CHECK(cc.window() <= nt::from_int(p.max_cwnd.count()));
    NETCC_FUZZ_CHECK(cc.cwnd() >= p.min_cwnd && cc.cwnd() <= p.max_cwnd);
    NETCC_FUZZ_CHECK(cc.pacing_rate() >= netcc::min_pacing_rate && cc.pacing_rate() <= p.host_rate);
    NETCC_FUZZ_CHECK(cc.rtt() > netcc::duration::zero());
    NETCC_FUZZ_CHECK(cc.pending() >= netcc::bytes::zero());
    NETCC_FUZZ_CHECK(cc.sent_since_idle() >= netcc::bytes::zero());
  }

  void src(const netcc::src_event& e) {
    const double before = w();
    const auto n0 = cc.decrements();
    const bool had = cc.decremented();
    const auto last = cc.last_decrement();
    cc.on_src(e);
    if (cc.decrements() == n0) {
      NETCC_FUZZ_CHECK(w() == before);
      NETCC_FUZZ_CHECK(cc.last_decrement() == last);
    } else {
      NETCC_FUZZ_CHECK(cc.decrements() == n0 + 1);
      const double floor = static_cast<double>(cc.params().min_cwnd.count());
      const double expect = std::max(before - mtu(), floor);
      NETCC_FUZZ_CHECK(std::abs(w() - expect) <= 1e-6 * std::max(1.0, expect));
      NETCC_FUZZ_CHECK(cc.last_decrement() == e.now);
      if (had) NETCC_FUZZ_CHECK(e.now >= last);
    }
    bounds();
  }

  void ack(const netcc::ack_event& e) {
    const double before = w();
    const bool due = cc.params().additive_increase;  // AI can only add when enabled
    cc.on_ack(e);
    const double up = w() - before;
    const double slack = 1e-6 * std::max(1.0, before);
    NETCC_FUZZ_CHECK(up >= -slack);
    NETCC_FUZZ_CHECK(up <= (e.inc ? 2 : 1) * mtu() + slack);
    if (!due && !e.inc) NETCC_FUZZ_CHECK(w() == before);
    NETCC_FUZZ_CHECK(cc.retransmit_count() == 0u);
    bounds();
  }

  netcc::bolt_marks send(netcc::bytes b, netcc::timestamp now) {
    const double before = w();
    const auto m = cc.on_send(b, now);
    NETCC_FUZZ_CHECK(m.inc);
    if (m.last) NETCC_FUZZ_CHECK(cc.sent_since_idle() > cc.bdp() - cc.pending());
    NETCC_FUZZ_CHECK(w() == before);
    bounds();
    return m;
  }

  void write(netcc::bytes b) {
    const double before = w();
    cc.on_write(b);
    NETCC_FUZZ_CHECK(w() == before);
    bounds();
  }

  void cut(bool timeout, netcc::timestamp now) {
    const double before = w();
    if (timeout) {
      cc.on_timeout(now);
    } else {
      cc.on_loss(now);
      NETCC_FUZZ_CHECK(cc.retransmit_count() == 0u);
    }
    NETCC_FUZZ_CHECK(w() <= before);
    bounds();
  }
};

void compact_bounds(const netcc::bolt_sender_compact& c) {
  const auto& p = c.params();
  NETCC_FUZZ_CHECK(p.max_cwnd <= netcc::bytes{netcc::bolt_sender_compact::window_limit});
  NETCC_FUZZ_CHECK(c.cwnd() >= p.min_cwnd && c.cwnd() <= p.max_cwnd);
  NETCC_FUZZ_CHECK(c.pacing_rate() >= netcc::min_pacing_rate && c.pacing_rate() <= p.host_rate);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_reader in(data, size);
  const auto params = read_params(in);
  checker<netcc::bolt_sender> d{params};
  checker<netcc::basic_bolt_sender<netcc::arith::q32>> q{params};
  netcc::bolt_sender_compact c{params};
  d.bounds();
  q.bounds();
  compact_bounds(c);
  std::int64_t now = static_cast<std::int64_t>(in.u64() >> 2);
  netcc::sequence seq = in.u64();
  int events = 0;  // timeout runs count every timeout: at most 1024 events per input
  for (int k = 0; k < 512 && events < 1024 && !in.empty(); ++k, ++events) {
    const std::uint8_t op = in.u8();
    now = in.u8() == 0 ? byte_reader::sat_add(now, static_cast<std::int64_t>(in.u32()) << 8)
                       : in.time_after(now, 20'000);
    const netcc::timestamp t{now};
    switch (op % 6) {
      case 0:
      case 1: {
        netcc::src_event e{.now = t};
        e.tx_timestamp = in.boolean() ? static_cast<std::uint32_t>(static_cast<std::uint64_t>(now) -
                                                                   in.below(60'000))  // modulo 2^32
                                      : in.u32();
        e.queue =
            netcc::bytes{in.boolean() ? static_cast<std::int64_t>(in.below(300'000)) : in.i64()};
        e.link_rate = netcc::bit_rate{
            in.boolean() ? static_cast<std::int64_t>(in.below(5)) * 100'000'000'000 : in.i64()};
        d.src(e);
        q.src(e);
        c.on_src(e);
        compact_bounds(c);
        break;
      }
      case 2: {
        seq += static_cast<std::uint64_t>(in.small_step(30'000));
        netcc::ack_event a{.now = t, .ack_seq = seq, .snd_nxt = seq + in.below(200'000)};
        a.rtt =
            netcc::duration{in.boolean() ? static_cast<std::int64_t>(in.below(100'000)) : in.i64()};
        a.inc = in.boolean();
        d.ack(a);
        q.ack(a);
        c.on_ack(a);
        compact_bounds(c);
        break;
      }
      case 3: {
        const netcc::bytes b{in.boolean() ? static_cast<std::int64_t>(in.below(10'000)) : in.i64()};
        const double wd = d.w(), wq = q.w();
        const bool same = c.window() == q.cc.window();
        const auto md = d.send(b, t);
        const auto mq = q.send(b, t);
        const auto mc = c.on_send(b, t);
        if (wd == wq) NETCC_FUZZ_CHECK(md == mq);
        NETCC_FUZZ_CHECK(mc.inc);
        if (same && c.pending() == q.cc.pending() && c.sent_since_idle() == q.cc.sent_since_idle())
          NETCC_FUZZ_CHECK(mc == mq);
        compact_bounds(c);
        break;
      }
      case 4: {
        const std::int64_t raw = in.i64();
        const netcc::bytes b{raw >> (in.u8() % 64)};
        d.write(b);
        q.write(b);
        c.on_write(b);
        compact_bounds(c);
        break;
      }
      default: {
        const std::uint8_t b = in.u8();
        const bool timeout = (b & 1) != 0;
        d.cut(timeout, t);
        q.cut(timeout, t);
        if (timeout) {
          c.on_timeout(t);
        } else {
          c.on_loss(t);
        }
        compact_bounds(c);
        if (timeout && (b & 0x80) != 0) {  // a run of timeouts, past RETX_RESET_THRESHOLD
          const int n = 1 + in.u8() % 32;
          for (int i = 0; i < n; ++i, ++events) {
            now = in.time_after(now, 1'000'000);
            d.cut(true, netcc::timestamp{now});
            q.cut(true, netcc::timestamp{now});
            c.on_timeout(netcc::timestamp{now});
            compact_bounds(c);
          }
        }
        break;
      }
    }
  }
  return 0;
}
