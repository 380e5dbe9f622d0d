// The reports `contend run --report kind=FILE` writes, built as the run goes: the JSON report takes
// each seed's entry as it completes (a run keeps no seed, however many it runs); JUnit and HTML are
// written when the run ends, from its judgement. A shard that ran no seed writes every report
// still (merge reads its JSON), each saying it ran none: json and junit with no run, html as a
// page that draws none (html_report_without_run).
#pragma once

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "scenarios/batch.h"
#include "scenarios/cli/run_support.h"

namespace contend::cli {

// The JSON report built as seeds complete: each entry of "runs" goes to an unnamed temporary file
// as its seed completes; the end writes the report, the same text batch_json's object with
// "passed" and "result" dumps (indent 2, keys sorted), laid out as `contend merge` lays out the
// merged report (report_layout.h).
class StreamedJsonReport {
 public:
  StreamedJsonReport() = default;
  StreamedJsonReport(const StreamedJsonReport&) = delete;
  StreamedJsonReport& operator=(const StreamedJsonReport&) = delete;
  ~StreamedJsonReport();
  // Opens `path` (and the temporary file). False when either cannot be opened.
  bool open(const std::string& path, nlohmann::json header);
  void add(const nlohmann::json& run);
  // Writes the report. False when any write failed (a full disk, a vanished directory).
  bool finish(bool passed, const char* result);

 private:
  std::ofstream out_;
  std::FILE* runs_text_ = nullptr;  // the entries of "runs", indented, comma-separated
  nlohmann::json header_;
  std::uint64_t runs_ = 0;
};

class RunReports {
 public:
  RunReports(const std::vector<ReportRequest>& requests, const Scenario& scenario,
             const SeedRange& seeds, const Shard& shard);
  // Opens what is written as seeds complete. False (the message printed) when it cannot be.
  bool begin();
  // Takes a seed's outcome, in seed order.
  void add(const SeedOutcome& outcome);
  // Writes every report and says which it wrote. The html report reruns the chosen seed (the
  // first unexpected one, else the first showing the expected violation, else the first) with its
  // full trace. False (the message printed) when one could not be written.
  bool finish(const BatchJudge& judge, const BatchJudgement& judgement, double seconds);

 private:
  const std::vector<ReportRequest>& requests_;
  const Scenario& scenario_;
  const SeedRange seeds_;
  const Shard shard_;
  // Each JSON report by its path (one path is named once: refuse_one_file_named_twice).
  std::map<std::string, std::unique_ptr<StreamedJsonReport>> json_by_path_;
};

}  // namespace contend::cli
