// SPDX-License-Identifier: MIT
// Flows at scale: the per-event cost of a controller when many flows share one host's (or
// NIC's) memory. N concurrent flows (1 to 2^20) keep their controllers in one contiguous,
// cache-line-aligned array; the events are delivered in random flow order (flow indices drawn
// uniformly, precomputed before timing), and each flow sees its own stream: its j-th event is
// the one-flow benchmark's j-th (flow_order.hpp). So the arithmetic and the branches of a
// flow's j-th event are the same at every N; what changes with N is where the states are
// (cache or memory) and how the flows' streams interleave in the branch predictor's history.
//
// Controllers: DCTCP (double, q32, and the integer-only form), Swift, TIMELY, DCQCN and the Bolt
// sender (double, q32 and the 32-B compact q32 forms swift_compact, timely_compact, dcqcn_compact,
// bolt_sender_compact), Vegas (double, q32 and vegas_compact), HPCC with 5 INT hops (double and
// q32), each through its public API only (the INT controllers' compact forms and
// theta-PowerTCP: flows_at_scale_int.cpp). Events are built from a small ring of templates (in cache) and the flow's event index:
// its time (100 ns per event), ACK sequence (one segment per event) and INT counters move
// forward from one of its events to the next.
//
// Two layouts: an array of controller objects (each with its own copy of the configuration),
// and, for controllers split into a shared `config` and a per-flow `flow_state` (entries named
// ".../state_array"), an array of flow_state alone run by one config for the whole class of
// flows, as a NIC keeps per-flow state apart from per-path-class parameters. Each state array
// also runs as ".../state_array/prefetch": the same events, with the state of the event 16
// ahead prefetched first; the difference between the two entries is the memory stall.
//
// Counters: ns_per_event (CPU time per event, printed in seconds with an SI prefix: 9n = 9 ns),
// bytes_per_flow (the array's stride: the controller object, or sizeof(flow_state) for the state
// arrays), state_B (the controller's per-flow state as it reports it), flows, and array_MB (the
// array's size, to compare with the caches).
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <netcc/control/bolt_sender.hpp>
#include <netcc/control/dcqcn.hpp>
#include <netcc/control/dctcp.hpp>
#include <netcc/control/hpcc.hpp>
#include <netcc/control/swift.hpp>
#include <netcc/control/timely.hpp>
#include <netcc/control/vegas.hpp>
#include <netcc/core/feedback.hpp>

#include "bolt_events.hpp"
#include "flow_order.hpp"

