// SPDX-License-Identifier: MIT
// Fuzz harness: wrap-safe differences of N-bit INT counters and timestamps.
// Invariants, for every width N in {16, 17, 20, 24, 32, 64} and unit scale:
//   * diff((a + d) mod 2^N, a) == d for any a and any |d| < 2^(N-1) (the wrap law);
//   * diff(a, b) lies in [-2^(N-1), 2^(N-1)) and diff(b, a) == -diff(a, b) except at -2^(N-1);
//   * a scaled counter's byte delta is the unit delta times the unit;
//   * a wrapping_clock's encode/diff round-trips durations below half the range;
//   * unwrapper<N> reconstructs a 64-bit walk made of steps below 2^(N-1).
#include "fuzz_common.hpp"

namespace {

using netcc::fuzz::byte_reader;

template <unsigned N>
void check_width(byte_reader& in) {
  using m = netcc::modular<N>;
  const std::uint64_t a = in.u64();
  const std::uint64_t half = N == 64 ? (std::uint64_t{1} << 63) : (std::uint64_t{1} << (N - 1));
  // |d| < 2^(N-1)
  const std::uint64_t mag = in.u64() % half;
  const std::int64_t d =
      in.boolean() ? -static_cast<std::int64_t>(mag) : static_cast<std::int64_t>(mag);
  NETCC_FUZZ_CHECK(m::diff(m::add(a, d), a) == d);
  NETCC_FUZZ_CHECK(m::diff(m::wrap(a + static_cast<std::uint64_t>(d)), m::wrap(a)) == d);

  const std::uint64_t b = in.u64();
  const std::int64_t x = m::diff(a, b);
  if constexpr (N < 64) {
    NETCC_FUZZ_CHECK(x >= -static_cast<std::int64_t>(half) && x < static_cast<std::int64_t>(half));
    if (x != -static_cast<std::int64_t>(half)) NETCC_FUZZ_CHECK(m::diff(b, a) == -x);
  }

  // Scaled counter: INT tx bytes in 128-byte units, qlen in 80-byte units.
  if constexpr (N <= 40) {
    using c128 = netcc::wrapping_counter<N, 128>;
    using c80 = netcc::wrapping_counter<N, 80>;
    NETCC_FUZZ_CHECK(c128::delta_bytes(m::add(a, d), a) == d * 128);
    NETCC_FUZZ_CHECK(c80::delta_bytes(m::add(a, d), a) == d * 80);
  }
  // Timestamp clock in ns: encode(t0 + dt) - encode(t0) == dt for |dt| < half.
  using clk = netcc::wrapping_clock<N>;
  const netcc::duration t0{static_cast<std::int64_t>(a >> 2)};
  const netcc::duration t1 = t0 + netcc::duration{d / 2};
  NETCC_FUZZ_CHECK(clk::diff(clk::encode(t1), clk::encode(t0)) == netcc::duration{d / 2});

  // Unwrapper: a walk of small steps is reconstructed exactly.
  netcc::unwrapper<N> u{a};
  std::uint64_t truth = m::wrap(a);
  for (int k = 0; k < 8 && !in.empty(); ++k) {
    const std::uint64_t step_mag = in.u64() % half;
    const bool back = in.boolean() && truth >= step_mag;
    truth = back ? truth - step_mag : truth + step_mag;
    NETCC_FUZZ_CHECK(u.extend(m::wrap(truth)) == truth);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_reader in(data, size);
  while (!in.empty()) {
    switch (in.u8() % 6) {
      case 0:
        check_width<16>(in);
        break;
      case 1:
        check_width<17>(in);
        break;
      case 2:
        check_width<20>(in);
        break;
      case 3:
        check_width<24>(in);
        break;
      case 4:
        check_width<32>(in);
        break;
      default:
        check_width<64>(in);
        break;
    }
  }
  return 0;
}
