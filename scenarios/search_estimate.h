// How large a search is that a budget stopped: an estimate of the runs (executions and abandoned
// ones) its whole space takes, from where each unit's depth-first search stood when it stopped.
//
// A stopped unit's path says how much of its tree the search has passed: at each node, the
// choices it finished before the one it is in, out of the choices known there (the threads taken
// and still to try; a fault or draw node's options). Taking every choice at a node to hold as
// many runs as the others (Knuth's estimate of a backtrack tree, from one path), the fraction
// passed is the sum over the path of (finished / known) times the product of 1 / known above, and
// the unit's runs are its runs so far over that fraction. The path is read from the depth the
// unit's runs were made below (DporProgress::runs_from_depth): a sizing cut fixes nodes whose
// choices the search had begun, and hands the ones not taken yet to units of their own.
//
// It is an estimate, not a bound: the reduction may still add threads to try at the nodes it
// passed, and later choices are often smaller than the first (more threads asleep). Measured on
// hc-queue 3 x 3 (the seed's plan: 5.17 million runs in all), stopped by budgets of 4% to 19% of
// that it said 4.4 to 5.9 million, and its progress lines 6.0 to 8.1 million. (Weighing the
// finished choices by the runs they took, and the choices to take by their mean, said 8.5 to 25
// million at those budgets, when the search was 5.22 million runs: the first choice at a node, with
// fewer threads asleep, is the largest.) A finished unit counts its own runs; a unit that never
// ran, or whose path has passed nothing yet, counts the mean of the estimated units of its plan (of
// every plan, when none of its own has a size). That holds with few units sized too: after sizing
// alone (14% of the runs made), hc-queue 3 x 3 (836 of its 1,611 units never run) said 4.2 million,
// hc-queue 3 x 2 in rounds of 8 or 16 runs with 16 units in progress at most (more than half of the
// units never run) 10,000 to 11,000 of 23,000, and the progress lines of hc-queue 4 x 2 (3,274
// units, 346 of them finished) 190 million after one million runs and 220 after two, where the
// estimates of the rest of the first 10 million runs said 240 to 440. (Each unit's share of its
// plan's tree, taking every choice at a node to hold as many runs as the others, and the runs per
// share of the sized units, said 4,800 at hc-queue 3 x 2, 2.1 million at 3 x 3 and 73 million at 4
// x 2: the choices a cut hands out differ in size far more than the choices of one path.)
//
// Invariant: a unit's estimate is never below the runs it made (a fraction is at most 1).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "scenarios/search_checkpoint.h"
#include "scenarios/search_units.h"
#include "sim/runtime/dpor.h"

namespace contend {

// The fraction of a stopped unit's tree its search has passed: 0 while it is still in the first
// choice of every node it reads.
double passed_fraction(const DporProgress& progress, int max_faults);

// The largest estimate said: a path deep below its only passed choice can make the fraction so
// small that runs over it leave every count type.
inline constexpr double kRunsEstimateMax = 1e18;

// What a unit says of its size: the runs it made, and its whole subtree's runs when it says
// anything of them (finished: its runs; stopped or going: the estimate, once its path has passed
// anything).
struct UnitSize {
  double made = 0;
  std::optional<double> whole;
};

UnitSize size_of(const UnitResult& result, int max_faults);
// A unit whose search stands at `progress` after `made` runs.
UnitSize size_of(const DporProgress& progress, double made, int max_faults);

// The runs of the whole search from every unit's size (by unit; `plan_of`: each unit's plan): the
// known sizes, and for each unit without one the mean of its plan's (else of all), less what it
// made; nothing when no unit has a size.
std::optional<std::int64_t> combine_unit_sizes(const std::vector<std::size_t>& plan_of,
                                               const std::vector<UnitSize>& sizes);

// The runs of the whole search of `units`, from what `done` holds of them (finished, or stopped
// with stopped_at); nothing when no unit says anything of its size.
std::optional<std::int64_t> estimate_runs(const std::vector<Unit>& units,
                                          const std::map<std::size_t, UnitResult>& done,
                                          int max_faults);

// How the statements and progress lines say an estimate, to two significant digits: a count
// ("240 million", "5.2 million", "43000"; trillions from 1e12), a fraction as a percentage
// ("0.41%", "under 0.01%") and a duration ("0.3 s", "40 s", "12 min", "2.4 h", "31 days", "32
// years").
std::string about_count(double n);
std::string percent(double fraction);
std::string about_duration(double seconds);

}  // namespace contend
