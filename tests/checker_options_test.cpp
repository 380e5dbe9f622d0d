// How the checkers read a history: equal timestamps (TieOrder), a drained ending, and when a fast
// pass is a proof (Verdict::exact). Each on a hand-written history judged both ways, with the
// fast checker and the search agreeing.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "model/accounting.h"
#include "model/check.h"
#include "model/fast_check.h"
#include "model/linearizability.h"
#include "tests/support/history_gen.h"
#include "tests/support/history_text.h"

namespace contend::model {
namespace {

using testing::history_of;

// The second dequeue is invoked at the very microsecond the enqueue of 'a' completes, and
// answers empty; 'a' comes out later.
History tied_history() {
  return history_of({"@0 0 invoke enqueue a", "@5 0 ok enqueue a", "@5 1 invoke dequeue",
                     "@6 1 ok dequeue -", "@7 1 invoke dequeue", "@8 1 ok dequeue a"});
}

TEST(TieOrder, EqualTimestampsAreConcurrentUnlessTheEventOrderIsTrusted) {
  const History h = tied_history();
  const Operations concurrent = operations_of(h, TieOrder::concurrent);
  const Operations ordered = operations_of(h, TieOrder::event_order);
  EXPECT_FALSE(concurrent.ops[0].precedes(concurrent.ops[1]));
  EXPECT_TRUE(ordered.ops[0].precedes(ordered.ops[1]));
  EXPECT_TRUE(concurrent.ops[1].precedes(concurrent.ops[2]));  // distinct times still order

  EXPECT_EQ(check_fast(h, SpecKind::fifo, {.ties = TieOrder::concurrent}).kind,
            VerdictKind::linearizable);
  EXPECT_EQ(check_linearizable(h, SpecKind::fifo, {.ties = TieOrder::concurrent}).kind,
            VerdictKind::linearizable);
  EXPECT_EQ(check_fast(h, SpecKind::fifo, {.ties = TieOrder::event_order}).violation,
            ViolationKind::empty_while_nonempty);
  EXPECT_EQ(check_linearizable(h, SpecKind::fifo, {.ties = TieOrder::event_order}).kind,
            VerdictKind::violation);
}

TEST(TieOrder, ExternalHistoriesDefaultToConcurrentAndContendsOwnToTheEventOrder) {
  const History h = tied_history();
  EXPECT_EQ(check_fast(h, SpecKind::fifo).kind, VerdictKind::linearizable);
  EXPECT_EQ(check_linearizable(h, SpecKind::fifo).kind, VerdictKind::linearizable);
  CheckRequest request;  // as the scenario runner asks
  EXPECT_EQ(request.ties, TieOrder::event_order);
  EXPECT_EQ(check_history(h, request).verdict.violation, ViolationKind::empty_while_nonempty);
}

// The definition, on generated histories with runs of equal times: under `concurrent` a precedes
// b exactly when a completed at an earlier time than b was invoked; under `event_order`, when a's
// completion is an earlier event than b's invocation.
RC_GTEST_PROP(TieOrder, PrecedenceFollowsTheDefinition, ()) {
  testing::GenOptions o;
  o.processes = *rc::gen::inRange(1, 5);
  o.operations = *rc::gen::inRange(0, 12);
  o.coarse_clock = true;
  const History h = testing::linearizable_history(o);
  const Operations concurrent = operations_of(h, TieOrder::concurrent);
  const Operations ordered = operations_of(h, TieOrder::event_order);
  RC_ASSERT(concurrent.ops.size() == ordered.ops.size());
  for (std::size_t i = 0; i < concurrent.ops.size(); ++i) {
    for (std::size_t j = 0; j < concurrent.ops.size(); ++j) {
      const Operation& a = concurrent.ops[i];
      const Operation& b = concurrent.ops[j];
      const bool done = !a.indeterminate;
      const auto at = [&](std::int64_t index) {
        return h[static_cast<std::size_t>(index)].time_us;
      };
      RC_ASSERT(a.precedes(b) == (done && at(a.complete) < at(b.invoke)));
      RC_ASSERT(ordered.ops[i].precedes(ordered.ops[j]) == (done && a.complete < b.invoke));
    }
  }
}

// 'b' is acknowledged and never removed.
History b_never_removed() {
  return history_of({"0 invoke enqueue a", "0 ok enqueue a", "0 invoke enqueue b", "0 ok enqueue b",
                     "1 invoke dequeue", "1 ok dequeue a"});
}

TEST(Drained, ANeverRemovedAcknowledgedValueIsLostOnlyWhenTheHistoryIsDrained) {
  const History h = b_never_removed();
  EXPECT_EQ(check_fast(h, SpecKind::fifo).kind, VerdictKind::linearizable);
  EXPECT_EQ(check_linearizable(h, SpecKind::fifo).kind, VerdictKind::linearizable);
  Verdict fast = check_fast(h, SpecKind::fifo, {.drained = true});
  EXPECT_EQ(fast.violation, ViolationKind::lost) << fast.explanation;
  EXPECT_EQ(fast.events, (std::vector<std::int64_t>{2}));
  EXPECT_NE(fast.explanation.find("('b')"), std::string::npos) << fast.explanation;
  Verdict search = check_linearizable(h, SpecKind::fifo, {.drained = true});
  EXPECT_EQ(search.kind, VerdictKind::violation);
  EXPECT_NE(search.explanation.find("queue holds ['b']"), std::string::npos) << search.explanation;

  CheckRequest request;
  request.search = true;
  EXPECT_TRUE(check_history(h, request).verdict.ok());
  EXPECT_FALSE(check_history(h, request).accounting.drained);
  request.drained = true;
  CheckReport report = check_history(h, request);
  EXPECT_EQ(report.verdict.violation, ViolationKind::lost);
  EXPECT_EQ(report.accounting.lost, (std::vector<std::string>{"b"}));
  EXPECT_FALSE(report.disagreement);
}

TEST(Drained, AnIndeterminateRemoveExcusesOneMissingValueAndNoMore) {
  const History one =
      history_of({"0 invoke enqueue a", "0 ok enqueue a", "0 invoke enqueue b", "0 ok enqueue b",
                  "1 invoke dequeue", "1 ok dequeue a", "2 invoke dequeue", "2 info dequeue"});
  EXPECT_EQ(check_fast(one, SpecKind::fifo, {.drained = true}).kind, VerdictKind::linearizable);
  EXPECT_EQ(check_linearizable(one, SpecKind::fifo, {.drained = true}).kind,
            VerdictKind::linearizable);
  Accounting a = account(one, {.drained = true});
  EXPECT_TRUE(a.lost.empty());
  EXPECT_EQ(a.possibly_consumed_values, (std::vector<std::string>{"b"}));

  const History two = history_of({"0 invoke enqueue a", "0 ok enqueue a", "0 invoke enqueue b",
                                  "0 ok enqueue b", "2 invoke dequeue", "2 info dequeue"});
  EXPECT_EQ(check_fast(two, SpecKind::fifo, {.drained = true}).violation, ViolationKind::lost);
  Verdict search = check_linearizable(two, SpecKind::fifo, {.drained = true});
  EXPECT_EQ(search.kind, VerdictKind::violation);
  EXPECT_NE(search.explanation.find("no indeterminate remove is left"), std::string::npos)
      << search.explanation;
  EXPECT_EQ(account(two, {.drained = true}).lost, (std::vector<std::string>{"a", "b"}));
}

TEST(Exactness, AFastFifoPassIsAProofOnlyWithUniqueValuesAndNoIndeterminateOperation) {
  const History clean = history_of({"0 invoke enqueue a", "1 invoke enqueue b", "0 ok enqueue a",
                                    "1 ok enqueue b", "2 invoke dequeue", "2 ok dequeue b"});
  Verdict fast = check_fast(clean, SpecKind::fifo);
  EXPECT_TRUE(fast.ok());
  EXPECT_TRUE(fast.exact);
  CheckRequest request;  // fast and accounting only: the fast pass carries the proof
  CheckReport report = check_history(clean, request);
  EXPECT_TRUE(report.verdict.exact);
  EXPECT_EQ(report.verdict.checker, "fast");

  const History with_info =
      history_of({"0 invoke enqueue a", "0 ok enqueue a", "1 invoke dequeue", "1 info dequeue"});
  EXPECT_TRUE(check_fast(with_info, SpecKind::fifo).ok());
  EXPECT_FALSE(check_fast(with_info, SpecKind::fifo).exact);
  EXPECT_TRUE(check_linearizable(with_info, SpecKind::fifo).exact);  // the search always proves

  const History priority =
      history_of({"0 invoke push a 1", "0 ok push a 1", "1 invoke pop_min", "1 ok pop_min a 1"});
  EXPECT_TRUE(check_fast(priority, SpecKind::priority).ok());
  EXPECT_FALSE(check_fast(priority, SpecKind::priority).exact);
  EXPECT_FALSE(check_history(priority, {.spec = SpecKind::priority}).verdict.exact);
}

}  // namespace
}  // namespace contend::model
