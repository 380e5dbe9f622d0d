#include "sim/store/byte_arena.h"

#include <algorithm>

namespace contend {

void ByteArena::next_chunk(std::size_t n) {
  std::size_t next = chunks_.empty() ? 0 : current_ + 1;
  while (next < chunks_.size() && chunks_[next].size < n)
    ++next;  // a smaller spare stays unused by this round
  if (next == chunks_.size()) {
    const std::size_t grown = chunks_.empty() ? kFirstChunkBytes : 2 * chunks_.back().size;
    Chunk chunk;
    chunk.size = std::max(grown, n);
    chunk.data = std::make_unique_for_overwrite<char[]>(chunk.size);
    capacity_bytes_ += chunk.size;
    chunks_.push_back(std::move(chunk));
  }
  current_ = next;
  cursor_ = chunks_[current_].data.get();
  limit_ = cursor_ + chunks_[current_].size;
}

void ByteArena::clear() {
  if (capacity_bytes_ > kRetainedBytesMax) {
    std::size_t kept = 0;
    capacity_bytes_ = 0;
    while (kept < chunks_.size() && capacity_bytes_ + chunks_[kept].size <= kRetainedBytesMax)
      capacity_bytes_ += chunks_[kept++].size;
    chunks_.resize(kept);
  }
  current_ = 0;
  if (chunks_.empty()) {
    cursor_ = limit_ = nullptr;
  } else {
    cursor_ = chunks_[0].data.get();
    limit_ = cursor_ + chunks_[0].size;
  }
}

}  // namespace contend
