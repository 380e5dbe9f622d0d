// The runner turns a scenario and a seed into a world, runs the workload on it, and returns the
// history, the metrics and the run hash. It is deterministic: the same scenario, seed and
// strategy choices give a byte-identical history and hash.
//
// Workload: `clients` slots each run `operations_per_client` operations drawn from the mix with
// the slot's own random stream; every inserted value is unique ("v<slot>-<n>"). A crashed client
// gets an `info` completion for its operation in flight and continues under a fresh process id.
// With `drain`, one more client then removes items until the queue reports empty.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/history.h"
#include "scenarios/scenario.h"
#include "sim/recipes/recipe.h"
#include "sim/runtime/world.h"

namespace contend {

struct Percentiles {
  std::int64_t p50 = 0, p90 = 0, p99 = 0, max = 0;
};

struct RunMetrics {
  std::map<std::string, std::int64_t> operations;  // "<f> <ok|fail|info>" -> count
  std::int64_t ops_ok = 0, ops_fail = 0, ops_info = 0, ops_incomplete = 0;
  AttemptStats attempts;
  std::map<std::int64_t, std::int64_t> retries_histogram;  // retries of one op -> ops
  Percentiles retries;
  Percentiles latency_us;
  double virtual_seconds = 0;         // of the main phase (before the drain)
  double virtual_seconds_in_all = 0;  // with the drain: what max_virtual_seconds bounds
  double throughput_ops_per_s = 0;    // ok operations of the main phase per virtual second
  std::int64_t steps = 0;
  BoundHit bound = BoundHit::none;
  bool bound_in_drain = false;  // `bound` was hit in the drain, after every client finished
  std::int64_t keys_left = 0;   // keys in the store when the run ended
  std::uint64_t run_hash = 0;
  std::uint64_t unseed = 0;
};

struct FaultSummary {
  FaultKnobs knobs;  // the knobs in force for this seed (drawn per seed in swarm mode)
};

struct SeedRun {
  std::uint64_t seed = 0;
  model::History history;
  RunMetrics metrics;
  FaultKnobs faults;
  std::vector<std::uint32_t> choices;               // scheduling choices (non-random strategies)
  std::vector<AttemptRecord> attempts;              // when RunControls::record_attempts
  std::map<std::int64_t, ClientId> process_client;  // history process id -> world client
  std::map<std::int64_t, int> process_slot;         // history process id -> client slot
  StepLog step_log;                                 // exhaustive runs: the main phase's steps
  std::int64_t random_draws = 0;                    // clients' draws from their streams
  std::map<Bytes, Bytes, KeyLess> final_state;      // exhaustive runs: the store at the end
  bool drained = false;                             // the drain phase ended on an empty queue
  std::optional<std::int64_t> drain_process;        // the drain's history process, once it ran
  // A recipe parked a client at a wait that made no progress (RunControls::park_unproductive_
  // waits): the run is no evidence, and the search represents it by the run without that wait.
  bool parked = false;
  // With the serializability check: how many committed transactions were replayed, and the
  // first read that did not replay (a store bug), if any.
  std::int64_t transactions_replayed = 0;
  std::optional<std::string> store_not_serializable;
  // RunControls::defer_serializability: the transactions to replay, until they are checked.
  std::vector<CommittedTransaction> unchecked_transactions;
  // A recipe met data contend cannot have produced (a key it wrote that no longer decodes): the
  // run is not evidence about the recipe; it is reported as a simulator fault, with this message.
  std::optional<std::string> simulator_fault;
};

struct RunControls {
  bool record_attempts = false;
  bool check_serializability = false;  // also on when the scenario's checks ask for it
  // Overrides the strategy (exploration, replay); shared so the caller can read it afterwards.
  // Null = earliest-due-first (the seeded latencies decide).
  std::shared_ptr<Strategy> strategy;
  // An exhaustive world (WorldOptions::exhaustive): faults are the strategy's choices.
  bool exhaustive = false;
  // The run's metrics (percentiles, throughput, run hash); off, only `bound` and `steps` are set,
  // and `attempts` in an exhaustive run (the search reads nothing else, millions of times).
  bool summarize = true;
  // Exhaustive only: key suffixes are the strategy's choices (WorldOptions::explore_draws).
  bool explore_draws = false;
  // Exhaustive only: recipes park clients at waits that made no progress
  // (WorldOptions::park_unproductive_waits); the reduced search's runs set it.
  bool park_unproductive_waits = false;
  // Exhaustive only: every store step a scheduling point (WorldOptions::split_inert_steps).
  bool split_inert_steps = false;
  // The serializability check (when on) is left to the caller: the run keeps its committed
  // transactions (SeedRun::unchecked_transactions) for check_serializability_of. A search checks
  // only the runs it judges; the runs it abandons are equivalent to runs it judges.
  bool defer_serializability = false;
};

// The fault knobs in force for this seed: the scenario's, or in swarm mode a draw within them.
FaultKnobs seed_faults(const Scenario& scenario, std::uint64_t seed);

// The operations each client runs for this seed: the scenario's explicit plan, or the mix drawn
// with each slot's own stream of the seed.
std::vector<ClientPlan> drawn_plan(const Scenario& scenario, RecipeKind kind, std::uint64_t seed);

// Runs the serializability check a run deferred (RunControls::defer_serializability), setting
// transactions_replayed and store_not_serializable; nothing when no transaction is left to check.
void check_serializability_of(SeedRun& run);

// REQUIRES: the scenario names a registered recipe (validated by validate_scenario).
SeedRun run_seed(const Scenario& scenario, std::uint64_t seed, RunControls controls = {});

// Checks what parse_scenario cannot: that the recipe exists, the mix offers an operation of the
// recipe's kind, and the scope's operations in all (clients x operations_per_client, as the
// command line may have set them) fit a run (scenario.h); and that every key the file set can take
// effect (set_key_without_effect). Returns an error message, or nothing.
std::optional<std::string> validate_scenario(const Scenario& scenario);
// validate_scenario but for the keys the file set: a sweep judges those over its whole grid, where
// a key one grid point ignores may take effect at another (check_sweep).
std::optional<std::string> validate_scenario_values(const Scenario& scenario);
// "file:line: key: why": why a key the file set can never take effect in the scenario, and what
// would make it; nothing when it can (or the recipe is unknown: validate_scenario_values says so).
// Such a key is the other family's [mix] weight, [mix] or [priorities] beside a plan, [priorities]
// beside a FIFO recipe, faults.pause_us while faults.pause is 0, faults.swarm while no fault knob
// is above 0.
std::optional<std::string> set_key_without_effect(const Scenario& scenario, const SetKey& key);

// The scenario at a scope within its own: its first `clients` clients, each with at most
// `operations` operations; a plan keeps the arrays of those clients, cut to that length.
// REQUIRES: 1 <= clients <= scenario.clients, 0 <= operations <= scenario.operations_per_client.
Scenario within_scope(const Scenario& scenario, int clients, int operations);

// A 64-bit hash of the history's canonical fields and the final store state (seed_state).
std::uint64_t hash_history(const model::History& history, std::uint64_t seed_state);

}  // namespace contend
