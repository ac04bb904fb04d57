// SPDX-License-Identifier: MIT
/// @file
/// @brief How the testbench drives a controller: a small run-time interface, and an adapter
/// that fits any netcc controller to it through the feedback structs a real stack would use.
///
/// Controllers themselves have no virtual functions; the testbench needs to hold different
/// controllers in one network, so it wraps each in netcc::testbench::cc_model<C>, which
/// forwards only the events the controller consumes (detected with requires-expressions) and
/// reads its outputs.
///
/// Sources: none beyond the controllers' own; the adapter follows the contract of
/// netcc/control/controller_concepts.hpp.
///
/// @code
/// std::unique_ptr<netcc::testbench::sender_cc> cc =
///     std::make_unique<netcc::testbench::cc_model<netcc::dctcp>>("dctcp", netcc::dctcp_params{});
/// cc->on_ack(netcc::ack_event{.now = netcc::timestamp{1000}, .ack_seq = 1460,
///                             .snd_nxt = 2920, .acked = netcc::bytes{1460}});
/// netcc::bytes w = cc->cwnd();
/// @endcode
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "netcc/control/controller_concepts.hpp"
#include "netcc/core/feedback.hpp"
#include "netcc/core/units.hpp"
#include "netcc/testbench/packet.hpp"

namespace netcc::testbench {

/// @brief What a sender knows when it sends a packet (for send-side helpers such as Bolt's
/// FIRST/LAST marking and DCQCN's byte counter).
struct send_info {
  /// @brief When the packet leaves the host.
  timestamp now{};
  /// @brief Payload bytes.
  bytes payload{};
  /// @brief Bytes the flow still has to send after this packet (bytes::max() if unbounded).
  bytes remaining{};
  /// @brief snd_nxt after this packet.
  sequence snd_nxt = 0;
};

/// @brief The run-time face of a controller inside the testbench.
class sender_cc {
 public:
  /// @brief Virtual destructor: held by pointer.
  virtual ~sender_cc() = default;
  /// @brief An ACK arrived (with INT, ECN echo, INC and an RTT sample).
  virtual void on_ack(const ack_event& a) = 0;
  /// @brief A Bolt SRC arrived.
  virtual void on_src(const src_event&) {}
  /// @brief A DCQCN CNP arrived.
  virtual void on_cnp(const cnp_event&) {}
  /// @brief A data packet is about to leave; the controller may set flags on it.
  virtual void on_send(const send_info&, packet&) {}
  /// @brief Whether on_send() may change the controller or the packet (false: the engine need
  /// not call it, nor read cwnd() and pacing_rate() again after a send).
  [[nodiscard]] virtual bool consumes_send() const { return true; }
  /// @brief The retransmission timer fired (go-back-N follows).
  virtual void on_timeout(timestamp) {}
  /// @brief Periodic tick (every tick_interval()).
  virtual void on_tick(timestamp) {}
  /// @brief Period of on_tick; zero for none.
  [[nodiscard]] virtual duration tick_interval() const { return duration::zero(); }
  /// @brief Congestion window (bytes::max() for purely rate-based controllers).
  [[nodiscard]] virtual bytes cwnd() const = 0;
  /// @brief Pacing rate (bit_rate::max() for purely window-based controllers).
  [[nodiscard]] virtual bit_rate pacing_rate() const = 0;
  /// @brief The controller's congestion estimate alpha (DCQCN's and DCTCP's; for the time
  /// series), or 0 for a controller without one.
  [[nodiscard]] virtual double alpha() const { return 0.0; }
  /// @brief Display name.
  [[nodiscard]] virtual std::string name() const = 0;
};

/// @brief The events `C` consumes: netcc::controller_traits<C>::events for a netcc::Controller;
/// for a test double without traits, the events it has handlers for.
template <class C>
[[nodiscard]] consteval event_set testbench_events() {
  if constexpr (requires { controller_traits<C>::events; }) {
    return controller_traits<C>::events;
  } else {
    event_set e;
    if constexpr (requires(C & c, const ack_event& a) { c.on_ack(a); }) e = e | cc_event::ack;
    if constexpr (requires(C & c, const src_event& a) { c.on_src(a); }) e = e | cc_event::src;
    if constexpr (requires(C & c, const cnp_event& a) { c.on_cnp(a); }) e = e | cc_event::cnp;
    if constexpr (requires(C & c, timestamp t) { c.on_timer(t); }) e = e | cc_event::timer;
    if constexpr (requires(C & c, timestamp t) { c.on_timeout(t); }) e = e | cc_event::timeout;
    if constexpr (requires(C & c, const send_info& i, packet& p) { c.on_send(i, p); })
      e = e | cc_event::send;
    return e;
  }
}

/// @brief Adapter from any netcc controller `C` to sender_cc, written once over the controller
/// contract (netcc/control/controller_concepts.hpp): each event goes to `C` only if `C`
/// consumes it (netcc::testbench::testbench_events), through the contract's handler. A send
/// goes to `on_send(info, packet)` when `C` has that form (Bolt marks the packet), else to the
/// contract's `on_send(payload, now)`. Outputs are the contract's `cwnd()` and `pacing_rate()`
/// (a test double without them reads as unlimited).
/// @code
/// auto cc = std::make_unique<netcc::testbench::cc_model<netcc::dctcp>>("dctcp", netcc::dctcp_params{});
/// @endcode
template <class C>
class cc_model final : public sender_cc {
  static constexpr event_set events = testbench_events<C>();

