// SPDX-License-Identifier: MIT
/// @file
/// @brief The controller contract: what every netcc controller is, the events it can consume,
/// and the trait that says which ones it does, so that an adapter (a NIC driver, a user-space
/// transport, ns-3, the testbench) is written once for all controllers.
///
/// One naming scheme for events, one handler per event, one unit per output:
///
/// | event          | handler                | argument                              | consumed by                       |
/// | -------------- | ---------------------- | ------------------------------------- | --------------------------------- |
/// | `ack`          | `on_ack(e)`            | an ACK (netcc::AckFeedback and what the controller reads from it) | PowerTCP, θ-PowerTCP, HPCC, FastTune, Swift, DCTCP, Vegas, Bolt, TIMELY |
/// | `rtt`          | `on_rtt(e)`            | an RTT completion (netcc::RttFeedback) | none by default (TIMELY offers it; see below) |
/// | `cnp`          | `on_cnp(e)`            | a CNP (netcc::CnpFeedback)             | DCQCN                             |
/// | `src`          | `on_src(e)`            | a Bolt SRC (netcc::SrcFeedback)        | Bolt                              |
/// | `timer`        | `on_timer(now)`        | netcc::timestamp                       | DCQCN                             |
/// | `send`         | `on_send(payload, now)`| netcc::bytes, netcc::timestamp         | DCQCN, TIMELY, DCTCP, Bolt        |
/// | `loss`         | `on_loss(e)`           | the event that revealed a loss (netcc::TimedFeedback or more) | Swift, DCTCP, Vegas, Bolt |
/// | `timeout`      | `on_timeout(now)`      | netcc::timestamp                       | Swift, DCTCP, Vegas, Bolt         |
///
/// Outputs, for every controller: `cwnd()` as netcc::bytes (bytes::max() for a purely rate-based
/// controller: no window limit) and `pacing_rate()` as netcc::bit_rate (bit_rate::max() for a
/// purely window-based controller: not paced). Internal units stay internal (Swift's window in
/// packets is `window()`, DCQCN's Mbps are `rate()`). `params()` returns the parameter struct.
///
/// Each controller declares the events it consumes as `static constexpr event_set events`;
/// netcc::controller_traits reads it (specialise the trait to adapt a controller of one's own),
/// and netcc::consumes asks it. An adapter delivers an event only when the controller consumes
/// it, so a stack that sees every event type needs no per-controller glue:
///
/// Sources: the events are those of the papers' senders: ACKs (DCTCP, Vegas, Swift, PowerTCP
/// Algorithm 1, HPCC Algorithm 1, FastTune Algorithm 2, Bolt Algorithm 2), RTT completions (TIMELY
/// Algorithm 1), CNPs and timers (DCQCN §3.1), SRCs (Bolt Algorithm 2), sends (CWR, RFC 3168
/// §6.1.2), losses and timeouts (RFC 5681).
///
/// @code
/// template <netcc::Controller C>
/// void deliver_ack(C& cc, const my_stack::ack& a) {
///   if constexpr (netcc::consumes<C>(netcc::cc_event::ack)) cc.on_ack(a);
///   nic.set_window(cc.cwnd());          // bytes
///   nic.set_rate(cc.pacing_rate());     // bit_rate
/// }
/// @endcode
///
/// Per-paper names stay as documented aliases where a paper's vocabulary helps: TIMELY's
/// `on_rtt(e)` (its §3.1 completion event, for a stack that already subtracts serialisation),
/// Swift's `on_fast_recovery(now)` (= `on_loss`), Bolt's `on_write(len)` (its byte counters),
/// DCQCN's `rate()` and Swift's `window()`.
///
/// Why it is shaped so: events differ per stack (an ACK type of the stack's own, read through
/// netcc::feedback_traits), so the concept cannot name one event type; netcc::Controller checks
/// what does not depend on the stack (outputs, parameters, the timestamp- and byte-valued
/// handlers), and netcc::ControllerFor checks the handlers of the stack's event types. An
/// event set that is a value (not a list of types) lets `if constexpr` select handlers, as
/// above, without instantiating any handler the controller does not have.
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>

#include "netcc/core/arith.hpp"
#include "netcc/core/detail/int128.hpp"
#include "netcc/core/feedback.hpp"
#include "netcc/core/units.hpp"

