// `contend explore <scenario.toml> --strategy pct|dfs|random [--seed N] [--schedules N]
//  [--depth d] [--max-preemptions p] [--jobs N] [--all] [--json F] [--report json=F|junit=F]...`:
// explores schedules of one scenario; prints how many ran, whether the (bounded) space was
// exhausted, the PCT probability bound, the verdicts; on a violation, the shrunk counterexample
// and its one-line reproduction. A dfs whose budget ran out before its bounded space was exhausted
// exits 3 (unknown), not 0. --json and --report say the same in JSON and JUnit
// (explore_reports.h), for every strategy; random and pct run --jobs threads, with the same
// results.
// `--strategy dpor [--plans all|seed] [--draws all|seed] [--max-faults F] [--jobs N]
//  [--shard K/N] [--checkpoint F] [--sizing-only] [--deal-from F] [--json F] [--max-seconds S]`:
//  the exhaustive search with partial-order reduction (explore_exhaustive.h).
// `--clients C --operations O` explore the scenario at another scope (a scenario with a [plan]
// keeps its own).
// A flag of another strategy than the one chosen (`--depth` is PCT's, `--max-preemptions` DFS's and
// dpor's, the rest dpor's) is refused, exit 2.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iterator>
#include <optional>
#include <utility>
#include <vector>

#include "scenarios/cli/commands.h"
#include "scenarios/cli/explore_exhaustive.h"
#include "scenarios/cli/explore_reports.h"
#include "scenarios/cli/number_options.h"
#include "scenarios/cli/run_support.h"
#include "scenarios/explore.h"
#include "scenarios/seed_range.h"

