// What an exhaustive search exercised (scenarios/coverage.h): the kinds of events its executions
// met, counted once per execution, the same whatever the reduction, and a proof of a scope whose
// operations never race said to exercise no contention.
#include "scenarios/coverage.h"

#include <gtest/gtest.h>

#include <set>

#include "scenarios/exhaustive.h"
#include "tests/support/search_cases.h"

namespace contend::testing {
namespace {

using model::OpFunction;

// A plan of enqueues and dequeues: "e" and "d" per operation, a string per client.
std::vector<ClientPlan> plan_of(std::initializer_list<const char*> clients) {
  std::vector<ClientPlan> plan;
  for (const char* ops : clients) {
    ClientPlan client;
    for (const char* op = ops; *op != '\0'; ++op)
      client.push_back(
          PlannedOperation{*op == 'e' ? OpFunction::enqueue : OpFunction::dequeue, std::nullopt});
    plan.push_back(client);
  }
  return plan;
}

std::set<std::string> kinds_of(const Coverage& coverage) {
  std::set<std::string> kinds;
  for (const auto& [kind, n] : coverage)
    kinds.insert(kind);
  return kinds;
}

ExhaustiveOptions every_plan(bool reduce, int faults = 0) {
  ExhaustiveOptions o;
  o.reduce = reduce;
  o.max_faults = faults;
  o.minimise = false;
  return o;
}

TEST(Coverage, CountsEachKindOfEventOncePerExecution) {
  const ExhaustiveResult r = explore_exhaustively(small_scope("queue", 2, 2), every_plan(true));
  ASSERT_TRUE(r.exhausted) << r.error;
  // Two dequeues race for the head of the queue, and one of them retries.
  ASSERT_GT(r.coverage.count("conflict: dequeue.first_item"), 0u);
  EXPECT_GT(r.coverage.at("conflict: dequeue.first_item"), 0);
  for (const char* kind : {"enqueue ok", "dequeue ok: an item", "dequeue ok: empty"})
    EXPECT_GT(r.coverage.count(kind), 0u) << kind;
  for (const auto& [kind, n] : r.coverage) {
    EXPECT_GT(n, 0) << kind;
    EXPECT_LE(n, r.executions) << kind << ": counted more than once in an execution";
  }
  EXPECT_TRUE(exercised_contention(r.coverage));
  EXPECT_EQ(r.coverage.count("enqueue info"), 0u) << "no fault, no unknown result";
}

TEST(Coverage, LeavesTheDrainOut) {
  // [enqueue] [enqueue]: no plan operation dequeues; the drain dequeues both items and then
  // meets the empty queue in every execution.
  Scenario s = small_scope("queue", 2, 1);
  s.drain = true;
  s.plan = plan_of({"e", "e"});
  const ExhaustiveResult r = explore_exhaustively(s, every_plan(true));
  ASSERT_TRUE(r.exhausted) << r.error;
  EXPECT_EQ(kinds_of(r.coverage), (std::set<std::string>{"enqueue ok"}));
}

TEST(Coverage, TheReducedAndTheFullSearchMeetTheSameKinds) {
  // Each kind is a property of an equivalence class, so the reduced search, which runs one
  // execution of each, meets every kind the full search meets, and no other.
  for (const SearchCase& c :
       {SearchCase{"queue", 2, 2, true, 0}, SearchCase{"strict-queue", 2, 2, true, 0},
        SearchCase{"idempotent-queue", 2, 1, true, 1}}) {
    const Scenario s = scope_of(c);
    ExhaustiveOptions full_options = every_plan(false, c.faults);
    full_options.all_plans = c.all_plans;
    ExhaustiveOptions reduced_options = every_plan(true, c.faults);
    reduced_options.all_plans = c.all_plans;
    const ExhaustiveResult r = explore_exhaustively(s, reduced_options);
    const ExhaustiveResult full = explore_exhaustively(s, full_options);
    ASSERT_TRUE(r.exhausted && full.exhausted) << c.recipe;
    EXPECT_LT(r.executions, full.executions) << c.recipe;
    EXPECT_EQ(kinds_of(r.coverage), kinds_of(full.coverage)) << c.recipe;
    for (const auto& [kind, n] : r.coverage)
      EXPECT_LE(n, full.coverage.at(kind)) << c.recipe << ": " << kind;
  }
}

TEST(Coverage, NamesTheFaultsTheSearchPlaced) {
  const ExhaustiveResult r =
      explore_exhaustively(small_scope("idempotent-queue", 1, 1, 1), every_plan(true, 1));
  ASSERT_TRUE(r.exhausted) << r.error;
  for (const char* kind : {"fault: commit fails: not_committed (nothing applied)",
                           "fault: commit_unknown_result, and the commit applied",
                           "fault: commit_unknown_result, and the commit did not apply"})
    EXPECT_GT(r.coverage.count(kind), 0u) << kind;
}

TEST(Coverage, AProofOfAScopeWhoseOperationsNeverRaceSaysSo) {
  // Enqueues alone: the queue recipe's enqueue reads at snapshot, so none conflicts in any order.
  Scenario s = small_scope("queue", 2, 2);
  s.plan = plan_of({"ee", "ee"});
  ExhaustiveOptions o = every_plan(true);
  const ExhaustiveResult quiet = explore_exhaustively(s, o);
  ASSERT_TRUE(quiet.exhausted) << quiet.error;
  EXPECT_FALSE(exercised_contention(quiet.coverage));
  EXPECT_NE(proof_statement(s, o, quiet).find("this scope exercises no contention"),
            std::string::npos);
  const std::vector<std::string> lines = coverage_lines(quiet.coverage, quiet.executions);
  EXPECT_EQ(lines.back(),
            "  no execution met a conflict or a fault: this scope exercises no contention");
  s.plan = plan_of({"ed", "ed"});  // two dequeues race for the head
  const ExhaustiveResult raced = explore_exhaustively(s, o);
  ASSERT_TRUE(raced.exhausted) << raced.error;
  EXPECT_TRUE(exercised_contention(raced.coverage));
  EXPECT_EQ(proof_statement(s, o, raced).find("exercises no contention"), std::string::npos);
}

}  // namespace
}  // namespace contend::testing
