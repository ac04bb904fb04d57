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

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <new>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tb = netcc::testbench;

namespace {

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

// Whether `name` is an executable on PATH (what a shell's `command -v` answers).
bool on_path(const char* name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return false;
  for (const auto& dir : split(path, ':')) {
    const std::string f = (dir.empty() ? std::string(".") : dir) + "/" + name;
    if (::access(f.c_str(), X_OK) == 0) return true;
  }
  return false;
}

// Run `gnuplot` with no shell: a child process changes into `dir`, takes `script` on its
// standard input and execs gnuplot found on PATH. True when gnuplot exited with status 0.
bool run_gnuplot(const std::filesystem::path& dir, const std::string& script) {
  int fds[2];
  if (::pipe(fds) != 0) return false;
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return false;
  }
  if (pid == 0) {  // child: only async-signal-safe calls until exec
    ::dup2(fds[0], STDIN_FILENO);
    ::close(fds[0]);
    ::close(fds[1]);
    const int devnull = ::open("/dev/null", O_WRONLY);
    if (devnull >= 0) {
      ::dup2(devnull, STDOUT_FILENO);
      ::dup2(devnull, STDERR_FILENO);
    }
    if (::chdir(dir.c_str()) != 0) ::_exit(126);
    char prog[] = "gnuplot";
    char* const argv[] = {prog, nullptr};
    ::execvp(prog, argv);
    ::_exit(127);
  }
  ::close(fds[0]);
  // A gnuplot that exits early must not kill the runner with SIGPIPE.
  struct sigaction ignore {
  }, old{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &old);
  std::size_t done = 0;
  while (done < script.size()) {
    const ssize_t n = ::write(fds[1], script.data() + done, script.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::close(fds[1]);
  ::sigaction(SIGPIPE, &old, nullptr);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return done == script.size() && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// One PNG plot of column `column` of every controller's CSV: gnuplot draws into a temporary
// file, renamed into place when gnuplot succeeds. All names in the script are relative to
// `out` and made of [A-Za-z0-9._-] (checked scenario and controller names), so nothing in them
// needs quoting in gnuplot's single-quoted strings.
std::string plot(const std::filesystem::path& out, const std::string& scen,
                 const std::vector<std::string>& ccs, int column, const std::string& what,
                 const std::string& ylabel) {
  const std::string png = scen + "_" + what + ".png";
  const std::string tmp = png + ".partial";
  std::string script = "set terminal pngcairo size 1000,500\nset output '" + tmp +
                       "'\nset datafile separator ','\nset key outside\n"
                       "set xlabel 'time (us)'\nset ylabel '" +
                       ylabel + "'\nplot ";
  for (std::size_t i = 0; i < ccs.size(); ++i) {
    if (i) script += ", ";
    script += '\'';
    script += scen + "_" + ccs[i] + ".csv";
    script += "' using 1:";
    script += std::to_string(column);
    script += " with lines title '";
    script += ccs[i];
    script += '\'';
  }
  script += "\nset output\n";
  std::error_code ec;
  if (!run_gnuplot(out, script)) {
    std::filesystem::remove(out / tmp, ec);
    return "plot skipped: gnuplot failed on " + tb::printable((out / png).string());
  }
  std::filesystem::rename(out / tmp, out / png, ec);
  if (ec) {
    std::filesystem::remove(out / tmp, ec);
    return "plot skipped: cannot rename into " + tb::printable((out / png).string());
  }
  return "plot: " + tb::printable((out / png).string());
}

int usage() {
  std::printf(
      "usage: netcc-sim [SCENARIO | FILE.scn] [--cc NAME[,NAME...]|all] [--set KEY=VALUE]...\n"
      "                 [--out DIR] [--seed N] [--duration US] [--data DIR] [--quiet] "
      "[--dry-run]\n"
      "       netcc-sim list | keys\n"
      "A --set overrides the scenario's (or the file's) value of its key; each key, option and\n"
      "controller may be given once. --dry-run checks everything and prints the resource\n"
      "estimate without running or writing anything.\n");
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
    for (const auto& [k, d] : tb::scenario_keys())
      std::printf("  %-20s %s\n", k.c_str(), d.c_str());
    return 0;
  }
  for (const auto& a : args)
    if (a == "--help" || a == "-h") return usage();

  tb::scenario s = scenarios.at("incast").second;
  std::filesystem::path out = "netcc-out";
  std::vector<std::string> chosen;
  bool quiet = false, dry_run = false;
  std::string data_dir, scenario_arg;
  std::set<std::string> options_seen;
  std::vector<std::pair<std::string, std::string>> sets;
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
    const bool takes_value =
        a == "--cc" || a == "--out" || a == "--seed" || a == "--duration" || a == "--data";
    if ((takes_value || a == "--quiet" || a == "--dry-run") && !options_seen.insert(a).second)
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
  if (!data_dir.empty()) s.data_dir = data_dir;
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
  // Every output name is "<scenario>_<controller|plot>.<ext>": safe characters only.
  for (const auto& c : run)
    if (auto err = tb::check_file_name("controller", c.name); !err.empty()) return fail(err);

  if (dry_run) {
    const auto e = tb::estimate_resources(s);
    std::printf(
        "scenario %s: %llu nodes, %llu links, %llu flows at most, %llu samples x %llu columns, "
        "%llu scheduled writes, %llu packets on the links at most\n"
        "memory per run: about %.1f MiB (limit %.0f MiB); %zu controller run(s)\n",
        s.name.c_str(), static_cast<unsigned long long>(e.nodes),
        static_cast<unsigned long long>(e.links), static_cast<unsigned long long>(e.flows),
        static_cast<unsigned long long>(e.samples), static_cast<unsigned long long>(e.columns),
        static_cast<unsigned long long>(e.writes),
        static_cast<unsigned long long>(e.packets_on_links),
        static_cast<double>(e.total_bytes()) / (1 << 20),
        static_cast<double>(tb::memory_limit(s)) / (1 << 20), run.size());
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
    if (auto err = tb::write_csv(ts, csv.string()); !err.empty())
      return fail("cannot write " + err);
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
  std::printf("csv: %s/%s_<controller>.csv\n", tb::printable(out.string()).c_str(), s.name.c_str());
  if (on_path("gnuplot")) {
    std::printf("%s\n", plot(out, s.name, names, 2, "queue", "bottleneck queue (bytes)").c_str());
    std::printf("%s\n",
                plot(out, s.name, names, 3, "throughput", "bottleneck throughput (Gbps)").c_str());
    if (s.long_flows > 0)
      std::printf("%s\n",
                  plot(out, s.name, names, 6, "goodput", "long flow 0 goodput (Gbps)").c_str());
  } else {
    std::printf("plots skipped: gnuplot is not installed\n");
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
