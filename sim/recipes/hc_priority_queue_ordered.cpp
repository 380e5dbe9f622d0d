// `hc-priority-queue-ordered`: the priority-queue layer's staged pops with requests that record
// what their caller asked for, and items whose keys sort equal priorities in commit order. A
// request's value is "min" or "max", and a fulfiller hands each request, in request order, the
// smallest or the largest item left in its batch; an item's key is (priority, versionstamp). So
// the pops keep the `priority` spec, where `hc-priority-queue` (the layer as FoundationDB wrote
// it: requests that do not say, items (priority, index, random)) keeps only the multiset.
// Otherwise the same staging: one batch of 100 per fulfilment, the load-bearing dummy reads.
#include "sim/recipes/hc_staging.h"

namespace contend {

namespace {

class HcPriorityQueueOrdered final : public Recipe {
 public:
  HcPriorityQueueOrdered()
      : staging_(StagingLayout{keys::Space("HO", "I"), keys::Space("HO", "P"),
                               keys::Space("HO", "R"), /*dummy_reads=*/true,
                               /*priority=*/true, /*fulfil_until_short_batch=*/false,
                               /*directed_requests=*/true, /*versionstamped_items=*/true}) {}
  Task<OpResult> push(Database db, std::string value, std::int64_t priority) override {
    return staging_.push(db, std::move(value), priority);
  }
  Task<OpResult> pop(Database db, bool max) override { return staging_.pop(db, max); }
  Task<OpResult> peek(Database db, bool max) override { return staging_.peek(db, max); }

 private:
  Staging staging_;
};

}  // namespace

RecipeInfo hc_priority_queue_ordered_recipe() {
  return {"hc-priority-queue-ordered", RecipeKind::priority, true,
          "high-contention staging whose pop requests record min or max",
          []() -> std::unique_ptr<Recipe> { return std::make_unique<HcPriorityQueueOrdered>(); }};
}

}  // namespace contend
