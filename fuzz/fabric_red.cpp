// SPDX-License-Identifier: MIT
// Fuzz harness: RED/ECN marking (seed 003 §III-B d; DCTCP single threshold; RFC 3168) over
// packet sequences with fuzzed (also invalid) parameters, backlogs, ECN fields and draws.
// Invariants:
//   * p(x) is in [0, 1]; 0 at or below K_min, 1 at or above K_max, below P_max in between
//     (for valid parameters);
//   * p is monotone in the backlog: p(x) <= p(x + d) for d >= 0;
//   * the decision follows the draw: selected iff draw < p; a selected ECT/CE packet is marked
//     CE, a selected Not-ECT packet is dropped iff drop_not_ect; an unselected packet passes
//     unchanged; a smaller draw marks whenever a larger one does;
//   * the compile-time-style table (generated here at run time with a fuzzed shift) equals the
//     formula at every cell edge, never exceeds it, and is itself monotone.
#include <netcc/fabric/red_ecn.hpp>

#include "fuzz_common.hpp"

namespace {

using netcc::bytes;
using netcc::ecn_codepoint;
using netcc::red_action;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  netcc::fuzz::byte_reader in(data, size);
  netcc::red_ecn_params p;
  const unsigned form = in.u8() % 3;
  if (form == 0) {  // valid RED
    p.k_min = bytes{static_cast<std::int64_t>(in.below(1ULL << 40))};
    p.k_max = p.k_min + bytes{static_cast<std::int64_t>(in.below(1ULL << 40))};
    p.p_max.raw = 1 + in.below(netcc::red_probability::one_raw);
  } else if (form == 1) {  // DCTCP
    p = netcc::dctcp_red_params(bytes{in.i64()});
  } else {  // anything, also invalid
    p.k_min = bytes{in.i64()};
    p.k_max = bytes{in.i64()};
    p.p_max.raw = in.u64();
  }
  p.drop_not_ect = in.boolean();
  const bool valid = validate(p).ok();

  auto table = netcc::make_red_ecn_table<64>(p, in.u8() % 48);
  NETCC_FUZZ_CHECK(table.check(0, 64));

  while (!in.empty()) {
    const auto ecn = static_cast<ecn_codepoint>(in.u8() & 3);
    const bytes x{in.boolean() ? in.i64() : static_cast<std::int64_t>(in.below(1ULL << 41))};
    const std::uint32_t draw = in.u32();
    const auto pr = netcc::red_marking_probability(x, p);
    NETCC_FUZZ_CHECK(pr.raw <= netcc::red_probability::one_raw);
    if (x >= p.k_max) NETCC_FUZZ_CHECK(pr == netcc::red_probability::one());
    if (x < p.k_max && x <= p.k_min) NETCC_FUZZ_CHECK(pr == netcc::red_probability::zero());
    if (valid && x > p.k_min && x < p.k_max) NETCC_FUZZ_CHECK(pr.raw < p.p_max.raw);

    const std::int64_t d = static_cast<std::int64_t>(in.below(1ULL << 40));
    if (x.count() <= std::numeric_limits<std::int64_t>::max() - d) {
      NETCC_FUZZ_CHECK(pr <= netcc::red_marking_probability(x + bytes{d}, p));
    }

    const auto dec = netcc::red_ecn_on_packet(ecn, x, draw, p);
    NETCC_FUZZ_CHECK(dec.p == pr);
    const bool selected = std::uint64_t{draw} < pr.raw;
    if (!selected) {
      NETCC_FUZZ_CHECK(dec.action == red_action::pass && dec.ecn == ecn);
    } else if (ecn == ecn_codepoint::not_ect) {
      NETCC_FUZZ_CHECK(dec.action == (p.drop_not_ect ? red_action::drop : red_action::pass));
      NETCC_FUZZ_CHECK(dec.ecn == ecn_codepoint::not_ect);
    } else {
      NETCC_FUZZ_CHECK(dec.action == red_action::mark && dec.ecn == ecn_codepoint::ce);
    }
    if (dec.action == red_action::mark && draw > 0) {
      NETCC_FUZZ_CHECK(netcc::red_ecn_on_packet(ecn, x, draw / 2, p).action == red_action::mark);
    }
    if (ecn == ecn_codepoint::ce) NETCC_FUZZ_CHECK(dec.ecn == ecn_codepoint::ce);

    // Table: below the formula, equal at the cell edge, monotone.
    if (valid && p.k_min >= bytes{0}) {
      const auto tl = table.lookup(x);
      NETCC_FUZZ_CHECK(tl <= netcc::red_marking_probability(x < bytes{0} ? bytes{0} : x, p));
      if (x.count() < (std::int64_t{64} << table.shift) && x < p.k_max && x >= bytes{0}) {
        const std::int64_t edge = (x.count() >> table.shift) << table.shift;
        NETCC_FUZZ_CHECK(tl == netcc::red_marking_probability(bytes{edge}, p));
      }
      if (x.count() <= std::numeric_limits<std::int64_t>::max() - d) {
        NETCC_FUZZ_CHECK(tl <= table.lookup(x + bytes{d}));
      }
      const auto td = table.on_packet(ecn, x, draw);
      NETCC_FUZZ_CHECK(td.p == tl);
      NETCC_FUZZ_CHECK((td.action == red_action::mark) ==
                       (ecn != ecn_codepoint::not_ect && tl.selects(draw)));
    }
  }
  return 0;
}
