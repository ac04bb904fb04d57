// SPDX-License-Identifier: MIT
/// @file
/// @brief The generic driver: any netcc controller run through the path-server model of the
/// network-calculus seed, with the feedback it consumes synthesised from the model's curves.
///
/// Paper: Harvinder Lehal, Natchanon Luangsomboon, Jörg Liebeherr, "Network Calculus
/// Characterization of Congestion Control for Time-Varying Traffic" (network-calculus seed,
/// `seeds/003_7857f230e87c9d73.txt`). The seed characterises four controllers by their own
/// equations (netcc::calculus::basic_path_server); this driver puts a controller from
/// netcc/control/ (PowerTCP, θ-PowerTCP, HPCC, FastTune, TIMELY, Swift, DCTCP, DCQCN, Vegas, or a
/// user's own with the same event handlers) in the seed's closed loop instead, so that one
/// implementation can be compared between the analytical model and the packet testbench.
///
/// The model (seed §III-A, §III-B, §IV-A), as the driver evaluates it
/// - Each flow j has a source A_j (a curve of bytes over ns; a flow entry may stand for m
///   identical flows) and admits Â_j(t) <= A_j(t): at most the controller's window beyond the
///   acknowledged bytes (Â_j <= ACK_j + W, Eq. 5's window constraint), at most its pacing rate
///   and the host's line rate (Eq. 2's rate constraint, a token bucket of one packet), never
///   during a PFC pause. Admission is in whole bytes; when nothing is outstanding a window
///   below one packet still admits one packet, as every window-based sender does.
/// - One FIFO path server with exact service curve S(t) = max{C t, 0}: D = Â ⊗ S, the
///   aggregate Â being the sum of m_j Â_j; each D_j follows FIFO order (Theorem 1).
/// - Acknowledgements by the ACK function of §III-B a: an ACK reaches the source each time
///   D_j(t - dR) crosses a multiple of I_max (and for the rest of the admitted data when the
///   flow can admit nothing more, as a receiver's delayed-ACK timer would), carrying:
///   - the RTT of Eq. 1, RTT(t) = t - Â_j^↓(D_j(t - dR)): the time since the acknowledged byte
///     was admitted;
///   - ECN-Echo when the byte left the server at a backlog B in RED's band (§III-B d): marked
///     with probability 0 below K_min, P_max (B - K_min)/(K_max - K_min) between, 1 at or
///     above K_max; the probability is applied deterministically (each flow accumulates the
///     probabilities of its packets and a packet is marked when the sum reaches 1), so runs are
///     reproducible and need no random numbers;
///   - one INT hop record of the path server, taken when the byte departed: its queue length
///     B, its transmitted-bytes counter D (all flows), the time and the capacity C.
/// - Congestion notifications (DCQCN's CNP, §III-B d and §V): a marked packet makes a CNP
///   at the receiver, at most one per `cnp_interval` per flow (the minimum spacing dtau_ecn),
///   which reaches the source dR after the byte departed.
/// - PFC (§III-B e): sources are paused while the backlog has reached X_off and not yet fallen
///   to X_on.
/// - Timeouts with Go-Back-N (§III-B b, c): when a flow has data outstanding and no new byte
///   has been acknowledged for tau_o, the controller's on_timeout runs, the flow's data still
///   in the server and its ACKs on the way are discarded, and the flow resends from its
///   acknowledged byte (the seed's shift of coordinates to D_j(t_TO - dR)).
/// - Timers: controllers with on_timer (DCQCN) get a tick every `tick`.
///
/// Evaluation (a documented choice): the seed's controllers are min-plus linear between
/// events, which lets basic_path_server compute exact crossings; an arbitrary controller
/// changes its window or rate at every ACK, so the driver evaluates the same equations on a
/// time grid of step h (default: the transmission time of one I_max at C). Admissions are
/// made at the start of each step, the server's departures within a step are exact
/// (S(t) = C t, FIFO), and every ACK, mark and CNP is timed to the departure of its byte. The
/// result is therefore exact for departures, and event times are resolved to h.
///
/// Controllers are driven through the same event names as netcc::testbench::cc_model, each
/// only if the controller has it: on_ack(ack_event), on_cnp(cnp_event), on_timer(timestamp),
/// on_timeout(timestamp), on_send(bytes, timestamp); outputs cwnd() (bytes) and
/// pacing_rate() or rate() (bit_rate). A controller with neither output is unlimited.
///
/// @code
/// namespace nc = netcc::calculus;
/// nc::driver_config cfg{.capacity = netcc::bit_rate{100'000'000'000},
///                       .feedback_delay = netcc::duration{8'000}};
/// std::vector<nc::driver_flow<netcc::powertcp>> flows(2);
/// for (auto& f : flows) f.arrivals = nc::double_curve::token_bucket(0.0, 1.0e6);   // 1 MB at 0
/// nc::cc_driver<netcc::powertcp> d(cfg, std::move(flows));
/// nc::driver_result r = d.run(netcc::duration{200'000});
/// double peak = 0;
/// for (const auto& s : r.samples) peak = std::max(peak, s.backlog);
/// @endcode
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "netcc/calculus/curve.hpp"
#include "netcc/core/feedback.hpp"
#include "netcc/core/units.hpp"
#include "netcc/core/validation.hpp"

