// A client transaction against the simulated store, with FoundationDB's client semantics:
// read-your-writes, conflict ranges computed exactly as fdbclient/ReadYourWrites.cpp does,
// buffered mutations applied at commit, on_error's retry rules and backoff.
//
// Reads, commit and on_error are awaitable and each is a scheduling point. Writes are immediate
// and buffered. A read that fails (transaction_too_old, future_version, accessed_unreadable) does
// not resume the reader: it abandons the enclosing attempt (see attempt() in retry.h), whose
// awaiter receives the error as a value. So recipe code reads like the seed code:
//     auto items = co_await tr.get_range(queue.range(), {.limit = 1});
//     if (items.empty()) co_return std::nullopt;
//     tr.clear(items[0].key);
// GCC 12 pitfall: do not brace-initialise a KeyRange from string literals inside a co_await
// expression (`co_await tr.get_range(KeyRange{"a", "b"})`): GCC destroys the std::string
// temporaries twice. Build the range in a variable first.
// Invariants: read conflict ranges never include keys this transaction wrote independently before
// issuing the read (except those added whole, for reads that did not see the writes);
// snapshot reads add none; reset() keeps the backoff (as FoundationDB's reset).
// Buffers (writes, mutations, conflict ranges) view bytes copied once into the transaction's
// arena (byte_arena.h), so growing a buffer never moves bytes a caller may be viewing, and the
// views of mutations() and the conflict ranges stay valid until reset(). Buffers and arena come
// from a per-thread pool and go back to it when the transaction is destroyed, keeping their
// storage, so a steady stream of transactions allocates almost nothing for them. The pool never
// affects results.
#pragma once

#include <coroutine>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "base/invariant.h"
#include "sim/store/byte_arena.h"
#include "sim/store/bytes.h"
#include "sim/store/environment.h"
#include "sim/store/error.h"
#include "sim/store/error_or.h"
#include "sim/store/mutation.h"
#include "sim/store/slot_vector.h"
#include "sim/store/store.h"

