// `contend replay <scenario.toml> --seed N [--choices 0,2,1,...]`: runs one seed again with a
// readable step trace — every operation and every transaction attempt in virtual-time order,
// each conflict explained — then its metrics and verdict. --choices replays a recorded schedule
// (from `contend explore`), otherwise the seed alone reproduces the run. --path replays an
// exhaustive search's execution (`explore --strategy dpor`): its threads and fault choices, in a
// world where faults are choices and versions count commits. --report html=FILE draws the run as
// replayed in the HTML report (not shrunk: the run given is the one to look at).
#include <fmt/format.h>

#include <sstream>

#include "scenarios/cli/commands.h"
#include "scenarios/cli/number_options.h"
#include "scenarios/cli/run_support.h"
#include "scenarios/expectation.h"
#include "scenarios/html_report.h"
#include "scenarios/report.h"
#include "scenarios/trace.h"
#include "sim/runtime/dpor.h"

namespace contend::cli {

namespace {

struct ReplayArgs {
  std::string scenario_path;
  std::uint64_t seed = 1;
  std::string choices;
  std::string path;
  std::string draws = "seed";
  std::string history_path;
  std::string report;  // "html=FILE"
  bool quiet = false;
  ScopeArgs scope;
};

std::optional<std::vector<std::uint32_t>> parse_choices(const std::string& text) {
  std::vector<std::uint32_t> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    out.push_back(static_cast<std::uint32_t>(std::stoul(item)));
  }
  return out;
}

int replay_command(const ReplayArgs& args) {
  std::string report_file;
  if (!args.report.empty()) {
    auto requests = parse_reports({args.report});
    if (!requests) return 2;
    if (requests->front().kind != "html") {
      fmt::print(stderr, "contend replay: --report {}: a replay writes html=FILE only\n",
                 args.report);
      return 2;
    }
    report_file = requests->front().path;
  }
  if (refuse_one_file_named_twice("replay", {NamedFile{"scenario", args.scenario_path},
                                             NamedFile{"--history", args.history_path, true},
                                             NamedFile{"--report html=", report_file, true}})) {
    return 2;
  }
  auto scenario = load_scoped_scenario(args.scenario_path, args.scope, "replay");
  if (!scenario) return 2;
  RunControls controls;
  controls.record_attempts = true;
  if (!args.choices.empty()) {
    auto choices = parse_choices(args.choices);
    if (!choices) {
      fmt::print(stderr,
                 "contend replay: --choices: expected comma-separated non-negative integers\n");
      return 2;
    }
    controls.strategy = std::make_shared<ReplayStrategy>(std::move(*choices));
  }
  std::vector<SearchNode> path;
  std::shared_ptr<DporRun> path_run;
  if (!args.path.empty()) {
    std::string error;
    auto nodes = parse_path(args.path, error);
    if (!nodes) {
      fmt::print(stderr, "contend replay: --path: {}\n", error);
      return 2;
    }
    path = std::move(*nodes);
    path_run = std::make_shared<DporRun>(&path, path.size(), DporOptions{});
    controls.strategy = path_run;
    controls.exhaustive = true;
    controls.explore_draws = args.draws == "all";
  } else if (args.draws == "all") {
    fmt::print(stderr, "contend replay: --draws all needs --path (an exhaustive search's run)\n");
    return 2;
  }
  SeedRun run = run_seed(*scenario, args.seed, std::move(controls));
  if (path_run && path_run->diverged()) {
    fmt::print(stderr,
               "contend replay: --path does not fit this scenario: it names a thread that is not "
               "ready, or a fault or draw choice where none can be made (was it recorded from this "
               "file, with the same --draws?)\n");
    return 2;
  }
  model::CheckReport report = check_run(*scenario, run);
  fmt::print("replay of {} seed {} (recipe {}, {} clients x {} operations)\n\n", scenario->file,
             args.seed, scenario->recipe, scenario->clients, scenario->operations_per_client);
  if (!args.quiet) print_trace(stdout, run);
  fmt::print("\n");
  print_metrics(stdout, run.metrics);
  fmt::print("accounting: {}\n", model::accounting_table(report.accounting));
  fmt::print("verdict: {}\n", report.verdict.summary());
  if (!report.verdict.explanation.empty()) fmt::print("  {}\n", report.verdict.explanation);
  if (!args.history_path.empty() && !write_history_file(args.history_path, run.history)) return 2;
  if (!report_file.empty()) {
    if (!write_file(report_file, html_report(*scenario, run, report, ShrinkViolation::no))) {
      return 2;
    }
    fmt::print("wrote html report {}\n", report_file);
  }
  return seed_consistent(scenario->expect, report.verdict) ? 0 : 1;
}

}  // namespace

void register_replay_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<ReplayArgs>();
  CLI::App* cmd =
      app.add_subcommand("replay", "Re-run one seed with a step trace that explains conflicts");
  cmd->add_option("scenario", args->scenario_path, "Scenario file (TOML)")->required();
  cmd->add_option("--seed", args->seed, "The seed to replay")->required()->transform(seed_number());
  add_scope_options(cmd, args->scope, "Replay");
  auto* choices = cmd->add_option("--choices", args->choices,
                                  "A recorded schedule: comma-separated choice indexes");
  cmd->add_option("--path", args->path,
                  "An exhaustive search's execution: threads, f<fault choice> and d<draw choice>, "
                  "comma-separated")
      ->excludes(choices);
  cmd->add_option("--draws", args->draws,
                  "With --path: key suffixes as the search chose them (all: it ran with --draws "
                  "all) or the seed's (seed, the default)")
      ->check(CLI::IsMember({"all", "seed"}));
  cmd->add_option("--history", args->history_path, "Also write the history as JSON lines")
      ->check(writable_file());
  cmd->add_option("--report", args->report,
                  "html=FILE: an HTML report of the run as replayed (not shrunk: a path from "
                  "explore --strategy dpor is minimal already)")
      ->check(writable_report_output());
  cmd->add_flag("--quiet", args->quiet, "Only the metrics and the verdict, no trace");
  cmd->callback([args, &ctx] { ctx.exit_code = replay_command(*args); });
}

}  // namespace contend::cli
