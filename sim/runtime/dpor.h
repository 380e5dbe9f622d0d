// Exhaustive search by stateless re-execution, with dynamic partial-order reduction.
//
// The search tree has three kinds of nodes, in execution order: *scheduling* nodes (which
// thread's step runs next), *fault* nodes (which fault outcome a step gets: none, or one the
// scenario enables) and *draw* nodes (where a random key suffix the step draws sorts among those
// drawn under its key prefix before it, when the search explores draws: suffix_draws.h). A path
// through the tree is one execution; DporRun follows a path's prefix and then extends it with
// default choices, and DporExplorer picks the next path after each run. A step is what a client
// runs between two scheduling points; the world runs a store step that touches nothing shared
// (a read at a read version held already, a sleep, a commit that writes nothing) inside the step
// before it (world.h's split_inert_steps), so the tree branches only where orders can differ.
//
// Reduction (`reduce`): Source-DPOR with sleep sets (Abdulla, Aronis, Jonsson, Sagonas, POPL
// 2014). After each execution, every *race* — two dependent steps of different threads with no
// other step ordered between them by happens-before — adds a backtrack point at the earlier
// step's node, for a thread that can start the reversed order; sleep sets keep a thread that
// was already explored from a node asleep until a step dependent with its step runs, and an
// execution in which every ready thread sleeps is abandoned (it is equivalent to one explored).
// A read version fetch whose attempt has not ended may still read any key, so it wakes every
// sleeping commit while the run goes on; when the run ends, the sleep sets of the nodes it made
// are judged again with the attempts' final reads and with the dependence the races use, which
// the run's refused commits narrow (footprint.h's stays_asleep: a commit refused by a conflict
// before it commutes with the other clients' later commits), and a run whose thread sleeps at one
// of them is abandoned from there after all (its tail and the subtrees below it are never
// explored). Judged by `dependent` alone, a thread asleep with an applied commit woke at another
// client's refused commit whose checked ranges its writes meet, and the search explored that
// class a second time (priority-queue 3 x 3, seed plan: 3 of 677 executions).
// A step's ranges depend on the data it saw, so the racing step that a reversal moves first is
// judged by what it may do there (footprint.h's as_reversed) when the reversal's first threads
// are chosen.
// Dependence is footprint.h's, computed on the concrete execution. Without `reduce` every ready
// thread is tried at every node: the full search over exactly the same choices, for cross-checks.
// A run follows the last run's path up to the node advance() changed, so the steps before that
// node ran as they did then: finish() keeps their resolved footprints, vector clocks and races
// from the last run (a fetch whose attempt was still open there is resolved again and compared)
// and computes only the rest.
//
// State caching (`cache_states`, the full search only): before each new scheduling node the run
// hands the world's state (World::state_digest: the store, every operation event so far, what
// each client's steps returned since its operation began) with the faults placed and the
// preemptions so far to the explorer's StateCache; a state met before ends the run there, as an
// abandoned run. The search is a depth-first search of the state graph, which has no cycles
// (every step adds to the world): a state's continuations were all explored from its first visit
// (or are being, by the units its subtree was dealt to), and equal states have equal futures, so
// every outcome is still reached. Not combined with the reduction: pruning at a state would hide
// the races of its continuations from the nodes above it (stateful DPOR needs their summaries).
//
// Faults are choices, bounded by max_faults per execution; every draw choice is tried, unbounded
// (a draw has one place more than its prefix had draws); preemptions (switching away from a
// thread that could have continued) may be bounded too. A bound with the reduction explores a
// subset of the bounded space (Coons, Musuvathi, McKinley, OOPSLA 2013): the result says so.
//
// Invariants: a re-executed prefix meets the same nodes (the world is deterministic): checked at
// every node; each thread id is below kMaxThreads; a path's faults never exceed max_faults.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/runtime/footprint.h"
#include "sim/runtime/state_cache.h"
#include "sim/runtime/strategy.h"

namespace contend {

inline constexpr int kMaxThreads = 64;

struct DporOptions {
  int max_faults = 0;
  std::optional<int> max_preemptions;  // none: unbounded
  bool reduce = true;
  bool cache_states = false;         // full search only (reduce false): prune at states met before
  bool broken_states = false;        // tests only: states without the operation events
  bool broken_independence = false;  // tests only: a wrong dependence relation
  bool broken_reads_as_decided = false;  // tests only: reads judged by the keys that decided them
  bool broken_fetches_inline = false;    // tests only: Strategy::fetches_inline
  bool broken_draws = false;             // tests only: DependenceRule::broken_draws
  // Tests only: after each run, compute afresh what was kept from the last run (the resolved
  // steps, vector clocks and races before the step the path changed) and assert it is equal.
  bool check_reuse = false;
  // Tests only: keep a fetch whose attempt was still open where the path changed without
  // resolving it again to compare (what check_reuse must catch).
  bool broken_reuse = false;
  // Invocations and completions depend on each other (footprint.h): the real-time order is
  // explored by scheduling. Off, the caller checks each execution's most ordered schedules.
  bool real_time_dependence = false;

