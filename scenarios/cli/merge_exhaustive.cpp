#include "scenarios/cli/merge_exhaustive.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "scenarios/search_estimate.h"

namespace contend::cli {

namespace {

// The fields every shard of one search must share.
constexpr const char* kSameSearch[] = {
    "scenario", "recipe",    "clients",    "operations_per_client", "plans",           "plan",
    "draws",    "seed",      "max_faults", "fault_kinds",           "max_preemptions", "reduction",
    "expect",   "dealt_from"};

constexpr const char* kSummed[] = {"executions",
                                   "equivalence_classes",
                                   "abandoned_as_equivalent",
                                   "abandoned_parked",
                                   "bound_hits",
                                   "units",
                                   "units_done",
                                   "scopes_searched",
                                   "seeded_draws",
                                   "resumed_from_checkpoint",
                                   "runs_in_scope"};

// The runs the merged search's last scope takes in all: each shard's estimate, or its runs when
// it searched its units to the end; null when a stopped shard has no estimate, or the shards'
// last scopes differ (smallest first, each stops at the first scope it does not finish).
nlohmann::json merged_runs_estimate(const std::vector<nlohmann::json>& shards) {
  std::int64_t total = 0;
  for (const nlohmann::json& j : shards) {
    if (j.value("last_scope", nlohmann::json()) !=
        shards.front().value("last_scope", nlohmann::json()))
      return nullptr;
    const nlohmann::json estimate = j.value("runs_estimate", nlohmann::json(nullptr));
    if (estimate.is_number_integer()) {
      total += estimate.get<std::int64_t>();
    } else if (j.value("exhausted", false)) {
      total += j.value("runs_in_scope", std::int64_t{0});
    } else {
      return nullptr;
    }
  }
  return total;
}

bool parse_shard_field(const nlohmann::json& j, std::uint64_t& k, std::uint64_t& n) {
  const std::string text = j.value("shard", "");
  return std::sscanf(text.c_str(), "%" SCNu64 "/%" SCNu64, &k, &n) == 2 && k >= 1 && k <= n;
}

// The smaller of two counterexamples: fewer operations in all, then clients, then faults.
bool smaller(const nlohmann::json& a, const nlohmann::json& b) {
  auto size = [](const nlohmann::json& c) {
    const auto clients = c.value("clients", 0);
    return std::tuple(clients * c.value("operations_per_client", 0), clients,
                      c.value("faults", nlohmann::json::array()).size());
  };
  return size(a) < size(b);
}

// Why a shard's summary does not have the shape `contend explore --json` writes it in, naming
// the field (only those merge reads); nothing when it has.
std::optional<std::string> summary_problem(const nlohmann::json& j) {
  const auto not_a = [](const std::string& field, const char* kind) {
    return fmt::format("field \"{}\" is not {}", field, kind);
  };
  for (const char* field : kSummed)
    if (j.contains(field) && !j[field].is_number_integer()) return not_a(field, "an integer");
  for (const char* field : {"verdicts", "coverage"}) {
    if (!j.contains(field)) continue;
    if (!j[field].is_object()) return not_a(field, "an object");
    for (const auto& [key, n] : j[field].items())
      if (!n.is_number_integer()) return not_a(fmt::format("{}.{}", field, key), "an integer");
  }
  for (const char* field : {"exhausted", "interrupted"})
    if (j.contains(field) && !j[field].is_boolean()) return not_a(field, "true or false");
  for (const char* field : {"shard", "scenario", "plans", "expect"})
    if (j.contains(field) && !j[field].is_string()) return not_a(field, "a string");
  for (const char* field : {"clients", "operations_per_client"})
    if (j.contains(field) && !j[field].is_number_integer()) return not_a(field, "an integer");
  if (j.contains("seconds") && !j["seconds"].is_number()) return not_a("seconds", "a number");
  if (j.contains("runs_estimate") && !j["runs_estimate"].is_null() &&
      !j["runs_estimate"].is_number_integer()) {
    return not_a("runs_estimate", "an integer or null");
  }
  if (!j.contains("counterexample")) return std::nullopt;
  const nlohmann::json& c = j["counterexample"];
  if (!c.is_object()) return not_a("counterexample", "an object");
  for (const char* field : {"clients", "operations_per_client"}) {
    if (c.contains(field) && !c[field].is_number_integer())
      return not_a(fmt::format("counterexample.{}", field), "an integer");
  }
  if (c.contains("faults") && !c["faults"].is_array())
    return not_a("counterexample.faults", "an array");
  if (c.contains("violation") && !c["violation"].is_string())
    return not_a("counterexample.violation", "a string");
  return std::nullopt;
}

// "all", or "seed [enqueue dequeue] [...]" when the shards searched one plan.
std::string plans_searched(const nlohmann::json& merged) {
  std::string out = merged.value("plans", "?");
  const nlohmann::json plan = merged.value("plan", nlohmann::json());
  if (plan.is_string()) out += " " + plan.get<std::string>();
  return out;
}

}  // namespace

int merge_exhaustive(const std::vector<nlohmann::json>& shards,
                     const std::vector<std::string>& paths, const std::string& out) {
  nlohmann::json merged = shards.front();
  std::set<std::uint64_t> seen;
  std::uint64_t count = 0;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    if (std::optional<std::string> problem = summary_problem(shards[i])) {
      fmt::print(stderr, "contend merge: {}: {}\n", paths[i], *problem);
      return 2;
    }
  }
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const nlohmann::json& j = shards[i];
    std::uint64_t k = 0, n = 0;
    if (!parse_shard_field(j, k, n)) {
      fmt::print(stderr, "contend merge: {}: field \"shard\" is not K/N\n", paths[i]);
      return 2;
    }
    if (count == 0) count = n;
    for (const char* field : kSameSearch) {
      if (j.value(field, nlohmann::json()) != shards.front().value(field, nlohmann::json())) {
        fmt::print(stderr,
                   "contend merge: {}: field \"{}\" differs from {}: not a shard of the "
                   "same search\n",
                   paths[i], field, paths.front());
        return 2;
      }
    }
    if (n != count || !seen.insert(k).second) {
      fmt::print(stderr,
                 "contend merge: {}: shard {} of {} is given twice or does not fit the "
                 "others' {}\n",
                 paths[i], k, n, count);
      return 2;
    }
  }
  if (seen.size() != count) {
    fmt::print(stderr, "contend merge: {} of the search's {} shards given: a shard is missing\n",
               seen.size(), count);
    return 2;
  }
  for (const char* field : kSummed) {
    std::int64_t total = 0;
    for (const nlohmann::json& j : shards)
      total += j.value(field, std::int64_t{0});
    merged[field] = total;
  }
  std::map<std::string, std::int64_t> verdicts;
  std::map<std::string, std::int64_t> coverage;
  bool exhausted = true;
  std::vector<std::string> interrupted;  // the shards a signal stopped, as "K/N"
  double seconds = 0;
  std::optional<nlohmann::json> counterexample;
  for (const nlohmann::json& j : shards) {
    const nlohmann::json shard_verdicts = j.value("verdicts", nlohmann::json::object());
    for (const auto& [verdict, n] : shard_verdicts.items())
      verdicts[verdict] += n.get<std::int64_t>();
    const nlohmann::json shard_coverage = j.value("coverage", nlohmann::json::object());
    for (const auto& [kind, n] : shard_coverage.items())
      coverage[kind] += n.get<std::int64_t>();
    exhausted = exhausted && j.value("exhausted", false);
    if (j.value("interrupted", false)) interrupted.push_back(j.value("shard", "?"));
    seconds += j.value("seconds", 0.0);
    if (j.contains("counterexample") &&
        (!counterexample || smaller(j["counterexample"], *counterexample))) {
      counterexample = j["counterexample"];
    }
  }
  merged["verdicts"] = verdicts;
  merged["coverage"] = coverage;
  merged["exhausted"] = exhausted;
  merged["interrupted"] = !interrupted.empty();
  merged["seconds"] = seconds;  // machine time, summed over the shards
  merged["shard"] = "1/1";
  merged["shards_merged"] = count;
  merged["distinct_outcomes"] = nullptr;  // shards may reach the same outcome: not additive
  merged["runs_estimate"] = exhausted ? nlohmann::json(nullptr) : merged_runs_estimate(shards);
  const bool clean = verdicts.size() == 1 && verdicts.count("linearizable") == 1 &&
                     merged.value("bound_hits", 0) == 0;
  merged["verdict"] = counterexample       ? "violation"
                      : exhausted && clean ? "linearizable"
                                           : "unknown";
  if (counterexample) {
    merged["counterexample"] = *counterexample;
  } else {
    merged.erase("counterexample");
  }
  const std::string expect = merged.value("expect", "linearizable");
  const bool passed = expect == "linearizable"
                          ? merged["verdict"] == "linearizable"
                          : counterexample && (expect == "violation" ||
                                               counterexample->value("violation", "") == expect);
  merged["passed"] = passed;
  merged["statement"] = fmt::format(
      "{}: {} shards of the exhaustive search of {} ({} client(s) x {} operation(s), plans: {}): "
      "{} executions, {} units searched to the end of {}",
      merged["verdict"] == "linearizable" ? "VERIFIED"
      : counterexample                    ? "VIOLATION"
                                          : "NOT VERIFIED",
      count, merged.value("scenario", "?"), merged.value("clients", 0),
      merged.value("operations_per_client", 0), plans_searched(merged),
      merged.value("executions", 0), merged.value("units_done", 0), merged.value("units", 0));
  if (merged["runs_estimate"].is_number_integer() && !counterexample) {
    const auto whole = static_cast<double>(merged["runs_estimate"].get<std::int64_t>());
    const auto made = static_cast<double>(merged.value("runs_in_scope", std::int64_t{0}));
    merged["statement"] =
        merged["statement"].get<std::string>() +
        fmt::format(
            "; by the shards' estimates the whole search of the scope takes about {} runs "
            "(executions and abandoned; {} of them made)",
            about_count(whole), percent(made / std::max(whole, 1.0)));
  }
  if (!interrupted.empty()) {
    merged["statement"] = merged["statement"].get<std::string>() +
                          fmt::format(
                              "; interrupted before their end: shard(s) {} (each goes on "
                              "from its --checkpoint with the same command)",
                              fmt::join(interrupted, ", "));
  }
  const std::string text = merged.dump(2) + "\n";
  if (out.empty()) {
    fmt::print("{}", text);
  } else {
    std::ofstream file(out, std::ios::binary);
    file << text;
    if (!file) {
      fmt::print(stderr, "contend merge: cannot write {}\n", out);
      return 2;
    }
  }
  fmt::print(stderr, "{}\n", merged["statement"].get<std::string>());
  if (passed) return 0;
  return exhausted || counterexample ? 1 : 3;
}

}  // namespace contend::cli
