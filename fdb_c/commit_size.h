// The size FoundationDB's client measures a commit by: NativeAPI's getSize of the commit request
// (its mutations and its read and write conflict ranges, each with the struct that holds it),
// which commitMutations refuses with transaction_too_large past SIZE_LIMIT. With read-your-writes,
// ReadYourWritesTransaction's write map stands between the writes and that request: at commit
// (writeRangeToNativeTransaction) each key sends what its writes merged into, each run of cleared
// keys one clear, and the conflict ranges go coalesced. Without, NativeAPI holds every write and
// every conflict range as it was made.
#pragma once

#include <cstdint>
#include <span>

#include "sim/store/bytes.h"
#include "sim/store/mutation.h"

namespace contend::fdb {

// sizeof(MutationRef) and sizeof(KeyRangeRef) on a 64-bit build of 7.3 (CommitTransaction.h: a
// type byte and two 16-byte StringRefs; two StringRefs).
inline constexpr std::int64_t kMutationRefBytes = 40;
inline constexpr std::int64_t kKeyRangeRefBytes = 32;

// A conflict range as FoundationDB's client counts it: its struct and its ends.
inline std::int64_t range_bytes(KeyRangeRef r) {
  return kKeyRangeRefBytes + static_cast<std::int64_t>(r.begin.size() + r.end.size());
}

// What a transaction's commit request is made of.
struct CommitContents {
  std::span<const MutationRef> writes;           // every write buffered, in the order made
  std::span<const KeyRange> added_write_ranges;  // write conflict ranges the program added
  std::span<const KeyRangeRef> read_ranges;      // read conflict ranges held at the size check
  bool read_your_writes = true;
};

// The bytes getSize counts for the commit request FoundationDB's client would send.
std::int64_t commit_request_bytes(const CommitContents& contents);

}  // namespace contend::fdb
