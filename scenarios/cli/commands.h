// The `contend` command-line tool: each subcommand lives in its own cmd_*.cpp and registers itself
// on the CLI11 app here. A subcommand's callback stores its exit code in `exit_code`.
//
// Exit codes: 0 success / verdict as expected, 1 violation or unexpected verdict, 2 bad input,
// 3 unknown verdict (budget exhausted). Never 128 or above.
#pragma once

#include <CLI/CLI.hpp>

namespace contend::cli {

struct CommandContext {
  int exit_code = 0;
};

void register_tuple_command(CLI::App& app, CommandContext& ctx);
void register_run_command(CLI::App& app, CommandContext& ctx);
void register_check_command(CLI::App& app, CommandContext& ctx);
void register_replay_command(CLI::App& app, CommandContext& ctx);
void register_explore_command(CLI::App& app, CommandContext& ctx);
void register_merge_command(CLI::App& app, CommandContext& ctx);
void register_sweep_command(CLI::App& app, CommandContext& ctx);
void register_serializable_command(CLI::App& app, CommandContext& ctx);

}  // namespace contend::cli
