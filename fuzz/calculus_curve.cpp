// SPDX-License-Identifier: MIT
// Fuzz harness: min-plus curves (netcc/calculus/curve.hpp, minplus.hpp; network-calculus seed
// §II). Decodes bytes into a few small exact curves (arbitrary breakpoints, jumps either way,
// +infinity, numbers from tiny fractions to the int64 limits, or standard shapes) and a
// sequence of operations on a pool of curves. Invariants after every operation:
//   * a result is either valid and canonical, or invalid with a reason (never a wrong valid
//     curve from an overflow: exact results are cross-checked below);
//   * an operation of two invalid-free inputs fails only for the documented reasons;
//   * +, min, max, shifts, convolution, deconvolution, composition and the pseudo-inverses of
//     non-decreasing curves are non-decreasing; convolution of convex curves is convex;
//   * convolution equals the general algorithm and is commutative; deconvolution equals its
//     general algorithm; the convolution's value at sampled times equals the infimum of its
//     definition evaluated at the candidate split points;
//   * the double policy on the same inputs never crashes and is valid whenever the exact
//     result is (the exact numbers fit in int64, so no double overflows).
#include <netcc/calculus/minplus.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_common.hpp"

namespace {

using netcc::calculus::breakpoint;
using netcc::calculus::curve;
using netcc::calculus::curve_error;
using netcc::calculus::double_curve;
using netcc::calculus::rational;
using netcc::fuzz::byte_reader;
using ext = netcc::calculus::extended<rational>;

constexpr std::size_t max_pool = 8;
constexpr std::size_t max_product = 400;  // n * m cap for the O(n m) general algorithms
constexpr std::size_t max_size = 160;     // breakpoints of a pooled curve

rational number(byte_reader& r) {
  switch (r.u8() % 8) {
    case 0:
    case 1:
    case 2:
    case 3:
      return rational::of(static_cast<std::int8_t>(r.u8()) % 17, 1 + r.u8() % 4);
    case 4:
      return rational{static_cast<std::int8_t>(r.u8())};
    case 5:
      return rational::of(static_cast<std::int32_t>(r.u32()), 1 + r.u8() % 64);
    case 6:
      return rational{r.i64() >> (r.u8() % 64)};
    default: {
      const std::int64_t base = std::int64_t{1} << (55 + r.u8() % 8);
      return r.boolean() ? rational{base} : rational{-base};
    }
  }
}

rational positive(byte_reader& r) {
  rational x = number(r);
  if (!x.valid()) return x;
  if (x < rational{0}) x = -x;
  return x == rational{0} ? rational::of(1, 4) : x;
}

ext value(byte_reader& r) {
  if (r.u8() % 8 == 0) return ext::infinity();
  return ext{number(r)};
}

curve decode_curve(byte_reader& r) {
  switch (r.u8() % 10) {
    case 0:
      return curve::rate(positive(r));
    case 1:
      return curve::rate_latency(positive(r), positive(r));
    case 2:
      return curve::token_bucket(positive(r), positive(r));
    case 3:
      return curve::delay(positive(r));
    case 4:
      return curve::window(positive(r));
    case 5:
      return curve::staircase(positive(r), positive(r), r.u8() % 6);
    default:
      break;
  }
  const bool monotone = r.boolean();
  const std::size_t n = 1 + r.u8() % 6;
  std::vector<breakpoint<rational>> v;
  rational t{0};
  ext left{0};
  for (std::size_t i = 0; i < n; ++i) {
    breakpoint<rational> p;
    p.t = t;
    if (monotone) {  // built up from left limits so that the curve is non-decreasing
      const rational j1 = r.u8() % 3 == 0 ? positive(r) : rational{0};
      const rational j2 = r.u8() % 3 == 0 ? positive(r) : rational{0};
      p.value = i == 0 ? ext{r.boolean() ? rational{0} : number(r)} : left + ext{j1};
      p.right = p.value + ext{j2};
      p.slope = r.boolean() ? rational{0} : positive(r);
      if (r.u8() % 10 == 0) p.right = ext::infinity();
    } else {
      p.value = i == 0 ? ext{number(r)} : value(r);
      p.right = value(r);
      p.slope = number(r);
    }
    v.push_back(p);
    const rational dt = positive(r);
    if (p.right.is_inf()) {
      left = ext::infinity();
    } else {
      left = ext{p.right.value() + p.slope * dt};
    }
    t = t + dt;
    if (left.is_inf() && monotone) break;
  }
  return curve::from_breakpoints(v);
}

// inf over s in [0, t] of f(s) + g(t - s), at the candidate split points and their limits;
// invalid when any term does not fit (then nothing can be concluded).
ext brute_conv(const curve& f, const curve& g, rational t) {
  std::vector<rational> cand{rational{0}, t};
  for (const auto& p : f.breakpoints()) {
    if (p.t <= t) cand.push_back(p.t);
  }
  for (const auto& p : g.breakpoints()) {
    if (p.t <= t) cand.push_back(t - p.t);
  }
  ext best = ext::infinity();
  bool ok = true;
  const auto take = [&](const ext& x) {
    if (!x.valid()) ok = false;
    if (x < best) best = x;
  };
  for (const rational& s : cand) {
    take(f(s) + g(t - s));
    if (s < t) take(f.right_limit(s) + g.left_limit(t - s));
    if (rational{0} < s) take(f.left_limit(s) + g.right_limit(t - s));
  }
  return ok ? best : ext{rational::invalid()};
}

bool all_good(const ext& x) {
  return x.valid();
}

void check_curve(const curve& c) {
  NETCC_FUZZ_CHECK(c.is_canonical());
  if (!c.valid()) NETCC_FUZZ_CHECK(c.error() != curve_error::none && c.size() == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_reader r(data, size);
  std::vector<curve> pool;
  for (int k = 0; k < 3; ++k) {
    pool.push_back(decode_curve(r));
    check_curve(pool.back());
  }
  const int ops = 1 + r.u8() % 8;
  for (int k = 0; k < ops && !r.empty(); ++k) {
    const curve& f = pool[r.u8() % pool.size()];
    const curve& g = pool[r.u8() % pool.size()];
    const bool fm = f.is_non_decreasing();
    const bool gm = g.is_non_decreasing();
    const bool both_valid = f.valid() && g.valid();
    const bool small = f.size() * g.size() <= max_product;
    const auto df = netcc::calculus::curve_cast<double>(f);
    const auto dg = netcc::calculus::curve_cast<double>(g);
    curve out = curve::invalid(curve_error::undefined);
    const unsigned op = r.u8() % 14;
    switch (op) {
      case 0:
        out = f + g;
        if (both_valid && fm && gm && out.valid()) NETCC_FUZZ_CHECK(out.is_non_decreasing());
        if (out.valid()) NETCC_FUZZ_CHECK((df + dg).valid());
        break;
      case 1:
      case 2: {
        out = op == 1 ? min(f, g) : max(f, g);
        if (both_valid && fm && gm && out.valid()) NETCC_FUZZ_CHECK(out.is_non_decreasing());
        const auto d = op == 1 ? min(df, dg) : max(df, dg);
        if (out.valid()) NETCC_FUZZ_CHECK(d.valid());
        break;
      }
      case 3: {
        const rational d = positive(r);
        out = r.boolean() ? shift_right(f, d) : shift_left(f, d);
        if (f.valid() && fm && out.valid()) NETCC_FUZZ_CHECK(out.is_non_decreasing());
        break;
      }
      case 4:
      case 5: {
        if (!small) break;
        out = convolve(f, g);
        const curve gen = convolve_general(f, g);
        check_curve(gen);
        if (out.valid() && gen.valid()) {
          NETCC_FUZZ_CHECK(out == gen);
          // the other order may pass through an intermediate that does not fit int64 even
          // when the result does: then it must say so
          const curve rev = convolve(g, f);
          NETCC_FUZZ_CHECK(rev.valid() ? out == rev : rev.error() == curve_error::overflow);
          if (fm && gm) NETCC_FUZZ_CHECK(out.is_non_decreasing());
          if (f.is_convex() && g.is_convex()) NETCC_FUZZ_CHECK(out.is_convex());
          const rational probe[] = {rational{0}, rational::of(1, 3), rational{2},
                                    out.breakpoints().back().t};
          for (const rational& t : probe) {
            const ext want = brute_conv(f, g, t);
            if (all_good(want)) NETCC_FUZZ_CHECK(out(t) == want || !out(t).valid());
          }
          NETCC_FUZZ_CHECK(convolve(df, dg).valid());
        }
        if (both_valid && !out.valid()) NETCC_FUZZ_CHECK(out.error() == curve_error::overflow);
        break;
      }
      case 6: {
        if (!small) break;
        out = deconvolve(f, g);
        const curve gen = deconvolve_general(f, g);
        check_curve(gen);
        if (out.valid() && gen.valid()) {
          NETCC_FUZZ_CHECK(out == gen);
          if (fm) NETCC_FUZZ_CHECK(out.is_non_decreasing());
          NETCC_FUZZ_CHECK(deconvolve_general(df, dg).valid());
        }
        if (both_valid && !out.valid() && out.error() != curve_error::overflow) {
          // only when g is +infinity everywhere (the supremum is then -infinity)
          NETCC_FUZZ_CHECK(out.error() == curve_error::undefined);
          for (const auto& p : g.breakpoints()) {
            NETCC_FUZZ_CHECK(p.value.is_inf() && p.right.is_inf());
          }
        }
        break;
      }
      case 7:
      case 8:
        out = op == 7 ? lower_inverse(f) : upper_inverse(f);
        if (f.valid() && !fm) NETCC_FUZZ_CHECK(out.error() == curve_error::precondition);
        if (out.valid()) {
          NETCC_FUZZ_CHECK(out.is_non_decreasing());
          if (op == 7) NETCC_FUZZ_CHECK(out.is_left_continuous());
          NETCC_FUZZ_CHECK((op == 7 ? lower_inverse(df) : upper_inverse(df)).valid());
        }
        break;
      case 9:
        if (f.size() + g.size() > max_size) break;
        out = compose(f, g);
        if (both_valid && !gm) NETCC_FUZZ_CHECK(out.error() == curve_error::precondition);
        if (out.valid() && fm) NETCC_FUZZ_CHECK(out.is_non_decreasing());
        break;
      case 10: {
        const auto h = horizontal_deviation(f, g);
        const auto v = vertical_deviation(f, g);
        if (both_valid && fm && gm && h.valid() && h.value.is_finite()) {
          NETCC_FUZZ_CHECK(!(h.value < ext{rational{0}}));
        }
        if (v.valid() && both_valid) {  // v bounds f - g at t = 0 where g(0) is finite
          const ext f0 = f(rational{0});
          const ext g0 = g(rational{0});
          if (g0.is_finite() && f0.is_finite()) {
            const rational d = f0.value() - g0.value();
            if (d.valid()) NETCC_FUZZ_CHECK(ext{d} <= v.value);
          }
        }
        (void)horizontal_deviation(df, dg);
        (void)vertical_deviation(df, dg);
        break;
      }
      case 11:
        out = rebase(f, positive(r), number(r));
        break;
      case 12:
        out = splice(f, positive(r), g);
        break;
      default:
        out = shift_up(f, number(r));
        break;
    }
    check_curve(out);
    if (out.valid() && out.size() <= max_size && pool.size() < max_pool) pool.push_back(out);
  }
  return 0;
}
