// SPDX-License-Identifier: MIT
// Fuzz harness: the INT wire decoder on arbitrary bytes.
// Invariants: decoding never reads past the buffer; a decoded stack re-encodes to exactly the
// consumed bytes except the reserved header byte (round trip); an error yields an empty stack;
// every decoded hop has a table rate, a non-negative qlen within max_qlen, and raw fields
// within their widths. decode_words on the same bytes gives the same error and consumed count,
// and each of its hops reads as the decoded hop with that hop's re-encoded word; the same
// for a 4-bit rate code format, whose words may carry codes past the table.
#include <netcc/core/int_wire.hpp>

#include <array>
#include <vector>

#include "fuzz_common.hpp"

namespace {

// decode_words against decode on the same bytes.
template <class Fmt>
void words_as_decode(const std::vector<std::uint8_t>& in) {
  const std::span<const std::uint8_t> s(in.data(), in.size());
  const auto d = Fmt::decode(s);
  const auto w = Fmt::decode_words(s);
  NETCC_FUZZ_CHECK(w.error == d.error && w.consumed == d.consumed);
  NETCC_FUZZ_CHECK(w.hops.size() == d.hops.size());
  for (std::size_t i = 0; i < d.hops.size(); ++i) {
    const typename Fmt::word_hop h = w.hops[i];
    NETCC_FUZZ_CHECK(static_cast<const netcc::int_hop&>(h) == d.hops[i]);
    NETCC_FUZZ_CHECK(h.word == Fmt::encode_hop(d.hops[i]));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using fmt = netcc::hpcc_int_format;
  // Copy so that ASan catches any read past `size`.
  const std::vector<std::uint8_t> in(data, data + size);
  words_as_decode<fmt>(in);
  words_as_decode<netcc::int_wire_format<5, 24, 20, 128, 16, 80>>(in);
  const auto d = fmt::decode(std::span<const std::uint8_t>(in.data(), in.size()));
  if (d.error != netcc::int_decode_error::none) {
    NETCC_FUZZ_CHECK(d.hops.size() == 0 && d.consumed == 0);
    return 0;
  }
  NETCC_FUZZ_CHECK(d.consumed == fmt::header_bytes + d.hops.size() * fmt::hop_bytes);
  NETCC_FUZZ_CHECK(d.consumed <= in.size());
  for (std::size_t i = 0; i < d.hops.size(); ++i) {
    const auto& h = d.hops[i];
    NETCC_FUZZ_CHECK(h.qlen >= netcc::bytes{0} && h.qlen <= fmt::max_qlen);
    NETCC_FUZZ_CHECK(h.ts <= netcc::modular<24>::mask && h.tx_bytes <= netcc::modular<20>::mask);
    NETCC_FUZZ_CHECK(fmt::rate_of(fmt::rate_code(h.link_rate)) == h.link_rate);
  }
  std::array<std::uint8_t, fmt::max_encoded_size> out{};
  const std::size_t n = fmt::encode(d.hops, out);
  NETCC_FUZZ_CHECK(n == d.consumed);
  NETCC_FUZZ_CHECK(out[0] == in[0]);
  for (std::size_t k = fmt::header_bytes; k < n; ++k) NETCC_FUZZ_CHECK(out[k] == in[k]);
  return 0;
}
