// SPDX-License-Identifier: MIT
/// @file
/// @brief Bolt Supply Matching: the supply token (Algorithm 3), its QoS form (Algorithm 4),
/// and the compile-time supply lookup table of §4.1.
///
/// Source: S. Arslan, Y. Li, G. Kumar, N. Dukkipati, "Bolt: Sub-RTT Congestion Control for
/// Ultra-Low Latency", NSDI 2023: §3.3 and Algorithm 3 (per egress port, on every data packet:
/// `sm_token += BW * inter_arrival_time - pkt.size`, then `sm_token = min(sm_token, MTU)`),
/// Appendix B.1 and Algorithm 4 (per QoS queue i of n: the supply is scaled by
/// `w_i / w_effective`, where `w_effective` sums the weights of queue i and every non-empty
/// queue), and §4.1 (a PISA pipeline has no multiplier for `BW * inter_arrival_time`, so the
/// switch looks the supply up in a table of 65536 entries, one per nanosecond of inter-arrival
/// time; an inter-arrival time beyond the table sets the token directly to one MTU).
///
/// What is here:
/// - netcc::bolt_params (MTU, CC_THRESH, rate unit of the SRC's link-rate code) and its
///   validate(); netcc::bolt_port_state (per egress port or per QoS queue: last_sm_time,
///   sm_token, pru_token: the register arrays of §4.1);
/// - netcc::bolt_supply_token (Algorithm 3) over a supply source: netcc::bolt_direct_supply
///   (exact integer `BW * dt`, floor) or a netcc::bolt_supply_table (the §4.1 table);
/// - netcc::bolt_qos_supply_token (Algorithm 4), exact in integers;
/// - netcc::bolt_supply_table<Rate, Entries, Cap>: generated at compile time by running sums
///   (no multiply or divide per entry), each entry checked against the direct product by
///   netcc::bolt_supply_table::check (the static tests check every entry).
///
/// Defaults and their sources: `mtu` = 1500 B (Bolt does not state its MTU; 1500 B is the
/// Ethernet MTU and netcc's testbench default); `cc_thresh` = one MTU ("trivially set to a
/// single MTU", §3.1); table of 65536 entries at 1 ns (§4.1).
///
/// Deviations and netcc's choices, with reasons:
/// - **Lower bound of the token.** Algorithm 3 only caps the token above. netcc keeps it in a
///   32-bit signed register, as a switch would, and saturates it at
///   netcc::bolt_sm_token_floor = -2^31 B instead of letting it wrap or overflow.
/// - **Negative inter-arrival time** (a timestamp older than the last one: reordering between
///   pipelines, or nonsense input) gives zero supply; last_sm_time is still set to `now`
///   (Algorithm 3 line 3). A negative packet size counts as zero demand.
/// - **Direct supply beyond the table.** With netcc::bolt_direct_supply the product `BW * dt`
///   is used for every dt (Algorithm 3 as written); only a table supply applies §4.1's "beyond
///   65 us, set the token to one MTU". Both agree beyond the table when the token before the
///   update is not negative and `BW * 65536 ns >= MTU + demand` (for 1500 B packets and a
///   1500 B MTU: any link of 366 Mbps or more). From a deficit they differ: the table resets
///   the token to one MTU, the direct product adds `BW * dt` to the deficit.
/// - **Table entries** are 32-bit and saturate at `Cap` (default 2^31 - 1, the largest value of
///   a signed 32-bit register); at 65535 ns this binds only above 262 Tbps.
/// - **Algorithm 4's loop** "for j <- 0 to n" over n levels is read as j = 0 .. n-1. Its line 8
///   needs a multiply and a divide (the paper suggests lookup tables); netcc computes
///   `floor(BW * dt * w_i / (8e9 * w_effective))` exactly: in 64 bits (a multiply-and-shift
///   for 8e9 and one division by w_effective, none when w_effective = w_i) when
///   `BW * dt * w_i < 2^64`, in 128-bit integers otherwise.
///
/// @code
/// using namespace netcc::literals;
/// netcc::bolt_port_state port;
/// netcc::bolt_params p;
/// netcc::bolt_supply_token(port, 1500_B, 100_Gbps, netcc::timestamp{1'000'000}, p);
/// // long idle: sm_token == 1500 (capped at one MTU)
/// using table = netcc::bolt_supply_table<100'000'000'000>;   // 65536 entries, 256 KiB
/// static_assert(table::entries[120] == 1500);                 // 100 Gbps * 120 ns / 8
/// @endcode
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

