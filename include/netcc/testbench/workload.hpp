// SPDX-License-Identifier: MIT
/// @file
/// @brief Workloads for the testbench: flow sizes drawn from an empirical CDF (the web-search
/// and Hadoop distributions the papers evaluate with, shipped in `data/cdf/`), Poisson flow
/// arrivals at a target load, and the random numbers they use.
///
/// The random numbers are derived from `std::mt19937_64` by netcc's own transforms (53 bits to
/// a double in [0, 1); inverse-transform exponential), not by `std::*_distribution`, whose
/// algorithms the C++ standard leaves to each library: the same seed gives the same workload
/// with libstdc++, libc++ and MSVC.
///
/// CDF files: one point per line, `<flow size in bytes> <cumulative probability>`, `#` starts
/// a comment; sizes and probabilities non-decreasing, the first probability 0 and the last 1.
/// Sizes between points are interpolated linearly (the usual reading of these tables, as in
/// the HPCC and PowerTCP evaluations' generators).
///
/// Sources: the web-search flow sizes of DCTCP (Alizadeh et al., SIGCOMM 2010, §2) and the Hadoop
/// sizes of A. Roy et al., "Inside the Social Network's (Datacenter) Network", SIGCOMM 2015, as
/// tabulated for the HPCC, PowerTCP and Bolt evaluations (data/cdf/).
///
/// @code
/// netcc::testbench::flow_size_cdf cdf;
/// std::string err = netcc::testbench::load_cdf("data/cdf/websearch.cdf", cdf);
/// std::mt19937_64 rng{1};
/// std::int64_t size = cdf.sample(netcc::testbench::uniform01(rng));   // bytes, >= 1
/// @endcode
#pragma once

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "netcc/core/units.hpp"
#include "netcc/testbench/io.hpp"

