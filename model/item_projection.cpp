#include "model/item_projection.h"

#include <algorithm>

#include "base/invariant.h"

namespace contend::model {

namespace {

// The item an operation is about, or kNoItem (empty answers, indeterminate removes and peeks).
ItemId item_of(const Operation& op) {
  if (is_insert(op.f)) return op.input_id;
  return op.indeterminate ? kNoItem : op.output_id;
}

}  // namespace

ItemProjections::ItemProjections(const Operations& ops) : ops_(ops), lifetimes_(ops.items.size()) {
  std::vector<std::int64_t> inserts(ops.items.size(), 0);
  std::vector<std::int64_t> removes(ops.items.size(), 0);
  std::vector<std::int64_t> first_insert(ops.items.size(), kForever);
  for (const Operation& op : ops.ops) {
    const auto id = static_cast<std::int32_t>(op.id);
    const ItemId item = item_of(op);
    if (item == kNoItem) {
      if (op.indeterminate && is_remove(op.f)) info_removes_.push_back(id);
      if (op.empty_result()) {
        empties_.push_back(id);
        empty_length_max_ = std::max(empty_length_max_, op.ret - op.call);
      }
      continue;
    }
    const auto index = static_cast<std::size_t>(item);
    Lifetime& life = lifetimes_[index];
    life.ops.push_back(id);
    if (is_insert(op.f)) first_insert[index] = std::min(first_insert[index], op.call);
    life.first_call = std::min(life.first_call, op.call);
    life.last_ret = std::max(life.last_ret, op.ret);  // kForever when indeterminate
    inserts[index] += is_insert(op.f) ? 1 : 0;
    removes[index] += is_remove(op.f) ? 1 : 0;
  }
  for (std::size_t i = 0; i < lifetimes_.size(); ++i) {
    Lifetime& life = lifetimes_[i];
    if (life.ops.empty()) continue;
    if (inserts[i] > removes[i]) life.last_ret = kForever;  // may be there at the end
    // An item is in the queue only once an insert of it was invoked; a remove invoked earlier
    // still answers it later.
    if (inserts[i] > 0) life.first_call = first_insert[i];
    by_first_.push_back(static_cast<ItemId>(i));
  }
  std::stable_sort(by_first_.begin(), by_first_.end(), [&](ItemId a, ItemId b) {
    return lifetimes_[static_cast<std::size_t>(a)].first_call <
           lifetimes_[static_cast<std::size_t>(b)].first_call;
  });
}

// Pairs go by the distance of their items in by_first_: neighbours first, as the items that
// went in close together are the ones most likely to meet. When no pair at some distance
// overlaps, none further apart does (by_first_ is ordered by first_call).
bool ItemProjections::for_each_overlapping_pair(
    std::int64_t pairs_looked_at_max, const std::function<bool(ItemId, ItemId)>& fn) const {
  const std::size_t n = by_first_.size();
  std::int64_t looked_at = 0;
  for (std::size_t distance = 1; distance < n; ++distance) {
    bool any = false;
    for (std::size_t i = 0; i + distance < n; ++i) {
      if (++looked_at > pairs_looked_at_max) return false;
      const Lifetime& a = lifetimes_[static_cast<std::size_t>(by_first_[i])];
      const Lifetime& b = lifetimes_[static_cast<std::size_t>(by_first_[i + distance])];
      if (b.first_call > a.last_ret) continue;
      any = true;
      if (!fn(by_first_[i], by_first_[i + distance])) return true;
    }
    if (!any) return true;
  }
  return true;
}

// The empty answers whose interval meets [span.first_call, span.last_ret]: those invoked from
// empty_length_max_ before the span's start on are the only ones that can still be running.
void ItemProjections::add_empty_answers(const Lifetime& span,
                                        std::vector<std::int32_t>& out) const {
  const std::int64_t earliest = span.first_call - empty_length_max_;
  auto it = std::lower_bound(empties_.begin(), empties_.end(), earliest,
                             [&](std::int32_t id, std::int64_t call) {
                               return ops_.ops[static_cast<std::size_t>(id)].call < call;
                             });
  for (; it != empties_.end(); ++it) {
    const Operation& op = ops_.ops[static_cast<std::size_t>(*it)];
    if (op.call > span.last_ret) break;
    if (op.ret >= span.first_call) out.push_back(*it);
  }
}

Operations ItemProjections::project(std::span<const ItemId> items) const {
  Lifetime span;
  std::vector<std::int32_t> ids = info_removes_;
  for (ItemId item : items) {
    CONTEND_ASSERT(item >= 0 && static_cast<std::size_t>(item) < lifetimes_.size(),
                   "a part names items of its history");
    const Lifetime& life = lifetimes_[static_cast<std::size_t>(item)];
    span.first_call = std::min(span.first_call, life.first_call);
    span.last_ret = std::max(span.last_ret, life.last_ret);
    ids.insert(ids.end(), life.ops.begin(), life.ops.end());
  }
  add_empty_answers(span, ids);
  std::sort(ids.begin(), ids.end());
  CONTEND_ASSERT(std::adjacent_find(ids.begin(), ids.end()) == ids.end(),
                 "a part's items are distinct and each operation is about one of them at most");

  const auto renumbered = [&](ItemId item) {
    if (item == kNoItem) return kNoItem;
    const auto at = std::find(items.begin(), items.end(), item);
    CONTEND_ASSERT(at != items.end(), "a part's operations are about its items");
    return static_cast<ItemId>(at - items.begin());
  };
  Operations part;
  for (ItemId item : items)
    part.items.push_back(ops_.items[static_cast<std::size_t>(item)]);
  part.ops.reserve(ids.size());
  for (std::int32_t id : ids) {
    Operation op = ops_.ops[static_cast<std::size_t>(id)];
    op.id = static_cast<std::int64_t>(part.ops.size());
    op.input_id = renumbered(op.input_id);
    op.output_id = renumbered(op.output_id);
    part.ops.push_back(std::move(op));
  }
  return part;
}

bool only_observes(const Operation& op) {
  return op.empty_result() || (is_peek(op.f) && !op.indeterminate);
}

Operations without_operation(const Operations& ops, std::size_t index) {
  CONTEND_ASSERT(index < ops.ops.size(), "an operation of the part is left out");
  Operations out = ops;
  out.ops.erase(out.ops.begin() + static_cast<std::ptrdiff_t>(index));
  for (std::size_t i = index; i < out.ops.size(); ++i)
    out.ops[i].id = static_cast<std::int64_t>(i);
  return out;
}

}  // namespace contend::model
