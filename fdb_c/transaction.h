// An FDBTransaction: contend's Transaction (sim/store/transaction.h: read-your-writes, conflict
// ranges as FoundationDB computes them, on_error's backoff) driven through the C API.
//
// Reads are answered when they are called — they see exactly the writes made before the call,
// as read-your-writes requires — and their futures are delivered by the network thread. A
// commit is resolved on the network thread, so other clients' commits posted before it come
// first. Key selectors are resolved by limited range reads (their conflict ranges are those
// reads'). Every function takes the world's mutex (world.h) for as long as it touches state.
// Invariants: while a commit is outstanding, writes and reads fail with used_during_commit; a
// cancelled transaction answers every use but a write with transaction_cancelled (a read or commit
// the deferred error first, if one is held) until it is reset; versionstamp futures of an attempt
// are settled exactly once (at its commit, reset, retry, cancel, timeout or destruction), its
// watches exactly once too (fired by an own write, or at its commit, reset, retry or destruction,
// and at a cancel or the timeout only before the commit started: FoundationDB's watch waits on
// its resetPromise until its read returns, which its commit waits for); an outstanding commit's
// future is answered once, when what ends its attempt happens or else when the commit is
// resolved — a retry does not end it but leaves it behind with its attempt, answered by what
// ends the retry's backoff if that comes first — and a retrying on_error's once too, or else
// when its backoff ends; a timeout timer is queued only while some of them wait.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "fdb_c/future.h"
#include "fdb_c/mapper.h"
#include "fdb_c/options.h"
#include "fdb_c/range_request.h"
#include "fdb_c/transaction_module.h"
#include "fdb_c/world.h"
#include "sim/store/transaction.h"

namespace contend::fdb {

// A write as RYW's triggerWatches is told of it: the keys written and what they now hold — a set's
// value, a clear's absence — unless that is not known (an atomic operation's).
struct Written {
  KeyRangeRef range;
  bool value_known = true;
  std::optional<BytesView> value;
};

// What a write adds to the approximate size once accepted: its mutation's bytes, and its write
// conflict range's unless it takes none.
struct WriteSize {
  std::int64_t mutation_bytes = 0;
  std::int64_t conflict_range_bytes = 0;
};

class TransactionState {
 public:
  explicit TransactionState(World& world);
  ~TransactionState();

  Future* get_read_version();
  void set_read_version(std::int64_t version);
  Future* get(BytesView key, bool snapshot);
  Future* get_key(const KeySelector& selector, bool snapshot);
  Future* get_range(const RangeRequest& request);
  // FoundationDB's getMappedRange (RYW, 7.3; mapped_range.cpp): the rows `request` selects, each
  // with what the lookup its key and value name through `mapper` (mapper.h) finds — one key, or
  // the range a "{...}" mapper's key prefixes (at most 2,000 rows and 10,000,000 bytes, else
  // quick_get_key_values_has_more, 2033). Read at the read version, the rows and the lookups take
  // read conflict ranges; any of those ranges this transaction wrote answers
  // get_mapped_range_reads_your_writes (2039). A snapshot read, or one with read-your-writes
  // disabled, is unsupported_operation (2108); one of special keys client_invalid_operation.
  Future* get_mapped_range(const RangeRequest& request, BytesView mapper);
  Future* estimated_range_size(BytesView begin, BytesView end);
  Future* range_split_points(BytesView begin, BytesView end, std::int64_t chunk_size);

  void set(BytesView key, BytesView value);
  void clear(BytesView key);
  void clear_range(BytesView begin, BytesView end);
  void atomic_op(BytesView key, BytesView param, int operation);
  // A write the client called wrongly (a negative length): the transaction answers `error` from
  // its next read or commit on, as it does an inverted clear range.
  void fail_with(fdb_error_t error);
  fdb_error_t add_conflict_range(BytesView begin, BytesView end, int type);
  Future* watch(BytesView key);

  Future* commit();
  fdb_error_t committed_version(std::int64_t* out);
  // The calls below answer the deferred error first, if one is held, as 7.3's ThreadSafeTransaction
  // calls checkDeferredError before each (reads, watches and the commit do too).
  // RYW's running approximate size, whatever else ended the attempt (a cancel, the timeout).
  Future* approximate_size();
  // The one in-process storage server's address, for any key before \xff\xff (none past it),
  // unless the transaction is unusable.
  Future* addresses_for_key(BytesView key);
  Future* versionstamp();
  // The time a proxy's tag queue held the read version: 0.0, no proxy queues one here.
  Future* tag_throttled_duration();
  // A call of what contend does not model (a transaction's blob granules): after the deferred
  // error, unsupported_operation (2108).
  Future* not_modelled();
  Future* on_error(fdb_error_t error);

