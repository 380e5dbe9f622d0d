// The `contend` command line: tuple, check, run and replay as a user runs them — outputs, exit
// codes, and a clear message (never a crash) for every kind of bad input.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "base/sanitizers.h"
#include "tests/support/run_cli.h"

namespace contend::testing {
namespace {

TEST(CliTuple, PackAndUnpackRoundTrip) {
  CliResult packed = run_cli(
      "tuple pack " +
      shell_quote(
          R"(["Q", 1, -1, 3.5, null, true, {"bytes": "00ff"}, [2, null], {"uuid": "00112233-4455-6677-8899-aabbccddeeff"}, {"versionstamp": "0102030405060708090a", "user_version": 7}, 18446744073709551615, -9223372036854775808, {"float": 1.5}])"));
  ASSERT_EQ(packed.exit_code, 0) << packed.output;
  std::string hex = packed.output.substr(0, packed.output.find('\n'));
  CliResult unpacked = run_cli("tuple unpack " + hex);
  ASSERT_EQ(unpacked.exit_code, 0) << unpacked.output;
  EXPECT_EQ(
      unpacked.output,
      R"(["Q",1,-1,3.5,null,true,{"bytes":"00ff"},[2,null],{"uuid":"00112233-4455-6677-8899-aabbccddeeff"},{"user_version":7,"versionstamp":"0102030405060708090a"},18446744073709551615,-9223372036854775808,{"float":1.5}])"
      "\n");
}

// JSON numbers have no NaN or infinity: unpack names them as pack reads them, for floats as for
// doubles, so every key's JSON packs back to the key (it printed {"float":null} for +inf).
TEST(CliTuple, NonFiniteFloatsAndDoublesRoundTrip) {
  const std::string json =
      R"([{"float":"inf"},{"float":"-inf"},{"float":"nan"},{"double":"inf"},{"double":"nan"}])";
  CliResult packed = run_cli("tuple pack " + shell_quote(json));
  ASSERT_EQ(packed.exit_code, 0) << packed.output;
  EXPECT_EQ(packed.output, "20ff80000020007fffff20ffc0000021fff000000000000021fff8000000000000\n");
  CliResult unpacked = run_cli("tuple unpack " + packed.output.substr(0, packed.output.find('\n')));
  EXPECT_EQ(unpacked.output, json + "\n");
}

TEST(CliTuple, PackPrintsFoundationDBBytes) {
  CliResult r =
      run_cli("tuple pack " + shell_quote(R"([null, true, false, 0, 1, -1, 255, -255, 256])"));
  EXPECT_EQ(r.output, "00272614150113fe15ff1300160100\n");
}

struct BadInput {
  std::string args;
  std::string words;
};

TEST(CliTuple, BadInputGetsAMessageAndExitCodeTwo) {
  const BadInput cases[] = {
      {"tuple pack " + shell_quote("[1, 2"), "not valid JSON"},
      {"tuple pack " + shell_quote(R"({"a": 1})"), "expected a JSON array"},
      {"tuple pack " + shell_quote(R"([{"colour": "red"}])"), "element 0: unknown object form"},
      {"tuple pack " + shell_quote(R"([{"bytes": "0g"}])"), "not a hex digit at offset 1"},
      {"tuple pack " + shell_quote(R"([{"uuid": "1234"}])"), "canonical"},
      // Integer literals past int64 and uint64 were packed as doubles, floats past their range
      // converted with undefined behaviour (to infinity here).
      {"tuple pack " + shell_quote("[18446744073709551616]"),
       "the integer 18446744073709551616 is outside int64 and uint64"},
      {"tuple pack " + shell_quote("[1, [-9223372036854775809]]"),
       "the integer -9223372036854775809 is outside int64 and uint64"},
      {"tuple pack " + shell_quote(R"([{"float": 1e39}])"),
       "element 0: \"float\" 1e+39 is beyond a 32-bit float's range (magnitude at most "
       "3.4028234663852886e+38)"},
      // A nonzero number below a double's (or a float's) smallest magnitude packed as 0, and a
      // number past a double's range was "not valid JSON" with no reason.
      {"tuple pack " + shell_quote("[1, 1e-400]"),
       "the number 1e-400 is below a double's smallest magnitude (5e-324)"},
      {"tuple pack " + shell_quote(R"([{"float": 1e-50}])"),
       "element 0: \"float\" 1e-50 is below a 32-bit float's smallest magnitude"},
      {"tuple pack " + shell_quote("[1e400]"), "not valid JSON (number overflow parsing '1e400')"},
      {"tuple pack " + shell_quote(R"([{"float": "x"}])"),
       "element 0: \"float\" must be a number, \"nan\", \"inf\" or \"-inf\""},
      {"tuple unpack 123", "odd number of digits"},
      {"tuple unpack zz", "not a hex digit at offset 0"},
      {"tuple unpack 1601", "byte 0: truncated integer"},
      {"tuple unpack 02c32800", "byte 0: invalid UTF-8"},
      {"tuple unpack 1440", "byte 1: unknown type code 0x40"},
      {"tuple unpack 0514", "byte 0: unterminated nested tuple"},
      {"tuple unpack 1d09010000000000000000", "wider than 64 bits"},
      {"tuple frobnicate", ""},
  };
  for (const BadInput& c : cases) {
    CliResult r = run_cli(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.words), std::string::npos) << c.args << "\n" << r.output;
  }
}

struct HistoryCase {
  const char* file;
  const char* model;
  int exit_code;
  const char* verdict;
};

TEST(CliCheck, ExampleHistoriesGetTheirVerdicts) {
  const HistoryCase cases[] = {
      {"clean-fifo.jsonl", "fifo", 0, "verdict: linearizable"},
      {"clean-priority.jsonl", "priority", 0, "verdict: linearizable"},
      {"info-linearizable.jsonl", "fifo", 0, "verdict: linearizable"},
      {"value-from-nowhere.jsonl", "fifo", 1, "verdict: violation: value_from_nowhere"},
      {"duplicate-delivery.jsonl", "fifo", 1, "verdict: violation: duplicate_delivery"},
      {"order-inversion.jsonl", "fifo", 1, "verdict: violation: order_inversion"},
      {"empty-while-nonempty.jsonl", "fifo", 1, "verdict: violation: empty_while_nonempty"},
      {"lost.jsonl", "fifo", 1, "verdict: violation: lost"},
      {"priority-inversion.jsonl", "priority", 1, "verdict: violation: priority_inversion"},
      {"malformed.jsonl", "fifo", 2, "line 2: field \"type\""},
  };
  for (const HistoryCase& c : cases) {
    for (const char* checker : {"fast", "all"}) {
      CliResult r =
          run_cli("check " + source_path(std::string("docs/examples/histories/") + c.file) +
                  " --model " + c.model + " --checker " + checker);
      EXPECT_EQ(r.exit_code, c.exit_code) << c.file << " " << checker << "\n" << r.output;
      EXPECT_NE(r.output.find(c.verdict), std::string::npos) << c.file << "\n" << r.output;
    }
  }
}

// "-" reads the history from standard input, as a converter's output is piped in: the same
// verdicts and exit codes as from the file, and bad input names "-" and the line.
TEST(CliCheck, ADashReadsTheHistoryFromStandardInput) {
  const HistoryCase cases[] = {
      {"clean-fifo.jsonl", "fifo", 0, "verdict: linearizable"},
      {"lost.jsonl", "fifo", 1, "verdict: violation: lost"},
      {"malformed.jsonl", "fifo", 2, "contend check: -: line 2: field \"type\""},
  };
  for (const HistoryCase& c : cases) {
    const std::string file = source_path(std::string("docs/examples/histories/") + c.file);
    CliResult piped = run_cli("check - --model " + std::string(c.model) + " < " + file);
    EXPECT_EQ(piped.exit_code, c.exit_code) << c.file << "\n" << piped.output;
    EXPECT_NE(piped.output.find(c.verdict), std::string::npos) << c.file << "\n" << piped.output;
  }
}

// An empty history passed as linearizable (exit 0), so a pipeline whose converter failed passed:
// `false | contend check - --model fifo`.
TEST(CliCheck, AHistoryWithoutAnEventIsRefused) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "/empty.jsonl") << "";
  std::ofstream(dir + "/blank.jsonl") << "\n\n";
  for (const std::string& input : {"check " + dir + "/empty.jsonl --model fifo",
                                   "check " + dir + "/blank.jsonl --model priority --json",
                                   std::string("check - --model fifo < /dev/null")}) {
    CliResult r = run_cli(input);
    EXPECT_EQ(r.exit_code, 2) << input << "\n" << r.output;
    EXPECT_NE(r.output.find("no event: there is nothing to check"), std::string::npos)
        << input << "\n"
        << r.output;
  }
}

// A line past its bound was read whole, up to the file's bound of 1 GiB, before it was refused:
// it is refused once kHistoryLineBytesMax (1 MiB) of it is read, naming the file, the line and
// the bound (here a sparse file of one 64 MiB line of NUL bytes, after an event).
TEST(CliCheck, ALineLongerThanItsBoundIsRefusedNamingTheLineAndTheBound) {
  const std::string path = ::testing::TempDir() + "/long-line.jsonl";
  std::ofstream(path) << R"({"type": "invoke", "process": 0, "time": 0, "f": "dequeue"})"
                      << "\n";
  std::filesystem::resize_file(path, std::filesystem::file_size(path) + (64 << 20));
  for (const std::string& input :
       {"check " + path + " --model fifo", "check - --model fifo --json < " + path}) {
    CliResult r = run_cli(input);
    EXPECT_EQ(r.exit_code, 2) << input << "\n" << r.output;
    EXPECT_NE(r.output.find("line 2: longer than 1 MiB, the most contend reads of one event"),
              std::string::npos)
        << input << "\n"
        << r.output.substr(0, 500);
  }
  std::filesystem::remove(path);
}

// The search out of budget said so, but not how to give it more.
TEST(CliCheck, TheSearchAloneSaysUnknownWithExitCodeThreeWhenOutOfBudgetNamingTheRemedy) {
  const std::string history = source_path("docs/examples/histories/clean-fifo.jsonl");
  CliResult r = run_cli("check " + history + " --model fifo --checker search --budget 1");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("the search spent its whole budget of 1 step: --budget N gives it more"),
            std::string::npos)
      << r.output;
  // Beside a fast checker that decided the history, the search's budget is not the verdict's.
  CliResult all = run_cli("check " + history + " --model fifo --checker all --budget 1");
  EXPECT_EQ(all.exit_code, 0) << all.output;
  EXPECT_EQ(all.output.find("--budget N"), std::string::npos) << all.output;
}

