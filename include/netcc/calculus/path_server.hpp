// SPDX-License-Identifier: MIT
/// @file
/// @brief The path-server model of congestion control (network-calculus seed §III-§V): a
/// source A, the traffic Â a congestion-control algorithm admits, a path server with exact
/// service curve S and departures D = Â ⊗ S, with acknowledgements, timeouts, Go-Back-N
/// retransmission, ECN with a minimum spacing (and RED), PFC pause/resume and RTTs derived from
/// the curves; rate-based AIMD (Algorithm 1), window-based AIMD with slow start (Algorithm 2),
/// TCP Vegas (Algorithm 3), the simplified DCQCN of §V-B, and several flows at a FIFO path
/// server demultiplexed by Theorem 1.
///
/// Paper: Harvinder Lehal, Natchanon Luangsomboon, Jörg Liebeherr, "Network Calculus
/// Characterization of Congestion Control for Time-Varying Traffic" (network-calculus seed,
/// `seeds/003_7857f230e87c9d73.txt`). Curves and min-plus operations come from
/// netcc/calculus/curve.hpp and netcc/calculus/minplus.hpp.
///
/// What is implemented (seed section, equation, algorithm line)
/// - Free functions on whole curves (any exact service curve S):
///   netcc::calculus::path_departures (D = Â ⊗ S, §III-A), netcc::calculus::path_backlog
///   (B = Â - D, §III-B d), netcc::calculus::ack_function (I_max floor(D(t - dR) / I_max),
///   §III-B a), netcc::calculus::path_rtt (Eq. 1: RTT(t) = t - Â^↓(D(t - dR))),
///   netcc::calculus::first_timeout (§III-B b: the first t with D(t - dR) < Â(t - tau_o)),
///   netcc::calculus::red_probability (§III-B d), netcc::calculus::ecn_spacer (the three cases of
///   §III-B d), netcc::calculus::pfc_pause_time / pfc_resume_time (§III-B e, t_P and t_R),
///   netcc::calculus::fifo_departure_bounds (§IV-A Theorem 1) and
///   netcc::calculus::first_crossing (the event searches of Algorithms 1 and 2, lines 7-8).
/// - netcc::calculus::basic_path_server: the model run event by event. Between two events the
///   system is min-plus linear and the model computes, as the seed does, the admitted arrivals
///   in the shifted coordinate system of §III-C, Â^rem = A^rem ⊗ S_r (rate, Eq. 2) or
///   A^rem ⊗ S_W (flight window, Eq. 5), or the sliding window of Algorithm 3 line 27, and the
///   departures D^rem = Â^rem ⊗ S; it finds the next congestion event (timeout, end of a flight,
///   an ECN mark, a PFC pause) as the first crossing of the curves, updates the controller, moves
///   the origin (to (t_AI, Â(t_AI)) after an increase and to (t_TO, D(t_TO - dR)) after a timeout
///   with Go-Back-N), and continues. Controllers (netcc::calculus::path_cc):
///   - rate-based AIMD, §III-C and Appendix A Algorithm 1 (Eqs. 2-4): r = beta r at a timeout
///     (or a congestion notification), r = r + alpha every increase interval without one;
///   - window-based AIMD with slow start, §III-D and Appendix B Algorithm 2 (Eqs. 5-7): flights
///     of W bytes, W doubled below w_th and increased by alpha above it; after a timeout
///     w_th = beta W and W = one packet (or W = beta W without slow start);
///   - TCP Vegas, §III-E and Appendix C Algorithm 3: updates every minRTT with minRTT from Eq. 1,
///     slow start doubling every other update, Diff against w_low, w_high and gamma;
///   - the simplified DCQCN of §V-B: rate-based AIMD whose decrease is triggered by congestion
///     notifications (ECN with RED, at most one per dtau_ecn) and timeouts, with PFC optional.
/// - Several flows share one FIFO path server (§IV, Figure 5): Â = sum of the Â_j, D = Â ⊗ S,
///   and each D_j from Theorem 1 (netcc::calculus::fifo_departure_bounds): D_j(t) =
///   Â_j(Â^↑(D(t))) where Â is continuous; inside a burst that several flows sent at the same
///   instant (where Theorem 1 only bounds D_j) the burst is shared in proportion to the flows'
///   parts of it, a value between the theorem's bounds. A flow may stand for m identical flows
///   (flow_config::multiplicity: its curves are per flow, the path server sees m times them).
///
/// Units: the curves are unit-free; the examples and tests use nanoseconds and bytes, so a rate
/// of C Gbit/s is C / 8 bytes per ns.
///
/// Decisions the seed leaves open, and deviations (each a documented choice)
/// - Exact evaluation between events. The seed's Algorithm 3 computes Â over the whole
///   remaining horizon from a departure function of the previous iteration and then recomputes
///   D (lines 27-30); netcc instead advances a sliding-window flow in steps of at most dR, in
///   which D(t - dR) is already final, so that Â(t) = max(Â(t_e), min(A(t), D(t - dR) + W)) holds
///   exactly (the two agree whenever the window does not bind).
/// - The departures are evaluated incrementally: D restarts at each event from the current
///   backlog. That is exact for the rate server S(t) = max{Ct, 0} that every example of the seed
///   uses (D(t) = min(D(t0) + C (t - t0), inf_{t0 <= s <= t} Â(s) + C (t - s))), so the engine
///   takes a capacity C; the free functions take any S.
/// - Coordinate shift after an increase: the seed's text moves the origin to (t_AI, Â(t_AI))
///   (§III-C), while Algorithms 1-3 write A(t_event) (Alg. 1 lines 19-21, Alg. 2 lines 20-23,
///   Alg. 3 lines 26-29), which would drop the traffic the controller holds back; netcc follows
///   the text.
/// - End of a flight (Alg. 2 line 7 writes D(t - dR) > W): a flight admits at most W, so ">"
///   is never met; netcc uses the text's t_W = inf{t | D(t - dR) >= W} (§III-D), relative to the
///   flight's origin.
/// - Timeouts are checked in the coordinate system of the last timeout (the functions are 0
///   before it, as the seed's A^rem, Â^rem, D^rem): the timer restarts with the retransmission.
/// - Go-Back-N at a FIFO shared by several flows: at a timeout of flow i the seed's shift sets
///   Â_i and D_i to D_i(t_TO - dR); netcc removes flow i's data still queued in the path server
///   (the single-flow shift of §III-C does the same: the backlog restarts at zero) and keeps the
///   FIFO order of the other flows' data. Inside a burst of several flows the removal keeps flow
///   i's part that has departed; the rest of the burst is then shared among the data still
///   queued (each flow's share continues from its departures so far).
/// - Additive increase (§III-C): ticks every dtau_ai from t = 0; a tick increases the rate only
///   if no timeout and no congestion notification reached the source in the dtau_ai before it
///   (the text's condition; Algorithm 1 advances its tick once per loop iteration).
/// - Window after a timeout with slow start: one packet of I_max (the text of §III-D; Algorithm
///   2 line 13 writes W_o, the same when W_o = I_max); configurable.
/// - Vegas windows are kept at one packet or more (Algorithm 3 has no floor) and at most
///   vegas_model_params::max_window (Algorithm 3 has no ceiling: a flow whose RTT stays at
///   baseRTT, e.g. one limited by its source, would double W every other update without end).
/// - RED (§III-B d) in a deterministic model: a packet arriving at backlog x carries p(x) of a
///   mark; a mark is made when the accumulated expectation of the flow reaches 1. The backlog
///   is sampled at the start of each step (steps of at most path_config::red_step while
///   K_min < B < K_max). At B >= K_max every packet is marked (exact).
/// - ECN marks are taken at the path server at time t when B(t) >= K_max (the seed: "a packet
///   is marked at time t if B(t) >= K_max"), for every flow with data in flight; the notification
///   is sent by the three cases of §III-B d and reaches the source dR later.
/// - PFC (§III-B e): the pause applies to all flows of the path server (the seed's single
///   ingress); X_off and X_on are compared with the backlog B of the path server.
/// - Doubles: the model's Â, D and X are non-decreasing, but their pieces are computed from
///   absolute values and times (A - Â(t0), a window from t0_k - t) and can dip by that
///   rounding, beyond what the curve operations that need a non-decreasing curve accept at the
///   pieces' own scale; netcc removes such dips (values at least the left limit) and ends each
///   step's curves with the step (constant after it), so that no breakpoint of the far future,
///   where the rounding of large values is larger still, enters the histories.
/// - Non-termination guard: a run stops after path_config::max_events events
///   (path_status::event_limit), and on an invalid curve (path_status::curve_failure, e.g. an
///   exact rational overflow); it never throws for bad input.
///
/// @code
/// using netcc::calculus::double_curve;
/// namespace nc = netcc::calculus;
/// nc::path_config<double> cfg{.capacity = 12.5, .feedback_delay = 20000.0, .packet_size = 1460.0};
/// nc::flow_config<double> f;
/// f.arrivals = double_curve::token_bucket(6.25, 4.0e6);   // 4 MB, then 50 Gbit/s
/// f.cc = nc::path_cc::vegas;
/// nc::basic_path_server<double> ps(cfg, {f});
/// auto res = ps.run(3.0e6);                                // 3 ms
/// double q = res.backlog(1.0e6).value();                   // backlog at 1 ms
/// @endcode
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "netcc/calculus/curve.hpp"
#include "netcc/calculus/minplus.hpp"

