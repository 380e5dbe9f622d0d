// Sizing an exhaustive search's units before its jobs or shards share them out, and dealing the
// sized units of a whole search to shards (ExhaustiveOptions::sizing_only and deal_from).
//
// Units cut below the root differ in size by orders of magnitude (hc-queue 3 x 2, the seed's
// plan: one of its 67 units holds 56% of the runs), and the job that draws the largest sets the
// search's time. So a search cut below the root sizes a shard's units before its jobs share them:
// each round gives every unit still going sizing_runs more runs, and cuts each one its runs did
// not finish kSizingCutLevels nodes deep (split_stopped: its search goes on in its first part,
// the threads it has not taken at those nodes are fresh parts) — for kSizingRoundsMax rounds, while
// the parts of one of the shard's first units (a lineage) have used under half of its budget.
// A lineage with kSizingGoingMax parts going is cut no further, so its fresh parts may never run.
// Sizing alone (`sizing_only`, which runs once for every shard of a dealt search) goes on with
// rounds that run those fresh parts and cut the ones that do not finish, the last round cutting
// none — as many as keep the units in progress (each holds its search's state) within a bound,
// those rooted highest first. Within that bound every unit it saves has run, and no part of a
// large lineage is dealt unsized.
// Whether a part is cut depends on its lineage alone, never on jobs, shards or other units: the
// units, and the totals, are the same however the search is shared out. (The fresh rounds' bound
// counts every lineage's units; sizing alone is never sharded, and jobs do not change it.) It does
// depend on the budget, so a checkpoint keeps the units after every round: a search killed while
// sizing goes on sizing from the last round saved, and one resumed after sizing (with another
// budget too) takes the units as they were cut. A stop asked for while a round runs saves that
// round with where the stop left its units, and the resumed search ends it as it was begun.
//
// Invariant (asserted after every round): a cut never loses or doubles a run — each part keeps
// the runs it made.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "scenarios/exhaustive.h"
#include "scenarios/search_checkpoint.h"
#include "scenarios/search_run.h"
#include "scenarios/search_units.h"

namespace contend {

struct SizedUnits {
  std::vector<Unit> units;
  std::vector<std::int64_t> budgets;            // by unit: runs it may reach (sizing's included)
  std::map<std::size_t, UnitResult> done;       // by unit: finished, or stopped for good
  std::map<std::size_t, UnitProgress> partial;  // by unit: where its search stands
  int rounds = 0;                               // sizing rounds run (saved ones included)
  // The round a stop cut short, as the checkpoint keeps it: the next round to run (the units'
  // progress above is where the stop left them in it).
  std::optional<SizingRoundUnderWay> round_under_way;
  bool interrupted = false;  // stopped by stop_after_sizing_rounds (tests) or stop_requested
};

// Share `k` (0-based) of `total` split into `parts` as evenly as whole runs allow.
inline std::int64_t even_share(std::int64_t total, std::int64_t parts, std::int64_t k) {
  return total / parts + (k < total % parts ? 1 : 0);
}

// Sizes the shard's units `own` (going on from the rounds the checkpoint saved, or taking the
// units it kept once sizing finished), with what the checkpoint holds of them, and gives each its
// budget from its lineage's share (`shares`, by unit of `own`); false (and `error`) when the file
// does not fit.
bool units_to_search(const std::vector<Scenario>& planned, const std::vector<Root>& roots,
                     std::vector<Unit> own, const std::vector<std::int64_t>& shares,
                     const ExhaustiveOptions& o, Checkpoint& checkpoint, ProgressMeter& meter,
                     SizedUnits& sized, std::string& error);

// Two-phase sharding (ExhaustiveOptions::deal_from): the whole search's units as the file of its
// sizing holds them, each with what sizing found of it and the budget the whole search gives it;
// the shard takes every N-th, as a lineage of its own whose share is that budget, and what its own
// checkpoint holds of them. `first`: the whole search's first units (the same in every shard),
// `shares` theirs; on return, `shares` holds the dealt units' (by unit of `sized`).
bool deal_sized_units(const std::vector<Scenario>& planned, std::vector<Unit> first,
                      std::vector<std::int64_t>& shares, const std::string& scope,
                      const ExhaustiveOptions& o, Checkpoint& checkpoint, SizedUnits& sized,
                      std::string& error);

// Sizing only (ExhaustiveOptions::sizing_only): the totals of what sizing ran into `r`, the units
// it left going counted with their runs so far (they are not searched to the end).
void total_after_sizing(const SizedUnits& sized, const ExhaustiveOptions& o, ExhaustiveResult& r);
// The units a search counts when it ends before they do (sizing only, a stop asked for): those in
// `done` and, for each unit in progress not among them, what is saved of it, stopped where its
// search stands (search_estimate.h sizes it from there).
std::map<std::size_t, UnitResult> with_units_in_progress(
    std::map<std::size_t, UnitResult> done, const std::map<std::size_t, UnitProgress>& partial);

}  // namespace contend