 public:
  /// @brief Construct the controller from `args`, naming it `name`.
  template <class... Args>
  explicit cc_model(std::string name, Args&&... args)
      : c_(std::forward<Args>(args)...), name_(std::move(name)) {}

  /// @copydoc sender_cc::on_ack
  void on_ack(const ack_event& a) override {
    if constexpr (events.contains(cc_event::ack)) c_.on_ack(a);
  }
  /// @copydoc sender_cc::on_src
  void on_src(const src_event& s) override {
    if constexpr (events.contains(cc_event::src)) c_.on_src(s);
  }
  /// @copydoc sender_cc::on_cnp
  void on_cnp(const cnp_event& e) override {
    if constexpr (events.contains(cc_event::cnp)) c_.on_cnp(e);
  }
  /// @copydoc sender_cc::on_send
  void on_send(const send_info& s, packet& p) override {
    if constexpr (events.contains(cc_event::send)) {
      if constexpr (requires { c_.on_send(s, p); }) {
        c_.on_send(s, p);
      } else {
        c_.on_send(s.payload, s.now);
      }
    }
  }
  /// @copydoc sender_cc::consumes_send
  [[nodiscard]] bool consumes_send() const override { return events.contains(cc_event::send); }
  /// @copydoc sender_cc::on_timeout
  void on_timeout(timestamp now) override {
    if constexpr (events.contains(cc_event::timeout)) c_.on_timeout(now);
  }
  /// @copydoc sender_cc::on_tick
  void on_tick(timestamp now) override {
    if constexpr (events.contains(cc_event::timer)) c_.on_timer(now);
  }
  /// @copydoc sender_cc::tick_interval
  [[nodiscard]] duration tick_interval() const override { return tick_; }
  /// @copydoc sender_cc::cwnd
  [[nodiscard]] bytes cwnd() const override {
    if constexpr (requires { c_.cwnd(); }) {
      return c_.cwnd();
    } else {
      return bytes::max();
    }
  }
  /// @copydoc sender_cc::pacing_rate
  [[nodiscard]] bit_rate pacing_rate() const override {
    if constexpr (requires { c_.pacing_rate(); }) {
      return c_.pacing_rate();
    } else {
      return bit_rate::max();
    }
  }
  /// @copydoc sender_cc::name
  [[nodiscard]] std::string name() const override { return name_; }
  [[nodiscard]] double alpha() const override {
    if constexpr (requires { static_cast<double>(c_.alpha()); }) {
      return static_cast<double>(c_.alpha());
    } else if constexpr (requires { c_.alpha().to_double(); }) {
      return c_.alpha().to_double();
    } else {
      return 0.0;
    }
  }
  /// @brief Set the on_tick period (for controllers with timers).
  void set_tick(duration d) { tick_ = d; }
  /// @brief The wrapped controller.
  [[nodiscard]] const C& controller() const { return c_; }

 private:
  C c_;  // first: the lines an event reads follow the object's vtable pointer
  duration tick_{};
  std::string name_;
};

/// @brief A fixed window and no pacing: the engine's test double (not a congestion
/// controller; it never reacts to feedback).
class fixed_window {
 public:
  /// @brief A constant window of `w`.
  explicit fixed_window(bytes w) : w_(w) {}
  /// @brief Ignores feedback.
  void on_ack(const ack_event&) noexcept {}
  /// @brief The constant window.
  [[nodiscard]] bytes cwnd() const noexcept { return w_; }

 private:
  bytes w_;
};

}  // namespace netcc::testbench
