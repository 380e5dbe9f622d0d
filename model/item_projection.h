// The part of a history that concerns a few of its items: the smallest evidence a queue violation
// can have. The linearizability search tries the parts of one item and of two items when the
// whole history is beyond its budget, and after a violation for a smaller proof (part_search.h).
//
// Why a part decides: every spec in spec.h is closed under leaving items out. Take a legal
// sequential run and drop every operation on items outside a set (their inserts, and the removes
// and peeks that answered them): what is left is legal — the items of the set keep their order
// among themselves, an item at the front (or back) of the whole queue is at the front (back) of
// the part, an empty queue is empty in every part, and a drained queue ends empty in every part.
// So a linearization of the whole history gives one of every part, and a part with none proves
// that the whole has none. Operations that change nothing (empty answers, peeks) may be left out
// too, as leaving them out only removes constraints.
//
// A part keeps: every insert of its items; every determinate remove or peek that answered one of
// them; the empty answers whose interval meets its items' lifetime (from the first invocation of
// an insert of them to the last completion of an operation on them, or for ever when one may
// still be in the queue);
// and every indeterminate remove (one may have taken an item of the part, or nothing). Its items
// are renumbered 0..k-1 and its operations 0..n-1 in invocation order; event indexes and
// real-time positions stay the whole history's, so evidence names the history's own events.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "model/operations.h"

namespace contend::model {

class ItemProjections {
 public:
  explicit ItemProjections(const Operations& ops);

  // Every item some operation names, by the start of its lifetime.
  const std::vector<ItemId>& items() const { return by_first_; }
  // Calls fn(a, b) for each pair of items whose lifetimes overlap (a's starting no later than
  // b's), the items that started closest together first; stops when fn returns false. False when
  // it stopped because it had looked at `pairs_looked_at_max` pairs, overlapping or not.
  bool for_each_overlapping_pair(std::int64_t pairs_looked_at_max,
                                 const std::function<bool(ItemId, ItemId)>& fn) const;
  // The part of the history that concerns `items` (distinct ids of the whole history).
  Operations project(std::span<const ItemId> items) const;

 private:
  struct Lifetime {
    // Real-time positions: from the first invocation of an insert (of any operation when none
    // inserts the item) to the last completion.
    std::int64_t first_call = kForever;
    std::int64_t last_ret = 0;      // kForever: the item may still be in the queue
    std::vector<std::int32_t> ops;  // op ids, in invocation order
  };

  void add_empty_answers(const Lifetime& span, std::vector<std::int32_t>& out) const;

  const Operations& ops_;
  std::vector<Lifetime> lifetimes_;    // by item id
  std::vector<ItemId> by_first_;       // items named by some operation, by first call
  std::vector<std::int32_t> empties_;  // determinate empty answers, by call
  std::int64_t empty_length_max_ = 0;  // the longest empty answer's ret - call
  std::vector<std::int32_t> info_removes_;
};

// Whether an operation changes nothing: an empty answer or a determinate peek. Leaving one out
// of a part keeps every conclusion the part proves.
bool only_observes(const Operation& op);

// `ops` without its operation `index`, the others renumbered.
Operations without_operation(const Operations& ops, std::size_t index);

}  // namespace contend::model
