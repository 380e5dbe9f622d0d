// A user's own queue recipes (see my_queue.cpp), checked by my_queue_test.cpp.
#pragma once

#include <contend/recipe.h>

namespace my {

const contend::RecipeInfo& my_queue();
const contend::RecipeInfo& my_broken_queue();

}  // namespace my
