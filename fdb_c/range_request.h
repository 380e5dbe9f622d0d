// A range read as the C API asks for it (fdb_transaction_get_range, _get_mapped_range): key
// selectors, limits and a streaming mode, and the checks fdb_c.cpp and FoundationDB's getRange
// make of them before any read.
#pragma once

#include <optional>

#include "fdb_c/errors.h"
#include "sim/store/bytes.h"
#include "sim/store/transaction.h"

namespace contend::fdb {

// Keys from here on are the system's: no read or write of this library reaches them but the
// metadata version key's (kMetadataVersionKey).
inline constexpr BytesView kSystemKeysBegin("\xff", 1);

// FoundationDB's key selector: the offset-th key after the last key less than (or equal to,
// when or_equal) `key`.
struct KeySelector {
  Bytes key;
  bool or_equal = false;
  int offset = 1;
};

struct RangeRequest {
  KeySelector begin;
  KeySelector end;
  int limit = 0;         // rows; 0 = none
  int target_bytes = 0;  // 0 = none
  int mode = 0;          // FDBStreamingMode
  int iteration = 1;
  bool snapshot = false;
  bool reverse = false;
};

// A key past \xff: FoundationDB refuses it as a selector's key or a range's end (\xff itself, the
// usual end of a range, is legal).
inline bool past_legal_range(BytesView key) {
  return kSystemKeysBegin < key;
}

// The key of the selector without or_equal that names the same key (FoundationDB's
// removeOrEqual): the key after s.key when or_equal, else s.key. The selector names the key
// s.offset places after the last key before it.
Bytes strict_key(const KeySelector& s);

// As FoundationDB's getRange: a begin selector whose strict key and offset are both at or past
// the end selector's names an empty range, answered without reading, so without conflict
// ranges.
bool selects_nothing(const KeySelector& begin, const KeySelector& end);

// Whether a range read's selectors ran off the database's keys, by the keys they resolved to
// (`resolved`, clamped to \xff): one walking back (offset 0 or less) resolved to the empty key,
// or one walking forward (offset above 1) to \xff. FoundationDB's readToBegin and readThroughEnd
// are set in these cases or fewer.
struct RanOff {
  bool to_begin = false;
  bool through_end = false;
};
RanOff ran_off(const RangeRequest& r, const KeyRange& resolved);

// RYW's read conflict range for a range read that is not a snapshot (RYWImpl::addConflictRange
// of a GetRangeReq), from its selectors (their strict keys, as RYW's getRange removes or_equal),
// the keys they resolved to (`resolved`, clamped to \xff; begin may be at or past end), the rows
// it answered in the order answered, and `more`: none when it is empty. It is made of the
// selectors' keys, not of the reads that resolved them: up to the end selector's key when its
// offset is 0 or less, even where a limit stopped the rows before it; from the begin selector's
// key in reverse unless its offset is 1 or less with `more`; widened to reach the rows. Where a
// selector ran off the database's keys (RYW's readToBegin, readThroughEnd) it reaches the
// database's beginning or \xff: here whenever a selector with offset 0 or less resolved to the
// empty key, or one with offset above 1 to \xff. (RYW sets the flags in fewer cases, by what its
// snapshot cache holds: a selector that runs out of keys by exactly one sets none. So the range
// is RYW's or wider there, never narrower.) Clamped to \xff.
std::optional<KeyRange> ryw_range_read_conflict(const RangeRequest& r, const KeyRange& resolved,
                                                const RangeResult& rows, bool more);

// NativeAPI's read conflict range for such a read without read-your-writes (getRangeFinished),
// from the same: from the begin selector's key, or from the first row (the last in reverse)
// where a begin selector with offset 0 or less, or a reverse read with `more` from one with
// offset 1, depends on nothing before it; up to the end selector's key, or past the last row
// (the first in reverse) where an end selector with offset above 1, or a forward read with
// `more` to one with offset 1, depends on nothing after it; each end moved to the other
// selector's key where that lies beyond it. Where a selector ran off the database's keys
// (ran_off) it reaches the beginning or \xff: NativeAPI's readToBegin and readThroughEnd, which
// it sets from the storage servers' shards in these cases or fewer. Clamped to \xff; none when
// empty.
std::optional<KeyRange> native_range_read_conflict(const RangeRequest& r, const KeyRange& resolved,
                                                   const RangeResult& rows, bool more);

// What a storage server counts for each row it returns against a read's byte limit: the row's key
// and value and the KeyValueRef that points at them (two StringRefs, 16 bytes each on a 64-bit
// server). The row that reaches the limit is returned.
inline constexpr int kStorageRowOverheadBytes = 32;
// FoundationDB's REPLY_BYTE_LIMIT: no read asks a storage server for more bytes than this, whatever
// its mode or target_bytes (NativeAPI's transformRangeLimits, RYW's setRequestLimits).
inline constexpr int kReplyByteLimit = 80000;

// fdb_c.cpp's checks of a range read's streaming mode, before the transaction sees the read, and
// the read's byte limit (0: none) in `bytes`: the smaller of target_bytes and the mode's. A row
// or byte limit of 0 or -1 is none.
fdb_error batch_bytes(const RangeRequest& r, int& bytes);

}  // namespace contend::fdb
