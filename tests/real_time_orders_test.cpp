// The most ordered schedules of an execution's class (scenarios/real_time_orders.h): every
// distinct maximal real-time order of its operations, each by a schedule that keeps the steps'
// dependences; and the history as such a schedule records it.
#include "scenarios/real_time_orders.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace contend {
namespace {

using model::EventType;

// A hand-made execution: steps in executed order, each recording some history events.
struct Execution {
  StepLog log;
  model::History history;

  // A step of `thread` recording events (type, process) in order; returns its index.
  std::size_t step(int thread, std::vector<std::pair<EventType, int>> events) {
    StepFootprint& s = log.steps.emplace_back();
    s.thread = thread;
    s.client = thread;
    for (const auto& [type, process] : events) {
      model::Event e;
      e.index = static_cast<std::int64_t>(history.size());
      e.type = type;
      e.process = process;
      e.time_us = 1000 * static_cast<std::int64_t>(log.steps.size());
      s.events.push_back(e.index);
      history.push_back(e);
    }
    return log.steps.size() - 1;
  }
};

std::vector<ResolvedStep> resolved(const StepLog& log) {
  std::vector<ResolvedStep> steps;
  for (const StepFootprint& s : log.steps)
    steps.push_back(resolve_step(s, log, /*final_reads=*/true));
  return steps;
}

std::size_t position(const std::vector<std::size_t>& order, std::size_t step) {
  return static_cast<std::size_t>(std::find(order.begin(), order.end(), step) - order.begin());
}

TEST(RealTimeOrders, TwoIndependentOneStepOperationsGiveBothOrders) {
  Execution x;
  x.step(0, {{EventType::invoke, 0}, {EventType::ok, 0}});
  x.step(1, {{EventType::invoke, 1}, {EventType::ok, 1}});
  RealTimeOrders r = most_ordered_schedules(resolved(x.log), x.log, x.history);
  ASSERT_EQ(r.orders.size(), 2u);
  EXPECT_NE(r.orders[0], r.orders[1]);
  EXPECT_FALSE(r.executed_is_most_ordered);
}

TEST(RealTimeOrders, ConcurrentOperationsAreOrderedEachWayButNotLeftConcurrent) {
  // a = steps 0 and 2 (client 0), b = steps 1 and 3 (client 1): as executed they overlap; the
  // class also holds "a before b" (0, 2, 1, 3) and "b before a" (1, 3, 0, 2), each more ordered.
  Execution x;
  x.step(0, {{EventType::invoke, 0}});
  x.step(1, {{EventType::invoke, 1}});
  x.step(0, {{EventType::ok, 0}});
  x.step(1, {{EventType::ok, 1}});
  RealTimeOrders r = most_ordered_schedules(resolved(x.log), x.log, x.history);
  ASSERT_EQ(r.orders.size(), 2u);
  std::vector<std::vector<std::size_t>> expected = {{0, 2, 1, 3}, {1, 3, 0, 2}};
  std::sort(r.orders.begin(), r.orders.end());
  EXPECT_EQ(r.orders, expected);
}

TEST(RealTimeOrders, LongExecutionsGiveTheSameOrdersAsShortOnes) {
  // The overlapping pair above with steps that record nothing between the invocations and the
  // completions: the search's step sets change width at 64, 128 and 256 steps.
  for (std::size_t padding : {0u, 70u, 140u, 300u}) {
    Execution x;
    const std::size_t invoke_a = x.step(0, {{EventType::invoke, 0}});
    const std::size_t invoke_b = x.step(1, {{EventType::invoke, 1}});
    for (std::size_t k = 0; k < padding; ++k)
      x.step(static_cast<int>(k % 2), {});
    const std::size_t ok_a = x.step(0, {{EventType::ok, 0}});
    const std::size_t ok_b = x.step(1, {{EventType::ok, 1}});
    RealTimeOrders r = most_ordered_schedules(resolved(x.log), x.log, x.history);
    ASSERT_EQ(r.orders.size(), 2u) << padding << " steps of padding";
    int a_first = 0;
    int b_first = 0;
    for (const std::vector<std::size_t>& order : r.orders) {
      ASSERT_EQ(order.size(), x.log.steps.size());
      a_first += position(order, ok_a) < position(order, invoke_b) ? 1 : 0;
      b_first += position(order, ok_b) < position(order, invoke_a) ? 1 : 0;
    }
    EXPECT_EQ(a_first, 1) << padding << " steps of padding";
    EXPECT_EQ(b_first, 1) << padding << " steps of padding";
  }
}

TEST(RealTimeOrders, AStoreDependenceKeepsItsOrderInEverySchedule) {
  // Step 1 (client 1) takes the read version of an attempt that read "k"; step 2 (client 0)
  // commits a write of "k" after it. That order is fixed, so b cannot follow a's completion.
  Execution x;
  x.step(0, {{EventType::invoke, 0}});
  const std::size_t fetch = x.step(1, {{EventType::invoke, 1}});
  const std::size_t commit = x.step(0, {{EventType::ok, 0}});
  x.step(1, {{EventType::ok, 1}});
  const KeyRange k{Bytes("k"), Bytes("k\x00", 2)};
  x.log.steps[fetch].snapshot_attempt = 7;
  x.log.attempts[7].reads = {k};
  x.log.attempts[7].ended = true;
  x.log.steps[commit].commit_attempt = 8;
  x.log.steps[commit].applied = true;
  x.log.steps[commit].written = {k};
  RealTimeOrders r = most_ordered_schedules(resolved(x.log), x.log, x.history);
  ASSERT_EQ(r.orders.size(), 1u);
  EXPECT_EQ(r.orders[0], (std::vector<std::size_t>{1, 3, 0, 2}));  // b before a
  for (const auto& order : r.orders)
    EXPECT_LT(position(order, fetch), position(order, commit));
}

TEST(RealTimeOrders, AnExecutionAlreadyMostOrderedSaysSo) {
  // One client: nothing to reorder.
  Execution x;
  x.step(0, {{EventType::invoke, 0}});
  x.step(0, {{EventType::ok, 0}, {EventType::invoke, 0}});
  x.step(0, {{EventType::ok, 0}});
  RealTimeOrders r = most_ordered_schedules(resolved(x.log), x.log, x.history);
  ASSERT_EQ(r.orders.size(), 1u);
  EXPECT_TRUE(r.executed_is_most_ordered);
}

TEST(RealTimeOrders, TheReorderedHistoryMovesEachStepsEventsAndKeepsTheRestInPlace) {
  Execution x;
  model::Event before;  // recorded before the first step
  before.type = EventType::invoke;
  before.process = 5;
  x.history.push_back(before);
  x.step(0, {{EventType::invoke, 0}});
  x.step(1, {{EventType::invoke, 1}, {EventType::ok, 1}});
  x.step(0, {{EventType::ok, 0}});
  model::Event drain;  // recorded after the last step
  drain.index = static_cast<std::int64_t>(x.history.size());
  drain.type = EventType::ok;
  drain.process = 5;
  drain.time_us = 9000;
  x.history.push_back(drain);
  const model::History h = reordered_history(x.history, x.log, {1, 0, 2});
  ASSERT_EQ(h.size(), x.history.size());
  std::vector<std::int64_t> processes;
  for (std::size_t i = 0; i < h.size(); ++i) {
    EXPECT_EQ(h[i].index, static_cast<std::int64_t>(i));
    if (i > 0) {
      EXPECT_LE(h[i - 1].time_us, h[i].time_us) << "event " << i;
    }
    processes.push_back(h[i].process);
  }
  EXPECT_EQ(processes, (std::vector<std::int64_t>{5, 1, 1, 0, 0, 5}));
}

}  // namespace
}  // namespace contend
