// SPDX-License-Identifier: MIT
// Scenario keys for controller parameters: each key reaches its controller's parameter struct
// in the right unit, an unset key leaves the factory's value, and a value the controller's own
// validate() refuses is reported naming the key, the value and the rule (check_controller).
#include <netcc/testbench/controllers.hpp>
#include <netcc/testbench/scenario.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace netcc_tests::testbench_cc_params {

namespace tb = netcc::testbench;

namespace {

template <class C>
typename netcc::controller_traits<C>::params_type params_of(const tb::scenario& s,
                                                            const std::string& cc) {
  const auto entry = tb::find_controller(cc);
  EXPECT_TRUE(entry.has_value()) << cc;
  const auto made = entry->make(tb::scenario_cc_context(s));
  const auto* model = dynamic_cast<const tb::cc_model<C>*>(made.get());
  EXPECT_NE(model, nullptr) << cc;
  return model->controller().params();
}

tb::scenario with(std::initializer_list<std::pair<const char*, const char*>> keys) {
  tb::scenario s;
  for (const auto& [k, v] : keys) EXPECT_EQ(tb::set_key(s, k, v), "") << k;
  return s;
}

}  // namespace

TEST(CcParams, DcqcnKeysReachTheReactionPointInTheirUnits) {
  const auto s = with({{"dcqcn_g", "0.0625"},
                       {"dcqcn_k_us", "60"},
                       {"dcqcn_t_us", "300"},
                       {"dcqcn_b_bytes", "150000"},
                       {"dcqcn_r_ai_mbps", "40"},
                       {"dcqcn_r_hi_mbps", "200"},
                       {"dcqcn_f", "3"}});
  const auto p = params_of<netcc::dcqcn>(s, "dcqcn");
  EXPECT_EQ(p.g, 0.0625);
  EXPECT_EQ(p.alpha_timer, netcc::duration{60'000});
  EXPECT_EQ(p.rate_timer, netcc::duration{300'000});
  EXPECT_EQ(p.byte_counter, netcc::bytes{150'000});
  EXPECT_EQ(p.r_ai, netcc::bit_rate{40'000'000});
  EXPECT_EQ(p.r_hi, netcc::bit_rate{200'000'000});
  EXPECT_EQ(p.f, 3u);
}

TEST(CcParams, UnsetKeysLeaveTheFactorysValues) {
  const tb::scenario s;
  const auto d = params_of<netcc::dcqcn>(s, "dcqcn");
  EXPECT_EQ(d.g, netcc::dcqcn_params{}.g);
  EXPECT_EQ(d.line_rate, tb::scenario_cc_context(s).host_rate);  // the factory's own value
  EXPECT_EQ(params_of<netcc::hpcc>(s, "hpcc-plus").max_stage, 0);
  // Unset keys are not written back as scenario text.
  EXPECT_EQ(tb::format_scenario(s).find("dcqcn_"), std::string::npos);
  const auto t = with({{"hpcc_eta", "0.9"}});
  EXPECT_NE(tb::format_scenario(t).find("hpcc_eta = 0.9\n"), std::string::npos);
}

TEST(CcParams, TimelyPowertcpHpccSwiftAndBoltKeysReachTheirControllers) {
  const auto s = with({{"timely_t_low_us", "30"},
                       {"timely_t_high_us", "300"},
                       {"timely_alpha", "0.1"},
                       {"timely_beta", "0.5"},
                       {"timely_delta_mbps", "20"},
                       {"timely_hai", "7"},
                       {"powertcp_gamma", "0.8"},
                       {"powertcp_beta_bytes", "3000"},
                       {"hpcc_eta", "0.9"},
                       {"hpcc_w_ai_bytes", "500"},
                       {"hpcc_max_stage", "2"},
                       {"swift_base_target_us", "25"},
                       {"swift_fs_range_us", "100"},
                       {"swift_beta", "0.7"},
                       {"bolt_cc_thresh_bytes", "3000"}});
  const auto ti = params_of<netcc::timely>(s, "timely");
  EXPECT_EQ(ti.t_low, netcc::duration{30'000});
  EXPECT_EQ(ti.t_high, netcc::duration{300'000});
  EXPECT_EQ(ti.alpha, 0.1);
  EXPECT_EQ(ti.beta, 0.5);
  EXPECT_EQ(ti.delta, netcc::bit_rate{20'000'000});
  EXPECT_EQ(ti.hai_threshold, 7u);
  const auto pt = params_of<netcc::powertcp>(s, "powertcp");
  EXPECT_EQ(pt.gamma, 0.8);
  EXPECT_EQ(pt.beta, netcc::bytes{3000});
  EXPECT_EQ(params_of<netcc::theta_powertcp>(s, "theta-powertcp").gamma, 0.8);
  const auto hp = params_of<netcc::hpcc>(s, "hpcc");
  EXPECT_EQ(hp.eta, 0.9);
  EXPECT_EQ(hp.w_ai, netcc::bytes{500});
  EXPECT_EQ(hp.max_stage, 2);
  EXPECT_EQ(params_of<netcc::hpcc>(s, "hpcc-plus").max_stage, 2);  // the key wins
  const auto sw = params_of<netcc::swift>(s, "swift");
  EXPECT_EQ(sw.base_target, netcc::duration{25'000});
  EXPECT_EQ(sw.fs_range, netcc::duration{100'000});
  EXPECT_EQ(sw.beta, 0.7);
  tb::switch_config bolt_switch{};
  tb::find_controller("bolt")->configure_switch(bolt_switch, tb::scenario_cc_context(s));
  EXPECT_EQ(bolt_switch.bolt_cfg.cc_thresh, netcc::bytes{3000});
}

TEST(CcParams, DctcpVegasAndFasttuneKeysReachTheirControllers) {
  const auto s = with({{"dctcp_g", "0.125"},
                       {"dctcp_alpha_init", "0"},
                       {"vegas_alpha", "1"},
                       {"vegas_beta", "3"},
                       {"vegas_gamma", "2"},
                       {"fasttune_eta", "0.9"},
                       {"fasttune_w_ai_bytes", "800"}});
  const auto d = params_of<netcc::dctcp>(s, "dctcp");
  EXPECT_EQ(d.g, 0.125);
  EXPECT_EQ(d.alpha_init, 0.0);
  const auto v = params_of<netcc::vegas>(s, "vegas");
  EXPECT_EQ(v.alpha, 1.0);
  EXPECT_EQ(v.beta, 3.0);
  EXPECT_EQ(v.gamma, 2.0);
  EXPECT_TRUE(v.cwnd_limited_growth);  // the factory's own value stays
  const auto f = params_of<netcc::fasttune>(s, "fasttune");
  EXPECT_EQ(f.eta, 0.9);
  EXPECT_EQ(f.w_ai, netcc::bytes{800});
}

TEST(CcParams, DctcpByteCountingChoosesTheGrowthRule) {
  // Unset and 0: MSS x acked / cwnd per ACK (netcc::dctcp); 1: byte counting, with the other
  // keys still applied.
  EXPECT_EQ(params_of<netcc::dctcp>(tb::scenario{}, "dctcp").g, netcc::dctcp_params{}.g);
  EXPECT_EQ(params_of<netcc::dctcp>(with({{"dctcp_byte_counting", "0"}}), "dctcp").g,
            netcc::dctcp_params{}.g);
  const auto counting = params_of<netcc::dctcp_counting>(
      with({{"dctcp_byte_counting", "1"}, {"dctcp_g", "0.25"}}), "dctcp");
  EXPECT_EQ(counting.g, 0.25);
  const auto dctcp = *tb::find_controller("dctcp");
  const std::string two = tb::check_controller(with({{"dctcp_byte_counting", "2"}}), dctcp);
  EXPECT_EQ(two,
            "dctcp_byte_counting = 2: must be 0 (MSS x acked / cwnd per ACK) or 1 (byte "
            "counting)");
  const std::string half = tb::check_controller(with({{"dctcp_byte_counting", "0.5"}}), dctcp);
  EXPECT_EQ(half.rfind("dctcp_byte_counting = 0.5: must be a whole number", 0), 0u) << half;
  // The rule of either controller type is the controller's own validate().
  for (const char* rule : {"0", "1"}) {
    const std::string g =
        tb::check_controller(with({{"dctcp_byte_counting", rule}, {"dctcp_g", "0"}}), dctcp);
    EXPECT_EQ(g.rfind("dctcp_g = 0: ", 0), 0u) << g;
    EXPECT_NE(g.find("dctcp.g = 0: must be in (0, 1]"), std::string::npos) << g;
  }
  const std::string beta =
      tb::check_controller(with({{"vegas_beta", "-1"}}), *tb::find_controller("vegas"));
  EXPECT_EQ(beta.rfind("vegas_beta = -1: ", 0), 0u) << beta;
  const std::string eta =
      tb::check_controller(with({{"fasttune_eta", "0"}}), *tb::find_controller("fasttune"));
  EXPECT_EQ(eta.rfind("fasttune_eta = 0: ", 0), 0u) << eta;
}

TEST(CcParams, RefusedValuesNameTheKeyTheValueAndTheRule) {
  const auto dcqcn = *tb::find_controller("dcqcn");
  EXPECT_EQ(tb::check_controller(tb::scenario{}, dcqcn), "");
  // The controller's validate() has the rule; the key and value come first.
  const std::string g = tb::check_controller(with({{"dcqcn_g", "2"}}), dcqcn);
  EXPECT_EQ(g.rfind("dcqcn_g = 2: ", 0), 0u) << g;
  EXPECT_NE(g.find("must be in (0, 1]"), std::string::npos) << g;
  // Of several set keys, the one refused alone is named.
  const std::string two =
      tb::check_controller(with({{"dcqcn_t_us", "100"}, {"dcqcn_g", "-1"}}), dcqcn);
  EXPECT_EQ(two.rfind("dcqcn_g = -1: ", 0), 0u) << two;
  // Whole-number fields refuse fractions before the controller sees them.
  const std::string f = tb::check_controller(with({{"dcqcn_f", "2.5"}}), dcqcn);
  EXPECT_EQ(f.rfind("dcqcn_f = 2.5: must be a whole number", 0), 0u) << f;  // named once
  const std::string eta =
      tb::check_controller(with({{"hpcc_eta", "1.5"}}), *tb::find_controller("hpcc"));
  EXPECT_EQ(eta.rfind("hpcc_eta = 1.5: ", 0), 0u) << eta;
  const std::string thresh =
      tb::check_controller(with({{"bolt_cc_thresh_bytes", "0"}}), *tb::find_controller("bolt"));
  EXPECT_EQ(thresh.rfind("bolt_cc_thresh_bytes = 0: ", 0), 0u) << thresh;
  // Keys of another controller do not concern this one.
  EXPECT_EQ(tb::check_controller(with({{"hpcc_eta", "1.5"}}), dcqcn), "");
}

RC_GTEST_PROP(CcParams, AnyGInTheUnitIntervalIsAcceptedAndKept, ()) {
  const double g = *rc::gen::inRange(1, 1'000'000) / 1e6;
  tb::scenario s;
  RC_ASSERT(tb::set_key(s, "dcqcn_g", std::to_string(g)) == "");
  RC_ASSERT(tb::check_controller(s, *tb::find_controller("dcqcn")) == "");
  const auto made = tb::find_controller("dcqcn")->make(tb::scenario_cc_context(s));
  RC_ASSERT(dynamic_cast<const tb::cc_model<netcc::dcqcn>&>(*made).controller().params().g ==
            s.dcqcn_g);
}

TEST(CcParams, OneRttNoiseDistributionPerRun) {
  EXPECT_EQ(tb::check(with({{"rtt_noise_uniform_ns", "500"}})), "");
  EXPECT_EQ(tb::check(with({{"rtt_noise_normal_ns", "500"}})), "");
  const std::string both =
      tb::check(with({{"rtt_noise_uniform_ns", "500"}, {"rtt_noise_normal_ns", "200"}}));
  EXPECT_EQ(both.rfind("rtt_noise_normal_ns = 200: conflicts with rtt_noise_uniform_ns = 500", 0),
            0u)
      << both;
  EXPECT_NE(tb::set_key(*std::make_unique<tb::scenario>(), "rtt_noise_normal_ns", "-1"), "");
}

// The noise reaches the controllers: TIMELY on the incast sees RTTs past T_low, so its run
// differs, while the run without noise is unchanged by the keys' existence.
TEST(CcParams, RttNoiseKeysReachTheRun) {
  auto s = tb::builtin_scenarios().at("incast").second;
  s.duration_us = 300;
  s.sample_ns = 10'000;
  const auto timely = *tb::find_controller("timely");
  tb::series a, b, c;
  const auto plain = tb::run_scenario(s, timely, a);
  const auto again = tb::run_scenario(s, timely, b);
  EXPECT_EQ(a.columns, b.columns);
  ASSERT_EQ(tb::set_key(s, "rtt_noise_uniform_ns", "200000"), "");  // past T_low
  const auto noisy = tb::run_scenario(s, timely, c);
  EXPECT_NE(a.columns, c.columns);
  EXPECT_EQ(plain.hops, again.hops);
  (void)noisy;
}

// series_flows adds cwnd/rate/goodput columns for chosen flows; path_queues a queue column per
// hop of a flow's path (NIC, ToR, aggregation, core, aggregation, ToR on a fat-tree between
// pods), the hop toward the receiver holding what the flow's ToR queues.
TEST(CcParams, SeriesFlowsAndPathQueuesAddTheirColumns) {
  auto s = with({{"topology", "fattree"},
                 {"fattree_k", "4"},
                 {"long_flows", "0"},
                 {"incast_flows", "0"},
                 {"flows", "0>15,3>12"},
                 {"duration_us", "50"},
                 {"sample_ns", "1000"},
                 {"series_flows", "1"},
                 {"path_queues", "0,7"}});
  tb::series ts;
  (void)tb::run_scenario(s, *tb::find_controller("fixed-bdp"), ts);
  // The two `flows` are long flows (long0, long1); then flow 1's series, then flow 0's hops.
  std::vector<std::string> extra(ts.names.begin() + 8, ts.names.end());
  ASSERT_EQ(extra.size(), 3u + 6u);  // flow 7 does not exist: skipped
  EXPECT_EQ(extra[0], "flow1_cwnd_bytes");
  EXPECT_EQ(extra[2], "flow1_goodput_gbps");
  for (int h = 0; h < 6; ++h)
    EXPECT_EQ(extra[static_cast<std::size_t>(3 + h)],
              "flow0_hop" + std::to_string(h) + "_queue_bytes");
  // Flow 1's goodput column is the flow's own: the same samples as long1's.
  EXPECT_EQ(ts.columns[8 + 2], ts.columns[2 + 3 + 2]);
  double best = 0;
  for (const double g : ts.columns[8 + 2]) best = std::max(best, g);
  EXPECT_GT(best, 50.0);
  // Bad lists are refused with the key named.
  tb::scenario t;
  EXPECT_EQ(tb::set_key(t, "series_flows", "1,x").rfind("series_flows = 1,x: ", 0), 0u);
  EXPECT_EQ(tb::set_key(t, "path_queues", "all").rfind("path_queues = all: ", 0), 0u);
  EXPECT_EQ(tb::set_key(t, "series_flows", "all"), "");
}

// cc_series_flows: DCQCN's alpha and the CNPs each flow gets per sample; on the incast the
// CNPs come (ECN marks at the bottleneck) and alpha, updated by them, stays in [0, 1].
TEST(CcParams, CcSeriesFlowsRecordAlphaAndCnps) {
  auto s = tb::builtin_scenarios().at("incast").second;
  s.incast_at_us = 20;
  s.duration_us = 400;
  s.sample_ns = 5'000;
  ASSERT_EQ(tb::set_key(s, "cc_series_flows", "0,1"), "");
  tb::series ts;
  const auto r = tb::run_scenario(s, *tb::find_controller("dcqcn"), ts);
  const auto at = [&](const std::string& n) {
    const auto it = std::find(ts.names.begin(), ts.names.end(), n);
    EXPECT_NE(it, ts.names.end()) << n;
    return static_cast<std::size_t>(it - ts.names.begin());
  };
  const auto& alpha = ts.columns[at("flow0_alpha")];
  const auto& cnps = ts.columns[at("flow0_cnps")];
  double total = 0, high = 0;
  for (std::size_t i = 0; i < alpha.size(); ++i) {
    EXPECT_GE(alpha[i], 0.0);
    EXPECT_LE(alpha[i], 1.0);
    high = std::max(high, alpha[i]);
    total += cnps[i];
  }
  EXPECT_GT(total, 0.0);
  EXPECT_GT(r.cnps, 0u);
  EXPECT_GT(high, 0.0);
  (void)at("flow1_cnps");
  tb::scenario t;
  EXPECT_EQ(tb::set_key(t, "cc_series_flows", "all"), "");
  EXPECT_EQ(tb::set_key(t, "cc_series_flows", "-1").rfind("cc_series_flows = -1: ", 0), 0u);
}

}  // namespace netcc_tests::testbench_cc_params
