#include "scenarios/exhaustive.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <mutex>
#include <thread>
#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/digest128.h"
#include "base/invariant.h"
#include "scenarios/expectation.h"
#include "scenarios/real_time_orders.h"
#include "scenarios/runner.h"
#include "scenarios/search_checkpoint.h"
#include "scenarios/search_units.h"
#include "sim/runtime/dpor.h"

namespace contend {

namespace {

struct Checked {
  SeedRun run;
  model::Verdict verdict;
};

SeedRun run_unchecked(const Scenario& s, std::uint64_t seed, std::shared_ptr<Strategy> strategy,
                      bool record_attempts) {
  RunControls controls;
  controls.record_attempts = record_attempts;
  controls.strategy = std::move(strategy);
  controls.exhaustive = true;
  controls.summarize = false;
  return run_seed(s, seed, std::move(controls));
}

Checked run_one(const Scenario& s, std::uint64_t seed, std::shared_ptr<Strategy> strategy,
                bool record_attempts) {
  Checked out{run_unchecked(s, seed, std::move(strategy), record_attempts), {}};
  out.verdict = check_run(s, out.run).verdict;
  return out;
}

// The verdicts of the histories one unit has checked. A run's verdict is a function of its
// history and of its two run-wide findings (a store that did not replay, a simulator fault), and
// the executions of one plan record the same histories again and again: a history met before
// is not checked again. Looked up only, never iterated; cleared when it reaches its bound.
class VerdictCache {
 public:
  model::Verdict verdict(const Scenario& planned, const SeedRun& run) {
    if (run.store_not_serializable || run.simulator_fault) return check_run(planned, run).verdict;
    key_of(run.history);
    if (auto it = verdicts_.find(key_); it != verdicts_.end()) return it->second;
    model::Verdict v = check_run(planned, run).verdict;
    if (verdicts_.size() >= kEntriesMax) verdicts_.clear();
    verdicts_.emplace(key_, v);
    return v;
  }

 private:
  static constexpr std::size_t kEntriesMax = 1 << 16;

  // Every field at a fixed width or behind its length, so distinct histories get distinct keys.
  void key_of(const model::History& history) {
    key_.clear();
    for (const model::Event& e : history) {
      key_ += static_cast<char>(e.type);
      key_ += static_cast<char>(e.f);
      append_int(e.process);
      key_ += static_cast<char>(e.value.has_value());
      if (!e.value) continue;
      append_int(static_cast<std::int64_t>(e.value->value.size()));
      key_ += e.value->value;
      key_ += static_cast<char>(e.value->priority.has_value());
      if (e.value->priority) append_int(*e.value->priority);
    }
  }

  void append_int(std::int64_t v) {
    char bytes[sizeof v];
    std::memcpy(bytes, &v, sizeof v);
    key_.append(bytes, sizeof v);
  }

