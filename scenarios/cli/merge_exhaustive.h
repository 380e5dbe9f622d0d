// Merging the shards of one exhaustive search: each shard's `explore --strategy dpor --shard K/N
// --json FILE` summary holds its units' totals; together they are the unsharded search's.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace contend::cli {

// Checks that the summaries are shards 1..N of one search (same scenario, scope, plans, seed,
// bounds; each shard once) and writes the combined summary to `out` ("" = stdout). Exit status:
// 0 when the combined result is what the scenario expects, 1 when not, 2 for bad input.
int merge_exhaustive(const std::vector<nlohmann::json>& shards,
                     const std::vector<std::string>& paths, const std::string& out);

}  // namespace contend::cli
