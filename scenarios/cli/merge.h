// Merging the JSON reports of the shards of one seed range (`contend merge`), as a function of
// the reports' texts, so the command and its fuzz target run the same code.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace contend::cli {

struct MergeOutcome {
  // 0 as expected, 1 not, 2 bad input (`error` says why), 4 a seed was a simulator fault.
  int exit_code = 0;
  std::string merged;  // the merged report (exit codes 0, 1 and 4)
  std::string error;
};

// `reports`: (name for messages, JSON text) of each shard. Never throws on malformed input.
MergeOutcome merge_reports(const std::vector<std::pair<std::string, std::string>>& reports);

}  // namespace contend::cli