namespace contend {

struct KeyValue {
  Bytes key;
  Bytes value;
  friend bool operator==(const KeyValue&, const KeyValue&) = default;
};
using RangeResult = std::vector<KeyValue>;

struct RangeOptions {
  int limit = 0;  // 0 = no limit
  bool reverse = false;
  bool snapshot = false;
};

// Whether a write takes a write conflict range (FoundationDB's AddConflictRange). A write without
// one (a client's NEXT_WRITE_NO_WRITE_CONFLICT_RANGE) still changes the database, but no other
// transaction's read conflicts with it, unless another write of this transaction gave its keys a
// conflict range (a later write without one never takes it away).
enum class WriteConflict : bool { none = false, add = true };

// A client's handle on the database: which store, which world, which client.
struct Database {
  Store* store = nullptr;
  Environment* env = nullptr;
  ClientId client = 0;
  int retry_limit = 1000;  // run() gives up after this many attempts (a scenario knob)
};

// FoundationDB's metadata version key (fdbclient/SystemData.cpp's metadataVersionKey): the one
// system key a client reads, watches, conflicts on and versionstamps without ACCESS_SYSTEM_KEYS.
// Absent until a commit versionstamps it; then its value is that commit's 10-byte versionstamp.
inline constexpr BytesView kMetadataVersionKey("\xff/metadataVersion", 17);

// Backoff knobs (fdbclient/ClientKnobs.cpp), in virtual microseconds.
inline constexpr std::int64_t kDefaultBackoffUs = 10'000;
inline constexpr std::int64_t kMaxBackoffUs = 1'000'000;
inline constexpr std::int64_t kFutureVersionRetryDelayUs = 10'000;
inline constexpr std::int64_t kResourceConstrainedMaxBackoffUs = 30'000'000;

// One read a transaction made, logged when the environment asks (Environment::log_reads):
// enough to evaluate it again on a plain map. `mutations_before` places it in program order
// among the transaction's buffered writes.
struct ReadRecord {
  bool range = false;
  KeyRange keys;  // get: [key, key + \x00)
  RangeOptions options;
  bool snapshot = false;
  std::size_t mutations_before = 0;
  std::optional<Bytes> value;  // get
  RangeResult rows;            // get_range
};

class Transaction {
 public:
  explicit Transaction(Database db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  // ---- awaitable operations (scheduling points) ----
  class ReadVersionOp;
  class GetOp;
  class RangeOp;
  class CommitOp;
  class OnErrorOp;

  ReadVersionOp get_read_version();
  GetOp get(BytesView key, bool snapshot = false);
  RangeOp get_range(KeyRangeRef range, RangeOptions options = {});
  // Commits the buffered writes. Read-only transactions succeed without contacting the resolver.
  CommitOp commit();
  // The errors FoundationDB's onError retries (retried_by_on_error): back off in virtual time,
  // reset, and return success. Others: return e.
  // The backoff grows up to `max_backoff_us` (FoundationDB's options.maxBackoff: MAX_RETRY_DELAY,
  // by default DEFAULT_MAX_BACKOFF); on commit_proxy_memory_limit_exceeded,
  // grv_proxy_memory_limit_exceeded and transaction_throttled_hot_shard up to
  // kResourceConstrainedMaxBackoffUs (RESOURCE_CONSTRAINED_MAX_BACKOFF, 30 s) instead.
  OnErrorOp on_error(ErrorCode e, std::int64_t max_backoff_us = kMaxBackoffUs);

  // ---- buffered writes ----
  void set(BytesView key, BytesView value, WriteConflict conflict = WriteConflict::add);
  void clear(BytesView key, WriteConflict conflict = WriteConflict::add);
  void clear_range(KeyRangeRef range, WriteConflict conflict = WriteConflict::add);
  // A versionstamped key's write conflict range is every key it may become, whatever `conflict`
  // says (FoundationDB's commit adds the range of its versionstamped keys itself).
  void atomic_op(MutationType type, BytesView key, BytesView operand,
                 WriteConflict conflict = WriteConflict::add);
  // The error a refused write left (FoundationDB's deferred error: the commit fails with it), or
  // success.
  ErrorCode write_error() const { return sticky_error_; }
  void add_read_conflict_range(KeyRangeRef range);
  // Adds `range` whole, the keys this transaction wrote included: for a read that did not see the
  // transaction's writes (FoundationDB's with read-your-writes disabled), which depends on the
  // database there too.
  void add_read_conflict_range_whole(KeyRangeRef range);
  void add_read_conflict_key(BytesView key);
  void add_write_conflict_range(KeyRangeRef range);
  void add_write_conflict_key(BytesView key);

  // Forgets reads, writes and the read version; keeps the backoff.
  void reset();
  // The backoff of a new transaction (FoundationDB's fullReset, a client's reset, restores it).
  void restore_backoff() { backoff_us_ = kDefaultBackoffUs; }
  // Takes on the backoff `previous` grew to: for a transaction that carries on the retries of
  // `previous`, whose attempt is kept apart (libfdb_c's commit outstanding at a retry).
  void continue_backoff_of(const Transaction& previous) { backoff_us_ = previous.backoff_us_; }
  // Reads at `version` instead of asking the store for one (fdb_transaction_set_read_version).
  // A read needs the store to have granted it (Store::grant_read_version_ahead); a commit does
  // not: one ahead of every granted version is resolved as at the newest granted one.
  // REQUIRES: no read version yet.
  void set_read_version(Version version) {
    CONTEND_ASSERT(!read_version_.has_value(), "a read version is set once per attempt");
    read_version_ = version;
  }

  // ---- introspection ----
  Database database() const { return db_; }
  ClientId client() const { return db_.client; }
  Environment& env() const { return *db_.env; }
  std::optional<Version> read_version() const { return read_version_; }
  // After a successful commit with writes; kInvalidVersion for read-only ones.
  Version committed_version() const { return committed_version_; }
  // The 10-byte versionstamp of the last successful commit with writes.
  std::optional<Bytes> versionstamp() const;
  std::uint64_t id() const { return transaction_id_; }
  // Views valid until reset() (or the transaction's end).
  std::span<const KeyRangeRef> read_conflict_ranges() const { return read_ranges_; }
  std::span<const KeyRangeRef> write_conflict_ranges() const { return write_ranges_; }
  std::span<const MutationRef> mutations() const { return mutations_; }
  // Whether a mutation of this attempt took no write conflict range (WriteConflict::none): then
  // write_conflict_ranges() does not cover every key mutations() changes.
  bool wrote_without_conflict_range() const { return wrote_without_conflict_range_; }
  // The reads of this attempt the environment logs (Environment::log_reads; snapshot reads only
  // when it asks for them too).
  const std::vector<ReadRecord>& read_log() const { return read_log_; }
  // Moves the read log out and leaves it empty: for an environment told the attempt ended.
  std::vector<ReadRecord> take_read_log() {
    std::vector<ReadRecord> out = std::move(read_log_);
    read_log_.clear();
    return out;
  }
  // Logs the reads `reader` logged as this attempt's: reader read the database for this
  // transaction without seeing its writes (FoundationDB's read-your-writes disabled), so each is
  // placed before any of this transaction's mutations. REQUIRES: reader wrote nothing.
  void adopt_reads_of(Transaction& reader) {
    CONTEND_ASSERT(reader.mutations_.empty(), "a reader for another transaction writes nothing");
    for (ReadRecord& r : reader.take_read_log())
      read_log_.push_back(std::move(r));
  }
  // What a read logged by log_read_in_place_of saw: the transaction's writes buffered so far, or
  // the database alone (FoundationDB's read-your-writes disabled).
  enum class ReadSaw : bool { database_alone, own_writes };
  // For a client that makes one read of several snapshot reads and takes its read conflict range
  // itself (key selectors resolved, then the rows read): drops the reads logged since the log held
  // `first` and logs, when `keys` is not empty, a non-snapshot read of `keys` that returned `rows`
  // (at most `options.limit` of them, in `options.reverse` order), placed after the writes
  // buffered so far or, when it saw the database alone, before any of them. The caller's conflict
  // range must cover `keys`, so that the record holds in any serial order a commit passes.
  // REQUIRES: `first` <= read_log().size().
  void log_read_in_place_of(std::size_t first, KeyRangeRef keys, RangeOptions options,
                            const RangeResult& rows, ReadSaw saw = ReadSaw::own_writes);
  // The conflict behind the last not_committed returned by commit().
  const std::optional<ConflictCause>& last_conflict() const { return last_conflict_; }
  // Whether commit() asks the store for every conflicting read range (FoundationDB's
  // REPORT_CONFLICTING_KEYS); off by default, and kept by reset().
  void set_report_conflicting_read_ranges(bool on) { report_conflicting_read_ranges_ = on; }
  // After a not_committed from the store while asked: the index in read_conflict_ranges() of every
  // read range that conflicted, in increasing order; else empty. Cleared by the next commit and
  // by reset().
  std::span<const std::size_t> last_conflicting_read_ranges() const {
    return last_conflicting_read_ranges_;
  }
  // The label of the recipe step whose read range conflicted last (see set_step).
  std::string_view last_conflict_step() const { return last_conflict_step_; }
  // Labels the read conflict ranges added from now on (for "conflicts by cause" metrics).
  void set_step(std::string_view label) { step_ = label; }
  std::int64_t backoff_us() const { return backoff_us_; }
  // The bytes this attempt would commit: mutations and conflict range ends (FoundationDB's
  // approximate transaction size, checked against kTransactionSizeLimit).
  std::size_t size_bytes() const { return size_bytes_; }
  // For a client that measures its commits itself (contend's libfdb_c, as FoundationDB's client
  // does): commit() no longer refuses one whose size_bytes() is over kTransactionSizeLimit.
  void lift_size_limit() { size_limited_ = false; }

  // ---- used by attempt() (retry.h) ----
  std::coroutine_handle<> abort_target() const { return abort_target_; }
  void set_abort_target(std::coroutine_handle<> target) { abort_target_ = target; }
  ErrorCode take_read_error() { return std::exchange(read_error_, ErrorCode::success); }

 public:
  struct BufferPool;  // per thread, in transaction.cpp

 private:
  void note_commit_submitted() const {
    if (FootprintSink* sink = env().footprints()) sink->on_commit_submitted(*this);
  }
  bool logs_read(bool snapshot) const {
    return env().log_reads() && (!snapshot || env().log_snapshot_reads());
  }
  // This transaction's own write to one key, as reads must see it. Views into the arena.
  struct WriteEntry {
    enum class Kind : std::uint8_t { set, clear, dependent, unreadable } kind = Kind::set;
    BytesView key;
    BytesView value;                                              // Kind::set
    std::vector<std::pair<MutationType, BytesView>> pending_ops;  // Kind::dependent
  };
  // Everything a transaction buffers, pooled per thread (see acquire_buffers()).
  struct Buffers {
    ByteArena arena;                          // the bytes every view below points into
    SlotVector<WriteEntry> writes;            // sorted by key, one entry per key
    std::map<Bytes, Bytes, KeyLess> cleared;  // disjoint cleared ranges: begin -> end
    std::vector<KeyRange> versionstamped_key_ranges;
    std::vector<MutationRef> mutations;
    std::vector<ReadRecord> read_log;
    std::vector<KeyRangeRef> read_ranges;
    std::vector<std::string_view> read_range_steps;
    std::vector<KeyRangeRef> write_ranges;
    void clear();
  };
  static Buffers* acquire_buffers();  // empty buffers
  static void release_buffers(Buffers* buffers);

  friend class StoreOpBase;
  // Everything but the buffers (empty already) and the backoff, for a new attempt.
  void start_attempt();
  // FoundationDB's limits on a write, in its order: a key in the legal range, within the key size,
  // and a value (or an atomic op's operand) within the value size.
  // `metadata_version`: the write is the versionstamp of kMetadataVersionKey, which FoundationDB's
  // atomicOp lets past the legal range.
  ErrorCode check_write(BytesView key, std::size_t value_size, bool metadata_version = false) const;
  bool in_cleared_range(BytesView key) const;
  bool unreadable(KeyRangeRef range) const;
  // The first own write at or after `key`, and the entry for exactly `key` (or null).
  const WriteEntry* write_lower_bound(BytesView key) const;
  const WriteEntry* find_write(BytesView key) const;
  // The entry for `key`, inserted in order when missing (its kind and value are the caller's).
  WriteEntry& write_entry(BytesView key);
  // `key` copied into the arena, and the view of key_after(key) sharing its bytes.
  struct KeyCopy {
    BytesView key;
    BytesView after;
  };
  KeyCopy copy_key(BytesView key) {
    const BytesView after = arena_.copy_key_after(key);
    return KeyCopy{after.substr(0, key.size()), after};
  }
  KeyRangeRef copy_range(KeyRangeRef range) {
    return KeyRangeRef{arena_.copy(range.begin), arena_.copy(range.end)};
  }
  void push_mutation(MutationType type, BytesView param1, BytesView param2) {
    mutations_.push_back(MutationRef{type, param1, param2});
  }
  // The value this transaction would see for `key` given the database value at its read version.
  ErrorOr<std::optional<Bytes>> overlay(BytesView key, const std::optional<Bytes>& db_value) const;
  // Adds `range` less the parts this transaction wrote independently as read conflict ranges.
  // REQUIRES: range's ends view the arena (as every range a read was given does).
  void add_conflict_for_read(KeyRangeRef range);
  // Records the read conflict range `range` as is. REQUIRES: its ends view the arena.
  void push_read_range(KeyRangeRef range);
  // Records the write of [begin, end) (views into the arena): its size, and its write conflict
  // range with the range's ends counted too unless `conflict` is none.
  void note_write(BytesView begin, BytesView end, std::size_t bytes,
                  WriteConflict conflict = WriteConflict::add) {
    CONTEND_DEBUG_ASSERT(begin < end, "write conflict ranges are not empty");
    size_bytes_ += bytes;
    if (conflict == WriteConflict::none) {
      wrote_without_conflict_range_ = true;
      return;
    }
    write_ranges_.push_back(KeyRangeRef{begin, end});
    size_bytes_ += begin.size() + end.size();
  }
  void take_read_version_if_needed();
  ErrorCode begin_read();

  ErrorOr<std::optional<Bytes>> do_get(const KeyCopy& key, bool snapshot);
  static void check_rows(KeyRangeRef range, bool reverse, std::size_t limit,
                         const RangeResult& rows);
  // The rows of a range read into `out` (empty on entry), or the error that abandons the read.
  ErrorCode do_get_range(KeyRangeRef range, const RangeOptions& options, RangeResult& out);
  void read_merged(KeyRangeRef range, std::size_t limit, bool reverse, RangeResult& out) const;
  ErrorCode do_commit();
  // Whether do_commit would get past its first returns (a sticky error, a read-only
  // transaction) to the resolver: only then is a commit ordered against other clients' steps.
  bool commit_reaches_store() const {
    return ok(sticky_error_) && !(mutations_.empty() && write_ranges_.empty());
  }

  Database db_;
  std::optional<Version> read_version_;
  // The pooled buffers, and a name for each (declared after buffers_: initialised from it).
  Buffers* buffers_;
  ByteArena& arena_ = buffers_->arena;
  SlotVector<WriteEntry>& writes_ = buffers_->writes;
  std::map<Bytes, Bytes, KeyLess>& cleared_ = buffers_->cleared;
  std::vector<KeyRange>& versionstamped_key_ranges_ = buffers_->versionstamped_key_ranges;
  std::vector<MutationRef>& mutations_ = buffers_->mutations;
  std::vector<ReadRecord>& read_log_ = buffers_->read_log;
  std::vector<KeyRangeRef>& read_ranges_ = buffers_->read_ranges;
  std::vector<std::string_view>& read_range_steps_ = buffers_->read_range_steps;
  std::vector<KeyRangeRef>& write_ranges_ = buffers_->write_ranges;
  std::size_t size_bytes_ = 0;
  bool size_limited_ = true;  // see lift_size_limit()
  bool wrote_without_conflict_range_ = false;
  ErrorCode sticky_error_ = ErrorCode::success;
  ErrorCode read_error_ = ErrorCode::success;
  std::coroutine_handle<> abort_target_;
  std::string_view step_;

  Version committed_version_ = kInvalidVersion;
  std::optional<ConflictCause> last_conflict_;
  bool report_conflicting_read_ranges_ = false;
  std::vector<std::size_t> last_conflicting_read_ranges_;
  std::string_view last_conflict_step_;
  std::int64_t backoff_us_ = kDefaultBackoffUs;
  std::uint64_t transaction_id_ = 0;
};

// ---- awaitables ----

// Common plumbing: submit to the environment, complete at the scheduled instant, and on a read
// error resume the transaction's abort target instead of the reader.
class StoreOpBase : public PendingOp {
 public:
  explicit StoreOpBase(Transaction& tr, StepKind step_kind) : tr_(&tr) {
    kind = step_kind;
    client = tr.client();
  }
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiting) {
    continuation = awaiting;
    needs_read_version = kind == StepKind::read && !tr_->read_version_.has_value();
    inert = kind == StepKind::sleep || (kind == StepKind::read && !needs_read_version) ||
            (kind == StepKind::commit && !tr_->commit_reaches_store());
    if (kind == StepKind::commit && !inert) tr_->note_commit_submitted();
    return tr_->env().submit(*this);
  }

