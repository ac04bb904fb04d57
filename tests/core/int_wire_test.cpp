// SPDX-License-Identifier: MIT
#include <netcc/core/int_wire.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace netcc_tests::core_int_wire {

using fmt = netcc::hpcc_int_format;
using namespace netcc::literals;

TEST(IntWire, HandPackedHop) {
  // rate 100G = code 5; ts = 0xABCDEF; tx = 0x12345 units; qlen = 800 B = 10 units.
  const std::uint64_t w = fmt::pack(0xABCDEF, 0x12345, 800_B, 5);
  EXPECT_EQ(w, (std::uint64_t{5} << 61) | (std::uint64_t{0xABCDEF} << 37) |
                   (std::uint64_t{0x12345} << 17) | 10u);
  const netcc::int_hop h = fmt::decode_hop(w);
  EXPECT_EQ(h.ts, 0xABCDEFu);
  EXPECT_EQ(h.tx_bytes, 0x12345u);
  EXPECT_EQ(h.qlen, 800_B);
  EXPECT_EQ(h.link_rate, 100_Gbps);
}

TEST(IntWire, UnitsRoundDownAndQueueSaturates) {
  const auto h = fmt::make_hop(netcc::timestamp{(1 << 24) + 5}, 159_B, 128 * 3 + 100, 30_Gbps);
  EXPECT_EQ(h.ts, 5u);              // wrapped 24-bit ns
  EXPECT_EQ(h.qlen, 80_B);          // 159 B -> 1 unit of 80 B
  EXPECT_EQ(h.tx_bytes, 3u);        // 484 B -> 3 units of 128 B
  EXPECT_EQ(h.link_rate, 25_Gbps);  // largest table rate <= 30G
  EXPECT_EQ(fmt::make_hop({}, 1_GB, 0, 1_Gbps).qlen, fmt::max_qlen);
  EXPECT_EQ(fmt::max_qlen, netcc::bytes{131071 * 80});
  EXPECT_EQ(fmt::make_hop({}, -5_B, 0, 0_bps).qlen, 0_B);
  EXPECT_EQ(fmt::make_hop({}, 0_B, 0, 0_bps).link_rate, 1_Gbps);  // below the table: code 0
}

// rate_code is the largest table entry at or below the rate (code 0 below the table), as a
// scan over the whole table defines it: every entry, its neighbours, and any rate.
namespace {
std::uint64_t scanned_rate_code(netcc::bit_rate r) {
  std::uint64_t code = 0;
  for (std::uint64_t i = 0; i < netcc::default_int_rate_table.size(); ++i)
    if (netcc::default_int_rate_table[i] <= r) code = i;
  return code;
}
}  // namespace

TEST(IntWire, RateCodeOfEveryTableEntryAndItsNeighbours) {
  const auto& tab = netcc::default_int_rate_table;
  for (std::size_t i = 0; i < tab.size(); ++i) {
    EXPECT_EQ(fmt::rate_code(tab[i]), i);
    EXPECT_EQ(fmt::rate_code(tab[i] + netcc::bit_rate{1}), i);
    EXPECT_EQ(fmt::rate_code(tab[i] - netcc::bit_rate{1}), i == 0 ? 0 : i - 1);
  }
  EXPECT_EQ(fmt::rate_code(netcc::bit_rate{0}), 0u);
  EXPECT_EQ(fmt::rate_code(netcc::bit_rate{std::numeric_limits<std::int64_t>::max()}), 7u);
}

RC_GTEST_PROP(IntWire, RateCodeIsTheLargestTableEntryAtOrBelow, ()) {
  const auto& tab = netcc::default_int_rate_table;
  const std::int64_t near = tab[*rc::gen::inRange<std::size_t>(0, tab.size())].bps() +
                            *rc::gen::inRange<std::int64_t>(-2, 3);
  const netcc::bit_rate r{*rc::gen::element(
      near, *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 40),
      *rc::gen::inRange<std::int64_t>(0, std::numeric_limits<std::int64_t>::max()))};
  RC_ASSERT(fmt::rate_code(r) == scanned_rate_code(r));
}

