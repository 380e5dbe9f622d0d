// `snapshot-dequeue-queue` (teaching, WRONG): the dequeue's first-item read made a snapshot read.
// It adds no read conflict range, so two dequeuers that see the same head item both clear it and
// both commit: the item is delivered twice.
#include "sim/recipes/queue_steps.h"

namespace contend {

namespace {

class SnapshotDequeueQueue final : public Recipe {
 public:
  Task<OpResult> enqueue(Database db, std::string value) override {
    return queue_steps::enqueue(db, std::move(value));
  }

  Task<OpResult> dequeue(Database db) override {
    return queue_steps::dequeue(db, /*snapshot_first_item=*/true);
  }
};

}  // namespace

RecipeInfo snapshot_dequeue_queue_recipe() {
  return {"snapshot-dequeue-queue", RecipeKind::fifo, false,
          "first-item read as a snapshot read: two dequeuers take the same item",
          []() -> std::unique_ptr<Recipe> { return std::make_unique<SnapshotDequeueQueue>(); }};
}

}  // namespace contend
