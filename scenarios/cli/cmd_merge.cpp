// `contend merge SHARD.json... [--out FILE] [--partial]`: combines the JSON reports of the shards
// of one seed range (`contend run --shard K/N --report json=...`) into the report the unsharded
// run would have written (merge_runs.h: in memory that does not grow with the seeds) — or the
// --json summaries of the shards of one exhaustive search (`contend explore --strategy dpor
// --shard K/N --json ...`) into the search's totals (merge_exhaustive.cpp; with --partial, of
// the shards given when some are missing). Each input is read once, in turn.
// Exit 0 when the merged verdicts are as expected, 1 when not, 2 for bad input (unreadable file,
// shards of different scenarios, recipes, scopes, expectations or seed ranges, a seed twice or
// missing, a shard's runs out of seed order), 3 when an exhaustive search's shards neither
// searched it to its end nor found it wrong, or a seed no checker could judge leaves the range
// undecided, 4 when a seed of some shard was a simulator fault.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/input_file.h"
#include "base/invariant.h"
#include "base/json_run_bound.h"
#include "model/json_keys.h"
#include "scenarios/cli/commands.h"
#include "scenarios/cli/merge.h"
#include "scenarios/cli/merge_exhaustive.h"
#include "scenarios/cli/merge_runs.h"
#include "scenarios/cli/run_support.h"
#include "scenarios/cli/shard_report.h"

namespace contend::cli {

namespace {

// The longest run of bytes a report may hold between two of JSON's structural characters (a
// string, a number or a literal, with the white space around it: base/json_run_bound.h). A run's
// longest strings, its explanation and replay command, are some hundreds of bytes.
constexpr std::uint64_t kReportRunBytesMax = 16 * kMiB;

struct MergeArgs {
  std::vector<std::string> inputs;
  std::string out;
  bool partial = false;
};

MergePlan bad(std::string error) {
  MergePlan plan;
  plan.outcome.exit_code = 2;
  plan.outcome.error = std::move(error);
  return plan;
}

bool is_exhaustive_summary(const nlohmann::json& j) {
  return j.is_object() && j.value("search", nlohmann::json()) == "exhaustive";
}

// The strategy of a random, pct or dfs exploration's summary (explore --json), or nothing: such a
// summary is of one exploration, never a shard, and is neither kind merge reads.
std::optional<std::string> sampling_strategy(const nlohmann::json& j) {
  if (!j.is_object() || j.contains("search")) return std::nullopt;
  const nlohmann::json strategy = j.value("strategy", nlohmann::json());
  if (strategy != "random" && strategy != "pct" && strategy != "dfs") return std::nullopt;
  return strategy.get<std::string>();
}

// The exhaustive summaries `shards` merged. Their fields were read whole: a summary holds no
// "runs" list (a run report's, whose entries were read out).
MergePlan merge_summaries(const std::vector<ShardReport>& shards,
                          const std::vector<std::string>& names, ShardSet set) {
  std::vector<nlohmann::json> summaries;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    if (shards[i].runs_listed)
      return bad(names[i] + ": field \"runs\" is a run report's, in no exhaustive-search summary");
    summaries.push_back(shards[i].fields);
  }
  MergePlan plan;
  plan.outcome = merge_exhaustive(summaries, names, set);
  return plan;
}

// The merged report written to `out` (a file, or standard output when empty); false when it could
// not be.
bool write_merged(const MergePlan& plan, const std::string& out) {
  if (out.empty()) return plan.write(std::cout);
  std::ofstream file(out, std::ios::binary | std::ios::trunc);
  const bool written = file && plan.write(file);
  file.close();
  return written && !file.fail();
}

int merge_command(const MergeArgs& args) {
  std::vector<NamedFile> files = {NamedFile{"--out", args.out, true}};
  for (const std::string& path : args.inputs)
    files.push_back(NamedFile{"report", path});
  if (refuse_one_file_named_twice("merge", files)) return 2;
  const MergePlan merged = plan_merge(
      args.inputs,
      [&args](std::size_t index, std::string& why) {
        return open_input(args.inputs[index], kRunReportInput, why);
      },
      args.partial ? ShardSet::partial : ShardSet::whole);
  if (merged.outcome.exit_code == 2) {
    fmt::print(stderr, "contend merge: {}\n", merged.outcome.error);
    return 2;
  }
  if (!write_merged(merged, args.out)) {
    fmt::print(stderr, "contend merge: cannot write {}\n",
               args.out.empty() ? "to standard output" : args.out);
    return 2;
  }
  if (!merged.outcome.statement.empty()) fmt::print(stderr, "{}\n", merged.outcome.statement);
  // Written to a file, the merged report leaves standard output free for the verdict (a job's
  // log then says why it failed); on standard output the report's "passed" field says it.
  if (!merged.outcome.verdict.empty() && !args.out.empty())
    fmt::print("{}\n", merged.outcome.verdict);
  return merged.outcome.exit_code;
}

}  // namespace

