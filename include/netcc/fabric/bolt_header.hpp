// SPDX-License-Identifier: MIT
/// @file
/// @brief Bolt's 9-byte transport header (Listing 1): a plain view with total encode/decode.
///
/// Source: S. Arslan, Y. Li, G. Kumar, N. Dukkipati, "Bolt: Sub-RTT Congestion Control for
/// Ultra-Low Latency", NSDI 2023, §3 and Listing 1:
///
/// | field     | bits | meaning                                    |
/// | --------- | ---- | ------------------------------------------ |
/// | q_size    | 24   | queue occupancy at the switch (SRC)        |
/// | link_rate | 8    | rate of the congested link (SRC)           |
/// | data      | 1    | flags data packets                         |
/// | ack       | 1    | flags acknowledgements                     |
/// | src       | 1    | flags switch feedback                      |
/// | last      | 1    | flags last window of a flow                |
/// | first     | 1    | flags first window of a flow               |
/// | inc       | 1    | signals cwnd increment                     |
/// | dec       | 1    | signals cwnd decrement                     |
/// | reserved  | 1    | reserved                                   |
/// | t_data_tx | 32   | TX timestamp of the data packet            |
///
/// Byte order: fields in declaration order, most significant bit first (P4 header packing),
/// multi-byte fields big-endian; so `data` is bit 7 of byte 4 and `reserved` bit 0.
///
/// Units (the paper does not fix them; these are netcc's choices, documented here):
/// - `q_size` in bytes, saturating at 2^24 - 1 (16.7 MB; larger queues report the maximum);
/// - `link_rate` as a multiple of a rate unit, default 5 Gbps (netcc::bolt_default_rate_unit):
///   every rate the paper uses (25, 100, 200, 400 Gbps, §5) is exact, up to 1.275 Tbps;
///   a non-zero rate rounds to the nearest code, never to 0 (so the sender's division by it in
///   Algorithm 2 line 3 is defined), and saturates at 255;
/// - `t_data_tx` in nanoseconds, wrapping every 4.3 s (netcc::src_event's 32-bit clock).
///
/// @code
/// netcc::bolt_header h{.data = true, .inc = true, .t_data_tx = 1234};
/// std::array<std::uint8_t, netcc::bolt_header::wire_size> buf{};
/// netcc::encode_bolt_header(h, buf);
/// auto back = netcc::decode_bolt_header(buf);   // back.ok && back.header == h
/// @endcode
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "netcc/core/detail/int128.hpp"
#include "netcc/core/feedback.hpp"
#include "netcc/core/units.hpp"

