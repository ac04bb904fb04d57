// SPDX-License-Identifier: MIT
// Shared by the INT controller harnesses (PowerTCP, HPCC, FastTune): decodes raw bytes into an
// INT ACK stream and hands each event to `step` twice over, as netcc's 64-bit INT ACK and as
// the same ACK on the HPCC wire format (24-bit timestamps and 20-bit counters that wrap). The
// stream holds new ACKs over well-formed or arbitrary hop records (with an RTT sample, and the
// switch-ACK flag set at random), exact duplicates of the previous ACK, and reordered replays
// of earlier ACKs; the wire-format copy carries either the same hops squeezed into 8 B/hop or
// hops decoded from raw input bytes. Arbitrary ("wild") hops take any timestamp and counter
// (jumps to 2^63 - 1 on the 64-bit stack), and queue lengths and link rates across their whole
// int64 type (byte_reader::hop, wide_hop); ACK times reach the ends of the clock
// (byte_reader::time_after).
#pragma once

#include <netcc/core/int_wire.hpp>

#include <array>
#include <span>

#include "fuzz_common.hpp"

namespace netcc::fuzz {

/// Calls step(ack, wire_ack, duplicate) for up to 256 events decoded from `in`.
template <class Step>
void for_each_int_ack(byte_reader& in, Step step) {
  using wire = hpcc_int_format;
  std::array<ack_event, 4> past{};
  std::array<basic_ack_event<wire::stack>, 4> past_w{};
  ack_event last{};
  basic_ack_event<wire::stack> last_w{};
  std::int64_t now = 0;
  sequence seq = in.u64();
  std::uint64_t ts = in.u64(), tx = in.u64();
  for (int k = 0; k < 256 && !in.empty(); ++k) {
    const std::uint8_t op = in.u8();
    switch (op % 6) {
      case 0:  // exact duplicate of the previous ACK
        step(last, last_w, true);
        break;
      case 1: {  // reordered: an earlier ACK again
        const std::size_t i = in.below(past.size());
        step(past[i], past_w[i], false);
        last = past[i];
        last_w = past_w[i];
        break;
      }
      default: {  // a new ACK, from the receiver or (switch_ack) from a switch on a prefix
        now = in.time_after(now, 20'000);
        seq += static_cast<std::uint64_t>(in.small_step(50'000));
        ack_event a{.now = timestamp{now},
                    .ack_seq = seq,
                    .snd_nxt = seq + in.below(400'000),
                    .acked = bytes{1000},
                    .rtt = duration{in.small_step(30'000)},
                    .switch_ack = (op & 0x40) != 0};
        const std::size_t hops = in.below(6);
        const bool wild = (op & 0x80) != 0;
        for (std::size_t h = 0; h < hops && h < a.hops.max_hops; ++h) {
          if (wild) {
            a.hops.push((op & 0x20) != 0 ? in.wide_hop() : in.hop());
          } else {
            ts += static_cast<std::uint64_t>(in.small_step(10'000));
            tx += in.below(400'000);
            a.hops.push({.ts = ts + h,
                         .qlen = bytes{static_cast<std::int64_t>(in.u32() % 4'000'000)},
                         .tx_bytes = tx + 7 * h,
                         .link_rate = bit_rate{static_cast<std::int64_t>(in.below(4) + 1) *
                                               25'000'000'000}});
          }
        }
        basic_ack_event<wire::stack> b{.now = a.now,
                                       .ack_seq = a.ack_seq,
                                       .snd_nxt = a.snd_nxt,
                                       .acked = a.acked,
                                       .rtt = a.rtt,
                                       .switch_ack = a.switch_ack};
        if (in.boolean()) {  // INT decoded from raw input bytes: any value of every field
          std::array<std::uint8_t, wire::max_encoded_size> buf{};
          buf[0] = static_cast<std::uint8_t>(in.below(wire::stack::max_hops + 2));
          for (std::size_t i = 1; i < buf.size(); ++i) buf[i] = in.u8();
          b.hops = wire::decode(std::span<const std::uint8_t>(buf.data(), buf.size())).hops;
        } else {
          for (std::size_t h = 0; h < a.hops.size(); ++h)
            b.hops.push(wire::decode_hop(wire::encode_hop(a.hops[h])));
        }
        step(a, b, false);
        const std::size_t slot = in.below(past.size());
        past[slot] = a;
        past_w[slot] = b;
        last = a;
        last_w = b;
        break;
      }
    }
  }
}

}  // namespace netcc::fuzz
