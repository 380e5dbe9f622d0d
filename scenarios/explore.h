// Exploring schedules of one scenario, and shrinking what goes wrong.
//
// explore(): runs many schedules — `random` (one seed each), `pct` (the scenario's seed under
// PCT with a fresh priority draw per run), or `dfs` (every schedule within the preemption bound,
// by stateless re-execution) — checks each, counts verdicts, and keeps the first violation.
// shrink(): fewer clients, fewer operations, no faults, a shorter schedule, for as long as the
// same kind of violation still reproduces; every attempt is bounded. A scenario with a plan
// shrinks by its plan (any one client's array dropped, every array cut), so what it writes is
// a scenario a file can hold.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/verdict.h"
#include "scenarios/expectation.h"
#include "scenarios/runner.h"

namespace contend {

struct ExploreOptions {
  std::string strategy = "random";  // random | pct | dfs
  std::uint64_t seed = 1;           // pct, dfs: the world's seed; random: the first seed
  std::int64_t schedules = 1000;    // budget
  int pct_depth = 3;
  int max_preemptions = 2;
  bool stop_at_first_violation = true;
  // random, pct: threads running schedules (one world each); what is found and counted is the
  // same whatever the number. dfs runs one schedule at a time.
  int jobs = 1;
};

struct Finding {
  std::uint64_t seed = 0;
  std::vector<std::uint32_t> choices;  // empty = the seed alone reproduces it
  model::Verdict verdict;
  std::int64_t schedule = 0;  // 1-based: which schedule found it
};

struct ExploreResult {
  std::int64_t schedules = 0;
  bool exhausted = false;                        // dfs: the bounded space was covered
  std::map<std::string, std::int64_t> verdicts;  // summary -> schedules
  std::optional<Finding> violation;
  // The first schedule no checker could judge (verdict unknown, or a simulator fault): while one
  // is, finding no violation is not the exploration's result.
  std::optional<Finding> first_undecided;
  std::int64_t steps_estimate = 0;   // pct: k
  double pct_probability_bound = 0;  // pct: per run, for a depth-d bug
};

ExploreResult explore(const Scenario& scenario, const ExploreOptions& options);

struct Counterexample {
  Scenario scenario;
  Finding finding;
  SeedRun run;
  std::int64_t attempts = 0;   // reproduction runs the shrinker spent
  std::size_t operations = 0;  // operations in the shrunk history
};

// REQUIRES: `finding` reproduces on `scenario`. Shrinks while a violation of the same kind
// reproduces, within `max_runs` reproduction runs.
Counterexample shrink(const Scenario& scenario, const Finding& finding,
                      std::int64_t max_runs = 400);

// Trailing zero choices are the default: drop them so reproduction commands stay short.
std::vector<std::uint32_t> trim_choices(std::vector<std::uint32_t> choices);
std::string join_choices(const std::vector<std::uint32_t>& choices);

}  // namespace contend