namespace netcc::calculus {

// ============================================================================ free functions

/// @brief Departures of an exact service curve, D = Â ⊗ S (seed §III-A).
/// @code
/// using netcc::calculus::curve;
/// auto d = netcc::calculus::path_departures(curve::token_bucket(0, 10), curve::rate(2));
/// // min(2 t, 10)
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> path_departures(const basic_curve<T>& admitted,
                                             const basic_curve<T>& service) {
  return convolve(admitted, service);
}

/// @brief Backlog B = Â - D of the path server (seed §III-B d).
/// @code
/// using netcc::calculus::curve;
/// auto a = curve::token_bucket(0, 10);
/// auto b = netcc::calculus::path_backlog(a, netcc::calculus::path_departures(a, curve::rate(2)));
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> path_backlog(const basic_curve<T>& admitted,
                                          const basic_curve<T>& departures) {
  return admitted - departures;
}

/// @brief The packet-level acknowledgement function I_max floor(D(t - dR) / I_max) of seed
/// §III-B a, exact up to D = steps I_max (constant after). D must be non-decreasing.
/// @code
/// using netcc::calculus::curve;
/// using netcc::calculus::rational;
/// auto acks = netcc::calculus::ack_function(curve::rate(rational{10}), rational{5},
///                                           rational{100}, 50);
/// // 0 on [0, 15], 100 on (15, 25], ...
/// @endcode
template <CurveNumber T>
[[nodiscard]] basic_curve<T> ack_function(const basic_curve<T>& departures, T feedback_delay,
                                          T packet_size, std::size_t steps) {
  return compose(basic_curve<T>::packetizer(packet_size, steps),
                 shift_right(departures, feedback_delay));
}

/// @brief The infimum of {t in [lo, hi] : f(t) > level} (strict) or {f(t) >= level}; the left
/// end lo itself is included only when include_lo. Empty (std::nullopt) when there is no such
/// t, or f is invalid.
///
/// The event searches of the seed (Algorithm 1 lines 7-8, Algorithm 2 lines 7-9) are such
/// infima: a timeout when D(t - dR) falls below Â(t - tau_o), a flight when D(t - dR) reaches W.
/// O(n).
/// @code
/// using netcc::calculus::double_curve;
/// auto t = netcc::calculus::first_crossing(double_curve::rate(2.0), 3.0, 0.0, 10.0, true);
/// // 1.5
/// @endcode
template <CurveNumber T>
[[nodiscard]] std::optional<T> first_crossing(const basic_curve<T>& f, T level, T lo, T hi,
                                              bool strict, bool include_lo = true) {
  using ext = extended<T>;
  if (!f.valid() || hi < lo) return std::nullopt;
  const auto cond = [&](const ext& v) {
    if (v.is_inf()) return true;
    return strict ? level < v.value() : !(v.value() < level);
  };
  const auto pts = f.breakpoints();
  std::size_t i = 0;
  while (i + 1 < pts.size() && !(lo < pts[i + 1].t)) ++i;
  for (; i < pts.size(); ++i) {
    const auto& p = pts[i];
    if (hi < p.t) return std::nullopt;
    const bool has_next = i + 1 < pts.size();
    T start = p.t;
    ext sv = p.right;
    if (p.t < lo) {
      start = lo;
      sv = p.right.is_inf() ? p.right : ext{p.right.value() + p.slope * (lo - p.t)};
      if (include_lo && cond(sv)) return lo;
    } else {
      if ((include_lo || lo < p.t) && cond(p.value)) return p.t;
      if (cond(p.right)) return p.t;
    }
    if (!sv.is_inf() && T{} < p.slope) {
      const T u = start + (level - sv.value()) / p.slope;
      const bool in_seg = !has_next || u < pts[i + 1].t;
      if (in_seg && !(hi < u)) return u < lo ? lo : u;
    }
  }
  return std::nullopt;
}

/// @brief The seed's RTT, Eq. 1: RTT(t) = t - Â^↓(D(t - dR)), the horizontal distance between
/// Â and D at t - dR plus the feedback delay; Â^↓(y) = inf{x >= 0 | Â(x) >= y} (the lower
/// pseudo-inverse as in the seed's references, see netcc/calculus/minplus.hpp). Â must be
/// non-decreasing; invalid value otherwise. O(n).
/// @code
/// using netcc::calculus::double_curve;
/// auto a = double_curve::token_bucket(0.0, 100.0);               // 100 B at t = 0
/// auto d = netcc::calculus::path_departures(a, double_curve::rate(1.0));
/// double r = netcc::calculus::path_rtt(a, d, 20.0, 70.0).value();   // 70 - 0 = 70
/// @endcode
template <CurveNumber T>
[[nodiscard]] extended<T> path_rtt(const basic_curve<T>& admitted, const basic_curve<T>& departures,
                                   T feedback_delay, T t) {
  const extended<T> y = departures.at(t - feedback_delay);
  if (!y.valid() || y.is_inf()) return extended<T>{curve_number<T>::invalid()};
  const basic_curve<T> inv = lower_inverse(admitted);
  const extended<T> x = inv.at(y.value() < T{} ? T{} : y.value());
  if (!x.valid() || x.is_inf()) return extended<T>{curve_number<T>::invalid()};
  return extended<T>{t - x.value()};
}

/// @brief The first timeout after `after` (seed §III-B b): the infimum of the times t > after
/// with D(t - dR) < Â(t - tau_o) (the acknowledgement function below the timeout function), in
/// [after, horizon]; std::nullopt when there is none.
/// @code
/// using netcc::calculus::double_curve;
/// auto a = double_curve::token_bucket(0.0, 100.0);
/// auto d = netcc::calculus::path_departures(a, double_curve::rate(1.0));
/// auto t = netcc::calculus::first_timeout(a, d, 0.0, 50.0, 0.0, 1000.0);   // 50
/// @endcode
template <CurveNumber T>
[[nodiscard]] std::optional<T> first_timeout(const basic_curve<T>& admitted,
                                             const basic_curve<T>& departures, T feedback_delay,
                                             T timeout, T after, T horizon) {
  const basic_curve<T> h = shift_right(admitted, timeout) - shift_right(departures, feedback_delay);
  return first_crossing(h, T{}, after, horizon, true, false);
}

/// @brief RED marking probability p(x) of seed §III-B d: 0 for x <= K_min, P_max (x - K_min) /
/// (K_max - K_min) in between, 1 for x >= K_max (K_min < K_max, 0 < P_max <= 1).
/// @code
/// double p = netcc::calculus::red_probability(100.0, 50.0, 150.0, 0.1);   // 0.05
/// @endcode
template <CurveNumber T>
[[nodiscard]] T red_probability(T backlog, T k_min, T k_max, T p_max) {
  if (!(backlog < k_max)) return curve_number<T>::from_int(1);
  if (!(k_min < backlog) || !(k_min < k_max)) return T{};
  return p_max * (backlog - k_min) / (k_max - k_min);
}

/// @brief ECN notifications with a minimum spacing dtau_ecn (seed §III-B d, the three cases).
///
/// `last` is the seed's t̲: the most recent notification, or the next one already scheduled;
/// it starts at -infinity (no notification yet), so the first mark notifies at once.
/// @code
/// netcc::calculus::ecn_spacer<double> s{50.0};
/// auto a = s.mark(10.0);   // case 1: 10
/// auto b = s.mark(30.0);   // case 2: 60
/// auto c = s.mark(40.0);   // case 3: nothing (60 already scheduled)
/// @endcode
template <CurveNumber T>
struct ecn_spacer {
  /// @brief The minimum spacing dtau_ecn between notifications.
  T spacing{};
  /// @brief t̲, valid when has_last.
  T last{};
  /// @brief False while t̲ = -infinity.
  bool has_last = false;
  /// @brief A packet marked at t: returns the time of the notification it causes (case 1: t;
  /// case 2: t̲ + dtau_ecn) or nothing (case 3: one is already scheduled after t).
  std::optional<T> mark(T t) {
    if (!has_last || !(t - last < spacing)) {  // case 1
      last = t;
      has_last = true;
      return t;
    }
    if (!(t < last)) {  // case 2: 0 <= t - last < spacing
      last = last + spacing;
      return last;
    }
    return std::nullopt;  // case 3
  }
};

/// @brief The next pause of PFC at or after t (seed §III-B e): t_P(t) = inf{s >= t | B(s - dR)
/// > X_off}, searched up to `horizon`.
/// @code
/// using netcc::calculus::double_curve;
/// auto tp = netcc::calculus::pfc_pause_time(double_curve::rate(1.0), 2.0, 10.0, 0.0, 100.0);
/// // B(s - 2) > 10 from s = 12
/// @endcode
template <CurveNumber T>
[[nodiscard]] std::optional<T> pfc_pause_time(const basic_curve<T>& backlog, T feedback_delay,
                                              T x_off, T t, T horizon) {
  return first_crossing(shift_right(backlog, feedback_delay), x_off, t, horizon, true);
}

/// @brief Resumption after a pause at t_P (seed §III-B e): t_R = t_P + (X_off - X_on) / C.
/// @code
/// double tr = netcc::calculus::pfc_resume_time(100.0, 30.0, 20.0, 2.0);   // 105
/// @endcode
template <CurveNumber T>
[[nodiscard]] T pfc_resume_time(T pause, T x_off, T x_on, T capacity) {
  return pause + (x_off - x_on) / capacity;
}

/// @brief Bounds of Theorem 1 (seed §IV-A) for flow i at a FIFO path server:
/// Â_i(Â^↑(D(t))) <= D_i(t) <= Â_i((Â^↑(D(t)))+) (the right limit for epsilon -> 0).
/// @code
/// netcc::calculus::fifo_bounds<double> b{};
/// @endcode
template <CurveNumber T>
struct fifo_bounds {
  /// @brief Â_i(Â^↑(D(t))).
  extended<T> lower{};
  /// @brief Â_i(Â^↑(D(t)) + epsilon) as epsilon -> 0.
  extended<T> upper{};
};

/// @brief Theorem 1 (seed §IV-A): bounds of the departures D_i(t) of flow i from a FIFO path
/// server with aggregate admitted arrivals Â (non-decreasing) and aggregate departures D; equal
/// where Â_i is continuous.
/// @code
/// using netcc::calculus::double_curve;
/// auto a1 = double_curve::rate(1.0);
/// auto a2 = double_curve::rate(3.0);
/// auto d = netcc::calculus::path_departures(a1 + a2, double_curve::rate_latency(4.0, 1.0));
/// auto b = netcc::calculus::fifo_departure_bounds(a1, a1 + a2, d, 3.0);   // both 2
/// @endcode
template <CurveNumber T>
[[nodiscard]] fifo_bounds<T> fifo_departure_bounds(const basic_curve<T>& flow,
                                                   const basic_curve<T>& aggregate,
                                                   const basic_curve<T>& departures, T t) {
  const extended<T> y = departures.at(t);
  const extended<T> bad{curve_number<T>::invalid()};
  if (!y.valid() || y.is_inf()) return {bad, bad};
  const extended<T> s = upper_inverse(aggregate).at(y.value() < T{} ? T{} : y.value());
  if (!s.valid()) return {bad, bad};
  if (s.is_inf()) return {flow.at(t), flow.at(t)};  // everything departed
  return {flow.at(s.value()), flow.right_limit(s.value())};
}

// ============================================================================ history

/// @brief A function of time assembled from pieces, one per interval between events: on
/// [t0_k, t0_{k+1}) it is y0_k + g_k(t - t0_k) (the seed's update of the original functions
/// after a change of coordinates, §III-C: Â(t) = Â^rem(t - t_e) + Â(t_e)); 0 before the first
/// piece.
/// @code
/// netcc::calculus::path_history<double> h;
/// h.push(0.0, 0.0, netcc::calculus::double_curve::rate(1.0));
/// h.push(5.0, 2.0, netcc::calculus::double_curve::rate(3.0));
/// double v = h.at(6.0).value();   // 2 + 3 = 5
/// @endcode
template <CurveNumber T>
class path_history {
 public:
  /// @brief One piece: the function is y0 + g(t - t0) from t0 to the next piece.
  struct piece {
    /// @brief Start of the piece.
    T t0{};
    /// @brief Offset at the start.
    T y0{};
    /// @brief The piece in its own coordinates (g(0) = 0 for the model's pieces).
    basic_curve<T> g{};
  };

