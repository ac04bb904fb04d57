// SPDX-License-Identifier: MIT
// INT push at dequeue (PowerTCP NSDI'22 §3.3, §3.6; HPCC's layout): in-memory, wire-quantised
// and in-place encoded forms; a full stack is never overrun.
#include <netcc/fabric/int_push.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

namespace netcc_tests::fabric_int_push {

using namespace netcc::literals;
using fmt = netcc::hpcc_int_format;

TEST(IntPush, RecordHoldsThePortAtDequeue) {
  netcc::int_stack<> s;
  const netcc::int_port_view port{.qlen = 3000_B, .tx_bytes = 123456789, .link_rate = 25_Gbps};
  EXPECT_EQ(netcc::int_push(s, port, netcc::timestamp{777}, {}), netcc::int_push_result::pushed);
  ASSERT_EQ(s.size(), 1u);
  // 64-bit ns clock and 64-bit byte counter: the values are copied as they are.
  EXPECT_EQ(s[0], (netcc::int_hop{
                      .ts = 777, .qlen = 3000_B, .tx_bytes = 123456789, .link_rate = 25_Gbps}));
}

TEST(IntPush, WireUnitsOfTheStackAreApplied) {
  // A stack with a 24-bit ns clock and 20-bit counter of 128-B units (HPCC): ts = 2^24 + 5
  // wraps to 5; 1000 B -> 7 units (7.8 floored).
  netcc::int_stack<5, netcc::wrapping_clock<24>, netcc::wrapping_counter<20, 128>> s;
  netcc::int_push(s, {.qlen = 100_B, .tx_bytes = 1000, .link_rate = 100_Gbps},
                  netcc::timestamp{(1 << 24) + 5}, {});
  EXPECT_EQ(s[0].ts, 5u);
  EXPECT_EQ(s[0].tx_bytes, 7u);
  EXPECT_EQ(s[0].qlen, 100_B);  // in-memory form keeps bytes exactly
  // Wire-quantised push: qlen in 80-B units (100 -> 80), rate down to the table (30G -> 25G).
  fmt::stack w;
  netcc::int_push_wire<fmt>(w, {.qlen = 100_B, .tx_bytes = 1000, .link_rate = 30_Gbps},
                            netcc::timestamp{5}, {});
  EXPECT_EQ(w[0].qlen, 80_B);
  EXPECT_EQ(w[0].link_rate, 25_Gbps);
  EXPECT_EQ(w[0].tx_bytes, 7u);
}

TEST(IntPush, NegativeInputsAreRecordedAsZero) {
  netcc::int_stack<> s;
  netcc::int_push(s, {.qlen = -5_B, .tx_bytes = 0, .link_rate = netcc::bit_rate{-1}},
                  netcc::timestamp{0}, {});
  EXPECT_EQ(s[0].qlen, 0_B);
  EXPECT_EQ(s[0].link_rate, 0_bps);
}

TEST(IntPush, FullStackIsRefusedUnchanged) {
  netcc::int_stack<5> s;
  const netcc::int_port_view port{.qlen = 1_B, .tx_bytes = 1, .link_rate = 1_Gbps};
  // PowerTCP §3.6: a 40-byte TCP option carries four hops.
  const netcc::int_push_params four{.max_hops = 4};
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(netcc::int_push(s, port, netcc::timestamp{k}, four), netcc::int_push_result::pushed);
  const auto before = s;
  EXPECT_EQ(netcc::int_push(s, port, netcc::timestamp{9}, four), netcc::int_push_result::full);
  EXPECT_TRUE(s == before);
  // The capacity binds when max_hops exceeds it.
  EXPECT_EQ(netcc::int_push(s, port, netcc::timestamp{9}, {.max_hops = 255}),
            netcc::int_push_result::pushed);
  EXPECT_EQ(netcc::int_push(s, port, netcc::timestamp{10}, {.max_hops = 255}),
            netcc::int_push_result::full);
  EXPECT_EQ(s.size(), 5u);
  EXPECT_EQ(s[4].ts, 9u);
}

TEST(IntPush, EncodedInPlace) {
  std::array<std::uint8_t, fmt::max_encoded_size> buf{};
  std::size_t n = 2;  // empty stack: hop count 0
  auto r =
      netcc::int_push_encoded<fmt>(buf, n, {.qlen = 800_B, .tx_bytes = 1280, .link_rate = 100_Gbps},
                                   netcc::timestamp{0xABCDEF}, {});
  ASSERT_EQ(r.result, netcc::int_push_result::pushed);
  EXPECT_EQ(r.size, 10u);
  EXPECT_EQ(buf[0], 1);
  // Hop word: rate code 5 << 61 | ts 0xABCDEF << 37 | tx 10 units << 17 | qlen 10 units.
  const std::uint64_t w =
      (std::uint64_t{5} << 61) | (std::uint64_t{0xABCDEF} << 37) | (std::uint64_t{10} << 17) | 10u;
  for (std::size_t b = 0; b < 8; ++b)
    EXPECT_EQ(buf[2 + b], static_cast<std::uint8_t>(w >> (56 - 8 * b)));
  // Malformed: used beyond the buffer, hop count disagreeing with used, too many hops.
  EXPECT_EQ(netcc::int_push_encoded<fmt>(buf, 43, {}, {}, {}).result,
            netcc::int_push_result::malformed);
  EXPECT_EQ(netcc::int_push_encoded<fmt>(buf, 18, {}, {}, {}).result,
            netcc::int_push_result::malformed);
  EXPECT_EQ(netcc::int_push_encoded<fmt>(buf, 1, {}, {}, {}).result,
            netcc::int_push_result::malformed);
  // No room for 8 more bytes: full, nothing written.
  std::array<std::uint8_t, 12> small{};
  EXPECT_EQ(netcc::int_push_encoded<fmt>(small, 2, {}, {}, {}).result,
            netcc::int_push_result::pushed);
  EXPECT_EQ(netcc::int_push_encoded<fmt>(small, 10, {}, {}, {}).result,
            netcc::int_push_result::full);
  EXPECT_EQ(small[0], 1);
}

TEST(IntPush, Validate) {
  EXPECT_TRUE(validate(netcc::int_push_params{}).ok());
  const auto v = validate(netcc::int_push_params{.max_hops = 0});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].message(), "int_push.max_hops = 0: must be in [1, 255]");
  EXPECT_FALSE(validate(netcc::int_push_params{.max_hops = 256}).ok());
}

