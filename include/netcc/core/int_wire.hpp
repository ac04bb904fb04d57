// SPDX-License-Identifier: MIT
/// @file
/// @brief The compact INT wire format: 8 bytes per hop, HPCC-style, with parametric widths.
///
/// HPCC (Li et al., SIGCOMM'19, §5 "INT padding" and its Figure 7) packs each hop's metadata
/// into 64 bits so that five hops cost 40 bytes; PowerTCP (NSDI'22, §3.3 "Feedback") reuses the
/// same header. The default layout, most significant bit first:
///
/// | field       | bits | unit                       | on overflow                 |
/// | ----------- | ---- | -------------------------- | --------------------------- |
/// | rate code   | 3    | index into a rate table    | largest table rate <= rate  |
/// | timestamp   | 24   | 1 ns                       | wraps (16.8 ms period)      |
/// | tx bytes    | 20   | 128 B                      | wraps (128 MiB period)      |
/// | queue length| 17   | 80 B                       | saturates at 10.49 MB       |
///
/// A stack is a 2-byte header (hop count, then a reserved byte that encodes as 0) followed by
/// `hop count` hops, big-endian. Widths and units are template parameters; the decoded stack's
/// clock and counter traits carry them, so deltas between two records of the same hop are taken
/// modulo the field width (netcc::wrapping_clock, netcc::wrapping_counter).
///
/// Decoding is total: a short buffer or a hop count above the stack's capacity is reported as an
/// error and yields an empty stack; nothing is read out of bounds.
///
/// An ACK can carry either form of a format's stack: `stack` holds decoded records (decode);
/// `word_stack` holds the hop words as they came (decode_words) and reads each as decode_hop
/// would. The compact controllers keep one word per hop of the same layout, so from a word stack
/// they store each word as it came instead of packing the decoded fields back (the same state,
/// byte for byte; HPCC at 5 hops: 773 -> 666 instructions per ACK).
///
/// Sources: HPCC (Li et al., SIGCOMM'19) §5 and Figure 7; PowerTCP (Addanki et al., NSDI'22) §3.3.
///
/// @code
/// using fmt = netcc::int_wire_format<>;
/// fmt::stack s;
/// s.push(fmt::make_hop(netcc::timestamp{123'456}, netcc::bytes{8000}, 1'000'000,
///                      netcc::bit_rate{100'000'000'000}));
/// std::array<std::uint8_t, fmt::max_encoded_size> buf{};
/// std::size_t n = fmt::encode(s, buf);          // 2 + 8 bytes
/// auto back = fmt::decode(std::span(buf.data(), n));
/// assert(back.error == netcc::int_decode_error::none && back.hops == s);
/// @endcode
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "netcc/core/feedback.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/wrap.hpp"

