// SPDX-License-Identifier: MIT
// A packaged netcc is usable: a controller checks its parameters, consumes ACKs through the
// shared contract and answers with a finite window, and the package's data directory exists.
#include <netcc/control/dctcp.hpp>
#include <netcc/control/make.hpp>
#include <netcc/version.hpp>

#include <cstdio>
#include <filesystem>

int main() {
  using namespace netcc::literals;
  auto made = netcc::make<netcc::dctcp>({.mss = 1500_B});
  if (!made) {
    for (const auto& e : made.errors()) std::fprintf(stderr, "%s\n", e.message().c_str());
    return 1;
  }
  netcc::dctcp cc = *made;
  const netcc::bytes before = cc.cwnd();
  cc.on_ack(netcc::ack_event{
      .now = netcc::timestamp{1'000'000}, .ack_seq = 15'000, .snd_nxt = 30'000, .acked = 1500_B});
  if (!(cc.cwnd() > before)) return 1;
#ifdef NETCC_DATA_DIR
  if (!std::filesystem::is_directory(std::filesystem::path(NETCC_DATA_DIR) / "cdf")) {
    std::fprintf(stderr, "netcc test_package: no %s/cdf\n", NETCC_DATA_DIR);
    return 1;
  }
#endif
  std::printf("netcc %s test_package ok: DCTCP window %lld -> %lld B\n", netcc::version_string,
              static_cast<long long>(before.count()), static_cast<long long>(cc.cwnd().count()));
  return 0;
}