 protected:
  // Abandons the reader: the enclosing attempt resumes and sees `e`.
  void abort_with(ErrorCode e) {
    CONTEND_ASSERT(tr_->abort_target_, "a read must run inside attempt() or run()");
    aborted_ = e;
    tr_->read_error_ = e;
    continuation = tr_->abort_target_;
    tr_->env().on_attempt_end(*tr_, e);
  }
  Transaction* tr_;
  ErrorCode aborted_ = ErrorCode::success;  // the error a failed read resumed the attempt with
};

class Transaction::ReadVersionOp : public StoreOpBase {
 public:
  explicit ReadVersionOp(Transaction& tr) : StoreOpBase(tr, StepKind::read_version) {}
  void complete() override { tr_->take_read_version_if_needed(); }
  void add_observed(Digest128& into) const override {
    into.add_i64(tr_->read_version_.value_or(kInvalidVersion));
  }
  Version await_resume() const { return *tr_->read_version_; }
};

class Transaction::GetOp : public StoreOpBase {
 public:
  GetOp(Transaction& tr, BytesView key, bool snapshot)
      : StoreOpBase(tr, StepKind::read), key_(tr.copy_key(key)), snapshot_(snapshot) {}
  void complete() override;
  void add_observed(Digest128& into) const override;
  std::optional<Bytes> await_resume() { return std::move(result_); }

