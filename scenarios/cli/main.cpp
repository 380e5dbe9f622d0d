// Entry point of the `contend` tool. Subcommands register themselves from cmd_*.cpp.
#include <cstdio>
#include <exception>
#include <string>

#include "scenarios/allocator_tuning.h"
#include "scenarios/cli/commands.h"

#if CONTEND_MIMALLOC
#include <mimalloc.h>
#endif

namespace {

std::string version_line() {
#if CONTEND_MIMALLOC
  const int v = mi_version();  // e.g. 209 for 2.0.9
  return "contend 0.1.0 (allocator: mimalloc " + std::to_string(v / 100) + "." +
         std::to_string(v / 10 % 10) + "." + std::to_string(v % 10) + ")";
#else
  return "contend 0.1.0 (allocator: glibc malloc)";
#endif
}

}  // namespace

int main(int argc, char** argv) {
  contend::restart_with_larger_thread_cache(argv);
  contend::keep_freed_memory_for_reuse();
  CLI::App app{
      "contend: deterministic simulation and model checking of FoundationDB queue recipes"};
  app.require_subcommand(1);
  app.set_version_flag("--version", version_line());
  contend::cli::CommandContext ctx;
  contend::cli::register_tuple_command(app, ctx);
  contend::cli::register_run_command(app, ctx);
  contend::cli::register_check_command(app, ctx);
  contend::cli::register_replay_command(app, ctx);
  contend::cli::register_explore_command(app, ctx);
  contend::cli::register_merge_command(app, ctx);
  contend::cli::register_sweep_command(app, ctx);
  contend::cli::register_serializable_command(app, ctx);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "contend: %s\n", e.what());
    return 2;
  }
  return ctx.exit_code;
}
