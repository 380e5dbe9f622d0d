// The high-contention staging of pops, as FoundationDB's
// layers/containers/highcontention/queue.py implements it (reference §4.1), shared by `hc-queue`,
// `hc-queue-no-reads` and `hc-priority-queue`.
//
// A pop first tries the simple way; if another request is already waiting, or the attempt fails
// for any reason, it registers a pop request (pops[(index, random)]) and loops: fulfil
// outstanding requests (pair the oldest requests with the oldest items, write each item into the
// request's result slot results[(random,)], clear both — the non-snapshot reads of exactly those
// keys make two fulfillers conflict), then poll its own request: present = wait (back off 10 ms
// doubling to 1 s), absent with a result = take it, absent without = the queue was empty.
//
// With directed_requests (`hc-priority-queue-ordered`, not in FoundationDB's layers) a request
// records whether its caller wanted the minimum or the maximum (the request's value: "min" or
// "max"), and a fulfiller hands each request, in request order, the smallest or the largest item
// not yet handed out. With versionstamped_items an item's key is (priority, versionstamp), a
// blind SET_VERSIONSTAMPED_KEY: equal priorities sort in commit order. (The layer's
// (priority, index, random) sorts two concurrent pushes that drew one index by their random
// suffix: the later commit may land ahead of an item a peek already showed as the front.) Both
// together keep the `priority` spec instead of only the multiset.
//
// Known behaviours this reproduces faithfully: semi-FIFO order (requests get items in key order),
// None while items exist (a fulfiller cancels requests it has no items for), lost items under
// commit_unknown_result (the consume or the fast-path pop applied but the client retried), and
// — with dummy_reads off, as FoundationDB PR #7033 did — duplicate delivery.
// Every loop is bounded; giving up is reported as an indeterminate (info) operation.
#pragma once

#include <optional>

#include "sim/recipes/keys.h"
#include "sim/recipes/recipe.h"

namespace contend {

struct StagingLayout {
  keys::Space items;
  keys::Space pops;
  keys::Space results;
  bool dummy_reads = true;  // the load-bearing `read = tr[key]` lines
  bool priority = false;    // items keyed (priority, index, random); results carry priority
  bool fulfil_until_short_batch = true;  // queue.py loops; the priority layer does one batch
  bool directed_requests = false;        // requests record min or max (needs priority)
  bool versionstamped_items = false;     // items (priority, versionstamp) (needs priority)
};

class Staging {
 public:
  explicit Staging(StagingLayout layout) : layout_(std::move(layout)) {}

  Task<OpResult> push(Database db, std::string value, std::int64_t priority);
  Task<OpResult> pop(Database db, bool max);
  Task<OpResult> peek(Database db, bool max);

  static constexpr int kBatch = 100;
  static constexpr int kMaxRounds = 2000;        // fulfil+poll rounds before giving up
  static constexpr int kMaxFulfilBatches = 100;  // `while not fulfill()` iterations per round

 private:
  struct FirstTry {
    std::optional<Bytes> wait_key;
    std::optional<KeyValue> item;
  };
  struct Poll {
    bool request_present = false;
    std::optional<Bytes> result;
  };

  Task<std::int64_t> next_index(Transaction& tr, const keys::Space& space,
                                std::optional<std::int64_t> priority);
  Task<std::optional<Bytes>> add_conflicted_pop(Transaction& tr, Database db, bool forced,
                                                bool max);
  Task<std::optional<KeyValue>> pop_simple(Transaction& tr, bool max);
  Task<ErrorOr<bool>> fulfil(Database db, bool max);
  // The items a fulfiller may hand out, ascending by key: the first kBatch in the direction it
  // pops, or (directed_requests) the first kBatch from each end, each item once.
  Task<RangeResult> fulfillable_items(Transaction& tr, bool max);
  // (directed_requests) The read conflict ranges that make a fulfilment of `requests` requests,
  // which handed out items[0, low) and items[high, end), conflict with a better push.
  void guard_decided_items(Transaction& tr, const RangeResult& items, std::size_t low,
                           std::size_t high, std::size_t requests) const;
  // Whether a request (`request`: its key and value) asks for the maximum.
  bool request_wants_max(const KeyValue& request, bool fulfiller_max) const;
  Task<OpResult> wait_for_result(Database db, Transaction& tr, Bytes wait_key, bool max);
  // The item a result slot (under `key`) holds; a slot that does not decode is a simulator fault.
  model::Item item_from_slot(BytesView key, BytesView slot) const;
  Bytes slot_for(const KeyValue& item) const;
  model::Item item_of(const KeyValue& kv) const;

  StagingLayout layout_;
};

// The FIFO high-contention queue (`hc-queue`), or with dummy_reads false `hc-queue-no-reads`.
std::unique_ptr<Recipe> make_hc_queue(bool dummy_reads);
// The staged priority queue: the layer as FoundationDB wrote it (`hc-priority-queue`: keys under
// ("HP", ...)), or with `ordered` the variant whose requests record min or max and whose items
// are versionstamped (`hc-priority-queue-ordered`: keys under ("HO", ...)).
std::unique_ptr<Recipe> make_hc_priority_queue(bool ordered);

}  // namespace contend
