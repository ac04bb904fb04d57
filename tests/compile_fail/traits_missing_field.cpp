// expect: (required expression .*ecn_echo.* is invalid|ecn_echo\(e\).* would be invalid)
// SPDX-License-Identifier: MIT
// A stack whose traits lack a field a controller needs gets an error naming that accessor.
#include <netcc/core/feedback.hpp>

struct my_ack {
  std::uint64_t t, seq, nxt;
  std::uint32_t len;
  bool ce;
};
template <>
struct netcc::feedback_traits<my_ack> {
  static netcc::timestamp now(const my_ack& a) {
    return netcc::timestamp{static_cast<std::int64_t>(a.t)};
  }
  static netcc::sequence ack_seq(const my_ack& a) { return a.seq; }
  static netcc::sequence snd_nxt(const my_ack& a) { return a.nxt; }
  static netcc::bytes acked_bytes(const my_ack& a) { return netcc::bytes{a.len}; }
#ifndef NETCC_COMPILE_FAIL
  static bool ecn_echo(const my_ack& a) {
    return a.ce;
  }
#endif
};

template <netcc::EcnFeedback E>
bool needs_ecn(const E& e) {
  return netcc::feedback_traits<E>::ecn_echo(e);
}

bool f() {
  return needs_ecn(my_ack{});
}
