// SPDX-License-Identifier: MIT
// Fuzz harness: PowerTCP with INT (netcc/control/powertcp.hpp, NSDI'22 Algorithm 1).
// Two controllers: double over netcc's 64-bit INT stack fed raw hop records, and q32 over the
// HPCC wire format fed INT stacks decoded from the input (24-bit timestamps and 20-bit tx
// counters that wrap). The input also picks duplicate and reordered ACKs (replays of earlier
// events), zero and negative dt, hop-count and link-rate changes, and arbitrary parameters.
// Invariants after every event:
//   * window finite; cwnd() within [min_cwnd, max_cwnd] and pacing_rate() within
//     [min_rate, max_rate] of the parameters in force;
//   * bounded increase: the window never exceeds max(its previous value,
//     gamma * (HostBw*tau + beta) + (1 - gamma) * previous) (the Property 1 cap);
//   * an exact duplicate of the previous ACK changes neither the power nor the window.
#include <netcc/control/powertcp.hpp>
#include <netcc/core/int_wire.hpp>

#include <array>
#include <span>

#include "fuzz_common.hpp"

namespace {

using netcc::fuzz::byte_reader;
using wire = netcc::hpcc_int_format;

netcc::powertcp_params read_params(byte_reader& in) {
  netcc::powertcp_params p;
  if (in.boolean()) return p;  // paper defaults
  p.gamma = static_cast<double>(in.u16()) / 65535.0 * (in.boolean() ? 1.0 : 1.5);
  p.host_rate = netcc::bit_rate{static_cast<std::int64_t>(in.below(900'000'000'001ULL)) - 1000};
  p.base_rtt = netcc::duration{static_cast<std::int64_t>(in.below(2'000'001)) - 10};
  p.expected_flows = static_cast<std::int64_t>(in.u16()) - 2;
  p.beta = netcc::bytes{static_cast<std::int64_t>(in.u32()) - 1000};
  p.cwnd_init = netcc::bytes{static_cast<std::int64_t>(in.u32()) - 1000};
  p.min_cwnd = netcc::bytes{static_cast<std::int64_t>(in.u32() % 200'000) - 10};
  p.max_cwnd = netcc::bytes{static_cast<std::int64_t>(in.u32())};
  p.min_rate = netcc::bit_rate{static_cast<std::int64_t>(in.below(100'000'000'000ULL)) - 10};
  p.max_rate = netcc::bit_rate{static_cast<std::int64_t>(in.below(900'000'000'000ULL))};
  p.tau_source = in.boolean() ? netcc::powertcp_tau::min_rtt : netcc::powertcp_tau::configured;
  p.line_rate_first_rtt = in.boolean();
  return p;
}

template <class C>
struct checker {
  C cc;
  double prev_w = 0;

  explicit checker(const netcc::powertcp_params& p) : cc(p) { prev_w = w(); }

  [[nodiscard]] double w() const { return netcc::to_double(cc.window()); }

  template <class E>
  void step(const E& e, bool duplicate) {
    const double p_before = netcc::to_double(cc.norm_power());
    cc.on_ack(e);
    const auto p = cc.params();  // sanitised: what the controller enforces
    const double now_w = w();
    NETCC_FUZZ_CHECK(netcc::fuzz::finite(cc.window()));
    NETCC_FUZZ_CHECK(cc.cwnd() >= p.min_cwnd && cc.cwnd() <= p.max_cwnd);
    const netcc::bit_rate max_rate = p.max_rate > netcc::bit_rate::zero()
                                         ? (p.max_rate < p.min_rate ? p.min_rate : p.max_rate)
                                         : (p.host_rate < p.min_rate ? p.min_rate : p.host_rate);
    NETCC_FUZZ_CHECK(cc.pacing_rate() >= p.min_rate && cc.pacing_rate() <= max_rate);
    // Bounded increase (Property 1 cap on cwnd_old / power).
    const double cap = static_cast<double>(p.max_cwnd.count());
    double bdp = static_cast<double>((p.host_rate * cc.tau()).count());
    if (bdp > cap) bdp = cap;
    const double beta = netcc::to_double(cc.beta());
    const double bound = p.gamma * (bdp + beta) + (1 - p.gamma) * prev_w;
    // q32 rounds gamma to 2^-33: allow that much of the terms.
    const double tol = 1e-9 * (bdp + std::abs(beta) + prev_w) + 1e-3;
    NETCC_FUZZ_CHECK(now_w <= std::max(prev_w, bound) + tol);
    if (duplicate) {
      NETCC_FUZZ_CHECK(netcc::to_double(cc.norm_power()) == p_before);
      NETCC_FUZZ_CHECK(now_w == prev_w);
    }
    prev_w = now_w;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_reader in(data, size);
  const netcc::powertcp_params params = read_params(in);
  checker<netcc::powertcp> raw{params};
  checker<netcc::basic_powertcp<netcc::arith::q32, netcc::int_power<wire::stack>>> wired{params};

  std::array<netcc::ack_event, 4> past{};  // earlier events, replayed as reordered ACKs
  std::array<netcc::basic_ack_event<wire::stack>, 4> past_w{};
  netcc::ack_event last{};
  netcc::basic_ack_event<wire::stack> last_w{};
  std::int64_t now = 0;
  netcc::sequence seq = in.u64();
  std::uint64_t ts = in.u64(), tx = in.u64();
  for (int k = 0; k < 256 && !in.empty(); ++k) {
    const std::uint8_t op = in.u8();
    switch (op % 6) {
      case 0: {  // exact duplicate of the previous ACK
        raw.step(last, true);
        wired.step(last_w, true);
        break;
      }
      case 1: {  // reordered: an earlier ACK again
        const std::size_t i = in.below(past.size());
        raw.step(past[i], false);
        wired.step(past_w[i], false);
        last = past[i];
        last_w = past_w[i];
        break;
      }
      default: {  // a new ACK
        now += in.small_step(20'000);
        seq += static_cast<std::uint64_t>(in.small_step(50'000));
        netcc::ack_event a{.now = netcc::timestamp{now},
                           .ack_seq = seq,
                           .snd_nxt = seq + in.below(400'000),
                           .acked = netcc::bytes{1000},
                           .rtt = netcc::duration{in.small_step(30'000)}};
        const std::size_t hops = in.below(6);
        const bool wild = (op & 0x80) != 0;
        for (std::size_t h = 0; h < hops && h < a.hops.max_hops; ++h) {
          if (wild) {
            a.hops.push(in.hop());
          } else {
            ts += static_cast<std::uint64_t>(in.small_step(10'000));
            tx += in.below(400'000);
            a.hops.push({.ts = ts + h,
                         .qlen = netcc::bytes{static_cast<std::int64_t>(in.u32() % 4'000'000)},
                         .tx_bytes = tx + 7 * h,
                         .link_rate = netcc::bit_rate{static_cast<std::int64_t>(in.below(4) + 1) *
                                                      25'000'000'000}});
          }
        }
        // The wire-format controller sees the same ACK with INT decoded from raw input bytes
        // (any timestamp, counter, queue and rate code), or the raw hops squeezed into 8 B/hop.
        netcc::basic_ack_event<wire::stack> b{.now = a.now,
                                              .ack_seq = a.ack_seq,
                                              .snd_nxt = a.snd_nxt,
                                              .acked = a.acked,
                                              .rtt = a.rtt};
        if (in.boolean()) {
          std::array<std::uint8_t, wire::max_encoded_size> buf{};
          buf[0] = static_cast<std::uint8_t>(in.below(wire::stack::max_hops + 2));
          for (std::size_t i = 1; i < buf.size(); ++i) buf[i] = in.u8();
          const auto d = wire::decode(std::span<const std::uint8_t>(buf.data(), buf.size()));
          b.hops = d.hops;
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
  }
  return 0;
}
