// First-in first-out storage for the store's MVCC log, where entries are appended at the newest
// end and released from the oldest as the window moves:
// - FifoRing<T>: a growable ring of trivially copyable entries addressed by absolute sequence
//   numbers (an entry keeps its number for life), so a log entry can name a run of entries of
//   another ring by [begin, end) numbers;
// - ByteFifo: bytes appended into large chunks; a view of appended bytes stays valid until the
//   chunk holding it is released. Released chunks are kept as spares (up to kSpareChunksMax).
// Both allocate only when they grow past their largest size so far (or for an oversized item):
// a store in a steady state appends and releases without touching the allocator.
// Invariants: FifoRing holds the numbers [begin(), end()) contiguously; ByteFifo's chunks are
// numbered consecutively from the oldest held, and a mark() names the chunk the next append
// uses or one before it.
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/invariant.h"
#include "sim/store/bytes.h"

namespace contend {

template <class T>
class FifoRing {
  static_assert(std::is_trivially_copyable_v<T>, "entries are moved by copying their bytes");

 public:
  using Number = std::uint64_t;

  Number begin() const { return begin_; }
  Number end() const { return end_; }
  bool empty() const { return begin_ == end_; }
  std::size_t size() const { return static_cast<std::size_t>(end_ - begin_); }

  T& operator[](Number n) {
    CONTEND_DEBUG_ASSERT(n >= begin_ && n < end_, "a live entry");
    return slots_[n & mask_];
  }
  const T& operator[](Number n) const {
    CONTEND_DEBUG_ASSERT(n >= begin_ && n < end_, "a live entry");
    return slots_[n & mask_];
  }
  T& front() { return (*this)[begin_]; }
  const T& front() const { return (*this)[begin_]; }
  const T& back() const { return (*this)[end_ - 1]; }

  void push_back(const T& entry) {
    if (size() == capacity_) grow();
    slots_[end_ & mask_] = entry;
    ++end_;
  }
  void pop_front() {
    CONTEND_ASSERT(!empty(), "pop_front of an empty ring");
    ++begin_;
  }
  // Releases every entry numbered below n.
  void pop_front_until(Number n) {
    CONTEND_ASSERT(n >= begin_ && n <= end_, "releases only live entries");
    begin_ = n;
  }
  // The first number in [first, last) whose entry fails `pred`, or last; REQUIRES: the entries
  // satisfying pred come first (std::partition_point over numbers).
  template <class Pred>
  Number partition_point(Number first, Number last, Pred pred) const {
    CONTEND_ASSERT(first >= begin_ && first <= last && last <= end_, "a range of live entries");
    Number count = last - first;
    while (count > 0) {
      const Number half = count / 2;
      if (pred((*this)[first + half])) {
        first += half + 1;
        count -= half + 1;
      } else {
        count = half;
      }
    }
    return first;
  }

 private:
  void grow() {
    // Not value-initialized: only live entries are ever read, and each was written first.
    const std::size_t larger_capacity = capacity_ == 0 ? 64 : 2 * capacity_;
    auto larger = std::make_unique_for_overwrite<T[]>(larger_capacity);
    const Number larger_mask = larger_capacity - 1;
    for (Number n = begin_; n != end_; ++n)
      larger[n & larger_mask] = slots_[n & mask_];
    slots_ = std::move(larger);
    capacity_ = larger_capacity;
    mask_ = larger_mask;
  }

  std::unique_ptr<T[]> slots_;  // capacity_ entries, a power of two; number n lives at n & mask_
  std::size_t capacity_ = 0;
  Number mask_ = 0;
  Number begin_ = 0;
  Number end_ = 0;
};

class ByteFifo {
 public:
  using Mark = std::uint64_t;
  static constexpr std::size_t kChunkBytes = 64 * 1024;
  static constexpr std::size_t kSpareChunksMax = 16;

  // The chunk the next append starts in, or the one before it: releasing the chunks before a
  // mark taken ahead of some appends never releases those appends' bytes.
  Mark mark() const { return chunks_.empty() ? first_ : first_ + chunks_.size() - 1; }
  // Copies `bytes` in; the view stays valid until its chunk is released.
  std::string_view append(std::string_view bytes) { return append_pair(bytes, {}).first; }
  // Copies `first` and `second` in, side by side (a key and its value, a range's two ends): views
  // valid as append's.
  std::pair<std::string_view, std::string_view> append_pair(std::string_view first,
                                                            std::string_view second) {
    const std::size_t n = first.size() + second.size();
    if (n == 0) return {};
    if (chunks_.empty() || chunks_.back().capacity - chunks_.back().used < n) add_chunk(n);
    Chunk& chunk = chunks_.back();
    char* at = chunk.data.get() + chunk.used;
    copy_bytes(at, first.data(), first.size());
    copy_bytes(at + first.size(), second.data(), second.size());
    chunk.used += n;
    return {std::string_view(at, first.size()), std::string_view(at + first.size(), second.size())};
  }
  // Releases every chunk numbered below `mark`.
  void release_before(Mark mark) {
    while (!chunks_.empty() && first_ < mark) {
      Chunk& oldest = chunks_.front();
      if (oldest.capacity == kChunkBytes && spares_.size() < kSpareChunksMax)
        spares_.push_back(std::move(oldest.data));
      chunks_.pop_front();
      ++first_;
    }
  }
  // Releases everything (no view into this fifo is used any more).
  void release_all() { release_before(first_ + chunks_.size()); }
  std::size_t chunk_count() const { return chunks_.size(); }

 private:
  struct Chunk {
    std::unique_ptr<char[]> data;
    std::size_t capacity = 0;
    std::size_t used = 0;
  };
  void add_chunk(std::size_t at_least) {
    Chunk chunk;
    if (at_least <= kChunkBytes) {
      chunk.capacity = kChunkBytes;
      if (!spares_.empty()) {
        chunk.data = std::move(spares_.back());
        spares_.pop_back();
      } else {
        chunk.data = std::make_unique_for_overwrite<char[]>(kChunkBytes);
      }
    } else {
      chunk.capacity = at_least;  // an oversized item gets a chunk of its own
      chunk.data = std::make_unique_for_overwrite<char[]>(at_least);
    }
    chunks_.push_back(std::move(chunk));
  }

  std::deque<Chunk> chunks_;
  std::vector<std::unique_ptr<char[]>> spares_;
  Mark first_ = 0;  // the number of chunks_.front()
};

}  // namespace contend
