// `contend run <scenario.toml> [--seed N | --seeds A..B] [--jobs N] [--shard K/N]
//  [--history FILE] [--report json=FILE|junit=FILE|html=FILE]...`: runs a scenario over seeds,
// checks every seed with the scenario's checks, prints a summary table (metrics, run hash,
// verdict per seed) and the aggregate, and exits 0 when the verdicts are what the scenario
// expects, 1 when not (shrinking the first unexpected violation and printing its reproduction),
// 2 for bad input, 4 when a seed ended in a simulator fault (contend broke, not the recipe).
// With --check-determinism[=P] (default 5), P% of the seeds (at least one) run again, one of them
// also in a fresh process, and a run hash that differs exits 5, naming the first event that
// differs.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>

#include "base/decimal.h"
#include "base/invariant.h"
#include "base/shell_quote.h"
#include "model/history_json.h"
#include "scenarios/batch.h"
#include "scenarios/cli/commands.h"
#include "scenarios/cli/number_options.h"
#include "scenarios/cli/run_reports.h"
#include "scenarios/cli/run_support.h"
#include "scenarios/determinism.h"
#include "scenarios/html_report.h"
#include "scenarios/report.h"

namespace contend::cli {

namespace {

struct RunArgs {
  std::string scenario_path;
  std::string seed;
  std::string seeds;
  std::string history_path;
  std::string shard = "1/1";
  int jobs = 1;
  std::vector<std::string> reports;
  std::string out_dir;  // empty: the counterexample scenario is printed, not written
  bool no_shrink = false;
  // The percent of the seeds to rerun, when the flag is given: text, because CLI11 sums an integer
  // flag's values and reads "=0" as false (-1), which reached the sampler as -1.
  std::string check_determinism = "5";
  CLI::Option* check_determinism_flag = nullptr;
  ScopeArgs scope;
};

// The hidden `contend rerun-seed <scenario> <seed>` a determinism check starts as its fresh
// process: prints "run_hash <16 hex digits>" and then the history as JSON lines.
struct RerunArgs {
  std::string scenario_path;
  std::uint64_t seed = 0;
  ScopeArgs scope;
};

int rerun_seed_command(const RerunArgs& args) {
  auto scenario = load_scoped_scenario(args.scenario_path, args.scope, "rerun-seed");
  if (!scenario) return 2;
  SeedRun run = run_seed(*scenario, args.seed);
  fmt::print("run_hash {:016x}\n", run.metrics.run_hash);
  std::ostringstream history;
  model::write_history(history, run.history);
  fmt::print("{}", history.str());
  return 0;
}

// Runs `seed` in a fresh contend process (this binary's `rerun-seed`), at the scope the
// command line gave the scenario (`scope_flags`: only --clients / --operations and numbers).
std::optional<Rerun> rerun_in_fresh_process(const std::string& scenario_path,
                                            const std::string& scope_flags, std::uint64_t seed,
                                            std::string& error) {
  // This very binary (the shell popen starts would be /proc/self/exe there).
  std::error_code failed;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe", failed).string();
  if (failed) {
    error = "cannot find this executable: " + failed.message();
    return std::nullopt;
  }
  const std::string command = shell_quoted(self) + " rerun-seed " +
                              shell_quoted_path(scenario_path) + scope_flags + " " +
                              std::to_string(seed);
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    error = "cannot start a fresh process";
    return std::nullopt;
  }
  std::string output;
  char buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
    output.append(buffer, n);
  const int status = pclose(pipe);
  Rerun rerun;
  unsigned long long hash = 0;
  if (status != 0 || std::sscanf(output.c_str(), "run_hash %16llx", &hash) != 1) {
    error = "the fresh process failed (status " + std::to_string(status) + ")";
    return std::nullopt;
  }
  rerun.run_hash = hash;
  std::istringstream lines(output.substr(output.find('\n') + 1));
  model::HistoryError history_error;
  auto history = model::read_history(lines, history_error);
  if (!history) {
    error = "the fresh process's history does not read: " + history_error.to_string();
    return std::nullopt;
  }
  rerun.history = std::move(*history);
  return rerun;
}

// Returns false when the history could not be written (the message is printed).
bool print_single_seed(const Scenario& s, std::uint64_t seed, const std::string& history_path) {
  SeedRun run = run_seed(s, seed);
  model::CheckReport report = check_run(s, run);
  fmt::print("\n");
  print_metrics(stdout, run.metrics);
  fmt::print("accounting: {}\n", model::accounting_table(report.accounting));
  if (!report.verdict.ok())
    fmt::print("verdict: {}\n  {}\n", report.verdict.summary(), report.verdict.explanation);
  return history_path.empty() || write_history_file(history_path, run.history);
}

// --history of several seeds: the first seed's history; for a shard that ran no seed, an empty
// file (a history of another shard's seed left there would pass for this one's), said on stdout.
// False when it could not be written (the message is printed).
bool write_first_history(const Scenario& s, const SeedOutcome* first, const std::string& path,
                         const SeedRange& seeds, const Shard& shard) {
  if (first != nullptr) return write_history_file(path, run_seed(s, first->seed).history);
  if (!write_history_file(path, model::History{})) return false;
  fmt::print("wrote an empty history {}: {}\n", path, no_seed_in_shard(seeds, shard));
  return true;
}

// The percent of seeds --check-determinism reruns, when it was given.
std::optional<int> determinism_percent(const RunArgs& args) {
  if (args.check_determinism_flag == nullptr || args.check_determinism_flag->count() == 0)
    return std::nullopt;
  const std::optional<int> percent = parse_decimal<int>(args.check_determinism);
  CONTEND_ASSERT(percent.has_value(), "--check-determinism was validated as 0..100");
  return percent;
}

// What a run keeps of its seeds, each folded in as it completes (in seed order): its row is
// printed at once; the aggregate, the judgement, the reports and the determinism sample take it.
// Nothing here grows with the number of seeds but the sample (percent of them, when asked).
struct RunFold {
  AggregateTable aggregate;
  BatchJudge judge;
  std::vector<SampledRun> determinism_sample;
};

RunFold run_seeds(const Scenario& scenario, const BatchOptions& options, RunReports& reports,
                  std::optional<int> percent, Progress& progress) {
  RunFold fold;
  std::uint64_t index = 0;
  print_table_header(stdout);
  for_each_seed_outcome(scenario, options, [&](SeedOutcome&& r) {
    fold.judge.add(r);
    reports.add(r);
    if (percent && in_determinism_sample(index, r.seed, *percent))
      fold.determinism_sample.push_back(SampledRun{r.seed, r.metrics.run_hash});
    ++index;
    progress.clear();
    // The outcome's last use: its metrics move into the row.
    const SeedLine line{r.seed, std::move(r.metrics), r.verdict.summary(), r.as_expected};
    print_table_row(stdout, line);
    fold.aggregate.add(line);
  });
  progress.finish();
  return fold;
}

// --check-determinism: 0 when every rerun matched, else the exit code (the message printed).
int check_run_determinism(const RunArgs& args, const Scenario& scenario, const RunFold& fold) {
  std::string error;
  DeterminismReport d = check_determinism(
      scenario, fold.determinism_sample,
      [&](std::uint64_t seed, std::string& why) {
        return rerun_in_fresh_process(args.scenario_path, scenario.scope_flags, seed, why);
      },
      error);
  if (!d.ok()) {
    fmt::print("\nNONDETERMINISM: seed {} ran differently: {}\nreproduce: {}\n", *d.mismatched_seed,
               d.mismatch, reproduction_command(scenario, *d.mismatched_seed));
    return 5;
  }
  if (!d.fresh_process) {
    fmt::print(stderr, "contend run: --check-determinism: {}\n", error);
    return 2;
  }
  fmt::print("determinism: {} of {} seeds rerun, seed {} also in a fresh process: identical\n",
             d.rerun, fold.judge.seeds_judged(), *d.fresh_process);
  return 0;
}

// The exit code of a judged run, and what it says of it.
int conclude(const RunArgs& args, const Scenario& scenario, const RunFold& fold,
             const BatchJudgement& j, const SeedRange& range, const Shard& shard) {
  const BatchJudge& judge = fold.judge;
  if (j.first_simulator_fault) {
    const SeedOutcome& r = *judge.kept(*j.first_simulator_fault);
    fmt::print(
        "\nSIMULATOR FAULT (a bug in contend, not a finding about the recipe): seed {}\n"
        "  {}\nreproduce: {}\n",
        r.seed, r.verdict.explanation, reproduction_command(scenario, r.seed));
    return 4;
  }
  if (j.undecided) {
    // No seed refutes the expectation, but one could not be judged: unknown, never a pass.
    const SeedOutcome& r = *judge.kept(*j.first_unknown);
    fmt::print("\nUNDECIDED (expect {}): no checker could judge {}{}\nreproduce: {}\n",
               scenario.expect, j.why, undecided_remedy(scenario, r.verdict),
               reproduction_command(scenario, r.seed));
    return 3;
  }
  if (!j.passed) {
    fmt::print("\nUNEXPECTED ({}): {}\n", scenario.expect, j.why);
    if (j.first_unexpected) {
      const SeedOutcome& r = *judge.kept(*j.first_unexpected);
      if (r.verdict.kind == model::VerdictKind::violation) {
        // A counterexample report ends with the reproduction command.
        report_counterexample(scenario, Finding{r.seed, {}, r.verdict, 0}, args.out_dir,
                              !args.no_shrink);
      } else {
        fmt::print("reproduce: {}\n", reproduction_command(scenario, r.seed));
      }
    }
    return 1;
  }
  if (j.first_expected_violation && scenario.expect != "linearizable") {
    fmt::print("\n{}\n", judge.kept(*j.first_expected_violation)->verdict.explanation);
    fmt::print("as expected: seed {} shows {}; reproduce: {}\n", *j.first_expected_violation,
               scenario.expect, reproduction_command(scenario, *j.first_expected_violation));
  } else if (judge.seeds_judged() == 0) {  // more shards than seeds: say so, not "every seed"
    fmt::print("\nnothing ran: {} (merge judges the range)\n", no_seed_in_shard(range, shard));
  } else if (scenario.expect != "linearizable") {  // a shard that shows none of it
    fmt::print(
        "\nshard {}: no seed of it shows {}; whether the range does, `contend merge` of "
        "the {} shards' reports says\n",
        args.shard, scenario.expect, shard.count);
  } else {
    fmt::print("\nas expected: every seed is linearizable\n");
  }
  return 0;
}

int run_command(const RunArgs& args) {
  auto scenario = load_scoped_scenario(args.scenario_path, args.scope, "run");
  if (!scenario) return 2;
  auto range = seed_range_from(args.seed, args.seeds, *scenario);
  if (!range) return 2;
  std::string error;
  auto shard = parse_shard(args.shard, error);
  if (!shard) {
    fmt::print(stderr, "contend run: --shard: {}\n", error);
    return 2;
  }
  auto reports = parse_reports(args.reports);
  if (!reports) return 2;
  std::vector<NamedFile> files = {NamedFile{"scenario", args.scenario_path},
                                  NamedFile{"--history", args.history_path, true}};
  std::ranges::copy(report_files(*reports), std::back_inserter(files));
  if (refuse_one_file_named_twice("run", files)) return 2;
  fmt::print("scenario {} ({}): recipe {}, {} clients x {} operations, seeds {}..{}{}, expect {}\n",
             scenario->name, scenario->file, scenario->recipe, scenario->clients,
             scenario->operations_per_client, range->first, range->last,
             shard->count > 1 ? " shard " + args.shard : "", scenario->expect);
  RunReports run_reports(*reports, *scenario, *range, *shard);
  if (!run_reports.begin()) return 2;
  const auto started = std::chrono::steady_clock::now();
  Progress progress(seeds_in_shard(*range, *shard));
  BatchOptions options{*range, *shard, args.jobs,
                       [&](bool violation, std::size_t done, std::size_t total) {
                         progress.update(done, total, violation);
                       }};
  const std::optional<int> percent = determinism_percent(args);
  const RunFold fold = run_seeds(*scenario, options, run_reports, percent, progress);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  bool history_written = true;
  if (fold.judge.seeds_judged() == 1) {
    history_written = print_single_seed(*scenario, fold.judge.first()->seed, args.history_path);
  } else if (!args.history_path.empty()) {
    history_written =
        write_first_history(*scenario, fold.judge.first(), args.history_path, *range, *shard);
  }
  if (fold.aggregate.seeds() > 1) fold.aggregate.print(stdout);
  const BatchJudgement j = fold.judge.judgement(*scenario, /*whole_range=*/shard->count == 1);
  const bool reports_written = run_reports.finish(fold.judge, j, seconds);
  if (!reports_written || !history_written) return 2;
  if (percent) {
    if (const int code = check_run_determinism(args, *scenario, fold); code != 0) return code;
  }
  return conclude(args, *scenario, fold, j, *range, *shard);
}

}  // namespace

