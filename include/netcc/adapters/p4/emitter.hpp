// SPDX-License-Identifier: MIT
/// @file
/// @brief The P4 emitter: each switch function of netcc/fabric/ as a P4_16 v1model program for
/// BMv2's simple_switch, with the table entries and CLI commands its control plane loads, all
/// generated from the same constexpr code the C++ functions use.
///
/// | program        | C++ function                                | pipeline | state (registers)        |
/// | -------------- | ------------------------------------------- | -------- | ------------------------ |
/// | int_push       | netcc::int_push_encoded (HPCC wire format)  | egress   | none                     |
/// | red_ecn        | netcc::red_ecn_table::on_packet             | egress   | none                     |
/// | bolt           | netcc::bolt_ingress with bolt_supply_table  | ingress  | per egress port          |
/// | fasttune       | netcc::fasttune_switch                      | ingress  | per flow (NewACK)        |
/// | dcqcn_np       | netcc::dcqcn_np_on_packet                   | ingress  | per flow (queue pair)    |
/// | token_bucket   | netcc::token_bucket_consume                 | ingress  | per egress port          |
///
/// Sources, as in the fabric headers: PowerTCP (Addanki et al., NSDI 2022, §3.3) and HPCC (Li
/// et al., SIGCOMM 2019, §3.2, Figure 4) for INT; seed 003 §III-B d, DCQCN (Zhu et al.,
/// SIGCOMM 2015, §3) and RFC 3168 §5, §7 for RED/ECN; Bolt (Arslan et al., NSDI 2023,
/// Algorithms 1 and 3, §4.1 and Listing 1); FastTune (Zhou et al., ISPA 2021, Algorithm 1,
/// §III-B, §IV-B); DCQCN §3 and seed 003 §III-B d for the notification point; Le Boudec and
/// Thiran, Network Calculus, §1.2.2 for the token bucket.
///
/// Every program reads the *port view* the C++ function takes as arguments (time, queue
/// length, transmitted bytes, random draw, the egress port the state belongs to) from a
/// 38-byte `netcc_view` header behind Ethernet (EtherType 0x88B5) and writes the branch it
/// took (the C++ enum's value) back into it, so a differential test can drive both with the
/// same inputs and compare every decision; in a deployment the same fields come from
/// intrinsic metadata (docs/p4.md). Generated packets (Bolt's SRC, FastTune's S-ACK, the
/// CNP) are ingress-to-egress clones to a mirror session per port (session = port + 1)
/// towards the packet's ingress port, rewritten and truncated in egress.
///
/// @code
/// netcc::p4::emit_params p;
/// auto prog = netcc::p4::emit(netcc::p4::function::red_ecn, p);
/// // prog.source: the P4_16 program; prog.commands: simple_switch_CLI lines (1024 cells)
/// @endcode
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "netcc/adapters/p4/arith.hpp"
#include "netcc/adapters/p4/params.hpp"
#include "netcc/core/int_wire.hpp"

namespace netcc::p4 {

/// @brief EtherType of the netcc_view header (IEEE 802 local experimental 1).
inline constexpr std::uint16_t view_ethertype = 0x88B5;
/// @brief EtherType (in the view's `ether_type`) of an INT stack or a Bolt header following it
/// (IEEE 802 local experimental 2).
inline constexpr std::uint16_t netcc_ethertype = 0x88B6;
/// @brief EtherType of IPv4.
inline constexpr std::uint16_t ipv4_ethertype = 0x0800;
/// @brief IP protocol of FastTune's and the NP's transport header (RFC 3692 experimental).
inline constexpr std::uint8_t experimental_protocol = 253;
/// @brief Bytes of the netcc_view header.
inline constexpr std::size_t view_bytes = 38;
/// @brief The NP header's opcode of a CNP (RoCEv2's CNP opcode, 0x81).
inline constexpr std::uint8_t cnp_opcode = 0x81;
/// @brief FastTune packet kinds as the ft header carries them (netcc::fasttune_packet_kind).
inline constexpr std::uint8_t ft_kind_sack =
    static_cast<std::uint8_t>(fasttune_packet_kind::switch_ack);

/// @brief One emitted program: its name, P4_16 source and the CLI commands that load its
/// tables and mirror sessions.
/// @code
/// auto prog = netcc::p4::emit(netcc::p4::function::bolt, {});
/// // prog.name == "bolt"; prog.commands holds 65536 supply-table entries
/// @endcode
struct program {
  /// @brief The function's name (file stem).
  std::string name;
  /// @brief The P4_16 v1model program.
  std::string source;
  /// @brief simple_switch_CLI commands, one per line.
  std::string commands;
};

namespace detail {

inline std::string subst(std::string text,
                         std::initializer_list<std::pair<std::string_view, std::string>> vars) {
  for (const auto& [key, val] : vars) {
    std::size_t at = 0;
    while ((at = text.find(key, at)) != std::string::npos) {
      text.replace(at, key.size(), val);
      at += val.size();
    }
  }
  return text;
}

template <class T>
std::string num(T v) {
  return std::to_string(v);
}

template <class E>
std::string code(E e) {
  return std::to_string(static_cast<unsigned>(e));
}

inline std::string str(bool b) {
  return b ? "true" : "false";
}

// The INT hop's wire format: HPCC's layout of netcc/core/int_wire.hpp.
using int_format = hpcc_int_format;
inline constexpr reciprocal int_qlen_reciprocal = make_reciprocal(80);
static_assert(int_format::rate_bits == 3 && int_format::hop_bytes == 8,
              "the emitted int_hop_t is HPCC's 3/24/20/17-bit layout");
static_assert(int_qlen_reciprocal.exact, "80-byte queue units: exact 32-bit reciprocal");

inline const char* const prelude = R"(#include <core.p4>
#include <v1model.p4>

const bit<16> ETHERTYPE_VIEW = 0x88B5;
const bit<16> ETHERTYPE_NETCC = 0x88B6;
const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<8> PROTO_EXPERIMENTAL = 253;

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

/* The port view the C++ function takes as arguments (38 bytes). A deployment fills the same
 * fields from intrinsic metadata; the differential test carries them in the packet. */
header netcc_view_t {
    bit<32> seq;        /* trace sequence number */
    bit<16> out_port;   /* forwarding decision: the port the packet leaves by */
    bit<16> port;       /* the egress port whose state and view apply */
    bit<8>  kind;       /* 0: the packet as sent; 1: generated by this switch */
    bit<8>  verdict;    /* written by the switch: the C++ enum of the branch taken */
    bit<16> reserved;
    bit<64> now;        /* ns */
    bit<32> qlen;       /* egress queue length, bytes */
    bit<32> draw;       /* uniform random 32-bit number */
    bit<64> tx_bytes;   /* bytes the port has transmitted */
    bit<16> ether_type; /* what follows */
}

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<6>  dscp;
    bit<2>  ecn;
    bit<16> total_len;
    bit<16> identification;
    bit<3>  flags;
    bit<13> frag_offset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdr_checksum;
    bit<32> src_addr;
    bit<32> dst_addr;
}

/* HPCC's INT (SIGCOMM'19 Figure 4; netcc/core/int_wire.hpp): a 2-byte header and 8-byte hops. */
header int_header_t {
    bit<8> hop_count;
    bit<8> reserved;
}

header int_hop_t {
    bit<3>  rate_code;
    bit<24> ts;
    bit<20> tx;
    bit<17> qlen;
}

)";

