// Checking your own queue recipe from your own GoogleTest suite, in one call.
//
//   contend::RecipeInfo mine{"my-queue", contend::RecipeKind::fifo, true, "...", &make_my_queue};
//   TEST(MyQueue, IsLinearizable) {
//     contend::Scenario s = contend::testing::scenario_for(mine, /*clients=*/8, /*ops=*/20);
//     CONTEND_EXPECT_CORRECT(mine, s);
//   }
//
// The check runs every seed of the scenario (environment variable CONTEND_SEEDS=A..B or N
// overrides the range; a value of another shape fails the check, naming it, and runs nothing),
// judges each against the scenario's expectation, and on failure reports
// the verdict, the shrunk counterexample with its step trace, and the one-line command that
// reproduces it.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "scenarios/batch.h"

namespace contend::testing {

struct RecipeCheck {
  bool passed = true;
  std::string report;  // what to print on failure
};

// A scenario for `recipe` with the given size and the default mix of its kind, seeds 1..50.
Scenario scenario_for(const RecipeInfo& recipe, int clients, int operations_per_client);

RecipeCheck check_recipe(const RecipeInfo& recipe, Scenario scenario);

}  // namespace contend::testing

#define CONTEND_EXPECT_CORRECT(recipe_info, scenario)                \
  do {                                                               \
    const ::contend::testing::RecipeCheck contend_check_ =           \
        ::contend::testing::check_recipe((recipe_info), (scenario)); \
    EXPECT_TRUE(contend_check_.passed) << contend_check_.report;     \
  } while (0)
