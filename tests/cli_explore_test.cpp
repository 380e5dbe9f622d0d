// `contend explore --strategy dpor` as a user and a CI script run it: the proof statement, the
// JSON fields scripts rely on, exit codes, a counterexample that replays, shards that merge to
// the whole search, and bad input; and every strategy's --json and --report files.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.h"

namespace contend::testing {
namespace {

// A scratch directory under the build's temporary directory, emptied for each test.
std::string scratch(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("contend-cli-explore-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

// The shipped queue scenario cut to a small scope.
std::string small_queue(const std::string& dir, int clients, int operations,
                        const std::string& recipe = "queue", const std::string& extra = "") {
  const std::string path = dir + "/" + recipe + ".toml";
  std::ofstream(path) << "recipe = \"" << recipe << "\"\nclients = " << clients
                      << "\noperations_per_client = " << operations
                      << "\nchecks = [\"fast\", \"accounting\"]\n"
                      << extra;
  return path;
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// `contend <command>` exits 2 and its output says `message`, before any search began: no
// search's header line.
void expect_refused_saying(const std::string& command, const std::string& message) {
  CliResult r = run_cli(command);
  EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.output;
  EXPECT_NE(r.output.find(message), std::string::npos) << command << "\n" << r.output;
  EXPECT_EQ(r.output.find("exhaustive search of"), std::string::npos) << command << "\n"
                                                                      << r.output;
}

// A search of minutes (hc-queue 3 x 3, the seed's plan) with its checkpoint in `dir`, for the
// tests that stop one.
std::string long_search(const std::string& dir) {
  return "explore " + source_path("scenarios/hc-queue.toml") +
         " --strategy dpor --plans seed --clients 3 --operations 3 --checkpoint " + dir +
         "/search.ckpt";
}

// SIGTERM (a pod's stop, a CI runner's cancel) or Ctrl-C stops a long search cleanly: the units
// end their runs, the checkpoint is written, the statement and --json say what was covered, and
// the exit status is the shell's for that signal. The same command then goes on from the file.
TEST(CliExplore, SigtermStopsASearchThatSaysWhatItCoveredAndResumesFromItsCheckpoint) {
  const std::string dir = scratch("sigterm");
  const std::string search = long_search(dir) + " --progress 20000";
  // Sent once the search has reported progress (it runs for minutes otherwise).
  const std::string script = std::string(CONTEND_BINARY) + " " + search + " --json " + dir +
                             "/stopped.json > " + dir + "/out.txt 2> " + dir +
                             "/err.txt & pid=$!; for i in $(seq 1 1200); do grep -q 'runs "
                             "(executions' " +
                             dir +
                             "/err.txt && break; sleep 0.05; done; kill -TERM $pid; wait "
                             "$pid; echo \"exit $?\"";
  FILE* pipe = popen(("bash -c " + shell_quote(script)).c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string said;
  std::array<char, 256> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr)
    said += buffer.data();
  pclose(pipe);
  const std::string out = read_file(dir + "/out.txt");
  const std::string err = read_file(dir + "/err.txt");
  EXPECT_EQ(said, "exit 143\n") << out << err;
  EXPECT_NE(err.find("contend explore: stopping: each unit ends the run it is in"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("(with --checkpoint; one still being read is left as it was)"),
            std::string::npos)
      << err;
  EXPECT_NE(out.find("NOT VERIFIED: interrupted: "), std::string::npos) << out;
  EXPECT_NE(out.find(dir + "/search.ckpt keeps where the search stood: the same command goes on"),
            std::string::npos)
      << out;
  const nlohmann::json j = read_json(dir + "/stopped.json");
  EXPECT_EQ(j.at("interrupted"), true);
  EXPECT_EQ(j.at("exhausted"), false);
  EXPECT_EQ(j.at("verdict"), "unknown") << j.dump();
  // Resumed with a budget of one run per plan: the file is this search's and is taken over.
  CliResult resumed = run_cli(search + " --schedules 1 --json " + dir + "/resumed.json");
  EXPECT_EQ(resumed.exit_code, 3) << resumed.output;
  EXPECT_GT(read_json(dir + "/resumed.json").at("resumed_from_checkpoint").get<std::int64_t>(), 0)
      << resumed.output;
  EXPECT_EQ(read_json(dir + "/resumed.json").at("interrupted"), false);
}

// --max-seconds stops a search as a budget does, for a CI job with a deadline of its own: the
// units end their runs, the checkpoint is written, the statement says what stopped it and what
// was covered, exit 3; the same command goes on from the file. A search that ends first is as
// without a limit.
TEST(CliExplore, ATimeLimitStopsASearchAsABudgetAndTheSameSearchGoesOnFromAnyDirectory) {
  const std::string dir = scratch("time-limit");
  const std::string search = long_search(dir) + " --progress 0";
  CliResult limited = run_cli(search + " --max-seconds 2 --json " + dir + "/limited.json");
  EXPECT_EQ(limited.exit_code, 3) << limited.output;
  EXPECT_NE(limited.output.find("contend explore: the time limit (--max-seconds 2) ran out: "
                                "stopping: each unit ends the run it is in"),
            std::string::npos)
      << limited.output;
  EXPECT_NE(limited.output.find("NOT VERIFIED: the time limit ran out (--max-seconds 2): "),
            std::string::npos)
      << limited.output;
  EXPECT_NE(limited.output.find(dir + "/search.ckpt keeps where the search stood"),
            std::string::npos)
      << limited.output;
  const nlohmann::json j = read_json(dir + "/limited.json");
  EXPECT_EQ(j.at("stopped_by"), "max_seconds");
  EXPECT_EQ(j.at("interrupted"), true);
  EXPECT_EQ(j.at("exhausted"), false);
  EXPECT_EQ(j.at("verdict"), "unknown");
  EXPECT_EQ(j.at("max_seconds"), 2.0);
  EXPECT_GE(j.at("seconds").get<double>(), 1.9) << "stopped before its limit";
  // Resumed from another working directory, the scenario read by another path: the same search.
  CliResult resumed = run_cli_in(
      source_path("scenarios"),
      "explore hc-queue.toml --strategy dpor --plans seed --clients 3 --operations 3 --progress 0 "
      "--checkpoint " +
          dir + "/search.ckpt --schedules 1 --json " + dir + "/resumed.json");
  EXPECT_EQ(resumed.exit_code, 3) << resumed.output;
  const nlohmann::json k = read_json(dir + "/resumed.json");
  EXPECT_GT(k.at("resumed_from_checkpoint").get<std::int64_t>(), 0) << resumed.output;
  EXPECT_TRUE(k.at("stopped_by").is_null());
  EXPECT_TRUE(k.at("max_seconds").is_null());
  CliResult ended =
      run_cli("explore " + small_queue(dir, 2, 2) + " --strategy dpor --max-seconds 600 --json -");
  EXPECT_EQ(ended.exit_code, 0) << ended.output;
  EXPECT_NE(ended.output.find("\"stopped_by\": null"), std::string::npos) << ended.output;
  expect_refused_saying(search + " --max-seconds 0", "--max-seconds");
}

TEST(CliExplore, AProofRunSaysVerifiedAndWritesTheJsonScriptsReadAndExitsZero) {
  const std::string dir = scratch("proof");
  CliResult r = run_cli("explore " + small_queue(dir, 2, 2) + " --strategy dpor --json " + dir +
                        "/proof.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("VERIFIED: every execution of"), std::string::npos) << r.output;
  nlohmann::json j = read_json(dir + "/proof.json");
  EXPECT_EQ(j.at("exhausted"), true);
  EXPECT_EQ(j.at("verdict"), "linearizable");
  EXPECT_GT(j.at("executions").get<std::int64_t>(), 0);
  EXPECT_TRUE(j.at("seconds").is_number());
  EXPECT_EQ(j.at("plans"), "all");
  EXPECT_EQ(j.at("max_faults"), 0);
  EXPECT_TRUE(j.at("max_preemptions").is_null());
  // What the proof exercised: two dequeues of one plan race for the head, and one conflicts.
  EXPECT_NE(r.output.find("exercised (in how many of the"), std::string::npos) << r.output;
  EXPECT_GT(j.at("coverage").at("conflict: dequeue.first_item").get<std::int64_t>(), 0);
  EXPECT_EQ(r.output.find("exercises no contention"), std::string::npos) << r.output;
}

TEST(CliExplore, ABudgetThatRunsOutIsNeverAPass) {
  const std::string dir = scratch("budget");
  CliResult r = run_cli("explore " + small_queue(dir, 3, 2) +
                        " --strategy dpor --plans seed --schedules 10 --json -");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("NOT VERIFIED: the budget ran out"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"exhausted\": false"), std::string::npos) << r.output;
}

// The full DFS over schedules (a bound on preemptions) is no different: a budget of schedules
// that ends before the bounded space does is unknown (exit 3); one that covers it passes (exit 0)
// within that bound, as it says.
TEST(CliExplore, ADfsBudgetThatRunsOutIsNeverAPass) {
  const std::string dir = scratch("dfs-budget");
  const std::string scenario = small_queue(dir, 3, 2);
  CliResult cut = run_cli("explore " + scenario + " --strategy dfs --schedules 10");
  EXPECT_EQ(cut.exit_code, 3) << cut.output;
  EXPECT_NE(cut.output.find("not exhausted within 2 preemption(s)"), std::string::npos)
      << cut.output;
  EXPECT_NE(cut.output.find("NOT VERIFIED: the budget of 10 schedules"), std::string::npos)
      << cut.output;
  EXPECT_EQ(cut.output.find("no violation found"), std::string::npos) << cut.output;

  CliResult whole =
      run_cli("explore " + scenario + " --strategy dfs --max-preemptions 0 --schedules 100000");
  EXPECT_EQ(whole.exit_code, 0) << whole.output;
  EXPECT_NE(whole.output.find("the whole space within 0 preemption(s)"), std::string::npos)
      << whole.output;
  EXPECT_NE(whole.output.find("no violation in any of the"), std::string::npos) << whole.output;
}

// What `contend explore ARGS --json -` prints on stdout, parsed: the document alone, or a failure
// naming what else was there.
nlohmann::json json_on_stdout(const std::string& args) {
  CliResult r = run_cli("explore " + args + " --json - 2>/dev/null | cat");
  nlohmann::json j;
  EXPECT_NO_THROW(j = nlohmann::json::parse(r.output)) << r.output;
  return j;
}

TEST(CliExplore, JsonToStandardOutputIsAllThatIsThere) {
  // `--json -` is for scripts: stdout holds the JSON document alone, the report goes to stderr.
  const std::string dir = scratch("json-stdout");
  nlohmann::json j = json_on_stdout(small_queue(dir, 2, 2) + " --strategy dpor --plans seed");
  EXPECT_EQ(j.at("exhausted"), true);
  EXPECT_EQ(j.at("verdict"), "linearizable");
  CliResult words = run_cli("explore " + small_queue(dir, 2, 2) +
                            " --strategy dpor --plans seed --json - 2>&1 >/dev/null | cat");
  EXPECT_NE(words.output.find("VERIFIED: every execution of"), std::string::npos) << words.output;
}

TEST(CliExplore, TheReductionIsChosenByFlagOrScenarioAndNamedInTheJson) {
  const std::string dir = scratch("reduction");
  const std::string plain = small_queue(dir, 2, 2);
  CliResult states = run_cli("explore " + plain + " --strategy dpor --plans seed --reduction " +
                             "states --json - 2>/dev/null | cat");
  nlohmann::json j;
  ASSERT_NO_THROW(j = nlohmann::json::parse(states.output)) << states.output;
  EXPECT_EQ(j.at("reduction"), "states");
  EXPECT_EQ(j.at("exhausted"), true);
  EXPECT_EQ(j.at("verdict"), "linearizable");
  // The scenario's dpor_reduction is the default; the flag wins over it.
  const std::string configured = small_queue(scratch("reduction-configured"), 2, 2, "queue",
                                             "[strategy]\ndpor_reduction = \"none\"\n");
  CliResult none = run_cli("explore " + configured +
                           " --strategy dpor --plans seed --json - "
                           "2>/dev/null | cat");
  ASSERT_NO_THROW(j = nlohmann::json::parse(none.output)) << none.output;
  EXPECT_EQ(j.at("reduction"), "none");
  CliResult flag =
      run_cli("explore " + configured +
              " --strategy dpor --plans seed --reduction dpor --json - 2>/dev/null | cat");
  ASSERT_NO_THROW(j = nlohmann::json::parse(flag.output)) << flag.output;
  EXPECT_EQ(j.at("reduction"), "dpor");
  // A value that is none of the three, or both spellings of "none", is bad input.
  EXPECT_EQ(run_cli("explore " + plain + " --strategy dpor --reduction fast").exit_code, 2);
  EXPECT_EQ(
      run_cli("explore " + plain + " --strategy dpor --reduction none --no-reduction").exit_code,
      2);
  const std::string bad =
      small_queue(scratch("reduction-bad"), 2, 2, "queue", "[strategy]\ndpor_reduction = 3\n");
  CliResult refused = run_cli("explore " + bad + " --strategy dpor");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.output.find("dpor_reduction"), std::string::npos) << refused.output;
}

// The first line of a trace that shows an attempt of a client with no operation open (invoked and
// not yet completed above it), or "" when every attempt is inside one of its client's operations.
std::string attempt_outside_its_operation(const std::string& trace) {
  const std::regex event(R"(op  process \d+ \(client (\d+)(?:: the drain)?\) (\w+) )");
  const std::regex attempt(R"(^\s*[0-9.]+s\s+client (\d+) tx#)");
  std::set<std::string> open;
  std::istringstream lines(trace);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, event)) {
      if (m[2] == "invoke") {
        open.insert(m[1]);
      } else {
        open.erase(m[1]);
      }
    } else if (std::regex_search(line, m, attempt) && open.count(m[1]) == 0) {
      return line;
    }
  }
  return "";
}

TEST(CliExplore, AFaultBudgetFindsTheUnknownResultBugAndItsPathReplays) {
  const std::string dir = scratch("faults");
  const std::string scenario = small_queue(
      dir, 2, 1, "queue", "expect = \"violation\"\n[faults]\nunknown_result_applied = 0.1\n");
  CliResult r = run_cli("explore " + scenario + " --strategy dpor --max-faults 1 --out " + dir +
                        " --json " + dir + "/found.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("commit_unknown_result, and the commit applied"), std::string::npos)
      << r.output;
  // The note names the client as the history below it does: the one whose commit came back
  // unknown.
  std::smatch note, attempt;
  ASSERT_TRUE(std::regex_search(r.output, note,
                                std::regex(R"(client (\d+), step \d+ \(commit\): commit_unknown)")))
      << r.output;
  ASSERT_TRUE(std::regex_search(
      r.output, attempt, std::regex(R"(client (\d+) tx#\d+ [^\n]*-> commit_unknown_result)")))
      << r.output;
  EXPECT_EQ(note[1], attempt[1]) << r.output;
  // Each attempt is shown inside its operation, where the steps of an exhaustive run give an
  // invocation and the attempts after it one time.
  EXPECT_EQ(attempt_outside_its_operation(r.output), "") << r.output;
  nlohmann::json j = read_json(dir + "/found.json");
  ASSERT_EQ(j.at("verdict"), "violation");
  // The bounds name the faults the budget chose among: the one the scenario enables.
  EXPECT_EQ(j.at("fault_kinds"), nlohmann::json::array({"commit_unknown_result (applied)"}));
  EXPECT_NE(r.output.find("1 fault(s) per execution (of: commit_unknown_result (applied))"),
            std::string::npos)
      << r.output;
  const nlohmann::json& c = j.at("counterexample");
  EXPECT_EQ(c.at("minimal"), true);
  EXPECT_EQ(c.at("faults").size(), 1u);
  // The written counterexample replays to the same violation.
  CliResult replay = run_cli("replay " + c.at("file").get<std::string>() + " --seed 1 --path " +
                             c.at("path").get<std::string>() + " --quiet");
  EXPECT_EQ(replay.exit_code, 0) << replay.output;
  EXPECT_NE(replay.output.find("verdict: violation: " + c.at("violation").get<std::string>()),
            std::string::npos)
      << replay.output;
}

// --draws all: every order of the random key suffixes. The tie bug of the priority queue needs
// the later push's suffix to sort first; its counterexample's path carries that draw and replays
// only with the flag.
TEST(CliExplore, EveryOrderOfTheSuffixesFindsTheTieBugAndItsPathReplaysWithTheFlag) {
  const std::string dir = scratch("draws");
  CliResult r = run_cli("explore " + source_path("scenarios/priority-queue-ties.toml") +
                        " --strategy dpor --clients 2 --operations 2 --draws all --out " + dir +
                        " --json " + dir + "/found.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("key suffixes: every order"), std::string::npos) << r.output;
  nlohmann::json j = read_json(dir + "/found.json");
  EXPECT_EQ(j.at("draws"), "all");
  ASSERT_EQ(j.at("verdict"), "violation");
  const nlohmann::json& c = j.at("counterexample");
  const std::string path = c.at("path").get<std::string>();
  ASSERT_NE(path.find(",d"), std::string::npos) << "the counterexample placed no draw: " << path;
  EXPECT_NE(c.at("reproduce").get<std::string>().find("--draws all --path"), std::string::npos);
  // One note per draw choice on the path, saying where the suffix sorts.
  std::size_t draw_nodes = 0;
  for (std::size_t at = path.find(",d"); at != std::string::npos; at = path.find(",d", at + 1))
    ++draw_nodes;
  ASSERT_EQ(c.at("draws").size(), draw_nodes) << c.dump();
  EXPECT_NE(c.at("draws")[0].get<std::string>().find("its suffix under (\"P\", "),
            std::string::npos)
      << c.dump();
  EXPECT_NE(r.output.find("key suffixes placed (" + std::to_string(draw_nodes) + "):"),
            std::string::npos)
      << r.output;
  const std::string file = c.at("file").get<std::string>();
  const std::string seed = std::to_string(j.at("seed").get<std::uint64_t>());
  CliResult replay =
      run_cli("replay " + file + " --seed " + seed + " --draws all --path " + path + " --quiet");
  EXPECT_EQ(replay.exit_code, 0) << replay.output;
  EXPECT_NE(replay.output.find("verdict: violation: not_linearizable"), std::string::npos)
      << replay.output;
  CliResult seeds = run_cli("replay " + file + " --seed " + seed + " --path " + path);
  EXPECT_EQ(seeds.exit_code, 2) << seeds.output;
  EXPECT_NE(seeds.output.find("with the same --draws?"), std::string::npos) << seeds.output;
}

// A path cut short or lengthened replayed another execution than the one it names (the run went
// on by choices of its own, or ended with items unread) and printed that verdict as the path's;
// a path that did not fit said so without saying where.
TEST(CliReplay, APathIsTheWholeExecutionAndAMisfitIsNamedByItsItem) {
  const std::string dir = scratch("replay-path");
  CliResult r = run_cli("explore " + source_path("scenarios/first-cut-queue.toml") +
                        " --strategy dpor --out " + dir + " --json " + dir + "/found.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json j = read_json(dir + "/found.json");
  const nlohmann::json& c = j.at("counterexample");
  const std::string replay = "replay " + c.at("file").get<std::string>() + " --seed " +
                             std::to_string(j.at("seed").get<std::uint64_t>()) + " --quiet --path ";
  const std::string path = c.at("path").get<std::string>();
  CliResult whole = run_cli(replay + path);
  EXPECT_EQ(whole.exit_code, 0) << whole.output;
  EXPECT_NE(whole.output.find("verdict: violation: lost"), std::string::npos) << whole.output;
  const auto items = static_cast<std::size_t>(std::count(path.begin(), path.end(), ',')) + 1;
  ASSERT_GE(items, 2u) << path;
  expect_refused_saying(replay + path.substr(0, path.rfind(',')),
                        "--path does not fit this scenario: it ends after item " +
                            std::to_string(items - 1) + ", but the execution goes on there");
  expect_refused_saying(replay + path + ",0", "it has " + std::to_string(items + 1) +
                                                  " items, but the execution ended after item " +
                                                  std::to_string(items));
  expect_refused_saying(replay + "9",
                        "item 1 is 9, but that thread is not ready there (ready: 0, 1)");
  expect_refused_saying(replay + "f1",
                        "item 1 is f1, but the execution schedules a thread there (ready: 0, 1)");
}

TEST(CliExplore, ShardsMergeToTheWholeSearch) {
  const std::string dir = scratch("shards");
  const std::string scenario = small_queue(dir, 2, 2);
  CliResult whole = run_cli("explore " + scenario + " --strategy dpor --json " + dir + "/all.json");
  ASSERT_EQ(whole.exit_code, 0) << whole.output;
  std::string shards;
  for (int k = 1; k <= 3; ++k) {
    const std::string out = dir + "/shard-" + std::to_string(k) + ".json";
    CliResult r = run_cli("explore " + scenario + " --strategy dpor --shard " + std::to_string(k) +
                          "/3 --json " + out);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    // A shard proves its own units, never the scope: it must not say the scope is verified.
    EXPECT_EQ(r.output.find("\nVERIFIED"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("SHARD " + std::to_string(k) + "/3 VERIFIED: every execution of its"),
              std::string::npos)
        << r.output;
    shards += " " + out;
  }
  CliResult merged = run_cli("merge" + shards + " --out " + dir + "/merged.json");
  ASSERT_EQ(merged.exit_code, 0) << merged.output;
  EXPECT_NE(merged.output.find("VERIFIED: 3 shards of the exhaustive search"), std::string::npos)
      << merged.output;
  EXPECT_EQ(read_json(dir + "/merged.json").at("executions"),
            read_json(dir + "/all.json").at("executions"));
  EXPECT_EQ(read_json(dir + "/merged.json").at("coverage"),
            read_json(dir + "/all.json").at("coverage"));
  EXPECT_FALSE(read_json(dir + "/all.json").at("coverage").empty());
  EXPECT_EQ(read_json(dir + "/merged.json").at("interrupted"), false);
  EXPECT_EQ(read_json(dir + "/merged.json").at("stopped_by"), nullptr);
  // A stopped shard is named with what stopped it, so the job that reruns it knows which and why.
  const auto stop = [&](int k, const char* cause) {
    nlohmann::json stopped = read_json(dir + "/shard-" + std::to_string(k) + ".json");
    stopped["interrupted"] = true;
    stopped["exhausted"] = false;
    stopped["stopped_by"] = cause;
    stopped["max_seconds"] = 30;
    std::ofstream(dir + "/shard-" + std::to_string(k) + ".json") << stopped.dump();
  };
  stop(2, "max_seconds");
  CliResult partial = run_cli("merge" + shards + " --out " + dir + "/partial.json");
  EXPECT_EQ(partial.exit_code, 3) << partial.output;
  EXPECT_NE(partial.output.find("; interrupted before their end: shard(s) 2/3 (its time limit, "
                                "--max-seconds 30) (each goes on from its --checkpoint with the "
                                "same command)"),
            std::string::npos)
      << partial.output;
  const nlohmann::json limited = read_json(dir + "/partial.json");
  EXPECT_EQ(limited.at("interrupted"), true);
  EXPECT_EQ(limited.at("stopped_by"), "max_seconds");
  EXPECT_EQ(limited.at("stopped_shards"), nlohmann::json({{"2/3", "max_seconds"}}));
  EXPECT_EQ(limited.at("max_seconds"), nullptr) << "the shards' time limits differ";
  stop(1, "signal");
  CliResult mixed = run_cli("merge" + shards + " --out " + dir + "/mixed.json");
  EXPECT_EQ(mixed.exit_code, 3) << mixed.output;
  EXPECT_NE(mixed.output.find("shard(s) 1/3 (a signal), 2/3 (its time limit, --max-seconds 30)"),
            std::string::npos)
      << mixed.output;
  const nlohmann::json both = read_json(dir + "/mixed.json");
  EXPECT_EQ(both.at("stopped_by"), "mixed");
  EXPECT_EQ(both.at("stopped_shards"), nlohmann::json({{"1/3", "signal"}, {"2/3", "max_seconds"}}));
  CliResult missing = run_cli("merge " + dir + "/shard-1.json " + dir + "/shard-2.json");
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("2 of the search's 3 shards given: shard(s) 3/3 missing "
                                "(--partial merges the shards given, never as verified)"),
            std::string::npos)
      << missing.output;
}

// `merge --partial` merges the summaries given when shards are missing (a CI job of the matrix
// failed, a machine is still at it): never verified, the missing shards named in runs, and no
// estimate of the whole (the shards given say nothing of the others); a violation a shard found
// stands. Its summary is no shard's: merging it again is refused. Before, a missing shard was bad
// input, whatever the shards given had found.
TEST(CliExplore, APartialMergeNamesTheMissingShardsAndKeepsAViolationFound) {
  const std::string dir = scratch("partial");
  const std::string scenario = small_queue(dir, 2, 2);
  for (int k : {2, 4}) {
    CliResult r = run_cli("explore " + scenario + " --strategy dpor --shard " + std::to_string(k) +
                          "/5 --json " + dir + "/" + std::to_string(k) + ".json");
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  CliResult given =
      run_cli("merge --partial " + dir + "/2.json " + dir + "/4.json --out " + dir + "/given.json");
  EXPECT_EQ(given.exit_code, 3) << given.output;
  EXPECT_NE(given.output.find("NOT VERIFIED: 2 of the 5 shards of the exhaustive search"),
            std::string::npos)
      << given.output;
  EXPECT_NE(given.output.find("; shard(s) 1/5, 3/5, 5/5 not given (merged with --partial"),
            std::string::npos)
      << given.output;
  const nlohmann::json merged = read_json(dir + "/given.json");
  EXPECT_EQ(merged.at("shards_missing"), nlohmann::json({"1/5", "3/5", "5/5"}));
  EXPECT_EQ(merged.at("shards_merged"), 2);
  EXPECT_EQ(merged.at("exhausted"), false);
  EXPECT_EQ(merged.at("verdict"), "unknown");
  EXPECT_EQ(merged.at("runs_estimate"), nullptr);
  expect_refused_saying("merge " + dir + "/given.json " + dir + "/2.json",
                        "the summary of a partial merge");
  nlohmann::json odd = read_json(dir + "/4.json");
  odd["shards_missing"] = 3;
  std::ofstream(dir + "/odd.json") << odd.dump();
  expect_refused_saying("merge --partial " + dir + "/odd.json",
                        "odd.json: field \"shards_missing\" is not a list");
  CliResult one = run_cli("merge --partial " + dir + "/4.json --out " + dir + "/one.json");
  EXPECT_EQ(read_json(dir + "/one.json").at("shards_missing"), nlohmann::json({"1-3/5", "5/5"}))
      << one.output;

  const std::string out = dir + "/out";
  std::filesystem::create_directories(out);
  CliResult found =
      run_cli("explore " + source_path("scenarios/first-cut-queue.toml") +
              " --strategy dpor --shard 2/3 --out " + out + " --json " + dir + "/found.json");
  ASSERT_EQ(found.exit_code, 0) << found.output;
  ASSERT_TRUE(read_json(dir + "/found.json").contains("counterexample")) << found.output;
  CliResult violation = run_cli("merge --partial " + dir + "/found.json --out " + dir + "/v.json");
  EXPECT_EQ(violation.exit_code, 0) << "the violation the scenario expects: " << violation.output;
  EXPECT_NE(violation.output.find("VIOLATION: 1 of the 3 shards"), std::string::npos)
      << violation.output;
  EXPECT_EQ(read_json(dir + "/v.json").at("verdict"), "violation");

  CliResult run =
      run_cli("run " + scenario + " --seeds 1..4 --shard 1/2 --report json=" + dir + "/run.json");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  expect_refused_saying("merge --partial " + dir + "/run.json",
                        "--partial merges the summaries of an exhaustive search");
}

// A shard's summary is read only in the shape `explore --json` writes: a field it lacks, a
// negative count or counts that add up past 2^63 - 1 are bad input naming the file and field,
// never a default or a wrapped total (they once merged to "VERIFIED: ... -2 executions").
TEST(CliExplore, ShardSummariesOfAnotherShapeAreRefusedNotTakenAsDefaults) {
  const std::string dir = scratch("shapes");
  const std::string scenario = small_queue(dir, 2, 1);
  std::array<nlohmann::json, 2> shards;
  for (int k = 1; k <= 2; ++k) {
    const std::string out = dir + "/" + std::to_string(k) + ".json";
    ASSERT_EQ(run_cli("explore " + scenario + " --strategy dpor --shard " + std::to_string(k) +
                      "/2 --json " + out)
                  .exit_code,
              0);
    shards[k - 1] = read_json(out);
  }
  // Merges `first` with shard 2 as written; the exit code and what merge said.
  const auto merge = [&](const nlohmann::json& first) {
    std::ofstream(dir + "/edited.json", std::ios::trunc) << first.dump();
    return run_cli("merge " + dir + "/edited.json " + dir + "/2.json --out " + dir + "/m.json");
  };
  CliResult as_written = merge(shards[0]);
  ASSERT_EQ(as_written.exit_code, 0) << as_written.output;
  const nlohmann::json merged = read_json(dir + "/m.json");
  EXPECT_EQ(merged.at("executions"), shards[0].at("executions").get<std::int64_t>() +
                                         shards[1].at("executions").get<std::int64_t>());
  for (const auto& [field, value] : merged.items()) {  // nothing made up beside its own four
    EXPECT_TRUE(shards[0].contains(field) || field == "shards_merged" || field == "passed" ||
                field == "stopped_shards" || field == "shards_missing")
        << field;
  }
  EXPECT_EQ(merged.at("shards_missing"), nlohmann::json::array()) << "every shard given";
  // Counts past 2^31 are said as they are.
  nlohmann::json large = shards[0];
  large["executions"] = std::int64_t{3'000'000'000};
  CliResult counted = merge(large);
  EXPECT_EQ(counted.exit_code, 0) << counted.output;
  const std::string sum =
      std::to_string(3'000'000'000 + shards[1].at("executions").get<std::int64_t>());
  EXPECT_NE(counted.output.find(": " + sum + " executions"), std::string::npos) << counted.output;
  struct Edit {
    std::function<void(nlohmann::json&)> apply;
    std::string said;
  };
  const std::vector<Edit> edits = {
      {[](nlohmann::json& j) { j.erase("units"); }, "edited.json: field \"units\" is missing"},
      {[](nlohmann::json& j) { j.erase("exhausted"); },
       "edited.json: field \"exhausted\" is missing"},
      {[](nlohmann::json& j) { j["units_done"] = -3; },
       "edited.json: field \"units_done\" is not a count"},
      {[](nlohmann::json& j) { j["shard"] = "1/2 of them"; },
       "edited.json: field \"shard\" is not K/N"},
      {[](nlohmann::json& j) { j.erase("stopped_by"); },
       "edited.json: field \"stopped_by\" is missing"},
      {[](nlohmann::json& j) { j["stopped_by"] = "killed"; },
       "edited.json: field \"stopped_by\" is not \"signal\", \"max_seconds\" or null"},
      {[](nlohmann::json& j) { j["max_seconds"] = -1; },
       "edited.json: field \"max_seconds\" is not a number of seconds (0 or more) or null"},
      {[](nlohmann::json& j) { j["interrupted"] = true; },
       "edited.json: field \"stopped_by\" is null while \"interrupted\" is true"},
      {[](nlohmann::json& j) { j["stopped_by"] = "signal"; },
       "edited.json: field \"stopped_by\" is \"signal\" while \"interrupted\" is false"},
      {[](nlohmann::json& j) {
         j["interrupted"] = true;
         j["stopped_by"] = "max_seconds";
       },
       "edited.json: field \"max_seconds\" is null while \"stopped_by\" is \"max_seconds\""},
      {[](nlohmann::json& j) { j["executions"] = INT64_MAX; },
       "the shards' \"executions\" add up past 2^63 - 1"},
      {[](nlohmann::json& j) { j["coverage"]["enqueue ok"] = INT64_MAX; },
       "the shards' \"coverage\" add up past 2^63 - 1"}};
  for (const Edit& edit : edits) {
    nlohmann::json edited = shards[0];
    edit.apply(edited);
    CliResult r = merge(edited);
    EXPECT_EQ(r.exit_code, 2) << edit.said << "\n" << r.output;
    EXPECT_NE(r.output.find("contend merge: "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(edit.said), std::string::npos) << edit.said << "\n" << r.output;
  }
}

TEST(CliExplore, StoppedShardsEstimateTheirSizeAndMergeTheEstimates) {
  const std::string dir = scratch("estimate");
  const std::string search = "explore " + small_queue(dir, 4, 2) +
                             " --strategy dpor --plans seed --schedules 20000 --progress 0";
  std::string shards;
  std::int64_t sum = 0;
  for (int k = 1; k <= 2; ++k) {
    const std::string out = dir + "/stopped-" + std::to_string(k) + ".json";
    CliResult r = run_cli(search + " --shard " + std::to_string(k) + "/2 --json " + out);
    ASSERT_EQ(r.exit_code, 3) << r.output;
    EXPECT_NE(r.output.find("the whole search of the shard's units of this scope takes about"),
              std::string::npos)
        << r.output;
    const nlohmann::json j = read_json(out);
    ASSERT_TRUE(j.at("runs_estimate").is_number_integer()) << j.dump();
    EXPECT_EQ(j.at("last_scope").at("clients"), 4) << j.dump();
    EXPECT_EQ(j.at("last_scope").at("operations_per_client"), 2) << j.dump();
    EXPECT_GT(j.at("runs_estimate").get<std::int64_t>(), j.at("runs_in_scope").get<std::int64_t>());
    sum += j.at("runs_estimate").get<std::int64_t>();
    shards += " " + out;
  }
  CliResult merged = run_cli("merge" + shards + " --out " + dir + "/merged.json");
  EXPECT_EQ(merged.exit_code, 3) << merged.output;
  EXPECT_EQ(read_json(dir + "/merged.json").at("runs_estimate"), sum);
  EXPECT_NE(merged.output.find("by the shards' estimates the whole search of the scope takes"),
            std::string::npos)
      << merged.output;
}

TEST(CliExplore, ShardsDealtFromASizedSearchMergeToItAndNotWithOthers) {
  const std::string dir = scratch("dealt");
  const std::string scenario = small_queue(dir, 3, 3);
  const std::string search = "explore " + scenario + " --strategy dpor --plans seed";
  const std::string cut = dir + "/cut.ckpt";
  // This search ends within its sizing: the sizing run proves it, and its shards take the
  // finished units from the file.
  CliResult sized =
      run_cli(search + " --sizing-only --checkpoint " + cut + " --json " + dir + "/sized.json");
  ASSERT_EQ(sized.exit_code, 0) << sized.output;
  std::string shards;
  for (int k = 1; k <= 2; ++k) {
    const std::string out = dir + "/dealt-" + std::to_string(k) + ".json";
    // Shard 2 reads the scenario by another path (another machine's checkout, another working
    // directory): the same search, dealt from the same file and merged with shard 1.
    const std::string flags =
        " --shard " + std::to_string(k) + "/2 --deal-from " + cut + " --json " + out;
    CliResult r = k == 1
                      ? run_cli(search + flags)
                      : run_cli_in(dir, "explore queue.toml --strategy dpor --plans seed" + flags);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("from the sized search's file"), std::string::npos) << r.output;
    EXPECT_TRUE(read_json(out).at("dealt_from").is_string());
    shards += " " + out;
  }
  CliResult merged = run_cli("merge" + shards + " --out " + dir + "/merged.json");
  ASSERT_EQ(merged.exit_code, 0) << merged.output;
  EXPECT_EQ(read_json(dir + "/merged.json").at("executions"),
            read_json(dir + "/sized.json").at("executions"));
  // A shard that cut its own first units is of another search than the dealt ones.
  CliResult own = run_cli(search + " --shard 2/2 --json " + dir + "/own-2.json");
  ASSERT_EQ(own.exit_code, 0) << own.output;
  CliResult mixed =
      run_cli("merge " + dir + "/dealt-1.json " + dir + "/own-2.json --out " + dir + "/mixed.json");
  EXPECT_EQ(mixed.exit_code, 2) << mixed.output;
  EXPECT_NE(mixed.output.find("\"dealt_from\" differs"), std::string::npos) << mixed.output;
  // Bad uses say what they need.
  CliResult no_file = run_cli(search + " --sizing-only");
  EXPECT_EQ(no_file.exit_code, 2) << no_file.output;
  EXPECT_NE(no_file.output.find("needs --checkpoint FILE"), std::string::npos) << no_file.output;
  EXPECT_EQ(run_cli(search + " --sizing-only --checkpoint " + cut + " --shard 1/2").exit_code, 2);
  CliResult missing = run_cli(search + " --shard 1/2 --deal-from " + dir + "/none.ckpt");
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find(dir + "/none.ckpt: cannot read it"), std::string::npos)
      << missing.output;
  CliResult same = run_cli(search + " --shard 1/2 --deal-from " + cut + " --checkpoint " + cut);
  EXPECT_EQ(same.exit_code, 2) << same.output;
  EXPECT_NE(same.output.find("--deal-from " + cut + " and --checkpoint " + cut + " name one file"),
            std::string::npos)
      << same.output;
}

TEST(CliExplore, ClientsAndOperationsFlagsSearchTheScopeAFileOfThatScopeDefines) {
  const std::string dir = scratch("rescope");
  const std::string large = small_queue(dir, 3, 2);
  CliResult rescoped =
      run_cli("explore " + large + " --strategy dpor --clients 2 --operations 1 --json " + dir +
              "/rescoped.json");
  ASSERT_EQ(rescoped.exit_code, 0) << rescoped.output;
  EXPECT_NE(rescoped.output.find("2 client(s) x 1 operation(s)"), std::string::npos)
      << rescoped.output;
  EXPECT_EQ(rescoped.output.find("so far"), std::string::npos) << "a progress line, unasked";
  CliResult progress = run_cli("explore " + large + " --strategy dpor --plans seed --progress 5");
  EXPECT_NE(progress.output.find("contend explore: 3 x 2, faults <= 0: "), std::string::npos)
      << progress.output;
  // This search ends within its units' first sizing runs: its lines say so.
  EXPECT_NE(progress.output.find("so far, sizing round 1: "), std::string::npos) << progress.output;
  std::filesystem::create_directories(dir + "/small");
  CliResult direct = run_cli("explore " + small_queue(dir + "/small", 2, 1) +
                             " --strategy dpor --json " + dir + "/direct.json");
  ASSERT_EQ(direct.exit_code, 0) << direct.output;
  const nlohmann::json a = read_json(dir + "/rescoped.json");
  const nlohmann::json b = read_json(dir + "/direct.json");
  for (const char* field : {"executions", "distinct_outcomes", "clients", "verdict"})
    EXPECT_EQ(a.at(field), b.at(field)) << field;
}

TEST(CliExplore, BadInputGetsAMessageAndExitCodeTwo) {
  const std::string dir = scratch("bad");
  const std::string scenario = small_queue(dir, 2, 1);
  expect_refused_saying("explore " + scenario + " --strategy dpor --plans some", "--plans");
  expect_refused_saying("explore " + scenario + " --strategy dpor --shard 4/3", "--shard");
  expect_refused_saying("explore " + scenario + " --strategy dpor --draws some", "--draws");
  // A fault budget where the scenario enables no fault would prove nothing about faults.
  expect_refused_saying("explore " + scenario + " --strategy dpor --max-faults 1",
                        "enables no fault a search can place");
  expect_refused_saying("replay " + scenario + " --seed 1 --draws all", "--draws all needs --path");
  std::ofstream(dir + "/draws.toml") << "recipe = \"queue\"\n[strategy]\ndpor_draws = \"some\"\n";
  expect_refused_saying("explore " + dir + "/draws.toml --strategy dpor", "dpor_draws");
  expect_refused_saying("replay " + scenario + " --seed 1 --path 0,x", "item 2");
  expect_refused_saying("replay " + scenario + " --seed 1 --path 7,7,7",
                        "does not fit this scenario");
  std::ofstream(dir + "/plan.toml") << "recipe = \"queue\"\nplan = [[\"enqueue\", \"pop_min\"]]\n";
  expect_refused_saying("explore " + dir + "/plan.toml --strategy dpor",
                        "'pop_min' is not an operation of queue");
  // The search's thread sets hold 64 clients: more is refused, not an internal check failing.
  expect_refused_saying("explore " + scenario + " --strategy dpor --clients 65 --no-shrink",
                        "at most 64 clients");
  expect_refused_saying("explore " + scenario + " --clients 0", "--clients");
  std::ofstream(dir + "/planned.toml") << "recipe = \"queue\"\nplan = [[\"enqueue\"]]\n";
  expect_refused_saying("explore " + dir + "/planned.toml --strategy dpor --clients 2",
                        "cannot resize a scenario with a plan");
}

// A --checkpoint or --deal-from file the search cannot take was refused after the search's
// header line, as if it had begun: each is refused before anything else is printed.
TEST(CliExplore, AFileTheSearchCannotTakeIsRefusedBeforeItsHeader) {
  const std::string dir = scratch("bad-files");
  const std::string search = "explore " + small_queue(dir, 2, 1) + " --strategy dpor";
  std::ofstream(dir + "/garbage.json") << "garbage{";
  std::ofstream(dir + "/empty.json");
  std::ofstream(dir + "/other.json") << R"({"search": "another", "scopes": {}, "in_progress": {}})";
  const std::string not_json = dir + "/garbage.json: not a contend checkpoint";
  expect_refused_saying(search + " --checkpoint " + dir + "/garbage.json", not_json);
  expect_refused_saying(search + " --checkpoint " + dir + "/empty.json", "empty, so not");
  expect_refused_saying(search + " --checkpoint " + dir + "/other.json", "another search");
  expect_refused_saying(search + " --shard 1/2 --deal-from " + dir + "/garbage.json", not_json);
  expect_refused_saying(search + " --shard 1/2 --deal-from " + dir + "/missing.json",
                        "missing.json: cannot read it");
  expect_refused_saying(search + " --deal-from " + dir + "/other.json", "another search");
}

// A checkpoint of this search with a unit of the wrong shape was refused only once the search
// reached its scope, after the header: every unit (finished, in progress, of a cut) is checked as
// the file is read, so it is refused before anything is printed.
TEST(CliExplore, ACheckpointWithAMalformedUnitIsRefusedBeforeItsHeader) {
  const std::string dir = scratch("bad-units");
  const std::string search = "explore " + small_queue(dir, 2, 1) + " --strategy dpor";
  ASSERT_EQ(run_cli(search + " --checkpoint " + dir + "/whole.json").exit_code, 0);
  ASSERT_EQ(run_cli(search + " --sizing-only --checkpoint " + dir + "/cut.json").exit_code, 0);
  const nlohmann::json whole = read_json(dir + "/whole.json");
  const nlohmann::json sized = read_json(dir + "/cut.json");
  const std::string scope = "2x1|faults=0";
  auto refused = [&](nlohmann::json edited, const std::string& message) {
    std::ofstream(dir + "/edited.json", std::ios::trunc) << edited.dump();
    expect_refused_saying(search + " --checkpoint " + dir + "/edited.json", message);
  };
  nlohmann::json counted = whole;
  counted["scopes"][scope]["2"]["executions"] = "x";
  refused(counted, "unit 2 (scope 2x1|faults=0): field \"executions\" is not a count");
  nlohmann::json named = whole;
  named["scopes"][scope]["zz"] = whole["scopes"][scope]["2"];
  refused(named, "not a contend checkpoint: unit \"zz\" is not a number");
  nlohmann::json running = whole;
  running["in_progress"][scope]["9"] = {{"result", 1}};
  refused(running, "unit 9 (scope 2x1|faults=0): field \"result\" is not an object");
  nlohmann::json cut = sized;
  cut["units"][scope]["cut"][1]["thread"] = "0";
  refused(cut,
          "the units of scope 2x1|faults=0 are not a contend checkpoint's: cut unit 1: "
          "field \"thread\"");
}

// nlohmann's lexer held all the white space before a token, and the token: a checkpoint of 1 GiB
// of spaces peaked at 3 GB before it was refused (4 GiB, its bound, at some 12 GB). A run of more
// than 1 MiB between two structural characters — white space, or one string — is refused once
// read, naming the byte; so is one after a whole checkpoint, which the parse would end at.
TEST(CliExplore, ACheckpointRunOfMoreThanOneMiBIsRefusedNamingItsByte) {
  const std::string dir = scratch("long-runs");
  const std::string search = "explore " + small_queue(dir, 2, 1) + " --strategy dpor";
  ASSERT_EQ(run_cli(search + " --checkpoint " + dir + "/whole.json").exit_code, 0);
  const std::string whole = read_file(dir + "/whole.json");
  const std::string spaces(std::size_t{16} << 20, ' ');
  std::ofstream(dir + "/spaces.json") << spaces;
  std::ofstream(dir + "/string.json") << "{\"search\": \"" << std::string(2 << 20, 'a') << "\"}";
  std::ofstream(dir + "/after.json") << whole << spaces << "garbage";
  const std::string run = "more than 1 MiB of one value or of white space";
  expect_refused_saying(search + " --checkpoint " + dir + "/spaces.json",
                        "at byte 1048576, " + run);
  expect_refused_saying(search + " --shard 1/2 --deal-from " + dir + "/spaces.json",
                        "at byte 1048576, " + run);
  expect_refused_saying(search + " --checkpoint " + dir + "/string.json",
                        "at byte 1048586, " + run);
  expect_refused_saying(search + " --checkpoint " + dir + "/after.json",
                        "at byte " + std::to_string(whole.rfind('}') + 1 + (1 << 20)) + ", " + run);
}

// A flag the strategy does not take is refused, not passed over: a --checkpoint that PCT would
// never write, a preemption bound random exploration has no use for.
TEST(CliExplore, AFlagOfAnotherStrategyIsRefusedNamingItAndTheStrategy) {
  const std::string dir = scratch("strategy-flags");
  const std::string scenario = small_queue(dir, 2, 1);
  expect_refused_saying(
      "explore " + scenario + " --strategy pct --checkpoint " + dir + "/x.ckpt",
      "--checkpoint is a flag of --strategy dpor, and this exploration is pct (--strategy pct)");
  EXPECT_FALSE(std::filesystem::exists(dir + "/x.ckpt"));
  expect_refused_saying("explore " + scenario + " --strategy random --max-preemptions 2",
                        "--max-preemptions is a flag of --strategy dfs or dpor, and this "
                        "exploration is random");
  expect_refused_saying("explore " + scenario + " --strategy dpor --depth 3",
                        "--depth is a flag of --strategy pct, and this exploration is dpor");
  std::filesystem::create_directories(dir + "/configured");
  const std::string configured =
      small_queue(dir + "/configured", 2, 1, "queue", "[strategy]\nname = \"dfs\"\n");
  expect_refused_saying("explore " + configured + " --jobs 2",
                        "--jobs is a flag of --strategy random, pct or dpor, and this exploration "
                        "is dfs (the scenario's [strategy] name)");
  expect_refused_saying("explore " + configured + " --checkpoint " + dir + "/x.ckpt",
                        "--checkpoint is a flag of --strategy dpor, and this exploration is dfs");
  // Where they belong, they are taken.
  EXPECT_EQ(run_cli("explore " + scenario + " --strategy pct --depth 2 --schedules 3").exit_code,
            0);
  EXPECT_EQ(run_cli("explore " + scenario + " --strategy random --jobs 2 --schedules 3").exit_code,
            0);
  EXPECT_EQ(run_cli("explore " + scenario + " --strategy dfs --max-preemptions 1 --schedules 1000")
                .exit_code,
            0);
}

// "[enqueue dequeue] [dequeue]" (a plan as the statement spells it) as a scenario's `plan` key.
std::string plan_key(const std::string& spelled) {
  std::string key = "plan = [";
  for (char c : spelled) {
    if (c == '[')
      key += "[\"";
    else if (c == ']')
      key += "\"]";
    else if (c == ' ')
      key += key.back() == ']' ? ", " : "\", \"";
    else
      key += c;
  }
  return key + "]\n";
}

TEST(CliExplore, AOnePlanSearchSpellsOutThePlanItSearched) {
  const std::string dir = scratch("one-plan");
  const std::string drawn = small_queue(dir, 2, 2);
  CliResult seed =
      run_cli("explore " + drawn + " --strategy dpor --plans seed --json " + dir + "/seed.json");
  ASSERT_EQ(seed.exit_code, 0) << seed.output;
  const nlohmann::json by_seed = read_json(dir + "/seed.json");
  EXPECT_EQ(by_seed.at("plans"), "seed");
  const std::string plan = by_seed.at("plan").get<std::string>();
  EXPECT_TRUE(std::regex_match(plan, std::regex(R"(\[\w+ \w+\] \[\w+ \w+\])"))) << plan;
  EXPECT_NE(seed.output.find("2 operation(s), the seed's plan " + plan + " ("), std::string::npos)
      << seed.output;
  // The plan named is the plan searched: a file that fixes it gives the same search.
  std::filesystem::create_directories(dir + "/fixed");
  const std::string fixed = small_queue(dir + "/fixed", 2, 2, "queue", plan_key(plan));
  CliResult own = run_cli("explore " + fixed + " --strategy dpor --json " + dir + "/own.json");
  ASSERT_EQ(own.exit_code, 0) << own.output;
  const nlohmann::json by_file = read_json(dir + "/own.json");
  EXPECT_EQ(by_file.at("plans"), "scenario");
  EXPECT_EQ(by_file.at("plan"), plan);
  EXPECT_NE(own.output.find("the scenario's plan " + plan), std::string::npos) << own.output;
  for (const char* field : {"executions", "abandoned_as_equivalent", "distinct_outcomes"})
    EXPECT_EQ(by_file.at(field), by_seed.at(field)) << field;
  expect_refused_saying("explore " + fixed + " --strategy dpor --plans seed", "fixes its plan");
  // Every plan: none is named.
  CliResult all = run_cli("explore " + drawn + " --strategy dpor --json -");
  ASSERT_EQ(all.exit_code, 0) << all.output;
  EXPECT_NE(all.output.find("\"plan\": null"), std::string::npos) << all.output;
}

TEST(CliExplore, ShardsOfTwoPlansDoNotMerge) {
  // One file, edited between two shards: the plan differs while every other field agrees.
  const std::string dir = scratch("two-plans");
  const std::string first =
      small_queue(dir, 2, 1, "queue", "plan = [[\"enqueue\"], [\"enqueue\"]]\n");
  ASSERT_EQ(run_cli("explore " + first + " --strategy dpor --shard 1/2 --json " + dir + "/1.json")
                .exit_code,
            0);
  small_queue(dir, 2, 1, "queue", "plan = [[\"enqueue\"], [\"dequeue\"]]\n");
  ASSERT_EQ(run_cli("explore " + first + " --strategy dpor --shard 2/2 --json " + dir + "/2.json")
                .exit_code,
            0);
  expect_refused_saying("merge " + dir + "/1.json " + dir + "/2.json", "field \"plan\" differs");
}

// A JUnit report's testcase: its failure's type, or "" when it passed (no failure element).
std::string junit_failure_type(const std::string& xml) {
  static const std::regex failure("<failure message=\"[^\"]*\" type=\"([^\"]*)\">");
  std::smatch m;
  return std::regex_search(xml, m, failure) ? m[1].str() : std::string();
}

// A CI job keeps a readable log and hands its test view a result: every strategy writes the JSON
// --json writes and a JUnit testcase, failed unless the exploration exits 0, of the type its exit
// code says, while the text stays on stdout.
TEST(CliExploreReports, EveryStrategyWritesJsonAndJunitBesideItsText) {
  const std::string dir = scratch("reports");
  const std::string queue = small_queue(dir, 2, 1);
  const std::string reports = " --report json=" + dir + "/r.json --report junit=" + dir + "/r.xml";
  struct Case {
    std::string flags;
    int exit_code;
    std::string verdict;
    std::string failure_type;
  };
  const std::string first_cut = small_queue(dir, 3, 3, "first-cut-queue", "drain = true\n");
  for (const Case& c :
       std::vector<Case>{{queue + " --strategy random --schedules 20", 0, "none_found", ""},
                         {queue + " --strategy pct --schedules 20", 0, "none_found", ""},
                         {small_queue(dir, 3, 2) + " --strategy dfs --schedules 10", 3,
                          "none_found", "unknown verdict"},
                         {first_cut + " --strategy random --schedules 50 --no-shrink", 1,
                          "violation", "unexpected verdict"},
                         {queue + " --strategy dpor", 0, "linearizable", ""}}) {
    SCOPED_TRACE(c.flags);
    std::filesystem::remove(dir + "/r.json");
    std::filesystem::remove(dir + "/r.xml");
    CliResult r = run_cli("explore " + c.flags + reports);
    EXPECT_EQ(r.exit_code, c.exit_code) << r.output;
    EXPECT_NE(r.output.find("wrote junit report " + dir + "/r.xml"), std::string::npos) << r.output;
    nlohmann::json j = read_json(dir + "/r.json");
    EXPECT_EQ(j.at("exit_code"), c.exit_code);
    EXPECT_EQ(j.at("passed"), c.exit_code == 0);
    EXPECT_EQ(j.at("verdict"), c.verdict);
    const std::string xml = read_file(dir + "/r.xml");
    EXPECT_NE(xml.find("failures=\"" + std::to_string(c.exit_code == 0 ? 0 : 1) + "\""),
              std::string::npos)
        << xml;
    EXPECT_EQ(junit_failure_type(xml), c.failure_type) << xml;
  }
}

// The violation's entry names the schedule and its reproduction, and the command the JSON and the
// JUnit failure give replays it.
TEST(CliExploreReports, AViolationsReportsGiveTheCommandThatReplaysIt) {
  const std::string dir = scratch("reports-violation");
  const std::string first_cut = small_queue(dir, 3, 3, "first-cut-queue", "drain = true\n");
  CliResult r = run_cli("explore " + first_cut + " --strategy random --schedules 50 --json " + dir +
                        "/v.json --report junit=" + dir + "/v.xml");
  ASSERT_EQ(r.exit_code, 1) << r.output;
  nlohmann::json j = read_json(dir + "/v.json");
  const nlohmann::json& v = j.at("violation");
  EXPECT_EQ(v.at("violation"), "lost");
  EXPECT_GT(v.at("schedule").get<std::int64_t>(), 0);
  EXPECT_GT(v.at("shrunk").at("shrinking_runs").get<std::int64_t>(), 0);
  const std::string reproduce = j.at("reproduce").get<std::string>();
  EXPECT_EQ(v.at("reproduce"), reproduce);
  EXPECT_NE(read_file(dir + "/v.xml").find("reproduce: " + reproduce), std::string::npos);
  ASSERT_EQ(reproduce.rfind("contend replay ", 0), 0u) << reproduce;
  CliResult replay = run_cli(reproduce.substr(std::string("contend ").size()));
  EXPECT_EQ(replay.exit_code, 1) << replay.output;
  EXPECT_NE(replay.output.find("violation: lost"), std::string::npos) << replay.output;
}

TEST(CliExploreReports, JsonToStandardOutputIsAllThereIsForEveryStrategy) {
  const std::string dir = scratch("reports-stdout");
  nlohmann::json j = json_on_stdout(small_queue(dir, 2, 1) + " --strategy pct --schedules 5");
  EXPECT_EQ(j.at("strategy"), "pct");
  EXPECT_EQ(j.at("schedules_run"), 5);
  EXPECT_EQ(j.at("verdicts").at("linearizable"), 5);
  // Threads change nothing a script reads: the summary is the same document.
  const std::string wrong = small_queue(dir, 4, 6, "snapshot-dequeue-queue");
  const nlohmann::json one = json_on_stdout(wrong + " --strategy pct --schedules 300");
  EXPECT_EQ(one.at("verdict"), "violation");
  EXPECT_EQ(json_on_stdout(wrong + " --strategy pct --schedules 300 --jobs 2"), one);
}

// A random, pct or dfs summary is of one exploration: merge refuses it by name (it asked for a
// run report's "file" field), alone or beside run reports.
TEST(CliExploreReports, ASamplingSummaryIsRefusedByMergeAsNoShard) {
  const std::string dir = scratch("reports-merge");
  const std::string queue = small_queue(dir, 2, 1);
  ASSERT_EQ(run_cli("explore " + queue + " --strategy dfs --json " + dir + "/dfs.json").exit_code,
            0);
  ASSERT_EQ(run_cli("run " + queue + " --seeds 1..2 --report json=" + dir + "/run.json").exit_code,
            0);
  for (const std::string& inputs :
       {"/dfs.json " + dir + "/dfs.json", "/run.json " + dir + "/dfs.json"}) {
    CliResult r = run_cli("merge " + dir + inputs + " --out " + dir + "/merged.json");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(dir + "/dfs.json: the summary of one explore --strategy dfs run, not a "
                                  "shard"),
              std::string::npos)
        << r.output;
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/merged.json"));
}

// What explore cannot write, and a report that would overwrite the scenario or another output, is
// refused before any schedule runs, and nothing is written.
TEST(CliExploreReports, AReportExploreCannotWriteIsRefusedBeforeAnyRun) {
  const std::string dir = scratch("reports-refused");
  const std::string queue = small_queue(dir, 2, 1);
  for (const std::string strategy : {"pct", "dpor"}) {
    SCOPED_TRACE(strategy);
    const std::string explore = "explore " + queue + " --strategy " + strategy;
    CliResult html = run_cli(explore + " --report html=" + dir + "/x.html");
    EXPECT_EQ(html.exit_code, 2) << html.output;
    EXPECT_NE(html.output.find("explore writes json=FILE or junit=FILE"), std::string::npos)
        << html.output;
    CliResult unknown = run_cli(explore + " --report xml=" + dir + "/x.xml");
    EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
    EXPECT_NE(unknown.output.find("--report xml=" + dir +
                                  "/x.xml: explore writes json=FILE or "
                                  "junit=FILE\n"),
              std::string::npos)
        << unknown.output;
    CliResult over = run_cli(explore + " --report junit=" + queue);
    EXPECT_EQ(over.exit_code, 2) << over.output;
    EXPECT_NE(over.output.find("name one file"), std::string::npos) << over.output;
    CliResult twice = run_cli(explore + " --json " + dir + "/a --report json=" + dir + "/a");
    EXPECT_EQ(twice.exit_code, 2) << twice.output;
    EXPECT_NE(twice.output.find("name one file"), std::string::npos) << twice.output;
    EXPECT_EQ(html.output.find("schedules run"), std::string::npos) << html.output;
    EXPECT_EQ(over.output.find("exhaustive search of"), std::string::npos) << over.output;
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/x.html"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/x.xml"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/a"));
  EXPECT_EQ(read_file(queue).rfind("recipe = ", 0), 0u);
}

}  // namespace
}  // namespace contend::testing
