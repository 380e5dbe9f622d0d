// `contend serializable LOG` on hand-written transaction logs in libfdb_c's format
// (fdb_c/transaction_log.h): a log that replays, one whose read the replay contradicts (exit 1,
// naming the read), and malformed lines (exit 2, naming the line and the field).
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/run_cli.h"

namespace contend::testing {
namespace {

// Writes `text` to a scratch file and runs `contend serializable` on it.
CliResult serializable(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "contend_serializable_" +
                           std::to_string(getpid()) + "_" + name + ".jsonl";
  std::ofstream(path) << text;
  CliResult r = run_cli("serializable " + shell_quote(path));
  std::remove(path.c_str());
  return r;
}

// k1 = v1 at version 20, then a reader at version 30 that saw `seen` at k1 (hex).
std::string two_transactions(const std::string& seen) {
  return R"({"client":0,"transaction":1,"read_version":10,"commit_version":20,"applied":true,)"
         R"("outcome":"success","reads":[],"mutations":[{"type":"set","param1":"6b31",)"
         R"("param2":"7631"}]})"
         "\n"
         R"({"client":1,"transaction":2,"read_version":30,"commit_version":null,"applied":false,)"
         R"("outcome":"success","reads":[{"range":false,"begin":"6b31","end":"6b3100",)"
         R"("snapshot":false,"mutations_before":0,"value":)" +
         seen +
         R"(}],"mutations":[]})"
         "\n";
}

TEST(CliSerializable, ALogWhoseReadsReplayIsSerializable) {
  CliResult r = serializable("good", two_transactions(R"("7631")"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("serializable: 2 commit attempts logged, 2 replayed"), std::string::npos)
      << r.output;
}

TEST(CliSerializable, AReadTheReplayContradictsIsNamed) {
  CliResult r = serializable("bad", two_transactions("null"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("NOT SERIALIZABLE"), std::string::npos) << r.output;
}

TEST(CliSerializable, AFailedAttemptIsNotReplayed) {
  const std::string failed =
      R"({"client":2,"transaction":3,"read_version":5,"commit_version":null,"applied":false,)"
      R"("outcome":"not_committed","reads":[],"mutations":[{"type":"clear_range",)"
      R"("param1":"6b31","param2":"6b32"}]})"
      "\n";
  CliResult r = serializable("failed", two_transactions(R"("7631")") + failed);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("3 commit attempts logged, 2 replayed"), std::string::npos) << r.output;
}

// An empty log passed ("0 commit attempts logged", exit 0): a client run without CONTEND_FDB_LOG
// naming the file passed the check it never reached.
TEST(CliSerializable, ALogWithoutAnAttemptIsRefused) {
  for (const char* text : {"", "\n\n"}) {
    CliResult r = serializable("empty", text);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("no commit attempt logged: there is nothing to check"),
              std::string::npos)
        << r.output;
  }
}

// A line was read whole, up to the log's bound of 1 GiB, before it was refused: one longer than
// 64 MiB is refused once that much is read, naming the file, the line and the bound (here a sparse
// file: a line that replays, then 65 MiB of NUL bytes).
TEST(CliSerializable, ALineLongerThanItsBoundIsRefusedNamingTheLineAndTheBound) {
  const std::string path = ::testing::TempDir() + "contend_serializable_long_line.jsonl";
  const std::string log = two_transactions(R"("7631")");
  std::ofstream(path) << log.substr(0, log.find('\n') + 1);  // its first line
  std::filesystem::resize_file(path, std::filesystem::file_size(path) + (65 << 20));
  CliResult r = run_cli("serializable " + shell_quote(path));
  std::filesystem::remove(path);
  EXPECT_EQ(r.exit_code, 2) << r.output.substr(0, 500);
  EXPECT_NE(r.output.find(":2: longer than 64 MiB, the most contend reads of one commit attempt"),
            std::string::npos)
      << r.output.substr(0, 500);
}

// Before: an inverted clear_range or range read (after a commit that wrote k1) crashed the replay
// (exit 139: std::map iterated from past its end); an applied not_committed attempt was replayed
// as a commit, and a read-only success with mutations passed. The library writes none of these.
TEST(CliSerializable, ALineTheLibraryCouldNotHaveWrittenIsRefused) {
  const std::string good = two_transactions(R"("7631")");
  const std::string head =
      R"({"client":0,"transaction":5,"read_version":40,"commit_version":50,"applied":true,)";
  struct Case {
    std::string line;
    std::string message;
  };
  const Case cases[] = {
      {head + R"("outcome":"success","reads":[],"mutations":[{"type":"clear_range",)"
              R"("param1":"6b32","param2":"6b30"}]})",
       ":3: mutations[].param2: before param1, an inverted clear_range"},
      {head + R"("outcome":"success","reads":[{"range":true,"begin":"6b32","end":"6b30",)"
              R"("snapshot":false,"mutations_before":0,"limit":0,"reverse":false,"rows":[]}],)"
              R"("mutations":[]})",
       ":3: reads[].end: before begin, an inverted range"},
      {head + R"("outcome":"not_committed","reads":[],"mutations":[]})",
       R"(:3: applied: true, but outcome "not_committed" says nothing was applied)"},
      {R"({"client":0,"transaction":5,"read_version":40,"commit_version":null,"applied":false,)"
       R"("outcome":"success","reads":[],"mutations":[{"type":"set","param1":"6b31",)"
       R"("param2":"00"}]})",
       ":3: mutations: a successful commit that was not applied is read-only, yet has some"},
  };
  for (const Case& c : cases) {
    CliResult r = serializable("impossible", good + c.line + "\n");
    EXPECT_EQ(r.exit_code, 2) << c.line << "\n" << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.line << "\n" << r.output;
  }
  // Beside them, what replays soundly is taken: an empty clear_range, and a commit whose result
  // was unknown to the client and that the store applied.
  CliResult taken = serializable(
      "possible", good + head +
                      R"("outcome":"commit_unknown_result","reads":[],"mutations":[{"type":)"
                      R"("clear_range","param1":"6b31","param2":"6b31"}]})" +
                      "\n");
  EXPECT_EQ(taken.exit_code, 0) << taken.output;
}

// A key the library never writes was passed over: a line with a "note", a point read with a
// range read's "rows", was judged on the keys it did have (and a failed attempt's reads and
// mutations were not read at all). The format (fdb_c/transaction_log.h) allows no other key, so
// each is bad input naming the file, the line and the key.
TEST(CliSerializable, AKeyTheLibraryNeverWritesIsBadInputNamingTheFileLineAndKey) {
  const std::string good = two_transactions(R"("7631")");
  const std::string line =
      R"({"client":0,"transaction":1,"read_version":10,"commit_version":null,"applied":false,)"
      R"("outcome":"not_committed",)";
  struct Case {
    std::string line;
    std::string message;
  };
  const Case cases[] = {
      {line + R"("reads":[],"mutations":[],"note":"x"})", ":3: note: unknown key"},
      {line + R"("reads":[{"range":false,"begin":"6b","end":"6b00","snapshot":false,)"
              R"("mutations_before":0,"value":null,"rows":[]}],"mutations":[]})",
       ":3: reads[].rows: unknown key in a point read"},
      {line + R"("reads":[{"range":true,"begin":"6a","end":"6c","snapshot":false,)"
              R"("mutations_before":0,"limit":0,"reverse":false,"rows":[],"value":null}],)"
              R"("mutations":[]})",
       ":3: reads[].value: unknown key in a range read"},
      {line + R"("reads":[],"mutations":[{"type":"set","param1":"6b","param2":"","p3":""}]})",
       ":3: mutations[].p3: unknown key"},
  };
  for (const Case& c : cases) {
    CliResult r = serializable("unknown_key", good + c.line + "\n");
    EXPECT_EQ(r.exit_code, 2) << c.line << "\n" << r.output;
    EXPECT_NE(r.output.find("unknown_key.jsonl" + c.message), std::string::npos) << c.line << "\n"
                                                                                 << r.output;
  }
  EXPECT_EQ(
      serializable("known_keys", good + line + R"("reads":[],"mutations":[]})" + "\n").exit_code,
      0);
}

TEST(CliSerializable, AMalformedLineIsBadInputNamingItsLineAndField) {
  const std::string good = two_transactions(R"("7631")");
  struct Case {
    std::string line;
    std::string message;
  };
  const Case cases[] = {
      {"not json", ":3: not valid JSON"},
      {R"({"client":0})", ":3: transaction: missing"},
      {R"({"client":0,"transaction":1,"read_version":10,"commit_version":20,"applied":"yes",)"
       R"("outcome":"success","reads":[],"mutations":[]})",
       ":3: applied: expected bool"},
      {R"({"client":0,"transaction":1,"read_version":10,"commit_version":null,"applied":true,)"
       R"("outcome":"success","reads":[],"mutations":[]})",
       ":3: commit_version: an integer exactly when applied"},
      {R"({"client":0,"transaction":1,"read_version":10,"commit_version":20,"applied":true,)"
       R"("outcome":"success","reads":[],"mutations":[{"type":"explode","param1":"","param2":""}]})",
       R"(:3: mutations[].type: unknown mutation "explode")"},
      {R"({"client":0,"transaction":1,"read_version":10,"commit_version":20,"applied":true,)"
       R"("outcome":"success","reads":[],"mutations":[{"type":"set","param1":"6","param2":""}]})",
       ":3: mutations[].param1:"},
      {R"({"client":0,"transaction":1,"read_version":30,"commit_version":20,"applied":true,)"
       R"("outcome":"success","reads":[],"mutations":[]})",
       ":3: commit_version: not after read_version"},
      {R"({"client":0,"transaction":1,"read_version":10,"commit_version":20,"applied":true,)"
       R"("outcome":"success","reads":[],"mutations":[{"type":"set_versionstamped_key",)"
       R"("param1":"6b","param2":""}]})",
       ":3: mutations[].param1: no room for a versionstamp"},
      {std::string(100, '[') + std::string(100, ']'), ":3: nested deeper than a log line"},
      // Numbers the library never writes: each wrapped or truncated where it was read.
      {R"({"client":1099511627776,"transaction":1,"read_version":10,"commit_version":20,)"
       R"("applied":true,"outcome":"success","reads":[],"mutations":[]})",
       ":3: client: expected an integer in [0, 2147483647]"},
      {R"({"client":0,"transaction":-1,"read_version":10,"commit_version":20,"applied":true,)"
       R"("outcome":"success","reads":[],"mutations":[]})",
       ":3: transaction: expected an integer in [0, 18446744073709551615]"},
      {R"({"client":0,"transaction":1,"read_version":-5,"commit_version":20,"applied":true,)"
       R"("outcome":"success","reads":[],"mutations":[]})",
       ":3: read_version: expected a version"},
      {R"({"client":0,"transaction":1,"read_version":10,"commit_version":9223372036854775808,)"
       R"("applied":true,"outcome":"success","reads":[],"mutations":[]})",
       ":3: commit_version: expected an integer in [0, 9223372036854775807]"},
      {R"({"client":0,"transaction":1,"read_version":10,"commit_version":20,"applied":true,)"
       R"("outcome":"success","reads":[{"range":true,"begin":"6a","end":"6c","snapshot":false,)"
       R"("mutations_before":0,"limit":1099511627776,"reverse":false,"rows":[]}],"mutations":[]})",
       ":3: reads[].limit: expected an integer in [0, 2147483647]"},
      {R"({"client":0,"transaction":1,"read_version":10,"commit_version":20,"applied":true,)"
       R"("outcome":"exploded","reads":[],"mutations":[]})",
       R"(:3: outcome: "exploded" is not an error name)"},
  };
  for (const Case& c : cases) {
    CliResult r = serializable("malformed", good + c.line + "\n");
    EXPECT_EQ(r.exit_code, 2) << c.line << "\n" << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.line << "\n" << r.output;
  }
  // A read-only attempt that read nothing has no read version: the library logs -1.
  CliResult no_read_version =
      serializable("no_read_version",
                   good +
                       R"({"client":2,"transaction":3,"read_version":-1,"commit_version":null,)"
                       R"("applied":false,"outcome":"success","reads":[],"mutations":[]})" +
                       "\n");
  EXPECT_EQ(no_read_version.exit_code, 0) << no_read_version.output;
  CliResult missing = run_cli("serializable /nonexistent/log.jsonl");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.output.find("/nonexistent/log.jsonl: cannot be read"), std::string::npos);
}

}  // namespace
}  // namespace contend::testing
