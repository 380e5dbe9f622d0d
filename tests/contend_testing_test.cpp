// contend::testing's check of a recipe from a user's GoogleTest suite
// (scenarios/testing/contend_testing.h): the seeds CONTEND_SEEDS names are the ones run, and a
// value of another shape fails the check instead of being ignored.
#include "scenarios/testing/contend_testing.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <string>
#include <utility>

namespace contend::testing {
namespace {

// Sets an environment variable for one scope, restoring its absence afterwards.
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const char* value) : name_(name) {
    EXPECT_EQ(::setenv(name, value, /*overwrite=*/1), 0) << name;
  }
  ~ScopedEnvironment() { ::unsetenv(name_); }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  const char* name_;
};

const RecipeInfo& shipped(const char* name) {
  const RecipeInfo* info = find_recipe(name);
  EXPECT_NE(info, nullptr) << name;
  return *info;
}

// A nightly job that means to widen the range and mistypes it must not pass on the default
// seeds: the check used to ignore a malformed CONTEND_SEEDS and run seeds 1..50.
TEST(CheckRecipe, AMistypedSeedRangeFailsTheCheckNamingIt) {
  for (const char* typo : {"1-5000", "1...50", "seeds", "5..1", "-3"}) {
    ScopedEnvironment seeds("CONTEND_SEEDS", typo);
    const RecipeCheck check = check_recipe(shipped("queue"), scenario_for(shipped("queue"), 2, 2));
    EXPECT_FALSE(check.passed) << "CONTEND_SEEDS=" << typo;
    EXPECT_NE(check.report.find(std::string("CONTEND_SEEDS=") + typo + ": "), std::string::npos)
        << check.report;
    EXPECT_NE(check.report.find("no seed was run"), std::string::npos) << check.report;
  }
}

TEST(CheckRecipe, TheSeedsContendSeedsNamesAreTheOnesRun) {
  ScopedEnvironment seeds("CONTEND_SEEDS", "3..4");
  const RecipeCheck broken =
      check_recipe(shipped("first-cut-queue"), scenario_for(shipped("first-cut-queue"), 4, 10));
  EXPECT_FALSE(broken.passed);
  EXPECT_NE(broken.report.find("over seeds 3..4"), std::string::npos) << broken.report;
  const RecipeCheck correct = check_recipe(shipped("queue"), scenario_for(shipped("queue"), 2, 2));
  EXPECT_TRUE(correct.passed) << correct.report;
}

// A seed no checker could judge used to fail the check as an unexpected verdict, saying
// "unknown" and nothing of why; it still fails (it is no pass), saying so and how to replay it.
TEST(CheckRecipe, ASeedNoCheckerCouldJudgeFailsTheCheckAsNoPass) {
  ScopedEnvironment seeds("CONTEND_SEEDS", "2..3");
  Scenario s = scenario_for(shipped("queue"), 2, 2);
  s.checks = {"search"};
  s.search_budget = 1;
  const RecipeCheck check = check_recipe(shipped("queue"), s);
  EXPECT_FALSE(check.passed);
  EXPECT_NE(check.report.find("seed 2: unknown"), std::string::npos) << check.report;
  EXPECT_NE(check.report.find("no checker could judge that seed: it is no pass"), std::string::npos)
      << check.report;
  EXPECT_NE(check.report.find("reproduce: CONTEND_SEEDS=2 "), std::string::npos) << check.report;
}

// A scenario built in code passed no bound: clients = 0 passed having run nothing, a negative
// operation count ended in std::length_error, a last seed below the first ran seeds until 2^64,
// a negative latency failed an internal check, retry_limit = 0 reported the correct queue as
// losing items. Each is refused as a file's key would be, naming it.
TEST(CheckRecipe, AScenarioOutOfBoundsFailsTheCheckNamingTheKey) {
  const RecipeInfo& queue = shipped("queue");
  const std::pair<std::function<void(Scenario&)>, std::string> cases[] = {
      {[](Scenario& s) { s.clients = 0; }, "(queue): clients: value 0 out of range [1, 1024]"},
      {[](Scenario& s) { s.operations_per_client = -1; },
       "operations_per_client: value -1 out of range [1, 1000000]"},
      {[](Scenario& s) { s.seed_first = 5, s.seed_last = 1; },
       "seeds.last: must not be below seeds.first"},
      {[](Scenario& s) { s.latency.commit.min_us = -100; },
       "latency.commit.min_us: value -100 out of range [0, 3600000000]"},
      {[](Scenario& s) { s.faults.crash = 2; }, "faults.crash: value 2 out of range [0, 1]"},
      {[](Scenario& s) { s.retry_limit = 0; },
       "limits.retry_limit: value 0 out of range [1, 1000000]"},
      {[](Scenario& s) { s.strategy.name = "bfs"; },
       "strategy.name: 'bfs' is not one of: random, pct, dfs, dpor, replay"},
      {[](Scenario& s) { s.expect = "maybe"; },
       "expect: 'maybe' is not linearizable, violation, or a violation kind"},
  };
  for (const auto& [edit, said] : cases) {
    Scenario s = scenario_for(queue, 2, 2);
    edit(s);
    const RecipeCheck check = check_recipe(queue, s);
    EXPECT_FALSE(check.passed) << said;
    EXPECT_NE(check.report.find(said), std::string::npos) << check.report;
  }
}

}  // namespace
}  // namespace contend::testing