inline const char* const ipv4_checksum = R"(
control NetccVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control NetccComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn, hdr.ipv4.total_len,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset, hdr.ipv4.ttl,
              hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}
)";

inline const char* const no_checksum = R"(
control NetccVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control NetccComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}
)";

inline const char* const main_decl = R"(
V1Switch(NetccParser(), NetccVerifyChecksum(), NetccIngress(), NetccEgress(),
         NetccComputeChecksum(), NetccDeparser()) main;
)";

// The hop record of the port in hdr.view (PowerTCP §3.3 at dequeue): ts, tx, qlen quantised as
// int_wire_format::pack does; the rate code comes from the port table (rate_code()).
inline std::string hop_statements(std::string_view target, std::string_view code_expr) {
  const reciprocal& r = int_qlen_reciprocal;
  return subst(R"(        @T@.setValid();
        @T@.rate_code = @CODE@;
        @T@.ts = hdr.view.now[23:0];            /* wrapping_clock<24>: ns mod 2^24 */
        @T@.tx = hdr.view.tx_bytes[26:7];       /* wrapping_counter<20, 128> */
        /* qlen / 80 without a divider: ((q >> @PRE@) * @MUL@) >> @POST@, exact for 32-bit q */
        bit<64> q_units = (((bit<64>)hdr.view.qlen) >> @PRE@) * 64w@MUL@;
        q_units = q_units >> @POST@;
        if (q_units > 64w@QMAX@) {
            q_units = 64w@QMAX@;                   /* saturates at 2^17 - 1 units */
        }
        @T@.qlen = (bit<17>)q_units;
)",
               {{"@T@", std::string(target)},
                {"@CODE@", std::string(code_expr)},
                {"@PRE@", num(r.pre_shift)},
                {"@MUL@", num(r.multiplier)},
                {"@POST@", num(r.post_shift)},
                {"@QMAX@", num(modular<17>::mask)}});
}

// Append `hop` at index hdr.int_header.hop_count (the stack's end), as int_push_encoded does.
inline std::string append_hop_statements(std::string_view hop) {
  std::string s;
  for (std::size_t i = 0; i < int_format::stack::max_hops; ++i) {
    s += i == 0 ? "        if " : "        else if ";
    s += "(hdr.int_header.hop_count == " + num(i) + ") {\n            hdr.int_hops[" + num(i) +
         "] = " + std::string(hop) + ";\n        }\n";
  }
  s += "        hdr.int_header.hop_count = hdr.int_header.hop_count + 1;\n";
  return s;
}

inline const char* const int_parser_states = R"(
    state parse_int {
        pkt.extract(hdr.int_header);
        meta.remaining = hdr.int_header.hop_count;
        transition select(hdr.int_header.hop_count) {
            8w0: accept;
            8w1 .. 8w@CAP@: parse_hop;
            default: int_malformed;
        }
    }
    state parse_hop {
        pkt.extract(hdr.int_hops.next);
        meta.remaining = meta.remaining - 1;
        transition select(meta.remaining) {
            8w0: accept;
            default: parse_hop;
        }
    }
    state int_malformed {
        meta.int_malformed = 1;
        transition accept;
    }
)";

inline std::string port_rate_table(std::string_view table) {
  return subst(R"(
    action set_rate_code(bit<8> code) {
        meta.rate_code = code;
    }
    /* Per port: the rate code the control plane computed from the port's line rate. */
    table @TABLE@ {
        key = { hdr.view.port: exact; }
        actions = { set_rate_code; }
        size = @PORTS@;
        default_action = set_rate_code(0);
    }
)",
               {{"@TABLE@", std::string(table)}});
}

inline std::string ingress_forward() {
  return R"(        if (!hdr.view.isValid()) {
            mark_to_drop(standard_metadata);
            return;
        }
        standard_metadata.egress_spec = (bit<9>)hdr.view.out_port;
)";
}

inline std::string header_comment(function f, const emit_params& p) {
  std::string s = "/* netcc-p4: " + std::string(name(f)) +
                  " -- generated from netcc's constexpr switch functions; do not edit.\n";
  s += " * ports = " + num(p.ports) + ", flows = " + num(p.flows) +
       ", link rate = " + num(p.link_rate.bps()) + " bps\n";
  switch (f) {
    case function::int_push:
      s += " * int_push.max_hops = " + num(p.int_push.max_hops) + "\n";
      break;
    case function::red_ecn:
      s += " * red_ecn: k_min = " + num(p.red_ecn.k_min.count()) +
           " B, k_max = " + num(p.red_ecn.k_max.count()) +
           " B, p_max = " + num(p.red_ecn.p_max.raw) +
           " / 2^32, drop_not_ect = " + str(p.red_ecn.drop_not_ect) + "\n";
      break;
    case function::bolt:
      s += " * bolt: mtu = " + num(p.bolt.mtu.count()) +
           " B, cc_thresh = " + num(p.bolt.cc_thresh.count()) +
           " B, link_rate_unit = " + num(p.bolt.link_rate_unit.bps()) +
           " bps, pru = " + str(p.bolt.pru) + ", sm = " + str(p.bolt.sm) + "\n";
      break;
    case function::fasttune:
      s += " * fasttune_switch: switch_feedback = " + str(p.fasttune.switch_feedback) +
           ", ack_padding = " + str(p.fasttune.ack_padding) +
           ", int_push.max_hops = " + num(p.fasttune.int_push.max_hops) + "\n";
      break;
    case function::dcqcn_np:
      s += " * dcqcn_np: interval = " + num(p.dcqcn_np.interval.count()) +
           " ns, mode = " + (p.dcqcn_np.mode == dcqcn_np_mode::schedule ? "schedule" : "suppress") +
           "\n";
      break;
    case function::token_bucket:
      s += " * token_bucket: rate = " + num(p.token_bucket.rate.bps()) +
           " bps, bucket = " + num(p.token_bucket.bucket.count()) +
           " B, police = " + str(p.token_bucket_police) + "\n";
      break;
  }
  s += " */\n";
  return s;
}

