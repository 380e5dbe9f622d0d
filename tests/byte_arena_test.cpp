// ByteArena: copies stay valid and unchanged while the arena grows, and clear() keeps a bounded
// amount of storage for the next transaction.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/store/byte_arena.h"

namespace contend {
namespace {

std::string pattern(std::size_t i, std::size_t size) {
  std::string s(size, '\0');
  for (std::size_t j = 0; j < size; ++j)
    s[j] = static_cast<char>('a' + (i * 7 + j) % 26);
  return s;
}

TEST(ByteArena, CopiesSurviveGrowthIntoNewChunks) {
  ByteArena arena;
  std::vector<std::string> originals;
  std::vector<BytesView> copies;
  // Sizes from 1 byte to past the first chunk, so copies span many chunks and an oversized one.
  for (std::size_t i = 0; i < 400; ++i) {
    originals.push_back(pattern(i, 1 + (i * 37) % 300));
    copies.push_back(arena.copy(originals.back()));
  }
  originals.push_back(pattern(400, 3 * ByteArena::kFirstChunkBytes));
  copies.push_back(arena.copy(originals.back()));
  for (std::size_t i = 0; i < copies.size(); ++i) {
    ASSERT_EQ(copies[i], originals[i]) << "copy " << i << " changed after later copies";
    ASSERT_NE(copies[i].data(), originals[i].data()) << "copy " << i << " is not a copy";
  }
}

TEST(ByteArena, KeyAfterCopyHoldsTheKeyThenAZeroByte) {
  ByteArena arena;
  const BytesView after = arena.copy_key_after("key");
  EXPECT_EQ(after, BytesView("key\0", 4));
  EXPECT_EQ(arena.copy_key_after(""), BytesView("\0", 1));
  EXPECT_TRUE(arena.copy("").empty());
}

TEST(ByteArena, ClearKeepsBoundedStorageAndReusesIt) {
  ByteArena arena;
  for (std::size_t i = 0; i < 2000; ++i)
    arena.copy(pattern(i, 500));  // about 1 MB
  ASSERT_GT(arena.capacity_bytes(), ByteArena::kRetainedBytesMax);
  arena.clear();
  EXPECT_LE(arena.capacity_bytes(), ByteArena::kRetainedBytesMax);
  const std::size_t kept = arena.capacity_bytes();
  EXPECT_GT(kept, 0u) << "a steady stream of transactions should not reallocate";
  for (std::size_t round = 0; round < 3; ++round) {
    for (std::size_t i = 0; i < 20; ++i)
      EXPECT_EQ(arena.copy(pattern(i, 100)), pattern(i, 100));
    arena.clear();
    EXPECT_EQ(arena.capacity_bytes(), kept) << "round " << round << " allocated again";
  }
}

}  // namespace
}  // namespace contend
