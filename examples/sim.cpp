// SPDX-License-Identifier: MIT
// netcc-sim: the scenario runner (the README's main job).
//
//   netcc-sim [SCENARIO | FILE.scn] [--cc NAME[,NAME...]|all] [--set KEY=VALUE]...
//             [--out DIR] [--seed N] [--duration US] [--data DIR] [--quiet] [--dry-run]
//   netcc-sim list      scenarios and controllers
//   netcc-sim keys      the keys a scenario file or --set accepts
//
// With no arguments it runs the built-in "incast" scenario once per controller, prints a
// table, and writes <out>/<scenario>_<cc>.csv plus, when gnuplot is installed,
// <out>/<scenario>_queue.png, _throughput.png and _goodput.png.
//
// Hostile input: every argument and key is checked, and the scenario's memory estimated
// against max_memory_mb, before the output directory is created; any bad input gives one line
// on stderr (untrusted text quoted as printable ASCII) and exit status 2, with no file written.
// Scenario names are restricted to [A-Za-z0-9._-] (netcc::testbench::check_file_name), so
// every output file lies inside --out. Files are written whole or not at all (a temporary file
// renamed into place). gnuplot runs without a shell: fork and execvp with the script on its
// standard input, in the output directory, with only those safe names in the script.
#include <netcc/testbench/controllers.hpp>
#include <netcc/testbench/io.hpp>
#include <netcc/testbench/metrics.hpp>
#include <netcc/testbench/scenario.hpp>
#include <netcc/version.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "sim_plot.hpp"

namespace tb = netcc::testbench;

namespace {

using netcc_sim::draw;
using netcc_sim::on_path;
using netcc_sim::plot_line;
using netcc_sim::plot_series;

// One line on stderr and exit status 2. Messages quote untrusted text with tb::printable
// where they build it; any control byte left is escaped here too.
int fail(const std::string& msg) {
  std::string line;
  for (const char ch : msg) {
    const auto c = static_cast<unsigned char>(ch);
    line += c >= 0x20 && c < 0x7F ? std::string(1, ch) : tb::printable(std::string_view(&ch, 1));
  }
  std::fprintf(stderr, "netcc-sim: %s\n", line.c_str());
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

// Where the shipped CDFs are: beside an installed netcc-sim (<prefix>/bin/../share/netcc/cdf),
// else in the source tree it was built from.
std::string default_data_dir() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto installed = exe.parent_path() / NETCC_INSTALL_DATA_REL / "cdf";
    if (std::filesystem::is_regular_file(installed / "websearch.cdf", ec))
      return installed.lexically_normal().string();
  }
  return NETCC_DATA_DIR "/cdf";
}

