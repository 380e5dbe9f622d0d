#include "scenarios/cli/merge_exhaustive.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "base/invariant.h"
#include "scenarios/batch.h"
#include "scenarios/json_shape.h"
#include "scenarios/search_estimate.h"

namespace contend::cli {

namespace {

// The fields every shard of one search must share: its scope, plans, bounds and expectation, and
// its scenario by its contents (the path it was read from may differ from machine to machine;
// the contents come last, so that a message names the field it can).
constexpr const char* kSameSearch[] = {"recipe",
                                       "clients",
                                       "operations_per_client",
                                       "plans",
                                       "plan",
                                       "draws",
                                       "seed",
                                       "max_faults",
                                       "fault_kinds",
                                       "max_preemptions",
                                       "reduction",
                                       "expect",
                                       "dealt_from",
                                       "scenario_contents"};

// The counts a merge adds up.
constexpr JsonField kSummed[] = {{"executions", &kCount},
                                 {"equivalence_classes", &kCount},
                                 {"abandoned_as_equivalent", &kCount},
                                 {"abandoned_parked", &kCount},
                                 {"bound_hits", &kCount},
                                 {"units", &kCount},
                                 {"units_done", &kCount},
                                 {"seeded_draws", &kCount},
                                 {"resumed_from_checkpoint", &kCount},
                                 {"runs_in_scope", &kCount}};

// What stopped a shard before its end, as `explore --json` says it; null for a shard that ran on.
constexpr const char* kStopCauses[] = {"signal", "max_seconds"};
const JsonKind kStopCause{
    "\"signal\", \"max_seconds\" or null", [](const nlohmann::json& j) {
      return j.is_null() ||
             (j.is_string() &&
              std::ranges::find(kStopCauses, j.get<std::string>()) != std::end(kStopCauses));
    }};

// Besides kSummed, every field merge reads from a summary (verdicts and coverage: objects of
// counts, summary_problem checks each), and from its counterexample.
constexpr JsonField kRead[] = {{"verdicts", &kObject},
                               {"coverage", &kObject},
                               {"exhausted", &kBoolean},
                               {"interrupted", &kBoolean},
                               {"shard", &kText},
                               {"scenario", &kText},
                               {"scenario_contents", &kText},
                               {"plans", &kText},
                               {"expect", &kText},
                               {"clients", &kCount},
                               {"operations_per_client", &kCount},
                               {"seconds", &kSeconds},
                               {"runs_estimate", &kCountOrNull},
                               {"stopped_by", &kStopCause},
                               {"max_seconds", &kSecondsOrNull}};
constexpr JsonField kReadOfCounterexample[] = {{"clients", &kSmallCount},
                                               {"operations_per_client", &kSmallCount},
                                               {"faults", &kList},
                                               {"violation", &kText}};

// Why a shard's summary does not have the shape `contend explore --json` writes it in, naming
// the field (only those merge reads); nothing when it has. A field of the wrong kind is named
// before a missing one: of two faults in one file, it is the more telling.
std::optional<std::string> summary_problem(const nlohmann::json& j) {
  if (auto problem = kind_problem(j, kSummed, "")) return problem;
  if (auto problem = kind_problem(j, kRead, "")) return problem;
  for (const char* tally : {"verdicts", "coverage"}) {
    if (!j.contains(tally)) continue;
    for (const auto& [key, n] : j[tally].items()) {
      if (!is_count(n)) return fmt::format("field \"{}.{}\" is not {}", tally, key, kCount.name);
    }
  }
  const bool found = j.contains("counterexample");
  if (found && !j["counterexample"].is_object()) return "field \"counterexample\" is not an object";
  if (found) {
    if (auto problem = kind_problem(j["counterexample"], kReadOfCounterexample, "counterexample."))
      return problem;
  }
  if (auto problem = missing_problem(j, kSummed, "")) return problem;
  if (auto problem = missing_problem(j, kRead, "")) return problem;
  if (found) {
    if (auto problem =
            missing_problem(j["counterexample"], kReadOfCounterexample, "counterexample."))
      return problem;
  }
  // A search stops before its end for one cause, and says which.
  if (j["interrupted"].get<bool>() == j["stopped_by"].is_null()) {
    return fmt::format("field \"stopped_by\" is {} while \"interrupted\" is {}",
                       j["stopped_by"].dump(), j["interrupted"].dump());
  }
  if (j["stopped_by"] == "max_seconds" && j["max_seconds"].is_null())
    return "field \"max_seconds\" is null while \"stopped_by\" is \"max_seconds\"";
  return std::nullopt;
}

// Adds `n` to `total`; false when the sum passes what a count holds (2^63 - 1).
bool add_count(std::int64_t& total, std::int64_t n) {
  return !__builtin_add_overflow(total, n, &total);
}

// The runs the merged search's last scope takes in all: each shard's estimate, or its runs when
// it searched its units to the end; null when a stopped shard has no estimate, the shards' last
// scopes differ (smallest first, each stops at the first scope it does not finish), or the sum
// passes a count (an estimate may be as large as kRunsEstimateMax).
nlohmann::json merged_runs_estimate(const std::vector<nlohmann::json>& shards) {
  std::int64_t total = 0;
  for (const nlohmann::json& j : shards) {
    if (j.value("last_scope", nlohmann::json()) !=
        shards.front().value("last_scope", nlohmann::json()))
      return nullptr;
    const nlohmann::json& estimate = j.at("runs_estimate");
    std::int64_t runs = 0;
    if (!estimate.is_null()) {
      runs = estimate.get<std::int64_t>();
    } else if (j.at("exhausted").get<bool>()) {
      runs = j.at("runs_in_scope").get<std::int64_t>();
    } else {
      return nullptr;
    }
    if (!add_count(total, runs)) return nullptr;
  }
  return total;
}

// The smaller of two counterexamples: fewer operations in all, then clients, then faults. (Their
// clients and operations are counts below 2^31: the product fits.)
bool smaller(const nlohmann::json& a, const nlohmann::json& b) {
  auto size = [](const nlohmann::json& c) {
    const auto clients = c.at("clients").get<std::int64_t>();
    return std::tuple(clients * c.at("operations_per_client").get<std::int64_t>(), clients,
                      c.at("faults").size());
  };
  return size(a) < size(b);
}

// "all", or "seed [enqueue dequeue] [...]" when the shards searched one plan.
std::string plans_searched(const nlohmann::json& merged) {
  std::string out = merged.at("plans").get<std::string>();
  const nlohmann::json plan = merged.value("plan", nlohmann::json());
  if (plan.is_string()) out += " " + plan.get<std::string>();
  return out;
}

// The shards of N not in `seen` (each from 1 to N), as runs: "3/8" for one, "5-8/8" for several
// in a row (a search of a million shards, three given, names its missing ones in a few runs).
std::vector<std::string> missing_shards(const std::set<std::uint64_t>& seen, std::uint64_t count) {
  std::vector<std::string> runs;
  auto add = [&](std::uint64_t first, std::uint64_t last) {
    if (first > last) return;
    runs.push_back(first == last ? fmt::format("{}/{}", first, count)
                                 : fmt::format("{}-{}/{}", first, last, count));
  };
  std::uint64_t next = 1;  // the first shard not yet accounted for
  for (std::uint64_t k : seen) {
    add(next, k - 1);
    next = k + 1;
  }
  add(next, count);
  return runs;
}

MergeOutcome refused(std::string error) {
  MergeOutcome out;
  out.exit_code = 2;
  out.error = std::move(error);
  return out;
}

// Why a summary is not a shard's: a partial merge's (some shards missing: merge the shards' own
// summaries), or one whose "shards_missing" is not a list; nothing for a shard's or a whole
// merge's.
std::optional<std::string> partial_merge_problem(const nlohmann::json& j) {
  if (!j.contains("shards_missing")) return std::nullopt;
  const nlohmann::json& missing = j["shards_missing"];
  if (!missing.is_array()) return "field \"shards_missing\" is not a list";
  if (missing.empty()) return std::nullopt;
  return "field \"shards_missing\" names shards: the summary of a partial merge (merge the "
         "shards' own summaries)";
}

// Why the summaries are not shards 1..N of one search, each once (with ShardSet::partial, some of
// them); nothing when they are (then `count` is N, and `missing` names the shards not given).
std::optional<std::string> shards_problem(const std::vector<nlohmann::json>& shards,
                                          const std::vector<std::string>& names, ShardSet set,
                                          std::uint64_t& count, std::vector<std::string>& missing) {
  for (std::size_t i = 0; i < shards.size(); ++i) {
    if (std::optional<std::string> problem = summary_problem(shards[i]))
      return names[i] + ": " + *problem;
    if (std::optional<std::string> problem = partial_merge_problem(shards[i]))
      return names[i] + ": " + *problem;
  }
  std::set<std::uint64_t> seen;
  count = 0;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const nlohmann::json& j = shards[i];
    std::string why;  // the message names the field instead
    const std::optional<Shard> shard = parse_shard(j.at("shard").get<std::string>(), why);
    if (!shard) return names[i] + ": field \"shard\" is not K/N (1 <= K <= N)";
    const std::uint64_t k = shard->index, n = shard->count;
    if (count == 0) count = n;
    for (const char* field : kSameSearch) {
      if (j.value(field, nlohmann::json()) != shards.front().value(field, nlohmann::json())) {
        return fmt::format("{}: field \"{}\" differs from {}: not a shard of the same search",
                           names[i], field, names.front());
      }
    }
    if (n != count || !seen.insert(k).second) {
      return fmt::format("{}: shard {} of {} is given twice or does not fit the others' {}",
                         names[i], k, n, count);
    }
  }
  missing = missing_shards(seen, count);
  if (seen.size() != count && set == ShardSet::whole) {
    return fmt::format(
        "{} of the search's {} shards given: shard(s) {} missing (--partial merges the shards "
        "given, never as verified)",
        seen.size(), count, fmt::join(missing, ", "));
  }
  return std::nullopt;
}

// Adds each shard's counts of `field` (a tally: an object of counts) into `totals`; false when a
// total passes what a count holds.
bool add_tallies(const std::vector<nlohmann::json>& shards, const char* field,
                 std::map<std::string, std::int64_t>& totals) {
  for (const nlohmann::json& j : shards) {
    for (const auto& [key, n] : j.at(field).items())
      if (!add_count(totals[key], n.get<std::int64_t>())) return false;
  }
  return true;
}

std::string overflow(std::string_view field) {
  return fmt::format("the shards' \"{}\" add up past 2^63 - 1: not shards of one search", field);
}

// A shard stopped before its end: its "K/N" and what stopped it ("signal" or "max_seconds").
struct StoppedShard {
  std::string shard;
  std::string cause;
  nlohmann::json max_seconds;  // its time limit, or null
};

// "2/4 (a signal)", or "2/4 (its time limit, --max-seconds 30)".
std::string said_of(const StoppedShard& s) {
  if (s.cause == "signal") return s.shard + " (a signal)";
  return fmt::format("{} (its time limit, --max-seconds {})", s.shard, s.max_seconds.get<double>());
}

// The merged summary's "stopped_by": null when no shard stopped, the cause when every stopped
// shard had the same one, else "mixed" ("stopped_shards" gives each shard's).
nlohmann::json merged_stopped_by(const std::vector<StoppedShard>& stopped) {
  if (stopped.empty()) return nullptr;
  for (const StoppedShard& s : stopped)
    if (s.cause != stopped.front().cause) return "mixed";
  return stopped.front().cause;
}

// The shards' common time limit, or null when they differ (or none had one).
nlohmann::json merged_max_seconds(const std::vector<nlohmann::json>& shards) {
  for (const nlohmann::json& j : shards)
    if (j.at("max_seconds") != shards.front().at("max_seconds")) return nullptr;
  return shards.front().at("max_seconds");
}

// The merged search's one-line statement.
std::string statement_of(const nlohmann::json& merged, std::uint64_t count,
                         const std::vector<StoppedShard>& interrupted,
                         const std::vector<std::string>& missing) {
  const bool found = merged.contains("counterexample");
  const std::string shards_given =
      missing.empty()
          ? fmt::format("{}", count)
          : fmt::format("{} of the {}", merged.at("shards_merged").get<std::int64_t>(), count);
  std::string statement = fmt::format(
      "{}: {} shards of the exhaustive search of {} ({} client(s) x {} operation(s), plans: {}): "
      "{} executions, {} units searched to the end of {}",
      merged["verdict"] == "linearizable" ? "VERIFIED"
      : found                             ? "VIOLATION"
                                          : "NOT VERIFIED",
      shards_given, merged.at("scenario").get<std::string>(),
      merged.at("clients").get<std::int64_t>(),
      merged.at("operations_per_client").get<std::int64_t>(), plans_searched(merged),
      merged.at("executions").get<std::int64_t>(), merged.at("units_done").get<std::int64_t>(),
      merged.at("units").get<std::int64_t>());
  if (merged["runs_estimate"].is_number_integer() && !found) {
    const auto whole = static_cast<double>(merged["runs_estimate"].get<std::int64_t>());
    const auto made = static_cast<double>(merged.at("runs_in_scope").get<std::int64_t>());
    statement += fmt::format(
        "; by the shards' estimates the whole search of the scope takes about {} runs "
        "(executions and abandoned; {} of them made)",
        about_count(whole), percent(made / std::max(whole, 1.0)));
  }
  if (!missing.empty()) {
    statement += fmt::format(
        "; shard(s) {} not given (merged with --partial: the scope is verified only by a merge "
        "of every shard)",
        fmt::join(missing, ", "));
  }
  if (!interrupted.empty()) {
    std::vector<std::string> said;
    for (const StoppedShard& s : interrupted)
      said.push_back(said_of(s));
    statement += fmt::format(
        "; interrupted before their end: shard(s) {} (each goes on from its --checkpoint with "
        "the same command)",
        fmt::join(said, ", "));
  }
  return statement;
}

}  // namespace

