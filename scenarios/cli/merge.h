// Merging what the shards of one job wrote (`contend merge`): the JSON reports of the shards of
// one seed range (`contend run --shard K/N --report json=...`, merge_runs.h), or the --json
// summaries of the shards of one exhaustive search (`contend explore --strategy dpor --shard K/N
// --json ...`, merge_exhaustive.h). The command and its fuzz target run the same code: the command
// reads each file as a stream (plan_merge), the fuzz target and tests give texts (merge_reports).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "base/input_file.h"

namespace contend::cli {

struct MergeOutcome {
  // 0 as expected, 1 not, 2 bad input (`error` says why), 3 an exhaustive search not searched to
  // its end (and not found wrong), or a seed no checker could judge, 4 a seed was a simulator
  // fault.
  int exit_code = 0;
  std::string merged;     // the merged report or summary (every exit code but 2)
  std::string statement;  // exhaustive summaries: the merged search's one-line statement
  std::string verdict;    // run reports: whether the merged range is as expected, and why
  std::string error;
};

class RunsMerge;  // merge_runs.h

// A merge checked and judged, not yet written: `outcome` holds all but a run report's merged
// text, which write() writes (an exhaustive summary's is in outcome.merged).
class MergePlan {
 public:
  MergePlan();
  MergePlan(MergePlan&&) noexcept;
  MergePlan& operator=(MergePlan&&) noexcept;
  ~MergePlan();

  MergeOutcome outcome;
  std::unique_ptr<RunsMerge> runs;  // run reports merged (none for exhaustive summaries)

  // Writes the merged report or summary. REQUIRES: outcome.exit_code is not 2. False when it
  // could not be written, or a temporary file of the runs could not be read back.
  bool write(std::ostream& out) const;
};

// Opens the input at `index` of the names given; nothing when it cannot be opened (`why` says
// why, as open_input does).
using OpenInput = std::function<std::unique_ptr<InputFile>(std::size_t index, std::string& why)>;

// Which shards a merge takes: the whole set (a shard missing is bad input), or, for the summaries
// of an exhaustive search (`contend merge --partial`), those given, the others named missing: the
// merged search is then never verified, but a violation a shard found stands.
enum class ShardSet { whole, partial };

// Reads the inputs named `names` (all run reports or all exhaustive summaries), each opened in
// turn by `open` and read once, and plans their merge. Never throws on malformed input.
MergePlan plan_merge(const std::vector<std::string>& names, const OpenInput& open,
                     ShardSet set = ShardSet::whole);

// `reports`: (name for messages, JSON text) of each shard; the merge planned and written to
// outcome.merged. Never throws on malformed input.
MergeOutcome merge_reports(std::vector<std::pair<std::string, std::string>> reports,
                           ShardSet set = ShardSet::whole);

}  // namespace contend::cli