  void reset();
  void cancel();
  // A transaction the cluster refuses to serve (a tenant's, where the tenant mode is disabled):
  // from now on, in every attempt, its reads, watches and commits answer `error` once nothing
  // else refuses them, as FoundationDB's do when TransactionState::getTenantInfo throws.
  void refuse_cluster_use_with(fdb_error_t error);
  // Answers invalid_option for an option FoundationDB does not know or this library does not
  // model; a value or a moment it refuses becomes the transaction's deferred error.
  fdb_error_t set_option(int option, BytesView value, bool has_value);

 private:
  // What ended this attempt until a reset (FoundationDB's resetPromise): a use during commit, a
  // cancel, the timeout; success when none did. on_error answers it instead of retrying, and a
  // commit outstanding fails with it.
  fdb_error_t ended_by() const;
  // Why this transaction cannot be used now (a sticky error, else ended_by), or success.
  fdb_error_t unusable() const;
  // As FoundationDB's checkUsedDuringCommit, then unusable(), then the cluster's refusal (a
  // tenant's): once a commit has started, a read, write or commit answers the deferred error if
  // one is held, else used_during_commit, which ends the attempt (not a deferred error: options
  // still apply, as FoundationDB's do).
  fdb_error_t refuses_use();
  // RYW's checkUsedDuringCommit alone, once a commit has started: used_during_commit, which ends
  // the attempt unless something ended it first.
  fdb_error_t used_during_commit();
  // For a call FoundationDB runs on its network thread (a write, a conflict range): before the
  // commit only the deferred error refuses it (a cancel or the timeout does not), after it
  // refuses_use(), whose used_during_commit, which RYW throws there, becomes the deferred error.
  fdb_error_t refuses_write();
  // A call FoundationDB refuses on its network thread before RYW looks at the commit (its
  // checkUsedDuringCommit): `error` becomes the deferred error, unless one is held already
  // (doOnMainThreadVoid skips the call then).
  void defer_error(fdb_error_t error);
  // After a write buffered in the store's transaction: the error the store refused it with
  // becomes sticky, as FoundationDB's deferred error fails every later read and the commit.
  void keep_write_error();
  // A write of `written`. Unless a deferred error is held (ThreadSafeTransaction runs no write
  // then), it takes NEXT_WRITE_NO_WRITE_CONFLICT_RANGE first, as RYW's set, clear and atomicOp do
  // before their own checks; `buffer(conflict)` runs once the transaction accepts writes (under
  // the world's lock), then its error is kept; an accepted write adds `size` to the approximate
  // size and fires this transaction's watches it changes.
  template <class Buffer>
  void write(const Written& written, WriteSize size, Buffer&& buffer);
  // The pending watches on keys in `written` whose value it changes from the one they read fire
  // now (FoundationDB's triggerWatches: any, when the value is not known): their futures go into
  // `fired`, to be delivered once the lock is released.
  void fire_watches_written(const Written& written, std::vector<Future*>& fired);
  // Whether the attempt's commit would send mutations or write conflict ranges (NativeAPI's
  // commitMutations answers one that would not at once, taking no read version).
  bool has_writes() const;
  // Whether this attempt holds a read version (a commit with writes takes one), as NativeAPI's
  // setVersion and INITIALIZE_NEW_DATABASE check; then taking one more answers
  // read_version_already_set.
  bool read_version_held() const;
  // Takes `version` as this attempt's read version (set_read_version, INITIALIZE_NEW_DATABASE).
  // REQUIRES: !read_version_held().
  void take_read_version(Version version);
  // Before a read reaches the store: a read version set (fdb_transaction_set_read_version) above
  // the last one the store granted is granted now when the storage has reached it or is within
  // kFutureVersionDelayUs of it (storage waits that long for a version), else the read answers
  // future_version.
  fdb_error_t reach_read_version();
  // Whether a read sees this transaction's own writes: not with READ_YOUR_WRITES_DISABLE, nor a
  // snapshot read while SNAPSHOT_RYW is off (TransactionOptions::snapshot_ryw_enabled at or below
  // 0: RYW's readWithConflictRangeSnapshot reads the database alone).
  bool sees_own_writes(bool snapshot) const;
  // Runs a read of `range` through the store, in the transaction's view (`own_writes`) or the
  // database's alone, and returns its rows or error.
  fdb_error_t read_range(KeyRangeRef range, RangeOptions options, bool own_writes,
                         RangeResult& out);
  fdb_error_t read_key(BytesView key, bool snapshot, bool own_writes, std::optional<Bytes>& out);
  // A read of the database alone (read-your-writes disabled, or a snapshot read with snapshot RYW
  // off): `read(reader)` reads through a scratch transaction at this one's read version; its
  // conflict ranges and logged reads become this transaction's.
  template <class Read>
  fdb_error_t read_without_own_writes(Read&& read);
  // As RYW's getRange, whether a range read goes to the special key space: from API 630, when its
  // begin key is a special key and its end key in [\xff\xff, \xff\xff\xff].
  static bool reads_special_keys(const RangeRequest& r);
  // Below API 630, whether a range read begins at \xff\xff/worker_interfaces, the one range RYW's
  // getRange serves itself then.
  static bool reads_worker_interfaces_below_630(const RangeRequest& r);
  // What this transaction's \xff\xff/transaction/ module serves now (transaction_module.h).
  TransactionModule module() const;
  // A get of a special key: SpecialKeySpace::get, a read of [key, key + \x00).
  Future* special_get(BytesView key);
  // A range read that reads_special_keys() (`byte_limit` as batch_bytes gives it): its rows.
  Future* special_range(const RangeRequest& r, int byte_limit);
  // After a not_committed the store decided: what the transaction module's conflicting_keys
  // serve from now on, as NativeAPI's tryCommit refills TransactionState::conflictingKeys.
  void note_conflicting_keys();
  // What refuses a range read of the database, before it reads (RYW's getRange): refuses_use(),
  // then a selector's key past \xff (key_outside_legal_range), then a limit below -1
  // (range_limits_invalid).
  fdb_error_t refuses_range_read(const RangeRequest& r);
  // The rows `r` selects (`byte_limit` as batch_bytes gives it) in the transaction's view
  // (`own_writes`) or the database's alone, as get_range reads them: its selectors resolved
  // (firstGreaterOrEqual and firstGreaterThan without a read) and the keys they resolved to,
  // clamped to \xff, set in `read` (its begin at or past its end when nothing is read).
  // `delay_us`, when given, is drawn before the last read, as the read's latency. Not a snapshot,
  // a read whose selectors are not both offset 1 takes one conflict range alone — RYW's in the
  // transaction's view (ryw_range_read_conflict), NativeAPI's in the database's
  // (native_range_read_conflict); its reads are snapshots — and the transaction log holds it as
  // one read of its rows; other reads take the ranges of the reads they made (select_rows).
  fdb_error_t read_rows(const RangeRequest& r, bool own_writes, int byte_limit, KeyValues& result,
                        KeyRange& read, std::int64_t* delay_us);
  // Logs a range read with key selectors that took `conflict` as its read conflict range in
  // place of the snapshot reads logged since `logged_before` that resolved its selectors to `read`
  // and read `rows`, seeing what `saw` says (Transaction::log_read_in_place_of).
  void log_selected_rows(std::size_t logged_before, const KeyRange& read,
                         const std::optional<KeyRange>& conflict, const KeyValues& rows,
                         bool reverse, Transaction::ReadSaw saw);
  // read_rows with each read taking its own conflict range.
  fdb_error_t select_rows(const RangeRequest& r, bool own_writes, int byte_limit, KeyValues& result,
                          KeyRange& read, std::int64_t* delay_us);
  // A mapped range read's lookup for each row of `rows` through `mapper` (get_mapped_range): its
  // rows into `out`, the ranges it read appended to `read_ranges`.
  fdb_error_t look_up_mapped(const Mapper& mapper, const KeyValues& rows, MappedKeyValues& out,
                             std::vector<KeyRange>& read_ranges);
  // The key `selector` names in the transaction's view (`own_writes`) or the database's alone,
  // clamped to ["", \xff].
  fdb_error_t resolve(const KeySelector& selector, bool snapshot, bool own_writes, Bytes& out);
  // What ends the attempt (RYW's resetPromise: a cancel, the timeout, a use during the commit, a
  // final on_error) answers its versionstamp futures with `error` (0: the commit applied), into
  // `deliveries`, and its watches before the commit started; once it started, their reads have
  // returned (RYW's commit waits for them), and they no longer wait on it.
  void end_waits(fdb_error_t error, std::vector<Future*>& deliveries);
  // NativeAPI's cancelWatches (a reset, a retry, destruction, a failed commit): the attempt's
  // watches fail with `error`.
  void cancel_watches(fdb_error_t error, std::vector<Future*>& deliveries);
  // The attempt is over for its commit's result `error`, a reset, retry or destruction
  // (transaction_cancelled): its versionstamp futures are answered, its watches fail, or pass to
  // the world when the commit succeeded.
  void settle_attempt(fdb_error_t error, std::vector<Future*>& deliveries);
  // The commit of attempt `attempt`, resolved: the current attempt's commits it; a commit left
  // behind by a retry commits the attempt it belongs to (commit_left_behind); one reset since was
  // answered then, and its writes are gone.
  void finish_commit(Future* future, std::uint64_t attempt);
  // A commit a retry left behind (leave_commit_behind): its future (a reference of its own; null
  // once the commit is resolved and answered), the attempt it commits (null once resolved), what
  // that commit is refused with before reaching the store, and the attempt's versionstamp futures
  // (each holds a reference), which wait with it: RYW's getVersionstamp waits on the promise of
  // NativeAPI's TransactionState the retry replaced, which the commit answers once it succeeds,
  // and on the resetPromise.
  struct CommitLeftBehind {
    Future* future = nullptr;
    std::unique_ptr<Transaction> attempt;
    fdb_error_t refusal = kSuccess;
    std::vector<Future*> versionstamps;
  };
  // A retry while a commit is outstanding: as FoundationDB 7.3's, whose NativeAPI reset at onError
  // leaves the commit it sent running and whose RYW commit waits on it and on the resetPromise
  // alike, the commit goes on with the attempt it belongs to, kept apart in commits_left_behind_
  // with the attempt's versionstamp futures (tr_ becomes a fresh transaction that carries on the
  // backoff). Its future answers its own result if it is resolved first, or what fails the
  // resetPromise first: the backoff's end (transaction_cancelled), a cancel, the timeout, ...
  // (fail_backoffs).
  void leave_commit_behind();
  // The result of the commit left behind `left`, resolved now (the world's lock held); the world's
  // watches its writes fire, and its versionstamp futures when it succeeds, go into `deliveries`.
  fdb_error_t commit_left_behind(CommitLeftBehind& left, std::vector<Future*>& deliveries);
  // What a commit of the current attempt is refused with before it reaches the store, as
  // NativeAPI's commitMutations: a read-only transaction's writes (READ_LOCK_AWARE), then its size.
  fdb_error_t commit_refusal() const;
  // A retry's on_error future, answered once its backoff of delay_us is over (finish_backoff)
  // unless what fails RYW's resetPromise first fails it (fail_backoffs).
  Future* back_off(std::int64_t delay_us);
  // The backoff task's end: RYW's onError resets (resetRyow), which fails the resetPromise the
  // other on_error calls still wait on (transaction_cancelled), and the first of them to catch it
  // cancels the new attempt; then `future` succeeds.
  void finish_backoff(Future* future);
  // RYW's resetPromise fails with `error`: so does every commit left behind by a retry (and the
  // versionstamp futures waiting with it) and every on_error future still backing off, answered at
  // once, in that order (the commits waited on the promise first). Whether an on_error future was
  // backing off.
  bool fail_backoffs(fdb_error_t error);
  // What ends the attempt (RYW's resetPromise: a use during the commit, a cancel, the timeout, a
  // reset) fails its outstanding commit then, as RYW's commit waits on that promise as well as on
  // the commit: its future answers `error`; the commit, when it is resolved, writes nothing.
  void fail_outstanding_commit(fdb_error_t error);
  // What ended the attempt, or transaction_cancelled: what a reset or retry sends to RYW's
  // resetPromise unless something did first.
  fdb_error_t ended_by_or_cancelled() const;
  // Whether the attempt's commit is over its size limit, measured as FoundationDB's.
  bool too_large() const;
  // Commits the current attempt (the world's lock held): its result; the attempt's versionstamp
  // futures and watches go into `deliveries` (the watches stay when something ended the attempt
  // first: RYW's commit answers that, and NativeAPI's, which would fail them, never ran).
  fdb_error_t commit_now(std::vector<Future*>& deliveries);
  // Arms the timer that fails this attempt's versionstamp futures, commit and watches still
  // reading (end_waits) at the timeout, as FoundationDB's timeout ends the attempt then, while any
  // wait and a timeout is set; otherwise drops the timer armed before (a stale one would move
  // deterministic virtual time on).
  void arm_timeout();
  void disarm_timeout();
  // The timer's task: the waiting futures fail with transaction_timed_out once the timeout passed
  // (end_waits).
  void on_timeout();
  // on_error(cluster_version_changed), as FoundationDB's MultiVersionTransaction::onError answers
  // it (at once, before RYW's retry limit or resetPromise is looked at): the transaction is
  // replaced by a new one (updateTransaction), what the old one was waiting on ending as at its
  // destruction; the new one applies the database's defaults as they are now, then the old one's
  // persistent options, and counts its timeout, retries and backoff afresh.
  void replace_for_cluster_version_change(std::vector<Future*>& deliveries);
  // What a reset and a replaced transaction both begin with: the store's transaction emptied with
  // its backoff restored, a new attempt, no retries, the timeout counted from now, and cancelled
  // as `cancelled` says (the options are the caller's).
  void begin_transaction(bool cancelled);
  // What a retry and a reset both start afresh: no sticky error, nothing read or written, no
  // commit outstanding (a reset answered one still in flight; a retry left it behind).
  void begin_attempt();