  /// @brief Appends a piece from t0 (>= the last start; a piece with the same start is
  /// replaced).
  void push(T t0, T y0, basic_curve<T> g) {
    if (!p_.empty() && !(p_.back().t0 < t0)) {
      p_.back() = piece{t0, y0, std::move(g)};
      return;
    }
    p_.push_back(piece{t0, y0, std::move(g)});
  }
  /// @brief The pieces in time order.
  [[nodiscard]] std::span<const piece> pieces() const noexcept { return p_; }
  /// @brief Mutable access to piece k (for the removal of queued data at a timeout).
  piece& at_index(std::size_t k) { return p_[k]; }
  /// @brief Number of pieces.
  [[nodiscard]] std::size_t size() const noexcept { return p_.size(); }
  /// @brief Index of the last piece starting at or before t (0 when t is before all).
  [[nodiscard]] std::size_t index_at(T t) const {
    auto it = std::upper_bound(p_.begin(), p_.end(), t,
                               [](const T& x, const piece& p) { return x < p.t0; });
    return it == p_.begin() ? 0 : static_cast<std::size_t>(it - p_.begin()) - 1;
  }
  /// @brief The value at t (0 before the first piece).
  [[nodiscard]] extended<T> at(T t) const {
    if (p_.empty() || t < p_.front().t0) return extended<T>{};
    const piece& p = p_[index_at(t)];
    return p.g.at(t - p.t0) + extended<T>{p.y0};
  }
  /// @brief The curve u -> F(max(from + u, clamp)) for u >= 0 (clamp <= to): the function seen
  /// from `from`, with times before `clamp` evaluated at `clamp` (the seed's coordinate systems
  /// that start at a timeout; clamp = 0 gives F(t) = F(0) for t < 0). Beyond `to` it follows
  /// the projection of the last piece used.
  [[nodiscard]] basic_curve<T> window(T from, T to, T clamp) const {
    if (p_.empty()) return basic_curve<T>::zero();
    const T lo = from < clamp ? clamp : from;
    const T hi = to < lo ? lo : to;
    std::size_t k = index_at(lo);
    T off = lo - p_[k].t0;
    if (off < T{}) off = T{};
    const basic_curve<T> first = shift_left(p_[k].g, off);
    if (!first.valid()) return first;
    // One pass over the pieces in [lo, hi], each up to the next one's start (the pushes of
    // splicing them one by one, without copying the curve for every piece: a window over a long
    // backlog spans many pieces).
    ::netcc::detail::curve_builder<T> b;
    const basic_curve<T>* g = &first;
    T start{};
    for (;;) {
      const T y0 = p_[k].y0;
      const bool more = k + 1 < p_.size() && !(hi < p_[k + 1].t0);
      const T stop = more ? p_[k + 1].t0 - lo : T{};
      if (!g->valid()) return *g;
      for (const auto& q : g->breakpoints()) {
        const T t = b.chk(q.t + start);
        if (more && !(t < stop)) break;
        b.push(t, q.value + extended<T>{y0}, q.right + extended<T>{y0}, q.slope);
      }
      if (!more) break;
      ++k;
      start = stop;
      g = &p_[k].g;
    }
    basic_curve<T> c = b.finish();
    if (lo == from) return c;
    return shift_right(c, lo - from);
  }
  /// @brief The whole function on [0, end] as one curve (constant after end).
  [[nodiscard]] basic_curve<T> assemble(T end) const {
    using ext = extended<T>;
    std::vector<breakpoint<T>> out;
    for (std::size_t k = 0; k < p_.size(); ++k) {
      const piece& p = p_[k];
      if (end < p.t0) break;
      const bool last = k + 1 == p_.size() || end < p_[k + 1].t0;
      const T stop = last ? end : p_[k + 1].t0;
      if (!p.g.valid()) return basic_curve<T>::invalid(p.g.error());
      for (const auto& b : p.g.breakpoints()) {
        const T t = p.t0 + b.t;
        if (!(t < stop)) break;
        if (!out.empty() && !(out.back().t < t)) {
          // t0 + b.t rounded onto the previous breakpoint (inexact numbers: a segment of the
          // piece shorter than the resolution at t0): the segment vanishes, and the function
          // continues from the later breakpoint's right limit with its slope. Keeping the
          // earlier slope instead would extend the vanished segment up to the next breakpoint.
          out.back().right = b.right + ext{p.y0};
          out.back().slope = b.slope;
          continue;
        }
        out.push_back(breakpoint<T>{t, b.value + ext{p.y0}, b.right + ext{p.y0}, b.slope});
      }
      if (last) {
        const ext v = p.g.at(stop - p.t0) + ext{p.y0};
        if (!out.empty() && out.back().t < stop) out.push_back(breakpoint<T>{stop, v, v, T{}});
        if (!out.empty()) {
          out.back().slope = out.back().t < stop ? out.back().slope : T{};
          if (out.back().t == stop) out.back().right = out.back().value;
        }
        break;
      }
    }
    if (out.empty()) return basic_curve<T>::zero();
    if (!(out.front().t == T{})) out.insert(out.begin(), breakpoint<T>{});
    return basic_curve<T>::from_breakpoints(out);
  }

