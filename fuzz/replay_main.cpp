// SPDX-License-Identifier: MIT
// A main() for fuzz harnesses where libFuzzer is unavailable (g++): replays the files and
// directories named on the command line, and with `--generate N` first feeds N inputs from a
// fixed-seed generator (random lengths 0..2048, mixing random bytes with runs of 0x00 and
// 0xFF so that counters near their wrap points and zero deltas are common). Exit status 0
// means every input ran without a failed invariant (harnesses abort on failure).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

int run_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "replay: cannot read %s\n", p.c_str());
    return 1;
  }
  std::vector<char> buf((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(buf.data()), buf.size());
  return 0;
}

void generate(unsigned long n) {
  std::mt19937_64 rng(20261122);
  std::vector<std::uint8_t> buf;
  for (unsigned long i = 0; i < n; ++i) {
    buf.resize(rng() % 2049);
    for (std::size_t k = 0; k < buf.size(); ++k) {
      const auto r = rng();
      switch (r % 8) {
        case 0:
          buf[k] = 0x00;
          break;
        case 1:
          buf[k] = 0xFF;
          break;
        default:
          buf[k] = static_cast<std::uint8_t>(r >> 8);
      }
    }
    LLVMFuzzerTestOneInput(buf.data(), buf.size());
  }
  std::printf("replay: %lu generated inputs ok\n", n);
}

}  // namespace

int main(int argc, char** argv) {
  int failures = 0;
  unsigned long files = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--generate" && i + 1 < argc) {
      generate(std::strtoul(argv[++i], nullptr, 10));
      continue;
    }
    const std::filesystem::path p(arg);
    if (std::filesystem::is_directory(p)) {
      for (const auto& e : std::filesystem::directory_iterator(p)) {
        if (e.is_regular_file()) {
          failures += run_file(e.path());
          ++files;
        }
      }
    } else {
      failures += run_file(p);
      ++files;
    }
  }
  std::printf("replay: %lu files replayed\n", files);
  return failures == 0 ? 0 : 1;
}
