#include "sim/store/transaction.h"

#include <algorithm>
#include <memory>

#include "base/invariant.h"
#include "sim/store/mutants.h"

namespace contend {

namespace {
constexpr BytesView kSystemKeysBegin("\xff", 1);

// The errors of a cluster short of resources: NativeAPI's getBackoff grows the backoff for them up
// to RESOURCE_CONSTRAINED_MAX_BACKOFF, whatever the transaction's own maximum.
bool resource_constrained(ErrorCode e) {
  return e == ErrorCode::commit_proxy_memory_limit_exceeded ||
         e == ErrorCode::grv_proxy_memory_limit_exceeded ||
         e == ErrorCode::transaction_throttled_hot_shard;
}

// A key no write or read of a client may name: \xff and after (the system keys).
bool is_system_key(BytesView key) {
  return compare_bytes(key, kSystemKeysBegin) >= 0;
}
}  // namespace

// ---- pooled buffers ----

namespace {
// Spare slots a pooled buffer keeps after a transaction, and buffers the pool keeps: bounds what a
// one-off huge transaction, or a moment with many clients, leaves allocated.
constexpr std::size_t kPooledSlotsMax = 256;
constexpr std::size_t kPooledBuffersMax = 1024;
}  // namespace

void Transaction::Buffers::clear() {
  arena.clear();
  writes.clear();
  cleared.clear();
  versionstamped_key_ranges.clear();
  mutations.clear();
  read_log.clear();
  read_ranges.clear();
  read_range_steps.clear();
  write_ranges.clear();
}

// One pool per thread (a run on another thread is another world). It owns the idle buffers and
// frees them when the thread ends; a transaction destroyed after that (a static one) frees its
// own. Recycling storage is all it does: it never affects results.
namespace {
thread_local bool buffer_pool_gone = false;  // trivially destructible: readable at thread exit
}  // namespace

struct Transaction::BufferPool {
  std::vector<std::unique_ptr<Buffers>> idle;
  ~BufferPool() { buffer_pool_gone = true; }
};

namespace {
thread_local Transaction::BufferPool buffer_pool;
}  // namespace

// Buffers come out of the pool (or new) empty, and go back cleared.
Transaction::Buffers* Transaction::acquire_buffers() {
  if (buffer_pool_gone || buffer_pool.idle.empty()) return new Buffers();
  Buffers* b = buffer_pool.idle.back().release();
  buffer_pool.idle.pop_back();
  return b;
}

void Transaction::release_buffers(Buffers* b) {
  if (buffer_pool_gone || buffer_pool.idle.size() >= kPooledBuffersMax) {
    delete b;
    return;
  }
  b->clear();
  b->writes.trim_spares(kPooledSlotsMax);
  buffer_pool.idle.emplace_back(b);
}

Transaction::~Transaction() {
  release_buffers(buffers_);
}

Transaction::Transaction(Database db) : db_(db), buffers_(acquire_buffers()) {
  CONTEND_ASSERT(db.store != nullptr && db.env != nullptr, "a transaction needs a database");
  start_attempt();
}

void Transaction::reset() {
  buffers_->clear();
  start_attempt();
}

void Transaction::start_attempt() {
  read_version_.reset();
  size_bytes_ = 0;
  wrote_without_conflict_range_ = false;
  sticky_error_ = ErrorCode::success;
  read_error_ = ErrorCode::success;
  committed_version_ = kInvalidVersion;
  step_ = {};
  last_conflicting_read_ranges_.clear();  // its indices named ranges the reset forgets
  transaction_id_ = db_.store->next_transaction_id();
}

std::optional<Bytes> Transaction::versionstamp() const {
  if (committed_version_ == kInvalidVersion) return std::nullopt;
  return make_versionstamp(committed_version_, 0);
}

ErrorCode Transaction::check_write(BytesView key, std::size_t value_size,
                                   bool metadata_version) const {
  if (is_system_key(key) && !metadata_version) return ErrorCode::key_outside_legal_range;
  if (key.size() > kKeySizeLimit) return ErrorCode::key_too_large;
  if (value_size > kValueSizeLimit) return ErrorCode::value_too_large;
  return ErrorCode::success;
}

void Transaction::take_read_version_if_needed() {
  if (read_version_) return;
  read_version_ = db_.store->grant_read_version(env().store_time_us());
  if (FootprintSink* sink = env().footprints()) sink->on_read_version(*this);
}

// ---- the sorted write map ----

const Transaction::WriteEntry* Transaction::write_lower_bound(BytesView key) const {
  return std::lower_bound(writes_.begin(), writes_.end(), key,
                          [](const WriteEntry& e, BytesView k) { return KeyLess()(e.key, k); });
}

const Transaction::WriteEntry* Transaction::find_write(BytesView key) const {
  const WriteEntry* w = write_lower_bound(key);
  return w != writes_.end() && w->key == key ? w : nullptr;
}

Transaction::WriteEntry& Transaction::write_entry(BytesView key) {
  // A key after every key written so far (the first write, or keys written in order) appends
  // without a search.
  std::size_t index = writes_.size();
  if (!writes_.empty() && compare_bytes(writes_.back().key, key) >= 0) {
    index = static_cast<std::size_t>(write_lower_bound(key) - writes_.begin());
    if (equal_bytes(writes_[index].key, key)) return writes_[index];
  }
  WriteEntry& entry = writes_.push_slot();
  entry.key = key;
  entry.value = {};
  entry.pending_ops.clear();
  if (index + 1 < writes_.size()) writes_.move_last_to(index);
  CONTEND_DEBUG_ASSERT(index == 0 || KeyLess()(writes_[index - 1].key, key),
                       "the write map stays sorted, one entry per key");
  CONTEND_DEBUG_ASSERT(index + 1 == writes_.size() || KeyLess()(key, writes_[index + 1].key),
                       "the write map stays sorted, one entry per key");
  return writes_[index];
}

// ---- writes ----
// Each write copies its key (with the '\x00' after it) and value into the arena once; the
// mutation, the write-map entry and the write conflict range view those copies. A caller may pass
// views of this transaction's own buffers (tr.set(tr.mutations()[0].param1, ...)): they point
// into the arena, which never moves.

void Transaction::set(BytesView key, BytesView value, WriteConflict conflict) {
  if (ErrorCode e = check_write(key, value.size()); !ok(e)) {
    sticky_error_ = e;
    return;
  }
  const KeyCopy k = copy_key(key);
  const BytesView v = arena_.copy(value);
  push_mutation(MutationType::set_value, k.key, v);
  WriteEntry& entry = write_entry(k.key);
  entry.kind = WriteEntry::Kind::set;
  entry.value = v;
  entry.pending_ops.clear();
  note_write(k.key, k.after, key.size() + value.size(), conflict);
}

void Transaction::clear(BytesView key, WriteConflict conflict) {
  if (is_system_key(key)) {
    sticky_error_ = ErrorCode::key_outside_legal_range;
    return;
  }
  if (key.size() > kKeySizeLimit) return;  // no key that long exists: nothing to clear (FDB's rule)
  // One key: a clear entry in the write map (no cleared range needed), same mutation and write
  // conflict range as clear_range([key, key + \x00)).
  const KeyCopy k = copy_key(key);
  push_mutation(MutationType::clear_range, k.key, k.after);
  WriteEntry& entry = write_entry(k.key);
  entry.kind = WriteEntry::Kind::clear;
  entry.value = {};
  entry.pending_ops.clear();
  if (CONTEND_MUTANT(8)) return;
  note_write(k.key, k.after, 0, conflict);
}

void Transaction::clear_range(KeyRangeRef range, WriteConflict conflict) {
  if (compare_bytes(range.begin, range.end) > 0) {
    sticky_error_ = ErrorCode::inverted_range;
    return;
  }
  if (range.empty()) return;
  if (compare_bytes(range.end, kSystemKeysBegin) > 0) {
    sticky_error_ = ErrorCode::key_outside_legal_range;
    return;
  }
  const KeyRangeRef copied = copy_range(range);
  push_mutation(MutationType::clear_range, copied.begin, copied.end);
  writes_.erase(static_cast<std::size_t>(write_lower_bound(copied.begin) - writes_.begin()),
                static_cast<std::size_t>(write_lower_bound(copied.end) - writes_.begin()));
  // Merge into the disjoint set of cleared ranges.
  Bytes begin(copied.begin);
  Bytes end(copied.end);
  auto it = cleared_.upper_bound(BytesView(begin));
  if (it != cleared_.begin()) {
    auto prev = std::prev(it);
    if (prev->second >= begin) {
      begin = prev->first;
      end = std::max(end, prev->second);
      it = cleared_.erase(prev);
    }
  }
  while (it != cleared_.end() && it->first <= end) {
    end = std::max(end, it->second);
    it = cleared_.erase(it);
  }
  cleared_.emplace(std::move(begin), std::move(end));
  for (auto c = cleared_.begin(); c != cleared_.end() && std::next(c) != cleared_.end(); ++c) {
    CONTEND_DEBUG_ASSERT(c->second < std::next(c)->first, "cleared ranges stay disjoint");
  }
  note_write(copied.begin, copied.end, 0, conflict);
}

bool Transaction::in_cleared_range(BytesView key) const {
  auto it = cleared_.upper_bound(key);
  if (it == cleared_.begin()) return false;
  --it;
  return key < BytesView(it->second);
}

void Transaction::atomic_op(MutationType type, BytesView key, BytesView operand,
                            WriteConflict conflict) {
  CONTEND_ASSERT(is_atomic(type), "atomic_op of an atomic mutation type");
  // A set's limits hold for every atomic op, a versionstamped key's template included (its four
  // offset bytes count), as FoundationDB's atomicOp checks them.
  const bool metadata_version =
      type == MutationType::set_versionstamped_value && key == kMetadataVersionKey;
  if (ErrorCode e = check_write(key, operand.size(), metadata_version); !ok(e)) {
    sticky_error_ = e;
    return;
  }
  if (type == MutationType::set_versionstamped_key) {
    if (ErrorCode e = check_versionstamp_param(key); !ok(e)) {
      sticky_error_ = e;
      return;
    }
    // The key is unknown until commit: every key it could become is unreadable, and written.
    const Version read_version = read_version_.value_or(0);
    const Version lowest = read_version < kMaxVersion ? read_version + 1 : read_version;
    Bytes low = fill_versionstamp(key, make_versionstamp(lowest, 0));
    Bytes high = fill_versionstamp(key, Bytes(10, '\xff'));
    KeyRange possible{std::move(low), key_after(high)};
    push_mutation(type, arena_.copy(key), arena_.copy(operand));
    const KeyRangeRef written = copy_range(possible);
    note_write(written.begin, written.end, key.size() + operand.size());
    versionstamped_key_ranges_.push_back(std::move(possible));
    return;
  }
  if (type == MutationType::set_versionstamped_value) {
    if (ErrorCode e = check_versionstamp_param(operand); !ok(e)) {
      sticky_error_ = e;
      return;
    }
    const KeyCopy k = copy_key(key);
    push_mutation(type, k.key, arena_.copy(operand));
    WriteEntry& entry = write_entry(k.key);
    entry.kind = WriteEntry::Kind::unreadable;
    entry.pending_ops.clear();
    note_write(k.key, k.after, key.size() + operand.size(), conflict);
    return;
  }
  const KeyCopy k = copy_key(key);
  const BytesView o = arena_.copy(operand);
  push_mutation(type, k.key, o);
  note_write(k.key, k.after, key.size() + operand.size(), conflict);
  if (find_write(k.key) == nullptr) {
    const bool cleared = in_cleared_range(k.key);
    WriteEntry& fresh = write_entry(k.key);
    if (cleared) {
      fresh.kind = WriteEntry::Kind::set;
      fresh.value = arena_.copy(apply_atomic(type, std::nullopt, o));
      return;
    }
    fresh.kind = WriteEntry::Kind::dependent;
  }
  WriteEntry& entry = write_entry(k.key);
  switch (entry.kind) {
    case WriteEntry::Kind::set:
      entry.value = arena_.copy(apply_atomic(type, Bytes(entry.value), o));
      break;
    case WriteEntry::Kind::clear:
      entry.kind = WriteEntry::Kind::set;
      entry.value = arena_.copy(apply_atomic(type, std::nullopt, o));
      break;
    case WriteEntry::Kind::dependent:
      entry.pending_ops.emplace_back(type, o);
      break;
    case WriteEntry::Kind::unreadable:
      break;  // stays unreadable until commit
  }
}

void Transaction::add_read_conflict_range(KeyRangeRef range) {
  add_conflict_for_read(copy_range(range));
}

void Transaction::add_read_conflict_range_whole(KeyRangeRef range) {
  if (range.empty()) return;
  const KeyRangeRef copied = copy_range(range);
  size_bytes_ += copied.begin.size() + copied.end.size();
  push_read_range(copied);
}

void Transaction::add_read_conflict_key(BytesView key) {
  const KeyCopy k = copy_key(key);
  add_conflict_for_read(KeyRangeRef{k.key, k.after});
}

void Transaction::log_read_in_place_of(std::size_t first, KeyRangeRef keys, RangeOptions options,
                                       const RangeResult& rows, ReadSaw saw) {
  CONTEND_ASSERT(first <= read_log_.size(), "the reads replaced were logged");
  read_log_.resize(first);
  if (!logs_read(false) || keys.empty()) return;
  for (const KeyValue& row : rows)
    CONTEND_ASSERT(keys.contains(row.key), "a logged read's rows lie in the keys it read");
  options.snapshot = false;
  const std::size_t mutations_before = saw == ReadSaw::own_writes ? mutations_.size() : 0;
  read_log_.push_back(
      ReadRecord{true, copy_of(keys), options, false, mutations_before, std::nullopt, rows});
}

void Transaction::add_write_conflict_range(KeyRangeRef range) {
  if (range.empty()) return;
  const KeyRangeRef copied = copy_range(range);
  note_write(copied.begin, copied.end, 0);
}

void Transaction::add_write_conflict_key(BytesView key) {
  const KeyCopy k = copy_key(key);
  note_write(k.key, k.after, 0);
}

// ---- reads ----

bool Transaction::unreadable(KeyRangeRef range) const {
  if (writes_.empty() && versionstamped_key_ranges_.empty()) return false;
  for (const KeyRange& r : versionstamped_key_ranges_) {
    if (KeyRangeRef(r).intersects(range)) return true;
  }
  for (const WriteEntry* w = write_lower_bound(range.begin);
       w != writes_.end() && w->key < range.end; ++w) {
    if (w->kind == WriteEntry::Kind::unreadable) return true;
  }
  return false;
}

ErrorOr<std::optional<Bytes>> Transaction::overlay(BytesView key,
                                                   const std::optional<Bytes>& db_value) const {
  const WriteEntry* found = find_write(key);
  if (found == nullptr) {
    if (in_cleared_range(key) && !CONTEND_MUTANT(24)) return std::optional<Bytes>();
    return db_value;
  }
  const WriteEntry& entry = *found;
  switch (entry.kind) {
    case WriteEntry::Kind::set:
      if (CONTEND_MUTANT(6)) return db_value;
      return std::optional<Bytes>(Bytes(entry.value));
    case WriteEntry::Kind::clear:
      return std::optional<Bytes>();
    case WriteEntry::Kind::unreadable:
      return ErrorCode::accessed_unreadable;
    case WriteEntry::Kind::dependent: {
      CONTEND_ASSERT(!entry.pending_ops.empty(), "a dependent write has atomic ops to apply");
      std::optional<Bytes> value = db_value;
      for (const auto& [type, operand] : entry.pending_ops)
        value = apply_atomic(type, value, operand);
      return value;
    }
  }
  return db_value;
}

void Transaction::push_read_range(KeyRangeRef range) {
  CONTEND_ASSERT(!range.empty(), "read conflict ranges are not empty");
  read_ranges_.push_back(range);
  read_range_steps_.push_back(step_);
}

// Adds the read conflict range minus the keys and ranges this transaction wrote independently
// (sets, clears, clear ranges); dependent (atomic) writes keep their conflict.
void Transaction::add_conflict_for_read(KeyRangeRef range) {
  if (range.empty()) return;
  size_bytes_ += range.begin.size() + range.end.size();
  if ((writes_.empty() && cleared_.empty()) || CONTEND_MUTANT(7)) {  // nothing written yet
    push_read_range(range);
    return;
  }
  Bytes cursor(range.begin);
  auto emit_until = [&](BytesView hole_begin, BytesView hole_end) {
    if (BytesView(cursor) < hole_begin) {
      push_read_range(copy_range(KeyRangeRef{cursor, std::min(hole_begin, range.end)}));
    }
    if (BytesView(cursor) < hole_end) cursor.assign(hole_end);
  };
  const WriteEntry* w = write_lower_bound(range.begin);
  auto c = cleared_.upper_bound(BytesView(range.begin));
  if (c != cleared_.begin() && std::prev(c)->second > range.begin) --c;
  while (cursor < range.end) {
    while (w != writes_.end() && w->kind == WriteEntry::Kind::dependent)
      ++w;
    bool has_w = w != writes_.end() && w->key < range.end;
    bool has_c = c != cleared_.end() && c->first < range.end;
    if (!has_w && !has_c) break;
    if (has_c && (!has_w || c->first <= w->key)) {
      emit_until(c->first, c->second);
      ++c;
    } else {
      emit_until(w->key, key_after(w->key));
      ++w;
    }
  }
  if (cursor < range.end) push_read_range(KeyRangeRef{arena_.copy(cursor), range.end});
}

ErrorOr<std::optional<Bytes>> Transaction::do_get(const KeyCopy& key, bool snapshot) {
  // FoundationDB's RYW get reads the metadata version key without ACCESS_SYSTEM_KEYS.
  if (is_system_key(key.key) && key.key != kMetadataVersionKey)
    return ErrorCode::key_outside_legal_range;
  // No key that long can exist: FoundationDB answers "absent", with no conflict range.
  if (key.key.size() > kKeySizeLimit) return std::optional<Bytes>();
  const KeyRangeRef just_key{key.key, key.after};
  if (unreadable(just_key)) return ErrorCode::accessed_unreadable;
  std::optional<Bytes> db_value = db_.store->get(key.key, *read_version_);
  if (FootprintSink* sink = env().footprints()) sink->on_database_read(*this, just_key, just_key);
  auto result = overlay(key.key, db_value);
  if (!result.ok()) return result;
  if ((!snapshot && !CONTEND_MUTANT(1)) || (snapshot && CONTEND_MUTANT(23)))
    add_conflict_for_read(just_key);
  return result;
}

// Every range read's postcondition: at most `limit` rows, every key inside the range, in strictly
// increasing key order (decreasing when `reverse`). Always checked: the count; in Debug builds
// (these compare keys on the hot path: +15% on store/read_set_commit), the ends and the order.
void Transaction::check_rows(KeyRangeRef range, bool reverse, std::size_t limit,
                             const RangeResult& rows) {
  CONTEND_ASSERT(rows.size() <= limit, "a range read returns at most its limit");
  if (rows.empty()) return;
  const BytesView low = reverse ? BytesView(rows.back().key) : BytesView(rows.front().key);
  const BytesView high = reverse ? BytesView(rows.front().key) : BytesView(rows.back().key);
  CONTEND_DEBUG_ASSERT(!(low < range.begin) && high < range.end, "rows inside the range read");
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const BytesView key = rows[i].key;
    const BytesView previous = rows[i - 1].key;
    CONTEND_DEBUG_ASSERT(reverse ? key < previous : previous < key,
                         "rows in key order, each key once");
  }
}

