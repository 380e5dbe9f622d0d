// The estimate of a stopped search's size (scenarios/search_estimate.h): the fraction a path has
// passed, and the estimate of a real search stopped early against the size of the whole search.
#include "scenarios/search_estimate.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "scenarios/dpor_progress_json.h"
#include "scenarios/exhaustive.h"
#include "tests/support/search_cases.h"

namespace contend {
namespace {

SearchNode scheduling(std::uint64_t done, std::uint64_t to_try) {
  SearchNode n;
  n.enabled = done | to_try;
  n.backtrack = to_try;
  n.done = done;
  return n;
}

SearchNode fault(std::uint32_t choice, std::uint32_t options) {
  SearchNode n;
  n.kind = NodeKind::fault;
  n.options = options;
  n.choice = choice;
  return n;
}

TEST(SearchEstimate, APathsFractionWeighsEachNodeByTheShareAboveIt) {
  DporProgress p;
  // Root: thread 0 finished, thread 1 current, thread 2 to try: a third passed.
  p.nodes.push_back(scheduling(0b011, 0b100));
  // Below it: thread 1 current, thread 0 to try, thread 2 asleep (not to try): nothing passed.
  SearchNode asleep = scheduling(0b010, 0b001);
  asleep.sleep = 0b100;
  asleep.enabled |= 0b100;
  asleep.backtrack |= 0b100;
  p.nodes.push_back(asleep);
  // A fault node at its second of three choices: a third of a sixth.
  p.nodes.push_back(fault(1, 3));
  EXPECT_DOUBLE_EQ(passed_fraction(p, 1), 1.0 / 3 + 0.0 + (1.0 / 6) * (1.0 / 3));
  // Without the fault budget to take a third choice, the node has two: a half of a sixth.
  p.nodes.back().faults_before = 1;
  EXPECT_DOUBLE_EQ(passed_fraction(p, 1), 1.0 / 3 + (1.0 / 6) * (1.0 / 2));
}

TEST(SearchEstimate, NodesOfTheFixedPathAboveTheRunsCountForNothing) {
  DporProgress p;
  p.nodes.push_back(scheduling(0b011, 0b100));  // a unit's root: fixed before it ran
  p.nodes.push_back(scheduling(0b001, 0b010));  // nothing passed
  p.fixed_depth = 1;
  p.runs_from_depth = 1;
  EXPECT_DOUBLE_EQ(passed_fraction(p, 0), 0.0);
  p.nodes.push_back(scheduling(0b11, 0));  // half of its choices passed, below half of the unit
  EXPECT_DOUBLE_EQ(passed_fraction(p, 0), 0.25);
}

TEST(SearchEstimate, ACutNodeCountsTheChoicesItsSearchPassedAndNotThoseDealtAway) {
  // Sizing cut a stopped search at its first two nodes: it keeps its runs (made below depth 0);
  // what it had yet to take there went to other units.
  DporProgress p;
  p.nodes.push_back(scheduling(0b011, 0b100));  // thread 0 passed, 1 current, 2 dealt away
  p.nodes.push_back(fault(1, 3));               // choice 0 passed, 1 current, 2 dealt away
  p.nodes.push_back(scheduling(0b01, 0b10));    // below the cut: nothing passed, two choices
  p.fixed_depth = 2;
  p.runs_from_depth = 0;
  EXPECT_DOUBLE_EQ(passed_fraction(p, 1), 0.5 + 0.5 * 0.5);
  p.runs_from_depth = 2;  // runs made below the cut only
  EXPECT_DOUBLE_EQ(passed_fraction(p, 1), 0.0);
}

TEST(SearchEstimate, ACheckpointKeepsTheDepthTheRunsWereMadeBelow) {
  DporProgress p;
  p.nodes = {scheduling(0b011, 0b100), fault(1, 3), scheduling(0b01, 0b10)};
  p.nodes[0].thread = 1;
  p.nodes[2].thread = 0;
  p.fixed_depth = 2;
  p.runs_from_depth = 1;
  p.executions = 7;
  std::string error;
  const std::optional<DporProgress> back = progress_from_json(progress_to_json(p), error);
  ASSERT_TRUE(back.has_value()) << error;
  EXPECT_EQ(back->runs_from_depth, 1u);
  EXPECT_EQ(back->fixed_depth, 2u);
  // A depth below the fixed path is refused, naming the field.
  p.runs_from_depth = 3;
  EXPECT_FALSE(progress_from_json(progress_to_json(p), error).has_value());
  EXPECT_NE(error.find("runs_from_depth lies below fixed_depth"), std::string::npos) << error;
}

TEST(SearchEstimate, ADeepPathsTinyFractionGivesABoundedEstimate) {
  // One choice passed, 80 nodes of three choices below the root: a fraction of 3^-80.
  DporProgress p;
  for (int d = 0; d < 80; ++d)
    p.nodes.push_back(scheduling(0b001, 0b110));
  p.nodes.push_back(scheduling(0b011, 0b100));
  p.executions = 1000;
  const UnitSize size = size_of(p, 1000, 0);
  ASSERT_TRUE(size.whole.has_value());
  EXPECT_EQ(*size.whole, kRunsEstimateMax);
  const std::optional<std::int64_t> runs = combine_unit_sizes({0, 0}, {size, size});
  ASSERT_TRUE(runs.has_value());
  EXPECT_EQ(*runs, static_cast<std::int64_t>(kRunsEstimateMax));
  EXPECT_EQ(about_count(kRunsEstimateMax), "1000000 trillion");
  EXPECT_EQ(about_count(5'218'020), "5.2 million");
  EXPECT_EQ(about_count(22'857), "23000");
  EXPECT_EQ(percent(0.0041), "0.41%");
  EXPECT_EQ(percent(1e-6), "under 0.01%");
  EXPECT_EQ(about_duration(8640), "2.4 h");
  EXPECT_EQ(about_duration(1e9), "32 years");
}

TEST(SearchEstimate, UnitsWithoutASizeTakeTheMeanOfTheirPlan) {
  std::vector<Unit> units(4);
  units[3].plan = 1;
  std::map<std::size_t, UnitResult> done;
  done[0].exhausted = true;
  done[0].executions = 80;
  done[0].blocked = 20;
  DporProgress stopped;  // a quarter passed: 30 runs, 120 estimated
  stopped.nodes.push_back(scheduling(0b11, 0b1100));
  stopped.executions = 30;
  done[1].executions = 30;
  done[1].stopped_at = stopped;
  // Unit 2 never ran: the mean of plan 0's units, 110. Unit 3 (plan 1, none sized there) has
  // passed nothing yet in 5 runs: the mean of every sized unit, of which its 5 are part.
  done[3].executions = 5;
  done[3].stopped_at = DporProgress{{scheduling(0b1, 0b10)}, 0, 0, 0, 5, 0};
  ASSERT_DOUBLE_EQ(passed_fraction(*done[1].stopped_at, 0), 0.25);
  const std::optional<std::int64_t> runs = estimate_runs(units, done, 0);
  ASSERT_TRUE(runs.has_value());
  EXPECT_EQ(*runs, 100 + 120 + 110 + 110);
  EXPECT_FALSE(estimate_runs(units, {}, 0).has_value()) << "no unit says anything of its size";
  done.erase(0);  // one unit of four has a size: the three others take it
  const std::optional<std::int64_t> from_one = estimate_runs(units, done, 0);
  ASSERT_TRUE(from_one.has_value());
  EXPECT_EQ(*from_one, 4 * 120);
}

// A search stopped after a sixth of its runs: the estimate lies within a factor of two of the
// whole search's runs (measured: hc-queue 3 x 2's 23,010 runs estimated at 21,000-28,000 after
// 13-44% of them), and a search that ends has none.
TEST(SearchEstimate, AStoppedSearchEstimatesTheWholeWithinAFactorOfTwo) {
  for (auto [recipe, clients] : {std::pair{"queue", 4}, std::pair{"hc-queue", 3}}) {
    const Scenario s = testing::small_scope(recipe, clients, 2);
    ExhaustiveOptions o;
    o.all_plans = false;
    const ExhaustiveResult whole = explore_exhaustively(s, o);
    ASSERT_TRUE(whole.exhausted) << recipe;
    EXPECT_FALSE(whole.runs_estimate.has_value()) << recipe;
    const std::int64_t runs = whole.runs_in_scope;
    ASSERT_GT(runs, 600) << recipe;
    o.max_executions = runs / 6;
    const ExhaustiveResult stopped = explore_exhaustively(s, o);
    ASSERT_FALSE(stopped.exhausted) << recipe;
    ASSERT_TRUE(stopped.runs_estimate.has_value()) << recipe;
    EXPECT_GE(*stopped.runs_estimate, stopped.runs_in_scope) << recipe;
    EXPECT_GT(*stopped.runs_estimate, runs / 2) << recipe << ": the whole search made " << runs;
    EXPECT_LT(*stopped.runs_estimate, runs * 2) << recipe << ": the whole search made " << runs;
    EXPECT_NE(proof_statement(s, o, stopped).find("the whole search of this scope takes about"),
              std::string::npos)
        << proof_statement(s, o, stopped);
  }
}

// The time left is at the rate of the runs made here: a search resumed from a checkpoint counts
// the runs it held, which took none of its time.
TEST(SearchEstimate, TheTimeLeftIsAtTheRateOfTheRunsMadeHere) {
  const Scenario s = testing::small_scope("queue", 2, 2);
  ExhaustiveOptions o;
  o.all_plans = false;
  ExhaustiveResult r;
  r.last_clients = 2;
  r.last_operations = 2;
  r.units = 4;
  r.units_done = 1;
  r.executions = 900;
  r.blocked = 100;
  r.runs_in_scope = 1000;
  r.runs_estimate = 4000;
  r.seconds = 10;
  EXPECT_NE(proof_statement(s, o, r).find("about 30 s more at this search's rate"),
            std::string::npos)
      << proof_statement(s, o, r);
  r.resumed = 900;  // 100 runs made here in 10 s: 3,000 more take 300 s
  EXPECT_NE(proof_statement(s, o, r).find("about 5 min more at this search's rate"),
            std::string::npos)
      << proof_statement(s, o, r);
  r.resumed = 1000;  // none made here: nothing to time the rest by
  EXPECT_EQ(proof_statement(s, o, r).find("at this search's rate"), std::string::npos)
      << proof_statement(s, o, r);
  EXPECT_NE(proof_statement(s, o, r).find("takes about 4000 runs"), std::string::npos)
      << proof_statement(s, o, r);
}

// hc-queue 3 x 2 (the seed's plan) cut from 16 units: the whole search's runs, and what sizing it
// alone in rounds of `sizing_runs`, with at most `going_max` units in progress, found.
struct SizedAlone {
  Scenario scenario;
  ExhaustiveOptions options;
  std::int64_t whole_runs = 0;
  ExhaustiveResult sized;
};

SizedAlone size_alone(std::int64_t sizing_runs, std::size_t going_max) {
  SizedAlone out{testing::small_scope("hc-queue", 3, 2), {}, 0, {}};
  ExhaustiveOptions& o = out.options;
  o.all_plans = false;
  o.units_wanted = 16;
  const ExhaustiveResult whole = explore_exhaustively(out.scenario, o);
  EXPECT_TRUE(whole.exhausted);
  out.whole_runs = whole.runs_in_scope;
  // A file of its own for each sizing (ctest runs the tests that size alone at once).
  const std::string file = (std::filesystem::temp_directory_path() /
                            ("contend-estimate-sizing-" + std::to_string(sizing_runs) + "-" +
                             std::to_string(going_max) + "-test.ckpt"))
                               .string();
  std::filesystem::remove(file);
  o.sizing_only = true;
  o.sizing_runs = sizing_runs;
  o.sizing_going_max = going_max;
  o.checkpoint_file = file;
  out.sized = explore_exhaustively(out.scenario, o);
  std::filesystem::remove(file);
  return out;
}

// Sizing alone cuts the units that outgrow their sizing runs, and the part that goes on keeps the
// runs made above its cut: read from there, its estimate is of the subtree those runs were made
// in. In rounds of 64 runs: 23,170 runs estimated of 22,961; read from the parts' own fixed paths,
// 33,812.
TEST(SearchEstimate, SizingAloneEstimatesTheWholeFromWhereItsCutPartsStopped) {
  const SizedAlone a = size_alone(64, ExhaustiveOptions{}.sizing_going_max);
  const std::int64_t runs = a.whole_runs;
  ASSERT_TRUE(a.sized.sized_only) << a.sized.error;
  ASSERT_TRUE(a.sized.runs_estimate.has_value());
  EXPECT_GE(*a.sized.runs_estimate, a.sized.runs_in_scope);
  EXPECT_GT(*a.sized.runs_estimate, runs * 4 / 5) << "the whole search made " << runs;
  EXPECT_LT(*a.sized.runs_estimate, runs * 5 / 4) << "the whole search made " << runs;
  const std::string statement = proof_statement(a.scenario, a.options, a.sized);
  EXPECT_NE(statement.find("the whole search of this scope takes about"), std::string::npos)
      << statement;
}

// Sizing in rounds of 8 runs, with few units in progress, leaves most units never run (fresh parts
// of the lineages it cut): they take the mean of those that ran. 499 of 842 units never run,
// 11,421 runs estimated of 22,961.
TEST(SearchEstimate, SizingAloneEstimatesTheWholeWhenMostUnitsNeverRan) {
  const SizedAlone a = size_alone(8, 16);
  const std::int64_t runs = a.whole_runs;
  ASSERT_TRUE(a.sized.sized_only) << a.sized.error;
  ASSERT_GT(2 * a.sized.units_unrun, a.sized.units) << "more than half of the units never ran";
  ASSERT_TRUE(a.sized.runs_estimate.has_value());
  EXPECT_GT(*a.sized.runs_estimate, runs * 2 / 5) << "the whole search made " << runs;
  EXPECT_LT(*a.sized.runs_estimate, runs * 5 / 2) << "the whole search made " << runs;
}

// Smallest first, a budget that runs out stops at the first scope it does not finish: the estimate
// is of that scope, and the statement names it.
TEST(SearchEstimate, TheStatementNamesTheSmallerScopeABudgetStoppedIn) {
  const Scenario s = testing::small_scope("hc-queue", 3, 3);
  ExhaustiveOptions o;
  o.all_plans = false;
  o.max_executions = 20'000;  // hc-queue 3 x 2 takes 23,010 runs
  const ExhaustiveResult r = explore_exhaustively(s, o);
  ASSERT_FALSE(r.exhausted);
  EXPECT_EQ(std::pair(r.last_clients, r.last_operations), std::pair(3, 2));
  ASSERT_TRUE(r.runs_estimate.has_value());
  const std::string statement = proof_statement(s, o, r);
  const std::string stopped = fmt::format(
      "it stopped in a smaller scope searched first, 3 client(s) x 2 operation(s) with 0 "
      "fault(s), with {} of that scope's {} units searched to the end, in a search of hc-queue",
      r.units_done, r.units);
  EXPECT_NE(statement.find(stopped), std::string::npos) << statement;
  EXPECT_NE(statement.find("the whole search of that scope takes about"), std::string::npos)
      << statement;
  EXPECT_LT(r.units_done, r.units) << "the scope it stopped in has units left";
}

// Progress reports carry the estimate once sizing has cut the units (never during its rounds),
// never below the runs reported, and nearer the whole search's runs as it goes on.
TEST(SearchEstimate, ProgressReportsEstimateTheWholeOnceTheUnitsAreSized) {
  const Scenario s = testing::small_scope("hc-queue", 3, 2);
  ExhaustiveOptions o;
  o.all_plans = false;
  o.units_wanted = 16;
  o.sizing_runs = 64;  // sizing leaves most of the runs to the search proper
  std::vector<ExhaustiveProgress> reports;
  o.progress_every = 1000;
  o.on_progress = [&](const ExhaustiveProgress& p) {
    if (p.clients == 3 && p.operations == 2) reports.push_back(p);
  };
  const ExhaustiveResult whole = explore_exhaustively(s, o);
  ASSERT_TRUE(whole.exhausted);
  const std::int64_t runs = whole.runs_in_scope;
  std::size_t estimated = 0;
  for (const ExhaustiveProgress& p : reports) {
    if (p.sizing_round > 0) {
      EXPECT_FALSE(p.runs_estimate.has_value()) << "sizing round " << p.sizing_round;
      continue;
    }
    if (!p.runs_estimate) continue;
    ++estimated;
    EXPECT_GE(*p.runs_estimate, p.runs);
    EXPECT_LT(*p.runs_estimate, runs * 2) << "at " << p.runs << " of " << runs << " runs";
  }
  ASSERT_GE(estimated, 3u) << reports.size() << " reports";
  const ExhaustiveProgress& last = reports.back();
  ASSERT_TRUE(last.runs_estimate.has_value());
  EXPECT_GT(*last.runs_estimate, runs * 9 / 10) << "at " << last.runs << " of " << runs;
  EXPECT_LT(*last.runs_estimate, runs * 11 / 10) << "at " << last.runs << " of " << runs;
}

// A resumed search's reports count the runs its checkpoint held apart from the runs it makes (so
// its time left is the rest of the estimate, less both, at the rate of its own), and its estimate
// is never below the two together.
TEST(SearchEstimate, AResumedSearchsReportsCountTheRunsItsCheckpointHeld) {
  const Scenario s = testing::small_scope("hc-queue", 3, 2);
  ExhaustiveOptions o;
  o.all_plans = false;
  o.units_wanted = 16;
  o.sizing_runs = 64;
  o.checkpoint_file =
      (std::filesystem::temp_directory_path() / "contend-estimate-resumed-test.json").string();
  std::filesystem::remove(o.checkpoint_file);
  o.max_executions = 4000;  // of some 23,000
  const ExhaustiveResult stopped = explore_exhaustively(s, o);
  ASSERT_FALSE(stopped.exhausted) << stopped.error;
  ASSERT_EQ(stopped.last_clients, 3);
  ASSERT_EQ(stopped.last_operations, 2);
  std::vector<ExhaustiveProgress> reports;
  o.progress_every = 1000;
  o.on_progress = [&](const ExhaustiveProgress& p) {
    if (p.clients == 3 && p.operations == 2 && p.runs_estimate) reports.push_back(p);
  };
  o.max_executions = 1'000'000;
  const ExhaustiveResult resumed = explore_exhaustively(s, o);
  ASSERT_TRUE(resumed.exhausted) << resumed.error;
  ASSERT_GE(reports.size(), 3u);
  for (const ExhaustiveProgress& p : reports) {
    EXPECT_EQ(p.runs_resumed, stopped.runs_in_scope) << "at " << p.runs << " runs made here";
    EXPECT_GE(*p.runs_estimate, p.runs + p.runs_resumed) << "at " << p.runs << " runs made here";
  }
  EXPECT_LE(reports.back().runs + reports.back().runs_resumed, resumed.runs_in_scope);
  std::filesystem::remove(o.checkpoint_file);
}

}  // namespace
}  // namespace contend
