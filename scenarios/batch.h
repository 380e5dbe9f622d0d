// Running a seed range: in parallel across seeds (`jobs` threads, one world per thread — worlds
// share nothing, so results are identical to a serial run), and in deterministic shards
// (`shard` K of N takes the seeds whose offset from the first is K-1 mod N) so a long search can
// be spread over CI matrix jobs or cluster array jobs and merged back. Outcomes come back in seed
// order whatever the jobs or shard.
// A run of many seeds keeps none of them: each outcome is handed on in seed order as it completes
// (for_each_seed_outcome) and folded into what is reported (BatchJudge, the aggregate table, the
// streamed JSON report), so the memory a run takes does not grow with its seed count — at most
// kOutcomesWaitingMax outcomes wait at once for a slower seed before them.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenarios/expectation.h"
#include "scenarios/seed_range.h"

namespace contend {

struct Shard {
  std::uint64_t index = 1;  // 1-based
  std::uint64_t count = 1;
  bool includes(std::uint64_t seed, std::uint64_t first) const {
    return (seed - first) % count == index - 1;
  }
};
// Parses "K/N" with 1 <= K <= N.
std::optional<Shard> parse_shard(const std::string& text, std::string& error);

struct SeedOutcome {
  std::uint64_t seed = 0;
  RunMetrics metrics;
  model::Verdict verdict;
  bool as_expected = true;
  bool shows_expected = false;  // the violation the scenario expects to find
};

struct BatchOptions {
  SeedRange seeds;
  Shard shard;
  int jobs = 1;
  // Called after each seed completes (from the thread that ran it, under a lock), in the order
  // seeds complete: whether its verdict is a violation, how many are done, of how many.
  std::function<void(bool violation, std::size_t done, std::size_t total)> progress;
};

// The seeds of `seeds` that `shard` holds.
std::uint64_t seeds_in_shard(const SeedRange& seeds, const Shard& shard);

// The most outcomes held back at once for a seed before them still running; a worker about to run
// further ahead waits. (At least 4 per job, so every job has work while one seed runs long.)
inline constexpr std::size_t kOutcomesWaitingMax = 1024;

// Runs and checks every seed of the shard, handing each outcome to `consume` in seed order (under
// a lock, from the thread that completed the order). Returns the most outcomes that waited at once.
std::size_t for_each_seed_outcome(const Scenario& scenario, const BatchOptions& options,
                                  const std::function<void(SeedOutcome&&)>& consume);
// Every outcome, in seed order: for callers that keep a handful of seeds (sweep points, tests).
std::vector<SeedOutcome> run_batch(const Scenario& scenario, const BatchOptions& options);

// The expectation over a whole batch: every seed consistent, and for a violation expectation at
// least one seed showing it. A seed no checker could judge (verdict unknown) is neither a pass nor
// a finding: while no seed refutes the expectation, it leaves the batch `undecided`, unless the
// violation a scenario expects was shown by another seed.
struct BatchJudgement {
  bool passed = true;
  bool undecided = false;  // not passed, and no seed refutes the expectation: see first_unknown
  std::optional<std::uint64_t> first_unexpected;  // a verdict the scenario does not allow
  std::optional<std::uint64_t> first_unknown;     // a seed whose verdict is unknown
  std::optional<std::uint64_t> first_expected_violation;
  // The first seed whose run was a simulator fault: contend is broken, whatever was expected.
  std::optional<std::uint64_t> first_simulator_fault;
  std::string why;
};
// What a batch's judgement comes to, as its report's "result" field names it (and the exit code
// says): "simulator_fault" (4), "as_expected" (0), "undecided" (3) or "unexpected" (1).
const char* batch_result(bool simulator_fault, bool passed, bool undecided);
const char* batch_result(const BatchJudgement& judgement);
// The judgement of a batch, built one outcome at a time in seed order; it keeps the outcomes its
// judgement names (first unexpected, unknown, expected violation, simulator fault, and the first
// seed), nothing else.
class BatchJudge {
 public:
  void add(const SeedOutcome& outcome);
  // `whole_range`: the outcomes are every seed of the range. A shard's are not, so a scenario that
  // expects a violation is not failed for one that shows none: another shard may, and `contend
  // merge` of all the shards judges the range.
  BatchJudgement judgement(const Scenario& scenario, bool whole_range) const;
  std::uint64_t seeds_judged() const { return seeds_judged_; }
  // A seed the judgement names, or the first seed; nothing for a seed it does not keep.
  const SeedOutcome* kept(std::uint64_t seed) const;
  const SeedOutcome* first() const { return first_ ? &*first_ : nullptr; }

 private:
  std::uint64_t seeds_judged_ = 0;
  std::optional<SeedOutcome> first_;
  std::optional<SeedOutcome> first_unexpected_;
  std::optional<SeedOutcome> first_unknown_;
  std::optional<SeedOutcome> first_expected_violation_;
  std::optional<SeedOutcome> first_simulator_fault_;
};
BatchJudgement judge(const Scenario& scenario, const std::vector<SeedOutcome>& outcomes,
                     bool whole_range = true);

// JSON for tools and for `contend merge`: the scenario, the seeds, and one entry per seed.
nlohmann::json batch_json(const Scenario& scenario, const SeedRange& seeds, const Shard& shard,
                          const std::vector<SeedOutcome>& outcomes);
// batch_json's parts: every field but "runs", and one entry of "runs".
nlohmann::json batch_json_header(const Scenario& scenario, const SeedRange& seeds,
                                 const Shard& shard);
nlohmann::json seed_json(const Scenario& scenario, const SeedOutcome& outcome);
nlohmann::json metrics_json(const RunMetrics& m);
// JUnit XML: one testcase per scenario x seed range (and shard, when there are several: a CI
// matrix's shards are test cases of their own in its test view); a failure carries the
// reproduction command. A run of no seed (a shard that holds none) is a skipped testcase,
// `skipped` its message: a CI test view counts no pass for a check that checked nothing.
std::string junit_xml(const Scenario& scenario, const SeedRange& seeds, const Shard& shard,
                      std::uint64_t seeds_run, const BatchJudgement& judgement, double seconds,
                      const std::string& skipped = "no seed ran");

}  // namespace contend
