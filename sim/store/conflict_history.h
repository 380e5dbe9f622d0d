// The resolver's memory of committed writes: for every key, the newest version at which a
// committed transaction wrote it, over the MVCC window. It answers "what is the newest write
// intersecting [b, e)?" — a commit conflicts when that is newer than its read version
// (FoundationDB's SkipList::detectConflicts, fdbserver/resolver/ConflictSet.cpp).
//
// Representation: a step function over the key space — boundary key -> version of the segment
// [boundary, next boundary) — held in a treap ordered by boundary, each node also holding the
// maximum version in its subtree. Since every write carries the newest version so far, add()
// overwrites the segments it covers, so queries and adds are O(log n) expected.
// Invariants:
// - boundaries are unique and the treap is a heap on priorities (drawn from a fixed-seed
//   splitmix64 stream: the structure is deterministic);
// - versions are added in non-decreasing order (REQUIRES, asserted);
// - versions older than the pruning horizon read as "no write"; periodic compaction merges them
//   away so memory stays proportional to the writes inside the window.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/store/bytes.h"

namespace contend {

class ConflictHistory {
 public:
  ConflictHistory() = default;

  // Records that [range.begin, range.end) was written at `version`. REQUIRES: version >= every
  // version added before. Empty ranges are ignored.
  void add(const KeyRange& range, Version version);
  // The newest version of a recorded write intersecting `range`, or kInvalidVersion when none
  // (writes older than the pruning horizon count as none).
  Version newest_write(const KeyRange& range) const;
  // Forgets writes at versions < oldest_version (the horizon only moves forward).
  void prune(Version oldest_version);
  // Boundaries currently held (for tests and benchmarks).
  std::size_t segment_count() const { return live_nodes_; }

 private:
  using Index = std::int32_t;
  static constexpr Index kNil = -1;
  struct Node {
    Bytes key;
    Version version = kInvalidVersion;  // of the segment starting at key
    Version subtree_max = kInvalidVersion;
    std::uint64_t priority = 0;
    Index left = kNil;
    Index right = kNil;
  };

  Index make_node(BytesView key, Version version);
  void free_node(Index n);
  void free_subtree(Index n);
  void update(Index n);
  // Splits t into (keys < key, keys >= key).
  void split(Index t, BytesView key, Index& less, Index& rest);
  Index merge(Index a, Index b);
  Index leftmost(Index t) const;   // kNil for an empty tree
  Index rightmost(Index t) const;  // kNil for an empty tree
  // The version of the segment containing `key` (the greatest boundary <= key).
  Version version_at(BytesView key) const;
  // Max version over boundaries in [lo, hi).
  Version max_in(Index t, BytesView lo, BytesView hi) const;
  Version max_from(Index t, BytesView lo) const;   // boundaries >= lo
  Version max_below(Index t, BytesView hi) const;  // boundaries < hi
  void compact();
  void collect(Index t, std::vector<Index>& out) const;

  std::vector<Node> nodes_;
  std::vector<Index> free_;
  Index root_ = kNil;
  std::size_t live_nodes_ = 0;
  std::size_t compact_at_ = 4096;
  Version horizon_ = kInvalidVersion;
  Version newest_added_ = kInvalidVersion;
  std::uint64_t priority_state_ = 0x5eed5eed5eedULL;
};

}  // namespace contend
