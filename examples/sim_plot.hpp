// SPDX-License-Identifier: MIT
// netcc-sim's plots: gnuplot run without a shell, fed a script with its data inline.
//
// gnuplot is found on PATH and started with fork and execvp in the output directory; its script
// arrives on its standard input with the data inline ('-' blocks), so no file name and no
// user-controlled text reaches a shell, and gnuplot opens only the temporary PNG it draws. The
// PNG is renamed into place when gnuplot succeeds. Text in titles is quoted printable and
// single-quoted for gnuplot; enhanced text is off, so '_' and '^' are plain characters.
#pragma once

#include <netcc/testbench/io.hpp>
#include <netcc/testbench/network.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace netcc_sim {

namespace tb = netcc::testbench;

// Whether `name` is an executable on PATH (what a shell's `command -v` answers).
inline bool on_path(const char* name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return false;
  std::string_view rest(path);
  while (true) {
    const auto colon = rest.find(':');
    const std::string dir(rest.substr(0, colon));
    const std::string f = (dir.empty() ? std::string(".") : dir) + "/" + name;
    if (::access(f.c_str(), X_OK) == 0) return true;
    if (colon == std::string_view::npos) return false;
    rest.remove_prefix(colon + 1);
  }
}

// Run gnuplot with no shell: a child process changes into `dir`, takes `script` on its standard
// input and execs gnuplot from PATH. True when gnuplot read the whole script and exited with 0.
inline bool run_gnuplot(const std::filesystem::path& dir, const std::string& script) {
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

// `text` as a gnuplot single-quoted string: printable ASCII, a quote doubled.
inline std::string gp_quote(std::string_view text) {
  std::string out = "'";
  for (const char c : tb::printable(text)) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

// What one controller's run contributes to the plots: the sample times and the columns of the
// time series the plots draw (queue, bottleneck rate, each long flow's goodput).
struct plot_series {
  std::string cc;
  std::vector<double> t_us, queue, rate;
  std::vector<std::vector<double>> goodput;  // per long flow
};

// Columns of netcc::testbench::run_scenario's series: queue, bottleneck rate, then cwnd, rate
// and goodput per long flow (the columns series_flows and path_queues add come after them and
// are not plotted).
inline plot_series take_plot_series(const std::string& cc, const tb::series& ts) {
  plot_series p;
  p.cc = cc;
  p.t_us.reserve(ts.t.size());
  for (const auto t : ts.t) p.t_us.push_back(static_cast<double>(t.count()) / 1000.0);
  if (ts.columns.size() >= 2) {
    p.queue = ts.columns[0];
    p.rate = ts.columns[1];
  }
  for (std::size_t c = 4; c < ts.columns.size() && c < ts.names.size(); c += 3) {
    if (ts.names[c].rfind("long", 0) != 0) break;  // past the long flows
    p.goodput.push_back(ts.columns[c]);
  }
  return p;
}

// Samples per plotted point: `window_us` over the sampling interval, at least 1.
inline std::size_t samples_per_point(const plot_series& p, double window_us) {
  if (p.t_us.size() < 2) return 1;
  const double dt = p.t_us[1] - p.t_us[0];
  return dt > 0 ? std::max<std::size_t>(1, static_cast<std::size_t>(std::llround(window_us / dt)))
                : 1;
}

// Inline data: one point per `k` samples at the window's end, the mean (rates) or the maximum
// (queues, so a peak is never averaged away) of the window.
inline void append_block(std::string& script, const std::vector<double>& t,
                         const std::vector<double>& y, std::size_t k, bool max_of_window) {
  char buf[32];
  for (std::size_t i = 0; i + k <= y.size() && i + k <= t.size(); i += k) {
    double v = max_of_window ? y[i] : 0;
    for (std::size_t j = i; j < i + k; ++j)
      v = max_of_window ? std::max(v, y[j]) : v + y[j] / static_cast<double>(k);
    auto r = std::to_chars(buf, buf + sizeof buf, t[i + k - 1]);
    script.append(buf, r.ptr) += ' ';
    r = std::to_chars(buf, buf + sizeof buf, v);
    script.append(buf, r.ptr) += '\n';
  }
  script += "e\n";
}

// Twelve colours that stay apart in print and for common colour-vision deficiencies, and five
// dash types: line i gets colour i % 12 and dash type i % 5 + 1, a pair no other line shares.
inline std::string line_style(std::size_t i) {
  static constexpr const char* colours[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                            "#e69f00", "#56b4e9", "#000000", "#f0e442",
                                            "#882255", "#44aa99", "#999933", "#aa4499"};
  return "lw 1.6 lc rgb '" + std::string(colours[i % 12]) + "' dt " + std::to_string(i % 5 + 1);
}

// One PNG `<out>/<file>` of a line per entry of `lines` (title, t, y): drawn by gnuplot into a
// temporary file, renamed into place on success. Returns the line for the runner to print.
struct plot_line {
  std::string title;
  const std::vector<double>* t;
  const std::vector<double>* y;
};
inline std::string draw(const std::filesystem::path& out, const std::string& file,
                        const std::string& title, const std::string& ylabel,
                        const std::vector<plot_line>& lines, std::size_t k, bool max_of_window,
                        bool log_y) {
  const std::string tmp = file + ".partial";
  std::string script = "set terminal pngcairo noenhanced size 1100,550\nset output " +
                       gp_quote(tmp) + "\nset title " + gp_quote(title) +
                       "\nset key outside right top\nset grid\nset xlabel 'time (us)'\n"
                       "set ylabel " +
                       gp_quote(ylabel) + "\n";
  if (log_y) script += "set logscale y 10\n";
  script += "plot ";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i) script += ", ";
    script += "'-' using 1:2 with lines " + line_style(i) + " title " + gp_quote(lines[i].title);
  }
  script += '\n';
  for (const auto& l : lines) append_block(script, *l.t, *l.y, k, max_of_window);
  script += "set output\n";
  std::error_code ec;
  if (!run_gnuplot(out, script)) {
    std::filesystem::remove(out / tmp, ec);
    return "plot skipped: gnuplot failed on " + tb::printable((out / file).string());
  }
  std::filesystem::rename(out / tmp, out / file, ec);
  if (ec) {
    std::filesystem::remove(out / tmp, ec);
    return "plot skipped: cannot rename into " + tb::printable((out / file).string());
  }
  return "plot: " + tb::printable((out / file).string());
}

}  // namespace netcc_sim