// rate_code_is(r, c) is rate_code(r) == c: at every entry and its neighbours, at the ends of
// bit_rate's range, for any rate, and for codes past the table (no rate's).
TEST(IntWire, RateCodeIsAtEveryTableEntryAndTheEnds) {
  const auto& tab = netcc::default_int_rate_table;
  std::vector<netcc::bit_rate> rates{netcc::bit_rate{std::numeric_limits<std::int64_t>::min()},
                                     netcc::bit_rate{-1}, netcc::bit_rate{0},
                                     netcc::bit_rate{std::numeric_limits<std::int64_t>::max()}};
  for (const netcc::bit_rate t : tab)
    rates.insert(rates.end(), {t - netcc::bit_rate{1}, t, t + netcc::bit_rate{1}});
  for (const netcc::bit_rate r : rates)
    for (std::uint64_t c = 0; c < 10; ++c)
      EXPECT_EQ(fmt::rate_code_is(r, c), fmt::rate_code(r) == c) << r.bps() << " code " << c;
  EXPECT_FALSE(fmt::rate_code_is(100_Gbps, ~std::uint64_t{0}));
}

RC_GTEST_PROP(IntWire, RateCodeIsEqualsTheSearch, ()) {
  const auto& tab = netcc::default_int_rate_table;
  const std::int64_t near = tab[*rc::gen::inRange<std::size_t>(0, tab.size())].bps() +
                            *rc::gen::inRange<std::int64_t>(-2, 3);
  const netcc::bit_rate r{*rc::gen::element(near, *rc::gen::arbitrary<std::int64_t>())};
  const auto c = *rc::gen::inRange<std::uint64_t>(0, 9);
  RC_ASSERT(fmt::rate_code_is(r, c) == (fmt::rate_code(r) == c));
}

TEST(IntWire, StackRoundTripAndErrors) {
  fmt::stack s;
  s.push(fmt::make_hop(netcc::timestamp{1000}, 8000_B, 1'000'000, 100_Gbps));
  s.push(fmt::make_hop(netcc::timestamp{2000}, 0_B, 5'000'000, 400_Gbps));
  std::array<std::uint8_t, fmt::max_encoded_size> buf{};
  ASSERT_EQ(fmt::encode(s, buf), 18u);
  EXPECT_EQ(buf[0], 2);
  const auto d = fmt::decode(std::span<const std::uint8_t>(buf.data(), 18));
  EXPECT_EQ(d.error, netcc::int_decode_error::none);
  EXPECT_EQ(d.consumed, 18u);
  EXPECT_TRUE(d.hops == s);

  EXPECT_EQ(fmt::decode(std::span<const std::uint8_t>(buf.data(), 1)).error,
            netcc::int_decode_error::short_header);
  EXPECT_EQ(fmt::decode(std::span<const std::uint8_t>(buf.data(), 17)).error,
            netcc::int_decode_error::short_payload);
  buf[0] = 6;
  const auto bad = fmt::decode(buf);
  EXPECT_EQ(bad.error, netcc::int_decode_error::too_many_hops);
  EXPECT_EQ(bad.hops.size(), 0u);
  std::array<std::uint8_t, 4> small{};
  EXPECT_EQ(fmt::encode(s, small), 0u);  // refuses rather than overrunning
}

TEST(IntWire, DeltasAcrossTheWrapUseTheFormatsTraits) {
  using clk = fmt::timestamp_clock;
  using ctr = fmt::tx_counter;
  const auto a = fmt::make_hop(netcc::timestamp{(1 << 24) - 100}, 0_B,
                               (std::uint64_t{1} << 27) - 256, 100_Gbps);
  const auto b = fmt::make_hop(netcc::timestamp{(1 << 24) + 900}, 0_B,
                               (std::uint64_t{1} << 27) + 1024, 100_Gbps);
  EXPECT_EQ(clk::diff(b.ts, a.ts), 1000_ns);
  EXPECT_EQ(ctr::delta_bytes(b.tx_bytes, a.tx_bytes), 1280);
}

