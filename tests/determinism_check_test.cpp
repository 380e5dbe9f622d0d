// The determinism self-check (`contend run --check-determinism[=P]`): a sample of seeds reruns,
// one in a fresh process; a recipe whose runs depend on something outside the seed is caught,
// and the report names the first history event that differs.
#include <gtest/gtest.h>

#include "scenarios/determinism.h"
#include "sim/recipes/queue_steps.h"
#include "tests/support/run_cli.h"

namespace contend {
namespace {

using testing::run_cli;
using testing::source_path;

// A queue whose items' values depend on a counter that lives outside the world: the second run
// of a seed in one process enqueues other values. (Exactly the bug the check exists for.)
int& outside_counter() {
  static int counter = 0;
  return counter;
}

class LeakyQueue final : public Recipe {
 public:
  Task<OpResult> enqueue(Database db, std::string value) override {
    return queue_steps::enqueue(db, value + "/" + std::to_string(outside_counter()++));
  }
  Task<OpResult> dequeue(Database db) override { return queue_steps::dequeue(db); }
};

Scenario scenario_for(const std::string& recipe) {
  Scenario s;
  s.file = "(test)";
  s.recipe = recipe;
  s.clients = 2;
  s.operations_per_client = 4;
  s.checks = {"fast"};
  return s;
}

std::vector<SeedOutcome> first_runs(const Scenario& s, std::uint64_t last) {
  return run_batch(s, BatchOptions{SeedRange{1, last}, Shard{}, 1, nullptr});
}

TEST(DeterminismCheck, TheSampleIsAboutPPercentAndAlwaysHoldsTheFirstSeed) {
  std::vector<std::uint64_t> seeds;
  for (std::uint64_t s = 100; s < 1100; ++s)
    seeds.push_back(s);
  EXPECT_EQ(determinism_sample(seeds, 0), std::vector<std::uint64_t>{100});
  EXPECT_EQ(determinism_sample(seeds, 100).size(), seeds.size());
  const std::size_t five = determinism_sample(seeds, 5).size();
  EXPECT_GT(five, 30u);
  EXPECT_LT(five, 80u);
  EXPECT_EQ(determinism_sample(seeds, 5), determinism_sample(seeds, 5));  // the same sample
}

TEST(DeterminismCheck, TheSeedRecipeRerunsIdentically) {
  Scenario s = scenario_for("queue");
  std::string error;
  std::uint64_t fresh_seed = 0;
  DeterminismReport r = check_determinism(
      s, first_runs(s, 20), 50,
      [&](std::uint64_t seed, std::string&) -> std::optional<Rerun> {
        fresh_seed = seed;
        SeedRun run = run_seed(s, seed);
        return Rerun{run.metrics.run_hash, run.history};
      },
      error);
  EXPECT_TRUE(r.ok()) << r.mismatch;
  EXPECT_GE(r.rerun, 5u);
  ASSERT_TRUE(r.fresh_process.has_value());
  EXPECT_EQ(*r.fresh_process, 1u);
  EXPECT_EQ(fresh_seed, 1u);
}

TEST(DeterminismCheck, ARecipeDependingOnOutsideStateIsCaughtNamingTheFirstEventThatDiffers) {
  add_recipe({"test-leaky-queue", RecipeKind::fifo, true, "values depend on a global counter",
              []() -> std::unique_ptr<Recipe> { return std::make_unique<LeakyQueue>(); }});
  Scenario s = scenario_for("test-leaky-queue");
  s.mix.enqueue = 1;
  s.mix.dequeue = 1;
  s.drain = true;  // every value comes out, so the history shows the difference
  std::string error;
  DeterminismReport r = check_determinism(s, first_runs(s, 3), 0, nullptr, error);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(*r.mismatched_seed, 1u);
  EXPECT_NE(r.mismatch.find("rerun in this process"), std::string::npos) << r.mismatch;
  EXPECT_NE(r.mismatch.find("differs: "), std::string::npos) << r.mismatch;
  EXPECT_NE(r.mismatch.find("/"), std::string::npos) << "names the leaked value: " << r.mismatch;
}

TEST(DeterminismCheck, FirstDifferenceNamesTheEventOrTheLength) {
  model::History a(3), b(3);
  for (std::size_t i = 0; i < 3; ++i)
    a[i].index = b[i].index = static_cast<std::int64_t>(i);
  EXPECT_EQ(first_difference(a, b), "");
  b[2].process = 7;
  EXPECT_NE(first_difference(a, b).find("event 2 differs"), std::string::npos);
  b.pop_back();
  EXPECT_NE(first_difference(a, b).find("differ in length (3 then 2 events)"), std::string::npos);
}

TEST(DeterminismCheck, TheCliFlagRerunsInAFreshProcessAndSaysSo) {
  const auto result = run_cli("run " + source_path("scenarios/queue.toml") +
                              " --seeds 1..30 --check-determinism=20");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("seed 1 also in a fresh process: identical"), std::string::npos)
      << result.output;
  const auto plain = run_cli("run " + source_path("scenarios/queue.toml") + " --seeds 1..3");
  EXPECT_EQ(plain.exit_code, 0);
  EXPECT_EQ(plain.output.find("determinism:"), std::string::npos) << "off unless asked";
}

// CLI11 sums an integer flag's values and reads "=0" as false: --check-determinism=0 reached the
// sampler as -1 and --check-determinism=60 twice as 120, each aborting on its internal check.
// 0 reruns the one seed the sample always holds; a second --check-determinism is refused.
TEST(DeterminismCheck, ThePercentIsTheOneTypedAndIsGivenOnce) {
  const std::string run = "run " + source_path("scenarios/queue.toml") + " --seeds 1..5";
  const auto zero = run_cli(run + " --check-determinism=0");
  EXPECT_EQ(zero.exit_code, 0) << zero.output;
  EXPECT_NE(zero.output.find("determinism: 1 of 5 seeds rerun"), std::string::npos) << zero.output;
  const auto all = run_cli(run + " --check-determinism=100");
  EXPECT_NE(all.output.find("determinism: 5 of 5 seeds rerun"), std::string::npos) << all.output;
  for (const char* twice : {" --check-determinism=60 --check-determinism=60",
                            " --check-determinism --check-determinism"}) {
    const auto refused = run_cli(run + twice);
    EXPECT_EQ(refused.exit_code, 2) << twice << "\n" << refused.output;
    EXPECT_NE(refused.output.find("--check-determinism: At Most 1 required but received 2"),
              std::string::npos)
        << refused.output;
  }
}

}  // namespace
}  // namespace contend
