// Every operation plan a scenario's scope allows, for searches that prove a scope rather than
// sample it.
//
// A plan gives each of `clients` clients exactly `operations_per_client` operations, each one
// the scenario's mix allows (a positive weight): enqueue / dequeue for FIFO recipes; push, pop and
// peek at either end for priority recipes. Two reductions keep the count down without losing an
// execution up to renaming:
// - client symmetry: clients with the same plan are interchangeable, so plans are enumerated as
//   multisets (client plans in non-decreasing order);
// - priority symmetry: recipes and specs compare priorities only by order, so the pushes of a
//   plan use priorities priority_min + 0, 1, ..., m - 1 with every rank below m used (each order
//   pattern once), m at most the number of priorities the scenario allows.
// Invariant: plans come out in a fixed order (lexicographic over client plans), so a plan's
// index names it across runs, shards and checkpoints.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scenarios/scenario.h"
#include "sim/recipes/recipe.h"

namespace contend {

using Plan = std::vector<ClientPlan>;

// Every plan of the scenario's scope, or nothing (and `error` set) when there would be more than
// `max_plans`.
std::optional<std::vector<Plan>> enumerate_plans(const Scenario& scenario, RecipeKind kind,
                                                 std::size_t max_plans, std::string& error);

// The plan the scenario's seed draws (what `run` would do with that seed).
Plan seed_plan(const Scenario& scenario, RecipeKind kind, std::uint64_t seed);

// "[enqueue dequeue] [dequeue dequeue]": a plan in one line.
std::string describe_plan(const Plan& plan);

}  // namespace contend
