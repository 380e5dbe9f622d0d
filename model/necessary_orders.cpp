#include "model/necessary_orders.h"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>
#include <utility>

#include "base/invariant.h"

namespace contend::model {

namespace {

constexpr std::size_t kNoLimit = std::numeric_limits<std::size_t>::max();
// How many operations the listed orders look at for one insert.
constexpr std::size_t kScanMax = 1024;

struct Sighting {
  std::int64_t id = 0;
  std::int64_t call = 0;
  std::int64_t ret = 0;
};

// What the history says of one item, over the determinate operations that saw it.
struct ItemSightings {
  std::int32_t inserts = 0;
  std::int64_t last_seen = -1;         // the latest invocation of an operation that saw it
  std::int64_t front_done = kForever;  // the earliest completion of a sighting at the front
  std::vector<Sighting> at_back;
  std::vector<std::int64_t> peeks;  // ids of the determinate peeks that saw it
};

std::vector<ItemSightings> item_sightings(const Operations& ops) {
  std::vector<ItemSightings> items(ops.items.size());
  for (const Operation& op : ops.ops) {
    if (is_insert(op.f) && op.input_id != kNoItem)
      ++items[static_cast<std::size_t>(op.input_id)].inserts;
    if (is_insert(op.f) || op.indeterminate || op.output_id == kNoItem) continue;
    ItemSightings& item = items[static_cast<std::size_t>(op.output_id)];
    item.last_seen = std::max(item.last_seen, op.call);
    if (is_peek(op.f)) item.peeks.push_back(op.id);
    if (takes_back(op.f)) {
      item.at_back.push_back({op.id, op.call, op.ret});
    } else {
      item.front_done = std::min(item.front_done, op.ret);
    }
  }
  return items;
}

// Whether an item of priority `priority` in the queue would have changed what `observer` saw.
bool stands_in_the_way(const Operation& observer, std::int64_t priority) {
  if (!observer.output) return true;  // "empty"
  const std::int64_t seen = observer.output->priority.value_or(0);
  return takes_back(observer.f) ? priority > seen : priority < seen;
}

// By op id: each determinate remove of an item inserted once waits for the peeks of it.
std::vector<std::vector<std::int64_t>> peeks_before_removals(
    const Operations& ops, const std::vector<ItemSightings>& items) {
  std::vector<std::vector<std::int64_t>> before(ops.ops.size());
  for (const Operation& op : ops.ops) {
    if (!is_remove(op.f) || op.indeterminate || op.output_id == kNoItem) continue;
    const ItemSightings& item = items[static_cast<std::size_t>(op.output_id)];
    if (item.inserts == 1) before[static_cast<std::size_t>(op.id)] = item.peeks;
  }
  return before;
}

}  // namespace

struct NecessaryOrders::InsertFacts {
  std::int64_t id = 0;
  std::int64_t priority = 0;
  std::int64_t call = 0;
  std::int64_t ret = 0;
  std::int64_t leave_bound = 0;
  bool took_effect = false;
  const ItemSightings* item = nullptr;
};

NecessaryOrders::NecessaryOrders(const Operations& ops, bool ordered)
    : links_(ops.ops.size()), conditions_(ops.ops.size()), is_placed_(ops.ops.size(), 0) {
  const std::vector<ItemSightings> items = item_sightings(ops);
  before_ = peeks_before_removals(ops, items);
  if (!ordered) return;
  std::vector<InsertFacts> facts;
  for (const Operation& op : ops.ops) {
    if (!is_insert(op.f) || op.input_id == kNoItem) continue;
    const ItemSightings& item = items[static_cast<std::size_t>(op.input_id)];
    if (item.inserts != 1) continue;
    facts.push_back({.id = op.id,
                     .priority = op.input ? op.input->priority.value_or(0) : 0,
                     .call = op.call,
                     .ret = op.ret,
                     .leave_bound = std::max(op.call, item.last_seen),
                     .took_effect = !op.indeterminate || item.last_seen >= 0,
                     .item = &item});
  }
  // Each priority's inserts, in invocation order (the order of ops).
  std::map<std::int64_t, std::vector<const InsertFacts*>> by_priority;
  for (const InsertFacts& insert : facts)
    by_priority[insert.priority].push_back(&insert);
  for (const auto& [priority, group] : by_priority) {
    link_front_chain(group);
    list_back_orders(group);
    list_back_conditions(group);
  }
  list_observer_orders(ops, facts);
}

void NecessaryOrders::link_front_chain(const std::vector<const InsertFacts*>& group) {
  std::vector<std::pair<std::int64_t, std::int64_t>> front;  // (front_done, id)
  for (const InsertFacts* insert : group) {
    if (insert->item->front_done != kForever)
      front.emplace_back(insert->item->front_done, insert->id);
  }
  std::sort(front.begin(), front.end());
  const auto chain = static_cast<std::int32_t>(chains_.size());
  Chain& c = chains_.emplace_back();
  for (const auto& [done, id] : front) {
    links_[static_cast<std::size_t>(id)].position = static_cast<std::int32_t>(c.ops.size());
    c.ops.push_back(id);
  }
  for (const InsertFacts* insert : group) {
    Link& link = links_[static_cast<std::size_t>(insert->id)];
    link.chain = chain;
    // Every insert seen at the front by an operation done before this one's leave bound.
    const auto done_before = std::lower_bound(front.begin(), front.end(),
                                              std::pair{insert->leave_bound, std::int64_t{-1}});
    link.need = std::min(static_cast<std::size_t>(done_before - front.begin()),
                         link.position >= 0 ? static_cast<std::size_t>(link.position) : kNoLimit);
  }
}

// For each insert Y seen at the back, the inserts X concurrent with Y's that the back rule puts
// before it, nearest invocations first.
void NecessaryOrders::list_back_orders(const std::vector<const InsertFacts*>& group) {
  for (const InsertFacts* y : group) {
    if (y->item->at_back.empty()) continue;
    std::vector<std::int64_t>& before = before_[static_cast<std::size_t>(y->id)];
    // The inserts invoked before Y's completed, latest first.
    auto end = std::partition_point(group.begin(), group.end(),
                                    [y](const InsertFacts* x) { return x->call < y->ret; });
    for (std::size_t scanned = 0; end != group.begin() && scanned < kScanMax; ++scanned) {
      const InsertFacts* x = *--end;
      if (x == y || !x->took_effect || x->ret < y->call) continue;
      const bool seen_later =
          std::any_of(y->item->at_back.begin(), y->item->at_back.end(),
                      [x](const Sighting& s) { return x->ret < s.call && x->leave_bound > s.ret; });
      if (!seen_later) continue;
      before.push_back(x->id);
      if (before.size() == kListedOrdersMax) break;
    }
  }
}

// For each insert X, the back sightings S (of Y) that completed after X was invoked and before
// X's leave bound: once Y is placed, X waits for S.
void NecessaryOrders::list_back_conditions(const std::vector<const InsertFacts*>& group) {
  std::vector<std::tuple<std::int64_t, std::int64_t, std::int64_t>> sightings;  // (ret, S, Y)
  for (const InsertFacts* y : group) {
    for (const Sighting& s : y->item->at_back)
      sightings.emplace_back(s.ret, s.id, y->id);
  }
  std::sort(sightings.begin(), sightings.end());
  for (const InsertFacts* x : group) {
    auto& conditions = conditions_[static_cast<std::size_t>(x->id)];
    auto it = std::lower_bound(sightings.begin(), sightings.end(),
                               std::tuple{x->call, std::int64_t{-1}, std::int64_t{-1}});
    for (std::size_t scanned = 0; it != sightings.end() && std::get<0>(*it) < x->leave_bound &&
                                  scanned < kScanMax && conditions.size() < kListedOrdersMax;
         ++it, ++scanned) {
      const auto [ret, s, y] = *it;
      if (y != x->id) conditions.emplace_back(y, s);
    }
  }
}

// For each insert Z, the determinate observers that completed after Z was invoked and before
// Z's leave bound, in whose way Z's item would have stood.
void NecessaryOrders::list_observer_orders(const Operations& ops,
                                           const std::vector<InsertFacts>& inserts) {
  if (inserts.empty()) return;
  // Only observers some insert could have stood in the way of (a FIFO queue's: the "empty"s).
  const auto [lowest, highest] = std::minmax_element(
      inserts.begin(), inserts.end(),
      [](const InsertFacts& a, const InsertFacts& b) { return a.priority < b.priority; });
  std::vector<std::pair<std::int64_t, std::int64_t>> observers;  // (ret, id)
  for (const Operation& op : ops.ops) {
    if (is_insert(op.f) || op.indeterminate) continue;
    if (stands_in_the_way(op, lowest->priority) || stands_in_the_way(op, highest->priority))
      observers.emplace_back(op.ret, op.id);
  }
  std::sort(observers.begin(), observers.end());
  for (const InsertFacts& z : inserts) {
    std::vector<std::int64_t>& before = before_[static_cast<std::size_t>(z.id)];
    std::size_t listed = 0;
    auto it =
        std::lower_bound(observers.begin(), observers.end(), std::pair{z.call, std::int64_t{-1}});
    for (std::size_t scanned = 0;
         it != observers.end() && it->first < z.leave_bound && scanned < kScanMax;
         ++it, ++scanned) {
      if (!stands_in_the_way(ops.ops[static_cast<std::size_t>(it->second)], z.priority)) continue;
      before.push_back(it->second);
      if (++listed == kListedOrdersMax) break;
    }
  }
}

bool NecessaryOrders::may_go(std::int64_t op_id) const {
  const Link& link = links_[static_cast<std::size_t>(op_id)];
  if (link.chain >= 0 && chains_[static_cast<std::size_t>(link.chain)].placed_prefix < link.need)
    return false;
  for (const auto& [y, s] : conditions_[static_cast<std::size_t>(op_id)]) {
    if (is_placed_[static_cast<std::size_t>(y)] && !is_placed_[static_cast<std::size_t>(s)])
      return false;
  }
  const std::vector<std::int64_t>& before = before_[static_cast<std::size_t>(op_id)];
  return std::all_of(before.begin(), before.end(),
                     [this](std::int64_t x) { return is_placed_[static_cast<std::size_t>(x)]; });
}

void NecessaryOrders::advance(Chain& chain) {
  while (chain.placed_prefix < chain.ops.size() &&
         is_placed_[static_cast<std::size_t>(chain.ops[chain.placed_prefix])])
    ++chain.placed_prefix;
}

void NecessaryOrders::placed(std::int64_t op_id) {
  CONTEND_ASSERT(!is_placed_[static_cast<std::size_t>(op_id)], "an operation is placed once");
  is_placed_[static_cast<std::size_t>(op_id)] = 1;
  const Link& link = links_[static_cast<std::size_t>(op_id)];
  if (link.position < 0) return;
  Chain& chain = chains_[static_cast<std::size_t>(link.chain)];
  if (static_cast<std::size_t>(link.position) == chain.placed_prefix) advance(chain);
}

void NecessaryOrders::unplaced(std::int64_t op_id) {
  CONTEND_ASSERT(is_placed_[static_cast<std::size_t>(op_id)],
                 "only a placed operation is unplaced");
  is_placed_[static_cast<std::size_t>(op_id)] = 0;
  const Link& link = links_[static_cast<std::size_t>(op_id)];
  if (link.position < 0) return;
  Chain& chain = chains_[static_cast<std::size_t>(link.chain)];
  chain.placed_prefix = std::min(chain.placed_prefix, static_cast<std::size_t>(link.position));
}

}  // namespace contend::model
