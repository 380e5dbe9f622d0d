#include "scenarios/cli/run_support.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "base/input_file.h"
#include "base/shell_quote.h"
#include "model/history_json.h"
#include "scenarios/cli/number_options.h"
#include "scenarios/expectation.h"
#include "scenarios/html_report.h"
#include "scenarios/json_shape.h"
#include "scenarios/runner.h"
#include "scenarios/trace.h"

namespace contend::cli {

std::optional<SeedRange> seed_range_from(const std::string& seed, const std::string& seeds,
                                         const Scenario& scenario) {
  std::string error;
  if (!seed.empty() || !seeds.empty()) {
    auto range = parse_seed_range(seed.empty() ? seeds : seed, error);
    if (!range) fmt::print(stderr, "contend: {}: {}\n", seed.empty() ? "--seeds" : "--seed", error);
    return range;
  }
  return SeedRange{scenario.seed_first, scenario.seed_last};
}

void add_scope_options(CLI::App* cmd, ScopeArgs& scope, const std::string& verb) {
  cmd->add_option("--clients", scope.clients,
                  verb + " with this many clients (default: the scenario's)")
      ->transform(whole_number_in(1, kClientsMax));
  cmd->add_option("--operations", scope.operations,
                  verb + " with this many operations per client (default: the scenario's)")
      ->transform(whole_number_in(1, kOperationsPerClientMax));
}

std::optional<std::string> rescope(Scenario& s, const ScopeArgs& scope) {
  if (!scope.clients && !scope.operations) return std::nullopt;
  if (!s.plan.empty()) {
    return s.file +
           ": plan: --clients and --operations cannot resize a scenario with a plan; "
           "edit its plan instead";
  }
  if (scope.clients) {
    s.clients = *scope.clients;
    s.scope_flags += " --clients " + std::to_string(s.clients);
  }
  if (scope.operations) {
    s.operations_per_client = *scope.operations;
    s.scope_flags += " --operations " + std::to_string(s.operations_per_client);
  }
  return std::nullopt;
}

std::optional<Scenario> load_checked_scenario(const std::string& path, const char* command,
                                              SetKeyCheck set_keys) {
  ScenarioError error;
  auto scenario = load_scenario(path, error);
  if (!scenario) {
    fmt::print(stderr, "contend {}: {}\n", command, error.message);
    return std::nullopt;
  }
  if (auto problem = set_keys == SetKeyCheck::now ? validate_scenario(*scenario)
                                                  : validate_scenario_values(*scenario)) {
    fmt::print(stderr, "contend {}: {}\n", command, *problem);
    return std::nullopt;
  }
  return scenario;
}

std::optional<Scenario> load_scoped_scenario(const std::string& path, const ScopeArgs& scope,
                                             const char* command) {
  auto scenario = load_checked_scenario(path, command);
  if (!scenario) return std::nullopt;
  // The new scope is judged as the file's was (its operations in all, for one).
  auto problem = rescope(*scenario, scope);
  if (!problem && !scenario->scope_flags.empty()) problem = validate_scenario(*scenario);
  if (problem) {
    fmt::print(stderr, "contend {}: {}\n", command, *problem);
    return std::nullopt;
  }
  return scenario;
}

bool write_history_file(const std::string& path, const model::History& history) {
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    fmt::print(stderr, "contend: cannot write the history to {}\n", path);
    return false;
  }
  model::write_history(out, history);
  out.close();  // the last buffered bytes fail only here when the disk is full
  if (out.fail()) {
    fmt::print(stderr, "contend: cannot write the history to {}\n", path);
    return false;
  }
  return true;
}

namespace {

// `spec` as KIND=FILE, KIND among `kinds` and FILE not empty; nothing when it is not.
std::optional<ReportRequest> report_request(const std::string& spec,
                                            std::initializer_list<std::string_view> kinds) {
  const auto eq = spec.find('=');
  const std::string kind = spec.substr(0, eq);
  if (eq == std::string::npos || eq + 1 == spec.size() ||
      std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) {
    return std::nullopt;
  }
  return ReportRequest{kind, spec.substr(eq + 1)};
}

}  // namespace

