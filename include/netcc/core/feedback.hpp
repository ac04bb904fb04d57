// SPDX-License-Identifier: MIT
/// @file
/// @brief Feedback vocabulary (ACK with INT, RTT sample, CNP, SRC), the feedback-traits
/// customisation point, and the concepts controllers state their needs with.
///
/// A stack keeps its own event types. It tells netcc how to read them by specialising
/// netcc::feedback_traits (in the manner of `std::char_traits`): static accessors that take the
/// event and return the field. A controller states which accessors it needs with one of the
/// concepts below, so a stack that lacks a field gets one error naming the missing accessor.
///
/// | concept                 | accessors on feedback_traits<E>                                  | consumed by |
/// | ----------------------- | ---------------------------------------------------------------- | ----------- |
/// | netcc::TimedFeedback    | `now(e)`                                                         | all |
/// | netcc::AckFeedback      | + `ack_seq(e)`, `snd_nxt(e)`, `acked_bytes(e)`                   | window controllers |
/// | netcc::IntFeedback      | + `hop_count(e)`, `hop(e, i)`; types `timestamp_clock`, `tx_counter` | PowerTCP, HPCC, FastTune |
/// | netcc::SwitchAckFeedback | IntFeedback + `switch_ack(e)`                                   | FastTune (optional) |
/// | netcc::RttFeedback      | `now(e)`, `rtt(e)`                                               | theta-PowerTCP, TIMELY, Swift, Vegas |
/// | netcc::EcnFeedback      | AckFeedback + `ecn_echo(e)`                                      | DCTCP |
/// | netcc::IncFeedback      | AckFeedback + `inc(e)`                                           | Bolt |
/// | netcc::SrcFeedback      | `now(e)`, `queue_size(e)`, `link_rate(e)`, `tx_timestamp(e)`; type `src_clock` | Bolt |
/// | netcc::CnpFeedback      | `now(e)`                                                         | DCQCN |
///
/// netcc's own plain structs (netcc::ack_event, netcc::rtt_event, netcc::cnp_event,
/// netcc::src_event) come with traits; the testbench, the calculus driver and the examples use
/// them.
///
/// Sources: the feedback each paper's sender reads: ACKs with INT hop records (HPCC, SIGCOMM'19,
/// §3.2; PowerTCP, NSDI'22, §3.3; FastTune Algorithm 2), RTT completions (TIMELY, SIGCOMM'15,
/// §3.1), CNPs (DCQCN, SIGCOMM'15, §3.1) and Bolt's SRCs (NSDI'23, Listing 1 and Algorithm 2).
///
/// @code
/// // A stack's own ACK: tell netcc where the fields are.
/// struct my_ack { std::uint64_t t_ns, cum_ack, nxt; std::uint32_t len; bool ce; };
/// template <> struct netcc::feedback_traits<my_ack> {
///   static netcc::timestamp now(const my_ack& a) { return netcc::timestamp{a.t_ns}; }
///   static netcc::sequence ack_seq(const my_ack& a) { return a.cum_ack; }
///   static netcc::sequence snd_nxt(const my_ack& a) { return a.nxt; }
///   static netcc::bytes acked_bytes(const my_ack& a) { return netcc::bytes{a.len}; }
///   static bool ecn_echo(const my_ack& a) { return a.ce; }
/// };
/// static_assert(netcc::EcnFeedback<my_ack>);
/// @endcode
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>

#include "netcc/core/per_rtt.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/wrap.hpp"

