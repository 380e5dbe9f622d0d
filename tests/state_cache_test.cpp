// The full search pruned at explored states (reduction "states", dpor.h): the state table keeps
// what it was given and says when it filled; the pruned search reaches exactly the full search's
// outcomes (every recipe, small scopes, with and without faults) and every known-wrong variant's
// violation; a state that leaves out what clients observed makes the comparison fail; jobs change
// nothing but the time.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>

#include "scenarios/exhaustive.h"
#include "sim/runtime/state_cache.h"
#include "tests/support/param_names.h"
#include "tests/support/search_cases.h"

namespace contend {
namespace {

Digest128::Value digest_of(std::uint64_t n) {
  Digest128 d;
  d.add_u64(n);
  return d.finish();
}

TEST(StateCache, SaysNewOnceAndSeenAfterwardsAcrossGrowth) {
  StateCache cache;
  for (std::uint64_t n = 0; n < 20'000; ++n)
    ASSERT_TRUE(cache.insert(digest_of(n))) << "state " << n << " taken as seen";
  for (std::uint64_t n = 0; n < 20'000; ++n)
    ASSERT_FALSE(cache.insert(digest_of(n))) << "state " << n << " forgotten after growth";
  EXPECT_EQ(cache.size(), 20'000U);
  EXPECT_FALSE(cache.full());
}

TEST(StateCache, TheEmptyMarkersValueIsAStateLikeAnyOther) {
  StateCache cache;
  EXPECT_TRUE(cache.insert({0, 0}));
  EXPECT_FALSE(cache.insert({0, 0}));
  EXPECT_EQ(cache.size(), 1U);
  // It is stored as {0, 1}: the two are one state to the table (a 2^-128 collision, like any).
  EXPECT_FALSE(cache.insert({0, 1}));
}

TEST(StateCache, AFullTableSaysSoAndStillKnowsWhatItHolds) {
  StateCache cache(StateCache::kSlotsFirst * 2);
  std::uint64_t n = 0;
  for (; !cache.full(); ++n)
    ASSERT_TRUE(cache.insert(digest_of(n)));
  EXPECT_EQ(cache.size(), StateCache::kSlotsFirst);  // half of the bound's slots
  for (std::uint64_t k = 0; k < n; ++k)
    EXPECT_FALSE(cache.insert(digest_of(k))) << "state " << k;
  // New states are no longer kept: each is new every time (the search only prunes less).
  EXPECT_TRUE(cache.insert(digest_of(n + 1)));
  EXPECT_TRUE(cache.insert(digest_of(n + 1)));
  EXPECT_EQ(cache.size(), StateCache::kSlotsFirst);
}

using testing::small_scope;
using Case = testing::SearchCase;

// The full search, or with `states` pruned at explored states. The outcomes compared are the
// verdict, each operation's result and the final store: not the attempts' reads, which differ
// between the paths that reach one state.
ExhaustiveOptions full_search(bool states, bool all_plans, int faults) {
  ExhaustiveOptions o = testing::soundness_options(/*reduce=*/false, all_plans, faults);
  o.cache_states = states;
  o.observe_attempts = false;
  return o;
}

std::string first_difference(const std::set<std::string>& full,
                             const std::set<std::string>& pruned) {
  return testing::first_difference(full, pruned, "pruned search");
}

class StatesSoundness : public ::testing::TestWithParam<Case> {};

TEST_P(StatesSoundness, ThePrunedSearchReachesExactlyTheFullSearchsOutcomes) {
  const Case c = GetParam();
  const Scenario s = testing::scope_of(c);
  const ExhaustiveResult full = explore_exhaustively(s, full_search(false, c.all_plans, c.faults));
  const ExhaustiveResult pruned = explore_exhaustively(s, full_search(true, c.all_plans, c.faults));
  ASSERT_TRUE(full.exhausted);
  ASSERT_TRUE(pruned.exhausted);
  EXPECT_EQ(full.outcomes, pruned.outcomes) << first_difference(full.outcomes, pruned.outcomes);
  EXPECT_LE(pruned.executions, full.executions);
  EXPECT_GT(pruned.states_cached, 0);
  EXPECT_EQ(pruned.state_caches_full, 0);
}

INSTANTIATE_TEST_SUITE_P(
    EveryRecipe, StatesSoundness,
    ::testing::Values(
        Case{"queue", 2, 2, true, 0}, Case{"queue", 3, 1, true, 0},
        Case{"priority-queue", 2, 2, false, 0}, Case{"priority-queue", 3, 1, false, 0},
        Case{"hc-queue", 2, 1, true, 0}, Case{"hc-priority-queue", 2, 1, true, 0},
        Case{"hc-priority-queue-ordered", 2, 1, true, 0}, Case{"first-cut-queue", 2, 2, true, 0},
        Case{"strict-queue", 2, 2, true, 0}, Case{"snapshot-dequeue-queue", 2, 2, true, 0},
        Case{"split-dequeue-queue", 2, 2, true, 0}, Case{"hc-queue-no-reads", 2, 1, true, 0},
        Case{"versionstamp-queue", 2, 2, true, 0}, Case{"idempotent-queue", 2, 1, true, 1},
        Case{"idempotent-priority-queue", 2, 1, true, 1}, Case{"queue", 2, 1, true, 1},
        Case{"checked-dequeue-queue", 2, 1, true, 1}, Case{"skip-on-conflict-queue", 3, 1, true, 0},
        Case{"hc-queue", 3, 1, true, 0}),
    testing::NamedByPrinting());

TEST(StatesSoundness, AStateWithoutTheOperationEventsMakesThePrunedSearchMissOutcomes) {
  // Two paths that reach one store with different operation results then look alike: the search
  // prunes the second, and the results only it had are lost.
  bool missed = false;
  for (const char* recipe : {"queue", "priority-queue"}) {
    const Scenario s = small_scope(recipe, 2, 2);
    const ExhaustiveResult full = explore_exhaustively(s, full_search(false, false, 0));
    ExhaustiveOptions broken = full_search(true, false, 0);
    broken.broken_states = true;
    const ExhaustiveResult wrong = explore_exhaustively(s, broken);
    ASSERT_TRUE(full.exhausted && wrong.exhausted) << recipe;
    missed |= full.outcomes != wrong.outcomes;
  }
  EXPECT_TRUE(missed) << "the soundness comparison cannot tell a wrong notion of state";
}

TEST(StatesSoundness, ThePrunedSearchMakesALargerFullSearchFeasible) {
  // hc-queue 2 x 3 (seed plan): the full search runs for minutes; pruned at explored states it
  // reaches the reduced search's outcomes in a second or two.
  const Scenario s = small_scope("hc-queue", 2, 3);
  ExhaustiveOptions pruned_options = full_search(true, false, 0);
  const ExhaustiveResult pruned = explore_exhaustively(s, pruned_options);
  ExhaustiveOptions reduced_options = pruned_options;
  reduced_options.reduce = true;
  reduced_options.cache_states = false;
  const ExhaustiveResult reduced = explore_exhaustively(s, reduced_options);
  ASSERT_TRUE(pruned.exhausted);
  ASSERT_TRUE(reduced.exhausted);
  EXPECT_EQ(pruned.outcomes, reduced.outcomes)
      << first_difference(pruned.outcomes, reduced.outcomes);
  EXPECT_GT(pruned.blocked, 0);
}

using testing::WrongCase;

class StatesKnownWrong : public ::testing::TestWithParam<WrongCase> {};

TEST_P(StatesKnownWrong, ThePrunedSearchFindsTheViolationAtItsSmallestScope) {
  const WrongCase w = GetParam();
  const Scenario s = small_scope(w.recipe, w.clients, w.ops, w.faults);
  ExhaustiveOptions o = full_search(true, true, w.faults);
  o.stop_at_first_violation = true;
  o.minimise = true;
  o.collect_outcomes = false;
  const ExhaustiveResult r = explore_exhaustively(s, o);
  ASSERT_TRUE(r.violation.has_value()) << w.recipe;
  EXPECT_EQ(r.violation->verdict.violation, w.kind) << r.violation->verdict.explanation;
  EXPECT_TRUE(r.violation->minimal);
  // At the scope the reduced search finds it first: both search every smaller scope first.
  ExhaustiveOptions reduced_options = o;
  reduced_options.reduce = true;
  reduced_options.cache_states = false;
  const ExhaustiveResult reduced = explore_exhaustively(s, reduced_options);
  ASSERT_TRUE(reduced.violation.has_value()) << w.recipe;
  EXPECT_EQ(r.violation->scenario.clients, reduced.violation->scenario.clients);
  EXPECT_EQ(r.violation->scenario.operations_per_client,
            reduced.violation->scenario.operations_per_client);
  EXPECT_EQ(r.violation->faults.size(), reduced.violation->faults.size());
}

INSTANTIATE_TEST_SUITE_P(
    Catalog, StatesKnownWrong,
    ::testing::Values(
        WrongCase{"first-cut-queue", 2, 1, 0, model::ViolationKind::lost},
        WrongCase{"snapshot-dequeue-queue", 2, 2, 0, model::ViolationKind::duplicate_delivery},
        WrongCase{"split-dequeue-queue", 2, 2, 0, model::ViolationKind::duplicate_delivery},
        WrongCase{"hc-queue-no-reads", 2, 3, 0, model::ViolationKind::duplicate_delivery},
        WrongCase{"queue", 2, 1, 1, model::ViolationKind::duplicate_delivery}),
    testing::NamedByPrinting());

TEST(StatesParallel, JobsChangeNothingButTheTime) {
  // Each unit keeps its own table, so what a unit prunes does not depend on which thread ran
  // the units before it.
  const Scenario s = small_scope("queue", 2, 2);
  ExhaustiveOptions o = full_search(true, true, 0);
  const ExhaustiveResult one = explore_exhaustively(s, o);
  o.jobs = 2;
  const ExhaustiveResult two = explore_exhaustively(s, o);
  EXPECT_EQ(one.executions, two.executions);
  EXPECT_EQ(one.blocked, two.blocked);
  EXPECT_EQ(one.states_cached, two.states_cached);
  EXPECT_EQ(one.outcomes, two.outcomes);
}

TEST(StatesStatement, NamesTheReductionAndTheStatesCached) {
  const Scenario s = small_scope("queue", 2, 2);
  const ExhaustiveOptions o = full_search(true, false, 0);
  const ExhaustiveResult r = explore_exhaustively(s, o);
  const std::string line = proof_statement(s, o, r);
  EXPECT_NE(line.find("the full search, each state's continuations explored once"),
            std::string::npos)
      << line;
  EXPECT_NE(line.find(std::to_string(r.states_cached) + " states cached"), std::string::npos)
      << line;
  EXPECT_EQ(reduction_name(o), "states");
}

}  // namespace
}  // namespace contend
