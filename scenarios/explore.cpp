#include "scenarios/explore.h"

#include <algorithm>

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

bool note(ExploreResult& r, const Outcome& o, std::uint64_t seed,
          std::vector<std::uint32_t> choices) {
  ++r.schedules;
  r.verdicts[o.verdict.summary()]++;
  const bool undecided = o.verdict.kind == model::VerdictKind::unknown ||
                         o.verdict.kind == model::VerdictKind::simulator_fault;
  // A simulator fault is the one to show: it says contend broke, which outranks an unknown.
  const bool fault = o.verdict.kind == model::VerdictKind::simulator_fault;
  if (undecided && (!r.first_undecided || (fault && r.first_undecided->verdict.kind !=
                                                        model::VerdictKind::simulator_fault))) {
    r.first_undecided = Finding{seed, trim_choices(choices), o.verdict, r.schedules};
  }
  if (o.verdict.kind == model::VerdictKind::violation && !r.violation) {
    r.violation = Finding{seed, trim_choices(std::move(choices)), o.verdict, r.schedules};
    return true;
  }
  return false;
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
  const bool stop = o.stop_at_first_violation;
  if (o.strategy == "random") {
    for (std::int64_t i = 0; i < o.schedules; ++i) {
      const std::uint64_t seed = o.seed + static_cast<std::uint64_t>(i);
      if (note(r, run_and_check(s, seed, nullptr), seed, {}) && stop) break;
    }
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
    for (std::int64_t i = 0; i < o.schedules; ++i) {
      auto pct = std::make_shared<PctStrategy>(
          o.seed * 1'000'003ULL + static_cast<std::uint64_t>(i), o.pct_depth, r.steps_estimate);
      Outcome out = run_and_check(s, o.seed, pct);
      if (note(r, out, o.seed, out.run.choices) && stop) break;
    }
    return r;
  }
  DfsExplorer dfs(o.max_preemptions, o.schedules);
  while (auto prefix = dfs.next_prefix()) {
    auto strategy = std::make_shared<DfsStrategy>(*prefix);
    Outcome out = run_and_check(s, o.seed, strategy);
    dfs.record(strategy->points());
    if (note(r, out, o.seed, out.run.choices) && stop) break;
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
