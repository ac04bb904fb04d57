// SPDX-License-Identifier: MIT
/// @file
/// @brief Token bucket (rate r, bucket b): conformance of a packet at a time, the earliest
/// time it conforms, tokens after an idle period, and its arrival curve b + r t as plain data
/// for the network-calculus layer.
///
/// Sources:
/// - Seed 003 (`seeds/003_7857f230e87c9d73.txt`) §III-A: the path server of [28] is a token
///   bucket variant whose tokens are the capacity available to the flow; the traffic it admits
///   is bounded by the token-bucket (affine) arrival curve.
/// - J.-Y. Le Boudec, P. Thiran, "Network Calculus", LNCS 2050, 2001, §1.2.2: a flow conforms
///   to a token bucket (r, b) iff its arrivals satisfy A(t) - A(s) <= b + r (t - s); the
///   affine arrival curve γ_{r,b}(t) = b + r t for t > 0 and 0 for t <= 0. Tokens accrue at
///   rate r up to b; a packet of size L conforms when at least L tokens are present, and then
///   consumes them.
///
/// What is here: netcc::token_bucket_params (rate, bucket) and validate();
/// netcc::token_bucket_state (16 B: time of the last update, and tokens in exact units of
/// 1 / 8e9 byte, so that accrual r * dt loses no fraction of a byte);
/// netcc::token_bucket_tokens, netcc::token_bucket_conforms, netcc::token_bucket_consume,
/// netcc::token_bucket_earliest, netcc::token_bucket_after_idle; netcc::token_bucket_curve and
/// netcc::token_bucket_arrival_curve.
///
/// Defaults and their sources (the references give no numbers for a generic bucket):
/// rate 100 Gbps (the link rate of seed §V), bucket 1500 B (one Ethernet MTU: the smallest
/// bucket that passes a maximum-size packet). Both are netcc's choices.
///
/// Deviations and netcc's choices, with reasons:
/// - **Exact accrual.** Tokens are kept as a multiple of 1/8e9 byte (r in bit/s times dt in
///   ns counts exactly that unit), so a bucket refilled every nanosecond gains exactly what it
///   would gain refilled once; whole-byte views round down. This bounds the bucket at
///   2^30 B (validate()).
/// - **A non-conforming packet takes no tokens** (policer/shaper semantics of [Le Boudec
///   §1.2.2]); the state is still advanced to `now`.
/// - **Time going backwards** (now before the last update) accrues nothing and does not move
///   the state's time back. Sizes below zero are taken as zero. Tokens are clamped into
///   [0, bucket] on every call, so a state used with a smaller bucket stays in range.
///
/// @code
/// using namespace netcc::literals;
/// netcc::token_bucket_params p{.rate = 10_Gbps, .bucket = 3000_B};
/// auto s = netcc::token_bucket_state::full(p, netcc::timestamp{0});
/// bool ok1 = netcc::token_bucket_consume(s, 3000_B, netcc::timestamp{0}, p);   // true
/// auto t = netcc::token_bucket_earliest(s, 1500_B, netcc::timestamp{0}, p);    // 1200 ns
/// @endcode
#pragma once

#include <cstdint>
#include <limits>

#include "netcc/core/detail/int128.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/validation.hpp"

