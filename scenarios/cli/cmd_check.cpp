// `contend check <history.jsonl> --model fifo|priority|multiset [--checker search|fast|all]`:
// checks any history in contend's JSON-lines schema, including one recorded from a real system.
// Exit codes: 0 linearizable, 1 violation, 2 bad input (naming the line), 3 unknown.
#include <fmt/format.h>

#include <fstream>

#include "model/check.h"
#include "model/history_json.h"
#include "scenarios/cli/commands.h"

namespace contend::cli {

namespace {

struct CheckArgs {
  std::string path;
  std::string model = "fifo";
  std::string checker = "fast";
  std::int64_t budget = 2'000'000;
};

void print_verdict(const model::Verdict& v) {
  fmt::print("  {:<10} {}\n", v.checker, v.summary());
  if (!v.explanation.empty()) fmt::print("             {}\n", v.explanation);
  if (!v.events.empty()) {
    fmt::print("             events:");
    for (auto e : v.events)
      fmt::print(" {}", e);
    fmt::print("\n");
  }
}

int check_command(const CheckArgs& args) {
  std::ifstream in(args.path, std::ios::binary);
  if (!in) {
    fmt::print(stderr, "contend check: cannot open {}\n", args.path);
    return 2;
  }
  model::HistoryError error;
  auto history = model::read_history(in, error);
  if (!history) {
    fmt::print(stderr, "contend check: {}: {}\n", args.path, error.to_string());
    return 2;
  }
  if (auto invalid = model::validate_history(*history)) {
    fmt::print(stderr, "contend check: {}: {}\n", args.path, invalid->to_string());
    return 2;
  }
  model::CheckRequest request;
  request.spec = *model::parse_spec(args.model);
  request.fast = args.checker == "fast" || args.checker == "all";
  request.search = args.checker == "search" || args.checker == "all";
  request.accounting = true;
  request.search_budget = args.budget;
  model::CheckReport report = model::check_history(*history, request);
  fmt::print("{}: {} events, model {}\n", args.path, history->size(), args.model);
  for (const model::Verdict& v : report.verdicts)
    print_verdict(v);
  fmt::print("accounting: {}\n", model::accounting_table(report.accounting));
  if (report.disagreement) {
    fmt::print(
        "CHECKER DISAGREEMENT: the search proves a linearization exists while another "
        "checker reports a violation — a bug in contend; please report this history\n");
    return 1;
  }
  fmt::print("verdict: {}\n", report.verdict.summary());
  switch (report.verdict.kind) {
    case model::VerdictKind::linearizable:
      return 0;
    case model::VerdictKind::violation:
      return 1;
    case model::VerdictKind::unknown:
      return 3;
  }
  return 3;
}

}  // namespace

void register_check_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* cmd = app.add_subcommand("check", "Check a history (JSON lines) against a queue model");
  cmd->add_option("history", args->path, "History file, one JSON event per line")->required();
  cmd->add_option("--model", args->model, "Sequential spec")
      ->check(CLI::IsMember({"fifo", "priority", "multiset"}));
  cmd->add_option("--checker", args->checker,
                  "fast (unique values, O(n log n)), search (exact), all")
      ->check(CLI::IsMember({"fast", "search", "all"}));
  cmd->add_option("--budget", args->budget, "Search step budget (unknown when exhausted)")
      ->check(CLI::Range(std::int64_t{1}, INT64_MAX));
  cmd->callback([args, &ctx] { ctx.exit_code = check_command(*args); });
}

}  // namespace contend::cli
