// SPDX-License-Identifier: MIT
/// @file
/// @brief Bolt switch ingress (Algorithm 1): SRC generation, PRU tokens and SM tokens, over
/// the header of Listing 1, with the plain (Algorithm 3) or QoS (Algorithm 4) supply token.
///
/// Source: S. Arslan, Y. Li, G. Kumar, N. Dukkipati, "Bolt: Sub-RTT Congestion Control for
/// Ultra-Low Latency", NSDI 2023: Algorithm 1 (BoltIngress), §3.1 (SRC: for every data packet
/// arriving while the queue is at or above CC_THRESH and whose DEC flag is clear, send the
/// sender an SRC carrying the queue occupancy, the link rate and the data packet's TX
/// timestamp, and set DEC and clear INC on the data packet), §3.2 (PRU: a packet with LAST
/// but not FIRST adds a token; an INC packet consumes one), §3.3 (SM: otherwise an INC packet
/// consumes one MTU of supply token, or loses its INC flag), §4.1 (per-queue registers; the
/// SRC is the mirrored, trimmed packet with the SRC flag set), Appendix B.1 (QoS: SRC with the
/// occupancy of the packet's queue, PRU and SM state per queue, supply per Algorithm 4).
/// The header, its codes and the supply functions are in netcc/fabric/bolt_header.hpp and
/// netcc/fabric/bolt_supply.hpp, included here.
///
/// Defaults (netcc::bolt_params): mtu 1500 B (the paper leaves it open), cc_thresh one MTU
/// (§3.1), link-rate code unit 5 Gbps (netcc's choice).
///
/// Reading of Algorithm 1 and deviations:
/// - The else-branches at lines 11 and 13 belong to the congestion test of line 4 ("A switch
///   receiving the LAST flag, if it is not congested, increments the PRU token value", §3.2):
///   a congested port only generates SRCs; a packet arriving congested with DEC already set
///   passes unchanged. Since a switch clears INC whenever it sets DEC (line 10) and a sender
///   never sets DEC (Algorithm 2), such a packet carries no INC.
/// - A LAST packet (line 11) is not asked for a token even if it carries INC: its INC flag is
///   left as it is (Algorithm 1 as written).
/// - The PRU token is a 32-bit counter saturating at 2^32 - 1 (never wraps); the supply token
///   saturates at netcc::bolt_sm_token_floor (see bolt_supply.hpp).
/// - The SRC header has only the SRC flag set (DATA cleared, so that upstream switches forward
///   it, Algorithm 1 line 2), `q_size` = the queue occupancy (24 bits, saturating),
///   `link_rate` = the rate code, `t_data_tx` = the data packet's; §4.1 builds it from a mirror
///   of the data packet, whose flow identifiers the caller swaps.
/// - Non-data packets (ACK, SRC) are forwarded untouched and leave the state untouched (line 2).
///
/// @code
/// using namespace netcc::literals;
/// netcc::bolt_port_state port;
/// netcc::bolt_header pkt{.data = true, .inc = true, .t_data_tx = 777};
/// auto r = netcc::bolt_ingress(port, pkt, 1500_B, {.q_size = 6000_B, .link_rate = 100_Gbps},
///                              netcc::timestamp{10'000}, netcc::bolt_params{});
/// // r.action == bolt_action::src_generated; r.src.q_size == 6000; pkt.dec && !pkt.inc
/// @endcode
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "netcc/core/units.hpp"
#include "netcc/fabric/bolt_header.hpp"
#include "netcc/fabric/bolt_supply.hpp"

