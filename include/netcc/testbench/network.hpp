// SPDX-License-Identifier: MIT
/// @file
/// @brief The testbench engine: a deterministic discrete-event packet network.
///
/// Time is integer nanoseconds. Events are ordered by (time, insertion order), so the same
/// network, flows and seed give the same bytes out on every run and with every compiler. (A
/// packet's arrival at the next node is queued when its transmission starts, with the order
/// that transmission's end takes; that end is an event only when something waits for it: see
/// start_tx.)
///
/// Model:
/// - **links**: a rate and a propagation delay per direction; a packet occupies the link for
///   its serialisation time (size / rate, rounded up to the ns) and arrives one delay later;
/// - **ports**: every node's egress port has a strict-priority control queue (ACK, CNP, SRC,
///   S-ACK) and a FIFO data queue sharing one buffer (the port's own, or the switch's shared
///   buffer under Dynamic Thresholds); a packet that does not fit is dropped and
///   counted; data packets are ECN-marked at enqueue (RED with K_min, K_max, P_max; K_min =
///   K_max is DCTCP's single threshold) and get an INT hop record at dequeue when the switch
///   pushes INT; a Bolt switch runs netcc::bolt_ingress on each data packet before it joins the
///   queue (SRC back to the sender at control priority, PRU and supply tokens, INC granted or
///   cleared);
/// - **PFC**: a switch with PFC counts, per ingress port, the data bytes it holds that came in
///   there; above X_off it pauses the upstream port's data queue (control packets still flow),
///   at or below X_on it resumes it; the frame acts one propagation delay after the crossing;
/// - **FastTune**: a FastTune switch sends an S-ACK with its egress INT for each data packet of
///   a flow until an ACK of that flow passes back, and pads the data path's egress INT into
///   every ACK and S-ACK; the sender's controller gets S-ACKs as ACK events with switch_ack;
/// - **hosts**: one NIC port each. Senders are pulled when the NIC is idle: round-robin over
///   the host's flows that have data, window space (bytes in flight + packet <= cwnd, or nothing
///   in flight) and pacing credit (next send time <= now). Receivers ACK every data packet
///   with the cumulative ACK, reflecting INT, the CE mark (ECN echo) and Bolt's INC flag, and a
///   DCQCN notification point sends at most one CNP per flow per `cnp_interval` for CE-marked
///   data. Loss recovery is go-back-N on a retransmission timeout (the receiver accepts only
///   in-order data), counted per flow;
/// - **routing**: shortest paths (hop count) to the destination host's edge switch, computed once
///   before the run (one table entry per switch and edge switch); among equal-cost next hops a
///   flow hashes onto one (ECMP), deterministically. A host has one link (its first).
///
/// The engine allocates per flow and per node at set-up, and afterwards only when a pool grows
/// past its high-water mark: packets live in a pool and move by index.
///
/// Sources: the simulation set-ups of PowerTCP (NSDI'22) §4.1 and HPCC (SIGCOMM'19) §5; A. K.
/// Choudhury, E. L. Hahne, "Dynamic Queue Length Thresholds for Shared-Memory Packet Switches",
/// IEEE/ACM ToN 6(2), 1998 (shared buffers); S. Floyd, V. Jacobson, "Random Early Detection
/// Gateways for Congestion Avoidance", IEEE/ACM ToN 1(4), 1993 and DCTCP (SIGCOMM 2010) §3.1
/// (marking).
///
/// @code
/// netcc::testbench::network net{{.seed = 1}};
/// auto h0 = net.add_host(), h1 = net.add_host(), s = net.add_switch();
/// net.connect(h0, s, {.rate = netcc::bit_rate{100'000'000'000}, .delay = netcc::duration{1000}});
/// net.connect(s, h1, {.rate = netcc::bit_rate{100'000'000'000}, .delay = netcc::duration{1000}});
/// net.add_flow({.src = h0, .dst = h1, .size = netcc::bytes{1'000'000},
///               .cc = std::make_unique<netcc::testbench::cc_model<netcc::testbench::fixed_window>>(
///                   "fixed", netcc::bytes{50'000})});
/// net.run_until(netcc::timestamp{1'000'000});
/// @endcode
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "netcc/core/divisor.hpp"
#include "netcc/core/units.hpp"
#include "netcc/fabric/bolt.hpp"
#include "netcc/fabric/dcqcn_np.hpp"
#include "netcc/fabric/fasttune_switch.hpp"
#include "netcc/fabric/pfc.hpp"
#include "netcc/fabric/red_ecn.hpp"
#include "netcc/testbench/packet.hpp"
#include "netcc/testbench/sender_cc.hpp"

