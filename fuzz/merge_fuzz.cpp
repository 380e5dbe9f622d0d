// Fuzz target: `contend merge` input. The bytes are one or two shard reports or exhaustive-search
// summaries (split at the first 0x00 byte); merging never throws and never crashes, and answers
// with one of its exit codes: bad input, and only it, with a reason; anything else with a merged
// text, and exhaustive summaries with a statement. Merged with --partial as well: the same
// answers, and where every shard is given, the same merge.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/invariant.h"
#include "scenarios/cli/merge.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contend::cli;
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::pair<std::string, std::string>> reports;
  const auto split = text.find('\0');
  reports.emplace_back("a.json", text.substr(0, split));
  if (split != std::string::npos) reports.emplace_back("b.json", text.substr(split + 1));
  const MergeOutcome whole = merge_reports(reports);
  const MergeOutcome partial = merge_reports(reports, ShardSet::partial);
  for (const MergeOutcome* out : {&whole, &partial}) {
    CONTEND_ASSERT(out->exit_code >= 0 && out->exit_code <= 4,
                   "merge answers with one of its exit codes");
    CONTEND_ASSERT((out->exit_code == 2) == !out->error.empty(),
                   "bad input, and only it, says why");
    CONTEND_ASSERT((out->exit_code == 2) == out->merged.empty(), "what is merged is written");
    CONTEND_ASSERT(out->exit_code != 3 || !out->statement.empty(),
                   "a search not searched to its end says what it covered");
  }
  if (whole.exit_code != 2 && !whole.statement.empty()) {
    CONTEND_ASSERT(partial.exit_code == whole.exit_code && partial.merged == whole.merged,
                   "with every shard given, --partial merges as a whole merge");
  }
  return 0;
}
