// The parts of a history that concern one item or two (model/item_projection.h): which
// operations a part keeps, which pairs of items are tried and in what order. That a part with no
// linearization proves the whole has none is held to the brute-force oracle in
// linearizability_oracle_test.cpp; what the search does with parts, in part_search_test.cpp.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "model/item_projection.h"
#include "tests/support/history_text.h"

namespace contend::model {
namespace {

using testing::history_of;

std::vector<std::int64_t> invocations(const Operations& ops) {
  std::vector<std::int64_t> out;
  for (const Operation& op : ops.ops)
    out.push_back(op.invoke);
  return out;
}

ItemId item_named(const Operations& ops, const std::string& value) {
  for (std::size_t i = 0; i < ops.items.size(); ++i) {
    if (ops.items[i].value == value) return static_cast<ItemId>(i);
  }
  ADD_FAILURE() << "no item " << value;
  return kNoItem;
}

// a lives from event 2 to event 10, b from 4 to 15; an indeterminate dequeue runs from 6 on.
const History kTwoItems = history_of({
    "0 invoke dequeue",    // 0: empty, before either item
    "0 ok dequeue -",      // 1
    "1 invoke enqueue a",  // 2
    "1 ok enqueue a",      // 3
    "2 invoke enqueue b",  // 4
    "2 ok enqueue b",      // 5
    "3 invoke dequeue",    // 6: indeterminate
    "0 invoke dequeue",    // 7: empty, while a and b live
    "0 ok dequeue -",      // 8
    "1 invoke dequeue",    // 9
    "1 ok dequeue a",      // 10
    "3 info dequeue",      // 11
    "0 invoke dequeue",    // 12: empty, after a, while b lives
    "0 ok dequeue -",      // 13
    "1 invoke dequeue",    // 14
    "1 ok dequeue b",      // 15
});

TEST(ItemProjections, APartKeepsItsItemsTheEmptyAnswersDuringThemAndEveryIndeterminateRemove) {
  const Operations ops = operations_of(kTwoItems, TieOrder::event_order);
  const ItemProjections parts(ops);
  const ItemId a = item_named(ops, "a");
  const ItemId b = item_named(ops, "b");

  const Operations only_a = parts.project(std::array{a});
  EXPECT_EQ(invocations(only_a), (std::vector<std::int64_t>{2, 6, 7, 9}));
  ASSERT_EQ(only_a.items.size(), 1u);
  EXPECT_EQ(only_a.items[0].value, "a");
  for (std::size_t i = 0; i < only_a.ops.size(); ++i) {
    const Operation& op = only_a.ops[i];
    EXPECT_EQ(op.id, static_cast<std::int64_t>(i)) << "operations are renumbered";
    if (is_insert(op.f)) {
      EXPECT_EQ(op.input_id, 0) << "items are renumbered";
    }
    if (op.output) {
      EXPECT_EQ(op.output_id, 0) << "items are renumbered";
    }
  }
  EXPECT_EQ(only_a.ops[1].call, ops.ops[3].call) << "real-time positions stay the history's";

  EXPECT_EQ(invocations(parts.project(std::array{b})),
            (std::vector<std::int64_t>{4, 6, 7, 12, 14}));
  EXPECT_EQ(invocations(parts.project(std::array{a, b})),
            (std::vector<std::int64_t>{2, 4, 6, 7, 9, 12, 14}));
}

TEST(ItemProjections, AnItemThatMayStillBeThereLivesToTheEnd) {
  const History h = history_of({
      "0 invoke enqueue a",  // 0
      "0 ok enqueue a",      // 1
      "1 invoke enqueue c",  // 2: indeterminate
      "1 info enqueue c",    // 3
      "0 invoke dequeue",    // 4
      "0 ok dequeue -",      // 5
  });
  const Operations ops = operations_of(h, TieOrder::event_order);
  const ItemProjections parts(ops);
  // a was never removed: the empty answer after its insert is in its part (and shows it lost);
  // so is it for c, which may have gone in at any time.
  EXPECT_EQ(invocations(parts.project(std::array{item_named(ops, "a")})),
            (std::vector<std::int64_t>{0, 4}));
  EXPECT_EQ(invocations(parts.project(std::array{item_named(ops, "c")})),
            (std::vector<std::int64_t>{2, 4}));
}

TEST(ItemProjections, AnItemRemovedButNeverInsertedIsAPartOfItsOwn) {
  const History h = history_of({"0 invoke dequeue", "0 ok dequeue x"});
  const Operations ops = operations_of(h, TieOrder::event_order);
  const ItemProjections parts(ops);
  ASSERT_EQ(parts.items().size(), 1u);
  EXPECT_EQ(invocations(parts.project(parts.items())), (std::vector<std::int64_t>{0}));
}

std::vector<std::pair<std::string, std::string>> pairs_of(const Operations& ops,
                                                          std::int64_t looked_at_max,
                                                          bool* looked_at_all = nullptr) {
  std::vector<std::pair<std::string, std::string>> out;
  const bool all =
      ItemProjections(ops).for_each_overlapping_pair(looked_at_max, [&](ItemId a, ItemId b) {
        out.emplace_back(ops.items[static_cast<std::size_t>(a)].value,
                         ops.items[static_cast<std::size_t>(b)].value);
        return true;
      });
  if (looked_at_all != nullptr) *looked_at_all = all;
  return out;
}

TEST(ItemProjections, PairsAreItemsWhoseLifetimesOverlapNeighboursFirst) {
  // a, b and c overlap (each is inserted before the one before it is removed); d comes after
  // every one of them is gone.
  const History h = history_of({
      "0 invoke enqueue a", "0 ok enqueue a",  // 0, 1
      "1 invoke enqueue b", "1 ok enqueue b",  // 2, 3
      "2 invoke enqueue c", "2 ok enqueue c",  // 4, 5
      "0 invoke dequeue", "0 ok dequeue a",    // 6, 7
      "0 invoke dequeue", "0 ok dequeue b",    // 8, 9
      "0 invoke dequeue", "0 ok dequeue c",    // 10, 11
      "0 invoke enqueue d", "0 ok enqueue d",  // 12, 13
      "0 invoke dequeue", "0 ok dequeue d",    // 14, 15
  });
  const Operations ops = operations_of(h, TieOrder::event_order);
  using P = std::pair<std::string, std::string>;
  bool all = false;
  EXPECT_EQ(pairs_of(ops, 1'000, &all), (std::vector<P>{{"a", "b"}, {"b", "c"}, {"a", "c"}}));
  EXPECT_TRUE(all);
  // The look is bounded: the fourth pair looked at (a-c, after a-b, b-c and c-d, which does not
  // overlap) is past a bound of 3.
  EXPECT_EQ(pairs_of(ops, 3, &all), (std::vector<P>{{"a", "b"}, {"b", "c"}}));
  EXPECT_FALSE(all);
}

TEST(ItemProjections, AnItemRemovedBeforeItsInsertReturnedLivesFromItsInsert) {
  // The dequeue of b was invoked first, but b lives only from its insert's invocation: it does
  // not overlap a, which was gone by then.
  const History h = history_of({
      "0 invoke dequeue", "1 invoke enqueue a",  // 0, 1
      "1 ok enqueue a", "2 invoke dequeue",      // 2, 3
      "2 ok dequeue a", "1 invoke enqueue b",    // 4, 5
      "1 ok enqueue b", "0 ok dequeue b",        // 6, 7
  });
  const Operations ops = operations_of(h, TieOrder::event_order);
  EXPECT_TRUE(pairs_of(ops, 1'000).empty());
}

TEST(ItemProjections, OnlyEmptyAnswersAndDeterminatePeeksOnlyObserve) {
  const History h = history_of({
      "0 invoke push a 1", "0 ok push a 1",      // 0, 1
      "0 invoke peek_min", "0 ok peek_min a 1",  // 2, 3
      "0 invoke pop_min", "0 ok pop_min -",      // 4, 5 (an empty answer, for the test)
      "0 invoke pop_max", "0 ok pop_max a 1",    // 6, 7
      "1 invoke peek_max", "1 info peek_max",    // 8, 9
  });
  const Operations ops = operations_of(h, TieOrder::event_order);
  std::vector<bool> observes;
  for (const Operation& op : ops.ops)
    observes.push_back(only_observes(op));
  EXPECT_EQ(observes, (std::vector<bool>{false, true, true, false, false}));

  const Operations smaller = without_operation(ops, 1);
  EXPECT_EQ(invocations(smaller), (std::vector<std::int64_t>{0, 4, 6, 8}));
  for (std::size_t i = 0; i < smaller.ops.size(); ++i)
    EXPECT_EQ(smaller.ops[i].id, static_cast<std::int64_t>(i));
}

}  // namespace
}  // namespace contend::model
