// Exploration and shrinking: bounded DFS covers small spaces, every known-wrong variant is caught
// within a bounded number of seeds or schedules with its violation kind, and its counterexample
// shrinks to a handful of operations; correct recipes stay linearizable for random parameters.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <optional>
#include <ostream>
#include <string>

#include "scenarios/explore.h"
#include "tests/support/param_names.h"

namespace contend {
namespace {

Scenario small(const std::string& recipe, int clients, int ops) {
  Scenario s;
  s.file = "(test)";
  s.recipe = recipe;
  s.clients = clients;
  s.operations_per_client = ops;
  s.checks.push_back("serializability");
  return s;
}

TEST(Dfs, TwoClientsTwoOperationsOfTheQueueCoverTheWholeSpaceWithoutViolation) {
  ExploreOptions o;
  o.strategy = "dfs";
  o.schedules = 100'000;
  o.max_preemptions = 64;
  ExploreResult r = explore(small("queue", 2, 2), o);
  EXPECT_TRUE(r.exhausted);
  EXPECT_GT(r.schedules, 10);
  EXPECT_FALSE(r.violation.has_value()) << r.violation->verdict.explanation;
}

TEST(Dfs, FindsTheFirstCutQueuesLostItem) {
  Scenario s = small("first-cut-queue", 2, 2);
  s.mix.dequeue = 0;  // two enqueuers, then the drain
  ExploreOptions o;
  o.strategy = "dfs";
  o.schedules = 100'000;
  o.max_preemptions = 64;
  ExploreResult r = explore(s, o);
  ASSERT_TRUE(r.violation.has_value());
  EXPECT_EQ(r.violation->verdict.violation, model::ViolationKind::lost);
}

TEST(Dfs, ThePreemptionBoundPrunesTheSpace) {
  ExploreOptions o;
  o.strategy = "dfs";
  o.schedules = 100'000;
  o.max_preemptions = 0;
  ExploreResult none = explore(small("queue", 2, 2), o);
  o.max_preemptions = 64;
  ExploreResult all = explore(small("queue", 2, 2), o);
  EXPECT_TRUE(none.exhausted);
  EXPECT_LT(none.schedules, all.schedules);
}

struct WrongVariant {
  const char* recipe;
  model::ViolationKind kind;
  double unknown_result_applied;
};

void PrintTo(const WrongVariant& v, std::ostream* os) {
  *os << v.recipe << " finds "
      << (v.kind == model::ViolationKind::none ? "a violation" : model::to_string(v.kind));
  if (v.unknown_result_applied > 0) *os << " with unknown results applied";
}

class KnownWrong : public ::testing::TestWithParam<WrongVariant> {};

TEST_P(KnownWrong, IsCaughtWithinBoundedSeedsAndShrinksToAHandfulOfOperations) {
  const WrongVariant& v = GetParam();
  Scenario s = small(v.recipe, 6, 10);
  s.faults.unknown_result_applied = v.unknown_result_applied;
  ExploreOptions o;
  o.strategy = "random";
  o.schedules = 200;
  ExploreResult r = explore(s, o);
  ASSERT_TRUE(r.violation.has_value()) << v.recipe << ": no violation within 200 seeds";
  if (v.kind != model::ViolationKind::none) {
    EXPECT_EQ(r.violation->verdict.violation, v.kind) << r.violation->verdict.explanation;
  }
  Counterexample c = shrink(s, *r.violation);
  EXPECT_EQ(c.finding.verdict.kind, model::VerdictKind::violation);
  EXPECT_LE(c.operations, 12u) << v.recipe << " shrank only to " << c.operations << " operations";
  EXPECT_LE(c.scenario.clients, 3);
  RecordProperty("seeds_to_fail", static_cast<int>(r.violation->schedule));
  RecordProperty("shrunk_operations", static_cast<int>(c.operations));
}

// A scenario with a plan shrinks by its plan: fewer arrays (any client may go) and shorter ones,
// so the counterexample written is a file that loads and reproduces. (Shrinking only the
// `clients` count wrote `clients = 2` beside three arrays: a file no command would read.)
TEST(Shrink, APlanScenarioShrinksToAPlanAFileCanHold) {
  ScenarioError error;
  std::optional<Scenario> s = parse_scenario(
      "recipe = \"first-cut-queue\"\n"
      "plan = [[\"dequeue\"], [\"enqueue\", \"enqueue\", \"dequeue\"], [\"enqueue\", "
      "\"dequeue\"]]\n",
      "planned.toml", error);
  ASSERT_TRUE(s.has_value()) << error.message;
  ExploreOptions o;
  o.strategy = "random";
  o.schedules = 200;
  ExploreResult r = explore(*s, o);
  ASSERT_TRUE(r.violation.has_value()) << "no violation within 200 seeds";
  Counterexample c = shrink(*s, *r.violation);
  EXPECT_LT(c.scenario.clients, 3) << "it kept every client";
  ASSERT_EQ(c.scenario.plan.size(), static_cast<std::size_t>(c.scenario.clients));
  for (const ClientPlan& p : c.scenario.plan)
    EXPECT_LE(p.size(), static_cast<std::size_t>(c.scenario.operations_per_client));
  std::optional<Scenario> written = parse_scenario(to_toml(c.scenario), "shrunk.toml", error);
  ASSERT_TRUE(written.has_value()) << error.message << "\n" << to_toml(c.scenario);
  EXPECT_EQ(written->plan, c.scenario.plan);
  EXPECT_FALSE(validate_scenario(*written).has_value());
  SeedRun again = run_seed(*written, c.finding.seed);
  EXPECT_EQ(again.history.size(), c.run.history.size()) << "the file runs another scenario";
}

INSTANTIATE_TEST_SUITE_P(
    Variants, KnownWrong,
    ::testing::Values(
        WrongVariant{"first-cut-queue", model::ViolationKind::lost, 0},
        WrongVariant{"snapshot-dequeue-queue", model::ViolationKind::duplicate_delivery, 0},
        WrongVariant{"split-dequeue-queue", model::ViolationKind::duplicate_delivery, 0},
        WrongVariant{"hc-queue-no-reads", model::ViolationKind::duplicate_delivery, 0},
        // The seed recipe under commit_unknown_result: duplicates or losses.
        WrongVariant{"queue", model::ViolationKind::none, 0.2}),
    testing::NamedByPrinting());

TEST(Pct, FindsTheSnapshotDequeueDuplicate) {
  ExploreOptions o;
  o.strategy = "pct";
  o.schedules = 300;
  ExploreResult r = explore(small("snapshot-dequeue-queue", 4, 6), o);
  ASSERT_TRUE(r.violation.has_value());
  EXPECT_EQ(r.violation->verdict.violation, model::ViolationKind::duplicate_delivery);
  EXPECT_GT(r.pct_probability_bound, 0);
  // The finding replays from its recorded schedule.
  Scenario s = small("snapshot-dequeue-queue", 4, 6);
  RunControls controls;
  controls.strategy = std::make_shared<ReplayStrategy>(r.violation->choices);
  SeedRun again = run_seed(s, r.violation->seed, std::move(controls));
  EXPECT_EQ(check_run(s, again).verdict.violation, model::ViolationKind::duplicate_delivery);
}

// Which findings two explorations differ in: the first, said, or "" when they agree.
std::string finding_difference(const char* what, const std::optional<Finding>& a,
                               const std::optional<Finding>& b) {
  if (a.has_value() != b.has_value()) return std::string(what) + ": found by one only";
  if (!a) return "";
  if (a->schedule != b->schedule || a->seed != b->seed || a->choices != b->choices ||
      a->verdict.summary() != b->verdict.summary()) {
    return std::string(what) + ": schedule " + std::to_string(a->schedule) + " vs " +
           std::to_string(b->schedule) + " (" + a->verdict.summary() + " vs " +
           b->verdict.summary() + ")";
  }
  return "";
}

// Random and PCT schedules are independent: run on threads a batch at a time and folded in
// schedule order, they give what one thread gives — the schedules counted (none past the first
// violation, though a batch ran them), each verdict's count, the first violation with the seed
// and choices that replay it, and the first schedule no checker could judge.
TEST(ExploreJobs, ThreadsFindAndCountWhatOneThreadDoes) {
  Scenario wrong = small("snapshot-dequeue-queue", 4, 6);
  Scenario bounded = small("queue", 3, 4);
  bounded.max_steps = 30;  // most runs stop at the bound (undecided), a few finish
  struct Case {
    const Scenario* scenario;
    const char* strategy;
    bool stop;
  };
  for (const Case& c : {Case{&wrong, "pct", true}, Case{&wrong, "pct", false},
                        Case{&wrong, "random", true}, Case{&wrong, "random", false},
                        Case{&bounded, "random", true}, Case{&bounded, "pct", true}}) {
    ExploreOptions o;
    o.strategy = c.strategy;
    o.schedules = 300;  // more than a batch of --jobs 2 (128) and of 3 (192)
    o.stop_at_first_violation = c.stop;
    const ExploreResult one = explore(*c.scenario, o);
    for (int jobs : {2, 3}) {
      SCOPED_TRACE(std::string(c.strategy) + (c.stop ? " stop" : " all") + " --jobs " +
                   std::to_string(jobs) + " on " + c.scenario->recipe);
      o.jobs = jobs;
      const ExploreResult many = explore(*c.scenario, o);
      EXPECT_EQ(many.schedules, one.schedules);
      EXPECT_EQ(many.verdicts, one.verdicts);
      EXPECT_EQ(finding_difference("violation", one.violation, many.violation), "");
      EXPECT_EQ(finding_difference("undecided", one.first_undecided, many.first_undecided), "");
      EXPECT_EQ(many.steps_estimate, one.steps_estimate);
    }
    if (c.scenario == &wrong && c.stop) {
      // The first violation is found inside a batch: what the batch ran past it is not counted.
      ASSERT_TRUE(one.violation.has_value()) << c.strategy;
      EXPECT_EQ(one.schedules, one.violation->schedule) << c.strategy;
      EXPECT_LT(one.schedules, 3 * 64) << c.strategy << ": past the first batch of --jobs 3";
    }
    if (c.scenario == &bounded) {
      EXPECT_TRUE(one.first_undecided.has_value()) << c.strategy;
    }
  }
}

// Correct recipes stay linearizable and lose nothing for random parameters. Bounded here;
// CONTEND_LONG=1 (the `long` label) runs many more cases.
void correct_recipe_property(const char* recipe, bool unknown_results) {
  Scenario s = small(recipe, *rc::gen::inRange(1, 9), *rc::gen::inRange(1, 16));
  s.mix.enqueue = *rc::gen::inRange(1, 4);
  s.mix.dequeue = *rc::gen::inRange(1, 4);
  s.mix.peek_min = *rc::gen::inRange(0, 2);
  s.mix.pop_max = *rc::gen::inRange(0, 2);
  s.mix.peek_max = *rc::gen::inRange(0, 2);
  s.faults.not_committed = *rc::gen::element(0.0, 0.1);
  s.faults.read_too_old = *rc::gen::element(0.0, 0.05);
  s.faults.read_future_version = *rc::gen::element(0.0, 0.05);
  if (unknown_results) {
    s.faults.unknown_result_applied = *rc::gen::element(0.05, 0.2);
    s.faults.unknown_result_not_applied = *rc::gen::element(0.0, 0.1);
  }
  const auto seed = *rc::gen::inRange<std::uint64_t>(1, 1'000'000);
  SeedRun run = run_seed(s, seed);
  model::CheckReport report = check_run(s, run);
  RC_ASSERT(run.drained);
  if (!report.verdict.ok())
    RC_FAIL(std::string(recipe) + " seed " + std::to_string(seed) + ": " +
            report.verdict.explanation);
  RC_ASSERT(report.accounting.lost.empty());
}

RC_GTEST_PROP(CorrectRecipes, QueueIsLinearizable, ()) {
  correct_recipe_property("queue", false);
}
RC_GTEST_PROP(CorrectRecipes, StrictQueueIsLinearizable, ()) {
  correct_recipe_property("strict-queue", false);
}
RC_GTEST_PROP(CorrectRecipes, VersionstampQueueIsLinearizable, ()) {
  correct_recipe_property("versionstamp-queue", false);
}
RC_GTEST_PROP(CorrectRecipes, PriorityQueueIsLinearizable, ()) {
  correct_recipe_property("priority-queue", false);
}
RC_GTEST_PROP(CorrectRecipes, OrderedHcPriorityQueueIsLinearizable, ()) {
  correct_recipe_property("hc-priority-queue-ordered", false);
}
RC_GTEST_PROP(CorrectRecipes, IdempotentQueueSurvivesUnknownResults, ()) {
  correct_recipe_property("idempotent-queue", true);
}
RC_GTEST_PROP(CorrectRecipes, IdempotentPriorityQueueSurvivesUnknownResults, ()) {
  correct_recipe_property("idempotent-priority-queue", true);
}

}  // namespace
}  // namespace contend
