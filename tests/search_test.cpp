// The linearizability search: the evidence it gives (the longest linearizable prefix, the queue
// that prefix leaves, the operations that cannot go next; the linearization on success), and the
// search over a nondeterministic spec, RelaxedFifoSpec{k}.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "model/linearizability.h"
#include "tests/support/history_gen.h"
#include "tests/support/history_text.h"

namespace contend::model {
namespace {

using testing::history_of;

TEST(Search, TheEvidenceNamesThePrefixTheQueueItLeavesAndTheStuckOperations) {
  // Values relay through the empty answer (events 2..7): 'a' until 5, 'b' from 4.
  const History h =
      history_of({"0 invoke enqueue a", "0 ok enqueue a", "2 invoke dequeue", "0 invoke enqueue b",
                  "0 ok enqueue b", "1 invoke dequeue", "1 ok dequeue a", "2 ok dequeue -",
                  "1 invoke dequeue", "1 ok dequeue b"});
  Verdict v = check_linearizable(h, SpecKind::fifo);
  ASSERT_EQ(v.kind, VerdictKind::violation);
  EXPECT_EQ(v.violation, ViolationKind::not_linearizable);
  EXPECT_EQ(v.longest_prefix, (std::vector<std::int64_t>{0, 3, 5}));
  EXPECT_EQ(v.stuck, (std::vector<std::int64_t>{2}));
  EXPECT_EQ(v.events, v.stuck);
  EXPECT_NE(v.explanation.find("After it the queue holds ['b']"), std::string::npos)
      << v.explanation;
  EXPECT_NE(v.explanation.find("dequeue -> empty (process 2, events 2..7) must take effect before "
                               "its completion"),
            std::string::npos)
      << v.explanation;
}

TEST(Search, TheStuckOperationsAreEveryCandidateThatCouldNotGoNext) {
  // After enqueue 'a', both dequeues claim a value the queue does not have at its front.
  const History h = history_of({"0 invoke enqueue a", "0 ok enqueue a", "1 invoke dequeue",
                                "2 invoke dequeue", "1 ok dequeue b", "2 ok dequeue c"});
  Verdict v = check_linearizable(h, SpecKind::fifo);
  ASSERT_EQ(v.kind, VerdictKind::violation);
  EXPECT_EQ(v.longest_prefix, (std::vector<std::int64_t>{0}));
  EXPECT_EQ(v.stuck, (std::vector<std::int64_t>{2, 3}));
}

TEST(Search, ASuccessReturnsTheLinearizationItFound) {
  const History h =
      history_of({"0 invoke enqueue a", "1 invoke enqueue b", "1 ok enqueue b", "0 ok enqueue a",
                  "2 invoke dequeue", "2 ok dequeue b", "2 invoke dequeue", "2 ok dequeue a"});
  Verdict v = check_linearizable(h, SpecKind::fifo);
  ASSERT_TRUE(v.ok()) << v.explanation;
  EXPECT_TRUE(v.exact);
  EXPECT_EQ(v.longest_prefix, (std::vector<std::int64_t>{1, 0, 4, 6}));
}

TEST(Search, AnIndeterminateOperationMayBeLeftOut) {
  // The info enqueue of 'x' never shows: the linearization found does without it.
  const History h =
      history_of({"0 invoke enqueue x", "0 info enqueue x", "1 invoke dequeue", "1 ok dequeue -"});
  Verdict v = check_linearizable(h, SpecKind::fifo, {.drained = true});
  ASSERT_TRUE(v.ok()) << v.explanation;
  EXPECT_EQ(v.longest_prefix, (std::vector<std::int64_t>{2}));
}

TEST(RelaxedFifo, KTwoLetsADequeueTakeTheSecondItemButNotTheThird) {
  const Operations second = operations_of(
      history_of({"0 invoke enqueue a", "0 ok enqueue a", "0 invoke enqueue b", "0 ok enqueue b",
                  "1 invoke dequeue", "1 ok dequeue b", "1 invoke dequeue", "1 ok dequeue a"}));
  EXPECT_EQ(search_linearizable(second, FifoSpec{}, {}).kind, VerdictKind::violation);
  EXPECT_TRUE(search_linearizable(second, RelaxedFifoSpec{2}, {}).ok());

  const Operations third = operations_of(
      history_of({"0 invoke enqueue a", "0 ok enqueue a", "0 invoke enqueue b", "0 ok enqueue b",
                  "0 invoke enqueue c", "0 ok enqueue c", "1 invoke dequeue", "1 ok dequeue c"}));
  EXPECT_EQ(search_linearizable(third, RelaxedFifoSpec{2}, {}).kind, VerdictKind::violation);
  EXPECT_TRUE(search_linearizable(third, RelaxedFifoSpec{3}, {}).ok());
}

TEST(RelaxedFifo, EmptyOnlyWhenEmpty) {
  const Operations ops = operations_of(
      history_of({"0 invoke enqueue a", "0 ok enqueue a", "1 invoke dequeue", "1 ok dequeue -"}));
  EXPECT_EQ(search_linearizable(ops, RelaxedFifoSpec{4}, {}).kind, VerdictKind::violation);
}

// k = 1 is fifo: the same verdict on generated histories, clean or corrupted, drained or not.
RC_GTEST_PROP(RelaxedFifo, KOneJudgesEveryHistoryLikeFifo, ()) {
  testing::GenOptions o;
  o.processes = *rc::gen::inRange(1, 4);
  o.operations = *rc::gen::inRange(0, 9);
  o.drain = *rc::gen::arbitrary<bool>();
  model::History h = testing::linearizable_history(o);
  if (*rc::gen::arbitrary<bool>()) testing::corrupt(h);
  const Operations ops = operations_of(h);
  const SearchOptions options{.drained = *rc::gen::arbitrary<bool>()};
  const Verdict fifo = search_linearizable(ops, FifoSpec{}, options);
  const Verdict relaxed = search_linearizable(ops, RelaxedFifoSpec{1}, options);
  RC_TAG(fifo.kind == VerdictKind::violation ? "violation" : "linearizable");
  RC_ASSERT(fifo.kind == relaxed.kind);
  RC_ASSERT(fifo.longest_prefix == relaxed.longest_prefix);
}

}  // namespace
}  // namespace contend::model
