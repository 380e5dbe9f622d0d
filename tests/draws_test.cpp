// Random key suffixes as explored choices (`--draws all`): SuffixDraws realises every order of a
// group's suffixes and keeps them distinct; a search that explores draws reaches orders the
// seed's bytes never give; the reduced search still reaches exactly the full search's outcomes,
// and taking two draws under one prefix as independent makes it miss some; paths, checkpoints
// and the statement carry the draws.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "scenarios/exhaustive.h"
#include "scenarios/runner.h"
#include "scenarios/search_units.h"
#include "sim/recipes/keys.h"
#include "sim/runtime/dpor.h"
#include "sim/runtime/suffix_draws.h"
#include "tests/support/param_names.h"
#include "tests/support/search_cases.h"
#include "tests/support/search_totals.h"

namespace contend {
namespace {

constexpr std::size_t kSuffixBytes = 20;

// ---- SuffixDraws ----

TEST(SuffixDraws, EachChoiceSortsTheDrawBelowThatManyOfItsGroupsEarlierDraws) {
  SuffixDraws draws;
  // Draw order: a, then b below a, then c between b and a, then d above all.
  const std::string a = draws.draw("g", kSuffixBytes, 0, 1);
  EXPECT_EQ(draws.places("g"), 2u);
  const std::string b = draws.draw("g", kSuffixBytes, 1, 2);
  const std::string c = draws.draw("g", kSuffixBytes, 1, 3);
  const std::string d = draws.draw("g", kSuffixBytes, 0, 4);
  EXPECT_LT(b, c);
  EXPECT_LT(c, a);
  EXPECT_LT(a, d);
  for (const std::string& s : {a, b, c, d})
    EXPECT_EQ(s.size(), kSuffixBytes);
  EXPECT_EQ(draws.places("g"), 5u);
  EXPECT_EQ(draws.places("other"), 1u);
}

TEST(SuffixDraws, SuffixesOfDifferentGroupsDifferByTheirTags) {
  SuffixDraws draws;
  const std::string first = draws.draw("index 0", kSuffixBytes, 0, 7);
  const std::string second = draws.draw("index 1", kSuffixBytes, 0, 8);
  EXPECT_NE(first, second) << "the first draw of every group has the same order bytes";
  EXPECT_EQ(first.substr(0, kSuffixBytes - 8), second.substr(0, kSuffixBytes - 8));
}

// Any sequence of draws and choices: each group's suffixes sort exactly as inserting each draw
// below `choice` of the group's earlier draws orders them, and every suffix is distinct.
RC_GTEST_PROP(SuffixDraws, EveryChoiceSequenceGivesTheOrderItNames, ()) {
  const auto count = *rc::gen::inRange<std::size_t>(1, 60);
  SuffixDraws draws;
  std::map<std::string, std::vector<std::string>> expected;  // by group, ascending
  std::set<std::string> all;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string group = *rc::gen::element<std::string>("a", "b", "c");
    std::vector<std::string>& order = expected[group];
    const auto choice = *rc::gen::inRange<std::uint32_t>(0, draws.places(group));
    const std::string s = draws.draw(group, kSuffixBytes, choice, i);
    order.insert(order.end() - choice, s);
    RC_ASSERT(all.insert(s).second);
  }
  for (const auto& [group, order] : expected)
    RC_ASSERT(std::is_sorted(order.begin(), order.end()));
}

// ---- what exploring draws reaches ----

// Two clients each enqueue once. The index each item lands at and the order of the items that
// share one, over every execution of the full search.
std::set<std::string> same_index_orders(bool explore_draws) {
  Scenario s = testing::small_scope("queue", 2, 1);
  s.plan = {{PlannedOperation{model::OpFunction::enqueue, {}}},
            {PlannedOperation{model::OpFunction::enqueue, {}}}};
  s.drain = false;  // the items stay in the store
  DporOptions d;
  d.reduce = false;
  DporExplorer explorer(d);
  std::set<std::string> orders;
  const keys::Space queue("Q");
  while (std::shared_ptr<DporRun> run = explorer.begin()) {
    RunControls controls;
    controls.strategy = run;
    controls.exhaustive = true;
    controls.summarize = false;
    controls.explore_draws = explore_draws;
    SeedRun r = run_seed(s, 1, std::move(controls));
    explorer.finish(*run, r.step_log, r.metrics.bound == BoundHit::none);
    std::map<std::int64_t, std::vector<std::string>> by_index;  // values in key order
    for (const auto& [key, value] : r.final_state) {
      if (!queue.range().contains(key)) continue;
      by_index[queue.require_first_int(key, "test")].push_back(
          keys::require_value(key, value, "test"));
    }
    for (const auto& [index, values] : by_index) {
      if (values.size() > 1) orders.insert(values.front() + " before " + values.back());
    }
    if (explorer.executions() > 100'000) break;
  }
  EXPECT_TRUE(explorer.exhausted());
  return orders;
}

TEST(Draws, EveryOrderOfTwoItemsAtOneIndexIsReachedOnlyWhenDrawsAreExplored) {
  const std::set<std::string> seeds = same_index_orders(false);
  const std::set<std::string> every = same_index_orders(true);
  ASSERT_FALSE(seeds.empty()) << "no execution put both items at one index";
  EXPECT_EQ(seeds.size(), 1u) << "the seed's suffixes order the two items one way only";
  EXPECT_EQ(every.size(), 2u) << "exploring draws reaches both orders";
  EXPECT_TRUE(std::includes(every.begin(), every.end(), seeds.begin(), seeds.end()));
}

// ---- soundness ----

ExhaustiveOptions draw_options(bool reduce, const testing::SearchCase& c) {
  ExhaustiveOptions o = testing::soundness_options(reduce, c.all_plans, c.faults);
  o.explore_draws = true;
  return o;
}

class DrawSoundness : public ::testing::TestWithParam<testing::SearchCase> {};

TEST_P(DrawSoundness, TheReducedSearchReachesExactlyTheFullSearchsOutcomes) {
  const testing::SearchCase c = GetParam();
  const Scenario s = testing::scope_of(c);
  ExhaustiveResult full = explore_exhaustively(s, draw_options(false, c));
  ExhaustiveResult reduced = explore_exhaustively(s, draw_options(true, c));
  ASSERT_TRUE(full.exhausted && reduced.exhausted) << full.error << reduced.error;
  EXPECT_EQ(full.outcomes, reduced.outcomes)
      << testing::first_difference(full.outcomes, reduced.outcomes, "reduced search");
  EXPECT_LE(reduced.executions, full.executions);
}

INSTANTIATE_TEST_SUITE_P(RecipesThatDrawSuffixes, DrawSoundness,
                         ::testing::Values(testing::SearchCase{"queue", 2, 2, true, 0},
                                           testing::SearchCase{"queue", 3, 1, true, 0},
                                           testing::SearchCase{"priority-queue", 2, 2, false, 0},
                                           testing::SearchCase{"priority-queue", 3, 1, true, 0},
                                           testing::SearchCase{"strict-queue", 2, 2, true, 0},
                                           testing::SearchCase{"split-dequeue-queue", 2, 2, true,
                                                               0},
                                           testing::SearchCase{"hc-queue", 2, 1, true, 0},
                                           testing::SearchCase{"hc-priority-queue", 2, 1, true, 0},
                                           testing::SearchCase{"idempotent-queue", 2, 1, true, 1}),
                         testing::NamedByPrinting());

// Larger scopes take a minute of full search: run with the `long` label (CONTEND_DPOR_LONG=1).
class LargerDrawSoundness : public ::testing::TestWithParam<testing::SearchCase> {};

TEST_P(LargerDrawSoundness, TheReducedSearchReachesExactlyTheFullSearchsOutcomes) {
  if (std::getenv("CONTEND_DPOR_LONG") == nullptr) GTEST_SKIP() << "set CONTEND_DPOR_LONG=1";
  const testing::SearchCase c = GetParam();
  const Scenario s = testing::scope_of(c);
  ExhaustiveOptions full_options = draw_options(false, c);
  full_options.max_executions = 50'000'000;
  ExhaustiveResult full = explore_exhaustively(s, full_options);
  ExhaustiveResult reduced = explore_exhaustively(s, draw_options(true, c));
  ASSERT_TRUE(full.exhausted && reduced.exhausted) << full.error << reduced.error;
  EXPECT_EQ(full.outcomes, reduced.outcomes)
      << testing::first_difference(full.outcomes, reduced.outcomes, "reduced search");
}

INSTANTIATE_TEST_SUITE_P(Long, LargerDrawSoundness,
                         ::testing::Values(testing::SearchCase{"queue", 2, 3, true, 0},
                                           testing::SearchCase{"priority-queue", 3, 2, false, 0},
                                           testing::SearchCase{"hc-queue", 2, 2, false, 0}),
                         testing::NamedByPrinting());

TEST(DrawSoundness, DrawsUnderOnePrefixTakenAsIndependentMakeTheReducedSearchMissOutcomes) {
  bool missed = false;
  for (const testing::SearchCase& c : {testing::SearchCase{"queue", 3, 1, true, 0},
                                       testing::SearchCase{"priority-queue", 3, 1, true, 0}}) {
    const Scenario s = testing::scope_of(c);
    ExhaustiveResult full = explore_exhaustively(s, draw_options(false, c));
    ExhaustiveOptions broken = draw_options(true, c);
    broken.broken_draws = true;
    ExhaustiveResult wrong = explore_exhaustively(s, broken);
    ASSERT_TRUE(full.exhausted && wrong.exhausted);
    missed |= full.outcomes != wrong.outcomes;
  }
  EXPECT_TRUE(missed) << "the soundness comparison cannot tell draws wrongly taken as independent";
}

// ---- the cut below the root ----

// Two clients each enqueue once: their suffixes are drawn under one index when both read it
// empty, within the first steps. The first suffix has one place, the second two (a draw node): a
// cut deep enough passes it, with a unit for each place.
TEST(DrawCut, ACutBelowTheRootFixesEveryChoiceOfTheDrawsItPasses) {
  Scenario s = testing::small_scope("queue", 2, 1);
  s.plan = {{PlannedOperation{model::OpFunction::enqueue, {}}},
            {PlannedOperation{model::OpFunction::enqueue, {}}}};
  ExhaustiveOptions o = draw_options(true, testing::SearchCase{"queue", 2, 1, false, 0});
  o.units_wanted = 400;
  std::vector<Root> roots{Root{probe_enabled(s, o), false, {}}};
  const std::vector<Unit> units = cut_units({s}, roots, o);
  std::set<std::uint32_t> draw_choices;
  for (const Unit& u : units) {
    for (const SearchNode& n : u.path) {
      if (n.kind == NodeKind::draw) draw_choices.insert(n.choice);
    }
  }
  EXPECT_EQ(draw_choices, (std::set<std::uint32_t>{0, 1}))
      << units.size() << " units, none past the second draw at each of its places";
}

// The seed's plan has a unit per thread at the root; cut deeper, over the draws' choices too,
// and shared out among jobs or shards, the search reaches the same outcomes with the same totals.
TEST(DrawCut, CuttingBelowTheRootChangesNoOutcomeAndJobsNoTotal) {
  const testing::SearchCase c{"hc-queue", 3, 1, false, 0};
  testing::expect_cutting_below_the_root_changes_nothing(testing::scope_of(c),
                                                         draw_options(true, c), 3);
}

// Sizing rounds of 4 runs cut every unit that takes more, at the draw nodes above its cut too:
// the choices its search has yet to take there become units of their own (56 of them in queue
// 3 x 3).
TEST(DrawCut, SizingCutsAtDrawNodesWithoutChangingAnOutcome) {
  for (const testing::SearchCase& c : {testing::SearchCase{"queue", 3, 3, false, 0},
                                       testing::SearchCase{"priority-queue", 3, 2, false, 0}}) {
    const Scenario s = testing::scope_of(c);
    ExhaustiveOptions whole_options = draw_options(true, c);
    whole_options.units_wanted = 16;
    ExhaustiveOptions sized_options = whole_options;
    sized_options.sizing_runs = 4;
    const ExhaustiveResult whole = explore_exhaustively(s, whole_options);
    const ExhaustiveResult sized = explore_exhaustively(s, sized_options);
    ASSERT_TRUE(whole.exhausted && sized.exhausted) << c.recipe;
    EXPECT_GT(sized.units, whole.units) << c.recipe;
    EXPECT_EQ(sized.outcomes, whole.outcomes)
        << c.recipe << ": " << testing::first_difference(whole.outcomes, sized.outcomes, "sized");
  }
}

// ---- paths, checkpoints, statement ----

TEST(Draws, APathWithDrawChoicesReadsBackAsItWasWritten) {
  std::string error;
  auto nodes = parse_path("0,d1,1,f0,d0", error);
  ASSERT_TRUE(nodes.has_value()) << error;
  ASSERT_EQ(nodes->size(), 5u);
  EXPECT_EQ((*nodes)[1].kind, NodeKind::draw);
  EXPECT_EQ((*nodes)[1].choice, 1u);
  EXPECT_EQ((*nodes)[3].kind, NodeKind::fault);
  EXPECT_EQ(path_to_string(*nodes), "0,d1,1,f0,d0");
  EXPECT_FALSE(parse_path("0,dx", error).has_value());
  EXPECT_NE(error.find("d<draw choice>"), std::string::npos) << error;
}

TEST(Draws, AStoppedSearchResumesFromItsCheckpointWithTheSameTotals) {
  const std::string file =
      (std::filesystem::temp_directory_path() / "contend-draws-checkpoint-test.json").string();
  std::remove(file.c_str());
  const testing::SearchCase c{"queue", 3, 3, false, 0};  // one plan of some 4,000 classes
  const Scenario s = testing::scope_of(c);
  ExhaustiveOptions o = draw_options(true, c);
  o.collect_outcomes = false;
  o.observe_attempts = false;
  const ExhaustiveResult whole = explore_exhaustively(s, o);
  o.checkpoint_file = file;
  o.checkpoint_every = 50;
  o.max_executions = 400;  // stops inside units, each saved where it stands
  const ExhaustiveResult stopped = explore_exhaustively(s, o);
  ASSERT_FALSE(stopped.exhausted);
  o.max_executions = 3'000'000;
  const ExhaustiveResult resumed = explore_exhaustively(s, o);
  ASSERT_TRUE(resumed.exhausted) << resumed.error;
  EXPECT_GT(resumed.resumed, 0);
  EXPECT_EQ(resumed.executions, whole.executions);
  EXPECT_EQ(resumed.blocked, whole.blocked);
  EXPECT_EQ(resumed.distinct_outcomes, whole.distinct_outcomes);
  EXPECT_EQ(resumed.verdicts, whole.verdicts);
  // A search of the seed's draws refuses the file.
  ExhaustiveOptions seeds = o;
  seeds.explore_draws = false;
  const ExhaustiveResult refused = explore_exhaustively(s, seeds);
  EXPECT_NE(refused.error.find("checkpoint of another search"), std::string::npos) << refused.error;
  std::remove(file.c_str());
}

// Sizing alone sizes a search that explores draws as any other: it runs the units and cuts
// those that outgrow their runs.
TEST(Draws, SizingAloneSizesASearchThatExploresDraws) {
  const std::string file =
      (std::filesystem::temp_directory_path() / "contend-draws-sizing-test.json").string();
  std::remove(file.c_str());
  const testing::SearchCase c{"queue", 3, 3, false, 0};
  const Scenario s = testing::scope_of(c);
  ExhaustiveOptions o = draw_options(true, c);
  o.collect_outcomes = false;
  o.units_wanted = 16;
  o.sizing_runs = 16;
  o.sizing_only = true;
  o.checkpoint_file = file;
  const ExhaustiveResult r = explore_exhaustively(s, o);
  ASSERT_TRUE(r.sized_only) << r.error;
  EXPECT_GT(r.executions + r.blocked, 0);
  EXPECT_GT(r.units, 16);
  const std::string statement = proof_statement(s, o, r);
  EXPECT_EQ(statement.find("not sized"), std::string::npos) << statement;
  std::remove(file.c_str());
}

TEST(Draws, TheStatementSaysEveryOrderOfTheSuffixesWasCovered) {
  const testing::SearchCase c{"queue", 2, 1, true, 0};
  const Scenario s = testing::scope_of(c);
  ExhaustiveOptions o = draw_options(true, c);
  const ExhaustiveResult r = explore_exhaustively(s, o);
  ASSERT_TRUE(r.exhausted);
  const std::string statement = proof_statement(s, o, r);
  EXPECT_NE(statement.find("random key suffixes in every order under each key prefix"),
            std::string::npos)
      << statement;
  EXPECT_EQ(statement.find("seed 1's"), std::string::npos) << statement;
}

}  // namespace
}  // namespace contend
