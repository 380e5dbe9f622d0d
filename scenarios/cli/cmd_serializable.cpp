// `contend serializable LOG`: judges a transaction log written by contend's libfdb_c
// (transaction_log_check.h says how). Exit 0 serializable, 1 not (the first read that does not
// replay is named), 2 bad input (the line and the field).
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <string>

#include "scenarios/cli/commands.h"
#include "scenarios/cli/run_support.h"
#include "scenarios/cli/transaction_log_check.h"

namespace contend::cli {

namespace {

int serializable_command(const std::string& path) {
  std::unique_ptr<InputFile> opened = open_input_or_say("serializable", path, kTransactionLogInput);
  if (!opened) return 2;
  const LogCheck result = check_transaction_log(opened->stream(), path);
  if (refuse_cut_short("serializable", path, *opened)) return 2;
  if (result.exit_code == 2) {
    fmt::print(stderr, "contend serializable: {}\n", result.message);
  } else {
    fmt::print("{}\n", result.message);
  }
  return result.exit_code;
}

}  // namespace

void register_serializable_command(CLI::App& app, CommandContext& ctx) {
  CLI::App* cmd = app.add_subcommand(
      "serializable", "Check a transaction log from contend's libfdb_c for serializability");
  auto path = std::make_shared<std::string>();
  cmd->add_option("log", *path, "the JSON-lines log (CONTEND_FDB_LOG)")->required();
  cmd->callback([path, &ctx] { ctx.exit_code = serializable_command(*path); });
}

}  // namespace contend::cli
