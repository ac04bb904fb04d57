// SPDX-License-Identifier: MIT
// TCP Vegas (netcc/control/vegas.hpp): hand-computed examples of each rule (the paper's §III-A/B/C;
// the seed's Algorithm 3 lines 1-25; RFC 5681 timeout; RFC 6928 initial window), validation;
// RapidCheck properties: outputs finite and bounded for any RTT sequence, one adjustment per round
// of exactly one packet by diff against alpha and beta, slow start doubling every other round
// until diff exceeds gamma, at most one loss decrease per window of data, and q32 against double
// on the same events.
#include <netcc/control/vegas.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace netcc_tests::control_vegas {

using namespace netcc::literals;

namespace {

using vegas_q32 = netcc::vegas_fixed;
using netcc::duration;
using netcc::sequence;

netcc::ack_event ack(sequence seq, sequence nxt, std::int64_t rtt_ns, std::int64_t acked = 1460) {
  return {.ack_seq = seq, .snd_nxt = nxt, .acked = netcc::bytes{acked}, .rtt = duration{rtt_ns}};
}

constexpr double mss = 1460;

// Drives a flow round by round. begin() sends the flow's first ACK, which arms the first round at
// `nxt`; round() sends one ACK per RTT sample, all below the round's mark but the last, which
// reaches it and reports snd_nxt = mark + `advance` (the next round's mark).
struct driver {
  sequence mark = 0;

  template <class C>
  void begin(C& cc, std::int64_t rtt_ns, sequence nxt) {
    cc.on_ack(ack(1460, nxt, rtt_ns));
    mark = nxt;
  }
  template <class C>
  void round(C& cc, const std::vector<std::int64_t>& rtts_ns, sequence advance = 100'000) {
    const auto k = static_cast<sequence>(rtts_ns.size());
    for (sequence i = 0; i < k; ++i) {
      const sequence seq = mark - (k - 1 - i);  // the last reaches the mark
      cc.on_ack(ack(seq, mark + advance, rtts_ns[i]));
    }
    mark += advance;
  }
};

// ---------------------------------------------------------------- an independent round model

// The rule of the file comment, restated: a round begins at the first ACK (or the first after a
// timeout) or at a loss, at the snd_nxt then; it ends at the first ACK whose cumulative sequence
// reaches it. BaseRTT is the minimum sample ever, minRTT the minimum of the round; samples <= 0
// are none.
struct round_model {
  bool armed = false;
  sequence mark = 0;
  duration base = duration::max();
  duration rmin = duration::max();
  bool sampled = false;

  struct outcome {
    bool ends = false;        // this ACK ends a round
    bool had_sample = false;  // that round had a sample
    duration base{}, min{};   // BaseRTT and minRTT of the decision
  };

