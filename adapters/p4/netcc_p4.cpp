// SPDX-License-Identifier: MIT
// netcc-p4: write the P4_16 programs of netcc's switch functions, and the simple_switch_CLI
// commands that load their tables, into a directory.
//
//   netcc-p4 --out DIR [--function NAME]... [--set key=value]...
//
// For each function: DIR/NAME.p4 and DIR/NAME.commands.txt. Bad input (an unknown option,
// function or key, a value that does not parse or breaks a rule) prints one line naming the
// key, the value and the rule, exits 2, and writes nothing.
#include <netcc/adapters/p4/emitter.hpp>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace {

void usage(std::FILE* to) {
  std::fputs(
      "usage: netcc-p4 --out DIR [--function NAME]... [--set key=value]...\n"
      "Writes DIR/NAME.p4 (P4_16, v1model) and DIR/NAME.commands.txt (simple_switch_CLI)\n"
      "for each function (default: all).\n"
      "functions:",
      to);
  for (auto f : netcc::p4::all_functions) std::fprintf(to, " %s", netcc::p4::name(f).data());
  std::fputs("\nkeys:\n", to);
  for (auto k : netcc::p4::setting_keys) std::fprintf(to, "  %s\n", k.data());
}

int bad(const std::string& line) {
  std::fprintf(stderr, "netcc-p4: %s\n", line.c_str());
  return 2;
}

bool write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out.flush());
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_dir;
  std::vector<netcc::p4::function> functions;
  netcc::p4::emit_params params;
  netcc::validation errors;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      usage(stdout);
      return 0;
    }
    const bool takes_value = arg == "--out" || arg == "--function" || arg == "--set";
    if (!takes_value) return bad("option " + std::string(arg) + ": unknown (see --help)");
    if (i + 1 >= argc) return bad("option " + std::string(arg) + ": needs a value");
    const std::string_view value = argv[++i];
    if (arg == "--out") {
      out_dir = value;
    } else if (arg == "--function") {
      const auto f = netcc::p4::parse_function(value);
      if (!f) {
        return bad("function = " + std::string(value) +
                   ": must be one of int_push, red_ecn, bolt, fasttune, dcqcn_np, token_bucket");
      }
      functions.push_back(*f);
    } else {
      const auto eq = value.find('=');
      if (eq == std::string_view::npos || eq == 0)
        return bad("set = " + std::string(value) + ": must be key=value");
      if (!netcc::p4::set(params, value.substr(0, eq), value.substr(eq + 1), errors))
        return bad(errors[errors.size() - 1].message());
    }
  }
  if (out_dir.empty()) return bad("out = (none): --out DIR is required");
  if (functions.empty())
    functions.assign(netcc::p4::all_functions.begin(), netcc::p4::all_functions.end());
  for (auto f : functions) errors.merge(netcc::p4::validate(params, f));
  if (!errors.ok()) return bad(errors[0].message());

  // Everything is checked: emit in memory first, then write, so bad input leaves no files.
  std::vector<netcc::p4::program> programs;
  for (auto f : functions) programs.push_back(netcc::p4::emit(f, params));
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) return bad("out = " + out_dir + ": cannot create the directory (" + ec.message() + ")");
  for (const auto& prog : programs) {
    const auto dir = std::filesystem::path(out_dir);
    if (!write_file(dir / (prog.name + ".p4"), prog.source) ||
        !write_file(dir / (prog.name + ".commands.txt"), prog.commands)) {
      std::fprintf(stderr, "netcc-p4: out = %s: cannot write %s\n", out_dir.c_str(),
                   prog.name.c_str());
      return 1;
    }
    std::printf("%s/%s.p4\n", out_dir.c_str(), prog.name.c_str());
  }
  return 0;
}
