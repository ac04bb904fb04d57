// SPDX-License-Identifier: MIT
/// @file
/// @brief Parameters of the P4 emitter: the fabric functions' own parameter structs plus the
/// switch's sizes, validated with netcc::validation, and set from `key=value` strings.
///
/// The P4 programs (netcc/adapters/p4/emitter.hpp) are parameterised exactly as the C++
/// functions are: every field of netcc::int_push_params, netcc::red_ecn_params,
/// netcc::bolt_params, netcc::fasttune_switch_params, netcc::dcqcn_np_params and
/// netcc::token_bucket_params has a key. What only a switch has (the number of ports, the
/// size of the per-flow register arrays, the ports' line rate) is added here, with the rules
/// the P4 forms need (see docs/p4.md for why each exists).
///
/// Sources: the papers of the fabric functions whose parameters these are (cited in
/// netcc/fabric/ and netcc/adapters/p4/emitter.hpp); for the switch's sizes, the P4_16 language
/// specification and the v1model architecture that BMv2's simple_switch implements.
///
/// | key                                  | field                                | unit / form        |
/// | ------------------------------------ | ------------------------------------ | ------------------ |
/// | p4.ports                             | emit_params::ports                   | count, [2, 512]    |
/// | p4.flows                             | emit_params::flows                   | power of two       |
/// | p4.link_rate                         | emit_params::link_rate               | bps, or `100G`     |
/// | int_push.max_hops                    | int_push.max_hops                    | hops               |
/// | red_ecn.k_min, red_ecn.k_max         | red_ecn.k_min, k_max                 | bytes              |
/// | red_ecn.p_max                        | red_ecn.p_max                        | `n/d` or raw 2^-32 |
/// | red_ecn.drop_not_ect                 | red_ecn.drop_not_ect                 | true / false       |
/// | red_ecn.dctcp_k                      | all of red_ecn (dctcp_red_params)    | bytes              |
/// | bolt.mtu, bolt.cc_thresh             | bolt.mtu, cc_thresh                  | bytes              |
/// | bolt.link_rate_unit                  | bolt.link_rate_unit                  | bps, or `5G`       |
/// | bolt.pru, bolt.sm                    | bolt.pru, sm                         | true / false       |
/// | fasttune_switch.switch_feedback      | fasttune.switch_feedback             | true / false       |
/// | fasttune_switch.ack_padding          | fasttune.ack_padding                 | true / false       |
/// | fasttune_switch.int_push.max_hops    | fasttune.int_push.max_hops           | hops               |
/// | dcqcn_np.interval                    | dcqcn_np.interval                    | ns                 |
/// | dcqcn_np.mode                        | dcqcn_np.mode                        | suppress, schedule |
/// | token_bucket.rate, token_bucket.bucket | token_bucket.rate, bucket          | bps; bytes         |
/// | token_bucket.police                  | emit_params::token_bucket_police     | true / false       |
///
/// @code
/// netcc::p4::emit_params p;
/// netcc::validation v;
/// netcc::p4::set(p, "bolt.mtu", "4096", v);
/// netcc::p4::set(p, "bolt.cc_thresh", "4096", v);
/// v.merge(netcc::p4::validate(p, netcc::p4::function::bolt));   // ok
/// @endcode
#pragma once

#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include "netcc/core/units.hpp"
#include "netcc/core/validation.hpp"
#include "netcc/fabric/bolt.hpp"
#include "netcc/fabric/dcqcn_np.hpp"
#include "netcc/fabric/fasttune_switch.hpp"
#include "netcc/fabric/int_push.hpp"
#include "netcc/fabric/red_ecn.hpp"
#include "netcc/fabric/token_bucket.hpp"

