// `contend sweep <scenario.toml> --vary clients=1,2,4 [--vary recipe=queue,hc-queue] [--seeds A..B]
//  [--jobs N] [--out PREFIX]`: runs the scenario at every point of the grid over the seeds and
// prints a table of virtual throughput, conflict rate, retries per operation, latency, unknown
// results and verdicts; writes PREFIX.csv, PREFIX.json and PREFIX.svg. Exit 4 when a point's run
// was a simulator fault.
#include <fmt/format.h>

#include <algorithm>

#include "base/shell_quote.h"
#include "scenarios/cli/commands.h"
#include "scenarios/cli/number_options.h"
#include "scenarios/cli/run_support.h"
#include "scenarios/sweep.h"

namespace contend::cli {

namespace {

// A grid point whose run was a simulator fault measured a broken contend: the sweep names the
// point and the seed and exits 4 (as run does), after the table and files it wrote.
int simulator_fault_exit(const Scenario& scenario, const SweepResult& r) {
  for (const SweepPoint& p : r.points) {
    if (!p.first_simulator_fault) continue;
    std::string point;
    for (std::size_t i = 0; i < r.variations.size(); ++i)
      point += (i == 0 ? "" : ", ") + r.variations[i].key + " = " + p.values[i];
    fmt::print(
        "\nSIMULATOR FAULT (a bug in contend, not a finding about the recipe): the grid point "
        "{}, seed {}; its figures measure a broken contend\nreproduce: set {} in {} and run "
        "contend replay {} --seed {}\n",
        point, *p.first_simulator_fault, point, scenario.file, shell_quoted_path(scenario.file),
        *p.first_simulator_fault);
    return 4;
  }
  return 0;
}

struct SweepArgs {
  std::string scenario_path;
  std::vector<std::string> vary;
  std::string seeds;
  int jobs = 1;
  std::string out;
};

int sweep_command(const SweepArgs& args) {
  // The keys the file set are judged over the grid (check_sweep): pause_us beside pause = 0 takes
  // effect where --vary faults.pause sets pause above 0.
  auto scenario = load_checked_scenario(args.scenario_path, "sweep", SetKeyCheck::by_caller);
  if (!scenario) return 2;
  std::vector<Variation> variations;
  for (const std::string& v : args.vary) {
    std::string error;
    auto parsed = parse_variation(v, error);
    if (!parsed) {
      fmt::print(stderr, "contend sweep: --vary {}\n", error);
      return 2;
    }
    const std::string& key = parsed->key;
    if (std::ranges::any_of(variations, [&](const Variation& v) { return v.key == key; })) {
      // The later --vary would set what the earlier one set: its column would be a lie.
      fmt::print(stderr,
                 "contend sweep: --vary {}: {} is already varied; give its values in one --vary\n",
                 v, key);
      return 2;
    }
    for (const std::string& value : parsed->values) {
      Scenario probe = *scenario;
      if (auto problem = apply_variation(probe, parsed->key, value)) {
        fmt::print(stderr, "contend sweep: --vary {}\n", *problem);
        return 2;
      }
    }
    variations.push_back(std::move(*parsed));
  }
  if (auto problem = check_sweep(*scenario, variations)) {
    fmt::print(stderr, "contend sweep: {}\n", *problem);
    return 2;
  }
  auto range = seed_range_from("", args.seeds, *scenario);
  if (!range) return 2;
  fmt::print("sweep of {} over seeds {}..{}\n\n", scenario->file, range->first, range->last);
  SweepResult r = run_sweep(*scenario, variations, *range, args.jobs);
  fmt::print("{}", sweep_table(r));
  if (!args.out.empty()) {
    const std::pair<std::string, std::string> files[] = {
        {args.out + ".csv", sweep_csv(r)},
        {args.out + ".json", sweep_json(r).dump(2) + "\n"},
        {args.out + ".svg", sweep_svg(r)}};
    for (const auto& [path, text] : files) {
      if (!write_whole_file(path, text)) {
        fmt::print(stderr, "contend sweep: cannot write {}\n", path);
        return 2;
      }
      fmt::print("wrote {}\n", path);
    }
  }
  return simulator_fault_exit(*scenario, r);
}

}  // namespace

void register_sweep_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<SweepArgs>();
  CLI::App* cmd = app.add_subcommand(
      "sweep", "Run a scenario over a grid of parameters: table, CSV, JSON, SVG");
  cmd->add_option("scenario", args->scenario_path, "Scenario file (TOML)")->required();
  cmd->add_option("--vary", args->vary,
                  "KEY=V1,V2,... (repeatable; the first is the chart's x axis)")
      ->required();
  cmd->add_option("--seeds", args->seeds, "Seed range A..B per point (default: the scenario's)")
      ->check(not_empty());
  cmd->add_option("--jobs,-j", args->jobs, "Threads across seeds")->transform(jobs_number());
  cmd->add_option("--out", args->out, "Write OUT.csv, OUT.json and OUT.svg")
      ->check(not_empty())
      ->check(writable_output_prefix({".csv", ".json", ".svg"}));
  cmd->callback([args, &ctx] { ctx.exit_code = sweep_command(*args); });
}

}  // namespace contend::cli