  DependenceRule rule() const { return {real_time_dependence, broken_independence, broken_draws}; }
};

enum class NodeKind : std::uint8_t { schedule, fault, draw };

struct SearchNode {
  NodeKind kind = NodeKind::schedule;
  bool schedules() const { return kind == NodeKind::schedule; }
  // A fault or draw node: whether a path may take its next choice, faults within `max_faults`.
  bool has_next_choice(int max_faults) const {
    if (schedules() || choice + 1 >= options) return false;
    return kind == NodeKind::draw || faults_before + 1 <= max_faults;
  }
  // Scheduling node: the ready threads, the threads to try, tried, and asleep on arrival.
  std::uint64_t enabled = 0;
  std::uint64_t backtrack = 0;
  std::uint64_t done = 0;
  std::uint64_t sleep = 0;
  int thread = -1;             // the thread chosen on the current path
  int previous = -1;           // the thread that ran the step before this node (-1: none)
  int preemptions_before = 0;  // preemptions on the path before this node
  // Per thread: its step from here as far as explored (faults merged), or as inherited asleep.
  std::vector<std::shared_ptr<ResolvedStep>> footprints;
  // Fault or draw node (a draw's site is unused).
  FaultSite site = FaultSite::step;
  std::uint32_t options = 1;
  std::uint32_t choice = 0;
  int faults_before = 0;
};

// One point of a path as scripts and reproduction commands spell it: a thread for a scheduling
// node, `f<choice>` for a fault node, `d<choice>` for a draw node.
std::string path_to_string(const std::vector<SearchNode>& nodes);
// Parses path_to_string's output into nodes to follow; nothing (and `error` set) when malformed.
std::optional<std::vector<SearchNode>> parse_path(const std::string& text, std::string& error);

// The strategy for one execution: follows the first `follow` nodes, then extends the path.
class DporRun final : public Strategy {
 public:
  // `states`: where explored states are kept when options.cache_states (else unused).
  DporRun(std::vector<SearchNode>* nodes, std::size_t follow, const DporOptions& options,
          StateCache* states = nullptr)
      : nodes_(nodes), follow_(follow), options_(options), states_(states) {}
  std::string name() const override { return "dpor"; }
  bool chooses_every_step() const override { return true; }
  std::size_t choose(std::span<const Candidate> candidates) override;
  std::uint32_t choose_fault(ClientId client, FaultSite site, std::uint32_t options) override;
  std::uint32_t choose_draw(ClientId client, std::uint32_t options) override;
  // The world's step log so far (the steps before the current node have finished).
  void watch(const StepLog* log) override { log_ = log; }
  bool caches_states() const override { return states_ != nullptr; }
  // Only where the path is new: a followed node's state was judged by the run that made it.
  bool wants_state() const override { return states_ != nullptr && cursor_ >= follow_; }
  bool arrive(const Digest128::Value& state) override;
  bool states_without_history() const override { return options_.broken_states; }
  bool reads_as_decided() const override { return options_.broken_reads_as_decided; }
  bool fetches_inline() const override { return options_.broken_fetches_inline; }
  bool blocked() const { return blocked_; }
  // Whether the followed prefix met different nodes than it recorded (nondeterminism).
  bool diverged() const { return diverged_; }
  // Where and how it did, by the path's spelling ("item 3 is 9, but that thread is not ready
  // there (ready: 0, 1)"); empty while it has not.
  const std::string& divergence() const { return divergence_; }
  // The nodes met so far, followed and new.
  std::size_t nodes_met() const { return cursor_; }