namespace netcc::testbench {

/// @brief A double in [0, 1) from the top 53 bits of one 64-bit draw (same on every library).
[[nodiscard]] inline double uniform01(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

/// @brief An exponentially distributed interval of mean `mean` (inverse transform
/// -mean * ln(1 - u)), at least 1 ns.
[[nodiscard]] inline duration exponential(std::mt19937_64& rng, duration mean) {
  const double u = uniform01(rng);
  const double t = -static_cast<double>(mean.count()) * std::log1p(-u);
  const double capped = std::min(t, 9.0e18);
  return duration{std::max<std::int64_t>(1, static_cast<std::int64_t>(capped))};
}

/// @brief An empirical flow-size distribution: points (bytes, cumulative probability),
/// linear between points.
struct flow_size_cdf {
  /// @brief The points, sizes and probabilities non-decreasing, from probability 0 to 1.
  std::vector<std::pair<double, double>> points;

  /// @brief The size at cumulative probability `u` in [0, 1] (inverse CDF, linear between
  /// points), rounded to whole bytes, at least 1.
  [[nodiscard]] std::int64_t sample(double u) const {
    if (points.empty()) return 1;
    u = std::clamp(u, 0.0, 1.0);
    double size = points.back().first;
    for (std::size_t i = 1; i < points.size(); ++i) {
      const auto [x0, p0] = points[i - 1];
      const auto [x1, p1] = points[i];
      if (u > p1) continue;
      size = p1 > p0 ? x0 + (x1 - x0) * (u - p0) / (p1 - p0) : x1;
      break;
    }
    return std::max<std::int64_t>(1, std::llround(size));
  }

  /// @brief Mean flow size in bytes (exact for the piecewise-linear CDF: the mean of each
  /// segment's uniform size range weighted by its probability).
  [[nodiscard]] double mean() const {
    double m = 0;
    for (std::size_t i = 1; i < points.size(); ++i)
      m += (points[i].second - points[i - 1].second) * (points[i].first + points[i - 1].first) / 2;
    return m;
  }
};

/// @brief Largest flow size a CDF file may give, bytes (10 GB, as the runner's
/// incast_size_bytes and burst_bytes).
inline constexpr double max_cdf_flow_size = 1e10;

/// @brief Parse CDF text; returns an empty string or "<where>:<line>: <message>". Sizes must lie
/// in [0, netcc::testbench::max_cdf_flow_size] and the largest must be at least 1 byte.
/// @param text  the file's contents
/// @param where name used in messages (the path)
/// @param out   the distribution (replaced only on success)
[[nodiscard]] inline std::string parse_cdf(std::string_view text, const std::string& where,
                                           flow_size_cdf& out) {
  flow_size_cdf c;
  const std::string shown = printable(where);
  int line_no = 0;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    if (const auto hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    double v[2] = {0, 0};
    int got = 0;
    while (true) {
      while (!line.empty() && (line.front() == ' ' || line.front() == '\t' || line.front() == '\r'))
        line.remove_prefix(1);
      if (line.empty()) break;
      const auto end = line.find_first_of(" \t\r");
      const std::string_view tok = line.substr(0, end);
      line = end == std::string_view::npos ? std::string_view{} : line.substr(end);
      double x = 0;
      const auto r = std::from_chars(tok.data(), tok.data() + tok.size(), x);
      const std::string at = shown + ":" + std::to_string(line_no) + ": ";
      if (r.ec != std::errc{} || r.ptr != tok.data() + tok.size() || !std::isfinite(x))
        return at + "'" + printable(tok) + "' is not a number";
      if (got == 2) return at + "expected '<bytes> <cumulative probability>', got a third value";
      v[got++] = x;
    }
    if (got == 0) continue;
    const std::string at = shown + ":" + std::to_string(line_no) + ": ";
    if (got == 1) return at + "expected '<bytes> <cumulative probability>', got one value";
    std::ostringstream m;
    if (v[0] < 0 || v[0] > max_cdf_flow_size) {
      m << at << "size = " << v[0] << ": must be in [0, " << max_cdf_flow_size << "] bytes";
      return m.str();
    }
    if (v[1] < 0 || v[1] > 1) {
      m << at << "probability = " << v[1] << ": must be in [0, 1]";
      return m.str();
    }
    if (!c.points.empty() && (v[0] < c.points.back().first || v[1] < c.points.back().second)) {
      m << at << "point (" << v[0] << ", " << v[1]
        << "): sizes and probabilities must not decrease";
      return m.str();
    }
    c.points.emplace_back(v[0], v[1]);
  }
  if (c.points.size() < 2) return shown + ": needs at least two points";
  if (c.points.front().second != 0) return shown + ": the first probability must be 0";
  if (c.points.back().second != 1) return shown + ": the last probability must be 1";
  if (c.points.back().first < 1)
    return shown + ": every size is below 1 byte: the largest size must be at least 1";
  out = std::move(c);
  return {};
}

/// @brief Read a CDF file; returns an empty string or a message naming the file (and line).
[[nodiscard]] inline std::string load_cdf(const std::string& path, flow_size_cdf& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return printable(path) + ": cannot open: " + std::strerror(errno);
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_cdf(ss.str(), path, out);
}

/// @brief One flow of a generated workload.
struct workload_flow {
  /// @brief Arrival (start) time.
  timestamp start{};
  /// @brief Index of the sender (into the caller's list of sending hosts).
  std::size_t sender = 0;
  /// @brief Size in bytes.
  bytes size{};
};

/// @brief Poisson arrivals of flows with sizes from `cdf`, offering `load` (a fraction) of
/// `capacity` on average: mean inter-arrival = mean size * 8 / (load * capacity). Senders
/// are drawn uniformly from `senders`. Arrivals in [from, until), at most `max_flows`.
/// @code
/// auto flows = netcc::testbench::poisson_flows(cdf, 0.5, netcc::bit_rate{100'000'000'000}, 8,
///     netcc::timestamp{0}, netcc::timestamp{1'000'000}, 1000, 42);
/// @endcode
[[nodiscard]] inline std::vector<workload_flow> poisson_flows(
    const flow_size_cdf& cdf, double load, bit_rate capacity, std::size_t senders, timestamp from,
    timestamp until, std::size_t max_flows, std::uint64_t seed) {
  std::vector<workload_flow> v;
  const double mean_bytes = cdf.mean();
  if (!(load > 0) || capacity <= bit_rate{0} || senders == 0 || !(mean_bytes > 0)) return v;
  const double gap_ns = mean_bytes * 8e9 / (load * static_cast<double>(capacity.count()));
  const duration mean_gap{std::max<std::int64_t>(1, std::llround(std::min(gap_ns, 9.0e18)))};
  std::mt19937_64 rng{seed};
  timestamp t = from;
  while (v.size() < max_flows) {
    t += exponential(rng, mean_gap);
    if (t >= until) break;
    const auto who = static_cast<std::size_t>(uniform01(rng) * static_cast<double>(senders));
    v.push_back({t, std::min(who, senders - 1), bytes{cdf.sample(uniform01(rng))}});
  }
  return v;
}

}  // namespace netcc::testbench
