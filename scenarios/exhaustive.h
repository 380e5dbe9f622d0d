// Exhaustive search of a scenario's scope: every plan (or the seed's), every schedule up to
// equivalence (dpor.h), every placement of at most `max_faults` faults — and what it proved.
//
// The work is cut into units (search_units.h): one per (plan, thread that takes the first step),
// and when that gives few, subtrees further down. A unit's subtree is searched by one
// DporExplorer, with the threads taken by earlier units asleep at its cut nodes, so units do not
// search a class twice. The cut is the same whatever the jobs or shards, so the executions counted,
// the outcomes and the first violation are the same too: `jobs` runs units on threads (one world
// per thread at a time), `shard` K/N takes every N-th unit, and a checkpoint file records finished
// units and where each running unit's search stands, so a stopped search resumes where it was
// (search_checkpoint.h).
//
// Smallest first (`minimise`, when stopping at the first violation): every fault budget up to the
// asked one and, within it, every smaller scope (fewer operations in all, then fewer clients) is
// searched before the asked scope, so the first violation found is minimal in that order by
// construction — and a clean result covers every scope up to the asked one.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/verdict.h"
#include "scenarios/batch.h"
#include "scenarios/coverage.h"
#include "scenarios/outcome.h"
#include "scenarios/plans.h"
#include "scenarios/scenario.h"

