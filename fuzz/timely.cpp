// SPDX-License-Identifier: MIT
// Fuzz harness: TIMELY (netcc/control/timely.hpp; SIGCOMM'15 §3.1, Algorithm 1, §5), double and
// q32 side by side, over decoded completion sequences: RTTs anywhere in the int64 range (zero,
// negative, an hour, 2^63 - 1), rising, falling and equal runs, completions at equal, earlier
// and far-apart times, ACKs of any size through the §3.1 serialisation subtraction, sends of
// any size for the §5 meter, stack-measured send rates, arbitrary parameters (invalid ones
// included). Completion and send times reach both ends of the clock and jump across it.
// Invariants after every call:
//   * rate() within [min_rate, line_rate] of the parameters in force, the rate and gradient
//     finite, the parameters in force valid; the rate in Mbps within [min_rate, line_rate]
//     exactly (q32: raw * 10^6 against bps * 2^32; the floor wins when no q32 value lies
//     between them); pacing_rate() = rate() >= 1 bps;
//   * a call that is no completion (no RTT, no newly acknowledged bytes, a send) moves neither
//     the rate, prev_rtt nor the HAI counter;
//   * a completion sets prev_rtt to its §3.1 RTT; above T_high it runs lines 8-10 and never
//     raises the rate; below T_low it runs lines 5-7 and never lowers it;
//   * the HAI counter is the run of negative gradients (saturating), reset by any completion
//     whose gradient is not negative; HAI (N delta) exactly when it reaches hai_threshold;
//     lines 11-12 only for a gradient <= 0, lines 13-14 only for a positive one;
//   * increases never lower and decreases never raise the rate; a withheld increase (§5
//     application-limited) changes nothing; with §5 scaling on, a completion stamped at or
//     before the latest earlier completion changes nothing;
//   * netcc::timely_rtt: never negative, never more than completion - send, and exactly
//     completion - send - serialisation whenever that is positive and fits;
//   * double and q32 run the same line of Algorithm 1 with rtt_diff within 1e-6 us and rates
//     within 1e-3 Mbps + 1e-6 of the line rate, while alpha and beta are exact in q32 and RTTs
//     stay below a second; the comparison stops at the first completion whose two rtt_diff
//     values lie on either side of zero within rounding of it, or whose §5 test sits on its
//     80 % boundary;
//   * netcc::timely_compact (the q32 rules over a 32-B packed state) within [min_rate,
//     line_rate] in bps and within one of its units in Mbps, and, while the trace stays in its
//     ranges (RTTs up to 2^32 - 1 ns, every time within 2^24 ns behind the latest and
//     2^32 - 2^24 ns after the earliest, sends below 2^23 B, hai_threshold <= 255), the same
//     line, HAI count, rtt_diff and prev_rtt as q32 with the rate within (n + 1)(2^rate_shift +
//     1) q32 units after n events; the comparison stops where the §5 test differs.
#include <netcc/control/timely.hpp>

#include <cmath>
#include <limits>

#include "fuzz_common.hpp"

