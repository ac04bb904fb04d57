// SPDX-License-Identifier: MIT
// Shared by the HPCC and FastTune harnesses: decodes raw bytes into parameters and an INT ACK
// stream (new ACKs over well-formed or arbitrary hop records, exact duplicates, reordered
// replays of earlier ACKs, switch ACKs over path prefixes, wire-format ACKs whose 24-bit
// timestamps and 20-bit counters wrap) and checks the invariants the two MI/MD controllers share
// after every event:
//   * window finite; cwnd() within [min_cwnd, max_window()]; pacing_rate() within
//     [min_rate, host_rate] of the parameters in force;
//   * U finite and non-negative;
//   * an exact duplicate of the previous ACK leaves U unchanged (dt = 0 carries no sample).
#pragma once

#include <netcc/core/int_wire.hpp>

#include <array>
#include <span>

#include "fuzz_common.hpp"

namespace netcc::fuzz {

template <class P>
P read_int_window_params(byte_reader& in) {
  P p;
  if (in.boolean()) return p;  // paper defaults
  p.eta = static_cast<double>(in.u16()) / 65535.0 * (in.boolean() ? 1.0 : 1.2);
  p.host_rate = bit_rate{static_cast<std::int64_t>(in.below(900'000'000'001ULL)) - 1000};
  p.base_rtt = duration{static_cast<std::int64_t>(in.below(2'000'001)) - 10};
  p.expected_flows = static_cast<std::int64_t>(in.u16()) - 2;
  p.w_ai = bytes{static_cast<std::int64_t>(in.u32()) - 1000};
  p.cwnd_init = bytes{static_cast<std::int64_t>(in.u32()) - 1000};
  p.min_cwnd = bytes{static_cast<std::int64_t>(in.u32() % 200'000) - 10};
  p.max_cwnd = bytes{static_cast<std::int64_t>(in.u32()) - 1000};
  p.min_rate = bit_rate{static_cast<std::int64_t>(in.below(100'000'000'000ULL)) - 10};
  return p;
}

template <class C>
struct int_window_checker {
  C cc;
  explicit int_window_checker(const typename C::params_type& p) : cc(p) {}

  template <class E>
  void step(const E& e, bool duplicate) {
    const auto u_before = cc.utilisation();
    cc.on_ack(e);
    const auto p = cc.params();  // sanitised: what the controller enforces
    NETCC_FUZZ_CHECK(finite(cc.window()));
    NETCC_FUZZ_CHECK(cc.cwnd() >= p.min_cwnd && cc.cwnd() <= cc.max_window());
    NETCC_FUZZ_CHECK(cc.pacing_rate() >= p.min_rate && cc.pacing_rate() <= p.host_rate);
    NETCC_FUZZ_CHECK(finite(cc.utilisation()) && to_double(cc.utilisation()) >= 0.0);
    if (duplicate) NETCC_FUZZ_CHECK(cc.utilisation() == u_before);
  }
};

/// Drives a double controller over netcc's 64-bit INT stack and a q32 one over the HPCC wire
/// format with the same decoded stream; `extra` checks controller-specific invariants.
template <class Cd, class Cq, class Extra>
void run_int_window(const std::uint8_t* data, std::size_t size, Extra extra) {
  using wire = hpcc_int_format;
  byte_reader in(data, size);
  const auto params = read_int_window_params<typename Cd::params_type>(in);
  int_window_checker<Cd> raw{params};
  int_window_checker<Cq> wired{params};
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
        raw.step(last, true);
        wired.step(last_w, true);
        break;
      case 1: {  // reordered: an earlier ACK again
        const std::size_t i = in.below(past.size());
        raw.step(past[i], false);
        wired.step(past_w[i], false);
        last = past[i];
        last_w = past_w[i];
        break;
      }
      default: {  // a new ACK, from the receiver or (switch_ack) from a switch on a prefix
        now += in.small_step(20'000);
        seq += static_cast<std::uint64_t>(in.small_step(50'000));
        ack_event a{.now = timestamp{now},
                    .ack_seq = seq,
                    .snd_nxt = seq + in.below(400'000),
                    .acked = bytes{1000},
                    .switch_ack = (op & 0x40) != 0};
        const std::size_t hops = in.below(6);
        const bool wild = (op & 0x80) != 0;
        for (std::size_t h = 0; h < hops && h < a.hops.max_hops; ++h) {
          if (wild) {
            a.hops.push(in.hop());
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
        raw.step(a, false);
        wired.step(b, false);
        const std::size_t slot = in.below(past.size());
        past[slot] = a;
        past_w[slot] = b;
        last = a;
        last_w = b;
        break;
      }
    }
    extra(raw.cc);
    extra(wired.cc);
  }
}

}  // namespace netcc::fuzz
