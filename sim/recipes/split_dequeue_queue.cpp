// `split-dequeue-queue` (teaching, WRONG): the bug FoundationDB PR #480 fixed in the Java
// recipe — firstItem() ran in its own transaction, and clear() in another. The read that found
// the head item no longer protects the clear, so two dequeuers return the same item.
//
//   item = first_item(db)        # transaction 1
//   del db[item.key]             # transaction 2
#include "sim/recipes/queue_steps.h"

namespace contend {

namespace {

using queue_steps::first_item;

class SplitDequeueQueue final : public Recipe {
 public:
  Task<OpResult> enqueue(Database db, std::string value) override {
    return queue_steps::enqueue(db, std::move(value));
  }

  Task<OpResult> dequeue(Database db) override {
    auto found = co_await run(db, [](Transaction& tr) -> Task<std::optional<KeyValue>> {
      co_return co_await first_item(tr);
    });
    if (!found.ok() || !*found.value) {
      RunResult<std::optional<std::string>> empty;
      empty.error = found.error;
      empty.maybe_committed_earlier = found.maybe_committed_earlier;
      if (found.ok()) empty.value.emplace();
      co_return queue_steps::dequeued(empty);
    }
    KeyValue item = **found.value;
    auto cleared = co_await run(db, [&](Transaction& tr) -> Task<void> {
      tr.clear(item.key);
      co_return;
    });
    OpResult out = outcome_of(cleared);
    if (cleared.ok()) {
      out.item =
          model::Item{keys::require_value(item.key, item.value, "dequeue.clear"), std::nullopt};
    }
    co_return out;
  }
};

}  // namespace

RecipeInfo split_dequeue_queue_recipe() {
  return {"split-dequeue-queue", RecipeKind::fifo, false,
          "first item found and cleared in two transactions (PR #480): duplicates",
          []() -> std::unique_ptr<Recipe> { return std::make_unique<SplitDequeueQueue>(); }};
}

}  // namespace contend
