// SPDX-License-Identifier: MIT
/// @file
/// @brief The netcc half of the ns-3 adapter (C++20, no ns-3 headers): any netcc controller
/// behind netcc::ns3::controller, and its parameters as ns-3 Attributes.
///
/// The adapter is written once over netcc's controller contract
/// (netcc/control/controller_concepts.hpp): bridge_model<C> forwards to `C` exactly the events
/// controller_traits<C>::events names, through the contract's handlers, and reads the contract's
/// cwnd() and pacing_rate(). A controller kind is its type plus a table of fields (member
/// pointer, Attribute name, netcc field name, help); register_controller() publishes it as an
/// ns-3 TypeId whose Attributes are checked by netcc's own validate().
///
/// A user's own controller joins the same way, from a C++20 translation unit:
/// @code
/// #include "netcc-ns3/register.hpp"
/// static const bool registered = netcc::ns3::register_controller<my_cc>(
///     "my-cc", "ns3::MyCc", "my controller (paper, section)", netcc::ns3::feedback_need::rtt,
///     {netcc::ns3::field<&my_cc_params::gain>("Gain", "my_cc.gain", "the gain")});
/// @endcode
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "netcc-ns3/bridge.h"
#include "netcc/control/controller_concepts.hpp"
#include "netcc/control/make.hpp"
#include "netcc/core/feedback.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/validation.hpp"

namespace netcc::ns3 {

/// @brief One field of a parameter struct `P` as an Attribute: how to read and write it.
template <class P>
struct field_binding {
  param_info info;                                   ///< Name, netcc field, help, kind, default.
  void (*set)(P&, const param_value&, const void*);  ///< Write a value into `P`.
  param_value (*get)(const P&, const void*);         ///< Read it back.
  const void* member;                                ///< The member pointer, type-erased.
  bool is_mss = false;                               ///< Set from the socket's segment size.
};

namespace detail {

template <class T>
[[nodiscard]] constexpr value_kind kind_of() {
  if constexpr (std::is_same_v<T, double>) {
    return value_kind::real;
  } else if constexpr (std::is_same_v<T, bool>) {
    return value_kind::boolean;
  } else if constexpr (std::is_same_v<T, bytes>) {
    return value_kind::bytes;
  } else if constexpr (std::is_same_v<T, duration>) {
    return value_kind::time;
  } else if constexpr (std::is_same_v<T, bit_rate>) {
    return value_kind::rate;
  } else if constexpr (std::is_enum_v<T>) {
    return value_kind::choice;
  } else {
    static_assert(std::is_integral_v<T>, "netcc::ns3::field: unsupported member type");
    return value_kind::integer;
  }
}

template <class T>
[[nodiscard]] param_value to_value(const T& v) {
  param_value out;
  if constexpr (std::is_same_v<T, double>) {
    out.real = v;
  } else if constexpr (std::is_same_v<T, bool>) {
    out.integer = v ? 1 : 0;
  } else if constexpr (std::is_same_v<T, bytes>) {
    out.integer = v.count();
  } else if constexpr (std::is_same_v<T, duration>) {
    out.integer = v.count();
  } else if constexpr (std::is_same_v<T, bit_rate>) {
    out.integer = v.bps();
  } else if constexpr (std::is_enum_v<T>) {
    out.integer = static_cast<std::int64_t>(v);
  } else {
    out.integer = static_cast<std::int64_t>(v);
  }
  return out;
}

// Integers from ns-3 are clamped into T's range: netcc's validate() then names an out-of-range
// value by its clamped form rather than a silently wrapped one.
template <class T>
[[nodiscard]] T from_value(const param_value& v) {
  if constexpr (std::is_same_v<T, double>) {
    return v.real;
  } else if constexpr (std::is_same_v<T, bool>) {
    return v.integer != 0;
  } else if constexpr (std::is_same_v<T, bytes>) {
    return bytes{v.integer};
  } else if constexpr (std::is_same_v<T, duration>) {
    return duration{v.integer};
  } else if constexpr (std::is_same_v<T, bit_rate>) {
    return bit_rate{v.integer};
  } else if constexpr (std::is_enum_v<T>) {
    using U = std::underlying_type_t<T>;
    const auto lo = static_cast<std::int64_t>(std::numeric_limits<U>::min());
    const auto hi = static_cast<std::int64_t>(std::numeric_limits<U>::max());
    return static_cast<T>(static_cast<U>(v.integer < lo ? lo : v.integer > hi ? hi : v.integer));
  } else {
    if constexpr (std::is_signed_v<T>) {
      const auto lo = static_cast<std::int64_t>(std::numeric_limits<T>::min());
      const auto hi = static_cast<std::int64_t>(std::numeric_limits<T>::max());
      return static_cast<T>(v.integer < lo ? lo : v.integer > hi ? hi : v.integer);
    } else {
      const auto hi = std::numeric_limits<T>::max();
      if (v.integer < 0) return T{0};
      return static_cast<std::uint64_t>(v.integer) > static_cast<std::uint64_t>(hi)
                 ? hi
                 : static_cast<T>(v.integer);
    }
  }
}

template <class P, class T>
void set_member(P& p, const param_value& v, const void* m) {
  p.*(*static_cast<T P::*const*>(m)) = from_value<T>(v);
}

template <class P, class T>
[[nodiscard]] param_value get_member(const P& p, const void* m) {
  return to_value(p.*(*static_cast<T P::*const*>(m)));
}

template <class M>
struct member_traits;
template <class Q, class T>
struct member_traits<T Q::*> {
  using owner = Q;
  using type = T;
};

// Member pointers live for the program's life: the binding keeps a pointer to this copy.
template <class P, class T, T P::*M>
inline constexpr T P::*member_ptr = M;

}  // namespace detail

/// @brief A field of `P` exposed as Attribute `attribute` (netcc field name `netcc_field`, as
/// netcc's validate() spells it). `choices` names an enum's values in order.
/// @code
/// auto f = netcc::ns3::field<&netcc::vegas_params::alpha>("Alpha", "vegas.alpha", "alpha, packets");
/// @endcode
template <auto M>
[[nodiscard]] auto field(std::string attribute, std::string netcc_field, std::string help,
                         std::vector<std::string> choices = {}) {
  using Q = typename detail::member_traits<decltype(M)>::owner;
  using T = typename detail::member_traits<decltype(M)>::type;
  field_binding<Q> b;
  b.info.attribute = std::move(attribute);
  b.info.field = std::move(netcc_field);
  b.info.help = std::move(help);
  b.info.kind = detail::kind_of<T>();
  b.info.initial = detail::to_value(Q{}.*M);
  b.info.choices = std::move(choices);
  b.set = &detail::set_member<Q, T>;
  b.get = &detail::get_member<Q, T>;
  b.member = &detail::member_ptr<Q, T, M>;
  return b;
}

/// @brief Mark a binding as the controller's MSS: not an Attribute, but set from the TCP
/// socket's SegmentSize (or the rate transport's payload size) so the two cannot disagree.
template <class P>
[[nodiscard]] field_binding<P> mss_field(field_binding<P> b) {
  b.is_mss = true;
  return b;
}

/// @brief netcc controller `C` behind netcc::ns3::controller: each event reaches `C` only if
/// `C` consumes it (controller_traits<C>::events), converted to netcc's feedback structs.
/// @brief What a stack knows when a data packet leaves (the send-view form of on_send).
struct send_view {
  timestamp now{};    ///< When it leaves.
  bytes payload{};    ///< Its payload.
  bytes remaining{};  ///< The application's bytes after it (bytes::max(): without end).
};

/// @brief The marks a controller may set on a packet (Bolt's FIRST, LAST, INC).
struct mark_view {
  bool first = false;  ///< FIRST.
  bool last = false;   ///< LAST.
  bool inc = false;    ///< INC.
};

template <Controller C>
class bridge_model final : public controller {
  static constexpr event_set events = controller_traits<C>::events;

