// The history one seed of a shipped scenario writes at a scope of its own: for tests of the
// checkers on the recipes' real histories. A scenario that does not load fails the test and
// gives an empty history.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>

#include "model/history.h"
#include "scenarios/runner.h"
#include "tests/support/run_cli.h"

namespace contend::testing {

// Seed `seed` of scenario `file` (relative to the source tree), at `clients` x `operations`.
inline model::History recipe_history(const char* file, int clients, int operations,
                                     std::uint64_t seed) {
  ScenarioError error;
  auto scenario = load_scenario(source_path(file), error);
  EXPECT_TRUE(scenario.has_value()) << error.message;
  if (!scenario) return {};
  scenario->clients = clients;
  scenario->operations_per_client = operations;
  return run_seed(*scenario, seed).history;
}

}  // namespace contend::testing
