// SPDX-License-Identifier: MIT
// Shared by the model-against-testbench tests (calculus_compare_test.cpp,
// calculus_driver_compare_test.cpp): the distance between two time series sampled on one grid,
// as docs/calculus.md reports it (mean and largest absolute difference, and each side's peak).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace trace_test {

// Distance between two series on the same grid.
struct distance {
  double mean_abs = 0;  // mean |a - b|
  double max_abs = 0;   // max |a - b|
  double peak_a = 0;    // max a
  double peak_b = 0;    // max b
};

// Over the common length of a and b.
inline distance compare(const std::vector<double>& a, const std::vector<double>& b) {
  distance d;
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    const double e = std::abs(a[i] - b[i]);
    d.mean_abs += e / static_cast<double>(n);
    d.max_abs = std::max(d.max_abs, e);
    d.peak_a = std::max(d.peak_a, a[i]);
    d.peak_b = std::max(d.peak_b, b[i]);
  }
  return d;
}

// Index of the largest value.
inline std::size_t argmax(const std::vector<double>& v) {
  return static_cast<std::size_t>(std::max_element(v.begin(), v.end()) - v.begin());
}

}  // namespace trace_test
