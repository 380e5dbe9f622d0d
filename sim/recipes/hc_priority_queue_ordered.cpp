// `hc-priority-queue-ordered`: the priority-queue layer's staged pops with requests that record
// what their caller asked for, and items whose keys sort equal priorities in commit order. A
// request's value is "min" or "max", and a fulfiller hands each request, in request order, the
// smallest or the largest item left in its batch; an item's key is (priority, versionstamp); a
// fulfilment conflicts with a push that would have been a better answer. So the pops keep the
// `priority` spec, where `hc-priority-queue` (the layer as FoundationDB wrote it: requests that do
// not say, items (priority, index, random)) keeps only the multiset. Otherwise the same staging:
// one batch of 100 per fulfilment, the load-bearing dummy reads (hc_staging.h).
#include "sim/recipes/hc_staging.h"

namespace contend {

RecipeInfo hc_priority_queue_ordered_recipe() {
  return {"hc-priority-queue-ordered", RecipeKind::priority, true,
          "high-contention staging whose pop requests record min or max",
          []() -> std::unique_ptr<Recipe> { return make_hc_priority_queue(/*ordered=*/true); }};
}

}  // namespace contend
