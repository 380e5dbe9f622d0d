// contend's entry header for a GoogleTest suite that checks a user's own queue recipe:
// CONTEND_EXPECT_CORRECT(recipe_info, scenario), contend::testing::scenario_for and check_recipe
// (scenarios/testing/contend_testing.h), with the Scenario type they take. Link contend::testing.
#pragma once

#include "scenarios/testing/contend_testing.h"  // IWYU pragma: export
