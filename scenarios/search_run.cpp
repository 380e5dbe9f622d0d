#include "scenarios/search_run.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>
#include <unordered_map>

#include <fmt/format.h>

#include "base/invariant.h"
#include "base/worker_threads.h"
#include "scenarios/real_time_orders.h"
#include "scenarios/runner.h"
#include "scenarios/search_estimate.h"
#include "sim/runtime/dpor.h"
#include "sim/store/tuple.h"

namespace contend {

namespace {

struct Checked {
  SeedRun run;
  model::Verdict verdict;
};

SeedRun run_unchecked(const Scenario& s, const ExhaustiveOptions& o,
                      std::shared_ptr<Strategy> strategy, bool defer_serializability = false) {
  RunControls controls = search_run_controls(o, std::move(strategy));
  controls.record_attempts = o.observe_attempts;
  controls.defer_serializability = defer_serializability;
  return run_seed(s, o.seed, std::move(controls));
}

Checked run_one(const Scenario& s, const ExhaustiveOptions& o, std::shared_ptr<Strategy> strategy) {
  Checked out{run_unchecked(s, o, std::move(strategy)), {}};
  out.verdict = check_run(s, out.run).verdict;
  return out;
}

// The verdicts of the histories one job has checked in the units of one plan. A run's verdict is a
// function of its history and of its two run-wide findings (a store that did not replay, a
// simulator fault), and the executions of one plan record the same histories again and again: a
// history met before is not checked again. Looked up only, never iterated; cleared when it
// reaches its bound, and when the job goes on to a unit of another plan.
// It also keeps the linearizable verdicts of whole classes (class_verdict below), by a key that
// settles their most ordered schedules: finding and judging those schedules for each class was
// an eighth of the reduced search's time at hc-queue 3 x 3. Builds with debug assertions judge
// every class that finds its verdict here again, and compare.
class VerdictCache {
 public:
  VerdictCache(bool share_class_verdicts, bool broken_class_key)
      : share_class_verdicts_(share_class_verdicts), broken_class_key_(broken_class_key) {}
  bool broken_class_key() const { return broken_class_key_; }

  // Empties the cache unless its verdicts are the plan's.
  void keep_to_plan(std::size_t plan) {
    if (plan == plan_) return;
    verdicts_.clear();
    class_verdicts_.clear();
    plan_ = plan;
  }

  model::Verdict verdict(const Scenario& planned, const SeedRun& run) {
    if (run.store_not_serializable || run.simulator_fault) return check_run(planned, run).verdict;
    key_.clear();
    append_history_key(run.history, key_);
    if (auto it = verdicts_.find(key_); it != verdicts_.end()) return it->second;
    model::Verdict v = check_run(planned, run).verdict;
    if (verdicts_.size() >= kEntriesMax) verdicts_.clear();
    verdicts_.emplace(key_, v);
    return v;
  }

  // A linearizable verdict for the whole class of the run, found for an earlier run of the same
  // class key (class_key_of), or null.
  const model::Verdict* class_verdict(const SeedRun& run, const KnownOrder& known) {
    if (!shares(run)) return nullptr;
    class_key_of(run, known);
    auto it = class_verdicts_.find(class_key_);
    return it == class_verdicts_.end() ? nullptr : &it->second;
  }
  // REQUIRES: class_verdict(run, known) was the last call, and `v` is the class's verdict.
  void keep_class_verdict(const SeedRun& run, const model::Verdict& v) {
    if (!shares(run) || v.kind != model::VerdictKind::linearizable) return;
    if (class_verdicts_.size() >= kEntriesMax) class_verdicts_.clear();
    class_verdicts_.emplace(class_key_, v);
  }

 private:
  static constexpr std::size_t kEntriesMax = 1 << 16;

  // A run whose verdict is not its history's alone (verdict above) shares no class verdict.
  bool shares(const SeedRun& run) const {
    return share_class_verdicts_ && !run.store_not_serializable && !run.simulator_fault;
  }

