// `idempotent-priority-queue` (correct even with commit_unknown_result): the priority-queue
// recipe with idempotent-queue's markers (push) and receipts (pop), ids drawn outside the retry
// loop. Peeks write nothing, so they need neither.
#include "sim/recipes/priority_steps.h"

namespace contend {

namespace {

using priority_steps::end_item;
using priority_steps::item_of;
using priority_steps::next_count;
using priority_steps::pq_space;

const keys::Space& markers() {
  static const keys::Space space("P-marker");
  return space;
}
const keys::Space& receipts() {
  static const keys::Space space("P-receipt");
  return space;
}

class IdempotentPriorityQueue final : public Recipe {
 public:
  Task<OpResult> push(Database db, std::string value, std::int64_t priority) override {
    const Bytes marker = markers().key(random_bytes(db, 16));
    auto r = co_await run(db, [&](Transaction& tr) -> Task<void> {
      tr.set_step("push.check_marker");
      if (co_await tr.get(marker)) co_return;
      std::int64_t count = co_await next_count(tr, priority);
      const Bytes suffix = random_suffix(db, pq_space().key(priority, count), 20);
      tr.set(pq_space().key(priority, count, suffix), keys::encode_value(value));
      tr.set(marker, "");
    });
    co_return outcome_of(r);
  }

  Task<OpResult> pop(Database db, bool max) override {
    const Bytes receipt = receipts().key(random_bytes(db, 16));
    auto r = co_await run(db, [&](Transaction& tr) -> Task<std::optional<model::Item>> {
      tr.set_step("pop.check_receipt");
      if (auto earlier = co_await tr.get(receipt)) {
        auto item = keys::require_item(receipt, *earlier, "pop.check_receipt");
        co_return model::Item{item.value, item.priority};
      }
      auto kv = co_await end_item(tr, max);
      if (!kv) co_return std::nullopt;
      model::Item item = item_of(*kv);
      tr.clear(kv->key);
      tr.set(receipt, keys::encode_item(item.value, *item.priority));
      co_return item;
    });
    co_return priority_steps::taken(r);
  }

  Task<OpResult> peek(Database db, bool max) override { return priority_steps::peek(db, max); }
};

}  // namespace

RecipeInfo idempotent_priority_queue_recipe() {
  return {"idempotent-priority-queue", RecipeKind::priority, true,
          "priority queue with push markers and pop receipts: safe under commit_unknown_result",
          []() -> std::unique_ptr<Recipe> { return std::make_unique<IdempotentPriorityQueue>(); }};
}

}  // namespace contend
