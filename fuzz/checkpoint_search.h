// The search checkpoint_fuzz resumes from each input, and checkpoint_fuzz_seeds saves its seed
// files from: queue, 2 clients x 3 operations, the seed's plan, cut into units and sized in
// rounds of 2 runs, so that its file holds, for each scope searched smallest first, the cut,
// finished units, and units in progress with where their searches stood.
#pragma once

#include <cstdint>

#include "scenarios/exhaustive.h"
#include "scenarios/scenario.h"

namespace contend::fuzz {

inline Scenario checkpoint_scenario() {
  Scenario s;
  s.file = "(fuzz)";
  s.name = "queue";
  s.recipe = "queue";
  s.clients = 2;
  s.operations_per_client = 3;
  s.checks = {"fast"};
  return s;
}

// `runs`: the budget, per plan and scope.
inline ExhaustiveOptions checkpoint_options(std::int64_t runs) {
  ExhaustiveOptions o;
  o.all_plans = false;
  o.units_wanted = 4;
  o.sizing_runs = 2;
  o.max_executions = runs;
  o.checkpoint_every = 1;
  return o;
}

}  // namespace contend::fuzz
