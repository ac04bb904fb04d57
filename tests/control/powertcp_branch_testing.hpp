// SPDX-License-Identifier: MIT
// Shared by the PowerTCP and theta-PowerTCP tests: the double and q32 controllers take the same
// rule of Algorithm 1 / 2 (last_branch) on an ACK, with one stated exception at the cap.
#pragma once

#include <netcc/control/powertcp.hpp>

#include <rapidcheck.h>

#include <cmath>

namespace netcc_test {

// After one ACK taken by `d` (double) and `f` (q32), `wd_prev` being d's window before it:
// whether a window update ran is an integer decision (power available, end of a round): always
// the same. The MI term's cap (cwnd_old / normPower against HostBw * tau) may be judged either
// way only where the two are equal within the policies' distance: then d's window solves
// UPDATEWINDOW for an MI term within 1e-5 of HostBw * tau (unless a window bound clamped it).
// The two rules agree at that point, so the trajectories stay close either way.
template <class D, class F>
void check_same_powertcp_branch(const D& d, const F& f, double wd_prev) {
  using br = netcc::powertcp_branch;
  const br bd = d.last_branch(), bf = f.last_branch();
  RC_ASSERT(bd != br::none);
  RC_ASSERT((bd == br::hold) == (bf == br::hold));
  if (bd == bf) return;
  const auto& p = d.params();
  const double g = p.gamma;
  const double wd = netcc::to_double(d.window());
  const double mi = (wd - (1 - g) * wd_prev) / g - netcc::to_double(d.beta());
  const double cap = static_cast<double>((p.host_rate * d.tau()).count());
  const bool clamped = wd <= static_cast<double>(p.min_cwnd.count()) ||
                       wd >= static_cast<double>(p.max_cwnd.count());
  RC_ASSERT(clamped || std::abs(mi - cap) <= 1e-5 * cap + 1e-3);
  RC_TAG("cap judged differently at a tie");
}

}  // namespace netcc_test
