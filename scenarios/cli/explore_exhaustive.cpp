#include "scenarios/cli/explore_exhaustive.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iterator>
#include <nlohmann/json.hpp>

#include "base/shell_quote.h"
#include "scenarios/cli/explore_reports.h"
#include "scenarios/cli/run_support.h"
#include "scenarios/cli/stop_signals.h"
#include "scenarios/cli/time_limit.h"
#include "scenarios/expectation.h"
#include "scenarios/runner.h"
#include "scenarios/search_estimate.h"
#include "scenarios/trace.h"
#include "sim/runtime/dpor.h"

namespace contend::cli {

namespace {

// `file`: a path (quoted for the shell when it needs it), or empty for a placeholder to replace.
std::string replay_command_for(const std::string& file, const ExhaustiveOptions& o,
                               const ExhaustiveFinding& f) {
  return fmt::format("contend replay {} --seed {}{} --path {}",
                     file.empty() ? "<counterexample.toml>" : shell_quoted_path(file), o.seed,
                     o.explore_draws ? " --draws all" : "", f.path);
}

// What stopped a search before its end, in --json's words: "signal", "max_seconds", or empty
// when nothing did (a search that ran to its end or to its budget of runs).
// Every execution judged linearizable and no step bound hit: a search whose every execution was
// unknown holds one verdict too, and it is no proof (nor, for a violation expected, a proof of its
// absence).
bool every_execution_clean(const ExhaustiveResult& r) {
  const auto clean = r.verdicts.find("linearizable");
  return (clean == r.verdicts.end() ? 0 : clean->second) == r.executions && r.bound_hits == 0;
}

std::string stopped_by(const ExhaustiveResult& r, bool limit_stopped) {
  if (!r.interrupted) return "";
  return limit_stopped ? "max_seconds" : "signal";
}

nlohmann::json summary_json(const Scenario& s, const ExhaustiveArgs& args,
                            const ExhaustiveResult& r, const std::string& statement,
                            const std::string& counterexample_file, const std::string& stopped) {
  const ExhaustiveOptions& o = args.options;
  nlohmann::json j;
  j["scenario"] = s.file;
  j["scenario_contents"] = contents_digest(s);
  j["recipe"] = s.recipe;
  j["expect"] = s.expect;
  j["search"] = "exhaustive";
  j["clients"] = s.clients;
  j["operations_per_client"] = s.operations_per_client;
  j["plans"] = std::string(plans_name(s, o));
  const std::optional<Plan> plan = searched_plan(s, o);
  j["plan"] = plan ? nlohmann::json(describe_plan(*plan)) : nlohmann::json(nullptr);
  j["plan_count"] = r.plans;
  j["draws"] = o.explore_draws ? "all" : "seed";
  j["seed"] = o.seed;
  j["max_faults"] = o.max_faults;
  nlohmann::json kinds = nlohmann::json::array();  // the faults the budget chooses among
  if (o.max_faults > 0) {
    for (std::string_view kind : seed_faults(s, o.seed).explored())
      kinds.push_back(std::string(kind));
  }
  j["fault_kinds"] = kinds;
  j["max_preemptions"] =
      o.max_preemptions ? nlohmann::json(*o.max_preemptions) : nlohmann::json(nullptr);
  j["reduction"] = std::string(reduction_name(o));
  j["exhausted"] = r.exhausted;
  j["executions"] = r.executions;
  j["equivalence_classes"] = r.executions;
  j["abandoned_as_equivalent"] = r.blocked;
  j["abandoned_parked"] = r.parked;
  j["bound_hits"] = r.bound_hits;
  j["seeded_draws"] = r.seeded_draws;
  j["distinct_outcomes"] = r.distinct_outcomes;
  j["units"] = r.units;
  j["units_done"] = r.units_done;
  // The scope the last search was of (smallest first, a budget stops at the first it does not
  // finish): what runs_in_scope and runs_estimate count.
  j["last_scope"] = {{"clients", r.last_clients},
                     {"operations_per_client", r.last_operations},
                     {"max_faults", r.last_faults}};
  j["runs_in_scope"] = r.runs_in_scope;
  j["runs_estimate"] = r.runs_estimate ? nlohmann::json(*r.runs_estimate) : nlohmann::json(nullptr);
  j["resumed_from_checkpoint"] = r.resumed;
  j["shard"] = fmt::format("{}/{}", o.shard.index, o.shard.count);
  // Shards dealt from one sized search name its file's digest (merge checks they agree).
  j["dealt_from"] = o.deal_from.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.deal_digest);
  j["interrupted"] = r.interrupted;
  j["stopped_by"] = stopped.empty() ? nlohmann::json(nullptr) : nlohmann::json(stopped);
  j["max_seconds"] = args.max_seconds ? nlohmann::json(*args.max_seconds) : nlohmann::json(nullptr);
  j["sized_only"] = r.sized_only;
  if (r.sized_only) j["units_unrun"] = r.units_unrun;
  j["seconds"] = r.seconds;
  j["verdicts"] = r.verdicts;
  j["coverage"] = r.coverage;
  j["verdict"] = r.violation                               ? "violation"
                 : r.exhausted && every_execution_clean(r) ? "linearizable"
                                                           : "unknown";
  j["statement"] = statement;
  if (r.violation) {
    const ExhaustiveFinding& f = *r.violation;
    nlohmann::json c;
    c["violation"] = std::string(model::to_string(f.verdict.violation));
    c["explanation"] = f.verdict.explanation;
    c["clients"] = f.scenario.clients;
    c["operations_per_client"] = f.scenario.operations_per_client;
    c["plan"] = describe_plan(f.scenario.plan);
    c["faults"] = f.faults;
    if (o.explore_draws) c["draws"] = f.draws;
    c["steps"] = f.steps;
    c["path"] = f.path;
    c["minimal"] = f.minimal;
    c["file"] = counterexample_file;
    c["reproduce"] = replay_command_for(counterexample_file, o, f);
    j["counterexample"] = c;
  }
  return j;
}

// Prints the counterexample to `text` and writes its scenario under --out; returns the file
// written.
std::string report(const ExhaustiveArgs& args, const ExhaustiveFinding& f, std::FILE* text) {
  const ExhaustiveOptions& o = args.options;
  fmt::print(text, "\ncounterexample: {} client(s) x {} operation(s), plan {}\n",
             f.scenario.clients, f.scenario.operations_per_client, describe_plan(f.scenario.plan));
  fmt::print(text, "{}\n",
             f.minimal ? f.minimal_note : std::string("not minimised (the first execution found)"));
  if (f.faults.empty()) {
    fmt::print(text, "faults placed: none\n");
  } else {
    fmt::print(text, "faults placed ({}):\n", f.faults.size());
    for (const std::string& note : f.faults)
      fmt::print(text, "  {}\n", note);
  }
  if (o.explore_draws) {
    fmt::print(text, "key suffixes placed ({}){}\n", f.draws.size(),
               f.draws.empty() ? ": none under a prefix drawn under before" : ":");
    for (const std::string& note : f.draws)
      fmt::print(text, "  {}\n", note);
  }
  fmt::print(text, "verdict: {}\n  {}\n\n", f.verdict.summary(), f.verdict.explanation);
  std::string error;
  auto nodes = parse_path(f.path, error);
  if (nodes) {
    auto run = std::make_shared<DporRun>(&*nodes, nodes->size(), DporOptions{});
    RunControls controls{true, false, run, true};
    print_trace(text, run_seed(f.scenario, o.seed, std::move(controls)));
  }
  std::string file;
  if (!args.out_dir.empty()) {
    file = args.out_dir + "/" + f.scenario.name + ".toml";
    if (!write_whole_file(file, "# Found by contend's exhaustive search of " + f.scenario.file +
                                    ".\n" + to_toml(f.scenario))) {
      fmt::print(stderr, "contend: cannot write {}\n", file);
      file.clear();
    }
  }
  if (file.empty()) {
    fmt::print(text, "\nreproduce: save the scenario (--out DIR writes it), then\n  {}\n",
               replay_command_for("", o, f));
  } else {
    fmt::print(text, "\nwrote {}\nreproduce: {}\n", file, replay_command_for(file, o, f));
  }
  return file;
}

void print_header(std::FILE* text, const Scenario& scenario, const ExhaustiveOptions& o) {
  fmt::print(text,
             "exhaustive search of {} ({}, {} client(s) x {} operation(s)), plans: {}, "
             "key suffixes: {}, faults <= {}, preemptions: {}, {} job(s)\n",
             scenario.file, scenario.recipe, scenario.clients, scenario.operations_per_client,
             plans_name(scenario, o) == "all" ? "all" : plans_covered(scenario, o, std::nullopt),
             o.explore_draws ? "every order" : "the seed's", o.max_faults,
             o.max_preemptions ? std::to_string(*o.max_preemptions) : "unbounded", o.jobs);
}

// The status of a search that ran (its checkpoint aside): 4 a simulator fault first, then 0 or
// 1 by the expectation for a violation found, 3 a budget (of runs or time) that ran out or an
// execution no checker judged, 128 + N a stop by signal N.
int search_exit_code(const Scenario& scenario, const ExhaustiveResult& r, bool limit_stopped,
                     int signal_number) {
  if (r.verdicts.count("simulator_fault") != 0) return 4;  // contend itself broke: say so first
  if (r.violation) return shows_expected_violation(scenario.expect, r.violation->verdict) ? 0 : 1;
  if (r.interrupted && limit_stopped) return 3;   // a budget, of time, ran out
  if (r.interrupted) return 128 + signal_number;  // as a shell reports a signal's end
  if (!r.exhausted || !every_execution_clean(r)) return 3;
  return scenario.expect != "linearizable" ? 1 : 0;
}

}  // namespace

