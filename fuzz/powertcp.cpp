// SPDX-License-Identifier: MIT
// Fuzz harness: PowerTCP with INT (netcc/control/powertcp.hpp, NSDI'22 Algorithm 1).
// Three controllers: double and q32 over netcc's 64-bit INT stack fed raw hop records
// (timestamps and counters anywhere, jumps to 2^63 - 1, queues and rates over their whole
// type), and q32 over the HPCC wire format fed INT stacks decoded from the input (24-bit
// timestamps and 20-bit tx counters that wrap). The input also picks duplicate and reordered
// ACKs (replays of earlier events), zero and negative dt, hop-count and link-rate changes, ACK
// times at the ends of the clock, and arbitrary parameters (tau up to 2^63 - 1 ns).
// Invariants after every event:
//   * window finite and within [min_cwnd, max_cwnd] exactly (in the policy's type); cwnd()
//     within the same bytes; pacing_rate() within [max(min_rate, 1 bps), max_rate] of the
//     parameters in force, never 0;
//   * bounded increase: the window never exceeds max(its previous value,
//     gamma * (HostBw*tau + beta) + (1 - gamma) * previous) (the Property 1 cap);
//   * an exact duplicate of the previous ACK changes neither the power nor the window.
// netcc::powertcp_compact (64-B state, HPCC's wire format) on the same wire ACKs: window within
// [min_cwnd, max_cwnd] and rate within its limits, Gamma_smooth within [0, 2^30], at most 5 hops
// stored, a duplicate changes neither power nor window, on any stream; and a second compact
// object fed the same ACKs with their INT as wire words (word_stack) holds the same state, byte
// for byte.
#include <netcc/control/powertcp.hpp>
#include <netcc/core/int_wire.hpp>

#include <array>
#include <cstring>
#include <span>

#include "int_ack_stream.hpp"
#include "powertcp_params.hpp"

namespace {

using netcc::fuzz::byte_reader;
using wire = netcc::hpcc_int_format;

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
    netcc::fuzz::check_powertcp_bounds(cc, p);
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

void compact_step(netcc::powertcp_compact& cc, const netcc::basic_ack_event<wire::stack>& e,
                  bool duplicate) {
  const auto p_before = cc.norm_power();
  const auto w_before = cc.window();
  cc.on_ack(e);
  netcc::fuzz::check_powertcp_bounds(cc, cc.params());
  NETCC_FUZZ_CHECK(cc.norm_power() >= netcc::num<netcc::arith::q32::value_type>(0));
  NETCC_FUZZ_CHECK(cc.norm_power() <= netcc::powertcp_max_power<netcc::arith::q32::value_type>());
  NETCC_FUZZ_CHECK(cc.configuration().hops(cc.state()) <= wire::max_hops);
  if (duplicate) {
    NETCC_FUZZ_CHECK(cc.norm_power() == p_before);
    NETCC_FUZZ_CHECK(cc.window() == w_before);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_reader in(data, size);
  const netcc::powertcp_params params =
      netcc::fuzz::read_powertcp_params<netcc::powertcp_params>(in);
  checker<netcc::powertcp> raw{params};
  checker<netcc::basic_powertcp<netcc::arith::q32>> raw_q{params};
  checker<netcc::basic_powertcp<netcc::arith::q32, netcc::int_power<wire::stack>>> wired{params};
  netcc::powertcp_compact compact{params};
  netcc::powertcp_compact compact_words{params};  // the same ACKs with their INT as wire words

  netcc::fuzz::for_each_int_ack(
      in,
      [&](const netcc::ack_event& a, const netcc::basic_ack_event<wire::stack>& b, bool duplicate) {
        raw.step(a, duplicate);
        raw_q.step(a, duplicate);
        wired.step(b, duplicate);
        compact_step(compact, b, duplicate);
        compact_words.on_ack(wire::with_words(b));
        NETCC_FUZZ_CHECK(
            std::memcmp(&compact_words.state(), &compact.state(), sizeof compact.state()) == 0);
      });
  return 0;
}