 private:
  KeyCopy key_;  // in the transaction's arena: the caller's bytes may not outlive the await
  bool snapshot_;
  std::optional<Bytes> result_;
};

class Transaction::RangeOp : public StoreOpBase {
 public:
  RangeOp(Transaction& tr, KeyRangeRef range, RangeOptions options)
      : StoreOpBase(tr, StepKind::read), range_(tr.copy_range(range)), options_(options) {}
  void complete() override;
  void add_observed(Digest128& into) const override;
  RangeResult await_resume() { return std::move(result_); }

 private:
  KeyRangeRef range_;  // in the transaction's arena, as GetOp's key
  RangeOptions options_;
  RangeResult result_;
};

class Transaction::CommitOp : public StoreOpBase {
 public:
  explicit CommitOp(Transaction& tr) : StoreOpBase(tr, StepKind::commit) {}
  void complete() override {
    error_ = tr_->do_commit();
    tr_->env().on_attempt_end(*tr_, error_);
  }
  void add_observed(Digest128& into) const override {
    into.add_u64(static_cast<std::uint64_t>(error_));
    into.add_i64(tr_->committed_version_);
  }
  ErrorCode await_resume() const { return error_; }

 private:
  ErrorCode error_ = ErrorCode::success;
};

class Transaction::OnErrorOp : public StoreOpBase {
 public:
  OnErrorOp(Transaction& tr, ErrorCode e, std::int64_t max_backoff_us);
  bool await_ready() const noexcept { return !contend::retried_by_on_error(error_); }
  void complete() override {}
  ErrorCode await_resume() const {
    return contend::retried_by_on_error(error_) ? ErrorCode::success : error_;
  }