MergePlan::MergePlan() = default;
MergePlan::MergePlan(MergePlan&&) noexcept = default;
MergePlan& MergePlan::operator=(MergePlan&&) noexcept = default;
MergePlan::~MergePlan() = default;

bool MergePlan::write(std::ostream& out) const {
  CONTEND_ASSERT(outcome.exit_code != 2, "a merge refused is not written");
  if (runs != nullptr) return runs->write(out);
  out << outcome.merged;
  out.flush();
  return !out.fail();
}

MergePlan plan_merge(const std::vector<std::string>& names, const OpenInput& open, ShardSet set) {
  auto spool = std::make_unique<RunSpool>();
  std::vector<ShardReport> shards;
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::string why;
    const std::unique_ptr<InputFile> file = open(i, why);
    if (!file) return bad(names[i] + ": cannot be read (" + why + ")");
    JsonRunBound runs(file->stream().rdbuf(), kReportRunBytesMax);
    std::istream text(&runs);
    shards.push_back(read_shard_report(text, *spool));
    if (runs.over_bound_at())
      return bad(names[i] + ": not a contend report: " + runs.over_bound_reason());
    if (file->cut_short())
      return bad(names[i] + ": cannot be read (" + file->over_bound_reason() + ")");
    if (!shards.back().duplicate_key.empty()) {
      return bad(names[i] + ": not a contend report: " +
                 model::DuplicateKey(shards.back().duplicate_key).what());
    }
  }
  for (std::size_t i = 0; i < shards.size(); ++i) {
    if (const std::optional<std::string> strategy = sampling_strategy(shards[i].fields)) {
      return bad(names[i] + ": the summary of one explore --strategy " + *strategy +
                 " run, not a shard: merge takes the reports of a seed range's shards (run "
                 "--report json=FILE) or the summaries of an exhaustive search's shards (explore "
                 "--strategy dpor --shard K/N --json FILE)");
    }
  }
  // Either kind's fields are checked before they are read (json_shape.h): no exception to catch.
  const auto summaries = std::count_if(shards.begin(), shards.end(), [](const ShardReport& s) {
    return is_exhaustive_summary(s.fields);
  });
  if (summaries == 0 && set == ShardSet::partial) {
    return bad(
        "--partial merges the summaries of an exhaustive search (explore --strategy dpor --json); "
        "the reports of a seed range merge whole");
  }
  if (summaries == 0) return merge_runs(shards, names, std::move(spool));
  if (static_cast<std::size_t>(summaries) != shards.size())
    return bad(
        "some inputs are exhaustive-search summaries and some are not: merge one kind at a time");
  return merge_summaries(shards, names, set);
}

MergeOutcome merge_reports(std::vector<std::pair<std::string, std::string>> reports, ShardSet set) {
  std::vector<std::string> names;
  std::vector<std::unique_ptr<std::stringbuf>> texts;
  for (auto& [name, text] : reports) {
    names.push_back(name);
    texts.push_back(std::make_unique<std::stringbuf>(std::move(text), std::ios::in));
  }
  MergePlan plan = plan_merge(
      names,
      [&texts](std::size_t index, std::string&) {
        return std::make_unique<InputFile>(nullptr, texts[index].get(), kRunReportInput);
      },
      set);
  if (plan.outcome.exit_code == 2 || plan.runs == nullptr) return plan.outcome;
  std::ostringstream merged;
  if (!plan.write(merged))
    return bad("a temporary file of the runs read could not be read back").outcome;
  plan.outcome.merged = merged.str();
  return plan.outcome;
}

void register_merge_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<MergeArgs>();
  CLI::App* cmd = app.add_subcommand(
      "merge", "Combine the JSON reports (run) or summaries (explore) of shards into one");
  cmd->add_option("reports", args->inputs,
                  "Shard reports (contend run --report json=FILE), or shard summaries "
                  "(contend explore --shard K/N --json FILE)")
      ->required();
  cmd->add_option("--out", args->out, "Write the merged report here (default, or -: stdout)")
      ->check(writable_output());
  cmd->add_flag("--partial", args->partial,
                "Merge the summaries given of an exhaustive search when shards are missing: "
                "never verified, but a violation found stands (exit 3 otherwise)");
  cmd->callback([args, &ctx] {
    if (args->out == "-") args->out.clear();  // `-` is stdout, as for explore's --json
    ctx.exit_code = merge_command(*args);
  });
}

}  // namespace contend::cli
