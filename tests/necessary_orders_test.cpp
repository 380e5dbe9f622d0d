// The orders every linearization keeps (model/necessary_orders.h), one rule at a time on small
// hand-made histories — each where the rule holds and just past where it stops holding — and
// what they do for the search on the recipes' own priority histories. The oracle test
// (linearizability_oracle_test.cpp) holds the search with the rules to a brute-force checker.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/linearizability.h"
#include "model/necessary_orders.h"
#include "scenarios/runner.h"
#include "tests/support/run_cli.h"

namespace contend::model {
namespace {

// A history written as operations, each with its invocation and completion event indexes (and
// so its real-time positions); `ret` < 0: the operation never completed (indeterminate).
struct Op {
  std::int64_t process = 0;
  OpFunction f = OpFunction::enqueue;
  std::string value;  // inserts: the item; removes/peeks: the answer ("" = empty)
  std::int64_t call = 0;
  std::int64_t ret = 0;
  std::optional<std::int64_t> priority;
};

Operations operations(const std::vector<Op>& ops) {
  std::vector<Event> events;
  for (const Op& op : ops) {
    const std::optional<Item> item =
        op.value.empty() ? std::nullopt : std::optional<Item>(Item{op.value, op.priority});
    Event invoke;
    invoke.index = op.call;
    invoke.process = op.process;
    invoke.type = EventType::invoke;
    invoke.f = op.f;
    if (is_insert(op.f)) invoke.value = item;
    events.push_back(invoke);
    if (op.ret < 0) continue;
    Event done = invoke;
    done.index = op.ret;
    done.type = EventType::ok;
    done.value = item;
    events.push_back(done);
  }
  History h(events.size());
  for (Event& e : events) {
    EXPECT_LT(static_cast<std::size_t>(e.index), h.size()) << "event indexes are 0..n-1";
    e.time_us = e.index;
    h[static_cast<std::size_t>(e.index)] = e;
  }
  EXPECT_FALSE(validate_history(h).has_value());
  // Every history here is linearizable: the orders are claims about its linearizations.
  const SpecKind spec = ops.front().f == OpFunction::push ? SpecKind::priority : SpecKind::fifo;
  EXPECT_TRUE(check_linearizable(h, spec, SearchOptions{.ties = TieOrder::event_order}).ok());
  return operations_of(h, TieOrder::event_order);
}

// The id of the operation invoked at event `call`.
std::int64_t op_at(const Operations& ops, std::int64_t call) {
  for (const Operation& op : ops.ops) {
    if (op.invoke == call) return op.id;
  }
  ADD_FAILURE() << "no operation invoked at event " << call;
  return 0;
}

constexpr auto enq = OpFunction::enqueue;
constexpr auto deq = OpFunction::dequeue;
constexpr auto push = OpFunction::push;
constexpr auto pop_min = OpFunction::pop_min;
constexpr auto pop_max = OpFunction::pop_max;
constexpr auto peek_max = OpFunction::peek_max;

TEST(NecessaryOrders, ARemoveWaitsForThePeeksOfItsItem) {
  // push a; peek_max -> a (3..8) runs long; pop_max -> a (4..5) answers first.
  const Operations ops = operations({{0, push, "a", 0, 1, 1},
                                     {1, peek_max, "a", 2, 7, 1},
                                     {2, pop_max, "a", 3, 4, 1},
                                     {3, peek_max, "", 5, 6, {}}});
  NecessaryOrders orders(ops, /*ordered=*/false);  // any spec
  const std::int64_t pop = op_at(ops, 3), peek = op_at(ops, 2);
  EXPECT_FALSE(orders.may_go(pop));
  orders.placed(op_at(ops, 0));
  orders.placed(peek);
  EXPECT_TRUE(orders.may_go(pop));
  orders.unplaced(peek);
  EXPECT_FALSE(orders.may_go(pop));
}

TEST(NecessaryOrders, AnItemInsertedTwiceTakesNoPart) {
  const Operations ops = operations({{0, push, "a", 0, 1, 1},
                                     {0, push, "a", 2, 3, 1},
                                     {1, peek_max, "a", 4, 9, 1},
                                     {2, pop_max, "a", 5, 6, 1},
                                     {2, pop_max, "a", 7, 8, 1}});
  const NecessaryOrders orders(ops, /*ordered=*/true);
  for (const Operation& op : ops.ops)
    EXPECT_TRUE(orders.may_go(op.id)) << describe(op);
}

// a and b enqueued concurrently; b dequeued (done at 5) before a's dequeue was invoked (6): a's
// item was still there after b was at the front, so b went in first.
TEST(NecessaryOrders, AnItemSeenAtTheFrontWentInBeforeTheItemsStillThereAfter) {
  const Operations ops = operations({{0, enq, "a", 0, 2, {}},
                                     {1, enq, "b", 1, 3, {}},
                                     {2, deq, "b", 4, 5, {}},
                                     {2, deq, "a", 6, 7, {}}});
  NecessaryOrders orders(ops, /*ordered=*/true);
  const std::int64_t a = op_at(ops, 0), b = op_at(ops, 1);
  EXPECT_TRUE(orders.may_go(b));
  EXPECT_FALSE(orders.may_go(a));
  orders.placed(b);
  EXPECT_TRUE(orders.may_go(a));
  orders.unplaced(b);
  EXPECT_FALSE(orders.may_go(a));

  // The dequeues overlapping, a's invoked before b's completed: either order may be.
  const Operations overlapping = operations({{0, enq, "a", 0, 2, {}},
                                             {1, enq, "b", 1, 3, {}},
                                             {2, deq, "b", 4, 6, {}},
                                             {3, deq, "a", 5, 7, {}}});
  const NecessaryOrders free(overlapping, /*ordered=*/true);
  EXPECT_TRUE(free.may_go(op_at(overlapping, 0)));
  EXPECT_TRUE(free.may_go(op_at(overlapping, 1)));
}

// x (pushed by 2) is still there after y was seen at the back (4..5), and was in the queue
// before that sighting began: x went in below y.
TEST(NecessaryOrders, AnItemSeenAtTheBackWentInAfterTheItemsInBeforeAndStillThereAfter) {
  const Operations ops = operations({{0, push, "x", 0, 2, 1},
                                     {1, push, "y", 1, 3, 1},
                                     {2, peek_max, "y", 4, 5, 1},
                                     {2, pop_max, "y", 6, 7, 1},
                                     {2, pop_max, "x", 8, 9, 1}});
  NecessaryOrders orders(ops, /*ordered=*/true);
  const std::int64_t x = op_at(ops, 0), y = op_at(ops, 1);
  EXPECT_FALSE(orders.may_go(y));
  orders.placed(x);
  EXPECT_TRUE(orders.may_go(y));

  // x's push completing after the sighting began (at 4..5, x done at 6): x may have gone in
  // after y was seen, on top of it — no order between the pushes.
  const Operations late = operations({{0, push, "x", 0, 6, 1},
                                      {1, push, "y", 1, 2, 1},
                                      {2, peek_max, "y", 3, 4, 1},
                                      {2, pop_max, "x", 5, 7, 1},
                                      {2, pop_max, "y", 8, 9, 1}});
  NecessaryOrders free(late, /*ordered=*/true);
  EXPECT_TRUE(free.may_go(op_at(late, 1)));
  // ... but once y is in, x waits for the sighting: on top of y it would have hidden y.
  free.placed(op_at(late, 1));
  EXPECT_FALSE(free.may_go(op_at(late, 0)));
  free.placed(op_at(late, 3));
  EXPECT_TRUE(free.may_go(op_at(late, 0)));
}

// z is still in the queue after observers that it would have hidden completed: z went in after
// them — after the "empty", and after the pop_min that saw w, above z's priority.
TEST(NecessaryOrders, AnItemThatWouldHaveHiddenAnAnswerWentInAfterIt) {
  const Operations ops = operations({{0, push, "z", 0, 7, 0},
                                     {1, pop_min, "", 1, 2, {}},  // empty
                                     {1, push, "w", 3, 4, 2},
                                     {1, pop_min, "w", 5, 6, 2},
                                     {2, pop_min, "z", 8, 9, 0}});
  NecessaryOrders orders(ops, /*ordered=*/true);
  const std::int64_t z = op_at(ops, 0);
  EXPECT_FALSE(orders.may_go(z));
  orders.placed(op_at(ops, 3));
  orders.placed(op_at(ops, 5));  // pop_min -> w
  EXPECT_FALSE(orders.may_go(z));
  orders.placed(op_at(ops, 1));  // the empty answer
  EXPECT_TRUE(orders.may_go(z));
  orders.unplaced(op_at(ops, 1));
  orders.unplaced(op_at(ops, 5));
  orders.placed(op_at(ops, 1));
  EXPECT_FALSE(orders.may_go(z));

  // An item of a priority the observer did not look past (above w's, for a pop_min) is no
  // hindrance: z at priority 3 may go in before the pop_min -> w.
  const Operations above = operations({{0, push, "z", 0, 5, 3},
                                       {1, push, "w", 1, 2, 2},
                                       {1, pop_min, "w", 3, 4, 2},
                                       {2, pop_min, "z", 6, 7, 3}});
  const NecessaryOrders free(above, /*ordered=*/true);
  EXPECT_TRUE(free.may_go(op_at(above, 0)));
}

TEST(NecessaryOrders, AnUnorderedSpecKeepsOnlyTheRemovesAfterPeeks) {
  const Operations ops = operations({{0, enq, "a", 0, 2, {}},
                                     {1, enq, "b", 1, 3, {}},
                                     {2, deq, "b", 4, 5, {}},
                                     {2, deq, "a", 6, 7, {}}});
  const NecessaryOrders orders(ops, /*ordered=*/false);
  EXPECT_TRUE(orders.may_go(op_at(ops, 0)));
}

// The recipes' own priority histories at 32 clients (about 1,800 operations, up to 32 at once):
// the search with the orders linearizes them in at most two steps an operation. Without them it
// spent its two million steps on each (measured on the code before the orders).
TEST(NecessaryOrders, TheSearchLinearizesTheRecipesPriorityHistoriesAt32Clients) {
  for (const char* file :
       {"scenarios/priority-queue.toml", "scenarios/hc-priority-queue-ordered.toml"}) {
    ScenarioError error;
    auto scenario = load_scenario(testing::source_path(file), error);
    ASSERT_TRUE(scenario.has_value()) << error.message;
    scenario->clients = 32;
    scenario->operations_per_client = 50;
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const History h = run_seed(*scenario, seed).history;
      const Verdict v = check_linearizable(h, SpecKind::priority, SearchOptions{.drained = true});
      const auto operations = static_cast<std::int64_t>(operations_of(h).ops.size());
      EXPECT_EQ(v.kind, VerdictKind::linearizable)
          << file << " seed " << seed << ": " << v.explanation;
      EXPECT_LE(v.steps, 2 * operations) << file << " seed " << seed;
    }
  }
}

}  // namespace
}  // namespace contend::model
