// SPDX-License-Identifier: MIT
#include <netcc/control/dctcp.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

using namespace netcc::literals;

namespace {

netcc::ack_event ack(netcc::sequence seq, netcc::sequence nxt, std::int64_t acked, bool ece) {
  return {.ack_seq = seq, .snd_nxt = nxt, .acked = netcc::bytes{acked}, .ecn_echo = ece};
}

struct gen_ack {
  netcc::sequence seq, nxt;
  std::int64_t acked;
  bool ece;
  int kind;  // 0 ack, 1 timeout, 2 fast-retransmit loss
};

// A random but plausible ACK stream (cumulative ACKs mostly advancing, some duplicates and
// reordered ones, huge acked counts, echoes), with losses and timeouts mixed in.
std::vector<gen_ack> gen_stream(bool allow_ecn, bool allow_loss) {
  const auto n = *rc::gen::inRange(1, 300);
  std::vector<gen_ack> v;
  netcc::sequence una = *rc::gen::inRange<std::uint64_t>(0, 1'000'000);
  netcc::sequence nxt = una + 14'600;
  for (int i = 0; i < n; ++i) {
    const int step = *rc::gen::inRange(0, 10);
    std::int64_t acked = 0;
    if (step < 7) {
      acked = *rc::gen::element<std::int64_t>(0, 1460, 2920, 14'600, 1'000'000'000'000);
      una += static_cast<netcc::sequence>(acked);
    } else if (step == 7) {
      acked = -*rc::gen::inRange<std::int64_t>(0, 5000);  // nonsense: negative count
    }                                                     // else: a duplicate ACK
    if (nxt < una) nxt = una;
    nxt += static_cast<netcc::sequence>(*rc::gen::inRange(0, 30'000));
    const bool ece = allow_ecn && *rc::gen::inRange(0, 3) == 0;
    int kind = 0;
    if (allow_loss) kind = *rc::gen::element(0, 0, 0, 0, 0, 0, 0, 0, 1, 2);
    const netcc::sequence seq = step == 9 ? una - std::min<netcc::sequence>(una, 4380) : una;
    v.push_back({seq, nxt, acked, ece, kind});
  }
  return v;
}

template <class C>
void apply(C& cc, const gen_ack& g) {
  if (g.kind == 1) {
    cc.on_timeout();
  } else if (g.kind == 2) {
    cc.on_loss();
  } else {
    cc.on_ack(ack(g.seq, g.nxt, g.acked, g.ece));
  }
}

}  // namespace

TEST(Dctcp, DefaultsFollowTheRfcAndThePaper) {
  const netcc::dctcp cc;
  EXPECT_EQ(cc.cwnd(), 14'600_B);     // 10 MSS (RFC 6928)
  EXPECT_DOUBLE_EQ(cc.alpha(), 1.0);  // RFC 8257 §4.2
  EXPECT_DOUBLE_EQ(cc.params().g, 1.0 / 16);
  EXPECT_EQ(cc.params().min_cwnd, 1460_B);  // 0 means one MSS
  EXPECT_TRUE(netcc::validate(netcc::dctcp_params{}).ok());
}

TEST(Dctcp, SlowStartCountsBytesUpToTwoSegmentsPerAck) {
  netcc::dctcp cc;
  cc.on_ack(ack(1460, 14'600, 1460, false));  // 14600 + 1460
  EXPECT_EQ(cc.cwnd(), 16'060_B);
  cc.on_ack(ack(6460, 20'000, 5000, false));  // + min(5000, 2 * 1460) = 2920
  EXPECT_EQ(cc.cwnd(), 18'980_B);
  cc.on_ack(ack(6460, 20'000, 0, false));  // a duplicate grows nothing
  EXPECT_EQ(cc.cwnd(), 18'980_B);
}

TEST(Dctcp, AlphaOncePerWindowThenCutByHalfAlpha) {
  netcc::dctcp cc{{.alpha_init = 0.0}};
  // ACK 1 opens the window (WindowEnd = 14600): 7300 B acked, unmarked; slow start +2920.
  cc.on_ack(ack(7300, 14'600, 7300, false));
  EXPECT_EQ(cc.cwnd(), 17'520_B);
  EXPECT_DOUBLE_EQ(cc.alpha(), 0.0);
  // ACK 2 reaches WindowEnd: 14600 B acked, 7300 marked, F = 0.5,
  // alpha = 0 + (1/16) * (0.5 - 0) = 0.03125; the echo then cuts:
  // cwnd = 17520 * (1 - 0.03125 / 2) = 17246.25, ssthresh = cwnd.
  cc.on_ack(ack(14'600, 30'000, 7300, true));
  EXPECT_DOUBLE_EQ(cc.alpha(), 0.03125);
  EXPECT_DOUBLE_EQ(cc.window(), 17'246.25);
  EXPECT_DOUBLE_EQ(cc.ssthresh(), 17'246.25);
  EXPECT_EQ(cc.cuts(), 1u);
  // Another echo before the ACK reaches 30000 (the cut's window): no second cut, no growth.
  cc.on_ack(ack(20'000, 40'000, 5400, true));
  EXPECT_DOUBLE_EQ(cc.window(), 17'246.25);
  EXPECT_EQ(cc.cuts(), 1u);
  // Unmarked, at ssthresh: congestion avoidance, + 1460 * 1460 / 17246.25 = 123.59...
  cc.on_ack(ack(21'460, 40'000, 1460, false));
  EXPECT_NEAR(cc.window(), 17'246.25 + 1460.0 * 1460.0 / 17'246.25, 1e-9);
  // The ACK reaches 30000: both the window of data and the cut's window end. Since ACK 2 reset
  // the counters: acked 5400 + 1460 + 8540 = 15400 B, marked 5400 + 8540 = 13940 B, so
  // F = 0.905..., alpha = 0.03125 + (F - 0.03125) / 16; the echo cuts again with it.
  const double w = cc.window();
  cc.on_ack(ack(30'000, 50'000, 8540, true));
  const double f = 13'940.0 / 15'400.0;
  const double alpha = 0.03125 + (f - 0.03125) / 16;
  EXPECT_NEAR(cc.alpha(), alpha, 1e-12);
  EXPECT_NEAR(cc.window(), w * (1 - alpha / 2), 1e-9);
  EXPECT_EQ(cc.cuts(), 2u);
}

TEST(Dctcp, CutNeverGoesBelowTwoSegmentsAndLossFollowsRfc5681) {
  netcc::dctcp cc{{.init_segments = 2}};  // cwnd 2920, alpha 1: a cut would halve to 1460
  cc.on_ack(ack(1460, 2920, 1460, true));
  EXPECT_EQ(cc.cwnd(), 2920_B);  // floor of 2 MSS
  netcc::dctcp big;              // cwnd 14600
  big.on_timeout();              // ssthresh = 7300, cwnd = 1 MSS
  EXPECT_EQ(big.cwnd(), 1460_B);
  EXPECT_DOUBLE_EQ(big.ssthresh(), 7300.0);
  netcc::dctcp fr;
  fr.on_loss();  // ssthresh = cwnd = 7300
  EXPECT_EQ(fr.cwnd(), 7300_B);
  EXPECT_DOUBLE_EQ(fr.ssthresh(), 7300.0);
}

TEST(Dctcp, BadParametersAreNamedAndFallBack) {
  const auto v = netcc::validate(netcc::dctcp_params{.g = 0, .alpha_init = 2, .mss = 0_B});
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].message(), "dctcp.g = 0: must be in (0, 1]");
  EXPECT_EQ(v[1].message(), "dctcp.alpha_init = 2: must be in [0, 1]");
  EXPECT_EQ(v[2].message(), "dctcp.mss = 0 B: must be in [1, 65535] B");
  const netcc::dctcp cc{{.g = 0, .alpha_init = 2, .mss = 0_B}};
  EXPECT_DOUBLE_EQ(cc.params().g, 1.0 / 16);
  EXPECT_EQ(cc.params().mss, 1460_B);
  EXPECT_EQ(cc.cwnd(), 14'600_B);
}

RC_GTEST_PROP(DctcpProperties, OutputsBoundedAndAlphaInUnitInterval, ()) {
  const auto mss = *rc::gen::inRange<std::int64_t>(1, 9000);
  const netcc::dctcp_params p{
      .g = *rc::gen::element(1.0 / 16, 1.0 / 256, 1.0, 0.5),
      .alpha_init = *rc::gen::element(0.0, 0.5, 1.0),
      .mss = netcc::bytes{mss},
      .max_cwnd = netcc::bytes{*rc::gen::inRange<std::int64_t>(mss, 0x7FFF'FFFF)}};
  netcc::dctcp d{p};
  netcc::basic_dctcp<netcc::arith::q32> q{p};
  for (const auto& g : gen_stream(true, true)) {
    apply(d, g);
    apply(q, g);
    for (const double w : {d.window(), netcc::to_double(q.window())}) {
      RC_ASSERT(std::isfinite(w));
      RC_ASSERT(w >= static_cast<double>(mss) - 1e-6);
      RC_ASSERT(w <= static_cast<double>(p.max_cwnd.count()) + 1e-6);
    }
    RC_ASSERT(d.alpha() >= 0.0 && d.alpha() <= 1.0);
    RC_ASSERT(netcc::to_double(q.alpha()) >= 0.0 && netcc::to_double(q.alpha()) <= 1.0);
    RC_ASSERT(d.cuts() == q.cuts());  // the fixed point takes the same decisions
  }
}

RC_GTEST_PROP(DctcpProperties, DoubleAndFixedPointAgree, ()) {
  netcc::dctcp d;
  netcc::basic_dctcp<netcc::arith::q32> q;
  for (const auto& g : gen_stream(true, false)) {
    apply(d, g);
    apply(q, g);
    // q32 rounds each step by 2^-32 relative: far below a byte over 300 ACKs.
    RC_ASSERT(std::abs(d.window() - netcc::to_double(q.window())) <= 1e-3 * d.window() + 1.0);
    RC_ASSERT(std::abs(d.alpha() - netcc::to_double(q.alpha())) <= 1e-6);
  }
}

RC_GTEST_PROP(DctcpProperties, AtMostOneCutPerWindowOfData, ()) {
  // A window of data starts at a cut and ends when a cumulative ACK reaches the snd_nxt of
  // that cut; a second cut needs such an ACK in between (reordered ACKs do not count).
  netcc::dctcp cc;
  bool in_window = false;
  netcc::sequence cut_nxt = 0;
  for (const auto& g : gen_stream(true, false)) {
    if (in_window && netcc::seq_geq(g.seq, cut_nxt)) in_window = false;
    const auto cuts = cc.cuts();
    cc.on_ack(ack(g.seq, g.nxt, g.acked, g.ece));
    if (cc.cuts() != cuts) {
      RC_ASSERT(cc.cuts() == cuts + 1);
      RC_ASSERT(!in_window);
      in_window = true;
      cut_nxt = g.nxt;
    }
    RC_ASSERT(cc.in_cut_window() == in_window);
  }
}

RC_GTEST_PROP(DctcpProperties, WithoutEchoesTheWindowNeverShrinks, ()) {
  netcc::dctcp cc{{.alpha_init = *rc::gen::element(0.0, 1.0)}};
  double prev = cc.window();
  for (const auto& g : gen_stream(false, false)) {
    cc.on_ack(ack(g.seq, g.nxt, g.acked, g.ece));
    RC_ASSERT(cc.window() >= prev);
    RC_ASSERT(cc.cuts() == 0u);
    prev = cc.window();
  }
  RC_ASSERT(cc.alpha() <= cc.params().alpha_init);  // no marks: alpha only decays
}
