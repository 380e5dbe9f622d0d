// Helpers shared by the commands that run scenarios (run, replay, explore, sweep).
#pragma once

#include <optional>
#include <string>

#include "model/history.h"
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

}  // namespace contend::cli
