// SPDX-License-Identifier: MIT
// Shared by the calculus tests: how RapidCheck prints a counterexample UPP curve (its transient,
// period, rise and base curve). RapidCheck finds showValue by argument-dependent lookup, so it
// lives in the curve's namespace.
#pragma once

#include <netcc/calculus/upp.hpp>

#include <ostream>

namespace netcc::calculus {
inline void showValue(const upp& u, std::ostream& os) {
  os << "upp{T=" << u.transient() << " d=" << u.period() << " c=" << u.rise() << " base=";
  os << u.base() << "}";
}
}  // namespace netcc::calculus
