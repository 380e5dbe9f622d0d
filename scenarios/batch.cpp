#include "scenarios/batch.h"
#include "base/decimal.h"
#include "scenarios/markup_escape.h"

#include <atomic>
#include <mutex>
#include <sstream>
#include <thread>

namespace contend {

std::optional<Shard> parse_shard(const std::string& text, std::string& error) {
  auto slash = text.find('/');
  Shard s;
  auto parse = [](std::string_view t, std::uint64_t& out) {
    const std::optional<std::uint64_t> n = parse_decimal<std::uint64_t>(t);
    if (n) out = *n;
    return n.has_value();
  };
  if (slash == std::string::npos || !parse(std::string_view(text).substr(0, slash), s.index) ||
      !parse(std::string_view(text).substr(slash + 1), s.count) || s.count == 0 || s.index == 0 ||
      s.index > s.count) {
    error = "'" + text + "' is not a shard: expected K/N with 1 <= K <= N";
    return std::nullopt;
  }
  return s;
}

std::vector<SeedOutcome> run_batch(const Scenario& scenario, const BatchOptions& o) {
  std::vector<std::uint64_t> seeds;
  for (std::uint64_t seed = o.seeds.first;; ++seed) {
    if (o.shard.includes(seed, o.seeds.first)) seeds.push_back(seed);
    if (seed == o.seeds.last) break;
  }
  std::vector<SeedOutcome> out(seeds.size());
  std::atomic<std::size_t> next{0};
  std::mutex progress_lock;
  std::size_t done = 0;
  auto worker = [&] {
    for (std::size_t i = next++; i < seeds.size(); i = next++) {
      SeedRun run = run_seed(scenario, seeds[i]);
      model::CheckReport report = check_run(scenario, run);
      SeedOutcome& r = out[i];
      r.seed = seeds[i];
      r.metrics = run.metrics;
      r.verdict = report.verdict;
      r.as_expected = seed_consistent(scenario.expect, report.verdict) && !report.disagreement;
      r.shows_expected = shows_expected_violation(scenario.expect, report.verdict);
      if (o.progress) {
        std::lock_guard<std::mutex> guard(progress_lock);
        o.progress(r, ++done, seeds.size());
      }
    }
  };
  const int jobs = std::max(1, o.jobs);
  std::vector<std::thread> threads;
  for (int j = 1; j < jobs; ++j)
    threads.emplace_back(worker);
  worker();
  for (auto& t : threads)
    t.join();
  return out;
}

BatchJudgement judge(const Scenario& s, const std::vector<SeedOutcome>& outcomes,
                     bool whole_range) {
  BatchJudgement j;
  std::string unknown_why;
  for (const SeedOutcome& r : outcomes) {
    const std::string why = "seed " + std::to_string(r.seed) + ": " + r.verdict.summary() + ": " +
                            r.verdict.explanation;
    if (r.verdict.kind == model::VerdictKind::unknown) {
      if (!j.first_unknown) j.first_unknown = r.seed, unknown_why = why;
    } else if (!r.as_expected && !j.first_unexpected) {
      j.first_unexpected = r.seed;
      j.why = why;
    }
    if (r.shows_expected && !j.first_expected_violation) j.first_expected_violation = r.seed;
    if (r.verdict.kind == model::VerdictKind::simulator_fault && !j.first_simulator_fault) {
      j.first_simulator_fault = r.seed;
    }
  }
  j.passed = !j.first_unexpected;
  // An unknown seed might be the one that refutes "every seed is linearizable", or the one that
  // shows the violation expected; it matters unless that violation was shown already.
  const bool shown = s.expect != "linearizable" && j.first_expected_violation;
  if (j.passed && j.first_unknown && !shown) {
    j.passed = false;
    j.undecided = true;
    j.why = unknown_why;
  } else if (whole_range && s.expect != "linearizable" && !j.first_expected_violation) {
    j.passed = false;
    if (j.why.empty()) j.why = "no seed showed the expected " + s.expect;
  }
  return j;
}

const char* batch_result(bool simulator_fault, bool passed, bool undecided) {
  if (simulator_fault) return "simulator_fault";
  if (passed) return "as_expected";
  return undecided ? "undecided" : "unexpected";
}

const char* batch_result(const BatchJudgement& judgement) {
  return batch_result(judgement.first_simulator_fault.has_value(), judgement.passed,
                      judgement.undecided);
}

nlohmann::json metrics_json(const RunMetrics& m) {
  nlohmann::json retries = nlohmann::json::object();
  for (const auto& [r, n] : m.retries_histogram)
    retries[std::to_string(r)] = n;
  nlohmann::json by_step = nlohmann::json::object();
  for (const auto& [step, n] : m.attempts.conflicts_by_step)
    by_step[step] = n;
  return {{"ops_ok", m.ops_ok},
          {"ops_fail", m.ops_fail},
          {"ops_info", m.ops_info},
          {"ops_incomplete", m.ops_incomplete},
          {"attempts", m.attempts.attempts},
          {"committed", m.attempts.committed},
          {"conflicts", m.attempts.conflicts},
          {"conflicts_by_step", by_step},
          {"unknown_results", m.attempts.unknown_results},
          {"too_old", m.attempts.too_old},
          {"retries_histogram", retries},
          {"retries_p50", m.retries.p50},
          {"retries_p99", m.retries.p99},
          {"latency_us_p50", m.latency_us.p50},
          {"latency_us_p99", m.latency_us.p99},
          {"virtual_seconds", m.virtual_seconds},
          {"throughput_ops_per_s", m.throughput_ops_per_s},
          {"steps", m.steps},
          {"run_hash", [&] {
             char hex[17];
             std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(m.run_hash));
             return std::string(hex);
           }()}};
}

