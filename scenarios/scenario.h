// A scenario: everything that defines a family of simulation runs except the seed — the recipe,
// the clients and their operation mix, the latency model, the fault knobs, the scheduling
// strategy, the seed range, the checks and the verdict the scenario expects.
// Scenarios are written in TOML (docs/scenarios.md lists every key); parse_scenario rejects an
// unknown or misspelled key, a wrong type or an out-of-range value with a message naming the
// file, the key and the line.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/history.h"
#include "sim/runtime/faults.h"
#include "sim/runtime/latency.h"

namespace contend {

struct OperationMix {
  // FIFO recipes
  double enqueue = 1.0;
  double dequeue = 1.0;
  // priority recipes
  double push = 1.0;
  double pop_min = 1.0;
  double peek_min = 0.0;
  double pop_max = 0.0;
  double peek_max = 0.0;
};

// One operation of an explicit plan: what a client does, in order. A push carries its priority.
struct PlannedOperation {
  model::OpFunction f = model::OpFunction::enqueue;
  std::optional<std::int64_t> priority;
  friend bool operator==(const PlannedOperation&, const PlannedOperation&) = default;
  friend auto operator<=>(const PlannedOperation& a, const PlannedOperation& b) {
    if (a.f != b.f) return a.f <=> b.f;
    return a.priority.value_or(INT64_MIN) <=> b.priority.value_or(INT64_MIN);
  }
};
using ClientPlan = std::vector<PlannedOperation>;
// The length of a plan's longest client array: a planned scenario's operations_per_client.
inline int longest_client_plan(const std::vector<ClientPlan>& plan) {
  std::size_t longest = 0;
  for (const ClientPlan& p : plan)
    longest = std::max(longest, p.size());
  return static_cast<int>(longest);
}

// "enqueue", "push:3", ...: an operation as a plan writes it, and back (nothing when malformed).
std::string to_string(const PlannedOperation& op);
std::optional<PlannedOperation> parse_planned_operation(std::string_view text);

struct StrategyConfig {
  std::string name = "random";  // random | pct | dfs | dpor | replay
  int pct_depth = 3;
  int dfs_max_preemptions = 2;
  std::int64_t dfs_max_schedules = 100'000;
  std::vector<std::uint32_t> choices;   // replay
  int dpor_max_faults = 0;              // dpor: faults per execution
  std::string dpor_plans = "all";       // dpor: all | seed
  std::string dpor_draws = "seed";      // dpor: key suffixes in every order (all) | seed's
  std::string dpor_reduction = "dpor";  // dpor: dpor | states | none (exhaustive.h, reduce)
};

// The bounds of a scope, the same for a file's keys, the command line's --clients / --operations
// and a sweep's --vary. A run draws every client's operations before its first step and keeps
// each with the history, so their product is bounded too (validate_scenario): by the run's
// max_steps (each operation takes a step at least) and by kPlannedOperationsMax.
inline constexpr int kClientsMax = 1024;
inline constexpr int kOperationsPerClientMax = 1'000'000;
inline constexpr std::int64_t kPlannedOperationsMax = 10'000'000;

// A key a scenario file set, by its dotted name ("mix.push"), and the line it is on (0 when not
// known). validate_scenario refuses one whose value can never take effect in the scenario.
struct SetKey {
  std::string key;
  int line = 0;
};

struct Scenario {
  std::string file;  // where it was read from (for messages and reproduction commands)
  // The command line's --clients / --operations when they resized the file's scope (" --clients
  // 3 --operations 2"), which every reproduction command of this file must repeat; else empty.
  std::string scope_flags;
  std::string name;
  std::string description;
  std::string recipe = "queue";
  int clients = 4;
  int operations_per_client = 10;
  OperationMix mix;
  // An explicit plan (key `plan`): client i runs plan[i] instead of operations drawn from the
  // mix by the seed; `clients` is then plan.size().
  std::vector<ClientPlan> plan;
  std::int64_t priority_min = 0;
  std::int64_t priority_max = 3;
  bool drain = true;
  LatencyModel latency;
  FaultKnobs faults;
  bool swarm = false;
  StrategyConfig strategy;
  std::uint64_t seed_first = 1;
  std::uint64_t seed_last = 100;
  std::vector<std::string> checks = {"fast", "accounting"};
  std::string expect = "linearizable";  // linearizable | violation | a violation kind
  std::string model;                    // fifo | priority | (a named weaker spec); "" = by recipe
  std::int64_t max_steps = 5'000'000;
  std::int64_t max_virtual_seconds = 3600;
  int retry_limit = 1000;
  std::int64_t search_budget = 2'000'000;
  // The keys the file set, in the order read (parse_scenario); none for a scenario built in code.
  // Not part of its contents: to_toml writes the keys that apply, whatever was set.
  std::vector<SetKey> set_keys;
};

struct ScenarioError {
  std::string message;  // "file:line: key: what is wrong"
};

// Parses TOML text. `file` is used in messages only.
std::optional<Scenario> parse_scenario(const std::string& text, const std::string& file,
                                       ScenarioError& error);
// Writes a scenario as TOML that parse_scenario reads back to a scenario that runs the same: every
// key that can take effect in it, and no other (validate_scenario would refuse that key: the
// other family's [mix] weights, [priorities] beside a FIFO recipe or a plan, pause_us while
// pause is 0, swarm while no fault knob is above 0).
std::string to_toml(const Scenario& scenario);
// The digest of everything a scenario says (to_toml's text, so its scope too, but not the path it
// was read from), as 32 hex digits: runs and searches of one scenario name the same digest
// wherever the file lies, and an edited file names another.
std::string contents_digest(const Scenario& scenario);

// Reads and parses a file.
std::optional<Scenario> load_scenario(const std::string& path, ScenarioError& error);

}  // namespace contend
