// `first-cut-queue` (teaching, WRONG): the seed page's first cut, key (index) with no random part
// — the bug of FoundationDB's Go recipe. Two enqueues that read the same last index write the
// same key; both are blind writes, both commit, and one item is silently overwritten (lost).
//
//   tr[queue[last_index(tr) + 1]] = value      # no random suffix
#include "sim/recipes/queue_steps.h"

namespace contend {

namespace {

using queue_steps::last_index;
using queue_steps::queue_space;

class FirstCutQueue final : public Recipe {
 public:
  Task<OpResult> enqueue(Database db, std::string value) override {
    auto r = co_await run(db, [&](Transaction& tr) -> Task<void> {
      std::int64_t index = co_await last_index(tr) + 1;
      tr.set(queue_space().key(index), keys::encode_value(value));  // no random suffix
    });
    co_return outcome_of(r);
  }

  Task<OpResult> dequeue(Database db) override { return queue_steps::dequeue(db); }
};

}  // namespace

RecipeInfo first_cut_queue_recipe() {
  return {"first-cut-queue", RecipeKind::fifo, false,
          "key (index) without the random suffix: concurrent enqueues overwrite each other",
          []() -> std::unique_ptr<Recipe> { return std::make_unique<FirstCutQueue>(); }};
}

}  // namespace contend
