// SPDX-License-Identifier: MIT
// static_assert-only: wrap-safe arithmetic, fixed point and the INT wire format at compile time.
#include <netcc/core/arith.hpp>
#include <netcc/core/int_wire.hpp>
#include <netcc/core/window_history.hpp>
#include <netcc/core/wrap.hpp>

#include <array>

namespace netcc_tests::static_int_wire {

namespace {
using namespace netcc::literals;
using fmt = netcc::hpcc_int_format;

static_assert(netcc::modular<24>::diff(0x000010, 0xFFFFF0) == 32);
static_assert(netcc::modular<17>::diff(0, 0x1FFFF) == 1);
static_assert(netcc::wrapping_counter<20, 128>::delta_bytes(0, 0xFFFFF) == 128);
static_assert(netcc::wrapping_clock<32, std::micro>::diff(1, 0) == 1_us);

constexpr netcc::fixed_point<31, 32> g{0.9};
static_assert((g * netcc::fixed_point<31, 32>{10}).to_int() == 8);  // 8.99999... truncates
static_assert((netcc::fixed_point<15, 16>{1} / netcc::fixed_point<15, 16>{0}) ==
              netcc::fixed_point<15, 16>::max());

constexpr bool round_trip() {
  fmt::stack s;
  s.push(fmt::make_hop(netcc::timestamp{77}, 800_B, 1280, 100_Gbps));
  std::array<std::uint8_t, fmt::max_encoded_size> buf{};
  const auto n = fmt::encode(s, buf);
  const auto d = fmt::decode(std::span<const std::uint8_t>(buf.data(), n));
  return n == 10 && d.error == netcc::int_decode_error::none && d.hops == s &&
         d.hops[0].qlen == 800_B && d.hops[0].tx_bytes == 10;
}
static_assert(round_trip());

constexpr double history() {
  netcc::window_history<double, 2> h;
  h.remember(0, 1.0);
  h.remember(10, 2.0);
  return h.window_at(5, 0.0) + h.window_at(10, 0.0);
}
static_assert(history() == 3.0);
}  // namespace

}  // namespace netcc_tests::static_int_wire
