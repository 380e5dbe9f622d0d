#include "scenarios/explore.h"

#include <algorithm>
#include <atomic>
#include <functional>

#include "base/worker_threads.h"
#include "scenarios/seed_range.h"
#include "sim/runtime/exploration.h"

namespace contend {

namespace {

struct Outcome {
  model::Verdict verdict;
  SeedRun run;
};

Outcome run_and_check(const Scenario& s, std::uint64_t seed, std::shared_ptr<Strategy> strategy,
                      bool record = false) {
  RunControls controls;
  controls.strategy = std::move(strategy);
  controls.record_attempts = record;
  Outcome out{model::Verdict{}, run_seed(s, seed, std::move(controls))};
  out.verdict = check_run(s, out.run).verdict;
  return out;
}

bool note(ExploreResult& r, const model::Verdict& verdict, std::uint64_t seed,
          std::vector<std::uint32_t> choices) {
  ++r.schedules;
  r.verdicts[verdict.summary()]++;
  const bool undecided = verdict.kind == model::VerdictKind::unknown ||
                         verdict.kind == model::VerdictKind::simulator_fault;
  // A simulator fault is the one to show: it says contend broke, which outranks an unknown.
  const bool fault = verdict.kind == model::VerdictKind::simulator_fault;
  if (undecided && (!r.first_undecided || (fault && r.first_undecided->verdict.kind !=
                                                        model::VerdictKind::simulator_fault))) {
    r.first_undecided = Finding{seed, trim_choices(choices), verdict, r.schedules};
  }
  if (verdict.kind == model::VerdictKind::violation && !r.violation) {
    r.violation = Finding{seed, trim_choices(std::move(choices)), verdict, r.schedules};
    return true;
  }
  return false;
}

// What note() folds of one schedule: its verdict, the seed it ran and the choices that replay it.
struct Judged {
  model::Verdict verdict;
  std::uint64_t seed = 0;
  std::vector<std::uint32_t> choices;
};

// Schedules that are independent of each other (random's seeds, PCT's priority draws), run on
// `jobs` threads a batch at a time and folded in schedule order, so that the counts, the first
// violation and the first undecided schedule are those of one thread: schedules a batch ran past
// the first violation are not counted. Schedule i is `run_one(i)`.
void explore_independent(ExploreResult& r, const ExploreOptions& o,
                         const std::function<Judged(std::int64_t)>& run_one) {
  const int jobs = std::max(o.jobs, 1);
  // Enough schedules a batch that the threads seldom wait for the batch's slowest (64 a thread:
  // 1.86x on two cores, where the machine gives two independent searches 1.94x; 16: 1.71x),
  // at the cost of up to a batch run past a first violation; one at a time alone.
  const std::int64_t batch = jobs == 1 ? 1 : std::int64_t{jobs} * 64;
  std::vector<Judged> judged;
  for (std::int64_t first = 0; first < o.schedules; first += batch) {
    const std::int64_t count = std::min(batch, o.schedules - first);
    judged.assign(static_cast<std::size_t>(count), Judged{});
    std::atomic<std::int64_t> next{0};
    run_on_threads(
        static_cast<int>(std::min<std::int64_t>(jobs, count)),
        [&] {
          for (std::int64_t i = next++; i < count; i = next++)
            judged[static_cast<std::size_t>(i)] = run_one(first + i);
        },
        "--jobs");
    for (Judged& j : judged)
      if (note(r, j.verdict, j.seed, std::move(j.choices)) && o.stop_at_first_violation) return;
  }
}

}  // namespace

std::vector<std::uint32_t> trim_choices(std::vector<std::uint32_t> choices) {
  while (!choices.empty() && choices.back() == 0)
    choices.pop_back();
  return choices;
}

std::string join_choices(const std::vector<std::uint32_t>& choices) {
  std::string out;
  for (std::size_t i = 0; i < choices.size(); ++i)
    out += (i ? "," : "") + std::to_string(choices[i]);
  return out;
}

ExploreResult explore(const Scenario& s, const ExploreOptions& o) {
  ExploreResult r;
  if (o.strategy == "random") {
    explore_independent(r, o, [&s, &o](std::int64_t i) {
      const std::uint64_t seed = o.seed + static_cast<std::uint64_t>(i);
      return Judged{run_and_check(s, seed, nullptr).verdict, seed, {}};
    });
    return r;
  }
  if (o.strategy == "pct") {
    // k: the choice points of one run of this scenario under a uniform schedule.
    auto probe = std::make_shared<PctStrategy>(o.seed, 1, 1);
    Outcome calibration = run_and_check(s, o.seed, probe);
    r.steps_estimate =
        std::max<std::int64_t>(1, static_cast<std::int64_t>(calibration.run.choices.size()));
    r.pct_probability_bound =
        PctStrategy::probability_bound(s.clients, r.steps_estimate, o.pct_depth);
    const std::int64_t k = r.steps_estimate;
    explore_independent(r, o, [&s, &o, k](std::int64_t i) {
      auto pct = std::make_shared<PctStrategy>(
          o.seed * 1'000'003ULL + static_cast<std::uint64_t>(i), o.pct_depth, k);
      Outcome out = run_and_check(s, o.seed, pct);
      return Judged{std::move(out.verdict), o.seed, std::move(out.run.choices)};
    });
    return r;
  }
  DfsExplorer dfs(o.max_preemptions, o.schedules);
  while (auto prefix = dfs.next_prefix()) {
    auto strategy = std::make_shared<DfsStrategy>(*prefix);
    Outcome out = run_and_check(s, o.seed, strategy);
    dfs.record(strategy->points());
    if (note(r, out.verdict, o.seed, out.run.choices) && o.stop_at_first_violation) break;
  }
  r.exhausted = dfs.exhausted();
  return r;
}

namespace {

class Shrinker {
 public:
  Shrinker(const Scenario& s, const Finding& f, std::int64_t max_runs)
      : best_{s, f, {}, 0, 0}, kind_(f.verdict.violation), max_runs_(max_runs) {}

