// SPDX-License-Identifier: MIT
/// @file
/// @brief Internals of netcc/control/powertcp.hpp: the compact per-hop INT record PowerTCP
/// keeps between ACKs (Algorithm 1's `prevInt`), and small saturating helpers.
///
/// A record holds what NORMPOWER (PowerTCP NSDI'22, Algorithm 1 lines 11-13) differences
/// against: the raw timestamp and tx-byte counter, reduced modulo their wire widths, the queue
/// length in bytes, and the link rate (only to detect a path change). When the timestamp and
/// counter widths fit together in 64 bits (HPCC's 24 + 20 bits), they share one word and a
/// record costs 16 bytes; with 64-bit clocks or counters it costs 24 bytes.
///
/// Queue lengths are kept in 32 bits (saturating at 4 GiB - 1; the HPCC wire format tops out at
/// 10.5 MB) and link rates in whole Mbps (saturating at 4.29 Pbps); a rate change below 1 Mbps
/// is not seen as a path change.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include "netcc/core/arith.hpp"
#include "netcc/core/detail/int128.hpp"
#include "netcc/core/divisor.hpp"
#include "netcc/core/feedback.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/wrap.hpp"

namespace netcc::detail {

/// Queue length as kept in a record: clamped to [0, 2^32 - 1] bytes.
[[nodiscard]] constexpr std::uint32_t powertcp_qlen32(bytes q) noexcept {
  if (q.count() <= 0) return 0;
  return q.count() >= 0xFFFF'FFFFLL ? 0xFFFF'FFFFU : static_cast<std::uint32_t>(q.count());
}

/// Link rate as kept in a record: whole Mbps, clamped to [0, 2^32 - 1].
[[nodiscard]] constexpr std::uint32_t powertcp_rate32(bit_rate r) noexcept {
  if (r.bps() < 1'000'000) return 0;
  const std::uint64_t mbps = static_cast<std::uint64_t>(r.bps()) / 1'000'000U;  // unsigned: cheaper
  return mbps >= 0xFFFF'FFFFU ? 0xFFFF'FFFFU : static_cast<std::uint32_t>(mbps);
}

/// powertcp_rate32(b) == rate, the path-change test of a hop (PowerTCP, HPCC, FastTune): true
/// at once when b lies in [rate, rate + 1) Mbps (one multiplication and a comparison, the case
/// of an unchanged path: every such b reads as `rate` in whole Mbps, saturated or not), else
/// decided by powertcp_rate32 itself (a changed rate, or one below 1 Mbps).
[[nodiscard]] constexpr bool powertcp_rate_is(bit_rate b, std::uint32_t rate) noexcept {
  if (static_cast<std::uint64_t>(b.bps()) - std::uint64_t{rate} * 1'000'000U < 1'000'000U)
    return true;
  return powertcp_rate32(b) == rate;
}

/// One hop's normalised power, NORMPOWER lines 12-19 (PowerTCP NSDI'22 Algorithm 1):
/// (lambda / b) * ((qlen + b*tau) / (b*tau)) with lambda = (dqlen + dtxBytes) / dt, clamped to
/// [0, pmax] (a negative current is counter noise; see the public header).
///
/// Double computes it in floating point with a single division,
/// dbytes * (qlen*8e9 + b*tau) * 8e9 / (dt * b * b * tau) (units: bytes, ns, bps). Other number
/// types stay in integers: the rate through netcc's units (rounded toward zero to 1 bps) and the
/// BDP in whole bytes (a zero BDP saturates), each turned into T by netcc::ratio.
/// dt > 0, b > 0 and tau > 0 are the caller's to ensure.
template <Number T>
[[nodiscard]] constexpr T powertcp_hop_power(std::int64_t dbytes, duration dt, std::int64_t qlen,
                                             bit_rate b, duration tau, T pmax) noexcept {
  const T zero = num<T>(0);
  if constexpr (std::is_same_v<T, double>) {
    const double bt = static_cast<double>(b.bps()) * static_cast<double>(tau.count());
    const double p = static_cast<double>(dbytes) * 8e9 * (static_cast<double>(qlen) * 8e9 + bt) /
                     (static_cast<double>(dt.count()) * static_cast<double>(b.bps()) * bt);
    return clamp_num(p, zero, pmax);
  } else {
    const T one = num<T>(1);
    const T current = clamp_num(ratio<T>((bytes{dbytes} / dt).bps(), b.bps()), zero, pmax);
    const T voltage = clamp_num(one + ratio<T>(qlen, (b * tau).count()), one, pmax);
    return clamp_num(mul_nonneg(current, voltage), zero, pmax);
  }
}

/// The reciprocals of one link rate the fixed-point NORMPOWER divides by: B (bps) and the
/// link's BDP B * tau in bytes, as netcc::detail::invariant_divisor (computed once per rate and
/// tau; netcc::ratio_by then gives the value netcc::ratio gives, without a division).
struct powertcp_rate_recip {
  std::int64_t bps = 0;  // 0: an empty entry
  std::int64_t bdp = 0;  // (B * tau).count()
  invariant_divisor inv_b{};
  invariant_divisor inv_bdp{};
};

/// The reciprocals of the link rates a flow's path has shown, for the tau they were computed
/// with: an entry is filled on first sight of a rate (two 128-bit divisions, once), all are
/// emptied when tau changes; a path with more distinct rates than entries takes the dividing
/// path (powertcp_hop_power) for the others. Configuration-like: it depends only on the path's
/// link rates and tau.
struct powertcp_recip_cache {
  std::array<powertcp_rate_recip, 2> entries{};
  duration tau{};