std::optional<std::vector<ReportRequest>> parse_reports(const std::vector<std::string>& specs) {
  std::vector<ReportRequest> out;
  for (const std::string& spec : specs) {
    std::optional<ReportRequest> request = report_request(spec, {"json", "junit", "html"});
    if (!request) {
      fmt::print(stderr, "contend: --report {}: expected json=FILE, junit=FILE or html=FILE\n",
                 spec);
      return std::nullopt;
    }
    out.push_back(std::move(*request));
  }
  return out;
}

std::optional<std::vector<ReportRequest>> reports_of_kinds(
    const std::vector<std::string>& specs, std::initializer_list<std::string_view> kinds,
    std::string_view command, std::string& problem) {
  std::vector<ReportRequest> out;
  for (const std::string& spec : specs) {
    std::optional<ReportRequest> request = report_request(spec, kinds);
    if (!request) {
      std::vector<std::string> forms;
      for (std::string_view kind : kinds)
        forms.push_back(std::string(kind) + "=FILE");
      problem = fmt::format("--report {}: {} writes {}", spec, command, fmt::join(forms, " or "));
      return std::nullopt;
    }
    out.push_back(std::move(*request));
  }
  return out;
}

std::vector<NamedFile> report_files(const std::vector<ReportRequest>& reports) {
  std::vector<NamedFile> files;
  for (const ReportRequest& r : reports)
    files.push_back(NamedFile{"--report " + r.kind + "=", r.path, true});
  return files;
}

bool write_whole_file(const std::string& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  return !out.fail();
}

bool write_file(const std::string& path, const std::string& text) {
  const bool written = write_whole_file(path, text);
  if (!written) fmt::print(stderr, "contend: cannot write {}\n", path);
  return written;
}

std::optional<std::string> output_problem(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty()) return "no file named";
  std::error_code ignored;  // a status that cannot be read is judged as a missing path
  const fs::file_status file = fs::status(path, ignored);
  if (fs::is_directory(file)) return "it is a directory";
  if (fs::exists(file)) {
    if (::access(path.c_str(), W_OK) != 0) return "it exists and cannot be written";
    return std::nullopt;
  }
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  const fs::file_status parent = fs::status(dir, ignored);
  if (!fs::exists(parent)) return fmt::format("the directory {} does not exist", dir.string());
  if (!fs::is_directory(parent)) return fmt::format("{} is not a directory", dir.string());
  if (::access(dir.c_str(), W_OK) != 0)
    return fmt::format("the directory {} cannot be written", dir.string());
  return std::nullopt;
}

namespace {

// Whether `a` and `b` name one file (what neither names yet is compared by its resolved path).
bool same_file(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::equivalent(a, b, error) && !error) return true;
  const fs::path resolved_a = fs::weakly_canonical(fs::absolute(a, error), error);
  if (error) return false;
  const fs::path resolved_b = fs::weakly_canonical(fs::absolute(b, error), error);
  return !error && resolved_a == resolved_b;
}

// "--json x.json", "--report json=x.json", "history x.jsonl".
std::string naming(const NamedFile& f) {
  return f.named_by + (f.named_by.ends_with('=') ? "" : " ") + f.path;
}

// Whether `path` may be named by two flags: standard output, or what is not a regular file.
bool may_be_shared(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  return path == "-" || (fs::exists(status) && !fs::is_regular_file(status));
}

}  // namespace

