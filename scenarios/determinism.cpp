#include "scenarios/determinism.h"

#include <cstdio>

#include "base/invariant.h"
#include "base/splitmix.h"
#include "model/history_json.h"
#include "scenarios/runner.h"

namespace contend {

namespace {
std::string hex(std::uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}
}  // namespace

std::vector<std::uint64_t> determinism_sample(const std::vector<std::uint64_t>& seeds,
                                              int percent) {
  CONTEND_ASSERT(percent >= 0 && percent <= 100, "a percentage");
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    std::uint64_t mixed = seeds[i];  // the seed's own draw, not a stream shared between seeds
    if (i == 0 || splitmix64(mixed) % 100 < static_cast<std::uint64_t>(percent))
      out.push_back(seeds[i]);
  }
  return out;
}

std::string first_difference(const model::History& a, const model::History& b) {
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    const std::string x = model::to_json_line(a[i]);
    const std::string y = model::to_json_line(b[i]);
    if (x != y) return "event " + std::to_string(i) + " differs: " + x + " then " + y;
  }
  if (a.size() != b.size()) {
    return "the histories differ in length (" + std::to_string(a.size()) + " then " +
           std::to_string(b.size()) + " events), equal up to event " +
           std::to_string(std::min(a.size(), b.size()));
  }
  return {};
}

DeterminismReport check_determinism(
    const Scenario& scenario, const std::vector<SeedOutcome>& outcomes, int percent,
    const std::function<std::optional<Rerun>(std::uint64_t seed, std::string& error)>&
        fresh_process,
    std::string& error) {
  DeterminismReport report;
  std::vector<std::uint64_t> seeds;
  for (const SeedOutcome& o : outcomes)
    seeds.push_back(o.seed);
  const std::vector<std::uint64_t> sample = determinism_sample(seeds, percent);
  auto first_hash = [&](std::uint64_t seed) {
    for (const SeedOutcome& o : outcomes)
      if (o.seed == seed) return o.metrics.run_hash;
    CONTEND_ASSERT(false, "a sampled seed was run");
    return std::uint64_t{0};
  };
  auto mismatch = [&](std::uint64_t seed, const char* where, std::uint64_t rerun_hash,
                      const model::History& rerun_history) {
    report.mismatched_seed = seed;
    // The first run's history is not kept; one more run here stands in for it (if that one
    // differs too, the difference is still a nondeterminism, and it is named).
    const SeedRun again = run_seed(scenario, seed);
    std::string where_events = first_difference(again.history, rerun_history);
    if (where_events.empty()) where_events = "the histories are equal: the final state differs";
    report.mismatch = std::string(where) + ": run hash " + hex(first_hash(seed)) + " then " +
                      hex(rerun_hash) + "; " + where_events;
  };
  for (std::uint64_t seed : sample) {
    SeedRun rerun = run_seed(scenario, seed);
    ++report.rerun;
    if (rerun.metrics.run_hash != first_hash(seed)) {
      mismatch(seed, "rerun in this process", rerun.metrics.run_hash, rerun.history);
      return report;
    }
  }
  if (fresh_process && !sample.empty()) {
    const std::uint64_t seed = sample.front();
    std::optional<Rerun> rerun = fresh_process(seed, error);
    if (!rerun) return report;  // `error` says why
    report.fresh_process = seed;
    if (rerun->run_hash != first_hash(seed)) {
      mismatch(seed, "rerun in a fresh process", rerun->run_hash, rerun->history);
    }
  }
  return report;
}

}  // namespace contend
