// A database's watches: each FDBDatabase counts its outstanding ones (MAX_WATCHES), and the
// process's committed watches wait in one list, by key, for a commit that changes their value.
// Invariants (all under the world's mutex): a watch is listed with its database from its read
// until it leaves every list (fired, failed, cancelled and swept, its transaction reset); a
// committed watch is in the list under its own key; a commit checks the watches of the keys it
// wrote, so checking costs what the commit wrote, not how many watches wait.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <unordered_set>
#include <vector>

#include "fdb_c/future.h"
#include "fdb_c/options.h"
#include "sim/store/bytes.h"
#include "sim/store/mutation.h"
#include "sim/store/store.h"

namespace contend::fdb {

// An FDBDatabase: its options, and its watches (FoundationDB's DatabaseContext counts a watch
// outstanding from its read until it fires, fails or is cancelled). Shared by the handle and its
// transactions and watches, which may outlive it; used under the world's mutex.
struct DatabaseState {
  DatabaseOptions options;
  // DatabaseContext's sharedStatePtr: the multi-version client makes a cluster's shared state for
  // its databases from API 710 on; a bypassed client (no external client, bypass not disabled)
  // makes none. Set when the database is opened.
  bool has_cluster_shared_state = false;
  // DatabaseContext's deferred error: what parsing its connection string threw
  // (connection_string.h), success for a good one. Each of its transactions holds it as its
  // deferred error, in every attempt; its own calls answer it.
  fdb_error initialization_error = kSuccess;
  // The futures of the database's watches that some list holds (a transaction's pending ones, the
  // world's): each is outstanding unless the program cancelled it (it is ready then).
  std::unordered_set<const Future*> listed_watches;

  // Whether one more watch may be outstanding (MAX_WATCHES); at the limit, the cancelled ones are
  // counted out.
  bool has_room_for_a_watch() const;
};

// Lists one watch of a database for as long as it lives (the watch's), so that a watch leaving
// any list (fired, failed, cancelled and swept, its transaction reset) is no longer counted.
// Move-only; a moved-from slot lists nothing. Made and destroyed under the mutex.
class WatchSlot {
 public:
  WatchSlot(std::shared_ptr<DatabaseState> database, const Future* future);
  WatchSlot(WatchSlot&& other) noexcept = default;
  WatchSlot& operator=(WatchSlot&& other) noexcept;
  ~WatchSlot();

 private:
  void unlist() noexcept;

  std::shared_ptr<DatabaseState> database_;
  const Future* future_;
};

// A watch that fires when the value of `key` differs from `seen`.
struct Watch {
  Bytes key;
  std::optional<Bytes> seen;
  Future* future;  // holds a reference
  WatchSlot slot;
};

// The committed watches, by key. As the store's commit observer it notes what every applied
// commit wrote (however its caller was answered: commit_unknown_result may have applied it). A
// watch joins when its transaction commits and is checked at the next check (a write between its
// read and its commit fires it); after that, only a check after a commit that wrote its key looks
// at it. A cancelled watch leaves when its key is written, or at a sweep of the whole list, made
// once as many checks have passed as there were watches at the last sweep (O(1) per check,
// amortised).
class WatchList final : public CommitObserver {
 public:
  void join(Watch watch) { joined_.push_back(std::move(watch)); }
  void on_commit(const CommitRequest& request, Version commit_version) override;
  // Under the mutex, the store at version `latest` (every commit so far): the watches whose value
  // changed and the cancelled ones the check meets leave; the futures to deliver once the mutex
  // is released are appended to `fired`.
  void check(const Store& store, Version latest, std::vector<Future*>& fired);

 private:
  // Whether `watch` leaves: cancelled (its reference released), or its value changed (it is set
  // and appended to `fired`, unless the program cancelled it meanwhile).
  static bool leaves(Watch& watch, const Store& store, Version latest, std::vector<Future*>& fired);
  void sweep_cancelled();

  std::multimap<Bytes, Watch, KeyLess> by_key_;
  std::vector<Watch> joined_;
  // What the commits since the last check wrote (ranges, not merged).
  std::vector<KeyRange> written_;
  std::size_t checks_until_sweep_ = 0;
};

}  // namespace contend::fdb
