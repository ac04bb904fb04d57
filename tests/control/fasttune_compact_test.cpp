// SPDX-License-Identifier: MIT
// netcc::fasttune_compact (the FastTune sender in q32 with a 64-B per-flow state at wire width): its layout, the
// q32 object's rules and windows bit for bit on realistic wire traces, config + external states
// equal to objects (switch ACKs included), and the narrowed lastUpdateSeq across 2^32.
#include <netcc/control/controller_concepts.hpp>
#include <netcc/control/fasttune.hpp>
#include <netcc/core/int_wire.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <type_traits>

#include "control/int_window_testing.hpp"

namespace netcc_tests::control_fasttune_compact {

using namespace netcc::literals;

static_assert(sizeof(netcc::fasttune_compact::flow_state) <= 64);
static_assert(std::is_trivially_copyable_v<netcc::fasttune_compact::flow_state>);
static_assert(netcc::ControllerFor<netcc::fasttune_compact, netcc_test::wire_ack>);

TEST(FastTuneCompact, StartsAsTheQ32Object) {
  const netcc::fasttune_params p{.host_rate = 100_Gbps, .base_rtt = 10_us, .expected_flows = 10};
  const netcc::fasttune_compact c{p};
  const netcc::fasttune_compact::wide_type q{p};
  EXPECT_EQ(c.cwnd(), q.cwnd());
  EXPECT_EQ(c.cwnd(), 125000_B);
  EXPECT_EQ(c.pacing_rate(), q.pacing_rate());
  EXPECT_EQ(c.w_ai().raw(), q.w_ai().raw());
  EXPECT_EQ(c.max_window(), q.max_window());
  EXPECT_EQ(c.last_branch(), netcc::fasttune_branch::none);
  EXPECT_EQ(netcc::fasttune_compact::state_bytes, 64U);
}

TEST(FastTuneCompact, SackUpdateStartsSet) {
  const netcc::fasttune_compact c{};
  EXPECT_TRUE(c.sack_update());
}

TEST(FastTuneCompact, SequenceNumbersAcross2To32) {
  netcc_test::sequence_wrap_case<netcc::fasttune_compact>(
      {.host_rate = 100_Gbps, .base_rtt = 10_us, .expected_flows = 4});
}

RC_GTEST_PROP(FastTuneCompact, SameRulesAndWindowsAsQ32BitForBit, ()) {
  netcc_test::compact_equals_q32<netcc::fasttune_compact>();
}

RC_GTEST_PROP(FastTuneCompact, ConfigAndStatesEqualObjects, ()) {
  netcc_test::config_states_equal_objects<netcc::fasttune_compact>();
}

RC_GTEST_PROP(FastTuneCompact, WireWordsEqualDecodedRecords, ()) {
  netcc_test::compact_words_equal_records<netcc::fasttune_compact>();
}

}  // namespace netcc_tests::control_fasttune_compact
