// Entry point of the `contend` tool. Subcommands register themselves from cmd_*.cpp.
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/closest_name.h"
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

// CLI11 answers a word that is no command with "A subcommand is required", as if none had been
// typed: the word is named here, with the command it was likely meant to be. True when refused.
bool refused_as_no_command(CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return false;  // options are CLI11's to judge
  const std::string_view word = argv[1];
  std::vector<std::string> names;  // the commands --help lists (a hidden one has no group)
  for (const CLI::App* command : app.get_subcommands([](CLI::App*) { return true; })) {
    if (command->get_name() == word) return false;
    if (!command->get_group().empty()) names.push_back(command->get_name());
  }
  std::string message = "contend: '" + std::string(word) + "' is not a command";
  if (auto best = contend::closest_name(word, names)) {
    message += " (did you mean '" + std::string(*best) + "'?)";
  }
  std::string listed;
  for (const std::string& name : names)
    listed += (listed.empty() ? "" : ", ") + name;
  std::fprintf(stderr, "%s; the commands are %s (contend --help says what each does)\n",
               message.c_str(), listed.c_str());
  return true;
}

// CLI11 lists the words it did not expect, last first ("5 --seeed"); a mistyped option is named
// here, with the option of its command it was likely meant to be. Nothing when no leftover word
// looks like a long option.
std::optional<std::string> mistyped_option(const CLI::App& app) {
  if (app.get_subcommands().empty()) return std::nullopt;
  const CLI::App* deepest = app.get_subcommands().front();  // `tuple pack`: pack's options
  std::string name = deepest->get_name();
  while (!deepest->get_subcommands().empty()) {
    deepest = deepest->get_subcommands().front();
    name += " " + deepest->get_name();
  }
  const CLI::App& command = *deepest;
  for (const std::string& word : app.remaining(/*recurse=*/true)) {
    if (!word.starts_with("--")) continue;
    const std::string typed = word.substr(0, word.find('='));
    std::vector<std::string> names;
    for (const CLI::Option* option : command.get_options()) {
      for (const std::string& long_name : option->get_lnames())
        names.push_back("--" + long_name);
    }
    std::string message =
        "contend " + name + ": " + typed + " is not an option of " + command.get_name();
    if (auto best = contend::closest_name(typed, names)) {
      message += " (did you mean " + std::string(*best) + "?)";
    }
    return message + "; contend " + name + " --help lists them";
  }
  return std::nullopt;
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
  if (refused_as_no_command(app, argc, argv)) return 2;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ExtrasError& e) {
    if (auto message = mistyped_option(app)) {
      std::fprintf(stderr, "%s\n", message->c_str());
      return 2;
    }
    return app.exit(e) == 0 ? 0 : 2;
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "contend: %s\n", e.what());
    return 2;
  }
  return ctx.exit_code;
}
