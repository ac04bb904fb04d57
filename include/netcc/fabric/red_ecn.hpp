// SPDX-License-Identifier: MIT
/// @file
/// @brief RED/ECN marking at a switch queue (K_min, K_max, P_max), the DCTCP single threshold
/// as its degenerate case, and a compile-time probability table for a pipeline.
///
/// Sources:
/// - J. Liebeherr et al., seed 003 (network-calculus model of congestion control, this
///   repository's `seeds/003_7857f230e87c9d73.txt`), §III-B d: a packet that sees backlog x is
///   marked with probability p(x) = 1 if x >= K_max; P_max (x - K_min) / (K_max - K_min) if
///   K_min < x < K_max; 0 if x <= K_min. §V Table II (from DCQCN [5]): K_min = 5 kB,
///   K_max = 200 kB, P_max = 1 %.
/// - Y. Zhu et al., "Congestion Control for Large-Scale RDMA Deployments" (DCQCN), ACM SIGCOMM
///   2015, §3 (CP algorithm): RED-ECN on the instantaneous egress queue, same thresholds.
/// - M. Alizadeh et al., "Data Center TCP (DCTCP)", ACM SIGCOMM 2010, §3.1, and S. Bensley et
///   al., RFC 8257 §3.1: a single threshold K on the instantaneous queue; a packet is marked
///   when the queue exceeds K.
/// - K. Ramakrishnan, S. Floyd, D. Black, RFC 3168 §5 and §7: a router that would mark a
///   packet that is not ECN-capable (Not-ECT) drops it instead; CE stays CE.
///
/// What is here:
/// - netcc::red_probability: a probability in units of 2^-32 (a switch compares a 32-bit
///   random number against it: `draw < p` marks; p = 0 never, p = 1 always);
/// - netcc::red_ecn_params (Table II defaults), validate(), netcc::dctcp_red_params(K);
/// - netcc::red_marking_probability(x): the seed's p(x), exact floor in integers;
/// - netcc::red_ecn_on_packet: the per-packet decision (pass, mark CE, drop Not-ECT) with the
///   random draw injected by the caller, so tests are deterministic;
/// - netcc::red_ecn_table / netcc::make_red_ecn_table: p(x) precomputed at compile time over
///   backlog cells of 2^shift bytes, plus one comparator on K_max, as a match-action pipeline
///   would hold it; netcc::red_ecn_table::check proves every entry equal to the direct formula.
///
/// Deviations and netcc's choices, with reasons:
/// - **Instantaneous backlog, no EWMA.** Classic RED (Floyd & Jacobson 1993) averages the
///   queue and spaces marks with a count; the seed, DCQCN and DCTCP all mark on the
///   instantaneous backlog with the plain p(x), which is what is implemented. The function is
///   therefore stateless: the caller's port view (the backlog) is the only state.
/// - **Which backlog** (at enqueue, or at dequeue as DCQCN's CP does) is the caller's choice.
/// - **DCTCP's threshold.** The seed's formula with K_min = K_max = K marks at x >= K; DCTCP
///   marks when the queue *exceeds* K. netcc::dctcp_red_params(K) therefore sets both
///   thresholds to K + 1 B, so that marking starts at x > K exactly as DCTCP states.
/// - **Probability resolution** is 2^-32: P_max is rounded to the nearest multiple (1 % is
///   42949673 / 2^32, 0.9999999999 % off), and p(x) is floored, so it is monotone in x.
/// - **Table quantisation.** The table holds p at the lower edge of each cell, so it never
///   marks more often than the direct formula and at most P_max (2^shift - 1)/(K_max - K_min)
///   less often (1.3e-5 for Table II with 256-B cells); K_max itself is a comparator, so
///   x >= K_max always marks as in the formula.
///
/// @code
/// using namespace netcc::literals;
/// netcc::red_ecn_params p;                                    // Table II: 5 kB, 200 kB, 1 %
/// auto pr = netcc::red_marking_probability(102500_B, p);      // 0.5 % = 21474836 / 2^32
/// auto d = netcc::red_ecn_on_packet(netcc::ecn_codepoint::ect0, 250_KB, 0xFFFFFFFFu, p);
/// // d.action == netcc::red_action::mark, d.ecn == netcc::ecn_codepoint::ce
/// @endcode
#pragma once

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "netcc/core/detail/int128.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/validation.hpp"