namespace netcc {

/// @brief One switch hop's INT metadata, as HPCC and PowerTCP read it (PowerTCP NSDI'22
/// §3.3 "Feedback"; HPCC SIGCOMM'19 §3.2).
///
/// `ts` and `tx_bytes` are raw readings of counters that wrap; the stack's clock and counter
/// traits (int_stack's `timestamp_clock` and `tx_counter`) say how wide they are and in which
/// unit, and deltas between two readings of one hop are taken with them.
/// @code
/// netcc::int_hop h{.ts = 1000, .qlen = netcc::bytes{3000}, .tx_bytes = 123456,
///                  .link_rate = netcc::bit_rate{100'000'000'000}};
/// @endcode
struct int_hop {
  /// @brief Raw egress timestamp when the packet was scheduled (clock-traits ticks).
  std::uint64_t ts = 0;
  /// @brief Egress queue length when the packet was scheduled.
  bytes qlen{};
  /// @brief Raw transmitted-bytes counter of the egress port (counter-traits units).
  std::uint64_t tx_bytes = 0;
  /// @brief Egress link rate.
  bit_rate link_rate{};
  /// @brief Field-wise equality.
  friend constexpr bool operator==(const int_hop&, const int_hop&) noexcept = default;
};

/// @brief A bounded stack of INT hop records, as an ACK carries it back.
///
/// Pushing onto a full stack is refused (returns false) and changes nothing: a switch never
/// overruns it.
/// @tparam MaxHops largest number of hops carried (HPCC and PowerTCP use 5)
/// @tparam Clock   ClockTraits of `int_hop::ts` (64-bit ns by default; 24-bit on the wire)
/// @tparam Counter CounterTraits of `int_hop::tx_bytes` (64-bit bytes by default)
/// @code
/// netcc::int_stack<> s;
/// s.push({.ts = 10, .qlen = netcc::bytes{0}, .tx_bytes = 0, .link_rate = netcc::bit_rate{1}});
/// assert(s.size() == 1);
/// @endcode
template <std::size_t MaxHops = 5, ClockTraits Clock = wrapping_clock<64>,
          CounterTraits Counter = wrapping_counter<64, 1>>
struct int_stack {
  static_assert(MaxHops >= 1 && MaxHops <= 255, "int_stack: MaxHops in [1, 255]");
  /// @brief Clock traits of the hop timestamps.
  using timestamp_clock = Clock;
  /// @brief Counter traits of the hop tx-byte counters.
  using tx_counter = Counter;
  /// @brief Capacity in hops.
  static constexpr std::size_t max_hops = MaxHops;

  /// @brief Number of records pushed (first: a push reads it and writes the record after it,
  /// so the first hops share its cache line).
  std::uint8_t count = 0;
  /// @brief The hop records; only the first size() are meaningful.
  std::array<int_hop, MaxHops> hops{};

  /// @brief Append `h`; false (and no change) when full.
  constexpr bool push(const int_hop& h) noexcept {
    if (count >= MaxHops) return false;
    hops[count++] = h;
    return true;
  }
  /// @brief Hops held (never more than max_hops, even if `count` was set larger by hand).
  [[nodiscard]] constexpr std::size_t size() const noexcept {
    return count < MaxHops ? count : MaxHops;
  }
  /// @brief Hop `i` (0 = first switch from the sender); `i` must be < size().
  [[nodiscard]] constexpr const int_hop& operator[](std::size_t i) const noexcept {
    return hops[i];
  }
  /// @brief Hop records equal up to size().
  friend constexpr bool operator==(const int_stack& a, const int_stack& b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!(a.hops[i] == b.hops[i])) return false;
    return true;
  }
};

/// @brief An acknowledgment as netcc's own vocabulary: cumulative ACK, flags and INT.
/// @tparam Int the INT stack type carried
/// @code
/// netcc::ack_event a{.now = netcc::timestamp{5000}, .ack_seq = 1500, .snd_nxt = 3000,
///                    .acked = netcc::bytes{1500}};
/// @endcode
template <class Int = int_stack<>>
struct basic_ack_event {
  /// @brief Arrival time of the ACK at the sender.
  timestamp now{};
  /// @brief Cumulative ACK: the next byte the receiver expects.
  sequence ack_seq = 0;
  /// @brief The sender's next byte to send, when the ACK arrived.
  sequence snd_nxt = 0;
  /// @brief Bytes newly acknowledged by this ACK.
  bytes acked{};
  /// @brief RTT sample of the acknowledged segment (zero when the stack has none).
  duration rtt{};
  /// @brief ECN-Echo: the acknowledged data was CE-marked.
  bool ecn_echo = false;
  /// @brief Bolt INC flag reflected by the receiver (Bolt NSDI'23 Algorithm 2).
  bool inc = false;
  /// @brief A switch-generated ACK (FastTune's S-ACK, FastTune Algorithm 1 lines 2-5): it
  /// carries INT of the path up to the switch that made it and acknowledges no data.
  bool switch_ack = false;
  /// @brief INT hop records reflected by the receiver.
  Int hops{};
};

/// @brief netcc's ACK with the default INT stack (5 hops, 64-bit ns timestamps and bytes).
using ack_event = basic_ack_event<>;

/// @brief A completion with an RTT sample (TIMELY's completion event; also fits Swift, Vegas).
/// @code
/// netcc::rtt_event e{.now = netcc::timestamp{90'000}, .rtt = netcc::duration{12'000}};
/// @endcode
struct rtt_event {
  /// @brief Completion time.
  timestamp now{};
  /// @brief The RTT sample (for TIMELY already net of serialisation; see TIMELY §3.1).
  duration rtt{};
  /// @brief Bytes completed by this event.
  bytes acked{};
  /// @brief Cumulative ACK after this completion.
  sequence ack_seq = 0;
  /// @brief The sender's next byte to send.
  sequence snd_nxt = 0;
};