MergeOutcome merge_exhaustive(const std::vector<nlohmann::json>& shards,
                              const std::vector<std::string>& names, ShardSet set) {
  CONTEND_ASSERT(!shards.empty() && shards.size() == names.size(), "each shard has a name");
  std::uint64_t count = 0;
  std::vector<std::string> missing;
  if (std::optional<std::string> problem = shards_problem(shards, names, set, count, missing))
    return refused(*problem);
  nlohmann::json merged = shards.front();
  for (const JsonField& field : kSummed) {
    std::int64_t total = 0;
    for (const nlohmann::json& j : shards)
      if (!add_count(total, j.at(field.name).get<std::int64_t>()))
        return refused(overflow(field.name));
    merged[field.name] = total;
  }
  std::map<std::string, std::int64_t> verdicts;
  std::map<std::string, std::int64_t> coverage;
  if (!add_tallies(shards, "verdicts", verdicts)) return refused(overflow("verdicts"));
  if (!add_tallies(shards, "coverage", coverage)) return refused(overflow("coverage"));
  bool exhausted = missing.empty();       // the shards not given searched nothing here
  std::vector<StoppedShard> interrupted;  // the shards a signal or --max-seconds stopped
  double seconds = 0;
  std::optional<nlohmann::json> counterexample;
  for (const nlohmann::json& j : shards) {
    exhausted = exhausted && j.at("exhausted").get<bool>();
    if (j.at("interrupted").get<bool>()) {
      interrupted.push_back({j.at("shard").get<std::string>(),
                             j.at("stopped_by").get<std::string>(), j.at("max_seconds")});
    }
    seconds += j.at("seconds").get<double>();
    if (j.contains("counterexample") &&
        (!counterexample || smaller(j["counterexample"], *counterexample))) {
      counterexample = j["counterexample"];
    }
  }
  merged["verdicts"] = verdicts;
  merged["coverage"] = coverage;
  merged["exhausted"] = exhausted;
  merged["interrupted"] = !interrupted.empty();
  merged["stopped_by"] = merged_stopped_by(interrupted);
  merged["stopped_shards"] = nlohmann::json::object();
  for (const StoppedShard& s : interrupted)
    merged["stopped_shards"][s.shard] = s.cause;
  merged["max_seconds"] = merged_max_seconds(shards);
  merged["seconds"] = seconds;  // machine time, summed over the shards
  merged["shard"] = "1/1";
  merged["shards_merged"] = shards.size();
  merged["shards_missing"] = missing;
  merged["distinct_outcomes"] = nullptr;  // shards may reach the same outcome: not additive
  // The shards given say nothing of the size of those not given.
  merged["runs_estimate"] =
      exhausted || !missing.empty() ? nlohmann::json(nullptr) : merged_runs_estimate(shards);
  const bool clean = verdicts.size() == 1 && verdicts.count("linearizable") == 1 &&
                     merged.at("bound_hits").get<std::int64_t>() == 0;
  merged["verdict"] = counterexample       ? "violation"
                      : exhausted && clean ? "linearizable"
                                           : "unknown";
  if (counterexample) {
    merged["counterexample"] = *counterexample;
  } else {
    merged.erase("counterexample");
  }
  const std::string expect = merged.at("expect").get<std::string>();
  const bool passed =
      expect == "linearizable"
          ? merged["verdict"] == "linearizable"
          : counterexample && (expect == "violation" ||
                               counterexample->at("violation").get<std::string>() == expect);
  merged["passed"] = passed;
  MergeOutcome out;
  out.statement = statement_of(merged, count, interrupted, missing);
  merged["statement"] = out.statement;
  // An exhausted search none of whose executions violated, but not every one judged, is unknown
  // (exit 3), as the unsharded search says, never a finding.
  out.exit_code = passed ? 0 : counterexample || (exhausted && clean) ? 1 : 3;
  merged["exit_code"] = out.exit_code;  // the merge's, not the first shard's
  out.merged = merged.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  return out;
}

}  // namespace contend::cli
