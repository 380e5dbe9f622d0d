// `priority-queue`: FoundationDB's Priority Queue recipe as the seed page writes it.
//
//   push(v, p):  tr.set(pq.pack((p, nextCount(tr, p), rands)), pack((v,)))
//   pop(max):    for kv in tr.getRange(pq.range(), 1, max): tr.clear(kv.key); return value
//   peek(max):   the same read, no clear
#include "sim/recipes/priority_steps.h"

namespace contend {

namespace {

using priority_steps::end_item;
using priority_steps::item_of;
using priority_steps::next_count;
using priority_steps::pq_space;

class PriorityQueue final : public Recipe {
 public:
  Task<OpResult> push(Database db, std::string value, std::int64_t priority) override {
    auto r = co_await run(db, [&](Transaction& tr) -> Task<void> {
      std::int64_t count = co_await next_count(tr, priority);
      const Bytes suffix = random_suffix(db, pq_space().key(priority, count), 20);
      tr.set(pq_space().key(priority, count, suffix), keys::encode_value(value));
    });
    co_return outcome_of(r);
  }

  Task<OpResult> pop(Database db, bool max) override {
    auto r = co_await run(db, [max](Transaction& tr) -> Task<std::optional<model::Item>> {
      auto kv = co_await end_item(tr, max);
      if (!kv) co_return std::nullopt;
      tr.clear(kv->key);
      co_return item_of(*kv);
    });
    co_return priority_steps::taken(r);
  }

  Task<OpResult> peek(Database db, bool max) override { return priority_steps::peek(db, max); }
};

}  // namespace

RecipeInfo priority_queue_recipe() {
  return {"priority-queue", RecipeKind::priority, true,
          "the seed recipe: (priority, count, random) keys; push, pop/peek min and max",
          []() -> std::unique_ptr<Recipe> { return std::make_unique<PriorityQueue>(); }};
}

}  // namespace contend
