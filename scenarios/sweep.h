// Sweeps: one scenario run at every point of a grid of parameter values (`clients=1,2,4`,
// `recipe=queue,hc-queue`, `operations_per_client=...`, `faults.<knob>=...`), many seeds per
// point, summarised as a table and written as CSV, JSON and a hand-made SVG chart.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenarios/batch.h"

namespace contend {

struct Variation {
  std::string key;
  std::vector<std::string> values;
};

// Parses "key=v1,v2,...". Returns an error message for an unknown key, an empty list, an empty
// item or a value given twice.
std::optional<Variation> parse_variation(const std::string& text, std::string& error);
// Applies key=value to a scenario; returns an error message when the value does not fit.
std::optional<std::string> apply_variation(Scenario& scenario, const std::string& key,
                                           const std::string& value);

// The most grid points a sweep runs: every point runs the whole seed range, so a grid this size
// already takes hours; a larger one is a typing slip (a range typed as a list), refused at once
// rather than validated point by point for minutes before the first run.
inline constexpr std::uint64_t kSweepPointsMax = 100'000;

// Refuses a grid of more than kSweepPointsMax points, giving its count and the bound, before any
// point is looked at; then checks every point of the grid as a scenario of its own
// (validate_scenario_values): a value that fits alone may not fit beside another (clients=1024
// with operations_per_client=1000000). A key the file set is refused when it takes effect at no
// point of the grid (set_key_without_effect's message, for the first point), not when one point
// ignores it: [mix] push beside --vary recipe=queue,priority-queue is used at the second.
// Returns the first problem, naming the point, or nothing.
std::optional<std::string> check_sweep(const Scenario& base,
                                       const std::vector<Variation>& variations);

struct SweepPoint {
  std::vector<std::string> values;  // one per variation, in order
  std::int64_t seeds = 0;
  double throughput_ops_per_s = 0;  // total ok ops / total virtual seconds (main phases)
  double conflict_rate = 0;         // conflicts / attempts
  std::int64_t retries_p50 = 0, retries_p99 = 0;        // over every operation of every seed
  std::int64_t latency_us_p50 = 0, latency_us_p99 = 0;  // median over seeds of each seed's figure
  std::int64_t unknown_results = 0;
  std::map<std::string, std::int64_t> verdicts;
  // The first seed of this point whose run was a simulator fault: its figures measure a broken
  // contend, not the recipe.
  std::optional<std::uint64_t> first_simulator_fault;
};

struct SweepResult {
  std::vector<Variation> variations;
  SeedRange seeds;
  std::vector<SweepPoint> points;
};

// REQUIRES: check_sweep(base, variations) found no problem.
SweepResult run_sweep(const Scenario& base, const std::vector<Variation>& variations,
                      const SeedRange& seeds, int jobs);

std::string sweep_table(const SweepResult& r);
std::string sweep_csv(const SweepResult& r);
nlohmann::json sweep_json(const SweepResult& r);
// Throughput and conflict rate against the first variation, one line per value of the others.
std::string sweep_svg(const SweepResult& r);

}  // namespace contend