// Averaging window of the rate plots when --avg-us is not given: at least one sample interval
// and about 1/400 of the run, rounded up to 1, 2 or 5 times a power of ten microseconds.
double auto_window_us(const tb::scenario& s) {
  const double want = std::max(static_cast<double>(s.sample_ns) / 1000.0, s.duration_us / 400.0);
  double p = std::pow(10.0, std::floor(std::log10(want)));
  for (const double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= want * (1 - 1e-9)) return m * p;
  return 10 * p;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// The scenario's main parameters, for plot titles.
std::string scenario_title(const tb::scenario& s) {
  std::string t = s.name + ": " + tb::describe_topology(s);
  t += ", " + num(s.host_gbps) + "/" + num(s.bottleneck_gbps) + " Gbps, " +
       num(static_cast<double>(s.link_delay_ns) / 1000.0) + " us links";
  if (s.long_flows > 0) t += "; " + std::to_string(s.long_flows) + " long";
  if (s.incast_flows > 0)
    t += "; incast " + std::to_string(s.incast_flows) + " x " +
         num(static_cast<double>(s.incast_size_bytes) / 1000.0) + " kB at " + num(s.incast_at_us) +
         " us";
  if (s.burst_flows > 0) t += "; " + std::to_string(s.burst_flows) + " on/off";
  if (s.cdf != "none") t += "; " + s.cdf + " at " + num(100 * s.cdf_load) + "% load";
  return t;
}

int usage() {
  std::printf(
      "usage: netcc-sim [SCENARIO | FILE.scn] [--cc NAME[,NAME...]|all] [--set KEY=VALUE]...\n"
      "                 [--out DIR] [--seed N] [--duration US] [--data DIR] [--quiet]\n"
      "                 [--dry-run] [--log-queue] [--avg-us US] [--sweep KEY=V1,V2,...]...\n"
      "       netcc-sim list | keys | show SCENARIO\n"
      "\n"
      "SCENARIO is a built-in (netcc-sim list) or a file of 'key = value' lines (netcc-sim keys;\n"
      "examples/scenarios/ has one per built-in). A --set overrides the scenario's value of its\n"
      "key; each key, option and controller may be given once.\n"
      "  --cc        controllers to run, comma-separated, or all (the default)\n"
      "  --out       output directory (default netcc-out): <name>_<cc>.csv, <name>_*.png\n"
      "  --seed, --duration   the keys seed and duration_us\n"
      "  --data      directory of websearch.cdf and hadoop.cdf (default: the installed data)\n"
      "  --quiet     no progress line on a terminal\n"
      "  --dry-run   check everything, print the resource estimate, run and write nothing\n"
      "  --log-queue plot the queue on a log scale\n"
      "  --avg-us    rate plots average over windows of this many us (default: ~1/400 run)\n"
      "  --sweep     run every combination of the listed values (several --sweep: their product)\n"
      "              with every controller, on all cores; one CSV row per run in\n"
      "              <out>/<name>_sweep.csv (no time series or plots)\n");
  return 0;
}

std::string csv_number(double v) {
  if (std::isnan(v)) return "";
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

// --sweep: every combination of the swept values (the last key varying fastest), each with every
// controller, on all cores; every combination is checked before anything runs or is written, and
// the CSV is written whole at the end (one row per run, in combination and controller order, so
// the file does not depend on the number of threads).
int sweep(const tb::scenario& base,
          const std::vector<std::pair<std::string, std::vector<std::string>>>& sweeps,
          const std::vector<tb::cc_entry>& ccs, const std::filesystem::path& out,
          std::filesystem::path& created, bool dry_run) {
  // Every value on its own first (key, value and rule), then every combination.
  for (const auto& [key, values] : sweeps) {
    for (const auto& v : values) {
      tb::scenario s = base;
      if (auto err = tb::set_key(s, key, v); !err.empty()) return fail("--sweep: " + err);
    }
  }
  std::vector<std::vector<std::string>> combos{{}};
  for (const auto& [key, values] : sweeps) {
    std::vector<std::vector<std::string>> next;
    for (const auto& c : combos)
      for (const auto& v : values) {
        next.push_back(c);
        next.back().push_back(v);
      }
    combos = std::move(next);
    if (combos.size() > 100'000)
      return fail("--sweep: more than 100000 combinations (the product of the value lists)");
  }
  std::vector<tb::scenario> scenarios;
  std::uint64_t largest = 0;
  for (const auto& c : combos) {
    tb::scenario s = base;
    std::string at = "--sweep";
    for (std::size_t k = 0; k < sweeps.size(); ++k) {
      if (auto err = tb::set_key(s, sweeps[k].first, c[k]); !err.empty()) return fail(err);
      at += " " + sweeps[k].first + "=" + tb::printable(c[k]);
    }
    if (auto err = tb::check(s); !err.empty()) return fail(at + ": " + err);
    for (const auto& cc : ccs)
      if (auto err = tb::check_controller(s, cc); !err.empty()) return fail(at + ": " + err);
    largest = std::max(largest, tb::estimate_resources(s).total_bytes());
    scenarios.push_back(std::move(s));
  }
  const std::size_t runs = scenarios.size() * ccs.size();
  // As many runs at once as there are cores, and as fit in the memory limit together.
  std::size_t threads = std::max(1u, std::thread::hardware_concurrency());
  if (largest > 0) {
    const std::uint64_t fit = tb::memory_limit(base) / largest;
    threads =
        static_cast<std::size_t>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, fit)));
  }
  threads = std::min(threads, runs);
  if (dry_run) {
    std::printf("sweep of %s: %zu combinations x %zu controllers = %zu runs, %zu at once\n",
                base.name.c_str(), scenarios.size(), ccs.size(), runs, threads);
    return 0;
  }
  std::error_code ec;
  if (std::filesystem::exists(out, ec) && !std::filesystem::is_directory(out, ec))
    return fail("--out " + tb::printable(out.string()) + ": exists and is not a directory");
  const bool made = std::filesystem::create_directories(out, ec);
  if (ec) return fail("--out " + tb::printable(out.string()) + ": " + ec.message());
  if (made) created = out;
  if (::access(out.c_str(), W_OK | X_OK) != 0) return fail("--out " + tb::io_error(out, errno));

  std::vector<tb::run_summary> results(runs);
  std::vector<std::string> errors(runs);
  std::atomic<std::size_t> next{0};
  const auto worker = [&] {
    for (std::size_t i = next++; i < runs; i = next++) {
      try {
        tb::series ts;
        results[i] = tb::run_scenario(scenarios[i / ccs.size()], ccs[i % ccs.size()], ts);
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  for (std::size_t i = 0; i < runs; ++i) {
    if (errors[i].empty()) continue;
    std::string at = "--sweep";
    for (std::size_t k = 0; k < sweeps.size(); ++k)
      at += " " + sweeps[k].first + "=" + combos[i / ccs.size()][k];
    return fail(at + ": " + errors[i]);
  }
  std::string csv;
  for (const auto& [key, values] : sweeps) csv += key + ",";
  csv +=
      "cc,peak_queue_bytes,p99_queue_bytes,drain_us,tail_goodput_gbps,utilisation,jain,"
      "jain_flows,mean_slowdown,p99_slowdown,max_slowdown,p99_slowdown_short,p99_slowdown_long,"
      "finite_flows,completed,drops,timeouts,ecn_marks,cnps,srcs,pauses,packet_hops,events,"
      "cnp_flows\n";
  for (std::size_t i = 0; i < runs; ++i) {
    const auto& r = results[i];
    for (const auto& v : combos[i / ccs.size()]) csv += v + ",";
    const auto u = [](std::uint64_t v) { return std::to_string(v); };
    csv += r.cc + "," + csv_number(r.peak_queue) + "," + csv_number(r.p99_queue) + "," +
           csv_number(r.drain_us >= 0 ? r.drain_us : std::nan("")) + "," +
           csv_number(r.tail_goodput_gbps) + "," + csv_number(r.utilisation) + "," +
           csv_number(r.jain) + "," + u(r.jain_flows) + "," + csv_number(r.mean_slowdown) + "," +
           csv_number(r.p99_slowdown) + "," + csv_number(r.max_slowdown) + "," +
           csv_number(r.short_flows > 0 ? r.p99_slowdown_short : std::nan("")) + "," +
           csv_number(r.long_flows > 0 ? r.p99_slowdown_long : std::nan("")) + "," +
           u(r.finite_flows) + "," + u(r.completed) + "," + u(r.drops) + "," + u(r.timeouts) + "," +
           u(r.ecn_marks) + "," + u(r.cnps) + "," + u(r.srcs) + "," + u(r.pauses) + "," +
           u(r.hops) + "," + u(r.events) + "," + u(r.flow_cnps.size()) + "\n";
  }
  const auto path = out / (base.name + "_sweep.csv");
  if (auto err = tb::write_file_atomic(path.string(), csv); !err.empty())
    return fail("cannot write " + err);
  std::printf("sweep of %s: %zu runs (%zu combinations x %zu controllers), %zu at once\n",
              base.name.c_str(), runs, scenarios.size(), ccs.size(), threads);
  std::printf("csv: %s\n", tb::printable(path.string()).c_str());
  return 0;
}

// `created` names the output directory when this run created it (removed again by main if
// the run then fails and leaves it empty).
int run(const std::vector<std::string>& args, std::filesystem::path& created) {
  const auto scenarios = tb::builtin_scenarios();
  const auto ccs = tb::controllers();

  if (!args.empty() && args[0] == "list") {
    if (args.size() > 1)
      return fail("list takes no argument (got '" + tb::printable(args[1]) + "')");
    std::printf("scenarios:\n");
    for (const auto& [name, d] : scenarios)
      std::printf("  %-12s %s\n", name.c_str(), d.first.c_str());
    std::printf("controllers:\n");
    for (const auto& c : ccs) std::printf("  %-12s %s\n", c.name.c_str(), c.description.c_str());
    return 0;
  }
  if (!args.empty() && args[0] == "keys") {
    if (args.size() > 1)
      return fail("keys takes no argument (got '" + tb::printable(args[1]) + "')");
    const tb::scenario defaults{};
    std::printf("%-20s %-5s %-18s %-10s %s\n", "key", "unit", "range", "default", "meaning");
    for (const auto& k : tb::scenario_key_table()) {
      std::string range = "text";
      if (k.numeric()) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%g..%g%s", k.lo, k.hi, k.integral() ? "" : " (real)");
        range = buf;
      }
      const std::string unit = k.unit.empty() ? "-" : std::string(k.unit);
      std::printf("%-20s %-5s %-18s %-10s %s\n", std::string(k.name).c_str(), unit.c_str(),
                  range.c_str(), k.value_in(defaults).c_str(), std::string(k.meaning).c_str());
    }
    return 0;
  }
  if (!args.empty() && args[0] == "show") {
    if (args.size() != 2 || !scenarios.count(args[1]))
      return fail("show needs one built-in scenario (netcc-sim list shows them)");
    const auto& [what, sc] = scenarios.at(args[1]);
    std::printf("# SPDX-License-Identifier: MIT\n%s", tb::format_scenario(sc, what).c_str());
    return 0;
  }
  for (const auto& a : args)
    if (a == "--help" || a == "-h") return usage();

  tb::scenario s = scenarios.at("incast").second;
  std::filesystem::path out = "netcc-out";
  std::vector<std::string> chosen;
  bool quiet = false, dry_run = false, log_queue = false;
  double avg_us = 0;
  std::string data_dir, scenario_arg;
  std::set<std::string> options_seen;
  std::vector<std::pair<std::string, std::string>> sets;
  std::vector<std::pair<std::string, std::vector<std::string>>> sweeps;
  std::set<std::string> keys_set;
  const auto add_set = [&](const std::string& k, const std::string& v, const std::string& via) {
    if (!keys_set.insert(k).second)
      return fail(via + ": " + tb::printable(k) + " is set twice on the command line");
    sets.emplace_back(k, v);
    return 0;
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& dst) -> bool {
      if (i + 1 >= args.size()) return false;
      dst = args[++i];
      return true;
    };
    const bool takes_value = a == "--cc" || a == "--out" || a == "--seed" || a == "--duration" ||
                             a == "--data" || a == "--avg-us";
    if ((takes_value || a == "--quiet" || a == "--dry-run" || a == "--log-queue") &&
        !options_seen.insert(a).second)
      return fail("option " + a + " given twice");
    std::string v;
    if (a == "--cc") {
      if (!value(v)) return fail("--cc needs a value (try netcc-sim list)");
      if (v == "all") continue;
      chosen = split(v, ',');
      std::set<std::string> seen;
      for (const auto& name : chosen) {
        if (name.empty()) return fail("--cc " + tb::printable(v) + ": an empty controller name");
        if (!seen.insert(name).second)
          return fail("--cc " + tb::printable(v) + ": " + tb::printable(name) + " given twice");
      }
    } else if (a == "--out") {
      if (!value(v)) return fail("--out needs a directory");
      if (v.empty()) return fail("--out : must name a directory");
      out = v;
    } else if (a == "--set") {
      if (!value(v)) return fail("--set needs KEY=VALUE");
      const auto eq = v.find('=');
      if (eq == std::string::npos)
        return fail("--set " + tb::printable(v) + ": expected KEY=VALUE");
      if (const int rc = add_set(v.substr(0, eq), v.substr(eq + 1), "--set"); rc != 0) return rc;
    } else if (a == "--sweep") {
      if (!value(v)) return fail("--sweep needs KEY=V1,V2,...");
      const auto eq = v.find('=');
      if (eq == std::string::npos)
        return fail("--sweep " + tb::printable(v) + ": expected KEY=V1,V2,...");
      const std::string key = v.substr(0, eq), list = v.substr(eq + 1);
      if (list.empty())
        return fail("--sweep " + tb::printable(key) + "= : a sweep needs at least one value");
      auto values = split(list, ',');
      std::set<std::string> distinct;
      for (const auto& x : values) {
        if (x.empty()) return fail("--sweep " + tb::printable(v) + ": an empty value in the list");
        if (!distinct.insert(x).second)
          return fail("--sweep " + tb::printable(v) + ": " + tb::printable(x) + " given twice");
      }
      if (key == "name") return fail("--sweep name=...: the name cannot be swept");
      if (!keys_set.insert(key).second)
        return fail("--sweep: " + tb::printable(key) + " is set twice on the command line");
      sweeps.emplace_back(key, std::move(values));
    } else if (a == "--seed") {
      if (!value(v)) return fail("--seed needs a number");
      if (const int rc = add_set("seed", v, "--seed"); rc != 0) return rc;
    } else if (a == "--duration") {
      if (!value(v)) return fail("--duration needs microseconds");
      if (const int rc = add_set("duration_us", v, "--duration"); rc != 0) return rc;
    } else if (a == "--data") {
      if (!value(v)) return fail("--data needs the directory holding websearch.cdf and hadoop.cdf");
      data_dir = v;
    } else if (a == "--quiet") {
      quiet = true;
    } else if (a == "--dry-run") {
      dry_run = true;
    } else if (a == "--log-queue") {
      log_queue = true;
    } else if (a == "--avg-us") {
      if (!value(v)) return fail("--avg-us needs microseconds");
      const auto r = std::from_chars(v.data(), v.data() + v.size(), avg_us);
      if (v.empty() || r.ec != std::errc{} || r.ptr != v.data() + v.size() || !(avg_us > 0) ||
          !(avg_us <= 1e7))
        return fail("--avg-us " + tb::printable(v) + ": must be a number in (0, 1e7] us");
    } else if (!a.empty() && a[0] == '-') {
      return fail("unknown option '" + tb::printable(a) + "' (try --help)");
    } else if (!scenario_arg.empty()) {
      return fail("two scenarios given ('" + tb::printable(scenario_arg) + "' and '" +
                  tb::printable(a) + "'): give one, and change it with --set");
    } else if (scenarios.count(a)) {
      scenario_arg = a;
      s = scenarios.at(a).second;
    } else if (std::filesystem::is_regular_file(a)) {
      scenario_arg = a;
      s = tb::scenario{};
      if (auto err = tb::load_scenario_file(a, s); !err.empty()) return fail(err);
    } else {
      return fail("unknown scenario '" + tb::printable(a) +
                  "' (netcc-sim list shows them; a file must exist)");
    }
  }
  s.data_dir = data_dir.empty() ? default_data_dir() : data_dir;
  for (const auto& [k, v] : sets) {
    if (auto err = tb::set_key(s, k, v); !err.empty()) return fail(err);
  }
  if (auto err = tb::check(s); !err.empty()) return fail(err);

  std::vector<tb::cc_entry> run;
  if (chosen.empty()) run = ccs;
  for (const auto& name : chosen) {
    auto found = tb::find_controller(name);
    if (!found)
      return fail("unknown controller '" + tb::printable(name) + "' (netcc-sim list shows them)");
    run.push_back(std::move(*found));
  }
  // Every output name is "<scenario>_<controller|plot>.<ext>": safe characters only; and every
  // controller must accept the parameters the scenario derives for it.
  for (const auto& c : run) {
    if (auto err = tb::check_file_name("controller", c.name); !err.empty()) return fail(err);
    if (auto err = tb::check_controller(s, c); !err.empty()) return fail(err);
  }

  if (!sweeps.empty()) return sweep(s, sweeps, run, out, created, dry_run);

  if (dry_run) {
    const auto e = tb::estimate_resources(s);
    std::printf(
        "scenario %s: %llu nodes, %llu links, %llu flows at most, %llu samples x %llu columns, "
        "%llu scheduled writes, %llu packets on the links at most, %llu engine events at most\n"
        "memory per run: about %.1f MiB (limit %.0f MiB); %zu controller run(s)\n"
        "data: %s\n",
        s.name.c_str(), static_cast<unsigned long long>(e.nodes),
        static_cast<unsigned long long>(e.links), static_cast<unsigned long long>(e.flows),
        static_cast<unsigned long long>(e.samples), static_cast<unsigned long long>(e.columns),
        static_cast<unsigned long long>(e.writes),
        static_cast<unsigned long long>(e.packets_on_links),
        static_cast<unsigned long long>(e.events), static_cast<double>(e.total_bytes()) / (1 << 20),
        static_cast<double>(tb::memory_limit(s)) / (1 << 20), run.size(),
        tb::printable(s.data_dir).c_str());
    return 0;
  }

  std::error_code ec;
  if (std::filesystem::exists(out, ec) && !std::filesystem::is_directory(out, ec))
    return fail("--out " + tb::printable(out.string()) + ": exists and is not a directory");
  const bool made = std::filesystem::create_directories(out, ec);
  if (ec) return fail("--out " + tb::printable(out.string()) + ": " + ec.message());
  if (made) created = out;
  if (::access(out.c_str(), W_OK | X_OK) != 0) return fail("--out " + tb::io_error(out, errno));

  const bool progress = !quiet && isatty(STDERR_FILENO);
  std::printf("netcc %s  scenario %s: %s, %g/%g Gbps, %lld ns links, %g us\n",
              netcc::version_string, s.name.c_str(), tb::describe_topology(s).c_str(), s.host_gbps,
              s.bottleneck_gbps, static_cast<long long>(s.link_delay_ns), s.duration_us);
  std::printf("%-15s %10s %10s %8s %9s %5s %6s %8s %8s %8s %5s %5s %6s %6s %6s %6s\n", "controller",
              "peak_q_B", "p99_q_B", "drain_us", "tail_Gbps", "util", "jain", "slow_avg",
              "slow_p99", "slow_max", "drops", "rto", "marks", "cnps", "srcs", "pauses");
  std::vector<plot_series> plots;
  std::vector<tb::run_summary> with_srcs;  // controllers whose switches sent Bolt SRCs
  std::vector<tb::run_summary> speeds;     // every run, for its packet-hops, events and wall time
  std::vector<tb::chosen_flow> picked;     // the flows key's long flows count as long flows
  (void)tb::parse_flow_list(s.flows, &picked);
  const std::size_t long_count = static_cast<std::size_t>(s.long_flows) + picked.size();
  std::vector<std::string> weak;  // controllers below 80% of the bottleneck
  bool na_drain = false, na_jain = false, na_slow = false, none_slow = false, none_long = false;
  for (const auto& c : run) {
    if (progress) std::fprintf(stderr, "running %s...\r", c.name.c_str());
    tb::series ts;
    // A progress line on a terminal, about every million events: simulated time, packet-hops
    // and the wall rate so far.
    const auto started = std::chrono::steady_clock::now();
    const auto report = [&](const tb::network& net) {
      const double wall =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      std::fprintf(stderr, "\r%s: %.1f of %g us simulated, %.1f M packet-hops, %.2f M/s   ",
                   c.name.c_str(), static_cast<double>(net.now().count()) / 1000.0, s.duration_us,
                   static_cast<double>(net.packet_hops()) / 1e6,
                   wall > 0 ? static_cast<double>(net.packet_hops()) / wall / 1e6 : 0.0);
    };
    const auto r = progress ? tb::run_scenario(s, c, ts, report) : tb::run_scenario(s, c, ts);
    if (progress) std::fprintf(stderr, "\r%70s\r", "");
    speeds.push_back(r);
    const auto csv = out / (s.name + "_" + c.name + ".csv");
    if (auto err = tb::write_csv(ts, csv.string()); !err.empty())
      return fail("cannot write " + err);
    // Per-flow CNP counts, when the run had CNPs.
    if (r.cnps > 0) {
      const auto cnp_csv = out / (s.name + "_" + c.name + "_cnps.csv");
      if (auto err = tb::write_file_atomic(cnp_csv.string(), tb::format_flow_cnps_csv(r));
          !err.empty())
        return fail("cannot write " + err);
    }
    plots.push_back(netcc_sim::take_plot_series(c.name, ts));
    // Values a run leaves undefined print as n/a, or "none" where the scenario has nothing to
    // measure (legend below the table).
    const auto cell = [](double v, int width, int prec, const char* undefined = "n/a") {
      char buf[32];
      if (!std::isnan(v))
        std::snprintf(buf, sizeof buf, "%*.*f", width, prec, v);
      else
        std::snprintf(buf, sizeof buf, "%*s", width, undefined);
      return std::string(buf);
    };
    const bool drained = r.drain_us >= 0;
    const char* no_slow = r.finite_flows == 0 ? "none" : "n/a";
    na_drain = na_drain || !drained;
    na_jain = na_jain || (std::isnan(r.jain) && long_count > 0);
    na_slow = na_slow || (r.finite_flows > 0 && r.completed == 0);
    none_slow = none_slow || r.finite_flows == 0;
    none_long = none_long || long_count == 0;
    if (r.utilisation < 0.8) weak.push_back(r.cc);
    const auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
    const char* no_long = long_count == 0 ? "none" : "n/a";
    std::printf("%-15s %10.0f %10.0f %s %s %5.3f %s %s %s %s %5llu %5llu %6llu %6llu %6llu %6llu\n",
                r.cc.c_str(), r.peak_queue, r.p99_queue,
                cell(drained ? r.drain_us : std::nan(""), 8, 1).c_str(),
                cell(r.tail_goodput_gbps, 9, 2, no_long).c_str(), r.utilisation,
                cell(r.jain, 6, 4, no_long).c_str(), cell(r.mean_slowdown, 8, 2, no_slow).c_str(),
                cell(r.p99_slowdown, 8, 2, no_slow).c_str(),
                cell(r.max_slowdown, 8, 2, no_slow).c_str(), u(r.drops), u(r.timeouts),
                u(r.ecn_marks), u(r.cnps), u(r.srcs), u(r.pauses));
    if (r.srcs > 0) with_srcs.push_back(r);
  }
  if (na_drain)
    std::printf("n/a drain_us: the queue never fell back under 10%% of its peak after the event\n");
  if (na_jain)
    std::printf(
        "n/a jain: fewer than two long flows carried traffic while the most of them ran "
        "together\n");
  if (none_long) std::printf("none tail_Gbps, jain: the scenario has no long flow\n");
  if (na_slow) std::printf("n/a slow_*: no finite flow completed within the run\n");
  if (none_slow) std::printf("none slow_*: the scenario has no finite flow\n");
  if (!weak.empty()) {
    std::string list;
    for (const auto& w : weak) list += (list.empty() ? "" : ", ") + w;
    std::printf(
        "note: %s used under 80%% of the bottleneck here; docs/reproductions.md holds each "
        "controller to its paper's scenarios and explains where and why it does badly\n",
        list.c_str());
  }
  // Bolt NSDI'23 §5.2.1: the bandwidth SRC packets of the monitored (bottleneck) port take, as a
  // share of that port's rate; and every switch's SRCs together.
  for (const auto& r : with_srcs)
    std::printf(
        "%s: SRCs for the bottleneck port take %.3f Gbps (%.2f%% of its %g Gbps), %.3f per "
        "bottleneck packet; every port's SRCs together %.3f Gbps\n",
        r.cc.c_str(), r.bottleneck_src_gbps,
        r.bottleneck_rate_gbps > 0 ? 100 * r.bottleneck_src_gbps / r.bottleneck_rate_gbps : 0.0,
        r.bottleneck_rate_gbps,
        r.bottleneck_packets > 0
            ? static_cast<double>(r.bottleneck_srcs) / static_cast<double>(r.bottleneck_packets)
            : 0.0,
        r.src_gbps);
  // CNPs network-wide and per flow (DCQCN's notification point sends them for CE-marked data).
  for (const auto& r : speeds) {
    if (r.cnps == 0) continue;
    const auto most =
        std::max_element(r.flow_cnps.begin(), r.flow_cnps.end(),
                         [](const auto& a, const auto& b) { return a.cnps < b.cnps; });
    std::printf("cnps %s: %llu in total, to %zu flows, most to flow %u (%llu); per flow: %s\n",
                r.cc.c_str(), static_cast<unsigned long long>(r.cnps), r.flow_cnps.size(),
                most->flow, static_cast<unsigned long long>(most->cnps),
                tb::printable((out / (s.name + "_" + r.cc + "_cnps.csv")).string()).c_str());
  }
  // The engine's work and speed (the wall time is this machine's, not part of the results).
  for (const auto& r : speeds)
    std::printf("speed %s: %llu packet-hops, %llu events in %.3f s: %.2f M packet-hops/s\n",
                r.cc.c_str(), static_cast<unsigned long long>(r.hops),
                static_cast<unsigned long long>(r.events), r.wall_seconds,
                r.wall_seconds > 0 ? static_cast<double>(r.hops) / r.wall_seconds / 1e6 : 0.0);
  std::printf("csv: %s/%s_<controller>.csv\n", tb::printable(out.string()).c_str(), s.name.c_str());
  if (!on_path("gnuplot")) {
    std::printf("plots skipped: gnuplot is not installed\n");
    return 0;
  }
  // Rates are averaged over windows of avg_us; queues keep the maximum of each window of up to
  // 1/4000 of the run (a peak is never averaged away).
  const double window = avg_us > 0 ? avg_us : auto_window_us(s);
  const std::size_t k = netcc_sim::samples_per_point(plots.front(), window);
  const std::size_t kq = std::max<std::size_t>(1, plots.front().t_us.size() / 4000);
  const std::string title = scenario_title(s);
  const std::string mean = ", mean over each " + num(window) + " us)";
  std::vector<plot_line> q, thr, g0;
  for (const auto& p : plots) {
    q.push_back({p.cc, &p.t_us, &p.queue});
    thr.push_back({p.cc, &p.t_us, &p.rate});
    if (!p.goodput.empty()) g0.push_back({p.cc, &p.t_us, &p.goodput[0]});
  }
  std::string qlabel = "bottleneck queue (bytes";
  if (kq > 1)
    qlabel += ", max per " +
              num(static_cast<double>(kq) * static_cast<double>(s.sample_ns) / 1000.0) + " us";
  if (log_queue) qlabel += ", log scale";  // an empty queue is not drawn on it
  qlabel += ")";
  std::printf("%s\n",
              draw(out, s.name + "_queue.png", title, qlabel, q, kq, true, log_queue).c_str());
  std::printf("%s\n", draw(out, s.name + "_throughput.png", title,
                           "bottleneck throughput (Gbps" + mean, thr, k, false, false)
                          .c_str());
  if (!g0.empty())
    std::printf("%s\n", draw(out, s.name + "_goodput.png", title,
                             "long flow 0 goodput (Gbps" + mean, g0, k, false, false)
                            .c_str());
  // Several long flows: one plot per controller with every long flow's goodput (convergence).
  if (long_count > 1) {
    for (const auto& p : plots) {
      std::vector<plot_line> flows;
      for (std::size_t f = 0; f < p.goodput.size(); ++f)
        flows.push_back({"long flow " + std::to_string(f), &p.t_us, &p.goodput[f]});
      std::printf("%s\n", draw(out, s.name + "_flows_" + p.cc + ".png", title + " [" + p.cc + "]",
                               "goodput per long flow (Gbps" + mean, flows, k, false, false)
                              .c_str());
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int rc = 2;
  std::filesystem::path created;
  try {
    rc = run(std::vector<std::string>(argv + 1, argv + argc), created);
  } catch (const std::bad_alloc&) {
    rc = fail(
        "out of memory (lower the scenario's size, or set max_memory_mb below this "
        "machine's free memory)");
  } catch (const std::exception& e) {
    rc = fail(e.what());
  } catch (...) {
    rc = fail("unexpected error");
  }
  if (rc != 0 && !created.empty()) {  // leave no empty directory behind a failed run
    std::error_code ec;
    if (std::filesystem::is_empty(created, ec) && !ec) std::filesystem::remove(created, ec);
  }
  // Output that did not reach standard output (a full device, a closed pipe) is an error.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    const int err = errno;
    std::fprintf(stderr, "netcc-sim: standard output: %s\n",
                 err != 0 ? std::strerror(err) : "write error");
    return 2;
  }
  return rc;
}
