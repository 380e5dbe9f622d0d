// `contend replay <scenario.toml> --seed N [--choices 0,2,1,...]`: runs one seed again with a
// readable step trace — every operation and every transaction attempt in virtual-time order,
// each conflict explained — then its metrics and verdict. --choices replays a recorded schedule
// (from `contend explore`), otherwise the seed alone reproduces the run. --path replays an
// exhaustive search's execution (`explore --strategy dpor`): its threads and fault choices, in a
// world where faults are choices and versions count commits. --report html=FILE draws the run as
// replayed in the HTML report (not shrunk: the run given is the one to look at).
#include <fmt/format.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "base/decimal.h"
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

// The choices of --choices ("0,2,1"), or why they are not ("item 2 ('x') is not ...").
std::optional<std::vector<std::uint32_t>> parse_choices(const std::string& text,
                                                        std::string& error) {
  std::vector<std::uint32_t> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const std::optional<std::uint32_t> choice = parse_decimal<std::uint32_t>(item);
    if (!choice) {
      error = fmt::format("item {} ('{}') is not a choice: an integer from 0 to {}", out.size() + 1,
                          item, UINT32_MAX);
      return std::nullopt;
    }
    out.push_back(*choice);
  }
  if (!text.empty() && text.back() == ',') {  // getline yields no item after a trailing comma
    error = fmt::format("item {} ('') is not a choice: an integer from 0 to {}", out.size() + 1,
                        UINT32_MAX);
    return std::nullopt;
  }
  return out;
}

// --choices, replayed as ReplayStrategy does, and judged: a choice naming more candidates than
// its step has (ReplayStrategy takes the last, as the shrinker needs when a smaller scenario has
// fewer), or a list longer than the run's choices, is a schedule recorded elsewhere.
class CheckedReplay : public ReplayStrategy {
 public:
  explicit CheckedReplay(const std::vector<std::uint32_t>& choices)
      : ReplayStrategy(choices), choices_(choices) {}
  std::size_t choose(std::span<const Candidate> candidates) override {
    if (!misfit_ && made_ < choices_.size() && choices_[made_] >= candidates.size()) {
      misfit_ = fmt::format("choice {} is {}, and that step has {} candidate(s)", made_ + 1,
                            choices_[made_], candidates.size());
    }
    ++made_;
    return ReplayStrategy::choose(candidates);
  }
  // Why the choices do not fit the run they were replayed in, or nothing.
  std::optional<std::string> misfit() const {
    if (misfit_) return misfit_;
    if (made_ < choices_.size())
      return fmt::format("the run made {} choice(s) and the list has {}", made_, choices_.size());
    return std::nullopt;
  }

 private:
  std::vector<std::uint32_t> choices_;
  std::size_t made_ = 0;
  std::optional<std::string> misfit_;
};

// Why the execution replayed is not the one --path spells, or nothing when it is: the run met
// every item in order and made no choice beyond them (a cut or lengthened path would otherwise
// replay another execution, or this one under a wrong name).
std::optional<std::string> path_misfit(const DporRun& run, std::size_t path_items) {
  if (run.diverged()) return run.divergence();
  if (run.nodes_met() < path_items) {
    return fmt::format("it has {} items, but the execution ended after item {}", path_items,
                       run.nodes_met());
  }
  if (run.nodes_met() > path_items) {
    return fmt::format("it ends after item {}, but the execution goes on there", path_items);
  }
  return std::nullopt;
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
  std::shared_ptr<CheckedReplay> replayed;
  if (!args.choices.empty()) {
    std::string error;
    auto choices = parse_choices(args.choices, error);
    if (!choices) {
      fmt::print(stderr, "contend replay: --choices: {}\n", error);
      return 2;
    }
    replayed = std::make_shared<CheckedReplay>(*choices);
    controls.strategy = replayed;
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
  const std::size_t path_items = path.size();
  SeedRun run = run_seed(*scenario, args.seed, std::move(controls));
  if (path_run) {
    if (auto misfit = path_misfit(*path_run, path_items)) {
      fmt::print(stderr,
                 "contend replay: --path does not fit this scenario: {} (was it recorded from "
                 "this file, with the same --draws?)\n",
                 *misfit);
      return 2;
    }
  }
  if (replayed && replayed->misfit()) {
    fmt::print(stderr,
               "contend replay: --choices does not fit this scenario and seed: {} (were they "
               "recorded from this file, at this scope and seed?)\n",
               *replayed->misfit());
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
  // Neither a pass nor a finding: what gives the checker more follows what it lacked.
  const bool undecided = report.verdict.kind == model::VerdictKind::unknown;
  const std::string remedy = undecided ? undecided_remedy(*scenario, report.verdict) : "";
  if (!remedy.empty()) fmt::print("  {}\n", remedy.substr(2));
  if (!args.history_path.empty() && !write_history_file(args.history_path, run.history)) return 2;
  if (!report_file.empty()) {
    if (!write_file(report_file, html_report(*scenario, run, report, ShrinkViolation::no))) {
      return 2;
    }
    fmt::print("wrote html report {}\n", report_file);
  }
  if (undecided) return 3;
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
