// Orders between operations that every linearization of a history keeps, read from where and
// when items were seen; the linearizability search passes over an operation placed against
// them. Any queue spec: a remove goes after every peek that saw its item (the item is in the
// queue only until it is removed). Specs that hand items out in an order (FIFO, priority), also
// the orders between inserts and of inserts after observers below.
//
// Within one priority (all of a FIFO queue's items have one) a queue keeps its items in push
// order and hands them out as a deque: from the front (dequeue, pop_min, peek_min) the earliest
// pushed, from the back (pop_max, peek_max) the latest. An item X leaves no earlier than the
// invocation of its insert and of every operation that saw it (each saw it in the queue): that
// is its *leave bound*. For items X and Y of one priority, each inserted by one operation:
//   front  Y seen at the front by an operation that completed at r: every item pushed before Y
//          had left by r. So if X's leave bound is after r, X was pushed after Y.
//   back   Y seen at the back by an operation invoked at c that completed at r: every item
//          pushed after Y and in the queue by c had left by r. So if X's insert completed
//          before c and X's leave bound is after r, X was pushed before Y — when X's
//          insert surely took effect (determinate, or its item seen).
// A back sighting orders more when its item Y is already in: if X's leave bound is after r
// and Y was pushed before X, X went in after the sighting (else X would have stood behind Y).
// And between an insert and an observer (a determinate remove or peek): if Z's item would have
// stood in the observer's way — it answered "empty", or saw an item at the front (back) whose
// priority is above (below) Z's — and Z's leave bound is after the observer completed, Z was
// inserted after the observer took effect.
// With an item inserted twice, which copy an operation saw is unknown: such items take no part.
// The orders are necessary, so passing over an operation that would break one loses no
// linearization; they are what the search otherwise learns only when a misplaced item blocks
// an observer, often hundreds of operations later.
//
// Front orders are checked in O(1): per priority a *chain* lists the inserts seen at the front
// by the earliest completion of such a sighting; what an insert requires is a prefix of it, and
// the chain keeps how long a prefix is placed. The search places and unplaces in stack order,
// so undoing a placement restores that length exactly. Back and observer orders are kept as
// lists of at most kListedOrdersMax operations, each concurrent with the insert (one that
// completed before the insert began goes before it anyway): any subset of necessary orders is
// sound.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "model/operations.h"

namespace contend::model {

class NecessaryOrders {
 public:
  static constexpr std::size_t kListedOrdersMax = 64;

  // REQUIRES: ops as operations_of makes them (ids are positions). `ordered`: the spec hands
  // items out in an order (else only removes wait for peeks).
  NecessaryOrders(const Operations& ops, bool ordered);

  // Whether every operation the orders put before this one is placed.
  bool may_go(std::int64_t op_id) const;
  // The search placed / unplaced the operation (in stack order).
  void placed(std::int64_t op_id);
  void unplaced(std::int64_t op_id);

 private:
  struct Chain {
    std::vector<std::int64_t> ops;  // insert op ids, in the order they become required
    std::size_t placed_prefix = 0;  // ops[0, placed_prefix) are placed
  };
  // An insert's place in its priority's front chain (-1: not in it), and how long a prefix of
  // that chain must be placed before it may go.
  struct Link {
    std::int32_t chain = -1;
    std::int32_t position = -1;
    std::size_t need = 0;
  };

  struct InsertFacts;  // what the history says of one insert (necessary_orders.cpp)

  void link_front_chain(const std::vector<const InsertFacts*>& group);
  void list_back_orders(const std::vector<const InsertFacts*>& group);
  void list_back_conditions(const std::vector<const InsertFacts*>& group);
  void list_observer_orders(const Operations& ops, const std::vector<InsertFacts>& inserts);
  void advance(Chain& chain);

  std::vector<Chain> chains_;
  std::vector<Link> links_;                        // by op id
  std::vector<std::vector<std::int64_t>> before_;  // by op id: what the listed orders put first
  // By op id: (Y, S) — if Y's insert is placed, the back sighting S of Y must be too.
  std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> conditions_;
  std::vector<char> is_placed_;  // by op id
};

}  // namespace contend::model
