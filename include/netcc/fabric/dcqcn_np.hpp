// SPDX-License-Identifier: MIT
/// @file
/// @brief DCQCN notification point: at most one CNP per flow per interval, and the seed's
/// minimum-spacing variant that schedules the next notification instead of suppressing it.
///
/// Sources:
/// - Y. Zhu, H. Eran, D. Firestone, C. Guo, M. Lipshteyn, Y. Liron, J. Padhye, S. Raindel,
///   M. H. Yahia, M. Zhang, "Congestion Control for Large-Scale RDMA Deployments" (DCQCN),
///   ACM SIGCOMM 2015, §3 (NP algorithm): when a CE-marked packet arrives for a flow and no CNP
///   has been sent for that flow in the last N microseconds, a CNP is sent immediately; the NP
///   sends at most one CNP per N us per flow. N = 50 us.
/// - Seed 003 (`seeds/003_7857f230e87c9d73.txt`) §III-B d, the ECN variant with a minimum time
///   Δτ_ecn between notifications. With t the time of a marked packet and t_ the time of the
///   most recent notification (or of the one already scheduled after t):
///   1) t - t_ >= Δτ_ecn: notify now, t_ = t;
///   2) 0 <= t - t_ < Δτ_ecn: notify at t_ + Δτ_ecn, t_ = t_ + Δτ_ecn;
///   3) t - t_ < 0: a notification is already scheduled; nothing to do.
///   Initially t_ = -inf. §V: Δτ_ecn = T_gap = 50 us (Table II).
///
/// What is here: netcc::dcqcn_np_params (interval, mode), validate(),
/// netcc::dcqcn_np_flow_state (one per flow or queue pair, 16 B), and
/// netcc::dcqcn_np_on_packet, which returns whether a CNP is sent now, scheduled for a later
/// time (the caller's timer sends it then), or not sent.
///
/// Defaults and sources: interval 50 us (DCQCN §3, and seed §V Table II T_gap); mode
/// netcc::dcqcn_np_mode::suppress (DCQCN as deployed).
///
/// Deviations and netcc's choices, with reasons:
/// - **Boundary.** "No CNP in the last N us" is read as now - last >= N (the seed's case 1
///   uses the same >=), so a marked packet exactly N after the last CNP triggers one.
/// - **Time going backwards** (now before the last CNP: reordering between pipelines, or a
///   caller's clock step) is case 3 in both modes: no CNP. So CNP times of one flow are always
///   at least the interval apart, whatever the input.
/// - **Overflow.** A scheduled CNP that would fall after timestamp::max() is not scheduled
///   (decision none, state unchanged), instead of wrapping or saturating to a closer time.
/// - The flow table itself (hashing a queue pair to its state) is the caller's.
///
/// @code
/// using namespace netcc::literals;
/// netcc::dcqcn_np_params p;   // 50 us, suppress
/// netcc::dcqcn_np_flow_state f;
/// auto a = netcc::dcqcn_np_on_packet(f, true, netcc::timestamp{10_us}, p);  // send_now
/// auto b = netcc::dcqcn_np_on_packet(f, true, netcc::timestamp{30_us}, p);  // none
/// auto c = netcc::dcqcn_np_on_packet(f, true, netcc::timestamp{60_us}, p);  // send_now
/// @endcode
#pragma once

#include <cstdint>

#include "netcc/core/detail/int128.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/validation.hpp"

