// The registry of recipes by name. Adding a recipe = one new file in sim/recipes/ that defines
// its RecipeInfo function + its line in each list below.
#include "sim/recipes/recipe.h"

namespace contend {

RecipeInfo queue_recipe();
RecipeInfo strict_queue_recipe();
RecipeInfo first_cut_queue_recipe();
RecipeInfo snapshot_dequeue_queue_recipe();
RecipeInfo split_dequeue_queue_recipe();
RecipeInfo versionstamp_queue_recipe();
RecipeInfo idempotent_queue_recipe();
RecipeInfo hc_queue_recipe();
RecipeInfo hc_queue_no_reads_recipe();
RecipeInfo priority_queue_recipe();
RecipeInfo idempotent_priority_queue_recipe();
RecipeInfo hc_priority_queue_recipe();
RecipeInfo hc_priority_queue_ordered_recipe();
RecipeInfo checked_dequeue_queue_recipe();
RecipeInfo skip_on_conflict_queue_recipe();

std::span<const RecipeInfo> all_recipes() {
  static const RecipeInfo kRecipes[] = {
      queue_recipe(),
      strict_queue_recipe(),
      first_cut_queue_recipe(),
      snapshot_dequeue_queue_recipe(),
      split_dequeue_queue_recipe(),
      versionstamp_queue_recipe(),
      idempotent_queue_recipe(),
      hc_queue_recipe(),
      hc_queue_no_reads_recipe(),
      priority_queue_recipe(),
      idempotent_priority_queue_recipe(),
      hc_priority_queue_recipe(),
      hc_priority_queue_ordered_recipe(),
      checked_dequeue_queue_recipe(),
      skip_on_conflict_queue_recipe(),
  };
  return kRecipes;
}

}  // namespace contend
