// SPDX-License-Identifier: MIT
// netcc_demo: the main-job command until the testbench's scenario runner lands.
//
// A fluid model of one bottleneck (100 Gbps, 10 us base RTT) shared by N window-based flows
// that join one after another. Each flow is driven only through netcc's core vocabulary, the
// way a controller is: feedback arrives as netcc::ack_event with one INT hop per ACK, the
// INT counters are narrow wrapping fields read with wrapping_clock / wrapping_counter, the
// bottleneck utilisation is smoothed with a time-weighted netcc::ewma, the reference window
// is refreshed once per RTT with netcc::per_rtt_marker, and the window that was in force when
// the acknowledged data left is read back from netcc::window_history. The window law is a
// multiplicative move toward a target utilisation plus a small additive term, in the shape of
// the INT controllers (HPCC, FastTune); it is a demonstration of the core, not an algorithm
// netcc ships.
//
// Output: a summary on stdout, <out>/demo_timeseries.csv, and <out>/demo.png when gnuplot is
// installed.
#include <netcc/netcc.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace netcc::literals;
using int24_stack =
    netcc::int_stack<1, netcc::wrapping_clock<24>, netcc::wrapping_counter<20, 128>>;
using demo_ack = netcc::basic_ack_event<int24_stack>;
using traits = netcc::feedback_traits<demo_ack>;

struct demo_flow {
  explicit demo_flow(netcc::duration tau, double init)
      : util{{.period = tau}, 0.0}, window{init}, reference{init} {}
  netcc::ewma<double, netcc::time_weight<double>> util;
  netcc::per_rtt_marker marker{};
  netcc::window_history<double, 2> history{};
  netcc::int_hop prev{};
  bool have_prev = false;
  double window;     // bytes
  double reference;  // bytes, refreshed once per RTT
  netcc::sequence snd_nxt = 0;
  netcc::sequence acked = 0;
};

// One ACK's worth of control, written only against the feedback traits.
template <class Ack>
void on_ack(demo_flow& f, const Ack& a, netcc::bytes bdp, double eta, double w_ai) {
  using clock = typename netcc::feedback_traits<Ack>::timestamp_clock;
  using counter = typename netcc::feedback_traits<Ack>::tx_counter;
  const netcc::int_hop h = netcc::feedback_traits<Ack>::hop(a, 0);
  if (f.have_prev) {
    const netcc::duration dt = clock::diff(h.ts, f.prev.ts);
    if (dt > netcc::duration::zero()) {
      const netcc::bytes tx{counter::delta_bytes(h.tx_bytes, f.prev.tx_bytes)};
      const double tx_rate = static_cast<double>((tx / dt).bps());
      const double u = static_cast<double>(h.qlen.count()) / static_cast<double>(bdp.count()) +
                       tx_rate / static_cast<double>(h.link_rate.bps());
      f.util.update(u, dt);
    }
  }
  f.prev = h;
  f.have_prev = true;
  const double old = f.history.window_at(netcc::feedback_traits<Ack>::ack_seq(a), f.window);
  const double u = std::max(f.util.value(), 1e-3);
  f.window = std::clamp(old / (u / eta) + w_ai, 1500.0, 4.0 * static_cast<double>(bdp.count()));
  if (f.marker.advance(netcc::feedback_traits<Ack>::ack_seq(a), f.snd_nxt)) {
    f.reference = f.window;
    f.history.remember(f.snd_nxt, f.window);
  }
}

struct options {
  std::filesystem::path out = "netcc-demo-out";
  int flows = 4;
  long duration_us = 2000;
};

