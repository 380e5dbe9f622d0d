// The conflict history: named rules, and model tests against a plain list of (range, version) —
// including the single-key fast paths mixed with wide ranges, keys on either side of the inline
// key buffer, and compaction after many single-key writes.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sim/runtime/rng.h"
#include "sim/store/conflict_history.h"

namespace contend {
namespace {

using namespace std::string_literals;

KeyRange r(const char* b, const char* e) {
  return KeyRange{b, e};
}

// The model: every recorded write still inside the window.
class NaiveHistory {
 public:
  void add(const KeyRange& range, Version version) {
    if (!range.empty()) writes_.emplace_back(range, version);
  }
  void prune(Version horizon) {
    horizon_ = std::max(horizon_, horizon);
    std::erase_if(writes_, [&](const auto& w) { return w.second < horizon_; });
  }
  Version newest_write(const KeyRange& range) const {
    Version newest = kInvalidVersion;
    for (const auto& [w, v] : writes_) {
      if (w.intersects(range)) newest = std::max(newest, v);
    }
    return newest;
  }

 private:
  std::vector<std::pair<KeyRange, Version>> writes_;
  Version horizon_ = kInvalidVersion;
};

struct Step {
  enum class Kind { add, prune, query } kind;
  KeyRange range;
  Version version = kInvalidVersion;  // written (add) or horizon (prune)
};

std::string describe(const KeyRange& range) {
  return "[" + printable(range.begin) + ", " + printable(range.end) + ")";
}

// Replays the steps on a ConflictHistory and on the model; "" when every query agrees, else the
// first query that diverged, named by its step number.
std::string first_divergence(const std::vector<Step>& steps) {
  ConflictHistory history;
  NaiveHistory model;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const Step& step = steps[i];
    switch (step.kind) {
      case Step::Kind::add:
        history.add(step.range, step.version);
        model.add(step.range, step.version);
        break;
      case Step::Kind::prune:
        history.prune(step.version);
        model.prune(step.version);
        break;
      case Step::Kind::query: {
        const Version got = history.newest_write(step.range);
        const Version want = model.newest_write(step.range);
        if (got != want) {
          return "step " + std::to_string(i) + ": newest_write" + describe(step.range) + " = " +
                 std::to_string(got) + ", the model says " + std::to_string(want);
        }
        break;
      }
    }
  }
  return "";
}

// Keys around the inline key buffer's size (47/48/49 bytes, and their key_after), short keys,
// keys sharing their first eight or sixteen bytes (compared past the cached head), and keys that
// are one another's key_after — where the single-key fast paths must decide.
const std::vector<std::string>& edge_keys() {
  static const std::vector<std::string> keys = {
      "",
      "a",
      "a\0"s,
      "a\0\0"s,
      "b",
      "bb",
      "kkkkkkk",
      "kkkkkkk\0"s,
      "kkkkkkkk",
      "kkkkkkkk\0"s,
      "kkkkkkkka",
      std::string(15, 'k'),
      std::string(15, 'k') + "\0"s,
      std::string(16, 'k'),
      std::string(16, 'k') + "\0"s,
      std::string(16, 'k') + "a",
      std::string(17, 'k'),
      std::string(47, 'k'),
      std::string(47, 'k') + "\0"s,
      std::string(48, 'k'),
      std::string(48, 'k') + "\0"s,
      std::string(49, 'k'),
      std::string(90, 'k'),
      std::string(90, 'k') + "\0"s,
      "l",
  };
  return keys;
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

TEST(ConflictHistory, ASingleKeyWriteInsideAWideWriteSplitsIt) {
  ConflictHistory h;
  h.add(r("a", "z"), 5);
  h.add(single_key_range("m"), 9);
  EXPECT_EQ(h.newest_write(r("a", "m")), 5);
  EXPECT_EQ(h.newest_write(single_key_range("m")), 9);
  EXPECT_EQ(h.newest_write(single_key_range("m\0"s)), 5) << "the key after m keeps the old version";
  EXPECT_EQ(h.newest_write(r("m\x01", "z")), 5);
  EXPECT_EQ(h.newest_write(r("z", "zz")), kInvalidVersion);
}

TEST(ConflictHistory, AKeyWrittenAgainKeepsTheSegmentAfterIt) {
  ConflictHistory h;
  h.add(r("a", "z"), 5);
  h.add(single_key_range("m"), 7);
  h.add(single_key_range("m"), 9);
  h.add(single_key_range("m\0"s), 11);
  EXPECT_EQ(h.newest_write(single_key_range("m")), 9);
  EXPECT_EQ(h.newest_write(single_key_range("m\0"s)), 11);
  EXPECT_EQ(h.newest_write(single_key_range("m\0\0"s)), 5);
  EXPECT_EQ(h.newest_write(r("b", "m")), 5);
}

TEST(ConflictHistory, KeysLongerThanTheInlineBufferWork) {
  ConflictHistory h;
  const std::string long_key(200, 'x');
  h.add(single_key_range(long_key), 3);
  h.add(KeyRange{std::string(100, 'x'), std::string(300, 'x')}, 4);
  h.add(single_key_range(long_key), 6);
  EXPECT_EQ(h.newest_write(single_key_range(long_key)), 6);
  EXPECT_EQ(h.newest_write(single_key_range(std::string(150, 'x'))), 4);
  EXPECT_EQ(h.newest_write(KeyRange{std::string(201, 'x'), "y"}), 4);
  EXPECT_EQ(h.newest_write(KeyRange{std::string(300, 'x'), "y"}), kInvalidVersion);
}

TEST(ConflictHistory, ACopyAnswersLikeTheOriginal) {
  ConflictHistory h;
  for (int i = 0; i < 100; ++i)
    h.add(single_key_range(std::string(static_cast<std::size_t>(i), 'q')), i);
  ConflictHistory copy = h;
  h.add(r("a", "z"), 1000);
  ConflictHistory moved = std::move(copy);
  for (int i = 0; i < 100; ++i) {
    const KeyRange key = single_key_range(std::string(static_cast<std::size_t>(i), 'q'));
    EXPECT_EQ(moved.newest_write(key), i) << "key of " << i << " bytes";
  }
  EXPECT_EQ(moved.segment_count(), 200u) << "each key and its key_after";
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

RC_GTEST_PROP(ConflictHistory, SingleKeyAndWideWritesOverEdgeKeysAgreeWithTheModel, ()) {
  const auto key = rc::gen::elementOf(edge_keys());
  std::vector<Step> steps;
  Version v = 0;
  const int count = *rc::gen::inRange(1, 120);
  for (int i = 0; i < count; ++i) {
    const int what = *rc::gen::inRange(0, 12);
    const bool single = *rc::gen::inRange(0, 3) != 0;
    KeyRange range = single_key_range(*key);
    if (!single) {
      std::string x = *key, y = *key;
      if (y < x) std::swap(x, y);
      range = KeyRange{x, y};
    }
    if (what < 6) {
      v += *rc::gen::inRange(0, 3);
      steps.push_back(Step{Step::Kind::add, range, v});
    } else if (what < 7) {
      steps.push_back(Step{Step::Kind::prune, {}, v - *rc::gen::inRange(0, 6)});
    } else {
      steps.push_back(Step{Step::Kind::query, range});
    }
  }
  const std::string divergence = first_divergence(steps);
  if (!divergence.empty()) RC_FAIL(divergence);
}

// Recipe-like keys ("\x02Q\x00\x15" + 8 bytes + a tail that makes some longer than the inline
// buffer), written one key at a time with a sliding pruning horizon: enough boundaries for many
// compactions, with a few wide writes and wide reads mixed in.
TEST(ConflictHistory, CompactionAfterSingleKeyWritesAgreesWithTheModel) {
  Rng rng(42);
  auto recipe_key = [&](std::uint64_t i) {
    std::string k = "\x02Q\x00\x15"s;
    for (int b = 7; b >= 0; --b)
      k.push_back(static_cast<char>((i >> (8 * b)) & 0xff));
    k.append(i % 7 == 0 ? 60 : 20, static_cast<char>('a' + i % 5));
    return k;
  };
  std::vector<Step> steps;
  Version v = 0;
  for (int i = 0; i < 40'000; ++i) {
    const std::uint64_t a = rng.uniform(20'000);
    const std::uint64_t kind = rng.uniform(100);
    if (kind < 60) {
      steps.push_back(Step{Step::Kind::add, single_key_range(recipe_key(a)), ++v});
    } else if (kind < 62) {
      const KeyRange wide{recipe_key(a), recipe_key(a + rng.uniform(50))};
      steps.push_back(Step{Step::Kind::add, wide, ++v});
    } else if (kind < 65) {
      steps.push_back(Step{Step::Kind::prune, {}, v - 800});
    } else if (kind < 90) {
      steps.push_back(Step{Step::Kind::query, single_key_range(recipe_key(a))});
    } else {
      const KeyRange wide{recipe_key(a), recipe_key(a + rng.uniform(300))};
      steps.push_back(Step{Step::Kind::query, wide});
    }
  }
  EXPECT_EQ(first_divergence(steps), "");

  ConflictHistory h;
  for (const Step& step : steps) {
    if (step.kind == Step::Kind::add) h.add(step.range, step.version);
    if (step.kind == Step::Kind::prune) h.prune(step.version);
  }
  EXPECT_LT(h.segment_count(), 12'000u) << "compaction keeps the history near the window";
}

}  // namespace
}  // namespace contend