namespace {

using namespace netcc::literals;
using netcc::arith::ieee_double;
using netcc::arith::q32;

constexpr std::size_t templates = 1024;

// The per-flow state a controller reports (state_bytes), or its flow_state's size.
template <class C>
constexpr double state_bytes_of() {
  if constexpr (requires { C::state_bytes; }) {
    return static_cast<double>(C::state_bytes);
  } else {
    return static_cast<double>(sizeof(typename C::flow_state));
  }
}  // event templates: a ring that stays in L1/L2

// The counters both layouts add to netcc_bench::drive's.
template <class C, class T>
void count(benchmark::State& state, std::size_t flows) {
  state.counters["ns_per_event"] =
      benchmark::Counter(static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["state_B"] = state_bytes_of<C>();
  state.counters["array_MB"] = static_cast<double>(sizeof(T) * flows) / 1048576.0;
}

// An array of controller objects, copies of `proto`: `apply(controller, j)` delivers the flow's
// j-th event (netcc_bench::drive, after a warm-up lap). Flattened: each controller's event
// handler is inlined into the loop as in the one-flow benchmarks (with two loops per
// controller, the plain and the prefetching one, g++ otherwise keeps some handlers out of line
// and passes the event through memory: 9 -> 21 ns per ACK for DCTCP q32).
template <bool Prefetch, class C, class Apply>
[[gnu::flatten]] void run(benchmark::State& state, const C& proto, Apply apply) {
  const auto flows = static_cast<std::size_t>(state.range(0));
  netcc_bench::flow_array<C> cc(flows, proto);
  netcc_bench::drive<Prefetch>(state, cc, apply, true);
  count<C, C>(state, flows);
}

// An array of flow_state run by one shared config: `apply(cfg, state, j)`.
template <bool Prefetch, class C, class Apply>
[[gnu::flatten]] void run_states(benchmark::State& state, const typename C::config& cfg,
                                 Apply apply) {
  using S = typename C::flow_state;
  const auto flows = static_cast<std::size_t>(state.range(0));
  netcc_bench::flow_array<S> st(flows, cfg.initial_state());
  netcc_bench::drive<Prefetch>(
      state, st, [&cfg, &apply](S& s, std::uint64_t j) { apply(cfg, s, j); }, true);
  count<C, S>(state, flows);
}

// Cumulative ACKs of one 1460-B segment: a flow's sequence advances by one segment per event
// of that flow, RTTs wander 30-90 us, one in four echoes CE.
struct ack_template {
  std::int64_t rtt_ns;
  bool ce;
};

std::vector<ack_template> ack_templates() {
  std::mt19937_64 rng(3);
  std::vector<ack_template> v(templates);
  for (auto& a : v) a = {30'000 + static_cast<std::int64_t>(rng() % 60'000), rng() % 4 == 0};
  return v;
}

netcc::ack_event ack_at(const std::vector<ack_template>& t, std::uint64_t k) {
  const ack_template& a = t[k & (templates - 1)];
  const auto seq = static_cast<netcc::sequence>(1460 * (k + 1));
  return {.now = netcc::timestamp{static_cast<std::int64_t>(k) * 100 + 1},
          .ack_seq = seq,
          .snd_nxt = seq + 20 * 1460,
          .acked = netcc::bytes{1460},
          .rtt = netcc::duration{a.rtt_ns},
          .ecn_echo = a.ce};
}

template <class C, bool Prefetch = false>
void BM_window_ack(benchmark::State& state) {
  const auto t = ack_templates();
  run<Prefetch>(state, C{}, [&t](C& c, std::uint64_t k) { c.on_ack(ack_at(t, k)); });
}

template <class C, bool Prefetch = false>
void BM_window_ack_states(benchmark::State& state) {
  const auto t = ack_templates();
  const typename C::config cfg{};
  run_states<Prefetch, C>(
      state, cfg, [&t](const typename C::config& c, typename C::flow_state& s, std::uint64_t k) {
        c.on_ack(s, ack_at(t, k));
      });
}

template <class C, bool Prefetch = false>
void BM_vegas_ack(benchmark::State& state) {
  const auto t = ack_templates();
  run<Prefetch>(state, C{{.init_cwnd = netcc::bytes{20 * 1460}}},
                [&t](C& c, std::uint64_t k) { c.on_ack(ack_at(t, k)); });
}

template <class C, bool Prefetch = false>
void BM_vegas_ack_states(benchmark::State& state) {
  const auto t = ack_templates();
  const typename C::config cfg{{.init_cwnd = netcc::bytes{20 * 1460}}};
  run_states<Prefetch, C>(
      state, cfg, [&t](const typename C::config& c, typename C::flow_state& s, std::uint64_t k) {
        c.on_ack(s, ack_at(t, k));
      });
}

netcc::rtt_event rtt_at(const std::vector<ack_template>& t, std::uint64_t k) {
  return {.now = netcc::timestamp{static_cast<std::int64_t>(k) * 100 + 1},
          .rtt = netcc::duration{t[k & (templates - 1)].rtt_ns / 3}};
}

constexpr netcc::timely_params timely_at_5g{.initial_rate = netcc::bit_rate{5'000'000'000}};

template <class C, bool Prefetch = false>
void BM_timely_rtt_of(benchmark::State& state) {
  const auto t = ack_templates();
  run<Prefetch>(state, C{timely_at_5g}, [&t](C& c, std::uint64_t k) { c.on_rtt(rtt_at(t, k)); });
}

template <class C, bool Prefetch = false>
void BM_timely_rtt_states(benchmark::State& state) {
  const auto t = ack_templates();
  const typename C::config cfg{timely_at_5g};
  run_states<Prefetch, C>(
      state, cfg, [&t](const typename C::config& c, typename C::flow_state& s, std::uint64_t k) {
        c.on_rtt(s, rtt_at(t, k));
      });
}

template <class Policy, bool Prefetch = false>
void BM_timely_rtt(benchmark::State& state) {
  const auto t = ack_templates();
  using C = netcc::basic_timely<Policy>;
  run<Prefetch>(
      state, C{{.initial_rate = netcc::bit_rate{5'000'000'000}}}, [&t](C& c, std::uint64_t k) {
        c.on_rtt(netcc::rtt_event{.now = netcc::timestamp{static_cast<std::int64_t>(k) * 100 + 1},
                                  .rtt = netcc::duration{t[k & (templates - 1)].rtt_ns / 3}});
      });
}

// DCQCN reaction point: per event one of a CNP (1 in 64), a rate timer (1 in 16) or the send
// of a 1 KB packet (the byte counter).
template <class Policy, bool Prefetch = false>
void BM_dcqcn(benchmark::State& state) {
  using C = netcc::basic_dcqcn<Policy>;
  run<Prefetch>(state, C{}, [](C& c, std::uint64_t k) {
    const netcc::timestamp now{static_cast<std::int64_t>(k) * 100 + 1};
    if ((k & 63) == 0) {
      c.on_cnp(netcc::cnp_event{.now = now});
    } else if ((k & 15) == 0) {
      c.on_timer(now);
    } else {
      c.on_send(netcc::bytes{1000}, now);
    }
  });
}

// The same DCQCN stream for any controller type (the compact form included), and over an
// array of flow_state run by one config.
template <class C, class F>
void dcqcn_event(F&& deliver, std::uint64_t k) {
  const netcc::timestamp now{static_cast<std::int64_t>(k) * 100 + 1};
  if ((k & 63) == 0) {
    deliver(0, now);
  } else if ((k & 15) == 0) {
    deliver(1, now);
  } else {
    deliver(2, now);
  }
}

template <class C, bool Prefetch = false>
void BM_dcqcn_of(benchmark::State& state) {
  run<Prefetch>(state, C{}, [](C& c, std::uint64_t k) {
    dcqcn_event<C>(
        [&c](int kind, netcc::timestamp now) {
          if (kind == 0) {
            c.on_cnp(netcc::cnp_event{.now = now});
          } else if (kind == 1) {
            c.on_timer(now);
          } else {
            c.on_send(netcc::bytes{1000}, now);
          }
        },
        k);
  });
}

template <class C, bool Prefetch = false>
void BM_dcqcn_states(benchmark::State& state) {
  const typename C::config cfg{};
  run_states<Prefetch, C>(
      state, cfg, [](const typename C::config& c, typename C::flow_state& s, std::uint64_t k) {
        dcqcn_event<C>(
            [&c, &s](int kind, netcc::timestamp now) {
              if (kind == 0) {
                c.on_cnp(s, netcc::cnp_event{.now = now});
              } else if (kind == 1) {
                c.on_timer(s, now);
              } else {
                c.on_send(s, netcc::bytes{1000}, now);
              }
            },
            k);
      });
}

// The Bolt sender (SRC and ACK in turn, from bench/bolt_events.hpp's rings, time advanced by the
// laps before): event j of a flow is the one-flow benchmark's j-th.
template <class C, bool Prefetch = false>
void BM_bolt_states(benchmark::State& state) {
  const auto srcs = netcc_bench::srcs();
  const auto acks = netcc_bench::acks();
  constexpr std::uint64_t ring = netcc_bench::bolt_ring;
  const typename C::config cfg{};
  run_states<Prefetch, C>(
      state, cfg,
      [&srcs, &acks](const typename C::config& c, typename C::flow_state& s, std::uint64_t j) {
        const std::size_t k = (j >> 1) & (ring - 1);
        const auto lap = static_cast<std::int64_t>(j / (2 * ring) * 500 * ring);
        if (j & 1) {
          auto e = acks[k];
          e.now += netcc::duration{lap};
          c.on_ack(s, e);
        } else {
          auto e = srcs[k];
          e.now += netcc::duration{lap};
          e.tx_timestamp += static_cast<std::uint32_t>(lap);
          c.on_src(s, e);
        }
      });
}

// HPCC over 5 INT hops on netcc's 64-bit stack: every event advances every hop's timestamp
// (by 100 ns) and tx counter (by 1 KB), so every ACK is a sample; queue lengths come from the
// templates.
template <class Policy, bool Prefetch = false>
void BM_hpcc5(benchmark::State& state) {
  using stack = netcc::int_stack<5>;
  using C = netcc::basic_hpcc<Policy, stack>;
  std::mt19937_64 rng(5);
  std::vector<std::int64_t> qlen(templates);
  for (auto& q : qlen) q = static_cast<std::int64_t>(rng() % 80'000);
  typename C::params_type p;
  p.host_rate = 100_Gbps;
  p.base_rtt = 10_us;
  p.expected_flows = 8;
  run<Prefetch>(state, C{p}, [&qlen](C& c, std::uint64_t k) {
    netcc::basic_ack_event<stack> a;
    const auto ts = k * 100 + 1;
    a.now = netcc::timestamp{static_cast<std::int64_t>(ts)};
    a.ack_seq = static_cast<netcc::sequence>(4096 * (k + 1));
    a.snd_nxt = a.ack_seq + 120'000;
    for (std::size_t h = 0; h < 5; ++h)
      a.hops.push({.ts = ts + h,
                   .qlen = netcc::bytes{qlen[(k + h) & (templates - 1)]},
                   .tx_bytes = 1024 * k,
                   .link_rate = 100_Gbps});
    c.on_ack(a);
  });
}

void sizes(benchmark::internal::Benchmark* b) {
  b->RangeMultiplier(16)->Range(1, std::int64_t{1} << 20)->Unit(benchmark::kNanosecond);
}

BENCHMARK(BM_window_ack<netcc::dctcp>)->Name("dctcp/double")->Apply(sizes);
BENCHMARK(BM_window_ack<netcc::basic_dctcp<q32>>)->Name("dctcp/q32")->Apply(sizes);
BENCHMARK(BM_window_ack<netcc::dctcp_fixed>)->Name("dctcp/q32_alpha1024")->Apply(sizes);
BENCHMARK(BM_window_ack_states<netcc::dctcp>)->Name("dctcp/double/state_array")->Apply(sizes);
BENCHMARK(BM_window_ack_states<netcc::basic_dctcp<q32>>)
    ->Name("dctcp/q32/state_array")
    ->Apply(sizes);
BENCHMARK(BM_window_ack_states<netcc::dctcp_fixed>)
    ->Name("dctcp/q32_alpha1024/state_array")
    ->Apply(sizes);
BENCHMARK(BM_vegas_ack<netcc::vegas>)->Name("vegas/double")->Apply(sizes);
BENCHMARK(BM_vegas_ack<netcc::vegas_fixed>)->Name("vegas/q32")->Apply(sizes);
BENCHMARK(BM_vegas_ack<netcc::vegas_compact>)->Name("vegas/q32_compact")->Apply(sizes);
BENCHMARK(BM_vegas_ack_states<netcc::vegas>)->Name("vegas/double/state_array")->Apply(sizes);
BENCHMARK(BM_vegas_ack_states<netcc::vegas_fixed>)->Name("vegas/q32/state_array")->Apply(sizes);
BENCHMARK(BM_vegas_ack_states<netcc::vegas_compact>)
    ->Name("vegas/q32_compact/state_array")
    ->Apply(sizes);
BENCHMARK(BM_window_ack<netcc::swift>)->Name("swift/double")->Apply(sizes);
BENCHMARK(BM_window_ack<netcc::basic_swift<q32>>)->Name("swift/q32")->Apply(sizes);
BENCHMARK(BM_window_ack_states<netcc::swift>)->Name("swift/double/state_array")->Apply(sizes);
BENCHMARK(BM_window_ack_states<netcc::basic_swift<q32>>)
    ->Name("swift/q32/state_array")
    ->Apply(sizes);
BENCHMARK(BM_window_ack<netcc::swift_compact>)->Name("swift/q32_compact")->Apply(sizes);
BENCHMARK(BM_window_ack_states<netcc::swift_compact>)
    ->Name("swift/q32_compact/state_array")
    ->Apply(sizes);
BENCHMARK(BM_timely_rtt<ieee_double>)->Name("timely/double")->Apply(sizes);
BENCHMARK(BM_timely_rtt<q32>)->Name("timely/q32")->Apply(sizes);
BENCHMARK(BM_timely_rtt_states<netcc::timely>)->Name("timely/double/state_array")->Apply(sizes);
BENCHMARK(BM_timely_rtt_states<netcc::basic_timely<q32>>)
    ->Name("timely/q32/state_array")
    ->Apply(sizes);
BENCHMARK(BM_timely_rtt_of<netcc::timely_compact>)->Name("timely/q32_compact")->Apply(sizes);
BENCHMARK(BM_timely_rtt_states<netcc::timely_compact>)
    ->Name("timely/q32_compact/state_array")
    ->Apply(sizes);
BENCHMARK(BM_dcqcn<ieee_double>)->Name("dcqcn/double")->Apply(sizes);
BENCHMARK(BM_dcqcn<q32>)->Name("dcqcn/q32")->Apply(sizes);
BENCHMARK(BM_dcqcn_of<netcc::dcqcn_compact>)->Name("dcqcn/q32_compact")->Apply(sizes);
BENCHMARK(BM_dcqcn_states<netcc::dcqcn>)->Name("dcqcn/double/state_array")->Apply(sizes);
BENCHMARK(BM_dcqcn_states<netcc::basic_dcqcn<q32>>)->Name("dcqcn/q32/state_array")->Apply(sizes);
BENCHMARK(BM_dcqcn_states<netcc::dcqcn_compact>)
    ->Name("dcqcn/q32_compact/state_array")
    ->Apply(sizes);
BENCHMARK(BM_bolt_states<netcc::basic_bolt_sender<ieee_double>>)
    ->Name("bolt/double/state_array")
    ->Apply(sizes);
BENCHMARK(BM_bolt_states<netcc::basic_bolt_sender<q32>>)
    ->Name("bolt/q32/state_array")
    ->Apply(sizes);
BENCHMARK(BM_bolt_states<netcc::bolt_sender_compact>)
    ->Name("bolt/q32_compact/state_array")
    ->Apply(sizes);
BENCHMARK(BM_hpcc5<ieee_double>)->Name("hpcc_5hops/double")->Apply(sizes);
BENCHMARK(BM_hpcc5<q32>)->Name("hpcc_5hops/q32")->Apply(sizes);

// The state arrays again, each state prefetched prefetch_distance events ahead of its event.
BENCHMARK(BM_window_ack_states<netcc::dctcp, true>)
    ->Name("dctcp/double/state_array/prefetch")
    ->Apply(sizes);
BENCHMARK(BM_window_ack_states<netcc::basic_dctcp<q32>, true>)
    ->Name("dctcp/q32/state_array/prefetch")
    ->Apply(sizes);
BENCHMARK(BM_window_ack_states<netcc::dctcp_fixed, true>)
    ->Name("dctcp/q32_alpha1024/state_array/prefetch")
    ->Apply(sizes);
BENCHMARK(BM_vegas_ack_states<netcc::vegas, true>)
    ->Name("vegas/double/state_array/prefetch")
    ->Apply(sizes);
BENCHMARK(BM_vegas_ack_states<netcc::vegas_fixed, true>)
    ->Name("vegas/q32/state_array/prefetch")
    ->Apply(sizes);
BENCHMARK(BM_vegas_ack_states<netcc::vegas_compact, true>)
    ->Name("vegas/q32_compact/state_array/prefetch")
    ->Apply(sizes);
BENCHMARK(BM_window_ack_states<netcc::swift, true>)
    ->Name("swift/double/state_array/prefetch")
    ->Apply(sizes);
BENCHMARK(BM_window_ack_states<netcc::basic_swift<q32>, true>)
    ->Name("swift/q32/state_array/prefetch")
    ->Apply(sizes);
BENCHMARK(BM_window_ack_states<netcc::swift_compact, true>)
    ->Name("swift/q32_compact/state_array/prefetch")
    ->Apply(sizes);
BENCHMARK(BM_timely_rtt_states<netcc::timely, true>)
    ->Name("timely/double/state_array/prefetch")
    ->Apply(sizes);
BENCHMARK(BM_timely_rtt_states<netcc::basic_timely<q32>, true>)
    ->Name("timely/q32/state_array/prefetch")
    ->Apply(sizes);
BENCHMARK(BM_timely_rtt_states<netcc::timely_compact, true>)
    ->Name("timely/q32_compact/state_array/prefetch")
    ->Apply(sizes);
BENCHMARK(BM_dcqcn_states<netcc::dcqcn, true>)
    ->Name("dcqcn/double/state_array/prefetch")
    ->Apply(sizes);
BENCHMARK(BM_dcqcn_states<netcc::basic_dcqcn<q32>, true>)
    ->Name("dcqcn/q32/state_array/prefetch")
    ->Apply(sizes);
BENCHMARK(BM_dcqcn_states<netcc::dcqcn_compact, true>)
    ->Name("dcqcn/q32_compact/state_array/prefetch")
    ->Apply(sizes);
BENCHMARK(BM_bolt_states<netcc::basic_bolt_sender<ieee_double>, true>)
    ->Name("bolt/double/state_array/prefetch")
    ->Apply(sizes);
BENCHMARK(BM_bolt_states<netcc::basic_bolt_sender<q32>, true>)
    ->Name("bolt/q32/state_array/prefetch")
    ->Apply(sizes);
BENCHMARK(BM_bolt_states<netcc::bolt_sender_compact, true>)
    ->Name("bolt/q32_compact/state_array/prefetch")
    ->Apply(sizes);

}  // namespace