int explore_exhaustive_command(const Scenario& scenario, ExhaustiveArgs& args) {
  ExhaustiveOptions& o = args.options;
  o.all_plans = args.plans == "all";
  if (!args.shard.empty()) {
    std::string error;
    auto shard = parse_shard(args.shard, error);
    if (!shard) {
      fmt::print(stderr, "contend explore: --shard: {}\n", error);
      return 2;
    }
    o.shard = *shard;
  }
  if (o.sizing_only && (o.checkpoint_file.empty() || o.shard.count > 1 || !o.deal_from.empty())) {
    fmt::print(stderr,
               "contend explore: --sizing-only: saves the whole search's units for --deal-from, "
               "so it needs --checkpoint FILE and takes neither --shard nor --deal-from\n");
    return 2;
  }
  std::vector<NamedFile> files = {NamedFile{"scenario", scenario.file},
                                  NamedFile{"--deal-from", o.deal_from},
                                  NamedFile{"--checkpoint", o.checkpoint_file, true},
                                  NamedFile{"--json", args.json_path, true}};
  std::ranges::copy(report_files(args.reports), std::back_inserter(files));
  if (refuse_one_file_named_twice("explore", files)) return 2;
  if (std::string why = refusal(scenario, o); !why.empty()) {
    fmt::print(stderr, "contend explore: {}\n", why);
    return 2;
  }
  // With --json - the JSON is all there is on stdout, for scripts; the words go to stderr.
  std::FILE* text = args.json_path == "-" ? stderr : stdout;
  // Printed once the search has read its files: a file it refuses is refused before anything.
  o.on_start = [&scenario, &o, text] { print_header(text, scenario, o); };
  const auto start = std::chrono::steady_clock::now();
  o.progress_every = args.progress_every;
  o.on_progress = [start](const ExhaustiveProgress& p) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string phase =
        p.sizing_round > 0 ? fmt::format("sizing round {}: ", p.sizing_round) : "";
    // The time left is the rest of the estimate at the rate of the runs made here so far
    // (smaller scopes included); the runs a checkpoint held are done, and took none of it.
    const std::int64_t left =
        p.runs_estimate ? std::max<std::int64_t>(*p.runs_estimate - p.runs - p.runs_resumed, 0) : 0;
    const std::string estimate =
        p.runs_estimate && p.runs > 0
            ? fmt::format(
                  "; the scope's whole search is about {} runs by the estimate, about {} "
                  "more",
                  about_count(static_cast<double>(*p.runs_estimate)),
                  about_duration(static_cast<double>(left) * seconds / static_cast<double>(p.runs)))
            : std::string();
    const std::string resumed =
        p.runs_resumed > 0 ? fmt::format(" (and {} from the checkpoint)", p.runs_resumed) : "";
    fmt::print(stderr,
               "contend explore: {} x {}, faults <= {}: {} runs (executions and abandoned) so "
               "far{}, {}{} of {} units done, {:.0f} s{}\n",
               p.clients, p.operations, p.max_faults, p.runs, resumed, phase, p.units_done, p.units,
               seconds, estimate);
  };
  StopOnSignals stop;
  o.stop_requested = &stop.requested();
  ExhaustiveResult r;
  std::atomic<bool> limit_first{false};  // the limit asked for the stop before any signal did
  {
    StopAtTimeLimit limit(args.max_seconds, [&stop, &args, &limit_first] {
      if (!stop.ask_to_stop()) return;  // a signal asked first: the stop is its
      limit_first.store(true);
      fmt::print(stderr,
                 "\ncontend explore: the time limit (--max-seconds {}) ran out: stopping: each "
                 "unit ends the run it is in, then the search writes its checkpoint (with "
                 "--checkpoint; one still being read is left as it was) and says what it "
                 "covered\n",
                 *args.max_seconds);
    });
    r = explore_exhaustively(scenario, o);
  }  // the limit stops waiting: what it did not stop is the search's own end
  o.stop_requested = nullptr;
  // A signal that came after the limit does not make the limit's stop a signal's.
  const bool limit_stopped = limit_first.load();
  if (!r.error.empty()) {
    fmt::print(stderr, "contend explore: {}\n", r.error);
    // A stop while a checkpoint was read ends the search there (reading_stopped), and whatever
    // else went wrong, the search was asked to stop: the status says so.
    if (limit_stopped) return 3;
    return stop.requested().load() ? 128 + stop.signal_number() : 2;
  }
  if (r.interrupted && limit_stopped) {
    r.stop_cause = fmt::format("the time limit ran out (--max-seconds {})", *args.max_seconds);
  }
  const std::string stopped = stopped_by(r, limit_stopped);
  for (const auto& [verdict, n] : r.verdicts)
    fmt::print(text, "  {:<32} {}\n", verdict, n);
  if (r.executions > 0) {
    for (const std::string& line : coverage_lines(r.coverage, r.executions))
      fmt::print(text, "{}\n", line);
  }
  const std::string statement = proof_statement(scenario, o, r);
  std::string file;
  if (r.violation) file = report(args, *r.violation, text);
  fmt::print(text, "\n{}\n", statement);
  ExploreEnding ending{search_exit_code(scenario, r, limit_stopped, stop.signal_number()),
                       statement,
                       r.violation ? replay_command_for(file, o, *r.violation) : std::string()};
  // A search whose checkpoint could not be saved exits 2 (below), and its reports say so.
  if (!r.checkpoint_error.empty()) ending.exit_code = 2;
  nlohmann::json summary = summary_json(scenario, args, r, statement, file, stopped);
  summary["passed"] = ending.exit_code == 0;
  summary["exit_code"] = ending.exit_code;
  const std::string junit = explore_junit_xml(
      scenario, "dpor", o.seed, summary.at("shard").get<std::string>(), ending, r.seconds);
  if (!write_explore_outputs(args.json_path, args.reports, summary.dump(2) + "\n", junit)) return 2;
  if (!r.checkpoint_error.empty()) {
    fmt::print(stderr, "contend explore: {}: the results above are not saved in it\n",
               r.checkpoint_error);
  }
  return ending.exit_code;
}

}  // namespace contend::cli
