// SPDX-License-Identifier: MIT
/// @file
/// @brief netcc controller parameters as ns-3 Attributes (the ns-3 half, C++17): typed values,
/// netcc's own validation in the checker, and one accessor for every object that holds a
/// controller's parameters.
#ifndef NETCC_NS3_ATTRIBUTES_H
#define NETCC_NS3_ATTRIBUTES_H

#include <cstddef>
#include <string>
#include <vector>

#include "netcc-ns3/bridge.h"
#include "ns3/attribute.h"
#include "ns3/type-id.h"

namespace ns3 {

/// @brief An object whose Attributes are a netcc controller kind's parameters (the TCP
/// congestion ops and the rate-based sender). The kind is found from the object's own TypeId.
class NetccParameterHolder {
 public:
  virtual ~NetccParameterHolder() = default;
  /// @brief Store parameter `index` (already checked by netcc's rules).
  virtual void SetNetccParam(std::size_t index, const netcc::ns3::param_value& v) = 0;
  /// @brief Parameter `index`'s current value.
  [[nodiscard]] virtual netcc::ns3::param_value GetNetccParam(std::size_t index) const = 0;
};

/// @brief Add `kind`'s parameters to `tid` as Attributes. Each value is checked by ns-3's type
/// checker and then by netcc's validate() for that field (the others at their defaults); a
/// rejected value is reported on stderr as "netcc: <TypeId>::<Attribute>: <field> = <value>:
/// <rule>" and ns-3 then fails the set as usual (Config::SetDefault, CommandLine, SetAttribute).
TypeId AddNetccAttributes(TypeId tid, const netcc::ns3::controller_kind& kind);

/// @brief The message of the last value netcc rejected ("" if none), for tests and tools.
std::string NetccLastAttributeError();

/// @brief The default values of `kind`'s parameters, as netcc defines them.
std::vector<netcc::ns3::param_value> NetccDefaultParams(const netcc::ns3::controller_kind& kind);

}  // namespace ns3

#endif  // NETCC_NS3_ATTRIBUTES_H
