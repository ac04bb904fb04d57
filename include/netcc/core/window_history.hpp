// SPDX-License-Identifier: MIT
/// @file
/// @brief Window history by sequence number: PowerTCP's GETCWND / UPDATEOLD.
///
/// PowerTCP's control law (NSDI'22, Eq. 7) uses w(t - theta(t)), the window in force when the
/// acknowledged segment was sent. Algorithm 1 (lines 3 and 7) keeps it by remembering the
/// window once per RTT together with the sequence number from which it applied
/// (UPDATEOLD) and looking it up by the ACK's sequence number (GETCWND).
///
/// netcc keeps the last `Capacity` remembered windows in a fixed ring (no allocation). An
/// entry (s, w) says: bytes from sequence s on were sent while w was in force. window_at(q)
/// returns w of the newest entry with s <= q; a q older than every entry gets the oldest
/// entry (the best estimate left), and an empty history gets the caller's fallback.
///
/// Sources: PowerTCP (Addanki et al., NSDI'22) Eq. 7 and Algorithm 1 lines 3 and 7 (GETCWND,
/// UPDATEOLD).
///
/// @code
/// netcc::window_history<double, 4> h;
/// h.remember(0, 10'000.0);        // from byte 0 on: 10 kB
/// h.remember(50'000, 12'000.0);   // from byte 50000 on: 12 kB
/// double w = h.window_at(20'000, 0.0);   // 10 kB
/// @endcode
#pragma once

#include <array>
#include <cstddef>

#include "netcc/core/arith.hpp"
#include "netcc/core/per_rtt.hpp"

namespace netcc {

/// @brief Fixed-capacity history of (sequence, window) pairs.
/// @tparam T        window value type (a netcc::Number)
/// @tparam Capacity entries kept (>= 1); two cover the one-RTT lag of the control law
template <Number T, std::size_t Capacity = 2>
class window_history {
  static_assert(Capacity >= 1 && Capacity <= 255, "window_history: Capacity in [1, 255]");

 public:
  /// @brief Remember that from sequence `from_seq` on, window `w` is in force (UPDATEOLD).
  ///
  /// An entry whose sequence is not after the newest one replaces it (a window recorded
  /// twice for the same data keeps the newer value), so entries stay ordered.
  constexpr void remember(sequence from_seq, T w) noexcept {
    if (size_ > 0 && !seq_gt(from_seq, entries_[newest()].seq)) {
      entries_[newest()] = {entries_[newest()].seq, w};
      return;
    }
    head_ = static_cast<unsigned char>((head_ + 1) % Capacity);
    entries_[head_] = {from_seq, w};
    if (size_ < Capacity) ++size_;
  }

  /// @brief The window in force when byte `seq` was sent (GETCWND); `fallback` if empty.
  [[nodiscard]] constexpr T window_at(sequence seq, T fallback) const noexcept {
    if (size_ == 0) return fallback;
    if constexpr (Capacity == 2) {  // PowerTCP's: the newest entry, else the other (the oldest)
      const entry& n = entries_[head_];
      return size_ == 1 || seq_geq(seq, n.seq) ? n.w : entries_[head_ ^ 1U].w;
    }
    std::size_t i = head_;
    for (std::size_t k = 0; k < size_; ++k) {
      if (seq_geq(seq, entries_[i].seq)) return entries_[i].w;
      i = (i + Capacity - 1) % Capacity;
    }
    return entries_[(head_ + Capacity - size_ + 1) % Capacity].w;  // oldest
  }

  /// @brief Number of entries held.
  [[nodiscard]] constexpr std::size_t size() const noexcept { return size_; }
  /// @brief Forget everything.
  constexpr void clear() noexcept { size_ = 0; }

 private:
  struct entry {
    sequence seq;
    T w;
  };
  [[nodiscard]] constexpr std::size_t newest() const noexcept { return head_; }

  std::array<entry, Capacity> entries_{};
  unsigned char head_ = 0;
  unsigned char size_ = 0;
};

}  // namespace netcc