RC_GTEST_PROP(IntWire, EncodeDecodeIsIdentityOnDecodedHops, (std::uint64_t w)) {
  // Every 64-bit word is a valid hop; decode then encode gives the word back.
  RC_ASSERT(fmt::encode_hop(fmt::decode_hop(w)) == w);
}

RC_GTEST_PROP(IntWire, CustomWidthsRoundTrip, ()) {
  using f = netcc::int_wire_format<3, 32, 16, 64, 13, 64>;
  static_assert(f::rate_bits == 3);
  const auto w = *rc::gen::arbitrary<std::uint64_t>();
  RC_ASSERT(f::encode_hop(f::decode_hop(w)) == w);
}

// ---- Stacks of wire words (word_stack): the hops as decode reads them, with their words.

TEST(IntWireWords, PushReadAndCapacity) {
  fmt::word_stack s;
  const auto h = fmt::make_hop(netcc::timestamp{1000}, 8000_B, 1'000'000, 100_Gbps);
  EXPECT_TRUE(s.push(h));
  EXPECT_TRUE(s.push_word(0x0123'4567'89AB'CDEFULL));
  ASSERT_EQ(s.size(), 2u);
  const fmt::word_hop a = s[0];
  EXPECT_EQ(static_cast<const netcc::int_hop&>(a), h);  // the decoded record
  EXPECT_EQ(a.word, fmt::encode_hop(h));
  EXPECT_EQ(static_cast<const netcc::int_hop&>(s[1]), fmt::decode_hop(0x0123'4567'89AB'CDEFULL));
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(s.push_word(7));
  EXPECT_FALSE(s.push_word(8));  // full at max_hops: refused, nothing changed
  EXPECT_FALSE(s.push(h));
  EXPECT_EQ(s.size(), fmt::max_hops);
  EXPECT_EQ(s[4].word, 7u);
  s.count = 200;  // set by hand beyond capacity: size() still stops at max_hops
  EXPECT_EQ(s.size(), fmt::max_hops);
}

TEST(IntWireWords, DecodeWordsAsDecodeAndItsErrors) {
  fmt::stack s;
  s.push(fmt::make_hop(netcc::timestamp{1000}, 8000_B, 1'000'000, 100_Gbps));
  s.push(fmt::make_hop(netcc::timestamp{2000}, 0_B, 5'000'000, 400_Gbps));
  std::array<std::uint8_t, fmt::max_encoded_size> buf{};
  ASSERT_EQ(fmt::encode(s, buf), 18u);
  const auto d = fmt::decode_words(std::span<const std::uint8_t>(buf.data(), 18));
  EXPECT_EQ(d.error, netcc::int_decode_error::none);
  EXPECT_EQ(d.consumed, 18u);
  ASSERT_EQ(d.hops.size(), 2u);
  EXPECT_TRUE(d.hops == fmt::words_of(s));
  for (std::size_t i = 0; i < 2; ++i)
    EXPECT_EQ(static_cast<const netcc::int_hop&>(d.hops[i]), s[i]) << "hop " << i;

  EXPECT_EQ(fmt::decode_words(std::span<const std::uint8_t>(buf.data(), 0)).error,
            netcc::int_decode_error::short_header);
  EXPECT_EQ(fmt::decode_words(std::span<const std::uint8_t>(buf.data(), 17)).error,
            netcc::int_decode_error::short_payload);
  buf[0] = 6;
  const auto bad = fmt::decode_words(buf);
  EXPECT_EQ(bad.error, netcc::int_decode_error::too_many_hops);
  EXPECT_EQ(bad.hops.size(), 0u);
  EXPECT_EQ(bad.consumed, 0u);
}

TEST(IntWireWords, WithWordsKeepsTheAckAndCarriesItsWords) {
  netcc::basic_ack_event<fmt::stack> e{.now = netcc::timestamp{7},
                                       .ack_seq = 1000,
                                       .snd_nxt = 5000,
                                       .acked = 1000_B,
                                       .rtt = netcc::duration{9000},
                                       .ecn_echo = true,
                                       .inc = true,
                                       .switch_ack = true};
  e.hops.push(fmt::make_hop(netcc::timestamp{1000}, 8000_B, 1'000'000, 100_Gbps));
  e.hops.push(fmt::make_hop(netcc::timestamp{1037}, 160_B, 2'000'000, 25_Gbps));
  const auto w = fmt::with_words(e);
  EXPECT_EQ(w.now, e.now);
  EXPECT_EQ(w.ack_seq, e.ack_seq);
  EXPECT_EQ(w.snd_nxt, e.snd_nxt);
  EXPECT_EQ(w.acked, e.acked);
  EXPECT_EQ(w.rtt, e.rtt);
  EXPECT_TRUE(w.ecn_echo && w.inc && w.switch_ack);
  ASSERT_EQ(w.hops.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(static_cast<const netcc::int_hop&>(w.hops[i]), e.hops[i]) << "hop " << i;
    EXPECT_EQ(w.hops[i].word, fmt::encode_hop(e.hops[i])) << "hop " << i;
  }
}

RC_GTEST_PROP(IntWireWords, DecodeWordsReadsWhatDecodeReads, ()) {
  const auto bytes = *rc::gen::container<std::vector<std::uint8_t>>(
      *rc::gen::inRange<std::size_t>(0, fmt::max_encoded_size + 4),
      rc::gen::arbitrary<std::uint8_t>());
  const std::span<const std::uint8_t> in(bytes.data(), bytes.size());
  const auto d = fmt::decode(in);
  const auto w = fmt::decode_words(in);
  RC_ASSERT(w.error == d.error);
  RC_ASSERT(w.consumed == d.consumed);
  RC_ASSERT(w.hops.size() == d.hops.size());
  for (std::size_t i = 0; i < d.hops.size(); ++i) {
    RC_ASSERT(static_cast<const netcc::int_hop&>(w.hops[i]) == d.hops[i]);
    RC_ASSERT(w.hops[i].word == fmt::encode_hop(d.hops[i]));
  }
}

// Any word reads as decode_hop reads it, and its kept word is the one encode_hop writes back
// for that hop (HPCC's 3-bit rate code: every word is canonical).
RC_GTEST_PROP(IntWireWords, ReadHopIsDecodeHopWithTheCanonicalWord, (std::uint64_t w)) {
  const fmt::word_hop h = fmt::read_hop(w);
  RC_ASSERT(static_cast<const netcc::int_hop&>(h) == fmt::decode_hop(w));
  RC_ASSERT(h.word == fmt::encode_hop(fmt::decode_hop(w)));
  RC_ASSERT(h.word == w);
  RC_ASSERT(fmt::canonical_word(w) == w);
}

// A format with a 4-bit rate code: codes past the table read as its last entry, and the kept
// word carries that code, as encode_hop would write the hop back.
RC_GTEST_PROP(IntWireWords, CodesPastTheTableReadAsTheLastEntry, (std::uint64_t w)) {
  using f = netcc::int_wire_format<5, 24, 20, 128, 16, 80>;
  static_assert(f::rate_bits == 4);
  const f::word_hop h = f::read_hop(w);
  RC_ASSERT(static_cast<const netcc::int_hop&>(h) == f::decode_hop(w));
  RC_ASSERT(h.word == f::encode_hop(f::decode_hop(w)));
  RC_ASSERT((h.word >> 60) <= 7u);
  RC_ASSERT((h.word << 4) == (w << 4));  // the other fields as they came
  RC_ASSERT(f::canonical_word(w) == h.word);
  // Stacks whose words differ only in codes past the table hold the same hops.
  f::word_stack a, b;
  a.push_word(w);
  b.push_word(h.word);
  RC_ASSERT(a == b);
  b.push_word(w);
  RC_ASSERT(!(a == b));
}

}  // namespace netcc_tests::core_int_wire
