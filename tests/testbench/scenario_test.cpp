// SPDX-License-Identifier: MIT
// The runner's scenario layer against hostile input: whole numbers for integer keys, safe
// names, scenario files with duplicates, BOMs, NULs or nothing, events after the end of the
// run, and the resource estimate that keeps a run within memory.
#include <netcc/testbench/controllers.hpp>
#include <netcc/testbench/scenario.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace netcc_tests::testbench_scenario {

namespace tb = netcc::testbench;
namespace fs = std::filesystem;

namespace {

std::string load_text(const std::string& text, tb::scenario& s) {
  const fs::path p = fs::temp_directory_path() / "netcc_scenario_test.scn";
  {
    std::ofstream out(p, std::ios::binary);
    out << text;
  }
  std::string err = tb::load_scenario_file(p.string(), s);
  fs::remove(p);
  const std::string prefix = p.string();
  if (err.rfind(prefix, 0) == 0) err.replace(0, prefix.size(), "F");
  return err;
}

tb::scenario with(std::initializer_list<std::pair<const char*, const char*>> kv) {
  tb::scenario s;
  for (const auto& [k, v] : kv) EXPECT_EQ(tb::set_key(s, k, v), "") << k << " = " << v;
  return s;
}

}  // namespace

TEST(Scenario, IntegerKeysTakeWholeNumbersOnly) {
  tb::scenario s;
  EXPECT_EQ(tb::set_key(s, "senders", "2.7"), "senders = 2.7: must be a whole number");
  EXPECT_EQ(tb::set_key(s, "pfc", "0.5"), "pfc = 0.5: must be a whole number");
  EXPECT_EQ(tb::set_key(s, "seed", "1.5"), "seed = 1.5: must be a whole number");
  EXPECT_EQ(tb::set_key(s, "buffer_bytes", "1500.25"),
            "buffer_bytes = 1500.25: must be a whole number");
  EXPECT_EQ(s.senders, 11);  // unchanged by the rejected values
  EXPECT_EQ(s.pfc, 0);
  EXPECT_EQ(tb::set_key(s, "senders", "12"), "");
  EXPECT_EQ(tb::set_key(s, "seed", "7e3"), "");  // a whole number in any notation
  EXPECT_EQ(s.seed, 7000u);
  EXPECT_EQ(tb::set_key(s, "duration_us", "2.5"), "");  // real-valued keys stay real
  EXPECT_EQ(tb::set_key(s, "senders", ""), "senders = : not a number");
  EXPECT_EQ(tb::set_key(s, "senders", "nan"), "senders = nan: must be in [1, 1024]");
  EXPECT_EQ(tb::set_key(s, "duration_us", "inf"), "duration_us = inf: must be in [1, 1e+07]");
}

TEST(Scenario, NamesAreSafeFileNamesAndValuesArePrintable) {
  tb::scenario s;
  EXPECT_EQ(tb::set_key(s, "name", "my-run.2"), "");
  for (const char* bad : {"x$(touch PWNED)", "x`touch PWNED`", "a'b", "../../escaped", "a/b", ""}) {
    EXPECT_NE(tb::set_key(s, "name", bad), "") << bad;
    EXPECT_EQ(s.name, "my-run.2");
  }
  EXPECT_EQ(tb::set_key(s, "name", "a\x1b[31mb"),
            "name = a\\x1b[31mb: must be 1-64 characters from [A-Za-z0-9._-], starting with a "
            "letter or digit");
  EXPECT_EQ(tb::set_key(s, "senders", "\x01\xff"), "senders = \\x01\\xff: not a number");
  EXPECT_EQ(tb::set_key(s, "\x1b[2J", "1"), "unknown key '\\x1b[2J' (netcc-sim keys lists them)");
}

