#include "scenarios/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <string>
#include <system_error>

#include "base/invariant.h"
#include "scenarios/counted_values.h"

namespace contend {

namespace {
double conflict_rate(const RunMetrics& m) {
  return m.attempts.attempts > 0
             ? static_cast<double>(m.attempts.conflicts) / static_cast<double>(m.attempts.attempts)
             : 0.0;
}
}  // namespace

void print_table_header(std::FILE* out) {
  fmt::print(out,
             "{:>8} {:>6} {:>5} {:>5} {:>8} {:>9} {:>6} {:>9} {:>9} {:>10} {:>10}  {:<16} {}\n",
             "seed", "ok", "fail", "info", "attempts", "conflicts", "unkn", "retry p99", "ops/vs",
             "lat p50 us", "lat p99 us", "hash", "verdict");
}

void print_table_row(std::FILE* out, const SeedLine& line) {
  const RunMetrics& m = line.metrics;
  fmt::print(
      out, "{:>8} {:>6} {:>5} {:>5} {:>8} {:>9} {:>6} {:>9} {:>9.1f} {:>10} {:>10}  {:016x} {}{}\n",
      line.seed, m.ops_ok, m.ops_fail, m.ops_info, m.attempts.attempts, m.attempts.conflicts,
      m.attempts.unknown_results, m.retries.p99, m.throughput_ops_per_s, m.latency_us.p50,
      m.latency_us.p99, m.run_hash, line.verdict,
      line.as_expected            ? ""
      : line.verdict == "unknown" ? "  (UNDECIDED)"
                                  : "  (UNEXPECTED)");
}

void AggregateTable::add(const SeedLine& l) {
  ++seeds_;
  const RunMetrics& m = l.metrics;
  total_.ops_ok += m.ops_ok;
  total_.ops_fail += m.ops_fail;
  total_.ops_info += m.ops_info;
  total_.attempts.attempts += m.attempts.attempts;
  total_.attempts.committed += m.attempts.committed;
  total_.attempts.conflicts += m.attempts.conflicts;
  total_.attempts.unknown_results += m.attempts.unknown_results;
  for (const auto& [step, n] : m.attempts.conflicts_by_step)
    total_.attempts.conflicts_by_step[step] += n;
  for (const auto& [r, n] : m.retries_histogram)
    total_.retries_histogram[r] += n;
  const std::string printed = fmt::format("{:.1f}", m.throughput_ops_per_s);
  double as_printed = 0.0;
  const auto [end, error] =
      std::from_chars(printed.data(), printed.data() + printed.size(), as_printed);
  CONTEND_ASSERT(error == std::errc() && end == printed.data() + printed.size(),
                 "a number fmt printed reads back");
  ++throughput_seeds_[as_printed];
  if (l.verdict == "unknown")
    ++undecided_;
  else if (!l.as_expected)
    ++unexpected_;
}

void AggregateTable::print(std::FILE* out) const {
  if (seeds_ == 0) return;
  const RunMetrics& total = total_;
  fmt::print(out,
             "\n{} seeds: {} ok, {} fail, {} info operations; {} attempts, {} committed, "
             "{} conflicts ({:.1f}%), {} unknown results\n",
             seeds_, total.ops_ok, total.ops_fail, total.ops_info, total.attempts.attempts,
             total.attempts.committed, total.attempts.conflicts, 100.0 * conflict_rate(total),
             total.attempts.unknown_results);
  fmt::print(out, "throughput (ok ops per virtual second): min {:.1f}, median {:.1f}, max {:.1f}\n",
             throughput_seeds_.begin()->first, value_at_rank(throughput_seeds_, seeds_ / 2),
             throughput_seeds_.rbegin()->first);
  if (!total.attempts.conflicts_by_step.empty()) {
    fmt::print(out, "conflicts by the recipe step whose read range conflicted:\n");
    for (const auto& [step, n] : total.attempts.conflicts_by_step)
      fmt::print(out, "  {:<32} {}\n", step, n);
  }
  fmt::print(out, "retries per operation:");
  for (const auto& [r, n] : total.retries_histogram)
    fmt::print(out, " {}x{}", r, n);
  fmt::print(out, "\n");
  if (unexpected_ > 0)
    fmt::print(out, "{} of {} seeds did not give the expected verdict\n", unexpected_, seeds_);
  if (undecided_ > 0)
    fmt::print(out, "{} of {} seeds could not be judged by any checker\n", undecided_, seeds_);
}

void print_metrics(std::FILE* out, const RunMetrics& m) {
  fmt::print(out, "operations:");
  for (const auto& [name, n] : m.operations)
    fmt::print(out, "  {} {}", name, n);
  if (m.ops_incomplete > 0) fmt::print(out, "  incomplete {}", m.ops_incomplete);
  fmt::print(out,
             "\ntransactions: {} attempted, {} committed, {} conflicts ({:.1f}%), {} injected "
             "not_committed, {} unknown results, {} too old, {} future version\n",
             m.attempts.attempts, m.attempts.committed, m.attempts.conflicts,
             100.0 * conflict_rate(m), m.attempts.injected_not_committed,
             m.attempts.unknown_results, m.attempts.too_old, m.attempts.future_version);
  for (const auto& [step, n] : m.attempts.conflicts_by_step) {
    fmt::print(out, "  conflicts at {:<28} {}\n", step, n);
  }
  fmt::print(out,
             "retries per operation: p50 {} p90 {} p99 {} max {}   latency us: p50 {} p90 {} p99 "
             "{} max {}\n",
             m.retries.p50, m.retries.p90, m.retries.p99, m.retries.max, m.latency_us.p50,
             m.latency_us.p90, m.latency_us.p99, m.latency_us.max);
  fmt::print(out, "virtual time {:.3f} s", m.virtual_seconds);
  // The drain's time is not the workload's (throughput leaves it out), but a run stopped at
  // max_virtual_seconds may have spent most of it there.
  if (m.virtual_seconds_in_all > m.virtual_seconds) {
    fmt::print(out, " ({:.3f} s with the drain)", m.virtual_seconds_in_all);
  }
  fmt::print(out,
             ", throughput {:.1f} ok ops per virtual second, {} steps, {} keys left, run hash "
             "{:016x}\n",
             m.throughput_ops_per_s, m.steps, m.keys_left, m.run_hash);
  if (m.bound != BoundHit::none) {
    const char* limit = m.bound == BoundHit::steps ? "max_steps" : "max_virtual_seconds";
    if (m.bound_in_drain) {
      fmt::print(out,
                 "BOUND HIT: the drain stopped at its {} limit before the queue answered empty "
                 "(every client had finished; the drain meets the scenario's faults too)\n",
                 limit);
    } else {
      fmt::print(out, "BOUND HIT: the run stopped at its {} limit before every client finished\n",
                 limit);
    }
  }
}

}  // namespace contend
