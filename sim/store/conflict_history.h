// The resolver's memory of committed writes: for every key, the newest version at which a
// committed transaction wrote it, over the MVCC window. It answers "what is the newest write
// intersecting [b, e)?" — a commit conflicts when that is newer than its read version
// (FoundationDB's SkipList::detectConflicts, fdbserver/resolver/ConflictSet.cpp).
//
// Representation: a step function over the key space — boundary key -> version of the segment
// [boundary, next boundary) — held in a treap ordered by boundary, each node also holding the
// maximum version in its subtree. Nodes live in one vector (indices, a free list); each caches its
// key's first sixteen bytes as two numbers, which decide nearly every comparison without the key
// (recipe keys share their first eight bytes: subspace, type codes). The keys live in a parallel
// vector, inline when they fit (recipe keys, ~30 bytes, do), so a typical boundary costs no heap
// allocation and a descent reads 48 bytes per node. Range queries skip subtrees whose maximum
// cannot raise the answer. Since every write carries the newest version so far, add() overwrites
// the segments it covers, so queries and adds are O(log n) expected.
// Single-key ranges [k, k + '\x00') — nearly all writes — take fast paths: no boundary can lie
// strictly inside one, so add() only inserts or reassigns the boundaries k and k + '\x00'
// (descents and rotations, no split or merge of the tree), and newest_write() is the version of
// the segment containing k.
//
// Invariants:
// - boundaries are unique and the treap is a heap on priorities (drawn from a fixed-seed
//   splitmix64 stream: the structure is deterministic); its shape does not affect any answer;
// - versions are added in non-decreasing order (REQUIRES, asserted), so the version just added
//   is the maximum of every subtree that holds it;
// - versions older than the pruning horizon read as "no write"; periodic compaction merges them
//   away so memory stays proportional to the writes inside the window.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/store/bytes.h"
#include "sim/store/key_head.h"

namespace contend {

class ConflictHistory {
 public:
  ConflictHistory() = default;

  // Records that [range.begin, range.end) was written at `version`. REQUIRES: version >= every
  // version added before. Empty ranges are ignored.
  void add(KeyRangeRef range, Version version);
  // add([key, key + '\x00'), version), without making the range's end.
  void add_key(BytesView key, Version version);
  // The newest version of a recorded write intersecting `range`, or kInvalidVersion when none
  // (writes older than the pruning horizon count as none).
  Version newest_write(KeyRangeRef range) const;
  // Forgets writes at versions < oldest_version (the horizon only moves forward).
  void prune(Version oldest_version);
  // Boundaries currently held (for tests and benchmarks).
  std::size_t segment_count() const { return live_nodes_; }

 private:
  using Index = std::int32_t;
  static constexpr Index kNil = -1;

  // A key being looked up, with its head (key_head.h).
  using Probe = KeyProbe;

  // A boundary key's bytes: inline when they fit, else in a heap block it owns.
  class KeyBytes {
   public:
    static constexpr std::size_t kInlineCapacity = 48;

    KeyBytes() = default;
    KeyBytes(const KeyBytes& other) { assign(other.view()); }
    KeyBytes(KeyBytes&& other) noexcept { take(other); }
    KeyBytes& operator=(const KeyBytes& other);
    KeyBytes& operator=(KeyBytes&& other) noexcept;
    ~KeyBytes() { release(); }

    // Holds `key`, followed by a '\x00' byte when `append_zero` (key_after without a temporary).
    // REQUIRES: `key` does not point into this KeyBytes.
    void assign(BytesView key, bool append_zero = false);
    void release();
    BytesView view() const { return BytesView(on_heap() ? heap_ : inline_, size_); }

   private:
    bool on_heap() const { return size_ > kInlineCapacity; }
    void take(KeyBytes& other) noexcept;

    std::uint32_t size_ = 0;
    union {
      char inline_[kInlineCapacity];
      char* heap_;
    };
  };

