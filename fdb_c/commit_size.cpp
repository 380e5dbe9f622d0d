#include "fdb_c/commit_size.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <vector>

namespace contend::fdb {

namespace {

std::int64_t mutation_bytes(BytesView param1, BytesView param2) {
  return kMutationRefBytes + static_cast<std::int64_t>(param1.size() + param2.size());
}

// One operation a key sends at commit (RYW's RYWMutation): a set's value, an atomic operand.
struct KeyOp {
  MutationType type;
  Bytes value;
};

// A key's writes in RYW's write map (its OperationStack): the mutations it sends at commit.
struct KeyWrites {
  std::vector<KeyOp> stack;
  // A versionstamped value was written (WriteMapEntry::is_unreadable): later writes stack on it.
  bool unreadable = false;
};

// MutationRef::NON_ASSOCIATIVE_MASK among the types contend models (min is MinV2 at API version
// 730): two operations of one such type merge only when their operands are as long.
bool non_associative(MutationType type) {
  return type == MutationType::add || type == MutationType::max || type == MutationType::min ||
         type == MutationType::set_versionstamped_key ||
         type == MutationType::set_versionstamped_value;
}

// WriteMap::coalesceOver of an atomic operation onto a stack: one of the top's type merges into
// it (a non-associative one only with an operand as long), a set takes any into its value, and
// two different atomic operations stay apart.
void merge_over(std::vector<KeyOp>& stack, MutationType type, BytesView operand) {
  KeyOp& top = stack.back();
  const bool apart = top.type == type ? non_associative(type) && top.value.size() != operand.size()
                                      : top.type != MutationType::set_value;
  if (apart) {
    stack.push_back(KeyOp{type, Bytes(operand)});
    return;
  }
  top.value = apply_atomic(type, top.value, operand);  // the top keeps its type
}

// RYW's write map replayed from the writes in the order made, as far as the commit request's
// mutations depend on it. Its views are the writes' (valid while they are).
class WriteMapReplay {
 public:
  void apply(const MutationRef& m) {
    switch (m.type) {
      case MutationType::clear_range:
        clear(KeyRangeRef{m.param1, m.param2});
        return;
      case MutationType::set_value:
      case MutationType::set_versionstamped_value:
        set(m.param1, m.type, m.param2);
        return;
      case MutationType::set_versionstamped_key:
        // Sent as made: RYW's atomicOp leaves the keys it may become to it alone
        // (addUnmodifiedAndUnreadableRange), so no write merges it away.
        versionstamped_key_bytes_ += mutation_bytes(m.param1, m.param2);
        return;
      default:
        atomic(m.param1, m.type, m.param2);
    }
  }

  // What writeRangeToNativeTransaction sends: the cleared keys' clears, then each key's stack.
  std::int64_t mutation_bytes_sent() const {
    std::int64_t bytes = versionstamped_key_bytes_ + cleared_bytes();
    for (const auto& [key, writes] : keys_) {
      for (const KeyOp& op : writes.stack)
        bytes += mutation_bytes(key, op.value);
    }
    return bytes;
  }

 private:
  // WriteMap::mutate of a set or a versionstamped value: it replaces what the key holds, unless a
  // versionstamped value made the key unreadable; then it stacks.
  void set(BytesView key, MutationType type, BytesView value) {
    KeyWrites& writes = keys_[key];
    if (!writes.unreadable) writes.stack.clear();
    writes.stack.push_back(KeyOp{type, Bytes(value)});
    writes.unreadable = writes.unreadable || type == MutationType::set_versionstamped_value;
  }

  // WriteMap::mutate of an atomic operation: over a cleared key, a set of what it makes of no
  // value; over an unwritten one, itself; over a write, merged as coalesceOver does (stacked when
  // the key is unreadable).
  void atomic(BytesView key, MutationType type, BytesView operand) {
    auto it = keys_.find(key);
    if (it == keys_.end()) {
      KeyWrites& writes = keys_[key];
      if (cleared(key)) {
        writes.stack.push_back(
            KeyOp{MutationType::set_value, apply_atomic(type, std::nullopt, operand)});
      } else {
        writes.stack.push_back(KeyOp{type, Bytes(operand)});
      }
      return;
    }
    KeyWrites& writes = it->second;
    if (writes.unreadable) {
      writes.stack.push_back(KeyOp{type, Bytes(operand)});
    } else {
      merge_over(writes.stack, type, operand);
    }
  }

