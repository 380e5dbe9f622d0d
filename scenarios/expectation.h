// Checking a scenario's runs and judging them against what the scenario expects.
//   expect = "linearizable"        every seed must check clean
//   expect = "violation"           some seed in the range must show a violation
//   expect = "<violation kind>"    some seed must show that kind (e.g. "lost")
#pragma once

#include <optional>
#include <string>

#include "model/check.h"
#include "scenarios/runner.h"

namespace contend {

// The spec a scenario's runs are checked against: its `model` key, else the recipe's guarantee.
model::SpecKind spec_for(const Scenario& scenario);
model::CheckRequest check_request_for(const Scenario& scenario);
// The run's history checked as the scenario asks, then its run-wide findings: a run stopped at
// a step or time bound is unknown unless its history already shows a violation; a store that did
// not replay, and a simulator fault, decide the verdict over every checker's.
model::CheckReport check_run(const Scenario& scenario, const SeedRun& run);

// Returns an error message when `expect` is not a valid expectation.
std::optional<std::string> validate_expectation(const std::string& expect);
// An error message naming the file and `expect` when the violation kind it names can never be
// reported under the scenario's model and checks (a run could then only end in a finding).
// REQUIRES: the scenario names a registered recipe.
std::optional<std::string> unreachable_expectation(const Scenario& scenario);

// Whether one seed's verdict is consistent with the expectation on its own (clean seeds are
// consistent with a violation expectation; the range as a whole must still show it).
bool seed_consistent(const std::string& expect, const model::Verdict& verdict);
// Whether this verdict is the violation the scenario expects to find.
bool shows_expected_violation(const std::string& expect, const model::Verdict& verdict);

// What gives a seed's checker what it lacked, when its verdict is unknown for want of the
// search's step budget ("; limits.search_budget = N ... gives it more"), else "".
std::string undecided_remedy(const Scenario& scenario, const model::Verdict& verdict);

// The one-line command that reproduces a seed.
std::string reproduction_command(const Scenario& scenario, std::uint64_t seed);

}  // namespace contend
