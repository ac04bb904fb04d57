// SPDX-License-Identifier: MIT
/// @file
/// @brief Checked construction of controllers: netcc::make<C>(params) gives the controller, or
/// every problem of the parameters as (field, value, rule), never a silent fallback.
///
/// A controller's own constructor is `noexcept` and total (it must run in firmware with no
/// error path): fields that break their rule are replaced by the paper's defaults, so an
/// unchecked controller always runs but may not run with the parameters one meant. netcc::make
/// validates first and builds only from valid parameters; the examples use it, and so should
/// any configuration path that can report an error.
///
/// Sources: none; the rules it checks are each controller's, cited at its validate().
///
/// @code
/// #include <netcc/control/make.hpp>
/// #include <netcc/control/powertcp.hpp>
/// using namespace netcc::literals;
/// auto made = netcc::make<netcc::powertcp>({.host_rate = 100_Gbps, .base_rtt = 20_us});
/// if (!made) {
///   std::fputs(made.errors().to_string().c_str(), stderr);   // "powertcp.gamma = ...: ..."
///   return 1;
/// }
/// netcc::powertcp cc = *made;
/// @endcode
#pragma once

#include <concepts>
#include <optional>
#include <utility>

#include "netcc/control/controller_concepts.hpp"
#include "netcc/core/validation.hpp"

namespace netcc {

/// @brief The outcome of netcc::make: a controller, or the validation errors that prevented it.
/// @tparam C the controller type
template <class C>
class checked {
 public:
  /// @brief A success holding `c`.
  explicit checked(C c) : c_(std::move(c)) {}
  /// @brief A failure with `errors` (not empty).
  explicit checked(validation errors) : errors_(std::move(errors)) {}

  /// @brief Whether the controller was built.
  [[nodiscard]] bool ok() const noexcept { return c_.has_value(); }
  /// @brief Same as ok().
  explicit operator bool() const noexcept { return ok(); }
  /// @brief The controller; ok() must hold.
  [[nodiscard]] C& value() & { return *c_; }
  /// @brief The controller; ok() must hold.
  [[nodiscard]] const C& value() const& { return *c_; }
  /// @brief The controller, moved out; ok() must hold.
  [[nodiscard]] C&& value() && { return std::move(*c_); }
  /// @brief The controller; ok() must hold.
  [[nodiscard]] C& operator*() & { return *c_; }
  /// @brief The controller; ok() must hold.
  [[nodiscard]] const C& operator*() const& { return *c_; }
  /// @brief Member access to the controller; ok() must hold.
  [[nodiscard]] C* operator->() { return &*c_; }
  /// @brief Member access to the controller; ok() must hold.
  [[nodiscard]] const C* operator->() const { return &*c_; }
  /// @brief Every problem found (empty on success), each naming field, value and rule.
  [[nodiscard]] const validation& errors() const noexcept { return errors_; }

 private:
  std::optional<C> c_;
  validation errors_;
};

/// @brief Validate `p` and build a `C` from it only if it is valid. The check is `C::validate(p)`
/// when the controller has one (a form with narrower ranges, such as netcc::timely_compact or
/// netcc::bolt_sender_compact, adds its own rules to the parameters'), else the parameter
/// struct's free `validate(p)`.
/// @tparam C a netcc::Controller whose parameter struct has a free `validate(const params&)`
/// @code
/// auto made = netcc::make<netcc::dcqcn>({.line_rate = netcc::bit_rate{0}});
/// // !made; made.errors()[0].message() == "dcqcn.line_rate = 0 bps: must be > 0" (say)
/// @endcode
template <Controller C>
[[nodiscard]] checked<C> make(const typename controller_traits<C>::params_type& p = {}) {
  validation v = [&] {
    if constexpr (requires {
                    { C::validate(p) } -> std::same_as<validation>;
                  }) {
      return C::validate(p);
    } else {
      return validate(p);
    }
  }();
  if (!v.ok()) return checked<C>{std::move(v)};
  return checked<C>{C{p}};
}

}  // namespace netcc
