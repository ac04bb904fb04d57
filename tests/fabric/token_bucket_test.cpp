// SPDX-License-Identifier: MIT
// Token bucket (Le Boudec & Thiran §1.2.2; seed 003 §III-A path server): conformance at a
// time, the earliest conforming time, tokens after idle, and the b + r t arrival curve;
// hand-computed values and RapidCheck properties: tokens stay within [0, bucket] for any
// sequence of offers (time going backwards included), the earliest time is exact, and the
// admitted traffic never exceeds the arrival curve.
#include <netcc/fabric/token_bucket.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <limits>

namespace netcc_tests::fabric_token_bucket {

using namespace netcc::literals;
using netcc::bytes;
using netcc::timestamp;
using netcc::token_bucket_params;
using netcc::token_bucket_state;

TEST(TokenBucket, DefaultsAndValidate) {
  const token_bucket_params p;
  EXPECT_EQ(p.rate, 100_Gbps);
  EXPECT_EQ(p.bucket, 1500_B);
  EXPECT_TRUE(validate(p).ok());
  const auto v = validate(token_bucket_params{.rate = netcc::bit_rate{0}, .bucket = bytes{-1}});
  EXPECT_EQ(v.size(), 2u);
  EXPECT_TRUE(v.names("token_bucket.rate"));
  EXPECT_TRUE(v.names("token_bucket.bucket"));
  EXPECT_TRUE(
      validate(token_bucket_params{.bucket = bytes{(1 << 30) + 1}}).names("token_bucket.bucket"));
  EXPECT_TRUE(validate(token_bucket_params{.bucket = bytes{1 << 30}}).ok());
}

TEST(TokenBucket, OffersByHand) {
  // r = 1 Gbps = 0.125 B/ns, b = 4500 B, full at t = 0.
  const token_bucket_params p{.rate = 1_Gbps, .bucket = 4500_B};
  auto s = token_bucket_state::full(p, timestamp{0});
  EXPECT_EQ(netcc::token_bucket_tokens(s, timestamp{0}, p), 4500_B);
  // Three 1500 B packets at t = 0 conform (4500 -> 3000 -> 1500 -> 0), the fourth does not.
  EXPECT_TRUE(netcc::token_bucket_consume(s, 1500_B, timestamp{0}, p));
  EXPECT_TRUE(netcc::token_bucket_consume(s, 1500_B, timestamp{0}, p));
  EXPECT_TRUE(netcc::token_bucket_consume(s, 1500_B, timestamp{0}, p));
  EXPECT_FALSE(netcc::token_bucket_consume(s, 1500_B, timestamp{0}, p));
  EXPECT_EQ(netcc::token_bucket_tokens(s, timestamp{0}, p), 0_B);
  // Earliest for 1500 B: 1500 / 0.125 = 12000 ns.
  EXPECT_EQ(netcc::token_bucket_earliest(s, 1500_B, timestamp{0}, p), timestamp{12'000});
  // At 8 us: 8000 * 0.125 = 1000 B; a 1500 B packet does not conform and takes nothing.
  EXPECT_FALSE(netcc::token_bucket_consume(s, 1500_B, timestamp{8_us}, p));
  EXPECT_EQ(netcc::token_bucket_tokens(s, timestamp{8_us}, p), 1000_B);
  EXPECT_EQ(s.last, timestamp{8_us});
  // Earliest from 8 us: deficit 500 B / 0.125 = 4000 ns -> 12 us, unchanged.
  EXPECT_EQ(netcc::token_bucket_earliest(s, 1500_B, timestamp{8_us}, p), timestamp{12_us});
  EXPECT_TRUE(netcc::token_bucket_conforms(s, 1500_B, timestamp{12_us}, p));
  EXPECT_FALSE(netcc::token_bucket_conforms(s, 1500_B, timestamp{11'999}, p));
  // A 1 B packet conforms at once: earliest == now.
  EXPECT_EQ(netcc::token_bucket_earliest(s, 1_B, timestamp{8_us}, p), timestamp{8_us});
  // A packet larger than the bucket never conforms.
  EXPECT_EQ(netcc::token_bucket_earliest(s, 4501_B, timestamp{8_us}, p), timestamp::max());
  EXPECT_FALSE(netcc::token_bucket_conforms(s, 4501_B, timestamp{1'000'000'000}, p));
}

TEST(TokenBucket, FractionalAccrualIsExact) {
  // r = 1 bps: one byte takes 8 s. Offering zero-size packets every ns for a while and then
  // checking after 8 s gives exactly 1 B: no fraction is lost between updates.
  const token_bucket_params p{.rate = netcc::bit_rate{3}, .bucket = 10_B};
  token_bucket_state s{};
  for (std::int64_t t = 1; t <= 1000; ++t) {
    ASSERT_TRUE(netcc::token_bucket_consume(s, 0_B, timestamp{t}, p));
  }
  // 3 bps * 8/3 s = 1 B: at 2666666667 ns (8/3 s rounded up) the bucket holds 1 B.
  EXPECT_EQ(netcc::token_bucket_tokens(s, timestamp{2'666'666'666}, p), 0_B);
  EXPECT_EQ(netcc::token_bucket_tokens(s, timestamp{2'666'666'667}, p), 1_B);
  EXPECT_EQ(netcc::token_bucket_earliest(s, 1_B, timestamp{1000}, p), timestamp{2'666'666'667});
}

TEST(TokenBucket, TimeBackwardsAndOddInputs) {
  const token_bucket_params p{.rate = 8_Gbps, .bucket = 1000_B};  // 1 B/ns
  token_bucket_state s{timestamp{1000}, 0};
  // Earlier than last: nothing accrues, last stays, and earliest counts from last.
  EXPECT_EQ(netcc::token_bucket_tokens(s, timestamp{500}, p), 0_B);
  EXPECT_FALSE(netcc::token_bucket_consume(s, 10_B, timestamp{500}, p));
  EXPECT_EQ(s.last, timestamp{1000});
  EXPECT_EQ(netcc::token_bucket_earliest(s, 10_B, timestamp{500}, p), timestamp{1010});
  // Negative sizes count as zero and always conform.
  EXPECT_TRUE(netcc::token_bucket_consume(s, bytes{-50}, timestamp{1000}, p));
  EXPECT_EQ(s.credit, 0);
  // A corrupt credit (above the bucket, or negative) is clamped.
  token_bucket_state c{timestamp{0}, std::int64_t{1} << 62};
  EXPECT_EQ(netcc::token_bucket_tokens(c, timestamp{0}, p), 1000_B);
  c.credit = -5;
  EXPECT_EQ(netcc::token_bucket_tokens(c, timestamp{0}, p), 0_B);
  // Extreme times do not overflow.
  token_bucket_state e{timestamp::min(), 0};
  EXPECT_EQ(netcc::token_bucket_tokens(e, timestamp::max(), p), 1000_B);
  // Rate 0: never refills.
  const token_bucket_params z{.rate = netcc::bit_rate{0}, .bucket = 1000_B};
  EXPECT_EQ(netcc::token_bucket_earliest(token_bucket_state{}, 1_B, timestamp{0}, z),
            timestamp::max());
}

TEST(TokenBucket, AfterIdleAndCurve) {
  const token_bucket_params p{.rate = 10_Gbps, .bucket = 3000_B};   // 1.25 B/ns
  EXPECT_EQ(netcc::token_bucket_after_idle(0_B, 1_us, p), 1250_B);  // 1000 * 1.25
  EXPECT_EQ(netcc::token_bucket_after_idle(1000_B, 1_us, p), 2250_B);
  EXPECT_EQ(netcc::token_bucket_after_idle(2000_B, 1_us, p), 3000_B);  // capped at b
  EXPECT_EQ(netcc::token_bucket_after_idle(5000_B, 0_ns, p), 3000_B);  // clamped
  EXPECT_EQ(netcc::token_bucket_after_idle(0_B, 3_ns, p), 3_B);        // 3.75 -> 3
  const auto g = netcc::token_bucket_arrival_curve(p);
  EXPECT_EQ(g.burst, 3000_B);
  EXPECT_EQ(g.rate, 10_Gbps);
  EXPECT_EQ(g.at(-1_ns), 0_B);
  EXPECT_EQ(g.at(0_ns), 0_B);
  EXPECT_EQ(g.at(1_ns), 3001_B);     // 3000 + 1.25 -> 3001
  EXPECT_EQ(g.at(1_ms), 1253000_B);  // 3000 + 1.25e6
  EXPECT_EQ((netcc::token_bucket_curve{bytes::max(), 100_Gbps}.at(1_s)), bytes::max());
}

namespace {

token_bucket_params gen_params() {
  return {.rate = netcc::bit_rate{*rc::gen::inRange<std::int64_t>(1, 1'000'000'000'000)},
          .bucket = bytes{*rc::gen::inRange<std::int64_t>(0, 1 << 24)}};
}

}  // namespace

RC_GTEST_PROP(TokenBucket, TokensStayWithinBucket, ()) {
  const auto p = gen_params();
  token_bucket_state s = *rc::gen::arbitrary<bool>() ? token_bucket_state::full(p, timestamp{0})
                                                     : token_bucket_state{};
  std::int64_t t = 0;
  const auto n = *rc::gen::inRange(1, 200);
  for (int i = 0; i < n; ++i) {
    t += *rc::gen::inRange<std::int64_t>(-5'000, 20'000);
    const bytes size{*rc::gen::inRange<std::int64_t>(-10, 20'000)};
    (void)netcc::token_bucket_consume(s, size, timestamp{t}, p);
    RC_ASSERT(s.credit >= 0);
    RC_ASSERT(s.credit <= p.bucket.count() * netcc::token_bucket_units_per_byte);
    const auto tok = netcc::token_bucket_tokens(s, timestamp{t + 1000}, p);
    RC_ASSERT(tok >= bytes{0} && tok <= p.bucket);
  }
}

RC_GTEST_PROP(TokenBucket, EarliestIsExact, ()) {
  const auto p = gen_params();
  token_bucket_state s{timestamp{*rc::gen::inRange<std::int64_t>(0, 1'000'000)},
                       *rc::gen::inRange<std::int64_t>(
                           0, p.bucket.count() * netcc::token_bucket_units_per_byte + 1)};
  const timestamp now{*rc::gen::inRange<std::int64_t>(0, 2'000'000)};
  const bytes size{*rc::gen::inRange<std::int64_t>(0, (1 << 24) + 10)};
  const auto e = netcc::token_bucket_earliest(s, size, now, p);
  if (size > p.bucket) {
    RC_ASSERT(e == timestamp::max());
    return;
  }
  RC_ASSERT(e >= now);
  RC_ASSERT(netcc::token_bucket_conforms(s, size, e, p));
  // Not a nanosecond earlier (unless it conforms at now already).
  if (e > now) RC_ASSERT(!netcc::token_bucket_conforms(s, size, e - netcc::duration{1}, p));
  RC_ASSERT((e == now) == netcc::token_bucket_conforms(s, size, now, p));
}

// Starting full at t0, the bytes admitted in [t0, t] never exceed b + r (t - t0): the bucket
// enforces its own arrival curve (exact, since tokens are kept without rounding).
RC_GTEST_PROP(TokenBucket, AdmittedTrafficWithinArrivalCurve, ()) {
  const auto p = gen_params();
  auto s = token_bucket_state::full(p, timestamp{0});
  const auto g = netcc::token_bucket_arrival_curve(p);
  std::int64_t t = 0, admitted = 0;
  const auto n = *rc::gen::inRange(1, 200);
  for (int i = 0; i < n; ++i) {
    t += *rc::gen::inRange<std::int64_t>(0, 10'000);
    const bytes size{*rc::gen::inRange<std::int64_t>(0, 20'000)};
    if (netcc::token_bucket_consume(s, size, timestamp{t}, p)) admitted += size.count();
    // admitted <= b + r t, compared exactly: admitted * 8e9 <= b * 8e9 + r * t.
    RC_ASSERT(static_cast<long double>(admitted) * 8e9L <=
              static_cast<long double>(p.bucket.count()) * 8e9L +
                  static_cast<long double>(p.rate.count()) * static_cast<long double>(t) + 0.5L);
    if (t > 0) RC_ASSERT(bytes{admitted} <= g.at(netcc::duration{t}));
  }
}

RC_GTEST_PROP(TokenBucket, AfterIdleMatchesState, ()) {
  const auto p = gen_params();
  const bytes tokens{*rc::gen::inRange<std::int64_t>(0, p.bucket.count() + 1)};
  const netcc::duration idle{*rc::gen::inRange<std::int64_t>(0, 10'000'000)};
  token_bucket_state s{timestamp{0}, tokens.count() * netcc::token_bucket_units_per_byte};
  RC_ASSERT(netcc::token_bucket_after_idle(tokens, idle, p) ==
            netcc::token_bucket_tokens(s, timestamp{idle.count()}, p));
  // Monotone in the idle time and bounded by the bucket.
  const netcc::duration more = idle + netcc::duration{*rc::gen::inRange<std::int64_t>(0, 1000)};
  RC_ASSERT(netcc::token_bucket_after_idle(tokens, idle, p) <=
            netcc::token_bucket_after_idle(tokens, more, p));
  RC_ASSERT(netcc::token_bucket_after_idle(tokens, more, p) <= p.bucket);
}

// ---------------------------------------------------------------- the 128-bit form, as reference

namespace {

using netcc::detail::i128;

// The token bucket as netcc computed it in 128-bit integers (before the 64-bit forms): every
// product and sum exact, the result saturated. The library must equal it for every input.
struct wide {
  static i128 cap(const token_bucket_params& p) {
    const std::int64_t b = p.bucket.count() < 0                        ? 0
                           : p.bucket > netcc::token_bucket_max_bucket ? (std::int64_t{1} << 30)
                                                                       : p.bucket.count();
    return i128{b} * netcc::token_bucket_units_per_byte;
  }
  static i128 credit_at(const token_bucket_state& s, timestamp t, const token_bucket_params& p) {
    const i128 c0 = s.credit < 0 ? 0 : i128{s.credit};
    i128 c = c0 > cap(p) ? cap(p) : c0;
    const i128 dt = i128{t.count()} - s.last.count();
    const i128 r = p.rate.count() < 0 ? 0 : p.rate.count();
    if (dt > 0 && r > 0) c = r * dt >= cap(p) - c ? cap(p) : c + r * dt;
    return c;
  }
  static i128 size(bytes b) {
    return b.count() < 0 ? 0 : i128{b.count()} * netcc::token_bucket_units_per_byte;
  }
  static bool consume(token_bucket_state& s, bytes sz, timestamp now,
                      const token_bucket_params& p) {
    i128 c = credit_at(s, now, p);
    const bool ok = c >= size(sz);
    if (ok) c -= size(sz);
    s.credit = static_cast<std::int64_t>(c);
    if (now > s.last) s.last = now;
    return ok;
  }
  static timestamp earliest(const token_bucket_state& s, bytes sz, timestamp now,
                            const token_bucket_params& p) {
    if (size(sz) > cap(p)) return timestamp::max();
    const timestamp start = now > s.last ? now : s.last;
    const i128 c = credit_at(s, start, p);
    if (c >= size(sz)) return now;
    if (p.rate <= netcc::bit_rate{0}) return timestamp::max();
    const i128 r = p.rate.count();
    const i128 dt = (size(sz) - c + r - 1) / r;  // ceil
    return timestamp{netcc::detail::saturate_i64(i128{start.count()} + dt)};
  }
};

std::int64_t gen_wide_i64() {
  return *rc::gen::oneOf(rc::gen::arbitrary<std::int64_t>(),
                         rc::gen::inRange<std::int64_t>(-100'000, 100'000),
                         rc::gen::element(std::numeric_limits<std::int64_t>::min(),
                                          std::numeric_limits<std::int64_t>::max(), std::int64_t{0},
                                          std::int64_t{-1}));
}

}  // namespace

RC_GTEST_PROP(TokenBucket, EqualsTheWideForm, ()) {
  // Every public function against the 128-bit form, for any parameters (rates <= 0, buckets
  // below 0 and beyond 2^30 B), states (tokens outside [0, bucket], any time), times and sizes,
  // extremes of int64 included.
  const token_bucket_params p{
      .rate = netcc::bit_rate{*rc::gen::oneOf(
          rc::gen::inRange<std::int64_t>(1, 1'000'000'000'000),
          rc::gen::element<std::int64_t>(0, -1, 1, std::numeric_limits<std::int64_t>::max(),
                                         std::numeric_limits<std::int64_t>::min()),
          rc::gen::arbitrary<std::int64_t>())},
      .bucket = bytes{*rc::gen::oneOf(
          rc::gen::inRange<std::int64_t>(0, 1 << 24),
          rc::gen::element<std::int64_t>(0, -1, std::int64_t{1} << 30, (std::int64_t{1} << 30) + 1,
                                         std::numeric_limits<std::int64_t>::max()),
          rc::gen::arbitrary<std::int64_t>())}};
  const std::int64_t cap = static_cast<std::int64_t>(wide::cap(p));
  token_bucket_state s{timestamp{gen_wide_i64()},
                       *rc::gen::oneOf(rc::gen::inRange<std::int64_t>(0, cap + 1),
                                       rc::gen::just(cap), rc::gen::arbitrary<std::int64_t>())};
  const std::int64_t n = *rc::gen::inRange(1, 20);
  for (std::int64_t k = 0; k < n; ++k) {
    const timestamp now{*rc::gen::oneOf(
        rc::gen::just(gen_wide_i64()),
        rc::gen::just(netcc::detail::saturate_i64(
            i128{s.last.count()} + *rc::gen::inRange<std::int64_t>(-1000, 1'000'000))))};
    const bytes size{*rc::gen::oneOf(
        rc::gen::inRange<std::int64_t>(-10, 20'000), rc::gen::just(p.bucket.count()),
        rc::gen::just(p.bucket.count() +
                      (p.bucket.count() < std::numeric_limits<std::int64_t>::max())),
        rc::gen::arbitrary<std::int64_t>())};
    RC_ASSERT(netcc::detail::tb_credit_at(s, now, p) == wide::credit_at(s, now, p));
    RC_ASSERT(netcc::token_bucket_tokens(s, now, p) ==
              bytes{static_cast<std::int64_t>(wide::credit_at(s, now, p) /
                                              netcc::token_bucket_units_per_byte)});
    RC_ASSERT(netcc::token_bucket_conforms(s, size, now, p) ==
              (wide::credit_at(s, now, p) >= wide::size(size)));
    RC_ASSERT(netcc::token_bucket_earliest(s, size, now, p) == wide::earliest(s, size, now, p));
    token_bucket_state a = s, b = s;
    RC_ASSERT(netcc::token_bucket_consume(a, size, now, p) == wide::consume(b, size, now, p));
    RC_ASSERT(a == b);
    RC_ASSERT(netcc::token_bucket_state::full(p, now).credit == cap);
    s = a;
  }
}

}  // namespace netcc_tests::fabric_token_bucket