// --budget bounds the search alone: `check --checker fast --budget 1` (or --budget with the fast
// checker by default) ran the fast checker and passed the flag over in silence, exit 0. It is
// refused, naming the checkers it bounds; with search or all it is taken as before.
TEST(CliCheck, ABudgetGivenToTheFastCheckerIsRefusedNamingTheCheckersItBounds) {
  const std::string history = source_path("docs/examples/histories/clean-fifo.jsonl");
  const std::string said =
      "--budget bounds the search checker (--checker search or all), and this check is "
      "--checker fast";
  CliResult fast = run_cli("check " + history + " --model fifo --checker fast --budget 1");
  EXPECT_EQ(fast.exit_code, 2) << fast.output;
  EXPECT_NE(fast.output.find(history + ": " + said + ", which has no budget"), std::string::npos)
      << fast.output;
  CliResult by_default = run_cli("check " + history + " --model fifo --budget 1 --json");
  EXPECT_EQ(by_default.exit_code, 2) << by_default.output;
  EXPECT_EQ(nlohmann::json::parse(by_default.output)["error"],
            said + " (the default), which has no budget");
  EXPECT_EQ(run_cli("check " + history + " --model fifo --checker fast").exit_code, 0);
  EXPECT_EQ(run_cli("check " + history + " --model fifo --checker search --budget 1").exit_code, 3);
}

std::string example_history(const std::string& name) {
  return source_path("docs/examples/histories/" + name);
}

TEST(CliCheck, TextOutputListsTheOperationsInvolved) {
  CliResult r = run_cli("check " + example_history("relay-empty.jsonl") + " --model fifo");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("operations involved:\n"), std::string::npos) << r.output;
  EXPECT_NE(
      r.output.find("  events 2..7       time 30..80           dequeue -> empty  [process 2]"),
      std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("  events 3..4       time 40..50           enqueue 'b'  [process 0]"),
            std::string::npos)
      << r.output;
}

TEST(CliCheck, JsonOutputCarriesEveryVerdictTheAccountingAndTheExitCode) {
  CliResult r = run_cli("check " + example_history("relay-empty.jsonl") +
                        " --model fifo --checker all --json");
  ASSERT_EQ(r.exit_code, 1) << r.output;
  nlohmann::json j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["model"], "fifo");
  EXPECT_EQ(j["exit_code"], 1);
  EXPECT_EQ(j["disagreement"], false);
  EXPECT_EQ(j["verdict"]["kind"], "violation");
  EXPECT_EQ(j["verdict"]["violation"], "empty_while_nonempty");
  EXPECT_EQ(j["verdict"]["checker"], "fast");
  EXPECT_EQ(j["verdict"]["events"], nlohmann::json::array({2, 0, 5, 3, 8}));
  ASSERT_EQ(j["verdicts"].size(), 3u);
  const nlohmann::json& search = j["verdicts"][1];
  EXPECT_EQ(search["checker"], "search");
  EXPECT_EQ(search["violation"], "not_linearizable");
  EXPECT_EQ(search["longest_prefix"], nlohmann::json::array({0, 3, 5}));
  EXPECT_EQ(search["stuck"], nlohmann::json::array({2}));
  EXPECT_EQ(j["verdicts"][2]["checker"], "accounting");
  EXPECT_EQ(j["accounting"]["removed"], 2);
  EXPECT_EQ(j["accounting"]["drained"], false);

  CliResult clean = run_cli("check " + example_history("clean-fifo.jsonl") + " --json");
  ASSERT_EQ(clean.exit_code, 0) << clean.output;
  nlohmann::json c = nlohmann::json::parse(clean.output);
  EXPECT_EQ(c["verdict"]["kind"], "linearizable");
  EXPECT_EQ(c["verdict"]["exact"], true);
}

// `--report json=FILE` writes the object `--json` prints while the text stays on stdout, as
// `run --report json=FILE` does; bad input is written into it too once it names no other file.
TEST(CliCheck, AJsonReportHoldsWhatJsonPrintsBesideTheText) {
  const std::string history = example_history("relay-empty.jsonl");
  const std::string report = ::testing::TempDir() + "/check-report.json";
  std::filesystem::remove(report);
  CliResult printed = run_cli("check " + history + " --model fifo --checker all --json");
  CliResult r = run_cli("check " + history + " --model fifo --checker all --report json=" + report);
  ASSERT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("verdict: violation: empty_while_nonempty\n"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("wrote json report " + report), std::string::npos) << r.output;
  EXPECT_EQ(read_file(report), printed.output);

  const std::string bad = ::testing::TempDir() + "/check-bad.jsonl";
  std::ofstream(bad) << "{\"process\": 0}\n";
  CliResult refused = run_cli("check " + bad + " --report json=" + report);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  nlohmann::json j = nlohmann::json::parse(read_file(report));
  EXPECT_EQ(j["exit_code"], 2);
  EXPECT_EQ(j["file"], bad);
  EXPECT_NE(j["error"].get<std::string>().find("line 1"), std::string::npos) << j.dump();

  // The history named as the report is refused before anything is written over it.
  const std::string kept = read_file(bad);
  CliResult twice = run_cli("check " + bad + " --report json=" + bad);
  EXPECT_EQ(twice.exit_code, 2) << twice.output;
  EXPECT_NE(twice.output.find("name one file"), std::string::npos) << twice.output;
  EXPECT_EQ(read_file(bad), kept);
  CliResult junit = run_cli("check " + history + " --report junit=" + report);
  EXPECT_EQ(junit.exit_code, 2) << junit.output;
  EXPECT_NE(junit.output.find("check writes html=FILE or json=FILE"), std::string::npos)
      << junit.output;
}

TEST(CliCheck, DrainedMakesANeverRemovedValueLost) {
  CliResult open = run_cli("check " + example_history("never-removed.jsonl") + " --checker all");
  EXPECT_EQ(open.exit_code, 0) << open.output;
  EXPECT_NE(open.output.find("(not drained: cannot be counted)"), std::string::npos);
  CliResult drained =
      run_cli("check " + example_history("never-removed.jsonl") + " --checker all --drained");
  EXPECT_EQ(drained.exit_code, 1) << drained.output;
  EXPECT_NE(drained.output.find("verdict: violation: lost"), std::string::npos);
  EXPECT_NE(drained.output.find("  lost                          1  'b'"), std::string::npos)
      << drained.output;
}

TEST(CliCheck, EqualTimesAreConcurrentUnlessTheEventOrderIsTrusted) {
  for (const char* checker : {"fast", "search", "all"}) {
    const std::string args =
        "check " + example_history("equal-times.jsonl") + " --checker " + checker;
    CliResult concurrent = run_cli(args);
    EXPECT_EQ(concurrent.exit_code, 0) << checker << "\n" << concurrent.output;
    CliResult ordered = run_cli(args + " --event-order");
    EXPECT_EQ(ordered.exit_code, 1) << checker << "\n" << ordered.output;
  }
}

TEST(CliCheck, AnOperationTheModelLacksIsBadInputNamingItsLine) {
  const std::string args = "check " + example_history("lost.jsonl") + " --model priority";
  CliResult text = run_cli(args);
  EXPECT_EQ(text.exit_code, 2) << text.output;
  EXPECT_NE(text.output.find("lost.jsonl: line 1: field \"f\": enqueue is not an operation of the "
                             "priority model"),
            std::string::npos)
      << text.output;
  CliResult json = run_cli(args + " --json");
  EXPECT_EQ(json.exit_code, 2) << json.output;
  nlohmann::json j = nlohmann::json::parse(json.output);
  EXPECT_EQ(j["exit_code"], 2);
  EXPECT_NE(j["error"].get<std::string>().find("line 1: field \"f\""), std::string::npos);
}

TEST(CliCheck, RepeatedValuesLeaveTheFastCheckerUnknownWithExitCodeThree) {
  const std::string path = ::testing::TempDir() + "/repeated-values.jsonl";
  {
    std::ofstream out(path);
    const char* events[][4] = {
        {"invoke", "0", "enqueue", "\"a\""}, {"ok", "0", "enqueue", "\"a\""},
        {"invoke", "0", "enqueue", "\"a\""}, {"ok", "0", "enqueue", "\"a\""},
        {"invoke", "1", "dequeue", "null"},  {"ok", "1", "dequeue", "\"a\""}};
    int index = 0;
    for (const auto& e : events) {
      out << "{\"index\": " << index << ", \"type\": \"" << e[0] << "\", \"process\": " << e[1]
          << ", \"time\": " << index << ", \"f\": \"" << e[2] << "\", \"value\": " << e[3] << "}\n";
      ++index;
    }
  }
  CliResult fast = run_cli("check " + path);
  EXPECT_EQ(fast.exit_code, 3) << fast.output;
  EXPECT_NE(fast.output.find("values are not unique"), std::string::npos) << fast.output;
  CliResult all = run_cli("check " + path + " --checker all");
  EXPECT_EQ(all.exit_code, 0) << all.output;
}

TEST(CliRun, AShippedScenarioRunsAndExitsZeroWhenAsExpected) {
  CliResult r = run_cli("run " + source_path("scenarios/queue.toml") + " --seeds 1..3");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("as expected: every seed is linearizable"), std::string::npos)
      << r.output;
  CliResult bug =
      run_cli("run " + source_path("scenarios/first-cut-queue.toml") + " --seeds 1..20");
  EXPECT_EQ(bug.exit_code, 0) << bug.output;
  EXPECT_NE(bug.output.find("contend replay"), std::string::npos) << bug.output;
}

TEST(CliRun, AnUnexpectedVerdictExitsOneWithTheReproductionCommand) {
  std::string path = ::testing::TempDir() + "/expects-clean.toml";
  std::ofstream(path)
      << "recipe = \"snapshot-dequeue-queue\"\nclients = 6\noperations_per_client = 10\n"
         "[seeds]\nfirst = 1\nlast = 20\n";
  CliResult r = run_cli("run " + path);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("UNEXPECTED"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("reproduce: contend replay " + path + " --seed"), std::string::npos)
      << r.output;
}

