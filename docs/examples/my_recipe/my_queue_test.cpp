// Checking your own recipe from your own GoogleTest suite: one macro, one scenario.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "docs/examples/my_recipe/my_queue.h"
#include "scenarios/testing/contend_testing.h"

namespace {

TEST(MyQueue, IsLinearizableUnderContention) {
  contend::Scenario s = contend::testing::scenario_for(my::my_queue(), /*clients=*/8, /*ops=*/15);
  s.seed_last = 30;
  CONTEND_EXPECT_CORRECT(my::my_queue(), s);
}

TEST(MyQueue, StaysCorrectWithSpuriousConflictsAndStaleReads) {
  contend::Scenario s = contend::testing::scenario_for(my::my_queue(), 4, 15);
  s.faults.not_committed = 0.1;
  s.faults.read_too_old = 0.05;
  s.seed_last = 30;
  CONTEND_EXPECT_CORRECT(my::my_queue(), s);
}

// The broken twin is a LIFO: the check must fail, and say why and how to reproduce it.
TEST(MyBrokenQueue, FailsWithACounterexampleAndAReproductionCommand) {
  contend::Scenario s = contend::testing::scenario_for(my::my_broken_queue(), 4, 10);
  s.seed_last = 20;
  EXPECT_NONFATAL_FAILURE(CONTEND_EXPECT_CORRECT(my::my_broken_queue(), s), "order_inversion");
  EXPECT_NONFATAL_FAILURE(CONTEND_EXPECT_CORRECT(my::my_broken_queue(), s),
                          "reproduce: CONTEND_SEEDS=");
  EXPECT_NONFATAL_FAILURE(CONTEND_EXPECT_CORRECT(my::my_broken_queue(), s), "counterexample: ");
}

}  // namespace
