// `queue`: FoundationDB's Queue recipe exactly as the seed page writes it.
//
//   @fdb.transactional
//   def enqueue(tr, value):
//       tr[queue[last_index(tr) + 1][os.urandom(20)]] = value
//   @fdb.transactional
//   def dequeue(tr):
//       item = first_item(tr)
//       if item is None: return None
//       del tr[item.key]
//       return item.value
#include "sim/recipes/queue_steps.h"

namespace contend {

namespace {

using queue_steps::first_item;
using queue_steps::last_index;
using queue_steps::queue_space;

class Queue final : public Recipe {
 public:
  Task<OpResult> enqueue(Database db, std::string value) override {
    auto r = co_await run(db, [&](Transaction& tr) -> Task<void> {
      std::int64_t index = co_await last_index(tr) + 1;
      const Bytes suffix = random_suffix(db, queue_space().key(index), 20);
      tr.set(queue_space().key(index, suffix), keys::encode_value(value));
    });
    co_return outcome_of(r);
  }

  Task<OpResult> dequeue(Database db) override {
    auto r = co_await run(db, [](Transaction& tr) -> Task<std::optional<std::string>> {
      auto item = co_await first_item(tr);
      if (!item) co_return std::nullopt;
      tr.clear(item->key);
      co_return keys::require_value(item->key, item->value, "dequeue.first_item");
    });
    co_return queue_steps::dequeued(r);
  }
};

}  // namespace

RecipeInfo queue_recipe() {
  return {"queue", RecipeKind::fifo, true,
          "the seed recipe: (index, random) keys, snapshot last-index read, conflicting dequeue",
          []() -> std::unique_ptr<Recipe> { return std::make_unique<Queue>(); }};
}

}  // namespace contend
