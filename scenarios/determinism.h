// The determinism self-check of `contend run --check-determinism[=P]` (FoundationDB reruns a
// sample of seeds and compares their unseeds; madsim has a determinism-check mode): a sample of
// P% of the seeds (at least one) is run again — in this process, and one of them also in a fresh
// process — and each rerun's run hash (which covers the history, the final store and the final
// draw of the scheduling stream) must equal the first run's. A mismatch names the first history
// event that differs.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/history.h"
#include "scenarios/batch.h"

namespace contend {

// What a rerun gives: the run hash and the history.
struct Rerun {
  std::uint64_t run_hash = 0;
  model::History history;
};

// The seeds of `seeds` the check reruns: those whose splitmix64 draw falls in the first
// `percent` of a hundred, and the first seed always (so every check reruns something).
std::vector<std::uint64_t> determinism_sample(const std::vector<std::uint64_t>& seeds, int percent);
// Whether the seed at `index` (0-based, in run order) of a run is in its sample.
bool in_determinism_sample(std::size_t index, std::uint64_t seed, int percent);

// A sampled seed and the run hash its first run gave.
struct SampledRun {
  std::uint64_t seed = 0;
  std::uint64_t run_hash = 0;
};

struct DeterminismReport {
  std::size_t rerun = 0;                         // seeds rerun in this process
  std::optional<std::uint64_t> fresh_process;    // the seed also rerun in a fresh process
  std::optional<std::uint64_t> mismatched_seed;  // the first seed whose rerun differs
  std::string mismatch;                          // how: "in this process: event 17 differs: ..."
  bool ok() const { return !mismatched_seed; }
};

// Reruns the sample of `outcomes` (run_seed in this process, compared with the outcome's run
// hash); then the first sampled seed through `fresh_process` when given (it returns nothing, with
// `error` set, when it cannot run one). A mismatch reruns the seed once more here to name the
// first differing event.
DeterminismReport check_determinism(
    const Scenario& scenario, const std::vector<SeedOutcome>& outcomes, int percent,
    const std::function<std::optional<Rerun>(std::uint64_t seed, std::string& error)>&
        fresh_process,
    std::string& error);
// The same for a run that kept only its sample (in_determinism_sample), in run order.
DeterminismReport check_determinism(
    const Scenario& scenario, const std::vector<SampledRun>& sample,
    const std::function<std::optional<Rerun>(std::uint64_t seed, std::string& error)>&
        fresh_process,
    std::string& error);

// "event 17 differs: {...} then {...}" for the first differing event of two histories, or a
// length difference; empty when equal.
std::string first_difference(const model::History& a, const model::History& b);

}  // namespace contend