  World& world_;
  // The store's transaction of the current attempt (replaced when a retry leaves a commit behind).
  std::unique_ptr<Transaction> tr_;
  // commit() was called in this attempt (FoundationDB's commitStarted): reads, writes and commits
  // are uses during commit from then on, until a reset or retry.
  bool commit_started_ = false;
  // A use once the commit started ended this attempt (checkUsedDuringCommit's resetPromise).
  bool used_during_commit_ = false;
  // Below API 700, NativeAPI's commit resets its transaction once the commit it ran is answered
  // (committed or not): its read version is gone, and the attempt's next get_read_version asks
  // for a new one — or set_read_version sets one — kept in read_version_after_commit_.
  bool read_version_reset_by_commit_ = false;
  std::optional<Version> read_version_after_commit_;
  // This attempt's commit version once its commit succeeded (kInvalidVersion until then, and for
  // a read-only commit), as fdb_transaction_get_committed_version answers.
  Version committed_version_ = kInvalidVersion;
  bool cancelled_ = false;
  // This attempt's commit while it is outstanding and not yet answered (the commit's task holds a
  // reference to it).
  Future* outstanding_commit_ = nullptr;
  // The commits retries left behind, not yet answered (see leave_commit_behind).
  std::vector<CommitLeftBehind> commits_left_behind_;
  // The on_error futures backing off, not yet answered (each backoff's task holds a reference).
  std::vector<Future*> backoffs_;
  std::int64_t started_us_;  // created or reset: TIMEOUT counts from here
  // The database (shared: a reset takes its transaction defaults as they are then; its watches
  // are counted there), and the copy of its defaults this transaction took when it was created or
  // last reset, which each retry applies again (RYW's persistentOptions).
  std::shared_ptr<DatabaseState> database_;
  TransactionDefaults defaults_;
  TransactionOptions options_;
  fdb_error_t sticky_ = kSuccess;
  fdb_error_t cluster_refusal_ = kSuccess;  // refuse_cluster_use_with()
  // This attempt's approximate size (RYW's approximateSize) but for the read conflict ranges of
  // reads with read-your-writes, which approximate_size() adds from the store's transaction.
  std::int64_t approximate_bytes_ = 0;
  // The write conflict ranges the program added in this attempt (its writes' are the store's).
  std::vector<KeyRange> added_write_ranges_;
  // Without read-your-writes, the read conflict ranges NativeAPI's request holds at its size
  // check (commitMutations): its gets' and those added by the program. Its range reads' and
  // get_key's are extraConflictRanges, added to the request after the check.
  std::vector<KeyRange> measured_read_ranges_;
  int retries_ = 0;
  // A read or a write was asked of this attempt: READ_YOUR_WRITES_DISABLE is refused from then on,
  // as FoundationDB refuses it once its read cache or write map holds anything.
  bool read_or_written_ = false;
  // The read conflict ranges of the last commit the store found conflicting, coalesced, when
  // REPORT_CONFLICTING_KEYS was set for it (none when it was not): FoundationDB's
  // TransactionState::conflictingKeys, which a reset or retry keeps (cloneAndReset copies it)
  // and the next not_committed replaces.
  std::vector<KeyRange> conflicting_keys_;
  // Counts resets and retries: a commit belongs to the attempt it began in.
  std::uint64_t attempt_ = 0;
  std::vector<Future*> versionstamp_futures_;  // each holds a reference
  std::vector<Watch> pending_watches_;         // registered with the world when the commit applies
  std::weak_ptr<TransactionState> self_;
  std::optional<Network::TaskId> timeout_timer_;  // armed by arm_timeout()

  friend std::shared_ptr<TransactionState> make_transaction(
      World& world, std::shared_ptr<DatabaseState> database);
};

// A transaction of `database` (world.h): it starts with the database's transaction defaults
// applied, and counts its watches with the database's.
std::shared_ptr<TransactionState> make_transaction(World& world,
                                                   std::shared_ptr<DatabaseState> database);

}  // namespace contend::fdb

struct FDB_transaction {
  std::shared_ptr<contend::fdb::TransactionState> state;
};
