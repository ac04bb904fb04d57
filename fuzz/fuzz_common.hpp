// SPDX-License-Identifier: MIT
// Shared by every harness: a byte reader that decodes raw fuzzer bytes into netcc feedback
// (never reading past the end: missing bytes read as zero), and NETCC_FUZZ_CHECK, which
// aborts with the failed invariant so both libFuzzer and the replay main report it.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <netcc/core.hpp>

#define NETCC_FUZZ_CHECK(cond)                                                          \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      std::fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                     \
    }                                                                                   \
  } while (0)

namespace netcc::fuzz {

/// Consumes fuzzer input front to back; every read is total.
class byte_reader {
 public:
  byte_reader(const std::uint8_t* data, std::size_t size) noexcept : p_(data), n_(size) {}

  [[nodiscard]] bool empty() const noexcept { return n_ == 0; }
  [[nodiscard]] std::size_t remaining() const noexcept { return n_; }

  std::uint64_t bytes_le(unsigned k) noexcept {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < k; ++i) {
      std::uint64_t b = 0;
      if (n_ > 0) {
        b = *p_++;
        --n_;
      }
      v |= b << (8 * i);
    }
    return v;
  }
  std::uint8_t u8() noexcept { return static_cast<std::uint8_t>(bytes_le(1)); }
  std::uint16_t u16() noexcept { return static_cast<std::uint16_t>(bytes_le(2)); }
  std::uint32_t u32() noexcept { return static_cast<std::uint32_t>(bytes_le(4)); }
  std::uint64_t u64() noexcept { return bytes_le(8); }
  std::int64_t i64() noexcept {
    const std::uint64_t u = u64();
    std::int64_t v;
    std::memcpy(&v, &u, sizeof v);
    return v;
  }
  bool boolean() noexcept { return (u8() & 1) != 0; }
  /// A value in [0, n) (0 when n == 0).
  std::uint64_t below(std::uint64_t n) noexcept { return n == 0 ? 0 : u64() % n; }
  /// A double from raw bits: NaN, infinities, denormals and huge values all occur.
  double raw_double() noexcept {
    const std::uint64_t u = u64();
    double d;
    std::memcpy(&d, &u, sizeof d);
    return d;
  }
  /// A signed step biased toward small magnitudes, zero and negatives (time deltas).
  std::int64_t small_step(std::int64_t scale) noexcept {
    switch (u8() % 4) {
      case 0:
        return 0;
      case 1:
        return -static_cast<std::int64_t>(below(static_cast<std::uint64_t>(scale)));
      default:
        return static_cast<std::int64_t>(below(static_cast<std::uint64_t>(scale) * 4));
    }
  }

  /// An INT hop record: raw counters anywhere in their range, rates including zero.
  int_hop hop() noexcept {
    int_hop h;
    h.ts = u64();
    h.qlen = bytes{static_cast<std::int64_t>(u32())};
    h.tx_bytes = u64();
    h.link_rate = bit_rate{static_cast<std::int64_t>(below(1'000'000'000'001ULL))};
    return h;
  }

 private:
  const std::uint8_t* p_;
  std::size_t n_;
};

/// True when `x` is finite (doubles) or always (fixed point).
template <class T>
bool finite(T x) noexcept {
  return number_traits<T>::is_finite(x);
}

}  // namespace netcc::fuzz