 private:
  std::vector<piece> p_;
};

// ============================================================================ configuration

/// @brief Which controller a flow of the path-server model runs.
/// @code
/// auto k = netcc::calculus::path_cc::vegas;
/// @endcode
enum class path_cc : std::uint8_t {
  fixed_rate,   ///< a constant rate limit r (Eq. 2 without events)
  rate_aimd,    ///< rate-based AIMD, §III-C, Algorithm 1 (and the simplified DCQCN of §V-B)
  window_aimd,  ///< window-based AIMD with slow start, §III-D, Algorithm 2
  vegas,        ///< TCP Vegas, §III-E, Algorithm 3
};

/// @brief Rate-based AIMD (seed §III-C, Eqs. 2-4, Algorithm 1); also the simplified DCQCN of
/// §V-B with congestion notifications as the decrease signal. Rates in bytes per time unit.
/// @code
/// netcc::calculus::rate_aimd_params<double> p{.initial_rate = 7.5, .alpha = 0.0125};
/// @endcode
template <CurveNumber T>
struct rate_aimd_params {
  /// @brief r_o.
  T initial_rate = curve_number<T>::from_int(1);
  /// @brief Additive increase alpha (Eq. 4).
  T alpha = curve_number<T>::ratio(1, 100);
  /// @brief Multiplicative decrease beta in (0, 1) (Eq. 3; §IV-B 0.8; §V-B 0.75).
  T beta = curve_number<T>::ratio(4, 5);
  /// @brief dtau_ai, the interval between increases (§IV-B 30 us; §V-B dtau_inc = 55 us).
  T increase_interval = curve_number<T>::from_int(30000);
  /// @brief Lower limit of the rate (> 0).
  T min_rate = curve_number<T>::ratio(1, 1000);
  /// @brief Upper limit of the rate (the line rate in §V-B).
  T max_rate = curve_number<T>::from_int(1000000);
  /// @brief Decrease at a congestion notification (ECN; DCQCN's CNP), §III-C and §V-B.
  bool decrease_on_notification = false;
};

/// @brief Window-based AIMD with slow start (seed §III-D, Eqs. 5-7, Algorithm 2).
/// @code
/// netcc::calculus::window_aimd_params<double> p{.initial_window = 1460.0, .alpha = 1460.0};
/// @endcode
template <CurveNumber T>
struct window_aimd_params {
  /// @brief W_o.
  T initial_window = curve_number<T>::from_int(1460);
  /// @brief Additive increase a per flight (Eqs. 6-7).
  T alpha = curve_number<T>::from_int(1460);
  /// @brief Multiplicative factor beta in (0, 1).
  T beta = curve_number<T>::ratio(1, 2);
  /// @brief Slow start (Eq. 7): doubling below w_th; after a timeout w_th = beta W and W =
  /// loss_window. Without it, W = beta W after a timeout.
  bool slow_start = true;
  /// @brief w_tho, the initial slow-start threshold.
  T initial_threshold = curve_number<T>::from_int(1000000000);
  /// @brief The window after a timeout with slow start (0: one packet of I_max, §III-D).
  T loss_window{};
};

/// @brief TCP Vegas in the model (seed §III-E, Algorithm 3). Thresholds in bytes (the seed's
/// w_low, w_high, gamma; with [29], [41]: 2, 4 and 1 packets).
/// @code
/// netcc::calculus::vegas_model_params<double> p{.initial_window = 14600.0};
/// @endcode
template <CurveNumber T>
struct vegas_model_params {
  /// @brief W_o (RFC 6928: 10 packets of 1460 B).
  T initial_window = curve_number<T>::from_int(14600);
  /// @brief w_low (the alpha of [29]): 2 packets.
  T w_low = curve_number<T>::from_int(2 * 1460);
  /// @brief w_high (the beta of [29]): 4 packets.
  T w_high = curve_number<T>::from_int(4 * 1460);
  /// @brief gamma: 1 packet.
  T gamma = curve_number<T>::from_int(1460);
  /// @brief Upper limit of the window (not in the seed; >= initial_window). Algorithm 3 has no
  /// ceiling, and its slow start doubles W every other update for as long as the RTT stays at
  /// baseRTT; the default, 2^40 bytes, binds only there.
  T max_window = curve_number<T>::from_int(std::int64_t{1} << 40);
};

/// @brief One flow (or m identical flows) of the path-server model.
/// @code
/// netcc::calculus::flow_config<double> f;
/// f.arrivals = netcc::calculus::double_curve::affine(0.0, netcc::calculus::extended<double>::infinity(), 0.0);
/// f.cc = netcc::calculus::path_cc::rate_aimd;
/// @endcode
template <CurveNumber T>
struct flow_config {
  /// @brief The source's arrival function A (non-decreasing, A(0) = 0; +infinity for a
  /// saturated source).
  basic_curve<T> arrivals = basic_curve<T>::zero();
  /// @brief The controller.
  path_cc cc = path_cc::fixed_rate;
  /// @brief Number of identical flows this entry stands for (>= 1).
  std::uint32_t multiplicity = 1;
  /// @brief Rate-based parameters (fixed_rate uses initial_rate only).
  rate_aimd_params<T> rate{};
  /// @brief Window-based AIMD parameters.
  window_aimd_params<T> window{};
  /// @brief Vegas parameters.
  vegas_model_params<T> vegas{};
};

/// @brief ECN at the path server (seed §III-B d): RED thresholds and the notification spacing.
/// @code
/// netcc::calculus::ecn_config<double> e{.enabled = true, .k_min = 5e3, .k_max = 2e5};
/// @endcode
template <CurveNumber T>
struct ecn_config {
  /// @brief Marking on.
  bool enabled = false;
  /// @brief K_min (RED; equal to k_max for plain threshold marking).
  T k_min{};
  /// @brief K_max.
  T k_max{};
  /// @brief P_max.
  T p_max = curve_number<T>::from_int(1);
  /// @brief dtau_ecn, the minimum time between notifications to a flow.
  T spacing{};
};

/// @brief PFC at the path server (seed §III-B e).
/// @code
/// netcc::calculus::pfc_config<double> p{.enabled = true, .x_off = 3.0e7, .x_on = 2.9e7};
/// @endcode
template <CurveNumber T>
struct pfc_config {
  /// @brief PFC on.
  bool enabled = false;
  /// @brief X_off.
  T x_off{};
  /// @brief X_on (< X_off).
  T x_on{};
};

/// @brief The path server: S(t) = max{C t, 0}, the feedback delay dR, the packet size I_max,
/// the timeout tau_o, ECN and PFC.
/// @code
/// netcc::calculus::path_config<double> c{.capacity = 12.5, .feedback_delay = 20000.0};
/// @endcode
template <CurveNumber T>
struct path_config {
  /// @brief C (> 0).
  T capacity = curve_number<T>::from_int(1);
  /// @brief dR (> 0).
  T feedback_delay = curve_number<T>::from_int(1);
  /// @brief I_max (> 0).
  T packet_size = curve_number<T>::from_int(1460);
  /// @brief Timeouts on (rate and window AIMD; Algorithm 3 has none).
  bool timeouts = false;
  /// @brief tau_o (> dR).
  T timeout = curve_number<T>::from_int(100000);
  /// @brief ECN.
  ecn_config<T> ecn{};
  /// @brief PFC.
  pfc_config<T> pfc{};
  /// @brief Longest step while the backlog is in RED's band (0: dR).
  T red_step{};
  /// @brief Events after which a run stops (path_status::event_limit).
  std::size_t max_events = 1000000;
};

/// @brief How a run ended.
/// @code
/// bool ok = netcc::calculus::path_status::ok == netcc::calculus::path_status{};
/// @endcode
enum class path_status : std::uint8_t {
  ok = 0,         ///< reached the horizon
  event_limit,    ///< stopped after path_config::max_events events
  curve_failure,  ///< a curve operation failed (e.g. an exact overflow)
  bad_config,     ///< a parameter out of range (see path_server_validate)
};

/// @brief Kinds of recorded events.
/// @code
/// auto k = netcc::calculus::path_event_kind::timeout;
/// @endcode
enum class path_event_kind : std::uint8_t {
  timeout,       ///< §III-B b
  flight,        ///< end of a flight, §III-D
  increase,      ///< an additive-increase tick that increased, §III-C
  vegas_update,  ///< Algorithm 3 lines 6-25
  notification,  ///< a congestion notification reached the source (§III-B d)
  pause,         ///< PFC pause (t_P)
  resume,        ///< PFC resume (t_R)
};

/// @brief A recorded event (flow = the flow index; pause/resume: the number of flows).
/// @code
/// netcc::calculus::path_event<double> e{};
/// @endcode
template <CurveNumber T>
struct path_event {
  /// @brief Time.
  T t{};
  /// @brief Flow index.
  std::size_t flow = 0;
  /// @brief Kind.
  path_event_kind kind = path_event_kind::timeout;
};

/// @brief A sample (time, value).
/// @code
/// netcc::calculus::path_sample<double> s{1.0, 2.0};
/// @endcode
template <CurveNumber T>
struct path_sample {
  /// @brief Time.
  T t{};
  /// @brief Value.
  T v{};
};

/// @brief Per-flow output (curves per flow, not multiplied by the multiplicity).
/// @code
/// netcc::calculus::path_flow_result<double> r;
/// @endcode
template <CurveNumber T>
struct path_flow_result {
  /// @brief Â (in the flow's sequence space: drops to D(t_TO - dR) at a timeout).
  basic_curve<T> admitted{};
  /// @brief D (sequence space, as Â).
  basic_curve<T> departures{};
  /// @brief The window (window_aimd, vegas) or rate limit after every change, from t = 0.
  std::vector<path_sample<T>> control{};
  /// @brief RTT samples from Eq. 1 (Vegas updates).
  std::vector<path_sample<T>> rtt{};
  /// @brief Number of timeouts.
  std::size_t timeouts = 0;
  /// @brief Number of congestion notifications received.
  std::size_t notifications = 0;
};

/// @brief The output of a run.
/// @code
/// netcc::calculus::path_result<double> r;
/// bool ok = r.status == netcc::calculus::path_status::ok;
/// @endcode
template <CurveNumber T>
struct path_result {
  /// @brief How the run ended.
  path_status status = path_status::ok;
  /// @brief Time reached.
  T end{};
  /// @brief Per flow.
  std::vector<path_flow_result<T>> flows{};
  /// @brief Aggregate traffic put into the path server, sum of m_j (increments of Â_j):
  /// non-decreasing, including retransmissions.
  basic_curve<T> transmitted{};
  /// @brief Aggregate departures D.
  basic_curve<T> departures{};
  /// @brief Backlog B of the path server.
  basic_curve<T> backlog{};
  /// @brief Recorded events.
  std::vector<path_event<T>> events{};
  /// @brief Average of `f` over [a, b] as a rate ((f(b) - f(a)) / (b - a)).
  [[nodiscard]] static T average_rate(const basic_curve<T>& f, T a, T b) {
    if (!(a < b)) return T{};
    return (f.at(b).value() - f.at(a).value()) / (b - a);
  }
};

/// @brief Checks a configuration: names the first bad field, or returns nullptr.
/// @code
/// netcc::calculus::path_config<double> c{.capacity = 0.0};
/// const char* bad = netcc::calculus::path_server_validate(c, {});   // "capacity"
/// @endcode
template <CurveNumber T>
[[nodiscard]] const char* path_server_validate(const path_config<T>& c,
                                               std::span<const flow_config<T>> flows) {
  using nt = curve_number<T>;
  const auto pos = [](T x) { return nt::good(x) && T{} < x; };
  const auto nonneg = [](T x) { return nt::good(x) && !(x < T{}); };
  if (!pos(c.capacity)) return "capacity";
  if (!pos(c.feedback_delay)) return "feedback_delay";
  if (!pos(c.packet_size)) return "packet_size";
  if (c.timeouts && (!pos(c.timeout) || !(c.feedback_delay < c.timeout))) return "timeout";
  if (c.ecn.enabled) {
    if (!nonneg(c.ecn.k_min) || !pos(c.ecn.k_max) || c.ecn.k_max < c.ecn.k_min) return "ecn.k";
    if (!pos(c.ecn.p_max) || nt::from_int(1) < c.ecn.p_max) return "ecn.p_max";
    if (!nonneg(c.ecn.spacing)) return "ecn.spacing";
  }
  if (c.pfc.enabled && (!nonneg(c.pfc.x_on) || !(c.pfc.x_on < c.pfc.x_off))) return "pfc.x";
  if (!nonneg(c.red_step)) return "red_step";
  const T one = nt::from_int(1);
  for (const auto& f : flows) {
    if (!f.arrivals.valid() || !f.arrivals.is_non_decreasing() ||
        !(f.arrivals.breakpoints()[0].value == extended<T>{})) {
      return "flow.arrivals";
    }
    if (f.multiplicity == 0) return "flow.multiplicity";
    const auto& r = f.rate;
    if (!pos(r.initial_rate) || !nonneg(r.alpha) || !pos(r.beta) || !(r.beta < one) ||
        !pos(r.increase_interval) || !pos(r.min_rate) || r.max_rate < r.min_rate) {
      return "flow.rate";
    }
    const auto& w = f.window;
    if (!pos(w.initial_window) || !nonneg(w.alpha) || !pos(w.beta) || !(w.beta < one) ||
        !pos(w.initial_threshold) || !nonneg(w.loss_window)) {
      return "flow.window";
    }
    const auto& v = f.vegas;
    if (!pos(v.initial_window) || !nonneg(v.w_low) || v.w_high < v.w_low || !nonneg(v.gamma) ||
        !nt::good(v.max_window) || v.max_window < v.initial_window) {
      return "flow.vegas";
    }
  }
  return nullptr;
}

// ============================================================================ the model

/// @brief The path-server model run event by event (see the file comment).
///
/// @tparam T netcc::calculus::rational (exact; small scenarios) or double.
/// @code
/// namespace nc = netcc::calculus;
/// nc::path_config<double> cfg{.capacity = 12.5, .feedback_delay = 20000.0};
/// nc::flow_config<double> f;
/// f.arrivals = nc::double_curve::token_bucket(0.0, 1.0e6);
/// f.cc = nc::path_cc::window_aimd;
/// auto res = nc::basic_path_server<double>(cfg, {f}).run(1.0e6);
/// @endcode
template <CurveNumber T = double>
class basic_path_server {
  using nt = curve_number<T>;
  using ext = extended<T>;
  using crv = basic_curve<T>;