/// @brief A congestion notification packet (DCQCN).
struct cnp_event {
  /// @brief Arrival time of the CNP at the reaction point.
  timestamp now{};
};

/// @brief A Bolt switch-generated "SRC" packet (Bolt NSDI'23 Listing 1 and Algorithm 1).
/// @code
/// netcc::src_event s{.now = netcc::timestamp{7000}, .queue = netcc::bytes{9000},
///                    .link_rate = netcc::bit_rate{100'000'000'000}, .tx_timestamp = 2000};
/// @endcode
struct src_event {
  /// @brief Arrival time of the SRC at the sender (raw clock of `src_clock` is derived from it).
  timestamp now{};
  /// @brief Queue occupancy the switch reported.
  bytes queue{};
  /// @brief Egress link rate the switch reported.
  bit_rate link_rate{};
  /// @brief The data packet's 32-bit TX timestamp, reflected (ns, wraps every 4.3 s).
  std::uint32_t tx_timestamp = 0;
};

/// @brief Customisation point: how netcc reads a stack's event type `E`.
///
/// The primary template is empty, so an unsupported type fails the feedback concepts with a
/// message naming the first missing accessor. Specialise it for each event type of a stack.
template <class E>
struct feedback_traits {};

/// @brief Traits for netcc::basic_ack_event.
template <class Int>
struct feedback_traits<basic_ack_event<Int>> {
  /// @brief The event type.
  using event = basic_ack_event<Int>;
  /// @brief Clock traits of INT timestamps.
  using timestamp_clock = typename Int::timestamp_clock;
  /// @brief Counter traits of INT tx bytes.
  using tx_counter = typename Int::tx_counter;
  /// @brief Arrival time.
  static constexpr timestamp now(const event& e) noexcept { return e.now; }
  /// @brief Cumulative ACK.
  static constexpr sequence ack_seq(const event& e) noexcept { return e.ack_seq; }
  /// @brief snd_nxt at arrival.
  static constexpr sequence snd_nxt(const event& e) noexcept { return e.snd_nxt; }
  /// @brief Newly acknowledged bytes.
  static constexpr bytes acked_bytes(const event& e) noexcept { return e.acked; }
  /// @brief RTT sample.
  static constexpr duration rtt(const event& e) noexcept { return e.rtt; }
  /// @brief ECN-Echo.
  static constexpr bool ecn_echo(const event& e) noexcept { return e.ecn_echo; }
  /// @brief Bolt INC.
  static constexpr bool inc(const event& e) noexcept { return e.inc; }
  /// @brief FastTune S-ACK (switch-generated ACK).
  static constexpr bool switch_ack(const event& e) noexcept { return e.switch_ack; }
  /// @brief Number of INT hops.
  static constexpr std::size_t hop_count(const event& e) noexcept { return e.hops.size(); }
  /// @brief INT hop `i`: a reference into the event for a stack of records (netcc::int_stack:
  /// no copy per hop), the hop read from its word for a stack of wire words
  /// (netcc::int_wire_format::word_stack).
  static constexpr decltype(auto) hop(const event& e, std::size_t i) noexcept { return e.hops[i]; }
};

/// @brief Traits for netcc::rtt_event.
template <>
struct feedback_traits<rtt_event> {
  /// @brief Completion time.
  static constexpr timestamp now(const rtt_event& e) noexcept { return e.now; }
  /// @brief RTT sample.
  static constexpr duration rtt(const rtt_event& e) noexcept { return e.rtt; }
  /// @brief Cumulative ACK.
  static constexpr sequence ack_seq(const rtt_event& e) noexcept { return e.ack_seq; }
  /// @brief snd_nxt at completion.
  static constexpr sequence snd_nxt(const rtt_event& e) noexcept { return e.snd_nxt; }
  /// @brief Completed bytes.
  static constexpr bytes acked_bytes(const rtt_event& e) noexcept { return e.acked; }
};

/// @brief Traits for netcc::cnp_event.
template <>
struct feedback_traits<cnp_event> {
  /// @brief Arrival time.
  static constexpr timestamp now(const cnp_event& e) noexcept { return e.now; }
};