  // What a descent reads: 48 bytes, the key's size and head included, so that most comparisons
  // never touch the key's bytes (keys_[n], kept apart for that reason).
  struct Node {
    Version version = kInvalidVersion;  // of the segment starting at the key
    Version subtree_max = kInvalidVersion;
    Index left = kNil;
    Index right = kNil;
    std::uint32_t priority = 0;
    std::uint32_t key_size = 0;
    KeyHead head;
  };

  // <0, 0 or >0 as node n's key orders before, equal to or after the probe.
  int compare(Index n, const Probe& probe) const {
    if (const int order = compare_heads(node(n).head, probe.head); order != 0) return order;
    return compare_past_head(n, probe);
  }
  // compare() once the heads are equal.
  int compare_past_head(Index n, const Probe& probe) const {
    return compare_past_heads(
        node(n).key_size, [&] { return key_of(n); }, probe.bytes.size(),
        [&] { return probe.bytes; });
  }
  BytesView key_of(Index n) const { return keys_[static_cast<std::size_t>(n)].view(); }

  Node& node(Index n) { return nodes_[static_cast<std::size_t>(n)]; }
  const Node& node(Index n) const { return nodes_[static_cast<std::size_t>(n)]; }
  Version subtree_max(Index n) const { return n == kNil ? kInvalidVersion : node(n).subtree_max; }

  Index make_node(BytesView key, bool append_zero, Version version);
  void free_node(Index n);
  void free_subtree(Index n);
  void update(Index n);

  // The general add: splits out the covered boundaries and merges a fresh [begin, end) back in.
  void add_range(KeyRangeRef range, Version version);
  // The fast add of [key, key + '\x00').
  void add_single_key(BytesView key, Version version);
  // Hangs the fresh leaf `n` below `parent` on side `go_left`, or makes it the root.
  void attach_leaf(Index n, Index parent, bool go_left);
  // Rotates `n` up past ancestors of lower priority. ancestors_[0, depth) holds n's ancestors,
  // root first; returns the new depth, ancestors_ then holding the new ancestors.
  std::size_t rotate_up(Index n, std::size_t depth);

  // Splits t into (keys < key, keys >= key).
  void split(Index t, const Probe& key, Index& less, Index& rest);
  // Joins a and b, every key of a below every key of b.
  Index merge(Index a, Index b);
  Index leftmost(Index t) const;   // kNil for an empty tree
  Index rightmost(Index t) const;  // kNil for an empty tree

  // The version of the segment containing `key` (the greatest boundary <= key).
  Version version_at(const Probe& key) const;
  // The newest version over [lo, hi): the segment containing lo and boundaries in (lo, hi).
  Version newest_in(const Probe& lo, const Probe& hi) const;
  // max(best, versions of t's boundaries >= lo, version of the segment containing lo), where
  // `containing` is that version as far as the nodes above t tell. Stops early when nothing left
  // can raise the result.
  Version max_from(Index t, const Probe& lo, Version containing, Version best) const;
  // max(best, versions of t's boundaries < hi), skipping subtrees that cannot raise it.
  Version max_below(Index t, const Probe& hi, Version best) const;

  void compact();
  void collect_in_order(Index t, std::vector<Index>& out);
  Index build_from_sorted(const std::vector<Index>& sorted);

  std::vector<Node> nodes_;
  std::vector<KeyBytes> keys_;  // keys_[n] is node n's key
  std::vector<Index> free_;
  std::vector<Index> path_;       // scratch: the search path of a split or merge
  std::vector<Index> ancestors_;  // scratch: ancestors in add_single_key, sized past any depth
  std::vector<Index> scratch_;    // scratch: traversal stacks and compaction order
  Index root_ = kNil;
  std::size_t live_nodes_ = 0;
  std::size_t compact_at_ = 4096;
  Version horizon_ = kInvalidVersion;
  Version newest_added_ = kInvalidVersion;
  std::uint64_t priority_state_ = 0x5eed5eed5eedULL;
};

}  // namespace contend