namespace netcc {

/// @brief The events a controller may consume (see the table in this header).
enum class cc_event : std::uint8_t { ack, rtt, cnp, src, timer, send, loss, timeout };

/// @brief A set of netcc::cc_event values.
/// @code
/// constexpr netcc::event_set e = netcc::cc_event::ack | netcc::cc_event::timeout;
/// static_assert(e.contains(netcc::cc_event::ack) && !e.contains(netcc::cc_event::cnp));
/// @endcode
class event_set {
 public:
  /// @brief The empty set.
  constexpr event_set() noexcept = default;
  /// @brief The set of one event.
  constexpr event_set(cc_event e) noexcept  // NOLINT(google-explicit-constructor): a set of one
      : bits_(static_cast<std::uint16_t>(1u << static_cast<unsigned>(e))) {}
  /// @brief Whether `e` is in the set.
  [[nodiscard]] constexpr bool contains(cc_event e) const noexcept {
    return (bits_ & event_set{e}.bits_) != 0;
  }
  /// @brief Whether the set is empty.
  [[nodiscard]] constexpr bool empty() const noexcept { return bits_ == 0; }
  /// @brief The union of two sets.
  [[nodiscard]] friend constexpr event_set operator|(event_set a, event_set b) noexcept {
    event_set s;
    s.bits_ = static_cast<std::uint16_t>(a.bits_ | b.bits_);
    return s;
  }
  /// @brief Equal sets.
  friend constexpr bool operator==(event_set, event_set) noexcept = default;