namespace netcc::p4 {

/// @brief The switch functions the emitter translates, one P4 program each.
enum class function : std::uint8_t {
  int_push,      ///< INT hop push at dequeue (PowerTCP §3.3, HPCC §3.2 wire layout)
  red_ecn,       ///< RED/ECN marking from the probability table (seed 003 §III-B d)
  bolt,          ///< Bolt ingress: SRC, PRU, supply matching (Bolt NSDI'23 Algorithms 1, 3)
  fasttune,      ///< FastTune switch: S-ACK and ACK padding (FastTune ISPA'21 Algorithm 1)
  dcqcn_np,      ///< DCQCN notification point: CNP spacing (DCQCN SIGCOMM'15 §3)
  token_bucket,  ///< token-bucket policer (Le Boudec and Thiran §1.2.2)
};

/// @brief Every function, in the order the command writes them.
inline constexpr std::array<function, 6> all_functions{function::int_push, function::red_ecn,
                                                       function::bolt,     function::fasttune,
                                                       function::dcqcn_np, function::token_bucket};

/// @brief The function's name (also the program's file stem): "int_push", "red_ecn", ...
/// @code
/// auto n = netcc::p4::name(netcc::p4::function::bolt);   // "bolt"
/// @endcode
[[nodiscard]] constexpr std::string_view name(function f) noexcept {
  switch (f) {
    case function::int_push:
      return "int_push";
    case function::red_ecn:
      return "red_ecn";
    case function::bolt:
      return "bolt";
    case function::fasttune:
      return "fasttune";
    case function::dcqcn_np:
      return "dcqcn_np";
    case function::token_bucket:
      return "token_bucket";
  }
  return "?";
}

/// @brief The function called `n`, if any.
/// @code
/// auto f = netcc::p4::parse_function("red_ecn");   // function::red_ecn
/// @endcode
[[nodiscard]] constexpr std::optional<function> parse_function(std::string_view n) noexcept {
  for (function f : all_functions)
    if (name(f) == n) return f;
  return std::nullopt;
}

/// @brief The link rates for which a Bolt supply table (§4.1) is compiled in: Bolt's
/// evaluation rates (25, 100, 200, 400 Gbps, §5) and the Ethernet rates between them.
inline constexpr std::array<std::int64_t, 7> bolt_table_rates{
    10'000'000'000,  25'000'000'000,  40'000'000'000, 50'000'000'000,
    100'000'000'000, 200'000'000'000, 400'000'000'000};

/// @brief Largest DCQCN interval the P4 form accepts: 2^46 ns (its time registers are 48 bits
/// wide and a difference is read as signed, so spacings must stay far below 2^47 ns).
inline constexpr duration max_p4_interval{std::int64_t{1} << 46};

/// @brief Everything the emitter needs: the fabric functions' parameters and the switch's
/// sizes.
/// @code
/// netcc::p4::emit_params p{.ports = 16, .flows = 4096};
/// @endcode
struct emit_params {
  /// @brief Ports of the switch: size of the per-port register arrays and of the port tables,
  /// and the number of mirror sessions (one per port, session = port + 1). [2, 512] (BMv2).
  std::size_t ports = 64;
  /// @brief Size of the per-flow register arrays (FastTune NewACK, DCQCN NP): a power of two in
  /// [1, 2^20]; a flow's slot is its hash (or queue pair) modulo this size.
  std::size_t flows = 1024;
  /// @brief Line rate of the ports: INT's rate code, Bolt's SRC rate code and Bolt's supply
  /// table. For Bolt it must be one of netcc::p4::bolt_table_rates. Default 100 Gbps.
  bit_rate link_rate{100'000'000'000};
  /// @brief INT push (netcc/fabric/int_push.hpp).
  int_push_params int_push{};
  /// @brief RED/ECN (netcc/fabric/red_ecn.hpp); the program holds its 1024-cell table.
  red_ecn_params red_ecn{};
  /// @brief Bolt (netcc/fabric/bolt.hpp).
  bolt_params bolt{};
  /// @brief FastTune switch (netcc/fabric/fasttune_switch.hpp).
  fasttune_switch_params fasttune{};
  /// @brief DCQCN notification point (netcc/fabric/dcqcn_np.hpp).
  dcqcn_np_params dcqcn_np{};
  /// @brief Token bucket (netcc/fabric/token_bucket.hpp).
  token_bucket_params token_bucket{};
  /// @brief Drop a non-conforming packet (a policer); false forwards it with its verdict.
  bool token_bucket_police = true;
};

/// @brief Cells of the RED probability table the program holds (red_ecn_table<1024>).
inline constexpr std::size_t red_table_entries = 1024;

/// @brief Check `p` for function `f`: the fabric function's own validate() plus the rules of
/// the P4 form (sizes, Bolt's table rates, DCQCN's 48-bit time).
/// @code
/// auto v = netcc::p4::validate(netcc::p4::emit_params{.ports = 1}, netcc::p4::function::bolt);
/// // p4.ports = 1: must be in [2, 512]
/// @endcode
[[nodiscard]] inline validation validate(const emit_params& p, function f) {
  validation v;
  v.check(p.ports >= 2 && p.ports <= 512, "p4.ports", p.ports,
          "must be in [2, 512] (BMv2's port count; one register cell per port)");
  v.check(p.flows >= 1 && p.flows <= (std::size_t{1} << 20) && (p.flows & (p.flows - 1)) == 0,
          "p4.flows", p.flows, "must be a power of two in [1, 2^20]");
  v.check(p.link_rate > bit_rate{0}, "p4.link_rate", p.link_rate, "must be > 0 bps");
  switch (f) {
    case function::int_push:
      v.merge(netcc::validate(p.int_push));
      break;
    case function::red_ecn:
      v.merge(netcc::validate(p.red_ecn));
      break;
    case function::bolt: {
      v.merge(netcc::validate(p.bolt));
      bool known = false;
      for (std::int64_t r : bolt_table_rates) known = known || r == p.link_rate.bps();
      v.check(known, "p4.link_rate", p.link_rate,
              "must be 10, 25, 40, 50, 100, 200 or 400 Gbps for bolt (the rates with a "
              "compiled supply table)");
      break;
    }
    case function::fasttune:
      v.merge(netcc::validate(p.fasttune));
      break;
    case function::dcqcn_np:
      v.merge(netcc::validate(p.dcqcn_np));
      v.check(p.dcqcn_np.interval < max_p4_interval, "dcqcn_np.interval", p.dcqcn_np.interval,
              "must be < 2^46 ns (the P4 form keeps 48-bit time)");
      break;
    case function::token_bucket:
      v.merge(netcc::validate(p.token_bucket));
      break;
  }
  return v;
}

namespace detail {

inline std::optional<std::int64_t> parse_i64(std::string_view s) {
  std::int64_t x = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), x);
  if (r.ec != std::errc{} || r.ptr != s.data() + s.size() || s.empty()) return std::nullopt;
  return x;
}

// "100000000000", "100G", "100Gbps", "500M", "500Mbps", "2K".
inline std::optional<std::int64_t> parse_rate(std::string_view s) {
  std::int64_t mult = 1;
  auto strip = [&](std::string_view suffix, std::int64_t m) {
    if (s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix) {
      s.remove_suffix(suffix.size());
      mult = m;
      return true;
    }
    return false;
  };
  (void)(strip("Gbps", 1'000'000'000) || strip("Mbps", 1'000'000) || strip("Kbps", 1'000) ||
         strip("bps", 1) || strip("G", 1'000'000'000) || strip("M", 1'000'000) ||
         strip("K", 1'000));
  const auto v = parse_i64(s);
  if (!v || *v < 0 || *v > std::numeric_limits<std::int64_t>::max() / mult) return std::nullopt;
  return *v * mult;
}

inline std::optional<bool> parse_bool(std::string_view s) {
  if (s == "true" || s == "1" || s == "on") return true;
  if (s == "false" || s == "0" || s == "off") return false;
  return std::nullopt;
}

}  // namespace detail

/// @brief A value as the user typed it, for a param_error (printed verbatim).
/// @code
/// netcc::validation v;
/// v.check(false, "bolt.mtu", netcc::p4::setting_text{"big"}, "must be an integer");
/// @endcode
struct setting_text {
  /// @brief The text.
  std::string text;
};

/// @brief Print a setting_text: the text itself (found by argument-dependent lookup from
/// netcc::validation::check).
[[nodiscard]] inline std::string format_value(const setting_text& t) {
  return t.text;
}

/// @brief The keys set() knows, in the order of the table in this file.
inline constexpr std::array<std::string_view, 22> setting_keys{"p4.ports",
                                                               "p4.flows",
                                                               "p4.link_rate",
                                                               "int_push.max_hops",
                                                               "red_ecn.k_min",
                                                               "red_ecn.k_max",
                                                               "red_ecn.p_max",
                                                               "red_ecn.drop_not_ect",
                                                               "red_ecn.dctcp_k",
                                                               "bolt.mtu",
                                                               "bolt.cc_thresh",
                                                               "bolt.link_rate_unit",
                                                               "bolt.pru",
                                                               "bolt.sm",
                                                               "fasttune_switch.switch_feedback",
                                                               "fasttune_switch.ack_padding",
                                                               "fasttune_switch.int_push.max_hops",
                                                               "dcqcn_np.interval",
                                                               "dcqcn_np.mode",
                                                               "token_bucket.rate",
                                                               "token_bucket.bucket",
                                                               "token_bucket.police"};

/// @brief Set the field named `key` from the text `value`; a key that is not known or a value
/// that does not parse is recorded in `v` (field = key, value = the text, rule = what was
/// expected) and changes nothing. Range rules are left to validate().
/// @return true when the field was set
/// @code
/// netcc::p4::emit_params p;
/// netcc::validation v;
/// netcc::p4::set(p, "dcqcn_np.mode", "schedule", v);   // true
/// netcc::p4::set(p, "bolt.mtu", "big", v);             // false: "must be an integer"
/// @endcode
inline bool set(emit_params& p, std::string_view key, std::string_view value, validation& v) {
  const setting_text text{std::string(value)};
  auto integer = [&](auto apply) {
    const auto x = detail::parse_i64(value);
    if (!x) return v.check(false, key, text, "must be an integer");
    apply(*x);
    return true;
  };
  auto count = [&](auto apply) {
    const auto x = detail::parse_i64(value);
    if (!x || *x < 0) return v.check(false, key, text, "must be a non-negative integer");
    apply(static_cast<std::size_t>(*x));
    return true;
  };
  auto rate = [&](bit_rate& out) {
    const auto x = detail::parse_rate(value);
    if (!x) return v.check(false, key, text, "must be a rate in bps, optionally with K, M or G");
    out = bit_rate{*x};
    return true;
  };
  auto boolean = [&](bool& out) {
    const auto x = detail::parse_bool(value);
    if (!x) return v.check(false, key, text, "must be true or false");
    out = *x;
    return true;
  };
  if (key == "p4.ports") return count([&](std::size_t x) { p.ports = x; });
  if (key == "p4.flows") return count([&](std::size_t x) { p.flows = x; });
  if (key == "p4.link_rate") return rate(p.link_rate);
  if (key == "int_push.max_hops") return count([&](std::size_t x) { p.int_push.max_hops = x; });
  if (key == "red_ecn.k_min") return integer([&](std::int64_t x) { p.red_ecn.k_min = bytes{x}; });
  if (key == "red_ecn.k_max") return integer([&](std::int64_t x) { p.red_ecn.k_max = bytes{x}; });
  if (key == "red_ecn.p_max") {
    const auto slash = value.find('/');
    if (slash != std::string_view::npos) {
      const auto n = detail::parse_i64(value.substr(0, slash));
      const auto d = detail::parse_i64(value.substr(slash + 1));
      if (!n || !d || *n < 0 || *d <= 0)
        return v.check(false, key, text, "must be n/d with n >= 0 and d > 0, or raw 2^-32 units");
      p.red_ecn.p_max = red_probability::from_ratio(static_cast<std::uint64_t>(*n),
                                                    static_cast<std::uint64_t>(*d));
      return true;
    }
    const auto x = detail::parse_i64(value);
    if (!x || *x < 0)
      return v.check(false, key, text, "must be n/d with n >= 0 and d > 0, or raw 2^-32 units");
    p.red_ecn.p_max = red_probability{static_cast<std::uint64_t>(*x)};
    return true;
  }
  if (key == "red_ecn.drop_not_ect") return boolean(p.red_ecn.drop_not_ect);
  if (key == "red_ecn.dctcp_k")
    return integer([&](std::int64_t x) { p.red_ecn = dctcp_red_params(bytes{x}); });
  if (key == "bolt.mtu") return integer([&](std::int64_t x) { p.bolt.mtu = bytes{x}; });
  if (key == "bolt.cc_thresh") return integer([&](std::int64_t x) { p.bolt.cc_thresh = bytes{x}; });
  if (key == "bolt.link_rate_unit") return rate(p.bolt.link_rate_unit);
  if (key == "bolt.pru") return boolean(p.bolt.pru);
  if (key == "bolt.sm") return boolean(p.bolt.sm);
  if (key == "fasttune_switch.switch_feedback") return boolean(p.fasttune.switch_feedback);
  if (key == "fasttune_switch.ack_padding") return boolean(p.fasttune.ack_padding);
  if (key == "fasttune_switch.int_push.max_hops")
    return count([&](std::size_t x) { p.fasttune.int_push.max_hops = x; });
  if (key == "dcqcn_np.interval")
    return integer([&](std::int64_t x) { p.dcqcn_np.interval = duration{x}; });
  if (key == "dcqcn_np.mode") {
    if (value == "suppress")
      p.dcqcn_np.mode = dcqcn_np_mode::suppress;
    else if (value == "schedule")
      p.dcqcn_np.mode = dcqcn_np_mode::schedule;
    else
      return v.check(false, key, text, "must be suppress or schedule");
    return true;
  }
  if (key == "token_bucket.rate") return rate(p.token_bucket.rate);
  if (key == "token_bucket.bucket")
    return integer([&](std::int64_t x) { p.token_bucket.bucket = bytes{x}; });
  if (key == "token_bucket.police") return boolean(p.token_bucket_police);
  return v.check(false, key, text, "unknown key (see netcc-p4 --help for the keys)");
}

}  // namespace netcc::p4
