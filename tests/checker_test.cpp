// The checkers: each violation kind on a hand-written history, a narrowly clean twin, and the
// fast checkers cross-checked against the linearizability search on random small histories.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <sstream>

#include "model/accounting.h"
#include "model/check.h"
#include "model/fast_check.h"
#include "model/history_json.h"
#include "model/linearizability.h"
#include "tests/support/history_gen.h"
#include "tests/support/history_text.h"

namespace contend::model {
namespace {

using testing::corrupt;
using testing::GenOptions;
using testing::linearizable_history;

History parse(std::initializer_list<const char*> lines) {
  return testing::history_of(lines);
}

void expect_both(const History& h, SpecKind spec, ViolationKind fast_kind) {
  Verdict fast = check_fast(h, spec);
  Verdict search = check_linearizable(h, spec);
  EXPECT_EQ(fast.violation, fast_kind) << fast.explanation;
  EXPECT_EQ(search.kind,
            fast_kind == ViolationKind::none ? VerdictKind::linearizable : VerdictKind::violation)
      << search.explanation;
}

TEST(Checkers, ValueFromNowhere) {
  expect_both(parse({"0 invoke dequeue", "0 ok dequeue ghost"}), SpecKind::fifo,
              ViolationKind::value_from_nowhere);
}

TEST(Checkers, ADequeueThatReturnsBeforeTheEnqueueStartsIsFromNowhere) {
  expect_both(parse({"0 invoke dequeue", "0 ok dequeue a", "1 invoke enqueue a", "1 ok enqueue a"}),
              SpecKind::fifo, ViolationKind::value_from_nowhere);
  expect_both(parse({"0 invoke dequeue", "1 invoke enqueue a", "0 ok dequeue a", "1 ok enqueue a"}),
              SpecKind::fifo, ViolationKind::none);
}

TEST(Checkers, DuplicateDelivery) {
  expect_both(parse({"0 invoke enqueue a", "0 ok enqueue a", "1 invoke dequeue", "2 invoke dequeue",
                     "1 ok dequeue a", "2 ok dequeue a"}),
              SpecKind::fifo, ViolationKind::duplicate_delivery);
}

TEST(Checkers, OrderInversion) {
  expect_both(parse({"0 invoke enqueue a", "0 ok enqueue a", "0 invoke enqueue b", "0 ok enqueue b",
                     "1 invoke dequeue", "1 ok dequeue b", "1 invoke dequeue", "1 ok dequeue a"}),
              SpecKind::fifo, ViolationKind::order_inversion);
  // Concurrent enqueues may come out in either order.
  expect_both(parse({"0 invoke enqueue a", "2 invoke enqueue b", "0 ok enqueue a", "2 ok enqueue b",
                     "1 invoke dequeue", "1 ok dequeue b", "1 invoke dequeue", "1 ok dequeue a"}),
              SpecKind::fifo, ViolationKind::none);
}

TEST(Checkers, EmptyWhileNonEmpty) {
  expect_both(parse({"0 invoke enqueue a", "0 ok enqueue a", "1 invoke dequeue", "1 ok dequeue -",
                     "1 invoke dequeue", "1 ok dequeue a"}),
              SpecKind::fifo, ViolationKind::empty_while_nonempty);
  // An indeterminate dequeue invoked before could have taken it (then 'a' came back? no: it is
  // removed once) — here the info dequeue explains the empty answer.
  expect_both(parse({"0 invoke enqueue a", "0 ok enqueue a", "2 invoke dequeue", "1 invoke dequeue",
                     "1 ok dequeue -", "2 info dequeue"}),
              SpecKind::fifo, ViolationKind::none);
}

TEST(Checkers, LostAfterADrain) {
  History h = parse({"0 invoke enqueue a", "0 ok enqueue a", "1 invoke dequeue", "1 ok dequeue -"});
  expect_both(h, SpecKind::fifo, ViolationKind::lost);
  Accounting a = account(h);
  EXPECT_TRUE(a.drained);
  ASSERT_EQ(a.lost.size(), 1u);
  EXPECT_EQ(accounting_verdict(a).violation, ViolationKind::lost);
}

TEST(Checkers, AnIndeterminateEnqueueTookEffectIffItsValueComesOut) {
  expect_both(
      parse({"0 invoke enqueue a", "0 info enqueue a", "1 invoke dequeue", "1 ok dequeue a"}),
      SpecKind::fifo, ViolationKind::none);
  expect_both(
      parse({"0 invoke enqueue a", "0 info enqueue a", "1 invoke dequeue", "1 ok dequeue -"}),
      SpecKind::fifo, ViolationKind::none);
}

TEST(Checkers, PriorityInversion) {
  expect_both(parse({"0 invoke push a 5", "0 ok push a 5", "0 invoke push b 1", "0 ok push b 1",
                     "1 invoke pop_min", "1 ok pop_min a 5"}),
              SpecKind::priority, ViolationKind::priority_inversion);
  expect_both(parse({"0 invoke push a 5", "0 ok push a 5", "0 invoke push b 1", "0 ok push b 1",
                     "1 invoke pop_max", "1 ok pop_max a 5"}),
              SpecKind::priority, ViolationKind::none);
}

TEST(Checkers, EqualPrioritiesComeOutInPushOrderAtMinAndReverseAtMax) {
  expect_both(parse({"0 invoke push a 1", "0 ok push a 1", "0 invoke push b 1", "0 ok push b 1",
                     "1 invoke peek_min", "1 ok peek_min b 1"}),
              SpecKind::priority, ViolationKind::priority_inversion);
  expect_both(parse({"0 invoke push a 1", "0 ok push a 1", "0 invoke push b 1", "0 ok push b 1",
                     "1 invoke peek_max", "1 ok peek_max b 1"}),
              SpecKind::priority, ViolationKind::none);
}

TEST(Checkers, TheSearchReportsItsLongestPrefixAndTheStuckOperations) {
  History h = parse({"0 invoke enqueue a", "0 ok enqueue a", "1 invoke dequeue", "1 ok dequeue b"});
  Verdict v = check_linearizable(h, SpecKind::fifo);
  ASSERT_EQ(v.kind, VerdictKind::violation);
  EXPECT_EQ(v.longest_prefix, (std::vector<std::int64_t>{0}));
  EXPECT_EQ(v.stuck, (std::vector<std::int64_t>{2}));
}

TEST(Checkers, TheSearchSaysUnknownWhenItsBudgetRunsOut) {
  GenOptions o;
  o.processes = 6;
  o.operations = 40;
  o.crashes = false;
  History h;
  rc::check("generate", [&] { h = linearizable_history(o); });
  Verdict v = check_linearizable(h, SpecKind::fifo, {.step_budget = 3});
  EXPECT_EQ(v.kind, VerdictKind::unknown) << v.explanation;
}

TEST(Checkers, TheMultisetSpecAllowsAnyOrderAndEmptyAnswers) {
  History h = parse({"0 invoke enqueue a", "0 ok enqueue a", "0 invoke enqueue b", "0 ok enqueue b",
                     "1 invoke dequeue", "1 ok dequeue -", "1 invoke dequeue", "1 ok dequeue b",
                     "1 invoke dequeue", "1 ok dequeue a"});
  EXPECT_EQ(check_fast(h, SpecKind::multiset).kind, VerdictKind::linearizable);
  EXPECT_EQ(check_linearizable(h, SpecKind::multiset).kind, VerdictKind::linearizable);
  EXPECT_EQ(check_fast(h, SpecKind::fifo).kind, VerdictKind::violation);
}

// Neither value alone spans the empty answer (2..7): 'a' is present until 5, 'b' from 4 on.
History relay_history() {
  return parse({"0 invoke enqueue a", "0 ok enqueue a", "2 invoke dequeue", "0 invoke enqueue b",
                "0 ok enqueue b", "1 invoke dequeue", "1 ok dequeue a", "2 ok dequeue -",
                "1 invoke dequeue", "1 ok dequeue b"});
}

TEST(Checkers, AnEmptyAnswerCoveredOnlyByARelayOfValuesIsReported) {
  History h = relay_history();
  Verdict fast = check_fast(h, SpecKind::fifo);
  ASSERT_EQ(fast.violation, ViolationKind::empty_while_nonempty) << fast.explanation;
  EXPECT_NE(fast.explanation.find("one after another: 'a'"), std::string::npos) << fast.explanation;
  EXPECT_NE(fast.explanation.find("then 'b'"), std::string::npos) << fast.explanation;
  EXPECT_EQ(fast.events, (std::vector<std::int64_t>{2, 0, 5, 3, 8}));
  EXPECT_EQ(check_linearizable(h, SpecKind::fifo).kind, VerdictKind::violation);
  // The twin with a gap: 'b' is enqueued only after 'a' came out, so the empty answer fits there.
  expect_both(parse({"0 invoke enqueue a", "0 ok enqueue a", "2 invoke dequeue", "1 invoke dequeue",
                     "1 ok dequeue a", "0 invoke enqueue b", "0 ok enqueue b", "2 ok dequeue -",
                     "1 invoke dequeue", "1 ok dequeue b"}),
              SpecKind::fifo, ViolationKind::none);
}

TEST(Checkers, RepeatedValuesMakeTheFastCheckerSayUnknownAndTheSearchJudges) {
  History h = parse({"0 invoke enqueue a", "0 ok enqueue a", "0 invoke enqueue a", "0 ok enqueue a",
                     "1 invoke dequeue", "1 ok dequeue a", "1 invoke dequeue", "1 ok dequeue a"});
  Verdict fast = check_fast(h, SpecKind::fifo);
  EXPECT_EQ(fast.kind, VerdictKind::unknown);
  EXPECT_NE(fast.explanation.find("'a' is inserted by enqueue 'a' (process 0, events 0..1) and by "
                                  "enqueue 'a' (process 0, events 2..3)"),
            std::string::npos)
      << fast.explanation;
  EXPECT_EQ(check_linearizable(h, SpecKind::fifo).kind, VerdictKind::linearizable);
  CheckRequest fast_only;
  EXPECT_EQ(check_history(h, fast_only).verdict.kind, VerdictKind::unknown);
  CheckRequest both;
  both.search = true;
  EXPECT_EQ(check_history(h, both).verdict.kind, VerdictKind::linearizable);
  // One more delivery than inserts: the search finds it, the accounting counts it.
  History thrice =
      parse({"0 invoke enqueue a", "0 ok enqueue a", "0 invoke enqueue a", "0 ok enqueue a",
             "1 invoke dequeue", "1 ok dequeue a", "1 invoke dequeue", "1 ok dequeue a",
             "1 invoke dequeue", "1 ok dequeue a"});
  EXPECT_EQ(check_linearizable(thrice, SpecKind::fifo).kind, VerdictKind::violation);
  CheckReport report = check_history(thrice, both);
  EXPECT_EQ(report.verdict.kind, VerdictKind::violation);
  EXPECT_EQ(report.accounting.duplicated, (std::vector<std::string>{"a"}));
  EXPECT_EQ(report.verdicts.back().violation, ViolationKind::duplicate_delivery);
}

// Soundness: whenever the fast checker reports a violation, the search confirms there is no
// linearization; where the fast checker says its pass is exact, the search finds one; and clean
// generated histories pass both. Run as stated (drained or not; equal times concurrent or in
// event order).
struct CrossCheck {
  SpecKind spec = SpecKind::fifo;
  bool drained = false;
  TieOrder ties = TieOrder::event_order;
};

void cross_check(const CrossCheck& c) {
  GenOptions o;
  o.spec = c.spec;
  o.processes = *rc::gen::inRange(2, 4);
  o.operations = *rc::gen::inRange(1, 9);
  o.crashes = *rc::gen::arbitrary<bool>();
  o.drain = c.drained;
  o.coarse_clock = c.ties == TieOrder::concurrent;
  History h = linearizable_history(o);
  RC_ASSERT(!validate_history(h).has_value());
  const SearchOptions search_options{.drained = c.drained, .ties = c.ties};
  const FastOptions fast_options{.drained = c.drained, .ties = c.ties};
  Verdict clean_search = check_linearizable(h, c.spec, search_options);
  RC_ASSERT(clean_search.kind == VerdictKind::linearizable);
  RC_ASSERT(check_fast(h, c.spec, fast_options).kind == VerdictKind::linearizable);
  if (*rc::gen::arbitrary<bool>()) {
    corrupt(h);
    Verdict fast = check_fast(h, c.spec, fast_options);
    Verdict search = check_linearizable(h, c.spec, search_options);
    RC_TAG(fast.kind == VerdictKind::violation ? "fast finds"
           : search.ok()                       ? "both pass"
                                               : "only the search finds");
    if (fast.kind == VerdictKind::violation) RC_ASSERT(search.kind == VerdictKind::violation);
    if (fast.exact) RC_ASSERT(search.kind == VerdictKind::linearizable);
  }
}

RC_GTEST_PROP(Checkers, FastFifoCheckerAgreesWithTheSearch, ()) {
  cross_check({.spec = SpecKind::fifo});
}
RC_GTEST_PROP(Checkers, FastPriorityCheckerAgreesWithTheSearch, ()) {
  cross_check({.spec = SpecKind::priority});
}
RC_GTEST_PROP(Checkers, FastFifoCheckerAgreesWithTheSearchOnDrainedHistories, ()) {
  cross_check({.spec = SpecKind::fifo, .drained = true});
}
RC_GTEST_PROP(Checkers, FastPriorityCheckerAgreesWithTheSearchOnDrainedHistories, ()) {
  cross_check({.spec = SpecKind::priority, .drained = true});
}
RC_GTEST_PROP(Checkers, FastMultisetCheckerAgreesWithTheSearchOnDrainedHistories, ()) {
  cross_check({.spec = SpecKind::multiset, .drained = true});
}
RC_GTEST_PROP(Checkers, FastFifoCheckerAgreesWithTheSearchWhenEqualTimesAreConcurrent, ()) {
  cross_check({.spec = SpecKind::fifo, .ties = TieOrder::concurrent});
}
RC_GTEST_PROP(Checkers, FastPriorityCheckerAgreesWithTheSearchWhenEqualTimesAreConcurrent, ()) {
  cross_check({.spec = SpecKind::priority, .ties = TieOrder::concurrent});
}
RC_GTEST_PROP(Checkers, FastFifoCheckerAgreesWithTheSearchOnDrainedConcurrentHistories, ()) {
  cross_check({.spec = SpecKind::fifo, .drained = true, .ties = TieOrder::concurrent});
}

TEST(HistoryJson, RoundTripsAndNamesTheLineOfAMalformedEvent) {
  History h = parse({"0 invoke push a 2", "0 ok push a 2", "1 invoke pop_min", "1 ok pop_min a 2",
                     "1 invoke pop_min", "1 ok pop_min -"});
  std::stringstream io;
  write_history(io, h);
  HistoryError error;
  auto back = read_history(io, error);
  ASSERT_TRUE(back.has_value()) << error.to_string();
  EXPECT_EQ(*back, h);
  std::stringstream bad;
  bad << to_json_line(h[0]) << "\n"
      << R"({"index": 1, "type": "done", "process": 0, "time": 1, "f": "push", "value": null})";
  EXPECT_FALSE(read_history(bad, error).has_value());
  EXPECT_EQ(error.line, 2u);
  EXPECT_NE(error.message.find("\"type\""), std::string::npos) << error.message;
}

}  // namespace
}  // namespace contend::model