namespace netcc {

/// @brief How a marked packet inside the interval is handled.
enum class dcqcn_np_mode : std::uint8_t {
  /// DCQCN §3: the notification is not sent (at most one CNP per interval).
  suppress,
  /// Seed 003 §III-B d, case 2: the notification is scheduled at the end of the interval.
  schedule,
};

/// @brief Parameters of the notification point.
/// @code
/// netcc::dcqcn_np_params p{.interval = netcc::duration{4000},
///                          .mode = netcc::dcqcn_np_mode::schedule};
/// @endcode
struct dcqcn_np_params {
  /// @brief Minimum time between two CNPs of one flow (DCQCN N; seed Δτ_ecn = T_gap).
  /// Default 50 us (DCQCN §3; seed §V Table II).
  duration interval{50'000};
  /// @brief Suppress (DCQCN) or schedule (seed's minimum spacing). Default suppress.
  dcqcn_np_mode mode = dcqcn_np_mode::suppress;
};

/// @brief Check dcqcn_np_params: interval >= 0 (0 sends a CNP for every marked packet), mode
/// one of the enumerators.
[[nodiscard]] inline validation validate(const dcqcn_np_params& p) {
  validation v;
  v.check(p.interval >= duration::zero(), "dcqcn_np.interval", p.interval, "must be >= 0 ns");
  v.check(p.mode == dcqcn_np_mode::suppress || p.mode == dcqcn_np_mode::schedule, "dcqcn_np.mode",
          static_cast<int>(p.mode), "must be suppress (0) or schedule (1)");
  return v;
}

/// @brief Per-flow notification state: the seed's t_ (last or next scheduled CNP time).
/// @code
/// netcc::dcqcn_np_flow_state f;   // no CNP yet (t_ = -inf)
/// @endcode
struct dcqcn_np_flow_state {
  /// @brief Time of the most recent CNP, or of the one scheduled (t_ in the seed).
  timestamp last_cnp{};
  /// @brief False until the first CNP: t_ = -inf (seed §III-B d).
  bool any = false;
  /// @brief Field-wise equality.
  friend constexpr bool operator==(const dcqcn_np_flow_state&,
                                   const dcqcn_np_flow_state&) noexcept = default;
};
// Budget: 16 B per flow (8 B time + flag, padded).
static_assert(sizeof(dcqcn_np_flow_state) <= 16, "dcqcn_np_flow_state: 16 B budget");

/// @brief What the notification point does for one packet.
enum class dcqcn_np_action : std::uint8_t {
  none,      ///< No CNP (unmarked packet, suppressed, or already scheduled).
  send_now,  ///< Send a CNP now (case 1).
  schedule,  ///< Send a CNP at dcqcn_np_decision::at (case 2, schedule mode).
};

/// @brief The notification point's decision for one packet.
struct dcqcn_np_decision {
  /// @brief None, send now, or schedule.
  dcqcn_np_action action = dcqcn_np_action::none;
  /// @brief When the CNP goes out (now for send_now; t_ + interval for schedule).
  timestamp at{};
  /// @brief Field-wise equality.
  friend constexpr bool operator==(const dcqcn_np_decision&,
                                   const dcqcn_np_decision&) noexcept = default;
};

/// @brief Handle one arriving data packet of a flow at the notification point.
///
/// Unmarked packets change nothing. For a CE-marked packet at `now`, with t_ the flow's last
/// (or scheduled) CNP time: case 1 (now - t_ >= interval, or no CNP yet) sends now and sets
/// t_ = now; case 2 (0 <= now - t_ < interval) suppresses in DCQCN mode, or schedules at
/// t_ + interval and sets t_ to it in schedule mode; case 3 (now < t_) does nothing.
/// Total: a negative interval counts as 0.
/// @param f      the flow's state (updated)
/// @param ce     true when the packet arrived with ECN CE (packet view)
/// @param now    arrival time
/// @param p      parameters
/// @code
/// netcc::dcqcn_np_params p{.mode = netcc::dcqcn_np_mode::schedule};
/// netcc::dcqcn_np_flow_state f;
/// (void)netcc::dcqcn_np_on_packet(f, true, netcc::timestamp{0}, p);       // send_now at 0
/// auto d = netcc::dcqcn_np_on_packet(f, true, netcc::timestamp{1000}, p); // schedule at 50 us
/// @endcode
[[nodiscard]] constexpr dcqcn_np_decision dcqcn_np_on_packet(dcqcn_np_flow_state& f, bool ce,
                                                             timestamp now,
                                                             const dcqcn_np_params& p) noexcept {
  if (!ce) return {};
  const detail::i128 gap = p.interval.count() < 0 ? 0 : p.interval.count();
  const detail::i128 since =
      f.any ? detail::i128{now.count()} - f.last_cnp.count() : detail::i128{0};
  if (!f.any || since >= gap) {  // case 1: t - t_ >= Δτ (or t_ = -inf): notify now, t_ = t
    f.last_cnp = now;
    f.any = true;
    return {dcqcn_np_action::send_now, now};
  }
  if (since < 0) return {};  // case 3: t - t_ < 0, a notification is already scheduled
  // case 2: 0 <= t - t_ < Δτ.
  if (p.mode == dcqcn_np_mode::suppress) return {};  // DCQCN: at most one CNP per interval
  const detail::i128 next = detail::i128{f.last_cnp.count()} + gap;  // t_ + Δτ
  if (next > detail::i128{timestamp::max().count()}) return {};      // beyond representable
  f.last_cnp = timestamp{static_cast<std::int64_t>(next)};           // t_ = t_ + Δτ
  return {dcqcn_np_action::schedule, f.last_cnp};
}

}  // namespace netcc
