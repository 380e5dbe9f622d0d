#include "scenarios/search_estimate.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "base/invariant.h"

namespace contend {

namespace {

// A node's choices: those finished before the current one, and all known.
struct Choices {
  double finished = 0;
  double known = 1;
};

// A node of the fixed path below runs_from_depth was cut there after the search began some of
// its choices: those not taken yet went to units of their own.
Choices choices_at(const SearchNode& n, int max_faults, bool fixed) {
  if (!n.schedules()) {
    const double choice = n.choice;
    const bool more = !fixed && n.has_next_choice(max_faults);
    return {choice, more ? static_cast<double>(n.options) : choice + 1};
  }
  // `done` holds the current thread and the finished ones; advance() tries these next.
  const std::uint64_t to_try = fixed ? 0 : n.backtrack & n.enabled & ~n.done & ~n.sleep;
  const int taken = std::popcount(n.done);
  CONTEND_ASSERT(taken >= 1, "a node on the path has taken its thread");
  return {static_cast<double>(taken - 1), static_cast<double>(taken + std::popcount(to_try))};
}

}  // namespace

double passed_fraction(const DporProgress& progress, int max_faults) {
  CONTEND_ASSERT(progress.runs_from_depth <= progress.fixed_depth &&
                     progress.fixed_depth <= progress.nodes.size(),
                 "a search's runs were made below its first fixed depth");
  double fraction = 0;
  double weight = 1;  // the share of the unit's tree below the current node
  for (std::size_t d = progress.runs_from_depth; d < progress.nodes.size(); ++d) {
    const Choices c = choices_at(progress.nodes[d], max_faults, d < progress.fixed_depth);
    fraction += weight * c.finished / c.known;
    weight /= c.known;
  }
  CONTEND_ASSERT(fraction >= 0 && fraction <= 1 + 1e-9, "a passed fraction lies in [0, 1]");
  return std::min(fraction, 1.0);
}

std::optional<std::int64_t> estimate_runs(const std::vector<Unit>& units,
                                          const std::map<std::size_t, UnitResult>& done,
                                          int max_faults) {
  std::size_t plans = 0;
  for (const Unit& u : units)
    plans = std::max(plans, u.plan + 1);
  std::vector<double> sized_runs(plans, 0);  // by plan: the units with a size, and their runs
  std::vector<double> sized_units(plans, 0);
  double total = 0;
  std::vector<std::size_t> unsized;  // units that say nothing of their size
  for (std::size_t index = 0; index < units.size(); ++index) {
    auto it = done.find(index);
    std::optional<double> runs;
    if (it != done.end()) {
      const UnitResult& r = it->second;
      const auto made = static_cast<double>(r.executions + r.blocked);
      if (r.exhausted) {
        runs = made;
      } else if (r.stopped_at) {
        const double fraction = passed_fraction(*r.stopped_at, max_faults);
        if (fraction > 0) runs = made / fraction;
      }
      if (!runs) total += made;  // counted at least, with the mean for the rest below
    }
    if (!runs) {
      unsized.push_back(index);
      continue;
    }
    total += *runs;
    sized_runs[units[index].plan] += *runs;
    sized_units[units[index].plan] += 1;
  }
  double all_runs = 0;
  double all_units = 0;
  for (std::size_t p = 0; p < plans; ++p) {
    all_runs += sized_runs[p];
    all_units += sized_units[p];
  }
  // Fewer than half of the units with a size (a budget below the number of units) say too little
  // of the others: the ones that finished in it are the smallest.
  if (all_units == 0 || 2 * all_units < static_cast<double>(units.size())) return std::nullopt;
  for (std::size_t index : unsized) {
    const std::size_t p = units[index].plan;
    double mean = sized_units[p] > 0 ? sized_runs[p] / sized_units[p] : all_runs / all_units;
    if (auto it = done.find(index); it != done.end()) {
      const auto made = static_cast<double>(it->second.executions + it->second.blocked);
      mean = std::max(mean - made, 0.0);  // its runs so far are counted already
    }
    total += mean;
  }
  return static_cast<std::int64_t>(std::llround(total));
}

}  // namespace contend
