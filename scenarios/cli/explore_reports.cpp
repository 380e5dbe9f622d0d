#include "scenarios/cli/explore_reports.h"

#include <fmt/format.h>

#include <sstream>

#include "base/invariant.h"
#include "scenarios/markup_escape.h"

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
  for (const std::string& spec : specs) {
    const auto eq = spec.find('=');
    const std::string kind = spec.substr(0, eq);
    if (eq == std::string::npos || eq + 1 == spec.size() || (kind != "json" && kind != "junit")) {
      fmt::print(stderr, "contend explore: --report {}: explore writes json=FILE or junit=FILE{}\n",
                 spec,
                 kind == "html" ? "; a counterexample's page is drawn by its replay: contend "
                                  "replay ... --report html=FILE"
                                : "");
      return std::nullopt;
    }
  }
  std::optional<std::vector<ReportRequest>> requests = parse_reports(specs);
  CONTEND_ASSERT(requests.has_value(), "explore's reports were checked before they were parsed");
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
  std::string name = fmt::format("{} explore {} seed {} ({} x {})", s.name, strategy, seed,
                                 s.clients, s.operations_per_client);
  if (!shard.empty() && shard != "1/1") name += " shard " + shard;
  const bool failed = ending.exit_code != 0;
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites tests=\"1\" failures=\"" << (failed ? 1 : 0) << "\">\n"
      << "  <testsuite name=\"contend\" tests=\"1\" failures=\"" << (failed ? 1 : 0)
      << "\" errors=\"0\" skipped=\"0\" time=\"" << seconds << "\">\n"
      << "    <testcase classname=\"contend." << markup_escape(s.recipe) << "\" name=\""
      << markup_escape(name) << "\" time=\"" << seconds << "\">\n"
      << "      <properties>\n        <property name=\"expect\" value=\"" << markup_escape(s.expect)
      << "\"/>\n        <property name=\"exit_code\" value=\"" << ending.exit_code
      << "\"/>\n      </properties>\n";
  if (failed) {
    const std::string body =
        ending.reproduce.empty() ? ending.why : ending.why + "\nreproduce: " + ending.reproduce;
    out << "      <failure message=\"" << markup_escape(ending.why) << "\" type=\""
        << failure_type(ending.exit_code) << "\">" << markup_escape(body) << "</failure>\n";
  }
  out << "    </testcase>\n  </testsuite>\n</testsuites>\n";
  return out.str();
}

bool write_explore_reports(const std::vector<ReportRequest>& requests, const std::string& json_text,
                           const std::string& junit_text) {
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
