// `hc-queue-no-reads` (teaching, WRONG): hc-queue with the "unused" `read = tr[...]` lines
// removed, as FoundationDB PR #7033's lint-style rewrite did. Two fulfillers — or a fulfiller and
// a simple popper — can now hand out the same item without conflicting: duplicate delivery.
#include "sim/recipes/hc_staging.h"

namespace contend {

namespace {

class HcQueueNoReads final : public Recipe {
 public:
  HcQueueNoReads()
      : staging_(StagingLayout{keys::Space("HC", "item"), keys::Space("HC", "pop"),
                               keys::Space("HC", "conflict"), /*dummy_reads=*/false,
                               /*priority=*/false, /*fulfil_until_short_batch=*/true}) {}
  Task<OpResult> enqueue(Database db, std::string value) override {
    return staging_.push(db, std::move(value), 0);
  }
  Task<OpResult> dequeue(Database db) override { return staging_.pop(db, /*max=*/false); }

 private:
  Staging staging_;
};

}  // namespace

RecipeInfo hc_queue_no_reads_recipe() {
  return {"hc-queue-no-reads", RecipeKind::fifo, false,
          "hc-queue without its non-snapshot dummy reads (PR #7033): duplicates",
          []() -> std::unique_ptr<Recipe> { return std::make_unique<HcQueueNoReads>(); }};
}

}  // namespace contend