/// @brief Traits for netcc::src_event.
template <>
struct feedback_traits<src_event> {
  /// @brief Clock traits of the reflected TX timestamp: 32 bits of ns.
  using src_clock = wrapping_clock<32>;
  /// @brief Arrival time.
  static constexpr timestamp now(const src_event& e) noexcept { return e.now; }
  /// @brief Reported queue occupancy.
  static constexpr bytes queue_size(const src_event& e) noexcept { return e.queue; }
  /// @brief Reported link rate.
  static constexpr bit_rate link_rate(const src_event& e) noexcept { return e.link_rate; }
  /// @brief Reflected TX timestamp (raw, src_clock ticks).
  static constexpr std::uint64_t tx_timestamp(const src_event& e) noexcept {
    return e.tx_timestamp;
  }
};

// The concepts below check one accessor per line, so a compiler's "required expression ...
// is invalid" note names exactly the accessor a stack's traits lack.

/// @brief The event says when it happened.
template <class E>
concept TimedFeedback = requires(const E& e) {
  { feedback_traits<E>::now(e) } -> std::convertible_to<timestamp>;
};

/// @brief The event is a cumulative acknowledgment.
template <class E>
concept AckFeedback = TimedFeedback<E> && requires(const E& e) {
  { feedback_traits<E>::ack_seq(e) } -> std::convertible_to<sequence>;
  { feedback_traits<E>::snd_nxt(e) } -> std::convertible_to<sequence>;
  { feedback_traits<E>::acked_bytes(e) } -> std::convertible_to<bytes>;
};

/// @brief The event carries an INT hop stack.
template <class E>
concept IntFeedback = AckFeedback<E> && requires(const E& e, std::size_t i) {
  typename feedback_traits<E>::timestamp_clock;
  typename feedback_traits<E>::tx_counter;
  requires ClockTraits<typename feedback_traits<E>::timestamp_clock>;
  requires CounterTraits<typename feedback_traits<E>::tx_counter>;
  { feedback_traits<E>::hop_count(e) } -> std::convertible_to<std::size_t>;
  { feedback_traits<E>::hop(e, i) } -> std::convertible_to<int_hop>;
};

/// @brief The event carries an INT stack whose clock and counter traits are those of `Stack`
/// (the per-hop history an INT controller keeps is sized and wrapped for one stack type).
template <class E, class Stack>
concept IntFeedbackFor =
    IntFeedback<E> && std::same_as < typename feedback_traits<E>::timestamp_clock,
typename Stack::timestamp_clock >
    &&std::same_as<typename feedback_traits<E>::tx_counter, typename Stack::tx_counter>;

/// @brief The event carries an RTT sample.
template <class E>
concept RttFeedback = TimedFeedback<E> && requires(const E& e) {
  { feedback_traits<E>::rtt(e) } -> std::convertible_to<duration>;
};

/// @brief The event is an ACK with an ECN-Echo flag.
template <class E>
concept EcnFeedback = AckFeedback<E> && requires(const E& e) {
  { feedback_traits<E>::ecn_echo(e) } -> std::convertible_to<bool>;
};

/// @brief The event is an ACK with Bolt's INC flag.
template <class E>
concept IncFeedback = AckFeedback<E> && requires(const E& e) {
  { feedback_traits<E>::inc(e) } -> std::convertible_to<bool>;
};

/// @brief The event is an INT ACK that says whether a switch generated it (FastTune's S-ACK).
/// Optional for FastTune: without it every ACK is a host ACK.
template <class E>
concept SwitchAckFeedback = IntFeedback<E> && requires(const E& e) {
  { feedback_traits<E>::switch_ack(e) } -> std::convertible_to<bool>;
};

/// @brief The event is a Bolt SRC packet.
template <class E>
concept SrcFeedback = TimedFeedback<E> && requires(const E& e) {
  typename feedback_traits<E>::src_clock;
  requires ClockTraits<typename feedback_traits<E>::src_clock>;
  { feedback_traits<E>::queue_size(e) } -> std::convertible_to<bytes>;
  { feedback_traits<E>::link_rate(e) } -> std::convertible_to<bit_rate>;
  { feedback_traits<E>::tx_timestamp(e) } -> std::convertible_to<std::uint64_t>;
};

/// @brief The event is a CNP.
template <class E>
concept CnpFeedback = TimedFeedback<E>;

static_assert(IntFeedback<ack_event> && EcnFeedback<ack_event> && IncFeedback<ack_event>);
static_assert(SwitchAckFeedback<ack_event>);
static_assert(RttFeedback<ack_event> && RttFeedback<rtt_event> && AckFeedback<rtt_event>);
static_assert(SrcFeedback<src_event> && CnpFeedback<cnp_event>);

}  // namespace netcc
