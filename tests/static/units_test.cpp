// SPDX-License-Identifier: MIT
// static_assert-only: the unit arithmetic and its rounding rules, evaluated at compile time.
#include <netcc/core/units.hpp>

namespace netcc_tests::static_units {

namespace {
using namespace netcc::literals;

static_assert(100_Gbps * 8_us == 100'000_B);
static_assert(4_KiB / 100_Gbps == 328_ns);  // 327.68 ns rounds up
static_assert(1_B / 1_Gbps == 8_ns);
static_assert(64_KiB / 10_us == netcc::bit_rate{52'428'800'000});
static_assert(1_Gbps * 7_ns == 0_B);  // 0.875 B rounds toward zero
static_assert(netcc::to_bits(3_B) == 24_bit);
static_assert(netcc::to_bytes_ceil(9_bit) == 2_B && netcc::to_bytes_floor(9_bit) == 1_B);
static_assert(1500_B / netcc::bit_rate{0} == netcc::duration::max());
static_assert(1500_B / 0_ns == netcc::bit_rate::max());
static_assert(0_B / 0_ns == netcc::bit_rate::zero());
static_assert(netcc::bit_rate::max() * 100_s == netcc::bytes::max());  // saturates, no UB
static_assert(2.5_Gbps == netcc::bit_rate{2'500'000'000});
static_assert(1.5_us == 1500_ns);
static_assert(64_KiB == 65536_B && 1_MB == 1000'000_B && 1_MiB == 1048576_B);
}  // namespace

}  // namespace netcc_tests::static_units
