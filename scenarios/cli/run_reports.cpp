#include "scenarios/cli/run_reports.h"

#include <fmt/format.h>

#include <sstream>

#include "base/invariant.h"
#include "scenarios/cli/report_layout.h"
#include "scenarios/html_report.h"

namespace contend::cli {

StreamedJsonReport::~StreamedJsonReport() {
  if (runs_text_ != nullptr) std::fclose(runs_text_);
}

bool StreamedJsonReport::open(const std::string& path, nlohmann::json header) {
  CONTEND_ASSERT(header.is_object() && !header.contains("runs"), "a report's fields but its runs");
  header_ = std::move(header);
  out_.open(path, std::ios::binary | std::ios::trunc);
  runs_text_ = std::tmpfile();
  return static_cast<bool>(out_) && runs_text_ != nullptr;
}

void StreamedJsonReport::add(const nlohmann::json& run) {
  const std::string text = run_entry_separator(runs_++) + run_entry_text(run, InvalidUtf8::strict);
  std::fwrite(text.data(), 1, text.size(), runs_text_);
}

bool StreamedJsonReport::finish(bool passed, const char* result) {
  header_["passed"] = passed;
  header_["result"] = result;
  const ReportFrame frame = report_frame(std::move(header_), InvalidUtf8::strict);
  out_ << frame.before_runs;
  bool copied = std::fflush(runs_text_) == 0 && std::ferror(runs_text_) == 0;
  std::rewind(runs_text_);
  char buffer[65536];
  for (std::size_t n; copied && (n = std::fread(buffer, 1, sizeof buffer, runs_text_)) > 0;)
    out_.write(buffer, static_cast<std::streamsize>(n));
  copied = copied && std::ferror(runs_text_) == 0;
  out_ << runs_list_end(runs_) << frame.after_runs;
  out_.close();
  return copied && !out_.fail();
}

RunReports::RunReports(const std::vector<ReportRequest>& requests, const Scenario& scenario,
                       const SeedRange& seeds, const Shard& shard)
    : requests_(requests), scenario_(scenario), seeds_(seeds), shard_(shard) {}

bool RunReports::begin() {
  for (const ReportRequest& r : requests_) {
    if (r.kind != "json") continue;
    auto& report = json_by_path_[r.path];
    CONTEND_ASSERT(report == nullptr, "a report's path is named once");
    report = std::make_unique<StreamedJsonReport>();
    if (!report->open(r.path, batch_json_header(scenario_, seeds_, shard_))) {
      fmt::print(stderr, "contend: cannot write {}\n", r.path);
      return false;
    }
  }
  return true;
}

void RunReports::add(const SeedOutcome& outcome) {
  if (json_by_path_.empty()) return;
  const nlohmann::json entry = seed_json(scenario_, outcome);
  for (auto& [path, report] : json_by_path_)
    report->add(entry);
}

namespace {

// The HTML report: the chosen seed rerun with its full trace, or, for a shard that ran no seed, a
// page that says so (a seed outside the shard's range would pass for one of its runs).
std::string html_report_of(const Scenario& scenario, const SeedRange& seeds, const Shard& shard,
                           const BatchJudge& judge, const BatchJudgement& j) {
  if (judge.first() == nullptr) {
    return html_report_without_run(
        fmt::format("{} ({}), seeds {}..{}, shard {}/{}", scenario.name, scenario.recipe,
                    seeds.first, seeds.last, shard.index, shard.count),
        "No seed ran: " + no_seed_in_shard(seeds, shard) +
            " (more shards than seeds). contend merge of every shard's JSON report judges the "
            "range; the HTML report of a shard that ran seeds draws one of them.");
  }
  const std::uint64_t chosen =
      j.first_unexpected.value_or(j.first_expected_violation.value_or(judge.first()->seed));
  RunControls controls;
  controls.record_attempts = true;
  SeedRun run = run_seed(scenario, chosen, std::move(controls));
  return html_report(scenario, run, check_run(scenario, run));
}

// Why a run's JUnit testcase is skipped when it ran no seed.
std::string no_seed_ran(const SeedRange& seeds, const Shard& shard) {
  if (seeds_in_shard(seeds, shard) != 0) return "no seed ran";
  return "no seed ran: " + no_seed_in_shard(seeds, shard) +
         " (more shards than seeds); contend merge of every shard's JSON report judges the range";
}

}  // namespace

bool RunReports::finish(const BatchJudge& judge, const BatchJudgement& j, double seconds) {
  for (const ReportRequest& r : requests_) {
    bool ok = true;
    if (r.kind == "json") {
      const auto begun = json_by_path_.find(r.path);
      CONTEND_ASSERT(begun != json_by_path_.end(), "the JSON report was begun");
      ok = begun->second->finish(j.passed, batch_result(j));
      if (!ok) fmt::print(stderr, "contend: cannot write {}\n", r.path);
    } else if (r.kind == "junit") {
      ok = write_file(r.path, junit_xml(scenario_, seeds_, shard_, judge.seeds_judged(), j, seconds,
                                        no_seed_ran(seeds_, shard_)));
    } else {
      ok = write_file(r.path, html_report_of(scenario_, seeds_, shard_, judge, j));
    }
    if (!ok) return false;
    fmt::print("wrote {} report {}\n", r.kind, r.path);
  }
  return true;
}

}  // namespace contend::cli
