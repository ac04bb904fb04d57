// SPDX-License-Identifier: MIT
// Fuzz harness: sub-additive and super-additive closures (netcc/calculus/closure.hpp) and the
// max-plus convolution of UPP curves (netcc/calculus/maxplus.hpp). Decodes bytes into one or
// two small exact UPP curves (a base curve of up to three breakpoints with jumps either way,
// a transient, a period and a rise, or the packetiser and staircase shapes; at most 6
// transient + period segments, since every element costs a convolution in the closure).
// Invariants:
//   * subadditive_closure(f) is invalid with curve_error::precondition exactly when
//     f(0) < 0 or f(0+) < 0; otherwise valid or failed for a documented reason (overflow,
//     bad argument);
//   * a valid closure s is canonical, s(0) = 0, s <= f and s <= f ⊗ f at sampled t > 0,
//     s(a + b) <= s(a) + s(b) on sampled pairs, s ⊗ s = s;
//   * superadditive_closure(-f) for a finite f with the closure's preconditions is
//     -subadditive_closure(f) at sampled points and >= -f;
//   * maxplus_convolve of finite curves is commutative and >= f(s) + g(t - s) at sampled s.
#include <netcc/calculus/closure.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_common.hpp"
#include "upp_decode.hpp"

namespace {

using netcc::calculus::curve;
using netcc::calculus::curve_error;
using netcc::calculus::rational;
using netcc::calculus::upp;
using netcc::fuzz::byte_reader;
using ext = netcc::calculus::extended<rational>;

constexpr std::size_t max_segments = 6;

constexpr netcc::fuzz::upp_ranges ranges{7, 2, 4, 2, 3, 3};

upp decode_upp(byte_reader& r) {
  return netcc::fuzz::decode_upp(r, ranges);
}

bool small_enough(const upp& u) {
  const auto s = u.segments();
  return s.first + s.second <= max_segments;
}

bool documented(curve_error e) {
  return e == curve_error::overflow || e == curve_error::bad_argument;
}

bool finite(const upp& u) {
  return netcc::detail::upp_all_finite(u);
}

void check_closure(const upp& f) {
  const upp s = subadditive_closure(f);
  const bool bad = f(rational{0}) < ext{} || f.right_limit(rational{0}) < ext{};
  if (bad) {
    NETCC_FUZZ_CHECK(s.error() == curve_error::precondition);
    return;
  }
  if (!s.valid()) {
    NETCC_FUZZ_CHECK(documented(s.error()));
    return;
  }
  NETCC_FUZZ_CHECK(upp::make(s.base(), s.transient(), s.period(), s.rise()) == s);
  NETCC_FUZZ_CHECK(s(rational{0}) == ext{});
  const rational h{4};
  const curve w = f.unroll(h);
  const curve ff = convolve(w, w);  // exact on [0, h]
  for (int i = 1; i <= 16; ++i) {
    const rational t = rational::of(i, 4);
    NETCC_FUZZ_CHECK(s(t) <= f(t));
    if (ff.valid()) NETCC_FUZZ_CHECK(s(t) <= ff(t));
    for (int j = 1; j <= i; j += 3) {
      const rational a = rational::of(j, 4);
      NETCC_FUZZ_CHECK(s(t + a) <= s(t) + s(a));
    }
  }
  if (small_enough(s)) {
    const upp ss = convolve(s, s);
    if (ss.valid()) NETCC_FUZZ_CHECK(ss == s);
  }
  if (finite(f)) {
    const upp m = negate(f);
    if (!m.valid()) return;
    const upp sup = superadditive_closure(m);
    if (!sup.valid()) {
      NETCC_FUZZ_CHECK(documented(sup.error()));
      return;
    }
    for (int i = 0; i <= 16; ++i) {
      const rational t = rational::of(i, 4);
      NETCC_FUZZ_CHECK(sup(t) == ext{rational{0} - s(t).value()});
      if (0 < i) NETCC_FUZZ_CHECK(m(t) <= sup(t));
    }
  }
}

void check_maxplus(const upp& f, const upp& g) {
  if (!finite(f) || !finite(g)) {
    NETCC_FUZZ_CHECK(maxplus_convolve(f, g).error() == curve_error::precondition);
    return;
  }
  const upp h = maxplus_convolve(f, g);
  if (!h.valid()) {
    NETCC_FUZZ_CHECK(documented(h.error()));
    return;
  }
  const upp k = maxplus_convolve(g, f);
  if (k.valid()) NETCC_FUZZ_CHECK(h == k);
  for (int i = 0; i <= 8; ++i) {
    const rational t = rational::of(i, 2);
    for (int j = 0; j <= i; ++j) {
      const rational s = rational::of(j, 2);
      NETCC_FUZZ_CHECK(f(s) + g(t - s) <= h(t));
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_reader r(data, size);
  const upp f = decode_upp(r);
  if (!f.valid()) {
    NETCC_FUZZ_CHECK(documented(f.error()));
    return 0;
  }
  if (!small_enough(f)) return 0;
  check_closure(f);
  const upp g = decode_upp(r);
  if (g.valid() && small_enough(g)) check_maxplus(f, g);
  return 0;
}
