// SPDX-License-Identifier: MIT
#include <netcc/testbench/io.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace netcc_tests::testbench_io {

namespace tb = netcc::testbench;
namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

fs::path scratch(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("netcc_io_test_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

}  // namespace

TEST(Io, PrintableEscapesControlNonAsciiAndBackslash) {
  EXPECT_EQ(tb::printable("plain text, 1-2_3.csv"), "plain text, 1-2_3.csv");
  EXPECT_EQ(tb::printable("a\x1b[31mb"), "a\\x1b[31mb");
  EXPECT_EQ(tb::printable(std::string("\0\n\t\x7f\xff", 5)), "\\x00\\x0a\\x09\\x7f\\xff");
  EXPECT_EQ(tb::printable("C:\\x"), "C:\\x5cx");  // a literal backslash cannot forge an escape
  EXPECT_EQ(tb::printable("\xc3\xa9"), "\\xc3\\xa9");
}

TEST(Io, FileNamesAreASafeCharacterSet) {
  for (const char* ok : {"incast", "a", "powertcp-fig4-255", "x.y_z", "9", "A1"})
    EXPECT_EQ(tb::check_file_name("name", ok), "") << ok;
  for (const char* bad : {"", "../../escaped", "a/b", "/abs", ".hidden", "-rf", "x$(touch PWNED)",
                          "x`id`", "a'b", "a\"b", "a b", "a;b", "a\\b", "a\x1b[31m", "\xc3\xa9"}) {
    const std::string err = tb::check_file_name("name", bad);
    EXPECT_NE(err, "") << bad;
    EXPECT_NE(
        err.find("must be 1-64 characters from [A-Za-z0-9._-], starting with a letter or digit"),
        std::string::npos);
    EXPECT_EQ(err.find('\x1b'), std::string::npos);  // the value is quoted printable
  }
  EXPECT_EQ(tb::check_file_name("name", std::string(64, 'a')), "");
  EXPECT_NE(tb::check_file_name("name", std::string(65, 'a')), "");
}

TEST(Io, AtomicWriteReplacesWholeFilesOnly) {
  const fs::path d = scratch("atomic");
  EXPECT_EQ(tb::write_file_atomic(d / "a.csv", "first\n"), "");
  EXPECT_EQ(read(d / "a.csv"), "first\n");
  EXPECT_EQ(tb::write_file_atomic(d / "a.csv", "second\n"), "");
  EXPECT_EQ(read(d / "a.csv"), "second\n");
  EXPECT_EQ(tb::write_file_atomic(d / "empty.csv", ""), "");
  EXPECT_TRUE(fs::exists(d / "empty.csv"));
  // A directory that does not exist: the message names the path and the system's reason, and
  // nothing is left behind.
  const std::string err = tb::write_file_atomic(d / "missing" / "b.csv", "x");
  EXPECT_NE(err.find("missing/b.csv.partial: No such file or directory"), std::string::npos) << err;
  std::vector<fs::path> left;
  for (const auto& e : fs::directory_iterator(d)) left.push_back(e.path().filename());
  EXPECT_EQ(left.size(), 2u);
  fs::remove_all(d);
}

TEST(Io, AtomicWriteToAFullDeviceFailsWithErrnoAndKeepsTheOldFile) {
  // /dev/full accepts the open and fails the flush with ENOSPC; the rename never happens.
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const fs::path d = scratch("full");
  const fs::path target = d / "q.csv";
  ASSERT_EQ(tb::write_file_atomic(target, "old\n"), "");
  fs::create_symlink("/dev/full", d / "q.csv.partial");
  const std::string err = tb::write_file_atomic(target, std::string(1 << 16, 'x'));
  EXPECT_NE(err.find("q.csv: No space left on device"), std::string::npos) << err;
  EXPECT_EQ(read(target), "old\n");
  fs::remove_all(d);
}

RC_GTEST_PROP(Io, PrintableIsPrintableAsciiAndInjective,
              (const std::string& a, const std::string& b)) {
  const std::string pa = tb::printable(a);
  for (const char c : pa) RC_ASSERT(c >= 0x20 && c < 0x7F);
  if (a != b) RC_ASSERT(pa != tb::printable(b));
}

RC_GTEST_PROP(Io, AcceptedNamesStayInsideTheDirectory, ()) {
  const auto name = *rc::gen::container<std::string>(rc::gen::element(
      'a', 'Z', '7', '.', '_', '-', '/', '\\', '$', '`', '\'', ' ', '\x1b', '\xff'));
  const bool accepted = tb::check_file_name("name", name).empty();
  const bool safe_chars = std::all_of(name.begin(), name.end(), tb::is_file_name_char);
  RC_ASSERT(accepted == (!name.empty() && name.size() <= tb::max_file_name && safe_chars &&
                         name.front() != '.' && name.front() != '-'));
  if (accepted) {
    // As the runner builds output names: "<name>_<controller>.csv" inside --out.
    const fs::path p = fs::path("out") / (name + "_x.csv");
    RC_ASSERT(p.parent_path() == fs::path("out"));
    RC_ASSERT(fs::path(p).lexically_normal().parent_path() == fs::path("out"));
  }
}

}  // namespace netcc_tests::testbench_io
