// contend::testing's check of a recipe from a user's GoogleTest suite
// (scenarios/testing/contend_testing.h): the seeds CONTEND_SEEDS names are the ones run, and a
// value of another shape fails the check instead of being ignored.
#include "scenarios/testing/contend_testing.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

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

}  // namespace
}  // namespace contend::testing