std::optional<std::string> one_file_named_twice(const std::vector<NamedFile>& files) {
  for (std::size_t i = 0; i < files.size(); ++i) {
    for (std::size_t j = i + 1; j < files.size(); ++j) {
      const NamedFile& a = files[i];
      const NamedFile& b = files[j];
      if (!(a.written || b.written) || a.path.empty() || b.path.empty() || may_be_shared(a.path) ||
          !same_file(a.path, b.path)) {
        continue;
      }
      const char* why = a.written && b.written ? "the second written would replace the first"
                                               : "writing it would replace what is read from it";
      return fmt::format("{} and {} name one file: {}; name two files", naming(a), naming(b), why);
    }
  }
  return std::nullopt;
}

bool refuse_one_file_named_twice(const char* command, const std::vector<NamedFile>& files) {
  const std::optional<std::string> twice = one_file_named_twice(files);
  if (twice) fmt::print(stderr, "contend {}: {}\n", command, *twice);
  return twice.has_value();
}

std::unique_ptr<InputFile> open_input_or_say(const char* command, const std::string& path,
                                             const InputKind& kind) {
  std::string why;
  std::unique_ptr<InputFile> in = open_input(path, kind, why);
  if (!in) fmt::print(stderr, "contend {}: {}: cannot be read ({})\n", command, path, why);
  return in;
}

bool refuse_cut_short(const char* command, const std::string& path, const InputFile& in) {
  if (!in.cut_short()) return false;
  fmt::print(stderr, "contend {}: {}: cannot be read ({})\n", command, path,
             in.over_bound_reason());
  return true;
}

std::optional<std::string> read_input_or_say(const char* command, const std::string& path,
                                             const InputKind& kind) {
  std::string why;
  std::optional<std::string> text = read_input(path, kind, why);
  if (!text) fmt::print(stderr, "contend {}: {}: cannot be read ({})\n", command, path, why);
  return text;
}

namespace {

std::string cannot_write(const std::string& path) {
  std::optional<std::string> why = output_problem(path);
  return why ? fmt::format("cannot write {}: {}", path, *why) : std::string();
}

}  // namespace

CLI::Validator writable_output() {
  return CLI::Validator(
      [](std::string& path) { return path == "-" ? std::string() : cannot_write(path); }, "FILE");
}

// What a file-only option says of "-".
constexpr const char* kNotStandardOutput = "'-' (standard output) is not taken here: name a file";

CLI::Validator writable_file() {
  return CLI::Validator(
      [](std::string& path) {
        return path == "-" ? std::string(kNotStandardOutput) : cannot_write(path);
      },
      "FILE");
}

CLI::Validator writable_report_output() {
  return CLI::Validator(
      [](std::string& spec) {
        const auto eq = spec.find('=');
        if (eq == std::string::npos || eq + 1 == spec.size())
          return std::string();  // not kind=FILE: parse_reports says so
        if (spec.substr(eq + 1) == "-") return std::string(kNotStandardOutput);
        return cannot_write(spec.substr(eq + 1));
      },
      "KIND=FILE");
}

CLI::Validator writable_output_prefix(std::vector<std::string> extensions) {
  return CLI::Validator(
      [extensions](std::string& prefix) {
        for (const std::string& extension : extensions) {
          std::string message = cannot_write(prefix + extension);
          if (!message.empty()) return message;
        }
        return std::string();
      },
      "OUT");
}

namespace {

// Why no file can be made in the directory `dir`, or nothing: a probe file is created there
// (never over an existing one) and removed, as the file the command will write would be.
std::optional<std::string> directory_problem(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ignored;
  if (!fs::is_directory(fs::status(dir, ignored))) return "it is not an existing directory";
  const std::string probe = (fs::path(dir) / fmt::format(".contend-probe-{}", ::getpid())).string();
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0) return fmt::format("a file cannot be made in it ({})", std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
  return std::nullopt;
}

}  // namespace

CLI::Validator writable_directory() {
  return CLI::Validator(
      [](std::string& dir) {
        std::optional<std::string> why = directory_problem(dir);
        if (!why && (why = utf8_problem(dir))) {
          *why =
              "its name is not UTF-8 (" + *why + "), and the reports name the files written there";
        }
        return why ? fmt::format("cannot write into {}: {}", dir, *why) : std::string();
      },
      "DIR");
}

