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
    if (in_determinism_sample(i, seeds[i], percent)) out.push_back(seeds[i]);
  }
  return out;
}

bool in_determinism_sample(std::size_t index, std::uint64_t seed, int percent) {
  CONTEND_ASSERT(percent >= 0 && percent <= 100, "a percentage");
  std::uint64_t mixed = seed;  // the seed's own draw, not a stream shared between seeds
  return index == 0 || splitmix64(mixed) % 100 < static_cast<std::uint64_t>(percent);
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
  std::vector<SampledRun> sample;
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    if (in_determinism_sample(i, outcomes[i].seed, percent))
      sample.push_back(SampledRun{outcomes[i].seed, outcomes[i].metrics.run_hash});
  }
  return check_determinism(scenario, sample, fresh_process, error);
}

DeterminismReport check_determinism(
    const Scenario& scenario, const std::vector<SampledRun>& sample,
    const std::function<std::optional<Rerun>(std::uint64_t seed, std::string& error)>&
        fresh_process,
    std::string& error) {
  DeterminismReport report;
  auto mismatch = [&](const SampledRun& first, const char* where, std::uint64_t rerun_hash,
                      const model::History& rerun_history) {
    report.mismatched_seed = first.seed;
    // The first run's history is not kept; one more run here stands in for it (if that one
    // differs too, the difference is still a nondeterminism, and it is named).
    const SeedRun again = run_seed(scenario, first.seed);
    std::string where_events = first_difference(again.history, rerun_history);
    if (where_events.empty()) where_events = "the histories are equal: the final state differs";
    report.mismatch = std::string(where) + ": run hash " + hex(first.run_hash) + " then " +
                      hex(rerun_hash) + "; " + where_events;
  };
  for (const SampledRun& first : sample) {
    SeedRun rerun = run_seed(scenario, first.seed);
    ++report.rerun;
    if (rerun.metrics.run_hash != first.run_hash) {
      mismatch(first, "rerun in this process", rerun.metrics.run_hash, rerun.history);
      return report;
    }
  }
  if (fresh_process && !sample.empty()) {
    const SampledRun& first = sample.front();
    std::optional<Rerun> rerun = fresh_process(first.seed, error);
    if (!rerun) return report;  // `error` says why
    report.fresh_process = first.seed;
    if (rerun->run_hash != first.run_hash) {
      mismatch(first, "rerun in a fresh process", rerun->run_hash, rerun->history);
    }
  }
  return report;
}

}  // namespace contend
