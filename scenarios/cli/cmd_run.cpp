// `contend run <scenario.toml> [--seed N | --seeds A..B] [--history FILE]`: runs a scenario over
// seeds, prints a summary table with the metrics and run hash of each seed, and the aggregate.
#include <fmt/format.h>

#include <cstdio>
#include <fstream>

#include "scenarios/cli/commands.h"
#include "scenarios/cli/run_support.h"
#include "scenarios/report.h"
#include "scenarios/runner.h"
#include "scenarios/seed_range.h"

namespace contend::cli {

namespace {

struct RunArgs {
  std::string scenario_path;
  std::string seed;
  std::string seeds;
  std::string history_path;
  bool quiet = false;
};

int run_command(const RunArgs& args) {
  ScenarioError error;
  auto scenario = load_scenario(args.scenario_path, error);
  if (!scenario) {
    fmt::print(stderr, "contend run: {}\n", error.message);
    return 2;
  }
  if (auto problem = validate_scenario(*scenario)) {
    fmt::print(stderr, "contend run: {}\n", *problem);
    return 2;
  }
  auto range = seed_range_from(args.seed, args.seeds, *scenario);
  if (!range) return 2;
  fmt::print("scenario {} ({}): recipe {}, {} clients x {} operations, seeds {}..{}\n",
             scenario->name, scenario->file, scenario->recipe, scenario->clients,
             scenario->operations_per_client, range->first, range->last);
  print_table_header(stdout);
  std::vector<SeedLine> lines;
  for (std::uint64_t seed = range->first;; ++seed) {
    SeedRun run = run_seed(*scenario, seed);
    SeedLine line{seed, run.metrics, "", true};
    print_table_row(stdout, line);
    if (range->count() == 1) {
      fmt::print("\n");
      print_metrics(stdout, run.metrics);
    }
    if (!args.history_path.empty() && seed == range->first) {
      if (!write_history_file(args.history_path, run.history)) return 2;
    }
    lines.push_back(std::move(line));
    if (seed == range->last) break;
  }
  if (lines.size() > 1) print_aggregate(stdout, lines);
  return 0;
}

}  // namespace

void register_run_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand("run", "Run a scenario over seeds and report each seed");
  cmd->add_option("scenario", args->scenario_path, "Scenario file (TOML)")->required();
  auto* seed = cmd->add_option("--seed", args->seed, "Run one seed");
  cmd->add_option("--seeds", args->seeds, "Run an inclusive seed range A..B")->excludes(seed);
  cmd->add_option("--history", args->history_path,
                  "Write the history of the first seed run as JSON lines");
  cmd->callback([args, &ctx] { ctx.exit_code = run_command(*args); });
}

}  // namespace contend::cli