#include "netcc/core/detail/int128.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/validation.hpp"
#include "netcc/fabric/bolt_header.hpp"

namespace netcc {

/// @brief Parameters of Bolt's switch logic (Algorithms 1, 3, 4).
/// @code
/// netcc::bolt_params p{.mtu = netcc::bytes{4096}, .cc_thresh = netcc::bytes{4096}};
/// @endcode
struct bolt_params {
  /// @brief MTU: the cap of the supply token and the token an INC packet consumes (Algorithm 1
  /// line 16-17, Algorithm 3 line 7). Default 1500 B (Ethernet; the paper does not state it).
  bytes mtu{1500};
  /// @brief CC_THRESH: queue occupancy at or above which the port is congested (Algorithm 1
  /// line 4); "trivially set to a single MTU" (§3.1). Default 1500 B, the default `mtu`: a
  /// designated initialiser cannot refer to another field, so set both when changing the MTU.
  bytes cc_thresh{1500};
  /// @brief Unit of the SRC's 8-bit link-rate code (see netcc/fabric/bolt_header.hpp).
  bit_rate link_rate_unit = bolt_default_rate_unit;
  /// @brief Proactive ramp-up (§3.2, Algorithm 1 lines 11-12 and 14-15). Off reproduces the
  /// paper's "PRU OFF" (§5.1.2, Table 1): a LAST packet is treated as any other and no PRU
  /// token is ever granted.
  bool pru = true;
  /// @brief Supply matching (§3.3, Algorithm 1 lines 16-17). Off reproduces the paper's "SM
  /// OFF" (§5.1.2 Table 1, §5.1.3): the supply token is kept up to date but never spent.
  bool sm = true;
};

/// @brief Check bolt_params: mtu in [1, 65535] B, cc_thresh >= 0, link_rate_unit > 0.
[[nodiscard]] inline validation validate(const bolt_params& p) {
  validation v;
  v.check(p.mtu >= bytes{1} && p.mtu <= bytes{65535}, "bolt.mtu", p.mtu, "must be in [1, 65535] B");
  v.check(p.cc_thresh >= bytes{0}, "bolt.cc_thresh", p.cc_thresh, "must be >= 0 B");
  v.check(p.link_rate_unit > bit_rate{0}, "bolt.link_rate_unit", p.link_rate_unit,
          "must be > 0 bps");
  return v;
}

/// @brief The lower bound at which the supply token saturates: -2^31 B (a signed 32-bit
/// register), instead of overflowing.
inline constexpr bytes bolt_sm_token_floor{std::numeric_limits<std::int32_t>::min()};

/// @brief Bolt's per-port (or per-QoS-queue) switch state: the register arrays of §4.1.
/// @code
/// netcc::bolt_port_state s;   // sm_token 0, pru_token 0, last_sm_time 0
/// @endcode
struct bolt_port_state {
  /// @brief Arrival time of the last data packet at this port (Algorithm 3 line 3).
  timestamp last_sm_time{};
  /// @brief Supply token in bytes, in [bolt_sm_token_floor, mtu] (Algorithm 3).
  std::int32_t sm_token = 0;
  /// @brief PRU tokens: packets' worth of bandwidth freed next RTT (Algorithm 1 line 12).
  std::uint32_t pru_token = 0;
  /// @brief Field-wise equality.
  friend constexpr bool operator==(const bolt_port_state&,
                                   const bolt_port_state&) noexcept = default;
};
// Budget: 16 B per egress port (8 B time + two 32-bit registers).
static_assert(sizeof(bolt_port_state) <= 16, "bolt_port_state: 16 B budget");

/// @brief The supply a source reports for one inter-arrival time.
struct bolt_supply {
  /// @brief Supply in bytes (>= 0).
  std::int64_t bytes = 0;
  /// @brief True when the inter-arrival time is beyond the lookup table (§4.1): the token is
  /// then set to one MTU directly.
  bool beyond_table = false;
};

/// @brief `BW * dt` in whole bytes (floor), 0 for dt <= 0 or a non-positive rate, saturating
/// at 2^63 - 1: the direct computation of Algorithm 3 line 4.
[[nodiscard]] constexpr std::int64_t bolt_direct_supply_bytes(bit_rate rate, duration dt) noexcept {
  if (dt <= duration::zero() || rate <= bit_rate{0}) return 0;
  // Common case: the product fits 64 bits, and the division by the constant 8e9 compiles to a
  // multiply and shift. Otherwise units' 128-bit product; both are floor(BW * dt / 8e9).
  std::uint64_t prod = 0;
  if (!__builtin_mul_overflow(static_cast<std::uint64_t>(rate.bps()),
                              static_cast<std::uint64_t>(dt.count()), &prod))
    return static_cast<std::int64_t>(prod / 8'000'000'000ULL);
  return (rate * dt).count();
}

/// @brief Supply source computing Algorithm 3 line 4 directly (integer multiply and divide).
struct bolt_direct_supply {
  /// @brief Supply for inter-arrival `dt` at `rate`; never beyond a table.
  [[nodiscard]] constexpr bolt_supply operator()(duration dt, bit_rate rate) const noexcept {
    return {bolt_direct_supply_bytes(rate, dt), false};
  }
};

namespace detail {

// Build the §4.1 table by running sums, as a control plane without a wide multiplier would:
// entry k = floor(k * R / 8e9) carried as quotient q and remainder r of R*k over 8e9 bits*ns.
template <std::int64_t RateBps, std::size_t Entries, std::uint32_t Cap>
constexpr std::array<std::uint32_t, Entries> bolt_make_supply_table() noexcept {
  std::array<std::uint32_t, Entries> t{};
  constexpr std::uint64_t den = 8'000'000'000ULL;  // bits per byte x ns per second
  constexpr std::uint64_t qstep = static_cast<std::uint64_t>(RateBps) / den;
  constexpr std::uint64_t rstep = static_cast<std::uint64_t>(RateBps) % den;
  std::uint64_t q = 0, r = 0;
  for (std::size_t k = 0; k < Entries; ++k) {
    t[k] = q < Cap ? static_cast<std::uint32_t>(q) : Cap;
    q += qstep;
    r += rstep;
    if (r >= den) {
      r -= den;
      ++q;
    }
  }
  return t;
}

}  // namespace detail

/// @brief Bolt's supply lookup table (§4.1), generated at compile time for one link rate:
/// entry k = min(floor(RateBps * k ns / 8), Cap) bytes, k = 0 .. Entries-1.
///
/// Usable as a supply source for netcc::bolt_supply_token and netcc::bolt_ingress: an
/// inter-arrival time of Entries ns or more is reported as beyond the table (token := MTU).
/// The table describes one rate; a port of another rate needs its own table (the port's rate
/// passed alongside is ignored).
/// @tparam RateBps link rate in bits per second (> 0)
/// @tparam Entries number of 1-ns entries (paper: 65536)
/// @tparam Cap     saturation value of an entry (default 2^31 - 1)
/// @code
/// using t400 = netcc::bolt_supply_table<400'000'000'000>;
/// static_assert(t400::entries[3] == 150 && t400::size_bytes == 262144);
/// @endcode
template <std::int64_t RateBps, std::size_t Entries = 65536,
          std::uint32_t Cap = static_cast<std::uint32_t>(std::numeric_limits<std::int32_t>::max())>
struct bolt_supply_table {
  static_assert(RateBps > 0, "bolt_supply_table: the rate must be positive");
  static_assert(Entries >= 1 && Entries <= (std::size_t{1} << 20),
                "bolt_supply_table: 1 .. 2^20 entries");
  /// @brief Type of one entry (a 32-bit table action value).
  using entry_type = std::uint32_t;
  /// @brief The link rate the table is for.
  static constexpr bit_rate rate{RateBps};
  /// @brief Number of entries (one per ns of inter-arrival time).
  static constexpr std::size_t size = Entries;
  /// @brief Storage of the table in bytes.
  static constexpr std::size_t size_bytes = Entries * sizeof(entry_type);
  /// @brief Saturation value of an entry.
  static constexpr entry_type cap = Cap;
  /// @brief The entries, generated at compile time by running sums.
  static constexpr std::array<entry_type, Entries> entries =
      detail::bolt_make_supply_table<RateBps, Entries, Cap>();

  /// @brief The direct computation the table must equal: min(rate * k ns, Cap) (units'
  /// 128-bit product, rounded down).
  [[nodiscard]] static constexpr entry_type direct(std::size_t k) noexcept {
    const std::int64_t b = bolt_direct_supply_bytes(rate, duration{static_cast<duration::rep>(k)});
    return b < static_cast<std::int64_t>(Cap) ? static_cast<entry_type>(b) : Cap;
  }
  /// @brief True when entries[k] == direct(k) for every k in [first, last) (clipped to size);
  /// the static tests run it over the whole table in chunks.
  [[nodiscard]] static constexpr bool check(std::size_t first, std::size_t last) noexcept {
    for (std::size_t k = first; k < last && k < Entries; ++k)
      if (entries[k] != direct(k)) return false;
    return true;
  }
  /// @brief The supply for inter-arrival `dt`: 0 for dt < 0, entries[dt] inside the table,
  /// beyond_table otherwise (§4.1).
  [[nodiscard]] static constexpr bolt_supply lookup(duration dt) noexcept {
    if (dt < duration::zero()) return {0, false};
    if (static_cast<std::uint64_t>(dt.count()) >= Entries) return {0, true};
    return {static_cast<std::int64_t>(entries[static_cast<std::size_t>(dt.count())]), false};
  }
  /// @brief Supply-source interface: lookup(dt); the rate argument is ignored.
  [[nodiscard]] constexpr bolt_supply operator()(duration dt, bit_rate) const noexcept {
    return lookup(dt);
  }
};

namespace detail {

// now - last as a duration, saturating (both are arbitrary int64 nanosecond counts).
constexpr duration bolt_elapsed(timestamp now, timestamp last) noexcept {
  std::int64_t d = 0;
  if (__builtin_sub_overflow(now.count(), last.count(), &d))  // the sign is that of `now`
    d = now.count() < 0 ? std::numeric_limits<std::int64_t>::min()
                        : std::numeric_limits<std::int64_t>::max();
  return duration{d};
}

// Algorithm 3 lines 5-7 (and Algorithm 4 lines 9-11): token + supply - demand, capped at one
// MTU, saturated at the floor; or token := MTU when the supply was beyond the table (§4.1).
constexpr void bolt_apply_supply(bolt_port_state& s, bolt_supply sup, bytes pkt_size,
                                 const bolt_params& p) noexcept {
  const std::int64_t cap = p.mtu.count() < std::numeric_limits<std::int32_t>::max()
                               ? p.mtu.count()
                               : std::int64_t{std::numeric_limits<std::int32_t>::max()};
  if (sup.beyond_table) {  // §4.1: "directly set to its maximum value of 1 MTU"
    s.sm_token = static_cast<std::int32_t>(
        cap < bolt_sm_token_floor.count() ? bolt_sm_token_floor.count() : cap);
    return;
  }
  // Line 6 in 64 bits rather than 128: supply and demand are both >= 0, so their difference
  // cannot overflow, and adding the 32-bit token overflows only far beyond either bound.
  const std::int64_t demand = pkt_size.count() > 0 ? pkt_size.count() : 0;  // line 5
  const std::int64_t supply = sup.bytes > 0 ? sup.bytes : 0;
  std::int64_t t = 0;
  if (__builtin_add_overflow(supply - demand, std::int64_t{s.sm_token}, &t))  // line 6
    t = supply > demand ? std::numeric_limits<std::int64_t>::max()
                        : std::numeric_limits<std::int64_t>::min();
  if (t > cap) t = cap;                                                  // line 7: min(token, MTU)
  if (t < bolt_sm_token_floor.count()) t = bolt_sm_token_floor.count();  // netcc: saturate
  s.sm_token = static_cast<std::int32_t>(t);
}

}  // namespace detail

/// @brief Algorithm 3 (CalculateSupplyToken) for one data packet at an egress port: the
/// supply `BW * inter_arrival_time` from `supply` minus the packet size is added to the
/// token, which is capped at one MTU (and saturates at bolt_sm_token_floor).
/// @param s        the port's state (last_sm_time and sm_token are updated)
/// @param pkt_size size of the arriving data packet (the demand, line 5)
/// @param rate     the port's link rate (BW)
/// @param now      arrival time
/// @param p        parameters (mtu)
/// @param supply   supply source: bolt_direct_supply (default) or a bolt_supply_table
/// @return the new token in bytes
/// @code
/// netcc::bolt_port_state s{.last_sm_time = netcc::timestamp{0}, .sm_token = 0};
/// // 100 Gbps for 100 ns supplies 1250 B; a 1000-B packet leaves 250 B.
/// auto t = netcc::bolt_supply_token(s, netcc::bytes{1000}, netcc::bit_rate{100'000'000'000},
///                                   netcc::timestamp{100}, netcc::bolt_params{});   // 250
/// @endcode
template <class Supply = bolt_direct_supply>
constexpr std::int32_t bolt_supply_token(bolt_port_state& s, bytes pkt_size, bit_rate rate,
                                         timestamp now, const bolt_params& p,
                                         const Supply& supply = {}) noexcept {
  const duration dt = detail::bolt_elapsed(now, s.last_sm_time);  // line 2
  s.last_sm_time = now;                                           // line 3
  const bolt_supply sup = supply(dt, rate);                       // line 4: BW * dt
  detail::bolt_apply_supply(s, sup, pkt_size, p);                 // lines 5-7
  return s.sm_token;
}

/// @brief The port as Algorithm 4 sees it: its link rate and, per QoS level, the queue
/// occupancy and the WFQ weight.
/// @code
/// std::array<netcc::bytes, 2> q{netcc::bytes{0}, netcc::bytes{3000}};
/// std::array<std::uint32_t, 2> w{1, 3};
/// netcc::bolt_qos_view v{.link_rate = netcc::bit_rate{100'000'000'000}, .queue_sizes = q,
///                        .weights = w};
/// @endcode
struct bolt_qos_view {
  /// @brief Link rate of the egress port (BW).
  bit_rate link_rate{};
  /// @brief Occupancy of each QoS queue (q_size_j).
  std::span<const bytes> queue_sizes{};
  /// @brief Weight of each QoS queue (w_j); levels beyond the shorter span are ignored.
  std::span<const std::uint32_t> weights{};
};

/// @brief The QoS levels of `v`: the shorter of its two spans (levels beyond it are ignored).
[[nodiscard]] constexpr std::size_t bolt_qos_levels(const bolt_qos_view& v) noexcept {
  return v.queue_sizes.size() < v.weights.size() ? v.queue_sizes.size() : v.weights.size();
}

/// @brief Algorithm 4 lines 4-7: the effective weight for queue `i`: the sum of w_j over j with
/// j == i or q_size_j != 0 (0 when `i` is not a level of `v`).
///
/// Computed as the sum over the non-empty levels, plus w_i when queue i itself is empty: the
/// same sum (level i is counted once either way), without comparing every level's index with
/// `i`. The per-level test `j == i || q_size_j != 0` compiled to two taken branches per level
/// and an add to memory; the sum now stays in a register, one not-taken branch per busy level.
[[nodiscard]] constexpr std::uint64_t bolt_effective_weight(const bolt_qos_view& v,
                                                            std::size_t i) noexcept {
  const std::size_t n = bolt_qos_levels(v);
  if (i >= n) return 0;
  std::uint64_t w = 0;                   // line 4
  for (std::size_t j = 0; j < n; ++j) {  // lines 5-7 for the levels with q_size_j != 0
    w += v.queue_sizes[j] != bytes{0} ? v.weights[j] : 0u;
  }
  if (v.queue_sizes[i] == bytes{0}) w += v.weights[i];  // line 6's j == i, when not counted
  return w;
}

namespace detail {

// Algorithm 4 line 8 when BW * dt * w_i reaches 2^64 (rare: 100 Gbps x 23 s x w_i = 100):
// 128-bit products and division, out of line so that the common path keeps its registers.
// The result is at most 2^63 - 1 (bolt_qos_supply_wide masks it).
[[gnu::noinline, gnu::cold]] constexpr std::uint64_t bolt_qos_supply_wide_u64(
    std::uint64_t rate, std::uint64_t dt, std::uint32_t w_i, std::uint64_t w_eff) noexcept {
  const u128 prod = u128(rate) * dt;  // < 2^126
  constexpr u128 den = 8'000'000'000ULL;
  u128 q;
  if (prod < (u128{1} << 94)) {
    q = prod * w_i / (den * w_eff);  // exact: prod * w_i < 2^126
  } else {
    q = (prod / den) * w_i / w_eff;  // prod / den < 2^94, times w_i < 2^126
  }
  constexpr u128 lim = static_cast<u128>(std::numeric_limits<std::int64_t>::max());
  return static_cast<std::uint64_t>(q > lim ? lim : q);
}

// bolt_qos_supply_wide_u64 as bytes, masked to 63 bits at the call site: the mask changes
// nothing (the value is at most 2^63 - 1) and tells the compiler that the supply is not
// negative, so Algorithm 3 line 6 needs no clamp after it.
[[nodiscard]] constexpr std::int64_t bolt_qos_supply_wide(std::uint64_t rate, std::uint64_t dt,
                                                          std::uint32_t w_i,
                                                          std::uint64_t w_eff) noexcept {
  return static_cast<std::int64_t>(
      bolt_qos_supply_wide_u64(rate, dt, w_i, w_eff) &
      static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()));
}

}  // namespace detail

/// @brief Algorithm 4 line 8: `BW * dt * w_i / w_effective` in whole bytes (floor), exact
/// for BW * dt below 2^94 bit-ns and within one byte above; 0 for dt <= 0, a zero weight, or
/// a non-positive rate.
[[nodiscard]] constexpr std::int64_t bolt_qos_supply_bytes(bit_rate rate, duration dt,
                                                           std::uint32_t w_i,
                                                           std::uint64_t w_eff) noexcept {
  if (dt <= duration::zero() || rate <= bit_rate{0} || w_i == 0 || w_eff == 0) return 0;
  // Common case: BW * dt * w_i fits 64 bits (as BW * dt then times w_i >= 1: both products
  // fit exactly when the whole does). floor(x / (den * w_eff)) equals
  // floor(floor(x / den) / w_eff) for positive integers: a multiply-and-shift for the constant
  // den and one 64-bit division, instead of a 128-bit division.
  std::uint64_t bw_dt = 0, x = 0;
  if (__builtin_mul_overflow(static_cast<std::uint64_t>(rate.bps()),
                             static_cast<std::uint64_t>(dt.count()), &bw_dt) ||
      __builtin_mul_overflow(bw_dt, std::uint64_t{w_i}, &x))
    return detail::bolt_qos_supply_wide(static_cast<std::uint64_t>(rate.bps()),
                                        static_cast<std::uint64_t>(dt.count()), w_i, w_eff);
  if (w_eff == w_i) return static_cast<std::int64_t>(bw_dt / 8'000'000'000ULL);  // w cancels
  const std::uint64_t by_den = x / 8'000'000'000ULL;
  // by_den < 2^64 / 8e9 < 2^32 here, so a 32-bit division suffices whenever w_eff fits 32
  // bits: several times cheaper than a 64-bit one on common cores.
  if (w_eff <= std::numeric_limits<std::uint32_t>::max())
    return static_cast<std::int64_t>(static_cast<std::uint32_t>(by_den) /
                                     static_cast<std::uint32_t>(w_eff));
  return static_cast<std::int64_t>(by_den / w_eff);
}

/// @brief Result of netcc::bolt_qos_supply_token.
struct bolt_qos_supply_result {
  /// @brief False when `i` is not a level of the view (nothing changed).
  bool ok = false;
  /// @brief The effective weight used (Algorithm 4 lines 4-7).
  std::uint64_t w_effective = 0;
  /// @brief The supply in bytes (line 8).
  std::int64_t supply = 0;
  /// @brief The new token (line 11).
  std::int32_t sm_token = 0;
};

/// @brief Algorithm 4 (CalculateSupplyToken for QoS queue i of n): as Algorithm 3, with the
/// supply scaled by w_i / w_effective, where empty queues' weights are shared among the others.
/// @param s        the state of queue `i` (last_sm_time and sm_token are updated)
/// @param i        the packet's QoS level
/// @param pkt_size size of the arriving packet (demand)
/// @param v        the port: link rate, every queue's size and weight
/// @param now      arrival time
/// @param p        parameters (mtu)
/// @code
/// // q = {0, 3000}, w = {1, 3}: a packet for queue 0 has w_eff = 1 + 3 = 4, so 100 ns at
/// // 100 Gbps supplies 1250 * 1/4 = 312 B.
/// @endcode
constexpr bolt_qos_supply_result bolt_qos_supply_token(bolt_port_state& s, std::size_t i,
                                                       bytes pkt_size, const bolt_qos_view& v,
                                                       timestamp now,
                                                       const bolt_params& p) noexcept {
  bolt_qos_supply_result r;
  if (i >= bolt_qos_levels(v)) return r;
  r.ok = true;
  const duration dt = detail::bolt_elapsed(now, s.last_sm_time);                   // line 2
  s.last_sm_time = now;                                                            // line 3
  r.w_effective = bolt_effective_weight(v, i);                                     // lines 4-7
  r.supply = bolt_qos_supply_bytes(v.link_rate, dt, v.weights[i], r.w_effective);  // line 8
  detail::bolt_apply_supply(s, bolt_supply{r.supply, false}, pkt_size, p);         // lines 9-11
  r.sm_token = s.sm_token;
  return r;
}

/// @brief Algorithm 4's weights as a control-plane table (Appendix B.1 suggests lookup tables):
/// for every set of QoS levels (a bit mask, level j in bit j) the effective weight w_effective
/// (the sum of their weights) and two reciprocals, computed once when the weight set changes,
/// so that line 8 needs no division:
/// - ceil(2^64 / w_effective), for divide(): floor(n / d) == floor(n ceil(2^64 / d) / 2^64) for
///   every n, d < 2^32 (D. Lemire, O. Kaser, N. Kurz, "Faster Remainder by Direct Computation",
///   2019, Theorem 1 with F = 64 >= N + L);
/// - c = ceil(2^F / d) for d = 1953125 w_effective (8e9 = 2^12 x 1953125) and F = 53 + the bit
///   width of d - 1, for line 8 in one multiplication: floor(BW dt w_i / (8e9 w_effective)) ==
///   floor(floor(BW dt w_i / 2^12) c / 2^F) whenever BW dt w_i < 2^64 (the same theorem: an
///   n < 2^N is exact when n (c d - 2^F) < 2^F, which holds for N = 53 as c d - 2^F <= d - 1 <=
///   2^(F - 53); c <= 2^54, so the product fits 128 bits).
/// Up to max_levels = 8 levels; 256 masks of 24 B (6 KiB), the masks with bits at or above
/// levels() holding the entry of their bits below it; weights beyond max_levels are ignored.
/// @code
/// const std::array<std::uint32_t, 4> w{1, 2, 3, 4};
/// const netcc::bolt_qos_weights t{w};
/// // t.effective(0b0101) == 1 + 3
/// @endcode
class bolt_qos_weights {
 public:
  /// @brief The most QoS levels a table holds.
  static constexpr std::size_t max_levels = 8;

  /// @brief The table for weights `w` (the first max_levels of them).
  constexpr explicit bolt_qos_weights(std::span<const std::uint32_t> w) noexcept
      : n_(w.size() < max_levels ? w.size() : max_levels) {
    for (std::size_t j = 0; j < n_; ++j) w_[j] = w[j];
    for (std::size_t m = 0; m < masks; ++m) {
      std::uint64_t sum = 0;
      for (std::size_t j = 0; j < n_; ++j)
        if (m >> j & 1u) sum += w_[j];
      t_[m].sum = sum;
      t_[m].recip = sum >= 2 && sum <= std::numeric_limits<std::uint32_t>::max()
                        ? ~std::uint64_t{0} / sum + 1  // ceil(2^64 / sum), sum not 1
                        : 0;
      t_[m].magic = line8_magic(sum);
    }
  }
  /// @brief Number of levels.
  [[nodiscard]] constexpr std::size_t levels() const noexcept { return n_; }
  /// @brief Weight of level `j` (< levels()).
  [[nodiscard]] constexpr std::uint32_t weight(std::size_t j) const noexcept { return w_[j]; }
  /// @brief Sum of the weights of the levels in `mask` (bits below levels()).
  [[nodiscard]] constexpr std::uint64_t effective(std::size_t mask) const noexcept {
    return t_[mask].sum;
  }
  /// @brief floor(b / effective(mask)) for b < 2^32 and 0 < effective(mask) < 2^32, without a
  /// division.
  [[nodiscard]] constexpr std::uint64_t divide(std::uint64_t b, std::size_t mask) const noexcept {
    const std::uint64_t c = t_[mask].recip;
    return c == 0 ? b : static_cast<std::uint64_t>((detail::u128{b} * c) >> 64);  // sum 1: b
  }

 private:
  friend constexpr bolt_qos_supply_result bolt_qos_supply_token(bolt_port_state&, std::size_t,
                                                                bytes, const bolt_qos_weights&,
                                                                std::uint32_t, bit_rate, timestamp,
                                                                const bolt_params&) noexcept;
  static constexpr std::size_t masks = std::size_t{1} << max_levels;
  static constexpr unsigned magic_shift_bit = 56;  // the shift F - 64 sits above the multiplier
  static constexpr std::uint64_t magic_mask = (std::uint64_t{1} << magic_shift_bit) - 1;

  // c | (F - 64) << 56 for d = 1953125 sum (0 for sum 0: never used, line 8 needs w_i > 0).
  static constexpr std::uint64_t line8_magic(std::uint64_t sum) noexcept {
    if (sum == 0) return 0;
    const std::uint64_t d = 1'953'125 * sum;  // < 2^21 x 2^35
    unsigned width = 0;                       // bit width of d - 1: 21 .. 56
    while (width < 64 && (d - 1) >> width != 0) ++width;
    const unsigned f = 53 + width;                                  // 74 .. 109
    const detail::u128 c = ((detail::u128{1} << f) + (d - 1)) / d;  // ceil(2^F / d) <= 2^54
    return static_cast<std::uint64_t>(c) | std::uint64_t{f - 64} << magic_shift_bit;
  }
  // floor(n / (1953125 effective(mask))) for n < 2^53.
  [[nodiscard]] constexpr std::uint64_t divide_line8(std::uint64_t n,
                                                     std::size_t mask) const noexcept {
    const std::uint64_t m = t_[mask].magic;
    const auto hi = static_cast<std::uint64_t>((detail::u128{n} * (m & magic_mask)) >> 64);
    return hi >> (m >> magic_shift_bit);
  }

  std::array<std::uint32_t, max_levels> w_{};
  std::size_t n_ = 0;
  struct entry {
    std::uint64_t sum = 0;    // w_effective of the mask
    std::uint64_t recip = 0;  // ceil(2^64 / sum) for 2 <= sum < 2^32, else 0
    std::uint64_t magic = 0;  // line8_magic(sum)
  };
  std::array<entry, masks> t_{};  // one line per lookup
};

/// @brief Algorithm 4 with the weights' table and the port's non-empty queues as a bit mask
/// (bit j set when q_size_j != 0; a switch keeps it as its queues fill and drain, so that lines
/// 4-7 need not read every queue per packet): the same result as bolt_qos_supply_token on a view
/// with the table's weights and those occupancies, bit for bit (tests/fabric/bolt_test.cpp),
/// with no division when BW dt w_i < 2^64 (otherwise line 8 as bolt_qos_supply_bytes computes
/// it). Bits at or above levels() are ignored.
/// @code
/// const std::array<std::uint32_t, 2> w{1, 3};
/// const netcc::bolt_qos_weights t{w};
/// netcc::bolt_port_state s;
/// auto r = netcc::bolt_qos_supply_token(s, 0, netcc::bytes{1500}, t, 0b10,
///                                       netcc::bit_rate{100'000'000'000},
///                                       netcc::timestamp{100}, netcc::bolt_params{});
/// // queue 1 busy: r.w_effective == 4, r.supply == 312
/// @endcode
constexpr bolt_qos_supply_result bolt_qos_supply_token(bolt_port_state& s, std::size_t i,
                                                       bytes pkt_size, const bolt_qos_weights& w,
                                                       std::uint32_t nonempty, bit_rate link_rate,
                                                       timestamp now,
                                                       const bolt_params& p) noexcept {
  bolt_qos_supply_result r;
  if (i >= w.levels()) return r;
  r.ok = true;
  const duration dt = detail::bolt_elapsed(now, s.last_sm_time);  // line 2
  s.last_sm_time = now;                                           // line 3
  // Lines 4-7: level i and every non-empty level (the table maps bits at or above levels() to
  // the entry of the bits below).
  const std::size_t mask =
      (static_cast<std::size_t>(nonempty) | (std::size_t{1} << i)) & (bolt_qos_weights::masks - 1);
  r.w_effective = w.effective(mask);
  const std::uint32_t w_i = w.weight(i);
  const std::int64_t rate = link_rate.bps();
  if (dt > duration::zero() && rate > 0 && w_i != 0) {  // line 8 (w_effective >= w_i > 0)
    // BW w_i first: it does not wait for the state (dt).
    std::uint64_t x = 0;
    if (!__builtin_mul_overflow(static_cast<std::uint64_t>(rate), std::uint64_t{w_i}, &x) &&
        !__builtin_mul_overflow(x, static_cast<std::uint64_t>(dt.count()), &x)) {
      // floor(x / (8e9 w_eff)) = floor(floor(x / 2^12) / (1953125 w_eff)), x / 2^12 < 2^52
      r.supply = static_cast<std::int64_t>(w.divide_line8(x >> 12, mask));
    } else {  // BW dt w_i >= 2^64 (dt, BW > 0, w_eff >= w_i > 0): bolt_qos_supply_bytes' path
      r.supply =
          detail::bolt_qos_supply_wide(static_cast<std::uint64_t>(rate),
                                       static_cast<std::uint64_t>(dt.count()), w_i, r.w_effective);
    }
  }
  detail::bolt_apply_supply(s, bolt_supply{r.supply, false}, pkt_size, p);  // lines 9-11
  r.sm_token = s.sm_token;
  return r;
}

}  // namespace netcc
