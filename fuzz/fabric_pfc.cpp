// SPDX-License-Identifier: MIT
// Fuzz harness: PFC at a few ingress ports (seed 003 §III-B e, §V) over backlog sequences,
// with fuzzed (also invalid) per-Gbps thresholds and port rates.
// Invariants:
//   * a pause is issued only when the port was not paused and the backlog exceeds X_off;
//   * a resume only when it was paused and the backlog is at or below X_on;
//   * pause and resume strictly alternate per port (no flapping), and the state agrees with
//     a reference model; with no frame, the state is unchanged;
//   * thresholds are X_on <= X_off for valid params, both >= 0 for rates >= 0;
//   * the resume delay is >= 0, and t_R >= t_P (saturating); quanta durations are monotone.
#include <netcc/fabric/pfc.hpp>

#include <array>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  netcc::fuzz::byte_reader in(data, size);
  netcc::pfc_params p;
  if (in.boolean()) {
    p.x_off_per_gbps = netcc::bytes{in.i64()};
    p.x_on_per_gbps = netcc::bytes{in.i64()};
  } else {
    p.x_on_per_gbps = netcc::bytes{static_cast<std::int64_t>(in.below(1ULL << 32))};
    p.x_off_per_gbps =
        p.x_on_per_gbps + netcc::bytes{1 + static_cast<std::int64_t>(in.below(1ULL << 32))};
  }
  const bool valid = validate(p).ok();

  constexpr std::size_t ports = 4;
  std::array<netcc::bit_rate, ports> rate{};
  std::array<netcc::pfc_port_state, ports> st{};
  std::array<bool, ports> model{};
  for (auto& r : rate) {
    r = netcc::bit_rate{in.boolean() ? in.i64()
                                     : static_cast<std::int64_t>(in.below(1'600'000'000'001ULL))};
  }
  for (std::size_t k = 0; k < ports; ++k) {
    const auto t = netcc::pfc_thresholds_for(rate[k], p);
    if (valid) NETCC_FUZZ_CHECK(t.x_on <= t.x_off && t.x_on >= netcc::bytes{0});
    const auto d = netcc::pfc_resume_delay(rate[k], p);
    NETCC_FUZZ_CHECK(d >= netcc::duration::zero());
    const netcc::timestamp tp{in.i64()};
    NETCC_FUZZ_CHECK(netcc::pfc_resume_time(tp, rate[k], p) >= tp);
    const std::uint32_t qa = in.u32(), qb = in.u32();
    if (qa <= qb) {
      NETCC_FUZZ_CHECK(netcc::pfc_quanta_duration(qa, rate[k]) <=
                       netcc::pfc_quanta_duration(qb, rate[k]));
    }
  }

  while (!in.empty()) {
    const std::size_t k = in.u8() % ports;
    const auto t = netcc::pfc_thresholds_for(rate[k], p);
    netcc::bytes x;
    switch (in.u8() % 4) {
      case 0:  // near X_off
        x = netcc::bytes{netcc::detail::saturate_i64(netcc::detail::i128{t.x_off.count()} +
                                                     static_cast<std::int64_t>(in.below(5)) - 2)};
        break;
      case 1:  // near X_on
        x = netcc::bytes{netcc::detail::saturate_i64(netcc::detail::i128{t.x_on.count()} +
                                                     static_cast<std::int64_t>(in.below(5)) - 2)};
        break;
      case 2:
        x = netcc::bytes{static_cast<std::int64_t>(in.below(1ULL << 44))};
        break;
      default:
        x = netcc::bytes{in.i64()};
    }
    const auto before = st[k];
    const auto a = netcc::pfc_on_backlog(st[k], x, rate[k], p);
    // Same decision from precomputed thresholds.
    netcc::pfc_port_state twin = before;
    NETCC_FUZZ_CHECK(netcc::pfc_on_backlog(twin, x, t) == a && twin == st[k]);
    switch (a) {
      case netcc::pfc_action::pause:
        NETCC_FUZZ_CHECK(!model[k] && x > t.x_off && st[k].paused);
        model[k] = true;
        break;
      case netcc::pfc_action::resume:
        NETCC_FUZZ_CHECK(model[k] && x <= t.x_on && !st[k].paused);
        model[k] = false;
        break;
      case netcc::pfc_action::none:
        NETCC_FUZZ_CHECK(st[k] == before);
        if (model[k]) NETCC_FUZZ_CHECK(x > t.x_on);
        if (!model[k]) NETCC_FUZZ_CHECK(x <= t.x_off);
        break;
    }
    NETCC_FUZZ_CHECK(st[k].paused == model[k]);
  }
  return 0;
}
