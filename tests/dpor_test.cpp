// The exhaustive search and its reduction: the reduced search reaches exactly the outcomes the
// full search over the same choices reaches (every recipe, small scopes, with and without
// faults), finds every known-wrong variant's violation, and a deliberately broken independence
// rule makes the comparison fail. Jobs, shards and checkpoints change nothing but the time.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>
#include <utility>

#include "scenarios/exhaustive.h"
#include "scenarios/expectation.h"
#include "scenarios/real_time_orders.h"
#include "scenarios/runner.h"
#include "scenarios/search_checkpoint.h"
#include "sim/runtime/dpor.h"
#include "tests/support/param_names.h"
#include "tests/support/search_cases.h"
#include "tests/support/search_totals.h"

namespace contend {
namespace {

Scenario scope(const std::string& recipe, int clients, int ops) {
  return testing::small_scope(recipe, clients, ops);
}

ExhaustiveOptions options(bool reduce, bool all_plans, int faults = 0) {
  return testing::soundness_options(reduce, all_plans, faults);
}

using Case = testing::SearchCase;
using testing::scope_of;

std::string first_difference(const std::set<std::string>& full,
                             const std::set<std::string>& reduced) {
  return testing::first_difference(full, reduced, "reduced search");
}

class Soundness : public ::testing::TestWithParam<Case> {};

TEST_P(Soundness, TheReducedSearchReachesExactlyTheFullSearchsOutcomes) {
  const Case c = GetParam();
  const Scenario s = scope_of(c);
  ExhaustiveResult full = explore_exhaustively(s, options(false, c.all_plans, c.faults));
  ExhaustiveResult reduced = explore_exhaustively(s, options(true, c.all_plans, c.faults));
  ASSERT_TRUE(full.exhausted);
  ASSERT_TRUE(reduced.exhausted);
  EXPECT_EQ(full.outcomes, reduced.outcomes) << first_difference(full.outcomes, reduced.outcomes);
  EXPECT_LE(reduced.executions, full.executions);
  EXPECT_EQ(full.verdicts.count("linearizable") > 0, reduced.verdicts.count("linearizable") > 0);
}

INSTANTIATE_TEST_SUITE_P(
    EveryRecipe, Soundness,
    ::testing::Values(
        Case{"queue", 2, 2, true, 0}, Case{"queue", 3, 1, true, 0},
        Case{"priority-queue", 2, 1, true, 0}, Case{"priority-queue", 2, 2, false, 0},
        // Four clients: a pop's limited read once made the relation depend on the order.
        Case{"priority-queue", 4, 1, false, 0}, Case{"queue", 4, 1, true, 0},
        Case{"hc-queue", 2, 1, true, 0}, Case{"hc-priority-queue", 2, 1, true, 0},
        Case{"hc-priority-queue-ordered", 2, 1, true, 0}, Case{"first-cut-queue", 2, 2, true, 0},
        Case{"strict-queue", 2, 2, true, 0}, Case{"snapshot-dequeue-queue", 2, 2, true, 0},
        Case{"split-dequeue-queue", 2, 2, true, 0}, Case{"hc-queue-no-reads", 2, 1, true, 0},
        Case{"versionstamp-queue", 2, 2, true, 0}, Case{"idempotent-queue", 2, 1, true, 1},
        Case{"idempotent-priority-queue", 2, 1, true, 1}, Case{"queue", 2, 1, true, 1},
        // Three clients: two commits can meet one refused commit's reads in its window, and
        // the relation keeps only the first (footprint.h's ExecutionDependence).
        Case{"skip-on-conflict-queue", 3, 1, true, 0}, Case{"hc-queue", 3, 1, true, 0}),
    testing::NamedByPrinting());

// Larger scopes take minutes of full search: run with the `long` label (CONTEND_DPOR_LONG=1).
class LargerScopes : public ::testing::TestWithParam<Case> {};

TEST_P(LargerScopes, TheReducedSearchReachesExactlyTheFullSearchsOutcomes) {
  if (std::getenv("CONTEND_DPOR_LONG") == nullptr) GTEST_SKIP() << "set CONTEND_DPOR_LONG=1";
  const Case c = GetParam();
  const Scenario s = scope_of(c);
  ExhaustiveOptions full_options = options(false, c.all_plans, c.faults);
  full_options.max_executions = 50'000'000;
  ExhaustiveResult full = explore_exhaustively(s, full_options);
  ExhaustiveResult reduced = explore_exhaustively(s, options(true, c.all_plans, c.faults));
  ASSERT_TRUE(full.exhausted);
  ASSERT_TRUE(reduced.exhausted);
  EXPECT_EQ(full.outcomes, reduced.outcomes) << first_difference(full.outcomes, reduced.outcomes);
}

INSTANTIATE_TEST_SUITE_P(Long, LargerScopes,
                         ::testing::Values(Case{"queue", 3, 2, false, 0},
                                           Case{"priority-queue", 3, 2, false, 0},
                                           Case{"queue", 2, 3, true, 0},
                                           Case{"priority-queue", 3, 1, true, 0},
                                           Case{"idempotent-queue", 2, 2, false, 1},
                                           Case{"idempotent-queue", 3, 1, true, 1},
                                           Case{"checked-dequeue-queue", 2, 2, false, 1},
                                           Case{"skip-on-conflict-queue", 2, 2, false, 1},
                                           Case{"hc-queue", 2, 2, false, 0},
                                           Case{"hc-priority-queue-ordered", 2, 2, false, 0}),
                         testing::NamedByPrinting());

TEST(Soundness, ABrokenIndependenceRuleMakesTheReducedSearchMissOutcomes) {
  // Reads that never depend on commits: the reduction then takes a dequeue's read as commuting
  // with the enqueue it would have seen.
  bool missed = false;
  for (const char* recipe : {"queue", "first-cut-queue", "split-dequeue-queue"}) {
    Scenario s = scope(recipe, 2, 2);
    ExhaustiveResult full = explore_exhaustively(s, options(false, true));
    ExhaustiveOptions broken = options(true, true);
    broken.broken_independence = true;
    ExhaustiveResult wrong = explore_exhaustively(s, broken);
    missed |= full.outcomes != wrong.outcomes;
  }
  EXPECT_TRUE(missed) << "the soundness comparison cannot tell a wrong independence rule";
}

TEST(Soundness, ReadFaultsPlacedInsideAStepThatRunsInertReadsLoseNoOutcome) {
  // A too-old read is a fault choice inside the step that runs the read: with inert reads run
  // inside the fetch's step (hc-queue's fulfilment reads the items and each request and item it
  // hands out after its fetch), inside that step. The full search schedules every read and
  // places the fault there.
  Scenario s = scope("hc-queue", 2, 1);
  s.faults.read_too_old = 0.1;
  const ExhaustiveResult full = explore_exhaustively(s, options(false, true, 1));
  const ExhaustiveResult reduced = explore_exhaustively(s, options(true, true, 1));
  ASSERT_TRUE(full.exhausted && reduced.exhausted);
  EXPECT_EQ(full.outcomes, reduced.outcomes) << first_difference(full.outcomes, reduced.outcomes);
  EXPECT_GT(reduced.coverage.count("fault: read fails: transaction_too_old"), 0u);
}

// Every kind of fault a search places, alone and all together: the cases above enable the commit
// faults only. A crash is a choice at every step (and makes every store step one of its own); a
// too-old or future-version read one at every read.
struct FaultKindCase {
  Case searched;
  const char* kinds;  // "crash", "reads" or "every"
};

void PrintTo(const FaultKindCase& c, std::ostream* os) {
  PrintTo(c.searched, os);
  *os << " " << c.kinds;
}

Scenario with_fault_kinds(const FaultKindCase& c) {
  Scenario s = scope(c.searched.recipe, c.searched.clients, c.searched.ops);
  const std::string kinds = c.kinds;
  if (kinds == "crash" || kinds == "every") s.faults.crash = 0.1;
  if (kinds == "reads" || kinds == "every") {
    s.faults.read_too_old = 0.1;
    s.faults.read_future_version = 0.1;
  }
  if (kinds == "every") {
    s.faults.not_committed = 0.1;
    s.faults.unknown_result_applied = 0.1;
    s.faults.unknown_result_not_applied = 0.1;
  }
  return s;
}

class FaultKinds : public ::testing::TestWithParam<FaultKindCase> {};

TEST_P(FaultKinds, TheReducedSearchReachesExactlyTheFullSearchsOutcomes) {
  const FaultKindCase c = GetParam();
  const Scenario s = with_fault_kinds(c);
  const ExhaustiveResult full =
      explore_exhaustively(s, options(false, c.searched.all_plans, c.searched.faults));
  const ExhaustiveResult reduced =
      explore_exhaustively(s, options(true, c.searched.all_plans, c.searched.faults));
  ASSERT_TRUE(full.exhausted);
  ASSERT_TRUE(reduced.exhausted);
  EXPECT_EQ(full.outcomes, reduced.outcomes) << first_difference(full.outcomes, reduced.outcomes);
  EXPECT_LT(reduced.executions, full.executions);
  std::int64_t faults_placed = 0;
  for (const auto& [line, n] : reduced.coverage)
    if (line.starts_with("fault: ")) faults_placed += n;
  EXPECT_GT(faults_placed, 0) << "the search placed the faults it was given";
}

INSTANTIATE_TEST_SUITE_P(
    EveryKind, FaultKinds,
    ::testing::Values(FaultKindCase{{"queue", 2, 2, true, 1}, "crash"},
                      FaultKindCase{{"hc-queue", 2, 1, true, 1}, "crash"},
                      FaultKindCase{{"priority-queue", 2, 1, true, 1}, "reads"},
                      FaultKindCase{{"versionstamp-queue", 2, 2, true, 1}, "every"},
                      FaultKindCase{{"idempotent-queue", 2, 1, true, 2}, "every"},
                      FaultKindCase{{"hc-priority-queue-ordered", 2, 1, true, 1}, "reads"}),
    testing::NamedByPrinting());

TEST(Soundness, FetchesRunInsideTheStepBeforeThemMakeTheReducedSearchMissOutcomes) {
  // The reduced search runs an inert step inside its client's step before it (world.h's
  // split_inert_steps); the full search it is compared with schedules every store step. A read
  // that takes its transaction's read version is not inert: run inside the step before it (the
  // client's last commit), another client's commit can no longer land between the two.
  for (const char* recipe : {"queue", "split-dequeue-queue"}) {
    const Scenario s = scope(recipe, 2, 2);
    const ExhaustiveResult full = explore_exhaustively(s, options(false, true));
    ExhaustiveOptions broken = options(true, true);
    broken.broken_fetches_inline = true;
    const ExhaustiveResult wrong = explore_exhaustively(s, broken);
    ASSERT_TRUE(full.exhausted && wrong.exhausted) << recipe;
    EXPECT_LT(wrong.outcomes.size(), full.outcomes.size())
        << recipe
        << ": fetches run inside the step before them lost no outcome, so the "
           "soundness comparison would not tell an inert step from one that is not";
  }
}

TEST(Soundness, ReadsJudgedByTheKeysThatDecidedThemMakeTheReducedSearchMissOutcomes) {
  // footprint.h: a limited read counts as the range it asked for. Counted as the keys that
  // decided its answer, a fetch's relation to one commit depends on where a third commit stands,
  // and the reduction loses classes. Any outcome a search reaches is an execution's, so one that
  // the reduced search reaches and this one does not is one it missed.
  for (const char* recipe : {"idempotent-queue", "queue"}) {
    const Scenario s = testing::small_scope(recipe, 3, 1, 1);
    const ExhaustiveResult sound = explore_exhaustively(s, options(true, true, 1));
    ExhaustiveOptions narrowed = options(true, true, 1);
    narrowed.broken_reads_as_decided = true;
    const ExhaustiveResult wrong = explore_exhaustively(s, narrowed);
    ASSERT_TRUE(sound.exhausted && wrong.exhausted) << recipe;
    EXPECT_TRUE(std::includes(sound.outcomes.begin(), sound.outcomes.end(), wrong.outcomes.begin(),
                              wrong.outcomes.end()))
        << recipe << ": " << testing::first_difference(sound.outcomes, wrong.outcomes, "narrowed");
    EXPECT_LT(wrong.outcomes.size(), sound.outcomes.size())
        << recipe
        << ": the narrower reads lost no outcome, so the soundness comparison would "
           "not tell them from the whole ranges";
  }
}

// Judging each execution by its class's most ordered schedules (real_time_orders.h) reaches the
// outcomes that scheduling every real-time order reaches, wrong recipes' violations included, in
// fewer executions.
TEST(RealTime, MostOrderedSchedulesReachWhatSchedulingEveryRealTimeOrderReaches) {
  for (const char* recipe :
       {"queue", "first-cut-queue", "snapshot-dequeue-queue", "split-dequeue-queue"}) {
    const Scenario s = scope(recipe, 2, 2);
    ExhaustiveOptions scheduled_options = options(true, true);
    scheduled_options.real_time_by_schedule = true;
    ExhaustiveResult scheduled = explore_exhaustively(s, scheduled_options);
    ExhaustiveResult judged = explore_exhaustively(s, options(true, true));
    ASSERT_TRUE(scheduled.exhausted && judged.exhausted) << recipe;
    EXPECT_EQ(scheduled.outcomes, judged.outcomes)
        << recipe << ": " << first_difference(scheduled.outcomes, judged.outcomes);
    EXPECT_LT(judged.executions, scheduled.executions) << recipe;
  }
}

// A job keeps a class's verdict for the classes after it in the units of one plan whose history,
// the steps that recorded its events and those steps' order are the same (search_run.cpp's
// VerdictCache). Sharing verdicts so, the search still reaches what scheduling every real-time
// order reaches; a key that leaves the history's events out lets violating classes take passing
// ones' verdicts, and the comparison sees it.
TEST(RealTime, ClassesShareAVerdictOnlyWithTheSameHistoryAndOrder) {
  for (const char* recipe : {"first-cut-queue", "snapshot-dequeue-queue", "queue"}) {
    const Scenario s = scope(recipe, 2, 2);
    ExhaustiveOptions scheduled_options = options(true, true);
    scheduled_options.real_time_by_schedule = true;
    const ExhaustiveOptions shared_options = options(true, true);
    ExhaustiveOptions broken_options = shared_options;
    broken_options.broken_class_key = true;
    const ExhaustiveResult scheduled = explore_exhaustively(s, scheduled_options);
    const ExhaustiveResult shared = explore_exhaustively(s, shared_options);
    const ExhaustiveResult broken = explore_exhaustively(s, broken_options);
    ASSERT_TRUE(scheduled.exhausted && shared.exhausted && broken.exhausted) << recipe;
    EXPECT_EQ(scheduled.outcomes, shared.outcomes)
        << recipe << ": " << first_difference(scheduled.outcomes, shared.outcomes);
    if (std::string(recipe) == "first-cut-queue") {
      EXPECT_NE(scheduled.outcomes, broken.outcomes)
          << recipe
          << ": a key without the history's events lost no violation, so this "
             "comparison would not tell a wrong key from a sound one";
      EXPECT_LT(broken.verdicts.at("violation: lost"), shared.verdicts.at("violation: lost"))
          << recipe;
    }
  }
}

// A proof covers the random values its seed draws (the queue's key suffixes), and says so.
// A high-contention pop whose fulfilment was refused and whose poll found its request still
// waiting is parked: the execution without that round stands for it. The full search parks
// nowhere, so it checks that no outcome is lost (pruned at states met before, which reaches every
// outcome, or it would not finish at these scopes). Outcomes as a user sees them: the verdict,
// the store and each operation's result, not every attempt's reads (the parked round's
// attempts are what parking leaves out).
TEST(Parking, AWaitThatMadeNoProgressIsParkedAndNoOutcomeIsLost) {
  for (const Case& c : {Case{"hc-queue", 2, 2, true, 0}, Case{"hc-queue", 2, 3, false, 0},
                        Case{"hc-priority-queue-ordered", 2, 2, true, 0}}) {
    const Scenario s = scope_of(c);
    ExhaustiveOptions parking = options(true, c.all_plans);
    parking.park_unproductive_waits = true;
    parking.observe_attempts = false;
    ExhaustiveOptions waiting = parking;
    waiting.park_unproductive_waits = false;
    ExhaustiveOptions full_search = parking;
    full_search.reduce = false;
    full_search.cache_states = true;
    const ExhaustiveResult full = explore_exhaustively(s, full_search);
    const ExhaustiveResult parked = explore_exhaustively(s, parking);
    const ExhaustiveResult unparked = explore_exhaustively(s, waiting);
    ASSERT_TRUE(full.exhausted && parked.exhausted && unparked.exhausted) << c.recipe;
    EXPECT_GT(parked.parked, 0) << c.recipe;
    EXPECT_LE(parked.parked, parked.blocked) << c.recipe;
    EXPECT_EQ(unparked.parked, 0) << c.recipe;
    EXPECT_EQ(full.parked, 0) << c.recipe;
    EXPECT_LT(parked.executions, unparked.executions) << c.recipe;
    EXPECT_EQ(full.outcomes, parked.outcomes)
        << c.recipe << ": " << first_difference(full.outcomes, parked.outcomes);
    EXPECT_EQ(unparked.outcomes, parked.outcomes) << c.recipe;
  }
}

TEST(Statement, NamesTheSeedWhoseRandomDrawsItCovers) {
  Scenario s = scope("queue", 2, 1);
  ExhaustiveOptions o = options(true, true);
  o.seed = 7;
  ExhaustiveResult r = explore_exhaustively(s, o);
  ASSERT_TRUE(r.exhausted);
  EXPECT_GT(r.seeded_draws, 0);
  const std::string statement = proof_statement(s, o, r);
  EXPECT_NE(statement.find("random draws are seed 7's"), std::string::npos) << statement;
}

TEST(Reduction, TheSeedPlanOfQueueThreeByTwoNeedsFarFewerExecutionsThanTheFullSearch) {
  Scenario s = scope("queue", 3, 2);
  ExhaustiveOptions o = options(true, false);
  ExhaustiveResult reduced = explore_exhaustively(s, o);
  ASSERT_TRUE(reduced.exhausted);
  EXPECT_EQ(reduced.verdicts.size(), 1u);
  EXPECT_EQ(reduced.verdicts.begin()->first, "linearizable");
  // The full search of this plan runs 716,130 executions (bench/explore_bench measures both).
  EXPECT_LE(reduced.executions * 50, 716'130);
}

// Each run keeps from the last one the steps before the one its path changed (dpor.h). A fetch
// whose attempt was still open there may read differently now (here a read the path now fails
// with transaction_too_old ends it sooner): kept all the same, the check that computes the kept
// steps afresh (on in every soundness test) stops the search. The reads are steps of their own
// here, as they are in a world with crash faults or explored key suffixes; run inside the fetch's
// step, they are part of what the path changed.
TEST(ReuseDeathTest, AFetchKeptWhileItsAttemptWasOpenFailsTheCheck) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  Scenario s = scope("hc-queue", 2, 2);
  s.faults.read_too_old = 0.1;
  ExhaustiveOptions checked = options(true, false, 1);
  checked.split_inert_steps = true;
  ASSERT_TRUE(checked.check_reuse);
  EXPECT_TRUE(explore_exhaustively(s, checked).exhausted);
  ExhaustiveOptions broken = checked;
  broken.broken_reuse = true;
  EXPECT_DEATH(explore_exhaustively(s, broken),
               "a step kept from the last run resolves differently");
}

// An execution's happens-before order as a string: for each step (thread, position in the
// thread), the steps of each thread before it. Executions of one class give the same string.
std::string happens_before_signature(const std::vector<ResolvedStep>& steps) {
  const ExecutionDependence depends(steps, DependenceRule{});
  constexpr int kThreads = 8;
  std::vector<std::array<int, kThreads>> clock(steps.size());
  std::array<int, kThreads> count{};
  std::vector<std::string> rows;
  for (std::size_t j = 0; j < steps.size(); ++j) {
    const int t = steps[j].thread;
    EXPECT_LT(t, kThreads);
    clock[j].fill(0);
    for (std::size_t k = 0; k < j; ++k) {
      if (steps[k].thread != t && !depends(k, j)) continue;
      for (int u = 0; u < kThreads; ++u)
        clock[j][u] = std::max(clock[j][u], clock[k][u]);
    }
    clock[j][t] = ++count[t];
    std::string row = std::to_string(t) + ":";
    for (int v : clock[j])
      row += std::to_string(v) + ",";
    rows.push_back(row);
  }
  std::sort(rows.begin(), rows.end());
  std::string out;
  for (const std::string& row : rows)
    out += row + ";";
  return out;
}

struct ClassCount {
  std::int64_t executions = 0;
  std::size_t classes = 0;
};

// The reduced search of the seed's plan in one explorer: `judge` sees each execution it judged
// (not abandoned), with the explorer as that run left it.
void for_each_judged(const Scenario& s,
                     const std::function<void(const DporExplorer&, const SeedRun&)>& judge) {
  DporOptions d;
  DporExplorer explorer(d);
  std::int64_t executions = 0;
  while (std::shared_ptr<DporRun> run = explorer.begin()) {
    SeedRun r = run_seed(s, 1, RunControls{false, false, run, true, false});
    const bool complete = r.metrics.bound == BoundHit::none;
    explorer.finish(*run, r.step_log, complete);
    if (explorer.last_blocked()) continue;
    judge(explorer, r);
    if (++executions > 1'000'000) break;
  }
  EXPECT_TRUE(explorer.exhausted());
}

// The distinct happens-before orders of the executions the reduced search judged.
ClassCount count_classes(const Scenario& s) {
  std::set<std::string> signatures;
  ClassCount out;
  for_each_judged(s, [&](const DporExplorer& explorer, const SeedRun&) {
    ++out.executions;
    signatures.insert(happens_before_signature(explorer.resolved_steps()));
  });
  out.classes = signatures.size();
  return out;
}

TEST(Reduction, ItsClocksAreTheOrderTheRealTimeCheckComputes) {
  // The class verdict takes the search's vector clocks for the steps' dependence order instead
  // of computing it again: both must give the same most ordered schedules, execution by
  // execution (among them classes whose executed schedule is not the most ordered one).
  using model::OpFunction;
  const PlannedOperation enqueue{OpFunction::enqueue, std::nullopt};
  const PlannedOperation dequeue{OpFunction::dequeue, std::nullopt};
  const std::vector<std::pair<std::string, Plan>> cases = {
      {"queue", {{enqueue, dequeue}, {dequeue, enqueue}, {dequeue}}},
      {"hc-queue", {{dequeue}, {enqueue, dequeue}, {dequeue}}},
  };
  for (const auto& [recipe_name, plan] : cases) {
    const std::string recipe = recipe_name;  // a lambda captures a variable, not a binding
    Scenario s = scope(recipe, static_cast<int>(plan.size()), 2);
    s.plan = plan;
    s.drain = true;
    std::int64_t executions = 0;
    std::int64_t reordered = 0;
    for_each_judged(s, [&](const DporExplorer& explorer, const SeedRun& r) {
      ASSERT_TRUE(explorer.orders_steps());
      const KnownOrder known{&explorer.clocks(), &explorer.positions(), explorer.clock_width()};
      const RealTimeOrders computed =
          most_ordered_schedules(explorer.resolved_steps(), r.step_log, r.history);
      const RealTimeOrders given =
          most_ordered_schedules(explorer.resolved_steps(), r.step_log, r.history, known);
      ASSERT_EQ(given.orders, computed.orders) << recipe << ", execution " << executions + 1;
      ASSERT_EQ(given.executed_is_most_ordered, computed.executed_is_most_ordered);
      ++executions;
      reordered += computed.executed_is_most_ordered ? 0 : 1;
    });
    EXPECT_GT(executions, 10) << recipe;
    EXPECT_GT(reordered, 0) << recipe << ": no class whose executed schedule is not the most "
                            << "ordered one, so the comparison tested little";
  }
}

TEST(Reduction, ExploresAboutOneExecutionPerClass) {
  // A read version fetch whose attempt has not ended wakes every sleeping commit (it may read
  // anything yet); judged again once its reads are known, the runs that only that woke are
  // dropped. Without it these scopes ran 1.14x and 1.09x as many executions as classes (the
  // seed's plan of hc-queue 3 x 2: 1.68x, now 1.02x). A refused commit's dependence is narrowed
  // by the execution, so one class can show two orders: the bound allows a few.
  using model::OpFunction;
  const PlannedOperation enqueue{OpFunction::enqueue, std::nullopt};
  const PlannedOperation dequeue{OpFunction::dequeue, std::nullopt};
  const std::vector<std::pair<std::string, Plan>> cases = {
      {"hc-queue", {{dequeue}, {enqueue, dequeue}, {dequeue, dequeue}}},
      {"hc-queue", {{enqueue}, {dequeue}, {dequeue}, {enqueue}}},
  };
  for (const auto& [recipe, plan] : cases) {
    Scenario s = scope(recipe, static_cast<int>(plan.size()), 2);
    s.plan = plan;
    s.drain = true;  // as the shipped scenarios do: a drain after the plans
    const ClassCount c = count_classes(s);
    EXPECT_GE(static_cast<std::size_t>(c.executions), c.classes) << recipe;
    EXPECT_LE(static_cast<double>(c.executions), 1.05 * static_cast<double>(c.classes))
        << recipe << " " << plan.size() << " clients: " << c.executions << " executions for "
        << c.classes << " distinct happens-before orders";
  }
}

using testing::WrongCase;

TEST(Outcomes, DigestsCountAsManyDistinctOutcomesAsTheReadableForm) {
  // A search that only counts keeps digests (outcome.h): they must tell apart exactly the
  // outcomes the readable form tells apart, with and without the attempts' reads.
  for (const char* recipe : {"queue", "priority-queue", "idempotent-queue"}) {
    for (bool attempts : {false, true}) {
      Scenario s = scope(recipe, 2, 2);
      ExhaustiveOptions o = options(true, true);
      if (std::string(recipe) == "idempotent-queue") {
        s.faults.unknown_result_applied = 0.1;
        s.faults.unknown_result_not_applied = 0.1;
        o.max_faults = 1;
      }
      o.observe_attempts = attempts;
      const ExhaustiveResult readable = explore_exhaustively(s, o);
      o.collect_outcomes = false;
      const ExhaustiveResult digests = explore_exhaustively(s, o);
      ASSERT_TRUE(readable.exhausted && digests.exhausted) << recipe;
      EXPECT_GT(readable.distinct_outcomes, 1) << recipe;
      EXPECT_EQ(readable.distinct_outcomes, digests.distinct_outcomes)
          << recipe << (attempts ? " with" : " without") << " attempts";
      EXPECT_EQ(readable.executions, digests.executions) << recipe;
    }
  }
}

class KnownWrong : public ::testing::TestWithParam<WrongCase> {};

TEST_P(KnownWrong, TheReducedSearchFindsTheViolationAtItsSmallestScope) {
  const WrongCase w = GetParam();
  Scenario s = scope(w.recipe, w.clients, w.ops);
  if (w.faults > 0) {
    s.faults.unknown_result_applied = 0.1;
    s.faults.unknown_result_not_applied = 0.1;
  }
  ExhaustiveOptions o = options(true, true, w.faults);
  o.stop_at_first_violation = true;
  o.minimise = true;
  o.collect_outcomes = false;
  o.park_unproductive_waits = true;  // the search as `explore` runs it
  ExhaustiveResult r = explore_exhaustively(s, o);
  ASSERT_TRUE(r.violation.has_value()) << w.recipe;
  EXPECT_EQ(r.violation->verdict.violation, w.kind) << r.violation->verdict.explanation;
  EXPECT_TRUE(r.violation->minimal);
  // Its path replays to the same violation.
  std::string error;
  auto nodes = parse_path(r.violation->path, error);
  ASSERT_TRUE(nodes.has_value()) << error;
  auto replay = std::make_shared<DporRun>(&*nodes, nodes->size(), DporOptions{});
  SeedRun run = run_seed(r.violation->scenario, o.seed, RunControls{false, false, replay, true});
  EXPECT_FALSE(replay->diverged());
  EXPECT_EQ(check_run(r.violation->scenario, run).verdict.violation, w.kind);
}

INSTANTIATE_TEST_SUITE_P(
    Catalog, KnownWrong,
    ::testing::Values(
        WrongCase{"first-cut-queue", 2, 1, 0, model::ViolationKind::lost},
        WrongCase{"snapshot-dequeue-queue", 2, 2, 0, model::ViolationKind::duplicate_delivery},
        WrongCase{"split-dequeue-queue", 2, 2, 0, model::ViolationKind::duplicate_delivery},
        WrongCase{"hc-queue-no-reads", 2, 3, 0, model::ViolationKind::duplicate_delivery},
        WrongCase{"checked-dequeue-queue", 3, 1, 1, model::ViolationKind::duplicate_delivery},
        WrongCase{"queue", 2, 1, 1, model::ViolationKind::duplicate_delivery}),
    testing::NamedByPrinting());

TEST(Plans, EveryPlanOfAFifoScopeIsAMultisetOfClientPlans) {
  std::string error;
  auto plans = enumerate_plans(scope("queue", 3, 2), RecipeKind::fifo, 1000, error);
  ASSERT_TRUE(plans.has_value()) << error;
  EXPECT_EQ(plans->size(), 20u);  // multisets of 3 among the 4 client plans
  std::set<Plan> distinct(plans->begin(), plans->end());
  EXPECT_EQ(distinct.size(), plans->size());
  for (const Plan& p : *plans)
    EXPECT_TRUE(std::is_sorted(p.begin(), p.end()));
}

TEST(Plans, PrioritiesAppearAsOrderPatternsOnly) {
  Scenario s = scope("priority-queue", 2, 1);
  s.mix.pop_min = 0;
  s.priority_min = 5;
  s.priority_max = 9;
  std::string error;
  auto plans = enumerate_plans(s, RecipeKind::priority, 1000, error);
  ASSERT_TRUE(plans.has_value()) << error;
  // Two pushes: equal priorities, or one below the other.
  ASSERT_EQ(plans->size(), 2u);
  EXPECT_EQ(describe_plan((*plans)[0]), "[push:5] [push:5]");
  EXPECT_EQ(describe_plan((*plans)[1]), "[push:5] [push:6]");
}

TEST(Plans, TooManyPlansIsAnErrorThatSaysHowToNarrowTheScope) {
  std::string error;
  auto plans = enumerate_plans(scope("queue", 4, 6), RecipeKind::fifo, 100, error);
  EXPECT_FALSE(plans.has_value());
  EXPECT_NE(error.find("--plans seed"), std::string::npos) << error;
}

using testing::expect_same_totals;
using testing::without_outcome_strings;

TEST(Parallel, JobsChangeNothingButTheTime) {
  Scenario s = scope("first-cut-queue", 2, 2);
  ExhaustiveOptions o = options(true, true);
  o.stop_at_first_violation = true;
  ExhaustiveResult one = explore_exhaustively(s, o);
  o.jobs = 3;
  ExhaustiveResult three = explore_exhaustively(s, o);
  expect_same_totals(one, three);
  Scenario q = scope("queue", 2, 2);
  expect_same_totals(explore_exhaustively(q, options(true, true)), explore_exhaustively(q, [] {
                       ExhaustiveOptions p = options(true, true);
                       p.jobs = 2;
                       return p;
                     }()));
}

TEST(Parallel, ShardsAddUpToTheWholeSearch) {
  Scenario s = scope("queue", 2, 2);
  ExhaustiveResult whole = explore_exhaustively(s, options(true, true));
  std::int64_t executions = 0, units = 0;
  std::set<std::string> outcomes;
  for (std::uint64_t k = 1; k <= 3; ++k) {
    ExhaustiveOptions o = options(true, true);
    o.shard = Shard{k, 3};
    ExhaustiveResult part = explore_exhaustively(s, o);
    EXPECT_TRUE(part.exhausted);
    executions += part.executions;
    units += part.units;
    outcomes.insert(part.outcomes.begin(), part.outcomes.end());
  }
  EXPECT_EQ(executions, whole.executions);
  EXPECT_EQ(units, whole.units);
  EXPECT_EQ(outcomes, whole.outcomes);
}

TEST(Units, CuttingBelowTheRootChangesNoOutcomeAndSplitsTheSeedPlan) {
  // The seed's plan at 3 clients has three root units; the cut goes on below them.
  testing::expect_cutting_below_the_root_changes_nothing(scope("hc-queue", 3, 1),
                                                         options(true, false), 3);
}

TEST(Units, ABudgetOneUnitLeavesUnusedGoesToTheOthers) {
  // Units differ in size by orders of magnitude: an even share stops the large ones while the
  // small ones leave most of theirs. Exactly the runs the whole search needs must be enough.
  const Scenario s = scope("queue", 3, 2);
  const ExhaustiveResult whole = explore_exhaustively(s, options(true, false));
  ASSERT_TRUE(whole.exhausted);
  ASSERT_GT(whole.units, 3);
  ExhaustiveOptions o = options(true, false);
  o.max_executions = whole.executions + whole.blocked;
  const ExhaustiveResult just_enough = explore_exhaustively(s, o);
  EXPECT_TRUE(just_enough.exhausted) << just_enough.units_done << " of " << just_enough.units
                                     << " units ended within a budget of the whole search";
  expect_same_totals(without_outcome_strings(whole), without_outcome_strings(just_enough));
  // A budget that runs out stops at the same runs whatever the jobs.
  o.max_executions = (whole.executions + whole.blocked) / 3;
  const ExhaustiveResult one = explore_exhaustively(s, o);
  EXPECT_FALSE(one.exhausted);
  EXPECT_LE(one.executions + one.blocked, o.max_executions);
  o.jobs = 2;
  expect_same_totals(without_outcome_strings(one),
                     without_outcome_strings(explore_exhaustively(s, o)));
}

TEST(Units, AFaultBudgetKeepsTheCutAtTheRoot) {
  // Cutting below a commit's fault choices costs a small search more than it gives
  // (search_units.h).
  ExhaustiveOptions o = options(true, false, 1);
  const ExhaustiveResult r = explore_exhaustively(scope_of(Case{"queue", 2, 1, false, 1}), o);
  ASSERT_TRUE(r.exhausted);
  EXPECT_EQ(r.units, 2);
}

// A checkpoint path under the temporary directory, with no file there yet.
std::string fresh_checkpoint(const std::string& name) {
  const std::string file = (std::filesystem::temp_directory_path() / name).string();
  std::remove(file.c_str());
  return file;
}

std::string file_text(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(Checkpoint, AStoppedSearchResumesWhereItWasAndEndsWithTheSameTotals) {
  const std::string file = fresh_checkpoint("contend-dpor-checkpoint-test.json");
  Scenario s = scope("queue", 2, 2);
  ExhaustiveResult whole = explore_exhaustively(s, options(true, true));
  ExhaustiveOptions o = options(true, true);
  o.checkpoint_file = file;
  ExhaustiveResult first = explore_exhaustively(s, o);
  ExhaustiveResult resumed = explore_exhaustively(s, o);  // every unit comes from the file
  expect_same_totals(without_outcome_strings(whole), without_outcome_strings(first));
  expect_same_totals(without_outcome_strings(whole), without_outcome_strings(resumed));
  // Finished units are written in batches; the last batch at the end of the search.
  EXPECT_EQ(resumed.resumed, whole.executions + whole.blocked) << "a unit ran again";
  // Another search refuses the file.
  ExhaustiveOptions other = o;
  other.max_preemptions = 2;
  ExhaustiveResult refused = explore_exhaustively(s, other);
  EXPECT_NE(refused.error.find("checkpoint of another search"), std::string::npos) << refused.error;
  // So does the same file edited: here a fault enabled, with the same options and budget.
  Scenario edited = s;
  edited.faults.not_committed = 0.1;
  ExhaustiveResult edited_refused = explore_exhaustively(edited, o);
  EXPECT_NE(edited_refused.error.find("checkpoint of another search"), std::string::npos)
      << edited_refused.error;
  std::remove(file.c_str());
}

// Every report of a search, checked: runs pass each multiple of 5 once, and only grow.
void expect_progress_counts_on(const Scenario& s, ExhaustiveOptions o) {
  o.jobs = 2;
  o.progress_every = 5;
  std::vector<ExhaustiveProgress> seen;
  o.on_progress = [&seen](const ExhaustiveProgress& p) { seen.push_back(p); };  // one at a time
  const ExhaustiveResult r = explore_exhaustively(s, o);
  ASSERT_TRUE(r.exhausted);
  ASSERT_FALSE(seen.empty()) << "no progress reported over " << r.executions << " executions";
  for (std::size_t k = 0; k < seen.size(); ++k) {
    EXPECT_EQ(seen[k].clients, s.clients);
    EXPECT_EQ(seen[k].operations, s.operations_per_client);
    EXPECT_GE(seen[k].runs, static_cast<std::int64_t>(k + 1) * 5) << "report " << k;
    EXPECT_LE(seen[k].runs, r.executions + r.blocked) << "report " << k;
    EXPECT_LE(seen[k].units_done, seen[k].units) << "report " << k;
    if (k > 0) {
      EXPECT_GT(seen[k].runs, seen[k - 1].runs) << "report " << k;
    }
  }
}

TEST(Progress, ALongSearchReportsItsRunsAsTheyPassEachMultiple) {
  expect_progress_counts_on(scope("queue", 2, 2), options(true, true));
}

TEST(Progress, RunsCountOnAcrossTheRoundsThatShareABudget) {
  const Scenario s = scope("queue", 3, 2);
  const ExhaustiveResult whole = explore_exhaustively(s, options(true, false));
  ExhaustiveOptions o = options(true, false);
  o.max_executions = whole.executions + whole.blocked;  // the large units need a second round
  expect_progress_counts_on(s, o);
}

TEST(Checkpoint, AResumedSearchForEveryViolationStillHasItsCounterexample) {
  const std::string file = fresh_checkpoint("contend-dpor-violation-checkpoint-test.json");
  const Scenario s = scope("first-cut-queue", 2, 1);
  ExhaustiveOptions o = options(true, true);  // every violation: each unit runs to its end
  o.checkpoint_file = file;
  const ExhaustiveResult first = explore_exhaustively(s, o);
  ASSERT_TRUE(first.violation.has_value()) << "first-cut-queue 2 x 1 no longer violates";
  const ExhaustiveResult resumed = explore_exhaustively(s, o);
  ASSERT_TRUE(resumed.violation.has_value()) << "the resumed search lost its counterexample";
  expect_same_totals(without_outcome_strings(first), without_outcome_strings(resumed));
  EXPECT_LT(resumed.resumed, first.executions + first.blocked)
      << "the violating units were taken from the file instead of run again";
  std::remove(file.c_str());
}

TEST(Checkpoint, AFileThatCannotBeWrittenIsRefusedBeforeTheSearch) {
  const std::string file =
      (std::filesystem::temp_directory_path() / "contend-no-such-directory" / "checkpoint.json")
          .string();
  ExhaustiveOptions o = options(true, true);
  o.checkpoint_file = file;
  const ExhaustiveResult refused = explore_exhaustively(scope("queue", 2, 2), o);
  EXPECT_NE(refused.error.find(file + ": cannot write the checkpoint"), std::string::npos)
      << refused.error;
  EXPECT_EQ(refused.executions, 0);
}

// The checkpoint file as JSON (the test reads what a stopped search left and edits a copy).
nlohmann::json read_json(const std::string& file) {
  std::ifstream in(file);
  return nlohmann::json::parse(in);
}

TEST(Checkpoint, ASearchStoppedInsideAUnitGoesOnFromThereWithTheSameTotals) {
  const std::string file = fresh_checkpoint("contend-dpor-unit-checkpoint-test.json");
  const Scenario s = scope("queue", 3, 2);  // the seed's plan: three units, about 30 runs each
  ExhaustiveOptions o = options(true, false);
  o.units_wanted = 1;  // not cut below the root
  const ExhaustiveResult whole = explore_exhaustively(s, o);
  ASSERT_TRUE(whole.exhausted);
  o.checkpoint_file = file;
  o.checkpoint_every = 3;
  o.max_executions = whole.executions / 2;  // every unit stops half-way
  const ExhaustiveResult stopped = explore_exhaustively(s, o);
  EXPECT_FALSE(stopped.exhausted);
  EXPECT_LT(stopped.executions, whole.executions);
  EXPECT_FALSE(read_json(file).at("in_progress").empty()) << "no unit saved its progress";
  o.max_executions = 3'000'000;
  const ExhaustiveResult resumed = explore_exhaustively(s, o);
  expect_same_totals(without_outcome_strings(whole), without_outcome_strings(resumed));
  // Every execution the stopped search ran was taken over, none run again.
  EXPECT_EQ(resumed.resumed, stopped.executions + stopped.blocked);
  std::remove(file.c_str());
}

// The seed's plan, its units sized in rounds of `sizing_runs` (0: not sized).
ExhaustiveOptions sized_options(std::int64_t sizing_runs) {
  ExhaustiveOptions o = options(true, false);
  o.units_wanted = 64;  // a first cut coarse enough that sizing has units to cut further
  o.sizing_runs = sizing_runs;
  return o;
}

TEST(Units, SizingChangesNoOutcomeOfAnyRecipe) {
  // Sizing rounds of 4 runs cut again every unit that takes more, deep into the search.
  for (const auto& [recipe, clients, ops] :
       {std::tuple{"hc-queue", 2, 3}, std::tuple{"priority-queue", 3, 2},
        std::tuple{"idempotent-queue", 3, 2}}) {
    const Scenario s = scope(recipe, clients, ops);
    const ExhaustiveResult whole = explore_exhaustively(s, sized_options(0));
    const ExhaustiveResult sized = explore_exhaustively(s, sized_options(4));
    ASSERT_TRUE(whole.exhausted && sized.exhausted) << recipe;
    EXPECT_GT(sized.units, whole.units) << recipe;
    EXPECT_EQ(sized.outcomes, whole.outcomes)
        << recipe << ": " << first_difference(whole.outcomes, sized.outcomes);
  }
}

TEST(Units, SizingCutsPastTheFaultNodesOfAScenarioThatEnablesFaults) {
  // Faults enabled but no fault budget: a fault node (its one choice: none) can lie where a
  // stopped unit is cut, and the cut passes over it into the fixed path.
  Scenario s = scope("idempotent-queue", 3, 2);
  s.faults.not_committed = 0.05;
  s.faults.unknown_result_applied = 0.1;
  const ExhaustiveResult whole = explore_exhaustively(s, sized_options(0));
  const ExhaustiveResult sized = explore_exhaustively(s, sized_options(4));
  ASSERT_TRUE(whole.exhausted && sized.exhausted);
  EXPECT_GT(sized.units, whole.units);
  EXPECT_EQ(sized.outcomes, whole.outcomes) << first_difference(whole.outcomes, sized.outcomes);
}

// A fault budget keeps the cut at the root: sizing alone runs nothing and says why, rather than
// blaming its bound on units in progress.
TEST(Units, SizingAloneSaysASearchWithAFaultBudgetIsNotSized) {
  const std::string file = fresh_checkpoint("contend-dpor-fault-sizing-test.json");
  const Scenario s = testing::small_scope("idempotent-queue", 2, 2, 1);
  ExhaustiveOptions o = sized_options(4);
  o.max_faults = 1;
  o.sizing_only = true;
  o.checkpoint_file = file;
  const ExhaustiveResult r = explore_exhaustively(s, o);
  ASSERT_TRUE(r.sized_only) << r.error;
  EXPECT_EQ(r.executions + r.blocked, 0);
  EXPECT_EQ(r.units_unrun, r.units);
  const std::string statement = proof_statement(s, o, r);
  EXPECT_NE(statement.find("a search with a fault budget or a preemption bound is not sized"),
            std::string::npos)
      << statement;
  std::remove(file.c_str());
}

TEST(Units, SizingCutsTheUnitsThatOutgrowTheirRunsAndChangesNoOutcome) {
  // Sizing rounds of 4 runs cut again every unit that takes more: many more units, the same
  // outcomes, and the same totals whatever the jobs and shards.
  const Scenario s = scope("queue", 3, 3);
  const ExhaustiveResult whole = explore_exhaustively(s, sized_options(0));
  ASSERT_TRUE(whole.exhausted);
  const ExhaustiveOptions o = sized_options(4);
  const ExhaustiveResult sized = explore_exhaustively(s, o);
  ASSERT_TRUE(sized.exhausted);
  EXPECT_GT(sized.units, 2 * whole.units);
  EXPECT_EQ(sized.outcomes, whole.outcomes) << first_difference(whole.outcomes, sized.outcomes);
  // Cutting this finely explores some classes twice (2,308 executions against 1,980), but never
  // drops one: every thread ready at a cut node is tried there, and sleep sets abandon most.
  EXPECT_GE(sized.executions, whole.executions);
  EXPECT_LE(sized.executions, whole.executions * 5 / 4)
      << sized.executions << " executions sized, " << whole.executions << " not";
  ExhaustiveOptions two_jobs = o;
  two_jobs.jobs = 2;
  expect_same_totals(without_outcome_strings(sized),
                     without_outcome_strings(explore_exhaustively(s, two_jobs)));
  std::int64_t executions = 0, blocked = 0, units = 0;
  std::set<std::string> outcomes;
  for (std::uint64_t k = 1; k <= 2; ++k) {
    ExhaustiveOptions part = o;
    part.shard = Shard{k, 2};
    const ExhaustiveResult r = explore_exhaustively(s, part);
    EXPECT_TRUE(r.exhausted) << "shard " << k;
    executions += r.executions;
    blocked += r.blocked;
    units += r.units;
    outcomes.insert(r.outcomes.begin(), r.outcomes.end());
  }
  EXPECT_EQ(executions, sized.executions) << "each shard sizes its units as the whole search does";
  EXPECT_EQ(blocked, sized.blocked);
  EXPECT_EQ(units, sized.units);
  EXPECT_EQ(outcomes, sized.outcomes);
}

TEST(Progress, ASizedSearchSaysWhichSizingRoundItIsInThenThatItSearches) {
  // hc-queue 3 x 2 in sizing rounds of 4 runs: reports in round 1, then in later rounds only,
  // then (round 0) in the search that goes on from the units sizing cut.
  ExhaustiveOptions o = sized_options(4);
  o.check_reuse = false;  // what is measured here is the reports alone
  o.observe_attempts = false;
  o.progress_every = 1;
  std::vector<ExhaustiveProgress> seen;
  o.on_progress = [&seen](const ExhaustiveProgress& p) { seen.push_back(p); };
  const ExhaustiveResult r = explore_exhaustively(scope("hc-queue", 3, 2), o);
  ASSERT_TRUE(r.exhausted);
  ASSERT_GE(seen.size(), 2U);
  EXPECT_EQ(seen.front().sizing_round, 1);
  EXPECT_GT(std::count_if(seen.begin(), seen.end(),
                          [](const ExhaustiveProgress& p) { return p.sizing_round > 1; }),
            0)
      << "no report from a later sizing round";
  EXPECT_EQ(seen.back().sizing_round, 0);
  for (std::size_t k = 1; k < seen.size(); ++k) {
    if (seen[k - 1].sizing_round == 0) {
      EXPECT_EQ(seen[k].sizing_round, 0) << "report " << k << ": sizing after the search began";
    } else if (seen[k].sizing_round != 0) {
      EXPECT_GE(seen[k].sizing_round, seen[k - 1].sizing_round) << "report " << k;
    }
  }
}

// queue 3 x 3 in sizing rounds of 4 runs, searched whole without a checkpoint; `o` then saves to
// a fresh file of that name.
struct SizedResume {
  std::string file;
  Scenario s = scope("queue", 3, 3);
  ExhaustiveOptions o = sized_options(4);
  ExhaustiveResult whole;
};

SizedResume sized_resume(const std::string& name) {
  SizedResume c;
  c.file = fresh_checkpoint(name);
  c.whole = explore_exhaustively(c.s, c.o);
  c.o.checkpoint_file = c.file;
  return c;
}

TEST(Checkpoint, ASizedSearchResumedWithAnotherBudgetTakesTheUnitsItWasCutInto) {
  auto [file, s, o, whole] = sized_resume("contend-dpor-sized-checkpoint-test.json");
  ASSERT_TRUE(whole.exhausted);
  o.checkpoint_every = 100;
  o.max_executions = (whole.executions + whole.blocked) / 2;  // sizing cuts less with less budget
  const ExhaustiveResult stopped = explore_exhaustively(s, o);
  EXPECT_FALSE(stopped.exhausted);
  ASSERT_TRUE(read_json(file).contains("units")) << "the checkpoint does not keep the cut";
  o.max_executions = 3'000'000;
  const ExhaustiveResult resumed = explore_exhaustively(s, o);
  EXPECT_TRUE(resumed.exhausted);
  EXPECT_EQ(resumed.units, stopped.units) << "the resumed search was cut again";
  EXPECT_EQ(resumed.outcomes, whole.outcomes) << first_difference(whole.outcomes, resumed.outcomes);
  EXPECT_EQ(resumed.resumed, stopped.executions + stopped.blocked) << "some runs ran again";
  // A unit whose first thread is not its path's (outside the path's digest) is refused.
  nlohmann::json saved = read_json(file);
  nlohmann::json other_thread = saved;
  for (auto& [scope_key, units] : other_thread.at("units").items()) {
    nlohmann::json& first = units.at("cut").at(0);
    first["thread"] = first.at("path").at("nodes").at(0).at("thread").get<int>() + 1;
  }
  std::ofstream(file) << other_thread.dump();
  const ExhaustiveResult other = explore_exhaustively(s, o);
  EXPECT_NE(other.error.find(file + ": scope 3x3|faults=0: unit 0 is not one of this search's"),
            std::string::npos)
      << other.error;
  // A unit's path edited in the file is refused, the file named.
  for (auto& [scope_key, units] : saved.at("units").items())
    units.at("cut").at(0).at("path").at("nodes").at(0)["thread"] = 2;
  std::ofstream(file) << saved.dump();
  const ExhaustiveResult refused = explore_exhaustively(s, o);
  EXPECT_NE(refused.error.find(file), std::string::npos) << refused.error;
  EXPECT_NE(refused.error.find("digest"), std::string::npos) << refused.error;
  std::remove(file.c_str());
}

TEST(Checkpoint, ASearchKilledWhileSizingGoesOnSizingFromTheLastRoundSaved) {
  auto [file, s, o, whole] = sized_resume("contend-dpor-killed-sizing-test.json");
  ASSERT_TRUE(whole.exhausted);
  o.stop_after_sizing_rounds = 2;
  const ExhaustiveResult killed = explore_exhaustively(s, o);
  EXPECT_FALSE(killed.exhausted);
  const nlohmann::json saved = read_json(file);
  ASSERT_TRUE(saved.contains("units")) << "the rounds were not saved";
  for (const auto& [scope_key, cut] : saved.at("units").items()) {
    EXPECT_EQ(cut.at("sizing_rounds"), 2) << scope_key;
    EXPECT_FALSE(cut.at("sizing_finished").get<bool>()) << scope_key;
  }
  o.stop_after_sizing_rounds.reset();
  const ExhaustiveResult resumed = explore_exhaustively(s, o);
  EXPECT_TRUE(resumed.exhausted);
  EXPECT_EQ(resumed.units, whole.units) << "sizing went on otherwise than a search never killed";
  EXPECT_EQ(resumed.executions, whole.executions);
  EXPECT_EQ(resumed.blocked, whole.blocked);
  EXPECT_EQ(resumed.outcomes, whole.outcomes) << first_difference(whole.outcomes, resumed.outcomes);
  EXPECT_GT(resumed.resumed, killed.executions + killed.blocked)
      << "the two saved sizing rounds ran again";
  std::remove(file.c_str());
}

// A stop asked for (contend explore's SIGINT and SIGTERM) ends the search as a budget does,
// wherever it comes — in a smaller scope searched first, while sizing, in the search proper — and
// the search resumed from its checkpoint ends with the totals of one never stopped.
TEST(Checkpoint, AStopAskedForAnywhereResumesToTheTotalsOfASearchNeverStopped) {
  auto [file, s, o, whole] = sized_resume("contend-dpor-stop-asked-test.json");
  ASSERT_TRUE(whole.exhausted);
  const std::int64_t runs = whole.executions + whole.blocked;
  for (const std::int64_t at : {std::int64_t{3}, runs / 3, runs * 2 / 3, runs - 3}) {
    std::remove(file.c_str());
    std::atomic<bool> stop{false};
    ExhaustiveOptions asked = o;
    asked.stop_requested = &stop;
    asked.progress_every = 1;  // called after every run
    std::int64_t made = 0;     // runs, when the stop was asked for and after it
    asked.on_progress = [&](const ExhaustiveProgress& p) {
      made = p.runs;
      if (made >= at) stop = true;
    };
    const ExhaustiveResult stopped = explore_exhaustively(s, asked);
    EXPECT_TRUE(stopped.interrupted) << "stopped after run " << at;
    EXPECT_FALSE(stopped.exhausted) << "stopped after run " << at;
    EXPECT_LT(made, at + 8) << "the search went on after the stop at run " << at;
    EXPECT_NE(proof_statement(s, asked, stopped).find("NOT VERIFIED: interrupted: "),
              std::string::npos)
        << proof_statement(s, asked, stopped);
    EXPECT_NE(proof_statement(s, asked, stopped).find(file + " keeps where the search stood"),
              std::string::npos);
    // The caller that asked for the stop may name it (contend explore's --max-seconds).
    ExhaustiveResult timed = stopped;
    timed.stop_cause = "the time limit ran out (--max-seconds 9)";
    EXPECT_EQ(proof_statement(s, asked, timed)
                  .rfind("NOT VERIFIED: the time limit ran out (--max-seconds 9): ", 0),
              0u)
        << proof_statement(s, asked, timed);
    ExhaustiveOptions no_file = asked;
    no_file.checkpoint_file.clear();
    EXPECT_NE(
        proof_statement(s, no_file, stopped).find("without --checkpoint nothing of it is kept"),
        std::string::npos)
        << proof_statement(s, no_file, stopped);
    // Each stop here comes while a sizing round runs: the file keeps the round as it was begun,
    // with its units where the stop left them, and none of its runs is made again.
    EXPECT_NE(file_text(file).find("\"round_under_way\""), std::string::npos)
        << "stopped after run " << at;
    if (at == 3) {  // a round that cuts another number of lineages than the search has is refused
      const std::string kept = file_text(file);
      nlohmann::json edited = nlohmann::json::parse(kept);
      for (auto& [scope_key, cut] : edited.at("units").items()) {
        if (cut.contains("round_under_way")) cut["round_under_way"]["cut"].push_back(true);
      }
      std::ofstream(file, std::ios::trunc) << edited.dump();
      const std::string refused = explore_exhaustively(s, o).error;
      EXPECT_EQ(refused.rfind(file + ": scope ", 0), 0u) << refused;
      EXPECT_NE(refused.find("|faults=0: the sizing round under way cuts"), std::string::npos)
          << refused;
      std::ofstream(file, std::ios::trunc) << kept;
    }
    const ExhaustiveResult resumed = explore_exhaustively(s, o);
    EXPECT_TRUE(resumed.exhausted) << "stopped after run " << at;
    EXPECT_FALSE(resumed.interrupted);
    EXPECT_EQ(resumed.resumed, stopped.executions + stopped.blocked)
        << "some runs were made again, stopped after run " << at;
    EXPECT_EQ(resumed.units, whole.units) << "stopped after run " << at;
    EXPECT_EQ(resumed.executions, whole.executions) << "stopped after run " << at;
    EXPECT_EQ(resumed.blocked, whole.blocked) << "stopped after run " << at;
    EXPECT_EQ(resumed.outcomes, whole.outcomes)
        << first_difference(whole.outcomes, resumed.outcomes);
  }
  // Resuming a search a budget stopped: a stop asked for while its file is read ends the search
  // there, the file as it was; one asked for at the first run after the read leaves the units
  // that did not start counting what the file keeps of them: nothing it held is missing from the
  // statement's totals.
  std::remove(file.c_str());
  ExhaustiveOptions half = o;
  half.max_executions = runs / 2;
  const ExhaustiveResult budget_stopped = explore_exhaustively(s, half);
  ASSERT_FALSE(budget_stopped.exhausted);
  const std::string saved = file_text(file);
  std::atomic<bool> stop{true};
  ExhaustiveOptions at_once = o;
  at_once.stop_requested = &stop;
  const ExhaustiveResult while_read = explore_exhaustively(s, at_once);
  EXPECT_EQ(while_read.error, reading_stopped(file));
  EXPECT_EQ(while_read.executions + while_read.blocked, 0);
  EXPECT_EQ(file_text(file), saved) << "a search stopped while reading its file wrote it";
  stop = false;
  at_once.progress_every = 1;
  at_once.on_progress = [&](const ExhaustiveProgress&) { stop = true; };
  const ExhaustiveResult stopped = explore_exhaustively(s, at_once);
  EXPECT_TRUE(stopped.interrupted);
  EXPECT_EQ(stopped.resumed, budget_stopped.executions + budget_stopped.blocked);
  EXPECT_GE(stopped.executions, budget_stopped.executions);
  EXPECT_GE(stopped.blocked, budget_stopped.blocked);
  EXPECT_LE(stopped.executions + stopped.blocked,
            budget_stopped.executions + budget_stopped.blocked + 8)
      << "the search went on after the stop at its first run";
  EXPECT_GE(stopped.units_done, budget_stopped.units_done);
  EXPECT_LE(stopped.units_done, budget_stopped.units_done + o.jobs);
  std::remove(file.c_str());
}

TEST(Checkpoint, AnEditedProgressIsRefusedWithTheFileNamed) {
  const std::string file = fresh_checkpoint("contend-dpor-edited-checkpoint-test.json");
  const Scenario s = scope("queue", 3, 2);
  ExhaustiveOptions o = options(true, false);
  o.units_wanted = 1;  // three units, each stopped inside
  o.checkpoint_file = file;
  o.max_executions = 12;
  explore_exhaustively(s, o);
  nlohmann::json saved = read_json(file);
  ASSERT_FALSE(saved.at("in_progress").empty());
  for (auto& [scope_key, units] : saved.at("in_progress").items()) {
    for (auto& [unit, progress] : units.items())
      progress["explorer"]["progress"]["follow"] = 0;
  }
  std::ofstream(file) << saved.dump();
  const ExhaustiveResult refused = explore_exhaustively(s, o);
  EXPECT_NE(refused.error.find(file), std::string::npos) << refused.error;
  EXPECT_NE(refused.error.find("digest"), std::string::npos) << refused.error;
  // A progress left without its search state (as a dealt shard parses other shards' units) is
  // refused where the search would take it.
  for (auto& [scope_key, units] : saved.at("in_progress").items()) {
    for (auto& [unit, progress] : units.items())
      progress.erase("explorer");
  }
  std::ofstream(file) << saved.dump();
  const ExhaustiveResult stateless = explore_exhaustively(s, o);
  EXPECT_NE(stateless.error.find(file + ": scope "), std::string::npos) << stateless.error;
  EXPECT_NE(stateless.error.find("is not that unit's"), std::string::npos) << stateless.error;
  std::remove(file.c_str());
}

// Few first units, so that lineages reach the parts going at which a whole search's sizing stops
// cutting them (and leaves some of its units never run: 277 of 917 here).
ExhaustiveOptions few_lineages() {
  ExhaustiveOptions o = sized_options(4);
  o.units_wanted = 16;
  return o;
}

// queue 3 x 3 in sizing rounds of 4 runs: its sizing alone saved to `file`, and (`search_whole`)
// the whole search.
struct SizedFile {
  std::string file;
  Scenario s = scope("queue", 3, 3);
  ExhaustiveOptions o = few_lineages();
  ExhaustiveResult whole;
  ExhaustiveResult sized;
};

// `whole`: the unsharded search of the sized file's cut (it goes on from a copy of the file).
SizedFile sized_file(const std::string& name, bool search_whole) {
  SizedFile c;
  c.file = fresh_checkpoint(name);
  ExhaustiveOptions sizing = c.o;
  sizing.checkpoint_file = c.file;
  sizing.sizing_only = true;
  c.sized = explore_exhaustively(c.s, sizing);
  if (search_whole) {
    const std::string copy = fresh_checkpoint("whole-" + name);
    std::filesystem::copy_file(c.file, copy);
    ExhaustiveOptions whole = c.o;
    whole.checkpoint_file = copy;
    c.whole = explore_exhaustively(c.s, whole);
    std::remove(copy.c_str());
  }
  return c;
}

// Per scope of a checkpoint file: its units, and how many of them no run has reached.
std::map<std::string, std::pair<std::size_t, std::size_t>> units_never_run(
    const std::string& file) {
  std::ifstream in(file);
  const nlohmann::json saved = nlohmann::json::parse(in);
  std::map<std::string, std::pair<std::size_t, std::size_t>> scopes;
  for (const auto& [scope_key, cut] : saved.at("units").items()) {
    const std::size_t units = cut.at("cut").size();
    std::size_t never = 0;
    for (std::size_t i = 0; i < units; ++i) {
      const std::string index = std::to_string(i);
      const bool done = saved.at("scopes").contains(scope_key) &&
                        saved.at("scopes").at(scope_key).contains(index);
      const bool going = saved.at("in_progress").contains(scope_key) &&
                         saved.at("in_progress").at(scope_key).contains(index);
      never += done || going ? 0 : 1;
    }
    scopes[scope_key] = {units, never};
  }
  return scopes;
}

TEST(Dealt, ShardsDealtASizedSearchsUnitsAddUpToTheWholeSearch) {
  auto [file, s, o, whole, sized] = sized_file("contend-dpor-dealt-test.json", true);
  ASSERT_TRUE(whole.exhausted);
  EXPECT_FALSE(sized.exhausted);
  EXPECT_TRUE(sized.sized_only) << "sizing finished the whole search: nothing left to deal";
  EXPECT_EQ(sized.units, whole.units) << "the search from the sized file cut its units again";
  EXPECT_LT(sized.units_done, sized.units);
  // Sizing alone runs every unit it cuts (the last round cuts none): a shard is never dealt a
  // unit of unknown size, and the large lineages are cut past the parts a whole search keeps.
  const ExhaustiveResult cut_as_searched = explore_exhaustively(s, o);
  ASSERT_TRUE(cut_as_searched.exhausted);
  EXPECT_GT(sized.units, cut_as_searched.units) << "sizing alone cut no deeper than a search";
  for (const auto& [scope_key, units] : units_never_run(file))
    EXPECT_EQ(units.second, 0U) << scope_key << ": of " << units.first << " units";
  // With no room for more units in progress, sizing alone cuts as the search does.
  ExhaustiveOptions unroomy = o;
  unroomy.checkpoint_file = fresh_checkpoint("contend-dpor-dealt-unroomy-test.json");
  unroomy.sizing_only = true;
  unroomy.sizing_going_max = 0;
  const ExhaustiveResult unroomy_sized = explore_exhaustively(s, unroomy);
  EXPECT_EQ(unroomy_sized.units, cut_as_searched.units);
  // The units left unrun are counted, and the statement says why.
  const auto unrun = units_never_run(unroomy.checkpoint_file);
  ASSERT_EQ(unrun.count("3x3|faults=0"), 1U);
  EXPECT_GT(unroomy_sized.units_unrun, 0);
  EXPECT_EQ(unroomy_sized.units_unrun, static_cast<std::int64_t>(unrun.at("3x3|faults=0").second));
  const std::string unroomy_statement = proof_statement(s, unroomy, unroomy_sized);
  EXPECT_NE(unroomy_statement.find("and " + std::to_string(unroomy_sized.units_unrun) +
                                   " never run (sizing keeps at most 0 units in progress)"),
            std::string::npos)
      << unroomy_statement;
  std::remove(unroomy.checkpoint_file.c_str());
  ExhaustiveOptions sizing = o;
  sizing.checkpoint_file = file;
  sizing.sizing_only = true;
  const std::string statement = proof_statement(s, sizing, sized);
  EXPECT_EQ(statement.rfind("SIZED, NOT VERIFIED: ", 0), 0U) << statement;
  EXPECT_NE(statement.find("--deal-from " + file), std::string::npos) << statement;
  EXPECT_EQ(sized.units_unrun, 0);
  EXPECT_EQ(statement.find("never run"), std::string::npos) << statement;
  std::int64_t executions = 0, blocked = 0, units = 0, resumed = 0;
  std::set<std::string> outcomes;
  std::set<std::string> digests;
  for (std::uint64_t k = 1; k <= 3; ++k) {
    ExhaustiveOptions part = o;
    part.shard = Shard{k, 3};
    part.deal_from = file;
    const ExhaustiveResult r = explore_exhaustively(s, part);
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_TRUE(r.exhausted) << "shard " << k;
    // Dealt in turn from the sized units: the shards' unit counts differ by at most one.
    EXPECT_GE(r.units, whole.units / 3) << "shard " << k;
    EXPECT_LE(r.units, whole.units / 3 + 1) << "shard " << k;
    executions += r.executions;
    blocked += r.blocked;
    units += r.units;
    resumed += r.resumed;
    digests.insert(r.deal_digest);
    outcomes.insert(r.outcomes.begin(), r.outcomes.end());
  }
  EXPECT_EQ(executions, whole.executions);
  EXPECT_EQ(blocked, whole.blocked);
  EXPECT_EQ(units, whole.units);
  EXPECT_EQ(outcomes, whole.outcomes) << first_difference(whole.outcomes, outcomes);
  EXPECT_EQ(resumed, sized.executions + sized.blocked) << "sizing's runs ran again in a shard";
  ASSERT_EQ(digests.size(), 1U);
  EXPECT_EQ(digests.begin()->size(), 32U) << *digests.begin();
  // Each shard parses only its own units' paths and search states out of the file.
  std::string error;
  std::ifstream sized_file_text(file);
  const auto identity = nlohmann::json::parse(sized_file_text).at("search").get<std::string>();
  const ParsedCheckpoint parsed = parse_checkpoint_file(file, identity, Shard{2, 3}, error);
  ASSERT_NE(parsed, nullptr) << error;
  std::size_t paths = 0, states = 0;
  for (const auto& [scope_key, cut] : parsed->at("units").items()) {
    const nlohmann::json& list = cut.at("cut");
    for (std::size_t i = 0; i < list.size(); ++i) {
      EXPECT_EQ(list[i].contains("path"), i % 3 == 1) << scope_key << " unit " << i;
      paths += list[i].contains("path") ? 1 : 0;
    }
  }
  for (const auto& [scope_key, running] : parsed->at("in_progress").items()) {
    for (const auto& [unit, progress] : running.items()) {
      EXPECT_EQ(progress.contains("explorer"), std::stoull(unit) % 3 == 1) << scope_key << unit;
      EXPECT_TRUE(progress.contains("result")) << scope_key << " unit " << unit;
      states += progress.contains("explorer") ? 1 : 0;
    }
  }
  EXPECT_GT(paths, 0U);
  EXPECT_GT(states, 0U);
  std::remove(file.c_str());
}

TEST(Dealt, AShardResumesFromItsOwnCheckpointAndRefusesOneOfAnotherCut) {
  auto [file, s, o, whole, sized] = sized_file("contend-dpor-dealt-resume-test.json", false);
  const std::string own = fresh_checkpoint("contend-dpor-dealt-own-test.json");
  ExhaustiveOptions part = o;
  part.shard = Shard{1, 2};
  part.deal_from = file;
  const ExhaustiveResult uninterrupted = explore_exhaustively(s, part);
  ASSERT_TRUE(uninterrupted.exhausted) << uninterrupted.error;
  part.checkpoint_file = own;
  part.checkpoint_every = 10;
  part.stop_at_first_violation = true;
  part.max_executions = 40;  // stops the shard's units on their way
  const ExhaustiveResult stopped = explore_exhaustively(s, part);
  ASSERT_TRUE(stopped.error.empty()) << stopped.error;
  EXPECT_FALSE(stopped.exhausted);
  part.max_executions = o.max_executions;
  const ExhaustiveResult resumed = explore_exhaustively(s, part);
  ASSERT_TRUE(resumed.exhausted) << resumed.error;
  EXPECT_EQ(resumed.executions, uninterrupted.executions);
  EXPECT_EQ(resumed.outcomes, uninterrupted.outcomes);
  EXPECT_GT(resumed.resumed, sized.executions / 2 + 1) << "the shard's own progress was not used";
  // The sized file changed (sizing run again into it with other rounds): the shard's checkpoint
  // belongs to the units of the old one and is refused.
  ExhaustiveOptions again = o;
  again.checkpoint_file = file;
  again.sizing_only = true;
  again.sizing_runs = 8;
  std::remove(file.c_str());
  explore_exhaustively(s, again);
  const ExhaustiveResult refused = explore_exhaustively(s, part);
  EXPECT_NE(refused.error.find(own), std::string::npos) << refused.error;
  EXPECT_NE(refused.error.find("another search"), std::string::npos) << refused.error;
  std::remove(file.c_str());
  std::remove(own.c_str());
}

TEST(Dealt, SizingAloneKilledInARoundOfUnrunUnitsGoesOnAsIfNot) {
  // Rounds 7 on run the units the usual six left unrun; each round's choice is made from the
  // saved units alone, so a sizing killed after round 7 ends with the uninterrupted one's cut.
  auto [file, s, o, whole, sized] = sized_file("contend-dpor-dealt-killed-test.json", false);
  ExhaustiveOptions killed = o;
  killed.checkpoint_file = fresh_checkpoint("contend-dpor-dealt-killed-again-test.json");
  killed.sizing_only = true;
  killed.stop_after_sizing_rounds = 7;
  const ExhaustiveResult stopped = explore_exhaustively(s, killed);
  ASSERT_TRUE(stopped.error.empty()) << stopped.error;
  EXPECT_FALSE(stopped.sized_only) << "stopped before its sizing finished";
  killed.stop_after_sizing_rounds.reset();
  const ExhaustiveResult resumed = explore_exhaustively(s, killed);
  ASSERT_TRUE(resumed.sized_only) << resumed.error;
  EXPECT_EQ(resumed.units, sized.units);
  EXPECT_EQ(resumed.units_done, sized.units_done);
  EXPECT_EQ(resumed.executions + resumed.blocked, sized.executions + sized.blocked);
  std::ifstream again(killed.checkpoint_file), uninterrupted(file);
  EXPECT_TRUE(std::equal(std::istreambuf_iterator<char>(again), std::istreambuf_iterator<char>(),
                         std::istreambuf_iterator<char>(uninterrupted),
                         std::istreambuf_iterator<char>()))
      << "the files differ";
  std::remove(killed.checkpoint_file.c_str());
  std::remove(file.c_str());
}

TEST(Dealt, AFileWithoutAFinishedSizingOfTheSearchIsRefusedWithItsName) {
  const std::string file = fresh_checkpoint("contend-dpor-dealt-unsized-test.json");
  const Scenario s = scope("queue", 3, 3);
  ExhaustiveOptions o = sized_options(4);
  ExhaustiveOptions dealt = o;
  dealt.shard = Shard{1, 2};
  dealt.deal_from = file;
  const ExhaustiveResult missing = explore_exhaustively(s, dealt);
  EXPECT_NE(missing.error.find(file), std::string::npos) << missing.error;
  EXPECT_NE(missing.error.find("cannot read"), std::string::npos) << missing.error;
  // Killed in its second sizing round: the file holds a cut that sizing has not finished.
  ExhaustiveOptions killed = o;
  killed.checkpoint_file = file;
  killed.stop_after_sizing_rounds = 1;
  explore_exhaustively(s, killed);
  const ExhaustiveResult unsized = explore_exhaustively(s, dealt);
  EXPECT_NE(unsized.error.find(file), std::string::npos) << unsized.error;
  EXPECT_NE(unsized.error.find("no finished sizing"), std::string::npos) << unsized.error;
  // Another search's file (another seed) is refused as such.
  std::remove(file.c_str());
  ExhaustiveOptions other = o;
  other.seed = 2;
  other.checkpoint_file = file;
  other.stop_after_sizing_rounds = 1;
  explore_exhaustively(s, other);
  const ExhaustiveResult foreign = explore_exhaustively(s, dealt);
  EXPECT_NE(foreign.error.find("another search"), std::string::npos) << foreign.error;
  std::remove(file.c_str());
}

// A stop asked for while a --deal-from file is read ends the read at once, before its digest is
// taken and whatever the file holds: nothing is searched, the file is as it was, and the error is
// the one a stop during the parse gives. Not stopped, the same file is refused as not a checkpoint.
TEST(Dealt, AStopAskedForWhileTheFileIsReadEndsTheReadAtOnce) {
  const std::string file = fresh_checkpoint("contend-dpor-dealt-stop-test.json");
  const std::string garbage(1 << 18, 'x');  // several chunks of a digest's read
  std::ofstream(file, std::ios::binary) << garbage;
  ExhaustiveOptions dealt = sized_options(4);
  dealt.shard = Shard{1, 2};
  dealt.deal_from = file;
  const Scenario s = scope("queue", 2, 2);
  std::atomic<bool> stop{true};
  dealt.stop_requested = &stop;
  const ExhaustiveResult stopped = explore_exhaustively(s, dealt);
  EXPECT_EQ(stopped.error, reading_stopped(file));
  EXPECT_EQ(stopped.executions + stopped.blocked, 0);
  EXPECT_EQ(file_text(file), garbage);
  stop = false;
  const ExhaustiveResult refused = explore_exhaustively(s, dealt);
  EXPECT_NE(refused.error.find(file + ": not a contend checkpoint"), std::string::npos)
      << refused.error;
  std::remove(file.c_str());
}

TEST(Paths, AMalformedPathIsRejectedWithItsPosition) {
  std::string error;
  EXPECT_FALSE(parse_path("0,1,x", error).has_value());
  EXPECT_NE(error.find("item 3"), std::string::npos) << error;
  EXPECT_FALSE(parse_path("0,,1", error).has_value());
  EXPECT_FALSE(parse_path("99", error).has_value());
  // Before: a trailing comma was taken (0,1, replayed as 0,1), and a bad item was quoted without
  // its f or d ('' for "f", '-1' for "d-1").
  EXPECT_FALSE(parse_path("0,1,", error).has_value());
  EXPECT_NE(error.find("item 3 ('', at character 5)"), std::string::npos) << error;
  EXPECT_FALSE(parse_path("0,d-1", error).has_value());
  EXPECT_NE(error.find("item 2 ('d-1', at character 3)"), std::string::npos) << error;
  EXPECT_FALSE(parse_path("f", error).has_value());
  EXPECT_NE(error.find("item 1 ('f', at character 1)"), std::string::npos) << error;
  ASSERT_TRUE(parse_path("", error).has_value());
  EXPECT_TRUE(parse_path("", error)->empty());
  auto ok = parse_path("0,f2,1", error);
  ASSERT_TRUE(ok.has_value());
  EXPECT_EQ(path_to_string(*ok), "0,f2,1");
}

}  // namespace
}  // namespace contend
