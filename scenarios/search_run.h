// Running an exhaustive search's units (exhaustive.h, search_units.h): each unit's DporExplorer
// goes from its fixed path, or from where a checkpoint or an earlier budget round left it, up to
// its budget; every execution is judged for its whole class (real_time_orders.h) and its outcome
// kept, and the first violation is replayed into the counterexample a user reproduces. Units are
// shared out to `jobs` threads, a unit at a time each, with one progress meter for all.
//
// Invariants: a unit's result depends on the unit, its budget and where it resumed from, never on
// the job that ran it or on other units — except that units of later plans stop once an earlier
// plan showed a violation, when the search stops at the first. Each unit that ends is told to the
// checkpoint as it ends.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "scenarios/coverage.h"
#include "scenarios/exhaustive.h"
#include "scenarios/search_checkpoint.h"
#include "scenarios/search_estimate.h"
#include "scenarios/search_units.h"

namespace contend {

// Counts a scope's runs over every job and reports each multiple of progress_every.
class ProgressMeter {
 public:
  ProgressMeter(const ExhaustiveOptions& o, ExhaustiveProgress start)
      : o_(o), progress_(start), next_report_(o.progress_every) {}

  void add_runs(std::int64_t runs) {
    if (runs == 0 || !enabled()) return;
    std::lock_guard lock(mutex_);
    progress_.runs += runs;
    report_if_due();
  }
  // The same, with the size of the unit (its index in the units searched) as it stands.
  void add_runs(std::int64_t runs, std::size_t unit, const UnitSize& size) {
    if (!enabled()) return;
    std::lock_guard lock(mutex_);
    if (unit < sizes_.size()) sizes_[unit] = size;
    progress_.runs += runs;
    report_if_due();
  }
  // Once sizing has cut the units: each one's plan and size so far, so that reports estimate the
  // whole search (ExhaustiveProgress::runs_estimate), and the runs of theirs the checkpoint held.
  // Units run in sizing rounds are not tracked.
  void start_estimates(std::vector<std::size_t> plan_of, std::vector<UnitSize> sizes,
                       std::int64_t runs_resumed) {
    std::lock_guard lock(mutex_);
    plan_of_ = std::move(plan_of);
    sizes_ = std::move(sizes);
    progress_.runs_resumed = runs_resumed;
  }
  // Whether reports estimate the whole search: add_runs wants each unit's size then.
  bool estimates() const { return enabled() && !sizes_.empty(); }
  // The units counted from here on: a sizing round's (`sizing_round` from 1), or the search's own
  // once sizing has cut them (0). The runs go on counting.
  void restart_units(std::int64_t units_done, std::int64_t units, int sizing_round = 0) {
    std::lock_guard lock(mutex_);
    progress_.units_done = units_done;
    progress_.units = units;
    progress_.sizing_round = sizing_round;
  }
  // A unit whose run here ended: searched to the end, or stopped by its budget.
  void unit_ended(std::size_t unit, const UnitResult& r) {
    if (!enabled()) return;
    std::lock_guard lock(mutex_);
    if (r.exhausted) ++progress_.units_done;
    if (unit < sizes_.size()) sizes_[unit] = size_of(r, o_.max_faults);
  }

 private:
  bool enabled() const { return o_.progress_every > 0 && o_.on_progress != nullptr; }
  void report_if_due() {
    if (progress_.runs < next_report_) return;
    next_report_ = (progress_.runs / o_.progress_every + 1) * o_.progress_every;
    if (!sizes_.empty()) {
      // A unit's last runs are counted here before unit_ended gives its size with them.
      const std::optional<std::int64_t> runs = combine_unit_sizes(plan_of_, sizes_);
      progress_.runs_estimate.reset();
      if (runs) progress_.runs_estimate = std::max(*runs, progress_.runs + progress_.runs_resumed);
    }
    o_.on_progress(progress_);
  }

  const ExhaustiveOptions& o_;
  std::mutex mutex_;
  ExhaustiveProgress progress_;
  std::int64_t next_report_;
  std::vector<std::size_t> plan_of_;  // by unit, once start_estimates was called
  std::vector<UnitSize> sizes_;
};

// Runs the units of this shard, `jobs` at a time, each up to budgets[unit] runs (a unit with a
// budget of 0 waits); `done` holds the units already finished (handed back with the rest),
// `partial` where saved units stand. Results by unit index.
std::map<std::size_t, UnitResult> run_units(const std::vector<Scenario>& planned,
                                            const std::vector<Root>& roots,
                                            const std::vector<Unit>& units,
                                            const std::vector<std::int64_t>& budgets,
                                            const ExhaustiveOptions& o,
                                            std::map<std::size_t, UnitResult> done,
                                            const std::map<std::size_t, UnitProgress>& partial,
                                            Checkpoint& checkpoint, ProgressMeter& meter);

// Adds the run counters of a unit's (UnitResult) or a scope's (ExhaustiveResult) search into the
// totals: runs, verdicts and coverage. The rest — outcomes, exhaustion, the violation, whether a
// state cache filled — each caller combines in its own way.
template <typename Part>
void add_run_counts(ExhaustiveResult& total, const Part& part) {
  total.executions += part.executions;
  total.blocked += part.blocked;
  total.parked += part.parked;
  total.bound_hits += part.bound_hits;
  total.seeded_draws += part.seeded_draws;
  total.states_cached += part.states_cached;
  total.resumed += part.resumed;
  for (const auto& [verdict, n] : part.verdicts)
    total.verdicts[verdict] += n;
  add_coverage(part.coverage, total.coverage);
}

// Adds the units up into `r` in unit order, up to the first violation when the search stops there
// (that violation is moved out of `done`).
void add_up_units(const std::vector<Unit>& units, std::map<std::size_t, UnitResult>& done,
                  const ExhaustiveOptions& o, ExhaustiveResult& r);

}  // namespace contend
