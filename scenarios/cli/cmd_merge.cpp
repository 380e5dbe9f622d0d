// `contend merge SHARD.json... [--out FILE]`: combines the JSON reports of the shards of one
// seed range (`contend run --shard K/N --report json=...`) into the report the unsharded run
// would have written — or the --json summaries of the shards of one exhaustive search (`contend
// explore --strategy dpor --shard K/N --json ...`) into the search's totals (merge_exhaustive.cpp).
// Exit 0 when the merged verdicts are as expected, 1 when not, 2 for bad input (unreadable file,
// shards of different scenarios, recipes, scopes, expectations or seed ranges, a seed twice or
// missing), 3 when an exhaustive search's shards neither searched it to its end nor found it
// wrong, 4 when a seed of some shard was a simulator fault.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "model/history_json.h"
#include "model/json_keys.h"
#include "scenarios/cli/commands.h"
#include "scenarios/cli/merge.h"
#include "scenarios/cli/merge_exhaustive.h"
#include "scenarios/cli/run_support.h"
#include "scenarios/json_shape.h"

namespace contend::cli {

namespace {

struct MergeArgs {
  std::vector<std::string> inputs;
  std::string out;
};

MergeOutcome bad(std::string error) {
  MergeOutcome out;
  out.exit_code = 2;
  out.error = std::move(error);
  return out;
}

// What a shard's run report holds that merge reads (`contend run --report json=...` writes it).
constexpr JsonField kReport[] = {
    {"scenario", &kText}, {"file", &kText},     {"scenario_contents", &kText},
    {"recipe", &kText},   {"clients", &kCount}, {"operations_per_client", &kCount},
    {"expect", &kText},   {"seeds", &kObject},  {"runs", &kList}};
constexpr JsonField kSeedRange[] = {{"first", &kUnsigned}, {"last", &kUnsigned}};
constexpr JsonField kRun[] = {{"seed", &kUnsigned},
                              {"verdict", &kText},
                              {"as_expected", &kBoolean},
                              {"shows_expected", &kBoolean}};

// Why a parsed report is not in the shape `contend run` writes; nothing when it is.
std::optional<std::string> report_problem(const nlohmann::json& j) {
  if (!j.is_object()) return "not a contend run report (json)";
  if (auto problem = shape_problem(j, kReport, "")) return problem;
  const nlohmann::json& seeds = j["seeds"];
  if (auto problem = shape_problem(seeds, kSeedRange, "seeds.")) return problem;
  if (seeds["first"].get<std::uint64_t>() > seeds["last"].get<std::uint64_t>())
    return "field \"seeds\" is not a range: its first seed is above its last";
  const nlohmann::json& runs = j["runs"];
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string prefix = fmt::format("runs[{}].", i);
    if (!runs[i].is_object()) return fmt::format("field \"runs[{}]\" is not an object", i);
    if (auto problem = shape_problem(runs[i], kRun, prefix)) return problem;
  }
  return std::nullopt;
}

// The fields every shard of one run must share: what it ran (the scenario by its contents, which
// hold its recipe and scope: the path it was read from may differ from machine to machine), what
// it expected of every seed (each shard's as_expected was judged against it), and the range.
// The fields a message can name best come first; the contents last (an edit of anything else).
constexpr const char* kSameRun[] = {
    "scenario", "recipe", "clients",          "operations_per_client",
    "expect",   "seeds",  "scenario_contents"};

// A field's value as JSON text for a message (never throws: bytes that are not UTF-8 are replaced).
std::string said(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Why `j` (named `path`) is not a shard of the run of `first` (named `first_path`), naming the
// field that differs and both files; nothing when it is.
std::optional<std::string> different_run(const nlohmann::json& j, const std::string& path,
                                         const nlohmann::json& first,
                                         const std::string& first_path) {
  for (const char* field : kSameRun) {
    if (j[field] == first[field]) continue;
    return fmt::format(
        "{}: field \"{}\" ({}) differs from {}'s ({}): a shard of a different scenario, scope "
        "or seed range",
        path, field, said(j[field]), first_path, said(first[field]));
  }
  return std::nullopt;
}

// Every field of a report but its runs.
nlohmann::json report_header(const nlohmann::json& report) {
  nlohmann::json header = nlohmann::json::object();
  for (const auto& [key, value] : report.items()) {
    if (key != "runs") header[key] = value;
  }
  return header;
}

// `reports`: each shard's report as parsed (discarded when it was not JSON), and its name. The
// runs are moved out of them (a shard's runs are held once, not copied: a merge of 60,000 seeds
// peaked at 481 MB with the copies).
MergeOutcome merge_parsed(std::vector<nlohmann::json>&& reports,
                          const std::vector<std::string>& names) {
  std::optional<nlohmann::json> merged;
  std::map<std::uint64_t, nlohmann::json> runs;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    nlohmann::json& j = reports[i];
    const std::string& path = names[i];
    if (std::optional<std::string> problem = report_problem(j)) return bad(path + ": " + *problem);
    if (!merged) {
      merged = report_header(j);
    } else if (auto problem = different_run(j, path, *merged, names.front())) {
      return bad(*problem);
    }
    for (auto& run : j["runs"]) {
      const auto seed = run["seed"].get<std::uint64_t>();
      if (!runs.emplace(seed, std::move(run)).second) {
        return bad(path + ": seed " + std::to_string(seed) + " appears in two shards");
      }
    }
  }
  if (!merged) return bad("no input");
  const auto first = (*merged)["seeds"]["first"].get<std::uint64_t>();
  const auto last = (*merged)["seeds"]["last"].get<std::uint64_t>();
  if (last - first >= runs.size() || runs.size() != last - first + 1 ||
      runs.begin()->first != first || runs.rbegin()->first != last) {
    return bad(
        "the shards hold " + std::to_string(runs.size()) + " of the " +
        (last - first == UINT64_MAX ? std::string("2^64") : std::to_string(last - first + 1)) +
        " seeds " + std::to_string(first) + ".." + std::to_string(last) + ": a shard is missing");
  }
  nlohmann::json all = nlohmann::json::array();
  std::optional<std::uint64_t> simulator_fault, unexpected, shows_expected, unknown;
  std::string unexpected_verdict;
  for (auto& [seed, run] : runs) {
    if (run["verdict"] == "simulator_fault" && !simulator_fault) simulator_fault = seed;
    if (run["verdict"] == "unknown") {  // judged by no checker: neither a pass nor a finding
      if (!unknown) unknown = seed;
    } else if (!run["as_expected"].get<bool>() && !unexpected) {
      unexpected = seed;
      unexpected_verdict = run["verdict"].get<std::string>();
    }
    if (run["shows_expected"].get<bool>() && !shows_expected) shows_expected = seed;
    all.push_back(std::move(run));
  }
  (*merged)["runs"] = std::move(all);
  (*merged)["shard"] = "1/1";
  const std::string expect = (*merged)["expect"].get<std::string>();
  const std::string range = std::to_string(first) + ".." + std::to_string(last);
  // An unknown seed matters unless the violation expected was shown by another (as run judges).
  const bool undecided = !unexpected && unknown && (expect == "linearizable" || !shows_expected);
  const bool passed = !unexpected && !undecided && (expect == "linearizable" || shows_expected);
  (*merged)["passed"] = passed;
  (*merged)["result"] = batch_result(simulator_fault.has_value(), passed, undecided);
  MergeOutcome out;
  out.merged = merged->dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  out.exit_code = simulator_fault ? 4 : passed ? 0 : undecided ? 3 : 1;
  if (simulator_fault) {
    out.verdict = "SIMULATOR FAULT: seed " + std::to_string(*simulator_fault) +
                  ": contend itself broke (its run in the merged report says how)";
  } else if (undecided) {
    out.verdict = "UNDECIDED: seed " + std::to_string(*unknown) +
                  ": no checker could judge it, expected " + expect +
                  " (its run in the merged report says why)";
  } else if (unexpected) {
    out.verdict = "UNEXPECTED: seed " + std::to_string(*unexpected) + ": " + unexpected_verdict +
                  ", expected " + expect + " (its run in the merged report says how to replay it)";
  } else if (!passed) {
    out.verdict = "UNEXPECTED: no seed of " + range + " showed the expected " + expect;
  } else if (expect != "linearizable") {
    out.verdict = "as expected: seed " + std::to_string(*shows_expected) + " shows " + expect;
  } else {
    out.verdict = "as expected: every seed of " + range + " is linearizable";
  }
  return out;
}

int merge_command(const MergeArgs& args) {
  std::vector<NamedFile> files = {NamedFile{"--out", args.out, true}};
  for (const std::string& path : args.inputs)
    files.push_back(NamedFile{"report", path});
  if (refuse_one_file_named_twice("merge", files)) return 2;
  std::vector<std::pair<std::string, std::string>> reports;
  for (const std::string& path : args.inputs) {
    std::optional<std::string> text = read_input_or_say("merge", path, kRunReportInput);
    if (!text) return 2;
    reports.emplace_back(path, std::move(*text));
  }
  MergeOutcome merged = merge_reports(std::move(reports));
  if (merged.exit_code == 2) {
    fmt::print(stderr, "contend merge: {}\n", merged.error);
    return 2;
  }
  if (args.out.empty()) {
    fmt::print("{}", merged.merged);
  } else {
    if (!write_whole_file(args.out, merged.merged)) {
      fmt::print(stderr, "contend merge: cannot write {}\n", args.out);
      return 2;
    }
  }
  if (!merged.statement.empty()) fmt::print(stderr, "{}\n", merged.statement);
  // Written to a file, the merged report leaves standard output free for the verdict (a job's
  // log then says why it failed); on standard output the report's "passed" field says it.
  if (!merged.verdict.empty() && !args.out.empty() && args.out != "-")
    fmt::print("{}\n", merged.verdict);
  return merged.exit_code;
}

// A report's text parsed; discarded when it is not JSON, nests past model::kMaxJsonDepth, or
// names a key twice in one object (`duplicate` names it then).
nlohmann::json parsed(const std::string& text, std::string& duplicate) {
  duplicate.clear();
  if (model::json_nesting_depth(text, model::kMaxJsonDepth) > model::kMaxJsonDepth)
    return nlohmann::json(nlohmann::json::value_t::discarded);
  return model::parse_json_unique_keys(text, duplicate);
}

bool is_exhaustive_summary(const nlohmann::json& j) {
  return j.is_object() && j.value("search", nlohmann::json()) == "exhaustive";
}

}  // namespace

MergeOutcome merge_reports(std::vector<std::pair<std::string, std::string>> reports) {
  std::vector<nlohmann::json> texts;
  std::vector<std::string> names;
  for (auto& [name, text] : reports) {
    std::string duplicate;
    texts.push_back(parsed(text, duplicate));
    std::string().swap(text);  // parsed: the text is not needed again
    if (!duplicate.empty())
      return bad(name + ": not a contend report: " + model::DuplicateKey(duplicate).what());
    names.push_back(name);
  }
  // Either kind's fields are checked before they are read (json_shape.h): no exception to catch.
  const auto summaries = std::count_if(texts.begin(), texts.end(), is_exhaustive_summary);
  if (summaries == 0) return merge_parsed(std::move(texts), names);
  if (static_cast<std::size_t>(summaries) != texts.size())
    return bad(
        "some inputs are exhaustive-search summaries and some are not: merge one kind at a time");
  return merge_exhaustive(texts, names);
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
  cmd->callback([args, &ctx] {
    if (args->out == "-") args->out.clear();  // `-` is stdout, as for explore's --json
    ctx.exit_code = merge_command(*args);
  });
}

}  // namespace contend::cli
