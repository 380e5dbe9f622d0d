// `checked-dequeue-queue` (teaching, WRONG, and rare): the seed's queue, except that a dequeue
// whose commit answers commit_unknown_result does not retry blindly: it looks whether the item it
// cleared is still there, and if it is gone concludes "my commit applied" and returns the item.
// The conclusion is wrong when the commit did not apply and another dequeuer took the item in the
// meantime: both return it. The bug needs one unknown result that did not apply, at a dequeue's
// commit, with a rival dequeue of the same item before the check — random runs with a rare fault
// seldom line the three up; an exhaustive search with one fault places it at every commit.
#include "sim/recipes/queue_steps.h"

namespace contend {

namespace {

class CheckedDequeueQueue final : public Recipe {
 public:
  Task<OpResult> enqueue(Database db, std::string value) override {
    return queue_steps::enqueue(db, std::move(value));
  }

  Task<OpResult> dequeue(Database db) override {
    Transaction tr(db);
    bool maybe_applied = false;
    ErrorCode e = ErrorCode::success;
    for (int attempts = 0; attempts < db.retry_limit; ++attempts) {
      auto item = co_await attempt(tr, [](Transaction& t) -> Task<std::optional<KeyValue>> {
        auto first = co_await queue_steps::first_item(t);
        if (first) t.clear(first->key);
        co_return first;
      });
      e = item.error();
      if (item.ok()) {
        e = co_await tr.commit();
        if (ok(e)) co_return taken(*item);
        if (e == ErrorCode::commit_unknown_result && *item) {
          // The check: is the item still there? (Gone does not mean *we* took it.)
          const Bytes key = (*item)->key;
          tr.reset();
          auto present = co_await attempt(tr, [&key](Transaction& t) -> Task<bool> {
            t.set_step("dequeue.check");
            co_return (co_await t.get(key)).has_value();
          });
          if (present.ok() && !*present) co_return taken(*item);
          maybe_applied = !present.ok();
          e = present.ok() ? ErrorCode::not_committed : present.error();
        }
      }
      if (maybe_committed(e)) maybe_applied = true;
      if (ErrorCode r = co_await tr.on_error(e); !ok(r)) break;
    }
    co_return queue_steps::gave_up(e, maybe_applied);
  }

 private:
  static OpResult taken(const std::optional<KeyValue>& item) {
    OpResult out;
    if (item) out.item = model::Item{keys::decode_value(item->value).value_or(""), std::nullopt};
    return out;
  }
};

}  // namespace

RecipeInfo checked_dequeue_queue_recipe() {
  return {"checked-dequeue-queue", RecipeKind::fifo, false,
          "on commit_unknown_result a dequeue checks its item is gone and claims it: rarely, a "
          "rival took it and both return it",
          []() -> std::unique_ptr<Recipe> { return std::make_unique<CheckedDequeueQueue>(); }};
}

}  // namespace contend
