// Runs the built `contend` binary (CONTEND_BINARY) with arguments and captures its output.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace contend::testing {

struct CliResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

inline std::string shell_quote(const std::string& arg) {
  std::string out = "'";
  for (char c : arg)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs a shell command and captures what it prints on standard output.
inline CliResult run_shell(const std::string& command) {
  CliResult r;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    r.output.append(buffer.data(), n);
  int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

inline CliResult run_cli_in(const std::string& directory, const std::string& args) {
  return run_shell((directory.empty() ? std::string() : "cd " + shell_quote(directory) + " && ") +
                   std::string(CONTEND_BINARY) + " " + args + " 2>&1");
}

inline CliResult run_cli(const std::string& args) {
  return run_cli_in("", args);
}

// A whole file's text ("" when it cannot be read).
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::string source_path(const std::string& relative) {
  return std::string(CONTEND_SOURCE_DIR) + "/" + relative;
}

}  // namespace contend::testing
