// `strict-queue` (teaching, correct): the seed recipe with the last-index read made
// non-snapshot. Still correct, but every pair of concurrent enqueues now conflicts: each one's
// reverse read [last key, end) meets the other's new item. This is what the snapshot read buys.
#include "sim/recipes/queue_steps.h"

namespace contend {

namespace {

using queue_steps::first_item;
using queue_steps::last_index;
using queue_steps::queue_space;

class StrictQueue final : public Recipe {
 public:
  Task<OpResult> enqueue(Database db, std::string value) override {
    auto r = co_await run(db, [&](Transaction& tr) -> Task<void> {
      std::int64_t index = co_await last_index(tr, /*snapshot=*/false) + 1;
      tr.set(queue_space().key(index, random_bytes(db, 20)), keys::encode_value(value));
    });
    co_return outcome_of(r);
  }

  Task<OpResult> dequeue(Database db) override {
    auto r = co_await run(db, [](Transaction& tr) -> Task<std::optional<std::string>> {
      auto item = co_await first_item(tr);
      if (!item) co_return std::nullopt;
      tr.clear(item->key);
      co_return keys::decode_value(item->value);
    });
    co_return queue_steps::dequeued(r);
  }
};

}  // namespace

RecipeInfo strict_queue_recipe() {
  return {"strict-queue", RecipeKind::fifo, true,
          "last-index read without snapshot: correct, but concurrent enqueues conflict",
          []() -> std::unique_ptr<Recipe> { return std::make_unique<StrictQueue>(); }};
}

}  // namespace contend