 public:
  /// @brief Wrap `c`.
  explicit bridge_model(C c) : c_(std::move(c)) {}

  void on_ack(const ack_info& a) override {
    if constexpr (events.contains(cc_event::ack)) c_.on_ack(to_event(a));
  }
  void on_loss(const ack_info& a) override {
    if constexpr (events.contains(cc_event::loss)) c_.on_loss(to_event(a));
  }
  void on_timeout(std::int64_t now) override {
    if constexpr (events.contains(cc_event::timeout)) c_.on_timeout(timestamp{now});
  }
  unsigned on_send(std::uint64_t payload, std::uint64_t remaining, std::int64_t now) override {
    if constexpr (events.contains(cc_event::send)) {
      const send_view v{timestamp{now}, bytes{clamp_i64(payload)},
                        remaining == std::numeric_limits<std::uint64_t>::max()
                            ? bytes::max()
                            : bytes{clamp_i64(remaining)}};
      if constexpr (requires(mark_view m) { c_.on_send(v, m); }) {
        // The stack's form (Bolt §4.2): the application's remaining bytes decide LAST.
        mark_view m;
        c_.on_send(v, m);
        return (m.first ? mark_first : 0u) | (m.last ? mark_last : 0u) | (m.inc ? mark_inc : 0u);
      } else {
        static_cast<void>(c_.on_send(v.payload, v.now));
      }
    }
    return 0;
  }
  void on_cnp(std::int64_t now) override {
    if constexpr (events.contains(cc_event::cnp)) c_.on_cnp(cnp_event{timestamp{now}});
  }
  void on_src(const src_info& s) override {
    if constexpr (events.contains(cc_event::src))
      c_.on_src(src_event{timestamp{s.now_ns}, bytes{clamp_i64(s.queue)},
                          bit_rate{clamp_i64(s.rate_bps)}, s.tx_timestamp});
  }
  void on_timer(std::int64_t now) override {
    if constexpr (events.contains(cc_event::timer)) c_.on_timer(timestamp{now});
  }
  [[nodiscard]] std::uint64_t cwnd() const override {
    const bytes w = c_.cwnd();
    return w == bytes::max() ? std::numeric_limits<std::uint64_t>::max()
                             : static_cast<std::uint64_t>(w.count() < 0 ? 0 : w.count());
  }
  [[nodiscard]] std::uint64_t pacing_bps() const override {
    const bit_rate r = c_.pacing_rate();
    return r == bit_rate::max() ? std::numeric_limits<std::uint64_t>::max()
                                : static_cast<std::uint64_t>(r.bps() < 0 ? 0 : r.bps());
  }
  [[nodiscard]] std::unique_ptr<controller> clone() const override {
    return std::make_unique<bridge_model>(*this);
  }
  /// @brief The wrapped controller.
  [[nodiscard]] const C& get() const noexcept { return c_; }