// The database's rows merged with this transaction's own writes (read-your-writes).
void Transaction::read_merged(KeyRangeRef range, std::size_t limit, bool reverse,
                              RangeResult& out) const {
  // Own writes in the range, walked in the same direction as the database scan.
  const WriteEntry* w_lo = write_lower_bound(range.begin);
  const WriteEntry* w_hi = write_lower_bound(range.end);
  auto w_fwd = w_lo;
  auto w_rev = w_hi;
  auto has_write = [&] { return reverse ? w_rev != w_lo : w_fwd != w_hi; };
  auto peek_write = [&]() -> const WriteEntry& { return reverse ? *std::prev(w_rev) : *w_fwd; };
  auto pop_write = [&] { reverse ? void(--w_rev) : void(++w_fwd); };
  auto before = [&](BytesView a, BytesView b) { return reverse ? b < a : a < b; };
  auto emit = [&](BytesView key, const std::optional<Bytes>& db_value) {
    auto value = overlay(key, db_value);
    CONTEND_ASSERT(value.ok(), "unreadable entries were rejected above");
    if (value->has_value()) out.push_back(KeyValue{Bytes(key), std::move(**value)});
    return out.size() < limit;
  };
  db_.store->scan(range, *read_version_, reverse, [&](BytesView key, BytesView value) {
    while (has_write() && before(peek_write().key, key)) {
      if (!emit(peek_write().key, std::nullopt)) return false;
      pop_write();
    }
    if (has_write() && peek_write().key == key) pop_write();
    return emit(key, Bytes(value));
  });
  while (out.size() < limit && has_write()) {
    emit(peek_write().key, std::nullopt);
    pop_write();
  }
}