  std::string key_;
  std::unordered_map<std::string, model::Verdict> verdicts_;
};

Scenario with_plan(const Scenario& s, Plan plan) {
  Scenario c = s;
  c.clients = static_cast<int>(plan.size());
  c.operations_per_client = 0;
  for (const ClientPlan& p : plan)
    c.operations_per_client = std::max(c.operations_per_client, static_cast<int>(p.size()));
  c.plan = std::move(plan);
  return c;
}

std::vector<std::string> fault_notes(const StepLog& log) {
  std::vector<std::string> out;
  for (std::size_t k = 0; k < log.steps.size(); ++k) {
    const StepFootprint& step = log.steps[k];
    for (const std::string& note : step.fault_notes) {
      out.push_back(fmt::format("client {}, step {} ({}): {}", step.thread + 1, k + 1,
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
  f.faults = fault_notes(c.run.step_log);
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

ClassVerdict class_verdict(const Scenario& planned, const DporOptions& d,
                           const std::vector<ResolvedStep>& steps, SeedRun& run,
                           VerdictCache& cache) {
  if (!d.reduce || d.real_time_dependence) return {cache.verdict(planned, run), std::nullopt};
  // The class is the store's true one even when a test breaks the search's rule: what is
  // reordered must replay to the same store outcomes.
  const RealTimeOrders orders = most_ordered_schedules(steps, run.step_log, run.history);
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
    CONTEND_ASSERT(!groups.empty() || !n.fault, "a fault node before the first step");
    if (!n.fault) groups.emplace_back();
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
  auto replay = std::make_shared<DporRun>(&path, length, DporOptions{});
  Checked c = run_one(planned, o.seed, replay, o.observe_attempts);
  CONTEND_ASSERT(!replay->diverged(), "a most ordered schedule does not replay");
  CONTEND_ASSERT(c.verdict.violation == expected.violation,
                 "a most ordered schedule replays to another verdict than its reordered history");
  CONTEND_ASSERT(outcome_of(c.run, expected) == outcome_of(executed.run, expected),
                 "a schedule of the executed class replays to other store outcomes");
  return finding_of(planned, c, path_to_string(path));
}

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

// A unit's runs not yet told to the meter (it is told in batches: one lock per batch, not per
// run), and all of them when the unit returns.
class UnitRuns {
 public:
  explicit UnitRuns(ProgressMeter& meter) : meter_(meter) {}
  ~UnitRuns() { meter_.add_runs(unreported_); }
  UnitRuns(const UnitRuns&) = delete;
  UnitRuns& operator=(const UnitRuns&) = delete;

  void ran() {
    if (++unreported_ < kBatch) return;
    meter_.add_runs(unreported_);
    unreported_ = 0;
  }

 private:
  static constexpr std::int64_t kBatch = 1024;
  ProgressMeter& meter_;
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
                    ProgressMeter& meter) {
  UnitResult r;
  UnitRuns runs(meter);
  const DporOptions d = dpor_options(o);
  DporExplorer explorer(d);
  VerdictCache cache;
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
  auto save = [&](bool now) {
    if (!r.violation && r.executions + r.blocked > 0) {
      saved.file.progressed(saved.index, r, explorer.progress(), now);
    }
    since_saved = 0;
  };
  while (true) {
    if (r.executions + r.blocked >= budget) {
      if (!explorer.has_next()) break;  // its last run was the subtree's last
      save(false);
      if (!r.violation) r.stopped_at = explorer.progress();
      return with_states(explorer, std::move(r));
    }
    if (since_saved >= o.checkpoint_every) save(true);
    std::shared_ptr<DporRun> run = explorer.begin();
    if (!run) break;
    Checked c{run_unchecked(planned, o.seed, run, o.observe_attempts), {}};
    const bool complete = c.run.metrics.bound == BoundHit::none ||
                          (c.run.metrics.bound == BoundHit::stopped && !run->blocked());
    explorer.finish(*run, c.run.step_log, complete);
    ++since_saved;
    runs.ran();
    if (explorer.last_blocked()) {
      ++r.blocked;
      continue;
    }
    ++r.executions;
    r.bound_hits += c.run.metrics.bound != BoundHit::none ? 1 : 0;
    r.seeded_draws += c.run.random_draws > 0 ? 1 : 0;
    const ClassVerdict judged = class_verdict(planned, d, explorer.resolved_steps(), c.run, cache);
    c.verdict = judged.verdict;
    ++r.verdicts[judged.verdict.summary()];
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

// ---- checkpoints (search_checkpoint.h) ----

// A checkpoint file belongs to one search (scenario file, recipe, plans, seed, bounds, shard)
// and holds the finished units of each of its scope searches (smallest first runs several).
// The version of the unit cut: units of another cut count other executions, so a checkpoint
// written by one is refused by the other. 2: the root's sleep sets are shared by its units.
// 3: a unit keeps its outcomes as digests (outcome.h), not in readable form.
// 4: a unit that found a violation is not kept as finished (3 kept it without its counterexample,
// and a resumed search for every violation lost it).
// 5: a search with few root units is cut below the root (search_units.h).
// 6: and its units that outgrow their sizing runs are cut again (size_units).
// 7: a lineage stops being cut at kSizingGoingMax parts going; the file keeps the cut after every
// sizing round (with the rounds it took and whether sizing finished).
constexpr int kUnitCutVersion = 7;

// Sizing (size_units): rounds, the nodes a stopped unit is cut at in one round, and the parts
// still going at which a lineage is cut no further. Without that bound a large budget cut the
// units ever finer (hc-queue 4 x 2 with --schedules 2000000000: 69,665 units by the third
// round, whose runs alone were over a hundred million, none of them saved by a checkpoint).
constexpr int kSizingRoundsMax = 6;
constexpr int kSizingCutLevels = 4;
constexpr std::int64_t kSizingGoingMax = 64;

std::string search_identity(const Scenario& s, const ExhaustiveOptions& o) {
  return fmt::format(
      "cut={}|units={}|{}|{}|{}x{}|plans={}|seed={}|faults<={}|preemptions={}|reduce={}{}|"
      "real_time={}|shard={}/{}{}",
      kUnitCutVersion, o.units_wanted, s.file, s.recipe, s.clients, s.operations_per_client,
      o.all_plans ? "all" : "seed", o.seed, o.max_faults,
      o.max_preemptions ? std::to_string(*o.max_preemptions) : "none", o.reduce,
      o.cache_states ? "|states" : "", o.real_time_by_schedule ? "scheduled" : "most-ordered",
      o.shard.index, o.shard.count, o.deal_from.empty() ? "" : "|dealt=" + o.deal_digest);
}

// The digest of a file's bytes in hex: shards dealt from one sized search name it (merge checks
// that they are of one), and a shard's own checkpoint belongs to it.
std::optional<std::string> file_digest(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  Digest128 digest;
  std::string chunk(1 << 16, '\0');
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0)
    digest.add_raw(std::string_view(chunk.data(), static_cast<std::size_t>(in.gcount())));
  if (in.bad()) return std::nullopt;
  const Digest128::Value v = digest.finish();
  return fmt::format("{:016x}{:016x}", v[0], v[1]);
}

std::string scope_key(const Scenario& scoped_scenario, int faults) {
  return fmt::format("{}x{}|faults={}", scoped_scenario.clients,
                     scoped_scenario.operations_per_client, faults);
}

// Runs the units of this shard, `jobs` at a time; results by unit index.
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
    for (std::size_t i = next++; i < units.size(); i = next++) {
      {
        std::lock_guard lock(mutex);
        if (done.count(i) != 0) continue;
      }
      if (o.stop_at_first_violation && units[i].plan > stop_after.load()) continue;
      if (budgets[i] == 0) continue;  // waits for what other units leave (share_unused_budget)
      auto resume = partial.find(i);
      UnitResult r = run_unit(
          planned[units[i].plan], roots[units[i].plan], units[i], o, budgets[i], stop_after,
          {checkpoint, i, resume == partial.end() ? nullptr : &resume->second}, meter);
      if (r.exhausted) meter.unit_done();
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
  const int jobs = std::max(1, o.jobs);
  std::vector<std::thread> threads;
  for (int j = 1; j < jobs; ++j)
    threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads)
    t.join();
  return done;
}

// Adds the units up in unit order, up to the first violation when the search stops there.
void total(const std::vector<Unit>& units, std::map<std::size_t, UnitResult>& done,
           const ExhaustiveOptions& o, ExhaustiveResult& r) {
  std::set<std::string> outcomes;
  r.exhausted = true;
  std::optional<std::size_t> violation_plan;
  for (auto& [index, u] : done) {
    if (violation_plan && units[index].plan > *violation_plan) continue;
    r.executions += u.executions;
    r.blocked += u.blocked;
    r.bound_hits += u.bound_hits;
    r.seeded_draws += u.seeded_draws;
    r.states_cached += u.states_cached;
    r.state_caches_full += u.state_cache_full ? 1 : 0;
    for (const auto& [verdict, n] : u.verdicts)
      r.verdicts[verdict] += n;
    outcomes.insert(u.outcomes.begin(), u.outcomes.end());
    r.exhausted &= u.exhausted;
    r.units_done += u.exhausted ? 1 : 0;
    r.resumed += u.resumed;
    if (u.violation && !r.violation) {
      r.violation = std::move(u.violation);
      if (o.stop_at_first_violation) violation_plan = units[index].plan;
    }
  }
  r.exhausted &= done.size() == units.size() && !(r.violation && o.stop_at_first_violation);
  r.distinct_outcomes = static_cast<std::int64_t>(outcomes.size());
  if (o.collect_outcomes) r.outcomes = std::move(outcomes);
}

// ---- budgets ----

// A plan's budget (max_executions) is shared evenly by its units at first. Units are of very
// different sizes, so when some end under their share and others hit it, what the first left
// is shared evenly again by the others (the remainder a run each, in unit order), which go on
// from where they stopped — round after round until no unit is left stopped or nothing is left. A
// round's shares depend only on the results of the rounds before it, so the totals do not depend on
// the jobs. A shard shares out its own units' part of each plan's budget.
constexpr int kBudgetRoundsMax = 1000;

// Share `k` (0-based) of `total` split into `parts` as evenly as whole runs allow.
std::int64_t even_share(std::int64_t total, std::int64_t parts, std::int64_t k) {
  return total / parts + (k < total % parts ? 1 : 0);
}

// Each plan's budget for this shard: its units' first shares (without shards, the whole budget).
std::vector<std::int64_t> budgets_by_plan(const std::vector<Unit>& units,
                                          const std::vector<std::int64_t>& unit_budgets,
                                          std::size_t plans) {
  std::vector<std::int64_t> out(plans, 0);
  for (std::size_t i = 0; i < units.size(); ++i)
    out[units[i].plan] += unit_budgets[i];
  return out;
}

// Gives the units a budget stopped what their plan has left, to go on from where they stopped;
// false when there is nothing to go on with.
bool share_unused_budget(const std::vector<Unit>& units,
                         const std::vector<std::int64_t>& plan_budgets, const ExhaustiveOptions& o,
                         std::map<std::size_t, UnitResult>& done,
                         std::map<std::size_t, UnitProgress>& partial,
                         std::vector<std::int64_t>& unit_budgets) {
  std::vector<std::int64_t> used(plan_budgets.size(), 0);
  // Per plan: the units waiting for budget, stopped by it or never started (a first share of 0).
  std::vector<std::vector<std::size_t>> waiting(plan_budgets.size());
  for (std::size_t index = 0; index < units.size(); ++index) {
    auto it = done.find(index);
    if (it == done.end()) {
      waiting[units[index].plan].push_back(index);
      continue;
    }
    const UnitResult& r = it->second;
    if (r.violation && o.stop_at_first_violation) return false;
    used[units[index].plan] += r.executions + r.blocked;
    if (r.stopped_at) waiting[units[index].plan].push_back(index);
  }
  bool shared = false;
  for (std::size_t p = 0; p < plan_budgets.size(); ++p) {
    const auto count = static_cast<std::int64_t>(waiting[p].size());
    const std::int64_t spare = plan_budgets[p] - used[p];
    for (std::int64_t k = 0; k < count && spare > 0; ++k) {
      const std::int64_t share = even_share(spare, count, k);
      if (share == 0) break;
      const std::size_t index = waiting[p][static_cast<std::size_t>(k)];
      shared = true;
      auto it = done.find(index);
      if (it == done.end()) {
        unit_budgets[index] = share;
        continue;
      }
      UnitResult& r = it->second;
      unit_budgets[index] = r.executions + r.blocked + share;
      DporProgress at = std::move(*r.stopped_at);
      r.stopped_at.reset();
      partial[index] = UnitProgress{std::move(r), std::move(at)};
      done.erase(it);
    }
  }
  return shared;
}

// ---- sizing ----

// Units cut below the root differ in size by orders of magnitude (hc-queue 3 x 2, the seed's
// plan: one of its 67 units holds 56% of the runs), and the job that draws the largest sets the
// search's time. So a search cut below the root sizes a shard's units before its jobs share them:
// each round gives every unit still going sizing_runs more runs, and cuts each one its runs did
// not finish kSizingCutLevels nodes deep (split_stopped: its search goes on in its first part,
// the threads it has not taken at those nodes are fresh parts) — for kSizingRoundsMax rounds, while
// the parts of one of the shard's first units (a lineage) have used under half of its budget.
// Whether a part is cut depends on its lineage alone, never on jobs, shards or other units: the
// units, and the totals, are the same however the search is shared out. It does depend on the
// budget, so a checkpoint keeps the units after every round: a search killed while sizing goes
// on sizing from the last round saved, and one resumed after sizing (with another budget too)
// takes the units as they were cut.
struct SizedUnits {
  std::vector<Unit> units;
  std::vector<std::int64_t> budgets;            // by unit: runs it may reach (sizing's included)
  std::map<std::size_t, UnitResult> done;       // by unit: finished, or stopped for good
  std::map<std::size_t, UnitProgress> partial;  // by unit: where its search stands
  int rounds = 0;                               // sizing rounds run (saved ones included)
  bool interrupted = false;                     // stopped by stop_after_sizing_rounds (tests)
};

std::int64_t runs_of(const UnitResult& r) {
  return r.executions + r.blocked;
}

std::int64_t runs_of(const SizedUnits& sized, std::size_t unit) {
  if (auto d = sized.done.find(unit); d != sized.done.end()) return runs_of(d->second);
  if (auto p = sized.partial.find(unit); p != sized.partial.end()) return runs_of(p->second.result);
  return 0;
}

// Per lineage: the runs its parts have made, and how many of them are still to finish.
struct LineageUse {
  std::int64_t runs = 0;
  std::int64_t going = 0;
};

std::vector<LineageUse> lineage_use(const SizedUnits& sized, std::size_t lineages) {
  std::vector<LineageUse> use(lineages);
  for (std::size_t i = 0; i < sized.units.size(); ++i) {
    LineageUse& u = use[sized.units[i].lineage];
    u.runs += runs_of(sized, i);
    u.going += sized.done.count(i) == 0 ? 1 : 0;
  }
  return use;
}

// A unit its sizing runs stopped, cut kSizingCutLevels nodes deep, into `next`; as it stands
// when it may not be cut there.
void cut_stopped(const Scenario& planned, const ExhaustiveOptions& o, const Unit& unit,
                 UnitResult r, SizedUnits& next) {
  DporProgress stopped = std::move(*r.stopped_at);
  r.stopped_at.reset();
  Unit going = unit;
  std::vector<Unit> fresh;  // deepest cut node first
  for (int level = 0; level < kSizingCutLevels; ++level) {
    std::optional<SplitUnit> split = split_stopped(planned, o, going, stopped);
    if (!split) break;
    going = std::move(split->units.front());
    stopped = std::move(split->resumed);
    for (std::size_t k = split->units.size(); k-- > 1;)
      fresh.push_back(std::move(split->units[k]));
  }
  next.partial[next.units.size()] = UnitProgress{std::move(r), std::move(stopped)};
  next.units.push_back(std::move(going));
  // In the order one search would take them: the shallowest cut node's threads last.
  for (auto it = fresh.rbegin(); it != fresh.rend(); ++it)
    next.units.push_back(std::move(*it));
}

// One round's results into the next round's units, cutting the stopped units of `cut` lineages.
SizedUnits after_sizing_round(const std::vector<Scenario>& planned, const ExhaustiveOptions& o,
                              const SizedUnits& was, std::map<std::size_t, UnitResult> results,
                              const std::vector<bool>& cut) {
  std::int64_t runs = 0;  // every unit's runs: the same after the round's cuts
  for (std::size_t i = 0; i < was.units.size(); ++i) {
    auto it = results.find(i);
    runs += it == results.end() ? runs_of(was, i) : runs_of(it->second);
  }
  SizedUnits next;
  next.rounds = was.rounds;
  for (std::size_t i = 0; i < was.units.size(); ++i) {
    const Unit& u = was.units[i];
    const std::size_t index = next.units.size();
    auto it = results.find(i);
    if (it == results.end()) {  // not run this round: as it was
      next.units.push_back(u);
      if (auto d = was.done.find(i); d != was.done.end()) next.done[index] = d->second;
      if (auto p = was.partial.find(i); p != was.partial.end()) next.partial[index] = p->second;
      continue;
    }
    UnitResult r = std::move(it->second);
    if (r.stopped_at && cut[u.lineage]) {
      cut_stopped(planned[u.plan], o, u, std::move(r), next);
      continue;
    }
    next.units.push_back(u);
    if (r.stopped_at) {
      DporProgress at = std::move(*r.stopped_at);
      r.stopped_at.reset();
      next.partial[index] = UnitProgress{std::move(r), std::move(at)};
    } else {
      next.done[index] = std::move(r);
    }
  }
  std::int64_t kept = 0;
  for (std::size_t i = 0; i < next.units.size(); ++i)
    kept += runs_of(next, i);
  CONTEND_ASSERT(kept == runs, "cutting the stopped units lost or doubled some of their runs");
  return next;
}

// Each unit's budget after sizing: its runs so far and an even part of what its lineage has left.
void share_lineage_budgets(SizedUnits& sized, const std::vector<std::int64_t>& shares) {
  const std::vector<LineageUse> use = lineage_use(sized, shares.size());
  std::vector<std::int64_t> rank(shares.size(), 0);
  sized.budgets.assign(sized.units.size(), 0);
  for (std::size_t i = 0; i < sized.units.size(); ++i) {
    const std::size_t l = sized.units[i].lineage;
    sized.budgets[i] = runs_of(sized, i);
    if (sized.done.count(i) != 0) continue;
    const std::int64_t left = std::max<std::int64_t>(0, shares[l] - use[l].runs);
    sized.budgets[i] += even_share(left, use[l].going, rank[l]++);
  }
}

// `sized` holds the shard's units (and, resumed, what the saved rounds found of them), `shares`
// their budgets; every part of a unit keeps to its budget. Each round's cut is saved.
void size_units(const std::vector<Scenario>& planned, const std::vector<Root>& roots,
                SizedUnits& sized, const std::vector<std::int64_t>& shares,
                const ExhaustiveOptions& o, ProgressMeter& meter, Checkpoint& checkpoint) {
  Checkpoint none("", "", "", 1);
  for (; o.sizing_runs > 0 && may_cut_below_root(o) && sized.rounds < kSizingRoundsMax;
       ++sized.rounds) {
    if (o.stop_after_sizing_rounds && sized.rounds >= *o.stop_after_sizing_rounds) {
      sized.interrupted = true;
      return;
    }
    // A lineage runs a round only while it stays under half its budget by the round's end, and
    // while it has fewer than kSizingGoingMax parts going.
    const std::vector<LineageUse> use = lineage_use(sized, shares.size());
    std::vector<bool> sizing(shares.size());
    for (std::size_t l = 0; l < shares.size(); ++l) {
      sizing[l] = use[l].going > 0 && use[l].going < kSizingGoingMax &&
                  use[l].runs + use[l].going * o.sizing_runs <= shares[l] / 2;
    }
    std::vector<std::int64_t> budgets(sized.units.size(), 0);
    bool any = false;
    for (std::size_t i = 0; i < sized.units.size(); ++i) {
      if (sized.done.count(i) != 0 || !sizing[sized.units[i].lineage]) continue;
      budgets[i] = runs_of(sized, i) + o.sizing_runs;
      any = true;
    }
    if (!any) break;
    meter.restart_units(static_cast<std::int64_t>(sized.done.size()),
                        static_cast<std::int64_t>(sized.units.size()), sized.rounds + 1);
    std::map<std::size_t, UnitResult> results =
        run_units(planned, roots, sized.units, budgets, o, sized.done, sized.partial, none, meter);
    for (const auto& [index, r] : sized.done)
      results.erase(index);  // run_units hands the finished units back
    std::vector<bool> cut = sizing;
    if (sized.rounds + 1 == kSizingRoundsMax) cut.assign(cut.size(), false);
    sized = after_sizing_round(planned, o, sized, std::move(results), cut);
    checkpoint.save_units(SavedCut{sized.units, sized.rounds + 1, false}, sized.done,
                          sized.partial);
  }
  checkpoint.save_units(SavedCut{sized.units, sized.rounds, true}, sized.done, sized.partial);
}

// The units a checkpoint kept, checked against this search: each of a plan of it, cut from one of
// the shard's first units.
bool check_saved_units(const std::vector<Unit>& saved, std::size_t plans, std::size_t lineages,
                       const std::string& file, std::string& error) {
  for (std::size_t i = 0; i < saved.size(); ++i) {
    if (saved[i].plan >= plans || saved[i].lineage >= lineages || saved[i].path.empty()) {
      error = fmt::format("{}: unit {} is not one of this search's", file, i);
      return false;
    }
  }
  return true;
}

// What the checkpoint holds of the units (finished, in progress) into `sized`, checked against
// them; false (and `error`) when it names a unit the search does not have.
bool take_saved_results(std::map<std::size_t, UnitResult> saved_done,
                        std::map<std::size_t, UnitProgress> saved_partial, const std::string& file,
                        SizedUnits& sized, std::string& error) {
  const std::vector<Unit>& units = sized.units;
  for (const auto& [index, result] : saved_done) {
    if (index >= units.size()) {
      error = file + ": unit " + std::to_string(index) + " is not in this search";
      return false;
    }
  }
  for (const auto& [index, progress] : saved_partial) {
    if (index >= units.size() || !progress_belongs_to(progress.explorer, units[index])) {
      error =
          file + ": the progress saved for unit " + std::to_string(index) + " is not that unit's";
      return false;
    }
  }
  for (auto& [index, progress] : saved_partial)
    sized.partial[index] = std::move(progress);
  for (auto& [index, result] : saved_done) {
    sized.partial.erase(index);
    sized.done[index] = std::move(result);
  }
  return true;
}

// Sizes the shard's units (going on from the rounds the checkpoint saved, or taking the units it
// kept once sizing finished), with what the checkpoint holds of them; false (and `error`) when
// the file does not fit.
bool units_to_search(const std::vector<Scenario>& planned, const std::vector<Root>& roots,
                     std::vector<Unit> own, const std::vector<std::int64_t>& shares,
                     const ExhaustiveOptions& o, Checkpoint& checkpoint, ProgressMeter& meter,
                     SizedUnits& sized, std::string& error) {
  std::map<std::size_t, UnitResult> saved_done;
  std::map<std::size_t, UnitProgress> saved_partial;
  if (!checkpoint.load(saved_done, saved_partial, error)) return false;
  const bool cut_below_root = !own.empty() && !own.front().path.empty();
  std::optional<SavedCut> kept;
  if (cut_below_root && !checkpoint.saved_units(kept, error)) return false;
  if (kept) {
    if (!check_saved_units(kept->units, planned.size(), own.size(), o.checkpoint_file, error)) {
      return false;
    }
    sized.units = std::move(kept->units);
    sized.rounds = kept->sizing_rounds;
  } else {
    if (cut_below_root && (!saved_done.empty() || !saved_partial.empty())) {
      error = o.checkpoint_file + ": holds units but not the cut they belong to";
      return false;
    }
    sized.units = std::move(own);
  }
  if (!take_saved_results(std::move(saved_done), std::move(saved_partial), o.checkpoint_file, sized,
                          error)) {
    return false;
  }
  if (cut_below_root && !(kept && kept->sizing_finished)) {
    size_units(planned, roots, sized, shares, o, meter, checkpoint);
  }
  share_lineage_budgets(sized, shares);
  return true;
}

// Two-phase sharding (ExhaustiveOptions::deal_from): the whole search's units as the file of its
// sizing holds them, each with what sizing found of it and the budget the whole search gives it
// (share_lineage_budgets); the shard takes every N-th, as a lineage of its own whose share is that
// budget, and what its own checkpoint holds of them. `first`: the whole search's first units (the
// same in every shard), `shares` theirs; on return, `shares` holds the dealt units'.
bool deal_sized_units(const std::vector<Scenario>& planned, std::vector<Unit> first,
                      std::vector<std::int64_t>& shares, const std::string& scope,
                      const ExhaustiveOptions& o, Checkpoint& checkpoint, SizedUnits& sized,
                      std::string& error) {
  Checkpoint cut_file(o.deal_from, o.deal_identity, scope, o.checkpoint_every);
  std::map<std::size_t, UnitResult> cut_done;
  std::map<std::size_t, UnitProgress> cut_partial;
  if (!cut_file.load_read_only(cut_done, cut_partial, error)) return false;
  SizedUnits whole;
  const bool cut_below_root = !first.empty() && !first.front().path.empty();
  if (cut_below_root) {
    std::optional<SavedCut> kept;
    if (!cut_file.saved_units(kept, error)) return false;
    if (!kept || !kept->sizing_finished) {
      error = fmt::format(
          "{}: holds no finished sizing of the scope {}: run the whole search with "
          "--sizing-only --checkpoint {} to its end, then deal from it",
          o.deal_from, scope, o.deal_from);
      return false;
    }
    if (!check_saved_units(kept->units, planned.size(), first.size(), o.deal_from, error)) {
      return false;
    }
    whole.units = std::move(kept->units);
    whole.rounds = kept->sizing_rounds;
  } else {
    whole.units = std::move(first);
  }
  if (!take_saved_results(std::move(cut_done), std::move(cut_partial), o.deal_from, whole, error)) {
    return false;
  }
  share_lineage_budgets(whole, shares);
  shares.clear();
  sized = SizedUnits{};
  sized.rounds = whole.rounds;
  for (std::size_t i = 0; i < whole.units.size(); ++i) {
    if (!o.shard.includes(i, 0)) continue;
    const std::size_t index = sized.units.size();
    sized.units.push_back(std::move(whole.units[i]));
    sized.units.back().lineage = index;
    if (auto d = whole.done.find(i); d != whole.done.end())
      sized.done[index] = std::move(d->second);
    if (auto p = whole.partial.find(i); p != whole.partial.end()) {
      sized.partial[index] = std::move(p->second);
    }
    shares.push_back(whole.budgets[i]);
  }
  std::map<std::size_t, UnitResult> saved_done;
  std::map<std::size_t, UnitProgress> saved_partial;
  if (!checkpoint.load(saved_done, saved_partial, error)) return false;
  if (!take_saved_results(std::move(saved_done), std::move(saved_partial), o.checkpoint_file, sized,
                          error)) {
    return false;
  }
  share_lineage_budgets(sized, shares);
  return true;
}

// Sizing only (ExhaustiveOptions::sizing_only): the totals of what sizing ran, the units it left
// going counted with their runs so far (they are not searched to the end).
void total_after_sizing(const SizedUnits& sized, const ExhaustiveOptions& o, ExhaustiveResult& r) {
  std::map<std::size_t, UnitResult> ran = sized.done;
  for (const auto& [index, progress] : sized.partial)
    ran[index] = progress.result;
  total(sized.units, ran, o, r);
  r.sized_only = !r.exhausted && !r.violation;
}

ExhaustiveResult search(const Scenario& s, const ExhaustiveOptions& o) {
  ExhaustiveResult r;
  const RecipeInfo* info = find_recipe(s.recipe);
  CONTEND_ASSERT(info != nullptr, "explore_exhaustively: validate the scenario first");
  std::vector<Plan> plans;
  if (o.all_plans && s.plan.empty()) {
    auto all = enumerate_plans(s, info->kind, o.max_plans, r.error);
    if (!all) return r;
    plans = std::move(*all);
  } else {
    plans.push_back(seed_plan(s, info->kind, o.seed));
  }
  r.plans = static_cast<std::int64_t>(plans.size());
  std::vector<Scenario> planned;
  std::vector<Root> roots;
  for (std::size_t p = 0; p < plans.size(); ++p) {
    planned.push_back(with_plan(s, plans[p]));
    roots.push_back(Root{probe_enabled(planned.back(), o), false, {}});
  }
  const std::vector<Unit> all_units = cut_units(planned, roots, o);
  std::vector<std::int64_t> units_of_plan(plans.size(), 0);
  std::vector<std::int64_t> rank_in_plan;  // by unit: its place among its plan's units
  for (const Unit& u : all_units)
    rank_in_plan.push_back(units_of_plan[u.plan]++);
  // This shard's units, in order; a plan's budget is shared evenly by its units.
  // Dealt from a sized search, the shard starts from every first unit (deal_sized_units).
  const Shard first_units = o.deal_from.empty() ? o.shard : Shard{};
  std::vector<Unit> own;
  std::vector<std::int64_t> shares;
  for (std::size_t u = 0; u < all_units.size(); ++u) {
    if (first_units.includes(u, 0)) {
      const std::size_t p = all_units[u].plan;
      if (o.deal_from.empty()) probe_first_steps(planned[p], o, roots[p]);
      own.push_back(all_units[u]);
      own.back().lineage = own.size() - 1;
      shares.push_back(even_share(o.max_executions, units_of_plan[p], rank_in_plan[u]));
    }
  }
  std::vector<std::int64_t> plan_budgets = budgets_by_plan(own, shares, plans.size());
  // One meter for sizing and every round after it: a long search's runs count on across them.
  ProgressMeter meter(o, ExhaustiveProgress{s.clients, s.operations_per_client, o.max_faults, 0, 0,
                                            static_cast<std::int64_t>(own.size())});
  Checkpoint checkpoint(o.checkpoint_file, o.checkpoint_identity, scope_key(s, o.max_faults),
                        o.checkpoint_every);
  SizedUnits sized;
  if (o.deal_from.empty()) {
    if (!units_to_search(planned, roots, std::move(own), shares, o, checkpoint, meter, sized,
                         r.error)) {
      return r;
    }
  } else {
    if (!deal_sized_units(planned, std::move(own), shares, scope_key(s, o.max_faults), o,
                          checkpoint, sized, r.error)) {
      return r;
    }
    plan_budgets = budgets_by_plan(sized.units, shares, plans.size());  // lineage = unit
    for (const Unit& u : sized.units)  // the root units dealt to this shard need their probes
      probe_first_steps(planned[u.plan], o, roots[u.plan]);
  }
  if (sized.interrupted) {  // tests: as if killed after the saved sizing rounds
    r.checkpoint_error = checkpoint.write_error();
    return r;
  }
  if (o.sizing_only) {
    checkpoint.flush();
    r.checkpoint_error = checkpoint.write_error();
    r.units = static_cast<std::int64_t>(sized.units.size());
    total_after_sizing(sized, o, r);
    return r;
  }
  const std::vector<Unit>& units = sized.units;
  std::vector<std::int64_t>& unit_budgets = sized.budgets;
  std::map<std::size_t, UnitResult>& done = sized.done;
  std::map<std::size_t, UnitProgress>& partial = sized.partial;
  r.units = static_cast<std::int64_t>(units.size());
  meter.restart_units(static_cast<std::int64_t>(done.size()), r.units);
  for (int round = 0; round < kBudgetRoundsMax; ++round) {
    done = run_units(planned, roots, units, unit_budgets, o, std::move(done), partial, checkpoint,
                     meter);
    checkpoint.flush();
    if (!share_unused_budget(units, plan_budgets, o, done, partial, unit_budgets)) break;
  }
  checkpoint.flush();
  r.checkpoint_error = checkpoint.write_error();
  total(units, done, o, r);
  return r;
}

// Scopes below (clients, operations), smallest first: by operations in all, then clients.
std::vector<std::pair<int, int>> smaller_scopes(int clients, int operations) {
  std::vector<std::pair<int, int>> out;
  for (int c = 1; c <= clients; ++c) {
    for (int o = 1; o <= operations; ++o)
      out.emplace_back(c, o);
  }
  std::stable_sort(out.begin(), out.end(), [](auto a, auto b) {
    return std::pair(a.first * a.second, a.first) < std::pair(b.first * b.second, b.first);
  });
  return out;
}

Scenario scoped(const Scenario& s, int clients, int operations) {
  Scenario c = s;
  c.clients = clients;
  c.operations_per_client = operations;
  if (!c.plan.empty()) {
    c.plan.resize(static_cast<std::size_t>(clients));
    for (ClientPlan& p : c.plan) {
      if (p.size() > static_cast<std::size_t>(operations)) {
        p.resize(static_cast<std::size_t>(operations));
      }
    }
  }
  return c;
}

// Adds one scope's search to the running totals.
void accumulate(ExhaustiveResult& total, const ExhaustiveResult& r) {
  total.executions += r.executions;
  total.blocked += r.blocked;
  total.bound_hits += r.bound_hits;
  total.seeded_draws += r.seeded_draws;
  total.states_cached += r.states_cached;
  total.state_caches_full += r.state_caches_full;
  total.resumed += r.resumed;
  total.distinct_outcomes += r.distinct_outcomes;
  for (const auto& [verdict, n] : r.verdicts)
    total.verdicts[verdict] += n;
  total.outcomes.insert(r.outcomes.begin(), r.outcomes.end());
}

// Smallest first: every scope up to the asked one by operations in all, then clients, and in each
// every fault budget up to the asked one. The first violation found is then minimal in that order
// by construction; with none, the last search is the asked scope's.
ExhaustiveResult search_smallest_first(const Scenario& s, const ExhaustiveOptions& o) {
  ExhaustiveResult total;
  total.exhausted = true;
  total.smallest_first = true;
  total.scopes = 0;
  Scenario base = s;
  if (!o.all_plans && base.plan.empty()) {
    base.plan = seed_plan(s, find_recipe(s.recipe)->kind, o.seed);
  }
  ExhaustiveOptions sub = o;
  for (auto [clients, operations] : smaller_scopes(s.clients, s.operations_per_client)) {
    for (int faults = 0; faults <= o.max_faults; ++faults) {
      sub.max_faults = faults;
      ExhaustiveResult r = search(scoped(base, clients, operations), sub);
      if (!r.error.empty()) {
        total.error = r.error;
        return total;
      }
      if (total.checkpoint_error.empty()) total.checkpoint_error = r.checkpoint_error;
      accumulate(total, r);
      total.plans = r.plans;  // the plans of the scope searched last
      total.units = r.units;
      total.units_done = r.units_done;
      total.scopes += 1;
      if (r.violation) {
        total.violation = std::move(r.violation);
        total.violation->minimal = true;
        total.violation->minimal_note = fmt::format(
            "minimal: {} client(s) x {} operation(s), {} fault(s); every smaller scope, and this "
            "one with fewer faults, was searched exhaustively first without a violation",
            clients, operations, faults);
        total.exhausted = false;
        return total;
      }
      if (r.sized_only) {  // sizing only: every scope is sized, none is searched to its end
        total.exhausted = false;
        total.sized_only = true;
        continue;
      }
      if (!r.exhausted) {
        total.exhausted = false;  // a budget ran out: larger scopes would prove nothing more
        return total;
      }
    }
  }
  return total;
}

}  // namespace

std::string_view reduction_name(const ExhaustiveOptions& o) {
  return o.reduce ? "dpor" : o.cache_states ? "states" : "none";
}

ExhaustiveResult explore_exhaustively(const Scenario& scenario, const ExhaustiveOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  if (scenario.clients > kMaxThreads) {  // each client is a thread of the search's bit sets
    ExhaustiveResult r;
    r.error = fmt::format(
        "{}: clients: the exhaustive search takes at most {} clients, and this scenario has {}",
        scenario.file, kMaxThreads, scenario.clients);
    return r;
  }
  // The checkpoint file is the asked search's, whichever scope runs.
  ExhaustiveOptions options = o;
  if (!o.deal_from.empty()) {
    ExhaustiveOptions whole = o;  // the search whose sizing saved the file: unsharded
    whole.shard = Shard{};
    whole.deal_from.clear();
    options.deal_identity = search_identity(scenario, whole);
    std::optional<std::string> digest = file_digest(o.deal_from);
    if (!digest) {
      ExhaustiveResult r;
      r.error = o.deal_from + ": cannot read it (--deal-from)";
      return r;
    }
    options.deal_digest = *digest;
  }
  options.checkpoint_identity = search_identity(scenario, options);
  const bool smallest_first = o.stop_at_first_violation && o.minimise;
  ExhaustiveResult r =
      smallest_first ? search_smallest_first(scenario, options) : search(scenario, options);
  if (!o.collect_outcomes) r.outcomes.clear();
  r.deal_digest = options.deal_digest;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

namespace {

// Reduction states: what the state caches held, and whether any filled (then that unit searched
// on without pruning at new states: more executions, the same outcomes).
std::string states_note(const ExhaustiveResult& r) {
  std::string note = fmt::format("; {} states cached", r.states_cached);
  if (r.state_caches_full > 0) {
    note += fmt::format(
        " ({} unit(s) filled their cache of {} states and searched on without "
        "pruning at new ones)",
        r.state_caches_full, StateCache::kSlotsMax / 2);
  }
  return note;
}

}  // namespace

std::string proof_statement(const Scenario& s, const ExhaustiveOptions& o,
                            const ExhaustiveResult& r) {
  const std::string bounds =
      fmt::format("{} fault(s) per execution, {}", o.max_faults,
                  o.max_preemptions ? fmt::format("at most {} preemption(s)", *o.max_preemptions)
                                    : std::string("no preemption bound"));
  const std::string smaller =
      r.smallest_first
          ? fmt::format(" (and first every smaller scope and fault budget: {} searches)", r.scopes)
          : std::string();
  const std::string scope =
      fmt::format("{} ({}), {} client(s) x {} operation(s), {}{}", s.name, s.recipe, s.clients,
                  s.operations_per_client,
                  o.all_plans && s.plan.empty() ? fmt::format("every plan ({})", r.plans)
                                                : std::string("the seed's plan"),
                  smaller);
  // Random draws (key suffixes, back-off jitter) are the seed's: the search covers those values.
  const std::string draws =
      r.seeded_draws > 0
          ? fmt::format("; the recipe's random draws are seed {}'s ({} execution(s) drew)", o.seed,
                        r.seeded_draws)
          : std::string();
  const std::string counts =
      fmt::format("{} executions ({}), {} abandoned as equivalent, {} distinct outcomes, {:.2f} s",
                  r.executions,
                  o.reduce         ? "one per equivalence class"
                  : o.cache_states ? "the full search, each state's continuations explored once"
                                   : "every interleaving, no reduction",
                  r.blocked, r.distinct_outcomes, r.seconds) +
      (r.resumed > 0
           ? fmt::format(" ({} of the executions and abandoned from {})", r.resumed,
                         o.deal_from.empty() ? "the checkpoint"
                                             : "the sized search's file and the checkpoint")
           : std::string()) +
      (o.cache_states ? states_note(r) : std::string()) + draws;
  const std::string shard = o.shard.count > 1
                                ? fmt::format(" [shard {}/{}: {} of the search's units]",
                                              o.shard.index, o.shard.count, r.units)
                                : std::string();
  if (r.violation) {
    const ExhaustiveFinding& f = *r.violation;
    return fmt::format(
        "VIOLATION: {} at {} client(s) x {} operation(s) with {} fault(s){}, in an exhaustive "
        "search of {} ({}) up to {} x {}, {}{}; {}; {}{}",
        f.verdict.summary(), f.scenario.clients, f.scenario.operations_per_client, f.faults.size(),
        f.minimal ? " (minimal)" : "", s.name, s.recipe, s.clients, s.operations_per_client,
        o.all_plans && s.plan.empty() ? "every plan" : "the seed's plan",
        r.smallest_first ? ", smallest scope first" : "", bounds, counts, shard);
  }
  if (r.sized_only) {
    return fmt::format(
        "SIZED, NOT VERIFIED: the search of {} is cut into {} unit(s), {} of them searched to "
        "the end while sizing; {}; {}; the units are saved in {}: search them with --shard K/N "
        "--deal-from {} on each of N machines, then `contend merge` their --json",
        scope, r.units, r.units_done, bounds, counts, o.checkpoint_file, o.checkpoint_file);
  }
  const std::int64_t clean = r.verdicts.count("linearizable") ? r.verdicts.at("linearizable") : 0;
  if (r.exhausted && clean != r.executions) {
    return fmt::format(
        "NOT VERIFIED: every execution of {} was run, but {} of them could not be judged "
        "(verdict unknown or a step bound hit); {}; {}{}",
        scope, r.executions - clean, bounds, counts, shard);
  }
  if (r.exhausted && o.shard.count > 1) {  // one shard proves its units, not the scope
    return fmt::format(
        "SHARD {}/{} VERIFIED: every execution of its {} unit(s) of the search of {} is "
        "linearizable{}; {}; {}; the scope is verified when `contend merge` of all {} shards' "
        "--json says so",
        o.shard.index, o.shard.count, r.units, scope, o.max_preemptions ? " within the bounds" : "",
        bounds, counts, o.shard.count);
  }
  if (r.exhausted) {
    return fmt::format("VERIFIED: every execution of {} is linearizable{}; {}; {}{}", scope,
                       o.max_preemptions ? " within the bounds" : "", bounds, counts, shard);
  }
  return fmt::format(
      "NOT VERIFIED: the budget ran out: {} of {} units searched to the end in {}; {}; {}{}",
      r.units_done, r.units, scope, bounds, counts, shard);
}

}  // namespace contend
