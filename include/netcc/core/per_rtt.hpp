// SPDX-License-Identifier: MIT
/// @file
/// @brief Per-RTT bookkeeping: the `snd_nxt` marker of PowerTCP, HPCC, FastTune and Bolt.
///
/// The algorithms that act "once per RTT" do it the same way: when they act, they record
/// `snd_nxt` (the first byte not yet sent); the next round starts when an ACK covers that
/// byte, i.e. when every byte sent before the action has been acknowledged. PowerTCP's
/// Algorithm 2 (theta-PowerTCP) line 17 ("if ack.seq < lastUpdated then return"), HPCC's
/// `lastUpdateSeq`, FastTune's Algorithm 2 line 16 and Bolt's `seq_no_at_last_ai` are all this.
///
/// Sequence numbers are 64-bit byte offsets (netcc::sequence); stacks with 32-bit wire sequence
/// numbers extend them with netcc::unwrapper<32>. Comparison is modular over 64 bits.
///
/// Sources: PowerTCP (NSDI'22) Algorithm 1 and Algorithm 2 line 17; HPCC (SIGCOMM'19) Algorithm 1
/// (lastUpdateSeq); FastTune Algorithm 2; Bolt (NSDI'23) Algorithm 2 (the once-per-RTT additive
/// increase).
///
/// @code
/// netcc::per_rtt_marker m;
/// if (m.reached(ack_seq)) { /* once-per-RTT work */ m.arm(snd_nxt); }
/// @endcode
#pragma once

#include <cstdint>

#include "netcc/core/wrap.hpp"

namespace netcc {

/// @brief A 64-bit byte sequence number (an offset in the flow's byte stream).
using sequence = std::uint64_t;

/// @brief Wrap-safe `a >= b` for 64-bit sequence numbers.
[[nodiscard]] constexpr bool seq_geq(sequence a, sequence b) noexcept {
  return modular<64>::diff(a, b) >= 0;
}
/// @brief Wrap-safe `a > b` for 64-bit sequence numbers.
[[nodiscard]] constexpr bool seq_gt(sequence a, sequence b) noexcept {
  return modular<64>::diff(a, b) > 0;
}

/// @brief Remembers `snd_nxt` at the last once-per-RTT action and says when an ACK passes it.
///
/// A fresh marker is at 0, so the first ACK of a flow whose sequence space starts at 0 starts
/// the first round.
class per_rtt_marker {
 public:
  /// @brief A marker at sequence `initial`.
  constexpr explicit per_rtt_marker(sequence initial = 0) noexcept : mark_(initial) {}

  /// @brief True when cumulative ACK `ack_seq` (next byte expected) has reached the mark:
  /// every byte sent before the last arm() is acknowledged.
  [[nodiscard]] constexpr bool reached(sequence ack_seq) const noexcept {
    return seq_geq(ack_seq, mark_);
  }
  /// @brief True when `seq` is strictly beyond the mark (FastTune's `ack.seq > lastUpdateSeq`).
  [[nodiscard]] constexpr bool passed(sequence seq) const noexcept { return seq_gt(seq, mark_); }
  /// @brief Start a new round: remember the current `snd_nxt`.
  constexpr void arm(sequence snd_nxt) noexcept { mark_ = snd_nxt; }
  /// @brief If `ack_seq` reached the mark, re-arm at `snd_nxt` and return true.
  constexpr bool advance(sequence ack_seq, sequence snd_nxt) noexcept {
    if (!reached(ack_seq)) return false;
    mark_ = snd_nxt;
    return true;
  }
  /// @brief The recorded sequence number.
  [[nodiscard]] constexpr sequence mark() const noexcept { return mark_; }

 private:
  sequence mark_;
};

}  // namespace netcc
