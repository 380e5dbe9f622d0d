// The simulated storage and resolver: an ordered, multi-versioned key-value map that answers
// reads at any version inside the MVCC window, and decides commits the way FoundationDB's
// resolver does (fdbserver/resolver/ConflictSet.cpp).
//
// Representation: `current_` holds the latest value of every key; the log holds, for each commit
// inside the window, the values its writes replaced (undo entries). A read at version rv starts
// from the current value and undoes the commits newer than rv. Versions are virtual microseconds:
// a commit takes max(latest + 1, granted + 1, now) so versions advance 1,000,000 per virtual
// second, and run ahead of time only after a read version granted ahead of it.
// The log is three FIFO rings (commits; their undo entries; their write ranges, for conflict
// checks and explanations, save a lone single-key write its undo entry names) over one byte FIFO
// holding the keys and values they name, all released from the oldest end as the window moves
// (fifo.h): a commit costs a few appends, never an allocation in a steady state. Map nodes
// of cleared keys are kept (up to kSpareNodesMax) for new keys; map keys carry their first sixteen
// bytes as numbers (key_head.h), which decide most comparisons of a descent.
// Invariants:
// - log_ versions strictly increase; every commit newer than (latest - window) is in log_; a
//   commit's undo entries are sorted by key, one per key, and name bytes not yet released;
// - a read at rv is answered only when rv >= current_version - window (else transaction_too_old);
// - the conflict history holds every write range of the commits inside the window logged before
//   history_next_; the commits from it on are in the log only, which answers for their writes.
//
// Conflict checks: a commit whose read version is at most kScannedCommitsMax commits old (holding
// at most kScannedWritesMax logged write ranges besides single keys) — the usual case — is
// checked against the write ranges those commits logged, newest first. Any other first brings
// the conflict history up to date from the log (each commit enters it once, in version order) and
// asks it, in O(log n) per read range. Either way the answer is the newest write after the read
// version that meets a read range; only the cost differs, and the scan's is bounded.
// Asked to (CommitRequest::report_conflicting_read_ranges, off by default), a conflicting commit
// also names every read range a write after its read version meets, by the same scan or history.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "sim/store/bytes.h"
#include "sim/store/conflict_history.h"
#include "sim/store/environment.h"
#include "sim/store/error.h"
#include "sim/store/fifo.h"
#include "sim/store/key_head.h"
#include "sim/store/mutation.h"

namespace contend {

inline constexpr Version kMvccWindowVersions = 5 * kVersionsPerSecond;
inline constexpr std::size_t kKeySizeLimit = 10'000;
inline constexpr std::size_t kValueSizeLimit = 100'000;
inline constexpr std::size_t kTransactionSizeLimit = 10'000'000;

// Everything a commit sends to the resolver.
struct CommitRequest {
  ClientId client = 0;
  std::uint64_t transaction_id = 0;
  Version read_version = kInvalidVersion;
  std::span<const KeyRangeRef> read_ranges;
  std::span<const KeyRangeRef> write_ranges;
  std::span<const MutationRef> mutations;
  // Some mutation took no write conflict range (WriteConflict::none): write_ranges need not cover
  // mutations.
  bool writes_without_conflict_ranges = false;
  // FoundationDB's report_conflicting_keys: a conflicting commit's result names every read range
  // that a newer write meets (conflicting_read_ranges), not only the first. Off, the resolver does
  // exactly what it did before the flag existed.
  bool report_conflicting_read_ranges = false;
};

// Why a commit conflicted: which of its read ranges met which committed write.
struct ConflictCause {
  std::size_t read_range_index = 0;
  KeyRange read_range;
  Version writer_version = kInvalidVersion;
  ClientId writer_client = -1;
  std::uint64_t writer_transaction_id = 0;
  KeyRange writer_range;
};

struct CommitResult {
  ErrorCode error = ErrorCode::success;
  Version commit_version = kInvalidVersion;
  std::optional<ConflictCause> conflict;
  // Only when the request asked (report_conflicting_read_ranges) and the commit conflicted: the
  // index of every read range a write committed after the read version meets, in increasing
  // order (the first is conflict->read_range_index), as FoundationDB's resolver reports each
  // conflicting read range (ConflictBatch::checkReadConflictRanges). Empty otherwise.
  std::vector<std::size_t> conflicting_read_ranges;
};

// Told about every applied commit (the serializability replay and traces listen here).
class CommitObserver {
 public:
  virtual ~CommitObserver() = default;
  virtual void on_commit(const CommitRequest& request, Version commit_version) = 0;
};

class Store {
 public:
  // Commits after a read version, and write ranges they logged apart from their undo entries, up
  // to which a conflict check scans them instead of asking the conflict history (see the header
  // comment).
  static constexpr std::size_t kScannedCommitsMax = 32;
  static constexpr std::size_t kScannedWritesMax = 64;

