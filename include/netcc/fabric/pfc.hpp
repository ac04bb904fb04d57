// SPDX-License-Identifier: MIT
/// @file
/// @brief Priority Flow Control at an ingress port: pause above X_off, resume at X_on, with
/// thresholds given per port per Gbps, and the seed's time to resume at line rate.
///
/// Sources:
/// - Seed 003 (`seeds/003_7857f230e87c9d73.txt`) §III-B e: a backlog exceeding X_off at an
///   ingress port of the receiver makes it send a Pause to the upstream sender; transmissions
///   stay paused until the backlog reaches X_on (X_on < X_off). With the pause taking effect
///   at t_P, and line rate C, transmissions resume at t_R = t_P + (X_off - X_on) / C.
///   §V: X_off = 9.5 kB/port/Gbps, X_on = 9.25 kB/port/Gbps.
/// - IEEE 802.1Qbb (Priority-based Flow Control), which the seed cites as [36]: one pause
///   state per (port, priority); the pause time in a PFC frame is counted in quanta of 512
///   bit times, 0 .. 65535; a frame with time 0 resumes the priority at once.
///
/// What is here: netcc::pfc_params (per-Gbps thresholds) and validate();
/// netcc::pfc_thresholds_for (X_off, X_on of a port of a given rate);
/// netcc::pfc_port_state (1 B per ingress port and priority); netcc::pfc_on_backlog (the
/// pause/resume decision, hysteresis so it cannot flap); netcc::pfc_resume_delay and
/// netcc::pfc_resume_time (the seed's t_R); netcc::pfc_quanta_duration (what a pause frame's
/// quanta mean at a link rate).
///
/// Defaults and sources: X_off = 9500 B and X_on = 9250 B per Gbps of port rate (seed §V).
/// For a 100 Gbps port: X_off = 950 kB, X_on = 925 kB, resume delay 25 kB / 100 Gbps = 2 us.
///
/// Deviations and netcc's choices, with reasons:
/// - **Per-Gbps scaling** rounds toward zero: X = floor(x_per_gbps * rate / 1 Gbps) bytes.
///   At very low rates X_on may then equal X_off; the hysteresis still holds (pause needs
///   backlog > X_off, resume needs backlog <= X_on).
/// - **Pause frames** are modelled as XOFF/XON decisions (the state changes only on a
///   crossing); re-sending a pause before its quanta expire, and per-priority frame bitmaps,
///   belong to the caller's frame builder. netcc::pfc_quanta_duration gives the expiry.
/// - **The feedback delay ΔR** of the seed's t_P(t) (the pause acts ΔR after the backlog
///   crosses X_off) is the caller's: pass the effective pause time to pfc_resume_time.
///
/// @code
/// using namespace netcc::literals;
/// netcc::pfc_params p;                     // 9.5 / 9.25 kB per Gbps
/// netcc::pfc_port_state s;
/// auto a = netcc::pfc_on_backlog(s, 950'001_B, 100_Gbps, p);   // pause (> 950 kB)
/// auto b = netcc::pfc_on_backlog(s, 930_KB, 100_Gbps, p);      // none (still > 925 kB)
/// auto c = netcc::pfc_on_backlog(s, 925_KB, 100_Gbps, p);      // resume
/// netcc::duration d = netcc::pfc_resume_delay(100_Gbps, p);     // 2000 ns
/// @endcode
#pragma once

#include <cstdint>

#include "netcc/core/detail/int128.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/validation.hpp"

