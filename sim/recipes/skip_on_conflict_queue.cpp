// `skip-on-conflict-queue` (teaching, WRONG, and rare): strict-queue's enqueue (a non-snapshot
// last-index read, so concurrent enqueues conflict instead of sharing an index), and a dequeue
// that, when its commit is refused with not_committed, assumes a rival dequeuer took the head it
// saw and, should that head still be first, takes the item behind it. With strict enqueues a
// rival's clear of the head is indeed the only write that can meet a dequeue's read — but
// not_committed can also come with nothing written at all (FoundationDB may refuse a commit it
// could not resolve in time): then the head is still there, the dequeue takes the item behind it
// and FIFO order is broken. Random runs need a rare spurious refusal at a dequeue with a second
// item queued; an exhaustive search with one fault places the refusal at every commit. (With the
// seed's snapshot enqueue the bug is not rare: two enqueues may share an index, and the second
// one's key can land before the head a dequeuer saw.)
#include "sim/recipes/queue_steps.h"

namespace contend {

namespace {

using queue_steps::queue_space;

class SkipOnConflictQueue final : public Recipe {
 public:
  Task<OpResult> enqueue(Database db, std::string value) override {
    return queue_steps::enqueue(db, std::move(value), /*snapshot_last_index=*/false);
  }

  Task<OpResult> dequeue(Database db) override {
    Transaction tr(db);
    Bytes skip;  // the head a rival is believed to have taken ("" = none)
    bool maybe_applied = false;
    ErrorCode e = ErrorCode::success;
    for (int attempts = 0; attempts < db.retry_limit; ++attempts) {
      auto item = co_await attempt(tr, [&](Transaction& t) -> Task<std::optional<KeyValue>> {
        t.set_step("dequeue.first_item");
        const KeyRange range = queue_space().range();
        auto rows = co_await t.get_range(range, {.limit = skip.empty() ? 1 : 2});
        if (rows.empty()) co_return std::nullopt;
        // The head believed taken is passed over if it is (still) there.
        const std::size_t pick = rows.size() > 1 && rows[0].key == skip ? 1 : 0;
        t.clear(rows[pick].key);
        co_return std::move(rows[pick]);
      });
      e = item.error();
      if (item.ok()) {
        e = co_await tr.commit();
        if (ok(e)) {
          OpResult out;
          if (*item) {
            out.item = model::Item{keys::decode_value((*item)->value).value_or(""), std::nullopt};
          }
          co_return out;
        }
        // Only the first refusal names a head (its read stopped at the head: the limit-1 range).
        if (e == ErrorCode::not_committed && *item && skip.empty()) skip = (*item)->key;
      }
      if (maybe_committed(e)) maybe_applied = true;
      if (ErrorCode r = co_await tr.on_error(e); !ok(r)) break;
    }
    co_return queue_steps::gave_up(e, maybe_applied);
  }
};

}  // namespace

RecipeInfo skip_on_conflict_queue_recipe() {
  return {"skip-on-conflict-queue", RecipeKind::fifo, false,
          "after not_committed a dequeue skips the head it saw: rarely, the head was still there",
          []() -> std::unique_ptr<Recipe> { return std::make_unique<SkipOnConflictQueue>(); }};
}

}  // namespace contend
