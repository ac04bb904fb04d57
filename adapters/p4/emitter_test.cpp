// SPDX-License-Identifier: MIT
// The P4 emitter without a toolchain: what the programs and command files hold (tables from the
// constexpr C++ code, parameters in their constants, branches switched off by parameters),
// parameter validation with field/value/rule errors, key=value settings, and the integer-only
// forms against the C++ arithmetic they replace (RapidCheck).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <netcc/adapters/p4/emitter.hpp>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace netcc::literals;
namespace p4 = netcc::p4;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(Emitter, EveryProgramIsAV1ModelProgramWithTheViewHeader) {
  for (auto f : p4::all_functions) {
    const auto prog = p4::emit(f, {});
    EXPECT_EQ(prog.name, p4::name(f));
    EXPECT_TRUE(has(prog.source, "#include <v1model.p4>")) << prog.name;
    EXPECT_TRUE(has(prog.source, "header netcc_view_t")) << prog.name;
    EXPECT_TRUE(has(prog.source, "V1Switch(NetccParser()")) << prog.name;
    EXPECT_EQ(prog.source, p4::emit_source(f, {})) << "deterministic: " << prog.name;
    EXPECT_EQ(p4::parse_function(p4::name(f)), f);
  }
  EXPECT_FALSE(p4::parse_function("pfc").has_value());
}

TEST(Emitter, PerPortStateIsRegistersOfPortsCells) {
  p4::emit_params p{.ports = 48};
  EXPECT_TRUE(has(p4::emit_source(p4::function::bolt, p), "register<bit<32>>(48) bolt_sm_token;"));
  EXPECT_TRUE(
      has(p4::emit_source(p4::function::bolt, p), "register<bit<48>>(48) bolt_last_sm_time;"));
  EXPECT_TRUE(
      has(p4::emit_source(p4::function::token_bucket, p), "register<bit<64>>(48) tb_credit;"));
  p.flows = 4096;
  EXPECT_TRUE(has(p4::emit_source(p4::function::fasttune, p), "register<bit<1>>(4096) ft_acked;"));
  EXPECT_TRUE(has(p4::emit_source(p4::function::dcqcn_np, p), "& 4095;"));
}

TEST(Emitter, RedTableCommandsAreTheConstexprTable) {
  p4::emit_params p;
  p.red_ecn = {5000_B, 200000_B, netcc::red_probability::from_ratio(1, 4), true};
  const unsigned shift = netcc::red_ecn_table_shift(p.red_ecn, p4::red_table_entries);
  const auto table = netcc::make_red_ecn_table<p4::red_table_entries>(p.red_ecn, shift);
  ASSERT_TRUE(table.check(0, p4::red_table_entries));
  const auto lines = lines_of(p4::emit_commands(p4::function::red_ecn, p));
  ASSERT_EQ(lines.size(), p4::red_table_entries);
  for (std::size_t i = 0; i < lines.size(); ++i)
    ASSERT_EQ(lines[i], "table_add red_probability set_probability " + std::to_string(i) + " => " +
                            std::to_string(table.entries[i]));
  const auto src = p4::emit_source(p4::function::red_ecn, p);
  EXPECT_TRUE(has(src, ">= 64w200000")) << "K_max comparator";
  EXPECT_TRUE(has(src, ">> " + std::to_string(shift) + ";"));
  // One mark_to_drop drops packets without a view; the other a selected Not-ECT packet.
  EXPECT_EQ(count(src, "mark_to_drop"), 2u);
  p.red_ecn.drop_not_ect = false;
  EXPECT_EQ(count(p4::emit_source(p4::function::red_ecn, p), "mark_to_drop"), 1u);
}

