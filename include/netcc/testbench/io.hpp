// SPDX-License-Identifier: MIT
/// @file
/// @brief Input and output helpers of the scenario runner that must hold against hostile input:
/// quoting untrusted text for messages, the character set of names that become file names, and
/// whole-or-nothing file writes.
///
/// - netcc::testbench::printable turns any bytes into one line of printable ASCII, so a value
///   echoed in an error message cannot move the cursor, recolour a terminal or split the line.
/// - netcc::testbench::check_file_name accepts the names the runner puts into file names:
///   1 to 64 characters from `[A-Za-z0-9._-]`, starting with a letter or digit. No separator, no
///   `..`, no leading dot or dash, no shell metacharacter, no control or non-ASCII byte, so a
///   name can neither leave the output directory nor mean anything to a shell or to gnuplot.
/// - netcc::testbench::write_file_atomic writes to a temporary file in the target's directory
///   and renames it into place only when every byte is written and flushed: a reader sees the
///   old file or the new one, never a truncated one, and a failure names the path and errno.
///
/// Sources: none; whole-file replacement is POSIX rename(2), atomic within a file system.
///
/// @code
/// std::string err = netcc::testbench::check_file_name("name", "../../x");
/// // "name = ../../x: must be 1-64 characters from [A-Za-z0-9._-], starting with a letter or digit"
/// err = netcc::testbench::write_file_atomic("out/a.csv", "time_ns,q\n0,0\n");   // "" on success
/// @endcode
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

namespace netcc::testbench {

/// @brief `text` as one line of printable ASCII: bytes outside 0x20..0x7E (control characters,
/// escape sequences, non-ASCII and invalid UTF-8) and the backslash become `\xNN`.
/// @code
/// netcc::testbench::printable("a\x1b[31mb");   // "a\x1b[31mb" spelled with a literal backslash
/// @endcode
[[nodiscard]] inline std::string printable(std::string_view text) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7F && c != '\\') {
      out += ch;
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 0xF];
    }
  }
  return out;
}

/// @brief Whether `c` may appear in a name that becomes part of a file name.
[[nodiscard]] constexpr bool is_file_name_char(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '_' || c == '-';
}

/// @brief Longest name accepted by netcc::testbench::check_file_name.
inline constexpr std::size_t max_file_name = 64;

/// @brief Empty when `value` is a safe file-name component (1-64 characters from
/// `[A-Za-z0-9._-]`, the first a letter or digit); otherwise "<key> = <value>: <rule>", the
/// value quoted with netcc::testbench::printable.
[[nodiscard]] inline std::string check_file_name(std::string_view key, std::string_view value) {
  bool ok = !value.empty() && value.size() <= max_file_name && value.front() != '.' &&
            value.front() != '-';
  for (const char c : value) ok = ok && is_file_name_char(c);
  if (ok) return {};
  return std::string(key) + " = " + printable(value) + ": must be 1-" +
         std::to_string(max_file_name) +
         " characters from [A-Za-z0-9._-], starting with a letter or digit";
}

/// @brief "<path>: <strerror(err)>".
[[nodiscard]] inline std::string io_error(const std::filesystem::path& path, int err) {
  return printable(path.string()) + ": " + std::strerror(err);
}

/// @brief Write `contents` to `path` whole or not at all: the bytes go to a temporary file
/// beside `path` (same directory, so the rename cannot cross file systems), which is flushed,
/// closed and then renamed over `path`. On any failure the temporary file is removed, `path` is
/// untouched, and the result names the path and the system's reason; empty on success.
[[nodiscard]] inline std::string write_file_atomic(const std::filesystem::path& path,
                                                   std::string_view contents) {
  std::filesystem::path tmp = path;
  tmp += ".partial";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) return io_error(tmp, errno);
  int err = 0;
  if (!contents.empty() && std::fwrite(contents.data(), 1, contents.size(), f) != contents.size())
    err = errno != 0 ? errno : EIO;
  if (std::fflush(f) != 0 && err == 0) err = errno != 0 ? errno : EIO;
  if (std::fclose(f) != 0 && err == 0) err = errno != 0 ? errno : EIO;
  if (err != 0) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    return io_error(path, err);
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    return printable(path.string()) + ": " + ec.message();
  }
  return {};
}

}  // namespace netcc::testbench
