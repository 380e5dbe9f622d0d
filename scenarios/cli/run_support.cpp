#include "scenarios/cli/run_support.h"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>

#include "model/history_json.h"
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

void report_counterexample(const Scenario& scenario, const Finding& finding,
                           const std::string& out_dir, bool shrink_it) {
  Counterexample c = shrink(scenario, finding, shrink_it ? 400 : 0);
  Scenario& s = c.scenario;
  s.name = scenario.name + "-counterexample";
  s.seed_first = s.seed_last = c.finding.seed;
  s.expect = std::string(model::to_string(c.finding.verdict.violation));
  const std::string path = out_dir + "/" + s.name + ".toml";
  {
    std::ofstream out(path, std::ios::binary);
    out << "# Shrunk by contend from " << scenario.file << " (seed " << finding.seed << ").\n"
        << to_toml(s);
    if (!out) fmt::print(stderr, "contend: cannot write {}\n", path);
  }
  s.file = path;
  fmt::print("\ncounterexample: {} client(s) x {} operation(s), faults {}, {} operations in the "
             "history ({} shrinking runs)\n",
             s.clients, s.operations_per_client, s.faults.any() ? "kept" : "none", c.operations,
             c.attempts);
  fmt::print("verdict: {}\n  {}\n\n", c.finding.verdict.summary(), c.finding.verdict.explanation);
  print_trace(stdout, c.run);
  fmt::print("\nreproduce: contend replay {} --seed {}{}\n", path, c.finding.seed,
             c.finding.choices.empty() ? "" : " --choices " + join_choices(c.finding.choices));
}

}  // namespace contend::cli