TEST(Emitter, BoltSupplyTableIsTheSection41Table) {
  for (std::int64_t rate : {std::int64_t{25'000'000'000}, std::int64_t{100'000'000'000}}) {
    p4::emit_params p{.ports = 4, .link_rate = netcc::bit_rate{rate}};
    const auto lines = lines_of(p4::emit_commands(p4::function::bolt, p));
    ASSERT_EQ(lines.size(), 4 + 4 + 65536u);  // mirror sessions, port rates, supply
    EXPECT_EQ(lines[0], "mirroring_add 1 0");
    EXPECT_EQ(lines[4], "table_add bolt_port_rate set_rate_code 0 => " +
                            std::to_string(netcc::bolt_encode_link_rate(netcc::bit_rate{rate})));
    for (std::size_t k : {0u, 1u, 120u, 4096u, 65535u}) {
      const std::int64_t want = rate == 100'000'000'000
                                    ? netcc::bolt_supply_table<100'000'000'000>::entries[k]
                                    : netcc::bolt_supply_table<25'000'000'000>::entries[k];
      EXPECT_EQ(lines[8 + k], "table_add bolt_supply set_supply " + std::to_string(k) + " => " +
                                  std::to_string(want));
    }
  }
}

TEST(Emitter, BoltParametersAndSwitchedOffBranches) {
  p4::emit_params p;
  p.bolt.mtu = 4096_B;
  p.bolt.cc_thresh = 8192_B;
  auto src = p4::emit_source(p4::function::bolt, p);
  EXPECT_TRUE(has(src, "const int<32> MTU = 4096;"));
  EXPECT_TRUE(has(src, "const bit<64> CC_THRESH = 8192;"));
  EXPECT_TRUE(has(src, "hdr.bolt.last == 1"));
  EXPECT_TRUE(has(src, "tok >= MTU"));
  p.bolt.pru = false;
  src = p4::emit_source(p4::function::bolt, p);
  EXPECT_FALSE(has(src, "hdr.bolt.last == 1")) << "PRU off: no LAST branch";
  EXPECT_FALSE(has(src, "pru = pru - 1"));
  p.bolt.sm = false;
  EXPECT_FALSE(has(p4::emit_source(p4::function::bolt, p), "tok >= MTU")) << "SM off";
}

TEST(Emitter, VerdictsAreTheCxxEnumValues) {
  const auto src = p4::emit_source(p4::function::bolt, {});
  EXPECT_TRUE(has(src, "hdr.view.verdict = " +
                           std::to_string(static_cast<unsigned>(netcc::bolt_action::inc_cleared)) +
                           ";"));
  const auto np = p4::emit_source(p4::function::dcqcn_np, {});
  EXPECT_TRUE(has(np, "meta.cnp_verdict = " +
                          std::to_string(static_cast<unsigned>(netcc::dcqcn_np_action::send_now)) +
                          ";"));
}

TEST(Emitter, FastTuneAndNpAndTokenBucketParameters) {
  p4::emit_params p;
  EXPECT_TRUE(has(p4::emit_source(p4::function::fasttune, p), "clone_preserving_field_list"));
  p.fasttune.switch_feedback = false;
  EXPECT_FALSE(has(p4::emit_source(p4::function::fasttune, p), "clone_preserving_field_list"));
  p.fasttune.int_push.max_hops = 2;
  EXPECT_TRUE(has(p4::emit_source(p4::function::fasttune, p), "hop_count < 2)"));

  p.dcqcn_np = {4000_ns, netcc::dcqcn_np_mode::suppress};
  EXPECT_TRUE(has(p4::emit_source(p4::function::dcqcn_np, p), "const bit<48> INTERVAL = 4000;"));
  EXPECT_FALSE(has(p4::emit_source(p4::function::dcqcn_np, p), "last + INTERVAL"));
  p.dcqcn_np.mode = netcc::dcqcn_np_mode::schedule;
  EXPECT_TRUE(has(p4::emit_source(p4::function::dcqcn_np, p), "last + INTERVAL"));

  p.token_bucket = {10_Gbps, 4500_B};
  const auto tb = p4::emit_source(p4::function::token_bucket, p);
  EXPECT_TRUE(has(tb, "const bit<64> CAP = 36000000000000;"));
  EXPECT_TRUE(has(tb, "const bit<48> DT_FULL = 3600;"));  // 4500 B at 1.25 B/ns
  EXPECT_EQ(count(tb, "mark_to_drop"), 2u);
  p.token_bucket_police = false;
  EXPECT_EQ(count(p4::emit_source(p4::function::token_bucket, p), "mark_to_drop"), 1u);
}

