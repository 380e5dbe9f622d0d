// The reports `contend explore --report KIND=FILE` writes, for every strategy, so that a CI job
// keeps a readable log and still hands its test view a result: json (the object --json writes:
// dpor's summary, or sampling_summary_json's for random, pct and dfs) and junit (one testcase, the
// exploration, failed unless it exits 0, the failure saying why and how to reproduce it).
// The requests are checked when the command line is read, before any schedule runs: a kind
// explore does not write, or a file named twice, is refused (exit 2) with nothing run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenarios/cli/run_support.h"
#include "scenarios/explore.h"

namespace contend::cli {

// How an exploration ended, in the words its reports say it again.
struct ExploreEnding {
  int exit_code = 0;
  std::string why;        // the line the text ended on: the verdict, or what was not covered
  std::string reproduce;  // the command that replays the schedule named, or empty
};

// The requests of `specs` (json=FILE or junit=FILE), or nullopt with the message printed.
std::optional<std::vector<ReportRequest>> explore_reports(const std::vector<std::string>& specs);

// The summary of a random, pct or dfs exploration: its scope and budget, the schedules run and
// their verdicts, the violation (as shrunk) or the first schedule no checker could judge, and
// whether it passed.
nlohmann::json sampling_summary_json(const Scenario& scenario, const ExploreOptions& options,
                                     const ExploreResult& result,
                                     const std::optional<ReportedCounterexample>& counterexample,
                                     const ExploreEnding& ending);

// JUnit XML of one exploration: its testcase is named by the scenario, the strategy and the seed
// (and the shard, for one of several); exit 1 is a failure of type "unexpected verdict", 2 (a
// checkpoint the search could not save) "output not written", 3 "unknown verdict", 4 "simulator
// fault", 128 + N "interrupted".
std::string explore_junit_xml(const Scenario& scenario, const std::string& strategy,
                              std::uint64_t seed, const std::string& shard,
                              const ExploreEnding& ending, double seconds);

// Writes `json_text` where --json says (`json_path`: a file, "-" standard output, "" nowhere),
// then each report (`json_text` to every json=FILE, `junit_text` to every junit=FILE), saying on
// stderr which it wrote. False, the message printed, when one could not be written.
bool write_explore_outputs(const std::string& json_path, const std::vector<ReportRequest>& requests,
                           const std::string& json_text, const std::string& junit_text);

}  // namespace contend::cli
