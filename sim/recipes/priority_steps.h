// The building blocks of the Priority Queue recipe (FoundationDB's priority-queues.rst).
//
//   next_count(tr, p): snapshot reverse limit-1 read inside P[p]; 1 + the highest count, 0 if none
//   first_or_last(tr, max, snapshot): limit-1 read of P, reverse for max
#pragma once

#include <optional>

#include "sim/recipes/keys.h"
#include "sim/recipes/recipe.h"

namespace contend::priority_steps {

inline const keys::Space& pq_space() {
  static const keys::Space space("P");
  return space;
}

inline Task<std::int64_t> next_count(Transaction& tr, std::int64_t priority) {
  tr.set_step("push.next_count");
  auto rows = co_await tr.get_range(pq_space().range_of(priority),
                                    {.limit = 1, .reverse = true, .snapshot = true});
  if (rows.empty()) co_return 0;
  co_return 1 + pq_space().require_second_int(rows[0].key, "push.next_count");
}

inline Task<std::optional<KeyValue>> end_item(Transaction& tr, bool max) {
  tr.set_step(max ? "pop.last_item" : "pop.first_item");
  auto rows = co_await tr.get_range(pq_space().range(), {.limit = 1, .reverse = max});
  if (rows.empty()) co_return std::nullopt;
  co_return std::move(rows[0]);
}

// The item a key-value of P holds: its value and its priority (the key's first element). Both
// were written by the recipe: one that does not decode is a simulator fault, never an item.
inline model::Item item_of(const KeyValue& kv) {
  return model::Item{keys::require_value(kv.key, kv.value, "pop.item"),
                     pq_space().require_first_int(kv.key, "pop.item")};
}

inline OpResult taken(const RunResult<std::optional<model::Item>>& r) {
  OpResult out = outcome_of(r);
  if (r.ok()) out.item = *r.value;
  return out;
}

// The seed's peek: the same limit-1 read as a pop, no clear (a read-only transaction).
inline Task<OpResult> peek(Database db, bool max) {
  auto r = co_await run(db, [max](Transaction& tr) -> Task<std::optional<model::Item>> {
    auto kv = co_await end_item(tr, max);
    if (!kv) co_return std::nullopt;
    co_return item_of(*kv);
  });
  co_return taken(r);
}

}  // namespace contend::priority_steps