inline std::size_t int_limit(const int_push_params& p) {
  return p.max_hops < int_format::stack::max_hops ? p.max_hops : int_format::stack::max_hops;
}

// ---------------------------------------------------------------- INT push
inline std::string emit_int_push(const emit_params& p) {
  std::string s = header_comment(function::int_push, p) + prelude;
  s += subst(R"(struct headers_t {
    ethernet_t ethernet;
    netcc_view_t view;
    int_header_t int_header;
    int_hop_t[@CAP@] int_hops;
}

struct metadata_t {
    bit<8> remaining;
    bit<1> int_malformed;
    bit<8> rate_code;
}

parser NetccParser(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_VIEW: parse_view;
            default: accept;
        }
    }
    state parse_view {
        pkt.extract(hdr.view);
        transition select(hdr.view.ether_type) {
            ETHERTYPE_NETCC: parse_int;
            default: accept;
        }
    }
)" + std::string(int_parser_states) +
                 R"(}

control NetccIngress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    apply {
)" + ingress_forward() +
                 R"(    }
}

/* PowerTCP NSDI'22 §3.3: at dequeue, append the egress port's (qlen, ts, txBytes, b) to the
 * packet's INT stack (netcc::int_push_encoded); a full or malformed stack is left unchanged. */
control NetccEgress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
)" + port_rate_table("int_port_rate") +
                 R"(
    apply {
        if (!hdr.view.isValid() || !hdr.int_header.isValid()) {
            return;
        }
        if (meta.int_malformed == 1 || standard_metadata.parser_error != error.NoError) {
            hdr.view.verdict = @MALFORMED@;
            return;
        }
        if (hdr.int_header.hop_count >= @LIMIT@) {
            hdr.view.verdict = @FULL@;   /* the hop limit: nothing changes */
            return;
        }
        int_port_rate.apply();
        int_hop_t hop;
)" + hop_statements("hop", "(bit<3>)meta.rate_code") +
                 append_hop_statements("hop") + R"(        hdr.view.verdict = @PUSHED@;
    }
}
)" + no_checksum +
                 R"(
control NetccDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.view);
        pkt.emit(hdr.int_header);
        pkt.emit(hdr.int_hops);
    }
}
)" + main_decl,
             {{"@CAP@", num(int_format::stack::max_hops)},
              {"@LIMIT@", num(int_limit(p.int_push))},
              {"@PORTS@", num(p.ports)},
              {"@PUSHED@", code(int_push_result::pushed)},
              {"@FULL@", code(int_push_result::full)},
              {"@MALFORMED@", code(int_push_result::malformed)}});
  return s;
}

// ---------------------------------------------------------------- RED/ECN
inline std::string emit_red_ecn(const emit_params& p) {
  const unsigned shift = red_ecn_table_shift(p.red_ecn, red_table_entries);
  const std::int64_t kmax = p.red_ecn.k_max.count() < 0 ? 0 : p.red_ecn.k_max.count();
  std::string select_not_ect =
      p.red_ecn.drop_not_ect
          ? "            hdr.view.verdict = @DROP@;   /* RFC 3168 §7: drop a selected Not-ECT */\n"
            "            mark_to_drop(standard_metadata);\n"
          : "            hdr.view.verdict = @PASS@;   /* drop_not_ect = false: pass */\n";
  std::string s = header_comment(function::red_ecn, p) + prelude;
  s += subst(R"(struct headers_t {
    ethernet_t ethernet;
    netcc_view_t view;
    ipv4_t ipv4;
}

struct metadata_t {
    bit<32> cell;
    bit<32> probability;
}

parser NetccParser(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_VIEW: parse_view;
            default: accept;
        }
    }
    state parse_view {
        pkt.extract(hdr.view);
        transition select(hdr.view.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control NetccIngress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    apply {
)" + ingress_forward() +
                 R"(    }
}

/* Seed 003 §III-B d: p(x) = 0 at or below K_min, P_max (x - K_min) / (K_max - K_min) between,
 * 1 at or above K_max, on the instantaneous egress backlog; the table holds p at the lower edge
 * of each 2^@SHIFT@-byte cell (netcc::make_red_ecn_table<@ENTRIES@>), K_max is a comparator. */
control NetccEgress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    action set_probability(bit<32> p) {
        meta.probability = p;
    }
    table red_probability {
        key = { meta.cell: exact; }
        actions = { set_probability; }
        size = @ENTRIES@;
        default_action = set_probability(0);
    }
    apply {
        if (!hdr.view.isValid() || !hdr.ipv4.isValid()) {
            return;
        }
        bool selected;
        if ((bit<64>)hdr.view.qlen >= 64w@KMAX@) {
            selected = true;                        /* x >= K_max: p = 1 */
        } else {
            bit<64> cell = ((bit<64>)hdr.view.qlen) >> @SHIFT@;
            if (cell > @LAST@) {
                cell = @LAST@;
            }
            meta.cell = (bit<32>)cell;
            red_probability.apply();
            selected = hdr.view.draw < meta.probability;   /* draw < p selects */
        }
        if (!selected) {
            hdr.view.verdict = @PASS@;
        } else if (hdr.ipv4.ecn == 0) {
)" + select_not_ect +
                 R"(        } else {
            hdr.ipv4.ecn = 3;                       /* RFC 3168 §5: CE */
            hdr.view.verdict = @MARK@;
        }
    }
}
)" + ipv4_checksum +
                 R"(
control NetccDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.view);
        pkt.emit(hdr.ipv4);
    }
}
)" + main_decl,
             {{"@SHIFT@", num(shift)},
              {"@ENTRIES@", num(red_table_entries)},
              {"@LAST@", num(red_table_entries - 1)},
              {"@KMAX@", num(kmax)},
              {"@PASS@", code(red_action::pass)},
              {"@MARK@", code(red_action::mark)},
              {"@DROP@", code(red_action::drop)}});
  return s;
}

