// `contend check <history.jsonl> --model fifo|priority|multiset [--checker fast|search|all]
//  [--drained] [--budget N] [--event-order] [--json] [--strict] [--report html=FILE|json=FILE]`:
// checks any history in contend's JSON-lines schema (docs/history.md), including one recorded
// from a real system or converted from another tool's (index optional, unknown keys ignored with
// a warning). Exit codes: 0 linearizable, 1 violation (or checker disagreement), 2 bad input
// (naming the line), 3 unknown (the search ran out of budget, or the fast checker met repeated
// values).
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "base/input_file.h"
#include "model/check.h"
#include "model/history_json.h"
#include "scenarios/cli/commands.h"
#include "scenarios/cli/number_options.h"
#include "scenarios/cli/run_support.h"
#include "scenarios/html_report.h"

namespace contend::cli {

namespace {

struct CheckArgs {
  std::string path;
  std::string model = "fifo";
  std::string checker = "fast";
  std::int64_t budget = 2'000'000;
  bool drained = false;
  bool event_order = false;
  bool json = false;
  bool strict = false;
  std::vector<std::string> reports;  // as given: html=FILE or json=FILE
  // The reports, once they are known to be of the kinds check writes and to name no other file:
  // bad input is then written into the json ones as well (never before: such a file could be the
  // history itself).
  std::vector<ReportRequest> checked_reports;
  // Given on the command line: --budget bounds the search checker alone, so given to the fast
  // one it would be passed over in silence, and is refused (budget_fits_checker).
  const CLI::Option* budget_option = nullptr;
  const CLI::Option* checker_option = nullptr;
};

// Why --budget does not fit the checker chosen (the fast checker has no budget), or nothing.
std::optional<std::string> budget_problem(const CheckArgs& args) {
  if (args.budget_option == nullptr || args.budget_option->count() == 0 || args.checker != "fast")
    return std::nullopt;
  const bool chosen = args.checker_option != nullptr && args.checker_option->count() > 0;
  return fmt::format(
      "--budget bounds the search checker (--checker search or all), and this check is "
      "--checker fast{}, which has no budget",
      chosen ? "" : " (the default)");
}

int exit_code_of(const model::CheckReport& report) {
  if (report.disagreement) return 1;
  switch (report.verdict.kind) {
    case model::VerdictKind::linearizable:
      return 0;
    case model::VerdictKind::violation:
      return 1;
    case model::VerdictKind::unknown:
      return 3;
    case model::VerdictKind::simulator_fault:
      return 4;
  }
  return 3;
}

std::string dump(const nlohmann::ordered_json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// Writes the JSON object to every json=FILE report checked, saying on stderr which it wrote;
// false when one cannot be written (named on stderr).
bool write_json_reports(const CheckArgs& args, const std::string& json) {
  for (const ReportRequest& r : args.checked_reports) {
    if (r.kind != "json") continue;
    if (!write_whole_file(r.path, json)) {
      fmt::print(stderr, "contend check: cannot write {}\n", r.path);
      return false;
    }
    fmt::print(stderr, "wrote json report {}\n", r.path);  // stderr: --json keeps stdout JSON
  }
  return true;
}

int bad_input(const CheckArgs& args, const std::string& message) {
  const std::string json =
      dump(nlohmann::ordered_json{{"file", args.path}, {"error", message}, {"exit_code", 2}});
  if (args.json) {
    fmt::print("{}", json);
  } else {
    fmt::print(stderr, "contend check: {}: {}\n", args.path, message);
  }
  write_json_reports(args, json);
  return 2;
}

// `ignored`: the keys outside the schema the file's lines carried (each once, sorted).
std::optional<model::History> load(const CheckArgs& args, model::SpecKind spec, int& code,
                                   std::vector<std::string>& ignored) {
  code = 2;
  std::string why;
  // "-" reads standard input: a converter's output, piped
  std::unique_ptr<InputFile> in = args.path == "-" ? open_standard_input(kHistoryInput)
                                                   : open_input(args.path, kHistoryInput, why);
  if (!in) {
    bad_input(args, "cannot open the file (" + why + ")");
    return std::nullopt;
  }
  model::HistoryError error;
  model::EventLines lines;
  auto history = model::read_history(in->stream(), error, &lines,
                                     {.strict = args.strict, .ignored_keys = &ignored});
  if (in->cut_short()) {
    bad_input(args, "cannot be read (" + in->over_bound_reason() + ")");
    return std::nullopt;
  }
  if (!history) {
    bad_input(args, error.to_string());
    return std::nullopt;
  }
  std::sort(ignored.begin(), ignored.end());
  if (!ignored.empty()) {  // one warning for the whole file, on stderr (--json keeps stdout JSON)
    std::string keys;
    for (const std::string& key : ignored)
      keys += (keys.empty() ? "" : ", ") +
              nlohmann::json(key).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    fmt::print(stderr,
               "contend check: {}: warning: ignored unknown key{} {} (--strict rejects them)\n",
               args.path, ignored.size() == 1 ? "" : "s", keys);
  }
  if (history->empty()) {
    // An empty history is linearizable, and passing it would pass a pipeline whose writer failed
    // (`convert_history.py ... | contend check -` without pipefail): it is refused instead.
    bad_input(args,
              "no event: there is nothing to check (an empty file or pipe: did what wrote it "
              "fail?)");
    return std::nullopt;
  }
  auto invalid = model::validate_history(*history, lines);
  if (!invalid) invalid = model::check_functions(*history, spec, lines);
  if (invalid) {
    bad_input(args, invalid->to_string());
    return std::nullopt;
  }
  code = 0;
  return history;
}

// Every event index a verdict names, as the operations they belong to, in history order.
std::vector<std::string> involved_lines(const model::History& history,
                                        const model::CheckReport& report) {
  std::set<std::int64_t> indexes;
  for (const model::Verdict& v : report.verdicts) {
    if (v.kind != model::VerdictKind::violation) continue;
    if (!report.disagreement && v.checker != report.verdict.checker) continue;
    indexes.insert(v.events.begin(), v.events.end());
  }
  const model::Operations ops = model::operations_of(history, model::TieOrder::event_order);
  std::map<std::int64_t, const model::Operation*> by_invoke;
  for (const model::Operation& op : ops.ops)
    by_invoke[op.invoke] = &op;
  std::vector<std::string> lines;
  for (std::int64_t index : indexes) {
    if (index < 0 || index >= static_cast<std::int64_t>(history.size())) continue;
    const model::Event& e = history[static_cast<std::size_t>(index)];
    std::string times = std::to_string(e.time_us), events = std::to_string(index);
    if (auto it = by_invoke.find(index); it != by_invoke.end()) {
      const model::Operation& op = *it->second;
      const bool open = op.complete == model::kForever;
      events += ".." + (open ? std::string("?") : std::to_string(op.complete));
      times += ".." + (open ? std::string("?") : std::to_string(op.complete_time));
      std::string what = model::describe(op);
      lines.push_back(
          fmt::format("  events {:<10} time {:<16} {}", events, times,
                      what.substr(0, what.rfind(" (process"))) +
          fmt::format("  [process {}{}]", op.process, op.indeterminate ? ", indeterminate" : ""));
    }
  }
  return lines;
}

// Whether the search stopped at its step budget (not at its memory bound): the verdict's remedy
// is then a larger --budget, which the text names.
bool search_spent_its_budget(const model::CheckReport& report, std::int64_t budget) {
  return std::any_of(report.verdicts.begin(), report.verdicts.end(), [&](const model::Verdict& v) {
    return v.checker == "search" && v.kind == model::VerdictKind::unknown && v.steps > budget;
  });
}

// What gives an undecided search more, as text and the HTML page say it; empty when nothing does.
std::string budget_remedy(const CheckArgs& args, const model::CheckReport& report) {
  if (report.verdict.kind != model::VerdictKind::unknown ||
      !search_spent_its_budget(report, args.budget)) {
    return "";
  }
  return fmt::format("the search spent its whole budget of {} step{}: --budget N gives it more",
                     args.budget, args.budget == 1 ? "" : "s");
}

void print_text(const CheckArgs& args, const model::History& history,
                const model::CheckReport& report) {
  fmt::print("{}: {} events, model {}, checker {}\n", args.path, history.size(), args.model,
             args.checker);
  for (const model::Verdict& v : report.verdicts) {
    fmt::print("  {:<10} {}\n", v.checker, v.summary());
    if (!v.explanation.empty()) fmt::print("             {}\n", v.explanation);
  }
  std::vector<std::string> lines = involved_lines(history, report);
  if (!lines.empty()) {
    fmt::print("operations involved:\n");
    for (const std::string& line : lines)
      fmt::print("{}\n", line);
  }
  fmt::print("accounting:\n{}", model::accounting_report(report.accounting));
  if (report.disagreement) {
    fmt::print(
        "checker disagreement: one checker proves a linearization exists while another reports "
        "a violation — a bug in contend; please report this history\n");
  }
  fmt::print("verdict: {}\n", report.verdict.summary());
  if (const std::string remedy = budget_remedy(args, report); !remedy.empty())
    fmt::print("{}\n", remedy);
}

// The verdict as one JSON object (--json on stdout, --report json=FILE).
std::string json_of(const CheckArgs& args, const model::CheckReport& report, int code,
                    const std::vector<std::string>& ignored_keys) {
  using nlohmann::ordered_json;
  ordered_json j;
  j["file"] = args.path;
  j["model"] = args.model;
  j["checker"] = args.checker;
  j["verdict"] = ordered_json::parse(model::to_json(report.verdict));
  j["verdicts"] = ordered_json::array();
  for (const model::Verdict& v : report.verdicts)
    j["verdicts"].push_back(ordered_json::parse(model::to_json(v)));
  j["accounting"] = ordered_json::parse(model::to_json(report.accounting));
  j["disagreement"] = report.disagreement;
  j["ignored_keys"] = ignored_keys;
  j["exit_code"] = code;
  return dump(j);
}

// The HTML report of the history (the time view and the model; no store), or false.
bool write_html_reports(const CheckArgs& args, const model::History& history, model::SpecKind spec,
                        const model::CheckReport& report) {
  for (const ReportRequest& r : args.checked_reports) {
    if (r.kind != "html") continue;
    if (!write_whole_file(r.path, html_report_for_history(args.path, history, spec, report,
                                                          budget_remedy(args, report)))) {
      fmt::print(stderr, "contend check: cannot write {}\n", r.path);
      return false;
    }
    // On stderr, so that --json keeps stdout one JSON object.
    fmt::print(stderr, "wrote html report {}\n", r.path);
  }
  return true;
}

int check_command(CheckArgs args) {
  const model::SpecKind spec = *model::parse_spec(args.model);
  std::string problem;
  std::optional<std::vector<ReportRequest>> requests =
      reports_of_kinds(args.reports, {"html", "json"}, "check", problem);
  if (!requests) return bad_input(args, problem);
  std::vector<NamedFile> files = {NamedFile{"history", args.path}};
  for (NamedFile& file : report_files(*requests))
    files.push_back(std::move(file));
  if (auto twice = one_file_named_twice(files)) return bad_input(args, *twice);
  args.checked_reports = std::move(*requests);
  if (auto problem = budget_problem(args)) return bad_input(args, *problem);
  int code = 0;
  std::vector<std::string> ignored_keys;
  auto history = load(args, spec, code, ignored_keys);
  if (!history) return code;
  model::CheckRequest request;
  request.spec = spec;
  request.fast = args.checker == "fast" || args.checker == "all";
  request.search = args.checker == "search" || args.checker == "all";
  request.accounting = true;
  request.search_budget = args.budget;
  request.drained = args.drained;
  request.ties = args.event_order ? model::TieOrder::event_order : model::TieOrder::concurrent;
  model::CheckReport report = model::check_history(*history, request);
  code = exit_code_of(report);
  const std::string json = json_of(args, report, code, ignored_keys);
  if (args.json) {
    fmt::print("{}", json);
  } else {
    print_text(args, *history, report);
  }
  if (!write_json_reports(args, json)) return 2;
  if (!write_html_reports(args, *history, spec, report)) return 2;
  return code;
}

}  // namespace

void register_check_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* cmd = app.add_subcommand("check", "Check a history (JSON lines) against a queue model");
  cmd->add_option("history", args->path,
                  "History file, one JSON event per line ('-' for standard input)")
      ->required();
  cmd->add_option("--model", args->model, "Sequential spec: fifo, priority or multiset")
      ->check(CLI::IsMember({"fifo", "priority", "multiset"}));
  args->checker_option =
      cmd->add_option("--checker", args->checker,
                      "fast (unique values, O(n log n)), search (exact, budgeted), all (both; "
                      "disagreement fails)")
          ->check(CLI::IsMember({"fast", "search", "all"}));
  cmd->add_flag("--drained", args->drained,
                "The history ends with the queue empty: an acknowledged value never removed is "
                "lost");
  args->budget_option =
      cmd->add_option("--budget", args->budget,
                      "Search step budget (unknown when exhausted); --checker search or all")
          ->transform(whole_number_in(1, INT64_MAX));
  cmd->add_flag("--event-order", args->event_order,
                "Trust the event order at equal timestamps (histories written by contend); "
                "otherwise equal times are concurrent");
  cmd->add_flag("--json", args->json, "Print one JSON object instead of text");
  cmd->add_flag("--strict", args->strict,
                "A key outside the schema is bad input (otherwise ignored, with one warning)");
  cmd->add_option("--report", args->reports,
                  "html=FILE: draw the history, the violation and the model's state, one file; "
                  "json=FILE: the object --json prints (repeatable)")
      ->check(writable_report_output());
  cmd->callback([args, &ctx] { ctx.exit_code = check_command(*args); });
}

}  // namespace contend::cli
