// SPDX-License-Identifier: MIT
// Shared by the HPCC and FastTune harnesses: decodes parameters, feeds the INT ACK stream of
// int_ack_stream.hpp to three controllers (double over netcc's 64-bit INT stack, q32 over the
// same 64-bit stack, q32 over the HPCC wire format), and checks the invariants the two MI/MD
// controllers share after every event:
//   * window finite and within [min_cwnd, max_window()] exactly (compared in the policy's own
//     number type: the floor is honoured exactly in q32); cwnd() within the same bytes;
//   * pacing_rate() within [max(min_rate, 1 bps), host_rate] of the parameters in force: never
//     0 while the window is open (it always is: min_cwnd >= 1 B);
//   * U finite and within [0, 2^30];
//   * an exact duplicate of the previous ACK leaves U unchanged (dt = 0 carries no sample).
// Parameters are the paper's defaults, or decoded over the ranges of a real NIC, or (one mode
// bit) over their whole type: T, HostBw, min/max window and min_rate from edge values, so the
// 128-bit intermediates of the utilisation meet T = 2^63 - 1 and rates near 2^62.
// run_int_window_compact (below) drives the compact forms (hpcc_compact, fasttune_compact)
// against their q32 wire-stack objects; its comment lists what it checks.
#pragma once

#include "int_ack_stream.hpp"