  Counterexample run() {
    bool progress = true;
    while (progress && runs_ < max_runs_) {
      progress = false;
      for (const Scenario& candidate : smaller_scenarios()) {
        if (try_scenario(candidate)) {
          progress = true;
          break;
        }
      }
      if (!progress) progress = try_shorter_schedule();
    }
    Outcome final_run = reproduce(best_.scenario, best_.finding.seed, best_.finding.choices, true);
    best_.run = std::move(final_run.run);
    best_.finding.verdict = final_run.verdict;
    best_.attempts = runs_;
    for (const auto& e : best_.run.history)
      best_.operations += e.type == model::EventType::invoke;
    return best_;
  }

 private:
  Outcome reproduce(const Scenario& s, std::uint64_t seed,
                    const std::vector<std::uint32_t>& choices, bool record = false) {
    ++runs_;
    std::shared_ptr<Strategy> strategy;
    if (!choices.empty()) strategy = std::make_shared<ReplayStrategy>(choices);
    return run_and_check(s, seed, strategy, record);
  }
  bool same_kind(const model::Verdict& v) const {
    return v.kind == model::VerdictKind::violation && v.violation == kind_;
  }

  std::vector<Scenario> smaller_scenarios() const {
    std::vector<Scenario> out;
    const Scenario& s = best_.scenario;
    auto with = [&](auto change) {
      Scenario c = s;
      change(c);
      out.push_back(std::move(c));
    };
    // A plan is cut with the scope (within_scope), so that the scenario written stays one a
    // file can hold; and any one of its clients may go, not only the last.
    const int ops = s.operations_per_client;
    if (s.clients > 1) out.push_back(within_scope(s, s.clients - 1, ops));
    for (std::size_t gone = 0; !s.plan.empty() && gone + 1 < s.plan.size(); ++gone) {
      with([gone](Scenario& c) {
        c.plan.erase(c.plan.begin() + static_cast<std::ptrdiff_t>(gone));
        c.clients -= 1;
      });
    }
    if (ops > 1) {
      out.push_back(within_scope(s, s.clients, std::max(1, ops / 2)));
      out.push_back(within_scope(s, s.clients, ops - 1));
    }
    for (double FaultKnobs::*knob :
         {&FaultKnobs::not_committed, &FaultKnobs::unknown_result_applied,
          &FaultKnobs::unknown_result_not_applied, &FaultKnobs::read_too_old,
          &FaultKnobs::read_future_version, &FaultKnobs::crash, &FaultKnobs::pause}) {
      if (s.faults.*knob > 0) with([knob](Scenario& c) { c.faults.*knob = 0; });
    }
    if (s.swarm) with([](Scenario& c) { c.swarm = false; });
    return out;
  }

  // A smaller scenario reproduces with the same seed and schedule, or with one of a few seeds.
  bool try_scenario(const Scenario& candidate) {
    const std::uint64_t seed = best_.finding.seed;
    if (reproduce_as(candidate, seed, best_.finding.choices)) return true;
    for (std::uint64_t k = 1; k <= kSeedsPerCandidate && runs_ < max_runs_; ++k) {
      // Within the seeds a counterexample file can hold (kSeedMax + 1 is a power of two).
      if (reproduce_as(candidate, (seed + k * 7919) & kSeedMax, {})) return true;
    }
    return false;
  }
  bool reproduce_as(const Scenario& s, std::uint64_t seed,
                    const std::vector<std::uint32_t>& choices) {
    Outcome o = reproduce(s, seed, choices);
    if (!same_kind(o.verdict)) return false;
    best_.scenario = s;
    best_.finding.seed = seed;
    best_.finding.choices = trim_choices(o.run.choices.empty() ? choices : o.run.choices);
    if (choices.empty()) best_.finding.choices.clear();
    best_.finding.verdict = o.verdict;
    return true;
  }
  bool try_shorter_schedule() {
    std::vector<std::uint32_t>& c = best_.finding.choices;
    for (std::size_t keep : {std::size_t{0}, c.size() / 2, c.size() > 0 ? c.size() - 1 : 0}) {
      if (keep >= c.size() || runs_ >= max_runs_) continue;
      std::vector<std::uint32_t> shorter(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(keep));
      Outcome o = reproduce(best_.scenario, best_.finding.seed, shorter);
      if (same_kind(o.verdict)) {
        c = trim_choices(std::move(shorter));
        return true;
      }
    }
    return false;
  }

  static constexpr std::uint64_t kSeedsPerCandidate = 12;
  Counterexample best_;
  model::ViolationKind kind_;
  std::int64_t max_runs_;
  std::int64_t runs_ = 0;
};

}  // namespace

Counterexample shrink(const Scenario& scenario, const Finding& finding, std::int64_t max_runs) {
  return Shrinker(scenario, finding, max_runs).run();
}

}  // namespace contend
