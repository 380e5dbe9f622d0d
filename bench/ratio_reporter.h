// A console reporter that also prints, for every benchmark named "<suite>/<case>/..." that has a
// baseline named "baseline/<case>/...", the ratio of their times: the overhead the claim quotes.
// Benchmarks carry their baseline in the same binary, so the ratio is measured on one machine in
// one run.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "scenarios/allocator_tuning.h"

namespace contend::bench {

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration || run.iterations == 0) continue;
      // In seconds: a benchmark and its baseline may report in different units.
      times_[without_time_kind(run.benchmark_name())] =
          run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit);
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    std::printf("\nratios to the in-binary baselines (time per iteration, lower is better):\n");
    for (const auto& [name, time] : times_) {
      auto slash = name.find('/');
      if (slash == std::string::npos || name.compare(0, slash, "baseline") == 0) continue;
      std::string baseline = "baseline" + name.substr(slash);
      auto it = times_.find(baseline);
      if (it == times_.end() || it->second <= 0) continue;
      std::printf("  %-56s %8.2fx  %s\n", name.c_str(), time / it->second, baseline.c_str());
    }
  }

 private:
  // A benchmark timed by hand (UseManualTime) compares with a baseline timed by the clock.
  static std::string without_time_kind(std::string name) {
    for (const char* suffix : {"/real_time", "/manual_time"}) {
      const std::string tail(suffix);
      if (name.size() > tail.size() &&
          name.compare(name.size() - tail.size(), tail.size(), tail) == 0) {
        name.resize(name.size() - tail.size());
      }
    }
    return name;
  }

  std::map<std::string, double> times_;
};

// Runs the benchmarks with the allocator settings the contend tool runs with (baselines too).
inline int run_with_ratios(int argc, char** argv) {
  restart_with_larger_thread_cache(argv);
  keep_freed_memory_for_reuse();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}

}  // namespace contend::bench