namespace contend::cli {

namespace {

// Flags left out fall back to the scenario's [strategy] table and its first seed.
struct ExploreArgs {
  std::string scenario_path;
  ExploreOptions options;
  std::optional<std::string> strategy;
  std::optional<std::uint64_t> seed;
  std::optional<std::int64_t> schedules;
  std::optional<int> depth;
  std::optional<int> max_preemptions;
  std::string out_dir;  // empty: the counterexample scenario is printed, not written
  bool no_shrink = false;
  bool all = false;
  ExhaustiveArgs exhaustive;
  std::optional<int> max_faults;
  std::optional<std::string> plans;
  std::optional<std::string> draws;
  ScopeArgs scope;                   // the scope, instead of the scenario's
  std::vector<std::string> reports;  // --report, as given: json=FILE or junit=FILE
  // The flags that only some strategies take, with those strategies: one given to another
  // strategy would be passed over in silence (a --checkpoint that saves nothing), so it is refused.
  std::vector<std::pair<const CLI::Option*, std::vector<std::string>>> strategy_flags;
};

// "a", "a or b", "a, b or c".
std::string one_of(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return out;
}

// Refuses, naming each, the flags given that the strategy chosen does not take; false if any.
bool flags_fit_strategy(const ExploreArgs& args, const std::string& strategy) {
  bool fit = true;
  for (const auto& [option, strategies] : args.strategy_flags) {
    if (option->count() == 0 ||
        std::find(strategies.begin(), strategies.end(), strategy) != strategies.end())
      continue;
    fmt::print(stderr,
               "contend explore: {} is a flag of --strategy {}, and this exploration is {} ({})\n",
               option->get_name(), one_of(strategies), strategy,
               args.strategy ? "--strategy " + strategy : "the scenario's [strategy] name");
    fit = false;
  }
  return fit;
}

// A schedule no checker could judge leaves an exploration that found no violation undecided:
// exit 4 when it was a simulator fault (contend broke), else 3 (unknown); never a pass.
std::optional<ExploreEnding> undecided_ending(std::FILE* text, const Scenario& scenario,
                                              const ExploreResult& r) {
  if (!r.first_undecided) return std::nullopt;
  const Finding& f = *r.first_undecided;
  ExploreEnding ending;
  ending.reproduce = reproduction_command(scenario, f.seed) +
                     (f.choices.empty() ? std::string() : " --choices " + join_choices(f.choices));
  if (f.verdict.kind == model::VerdictKind::simulator_fault) {
    ending.exit_code = 4;
    ending.why = fmt::format(
        "SIMULATOR FAULT (a bug in contend, not a finding about the recipe): schedule {}: {}",
        f.schedule, f.verdict.explanation);
    fmt::print(text,
               "\nSIMULATOR FAULT (a bug in contend, not a finding about the recipe): schedule "
               "{}\n  {}\nreproduce: {}\n",
               f.schedule, f.verdict.explanation, ending.reproduce);
    return ending;
  }
  const auto judged = r.verdicts.find("linearizable");
  const std::int64_t undecided = r.schedules - (judged == r.verdicts.end() ? 0 : judged->second);
  ending.exit_code = 3;
  ending.why = fmt::format(
      "UNDECIDED: {} of the {} schedules run could not be judged, so finding no violation "
      "proves nothing of them; the first, schedule {}: {}{}",
      undecided, r.schedules, f.schedule, f.verdict.explanation,
      undecided_remedy(scenario, f.verdict));
  fmt::print(text, "\n{}\nreproduce: {}\n", ending.why, ending.reproduce);
  return ending;
}

// No schedule violated. Random and PCT sample schedules, so finding nothing is their result; a
// DFS whose budget ran out before its bounded space did has covered part of what it set out to,
// and says so with exit 3 (unknown), as the dpor search does, never as a pass.
ExploreEnding no_violation_ending(std::FILE* text, const Scenario& scenario,
                                  const ExploreOptions& o, const ExploreResult& r) {
  if (std::optional<ExploreEnding> ending = undecided_ending(text, scenario, r)) return *ending;
  const bool expects_violation = scenario.expect != "linearizable";
  ExploreEnding ending;
  if (o.strategy == "dfs" && !r.exhausted) {
    ending.exit_code = 3;
    ending.why = fmt::format(
        "NOT VERIFIED: the budget of {} schedules (--schedules, else the scenario's "
        "dfs_max_schedules) ran out before every schedule within {} preemption(s) ran; no "
        "violation in the schedules run",
        r.schedules, o.max_preemptions);
  } else {
    ending.exit_code = expects_violation ? 1 : 0;
    ending.why = o.strategy == "dfs" ? fmt::format(
                                           "no violation in any of the {} schedules within {} "
                                           "preemption(s)",
                                           r.schedules, o.max_preemptions)
                                     : std::string("no violation found");
    if (expects_violation)
      ending.why += fmt::format(", and the scenario expects {}", scenario.expect);
  }
  fmt::print(text, "{}\n", ending.why);
  return ending;
}

// A random, pct or dfs exploration of `scenario`, its options set: the text (on stderr under
// --json -), then the reports.
int sample_command(const Scenario& scenario, const ExploreArgs& args,
                   const std::vector<ReportRequest>& reports) {
  const ExploreOptions& o = args.options;
  const std::string& json_path = args.exhaustive.json_path;
  // With --json - the JSON is all there is on stdout, for scripts; the words go to stderr.
  std::FILE* text = json_path == "-" ? stderr : stdout;
  fmt::print(text,
             "exploring {} ({} clients x {} operations) with {} from seed {}, budget {} "
             "schedules{}\n",
             scenario.file, scenario.clients, scenario.operations_per_client, o.strategy, o.seed,
             o.schedules, o.jobs > 1 ? fmt::format(", {} jobs", o.jobs) : std::string());
  const auto start = std::chrono::steady_clock::now();
  const ExploreResult r = explore(scenario, o);
  fmt::print(text, "schedules run: {}", r.schedules);
  if (o.strategy == "dfs") {
    fmt::print(text, " ({} within {} preemption(s))",
               r.exhausted ? "the whole space" : "not exhausted", o.max_preemptions);
  }
  fmt::print(text, "\n");
  if (o.strategy == "pct") {
    fmt::print(text,
               "pct: depth {}, k = {} choice points, n = {} clients: each run finds a given "
               "depth-{} bug with probability >= 1/(n*k^(d-1)) = {:.3g}\n",
               o.pct_depth, r.steps_estimate, scenario.clients, o.pct_depth,
               r.pct_probability_bound);
  }
  for (const auto& [verdict, n] : r.verdicts)
    fmt::print(text, "  {:<32} {}\n", verdict, n);
  ExploreEnding ending;
  std::optional<ReportedCounterexample> counterexample;
  if (r.violation) {
    ending.why = fmt::format("schedule {} shows {}: {}", r.violation->schedule,
                             r.violation->verdict.summary(), r.violation->verdict.explanation);
    fmt::print(text, "\n{}\n", ending.why);
    counterexample =
        report_counterexample(scenario, *r.violation, args.out_dir, !args.no_shrink, text);
    ending.reproduce = counterexample->reproduce;
    ending.exit_code = shows_expected_violation(scenario.expect, r.violation->verdict) ? 0 : 1;
  } else {
    ending = no_violation_ending(text, scenario, o, r);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string json =
      sampling_summary_json(scenario, o, r, counterexample, ending).dump(2) + "\n";
  const std::string junit = explore_junit_xml(scenario, o.strategy, o.seed, "", ending, seconds);
  return write_explore_outputs(json_path, reports, json, junit) ? ending.exit_code : 2;
}

int explore_command(ExploreArgs& args) {
  auto scenario = load_scoped_scenario(args.scenario_path, args.scope, "explore");
  if (!scenario) return 2;
  args.options.stop_at_first_violation = !args.all;
  const StrategyConfig& configured = scenario->strategy;
  args.options.strategy = args.strategy.value_or(configured.name);
  if (!flags_fit_strategy(args, args.options.strategy)) return 2;
  std::optional<std::vector<ReportRequest>> reports = explore_reports(args.reports);
  if (!reports) return 2;
  if (args.options.strategy == "dpor") {
    ExhaustiveOptions& o = args.exhaustive.options;
    o.seed = args.seed.value_or(scenario->seed_first);
    o.max_preemptions = args.max_preemptions;
    if (args.schedules) o.max_executions = *args.schedules;
    o.stop_at_first_violation = !args.all;
    o.minimise = !args.no_shrink;
    const std::string reduction =
        args.exhaustive.no_reduction
            ? "none"
            : args.exhaustive.reduction.value_or(configured.dpor_reduction);
    o.reduce = reduction == "dpor";
    o.cache_states = reduction == "states";
    o.max_faults = args.max_faults.value_or(configured.dpor_max_faults);
    if (args.plans && !scenario->plan.empty()) {
      fmt::print(stderr,
                 "contend explore: --plans {}: {} fixes its plan (key `plan`), and a search of "
                 "it covers that plan alone; leave --plans out, or remove the key to search {}\n",
                 *args.plans, scenario->file,
                 *args.plans == "all" ? "every plan" : "the seed's plan");
      return 2;
    }
    args.exhaustive.plans = args.plans.value_or(configured.dpor_plans);
    o.explore_draws = args.draws.value_or(configured.dpor_draws) == "all";
    args.exhaustive.out_dir = args.out_dir;
    args.exhaustive.reports = std::move(*reports);
    return explore_exhaustive_command(*scenario, args.exhaustive);
  }
  std::vector<NamedFile> files = {NamedFile{"scenario", scenario->file},
                                  NamedFile{"--json", args.exhaustive.json_path, true}};
  std::ranges::copy(report_files(*reports), std::back_inserter(files));
  if (refuse_one_file_named_twice("explore", files)) return 2;
  args.options.seed = args.seed.value_or(scenario->seed_first);
  args.options.jobs = args.exhaustive.options.jobs;
  args.options.pct_depth = args.depth.value_or(configured.pct_depth);
  args.options.max_preemptions = args.max_preemptions.value_or(configured.dfs_max_preemptions);
  args.options.schedules = args.schedules.value_or(
      args.options.strategy == "dfs" ? configured.dfs_max_schedules : args.options.schedules);
  const std::uint64_t last_schedule = static_cast<std::uint64_t>(args.options.schedules) - 1;
  if (args.options.strategy == "random" && args.options.seed > kSeedMax - last_schedule) {
    // Random exploration runs seeds seed, seed + 1, ...: the last must be one a file can hold.
    fmt::print(stderr, "contend explore: --seed {} with --schedules {}: {}\n", args.options.seed,
               args.options.schedules,
               past_largest_seed(fmt::format("{} + {}", args.options.seed, last_schedule)));
    return 2;
  }
  return sample_command(*scenario, args, *reports);
}

}  // namespace

void register_explore_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<ExploreArgs>();
  CLI::App* cmd = app.add_subcommand(
      "explore", "Explore schedules (PCT, bounded DFS, random) and shrink failures");
  cmd->add_option("scenario", args->scenario_path, "Scenario file (TOML)")->required();
  cmd->add_option("--strategy", args->strategy,
                  "random, pct, dfs, or dpor (exhaustive, reduced; default: the scenario's)")
      ->check(CLI::IsMember({"random", "pct", "dfs", "dpor"}));
  add_scope_options(cmd, args->scope, "Explore");
  cmd->add_option("--seed", args->seed,
                  "World seed (random: the first seed; default: the scenario's first)")
      ->transform(seed_number());
  cmd->add_option("--schedules", args->schedules,
                  "Schedule budget (dpor: runs per plan, shared by its units; default 20000000)")
      ->transform(whole_number_in(1, INT64_MAX));
  cmd->add_option("--depth", args->depth, "PCT bug depth d")->transform(whole_number_in(1, 64));
  cmd->add_option("--max-preemptions", args->max_preemptions,
                  "Preemption bound (dfs: default the scenario's; dpor: unbounded when left out)")
      ->transform(whole_number_in(0, 64));
  ExhaustiveArgs& x = args->exhaustive;
  cmd->add_option("--max-faults", args->max_faults,
                  "dpor: faults placed per execution, among those the scenario enables (default: "
                  "the scenario's dpor_max_faults, else 0)")
      ->transform(whole_number_in(0, 16));
  cmd->add_option("--plans", args->plans,
                  "dpor: every plan the mix allows (all) or the seed's (seed); default: the "
                  "scenario's dpor_plans, else all")
      ->check(CLI::IsMember({"all", "seed"}));
  cmd->add_option("--draws", args->draws,
                  "dpor: random key suffixes in every order under each key prefix (all) or the "
                  "seed's bytes (seed); default: the scenario's dpor_draws, else seed")
      ->check(CLI::IsMember({"all", "seed"}));
  cmd->add_option("--jobs", x.options.jobs,
                  "random, pct, dpor: threads (results identical to --jobs 1)")
      ->transform(jobs_number());
  cmd->add_option("--shard", x.shard, "dpor: search only shard K of N (K/N); combine with merge")
      ->check(not_empty());
  cmd->add_option(
         "--checkpoint", x.options.checkpoint_file,
         "dpor: save finished units and each running unit's place here, and resume from it")
      ->check(not_empty());
  cmd->add_flag("--sizing-only", x.options.sizing_only,
                "dpor: cut and size the units into --checkpoint FILE, then stop (shards then "
                "search them with --deal-from FILE)");
  cmd->add_option("--deal-from", x.options.deal_from,
                  "dpor: with --shard K/N, search every N-th unit of the sized search saved in "
                  "this file (--sizing-only) instead of every N-th first unit")
      ->check(not_empty());
  cmd->add_option("--json", x.json_path,
                  "A JSON summary to FILE (-: stdout, the text then on stderr)")
      ->check(writable_output());
  cmd->add_option("--report", args->reports,
                  "json=FILE (what --json writes) or junit=FILE: one testcase, the exploration, "
                  "failed unless it exits 0 (repeatable)")
      ->check(writable_report_output());
  cmd->add_option("--progress", x.progress_every,
                  "dpor: a progress line on stderr every N runs (default 1000000; 0: none)")
      ->transform(whole_number_in(0, INT64_MAX));
  cmd->add_option("--max-seconds", x.max_seconds,
                  "dpor: stop after this many seconds of wall-clock time, as a budget: units end "
                  "their runs, the checkpoint is written, the statement says what was covered, "
                  "exit 3; with --checkpoint the same command goes on from there")
      ->transform(finite_number_in(0.001, 1e9));
  CLI::Option* reduction =
      cmd->add_option("--reduction", x.reduction,
                      "dpor: dpor (one execution per equivalence class), states (the full search, "
                      "pruned at states it explored before) or none (every interleaving); "
                      "default: the scenario's dpor_reduction, else dpor")
          ->check(CLI::IsMember({"dpor", "states", "none"}));
  cmd->add_flag("--no-reduction", x.no_reduction,
                "dpor: try every ready thread at every step (the full search over the same "
                "choices, for cross-checks); the same as --reduction none")
      ->excludes(reduction);
  cmd->add_option("--out", args->out_dir,
                  "Write the shrunk counterexample scenario into this directory (default: none)")
      ->check(writable_directory());
  cmd->add_flag("--no-shrink", args->no_shrink, "Report the violation as found, unshrunk");
  cmd->add_flag("--all", args->all, "Keep exploring after the first violation (count them all)");
  for (const char* flag :
       {"--max-faults", "--plans", "--draws", "--shard", "--checkpoint", "--sizing-only",
        "--deal-from", "--progress", "--max-seconds", "--reduction", "--no-reduction"})
    args->strategy_flags.emplace_back(cmd->get_option(flag), std::vector<std::string>{"dpor"});
  args->strategy_flags.emplace_back(cmd->get_option("--jobs"),
                                    std::vector<std::string>{"random", "pct", "dpor"});
  args->strategy_flags.emplace_back(cmd->get_option("--depth"), std::vector<std::string>{"pct"});
  args->strategy_flags.emplace_back(cmd->get_option("--max-preemptions"),
                                    std::vector<std::string>{"dfs", "dpor"});
  cmd->callback([args, &ctx] { ctx.exit_code = explore_command(*args); });
}

}  // namespace contend::cli
