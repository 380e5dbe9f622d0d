// FoundationDB's \xff\xff/transaction/ special key module (SpecialKeySpace.actor.cpp's
// ConflictingKeysImpl, ReadConflictRangeImpl and WriteConflictRangeImpl, registered by
// DatabaseContext for API versions from 630): three ranges, each serving a set of key ranges in
// FoundationDB's boundary encoding — for each range [b, e) of the set, once overlapping and
// adjacent ranges are merged (the CoalescedKeyRangeMap that holds them), the row prefix + b = "1"
// and the row prefix + e = "0".
// Invariants: a TransactionModule's sets are coalesced (sorted, disjoint, never adjacent), so
// the rows of a range are in strictly increasing key order and alternate "1" and "0".
#pragma once

#include <vector>

#include "sim/store/bytes.h"
#include "sim/store/transaction.h"

namespace contend::fdb {

enum class ModuleRange { conflicting_keys, read_conflict_range, write_conflict_range };

// The keys one of the module's ranges serves: [prefix, prefix + \xff\xff) (SystemData.cpp's
// conflictingKeysRange, readConflictRangeKeysRange, writeConflictRangeKeysRange).
KeyRange module_range(ModuleRange which);

// `ranges` (empty ones dropped) sorted and merged where they overlap or touch.
std::vector<KeyRange> coalesced(std::vector<KeyRange> ranges);

// What a transaction's module serves, each set coalesced.
struct TransactionModule {
  // After a not_committed with REPORT_CONFLICTING_KEYS: the read conflict ranges that conflicted
  // (NativeAPI's tryCommit fills TransactionState::conflictingKeys). Empty otherwise.
  std::vector<KeyRange> conflicting_keys;
  std::vector<KeyRange> read_conflict_ranges;   // RYW's readConflicts, or NativeAPI's ranges
  std::vector<KeyRange> write_conflict_ranges;  // RYW's write map's, or NativeAPI's ranges
};

// The ranges of `components` (coalesced) that contain one of `hits` (each within one of them): the
// coalesced read conflict ranges FoundationDB's RYW sends to the resolver that conflicted, given
// the ones of its reads that did.
std::vector<KeyRange> components_hit(const std::vector<KeyRange>& components,
                                     const std::vector<KeyRange>& hits);

// The rows of `which` whose keys lie in `within`, in increasing key order.
RangeResult module_rows(const TransactionModule& module, ModuleRange which, KeyRangeRef within);

}  // namespace contend::fdb
