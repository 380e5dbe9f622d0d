// `contend explore --strategy dpor`: the exhaustive search (scenarios/exhaustive.h) as a command:
// its flags, the statement of what was proved, the counterexample with its fault placements and
// trace, and the --json summary (and --report json, junit) scripts and CI rely on.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scenarios/cli/run_support.h"
#include "scenarios/exhaustive.h"

namespace contend::cli {

struct ExhaustiveArgs {
  ExhaustiveOptions options;
  std::string plans = "all";
  std::string shard;
  std::string json_path;                    // "" = none, "-" = stdout (every strategy's)
  std::vector<ReportRequest> reports;       // --report json=FILE, junit=FILE (explore_reports.h)
  std::string out_dir;                      // "" = the counterexample file is not written
  std::optional<std::string> reduction;     // dpor | states | none (default: the scenario's)
  bool no_reduction = false;                // the same as --reduction none
  std::int64_t progress_every = 1'000'000;  // runs between two progress lines on stderr; 0: none
  std::optional<double> max_seconds;        // wall-clock limit (time_limit.h); none: no limit
};

// Runs the search on a loaded, validated scenario; returns the exit status (0 as the scenario
// expects, 1 not, 2 bad input, 3 the budget (of runs, or max_seconds) ran out before the space
// was exhausted, 4 a simulator fault in some execution, 128 + N stopped by signal N).
int explore_exhaustive_command(const Scenario& scenario, ExhaustiveArgs& args);

}  // namespace contend::cli