ErrorCode Transaction::do_get_range(KeyRangeRef range, const RangeOptions& options,
                                    RangeResult& out) {
  CONTEND_ASSERT(out.empty(), "a range read fills an empty result");
  if (compare_bytes(range.begin, range.end) > 0) return ErrorCode::inverted_range;
  if (compare_bytes(range.end, kSystemKeysBegin) > 0) return ErrorCode::key_outside_legal_range;
  if (unreadable(range)) return ErrorCode::accessed_unreadable;
  const std::size_t limit = options.limit > 0 ? static_cast<std::size_t>(options.limit) : SIZE_MAX;
  const bool reverse = options.reverse;
  if (writes_.empty() && cleared_.empty()) {
    // Nothing written yet: the database's rows are the answer.
    if (limit <= 16) out.reserve(limit);
    db_.store->scan(range, *read_version_, reverse, [&](BytesView key, BytesView value) {
      out.push_back(KeyValue{Bytes(key), Bytes(value)});
      return out.size() < limit;
    });
  } else {
    read_merged(range, limit, reverse, out);
  }
  check_rows(range, reverse, limit, out);
  FootprintSink* sink = env().footprints();
  if (options.snapshot && sink == nullptr && !CONTEND_MUTANT(2)) return ErrorCode::success;
  // The keys whose values decided the answer: all of the range, or up to the last row returned
  // when the limit stopped the read (FoundationDB's read conflict range for the read).
  KeyRangeRef decided = range;
  if (out.size() >= limit) {
    decided = reverse ? KeyRangeRef{arena_.copy(out.back().key), range.end}
                      : KeyRangeRef{range.begin, arena_.copy_key_after(out.back().key)};
    if (CONTEND_MUTANT(4) && !reverse) decided.end = arena_.copy(out.back().key);
    if (CONTEND_MUTANT(5) && reverse) {
      decided = KeyRangeRef{range.begin, arena_.copy_key_after(out.back().key)};
    }
  }
  CONTEND_DEBUG_ASSERT(!(decided.begin < range.begin) && !(range.end < decided.end),
                       "a read's conflict range lies within the range read");
  if (sink != nullptr) sink->on_database_read(*this, range, decided);
  if ((!options.snapshot && !CONTEND_MUTANT(3)) || (options.snapshot && CONTEND_MUTANT(2)))
    add_conflict_for_read(decided);
  return ErrorCode::success;
}

