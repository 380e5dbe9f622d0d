// The order the linearizability search tries candidates in (model/search_order.h): inserts just
// in time, in the order the queue hands their items out. Each history here is linearizable, and
// only one order of its concurrent inserts works; trying them in invocation order finds it after
// some N! tries a round, trying them by observation at once. Verdicts never depend on the order:
// the oracle test (linearizability_oracle_test.cpp) holds both orders to it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/linearizability.h"

namespace contend::model {
namespace {

constexpr int kProcesses = 8;
constexpr int kRounds = 12;

class Recorder {
 public:
  void add(std::int64_t process, EventType type, OpFunction f, std::optional<Item> value) {
    Event e;
    e.index = static_cast<std::int64_t>(history_.size());
    e.time_us = e.index;
    e.process = process;
    e.type = type;
    e.f = f;
    e.value = std::move(value);
    history_.push_back(std::move(e));
  }
  const History& history() const { return history_; }

 private:
  History history_;
};

Item item(int round, int i, std::optional<std::int64_t> priority) {
  return Item{"r" + std::to_string(round) + "i" + std::to_string(i), priority};
}

// kRounds rounds: every process inserts one item, all at once; then process 0 removes them one by
// one with `remove`, in the order `taken(i)` names (one insert order alone explains it).
template <typename Taken>
History rounds(OpFunction insert, OpFunction remove, std::optional<std::int64_t> priority,
               Taken taken) {
  Recorder r;
  for (int round = 0; round < kRounds; ++round) {
    for (int p = 0; p < kProcesses; ++p)
      r.add(p, EventType::invoke, insert, item(round, p, priority));
    for (int p = 0; p < kProcesses; ++p)
      r.add(p, EventType::ok, insert, item(round, p, priority));
    for (int i = 0; i < kProcesses; ++i) {
      r.add(0, EventType::invoke, remove, std::nullopt);
      r.add(0, EventType::ok, remove, item(round, taken(i), priority));
    }
  }
  EXPECT_FALSE(validate_history(r.history()).has_value());
  return r.history();
}

void expect_found_at_once_and_not_in_invocation_order(const History& h, SpecKind spec) {
  const auto operations = static_cast<std::int64_t>(2 * kProcesses * kRounds);
  const Verdict by_observation = check_linearizable(h, spec, {.step_budget = 1'000'000});
  ASSERT_TRUE(by_observation.ok()) << by_observation.explanation;
  EXPECT_LE(by_observation.steps, 2 * operations) << "trying inserts by observation backtracked";
  const Verdict by_invocation =
      check_linearizable(h, spec, {.step_budget = 200'000, .order = CandidateOrder::invocation});
  EXPECT_EQ(by_invocation.kind, VerdictKind::unknown)
      << "the history no longer needs the inserts in another order than invoked";
}

TEST(SearchOrder, ConcurrentEnqueuesDequeuedInReverseAreLinearizedWithoutBacktracking) {
  const History h = rounds(OpFunction::enqueue, OpFunction::dequeue, std::nullopt,
                           [](int i) { return kProcesses - 1 - i; });
  expect_found_at_once_and_not_in_invocation_order(h, SpecKind::fifo);
}

TEST(SearchOrder, PushesOfOnePriorityTakenFromTheBackGoInLastSeenFirst) {
  // pop_max hands out the latest push of a priority first: items taken in invocation order
  // went in in reverse.
  const History h = rounds(OpFunction::push, OpFunction::pop_max, 5, [](int i) { return i; });
  expect_found_at_once_and_not_in_invocation_order(h, SpecKind::priority);
}

TEST(SearchOrder, PushesOfOnePriorityTakenFromTheFrontGoInFirstSeenFirst) {
  const History h =
      rounds(OpFunction::push, OpFunction::pop_min, 5, [](int i) { return kProcesses - 1 - i; });
  expect_found_at_once_and_not_in_invocation_order(h, SpecKind::priority);
}

TEST(SearchOrder, AnItemNobodySawWaitsUntilItsCompletionForcesItIn) {
  // 'stays' (priority 9) is pushed while 'x' (priority 1) is pushed and popped from the top: had
  // 'stays' gone in first, pop_max could not have returned 'x'. It is tried only once forced.
  Recorder r;
  r.add(0, EventType::invoke, OpFunction::push, Item{"stays", 9});
  r.add(1, EventType::invoke, OpFunction::push, Item{"x", 1});
  r.add(1, EventType::ok, OpFunction::push, Item{"x", 1});
  r.add(1, EventType::invoke, OpFunction::pop_max, std::nullopt);
  r.add(1, EventType::ok, OpFunction::pop_max, Item{"x", 1});
  r.add(0, EventType::ok, OpFunction::push, Item{"stays", 9});
  ASSERT_FALSE(validate_history(r.history()).has_value());
  const Verdict v = check_linearizable(r.history(), SpecKind::priority);
  ASSERT_TRUE(v.ok()) << v.explanation;
  EXPECT_EQ(v.longest_prefix, (std::vector<std::int64_t>{1, 3, 0}));
  EXPECT_EQ(v.steps, 3) << "some candidate was tried and undone";
}

TEST(SearchOrder, ARemoveWaitingForItsItemIsSkippedWithoutAStep) {
  // Eight dequeues wait from the start while one process enqueues their items one by one: each
  // place has them all as candidates, and the spec says which item each would see, so only the
  // one whose item is at the front is stepped. A linearization without a failed try: one step an
  // operation.
  Recorder r;
  for (int p = 0; p < kProcesses; ++p)
    r.add(p, EventType::invoke, OpFunction::dequeue, std::nullopt);
  for (int i = 0; i < kProcesses; ++i) {
    r.add(kProcesses, EventType::invoke, OpFunction::enqueue, item(0, i, std::nullopt));
    r.add(kProcesses, EventType::ok, OpFunction::enqueue, item(0, i, std::nullopt));
  }
  for (int p = 0; p < kProcesses; ++p)
    r.add(p, EventType::ok, OpFunction::dequeue, item(0, p, std::nullopt));
  ASSERT_FALSE(validate_history(r.history()).has_value());
  for (CandidateOrder order : {CandidateOrder::by_observation, CandidateOrder::invocation}) {
    const Verdict v = check_linearizable(r.history(), SpecKind::fifo, {.order = order});
    ASSERT_TRUE(v.ok()) << v.explanation;
    EXPECT_EQ(v.steps, 2 * kProcesses)
        << "a waiting dequeue was stepped (order " << static_cast<int>(order) << ")";
  }
}

TEST(SearchOrder, UnderInvocationOrderEveryWindowIsInInvocationOrder) {
  Operations ops;
  for (std::int64_t id = 0; id < 4; ++id) {
    Operation op;
    op.id = id;
    op.call = 10 * id;
    op.f = id % 2 == 0 ? OpFunction::enqueue : OpFunction::dequeue;
    op.input_id = id % 2 == 0 ? static_cast<ItemId>(id) : kNoItem;
    op.output_id = id % 2 == 0 ? kNoItem : static_cast<ItemId>(id - 1);
    ops.ops.push_back(op);
  }
  const std::vector<CandidateRank> ranks = candidate_ranks(ops, CandidateOrder::invocation);
  std::vector<WindowCandidate> window;
  for (std::int64_t id : {3, 1, 2, 0})
    window.push_back({.id = id, .entry = static_cast<std::int32_t>(id)});
  order_window(window, ranks, kForever, [](const WindowCandidate&) { return false; });
  std::vector<std::int64_t> order;
  for (const WindowCandidate& c : window)
    order.push_back(c.id);
  EXPECT_EQ(order, (std::vector<std::int64_t>{0, 1, 2, 3}));
}

}  // namespace
}  // namespace contend::model
