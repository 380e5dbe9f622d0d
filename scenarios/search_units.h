// How the exhaustive search (exhaustive.h) cuts its tree into units that jobs, shards and
// checkpoints share out: a unit is a subtree below a fixed path, searched by one DporExplorer.
//
// The cut explores every ready thread at each node of a unit's fixed path — a superset of what
// the reduction would try there, which is always sound — and keeps the sleep sets of one search
// across it: at a cut node, the threads taken by earlier units (sibling order: thread number)
// sleep in the later ones, with the footprint of their step there, until a step dependent with
// theirs runs. So no class is searched in two units, and a unit whose threads all sleep is dropped.
//
// Depth: one unit per (plan, thread ready at the first step) — a search of many plans has units
// enough. When the root gives fewer than `units_wanted` (the seed's plan, a few plans), every unit
// is cut one node deeper, level by level, until there are that many or the cut stops adding units.
// Cutting below the root needs the sleep-set footprints of every thread at every cut node, found
// by probe runs (each merged over the draw choices inside the step, as a search merges them). The
// draw nodes a level passes (--draws all) are cut too: one set of units per combination of their
// choices. It is done only without a preemption bound, which could forbid one of a cut node's
// threads, and without a fault budget: cutting below a commit's fault choices works the same way,
// but it cost idempotent-queue-proof 13% more executions and twice the time (its 20 root units
// became 283, and their probes weigh on a search of 2,069 classes), and a seed plan's search at
// 3 x 3 with one fault (idempotent-queue, 3 root units) 6% more executions and four times the
// runs abandoned: 4.9-5.3 s on one job against 4.2-4.4 s uncut, 2.8-3.2 s on two against
// 3.4-4.7 s. Two jobs gain from it where one job loses, and the cut may not depend on the jobs.
// The cut depends on the scope alone, never on jobs or shards, so every shard sees the same units
// and the totals, outcomes and first violation do not depend on how the units were shared out.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "scenarios/exhaustive.h"
#include "scenarios/runner.h"
#include "scenarios/scenario.h"
#include "sim/runtime/dpor.h"

namespace contend {

// A plan's root: the threads ready at the first step and, for the reduction, each one's first
// step over every fault choice it may take (null: more combinations than a probe tries; that
// thread is then never put to sleep, which is sound, only less reduced).
struct Root {
  std::uint64_t enabled = 0;
  bool probed = false;  // first_steps holds the probes (reduction only)
  std::vector<std::shared_ptr<ResolvedStep>> first_steps;  // by thread
};

// A subtree of one plan's search. A root unit (empty `path`) is the subtree of `thread`'s first
// step, its node built from the root's probes when the unit runs; a deeper unit's `path` is every
// node from the root to its own, all fixed: the last a scheduling node, or a draw node at the
// choice the unit takes there.
struct Unit {
  std::size_t plan = 0;
  int thread = 0;                // the thread that takes the first step
  std::vector<SearchNode> path;  // shares its footprints: copy with unit_path before searching
  std::size_t lineage = 0;       // sizing (search_sizing.h): the shard's first unit it was cut from
};

inline constexpr std::size_t kCutDepthMax = 8;

DporOptions dpor_options(const ExhaustiveOptions& options);
// How a search's runs are run (an exhaustive world driven by `strategy`), the same for the units'
// runs and the cut's probes, or a probe would not replay what a unit ran.
RunControls search_run_controls(const ExhaustiveOptions& options,
                                std::shared_ptr<Strategy> strategy);
// Whether units may be cut below their root (the reduced search without a preemption bound or a
// fault budget): sizing cuts too, so without it there is nothing to size.
bool may_cut_below_root(const ExhaustiveOptions& options);

// The threads ready at a plan's first step (one run).
std::uint64_t probe_enabled(const Scenario& planned, const ExhaustiveOptions& options);

// Each ready thread's first step, for the sleep sets at the root (a run per thread and fault
// choice). Does nothing without the reduction or when done already.
void probe_first_steps(const Scenario& planned, const ExhaustiveOptions& options, Root& root);

// Every plan's units, in plan order and, within a plan, in the order one search would take them.
// Probes each plan's first steps when it cuts below the root. REQUIRES: roots[p].enabled set.
std::vector<Unit> cut_units(const std::vector<Scenario>& planned, std::vector<Root>& roots,
                            const ExhaustiveOptions& options);

// A unit its budget stopped, cut at its first free scheduling node (its path one scheduling node
// longer, with the draw nodes before it at the choices the search stands at): first the
// unit of the thread its search is taking there, which goes on from `resumed` with what the unit
// found so far (the subtrees of the threads it took there before are in that), then one fresh unit
// per thread ready and awake there that it has not taken, the taken ones asleep in them, then one
// per choice still to take at each of those draw nodes, the deepest first.
// Runs no search: the classes and executions are those of the unit, less the runs sleep sets
// abandon, as for any cut.
struct SplitUnit {
  std::vector<Unit> units;
  DporProgress resumed;
};

// Nothing when the unit may not be cut (may_cut_below_root) or its search stands at its fixed
// path. REQUIRES: `stopped` is the unit's progress.
std::optional<SplitUnit> split_stopped(const Scenario& planned, const ExhaustiveOptions& options,
                                       const Unit& unit, const DporProgress& stopped);

// The nodes a unit's explorer starts from (DporExplorer::start_from, all fixed), with footprints
// of its own: the explorer merges into them, and units run in parallel.
// REQUIRES: for a root unit with the reduction, probe_first_steps ran on `root`.
std::vector<SearchNode> unit_path(const Root& root, const Unit& unit);

// Whether a saved progress lies in the unit's subtree (its fixed nodes are the unit's).
bool progress_belongs_to(const DporProgress& progress, const Unit& unit);

}  // namespace contend