  /// The entry of rate b (> 0) under tau (> 0), filled if new; nullptr when full.
  constexpr const powertcp_rate_recip* find(bit_rate b, duration t) noexcept {
    set_tau(t);
    return find_rate(b);
  }
  /// Empties the entries when t differs from the tau they were computed with (once per ACK,
  /// before find_rate for each hop: find's steps, the tau test out of the hop loop).
  constexpr void set_tau(duration t) noexcept {
    if (t != tau) {
      entries = {};
      tau = t;
    }
  }
  /// The entry of rate b (> 0) under the tau of the last set_tau, filled if new; nullptr when
  /// full.
  constexpr const powertcp_rate_recip* find_rate(bit_rate b) noexcept {
    const duration t = tau;
    for (auto& r : entries) {
      if (r.bps == b.bps()) return &r;
      if (r.bps == 0) {
        r.bps = b.bps();
        r.bdp = (b * t).count();
        r.inv_b = invariant_divisor{static_cast<std::uint64_t>(b.bps())};
        r.inv_bdp = invariant_divisor{static_cast<std::uint64_t>(r.bdp > 0 ? r.bdp : 1)};
        return &r;
      }
    }
    return nullptr;
  }
};

/// An empty member (the double policy keeps no reciprocals).
struct powertcp_none {};

/// powertcp_hop_power for a number type other than double, through the rate's reciprocals `r`
/// (r.bps == b, r.bdp == (b * tau).count()): the same value, with one 64-bit division (the
/// byte rate over dt) instead of three 128-bit ones. A non-positive byte delta gives a current
/// of 0 and so a power of 0; a delta whose bit count exceeds 63 bits, or a zero BDP, takes
/// powertcp_hop_power itself.
template <Number T>
[[nodiscard]] constexpr T powertcp_hop_power_recip(std::int64_t dbytes, duration dt,
                                                   std::int64_t qlen, const powertcp_rate_recip& r,
                                                   duration tau, T pmax) noexcept {
  const T zero = num<T>(0);
  if (dbytes <= 0) return zero;
  constexpr std::int64_t dbytes_max = 0x7FFF'FFFF'FFFF'FFFFLL / 8'000'000'000LL;
  if (dbytes > dbytes_max || r.bdp <= 0)
    return powertcp_hop_power<T>(dbytes, dt, qlen, bit_rate{r.bps}, tau, pmax);
  // (bytes{dbytes} / dt).bps(): rounded toward zero, here a 64-bit quotient.
  const auto rate =
      static_cast<std::int64_t>(static_cast<std::uint64_t>(dbytes) * 8'000'000'000ULL /
                                static_cast<std::uint64_t>(dt.count()));
  const T one = num<T>(1);
  const T current = clamp_num(ratio_by<T>(rate, r.inv_b), zero, pmax);
  const T voltage = clamp_num(one + ratio_by<T>(qlen < 0 ? 0 : qlen, r.inv_bdp), one, pmax);
  return clamp_num(mul_nonneg(current, voltage), zero, pmax);
}

/// The previous INT record of one hop. Primary template: timestamp and counter in separate
/// 64-bit words (their widths do not fit one word together).
template <ClockTraits Clock, CounterTraits Counter,
          bool Packed = (Clock::width + Counter::width <= 64)>
struct powertcp_hop_record {
  std::uint64_t ts_raw = 0;
  std::uint64_t tx_raw = 0;
  std::uint32_t qlen = 0;  // bytes, see powertcp_qlen32
  std::uint32_t rate = 0;  // Mbps, see powertcp_rate32

