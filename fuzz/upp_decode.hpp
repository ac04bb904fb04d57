// SPDX-License-Identifier: MIT
// Shared by the UPP fuzz harnesses (calculus_upp, calculus_closure): bytes to a small exact UPP
// curve, with the ranges each harness chooses. The byte layout is the seed corpora's: change it
// and the corpora under fuzz/corpus/ decode to other curves.
#pragma once

#include <netcc/calculus/upp.hpp>

#include <cstdint>
#include <vector>

#include "fuzz_common.hpp"

namespace netcc::fuzz {

/// Ranges of a decoded curve: values are v / d with |v| < value_mod and 1 <= d <= value_dens,
/// lengths n / d with 1 <= n <= length_mod and 1 <= d <= length_dens; a base curve has at most
/// max_points breakpoints and the transient is k / 2 with k < transient_halves.
struct upp_ranges {
  int value_mod;
  int value_dens;
  int length_mod;
  int length_dens;
  int max_points;
  int transient_halves;
};

inline calculus::rational upp_value(byte_reader& r, const upp_ranges& g) {
  return calculus::rational::of(static_cast<std::int8_t>(r.u8()) % g.value_mod,
                                1 + r.u8() % g.value_dens);
}

inline calculus::rational upp_length(byte_reader& r, const upp_ranges& g) {
  return calculus::rational::of(1 + r.u8() % g.length_mod, 1 + r.u8() % g.length_dens);
}

/// A packetiser, a staircase, or a base curve of up to max_points breakpoints with jumps either
/// way, made periodic with a transient, a period and a rise.
inline calculus::upp decode_upp(byte_reader& r, const upp_ranges& g) {
  using calculus::rational;
  using ext = calculus::extended<rational>;
  switch (r.u8() % 4) {
    case 0:
      return calculus::upp::packetizer(upp_length(r, g));
    case 1:
      return calculus::upp::staircase(upp_value(r, g), upp_length(r, g));
    default: {
      const int n = 1 + r.u8() % g.max_points;
      std::vector<calculus::breakpoint<rational>> v;
      rational t{0};
      ext left{0};
      for (int i = 0; i < n; ++i) {
        const ext value = i == 0 ? ext{upp_value(r, g)} : ext{left.value() + upp_value(r, g)};
        const ext right{value.value() + upp_value(r, g)};
        const rational slope = upp_value(r, g);
        v.push_back({t, value, right, slope});
        const rational dt = upp_length(r, g);
        left = ext{right.value() + slope * dt};
        t = t + dt;
      }
      const calculus::curve base = calculus::curve::from_breakpoints(v);
      return calculus::upp::make(base, rational::of(r.u8() % g.transient_halves, 2),
                                 upp_length(r, g), upp_value(r, g));
    }
  }
}

}  // namespace netcc::fuzz
