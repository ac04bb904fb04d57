// SPDX-License-Identifier: MIT
#include <netcc/core/validation.hpp>

#include <gtest/gtest.h>

namespace netcc_tests::core_validation {

using namespace netcc::literals;

TEST(Validation, NamesFieldValueAndRule) {
  netcc::validation v;
  EXPECT_TRUE(v.check(true, "x.ok", 1, "never shown"));
  EXPECT_FALSE(v.check(false, "powertcp.gamma", 1.5, "must be in (0, 1]"));
  v.check(false, "powertcp.base_rtt", 0_ns, "must be positive");
  v.check(false, "powertcp.host_rate", 0_bps, "must be positive");
  v.check(false, "powertcp.min_cwnd", 0_B, "must be at least one byte");
  v.check(false, "powertcp.pace", false, "must be on");
  ASSERT_EQ(v.size(), 5u);
  EXPECT_FALSE(v.ok());
  EXPECT_EQ(v[0].message(), "powertcp.gamma = 1.5: must be in (0, 1]");
  EXPECT_EQ(v[1].message(), "powertcp.base_rtt = 0 ns: must be positive");
  EXPECT_EQ(v[2].message(), "powertcp.host_rate = 0 bps: must be positive");
  EXPECT_EQ(v[3].message(), "powertcp.min_cwnd = 0 B: must be at least one byte");
  EXPECT_EQ(v[4].value, "false");
  EXPECT_TRUE(v.names("powertcp.gamma"));
  EXPECT_FALSE(v.names("powertcp.beta"));
  EXPECT_EQ(v.to_string().substr(0, 40), "powertcp.gamma = 1.5: must be in (0, 1]\n");
}

TEST(Validation, MergeKeepsEveryProblem) {
  netcc::validation a, b;
  a.check(false, "a.x", 1, "r1");
  b.check(false, "b.y", 2, "r2");
  a.merge(b);
  EXPECT_EQ(a.size(), 2u);
  int n = 0;
  for (const auto& e : a) n += static_cast<int>(!e.rule.empty());
  EXPECT_EQ(n, 2);
}

TEST(Validation, DoublesPrintShortestRoundTrip) {
  EXPECT_EQ(netcc::format_value(0.9), "0.9");
  EXPECT_EQ(netcc::format_value(1e300), "1e+300");
}

}  // namespace netcc_tests::core_validation