nlohmann::json batch_json(const Scenario& s, const SeedRange& seeds, const Shard& shard,
                          const std::vector<SeedOutcome>& outcomes) {
  nlohmann::json runs = nlohmann::json::array();
  for (const SeedOutcome& r : outcomes) {
    runs.push_back({{"seed", r.seed},
                    {"verdict", r.verdict.summary()},
                    {"explanation", r.verdict.explanation},
                    {"as_expected", r.as_expected},
                    {"shows_expected", r.shows_expected},
                    {"reproduce", reproduction_command(s, r.seed)},
                    {"metrics", metrics_json(r.metrics)}});
  }
  return {{"scenario", s.name},
          {"file", s.file},
          {"recipe", s.recipe},
          {"clients", s.clients},
          {"operations_per_client", s.operations_per_client},
          {"expect", s.expect},
          {"seeds", {{"first", seeds.first}, {"last", seeds.last}}},
          {"shard", std::to_string(shard.index) + "/" + std::to_string(shard.count)},
          {"runs", runs}};
}

std::string junit_xml(const Scenario& s, const SeedRange& seeds,
                      const std::vector<SeedOutcome>& outcomes, const BatchJudgement& j,
                      double seconds) {
  std::ostringstream out;
  const std::string name =
      s.name + " seeds " + std::to_string(seeds.first) + ".." + std::to_string(seeds.last);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites tests=\"1\" failures=\"" << (j.passed ? 0 : 1) << "\">\n"
      << "  <testsuite name=\"contend\" tests=\"1\" failures=\"" << (j.passed ? 0 : 1)
      << "\" errors=\"0\" time=\"" << seconds << "\">\n"
      << "    <testcase classname=\"contend." << markup_escape(s.recipe) << "\" name=\""
      << markup_escape(name) << "\" time=\"" << seconds << "\">\n";
  out << "      <properties>\n        <property name=\"expect\" value=\"" << markup_escape(s.expect)
      << "\"/>\n        <property name=\"seeds_run\" value=\"" << outcomes.size()
      << "\"/>\n      </properties>\n";
  if (!j.passed) {
    std::uint64_t seed = j.first_unexpected.value_or(j.first_unknown.value_or(seeds.first));
    out << "      <failure message=\"" << markup_escape(j.why) << "\" type=\""
        << (j.undecided ? "unknown verdict" : "unexpected verdict") << "\">"
        << markup_escape(j.why + "\nreproduce: " + reproduction_command(s, seed)) << "</failure>\n";
  }
  out << "    </testcase>\n  </testsuite>\n</testsuites>\n";
  return out.str();
}

}  // namespace contend