// ---------------------------------------------------------------- Bolt
inline std::string emit_bolt(const emit_params& p) {
  const bolt_params& b = p.bolt;
  std::string last_branch, inc_branch;
  if (b.pru) {
    last_branch = subst(R"(            } else if (hdr.bolt.last == 1) {             /* line 11 */
                if (hdr.bolt.first == 0) {                   /* line 12 */
                    if (pru != 32w0xFFFFFFFF) {
                        pru = pru + 1;                       /* saturating 32-bit counter */
                    }
                    hdr.view.verdict = @PRU_ADDED@;
                } else {
                    hdr.view.verdict = @LAST_FIRST@;
                }
)",
                        {{"@PRU_ADDED@", code(bolt_action::pru_added)},
                         {"@LAST_FIRST@", code(bolt_action::last_first)}});
  }
  std::string pru_take =
      b.pru ? subst(R"(                if (pru > 0) {                           /* line 14 */
                    pru = pru - 1;                           /* line 15 */
                    hdr.view.verdict = @INC_PRU@;
                } else )",
                    {{"@INC_PRU@", code(bolt_action::inc_pru)}})
            : std::string("                ");
  std::string sm_take = b.sm ? R"(if (tok >= MTU) {                 /* line 16 */
                    tok = tok - MTU;                         /* line 17 */
                    hdr.view.verdict = @INC_SM@;
                } else )"
                             : "";
  inc_branch = pru_take + sm_take + R"({
                    hdr.bolt.inc = 0;                        /* line 19 */
                    hdr.view.verdict = @INC_CLEARED@;
                }
)";
  std::string s = header_comment(function::bolt, p) + prelude;
  s += subst(R"(/* Bolt NSDI'23 Listing 1: the 9-byte header. */
header bolt_t {
    bit<24> q_size;
    bit<8>  link_rate;
    bit<1>  data;
    bit<1>  ack;
    bit<1>  src;
    bit<1>  last;
    bit<1>  first;
    bit<1>  inc;
    bit<1>  dec;
    bit<1>  reserved;
    bit<32> t_data_tx;
}

struct headers_t {
    ethernet_t ethernet;
    netcc_view_t view;
    bolt_t bolt;
}

struct metadata_t {
    @field_list(1) bit<24> src_q_size;
    @field_list(1) bit<8> src_link_rate;
    @field_list(1) bit<32> src_t_data_tx;
    bit<8> rate_code;
    bit<16> dt;
    bit<32> supply;
}

const int<32> MTU = @MTU@;
const bit<64> CC_THRESH = @CC_THRESH@;
const bit<32> SESSION_BASE = 1;

parser NetccParser(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_VIEW: parse_view;
            default: accept;
        }
    }
    state parse_view {
        pkt.extract(hdr.view);
        transition select(hdr.view.ether_type) {
            ETHERTYPE_NETCC: parse_bolt;
            default: accept;
        }
    }
    state parse_bolt {
        pkt.extract(hdr.bolt);
        transition accept;
    }
}

/* Bolt Algorithm 1 (BoltIngress) with Algorithm 3 (CalculateSupplyToken) over the §4.1 supply
 * table; per egress port registers (§4.1): last_sm_time (48-bit ns), sm_token (signed 32-bit,
 * saturating), pru_token (32-bit, saturating). */
control NetccIngress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    register<bit<48>>(@PORTS@) bolt_last_sm_time;
    register<bit<32>>(@PORTS@) bolt_sm_token;
    register<bit<32>>(@PORTS@) bolt_pru_token;

    action set_supply(bit<32> bytes) {
        meta.supply = bytes;
    }
    /* §4.1: BW * inter-arrival time, one entry per ns (netcc::bolt_supply_table). */
    table bolt_supply {
        key = { meta.dt: exact; }
        actions = { set_supply; }
        size = 65536;
        default_action = set_supply(0);
    }
)" + port_rate_table("bolt_port_rate") +
                 R"(
    apply {
)" + ingress_forward() +
                 R"(        if (!hdr.bolt.isValid()) {
            return;
        }
        if (hdr.bolt.data == 0) {
            hdr.view.verdict = @NOT_DATA@;                   /* line 2 */
            return;
        }
        bit<32> port = (bit<32>)hdr.view.port;
        /* Algorithm 3, line 3 of Algorithm 1 */
        bit<48> now = hdr.view.now[47:0];
        bit<48> last;
        bolt_last_sm_time.read(last, port);
        bolt_last_sm_time.write(port, now);                  /* Alg. 3 line 3 */
        bit<48> dt = now - last;                             /* Alg. 3 line 2, mod 2^48 */
        bit<32> tok_raw;
        bolt_sm_token.read(tok_raw, port);
        int<32> tok = (int<32>)tok_raw;
        int<32> demand = (int<32>)standard_metadata.packet_length;
        if (dt[47:47] == 1) {
            tok = tok |-| demand;                            /* dt < 0: no supply */
        } else if (dt[47:16] == 0) {
            meta.dt = dt[15:0];
            bolt_supply.apply();                             /* Alg. 3 line 4 */
            tok = (tok |+| (int<32>)meta.supply) |-| demand; /* lines 5-6, saturating */
        } else {
            tok = MTU;                                       /* §4.1: beyond the table */
        }
        if (tok > MTU) {
            tok = MTU;                                       /* line 7 */
        }
        bit<32> pru;
        bolt_pru_token.read(pru, port);
        if ((bit<64>)hdr.view.qlen >= CC_THRESH) {           /* line 4 */
            if (hdr.bolt.dec == 0) {                         /* line 5 */
                bolt_port_rate.apply();
                if (hdr.view.qlen >= 32w0xFFFFFF) {
                    meta.src_q_size = 24w0xFFFFFF;            /* line 6, saturating */
                } else {
                    meta.src_q_size = hdr.view.qlen[23:0];
                }
                meta.src_link_rate = meta.rate_code;         /* line 7 */
                meta.src_t_data_tx = hdr.bolt.t_data_tx;     /* line 8 */
                clone_preserving_field_list(CloneType.I2E,
                    (bit<32>)standard_metadata.ingress_port + SESSION_BASE, 1);   /* line 9 */
                hdr.bolt.dec = 1;                            /* line 10 */
                hdr.bolt.inc = 0;
                hdr.view.verdict = @SRC_GENERATED@;
            } else {
                hdr.view.verdict = @CONGESTED_DEC@;
            }
)" + last_branch +
                 R"(            } else if (hdr.bolt.inc == 1) {              /* line 13 */
)" + inc_branch + R"(            } else {
                hdr.view.verdict = @FORWARDED@;
            }
        bolt_sm_token.write(port, (bit<32>)tok);
        bolt_pru_token.write(port, pru);
    }
}

