// SPDX-License-Identifier: MIT
// Fuzz harness: a token bucket over packet sequences with fuzzed (also invalid) rate and
// bucket, times that may go backwards, and any packet size.
// Invariants:
//   * tokens stay within [0, bucket] (the exact credit within [0, bucket * 8e9]);
//   * the earliest conforming time is exact: the packet conforms then and not 1 ns earlier,
//     and it equals `now` iff the packet conforms now; never for a packet larger than b;
//   * a non-conforming offer takes no tokens; a conforming one takes exactly its size;
//   * with time non-decreasing from a full bucket, admitted bytes never exceed b + r t
//     (the bucket's own arrival curve);
//   * tokens after idle are monotone in the idle time and bounded by the bucket.
#include <netcc/fabric/token_bucket.hpp>

#include "fuzz_common.hpp"

namespace {

using netcc::bytes;
using netcc::timestamp;
using netcc::detail::i128;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  netcc::fuzz::byte_reader in(data, size);
  netcc::token_bucket_params p;
  if (in.boolean()) {
    p.rate = netcc::bit_rate{in.i64()};
    p.bucket = bytes{in.i64()};
  } else {
    p.rate = netcc::bit_rate{1 + static_cast<std::int64_t>(in.below(2'000'000'000'000ULL))};
    p.bucket = bytes{static_cast<std::int64_t>(in.below((1ULL << 30) + 1))};
  }
  const bool valid = validate(p).ok();
  const std::int64_t cap_bytes = p.bucket < bytes{0} ? 0
                                                     : (p.bucket > netcc::token_bucket_max_bucket
                                                            ? netcc::token_bucket_max_bucket.count()
                                                            : p.bucket.count());
  const std::int64_t cap_units = cap_bytes * netcc::token_bucket_units_per_byte;

  const bool start_full = in.boolean();
  std::int64_t t = static_cast<std::int64_t>(in.below(1ULL << 40));
  netcc::token_bucket_state s =
      start_full ? netcc::token_bucket_state::full(p, timestamp{t}) : netcc::token_bucket_state{};
  const std::int64_t t0 = start_full ? t : 0;
  bool monotone = true;
  i128 admitted = 0;

  while (!in.empty()) {
    const std::int64_t step = in.small_step(1'000'000);
    if (step < 0) monotone = false;
    t += step;
    const bytes sz{in.boolean() ? static_cast<std::int64_t>(in.below(1ULL << 31)) - 16
                                : static_cast<std::int64_t>(in.below(20'000))};
    const timestamp now{t};

    const auto e = netcc::token_bucket_earliest(s, sz, now, p);
    const bool conf_now = netcc::token_bucket_conforms(s, sz, now, p);
    if (sz.count() > cap_bytes) {
      NETCC_FUZZ_CHECK(e == timestamp::max() && !conf_now);
    } else if (e != timestamp::max()) {
      NETCC_FUZZ_CHECK(e >= now);
      NETCC_FUZZ_CHECK(netcc::token_bucket_conforms(s, sz, e, p));
      NETCC_FUZZ_CHECK((e == now) == conf_now);
      if (e > now)
        NETCC_FUZZ_CHECK(!netcc::token_bucket_conforms(s, sz, e - netcc::duration{1}, p));
    } else {
      NETCC_FUZZ_CHECK(!conf_now);
    }

    const i128 before = netcc::detail::tb_credit_at(s, now, p);
    const bool ok = netcc::token_bucket_consume(s, sz, now, p);
    NETCC_FUZZ_CHECK(ok == conf_now);
    const i128 need = sz.count() < 0 ? 0 : i128{sz.count()} * netcc::token_bucket_units_per_byte;
    NETCC_FUZZ_CHECK(i128{s.credit} == (ok ? before - need : before));
    NETCC_FUZZ_CHECK(s.credit >= 0 && s.credit <= cap_units);
    const bytes tok = netcc::token_bucket_tokens(s, timestamp{t + 12345}, p);
    NETCC_FUZZ_CHECK(tok >= bytes{0} && tok.count() <= cap_bytes);

    if (ok && sz > bytes{0}) admitted += sz.count();
    if (valid && start_full && monotone) {
      // admitted * 8e9 <= b * 8e9 + r (t - t0)
      NETCC_FUZZ_CHECK(admitted * netcc::token_bucket_units_per_byte <=
                       i128{cap_units} + i128{p.rate.count()} * (i128{t} - t0));
    }

    const netcc::duration idle{static_cast<std::int64_t>(in.below(1ULL << 40))};
    const netcc::duration more = idle + netcc::duration{static_cast<std::int64_t>(in.u16())};
    const bytes a = netcc::token_bucket_after_idle(tok, idle, p);
    const bytes b = netcc::token_bucket_after_idle(tok, more, p);
    NETCC_FUZZ_CHECK(a >= bytes{0} && a <= b && b.count() <= cap_bytes);
  }
  return 0;
}
