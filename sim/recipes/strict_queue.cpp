// `strict-queue` (teaching, correct): the seed recipe with the last-index read made
// non-snapshot. Still correct, but every pair of concurrent enqueues now conflicts: each one's
// reverse read [last key, end) meets the other's new item. This is what the snapshot read buys.
#include "sim/recipes/queue_steps.h"

namespace contend {

namespace {

class StrictQueue final : public Recipe {
 public:
  Task<OpResult> enqueue(Database db, std::string value) override {
    return queue_steps::enqueue(db, std::move(value), /*snapshot_last_index=*/false);
  }

  Task<OpResult> dequeue(Database db) override { return queue_steps::dequeue(db); }
};

}  // namespace

RecipeInfo strict_queue_recipe() {
  return {"strict-queue", RecipeKind::fifo, true,
          "last-index read without snapshot: correct, but concurrent enqueues conflict",
          []() -> std::unique_ptr<Recipe> { return std::make_unique<StrictQueue>(); }};
}

}  // namespace contend