/* The SRC (§4.1): the mirrored data packet, trimmed, with only the SRC flag set, sent back
 * towards the sender. */
control NetccEgress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.instance_type == 1 && hdr.bolt.isValid()) {
            bit<48> mac = hdr.ethernet.dst_addr;
            hdr.ethernet.dst_addr = hdr.ethernet.src_addr;
            hdr.ethernet.src_addr = mac;
            hdr.view.kind = 1;
            hdr.view.verdict = @SRC_GENERATED@;
            hdr.view.out_port = (bit<16>)standard_metadata.egress_port;
            hdr.bolt.q_size = meta.src_q_size;
            hdr.bolt.link_rate = meta.src_link_rate;
            hdr.bolt.data = 0;
            hdr.bolt.ack = 0;
            hdr.bolt.src = 1;
            hdr.bolt.last = 0;
            hdr.bolt.first = 0;
            hdr.bolt.inc = 0;
            hdr.bolt.dec = 0;
            hdr.bolt.reserved = 0;
            hdr.bolt.t_data_tx = meta.src_t_data_tx;
            truncate(@SRC_BYTES@);
        }
    }
}
)" + no_checksum +
                 R"(
control NetccDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.view);
        pkt.emit(hdr.bolt);
    }
}
)" + main_decl,
             {{"@PORTS@", num(p.ports)},
              {"@MTU@", num(b.mtu.count())},
              {"@CC_THRESH@", num(b.cc_thresh.count() < 0 ? 0 : b.cc_thresh.count())},
              {"@SRC_BYTES@", num(14 + view_bytes + bolt_header::wire_size)},
              {"@NOT_DATA@", code(bolt_action::not_data)},
              {"@SRC_GENERATED@", code(bolt_action::src_generated)},
              {"@CONGESTED_DEC@", code(bolt_action::congested_dec)},
              {"@INC_SM@", code(bolt_action::inc_sm)},
              {"@INC_CLEARED@", code(bolt_action::inc_cleared)},
              {"@FORWARDED@", code(bolt_action::forwarded)}});
  return s;
}

// ---------------------------------------------------------------- FastTune
inline std::string flow_hash_statements(std::string_view src, std::string_view dst,
                                        std::string_view sport, std::string_view dport) {
  // netcc::fasttune_flow_hash, statement for statement, in 64-bit P4 arithmetic.
  return subst(R"(        bit<64> hx = @SRC@ ++ @DST@;
        bit<64> hy = (((bit<64>)@SPORT@) << 24) | (((bit<64>)@DPORT@) << 8) | (bit<64>)hdr.ipv4.protocol;
        hx = hx ^ (hy * 64w0x9E3779B97F4A7C15);
        hx = hx ^ (hx >> 30);
        hx = hx * 64w0xBF58476D1CE4E5B9;
        hx = hx ^ (hx >> 27);
        hx = hx * 64w0x94D049BB133111EB;
        hx = hx ^ (hx >> 31);
        bit<32> flow = (bit<32>)(hx & 64w@MASK@);
)",
               {{"@SRC@", std::string(src)},
                {"@DST@", std::string(dst)},
                {"@SPORT@", std::string(sport)},
                {"@DPORT@", std::string(dport)}});
}

inline std::string emit_fasttune(const emit_params& p) {
  const fasttune_switch_params& f = p.fasttune;
  std::string data_branch =
      f.switch_feedback
          ? subst(R"(            if (acked == 0) {                            /* line 2: NewACK */
                meta.sack_rate_code = hop.rate_code;
                meta.sack_ts = hop.ts;
                meta.sack_tx = hop.tx;
                meta.sack_qlen = hop.qlen;
                clone_preserving_field_list(CloneType.I2E,
                    (bit<32>)standard_metadata.ingress_port + SESSION_BASE, 1);   /* lines 3-5 */
                hdr.view.verdict = @SACK@;
            } else {
                hdr.view.verdict = @FORWARDED@;
            }
)",
                  {{"@SACK@", code(fasttune_action::sack_generated)},
                   {"@FORWARDED@", code(fasttune_action::forwarded)}})
          : subst("            hdr.view.verdict = @FORWARDED@;\n",
                  {{"@FORWARDED@", code(fasttune_action::forwarded)}});
  std::string pad_branch =
      f.ack_padding
          ? subst(
                R"(            if (meta.int_malformed == 0 && hdr.int_header.hop_count < @LIMIT@) {
)" + append_hop_statements("hop") +
                    R"(                hdr.ipv4.total_len = hdr.ipv4.total_len + 8;
                hdr.view.verdict = @PADDED@;           /* line 8 */
            } else {
                hdr.view.verdict = @NOT_PADDED@;
            }
)",
                {{"@LIMIT@", num(int_limit(f.int_push))},
                 {"@PADDED@", code(fasttune_action::ack_padded)},
                 {"@NOT_PADDED@", code(fasttune_action::ack_not_padded)}})
          : subst("            hdr.view.verdict = @NOT_PADDED@;\n",
                  {{"@NOT_PADDED@", code(fasttune_action::ack_not_padded)}});
  std::string s = header_comment(function::fasttune, p) + prelude;
  s += subst(
      R"(/* FastTune's transport header: ports (the five-tuple of §IV-B) and the packet kind. */
header ft_t {
    bit<16> src_port;
    bit<16> dst_port;
    bit<8>  kind;       /* netcc::fasttune_packet_kind: 0 data, 1 H-ACK, 2 S-ACK, 3 other */
    bit<8>  reserved;
}

struct headers_t {
    ethernet_t ethernet;
    netcc_view_t view;
    ipv4_t ipv4;
    ft_t ft;
    int_header_t int_header;
    int_hop_t[@CAP@] int_hops;
}

struct metadata_t {
    bit<8> remaining;
    bit<1> int_malformed;
    bit<8> rate_code;
    @field_list(1) bit<3> sack_rate_code;
    @field_list(1) bit<24> sack_ts;
    @field_list(1) bit<20> sack_tx;
    @field_list(1) bit<17> sack_qlen;
}

const bit<32> SESSION_BASE = 1;

parser NetccParser(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_VIEW: parse_view;
            default: accept;
        }
    }
    state parse_view {
        pkt.extract(hdr.view);
        transition select(hdr.view.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            PROTO_EXPERIMENTAL: parse_ft;
            default: accept;
        }
    }
    state parse_ft {
        pkt.extract(hdr.ft);
        transition parse_int;
    }
)" + std::string(int_parser_states) +
          R"(}

