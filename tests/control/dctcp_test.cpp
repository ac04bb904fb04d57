// SPDX-License-Identifier: MIT
// DCTCP (netcc/control/dctcp.hpp): hand-computed examples of each rule (the paper's Eq. 1-2,
// RFC 8257 §3.3-3.5, RFC 5681 growth and loss, RFC 6928 initial window, RFC 3168 CWR), the
// scaled integer alpha (RFC 8257 §4.2), the §3.3 analysis helpers; RapidCheck properties for
// bounds, one reduction per window of data, no reduction without a signal, and the fixed-point
// instantiations against double on the same ACKs.
#include <netcc/control/dctcp.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

namespace netcc_tests::control_dctcp {

using namespace netcc::literals;

namespace {

netcc::ack_event ack(netcc::sequence seq, netcc::sequence nxt, std::int64_t acked, bool ece) {
  return {.ack_seq = seq, .snd_nxt = nxt, .acked = netcc::bytes{acked}, .ecn_echo = ece};
}

using dctcp_q32 = netcc::basic_dctcp<netcc::arith::q32>;
using dctcp_scaled = netcc::basic_dctcp<netcc::arith::ieee_double, netcc::dctcp_alpha_scaled<10>>;
using dctcp_scaled16 = netcc::basic_dctcp<netcc::arith::ieee_double, netcc::dctcp_alpha_scaled<16>>;
using dctcp_q32_counting =
    netcc::basic_dctcp<netcc::arith::q32, netcc::dctcp_alpha_exact, netcc::dctcp_growth_counting>;
using dctcp_scaled_counting =
    netcc::basic_dctcp<netcc::arith::ieee_double, netcc::dctcp_alpha_scaled<10>,
                       netcc::dctcp_growth_counting>;

// ---------------------------------------------------------------- event streams

enum class kind : std::uint8_t { ack, loss, timeout };

struct event {
  kind k = kind::ack;
  netcc::sequence seq = 0, nxt = 0;
  std::int64_t acked = 0;
  bool ece = false;
};

// A random ACK stream: cumulative ACKs mostly advancing by plausible and absurd amounts,
// duplicates, reordered (older) ACKs, negative counts, snd_nxt running ahead or pulled back
// (go-back-N), sequence numbers starting anywhere (wrapping past 2^64 included); ECN echoes,
// fast-retransmit losses and timeouts mixed in as asked. With `compact_range` the counts stay
// within the compact state's documented ranges (basic_dctcp, "Per-flow state": at most 64 KiB
// per ACK, so a window of data counts below 2^27 B and every ACK stays within 2^31 B of the
// marks), where the compact fixed-point state takes the same decisions as the full-width one.
std::vector<event> gen_stream(bool echoes, bool losses, bool compact_range = false) {
  const auto n = *rc::gen::inRange(1, 300);
  std::vector<event> v;
  netcc::sequence una = *rc::gen::element<netcc::sequence>(
      0, 1'000'000, std::numeric_limits<netcc::sequence>::max() - 50'000);
  netcc::sequence nxt = una + 14'600;
  for (int i = 0; i < n; ++i) {
    event e;
    if (losses)
      e.k = *rc::gen::element(kind::ack, kind::ack, kind::ack, kind::ack, kind::ack, kind::ack,
                              kind::ack, kind::ack, kind::loss, kind::timeout);
    const int step = *rc::gen::inRange(0, 10);
    if (step < 7) {
      e.acked = compact_range
                    ? *rc::gen::element<std::int64_t>(0, 1460, 1460, 2920, 14'600, 65'536)
                    : *rc::gen::element<std::int64_t>(0, 1460, 1460, 2920, 14'600, 1'000'000,
                                                      std::int64_t{1} << 40, std::int64_t{1} << 62);
      una += static_cast<netcc::sequence>(e.acked);
    } else if (step == 7) {
      e.acked = -*rc::gen::inRange<std::int64_t>(0, 5000);  // nonsense: a negative count
    }                                                       // else a duplicate ACK
    if (netcc::seq_gt(una, nxt)) nxt = una;
    nxt = *rc::gen::inRange(0, 8) == 0
              ? una  // go-back-N pulls snd_nxt back
              : nxt + static_cast<netcc::sequence>(*rc::gen::inRange(0, 30'000));
    e.ece = echoes && *rc::gen::inRange(0, 3) == 0;
    e.seq = step == 9 ? una - 4380 : una;  // an older, reordered ACK
    e.nxt = nxt;
    v.push_back(e);
  }
  return v;
}

template <class C>
void apply(C& cc, const event& e) {
  switch (e.k) {
    case kind::ack:
      cc.on_ack(ack(e.seq, e.nxt, e.acked, e.ece));
      break;
    case kind::loss:
      cc.on_loss(ack(e.seq, e.nxt, e.acked, e.ece));
      break;
    case kind::timeout:
      cc.on_timeout(netcc::timestamp{0});
      break;
  }
}

netcc::dctcp_params gen_params() {
  const auto mss = *rc::gen::inRange<std::int64_t>(1, 9001);
  const auto max_cwnd = *rc::gen::inRange<std::int64_t>(mss, 0x7FFF'FFFF);
  return {.g = *rc::gen::element(1.0 / 16, 1.0 / 256, 1.0, 0.5, 0.1),
          .alpha_init = *rc::gen::element(0.0, 0.3, 1.0),
          .mss = netcc::bytes{mss},
          .init_cwnd = netcc::bytes{*rc::gen::inRange<std::int64_t>(0, max_cwnd)},
          .min_cwnd = netcc::bytes{*rc::gen::inRange<std::int64_t>(0, mss + 1)},
          .max_cwnd = netcc::bytes{max_cwnd},
          .abc_limit = netcc::bytes{*rc::gen::element<std::int64_t>(0, mss, 2 * mss)},
          .cwnd_limited_growth = *rc::gen::arbitrary<bool>()};
}

}  // namespace

// ---------------------------------------------------------------- examples

TEST(Dctcp, DefaultsFollowTheRfcs) {
  const netcc::dctcp cc;
  EXPECT_EQ(cc.cwnd(), 14'600_B);     // RFC 6928: min(10 * 1460, max(2 * 1460, 14600))
  EXPECT_DOUBLE_EQ(cc.alpha(), 1.0);  // RFC 8257 §3.3
  EXPECT_DOUBLE_EQ(cc.gain(), 1.0 / 16);
  EXPECT_EQ(cc.params().min_cwnd, 1460_B);  // 0 means one MSS
  EXPECT_DOUBLE_EQ(cc.ssthresh(), 2147483647.0);
  EXPECT_FALSE(cc.in_reduction_window());
  EXPECT_TRUE(netcc::validate(netcc::dctcp_params{}).ok());
  // RFC 6928 for other segment sizes: min(10 * 8960, max(2 * 8960, 14600)) = 17920 B;
  // min(10 * 536, max(1072, 14600)) = 5360 B.
  EXPECT_EQ(netcc::dctcp{{.mss = 8960_B}}.cwnd(), 17'920_B);
  EXPECT_EQ(netcc::dctcp{{.mss = 536_B}}.cwnd(), 5'360_B);
  EXPECT_EQ(netcc::dctcp{{.init_cwnd = 100'000_B}}.cwnd(), 100'000_B);
  EXPECT_EQ(netcc::dctcp_fixed{}.alpha_raw(), 1024u);  // 1.0 in 1/1024 units
  EXPECT_DOUBLE_EQ(netcc::dctcp_fixed{}.gain(), 1.0 / 16);
}

TEST(Dctcp, SlowStartAddsTheAckedBytesWhileWindowLimited) {
  netcc::dctcp cc;
  // In flight when the ACK came: 14600 - 1460 + 1460 = 14600 >= 14600 / 2.
  cc.on_ack(ack(1460, 14'600, 1460, false));
  EXPECT_EQ(cc.cwnd(), 16'060_B);
  cc.on_ack(ack(7300, 20'000, 5840, false));  // flight 12700 + 5840: + 5840 (no ABC limit)
  EXPECT_EQ(cc.cwnd(), 21'900_B);
  cc.on_ack(ack(7300, 20'000, 0, false));  // a duplicate grows nothing
  EXPECT_EQ(cc.cwnd(), 21'900_B);
  // In flight 5000 + 1460 = 6460, under half of 21900: not window-limited, no growth.
  cc.on_ack(ack(8760, 13'760, 1460, false));
  EXPECT_EQ(cc.cwnd(), 21'900_B);
  // The same without the window-limited rule: + 1460.
  netcc::dctcp free{{.cwnd_limited_growth = false}};
  free.on_ack(ack(8760, 13'760, 8760, false));
  EXPECT_EQ(free.cwnd(), 23'360_B);
  // RFC 3465's limit of two segments per ACK, when asked for: + min(5840, 2920).
  netcc::dctcp abc{{.abc_limit = 2920_B}};
  abc.on_ack(ack(5840, 14'600, 5840, false));
  EXPECT_EQ(abc.cwnd(), 17'520_B);
}

TEST(Dctcp, SlowStartStopsAtSsthreshAndTheRestAvoidsCongestion) {
  netcc::dctcp cc;
  EXPECT_EQ(cc.last_branch(), netcc::dctcp_branch::none);
  cc.on_timeout(netcc::timestamp{1});  // ssthresh = 14600 / 2 = 7300, cwnd = 1460
  EXPECT_EQ(cc.last_branch(), netcc::dctcp_branch::timeout);
  EXPECT_DOUBLE_EQ(cc.ssthresh(), 7300.0);
  cc.on_ack(ack(2920, 4380, 1460, false));  // flight 1460 + 1460: cwnd 2920
  EXPECT_EQ(cc.cwnd(), 2920_B);
  EXPECT_EQ(cc.last_branch(), netcc::dctcp_branch::slow_start);
  // 5840 acked: 4380 fill the room up to ssthresh 7300, the other 1460 are congestion
  // avoidance: + 1460 * 1460 / 7300 = 292.
  cc.on_ack(ack(8760, 10'220, 5840, false));
  EXPECT_DOUBLE_EQ(cc.window(), 7592.0);
  EXPECT_EQ(cc.last_branch(), netcc::dctcp_branch::slow_start);  // it began below ssthresh
  // Congestion avoidance: + 1460 * 1460 / 7592 per full-segment ACK; flight 7300 + 1460 > 7592.
  cc.on_ack(ack(10'220, 17'520, 1460, false));
  EXPECT_DOUBLE_EQ(cc.window(), 7592.0 + 1460.0 * 1460.0 / 7592.0);
  EXPECT_EQ(cc.last_branch(), netcc::dctcp_branch::avoidance);
  // A stretch ACK of a whole window or more adds one MSS.
  const double w = cc.window();
  cc.on_ack(ack(20'220, 27'520, 10'000, false));
  EXPECT_DOUBLE_EQ(cc.window(), w + 1460);
  // Not window-limited in congestion avoidance: flight 500 + 1460 + 1460 < cwnd.
  cc.on_ack(ack(21'680, 22'180, 1460, false));
  EXPECT_DOUBLE_EQ(cc.window(), w + 1460);
}

TEST(Dctcp, AlphaOncePerWindowOfDataThenCutByHalfAlpha) {
  netcc::dctcp cc{{.alpha_init = 0.0}};
  // ACK 1 arms WindowEnd = 14600; 7300 B acked, unmarked; slow start to 21900.
  cc.on_ack(ack(7300, 14'600, 7300, false));
  EXPECT_EQ(cc.cwnd(), 21'900_B);
  EXPECT_DOUBLE_EQ(cc.alpha(), 0.0);
  // ACK 2 reaches WindowEnd: 14600 B acked, 7300 marked, F = 0.5, alpha = 0 + (0.5 - 0) / 16 =
  // 0.03125 (Eq. 1). Its echo cuts: cwnd = 21900 * (1 - 0.03125 / 2) = 21557.8125 (Eq. 2).
  cc.on_ack(ack(14'600, 30'000, 7300, true));
  EXPECT_DOUBLE_EQ(cc.alpha(), 0.03125);
  EXPECT_DOUBLE_EQ(cc.window(), 21'557.8125);
  EXPECT_DOUBLE_EQ(cc.ssthresh(), 21'557.8125);
  EXPECT_EQ(cc.reductions(), 1u);
  EXPECT_TRUE(cc.in_reduction_window());
  EXPECT_TRUE(cc.cwr_pending());
  // Another echo before the ACK reaches 30000 (the cut's SND.NXT): no cut, no growth.
  cc.on_ack(ack(20'000, 40'000, 5400, true));
  EXPECT_DOUBLE_EQ(cc.window(), 21'557.8125);
  EXPECT_EQ(cc.reductions(), 1u);
  // Unmarked, at ssthresh, flight 23540 + 1460 >= cwnd - MSS: + 1460 * 1460 / 21557.8125.
  cc.on_ack(ack(21'460, 45'000, 1460, false));
  const double w = 21'557.8125 + 1460.0 * 1460.0 / 21'557.8125;
  EXPECT_DOUBLE_EQ(cc.window(), w);
  // The ACK reaches 30000: the alpha window ends. Since ACK 2: acked 5400 + 1460 + 8540 = 15400
  // B, marked 5400 + 8540 = 13940 B, F = 0.905194..., alpha = 0.03125 + (F - 0.03125) / 16 =
  // 0.0858715... The reduction window does not: this ACK acknowledges the last segment sent
  // before the cut, and its echo is ignored.
  cc.on_ack(ack(30'000, 50'000, 8540, true));
  const double alpha = 0.03125 + (13'940.0 / 15'400.0 - 0.03125) / 16;
  EXPECT_DOUBLE_EQ(cc.alpha(), alpha);
  EXPECT_NEAR(cc.alpha(), 0.0858715503, 1e-10);
  EXPECT_DOUBLE_EQ(cc.window(), w);
  EXPECT_EQ(cc.reductions(), 1u);
  // The first ACK beyond 30000 acknowledges data sent after the cut: its echo cuts, with the
  // new alpha.
  cc.on_ack(ack(31'460, 50'000, 1460, true));
  EXPECT_DOUBLE_EQ(cc.window(), w - w * alpha * 0.5);
  EXPECT_EQ(cc.reductions(), 2u);
}

TEST(Dctcp, FixedPointInstantiationsFollowTheSameExamples) {
  // The slow-start / congestion-avoidance example above, then a cut, in all four
  // instantiations: q32 gives double's windows to its rounding (2^-33 per operation).
  auto run = [](auto cc) {
    std::vector<double> w;
    cc.on_timeout(netcc::timestamp{1});
    cc.on_ack(ack(2920, 4380, 1460, false));  // arms WindowEnd = 4380
    w.push_back(netcc::to_double(cc.window()));
    cc.on_ack(ack(8760, 10'220, 5840, false));  // window ends, F = 0
    w.push_back(netcc::to_double(cc.window()));
    cc.on_ack(ack(10'220, 17'520, 1460, false));  // window ends, F = 0
    w.push_back(netcc::to_double(cc.window()));
    cc.on_ack(ack(21'680, 22'180, 1460, false));  // window ends, F = 0; not window-limited
    w.push_back(netcc::to_double(cc.window()));
    cc.on_ack(ack(22'000, 40'000, 0, true));  // the cut (the timeout's window has ended)
    w.push_back(netcc::to_double(cc.window()));
    w.push_back(netcc::to_double(cc.alpha()));
    return w;
  };
  const auto d = run(netcc::dctcp{});
  const auto q = run(dctcp_q32{});
  const auto ds = run(dctcp_scaled{});
  const auto f = run(netcc::dctcp_fixed{});
  EXPECT_EQ(d[0], 2920.0);
  EXPECT_EQ(d[1], 7592.0);
  EXPECT_DOUBLE_EQ(d[2], 7592.0 + 1460.0 * 1460.0 / 7592.0);
  EXPECT_EQ(d[3], d[2]);
  // Three windows without marks: alpha = (15/16)^3 = 0.823974609375 (Eq. 1); scaled:
  // 1024 -> 1024 - 64 = 960 -> 960 - 60 = 900 -> 900 - ceil(56.25) = 843 units.
  EXPECT_EQ(d[5], 0.823974609375);
  EXPECT_EQ(ds[5], 843.0 / 1024);
  EXPECT_DOUBLE_EQ(d[4], d[3] - d[3] * d[5] / 2);
  EXPECT_DOUBLE_EQ(ds[4], d[3] - d[3] * ds[5] / 2);
  for (std::size_t i = 0; i < d.size(); ++i) {
    EXPECT_NEAR(q[i], d[i], 1e-6) << i;
    EXPECT_NEAR(f[i], ds[i], 1e-6) << i;
  }
}

TEST(Dctcp, ByteCountersHalveNear2To62AndKeepF) {
  // Sequence numbers wrap past 2^64; each ACK counts at most 2^61 B. ACK 1 arms WindowEnd at
  // s + 3 * 2^61: 2^61 B, marked. ACK 2: 2^61 B, unmarked (2^62 acked). ACK 3 reaches WindowEnd
  // with 2^61 B, marked: 2^62 + 2^61 would pass 2^62, so both counters and the ACK halve:
  // acked 2^61 + 2^60, marked 2^60 + 2^60, F = 2/3 as without halving (2^62 / (3 * 2^61)).
  netcc::dctcp cc{{.g = 1.0, .alpha_init = 0.0}};  // g = 1: alpha = F
  const netcc::sequence s =
      std::numeric_limits<netcc::sequence>::max() - (netcc::sequence{1} << 60);
  const std::int64_t big = std::int64_t{1} << 61;
  const netcc::sequence step = netcc::sequence{1} << 61;
  cc.on_ack(ack(s + step, s + 3 * step, std::numeric_limits<std::int64_t>::max(), true));
  cc.on_ack(ack(s + 2 * step, s + 3 * step, big, false));
  EXPECT_DOUBLE_EQ(cc.alpha(), 0.0);
  cc.on_ack(ack(s + 3 * step, s + 4 * step, big, true));
  EXPECT_DOUBLE_EQ(cc.alpha(), 2.0 / 3.0);
}

TEST(Dctcp, DuplicateAcksOnlyLeaveAlphaAlone) {
  netcc::dctcp cc{{.alpha_init = 0.5}};
  cc.on_ack(ack(1000, 1000, 0, true));  // arms WindowEnd = 1000 and reaches it with 0 B
  EXPECT_DOUBLE_EQ(cc.alpha(), 0.5);    // F undefined: unchanged
}

TEST(Dctcp, CutIsFlooredAtTwoSegmentsAndNeverRaisesTheWindow) {
  netcc::dctcp cc{{.init_cwnd = 2920_B}};  // alpha 1: the cut would halve to 1460
  cc.on_ack(ack(1460, 2920, 1460, true));
  EXPECT_EQ(cc.cwnd(), 2920_B);  // max(1460, 2 MSS)
  EXPECT_DOUBLE_EQ(cc.ssthresh(), 2920.0);
  netcc::dctcp low;
  low.on_timeout();                       // cwnd 1460, ssthresh 7300
  low.on_ack(ack(1460, 1460, 0, false));  // arms the timeout's window at 1460 ...
  low.on_ack(ack(2920, 4380, 0, true));   // ... which this ACK passes: a new window
  EXPECT_EQ(low.cwnd(), 1460_B);          // min(1460, max(730, 2920)): not raised
  EXPECT_DOUBLE_EQ(low.ssthresh(), 2920.0);
  EXPECT_EQ(low.reductions(), 2u);
}

TEST(Dctcp, TimeoutGoesToTheLossWindowAndHalvesOncePerWindow) {
  netcc::dctcp cc;  // cwnd 14600
  cc.on_timeout(netcc::timestamp{10});
  EXPECT_EQ(cc.cwnd(), 1460_B);  // RFC 5681: the loss window
  EXPECT_DOUBLE_EQ(cc.ssthresh(), 7300.0);
  EXPECT_EQ(cc.reductions(), 1u);
  cc.on_timeout(netcc::timestamp{20});  // the same segment again: ssthresh is not halved again
  EXPECT_DOUBLE_EQ(cc.ssthresh(), 7300.0);
  EXPECT_EQ(cc.reductions(), 1u);
  // The first ACK after it arms the window's end at its SND.NXT, 4380; its echo is in the window.
  cc.on_ack(ack(2920, 4380, 1460, true));
  EXPECT_EQ(cc.cwnd(), 1460_B);
  EXPECT_EQ(cc.reductions(), 1u);
  // This ACK reaches 4380 and stays in the window; the next passes it: a new window of data.
  // F = (1460 + 1460 + 2920) / 5840 = 1, alpha stays 1; the cut: ssthresh = max(1460 / 2,
  // 2920), cwnd = min(1460, 2920).
  cc.on_ack(ack(4380, 5840, 1460, true));
  EXPECT_EQ(cc.reductions(), 1u);
  cc.on_ack(ack(7300, 8760, 2920, true));
  EXPECT_EQ(cc.reductions(), 2u);
  EXPECT_DOUBLE_EQ(cc.ssthresh(), 2920.0);
  EXPECT_EQ(cc.cwnd(), 1460_B);
  // A timeout inside the cut's window: cwnd to the loss window, ssthresh kept (RFC 8257 §3.5).
  cc.on_timeout(netcc::timestamp{30});
  EXPECT_DOUBLE_EQ(cc.ssthresh(), 2920.0);
  EXPECT_EQ(cc.reductions(), 2u);
  // min_cwnd above one MSS: the loss window is min_cwnd.
  netcc::dctcp wide{{.min_cwnd = 4000_B}};
  wide.on_timeout();
  EXPECT_EQ(wide.cwnd(), 4000_B);
}

TEST(Dctcp, FastRetransmitHalvesOncePerWindowSharedWithEcn) {
  netcc::dctcp cc;                             // cwnd 14600
  cc.on_loss(ack(1460, 14'600, 1460, false));  // ssthresh = cwnd = 7300; window ends at 14600
  EXPECT_EQ(cc.cwnd(), 7300_B);
  EXPECT_DOUBLE_EQ(cc.ssthresh(), 7300.0);
  cc.on_ack(ack(2920, 16'000, 1460, true));  // an echo in the same window: no cut
  cc.on_loss(ack(2920, 16'000, 0, false));   // nor a second halving
  EXPECT_EQ(cc.cwnd(), 7300_B);
  EXPECT_EQ(cc.reductions(), 1u);
  // The ACK passes 14600: acked 1460 + 13140, all marked, F = 1, alpha = 1; cut to
  // max(7300 / 2, 2920) = 3650.
  cc.on_ack(ack(16'060, 20'000, 13'140, true));
  EXPECT_EQ(cc.cwnd(), 3650_B);
  EXPECT_EQ(cc.reductions(), 2u);
}

TEST(Dctcp, CwrGoesOnTheFirstNewDataSegmentAfterACut) {
  netcc::dctcp cc;
  EXPECT_FALSE(cc.on_send(1460_B));
  cc.on_ack(ack(1460, 14'600, 1460, true));
  EXPECT_TRUE(cc.cwr_pending());
  EXPECT_FALSE(cc.on_send(0_B));  // a pure ACK carries no CWR
  EXPECT_TRUE(cc.on_send(1460_B, netcc::timestamp{5}));
  EXPECT_FALSE(cc.on_send(1460_B));
  netcc::dctcp lossy;
  lossy.on_timeout();
  lossy.on_loss(ack(0, 0, 0, false));
  EXPECT_FALSE(lossy.cwr_pending());  // CWR answers ECN only
}

TEST(Dctcp, ScaledAlphaIsRfc8257Section42InIntegers) {
  netcc::dctcp_fixed cc;                      // q32 window, alpha in 1/1024, g = 2^-4
  cc.on_ack(ack(7300, 14'600, 7300, false));  // slow start to 21900
  // F = 0.5: alpha = 1024 - ceil(1024 / 16) + floor(7300 * 2^6 / 14600) = 1024 - 64 + 32 = 992
  // = 0.96875, as Eq. 1 gives exactly (15/16 + 0.5/16); the cut: 21900 - 21900 * 0.96875 / 2.
  cc.on_ack(ack(14'600, 30'000, 7300, true));
  EXPECT_EQ(cc.alpha_raw(), 992u);
  EXPECT_EQ(netcc::to_double(cc.alpha()), 0.96875);
  EXPECT_EQ(netcc::to_double(cc.window()), 11'292.1875);
  // Below 2^s units alpha still reaches zero: 15 -> 14 -> ... -> 0 (the decay rounds up),
  // one unit per window of data without marks.
  dctcp_scaled low{{.alpha_init = 15.0 / 1024}};
  EXPECT_EQ(low.alpha_raw(), 15u);
  netcc::sequence s = 0;
  low.on_ack(ack(s, s + 1460, 0, false));  // arms WindowEnd = 1460
  for (int i = 1; i <= 15; ++i) {
    s += 1460;
    low.on_ack(ack(s, s + 1460, 1460, false));  // each ends a window with F = 0
    EXPECT_EQ(low.alpha_raw(), static_cast<unsigned>(15 - i));
  }
}

TEST(Dctcp, ScaledGainIsTheNearestPowerOfTwo) {
  using rule = netcc::dctcp_alpha_scaled<10>::rule<double>;
  EXPECT_EQ(rule{1.0}.shift, 0);
  EXPECT_EQ(rule{1.0 / 16}.shift, 4);
  EXPECT_EQ(rule{0.1}.shift, 3);    // log2(10) = 3.32
  EXPECT_EQ(rule{0.05}.shift, 4);   // log2(20) = 4.32
  EXPECT_EQ(rule{0.04}.shift, 5);   // log2(25) = 4.64
  EXPECT_EQ(rule{1e-9}.shift, 10);  // at most FracBits
  EXPECT_DOUBLE_EQ(rule{0.1}.gain(), 0.125);
  EXPECT_EQ(netcc::dctcp_alpha_scaled<16>::rule<double>{1e-9}.shift, 16);
}

TEST(Dctcp, BadParametersAreNamedAndFallBack) {
  const auto v = netcc::validate(netcc::dctcp_params{.g = 0, .alpha_init = 2, .mss = 0_B});
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].message(), "dctcp.g = 0: must be in (0, 1]");
  EXPECT_EQ(v[1].message(), "dctcp.alpha_init = 2: must be in [0, 1]");
  EXPECT_EQ(v[2].message(), "dctcp.mss = 0 B: must be in [1, 65535] B");
  const netcc::dctcp cc{{.g = 0, .alpha_init = 2, .mss = 0_B}};
  EXPECT_DOUBLE_EQ(cc.params().g, 1.0 / 16);
  EXPECT_DOUBLE_EQ(cc.params().alpha_init, 1.0);
  EXPECT_EQ(cc.params().mss, 1460_B);
  EXPECT_EQ(cc.cwnd(), 14'600_B);

  const auto w = netcc::validate(netcc::dctcp_params{.min_cwnd = 5000_B, .max_cwnd = 4000_B});
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].message(), "dctcp.max_cwnd = 4000 B: must be at least min_cwnd (one MSS when 0)");
  EXPECT_EQ((netcc::dctcp{{.min_cwnd = 5000_B, .max_cwnd = 4000_B}}.cwnd()), 5000_B);

  const auto x =
      netcc::validate(netcc::dctcp_params{.init_cwnd = -1_B, .max_cwnd = 0_B, .abc_limit = -1_B});
  ASSERT_EQ(x.size(), 4u);
  EXPECT_EQ(x[0].message(), "dctcp.max_cwnd = 0 B: must be in [1, 2147483647] B (the q32 range)");
  EXPECT_EQ(x[1].message(), "dctcp.max_cwnd = 0 B: must be at least min_cwnd (one MSS when 0)");
  EXPECT_EQ(x[2].message(),
            "dctcp.init_cwnd = -1 B: must be in [0, max_cwnd] (0 means RFC 6928's initial window)");
  EXPECT_EQ(x[3].message(), "dctcp.abc_limit = -1 B: must be non-negative (0 means no limit)");
  const netcc::dctcp y{{.init_cwnd = -1_B, .max_cwnd = 0_B, .abc_limit = -1_B}};
  EXPECT_EQ(y.cwnd(), 14'600_B);
  EXPECT_EQ(y.params().max_cwnd, 0x7FFF'FFFF_B);
  EXPECT_EQ(y.params().abc_limit, 0_B);
}

TEST(Dctcp, GuidelinesAndSawtoothOfSection33) {
  EXPECT_DOUBLE_EQ(netcc::dctcp_k_floor(70), 10.0);  // K > C * RTT / 7
  EXPECT_DOUBLE_EQ(netcc::dctcp_k_floor(-5), 0.0);
  // 2 ln 2 / sqrt(2 * (100 + 28)) = 1.386294 / 16 = 0.0866434
  EXPECT_NEAR(netcc::dctcp_gain_ceiling(100, 28), 0.0866434, 1e-7);
  EXPECT_DOUBLE_EQ(netcc::dctcp_gain_ceiling(0, 0), 1.0);
  // N = 2, C * RTT = 100, K = 20: W* = 60; Eq. 6: alpha^2 (1 - alpha/4) = 121 / 3721, whose
  // root is 0.1846397 (Eq. 7's sqrt(2 / 60) = 0.1826); D = 61 alpha / 2 = 5.63151; A = 2 D =
  // 11.2630 (Eq. 9's closed form: sqrt(2 * 2 * 120) / 2 = 10.95); Q_max = 22; Q_min = 10.737.
  const auto s = netcc::dctcp_sawtooth::of(2, 100, 20);
  EXPECT_DOUBLE_EQ(s.w_star, 60.0);
  EXPECT_NEAR(s.alpha, 0.1846397, 1e-7);
  EXPECT_NEAR(s.window_drop, 5.631511, 1e-6);
  EXPECT_NEAR(s.amplitude, 11.263021, 1e-6);
  EXPECT_DOUBLE_EQ(s.period, s.window_drop);
  EXPECT_DOUBLE_EQ(s.q_max, 22.0);
  EXPECT_NEAR(s.q_min, 10.736979, 1e-6);
  // No room at all (C * RTT + K = 0): every packet marked, alpha = 1.
  const auto t = netcc::dctcp_sawtooth::of(3, 0, 0);
  EXPECT_DOUBLE_EQ(t.alpha, 1.0);
  EXPECT_DOUBLE_EQ(t.q_max, 3.0);
}

// ---------------------------------------------------------------- properties

namespace {

// Bounds after every event, for one instantiation.
template <class C>
void check_bounds(const C& cc) {
  const double w = netcc::to_double(cc.window());
  RC_ASSERT(std::isfinite(w));
  RC_ASSERT(cc.cwnd() >= cc.params().min_cwnd);
  RC_ASSERT(cc.cwnd() <= cc.params().max_cwnd);
  const double a = netcc::to_double(cc.alpha());
  RC_ASSERT(a >= 0.0 && a <= 1.0);
  const double t = netcc::to_double(cc.ssthresh());
  RC_ASSERT(t >= static_cast<double>(cc.params().min_cwnd.count()));
  RC_ASSERT(t <= static_cast<double>(cc.params().max_cwnd.count()));
}

// The property's own model of "window of data": a reduction opens one that ends at the SND.NXT
// of its event; a timeout's (a repeated one's too) ends at the SND.NXT of the next ACK, which
// cannot end it; the first later ACK beyond the end closes it. A signal (an echo, a loss,
// a timeout) reduces exactly when no window is open.
struct window_model {
  bool open = false, arm_next = false;
  netcc::sequence end = 0;
  void before(const event& e) {
    if (e.k == kind::timeout) return;
    if (arm_next) {
      end = e.nxt;
      arm_next = false;
    } else if (open && netcc::seq_gt(e.seq, end)) {
      open = false;
    }
  }
  void after(const event& e, bool made) {
    if (e.k == kind::timeout) {
      open = true;
      arm_next = true;
    } else if (made) {
      open = true;
      end = e.nxt;
    }
  }
};

}  // namespace

RC_GTEST_PROP(DctcpProperties, WindowBytesIsFromIntBitForBit, ()) {
  // The ACK path's byte counts (0 to 2^31 - 1) as a window: the shift of
  // detail::dctcp_window_bytes is from_int's value, in every number type.
  const std::int64_t top = std::int64_t{1} << 31;
  const auto b = *rc::gen::oneOf(rc::gen::inRange<std::int64_t>(0, top),
                                 rc::gen::element<std::int64_t>(0, 1, 1460, top / 2, top - 1));
  using q32 = netcc::fixed_point<31, 32>;
  RC_ASSERT(netcc::detail::dctcp_window_bytes<q32>(b) == netcc::number_traits<q32>::from_int(b));
  using q20 = netcc::fixed_point<31, 20>;
  RC_ASSERT(netcc::detail::dctcp_window_bytes<q20>(b) == netcc::number_traits<q20>::from_int(b));
  using narrow = netcc::fixed_point<24, 32>;  // fewer integer bits: from_int, saturating
  RC_ASSERT(netcc::detail::dctcp_window_bytes<narrow>(b) ==
            netcc::number_traits<narrow>::from_int(b));
  RC_ASSERT(netcc::detail::dctcp_window_bytes<double>(b) == static_cast<double>(b));
}

RC_GTEST_PROP(DctcpProperties, OutputsFiniteAndBoundedForAnyEvents, ()) {
  const auto p = gen_params();
  netcc::dctcp d{p};
  dctcp_q32 q{p};
  dctcp_scaled s{p};
  netcc::dctcp_fixed f{p};
  netcc::dctcp_counting dc{p};
  netcc::dctcp_fixed_counting fc{p};
  // Absurd counts (2^40 B acknowledged at once) as well as realistic ones.
  const bool compact_range = *rc::gen::arbitrary<bool>();
  for (const auto& e : gen_stream(true, true, compact_range)) {
    apply(d, e);
    apply(q, e);
    apply(s, e);
    apply(f, e);
    apply(dc, e);
    apply(fc, e);
    check_bounds(d);
    check_bounds(q);
    check_bounds(s);
    check_bounds(f);
    check_bounds(dc);
    check_bounds(fc);
    // The byte count of congestion avoidance stays within [0, cwnd].
    RC_ASSERT(dc.ca_bytes() >= 0 && dc.ca_bytes() <= dc.window());
    RC_ASSERT(fc.ca_bytes() >= netcc::arith::q32::value_type{} && fc.ca_bytes() <= fc.window());
    RC_ASSERT(dc.reductions() == d.reductions() && fc.reductions() == f.reductions());
    // Reductions are decided by sequence numbers and signals alone, never by arithmetic: the
    // same in every instantiation of one state layout, and across layouts within the compact
    // state's ranges (its 32-bit sequence marks).
    RC_ASSERT(d.reductions() == s.reductions() && q.reductions() == f.reductions());
    if (compact_range) RC_ASSERT(d.reductions() == q.reductions());
  }
}

RC_GTEST_PROP(DctcpProperties, AtMostOneReductionPerWindowOfData, ()) {
  netcc::dctcp cc{gen_params()};
  window_model m;
  for (const auto& e : gen_stream(true, true)) {
    m.before(e);
    const auto before = cc.reductions();
    const double w = cc.window();
    apply(cc, e);
    const auto made = cc.reductions() - before;
    const bool signal = e.k != kind::ack || e.ece;
    RC_ASSERT(made == (signal && !m.open ? 1u : 0u));
    m.after(e, made == 1u);
    RC_ASSERT(cc.in_reduction_window() == m.open);
    if (e.k == kind::ack && e.ece) RC_ASSERT(cc.window() <= w);   // an echo never raises
    if (e.k == kind::ack && !e.ece) RC_ASSERT(cc.window() >= w);  // growth only
  }
}

RC_GTEST_PROP(DctcpProperties, WithoutEchoesOrLossesNothingIsCut, ()) {
  netcc::dctcp cc{gen_params()};
  netcc::dctcp_fixed f{cc.params()};
  double prev = cc.window();
  for (const auto& e : gen_stream(false, false)) {
    apply(cc, e);
    apply(f, e);
    RC_ASSERT(cc.window() >= prev);
    RC_ASSERT(cc.reductions() == 0u && f.reductions() == 0u);
    prev = cc.window();
  }
  RC_ASSERT(cc.alpha() <= cc.params().alpha_init);  // no marks: alpha only decays
}

RC_GTEST_PROP(DctcpProperties, DoubleAndQ32AgreeOnTheSameAcks, ()) {
  // Every event runs the same rule in both (last_branch), but where the window sits within the
  // policies' rounding distance of ssthresh (see below).
  // Without the window-limited test every step is continuous in the window, so the two
  // arithmetics stay within their rounding bounds; that test compares the window with a byte
  // count, and a window within 2^-32 of it may be judged either way (it is exercised, for both
  // policies, by the examples above and the bounds property).
  // (Within the compact q32 state's ranges; see gen_stream.)
  auto p = gen_params();
  p.cwnd_limited_growth = false;
  netcc::dctcp d{p};
  dctcp_q32 q{p};
  dctcp_scaled ds{p};
  netcc::dctcp_fixed qs{p};
  const double g = d.gain();
  int n = 0;
  double wmax = d.window();
  double tol_prev = 1e-9;  // the window tolerance after the previous event
  for (const auto& e : gen_stream(true, true, true)) {
    // The one threshold a window meets is ssthresh (slow start below it, congestion avoidance
    // at or above): within the two policies' distance of it, they may choose differently, and
    // their windows may differ from then on: the comparison stops there. ECE, losses, timeouts
    // and the reduction window are integer decisions: always the same.
    const bool tie = std::abs(d.window() - d.ssthresh()) <= 2 * tol_prev ||
                     std::abs(ds.window() - ds.ssthresh()) <= 2 * tol_prev;
    apply(d, e);
    apply(q, e);
    apply(ds, e);
    apply(qs, e);
    if (d.last_branch() != q.last_branch() || ds.last_branch() != qs.last_branch()) {
      RC_ASSERT(tie);
      RC_TAG("stopped: window within rounding of ssthresh");
      return;
    }
    ++n;
    wmax = std::max(wmax, d.window());
    // q32 rounds each operation to 2^-33 absolute. alpha: three operations per update (F, the
    // product with g, g itself), so |error| <= 3 * 2^-33 / g after any number of updates. The
    // window: per event at most MSS * 2^-33 (the congestion-avoidance ratio times the MSS) plus
    // 2 * 2^-33, plus a cut's cwnd * |alpha error| / 2; double itself rounds each of the at most
    // four operations of an event by half an ulp (2^-53 relative). Earlier errors never grow
    // (every step is 1-Lipschitz in the window). The compact q32 state stores the window and
    // ssthresh to the nearest 2^-20 B: at most 2^-21 each per event.
    const double alpha_tol = 3 * 0x1p-33 / g + 1e-15;
    RC_ASSERT(std::abs(d.alpha() - netcc::to_double(q.alpha())) <= alpha_tol);
    RC_ASSERT(ds.alpha_raw() == qs.alpha_raw());  // the scaled alpha is integer: identical
    const auto mss = static_cast<double>(d.params().mss.count());
    const double per_event = (mss + 2) * 0x1p-33 + 4 * 0x1p-53 * wmax + 2 * 0x1p-21;
    const double tol_q = n * (per_event + wmax * alpha_tol / 2) + 1e-9;
    const double tol_s = n * per_event + 1e-9;
    RC_ASSERT(std::abs(d.window() - netcc::to_double(q.window())) <= tol_q);
    RC_ASSERT(std::abs(ds.window() - netcc::to_double(qs.window())) <= tol_s);
    tol_prev = std::max(tol_q, tol_s);
  }
}

RC_GTEST_PROP(DctcpProperties, ScaledAlphaTracksEq1WithinItsBound, ()) {
  // g = 2^-s exactly, so both representations use the same gain. Bound (dctcp_alpha_scaled):
  // exact - (2/g + 0.5) units < scaled <= exact + 0.5 unit, unit = 2^-FracBits.
  const int s = *rc::gen::inRange(0, 8);
  const double g = std::ldexp(1.0, -s);
  const netcc::dctcp_params p{.g = g, .alpha_init = *rc::gen::element(0.0, 0.3, 0.77, 1.0)};
  netcc::dctcp exact{p};
  dctcp_scaled s10{p};
  dctcp_scaled16 s16{p};
  RC_ASSERT(s10.gain() == g && s16.gain() == g);
  for (const auto& e : gen_stream(true, true)) {
    apply(exact, e);
    apply(s10, e);
    apply(s16, e);
    for (const auto& [scaled, unit] : {std::pair{netcc::to_double(s10.alpha()), 0x1p-10},
                                       std::pair{netcc::to_double(s16.alpha()), 0x1p-16}}) {
      const double err = scaled - exact.alpha();
      RC_ASSERT(err <= 0.5 * unit + 1e-12);
      RC_ASSERT(err > -(2 / g + 0.5) * unit - 1e-12);
    }
  }
}

RC_GTEST_PROP(DctcpProperties, SharedConfigAndExternalStatesMatchTheController, ()) {
  // The event logic runs once, on (config, flow_state): several flows whose states live in one
  // array and share one config give, event for event, exactly the outputs of one controller
  // object per flow, in every instantiation.
  const auto p = gen_params();
  const int flows = *rc::gen::inRange(1, 4);
  auto check = [&](auto proto, const std::vector<std::vector<event>>& streams) {
    using C = decltype(proto);
    static_assert(std::is_trivially_copyable_v<typename C::flow_state>);
    const typename C::config cfg{p};
    std::vector<typename C::flow_state> st(streams.size(), cfg.initial_state());
    std::vector<C> cc(streams.size(), C{p});
    std::size_t longest = 0;
    for (const auto& v : streams) longest = std::max(longest, v.size());
    for (std::size_t i = 0; i < longest; ++i) {
      for (std::size_t f = 0; f < streams.size(); ++f) {
        if (i >= streams[f].size()) continue;
        const event& e = streams[f][i];
        apply(cc[f], e);
        switch (e.k) {
          case kind::ack:
            cfg.on_ack(st[f], ack(e.seq, e.nxt, e.acked, e.ece));
            break;
          case kind::loss:
            cfg.on_loss(st[f], ack(e.seq, e.nxt, e.acked, e.ece));
            break;
          case kind::timeout:
            cfg.on_timeout(st[f], netcc::timestamp{0});
            break;
        }
        if (e.ece) RC_ASSERT(cc[f].on_send(1460_B) == cfg.on_send(st[f], 1460_B));
        RC_ASSERT(cc[f].window() == cfg.window(st[f]));
        RC_ASSERT(cc[f].ssthresh() == cfg.ssthresh(st[f]));
        RC_ASSERT(cc[f].cwnd() == cfg.cwnd(st[f]));
        RC_ASSERT(cc[f].alpha_raw() == cfg.alpha_raw(st[f]));
        RC_ASSERT(cc[f].alpha() == cfg.alpha(st[f]));
        RC_ASSERT(cc[f].reductions() == cfg.reductions(st[f]));
        RC_ASSERT(cc[f].last_branch() == cfg.last_branch(st[f]));
        RC_ASSERT(cc[f].in_reduction_window() == cfg.in_reduction_window(st[f]));
        RC_ASSERT(cc[f].cwr_pending() == cfg.cwr_pending(st[f]));
        RC_ASSERT(cc[f].ca_bytes() == cfg.ca_bytes(st[f]));
      }
    }
  };
  std::vector<std::vector<event>> streams;
  for (int f = 0; f < flows; ++f) streams.push_back(gen_stream(true, true));
  check(netcc::dctcp{}, streams);
  check(dctcp_q32{}, streams);
  check(dctcp_scaled{}, streams);
  check(netcc::dctcp_fixed{}, streams);
  check(netcc::dctcp_counting{}, streams);
  check(dctcp_q32_counting{}, streams);
  check(netcc::dctcp_fixed_counting{}, streams);
}

TEST(Dctcp, CompactStateFitsTheBudgetAndKeepsWholeBytesExactly) {
  // 32 B for the integer form (TARGETS.md), the exact q32 alpha adds its 8 bytes; the window is
  // held to 2^-20 B, a whole byte count exactly.
  EXPECT_LE(sizeof(netcc::dctcp_fixed::flow_state), 32u);
  EXPECT_LE(sizeof(dctcp_q32::flow_state), 40u);
  EXPECT_EQ(netcc::dctcp_fixed::reduction_bits, 13);
  EXPECT_EQ(netcc::dctcp::reduction_bits, 32);
  const netcc::dctcp_fixed::config cfg{{.init_cwnd = netcc::bytes{0x7FFF'FFFF}}};
  auto st = cfg.initial_state();
  EXPECT_EQ(netcc::to_double(cfg.window(st)), 2147483647.0);
  // Congestion avoidance adds 1460 * 1460 / cwnd: stored to the nearest 2^-20 B.
  netcc::dctcp_fixed::config ca{{.init_cwnd = netcc::bytes{7000}, .cwnd_limited_growth = false}};
  auto s2 = ca.initial_state();
  ca.on_loss(s2, ack(1460, 20'000, 0, false));  // ssthresh = 3500 (floored at 2 MSS: 2920)
  ca.on_ack(s2, ack(20'001, 30'000, 1460, false));
  const double w = 3500.0 + 1460.0 * 1460.0 / 3500.0;
  EXPECT_NEAR(netcc::to_double(ca.window(s2)), w, 0x1p-21 + 0x1p-30);
  EXPECT_EQ(std::ldexp(netcc::to_double(ca.window(s2)), 20),
            std::round(std::ldexp(netcc::to_double(ca.window(s2)), 20)));
}

// ---------------------------------------------------------------- byte counting

TEST(Dctcp, ByteCountingAddsOneMssEachTimeTheCountReachesTheWindow) {
  // RFC 5681 §3.1 / RFC 3465 §2.1, by hand: MSS 1000 B, initial window 10000 B, every ACK
  // acknowledges 1000 B with the window full. ACKs 1-5 are slow start (11000 ... 15000 B); ACK 6
  // echoes CE with alpha still 1 (its window of data has not ended): the cut halves the window
  // to 7500 B and the count restarts. Congestion avoidance then counts 1000 B per ACK: ACK 14
  // brings it to 8000 >= 7500, so the window grows to 8500 and 500 B stay counted; ACK 22
  // brings 500 + 8000 = 8500 >= 8500 (9500 B, count 0); ACK 32 brings 10000 >= 9500 (10500 B,
  // count 500). The proportional rule instead grows on every ACK (7500 + 1000^2 / 7500 ...).
  const netcc::dctcp_params p{.mss = netcc::bytes{1000}, .init_cwnd = netcc::bytes{10'000}};
  netcc::dctcp_counting d{p};
  netcc::dctcp_fixed_counting f{p};
  dctcp_q32_counting q{p};
  netcc::dctcp prop{p};
  std::int64_t seq = 0;
  std::vector<std::int64_t> w;
  for (int i = 1; i <= 32; ++i) {
    seq += 1000;
    const auto e = ack(static_cast<netcc::sequence>(seq),
                       static_cast<netcc::sequence>(seq + d.cwnd().count()), 1000, i == 6);
    d.on_ack(e);
    f.on_ack(e);
    q.on_ack(e);
    prop.on_ack(e);
    ASSERT_EQ(f.cwnd(), d.cwnd()) << i;
    ASSERT_EQ(q.cwnd(), d.cwnd()) << i;
    ASSERT_EQ(f.last_branch(), d.last_branch()) << i;
    w.push_back(d.cwnd().count());
    if (i == 7) {
      EXPECT_EQ(d.last_branch(), netcc::dctcp_branch::avoidance);
      EXPECT_GT(prop.cwnd().count(), 7500);  // the proportional rule has grown already
    }
  }
  EXPECT_EQ(w[4], 15'000);
  EXPECT_EQ(w[5], 7'500);
  EXPECT_EQ(w[12], 7'500);
  EXPECT_EQ(w[13], 8'500);
  EXPECT_EQ(w[20], 8'500);
  EXPECT_EQ(w[21], 9'500);
  EXPECT_EQ(w[30], 9'500);
  EXPECT_EQ(w[31], 10'500);
  EXPECT_EQ(d.ca_bytes(), 500.0);
  EXPECT_EQ(netcc::to_double(f.ca_bytes()), 500.0);
  // A timeout restarts the count.
  d.on_timeout();
  EXPECT_EQ(d.ca_bytes(), 0.0);
}

TEST(Dctcp, ByteCountingStateSizes) {
  // One more number per flow: 8 B in the compact state (40 B), 8 B in double (72 B).
  EXPECT_EQ(sizeof(netcc::dctcp_fixed_counting::flow_state), 40u);
  EXPECT_LE(sizeof(netcc::dctcp_counting::flow_state), 72u);
  EXPECT_EQ(sizeof(netcc::dctcp_fixed::flow_state), 32u);  // the default rule keeps its 32 B
  EXPECT_TRUE(netcc::dctcp_counting::counts_bytes);
  EXPECT_FALSE(netcc::dctcp::counts_bytes);
}

RC_GTEST_PROP(DctcpProperties, ByteCountingGrowsByWholeSegmentsAndAgreesAcrossPolicies, ()) {
  // In congestion avoidance an ACK adds nothing or one MSS (less only at max_cwnd), in double and
  // in the compact q32 state; the two take the same rule on every event and keep windows within
  // the compact state's rounding, until the window or the count meets a threshold within that
  // rounding (where either choice is right; the comparison stops there).
  auto p = gen_params();
  p.cwnd_limited_growth = false;
  dctcp_scaled_counting d{p};
  netcc::dctcp_fixed_counting f{p};
  const auto mss = static_cast<double>(d.params().mss.count());
  const auto max_w = static_cast<double>(d.params().max_cwnd.count());
  int n = 0;
  for (const auto& e : gen_stream(true, true, true)) {
    const double w = d.window(), ss = d.ssthresh(), ca = d.ca_bytes();
    const double tol = (n + 1) * 0x1p-19 + 1e-9;
    const double a = static_cast<double>(std::max<std::int64_t>(e.acked, 0));
    const double left = w < ss ? a - (ss - w) : a;
    const bool tie =
        std::abs(w - ss) <= 2 * tol || std::abs(ca + left - std::max(w, ss)) <= 2 * tol;
    apply(d, e);
    apply(f, e);
    if (d.last_branch() != f.last_branch()) {
      RC_ASSERT(tie);
      return;
    }
    ++n;
    if (d.last_branch() == netcc::dctcp_branch::avoidance && w >= ss) {
      const double grown = d.window() - w;
      // (w + MSS) - w is MSS up to the rounding of the sum: half an ulp of the window.
      RC_ASSERT(grown == 0.0 || std::abs(grown - mss) <= 0x1p-52 * d.window() ||
                d.window() == max_w);
    }
    RC_ASSERT(std::abs(d.window() - netcc::to_double(f.window())) <= tol);
    RC_ASSERT(d.reductions() == f.reductions());
  }
}

}  // namespace netcc_tests::control_dctcp
