// The bounds of a scenario's every number and named value, in one place for the two ways a
// scenario is made: the TOML reader checks each key against these bounds and names its line;
// scenario_out_of_bounds checks a scenario built in code (contend::testing's users fill the
// struct themselves), where nothing else would stop a negative latency (an internal check), a
// seed range whose last seed is below its first (a run of 2^64 seeds) or a probability of 2.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "scenarios/scenario.h"

namespace contend {

// A scope has one operation at least: with none, a run would judge nothing and pass, and an
// exhaustive search would "verify" a broken recipe in 0 executions.
inline constexpr int kOperationsPerClientMin = 1;
inline constexpr const char* kNoOperation =
    "no client has an operation: a run would judge nothing and pass";
inline constexpr std::int64_t kLatencyUsMax = 3600LL * 1'000'000;  // also faults.pause_us
inline constexpr double kMixWeightMax = 1e6;
inline constexpr std::int64_t kPriorityMagnitudeMax = 1'000'000;
inline constexpr int kDporMaxFaultsMax = 16;
inline constexpr int kPctDepthMax = 64;
inline constexpr int kDfsMaxPreemptionsMax = 64;
inline constexpr std::int64_t kDfsMaxSchedulesMax = 1'000'000'000;
inline constexpr std::int64_t kMaxVirtualSecondsMax = 10'000'000;
inline constexpr int kRetryLimitMax = 1'000'000;

// What the reader and scenario_out_of_bounds say of a value outside its bounds ("value 2 out of
// range [0, 1]") and of a name outside its list ("'bfs' is not one of: random, pct").
std::string out_of_range_text(std::int64_t value, std::int64_t min, std::int64_t max);
std::string out_of_range_text(double value, double min, double max);
std::string not_one_of_text(std::string_view value,
                            std::initializer_list<std::string_view> allowed);

// Why `name` cannot be a scenario's name, or nothing: a name is one plain file-name component
// ("queue", "-x" too), since `--out DIR` writes a counterexample as DIR/<name>-counterexample.toml
// — a '/' (or '\\') would put it outside DIR, a NUL would cut the path short, and "." and ".."
// name directories. The empty name is the default of a scenario built in code (the TOML reader
// gives a file without `name` its file's name).
std::optional<std::string> name_problem(std::string_view name);

// The first value of `s` outside its bounds, said as the TOML reader says it ("FILE: faults.crash:
// value 2 out of range [0, 1]"), or nothing. Cross-key rules (a plan's size, the model's family,
// the checks) are validate_scenario's.
std::optional<std::string> scenario_out_of_bounds(const Scenario& s);

}  // namespace contend
