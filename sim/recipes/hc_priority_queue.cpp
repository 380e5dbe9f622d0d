// `hc-priority-queue`: the priority-queue layer's staged pops (python-layers priorityqueue.py,
// reference §4.2): items I[priority][index][random], requests that do not record min or max —
// a request is fulfilled in whichever direction the fulfilling client pops — one batch of 100
// per fulfilment. Ordering is "best effort", as the layer's docstring says.
// Result slots carry (value, priority) so the history can report the priority.
#include "sim/recipes/hc_staging.h"

namespace contend {

RecipeInfo hc_priority_queue_recipe() {
  return {"hc-priority-queue",
          RecipeKind::priority,
          true,
          "high-contention staging for priority pops (best-effort order)",
          []() -> std::unique_ptr<Recipe> { return make_hc_priority_queue(/*ordered=*/false); },
          "multiset"};
}

}  // namespace contend
