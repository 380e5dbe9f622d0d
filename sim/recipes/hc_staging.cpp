#include "sim/recipes/hc_staging.h"

#include <algorithm>

#include "base/invariant.h"

namespace contend {

namespace {
constexpr std::int64_t kPollBackoffStartUs = 10'000;
constexpr std::int64_t kPollBackoffMaxUs = 1'000'000;

OpResult gave_up(std::string why) {
  OpResult out;
  out.status = OpStatus::info;
  out.note = std::move(why);
  return out;
}
}  // namespace

// _getNextIndex: get_key(last_less_than(range.stop)) read at snapshot; 0 when below the range.
Task<std::int64_t> Staging::next_index(Transaction& tr, const keys::Space& space,
                                       std::optional<std::int64_t> priority) {
  KeyRange range = priority ? space.range_of(*priority) : space.range();
  auto rows = co_await tr.get_range(range, {.limit = 1, .reverse = true, .snapshot = true});
  if (rows.empty()) co_return 0;
  co_return 1 + (priority ? space.require_second_int(rows[0].key, "next_index")
                          : space.require_first_int(rows[0].key, "next_index"));
}

Task<OpResult> Staging::push(Database db, std::string value, std::int64_t priority) {
  if (layout_.versionstamped_items) {
    auto r = co_await run(db, [&](Transaction& tr) -> Task<void> {
      tr.set_step("push.versionstamped");
      tr.atomic_op(MutationType::set_versionstamped_key, layout_.items.versionstamped_key(priority),
                   keys::encode_value(value));
      co_return;
    });
    co_return outcome_of(r);
  }
  auto r = co_await run(db, [&](Transaction& tr) -> Task<void> {
    tr.set_step("push.item_key");
    std::optional<std::int64_t> p;
    if (layout_.priority) p = priority;
    std::int64_t index = co_await next_index(tr, layout_.items, p);
    const Bytes prefix =
        layout_.priority ? layout_.items.key(priority, index) : layout_.items.key(index);
    const Bytes suffix = random_suffix(db, prefix, 20);
    Bytes key = layout_.priority ? layout_.items.key(priority, index, suffix)
                                 : layout_.items.key(index, suffix);
    if (layout_.dummy_reads) co_await tr.get(key);  // read = tr[key]
    tr.set(key, keys::encode_value(value));
  });
  co_return outcome_of(r);
}

// _addConflictedPop: register a request behind the outstanding ones (index 0 only when forced).
Task<std::optional<Bytes>> Staging::add_conflicted_pop(Transaction& tr, Database db, bool forced,
                                                       bool max) {
  tr.set_step("pop.register_request");
  std::int64_t index = co_await next_index(tr, layout_.pops, std::nullopt);
  if (index == 0 && !forced) co_return std::nullopt;
  Bytes wait_key = layout_.pops.key(index, random_suffix(db, layout_.pops.key(index), 20));
  if (layout_.dummy_reads) co_await tr.get(wait_key);  // read = tr[waitKey]
  tr.set(wait_key, layout_.directed_requests ? keys::encode_value(max ? "max" : "min") : Bytes());
  co_return wait_key;
}

// _popSimple: the plain recipe's dequeue.
Task<std::optional<KeyValue>> Staging::pop_simple(Transaction& tr, bool max) {
  tr.set_step("pop.simple");
  auto rows = co_await tr.get_range(layout_.items.range(), {.limit = 1, .reverse = max});
  if (rows.empty()) co_return std::nullopt;
  tr.clear(rows[0].key);
  co_return std::move(rows[0]);
}

Bytes Staging::slot_for(const KeyValue& item) const {
  if (!layout_.priority) return item.value;
  return keys::encode_item(keys::require_value(item.key, item.value, "fulfil.item"),
                           layout_.items.require_first_int(item.key, "fulfil.item"));
}

model::Item Staging::item_from_slot(BytesView key, BytesView slot) const {
  if (!layout_.priority)
    return model::Item{keys::require_value(key, slot, "pop.result"), std::nullopt};
  keys::DecodedItem item = keys::require_item(key, slot, "pop.result");
  return model::Item{std::move(item.value), item.priority};
}

model::Item Staging::item_of(const KeyValue& kv) const {
  return item_from_slot(kv.key, slot_for(kv));
}

Task<RangeResult> Staging::fulfillable_items(Transaction& tr, bool max) {
  if (!layout_.directed_requests) {
    RangeResult items = co_await tr.get_range(layout_.items.range(),
                                              {.limit = kBatch, .reverse = max, .snapshot = true});
    if (max) std::reverse(items.begin(), items.end());
    co_return items;
  }
  RangeResult items =
      co_await tr.get_range(layout_.items.range(), {.limit = kBatch, .snapshot = true});
  if (items.size() < static_cast<std::size_t>(kBatch)) co_return items;  // all of them
  RangeResult back = co_await tr.get_range(layout_.items.range(),
                                           {.limit = kBatch, .reverse = true, .snapshot = true});
  // `back` is descending; keep those above the front's last key, in ascending order.
  const Bytes front_last = items.back().key;
  for (auto it = back.rbegin(); it != back.rend(); ++it) {
    if (compare_bytes(it->key, front_last) > 0) items.push_back(std::move(*it));
  }
  co_return items;
}

// The items were read at snapshot: a push committed since the read version could have been a
// better answer. A peek that saw that push and, after it, an item this fulfilment hands out, would
// prove the hand-out happened after the push — a priority inversion, or an "empty" while the
// pushed item was there. So the fulfilment conflicts with pushes into the part of the item range
// that decided it: below the last item handed to a min request, above the first item handed to
// a max request, and all of it when a request was cancelled.
void Staging::guard_decided_items(Transaction& tr, const RangeResult& items, std::size_t low,
                                  std::size_t high, std::size_t requests) const {
  CONTEND_ASSERT(low <= high && high <= items.size(), "the hand-outs come from the two ends");
  const KeyRange& all = layout_.items.range();
  if (requests > low + (items.size() - high)) {  // a request was cancelled: no items were left
    tr.add_read_conflict_range(all);
    return;
  }
  if (low > 0) {
    const Bytes after_last_min = key_after(items[low - 1].key);
    tr.add_read_conflict_range(KeyRangeRef{all.begin, after_last_min});
  }
  if (high < items.size()) tr.add_read_conflict_range(KeyRangeRef{items[high].key, all.end});
}

bool Staging::request_wants_max(const KeyValue& request, bool fulfiller_max) const {
  if (!layout_.directed_requests) return fulfiller_max;
  const std::string direction = keys::require_value(request.key, request.value, "fulfil.request");
  if (direction == "max") return true;
  if (direction == "min") return false;
  keys::decode_fault("fulfil.request", request.key,
                     "its value \"" + direction + "\" is neither \"min\" nor \"max\"");
}

// _fulfillConflictedPops: one attempt; returns whether it saw a short batch (nothing more to do).
// Requests are served in key order; each takes the smallest or the largest item left (without
// directed_requests, every request takes from the end the fulfiller pops from).
Task<ErrorOr<bool>> Staging::fulfil(Database db, bool max) {
  Transaction tr(db);
  auto body = co_await attempt(tr, [&](Transaction& t) -> Task<bool> {
    t.set_step("fulfil.pair");
    auto pops = co_await t.get_range(layout_.pops.range(), {.limit = kBatch, .snapshot = true});
    RangeResult items = co_await fulfillable_items(t, max);
    std::size_t low = 0;
    std::size_t high = items.size();  // items[low, high) are not handed out yet
    for (std::size_t i = 0; i < pops.size(); ++i) {
      const KeyValue& request = pops[i];
      if (low < high) {
        const KeyValue& item = request_wants_max(request, max) ? items[--high] : items[low++];
        Bytes random = layout_.pops.require_last_bytes(request.key, "fulfil.request");
        t.set(layout_.results.key(random), slot_for(item));
        if (layout_.dummy_reads) {
          co_await t.get(item.key);     // read = tr[item.key]
          co_await t.get(request.key);  // read = tr[pop.key]
        }
        t.clear(request.key);
        t.clear(item.key);
      } else {
        if (layout_.dummy_reads) co_await t.get(request.key);
        t.clear(request.key);
      }
    }
    if (layout_.directed_requests) guard_decided_items(t, items, low, high, pops.size());
    co_return static_cast<int>(pops.size()) < kBatch;
  });
  if (!body.ok()) co_return body.error();
  ErrorCode e = co_await tr.commit();
  if (!ok(e)) co_return e;
  co_return body.value();
}

Task<OpResult> Staging::pop(Database db, bool max) {
  Transaction tr(db);
  auto first = co_await attempt(tr, [&](Transaction& t) -> Task<FirstTry> {
    FirstTry out;
    out.wait_key = co_await add_conflicted_pop(t, db, /*forced=*/false, max);
    if (!out.wait_key) out.item = co_await pop_simple(t, max);
    co_return out;
  });
  ErrorCode e = first.error();
  std::optional<Bytes> wait_key;
  if (first.ok()) {
    e = co_await tr.commit();
    if (ok(e) && !first->wait_key) {  // the fast path worked
      OpResult out;
      if (first->item) out.item = item_of(*first->item);
      co_return out;
    }
    if (ok(e)) wait_key = first->wait_key;
  }
  const bool first_may_have_applied = maybe_committed(e);
  if (!wait_key) {  // except FDBError: register a forced request in its own retry loop
    auto forced = co_await run(db, [&](Transaction& t) -> Task<Bytes> {
      std::optional<Bytes> key = co_await add_conflicted_pop(t, db, /*forced=*/true, max);
      CONTEND_ASSERT(key.has_value(), "a forced pop request always registers");
      co_return std::move(*key);
    });
    if (!forced.ok()) {
      OpResult out = outcome_of(forced);
      if (first_may_have_applied) out.status = OpStatus::info;
      co_return out;
    }
    wait_key = *forced.value;
  }
  tr.reset();
  co_return co_await wait_for_result(db, tr, *wait_key, max);
}

Task<OpResult> Staging::wait_for_result(Database db, Transaction& tr, Bytes wait_key, bool max) {
  const Bytes result_key =
      layout_.results.key(layout_.pops.require_last_bytes(wait_key, "pop.wait_key"));
  std::int64_t backoff_us = kPollBackoffStartUs;
  for (int round = 0; round < kMaxRounds; ++round) {
    ErrorCode fulfil_error = ErrorCode::success;
    bool fulfilled_some = false;  // a fulfilment of this round committed
    for (int batch = 0; batch < kMaxFulfilBatches; ++batch) {
      auto done = co_await fulfil(db, max);
      if (!done.ok()) {
        fulfil_error = done.error();
        break;
      }
      fulfilled_some = true;
      if (done.value() || !layout_.fulfil_until_short_batch) break;
    }
    if (!ok(fulfil_error) && fulfil_error != ErrorCode::not_committed) {
      if (ErrorCode e = co_await tr.on_error(fulfil_error); !ok(e)) {
        co_return gave_up(std::string("fulfil failed: ") + std::string(error_name(e)));
      }
      continue;
    }
    tr.reset();
    auto polled = co_await attempt(tr, [&](Transaction& t) -> Task<Poll> {
      t.set_step("pop.poll");
      Poll p;
      p.request_present = (co_await t.get(wait_key)).has_value();
      if (!p.request_present) p.result = co_await t.get(result_key);
      co_return p;
    });
    ErrorCode e = polled.error();
    if (polled.ok()) {
      if (polled->request_present) {
        // This round wrote nothing and learnt only that the request waits: the execution is the
        // one without the round, but for this client's round count and back-off.
        if (!fulfilled_some && db.env->parks_unproductive_waits()) co_await park(db);
        co_await delay(db, backoff_us);
        backoff_us = std::min(backoff_us * 2, kPollBackoffMaxUs);
        continue;
      }
      if (!polled->result) co_return OpResult{};  // request cancelled: the queue was empty
      tr.clear(result_key);
      e = co_await tr.commit();
      if (ok(e)) {
        OpResult out;
        out.item = item_from_slot(result_key, *polled->result);
        co_return out;
      }
    }
    if (ErrorCode r = co_await tr.on_error(e); !ok(r)) {
      co_return gave_up(std::string("poll failed: ") + std::string(error_name(r)));
    }
  }
  co_return gave_up("gave up waiting for the pop request to be fulfilled");
}

Task<OpResult> Staging::peek(Database db, bool max) {
  auto r = co_await run(db, [&](Transaction& tr) -> Task<std::optional<model::Item>> {
    tr.set_step("peek");
    auto rows = co_await tr.get_range(layout_.items.range(), {.limit = 1, .reverse = max});
    if (rows.empty()) co_return std::nullopt;
    co_return item_of(rows[0]);
  });
  OpResult out = outcome_of(r);
  if (r.ok()) out.item = *r.value;
  co_return out;
}

namespace {

class HcQueue final : public Recipe {
 public:
  explicit HcQueue(bool dummy_reads)
      : staging_(StagingLayout{keys::Space("HC", "item"), keys::Space("HC", "pop"),
                               keys::Space("HC", "conflict"), dummy_reads, /*priority=*/false,
                               /*fulfil_until_short_batch=*/true}) {}
  Task<OpResult> enqueue(Database db, std::string value) override {
    return staging_.push(db, std::move(value), 0);
  }
  Task<OpResult> dequeue(Database db) override { return staging_.pop(db, /*max=*/false); }

