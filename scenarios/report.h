// Human-readable reports of runs: the per-seed summary table, the aggregate over seeds, and the
// metrics block of one run. Output only; nothing here decides a verdict.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "scenarios/runner.h"

namespace contend {

struct SeedLine {
  std::uint64_t seed = 0;
  RunMetrics metrics;
  std::string verdict;  // "linearizable", "violation: lost", ... or "" when not checked
  bool as_expected = true;
};

void print_table_header(std::FILE* out);
void print_table_row(std::FILE* out, const SeedLine& line);
// Totals and percentiles over all seeds, then conflicts by cause and the retry distribution.
void print_aggregate(std::FILE* out, const std::vector<SeedLine>& lines);
// The full metrics of one run (what `contend run --seed N` prints under its table).
void print_metrics(std::FILE* out, const RunMetrics& m);

}  // namespace contend
