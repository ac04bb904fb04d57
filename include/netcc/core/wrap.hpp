// SPDX-License-Identifier: MIT
/// @file
/// @brief Wrap-safe arithmetic for N-bit counters and timestamps, and the clock and counter
/// traits built on it.
///
/// NIC and INT fields are narrow (a 24-bit ns timestamp wraps every 16.8 ms; a 20-bit counter
/// of 128-byte units every 128 MiB) and wrapping is a normal event. The difference of two
/// readings is taken modulo 2^N and read as a signed number in [-2^(N-1), 2^(N-1)): correct
/// whenever the true difference is smaller than half the range, for any starting value.
///
/// | traits type                          | what it describes                          |
/// | ------------------------------------ | ------------------------------------------ |
/// | netcc::wrapping_clock<N, Period>     | an N-bit timestamp ticking every `Period`  |
/// | netcc::wrapping_counter<N, Unit>     | an N-bit counter of `Unit`-byte units       |
/// | netcc::unwrapper<N>                  | extends N-bit readings to a 64-bit count    |
///
/// Sources: RFC 1982 §3 (serial number arithmetic: addition and comparison modulo 2^N); the field
/// widths of HPCC's INT (SIGCOMM'19, §5) and Bolt's 32-bit TX timestamp (NSDI'23, Listing 1).
///
/// @code
/// using ts24 = netcc::wrapping_clock<24>;                 // INT timestamp, ns
/// auto dt = ts24::diff(0x000010, 0xFFFFF0);                // 32 ns, across the wrap
/// using tx20 = netcc::wrapping_counter<20, 128>;           // INT tx bytes, 128-B units
/// std::int64_t db = tx20::delta_bytes(2, 0xFFFFF);         // 3 * 128 = 384 B
/// @endcode
#pragma once

#include <bit>
#include <chrono>
#include <concepts>
#include <cstdint>
#include <ratio>

#include "netcc/core/units.hpp"

namespace netcc {

/// @brief Modular arithmetic on the low `Bits` bits of a 64-bit word.
/// @tparam Bits counter width, 1..64
/// @code
/// static_assert(netcc::modular<16>::diff(3, 65533) == 6);
/// @endcode
template <unsigned Bits>
struct modular {
  static_assert(Bits >= 1 && Bits <= 64, "modular: Bits must be in [1, 64]");
  /// @brief Counter width.
  static constexpr unsigned width = Bits;
  /// @brief Mask of the low Bits bits.
  static constexpr std::uint64_t mask =
      Bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << Bits) - 1;

  /// @brief `v` reduced modulo 2^Bits.
  [[nodiscard]] static constexpr std::uint64_t wrap(std::uint64_t v) noexcept { return v & mask; }

  /// @brief `(later - earlier) mod 2^Bits`, read as a signed value in [-2^(Bits-1), 2^(Bits-1)).
  ///
  /// Inputs are reduced modulo 2^Bits first, so stray high bits are ignored.
  [[nodiscard]] static constexpr std::int64_t diff(std::uint64_t later,
                                                   std::uint64_t earlier) noexcept {
    // The difference's low Bits bits, sign-extended: shifted to the top of the word and back by
    // an arithmetic shift (both defined on every value in C++20), two instructions where a
    // test of the half range and a select take four or five.
    constexpr unsigned pad = 64 - Bits;
    return std::bit_cast<std::int64_t>((later - earlier) << pad) >> pad;
  }

  /// @brief `(a + d) mod 2^Bits`.
  [[nodiscard]] static constexpr std::uint64_t add(std::uint64_t a, std::int64_t d) noexcept {
    return (a + std::bit_cast<std::uint64_t>(d)) & mask;
  }

  /// @brief True when `a` is strictly after `b` in modular order.
  [[nodiscard]] static constexpr bool after(std::uint64_t a, std::uint64_t b) noexcept {
    return diff(a, b) > 0;
  }
};

/// @brief Clock traits of an N-bit timestamp that ticks every `Period` seconds and wraps.
///
/// Satisfies netcc::ClockTraits. The 64-bit, 1 ns instance describes netcc's own timestamps.
/// @code
/// using c = netcc::wrapping_clock<32, std::ratio<1, 1'000'000>>;   // 32-bit, 1 us ticks
/// netcc::duration d = c::diff(5, 0xFFFFFFFF);                       // 6 us
/// @endcode
template <unsigned Bits, class Period = std::nano>
struct wrapping_clock {
  /// @brief Width of the raw timestamp in bits.
  static constexpr unsigned width = Bits;
  /// @brief Tick length as a std::ratio of seconds.
  using period = Period;
  /// @brief Raw timestamp type (only the low `width` bits are meaningful).
  using raw_type = std::uint64_t;

