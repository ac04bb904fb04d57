// SPDX-License-Identifier: MIT
#include <netcc/core/per_rtt.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace netcc_tests::core_per_rtt {

TEST(PerRtt, OneActionPerRound) {
  // Round 1 starts at the first ACK; bytes up to snd_nxt = 10000 were in flight then, so the
  // next round starts only once the cumulative ACK reaches 10000.
  netcc::per_rtt_marker m;
  EXPECT_TRUE(m.advance(1500, 10'000));
  EXPECT_FALSE(m.advance(3000, 12'000));
  EXPECT_FALSE(m.advance(9999, 15'000));
  EXPECT_TRUE(m.advance(10'000, 16'000));
  EXPECT_EQ(m.mark(), 16'000u);
}

TEST(PerRtt, PassedIsStrict) {
  netcc::per_rtt_marker m{100};
  EXPECT_TRUE(m.reached(100));
  EXPECT_FALSE(m.passed(100));
  EXPECT_TRUE(m.passed(101));
}

TEST(PerRtt, WrapSafeSequenceComparison) {
  EXPECT_TRUE(netcc::seq_gt(5, ~netcc::sequence{0} - 5));
  netcc::per_rtt_marker m{~netcc::sequence{0} - 10};
  EXPECT_TRUE(m.reached(3));  // 3 is 14 bytes after the mark, across the 64-bit wrap
}

RC_GTEST_PROP(PerRtt, AtMostOneAdvancePerRound, ()) {
  // ACKs that grow monotonically: between two advances the ACK must have reached the mark,
  // which was snd_nxt at the previous advance.
  const auto steps =
      *rc::gen::container<std::vector<std::uint16_t>>(rc::gen::arbitrary<std::uint16_t>());
  netcc::per_rtt_marker m;
  netcc::sequence ack = 0, nxt = 20'000, last_mark = 0;
  for (const auto s : steps) {
    ack += s % 3000;
    nxt = std::max(nxt, ack) + s % 5000;
    if (m.advance(ack, nxt)) {
      RC_ASSERT(ack >= last_mark);
      last_mark = nxt;
    } else {
      RC_ASSERT(ack < last_mark);
    }
  }
}

}  // namespace netcc_tests::core_per_rtt