  Store() = default;
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // The newest committed version.
  Version latest_version() const { return latest_version_; }
  // A read version at virtual time now_us: versions advance with time even without commits
  // (the proxies commit empty batches), so it is max(latest commit, now). Every later commit gets
  // a higher version, so a read at this version sees exactly the commits made before it.
  Version grant_read_version(std::int64_t now_us);
  // The highest read version handed out so far.
  Version granted_version() const { return granted_version_; }
  // The newest version a read may take at virtual time now_us, without taking it: what
  // grant_read_version grants.
  Version version_reached(std::int64_t now_us) const {
    return std::max(granted_version_, current_version(now_us));
  }
  // Grants `version`, a read version a client set: one ahead of virtual time, which storage
  // reached early (as it does when versions advance faster than time), or one it has reached since
  // its last grant. Every later commit gets a higher version, as after any grant.
  // REQUIRES: version >= granted_version().
  void grant_read_version_ahead(Version version);
  // The version storage has reached at virtual time now_us (versions follow time).
  Version current_version(std::int64_t now_us) const;
  // success, or transaction_too_old when rv has left the MVCC window at now_us.
  ErrorCode check_read_version(Version read_version, std::int64_t now_us) const;

  std::optional<Bytes> get(BytesView key, Version read_version) const;

  // Visits the keys of `range` present at `read_version` in key order (descending when
  // `reverse`), calling visit(key, value) until it returns false.
  template <class Visit>
  void scan(KeyRangeRef range, Version read_version, bool reverse, Visit&& visit) const;

  // Resolves a commit at virtual time now_us and applies it when it does not conflict.
  CommitResult commit(const CommitRequest& request, std::int64_t now_us);

  // A fresh id for each transaction attempt (traces and conflict explanations name them).
  std::uint64_t next_transaction_id() { return ++transaction_ids_; }

  void set_observer(CommitObserver* observer) { observer_ = observer; }
  std::size_t key_count() const { return current_.size(); }
  std::uint64_t commits() const { return commit_count_; }
  // A copy of the latest value of every key, for tests and end-of-run accounting.
  std::map<Bytes, Bytes, KeyLess> latest_state() const;
  // Adds to `into` everything a later step can observe of the store: the latest data, the logged
  // commits (version, the values their writes replaced, their write ranges), from which every
  // readable version and every conflict check follows, and the latest and granted versions.
  // Two stores that add the same answer every read and commit alike (a search caching states).
  void add_state(Digest128& into) const;

 private:
  // Keys carry their heads (key_head.h): a descent rarely reads a key's bytes.
  using KeyMap = std::map<HeadedKey, Bytes, HeadedKeyLess>;
  static constexpr std::size_t kSpareNodesMax = 4096;
  // The value a commit's write replaced; the views are into bytes_.
  struct UndoEntry {
    BytesView key;
    BytesView before;      // the value before the commit (when existed)
    bool existed = false;  // whether the key had a value before the commit
  };
  struct LoggedRange {
    BytesView begin;
    BytesView end;
  };
  struct LoggedCommit {
    Version version = 0;
    ClientId client = 0;
    std::uint64_t transaction_id = 0;
    FifoRing<UndoEntry>::Number undo_begin = 0, undo_end = 0;
    FifoRing<LoggedRange>::Number writes_begin = 0, writes_end = 0;  // for conflicts
    // Its one write range is [k, k + '\x00') of its one undo entry's key k (a plain push or
    // pop), which the undo entry names already: nothing in logged_writes_.
    bool write_is_undo_key = false;
    ByteFifo::Mark bytes_mark = 0;  // its bytes lie in this chunk or later ones
  };
  using Overlay = std::map<Bytes, std::optional<Bytes>, KeyLess>;

  std::optional<ConflictCause> find_conflict(const CommitRequest& request);
  // Every read range of `request` that a write committed after its read version meets, in
  // increasing order; asked only once find_conflict found one.
  std::vector<std::size_t> every_conflicting_read_range(const CommitRequest& request);
  // Whether a write committed after `read_version` meets `read`: the scan's answer over the
  // commits from `first_newer` on when there is one, else the conflict history's (up to date).
  bool written_after(KeyRangeRef read, Version read_version,
                     std::optional<FifoRing<LoggedCommit>::Number> first_newer) const;
  // The first logged commit newer than read_version, when the commits from it on are few enough
  // to scan (kScannedCommitsMax, kScannedWritesMax); else none.
  std::optional<FifoRing<LoggedCommit>::Number> few_commits_after(Version read_version) const;
  KeyRangeRef logged_write(FifoRing<LoggedRange>::Number w) const {
    return KeyRangeRef{logged_writes_[w].begin, logged_writes_[w].end};
  }
  // The first of the write ranges `commit` logged that intersects `read`, else its writes_end.
  FifoRing<LoggedRange>::Number logged_write_meeting(const LoggedCommit& commit,
                                                     KeyRangeRef read) const;
  // Whether one of `commit`'s write ranges intersects `read`.
  bool writes_into(const LoggedCommit& commit, KeyRangeRef read) const;
  // Read range `read_index`, `read`, met a write of `writer`: which, and whose.
  ConflictCause conflict_cause(std::size_t read_index, KeyRangeRef read,
                               const LoggedCommit& writer) const;
  // Adds to history_ the write ranges of the logged commits from history_next_ on.
  void catch_up_history();
  void apply(const CommitRequest& request, Version commit_version);
  // Remembers the value `key` had before this commit touched it: `before`, or none when null.
  // (log_commit() keeps the first such record of each key.)
  void record_before(BytesView key, const Bytes* before);
  // Appends the commit's log entry, its sorted undo entries and its write ranges.
  void log_commit(const CommitRequest& request, Version commit_version, ByteFifo::Mark mark);
  // Sets `key` to `value` in current_, where `at` = current_.lower_bound(key).
  void put(KeyMap::iterator at, BytesView key, BytesView value);
  void erase_range(KeyMap::iterator first, KeyMap::iterator last);
  void prune(Version horizon);
  const LoggedCommit* logged_commit(Version version) const;
  // The first undo entry of `commit` whose key is >= key.
  FifoRing<UndoEntry>::Number undo_lower_bound(const LoggedCommit& commit, BytesView key) const;
  // The values the commits newer than read_version replaced, restricted to `range`.
  Overlay overlay_since(KeyRangeRef range, Version read_version) const;
  bool has_commits_after(Version read_version) const {
    return !log_.empty() && log_.back().version > read_version;
  }

