#include "scenarios/scenario_bounds.h"

#include <algorithm>
#include <sstream>
#include <string_view>

#include "scenarios/expectation.h"
#include "scenarios/seed_range.h"

namespace contend {

namespace {

// Collects the first problem; later checks are skipped once one is found.
class BoundsCheck {
 public:
  explicit BoundsCheck(const std::string& file) : file_(file) {}

  void integer(std::string_view key, std::int64_t value, std::int64_t min, std::int64_t max) {
    if (problem_ || (value >= min && value <= max)) return;
    say(key, out_of_range_text(value, min, max));
  }

  void number(std::string_view key, double value, double min, double max) {
    if (problem_ || (value >= min && value <= max)) return;  // NaN fails both
    say(key, out_of_range_text(value, min, max));
  }

  void one_of(std::string_view key, const std::string& value,
              std::initializer_list<std::string_view> allowed) {
    if (problem_ || std::ranges::find(allowed, value) != allowed.end()) return;
    say(key, not_one_of_text(value, allowed));
  }

  void say(std::string_view key, const std::string& what) {
    if (!problem_) problem_ = file_ + ": " + std::string(key) + ": " + what;
  }

  std::optional<std::string> problem() const { return problem_; }

 private:
  const std::string& file_;
  std::optional<std::string> problem_;
};

void check_latency(BoundsCheck& b, const std::string& kind, const LatencyDistribution& d) {
  const std::string p = "latency." + kind + ".";
  b.integer(p + "min_us", d.min_us, 0, kLatencyUsMax);
  b.integer(p + "mean_us", d.mean_us, 0, kLatencyUsMax);
  b.number(p + "tail_probability", d.tail_probability, 0.0, 1.0);
  b.integer(p + "tail_max_us", d.tail_max_us, 0, kLatencyUsMax);
}

void check_faults(BoundsCheck& b, const FaultKnobs& f) {
  b.number("faults.not_committed", f.not_committed, 0.0, 1.0);
  b.number("faults.unknown_result_applied", f.unknown_result_applied, 0.0, 1.0);
  b.number("faults.unknown_result_not_applied", f.unknown_result_not_applied, 0.0, 1.0);
  b.number("faults.read_too_old", f.read_too_old, 0.0, 1.0);
  b.number("faults.read_future_version", f.read_future_version, 0.0, 1.0);
  b.number("faults.crash", f.crash, 0.0, 1.0);
  b.number("faults.pause", f.pause, 0.0, 1.0);
  b.integer("faults.pause_us", f.pause_us, 0, kLatencyUsMax);
}

void check_mix(BoundsCheck& b, const OperationMix& m) {
  b.number("mix.enqueue", m.enqueue, 0.0, kMixWeightMax);
  b.number("mix.dequeue", m.dequeue, 0.0, kMixWeightMax);
  b.number("mix.push", m.push, 0.0, kMixWeightMax);
  b.number("mix.pop_min", m.pop_min, 0.0, kMixWeightMax);
  b.number("mix.peek_min", m.peek_min, 0.0, kMixWeightMax);
  b.number("mix.pop_max", m.pop_max, 0.0, kMixWeightMax);
  b.number("mix.peek_max", m.peek_max, 0.0, kMixWeightMax);
}

void check_strategy(BoundsCheck& b, const StrategyConfig& c) {
  b.one_of("strategy.name", c.name, {"random", "pct", "dfs", "dpor", "replay"});
  b.integer("strategy.dpor_max_faults", c.dpor_max_faults, 0, kDporMaxFaultsMax);
  b.one_of("strategy.dpor_plans", c.dpor_plans, {"all", "seed"});
  b.one_of("strategy.dpor_draws", c.dpor_draws, {"all", "seed"});
  b.one_of("strategy.dpor_reduction", c.dpor_reduction, {"dpor", "states", "none"});
  b.integer("strategy.pct_depth", c.pct_depth, 1, kPctDepthMax);
  b.integer("strategy.dfs_max_preemptions", c.dfs_max_preemptions, 0, kDfsMaxPreemptionsMax);
  b.integer("strategy.dfs_max_schedules", c.dfs_max_schedules, 1, kDfsMaxSchedulesMax);
}

// The seed range: each seed within int64 (as a file writes it), the last not below the first,
// and no more seeds than one run holds.
void check_seeds(BoundsCheck& b, const Scenario& s) {
  if (s.seed_first > kSeedMax || s.seed_last > kSeedMax) {
    return b.say(s.seed_first > kSeedMax ? "seeds.first" : "seeds.last",
                 "value out of range [0, " + std::to_string(kSeedMax) + "]");
  }
  if (s.seed_last < s.seed_first) return b.say("seeds.last", "must not be below seeds.first");
  if (s.seed_last - s.seed_first >= kMaxSeedsPerRun) {
    b.say("seeds.last", "more than " + std::to_string(kMaxSeedsPerRun) + " seeds in one range");
  }
}

}  // namespace

std::string out_of_range_text(std::int64_t value, std::int64_t min, std::int64_t max) {
  return "value " + std::to_string(value) + " out of range [" + std::to_string(min) + ", " +
         std::to_string(max) + "]";
}

std::string out_of_range_text(double value, double min, double max) {
  std::ostringstream m;
  m << "value " << value << " out of range [" << min << ", " << max << "]";
  return m.str();
}

std::string not_one_of_text(std::string_view value,
                            std::initializer_list<std::string_view> allowed) {
  std::string listed;
  for (std::string_view a : allowed)
    listed += (listed.empty() ? "" : ", ") + std::string(a);
  return "'" + std::string(value) + "' is not one of: " + listed;
}

std::optional<std::string> name_problem(std::string_view name) {
  constexpr const char* kRule =
      "a name is one plain file-name component, without '/', '\\' or NUL and not . or .. "
      "(--out DIR writes DIR/<name>-counterexample.toml)";
  if (name == "." || name == "..") return "'" + std::string(name) + "' names a directory; " + kRule;
  if (name.find('\0') != std::string_view::npos) return std::string("it holds a NUL; ") + kRule;
  const auto separator = name.find_first_of("/\\");
  if (separator == std::string_view::npos) return std::nullopt;
  return "'" + std::string(name) + "' holds '" + name[separator] + "'; " + kRule;
}

std::optional<std::string> scenario_out_of_bounds(const Scenario& s) {
  BoundsCheck b(s.file);
  if (auto problem = name_problem(s.name)) b.say("name", *problem);
  b.integer("clients", s.clients, 1, kClientsMax);
  b.integer("operations_per_client", s.operations_per_client, kOperationsPerClientMin,
            kOperationsPerClientMax);
  if (auto problem = validate_expectation(s.expect)) b.say("expect", *problem);
  if (!s.model.empty()) b.one_of("model", s.model, {"fifo", "priority", "multiset"});
  check_seeds(b, s);
  check_mix(b, s.mix);
  b.integer("priorities.min", s.priority_min, -kPriorityMagnitudeMax, kPriorityMagnitudeMax);
  b.integer("priorities.max", s.priority_max, -kPriorityMagnitudeMax, kPriorityMagnitudeMax);
  if (s.priority_max < s.priority_min) b.say("priorities.max", "must not be below priorities.min");
  check_latency(b, "read_version", s.latency.read_version);
  check_latency(b, "read", s.latency.read);
  check_latency(b, "commit", s.latency.commit);
  check_faults(b, s.faults);
  check_strategy(b, s.strategy);
  b.integer("limits.max_steps", s.max_steps, 1, INT64_MAX);
  b.integer("limits.max_virtual_seconds", s.max_virtual_seconds, 1, kMaxVirtualSecondsMax);
  b.integer("limits.retry_limit", s.retry_limit, 1, kRetryLimitMax);
  b.integer("limits.search_budget", s.search_budget, 1, INT64_MAX);
  return b.problem();
}

}  // namespace contend
