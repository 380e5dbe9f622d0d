#include "scenarios/batch.h"
#include "base/decimal.h"
#include "base/invariant.h"
#include "base/worker_threads.h"
#include "scenarios/junit.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
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

std::uint64_t seeds_in_shard(const SeedRange& seeds, const Shard& shard) {
  const std::uint64_t offset = shard.index - 1;  // of the shard's first seed from seeds.first
  if (offset >= seeds.count()) return 0;
  return (seeds.count() - offset + shard.count - 1) / shard.count;
}

namespace {

SeedOutcome run_and_judge(const Scenario& scenario, std::uint64_t seed) {
  SeedRun run = run_seed(scenario, seed);
  model::CheckReport report = check_run(scenario, run);
  SeedOutcome r;
  r.seed = seed;
  r.metrics = std::move(run.metrics);
  r.verdict = std::move(report.verdict);
  r.as_expected = seed_consistent(scenario.expect, r.verdict) && !report.disagreement;
  r.shows_expected = shows_expected_violation(scenario.expect, r.verdict);
  return r;
}

// Outcomes completed out of order wait here until every seed before them is handed on.
class InOrder {
 public:
  InOrder(std::size_t waiting_max, const std::function<void(SeedOutcome&&)>& consume)
      : waiting_max_(waiting_max), consume_(consume) {}

  // Blocks until the outcome of seed number `index` may be held without passing the bound.
  void wait_for_room(std::size_t index) {
    std::unique_lock<std::mutex> guard(lock_);
    room_.wait(guard, [&] { return index < handed_on_ + waiting_max_; });
  }

  // Holds the outcome of seed number `index`, and hands on every outcome now in order. `then()`
  // runs under the same lock after them (progress, drawn after the rows just printed).
  template <class Then>
  void complete(std::size_t index, SeedOutcome&& outcome, Then&& then) {
    std::lock_guard<std::mutex> guard(lock_);
    waiting_.emplace(index, std::move(outcome));
    waiting_most_ = std::max(waiting_most_, waiting_.size());
    CONTEND_ASSERT(waiting_.size() <= waiting_max_, "a worker ran past the outcomes' bound");
    while (!waiting_.empty() && waiting_.begin()->first == handed_on_) {
      consume_(std::move(waiting_.begin()->second));
      waiting_.erase(waiting_.begin());
      ++handed_on_;
    }
    then();
    room_.notify_all();
  }

  std::size_t waiting_most() const { return waiting_most_; }

 private:
  const std::size_t waiting_max_;
  const std::function<void(SeedOutcome&&)>& consume_;
  std::mutex lock_;
  std::condition_variable room_;
  std::map<std::size_t, SeedOutcome> waiting_;
  std::size_t handed_on_ = 0;
  std::size_t waiting_most_ = 0;
};

}  // namespace

std::size_t for_each_seed_outcome(const Scenario& scenario, const BatchOptions& o,
                                  const std::function<void(SeedOutcome&&)>& consume) {
  const std::uint64_t total = seeds_in_shard(o.seeds, o.shard);
  auto seed_of = [&](std::uint64_t i) {
    return o.seeds.first + (o.shard.index - 1) + i * o.shard.count;
  };
  const int jobs = std::max(1, o.jobs);
  InOrder in_order(std::max(kOutcomesWaitingMax, 4 * static_cast<std::size_t>(jobs)), consume);
  std::atomic<std::uint64_t> next{0};
  std::size_t done = 0;  // under in_order's lock
  auto worker = [&] {
    for (std::uint64_t i = next++; i < total; i = next++) {
      in_order.wait_for_room(static_cast<std::size_t>(i));
      SeedOutcome r = run_and_judge(scenario, seed_of(i));
      const bool violation = !r.verdict.ok();
      in_order.complete(static_cast<std::size_t>(i), std::move(r), [&] {
        ++done;
        if (o.progress) o.progress(violation, done, static_cast<std::size_t>(total));
      });
    }
  };
  run_on_threads(jobs, worker, "--jobs");
  return in_order.waiting_most();
}

std::vector<SeedOutcome> run_batch(const Scenario& scenario, const BatchOptions& o) {
  std::vector<SeedOutcome> out;
  for_each_seed_outcome(scenario, o, [&](SeedOutcome&& r) { out.push_back(std::move(r)); });
  return out;
}

void BatchJudge::add(const SeedOutcome& r) {
  ++seeds_judged_;
  if (!first_) first_ = r;
  if (r.verdict.kind == model::VerdictKind::unknown) {
    if (!first_unknown_) first_unknown_ = r;
  } else if (!r.as_expected && !first_unexpected_) {
    first_unexpected_ = r;
  }
  if (r.shows_expected && !first_expected_violation_) first_expected_violation_ = r;
  if (r.verdict.kind == model::VerdictKind::simulator_fault && !first_simulator_fault_) {
    first_simulator_fault_ = r;
  }
}

