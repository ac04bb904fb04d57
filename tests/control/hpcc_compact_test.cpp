// SPDX-License-Identifier: MIT
// netcc::hpcc_compact (HPCC in q32 with a 64-B per-flow state at wire width): its layout, the
// q32 object's rules and windows bit for bit on realistic wire traces, config + external states
// equal to objects, and the narrowed lastUpdateSeq across 2^32.
#include <netcc/control/controller_concepts.hpp>
#include <netcc/control/hpcc.hpp>
#include <netcc/core/int_wire.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <type_traits>

#include "control/int_window_testing.hpp"

namespace netcc_tests::control_hpcc_compact {

using namespace netcc::literals;

static_assert(sizeof(netcc::hpcc_compact::flow_state) <= 64);
static_assert(std::is_trivially_copyable_v<netcc::hpcc_compact::flow_state>);
static_assert(netcc::ControllerFor<netcc::hpcc_compact, netcc_test::wire_ack>);

TEST(HpccCompact, StartsAsTheQ32Object) {
  const netcc::hpcc_params p{.host_rate = 100_Gbps, .base_rtt = 10_us, .expected_flows = 10};
  const netcc::hpcc_compact c{p};
  const netcc::hpcc_compact::wide_type q{p};
  EXPECT_EQ(c.cwnd(), q.cwnd());
  EXPECT_EQ(c.cwnd(), 125000_B);
  EXPECT_EQ(c.pacing_rate(), q.pacing_rate());
  EXPECT_EQ(c.w_ai().raw(), q.w_ai().raw());
  EXPECT_EQ(c.max_window(), q.max_window());
  EXPECT_EQ(c.last_branch(), netcc::hpcc_branch::none);
  EXPECT_EQ(c.params().max_stage, 5);
  EXPECT_EQ(netcc::hpcc_compact::state_bytes, 64U);
}

TEST(HpccCompact, InvalidMaxStageFallsBackAsTheObject) {
  const netcc::hpcc_compact c{{.max_stage = 2'000'000}};
  EXPECT_EQ(c.params().max_stage, netcc::hpcc_params{}.max_stage);
}

TEST(HpccCompact, SequenceNumbersAcross2To32) {
  netcc_test::sequence_wrap_case<netcc::hpcc_compact>(
      {.host_rate = 100_Gbps, .base_rtt = 10_us, .expected_flows = 4});
}

RC_GTEST_PROP(HpccCompact, SameRulesAndWindowsAsQ32BitForBit, ()) {
  netcc_test::compact_equals_q32<netcc::hpcc_compact>();
}

RC_GTEST_PROP(HpccCompact, ConfigAndStatesEqualObjects, ()) {
  netcc_test::config_states_equal_objects<netcc::hpcc_compact>();
}

RC_GTEST_PROP(HpccCompact, WireWordsEqualDecodedRecords, ()) {
  netcc_test::compact_words_equal_records<netcc::hpcc_compact>();
}

}  // namespace netcc_tests::control_hpcc_compact
