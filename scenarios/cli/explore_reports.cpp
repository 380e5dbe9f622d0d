#include "scenarios/cli/explore_reports.h"

#include <fmt/format.h>

#include <cstdio>

#include "scenarios/junit.h"

namespace contend::cli {

namespace {

nlohmann::json null_unless(bool present, nlohmann::json value) {
  return present ? std::move(value) : nlohmann::json(nullptr);
}

// A schedule named by the exploration: which it was and what its checkers said.
nlohmann::json finding_json(const Finding& f) {
  return {
      {"schedule", f.schedule},         {"seed", f.seed},
      {"choices", f.choices},           {"verdict", std::string(model::to_string(f.verdict.kind))},
      {"summary", f.verdict.summary()}, {"explanation", f.verdict.explanation}};
}

nlohmann::json counterexample_json(const Finding& found, const ReportedCounterexample& c) {
  nlohmann::json j = finding_json(found);
  j["violation"] = std::string(model::to_string(c.verdict.violation));
  j["shrunk"] = {{"clients", c.clients},         {"operations_per_client", c.operations_per_client},
                 {"operations", c.operations},   {"shrinking_runs", c.shrinking_runs},
                 {"faults_kept", c.faults_kept}, {"seed", c.seed},
                 {"choices", c.choices},         {"explanation", c.verdict.explanation}};
  j["file"] = c.file.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.file);
  j["reproduce"] = c.reproduce;
  return j;
}

std::string failure_type(int exit_code) {
  if (exit_code == 1) return "unexpected verdict";
  if (exit_code == 2) return "output not written";  // the only 2 after a search ran: its checkpoint
  if (exit_code == 3) return "unknown verdict";
  if (exit_code == 4) return "simulator fault";
  if (exit_code > 128) return "interrupted";
  return "exit " + std::to_string(exit_code);
}

}  // namespace

std::optional<std::vector<ReportRequest>> explore_reports(const std::vector<std::string>& specs) {
  std::string problem;
  std::optional<std::vector<ReportRequest>> requests =
      reports_of_kinds(specs, {"json", "junit"}, "explore", problem);
  if (!requests) {
    // The spec refused is the one the problem names.
    const bool html =
        problem.starts_with("--report html=") || problem.starts_with("--report html:");
    fmt::print(stderr, "contend explore: {}{}\n", problem,
               html ? "; a counterexample's page is drawn by its replay: contend replay ... "
                      "--report html=FILE"
                    : "");
  }
  return requests;
}

nlohmann::json sampling_summary_json(const Scenario& s, const ExploreOptions& o,
                                     const ExploreResult& r,
                                     const std::optional<ReportedCounterexample>& counterexample,
                                     const ExploreEnding& ending) {
  const bool dfs = o.strategy == "dfs";
  const bool pct = o.strategy == "pct";
  nlohmann::json j;
  j["scenario"] = s.file;
  j["scenario_contents"] = contents_digest(s);
  j["recipe"] = s.recipe;
  j["expect"] = s.expect;
  j["strategy"] = o.strategy;
  j["clients"] = s.clients;
  j["operations_per_client"] = s.operations_per_client;
  j["seed"] = o.seed;
  j["schedules_budget"] = o.schedules;
  j["schedules_run"] = r.schedules;  // (no "jobs": the summary is the same whatever their number)
  j["max_preemptions"] = null_unless(dfs, o.max_preemptions);
  j["exhausted"] = null_unless(dfs, r.exhausted);
  j["pct_depth"] = null_unless(pct, o.pct_depth);
  j["pct_choice_points"] = null_unless(pct, r.steps_estimate);
  j["pct_probability_bound"] = null_unless(pct, r.pct_probability_bound);
  j["verdicts"] = r.verdicts;
  j["verdict"] = r.violation ? "violation" : r.first_undecided ? "unknown" : "none_found";
  j["violation"] = r.violation && counterexample
                       ? counterexample_json(*r.violation, *counterexample)
                       : nlohmann::json(nullptr);
  j["first_undecided"] =
      r.first_undecided ? finding_json(*r.first_undecided) : nlohmann::json(nullptr);
  j["statement"] = ending.why;
  j["reproduce"] = null_unless(!ending.reproduce.empty(), ending.reproduce);
  j["passed"] = ending.exit_code == 0;
  j["exit_code"] = ending.exit_code;
  return j;
}

std::string explore_junit_xml(const Scenario& s, const std::string& strategy, std::uint64_t seed,
                              const std::string& shard, const ExploreEnding& ending,
                              double seconds) {
  JunitCase c;
  c.classname = "contend." + s.recipe;
  c.name = fmt::format("{} explore {} seed {} ({} x {})", s.name, strategy, seed, s.clients,
                       s.operations_per_client);
  if (!shard.empty() && shard != "1/1") c.name += " shard " + shard;
  c.seconds = seconds;
  c.properties = {{"expect", s.expect}, {"exit_code", std::to_string(ending.exit_code)}};
  if (ending.exit_code != 0) {
    c.failure = JunitFailure{
        ending.why, failure_type(ending.exit_code),
        ending.reproduce.empty() ? ending.why : ending.why + "\nreproduce: " + ending.reproduce};
  }
  return junit_document(c);
}

bool write_explore_outputs(const std::string& json_path, const std::vector<ReportRequest>& requests,
                           const std::string& json_text, const std::string& junit_text) {
  if (json_path == "-") {
    std::fwrite(json_text.data(), 1, json_text.size(), stdout);
  } else if (!json_path.empty() && !write_whole_file(json_path, json_text)) {
    fmt::print(stderr, "contend explore: cannot write {}\n", json_path);
    return false;
  }
  for (const ReportRequest& r : requests) {
    if (!write_whole_file(r.path, r.kind == "json" ? json_text : junit_text)) {
      fmt::print(stderr, "contend explore: cannot write {}\n", r.path);
      return false;
    }
    fmt::print(stderr, "wrote {} report {}\n", r.kind, r.path);
  }
  return true;
}

}  // namespace contend::cli