/* FastTune ISPA'21 Algorithm 1 (HANDLEPCKFROMLINK): NewACK per flow (a register indexed by
 * netcc::fasttune_flow_hash of the data path's five-tuple, §IV-B; it holds 1 once an ACK of the
 * flow passed, so the reset value 0 reads as NewACK = true). */
control NetccIngress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    register<bit<1>>(@FLOWS@) ft_acked;
)" + port_rate_table("ft_port_rate") +
          R"(
    apply {
)" + ingress_forward() +
          R"(        if (!hdr.ft.isValid()) {
            return;
        }
        /* The INT record of the data path's egress port (hdr.view.port), §III-B.2. */
        ft_port_rate.apply();
        int_hop_t hop;
)" + hop_statements("hop", "(bit<3>)meta.rate_code") +
          R"(        if (hdr.ft.kind == 0) {                          /* DataPck */
)" +
          flow_hash_statements("hdr.ipv4.src_addr", "hdr.ipv4.dst_addr", "hdr.ft.src_port",
                               "hdr.ft.dst_port") +
          R"(            bit<1> acked;
            ft_acked.read(acked, flow);
)" + data_branch +
          R"(        } else if (hdr.ft.kind == 1 || hdr.ft.kind == 2) {   /* H-ACK or S-ACK */
)" +
          flow_hash_statements("hdr.ipv4.dst_addr", "hdr.ipv4.src_addr", "hdr.ft.dst_port",
                               "hdr.ft.src_port") +
          R"(            ft_acked.write(flow, 1);                     /* line 7: NewACK := false */
)" + pad_branch +
          R"(        } else {
            hdr.view.verdict = @FORWARDED@;
        }
    }
}

/* The S-ACK: the cloned data packet turned around, with one INT record (lines 3-5). */
control NetccEgress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.instance_type == 1 && hdr.ft.isValid()) {
            bit<48> mac = hdr.ethernet.dst_addr;
            hdr.ethernet.dst_addr = hdr.ethernet.src_addr;
            hdr.ethernet.src_addr = mac;
            hdr.view.kind = 1;
            hdr.view.verdict = @SACK@;
            hdr.view.out_port = (bit<16>)standard_metadata.egress_port;
            bit<32> ip = hdr.ipv4.dst_addr;
            hdr.ipv4.dst_addr = hdr.ipv4.src_addr;
            hdr.ipv4.src_addr = ip;
            hdr.ipv4.total_len = @SACK_IP_LEN@;
            bit<16> l4 = hdr.ft.dst_port;
            hdr.ft.dst_port = hdr.ft.src_port;
            hdr.ft.src_port = l4;
            hdr.ft.kind = @KIND_SACK@;
            hdr.int_header.setValid();
            hdr.int_header.hop_count = 1;
            hdr.int_header.reserved = 0;
)" +
          [] {
            std::string inval;
            for (std::size_t i = 1; i < int_format::stack::max_hops; ++i)
              inval += "            hdr.int_hops[" + num(i) + "].setInvalid();\n";
            return inval;
          }() +
          R"(            hdr.int_hops[0].setValid();
            hdr.int_hops[0].rate_code = meta.sack_rate_code;
            hdr.int_hops[0].ts = meta.sack_ts;
            hdr.int_hops[0].tx = meta.sack_tx;
            hdr.int_hops[0].qlen = meta.sack_qlen;
            truncate(@SACK_BYTES@);
        }
    }
}
)" + ipv4_checksum +
          R"(
control NetccDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.view);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.ft);
        pkt.emit(hdr.int_header);
        pkt.emit(hdr.int_hops);
    }
}
)" + main_decl,
      {{"@CAP@", num(int_format::stack::max_hops)},
       {"@FLOWS@", num(p.flows)},
       {"@PORTS@", num(p.ports)},
       {"@MASK@", num(p.flows - 1)},
       {"@SACK_IP_LEN@", num(20 + 6 + 2 + 8)},
       {"@SACK_BYTES@", num(14 + view_bytes + 20 + 6 + 2 + 8)},
       {"@KIND_SACK@", num(static_cast<unsigned>(ft_kind_sack))},
       {"@SACK@", code(fasttune_action::sack_generated)},
       {"@FORWARDED@", code(fasttune_action::forwarded)}});
  return s;
}

// ---------------------------------------------------------------- DCQCN NP
inline std::string emit_dcqcn_np(const emit_params& p) {
  const bool schedule = p.dcqcn_np.mode == dcqcn_np_mode::schedule;
  const std::int64_t gap = p.dcqcn_np.interval.count() < 0 ? 0 : p.dcqcn_np.interval.count();
  std::string case2 = schedule ? subst(R"(            } else {
                bit<48> next = last + INTERVAL;              /* case 2: t_ + interval */
                np_last_cnp.write(flow, next);
                meta.cnp_at = next;
                meta.cnp_verdict = @SCHEDULE@;
                clone_preserving_field_list(CloneType.I2E,
                    (bit<32>)standard_metadata.ingress_port + SESSION_BASE, 1);
                hdr.view.verdict = @SCHEDULE@;
            }
)",
                                       {{"@SCHEDULE@", code(dcqcn_np_action::schedule)}})
                               : subst(R"(            } else {
                hdr.view.verdict = @NONE@;                   /* case 2: suppressed (DCQCN §3) */
            }
)",
                                       {{"@NONE@", code(dcqcn_np_action::none)}});
  std::string s = header_comment(function::dcqcn_np, p) + prelude;
  s += subst(
      R"(/* The notification point's view of a RoCEv2 packet: opcode and destination queue pair; a CNP
 * carries the time it is due (now, or t_ + interval when scheduled). */
header np_t {
    bit<8>  opcode;
    bit<24> dest_qp;
    bit<48> cnp_at;
    bit<16> reserved;
}

struct headers_t {
    ethernet_t ethernet;
    netcc_view_t view;
    ipv4_t ipv4;
    np_t np;
}

struct metadata_t {
    @field_list(1) bit<48> cnp_at;
    @field_list(1) bit<8> cnp_verdict;
}

const bit<48> INTERVAL = @INTERVAL@;
const bit<32> SESSION_BASE = 1;
const bit<8> CNP_OPCODE = 0x81;

parser NetccParser(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_VIEW: parse_view;
            default: accept;
        }
    }
    state parse_view {
        pkt.extract(hdr.view);
        transition select(hdr.view.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            PROTO_EXPERIMENTAL: parse_np;
            default: accept;
        }
    }
    state parse_np {
        pkt.extract(hdr.np);
        transition accept;
    }
}

