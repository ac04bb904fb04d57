// SPDX-License-Identifier: MIT
/// @file
/// @brief Internals of the compact (packed per-flow state) controllers: bit fields of a flag
/// word, and lastUpdateSeq kept in 32 bits.
#pragma once

#include <cstdint>

#include "netcc/core/per_rtt.hpp"
#include "netcc/core/wrap.hpp"

namespace netcc::detail {

/// lastUpdateSeq at 32 bits for the compact INT controllers: the low 32 bits of the sequence
/// number, compared with `ack.seq > lastUpdateSeq` modulo 2^32 (netcc::modular<32>), and
/// whether it was ever armed: a fresh marker compares at full width against 0, as
/// netcc::per_rtt_marker does. Range: once armed, ack.seq within 2^31 - 1 bytes of lastUpdateSeq
/// (more than any window: windows are below 2^31 B).
[[nodiscard]] constexpr bool seq32_passed(sequence seq, std::uint32_t mark, bool armed) noexcept {
  if (!armed) return seq_gt(seq, 0);
  return modular<32>::diff(static_cast<std::uint32_t>(seq), mark) > 0;
}

/// The flag word of the compact INT controllers' flow states: `bits` wide fields at `shift`.
template <unsigned Shift, unsigned Bits>
struct bit_field {
  static constexpr std::uint32_t mask = (std::uint32_t{1} << Bits) - 1;
  [[nodiscard]] static constexpr std::uint32_t get(std::uint32_t w) noexcept {
    return (w >> Shift) & mask;
  }
  static constexpr void set(std::uint32_t& w, std::uint32_t v) noexcept {
    w = (w & ~(mask << Shift)) | ((v & mask) << Shift);
  }
};

}  // namespace netcc::detail