 private:
  Staging staging_;
};

class HcPriorityQueue final : public Recipe {
 public:
  explicit HcPriorityQueue(bool ordered)
      : staging_(ordered ? StagingLayout{keys::Space("HO", "I"), keys::Space("HO", "P"),
                                         keys::Space("HO", "R"), /*dummy_reads=*/true,
                                         /*priority=*/true, /*fulfil_until_short_batch=*/false,
                                         /*directed_requests=*/true, /*versionstamped_items=*/true}
                         : StagingLayout{keys::Space("HP", "I"), keys::Space("HP", "P"),
                                         keys::Space("HP", "R"), /*dummy_reads=*/true,
                                         /*priority=*/true, /*fulfil_until_short_batch=*/false}) {}
  Task<OpResult> push(Database db, std::string value, std::int64_t priority) override {
    return staging_.push(db, std::move(value), priority);
  }
  Task<OpResult> pop(Database db, bool max) override { return staging_.pop(db, max); }
  Task<OpResult> peek(Database db, bool max) override { return staging_.peek(db, max); }

 private:
  Staging staging_;
};

}  // namespace

std::unique_ptr<Recipe> make_hc_queue(bool dummy_reads) {
  return std::make_unique<HcQueue>(dummy_reads);
}

std::unique_ptr<Recipe> make_hc_priority_queue(bool ordered) {
  return std::make_unique<HcPriorityQueue>(ordered);
}

}  // namespace contend