 public:
  /// @brief A model of the given path server and flows (validated by path_server_validate;
  /// a bad configuration makes run() return path_status::bad_config).
  basic_path_server(path_config<T> cfg, std::vector<flow_config<T>> flows)
      : cfg_(std::move(cfg)), cfgs_(std::move(flows)) {}

  /// @brief Runs the model on [0, horizon] and returns the curves, controls and events.
  path_result<T> run(T horizon) {
    path_result<T> res;
    if (path_server_validate<T>(cfg_, cfgs_) != nullptr || !nt::good(horizon) || horizon < T{}) {
      res.status = path_status::bad_config;
      return res;
    }
    init();
    T t0{};
    std::size_t events = 0;
    status_ = path_status::ok;
    while (t0 < horizon && status_ == path_status::ok) {
      if (events >= cfg_.max_events) {
        status_ = path_status::event_limit;
        break;
      }
      ++events;
      t0 = step(t0, horizon);
    }
    res.status = status_;
    res.end = t0 < horizon ? t0 : horizon;
    const T end = res.end;
    for (std::size_t j = 0; j < fl_.size(); ++j) {
      path_flow_result<T> fr;
      fr.admitted = fl_[j].a.assemble(end);
      fr.departures = fl_[j].d.assemble(end);
      fr.control = std::move(fl_[j].control);
      fr.rtt = std::move(fl_[j].rtts);
      fr.timeouts = fl_[j].n_timeouts;
      fr.notifications = fl_[j].n_notes;
      res.flows.push_back(std::move(fr));
    }
    res.transmitted = tx_.assemble(end);
    res.departures = dagg_.assemble(end);
    res.backlog = bagg_.assemble(end);
    res.events = std::move(ev_);
    return res;
  }

 private:
  struct flow_state {
    path_history<T> a;   // Â_j, sequence space
    path_history<T> d;   // D_j, sequence space
    path_history<T> x;   // data of flow j that entered the FIFO and was not removed
    T av{}, dv{}, xv{};  // values at the current time
    T offset{};          // x - a (sequence space shift after Go-Back-N)
    T frame_t{};         // last timeout (origin of the current coordinate system)
    // controller
    T rate{}, win{}, thresh{};
    T flight_y{};  // origin of the current flight (sequence space)
    T next_ai{};
    bool has_dec = false;
    T last_dec{};
    // vegas
    T next_vegas{}, last_vegas{}, base_rtt{}, min_rtt{};
    bool slowstart = true;
    int skip = 0;
    // ecn
    ecn_spacer<T> spacer{};
    std::vector<T> pending{};  // notification arrivals at the source
    T red_credit{};
    // output
    std::vector<path_sample<T>> control{};
    std::vector<path_sample<T>> rtts{};
    std::size_t n_timeouts = 0;
    std::size_t n_notes = 0;
    basic_curve<T> g{};  // local admitted curve of the current step
  };

  // Rounding allowance of inexact numbers when comparing amounts of magnitude x (0 when
  // exact): a double run must not see a timeout where Â and D agree up to rounding.
  static T slack(T x) {
    if constexpr (nt::exact) {
      return T{};
    } else {
      const T m = nt::mag(x);
      return T(1e-9) * (m < nt::from_int(1) ? nt::from_int(1) : m);
    }
  }

  static T mult(std::uint32_t m) { return nt::from_int(static_cast<std::int64_t>(m)); }

  static crv scale(const crv& f, T k) {
    if (!f.valid()) return f;
    std::vector<breakpoint<T>> v;
    v.reserve(f.size());
    for (const auto& p : f.breakpoints()) {
      v.push_back(breakpoint<T>{p.t, p.value.is_inf() ? p.value : ext{p.value.value() * k},
                                p.right.is_inf() ? p.right : ext{p.right.value() * k},
                                p.slope * k});
    }
    return crv::from_breakpoints(v);
  }

  // f on [0, len] (with its right limit at len), constant after. A step's curves are used on
  // [0, len] only (the crossing searches, and the pieces, which the next step replaces at
  // ts <= t1); cutting them there keeps breakpoints of the far future out of the histories,
  // where a double's rounding of values of that size exceeds the tolerance of the curve checks
  // (e.g. lower_inverse's non-decreasing precondition).
  static crv hold_after(crv f, T len) {
    if (!f.valid()) return f;
    const breakpoint<T>& last = f.breakpoints().back();
    if (!(len < last.t) && (last.right.is_inf() || last.slope == T{})) return f;  // constant
    const ext v = f.at(len);
    const ext r = f.right_limit(len);
    if (!v.valid() || !r.valid()) return crv::invalid(curve_error::bad_argument);
    std::vector<breakpoint<T>> out;
    for (const auto& p : f.breakpoints()) {
      if (!(p.t < len)) break;
      out.push_back(p);
    }
    out.push_back(breakpoint<T>{len, v, r, T{}});
    return crv::from_breakpoints(out);
  }

  // f without the dips of rounding (double; exact numbers unchanged): each value at least the
  // left limit, each right limit at least the value, no negative slope. The model's Â, D and X
  // are non-decreasing, but a piece computed from absolute values (A - Â(t0)), a convolution
  // of such a piece, or a window placed by absolute times (t0_k - t) can dip by their
  // rounding, which may exceed the tolerance of the operations that need a non-decreasing
  // curve (compose, lower_inverse, upper_inverse) at the curve's own, much smaller scale.
  static crv monotone(crv f) {
    if constexpr (nt::exact) {
      return f;
    } else {
      if (!f.valid()) return f;
      // the left limit at breakpoint i (i > 0) of v; nullopt when it is +infinity
      const auto left = [](std::span<const breakpoint<T>> v, std::size_t i) -> std::optional<T> {
        const breakpoint<T>& b = v[i - 1];
        if (b.right.is_inf()) return std::nullopt;
        return b.right.value() + b.slope * (v[i].t - b.t);
      };
      const auto dips = [&](std::span<const breakpoint<T>> v, std::size_t i) {
        const breakpoint<T>& p = v[i];
        if (i > 0 && !p.value.is_inf()) {
          const std::optional<T> l = left(v, i);
          if (l && p.value.value() < *l) return true;
        }
        return p.right < p.value || p.slope < T{};
      };
      const auto pts = f.breakpoints();
      std::size_t i = 0;
      while (i < pts.size() && !dips(pts, i)) ++i;
      if (i == pts.size()) return f;
      std::vector<breakpoint<T>> v(pts.begin(), pts.end());
      for (; i < v.size(); ++i) {
        breakpoint<T>& p = v[i];
        if (i > 0 && !p.value.is_inf()) {
          const std::optional<T> l = left(v, i);
          if (l && p.value.value() < *l) p.value = ext{*l};
        }
        if (p.right < p.value) p.right = p.value;
        if (p.slope < T{}) p.slope = T{};
      }
      return crv::from_breakpoints(v);
    }
  }

  T val(const crv& f, T t) {
    const ext v = f.at(t);
    if (!v.valid() || v.is_inf()) {
      fail();
      return T{};
    }
    return v.value();
  }
  T hval(const path_history<T>& h, T t) {
    const ext v = h.at(t);
    if (!v.valid() || v.is_inf()) {
      fail();
      return T{};
    }
    return v.value();
  }
  void fail() { status_ = path_status::curve_failure; }
  bool check(const crv& c) {
    if (!c.valid()) fail();
    return c.valid();
  }

  void init() {
    fl_.assign(cfgs_.size(), flow_state{});
    tx_ = {};
    dagg_ = {};
    bagg_ = {};
    xagg_ = {};
    ev_.clear();
    txv_ = dv_ = xaggv_ = T{};
    paused_ = false;
    resume_t_ = T{};
    for (std::size_t j = 0; j < fl_.size(); ++j) {
      flow_state& f = fl_[j];
      const flow_config<T>& c = cfgs_[j];
      f.spacer.spacing = cfg_.ecn.spacing;
      switch (c.cc) {
        case path_cc::fixed_rate:
        case path_cc::rate_aimd:
          f.rate = clamp_rate(c, c.rate.initial_rate);
          f.next_ai = c.rate.increase_interval;
          f.control.push_back({T{}, f.rate});
          break;
        case path_cc::window_aimd:
          f.win = c.window.initial_window;
          f.thresh = c.window.initial_threshold;
          f.control.push_back({T{}, f.win});
          break;
        case path_cc::vegas:  // Algorithm 3 lines 1-2
          f.win = c.vegas.initial_window;
          f.base_rtt = cfg_.feedback_delay;
          f.min_rtt = cfg_.feedback_delay;
          f.next_vegas = f.min_rtt;
          f.slowstart = true;
          f.skip = 0;
          f.control.push_back({T{}, f.win});
          break;
      }
    }
  }

