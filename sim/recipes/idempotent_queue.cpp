// `idempotent-queue` (correct even with commit_unknown_result): FoundationDB's advice for
// transactions with unknown results — an id generated *outside* the retry loop, a marker written
// inside the transaction, and a check for it on retry (developer guide, "Transactions with
// unknown results").
//   enqueue: if marker[id] exists, an earlier attempt committed: done. Else write the item and
//            the marker together.
//   dequeue: if receipt[id] exists, an earlier attempt took that item: return it. Else take the
//            head item and write receipt[id] = item in the same transaction.
// Markers and receipts are kept (a real deployment would expire them).
#include "sim/recipes/queue_steps.h"

namespace contend {

namespace {

using queue_steps::first_item;
using queue_steps::last_index;
using queue_steps::queue_space;

const keys::Space& markers() {
  static const keys::Space space("Q-marker");
  return space;
}
const keys::Space& receipts() {
  static const keys::Space space("Q-receipt");
  return space;
}

class IdempotentQueue final : public Recipe {
 public:
  Task<OpResult> enqueue(Database db, std::string value) override {
    const Bytes marker = markers().key(random_bytes(db, 16));
    auto r = co_await run(db, [&](Transaction& tr) -> Task<void> {
      tr.set_step("enqueue.check_marker");
      if (co_await tr.get(marker)) co_return;  // an earlier attempt committed
      std::int64_t index = co_await last_index(tr) + 1;
      const Bytes suffix = random_suffix(db, queue_space().key(index), 20);
      tr.set(queue_space().key(index, suffix), keys::encode_value(value));
      tr.set(marker, "");
    });
    co_return outcome_of(r);
  }

  Task<OpResult> dequeue(Database db) override {
    const Bytes receipt = receipts().key(random_bytes(db, 16));
    auto r = co_await run(db, [&](Transaction& tr) -> Task<std::optional<std::string>> {
      tr.set_step("dequeue.check_receipt");
      if (auto earlier = co_await tr.get(receipt))
        co_return keys::require_value(receipt, *earlier, "dequeue.check_receipt");
      auto item = co_await first_item(tr);
      if (!item) co_return std::nullopt;
      tr.clear(item->key);
      tr.set(receipt, item->value);
      co_return keys::require_value(item->key, item->value, "dequeue.first_item");
    });
    co_return queue_steps::dequeued(r);
  }
};

}  // namespace

RecipeInfo idempotent_queue_recipe() {
  return {"idempotent-queue", RecipeKind::fifo, true,
          "markers and receipts keyed by an operation id: safe under commit_unknown_result",
          []() -> std::unique_ptr<Recipe> { return std::make_unique<IdempotentQueue>(); }};
}

}  // namespace contend
