// SPDX-License-Identifier: MIT
/// @file
/// @brief Switch-side INT push: the hop record a switch appends at dequeue, onto an in-memory
/// netcc::int_stack or in place onto an encoded INT wire stack; a full stack is never overrun.
///
/// Source: R. Addanki, O. Michel, S. Schmid, "PowerTCP: Pushing the Performance Limits of
/// Datacenter Networks", NSDI 2022, §3.3 "Feedback" (each switch pushes the egress queue length
/// `qlen`, timestamp `ts`, transmitted bytes `txBytes` and bandwidth `b`, "all values
/// correspond to the time when the packet is scheduled for transmission") and §3.6 (INT in TCP
/// options, which are limited to 40 bytes, so at most four hops round trip). The header and
/// hop layout are HPCC's (Li et al., SIGCOMM 2019, §3.2 and Figure 4), already in
/// netcc/core/int_wire.hpp; FastTune (Zhou et al., ISPA 2021, Algorithm 1) pads the same record
/// into ACKs (see netcc/fabric/fasttune_switch.hpp).
///
/// What is here:
/// - netcc::int_port_view: what the switch reads from the egress port at dequeue;
/// - netcc::make_int_hop: the in-memory record, with `ts` and `tx_bytes` reduced to the stack's
///   clock and counter traits (so deltas are taken wrap-safely with them);
/// - netcc::int_push: push onto an in-memory stack; netcc::int_push_wire: the same with the wire
///   format's quantisation (queue units, rate table); netcc::int_push_encoded: append one 8-byte
///   hop to an already encoded stack in place, as a switch rewrites the packet.
///
/// Defaults and their sources: netcc::int_push_params::max_hops = 5 (HPCC §3.2 and PowerTCP
/// §3.3 carry five hops; PowerTCP §3.6 notes TCP options allow only four).
///
/// Deviations: none in the rule itself. A negative queue length or link rate in the port view
/// (nonsense input) is recorded as zero, so the function is total; a push beyond the hop limit
/// is refused and changes nothing (the papers do not say what a switch does then; refusing
/// keeps the records of the first hops, which is what a fixed-size header allows).
///
/// @code
/// using namespace netcc::literals;
/// netcc::int_stack<> s;
/// netcc::int_port_view port{.qlen = 3000_B, .tx_bytes = 1'000'000, .link_rate = 100_Gbps};
/// auto r = netcc::int_push(s, port, netcc::timestamp{5000}, netcc::int_push_params{});
/// // r == netcc::int_push_result::pushed, s.size() == 1, s[0].qlen == 3000 B
/// @endcode
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>

#include "netcc/core/feedback.hpp"
#include "netcc/core/int_wire.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/validation.hpp"
#include "netcc/core/wrap.hpp"

