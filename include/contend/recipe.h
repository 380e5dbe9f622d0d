// contend's entry header for writing a queue recipe outside contend: the Recipe interface and
// RecipeInfo (sim/recipes/recipe.h), the transaction API it runs against, and the tuple-layer
// keys and values the shipped recipes use (sim/recipes/keys.h). Link contend::recipes.
#pragma once

#include "sim/recipes/keys.h"    // IWYU pragma: export
#include "sim/recipes/recipe.h"  // IWYU pragma: export
