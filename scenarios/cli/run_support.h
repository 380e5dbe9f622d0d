// Helpers shared by the commands that run scenarios (run, replay, explore, sweep).
#pragma once

#include <optional>
#include <string>

#include "model/history.h"
#include "scenarios/explore.h"
#include "scenarios/scenario.h"
#include "scenarios/seed_range.h"

namespace contend::cli {

// The seed range from --seed / --seeds, or the scenario's own [seeds]. Prints the error.
std::optional<SeedRange> seed_range_from(const std::string& seed, const std::string& seeds,
                                         const Scenario& scenario);

// Loads, parses and validates a scenario; prints the error (prefixed by the command) if any.
std::optional<Scenario> load_checked_scenario(const std::string& path, const char* command);

// Writes a history as JSON lines. Prints the error and returns false when the file can't be
// written.
bool write_history_file(const std::string& path, const model::History& history);

// Prints a violation as a counterexample: shrunk (unless `shrink_it` is false) to the smallest
// scenario that still shows it, written to `out_dir` as TOML, with its operations, its step
// trace and the one-line reproduction command.
void report_counterexample(const Scenario& scenario, const Finding& finding,
                           const std::string& out_dir, bool shrink_it);

}  // namespace contend::cli
