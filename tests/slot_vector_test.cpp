// SlotVector: live elements behave like a vector; cleared slots keep their storage for reuse.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "sim/store/slot_vector.h"

namespace contend {
namespace {

using ::testing::ElementsAre;

TEST(SlotVector, ClearedSlotsKeepTheirStringsCapacity) {
  SlotVector<std::string> v;
  v.push_slot().assign(100, 'x');
  const char* storage = v[0].data();
  v.clear();
  EXPECT_TRUE(v.empty());
  std::string& reused = v.push_slot();
  reused.assign("a key longer than the small-string buffer");
  EXPECT_EQ(reused.data(), storage) << "the slot's storage was not reused";
  EXPECT_THAT(v, ElementsAre("a key longer than the small-string buffer"));
}

TEST(SlotVector, TrimSparesBoundsWhatIsKept) {
  SlotVector<std::string> v;
  for (int i = 0; i < 10; ++i)
    v.push_slot() = std::to_string(i);
  v.clear();
  v.trim_spares(3);
  EXPECT_EQ(v.capacity_slots(), 3u);
}

// Sorted inserts (push_slot + move_last_to) and range erases agree with a std::vector model.
RC_GTEST_PROP(SlotVector, SortedInsertsAndErasesMatchAVector, ()) {
  SlotVector<std::string> v;
  std::vector<std::string> model;
  const auto steps = *rc::gen::inRange(1, 60);
  for (int step = 0; step < steps; ++step) {
    const int action = *rc::gen::inRange(0, 4);
    if (action < 3) {
      const std::string key = *rc::gen::container<std::string>(rc::gen::inRange<char>('a', 'e'));
      const auto at = static_cast<std::size_t>(std::lower_bound(model.begin(), model.end(), key) -
                                               model.begin());
      model.insert(model.begin() + static_cast<std::ptrdiff_t>(at), key);
      v.push_slot().assign(key);
      v.move_last_to(at);
    } else if (action == 3 && !model.empty()) {
      const auto first = *rc::gen::inRange<std::size_t>(0, model.size());
      const auto last = *rc::gen::inRange<std::size_t>(first, model.size() + 1);
      model.erase(model.begin() + static_cast<std::ptrdiff_t>(first),
                  model.begin() + static_cast<std::ptrdiff_t>(last));
      v.erase(first, last);
    } else {
      model.clear();
      v.clear();
    }
    RC_ASSERT(std::vector<std::string>(v.begin(), v.end()) == model);
  }
}

}  // namespace
}  // namespace contend