namespace netcc {

/// @brief What the switch reads from an egress port when a packet is scheduled for
/// transmission (PowerTCP NSDI'22 §3.3; HPCC SIGCOMM'19 §3.2).
/// @code
/// netcc::int_port_view v{.qlen = netcc::bytes{1500}, .tx_bytes = 42,
///                        .link_rate = netcc::bit_rate{25'000'000'000}};
/// @endcode
struct int_port_view {
  /// @brief Egress queue length at dequeue.
  bytes qlen{};
  /// @brief Total bytes the port has transmitted (a free-running byte counter).
  std::uint64_t tx_bytes = 0;
  /// @brief Line rate of the port.
  bit_rate link_rate{};
};

/// @brief Parameters of INT push.
/// @code
/// netcc::int_push_params p{.max_hops = 4};   // PowerTCP §3.6: 40-byte TCP options
/// @endcode
struct int_push_params {
  /// @brief Hop limit of the header (HPCC §3.2 / PowerTCP §3.3: 5; PowerTCP §3.6 with TCP
  /// options: 4). The effective limit is the smaller of this and the stack's capacity.
  std::size_t max_hops = 5;
};

/// @brief Check int_push_params: max_hops in [1, 255] (the wire header's hop count is a byte).
[[nodiscard]] inline validation validate(const int_push_params& p) {
  validation v;
  v.check(p.max_hops >= 1 && p.max_hops <= 255, "int_push.max_hops", p.max_hops,
          "must be in [1, 255]");
  return v;
}

/// @brief Outcome of an INT push.
enum class int_push_result : std::uint8_t {
  pushed,     ///< the hop record was appended
  full,       ///< the stack already held the hop limit: nothing changed
  malformed,  ///< (encoded form only) the bytes are not a valid stack: nothing changed
};

/// @brief The in-memory hop record for `port` at time `now`, in the units of stack `Stack`.
///
/// `ts` is `now` as the stack's timestamp clock reads it and `tx_bytes` the port counter as
/// the stack's counter traits read it (both wrap to their widths); `qlen` and `link_rate` are
/// copied, negative values recorded as zero.
/// @tparam Stack an netcc::int_stack (its `timestamp_clock` and `tx_counter` are used)
/// @code
/// auto h = netcc::make_int_hop<netcc::int_stack<>>(netcc::timestamp{10}, netcc::int_port_view{});
/// @endcode
template <class Stack>
[[nodiscard]] constexpr int_hop make_int_hop(timestamp now, const int_port_view& port) noexcept {
  int_hop h;
  using clock = typename Stack::timestamp_clock;
  using counter = typename Stack::tx_counter;
  if constexpr (requires { clock::encode(now); }) {
    h.ts = clock::encode(now);
  } else {
    h.ts = static_cast<std::uint64_t>(now.count());
  }
  if constexpr (requires { counter::encode(port.tx_bytes); }) {
    h.tx_bytes = counter::encode(port.tx_bytes);
  } else {
    h.tx_bytes = port.tx_bytes;
  }
  h.qlen = port.qlen < bytes{0} ? bytes{0} : port.qlen;  // PowerTCP §3.3: qlen
  h.link_rate = port.link_rate < bit_rate{0} ? bit_rate{0} : port.link_rate;  // §3.3: b
  return h;
}

/// @brief The effective hop limit: min(params.max_hops, capacity), at least 0.
template <class Stack>
[[nodiscard]] constexpr std::size_t int_hop_limit(const int_push_params& p) noexcept {
  return p.max_hops < Stack::max_hops ? p.max_hops : Stack::max_hops;
}

/// @brief Append `h` to `s` unless the hop limit is reached (then nothing changes).
template <class Stack>
constexpr int_push_result int_push_hop(Stack& s, const int_hop& h,
                                       const int_push_params& p) noexcept {
  if (s.size() >= int_hop_limit<Stack>(p)) return int_push_result::full;
  return s.push(h) ? int_push_result::pushed : int_push_result::full;
}

/// @brief PowerTCP §3.3: at dequeue, push (qlen, ts, txBytes, b) of the egress port onto the
/// packet's in-memory INT stack; a full stack is refused and left unchanged.
/// @code
/// netcc::int_stack<2> s;
/// netcc::int_port_view port{};
/// netcc::int_push(s, port, netcc::timestamp{1}, {});
/// netcc::int_push(s, port, netcc::timestamp{2}, {});
/// auto r = netcc::int_push(s, port, netcc::timestamp{3}, {});   // int_push_result::full
/// @endcode
template <class Stack>
constexpr int_push_result int_push(Stack& s, const int_port_view& port, timestamp now,
                                   const int_push_params& p) noexcept {
  return int_push_hop(s, make_int_hop<Stack>(now, port), p);
}

/// @brief int_push with the wire format's quantisation (queue length in `QUnit`s, saturated;
/// rate rounded down to the rate table; ts and tx in wire ticks and units), so that the stack
/// holds exactly what an encoded packet would carry.
/// @tparam Format an netcc::int_wire_format
/// @code
/// netcc::hpcc_int_format::stack s;
/// netcc::int_push_wire<netcc::hpcc_int_format>(s, netcc::int_port_view{}, netcc::timestamp{1}, {});
/// @endcode
template <class Format>
constexpr int_push_result int_push_wire(typename Format::stack& s, const int_port_view& port,
                                        timestamp now, const int_push_params& p) noexcept {
  const bytes q = port.qlen < bytes{0} ? bytes{0} : port.qlen;
  const bit_rate r = port.link_rate < bit_rate{0} ? bit_rate{0} : port.link_rate;
  return int_push_hop(s, Format::make_hop(now, q, port.tx_bytes, r), p);
}

namespace detail {

/// Store `w` big-endian at `p` (8 bytes): one byte-swapped store at run time.
constexpr void int_store_be64(std::uint8_t* p, std::uint64_t w) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  if (!std::is_constant_evaluated() && std::endian::native == std::endian::little) {
    w = __builtin_bswap64(w);
    std::memcpy(p, &w, sizeof w);
    return;
  }
#endif
  for (std::size_t b = 0; b < 8; ++b) p[b] = static_cast<std::uint8_t>(w >> (8 * (7 - b)));
}

}  // namespace detail

