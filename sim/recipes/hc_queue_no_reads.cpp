// `hc-queue-no-reads` (teaching, WRONG): hc-queue with the "unused" `read = tr[...]` lines
// removed, as FoundationDB PR #7033's lint-style rewrite did. Two fulfillers — or a fulfiller and
// a simple popper — can now hand out the same item without conflicting: duplicate delivery.
#include "sim/recipes/hc_staging.h"

namespace contend {

RecipeInfo hc_queue_no_reads_recipe() {
  return {"hc-queue-no-reads", RecipeKind::fifo, false,
          "hc-queue without its non-snapshot dummy reads (PR #7033): duplicates",
          []() -> std::unique_ptr<Recipe> { return make_hc_queue(/*dummy_reads=*/false); }};
}

}  // namespace contend