// Runs stopped at their step bound are no pass, for `run` and for every `explore` strategy: exit 3
// (unknown), naming the limit; before, `run` and `explore --strategy random|dfs` exited 0 with
// "as expected: every seed is linearizable" for the recipe known to lose items, and dpor said
// VERIFIED (while its --json said unknown and it exited 3).
TEST(CliRun, RunsStoppedAtTheirStepBoundAreUnknownNotAPass) {
  const std::string path = ::testing::TempDir() + "/stopped-at-max-steps.toml";
  std::ofstream(path) << "recipe = \"first-cut-queue\"\nclients = 2\noperations_per_client = 2\n"
                         "expect = \"linearizable\"\n[limits]\nmax_steps = 4\n";
  for (const char* command :
       {"run {} --seeds 1..10", "explore {} --strategy random --schedules 5",
        "explore {} --strategy dfs --schedules 50", "explore {} --strategy dpor --plans seed"}) {
    std::string args = command;
    args.replace(args.find("{}"), 2, path);
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 3) << args << "\n" << r.output;
    EXPECT_NE(r.output.find("max_steps = 4"), std::string::npos) << args << "\n" << r.output;
    EXPECT_EQ(r.output.find("as expected"), std::string::npos) << args << "\n" << r.output;
    EXPECT_EQ(r.output.find("\nVERIFIED"), std::string::npos) << args << "\n" << r.output;
  }
}

// The text after `reproduce: ` up to the end of its line ("" when there is none).
std::string reproduction_in(const std::string& output) {
  const auto at = output.find("reproduce: contend ");
  if (at == std::string::npos) return "";
  const auto from = at + std::string("reproduce: contend ").size();
  return output.substr(from, output.find_first_of(";\n", from) - from);
}

// Every command printed to reproduce a finding names its files as the shell reads them back: a
// scenario at "/tmp/my dir/it's q.toml" printed `contend replay /tmp/my dir/it's q.toml --seed 2`,
// which split at the space and opened a quote at the "'" when pasted. Each command printed (run's
// text, its JSON and JUnit reports, the shrunk counterexample, explore's) runs as pasted.
TEST(CliRun, AReproductionCommandRunsAsPastedForAPathWithASpaceOrAQuote) {
  namespace fs = std::filesystem;
  const std::string dir = ::testing::TempDir() + "/my dir";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string file = dir + "/it's q.toml";
  std::ofstream(file) << "recipe = \"first-cut-queue\"\nclients = 2\noperations_per_client = 2\n"
                         "expect = \"linearizable\"\n";
  const std::string quoted = "'" + ::testing::TempDir() + "/my dir/it'\\''s q.toml'";
  const CliResult r = run_cli("run " + shell_quote(file) + " --seeds 1..20 --report " +
                              shell_quote("json=" + dir + "/r.json") + " --report " +
                              shell_quote("junit=" + dir + "/j.xml"));
  ASSERT_EQ(r.exit_code, 1) << r.output;
  const std::string unexpected = reproduction_in(r.output);
  EXPECT_TRUE(unexpected.starts_with("replay " + quoted + " --seed ")) << r.output;
  EXPECT_NE(
      r.output.find("replayed with: contend replay 'DIR/it'\\''s q-counterexample.toml' --seed"),
      std::string::npos)
      << r.output;
  const CliResult written =
      run_cli("run " + shell_quote(file) + " --seeds 1..20 --out " + shell_quote(dir));
  const std::string shrunk = reproduction_in(written.output);
  EXPECT_TRUE(shrunk.starts_with("replay '")) << written.output;
  const nlohmann::json report = nlohmann::json::parse(read_file(dir + "/r.json"));
  EXPECT_EQ(report["runs"][0]["reproduce"], "contend replay " + quoted + " --seed 1");
  EXPECT_NE(read_file(dir + "/j.xml").find("contend replay " + quoted), std::string::npos);
  const CliResult found =
      run_cli("explore " + shell_quote(file) + " --strategy dpor --out " + shell_quote(dir));
  const std::string explored = reproduction_in(found.output);
  EXPECT_TRUE(explored.starts_with("replay '")) << found.output;
  for (const std::string& pasted : {unexpected, shrunk, explored}) {
    const CliResult replayed = run_cli(pasted);  // 1 for the file expecting none, else 0
    EXPECT_LE(replayed.exit_code, 1) << pasted << "\n" << replayed.output;
    EXPECT_NE(replayed.output.find("verdict: violation"), std::string::npos) << pasted << "\n"
                                                                             << replayed.output;
  }
}

// A relative path that begins with '-' (run as `contend run -- -lost.toml`) was printed bare, and
// a pasted `contend replay -lost.toml` read it as an option; the determinism check's fresh process
// was started so too, and failed.
TEST(CliRun, AReproductionCommandOfAPathBeginningWithADashNamesItFromTheCurrentDirectory) {
  const std::string dir = ::testing::TempDir() + "/dash-path";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/-lost.toml") << "recipe = \"first-cut-queue\"\nclients = 2\n"
                                        "operations_per_client = 2\nexpect = \"linearizable\"\n";
  const CliResult r = run_cli_in(dir, "run --seeds 1..20 --no-shrink -- -lost.toml");
  ASSERT_EQ(r.exit_code, 1) << r.output;
  const std::string pasted = reproduction_in(r.output);
  EXPECT_TRUE(pasted.starts_with("replay ./-lost.toml --seed ")) << r.output;
  const CliResult replayed = run_cli_in(dir, pasted);
  EXPECT_NE(replayed.output.find("verdict: violation"), std::string::npos) << pasted << "\n"
                                                                           << replayed.output;
  std::ofstream(dir + "/-clean.toml") << "recipe = \"queue\"\nclients = 2\n"
                                         "operations_per_client = 2\n";
  const CliResult checked =
      run_cli_in(dir, "run --seeds 1..3 --check-determinism=100 -- -clean.toml");
  EXPECT_EQ(checked.exit_code, 0) << checked.output;
  EXPECT_NE(checked.output.find("also in a fresh process: identical"), std::string::npos)
      << checked.output;
}

TEST(CliRun, ClientsAndOperationsRunTheScopeAndItsReproductionsRepeatThem) {
  const std::string dir = ::testing::TempDir() + "/scoped-run";
  std::filesystem::create_directories(dir);
  const std::string file = source_path("scenarios/first-cut-queue.toml");
  CliResult r =
      run_cli("run " + file + " --clients 3 --operations 2 --seeds 1..30 --report json=" + dir +
              "/scoped.json --check-determinism=10");
  ASSERT_EQ(r.exit_code, 0) << r.output;  // first-cut-queue expects its violation
  EXPECT_NE(r.output.find("3 clients x 2 operations"), std::string::npos) << r.output;
  // The fresh process reran the seed at the same scope: a different scope differs in run hash.
  EXPECT_NE(r.output.find("also in a fresh process: identical"), std::string::npos) << r.output;
  const std::string again = reproduction_in(r.output);
  ASSERT_NE(again.find("--clients 3 --operations 2 --seed "), std::string::npos) << r.output;
  CliResult replay = run_cli(again + " --quiet");
  EXPECT_EQ(replay.exit_code, 0) << replay.output;
  EXPECT_NE(replay.output.find("3 clients x 2 operations"), std::string::npos) << replay.output;
  EXPECT_NE(replay.output.find("verdict: violation"), std::string::npos) << replay.output;
  const nlohmann::json report = nlohmann::json::parse(read_file(dir + "/scoped.json"));
  EXPECT_EQ(report.at("clients"), 3);
  EXPECT_EQ(report.at("operations_per_client"), 2);
  EXPECT_NE(report.at("runs").at(0).at("reproduce").get<std::string>().find("--clients 3"),
            std::string::npos);
  // Shards of two scopes are not one run.
  ASSERT_EQ(
      run_cli("run " + file + " --seeds 1..30 --report json=" + dir + "/whole.json").exit_code, 0);
  CliResult merged = run_cli("merge " + dir + "/scoped.json " + dir + "/whole.json");
  EXPECT_EQ(merged.exit_code, 2) << merged.output;
  EXPECT_NE(merged.output.find("different scenario, scope or seed range"), std::string::npos)
      << merged.output;
  std::ofstream(dir + "/planned.toml") << "recipe = \"queue\"\nplan = [[\"enqueue\"]]\n";
  CliResult planned = run_cli("run " + dir + "/planned.toml --clients 2");
  EXPECT_EQ(planned.exit_code, 2) << planned.output;
  EXPECT_NE(planned.output.find("cannot resize a scenario with a plan"), std::string::npos)
      << planned.output;
  EXPECT_EQ(run_cli("replay " + file + " --seed 1 --operations 0").exit_code, 2);
  // A scope set on the command line is judged as a file's: too many operations for one run.
  for (const char* verb : {"run", "replay", "explore"}) {
    CliResult big =
        run_cli(std::string(verb) + " " + file + " --seed 1 --clients 1024 --operations 1000000");
    EXPECT_EQ(big.exit_code, 2) << verb << "\n" << big.output;
    EXPECT_NE(big.output.find("1024 x 1000000 = 1024000000 operations in one run (set by "
                              "--clients 1024 --operations 1000000), more than a run holds"),
              std::string::npos)
        << verb << "\n"
        << big.output;
  }
}

