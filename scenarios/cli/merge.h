// Merging what the shards of one job wrote (`contend merge`), as a function of the files' texts,
// so the command and its fuzz target run the same code: the JSON reports of the shards of one seed
// range (`contend run --shard K/N --report json=...`), or the --json summaries of the shards of
// one exhaustive search (`contend explore --strategy dpor --shard K/N --json ...`,
// merge_exhaustive.h).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace contend::cli {

struct MergeOutcome {
  // 0 as expected, 1 not, 2 bad input (`error` says why), 3 an exhaustive search not searched to
  // its end (and not found wrong), 4 a seed was a simulator fault.
  int exit_code = 0;
  std::string merged;     // the merged report or summary (every exit code but 2)
  std::string statement;  // exhaustive summaries: the merged search's one-line statement
  std::string verdict;    // run reports: whether the merged range is as expected, and why
  std::string error;
};

// `reports`: (name for messages, JSON text) of each shard; all run reports or all exhaustive
// summaries. Each text is let go once parsed. Never throws on malformed input.
MergeOutcome merge_reports(std::vector<std::pair<std::string, std::string>> reports);

}  // namespace contend::cli