namespace {

using netcc::fuzz::byte_reader;

struct op {
  int kind;  // 0: on_rtt, 1: on_rtt with a send rate, 2: on_ack, 3: on_ack with a send rate,
             // 4: on_send
  std::int64_t t;
  std::int64_t rtt;
  std::int64_t amount;  // bytes (ACK, send) or bps (send rate)
  std::int64_t acked;
};

// The RTT a completion call gives Algorithm 1 (zero: not a completion).
netcc::duration seen_rtt(const netcc::timely_params& p, const op& o) {
  if (o.kind == 4 || o.rtt <= 0) return netcc::duration::zero();
  if (o.kind <= 1) return netcc::duration{o.rtt};
  if (o.acked <= 0) return netcc::duration::zero();
  if (p.ack_rtt == netcc::timely_ack_rtt::net) return netcc::duration{o.rtt};
  const netcc::bytes seg{o.acked < p.segment.count() ? o.acked : p.segment.count()};
  return netcc::timely_rtt(netcc::duration{o.rtt}, seg, p.line_rate);
}

template <class C>
void apply(C& cc, const op& o) {
  const netcc::timestamp t{o.t};
  const netcc::duration rtt{o.rtt};
  const netcc::ack_event a{.now = t, .acked = netcc::bytes{o.acked}, .rtt = rtt};
  switch (o.kind) {
    case 0:
      cc.on_rtt(netcc::rtt_event{.now = t, .rtt = rtt});
      break;
    case 1:
      cc.on_rtt(netcc::rtt_event{.now = t, .rtt = rtt}, netcc::bit_rate{o.amount});
      break;
    case 2:
      cc.on_ack(a);
      break;
    case 3:
      cc.on_ack(a, netcc::bit_rate{o.amount});
      break;
    default:
      cc.on_send(netcc::bytes{o.amount}, t);
  }
}

template <class C>
void check_bounds(const C& cc) {
  const auto p = cc.params();
  NETCC_FUZZ_CHECK(netcc::validate(p).ok());
  NETCC_FUZZ_CHECK(cc.rate() >= p.min_rate && cc.rate() <= p.line_rate);
  NETCC_FUZZ_CHECK(cc.pacing_rate() == cc.rate());
  NETCC_FUZZ_CHECK(cc.pacing_rate() >= netcc::min_pacing_rate);
  NETCC_FUZZ_CHECK(netcc::fuzz::finite(cc.rate_mbps()) && netcc::fuzz::finite(cc.gradient()));
  // Exactly, in the policy's own number type.
  using T = typename C::value_type;
  NETCC_FUZZ_CHECK(netcc::fuzz::ratio_ge(cc.rate_mbps(), p.min_rate.bps(), 1'000'000));
  if (netcc::ratio_down<T>(p.line_rate.bps(), 1'000'000) <
      netcc::ratio_up<T>(p.min_rate.bps(), 1'000'000)) {
    NETCC_FUZZ_CHECK(cc.rate_mbps() == netcc::ratio_up<T>(p.min_rate.bps(), 1'000'000));
  } else {
    NETCC_FUZZ_CHECK(netcc::fuzz::ratio_le(cc.rate_mbps(), p.line_rate.bps(), 1'000'000));
  }
  // In Mbps, within the rounding of bps / 10^6 (relative 2^-52 in double, 2^-33 Mbps in q32).
  const double mb = netcc::to_double(cc.rate_mbps());
  const double lo = static_cast<double>(p.min_rate.bps()) / 1e6;
  const double hi = static_cast<double>(p.line_rate.bps()) / 1e6;
  NETCC_FUZZ_CHECK(mb >= lo - 1e-9 * (1 + lo));
  NETCC_FUZZ_CHECK(mb <= hi + 1e-9 * (1 + hi));
}

// The compact form's bounds: rate() as any TIMELY; the rate in Mbps within one unit of them.
void check_compact_bounds(const netcc::timely_compact& cc) {
  const auto p = cc.params();
  NETCC_FUZZ_CHECK(netcc::timely_compact::validate(p).ok());
  NETCC_FUZZ_CHECK(cc.rate() >= p.min_rate && cc.rate() <= p.line_rate);
  NETCC_FUZZ_CHECK(cc.pacing_rate() == cc.rate());
  const double unit = std::ldexp(1.0, cc.configuration().rate_shift() - 32);
  const double mb = cc.rate_mbps().to_double();
  NETCC_FUZZ_CHECK(mb >= static_cast<double>(p.min_rate.bps()) / 1e6 - unit - 1e-9);
  NETCC_FUZZ_CHECK(mb <= static_cast<double>(p.line_rate.bps()) / 1e6 + unit + 1e-9);
}

// One call and the laws of its step. `last` is the latest completion time so far (has_last
// says whether there was one).
template <class C>
void step(C& cc, const op& o, bool has_last, std::int64_t last) {
  using act = netcc::timely_action;
  const auto p = cc.params();
  const C before = cc;
  apply(cc, o);
  check_bounds(cc);
  const netcc::duration rtt = seen_rtt(p, o);
  if (rtt <= netcc::duration::zero()) {
    NETCC_FUZZ_CHECK(cc.rate_mbps() == before.rate_mbps());
    NETCC_FUZZ_CHECK(cc.prev_rtt() == before.prev_rtt());
    NETCC_FUZZ_CHECK(cc.negative_gradients() == before.negative_gradients());
    NETCC_FUZZ_CHECK(cc.last_action() == before.last_action());
    return;
  }
  NETCC_FUZZ_CHECK(cc.prev_rtt() == rtt);
  // The gradient's sign is rtt_diff's (min_rtt > 0); the controller tests rtt_diff, since the
  // quotient rounds small values to 0 in q32.
  const double g = netcc::to_double(cc.rtt_diff_us());
  const act a = cc.last_action();
  if (rtt > p.t_high) {
    NETCC_FUZZ_CHECK(a == act::decrease_high);
    NETCC_FUZZ_CHECK(cc.rate_mbps() <= before.rate_mbps());
  } else if (rtt < p.t_low) {
    NETCC_FUZZ_CHECK(a == act::increase_low);
    NETCC_FUZZ_CHECK(cc.rate_mbps() >= before.rate_mbps());
  } else if (g <= 0) {
    NETCC_FUZZ_CHECK(a == act::increase || a == act::increase_hai);
    NETCC_FUZZ_CHECK((a == act::increase_hai) == cc.hai());
  } else {
    NETCC_FUZZ_CHECK(a == act::decrease_gradient);
  }
  const std::uint32_t n0 = before.negative_gradients();
  if (g < 0) {
    NETCC_FUZZ_CHECK(cc.negative_gradients() == (n0 == 0xFFFF'FFFFu ? n0 : n0 + 1));
  } else {
    NETCC_FUZZ_CHECK(cc.negative_gradients() == 0u && !cc.hai());
  }
  NETCC_FUZZ_CHECK(cc.hai() == (cc.negative_gradients() >= p.hai_threshold));
  if (a == act::increase_low || a == act::increase || a == act::increase_hai) {
    NETCC_FUZZ_CHECK(cc.rate_mbps() >= before.rate_mbps());
  } else {
    NETCC_FUZZ_CHECK(cc.rate_mbps() <= before.rate_mbps());
  }
  if (cc.increase_held()) NETCC_FUZZ_CHECK(cc.rate_mbps() == before.rate_mbps());
  if (p.scale_updates && has_last && o.t <= last)
    NETCC_FUZZ_CHECK(cc.rate_mbps() == before.rate_mbps());
}

void check_rtt_helper(std::int64_t c, std::int64_t s, std::int64_t seg, std::int64_t rate) {
  const netcc::duration r = netcc::timely_rtt(netcc::timestamp{c}, netcc::timestamp{s},
                                              netcc::bytes{seg}, netcc::bit_rate{rate});
  NETCC_FUZZ_CHECK(r >= netcc::duration::zero());
  const netcc::detail::i128 span = netcc::detail::i128{c} - s;  // exact
  NETCC_FUZZ_CHECK(r.count() == 0 || netcc::detail::i128{r.count()} <= span);
  const netcc::detail::i128 ser =
      seg > 0 && rate > 0 ? (netcc::bytes{seg} / netcc::bit_rate{rate}).count() : 0;
  const netcc::detail::i128 want = span - ser;
  if (want <= 0) {
    NETCC_FUZZ_CHECK(r.count() == 0);
  } else if (want <= std::numeric_limits<std::int64_t>::max()) {
    NETCC_FUZZ_CHECK(netcc::detail::i128{r.count()} == want);
  } else {
    NETCC_FUZZ_CHECK(r == netcc::duration::max());
  }
}

std::int64_t next_rtt(byte_reader& in, std::int64_t rtt) {
  switch (in.u8() % 8) {
    case 0:
      return in.i64();  // anywhere: zero, negative, an hour, the int64 ends
    case 1:
      return static_cast<std::int64_t>(in.below(700'000));  // T_low and T_high territory
    case 2:
      return rtt > std::numeric_limits<std::int64_t>::min() + 10'000
                 ? rtt - static_cast<std::int64_t>(in.below(10'000))
                 : rtt;  // falling (HAI)
    case 3:
      return rtt < std::numeric_limits<std::int64_t>::max() - 10'000
                 ? rtt + static_cast<std::int64_t>(in.below(10'000))
                 : rtt;  // rising
    case 4:
      return 3'600'000'000'000;  // an hour
    default:
      return rtt;  // equal
  }
}

std::int64_t next_time(byte_reader& in, std::int64_t t) {
  switch (in.u8() % 6) {
    case 0:
      return in.i64();
    case 1:
      return t;  // equal timestamps
    default:     // small steps, and (byte_reader::time_after) the ends of the clock
      return in.time_after(t, 40'000);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_reader in(data, size);
  netcc::timely_params p;
  if (in.boolean()) {  // arbitrary parameters, invalid ones included
    p.t_low = netcc::duration{in.small_step(200'000)};
    p.t_high = netcc::duration{in.boolean() ? in.i64() : in.small_step(1'000'000)};
    p.delta = netcc::bit_rate{in.boolean() ? in.i64() : in.small_step(100'000'000)};
    p.beta = in.boolean() ? in.raw_double() : static_cast<double>(in.u8()) / 255.0;
    p.alpha = in.boolean() ? in.raw_double() : static_cast<double>(in.u8()) / 255.0;
    p.hai_threshold = in.boolean() ? in.u32() : in.u8() % 10;
    p.hai_factor = in.boolean() ? in.u32() : in.u8() % 10;
    p.min_rtt = netcc::duration{in.boolean() ? in.i64() : in.small_step(50'000)};
    p.segment = netcc::bytes{in.boolean() ? in.i64() : in.small_step(64'000)};
    p.line_rate = netcc::bit_rate{in.boolean() ? in.i64() : in.small_step(100'000'000'000)};
    p.min_rate = netcc::bit_rate{in.boolean() ? in.i64() : in.small_step(1'000'000'000)};
    p.initial_rate = netcc::bit_rate{in.boolean() ? in.i64() : in.small_step(10'000'000'000)};
    p.app_limit = in.boolean() ? in.raw_double() : static_cast<double>(in.u8()) / 200.0;
    p.send_rate_window = netcc::duration{in.small_step(100'000)};
    p.scale_updates = in.boolean();
    p.ack_rtt = static_cast<netcc::timely_ack_rtt>(in.u8() % 3);
    p.max_outstanding = netcc::bytes{in.i64()};
  }
  netcc::timely d{p};
  netcc::basic_timely<netcc::arith::q32> q{p};
  netcc::timely_compact c{p};
  check_bounds(d);
  check_bounds(q);
  check_compact_bounds(c);
  // The compact form follows q32 with the same parameters, within its ranges.
  bool compare_c = p.hai_threshold <= netcc::timely_compact::max_hai_threshold;
  const double unit_c = std::ldexp(1.0, c.configuration().rate_shift() - 32);
  std::int64_t t_min = 0, t_max = 0;
  int events_c = 0;
  const auto pd = d.params();
  // The policies follow one another only with the same constants: alpha and beta exact in q32.
  const double a32 = std::ldexp(pd.alpha, 32), b32 = std::ldexp(pd.beta, 32);
  bool compare = a32 == std::floor(a32) && b32 == std::floor(b32);
  const double line = static_cast<double>(pd.line_rate.bps()) / 1e6;
  std::int64_t t = 0, rtt = 100'000, last = 0;
  bool has_last = false;
  for (int k = 0; k < 512 && !in.empty(); ++k) {
    const std::uint8_t sel = in.u8();
    t = next_time(in, t);
    rtt = next_rtt(in, rtt);
    op o{sel % 5, t, rtt, 0, 0};
    o.amount = in.boolean() ? in.i64() : static_cast<std::int64_t>(in.below(20'000'000'000));
    o.acked = in.boolean() ? in.i64() : static_cast<std::int64_t>(in.below(70'000));
    if ((sel >> 3) % 4 == 0) check_rtt_helper(in.i64(), in.i64(), in.i64(), in.i64());
    step(d, o, has_last, last);
    step(q, o, has_last, last);
    apply(c, o);
    check_compact_bounds(c);
    if (k == 0) t_min = t_max = o.t;
    const netcc::detail::i128 ahead = netcc::detail::i128{o.t} - t_min;
    const netcc::detail::i128 behind = netcc::detail::i128{t_max} - o.t;
    if (o.t < t_min) t_min = o.t;
    if (o.t > t_max) t_max = o.t;
    const bool in_range = ahead <= (netcc::detail::i128{1} << 32) - (1 << 24) &&
                          behind < (1 << 24) && (o.kind != 4 || o.amount < (1 << 23)) &&
                          seen_rtt(pd, o) <= netcc::duration{netcc::timely_compact::max_rtt} &&
                          t_max - t_min <= (std::int64_t{1} << 32) - (1 << 24);
    compare_c = compare_c && in_range;
    if (compare_c) {
      ++events_c;
      if (c.increase_held() != q.increase_held()) {
        compare_c = false;  // the §5 test within the rate's rounding of its boundary
      } else {
        NETCC_FUZZ_CHECK(c.last_action() == q.last_action());
        NETCC_FUZZ_CHECK(c.negative_gradients() ==
                         (q.negative_gradients() < 255 ? q.negative_gradients() : 255u));
        NETCC_FUZZ_CHECK(c.rtt_diff_us() == q.rtt_diff_us());
        NETCC_FUZZ_CHECK(c.prev_rtt() == q.prev_rtt());
        NETCC_FUZZ_CHECK(std::abs(c.rate_mbps().to_double() - q.rate_mbps().to_double()) <=
                         (events_c + 1) * (unit_c + 0x1p-32));
      }
    }
    const bool completion = seen_rtt(pd, o) > netcc::duration::zero();
    if (completion && (!has_last || o.t > last)) last = o.t;
    has_last = has_last || completion;
    if (completion && o.rtt > 1'000'000'000) compare = false;  // beyond a second: q32 saturates
    if (!compare || !completion) continue;
    if (d.last_action() != q.last_action() || d.negative_gradients() != q.negative_gradients()) {
      // Only where the gradient's sign is a matter of rounding: the two rtt_diff values on
      // either side of 0, within rounding of it.
      const double dd = d.rtt_diff_us(), qd = q.rtt_diff_us().to_double();
      NETCC_FUZZ_CHECK((dd < 0) != (qd < 0) && std::abs(dd) < 1e-6);
      compare = false;
      continue;
    }
    if (d.increase_held() != q.increase_held()) {  // the §5 test on its boundary
      compare = false;
      continue;
    }
    NETCC_FUZZ_CHECK(std::abs(d.rtt_diff_us() - q.rtt_diff_us().to_double()) <= 1e-6);
    NETCC_FUZZ_CHECK(std::abs(d.rate_mbps() - q.rate_mbps().to_double()) <= 1e-3 + 1e-6 * line);
  }
  return 0;
}