/// @brief Result of netcc::int_push_encoded.
struct int_push_encoded_result {
  /// @brief What happened.
  int_push_result result = int_push_result::malformed;
  /// @brief Bytes of the encoded stack after the call (unchanged unless pushed).
  std::size_t size = 0;
};

/// @brief Append one hop, in place, to an INT stack already encoded in `buf[0, used)` with
/// wire format `Format` (2-byte header with the hop count, then 8 bytes per hop, big-endian).
///
/// The switch only rewrites the hop-count byte and the 8 bytes after the last hop. Refused
/// with `full` at the hop limit or when `buf` has no room for 8 more bytes; refused with
/// `malformed` when `used` exceeds `buf`, or the header's hop count disagrees with `used` or
/// exceeds the format's capacity. Never writes outside `buf`; on refusal writes nothing.
/// @code
/// using fmt = netcc::hpcc_int_format;
/// std::array<std::uint8_t, fmt::max_encoded_size> buf{};   // header: 0 hops
/// auto r = netcc::int_push_encoded<fmt>(buf, 2, netcc::int_port_view{}, netcc::timestamp{7}, {});
/// // r.result == pushed, r.size == 10, buf[0] == 1
/// @endcode
template <class Format>
constexpr int_push_encoded_result int_push_encoded(std::span<std::uint8_t> buf, std::size_t used,
                                                   const int_port_view& port, timestamp now,
                                                   const int_push_params& p) noexcept {
  int_push_encoded_result out{int_push_result::malformed, used};
  if (used < Format::header_bytes || used > buf.size()) return out;
  const std::size_t n = buf[0];
  if (n > Format::stack::max_hops || used != Format::header_bytes + n * Format::hop_bytes)
    return out;
  const std::size_t limit =
      p.max_hops < Format::stack::max_hops ? p.max_hops : Format::stack::max_hops;
  if (n >= limit || buf.size() - used < Format::hop_bytes) {
    out.result = int_push_result::full;
    return out;
  }
  const bytes q = port.qlen < bytes{0} ? bytes{0} : port.qlen;
  const bit_rate r = port.link_rate < bit_rate{0} ? bit_rate{0} : port.link_rate;
  // The word of encode_hop(make_hop(...)), packed once: make_hop's decoded queue length and
  // rate re-encode to the same units and code.
  const std::uint64_t w =
      Format::pack(Format::timestamp_clock::encode(now), Format::tx_counter::encode(port.tx_bytes),
                   q, Format::rate_code(r));
  detail::int_store_be64(buf.data() + used, w);
  buf[0] = static_cast<std::uint8_t>(n + 1);
  out.result = int_push_result::pushed;
  out.size = used + Format::hop_bytes;
  return out;
}

}  // namespace netcc
