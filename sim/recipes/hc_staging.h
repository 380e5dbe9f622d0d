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
  Task<std::optional<Bytes>> add_conflicted_pop(Transaction& tr, Database db, bool forced);
  Task<std::optional<KeyValue>> pop_simple(Transaction& tr, bool max);
  Task<ErrorOr<bool>> fulfil(Database db, bool max);
  Task<OpResult> wait_for_result(Database db, Transaction& tr, Bytes wait_key, bool max);
  // The item a result slot (under `key`) holds; a slot that does not decode is a simulator fault.
  model::Item item_from_slot(BytesView key, BytesView slot) const;
  Bytes slot_for(const KeyValue& item) const;
  model::Item item_of(const KeyValue& kv) const;

  StagingLayout layout_;
};

// The FIFO high-contention queue (`hc-queue`), or with dummy_reads false `hc-queue-no-reads`.
std::unique_ptr<Recipe> make_hc_queue(bool dummy_reads);

}  // namespace contend