// Takes the read version if needed and asks the store and the fault source whether a read may
// happen now: success, or the error that abandons the attempt.
ErrorCode Transaction::begin_read() {
  take_read_version_if_needed();
  CONTEND_ASSERT(read_version_.has_value() && *read_version_ >= 0, "a read has a read version");
  if (ErrorCode e = db_.store->check_read_version(*read_version_, env().store_time_us()); !ok(e))
    return e;
  switch (env().read_fault(client())) {
    case ReadFault::none:
      return ErrorCode::success;
    case ReadFault::transaction_too_old:
      return ErrorCode::transaction_too_old;
    case ReadFault::future_version:
      return ErrorCode::future_version;
  }
  return ErrorCode::success;
}

void Transaction::GetOp::complete() {
  if (ErrorCode e = tr_->begin_read(); !ok(e)) return abort_with(e);
  auto result = tr_->do_get(key_, snapshot_);
  if (!result.ok()) return abort_with(result.error());
  result_ = std::move(result.value());
  if (tr_->logs_read(snapshot_)) {
    tr_->read_log_.push_back(ReadRecord{false,
                                        copy_of(KeyRangeRef{key_.key, key_.after}),
                                        {},
                                        snapshot_,
                                        tr_->mutations_.size(),
                                        result_,
                                        {}});
  }
}

