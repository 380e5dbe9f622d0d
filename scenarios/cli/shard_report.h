// Reading one shard's run report (`contend run --shard K/N --report json=FILE`) for `contend
// merge` as a stream, in memory that does not grow with its seeds: the report's fields are parsed
// whole but for the entries of "runs", each of which is parsed alone, checked, tallied for the
// merged verdict, written to the merge's spool (run_spool.h) and let go.
//
// What is read is JSON nesting at most model::kMaxJsonDepth deep that names no key twice in one
// object (json_keys.h); a shard's runs are in seed order, as `contend run` writes them, which is
// what lets the merge interleave the shards' runs without holding them.
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "scenarios/cli/run_spool.h"

namespace contend::cli {

// What the merged verdict needs of some runs: the lowest seed of each kind (run judges so).
struct RunVerdicts {
  std::optional<std::uint64_t> simulator_fault;
  std::optional<std::uint64_t> unknown;     // judged by no checker: neither a pass nor a finding
  std::optional<std::uint64_t> unexpected;  // judged, and not as expected
  std::string unexpected_verdict;           // the verdict of `unexpected`
  std::optional<std::uint64_t> shows_expected;

  // Takes the run of `seed` (a run entry's shape), a seed above any taken before.
  void add(std::uint64_t seed, const nlohmann::json& run);
  // Takes the verdicts of other runs, with no seed of these.
  void add(const RunVerdicts& other);
};

struct ShardReport {
  // Every field of the report, "runs" without its entries when it is a list; discarded when the
  // text is not JSON, nests too deep or names a key twice (`duplicate_key` names it then).
  nlohmann::json fields;
  std::string duplicate_key;
  bool runs_listed = false;  // whether "runs" was a list (its entries were read out of it)
  // Why an entry of "runs" is not a run of a shard's report ("field \"runs[3].seed\" ...", or a
  // seed out of order); the first such, and no entry after it is spooled.
  std::optional<std::string> runs_problem;
  std::uint64_t runs = 0;  // the entries spooled, in `region`
  std::optional<std::uint64_t> lowest_seed;
  std::optional<std::uint64_t> highest_seed;
  RunVerdicts verdicts;
  SpoolRegion region;
};

// Reads `text` to its end, adding each run entry to `spool` in a region of its own. Never throws.
ShardReport read_shard_report(std::istream& text, RunSpool& spool);

}  // namespace contend::cli
