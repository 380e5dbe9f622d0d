// The most ordered schedules of an execution's class (scenarios/real_time_orders.h): every
// distinct maximal real-time order of its operations, each by a schedule that keeps the steps'
// dependences; and the history as such a schedule records it.
#include "scenarios/real_time_orders.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <utility>

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

// ---- every most ordered relation, against every schedule of small random classes ----

// An operation by (process, its index among the process's operations).
using OpName = std::pair<int, int>;
// Which operations completed (in an earlier step) before each operation's invocation.
using Precedences = std::set<std::pair<OpName, OpName>>;

// A random execution of 2 or 3 clients, each with 1 or 2 operations over 1 to 3 steps, in a
// random interleaving; some steps take a read version of an attempt that reads "a" or "b", or
// commit a write of one of them (the store dependences the schedules must keep).
Execution random_execution() {
  const int clients = *rc::gen::inRange(2, 4);
  std::vector<std::vector<std::vector<std::pair<EventType, int>>>> programs(clients);
  for (int c = 0; c < clients; ++c) {
    const int operations = *rc::gen::inRange(1, 3);
    auto& steps = programs[static_cast<std::size_t>(c)];
    for (int k = 0; k < operations; ++k) {
      // The invocation joins the last step (which completed the previous operation) or opens one.
      if (steps.empty() || *rc::gen::arbitrary<bool>()) steps.emplace_back();
      steps.back().push_back({EventType::invoke, c});
      for (int gap = *rc::gen::inRange(0, 2); gap > 0; --gap)
        steps.emplace_back();
      steps.emplace_back().push_back({EventType::ok, c});
    }
  }
  Execution x;
  std::vector<std::size_t> next(static_cast<std::size_t>(clients), 0);
  std::uint64_t attempt = 0;
  for (;;) {
    std::vector<int> ready;
    for (int c = 0; c < clients; ++c) {
      if (next[static_cast<std::size_t>(c)] < programs[static_cast<std::size_t>(c)].size()) {
        ready.push_back(c);
      }
    }
    if (ready.empty()) break;
    const int c = *rc::gen::elementOf(ready);
    const std::size_t k =
        x.step(c, programs[static_cast<std::size_t>(c)][next[static_cast<std::size_t>(c)]++]);
    const KeyRange key = *rc::gen::arbitrary<bool>() ? KeyRange{Bytes("a"), Bytes("b")}
                                                     : KeyRange{Bytes("b"), Bytes("c")};
    switch (*rc::gen::inRange(0, 3)) {
      case 0:
        x.log.steps[k].snapshot_attempt = ++attempt;
        x.log.attempts[attempt].reads = {key};
        x.log.attempts[attempt].ended = true;
        break;
      case 1:
        x.log.steps[k].commit_attempt = ++attempt;
        x.log.steps[k].applied = true;
        x.log.steps[k].written = {key};
        break;
      default:
        break;
    }
  }
  return x;
}

// The precedences of a schedule: an invocation follows the completions of the steps before its
// own (most_ordered_schedules' reading: a step that completes one operation and invokes the next
// does not order them).
Precedences precedences_of(const Execution& x, const std::vector<std::size_t>& order) {
  std::map<std::int64_t, OpName> op_of_event;
  std::map<int, int> count;
  std::map<int, int> open;
  for (const model::Event& e : x.history) {
    const int p = static_cast<int>(e.process);
    if (e.type == EventType::invoke) open[p] = count[p]++;
    op_of_event[e.index] = {p, open[p]};
  }
  Precedences out;
  std::vector<OpName> completed;
  for (std::size_t k : order) {
    std::vector<OpName> completed_here;
    for (std::int64_t e : x.log.steps[k].events) {
      const OpName op = op_of_event[e];
      if (x.history[static_cast<std::size_t>(e)].type == EventType::ok) {
        completed_here.push_back(op);
        continue;
      }
      for (const OpName& a : completed)
        out.insert({a, op});
    }
    completed.insert(completed.end(), completed_here.begin(), completed_here.end());
  }
  return out;
}

// Every schedule that keeps each dependent pair (ExecutionDependence) in its executed order.
std::vector<std::vector<std::size_t>> every_schedule(const std::vector<ResolvedStep>& steps) {
  const ExecutionDependence depends(steps, DependenceRule{});
  const std::size_t n = steps.size();
  std::vector<std::vector<std::size_t>> out;
  std::vector<std::size_t> order;
  std::vector<bool> done(n, false);
  std::function<void()> extend = [&] {
    if (order.size() == n) {
      out.push_back(order);
      return;
    }
    for (std::size_t j = 0; j < n; ++j) {
      if (done[j]) continue;
      bool ready = true;
      for (std::size_t i = 0; i < j && ready; ++i)
        ready = done[i] || !depends(i, j);
      if (!ready) continue;
      done[j] = true;
      order.push_back(j);
      extend();
      order.pop_back();
      done[j] = false;
    }
  };
  extend();
  return out;
}

RC_GTEST_PROP(RealTimeOrders, GivesExactlyTheMaximalRelationsOfEverySchedule, ()) {
  const Execution x = random_execution();
  const std::vector<ResolvedStep> steps = resolved(x.log);
  std::set<Precedences> relations;
  for (const std::vector<std::size_t>& order : every_schedule(steps))
    relations.insert(precedences_of(x, order));
  std::set<Precedences> maximal;
  for (const Precedences& r : relations) {
    const bool dominated =
        std::any_of(relations.begin(), relations.end(), [&](const Precedences& o) {
          return o != r && std::includes(o.begin(), o.end(), r.begin(), r.end());
        });
    if (!dominated) maximal.insert(r);
  }
  const RealTimeOrders got = most_ordered_schedules(steps, x.log, x.history);
  const ExecutionDependence depends(steps, DependenceRule{});
  std::set<Precedences> given;
  for (const std::vector<std::size_t>& order : got.orders) {
    for (std::size_t a = 0; a < order.size(); ++a) {
      for (std::size_t b = a + 1; b < order.size(); ++b) {
        if (order[b] < order[a]) RC_ASSERT(!depends(order[b], order[a]));
      }
    }
    RC_ASSERT(given.insert(precedences_of(x, order)).second);
  }
  RC_ASSERT(given == maximal);
  const std::vector<std::size_t> executed = [&] {
    std::vector<std::size_t> o(steps.size());
    for (std::size_t k = 0; k < o.size(); ++k)
      o[k] = k;
    return o;
  }();
  if (got.executed_is_most_ordered)
    RC_ASSERT(maximal == std::set<Precedences>{precedences_of(x, executed)});
}

}  // namespace
}  // namespace contend