  /// The path-change key of a hop (its rate in whole Mbps) and of this record.
  [[nodiscard]] static constexpr std::uint32_t key_of(const int_hop& h) noexcept {
    return powertcp_rate32(h.link_rate);
  }
  /// key_of(h) == k, the path-change test (powertcp_rate_is: one multiplication and a
  /// comparison while the rate is unchanged).
  [[nodiscard]] static constexpr bool key_is(const int_hop& h, std::uint32_t k) noexcept {
    return powertcp_rate_is(h.link_rate, k);
  }
  [[nodiscard]] constexpr std::uint32_t key() const noexcept { return rate; }
  [[nodiscard]] constexpr std::uint32_t qlen_bytes() const noexcept { return qlen; }
  [[nodiscard]] constexpr std::uint64_t ts() const noexcept { return ts_raw; }
  [[nodiscard]] constexpr std::uint64_t tx() const noexcept { return tx_raw; }
  constexpr void store(const int_hop& h) noexcept {
    store_raw(h, powertcp_qlen32(h.qlen), powertcp_rate32(h.link_rate));
  }
  /// As store(h), with h's queue length and rate already reduced (powertcp_qlen32, _rate32).
  constexpr void store_raw(const int_hop& h, std::uint32_t q, std::uint32_t r) noexcept {
    ts_raw = modular<Clock::width>::wrap(h.ts);
    tx_raw = modular<Counter::width>::wrap(h.tx_bytes);
    qlen = q;
    rate = r;
  }
};

/// Packed record: timestamp in the low Clock::width bits of one word, counter above it.
template <ClockTraits Clock, CounterTraits Counter>
struct powertcp_hop_record<Clock, Counter, true> {
  std::uint64_t word = 0;
  std::uint32_t qlen = 0;  // bytes, see powertcp_qlen32
  std::uint32_t rate = 0;  // Mbps, see powertcp_rate32

  /// The path-change key of a hop (its rate in whole Mbps) and of this record.
  [[nodiscard]] static constexpr std::uint32_t key_of(const int_hop& h) noexcept {
    return powertcp_rate32(h.link_rate);
  }
  /// key_of(h) == k, the path-change test (powertcp_rate_is: one multiplication and a
  /// comparison while the rate is unchanged).
  [[nodiscard]] static constexpr bool key_is(const int_hop& h, std::uint32_t k) noexcept {
    return powertcp_rate_is(h.link_rate, k);
  }
  [[nodiscard]] constexpr std::uint32_t key() const noexcept { return rate; }
  [[nodiscard]] constexpr std::uint32_t qlen_bytes() const noexcept { return qlen; }
  [[nodiscard]] constexpr std::uint64_t ts() const noexcept {
    return modular<Clock::width>::wrap(word);
  }
  [[nodiscard]] constexpr std::uint64_t tx() const noexcept {
    return modular<Counter::width>::wrap(word >> Clock::width);
  }
  constexpr void store(const int_hop& h) noexcept {
    store_raw(h, powertcp_qlen32(h.qlen), powertcp_rate32(h.link_rate));
  }
  /// As store(h), with h's queue length and rate already reduced (powertcp_qlen32, _rate32).
  constexpr void store_raw(const int_hop& h, std::uint32_t q, std::uint32_t r) noexcept {
    word = modular<Clock::width>::wrap(h.ts) |
           (modular<Counter::width>::wrap(h.tx_bytes) << Clock::width);
    qlen = q;
    rate = r;
  }
};

}  // namespace netcc::detail