TEST(Emitter, IntRateCodesComeFromTheWireFormat) {
  p4::emit_params p{.ports = 3};
  const std::vector<netcc::bit_rate> rates{0_bps, 25_Gbps, 1600_Gbps};
  const auto lines = lines_of(p4::emit_commands(p4::function::int_push, p, rates));
  ASSERT_EQ(lines.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_EQ(lines[i], "table_add int_port_rate set_rate_code " + std::to_string(i) + " => " +
                            std::to_string(netcc::hpcc_int_format::rate_code(rates[i])));
}

TEST(Validate, FabricRulesAndP4Rules) {
  EXPECT_TRUE(p4::validate({}, p4::function::bolt).ok());
  p4::emit_params p{.ports = 1, .flows = 1000};
  auto v = p4::validate(p, p4::function::int_push);
  EXPECT_TRUE(v.names("p4.ports"));
  EXPECT_TRUE(v.names("p4.flows"));
  p = {};
  p.link_rate = 33_Gbps;
  EXPECT_TRUE(p4::validate(p, p4::function::int_push).ok()) << "any rate for INT";
  v = p4::validate(p, p4::function::bolt);
  ASSERT_TRUE(v.names("p4.link_rate"));
  EXPECT_EQ(v[0].value, "33000000000 bps");
  p = {};
  p.bolt.mtu = 0_B;
  EXPECT_TRUE(p4::validate(p, p4::function::bolt).names("bolt.mtu")) << "the fabric's validate";
  p = {};
  p.dcqcn_np.interval = p4::max_p4_interval;
  EXPECT_TRUE(p4::validate(p, p4::function::dcqcn_np).names("dcqcn_np.interval"));
  p = {};
  p.red_ecn.k_max = 1000_B;  // below k_min
  EXPECT_TRUE(p4::validate(p, p4::function::red_ecn).names("red_ecn.k_max"));
  p = {};
  p.token_bucket.bucket = netcc::bytes{std::int64_t{1} << 31};
  EXPECT_TRUE(p4::validate(p, p4::function::token_bucket).names("token_bucket.bucket"));
}

TEST(Settings, ParseEveryKindOfValue) {
  p4::emit_params p;
  netcc::validation v;
  EXPECT_TRUE(p4::set(p, "p4.link_rate", "400G", v));
  EXPECT_EQ(p.link_rate, 400_Gbps);
  EXPECT_TRUE(p4::set(p, "token_bucket.rate", "2500Mbps", v));
  EXPECT_EQ(p.token_bucket.rate, 2500_Mbps);
  EXPECT_TRUE(p4::set(p, "red_ecn.p_max", "1/100", v));
  EXPECT_EQ(p.red_ecn.p_max, netcc::red_probability::from_ratio(1, 100));
  EXPECT_TRUE(p4::set(p, "red_ecn.dctcp_k", "65000", v));
  const auto dctcp = netcc::dctcp_red_params(65000_B);
  EXPECT_EQ(p.red_ecn.k_min, dctcp.k_min);
  EXPECT_EQ(p.red_ecn.k_max, dctcp.k_max);
  EXPECT_EQ(p.red_ecn.p_max, dctcp.p_max);
  EXPECT_TRUE(p4::set(p, "bolt.pru", "false", v));
  EXPECT_FALSE(p.bolt.pru);
  EXPECT_TRUE(p4::set(p, "dcqcn_np.mode", "schedule", v));
  EXPECT_EQ(p.dcqcn_np.mode, netcc::dcqcn_np_mode::schedule);
  EXPECT_TRUE(v.ok());
  for (auto key : p4::setting_keys) {
    netcc::validation none;
    p4::emit_params q;
    (void)p4::set(q, key, "?", none);
    ASSERT_EQ(none.size(), 1u) << key;
    EXPECT_EQ(none[0].field, key);
    EXPECT_EQ(none[0].value, "?");
    EXPECT_NE(none[0].rule.find("must be"), std::string::npos) << key;
  }
  netcc::validation unknown;
  EXPECT_FALSE(p4::set(p, "bolt.speed", "1", unknown));
  EXPECT_EQ(unknown[0].message(), "bolt.speed = 1: unknown key (see netcc-p4 --help for the keys)");
}

// ---- integer-only forms (netcc/adapters/p4/arith.hpp) against the C++ arithmetic

TEST(Arith, IntQueueUnitsReciprocalIsExactAtTheEdges) {
  constexpr auto r = p4::make_reciprocal(80);
  static_assert(r.exact && r.pre_shift == 4 && r.post_shift == 31);
  for (std::uint64_t x : {0ull, 79ull, 80ull, 81ull, 159ull, 160ull, 10'485'679ull, 10'485'680ull,
                          0xFFFFFFF0ull, 0xFFFFFFFFull})
    EXPECT_EQ(r.apply(static_cast<std::uint32_t>(x)), x / 80) << x;
}

RC_GTEST_PROP(Arith, ReciprocalEqualsDivisionWhenExact, (std::uint32_t x, std::uint32_t d0)) {
  const std::uint64_t d = 1 + d0 % (1u << 20);
  const auto r = p4::make_reciprocal(d);
  if (r.exact) RC_ASSERT(r.apply(x) == x / d);
  const auto q = p4::make_reciprocal(80);
  RC_ASSERT(q.apply(x) == x / 80);
  // The INT quantisation as the program computes it equals int_wire_format::pack's.
  const std::uint64_t units = q.apply(x) > 131071 ? 131071 : q.apply(x);
  RC_ASSERT(units == (netcc::hpcc_int_format::pack(0, 0, netcc::bytes{x}, 0) & 0x1FFFF));
}

RC_GTEST_PROP(Arith, WrapDiff48IsTheTrueDifferenceWithinTwoTo47,
              (std::uint64_t base, std::int64_t d0)) {
  const std::int64_t d = d0 % (std::int64_t{1} << 47);
  const std::uint64_t later = base + static_cast<std::uint64_t>(d);
  RC_ASSERT(p4::wrap_diff48(later & ((1ull << 48) - 1), base & ((1ull << 48) - 1)) == d);
}

RC_GTEST_PROP(Arith, TokenBucketGainEqualsTheCxxRefill,
              (std::uint32_t rate0, std::uint32_t bucket0, std::uint64_t credit0,
               std::uint64_t dt0)) {
  const netcc::token_bucket_params tp{netcc::bit_rate{1 + static_cast<std::int64_t>(rate0) * 97},
                                      netcc::bytes{bucket0 % (1u << 30)}};
  const std::uint64_t cap = p4::detail::tb_cap_units(tp);
  const std::uint64_t credit = cap == 0 ? 0 : credit0 % (cap + 1);
  const std::uint64_t dt = dt0 % (std::uint64_t{1} << 47);
  const netcc::token_bucket_state s{netcc::timestamp{0}, static_cast<std::int64_t>(credit)};
  const auto want =
      netcc::detail::tb_credit_at(s, netcc::timestamp{static_cast<std::int64_t>(dt)}, tp);
  const auto got = p4::token_bucket_gain(credit, dt, static_cast<std::uint64_t>(tp.rate.bps()), cap,
                                         p4::detail::tb_dt_full(tp));
  RC_ASSERT(static_cast<std::uint64_t>(want) == got);
}

}  // namespace