RC_GTEST_PROP(IntPush, StackIsNeverOverrun, ()) {
  const auto limit = *rc::gen::inRange<std::size_t>(1, 9);
  const auto pushes = *rc::gen::inRange(0, 20);
  netcc::int_stack<5> s;
  std::array<std::uint8_t, fmt::max_encoded_size + 8> buf{};
  std::size_t n = 2;
  fmt::stack mirror;
  for (int k = 0; k < pushes; ++k) {
    const netcc::int_port_view port{
        .qlen = netcc::bytes{*rc::gen::inRange<std::int64_t>(-100, 20'000'000)},
        .tx_bytes = *rc::gen::arbitrary<std::uint64_t>(),
        .link_rate = netcc::bit_rate{*rc::gen::inRange<std::int64_t>(0, 500'000'000'000)}};
    const netcc::timestamp now{*rc::gen::arbitrary<std::int64_t>()};
    const std::size_t before = s.size();
    const auto r = netcc::int_push(s, port, now, {.max_hops = limit});
    const std::size_t cap = limit < 5 ? limit : 5;
    RC_ASSERT(s.size() <= cap);
    RC_ASSERT((r == netcc::int_push_result::pushed) == (before < cap));
    RC_ASSERT(s.size() == (before < cap ? before + 1 : before));
    // Encoded form in place agrees with decode + push + encode.
    const auto e = netcc::int_push_encoded<fmt>(buf, n, port, now, {.max_hops = limit});
    const auto m = netcc::int_push_wire<fmt>(mirror, port, now, {.max_hops = limit});
    RC_ASSERT(e.result == m);
    n = e.size;
    RC_ASSERT(n <= fmt::max_encoded_size);
    const auto d = fmt::decode(std::span<const std::uint8_t>(buf.data(), n));
    RC_ASSERT(d.error == netcc::int_decode_error::none);
    RC_ASSERT(d.hops == mirror);
  }
  // Bytes after the encoded stack were never written.
  for (std::size_t k = n; k < buf.size(); ++k) RC_ASSERT(buf[k] == 0);
}

}  // namespace netcc_tests::fabric_int_push
