// SPDX-License-Identifier: MIT
/// @file
/// @brief Parameter validation results: each problem as (field, value, rule).
///
/// Every parameter struct in netcc has a free `validate(params)` that returns a
/// netcc::validation. It never throws; configuration code decides what to do with the result.
///
/// Sources: none; each rule it reports is the parameter's paper's, cited where that parameter
/// struct's validate() is defined.
///
/// @code
/// netcc::validation v;
/// v.check(gamma > 0 && gamma <= 1, "powertcp.gamma", gamma, "must be in (0, 1]");
/// if (!v.ok()) std::fputs(v.to_string().c_str(), stderr);
/// // powertcp.gamma = 1.5: must be in (0, 1]
/// @endcode
#pragma once

#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <vector>

#include "netcc/core/units.hpp"

namespace netcc {

/// @brief One invalid parameter: which field, what value, which rule it broke.
struct param_error {
  /// @brief Qualified field name, e.g. "powertcp.gamma".
  std::string field;
  /// @brief The offending value, printed with its unit.
  std::string value;
  /// @brief The rule, in words, e.g. "must be in (0, 1]".
  std::string rule;
  /// @brief "field = value: rule".
  [[nodiscard]] std::string message() const { return field + " = " + value + ": " + rule; }
};

/// @brief Print a parameter value with its unit (used in param_error::value).
/// @code
/// netcc::format_value(netcc::bytes{1500});   // "1500 B"
/// @endcode
[[nodiscard]] inline std::string format_value(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return r.ec == std::errc{} ? std::string(buf, r.ptr) : std::string("?");
}
/// @brief Print an integer.
template <class I>
requires std::is_integral_v<I>
[[nodiscard]] std::string format_value(I v) {
  if constexpr (std::is_same_v<I, bool>) {
    return v ? "true" : "false";
  } else {
    return std::to_string(v);
  }
}
/// @brief Print a byte count, e.g. "1500 B".
[[nodiscard]] inline std::string format_value(bytes v) {
  return std::to_string(v.count()) + " B";
}
/// @brief Print a rate, e.g. "25000000000 bps".
[[nodiscard]] inline std::string format_value(bit_rate v) {
  return std::to_string(v.bps()) + " bps";
}
/// @brief Print a duration, e.g. "20000 ns".
[[nodiscard]] inline std::string format_value(duration v) {
  return std::to_string(v.count()) + " ns";
}

/// @brief The outcome of validating a parameter struct: a list of param_error.
class validation {
 public:
  /// @brief Record a problem unless `ok`; returns `ok`.
  template <class V>
  bool check(bool ok, std::string_view field, const V& value, std::string_view rule) {
    if (!ok) {
      errors_.push_back({std::string(field), format_value(value), std::string(rule)});
    }
    return ok;
  }
  /// @brief Append every problem of another result (for nested parameter structs).
  void merge(const validation& other) {
    errors_.insert(errors_.end(), other.errors_.begin(), other.errors_.end());
  }
  /// @brief True when no problem was found.
  [[nodiscard]] bool ok() const noexcept { return errors_.empty(); }
  /// @brief True when no problem was found (range-style spelling).
  [[nodiscard]] bool empty() const noexcept { return errors_.empty(); }
  /// @brief Number of problems.
  [[nodiscard]] std::size_t size() const noexcept { return errors_.size(); }
  /// @brief Problem `i`.
  [[nodiscard]] const param_error& operator[](std::size_t i) const { return errors_[i]; }
  /// @brief Iterator to the first problem.
  [[nodiscard]] auto begin() const noexcept { return errors_.begin(); }
  /// @brief Iterator past the last problem.
  [[nodiscard]] auto end() const noexcept { return errors_.end(); }
  /// @brief True when some problem names `field`.
  [[nodiscard]] bool names(std::string_view field) const noexcept {
    for (const auto& e : errors_)
      if (e.field == field) return true;
    return false;
  }
  /// @brief All messages, one per line.
  [[nodiscard]] std::string to_string() const {
    std::string s;
    for (const auto& e : errors_) s += e.message() + "\n";
    return s;
  }

 private:
  std::vector<param_error> errors_;
};

}  // namespace netcc
