// What the search does when a whole history is beyond its budget: it searches the parts of one
// item and of two (model/part_search.h), and a part with no linearization is the violation and
// its smallest evidence. On the recipes' own histories, where the whole search runs out.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "model/linearizability.h"
#include "tests/support/history_text.h"
#include "tests/support/recipe_history.h"

namespace contend::model {
namespace {

using testing::recipe_history;

// The search's FIFO verdicts on h: without its parts, then with them.
std::pair<Verdict, Verdict> without_and_with_parts(const History& h, SearchOptions options) {
  options.search_parts = false;
  Verdict alone = check_linearizable(h, SpecKind::fifo, options);
  options.search_parts = true;
  return {std::move(alone), check_linearizable(h, SpecKind::fifo, options)};
}

// queue-unknown-result at 8 clients: blind retries lose items and deliver others twice. The
// whole search runs out of its steps; the part of the first item lost shows it in two
// operations — its insert and an empty answer while it was there.
TEST(PartSearch, AnItemLostBeyondTheBudgetIsShownByItsOwnPart) {
  const History h = recipe_history("scenarios/queue-unknown-result.toml", 8, 50, 2);
  const SearchOptions options{.step_budget = 20'000};
  const auto [whole, v] = without_and_with_parts(h, options);
  ASSERT_EQ(whole.kind, VerdictKind::unknown) << whole.explanation;
  ASSERT_EQ(v.kind, VerdictKind::violation) << v.explanation;
  EXPECT_EQ(v.violation, ViolationKind::not_linearizable);
  EXPECT_EQ(v.events.size(), 2u) << v.explanation;
  EXPECT_EQ(v.part_operations, 2) << "the verdict says its prefix and events are a part's";
  EXPECT_NE(v.explanation.find("the part of the history that concerns ['v1-0'] alone"),
            std::string::npos)
      << v.explanation;
  EXPECT_NE(v.explanation.find("the empty answers it cannot do without"), std::string::npos)
      << "every empty answer the part can do without was left out: " << v.explanation;
  EXPECT_NE(v.explanation.find("The whole history was beyond the search: " + whole.explanation),
            std::string::npos)
      << v.explanation;
  EXPECT_GT(v.steps, whole.steps);
  EXPECT_LE(v.steps, 2 * options.step_budget + 2) << "the parts spend at most the budget again";
}

// The seed Priority Queue recipe at 64 clients: of two concurrent pushes of priority 0, the later
// to commit read its count (at snapshot) when no item of that priority was left, drew 0, and
// sorted ahead of the other, which a peek had shown as the front (docs/checkers.md, "priority
// ties"). Before the parts, this history stayed unknown.
TEST(PartSearch, ThePriorityRecipeAt64ClientsBreaksItsTieOrderInAPartOfTwoItems) {
  const History h = recipe_history("scenarios/priority-queue.toml", 64, 50, 1);
  const SearchOptions options{.step_budget = 200'000, .drained = true};
  const Verdict v = check_linearizable(h, SpecKind::priority, options);
  ASSERT_EQ(v.kind, VerdictKind::violation) << v.explanation;
  EXPECT_LE(v.events.size(), 8u) << v.explanation;
  EXPECT_NE(v.explanation.find("'v45-45'@0, 'v37-49'@0] alone"), std::string::npos)
      << v.explanation;
}

// queue-unknown-result at 8 clients, seed 1: the whole search finds the violation, and its
// evidence names 24 operations; the first failing part, one item lost, names one. It is said
// after the whole's evidence, which stays the verdict's.
TEST(PartSearch, AViolationIsProvedAgainByASmallerPart) {
  const History h = recipe_history("scenarios/queue-unknown-result.toml", 8, 50, 1);
  const auto [alone, v] = without_and_with_parts(h, SearchOptions{.drained = true});
  ASSERT_EQ(alone.kind, VerdictKind::violation) << alone.explanation;
  ASSERT_EQ(v.kind, VerdictKind::violation) << v.explanation;
  EXPECT_EQ(v.longest_prefix, alone.longest_prefix);
  EXPECT_EQ(v.stuck, alone.stuck);
  EXPECT_EQ(v.events, alone.events);
  EXPECT_EQ(v.part_operations, 0) << "the whole's prefix stays the verdict's";
  EXPECT_TRUE(v.explanation.starts_with(alone.explanation)) << v.explanation;
  EXPECT_NE(v.explanation.find(". A smaller proof: the part of the history that concerns "
                               "['v5-0'] alone, 1 operation(s)"),
            std::string::npos)
      << v.explanation;
  EXPECT_GT(v.steps, alone.steps);
  EXPECT_LE(v.steps, alone.steps + 4 * alone.steps + 100'000 + 1)
      << "the parts take at most the steps an evidence search may";
}

// Where the whole's evidence is as small as any part, it stands alone.
TEST(PartSearch, AViolationNoPartShowsInFewerOperationsKeepsItsEvidence) {
  const History h = testing::history_of({
      "0 invoke enqueue a", "0 ok enqueue a",  //
      "0 invoke enqueue b", "0 ok enqueue b",  //
      "0 invoke dequeue", "0 ok dequeue b",    //
      "0 invoke dequeue", "0 ok dequeue a",    //
  });
  const Verdict v = check_linearizable(h, SpecKind::fifo);
  ASSERT_EQ(v.kind, VerdictKind::violation) << v.explanation;
  EXPECT_EQ(v.explanation.find("A smaller proof"), std::string::npos) << v.explanation;
}

// A linearizable history beyond the budget stays unknown, and says what the parts covered.
TEST(PartSearch, AHistoryNoPartFailsStaysUnknownAndSaysWhatWasSearched) {
  const History h = recipe_history("scenarios/queue.toml", 8, 20, 1);
  const SearchOptions options{.step_budget = 50};
  const Verdict v = check_linearizable(h, SpecKind::fifo, options);
  ASSERT_EQ(v.kind, VerdictKind::unknown) << v.explanation;
  EXPECT_NE(v.explanation.find("then no part of one item, or of two items whose lifetimes "
                               "overlap, showed a violation: "),
            std::string::npos)
      << v.explanation;
  EXPECT_NE(v.explanation.find("when the parts' budget ran out"), std::string::npos)
      << v.explanation;
  EXPECT_LE(v.steps, 2 * options.step_budget + 2);
}

// A search bounded by its memory alone (any step budget, up to the largest a user may give) still
// bounds its parts: the step budget they get again is the same, and pairs looked at are counted
// against it without overflowing.
TEST(PartSearch, AWholeSearchOutOfMemoryHandsItsPartsTheLargestBudget) {
  const History h = recipe_history("scenarios/queue.toml", 4, 10, 1);
  SearchOptions options{.step_budget = std::numeric_limits<std::int64_t>::max()};
  options.memo_budget_bytes = 0;
  const Verdict v = check_linearizable(h, SpecKind::fifo, options);
  ASSERT_EQ(v.kind, VerdictKind::unknown) << v.explanation;
  EXPECT_NE(v.explanation.find("memo budget"), std::string::npos) << v.explanation;
  EXPECT_NE(v.explanation.find(", every such part"), std::string::npos) << v.explanation;
}

}  // namespace
}  // namespace contend::model