namespace netcc::calculus {

/// @brief The path server and the feedback the driver synthesises (seed §III-A, §III-B).
/// @code
/// netcc::calculus::driver_config c{.capacity = netcc::bit_rate{25'000'000'000},
///                                  .feedback_delay = netcc::duration{20'000}};
/// @endcode
struct driver_config {
  /// @brief C, the path server's rate (S(t) = max{C t, 0}).
  bit_rate capacity{100'000'000'000};
  /// @brief dR, the feedback delay: an ACK of the bytes departed at t reaches the source at
  /// t + dR (the round trip less the path server's own queueing and transmission).
  duration feedback_delay{20'000};
  /// @brief I_max, the packet size of the ACK function (§III-B a).
  bytes packet_size{1460};
  /// @brief The evaluation step h (zero: the transmission time of I_max at C).
  duration step{};
  /// @brief RED/ECN marking at the path server (§III-B d).
  bool ecn = false;
  /// @brief K_min (bytes of backlog).
  bytes k_min{};
  /// @brief K_max (>= K_min).
  bytes k_max{};
  /// @brief P_max in (0, 1].
  double p_max = 1.0;
  /// @brief The minimum spacing of CNPs to one flow, dtau_ecn (zero: a CNP per marked packet).
  duration cnp_interval{};
  /// @brief PFC on the path server's backlog (§III-B e).
  bool pfc = false;
  /// @brief X_off: pause at this backlog.
  bytes x_off{};
  /// @brief X_on (< X_off): resume at this backlog.
  bytes x_on{};
  /// @brief tau_o, the retransmission timeout (zero: none).
  duration timeout{};
  /// @brief The period of on_timer (zero: never).
  duration tick{};
  /// @brief The interval of the recorded samples.
  duration sample_interval{1'000};
  /// @brief Steps after which a run stops (driver_result::complete is then false).
  std::size_t max_steps = 100'000'000;
};

/// @brief Check a driver_config; every message names the field, the value and the rule.
/// @code
/// auto v = netcc::calculus::validate(netcc::calculus::driver_config{.capacity = netcc::bit_rate{0}});
/// // v[0].message() == "driver.capacity = 0 bps: must be positive"
/// @endcode
[[nodiscard]] inline validation validate(const driver_config& c) {
  validation v;
  v.check(c.capacity.bps() > 0, "driver.capacity", c.capacity, "must be positive");
  v.check(c.feedback_delay.count() > 0, "driver.feedback_delay", c.feedback_delay,
          "must be positive");
  v.check(c.packet_size.count() > 0, "driver.packet_size", c.packet_size, "must be positive");
  v.check(c.step.count() >= 0, "driver.step", c.step, "must not be negative");
  if (c.ecn) {
    v.check(c.k_min.count() >= 0, "driver.k_min", c.k_min, "must not be negative");
    v.check(c.k_max >= c.k_min && c.k_max.count() > 0, "driver.k_max", c.k_max,
            "must be positive and at least k_min");
    v.check(c.p_max > 0.0 && c.p_max <= 1.0, "driver.p_max", c.p_max, "must be in (0, 1]");
  }
  v.check(c.cnp_interval.count() >= 0, "driver.cnp_interval", c.cnp_interval,
          "must not be negative");
  if (c.pfc) {
    v.check(c.x_on.count() >= 0, "driver.x_on", c.x_on, "must not be negative");
    v.check(c.x_off > c.x_on, "driver.x_off", c.x_off, "must be greater than x_on");
  }
  v.check(c.timeout.count() == 0 || c.timeout > c.feedback_delay, "driver.timeout", c.timeout,
          "must be zero (off) or longer than feedback_delay");
  v.check(c.tick.count() >= 0, "driver.tick", c.tick, "must not be negative");
  v.check(c.sample_interval.count() > 0, "driver.sample_interval", c.sample_interval,
          "must be positive");
  return v;
}

/// @brief One flow (or m identical flows) and its controller.
/// @tparam C the controller type
/// @code
/// netcc::calculus::driver_flow<netcc::dctcp> f;
/// f.arrivals = netcc::calculus::double_curve::token_bucket(0.0, 64'000.0);   // 64 kB at 0
/// f.line_rate = netcc::bit_rate{25'000'000'000};
/// @endcode
template <class C>
struct driver_flow {
  /// @brief The controller (one per flow; identical flows share its decisions).
  C cc{};
  /// @brief The source A_j: bytes made available by time t (ns); non-decreasing, A(0) = 0.
  double_curve arrivals = double_curve::zero();
  /// @brief Number of identical flows this entry stands for (>= 1).
  std::uint32_t multiplicity = 1;
  /// @brief The host's line rate (an upper limit on the admission rate; max: none).
  bit_rate line_rate = bit_rate::max();
};

/// @brief Aggregate state at a sample time.
/// @code
/// netcc::calculus::driver_sample s{.t = 1000.0, .backlog = 3000.0};
/// @endcode
struct driver_sample {
  /// @brief Time (ns).
  double t = 0;
  /// @brief Backlog B of the path server (bytes).
  double backlog = 0;
  /// @brief Aggregate departures D (bytes, all flows).
  double departed = 0;
  /// @brief Aggregate traffic put into the server (bytes, including retransmissions).
  double transmitted = 0;
  /// @brief Aggregate data discarded from the server by Go-Back-N (B = transmitted - departed
  /// - discarded).
  double discarded = 0;
  /// @brief Sources paused by PFC.
  bool paused = false;
};

/// @brief One flow's state at a sample time (per flow, not multiplied by its multiplicity).
/// @code
/// netcc::calculus::driver_flow_sample s{.t = 1000.0, .cwnd = 14600.0};
/// @endcode
struct driver_flow_sample {
  /// @brief Time (ns).
  double t = 0;
  /// @brief The controller's window (bytes; infinity when it has none).
  double cwnd = 0;
  /// @brief The controller's pacing rate (bit/s; infinity when it has none).
  double rate = 0;
  /// @brief Â_j in sequence space (bytes).
  double admitted = 0;
  /// @brief D_j in sequence space (bytes).
  double departed = 0;
  /// @brief Bytes acknowledged to the controller.
  double acked = 0;
};

/// @brief One flow's output.
/// @code
/// netcc::calculus::driver_flow_result r;
/// @endcode
struct driver_flow_result {
  /// @brief Samples every driver_config::sample_interval.
  std::vector<driver_flow_sample> samples{};
  /// @brief ACKs delivered.
  std::uint64_t acks = 0;
  /// @brief ACKs with ECN-Echo.
  std::uint64_t marks = 0;
  /// @brief CNPs delivered.
  std::uint64_t cnps = 0;
  /// @brief Timeouts.
  std::uint64_t timeouts = 0;
  /// @brief Bytes of the source sent and acknowledged (the flow's progress in A).
  double acked = 0;
  /// @brief When all of A_j was acknowledged (ns; negative if not within the run).
  double finish = -1.0;
};

/// @brief The output of a run.
/// @code
/// netcc::calculus::driver_result r;
/// bool bad = !r.error.empty();
/// @endcode
struct driver_result {
  /// @brief Empty, or the validation message of the first bad parameter (nothing was run).
  std::string error{};
  /// @brief The run reached its horizon (false: stopped at max_steps, or not run).
  bool complete = false;
  /// @brief Time reached (ns).
  double end = 0;
  /// @brief The evaluation step used (ns).
  double step = 0;
  /// @brief Aggregate samples every driver_config::sample_interval.
  std::vector<driver_sample> samples{};
  /// @brief Per flow.
  std::vector<driver_flow_result> flows{};
  /// @brief The backlog B as a curve (linear between samples).
  [[nodiscard]] double_curve backlog_curve() const { return curve_of(&driver_sample::backlog); }
  /// @brief The aggregate departures D as a curve (linear between samples).
  [[nodiscard]] double_curve departure_curve() const { return curve_of(&driver_sample::departed); }

 private:
  [[nodiscard]] double_curve curve_of(double driver_sample::*m) const {
    std::vector<sample<double>> s;
    s.reserve(samples.size());
    for (const auto& x : samples) s.push_back({x.t, x.*m});
    if (s.empty()) return double_curve::zero();
    return double_curve::from_samples(s, interpolation::linear);
  }
};

/// @brief The generic driver (see the file comment): controllers of type `C` through the
/// path-server model.
/// @tparam C a netcc controller (or any type with the same event handlers and outputs)
/// @code
/// namespace nc = netcc::calculus;
/// std::vector<nc::driver_flow<netcc::vegas>> f(1);
/// f[0].arrivals = nc::double_curve::token_bucket(0.0, 4.0e6);
/// nc::cc_driver<netcc::vegas> d(nc::driver_config{}, std::move(f));
/// auto r = d.run(netcc::duration{1'000'000});
/// @endcode
template <class C>
class cc_driver {
 public:
  /// @brief A driver of `flows` through the path server `cfg` (validated by run()).
  cc_driver(driver_config cfg, std::vector<driver_flow<C>> flows)
      : cfg_(cfg), flows_(std::move(flows)) {}

  /// @brief The controller of flow `j` (its state after run()).
  [[nodiscard]] const C& controller(std::size_t j) const { return flows_.at(j).cc; }

  /// @brief Runs the model on [0, horizon]. Bad parameters are reported in
  /// driver_result::error and nothing runs; the driver never throws for bad input.
  driver_result run(duration horizon) {
    driver_result res;
    validation v = validate(cfg_);
    for (std::size_t j = 0; j < flows_.size(); ++j) {
      const auto& f = flows_[j];
      const std::string at = "driver.flows[" + std::to_string(j) + "].";
      const bool valid = f.arrivals.valid();
      v.check(valid, at + "arrivals.valid", valid, "must be a valid curve");
      if (valid) {
        const bool up = f.arrivals.is_non_decreasing();
        v.check(up, at + "arrivals.non_decreasing", up, "must be non-decreasing");
        const auto a0 = f.arrivals.at(0.0);
        const double y0 = a0.valid() && !a0.is_inf() ? a0.value() : inf;
        v.check(y0 == 0.0, at + "arrivals(0)", y0, "must be 0 (a burst at 0 is A(0+))");
      }
      v.check(f.multiplicity >= 1, at + "multiplicity", f.multiplicity, "must be at least 1");
      v.check(f.line_rate.bps() > 0, at + "line_rate", f.line_rate, "must be positive");
    }
    v.check(horizon.count() >= 0, "driver.horizon", horizon, "must not be negative");
    if (!v.ok()) {
      res.error = v[0].message();
      return res;
    }
    init();
    res.step = h_;
    res.flows.resize(fl_.size());
    const double end = static_cast<double>(horizon.count());
    const double dt_sample = static_cast<double>(cfg_.sample_interval.count());
    double next_sample = 0;
    std::size_t steps = 0;
    res.complete = true;
    while (true) {
      while (next_sample <= t_ + 1e-9 && next_sample <= end) {
        record(res);
        next_sample += dt_sample;
      }
      if (!(t_ < end)) break;
      if (steps++ >= cfg_.max_steps) {
        res.complete = false;
        break;
      }
      deliver();
      timers();
      timeouts();
      pfc();
      admit();
      serve();
      t_ += h_;
    }
    res.end = std::min(t_, end);
    for (std::size_t j = 0; j < fl_.size(); ++j) {
      auto& r = res.flows[j];
      r.acks = fl_[j].n_acks;
      r.marks = fl_[j].n_marks;
      r.cnps = fl_[j].n_cnps;
      r.timeouts = fl_[j].n_timeouts;
      r.acked = fl_[j].ack;
      r.finish = fl_[j].finish;
    }
    return res;
  }

 private:
  struct feedback {
    double at;    // arrival at the source (ns)
    double seq;   // cumulative bytes acknowledged (sequence space)
    double dep;   // departure time of the byte from the server
    double qlen;  // backlog when it departed
    double tx;    // aggregate departures when it departed
    bool ce;      // ECN mark
    bool cnp;     // a CNP (not an ACK)
  };
  struct chunk {
    std::size_t flow;
    double bytes;  // aggregate bytes (per-flow bytes times the multiplicity)
  };
  struct flow_state {
    double m = 1;              // multiplicity
    double snd = 0;            // Â_j, sequence space
    double dep = 0;            // D_j, sequence space
    double gen = 0;            // ACKs generated up to this byte
    double ack = 0;            // acknowledged to the controller
    double consumed = 0;       // bytes of A_j ever admitted (new data)
    double credit = 0;         // rate tokens (bytes)
    double last_dep_t = 0;     // time the last byte of the flow departed
    double last_dep_q = 0;     // backlog then
    double last_dep_tx = 0;    // aggregate departures then
    double red = 0;            // accumulated marking probability
    double last_cnp = -1e300;  // last CNP generated
    double progress = 0;       // last time the acknowledged byte advanced (or data started)
    double next_tick = 0;
    double finish = -1.0;
    bool blocked = false;  // window or source limited at the last admission
    bool mark_pending = false;
    std::deque<std::pair<double, double>> hist{};  // (time, Â_j) after each admission
    std::deque<feedback> fb{};
    std::uint64_t n_acks = 0, n_marks = 0, n_cnps = 0, n_timeouts = 0;
  };

  static constexpr double inf = std::numeric_limits<double>::infinity();

  static timestamp to_time(double ns) {
    if (!(ns > 0)) return timestamp{0};
    if (ns >= 9.0e18) return timestamp::max();
    return timestamp{static_cast<std::int64_t>(std::llround(ns))};
  }
  static std::uint64_t to_u64(double x) {
    if (!(x > 0)) return 0;
    if (x >= 1.8e19) return std::numeric_limits<std::uint64_t>::max();
    return static_cast<std::uint64_t>(std::llround(std::min(x, 9.0e18)));
  }
  static std::int64_t to_i64(double x) {
    if (!(x > 0)) return 0;
    if (x >= 9.0e18) return std::numeric_limits<std::int64_t>::max();
    return static_cast<std::int64_t>(std::llround(x));
  }

  void init() {
    c_ = static_cast<double>(cfg_.capacity.bps()) / 8e9;  // bytes per ns
    dr_ = static_cast<double>(cfg_.feedback_delay.count());
    pkt_ = static_cast<double>(cfg_.packet_size.count());
    h_ = cfg_.step.count() > 0 ? static_cast<double>(cfg_.step.count()) : pkt_ / c_;
    t_ = 0;
    backlog_ = departed_ = transmitted_ = discarded_ = 0;
    paused_ = false;
    fifo_.clear();
    fl_.assign(flows_.size(), flow_state{});
    for (std::size_t j = 0; j < flows_.size(); ++j) {
      fl_[j].m = static_cast<double>(flows_[j].multiplicity);
      fl_[j].next_tick = static_cast<double>(cfg_.tick.count());
    }
  }

  void record(driver_result& res) const {
    res.samples.push_back({t_, backlog_, departed_, transmitted_, discarded_, paused_});
    for (std::size_t j = 0; j < fl_.size(); ++j) {
      const C& cc = flows_[j].cc;
      res.flows[j].samples.push_back(
          {t_, window_of(cc), rate_of(cc) * 8e9, fl_[j].snd, fl_[j].dep, fl_[j].ack});
    }
  }

  // The controller's window in bytes (infinity: none).
  static double window_of(const C& cc) {
    if constexpr (requires { cc.cwnd(); }) {
      const bytes w = cc.cwnd();
      if (w == bytes::max()) return inf;
      return static_cast<double>(std::max<std::int64_t>(w.count(), 0));
    } else {
      return inf;
    }
  }
  // The controller's rate in bytes per ns (infinity: none).
  static double rate_of(const C& cc) {
    bit_rate r = bit_rate::max();
    if constexpr (requires { cc.pacing_rate(); }) {
      r = cc.pacing_rate();
    } else if constexpr (requires { cc.rate(); }) {
      r = cc.rate();
    }
    if (r == bit_rate::max()) return inf;
    return static_cast<double>(std::max<std::int64_t>(r.bps(), 0)) / 8e9;
  }

  // Eq. 1: the time Â_j first reached `seq` (Â^↓), dropping history below it.
  double admitted_at(flow_state& f, double seq) {
    while (f.hist.size() > 1 && f.hist[1].second < seq - 1e-6) f.hist.pop_front();
    for (const auto& [t, a] : f.hist) {
      if (!(a < seq - 1e-6)) return t;
    }
    return f.hist.empty() ? t_ : f.hist.back().first;
  }

  // ACKs and CNPs that reached the sources by now, in arrival order per flow.
  void deliver() {
    for (std::size_t j = 0; j < fl_.size(); ++j) {
      flow_state& f = fl_[j];
      C& cc = flows_[j].cc;
      while (!f.fb.empty() && f.fb.front().at <= t_ + 1e-9) {
        const feedback e = f.fb.front();
        f.fb.pop_front();
        if (e.cnp) {
          ++f.n_cnps;
          if constexpr (requires { cc.on_cnp(cnp_event{}); }) {
            cc.on_cnp(cnp_event{.now = to_time(e.at)});
          }
          continue;
        }
        const double newly = e.seq - f.ack;
        if (!(newly > 0)) continue;
        ack_event a{};
        a.now = to_time(e.at);
        a.ack_seq = static_cast<sequence>(to_u64(e.seq));
        a.snd_nxt = static_cast<sequence>(to_u64(f.snd));
        a.acked = bytes{to_i64(newly)};
        a.rtt = duration{to_time(e.at - admitted_at(f, e.seq)).count()};
        a.ecn_echo = e.ce;
        a.hops.push({.ts = to_u64(e.dep),
                     .qlen = bytes{to_i64(e.qlen)},
                     .tx_bytes = to_u64(e.tx),
                     .link_rate = cfg_.capacity});
        f.ack = e.seq;
        f.progress = e.at;
        ++f.n_acks;
        if (e.ce) ++f.n_marks;
        if (f.finish < 0 && f.ack >= total_of(j) - 1e-6 && std::isfinite(total_of(j))) {
          f.finish = e.at;
        }
        if constexpr (requires { cc.on_ack(a); }) cc.on_ack(a);
      }
    }
  }

  double total_of(std::size_t j) const {
    const auto& a = flows_[j].arrivals;
    const auto& pts = a.breakpoints();
    const auto& last = pts.back();
    if (last.slope > 0 || last.right.is_inf()) return inf;
    return last.right.value();
  }

  void timers() {
    if (cfg_.tick.count() <= 0) return;
    const double tick = static_cast<double>(cfg_.tick.count());
    for (std::size_t j = 0; j < fl_.size(); ++j) {
      C& cc = flows_[j].cc;
      while (fl_[j].next_tick <= t_ + 1e-9) {
        if constexpr (requires { cc.on_timer(timestamp{}); })
          cc.on_timer(to_time(fl_[j].next_tick));
        fl_[j].next_tick += tick;
      }
    }
  }

  // §III-B b, c: a timeout, and Go-Back-N from the acknowledged byte.
  void timeouts() {
    if (cfg_.timeout.count() <= 0) return;
    const double tau = static_cast<double>(cfg_.timeout.count());
    for (std::size_t j = 0; j < fl_.size(); ++j) {
      flow_state& f = fl_[j];
      if (!(f.snd > f.ack + 1e-6) || t_ - f.progress < tau) continue;
      C& cc = flows_[j].cc;
      if constexpr (requires { cc.on_timeout(timestamp{}); }) cc.on_timeout(to_time(t_));
      ++f.n_timeouts;
      double removed = 0;
      std::deque<chunk> keep;
      for (const chunk& k : fifo_) {
        if (k.flow == j) {
          removed += k.bytes;
        } else {
          keep.push_back(k);
        }
      }
      fifo_.swap(keep);
      backlog_ = std::max(0.0, backlog_ - removed);
      discarded_ += removed;
      std::erase_if(f.fb, [](const feedback& e) { return !e.cnp; });
      f.snd = f.dep = f.gen = f.ack;
      f.hist.clear();
      f.progress = t_;
    }
  }

  void pfc() {
    if (!cfg_.pfc) return;
    if (!paused_ && backlog_ >= static_cast<double>(cfg_.x_off.count())) paused_ = true;
    if (paused_ && backlog_ <= static_cast<double>(cfg_.x_on.count())) paused_ = false;
  }

  // Â_j = min(A_j, ACK_j + W, rate and line-rate tokens), in whole bytes, at the step's start.
  void admit() {
    for (std::size_t j = 0; j < fl_.size(); ++j) {
      flow_state& f = fl_[j];
      driver_flow<C>& fd = flows_[j];
      const double line = static_cast<double>(fd.line_rate.bps()) / 8e9;
      const double r = std::min(rate_of(fd.cc), fd.line_rate == bit_rate::max() ? inf : line);
      if (std::isfinite(r)) f.credit = std::min(f.credit + r * h_, std::max(pkt_, r * h_));
      const ext_value src = fd.arrivals.right_limit(t_);
      const double avail = src.valid() && !src.is_inf() ? src.value() : inf;
      // the source: new data up to A_j(t+), retransmissions up to what was consumed
      const double lim_src = std::max(avail, f.consumed) - f.snd;
      const double w = window_of(fd.cc);
      double lim_win = std::isfinite(w) ? f.ack + w - f.snd : inf;
      if (f.snd <= f.ack + 1e-6) lim_win = std::max(lim_win, pkt_);  // one packet at least
      const double lim_rate = std::isfinite(r) ? f.credit : inf;
      f.blocked = std::min(lim_src, lim_win) <= lim_rate;
      if (paused_) continue;
      double amount = std::min({lim_src, lim_win, lim_rate});
      if (!(amount >= 1.0)) continue;
      amount = std::floor(std::min(amount, 1.0e15));
      if (f.snd <= f.ack + 1e-6) f.progress = t_;
      f.snd += amount;
      f.consumed = std::max(f.consumed, f.snd);
      if (std::isfinite(r)) f.credit -= amount;
      f.hist.emplace_back(t_, f.snd);
      fifo_.push_back({j, amount * f.m});
      backlog_ += amount * f.m;
      transmitted_ += amount * f.m;
      if constexpr (requires { fd.cc.on_send(bytes{}, timestamp{}); }) {
        fd.cc.on_send(bytes{to_i64(amount)}, to_time(t_));
      }
    }
  }

  // RED (§III-B d), deterministic: the flow's accumulated probability reaching 1 marks.
  bool mark(flow_state& f, double q) {
    if (!cfg_.ecn) return false;
    const double kmin = static_cast<double>(cfg_.k_min.count());
    const double kmax = static_cast<double>(cfg_.k_max.count());
    double p = 0;
    if (q >= kmax) {
      p = 1;
    } else if (q > kmin) {
      p = cfg_.p_max * (q - kmin) / (kmax - kmin);
    }
    if (!(p > 0)) return false;
    f.red += p;
    if (f.red < 1.0 - 1e-12) return false;
    f.red = std::max(0.0, f.red - 1.0);
    return true;
  }

  void emit(std::size_t j, double seq, double dep_t, double q, double tx) {
    flow_state& f = fl_[j];
    const bool ce = mark(f, q);
    f.fb.push_back({dep_t + dr_, seq, dep_t, q, tx, ce, false});
    if (ce && (cfg_.cnp_interval.count() == 0 ||
               dep_t - f.last_cnp >= static_cast<double>(cfg_.cnp_interval.count()))) {
      f.last_cnp = dep_t;
      f.fb.push_back({dep_t + dr_, seq, dep_t, q, tx, true, true});
    }
  }

  // D = Â ⊗ S over [t, t + h]: the FIFO drains C h; ACKs at each I_max of D_j (§III-B a).
  void serve() {
    double cap = c_ * h_;
    double used = 0;  // bytes served so far in this step
    while (cap > 1e-9 && !fifo_.empty()) {
      chunk& k = fifo_.front();
      const double x = std::min(cap, k.bytes);
      flow_state& f = fl_[k.flow];
      const double d0 = f.dep;
      const double d1 = d0 + x / f.m;
      const double q0 = backlog_;  // backlog when this portion starts departing
      // each I_max boundary crossed: the ACK of the byte there
      while (f.gen + pkt_ <= d1 + 1e-6) {
        const double y = f.gen + pkt_;
        const double off = (y - d0) * f.m;  // aggregate bytes before it in this portion
        const double tdep = t_ + (used + off) / c_;
        emit(k.flow, y, tdep, q0 - off, departed_ + off);
        f.gen = y;
      }
      f.dep = d1;
      used += x;
      cap -= x;
      k.bytes -= x;
      backlog_ = std::max(0.0, backlog_ - x);
      departed_ += x;
      f.last_dep_t = t_ + used / c_;
      f.last_dep_q = backlog_;
      f.last_dep_tx = departed_;
      if (k.bytes <= 1e-9) fifo_.pop_front();
    }
    // the rest of a flow's data that can grow no more: acknowledged when it has all departed
    for (std::size_t j = 0; j < fl_.size(); ++j) {
      flow_state& f = fl_[j];
      if (f.blocked && f.dep >= f.snd - 1e-6 && f.gen < f.snd - 1e-6) {
        emit(j, f.snd, f.last_dep_t, f.last_dep_q, f.last_dep_tx);
        f.gen = f.snd;
        f.dep = f.snd;
      }
    }
  }

  using ext_value = extended<double>;

  driver_config cfg_;
  std::vector<driver_flow<C>> flows_;
  std::vector<flow_state> fl_{};
  std::deque<chunk> fifo_{};
  double c_ = 1, dr_ = 1, pkt_ = 1, h_ = 1, t_ = 0;
  double backlog_ = 0, departed_ = 0, transmitted_ = 0, discarded_ = 0;
  bool paused_ = false;
};

}  // namespace netcc::calculus
