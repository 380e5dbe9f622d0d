// TransactionState::get_mapped_range (transaction.h): FoundationDB 7.3's mapped range read, as
// ReadYourWritesTransaction::getMappedRange checks it and the storage server answers it
// (mapKeyValues): the primary rows and each row's lookup read at the transaction's read version,
// their read conflict ranges taken once no write of this transaction lies in them.
#include <mutex>
#include <optional>
#include <span>
#include <utility>

#include "fdb_c/transaction.h"
#include "sim/store/mutation.h"

namespace contend::fdb {

namespace {

// The storage server's bounds on one range lookup (QUICK_GET_KEY_VALUES_LIMIT and _LIMIT_BYTES).
constexpr std::size_t kLookupRowsMax = 2000;
constexpr std::size_t kLookupBytesMax = 10'000'000;

// Whether a write among `mutations` touches `range` (RYW's mustUnmodified: a write map entry in
// it). A versionstamped key's key is not known before the commit: it touches nothing here.
bool written_within(std::span<const MutationRef> mutations, const KeyRange& range) {
  for (const MutationRef& m : mutations) {
    const std::optional<KeyRange> written = keys_changed(m);
    if (written && written->intersects(range)) return true;
  }
  return false;
}

// Whether `prefix` prefixes some key (strinc is defined for it): a byte below 0xff.
bool has_prefix_range(BytesView prefix) {
  for (char c : prefix)
    if (static_cast<unsigned char>(c) != 0xff) return true;
  return false;
}

}  // namespace

Future* TransactionState::get_mapped_range(const RangeRequest& r, BytesView mapper_bytes) {
  std::lock_guard lock(world_.mutex);
  ReadCall call(world_.env);
  int byte_limit = 0;
  if (fdb_error_t e = batch_bytes(r, byte_limit)) return ready_later(world_, e);
  // RYW refuses a read of special keys (below API 630, one from \xff\xff/worker_interfaces).
  if (reads_special_keys(r) || reads_worker_interfaces_below_630(r))
    return ready_later(world_, kClientInvalidOperation);
  if (fdb_error_t e = refuses_range_read(r)) return ready_later(world_, e);
  if (selects_nothing(r.begin, r.end)) return ready_later(world_, kSuccess, MappedKeyValues{});
  if (r.snapshot || options_.read_your_writes_disabled)
    return ready_later(world_, kUnsupportedOperation);
  Mapper mapper;
  if (fdb_error_t e = Mapper::parse(mapper_bytes, mapper)) return ready_later(world_, e);
  read_or_written_ = true;

  // RYW reads the rows and the lookups as snapshot reads and takes their conflict ranges itself.
  const std::size_t logged_before = tr_->read_log().size();
  RangeRequest primary = r;
  primary.snapshot = true;
  KeyValues rows;
  KeyRange read;
  std::int64_t delay_us = 0;
  if (fdb_error_t e = read_rows(primary, sees_own_writes(false), byte_limit, rows, read, &delay_us))
    return ready_later(world_, e, {}, delay_us);
  // The primary read's conflict range is RYW's for a range read (addConflictRange<true>).
  const std::optional<KeyRange> primary_conflict =
      ryw_range_read_conflict(r, read, rows.rows, rows.more);
  std::vector<KeyRange> read_ranges;
  if (primary_conflict) read_ranges.push_back(*primary_conflict);
  MappedKeyValues result;
  result.more = rows.more;
  if (fdb_error_t e = look_up_mapped(mapper, rows, result, read_ranges))
    return ready_later(world_, e, {}, delay_us);
  for (const KeyRange& range : read_ranges) {
    if (written_within(tr_->mutations(), range))
      return ready_later(world_, kGetMappedRangeReadsYourWrites, {}, delay_us);
  }
  for (const KeyRange& range : read_ranges)
    tr_->add_read_conflict_range(KeyRangeRef(range));
  // The transaction log holds the rows and each lookup as reads their conflict ranges cover.
  log_selected_rows(logged_before, read, primary_conflict, rows, r.reverse,
                    Transaction::ReadSaw::own_writes);
  for (const MappedKeyValues::Row& row : result.rows)
    tr_->log_read_in_place_of(tr_->read_log().size(), KeyRange{row.begin, row.end}, {}, row.found);
  return ready_later(world_, kSuccess, std::move(result), delay_us);
}

fdb_error_t TransactionState::look_up_mapped(const Mapper& mapper, const KeyValues& rows,
                                             MappedKeyValues& out,
                                             std::vector<KeyRange>& read_ranges) {
  // The lookups read the view the rows were read in (read-your-writes is on; a lookup reaching
  // this transaction's writes is refused after), whatever SNAPSHOT_RYW says.
  const bool own_writes = sees_own_writes(false);
  for (const KeyValue& kv : rows.rows) {
    MappedKeyValues::Row row;
    row.key = kv.key;
    row.value = kv.value;
    if (fdb_error_t e = mapper.map(kv.key, kv.value, row.begin)) return e;
    if (mapper.range()) {
      if (!has_prefix_range(row.begin)) return kKeyOutsideLegalRange;
      row.end = strinc(row.begin);
      const RangeOptions options{.limit = static_cast<int>(kLookupRowsMax) + 1, .snapshot = true};
      if (fdb_error_t e =
              read_range(KeyRangeRef{row.begin, row.end}, options, own_writes, row.found))
        return e;
      std::size_t bytes = 0;
      for (const KeyValue& found : row.found)
        bytes += found.key.size() + found.value.size();
      if (row.found.size() > kLookupRowsMax || bytes > kLookupBytesMax)
        return kQuickGetKeyValuesHasMore;
    } else {
      row.end = key_after(row.begin);
      std::optional<Bytes> value;
      if (fdb_error_t e = read_key(row.begin, true, own_writes, value)) return e;
      if (value) row.found.push_back(KeyValue{row.begin, std::move(*value)});
    }
    read_ranges.push_back(KeyRange{row.begin, row.end});
    out.rows.push_back(std::move(row));
  }
  // mapKeyValues keeps the row's own key and value, for a lookup of one key, only in the first
  // and the last row (a continuation's bounds).
  if (!mapper.range()) {
    for (std::size_t i = 1; i + 1 < out.rows.size(); ++i)
      out.rows[i].key.clear(), out.rows[i].value.clear();
  }
  return kSuccess;
}

}  // namespace contend::fdb