namespace netcc {

/// @brief Default unit of the 8-bit `link_rate` code: 5 Gbps (netcc's choice; see the file
/// comment).
inline constexpr bit_rate bolt_default_rate_unit{5'000'000'000};

/// @brief Largest `q_size` the 24-bit field carries, in bytes.
inline constexpr bytes bolt_max_q_size{(std::int64_t{1} << 24) - 1};

/// @brief The Bolt header of Listing 1, field for field (raw codes, as on the wire).
/// @code
/// netcc::bolt_header data{.data = true, .first = true, .inc = true, .t_data_tx = 99};
/// @endcode
struct bolt_header {
  /// @brief Encoded size: 9 bytes (Listing 1).
  static constexpr std::size_t wire_size = 9;
  /// @brief Queue occupancy in bytes (24 bits; the switch stamps it on an SRC).
  std::uint32_t q_size = 0;
  /// @brief Link-rate code (multiples of the rate unit; the switch stamps it on an SRC).
  std::uint8_t link_rate = 0;
  /// @brief Flags data packets.
  bool data = false;
  /// @brief Flags acknowledgements.
  bool ack = false;
  /// @brief Flags switch feedback (SRC).
  bool src = false;
  /// @brief Flags the last window of a flow.
  bool last = false;
  /// @brief Flags the first window of a flow.
  bool first = false;
  /// @brief Signals a cwnd increment (set by the sender, cleared by a switch without tokens).
  bool inc = false;
  /// @brief Signals a cwnd decrement (an SRC was already generated for this packet).
  bool dec = false;
  /// @brief Reserved bit (carried, not interpreted).
  bool reserved = false;
  /// @brief TX timestamp of the data packet in ns (32 bits, wraps).
  std::uint32_t t_data_tx = 0;
  /// @brief Field-wise equality.
  friend constexpr bool operator==(const bolt_header&, const bolt_header&) noexcept = default;
};

/// @brief The 24-bit `q_size` field for a queue of `q` bytes: negative gives 0, above 2^24 - 1
/// saturates.
[[nodiscard]] constexpr std::uint32_t bolt_encode_q_size(bytes q) noexcept {
  if (q <= bytes{0}) return 0;
  if (q >= bolt_max_q_size) return static_cast<std::uint32_t>(bolt_max_q_size.count());
  return static_cast<std::uint32_t>(q.count());
}

/// @brief The `q_size` field as bytes (only the low 24 bits are read).
[[nodiscard]] constexpr bytes bolt_decode_q_size(std::uint32_t raw) noexcept {
  return bytes{static_cast<std::int64_t>(raw & 0xFFFFFFu)};
}

/// @brief The 8-bit `link_rate` code for rate `r` in units of `unit`: nearest code (ties up),
/// at least 1 for any positive rate, 0 for a zero or negative rate (or a non-positive unit),
/// at most 255.
[[nodiscard]] constexpr std::uint8_t bolt_encode_link_rate(
    bit_rate r, bit_rate unit = bolt_default_rate_unit) noexcept {
  if (r <= bit_rate{0} || unit <= bit_rate{0}) return 0;
  const std::int64_t u = unit.bps();
  const std::int64_t q = r.bps() / u;
  const std::int64_t rem = r.bps() % u;
  std::int64_t code = q + (rem >= u - rem ? 1 : 0);  // nearest, ties up (no overflow: q < 2^63/u)
  if (code < 1) code = 1;
  if (code > 255) code = 255;
  return static_cast<std::uint8_t>(code);
}

/// @brief The rate a `link_rate` code stands for: code x unit (saturating).
[[nodiscard]] constexpr bit_rate bolt_decode_link_rate(
    std::uint8_t code, bit_rate unit = bolt_default_rate_unit) noexcept {
  if (unit <= bit_rate{0}) return bit_rate{0};
  return bit_rate{detail::saturate_i64(detail::i128{unit.bps()} * code)};
}

/// @brief Write `h` to `out` (Listing 1 layout); returns 9, or 0 (writing nothing) when `out`
/// is shorter than 9 bytes. Bits of `q_size` above 24 are dropped.
/// @code
/// std::array<std::uint8_t, 9> b{};
/// std::size_t n = netcc::encode_bolt_header(netcc::bolt_header{.src = true}, b);   // 9; b[4] == 0x20
/// @endcode
constexpr std::size_t encode_bolt_header(const bolt_header& h,
                                         std::span<std::uint8_t> out) noexcept {
  if (out.size() < bolt_header::wire_size) return 0;
  out[0] = static_cast<std::uint8_t>(h.q_size >> 16);
  out[1] = static_cast<std::uint8_t>(h.q_size >> 8);
  out[2] = static_cast<std::uint8_t>(h.q_size);
  out[3] = h.link_rate;
  out[4] = static_cast<std::uint8_t>((h.data ? 0x80u : 0u) | (h.ack ? 0x40u : 0u) |
                                     (h.src ? 0x20u : 0u) | (h.last ? 0x10u : 0u) |
                                     (h.first ? 0x08u : 0u) | (h.inc ? 0x04u : 0u) |
                                     (h.dec ? 0x02u : 0u) | (h.reserved ? 0x01u : 0u));
  out[5] = static_cast<std::uint8_t>(h.t_data_tx >> 24);
  out[6] = static_cast<std::uint8_t>(h.t_data_tx >> 16);
  out[7] = static_cast<std::uint8_t>(h.t_data_tx >> 8);
  out[8] = static_cast<std::uint8_t>(h.t_data_tx);
  return bolt_header::wire_size;
}

/// @brief Result of netcc::decode_bolt_header.
struct bolt_header_decoded {
  /// @brief The header (all zero unless ok).
  bolt_header header{};
  /// @brief False when fewer than 9 bytes were given.
  bool ok = false;
};

/// @brief Read a Bolt header from the front of `in` (total: a short buffer gives ok == false).
[[nodiscard]] constexpr bolt_header_decoded decode_bolt_header(
    std::span<const std::uint8_t> in) noexcept {
  bolt_header_decoded d;
  if (in.size() < bolt_header::wire_size) return d;
  bolt_header& h = d.header;
  h.q_size = (std::uint32_t{in[0]} << 16) | (std::uint32_t{in[1]} << 8) | in[2];
  h.link_rate = in[3];
  h.data = (in[4] & 0x80u) != 0;
  h.ack = (in[4] & 0x40u) != 0;
  h.src = (in[4] & 0x20u) != 0;
  h.last = (in[4] & 0x10u) != 0;
  h.first = (in[4] & 0x08u) != 0;
  h.inc = (in[4] & 0x04u) != 0;
  h.dec = (in[4] & 0x02u) != 0;
  h.reserved = (in[4] & 0x01u) != 0;
  h.t_data_tx = (std::uint32_t{in[5]} << 24) | (std::uint32_t{in[6]} << 16) |
                (std::uint32_t{in[7]} << 8) | in[8];
  d.ok = true;
  return d;
}

/// @brief The sender's view of an SRC header (Algorithm 2's input): netcc::src_event with the
/// queue in bytes, the rate decoded with `unit`, the reflected timestamp, and arrival `now`.
/// @code
/// netcc::src_event e = netcc::to_src_event(netcc::bolt_header{.q_size = 3000, .link_rate = 20},
///                                          netcc::timestamp{100});   // 3000 B, 100 Gbps
/// @endcode
[[nodiscard]] constexpr src_event to_src_event(const bolt_header& h, timestamp now,
                                               bit_rate unit = bolt_default_rate_unit) noexcept {
  return src_event{.now = now,
                   .queue = bolt_decode_q_size(h.q_size),
                   .link_rate = bolt_decode_link_rate(h.link_rate, unit),
                   .tx_timestamp = h.t_data_tx};
}

}  // namespace netcc
