// Merging the shards of one exhaustive search: each shard's `explore --strategy dpor --shard K/N
// --json FILE` summary holds its units' totals; together they are the unsharded search's.
//
// A summary is read only when every field merge reads has the kind of value `explore --json`
// writes there (counts are integers from 0 to 2^63 - 1); the merged counts must fit one too. Bad
// input is refused naming the shard and the field, never taken as a default.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenarios/cli/merge.h"

namespace contend::cli {

// Checks that the summaries are shards 1..N of one search (same scenario, scope, plans, seed,
// bounds; each shard once; with ShardSet::partial, some of them) and combines them (`names`:
// each summary's, for messages). Exit status: 0 when the combined result is what the scenario
// expects, 1 when not, 2 for bad input, 3 when the search is neither searched to its end (every
// shard given, each to its end) nor found wrong.
MergeOutcome merge_exhaustive(const std::vector<nlohmann::json>& shards,
                              const std::vector<std::string>& names,
                              ShardSet set = ShardSet::whole);

}  // namespace contend::cli
