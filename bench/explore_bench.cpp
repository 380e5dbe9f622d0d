// The exhaustive search: the reduced search (dpor) beside the full search over the same choices
// (its baseline), on the measure — queue, 3 clients x 2 operations, the seed's plan —
// the reduced search that schedules every real-time order instead of judging each class by its
// most ordered schedules, the search with 2 jobs beside what the machine gives two
// independent searches at once, and 2 jobs on one plan with and without sizing its units. Counters:
// executions per search and per second of search. `ratio` lines at the end compare times; the
// executions counters give the reduction. With CONTEND_BENCH_LONG=1 it also times priority-queue 3
// x 2 over every plan (about a minute), and hc-queue 3 x 3 with a checkpoint (`checkpoint`) and
// without (some four minutes each). `draws_all` searches every order of the random key suffixes
// (--draws all) against the seed's suffixes (the baseline of the same scope), on one job and on
// two. `unparked` searches hc-queue without parking pops at waits that made no progress, `split`
// with every store step a scheduling point, `unshared` (also at 3 x 3, long) judging every class
// afresh instead of by the verdict of one with the same history and real-time order. `jobs_2/pct`
// runs PCT's schedules on two threads against one (baseline/pct).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <thread>

#include "bench/ratio_reporter.h"
#include "scenarios/exhaustive.h"
#include "scenarios/explore.h"

