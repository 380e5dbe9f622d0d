// Deeply nested input gives a clear error, never a crash: the tuple reader keeps its own stack
// and refuses nesting past kMaxTupleDepth; JSON read by contend (history lines, merge reports,
// tuple pack) is refused past kMaxJsonDepth before anything recurses over it. The two inputs
// that used to kill contend with SIGSEGV (fuzzing found them) are regression cases here.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "model/history_json.h"
#include "scenarios/cli/merge.h"
#include "sim/store/tuple.h"
#include "tests/support/run_cli.h"

namespace contend {
namespace {

using testing::run_cli;

Bytes nested_tuples(std::size_t depth) {
  return Bytes(depth, '\x05') + Bytes(depth, '\0');
}

TEST(DeepTuples, NestingUpToTheLimitUnpacksAndRoundTrips) {
  const Bytes bytes = nested_tuples(kMaxTupleDepth);
  UnpackResult r = unpack(bytes);
  ASSERT_TRUE(r.ok()) << r.error.to_string();
  EXPECT_EQ(pack(*r.tuple), bytes);
}

TEST(DeepTuples, NestingPastTheLimitIsAnErrorAtTheFirstByteTooDeep) {
  UnpackResult r = unpack(nested_tuples(20'000));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.offset, kMaxTupleDepth);
  EXPECT_NE(r.error.message.find("deeper than 1000 levels"), std::string::npos) << r.error.message;
}

TEST(DeepTuples, AnUnterminatedNestedTupleNamesItsInnermostStart) {
  UnpackResult r = unpack(Bytes("\x05\x15\x01\x05\x02x\x00", 7));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.offset, 3u);
  EXPECT_NE(r.error.message.find("unterminated nested tuple"), std::string::npos);
}

TEST(DeepTuples, NullsInsideNestedTuplesStillRead) {
  const Tuple t{Tuple{TupleNull{}, Tuple{TupleNull{}, 1}, "x"}, TupleNull{}};
  UnpackResult r = unpack(pack(t));
  ASSERT_TRUE(r.ok()) << r.error.to_string();
  EXPECT_EQ(*r.tuple, t);
}

TEST(DeepTuples, TheCliRefusesTwentyThousandLevelsWithExitTwo) {
  const auto result = run_cli("tuple unpack " + to_hex(nested_tuples(20'000)));
  EXPECT_EQ(result.exit_code, 2) << result.output.substr(0, 400);
  EXPECT_NE(result.output.find("deeper than 1000 levels"), std::string::npos);
}

TEST(DeepJson, NestingDepthIgnoresBracketsInStrings) {
  EXPECT_EQ(model::json_nesting_depth(R"({"a": [1, {"b": "[[[{{{\"]]]"}]})"), 3u);
  EXPECT_EQ(model::json_nesting_depth("[[[]]]"), 3u);
  EXPECT_EQ(model::json_nesting_depth("\"[\\\\\" ["), 1u);
  EXPECT_EQ(model::json_nesting_depth(std::string(1000, '['), 10), 11u);  // stops past the limit
}

TEST(DeepJson, AHistoryLineNestingAHundredThousandArraysIsRefused) {
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  std::istringstream in(
      R"({"index": 0, "type": "invoke", "process": 0, "time": 0, "f": "enqueue", "value": )" +
      deep + "}\n");
  model::HistoryError error;
  EXPECT_FALSE(model::read_history(in, error).has_value());
  EXPECT_EQ(error.line, 1u);
  EXPECT_NE(error.message.find("deeper than 100 levels"), std::string::npos) << error.message;
}

TEST(DeepJson, TheCliChecksSuchAHistoryWithExitTwo) {
  const std::string path = ::testing::TempDir() + "deep_history.jsonl";
  {
    std::ofstream out(path);
    out << R"({"index": 0, "type": "invoke", "process": 0, "time": 0, "f": "enqueue", "value": )"
        << std::string(100'000, '[') << std::string(100'000, ']') << "}\n";
  }
  const auto result = run_cli("check " + testing::shell_quote(path) + " --model fifo");
  EXPECT_EQ(result.exit_code, 2) << result.output.substr(0, 400);
  EXPECT_NE(result.output.find("deeper than 100 levels"), std::string::npos);
}

TEST(DeepJson, MergeRefusesADeepReportAndTypeConfusedOnes) {
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  EXPECT_EQ(cli::merge_reports({{"deep.json", deep}}).exit_code, 2);
  // Fields of the wrong type are bad input, not an exception.
  EXPECT_EQ(
      cli::merge_reports(
          {{"a.json", R"({"runs": [], "scenario": "q", "seeds": {"first": "1", "last": 2}})"}})
          .exit_code,
      2);
  EXPECT_EQ(
      cli::merge_reports(
          {{"a.json",
            R"({"runs": [{"seed": -1}], "scenario": "q", "seeds": {"first": 1, "last": 1}})"}})
          .exit_code,
      2);
}

// The --json summaries of an exhaustive search's shards merge by their own rules: a field of the
// wrong type is bad input named by file and field (it was an exception's message, naming
// neither).
TEST(DeepJson, MergeNamesTheFileAndFieldOfATypeConfusedExhaustiveSummary) {
  const std::string path = ::testing::TempDir() + "/confused-shard.json";
  const std::string shard = R"("search": "exhaustive", "shard": "1/1")";
  for (const auto& [field, expected] : std::vector<std::pair<std::string, std::string>>{
           {R"("executions": "many")", R"(field "executions" is not a count)"},
           {R"("executions": -1)", R"(field "executions" is not a count)"},
           {R"("verdicts": {"linearizable": "x"})",
            R"(field "verdicts.linearizable" is not a count)"},
           {R"("coverage": [])", R"(field "coverage" is not an object)"},
           {R"("exhausted": 1)", R"(field "exhausted" is not true or false)"},
           {R"("seconds": "s")", R"(field "seconds" is not a number)"},
           {R"("seconds": -0.5)", R"(field "seconds" is not a number of seconds)"},
           {R"("expect": 5)", R"(field "expect" is not a string)"},
           {R"("runs_estimate": 1.5)", R"(field "runs_estimate" is not a count or null)"},
           {R"("counterexample": 5)", R"(field "counterexample" is not an object)"},
           {R"("runs": [])", R"(field "runs" is a run report's, in no exhaustive-search summary)"},
           {R"("counterexample": {"faults": 3})", R"(field "counterexample.faults" is not)"},
           {R"("counterexample": {"clients": 4294967296})",
            R"(field "counterexample.clients" is not a count below 2^31)"}}) {
    std::ofstream(path, std::ios::trunc) << "{" << shard << ", " << field << "}";
    const auto result = run_cli("merge " + testing::shell_quote(path));
    EXPECT_EQ(result.exit_code, 2) << field << "\n" << result.output;
    EXPECT_NE(result.output.find("contend merge: " + path + ": " + expected), std::string::npos)
        << field << "\n"
        << result.output;
  }
}

TEST(DeepJson, TupleAndPackRefuseNestingPastTheLimit) {
  const std::string deep = std::string(5000, '[') + std::string(5000, ']');
  const auto result = run_cli("tuple pack " + testing::shell_quote(deep));
  EXPECT_EQ(result.exit_code, 2) << result.output.substr(0, 400);
  EXPECT_NE(result.output.find("nested deeper than 1000 levels"), std::string::npos);
}

}  // namespace
}  // namespace contend
