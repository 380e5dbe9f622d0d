// `snapshot-dequeue-queue` (teaching, WRONG): the dequeue's first-item read made a snapshot read.
// It adds no read conflict range, so two dequeuers that see the same head item both clear it and
// both commit: the item is delivered twice.
#include "sim/recipes/queue_steps.h"

namespace contend {

namespace {

using queue_steps::first_item;
using queue_steps::last_index;
using queue_steps::queue_space;

class SnapshotDequeueQueue final : public Recipe {
 public:
  Task<OpResult> enqueue(Database db, std::string value) override {
    auto r = co_await run(db, [&](Transaction& tr) -> Task<void> {
      std::int64_t index = co_await last_index(tr) + 1;
      tr.set(queue_space().key(index, random_bytes(db, 20)), keys::encode_value(value));
    });
    co_return outcome_of(r);
  }

  Task<OpResult> dequeue(Database db) override {
    auto r = co_await run(db, [](Transaction& tr) -> Task<std::optional<std::string>> {
      auto item = co_await first_item(tr, /*snapshot=*/true);
      if (!item) co_return std::nullopt;
      tr.clear(item->key);
      co_return keys::decode_value(item->value);
    });
    co_return queue_steps::dequeued(r);
  }
};

}  // namespace

RecipeInfo snapshot_dequeue_queue_recipe() {
  return {"snapshot-dequeue-queue", RecipeKind::fifo, false,
          "first-item read as a snapshot read: two dequeuers take the same item",
          []() -> std::unique_ptr<Recipe> { return std::make_unique<SnapshotDequeueQueue>(); }};
}

}  // namespace contend