/* DCQCN SIGCOMM'15 §3 (NP) and seed 003 §III-B d: per queue pair, t_ (48-bit ns) and whether a
 * CNP was ever sent (t_ = -inf until then). */
control NetccIngress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    register<bit<48>>(@FLOWS@) np_last_cnp;
    register<bit<1>>(@FLOWS@) np_any;
    apply {
)" + ingress_forward() +
          R"(        if (!hdr.np.isValid() || !hdr.ipv4.isValid() || hdr.np.opcode == CNP_OPCODE) {
            return;
        }
        hdr.view.verdict = @NONE@;
        if (hdr.ipv4.ecn == 3) {                             /* a CE-marked packet */
            bit<32> flow = ((bit<32>)hdr.np.dest_qp) & @MASK@;
            bit<48> last;
            bit<1> any;
            np_last_cnp.read(last, flow);
            np_any.read(any, flow);
            bit<48> now = hdr.view.now[47:0];
            bit<48> since = now - last;                      /* t - t_, mod 2^48 */
            if (any == 0 || (since[47:47] == 0 && since >= INTERVAL)) {
                np_last_cnp.write(flow, now);                /* case 1: t_ = t */
                np_any.write(flow, 1);
                meta.cnp_at = now;
                meta.cnp_verdict = @SEND_NOW@;
                clone_preserving_field_list(CloneType.I2E,
                    (bit<32>)standard_metadata.ingress_port + SESSION_BASE, 1);
                hdr.view.verdict = @SEND_NOW@;
            } else if (since[47:47] == 1) {
                hdr.view.verdict = @NONE@;                   /* case 3: already scheduled */
)" + case2 +
          R"(        }
    }
}

/* The CNP: the cloned packet turned around, opcode 0x81, carrying when it is due. */
control NetccEgress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.instance_type == 1 && hdr.np.isValid()) {
            bit<48> mac = hdr.ethernet.dst_addr;
            hdr.ethernet.dst_addr = hdr.ethernet.src_addr;
            hdr.ethernet.src_addr = mac;
            hdr.view.kind = 1;
            hdr.view.verdict = meta.cnp_verdict;
            hdr.view.out_port = (bit<16>)standard_metadata.egress_port;
            bit<32> ip = hdr.ipv4.dst_addr;
            hdr.ipv4.dst_addr = hdr.ipv4.src_addr;
            hdr.ipv4.src_addr = ip;
            hdr.ipv4.total_len = @CNP_IP_LEN@;
            hdr.ipv4.ecn = 0;
            hdr.np.opcode = CNP_OPCODE;
            hdr.np.cnp_at = meta.cnp_at;
            truncate(@CNP_BYTES@);
        }
    }
}
)" + ipv4_checksum +
          R"(
control NetccDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.view);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.np);
    }
}
)" + main_decl,
      {{"@INTERVAL@", num(gap)},
       {"@FLOWS@", num(p.flows)},
       {"@MASK@", num(p.flows - 1)},
       {"@CNP_IP_LEN@", num(20 + 12)},
       {"@CNP_BYTES@", num(14 + view_bytes + 20 + 12)},
       {"@NONE@", code(dcqcn_np_action::none)},
       {"@SEND_NOW@", code(dcqcn_np_action::send_now)}});
  return s;
}

// ---------------------------------------------------------------- token bucket
/// Exact token units of the bucket (bucket * 8e9, clamped as the C++ does).
inline std::uint64_t tb_cap_units(const token_bucket_params& p) {
  const std::int64_t b = p.bucket.count() < 0                 ? 0
                         : p.bucket > token_bucket_max_bucket ? token_bucket_max_bucket.count()
                                                              : p.bucket.count();
  return static_cast<std::uint64_t>(b) * static_cast<std::uint64_t>(token_bucket_units_per_byte);
}

/// ceil(cap / rate), clamped to 2^48 - 1: the idle time that fills an empty bucket.
inline std::uint64_t tb_dt_full(const token_bucket_params& p) {
  const std::uint64_t cap = tb_cap_units(p);
  const std::uint64_t r = p.rate.bps() <= 0 ? 1 : static_cast<std::uint64_t>(p.rate.bps());
  const std::uint64_t t = cap / r + (cap % r != 0 ? 1 : 0);
  constexpr std::uint64_t lim = (std::uint64_t{1} << 48) - 1;
  return t > lim ? lim : t;
}

inline std::string emit_token_bucket(const emit_params& p) {
  const token_bucket_params& t = p.token_bucket;
  const std::int64_t bucket = p.token_bucket.bucket.count() < 0 ? 0 : p.token_bucket.bucket.count();
  std::string s = header_comment(function::token_bucket, p) + prelude;
  s += subst(R"(struct headers_t {
    ethernet_t ethernet;
    netcc_view_t view;
}

struct metadata_t {
    bit<8> unused;
}

const bit<64> RATE = @RATE@;             /* bps = token units (1/8e9 B) per ns */
const bit<64> CAP = @CAP@;               /* bucket * 8e9 */
const bit<64> BUCKET = @BUCKET@;         /* bytes */
const bit<48> DT_FULL = @DT_FULL@;       /* ceil(CAP / RATE): an empty bucket fills */

parser NetccParser(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_VIEW: parse_view;
            default: accept;
        }
    }
    state parse_view {
        pkt.extract(hdr.view);
        transition accept;
    }
}

/* Le Boudec and Thiran §1.2.2: tokens accrue at r up to b; a packet of L bytes conforms when
 * L tokens are present and takes them (netcc::token_bucket_consume). Per egress port: the last
 * update (48-bit ns) and the tokens in exact units of 1/8e9 B (64-bit). */
