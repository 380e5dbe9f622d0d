// `contend run <scenario.toml> [--seed N | --seeds A..B] [--history FILE]`: runs a scenario over
// seeds, checks each seed's history with the scenario's checks, prints a summary table (metrics,
// run hash, verdict per seed) and the aggregate, and exits 0 when the verdicts are what the
// scenario expects, 1 when not (with the reproduction command), 2 for bad input.
#include <fmt/format.h>

#include <cstdio>

#include "scenarios/cli/commands.h"
#include "scenarios/cli/run_support.h"
#include "scenarios/expectation.h"
#include "scenarios/report.h"
#include "scenarios/runner.h"

namespace contend::cli {

namespace {

struct RunArgs {
  std::string scenario_path;
  std::string seed;
  std::string seeds;
  std::string history_path;
};

int run_command(const RunArgs& args) {
  auto scenario = load_checked_scenario(args.scenario_path, "run");
  if (!scenario) return 2;
  auto range = seed_range_from(args.seed, args.seeds, *scenario);
  if (!range) return 2;
  fmt::print("scenario {} ({}): recipe {}, {} clients x {} operations, seeds {}..{}, expect {}\n",
             scenario->name, scenario->file, scenario->recipe, scenario->clients,
             scenario->operations_per_client, range->first, range->last, scenario->expect);
  print_table_header(stdout);
  std::vector<SeedLine> lines;
  std::optional<std::uint64_t> first_unexpected, first_expected_violation;
  std::string first_unexpected_why;
  for (std::uint64_t seed = range->first;; ++seed) {
    SeedRun run = run_seed(*scenario, seed);
    model::CheckReport report = check_run(*scenario, run);
    SeedLine line{seed, run.metrics, report.verdict.summary(),
                  seed_consistent(scenario->expect, report.verdict) && !report.disagreement};
    print_table_row(stdout, line);
    if (!line.as_expected && !first_unexpected) {
      first_unexpected = seed;
      first_unexpected_why = report.disagreement ? "checkers disagree (a bug in contend)"
                                                 : report.verdict.explanation;
    }
    if (shows_expected_violation(scenario->expect, report.verdict) && !first_expected_violation) {
      first_expected_violation = seed;
      if (scenario->expect != "linearizable") {
        fmt::print("         {}\n", report.verdict.explanation);
      }
    }
    if (range->count() == 1) {
      fmt::print("\n");
      print_metrics(stdout, run.metrics);
      fmt::print("accounting: {}\n", model::accounting_table(report.accounting));
      if (!report.verdict.ok()) fmt::print("verdict: {}\n  {}\n", report.verdict.summary(), report.verdict.explanation);
    }
    if (!args.history_path.empty() && seed == range->first) {
      if (!write_history_file(args.history_path, run.history)) return 2;
    }
    lines.push_back(std::move(line));
    if (seed == range->last) break;
  }
  if (lines.size() > 1) print_aggregate(stdout, lines);
  if (first_unexpected) {
    fmt::print("\nUNEXPECTED: seed {} gave a verdict the scenario does not expect ({}): {}\n"
               "reproduce: {}\n",
               *first_unexpected, scenario->expect, first_unexpected_why,
               reproduction_command(*scenario, *first_unexpected));
    return 1;
  }
  if (scenario->expect != "linearizable" && !first_expected_violation) {
    fmt::print("\nUNEXPECTED: no seed in {}..{} showed the expected {}\n", range->first,
               range->last, scenario->expect);
    return 1;
  }
  if (first_expected_violation && scenario->expect != "linearizable") {
    fmt::print("\nas expected: seed {} shows {}; reproduce: {}\n", *first_expected_violation,
               scenario->expect, reproduction_command(*scenario, *first_expected_violation));
  } else {
    fmt::print("\nas expected: every seed is linearizable\n");
  }
  return 0;
}

}  // namespace

void register_run_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand("run", "Run a scenario over seeds, check and report each seed");
  cmd->add_option("scenario", args->scenario_path, "Scenario file (TOML)")->required();
  auto* seed = cmd->add_option("--seed", args->seed, "Run one seed");
  cmd->add_option("--seeds", args->seeds, "Run an inclusive seed range A..B")->excludes(seed);
  cmd->add_option("--history", args->history_path,
                  "Write the history of the first seed run as JSON lines");
  cmd->callback([args, &ctx] { ctx.exit_code = run_command(*args); });
}

}  // namespace contend::cli
