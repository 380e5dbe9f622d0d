// How a run report's text is laid out — what nlohmann::json::dump(2) writes of the whole report,
// keys sorted — in parts, so that a report is written with its runs streamed between them and
// never held: `contend run` writes a shard's report so (run_reports.h), `contend merge` the merged
// one (merge_runs.h). The report's text is
//   frame.before_runs, then for each run i: run_entry_separator(i) + run_entry_text(run),
//   then runs_list_end(count) + frame.after_runs.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace contend::cli {

// What dump does with a string that is not UTF-8.
using InvalidUtf8 = nlohmann::json::error_handler_t;

// The text of a report around its list of runs: before_runs ends with `"runs": [`, after_runs
// holds what follows the list, to the report's final newline.
struct ReportFrame {
  std::string before_runs;
  std::string after_runs;
};

// `fields`: every field of a report but "runs".
ReportFrame report_frame(nlohmann::json fields, InvalidUtf8 invalid_utf8);

// The text of one entry of "runs", as the report lays it out after its separator.
std::string run_entry_text(const nlohmann::json& run, InvalidUtf8 invalid_utf8);

// What precedes the entry of "runs" at `index` (from 0).
const char* run_entry_separator(std::uint64_t index);

// What closes the list of "runs" after its `count` entries.
const char* runs_list_end(std::uint64_t count);

}  // namespace contend::cli