  static T clamp_rate(const flow_config<T>& c, T r) {
    if (r < c.rate.min_rate) return c.rate.min_rate;
    if (c.rate.max_rate < r) return c.rate.max_rate;
    return r;
  }

  // Â^rem of flow j from t0 in its own coordinates (g(0) = 0).
  crv admitted_local(std::size_t j, T t0) {
    flow_state& f = fl_[j];
    const flow_config<T>& c = cfgs_[j];
    if (paused_) return crv::zero();
    const crv arem = rebase(c.arrivals, t0, f.av);  // A^rem (§III-C)
    switch (c.cc) {
      case path_cc::fixed_rate:
      case path_cc::rate_aimd:
        return convolve(arem, crv::rate(f.rate));  // Eq. 2
      case path_cc::window_aimd: {
        // the current flight admits up to flight_y + W in total (Eq. 5 in the flight's
        // coordinates: A^rem ⊗ S_W)
        T room = f.flight_y + f.win - f.av;
        if (room < T{}) room = T{};
        return convolve(arem, crv::window(room));
      }
      case path_cc::vegas: {
        // Algorithm 3 lines 26-28: Â(t) = max(Â(t0), min(A(t), D(t - dR) + W)), exact for
        // t - t0 <= dR
        const crv dwin = f.d.window(t0 - cfg_.feedback_delay, t0, f.frame_t);
        const crv lim = min(shift_left(c.arrivals, t0), shift_up(dwin, f.win));
        return rebase(max(lim, crv::constant(f.av)), T{}, f.av);
      }
    }
    return crv::zero();
  }

  // Point lower pseudo-inverse of a flow's history h within its current frame:
  // inf{x >= frame | h(x) >= y}, searched up to `upto`.
  T frame_inverse(const path_history<T>& h, T frame_t, T y, T upto) {
    const auto P = h.pieces();
    std::size_t lo = h.index_at(frame_t);
    std::size_t hi = h.index_at(upto);
    if (hi < lo) hi = lo;
    if (!(P[lo].y0 < y)) return P[lo].t0;
    // last piece in [lo, hi] whose start value is below y
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo + 1) / 2;
      if (P[mid].y0 < y) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    const auto& p = P[lo];
    const ext x = lower_inverse(monotone(p.g)).at(y - p.y0);
    if (!x.valid()) {
      fail();
      return p.t0;
    }
    T r = x.is_inf() ? upto : p.t0 + x.value();
    if (lo + 1 < P.size() && P[lo + 1].t0 < r) r = P[lo + 1].t0;
    return r;
  }

  // The RTT of the most recently acknowledged byte at t (Eq. 1 in the flow's frame; see the
  // file comment): y = D(t - dR), RTT = D^↓(y) - Â^↓(y) + dR.
  T rtt_now(const flow_state& f, T t) {
    T s = t - cfg_.feedback_delay;
    if (s < f.frame_t) s = f.frame_t;
    const T y = hval(f.d, s);
    const T sent = frame_inverse(f.a, f.frame_t, y, s);
    const T delivered = frame_inverse(f.d, f.frame_t, y, s);
    return delivered - sent + cfg_.feedback_delay;
  }

  // The smallest RTT among the bytes acknowledged in (t_prev, t] (Vegas's minRTT of a round):
  // min over y in (D(t_prev - dR), D(t - dR)] of D^↓(y) - Â^↓(y) + dR; the last acknowledged
  // byte's when nothing new was acknowledged.
  T rtt_round(const flow_state& f, T t_prev, T t) {
    const T dR = cfg_.feedback_delay;
    T s0 = t_prev - dR;
    T s1 = t - dR;
    if (s0 < f.frame_t) s0 = f.frame_t;
    if (s1 < f.frame_t) s1 = f.frame_t;
    const T y0 = hval(f.d, s0);
    const T y1 = hval(f.d, s1);
    if (!(y0 < y1)) return rtt_now(f, t);
    const T from = frame_inverse(f.a, f.frame_t, y0, s1);
    const crv ainv = lower_inverse(monotone(f.a.window(from, s1, f.frame_t)));
    const crv dinv = lower_inverse(monotone(f.d.window(from, s1, f.frame_t)));
    if (!check(ainv) || !check(dinv)) return dR;
    // the infimum over (y0, y1] of the piecewise-linear D^↓ - Â^↓: at y1, just after y0, or
    // at a breakpoint of either inside (value and right limit)
    const auto diff = [](const ext& x, const ext& z) {
      if (!x.valid() || !z.valid() || x.is_inf() || z.is_inf()) return ext::infinity();
      return ext{x.value() - z.value()};
    };
    ext best = diff(dinv.at(y1), ainv.at(y1));
    const auto take = [&](const ext& v) {
      if (v < best) best = v;
    };
    take(diff(dinv.right_limit(y0), ainv.right_limit(y0)));
    for (const crv* c : {&ainv, &dinv}) {
      for (const auto& p : c->breakpoints()) {
        if (!(y0 < p.t) || y1 < p.t) continue;
        take(diff(dinv.at(p.t), ainv.at(p.t)));
        if (p.t < y1) take(diff(dinv.right_limit(p.t), ainv.right_limit(p.t)));
      }
    }
    if (!best.valid() || best.is_inf()) return rtt_now(f, t);
    return best.value() + dR;
  }

  // FIFO demultiplexing of the aggregate departures D on [t0, t0 + .] into flow j (Theorem 1
  // with bursts shared in proportion): D_j^X = Phi_j(D) with Phi_j(X(s)) = X_j(s), starting
  // from the head of the queue, where Phi_j(D(t0)) = D_j^X(t0): flow j's data departed so far.
  // (Without a timeout that point lies on Phi_j. After a Go-Back-N removal inside a burst that
  // several flows sent at once, it is what keeps the share of the rest of the burst to the data
  // the flow still has queued; sharing the shortened burst over its whole length again would
  // count the flow's departed part of it a second time, or lose another flow's.)
  crv demux(std::size_t j, T t0, T t1, const crv& dabs) {
    const T y0 = dv_;
    // arrival time of the byte at the head of the queue
    const T s_lo = aggregate_inverse(y0, t0);
    const crv xw = xagg_.window(s_lo, t1, T{});
    const crv xjw = fl_[j].x.window(s_lo, t1, T{});
    if (!check(xw) || !check(xjw)) return crv::zero();
    std::vector<sample<T>> smp;
    const T span_t = t1 - s_lo;
    const auto add = [&](T y, T yj) {
      if (!smp.empty() && !(smp.back().t < y)) return;
      // X_j is non-decreasing; keep Phi_j so under rounding (the anchor comes from sums)
      if (!smp.empty() && yj < smp.back().y) yj = smp.back().y;
      smp.push_back(sample<T>{y, yj});
    };
    add(y0, fl_[j].dv + fl_[j].offset);  // the head of the queue
    const auto push_at = [&](T tau) {
      add(xw.at(tau).value(), xjw.at(tau).value());
      add(xw.right_limit(tau).value(), xjw.right_limit(tau).value());
    };
    const auto A = xw.breakpoints();
    const auto B = xjw.breakpoints();
    std::size_t i = 0;
    std::size_t k = 0;
    while (i < A.size() || k < B.size()) {
      T tau;
      if (k >= B.size() || (i < A.size() && A[i].t < B[k].t)) {
        tau = A[i++].t;
      } else if (i >= A.size() || B[k].t < A[i].t) {
        tau = B[k++].t;
      } else {
        tau = A[i].t;
        ++i;
        ++k;
      }
      if (span_t < tau) break;
      push_at(tau);
    }
    push_at(span_t);
    if (smp.empty()) return crv::zero();
    // beyond the last sample: the last composition of the arrivals
    const crv phi = crv::from_samples(smp, interpolation::linear, last_share(smp));
    if (!check(phi)) return crv::zero();
    const crv dj = compose(phi, dabs);
    check(dj);
    return dj;
  }

  static T last_share(const std::vector<sample<T>>& s) {
    if (s.size() < 2) return T{};
    const auto& a = s[s.size() - 2];
    const auto& b = s.back();
    return (b.y - a.y) / (b.t - a.t);
  }