  // The executed history, which step recorded each event (steps numbered in the order they ran,
  // counting only those that recorded one), and for each two such steps whether every schedule
  // of the class orders them. Every most ordered schedule's real-time relation is a function of
  // these (real_time_orders.h: the linear extensions of the dependence order, restricted to the
  // steps that record events, are those of its restriction), so runs with one key have one
  // class verdict.
  void class_key_of(const SeedRun& run, const KnownOrder& known) {
    class_key_.clear();
    if (!broken_class_key_) append_history_key(run.history, class_key_);
    const std::vector<StepFootprint>& steps = run.step_log.steps;
    recording_.clear();
    owner_.assign(run.history.size(), -1);
    for (std::size_t k = 0; k < steps.size(); ++k) {
      if (steps[k].events.empty()) continue;
      for (std::int64_t e : steps[k].events) {
        CONTEND_ASSERT(e >= 0 && static_cast<std::size_t>(e) < owner_.size(),
                       "a step names a history event that does not exist");
        owner_[static_cast<std::size_t>(e)] = static_cast<std::int32_t>(recording_.size());
      }
      recording_.push_back(k);
    }
    class_key_.append(reinterpret_cast<const char*>(owner_.data()),
                      owner_.size() * sizeof(std::int32_t));
    std::uint8_t bits = 0;
    int filled = 0;
    for (std::size_t b = 0; b < recording_.size(); ++b) {
      const int* clock = known.clocks->data() + recording_[b] * known.width;
      for (std::size_t a = 0; a < b; ++a) {
        const std::size_t i = recording_[a];
        const auto thread = static_cast<std::size_t>(steps[i].thread);
        const bool before = clock[thread] >= (*known.positions)[i];
        bits = static_cast<std::uint8_t>(bits | (before ? 1U << filled : 0U));
        if (++filled == 8) {
          class_key_ += static_cast<char>(bits);
          bits = 0;
          filled = 0;
        }
      }
    }
    class_key_ += static_cast<char>(bits);
  }

  // Every field at a fixed width or behind its length, so distinct histories get distinct keys.
  static void append_history_key(const model::History& history, std::string& key) {
    for (const model::Event& e : history) {
      key += static_cast<char>(e.type);
      key += static_cast<char>(e.f);
      append_int(e.process, key);
      key += static_cast<char>(e.value.has_value());
      if (!e.value) continue;
      append_int(static_cast<std::int64_t>(e.value->value.size()), key);
      key += e.value->value;
      key += static_cast<char>(e.value->priority.has_value());
      if (e.value->priority) append_int(*e.value->priority, key);
    }
  }

  static void append_int(std::int64_t v, std::string& key) {
    char bytes[sizeof v];
    std::memcpy(bytes, &v, sizeof v);
    key.append(bytes, sizeof v);
  }