TEST(CliSweep, APointThatCannotRunIsRefusedBeforeAnyRunNamingIt) {
  const std::string dir = ::testing::TempDir() + "/sweep-refusals";
  std::filesystem::create_directories(dir);
  const std::string queue = source_path("scenarios/queue.toml");
  std::ofstream(dir + "/planned.toml")
      << "recipe = \"queue\"\nplan = [[\"enqueue\", \"dequeue\"], [\"dequeue\"]]\n";
  struct Case {
    std::string args;
    std::string message;
  };
  const Case cases[] = {
      // Each value fits alone; together they are more operations than a run holds.
      {"sweep " + queue + " --vary clients=2,1024 --vary operations_per_client=10,1000000",
       "contend sweep: the grid point clients=1024, operations_per_client=1000000: " + queue +
           ": clients x operations_per_client: 1024 x 1000000"},
      {"sweep " + queue + " --vary clients=5000", "--vary clients=5000: not a count in [1, 1024]"},
      // A plan decides its clients and operations: resizing it read past its arrays.
      {"sweep " + dir + "/planned.toml --vary clients=1,5",
       "--vary clients=1: " + dir +
           "/planned.toml: plan: a scenario with a plan cannot be resized"},
      {"sweep " + dir + "/planned.toml --vary operations_per_client=7",
       "a scenario with a plan cannot be resized"},
      // The second --vary set what the first did, under two columns of one name.
      {"sweep " + queue + " --vary clients=1 --vary clients=2",
       "--vary clients=2: clients is already varied; give its values in one --vary"},
      // "nan" passes every comparison: it ran as a probability.
      {"sweep " + queue + " --vary faults.not_committed=0.1,nan",
       "--vary faults.not_committed=nan: expected a probability in [0, 1]"},
  };
  for (const Case& c : cases) {
    CliResult r = run_cli(c.args + " --seeds 1..2");
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << "\n" << r.output;
    EXPECT_EQ(r.output.find("ops/vsec"), std::string::npos) << "a point ran: " << c.args;
  }
}

// Every --vary multiplies the grid: a grid of millions of points was checked point by point for
// minutes before anything was printed. Past kSweepPointsMax it is refused with its count at once.
TEST(CliSweep, AGridOfMoreThanItsBoundIsRefusedGivingItsCount) {
  std::string clients = "clients=1";
  for (int c = 2; c <= 1024; ++c)
    clients += "," + std::to_string(c);
  // The last value makes some points unable to run: the grid's size is judged before them.
  std::string operations = "operations_per_client=1";
  for (int n = 2; n <= 98; ++n)
    operations += "," + std::to_string(n);
  operations += ",1000000";
  CliResult r = run_cli("sweep " + source_path("scenarios/queue.toml") + " --vary " + clients +
                        " --vary " + operations + " --seeds 1..1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("contend sweep: the grid has 1024 x 99 = 101376 points, more than a "
                          "sweep runs (100000)"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("ops/vsec"), std::string::npos) << r.output;
}

struct BadScenario {
  std::string text;
  const char* words;
};

// A dotted key of `parts` parts: a.a.a...
std::string dotted(int parts) {
  std::string key = "a";
  for (int i = 1; i < parts; ++i)
    key += ".a";
  return key;
}

