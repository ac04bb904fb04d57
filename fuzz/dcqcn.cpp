// SPDX-License-Identifier: MIT
// Fuzz harness: the DCQCN reaction point (netcc/control/dcqcn.hpp; DCQCN SIGCOMM'15 §3.1, seed
// 003 §V Tables I-II), double and q32, over decoded call sequences: CNP storms, timers called
// late, early, out of order or at the end of the clock, sends of any size, arbitrary
// parameters. Invariants after every call:
//   * R_C and R_T within [min_rate, line_rate] of the parameters in force; alpha in [0, 1];
//   * a CNP never raises R_C, and leaves R_C <= R_T with both counters at zero;
//   * a call from the past changes nothing;
//   * both policies count the same timer and byte events.
#include <netcc/control/dcqcn.hpp>

#include "fuzz_common.hpp"

namespace {

using netcc::fuzz::byte_reader;

template <class C>
void check(const C& rp) {
  const auto p = rp.params();
  for (const auto r : {rp.rate(), rp.target_rate()}) {
    NETCC_FUZZ_CHECK(r >= p.min_rate && r <= p.line_rate);
  }
  const double a = netcc::to_double(rp.alpha());
  NETCC_FUZZ_CHECK(a >= 0.0 && a <= 1.0);
}

template <class C>
void step(C& rp, int kind, std::int64_t t, std::int64_t b, std::int64_t& latest) {
  const bool past = t < latest;
  const auto rc = rp.rate(), rt = rp.target_rate();
  const auto it = rp.timer_count(), ib = rp.byte_count();
  if (kind == 0) {
    rp.on_timer(netcc::timestamp{t});  // timers first, so the CNP alone is checked
    const auto before = rp.rate();
    rp.on_cnp(netcc::cnp_event{.now = netcc::timestamp{t}});
    if (!past) {
      NETCC_FUZZ_CHECK(rp.rate() <= before && rp.rate() <= rp.target_rate());
      NETCC_FUZZ_CHECK(rp.timer_count() == 0 && rp.byte_count() == 0);
    }
  } else if (kind == 1) {
    rp.on_timer(netcc::timestamp{t});
  } else {
    rp.on_send(netcc::bytes{b}, netcc::timestamp{t});
  }
  if (past) {
    NETCC_FUZZ_CHECK(rp.rate() == rc && rp.target_rate() == rt);
    NETCC_FUZZ_CHECK(rp.timer_count() == it && rp.byte_count() == ib);
  }
  check(rp);
}

}  // namespace

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
    p.byte_counter = netcc::bytes{in.small_step(20'000'000)};
    p.r_ai = netcc::bit_rate{in.i64()};
    p.r_hi = netcc::bit_rate{in.i64()};
    p.f = in.u32() % 20;
    p.cut = in.boolean() ? netcc::dcqcn_cut::full_alpha : netcc::dcqcn_cut::half_alpha;
  }
  netcc::dcqcn d{p};
  netcc::basic_dcqcn<netcc::arith::q32> q{p};
  check(d);
  check(q);
  std::int64_t t = 0, latest = 0;
  for (int k = 0; k < 512 && !in.empty(); ++k) {
    const std::uint8_t op = in.u8();
    switch (op % 8) {
      case 0:
        t -= static_cast<std::int64_t>(in.below(200'000));  // out of order
        break;
      case 1:
        t = static_cast<std::int64_t>(in.u64() >> 1);  // anywhere, the end of the clock included
        break;
      default:
        t += in.small_step(100'000);
        break;
    }
    const int kind = (op >> 3) % 3;
    const std::int64_t b =
        in.boolean() ? in.i64() : static_cast<std::int64_t>(in.below(30'000'000));
    step(d, kind, t, b, latest);
    step(q, kind, t, b, latest);
    if (t > latest) latest = t;
    NETCC_FUZZ_CHECK(d.timer_count() == q.timer_count() && d.byte_count() == q.byte_count());
  }
  return 0;
}