  std::string key_;
  std::unordered_map<std::string, model::Verdict> verdicts_;
  bool share_class_verdicts_ = true;
  bool broken_class_key_ = false;  // tests only: the key without the history's events
  std::size_t plan_ = SIZE_MAX;    // the plan whose units the verdicts are of
  std::string class_key_;
  std::vector<std::size_t> recording_;  // the steps that recorded events, in run order
  std::vector<std::int32_t> owner_;     // per event: its step among recording_, or -1
  std::unordered_map<std::string, model::Verdict> class_verdicts_;
};

std::string draw_note(const DrawPlaced& d) {
  const std::string where = d.choice == 0
                                ? fmt::format("above the {}", d.places - 1)
                                : fmt::format("below {} of the {}", d.choice, d.places - 1);
  return fmt::format("its suffix under {} sorts {} drawn there before it", describe_key(d.group),
                     where);
}

// The notes a run's steps made of their faults (or, with `draws`, of their suffix draws that had
// a choice), each with its client (numbered as the history numbers it, from 0) and step (the
// execution's, from 1).
std::vector<std::string> step_notes(const StepLog& log, bool draws) {
  std::vector<std::string> out;
  for (std::size_t k = 0; k < log.steps.size(); ++k) {
    const StepFootprint& step = log.steps[k];
    std::vector<std::string> notes;
    if (draws) {
      for (const DrawPlaced& d : step.draws_placed)
        notes.push_back(draw_note(d));
    } else {
      notes = step.fault_notes;
    }
    for (const std::string& note : notes) {
      out.push_back(fmt::format("client {}, step {} ({}): {}", step.thread, k + 1,
                                to_string(step.kind), note));
    }
  }
  return out;
}

ExhaustiveFinding finding_of(const Scenario& planned, const Checked& c, std::string path) {
  ExhaustiveFinding f;
  f.scenario = planned;
  f.scenario.name = planned.name + "-counterexample";
  f.scenario.expect = std::string(model::to_string(c.verdict.violation));
  f.path = std::move(path);
  f.verdict = c.verdict;
  f.faults = step_notes(c.run.step_log, /*draws=*/false);
  f.draws = step_notes(c.run.step_log, /*draws=*/true);
  f.steps = static_cast<std::int64_t>(c.run.step_log.steps.size());
  return f;
}

// An execution's verdict for its whole class: the reduced search (without real-time
// dependence) runs one schedule of each class, and a class violates exactly when one of its most
// ordered schedules does (real_time_orders.h). `order`: the violating schedule, when it is not
// the executed one. The full search, or one that schedules real time, judges each run as it ran.
struct ClassVerdict {
  model::Verdict verdict;
  std::optional<std::vector<std::size_t>> order;
};

ClassVerdict class_verdict_of(const Scenario& planned, const DporExplorer& explorer, SeedRun& run,
                              VerdictCache& cache, const KnownOrder& known);

ClassVerdict class_verdict(const Scenario& planned, const DporOptions& d,
                           const DporExplorer& explorer, SeedRun& run, VerdictCache& cache) {
  if (!d.reduce || d.real_time_dependence) return {cache.verdict(planned, run), std::nullopt};
  // The class is the store's true one even when a test breaks the search's rule: what is
  // reordered must replay to the same store outcomes. With the true rule, the search's own
  // happens-before is that order (the races needed it anyway).
  KnownOrder known;
  if (explorer.orders_steps() && !d.broken_independence && !d.broken_draws) {
    known = KnownOrder{&explorer.clocks(), &explorer.positions(), explorer.clock_width()};
    if (const model::Verdict* v = cache.class_verdict(run, known)) {
      model::Verdict shared = *v;
#if CONTEND_DEBUG_ASSERTS
      CONTEND_ASSERT(cache.broken_class_key() ||
                         class_verdict_of(planned, explorer, run, cache, known).verdict.summary() ==
                             shared.summary(),
                     "two runs with one class key have different class verdicts");
#endif
      return {std::move(shared), std::nullopt};
    }
  }
  ClassVerdict judged = class_verdict_of(planned, explorer, run, cache, known);
  if (known.clocks != nullptr && !judged.order) cache.keep_class_verdict(run, judged.verdict);
  return judged;
}

ClassVerdict class_verdict_of(const Scenario& planned, const DporExplorer& explorer, SeedRun& run,
                              VerdictCache& cache, const KnownOrder& known) {
  const RealTimeOrders orders =
      most_ordered_schedules(explorer.resolved_steps(), run.step_log, run.history, known);
  if (orders.executed_is_most_ordered) return {cache.verdict(planned, run), std::nullopt};
  model::History executed = std::move(run.history);
  std::optional<ClassVerdict> out;
  for (const std::vector<std::size_t>& order : orders.orders) {
    run.history = reordered_history(executed, run.step_log, order);
    model::Verdict v = cache.verdict(planned, run);
    if (v.kind == model::VerdictKind::violation) {
      out = ClassVerdict{std::move(v), order};
      break;
    }
    if (!out) out = ClassVerdict{std::move(v), std::nullopt};
  }
  run.history = std::move(executed);
  CONTEND_ASSERT(out.has_value(), "a class has at least one most ordered schedule");
  CONTEND_DEBUG_ASSERT(
      out->order || cache.verdict(planned, run).kind != model::VerdictKind::violation,
      "a schedule violates while every most ordered schedule of its class "
      "passes: the checks are not monotone in real-time order");
  return *out;
}

// The path of `order` (a schedule of the executed steps): each scheduling node with the fault
// nodes that follow it (the faults its step chose) moves with it.
std::vector<SearchNode> reordered_path(const std::vector<SearchNode>& path,
                                       const std::vector<std::size_t>& order) {
  std::vector<std::vector<SearchNode>> groups;
  for (const SearchNode& n : path) {
    CONTEND_ASSERT(!groups.empty() || n.schedules(), "a fault or draw node before the first step");
    if (n.schedules()) groups.emplace_back();
    groups.back().push_back(n);
  }
  CONTEND_ASSERT(groups.size() == order.size(), "one scheduling node per step");
  std::vector<SearchNode> out;
  for (std::size_t k : order)
    out.insert(out.end(), groups[k].begin(), groups[k].end());
  return out;
}

// Runs `path` again: the finding a user replays, checked to be the violation it was found as.
ExhaustiveFinding replayed_finding(const Scenario& planned, const ExhaustiveOptions& o,
                                   std::vector<SearchNode> path, const Checked& executed,
                                   const model::Verdict& expected) {
  const std::size_t length = path.size();
  DporOptions as_searched;  // the world's steps as the search cut them
  as_searched.broken_fetches_inline = o.broken_fetches_inline;
  auto replay = std::make_shared<DporRun>(&path, length, as_searched);
  Checked c = run_one(planned, o, replay);
  CONTEND_ASSERT(!replay->diverged(), "a most ordered schedule does not replay");
  CONTEND_ASSERT(c.verdict.violation == expected.violation,
                 "a most ordered schedule replays to another verdict than its reordered history");
  CONTEND_ASSERT(outcome_of(c.run, expected) == outcome_of(executed.run, expected),
                 "a schedule of the executed class replays to other store outcomes");
  return finding_of(planned, c, path_to_string(path));
}

// A unit's runs not yet told to the meter (it is told in batches: one lock per batch, not per
// run), and all of them when the unit returns; with each batch, when the meter estimates, the
// unit's size as its search stands.
class UnitRuns {
 public:
  UnitRuns(ProgressMeter& meter, std::size_t unit, int max_faults)
      : meter_(meter), unit_(unit), max_faults_(max_faults) {}
  ~UnitRuns() { meter_.add_runs(unreported_); }
  UnitRuns(const UnitRuns&) = delete;
  UnitRuns& operator=(const UnitRuns&) = delete;

