// SPDX-License-Identifier: MIT
// Fuzz harness: the path-server model (netcc/calculus/path_server.hpp; network-calculus seed
// §III-§V). Decodes bytes into a path server (capacity, feedback delay, timeout, ECN, PFC) and
// one to three flows (arrival bursts, controller, parameters, multiplicity), runs the model in
// double over a short horizon and checks:
//   * a bad configuration is reported (bad_config), never run; otherwise the run ends ok or
//     at the event limit, never with a curve failure;
//   * the backlog and every flow's D are finite and D_j <= Â_j at sampled times;
//   * controls (rate, window) stay finite and positive.
#include <netcc/calculus/path_server.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_common.hpp"

namespace {

namespace nc = netcc::calculus;
using netcc::fuzz::byte_reader;

double pick(byte_reader& r, double lo, double hi) {
  return lo + (hi - lo) * static_cast<double>(r.u16()) / 65535.0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_reader r(data, size);
  nc::path_config<double> cfg;
  cfg.capacity = pick(r, 0.0, 20.0);
  cfg.feedback_delay = pick(r, 0.0, 50.0);
  cfg.packet_size = pick(r, 0.0, 100.0);
  cfg.timeouts = r.boolean();
  cfg.timeout = pick(r, 0.0, 400.0);
  cfg.ecn.enabled = r.boolean();
  cfg.ecn.k_min = pick(r, 0.0, 500.0);
  cfg.ecn.k_max = pick(r, 0.0, 1000.0);
  cfg.ecn.p_max = pick(r, 0.0, 1.0);
  cfg.ecn.spacing = pick(r, 0.0, 100.0);
  cfg.pfc.enabled = r.boolean();
  cfg.pfc.x_off = pick(r, 0.0, 3000.0);
  cfg.pfc.x_on = pick(r, 0.0, 3000.0);
  cfg.max_events = 400;  // bounded cost per input (the model stops with event_limit)
  const std::size_t n = 1 + r.u8() % 3;
  std::vector<nc::flow_config<double>> fs;
  for (std::size_t j = 0; j < n; ++j) {
    nc::flow_config<double> f;
    std::vector<nc::sample<double>> s;
    double t = 0;
    double tot = 0;
    const int bursts = 1 + r.u8() % 4;
    for (int k = 0; k < bursts; ++k) {
      t += pick(r, k == 0 ? 0.0 : 0.01, 300.0);
      tot += pick(r, 0.0, 5000.0);
      s.push_back({t, tot});
    }
    f.arrivals = nc::double_curve::from_samples(s, nc::interpolation::step, pick(r, 0.0, 5.0));
    f.cc = static_cast<nc::path_cc>(r.u8() % 4);
    f.multiplicity = r.u8() % 4;
    f.rate.initial_rate = pick(r, 0.0, 30.0);
    f.rate.alpha = pick(r, 0.0, 2.0);
    f.rate.beta = pick(r, 0.0, 1.0);
    f.rate.increase_interval = pick(r, 0.0, 100.0);
    f.rate.min_rate = pick(r, 0.0, 1.0);
    f.rate.max_rate = pick(r, 0.0, 40.0);
    f.rate.decrease_on_notification = r.boolean();
    f.window.initial_window = pick(r, 0.0, 2000.0);
    f.window.alpha = pick(r, 0.0, 500.0);
    f.window.beta = pick(r, 0.0, 1.0);
    f.window.slow_start = r.boolean();
    f.window.initial_threshold = pick(r, 0.0, 5000.0);
    f.vegas.initial_window = pick(r, 0.0, 2000.0);
    f.vegas.w_low = pick(r, 0.0, 200.0);
    f.vegas.w_high = pick(r, 0.0, 400.0);
    f.vegas.gamma = pick(r, 0.0, 100.0);
    fs.push_back(f);
  }
  const bool bad = nc::path_server_validate<double>(cfg, fs) != nullptr;
  const double horizon = 2000.0;
  const auto res = nc::basic_path_server<double>(cfg, fs).run(horizon);
  if (bad) {
    NETCC_FUZZ_CHECK(res.status == nc::path_status::bad_config);
    return 0;
  }
  NETCC_FUZZ_CHECK(res.status == nc::path_status::ok || res.status == nc::path_status::event_limit);
  for (std::size_t j = 0; j < res.flows.size(); ++j) {
    const auto& f = res.flows[j];
    for (const auto& c : f.control) NETCC_FUZZ_CHECK(std::isfinite(c.v) && c.v > 0.0);
    for (double t = 0; t <= res.end; t += res.end / 16.0 + 1.0) {
      const auto a = f.admitted.at(t);
      const auto d = f.departures.at(t);
      NETCC_FUZZ_CHECK(a.valid() && d.valid() && a.is_finite() && d.is_finite());
      NETCC_FUZZ_CHECK(d.value() <= a.value() + 1e-6 * (1.0 + std::fabs(a.value())));
    }
  }
  for (double t = 0; t <= res.end; t += res.end / 16.0 + 1.0) {
    const auto b = res.backlog.at(t);
    NETCC_FUZZ_CHECK(b.valid() && b.is_finite() && b.value() >= -1e-6 * (1.0 + res.end));
  }
  return 0;
}
