// The dependence relation of the partial-order reduction (sim/runtime/footprint.h), on hand-made
// steps: what makes two steps dependent, and where one execution narrows it (a commit refused by
// a conflict depends only on the first conflicting commit after its read version).
#include "sim/runtime/footprint.h"

#include <gtest/gtest.h>

namespace contend {
namespace {

KeyRange range(const char* begin, const char* end) {
  return KeyRange{Bytes(begin), Bytes(end)};
}

ResolvedStep fetch(int thread, std::uint64_t attempt, KeyRange reads) {
  ResolvedStep s;
  s.thread = thread;
  s.snapshot = true;
  s.snapshot_attempt = attempt;
  s.reads = {std::move(reads)};
  return s;
}

// A commit step of `thread` resolving `attempt`: applied, or refused.
ResolvedStep resolution(int thread, std::uint64_t attempt) {
  ResolvedStep s;
  s.thread = thread;
  s.resolved = true;
  s.commit_attempt = attempt;
  return s;
}

ResolvedStep applied_commit(int thread, std::uint64_t attempt, KeyRange writes) {
  ResolvedStep s = resolution(thread, attempt);
  s.applied = true;
  s.written = {std::move(writes)};
  return s;
}

ResolvedStep refused_commit(int thread, std::uint64_t attempt, KeyRange checked) {
  ResolvedStep s = resolution(thread, attempt);
  s.conflicted = true;
  s.checked = {checked};
  s.refused_writes = {std::move(checked)};
  return s;
}

// Thread 0 reads [a, c) and is refused; threads 1 and 2 write into it after its read version.
std::vector<ResolvedStep> two_conflicting_commits() {
  return {fetch(0, 1, range("a", "c")), applied_commit(1, 2, range("a", "b")),
          applied_commit(2, 3, range("b", "c")), refused_commit(0, 1, range("a", "c"))};
}

TEST(ExecutionDependence, ARefusedCommitDependsOnlyOnItsFirstConflictingCommit) {
  const std::vector<ResolvedStep> steps = two_conflicting_commits();
  const ExecutionDependence depends(steps, DependenceRule{});
  EXPECT_TRUE(depends(0, 1)) << "the fetch decides whether thread 0 sees thread 1's write";
  EXPECT_TRUE(depends(0, 2)) << "and thread 2's";
  EXPECT_TRUE(depends(1, 3)) << "the first conflicting commit decides the refusal";
  EXPECT_FALSE(depends(2, 3)) << "the second one is moved across the refused commit freely";
  EXPECT_FALSE(depends(1, 2)) << "disjoint writes";
  // Without the execution, the pair alone is dependent.
  EXPECT_TRUE(dependent(steps[2], steps[3], DependenceRule{}));
}

TEST(ExecutionDependence, ALaterConflictingCommitIsIndependentOfTheRefusal) {
  std::vector<ResolvedStep> steps = two_conflicting_commits();
  steps.push_back(applied_commit(3, 4, range("a", "c")));
  const ExecutionDependence depends(steps, DependenceRule{});
  EXPECT_TRUE(depends(1, 3));
  EXPECT_FALSE(depends(3, 4));
}

TEST(ExecutionDependence, EveryConflictCountsWhenTheRefusalHasNoFirstCommitInItsWindow) {
  // Refused but not by a conflict the log shows (no fetch of its attempt logged): keep all.
  std::vector<ResolvedStep> steps = two_conflicting_commits();
  steps[0].snapshot_attempt = 9;
  const ExecutionDependence depends(steps, DependenceRule{});
  EXPECT_TRUE(depends(1, 3));
  EXPECT_TRUE(depends(2, 3));
}

TEST(ExecutionDependence, NoNarrowingForARefusalThatWasNotAConflict) {
  std::vector<ResolvedStep> steps = two_conflicting_commits();
  steps[3].conflicted = false;
  const ExecutionDependence depends(steps, DependenceRule{});
  EXPECT_TRUE(depends(2, 3));
}

TEST(ExecutionDependence, VersionstampsKeepEveryCommitDependent) {
  std::vector<ResolvedStep> steps = two_conflicting_commits();
  steps[2].version_sensitive = true;
  const ExecutionDependence depends(steps, DependenceRule{});
  EXPECT_TRUE(depends(2, 3));
}

TEST(ExecutionDependence, RealTimeDependenceIsNeverNarrowed) {
  std::vector<ResolvedStep> steps = two_conflicting_commits();
  steps[2].completes = true;
  steps[3].invokes = true;
  EXPECT_FALSE(ExecutionDependence(steps, DependenceRule{})(2, 3));
  EXPECT_TRUE(ExecutionDependence(steps, DependenceRule{.real_time = true})(2, 3));
}

TEST(ExecutionDependence, AStepThatTouchesNothingSharedIsInertAndIndependentOfEveryOther) {
  // A read after its fetch, a sleep, local code: no read version, no commit.
  std::vector<ResolvedStep> steps = two_conflicting_commits();
  ResolvedStep read;
  read.thread = 1;
  steps.insert(steps.begin() + 1, read);
  ResolvedStep invoking = read;
  invoking.thread = 2;
  invoking.invokes = true;
  steps.push_back(invoking);
  const ExecutionDependence depends(steps, DependenceRule{});
  EXPECT_TRUE(depends.inert(1));
  EXPECT_TRUE(depends.inert(5)) << "operation boundaries count only with the real-time rule";
  for (std::size_t k : {0U, 2U, 3U, 4U})
    EXPECT_FALSE(depends.inert(k)) << "step " << k;
  for (std::size_t j = 2; j < steps.size(); ++j)
    EXPECT_FALSE(steps[j].thread != 1 && depends(1, j)) << "step " << j;
  const ExecutionDependence real_time(steps, DependenceRule{.real_time = true});
  EXPECT_FALSE(real_time.inert(5));
}

TEST(ExecutionDependence, AConflictBeforeTheReadVersionIsNotInTheWindow) {
  // Thread 1's commit lands before thread 0 fetches: thread 2's is the first in the window.
  std::vector<ResolvedStep> steps = two_conflicting_commits();
  std::swap(steps[0], steps[1]);
  const ExecutionDependence depends(steps, DependenceRule{});
  EXPECT_TRUE(depends(2, 3)) << "thread 2's commit is the first conflict after the fetch";
  EXPECT_FALSE(depends(0, 3)) << "thread 1's commit came before the read version";
}

// Sleep sets (dpor.h) judge a sleeping thread's step against the step taken instead with the
// narrowing the races use: else a thread asleep with a commit wakes at a refused commit whose
// checked ranges its writes meet, and the search explores that class a second time.
TEST(StaysAsleep, ACommitStaysAsleepAcrossARefusalDecidedBeforeIt) {
  // Thread 1's write decided thread 0's refusal; thread 3 sleeps with a write into the same range.
  std::vector<ResolvedStep> steps = {fetch(0, 1, range("a", "c")),
                                     applied_commit(1, 2, range("a", "b")),
                                     refused_commit(0, 1, range("a", "c"))};
  const ResolvedStep asleep = applied_commit(3, 4, range("b", "c"));
  ASSERT_TRUE(dependent(asleep, steps[2], DependenceRule{}));
  EXPECT_TRUE(stays_asleep(asleep, steps, 2, DependenceRule{}));
  // With the conflicting write gone from the run, the refusal is not explained: it wakes.
  steps.erase(steps.begin() + 1);
  EXPECT_FALSE(stays_asleep(asleep, steps, 1, DependenceRule{}));
}

TEST(StaysAsleep, ARefusedCommitStaysAsleepAcrossALaterWrite) {
  // Thread 0 sleeps with a commit a conflict (thread 1's write) refused where thread 3 commits now.
  const std::vector<ResolvedStep> steps = {fetch(0, 1, range("a", "c")),
                                           applied_commit(1, 2, range("a", "b")),
                                           applied_commit(3, 4, range("b", "c"))};
  const ResolvedStep asleep = refused_commit(0, 1, range("a", "c"));
  EXPECT_TRUE(stays_asleep(asleep, steps, 2, DependenceRule{}));
  // The first conflict must come before the step taken.
  const std::vector<ResolvedStep> no_first = {fetch(0, 1, range("a", "c")),
                                              applied_commit(3, 4, range("b", "c"))};
  EXPECT_FALSE(stays_asleep(asleep, no_first, 1, DependenceRule{}));
}

TEST(StaysAsleep, VersionsRealTimeAndTheBrokenRuleKeepTheWakeUp) {
  std::vector<ResolvedStep> steps = {fetch(0, 1, range("a", "c")),
                                     applied_commit(1, 2, range("a", "b")),
                                     refused_commit(0, 1, range("a", "c"))};
  ResolvedStep asleep = applied_commit(3, 4, range("b", "c"));
  asleep.version_sensitive = true;
  EXPECT_FALSE(stays_asleep(asleep, steps, 2, DependenceRule{}));
  asleep.version_sensitive = false;
  asleep.completes = true;
  steps[2].invokes = true;
  EXPECT_FALSE(stays_asleep(asleep, steps, 2, DependenceRule{.real_time = true}));
  EXPECT_TRUE(stays_asleep(asleep, steps, 2, DependenceRule{}));
  EXPECT_FALSE(stays_asleep(asleep, steps, 2, DependenceRule{.broken = true}));
}

}  // namespace
}  // namespace contend