namespace netcc {

/// @brief What Algorithm 1 sees of the egress port: its queue occupancy and link rate.
/// @code
/// netcc::bolt_port_view v{.q_size = netcc::bytes{0}, .link_rate = netcc::bit_rate{100'000'000'000}};
/// @endcode
struct bolt_port_view {
  /// @brief Current occupancy of the egress queue (cur_q_size / switch.q_size).
  bytes q_size{};
  /// @brief Link rate of the egress port (switch.link_rate, and BW of Algorithm 3).
  bit_rate link_rate{};
};

/// @brief The branch Algorithm 1 took.
enum class bolt_action : std::uint8_t {
  not_data,       ///< line 2: not a data packet, forwarded untouched
  src_generated,  ///< lines 5-10: SRC sent, DEC set, INC cleared
  congested_dec,  ///< line 4 true, line 5 false: DEC already set, no SRC
  pru_added,      ///< line 12: LAST and not FIRST, pru_token + 1
  last_first,     ///< line 11 true, line 12 false: LAST within the first window, no token
  inc_pru,        ///< lines 14-15: INC kept, one PRU token consumed
  inc_sm,         ///< lines 16-17: INC kept, one MTU of supply token consumed
  inc_cleared,    ///< line 19: no token, INC cleared
  forwarded,      ///< uncongested, neither LAST nor INC: forwarded unchanged
  invalid_queue,  ///< QoS form only: the queue index is not a level of the port
};

/// @brief Decision of netcc::bolt_ingress: the branch taken and the SRC to send, if any.
struct bolt_ingress_result {
  /// @brief The branch of Algorithm 1 taken.
  bolt_action action = bolt_action::forwarded;
  /// @brief True when an SRC must be sent back to the sender (line 9).
  bool send_src = false;
  /// @brief The SRC's Bolt header (meaningful when send_src).
  bolt_header src{};
};

namespace detail {

// Algorithm 1 lines 4-20, after the supply token was updated (line 3).
constexpr bolt_ingress_result bolt_ingress_decide(bolt_port_state& s, bolt_header& pkt,
                                                  bytes q_size, bit_rate link_rate,
                                                  const bolt_params& p) noexcept {
  bolt_ingress_result r;
  if (q_size >= p.cc_thresh) {  // line 4: congested
    if (!pkt.dec) {             // line 5
      r.action = bolt_action::src_generated;
      r.send_src = true;                                                     // line 9
      r.src.src = true;                                                      // §4.1: SRC flag
      r.src.q_size = bolt_encode_q_size(q_size);                             // line 6
      r.src.link_rate = bolt_encode_link_rate(link_rate, p.link_rate_unit);  // line 7
      r.src.t_data_tx = pkt.t_data_tx;                                       // line 8
      pkt.dec = true;                                                        // line 10
      pkt.inc = false;                                                       // line 10
    } else {
      r.action = bolt_action::congested_dec;
    }
  } else if (p.pru && pkt.last) {  // line 11: near flow completion
    if (!pkt.first) {              // line 12
      if (s.pru_token < std::numeric_limits<std::uint32_t>::max()) ++s.pru_token;
      r.action = bolt_action::pru_added;
    } else {
      r.action = bolt_action::last_first;
    }
  } else if (pkt.inc) {              // line 13: the packet demands a token
    if (p.pru && s.pru_token > 0) {  // line 14
      --s.pru_token;                 // line 15
      r.action = bolt_action::inc_pru;
    } else if (p.sm && s.sm_token >= p.mtu.count()) {                      // line 16
      s.sm_token = static_cast<std::int32_t>(s.sm_token - p.mtu.count());  // line 17
      r.action = bolt_action::inc_sm;
    } else {
      pkt.inc = false;  // line 19: no token for a cwnd increment
      r.action = bolt_action::inc_cleared;
    }
  } else {
    r.action = bolt_action::forwarded;
  }
  return r;  // line 20: ForwardAndReturn
}

}  // namespace detail

/// @brief Algorithm 1 (BoltIngress) for one packet at the ingress pipeline, towards an egress
/// port: update the supply token (Algorithm 3), then generate an SRC, add a PRU token, or
/// grant or refuse the packet's INC request.
/// @param s        the egress port's state (updated)
/// @param pkt      the packet's Bolt header (DEC and INC may change)
/// @param pkt_size the packet's size on the wire (the demand of Algorithm 3)
/// @param port     the egress port: queue occupancy and link rate
/// @param now      arrival time
/// @param p        parameters
/// @param supply   supply source: bolt_direct_supply (default) or a bolt_supply_table
/// @code
/// netcc::bolt_port_state port;
/// netcc::bolt_header pkt{.data = true, .last = true};
/// auto r = netcc::bolt_ingress(port, pkt, netcc::bytes{1500}, {}, netcc::timestamp{1},
///                              netcc::bolt_params{});   // pru_added, port.pru_token == 1
/// @endcode
template <class Supply = bolt_direct_supply>
constexpr bolt_ingress_result bolt_ingress(bolt_port_state& s, bolt_header& pkt, bytes pkt_size,
                                           const bolt_port_view& port, timestamp now,
                                           const bolt_params& p,
                                           const Supply& supply = {}) noexcept {
  if (!pkt.data) return {bolt_action::not_data, false, {}};        // line 2
  bolt_supply_token(s, pkt_size, port.link_rate, now, p, supply);  // line 3 (Algorithm 3)
  return detail::bolt_ingress_decide(s, pkt, port.q_size, port.link_rate, p);
}

/// @brief Algorithm 1 with QoS (Appendix B.1): the state is that of queue `i`, the
/// congestion test and the SRC use queue i's occupancy, and the supply token follows
/// Algorithm 4. An `i` that is not a level of `v` changes nothing (invalid_queue).
/// @code
/// std::array<netcc::bytes, 2> q{}; std::array<std::uint32_t, 2> w{1, 1};
/// netcc::bolt_port_state qs;   // state of queue 1
/// netcc::bolt_header pkt{.data = true, .inc = true};
/// auto r = netcc::bolt_qos_ingress(qs, pkt, netcc::bytes{1500},
///     {.link_rate = netcc::bit_rate{100'000'000'000}, .queue_sizes = q, .weights = w}, 1,
///     netcc::timestamp{1'000'000}, netcc::bolt_params{});   // inc_sm after a long idle
/// @endcode
constexpr bolt_ingress_result bolt_qos_ingress(bolt_port_state& s, bolt_header& pkt, bytes pkt_size,
                                               const bolt_qos_view& v, std::size_t i, timestamp now,
                                               const bolt_params& p) noexcept {
  if (!pkt.data) return {bolt_action::not_data, false, {}};  // line 2
  // The level test and the read of queue i's occupancy sit together, before Algorithm 4
  // runs, so that the index is visibly in bounds where it is used.
  if (i >= bolt_qos_levels(v)) return {bolt_action::invalid_queue, false, {}};
  const bytes q_i = v.queue_sizes[i];
  (void)bolt_qos_supply_token(s, i, pkt_size, v, now, p);  // line 3 (Algorithm 4)
  return detail::bolt_ingress_decide(s, pkt, q_i, v.link_rate, p);
}

/// @brief Algorithm 1 with QoS (Appendix B.1) over a weights' table (netcc::bolt_qos_weights,
/// rebuilt by the control plane when the weights change) and the port's non-empty queues as a
/// bit mask (bit j for q_size_j != 0): the same decision and state as bolt_qos_ingress on the
/// view with the table's weights and those occupancies, with Algorithm 4's effective weight
/// looked up and its division replaced by the table's reciprocal. `q_i` is queue i's occupancy
/// (line 4 and the SRC); its bit in `nonempty` should say whether it is 0. An `i` at or beyond
/// the table's levels changes nothing (invalid_queue).
/// @code
/// const std::array<std::uint32_t, 2> w{1, 1};
/// const netcc::bolt_qos_weights t{w};
/// netcc::bolt_port_state qs;   // state of queue 1
/// netcc::bolt_header pkt{.data = true, .inc = true};
/// auto r = netcc::bolt_qos_ingress(qs, pkt, netcc::bytes{1500}, t, 0, netcc::bytes{0},
///                                  netcc::bit_rate{100'000'000'000}, 1,
///                                  netcc::timestamp{1'000'000}, netcc::bolt_params{});  // inc_sm
/// @endcode
constexpr bolt_ingress_result bolt_qos_ingress(bolt_port_state& s, bolt_header& pkt, bytes pkt_size,
                                               const bolt_qos_weights& w, std::uint32_t nonempty,
                                               bytes q_i, bit_rate link_rate, std::size_t i,
                                               timestamp now, const bolt_params& p) noexcept {
  if (!pkt.data) return {bolt_action::not_data, false, {}};  // line 2
  if (i >= w.levels()) return {bolt_action::invalid_queue, false, {}};
  (void)bolt_qos_supply_token(s, i, pkt_size, w, nonempty, link_rate, now, p);  // line 3
  return detail::bolt_ingress_decide(s, pkt, q_i, link_rate, p);
}

}  // namespace netcc
