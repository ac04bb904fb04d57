// SPDX-License-Identifier: MIT
// netcc-sim: the scenario runner (the README's main job).
//
//   netcc-sim [SCENARIO | FILE.scn] [--cc NAME[,NAME...]|all] [--set KEY=VALUE]...
//             [--out DIR] [--seed N] [--duration US] [--data DIR] [--quiet]
//   netcc-sim list      scenarios and controllers
//   netcc-sim keys      the keys a scenario file or --set accepts
//
// With no arguments it runs the built-in "incast" scenario once per controller, prints a
// table, and writes <out>/<scenario>_<cc>.csv plus, when gnuplot is installed,
// <out>/<scenario>_queue.png, _throughput.png and _goodput.png. Any bad input gives one line
// on stderr and exit status 2, before any file is written.
#include <netcc/testbench/controllers.hpp>
#include <netcc/testbench/metrics.hpp>
#include <netcc/testbench/scenario.hpp>
#include <netcc/version.hpp>

#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tb = netcc::testbench;

namespace {

int fail(const std::string& msg) {
  std::fprintf(stderr, "netcc-sim: %s\n", msg.c_str());
  return 2;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (const char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

void plot(const std::filesystem::path& out, const std::string& scen,
          const std::vector<std::string>& ccs, int column, const std::string& what,
          const std::string& ylabel) {
  std::string cmd = "gnuplot -e \"set terminal pngcairo size 1000,500; set output '" +
                    (out / (scen + "_" + what + ".png")).string() +
                    "'; set datafile separator ','; set key outside; set xlabel 'time (us)';"
                    " set ylabel '" +
                    ylabel + "'; plot ";
  for (std::size_t i = 0; i < ccs.size(); ++i) {
    if (i) cmd += ", ";
    // Appended piece by piece: g++ 12 at -O3 reports a false -Wrestrict on
    // `"literal" + std::string&&` (GCC bug 105329).
    cmd += '\'';
    cmd += (out / (scen + "_" + ccs[i] + ".csv")).string();
    cmd += "' using 1:";
    cmd += std::to_string(column);
    cmd += " with lines title '";
    cmd += ccs[i];
    cmd += '\'';
  }
  cmd += "\" 2>/dev/null";
  if (std::system(cmd.c_str()) == 0) {
    std::printf("plot: %s\n", (out / (scen + "_" + what + ".png")).c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  const auto scenarios = tb::builtin_scenarios();
  const auto ccs = tb::controllers();
  std::vector<std::string> args(argv + 1, argv + argc);

  if (!args.empty() && args[0] == "list") {
    std::printf("scenarios:\n");
    for (const auto& [name, d] : scenarios)
      std::printf("  %-12s %s\n", name.c_str(), d.first.c_str());
    std::printf("controllers:\n");
    for (const auto& c : ccs) std::printf("  %-12s %s\n", c.name.c_str(), c.description.c_str());
    return 0;
  }
  if (!args.empty() && args[0] == "keys") {
    for (const auto& [k, d] : tb::scenario_keys())
      std::printf("  %-20s %s\n", k.c_str(), d.c_str());
    return 0;
  }
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::printf(
        "usage: netcc-sim [SCENARIO | FILE.scn] [--cc NAME[,NAME...]|all] [--set KEY=VALUE]...\n"
        "                 [--out DIR] [--seed N] [--duration US] [--data DIR] [--quiet]\n"
        "       netcc-sim list | keys\n");
    return 0;
  }

  tb::scenario s = scenarios.at("incast").second;
  std::filesystem::path out = "netcc-out";
  std::vector<std::string> chosen;
  bool quiet = false;
  std::string data_dir;
  std::vector<std::pair<std::string, std::string>> sets;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& dst) -> bool {
      if (i + 1 >= args.size()) return false;
      dst = args[++i];
      return true;
    };
    std::string v;
    if (a == "--cc") {
      if (!value(v)) return fail("--cc needs a value (try netcc-sim list)");
      chosen = v == "all" ? std::vector<std::string>{} : split(v, ',');
    } else if (a == "--out") {
      if (!value(v)) return fail("--out needs a directory");
      out = v;
    } else if (a == "--set") {
      if (!value(v)) return fail("--set needs KEY=VALUE");
      const auto eq = v.find('=');
      if (eq == std::string::npos) return fail("--set " + v + ": expected KEY=VALUE");
      sets.emplace_back(v.substr(0, eq), v.substr(eq + 1));
    } else if (a == "--seed") {
      if (!value(v)) return fail("--seed needs a number");
      sets.emplace_back("seed", v);
    } else if (a == "--duration") {
      if (!value(v)) return fail("--duration needs microseconds");
      sets.emplace_back("duration_us", v);
    } else if (a == "--data") {
      if (!value(v)) return fail("--data needs the directory holding websearch.cdf and hadoop.cdf");
      data_dir = v;
    } else if (a == "--quiet") {
      quiet = true;
    } else if (!a.empty() && a[0] == '-') {
      return fail("unknown option '" + a + "' (try --help)");
    } else if (scenarios.count(a)) {
      s = scenarios.at(a).second;
    } else if (std::filesystem::is_regular_file(a)) {
      s = tb::scenario{};
      if (auto err = tb::load_scenario_file(a, s); !err.empty()) return fail(err);
    } else {
      return fail("unknown scenario '" + a + "' (netcc-sim list shows them; a file must exist)");
    }
  }
  if (!data_dir.empty()) s.data_dir = data_dir;
  for (const auto& [k, v] : sets) {
    if (auto err = tb::set_key(s, k, v); !err.empty()) return fail(err);
  }
  if (auto err = tb::check(s); !err.empty()) return fail(err);

  std::vector<tb::cc_entry> run;
  if (chosen.empty()) run = ccs;
  for (const auto& name : chosen) {
    auto found = tb::find_controller(name);
    if (!found) return fail("unknown controller '" + name + "' (netcc-sim list shows them)");
    run.push_back(std::move(*found));
  }

  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) return fail("--out " + out.string() + ": " + ec.message());

  const bool progress = !quiet && isatty(STDERR_FILENO);
  std::printf("netcc %s  scenario %s: %s, %d senders, %.0f/%.0f Gbps, %lld ns links, %.0f us\n",
              netcc::version_string, s.name.c_str(), s.topology.c_str(), s.senders, s.host_gbps,
              s.bottleneck_gbps, static_cast<long long>(s.link_delay_ns), s.duration_us);
  std::printf("%-15s %10s %10s %8s %9s %5s %6s %8s %8s %8s %5s %5s %6s %6s %6s %6s\n", "controller",
              "peak_q_B", "p99_q_B", "drain_us", "tail_Gbps", "util", "jain", "slow_avg",
              "slow_p99", "slow_max", "drops", "rto", "marks", "cnps", "srcs", "pauses");
  std::vector<std::string> names;
  std::vector<tb::run_summary> with_srcs;  // controllers whose switches sent Bolt SRCs
  for (const auto& c : run) {
    if (progress) std::fprintf(stderr, "running %s...\r", c.name.c_str());
    tb::series ts;
    const auto r = tb::run_scenario(s, c, ts);
    const auto csv = out / (s.name + "_" + c.name + ".csv");
    if (!tb::write_csv(ts, csv.string())) return fail("cannot write " + csv.string());
    names.push_back(c.name);
    const auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
    std::printf(
        "%-15s %10.0f %10.0f %8.1f %9.2f %5.3f %6.4f %8.2f %8.2f %8.2f %5llu %5llu %6llu %6llu "
        "%6llu %6llu\n",
        r.cc.c_str(), r.peak_queue, r.p99_queue, r.drain_us, r.tail_goodput_gbps, r.utilisation,
        r.jain, r.mean_slowdown, r.p99_slowdown, r.max_slowdown, u(r.drops), u(r.timeouts),
        u(r.ecn_marks), u(r.cnps), u(r.srcs), u(r.pauses));
    if (r.srcs > 0) with_srcs.push_back(r);
  }
  // Bolt NSDI'23 §5.2.1: the bandwidth SRC packets take, also as a share of the bottleneck.
  for (const auto& r : with_srcs)
    std::printf("%s: SRCs take %.3f Gbps (%.2f%% of the bottleneck), %.3f per bottleneck packet\n",
                r.cc.c_str(), r.src_gbps, 100 * r.src_gbps / s.bottleneck_gbps,
                r.bottleneck_packets > 0
                    ? static_cast<double>(r.srcs) / static_cast<double>(r.bottleneck_packets)
                    : 0.0);
  if (progress) std::fprintf(stderr, "%40s\r", "");
  std::printf("csv: %s/%s_<controller>.csv\n", out.c_str(), s.name.c_str());
  if (std::system("command -v gnuplot >/dev/null 2>&1") == 0) {
    plot(out, s.name, names, 2, "queue", "bottleneck queue (bytes)");
    plot(out, s.name, names, 3, "throughput", "bottleneck throughput (Gbps)");
    if (s.long_flows > 0) plot(out, s.name, names, 6, "goodput", "long flow 0 goodput (Gbps)");
  } else {
    std::printf("plots skipped: gnuplot is not installed\n");
  }
  return 0;
}