namespace netcc {

/// @brief PFC thresholds per Gbps of port rate (seed 003 §V).
/// @code
/// netcc::pfc_params p{.x_off_per_gbps = netcc::bytes{12'000},
///                     .x_on_per_gbps = netcc::bytes{11'000}};
/// @endcode
struct pfc_params {
  /// @brief X_off per Gbps of port rate: pause above it. Default 9.5 kB/port/Gbps (seed §V).
  bytes x_off_per_gbps{9'500};
  /// @brief X_on per Gbps of port rate: resume at or below it. Default 9.25 kB/port/Gbps
  /// (seed §V).
  bytes x_on_per_gbps{9'250};
};

/// @brief Check pfc_params: 0 <= x_on_per_gbps < x_off_per_gbps <= 2^40 B (so thresholds of
/// ports up to 8 Tbps stay far from the 64-bit limit).
[[nodiscard]] inline validation validate(const pfc_params& p) {
  validation v;
  v.check(p.x_on_per_gbps >= bytes{0}, "pfc.x_on_per_gbps", p.x_on_per_gbps, "must be >= 0 B");
  v.check(p.x_off_per_gbps > p.x_on_per_gbps, "pfc.x_off_per_gbps", p.x_off_per_gbps,
          "must be > x_on_per_gbps (X_on < X_off, seed §III-B e)");
  v.check(p.x_off_per_gbps <= bytes{std::int64_t{1} << 40}, "pfc.x_off_per_gbps", p.x_off_per_gbps,
          "must be <= 2^40 B");
  return v;
}

/// @brief The thresholds of one ingress port, in bytes of backlog.
struct pfc_thresholds {
  /// @brief X_off: pause when the backlog exceeds it.
  bytes x_off{};
  /// @brief X_on: resume when the backlog is at or below it.
  bytes x_on{};
  /// @brief Field-wise equality.
  friend constexpr bool operator==(const pfc_thresholds&, const pfc_thresholds&) noexcept = default;
};

/// @brief X_off and X_on of a port of rate `rate`: floor(x_per_gbps * rate / 1 Gbps) each
/// (seed §V: per port per Gbps); a negative rate counts as 0; saturating.
/// @code
/// using namespace netcc::literals;
/// auto t = netcc::pfc_thresholds_for(25_Gbps, netcc::pfc_params{});   // 237500 B, 231250 B
/// @endcode
[[nodiscard]] constexpr pfc_thresholds pfc_thresholds_for(bit_rate rate,
                                                          const pfc_params& p) noexcept {
  const std::int64_t r = rate.count() < 0 ? 0 : rate.count();
  // x * r / 1 Gbps toward zero, saturating: in 64 bits when the product fits (the division by
  // the constant is then a multiply and shift), else in 128 bits; the same value either way.
  const auto scale = [r](std::int64_t x) constexpr noexcept {
    std::int64_t prod = 0;
    if (!__builtin_mul_overflow(x, r, &prod)) return prod / 1'000'000'000;
    return detail::saturate_i64(detail::i128{x} * r / 1'000'000'000);
  };
  return {bytes{scale(p.x_off_per_gbps.count())}, bytes{scale(p.x_on_per_gbps.count())}};
}

/// @brief Pause state of one ingress port (and priority).
/// @code
/// netcc::pfc_port_state s;   // not paused
/// @endcode
struct pfc_port_state {
  /// @brief True between a pause and the following resume.
  bool paused = false;
  /// @brief Field-wise equality.
  friend constexpr bool operator==(const pfc_port_state&, const pfc_port_state&) noexcept = default;
};
// Budget: 1 B per ingress port and priority.
static_assert(sizeof(pfc_port_state) <= 1, "pfc_port_state: 1 B budget");

/// @brief The PFC frame to send upstream, if any.
enum class pfc_action : std::uint8_t {
  none,    ///< No frame.
  pause,   ///< Send XOFF (pause) upstream.
  resume,  ///< Send XON (pause time 0) upstream.
};

/// @brief Update an ingress port's pause state for its current backlog, with thresholds
/// already computed (a pipeline keeps them per port).
///
/// Not paused and backlog > X_off: pause. Paused and backlog <= X_on: resume. Otherwise no
/// frame. Between X_on and X_off the state never changes, so there is no flapping.
/// @code
/// netcc::pfc_port_state s;
/// netcc::pfc_thresholds t{netcc::bytes{1000}, netcc::bytes{900}};
/// auto a = netcc::pfc_on_backlog(s, netcc::bytes{1001}, t);   // pause
/// @endcode
[[nodiscard]] constexpr pfc_action pfc_on_backlog(pfc_port_state& s, bytes backlog,
                                                  const pfc_thresholds& t) noexcept {
  if (!s.paused && backlog > t.x_off) {  // §III-B e: B > X_off -> Pause
    s.paused = true;
    return pfc_action::pause;
  }
  if (s.paused && backlog <= t.x_on) {  // §III-B e: paused until the backlog reaches X_on
    s.paused = false;
    return pfc_action::resume;
  }
  return pfc_action::none;
}

/// @brief pfc_on_backlog with the thresholds of a port of rate `rate` (seed §V per-Gbps).
/// @param s       the ingress port's state (updated)
/// @param backlog the ingress port's backlog (port view)
/// @param rate    the port's rate (port view)
/// @param p       parameters
/// @code
/// using namespace netcc::literals;
/// netcc::pfc_port_state s;
/// auto a = netcc::pfc_on_backlog(s, 950_KB, 100_Gbps, netcc::pfc_params{});   // none (not >)
/// @endcode
[[nodiscard]] constexpr pfc_action pfc_on_backlog(pfc_port_state& s, bytes backlog, bit_rate rate,
                                                  const pfc_params& p) noexcept {
  return pfc_on_backlog(s, backlog, pfc_thresholds_for(rate, p));
}

/// @brief The seed's resume delay at line rate: (X_off - X_on) / C, rounded up to whole ns
/// (§III-B e). A zero or negative rate gives duration::max() (never, at line rate zero).
/// @code
/// using namespace netcc::literals;
/// auto d = netcc::pfc_resume_delay(100_Gbps, netcc::pfc_params{});   // 25000 B -> 2000 ns
/// @endcode
[[nodiscard]] constexpr duration pfc_resume_delay(bit_rate rate, const pfc_params& p) noexcept {
  if (rate <= bit_rate{0}) return duration::max();
  const pfc_thresholds t = pfc_thresholds_for(rate, p);
  const detail::i128 diff = detail::i128{t.x_off.count()} - t.x_on.count();  // no overflow
  const bytes drain{diff > 0 ? detail::saturate_i64(diff) : 0};
  return drain / rate;  // (X_off - X_on) / C
}

/// @brief The seed's t_R = t_P + (X_off - X_on) / C: when transmissions resume after a pause
/// that took effect at `t_pause` (saturating at timestamp::max()).
/// @code
/// using namespace netcc::literals;
/// auto t = netcc::pfc_resume_time(netcc::timestamp{10_us}, 100_Gbps, netcc::pfc_params{});
/// // 12 us
/// @endcode
[[nodiscard]] constexpr timestamp pfc_resume_time(timestamp t_pause, bit_rate rate,
                                                  const pfc_params& p) noexcept {
  const duration d = pfc_resume_delay(rate, p);
  return timestamp{detail::saturate_i64(detail::i128{t_pause.count()} + d.count())};
}

/// @brief How long a PFC frame's pause time of `quanta` (units of 512 bit times, IEEE
/// 802.1Qbb) lasts on a link of rate `rate`, rounded up to whole ns; quanta above 65535 are
/// clamped to 65535; a zero or negative rate gives duration::max().
/// @code
/// using namespace netcc::literals;
/// auto d = netcc::pfc_quanta_duration(65535, 100_Gbps);   // 335540 ns (335539.2 rounded up)
/// @endcode
[[nodiscard]] constexpr duration pfc_quanta_duration(std::uint32_t quanta, bit_rate rate) noexcept {
  if (rate <= bit_rate{0}) return quanta == 0 ? duration::zero() : duration::max();
  const std::int64_t q = quanta > 65535u ? 65535 : static_cast<std::int64_t>(quanta);
  return bytes{q * 64} / rate;  // 512 bits = 64 bytes per quantum
}

}  // namespace netcc
