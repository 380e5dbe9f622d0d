// Human-readable reports of runs: the per-seed summary table, the aggregate over seeds, and the
// metrics block of one run. Output only; nothing here decides a verdict. The aggregate is folded
// one seed at a time and keeps no seed: its memory is bounded by the distinct values it prints.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
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
class AggregateTable {
 public:
  void add(const SeedLine& line);
  std::uint64_t seeds() const { return seeds_; }
  // Prints nothing when no seed was added.
  void print(std::FILE* out) const;

 private:
  std::uint64_t seeds_ = 0;
  std::uint64_t unexpected_ = 0;
  std::uint64_t undecided_ = 0;
  RunMetrics total_;
  // Throughput as printed (to 0.1 op/s) -> seeds: its minimum, median and maximum are those of
  // the exact values, printed (rounding keeps their order).
  std::map<double, std::uint64_t> throughput_seeds_;
};
// The full metrics of one run (what `contend run --seed N` prints under its table).
void print_metrics(std::FILE* out, const RunMetrics& m);

}  // namespace contend
