// The deterministic world: reproducibility from the seed, contention, crashes, pauses, bounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "sim/runtime/world.h"
#include "sim/store/retry.h"

namespace contend {
namespace {

// Read-modify-write increments of one counter: every pair of concurrent increments conflicts.
Task<void> incrementer(World& world, ClientId* id, int increments, int* committed) {
  for (int i = 0; i < increments; ++i) {
    auto r = co_await run(world.database(*id), [](Transaction& tr) -> Task<void> {
      auto v = co_await tr.get("counter");
      int n = v ? std::stoi(*v) : 0;
      tr.set("counter", std::to_string(n + 1));
    });
    if (r.ok()) ++*committed;
  }
}

struct CounterRun {
  std::int64_t steps = 0;
  AttemptStats stats;
  std::string counter;
  std::uint64_t unseed = 0;
  int committed = 0;
  std::int64_t end_us = 0;
};

CounterRun run_counter(std::uint64_t seed, int clients, int increments, FaultKnobs faults = {}) {
  WorldOptions options;
  options.seed = seed;
  options.faults = faults;
  World world(options, std::make_shared<RandomStrategy>());
  CounterRun out;
  std::vector<ClientId> ids(static_cast<std::size_t>(clients));
  for (int c = 0; c < clients; ++c) {
    ids[static_cast<std::size_t>(c)] = c;
    world.spawn(incrementer(world, &ids[static_cast<std::size_t>(c)], increments, &out.committed));
  }
  world.run();
  out.steps = world.steps();
  out.stats = world.stats();
  const auto state = world.store().latest_state();
  auto it = state.find("counter");
  out.counter = it == state.end() ? "" : it->second;
  out.unseed = world.unseed();
  out.end_us = world.now_us();
  return out;
}

TEST(World, TheSameSeedReproducesTheRunExactly) {
  CounterRun a = run_counter(42, 8, 10);
  CounterRun b = run_counter(42, 8, 10);
  EXPECT_EQ(a.steps, b.steps);
  EXPECT_EQ(a.stats.attempts, b.stats.attempts);
  EXPECT_EQ(a.stats.conflicts, b.stats.conflicts);
  EXPECT_EQ(a.end_us, b.end_us);
  EXPECT_EQ(a.unseed, b.unseed) << "unseed mismatch: the run is not deterministic";
}

TEST(World, AnotherSeedGivesAnotherInterleaving) {
  CounterRun a = run_counter(1, 8, 10);
  CounterRun b = run_counter(2, 8, 10);
  EXPECT_TRUE(a.end_us != b.end_us || a.stats.attempts != b.stats.attempts || a.unseed != b.unseed);
}

TEST(World, ContendedIncrementsConflictButNoneIsLost) {
  CounterRun r = run_counter(7, 16, 5);
  EXPECT_EQ(r.committed, 80);
  EXPECT_EQ(r.counter, "80") << "serializable increments must add up";
  EXPECT_GT(r.stats.conflicts, 0) << "16 clients on one key must conflict";
  EXPECT_EQ(r.stats.conflicts_by_step.count("unlabelled"), 1u);
}

TEST(World, SpuriousNotCommittedIsRetriedAndCounted) {
  FaultKnobs faults;
  faults.not_committed = 0.3;
  CounterRun r = run_counter(3, 4, 10, faults);
  EXPECT_EQ(r.counter, "40");
  EXPECT_GT(r.stats.injected_not_committed, 0);
}

TEST(World, ALongPauseMakesTheTransactionTooOld) {
  FaultKnobs faults;
  faults.pause = 0.05;
  faults.pause_us = 6'000'000;
  CounterRun r = run_counter(5, 4, 20, faults);
  EXPECT_EQ(r.counter, "80");
  EXPECT_GT(r.stats.too_old, 0) << "a 6 s pause inside a transaction must meet the 5 s window";
}

// Counts live coroutine frames through an object each frame holds.
struct FrameGuard {
  explicit FrameGuard(int* live) : live_(live) { ++*live_; }
  ~FrameGuard() { --*live_; }
  int* live_;
};

Task<void> guarded_reader(World& world, ClientId id, int* live) {
  FrameGuard guard(live);
  for (int i = 0; i < 1000; ++i) {
    co_await run(world.database(id), [live](Transaction& tr) -> Task<void> {
      FrameGuard inner(live);
      co_await tr.get("k");
      tr.set("k", "v");
    });
  }
}

TEST(World, ACrashedClientIsDestroyedCleanlyAndReported) {
  WorldOptions options;
  options.seed = 11;
  options.faults.crash = 0.05;
  World world(options, std::make_shared<RandomStrategy>());
  int live = 0;
  std::vector<ClientId> crashed;
  world.on_crash = [&](ClientId id) { crashed.push_back(id); };
  for (ClientId c = 0; c < 4; ++c)
    world.spawn(guarded_reader(world, c, &live));
  world.run();
  EXPECT_EQ(crashed.size(), 4u) << "with p=0.05 per step every client crashes within 1000 ops";
  EXPECT_EQ(live, 0) << "destroying a crashed client must free every frame it held";
  EXPECT_EQ(world.live_clients(), 0u);
}

TEST(World, HittingTheStepBoundIsReportedNotHungOn) {
  WorldOptions options;
  options.seed = 1;
  options.max_steps = 100;
  World world(options, std::make_shared<RandomStrategy>());
  int committed = 0;
  ClientId id = 0;
  world.spawn(incrementer(world, &id, 1'000'000, &committed));
  world.run();
  EXPECT_EQ(world.bound_hit(), BoundHit::steps);
  EXPECT_EQ(world.steps(), 100);
}

// One transaction (a read that takes the read version, `more_reads` reads after it, a write when
// `writes`, its commit), then a sleep.
Task<void> one_transaction(World& world, ClientId id, int more_reads, bool writes) {
  co_await run(world.database(id), [&](Transaction& tr) -> Task<void> {
    for (int i = 0; i <= more_reads; ++i)
      co_await tr.get("k" + std::to_string(i));
    if (writes) tr.set("k", "v");
  });
  co_await delay(world.database(id), 1'000);
}

std::int64_t exhaustive_steps(int more_reads, bool writes, WorldOptions options = {}) {
  options.exhaustive = true;
  World world(options, std::make_shared<RandomStrategy>());
  world.spawn(one_transaction(world, 0, more_reads, writes));
  world.run();
  EXPECT_EQ(world.live_clients(), 0u);
  EXPECT_EQ(world.stats().committed, 1);
  return world.steps();
}

TEST(World, AnExhaustiveWorldRunsInertStepsInsideTheStepBeforeThem) {
  // The fetch is a step; the reads after it, the read-only commit and the sleep run inside it.
  EXPECT_EQ(exhaustive_steps(3, false), 1);
  // A commit that writes is ordered against other clients' steps: a step of its own (the sleep
  // runs inside it).
  EXPECT_EQ(exhaustive_steps(3, true), 2);
  // Every store step a scheduling point: the fetch, three reads, the commit, the sleep.
  WorldOptions split;
  split.split_inert_steps = true;
  EXPECT_EQ(exhaustive_steps(3, false, split), 6);
  // Steps that may crash before they run, or whose code may draw an explored key suffix, are
  // scheduling points too.
  WorldOptions crashes;
  crashes.faults.crash = 0.5;
  EXPECT_EQ(exhaustive_steps(3, false, crashes), 6);
  WorldOptions draws;
  draws.explore_draws = true;
  EXPECT_EQ(exhaustive_steps(3, false, draws), 6);
  // Outside exhaustive worlds every store step is scheduled.
  World seeded(WorldOptions{}, std::make_shared<RandomStrategy>());
  seeded.spawn(one_transaction(seeded, 0, 3, false));
  seeded.run();
  EXPECT_EQ(seeded.steps(), 6);
}

// Takes the first ready step, and keeps the attempts' footprints as they stand whenever a commit
// is the step about to be chosen: what a search judges its sleep sets with at that node.
class FootprintsAtCommits : public Strategy {
 public:
  std::string name() const override { return "footprints-at-commits"; }
  bool chooses_every_step() const override { return true; }
  void watch(const StepLog* log) override { log_ = log; }
  std::size_t choose(std::span<const Candidate> candidates) override {
    if (candidates.front().kind == StepKind::commit) {
      for (const auto& [id, attempt] : log_->attempts)
        seen.push_back(attempt);
    }
    return 0;
  }
  std::vector<AttemptFootprint> seen;

 private:
  const StepLog* log_ = nullptr;
};

TEST(World, AnAttemptsReadsAreFinalOnceItsCommitIsSubmitted) {
  // The fetch's step runs the three reads and submits the commit: from then on the attempt reads
  // nothing more, so a search need not take its fetch to read every key (footprint.h).
  WorldOptions options;
  options.exhaustive = true;
  auto watcher = std::make_shared<FootprintsAtCommits>();
  World world(options, watcher);
  world.spawn(one_transaction(world, 0, 2, /*writes=*/true));
  world.run();
  ASSERT_EQ(watcher->seen.size(), 1u) << "one attempt, seen once, before its commit ran";
  const AttemptFootprint& attempt = watcher->seen.front();
  EXPECT_FALSE(attempt.ended);
  EXPECT_TRUE(attempt.reads_final);
  EXPECT_EQ(attempt.reads.size(), 3u) << "k0, k1 and k2";
}

// A transaction whose writes of "quiet" and [qa, qb) take no write conflict range
// (WriteConflict::none), and whose write of "loud" takes one.
Task<void> writes_without_conflict_ranges(World& world, ClientId id) {
  co_await run(world.database(id), [&](Transaction& tr) -> Task<void> {
    co_await tr.get("r");
    const KeyRange cleared{"qa", "qb"};
    tr.set("quiet", "v", WriteConflict::none);
    tr.clear_range(cleared, WriteConflict::none);
    tr.set("loud", "v");
  });
}

TEST(World, ACommitsFootprintHoldsTheKeysItWroteWithoutAConflictRange) {
  // No other transaction's read conflicts with those writes, but they change what it reads: a
  // search must order the commit against those reads as against any other write of theirs.
  WorldOptions options;
  options.exhaustive = true;
  World world(options, std::make_shared<RandomStrategy>());
  world.spawn(writes_without_conflict_ranges(world, 0));
  world.run();
  const StepFootprint* commit = nullptr;
  for (const StepFootprint& step : world.step_log().steps) {
    if (step.applied) commit = &step;
  }
  ASSERT_NE(commit, nullptr) << "the commit applied";
  const auto written = [&](const std::string& begin, const std::string& end) {
    return std::find(commit->written.begin(), commit->written.end(), KeyRange{begin, end}) !=
           commit->written.end();
  };
  EXPECT_TRUE(written("quiet", key_after("quiet")));
  EXPECT_TRUE(written("qa", "qb"));
  EXPECT_TRUE(written("loud", key_after("loud")));
}

TEST(World, AStepRunsABoundedNumberOfInertStepsInsideIt) {
  // 600 reads after the fetch, the commit and the sleep: 602 inert steps. The fetch's step runs
  // kInertStepsInlineMax of them; the next is a scheduling point that runs as many again, and
  // the one after it the last 88.
  static_assert(kInertStepsInlineMax == 256, "the count below is for 256 a step");
  EXPECT_EQ(exhaustive_steps(600, false), 3);
}

}  // namespace
}  // namespace contend
