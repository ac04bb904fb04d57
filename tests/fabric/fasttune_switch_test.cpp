// SPDX-License-Identifier: MIT
// FastTune switch (ISPA'21, Algorithm 1, §III-B, §IV-B): NewACK, S-ACK generation, ACK padding.
#include <netcc/fabric/fasttune_switch.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>

namespace netcc_tests::fabric_fasttune_switch {

using namespace netcc::literals;
using kind = netcc::fasttune_packet_kind;
using netcc::fasttune_action;

namespace {
const netcc::int_port_view port{.qlen = 6000_B, .tx_bytes = 5'000'000, .link_rate = 100_Gbps};
}

TEST(FastTuneSwitch, SackWhileNewAckThenPadding) {
  netcc::fasttune_flow_state f;
  EXPECT_TRUE(f.new_ack);  // Algorithm 1 caption: the initial value of NewACK is true
  netcc::int_stack<> data_int;
  // lines 2-5: every data packet while NewACK holds gets an S-ACK with the port's INT.
  for (int k = 0; k < 3; ++k) {
    const auto r = netcc::fasttune_switch(f, kind::data, data_int, port, netcc::timestamp{k}, {});
    EXPECT_EQ(r.action, fasttune_action::sack_generated);
    EXPECT_TRUE(r.send_sack);
    ASSERT_EQ(r.sack_int.size(), 1u);
    EXPECT_EQ(r.sack_int[0], (netcc::int_hop{.ts = static_cast<std::uint64_t>(k),
                                             .qlen = 6000_B,
                                             .tx_bytes = 5'000'000,
                                             .link_rate = 100_Gbps}));
  }
  EXPECT_EQ(data_int.size(), 0u);  // data packets carry no INT in FastTune
  // lines 6-8: an S-ACK from downstream: NewACK := false and the port's INT is padded.
  netcc::int_stack<> sack;
  sack.push({.ts = 1, .qlen = 0_B, .tx_bytes = 0, .link_rate = 100_Gbps});  // downstream hop
  auto r = netcc::fasttune_switch(f, kind::switch_ack, sack, port, netcc::timestamp{50}, {});
  EXPECT_EQ(r.action, fasttune_action::ack_padded);
  EXPECT_FALSE(r.send_sack);
  EXPECT_FALSE(f.new_ack);
  ASSERT_EQ(sack.size(), 2u);
  EXPECT_EQ(sack[1].ts, 50u);
  EXPECT_EQ(sack[1].qlen, 6000_B);
  // Data after that: forwarded, no more S-ACKs for this flow.
  r = netcc::fasttune_switch(f, kind::data, data_int, port, netcc::timestamp{60}, {});
  EXPECT_EQ(r.action, fasttune_action::forwarded);
  EXPECT_FALSE(r.send_sack);
  // H-ACKs keep being padded.
  netcc::int_stack<> hack;
  r = netcc::fasttune_switch(f, kind::host_ack, hack, port, netcc::timestamp{70}, {});
  EXPECT_EQ(r.action, fasttune_action::ack_padded);
  EXPECT_EQ(hack.size(), 1u);
}

TEST(FastTuneSwitch, OtherPacketsAndToggles) {
  netcc::fasttune_flow_state f;
  netcc::int_stack<> s;
  auto r = netcc::fasttune_switch(f, kind::other, s, port, netcc::timestamp{1}, {});
  EXPECT_EQ(r.action, fasttune_action::forwarded);
  EXPECT_TRUE(f.new_ack);
  EXPECT_EQ(s.size(), 0u);
  // Switch feedback off: no S-ACK; padding off: NewACK still cleared, nothing pushed.
  const netcc::fasttune_switch_params off{.switch_feedback = false, .ack_padding = false};
  EXPECT_FALSE(netcc::fasttune_switch(f, kind::data, s, port, netcc::timestamp{1}, off).send_sack);
  r = netcc::fasttune_switch(f, kind::host_ack, s, port, netcc::timestamp{1}, off);
  EXPECT_EQ(r.action, fasttune_action::ack_not_padded);
  EXPECT_FALSE(f.new_ack);
  EXPECT_EQ(s.size(), 0u);
}

TEST(FastTuneSwitch, FullAckIsNotOverrun) {
  netcc::fasttune_flow_state f;
  netcc::int_stack<2> s;
  const netcc::fasttune_switch_params p;
  EXPECT_EQ(netcc::fasttune_switch(f, kind::host_ack, s, port, netcc::timestamp{1}, p).action,
            fasttune_action::ack_padded);
  EXPECT_EQ(netcc::fasttune_switch(f, kind::host_ack, s, port, netcc::timestamp{2}, p).action,
            fasttune_action::ack_padded);
  EXPECT_EQ(netcc::fasttune_switch(f, kind::host_ack, s, port, netcc::timestamp{3}, p).action,
            fasttune_action::ack_not_padded);
  EXPECT_EQ(s.size(), 2u);
  EXPECT_EQ(s[1].ts, 2u);
}

TEST(FastTuneSwitch, FlowKeyOfAnAckFindsTheDataFlow) {
  const netcc::fasttune_five_tuple data{.src_ip = 0x0A000001,
                                        .dst_ip = 0x0A000102,
                                        .src_port = 40000,
                                        .dst_port = 4791,
                                        .protocol = 17};
  const netcc::fasttune_five_tuple ack{.src_ip = 0x0A000102,
                                       .dst_ip = 0x0A000001,
                                       .src_port = 4791,
                                       .dst_port = 40000,
                                       .protocol = 17};
  EXPECT_EQ(netcc::fasttune_data_path(ack), data);
  EXPECT_EQ(netcc::fasttune_flow_hash(netcc::fasttune_data_path(ack)),
            netcc::fasttune_flow_hash(data));
  EXPECT_NE(netcc::fasttune_flow_hash(ack), netcc::fasttune_flow_hash(data));
}

TEST(FastTuneSwitch, Validate) {
  EXPECT_TRUE(validate(netcc::fasttune_switch_params{}).ok());
  const auto v = validate(netcc::fasttune_switch_params{.int_push = {.max_hops = 0}});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_TRUE(v.names("fasttune_switch.int_push.max_hops"));
}

RC_GTEST_PROP(FastTuneSwitch, NewAckLaws, ()) {
  // Over any packet sequence of one flow: NewACK only ever goes true -> false, and exactly at
  // the first H-ACK or S-ACK; S-ACKs are sent exactly for data packets before it; ACK stacks
  // never exceed the hop limit and every successful pad appends the port's record.
  const auto limit = *rc::gen::inRange<std::size_t>(1, 8);
  const netcc::fasttune_switch_params p{.int_push = {.max_hops = limit}};
  netcc::fasttune_flow_state f;
  bool seen_ack = false;
  const auto n = *rc::gen::inRange(1, 60);
  for (int k = 0; k < n; ++k) {
    const auto kd = *rc::gen::element(kind::data, kind::host_ack, kind::switch_ack, kind::other);
    netcc::int_stack<5> s;
    const auto pre = *rc::gen::inRange(0, 7);
    for (int j = 0; j < pre; ++j) s.push({});
    const std::size_t before = s.size();
    const netcc::int_port_view pv{.qlen = netcc::bytes{*rc::gen::inRange<std::int64_t>(0, 1 << 20)},
                                  .tx_bytes = *rc::gen::arbitrary<std::uint64_t>(),
                                  .link_rate = 10_Gbps};
    const netcc::timestamp now{k};
    const auto r = netcc::fasttune_switch(f, kd, s, pv, now, p);
    const bool is_ack = kd == kind::host_ack || kd == kind::switch_ack;
    RC_ASSERT(r.send_sack == (kd == kind::data && !seen_ack));
    if (r.send_sack) RC_ASSERT(r.sack_int.size() == 1 && r.sack_int[0].qlen == pv.qlen);
    if (is_ack) seen_ack = true;
    RC_ASSERT(f.new_ack == !seen_ack);
    const std::size_t cap = limit < 5 ? limit : 5;
    RC_ASSERT(s.size() <= (before > cap ? before : cap));
    if (r.action == fasttune_action::ack_padded) {
      RC_ASSERT(s.size() == before + 1);
      RC_ASSERT(s[before] == netcc::make_int_hop<netcc::int_stack<5>>(now, pv));
    } else {
      RC_ASSERT(s.size() == before);
    }
  }
}

}  // namespace netcc_tests::fabric_fasttune_switch