 private:
  std::uint16_t bits_ = 0;
};

/// @brief The union of two events.
[[nodiscard]] constexpr event_set operator|(cc_event a, cc_event b) noexcept {
  return event_set{a} | event_set{b};
}

/// @brief What netcc knows about a controller type: its parameter struct and the events it
/// consumes. Empty for a type that declares neither (so netcc::Controller is false for it, not
/// an error); specialise it for a controller written outside netcc that spells them otherwise.
template <class C>
struct controller_traits {};

/// @brief The traits of a controller that declares `params_type` and `events` itself, as every
/// netcc controller does.
template <class C>
requires requires {
  typename C::params_type;
  { C::events } -> std::convertible_to<event_set>;
}
struct controller_traits<C> {
  /// @brief The parameter struct the controller is built from and returns from params().
  using params_type = typename C::params_type;
  /// @brief The events the controller consumes.
  static constexpr event_set events = C::events;
};

/// @brief Whether controller type `C` consumes event `e` (a constant expression).
/// @code
/// static_assert(netcc::consumes<netcc::dcqcn>(netcc::cc_event::cnp));
/// @endcode
template <class C>
[[nodiscard]] consteval bool consumes(cc_event e) noexcept {
  return controller_traits<C>::events.contains(e);
}

namespace detail {
template <class C>
concept has_controller_traits = requires {
  typename controller_traits<C>::params_type;
  { controller_traits<C>::events } -> std::convertible_to<event_set>;
};
}  // namespace detail

// One concept per handler, so a compiler's note names the handler that is missing.

/// @brief `C` handles timer ticks: `on_timer(now)`.
template <class C>
concept TimerConsumer = requires(C& c, timestamp now) {
  c.on_timer(now);
};
/// @brief `C` is told of each packet sent: `on_send(payload, now)`.
template <class C>
concept SendConsumer = requires(C& c, bytes payload, timestamp now) {
  c.on_send(payload, now);
};
/// @brief `C` handles retransmission timeouts: `on_timeout(now)`.
template <class C>
concept TimeoutConsumer = requires(C& c, timestamp now) {
  c.on_timeout(now);
};
/// @brief `C` handles ACKs of type `E`: `on_ack(e)`.
template <class C, class E>
concept AckConsumer = requires(C& c, const E& e) {
  c.on_ack(e);
};
/// @brief `C` handles RTT completions of type `E`: `on_rtt(e)`.
template <class C, class E>
concept RttConsumer = requires(C& c, const E& e) {
  c.on_rtt(e);
};
/// @brief `C` handles losses revealed by events of type `E`: `on_loss(e)`.
template <class C, class E>
concept LossConsumer = requires(C& c, const E& e) {
  c.on_loss(e);
};
/// @brief `C` handles CNPs of type `E`: `on_cnp(e)`.
template <class C, class E>
concept CnpConsumer = requires(C& c, const E& e) {
  c.on_cnp(e);
};
/// @brief `C` handles Bolt SRCs of type `E`: `on_src(e)`.
template <class C, class E>
concept SrcConsumer = requires(C& c, const E& e) {
  c.on_src(e);
};

/// @brief A netcc controller: a copyable value with a parameter struct, the two outputs in
/// netcc's units, and a handler for every stack-independent event it says it consumes.
///
/// The stack-dependent handlers (ACK, RTT, loss, CNP, SRC: their argument is the stack's own
/// event type) are checked by netcc::ControllerFor.
/// @code
/// static_assert(netcc::Controller<netcc::powertcp>);
/// @endcode
template <class C>
concept Controller = std::copyable<C> && detail::has_controller_traits<C> && requires(const C& c) {
  { c.params() } -> std::convertible_to<typename controller_traits<C>::params_type>;
  { c.cwnd() } -> std::same_as<bytes>;
  { c.pacing_rate() } -> std::same_as<bit_rate>;
} &&(!consumes<C>(cc_event::timer) ||
     TimerConsumer<C>)&&(!consumes<C>(cc_event::send) ||
                         SendConsumer<C>)&&(!consumes<C>(cc_event::timeout) || TimeoutConsumer<C>);

/// @brief `C` is a controller that can take a stack's events: ACKs (and the losses they reveal,
/// and RTT completions) of type `Ack`, CNPs of type `Cnp` and SRCs of type `Src`, for every
/// one of those events it consumes.
/// @code
/// static_assert(netcc::ControllerFor<netcc::hpcc, netcc::ack_event>);
/// static_assert(!netcc::ControllerFor<netcc::hpcc, netcc::rtt_event>);   // no INT stack
/// @endcode
template <class C, class Ack, class Cnp = cnp_event, class Src = src_event>
concept ControllerFor = Controller<C> &&(!consumes<C>(cc_event::ack) || AckConsumer<C, Ack>)&&(
    !consumes<C>(cc_event::rtt) ||
    RttConsumer<C, Ack>)&&(!consumes<C>(cc_event::loss) ||
                           LossConsumer<C, Ack>)&&(!consumes<C>(cc_event::cnp) ||
                                                   CnpConsumer<
                                                       C, Cnp>)&&(!consumes<C>(cc_event::src) ||
                                                                  SrcConsumer<C, Src>);

namespace detail {

// The quotient a / b of two numbers of a controller's policy, the same value as operator/: for
// double, a / b; for netcc::fixed_point (rounded to nearest, ties away from zero, saturating,
// x / 0 saturated with the sign of x), by one 128/64-bit division (detail::udiv_128_64: the
// hardware's on x86-64) when the rounded quotient's magnitude fits 64 bits (it does whenever
// it is within range), instead of the signed 128-bit division operator/ goes through.
template <class T>
[[nodiscard]] constexpr T quotient(T a, T b) noexcept {
  return a / b;
}
template <int I, int F>
[[nodiscard]] constexpr fixed_point<I, F> quotient(fixed_point<I, F> a,
                                                   fixed_point<I, F> b) noexcept {
  if (b.raw() != 0) {
    using fp = fixed_point<I, F>;
    const bool neg = (a.raw() < 0) != (b.raw() < 0);
    // |raw| <= raw_max < 2^63: the magnitudes are exact in 64 bits.
    const std::uint64_t ma =
        a.raw() < 0 ? 0 - static_cast<std::uint64_t>(a.raw()) : static_cast<std::uint64_t>(a.raw());
    const std::uint64_t mb =
        b.raw() < 0 ? 0 - static_cast<std::uint64_t>(b.raw()) : static_cast<std::uint64_t>(b.raw());
    const u128 n = (u128{ma} << F) + mb / 2;         // as div_nearest: (|n| + |d| / 2) / |d|
    if (static_cast<std::uint64_t>(n >> 64) < mb) {  // the quotient fits 64 bits
      const std::uint64_t q = udiv_128_64(n, mb);
      const auto lim = static_cast<std::uint64_t>(fp::raw_max);
      const auto m = static_cast<std::int64_t>(q < lim ? q : lim);
      return fp::from_raw(neg ? -m : m);
    }
  }
  return a / b;
}

}  // namespace detail

}  // namespace netcc