  /// @brief Wrap-safe `later - earlier` as nanoseconds.
  [[nodiscard]] static constexpr std::chrono::nanoseconds diff(raw_type later,
                                                               raw_type earlier) noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::duration<std::int64_t, Period>{modular<Bits>::diff(later, earlier)});
  }
  /// @brief The raw reading of a nanosecond time (truncated to ticks, wrapped).
  [[nodiscard]] static constexpr raw_type encode(std::chrono::nanoseconds t) noexcept {
    return modular<Bits>::wrap(std::bit_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::duration<std::int64_t, Period>>(t).count()));
  }
  /// @brief The raw reading of this clock at `t` (its time since the epoch, encoded as above).
  [[nodiscard]] static constexpr raw_type encode(timestamp t) noexcept {
    return encode(t.time_since_epoch());
  }
};

/// @brief Counter traits of an N-bit counter of `Unit`-byte units (INT tx bytes, qlen).
///
/// Satisfies netcc::CounterTraits.
/// @code
/// using c = netcc::wrapping_counter<20, 128>;
/// static_assert(c::delta_bytes(1, 0) == 128);
/// @endcode
template <unsigned Bits, std::int64_t Unit = 1>
struct wrapping_counter {
  static_assert(Unit >= 1, "wrapping_counter: Unit must be positive");
  /// @brief Width of the raw counter in bits.
  static constexpr unsigned width = Bits;
  /// @brief Bytes per counter unit.
  static constexpr std::int64_t unit = Unit;
  /// @brief Raw counter type.
  using raw_type = std::uint64_t;

  /// @brief Wrap-safe `later - earlier` in counter units.
  [[nodiscard]] static constexpr std::int64_t delta(raw_type later, raw_type earlier) noexcept {
    return modular<Bits>::diff(later, earlier);
  }
  /// @brief Wrap-safe `later - earlier` in bytes (saturating multiply is not needed: the
  /// delta is below 2^(Bits-1) units, and Bits + log2(Unit) <= 63 is asserted).
  [[nodiscard]] static constexpr std::int64_t delta_bytes(raw_type later,
                                                          raw_type earlier) noexcept {
    static_assert(
        Bits == 64 ? Unit == 1 : Bits + std::bit_width(static_cast<std::uint64_t>(Unit)) <= 64,
        "wrapping_counter: Bits + log2(Unit) must fit in 63 bits");
    return delta(later, earlier) * Unit;
  }
  /// @brief The raw reading of a byte count (truncated to units, wrapped).
  [[nodiscard]] static constexpr raw_type encode(std::uint64_t byte_count) noexcept {
    return modular<Bits>::wrap(byte_count / static_cast<std::uint64_t>(Unit));
  }
};

/// @brief What a timestamp type must say about itself: width, tick, and a wrap-safe diff.
///
/// Shaped like the types above so that a stack can describe its own NIC clock without
/// inheriting from anything: a width, a period, and a diff that returns nanoseconds.
template <class C>
concept ClockTraits = requires(typename C::raw_type a) {
  { C::width } -> std::convertible_to<unsigned>;
  typename C::period;
  { C::diff(a, a) } -> std::same_as<std::chrono::nanoseconds>;
};

/// @brief What a byte-counter type must say about itself: width, unit, wrap-safe delta.
template <class C>
concept CounterTraits = requires(typename C::raw_type a) {
  { C::width } -> std::convertible_to<unsigned>;
  { C::unit } -> std::convertible_to<std::int64_t>;
  { C::delta_bytes(a, a) } -> std::same_as<std::int64_t>;
};

/// @brief Extends successive N-bit readings (e.g. 32-bit TCP sequence numbers) to a 64-bit
/// count, assuming consecutive readings differ by less than 2^(N-1).
///
/// @code
/// netcc::unwrapper<32> u{0xFFFFFF00};
/// auto a = u.extend(0xFFFFFFF0);   // 0xFFFFFFF0
/// auto b = u.extend(0x00000010);   // 0x100000010
/// @endcode
template <unsigned Bits>
class unwrapper {
 public:
  /// @brief Start at `initial` (taken as the first reading, unextended).
  constexpr explicit unwrapper(std::uint64_t initial = 0) noexcept
      : last_(modular<Bits>::wrap(initial)) {}
  /// @brief The 64-bit value of `raw`, nearest to the previous reading.
  constexpr std::uint64_t extend(std::uint64_t raw) noexcept {
    last_ += std::bit_cast<std::uint64_t>(modular<Bits>::diff(raw, last_));
    return last_;
  }
  /// @brief The last extended value.
  [[nodiscard]] constexpr std::uint64_t last() const noexcept { return last_; }

 private:
  std::uint64_t last_;
};

static_assert(ClockTraits<wrapping_clock<24>>);
static_assert(CounterTraits<wrapping_counter<20, 128>>);

}  // namespace netcc