TEST(Scenario, FilesRejectDuplicatesNulsAndEmptinessAndSkipABom) {
  tb::scenario s;
  EXPECT_EQ(load_text("senders = 12\n# again\nsenders = 13\n", s),
            "F:3: senders is set twice (first on line 1)");
  EXPECT_EQ(s.senders, 11);  // a bad file changes nothing
  EXPECT_EQ(load_text("", s), "F: no setting (an empty scenario file; netcc-sim keys lists them)");
  EXPECT_EQ(load_text("# comment\n\n   \n", s),
            "F: no setting (an empty scenario file; netcc-sim keys lists them)");
  EXPECT_EQ(load_text(std::string("senders = 12\0\n", 14), s), "F:1: a NUL byte: not a text file");
  EXPECT_EQ(load_text("senders = 12\nduration_us = x\n", s), "F:2: duration_us = x: not a number");
  EXPECT_EQ(s.senders, 11);
  EXPECT_EQ(load_text("\xEF\xBB\xBFname = bom\r\nsenders = 12\r\n", s), "");
  EXPECT_EQ(s.name, "bom");
  EXPECT_EQ(s.senders, 12);
  EXPECT_EQ(load_text("\xEF\xBB\xBF", s),
            "F: no setting (an empty scenario file; netcc-sim keys lists them)");
  EXPECT_NE(tb::load_scenario_file("/nonexistent/x.scn", s).find("cannot open: No such file"),
            std::string::npos);
}

TEST(Scenario, EverythingScheduledStartsInsideTheRun) {
  EXPECT_EQ(tb::check(with({{"incast_at_us", "5000"}})),
            "the last incast flow starts at 5000 us (incast_at_us, incast_gap_us): must be before "
            "the end of the run (duration_us = 3000)");
  EXPECT_EQ(tb::check(with({{"incast_at_us", "100"}, {"incast_gap_us", "400"}})),
            "the last incast flow starts at 3700 us (incast_at_us, incast_gap_us): must be before "
            "the end of the run (duration_us = 3000)");
  EXPECT_EQ(
      tb::check(with({{"incast_flows", "0"}, {"long_flows", "3"}, {"long_start_gap_us", "1500"}})),
      "the last long flow starts at 3000 us (long_start_gap_us): must be before the end of "
      "the run (duration_us = 3000)");
  EXPECT_EQ(tb::check(with({{"senders", "12"}, {"burst_flows", "1"}, {"burst_at_us", "3000"}})),
            "the first burst at 3000 us (burst_at_us): must be before the end of the run "
            "(duration_us = 3000)");
  EXPECT_EQ(tb::check(with({{"sample_ns", "3000001"}})),
            "sample_ns = 3000001: must be at most the run, duration_us = 3000 (3e+06 ns)");
  EXPECT_EQ(tb::check(with({{"sample_ns", "3000000"}})), "");
  for (const auto& [name, d] : tb::builtin_scenarios()) EXPECT_EQ(tb::check(d.second), "") << name;
}