 private:
  std::size_t new_node(std::span<const Candidate> candidates);
  // A fault or draw node: the followed one's choice, or a new node's first.
  std::uint32_t choice_node(NodeKind kind, FaultSite site, std::uint32_t options);
  std::vector<SearchNode>* nodes_;
  std::size_t follow_;
  DporOptions options_;
  StateCache* states_;
  const StepLog* log_ = nullptr;
  std::size_t cursor_ = 0;
  std::size_t steps_seen_ = 0;
  int last_thread_ = -1;
  int faults_ = 0;
  int preemptions_ = 0;
  bool blocked_ = false;
  bool diverged_ = false;
  std::string divergence_;
};

// Where a search stands between two executions: enough to go on exactly as if it had not
// stopped (a checkpoint inside a unit).
struct DporProgress {
  std::vector<SearchNode> nodes;
  std::size_t follow = 0;
  std::size_t fixed_depth = 0;
  // The fixed depth the search's runs were made below: fixed_depth, unless the search was cut
  // deeper since (a sizing cut keeps the runs in the part that goes on). At most fixed_depth.
  std::size_t runs_from_depth = 0;
  std::int64_t executions = 0;
  std::int64_t blocked = 0;
};

// Drives the search: begin() gives the strategy for the next execution, finish() takes what the
// run left (its step log, whether it completed) and adds the backtrack points its races demand.
class DporExplorer {
 public:
  explicit DporExplorer(DporOptions options);
  // The next execution's strategy, or null when the space is exhausted.
  std::shared_ptr<DporRun> begin();
  void finish(DporRun& run, const StepLog& log, bool complete);
  bool exhausted() const { return exhausted_; }
  // Whether begin() would give another execution (it is not called: the search stays where it is).
  bool has_next() const;
  const std::vector<SearchNode>& path() const { return nodes_; }
  // The explored states (cache_states), or null. Shared by copies of the explorer.
  const StateCache* states() const { return states_.get(); }
  std::int64_t executions() const { return executions_; }
  std::int64_t blocked() const { return blocked_; }
  // Whether the last finished run was abandoned as equivalent to one explored before: blocked
  // on its way, or found so once its attempts' reads were known (then not to be judged).
  bool last_blocked() const { return last_blocked_; }
  // The last finished run's steps, resolved (its attempts' reads final when it completed).
  const std::vector<ResolvedStep>& resolved_steps() const { return resolved_; }
  // Whether the last finished run's happens-before order (add_races' vector clocks: the
  // transitive closure of its dependent pairs, footprint.h's ExecutionDependence) covers its
  // steps: with the reduction, for a run not abandoned on its way.
  bool orders_steps() const {
    return options_.reduce && ordered_steps_ == resolved_.size() && !resolved_.empty();
  }
  // The last finished run's vector clocks (clock_width() entries a step: for each thread, how
  // many of its steps come before this one in every schedule of the class, its own included) and
  // each step's 1-based position among its thread's steps: step a comes before step b exactly
  // when clocks()[b * clock_width() + thread of a] >= positions()[a]. REQUIRES: orders_steps().
  const std::vector<int>& clocks() const { return clocks_; }
  const std::vector<int>& positions() const { return positions_; }
  std::size_t clock_width() const { return clock_width_; }
  // Starts from a given prefix instead of the root (a shard's subtree, a unit).
  void start_from(std::vector<SearchNode> nodes, std::size_t fixed_depth);
  // REQUIRES: at least one execution finished, and begin() not called since.
  DporProgress progress() const;
  // Goes on from a saved progress. REQUIRES: nothing begun yet.
  void resume(DporProgress progress);

 private:
  bool advance();
  std::size_t first_step_asleep(const std::vector<ResolvedStep>& steps,
                                const std::vector<std::size_t>& node_of);
  std::size_t unchanged_steps(const StepLog& log, const std::vector<std::size_t>& node_of,
                              bool complete);
  // Adds the races of the first node_of.size() steps, keeping the first `kept` steps' clocks
  // (and their races, added before) from the last run.
  void add_races(const std::vector<ResolvedStep>& steps, const std::vector<std::size_t>& node_of,
                 std::size_t kept);
  void check_reused(const StepLog& log, bool complete, std::size_t unchanged,
                    const std::vector<std::size_t>& node_of);
  DporOptions options_;
  std::shared_ptr<StateCache> states_;
  std::vector<SearchNode> nodes_;
  std::size_t follow_ = 0;
  std::size_t fixed_depth_ = 0;      // nodes above this never change (a shard's root)
  std::size_t runs_from_depth_ = 0;  // DporProgress::runs_from_depth
  bool started_ = false;
  bool exhausted_ = false;
  bool last_blocked_ = false;
  std::int64_t executions_ = 0;
  std::int64_t blocked_ = 0;
  std::vector<ResolvedStep> resolved_;
  // add_races' vector clocks (clock_width_ entries a step) and each step's 1-based position
  // among its thread's steps, for the last run's first ordered_steps_ steps. Like first_in_v_,
  // kept across runs to spare allocations.
  std::vector<int> clocks_;
  std::vector<int> positions_;
  std::size_t clock_width_ = 0;
  std::size_t ordered_steps_ = 0;
  std::size_t last_run_steps_ = 0;  // the last finished run's steps, all in resolved_
  ResolvedStep reresolved_;         // unchanged_steps' buffer
  std::vector<int> first_in_v_;     // add_races' per-race buffer
};

}  // namespace contend