  // WriteMap::clear: the keys written in the range are forgotten, and the range joins the
  // cleared ones (touching ones are one run of cleared keys).
  void clear(KeyRangeRef range) {
    keys_.erase(keys_.lower_bound(range.begin), keys_.lower_bound(range.end));
    BytesView begin = range.begin, end = range.end;
    auto it = cleared_.upper_bound(begin);
    if (it != cleared_.begin() && !less_(std::prev(it)->second, begin)) {
      --it;
      begin = it->first;
      end = std::max(end, it->second, less_);
      it = cleared_.erase(it);
    }
    while (it != cleared_.end() && !less_(end, it->first)) {
      end = std::max(end, it->second, less_);
      it = cleared_.erase(it);
    }
    cleared_.emplace(begin, end);
  }

  bool cleared(BytesView key) const {
    auto it = cleared_.upper_bound(key);
    return it != cleared_.begin() && less_(key, std::prev(it)->second);
  }

  // Each run of cleared keys is one clear; a key written since it was cleared is no cleared key,
  // so it cuts the run in two: [begin, key) and [key + \x00, end).
  std::int64_t cleared_bytes() const {
    std::int64_t bytes = 0;
    auto send = [&](BytesView b, BytesView e) {
      if (less_(b, e)) bytes += mutation_bytes(b, e);
    };
    for (const auto& [begin, end] : cleared_) {
      Bytes from(begin);
      for (auto k = keys_.lower_bound(begin); k != keys_.end() && less_(k->first, end); ++k) {
        send(from, k->first);
        from = key_after(k->first);
      }
      send(from, end);
    }
    return bytes;
  }

  KeyLess less_;
  std::map<BytesView, KeyWrites, KeyLess> keys_;
  std::map<BytesView, BytesView, KeyLess> cleared_;  // begin -> end, disjoint and not touching
  std::int64_t versionstamped_key_bytes_ = 0;
};

// The write conflict range each write makes (a versionstamped key's none: the commit proxy adds
// it once the key is known), and those the program added.
std::vector<KeyRange> write_ranges(const CommitContents& contents) {
  std::vector<KeyRange> ranges(contents.added_write_ranges.begin(),
                               contents.added_write_ranges.end());
  for (const MutationRef& m : contents.writes) {
    if (m.type == MutationType::clear_range) {
      ranges.push_back(KeyRange{Bytes(m.param1), Bytes(m.param2)});
    } else if (m.type != MutationType::set_versionstamped_key) {
      ranges.push_back(KeyRange{Bytes(m.param1), key_after(m.param1)});
    }
  }
  return ranges;
}

template <class Range>
std::int64_t each_range_bytes(std::span<const Range> ranges) {
  std::int64_t bytes = 0;
  for (const Range& r : ranges)
    bytes += range_bytes(r);
  return bytes;
}

// As RYW sends them: overlapping or touching ranges are one.
template <class Range>
std::int64_t coalesced_ranges_bytes(std::span<const Range> ranges) {
  std::vector<KeyRangeRef> sorted(ranges.begin(), ranges.end());
  std::sort(sorted.begin(), sorted.end(),
            [](KeyRangeRef a, KeyRangeRef b) { return a.begin < b.begin; });
  std::int64_t bytes = 0;
  for (std::size_t i = 0; i < sorted.size();) {
    KeyRangeRef run = sorted[i];
    for (++i; i < sorted.size() && !(run.end < sorted[i].begin); ++i)
      run.end = std::max(run.end, sorted[i].end);
    bytes += range_bytes(run);
  }
  return bytes;
}

}  // namespace

std::int64_t commit_request_bytes(const CommitContents& contents) {
  const std::vector<KeyRange> writes = write_ranges(contents);
  if (!contents.read_your_writes) {
    std::int64_t bytes = each_range_bytes(std::span<const KeyRange>(writes)) +
                         each_range_bytes(contents.read_ranges);
    for (const MutationRef& m : contents.writes)
      bytes += mutation_bytes(m.param1, m.param2);
    return bytes;
  }
  WriteMapReplay replay;
  for (const MutationRef& m : contents.writes)
    replay.apply(m);
  return replay.mutation_bytes_sent() + coalesced_ranges_bytes(std::span<const KeyRange>(writes)) +
         coalesced_ranges_bytes(contents.read_ranges);
}

}  // namespace contend::fdb
