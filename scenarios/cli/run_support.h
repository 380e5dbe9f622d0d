// Helpers shared by the commands that run scenarios (run, replay, explore, sweep).
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/input_file.h"
#include "model/history.h"
#include "scenarios/batch.h"
#include "scenarios/explore.h"
#include "scenarios/scenario.h"
#include "scenarios/seed_range.h"

namespace CLI {
class App;
class Validator;
}  // namespace CLI

namespace contend::cli {

// --clients and --operations: a scenario at another scope than its file's.
struct ScopeArgs {
  std::optional<int> clients;
  std::optional<int> operations;
};
// Adds --clients and --operations to `cmd`; `verb` starts their help ("Run", "Explore").
void add_scope_options(CLI::App* cmd, ScopeArgs& scope, const std::string& verb);
// Applies the scope and records it in s.scope_flags; a message naming the file when the scenario
// cannot take it (an explicit plan fixes its clients and operations).
std::optional<std::string> rescope(Scenario& s, const ScopeArgs& scope);

// The seed range from --seed / --seeds, or the scenario's own [seeds]. Prints the error.
std::optional<SeedRange> seed_range_from(const std::string& seed, const std::string& seeds,
                                         const Scenario& scenario);

// Which checks of validate_scenario loading runs: all, or all but those of the keys the file set
// (a sweep judges those over its grid: check_sweep).
enum class SetKeyCheck : bool { now, by_caller };
// Loads, parses and validates a scenario; prints the error (prefixed by the command) if any.
std::optional<Scenario> load_checked_scenario(const std::string& path, const char* command,
                                              SetKeyCheck set_keys = SetKeyCheck::now);
// The same, at the scope --clients / --operations ask for (rescope's message printed).
std::optional<Scenario> load_scoped_scenario(const std::string& path, const ScopeArgs& scope,
                                             const char* command);

// Writes a history as JSON lines. Prints the error and returns false when the file can't be
// written.
bool write_history_file(const std::string& path, const model::History& history);
// Writes `text` to `path` and closes it; false when any of it failed, the last buffered bytes
// included (a full disk shows only when they are written). Prints nothing.
bool write_whole_file(const std::string& path, std::string_view text);
// Writes `text` to `path`; false (with a message naming it on stderr) when it cannot.
bool write_file(const std::string& path, const std::string& text);

// Why a file could not be written at `path`, judged before the work whose result goes there (a
// search of hours must not end in "cannot write"): the path names a directory or a file that
// cannot be written, or the directory it would be in is missing or cannot be written. Nothing is
// created. std::nullopt when it can be written.
std::optional<std::string> output_problem(const std::string& path);
// A file a command reads or writes, as the user named it: the flag (or argument) that named it
// ("--json", "--report json=", "history") and the path.
struct NamedFile {
  std::string named_by;
  std::string path;
  bool written = false;
};
// Why one file is named twice where one of the names writes it ("--history h.jsonl and --report
// json=h.jsonl name one file: the second written would replace the first; name two files"), or
// nothing. Paths name one file when they resolve to it (symbolic links, "./", hard links); "-"
// (standard output) and what is not a regular file (/dev/null) can be named any number of times.
std::optional<std::string> one_file_named_twice(const std::vector<NamedFile>& files);
// The same, said on stderr as "contend <command>: ..."; true when a file is named twice.
bool refuse_one_file_named_twice(const char* command, const std::vector<NamedFile>& files);

// The input file at `path` opened to read as a file of `kind` (base/input_file.h: a directory is
// refused, and a file past the kind's bound), or nothing after "contend <command>: <path>: cannot
// be read (<why>)" on stderr.
std::unique_ptr<InputFile> open_input_or_say(const char* command, const std::string& path,
                                             const InputKind& kind);
// The same said of a file read, when its kind's bound cut it short: true after saying so.
bool refuse_cut_short(const char* command, const std::string& path, const InputFile& in);
// The whole text of the file at `path`, read as a file of `kind`; or nothing after saying why
// as open_input_or_say does.
std::optional<std::string> read_input_or_say(const char* command, const std::string& path,
                                             const InputKind& kind);

// CLI11 checks of an option's output path by output_problem, at parse time (bad input: exit 2):
// a FILE ("-", standard output, passes), the FILE of kind=FILE (--report), and a prefix to which
// the command adds its own extensions (sweep's OUT.csv, OUT.json, OUT.svg).
CLI::Validator writable_output();
// The same for an option that takes a file only (--history): "-" is refused, not made a file.
CLI::Validator writable_file();
CLI::Validator writable_report_output();
// Each PREFIX + extension the command writes is checked, naming the first that cannot be.
CLI::Validator writable_output_prefix(std::vector<std::string> extensions);
// A directory the command writes a file of its own naming into (--out DIR): it must exist and
// take a new file, tried by making (and removing) a probe file there.
CLI::Validator writable_directory();

// What report_counterexample printed, for the reports that say it again (explore's --json).
struct ReportedCounterexample {
  int clients = 0;
  int operations_per_client = 0;
  std::size_t operations = 0;       // in the shrunk history
  std::int64_t shrinking_runs = 0;  // 0: not shrunk (--no-shrink)
  bool faults_kept = false;
  std::uint64_t seed = 0;
  std::vector<std::uint32_t> choices;
  model::Verdict verdict;
  std::string file;       // the shrunk scenario written under --out, or empty
  std::string reproduce;  // the reproduction command printed
};

// Prints a violation as a counterexample to `text`: shrunk (unless `shrink_it` is false) to the
// smallest scenario that still shows it, with its operations, its step trace and the one-line
// reproduction command. The shrunk scenario is written as TOML into `out_dir` only when one is
// given (--out); otherwise nothing is written and the output says how to get the file.
ReportedCounterexample report_counterexample(const Scenario& scenario, const Finding& finding,
                                             const std::string& out_dir, bool shrink_it,
                                             std::FILE* text = stdout);

// --report kind=FILE, kind in json, junit, html.
struct ReportRequest {
  std::string kind;
  std::string path;
};
std::optional<std::vector<ReportRequest>> parse_reports(const std::vector<std::string>& specs);
// The requests of a command that writes some kinds only (`kinds`, in the order a message names
// them), or nothing with `problem` naming the first spec that is not one of them: "--report
// xml=F: explore writes json=FILE or junit=FILE".
std::optional<std::vector<ReportRequest>> reports_of_kinds(
    const std::vector<std::string>& specs, std::initializer_list<std::string_view> kinds,
    std::string_view command, std::string& problem);
// The files the reports write, for one_file_named_twice.
std::vector<NamedFile> report_files(const std::vector<ReportRequest>& reports);
// "shard 3/4 holds none of seeds 5..6": what a run says of a shard with more shards than seeds.
std::string no_seed_in_shard(const SeedRange& seeds, const Shard& shard);
// Progress on a terminal for anything longer than a couple of seconds: seeds done of total,
// violations so far, time left. Silent when stderr is not a terminal.
class Progress {
 public:
  explicit Progress(std::uint64_t total);
  void update(std::size_t done, std::size_t total, bool violation);
  // Takes the progress line off the terminal before other output (the next update redraws it).
  void clear();
  void finish();

 private:
  bool tty_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_print_;
  std::size_t violations_ = 0;
  bool printed_ = false;
};

}  // namespace contend::cli