bool parse(int argc, char** argv, options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto value = [&](std::string_view name) -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "netcc_demo: %.*s needs a value\n", static_cast<int>(name.size()),
                     name.data());
        return nullptr;
      }
      return argv[++i];
    };
    if (a == "--out") {
      const char* v = value(a);
      if (!v) return false;
      o.out = v;
    } else if (a == "--flows") {
      const char* v = value(a);
      if (!v) return false;
      o.flows = std::atoi(v);
      if (o.flows < 1 || o.flows > 64) {
        std::fprintf(stderr, "netcc_demo: --flows = %s: must be in [1, 64]\n", v);
        return false;
      }
    } else if (a == "--duration-us") {
      const char* v = value(a);
      if (!v) return false;
      o.duration_us = std::atol(v);
      if (o.duration_us < 100 || o.duration_us > 1'000'000) {
        std::fprintf(stderr, "netcc_demo: --duration-us = %s: must be in [100, 1000000]\n", v);
        return false;
      }
    } else if (a == "--help" || a == "-h") {
      std::printf("usage: netcc_demo [--out DIR] [--flows N] [--duration-us T]\n");
      std::exit(0);
    } else {
      std::fprintf(stderr, "netcc_demo: unknown argument '%.*s' (try --help)\n",
                   static_cast<int>(a.size()), a.data());
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  options opt;
  if (!parse(argc, argv, opt)) return 2;

  const netcc::bit_rate link = 100_Gbps;
  const netcc::duration tau = 10_us;
  const netcc::bytes bdp = link * tau;
  const double eta = 0.95;
  const double w_ai = static_cast<double>(bdp.count()) * (1 - eta) / opt.flows;
  const netcc::duration step = 100_ns;
  const netcc::duration join_gap = netcc::duration{opt.duration_us * 1000 / (2 * opt.flows)};

  std::vector<demo_flow> flows;
  flows.reserve(static_cast<std::size_t>(opt.flows));
  double queue = 0;            // bytes at the bottleneck
  std::uint64_t tx_total = 0;  // bytes the bottleneck has sent
  double peak_queue = 0;
  double util_sum = 0;
  long samples = 0;

  std::filesystem::create_directories(opt.out);
  std::ofstream csv(opt.out / "demo_timeseries.csv");
  csv << "time_us,queue_bytes";
  for (int i = 0; i < opt.flows; ++i) csv << ",cwnd" << i << "_bytes";
  csv << "\n";

  const double cap_per_step = static_cast<double>((link * step).count());
  for (netcc::timestamp now{}; now < netcc::timestamp{netcc::duration{opt.duration_us * 1000}};
       now += step) {
    if (flows.size() < static_cast<std::size_t>(opt.flows) &&
        now >= netcc::timestamp{join_gap * static_cast<long>(flows.size())}) {
      flows.emplace_back(tau, static_cast<double>(bdp.count()));
    }
    // Fluid arrivals: each flow offers window / RTT, RTT = tau + queue / link.
    const double rtt_s = netcc::to_seconds(tau) + queue * 8 / static_cast<double>(link.bps());
    double offered = 0;
    for (const auto& f : flows) offered += f.window / rtt_s * netcc::to_seconds(step);
    const double sent = std::min(queue + offered, cap_per_step);
    queue = queue + offered - sent;
    tx_total += static_cast<std::uint64_t>(sent);
    peak_queue = std::max(peak_queue, queue);
    if (now > netcc::timestamp{netcc::duration{opt.duration_us * 500}}) {
      util_sum += sent / cap_per_step;
      ++samples;
    }
    // One ACK per flow per step, carrying the bottleneck's INT through 24/20-bit fields.
    int24_stack st;
    st.push({.ts = netcc::wrapping_clock<24>::encode(now),
             .qlen = netcc::bytes{static_cast<std::int64_t>(queue)},
             .tx_bytes = netcc::wrapping_counter<20, 128>::encode(tx_total),
             .link_rate = link});
    for (auto& f : flows) {
      const double mine = f.window / rtt_s * netcc::to_seconds(step);
      const double share = offered > 0 ? mine / offered : 0;
      f.snd_nxt += static_cast<netcc::sequence>(mine);
      f.acked += static_cast<netcc::sequence>(share * sent);
      const demo_ack a{.now = now,
                       .ack_seq = f.acked,
                       .snd_nxt = f.snd_nxt,
                       .acked = netcc::bytes{static_cast<std::int64_t>(share * sent)},
                       .hops = st};
      static_assert(netcc::IntFeedback<demo_ack>);
      on_ack(f, a, bdp, eta, w_ai);
    }
    if ((now.count() / step.count()) % 10 == 0) {
      csv << static_cast<double>(now.count()) / 1000 << "," << static_cast<long long>(queue);
      for (int i = 0; i < opt.flows; ++i) {
        csv << ","
            << (static_cast<std::size_t>(i) < flows.size()
                    ? static_cast<long long>(flows[static_cast<std::size_t>(i)].window)
                    : 0LL);
      }
      csv << "\n";
    }
  }
  csv.close();

  double jain_num = 0, jain_den = 0;
  for (const auto& f : flows) {
    jain_num += f.window;
    jain_den += f.window * f.window;
  }
  const double jain = jain_num * jain_num / (static_cast<double>(flows.size()) * jain_den);
  std::printf("netcc %s demo: %d flows on a %.0f Gbps bottleneck, base RTT %lld us, %ld us\n",
              netcc::version_string, opt.flows, link.gbps(),
              static_cast<long long>(tau.count() / 1000), opt.duration_us);
  std::printf("  BDP                         %lld B\n", static_cast<long long>(bdp.count()));
  std::printf("  peak queue                  %.0f B (%.2f BDP)\n", peak_queue,
              peak_queue / static_cast<double>(bdp.count()));
  std::printf("  final queue                 %.0f B\n", queue);
  std::printf("  utilisation (second half)   %.3f\n", samples ? util_sum / samples : 0.0);
  std::printf("  Jain's index of windows     %.4f\n", jain);
  std::printf("  time series                 %s\n", (opt.out / "demo_timeseries.csv").c_str());

  if (std::system("command -v gnuplot >/dev/null 2>&1") == 0) {
    const auto png = opt.out / "demo.png";
    std::string cmd =
        "gnuplot -e \"set terminal pngcairo size 900,500; set output '" + png.string() +
        "'; set datafile separator ','; set key outside;"
        " set xlabel 'time (us)'; set ylabel 'bytes';"
        " plot for [i=2:" +
        std::to_string(opt.flows + 2) + "] '" + (opt.out / "demo_timeseries.csv").string() +
        "' using 1:i with lines title columnheader(i)\"";
    if (std::system(cmd.c_str()) == 0)
      std::printf("  plot                        %s\n", png.c_str());
  } else {
    std::printf("  plot                        skipped (gnuplot not installed)\n");
  }
  return 0;
}