void Transaction::GetOp::add_observed(Digest128& into) const {
  into.add_u64(static_cast<std::uint64_t>(aborted_));
  into.add_u64(result_.has_value() ? 1 : 0);
  if (result_) into.add_field(std::string_view(result_->data(), result_->size()));
}

void Transaction::RangeOp::add_observed(Digest128& into) const {
  into.add_u64(static_cast<std::uint64_t>(aborted_));
  into.add_u64(result_.size());
  for (const KeyValue& row : result_) {
    into.add_field(std::string_view(row.key.data(), row.key.size()));
    into.add_field(std::string_view(row.value.data(), row.value.size()));
  }
}

void Transaction::RangeOp::complete() {
  if (ErrorCode e = tr_->begin_read(); !ok(e)) return abort_with(e);
  if (ErrorCode e = tr_->do_get_range(range_, options_, result_); !ok(e)) return abort_with(e);
  if (tr_->logs_read(options_.snapshot)) {
    tr_->read_log_.push_back(ReadRecord{true, copy_of(range_), options_, options_.snapshot,
                                        tr_->mutations_.size(), std::nullopt, result_});
  }
}

// ---- commit and retry ----

ErrorCode Transaction::do_commit() {
  last_conflict_.reset();
  last_conflict_step_ = {};
  last_conflicting_read_ranges_.clear();
  // A sticky error, or a read-only transaction (its sticky error is success then).
  if (!commit_reaches_store()) return sticky_error_;
  if (size_limited_ && size_bytes_ > kTransactionSizeLimit) return ErrorCode::transaction_too_large;
  take_read_version_if_needed();
  CommitFault fault = env().commit_fault(client());
  if (fault == CommitFault::not_committed_before) return ErrorCode::not_committed;
  if (fault == CommitFault::unknown_result_not_applied && !CONTEND_MUTANT(10))
    return ErrorCode::commit_unknown_result;
  // A read version set ahead of every one the store granted (set_read_version) meets no write
  // after it; neither does the newest granted one, so the resolver answers both alike.
  const Version read_version = std::min(*read_version_, db_.store->granted_version());
  CommitRequest request{client(),     transaction_id_, read_version,
                        read_ranges_, write_ranges_,   mutations_};
  request.report_conflicting_read_ranges = report_conflicting_read_ranges_;
  request.writes_without_conflict_ranges = wrote_without_conflict_range_;
  CommitResult result = db_.store->commit(request, env().store_time_us());
  if (FootprintSink* sink = env().footprints()) {
    sink->on_commit_resolved(*this, ok(result.error), result.conflict.has_value());
  }
  if (!ok(result.error)) {
    if (result.conflict) {
      last_conflict_step_ = read_range_steps_[result.conflict->read_range_index];
      last_conflict_ = std::move(result.conflict);
    }
    last_conflicting_read_ranges_ = std::move(result.conflicting_read_ranges);
    return result.error;
  }
  CONTEND_ASSERT(result.commit_version > read_version,
                 "a commit lands after the version its reads saw");
  committed_version_ = result.commit_version;
  if (fault == CommitFault::unknown_result_applied && CONTEND_MUTANT(9)) {
    request.read_version = db_.store->grant_read_version(env().store_time_us());
    db_.store->commit(request, env().store_time_us());
  }
  if (fault == CommitFault::unknown_result_applied) return ErrorCode::commit_unknown_result;
  return ErrorCode::success;
}

