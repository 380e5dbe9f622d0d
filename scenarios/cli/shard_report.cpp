// A shard's run report read as a stream (shard_report.h).
#include "scenarios/cli/shard_report.h"

#include <fmt/format.h>

#include "model/history_json.h"
#include "model/json_keys.h"
#include "model/verdict.h"
#include "scenarios/cli/report_layout.h"
#include "scenarios/json_shape.h"

namespace contend::cli {

namespace {

// What merge reads of each run entry.
constexpr JsonField kRun[] = {{"seed", &kUnsigned},
                              {"verdict", &kText},
                              {"as_expected", &kBoolean},
                              {"shows_expected", &kBoolean}};

// Whether `text` is a verdict as a run report writes it (model::Verdict::summary):
// "linearizable", "unknown", "simulator_fault", or "violation: <kind>".
bool is_verdict_summary(std::string_view text) {
  constexpr std::string_view kViolation = "violation: ";
  if (text.starts_with(kViolation)) {
    const auto kind = model::parse_violation_kind(text.substr(kViolation.size()));
    return kind && *kind != model::ViolationKind::none;
  }
  const auto kind = model::parse_verdict_kind(text);
  return kind && *kind != model::VerdictKind::violation;
}

// Thrown by the reader at an array or object nested past model::kMaxJsonDepth.
struct NestedTooDeep {};

std::optional<std::uint64_t> lower_of(std::optional<std::uint64_t> a,
                                      std::optional<std::uint64_t> b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

// The parser callback (nlohmann::json::parse's) that reads the entries of the report's "runs" out
// of it one at a time: each, once parsed, is taken and then discarded from the report parsed.
class RunsReader {
 public:
  RunsReader(ShardReport& report, RunSpool& spool) : report_(report), spool_(spool) {}

  // nlohmann's depth: the arrays and objects open around the event's value (the root's is 0).
  bool on_event(int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    keys_(depth, event, parsed);
    if (event == Event::object_start || event == Event::array_start) {
      if (static_cast<std::size_t>(depth) >= model::kMaxJsonDepth) throw NestedTooDeep{};
      if (depth == 0) root_is_list_ = event == Event::array_start;
      if (depth == 1 && !root_is_list_ && field_ == "runs" && event == Event::array_start) {
        in_runs_ = true;
        report_.runs_listed = true;
      }
      return true;
    }
    if (event == Event::key) {
      if (depth == 1) field_ = parsed.get<std::string>();
      return true;
    }
    if (depth == 1 && root_is_list_) return false;  // a list is no report: its items are let go
    if (depth == 1 && event == Event::array_end) in_runs_ = false;
    if (depth != 2 || !in_runs_) return true;
    take_run(parsed);  // a whole entry of "runs": its value, or the end of its array or object
    return false;
  }

 private:
  void take_run(const nlohmann::json& run) {
    const std::uint64_t index = entries_++;
    if (report_.runs_problem) return;
    if (!run.is_object()) {
      report_.runs_problem = fmt::format("field \"runs[{}]\" is not an object", index);
      return;
    }
    if (auto problem = shape_problem(run, kRun, fmt::format("runs[{}].", index))) {
      report_.runs_problem = std::move(problem);
      return;
    }
    if (!is_verdict_summary(run.at("verdict").get_ref<const std::string&>())) {
      report_.runs_problem = fmt::format(
          "field \"runs[{}].verdict\" is not a verdict: linearizable, unknown, simulator_fault or "
          "\"violation: KIND\"",
          index);
      return;
    }
    const auto seed = run.at("seed").get<std::uint64_t>();
    if (auto problem = out_of_order(index, seed)) {
      report_.runs_problem = std::move(problem);
      return;
    }
    if (!report_.lowest_seed) report_.lowest_seed = seed;
    report_.highest_seed = seed;
    report_.runs += 1;
    report_.verdicts.add(seed, run);
    spool_.add(seed, run_entry_text(run, InvalidUtf8::replace));
  }

  // Why the entry at `index`, of `seed`, does not follow the one before it in seed order.
  std::optional<std::string> out_of_order(std::uint64_t index, std::uint64_t seed) const {
    if (!report_.highest_seed || seed > *report_.highest_seed) return std::nullopt;
    if (seed == *report_.highest_seed)
      return fmt::format("seed {} appears twice in its runs", seed);
    return fmt::format(
        "field \"runs[{}].seed\" ({}) is below the seed before it ({}): a shard's runs are in seed "
        "order, as contend run writes them",
        index, seed, *report_.highest_seed);
  }

  ShardReport& report_;
  RunSpool& spool_;
  model::DuplicateKeyCheck keys_;
  std::string field_;  // the root object's field being read
  bool root_is_list_ = false;
  bool in_runs_ = false;  // reading the entries of the root object's "runs" list
  std::uint64_t entries_ = 0;
};

}  // namespace

void RunVerdicts::add(std::uint64_t seed, const nlohmann::json& run) {
  const nlohmann::json& verdict = run.at("verdict");
  if (verdict == "simulator_fault" && !simulator_fault) simulator_fault = seed;
  if (verdict == "unknown") {
    if (!unknown) unknown = seed;
  } else if (!run.at("as_expected").get<bool>() && !unexpected) {
    unexpected = seed;
    unexpected_verdict = verdict.get<std::string>();
  }
  if (run.at("shows_expected").get<bool>() && !shows_expected) shows_expected = seed;
}

void RunVerdicts::add(const RunVerdicts& other) {
  simulator_fault = lower_of(simulator_fault, other.simulator_fault);
  unknown = lower_of(unknown, other.unknown);
  if (other.unexpected && (!unexpected || *other.unexpected < *unexpected)) {
    unexpected = other.unexpected;
    unexpected_verdict = other.unexpected_verdict;
  }
  shows_expected = lower_of(shows_expected, other.shows_expected);
}

ShardReport read_shard_report(std::istream& text, RunSpool& spool) {
  ShardReport report;
  report.region = spool.start_region();
  RunsReader reader(report, spool);
  try {
    report.fields = nlohmann::json::parse(
        text,
        [&reader](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
          return reader.on_event(depth, event, parsed);
        },
        /*allow_exceptions=*/false);
  } catch (const model::DuplicateKey& e) {
    report.duplicate_key = e.key();
    report.fields = nlohmann::json(nlohmann::json::value_t::discarded);
  } catch (const NestedTooDeep&) {
    report.fields = nlohmann::json(nlohmann::json::value_t::discarded);
  } catch (const nlohmann::json::exception&) {  // never let nlohmann's exceptions escape
    report.fields = nlohmann::json(nlohmann::json::value_t::discarded);
  }
  report.region = spool.region();
  return report;
}

}  // namespace contend::cli