namespace contend {

// Where a running scope search stands (the executions and abandoned runs this process ran, not
// those a checkpoint held).
struct ExhaustiveProgress {
  int clients = 0;
  int operations = 0;
  int max_faults = 0;
  std::int64_t runs = 0;  // executions and abandoned, every job together, made here
  // Of the scope's runs, those its checkpoint held (not in `runs`): made before a resume.
  std::int64_t runs_resumed = 0;
  std::int64_t units_done = 0;
  std::int64_t units = 0;
  // The sizing round under way (from 1; the units then are that round's, cut finer each round),
  // or 0 once the units are searched to their budgets.
  int sizing_round = 0;
  // Once the units are searched to their budgets: the runs of the scope's whole search, estimated
  // from every unit's size as it stands (search_estimate.h); nothing before, or with too few sizes.
  std::optional<std::int64_t> runs_estimate;
};

struct CheckpointFile;  // search_checkpoint.h

struct ExhaustiveOptions {
  std::uint64_t seed = 1;  // the world's seed: client streams; with all_plans false, the plan
  bool all_plans = true;
  int max_faults = 0;
  // Random key suffixes are explored (every order under each key prefix: suffix_draws.h), not
  // the seed's. The search is then cut into one unit per plan and first thread.
  bool explore_draws = false;
  std::optional<int> max_preemptions;  // none: unbounded
  bool reduce = true;                  // false: the full search over the same choices
  // The reduced search parks a client at a wait that made no progress (Environment::park); off
  // only in tests that measure what it saves. The full search never parks.
  bool park_unproductive_waits = true;
  // A job judges a class of the reduced search whose history and real-time order it met before
  // in the plan's units by the verdict it found then (search_run.cpp's VerdictCache); off only in
  // benchmarks that measure what it saves.
  bool share_class_verdicts = true;
  // Tests and benchmarks only: every store step is a scheduling point, also those that commute
  // with every other client's (WorldOptions::split_inert_steps): the full search over every
  // interleaving of the store's steps, which the soundness tests compare the search with.
  bool split_inert_steps = false;
  // With reduce false: the full search, pruned where it meets a state it explored before
  // (dpor.h). Every outcome is still reached; the attempts' reads (observe_attempts) are not.
  bool cache_states = false;
  bool broken_states = false;            // tests only: states without the operation events so far
  bool broken_independence = false;      // tests only
  bool broken_reads_as_decided = false;  // tests only: DporOptions::broken_reads_as_decided
  bool broken_fetches_inline = false;    // tests only: DporOptions::broken_fetches_inline
  bool broken_draws = false;             // tests only: DporOptions::broken_draws
  bool check_reuse = false;              // tests only: DporOptions::check_reuse
  bool broken_reuse = false;             // tests only: DporOptions::broken_reuse
  // Tests only: runs share a class verdict when the steps that recorded their histories' events
  // are ordered alike, whatever the events say (search_run.cpp's VerdictCache).
  bool broken_class_key = false;
  // Tests only: explore the real-time order of operations by scheduling (footprint.h) instead
  // of judging each execution by its class's most ordered schedules (real_time_orders.h).
  bool real_time_by_schedule = false;
  std::int64_t max_executions = 20'000'000;  // per plan, shared evenly by its units
  std::size_t max_plans = 200'000;
  // Units are cut below the root until the search has this many (search_units.h); 1 keeps one
  // unit per plan and first thread. Outcomes do not depend on it; executions only by the few
  // classes a finer cut searches twice, abandoned runs more. It sets how evenly shards share a
  // search (they are dealt these units, before sizing): 256 rather than 64 brought the slowest of
  // four hc-queue 3 x 3 shards (seed 5) from 1.65 to 1.17 times their mean.
  std::size_t units_wanted = 256;
  // A search cut below the root sizes its units in rounds of this many runs each, cutting again
  // those that do not finish (search_sizing.h); 0: no sizing. Outcomes do not depend
  // on it; the runs sleep sets abandon do, and the first units' sizes, which jobs share out.
  std::int64_t sizing_runs = 2048;
  // Sizing only: the rounds that run the units the usual rounds never reached keep the units in
  // progress (each holding its search's state in memory) within this many (search_sizing.cpp).
  std::size_t sizing_going_max = 2048;
  // Tests only: the search returns (not exhausted, nothing searched after) once sizing has run
  // this many rounds and saved them, as a search killed there would leave its checkpoint.
  std::optional<int> stop_after_sizing_rounds;
  int jobs = 1;
  Shard shard;
  std::string checkpoint_file;  // "" = none
  // Runs between two saves of a unit in progress (a unit also saves when its budget stops it),
  // and at least between two writes of the checkpoint file (search_checkpoint.h: a large file is
  // written less often), so a killed search loses the runs since the last write.
  std::int64_t checkpoint_every = 100'000;
  std::string checkpoint_identity;  // set by explore_exhaustively: the search the file is for
  // Set by explore_exhaustively: checkpoint_file as every scope the search runs shares it, read
  // once (search_checkpoint.h).
  std::shared_ptr<CheckpointFile> opened_checkpoint;
  // Two-phase sharding of a search cut below the root. `sizing_only`: cut and size every scope's
  // units (saved to checkpoint_file, which it needs), then stop: the result says what sizing
  // finished. `deal_from`: a file such a search (unsharded, its sizing done) saved; the shard
  // takes every N-th of its sized units, each with what sizing found of it, instead of cutting
  // and sizing its own first units — so the shards share the one large first unit a search may
  // have, which dealing first units gives to one shard whole.
  bool sizing_only = false;
  std::string deal_from;      // "" = none
  std::string deal_identity;  // set by explore_exhaustively: the unsharded search's identity
  std::string deal_digest;    // set by explore_exhaustively: the hex digest of deal_from's bytes
  // Set by explore_exhaustively: deal_from parsed once for every scope the search runs.
  std::shared_ptr<const nlohmann::json> deal_file;
  bool stop_at_first_violation = true;
  bool minimise = true;           // look for the smallest scope showing the violation
  bool collect_outcomes = false;  // keep every distinct outcome readable (tests), not digests
  // Outcomes also hold every transaction attempt's reads (keys and values) and commit answer,
  // per client (the soundness test's sharper comparison; slower).
  bool observe_attempts = false;
  // Called (from any job, one call at a time) each time the scope's runs pass a multiple of
  // progress_every, so a long search shows it is alive; none when either is unset.
  std::int64_t progress_every = 0;
  std::function<void(const ExhaustiveProgress&)> on_progress;
  // Called once the files the search takes (deal_from, checkpoint_file) are read, before it
  // runs: a caller's header printed here comes after a refusal of either file, never before it.
  std::function<void()> on_start;
  // Set by a caller that may ask the search to stop before its end (contend explore: SIGINT,
  // SIGTERM); read between runs, from any job. Once it reads true, each unit stops before its
  // next run as at a budget stop, no unit starts, a sizing round under way is kept as it was
  // begun with its units where the stop left them (search_sizing.h), the checkpoint is written,
  // and the result is `interrupted`. Resumed, the search ends with the totals of one never
  // stopped. Asked for while the checkpoint or deal_from file is still being read, it ends the
  // read and the search: nothing searched, the file as it was, and `error` says so
  // (reading_stopped).
  const std::atomic<bool>* stop_requested = nullptr;
};

// Whether the caller asked the search to stop (ExhaustiveOptions::stop_requested).
inline bool stop_requested(const ExhaustiveOptions& o) {
  return o.stop_requested != nullptr && o.stop_requested->load(std::memory_order_relaxed);
}

struct ExhaustiveFinding {
  Scenario scenario;  // the counterexample's scope, with its explicit plan
  std::string path;   // `contend replay <file> --path <path>` reproduces it
  model::Verdict verdict;
  std::vector<std::string> faults;  // "client 0, step 4 (commit): commit_unknown_result, ..."
  std::vector<std::string> draws;   // --draws all: "client 1, step 5 (read): its suffix under ..."
  std::int64_t steps = 0;
  bool minimal = false;  // no smaller scope (faults, operations, clients) shows this kind
  std::string minimal_note;
};

struct ExhaustiveResult {
  bool exhausted = false;    // every unit's subtree was searched to the end
  bool interrupted = false;  // stop_requested stopped it first (not exhausted)
  // What asked for the stop, in the statement's words, when its caller knows better than
  // "interrupted" (contend explore: "the time limit ran out (--max-seconds 60)"). Set by the
  // caller after the search; the search itself leaves it empty.
  std::string stop_cause;
  std::int64_t plans = 0;
  std::int64_t units = 0;              // units in this shard
  std::int64_t units_done = 0;         // searched to the end (or resumed from the checkpoint)
  std::int64_t resumed = 0;            // executions (and abandoned) taken over from the checkpoint
  std::int64_t executions = 0;         // complete executions: one per equivalence class
  std::int64_t blocked = 0;            // abandoned: equivalent to one explored (sleep sets)
  std::int64_t parked = 0;             // of blocked: parked at a wait that made no progress
  std::int64_t bound_hits = 0;         // executions that hit a step or time bound
  std::int64_t seeded_draws = 0;       // executions whose clients drew random values (seed's)
  std::int64_t states_cached = 0;      // reduction states: states the units cached (this process)
  std::int64_t state_caches_full = 0;  // ... units whose cache filled (StateCache::kSlotsMax)
  std::int64_t distinct_outcomes = 0;  // summed over the scopes searched
  bool smallest_first = false;         // every smaller scope was searched first
  std::int64_t scopes = 1;             // scopes searched (smallest first: up to the asked one)
  std::map<std::string, std::int64_t> verdicts;  // summary -> executions
  Coverage coverage;  // kind of event -> executions that met it (coverage.h)
  std::optional<ExhaustiveFinding> violation;
  std::set<std::string> outcomes;  // with collect_outcomes
  double seconds = 0;
  std::string error;  // bad input found on the way (too many plans, a bad checkpoint)
  // A checkpoint write that failed during the search (its results stand; they are not saved).
  std::string checkpoint_error;
  bool sized_only = false;       // sizing_only stopped the search after sizing (not exhausted)
  std::int64_t units_unrun = 0;  // sized_only: units of the last scope that sizing never ran
  // A budget stopped the search: the runs (executions and abandoned) its last scope's whole
  // search would take, by search_estimate.h's estimate; nothing when no unit says its size.
  std::optional<std::int64_t> runs_estimate;
  std::int64_t runs_in_scope = 0;  // the runs (executions and abandoned) the last scope made
  // The last scope searched (smallest first: a budget that ran out stops at a smaller scope than
  // the one asked for, and the estimate is of that one; with `error`, the scope whose search
  // refused), else the scope asked for.
  int last_clients = 0;
  int last_operations = 0;
  int last_faults = 0;
  std::string deal_digest;  // deal_from: the digest of the file the units were dealt from
};

// REQUIRES: validate_scenario(scenario) passed.
// "dpor", "states" or "none": the reduction as the CLI, the JSON and the proof statement name it.
std::string_view reduction_name(const ExhaustiveOptions& options);

// Which plans a search covers, as `--plans`, the JSON and the statements name them: "all" (every
// plan the mix allows), "seed" (the one the seed draws) or "scenario" (the scenario's own `plan`,
// which every search of it covers whatever the options say).
std::string_view plans_name(const Scenario& scenario, const ExhaustiveOptions& options);
// The one plan a search covers (nothing when it covers every plan): the scenario's own, else the
// seed's. REQUIRES: the scenario's recipe exists.
std::optional<Plan> searched_plan(const Scenario& scenario, const ExhaustiveOptions& options);
// "every plan (N)" (without a count: "every plan"), "the seed's plan [enqueue dequeue] [...]" or
// "the scenario's plan [...]": what a search covers, in the words of its statements.
std::string plans_covered(const Scenario& scenario, const ExhaustiveOptions& options,
                          std::optional<std::int64_t> plan_count);

// Why a search of this scope cannot start (too many clients, a fault budget with no fault to
// place), or empty. explore_exhaustively refuses the same; callers ask first to say it before
// anything else.
std::string refusal(const Scenario& scenario, const ExhaustiveOptions& options);

ExhaustiveResult explore_exhaustively(const Scenario& scenario, const ExhaustiveOptions& options);

// The scopes (clients, operations per client) a search of `clients` x `operations` runs when it
// runs every smaller one first, in its order: by operations in all, then by clients. (Each with
// every fault budget up to the asked one, in turn.)
std::vector<std::pair<int, int>> smaller_scopes(int clients, int operations);

// One line: what was proved, or what was covered when a budget ran out.
std::string proof_statement(const Scenario& scenario, const ExhaustiveOptions& options,
                            const ExhaustiveResult& result);

}  // namespace contend