void register_run_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd =
      app.add_subcommand("run", "Run a scenario over seeds, check and report each seed");
  cmd->add_option("scenario", args->scenario_path, "Scenario file (TOML)")->required();
  auto* seed = cmd->add_option("--seed", args->seed, "Run one seed")->check(not_empty());
  cmd->add_option("--seeds", args->seeds, "Run an inclusive seed range A..B")
      ->excludes(seed)
      ->check(not_empty());
  add_scope_options(cmd, args->scope, "Run");
  cmd->add_option("--jobs,-j", args->jobs, "Run seeds on N threads (results identical to 1)")
      ->transform(jobs_number());
  cmd->add_option("--shard", args->shard, "Run only shard K of N of the seed range (K/N)")
      ->check(not_empty());
  cmd->add_option("--history", args->history_path,
                  "Write the history of the first seed as JSON lines (empty: a shard with no seed)")
      ->check(writable_file());
  cmd->add_option("--report", args->reports, "json=FILE, junit=FILE or html=FILE (repeatable)")
      ->check(writable_report_output());
  cmd->add_option("--out", args->out_dir,
                  "Write the shrunk counterexample scenario into this directory (default: none)")
      ->check(writable_directory());
  cmd->add_flag("--no-shrink", args->no_shrink, "Do not shrink an unexpected violation");
  args->check_determinism_flag =
      cmd->add_flag("--check-determinism{5}", args->check_determinism,
                    "Rerun P% of the seeds (default 5, at least one; one in a fresh process) and "
                    "compare run hashes: exit 5 on a difference (--check-determinism=P)")
          ->transform(whole_number_in(0, 100))
          ->multi_option_policy(CLI::MultiOptionPolicy::Throw);
  cmd->callback([args, &ctx] { ctx.exit_code = run_command(*args); });

  auto rerun = std::make_shared<RerunArgs>();
  CLI::App* rerun_cmd = app.add_subcommand("rerun-seed", "");  // no description: hidden
  rerun_cmd->group("");
  rerun_cmd->add_option("scenario", rerun->scenario_path)->required();
  rerun_cmd->add_option("seed", rerun->seed)->required()->transform(seed_number());
  add_scope_options(rerun_cmd, rerun->scope, "Run");
  rerun_cmd->callback([rerun, &ctx] { ctx.exit_code = rerun_seed_command(*rerun); });
}

}  // namespace contend::cli
