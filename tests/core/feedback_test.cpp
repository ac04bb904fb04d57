// SPDX-License-Identifier: MIT
#include <netcc/core/feedback.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>

namespace netcc_tests::core_feedback {

namespace {

// A stack's own ACK type, read through a traits specialisation without copying it into
// netcc's structs: the customisation point the controllers use.
struct stack_ack {
  std::uint64_t t_ns;
  std::uint32_t cum_ack32;  // 32-bit wire sequence number
  std::uint64_t nxt;
  std::uint16_t len;
  bool ce;
};

}  // namespace

}  // namespace netcc_tests::core_feedback

template <>
struct netcc::feedback_traits<netcc_tests::core_feedback::stack_ack> {
  using stack_ack = netcc_tests::core_feedback::stack_ack;
  static netcc::timestamp now(const stack_ack& a) {
    return netcc::timestamp{static_cast<std::int64_t>(a.t_ns)};
  }
  static netcc::sequence ack_seq(const stack_ack& a) { return a.cum_ack32; }
  static netcc::sequence snd_nxt(const stack_ack& a) { return a.nxt; }
  static netcc::bytes acked_bytes(const stack_ack& a) { return netcc::bytes{a.len}; }
  static bool ecn_echo(const stack_ack& a) { return a.ce; }
};

namespace netcc_tests::core_feedback {

static_assert(netcc::EcnFeedback<stack_ack>);
static_assert(!netcc::IntFeedback<stack_ack>);
static_assert(!netcc::RttFeedback<stack_ack>);
static_assert(!netcc::TimedFeedback<int>);  // primary template is empty: no accessors

namespace {

template <netcc::EcnFeedback E>
netcc::bytes marked_bytes(const E& e) {
  using t = netcc::feedback_traits<E>;
  return t::ecn_echo(e) ? t::acked_bytes(e) : netcc::bytes{0};
}

}  // namespace

TEST(Feedback, StackTypesAreReadThroughTraits) {
  EXPECT_EQ(marked_bytes(stack_ack{1, 2, 3, 1500, true}), netcc::bytes{1500});
  EXPECT_EQ(marked_bytes(stack_ack{1, 2, 3, 1500, false}), netcc::bytes{0});
  netcc::ack_event a{.acked = netcc::bytes{9000}, .ecn_echo = true};
  EXPECT_EQ(marked_bytes(a), netcc::bytes{9000});
}

TEST(Feedback, IntStackIsBounded) {
  netcc::int_stack<2> s;
  const netcc::int_hop h{
      .ts = 1, .qlen = netcc::bytes{2}, .tx_bytes = 3, .link_rate = netcc::bit_rate{4}};
  EXPECT_TRUE(s.push(h));
  EXPECT_TRUE(s.push(h));
  EXPECT_FALSE(s.push(h));  // full: refused, unchanged
  EXPECT_EQ(s.size(), 2u);
  s.count = 200;  // even a corrupted count never reads past the array
  EXPECT_EQ(s.size(), 2u);
}

TEST(Feedback, OwnEventsExposeTheirFields) {
  using t = netcc::feedback_traits<netcc::ack_event>;
  netcc::ack_event a{.now = netcc::timestamp{5},
                     .ack_seq = 10,
                     .snd_nxt = 20,
                     .acked = netcc::bytes{10},
                     .rtt = netcc::duration{7},
                     .inc = true};
  a.hops.push(
      {.ts = 100, .qlen = netcc::bytes{3000}, .tx_bytes = 1, .link_rate = netcc::bit_rate{25}});
  EXPECT_EQ(t::now(a), netcc::timestamp{5});
  EXPECT_EQ(t::ack_seq(a), 10u);
  EXPECT_EQ(t::snd_nxt(a), 20u);
  EXPECT_EQ(t::rtt(a), netcc::duration{7});
  EXPECT_TRUE(t::inc(a));
  EXPECT_EQ(t::hop_count(a), 1u);
  EXPECT_EQ(t::hop(a, 0).qlen, netcc::bytes{3000});

  using st = netcc::feedback_traits<netcc::src_event>;
  const netcc::src_event s{.queue = netcc::bytes{9000}, .tx_timestamp = 0xFFFFFFF0};
  EXPECT_EQ(st::queue_size(s), netcc::bytes{9000});
  EXPECT_EQ(st::src_clock::diff(5, st::tx_timestamp(s)), netcc::duration{21});
}

RC_GTEST_PROP(Feedback, IntStackEqualityIgnoresUnusedSlots, ()) {
  netcc::int_stack<5> a, b;
  const auto n = *rc::gen::inRange<int>(0, 6);
  for (int i = 0; i < n; ++i) {
    const netcc::int_hop h{.ts = *rc::gen::arbitrary<std::uint64_t>(),
                           .qlen = netcc::bytes{i},
                           .tx_bytes = 0,
                           .link_rate = netcc::bit_rate{1}};
    a.push(h);
    b.push(h);
  }
  b.hops[4].ts ^= (n < 5) ? 1 : 0;  // garbage beyond size() does not matter
  RC_ASSERT(a == b);
}

}  // namespace netcc_tests::core_feedback
