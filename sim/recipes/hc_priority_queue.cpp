// `hc-priority-queue`: the priority-queue layer's staged pops (python-layers priorityqueue.py,
// reference §4.2): items I[priority][index][random], requests that do not record min or max —
// a request is fulfilled in whichever direction the fulfilling client pops — one batch of 100
// per fulfilment. Ordering is "best effort", as the layer's docstring says.
// Result slots carry (value, priority) so the history can report the priority.
#include "sim/recipes/hc_staging.h"

namespace contend {

namespace {

class HcPriorityQueue final : public Recipe {
 public:
  HcPriorityQueue()
      : staging_(StagingLayout{keys::Space("HP", "I"), keys::Space("HP", "P"),
                               keys::Space("HP", "R"), /*dummy_reads=*/true,
                               /*priority=*/true, /*fulfil_until_short_batch=*/false}) {}
  Task<OpResult> push(Database db, std::string value, std::int64_t priority) override {
    return staging_.push(db, std::move(value), priority);
  }
  Task<OpResult> pop(Database db, bool max) override { return staging_.pop(db, max); }
  Task<OpResult> peek(Database db, bool max) override { return staging_.peek(db, max); }

 private:
  Staging staging_;
};

}  // namespace

RecipeInfo hc_priority_queue_recipe() {
  return {"hc-priority-queue",
          RecipeKind::priority,
          true,
          "high-contention staging for priority pops (best-effort order)",
          []() -> std::unique_ptr<Recipe> { return std::make_unique<HcPriorityQueue>(); },
          "multiset"};
}

}  // namespace contend