namespace netcc::fuzz {

template <class P>
P read_int_window_params(byte_reader& in) {
  P p;
  const std::uint8_t mode = in.u8();
  if (mode & 1) return p;  // paper defaults
  const bool wide = (mode & 0x80) != 0;
  p.eta = static_cast<double>(in.u16()) / 65535.0 * (in.boolean() ? 1.0 : 1.2);
  p.host_rate = bit_rate{wide ? in.edge_i64()
                              : static_cast<std::int64_t>(in.below(900'000'000'001ULL)) - 1000};
  p.base_rtt = duration{wide ? in.edge_i64() : static_cast<std::int64_t>(in.below(2'000'001)) - 10};
  p.expected_flows = wide ? in.edge_i64() : static_cast<std::int64_t>(in.u16()) - 2;
  p.w_ai = bytes{wide ? in.edge_i64() : static_cast<std::int64_t>(in.u32()) - 1000};
  p.cwnd_init = bytes{wide ? in.edge_i64() : static_cast<std::int64_t>(in.u32()) - 1000};
  p.min_cwnd = bytes{wide ? in.edge_i64() : static_cast<std::int64_t>(in.u32() % 200'000) - 10};
  p.max_cwnd = bytes{wide ? in.edge_i64() : static_cast<std::int64_t>(in.u32()) - 1000};
  p.min_rate =
      bit_rate{wide ? in.edge_i64() : static_cast<std::int64_t>(in.below(100'000'000'000ULL)) - 10};
  return p;
}

template <class C>
struct int_window_checker {
  using value_type = typename C::value_type;
  C cc;
  explicit int_window_checker(const typename C::params_type& p) : cc(p) { check(); }

  void check() const {
    const auto p = cc.params();  // sanitised: what the controller enforces
    using nt = number_traits<value_type>;
    NETCC_FUZZ_CHECK(finite(cc.window()));
    // Exact bounds in the policy's type (window bytes are integers, exact in q32).
    NETCC_FUZZ_CHECK(cc.window() >= nt::from_int(p.min_cwnd.count()));
    NETCC_FUZZ_CHECK(cc.window() <= nt::from_int(cc.max_window().count()));
    NETCC_FUZZ_CHECK(cc.cwnd() >= p.min_cwnd && cc.cwnd() <= cc.max_window());
    const bit_rate floor = p.min_rate > min_pacing_rate ? p.min_rate : min_pacing_rate;
    NETCC_FUZZ_CHECK(cc.pacing_rate() >= floor && cc.pacing_rate() <= p.host_rate);
    NETCC_FUZZ_CHECK(cc.pacing_rate() > bit_rate::zero());
    NETCC_FUZZ_CHECK(finite(cc.utilisation()));
    NETCC_FUZZ_CHECK(cc.utilisation() >= num<value_type>(0));
    NETCC_FUZZ_CHECK(cc.utilisation() <= int_utilisation_max<value_type>());
  }

  template <class E>
  void step(const E& e, bool duplicate) {
    const auto u_before = cc.utilisation();
    cc.on_ack(e);
    check();
    if (duplicate) NETCC_FUZZ_CHECK(cc.utilisation() == u_before);
  }
};

/// Drives a double controller and a q32 one over netcc's 64-bit INT stack, and a q32 one over
/// the HPCC wire format, with the same decoded stream; `extra` checks controller-specific
/// invariants. Cd and Cq64 take netcc::ack_event, Cq netcc::hpcc_int_format's stack.
template <class Cd, class Cq64, class Cq, class Extra>
void run_int_window(const std::uint8_t* data, std::size_t size, Extra extra) {
  using wire = hpcc_int_format;
  byte_reader in(data, size);
  const auto params = read_int_window_params<typename Cd::params_type>(in);
  int_window_checker<Cd> raw{params};
  int_window_checker<Cq64> raw_q{params};
  int_window_checker<Cq> wired{params};
  for_each_int_ack(in,
                   [&](const ack_event& a, const basic_ack_event<wire::stack>& b, bool duplicate) {
                     raw.step(a, duplicate);
                     raw_q.step(a, duplicate);
                     wired.step(b, duplicate);
                     extra(raw.cc);
                     extra(raw_q.cc);
                     extra(wired.cc);
                   });
}

}  // namespace netcc::fuzz

namespace netcc::fuzz {

/// One sequence jump for run_int_window_compact: mostly none; otherwise across or just within
/// the compact forms' 2^31 - 1 B range of lastUpdateSeq, by 2^32 (invisible at 32 bits), by a
/// power of two, or anywhere (64-bit wrap).
inline std::uint64_t compact_seq_jump(byte_reader& in) noexcept {
  const std::uint8_t b = in.u8();
  if (b < 0xE0) return 0;
  const std::uint64_t k = in.u8() % 4;
  switch (b % 8) {
    case 0:
      return (std::uint64_t{1} << 31) - 1 - k;  // just within the range
    case 1:
      return (std::uint64_t{1} << 31) + k;  // just past it
    case 2:
      return 0 - ((std::uint64_t{1} << 31) - 1 - k);
    case 3:
      return 0 - ((std::uint64_t{1} << 31) + k);
    case 4:
      return (std::uint64_t{1} << 32) + k;  // the same low 32 bits, far ahead
    case 5:
      return std::uint64_t{1} << (in.u8() % 64);
    default:
      return in.u64();
  }
}

/// Drives a compact INT controller (netcc::hpcc_compact, netcc::fasttune_compact) through its
/// config and an external flow_state, the same compact form as an object, and its q32 object
/// over the wire-format stack (Cc::wide_type) with the stream of for_each_int_ack, its wire
/// copy only, its sequence numbers moved by a decoded base (near 2^31, 2^32, 2^63, 2^64 or
/// anywhere) and by compact_seq_jump() before each new ACK. Checks after every event:
///   * the invariants of int_window_checker for the compact object and the q32 object in any
///     stream (window, rate and U within the parameters' bounds, duplicates carry no sample);
///   * config + external state equal to the compact object, byte for byte, in any stream, and
///     to a second state fed the same ACKs with their INT as wire words (word_stack);
///   * while every ACK's sequence number stays within 2^31 - 1 B of the last armed
///     lastUpdateSeq (the compact forms' documented range; hops are always wire-decoded), the
///     same rule, incStage and SACKUpdate as the q32 object and the same W, W^c, U, cwnd and
///     rate bit for bit.
/// `updates(branch)` says whether a rule armed lastUpdateSeq, `tweak(params&)` sets fields
/// read_int_window_params leaves alone, `extra(cfg, state)` checks controller-specific
/// invariants after every event. Returns true when the whole stream stayed within range.
template <class Cc, class Updates, class Tweak, class Extra>
bool run_int_window_compact(const std::uint8_t* data, std::size_t size, Updates updates,
                            Tweak tweak, Extra extra) {
  using wire = hpcc_int_format;
  using wide = typename Cc::wide_type;
  byte_reader in(data, size);
  auto params = read_int_window_params<typename Cc::params_type>(in);
  tweak(params);
  std::uint64_t offset = 0;
  switch (in.u8() % 6) {
    case 0:
      break;
    case 1:
      offset = (std::uint64_t{1} << 32) - in.below(1'000'000);
      break;
    case 2:
      offset = 0 - in.below(1'000'000);  // toward 2^64
      break;
    case 3:
      offset = (std::uint64_t{1} << 63) - in.below(1'000'000);
      break;
    case 4:
      offset = (std::uint64_t{1} << 31) - in.below(1'000'000);
      break;
    default:
      offset = in.u64();
      break;
  }
  const typename Cc::config cfg{params};
  typename Cc::flow_state st = cfg.initial_state();
  typename Cc::flow_state st_words = cfg.initial_state();  // the same ACKs as wire words
  int_window_checker<Cc> obj{params};
  int_window_checker<wide> q{params};
  bool in_range = true, armed = false;
  sequence mark = 0;
  basic_ack_event<wire::stack> last{};

  const auto compare = [&] {
    NETCC_FUZZ_CHECK(std::memcmp(&st, &obj.cc.state(), sizeof st) == 0);
    NETCC_FUZZ_CHECK(std::memcmp(&st_words, &st, sizeof st) == 0);
    NETCC_FUZZ_CHECK(cfg.window(st).raw() == obj.cc.window().raw());
    if (!in_range) return;
    NETCC_FUZZ_CHECK(cfg.last_branch(st) == q.cc.last_branch());
    NETCC_FUZZ_CHECK(cfg.window(st).raw() == q.cc.window().raw());
    NETCC_FUZZ_CHECK(cfg.reference_window(st).raw() == q.cc.reference_window().raw());
    NETCC_FUZZ_CHECK(cfg.utilisation(st).raw() == q.cc.utilisation().raw());
    NETCC_FUZZ_CHECK(cfg.has_utilisation(st) == q.cc.estimator().has_value());
    NETCC_FUZZ_CHECK(cfg.hops(st) == q.cc.estimator().hops());
    NETCC_FUZZ_CHECK(cfg.cwnd(st) == q.cc.cwnd());
    NETCC_FUZZ_CHECK(cfg.pacing_rate(st) == q.cc.pacing_rate());
    if constexpr (requires { q.cc.inc_stage(); })
      NETCC_FUZZ_CHECK(cfg.inc_stage(st) == q.cc.inc_stage());
    if constexpr (requires { q.cc.sack_update(); })
      NETCC_FUZZ_CHECK(cfg.sack_update(st) == q.cc.sack_update());
  };
  compare();
  for_each_int_ack(in,
                   [&](const ack_event&, const basic_ack_event<wire::stack>& b, bool duplicate) {
                     basic_ack_event<wire::stack> e = last;
                     if (!duplicate) {
                       offset += compact_seq_jump(in);
                       e = b;
                       e.ack_seq += offset;
                       e.snd_nxt += offset;
                     }
                     // The documented range: the sequence within 2^31 - 1 B of the last armed lastUpdateSeq.
                     const std::int64_t d = modular<64>::diff(e.ack_seq, mark);
                     if (armed && (d > std::int64_t{0x7FFF'FFFF} || d < -std::int64_t{0x7FFF'FFFF}))
                       in_range = false;
                     const auto w = cfg.on_ack(st, e);
                     NETCC_FUZZ_CHECK(w.raw() == cfg.window(st).raw());
                     NETCC_FUZZ_CHECK(cfg.on_ack(st_words, wire::with_words(e)).raw() == w.raw());
                     obj.step(e, duplicate);
                     q.step(e, duplicate);
                     if (updates(q.cc.last_branch())) {
                       armed = true;
                       mark = e.snd_nxt;
                     }
                     compare();
                     extra(cfg, st);
                     last = e;
                   });
  return in_range;
}

}  // namespace netcc::fuzz
