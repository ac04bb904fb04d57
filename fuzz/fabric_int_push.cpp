// SPDX-License-Identifier: MIT
// Fuzz harness: INT push (PowerTCP NSDI'22 §3.3) on in-memory stacks and in place on encoded
// HPCC-format stacks, starting from arbitrary bytes.
// Invariants:
//   * an in-memory stack never exceeds min(max_hops, capacity); a refused push changes nothing;
//   * the in-place encoded push never writes outside the buffer nor past the new end, refuses
//     malformed input without writing, and, on a valid stack, equals decode + push + encode;
//   * the pushed record holds the port's values in the stack's units (non-negative).
#include <netcc/fabric/int_push.hpp>

#include <array>
#include <vector>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using fmt = netcc::hpcc_int_format;
  netcc::fuzz::byte_reader in(data, size);
  netcc::int_push_params p;
  p.max_hops = static_cast<std::size_t>(in.below(8)) + 1;
  // An arbitrary "packet": buffer size and used length from the input, contents too.
  const std::size_t cap = in.below(fmt::max_encoded_size + 12);
  std::vector<std::uint8_t> buf(cap);
  for (auto& b : buf) b = in.u8();
  std::size_t used = in.below(cap + 4);
  netcc::int_stack<3> mem;
  while (!in.empty()) {
    netcc::int_port_view port;
    port.qlen = netcc::bytes{in.i64()};
    port.tx_bytes = in.u64();
    port.link_rate = netcc::bit_rate{in.i64()};
    const netcc::timestamp now{in.i64()};
    // In-memory.
    const auto before = mem;
    const auto r = netcc::int_push(mem, port, now, p);
    const std::size_t lim = p.max_hops < 3 ? p.max_hops : 3;
    NETCC_FUZZ_CHECK(mem.size() <= lim);
    if (r == netcc::int_push_result::pushed) {
      NETCC_FUZZ_CHECK(mem.size() == before.size() + 1);
      const auto& h = mem[before.size()];
      NETCC_FUZZ_CHECK(h.qlen >= netcc::bytes{0} && h.link_rate >= netcc::bit_rate{0});
      NETCC_FUZZ_CHECK(h.ts == static_cast<std::uint64_t>(now.count()) &&
                       h.tx_bytes == port.tx_bytes);
    } else {
      NETCC_FUZZ_CHECK(r == netcc::int_push_result::full && mem == before && before.size() == lim);
    }
    // Encoded, in place.
    const std::vector<std::uint8_t> old = buf;
    const auto d0 = fmt::decode(
        std::span<const std::uint8_t>(buf.data(), used < buf.size() ? used : buf.size()));
    const bool valid = used >= 2 && used <= buf.size() &&
                       d0.error == netcc::int_decode_error::none && d0.consumed == used;
    const auto e = netcc::int_push_encoded<fmt>(buf, used, port, now, p);
    if (!valid) {
      NETCC_FUZZ_CHECK(e.result == netcc::int_push_result::malformed && buf == old &&
                       e.size == used);
      break;  // nothing more can be pushed onto a malformed stack
    }
    auto mirror = d0.hops;
    const auto m = netcc::int_push_wire<fmt>(mirror, port, now, p);
    if (e.result == netcc::int_push_result::pushed) {
      NETCC_FUZZ_CHECK(m == netcc::int_push_result::pushed && e.size == used + fmt::hop_bytes);
      const auto d1 = fmt::decode(std::span<const std::uint8_t>(buf.data(), e.size));
      NETCC_FUZZ_CHECK(d1.error == netcc::int_decode_error::none && d1.hops == mirror);
      for (std::size_t k = e.size; k < buf.size(); ++k) NETCC_FUZZ_CHECK(buf[k] == old[k]);
      for (std::size_t k = 1; k < used; ++k) NETCC_FUZZ_CHECK(buf[k] == old[k]);
    } else {
      NETCC_FUZZ_CHECK(e.result == netcc::int_push_result::full && buf == old && e.size == used);
      NETCC_FUZZ_CHECK(m == netcc::int_push_result::full || buf.size() - used < fmt::hop_bytes);
    }
    used = e.size;
  }
  return 0;
}
