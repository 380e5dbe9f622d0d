// `hc-queue`: the high-contention queue (FoundationDB layers/containers/highcontention/queue.py):
// pushes as the recipe's enqueue plus a read of the new key; pops staged through requests and
// result slots (see hc_staging.h). The layer calls its order "semi-FIFO", yet every history
// contend has produced without unknown results is linearizable against strict FIFO (the
// requests that race for items are concurrent, so either order is allowed): docs/checkers.md.
#include "sim/recipes/hc_staging.h"

namespace contend {

namespace {

class HcQueue final : public Recipe {
 public:
  HcQueue()
      : staging_(StagingLayout{keys::Space("HC", "item"), keys::Space("HC", "pop"),
                               keys::Space("HC", "conflict"), /*dummy_reads=*/true,
                               /*priority=*/false, /*fulfil_until_short_batch=*/true}) {}
  Task<OpResult> enqueue(Database db, std::string value) override {
    return staging_.push(db, std::move(value), 0);
  }
  Task<OpResult> dequeue(Database db) override { return staging_.pop(db, /*max=*/false); }

 private:
  Staging staging_;
};

}  // namespace

RecipeInfo hc_queue_recipe() {
  return {"hc-queue", RecipeKind::fifo, true,
          "high-contention staging: pop requests fulfilled in batches",
          []() -> std::unique_ptr<Recipe> { return std::make_unique<HcQueue>(); }};
}

}  // namespace contend