namespace netcc {

/// @brief A marking probability in units of 2^-32, in [0, 1] (raw in [0, 2^32]).
///
/// A switch draws a uniform 32-bit random number `draw` and marks when `draw < raw`, so the
/// probability of marking is exactly raw / 2^32.
/// @code
/// constexpr auto one_pct = netcc::red_probability::from_ratio(1, 100);   // raw 42949673
/// static_assert(one_pct.selects(42949672u) && !one_pct.selects(42949673u));
/// @endcode
struct red_probability {
  /// @brief raw value of probability 1 (2^32).
  static constexpr std::uint64_t one_raw = std::uint64_t{1} << 32;
  /// @brief The probability times 2^32, in [0, 2^32].
  std::uint64_t raw = 0;

  /// @brief Probability 0 (never marks).
  [[nodiscard]] static constexpr red_probability zero() noexcept { return {0}; }
  /// @brief Probability 1 (always marks).
  [[nodiscard]] static constexpr red_probability one() noexcept { return {one_raw}; }
  /// @brief n / d rounded to the nearest multiple of 2^-32 and clamped to [0, 1]; d = 0 gives
  /// 1 for n > 0 and 0 for n = 0 (total).
  [[nodiscard]] static constexpr red_probability from_ratio(std::uint64_t n,
                                                            std::uint64_t d) noexcept {
    if (d == 0) return n > 0 ? one() : zero();
    const detail::u128 q = (detail::u128{n} * one_raw + d / 2) / d;
    return {q > one_raw ? one_raw : static_cast<std::uint64_t>(q)};
  }
  /// @brief True when a uniform 32-bit `draw` selects this probability: `draw < raw`.
  [[nodiscard]] constexpr bool selects(std::uint32_t draw) const noexcept {
    return std::uint64_t{draw} < raw;
  }
  /// @brief The probability as a double (exact).
  [[nodiscard]] constexpr double to_double() const noexcept {
    return static_cast<double>(raw) / static_cast<double>(one_raw);
  }
  /// @brief Equality of raw values.
  friend constexpr bool operator==(red_probability, red_probability) noexcept = default;
  /// @brief Ordering of raw values.
  friend constexpr std::strong_ordering operator<=>(red_probability,
                                                    red_probability) noexcept = default;
};

/// @brief The two-bit ECN field of the IP header (RFC 3168 §5).
enum class ecn_codepoint : std::uint8_t {
  not_ect = 0,  ///< Not ECN-capable transport (00).
  ect1 = 1,     ///< ECN-capable transport, ECT(1) (01).
  ect0 = 2,     ///< ECN-capable transport, ECT(0) (10).
  ce = 3,       ///< Congestion experienced (11).
};

/// @brief Parameters of RED/ECN marking; defaults from seed 003 §V Table II (DCQCN [5]).
/// @code
/// netcc::red_ecn_params p{.k_min = netcc::bytes{10'000}, .k_max = netcc::bytes{400'000}};
/// @endcode
struct red_ecn_params {
  /// @brief K_min: at or below this backlog nothing is marked. Default 5 kB (Table II).
  bytes k_min{5'000};
  /// @brief K_max: at or above this backlog every packet is marked. Default 200 kB (Table II).
  bytes k_max{200'000};
  /// @brief P_max: the marking probability just below K_max. Default 1 % (Table II).
  red_probability p_max = red_probability::from_ratio(1, 100);
  /// @brief Drop (instead of pass) a selected packet that is Not-ECT (RFC 3168 §7). Default
  /// true, as RFC 3168 prescribes; false suits a lossless class that must never drop.
  bool drop_not_ect = true;
};

/// @brief Check red_ecn_params: 0 <= k_min <= k_max, p_max in (0, 1].
[[nodiscard]] inline validation validate(const red_ecn_params& p) {
  validation v;
  v.check(p.k_min >= bytes{0}, "red_ecn.k_min", p.k_min, "must be >= 0 B");
  v.check(p.k_max >= p.k_min, "red_ecn.k_max", p.k_max, "must be >= k_min");
  v.check(p.p_max.raw > 0 && p.p_max.raw <= red_probability::one_raw, "red_ecn.p_max", p.p_max.raw,
          "must be in (0, 2^32] (units of 2^-32), i.e. (0, 1]");
  return v;
}

/// @brief DCTCP's single-threshold marking (DCTCP §3.1, RFC 8257 §3.1) as RED parameters:
/// mark every ECN-capable packet that sees a backlog greater than `k`.
///
/// Both thresholds are set to k + 1 B (saturating), so the seed's first case x >= K_max is
/// x > k; P_max is 1 (it is never used when K_min = K_max). A negative `k` is taken as 0.
/// @code
/// auto d = netcc::dctcp_red_params(netcc::bytes{65'000});   // k_min = k_max = 65001 B
/// @endcode
[[nodiscard]] constexpr red_ecn_params dctcp_red_params(bytes k) noexcept {
  const std::int64_t kk = k.count() < 0 ? 0 : k.count();
  const std::int64_t t = kk == std::numeric_limits<std::int64_t>::max() ? kk : kk + 1;
  return red_ecn_params{bytes{t}, bytes{t}, red_probability::one(), true};
}

/// @brief The seed's marking probability p(x) for backlog `x` (seed 003 §III-B d).
///
/// 1 for x >= K_max; floor(P_max (x - K_min) / (K_max - K_min)) in units of 2^-32 for
/// K_min < x < K_max; 0 for x <= K_min. Monotone non-decreasing in x; total (a negative
/// backlog is below K_min; params outside validate() still give a value in [0, 1]).
/// @code
/// using namespace netcc::literals;
/// // (102500 - 5000) / (200000 - 5000) = 1/2 of P_max = 42949673 / 2 -> 21474836 (floor)
/// auto p = netcc::red_marking_probability(102500_B, netcc::red_ecn_params{});
/// @endcode
[[nodiscard]] constexpr red_probability red_marking_probability(bytes x,
                                                                const red_ecn_params& p) noexcept {
  if (x >= p.k_max) return red_probability::one();   // x >= K_max: 1
  if (x <= p.k_min) return red_probability::zero();  // x <= K_min: 0
  // K_min < x < K_max (so K_max - K_min > 0): P_max (x - K_min) / (K_max - K_min).
  const std::uint64_t pmax =
      p.p_max.raw > red_probability::one_raw ? red_probability::one_raw : p.p_max.raw;
  const detail::u128 num =
      detail::u128{pmax} * static_cast<detail::u128>(detail::i128{x.count()} - p.k_min.count());
  const detail::u128 den =
      static_cast<detail::u128>(detail::i128{p.k_max.count()} - p.k_min.count());
  return {static_cast<std::uint64_t>(num / den)};
}

/// @brief What the queue does with a packet.
enum class red_action : std::uint8_t {
  pass,  ///< Forward unchanged.
  mark,  ///< Forward with the ECN field set to CE (RFC 3168 §5).
  drop,  ///< Drop (a selected Not-ECT packet, RFC 3168 §7).
};

/// @brief The per-packet decision of RED/ECN.
struct red_decision {
  /// @brief Pass, mark or drop.
  red_action action = red_action::pass;
  /// @brief The ECN field the packet leaves with (CE when marked, else unchanged).
  ecn_codepoint ecn = ecn_codepoint::not_ect;
  /// @brief The probability p(x) that was applied.
  red_probability p{};
  /// @brief Field-wise equality.
  friend constexpr bool operator==(const red_decision&, const red_decision&) noexcept = default;
};

/// @brief RED/ECN for one packet: select with probability p(backlog) using the caller's
/// uniform 32-bit `draw`, then mark an ECN-capable packet CE, or drop (or pass, if
/// `drop_not_ect` is false) a Not-ECT one.
///
/// A packet already CE stays CE (it is reported as marked when selected). Deterministic: the
/// same draw gives the same decision; a switch passes a fresh hardware random number.
/// @param ecn     the packet's ECN field (packet view)
/// @param backlog the queue's backlog seen by this packet (port view)
/// @param draw    uniform random 32-bit number from the caller
/// @param p       parameters
/// @code
/// auto d = netcc::red_ecn_on_packet(netcc::ecn_codepoint::not_ect, netcc::bytes{300'000}, 7,
///                                   netcc::red_ecn_params{});   // action == drop
/// @endcode
[[nodiscard]] constexpr red_decision red_ecn_on_packet(ecn_codepoint ecn, bytes backlog,
                                                       std::uint32_t draw,
                                                       const red_ecn_params& p) noexcept {
  const red_probability pr = red_marking_probability(backlog, p);
  if (!pr.selects(draw)) return {red_action::pass, ecn, pr};
  if (ecn == ecn_codepoint::not_ect) {
    return {p.drop_not_ect ? red_action::drop : red_action::pass, ecn, pr};  // RFC 3168 §7
  }
  return {red_action::mark, ecn_codepoint::ce, pr};  // RFC 3168 §5: set CE
}

/// @brief p(x) precomputed over backlog cells of 2^shift bytes, for a match-action pipeline.
///
/// Entry i holds floor(P_max (i 2^shift - K_min) / (K_max - K_min)) (0 at or below K_min) as
/// a 32-bit value: every x < K_max gives p < P_max <= 1 < 2^32. A lookup compares x with
/// K_max (always mark at or above it), else reads entry min(x >> shift, Entries - 1).
/// @tparam Entries number of cells (the table is Entries x 4 B)
/// @code
/// constexpr auto t = netcc::make_red_ecn_table<1024>(netcc::red_ecn_params{}, 8);
/// static_assert(t.covers() && t.check(0, 1024));
/// @endcode
template <std::size_t Entries>
struct red_ecn_table {
  static_assert(Entries >= 1 && Entries <= (std::size_t{1} << 20),
                "red_ecn_table: 1 .. 2^20 entries");
  /// @brief Number of cells.
  static constexpr std::size_t size = Entries;
  /// @brief Storage of the entries in bytes.
  static constexpr std::size_t size_bytes = Entries * sizeof(std::uint32_t);
  /// @brief The parameters the table was generated for.
  red_ecn_params params{};
  /// @brief log2 of the cell width in bytes.
  unsigned shift = 0;
  /// @brief raw probability (units of 2^-32) at the lower edge of each cell.
  std::array<std::uint32_t, Entries> entries{};

  /// @brief True when every backlog below K_max falls in a cell of its own (no clamping to
  /// the last entry): Entries * 2^shift >= K_max.
  [[nodiscard]] constexpr bool covers() const noexcept {
    return detail::i128{static_cast<std::int64_t>(Entries)} << shift >= params.k_max.count();
  }
  /// @brief The table's probability for backlog `x` (comparator on K_max, then the cell).
  [[nodiscard]] constexpr red_probability lookup(bytes x) const noexcept {
    if (x >= params.k_max) return red_probability::one();
    if (x.count() <= 0) return {entries[0]};
    const std::uint64_t cell = static_cast<std::uint64_t>(x.count()) >> shift;
    return {entries[cell < Entries ? cell : Entries - 1]};
  }
  /// @brief red_ecn_on_packet with the table's probability.
  [[nodiscard]] constexpr red_decision on_packet(ecn_codepoint ecn, bytes backlog,
                                                 std::uint32_t draw) const noexcept {
    const red_probability pr = lookup(backlog);
    if (!pr.selects(draw)) return {red_action::pass, ecn, pr};
    if (ecn == ecn_codepoint::not_ect) {
      return {params.drop_not_ect ? red_action::drop : red_action::pass, ecn, pr};
    }
    return {red_action::mark, ecn_codepoint::ce, pr};
  }
  /// @brief True when entries [first, last) equal red_marking_probability at their cell's
  /// lower edge (below K_max) or are unreachable (edge at or above K_max).
  [[nodiscard]] constexpr bool check(std::size_t first, std::size_t last) const noexcept {
    for (std::size_t i = first; i < last && i < Entries; ++i) {
      const detail::i128 edge = detail::i128{static_cast<std::int64_t>(i)} << shift;
      if (edge >= params.k_max.count()) continue;  // a lookup never reads it
      const auto direct = red_marking_probability(bytes{static_cast<std::int64_t>(edge)}, params);
      if (direct.raw != entries[i]) return false;
    }
    return true;
  }
};

/// @brief Generate a red_ecn_table at compile time (or at run time: constexpr and total).
///
/// `shift` is clamped to 40 (cells of 1 TiB); an entry whose edge is at or above K_max holds
/// 2^32 - 1 (a lookup never reads it: the K_max comparator decides first).
/// @code
/// constexpr auto t = netcc::make_red_ecn_table<1024>(netcc::red_ecn_params{}, 8);
/// static_assert(t.entries[20] == 0 && t.lookup(netcc::bytes{200'000}).raw == 1ULL << 32);
/// @endcode
template <std::size_t Entries>
[[nodiscard]] constexpr red_ecn_table<Entries> make_red_ecn_table(const red_ecn_params& p,
                                                                  unsigned shift) noexcept {
  red_ecn_table<Entries> t{};
  t.params = p;
  t.shift = shift > 40 ? 40 : shift;
  for (std::size_t i = 0; i < Entries; ++i) {
    const std::int64_t edge = static_cast<std::int64_t>(i) << t.shift;
    const auto pr = red_marking_probability(bytes{edge}, p);
    t.entries[i] = pr.raw >= red_probability::one_raw ? std::numeric_limits<std::uint32_t>::max()
                                                      : static_cast<std::uint32_t>(pr.raw);
  }
  return t;
}

/// @brief The smallest cell shift (<= 40) for which `Entries` cells cover [0, K_max).
/// @code
/// static_assert(netcc::red_ecn_table_shift(netcc::red_ecn_params{}, 1024) == 8);
/// @endcode
[[nodiscard]] constexpr unsigned red_ecn_table_shift(const red_ecn_params& p,
                                                     std::size_t entries) noexcept {
  unsigned s = 0;
  while (s < 40 && (detail::i128{static_cast<std::int64_t>(entries)} << s) < p.k_max.count()) ++s;
  return s;
}

}  // namespace netcc