namespace netcc::testbench {

/// @brief One direction of a link, as seen from its egress port.
struct link_spec {
  /// @brief Line rate.
  bit_rate rate{100'000'000'000};
  /// @brief One-way propagation delay.
  duration delay{1000};
  /// @brief Egress buffer of the port at each end (shared by its two queues).
  bytes buffer{32 * 1024 * 1024};
};

/// @brief What a switch does to packets besides forwarding them.
struct switch_config {
  /// @brief Push an INT hop record on data packets at dequeue.
  bool int_push = true;
  /// @brief ECN-mark data packets at enqueue (RED; K_min == K_max gives a step at K).
  bool ecn = false;
  /// @brief RED K_min: below it, never mark.
  bytes ecn_kmin{100'000};
  /// @brief RED K_max: at or above it, always mark.
  bytes ecn_kmax{400'000};
  /// @brief RED P_max: marking probability just below K_max.
  double ecn_pmax = 0.2;
  /// @brief Mark at dequeue against the queue the packet leaves behind, instead of at enqueue
  /// against the queue it joins: the mark then reaches the receiver without waiting behind
  /// the queue it reports (how RoCE switches mark for DCQCN, and HPCC's ns-3 model).
  bool ecn_at_dequeue = false;
  /// @brief Run Bolt's switch ingress (NSDI'23 Algorithm 1, netcc::bolt_ingress) on data
  /// packets towards each egress port: SRC generation at or above CC_THRESH, PRU tokens from
  /// LAST packets, supply tokens, INC granted or cleared.
  bool bolt = false;
  /// @brief Bolt switch parameters (MTU, CC_THRESH, link-rate code unit).
  bolt_params bolt_cfg{};
  /// @brief Priority Flow Control (netcc::pfc_on_backlog, seed 003 §III-B e): count the data
  /// bytes queued in this switch per ingress port; above X_off pause the upstream neighbour's
  /// data queue, at or below X_on resume it.
  bool pfc = false;
  /// @brief PFC thresholds per Gbps of the ingress port's rate (seed 003 §V: 9.5 / 9.25 kB).
  pfc_params pfc_cfg{};
  /// @brief FastTune's switch (netcc::fasttune_switch, FastTune Algorithm 1): in a flow's
  /// first RTT every data packet makes the switch send an S-ACK with its egress port's INT
  /// back to the sender; every ACK and S-ACK of the flow gets the INT of the data path's
  /// egress port padded in. Use with int_push off (FastTune carries INT on ACKs only).
  bool fasttune = false;
  /// @brief FastTune switch parameters (switch feedback and ACK padding toggles, hop limit).
  fasttune_switch_params fasttune_cfg{};
  /// @brief Shared-memory buffer of the switch, bytes; 0: every egress port has its own buffer
  /// (link_spec::buffer). With a shared buffer B, Dynamic Thresholds (Choudhury and Hahne,
  /// "Dynamic queue length thresholds for shared-memory packet switches", IEEE/ACM ToN 6(2),
  /// 1998, §III) admit a packet to an egress queue only while the queue stays within
  /// alpha x (B - the bytes the whole switch holds), and the switch within B (PowerTCP NSDI'22
  /// §4.1: "a shared memory architecture on all the switches and ... Dynamic Thresholds").
  bytes shared_buffer{0};
  /// @brief Dynamic Thresholds' alpha of every egress queue of the switch (1 is the common
  /// choice; network::set_queue_alpha sets one queue's own).
  double dt_alpha = 1.0;
};

/// @brief Noise added to every RTT sample a sender's controller sees (network_config).
enum class rtt_noise : std::uint8_t {
  none,     ///< the RTT as simulated
  uniform,  ///< plus a draw uniform in [-rtt_noise_ns, +rtt_noise_ns]
  normal,   ///< plus a normal draw of standard deviation rtt_noise_ns
};

/// @brief Engine-wide settings.
struct network_config {
  /// @brief Seed of the RNG used for ECN marking and ECMP hashing.
  std::uint64_t seed = 1;
  /// @brief Wire size of a full data packet (headers included).
  bytes mtu{1500};
  /// @brief Header bytes in every data packet (payload = mtu - header).
  bytes header{40};
  /// @brief Wire size of ACK, CNP, SRC and S-ACK packets.
  bytes control_size{64};
  /// @brief Retransmission timeout (go-back-N).
  duration rto{1'000'000};
  /// @brief DCQCN NP: minimum gap between CNPs of one flow (DCQCN SIGCOMM'15: 50 us).
  duration cnp_interval{50'000};
  /// @brief DCQCN NP: suppress CNPs within the gap (DCQCN) or schedule one at its end (the
  /// network-calculus seed's minimum spacing, §III-B d); netcc::dcqcn_np_on_packet.
  dcqcn_np_mode cnp_mode = dcqcn_np_mode::suppress;
  /// @brief Time-series sampling interval (zero: no time series).
  duration sample_interval{1'000};
  /// @brief Receivers acknowledge every this many in-order data packets (1: every packet).
  /// With more, an ACK is still sent at once for the packet that ends the data written so
  /// far, for out-of-order data, and when the CE mark changes (the held packets are then
  /// acknowledged first with their own echo, as RFC 8257 §3.2's DCTCP receiver does); the
  /// held ACK reflects the latest packet's INT and the OR of their Bolt INC flags (Bolt
  /// counts one INC per ACK, so run it with 1).
  std::uint32_t ack_every = 1;
  /// @brief With ack_every > 1: held packets are acknowledged at most this long after the
  /// first of them arrived (delayed-ACK timer).
  duration ack_delay{10'000};
  /// @brief Most bytes the engine may hold (packet pool, event heap, time series, flows, nodes
  /// and routes; netcc::testbench::network::memory_bytes); 0: no limit. The check runs every
  /// 65536 events: past the limit run_until stops early and over_memory_limit() says so.
  std::uint64_t memory_limit = 0;
  /// @brief Measurement noise on each RTT sample given to a controller (ACKs and S-ACKs), as
  /// TIMELY SIGCOMM'15 §5 / Figure 12 adds it to study the gradient's sensitivity: one draw
  /// per sample from its own generator (seeded from `seed`, so other random choices do not
  /// change), rounded to the ns; a sample never goes below 1 ns. The packets' timing is not
  /// affected, only what the controller measures.
  rtt_noise noise = rtt_noise::none;
  /// @brief Half-width (uniform) or standard deviation (normal) of the RTT noise.
  duration rtt_noise_ns{0};
};

/// @brief A flow to run.
struct flow_spec {
  /// @brief Sending host.
  node_id src = 0;
  /// @brief Receiving host.
  node_id dst = 0;
  /// @brief Bytes to send; zero means long-running (until `stop`).
  bytes size{};
  /// @brief When the flow starts.
  timestamp start{};
  /// @brief When a long-running flow stops sending new data.
  timestamp stop = timestamp::max();
  /// @brief Later application writes to a finite flow: (time, bytes), appended to `size` at
  /// that time (on/off bursts on one connection, so the controller keeps its state between
  /// bursts). A write before `start` applies at `start`; a long-running flow ignores writes.
  std::vector<std::pair<timestamp, bytes>> writes{};
  /// @brief Its controller.
  std::unique_ptr<sender_cc> cc;
};

/// @brief Per-flow results.
struct flow_stats {
  /// @brief Start time.
  timestamp start{};
  /// @brief Completion time (timestamp::max() if not completed).
  timestamp finish = timestamp::max();
  /// @brief Bytes acknowledged.
  bytes acked{};
  /// @brief Bytes sent, retransmissions included.
  bytes sent{};
  /// @brief Go-back-N timeouts.
  std::uint64_t timeouts = 0;
  /// @brief CNPs received.
  std::uint64_t cnps = 0;
  /// @brief Flow size (zero for long-running).
  bytes size{};
  /// @brief True once every byte is acknowledged.
  [[nodiscard]] bool completed() const noexcept { return finish != timestamp::max(); }
  /// @brief Flow completion time.
  [[nodiscard]] duration fct() const noexcept { return finish - start; }
};

/// @brief Per-port results.
struct port_stats {
  /// @brief Bytes transmitted.
  std::uint64_t tx_bytes = 0;
  /// @brief Packets transmitted.
  std::uint64_t tx_packets = 0;
  /// @brief Packets dropped for lack of buffer.
  std::uint64_t drops = 0;
  /// @brief Data packets ECN-marked.
  std::uint64_t ecn_marks = 0;
  /// @brief Bolt SRCs generated for data packets towards this port.
  std::uint64_t srcs = 0;
  /// @brief FastTune S-ACKs generated for data packets towards this port.
  std::uint64_t sacks = 0;
  /// @brief PFC pause frames sent upstream through this port (its ingress side went over
  /// X_off).
  std::uint64_t pauses = 0;
  /// @brief Time this port's data queue spent paused by its downstream neighbour.
  duration paused_time{};
  /// @brief Largest occupancy seen.
  bytes max_queue{};
};

/// @brief A sampled time series (one row per sample interval).
struct series {
  /// @brief Sample times.
  std::vector<timestamp> t;
  /// @brief One column per monitored quantity, same length as `t`.
  std::vector<std::vector<double>> columns;
  /// @brief Column names.
  std::vector<std::string> names;
};

/// @brief The packet network.
class network {
 public:
  /// @brief An empty network.
  explicit network(network_config cfg = {})
      : cfg_(cfg), rng_(cfg.seed), noise_rng_(cfg.seed ^ 0xD1B54A32D192ED03ULL) {}

  /// @brief Add a host; returns its id.
  node_id add_host() { return add_node(true, {}); }
  /// @brief Add a switch; returns its id.
  node_id add_switch(switch_config sc = {}) { return add_node(false, sc); }

  /// @brief Connect `a` and `b` with a full-duplex link (same spec both ways).
  void connect(node_id a, node_id b, link_spec l) {
    nodes_[a].ports.push_back(port_state{
        .peer = b, .link = l, .peer_port = static_cast<std::uint32_t>(nodes_[b].ports.size())});
    nodes_[b].ports.push_back(port_state{
        .peer = a, .link = l, .peer_port = static_cast<std::uint32_t>(nodes_[a].ports.size() - 1)});
    routed_ = false;
  }

  /// @brief Add a flow; returns its id.
  flow_id add_flow(flow_spec f) {
    const flow_id id = static_cast<flow_id>(flows_.size());
    flows_.push_back(flow_state{});
    flow_state& fl = flows_.back();
    fl.src = f.src;
    fl.dst = f.dst;
    fl.size = f.size;
    fl.stop = f.stop;
    fl.cc = std::move(f.cc);
    if (fl.cc) fl.cc_sends = fl.cc->consumes_send();
    fl.stats.start = f.start;
    fl.stats.size = f.size;
    fl.writes = std::move(f.writes);
    starts_.push_back(make_event(f.start.count(), order_++, id, 0, ev::flow_start));
    starts_sorted_ = starts_sorted_ && (starts_.size() == next_start_ + 1 ||
                                        !later(starts_[starts_.size() - 2], starts_.back()));
    if (f.size == bytes{0}) fl.writes.clear();  // a long-running flow has no writes
    for (std::uint32_t w = 0; w < fl.writes.size(); ++w)
      schedule(std::max(fl.writes[w].first, f.start), ev::app_write, id, w);
    return id;
  }

  /// @brief Record the occupancy of `node`'s egress port toward `peer` in the time series
  /// (bytes). Columns appear in the order the monitor_* calls are made.
  void monitor_queue(node_id node, node_id peer, std::string name) {
    monitors_.push_back({monitor::queue, node, port_toward(node, peer), 0});
    ts_.names.push_back(std::move(name));
  }
  /// @brief Record the rate at which `node`'s egress port toward `peer` transmits (Gbps over
  /// each sample interval, every packet counted in full).
  void monitor_port_rate(node_id node, node_id peer, std::string name) {
    monitors_.push_back({monitor::port_rate, node, port_toward(node, peer), 0});
    ts_.names.push_back(std::move(name));
  }
  /// @brief Record egress port `port` of `node` (its port index, in the order of the connect
  /// calls that gave `node` its links): the occupancy in bytes, and the data packets it
  /// ECN-marked and the packets it dropped in each sample interval, as three columns
  /// `<name>_queue_bytes`, `<name>_marks` and `<name>_drops`.
  void monitor_port(node_id node, std::uint32_t port, const std::string& name) {
    monitors_.push_back({monitor::queue, node, port, 0});
    ts_.names.push_back(name + "_queue_bytes");
    monitors_.push_back({monitor::port_marks, node, port, 0});
    ts_.names.push_back(name + "_marks");
    monitors_.push_back({monitor::port_drops, node, port, 0});
    ts_.names.push_back(name + "_drops");
  }
  /// @brief Number of nodes (hosts and switches; ids run from 0).
  [[nodiscard]] std::size_t node_count() const noexcept { return nodes_.size(); }
  /// @brief Whether `node` is a host.
  [[nodiscard]] bool is_host(node_id node) const { return nodes_[node].host; }
  /// @brief Number of egress ports of `node` (one per link, in the order they were connected).
  [[nodiscard]] std::size_t port_count(node_id node) const { return nodes_[node].ports.size(); }
  /// @brief The node at the far end of `node`'s port `port`.
  [[nodiscard]] node_id peer_of(node_id node, std::uint32_t port) const {
    return nodes_[node].ports[port].peer;
  }
  /// @brief Record a flow's cwnd (bytes), pacing rate (Gbps) and goodput (Gbps).
  void monitor_flow(flow_id f, const std::string& name) {
    monitors_.push_back({monitor::flow_rates, 0, 0, f});
    ts_.names.push_back(name + "_cwnd_bytes");
    ts_.names.push_back(name + "_rate_gbps");
    ts_.names.push_back(name + "_goodput_gbps");
  }

  /// @brief The egress ports flow `f`'s data packets leave through, as (node, peer) from the
  /// sending host's NIC to the last switch, following the routes and the flow's ECMP choice
  /// (computes the routes if the topology changed). Feed them to monitor_queue to record the
  /// queue at every hop.
  [[nodiscard]] std::vector<std::pair<node_id, node_id>> path(flow_id f) {
    if (!routed_) route();
    std::vector<std::pair<node_id, node_id>> hops;
    const node_id dst = flows_[f].dst;
    node_id n = flows_[f].src;
    if (nodes_[n].ports.empty()) return hops;
    hops.emplace_back(n, nodes_[n].ports[0].peer);
    n = nodes_[n].ports[0].peer;
    while (!nodes_[n].host && hops.size() <= nodes_.size()) {
      const port_choices c = choices(n, dst);
      if (c.count == 0) break;
      const node_id next = nodes_[n].ports[ecmp(n, c, f)].peer;
      hops.emplace_back(n, next);
      n = next;
    }
    return hops;
  }

  /// @brief Record a flow's controller alpha (sender_cc::alpha: DCQCN's, DCTCP's) and the CNPs
  /// it received in each sample interval.
  void monitor_flow_cc(flow_id f, const std::string& name) {
    monitors_.push_back({monitor::flow_cc, 0, 0, f});
    ts_.names.push_back(name + "_alpha");
    ts_.names.push_back(name + "_cnps");
  }

  /// @brief Give the egress queue of `node` toward `peer` its own Dynamic Thresholds alpha
  /// (switch_config::dt_alpha is every queue's otherwise; used with a shared buffer).
  void set_queue_alpha(node_id node, node_id peer, double alpha) {
    nodes_[node].ports[port_toward(node, peer)].dt_alpha = alpha;
  }
  /// @brief Bytes the egress queues of `node` hold together now (a shared buffer's occupancy).
  [[nodiscard]] bytes buffer_held(node_id node) const {
    const node_state& nd = nodes_[node];
    if (!nd.host && nd.sw.shared_buffer > bytes{0}) return nd.held;
    bytes b{};
    for (const auto& p : nd.ports) b += p.q_bytes;
    return b;
  }

  /// @brief Build the controller of every flow added without one (flow_spec::cc empty) when the
  /// flow starts, and release it when the flow completes (unless the flow has later writes): a
  /// workload of many flows then holds controllers for its active flows only. Set it before
  /// the first such flow starts.
  /// @code
  /// net.set_controller_factory([](netcc::testbench::flow_id) {
  ///   return std::make_unique<netcc::testbench::cc_model<netcc::dctcp>>("dctcp",
  ///                                                                     netcc::dctcp_params{});
  /// });
  /// @endcode
  void set_controller_factory(std::function<std::unique_ptr<sender_cc>(flow_id)> make) {
    factory_ = std::move(make);
  }
  /// @brief Call `report` about every million events during run_until (a progress line for long
  /// runs; it must not change the network).
  void set_progress(std::function<void(const network&)> report) { progress_ = std::move(report); }

  /// @brief Run the simulation until `end` (or until no event is left).
  void run_until(timestamp end) {
    if (!routed_) route();
    if (!sampling_ && cfg_.sample_interval > duration::zero() && !monitors_.empty()) {
      sampling_ = true;
      ts_.columns.resize(ts_.names.size());
      schedule(now_, ev::sample, 0, 0);
    }
    if (!starts_sorted_) {
      std::sort(starts_.begin() + static_cast<std::ptrdiff_t>(next_start_), starts_.end(),
                [](const event& x, const event& y) { return later(y, x); });
      starts_sorted_ = true;
    }
    // The next event is the earlier of the heap's first and the next flow start (flows wait in
    // their own sorted list, not in the heap: a workload of many flows does not deepen it).
    while (true) {
      const event* q = queue_.top();
      const bool start_next = next_start_ < starts_.size();
      event e{};
      if (q != nullptr && (!start_next || later(starts_[next_start_], *q))) {
        if (q->t > end.count()) break;
        e = queue_.pop();
      } else if (start_next) {
        if (starts_[next_start_].t > end.count()) break;
        e = starts_[next_start_++];
      } else {
        break;
      }
      now_ = timestamp{e.t};
      cur_order_ = e.order_kind;
      ++events_;
      // Prefetch in three stages, each following what the one before loaded: an event
      // prefetch_far places ahead loads its packet or port, one prefetch_mid places ahead its
      // egress port, flow, INT records or next packet, and the next event what those lead to
      // (the slot of the egress queue, the sender's controller).
      const event* mid = nullptr;
      const event* far = nullptr;
      queue_.ahead(prefetch_mid - 1, prefetch_far - 1, mid, far);
      if (far != nullptr) prefetch(*far);
      if (mid != nullptr) prefetch_next(*mid);
      if (const event* next = queue_.peek(); next != nullptr) prefetch_last(*next);
      dispatch(e);
      if ((events_ & 0xFFFF) == 0) {
        if (cfg_.memory_limit != 0 && memory_bytes() > cfg_.memory_limit) {
          over_limit_ = true;
          return;  // stopped at now(), short of `end`
        }
        if (progress_ && (events_ & 0xFFFFF) == 0) progress_(*this);
      }
    }
    if (now_ < end) now_ = end;
  }

  /// @brief Whether the last run_until stopped early because the engine's memory passed
  /// network_config::memory_limit.
  [[nodiscard]] bool over_memory_limit() const noexcept { return over_limit_; }

  /// @brief Bytes the engine holds now, from the capacities of its stores: the packet pool (with
  /// each packet's queue and free-list slot), the event heap, the time series, flows (with
  /// their scheduled writes), nodes, ports and routes. Controllers' own state and the allocator's
  /// overhead are not counted.
  [[nodiscard]] std::uint64_t memory_bytes() const noexcept {
    std::uint64_t b = static_bytes_;
    b += pool_.capacity() * (sizeof(packet) + 2 * sizeof(std::uint32_t));
    b += int_pool_.capacity() * sizeof(int_record_slots) +
         int_wide_.capacity() * sizeof(int_hop_slots) + rates_.capacity() * sizeof(bit_rate);
    b += free_.capacity() * sizeof(std::uint32_t) +
         (queue_.capacity() + starts_.capacity()) * sizeof(event);
    b += ts_.t.capacity() * sizeof(timestamp);
    for (const auto& c : ts_.columns) b += c.capacity() * sizeof(double);
    return b;
  }

  /// @brief Bytes one packet in flight costs the engine at most: its pool slot, one event, a
  /// queue slot, a free-list slot and an INT slot (the unit of a memory estimate before a run).
  [[nodiscard]] static constexpr std::uint64_t bytes_per_packet() noexcept {
    return sizeof(packet) + sizeof(event) + 2 * sizeof(std::uint32_t) + sizeof(int_record_slots);
  }
  /// @brief Bytes one flow costs the engine, without its controller and scheduled writes.
  [[nodiscard]] static constexpr std::uint64_t bytes_per_flow() noexcept {
    return sizeof(flow_state) + sizeof(flow_id) + 2 * sizeof(event);
  }
  /// @brief Bytes one scheduled application write costs the engine (entry and event).
  [[nodiscard]] static constexpr std::uint64_t bytes_per_write() noexcept {
    return sizeof(std::pair<timestamp, bytes>) + sizeof(event);
  }
  /// @brief Bytes of a node and of a port, without routes.
  [[nodiscard]] static constexpr std::uint64_t bytes_per_node() noexcept {
    return sizeof(node_state) + sizeof(node_hot);
  }
  /// @brief Bytes of one port (both ends of a link have one).
  [[nodiscard]] static constexpr std::uint64_t bytes_per_port() noexcept {
    return sizeof(port_state);
  }
  /// @brief Bytes of one switch's route entry toward one edge switch (a switch with hosts): the
  /// id of a list of equal-cost ports. The distinct lists (few per switch) come on top.
  [[nodiscard]] static constexpr std::uint64_t bytes_per_route() noexcept {
    return sizeof(std::uint16_t);
  }
  /// @brief Bytes of one distinct list of equal-cost ports, without its ports (4 B each): its
  /// place among the ports, its length and the length's reciprocal for ECMP's remainder.
  [[nodiscard]] static constexpr std::uint64_t bytes_per_route_list() noexcept;

  /// @brief Current simulated time.
  [[nodiscard]] timestamp now() const noexcept { return now_; }
  /// @brief Results of flow `f`.
  [[nodiscard]] const flow_stats& stats(flow_id f) const { return flows_[f].stats; }
  /// @brief The controller of flow `f` (a flow added without one has none before it starts and
  /// after it completes: see set_controller_factory).
  [[nodiscard]] const sender_cc& controller(flow_id f) const { return *flows_[f].cc; }
  /// @brief Whether flow `f` holds a controller now.
  [[nodiscard]] bool has_controller(flow_id f) const noexcept {
    return static_cast<bool>(flows_[f].cc);
  }
  /// @brief Number of flows.
  [[nodiscard]] std::size_t flow_count() const noexcept { return flows_.size(); }
  /// @brief Results of `node`'s egress port toward `peer`.
  [[nodiscard]] const port_stats& port_stats_toward(node_id node, node_id peer) const {
    return sync_stats(nodes_[node].ports[port_toward(node, peer)]);
  }
  /// @brief Current occupancy of `node`'s egress port toward `peer`.
  [[nodiscard]] bytes queue_toward(node_id node, node_id peer) const {
    return nodes_[node].ports[port_toward(node, peer)].q_bytes;
  }
  /// @brief The recorded time series.
  [[nodiscard]] const series& time_series() const noexcept { return ts_; }
  /// @brief Packet transmissions on any port so far (the packet-hops count).
  [[nodiscard]] std::uint64_t packet_hops() const noexcept { return hops_; }
  /// @brief Events processed so far.
  [[nodiscard]] std::uint64_t events() const noexcept { return events_; }
  /// @brief Flows the hosts' senders have examined so far when choosing what to send next (the
  /// scheduler's work: it grows with the flows that still have business at a host, never with
  /// the flows that finished or have not started).
  [[nodiscard]] std::uint64_t flow_visits() const noexcept { return visits_; }
  /// @brief Bytes in packets now queued or on a wire.
  [[nodiscard]] std::uint64_t bytes_in_network() const noexcept { return in_network_; }
  /// @brief Packets the engine holds now: queued, on a wire, or kept for a held (delayed) ACK.
  /// With active_flows(), what a run's speed depends on beside its size (docs/netcc-sim.md,
  /// "Speed").
  [[nodiscard]] std::size_t packets_held() const noexcept { return pool_.size() - free_.size(); }
  /// @brief Flows on the hosts' senders' lists: started and not finished (a long-running flow
  /// past its stop time leaves at its host's next send decision).
  [[nodiscard]] std::size_t active_flows() const noexcept {
    std::size_t a = 0;
    for (const auto& nd : nodes_) a += nd.active.size();
    return a;
  }
  /// @brief Bytes of every packet hosts have put on the network (data and control).
  [[nodiscard]] std::uint64_t bytes_injected() const noexcept { return injected_; }
  /// @brief Bytes of every packet that reached its destination host.
  [[nodiscard]] std::uint64_t bytes_delivered() const noexcept { return delivered_; }
  /// @brief Bytes of every dropped packet.
  [[nodiscard]] std::uint64_t bytes_dropped() const noexcept { return dropped_; }
  /// @brief Data packets that reached their receiver out of order (discarded, go-back-N).
  [[nodiscard]] std::uint64_t out_of_order() const noexcept { return out_of_order_; }
  /// @brief Every port as (node, peer, stats, buffer), in node and port order.
  [[nodiscard]] std::vector<std::tuple<node_id, node_id, port_stats, bytes>> ports() const {
    std::vector<std::tuple<node_id, node_id, port_stats, bytes>> v;
    for (node_id n = 0; n < nodes_.size(); ++n)
      for (const auto& p : nodes_[n].ports) v.emplace_back(n, p.peer, sync_stats(p), p.link.buffer);
    return v;
  }
  /// @brief Packets dropped anywhere.
  [[nodiscard]] std::uint64_t drops() const noexcept {
    std::uint64_t d = 0;
    for (const auto& n : nodes_)
      for (const auto& p : n.ports) d += p.stats.drops;
    return d;
  }
  /// @brief The engine settings.
  [[nodiscard]] const network_config& config() const noexcept { return cfg_; }

 private:
  enum class ev : std::uint8_t {
    tx_done,
    arrive,
    flow_start,
    flow_wakeup,
    rto,
    sample,
    tick,
    pfc_pause,
    pfc_resume,
    app_write,
    delayed_ack,
    scheduled_cnp
  };
  // An event: its time, its insertion order and kind in one word (order << 8 | kind: the orders
  // are distinct, so the words compare as the orders do), and two operands. 24 B.
  struct event {
    std::int64_t t;
    std::uint64_t order_kind;
    std::uint32_t a;
    std::uint32_t b;
    [[nodiscard]] ev kind() const noexcept { return static_cast<ev>(order_kind & 0xFF); }
  };
  static event make_event(std::int64_t t, std::uint64_t order, std::uint32_t a, std::uint32_t b,
                          ev k) noexcept {
    return event{t, order << 8 | static_cast<std::uint64_t>(k), a, b};
  }
  static bool later(const event& x, const event& y) noexcept {
    return x.t != y.t ? x.t > y.t : x.order_kind > y.order_kind;
  }

  // The pending events, smallest (time, order) first: a radix heap on the time (Ahuja, Mehlhorn,
  // Orlin and Tarjan, J. ACM 1990). A radix heap needs every time pushed to be at least the last
  // popped one, which holds here: events are scheduled at now or later. An event sits in the
  // bucket of the highest bit in which its time differs from the last popped time; a pop that
  // finds bucket 0 (the events at the last popped time) empty moves the lowest non-empty bucket
  // into lower ones, so each event moves at most 64 times and in practice a few: pushes cost no
  // comparison, pops a few, instead of a binary heap's ~2 log2(n) unpredictable comparisons per
  // operation, and the (time, order) sequence is exactly the binary heap's.
  //
  // Every bucket holds its events in insertion order: a push appends the newest event, and a
  // move fills only empty buckets (those below the lowest non-empty one) with a subsequence of
  // an ordered bucket. So bucket 0, whose events share one time, is a FIFO (a vector read from
  // `head0_`), and the smallest event of another bucket is the first one at its smallest time.
  // The event queue below keeps only the events far ahead here.
  class radix_heap {
   public:
    [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    [[nodiscard]] std::size_t capacity() const noexcept {
      std::size_t c = 0;
      for (const auto& b : b_) c += b.capacity();
      return c;
    }
    void push(const event& e) {
      const unsigned i = bucket(e.t);
      b_[i].push_back(e);
      if (i != 0 && i <= min_bucket_) min_bucket_ = no_min;  // the cached minimum may change
      ++size_;
    }
    // The next event if it is at hand (bucket 0's next, or the cached minimum), else null: a
    // hint for prefetching only (an event pushed meanwhile may come first).
    [[nodiscard]] const event* ahead(std::size_t d) const noexcept {
      return head0_ + d < b_[0].size() ? &b_[0][head0_ + d] : nullptr;
    }
    [[nodiscard]] const event* peek() const noexcept {
      if (head0_ < b_[0].size()) return &b_[0][head0_];
      if (min_bucket_ != no_min) return &b_[min_bucket_][min_index_];
      return nullptr;
    }
    // The smallest event (the queue must not be empty). Finding it changes nothing: the last
    // popped time stays the reference, so times from it on may still be pushed.
    [[nodiscard]] const event& top() {
      if (head0_ < b_[0].size()) return b_[0][head0_];
      find_min();
      return b_[min_bucket_][min_index_];
    }
    event pop() {
      if (head0_ == b_[0].size()) {
        b_[0].clear();
        head0_ = 0;
        find_min();
        std::vector<event>& from = b_[min_bucket_];
        last_t_ = key(from[min_index_].t);
        for (const event& e : from) b_[bucket(e.t)].push_back(e);
        from.clear();
        min_bucket_ = no_min;
        // Bucket 0 is in insertion order, which is the order's but for an event queued late
        // with an earlier order (event_queue::push_ordered): sort it then.
        if (!std::is_sorted(b_[0].begin(), b_[0].end(), order_less))
          std::sort(b_[0].begin(), b_[0].end(), order_less);
      }
      --size_;
      return b_[0][head0_++];
    }

   private:
    static bool order_less(const event& x, const event& y) noexcept {
      return x.order_kind < y.order_kind;
    }
    static constexpr unsigned no_min = 1000;
    // The time as an unsigned key in the same order.
    static std::uint64_t key(std::int64_t t) noexcept {
      return static_cast<std::uint64_t>(t) ^ (std::uint64_t{1} << 63);
    }
    [[nodiscard]] unsigned bucket(std::int64_t t) const noexcept {
      const std::uint64_t k = key(t);
      return k == last_t_ ? 0 : 64 - static_cast<unsigned>(std::countl_zero(k ^ last_t_));
    }
    void find_min() {
      if (min_bucket_ != no_min) return;
      unsigned i = 1;
      while (b_[i].empty()) ++i;
      const std::vector<event>& from = b_[i];
      std::size_t m = 0;
      for (std::size_t k = 1; k < from.size(); ++k)
        if (later(from[m], from[k])) m = k;
      min_bucket_ = i;
      min_index_ = m;
    }
    std::array<std::vector<event>, 65> b_{};
    std::size_t head0_ = 0;  // bucket 0's next event
    std::uint64_t last_t_ = key(0);
    std::size_t size_ = 0;
    unsigned min_bucket_ = no_min;
    std::size_t min_index_ = 0;
  };

  // The pending events, smallest (time, order) first: a timing wheel (G. Varghese, A. Lauck,
  // "Hashed and hierarchical timing wheels", SOSP 1987) of one slot per nanosecond for the
  // events less than `wheel_slots` ns ahead of the last popped time (a packet's serialisation
  // and propagation: nearly every event), and the radix heap above for the rest (timeouts,
  // samples, ticks, long links). A slot holds the events of one time, in insertion order: events
  // get increasing orders as they are pushed (but for push_ordered's, which go to their place),
  // so each slot is a FIFO sorted by order, and a pop takes the smaller (time, order) of the
  // wheel's first event and the heap's. The sequence is exactly the radix heap's alone, at a
  // few instructions per event instead of its moves between buckets. A bitmap of the non-empty
  // slots finds the next one.
  class event_queue {
   public:
    [[nodiscard]] bool empty() const noexcept { return n_wheel_ == 0 && far_.empty(); }
    [[nodiscard]] std::size_t capacity() const noexcept {
      std::size_t c = far_.capacity();
      for (const auto& s : slots_) c += s.cap;
      return c;
    }
    // A push runs a few instructions inline; the far heap and a slot's growth are out of line.
    void push(const event& e) {
      if (static_cast<std::uint64_t>(e.t - cursor_) >= wheel_slots) [[unlikely]] {
        push_far(e);
        return;
      }
      const auto s = static_cast<std::size_t>(e.t) & slot_mask;
      slot& sl = slots_[s];
      if (sl.size == sl.cap) [[unlikely]]
        grow(sl);
      sl.events[sl.size++] = e;
      __builtin_prefetch(reinterpret_cast<const char*>(sl.events.get() + sl.size) + 64, 1);
      bits_[s >> 6] |= std::uint64_t{1} << (s & 63);
      if (n_wheel_ == 0 || e.t < front_t_) {
        front_t_ = e.t;
        front_ = s;
      }
      ++n_wheel_;
    }
    // Push an event whose order may be smaller than that of events already queued at its time
    // (a tx_done queued after its transmission started; its time is now or later): it goes
    // to its place in its slot, not at the end.
    void push_ordered(const event& e) {
      if (static_cast<std::uint64_t>(e.t - cursor_) >= wheel_slots) {
        push(e);  // the heap orders by (time, order) whatever the insertion order
        return;
      }
      push(e);
      slot& s = slots_[static_cast<std::size_t>(e.t) & slot_mask];
      for (std::uint32_t k = s.size - 1;
           k > s.head && s.events[k - 1].order_kind > s.events[k].order_kind; --k)
        std::swap(s.events[k - 1], s.events[k]);
    }
    // The events `dn` and `df` places after the next one in the wheel (dn < df), looking past
    // its first slot into the next non-empty ones (the heap's events are not counted); null
    // where the wheel has fewer. Hints for prefetching only: events pushed later may come
    // first.
    [[gnu::always_inline]] void ahead(std::size_t dn, std::size_t df, const event*& near,
                                      const event*& far) const noexcept {
      near = nullptr;
      far = nullptr;
      if (n_wheel_ == 0) return;
      std::size_t s = front_;
      std::size_t i = slots_[s].head + dn;
      std::size_t j = i + (df - dn);
      for (int hop = 0; hop < 4; ++hop) {
        const slot& v = slots_[s];
        if (j < v.size) {
          far = &v.events[j];
          if (near == nullptr) near = &v.events[i];
          return;
        }
        if (near == nullptr) {
          if (i < v.size) {
            near = &v.events[i];
          } else {
            i -= v.size;
          }
        }
        j -= v.size;
        std::size_t w = (s + 1) & slot_mask;
        std::uint64_t bits = bits_[w >> 6] & (~std::uint64_t{0} << (w & 63));
        w >>= 6;
        for (std::size_t k = 0; bits == 0; ++k) {
          if (k == bits_.size()) return;
          w = (w + 1) & (bits_.size() - 1);
          bits = bits_[w];
        }
        s = (w << 6) | static_cast<std::size_t>(std::countr_zero(bits));
      }
    }
    // The next event if it is at hand, else null: a hint for prefetching only.
    [[nodiscard]] const event* peek() const noexcept {
      const event* w = wheel_front();
      if (w != nullptr) return w;
      return far_.peek();
    }
    // The smallest event (null if none): the wheel's first or the heap's.
    [[nodiscard]] const event* top() {
      const event* w = wheel_front();
      const event* f = far_front();
      top_far_ = f != nullptr && (w == nullptr || later(*w, *f));
      return top_far_ ? f : w;
    }
    // Remove the smallest event, the one the last top() returned (no push since).
    event pop() {
      if (top_far_) {
        const event e = far_.pop();
        far_known_ = false;
        top_far_ = false;
        cursor_ = e.t;
        return e;
      }
      const event e = *wheel_front();
      cursor_ = e.t;
      slot& s = slots_[front_];
      if (++s.head == s.size) {  // the slot is done: on to the next non-empty one
        s.size = 0;
        s.head = 0;
        bits_[front_ >> 6] &= ~(std::uint64_t{1} << (front_ & 63));
        if (--n_wheel_ != 0) {
          find_front();
          prefetch_slot((front_ + slot_lead) & slot_mask);
        }
      } else {
        --n_wheel_;
      }
      return e;
    }

   private:
    static constexpr std::size_t wheel_slots = 2048;  // a power of two
    static constexpr std::size_t slot_mask = wheel_slots - 1;
    // The heap's smallest event (null if none), kept in a copy while it stays the smallest: the
    // heap changes rarely (timers), the wheel on every event.
    [[nodiscard]] const event* far_front() {
      if (far_known_) return &far_top_;
      if (far_.empty()) return nullptr;
      far_top_ = far_.top();
      far_known_ = true;
      return &far_top_;
    }
    [[nodiscard]] const event* wheel_front() const noexcept {
      if (n_wheel_ == 0) return nullptr;
      const slot& s = slots_[front_];
      return &s.events[s.head];
    }
    // Load the events of slot `s` (its first 8 lines at most) while the slots before it are
    // handled: they were pushed a serialisation and a link delay ago, out of the cache by now,
    // and each slot is a buffer of its own, which the hardware prefetcher does not run into.
    // A hint only: it changes no state.
    static constexpr std::size_t slot_lead = 2;  // slots ahead of the front (ns, at most)
    [[gnu::always_inline]] void prefetch_slot(std::size_t s) const noexcept {
      const slot& v = slots_[s];
      const auto* p = reinterpret_cast<const char*>(v.events.get());
      constexpr std::size_t most = 8 * 64 / sizeof(event);  // the events of 8 lines
      const std::size_t used = std::min<std::size_t>(v.size, most) * sizeof(event);
      for (std::size_t b = 0; b < used; b += 64) __builtin_prefetch(p + b);
    }
    // The first non-empty slot from the last popped time on (all wheel events lie in
    // [cursor_, cursor_ + wheel_slots), so the slots' circular order from the cursor's is their
    // time order).
    void find_front() noexcept {
      const std::size_t c = static_cast<std::size_t>(cursor_) & slot_mask;
      std::size_t w = c >> 6;
      std::uint64_t bits = bits_[w] & (~std::uint64_t{0} << (c & 63));
      while (bits == 0) {
        w = (w + 1) & (bits_.size() - 1);
        bits = bits_[w];
      }
      front_ = (w << 6) | static_cast<std::size_t>(std::countr_zero(bits));
      front_t_ = cursor_ + static_cast<std::int64_t>((front_ - c) & slot_mask);
    }
    // The events of one time, in insertion order: a buffer that grows as a vector does (one
    // event, then doubling) and keeps its room when emptied. 24 B.
    struct slot {
      std::unique_ptr<event[]> events;
      std::uint32_t size = 0;  // events held (at most 2^31: grow refuses more)
      std::uint32_t cap = 0;   // room
      std::uint32_t head = 0;  // the next one
    };
    [[gnu::noinline]] void push_far(const event& e) {
      far_.push(e);
      if (far_known_ && later(far_top_, e)) far_top_ = e;
    }
    [[gnu::noinline]] static void grow(slot& s) {
      constexpr std::uint32_t most = std::uint32_t{1} << 31;
      if (s.cap >= most) throw std::length_error("netcc::testbench: over 2^31 events at one time");
      const std::uint32_t cap = s.cap == 0 ? 1 : 2 * s.cap;
      auto b = std::make_unique_for_overwrite<event[]>(cap);
      std::copy(s.events.get(), s.events.get() + s.size, b.get());
      s.events = std::move(b);
      s.cap = cap;
    }
    std::array<slot, wheel_slots> slots_{};
    std::array<std::uint64_t, wheel_slots / 64> bits_{};
    std::size_t n_wheel_ = 0;
    std::size_t front_ = 0;     // slot of the wheel's first event
    std::int64_t front_t_ = 0;  // its time
    std::int64_t cursor_ = 0;   // the last popped time
    radix_heap far_;
    event far_top_{};  // far_'s smallest event, when far_known_
    bool far_known_ = false;
    bool top_far_ = false;  // the last top() was the heap's
  };

  // A port's two FIFOs of packet indices, control ([0]) and data ([1]), each a growable ring
  // (no per-packet allocation). 40 B, so they share a cache line with the port's packet
  // counter, serialisation times and the order of its transmission's end.
  class port_queues {
   public:
    [[nodiscard]] bool empty(std::size_t q) const noexcept { return n_[q] == 0; }
    void push(std::size_t q, std::uint32_t v) {
      if (n_[q] == cap_[q]) grow(q);
      buf_[q][(head_[q] + n_[q]) & (cap_[q] - 1)] = v;
      ++n_[q];
    }
    std::uint32_t pop(std::size_t q) noexcept {
      const std::uint32_t v = buf_[q][head_[q]];
      head_[q] = (head_[q] + 1) & (cap_[q] - 1);
      --n_[q];
      return v;
    }
    // Where the first index of queue q is held (q not empty): a hint for prefetching.
    [[nodiscard]] const std::uint32_t* head(std::size_t q) const noexcept {
      return &buf_[q][head_[q]];
    }
    // Where push(q, .) will write (null if it must grow first): a hint for prefetching.
    [[nodiscard]] const std::uint32_t* tail(std::size_t q) const noexcept {
      return n_[q] == cap_[q] ? nullptr : &buf_[q][(head_[q] + n_[q]) & (cap_[q] - 1)];
    }

   private:
    void grow(std::size_t q) {
      const std::uint32_t c = cap_[q] == 0 ? 16 : cap_[q] * 2;
      auto b = std::make_unique<std::uint32_t[]>(c);
      for (std::uint32_t i = 0; i < n_[q]; ++i) b[i] = buf_[q][(head_[q] + i) & (cap_[q] - 1)];
      buf_[q] = std::move(b);
      cap_[q] = c;
      head_[q] = 0;
    }
    std::array<std::unique_ptr<std::uint32_t[]>, 2> buf_{};
    std::array<std::uint32_t, 2> cap_{}, head_{}, n_{};
  };
  static constexpr std::size_t ctl_q = 0;   // the control queue
  static constexpr std::size_t data_q = 1;  // the data queue
  // A port; what every packet through it reads and writes comes first (one cache line), then
  // its two queues and its packet counter (the next), then the counters read only at the end
  // (tx_bytes, tx_packets and max_queue of `stats` are filled from the hot fields when read:
  // sync_stats).
  struct alignas(64) port_state {
    node_id peer = 0;
    bool paused = false;      // PFC: the downstream neighbour paused this port's data
    bool tx_pending = false;  // a tx_done event is in the queue (at busy_until, busy_order)
    std::uint16_t rate_index = no_rate;  // link.rate's index in rates_ (set by route())
    link_spec link{};
    bytes q_bytes{};
    std::uint64_t tx_total = 0;  // bytes transmitted: INT's tx-bytes counter, stats.tx_bytes
    // The end of the last transmission (ns); with busy_order, the (time, order) of the event
    // that ends it (see link_free).
    std::int64_t busy_until = std::numeric_limits<std::int64_t>::min();
    bytes max_q{};  // largest occupancy: stats.max_queue
    port_queues q{};
    std::uint64_t tx_count = 0;  // packets transmitted: stats.tx_packets
    // The last serialisation time computed here for a control packet ([0]) and a data packet
    // ([1]), and the sizes they were for (0: none): most packets are one of two sizes, so the
    // 128-bit division of bytes / bit_rate is rare.
    std::array<std::uint16_t, 2> ser_size{}, ser_ns{};
    std::uint64_t busy_order = 0;
    mutable port_stats stats{};
    std::uint32_t peer_port = 0;  // the peer's port of this link (read for PFC peers only)
    double dt_alpha = -1;         // Dynamic Thresholds alpha of this queue (< 0: the switch's)
    bolt_port_state bolt{};       // Bolt PRU / supply registers of this egress port
    bytes ingress_bytes{};        // PFC: data bytes queued in this node that arrived here
    pfc_port_state pfc{};         // PFC: this ingress port has paused its upstream neighbour
    timestamp paused_since{};
  };
  // A node; what a host's scheduler reads (kick_host) comes first, in one cache line.
  struct alignas(64) node_state {
    // Flows sent from this host that may still send (started and not finished), by id; the
    // scheduler looks at these only.
    std::vector<flow_id> active{};
    std::vector<port_state> ports{};
    flow_id rr = 0;  // round-robin: the scan starts at the first active flow with id >= rr
    bool host = false;
    bool wakeup_pending = false;
    timestamp wakeup_at = timestamp::max();
    switch_config sw{};
    bytes held{};                  // shared buffer: the bytes its egress queues hold together
    std::uint32_t sw_index = 0;    // switches: row of the route table
    std::uint32_t edge_index = 0;  // switches with hosts: column of the route table (else none)
    std::vector<fasttune_flow_state> fasttune{};  // FastTune NewACK, by flow id
  };
  // What every packet through a node reads of it, compact (16 B a node, so the table of a
  // 1024-host fat-tree stays in the cache): its ports, its route-table row and its switch
  // features as flags. Built by route() (after any change to the topology).
  enum hot_flag : std::uint8_t {
    f_host = 1,
    f_int = 2,        // switch_config::int_push
    f_ecn_enq = 4,    // ecn, marking at enqueue
    f_ecn_deq = 8,    // ecn, marking at dequeue
    f_bolt = 16,      // bolt
    f_pfc = 32,       // pfc
    f_fasttune = 64,  // fasttune
    f_shared = 128,   // a shared buffer (Dynamic Thresholds)
  };
  struct node_hot {
    port_state* ports = nullptr;
    std::uint32_t sw_index = 0;
    std::uint8_t flags = 0;
  };
  // A packet's INT hop records in the network's INT pool (their count is the packet's
  // int_count): 32-B records at a 32-B alignment, so a switch's push writes within one line.
  // A packet's INT records as the engine keeps them: compact_int_hop, 16 B a record, so five
  // take 80 B instead of 160 B. A record out of its range (a queue past 4 GiB, a packet queued
  // over 4.29 s, a FastTune rewrite out of range) moves the packet's records to int_wide_ in
  // full (packet::int_wide).
  static constexpr std::uint16_t no_rate = compact_int_hop::no_rate;
  struct alignas(16) int_record_slots {
    static constexpr std::size_t max_hops = int_stack<>::max_hops;
    std::array<compact_int_hop, max_hops> hops;
  };
  struct alignas(32) int_hop_slots {
    std::array<int_hop, int_record_slots::max_hops> hops;
  };
  static_assert(sizeof(int_record_slots) == 16 * int_stack<>::max_hops);
  static_assert(sizeof(int_hop) == 32 && sizeof(int_hop_slots) == 32 * int_stack<>::max_hops);
  static constexpr std::uint32_t no_packet = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::uint32_t no_route = std::numeric_limits<std::uint32_t>::max();
  // A route table entry that names no list (the edge switch is unreachable from the switch).
  static constexpr std::uint16_t no_list = std::numeric_limits<std::uint16_t>::max();
  struct route_list {
    std::uint32_t offset, count;
    detail::invariant_divisor div;  // count's, for ecmp
  };
  // Where a packet to a host goes: its edge switch, the switch's port to it and the switch's
  // column in the route table (edge_index no_route: the host is unreachable from switches).
  struct destination {
    node_id edge = no_route;
    std::uint32_t port_at_edge = 0;
    std::uint32_t edge_index = no_route;
  };
  // A flow: its first line holds what the scheduler reads of each active flow of a host
  // (kick_host), the controller's outputs among them, so that looking at a flow that does not
  // send touches one line and not its controller.
  struct alignas(64) flow_state {
    bool active = false;
    bool from_factory = false;  // cc built at start by factory_, released at completion
    bool rto_pending = false;
    bool cc_sends = true;  // the controller consumes sends (sender_cc::consumes_send)
    node_id src = 0;
    bytes size{};
    sequence snd_nxt = 0, snd_una = 0;
    // The controller's window and pacing rate as of its last event (they change only when it
    // handles one: cc_changed()), and when the flow may send next (next_send(), recomputed when
    // the rate changes or a packet leaves).
    bytes cwnd{};
    bit_rate rate{};
    timestamp next_at{};
    std::unique_ptr<sender_cc> cc;
    timestamp stop = timestamp::max();
    node_id dst = 0;
    sequence high_sent = 0;
    sequence rcv_nxt = 0;
    // Pacing: the last packet left at pace_base and was pace_size long; the next may leave at
    // pace_base + pace_size / (the controller's rate now). The gap is re-timed whenever the rate
    // changes, as a NIC's rate limiter does (and HPCC's ns-3 RDMA model, RdmaHw::ChangeRate):
    // a packet sent at a rate floor (DCQCN's 1 Mbps: 12 ms per packet) must not block the flow
    // for its whole gap after the rate has recovered.
    timestamp pace_base{};
    bytes pace_size{};
    timestamp rto_deadline = timestamp::max();
    dcqcn_np_flow_state np{};  // receiver's DCQCN notification point
    std::vector<std::pair<timestamp, bytes>> writes{};
    std::uint32_t tick_gen = 0;  // ticks of an earlier active period are ignored
    // Receiver: in-order packets whose ACK is held (ack_every > 1).
    std::uint32_t held = 0;
    std::uint32_t delack_gen = 0;
    bool held_ce = false, held_inc = false;
    bytes held_bytes{};
    // The latest held data packet, kept in the pool to become the held ACK: its INT, send
    // time and flags are reflected in place, as an ACK sent at once reflects its packet's.
    std::uint32_t held_pkt = no_packet;
    flow_stats stats{};
  };

  node_id add_node(bool host, switch_config sc) {
    nodes_.push_back(node_state{.host = host, .sw = sc});
    routed_ = false;
    return static_cast<node_id>(nodes_.size() - 1);
  }

  // The port's statistics with the counters kept in its hot fields filled in.
  static const port_stats& sync_stats(const port_state& p) noexcept {
    p.stats.tx_bytes = p.tx_total;
    p.stats.tx_packets = p.tx_count;
    p.stats.max_queue = p.max_q;
    return p.stats;
  }

  [[nodiscard]] std::uint32_t port_toward(node_id n, node_id peer) const {
    for (std::uint32_t i = 0; i < nodes_[n].ports.size(); ++i)
      if (nodes_[n].ports[i].peer == peer) return i;
    return 0;
  }

  // Routes. A host has one link, to its edge switch; packets are routed toward the destination
  // host's edge switch, so a switch keeps one entry per edge switch, not per node: a two-byte
  // id of its list of equal-cost ports, the lists deduplicated across switches (their ports are
  // local indices: a fat-tree ToR has one list, "every uplink", for every remote ToR, and every
  // ToR the same one). Breadth-first search from each edge switch over the switches gives hop
  // distances; a switch's next ports toward it are the ports whose peer is a switch one hop
  // closer (the ports in increasing order, as ECMP hashes over them). At the edge switch itself
  // the port is the host's link. Hosts keep no table (they never forward).
  //
  // State: (switches x edge switches) two-byte entries plus the distinct lists, e.g. 1.3 MB for
  // a 16,384-host fat-tree (1280 switches x 512 ToRs), against nodes^2 lists before; 80 KB for
  // a 1024-host one, which stays in a core's cache. Over 65,535 distinct lists (no topology
  // of this engine's size has them) is refused with std::length_error.
  void route() {
    memo_ = {};  // ports chosen under the routes before
    const std::size_t n = nodes_.size();
    std::vector<node_id> edges;
    std::uint32_t switches = 0;
    for (node_id u = 0; u < n; ++u) {
      node_state& nd = nodes_[u];
      nd.edge_index = no_route;
      if (!nd.host) nd.sw_index = switches++;
    }
    for (node_id u = 0; u < n; ++u) {
      const node_state& nd = nodes_[u];
      if (!nd.host || nd.ports.empty()) continue;
      node_state& e = nodes_[nd.ports[0].peer];
      if (e.host || e.edge_index != no_route) continue;
      e.edge_index = static_cast<std::uint32_t>(edges.size());
      edges.push_back(nd.ports[0].peer);
    }
    n_edges_ = static_cast<std::uint32_t>(edges.size());
    dest_.assign(n, destination{});
    for (node_id u = 0; u < n; ++u) {
      const node_state& nd = nodes_[u];
      if (!nd.host || nd.ports.empty() || nodes_[nd.ports[0].peer].host) continue;
      dest_[u] = {nd.ports[0].peer, nd.ports[0].peer_port, nodes_[nd.ports[0].peer].edge_index};
    }
    route_table_.assign(std::size_t{switches} * n_edges_, no_list);
    route_lists_.clear();
    route_ports_.clear();
    std::vector<std::uint32_t> dist(n, no_route);
    std::vector<node_id> frontier;
    std::vector<std::uint32_t> list;
    // The distinct lists (ports -> list id).
    std::map<std::vector<std::uint32_t>, std::uint16_t> known;
    for (std::uint32_t ei = 0; ei < n_edges_; ++ei) {
      const node_id e = edges[ei];
      frontier.assign(1, e);
      dist[e] = 0;
      for (std::size_t i = 0; i < frontier.size(); ++i) {
        const node_id u = frontier[i];
        for (const auto& p : nodes_[u].ports) {
          if (nodes_[p.peer].host || dist[p.peer] != no_route) continue;
          dist[p.peer] = dist[u] + 1;
          frontier.push_back(p.peer);
        }
      }
      for (const node_id u : frontier) {
        if (u == e) continue;
        list.clear();
        const auto& ports = nodes_[u].ports;
        for (std::uint32_t i = 0; i < ports.size(); ++i)
          if (!nodes_[ports[i].peer].host && dist[ports[i].peer] + 1 == dist[u]) list.push_back(i);
        auto it = known.find(list);
        if (it == known.end()) {
          if (route_lists_.size() >= no_list)
            throw std::length_error(
                "netcc::testbench: routes: over 65535 distinct lists of equal-cost ports (the "
                "route table's entries are 16-bit)");
          it = known.emplace(list, static_cast<std::uint16_t>(route_lists_.size())).first;
          route_lists_.push_back({static_cast<std::uint32_t>(route_ports_.size()),
                                  static_cast<std::uint32_t>(list.size()),
                                  detail::invariant_divisor{list.size()}});
          route_ports_.insert(route_ports_.end(), list.begin(), list.end());
        }
        route_table_[std::size_t{nodes_[u].sw_index} * n_edges_ + ei] = it->second;
      }
      for (const node_id u : frontier) dist[u] = no_route;
    }
    hot_.assign(n, node_hot{});
    for (node_id u = 0; u < n; ++u) {
      node_state& nd = nodes_[u];
      node_hot& h = hot_[u];
      h.ports = nd.ports.data();
      h.sw_index = nd.sw_index;
      for (port_state& p : nd.ports) p.rate_index = rate_index(p.link.rate);
      if (nd.host) {
        h.flags = f_host;
        continue;
      }
      const switch_config& c = nd.sw;
      h.flags = static_cast<std::uint8_t>(
          (c.int_push ? f_int : 0) | (c.ecn && !c.ecn_at_dequeue ? f_ecn_enq : 0) |
          (c.ecn && c.ecn_at_dequeue ? f_ecn_deq : 0) | (c.bolt ? f_bolt : 0) |
          (c.pfc ? f_pfc : 0) | (c.fasttune ? f_fasttune : 0) |
          (c.shared_buffer > bytes{0} ? f_shared : 0));
    }
    routed_ = true;
    static_bytes_ =
        hot_.capacity() * sizeof(node_hot) + flows_.capacity() * bytes_per_flow() +
        nodes_.capacity() * bytes_per_node() + route_table_.capacity() * sizeof(std::uint16_t) +
        dest_.capacity() * sizeof(destination) + route_lists_.capacity() * sizeof(route_list) +
        route_ports_.capacity() * sizeof(std::uint32_t);
    for (const auto& f : flows_) static_bytes_ += f.writes.capacity() * bytes_per_write();
    for (const auto& nd : nodes_)
      static_bytes_ += nd.ports.capacity() * bytes_per_port() + nd.active.capacity() * 4;
  }

  // The equal-cost ports of switch `n` toward host `dst` (empty: unreachable).
  struct port_choices {
    const std::uint32_t* ports = nullptr;
    std::uint32_t count = 0;
    const detail::invariant_divisor* div = nullptr;  // by count (none for one port)
  };
  [[nodiscard, gnu::always_inline]] port_choices choices(node_id n, node_id dst) const noexcept {
    const destination& d = dest_[dst];  // compact: no visit to the host's own state
    if (d.edge == n) return {&d.port_at_edge, 1};
    if (d.edge_index == no_route) return {};
    const std::uint16_t id = route_table_[std::size_t{hot_[n].sw_index} * n_edges_ + d.edge_index];
    if (id == no_list) return {};
    const route_list& r = route_lists_[id];
    return {route_ports_.data() + r.offset, r.count, &r.div};
  }

  // An event at `t` (not before now: the queue needs keys that never decrease).
  void schedule(timestamp t, ev k, std::uint32_t a, std::uint32_t b) {
    push_event(make_event(std::max(t, now_).count(), order_++, a, b, k));
  }
  void push_event(const event& e) { queue_.push(e); }

  std::uint32_t alloc_packet() {
    if (free_.empty()) {
      pool_.emplace_back();
      return static_cast<std::uint32_t>(pool_.size() - 1);
    }
    const std::uint32_t i = free_.back();
    free_.pop_back();
    pool_[i] = packet{};
    return i;
  }
  // The slot goes back to the pool (its INT slot, the same index, with it).
  void release_slot(std::uint32_t i) { free_.push_back(i); }
  void free_packet(std::uint32_t i) {
    in_network_ -= static_cast<std::uint64_t>(pool_[i].size.count());
    release_slot(i);
  }
  // INT records of packet `i` live at `i` in a pool beside the packets' (grown to the packet
  // pool's capacity when a packet first carries INT), their count in the packet: an event's INT
  // records can be prefetched with its packet from the index alone, and a switch's push writes
  // one 16-B record within one line.
  //
  // The records are kept compact and exact (compact_int_hop), relative to the packet's send
  // time (sent_at, which a packet keeps from its first push to its last read: an ACK echoes
  // it) and with the link rate as an index into the table of the rates the network has seen
  // (rates_). A record out of that range moves the packet's records to the full-width store
  // (int_wide_, packet::int_wide).

  // The index of rate `r` in rates_, appended if new (no_rate when the table is full).
  std::uint16_t rate_index(bit_rate r) {
    for (std::size_t k = 0; k < rates_.size(); ++k)
      if (rates_[k] == r) return static_cast<std::uint16_t>(k);
    if (rates_.size() >= no_rate) return no_rate;
    rates_.push_back(r);
    return static_cast<std::uint16_t>(rates_.size() - 1);
  }
  // The hop record `r` of a packet sent at `sent` holds.
  [[nodiscard]] int_hop decode_int(const compact_int_hop& r, timestamp sent) const noexcept {
    return r.decode(sent, rates_[r.rate_index()]);
  }
  // Append hop record `h` (its rate at index `ri` of rates_, or no_rate) to packet `i`'s
  // (int_stack's rule: refused when full).
  void push_int(std::uint32_t i, const int_hop& h, std::uint16_t ri) {
    packet& pk = pool_[i];
    if (pk.int_count >= int_record_slots::max_hops) return;
    if (!pk.int_wide) {
      if (int_pool_.size() <= i) int_pool_.resize(pool_.capacity());
      if (compact_int_hop::encode(h, ri, pk.sent_at, int_pool_[i].hops[pk.int_count])) {
        ++pk.int_count;
        return;
      }
      widen_int(i);
    }
    int_wide_[i].hops[pk.int_count++] = h;
  }
  // Packet `i`'s records moved to the full-width store.
  void widen_int(std::uint32_t i) {
    packet& pk = pool_[i];
    if (int_wide_.size() <= i) int_wide_.resize(pool_.capacity());
    for (std::size_t k = 0; k < pk.int_count; ++k)
      int_wide_[i].hops[k] = decode_int(int_pool_[i].hops[k], pk.sent_at);
    pk.int_wide = true;
  }
  // Packet `i`'s INT records replaced by `s`'s (its sent_at already set).
  void set_int(std::uint32_t i, const int_stack<>& s) {
    pool_[i].int_count = 0;
    pool_[i].int_wide = false;
    for (std::size_t k = 0; k < s.size(); ++k) push_int(i, s[k], rate_index(s[k].link_rate));
  }
  // A copy of packet `i`'s INT records (none if it carries none).
  [[nodiscard]] int_stack<> int_copy(std::uint32_t i) const {
    int_stack<> s;
    const packet& pk = pool_[i];
    const std::size_t n = pk.int_count;
    if (pk.int_wide) {
      for (std::size_t k = 0; k < n; ++k) s.hops[k] = int_wide_[i].hops[k];
    } else {
      for (std::size_t k = 0; k < n; ++k) s.hops[k] = decode_int(int_pool_[i].hops[k], pk.sent_at);
    }
    s.count = static_cast<std::uint8_t>(n);
    return s;
  }
  // A packet leaves the network at its destination host.
  void deliver(std::uint32_t i) {
    delivered_ += static_cast<std::uint64_t>(pool_[i].size.count());
    free_packet(i);
  }
  // A new packet enters the network at a host.
  void inject(std::uint32_t i) {
    const auto b = static_cast<std::uint64_t>(pool_[i].size.count());
    injected_ += b;
    in_network_ += b;
  }

  // Start loading what event `e` will touch first while the current one runs (the packet of an
  // arrival, the port of a finished transmission): at a thousand hosts these are cache misses
  // that dominate the run. A hint only: it changes no state.
  //
  // The prefetch stages are always inlined into run_until. A stage left out of line is a call
  // to a function without side effects (a prefetch is none, for the compiler), and g++ -O2/-O3
  // deletes such a call whose result is unused: out of line, the stages compile to nothing.
  [[gnu::always_inline]] void prefetch(const event& e) const noexcept {
    if (e.kind() == ev::arrive) {
      __builtin_prefetch(&pool_[e.b]);
    } else if (e.kind() == ev::tx_done) {
      __builtin_prefetch(&hot_[e.a].ports[e.b]);
    }
  }
  // The second stage, prefetch_mid events ahead (its packet or port loaded by the first): an
  // arrival at a switch loads its egress port and, for INT, the line of the record it will push
  // (its other records wait for the ACK); at a host, its flow and, for an ACK, the records it
  // hands to the controller. A finished transmission loads the queue slot that names the
  // packet it sends next.
  [[gnu::always_inline]] void prefetch_next(const event& e) const noexcept {
    if (e.kind() == ev::arrive) {
      const packet& pk = pool_[e.b];
      const std::uint8_t flags = hot_[e.a].flags;
      if ((flags & f_host) != 0) {
        __builtin_prefetch(&flows_[pk.flow]);  // its first line: what the sender reads
        if (pk.kind != packet_kind::data && pk.int_count != 0 && e.b < int_pool_.size()) {
          // an ACK (or S-ACK) hands its records to the sender's controller
          const auto* r = reinterpret_cast<const char*>(&int_pool_[e.b]);
          const std::size_t used = std::size_t{pk.int_count} * sizeof(compact_int_hop);
          for (std::size_t b = 0; b < used; b += 64) __builtin_prefetch(r + b);
          __builtin_prefetch(r + used - 1);
        }
        return;
      }
      const port_choices c = choices(e.a, pk.dst);
      if (c.count == 0) return;
      const std::uint32_t pi = ecmp(e.a, c, pk.flow);
      memo_[memo_slot(e.order_kind)] = {e.order_kind, pi};
      const port_state& p = hot_[e.a].ports[pi];
      __builtin_prefetch(&p);
      __builtin_prefetch(reinterpret_cast<const char*>(&p) + 64);
      if ((flags & f_int) != 0 && pk.kind == packet_kind::data &&
          pk.int_count < int_record_slots::max_hops && e.b < int_pool_.size())
        __builtin_prefetch(&int_pool_[e.b].hops[pk.int_count], 1);  // the record it will push
    } else if (e.kind() == ev::tx_done) {
      if (const std::uint32_t* f = next_to_send(hot_[e.a].ports[e.b]); f != nullptr)
        __builtin_prefetch(f);
    }
  }
  // The third stage, for the next event (its packet, port and flow loaded by the first two):
  // an arrival at a switch loads the slot of the egress queue it may join, an ACK at its
  // sender the sender's controller, a finished transmission the packet it sends next and its
  // INT records.
  [[gnu::always_inline]] void prefetch_last(const event& e) const noexcept {
    if (e.kind() == ev::tx_done) {
      if (const std::uint32_t* f = next_to_send(hot_[e.a].ports[e.b]); f != nullptr) {
        __builtin_prefetch(&pool_[*f]);
        prefetch_int(*f);
      }
      return;
    }
    if (e.kind() != ev::arrive) return;
    const packet& pk = pool_[e.b];
    if ((hot_[e.a].flags & f_host) != 0) {
      if (pk.kind != packet_kind::ack) return;
      const sender_cc* cc = flows_[pk.flow].cc.get();
      if (cc == nullptr) return;
      const auto* c = reinterpret_cast<const char*>(cc);
      __builtin_prefetch(c);
      __builtin_prefetch(c + 64);
      return;
    }
    std::uint32_t pi = 0;
    if (!egress_port(e.a, e.order_kind, pk, pi)) return;
    const port_state& p = hot_[e.a].ports[pi];
    if (const std::uint32_t* t = p.q.tail(pk.control ? ctl_q : data_q); t != nullptr)
      __builtin_prefetch(t, 1);
  }
  // Where the index of the packet port `p` sends next is held (its control queue's first, else
  // its data queue's; null if both are empty), read by the stage after the one that loads it.
  [[gnu::always_inline]] static const std::uint32_t* next_to_send(const port_state& p) noexcept {
    const std::size_t q = p.q.empty(ctl_q) ? data_q : ctl_q;
    return p.q.empty(q) ? nullptr : p.q.head(q);
  }
  // The INT slot of packet `i`, if the pool has one (whether or not the packet carries INT).
  [[gnu::always_inline]] void prefetch_int(std::uint32_t i) const noexcept {
    if (i >= int_pool_.size()) return;
    const auto* r = reinterpret_cast<const char*>(&int_pool_[i]);
    for (std::size_t b = 0; b < sizeof(int_record_slots); b += 64) __builtin_prefetch(r + b);
    __builtin_prefetch(r + sizeof(int_record_slots) - 1);
  }

  void dispatch(const event& e) {
    switch (e.kind()) {
      case ev::tx_done:
        on_tx_done(e.a, e.b);
        break;
      case ev::arrive:
        on_arrive(e.a, e.b);
        break;
      case ev::flow_start:
        on_flow_start(e.a);
        break;
      case ev::flow_wakeup:
        nodes_[e.a].wakeup_pending = false;
        kick_host(e.a);
        break;
      case ev::rto:
        on_rto(e.a);
        break;
      case ev::sample:
        on_sample();
        break;
      case ev::tick:
        on_tick(e.a, e.b);
        break;
      case ev::pfc_pause:
      case ev::pfc_resume:
        on_pfc(e.a, e.b, e.kind() == ev::pfc_pause);
        break;
      case ev::app_write:
        on_app_write(e.a, e.b);
        break;
      case ev::delayed_ack:
        on_delayed_ack(e.a, e.b);
        break;
      case ev::scheduled_cnp:
        send_cnp(flows_[e.a].dst, e.a);
        break;
    }
  }

  // ---- ports
  void enqueue(node_id n, std::uint32_t pi, std::uint32_t pkt_index) {
    const std::uint8_t flags = hot_[n].flags;
    port_state& p = hot_[n].ports[pi];  // ports stay put during a run (the pool may grow)
    packet& pk = pool_[pkt_index];
    if ((flags & f_shared) != 0 ? !admits_shared(nodes_[n], p, pk.size)
                                : p.q_bytes + pk.size > p.link.buffer) {
      ++p.stats.drops;
      dropped_ += static_cast<std::uint64_t>(pk.size.count());
      free_packet(pkt_index);
      return;
    }
    if ((flags & f_ecn_enq) != 0 && pk.kind == packet_kind::data && pk.ect)
      maybe_mark(nodes_[n].sw, p, pk);
    if ((flags & f_bolt) != 0 && pk.kind == packet_kind::data) bolt_ingress_at(n, pi, pkt_index);
    const packet& queued = pool_[pkt_index];  // bolt_ingress_at may have grown the pool
    p.q_bytes += queued.size;
    if ((flags & f_shared) != 0) nodes_[n].held += queued.size;
    p.max_q = std::max(p.max_q, p.q_bytes);
    const bool ctl = queued.control;
    if ((flags & f_pfc) != 0 && !ctl) pfc_account(n, queued.in_port, queued.size);
    if (link_free(p) && p.q.empty(ctl_q) && p.q.empty(data_q) && (ctl || !p.paused)) {
      // The packet would be the only one queued and go at once: it skips the queue's ring.
      transmit(n, pi, pkt_index);
      return;
    }
    p.q.push(ctl ? ctl_q : data_q, pkt_index);
    if (link_free(p)) {
      start_tx(n, pi);
    } else {
      due_tx_done(n, pi);
    }
  }

  // Whether port `p`'s link is free at the event being handled: its last transmission ends
  // before it in (time, order), i.e. that transmission's tx_done (in the queue, or the one it
  // would have) has been handled, as if every transmission had its event.
  [[nodiscard]] bool link_free(const port_state& p) const noexcept {
    return now_.count() > p.busy_until ||
           (now_.count() == p.busy_until && cur_order_ >= p.busy_order);
  }
  // The link of port `pi` of `n` is busy: if a packet may go and no tx_done is in the queue,
  // put it there, at the (time, order) the transmission's own event has.
  void due_tx_done(node_id n, std::uint32_t pi) {
    port_state& p = hot_[n].ports[pi];
    if (p.tx_pending || !sendable(p)) return;
    p.tx_pending = true;
    queue_.push_ordered(event{p.busy_until, p.busy_order, n, pi});
  }

  // Whether port `p` has a packet it may send (PFC pauses data, not control).
  [[nodiscard]] static bool sendable(const port_state& p) noexcept {
    return !p.q.empty(ctl_q) || (!p.q.empty(data_q) && !p.paused);
  }

  // Buffer admission: the port's own buffer (enqueue), or the switch's shared buffer under
  // Dynamic Thresholds (Choudhury-Hahne 1998, Eq. 1: T(t) = alpha (B - Q(t)); a queue may grow
  // while it is below T: here, while it stays at or below T after the packet joins).
  [[nodiscard]] static bool admits_shared(const node_state& nd, const port_state& p,
                                          bytes size) noexcept {
    const bytes b = nd.sw.shared_buffer;
    if (nd.held + size > b) return false;
    const double alpha = p.dt_alpha >= 0 ? p.dt_alpha : nd.sw.dt_alpha;
    const double threshold = alpha * static_cast<double>((b - nd.held).count());
    return static_cast<double>((p.q_bytes + size).count()) <= threshold;
  }

  // PFC at ingress port `in` of switch `n`: `delta` data bytes joined (> 0) or left (< 0) the
  // switch's queues; a crossing of X_off / X_on sends a pause / resume to the upstream port,
  // which acts one propagation delay later (a MAC control frame, not queued behind data).
  void pfc_account(node_id n, std::uint32_t in, bytes delta) {
    port_state& ip = nodes_[n].ports[in];
    ip.ingress_bytes += delta;
    const pfc_action a =
        pfc_on_backlog(ip.pfc, ip.ingress_bytes, ip.link.rate, nodes_[n].sw.pfc_cfg);
    if (a == pfc_action::none) return;
    if (a == pfc_action::pause) ++ip.stats.pauses;
    schedule(now_ + ip.link.delay, a == pfc_action::pause ? ev::pfc_pause : ev::pfc_resume, ip.peer,
             ip.peer_port);
  }

  void on_pfc(node_id n, std::uint32_t pi, bool pause) {
    port_state& p = nodes_[n].ports[pi];
    if (pause == p.paused) return;
    p.paused = pause;
    if (pause) {
      p.paused_since = now_;
      return;
    }
    p.stats.paused_time += now_ - p.paused_since;
    if (!link_free(p)) {
      due_tx_done(n, pi);
      return;
    }
    start_tx(n, pi);
    if (link_free(p) && nodes_[n].host) kick_host(n);
  }

  // Bolt Algorithm 1 at the ingress of egress port `pi`: the data packet's INC/DEC change in
  // place; an SRC (a trimmed mirror, §4.1) goes back to the sender at control priority.
  void bolt_ingress_at(node_id n, std::uint32_t pi, std::uint32_t pkt_index) {
    const switch_config& sw = nodes_[n].sw;
    port_state& p = nodes_[n].ports[pi];
    packet& pk = pool_[pkt_index];
    bolt_header h{.data = true,
                  .last = pk.last,
                  .first = pk.first,
                  .inc = pk.inc,
                  .dec = pk.dec,
                  .t_data_tx = static_cast<std::uint32_t>(pk.sent_at.count())};
    const bolt_ingress_result r = bolt_ingress(
        p.bolt, h, pk.size, {.q_size = p.q_bytes, .link_rate = p.link.rate}, now_, sw.bolt_cfg);
    pk.inc = h.inc;
    pk.dec = h.dec;
    if (!r.send_src) return;
    ++p.stats.srcs;
    const flow_id fid = pk.flow;
    const node_id sender = pk.src;
    const std::uint32_t c = alloc_packet();  // may grow the pool: no reference held past here
    packet& s = pool_[c];
    s.kind = packet_kind::src;
    s.control = true;
    s.flow = fid;
    s.src = n;
    s.dst = sender;
    s.size = cfg_.control_size;
    s.set_src_report(bolt_decode_q_size(r.src.q_size),
                     bolt_decode_link_rate(r.src.link_rate, sw.bolt_cfg.link_rate_unit),
                     r.src.t_data_tx);
    inject(c);
    forward_from_switch(n, c);
  }

  // A packet a switch creates (SRC): routed like any arriving packet.
  void forward_from_switch(node_id n, std::uint32_t idx) {
    const port_choices choices = this->choices(n, pool_[idx].dst);
    if (choices.count == 0) {
      dropped_ += static_cast<std::uint64_t>(pool_[idx].size.count());
      free_packet(idx);
      return;
    }
    enqueue(n, ecmp(n, choices, pool_[idx].flow), idx);
  }

  // RED/ECN at enqueue through netcc::red_ecn_on_packet (ECT data only, so never a drop).
  void maybe_mark(const switch_config& sw, port_state& p, packet& pk) {
    const red_ecn_params red{
        .k_min = sw.ecn_kmin,
        .k_max = sw.ecn_kmax,
        .p_max = red_probability::from_ratio(
            static_cast<std::uint64_t>(std::llround(std::clamp(sw.ecn_pmax, 0.0, 1.0) * 0x1p32)),
            red_probability::one_raw)};
    const auto draw = static_cast<std::uint32_t>(rng_() >> 32);  // a uniform 32-bit draw
    const red_decision d = red_ecn_on_packet(ecn_codepoint::ect0, p.q_bytes, draw, red);
    if (d.action == red_action::mark) {
      pk.ce = true;
      ++p.stats.ecn_marks;
    }
  }

  // Transmit the next packet of port `pi` of `n` (the link is free now). Its arrival at the
  // peer is scheduled at once (the end of its serialisation plus the link's delay), and the
  // port remembers the (time, order) at which its link frees (busy_until, busy_order): the
  // tx_done event that starts the next packet is put in the queue only when a packet waits
  // (now, or when one joins or PFC resumes the data queue before the link frees: enqueue,
  // on_pfc, due_tx_done), and always at a host, whose senders are pulled when its NIC frees.
  // The arrival takes the order of the tx_done that scheduled it before (the order reserved
  // here, its kind after tx_done's), and the tx_done, whenever it is queued, the order it had
  // when it was queued here: so a packet that finds the link free starts at once, and a hop
  // through an idle switch port is one event (the arrival), not two.
  void start_tx(node_id n, std::uint32_t pi) {
    port_state& p = hot_[n].ports[pi];
    if (!sendable(p)) return;
    transmit(n, pi, p.q.empty(ctl_q) ? p.q.pop(data_q) : p.q.pop(ctl_q));
  }
  // Packet `idx`, counted in the queue's bytes but out of its ring, starts on port `pi` of `n`.
  void transmit(node_id n, std::uint32_t pi, std::uint32_t idx) {
    const std::uint8_t flags = hot_[n].flags;
    port_state& p = hot_[n].ports[pi];
    packet& pk = pool_[idx];
    p.q_bytes -= pk.size;
    if ((flags & f_shared) != 0) nodes_[n].held -= pk.size;
    if ((flags & f_pfc) != 0 && !pk.control) pfc_account(n, pk.in_port, -pk.size);
    if ((flags & f_ecn_deq) != 0 && pk.kind == packet_kind::data && pk.ect)
      maybe_mark(nodes_[n].sw, p, pk);
    p.tx_total += static_cast<std::uint64_t>(pk.size.count());
    ++p.tx_count;
    ++hops_;
    if ((flags & f_int) != 0 && pk.kind == packet_kind::data) {
      // HPCC/PowerTCP INT at dequeue: queue length, timestamp, tx bytes, link rate.
      push_int(idx,
               {.ts = static_cast<std::uint64_t>(now_.count()),
                .qlen = p.q_bytes,
                .tx_bytes = p.tx_total,
                .link_rate = p.link.rate},
               p.rate_index);
    }
    const std::int64_t end = now_.count() + serialisation(p, pk.size, pk.control ? 0 : 1).count();
    const std::uint64_t order = order_++;
    p.busy_until = end;
    p.busy_order = order << 8 | static_cast<std::uint64_t>(ev::tx_done);
    const node_id peer = p.peer;
    // The port it arrives on at the peer, for PFC's per-ingress accounting there.
    if ((hot_[peer].flags & f_pfc) != 0) pk.in_port = p.peer_port;
    if ((flags & f_host) != 0 || sendable(p)) {
      p.tx_pending = true;
      push_event(event{end, p.busy_order, n, pi});
    }
    push_event(make_event(end + p.link.delay.count(), order, peer, idx, ev::arrive));
  }

  // The time `size` bytes take on port `p`'s link: size / rate, remembered for the last size
  // of each class `k` (0: control, 1: data).
  static duration serialisation(port_state& p, bytes size, std::size_t k) noexcept {
    if (size.count() == p.ser_size[k] && p.ser_size[k] != 0) return duration{p.ser_ns[k]};
    const duration d = size / p.link.rate;
    constexpr std::int64_t most = std::numeric_limits<std::uint16_t>::max();
    if (size.count() > 0 && size.count() <= most && d.count() >= 0 && d.count() <= most) {
      p.ser_size[k] = static_cast<std::uint16_t>(size.count());
      p.ser_ns[k] = static_cast<std::uint16_t>(d.count());
    }
    return d;
  }

  // The link of port `pi` of `n` frees: the next packet starts, or a host pulls its senders.
  void on_tx_done(node_id n, std::uint32_t pi) {
    port_state& p = hot_[n].ports[pi];
    p.tx_pending = false;
    if (!p.q.empty(ctl_q) || !p.q.empty(data_q)) {
      start_tx(n, pi);
    } else if ((hot_[n].flags & f_host) != 0) {
      kick_host(n);
    }
  }

  void on_arrive(node_id n, std::uint32_t idx) {
    packet& pk = pool_[idx];
    if ((hot_[n].flags & f_host) == 0) {
      std::uint32_t pi = 0;
      if (!egress_port(n, cur_order_, pk, pi)) {  // unreachable: a drop at the first port
        if (!nodes_[n].ports.empty()) ++nodes_[n].ports[0].stats.drops;
        dropped_ += static_cast<std::uint64_t>(pk.size.count());
        free_packet(idx);
        return;
      }
      if ((hot_[n].flags & f_fasttune) != 0) fasttune_at(n, pi, idx);
      enqueue(n, pi, idx);
      return;
    }
    if (pk.dst != n) {  // misrouted to a host: cannot happen with BFS routes
      dropped_ += static_cast<std::uint64_t>(pk.size.count());
      free_packet(idx);
      return;
    }
    switch (pk.kind) {
      case packet_kind::data:
        receive_data(n, idx);
        break;
      case packet_kind::ack:
        receive_ack(idx);
        break;
      case packet_kind::cnp: {
        flow_state& f = flows_[pk.flow];
        ++f.stats.cnps;
        if (f.cc) {
          f.cc->on_cnp(cnp_event{.now = now_});
          cc_changed(f);
        }
        deliver(idx);
        kick_host(f.src);
        break;
      }
      case packet_kind::src: {
        flow_state& f = flows_[pk.flow];
        if (f.cc) {
          f.cc->on_src(src_event{.now = now_,
                                 .queue = pk.src_queue(),
                                 .link_rate = pk.src_rate(),
                                 .tx_timestamp = pk.src_tx_ts()});
          cc_changed(f);
        }
        deliver(idx);
        kick_host(f.src);
        break;
      }
      case packet_kind::switch_ack:
        receive_switch_ack(idx);
        break;
    }
  }

  // A flow's egress port among equal-cost choices (deterministic hash of flow and node).
  // (The remainder by the list's invariant divisor: no division instruction on the path of
  // every packet through a switch.)
  [[nodiscard]] static std::uint32_t ecmp(node_id n, port_choices choices, flow_id f) noexcept {
    if (choices.count == 1) return choices.ports[0];
    const std::uint32_t h = f * 2654435761u ^ n;
    return choices.ports[h - choices.count * choices.div->div_floor64(h)];
  }
  // The egress ports the second prefetch stage chose for arrivals at switches, by the arrival
  // event's (order, kind) word, which no other event has: the third stage and the arrival
  // itself take the port from here instead of looking the route up again (a few entries,
  // overwritten as they go; a miss looks it up). The port is a function of the node, the
  // packet's destination and flow and the routes, which change only between runs (route()
  // clears the entries).
  struct port_memo {
    std::uint64_t order_kind = ~std::uint64_t{0};  // no event has it (orders are < 2^56)
    std::uint32_t port = 0;
  };
  static constexpr std::size_t memo_size = 8;  // a power of two
  [[nodiscard]] static std::size_t memo_slot(std::uint64_t order_kind) noexcept {
    return static_cast<std::size_t>(order_kind >> 8) & (memo_size - 1);
  }
  // The egress port of switch `n` for packet `pk` of the arrival event `order_kind`: the one
  // remembered, else the route's (false: `pk`'s destination is unreachable from `n`).
  [[nodiscard, gnu::always_inline]] bool egress_port(node_id n, std::uint64_t order_kind,
                                                     const packet& pk,
                                                     std::uint32_t& port) const noexcept {
    if (const port_memo& m = memo_[memo_slot(order_kind)]; m.order_kind == order_kind) {
      port = m.port;
      return true;
    }
    const port_choices c = choices(n, pk.dst);
    if (c.count == 0) return false;
    port = ecmp(n, c, pk.flow);
    return true;
  }

  // FastTune Algorithm 1 at switch `n` for a packet leaving through port `pi`. Data: the INT of
  // its egress port `pi` goes into an S-ACK while the flow's NewACK holds. ACK / S-ACK: the data
  // path's egress port is the one toward the ACK's source (the receiver), chosen as the flow's
  // data packets chose it; its INT is padded in and NewACK turns false.
  void fasttune_at(node_id n, std::uint32_t pi, std::uint32_t idx) {
    node_state& nd = nodes_[n];
    packet& pk = pool_[idx];
    if (nd.fasttune.size() <= pk.flow) {
      static_bytes_ -= nd.fasttune.capacity() * sizeof(fasttune_flow_state);
      nd.fasttune.resize(flows_.size());
      static_bytes_ += nd.fasttune.capacity() * sizeof(fasttune_flow_state);
    }
    fasttune_packet_kind kind = fasttune_packet_kind::other;
    std::uint32_t data_port = pi;
    if (pk.kind == packet_kind::data) {
      kind = fasttune_packet_kind::data;
    } else if (pk.kind == packet_kind::ack || pk.kind == packet_kind::switch_ack) {
      kind = pk.kind == packet_kind::ack ? fasttune_packet_kind::host_ack
                                         : fasttune_packet_kind::switch_ack;
      const port_choices toward_receiver = choices(n, flows_[pk.flow].dst);
      if (toward_receiver.count == 0) return;
      data_port = ecmp(n, toward_receiver, pk.flow);
    } else {
      return;
    }
    const port_state& dp = nd.ports[data_port];
    int_stack<> carried = int_copy(idx);
    const auto r =
        fasttune_switch(nd.fasttune[pk.flow], kind, carried,
                        {.qlen = dp.q_bytes, .tx_bytes = dp.tx_total, .link_rate = dp.link.rate},
                        now_, nd.sw.fasttune_cfg);
    set_int(idx, carried);
    if (!r.send_sack) return;
    const flow_id fid = pk.flow;
    const node_id sender = pk.src;
    const std::uint32_t c = alloc_packet();  // may grow the pool: `pk` is not used after this
    packet& sa = pool_[c];
    sa.kind = packet_kind::switch_ack;
    sa.control = true;
    sa.flow = fid;
    sa.src = n;
    sa.dst = sender;
    sa.size = cfg_.control_size;
    sa.sent_at = pool_[idx].sent_at;
    set_int(c, r.sack_int);
    ++nd.ports[pi].stats.sacks;
    inject(c);
    forward_from_switch(n, c);
  }

  // ---- receiver
  void receive_data(node_id n, std::uint32_t idx) {
    const packet& d = pool_[idx];
    const flow_id fid = d.flow;
    const bool ce = d.ce;
    flow_state& f = flows_[fid];
    bytes newly{};
    const sequence before = f.rcv_nxt;
    const bool in_order = d.seq == f.rcv_nxt;
    if (in_order) {
      f.rcv_nxt += static_cast<sequence>(d.payload.count());
      newly = d.payload;
    } else {
      ++out_of_order_;
    }
    // DCQCN NP (netcc::dcqcn_np_on_packet): a CNP for CE-marked data now, or scheduled at the
    // end of the minimum gap in the seed's spacing mode.
    const dcqcn_np_decision np =
        dcqcn_np_on_packet(f.np, ce, now_, {.interval = cfg_.cnp_interval, .mode = cfg_.cnp_mode});
    if (np.action == dcqcn_np_action::send_now) send_cnp(n, fid);
    if (np.action == dcqcn_np_action::schedule) schedule(np.at, ev::scheduled_cnp, fid, 0);
    if (cfg_.ack_every > 1) {
      // A change of CE mark first acknowledges the held packets with their own echo.
      if (f.held > 0 && (ce != f.held_ce || !in_order)) send_held_ack(n, fid, before);
      const bool ends_data =
          f.size > bytes{0} && f.rcv_nxt >= static_cast<sequence>(f.size.count());
      if (in_order && !ends_data && f.held + 1 < cfg_.ack_every) {
        if (f.held == 0) schedule(now_ + cfg_.ack_delay, ev::delayed_ack, fid, ++f.delack_gen);
        ++f.held;
        f.held_ce = ce;
        f.held_inc = f.held_inc || pool_[idx].inc;
        f.held_bytes += newly;
        // The packet has arrived (delivered), but its slot stays for the held ACK.
        delivered_ += static_cast<std::uint64_t>(pool_[idx].size.count());
        in_network_ -= static_cast<std::uint64_t>(pool_[idx].size.count());
        if (f.held_pkt != no_packet) release_slot(f.held_pkt);
        f.held_pkt = idx;
        return;
      }
      // This ACK covers the held packets too.
      newly += f.held_bytes;
      pool_[idx].inc = pool_[idx].inc || f.held_inc;
      clear_held(f);
    }
    // Reuse the data packet's slot for its ACK: INT and flags are reflected in place.
    delivered_ += static_cast<std::uint64_t>(pool_[idx].size.count());
    in_network_ -= static_cast<std::uint64_t>(pool_[idx].size.count());
    packet& a = pool_[idx];
    a.kind = packet_kind::ack;
    a.control = true;
    a.ecn_echo = a.ce;
    a.ce = false;
    a.dst = a.src;
    a.src = n;
    a.seq = f.rcv_nxt;
    a.payload = newly;
    a.size = cfg_.control_size;
    inject(idx);
    host_send_control(n, idx);
  }

  void host_send_control(node_id n, std::uint32_t idx) { enqueue(n, 0, idx); }

  // A CNP from receiver `n` to flow `fid`'s sender (alloc_packet may grow the pool: callers
  // hold no reference into it across this call).
  void send_cnp(node_id n, flow_id fid) {
    const std::uint32_t c = alloc_packet();
    packet& cp = pool_[c];
    cp.kind = packet_kind::cnp;
    cp.control = true;
    cp.flow = fid;
    cp.src = n;
    cp.dst = flows_[fid].src;
    cp.size = cfg_.control_size;
    inject(c);
    host_send_control(n, c);
  }

  void clear_held(flow_state& f) {
    f.held = 0;
    f.held_ce = false;
    f.held_inc = false;
    f.held_bytes = bytes{0};
    if (f.held_pkt != no_packet) release_slot(f.held_pkt);  // covered by a later ACK
    f.held_pkt = no_packet;
    ++f.delack_gen;  // cancels a pending delayed-ACK timer
  }

  // Acknowledge the held packets of flow `fid` up to `seq` from receiver `n`: the latest held
  // data packet's slot becomes the ACK, so it reflects that packet's INT and send time (an
  // INT controller adapts on every ACK, the delayed ones included).
  void send_held_ack(node_id n, flow_id fid, sequence seq) {
    flow_state& f = flows_[fid];
    const std::uint32_t c = f.held_pkt;
    f.held_pkt = no_packet;
    packet& a = pool_[c];
    a.kind = packet_kind::ack;
    a.control = true;
    a.dst = a.src;
    a.src = n;
    a.seq = seq;
    a.payload = f.held_bytes;
    a.ecn_echo = f.held_ce;
    a.ce = false;
    a.inc = f.held_inc;
    a.size = cfg_.control_size;
    clear_held(f);
    inject(c);
    host_send_control(n, c);
  }

  void on_delayed_ack(flow_id fid, std::uint32_t gen) {
    flow_state& f = flows_[fid];
    if (gen != f.delack_gen || f.held == 0) return;
    send_held_ack(f.dst, fid, f.rcv_nxt);
  }

  // ---- sender
  void make_controller(flow_id id) {
    flow_state& f = flows_[id];
    if (f.cc) return;
    if (!factory_)
      throw std::logic_error("netcc::testbench::network: flow " + std::to_string(id) +
                             " has no controller and no factory is set");
    f.cc = factory_(id);
    f.from_factory = true;
    f.cc_sends = f.cc->consumes_send();
  }

  // The controller's outputs the scheduler reads, after the controller handled an event or a
  // packet left (the only times they change: cwnd() and pacing_rate() are functions of the
  // controller's state).
  static void cc_changed(flow_state& f) {
    f.cwnd = f.cc->cwnd();
    f.rate = f.cc->pacing_rate();
    f.next_at = next_send(f);
  }

  void on_flow_start(flow_id id) {
    make_controller(id);
    flow_state& f = flows_[id];
    f.active = true;
    f.pace_base = now_;
    f.pace_size = bytes{0};
    cc_changed(f);
    activate(id);
    start_ticks(id);
    kick_host(f.src);
  }

  void start_ticks(flow_id id) {
    flow_state& f = flows_[id];
    ++f.tick_gen;
    if (const duration t = f.cc->tick_interval(); t > duration::zero())
      schedule(now_ + t, ev::tick, id, f.tick_gen);
  }

  void on_tick(flow_id id, std::uint32_t gen) {
    flow_state& f = flows_[id];
    if (!f.active || gen != f.tick_gen) return;
    f.cc->on_tick(now_);
    cc_changed(f);
    schedule(now_ + f.cc->tick_interval(), ev::tick, id, gen);
    kick_host(f.src);
  }

  // An application write: the flow has more to send; a completed flow becomes active again.
  void on_app_write(flow_id id, std::uint32_t w) {
    flow_state& f = flows_[id];
    f.size += f.writes[w].second;
    f.stats.size = f.size;
    if (f.stats.start > now_ || f.active) return;  // not started yet, or still sending
    make_controller(id);
    f.active = true;
    activate(id);
    f.stats.finish = timestamp::max();
    cc_changed(f);
    if (f.next_at < now_) {
      f.pace_base = now_;
      f.pace_size = bytes{0};
      f.next_at = next_send(f);
    }
    start_ticks(id);
    kick_host(f.src);
  }

  void receive_ack(std::uint32_t idx) {
    const packet& a = pool_[idx];
    const flow_id fid = a.flow;
    flow_state& f = flows_[fid];
    bytes newly{};
    if (a.seq > f.snd_una) {
      newly = bytes{static_cast<std::int64_t>(a.seq - f.snd_una)};
      f.snd_una = a.seq;
      f.stats.acked += newly;
      f.rto_deadline = now_ + cfg_.rto;
      if (f.snd_nxt < f.snd_una) f.snd_nxt = f.snd_una;
    }
    ack_event e{.now = now_,
                .ack_seq = a.seq,
                .snd_nxt = f.snd_nxt,
                .acked = newly,
                .rtt = rtt_sample(a.sent_at),
                .ecn_echo = a.ecn_echo,
                .inc = a.inc,
                .hops = int_copy(idx)};
    deliver(idx);
    if (!f.cc) return;  // a late ACK of a flow that completed and released its controller
    f.cc->on_ack(e);
    cc_changed(f);
    if (f.size > bytes{0} && f.snd_una >= static_cast<sequence>(f.size.count()) && f.active) {
      f.active = false;
      f.stats.finish = now_;
      deactivate(fid);
      // Nothing more to control: a finished flow keeps its statistics only.
      if (f.from_factory && f.writes.empty()) f.cc.reset();
    }
    kick_host(f.src);
  }

  // A FastTune S-ACK: INT of the path up to its switch; it acknowledges no data.
  void receive_switch_ack(std::uint32_t idx) {
    const packet& a = pool_[idx];
    flow_state& f = flows_[a.flow];
    ack_event e{.now = now_,
                .ack_seq = f.snd_una,
                .snd_nxt = f.snd_nxt,
                .rtt = rtt_sample(a.sent_at),
                .switch_ack = true,
                .hops = int_copy(idx)};
    deliver(idx);
    if (!f.active) return;
    f.cc->on_ack(e);
    cc_changed(f);
    kick_host(f.src);
  }

  // The RTT a controller measures for a packet sent at `sent`: the simulated one, plus
  // network_config's noise (uniform: 53 random bits scaled to [-w, w]; normal: Box-Muller on
  // two such draws, so the samples are the same with every standard library).
  [[nodiscard]] duration rtt_sample(timestamp sent) {
    const duration rtt = now_ - sent;
    if (cfg_.noise == rtt_noise::none || cfg_.rtt_noise_ns <= duration::zero()) return rtt;
    const auto unit = [this] { return static_cast<double>(noise_rng_() >> 11) * 0x1p-53; };
    const auto w = static_cast<double>(cfg_.rtt_noise_ns.count());
    double d = 0;
    if (cfg_.noise == rtt_noise::uniform) {
      d = (2 * unit() - 1) * w;
    } else {
      const double u1 = 1 - unit(), u2 = unit();  // u1 in (0, 1]
      d = std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2) * w;
    }
    const auto noisy = static_cast<double>(rtt.count()) + std::round(d);
    return duration{noisy < 1 ? 1 : static_cast<std::int64_t>(noisy)};
  }

  void on_rto(flow_id id) {
    flow_state& f = flows_[id];
    f.rto_pending = false;
    if (!f.active || f.snd_una >= f.snd_nxt) return;
    if (now_ < f.rto_deadline) {
      f.rto_pending = true;
      schedule(f.rto_deadline, ev::rto, id, 0);
      return;
    }
    ++f.stats.timeouts;
    f.snd_nxt = f.snd_una;  // go-back-N
    f.cc->on_timeout(now_);
    cc_changed(f);
    kick_host(f.src);
  }

  [[nodiscard]] bool has_data(const flow_state& f) const noexcept {
    if (!f.active) return false;
    if (f.size == bytes{0}) return now_ < f.stop;
    return f.snd_nxt < static_cast<sequence>(f.size.count());
  }

  // Flow `id` may send again (started, or reopened by a write): into its host's active list.
  void activate(flow_id id) {
    auto& v = nodes_[flows_[id].src].active;
    const auto it = std::lower_bound(v.begin(), v.end(), id);
    if (it == v.end() || *it != id) v.insert(it, id);
  }
  // Flow `id` finished: out of its host's active list.
  void deactivate(flow_id id) {
    auto& v = nodes_[flows_[id].src].active;
    const auto it = std::lower_bound(v.begin(), v.end(), id);
    if (it != v.end() && *it == id) v.erase(it);
  }
  // Long-running flows past their stop time never send again (not even a retransmission).
  void drop_stopped(node_state& nd) {
    std::erase_if(nd.active, [&](flow_id id) {
      const flow_state& f = flows_[id];
      return f.size == bytes{0} && now_ >= f.stop;
    });
  }

  void kick_host(node_id h) {
    node_state& nd = nodes_[h];
    if (nd.ports.empty()) return;
    port_state& p = nd.ports[0];
    if (!link_free(p)) return;  // the NIC's tx_done pulls when it frees
    if (!p.q.empty(ctl_q) || !p.q.empty(data_q)) {
      start_tx(h, 0);
      return;
    }
    if (p.paused) return;  // PFC: the NIC's data queue is paused; resume kicks the host
    // Round robin over the active flows from the first with id >= rr (ids increase along the
    // list). A long-running flow past its stop time leaves the list here; a finite flow leaves
    // it when its last byte is acknowledged (receive_ack).
    const std::size_t nf = nd.active.size();
    const std::size_t first = static_cast<std::size_t>(
        std::lower_bound(nd.active.begin(), nd.active.end(), nd.rr) - nd.active.begin());
    timestamp earliest = timestamp::max();
    bool stopped = false;
    for (std::size_t k = 0; k < nf; ++k) {
      const flow_id id = nd.active[(first + k) % nf];
      flow_state& f = flows_[id];
      ++visits_;
      if (!has_data(f)) {
        stopped = stopped || (f.size == bytes{0} && now_ >= f.stop);
        continue;
      }
      const sequence inflight = f.snd_nxt - f.snd_una;
      const bytes payload = next_payload(f);
      if (inflight > 0 && static_cast<std::int64_t>(inflight) + payload.count() > f.cwnd.count())
        continue;
      if (const timestamp at = f.next_at; at > now_) {
        earliest = std::min(earliest, at);
        continue;
      }
      nd.rr = id + 1;
      send_data(h, id, payload);
      if (stopped) drop_stopped(nd);
      return;
    }
    if (stopped) drop_stopped(nd);
    if (earliest != timestamp::max() && (!nd.wakeup_pending || earliest < nd.wakeup_at)) {
      nd.wakeup_pending = true;
      nd.wakeup_at = earliest;
      schedule(earliest, ev::flow_wakeup, h, 0);
    }
  }

  // When the flow's next packet may leave: its last packet's pacing gap at the current rate.
  [[nodiscard]] static timestamp next_send(const flow_state& f) {
    if (f.pace_size <= bytes{0}) return f.pace_base;
    const bit_rate r = f.rate;
    if (r == bit_rate::max() || r <= bit_rate{0}) return f.pace_base;
    const duration gap = f.pace_size / r;
    return gap >= timestamp::max() - f.pace_base ? timestamp::max() : f.pace_base + gap;
  }

  [[nodiscard]] bytes next_payload(const flow_state& f) const noexcept {
    const bytes full = cfg_.mtu - cfg_.header;
    if (f.size == bytes{0}) return full;
    const bytes left{f.size.count() - static_cast<std::int64_t>(f.snd_nxt)};
    return std::min(full, left);
  }

  void send_data(node_id h, flow_id id, bytes payload) {
    flow_state& f = flows_[id];
    const std::uint32_t idx = alloc_packet();
    packet& pk = pool_[idx];
    pk.kind = packet_kind::data;
    pk.flow = id;
    pk.src = h;
    pk.dst = f.dst;
    pk.seq = f.snd_nxt;
    pk.payload = payload;
    pk.size = payload + cfg_.header;
    pk.retransmit = f.snd_nxt < f.high_sent;
    f.snd_nxt += static_cast<sequence>(payload.count());
    f.high_sent = std::max(f.high_sent, f.snd_nxt);
    pk.snd_nxt = f.snd_nxt;
    pk.sent_at = now_;
    f.stats.sent += pk.size;
    const bytes remaining = f.size == bytes{0}
                                ? bytes::max()
                                : bytes{f.size.count() - static_cast<std::int64_t>(f.snd_nxt)};
    if (f.cc_sends)
      f.cc->on_send(
          send_info{.now = now_, .payload = payload, .remaining = remaining, .snd_nxt = f.snd_nxt},
          pk);
    f.pace_base = now_;
    f.pace_size = pk.size;
    if (f.cc_sends) {
      cc_changed(f);
    } else {
      f.next_at = next_send(f);  // the controller's outputs are as they were
    }
    f.rto_deadline = now_ + cfg_.rto;
    if (!f.rto_pending) {
      f.rto_pending = true;
      schedule(f.rto_deadline, ev::rto, id, 0);
    }
    inject(idx);
    enqueue(h, 0, idx);
  }

  // ---- recording
  void on_sample() {
    ts_.t.push_back(now_);
    std::size_t c = 0;
    const double secs = to_seconds(cfg_.sample_interval);
    for (auto& m : monitors_) {
      switch (m.kind) {
        case monitor::queue:
          ts_.columns[c++].push_back(
              static_cast<double>(nodes_[m.node].ports[m.port].q_bytes.count()));
          break;
        case monitor::port_rate: {
          const std::uint64_t tx = nodes_[m.node].ports[m.port].tx_total;
          ts_.columns[c++].push_back(static_cast<double>(tx - m.last) * 8 / secs / 1e9);
          m.last = tx;
          break;
        }
        case monitor::port_marks:
        case monitor::port_drops: {
          const port_stats& ps = nodes_[m.node].ports[m.port].stats;
          const std::uint64_t v = m.kind == monitor::port_marks ? ps.ecn_marks : ps.drops;
          ts_.columns[c++].push_back(static_cast<double>(v - m.last));
          m.last = v;
          break;
        }
        case monitor::flow_rates: {
          const flow_state& f = flows_[m.flow];
          const bytes w = f.cc ? f.cc->cwnd() : bytes::max();
          const bit_rate r = f.cc ? f.cc->pacing_rate() : bit_rate::max();
          ts_.columns[c++].push_back(w == bytes::max() ? 0.0 : static_cast<double>(w.count()));
          ts_.columns[c++].push_back(r == bit_rate::max() ? 0.0 : r.gbps());
          const auto acked = static_cast<std::uint64_t>(f.stats.acked.count());
          ts_.columns[c++].push_back(static_cast<double>(acked - m.last) * 8 / secs / 1e9);
          m.last = acked;
          break;
        }
        case monitor::flow_cc: {
          const flow_state& f = flows_[m.flow];
          ts_.columns[c++].push_back(f.cc ? f.cc->alpha() : 0.0);
          ts_.columns[c++].push_back(static_cast<double>(f.stats.cnps - m.last));
          m.last = f.stats.cnps;
          break;
        }
      }
    }
    schedule(now_ + cfg_.sample_interval, ev::sample, 0, 0);
  }

  network_config cfg_;
  std::mt19937_64 rng_;
  std::mt19937_64 noise_rng_;  // RTT noise only
  std::vector<node_state> nodes_;
  std::vector<flow_state> flows_;
  event_queue queue_;
  std::vector<event> starts_;  // flow starts, sorted by (time, order) from next_start_ on
  std::size_t next_start_ = 0;
  bool starts_sorted_ = true;
  std::function<void(const network&)> progress_;
  std::function<std::unique_ptr<sender_cc>(flow_id)> factory_;
  std::vector<packet> pool_;
  std::vector<std::uint32_t> free_;
  std::vector<int_record_slots> int_pool_;  // INT records of packet i at i (see push_int)
  std::vector<int_hop_slots> int_wide_;     // in full, for a packet with int_wide set
  std::vector<bit_rate> rates_;             // the link rates INT records index (rate_index)
  // A time-series source, in the order the monitor_* calls were made.
  struct monitor {
    enum kind_t : std::uint8_t {
      queue,
      port_rate,
      port_marks,
      port_drops,
      flow_rates,
      flow_cc
    } kind;
    node_id node;
    std::uint32_t port;
    flow_id flow;
    std::uint64_t last = 0;  // counter at the previous sample (port_rate, flow)
  };
  std::vector<monitor> monitors_;
  std::uint32_t n_edges_ = 0;
  std::vector<destination> dest_;  // by node
  std::vector<node_hot> hot_;      // by node
  // The prefetch stages' distances ahead, in events (run_until).
  static constexpr std::size_t prefetch_far = 8, prefetch_mid = 3;
  std::vector<std::uint16_t> route_table_;  // [switch][edge switch] -> route list id
  std::vector<route_list> route_lists_;
  std::vector<std::uint32_t> route_ports_;
  series ts_;
  timestamp now_{};
  std::uint64_t order_ = 0;
  std::uint64_t cur_order_ = 0;  // order_kind of the event being handled (link_free)
  std::uint64_t events_ = 0;
  std::uint64_t visits_ = 0;
  std::uint64_t hops_ = 0;
  std::uint64_t in_network_ = 0;
  std::uint64_t injected_ = 0;
  std::uint64_t delivered_ = 0;
  std::uint64_t dropped_ = 0;
  std::uint64_t out_of_order_ = 0;
  bool routed_ = false;
  mutable std::array<port_memo, memo_size> memo_{};  // prefetch_next writes it
  bool sampling_ = false;
  bool over_limit_ = false;
  std::uint64_t static_bytes_ = 0;  // flows, nodes, ports, routes (route()), FastTune tables
};

constexpr std::uint64_t network::bytes_per_route_list() noexcept {
  return sizeof(route_list);
}

}  // namespace netcc::testbench
