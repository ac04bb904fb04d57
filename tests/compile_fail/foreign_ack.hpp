// SPDX-License-Identifier: MIT
// A stack's own ACK, CNP and SRC types with complete feedback traits, for the compile-fail
// tests of the controllers' diagnostics. A test drops one accessor (or narrows the INT clock)
// by defining one macro before including this header under NETCC_COMPILE_FAIL:
//   CF_DROP_HOP, CF_DROP_RTT, CF_DROP_ECN, CF_DROP_INC, CF_DROP_QUEUE_SIZE, CF_DROP_CNP_NOW,
//   CF_CLOCK24 (24-bit INT timestamps, as on the wire, instead of the default stack's 64).
#pragma once

#include <netcc/core/feedback.hpp>

#include <cstdint>

namespace cf {
struct ack {
  std::int64_t t = 0;
  std::uint64_t seq = 0, nxt = 0;
  std::uint32_t len = 0, rtt = 0;
  bool ce = false, inc = false;
};
struct cnp {
  std::int64_t t = 0;
};
struct src {
  std::int64_t t = 0;
  std::uint32_t queue = 0, tx = 0;
};
}  // namespace cf

template <>
struct netcc::feedback_traits<cf::ack> {
#ifdef CF_CLOCK24
  using timestamp_clock = netcc::wrapping_clock<24>;
#else
  using timestamp_clock = netcc::wrapping_clock<64>;
#endif
  using tx_counter = netcc::wrapping_counter<64, 1>;
  static netcc::timestamp now(const cf::ack& a) {
    return netcc::timestamp{a.t};
  }
  static netcc::sequence ack_seq(const cf::ack& a) {
    return a.seq;
  }
  static netcc::sequence snd_nxt(const cf::ack& a) {
    return a.nxt;
  }
  static netcc::bytes acked_bytes(const cf::ack& a) {
    return netcc::bytes{a.len};
  }
#ifndef CF_DROP_RTT
  static netcc::duration rtt(const cf::ack& a) {
    return netcc::duration{a.rtt};
  }
#endif
#ifndef CF_DROP_ECN
  static bool ecn_echo(const cf::ack& a) {
    return a.ce;
  }
#endif
#ifndef CF_DROP_INC
  static bool inc(const cf::ack& a) {
    return a.inc;
  }
#endif
  static std::size_t hop_count(const cf::ack&) {
    return 0;
  }
#ifndef CF_DROP_HOP
  static netcc::int_hop hop(const cf::ack&, std::size_t) {
    return {};
  }
#endif
};

template <>
struct netcc::feedback_traits<cf::cnp> {
#ifndef CF_DROP_CNP_NOW
  static netcc::timestamp now(const cf::cnp& c) {
    return netcc::timestamp{c.t};
  }
#endif
};

template <>
struct netcc::feedback_traits<cf::src> {
  using src_clock = netcc::wrapping_clock<32>;
  static netcc::timestamp now(const cf::src& s) { return netcc::timestamp{s.t}; }
#ifndef CF_DROP_QUEUE_SIZE
  static netcc::bytes queue_size(const cf::src& s) {
    return netcc::bytes{s.queue};
  }
#endif
  static netcc::bit_rate link_rate(const cf::src&) {
    return netcc::bit_rate{100'000'000'000};
  }
  static std::uint64_t tx_timestamp(const cf::src& s) {
    return s.tx;
  }
};