 private:
  static std::int64_t clamp_i64(std::uint64_t v) {
    return v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
               ? std::numeric_limits<std::int64_t>::max()
               : static_cast<std::int64_t>(v);
  }
  static ack_event to_event(const ack_info& a) {
    ack_event e;
    e.now = timestamp{a.now_ns};
    e.ack_seq = a.ack_seq;
    e.snd_nxt = a.snd_nxt;
    e.acked = bytes{clamp_i64(a.acked)};
    e.rtt = duration{a.rtt_ns < 0 ? 0 : a.rtt_ns};
    e.ecn_echo = a.ecn_echo;
    e.inc = a.inc;
    e.switch_ack = a.switch_ack;
    const std::size_t n = a.hop_count < max_int_hops ? a.hop_count : max_int_hops;
    for (std::size_t i = 0; i < n; ++i) {
      const hop_record& h = a.hops[i];
      static_cast<void>(e.hops.push(
          int_hop{h.ts_ns, bytes{clamp_i64(h.qlen)}, h.tx_bytes, bit_rate{clamp_i64(h.rate_bps)}}));
    }
    return e;
  }

  C c_;
};

namespace detail {

[[nodiscard]] inline std::string join_errors(const validation& v, std::string_view only = {}) {
  std::string s;
  for (const auto& e : v) {
    if (!only.empty() && e.field != only) continue;
    s += (s.empty() ? "" : "; ") + e.message();
  }
  return s;
}

[[nodiscard]] constexpr unsigned event_bits(event_set s) {
  unsigned bits = 0;
  for (unsigned i = 0; i < 8; ++i)
    if (s.contains(static_cast<cc_event>(i))) bits |= 1u << i;
  return bits;
}

}  // namespace detail

/// @brief The controller kind for netcc controller `C` (parameters `P`), as ns-3 TypeId
/// `type_id`, with `fields` as its Attributes. `adjust` (may be null) fills derived parameters
/// after the Attributes are applied.
template <Controller C, class P = typename controller_traits<C>::params_type>
[[nodiscard]] controller_kind make_kind(std::string name, std::string type_id,
                                        std::string description, feedback_need need,
                                        std::vector<field_binding<P>> fields) {
  static_assert(ControllerFor<C, ack_event>, "the adapter feeds netcc::ack_event");
  controller_kind k;
  k.name = std::move(name);
  k.type_id = std::move(type_id);
  k.description = std::move(description);
  k.events = detail::event_bits(controller_traits<C>::events);
  k.need = need;
  std::vector<field_binding<P>> attrs;
  std::vector<field_binding<P>> mss;
  for (auto& f : fields) (f.is_mss ? mss : attrs).push_back(f);
  k.window_in_mss = !mss.empty();
  for (const auto& f : attrs) k.params.push_back(f.info);
  k.check_field = [attrs](std::size_t index, const param_value& v) -> std::string {
    if (index >= attrs.size()) return "no such parameter";
    P p{};
    attrs[index].set(p, v, attrs[index].member);
    return detail::join_errors(validate(p), attrs[index].info.field);
  };
  k.make = [attrs, mss](const std::vector<param_value>& values, std::uint32_t seg,
                        std::string& error) -> std::unique_ptr<controller> {
    P p{};
    for (std::size_t i = 0; i < attrs.size() && i < values.size(); ++i)
      attrs[i].set(p, values[i], attrs[i].member);
    if (seg > 0) {
      param_value v;
      v.integer = seg;
      for (const auto& f : mss) f.set(p, v, f.member);
    }
    auto made = netcc::make<C>(p);
    if (!made) {
      error = detail::join_errors(made.errors());
      return nullptr;
    }
    return std::make_unique<bridge_model<C>>(std::move(made).value());
  };
  return k;
}

/// @brief make_kind(), add_controller_kind() and register_type_ids(): `C` becomes ns-3 TypeId
/// `type_id` (and `type_id` + "Sender" on the rate transport). Returns false if the name or
/// TypeId is taken.
template <Controller C, class P = typename controller_traits<C>::params_type>
bool register_controller(std::string name, std::string type_id, std::string description,
                         feedback_need need, std::vector<field_binding<P>> fields) {
  if (!add_controller_kind(make_kind<C, P>(std::move(name), std::move(type_id),
                                           std::move(description), need, std::move(fields))))
    return false;
  register_type_ids();
  return true;
}

}  // namespace netcc::ns3