namespace netcc {

/// @brief Parameters of a token bucket.
/// @code
/// netcc::token_bucket_params p{.rate = netcc::bit_rate{1'000'000'000},
///                              .bucket = netcc::bytes{9000}};
/// @endcode
struct token_bucket_params {
  /// @brief Token rate r. Default 100 Gbps (seed §V link rate; netcc's choice).
  bit_rate rate{100'000'000'000};
  /// @brief Bucket size b. Default 1500 B (one Ethernet MTU; netcc's choice).
  bytes bucket{1'500};
};

/// @brief Tokens per byte in the state's exact unit: bits per byte x ns per second.
inline constexpr std::int64_t token_bucket_units_per_byte = 8'000'000'000;

/// @brief The largest bucket: 2^30 B (its exact token count must fit 64 bits).
inline constexpr bytes token_bucket_max_bucket{std::int64_t{1} << 30};

/// @brief Check token_bucket_params: rate > 0, bucket in [0, 2^30] B.
[[nodiscard]] inline validation validate(const token_bucket_params& p) {
  validation v;
  v.check(p.rate > bit_rate{0}, "token_bucket.rate", p.rate, "must be > 0 bps");
  v.check(p.bucket >= bytes{0} && p.bucket <= token_bucket_max_bucket, "token_bucket.bucket",
          p.bucket, "must be in [0, 2^30] B");
  return v;
}

/// @brief A token bucket's state: the last update time and the tokens then.
/// @code
/// netcc::token_bucket_state s;   // empty at time 0
/// @endcode
struct token_bucket_state {
  /// @brief Time of the last update.
  timestamp last{};
  /// @brief Tokens at `last`, in units of 1/8e9 byte (token_bucket_units_per_byte per byte),
  /// in [0, bucket * 8e9].
  std::int64_t credit = 0;

  /// @brief A full bucket at time `now`.
  [[nodiscard]] static constexpr token_bucket_state full(const token_bucket_params& p,
                                                         timestamp now) noexcept;
  /// @brief Field-wise equality.
  friend constexpr bool operator==(const token_bucket_state&,
                                   const token_bucket_state&) noexcept = default;
};
// Budget: 16 B per bucket (8 B time + 8 B tokens).
static_assert(sizeof(token_bucket_state) <= 16, "token_bucket_state: 16 B budget");

namespace detail {

// Every quantity below fits 64 bits: the bucket is at most 2^30 B, i.e. 2^30 x 8e9 < 2^63 token
// units, tokens are clamped into [0, bucket], and a size beyond the bucket is never compared
// in token units (it cannot conform). Only the gain r * dt can exceed 64 bits, and then it
// fills the bucket. (netcc computed these in 128-bit integers before; the 64-bit forms give the
// same values for every input, tests/fabric/token_bucket_test.cpp.)

// The bucket size in whole bytes, clamped into [0, 2^30].
constexpr std::int64_t tb_bucket_bytes(const token_bucket_params& p) noexcept {
  return p.bucket.count() < 0                 ? 0
         : p.bucket > token_bucket_max_bucket ? token_bucket_max_bucket.count()
                                              : p.bucket.count();
}

// The bucket size in exact token units, clamped into [0, 2^30 B] (< 2^63).
constexpr std::int64_t tb_cap_units(const token_bucket_params& p) noexcept {
  return tb_bucket_bytes(p) * token_bucket_units_per_byte;
}

// Tokens (exact units) at time t, capped at b: min(b, credit + r (t - last)), no gain when
// t <= last or r <= 0.
constexpr std::int64_t tb_credit_at(const token_bucket_state& s, timestamp t,
                                    const token_bucket_params& p) noexcept {
  const std::int64_t cap = tb_cap_units(p);
  std::int64_t c = s.credit < 0 ? 0 : s.credit;
  if (c > cap) c = cap;
  // t - last as an unsigned count (exact when t > last, since both are int64), else 0; a
  // non-positive rate as 0: either way the gain is 0 and the tokens stay as they are.
  const std::uint64_t dt = t > s.last ? static_cast<std::uint64_t>(t.count()) -
                                            static_cast<std::uint64_t>(s.last.count())
                                      : 0;
  const std::uint64_t r = p.rate.count() < 0 ? 0 : static_cast<std::uint64_t>(p.rate.count());
  std::uint64_t gain = 0;
  // tokens += r * dt, capped at b; a product beyond 64 bits is beyond b.
  const bool fills =
      __builtin_mul_overflow(r, dt, &gain) || gain >= static_cast<std::uint64_t>(cap - c);
  return fills ? cap : c + static_cast<std::int64_t>(gain);
}

// A packet's size in token units, for comparison with tokens of a bucket of `bucket_bytes`
// (clamped) bytes: size * 8e9 when size <= bucket_bytes (0 for a negative size), otherwise
// (bucket_bytes + 1) * 8e9, which exceeds every token count the bucket can hold, as the size
// itself does.
constexpr std::int64_t tb_need_units(bytes size, std::int64_t bucket_bytes) noexcept {
  std::int64_t b = size.count() < 0 ? 0 : size.count();
  if (b > bucket_bytes) b = bucket_bytes + 1;
  return b * token_bucket_units_per_byte;
}

}  // namespace detail

constexpr token_bucket_state token_bucket_state::full(const token_bucket_params& p,
                                                      timestamp now) noexcept {
  return {now, detail::tb_cap_units(p)};
}

/// @brief Whole tokens (bytes, rounded down) in the bucket at `now`, in [0, bucket].
/// @code
/// netcc::token_bucket_params p{.rate = netcc::bit_rate{8'000'000'000}, .bucket = netcc::bytes{100}};
/// netcc::token_bucket_state s;   // empty at 0; 1 B per ns
/// auto b = netcc::token_bucket_tokens(s, netcc::timestamp{42}, p);   // 42 B
/// @endcode
[[nodiscard]] constexpr bytes token_bucket_tokens(const token_bucket_state& s, timestamp now,
                                                  const token_bucket_params& p) noexcept {
  return bytes{
      static_cast<std::int64_t>(detail::tb_credit_at(s, now, p) / token_bucket_units_per_byte)};
}

/// @brief True when a packet of `size` conforms at `now`: at least `size` tokens are present.
/// @code
/// netcc::token_bucket_params p;
/// auto s = netcc::token_bucket_state::full(p, netcc::timestamp{0});
/// bool c = netcc::token_bucket_conforms(s, netcc::bytes{1500}, netcc::timestamp{0}, p);  // true
/// @endcode
[[nodiscard]] constexpr bool token_bucket_conforms(const token_bucket_state& s, bytes size,
                                                   timestamp now,
                                                   const token_bucket_params& p) noexcept {
  return detail::tb_credit_at(s, now, p) >= detail::tb_need_units(size, detail::tb_bucket_bytes(p));
}

/// @brief Offer a packet of `size` at `now`: refill to `now`, then take `size` tokens if the
/// packet conforms. Returns whether it conformed (a non-conforming packet takes nothing).
/// @param s    the bucket (updated: its time becomes max(last, now))
/// @param size packet size (packet view)
/// @param now  arrival time
/// @param p    parameters
/// @code
/// netcc::token_bucket_params p;
/// auto s = netcc::token_bucket_state::full(p, netcc::timestamp{0});
/// bool a = netcc::token_bucket_consume(s, netcc::bytes{1500}, netcc::timestamp{0}, p);  // true
/// bool b = netcc::token_bucket_consume(s, netcc::bytes{1}, netcc::timestamp{0}, p);     // false
/// @endcode
[[nodiscard]] constexpr bool token_bucket_consume(token_bucket_state& s, bytes size, timestamp now,
                                                  const token_bucket_params& p) noexcept {
  const std::int64_t c = detail::tb_credit_at(s, now, p);
  const std::int64_t need = detail::tb_need_units(size, detail::tb_bucket_bytes(p));
  const bool ok = c >= need;
  s.credit = ok ? c - need : c;  // conforming: tokens -= L
  if (now > s.last) s.last = now;
  return ok;
}

/// @brief The earliest time t >= now at which a packet of `size` conforms (if nothing else is
/// taken meanwhile): `now` if it conforms already, else when r (t - last) supplies the deficit,
/// rounded up to whole ns. timestamp::max() when it never will (size > bucket, or rate 0).
/// @code
/// netcc::token_bucket_params p{.rate = netcc::bit_rate{10'000'000'000}};   // 1.25 B/ns
/// netcc::token_bucket_state s;   // empty at 0
/// auto t = netcc::token_bucket_earliest(s, netcc::bytes{1500}, netcc::timestamp{0}, p);
/// // 1500 B / 1.25 B/ns = 1200 ns
/// @endcode
[[nodiscard]] constexpr timestamp token_bucket_earliest(const token_bucket_state& s, bytes size,
                                                        timestamp now,
                                                        const token_bucket_params& p) noexcept {
  const std::int64_t b = detail::tb_bucket_bytes(p);
  if (size.count() > b) return timestamp::max();  // L > b: never conforms
  const timestamp start = now > s.last ? now : s.last;
  const std::int64_t c = detail::tb_credit_at(s, start, p);
  const std::int64_t need = detail::tb_need_units(size, b);
  if (c >= need) return now;
  if (p.rate <= bit_rate{0}) return timestamp::max();
  // ceil(deficit / r): 0 < deficit <= b <= 2^30 B x 8e9 < 2^63 and r < 2^63, so deficit + r - 1
  // < 2^64, and the quotient (at most the deficit) < 2^63.
  const auto r = static_cast<std::uint64_t>(p.rate.count());
  const std::uint64_t num = static_cast<std::uint64_t>(need - c) + r - 1;
  const auto dt = static_cast<std::int64_t>(num / r);
  std::int64_t t = 0;
  if (__builtin_add_overflow(start.count(), dt, &t)) return timestamp::max();  // saturate
  return timestamp{t};
}

/// @brief Tokens after an idle period: min(bucket, tokens + r * idle), in whole bytes (rounded
/// down), for tokens clamped into [0, bucket] and idle < 0 taken as 0.
/// @code
/// using namespace netcc::literals;
/// auto b = netcc::token_bucket_after_idle(0_B, 100_ns, {.rate = 10_Gbps, .bucket = 1500_B});
/// // 10 Gbps * 100 ns = 125 B
/// @endcode
[[nodiscard]] constexpr bytes token_bucket_after_idle(bytes tokens, duration idle,
                                                      const token_bucket_params& p) noexcept {
  token_bucket_state s{timestamp{0}, 0};
  const detail::i128 cap = detail::tb_cap_units(p);
  const detail::i128 c = tokens.count() < 0 ? 0 : detail::i128{tokens.count()} * 8'000'000'000;
  s.credit = static_cast<std::int64_t>(c > cap ? cap : c);
  return token_bucket_tokens(s, timestamp{idle.count() < 0 ? 0 : idle.count()}, p);
}

/// @brief The token bucket's arrival curve γ_{r,b}(t) = b + r t (t > 0), 0 (t <= 0), as plain
/// data for the network-calculus layer.
/// @code
/// using namespace netcc::literals;
/// netcc::token_bucket_curve g{.burst = 1500_B, .rate = 10_Gbps};
/// auto v = g.at(1_us);   // 1500 + 1250 = 2750 B
/// @endcode
struct token_bucket_curve {
  /// @brief Burst b (the curve's value just after 0).
  bytes burst{};
  /// @brief Rate r (the curve's slope).
  bit_rate rate{};
  /// @brief γ(t): 0 for t <= 0, else b + r t (r t rounded down, saturating).
  [[nodiscard]] constexpr bytes at(duration t) const noexcept {
    if (t <= duration::zero()) return bytes{0};
    return bytes{detail::saturate_i64(detail::i128{burst.count()} + (rate * t).count())};
  }
  /// @brief Field-wise equality.
  friend constexpr bool operator==(const token_bucket_curve&,
                                   const token_bucket_curve&) noexcept = default;
};

/// @brief The arrival curve (b, r) a token bucket with these parameters enforces.
/// @code
/// auto g = netcc::token_bucket_arrival_curve(netcc::token_bucket_params{});   // 1500 B, 100 Gbps
/// @endcode
[[nodiscard]] constexpr token_bucket_curve token_bucket_arrival_curve(
    const token_bucket_params& p) noexcept {
  return {p.bucket, p.rate};
}

}  // namespace netcc