  // Aggregate arrival time of position y: sup{x <= upto | X(x) <= y} (upper pseudo-inverse).
  T aggregate_inverse(T y, T upto) {
    const auto P = xagg_.pieces();
    if (P.empty()) return T{};
    std::size_t lo = 0;
    std::size_t hi = xagg_.index_at(upto);
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo + 1) / 2;
      if (!(y < P[mid].y0)) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    const auto& p = P[lo];
    const ext x = upper_inverse(monotone(p.g)).at(y - p.y0 < T{} ? T{} : y - p.y0);
    if (!x.valid()) {
      fail();
      return p.t0;
    }
    T r = x.is_inf() ? upto : p.t0 + x.value();
    if (lo + 1 < P.size() && P[lo + 1].t0 < r) r = P[lo + 1].t0;
    if (upto < r) r = upto;
    return r;
  }

  // One step from t0: computes the curves until the next event, applies it; returns its time.
  T step(T t0, T horizon) {
    const T dR = cfg_.feedback_delay;
    T t1 = horizon;
    bool any_vegas = false;
    for (std::size_t j = 0; j < fl_.size(); ++j) {
      const flow_state& f = fl_[j];
      const path_cc cc = cfgs_[j].cc;
      if (cc == path_cc::rate_aimd) t1 = std::min(t1, f.next_ai);
      if (cc == path_cc::vegas) {
        any_vegas = true;
        t1 = std::min(t1, f.next_vegas);
      }
      for (const T p : f.pending) t1 = std::min(t1, p);
    }
    if (any_vegas) t1 = std::min(t1, t0 + dR);
    if (paused_) t1 = std::min(t1, resume_t_);
    if (cfg_.ecn.enabled && cfg_.ecn.k_min < cfg_.ecn.k_max) {
      const T bnow = xaggv_ - dv_;
      if (cfg_.ecn.k_min < bnow && bnow < cfg_.ecn.k_max) {
        t1 = std::min(t1, t0 + (T{} < cfg_.red_step ? cfg_.red_step : dR));
      }
    }
    if (t1 < t0) t1 = t0;
    const T L = t1 - t0 + slack(t1);  // a crossing within rounding after t1 counts at t1

    // Â^rem of every flow and the aggregate
    crv xloc = crv::zero();
    for (std::size_t j = 0; j < fl_.size(); ++j) {
      fl_[j].g = monotone(hold_after(admitted_local(j, t0), L));
      if (!check(fl_[j].g)) return horizon;
      const T m = mult(cfgs_[j].multiplicity);
      xloc = xloc + (cfgs_[j].multiplicity == 1 ? fl_[j].g : scale(fl_[j].g, m));
    }
    // D^rem = Â^rem ⊗ S from the current backlog (exact restart for the rate server)
    const T q = xaggv_ - dv_;
    const crv xrem = rebase(shift_up(xloc, q < T{} ? T{} : q), T{}, T{});
    const crv dloc = monotone(hold_after(convolve(xrem, crv::rate(cfg_.capacity)), L));
    const crv bloc = shift_up(xloc, q < T{} ? T{} : q) - dloc;
    if (!check(xloc) || !check(dloc) || !check(bloc)) return horizon;
    tx_.push(t0, txv_, xloc);
    xagg_.push(t0, xaggv_, xloc);
    dagg_.push(t0, dv_, dloc);
    bagg_.push(t0, T{}, bloc);
    for (std::size_t j = 0; j < fl_.size(); ++j) {
      flow_state& f = fl_[j];
      f.a.push(t0, f.av, f.g);
      f.x.push(t0, f.xv, f.g);
    }
    if (fl_.size() == 1) {
      flow_state& f = fl_[0];
      const T m = mult(cfgs_[0].multiplicity);
      f.d.push(t0, f.dv, cfgs_[0].multiplicity == 1 ? dloc : scale(dloc, nt::from_int(1) / m));
    } else {
      const crv dabs = shift_up(dloc, dv_);
      for (std::size_t j = 0; j < fl_.size(); ++j) {
        flow_state& f = fl_[j];
        const crv djx = demux(j, t0, t1, dabs);
        if (status_ != path_status::ok) return horizon;
        // D_j^X(t0) in sequence space: subtract the offset; local: minus its value at 0
        const T at0 = val(djx, T{});
        f.d.push(t0, f.dv, shift_up(djx, -at0));
      }
    }
    if (status_ != path_status::ok) return horizon;

    // ---- next crossing events in [t0, t1]
    T ts = t1;
    const auto consider = [&](std::optional<T> t) {
      if (t && *t < ts) ts = *t < t0 ? t0 : *t;
    };
    const T tau = cfg_.timeout;
    std::vector<std::optional<T>> to(fl_.size()), fw(fl_.size()), mk(fl_.size());
    for (std::size_t j = 0; j < fl_.size(); ++j) {
      flow_state& f = fl_[j];
      const path_cc cc = cfgs_[j].cc;
      if (cfg_.timeouts && (cc == path_cc::rate_aimd || cc == path_cc::window_aimd)) {
        // §III-B b in the frame of the last timeout: Â(t - tau_o) > D(t - dR)
        const crv aw = f.a.window(t0 - tau, t1 - tau, f.frame_t);
        const crv dw = f.d.window(t0 - dR, t1 - dR, f.frame_t);
        const crv h = aw - dw;
        if (!check(h)) return horizon;
        to[j] = first_crossing(h, slack(f.av), T{}, L, true);
        if (to[j]) to[j] = t0 + *to[j];
        consider(to[j]);
      }
      if (cc == path_cc::window_aimd) {
        // §III-D: t_W = inf{t | D(t - dR) - flight origin >= W}
        const crv dw = f.d.window(t0 - dR, t1 - dR, f.frame_t);
        if (!check(dw)) return horizon;
        fw[j] = first_crossing(dw, f.flight_y + f.win - slack(f.av), T{}, L, false);
        if (fw[j]) fw[j] = t0 + *fw[j];
        consider(fw[j]);
      }
      if (cfg_.ecn.enabled && (f.dv < f.av || T{} < val(f.g, L))) {
        // marks when B(t) >= K_max (§III-B d) while the flow has data in the path server;
        // notification by the spacer's cases
        T from = t0;
        bool incl = true;
        if (f.spacer.has_last && !(f.spacer.last < t0)) {
          from = f.spacer.last;
          incl = false;
        }
        if (!(t1 < from)) {
          std::optional<T> m = first_crossing(bloc, cfg_.ecn.k_max, from - t0, L, false, incl);
          if (m) {
            T note = t0 + *m;
            if (f.spacer.has_last && note - f.spacer.last < cfg_.ecn.spacing) {
              note = f.spacer.last + cfg_.ecn.spacing;
            }
            mk[j] = note;
            consider(mk[j]);
          }
        }
      }
    }
    std::optional<T> pause;
    if (cfg_.pfc.enabled && !paused_) {
      // §III-B e: t_P = inf{s >= t | B(s - dR) > X_off}
      const crv bw = bagg_.window(t0 - dR, t1 - dR, T{});
      if (!check(bw)) return horizon;
      pause = first_crossing(bw, cfg_.pfc.x_off, T{}, t1 - t0 + slack(t1), true);
      if (pause) pause = t0 + *pause;
      consider(pause);
    }

    // events within rounding of ts happen at ts (double only; ties such as a timeout at an
    // increase tick must resolve as in exact arithmetic)
    const T tslack = slack(ts);
    const auto snap = [&](std::optional<T>& e) {
      if (e && !(ts + tslack < *e)) e = ts;
    };
    for (std::size_t j = 0; j < fl_.size(); ++j) {
      snap(to[j]);
      snap(fw[j]);
      snap(mk[j]);
    }
    snap(pause);

    // ---- advance the state to ts
    const T u = ts - t0;
    txv_ = txv_ + val(xloc, u);
    xaggv_ = xaggv_ + val(xloc, u);
    dv_ = dv_ + val(dloc, u);
    for (std::size_t j = 0; j < fl_.size(); ++j) {
      flow_state& f = fl_[j];
      const T inc = val(f.g, u);
      f.av = f.av + inc;
      f.xv = f.xv + inc;
      f.dv = hval(f.d, ts);
    }
    // RED credit (deterministic expected marks, sampled at the step's start)
    if (cfg_.ecn.enabled) {
      const T b0 = val(bloc, T{});
      if (cfg_.ecn.k_min < b0 && b0 < cfg_.ecn.k_max) {
        const T p = red_probability(b0, cfg_.ecn.k_min, cfg_.ecn.k_max, cfg_.ecn.p_max);
        for (std::size_t j = 0; j < fl_.size(); ++j) {
          flow_state& f = fl_[j];
          f.red_credit = f.red_credit + p * val(f.g, u) / cfg_.packet_size;
          if (!(f.red_credit < nt::from_int(1)) && !mk[j]) {
            f.red_credit = T{};
            if (auto n = f.spacer.mark(ts)) f.pending.push_back(*n + dR);
          }
        }
      }
    }
    if (status_ != path_status::ok) return horizon;

    // ---- apply the events at ts
    for (std::size_t j = 0; j < fl_.size(); ++j) {
      flow_state& f = fl_[j];
      const flow_config<T>& c = cfgs_[j];
      if (mk[j] && *mk[j] == ts) {
        if (auto n = f.spacer.mark(ts)) f.pending.push_back(*n + dR);
      }
      // notifications reaching the source
      bool note = false;
      for (std::size_t k = 0; k < f.pending.size();) {
        if (!(ts < f.pending[k])) {
          note = true;
          f.pending.erase(f.pending.begin() + static_cast<std::ptrdiff_t>(k));
        } else {
          ++k;
        }
      }
      if (note) {
        ++f.n_notes;
        ev_.push_back({ts, j, path_event_kind::notification});
        if (c.cc == path_cc::rate_aimd && c.rate.decrease_on_notification) {
          decrease_rate(f, c, ts);
        }
      }
      if (to[j] && *to[j] == ts) timeout(j, ts);
      if (fw[j] && *fw[j] == ts) {  // Eq. 7, new flight origin (t_W, Â(t_W))
        if (c.window.slow_start && f.win < f.thresh) {
          f.win = f.win + f.win;
        } else {
          f.win = f.win + c.window.alpha;
        }
        f.flight_y = f.av;
        f.control.push_back({ts, f.win});
        ev_.push_back({ts, j, path_event_kind::flight});
      }
      if (c.cc == path_cc::rate_aimd && !(ts < f.next_ai)) {
        // Eq. 4: increase when no decrease in the last dtau_ai
        if (!f.has_dec || !(ts - f.last_dec < c.rate.increase_interval)) {
          const T r = clamp_rate(c, f.rate + c.rate.alpha);
          if (!(r == f.rate)) {
            f.rate = r;
            f.control.push_back({ts, f.rate});
            ev_.push_back({ts, j, path_event_kind::increase});
          }
        }
        while (!(ts < f.next_ai)) f.next_ai = f.next_ai + c.rate.increase_interval;
      }
      if (c.cc == path_cc::vegas && !(ts < f.next_vegas)) vegas_update(j, ts);
    }
    if (pause && *pause == ts) {
      paused_ = true;
      resume_t_ = pfc_resume_time(ts, cfg_.pfc.x_off, cfg_.pfc.x_on, cfg_.capacity);
      ev_.push_back({ts, fl_.size(), path_event_kind::pause});
    } else if (paused_ && !(ts < resume_t_)) {
      paused_ = false;
      ev_.push_back({ts, fl_.size(), path_event_kind::resume});
    }
    return ts;
  }

  void decrease_rate(flow_state& f, const flow_config<T>& c, T ts) {
    f.rate = clamp_rate(c, f.rate * c.rate.beta);  // Eq. 3
    f.has_dec = true;
    f.last_dec = ts;
    f.control.push_back({ts, f.rate});
  }

  // §III-B b, c: timeout and Go-Back-N: the origin moves to (t_TO, D(t_TO - dR)).
  void timeout(std::size_t j, T ts) {
    flow_state& f = fl_[j];
    const flow_config<T>& c = cfgs_[j];
    const T back =
        hval(f.d, ts - cfg_.feedback_delay < f.frame_t ? f.frame_t : ts - cfg_.feedback_delay);
    // remove the flow's data still queued (the FIFO keeps the others' order)
    const T delivered_x = f.dv + f.offset;
    if (fl_.size() > 1) {
      const std::size_t k0 = xagg_.index_at(aggregate_inverse(dv_, ts));
      for (std::size_t k = k0; k < f.x.size(); ++k) {
        auto& p = f.x.at_index(k);
        if (delivered_x < p.y0) {
          p.y0 = delivered_x;
          p.g = crv::zero();
        } else {
          p.g = min(p.g, crv::constant(delivered_x - p.y0));
        }
      }
      for (std::size_t k = k0; k < xagg_.size(); ++k) {
        auto& p = xagg_.at_index(k);
        T y{};
        crv g = crv::zero();
        for (std::size_t i = 0; i < fl_.size(); ++i) {
          const auto& q = fl_[i].x.pieces()[k];
          const T m = mult(cfgs_[i].multiplicity);
          y = y + q.y0 * m;
          g = g + scale(q.g, m);
        }
        p.y0 = y;
        p.g = g;
        check(g);
      }
    }
    const T removed = f.xv - delivered_x;
    xaggv_ = xaggv_ - removed * mult(c.multiplicity);
    f.xv = delivered_x;
    f.av = back;
    f.dv = back;
    f.offset = f.xv - f.av;
    f.frame_t = ts;
    ++f.n_timeouts;
    ev_.push_back({ts, j, path_event_kind::timeout});
    if (c.cc == path_cc::rate_aimd) {
      decrease_rate(f, c, ts);
    } else if (c.cc == path_cc::window_aimd) {
      if (c.window.slow_start) {  // §III-D: w_th = beta W, W = one packet
        f.thresh = c.window.beta * f.win;
        f.win = T{} < c.window.loss_window ? c.window.loss_window : cfg_.packet_size;
      } else {
        f.win = c.window.beta * f.win;
      }
      if (f.win < cfg_.packet_size) f.win = cfg_.packet_size;
      f.flight_y = f.av;
      f.control.push_back({ts, f.win});
    }
  }

  // Algorithm 3 lines 6-25.
  void vegas_update(std::size_t j, T ts) {
    flow_state& f = fl_[j];
    const auto& p = cfgs_[j].vegas;
    const T mr = rtt_round(f, f.last_vegas, ts);  // line 7, Eq. 1
    f.last_vegas = ts;
    f.min_rtt = mr < cfg_.feedback_delay ? cfg_.feedback_delay : mr;
    f.rtts.push_back({ts, f.min_rtt});
    const T W = f.win;
    const T diff = f.base_rtt * (W / f.base_rtt - W / f.min_rtt);  // line 8
    if (f.slowstart) {
      if (p.gamma < diff) {  // lines 10-12
        f.win = W * f.base_rtt / f.min_rtt;
        f.slowstart = false;
      } else {
        if (f.skip == 0) f.win = W + W;  // line 15
        f.skip = (1 + f.skip) % 2;       // line 17
      }
    } else if (diff < p.w_low) {  // lines 20-24
      f.win = W + cfg_.packet_size;
    } else if (p.w_high < diff) {
      f.win = W - cfg_.packet_size;
    }
    if (p.max_window < f.win) f.win = p.max_window;
    if (f.win < cfg_.packet_size) f.win = cfg_.packet_size;
    if (!(f.win == W)) f.control.push_back({ts, f.win});
    ev_.push_back({ts, j, path_event_kind::vegas_update});
    f.next_vegas = ts + f.min_rtt;  // line 6
  }

  path_config<T> cfg_;
  std::vector<flow_config<T>> cfgs_;
  std::vector<flow_state> fl_;
  path_history<T> tx_, xagg_, dagg_, bagg_;
  T txv_{}, xaggv_{}, dv_{};
  bool paused_ = false;
  T resume_t_{};
  std::vector<path_event<T>> ev_;
  path_status status_ = path_status::ok;
};