TEST(CliRun, MalformedScenariosAreNamedByFileLineAndKey) {
  const BadScenario cases[] = {
      {"recipe = \"queue\"\nclinets = 4\n", ":2: clinets: unknown key (did you mean 'clients'?)"},
      {"clients = \"four\"\n", ":1: clients: expected an integer"},
      {"clients = 0\n", ":1: clients: value 0 out of range [1, 1024]"},
      {"[faults]\ncrash = 1.5\n", ":2: faults.crash: value 1.5 out of range [0, 1]"},
      {"expect = \"maybe\"\n",
       ":1: expect: 'maybe' is not linearizable, violation, or a violation kind"},
      {"recipe = \"quue\"\n", "unknown recipe 'quue'"},
      {"clients = [\n", "bad-6.toml:1: Error while parsing array"},
      // One of thousands of parts overflowed the stack inside toml::parse (exit 139).
      {"recipe = \"queue\"\n" + dotted(50'000) + " = 1\n",
       ":2: a dotted key of more than 16 parts (a scenario's keys have 2 at most)"},
      {"[" + dotted(50'000) + "]\n", ":1: a dotted key of more than 16 parts"},
      {"[\"a.b\".'c'.d . e . f . g . h . i . j . k . l . m . n . o . p . q . r]\n",
       ":1: a dotted key of more than 16 parts"},
      {"description = \"\"\"\n" + dotted(50'000) + "\"\"\"\n[faults]\ncrash = 1.5\n",
       ":4: faults.crash: value 1.5 out of range [0, 1]"},
      {"[seeds]\nfirst = 9\nlast = 3\n", ":3: seeds.last: must not be below seeds.first"},
      {"[strategy]\nname = \"bfs\"\n", ":2: strategy.name: 'bfs' is not one of"},
      {"[mix]\nenqueue = 0\ndequeue = 0\n", "needs a positive enqueue or dequeue weight"},
      // Each key in range, their product not: refused before a plan is drawn (it ran out of
      // memory drawing one).
      {"clients = 1000\noperations_per_client = 6000\n",
       ": clients x operations_per_client: 1000 x 6000 = 6000000 operations in one run, more than "
       "its [limits] max_steps (5000000)"},
      {"clients = 1024\noperations_per_client = 1000000\n[limits]\nmax_steps = 100000000000\n",
       "1024 x 1000000 = 1024000000 operations in one run, more than a run holds (10000000"},
      // A plan sets the scope; a key that disagrees was silently overruled (clients already
      // was refused).
      {"operations_per_client = 3\nplan = [[\"enqueue\"], [\"dequeue\"]]\n",
       ":1: operations_per_client: the plan's longest client has 1 operation(s), not 3"},
      {"clients = 3\nplan = [[\"enqueue\"], [\"dequeue\"]]\n",
       ":1: clients: the plan has 2 clients, not 3"},
      // No checker of the history: every seed passed as linearizable, judged by nothing.
      {"recipe = \"first-cut-queue\"\nchecks = []\n",
       ": checks: none of them judges the history, so no verdict could be reached"},
      {"checks = [\"serializability\"]\n", "(serializability judges the store alone)"},
      {"checks = [\"fast\", \"accounting\", \"fast\"]\n", ":1: checks: 'fast' is listed twice"},
      // No operation: a run judged nothing and passed, and explore "verified" first-cut-queue in
      // 0 executions.
      {"recipe = \"first-cut-queue\"\noperations_per_client = 0\ndrain = false\n",
       ":2: operations_per_client: value 0 out of range [1, 1000000]"},
      {"plan = [[]]\n", ":1: plan: no client has an operation: a run would judge nothing"},
      // A model of the other family judged operations the recipe never performs.
      {"recipe = \"priority-queue\"\nmodel = \"fifo\"\n",
       ": model: 'fifo' judges enqueue and dequeue, and priority-queue performs push, pop and "
       "peek: use priority or multiset"},
      {"recipe = \"queue\"\nmodel = \"priority\"\n", "'priority' judges push, pop and peek"},
      // A name is a file-name component (DIR/<name>-counterexample.toml): not a path.
      {"recipe = \"queue\"\nname = \"../escaped\"\n",
       ":2: name: '../escaped' holds '/'; a name is one plain file-name component"},
      // An empty or truncated file ran the default queue scenario and passed (exit 0).
      {"", ": holds no key: a scenario names its recipe at least"},
      {"# recipe = \"first-cut-queue\"\n\n", ": holds no key"},
  };
  int i = 0;
  for (const BadScenario& c : cases) {
    std::string path = ::testing::TempDir() + "/bad-" + std::to_string(i++) + ".toml";
    std::ofstream(path) << c.text;
    CliResult r = run_cli("run " + path);
    EXPECT_EQ(r.exit_code, 2) << c.text << "\n" << r.output;
    EXPECT_NE(r.output.find(c.words), std::string::npos) << c.text << "\n" << r.output;
  }
  CliResult missing = run_cli("run /nonexistent.toml");
  EXPECT_EQ(missing.exit_code, 2);
  CliResult null_device = run_cli("explore /dev/null");
  EXPECT_EQ(null_device.exit_code, 2) << null_device.output;
  EXPECT_NE(null_device.output.find("/dev/null: holds no key"), std::string::npos)
      << null_device.output;
  CliResult bad_seeds = run_cli("run " + source_path("scenarios/queue.toml") + " --seeds 9..3");
  EXPECT_EQ(bad_seeds.exit_code, 2);
  CliResult huge =
      run_cli("run " + source_path("scenarios/queue.toml") + " --seeds 0..9223372036854775807");
  EXPECT_EQ(huge.exit_code, 2);
  EXPECT_NE(huge.output.find("run it as several smaller ranges"), std::string::npos) << huge.output;
  EXPECT_NE(bad_seeds.output.find("--seeds: seed range '9..3' is empty"), std::string::npos)
      << bad_seeds.output;
}

// A value set that can never take effect ran as if it were not there (exit 0): the other family's
// mix weights, [priorities] beside a FIFO recipe or a plan, a mix beside a plan, pause_us while
// pause is 0, swarm while every knob is 0. Each is refused, naming the file, the line and the key.
TEST(CliRun, ScenarioKeysThatCanNeverTakeEffectAreRefused) {
  const BadScenario cases[] = {
      {"recipe = \"queue\"\n[mix]\nenqueue = 2\npush = 5\n",
       ":4: mix.push: queue is a FIFO recipe: it performs enqueue and dequeue, never push; remove "
       "it or use a priority recipe"},
      {"recipe = \"hc-queue\"\n[mix]\npeek_max = 1\n", ":3: mix.peek_max: hc-queue is a FIFO"},
      {"recipe = \"queue\"\n[priorities]\nmin = 1\nmax = 9\n",
       ":3: priorities.min: queue is a FIFO recipe: its items carry no priority"},
      {"recipe = \"priority-queue\"\n[mix]\npush = 2\ndequeue = 2\n",
       ":4: mix.dequeue: priority-queue is a priority recipe: it performs push, pop and peek, "
       "never "
       "dequeue; remove it or use a FIFO recipe"},
      {"recipe = \"queue\"\n[faults]\npause_us = 100\n",
       ":3: faults.pause_us: faults.pause is 0, so no step is ever paused; remove it or set "
       "faults.pause above 0"},
      {"recipe = \"queue\"\n[faults]\npause = 0.0\npause_us = 100\n", ":4: faults.pause_us:"},
      {"recipe = \"queue\"\n[faults]\nswarm = true\n",
       ":3: faults.swarm: every fault knob is 0, and swarm mode draws each knob within [0, its "
       "value], so it draws no fault; remove it or set a knob above 0"},
      {"recipe = \"queue\"\nplan = [[\"enqueue\"], [\"dequeue\"]]\n[mix]\nenqueue = 3\n",
       ":4: mix.enqueue: the plan fixes every client's operations, so none is drawn from the mix"},
      {"recipe = \"priority-queue\"\nplan = [[\"push:1\"], [\"pop_min\"]]\n[priorities]\nmax = 9\n",
       ":4: priorities.max: the plan gives each push its priority (push:<priority>), so none is "
       "drawn"},
  };
  int i = 0;
  for (const BadScenario& c : cases) {
    std::string path = ::testing::TempDir() + "/ignored-" + std::to_string(i++) + ".toml";
    std::ofstream(path) << c.text;
    CliResult r = run_cli("run " + path + " --seeds 1..2");
    EXPECT_EQ(r.exit_code, 2) << c.text << "\n" << r.output;
    EXPECT_NE(r.output.find(path + c.words), std::string::npos) << c.text << "\n" << r.output;
  }
  // Each key where it does take effect, strategy knobs of another strategy (explore --strategy
  // picks the strategy), and a key holding its default value where it has no effect (a file
  // written before to_toml left such keys out holds every one of them), load.
  const char* fine[] = {
      "recipe = \"queue\"\n[mix]\nenqueue = 1.0\ndequeue = 1.0\npush = 1.0\npop_min = 1.0\n"
      "peek_min = 0.0\npop_max = 0.0\npeek_max = 0.0\n[priorities]\nmin = 0\nmax = 3\n"
      "[faults]\npause = 0.0\npause_us = 6000000\nswarm = false\n",
      "recipe = \"queue\"\n[mix]\nenqueue = 2\ndequeue = 1\n",
      "recipe = \"priority-queue\"\n[mix]\npush = 2\n[priorities]\nmin = 1\nmax = 2\n",
      "recipe = \"queue\"\n[faults]\npause = 0.01\npause_us = 100\nswarm = true\n",
      "recipe = \"queue\"\n[faults]\ncrash = 0.01\nswarm = false\n",
      "recipe = \"queue\"\n[strategy]\nname = \"random\"\npct_depth = 5\n",
  };
  for (const char* text : fine) {
    std::string path = ::testing::TempDir() + "/applies-" + std::to_string(i++) + ".toml";
    std::ofstream(path) << text;
    CliResult r = run_cli("run " + path + " --seeds 1..2");
    EXPECT_EQ(r.exit_code, 0) << text << "\n" << r.output;
  }
}

// A sweep judges a key the file set over its grid: refused only when no grid point gives it
// effect, with the message `run` gives.
TEST(CliSweep, AKeySetIsRefusedOnlyWhenNoGridPointGivesItEffect) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "/sweep-pause.toml") << "recipe = \"queue\"\n[faults]\npause_us = 100\n";
  std::ofstream(dir + "/sweep-push.toml") << "recipe = \"queue\"\n[mix]\npush = 5\n";
  const std::string pause = dir + "/sweep-pause.toml", push = dir + "/sweep-push.toml";
  EXPECT_EQ(run_cli("sweep " + pause + " --vary faults.pause=0,0.1 --seeds 1..1").exit_code, 0);
  EXPECT_EQ(run_cli("sweep " + push + " --vary recipe=queue,priority-queue --seeds 1..1").exit_code,
            0);
  CliResult r = run_cli("sweep " + pause + " --vary faults.crash=0,0.1 --seeds 1..1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("contend sweep: " + pause + ":3: faults.pause_us: faults.pause is 0"),
            std::string::npos)
      << r.output;
  r = run_cli("sweep " + push + " --vary recipe=queue,hc-queue --seeds 1..1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(push + ":3: mix.push: queue is a FIFO recipe"), std::string::npos)
      << r.output;
}

// An expectation the scenario's model or checks can never report ran every seed and ended in a
// finding (exit 1), never in "as expected"; and the list of kinds left out one `expect` accepts.
TEST(CliRun, AnExpectationTheModelOrChecksCanNeverReportIsRefused) {
  const BadScenario cases[] = {
      {"recipe = \"queue\"\nexpect = \"priority_inversion\"\n",
       ": expect: no run could ever show 'priority_inversion': the fifo model does not judge "
       "priorities"},
      {"recipe = \"queue\"\nexpect = \"store_not_serializable\"\n",
       ": expect: no run could ever show 'store_not_serializable': only the serializability check "
       "reports it"},
      {"recipe = \"queue\"\nmodel = \"multiset\"\nexpect = \"order_inversion\"\n",
       "the multiset model does not judge FIFO order"},
      {"recipe = \"hc-queue\"\nmodel = \"multiset\"\nexpect = \"empty_while_nonempty\"\n",
       "the multiset model lets a remove answer empty at any time"},
      {"recipe = \"queue\"\nchecks = [\"fast\"]\nexpect = \"not_linearizable\"\n",
       "only the search reports it"},
      {"recipe = \"queue\"\nchecks = [\"search\"]\nexpect = \"lost\"\n",
       "only the fast checker and the accounting report it"},
      {"expect = \"maybe\"\n", "priority_inversion, not_linearizable, store_not_serializable)"},
  };
  int i = 0;
  for (const BadScenario& c : cases) {
    const std::string path = ::testing::TempDir() + "/never-" + std::to_string(i++) + ".toml";
    std::ofstream(path) << c.text;
    CliResult r = run_cli("run " + path + " --seeds 1..2");
    EXPECT_EQ(r.exit_code, 2) << c.text << "\n" << r.output;
    EXPECT_NE(r.output.find(c.words), std::string::npos) << c.text << "\n" << r.output;
    EXPECT_NE(r.output.find(path), std::string::npos) << c.text << "\n" << r.output;
  }
  // What the model and checks can report stays accepted.
  const std::string reachable = ::testing::TempDir() + "/reachable.toml";
  std::ofstream(reachable) << "recipe = \"queue\"\nchecks = [\"fast\", \"serializability\"]\n"
                              "expect = \"store_not_serializable\"\n";
  EXPECT_EQ(run_cli("run " + reachable + " --seeds 1..1").exit_code, 1);
}

// A seed past 2^63 - 1 ran, and the counterexample file it wrote could not be read back (TOML's
// integers are signed 64-bit): "'18446744073709551615' is not representable in 64 bits".
TEST(CliSeeds, EverySeedIsOneACounterexampleFileCanHold) {
  const std::string dir = ::testing::TempDir() + "/largest-seed";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string scenario = dir + "/fc.toml";
  std::ofstream(scenario) << "name = \"fc\"\nrecipe = \"first-cut-queue\"\n";
  const std::string largest = "9223372036854775807";
  for (const char* shrinking : {" --no-shrink", ""}) {
    CliResult r = run_cli("run " + scenario + " --seed " + largest + " --out " + dir + shrinking);
    ASSERT_EQ(r.exit_code, 1) << r.output;
    CliResult replayed = run_cli("run " + dir + "/fc-counterexample.toml");
    EXPECT_EQ(replayed.exit_code, 0) << shrinking << "\n" << replayed.output;
  }
  const std::string past = " is past the largest seed, 9223372036854775807";
  const std::pair<std::string, std::string> refused[] = {
      {"run " + scenario + " --seed 9223372036854775808",
       "--seed: seed 9223372036854775808" + past},
      {"run " + scenario + " --seeds 9223372036854775800..18446744073709551615",
       "seed 18446744073709551615" + past},
      {"replay " + scenario + " --seed 18446744073709551615", past},
      {"explore " + scenario + " --strategy random --seed 9223372036854775800 --schedules 100",
       "--seed 9223372036854775800 with --schedules 100: seed 9223372036854775800 + 99" + past},
  };
  for (const auto& [command, said] : refused) {
    CliResult r = run_cli(command);
    EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.output;
    EXPECT_NE(r.output.find(said), std::string::npos) << command << "\n" << r.output;
  }
}

// `--out DIR` writes a counterexample as DIR/<name>-counterexample.toml, and the name went into
// the path as written: "../escaped" wrote DIR/../escaped-counterexample.toml, outside DIR, and
// "sub/dir" failed to write only after the whole run. A name is one plain file-name component,
// refused before any run as another key's bad value is, naming the file, line and key.
TEST(CliRun, AScenarioNameIsOneFileNameComponentSoOutWritesOnlyIntoItsDirectory) {
  namespace fs = std::filesystem;
  const std::string dir = ::testing::TempDir() + "/scenario-names";
  fs::remove_all(dir);
  fs::create_directories(dir + "/out/sub");
  const std::string rule = "; a name is one plain file-name component";
  const std::pair<std::string, std::string> names[] = {
      {R"(../escaped)", "name: '../escaped' holds '/'" + rule},
      {R"(sub/dir)", "name: 'sub/dir' holds '/'" + rule},
      {R"(..\\escaped)", R"(name: '..\escaped' holds '\')" + rule},
      {R"(..)", "name: '..' names a directory" + rule},
      {R"(.)", "name: '.' names a directory" + rule},
      {R"(out\u0000put)", "name: it holds a NUL" + rule}};
  const std::string file = dir + "/named.toml";
  for (const auto& [name, said] : names) {
    std::ofstream(file, std::ios::trunc)
        << "name = \"" << name << "\"\nrecipe = \"first-cut-queue\"\n";
    for (const std::string& command : {"run " + file + " --seeds 1..20",
                                       "explore " + file + " --strategy dpor --operations 2"}) {
      CliResult r = run_cli(command + " --clients 2 --out " + dir + "/out");
      EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.output;
      EXPECT_NE(r.output.find(file + ":1: " + said), std::string::npos) << command << "\n"
                                                                        << r.output;
      EXPECT_EQ(r.output.find("wrote"), std::string::npos) << command << "\n" << r.output;
    }
  }
  std::vector<std::string> written;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file() && entry.path() != file) written.push_back(entry.path().string());
  EXPECT_EQ(written, std::vector<std::string>()) << "a refused name wrote a file";
  // A leading '-' is a file name like another.
  std::ofstream(file, std::ios::trunc) << "name = \"-dash\"\nrecipe = \"first-cut-queue\"\n";
  CliResult dash = run_cli("run " + file + " --seeds 1..20 --no-shrink --out " + dir + "/out");
  EXPECT_EQ(dash.exit_code, 1) << dash.output;
  EXPECT_TRUE(fs::exists(dir + "/out/-dash-counterexample.toml")) << dash.output;
}

// Every file an --out writes is judged when the command line is read: `explore --out /proc/self`
// searched, then said "cannot write" and exited 0; `sweep --out P` checked P.json alone, so with
// P.svg a directory it ran the whole grid, wrote P.csv and P.json, and only then exited 2.
TEST(CliOut, AnOutThatCannotBeWrittenIsRefusedBeforeAnyRun) {
  const std::string dir = ::testing::TempDir() + "/unwritable-out";
  std::filesystem::remove_all(dir);  // what an earlier run left
  std::filesystem::create_directories(dir + "/sweep.svg");
  const std::string queue = source_path("scenarios/queue.toml");
  struct Case {
    std::string args;
    std::string message;
  };
  const Case cases[] = {
      {"explore " + source_path("scenarios/snapshot-dequeue-queue.toml") +
           " --strategy pct --out /proc/self",
       "--out: cannot write into /proc/self: a file cannot be made in it"},
      {"run " + queue + " --seeds 1..1 --out /proc/self", "cannot write into /proc/self"},
      {"sweep " + queue + " --vary clients=1,2 --seeds 1..1 --out " + dir + "/sweep",
       "--out: cannot write " + dir + "/sweep.svg: it is a directory"},
  };
  for (const Case& c : cases) {
    CliResult r = run_cli(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << "\n" << r.output;
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/sweep.csv")) << "the sweep ran";
  EXPECT_FALSE(std::filesystem::exists(dir + "/sweep.json")) << "the sweep ran";
}

TEST(CliReplay, ExplainsEachConflictAndMatchesTheRunHash) {
  CliResult run = run_cli("run " + source_path("scenarios/queue.toml") + " --seed 4");
  CliResult replay = run_cli("replay " + source_path("scenarios/queue.toml") + " --seed 4");
  ASSERT_EQ(replay.exit_code, 0) << replay.output;
  EXPECT_NE(replay.output.find("not_committed: its read of"), std::string::npos) << replay.output;
  EXPECT_NE(replay.output.find("(step dequeue.first_item) met the write of"), std::string::npos);
  auto hash_of = [](const std::string& out) {
    auto at = out.find("run hash ");
    return at == std::string::npos ? std::string() : out.substr(at + 9, 16);
  };
  EXPECT_FALSE(hash_of(run.output).empty());
  EXPECT_EQ(hash_of(run.output), hash_of(replay.output)) << "replay must reproduce the run exactly";
}

// A write that fails late (a full disk) is reported as one that fails early: exit 2, the file
// named. Small outputs used to sit in the stream's buffer until it closed unchecked, so a JUnit
// file or a history vanished while the command exited 0.
// The --choices an exploration prints replay its violation; choices recorded elsewhere (one
// naming more candidates than its step has, or more of them than the run makes) were replayed as
// something else without a word, and a number past 2^32 ended in "contend: stoul".
TEST(CliReplay, ChoicesReplayTheirScheduleOrAreRefusedWhenTheyDoNotFit) {
  const std::string scenario = source_path("scenarios/snapshot-dequeue-queue.toml");
  CliResult explored = run_cli("explore " + scenario + " --strategy pct --schedules 300");
  const std::size_t at = explored.output.find("reproduce: contend replay ");
  ASSERT_NE(at, std::string::npos) << explored.output;
  const std::size_t args_at = at + std::string("reproduce: contend ").size();
  const std::string reproduce =
      explored.output.substr(args_at, explored.output.find('\n', at) - args_at);
  CliResult replayed = run_cli(reproduce + " --quiet");
  EXPECT_EQ(replayed.exit_code, 0) << reproduce << "\n" << replayed.output;
  EXPECT_NE(replayed.output.find("verdict: violation: duplicate_delivery"), std::string::npos)
      << replayed.output;
  const std::string queue = "replay " + source_path("scenarios/queue.toml") + " --seed 1 --quiet";
  std::string too_long = "--choices 0";
  for (int i = 0; i < 300; ++i)
    too_long += ",0";
  const std::pair<std::string, std::string> refusals[] = {
      {"--choices 0,0,0,7",
       "--choices does not fit this scenario and seed: choice 4 is 7, and that step has 4 "
       "candidate(s)"},
      {too_long + ",1", "the run made 89 choice(s) and the list has 302"},
      {"--choices 1,99999999999999999999",
       "--choices: item 2 ('99999999999999999999') is not a choice: an integer from 0 to "
       "4294967295"},
      {"--choices 1,,2", "item 2 ('') is not a choice"},
      {"--choices 1,2,", "item 3 ('') is not a choice"},  // before: replayed as 1,2
  };
  for (const auto& [choices, message] : refusals) {
    CliResult r = run_cli(queue + " " + choices);
    EXPECT_EQ(r.exit_code, 2) << choices << "\n" << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << choices << "\n" << r.output;
    EXPECT_EQ(r.output.find("verdict:"), std::string::npos) << choices;
  }
}

// A word that is no command was answered "A subcommand is required", as if none had been typed;
// a mistyped option was listed among "arguments not expected", without the one meant.
TEST(CliCommands, AMistypedCommandOrOptionIsNamedWithTheOneItWasLikelyMeantToBe) {
  const std::pair<std::string, std::string> refused[] = {
      {"rn scenario.toml",
       "contend: 'rn' is not a command (did you mean 'run'?); the commands "
       "are tuple, run, check, replay, explore, merge, sweep, serializable"},
      {"explor x", "'explor' is not a command (did you mean 'explore'?)"},
      {"bogus", "contend: 'bogus' is not a command; the commands are"},
      // CLI11 said "The following arguments were not expected: 5 --seeed".
      {"run " + source_path("scenarios/queue.toml") + " --seeed 5",
       "contend run: --seeed is not an option of run (did you mean --seed?); contend run --help "
       "lists them"},
      {"explore x.toml --stratgy=dpor",
       "--stratgy is not an option of explore (did you mean "
       "--strategy?)"},
      {"tuple unpack 0101 --xyzzy", "contend tuple unpack: --xyzzy is not an option of unpack; "},
  };
  for (const auto& [args, said] : refused) {
    CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find(said), std::string::npos) << args << "\n" << r.output;
  }
  CliResult none = run_cli("");
  EXPECT_EQ(none.exit_code, 2) << none.output;
  EXPECT_NE(none.output.find("A subcommand is required"), std::string::npos) << none.output;
  EXPECT_EQ(run_cli("--version").exit_code, 0);
}

TEST(CliNumbers, AFlagRunsWithTheNumberTypedOrRefusesIt) {
  // CLI11 alone read "010" as octal 8, wrapped "-3" into a seed, made 2^64 the largest seed and
  // let "nan" through a range check (an internal check then aborted the search).
  const std::string queue = source_path("scenarios/queue.toml") + " --clients 2 --operations 1";
  CliResult padded = run_cli("replay " + queue + " --seed 010 --quiet");
  CliResult plain = run_cli("replay " + queue + " --seed 10 --quiet");
  EXPECT_EQ(padded.exit_code, 0) << padded.output;
  EXPECT_NE(padded.output.find(" seed 10 "), std::string::npos) << padded.output;
  EXPECT_EQ(padded.output, plain.output);
  CliResult budget = run_cli("explore " + queue + " --strategy random --schedules 010");
  EXPECT_NE(budget.output.find("budget 10 schedules"), std::string::npos) << budget.output;
  struct Refusal {
    std::string args;
    std::string message;
  };
  const Refusal refusals[] = {
      {"replay " + queue + " --seed -3", "--seed: '-3' is not a seed: a whole number from 0 to "},
      {"replay " + queue + " --seed 18446744073709551616", "'18446744073709551616' is not a seed"},
      {"explore " + queue + " --strategy random --seed 0x5", "--seed: '0x5' is not a seed"},
      {"explore " + queue + " --strategy random --schedules 99999999999999999999",
       "--schedules: '99999999999999999999' is not a whole number from 1 to 9223372036854775807"},
      {"explore " + queue + " --strategy dpor --max-seconds nan",
       "--max-seconds: 'nan' is not a number from 0.001 to 1000000000"},
      {"explore " + queue + " --strategy dpor --max-seconds 0x1p3", "'0x1p3' is not a number"},
      {"run " + queue + " --seeds 1..2 --jobs 0x2", "--jobs: '0x2' is not a whole number from 1"},
      {"run " + queue + " --seeds 1..2 --clients 1e3", "--clients: '1e3' is not a whole number"},
  };
  for (const Refusal& r : refusals) {
    CliResult result = run_cli(r.args);
    EXPECT_EQ(result.exit_code, 2) << r.args << "\n" << result.output;
    EXPECT_NE(result.output.find(r.message), std::string::npos) << r.args << "\n" << result.output;
  }
}

// --jobs was bounded at 1..1024 in run and sweep but 1..256 in explore, for no reason either
// said: one bound (kJobsMax) for every command, said when it refuses.
TEST(CliNumbers, JobsHaveOneBoundInEveryCommand) {
  const std::string queue = source_path("scenarios/queue.toml");
  const std::string scope = " --clients 2 --operations 1";
  const std::string commands[] = {"run " + queue + scope + " --seeds 1..2",
                                  "sweep " + queue + " --seeds 1..2 --vary clients=1,2",
                                  "explore " + queue + scope + " --strategy dpor"};
  for (const std::string& command : commands) {
    CliResult over = run_cli(command + " --jobs 1025");
    EXPECT_EQ(over.exit_code, 2) << command << "\n" << over.output;
    EXPECT_NE(over.output.find("--jobs: '1025' is not a whole number from 1 to 1024"),
              std::string::npos)
        << command << "\n"
        << over.output;
    CliResult many = run_cli(command + " --jobs 300");
    EXPECT_EQ(many.exit_code, 0) << command << "\n" << many.output;
  }
}

// Threads the system would not start (a container's process or memory limit: here 1 GB of
// address space, 8 MiB a thread's stack) aborted run and explore ("terminate called without an
// active exception", exit 134). The work runs on the threads that started, with a note.
TEST(CliNumbers, JobsTheSystemWillNotStartRunOnThoseThatStarted) {
#if CONTEND_ADDRESS_SANITIZER
  GTEST_SKIP() << "AddressSanitizer's shadow memory does not fit a 1 GB address space";
#endif
  const std::string queue = source_path("scenarios/queue.toml");
  const std::string scope = " --clients 2 --operations 1 --jobs 1024";
  const std::pair<std::string, std::string> commands[] = {
      {"run " + queue + scope + " --seeds 1..4", "as expected: every seed is linearizable"},
      {"explore " + queue + scope + " --strategy dpor", "VERIFIED: every execution"}};
  for (const auto& [command, said] : commands) {
    const std::string limited =
        "ulimit -v 1000000 && " + std::string(CONTEND_BINARY) + " " + command + " 2>&1";
    FILE* pipe = popen(limited.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string output;
    std::array<char, 4096> buffer{};
    for (std::size_t n; (n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0;)
      output.append(buffer.data(), n);
    const int status = pclose(pipe);
    ASSERT_TRUE(WIFEXITED(status)) << command << "\n" << output;
    EXPECT_EQ(WEXITSTATUS(status), 0) << command << "\n" << output;
    EXPECT_NE(output.find(said), std::string::npos) << command << "\n" << output;
    EXPECT_NE(output.find("contend: --jobs 1024: the system started "), std::string::npos)
        << command << "\n"
        << output;
  }
}

// An empty value was taken as the flag left out: `--seeds ""` (an unset CI variable) ran the
// scenario's seeds, `--checkpoint ""` kept no checkpoint, `sweep --out ""` wrote nothing, each
// exiting 0. Each is refused, naming the flag.
TEST(CliNumbers, AnEmptyValueIsRefusedNotTakenAsTheFlagLeftOut) {
  const std::string queue = source_path("scenarios/queue.toml");
  const std::string dpor = "explore " + queue + " --strategy dpor --clients 2 --operations 1";
  const std::pair<std::string, std::string> cases[] = {
      {"run " + queue + " --seeds ''", "--seeds"},
      {"run " + queue + " --seed ''", "--seed"},
      {"sweep " + queue + " --vary clients=1 --seeds ''", "--seeds"},
      {"sweep " + queue + " --vary clients=1 --seeds 1..2 --out ''", "--out"},
      {dpor + " --checkpoint ''", "--checkpoint"},
      {dpor + " --shard ''", "--shard"},
      {dpor + " --shard 1/2 --deal-from ''", "--deal-from"}};
  for (const auto& [command, flag] : cases) {
    CliResult r = run_cli(command);
    EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.output;
    EXPECT_NE(r.output.find(flag + ": an empty value names nothing"), std::string::npos)
        << command << "\n"
        << r.output;
  }
}

TEST(CliOutputs, AFullDiskIsAFailedWriteNotASilentLoss) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  const std::string queue = source_path("scenarios/queue.toml");
  const std::string dir = ::testing::TempDir() + "/full-disk";
  std::filesystem::create_directories(dir);
  ASSERT_EQ(
      run_cli("run " + queue + " --seeds 1..2 --report json=" + dir + "/shard.json").exit_code, 0);
  struct Case {
    std::string args;
    std::string message;
  };
  const Case cases[] = {
      {"run " + queue + " --seeds 1..1 --history /dev/full",
       "cannot write the history to /dev/full"},
      {"run " + queue + " --seeds 1..3 --history /dev/full",
       "cannot write the history to /dev/full"},
      {"replay " + queue + " --seed 1 --quiet --history /dev/full",
       "cannot write the history to /dev/full"},
      {"run " + queue + " --seeds 1..2 --report junit=/dev/full", "cannot write /dev/full"},
      {"explore " + queue + " --strategy dpor --clients 2 --operations 1 --json /dev/full",
       "cannot write /dev/full"},
      {"explore " + queue + " --strategy dpor --clients 2 --operations 1 --report junit=/dev/full",
       "cannot write /dev/full"},
      {"explore " + queue + " --strategy pct --schedules 2 --json /dev/full",
       "cannot write /dev/full"},
      {"explore " + queue + " --strategy random --schedules 2 --report json=/dev/full",
       "cannot write /dev/full"},
      {"merge " + dir + "/shard.json --out /dev/full", "cannot write /dev/full"},
      {"check " + source_path("docs/examples/histories/clean-fifo.jsonl") +
           " --report html=/dev/full",
       "cannot write /dev/full"},
  };
  for (const Case& c : cases) {
    CliResult r = run_cli(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << "\n" << r.output;
  }
}

// A file name that is not UTF-8 cannot be written into a JSON report: `run --report json=FILE`
// ran every seed, then failed on the scenario's name with the JSON library's message and left an
// empty report. The scenario's name and --out's are refused before any run, naming the byte.
TEST(CliOutputs, ANameThatIsNotUtf8IsRefusedBeforeAnyRun) {
  const std::string dir = ::testing::TempDir() + "/not-utf8";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/out\xfe");
  const std::string scenario = dir + "/queue\xff.toml";
  std::filesystem::copy_file(source_path("scenarios/queue-proof.toml"), scenario);
  for (const std::string& args :
       {"run " + shell_quote(scenario) + " --seeds 1..1 --report json=" + dir + "/r.json",
        "explore " + shell_quote(scenario) + " --json -"}) {
    CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find("the file's name is not UTF-8 (invalid UTF-8 byte at index " +
                            std::to_string(dir.size() + 6) + ": 0xFF)"),
              std::string::npos)
        << r.output;
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/r.json"));
  CliResult out = run_cli("explore " + source_path("scenarios/first-cut-queue.toml") + " --out " +
                          shell_quote(dir + "/out\xfe"));
  EXPECT_EQ(out.exit_code, 2) << out.output;
  EXPECT_NE(out.output.find("its name is not UTF-8"), std::string::npos) << out.output;
  EXPECT_EQ(out.output.find("exploring"), std::string::npos) << out.output;
}

// A search of hours must not end in "cannot write": every option naming a file the command writes
// is judged when the command line is parsed. Each case names the path, says why, exits 2, starts
// no work (no scenario or search header) and creates nothing.
TEST(CliOutputs, AFileThatCannotBeWrittenIsRefusedBeforeAnyWork) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "unwritable-outputs";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string missing = (dir / "missing" / "out.json").string();
  const std::string a_file = (dir / "a-file").string();
  std::ofstream(a_file) << "not a directory\n";
  const std::string under_a_file = a_file + "/out.html";
  const std::string queue = source_path("scenarios/queue.toml");
  const std::string hc = source_path("scenarios/hc-queue.toml");
  struct Case {
    std::string args;
    std::string message;
  };
  const Case cases[] = {
      {"explore " + hc + " --strategy dpor --plans seed --clients 3 --operations 2 --json " +
           missing,
       "--json: cannot write " + missing + ": the directory " + (dir / "missing").string() +
           " does not exist"},
      {"explore " + queue + " --strategy dpor --clients 2 --operations 1 --json " + dir.string(),
       "--json: cannot write " + dir.string() + ": it is a directory"},
      {"run " + queue + " --seeds 1..3 --history " + missing, "--history: cannot write " + missing},
      {"run " + queue + " --seeds 1..3 --report json=" + dir.string() +
           "/ok.json --report html=" + under_a_file,
       "--report: cannot write " + under_a_file + ": " + a_file + " is not a directory"},
      {"replay " + queue + " --seed 1 --report html=" + missing,
       "--report: cannot write " + missing},
      {"replay " + queue + " --seed 1 --history " + under_a_file,
       "--history: cannot write " + under_a_file},
      {"check " + source_path("docs/examples/histories/clean-fifo.jsonl") +
           " --report html=" + missing,
       "--report: cannot write " + missing},
      {"sweep " + queue + " --vary clients=1,2 --seeds 1..2 --out " + dir.string() + "/missing/s",
       "--out: cannot write " + dir.string() + "/missing/s.csv: the directory"},
      {"merge " + a_file + " --out " + missing, "--out: cannot write " + missing},
  };
  for (const Case& c : cases) {
    CliResult r = run_cli(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << "\n" << r.output;
    EXPECT_EQ(r.output.find("exhaustive search of"), std::string::npos) << c.args;
    EXPECT_EQ(r.output.find("scenario "), std::string::npos) << c.args << "\n" << r.output;
  }
  std::vector<std::string> left;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    left.push_back(entry.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"a-file"}) << "a refused command created a file";
}

// A directory named where a file is read opened without error and read as empty: `check` judged
// an empty history linearizable (exit 0), `run` and `sweep` ran a scenario of defaults,
// `serializable` found nothing to doubt. Each is refused, saying it is a directory.
TEST(CliInputs, ADirectoryWhereAFileIsReadIsRefused) {
  namespace fs = std::filesystem;
  const std::string dir = (fs::path(::testing::TempDir()) / "a-directory").string();
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string queue = source_path("scenarios/queue.toml");
  const std::string scope = " --strategy dpor --clients 2 --operations 1";
  const std::string cases[][2] = {
      {"check " + dir + " --model fifo", dir + ": cannot open the file (it is a directory)"},
      {"run " + dir + " --seeds 1..2", dir + ": cannot open the scenario file (it is a directory)"},
      {"replay " + dir + " --seed 1", dir + ": cannot open the scenario file (it is a directory)"},
      {"sweep " + dir + " --vary clients=1,2", dir + ": cannot open the scenario file"},
      {"explore " + dir, dir + ": cannot open the scenario file (it is a directory)"},
      {"serializable " + dir, dir + ": cannot be read (it is a directory)"},
      {"merge " + dir + " --out -", dir + ": cannot be read (it is a directory)"},
      {"explore " + queue + scope + " --checkpoint " + dir, dir + ": cannot read it (it is a "},
      {"explore " + queue + scope + " --shard 1/2 --deal-from " + dir,
       dir + ": cannot read it (--deal-from: it is a directory)"},
  };
  for (const auto& [args, message] : cases) {
    CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << args << "\n" << r.output;
    EXPECT_EQ(r.output.find("linearizable"), std::string::npos) << args << "\n" << r.output;
  }
  EXPECT_TRUE(fs::is_empty(dir)) << "a refused command wrote into the directory";
}

// Nothing bounded what was read: `contend run /dev/zero`, and `check`, `serializable` and `merge`
// of it, grew a string until memory ran out; `explore --checkpoint` of an endless pipe read it
// forever. Each file is read no further than the bound on its kind (base/input_file.h), and one
// past it is bad input naming the file and the bound; a regular file is refused unread (here
// sparse files, which take no disk). A scenario piped in within its bound still runs.
TEST(CliInputs, AFilePastTheBoundOnItsKindIsRefusedNamingTheBound) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "past-the-bound";
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto sparse = [&dir](const char* name, std::uintmax_t bytes) {
    const std::string path = (dir / name).string();
    std::ofstream{path};
    fs::resize_file(path, bytes);
    return path;
  };
  constexpr std::uintmax_t kMiB = 1 << 20;
  constexpr std::uintmax_t kGiB = 1 << 30;
  const std::string scenario = sparse("big.toml", kMiB + 1);
  const std::string history = sparse("big.jsonl", kGiB + 1);
  const std::string report = sparse("big.json", kGiB + 1);
  const std::string checkpoint = sparse("big-checkpoint.json", 4 * kGiB + 1);
  const std::string queue = source_path("scenarios/queue.toml");
  const std::string scope = " --strategy dpor --clients 2 --operations 1";
  const std::string cases[][2] = {
      {"run " + scenario, scenario + ": cannot open the scenario file (it holds more than 1 MiB"},
      {"run /dev/zero", "/dev/zero: cannot open the scenario file (it holds more than 1 MiB"},
      {"replay /dev/stdin --seed 1 < /dev/zero",
       "(it holds more than 1 MiB, the most contend "
       "reads of a scenario)"},
      {"check " + history + " --model fifo",
       history + ": cannot open the file (it holds more than 1 GiB, the most contend reads of a "
                 "history)"},
      {"serializable " + history, history + ": cannot be read (it holds more than 1 GiB"},
      {"merge " + report, report + ": cannot be read (it holds more than 1 GiB"},
      {"explore " + queue + scope + " --checkpoint " + checkpoint,
       checkpoint + ": cannot read it (it holds more than 4 GiB, the most contend reads of a "
                    "checkpoint)"},
      {"explore " + queue + scope + " --shard 1/2 --deal-from " + checkpoint,
       checkpoint + ": cannot read it (--deal-from: it holds more than 4 GiB"},
  };
  for (const auto& [args, message] : cases) {
    CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << args << "\n" << r.output;
  }
  CliResult piped = run_cli("run /dev/stdin --seeds 1..2 --clients 2 --operations 1 < " + queue);
  EXPECT_EQ(piped.exit_code, 0) << piped.output;
}

// nlohmann's lexer held the white space before a token, and the token, whole: a report of 1 GiB
// of spaces (its bound) took some 3 GB to refuse. merge refuses a run of more than 16 MiB between
// two structural characters — white space, or one string — once read, naming the byte.
TEST(CliInputs, AReportRunOfMoreThan16MiBIsRefusedNamingItsByte) {
  const std::string dir = ::testing::TempDir();
  const std::string spaces = dir + "/report-of-spaces.json";
  const std::string string = dir + "/report-of-one-string.json";
  std::ofstream(spaces) << std::string(std::size_t{17} << 20, ' ');
  std::ofstream(string) << "{\"file\":\"" << std::string(std::size_t{17} << 20, 'a') << "\"}";
  const std::string run = "more than 16 MiB of one value or of white space";
  const std::string cases[][2] = {
      {"merge " + spaces, spaces + ": not a contend report: at byte 16777216, " + run},
      {"merge " + string, string + ": not a contend report: at byte 16777224, " + run},
  };
  for (const auto& [args, message] : cases) {
    CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output.substr(0, 500);
    EXPECT_NE(r.output.find(message), std::string::npos) << args << "\n" << r.output.substr(0, 500);
  }
  std::filesystem::remove(spaces);
  std::filesystem::remove(string);
}

// A key twice in one JSON object was taken silently, the last value winning: a history line
// whose "type" said both invoke and ok, a run report that said both passed and not, a log line
// both applied and not, a checkpoint of two searches. contend never writes one, so each is bad
// input naming the file (and line) and the key.
TEST(CliInputs, AKeyTwiceInOneObjectIsRefusedNamingTheFileAndTheKey) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "key-twice";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string queue = source_path("scenarios/queue.toml");
  const std::string small = " --clients 2 --operations 1";
  ASSERT_EQ(run_cli_in(dir.string(), "run " + queue +
                                         " --seeds 1..4 --shard 1/2 --report "
                                         "json=s1.json" +
                                         small)
                .exit_code,
            0);
  ASSERT_EQ(run_cli_in(dir.string(), "run " + queue +
                                         " --seeds 1..4 --shard 2/2 --report "
                                         "json=s2.json" +
                                         small)
                .exit_code,
            0);
  const std::string dpor = "explore " + queue + " --strategy dpor" + small;
  ASSERT_EQ(run_cli_in(dir.string(), dpor + " --checkpoint ck.json").exit_code, 0);
  // Each file with its first "{" opened by `first_key` again.
  auto twice = [&dir](const char* from, const char* to, const std::string& first_key) {
    std::string text = read_file((dir / from).string());
    text.replace(text.find('{'), 1, "{" + first_key + ",");
    std::ofstream((dir / to).string()) << text;
  };
  const std::string search = nlohmann::json::parse(read_file((dir / "ck.json").string()))["search"];
  twice("ck.json", "ck-twice.json", "\"search\":" + nlohmann::json(search).dump());
  twice("s1.json", "s1-twice.json", "\"passed\": false");
  std::ofstream((dir / "h.jsonl").string())
      << R"({"index": 0, "type": "ok", "type": "invoke", "process": 0, "time": 0, )"
         R"("f": "enqueue", "value": "a"})"
         "\n";
  std::ofstream((dir / "log.jsonl").string())
      << R"({"client":0,"transaction":1,"read_version":10,"commit_version":null,"applied":false,)"
         R"("applied":true,"outcome":"success","reads":[],"mutations":[]})"
         "\n";
  const std::string cases[][2] = {
      {"check h.jsonl --model fifo", "h.jsonl: line 1: key \"type\" appears twice in one object"},
      {"merge s1-twice.json s2.json",
       "s1-twice.json: not a contend report: key \"passed\" appears twice in one object"},
      {"serializable log.jsonl", "log.jsonl:1: key \"applied\" appears twice in one object"},
      {dpor + " --checkpoint ck-twice.json",
       "ck-twice.json: not a contend checkpoint: key \"search\" appears twice in one object"},
      {"tuple pack '[{\"bytes\": \"00\", \"bytes\": \"ff\"}]'",
       "key \"bytes\" appears twice in one object"},
  };
  for (const auto& [args, message] : cases) {
    CliResult r = run_cli_in(dir.string(), args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << args << "\n" << r.output;
  }
}

// One file named by two options, one of which writes it, lost what the other wrote or read: a
// summary over the checkpoint it was to resume from, a report over the history it checked. Each
// is refused before any work, naming both options, and the files are left as they were; "-" is
// refused where it would have made a file of that name; /dev/null may be named twice.
TEST(CliOutputs, OneFileNamedTwiceIsRefusedBeforeAnyWork) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "one-file-twice";
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(source_path("scenarios/queue.toml"), dir / "q.toml");
  const std::string small = " --clients 2 --operations 1";
  ASSERT_EQ(run_cli_in(dir.string(), "run q.toml --seeds 1..1 --history h.jsonl" + small).exit_code,
            0);
  ASSERT_EQ(
      run_cli_in(dir.string(), "explore q.toml --strategy dpor --json s.json" + small).exit_code,
      0);
  const std::string history = read_file((dir / "h.jsonl").string());
  const std::string summary = read_file((dir / "s.json").string());
  struct Case {
    std::string args;
    std::string message;
  };
  const Case cases[] = {
      {"explore q.toml --strategy dpor --checkpoint ck.json --json ./ck.json",
       "contend explore: --checkpoint ck.json and --json ./ck.json name one file: the second "
       "written would replace the first; name two files"},
      {"explore q.toml --strategy dpor --deal-from s.json --checkpoint " +
           (dir / "s.json").string(),
       "--deal-from s.json and --checkpoint " + (dir / "s.json").string() + " name one file"},
      {"run q.toml --seeds 1..2 --history h.jsonl --report json=h.jsonl",
       "contend run: --history h.jsonl and --report json=h.jsonl name one file"},
      {"run q.toml --seeds 1..2 --history q.toml",
       "scenario q.toml and --history q.toml name one file: writing it would replace what is read "
       "from it"},
      {"replay q.toml --seed 1 --history x.jsonl --report html=./x.jsonl",
       "contend replay: --history x.jsonl and --report html=./x.jsonl name one file"},
      {"check h.jsonl --report html=h.jsonl",
       "history h.jsonl and --report html=h.jsonl name one file"},
      {"merge s.json --out s.json", "contend merge: --out s.json and report s.json name one file"},
      {"run q.toml --seeds 1..2 --history -", "--history: '-' (standard output) is not taken"},
      {"run q.toml --seeds 1..2 --report junit=-", "--report: '-' (standard output) is not taken"},
  };
  for (const Case& c : cases) {
    const bool scoped = !c.args.starts_with("check") && !c.args.starts_with("merge");
    CliResult r = run_cli_in(dir.string(), c.args + (scoped ? small : ""));
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << "\n" << r.output;
    for (const char* header : {"): recipe", "exhaustive search of", "replay of", "events, model"})
      EXPECT_EQ(r.output.find(header), std::string::npos) << "it ran: " << c.args;
  }
  // Not named twice, but the same confusion: a summary is not a checkpoint.
  CliResult not_a_checkpoint =
      run_cli_in(dir.string(), "explore q.toml --strategy dpor --checkpoint s.json" + small);
  EXPECT_EQ(not_a_checkpoint.exit_code, 2);
  EXPECT_NE(not_a_checkpoint.output.find(
                "s.json: a summary written by explore --json, not a checkpoint; name another file"),
            std::string::npos)
      << not_a_checkpoint.output;
  EXPECT_EQ(read_file((dir / "h.jsonl").string()), history);
  EXPECT_EQ(read_file((dir / "s.json").string()), summary);
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(dir))
    left.push_back(entry.path().filename().string());
  std::ranges::sort(left);
  EXPECT_EQ(left, (std::vector<std::string>{"h.jsonl", "q.toml", "s.json"}));
  CliResult twice_null = run_cli_in(
      dir.string(), "run q.toml --seeds 1..2 --history /dev/null --report json=/dev/null" + small);
  EXPECT_EQ(twice_null.exit_code, 0) << twice_null.output;
}

}  // namespace
}  // namespace contend::testing
