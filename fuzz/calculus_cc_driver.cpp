// SPDX-License-Identifier: MIT
// Fuzz harness: the generic driver (netcc/calculus/cc_driver.hpp), which turns path-server curves
// into feedback for netcc's controllers. Decodes bytes into a driver configuration (any values,
// including bad ones), one to three flows with random bursts, and one controller type (DCTCP,
// PowerTCP, DCQCN, Vegas, Swift, TIMELY) with its defaults, runs a short horizon and checks:
//   * a bad configuration is reported by name and nothing runs; a good one runs to the end;
//   * the backlog balances (B = transmitted - departed - discarded >= 0), everything is finite;
//   * per flow, acknowledged <= departed <= admitted <= A(t), and the controller's window and
//     rate stay non-negative.
#include <netcc/calculus/cc_driver.hpp>
#include <netcc/control/dcqcn.hpp>
#include <netcc/control/dctcp.hpp>
#include <netcc/control/powertcp.hpp>
#include <netcc/control/swift.hpp>
#include <netcc/control/timely.hpp>
#include <netcc/control/vegas.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "fuzz_common.hpp"

namespace {

namespace nc = netcc::calculus;
using netcc::fuzz::byte_reader;

struct decoded {
  nc::driver_config cfg{};
  std::vector<nc::double_curve> arrivals{};
  std::vector<std::uint32_t> mult{};
  std::vector<netcc::bit_rate> line{};
  std::int64_t horizon = 0;
};

template <class C>
void run(const decoded& d) {
  std::vector<nc::driver_flow<C>> fs(d.arrivals.size());
  for (std::size_t j = 0; j < fs.size(); ++j) {
    fs[j].arrivals = d.arrivals[j];
    fs[j].multiplicity = d.mult[j];
    fs[j].line_rate = d.line[j];
  }
  bool bad_flow = false;
  for (const auto& f : fs) {
    bad_flow = bad_flow || !f.arrivals.valid() || f.multiplicity == 0 || f.line_rate.bps() <= 0;
  }
  const bool bad = !nc::validate(d.cfg).ok() || bad_flow || d.horizon < 0;
  nc::cc_driver<C> drv(d.cfg, fs);
  const nc::driver_result r = drv.run(netcc::duration{d.horizon});
  if (bad) {
    NETCC_FUZZ_CHECK(!r.error.empty() && r.samples.empty());
    return;
  }
  if (!r.error.empty()) std::fprintf(stderr, "unexpected: %s\n", r.error.c_str());
  NETCC_FUZZ_CHECK(r.error.empty());
  // complete unless the grid needs more than max_steps steps
  if (static_cast<double>(d.horizon) / r.step < static_cast<double>(d.cfg.max_steps) - 2.0) {
    NETCC_FUZZ_CHECK(r.complete);
  }
  for (const auto& x : r.samples) {
    NETCC_FUZZ_CHECK(std::isfinite(x.backlog) && x.backlog >= 0.0);
    NETCC_FUZZ_CHECK(std::isfinite(x.transmitted) && std::isfinite(x.departed));
    NETCC_FUZZ_CHECK(std::fabs(x.backlog - (x.transmitted - x.departed - x.discarded)) <=
                     1e-6 * (1.0 + x.transmitted));
  }
  for (std::size_t j = 0; j < r.flows.size(); ++j) {
    for (const auto& s : r.flows[j].samples) {
      const auto a = fs[j].arrivals.right_limit(s.t);
      NETCC_FUZZ_CHECK(s.acked <= s.departed + 1e-6);
      NETCC_FUZZ_CHECK(s.departed <= s.admitted + 1e-6);
      if (a.is_finite()) NETCC_FUZZ_CHECK(s.admitted <= a.value() + 1e-6);
      NETCC_FUZZ_CHECK(!(s.cwnd < 0.0) && !(s.rate < 0.0));
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_reader r(data, size);
  decoded d;
  auto& c = d.cfg;
  // mostly sensible magnitudes, sometimes out of range (zero or negative)
  c.capacity = netcc::bit_rate{static_cast<std::int64_t>(r.u16()) * 2'000'000 -
                               (r.boolean() && r.boolean() ? 1'000'000'000 : 0)};
  c.feedback_delay = netcc::duration{static_cast<std::int64_t>(r.u16()) - 100};
  c.packet_size = netcc::bytes{static_cast<std::int64_t>(r.u16() % 9100) - 10};
  c.step = netcc::duration{r.boolean() ? static_cast<std::int64_t>(r.u8()) * 10 : 0};
  c.ecn = r.boolean();
  c.k_min = netcc::bytes{static_cast<std::int64_t>(r.u16()) * 4};
  c.k_max = netcc::bytes{static_cast<std::int64_t>(r.u16()) * 8};
  c.p_max = static_cast<double>(r.u8()) / 200.0;
  c.cnp_interval = netcc::duration{static_cast<std::int64_t>(r.u16())};
  c.pfc = r.boolean();
  c.x_off = netcc::bytes{static_cast<std::int64_t>(r.u16()) * 8};
  c.x_on = netcc::bytes{static_cast<std::int64_t>(r.u16()) * 8};
  c.timeout = netcc::duration{r.boolean() ? static_cast<std::int64_t>(r.u32() % 400'000) : 0};
  c.tick = netcc::duration{static_cast<std::int64_t>(r.u16() % 20'000)};
  c.sample_interval = netcc::duration{static_cast<std::int64_t>(r.u16() % 5000) + 1};
  c.max_steps = 200'000;
  d.horizon = static_cast<std::int64_t>(r.u16()) * 4 - 1000;
  const std::size_t n = 1 + r.u8() % 3;
  for (std::size_t j = 0; j < n; ++j) {
    std::vector<nc::sample<double>> s;
    double t = 0, y = 0;
    const int bursts = 1 + r.u8() % 4;
    for (int k = 0; k < bursts; ++k) {
      t += static_cast<double>(r.u16()) * 2.0;
      y += static_cast<double>(r.u32() % 2'000'000) + 1.0;
      s.push_back({t, y});
    }
    d.arrivals.push_back(nc::double_curve::from_samples(s, nc::interpolation::step,
                                                        static_cast<double>(r.u8() % 8)));
    d.mult.push_back(r.u8() % 5);
    d.line.push_back(netcc::bit_rate{r.boolean() ? static_cast<std::int64_t>(r.u16()) * 10'000'000
                                                 : netcc::bit_rate::max().bps()});
  }
  switch (r.u8() % 6) {
    case 0:
      run<netcc::dctcp>(d);
      break;
    case 1:
      run<netcc::powertcp>(d);
      break;
    case 2:
      run<netcc::dcqcn>(d);
      break;
    case 3:
      run<netcc::vegas>(d);
      break;
    case 4:
      run<netcc::swift>(d);
      break;
    default:
      run<netcc::timely>(d);
      break;
  }
  return 0;
}