std::string no_seed_in_shard(const SeedRange& seeds, const Shard& shard) {
  return fmt::format("shard {}/{} holds none of seeds {}..{}", shard.index, shard.count,
                     seeds.first, seeds.last);
}

Progress::Progress(std::uint64_t)
    : tty_(isatty(fileno(stderr)) != 0),
      start_(std::chrono::steady_clock::now()),
      last_print_(start_) {}

void Progress::update(std::size_t done, std::size_t total, bool violation) {
  violations_ += violation ? 1 : 0;
  if (!tty_) return;
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (elapsed < 2.0 || now - last_print_ < std::chrono::milliseconds(200)) return;
  last_print_ = now;
  const double left = elapsed / static_cast<double>(done) * static_cast<double>(total - done);
  fmt::print(stderr, "\r  seeds {}/{}  violations {}  ~{:.0f}s left   ", done, total, violations_,
             left);
  printed_ = true;
}

void Progress::clear() {
  if (printed_) fmt::print(stderr, "\r{:60}\r", "");
  printed_ = false;
}

void Progress::finish() {
  clear();
}

ReportedCounterexample report_counterexample(const Scenario& scenario, const Finding& finding,
                                             const std::string& out_dir, bool shrink_it,
                                             std::FILE* text) {
  Counterexample c = shrink(scenario, finding, shrink_it ? 400 : 0);
  Scenario& s = c.scenario;
  s.name = scenario.name + "-counterexample";
  s.seed_first = s.seed_last = c.finding.seed;
  s.expect = std::string(model::to_string(c.finding.verdict.violation));
  auto choices_flag = [](const std::vector<std::uint32_t>& choices) {
    return choices.empty() ? std::string() : " --choices " + join_choices(choices);
  };
  // The scenario file is written only where --out says; nothing lands in the working directory.
  std::string path;
  if (!out_dir.empty()) {
    path = out_dir + "/" + s.name + ".toml";
    const std::string toml = "# Shrunk by contend from " + scenario.file + " (seed " +
                             std::to_string(finding.seed) + ").\n" + to_toml(s);
    if (!write_whole_file(path, toml)) {
      fmt::print(stderr, "contend: cannot write {}\n", path);
      path.clear();
    }
  }
  s.file = path;
  s.scope_flags.clear();  // the written file holds the scope
  ReportedCounterexample reported{
      s.clients,      s.operations_per_client, c.operations,      c.attempts, s.faults.any(),
      c.finding.seed, c.finding.choices,       c.finding.verdict, path,       std::string()};
  fmt::print(text,
             "\ncounterexample: {} client(s) x {} operation(s), faults {}, {} operations in the "
             "history ({} shrinking runs)\n",
             s.clients, s.operations_per_client, reported.faults_kept ? "kept" : "none",
             c.operations, c.attempts);
  fmt::print(text, "verdict: {}\n  {}\n\n", c.finding.verdict.summary(),
             c.finding.verdict.explanation);
  print_trace(text, c.run);
  const std::string shrunk_replay =
      fmt::format("--seed {}{}", c.finding.seed, choices_flag(c.finding.choices));
  if (!path.empty()) {
    reported.reproduce =
        fmt::format("contend replay {} {}", shell_quoted_path(path), shrunk_replay);
    fmt::print(text, "\nwrote {}\nreproduce: {}\n", path, reported.reproduce);
    return reported;
  }
  reported.reproduce = reproduction_command(scenario, finding.seed) + choices_flag(finding.choices);
  fmt::print(text, "\nreproduce: {}\n", reported.reproduce);
  fmt::print(text,
             "the counterexample scenario was not written: add --out DIR to write it as "
             "DIR/{}.toml, replayed with: contend replay {} {}\n",
             s.name, shell_quoted("DIR/" + s.name + ".toml"), shrunk_replay);
  return reported;
}

}  // namespace contend::cli