 private:
  ErrorCode error_;
};

// A plain virtual-time delay (a recipe's polling back-off): a scheduling point like any other.
class DelayOp final : public PendingOp {
 public:
  DelayOp(Database db, std::int64_t us) : env_(db.env) {
    kind = StepKind::sleep;
    client = db.client;
    delay_us = us;
    inert = true;
  }
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiting) {
    continuation = awaiting;
    return env_->submit(*this);
  }
  void complete() override {}
  void await_resume() const noexcept {}

 private:
  Environment* env_;
};
inline DelayOp delay(Database db, std::int64_t us) {
  return DelayOp(db, us);
}

// Parks the awaiting client for good (Environment::park): it suspends and is never resumed; the
// world destroys its frame with the others'.
class ParkOp {
 public:
  explicit ParkOp(Database db) : env_(db.env), client_(db.client) {}
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> /*awaiting*/) {
    env_->park(client_);
    return std::noop_coroutine();
  }
  void await_resume() const { CONTEND_ASSERT(false, "a parked client is never resumed"); }

 private:
  Environment* env_;
  ClientId client_;
};
inline ParkOp park(Database db) {
  CONTEND_ASSERT(db.env->parks_unproductive_waits(), "only a world that parks may park a client");
  return ParkOp(db);
}

inline Transaction::ReadVersionOp Transaction::get_read_version() {
  return ReadVersionOp(*this);
}
inline Transaction::GetOp Transaction::get(BytesView key, bool snapshot) {
  return GetOp(*this, key, snapshot);
}
inline Transaction::RangeOp Transaction::get_range(KeyRangeRef range, RangeOptions options) {
  return RangeOp(*this, range, options);
}
inline Transaction::CommitOp Transaction::commit() {
  return CommitOp(*this);
}
inline Transaction::OnErrorOp Transaction::on_error(ErrorCode e, std::int64_t max_backoff_us) {
  return OnErrorOp(*this, e, max_backoff_us);
}

}  // namespace contend
