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
  co_return queue_space().first_int(rows[0].key).value_or(0);
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

}  // namespace contend::queue_steps
