// SPDX-License-Identifier: MIT
// Fuzz harness: DCTCP (netcc/control/dctcp.hpp; DCTCP SIGCOMM'10 §3.1, RFC 8257 §3.3-3.5), double
// and q32, over decoded ACK streams: cumulative ACKs advancing, duplicated, reordered and
// wrapping around 2^64; acked counts zero, negative and huge; echoes in bursts; timeouts and
// fast-retransmit losses; arbitrary parameters. Invariants after every event:
//   * window finite and within [min_cwnd, max_cwnd] of the parameters in force; alpha in [0, 1];
//   * at most one ECN cut per window of data: a second cut needs a cumulative ACK at or beyond
//     the snd_nxt of the first in between (timeouts end the window too);
//   * an ACK without an echo never lowers the window, and one with an echo never raises it;
//   * both policies take the same cut decisions.
#include <netcc/control/dctcp.hpp>

#include "fuzz_common.hpp"

namespace {

using netcc::fuzz::byte_reader;

template <class C>
struct checker {
  C cc;
  bool in_window = false;
  netcc::sequence cut_nxt = 0;

  explicit checker(const netcc::dctcp_params& p) : cc(p) {}

  void check_bounds() {
    const auto p = cc.params();
    NETCC_FUZZ_CHECK(netcc::fuzz::finite(cc.window()));
    NETCC_FUZZ_CHECK(cc.cwnd() >= p.min_cwnd && cc.cwnd() <= p.max_cwnd);
    const double a = netcc::to_double(cc.alpha());
    NETCC_FUZZ_CHECK(a >= 0.0 && a <= 1.0);
  }

  void ack(const netcc::ack_event& e) {
    if (in_window && netcc::seq_geq(e.ack_seq, cut_nxt)) in_window = false;
    const auto cuts = cc.cuts();
    const double before = netcc::to_double(cc.window());
    cc.on_ack(e);
    const double after = netcc::to_double(cc.window());
    if (cc.cuts() != cuts) {
      NETCC_FUZZ_CHECK(cc.cuts() == cuts + 1 && e.ecn_echo && !in_window);
      in_window = true;
      cut_nxt = e.snd_nxt;
    }
    if (e.ecn_echo) {
      NETCC_FUZZ_CHECK(after <= before);
    } else {
      NETCC_FUZZ_CHECK(after >= before);
    }
    check_bounds();
  }

  void timeout() {
    cc.on_timeout(netcc::timestamp{0});
    in_window = false;
    check_bounds();
  }

  void loss() {
    cc.on_loss(netcc::timestamp{0});
    check_bounds();
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_reader in(data, size);
  netcc::dctcp_params p;
  if (in.boolean()) {  // arbitrary parameters, invalid ones included
    p.g = in.raw_double();
    p.alpha_init = in.raw_double();
    p.mss = netcc::bytes{static_cast<std::int64_t>(in.u32()) - 1000};
    p.init_segments = static_cast<std::int64_t>(in.u32() % 2'000'000) - 10;
    p.min_cwnd = netcc::bytes{static_cast<std::int64_t>(in.u32()) - 1000};
    p.max_cwnd = netcc::bytes{in.i64()};
  }
  checker<netcc::dctcp> d{p};
  checker<netcc::basic_dctcp<netcc::arith::q32>> f{p};
  netcc::sequence una = in.u64();
  netcc::sequence nxt = una + in.below(1'000'000);
  for (int k = 0; k < 512 && !in.empty(); ++k) {
    const std::uint8_t op = in.u8();
    if (op % 16 == 0) {
      d.timeout();
      f.timeout();
      continue;
    }
    if (op % 16 == 1) {
      d.loss();
      f.loss();
      continue;
    }
    std::int64_t acked = 0;
    netcc::sequence seq = una;
    switch (in.u8() % 6) {
      case 0:  // duplicate
        break;
      case 1:  // reordered (an older cumulative ACK)
        seq = una - in.below(100'000);
        break;
      case 2:  // nonsense count
        acked = in.i64();
        una += static_cast<netcc::sequence>(in.below(1u << 20));
        seq = una;
        break;
      default:
        acked = static_cast<std::int64_t>(in.below(200'000));
        una += static_cast<netcc::sequence>(acked);
        seq = una;
        break;
    }
    if (netcc::seq_geq(una, nxt)) nxt = una;
    nxt += in.below(100'000);
    const netcc::ack_event e{
        .ack_seq = seq, .snd_nxt = nxt, .acked = netcc::bytes{acked}, .ecn_echo = (op & 0x20) != 0};
    d.ack(e);
    f.ack(e);
    NETCC_FUZZ_CHECK(d.cc.cuts() == f.cc.cuts());
  }
  return 0;
}
