// The building blocks of the Queue recipe (FoundationDB's queues.rst), shared by the seed recipe
// and its teaching variants so each variant shows only what it changes.
//
//   last_index(tr):  snapshot reverse limit-1 read of the queue range; 0 when empty
//   first_item(tr):  non-snapshot limit-1 read of the queue range (its read conflict range makes
//                    two dequeuers of the same head item conflict)
#pragma once

#include <optional>

#include "sim/recipes/keys.h"
#include "sim/recipes/recipe.h"

namespace contend::queue_steps {

// The subspace the queue recipes use: ("Q",).
inline const keys::Space& queue_space() {
  static const keys::Space space("Q");
  return space;
}

inline Task<std::int64_t> last_index(Transaction& tr, bool snapshot = true) {
  tr.set_step("enqueue.last_index");
  auto rows = co_await tr.get_range(queue_space().range(),
                                    {.limit = 1, .reverse = true, .snapshot = snapshot});
  if (rows.empty()) co_return 0;
  co_return queue_space().require_first_int(rows[0].key, "enqueue.last_index");
}

inline Task<std::optional<KeyValue>> first_item(Transaction& tr, bool snapshot = false) {
  tr.set_step("dequeue.first_item");
  auto rows = co_await tr.get_range(queue_space().range(), {.limit = 1, .snapshot = snapshot});
  if (rows.empty()) co_return std::nullopt;
  co_return std::move(rows[0]);
}

// The outcome of a dequeue-like run(): ok with the item (or empty), else fail/info.
inline OpResult dequeued(const RunResult<std::optional<std::string>>& r) {
  OpResult out = outcome_of(r);
  if (r.ok() && *r.value) out.item = model::Item{**r.value, std::nullopt};
  return out;
}

// How a hand-written retry loop ended without success: info when some attempt may have applied,
// else fail, with the last error as the note.
inline OpResult gave_up(ErrorCode last, bool maybe_applied) {
  OpResult out;
  out.status = maybe_applied ? OpStatus::info : OpStatus::fail;
  out.note = std::string(error_name(last));
  return out;
}

// The seed's dequeue: first item (non-snapshot unless a teaching variant says otherwise),
// clear it, return its value — all in one transaction.
inline Task<OpResult> dequeue(Database db, bool snapshot_first_item = false) {
  auto r =
      co_await run(db, [snapshot_first_item](Transaction& tr) -> Task<std::optional<std::string>> {
        auto item = co_await first_item(tr, snapshot_first_item);
        if (!item) co_return std::nullopt;
        tr.clear(item->key);
        co_return keys::require_value(item->key, item->value, "dequeue.first_item");
      });
  co_return dequeued(r);
}

// The seed's enqueue: key (last_index + 1, 20 random bytes); `snapshot_last_index` false is
// strict-queue's variant.
inline Task<OpResult> enqueue(Database db, std::string value, bool snapshot_last_index = true) {
  auto r = co_await run(db, [&](Transaction& tr) -> Task<void> {
    std::int64_t index = co_await last_index(tr, snapshot_last_index) + 1;
    const Bytes suffix = random_suffix(db, queue_space().key(index), 20);
    tr.set(queue_space().key(index, suffix), keys::encode_value(value));
  });
  co_return outcome_of(r);
}

}  // namespace contend::queue_steps
