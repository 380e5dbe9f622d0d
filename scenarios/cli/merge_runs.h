// Merging the JSON reports of the shards of one seed range (`contend run --shard K/N --report
// json=...`) into the report the unsharded run writes, in memory that does not grow with the
// seeds: each shard's report is read once as a stream (shard_report.h), its run entries written to
// a spool (run_spool.h) as they are read; once every shard is checked and the merged range judged,
// the merged report is written with the shards' runs interleaved in seed order straight from the
// spool (each shard's runs are in seed order), laid out as `contend run` lays out its own
// (report_layout.h).
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "scenarios/cli/merge.h"
#include "scenarios/cli/report_layout.h"
#include "scenarios/cli/run_spool.h"
#include "scenarios/cli/shard_report.h"

namespace contend::cli {

// The merged report, ready to be written: its fields but the runs, and every shard's runs in the
// spool. The shards hold each seed of the range once.
class RunsMerge {
 public:
  RunsMerge(std::unique_ptr<RunSpool> spool, std::vector<SpoolRegion> regions, ReportFrame frame);
  // Writes the merged report. False when a run could not be read back from the spool or `out`
  // failed.
  bool write(std::ostream& out) const;

 private:
  std::unique_ptr<RunSpool> spool_;
  std::vector<SpoolRegion> regions_;  // each shard's, in the order named
  ReportFrame frame_;
};

// Checks that `shards` (read by read_shard_report into `spool`, each named by `names`) are the
// shards of one run, each seed of its range in one of them, and judges the merged range. Exit
// codes as MergeOutcome's; exit 2 names the file and field at fault.
MergePlan merge_runs(const std::vector<ShardReport>& shards, const std::vector<std::string>& names,
                     std::unique_ptr<RunSpool> spool);

}  // namespace contend::cli
