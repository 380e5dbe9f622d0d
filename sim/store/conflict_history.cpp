#include "sim/store/conflict_history.h"

#include <algorithm>
#include <cstring>

#include "base/invariant.h"
#include "base/splitmix.h"

namespace contend {

namespace {
std::uint64_t next_priority(std::uint64_t& state) {
  return splitmix64(state);
}

}  // namespace

// --- KeyBytes --------------------------------------------------------------------------------

ConflictHistory::KeyBytes& ConflictHistory::KeyBytes::operator=(const KeyBytes& other) {
  if (this != &other) assign(other.view());
  return *this;
}

ConflictHistory::KeyBytes& ConflictHistory::KeyBytes::operator=(KeyBytes&& other) noexcept {
  if (this != &other) {
    release();
    take(other);
  }
  return *this;
}

void ConflictHistory::KeyBytes::take(KeyBytes& other) noexcept {
  size_ = other.size_;
  if (other.on_heap()) {
    heap_ = other.heap_;
  } else {
    std::memcpy(inline_, other.inline_, size_);
  }
  other.size_ = 0;
}

void ConflictHistory::KeyBytes::assign(BytesView key, bool append_zero) {
  const std::size_t size = key.size() + (append_zero ? 1 : 0);
  CONTEND_ASSERT(size <= UINT32_MAX, "keys are far shorter than 4 GiB");
  release();
  char* bytes = inline_;
  if (size > kInlineCapacity) {
    heap_ = new char[size];
    bytes = heap_;
  }
  if (!key.empty()) std::memcpy(bytes, key.data(), key.size());
  if (append_zero) bytes[key.size()] = '\0';
  size_ = static_cast<std::uint32_t>(size);
}

void ConflictHistory::KeyBytes::release() {
  if (on_heap()) delete[] heap_;
  size_ = 0;
}

// --- nodes ------------------------------------------------------------------------------------

ConflictHistory::Index ConflictHistory::make_node(BytesView key, bool append_zero,
                                                  Version version) {
  Index n;
  if (!free_.empty()) {
    n = free_.back();
    free_.pop_back();
  } else {
    n = static_cast<Index>(nodes_.size());
    nodes_.emplace_back();
    keys_.emplace_back();
  }
  CONTEND_ASSERT(n >= 0 && static_cast<std::size_t>(n) < nodes_.size(), "a node in the pool");
  KeyBytes& bytes = keys_[static_cast<std::size_t>(n)];
  bytes.assign(key, append_zero);
  Node& fresh = node(n);
  fresh.key_size = static_cast<std::uint32_t>(bytes.view().size());
  fresh.head = KeyHead::of(bytes.view());
  fresh.version = version;
  fresh.subtree_max = version;
  fresh.priority = static_cast<std::uint32_t>(next_priority(priority_state_) >> 32);
  fresh.left = fresh.right = kNil;
  ++live_nodes_;
  return n;
}

void ConflictHistory::free_node(Index n) {
  CONTEND_ASSERT(live_nodes_ > 0, "only a live node is freed");
  keys_[static_cast<std::size_t>(n)].release();
  free_.push_back(n);
  --live_nodes_;
}

void ConflictHistory::free_subtree(Index n) {
  // Iterative to keep the stack flat whatever the subtree's shape.
  scratch_.clear();
  if (n != kNil) scratch_.push_back(n);
  while (!scratch_.empty()) {
    const Index t = scratch_.back();
    scratch_.pop_back();
    const Node& freed = node(t);
    if (freed.left != kNil) scratch_.push_back(freed.left);
    if (freed.right != kNil) scratch_.push_back(freed.right);
    free_node(t);
  }
}

void ConflictHistory::update(Index n) {
  Node& target = node(n);
  target.subtree_max =
      std::max({target.version, subtree_max(target.left), subtree_max(target.right)});
}

// --- split and merge --------------------------------------------------------------------------

void ConflictHistory::split(Index t, const Probe& key, Index& less, Index& rest) {
  // Walk down the search path for key, hanging each node on the right spine of `less` or the left
  // spine of `rest`; then refresh the maxima bottom-up along the path.
  Index* less_slot = &less;
  Index* rest_slot = &rest;
  path_.clear();
  while (t != kNil) {
    path_.push_back(t);
    Node& at = node(t);
    if (compare(t, key) < 0) {
      *less_slot = t;
      less_slot = &at.right;
      t = at.right;
    } else {
      *rest_slot = t;
      rest_slot = &at.left;
      t = at.left;
    }
  }
  *less_slot = kNil;
  *rest_slot = kNil;
  for (auto it = path_.rbegin(); it != path_.rend(); ++it)
    update(*it);
}

ConflictHistory::Index ConflictHistory::merge(Index a, Index b) {
  // Walk down a's right spine and b's left spine, taking the higher priority each step.
  Index root = kNil;
  Index* slot = &root;
  path_.clear();
  while (a != kNil && b != kNil) {
    if (node(a).priority > node(b).priority) {
      *slot = a;
      path_.push_back(a);
      slot = &node(a).right;
      a = node(a).right;
    } else {
      *slot = b;
      path_.push_back(b);
      slot = &node(b).left;
      b = node(b).left;
    }
  }
  *slot = a != kNil ? a : b;
  for (auto it = path_.rbegin(); it != path_.rend(); ++it)
    update(*it);
  return root;
}

ConflictHistory::Index ConflictHistory::leftmost(Index t) const {
  while (t != kNil && node(t).left != kNil)
    t = node(t).left;
  return t;
}

ConflictHistory::Index ConflictHistory::rightmost(Index t) const {
  while (t != kNil && node(t).right != kNil)
    t = node(t).right;
  return t;
}

// --- add --------------------------------------------------------------------------------------

void ConflictHistory::add(KeyRangeRef range, Version version) {
  if (is_single_key_range(range)) {
    add_key(range.begin, version);
    return;
  }
  if (range.empty()) return;
  CONTEND_ASSERT(version >= newest_added_, "writes must be added in version order");
  newest_added_ = version;
  add_range(range, version);
  if (live_nodes_ >= compact_at_) compact();
  CONTEND_DEBUG_ASSERT(newest_write(range) == version || version < horizon_,
                       "a range just added reads as written at its version");
}

void ConflictHistory::add_key(BytesView key, Version version) {
  CONTEND_ASSERT(version >= newest_added_, "writes must be added in version order");
  newest_added_ = version;
  add_single_key(key, version);
  if (live_nodes_ >= compact_at_) compact();
  CONTEND_ASSERT(subtree_max(root_) == version || version < horizon_,
                 "the newest write is the maximum of the whole tree");
}

void ConflictHistory::add_range(KeyRangeRef range, Version version) {
  Index less = kNil, middle = kNil, rest = kNil;
  split(root_, Probe(range.begin), less, middle);
  Index inside = kNil;
  split(middle, Probe(range.end), inside, rest);
  // Keep the segment that starts at range.end at the version it had: that of the greatest
  // boundary below range.end, the rightmost node of `inside`, else of `less`.
  const Index first_after = leftmost(rest);
  if (first_after == kNil || key_of(first_after) != BytesView(range.end)) {
    const Index before = inside != kNil ? rightmost(inside) : rightmost(less);
    const Version after = before == kNil ? kInvalidVersion : node(before).version;
    const Index end = make_node(range.end, false, after);
    rest = merge(end, rest);
  }
  free_subtree(inside);
  const Index begin = make_node(range.begin, false, version);
  root_ = merge(merge(less, begin), rest);
  CONTEND_ASSERT(subtree_max(root_) == version || version < horizon_,
                 "the newest write is the maximum of the tree");
}

void ConflictHistory::add_single_key(BytesView key, Version version) {
  // A node's ancestors are fewer than the nodes, and this add creates at most two.
  if (ancestors_.size() < live_nodes_ + 2) ancestors_.resize(2 * live_nodes_ + 16);
  Index* const path = ancestors_.data();
  std::size_t depth = 0;
  // One descent finds the boundary at key (if any), the version of the segment containing key
  // and the boundary after key — the only candidate for key + '\x00'. The new version is the
  // newest in the tree, so it becomes the maximum of every subtree on the way.
  const Probe probe(key);
  Index at = kNil;
  Index successor = kNil;
  Version containing = kInvalidVersion;
  bool went_left = false;
  for (Index t = root_; t != kNil;) {
    Node& visited = node(t);
    visited.subtree_max = version;
    const int order = compare(t, probe);
    if (order == 0) {
      at = t;
      break;
    }
    path[depth++] = t;
    went_left = order > 0;
    if (went_left) {
      successor = t;
      t = visited.left;
    } else {
      containing = visited.version;
      t = visited.right;
    }
  }
  if (at != kNil) {
    Node& existing = node(at);
    containing = existing.version;
    existing.version = version;
    if (existing.right != kNil) successor = leftmost(existing.right);
  } else {
    at = make_node(key, false, version);
    attach_leaf(at, depth == 0 ? kNil : path[depth - 1], went_left);
    depth = rotate_up(at, depth);
  }
  if (successor != kNil && node(successor).key_size == key.size() + 1 &&
      is_key_after(key_of(successor), key))
    return;
  // Boundary key + '\x00' keeps the version its segment had. Its place is the leftmost leaf of
  // at's right subtree, or at's right child when that is empty.
  path[depth++] = at;
  bool end_goes_left = false;
  for (Index t = node(at).right; t != kNil; t = node(t).left) {
    path[depth++] = t;
    end_goes_left = true;
  }
  for (std::size_t i = 0; i < depth; ++i) {
    Node& ancestor = node(path[i]);
    ancestor.subtree_max = std::max(ancestor.subtree_max, containing);
  }
  const Index end = make_node(key, true, containing);
  attach_leaf(end, path[depth - 1], end_goes_left);
  rotate_up(end, depth);
}

void ConflictHistory::attach_leaf(Index n, Index parent, bool go_left) {
  if (parent == kNil) {
    CONTEND_ASSERT(root_ == kNil, "only an empty tree has no root");
    root_ = n;
    return;
  }
  Index& slot = go_left ? node(parent).left : node(parent).right;
  CONTEND_ASSERT(slot == kNil, "a leaf is attached to a free slot");
  slot = n;
}

std::size_t ConflictHistory::rotate_up(Index n, std::size_t depth) {
  const Index* const path = ancestors_.data();
  const std::uint64_t priority = node(n).priority;
  while (depth > 0 && node(path[depth - 1]).priority < priority) {
    const Index parent = path[--depth];
    Node& above = node(parent);
    Node& below = node(n);
    if (above.left == n) {
      above.left = below.right;
      below.right = parent;
    } else {
      above.right = below.left;
      below.left = parent;
    }
    update(parent);
    update(n);
    if (depth == 0) {
      root_ = n;
    } else {
      Node& grandparent = node(path[depth - 1]);
      (grandparent.left == parent ? grandparent.left : grandparent.right) = n;
    }
  }
  return depth;
}

// --- queries ----------------------------------------------------------------------------------

Version ConflictHistory::version_at(const Probe& key) const {
  Version found = kInvalidVersion;
  Index t = root_;
  while (t != kNil) {
    const Node& visited = node(t);
    const int order = compare(t, key);
    if (order == 0) return visited.version;
    if (order < 0) {
      found = visited.version;
      t = visited.right;
    } else {
      t = visited.left;
    }
  }
  return found;
}

Version ConflictHistory::max_from(Index t, const Probe& lo, Version containing,
                                  Version best) const {
  while (t != kNil) {
    // Nothing in t can raise best — not even by refining the segment containing lo, which t may
    // move to an older boundary, so that only helps when `containing` cannot raise best either.
    if (node(t).subtree_max <= best && containing <= best) return best;
    const Node& visited = node(t);
    const int order = compare(t, lo);
    if (order < 0) {
      containing = visited.version;
      t = visited.right;
      continue;
    }
    best = std::max({best, visited.version, subtree_max(visited.right)});
    if (order == 0) return best;  // the boundary at lo: its segment is the one containing lo
    t = visited.left;
  }
  return std::max(best, containing);
}

Version ConflictHistory::max_below(Index t, const Probe& hi, Version best) const {
  while (t != kNil && node(t).subtree_max > best) {
    const Node& visited = node(t);
    if (compare(t, hi) < 0) {
      best = std::max({best, visited.version, subtree_max(visited.left)});
      t = visited.right;
    } else {
      t = visited.left;
    }
  }
  return best;
}

Version ConflictHistory::newest_in(const Probe& lo, const Probe& hi) const {
  // Descend toward lo until a node falls inside [lo, hi); nodes below lo on the way bound the
  // segment containing lo. From that node, its right subtree contributes boundaries below hi and
  // its left subtree boundaries from lo on (and the rest of the search for lo's segment).
  Version containing = kInvalidVersion;
  Index t = root_;
  while (t != kNil) {
    const Node& visited = node(t);
    const int order = compare(t, lo);
    if (order < 0) {
      containing = visited.version;
      t = visited.right;
    } else if (order > 0 && compare(t, hi) >= 0) {
      t = visited.left;
    } else {
      const Version right = max_below(visited.right, hi, visited.version);
      if (order == 0) return right;
      return max_from(visited.left, lo, containing, right);
    }
  }
  return containing;
}

Version ConflictHistory::newest_write(KeyRangeRef range) const {
  if (range.empty()) return kInvalidVersion;
  // No boundary lies strictly inside [k, k + '\x00'): only the segment containing k counts.
  const Version m = is_single_key_range(range) ? version_at(Probe(range.begin))
                                               : newest_in(Probe(range.begin), Probe(range.end));
  CONTEND_ASSERT(m <= newest_added_ || m == kInvalidVersion,
                 "no write is newer than the last added");
  return m < horizon_ ? kInvalidVersion : m;
}

void ConflictHistory::prune(Version oldest_version) {
  horizon_ = std::max(horizon_, oldest_version);
}

// --- compaction -------------------------------------------------------------------------------

void ConflictHistory::collect_in_order(Index t, std::vector<Index>& out) {
  path_.clear();
  while (t != kNil || !path_.empty()) {
    while (t != kNil) {
      path_.push_back(t);
      t = node(t).left;
    }
    t = path_.back();
    path_.pop_back();
    out.push_back(t);
    t = node(t).right;
  }
}

ConflictHistory::Index ConflictHistory::build_from_sorted(const std::vector<Index>& sorted) {
  // The treap of nodes given in key order, in one pass: path_ holds the right spine; a node
  // takes over the spine nodes of lower priority as its left subtree. A node leaving the spine
  // has its subtree complete, so its maximum is final.
  path_.clear();
  for (Index n : sorted) {
    Index taken = kNil;
    while (!path_.empty() && node(path_.back()).priority <= node(n).priority) {
      taken = path_.back();
      path_.pop_back();
      update(taken);
    }
    node(n).left = taken;
    if (!path_.empty()) node(path_.back()).right = n;
    path_.push_back(n);
  }
  Index root = kNil;
  while (!path_.empty()) {
    root = path_.back();
    path_.pop_back();
    update(root);
  }
  return root;
}

// Rebuilds the treap without segments older than the horizon that merely repeat "no write".
void ConflictHistory::compact() {
  scratch_.clear();
  scratch_.reserve(live_nodes_);
  collect_in_order(root_, scratch_);
  std::size_t kept = 0;
  Version previous = kInvalidVersion;
  bool first = true;
  for (Index n : scratch_) {
    Node& visited = node(n);
    if (visited.version < horizon_) visited.version = kInvalidVersion;
    const bool redundant = !first && visited.version == previous;
    const bool leading_nothing = kept == 0 && visited.version == kInvalidVersion;
    first = false;
    previous = visited.version;
    if (redundant || leading_nothing) {
      free_node(n);
      continue;
    }
    visited.left = visited.right = kNil;
    scratch_[kept++] = n;
  }
  scratch_.resize(kept);
  CONTEND_ASSERT(kept == live_nodes_, "every node is kept or freed");
  for (std::size_t i = 1; i < kept; ++i) {
    CONTEND_DEBUG_ASSERT(key_of(scratch_[i - 1]) < key_of(scratch_[i]), "boundaries in order");
  }
  root_ = build_from_sorted(scratch_);
  compact_at_ = std::max<std::size_t>(4096, 2 * live_nodes_);
}

}  // namespace contend
