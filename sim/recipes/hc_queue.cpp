// `hc-queue`: the high-contention queue (FoundationDB layers/containers/highcontention/queue.py):
// pushes as the recipe's enqueue plus a read of the new key; pops staged through requests and
// result slots (see hc_staging.h). The layer calls its order "semi-FIFO", yet every history
// contend has produced without unknown results is linearizable against strict FIFO (the
// requests that race for items are concurrent, so either order is allowed): docs/checkers.md.
#include "sim/recipes/hc_staging.h"

namespace contend {

RecipeInfo hc_queue_recipe() {
  return {"hc-queue", RecipeKind::fifo, true,
          "high-contention staging: pop requests fulfilled in batches",
          []() -> std::unique_ptr<Recipe> { return make_hc_queue(/*dummy_reads=*/true); }};
}

}  // namespace contend