control NetccIngress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    register<bit<48>>(@PORTS@) tb_last;
    register<bit<64>>(@PORTS@) tb_credit;
    apply {
)" + ingress_forward() +
                 R"(        bit<32> port = (bit<32>)hdr.view.port;
        bit<48> last;
        bit<64> c;
        tb_last.read(last, port);
        tb_credit.read(c, port);
        if (c > CAP) {
            c = CAP;
        }
        bit<48> now = hdr.view.now[47:0];
        bit<48> dt = now - last;
        if (dt[47:47] == 0 && dt != 0) {                     /* time went forward */
            if (dt >= DT_FULL) {
                c = CAP;
            } else {
                bit<64> gain = RATE * (bit<64>)dt;           /* < CAP: dt < ceil(CAP / RATE) */
                if (gain >= CAP - c) {
                    c = CAP;
                } else {
                    c = c + gain;
                }
            }
            tb_last.write(port, now);
        }
        bit<64> size = (bit<64>)standard_metadata.packet_length;
        if (size <= BUCKET && c >= size * 8000000000) {
            c = c - size * 8000000000;                       /* conforming: tokens -= L */
            hdr.view.verdict = 1;
        } else {
            hdr.view.verdict = 0;
)" + (p.token_bucket_police ? "            mark_to_drop(standard_metadata);\n" : "") +
                 R"(        }
        tb_credit.write(port, c);
    }
}

control NetccEgress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply { }
}
)" + no_checksum +
                 R"(
control NetccDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.view);
    }
}
)" + main_decl,
             {{"@RATE@", num(t.rate.bps() < 0 ? 0 : t.rate.bps())},
              {"@CAP@", num(tb_cap_units(t))},
              {"@BUCKET@", num(bucket)},
              {"@DT_FULL@", num(tb_dt_full(t))},
              {"@PORTS@", num(p.ports)}});
  return s;
}

// ---------------------------------------------------------------- commands
inline void mirror_commands(std::string& out, const emit_params& p) {
  for (std::size_t port = 0; port < p.ports; ++port)
    out += "mirroring_add " + num(port + 1) + " " + num(port) + "\n";
}

template <class Code>
void rate_commands(std::string& out, std::string_view table, std::span<const bit_rate> rates,
                   const emit_params& p, Code code_of) {
  for (std::size_t port = 0; port < p.ports; ++port) {
    const bit_rate r = port < rates.size() ? rates[port] : p.link_rate;
    out += "table_add " + std::string(table) + " set_rate_code " + num(port) + " => " +
           num(static_cast<unsigned>(code_of(r))) + "\n";
  }
}

template <std::int64_t Rate>
void bolt_supply_commands(std::string& out) {
  using table = bolt_supply_table<Rate>;
  for (std::size_t k = 0; k < table::size; ++k)
    out += "table_add bolt_supply set_supply " + num(k) + " => " + num(table::entries[k]) + "\n";
}

inline void bolt_supply_commands_for(std::string& out, bit_rate rate) {
  switch (rate.bps()) {
    case bolt_table_rates[0]:
      bolt_supply_commands<bolt_table_rates[0]>(out);
      break;
    case bolt_table_rates[1]:
      bolt_supply_commands<bolt_table_rates[1]>(out);
      break;
    case bolt_table_rates[2]:
      bolt_supply_commands<bolt_table_rates[2]>(out);
      break;
    case bolt_table_rates[3]:
      bolt_supply_commands<bolt_table_rates[3]>(out);
      break;
    case bolt_table_rates[4]:
      bolt_supply_commands<bolt_table_rates[4]>(out);
      break;
    case bolt_table_rates[5]:
      bolt_supply_commands<bolt_table_rates[5]>(out);
      break;
    case bolt_table_rates[6]:
      bolt_supply_commands<bolt_table_rates[6]>(out);
      break;
    default:
      break;  // validate() rejects other rates
  }
}

}  // namespace detail

/// @brief The P4_16 source of function `f` with parameters `p` (which should pass
/// validate(p, f); the text is produced either way).
/// @code
/// std::string src = netcc::p4::emit_source(netcc::p4::function::int_push, {});
/// @endcode
[[nodiscard]] inline std::string emit_source(function f, const emit_params& p) {
  switch (f) {
    case function::int_push:
      return detail::emit_int_push(p);
    case function::red_ecn:
      return detail::emit_red_ecn(p);
    case function::bolt:
      return detail::emit_bolt(p);
    case function::fasttune:
      return detail::emit_fasttune(p);
    case function::dcqcn_np:
      return detail::emit_dcqcn_np(p);
    case function::token_bucket:
      return detail::emit_token_bucket(p);
  }
  return {};
}

/// @brief The simple_switch_CLI commands of function `f`: mirror sessions (one per port), the
/// port rate codes (from `port_rates`, one per port; ports beyond it run at p.link_rate),
/// RED's probability cells (netcc::make_red_ecn_table) and Bolt's supply table
/// (netcc::bolt_supply_table), all from the C++ constexpr code.
/// @code
/// std::string cmds = netcc::p4::emit_commands(netcc::p4::function::red_ecn, {});
/// // "table_add red_probability set_probability 0 => 0\n" ...
/// @endcode
[[nodiscard]] inline std::string emit_commands(function f, const emit_params& p,
                                               std::span<const bit_rate> port_rates = {}) {
  std::string out;
  switch (f) {
    case function::int_push:
      detail::rate_commands(out, "int_port_rate", port_rates, p,
                            [](bit_rate r) { return detail::int_format::rate_code(r); });
      break;
    case function::red_ecn: {
      const unsigned shift = red_ecn_table_shift(p.red_ecn, red_table_entries);
      const auto table = make_red_ecn_table<red_table_entries>(p.red_ecn, shift);
      for (std::size_t i = 0; i < red_table_entries; ++i)
        out += "table_add red_probability set_probability " + detail::num(i) + " => " +
               detail::num(table.entries[i]) + "\n";
      break;
    }
    case function::bolt:
      detail::mirror_commands(out, p);
      detail::rate_commands(out, "bolt_port_rate", port_rates, p, [&](bit_rate r) {
        return bolt_encode_link_rate(r, p.bolt.link_rate_unit);
      });
      detail::bolt_supply_commands_for(out, p.link_rate);
      break;
    case function::fasttune:
      detail::mirror_commands(out, p);
      detail::rate_commands(out, "ft_port_rate", port_rates, p,
                            [](bit_rate r) { return detail::int_format::rate_code(r); });
      break;
    case function::dcqcn_np:
      detail::mirror_commands(out, p);
      break;
    case function::token_bucket:
      break;
  }
  return out;
}

/// @brief The program, its commands and its name for function `f`.
/// @code
/// auto prog = netcc::p4::emit(netcc::p4::function::dcqcn_np, {});
/// @endcode
[[nodiscard]] inline program emit(function f, const emit_params& p,
                                  std::span<const bit_rate> port_rates = {}) {
  return {std::string(name(f)), emit_source(f, p), emit_commands(f, p, port_rates)};
}

}  // namespace netcc::p4
