#include "fdb_c/transaction.h"

#include <algorithm>
#include <coroutine>
#include <cstring>
#include <utility>
#include <vector>

#include "base/invariant.h"
#include "fdb_c/api_version.h"
#include "fdb_c/commit_size.h"
#include "fdb_c/special_keys.h"
#include "sim/store/mutation.h"

namespace contend::fdb {

namespace {

using Lock = std::lock_guard<std::mutex>;

// FoundationDB's special key space (SystemData's specialKeys): RYW hands its writes to the
// special key space, which refuses them without SPECIAL_KEY_SPACE_ENABLE_WRITES (an option this
// library refuses) with special_keys_write_disabled.
constexpr BytesView kSpecialKeysBegin("\xff\xff", 2);
constexpr BytesView kSpecialKeysEnd("\xff\xff\xff", 3);

// specialKeys.contains(range): an empty range there too.
bool in_special_keys(KeyRangeRef range) {
  return !(range.begin < kSpecialKeysBegin) && !(kSpecialKeysEnd < range.end);
}

// NativeAPI's getMaxKeySize (which getMaxClearKeySize and getMaxReadKeySize answer): no key
// longer than this can exist, raw access included — a system key's limit is 30,000 bytes, any
// other's the key size limit and a tenant prefix of 8 bytes.
std::size_t max_key_size(BytesView key) {
  constexpr std::size_t kSystemKeySizeLimit = 30'000, kTenantPrefixSize = 8;
  return key.starts_with(kSystemKeysBegin) ? kSystemKeySizeLimit
                                           : kKeySizeLimit + kTenantPrefixSize;
}

// As RYW clear(KeyRangeRef) and add{Read,Write}ConflictRange shorten a range's ends: a key too
// long to exist becomes its first max_key_size + 1 bytes, which sort as it does against every key
// that can exist.
BytesView shortened_to_max_key_size(BytesView key) {
  const std::size_t max = max_key_size(key);
  return key.size() > max ? key.substr(0, max + 1) : key;
}

// FDBMutationType's versionstamped writes.
constexpr int kSetVersionstampedKey = 14, kSetVersionstampedValue = 15;
// The transaction option USE_GRV_CACHE.
constexpr int kUseGrvCache = 1101;
// The one range RYW's getRange serves itself below API 630 (every worker's interface).
constexpr BytesView kWorkerInterfacesKey("\xff\xff/worker_interfaces", 20);
// The metadata version key's only legal write (RYW atomicOp): SET_VERSIONSTAMPED_VALUE of
// SystemData.cpp's metadataVersionRequiredValue, 14 zero bytes (a versionstamp at offset 0).
constexpr BytesView kMetadataVersionRequiredValue("\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 14);

// As RYW addReadConflictRange: a read conflict range past \xff is legal when it is exactly the
// metadata version key's.
bool is_metadata_version_range(BytesView begin, BytesView end) {
  return begin == kMetadataVersionKey && end == BytesView(key_after(kMetadataVersionKey));
}

// A write of one key as RYW set and atomicOp count it: its mutation, and its write conflict range
// [key, key + \x00) if it may have one (a versionstamped key's never has).
WriteSize key_write_size(BytesView key, BytesView operand, bool may_conflict = true) {
  const auto k = static_cast<std::int64_t>(key.size());
  return {.mutation_bytes = kMutationRefBytes + k + static_cast<std::int64_t>(operand.size()),
          .conflict_range_bytes = may_conflict ? kKeyRangeRefBytes + 2 * k + 1 : 0};
}

Database database_for(World& world) {
  return Database{&world.store, &world.env, world.next_client++, 1000};
}

std::optional<MutationType> mutation_type(int operation) {
  switch (operation) {
    case 2:
      return MutationType::add;
    case 12:
      return MutationType::max;
    case 13:
      return MutationType::min;
    case 14:
      return MutationType::set_versionstamped_key;
    case 15:
      return MutationType::set_versionstamped_value;
    case 16:
      return MutationType::byte_min;
    case 17:
      return MutationType::byte_max;
    default:
      return std::nullopt;  // bit and/or/xor, append_if_fits, compare_and_clear: not modelled
  }
}

// The store's transaction for an attempt of this library's.
std::unique_ptr<Transaction> store_transaction(World& world) {
  auto tr = std::make_unique<Transaction>(database_for(world));
  tr->set_abort_target(std::noop_coroutine());
  tr->lift_size_limit();  // too_large() measures each commit as FoundationDB's client does
  return tr;
}

}  // namespace

TransactionState::TransactionState(World& world)
    : world_(world), tr_(store_transaction(world)), started_us_(world.env.now_us()) {}

TransactionState::~TransactionState() {
  std::vector<Future*> deliveries;
  {
    Lock lock(world_.mutex);
    settle_attempt(kTransactionCancelled, deliveries);
  }
  for (Future* f : deliveries)
    deliver_later(world_, f);
}

std::shared_ptr<TransactionState> make_transaction(World& world,
                                                   std::shared_ptr<DatabaseState> database) {
  CONTEND_ASSERT(database != nullptr, "a transaction belongs to a database");
  std::shared_ptr<TransactionState> state;
  {
    Lock lock(world.mutex);
    state = std::make_shared<TransactionState>(world);
    // RYW's constructor copies the database's transaction defaults and applies them.
    state->defaults_ = database->options.transaction_defaults;
    // ISingleThreadTransaction(cx->deferredError): a database that could not be made fails every
    // call of its transactions.
    state->sticky_ = database->initialization_error;
    state->database_ = std::move(database);
    state->options_ =
        options_with_defaults(state->defaults_, state->database_->options.snapshot_ryw_enabled);
  }
  state->self_ = state;
  return state;
}

fdb_error_t TransactionState::unusable() const {
  // ThreadSafeTransaction's reads and commit call checkDeferredError before RYW looks at its
  // resetPromise: a deferred error comes before what ended the attempt (a cancel, say).
  if (sticky_ != kSuccess) return sticky_;
  return ended_by();
}

fdb_error_t TransactionState::ended_by() const {
  if (used_during_commit_) return kUsedDuringCommit;
  if (cancelled_) return kTransactionCancelled;
  if (options_.timeout_ms > 0 && world_.env.now_us() > started_us_ + options_.timeout_ms * 1000)
    return kTransactionTimedOut;
  return kSuccess;
}

fdb_error_t TransactionState::refuses_use() {
  if (!commit_started_) {
    const fdb_error_t e = unusable();
    return e != kSuccess ? e : cluster_refusal_;
  }
  // ThreadSafeTransaction looks at the deferred error before RYW's checkUsedDuringCommit does.
  if (sticky_ != kSuccess) return sticky_;
  return used_during_commit();
}

fdb_error_t TransactionState::used_during_commit() {
  // checkUsedDuringCommit ends the attempt unless something ended it first (its resetPromise is
  // set once) or USED_DURING_COMMIT_PROTECTION_DISABLE is set; the call answers
  // used_during_commit either way.
  if (ended_by() == kSuccess && !options_.used_during_commit_protection_disabled) {
    used_during_commit_ = true;
    fail_backoffs(kUsedDuringCommit);
    fail_outstanding_commit(kUsedDuringCommit);
  }
  return kUsedDuringCommit;
}

fdb_error_t TransactionState::ended_by_or_cancelled() const {
  const fdb_error_t ended = ended_by();
  return ended != kSuccess ? ended : kTransactionCancelled;
}

fdb_error_t TransactionState::refuses_write() {
  // RYW's writes look at checkUsedDuringCommit alone: before the commit, a cancel or the timeout
  // does not refuse them (they are buffered, and counted in the approximate size).
  if (!commit_started_) return sticky_;
  const fdb_error_t e = refuses_use();
  if (e == kUsedDuringCommit) sticky_ = e;  // thrown on the network thread: the deferred error
  return e;
}

// ---- reads ----

namespace {
// Runs one read op to completion now; the error that abandoned it, or success.
template <class Op>
fdb_error_t run_op(Transaction& tr, Op& op) {
  op.complete();
  return code_of(tr.take_read_error());
}
}  // namespace

bool TransactionState::sees_own_writes(bool snapshot) const {
  return !options_.read_your_writes_disabled && !(snapshot && options_.snapshot_ryw_enabled <= 0);
}

fdb_error_t TransactionState::read_range(KeyRangeRef range, RangeOptions options, bool own_writes,
                                         RangeResult& out) {
  if (fdb_error_t e = reach_read_version()) return e;
  if (own_writes) {
    auto op = tr_->get_range(range, options);
    if (fdb_error_t e = run_op(*tr_, op)) return e;
    out = op.await_resume();
    return kSuccess;
  }
  return read_without_own_writes([&](Transaction& reader) -> fdb_error_t {
    auto op = reader.get_range(range, options);
    if (fdb_error_t e = run_op(reader, op)) return e;
    out = op.await_resume();
    return kSuccess;
  });
}

template <class Read>
fdb_error_t TransactionState::read_without_own_writes(Read&& read) {
  // The database at this transaction's read version, read by a scratch transaction whose conflict
  // ranges become this one's whole (the read did not see this transaction's writes, so it depends
  // on the database at their keys too).
  auto rv = tr_->get_read_version();
  rv.complete();
  Transaction reader(tr_->database());
  reader.set_abort_target(std::noop_coroutine());
  reader.set_read_version(*tr_->read_version());
  if (fdb_error_t e = read(reader)) return e;
  for (KeyRangeRef r : reader.read_conflict_ranges())
    tr_->add_read_conflict_range_whole(r);
  tr_->adopt_reads_of(reader);  // the transaction log's record of what this attempt read
  return kSuccess;
}

fdb_error_t TransactionState::read_key(BytesView key, bool snapshot, bool own_writes,
                                       std::optional<Bytes>& out) {
  // The store answers a key over its key size limit absent with no read conflict range, which
  // FoundationDB's get (RYW's and NativeAPI's) still takes up to getMaxReadKeySize.
  const Bytes after = key_after(key);
  const KeyRangeRef just_key{key, after};
  const bool conflict_past_store_limit =
      !snapshot && key.size() > kKeySizeLimit && key.size() <= max_key_size(key);
  if (fdb_error_t e = reach_read_version()) return e;
  if (own_writes) {
    auto op = tr_->get(key, snapshot);
    if (fdb_error_t e = run_op(*tr_, op)) return e;
    out = op.await_resume();
    if (conflict_past_store_limit) tr_->add_read_conflict_range(just_key);
    return kSuccess;
  }
  // A get of the database alone (the metadata version key too, which no range read reaches).
  return read_without_own_writes([&](Transaction& reader) -> fdb_error_t {
    auto op = reader.get(key, snapshot);
    if (fdb_error_t e = run_op(reader, op)) return e;
    out = op.await_resume();
    if (conflict_past_store_limit) reader.add_read_conflict_range_whole(just_key);
    for (KeyRangeRef r : reader.read_conflict_ranges())
      measured_read_ranges_.push_back(copy_of(r));
    return kSuccess;
  });
}

fdb_error_t TransactionState::resolve(const KeySelector& s, bool snapshot, bool own_writes,
                                      Bytes& out) {
  const Bytes system_begin(kSystemKeysBegin);
  if (s.offset >= 1) {
    Bytes from = strict_key(s);
    if (!(BytesView(from) < BytesView(system_begin))) {
      out = system_begin;
      return kSuccess;
    }
    RangeResult rows;
    RangeOptions options{.limit = s.offset, .snapshot = snapshot};
    if (fdb_error_t e = read_range(KeyRangeRef{from, system_begin}, options, own_writes, rows))
      return e;
    out = static_cast<int>(rows.size()) == s.offset ? rows.back().key : system_begin;
    return kSuccess;
  }
  Bytes to = strict_key(s);
  if (BytesView(system_begin) < BytesView(to)) to = system_begin;
  RangeResult rows;
  // The key -offset places before the last key under `to`: 1 - offset rows back, at most
  // INT_MAX (offset INT_MIN would overflow; no database here holds that many rows).
  const int wanted =
      static_cast<int>(std::min<std::int64_t>(1 - std::int64_t{s.offset}, INT32_MAX));
  RangeOptions options{.limit = wanted, .reverse = true, .snapshot = snapshot};
  if (fdb_error_t e = read_range(KeyRangeRef{Bytes(), to}, options, own_writes, rows)) return e;
  out = static_cast<int>(rows.size()) == wanted ? rows.back().key : Bytes();
  return kSuccess;
}

Future* TransactionState::get_read_version() {
  Lock lock(world_.mutex);
  if (fdb_error_t e = unusable()) return ready_later(world_, e);
  if (read_version_reset_by_commit_) {  // below API 700: asked anew, then kept
    if (!read_version_after_commit_) read_version_after_commit_ = world_.readable_version();
    return ready_later(world_, kSuccess, std::int64_t{*read_version_after_commit_});
  }
  auto op = tr_->get_read_version();
  op.complete();
  return ready_later(world_, kSuccess, std::int64_t{op.await_resume()});
}

void TransactionState::set_read_version(std::int64_t version) {
  Lock lock(world_.mutex);
  // ThreadSafeTransaction::setVersion runs unless a deferred error is held (doOnMainThreadVoid);
  // RYW's setVersion looks at nothing else — not a cancel, the timeout or a commit started —
  // and NativeAPI's refuses a second version (a commit with writes takes one when it starts).
  // A version the storage has not reached is taken too: reads find out (reach_read_version).
  if (sticky_ != kSuccess) return;
  if (read_version_held()) {
    sticky_ = kReadVersionAlreadySet;
  } else if (version <= 0) {
    sticky_ = kVersionInvalid;
  } else {
    take_read_version(version);
  }
}

fdb_error_t TransactionState::reach_read_version() {
  // FoundationDB 7.3's storage server waits up to FUTURE_VERSION_DELAY for a read's version, then
  // answers future_version. A version within that wait is granted at once, as storage that
  // reached it early would serve it (versions may run ahead of time): later commits land above
  // it. So is one the store has reached since it last granted a read version (set_read_version of
  // a version between that one and the clock's). A commit needs none granted
  // (sim/store/transaction.h).
  const std::optional<Version> version = tr_->read_version();
  if (!version || *version <= world_.store.granted_version()) return kSuccess;
  const Version reached = world_.store.version_reached(world_.env.store_time_us());
  if (*version - reached > kFutureVersionDelayUs) return code_of(ErrorCode::future_version);
  world_.store.grant_read_version_ahead(*version);
  return kSuccess;
}

bool TransactionState::read_version_held() const {
  // NativeAPI's commit takes a read version only for a commit with writes: after a read-only one
  // (that did not read), a version may still be set.
  if (read_version_reset_by_commit_) return read_version_after_commit_.has_value();
  return (commit_started_ && has_writes()) || tr_->read_version().has_value();
}

bool TransactionState::has_writes() const {
  return !tr_->mutations().empty() || !tr_->write_conflict_ranges().empty();
}

void TransactionState::take_read_version(Version version) {
  if (read_version_reset_by_commit_) {
    read_version_after_commit_ = version;
  } else {
    tr_->set_read_version(version);
  }
}

Future* TransactionState::get(BytesView key, bool snapshot) {
  Lock lock(world_.mutex);
  // RYW's get hands a special key to the special key space (from API 630; below, it is a key past
  // the legal range) before it looks at the commit or resetPromise; only ThreadSafeTransaction's
  // deferred error comes first.
  if (is_special_key(key) && api_version_at_least(kApiSpecialKeySpace)) return special_get(key);
  ReadCall call(world_.env);
  if (fdb_error_t e = refuses_use()) return ready_later(world_, e);
  // Then RYW's get answers a key past the legal range (but the metadata version key) and one
  // longer than any key can be (absent) before it reads: no read version is taken, no read fault
  // drawn, and READ_YOUR_WRITES_DISABLE stays allowed (nothing was added to RYW's `reading`).
  if (!(key < kSystemKeysBegin) && key != kMetadataVersionKey)
    return ready_later(world_, kKeyOutsideLegalRange);
  if (key.size() > max_key_size(key)) return ready_later(world_, kSuccess, std::optional<Bytes>{});
  read_or_written_ = true;
  std::optional<Bytes> value;
  const std::int64_t delay_us = world_.env.draw_us(world_.config.read_latency);
  if (fdb_error_t e = read_key(key, snapshot, sees_own_writes(snapshot), value))
    return ready_later(world_, e, {}, delay_us);
  return ready_later(world_, kSuccess, std::move(value), delay_us);
}

Future* TransactionState::get_key(const KeySelector& selector, bool snapshot) {
  Lock lock(world_.mutex);
  ReadCall call(world_.env);
  if (fdb_error_t e = refuses_use()) return ready_later(world_, e);
  if (past_legal_range(selector.key)) return ready_later(world_, kKeyOutsideLegalRange);
  read_or_written_ = true;
  Key key;
  if (fdb_error_t e = resolve(selector, snapshot, sees_own_writes(snapshot), key.key))
    return ready_later(world_, e);
  return ready_later(world_, kSuccess, std::move(key));
}

Future* TransactionState::get_range(const RangeRequest& r) {
  Lock lock(world_.mutex);
  ReadCall call(world_.env);
  int byte_limit = 0;
  if (fdb_error_t e = batch_bytes(r, byte_limit)) return ready_later(world_, e);
  if (reads_special_keys(r)) return special_range(r, byte_limit);
  // Below API 630, RYW's getRange answers a read from \xff\xff/worker_interfaces with every
  // worker's interface, whatever its end and limits: a module this library does not model.
  if (reads_worker_interfaces_below_630(r)) return ready_later(world_, kKeyOutsideLegalRange);
  if (fdb_error_t e = refuses_range_read(r)) return ready_later(world_, e);
  if (selects_nothing(r.begin, r.end)) return ready_later(world_, kSuccess, KeyValues{});
  read_or_written_ = true;
  KeyValues result;
  KeyRange read;
  std::int64_t delay_us = 0;
  if (fdb_error_t e =
          read_rows(r, sees_own_writes(r.snapshot), byte_limit, result, read, &delay_us))
    return ready_later(world_, e, {}, delay_us);
  return ready_later(world_, kSuccess, std::move(result), delay_us);
}

fdb_error_t TransactionState::refuses_range_read(const RangeRequest& r) {
  if (fdb_error_t e = refuses_use()) return e;
  if (past_legal_range(r.begin.key) || past_legal_range(r.end.key)) return kKeyOutsideLegalRange;
  if (r.limit < -1 || r.target_bytes < -1) return kRangeLimitsInvalid;
  return kSuccess;
}

fdb_error_t TransactionState::read_rows(const RangeRequest& r, bool own_writes, int byte_limit,
                                        KeyValues& result, KeyRange& read, std::int64_t* delay_us) {
  // With both selectors' offsets 1 (firstGreaterOrEqual, firstGreaterThan) the read of the rows
  // takes RYW's range (and NativeAPI's) itself.
  const bool selectors_resolved = r.begin.offset != 1 || r.end.offset != 1;
  if (r.snapshot || !selectors_resolved)
    return select_rows(r, own_writes, byte_limit, result, read, delay_us);
  // RYW (NativeAPI without it) resolves the selectors and reads the rows without conflict ranges
  // of their own, then takes one range made of the selectors' keys and the rows.
  const std::size_t logged_before = tr_->read_log().size();
  RangeRequest unchecked = r;
  unchecked.snapshot = true;
  if (fdb_error_t e = select_rows(unchecked, own_writes, byte_limit, result, read, delay_us))
    return e;
  std::optional<KeyRange> conflict;
  if (own_writes) {
    conflict = ryw_range_read_conflict(r, read, result.rows, result.more);
    if (conflict) tr_->add_read_conflict_range(*conflict);
  } else {
    conflict = native_range_read_conflict(r, read, result.rows, result.more);
    if (conflict) tr_->add_read_conflict_range_whole(*conflict);  // no writes to leave out
  }
  log_selected_rows(
      logged_before, read, conflict, result, r.reverse,
      own_writes ? Transaction::ReadSaw::own_writes : Transaction::ReadSaw::database_alone);
  return kSuccess;
}

void TransactionState::log_selected_rows(std::size_t logged_before, const KeyRange& read,
                                         const std::optional<KeyRange>& conflict,
                                         const KeyValues& rows, bool reverse,
                                         Transaction::ReadSaw saw) {
  // The rows as a read of the keys both the selectors resolved to and the conflict range hold:
  // all of the rows and nothing else there, which the conflict range keeps so until the commit.
  KeyRange logged;
  if (conflict) {
    logged.begin = std::max(read.begin, conflict->begin, KeyLess());
    logged.end = std::min(read.end, conflict->end, KeyLess());
  }
  const RangeOptions as_read{.limit = rows.more ? static_cast<int>(rows.rows.size()) : 0,
                             .reverse = reverse};
  tr_->log_read_in_place_of(logged_before, logged, as_read, rows.rows, saw);
}

fdb_error_t TransactionState::select_rows(const RangeRequest& r, bool own_writes, int byte_limit,
                                          KeyValues& result, KeyRange& read,
                                          std::int64_t* delay_us) {
  // firstGreaterOrEqual and firstGreaterThan name a range's end without reading.
  auto bound = [&](const KeySelector& s, Bytes& out) -> fdb_error_t {
    if (s.offset == 1) {
      out = strict_key(s);
      return kSuccess;
    }
    return resolve(s, r.snapshot, own_writes, out);
  };
  Bytes begin, end;
  if (fdb_error_t e = bound(r.begin, begin)) return e;
  if (fdb_error_t e = bound(r.end, end)) return e;
  const Bytes system_begin(kSystemKeysBegin);
  if (BytesView(system_begin) < BytesView(end)) end = system_begin;
  read = KeyRange{begin, end};
  if (!(BytesView(begin) < BytesView(end))) return kSuccess;
  const KeyRangeRef range{begin, end};
  int limit = std::max(r.limit, 0);
  if (byte_limit > 0) {
    // The rows a storage server returns within the byte limit (at least one; the one that reaches
    // it too): read without conflicts, then read those. A read the byte limit stopped has `more`,
    // even at the range's last row, as FoundationDB's storage server answers and RYW passes on.
    RangeResult probe;
    RangeOptions probe_options{.limit = limit, .reverse = r.reverse, .snapshot = true};
    if (fdb_error_t e = read_range(range, probe_options, own_writes, probe)) return e;
    const std::int64_t reply_bytes = std::min(byte_limit, kReplyByteLimit);
    std::int64_t bytes = 0;
    int fitting = 0;
    for (const KeyValue& kv : probe) {
      ++fitting;
      bytes +=
          kStorageRowOverheadBytes + static_cast<std::int64_t>(kv.key.size() + kv.value.size());
      if (bytes >= reply_bytes) {
        limit = fitting;
        break;
      }
    }
  }
  RangeOptions options{.limit = limit, .reverse = r.reverse, .snapshot = r.snapshot};
  if (delay_us != nullptr) *delay_us = world_.env.draw_us(world_.config.read_latency);
  if (fdb_error_t e = read_range(range, options, own_writes, result.rows)) return e;
  result.more = limit > 0 && static_cast<int>(result.rows.size()) == limit;
  return kSuccess;
}

bool TransactionState::reads_special_keys(const RangeRequest& r) {
  return api_version_at_least(kApiSpecialKeySpace) && is_special_key(r.begin.key) &&
         !(r.end.key < kSpecialKeysBegin) && !(kSpecialKeysEnd < r.end.key);
}

bool TransactionState::reads_worker_interfaces_below_630(const RangeRequest& r) {
  return !api_version_at_least(kApiSpecialKeySpace) && r.begin.key == kWorkerInterfacesKey;
}

TransactionModule TransactionState::module() const {
  // RYW's readConflicts and write map coalesce the ranges; without read-your-writes,
  // getReadConflictRangeIntersecting coalesces NativeAPI's alike.
  return TransactionModule{conflicting_keys_, coalesced(copy_of(tr_->read_conflict_ranges())),
                           coalesced(copy_of(tr_->write_conflict_ranges()))};
}

Future* TransactionState::special_get(BytesView key) {
  // After ThreadSafeTransaction's deferred error, SpecialKeySpace::get reads [key, key + \x00).
  if (sticky_ != kSuccess) return ready_later(world_, sticky_);
  const SpecialRangeRead read{.begin = {Bytes(key), 1},
                              .end = {key_after(key), 1},
                              .relaxed = options_.special_key_space_relaxed};
  SpecialRows out;
  if (fdb_error_t e = read_special_range(read, module(), out)) return ready_later(world_, e);
  CONTEND_ASSERT(out.rows.size() <= 1, "a get reads one key");
  std::optional<Bytes> value;
  if (!out.rows.empty()) value = std::move(out.rows.front().value);
  return ready_later(world_, kSuccess, std::move(value));
}

Future* TransactionState::special_range(const RangeRequest& r, int byte_limit) {
  // After ThreadSafeTransaction's deferred error, SpecialKeySpace::getRange checks the limits and
  // answers a range its selectors leave empty without reading, before it looks at modules.
  if (sticky_ != kSuccess) return ready_later(world_, sticky_);
  if (r.limit < -1 || r.target_bytes < -1) return ready_later(world_, kRangeLimitsInvalid);
  if (selects_nothing(r.begin, r.end)) return ready_later(world_, kSuccess, KeyValues{});
  const SpecialRangeRead read{.begin = {strict_key(r.begin), r.begin.offset},
                              .end = {strict_key(r.end), r.end.offset},
                              .row_limit = std::max(r.limit, 0),
                              .byte_limit = byte_limit,
                              .reverse = r.reverse,
                              .relaxed = options_.special_key_space_relaxed};
  SpecialRows out;
  if (fdb_error_t e = read_special_range(read, module(), out)) return ready_later(world_, e);
  KeyValues result;
  result.rows = std::move(out.rows);
  result.more = out.more;
  return ready_later(world_, kSuccess, std::move(result));
}

void TransactionState::note_conflicting_keys() {
  conflicting_keys_.clear();  // tryCommit resets conflictingKeys at every conflict it is told of
  if (!options_.report_conflicting_keys) return;  // the resolver named no range then
  const std::span<const KeyRangeRef> reads = tr_->read_conflict_ranges();
  std::vector<KeyRange> hits;
  for (std::size_t i : tr_->last_conflicting_read_ranges())
    hits.push_back(copy_of(reads[i]));
  CONTEND_ASSERT(!hits.empty(), "a conflict asked about names a read range");
  // With read-your-writes, the resolver saw RYW's coalesced read conflict ranges: each that holds
  // a conflicting read conflicted whole. Without, it saw NativeAPI's, each as made.
  conflicting_keys_ = options_.read_your_writes_disabled
                          ? coalesced(std::move(hits))
                          : components_hit(coalesced(copy_of(reads)), hits);
}

Future* TransactionState::estimated_range_size(BytesView begin, BytesView end) {
  Lock lock(world_.mutex);
  // fdb_c.cpp builds the KeyRangeRef, which refuses an inverted range, before the transaction
  // looks at anything.
  if (end < begin) return ready_later(world_, kInvertedRange);
  if (fdb_error_t e = refuses_use()) return ready_later(world_, e);
  std::int64_t bytes = 0;
  world_.store.scan(KeyRangeRef{begin, end}, world_.readable_version(), false,
                    [&](BytesView key, BytesView value) {
                      bytes += static_cast<std::int64_t>(key.size() + value.size());
                      return true;
                    });
  return ready_later(world_, kSuccess, bytes);
}

Future* TransactionState::range_split_points(BytesView begin, BytesView end,
                                             std::int64_t chunk_size) {
  Lock lock(world_.mutex);
  if (end < begin) return ready_later(world_, kInvertedRange);  // as estimated_range_size's
  if (fdb_error_t e = refuses_use()) return ready_later(world_, e);
  if (past_legal_range(end)) return ready_later(world_, kKeyOutsideLegalRange);
  if (chunk_size <= 0) return ready_later(world_, kInvalidOptionValue);
  KeyList points;
  points.keys.emplace_back(begin);
  std::int64_t bytes = 0;
  world_.store.scan(KeyRangeRef{begin, end}, world_.readable_version(), false,
                    [&](BytesView key, BytesView value) {
                      if (bytes >= chunk_size && key != BytesView(points.keys.back())) {
                        points.keys.emplace_back(key);
                        bytes = 0;
                      }
                      bytes += static_cast<std::int64_t>(key.size() + value.size());
                      return true;
                    });
  if (BytesView(points.keys.back()) != end) points.keys.emplace_back(end);
  return ready_later(world_, kSuccess, std::move(points));
}

// ---- writes ----

void TransactionState::keep_write_error() {
  if (ErrorCode e = tr_->write_error(); !ok(e)) sticky_ = code_of(e);
}

template <class Buffer>
void TransactionState::write(const Written& written, WriteSize size, Buffer&& buffer) {
  std::vector<Future*> fired;
  {
    Lock lock(world_.mutex);
    if (sticky_ != kSuccess) return;  // doOnMainThreadVoid skips the call
    const WriteConflict conflict = std::exchange(options_.next_write_no_write_conflict_range, false)
                                       ? WriteConflict::none
                                       : WriteConflict::add;
    if (refuses_write() != kSuccess) return;
    buffer(conflict);
    keep_write_error();
    if (sticky_ == kSuccess) {
      // RYW's write map holds what writes keys, an empty range not: READ_YOUR_WRITES_DISABLE is
      // refused from then on.
      if (!written.range.empty()) read_or_written_ = true;
      approximate_bytes_ += size.mutation_bytes;
      if (conflict == WriteConflict::add) approximate_bytes_ += size.conflict_range_bytes;
      // Once the attempt ended (a timeout not yet settled), its watches fail instead.
      if (ended_by() == kSuccess) fire_watches_written(written, fired);
      if (!fired.empty()) arm_timeout();  // none may wait now
    }
  }
  for (Future* f : fired)
    deliver_later(world_, f);
}

void TransactionState::fire_watches_written(const Written& written, std::vector<Future*>& fired) {
  std::erase_if(pending_watches_, [&](Watch& w) {
    if (!written.range.contains(w.key)) return false;
    // The value the watch read stays: a later write is compared with it (triggerWatches keeps the
    // value set, which equals it then).
    const bool unchanged = written.value_known && w.seen.has_value() == written.value.has_value() &&
                           (!w.seen || BytesView(*w.seen) == *written.value);
    if (unchanged) return false;
    if (w.future->set(kSuccess)) {
      fired.push_back(w.future);  // the watch's reference passes to the delivery
    } else {
      w.future->release();  // cancelled by the program
    }
    return true;
  });
}

void TransactionState::set(BytesView key, BytesView value) {
  // RYW set refuses the metadata version key (only a versionstamp may write it) first, before
  // checkUsedDuringCommit: even during a commit, which it does not fail.
  if (key == kMetadataVersionKey) {
    defer_error(kClientInvalidOperation);
    return;
  }
  // Then a special key goes to the special key space, which refuses it, still before
  // checkUsedDuringCommit (from API 700; below, it is a key past the legal range, but for the
  // three keys that send a reboot to the worker the value describes: no worker here, so those
  // answer as the rest).
  if (is_special_key(key) && api_version_at_least(kApiSpecialKeyWrites)) {
    defer_error(kSpecialKeysWriteDisabled);
    return;
  }
  const Bytes after = key_after(key);
  // RYW set counts the write in approximateSize before it checks the key's and the value's sizes,
  // but a set refused holds a deferred error, which get_approximate_size answers instead (7.3's
  // ThreadSafeTransaction checks it) until a reset or retry drops both: only an accepted set's
  // count is ever seen.
  write(Written{{key, after}, true, value}, key_write_size(key, value),
        [&](WriteConflict conflict) { tr_->set(key, value, conflict); });
}

void TransactionState::clear(BytesView key) {
  const Bytes after = key_after(key);
  const KeyRangeRef just_key{key, after};
  // RYW clear(KeyRef): after the legal range, a key too long to exist (max_key_size) is
  // no write at all.
  const bool may_exist = key.size() <= max_key_size(key);
  const KeyRangeRef cleared = may_exist ? just_key : KeyRangeRef{key, key};
  write(Written{cleared, true, std::nullopt}, {}, [&](WriteConflict conflict) {
    // RYW clear: the special key space before the legal range (from API 700).
    if (is_special_key(key) && api_version_at_least(kApiSpecialKeyWrites)) {
      sticky_ = kSpecialKeysWriteDisabled;
      return;
    }
    // The store's clear skips a key over the key size limit, which FoundationDB clears up to
    // max_key_size: as the range of that one key.
    if (may_exist && key.size() > kKeySizeLimit) {
      tr_->clear_range(just_key, conflict);
    } else {
      tr_->clear(key, conflict);
    }
    // With read-your-writes, RYW counts a clear that may clear something as [key, key + \x00):
    // its mutation (a KeyRangeRef's size, not a MutationRef's) and its write conflict range if it
    // has one. Without, it hands the clear to NativeAPI before counting it: not counted.
    if (ok(tr_->write_error()) && may_exist && !options_.read_your_writes_disabled) {
      approximate_bytes_ += range_bytes(just_key);
      if (conflict == WriteConflict::add) approximate_bytes_ += range_bytes(just_key);
    }
  });
}

void TransactionState::clear_range(BytesView begin, BytesView end) {
  if (end < begin) {  // ThreadSafeTransaction::clear's check, before RYW looks at the transaction
    defer_error(kInvertedRange);
    return;
  }
  // As RYW clear counts it, an empty range too: the mutation and the write conflict range.
  const KeyRangeRef range{begin, end};
  const WriteSize size{.mutation_bytes = kMutationRefBytes + range_bytes(range) - kKeyRangeRefBytes,
                       .conflict_range_bytes = range_bytes(range)};
  // RYW clear(KeyRangeRef) clears the range with ends too long to exist shortened, and nothing
  // when that leaves it empty (no mutation, no conflict range, no watch fired).
  const KeyRangeRef shortened{shortened_to_max_key_size(begin), shortened_to_max_key_size(end)};
  write(Written{shortened, true, std::nullopt}, size, [&](WriteConflict conflict) {
    // RYW clear: a range in the special key space goes there (from API 700), an empty one too;
    // then the legal range before anything else of the range (begin is not after end, so its
    // end tells).
    if (in_special_keys(range) && api_version_at_least(kApiSpecialKeyWrites)) {
      sticky_ = kSpecialKeysWriteDisabled;
    } else if (past_legal_range(end)) {
      sticky_ = kKeyOutsideLegalRange;
    } else {
      tr_->clear_range(shortened, conflict);
    }
  });
}

void TransactionState::atomic_op(BytesView key, BytesView param, int operation) {
  const Bytes after = key_after(key);
  // RYW atomicOp gives a versionstamped key no write conflict range (the commit adds one later).
  const WriteSize size = key_write_size(key, param, operation != kSetVersionstampedKey);
  write(Written{{key, after}, false, std::nullopt}, size, [&](WriteConflict conflict) {
    // FoundationDB's order: the legal range (the metadata version key takes its versionstamp
    // only), the type, then the key's and the operand's sizes.
    const std::optional<MutationType> type = mutation_type(operation);
    const bool metadata_version = key == kMetadataVersionKey;
    if (metadata_version &&
        (operation != kSetVersionstampedValue || param != kMetadataVersionRequiredValue)) {
      sticky_ = kClientInvalidOperation;
    } else if (!metadata_version && !(key < kSystemKeysBegin)) {
      sticky_ = kKeyOutsideLegalRange;
    } else if (!type) {
      sticky_ = kInvalidMutationType;
    } else {
      tr_->atomic_op(*type, key, param, conflict);
    }
  });
}

void TransactionState::defer_error(fdb_error_t error) {
  Lock lock(world_.mutex);
  if (sticky_ == kSuccess) sticky_ = error;
}

void TransactionState::fail_with(fdb_error_t error) {
  Lock lock(world_.mutex);
  if (refuses_write() == kSuccess) sticky_ = error;
}

fdb_error_t TransactionState::add_conflict_range(BytesView begin, BytesView end, int type) {
  Lock lock(world_.mutex);
  // fdb_c.cpp answers these in the call; the rest happens on FoundationDB's network thread, whose
  // errors become the transaction's deferred error (a commit outstanding fails with
  // used_during_commit) while the call answers success.
  if (end < begin) return kInvertedRange;
  if (type != 0 && type != 1) return kClientInvalidOperation;
  if (refuses_write() != kSuccess) return kSuccess;
  const bool metadata_version = type == 0 && is_metadata_version_range(begin, end);
  if (past_legal_range(end) && !metadata_version) {  // as FoundationDB's, even an empty range
    sticky_ = kKeyOutsideLegalRange;
    return kSuccess;
  }
  // Ends too long to exist shortened; nothing when that leaves the range empty.
  const KeyRangeRef range{shortened_to_max_key_size(begin), shortened_to_max_key_size(end)};
  if (range.empty()) return kSuccess;
  if (type == 0 && options_.read_your_writes_disabled) {
    tr_->add_read_conflict_range_whole(range);  // as FoundationDB's: no writes to leave out
    measured_read_ranges_.push_back(copy_of(range));
    approximate_bytes_ += range_bytes(range);
  } else if (type == 0) {
    tr_->add_read_conflict_range(range);  // counted with the reads' (approximate_size())
  } else {
    tr_->add_write_conflict_range(range);
    added_write_ranges_.push_back(copy_of(range));
    approximate_bytes_ += range_bytes(range);
    read_or_written_ = true;  // FoundationDB's write map holds it: no READ_YOUR_WRITES_DISABLE now
  }
  return kSuccess;
}

Future* TransactionState::watch(BytesView key) {
  Lock lock(world_.mutex);
  if (fdb_error_t e = refuses_use()) return ready_later(world_, e);
  if (options_.read_your_writes_disabled) return ready_later(world_, kWatchesDisabled);
  // FoundationDB's order: the legal range (the metadata version key is in it), then the key size.
  if (!(key < kSystemKeysBegin) && key != kMetadataVersionKey)
    return ready_later(world_, kKeyOutsideLegalRange);
  if (key.size() > kKeySizeLimit) return ready_later(world_, code_of(ErrorCode::key_too_large));
  // As FoundationDB's: a watch is a read of its key (its conflict range too); it fires once the
  // key differs from the value read, or at once when this transaction writes the key. RYW's
  // watch adds it to `reading` first: READ_YOUR_WRITES_DISABLE is refused from then on.
  read_or_written_ = true;
  ReadCall call(world_.env);
  std::optional<Bytes> seen;
  if (fdb_error_t e = read_key(key, false, sees_own_writes(false), seen))
    return ready_later(world_, e);
  // Once its read returned, NativeAPI's Transaction::watch counts it with the database's
  // outstanding watches, or answers too_many_watches at the database's MAX_WATCHES.
  if (!database_->has_room_for_a_watch()) return ready_later(world_, kTooManyWatches);
  auto* future = new Future;
  future->retain();
  pending_watches_.push_back(
      Watch{Bytes(key), std::move(seen), future, WatchSlot(database_, future)});
  arm_timeout();
  return future;
}

// ---- commit and retry ----

Future* TransactionState::commit() {
  Lock lock(world_.mutex);
  if (fdb_error_t e = refuses_use()) return ready_later(world_, e);
  commit_started_ = true;
  auto* future = new Future;
  future->retain();
  std::shared_ptr<TransactionState> self = self_.lock();
  CONTEND_ASSERT(self != nullptr, "a transaction is owned by its handle while it is used");
  const std::int64_t delay_us = world_.env.draw_us(world_.config.commit_latency);
  const std::uint64_t attempt = attempt_;
  if (!world_.network.post([self, future, attempt] { self->finish_commit(future, attempt); },
                           delay_us)) {
    future->set(kOperationFailed);
    deliver_later(world_, future);
    return future;
  }
  outstanding_commit_ = future;
  arm_timeout();
  return future;
}

void TransactionState::fail_outstanding_commit(fdb_error_t error) {
  Future* commit = std::exchange(outstanding_commit_, nullptr);
  if (commit == nullptr || !commit->set(error)) return;  // none, or cancelled by the program
  commit->retain();  // the delivery's reference; the commit's task keeps its own
  deliver_later(world_, commit);
}

void TransactionState::leave_commit_behind() {
  Future* commit = std::exchange(outstanding_commit_, nullptr);
  if (commit == nullptr) return;
  const fdb_error_t refusal = commit_refusal();  // the attempt's, before tr_ is replaced
  std::unique_ptr<Transaction> fresh = store_transaction(world_);
  fresh->continue_backoff_of(*tr_);
  commit->retain();  // the list's reference: the commit's task may end before the backoff
  commits_left_behind_.push_back(CommitLeftBehind{commit, std::exchange(tr_, std::move(fresh)),
                                                  refusal,
                                                  std::exchange(versionstamp_futures_, {})});
}

fdb_error_t TransactionState::commit_left_behind(CommitLeftBehind& left,
                                                 std::vector<Future*>& deliveries) {
  const std::unique_ptr<Transaction> attempt = std::move(left.attempt);
  if (left.refusal != kSuccess) return left.refusal;
  auto op = attempt->commit();
  op.complete();
  world_.log.record(*attempt, op.await_resume());
  // Its conflicting keys and committed version were NativeAPI's old TransactionState's, which the
  // retry replaced: the current attempt's stay as they are. So was the versionstamp promise: a
  // failed commit leaves the versionstamp futures to the resetPromise.
  world_.check_watches(deliveries);
  if (ok(op.await_resume()) && attempt->committed_version() != kInvalidVersion) {
    for (Future* f : std::exchange(left.versionstamps, {})) {
      f->set(kSuccess, Key{*attempt->versionstamp()});
      deliveries.push_back(f);
    }
  }
  return code_of(op.await_resume());
}

void TransactionState::finish_commit(Future* future, std::uint64_t attempt) {
  std::vector<Future*> deliveries;
  bool answered = false;
  {
    Lock lock(world_.mutex);
    if (outstanding_commit_ == future) outstanding_commit_ = nullptr;
    const auto left_behind = [&](const CommitLeftBehind& c) { return c.future == future; };
    if (attempt == attempt_) {
      answered = future->set(commit_now(deliveries));  // not when the program cancelled it
    } else if (const auto left = std::find_if(commits_left_behind_.begin(),
                                              commits_left_behind_.end(), left_behind);
               left != commits_left_behind_.end()) {
      answered = future->set(commit_left_behind(*left, deliveries));
      future->release();  // the list's reference; the task's is released below
      left->future = nullptr;
      if (left->versionstamps.empty()) commits_left_behind_.erase(left);
    }
    // Else it was reset, or its retry's backoff ended (or something failed RYW's resetPromise)
    // first: answered then, and its writes are gone.
  }
  for (Future* f : deliveries) {
    f->deliver();
    f->release();
  }
  if (answered) future->deliver();
  future->release();
}

fdb_error_t TransactionState::commit_refusal() const {
  if (has_writes() && options_.read_only) return kTransactionReadOnly;
  if (too_large()) return code_of(ErrorCode::transaction_too_large);
  return kSuccess;
}

fdb_error_t TransactionState::commit_now(std::vector<Future*>& deliveries) {
  // As RYW's commit, which waits on its resetPromise: what ended the attempt fails the commit; a
  // deferred error left since the call (an option's, say) does not.
  const fdb_error_t ended = ended_by();
  fdb_error_t result = ended;
  // Below API 700, NativeAPI's commitAndWatch resets its transaction once the commit it ran is
  // answered, committed or not (RYW's own state stays: a use is still one during the commit).
  if (result == kSuccess && !api_version_at_least(kApiCommitKeepsReadVersion))
    read_version_reset_by_commit_ = true;
  // NativeAPI's commitMutations: a commit without writes is answered at once; then a read-only
  // transaction's is refused (READ_LOCK_AWARE), before its size is measured.
  if (result == kSuccess) result = commit_refusal();
  if (result == kSuccess) {
    tr_->set_report_conflicting_read_ranges(options_.report_conflicting_keys);
    auto op = tr_->commit();
    op.complete();
    result = code_of(op.await_resume());
    world_.log.record(*tr_, op.await_resume());
    if (op.await_resume() == ErrorCode::not_committed && tr_->last_conflict())
      note_conflicting_keys();
  }
  committed_version_ = result == kSuccess ? tr_->committed_version() : kInvalidVersion;
  if (ended) {
    end_waits(result, deliveries);  // RYW's commit answered; NativeAPI's never ran: watches wait
  } else {
    settle_attempt(result, deliveries);
  }
  world_.check_watches(deliveries);
  return result;
}

void TransactionState::end_waits(fdb_error_t error, std::vector<Future*>& deliveries) {
  const bool applied = error == kSuccess && tr_->committed_version() != kInvalidVersion;
  for (Future* f : versionstamp_futures_) {
    if (error == kTransactionCancelled || error == kTransactionTimedOut) {
      f->set(error);  // reset, retried, cancelled, timed out or destroyed before the commit
    } else if (error != kSuccess) {
      f->set(kTransactionInvalidVersion);  // as FoundationDB's commitAndWatch, for any failure
    } else if (applied) {
      f->set(kSuccess, Key{*tr_->versionstamp()});
    } else {
      f->set(kNoCommitVersion);
    }
    deliveries.push_back(f);
  }
  versionstamp_futures_.clear();
  // RYW's watch waits on the resetPromise too until its read returns, which RYW's commit waits
  // for: taken here to return when the commit starts (a read may take that long).
  if (!commit_started_) cancel_watches(error, deliveries);
  disarm_timeout();
}

void TransactionState::cancel_watches(fdb_error_t error, std::vector<Future*>& deliveries) {
  for (Watch& w : pending_watches_) {
    w.future->set(error);
    deliveries.push_back(w.future);
  }
  pending_watches_.clear();
}

void TransactionState::settle_attempt(fdb_error_t error, std::vector<Future*>& deliveries) {
  end_waits(error, deliveries);
  if (error != kSuccess) {
    cancel_watches(error, deliveries);
    return;
  }
  for (Watch& w : pending_watches_)
    world_.watches.join(std::move(w));  // its reference (and its count) pass to the world
  pending_watches_.clear();
}

void TransactionState::arm_timeout() {
  disarm_timeout();
  const bool watches_reading = !pending_watches_.empty() && !commit_started_;
  const bool waiting = !versionstamp_futures_.empty() || watches_reading ||
                       outstanding_commit_ != nullptr || !backoffs_.empty() ||
                       !commits_left_behind_.empty();
  if (!waiting || options_.timeout_ms <= 0 || ended_by() != kSuccess) return;
  // ended_by() counts the attempt timed out once the clock is past the deadline.
  const std::int64_t past_deadline_us = started_us_ + options_.timeout_ms * 1000 + 1;
  const std::int64_t delay_us = std::max<std::int64_t>(0, past_deadline_us - world_.env.now_us());
  std::weak_ptr<TransactionState> weak = self_;
  timeout_timer_ = world_.network.post_cancellable(
      [weak] {
        if (std::shared_ptr<TransactionState> self = weak.lock()) self->on_timeout();
      },
      delay_us);
}

void TransactionState::disarm_timeout() {
  if (timeout_timer_) world_.network.cancel(*timeout_timer_);
  timeout_timer_.reset();
}

void TransactionState::on_timeout() {
  std::vector<Future*> deliveries;
  {
    Lock lock(world_.mutex);
    timeout_timer_.reset();  // it is running: nothing to cancel
    if (ended_by() == kTransactionTimedOut) {
      fail_backoffs(kTransactionTimedOut);
      fail_outstanding_commit(kTransactionTimedOut);
      end_waits(kTransactionTimedOut, deliveries);
    } else {
      arm_timeout();
    }
  }
  for (Future* f : deliveries)
    deliver_later(world_, f);
}

fdb_error_t TransactionState::committed_version(std::int64_t* out) {
  Lock lock(world_.mutex);
  // FoundationDB's has no check (a cancel does not hide it); -1 unless the commit succeeded.
  *out = committed_version_;
  return kSuccess;
}

bool TransactionState::too_large() const {
  // As NativeAPI commitMutations: a commit without writes is not measured; the others are, by
  // getSize of the request FoundationDB's client would send (commit_size.h), against SIZE_LIMIT
  // or TRANSACTION_SIZE_LIMIT.
  if (!has_writes()) return false;
  const bool read_your_writes = !options_.read_your_writes_disabled;
  const std::vector<KeyRangeRef> measured(measured_read_ranges_.begin(),
                                          measured_read_ranges_.end());
  const std::int64_t bytes = commit_request_bytes(CommitContents{
      .writes = tr_->mutations(),
      .added_write_ranges = added_write_ranges_,
      .read_ranges =
          read_your_writes ? tr_->read_conflict_ranges() : std::span<const KeyRangeRef>(measured),
      .read_your_writes = read_your_writes,
  });
  const std::int64_t limit = options_.size_limit_bytes > 0
                                 ? options_.size_limit_bytes
                                 : static_cast<std::int64_t>(kTransactionSizeLimit);
  return bytes > limit;
}

Future* TransactionState::approximate_size() {
  Lock lock(world_.mutex);
  // 7.3's ThreadSafeTransaction::getApproximateSize checks the deferred error; RYW then answers
  // its count even once cancelled or timed out: its approximateSize, what the writes and conflict
  // ranges added, and with read-your-writes each read conflict range its reads left (RYW
  // updateConflictMap); without, reads add nothing. A reset or retry starts it afresh; a cancel
  // keeps it.
  if (sticky_ != kSuccess) return ready_later(world_, sticky_);
  std::int64_t bytes = approximate_bytes_;
  if (!options_.read_your_writes_disabled) {
    for (KeyRangeRef r : tr_->read_conflict_ranges())
      bytes += range_bytes(r);
  }
  return ready_later(world_, kSuccess, bytes);
}

Future* TransactionState::addresses_for_key(BytesView key) {
  Lock lock(world_.mutex);
  if (fdb_error_t e = refuses_use()) return ready_later(world_, e);
  // RYW adds the lookup to `reading` (READ_YOUR_WRITES_DISABLE is refused from then on); NativeAPI
  // names no address for a key at or past \xff\xff, the end of every key.
  read_or_written_ = true;
  if (is_special_key(key)) return ready_later(world_, kSuccess, StringList{});
  // NativeAPI's getAddressesForKey names the port when the transaction's includePort is set:
  // from API 630 always, below by INCLUDE_PORT_IN_ADDRESS (or the database's default of it).
  const bool port =
      api_version_at_least(kApiAddressesIncludePort) || options_.include_port_in_address;
  StringList one;
  one.strings.emplace_back(port ? kStoreAddress : kStoreIp);
  return ready_later(world_, kSuccess, std::move(one));
}

Future* TransactionState::versionstamp() {
  Lock lock(world_.mutex);
  // 7.3's ThreadSafeTransaction::getVersionstamp checks the deferred error; once the commit
  // started, RYW's checkUsedDuringCommit answers.
  if (sticky_ != kSuccess) return ready_later(world_, sticky_);
  if (commit_started_) return ready_later(world_, used_during_commit());
  // RYW's getVersionstamp waits on its resetPromise too: what ended the attempt answers.
  if (fdb_error_t e = ended_by()) return ready_later(world_, e);
  auto* future = new Future;
  future->retain();
  versionstamp_futures_.push_back(future);
  arm_timeout();
  return future;
}

Future* TransactionState::tag_throttled_duration() {
  Lock lock(world_.mutex);
  if (sticky_ != kSuccess) return ready_later(world_, sticky_);
  // The 5 s NativeAPI's onError adds for proxy_tag_throttled is dropped by the reset that follows
  // it (cloneAndReset does not copy it).
  return ready_later(world_, kSuccess, DoubleValue{0.0});
}

Future* TransactionState::not_modelled() {
  Lock lock(world_.mutex);
  return ready_later(world_, sticky_ != kSuccess ? sticky_ : kUnsupportedOperation);
}

Future* TransactionState::on_error(fdb_error_t error) {
  std::vector<Future*> deliveries;
  Future* future = nullptr;
  {
    Lock lock(world_.mutex);
    const auto e = static_cast<ErrorCode>(error);
    const bool limit_hit = options_.retry_limit >= 0 && retries_ >= options_.retry_limit;
    if (e == ErrorCode::cluster_version_changed) {
      future = ready_later(world_, kSuccess);
      replace_for_cluster_version_change(deliveries);
    } else if (fdb_error_t ended = ended_by()) {
      future = ready_later(world_, ended);  // FoundationDB's resetPromise: no retry from here
      fail_outstanding_commit(ended);
    } else if (error == kSuccess || !retried_by_on_error(e) || limit_hit) {
      // As FoundationDB's onError: the error is answered and the transaction is cancelled, until
      // a reset. Success is NativeAPI's client_invalid_operation; past the retry limit RYW
      // rethrows it before NativeAPI sees it, and flow refuses to send success as a future's
      // error: its ASSERT throws internal_error, which onMainThread answers.
      const fdb_error_t success_answer = limit_hit ? kInternalError : kClientInvalidOperation;
      future = ready_later(world_, error == kSuccess ? success_answer : error);
      cancelled_ = true;
      fail_backoffs(kTransactionCancelled);
      fail_outstanding_commit(kTransactionCancelled);
      end_waits(kTransactionCancelled, deliveries);
    } else {
      leave_commit_behind();  // a commit outstanding goes on with the attempt it belongs to
      settle_attempt(kTransactionCancelled, deliveries);
      // Backs off (MAX_RETRY_DELAY caps the backoff's growth, not the delay drawn below it, as
      // NativeAPI's getBackoff), and resets the attempt.
      const std::int64_t max_backoff_us =
          options_.max_retry_delay_ms >= 0 ? options_.max_retry_delay_ms * 1000 : kMaxBackoffUs;
      const Transaction::OnErrorOp op = tr_->on_error(e, max_backoff_us);
      const std::int64_t delay_us = op.delay_us;
      ++retries_;
      begin_attempt();
      options_ = options_after_retry(options_, defaults_, database_->options.snapshot_ryw_enabled);
      future = back_off(delay_us);
      arm_timeout();
    }
  }
  for (Future* f : deliveries)
    deliver_later(world_, f);
  return future;
}

Future* TransactionState::back_off(std::int64_t delay_us) {
  auto* future = new Future;
  future->retain();  // the backoff task's reference
  std::shared_ptr<TransactionState> self = self_.lock();
  CONTEND_ASSERT(self != nullptr, "a transaction is owned by its handle while it is used");
  if (!world_.network.post([self, future] { self->finish_backoff(future); }, delay_us)) {
    // No room for the task: answered without the backoff, whose end (resetRyow) comes at once.
    if (fail_backoffs(kTransactionCancelled) && ended_by() == kSuccess) cancelled_ = true;
    future->set(kSuccess);
    deliver_later(world_, future);
    return future;
  }
  backoffs_.push_back(future);
  return future;
}

void TransactionState::finish_backoff(Future* future) {
  bool answered = false;
  {
    Lock lock(world_.mutex);
    const auto it = std::find(backoffs_.begin(), backoffs_.end(), future);
    if (it != backoffs_.end()) {  // else something failed it first
      backoffs_.erase(it);
      if (fail_backoffs(kTransactionCancelled) && ended_by() == kSuccess) cancelled_ = true;
      answered = future->set(kSuccess);  // not when the program cancelled it
      arm_timeout();
    }
  }
  if (answered) future->deliver();
  future->release();
}

bool TransactionState::fail_backoffs(fdb_error_t error) {
  for (CommitLeftBehind& left : std::exchange(commits_left_behind_, {})) {
    if (Future* commit = left.future; commit != nullptr && commit->set(error)) {
      deliver_later(world_, commit);  // the list's reference goes to the delivery
    } else if (commit != nullptr) {
      commit->release();  // cancelled by the program
    }
    for (Future* f : left.versionstamps) {
      f->set(error);             // not when the program cancelled it
      deliver_later(world_, f);  // its reference goes to the delivery
    }
  }
  const std::vector<Future*> failing = std::exchange(backoffs_, {});
  for (Future* f : failing) {
    if (!f->set(error)) continue;  // cancelled by the program
    f->retain();                   // the delivery's reference; the backoff's task keeps its own
    deliver_later(world_, f);
  }
  return !failing.empty();
}

void TransactionState::begin_attempt() {
  CONTEND_ASSERT(outstanding_commit_ == nullptr, "what ends an attempt answers its commit");
  // The database's error comes back in every attempt (NativeAPI checks its DatabaseContext's).
  sticky_ = database_->initialization_error;
  approximate_bytes_ = 0;
  added_write_ranges_.clear();
  measured_read_ranges_.clear();
  read_or_written_ = false;
  commit_started_ = false;  // a commit still outstanding belongs to the attempt left behind
  used_during_commit_ = false;
  committed_version_ = kInvalidVersion;
  read_version_reset_by_commit_ = false;
  read_version_after_commit_.reset();
  ++attempt_;
}

void TransactionState::replace_for_cluster_version_change(std::vector<Future*>& deliveries) {
  // The old transaction's destruction (RYW's destructor fails its resetPromise).
  fail_backoffs(ended_by_or_cancelled());
  fail_outstanding_commit(ended_by_or_cancelled());
  settle_attempt(kTransactionCancelled, deliveries);
  // The new one's: a fresh RYW (its constructor applies the database's defaults), then the
  // multi-version transaction's persistent options — the defaults this one was created or last
  // reset with, and the persistent options set since (options_after_retry keeps them).
  TransactionDefaults defaults = database_->options.transaction_defaults;
  for (const OptionSetting& s : defaults_) {
    std::erase_if(defaults, [&](const OptionSetting& d) { return d.code == s.code; });
    defaults.push_back(s);
  }
  defaults_ = std::move(defaults);
  options_ = options_after_retry(options_, defaults_, database_->options.snapshot_ryw_enabled);
  begin_transaction(false);
}

void TransactionState::begin_transaction(bool cancelled) {
  tr_->reset();
  tr_->restore_backoff();  // FoundationDB's fullReset: a new transaction backs off afresh
  cancelled_ = cancelled;
  begin_attempt();
  retries_ = 0;
  started_us_ = world_.env.now_us();
}

void TransactionState::reset() {
  std::vector<Future*> deliveries;
  {
    Lock lock(world_.mutex);
    fail_outstanding_commit(ended_by_or_cancelled());
    settle_attempt(kTransactionCancelled, deliveries);
    // RYW's reset fails the resetPromise an on_error backing off waits on once it has made the
    // new one: that on_error's catch then cancels the new one, so the reset transaction is
    // cancelled.
    begin_transaction(fail_backoffs(kTransactionCancelled));
    // RYW's reset: the database's transaction defaults as they are now, and nothing else.
    defaults_ = database_->options.transaction_defaults;
    options_ = options_with_defaults(defaults_, database_->options.snapshot_ryw_enabled);
  }
  for (Future* f : deliveries)
    deliver_later(world_, f);
}

void TransactionState::refuse_cluster_use_with(fdb_error_t error) {
  Lock lock(world_.mutex);
  cluster_refusal_ = error;
}

void TransactionState::cancel() {
  std::vector<Future*> deliveries;
  {
    Lock lock(world_.mutex);
    // RYW's cancel sends transaction_cancelled to its resetPromise unless something (the timeout,
    // a use during the commit) ended the attempt first: the first error sent stays.
    if (ended_by() == kSuccess) cancelled_ = true;
    fail_backoffs(ended_by());
    fail_outstanding_commit(ended_by());
    end_waits(kTransactionCancelled, deliveries);
  }
  for (Future* f : deliveries)
    deliver_later(world_, f);
}

fdb_error_t TransactionState::set_option(int option, BytesView value, bool has_value) {
  Lock lock(world_.mutex);
  TransactionOptions changed = options_;
  fdb_error_t e = kSuccess;
  if (option == kReadYourWritesDisableOption && !value.empty()) {
    e = kInvalidOptionValue;  // it takes no value (FoundationDB's validateOptionValueNotPresent)
  } else if (option == kReadYourWritesDisableOption && read_or_written_) {
    e = kClientInvalidOperation;
  } else {
    e = apply_option(changed, option, value, has_value);
  }
  // NativeAPI's USE_GRV_CACHE, once its value is checked: from API 720 it wants the cluster's
  // shared state, which only the multi-version client makes (api_version.h); a deferred error.
  const bool grv_cache_refused = e == kSuccess && option == kUseGrvCache &&
                                 api_version_at_least(kApiGrvCacheNeedsSharedState) &&
                                 !database_->has_cluster_shared_state;
  // fdb_c.cpp answers an option it does not know (and this library one it does not model) in the
  // call; the option's own checks run on FoundationDB's network thread, so their error is the
  // transaction's deferred error: the call answers success, later reads and the commit the error.
  if (e == kInvalidOption) return e;
  // ThreadSafeTransaction::setOption runs the option through onMainThreadVoid, whose
  // doOnMainThreadVoid skips it while the transaction holds a deferred error: it is not applied.
  if (sticky_ != kSuccess) return kSuccess;
  if (grv_cache_refused) {
    sticky_ = kInvalidOption;
  } else if (e == kSuccess && option == kInitializeNewDatabase && read_version_held()) {
    sticky_ = kReadVersionAlreadySet;
  } else if (e == kSuccess) {
    // NativeAPI's INITIALIZE_NEW_DATABASE reads at version 0 (causalWriteRisky too, which changes
    // nothing here): a read once that version left the MVCC window answers transaction_too_old.
    if (option == kInitializeNewDatabase) take_read_version(0);
    options_ = changed;
    if (timeout_timer_ || changed.timeout_ms > 0) arm_timeout();  // TIMEOUT moves the deadline
  } else {
    sticky_ = e;
  }
  return kSuccess;
}

}  // namespace contend::fdb
