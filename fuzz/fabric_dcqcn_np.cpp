// SPDX-License-Identifier: MIT
// Fuzz harness: the DCQCN notification point (DCQCN §3 NP; seed 003 §III-B d minimum spacing)
// for a few flows over packet sequences with fuzzed interval (also negative), mode, ECN marks
// and arrival times that may go backwards or jump to the 64-bit extremes.
// Invariants:
//   * an unmarked packet never causes a CNP and never changes the state;
//   * send_now is at the packet's time; schedule is later than it and only in schedule mode;
//   * per flow, consecutive CNP times are at least max(interval, 0) apart (no overflow);
//   * the state's t_ is the time of the latest CNP.
#include <netcc/fabric/dcqcn_np.hpp>

#include <array>

#include "fuzz_common.hpp"

namespace {
using netcc::detail::i128;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  netcc::fuzz::byte_reader in(data, size);
  netcc::dcqcn_np_params p;
  p.interval =
      netcc::duration{in.boolean() ? in.i64() : static_cast<std::int64_t>(in.below(200'000))};
  p.mode = in.boolean() ? netcc::dcqcn_np_mode::schedule : netcc::dcqcn_np_mode::suppress;
  const i128 gap = p.interval.count() < 0 ? 0 : p.interval.count();

  constexpr std::size_t flows = 4;
  std::array<netcc::dcqcn_np_flow_state, flows> st{};
  std::array<bool, flows> have{};
  std::array<std::int64_t, flows> last{};
  std::int64_t t = in.i64() / 2;

  while (!in.empty()) {
    const std::size_t k = in.u8() % flows;
    const bool ce = in.boolean();
    switch (in.u8() % 8) {
      case 0:
        t = in.i64();
        break;
      default: {
        const i128 nt = i128{t} + in.small_step(100'000);
        t = netcc::detail::saturate_i64(nt);
      }
    }
    const auto before = st[k];
    const auto d = netcc::dcqcn_np_on_packet(st[k], ce, netcc::timestamp{t}, p);
    if (!ce) {
      NETCC_FUZZ_CHECK(d.action == netcc::dcqcn_np_action::none && st[k] == before);
      continue;
    }
    if (d.action == netcc::dcqcn_np_action::none) {
      NETCC_FUZZ_CHECK(st[k] == before);
      continue;
    }
    if (d.action == netcc::dcqcn_np_action::send_now) NETCC_FUZZ_CHECK(d.at.count() == t);
    if (d.action == netcc::dcqcn_np_action::schedule) {
      NETCC_FUZZ_CHECK(p.mode == netcc::dcqcn_np_mode::schedule && d.at.count() > t);
    }
    if (have[k]) NETCC_FUZZ_CHECK(i128{d.at.count()} - last[k] >= gap);
    have[k] = true;
    last[k] = d.at.count();
    NETCC_FUZZ_CHECK(st[k].any && st[k].last_cnp == d.at);
  }
  return 0;
}