/// @brief The model over double (the scenarios' choice).
using path_server = basic_path_server<double>;

// ============================================================================ the seed's scenarios

/// @brief A complete scenario of the model: the path server, its flows and the horizon (ns,
/// bytes: the seed's examples in double).
/// @code
/// auto sc = netcc::calculus::seed_vegas_bursts();
/// auto res = netcc::calculus::path_server(sc.config, sc.flows).run(sc.horizon);
/// @endcode
struct path_scenario {
  /// @brief The path server.
  path_config<double> config{};
  /// @brief The flows.
  std::vector<flow_config<double>> flows{};
  /// @brief How long the seed runs it (ns).
  double horizon = 0;
};

/// @brief The seed's §III-E scenario (Figures 3-4): one Vegas flow (Algorithm 3, w_low / w_high
/// / gamma = 2 / 4 / 1 packets of 1460 B, W_o = 10 packets) over C = 100 Gbit/s with dR = 20 us;
/// the source sends 4 MB at t = 0 and 50 Gbit/s after, plus 1.5 MB at 1, 1.5, 2 and 2.5 ms;
/// 3 ms.
/// @code
/// auto sc = netcc::calculus::seed_vegas_bursts();   // sc.horizon == 3e6
/// @endcode
[[nodiscard]] inline path_scenario seed_vegas_bursts() {
  path_scenario sc;
  sc.config = {.capacity = 12.5, .feedback_delay = 20000.0, .packet_size = 1460.0};
  flow_config<double> f;
  f.arrivals = double_curve::token_bucket(6.25, 4.0e6);
  for (int k = 0; k < 4; ++k) {
    const std::vector<sample<double>> s{{1.0e6 + 0.5e6 * k, 1.5e6}};
    f.arrivals = f.arrivals + double_curve::from_samples(s, interpolation::step);
  }
  f.cc = path_cc::vegas;
  sc.flows = {f};
  sc.horizon = 3.0e6;
  return sc;
}

/// @brief The seed's §IV-B scenario (Figure 6): two rate-based AIMD flows (Algorithm 1) with
/// saturated sources from 60 and 90 Gbit/s, alpha = 100 Mbit/s per dtau_ai = 30 us, beta = 0.8,
/// dR = 20 us, tau_o = 100 us, on a 100 Gbit/s FIFO path server; 50 ms.
/// @code
/// auto sc = netcc::calculus::seed_aimd_fairness();   // sc.flows.size() == 2
/// @endcode
[[nodiscard]] inline path_scenario seed_aimd_fairness() {
  path_scenario sc;
  sc.config = {.capacity = 12.5,
               .feedback_delay = 20000.0,
               .packet_size = 1460.0,
               .timeouts = true,
               .timeout = 100000.0};
  sc.flows.resize(2);
  for (std::size_t k = 0; k < 2; ++k) {
    sc.flows[k].arrivals = double_curve::affine(0.0, extended<double>::infinity(), 0.0);
    sc.flows[k].cc = path_cc::rate_aimd;
    sc.flows[k].rate = {.initial_rate = k == 0 ? 7.5 : 11.25,
                        .alpha = 0.0125,
                        .beta = 0.8,
                        .increase_interval = 30000.0,
                        .min_rate = 0.001,
                        .max_rate = 1.0e6};
  }
  sc.horizon = 50.0e6;
  return sc;
}

/// @brief The seed's §V scenario (Figures 9-10): 31 senders x 10 MB at t = 0 into one 100
/// Gbit/s port, dR = 4 us, packets of 1000 B; the simplified DCQCN of §V-B (rate AIMD on
/// notifications: alpha = 5 Mbit/s per 55 us, beta = 0.75, from the line rate, floor 10 Mbit/s),
/// RED of Table II (5 kB / 200 kB / 1 %), dtau_ecn = 50 us, tau_o = 3 ms; with `pfc`, X_off /
/// X_on = 9.5 / 9.25 kB per port per Gbit/s over 32 ports of 100 Gbit/s (30.4 / 29.6 MB);
/// 10 ms.
/// @code
/// auto sc = netcc::calculus::seed_dcqcn_incast(true);   // sc.config.pfc.enabled
/// @endcode
[[nodiscard]] inline path_scenario seed_dcqcn_incast(bool pfc) {
  path_scenario sc;
  sc.config = {.capacity = 12.5,
               .feedback_delay = 4000.0,
               .packet_size = 1000.0,
               .timeouts = true,
               .timeout = 3.0e6};
  sc.config.ecn = {
      .enabled = true, .k_min = 5.0e3, .k_max = 2.0e5, .p_max = 0.01, .spacing = 50000.0};
  sc.config.pfc = {.enabled = pfc, .x_off = 9.5e3 * 3200, .x_on = 9.25e3 * 3200};
  flow_config<double> f;
  f.arrivals = double_curve::token_bucket(0.0, 10.0e6);
  f.cc = path_cc::rate_aimd;
  f.multiplicity = 31;
  f.rate = {.initial_rate = 12.5,
            .alpha = 0.005 / 8,
            .beta = 0.75,
            .increase_interval = 55000.0,
            .min_rate = 0.01 / 8,
            .max_rate = 12.5,
            .decrease_on_notification = true};
  sc.flows = {f};
  sc.horizon = 10.0e6;
  return sc;
}

}  // namespace netcc::calculus