TEST(Scenario, EstimateNamesTheKeysOfEachBlowUp) {
  // ~1e10 scheduled writes.
  auto s = with({{"burst_flows", "1"},
                 {"burst_period_us", "0.001"},
                 {"incast_flows", "0"},
                 {"duration_us", "1e7"},
                 {"max_memory_mb", "12000"}});
  auto e = tb::estimate_resources(s);
  EXPECT_EQ(e.writes, 10'000'000'001u);
  std::string err = tb::check(s);
  EXPECT_NE(err.find("10000000001 scheduled burst writes (burst_flows = 1, burst_period_us = "
                     "0.001, burst_count = 0, duration_us = 1e+07)"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("over the limit of 11.7 GiB (max_memory_mb = 12000)"), std::string::npos)
      << err;
  // A 1 s link delay at 100 Gbps: 12.5 GB on each link each way.
  s = with({{"link_delay_ns", "1e9"}, {"duration_us", "3e6"}, {"max_memory_mb", "12000"}});
  err = tb::check(s);
  EXPECT_NE(err.find("packets the links hold at once (link_delay_ns = 1000000000"),
            std::string::npos)
      << err;
  // A sample every 10 ns for 10 s.
  s = with({{"sample_ns", "10"}, {"duration_us", "1e7"}, {"max_memory_mb", "12000"}});
  EXPECT_EQ(tb::estimate_resources(s).samples, 1'000'000'001u);
  err = tb::check(s);
  EXPECT_NE(err.find("the time series, 1000000001 samples x 5 columns (sample_ns = 10, "
                     "duration_us = 1e+07, long_flows = 1)"),
            std::string::npos)
      << err;
  // 64 leaves x 256 hosts, 64 spines: fits (routes only at switches).
  s = with({{"topology", "leafspine"},
            {"leaves", "64"},
            {"spines", "64"},
            {"hosts_per_leaf", "256"},
            {"max_memory_mb", "2048"}});
  e = tb::estimate_resources(s);
  EXPECT_EQ(e.nodes, 64u * 256 + 128);
  EXPECT_EQ(e.links, 64u * 256 + 64 * 64);
  EXPECT_LT(e.total_bytes(), std::uint64_t{1} << 30);
  // The default incast: one long flow at 100 Gbps for 3 ms (25,000 packets) and 10 x 500 kB
  // (10 x 334 packets), 4 events per packet per hop, 2 hops: 226,720 events.
  EXPECT_EQ(tb::estimate_resources(tb::scenario{}).events, 8u * (25'000 + 10 * 334));
  EXPECT_EQ(tb::check(s), "");
  // The key itself, and its default of half the machine.
  s = with({{"max_memory_mb", "1"}, {"sample_ns", "100"}});
  EXPECT_NE(tb::check(s).find("(max_memory_mb = 1); most of it is the time series"),
            std::string::npos);
  EXPECT_EQ(tb::memory_limit(tb::scenario{}), tb::default_memory_limit());
  EXPECT_GT(tb::default_memory_limit(), 0u);
}

TEST(Scenario, RunStopsAtTheMemoryLimitWithTheKeysToChange) {
  // Passes the estimate; 200 one-BDP windows of 100 Gbps hosts then queue ~75 MB at a 1 Gbps
  // bottleneck with a 10 GB buffer, past a 4 MiB limit.
  auto s = with({{"max_memory_mb", "4"},
                 {"buffer_bytes", "1e10"},
                 {"senders", "201"},
                 {"incast_flows", "200"},
                 {"bottleneck_gbps", "1"},
                 {"incast_size_bytes", "1e6"},
                 {"incast_at_us", "0"},
                 {"duration_us", "200"},
                 {"sample_ns", "10000"}});
  ASSERT_EQ(tb::check(s), "");
  const auto cc = tb::find_controller("fixed-bdp");
  ASSERT_TRUE(cc);
  tb::series ts;
  try {
    (void)tb::run_scenario(s, *cc, ts);
    FAIL() << "the run did not stop";
  } catch (const tb::resource_limit_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("fixed-bdp: the run passed its memory limit (max_memory_mb = 4, 4 MiB) at "),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("lower buffer_bytes, link_delay_ns or the load, or raise max_memory_mb"),
              std::string::npos);
  }
}

RC_GTEST_PROP(Scenario, EstimateGrowsWithTheRunAndShrinksWithTheSampleInterval, ()) {
  tb::scenario s;
  s.duration_us = *rc::gen::inRange(1, 10'000'000);
  s.sample_ns = *rc::gen::inRange<std::int64_t>(10, 1'000'000);
  s.long_flows = *rc::gen::inRange(0, 64);
  s.burst_flows = *rc::gen::inRange(0, 4);
  s.burst_period_us = *rc::gen::inRange(1, 1000);
  const auto e = tb::estimate_resources(s);
  tb::scenario longer = s;
  longer.duration_us *= 2;
  tb::scenario coarser = s;
  coarser.sample_ns *= 2;
  RC_ASSERT(tb::estimate_resources(longer).total_bytes() >= e.total_bytes());
  RC_ASSERT(tb::estimate_resources(coarser).total_bytes() <= e.total_bytes());
  RC_ASSERT(e.samples >=
            static_cast<std::uint64_t>(s.duration_us * 1000 / static_cast<double>(s.sample_ns)));
  // Under the limit, check() does not complain about memory; over it, it names the limit.
  const std::string err = tb::check_resources(s, e, e.total_bytes());
  RC_ASSERT(err.empty());
  if (e.total_bytes() > 0)
    RC_ASSERT(tb::check_resources(s, e, e.total_bytes() - 1).find("over the limit") !=
              std::string::npos);
}

}  // namespace netcc_tests::testbench_scenario