Transaction::OnErrorOp::OnErrorOp(Transaction& tr, ErrorCode e, std::int64_t max_backoff_us)
    : StoreOpBase(tr, StepKind::sleep), error_(e) {
  CONTEND_ASSERT(max_backoff_us >= 0, "a backoff is never negative");
  if (!contend::retried_by_on_error(e)) return;
  // As NativeAPI's onError and getBackoff: the delay is drawn below the backoff grown so far, and
  // the backoff then grows up to max_backoff_us (up to 30 s on a resource-constrained error).
  std::int64_t ceiling = std::min(kFutureVersionRetryDelayUs, max_backoff_us);
  if (e == ErrorCode::transaction_too_old || e == ErrorCode::future_version) {
    delay_us = ceiling;
  } else {
    ceiling = tr.backoff_us_;
    delay_us =
        static_cast<std::int64_t>(static_cast<double>(ceiling) * tr.env().random01(tr.client()));
    const std::int64_t growth_max_us =
        resource_constrained(e) ? kResourceConstrainedMaxBackoffUs : max_backoff_us;
    tr.backoff_us_ = std::min(tr.backoff_us_ * 2, growth_max_us);
  }
  CONTEND_ASSERT(delay_us >= 0 && delay_us <= ceiling, "backoff within FDB's bounds");
  tr.reset();
}

}  // namespace contend
