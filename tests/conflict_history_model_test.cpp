// The conflict history: named rules, and a model test against a plain list of (range, version).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "sim/store/conflict_history.h"

namespace contend {
namespace {

KeyRange r(const char* b, const char* e) {
  return KeyRange{b, e};
}

TEST(ConflictHistory, AWriteEndingExactlyAtTheReadBeginDoesNotIntersect) {
  ConflictHistory h;
  h.add(r("a", "c"), 10);
  EXPECT_EQ(h.newest_write(r("c", "d")), kInvalidVersion);
  EXPECT_EQ(h.newest_write(r("b", "d")), 10);
}

TEST(ConflictHistory, AWriteAtTheReadEndDoesNotIntersect) {
  ConflictHistory h;
  h.add(single_key_range("d"), 10);
  EXPECT_EQ(h.newest_write(r("a", "d")), kInvalidVersion);
  EXPECT_EQ(h.newest_write(r("a", "d\x01")), 10);
}

TEST(ConflictHistory, APointWriteInsideARangeIsFound) {
  ConflictHistory h;
  h.add(single_key_range("m"), 7);
  EXPECT_EQ(h.newest_write(r("a", "z")), 7);
  EXPECT_EQ(h.newest_write(single_key_range("m")), 7);
  EXPECT_EQ(h.newest_write(single_key_range("n")), kInvalidVersion);
}

TEST(ConflictHistory, TheNewestOfOverlappingWritesWins) {
  ConflictHistory h;
  h.add(r("a", "z"), 5);
  h.add(r("c", "d"), 9);
  EXPECT_EQ(h.newest_write(r("a", "b")), 5);
  EXPECT_EQ(h.newest_write(r("a", "e")), 9);
  EXPECT_EQ(h.newest_write(r("d", "e")), 5)
      << "a newer write hides the older only where it overlaps";
}

TEST(ConflictHistory, PrunedWritesVanish) {
  ConflictHistory h;
  h.add(r("a", "b"), 5);
  h.add(r("c", "d"), 50);
  h.prune(10);
  EXPECT_EQ(h.newest_write(r("a", "b")), kInvalidVersion);
  EXPECT_EQ(h.newest_write(r("a", "z")), 50);
}

TEST(ConflictHistory, CompactionKeepsMemoryProportionalToTheWindow) {
  ConflictHistory h;
  for (Version v = 1; v <= 200'000; ++v) {
    h.add(single_key_range("k" + std::to_string(v)), v);
    if (v % 1000 == 0) h.prune(v - 1000);
  }
  EXPECT_LT(h.segment_count(), 20'000u);
  EXPECT_EQ(h.newest_write(r("k", "l")), 200'000);
}

RC_GTEST_PROP(ConflictHistory, AgreesWithANaiveListOfWrites, ()) {
  ConflictHistory h;
  std::vector<std::pair<KeyRange, Version>> naive;
  Version horizon = kInvalidVersion;
  Version v = 0;
  const auto keys = rc::gen::element<std::string>("", "a", "a\x00", "b", "bb", "c", "d", "e", "f");
  const int steps = *rc::gen::inRange(1, 60);
  for (int step = 0; step < steps; ++step) {
    int what = *rc::gen::inRange(0, 10);
    std::string x = *keys, y = *keys;
    if (y < x) std::swap(x, y);
    KeyRange range{x, y};
    if (what < 5) {
      v += *rc::gen::inRange(0, 3);
      h.add(range, v);
      if (!range.empty()) naive.emplace_back(range, v);
    } else if (what < 6) {
      horizon = std::max(horizon, v - *rc::gen::inRange(0, 5));
      h.prune(horizon);
    } else {
      Version expected = kInvalidVersion;
      for (const auto& [w, wv] : naive) {
        if (wv >= horizon && w.intersects(range)) expected = std::max(expected, wv);
      }
      RC_ASSERT(h.newest_write(range) == expected);
    }
  }
}

}  // namespace
}  // namespace contend