namespace netcc {

/// @brief The link-rate table behind the 3-bit rate code (index = code).
inline constexpr std::array<bit_rate, 8> default_int_rate_table{
    bit_rate{1'000'000'000},   bit_rate{10'000'000'000}, bit_rate{25'000'000'000},
    bit_rate{40'000'000'000},  bit_rate{50'000'000'000}, bit_rate{100'000'000'000},
    bit_rate{200'000'000'000}, bit_rate{400'000'000'000}};

namespace detail {
[[nodiscard]] consteval bool int_rate_table_ascends() noexcept {
  for (std::size_t i = 1; i < default_int_rate_table.size(); ++i)
    if (!(default_int_rate_table[i - 1] < default_int_rate_table[i])) return false;
  return true;
}

// The interval of bit_rate values each rate code stands for, as the two's-complement bits of
// its lowest rate (code 0: the lowest int64) and its width minus one (so the interval is
// low + [0, span], reached by one unsigned comparison).
struct int_rate_intervals {
  std::array<std::uint64_t, 8> low{};
  std::array<std::uint64_t, 8> span{};
  constexpr int_rate_intervals() noexcept {
    const auto& t = default_int_rate_table;
    for (std::size_t c = 0; c < t.size(); ++c) {
      const std::uint64_t lo =
          c == 0 ? std::uint64_t{1} << 63 : static_cast<std::uint64_t>(t[c].bps());
      const std::uint64_t hi = c + 1 == t.size() ? (std::uint64_t{1} << 63) - 1
                                                 : static_cast<std::uint64_t>(t[c + 1].bps()) - 1;
      low[c] = lo;
      span[c] = hi - lo;  // modulo 2^64: the width of [lo, hi] minus one
    }
  }
};
inline constexpr int_rate_intervals int_rate_interval{};
}  // namespace detail
static_assert(default_int_rate_table.size() == 8 && detail::int_rate_table_ascends(),
              "int_wire_format::rate_code: a binary search over 8 ascending entries");

/// @brief Why a buffer did not decode.
enum class int_decode_error : std::uint8_t {
  none,           ///< decoded
  short_header,   ///< fewer than 2 bytes
  too_many_hops,  ///< hop count above the stack's capacity
  short_payload,  ///< fewer bytes than hop count * 8
};

/// @brief An INT wire layout: field widths, units, rate table and stack capacity.
/// @tparam MaxHops  stack capacity (HPCC: 5)
/// @tparam TsBits   timestamp width (ns ticks)
/// @tparam TxBits   tx-byte counter width
/// @tparam TxUnit   bytes per tx-counter unit
/// @tparam QBits    queue-length width
/// @tparam QUnit    bytes per queue-length unit
template <std::size_t MaxHops = 5, unsigned TsBits = 24, unsigned TxBits = 20,
          std::int64_t TxUnit = 128, unsigned QBits = 17, std::int64_t QUnit = 80>
struct int_wire_format {
  /// @brief Width of the rate code (what is left of 64 bits).
  static constexpr unsigned rate_bits = 64 - TsBits - TxBits - QBits;
  /// @brief Width of the timestamp field (ns ticks).
  static constexpr unsigned ts_bits = TsBits;
  /// @brief Width of the tx-byte counter field.
  static constexpr unsigned tx_bits = TxBits;
  /// @brief Bytes per tx-counter unit.
  static constexpr std::int64_t tx_unit = TxUnit;
  /// @brief Width of the queue-length field.
  static constexpr unsigned q_bits = QBits;
  /// @brief Bytes per queue-length unit.
  static constexpr std::int64_t q_unit = QUnit;
  /// @brief Stack capacity in hops.
  static constexpr std::size_t max_hops = MaxHops;
  static_assert(TsBits >= 1 && TxBits >= 1 && QBits >= 1 && TsBits + TxBits + QBits <= 61,
                "int_wire_format: the fields must leave at least 3 bits for the rate code");
  static_assert(TxUnit >= 1 && QUnit >= 1, "int_wire_format: units must be positive");

  /// @brief Clock traits of the decoded timestamps.
  using timestamp_clock = wrapping_clock<TsBits>;
  /// @brief Counter traits of the decoded tx bytes.
  using tx_counter = wrapping_counter<TxBits, TxUnit>;
  /// @brief The decoded stack type.
  using stack = int_stack<MaxHops, timestamp_clock, tx_counter>;
  /// @brief Bytes per hop on the wire.
  static constexpr std::size_t hop_bytes = 8;
  /// @brief Bytes of the stack header.
  static constexpr std::size_t header_bytes = 2;
  /// @brief Largest encoding of a full stack.
  static constexpr std::size_t max_encoded_size = header_bytes + MaxHops * hop_bytes;
  /// @brief Largest queue length representable (larger values saturate).
  static constexpr bytes max_qlen{static_cast<std::int64_t>(modular<QBits>::mask) * QUnit};

  /// @brief The rate code of `r`: the largest table entry <= r (code 0 below the table).
  /// The table ascends and every code fits rate_bits (>= 3), so the entries <= r are a prefix
  /// of it: a binary search of three steps (per hop on the compact controllers' path).
  [[nodiscard]] static constexpr std::uint64_t rate_code(bit_rate r) noexcept {
    const auto& t = default_int_rate_table;
    std::uint64_t code = t[4] <= r ? 4 : 0;
    if (t[code + 2] <= r) code += 2;
    if (t[code + 1] <= r) code += 1;
    return code;
  }
  /// @brief rate_code(r) == code, without the search: whether r lies in the code's interval of
  /// the table, [t[code], t[code + 1]) (code 0 from below the table, the last code to the top of
  /// bit_rate's range), as one unsigned comparison of r - low against the interval's width.
  /// A code past the table is no rate's. The compact controllers' per-hop path-change test.
  [[nodiscard]] static constexpr bool rate_code_is(bit_rate r, std::uint64_t code) noexcept {
    const auto& iv = detail::int_rate_interval;
    if (code >= iv.low.size()) return false;
    return static_cast<std::uint64_t>(r.bps()) - iv.low[code] <= iv.span[code];
  }
  /// @brief The rate a code stands for (codes past the table read as its last entry).
  [[nodiscard]] static constexpr bit_rate rate_of(std::uint64_t code) noexcept {
    return code < default_int_rate_table.size() ? default_int_rate_table[code]
                                                : default_int_rate_table.back();
  }

  /// @brief The hop record a switch with these field widths reports: `now` and `tx_total`
  /// (bytes) reduced to the wire's ticks and units, qlen rounded down to whole units and
  /// saturated, rate rounded down to the table.
  [[nodiscard]] static constexpr int_hop make_hop(timestamp now, bytes qlen, std::uint64_t tx_total,
                                                  bit_rate rate) noexcept {
    return decode_hop(
        pack(timestamp_clock::encode(now), tx_counter::encode(tx_total), qlen, rate_code(rate)));
  }

  /// @brief Pack one hop (ts and tx already raw, in wire ticks and units) into 64 bits.
  [[nodiscard]] static constexpr std::uint64_t pack(std::uint64_t ts_raw, std::uint64_t tx_raw,
                                                    bytes qlen, std::uint64_t code) noexcept {
    // Unsigned division of a positive length (cheaper than a signed one by a constant).
    const std::uint64_t q = qlen.count() <= 0 ? 0
                                              : static_cast<std::uint64_t>(qlen.count()) /
                                                    static_cast<std::uint64_t>(QUnit);
    const std::uint64_t qraw = q > modular<QBits>::mask ? modular<QBits>::mask : q;
    return (modular<rate_bits>::wrap(code) << (TsBits + TxBits + QBits)) |
           (modular<TsBits>::wrap(ts_raw) << (TxBits + QBits)) |
           (modular<TxBits>::wrap(tx_raw) << QBits) | qraw;
  }
  /// @brief Pack a decoded hop record (as produced by decode_hop or make_hop).
  [[nodiscard]] static constexpr std::uint64_t encode_hop(const int_hop& h) noexcept {
    return pack(h.ts, h.tx_bytes, h.qlen, rate_code(h.link_rate));
  }
  /// @brief Unpack 64 bits into a hop record (ts, tx raw; qlen in bytes; rate from the table).
  [[nodiscard]] static constexpr int_hop decode_hop(std::uint64_t w) noexcept {
    int_hop h;
    h.qlen = bytes{static_cast<std::int64_t>(w & modular<QBits>::mask) * QUnit};
    h.tx_bytes = (w >> QBits) & modular<TxBits>::mask;
    h.ts = (w >> (TxBits + QBits)) & modular<TsBits>::mask;
    h.link_rate = rate_of((w >> (TsBits + TxBits + QBits)) & modular<rate_bits>::mask);
    return h;
  }

  /// @brief A hop as decode_hop reads it from wire word `word`, with the word kept: a compact
  /// controller's record of this format (netcc::basic_hpcc_compact, netcc::fasttune_compact,
  /// netcc::powertcp_compact) stores the word itself instead of packing the fields again. The
  /// word is canonical (as encode_hop writes this hop back: a rate code past the table reads as
  /// the table's last code), so it is exactly what the record would have packed.
  struct word_hop : int_hop {
    /// @brief The hop's wire word (host order).
    std::uint64_t word = 0;
  };

  /// @brief encode_hop(decode_hop(w)) without decoding: `w` with a rate code past the table
  /// replaced by the table's last code (rate_of reads it so), every other field as it is. The
  /// identity when the code field has 3 bits (HPCC's), as every code then names a table rate.
  [[nodiscard]] static constexpr std::uint64_t canonical_word(std::uint64_t w) noexcept {
    if constexpr (rate_bits > 3) {
      constexpr unsigned code_shift = TsBits + TxBits + QBits;
      constexpr std::uint64_t last = default_int_rate_table.size() - 1;
      if ((w >> code_shift) > last)
        w = (w & ((std::uint64_t{1} << code_shift) - 1)) | (last << code_shift);
    }
    return w;
  }

  /// @brief decode_hop(w) with its canonical word (word_hop).
  [[nodiscard]] static constexpr word_hop read_hop(std::uint64_t w) noexcept {
    word_hop h;
    static_cast<int_hop&>(h) = decode_hop(w);
    h.word = canonical_word(w);
    return h;
  }

  /// @brief A stack as the wire carries it: the hop words, read one at a time as word_hop
  /// (decode_hop's values and the word). The same hops, clock and counter traits as `stack`,
  /// for a NIC that hands netcc the INT words it received (decode_words) rather than decoded
  /// records: the compact controllers then store each word as it came, with nothing packed.
  /// @code
  /// using fmt = netcc::hpcc_int_format;
  /// fmt::word_stack s;
  /// s.push(fmt::make_hop(netcc::timestamp{123'456}, netcc::bytes{8000}, 1'000'000,
  ///                      netcc::bit_rate{100'000'000'000}));
  /// netcc::basic_ack_event<fmt::word_stack> ack{.ack_seq = 1000, .hops = s};
  /// @endcode
  struct word_stack {
    /// @brief Clock traits of the hop timestamps (the wire's).
    using timestamp_clock = wrapping_clock<TsBits>;
    /// @brief Counter traits of the hop tx-byte counters (the wire's).
    using tx_counter = wrapping_counter<TxBits, TxUnit>;
    /// @brief Capacity in hops.
    static constexpr std::size_t max_hops = MaxHops;

    /// @brief Number of words pushed.
    std::uint8_t count = 0;
    /// @brief The hop words (host order); only the first size() are meaningful.
    std::array<std::uint64_t, MaxHops> words{};

    /// @brief Append wire word `w`; false (and no change) when full.
    constexpr bool push_word(std::uint64_t w) noexcept {
      if (count >= MaxHops) return false;
      words[count++] = w;
      return true;
    }
    /// @brief Append hop `h` as the wire carries it (encode_hop); false when full.
    constexpr bool push(const int_hop& h) noexcept { return push_word(encode_hop(h)); }
    /// @brief Hops held (never more than max_hops, even if `count` was set larger by hand).
    [[nodiscard]] constexpr std::size_t size() const noexcept {
      return count < MaxHops ? count : MaxHops;
    }
    /// @brief Hop `i` read from its word (read_hop); `i` must be < size().
    [[nodiscard]] constexpr word_hop operator[](std::size_t i) const noexcept {
      return read_hop(words[i]);
    }
    /// @brief The same hops (as decoded) up to size().
    friend constexpr bool operator==(const word_stack& a, const word_stack& b) noexcept {
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i)
        if (canonical_word(a.words[i]) != canonical_word(b.words[i])) return false;
      return true;
    }
  };

  /// @brief The words a wire carries for the decoded stack `s` (encode_hop per hop).
  [[nodiscard]] static constexpr word_stack words_of(const stack& s) noexcept {
    word_stack w;
    for (std::size_t i = 0; i < s.size(); ++i) w.push_word(encode_hop(s[i]));
    return w;
  }

  /// @brief ACK `e` with its INT as the words a wire carries for it (words_of), every other
  /// field as it is.
  [[nodiscard]] static constexpr basic_ack_event<word_stack> with_words(
      const basic_ack_event<stack>& e) noexcept {
    return {.now = e.now,
            .ack_seq = e.ack_seq,
            .snd_nxt = e.snd_nxt,
            .acked = e.acked,
            .rtt = e.rtt,
            .ecn_echo = e.ecn_echo,
            .inc = e.inc,
            .switch_ack = e.switch_ack,
            .hops = words_of(e.hops)};
  }

  /// @brief The result of decode_words(): the words (none on error) and the error.
  struct decoded_words {
    /// @brief The hop words read (empty unless error == none).
    word_stack hops{};
    /// @brief What went wrong, if anything (as decode).
    int_decode_error error = int_decode_error::none;
    /// @brief Bytes consumed (0 on error).
    std::size_t consumed = 0;
  };

  /// @brief Read a stack's hop words from the front of `in` (total: never reads past the end):
  /// a 2-byte header whose first byte is the hop count (at most MaxHops), then that many
  /// big-endian 8-byte words. decode_words(in).hops[i] holds decode(in).hops[i]'s values.
  [[nodiscard]] static constexpr decoded_words decode_words(
      std::span<const std::uint8_t> in) noexcept {
    decoded_words d;
    if (in.size() < header_bytes) {
      d.error = int_decode_error::short_header;
      return d;
    }
    const std::size_t n = in[0];
    if (n > MaxHops) {
      d.error = int_decode_error::too_many_hops;
      return d;
    }
    if (in.size() < header_bytes + n * hop_bytes) {
      d.error = int_decode_error::short_payload;
      return d;
    }
    for (std::size_t i = 0; i < n; ++i) {
      std::uint64_t w = 0;
      for (std::size_t b = 0; b < hop_bytes; ++b)
        w = (w << 8) | in[header_bytes + i * hop_bytes + b];
      d.hops.push_word(w);
    }
    d.consumed = header_bytes + n * hop_bytes;
    return d;
  }

  /// @brief Encode `s` into `out`; returns bytes written, or 0 if `out` is too small.
  static constexpr std::size_t encode(const stack& s, std::span<std::uint8_t> out) noexcept {
    const std::size_t n = s.size();
    const std::size_t need = header_bytes + n * hop_bytes;
    if (out.size() < need) return 0;
    out[0] = static_cast<std::uint8_t>(n);
    out[1] = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t w = encode_hop(s[i]);
      for (std::size_t b = 0; b < hop_bytes; ++b)
        out[header_bytes + i * hop_bytes + b] = static_cast<std::uint8_t>(w >> (8 * (7 - b)));
    }
    return need;
  }

  /// @brief The result of decode(): the stack (empty on error) and the error.
  struct decoded {
    /// @brief The hops read (empty unless error == none).
    stack hops{};
    /// @brief What went wrong, if anything.
    int_decode_error error = int_decode_error::none;
    /// @brief Bytes consumed (0 on error).
    std::size_t consumed = 0;
  };

  /// @brief Decode a stack from the front of `in` (total: never reads past the end): the hops
  /// of decode_words(in), each through decode_hop.
  [[nodiscard]] static constexpr decoded decode(std::span<const std::uint8_t> in) noexcept {
    const decoded_words w = decode_words(in);
    decoded d;
    d.error = w.error;
    d.consumed = w.consumed;
    for (std::size_t i = 0; i < w.hops.size(); ++i) d.hops.push(decode_hop(w.hops.words[i]));
    return d;
  }
};

/// @brief HPCC's layout: 5 hops; 24-bit ns timestamp; 20-bit tx bytes in 128-B units; 17-bit
/// queue length in 80-B units; 3-bit rate code.
using hpcc_int_format = int_wire_format<>;

}  // namespace netcc
