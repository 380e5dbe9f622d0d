// `contend merge SHARD.json... [--out FILE]`: combines the JSON reports of the shards of one
// seed range (`contend run --shard K/N --report json=...`) into the report the unsharded run
// would have written — or the --json summaries of the shards of one exhaustive search (`contend
// explore --strategy dpor --shard K/N --json ...`) into the search's totals (merge_exhaustive.cpp).
// Exit 0 when the merged verdicts are as expected, 1 when not, 2 for bad input (unreadable file,
// shards of different scenarios, a seed twice or missing).
#include <fmt/format.h>

#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "scenarios/cli/commands.h"
#include "scenarios/cli/merge_exhaustive.h"

namespace contend::cli {

namespace {

struct MergeArgs {
  std::vector<std::string> inputs;
  std::string out;
};

int merge_command(const MergeArgs& args) {
  std::vector<nlohmann::json> exhaustive;
  for (const std::string& path : args.inputs) {
    std::ifstream in(path);
    nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (j.is_object() && j.value("search", "") == "exhaustive") exhaustive.push_back(std::move(j));
  }
  if (!exhaustive.empty()) {
    if (exhaustive.size() != args.inputs.size()) {
      fmt::print(stderr,
                 "contend merge: some inputs are exhaustive-search summaries and some "
                 "are not: merge one kind at a time\n");
      return 2;
    }
    return merge_exhaustive(exhaustive, args.inputs, args.out);
  }
  std::optional<nlohmann::json> merged;
  std::map<std::uint64_t, nlohmann::json> runs;
  for (const std::string& path : args.inputs) {
    std::ifstream in(path);
    nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!in.good() && !in.eof()) j = nlohmann::json::value_t::discarded;
    if (j.is_discarded() || !j.is_object() || !j.contains("runs") || !j["runs"].is_array() ||
        !j.contains("scenario") || !j.contains("seeds")) {
      fmt::print(stderr, "contend merge: {}: not a contend run report (json)\n", path);
      return 2;
    }
    if (!merged) {
      merged = j;
    } else if (j["scenario"] != (*merged)["scenario"] || j["file"] != (*merged)["file"] ||
               j["seeds"] != (*merged)["seeds"]) {
      fmt::print(stderr, "contend merge: {}: a shard of a different scenario or seed range\n",
                 path);
      return 2;
    }
    for (const auto& run : j["runs"]) {
      const auto seed = run.value("seed", std::uint64_t{0});
      if (!runs.emplace(seed, run).second) {
        fmt::print(stderr, "contend merge: {}: seed {} appears in two shards\n", path, seed);
        return 2;
      }
    }
  }
  if (!merged) {
    fmt::print(stderr, "contend merge: no input\n");
    return 2;
  }
  const auto first = (*merged)["seeds"]["first"].get<std::uint64_t>();
  const auto last = (*merged)["seeds"]["last"].get<std::uint64_t>();
  if (runs.size() != last - first + 1) {
    fmt::print(stderr,
               "contend merge: the shards hold {} of the {} seeds {}..{}: a shard is missing\n",
               runs.size(), last - first + 1, first, last);
    return 2;
  }
  nlohmann::json all = nlohmann::json::array();
  bool every_as_expected = true, some_shows_expected = false;
  for (auto& [seed, run] : runs) {
    every_as_expected = every_as_expected && run.value("as_expected", false);
    some_shows_expected = some_shows_expected || run.value("shows_expected", false);
    all.push_back(std::move(run));
  }
  (*merged)["runs"] = std::move(all);
  (*merged)["shard"] = "1/1";
  const bool passed =
      every_as_expected && ((*merged)["expect"] == "linearizable" || some_shows_expected);
  (*merged)["passed"] = passed;
  const std::string text = merged->dump(2) + "\n";
  if (args.out.empty()) {
    fmt::print("{}", text);
  } else {
    std::ofstream out(args.out, std::ios::binary);
    out << text;
    if (!out) {
      fmt::print(stderr, "contend merge: cannot write {}\n", args.out);
      return 2;
    }
  }
  return passed ? 0 : 1;
}

}  // namespace

void register_merge_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<MergeArgs>();
  CLI::App* cmd = app.add_subcommand("merge", "Combine the JSON reports of shards into one report");
  cmd->add_option("reports", args->inputs, "Shard reports (contend run --report json=FILE)")
      ->required();
  cmd->add_option("--out", args->out, "Write the merged report here (default: stdout)");
  cmd->callback([args, &ctx] { ctx.exit_code = merge_command(*args); });
}

}  // namespace contend::cli
