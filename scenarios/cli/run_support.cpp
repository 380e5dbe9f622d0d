#include "scenarios/cli/run_support.h"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>

#include "model/history_json.h"
#include "scenarios/runner.h"

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

std::optional<Scenario> load_checked_scenario(const std::string& path, const char* command) {
  ScenarioError error;
  auto scenario = load_scenario(path, error);
  if (!scenario) {
    fmt::print(stderr, "contend {}: {}\n", command, error.message);
    return std::nullopt;
  }
  if (auto problem = validate_scenario(*scenario)) {
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
  return static_cast<bool>(out);
}

}  // namespace contend::cli
