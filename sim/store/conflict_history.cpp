#include "sim/store/conflict_history.h"

#include <algorithm>
#include <cassert>

namespace contend {

namespace {
std::uint64_t next_priority(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
}  // namespace

ConflictHistory::Index ConflictHistory::make_node(BytesView key, Version version) {
  Index n;
  if (!free_.empty()) {
    n = free_.back();
    free_.pop_back();
  } else {
    n = static_cast<Index>(nodes_.size());
    nodes_.emplace_back();
  }
  Node& node = nodes_[static_cast<std::size_t>(n)];
  node.key.assign(key);
  node.version = version;
  node.subtree_max = version;
  node.priority = next_priority(priority_state_);
  node.left = node.right = kNil;
  ++live_nodes_;
  return n;
}

void ConflictHistory::free_node(Index n) {
  free_.push_back(n);
  --live_nodes_;
}

void ConflictHistory::free_subtree(Index n) {
  // Iterative to keep the stack flat whatever the subtree's shape.
  std::vector<Index> stack;
  if (n != kNil) stack.push_back(n);
  while (!stack.empty()) {
    Index t = stack.back();
    stack.pop_back();
    const Node& node = nodes_[static_cast<std::size_t>(t)];
    if (node.left != kNil) stack.push_back(node.left);
    if (node.right != kNil) stack.push_back(node.right);
    free_node(t);
  }
}

void ConflictHistory::update(Index n) {
  Node& node = nodes_[static_cast<std::size_t>(n)];
  Version m = node.version;
  if (node.left != kNil) m = std::max(m, nodes_[static_cast<std::size_t>(node.left)].subtree_max);
  if (node.right != kNil) m = std::max(m, nodes_[static_cast<std::size_t>(node.right)].subtree_max);
  node.subtree_max = m;
}

void ConflictHistory::split(Index t, BytesView key, Index& less, Index& rest) {
  if (t == kNil) {
    less = rest = kNil;
    return;
  }
  Node& node = nodes_[static_cast<std::size_t>(t)];
  if (BytesView(node.key) < key) {
    Index right_less = kNil;
    split(node.right, key, right_less, rest);
    nodes_[static_cast<std::size_t>(t)].right = right_less;
    less = t;
  } else {
    Index left_rest = kNil;
    split(node.left, key, less, left_rest);
    nodes_[static_cast<std::size_t>(t)].left = left_rest;
    rest = t;
  }
  update(t);
}

ConflictHistory::Index ConflictHistory::merge(Index a, Index b) {
  if (a == kNil) return b;
  if (b == kNil) return a;
  if (nodes_[static_cast<std::size_t>(a)].priority > nodes_[static_cast<std::size_t>(b)].priority) {
    Index merged = merge(nodes_[static_cast<std::size_t>(a)].right, b);
    nodes_[static_cast<std::size_t>(a)].right = merged;
    update(a);
    return a;
  }
  Index merged = merge(a, nodes_[static_cast<std::size_t>(b)].left);
  nodes_[static_cast<std::size_t>(b)].left = merged;
  update(b);
  return b;
}

Version ConflictHistory::version_at(BytesView key) const {
  Version found = kInvalidVersion;
  Index t = root_;
  while (t != kNil) {
    const Node& node = nodes_[static_cast<std::size_t>(t)];
    if (BytesView(node.key) <= key) {
      found = node.version;
      t = node.right;
    } else {
      t = node.left;
    }
  }
  return found;
}

Version ConflictHistory::max_from(Index t, BytesView lo) const {
  Version m = kInvalidVersion;
  while (t != kNil) {
    const Node& node = nodes_[static_cast<std::size_t>(t)];
    if (BytesView(node.key) >= lo) {
      m = std::max(m, node.version);
      if (node.right != kNil)
        m = std::max(m, nodes_[static_cast<std::size_t>(node.right)].subtree_max);
      t = node.left;
    } else {
      t = node.right;
    }
  }
  return m;
}

Version ConflictHistory::max_below(Index t, BytesView hi) const {
  Version m = kInvalidVersion;
  while (t != kNil) {
    const Node& node = nodes_[static_cast<std::size_t>(t)];
    if (BytesView(node.key) < hi) {
      m = std::max(m, node.version);
      if (node.left != kNil)
        m = std::max(m, nodes_[static_cast<std::size_t>(node.left)].subtree_max);
      t = node.right;
    } else {
      t = node.left;
    }
  }
  return m;
}

Version ConflictHistory::max_in(Index t, BytesView lo, BytesView hi) const {
  // Descend to the node where lo and hi part ways, then take one flank each way.
  while (t != kNil) {
    const Node& node = nodes_[static_cast<std::size_t>(t)];
    BytesView key(node.key);
    if (key < lo) {
      t = node.right;
    } else if (key >= hi) {
      t = node.left;
    } else {
      return std::max({node.version, max_from(node.left, lo), max_below(node.right, hi)});
    }
  }
  return kInvalidVersion;
}

void ConflictHistory::add(const KeyRange& range, Version version) {
  if (range.empty()) return;
  assert(version >= newest_added_ && "writes must be added in version order");
  newest_added_ = version;
  Index less = kNil, middle = kNil, rest = kNil;
  split(root_, range.begin, less, middle);
  Index inside = kNil;
  split(middle, range.end, inside, rest);
  // Keep the segment that starts at range.end at the version it had: that of the greatest
  // boundary below range.end, the rightmost node of `inside`, else of `less`.
  if (leftmost(rest) == kNil || nodes_[static_cast<std::size_t>(leftmost(rest))].key != range.end) {
    const Index before = inside != kNil ? rightmost(inside) : rightmost(less);
    const Version after =
        before == kNil ? kInvalidVersion : nodes_[static_cast<std::size_t>(before)].version;
    rest = merge(make_node(range.end, after), rest);
  }
  free_subtree(inside);
  root_ = merge(merge(less, make_node(range.begin, version)), rest);
  if (live_nodes_ >= compact_at_) compact();
}

ConflictHistory::Index ConflictHistory::leftmost(Index t) const {
  while (t != kNil && nodes_[static_cast<std::size_t>(t)].left != kNil) {
    t = nodes_[static_cast<std::size_t>(t)].left;
  }
  return t;
}

ConflictHistory::Index ConflictHistory::rightmost(Index t) const {
  while (t != kNil && nodes_[static_cast<std::size_t>(t)].right != kNil) {
    t = nodes_[static_cast<std::size_t>(t)].right;
  }
  return t;
}

Version ConflictHistory::newest_write(const KeyRange& range) const {
  if (range.empty()) return kInvalidVersion;
  Version m = std::max(version_at(range.begin), max_in(root_, range.begin, range.end));
  return m < horizon_ ? kInvalidVersion : m;
}

void ConflictHistory::prune(Version oldest_version) {
  horizon_ = std::max(horizon_, oldest_version);
}

void ConflictHistory::collect(Index t, std::vector<Index>& out) const {
  std::vector<Index> stack;
  while (t != kNil || !stack.empty()) {
    while (t != kNil) {
      stack.push_back(t);
      t = nodes_[static_cast<std::size_t>(t)].left;
    }
    t = stack.back();
    stack.pop_back();
    out.push_back(t);
    t = nodes_[static_cast<std::size_t>(t)].right;
  }
}

// Rebuilds the treap without segments older than the horizon that merely repeat "no write".
void ConflictHistory::compact() {
  std::vector<Index> order;
  order.reserve(live_nodes_);
  collect(root_, order);
  root_ = kNil;
  Version previous = kInvalidVersion;
  bool first = true;
  for (Index n : order) {
    Node& node = nodes_[static_cast<std::size_t>(n)];
    if (node.version < horizon_) node.version = kInvalidVersion;
    bool redundant = !first && node.version == previous;
    first = false;
    previous = node.version;
    if (redundant || (root_ == kNil && node.version == kInvalidVersion)) {
      free_node(n);
      continue;
    }
    node.left = node.right = kNil;
    node.subtree_max = node.version;
    root_ = merge(root_, n);
  }
  compact_at_ = std::max<std::size_t>(4096, 2 * live_nodes_);
}

}  // namespace contend