namespace contend {
namespace {

Scenario queue_scope(int clients, int operations) {
  Scenario s;
  s.file = "(bench)";
  s.name = "queue";
  s.recipe = "queue";
  s.clients = clients;
  s.operations_per_client = operations;
  s.checks = {"fast", "accounting", "serializability"};
  return s;
}

// scenarios/priority-queue.toml at another scope: push, pop and peek at both ends, priorities
// 0 to 3 (a plan depends only on which operations have a positive weight).
Scenario priority_queue_scope(int clients, int operations) {
  Scenario s = queue_scope(clients, operations);
  s.name = "priority-queue";
  s.recipe = "priority-queue";
  s.mix.push = 4;
  s.mix.pop_min = 2;
  s.mix.peek_min = 1;
  s.mix.pop_max = 1;
  s.mix.peek_max = 1;
  s.priority_min = 0;
  s.priority_max = 3;
  return s;
}

Scenario hc_queue_scope(int clients, int operations) {
  Scenario s = queue_scope(clients, operations);
  s.name = "hc-queue";
  s.recipe = "hc-queue";
  return s;
}

// How a benchmark searches: the reduced search on one job over the seed's plan unless it says
// otherwise.
struct Knobs {
  bool reduce = true;
  bool all_plans = false;
  int jobs = 1;
  bool real_time_by_schedule = false;
  bool sized = true;
  bool cache_states = false;
  bool explore_draws = false;
  bool park_unproductive_waits = true;
  bool share_class_verdicts = true;
  // Every store step a scheduling point (ExhaustiveOptions::split_inert_steps); the full
  // search always is, so that it is every interleaving of the store's steps.
  bool split_inert_steps = false;
  std::int64_t max_executions = ExhaustiveOptions{}.max_executions;
  // Saved to a checkpoint file (removed before each search and after the last); its size at the
  // end is the `file_mb` counter.
  bool checkpoint = false;
};

void search(benchmark::State& state, const Scenario& s, const Knobs& k) {
  ExhaustiveOptions o;
  o.park_unproductive_waits = k.park_unproductive_waits;
  o.share_class_verdicts = k.share_class_verdicts;
  o.explore_draws = k.explore_draws;
  if (!k.sized) o.sizing_runs = 0;
  o.reduce = k.reduce;
  o.cache_states = k.cache_states;
  o.real_time_by_schedule = k.real_time_by_schedule;
  o.split_inert_steps = k.split_inert_steps || !k.reduce;
  o.all_plans = k.all_plans;
  o.jobs = k.jobs;
  o.stop_at_first_violation = false;
  o.minimise = false;
  o.max_executions = k.max_executions;
  const std::string file =
      (std::filesystem::temp_directory_path() / "contend-bench-checkpoint.json").string();
  if (k.checkpoint) o.checkpoint_file = file;
  ExhaustiveResult r;
  std::uintmax_t file_bytes = 0;
  for (auto _ : state) {
    if (k.checkpoint) std::filesystem::remove(file);
    r = explore_exhaustively(s, o);
    if (!r.exhausted || r.violation || !r.error.empty()) {
      state.SkipWithError("the search did not verify the scope");
    }
    std::error_code ignored;
    if (k.checkpoint) file_bytes = std::filesystem::file_size(file, ignored);
  }
  if (k.checkpoint) {
    std::filesystem::remove(file);
    state.counters["file_mb"] = benchmark::Counter(static_cast<double>(file_bytes) / 1e6);
  }
  state.counters["executions"] = benchmark::Counter(static_cast<double>(r.executions));
  state.counters["abandoned"] = benchmark::Counter(static_cast<double>(r.blocked));
  state.counters["parked"] = benchmark::Counter(static_cast<double>(r.parked));
  state.counters["executions_per_s"] = benchmark::Counter(
      static_cast<double>(r.executions) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
  state.counters["outcomes"] = benchmark::Counter(static_cast<double>(r.distinct_outcomes));
}

// The baseline: every interleaving of the same choices (716,130 executions).
void BM_FullQueue3x2(benchmark::State& state) {
  search(state, queue_scope(3, 2), {.reduce = false});
}
BENCHMARK(BM_FullQueue3x2)
    ->Name("baseline/queue_3x2_seed_plan")
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseRealTime();

void BM_DporQueue3x2(benchmark::State& state) {
  search(state, queue_scope(3, 2), {});
}
BENCHMARK(BM_DporQueue3x2)
    ->Name("dpor/queue_3x2_seed_plan")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The full search pruned where it meets a state it explored (reduction "states"): against the
// baseline above, what the cross-check of the reduction costs at this scope.
void BM_StatesQueue3x2(benchmark::State& state) {
  search(state, queue_scope(3, 2), {.reduce = false, .cache_states = true});
}
BENCHMARK(BM_StatesQueue3x2)
    ->Name("states/queue_3x2_seed_plan")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->UseRealTime();

// The same reduction with the real-time order explored by scheduling (footprint.h).
void BM_DporScheduledRealTimeQueue3x2(benchmark::State& state) {
  search(state, queue_scope(3, 2), {.real_time_by_schedule = true});
}
BENCHMARK(BM_DporScheduledRealTimeQueue3x2)
    ->Name("dpor_real_time_scheduled/queue_3x2_seed_plan")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Every plan of queue 3 x 2: one job, then two (the ratio of these two is the speed-up).
void BM_DporQueue3x2AllPlans(benchmark::State& state) {
  search(state, queue_scope(3, 2), {.all_plans = true});
}
BENCHMARK(BM_DporQueue3x2AllPlans)
    ->Name("baseline/queue_3x2_all_plans")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_DporQueue3x2AllPlansTwoJobs(benchmark::State& state) {
  search(state, queue_scope(3, 2), {.all_plans = true, .jobs = 2});
}
BENCHMARK(BM_DporQueue3x2AllPlansTwoJobs)
    ->Name("jobs_2/queue_3x2_all_plans")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Every order of the key suffixes: against baseline/queue_3x2_all_plans.
void BM_DrawsQueue3x2AllPlans(benchmark::State& state) {
  search(state, queue_scope(3, 2), {.all_plans = true, .explore_draws = true});
}
BENCHMARK(BM_DrawsQueue3x2AllPlans)
    ->Name("draws_all/queue_3x2_all_plans")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// One plan whose classes crowd into a few of the units cut below the root (hc-queue 3 x 2, the
// seed's plan: 44,295 classes; when the first cut aimed at 64 units, one of 67 held 56% of the
// runs unless sizing cut it again): one job, two jobs, and two jobs without sizing.
void BM_DporHcQueue3x2(benchmark::State& state) {
  search(state, hc_queue_scope(3, 2), {});
}
BENCHMARK(BM_DporHcQueue3x2)
    ->Name("baseline/hc_queue_3x2_seed_plan")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_DporHcQueue3x2TwoJobs(benchmark::State& state) {
  search(state, hc_queue_scope(3, 2), {.jobs = 2});
}
BENCHMARK(BM_DporHcQueue3x2TwoJobs)
    ->Name("jobs_2/hc_queue_3x2_seed_plan")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_DporHcQueue3x2TwoJobsUnsized(benchmark::State& state) {
  search(state, hc_queue_scope(3, 2), {.jobs = 2, .sized = false});
}
BENCHMARK(BM_DporHcQueue3x2TwoJobsUnsized)
    ->Name("jobs_2_unsized/hc_queue_3x2_seed_plan")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Without parking a pop at a wait that made no progress (Environment::park): every such round
// explored as its own class.
void BM_DporHcQueue3x2Unparked(benchmark::State& state) {
  search(state, hc_queue_scope(3, 2), {.park_unproductive_waits = false});
}
BENCHMARK(BM_DporHcQueue3x2Unparked)
    ->Name("unparked/hc_queue_3x2_seed_plan")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Every class judged by finding and checking its most ordered schedules, none by the verdict of
// a class with the same history and real-time order met before (ExhaustiveOptions::
// share_class_verdicts): against baseline/hc_queue_3x2_seed_plan.
void BM_DporHcQueue3x2Unshared(benchmark::State& state) {
  search(state, hc_queue_scope(3, 2), {.share_class_verdicts = false});
}
BENCHMARK(BM_DporHcQueue3x2Unshared)
    ->Name("unshared/hc_queue_3x2_seed_plan")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Every store step a scheduling point (WorldOptions::split_inert_steps): against
// baseline/hc_queue_3x2_seed_plan, what running the inert steps inside the step before them saves.
void BM_DporHcQueue3x2Split(benchmark::State& state) {
  search(state, hc_queue_scope(3, 2), {.split_inert_steps = true});
}
BENCHMARK(BM_DporHcQueue3x2Split)
    ->Name("split/hc_queue_3x2_seed_plan")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Every order of the key suffixes: against baseline/hc_queue_3x2_seed_plan.
void BM_DrawsHcQueue3x2(benchmark::State& state) {
  search(state, hc_queue_scope(3, 2), {.explore_draws = true});
}
BENCHMARK(BM_DrawsHcQueue3x2)
    ->Name("draws_all/hc_queue_3x2_seed_plan")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// ... on two jobs: the search cut below the root over the draws' choices (its time against
// draws_all's gives what the second job buys).
void BM_DrawsHcQueue3x2TwoJobs(benchmark::State& state) {
  search(state, hc_queue_scope(3, 2), {.jobs = 2, .explore_draws = true});
}
BENCHMARK(BM_DrawsHcQueue3x2TwoJobs)
    ->Name("draws_all_jobs_2/hc_queue_3x2_seed_plan")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The machine's ceiling for two jobs: two one-job searches of the same scope at once, on two
// threads that share nothing; the time is per search. On two cores that never slow each other
// this is half the baseline; jobs_2 (one search cut into units) can come close to it, not beat
// it. (Virtual machines whose two vCPUs share a physical core, or are throttled together,
// measure well above half.)
void BM_TwoIndependentSearches(benchmark::State& state) {
  const Scenario s = queue_scope(3, 2);
  ExhaustiveOptions o;
  o.stop_at_first_violation = false;
  o.minimise = false;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    ExhaustiveResult other;
    std::thread second([&] { other = explore_exhaustively(s, o); });
    const ExhaustiveResult first = explore_exhaustively(s, o);
    second.join();
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    if (!first.exhausted || !other.exhausted || first.executions != other.executions) {
      state.SkipWithError("the two searches did not both verify the scope");
    }
    state.SetIterationTime(elapsed.count() / 2);
  }
}
BENCHMARK(BM_TwoIndependentSearches)
    ->Name("parallel_ceiling/queue_3x2_all_plans")
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime();

// PCT's schedules are independent worlds: 2,000 of the queue at 4 clients x 12 operations (the
// shipped scenario's scope), every one run (--all), on one job and on two (`explore --strategy pct
// --jobs 2`). Counter: schedules per second.
void sample(benchmark::State& state, const char* strategy, int jobs) {
  const Scenario s = queue_scope(4, 12);
  ExploreOptions o;
  o.strategy = strategy;
  o.schedules = 2'000;
  o.stop_at_first_violation = false;
  o.jobs = jobs;
  for (auto _ : state) {
    const ExploreResult r = explore(s, o);
    if (r.schedules != o.schedules || r.violation || r.first_undecided)
      state.SkipWithError("the schedules were not all run and judged linearizable");
  }
  state.counters["schedules_per_s"] =
      benchmark::Counter(static_cast<double>(o.schedules) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}
void BM_PctQueue4x12(benchmark::State& state) {
  sample(state, "pct", 1);
}
BENCHMARK(BM_PctQueue4x12)
    ->Name("baseline/pct_queue_4x12")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
void BM_PctQueue4x12TwoJobs(benchmark::State& state) {
  sample(state, "pct", 2);
}
BENCHMARK(BM_PctQueue4x12TwoJobs)
    ->Name("jobs_2/pct_queue_4x12")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Every plan of priority-queue 3 x 2, one job: 11,995 plans, 1,704,052 classes (the scope alone;
// `contend explore` searches the smaller scopes first and counts 1,706,756).
void BM_DporPriorityQueue3x2AllPlans(benchmark::State& state) {
  search(state, priority_queue_scope(3, 2), {.all_plans = true});
}

// A long search with and without a checkpoint: hc-queue 3 x 3, the seed's plan, whole (5.2
// million runs, some four minutes), sized into units as `contend explore --schedules 2000000000`
// sizes it. Every write rewrites the whole file, which holds every unit's path and progress (some
// 40 MB here, 500 MB at 4 x 2), so what the checkpoint costs is how often it writes it.
void BM_HcQueue3x3(benchmark::State& state) {
  search(state, hc_queue_scope(3, 3), {.max_executions = 2'000'000'000});
}
void BM_HcQueue3x3Checkpoint(benchmark::State& state) {
  search(state, hc_queue_scope(3, 3), {.max_executions = 2'000'000'000, .checkpoint = true});
}
void BM_HcQueue3x3Unshared(benchmark::State& state) {
  search(state, hc_queue_scope(3, 3),
         {.share_class_verdicts = false, .max_executions = 2'000'000'000});
}

bool long_benchmarks_wanted() {
  const char* wanted = std::getenv("CONTEND_BENCH_LONG");
  return wanted != nullptr && std::string_view(wanted) == "1";
}

}  // namespace
}  // namespace contend

int main(int argc, char** argv) {
  if (contend::long_benchmarks_wanted()) {
    benchmark::RegisterBenchmark("long/priority_queue_3x2_all_plans",
                                 contend::BM_DporPriorityQueue3x2AllPlans)
        ->Unit(benchmark::kSecond)
        ->Iterations(1)
        ->UseRealTime();
    benchmark::RegisterBenchmark("baseline/hc_queue_3x3_seed_plan", contend::BM_HcQueue3x3)
        ->Unit(benchmark::kSecond)
        ->Iterations(1)
        ->UseRealTime();
    benchmark::RegisterBenchmark("checkpoint/hc_queue_3x3_seed_plan",
                                 contend::BM_HcQueue3x3Checkpoint)
        ->Unit(benchmark::kSecond)
        ->Iterations(1)
        ->UseRealTime();
    benchmark::RegisterBenchmark("unshared/hc_queue_3x3_seed_plan", contend::BM_HcQueue3x3Unshared)
        ->Unit(benchmark::kSecond)
        ->Iterations(1)
        ->UseRealTime();
  }
  return contend::bench::run_with_ratios(argc, argv);
}
