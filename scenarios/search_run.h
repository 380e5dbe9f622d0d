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

#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "scenarios/exhaustive.h"
#include "scenarios/search_checkpoint.h"
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
    if (progress_.runs < next_report_) return;
    next_report_ = (progress_.runs / o_.progress_every + 1) * o_.progress_every;
    o_.on_progress(progress_);
  }
  // The units counted from here on: a sizing round's (`sizing_round` from 1), or the search's own
  // once sizing has cut them (0). The runs go on counting.
  void restart_units(std::int64_t units_done, std::int64_t units, int sizing_round = 0) {
    std::lock_guard lock(mutex_);
    progress_.units_done = units_done;
    progress_.units = units;
    progress_.sizing_round = sizing_round;
  }
  // A unit searched to the end.
  void unit_done() {
    if (!enabled()) return;
    std::lock_guard lock(mutex_);
    ++progress_.units_done;
  }

 private:
  bool enabled() const { return o_.progress_every > 0 && o_.on_progress != nullptr; }

  const ExhaustiveOptions& o_;
  std::mutex mutex_;
  ExhaustiveProgress progress_;
  std::int64_t next_report_;
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

// Adds the units up into `r` in unit order, up to the first violation when the search stops there
// (that violation is moved out of `done`).
void add_up_units(const std::vector<Unit>& units, std::map<std::size_t, UnitResult>& done,
                  const ExhaustiveOptions& o, ExhaustiveResult& r);

}  // namespace contend
