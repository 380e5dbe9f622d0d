// Bytes a transaction copies in — its keys, values and conflict-range ends — handed back as views
// that stay valid until clear(). A key is copied once with a '\x00' after it, so the same bytes
// serve as the key (the first n) and as key_after(key) (all n + 1): a single-key write's mutation,
// write-map entry and write conflict range [key, key + '\x00') all view one copy.
//
// Invariants: chunks never move or shrink while views into them may live (until clear()); the
// chunks before current_ are full as far as this use of the arena goes; clear() keeps chunks of at
// most kRetainedBytesMax in all, so a steady stream of transactions allocates nothing here.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <vector>

#include "sim/store/bytes.h"

namespace contend {

class ByteArena {
 public:
  static constexpr std::size_t kFirstChunkBytes = 1024;
  static constexpr std::size_t kRetainedBytesMax = 64 * 1024;

  ByteArena() = default;
  ByteArena(const ByteArena&) = delete;  // views point into it
  ByteArena& operator=(const ByteArena&) = delete;

  // A copy of `bytes` (empty stays empty, with no storage).
  BytesView copy(BytesView bytes) {
    if (bytes.empty()) return {};
    char* at = allocate(bytes.size());
    copy_bytes(at, bytes.data(), bytes.size());
    return BytesView(at, bytes.size());
  }
  // A copy of key_after(key): `key` and a '\x00'. Its first key.size() bytes are a copy of key.
  BytesView copy_key_after(BytesView key) {
    char* at = allocate(key.size() + 1);
    copy_bytes(at, key.data(), key.size());
    at[key.size()] = '\0';
    return BytesView(at, key.size() + 1);
  }
  // Forgets every copy (their views dangle from now on); keeps storage up to kRetainedBytesMax.
  void clear();
  std::size_t capacity_bytes() const { return capacity_bytes_; }

 private:
  struct Chunk {
    std::unique_ptr<char[]> data;
    std::size_t size = 0;
  };
  char* allocate(std::size_t n) {
    if (static_cast<std::size_t>(limit_ - cursor_) < n) next_chunk(n);
    char* at = cursor_;
    cursor_ += n;
    return at;
  }
  // Moves to the next chunk with room for n bytes, adding one when none is left.
  void next_chunk(std::size_t n);

  std::vector<Chunk> chunks_;
  std::size_t current_ = 0;  // the chunk cursor_ points into (when chunks_ is not empty)
  char* cursor_ = nullptr;
  char* limit_ = nullptr;
  std::size_t capacity_bytes_ = 0;  // the sum of the chunks' sizes
};

}  // namespace contend