const SeedOutcome* BatchJudge::kept(std::uint64_t seed) const {
  for (const std::optional<SeedOutcome>* o :
       {&first_unexpected_, &first_unknown_, &first_expected_violation_, &first_simulator_fault_,
        &first_}) {
    if (*o && (*o)->seed == seed) return &**o;
  }
  return nullptr;
}

namespace {
std::string why_of(const SeedOutcome& r) {
  return "seed " + std::to_string(r.seed) + ": " + r.verdict.summary() + ": " +
         r.verdict.explanation;
}
std::optional<std::uint64_t> seed_of(const std::optional<SeedOutcome>& o) {
  return o ? std::optional<std::uint64_t>(o->seed) : std::nullopt;
}
// "K/N", as --shard takes it.
std::string shard_text(const Shard& shard) {
  return std::to_string(shard.index) + "/" + std::to_string(shard.count);
}
}  // namespace

BatchJudgement BatchJudge::judgement(const Scenario& s, bool whole_range) const {
  BatchJudgement j;
  j.first_unexpected = seed_of(first_unexpected_);
  j.first_unknown = seed_of(first_unknown_);
  j.first_expected_violation = seed_of(first_expected_violation_);
  j.first_simulator_fault = seed_of(first_simulator_fault_);
  if (first_unexpected_) j.why = why_of(*first_unexpected_);
  j.passed = !j.first_unexpected;
  // An unknown seed might be the one that refutes "every seed is linearizable", or the one that
  // shows the violation expected; it matters unless that violation was shown already.
  const bool shown = s.expect != "linearizable" && j.first_expected_violation;
  if (j.passed && j.first_unknown && !shown) {
    j.passed = false;
    j.undecided = true;
    j.why = why_of(*first_unknown_);
  } else if (whole_range && s.expect != "linearizable" && !j.first_expected_violation) {
    j.passed = false;
    if (j.why.empty()) j.why = "no seed showed the expected " + s.expect;
  }
  return j;
}

BatchJudgement judge(const Scenario& s, const std::vector<SeedOutcome>& outcomes,
                     bool whole_range) {
  BatchJudge judge;
  for (const SeedOutcome& r : outcomes)
    judge.add(r);
  return judge.judgement(s, whole_range);
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
          {"virtual_seconds_in_all", m.virtual_seconds_in_all},
          {"throughput_ops_per_s", m.throughput_ops_per_s},
          {"steps", m.steps},
          {"run_hash", [&] {
             char hex[17];
             std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(m.run_hash));
             return std::string(hex);
           }()}};
}

nlohmann::json seed_json(const Scenario& s, const SeedOutcome& r) {
  return {{"seed", r.seed},
          {"verdict", r.verdict.summary()},
          {"explanation", r.verdict.explanation},
          {"as_expected", r.as_expected},
          {"shows_expected", r.shows_expected},
          {"reproduce", reproduction_command(s, r.seed)},
          {"metrics", metrics_json(r.metrics)}};
}

nlohmann::json batch_json_header(const Scenario& s, const SeedRange& seeds, const Shard& shard) {
  return {{"scenario", s.name},
          {"file", s.file},
          {"scenario_contents", contents_digest(s)},
          {"recipe", s.recipe},
          {"clients", s.clients},
          {"operations_per_client", s.operations_per_client},
          {"expect", s.expect},
          {"seeds", {{"first", seeds.first}, {"last", seeds.last}}},
          {"shard", shard_text(shard)}};
}

nlohmann::json batch_json(const Scenario& s, const SeedRange& seeds, const Shard& shard,
                          const std::vector<SeedOutcome>& outcomes) {
  nlohmann::json runs = nlohmann::json::array();
  for (const SeedOutcome& r : outcomes)
    runs.push_back(seed_json(s, r));
  nlohmann::json out = batch_json_header(s, seeds, shard);
  out["runs"] = std::move(runs);
  return out;
}

std::string junit_xml(const Scenario& s, const SeedRange& seeds, const Shard& shard,
                      std::uint64_t seeds_run, const BatchJudgement& j, double seconds,
                      const std::string& skipped) {
  JunitCase c;
  c.classname = "contend." + s.recipe;
  c.name = s.name + " seeds " + std::to_string(seeds.first) + ".." + std::to_string(seeds.last);
  if (shard.count > 1) c.name += " shard " + shard_text(shard);
  c.seconds = seconds;
  c.properties = {{"expect", s.expect}, {"seeds_run", std::to_string(seeds_run)}};
  if (!j.passed) {
    std::uint64_t seed = j.first_unexpected.value_or(j.first_unknown.value_or(seeds.first));
    c.failure = JunitFailure{j.why, j.undecided ? "unknown verdict" : "unexpected verdict",
                             j.why + "\nreproduce: " + reproduction_command(s, seed)};
  } else if (seeds_run == 0) {
    c.skipped = skipped;
  }
  return junit_document(c);
}

}  // namespace contend