  // REQUIRES: `explorer` has finished the run.
  void ran(const DporExplorer& explorer) {
    if (++unreported_ < kBatch) return;
    if (meter_.estimates()) {
      const auto made = static_cast<double>(explorer.executions() + explorer.blocked());
      meter_.add_runs(unreported_, unit_, size_of(explorer.progress(), made, max_faults_));
    } else {
      meter_.add_runs(unreported_);
    }
    unreported_ = 0;
  }

 private:
  static constexpr std::int64_t kBatch = 1024;
  ProgressMeter& meter_;
  std::size_t unit_;
  int max_faults_;
  std::int64_t unreported_ = 0;
};

// Where a unit saves its progress, and the progress it resumes from (none: from its root).
struct UnitCheckpoint {
  Checkpoint& file;
  std::size_t index = 0;
  const UnitProgress* resume = nullptr;
};

// A unit's result with how its state cache stood (reduction states) when its run here ended.
UnitResult with_states(const DporExplorer& explorer, UnitResult r) {
  if (const StateCache* states = explorer.states()) {
    r.states_cached = static_cast<std::int64_t>(states->size());
    r.state_cache_full = states->full();
  }
  return r;
}

UnitResult run_unit(const Scenario& planned, const Root& root, const Unit& unit,
                    const ExhaustiveOptions& o, std::int64_t budget,
                    const std::atomic<std::size_t>& stop_after, UnitCheckpoint saved,
                    ProgressMeter& meter, VerdictCache& cache) {
  cache.keep_to_plan(unit.plan);
  UnitResult r;
  UnitRuns runs(meter, saved.index, o.max_faults);
  const DporOptions d = dpor_options(o);
  DporExplorer explorer(d);
  if (saved.resume != nullptr) {
    r = saved.resume->result;
    r.stopped_at.reset();
    explorer.resume(saved.resume->explorer);
  } else {
    std::vector<SearchNode> path = unit_path(root, unit);
    const std::size_t fixed = path.size();
    explorer.start_from(std::move(path), fixed);
  }
  std::int64_t since_saved = 0;
  // At a budget stop the write waits for the round's end (Checkpoint::flush): a budget that
  // stops hundreds of units would otherwise rewrite the file once for each.
  auto save = [&](bool may_write) {
    if (!r.violation && r.executions + r.blocked > 0) {
      saved.file.progressed(saved.index, r, explorer.progress(), may_write);
    }
    since_saved = 0;
  };
  bool ran_here = false;  // a stop asked for ends a unit after a run, as a budget does
  while (true) {
    if (r.executions + r.blocked >= budget || (ran_here && stop_requested(o))) {
      if (!explorer.has_next()) break;  // its last run was the subtree's last
      save(false);
      if (!r.violation) r.stopped_at = explorer.progress();
      return with_states(explorer, std::move(r));
    }
    if (since_saved >= o.checkpoint_every) save(true);
    std::shared_ptr<DporRun> run = explorer.begin();
    if (!run) break;
    Checked c{run_unchecked(planned, o, run, /*defer_serializability=*/true), {}};
    const bool complete = c.run.metrics.bound == BoundHit::none ||
                          (c.run.metrics.bound == BoundHit::stopped && !run->blocked());
    explorer.finish(*run, c.run.step_log, complete);
    ran_here = true;
    ++since_saved;
    runs.ran(explorer);
    if (explorer.last_blocked() || c.run.parked) {
      ++r.blocked;
      r.parked += c.run.parked ? 1 : 0;
      continue;
    }
    ++r.executions;
    check_serializability_of(c.run);
    r.bound_hits += c.run.metrics.bound != BoundHit::none ? 1 : 0;
    r.seeded_draws += c.run.random_draws > 0 ? 1 : 0;
    const ClassVerdict judged = class_verdict(planned, d, explorer, c.run, cache);
    c.verdict = judged.verdict;
    ++r.verdicts[judged.verdict.summary()];
    add_execution_coverage(c.run, planned.clients, r.coverage);
    r.outcomes.insert(o.collect_outcomes ? outcome_of(c.run, judged.verdict)
                                         : outcome_digest(c.run, judged.verdict));
    if (judged.verdict.kind == model::VerdictKind::violation && !r.violation) {
      r.violation = judged.order ? replayed_finding(planned, o,
                                                    reordered_path(explorer.path(), *judged.order),
                                                    c, judged.verdict)
                                 : finding_of(planned, c, path_to_string(explorer.path()));
      if (o.stop_at_first_violation) return with_states(explorer, std::move(r));
    }
    if (stop_after.load() < unit.plan)
      return with_states(explorer, std::move(r));  // an earlier unit already found a violation
  }
  r.exhausted = true;
  return with_states(explorer, std::move(r));
}

}  // namespace

std::map<std::size_t, UnitResult> run_units(const std::vector<Scenario>& planned,
                                            const std::vector<Root>& roots,
                                            const std::vector<Unit>& units,
                                            const std::vector<std::int64_t>& budgets,
                                            const ExhaustiveOptions& o,
                                            std::map<std::size_t, UnitResult> done,
                                            const std::map<std::size_t, UnitProgress>& partial,
                                            Checkpoint& checkpoint, ProgressMeter& meter) {
  std::mutex mutex;
  std::atomic<std::size_t> next{0};
  // The lowest plan index that showed a violation: later units need not run.
  std::atomic<std::size_t> stop_after{SIZE_MAX};
  for (const auto& [index, result] : done) {
    if (result.violation && o.stop_at_first_violation) {
      stop_after = std::min(stop_after.load(), units[index].plan);
    }
  }
  auto worker = [&] {
    VerdictCache cache(o.share_class_verdicts, o.broken_class_key);
    for (std::size_t i = next++; i < units.size(); i = next++) {
      {
        std::lock_guard lock(mutex);
        if (done.count(i) != 0) continue;
      }
      if (o.stop_at_first_violation && units[i].plan > stop_after.load()) continue;
      if (stop_requested(o)) continue;  // the units not started keep what the file says
      if (budgets[i] == 0) continue;    // waits for what other units leave (share_unused_budget)
      auto resume = partial.find(i);
      UnitResult r = run_unit(
          planned[units[i].plan], roots[units[i].plan], units[i], o, budgets[i], stop_after,
          {checkpoint, i, resume == partial.end() ? nullptr : &resume->second}, meter, cache);
      meter.unit_ended(i, r);
      std::lock_guard lock(mutex);
      if (r.violation && o.stop_at_first_violation) {
        std::size_t seen = stop_after.load();
        while (units[i].plan < seen && !stop_after.compare_exchange_weak(seen, units[i].plan)) {
        }
      }
      checkpoint.finished(i, r);
      done[i] = std::move(r);
    }
  };
  run_on_threads(std::max(1, o.jobs), worker, "--jobs");
  return done;
}

void add_up_units(const std::vector<Unit>& units, std::map<std::size_t, UnitResult>& done,
                  const ExhaustiveOptions& o, ExhaustiveResult& r) {
  std::set<std::string> outcomes;
  r.exhausted = true;
  std::optional<std::size_t> violation_plan;
  for (auto& [index, u] : done) {
    if (violation_plan && units[index].plan > *violation_plan) continue;
    add_run_counts(r, u);
    r.state_caches_full += u.state_cache_full ? 1 : 0;
    outcomes.insert(u.outcomes.begin(), u.outcomes.end());
    r.exhausted &= u.exhausted;
    r.units_done += u.exhausted ? 1 : 0;
    if (u.violation && !r.violation) {
      r.violation = std::move(u.violation);
      if (o.stop_at_first_violation) violation_plan = units[index].plan;
    }
  }
  r.exhausted &= done.size() == units.size() && !(r.violation && o.stop_at_first_violation);
  r.runs_in_scope = r.executions + r.blocked;
  if (!r.exhausted && !r.violation) r.runs_estimate = estimate_runs(units, done, o.max_faults);
  r.distinct_outcomes = static_cast<std::int64_t>(outcomes.size());
  if (o.collect_outcomes) r.outcomes = std::move(outcomes);
}

}  // namespace contend
