// SPDX-License-Identifier: MIT
#include <netcc/core/window_history.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace netcc_tests::core_window_history {

TEST(WindowHistory, EmptyGivesFallback) {
  netcc::window_history<double, 2> h;
  EXPECT_EQ(h.window_at(123, 42.0), 42.0);
  EXPECT_EQ(h.size(), 0u);
}

TEST(WindowHistory, LooksUpTheWindowInForceWhenTheByteWasSent) {
  netcc::window_history<double, 4> h;
  h.remember(0, 10'000.0);
  h.remember(50'000, 12'000.0);
  h.remember(90'000, 8'000.0);
  EXPECT_EQ(h.window_at(0, -1), 10'000.0);
  EXPECT_EQ(h.window_at(49'999, -1), 10'000.0);
  EXPECT_EQ(h.window_at(50'000, -1), 12'000.0);
  EXPECT_EQ(h.window_at(1'000'000, -1), 8'000.0);
}

TEST(WindowHistory, OlderThanEverythingGetsTheOldestKept) {
  netcc::window_history<double, 2> h;
  h.remember(100, 1.0);
  h.remember(200, 2.0);
  h.remember(300, 3.0);  // evicts (100, 1.0)
  EXPECT_EQ(h.size(), 2u);
  EXPECT_EQ(h.window_at(150, -1), 2.0);
  EXPECT_EQ(h.window_at(250, -1), 2.0);
  EXPECT_EQ(h.window_at(300, -1), 3.0);
}

TEST(WindowHistory, SameSequenceReplaces) {
  netcc::window_history<double, 2> h;
  h.remember(100, 1.0);
  h.remember(100, 5.0);
  h.remember(50, 7.0);  // not after the newest: replaces its value, keeps order
  EXPECT_EQ(h.size(), 1u);
  EXPECT_EQ(h.window_at(100, -1), 7.0);
  h.clear();
  EXPECT_EQ(h.window_at(100, -1), -1.0);
}

namespace {

// Against an unbounded list: for queries at or after the oldest kept entry, the ring of
// `Capacity` gives the same answer as the full history; a query before it gets the oldest kept.
template <std::size_t Capacity>
void check_against_reference() {
  const auto gaps =
      *rc::gen::container<std::vector<std::uint16_t>>(rc::gen::inRange<std::uint16_t>(1, 5000));
  netcc::window_history<double, Capacity> h;
  std::vector<std::pair<netcc::sequence, double>> all;
  netcc::sequence s = 0;
  for (std::size_t i = 0; i < gaps.size(); ++i) {
    s += gaps[i];
    h.remember(s, static_cast<double>(i + 1));  // no window equals an empty slot's 0
    all.emplace_back(s, static_cast<double>(i + 1));
  }
  RC_PRE(!all.empty());
  const std::size_t first_kept = all.size() > Capacity ? all.size() - Capacity : 0;
  const auto q = *rc::gen::inRange<netcc::sequence>(all[first_kept].first, s + 10'000);
  double expect = all[first_kept].second;
  for (std::size_t i = first_kept; i < all.size(); ++i)
    if (all[i].first <= q) expect = all[i].second;
  RC_ASSERT(h.window_at(q, -1) == expect);
  const auto before = *rc::gen::inRange<netcc::sequence>(0, all[first_kept].first);
  if (before < all[first_kept].first) RC_ASSERT(h.window_at(before, -1) == all[first_kept].second);
}

}  // namespace

// Capacity 2 (PowerTCP's) has a lookup of its own; 1 and 3 take the general ring.
RC_GTEST_PROP(WindowHistory, MatchesAReferenceModel, ()) {
  check_against_reference<1>();
  check_against_reference<2>();
  check_against_reference<3>();
}

}  // namespace netcc_tests::core_window_history