  KeyMap current_;
  FifoRing<LoggedCommit> log_;
  FifoRing<UndoEntry> undo_;
  FifoRing<LoggedRange> logged_writes_;
  ByteFifo bytes_;
  std::vector<UndoEntry> pending_undo_;  // scratch: the undo entries of the commit being applied
  std::vector<KeyMap::node_type> spare_nodes_;
  ConflictHistory history_;
  // The first logged commit whose writes history_ lacks (every one before it inside the window
  // is in history_).
  FifoRing<LoggedCommit>::Number history_next_ = 0;
  Version latest_version_ = 0;
  Version granted_version_ = 0;  // the highest read version handed out
  std::uint64_t commit_count_ = 0;
  std::uint64_t transaction_ids_ = 0;
  CommitObserver* observer_ = nullptr;
};

// ---- implementation of the scan template ----

template <class Visit>
void Store::scan(KeyRangeRef range, Version read_version, bool reverse, Visit&& visit) const {
  if (range.empty()) return;
  if (!has_commits_after(read_version)) {
    // One descent, to the end the scan starts from; the other end is a comparison per row
    // (a limited read stops after a row or two).
    const HeadedKeyLess less;
    if (!reverse) {
      const KeyProbe end(range.end);
      for (auto it = current_.lower_bound(KeyProbe(range.begin));
           it != current_.end() && less(it->first, end); ++it) {
        if (!visit(BytesView(it->first.bytes), BytesView(it->second))) return;
      }
    } else {
      const KeyProbe begin(range.begin);
      for (auto it = current_.lower_bound(KeyProbe(range.end)); it != current_.begin();) {
        --it;
        if (less(it->first, begin)) return;
        if (!visit(BytesView(it->first.bytes), BytesView(it->second))) return;
      }
    }
    return;
  }
  auto lo = current_.lower_bound(KeyProbe(range.begin));
  auto hi = current_.lower_bound(KeyProbe(range.end));
  // Slow path: merge the current values with the values newer commits replaced.
  Overlay overlay = overlay_since(range, read_version);
  auto visit_merged = [&](BytesView key, const Bytes* current, const std::optional<Bytes>* old) {
    if (old != nullptr) return old->has_value() ? visit(key, BytesView(**old)) : true;
    return visit(key, BytesView(*current));
  };
  if (!reverse) {
    auto c = lo;
    auto o = overlay.begin();
    while (c != hi || o != overlay.end()) {
      bool take_overlay = c == hi || (o != overlay.end() && o->first <= c->first.bytes);
      bool more = true;
      if (take_overlay) {
        if (c != hi && o->first == c->first.bytes) ++c;
        more = visit_merged(o->first, nullptr, &o->second);
        ++o;
      } else {
        more = visit_merged(c->first.bytes, &c->second, nullptr);
        ++c;
      }
      if (!more) return;
    }
  } else {
    auto c = hi;
    auto o = overlay.end();
    while (c != lo || o != overlay.begin()) {
      auto cp = c == lo ? c : std::prev(c);
      auto op = o == overlay.begin() ? o : std::prev(o);
      bool has_c = c != lo;
      bool has_o = o != overlay.begin();
      bool take_overlay = !has_c || (has_o && op->first >= cp->first.bytes);
      bool more = true;
      if (take_overlay) {
        if (has_c && op->first == cp->first.bytes) c = cp;
        more = visit_merged(op->first, nullptr, &op->second);
        o = op;
      } else {
        more = visit_merged(cp->first.bytes, &cp->second, nullptr);
        c = cp;
      }
      if (!more) return;
    }
  }
}

}  // namespace contend
