// SPDX-License-Identifier: MIT
/// @file
/// @brief Metrics over testbench results: Jain's fairness index, percentiles, FCT slowdown,
/// and CSV output of time series.
///
/// Sources: R. Jain, D. Chiu, W. Hawe, "A Quantitative Measure of Fairness and Discrimination for
/// Resource Allocation in Shared Computer Systems", DEC-TR-301, 1984 (Jain's index); FCT slowdown
/// as PowerTCP (NSDI'22) §4 and HPCC (SIGCOMM'19) §5 report it.
///
/// @code
/// double j = netcc::testbench::jain_index(std::vector<double>{1.0, 1.0, 0.5});   // 0.9259...
/// @endcode
#pragma once

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <string>
#include <vector>

#include "netcc/core/units.hpp"
#include "netcc/testbench/io.hpp"
#include "netcc/testbench/network.hpp"

namespace netcc::testbench {

/// @brief Jain's fairness index (sum x)^2 / (n * sum x^2); 1 for an empty or all-zero input.
[[nodiscard]] inline double jain_index(const std::vector<double>& x) {
  double s = 0, s2 = 0;
  for (const double v : x) {
    s += v;
    s2 += v * v;
  }
  return s2 > 0 ? s * s / (static_cast<double>(x.size()) * s2) : 1.0;
}

/// @brief The q-th percentile (0..100) by nearest rank; 0 for an empty input.
[[nodiscard]] inline double percentile(std::vector<double> x, double q) {
  if (x.empty()) return 0;
  std::sort(x.begin(), x.end());
  const double rank = std::clamp(q, 0.0, 100.0) / 100.0 * static_cast<double>(x.size() - 1);
  return x[static_cast<std::size_t>(rank + 0.5)];
}

/// @brief FCT slowdown: the flow's FCT over the ideal FCT of its size at `line_rate` plus
/// `base_rtt` (the time to deliver it alone on an idle path).
[[nodiscard]] inline double slowdown(const flow_stats& f, bit_rate line_rate, duration base_rtt) {
  const duration ideal = f.size / line_rate + base_rtt;
  return static_cast<double>(f.fct().count()) / static_cast<double>(ideal.count());
}

/// @brief Bolt's estimate of the bandwidth its SRC packets take (NSDI'23 Appendix A, Eq. 3):
/// `C * p_src / p_data * rtt_src / rtt`, in the unit of `c_gbps`. C is the rate at which traffic
/// flows through the bottleneck, p_src and p_data the SRC and data packet sizes, rtt_src / rtt
/// the fraction of time the bottleneck is congested (Eq. 1: a queue that additive increase
/// builds persists for one rtt_src of every RTT), so Eq. 2 makes rtt_src / rtt of the data
/// packets generate an SRC. 0 for a non-positive packet size or RTT.
/// @code
/// // 80 Gbps of 1500-B packets, 64-B SRCs, rtt_src / rtt = 1 / 2 (a one-switch star):
/// double g = netcc::testbench::bolt_src_bandwidth_eq3(80, netcc::bytes{64}, netcc::bytes{1500},
///     netcc::duration{2500}, netcc::duration{5000});   // 1.7067 Gbps
/// @endcode
[[nodiscard]] inline double bolt_src_bandwidth_eq3(double c_gbps, bytes p_src, bytes p_data,
                                                   duration rtt_src, duration rtt) {
  if (p_data <= bytes{0} || rtt <= duration::zero() || p_src < bytes{0} ||
      rtt_src < duration::zero())
    return 0;
  return c_gbps * static_cast<double>(p_src.count()) / static_cast<double>(p_data.count()) *
         static_cast<double>(rtt_src.count()) / static_cast<double>(rtt.count());
}

/// @brief A time series as CSV text: the first column `time_ns` in integer nanoseconds, then one
/// column per monitor in the order they were added, each value in the shortest form that reads
/// back to the same double (std::to_chars), so nothing is rounded and times never repeat.
/// @code
/// netcc::testbench::series ts;
/// ts.names = {"q"};
/// ts.t = {netcc::timestamp{1'000'000'000}};
/// ts.columns = {{0.1}};
/// netcc::testbench::format_csv(ts);   // "time_ns,q\n1000000000,0.1\n"
/// @endcode
[[nodiscard]] inline std::string format_csv(const series& s) {
  std::string out = "time_ns";
  for (const auto& n : s.names) (out += ',') += n;
  out += '\n';
  char buf[32];
  for (std::size_t r = 0; r < s.t.size(); ++r) {
    auto res = std::to_chars(buf, buf + sizeof buf, s.t[r].count());
    out.append(buf, res.ptr);
    for (const auto& c : s.columns) {
      res = std::to_chars(buf, buf + sizeof buf, r < c.size() ? c[r] : 0.0);
      (out += ',').append(buf, res.ptr);
    }
    out += '\n';
  }
  return out;
}

/// @brief Write a time series as CSV (netcc::testbench::format_csv) whole or not at all
/// (netcc::testbench::write_file_atomic); empty on success, else a message naming the path and
/// the system's reason.
[[nodiscard]] inline std::string write_csv(const series& s, const std::string& path) {
  return write_file_atomic(path, format_csv(s));
}

}  // namespace netcc::testbench
