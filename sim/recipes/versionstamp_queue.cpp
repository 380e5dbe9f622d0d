// `versionstamp-queue` (correct without unknown results): enqueue with SET_VERSIONSTAMPED_KEY,
// so the key is (commit versionstamp,) — no read at all, hence conflict-free, and items are
// ordered by commit order, which real time respects. Dequeue is the seed's.
// Under commit_unknown_result the blind retry enqueues the item twice (not idempotent).
#include "sim/recipes/queue_steps.h"

namespace contend {

namespace {

using queue_steps::queue_space;

class VersionstampQueue final : public Recipe {
 public:
  Task<OpResult> enqueue(Database db, std::string value) override {
    auto r = co_await run(db, [&](Transaction& tr) -> Task<void> {
      tr.atomic_op(MutationType::set_versionstamped_key, queue_space().versionstamped_key(),
                   keys::encode_value(value));
      co_return;
    });
    co_return outcome_of(r);
  }

  Task<OpResult> dequeue(Database db) override { return queue_steps::dequeue(db); }
};

}  // namespace

RecipeInfo versionstamp_queue_recipe() {
  return {"versionstamp-queue", RecipeKind::fifo, true,
          "SET_VERSIONSTAMPED_KEY enqueue: conflict-free, commit-order FIFO",
          []() -> std::unique_ptr<Recipe> { return std::make_unique<VersionstampQueue>(); }};
}

}  // namespace contend
