// FifoRing and ByteFifo: the MVCC log's storage keeps numbers and bytes stable while the window
// moves.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sim/store/fifo.h"

namespace contend {
namespace {

TEST(FifoRing, NumbersSurviveGrowthAndWrapAround) {
  FifoRing<int> ring;
  // Push and pop so the live run wraps around the slots, then grow past every capacity.
  for (int i = 0; i < 50; ++i)
    ring.push_back(i);
  for (int i = 0; i < 40; ++i)
    ring.pop_front();
  for (int i = 50; i < 1000; ++i)
    ring.push_back(i);
  ASSERT_EQ(ring.begin(), 40u);
  ASSERT_EQ(ring.end(), 1000u);
  for (FifoRing<int>::Number n = ring.begin(); n != ring.end(); ++n)
    ASSERT_EQ(ring[n], static_cast<int>(n)) << "entry " << n << " moved or was lost in growth";
  ring.pop_front_until(999);
  EXPECT_EQ(ring.size(), 1u);
  EXPECT_EQ(ring.front(), 999);
}

TEST(FifoRing, PartitionPointSearchesARunOfNumbersAcrossTheWrap) {
  FifoRing<int> ring;
  for (int i = 0; i < 60; ++i)
    ring.push_back(i);
  ring.pop_front_until(50);  // 50..59 live; pushes below wrap into the slots 0..
  for (int i = 60; i < 100; ++i)
    ring.push_back(i);
  for (int bound = 45; bound <= 105; ++bound) {
    const auto below = [bound](int v) { return v < bound; };
    const auto expected = static_cast<FifoRing<int>::Number>(std::clamp(bound, 50, 100));
    EXPECT_EQ(ring.partition_point(ring.begin(), ring.end(), below), expected) << "bound " << bound;
  }
  EXPECT_EQ(ring.partition_point(70, 80, [](int v) { return v < 75; }), 75u);
  EXPECT_EQ(ring.partition_point(70, 70, [](int) { return true; }), 70u);
}

TEST(ByteFifo, ViewsStayValidUntilTheirChunkIsReleased) {
  ByteFifo bytes;
  const ByteFifo::Mark first = bytes.mark();
  std::vector<std::string_view> views;
  std::vector<std::string> expected;
  // Enough appends to fill several chunks.
  for (int i = 0; i < 20'000; ++i) {
    expected.push_back("key-" + std::to_string(i) +
                       std::string(static_cast<std::size_t>(i % 7), 'x'));
    views.push_back(bytes.append(expected.back()));
  }
  ASSERT_GT(bytes.chunk_count(), 1u);
  for (std::size_t i = 0; i < views.size(); ++i)
    ASSERT_EQ(views[i], expected[i]) << "append " << i << " was overwritten";
  // Releasing before a mark taken now keeps everything appended from now on.
  const ByteFifo::Mark later = bytes.mark();
  EXPECT_GT(later, first);
  const std::string_view kept = bytes.append("kept");
  bytes.release_before(later);
  EXPECT_EQ(bytes.chunk_count(), 1u);
  EXPECT_EQ(kept, "kept");
  EXPECT_EQ(views.back(), expected.back()) << "the newest chunk was released";
}

TEST(ByteFifo, APairLandsSideBySideInOneChunkAndSurvivesLikeAnAppend) {
  ByteFifo bytes;
  std::vector<std::pair<std::string_view, std::string_view>> views;
  std::vector<std::pair<std::string, std::string>> expected;
  for (int i = 0; i < 20'000; ++i) {  // several chunks, so some pairs meet a chunk's end
    expected.emplace_back("key-" + std::to_string(i),
                          std::string(static_cast<std::size_t>(i % 11), 'v'));
    views.push_back(bytes.append_pair(expected.back().first, expected.back().second));
    ASSERT_EQ(views.back().first.data() + views.back().first.size(), views.back().second.data())
        << "pair " << i << " was split";
  }
  ASSERT_GT(bytes.chunk_count(), 1u);
  for (std::size_t i = 0; i < views.size(); ++i) {
    ASSERT_EQ(views[i].first, expected[i].first) << "pair " << i;
    ASSERT_EQ(views[i].second, expected[i].second) << "pair " << i;
  }
  const auto empty = bytes.append_pair("", "");
  EXPECT_TRUE(empty.first.empty() && empty.second.empty());
}

TEST(ByteFifo, AnOversizedItemGetsAChunkOfItsOwn) {
  ByteFifo bytes;
  const std::string big(ByteFifo::kChunkBytes * 2 + 3, 'b');
  const std::string_view small_before = bytes.append("before");
  const std::string_view big_view = bytes.append(big);
  const std::string_view small_after = bytes.append("after");
  EXPECT_EQ(big_view, big);
  EXPECT_EQ(small_before, "before");
  EXPECT_EQ(small_after, "after");
  EXPECT_EQ(bytes.chunk_count(), 3u);
  EXPECT_TRUE(bytes.append("").empty());
  bytes.release_all();
  EXPECT_EQ(bytes.chunk_count(), 0u);
  EXPECT_EQ(bytes.append("again"), "again");
}

}  // namespace
}  // namespace contend