  outcome on_ack(const netcc::ack_event& e) {
    if (!armed) {
      mark = e.snd_nxt;
      armed = true;
    }
    if (e.rtt > duration::zero()) {
      base = std::min(base, e.rtt);
      rmin = sampled ? std::min(rmin, e.rtt) : e.rtt;
      sampled = true;
    }
    outcome o;
    if (netcc::seq_geq(e.ack_seq, mark)) {
      o = {.ends = true, .had_sample = sampled, .base = base, .min = rmin};
      sampled = false;
      rmin = duration::max();
      mark = e.snd_nxt;
    }
    return o;
  }
  void on_loss(sequence nxt) {  // a decrease restarts the round
    armed = true;
    mark = nxt;
    sampled = false;
    rmin = duration::max();
  }
  void on_timeout() {
    armed = false;
    sampled = false;
    rmin = duration::max();
  }
};

// diff in double for a window of `w` bytes (the paper's definition, in exact-as-double terms).
double diff_of(double w, double mss_b, duration base, duration min) {
  return netcc::vegas_diff(w / mss_b, base, min);
}

// How far apart the two policies may compute diff: q32 divides and multiplies with 2^-33 of
// rounding each, and the ratio's rounding is multiplied by the window in packets.
double tie_band(double w, double mss_b) {
  return (w / mss_b + 4) * 0x1p-31 + 1e-9;
}

// ---------------------------------------------------------------- generators

// RTT samples: none (0, negative), 1 ns, around a base, huge (an hour, 2^62 ns), any.
std::int64_t gen_rtt(std::int64_t base) {
  switch (*rc::gen::inRange(0, 10)) {
    case 0:
      return 0;
    case 1:
      return -*rc::gen::inRange<std::int64_t>(1, 1'000'000);
    case 2:
      return 1;
    case 3:
      return *rc::gen::element<std::int64_t>(3'600'000'000'000, std::int64_t{1} << 62,
                                             std::numeric_limits<std::int64_t>::max());
    case 4:
      return *rc::gen::inRange<std::int64_t>(1, std::numeric_limits<std::int64_t>::max());
    case 5:
    case 6:  // just above BaseRTT: a queue of a few packets for windows of tens to thousands
      return base + base / *rc::gen::inRange<std::int64_t>(1, 2000);
    default:
      return base + *rc::gen::inRange<std::int64_t>(-base / 4, base);
  }
}

enum class kind : std::uint8_t { ack, loss, loss_again, timeout };

struct event {
  kind k = kind::ack;
  sequence seq = 0, nxt = 0;
  std::int64_t rtt = 0, acked = 0;
};

// ACK streams: cumulative ACKs mostly advancing, duplicates, reordered (older) ACKs, snd_nxt
// running ahead or pulled back, sequence numbers starting anywhere (wrapping past 2^64); RTTs from
// gen_rtt; losses and timeouts mixed in as asked.
// With `realistic`, RTT samples stay within the compact state's 32-bit range (up to 4 s).
std::vector<event> gen_stream(bool losses, int max_len = 300, bool realistic = false) {
  const auto n = *rc::gen::inRange(1, max_len);
  const auto base = *rc::gen::inRange<std::int64_t>(1, 10'000'000);
  std::vector<event> v;
  sequence una =
      *rc::gen::element<sequence>(0, 1'000'000, std::numeric_limits<sequence>::max() - 50'000);
  sequence nxt = una + 14'600;
  for (int i = 0; i < n; ++i) {
    event e;
    if (losses)
      e.k = *rc::gen::element(kind::ack, kind::ack, kind::ack, kind::ack, kind::ack, kind::ack,
                              kind::ack, kind::loss, kind::loss_again, kind::timeout);
    const int step = *rc::gen::inRange(0, 10);
    if (step < 7) {
      e.acked = *rc::gen::element<std::int64_t>(0, 1460, 2920, 14'600, 1'000'000);
      una += static_cast<sequence>(e.acked);
    }
    if (netcc::seq_gt(una, nxt)) nxt = una;
    nxt = *rc::gen::inRange(0, 8) == 0 ? una
                                       : nxt + static_cast<sequence>(*rc::gen::inRange(0, 30'000));
    e.seq = step == 9 ? una - 4380 : una;  // an older, reordered ACK
    e.nxt = nxt;
    e.rtt = gen_rtt(base);
    if (realistic && e.rtt > 4'000'000'000) e.rtt = e.rtt % 4'000'000'000;
    v.push_back(e);
  }
  return v;
}

template <class C>
void apply(C& cc, const event& e) {
  switch (e.k) {
    case kind::ack:
      cc.on_ack(ack(e.seq, e.nxt, e.rtt, e.acked));
      break;
    case kind::loss:
      cc.on_loss(ack(e.seq, e.nxt, e.rtt, e.acked));
      break;
    case kind::loss_again:
      cc.on_loss(ack(e.seq, e.nxt, e.rtt, e.acked), true);
      break;
    case kind::timeout:
      cc.on_timeout(netcc::timestamp{0});
      break;
  }
}

netcc::vegas_params gen_params() {
  const auto m = *rc::gen::inRange<std::int64_t>(1, 9001);
  const auto max_cwnd = *rc::gen::inRange<std::int64_t>(2 * m, 0x7FFF'FFFF);
  const double alpha = *rc::gen::element(0.0, 1.0, 2.0, 3.5);
  return {.alpha = alpha,
          .beta = alpha + *rc::gen::element(0.5, 1.0, 2.0, 10.0),
          .gamma = *rc::gen::element(0.0, 1.0, 2.0),
          .mss = netcc::bytes{m},
          .init_cwnd = netcc::bytes{*rc::gen::inRange<std::int64_t>(0, max_cwnd)},
          .min_cwnd = netcc::bytes{*rc::gen::inRange<std::int64_t>(0, 2 * m + 1)},
          .max_cwnd = netcc::bytes{max_cwnd},
          .cwnd_limited_growth = *rc::gen::arbitrary<bool>()};
}

// Anything, including invalid values, which must fall back.
netcc::vegas_params gen_any_params() {
  if (*rc::gen::arbitrary<bool>()) return gen_params();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  return {
      .alpha = *rc::gen::element(-1.0, nan, inf, 5.0, 2.0, 1e300),
      .beta = *rc::gen::element(-1.0, nan, inf, 4.0, 1.0, 3e6),
      .gamma = *rc::gen::element(-1.0, nan, 1.0, 1e9),
      .mss = netcc::bytes{*rc::gen::inRange<std::int64_t>(-10, 70'000)},
      .init_cwnd =
          netcc::bytes{*rc::gen::element<std::int64_t>(-5, 0, 1, 1'000'000, std::int64_t{1} << 40)},
      .min_cwnd =
          netcc::bytes{*rc::gen::element<std::int64_t>(-5, 0, 1, 100'000, std::int64_t{1} << 40)},
      .max_cwnd = netcc::bytes{*rc::gen::element<std::int64_t>(-5, 0, 1, 5000, 0x7FFF'FFFF,
                                                               std::int64_t{1} << 40)},
      .cwnd_limited_growth = *rc::gen::arbitrary<bool>()};
}

}  // namespace

// ---------------------------------------------------------------- examples

TEST(Vegas, DefaultsFollowThePaperAndRfc6928) {
  const netcc::vegas cc;
  EXPECT_EQ(cc.cwnd(), 14'600_B);            // RFC 6928: min(10 * 1460, max(2 * 1460, 14600))
  EXPECT_DOUBLE_EQ(cc.params().alpha, 2.0);  // Vegas-2,4
  EXPECT_DOUBLE_EQ(cc.params().beta, 4.0);
  EXPECT_DOUBLE_EQ(cc.params().gamma, 1.0);  // §III-C: one buffer
  EXPECT_EQ(cc.params().min_cwnd, 2920_B);   // 0 means the two-packet floor
  EXPECT_DOUBLE_EQ(cc.ssthresh(), 2147483647.0);
  EXPECT_TRUE(cc.in_slow_start());   // Alg. 3 line 1: Flag_slowstart = 1
  EXPECT_TRUE(cc.doubling_round());  // ... Flag_skip = 0
  EXPECT_EQ(cc.rounds(), 0u);
  EXPECT_EQ(cc.base_rtt(), duration::max());
  EXPECT_FALSE(cc.after_decrease());
  EXPECT_TRUE(netcc::validate(netcc::vegas_params{}).ok());
  // Other segment sizes: min(10 * 8960, max(17920, 14600)) = 17920 B, floor 17920 B;
  // min(10 * 536, max(1072, 14600)) = 5360 B, floor 1072 B.
  EXPECT_EQ(netcc::vegas{{.mss = 8960_B}}.cwnd(), 17'920_B);
  EXPECT_EQ(netcc::vegas{{.mss = 8960_B}}.params().min_cwnd, 17'920_B);
  EXPECT_EQ(netcc::vegas{{.mss = 536_B}}.cwnd(), 5'360_B);
  EXPECT_EQ(netcc::vegas{{.init_cwnd = 100'000_B}}.cwnd(), 100'000_B);
  EXPECT_EQ(netcc::vegas{{.init_cwnd = 1000_B}}.cwnd(), 2920_B);  // raised to the floor
  EXPECT_EQ(vegas_q32{}.cwnd(), 14'600_B);
}

TEST(Vegas, DiffIsExpectedMinusActualTimesBaseRtt) {
  // Alg. 3 line 8: W = 20 packets, BaseRTT 100 us, minRTT 125 us. Expected = 20 / 100 = 0.2
  // packets/us, Actual = 20 / 125 = 0.16; (0.2 - 0.16) * 100 = 4 = 20 (1 - 100/125).
  EXPECT_NEAR(netcc::vegas_diff(20.0, 100_us, 125_us), 4.0, 1e-12);
  EXPECT_NEAR(netcc::to_double(
                  netcc::vegas_diff(netcc::num<netcc::fixed_point<31, 32>>(20), 100_us, 125_us)),
              4.0, 1e-8);
  // 12 (1 - 75/100) = 3, exact in both policies (1/4 is a power of two).
  EXPECT_EQ(netcc::vegas_diff(12.0, 75_us, 100_us), 3.0);
  EXPECT_EQ(netcc::vegas_diff(netcc::fixed_point<31, 32>{12}, 75_us, 100_us).to_double(), 3.0);
  // No queueing measured, or nonsense: 0; a negative BaseRTT counts as 0 (diff = W).
  EXPECT_EQ(netcc::vegas_diff(20.0, 100_us, 100_us), 0.0);
  EXPECT_EQ(netcc::vegas_diff(20.0, 120_us, 100_us), 0.0);
  EXPECT_EQ(netcc::vegas_diff(20.0, 0_us, duration{0}), 0.0);
  EXPECT_EQ(netcc::vegas_diff(20.0, duration{-5}, 100_us), 20.0);
}

TEST(Vegas, RoundsFollowTheSndNxtMarkerAndMinRttIsPerRound) {
  netcc::vegas cc;
  // ACK 1 begins round 1 at snd_nxt 14600; BaseRTT = minRTT = 100 us.
  cc.on_ack(ack(1460, 14'600, 100'000));
  EXPECT_EQ(cc.rounds(), 0u);
  EXPECT_EQ(cc.base_rtt(), 100_us);
  EXPECT_EQ(cc.round_min_rtt(), 100_us);
  cc.on_ack(ack(7300, 20'000, 120'000));  // below the mark: same round; min stays 100 us
  EXPECT_EQ(cc.round_min_rtt(), 100_us);
  cc.on_ack(ack(5000, 20'000, 90'000));  // a reordered ACK still carries a sample: 90 us
  EXPECT_EQ(cc.base_rtt(), 90_us);
  EXPECT_EQ(cc.round_min_rtt(), 90_us);
  cc.on_ack(ack(14'599, 20'000, 0));  // one byte short, and no sample
  EXPECT_EQ(cc.rounds(), 0u);
  EXPECT_EQ(cc.cwnd(), 14'600_B);
  // Reaches 14600: round 1 ends with minRTT 90 us = BaseRTT, diff = 0 <= gamma, and it is a
  // doubling round (line 15): 29200 B. The next round begins at this ACK's snd_nxt, 29200.
  cc.on_ack(ack(14'600, 29'200, 110'000));
  EXPECT_EQ(cc.rounds(), 1u);
  EXPECT_EQ(cc.cwnd(), 29'200_B);
  EXPECT_EQ(cc.round_min_rtt(), duration::max());  // minRTT restarts with the round
  EXPECT_EQ(cc.base_rtt(), 90_us);                 // BaseRTT never does
  EXPECT_FALSE(cc.doubling_round());
  // Round 2 gets no sample (0 and negative RTTs are none): it ends without a decision and does
  // not count as the holding round.
  cc.on_ack(ack(20'000, 30'000, -7));
  cc.on_ack(ack(29'200, 40'000, 0));
  EXPECT_EQ(cc.rounds(), 2u);
  EXPECT_EQ(cc.cwnd(), 29'200_B);
  EXPECT_FALSE(cc.doubling_round());
  EXPECT_TRUE(cc.in_slow_start());
}

TEST(Vegas, SlowStartDoublesEveryOtherRound) {
  // Alg. 3 lines 14-17 with diff = 0 (every sample at BaseRTT): double, hold, double, hold, ...
  netcc::vegas cc;
  driver d;
  d.begin(cc, 100'000, 14'600);
  const std::vector<double> expect = {29'200, 29'200, 58'400, 58'400, 116'800, 116'800};
  for (const double w : expect) {
    d.round(cc, {100'000, 100'000});
    EXPECT_DOUBLE_EQ(cc.window(), w);
    EXPECT_TRUE(cc.in_slow_start());
  }
  EXPECT_EQ(cc.rounds(), 6u);
}

TEST(Vegas, SlowStartEndsWhenDiffExceedsGamma) {
  netcc::vegas cc;
  driver d;
  d.begin(cc, 100'000, 14'600);
  d.round(cc, {100'000});  // round 1: diff 0, double: 20 packets
  EXPECT_DOUBLE_EQ(cc.window(), 29'200.0);
  // Round 2 (a holding round): minRTT 125 us, diff = 20 (1 - 100/125) = 4 > gamma = 1. Lines
  // 10-12: W = 29200 * 100/125 = 23360 (16 packets), slow start ends.
  d.round(cc, {130'000, 125'000, 140'000});
  EXPECT_NEAR(cc.window(), 23'360.0, 1e-9);
  EXPECT_FALSE(cc.in_slow_start());
  EXPECT_EQ(cc.rounds(), 2u);

  // diff exactly gamma does not end it: 8 packets, BaseRTT 87.5 us, minRTT 100 us: diff = 8 *
  // (1 - 0.875) = 1 (exact in both policies).
  netcc::vegas ex{{.init_cwnd = netcc::bytes{4 * 1460}}};
  driver e;
  e.begin(ex, 87'500, 5840);
  e.round(ex, {87'500});   // diff 0: double to 8 packets
  e.round(ex, {100'000});  // diff = 1 = gamma: a holding round
  EXPECT_DOUBLE_EQ(ex.window(), 8 * mss);
  EXPECT_EQ(ex.last_branch(), netcc::vegas_branch::ss_hold);
  EXPECT_TRUE(ex.in_slow_start());
  e.round(ex, {100'000});  // diff = 1 again, a doubling round: 16 packets
  EXPECT_DOUBLE_EQ(ex.window(), 16 * mss);
  EXPECT_EQ(ex.last_branch(), netcc::vegas_branch::ss_double);
  EXPECT_TRUE(ex.in_slow_start());
  e.round(ex, {100'000});  // diff = 16/8 = 2 > 1: W = 16 * 0.875 = 14 packets
  EXPECT_DOUBLE_EQ(ex.window(), 14 * mss);
  EXPECT_EQ(ex.last_branch(), netcc::vegas_branch::ss_exit);
  EXPECT_FALSE(ex.in_slow_start());
}

TEST(Vegas, CongestionAvoidanceMovesOnePacketPerRoundByDiff) {
  // Into congestion avoidance as above: BaseRTT 87.5 us, 14 packets.
  netcc::vegas cc{{.init_cwnd = netcc::bytes{8 * 1460}}};
  driver d;
  d.begin(cc, 87'500, 8 * 1460);
  d.round(cc, {87'500});   // double to 16
  d.round(cc, {100'000});  // diff 2 > gamma: 14 packets
  ASSERT_DOUBLE_EQ(cc.window(), 14 * mss);
  ASSERT_FALSE(cc.in_slow_start());
  // Line 20-21: diff = 14/8 = 1.75 < alpha = 2: + 1 packet; diff = 15/8 = 1.875: + 1 packet.
  d.round(cc, {100'000, 120'000});
  EXPECT_DOUBLE_EQ(cc.window(), 15 * mss);
  d.round(cc, {110'000, 100'000});
  EXPECT_DOUBLE_EQ(cc.window(), 16 * mss);
  EXPECT_EQ(cc.last_branch(), netcc::vegas_branch::avoid_up);
  // diff = 16/8 = 2 = alpha: unchanged (neither line 20 nor 22).
  d.round(cc, {100'000});
  EXPECT_DOUBLE_EQ(cc.window(), 16 * mss);
  EXPECT_EQ(cc.last_branch(), netcc::vegas_branch::avoid_hold);
  // minRTT 125 us: diff = 16 (1 - 87.5/125) = 4.8 > beta = 4: line 23, - 1 packet.
  d.round(cc, {125'000, 200'000});
  EXPECT_DOUBLE_EQ(cc.window(), 15 * mss);
  EXPECT_EQ(cc.last_branch(), netcc::vegas_branch::avoid_down);
  // minRTT 116.666... us is not exact; take BaseRTT 87.5 and minRTT 140 us: diff = 15 * (1 -
  // 0.625) = 5.625 > 4: - 1 packet; then at 14 packets diff = 5.25: - 1 packet.
  d.round(cc, {140'000});
  EXPECT_DOUBLE_EQ(cc.window(), 14 * mss);
  d.round(cc, {140'000});
  EXPECT_DOUBLE_EQ(cc.window(), 13 * mss);
  // Between: minRTT 116 us: diff = 13 (1 - 87.5/116) = 3.194 in [2, 4]: unchanged.
  d.round(cc, {116'000});
  EXPECT_DOUBLE_EQ(cc.window(), 13 * mss);

  // diff exactly beta is unchanged too: BaseRTT 75 us, minRTT 100 us, 16 packets: diff 4.
  netcc::vegas b{{.init_cwnd = netcc::bytes{8 * 1460}}};
  driver e;
  e.begin(b, 75'000, 8 * 1460);
  e.round(b, {75'000});   // double to 16
  e.round(b, {80'000});   // diff = 16 (1 - 75/80) = 1 <= gamma: hold
  e.round(b, {100'000});  // diff = 16/4 = 4 > gamma: W = 16 * 0.75 = 12 packets
  ASSERT_DOUBLE_EQ(b.window(), 12 * mss);
  for (int i = 13; i <= 16; ++i) {  // diff = W / 16 < 2 at minRTT 80 us: + 1 each round
    e.round(b, {80'000});
    EXPECT_DOUBLE_EQ(b.window(), i * mss);
  }
  e.round(b, {100'000});  // diff = 16 / 4 = 4 = beta: unchanged
  EXPECT_DOUBLE_EQ(b.window(), 16 * mss);
}

TEST(Vegas, FloorOfTwoPacketsAndCeiling) {
  // Into congestion avoidance at the floor: 2 packets, BaseRTT 50 us; round 1 doubles to 4, round
  // 2 (holding) measures 100 us: diff = 4 (1 - 50/100) = 2 > gamma, W = 4 * 0.5 = 2 packets.
  netcc::vegas cc{{.init_cwnd = 2920_B}};
  driver d;
  d.begin(cc, 50'000, 2920);
  d.round(cc, {50'000});
  d.round(cc, {100'000});
  ASSERT_DOUBLE_EQ(cc.window(), 2 * mss);
  ASSERT_FALSE(cc.in_slow_start());
  d.round(cc, {1'000'000});  // diff = 2 * 0.95 = 1.9 < alpha: + 1 (diff is small at the floor)
  EXPECT_DOUBLE_EQ(cc.window(), 3 * mss);
  // With alpha 0.5, beta 1 the same diff 1.9 > beta: line 23, held at the floor of 2 packets.
  netcc::vegas low{{.alpha = 0.5, .beta = 1.0, .init_cwnd = 2920_B}};
  driver e;
  e.begin(low, 50'000, 2920);
  e.round(low, {50'000});
  e.round(low, {100'000});
  e.round(low, {1'000'000});
  EXPECT_DOUBLE_EQ(low.window(), 2 * mss);
  // A larger min_cwnd is the floor: 2920 B starts at 3000; round 1 doubles to 6000; round 2:
  // diff = 6000/1460 * 0.5 = 2.05 > gamma, W = 6000 * 0.5 = 3000.
  netcc::vegas hi{{.init_cwnd = 2920_B, .min_cwnd = 3000_B}};
  EXPECT_DOUBLE_EQ(hi.window(), 3000.0);
  driver f;
  f.begin(hi, 50'000, 2920);
  f.round(hi, {50'000});
  EXPECT_DOUBLE_EQ(hi.window(), 6000.0);
  f.round(hi, {100'000});
  EXPECT_DOUBLE_EQ(hi.window(), 3000.0);
  // Doubling stops at max_cwnd (= ssthresh until a timeout), which ends slow start.
  netcc::vegas top{{.max_cwnd = 20'000_B}};
  driver g;
  g.begin(top, 10'000, 14'600);
  g.round(top, {10'000});
  EXPECT_EQ(top.cwnd(), 20'000_B);
  EXPECT_FALSE(top.in_slow_start());
}

TEST(Vegas, LossDecreasesOnlyForDataSentAfterTheLastDecrease) {
  netcc::vegas cc;
  // §III-A with the authors' decrease: 14600 * 3/4 = 10950; slow start ends; mark = 14600.
  cc.on_loss(ack(1460, 14'600, 0));
  EXPECT_DOUBLE_EQ(cc.window(), 10'950.0);
  EXPECT_FALSE(cc.in_slow_start());
  EXPECT_TRUE(cc.after_decrease());
  EXPECT_EQ(cc.reductions(), 1u);
  // The segment at 5000 was sent before the decrease (5000 < 14600): no decrease.
  cc.on_loss(ack(5000, 20'000, 0));
  EXPECT_DOUBLE_EQ(cc.window(), 10'950.0);
  EXPECT_EQ(cc.reductions(), 1u);
  // At 14600 it was sent after: 10950 * 3/4 = 8212.5; mark = 30000.
  cc.on_loss(ack(14'600, 30'000, 0));
  EXPECT_DOUBLE_EQ(cc.window(), 8212.5);
  // A segment retransmitted before: halve, 4106.25.
  cc.on_loss(ack(30'000, 40'000, 0), true);
  EXPECT_DOUBLE_EQ(cc.window(), 4106.25);
  // At most three packets (4106.25 <= 4380): two packets.
  cc.on_loss(ack(40'000, 50'000, 0));
  EXPECT_DOUBLE_EQ(cc.window(), 2920.0);
  cc.on_loss(ack(50'000, 60'000, 0));  // never raised, never below the floor
  EXPECT_DOUBLE_EQ(cc.window(), 2920.0);
  EXPECT_EQ(cc.reductions(), 5u);

  // A loss begins a new round at its snd_nxt: ACKs below 70000 do not end it.
  netcc::vegas r{{.init_cwnd = netcc::bytes{20 * 1460}}};
  r.on_ack(ack(1460, 29'200, 100'000));
  r.on_loss(ack(1460, 70'000, 0));  // 21900 B
  r.on_ack(ack(29'200, 80'000, 100'000));
  EXPECT_EQ(r.rounds(), 0u);
  r.on_ack(ack(70'000, 90'000, 100'000));  // ends it: diff = 0 < alpha: + 1 packet
  EXPECT_EQ(r.rounds(), 1u);
  EXPECT_DOUBLE_EQ(r.window(), 21'900.0 + mss);
}

TEST(Vegas, TimeoutRestartsSlowStartFromTheFloor) {
  netcc::vegas cc;
  cc.on_timeout(netcc::timestamp{1});  // ssthresh = max(14600 / 2, 2920) = 7300; cwnd = 2920
  EXPECT_DOUBLE_EQ(cc.ssthresh(), 7300.0);
  EXPECT_DOUBLE_EQ(cc.window(), 2920.0);
  EXPECT_TRUE(cc.in_slow_start());
  EXPECT_TRUE(cc.doubling_round());
  EXPECT_EQ(cc.reductions(), 1u);
  // Again with no ACK in between: ssthresh is held (RFC 5681 §3.1), not max(1460, 2920).
  cc.on_timeout(netcc::timestamp{2});
  EXPECT_DOUBLE_EQ(cc.ssthresh(), 7300.0);
  EXPECT_EQ(cc.reductions(), 2u);
  // The first ACK after it begins a round and sets the §III-A mark at 4380.
  cc.on_ack(ack(1460, 4380, 100'000));
  cc.on_loss(ack(3000, 5000, 0));  // sent before the timeout's decrease: ignored
  EXPECT_DOUBLE_EQ(cc.window(), 2920.0);
  EXPECT_TRUE(cc.in_slow_start());
  cc.on_ack(ack(4380, 7300, 100'000));  // round 1: diff 0, double: 5840 < ssthresh
  EXPECT_DOUBLE_EQ(cc.window(), 5840.0);
  EXPECT_TRUE(cc.in_slow_start());
  cc.on_ack(ack(7300, 10'000, 100'000));    // round 2: hold
  cc.on_ack(ack(10'000, 13'000, 100'000));  // round 3: 11680 >= 7300: ssthresh, slow start ends
  EXPECT_DOUBLE_EQ(cc.window(), 7300.0);
  EXPECT_FALSE(cc.in_slow_start());
  cc.on_ack(ack(13'000, 16'000, 100'000));  // congestion avoidance: diff 0 < alpha: + 1
  EXPECT_DOUBLE_EQ(cc.window(), 8760.0);
  // A timeout from a larger window: ssthresh = 8760 / 2 = 4380.
  cc.on_timeout(netcc::timestamp{3});
  EXPECT_DOUBLE_EQ(cc.ssthresh(), 4380.0);
  // ... and a loss of data sent after its mark reduces again.
  cc.on_ack(ack(16'000, 18'000, 100'000));  // mark 18000
  cc.on_loss(ack(18'000, 20'000, 0));
  EXPECT_DOUBLE_EQ(cc.window(), 2920.0);  // two packets (the window was at most three)
  EXPECT_EQ(cc.reductions(), 4u);
}

TEST(Vegas, RttOfZeroOfAnHourAndRepeatedTimestamps) {
  netcc::vegas cc;
  for (int i = 0; i < 5; ++i) cc.on_ack(ack(1460, 14'600, 0));  // no samples, same time
  EXPECT_EQ(cc.base_rtt(), duration::max());
  cc.on_ack(ack(14'600, 29'200, 0));  // a round without a sample: nothing
  EXPECT_EQ(cc.rounds(), 1u);
  EXPECT_EQ(cc.cwnd(), 14'600_B);
  // An hour, then two: diff = 10 (1 - 1/2) = 5 > gamma: W = 14600 / 2.
  cc.on_ack(ack(29'200, 40'000, 3'600'000'000'000));  // round 2: diff 0, double to 29200
  EXPECT_EQ(cc.cwnd(), 29'200_B);
  cc.on_ack(ack(40'000, 50'000, 7'200'000'000'000));
  EXPECT_DOUBLE_EQ(cc.window(), 14'600.0);
  EXPECT_FALSE(cc.in_slow_start());
  // A 1 ns sample ends round 4 as BaseRTT and minRTT: diff 0 < alpha, + 1 packet. Round 5 at
  // 100 us: diff = 11 (1 - 1e-5) > beta: - 1 packet.
  cc.on_ack(ack(50'000, 60'000, 1));
  EXPECT_DOUBLE_EQ(cc.window(), 14'600.0 + mss);
  EXPECT_EQ(cc.base_rtt(), duration{1});
  cc.on_ack(ack(60'000, 70'000, 100'000));
  EXPECT_DOUBLE_EQ(cc.window(), 14'600.0);
}

TEST(Vegas, WindowLimitedGrowthIsAnOption) {
  netcc::vegas cc{{.cwnd_limited_growth = true}};
  // Round 1 ends with 14600 - 14600 + 1460 = 1460 B in flight, under half of 14600: no doubling
  // (the round still counts as the doubling round).
  cc.on_ack(ack(1460, 14'600, 100'000));
  cc.on_ack(ack(14'600, 14'600, 100'000));
  EXPECT_DOUBLE_EQ(cc.window(), 14'600.0);
  EXPECT_FALSE(cc.doubling_round());
  cc.on_ack(ack(20'000, 20'000, 100'000));  // round 2 (hold)
  // Round 3 ends with 26000 - 21000 + 1460 = 6460 B in flight < 7300: no doubling ...
  cc.on_ack(ack(21'000, 26'000, 100'000));
  EXPECT_DOUBLE_EQ(cc.window(), 14'600.0);
  cc.on_ack(ack(26'000, 26'000, 100'000));  // round 4 (hold)
  // ... round 5 with 40000 - 27000 + 1460 = 14460 >= 7300: doubled.
  cc.on_ack(ack(27'000, 40'000, 100'000));
  EXPECT_DOUBLE_EQ(cc.window(), 29'200.0);
  // Congestion avoidance: growth needs flight >= cwnd - MSS; decreases are never gated.
  cc.on_loss(ack(40'000, 40'000, 0));       // 21900 B, congestion avoidance, round from 40000
  cc.on_ack(ack(40'000, 50'000, 100'000));  // flight 11460 < 20440: diff 0 but no growth
  EXPECT_DOUBLE_EQ(cc.window(), 21'900.0);
  cc.on_ack(ack(50'000, 70'000, 100'000));  // flight 21460 >= 20440: + 1 packet
  EXPECT_DOUBLE_EQ(cc.window(), 23'360.0);
  cc.on_ack(ack(70'000, 70'000, 200'000));  // diff = 16 / 2 = 8 > beta: - 1 packet
  EXPECT_DOUBLE_EQ(cc.window(), 21'900.0);
}

TEST(Vegas, FixedPointFollowsTheSameExamples) {
  vegas_q32 cc{{.init_cwnd = netcc::bytes{8 * 1460}}};
  driver d;
  d.begin(cc, 87'500, 8 * 1460);
  d.round(cc, {87'500});   // double to 16
  d.round(cc, {100'000});  // diff 2 > gamma: 14 packets (0.875 is exact in q32)
  EXPECT_EQ(cc.window().to_double(), 14 * mss);
  d.round(cc, {100'000});  // + 1
  d.round(cc, {100'000});  // + 1
  d.round(cc, {100'000});  // diff = 2 = alpha: unchanged
  EXPECT_EQ(cc.window().to_double(), 16 * mss);
  d.round(cc, {125'000});  // diff 4.8 > beta: - 1
  EXPECT_EQ(cc.window().to_double(), 15 * mss);
  // 29200 * 100/125 = 23360 up to q32's rounding of 0.8.
  vegas_q32 ex;
  driver e;
  e.begin(ex, 100'000, 14'600);
  e.round(ex, {100'000});
  e.round(ex, {125'000});
  EXPECT_NEAR(ex.window().to_double(), 23'360.0, 29'200 * 0x1p-32 + 0x1p-32);
  ex.on_loss(ack(300'000, 400'000, 0));  // * 3/4, exact
  EXPECT_NEAR(ex.window().to_double(), 17'520.0, 29'200 * 0x1p-32 + 0x1p-32);
  ex.on_timeout();
  EXPECT_EQ(ex.window().to_double(), 2920.0);
  EXPECT_NEAR(ex.ssthresh().to_double(), 8760.0, 1e-5);
}

TEST(Vegas, BadParametersAreNamedAndFallBack) {
  const auto v = netcc::validate(netcc::vegas_params{.alpha = 5, .beta = 4});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].message(), "vegas.beta = 4: must be greater than alpha");
  const auto w = netcc::validate(netcc::vegas_params{.alpha = -1,
                                                     .beta = std::nan(""),
                                                     .gamma = 2e6,
                                                     .mss = 0_B,
                                                     .init_cwnd = -1_B,
                                                     .min_cwnd = -2_B,
                                                     .max_cwnd = 0_B});
  EXPECT_TRUE(w.names("vegas.alpha"));
  EXPECT_TRUE(w.names("vegas.beta"));
  EXPECT_TRUE(w.names("vegas.gamma"));
  EXPECT_TRUE(w.names("vegas.mss"));
  EXPECT_TRUE(w.names("vegas.init_cwnd"));
  EXPECT_TRUE(w.names("vegas.min_cwnd"));
  EXPECT_TRUE(w.names("vegas.max_cwnd"));
  EXPECT_EQ(w[0].message(), "vegas.alpha = -1: must be in [0, 1048576] packets");
  EXPECT_EQ(w[1].message(), "vegas.beta = nan: must be in [0, 1048576] packets");
  const auto m = netcc::validate(netcc::vegas_params{.max_cwnd = 2000_B});
  ASSERT_EQ(m.size(), 1u);  // below the floor of two MSS, 2920 B
  EXPECT_EQ(m[0].message(), "vegas.max_cwnd = 2000 B: must be at least min_cwnd (two MSS when 0)");
  // The controller sanitises: each bad field falls back; beta <= alpha resets both.
  const netcc::vegas cc{{.alpha = 5, .beta = 4, .gamma = -3, .mss = 0_B, .max_cwnd = -1_B}};
  EXPECT_DOUBLE_EQ(cc.params().alpha, 2.0);
  EXPECT_DOUBLE_EQ(cc.params().beta, 4.0);
  EXPECT_DOUBLE_EQ(cc.params().gamma, 1.0);
  EXPECT_EQ(cc.params().mss, 1460_B);
  EXPECT_EQ(cc.params().max_cwnd, netcc::bytes{0x7FFF'FFFF});
  const netcc::vegas small{{.min_cwnd = 5000_B, .max_cwnd = 3000_B}};
  EXPECT_EQ(small.params().max_cwnd, 5000_B);  // raised to min_cwnd
  EXPECT_EQ(small.cwnd(), 5000_B);
}

namespace {
// A stack's own ACK type: Vegas needs the cumulative ACK, snd_nxt, the acked count and an RTT.
struct my_ack {
  std::uint64_t t_ns, cum, nxt, rtt_ns;
  std::uint32_t len;
};
}  // namespace

}  // namespace netcc_tests::control_vegas

template <>
struct netcc::feedback_traits<netcc_tests::control_vegas::my_ack> {
  using my_ack = netcc_tests::control_vegas::my_ack;
  static constexpr netcc::timestamp now(const my_ack& a) {
    return netcc::timestamp{static_cast<std::int64_t>(a.t_ns)};
  }
  static constexpr netcc::sequence ack_seq(const my_ack& a) { return a.cum; }
  static constexpr netcc::sequence snd_nxt(const my_ack& a) { return a.nxt; }
  static constexpr netcc::bytes acked_bytes(const my_ack& a) { return netcc::bytes{a.len}; }
  static constexpr netcc::duration rtt(const my_ack& a) {
    return netcc::duration{static_cast<std::int64_t>(a.rtt_ns)};
  }
};

namespace netcc_tests::control_vegas {

TEST(Vegas, ReadsAStacksOwnAckThroughFeedbackTraits) {
  static_assert(netcc::AckFeedback<my_ack> && netcc::RttFeedback<my_ack>);
  netcc::vegas cc;
  cc.on_ack(my_ack{.t_ns = 1, .cum = 1460, .nxt = 14'600, .rtt_ns = 50'000, .len = 1460});
  cc.on_ack(my_ack{.t_ns = 2, .cum = 14'600, .nxt = 29'200, .rtt_ns = 50'000, .len = 1460});
  EXPECT_EQ(cc.cwnd(), 29'200_B);
  cc.on_loss(my_ack{.t_ns = 3, .cum = 14'600, .nxt = 29'200, .rtt_ns = 0, .len = 0});
  EXPECT_EQ(cc.cwnd(), 21'900_B);
}

// ---------------------------------------------------------------- properties

RC_GTEST_PROP(VegasProperties, OutputsFiniteAndBoundedForAnyRttSequence, ()) {
  const auto p = gen_any_params();
  netcc::vegas d{p};
  vegas_q32 q{p};
  const auto& in = d.params();
  for (const auto& e : gen_stream(true)) {
    apply(d, e);
    apply(q, e);
    RC_ASSERT(std::isfinite(d.window()));
    RC_ASSERT(d.cwnd() >= in.min_cwnd && d.cwnd() <= in.max_cwnd);
    RC_ASSERT(q.cwnd() >= in.min_cwnd && q.cwnd() <= in.max_cwnd);
    RC_ASSERT(d.ssthresh() >= static_cast<double>(in.min_cwnd.count()) &&
              d.ssthresh() <= static_cast<double>(in.max_cwnd.count()));
    RC_ASSERT(d.base_rtt() > duration::zero());
  }
}

RC_GTEST_PROP(VegasProperties, OneAdjustmentPerRoundOfOnePacketByDiff, ()) {
  auto p = gen_params();
  p.cwnd_limited_growth = false;
  netcc::vegas cc{p};
  const auto& in = cc.params();
  const double m = static_cast<double>(in.mss.count());
  const double lo = static_cast<double>(in.min_cwnd.count());
  const double hi = static_cast<double>(in.max_cwnd.count());
  // Into congestion avoidance with a loss, which begins a round at its snd_nxt.
  const auto stream = gen_stream(false);
  round_model model;
  cc.on_loss(ack(stream[0].seq, stream[0].seq, 0));
  model.on_loss(stream[0].seq);
  RC_ASSERT(!cc.in_slow_start());
  for (const auto& e : stream) {
    const double before = cc.window();
    const auto rounds = cc.rounds();
    const auto ev = ack(e.seq, e.nxt, e.rtt, e.acked);
    const auto o = model.on_ack(ev);
    cc.on_ack(ev);
    const double after = cc.window();
    RC_ASSERT(cc.rounds() == rounds + (o.ends ? 1u : 0u));
    if (!o.ends || !o.had_sample) {  // at most one adjustment per round, none without a sample
      RC_ASSERT(after == before);
      continue;
    }
    // The test computes diff as the double controller does (the same operations), so the
    // comparisons with alpha and beta are exact.
    const double diff = diff_of(before, m, o.base, o.min);
    if (diff < in.alpha) {
      RC_ASSERT(after == std::min(before + m, hi));  // exactly one packet (or up to max_cwnd)
    } else if (diff > in.beta) {
      RC_ASSERT(after == std::max(before - m, lo));  // exactly one packet (not below the floor)
    } else {
      RC_ASSERT(after == before);
    }
  }
}

RC_GTEST_PROP(VegasProperties, SlowStartDoublesEveryOtherRoundUntilDiffExceedsGamma, ()) {
  auto p = gen_params();
  p.cwnd_limited_growth = false;
  netcc::vegas cc{p};
  const auto& in = cc.params();
  const double m = static_cast<double>(in.mss.count());
  const double lo = static_cast<double>(in.min_cwnd.count());
  const double hi = static_cast<double>(in.max_cwnd.count());
  const auto base = *rc::gen::inRange<std::int64_t>(1'000, 10'000'000);
  driver d;
  d.begin(cc, base, 1'000'000);  // its sample, at BaseRTT, belongs to round 1
  bool doubling = true;
  for (int r = 0; r < 40 && cc.in_slow_start(); ++r) {
    // The round's minimum: at BaseRTT, a little above it, or well above it.
    const auto extra =
        *rc::gen::element<std::int64_t>(0, 0, 0, 0, 1, base / 1000, base / 100, base / 10, base);
    const std::int64_t rmin = r == 0 ? base : base + extra;
    const double before = cc.window();
    RC_ASSERT(cc.doubling_round() == doubling);
    d.round(cc, {base + extra + base, base + extra});
    // diff as the double controller computes it, so the comparison with gamma is exact.
    const double diff = diff_of(before, m, duration{base}, duration{rmin});
    if (diff > in.gamma) {  // lines 10-12: W * BaseRTT / minRTT, slow start ends
      const double ratio = static_cast<double>(base) / static_cast<double>(rmin);
      RC_ASSERT(cc.window() == std::clamp(before * ratio, lo, hi));
      RC_ASSERT(!cc.in_slow_start());
    } else if (doubling && !(2 * before < hi)) {  // line 15 reaches max_cwnd (= ssthresh)
      RC_ASSERT(cc.window() == hi);
      RC_ASSERT(!cc.in_slow_start());
    } else {  // lines 14-17: double in every other round, hold in between
      RC_ASSERT(cc.window() == (doubling ? 2 * before : before));
      RC_ASSERT(cc.in_slow_start());
      doubling = !doubling;
    }
  }
}

RC_GTEST_PROP(VegasProperties, LossDecreasesAtMostOncePerWindowOfData, ()) {
  netcc::vegas cc{gen_params()};
  // Model of §III-A: a decrease sets the mark at its snd_nxt (a timeout: at the first ACK's);
  // a loss decreases only when there was no decrease yet or its segment reached the mark.
  bool decreased = false, rearm = false;
  sequence mark = 0;
  for (const auto& e : gen_stream(true)) {
    const auto before = cc.reductions();
    const double w = cc.window();
    apply(cc, e);
    if (e.k == kind::timeout) {
      RC_ASSERT(cc.reductions() == static_cast<std::uint16_t>(before + 1));
      decreased = rearm = true;
      continue;
    }
    if (rearm) {
      mark = e.nxt;
      rearm = false;
    }
    if (e.k == kind::ack) {
      RC_ASSERT(cc.reductions() == before);
      continue;
    }
    const bool expect = !decreased || netcc::seq_geq(e.seq, mark);
    RC_ASSERT(cc.reductions() == static_cast<std::uint16_t>(before + (expect ? 1 : 0)));
    RC_ASSERT(cc.window() <= w);  // a loss never raises the window
    if (expect) {
      decreased = true;
      mark = e.nxt;
      RC_ASSERT(!cc.in_slow_start());
    } else {
      RC_ASSERT(cc.window() == w);
    }
  }
}

RC_GTEST_PROP(VegasProperties, DoubleAndQ32AgreeOnTheSameEvents, ()) {
  using q32 = vegas_q32::value_type;
  const auto p = gen_params();
  netcc::vegas d{p};
  vegas_q32 q{p};
  const auto& in = d.params();
  const double m = static_cast<double>(in.mss.count());
  const q32 mq = netcc::number_traits<q32>::from_int(in.mss.count());
  round_model model;
  double wmax = d.window();
  // Steps that q32 rounds: slow-start exits (W * BaseRTT / minRTT: a ratio rounded to 2^-33, a
  // product rounded to 2^-33), the 3/4 and 1/2 of losses and timeouts (a product rounded to
  // 2^-33). Each adds at most 2^-32 of the largest window to the difference of the windows, and
  // no later step enlarges it (doubling only ever starts from the exact floor after a timeout).
  int inexact = 0;
  const auto tol = [&] { return (inexact + 1) * (wmax + 2) * 0x1p-32; };
  // One decision, as each policy takes it: slow start (exit or not) or congestion avoidance (up,
  // down, hold), on its own diff.
  const auto decision = [&](bool ss, auto diff, auto alpha, auto beta, auto gamma) {
    if (ss) return diff > gamma ? 3 : 4;
    return diff < alpha ? 1 : (diff > beta ? 2 : 0);
  };
  for (const auto& e : gen_stream(true)) {
    // Where the two policies' own arithmetic (recomputed here as the controller does it) puts a
    // value on different sides of a threshold, they may decide differently, and from there on
    // their windows may differ: the comparison stops there. It must be a rounding tie: diff
    // agrees within the stated bound.
    const double w = d.window();
    const q32 wq = q.window();
    if (e.k == kind::ack) {
      const auto o = model.on_ack(ack(e.seq, e.nxt, e.rtt, e.acked));
      if (o.ends && o.had_sample) {
        const double diff = netcc::vegas_diff(w / m, o.base, o.min);
        const q32 diff_q = netcc::vegas_diff(wq / mq, o.base, o.min);
        RC_ASSERT(std::abs(diff - diff_q.to_double()) <= tie_band(w, m) + tol() / m);
        const bool ss = d.in_slow_start();
        if (decision(ss, diff, in.alpha, in.beta, in.gamma) !=
            decision(ss, diff_q, netcc::num<q32>(in.alpha), netcc::num<q32>(in.beta),
                     netcc::num<q32>(in.gamma)))
          return;
        if (in.cwnd_limited_growth) {
          const sequence out = netcc::seq_geq(e.nxt, e.seq) ? e.nxt - e.seq : 0;
          const auto f = static_cast<std::int64_t>(std::min<sequence>(
              out + static_cast<sequence>(std::max<std::int64_t>(e.acked, 0)), 0x7FFF'FFFF));
          const q32 fq = netcc::number_traits<q32>::from_int(f);
          const auto fd = static_cast<double>(f);
          if (ss ? ((fd + fd < w) != (fq + fq < wq)) : ((fd + m < w) != (fq + mq < wq))) return;
        }
        if (ss && ((w + w < d.ssthresh()) != (wq + wq < q.ssthresh()))) return;
        if (ss && diff > in.gamma) ++inexact;
      }
    } else if (e.k != kind::timeout && ((w > 3 * m) != (wq > mq * netcc::num<q32>(3)))) {
      return;
    }
    const auto before = d.reductions();
    apply(d, e);
    apply(q, e);
    if (e.k == kind::timeout) {
      model.on_timeout();
      ++inexact;
    } else if (e.k != kind::ack && d.reductions() != before) {
      model.on_loss(e.nxt);
      ++inexact;
    }
    wmax = std::max(wmax, d.window());
    // The same rule in both, on every event the comparison reaches (the ties above stop it).
    RC_ASSERT(q.last_branch() == d.last_branch());
    RC_ASSERT(q.rounds() == d.rounds());
    RC_ASSERT(q.reductions() == d.reductions());
    RC_ASSERT(q.in_slow_start() == d.in_slow_start());
    RC_ASSERT(q.doubling_round() == d.doubling_round());
    RC_ASSERT(q.base_rtt() == d.base_rtt());
    RC_ASSERT(q.round_min_rtt() == d.round_min_rtt());
    RC_ASSERT(std::abs(d.window() - q.window().to_double()) <= tol());
    RC_ASSERT(std::abs(d.ssthresh() - q.ssthresh().to_double()) <= tol());
  }
}

// ---------------------------------------------------------------- config, flow_state, compact

TEST(Vegas, ConfigRunsAnArrayOfFlowStates) {
  const netcc::vegas_compact::config cfg{{.init_cwnd = netcc::bytes{8 * 1460}}};
  std::vector<netcc::vegas_compact::flow_state> flows(4, cfg.initial_state());
  EXPECT_EQ(sizeof(flows[0]), 32u);
  // Flow 2 runs the rounds of FixedPointFollowsTheSameExamples; the others stay initial.
  cfg.on_ack(flows[2], ack(1460, 8 * 1460, 87'500));
  cfg.on_ack(flows[2], ack(8 * 1460, 20'000, 87'500));  // doubles to 16 packets
  cfg.on_ack(flows[2], ack(20'000, 30'000, 100'000));   // diff 2 > gamma: 14 packets
  EXPECT_EQ(cfg.cwnd(flows[2]), netcc::bytes{14 * 1460});
  EXPECT_EQ(cfg.last_branch(flows[2]), netcc::vegas_branch::ss_exit);
  EXPECT_EQ(cfg.rounds(flows[2]), 2u);
  EXPECT_EQ(cfg.base_rtt(flows[2]), duration{87'500});
  for (const std::size_t i : {0u, 1u, 3u}) {
    EXPECT_EQ(cfg.cwnd(flows[i]), netcc::bytes{8 * 1460});
    EXPECT_EQ(cfg.base_rtt(flows[i]), duration::max());
    EXPECT_TRUE(cfg.in_slow_start(flows[i]));
  }
}

TEST(Vegas, CompactStateNarrowsAsDocumented) {
  static_assert(netcc::vegas_compact::state_bytes == 32);
  static_assert(netcc::vegas_fixed::state_bytes == 56);
  netcc::vegas_compact c;
  vegas_q32 q;
  // 29200 * 100/125 = 23360 - (q32's rounding of 0.8): the compact window keeps whole bytes.
  driver dc, dq;
  dc.begin(c, 100'000, 14'600);
  dq.begin(q, 100'000, 14'600);
  dc.round(c, {100'000});
  dq.round(q, {100'000});
  dc.round(c, {125'000});
  dq.round(q, {125'000});
  EXPECT_EQ(c.cwnd(), q.cwnd());
  EXPECT_EQ(c.window().to_double(), std::floor(q.window().to_double()));
  // A loss of 3/4 of an odd window, then a timeout: ssthresh rounds up to a whole byte.
  c.on_loss(ack(300'000, 400'000, 0));
  q.on_loss(ack(300'000, 400'000, 0));
  EXPECT_LT(q.window().to_double() - c.window().to_double(), 4.0);
  const double before = c.window().to_double();
  c.on_timeout();
  q.on_timeout();
  EXPECT_EQ(c.window(), q.window());  // the two-packet floor
  EXPECT_EQ(c.ssthresh().to_double(), std::ceil(before / 2));
  EXPECT_LT(std::abs(c.ssthresh().to_double() - q.ssthresh().to_double()), 2.0);
  // An RTT beyond 2^32 - 2 ns is kept as that; 32-bit marks compare across 2^32.
  netcc::vegas_compact far;
  far.on_ack(ack(0xFFFF'FF00u, 0x1'0000'0100u, 5'000'000'000));
  EXPECT_EQ(far.base_rtt(), duration{netcc::vegas_compact_max_rtt_ns});
  far.on_ack(ack(0x1'0000'0000u, 0x1'0000'0200u, 100'000));
  EXPECT_EQ(far.rounds(), 0u);  // 2^32 is below the mark 2^32 + 256
  far.on_ack(ack(0x1'0000'0100u, 0x1'0000'0300u, 100'000));
  EXPECT_EQ(far.rounds(), 1u);
  EXPECT_EQ(far.base_rtt(), duration{100'000});
}

namespace {

// Every accessor of a controller and of its config applied to an external state, equal.
template <class C>
void same_as_object(const C& obj, const typename C::config& cfg, const typename C::flow_state& st) {
  RC_ASSERT(cfg.window(st) == obj.window());
  RC_ASSERT(cfg.cwnd(st) == obj.cwnd());
  RC_ASSERT(cfg.ssthresh(st) == obj.ssthresh());
  RC_ASSERT(cfg.base_rtt(st) == obj.base_rtt());
  RC_ASSERT(cfg.round_min_rtt(st) == obj.round_min_rtt());
  RC_ASSERT(cfg.in_slow_start(st) == obj.in_slow_start());
  RC_ASSERT(cfg.doubling_round(st) == obj.doubling_round());
  RC_ASSERT(cfg.rounds(st) == obj.rounds());
  RC_ASSERT(cfg.last_branch(st) == obj.last_branch());
  RC_ASSERT(cfg.reductions(st) == obj.reductions());
  RC_ASSERT(cfg.after_decrease(st) == obj.after_decrease());
}

template <class C>
void config_equals_object(const netcc::vegas_params& p, const std::vector<event>& stream) {
  C obj{p};
  const typename C::config cfg{p};
  typename C::flow_state st = cfg.initial_state();
  same_as_object(obj, cfg, st);
  for (const auto& e : stream) {
    apply(obj, e);
    switch (e.k) {
      case kind::ack:
        cfg.on_ack(st, ack(e.seq, e.nxt, e.rtt, e.acked));
        break;
      case kind::loss:
        cfg.on_loss(st, ack(e.seq, e.nxt, e.rtt, e.acked));
        break;
      case kind::loss_again:
        cfg.on_loss(st, ack(e.seq, e.nxt, e.rtt, e.acked), true);
        break;
      case kind::timeout:
        cfg.on_timeout(st, netcc::timestamp{0});
        break;
    }
    same_as_object(obj, cfg, st);
  }
}

}  // namespace

RC_GTEST_PROP(VegasProperties, ConfigWithExternalFlowStateEqualsTheObject, ()) {
  const auto p = gen_any_params();
  const auto stream = gen_stream(true);
  config_equals_object<netcc::vegas>(p, stream);
  config_equals_object<vegas_q32>(p, stream);
  config_equals_object<netcc::vegas_compact>(p, stream);
}

RC_GTEST_PROP(VegasProperties, CompactAgreesWithQ32WithinItsRanges, ()) {
  using q32 = vegas_q32::value_type;
  const auto p = gen_params();
  vegas_q32 q{p};
  netcc::vegas_compact c{p};
  const auto& in = q.params();
  const q32 mq = netcc::number_traits<q32>::from_int(in.mss.count());
  const double m = static_cast<double>(in.mss.count());
  const q32 three = netcc::num<q32>(3);
  round_model model;
  const auto decision = [&](bool ss, q32 diff) {
    if (ss) return diff > netcc::num<q32>(in.gamma) ? 3 : 4;
    return diff < netcc::num<q32>(in.alpha) ? 1 : (diff > netcc::num<q32>(in.beta) ? 2 : 0);
  };
  std::size_t compared = 0;
  const auto stream = gen_stream(true, 300, true);
  for (const auto& e : stream) {
    // Where the two windows (the compact one whole bytes) put a comparison on different sides
    // of a threshold, the two may decide differently: the comparison stops there, and it must
    // be a tie within the stated bound (diff moves by less than 4 / MSS packets).
    const q32 wq = q.window();
    const q32 wc = c.window();
    const bool ss = q.in_slow_start();
    if (e.k == kind::ack) {
      const auto o = model.on_ack(ack(e.seq, e.nxt, e.rtt, e.acked));
      if (o.ends && o.had_sample) {
        const q32 dq = netcc::vegas_diff(wq / mq, o.base, o.min);
        const q32 dc = netcc::vegas_diff(wc / mq, o.base, o.min);
        if (decision(ss, dq) != decision(ss, dc)) {
          RC_ASSERT(std::abs(dq.to_double() - dc.to_double()) <= 4 / m + 1e-6);
          break;
        }
        if (in.cwnd_limited_growth) {
          const sequence out = netcc::seq_geq(e.nxt, e.seq) ? e.nxt - e.seq : 0;
          const auto f = static_cast<std::int64_t>(std::min<sequence>(
              out + static_cast<sequence>(std::max<std::int64_t>(e.acked, 0)), 0x7FFF'FFFF));
          const q32 fq = netcc::number_traits<q32>::from_int(f);
          if (ss ? ((fq + fq < wq) != (fq + fq < wc)) : ((fq + mq < wq) != (fq + mq < wc))) break;
        }
        if (ss && ((wq + wq < q.ssthresh()) != (wc + wc < c.ssthresh()))) {
          RC_ASSERT(std::abs((wq + wq - q.ssthresh()).to_double()) < 4);
          break;
        }
      }
    } else if (e.k != kind::timeout && ((wq > mq * three) != (wc > mq * three))) {
      RC_ASSERT(std::abs((wq - mq * three).to_double()) < 4);
      break;
    }
    apply(q, e);
    apply(c, e);
    if (e.k == kind::timeout) {
      model.on_timeout();
    } else if (e.k != kind::ack && c.last_branch() == netcc::vegas_branch::loss_cut) {
      model.on_loss(e.nxt);
    }
    ++compared;
    // The same rule, counters, flags and RTTs; windows within the stated bounds.
    RC_ASSERT(c.last_branch() == q.last_branch());
    RC_ASSERT(c.rounds() == q.rounds());
    RC_ASSERT(c.reductions() == q.reductions());
    RC_ASSERT(c.in_slow_start() == q.in_slow_start());
    RC_ASSERT(c.doubling_round() == q.doubling_round());
    RC_ASSERT(c.after_decrease() == q.after_decrease());
    RC_ASSERT(c.base_rtt() == q.base_rtt());
    RC_ASSERT(c.round_min_rtt() == q.round_min_rtt());
    const double dw = q.window().to_double() - c.window().to_double();
    RC_ASSERT(dw < 4.0 && dw > -2.0);
    RC_ASSERT(std::abs(q.ssthresh().to_double() - c.ssthresh().to_double()) < 2.0);
    const auto dcw = q.cwnd().count() - c.cwnd().count();
    RC_ASSERT(dcw <= 4 && dcw >= -2);
  }
  RC_CLASSIFY(compared == stream.size(), "whole trace");
}

}  // namespace netcc_tests::control_vegas
