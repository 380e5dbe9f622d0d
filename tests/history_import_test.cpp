// Histories written by other tools (docs/history.md, "Histories from other tools"): `index` is
// optional, keys outside the schema are ignored and listed (rejected when strict), and process
// ids need not be dense — in the reader and in `contend check`.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

#include "model/check.h"
#include "model/history_json.h"
#include "tests/support/run_cli.h"

namespace contend::model {
namespace {

using contend::testing::CliResult;
using contend::testing::run_cli;

// Invocation and completion of enqueue "a" by process 40, then of a dequeue by process -3 that
// takes it; `extra` is spliced into every line, `index` says whether lines carry one.
std::string history_text(const std::string& extra, bool index) {
  const char* lines[] = {
      R"("type": "invoke", "process": 40, "time": 1, "f": "enqueue", "value": "a")",
      R"("type": "ok", "process": 40, "time": 2, "f": "enqueue", "value": "a")",
      R"("type": "invoke", "process": -3, "time": 3, "f": "dequeue", "value": null)",
      R"("type": "ok", "process": -3, "time": 4, "f": "dequeue", "value": "a")"};
  std::string text;
  int i = 0;
  for (const char* line : lines) {
    text += "{" + (index ? "\"index\": " + std::to_string(i) + ", " : std::string()) + line +
            extra + "}\n";
    ++i;
  }
  return text;
}

TEST(HistoryImport, AMissingIndexReadsAsTheLineOrder) {
  std::istringstream in(history_text("", false));
  HistoryError error;
  auto h = read_history(in, error);
  ASSERT_TRUE(h.has_value()) << error.to_string();
  ASSERT_EQ(h->size(), 4u);
  for (std::size_t i = 0; i < h->size(); ++i)
    EXPECT_EQ((*h)[i].index, static_cast<std::int64_t>(i));
  EXPECT_FALSE(validate_history(*h).has_value());
}

TEST(HistoryImport, AnIndexGivenOnSomeLinesMustStillMatchItsPosition) {
  std::istringstream in(
      R"({"type": "invoke", "process": 0, "time": 1, "f": "enqueue", "value": "a"})"
      "\n"
      R"({"index": 5, "type": "ok", "process": 0, "time": 2, "f": "enqueue", "value": "a"})"
      "\n");
  HistoryError error;
  auto h = read_history(in, error);
  ASSERT_TRUE(h.has_value()) << error.to_string();
  auto invalid = validate_history(*h);
  ASSERT_TRUE(invalid.has_value());
  EXPECT_EQ(invalid->to_string(), "line 2: field \"index\": expected 1, got 5");
}

TEST(HistoryImport, UnknownKeysAreListedOnceOrRejectedWhenStrict) {
  const std::string text = history_text(R"(, "node": "n1", "error": ["x"])", true);
  std::vector<std::string> ignored;
  HistoryError error;
  std::istringstream lenient(text);
  auto h = read_history(lenient, error, nullptr, {.strict = false, .ignored_keys = &ignored});
  ASSERT_TRUE(h.has_value()) << error.to_string();
  EXPECT_EQ(h->size(), 4u);
  EXPECT_EQ(ignored, (std::vector<std::string>{"error", "node"}));
  std::istringstream strict(text);
  EXPECT_FALSE(read_history(strict, error, nullptr, {.strict = true}).has_value());
  EXPECT_EQ(error.to_string(), "line 1: unknown field \"error\"");
}

TEST(HistoryImport, ProcessIdsNeedNotBeDense) {
  std::istringstream in(history_text("", true));
  HistoryError error;
  auto h = read_history(in, error);
  ASSERT_TRUE(h.has_value()) << error.to_string();
  ASSERT_FALSE(validate_history(*h).has_value());
  CheckRequest request;
  request.spec = SpecKind::fifo;
  request.fast = request.search = request.accounting = true;
  CheckReport report = check_history(*h, request);
  EXPECT_EQ(report.verdict.kind, VerdictKind::linearizable) << report.verdict.summary();
}

TEST(HistoryImport, CheckWarnsOnceNamingTheIgnoredKeysAndStrictMakesThemBadInput) {
  const std::string path = ::testing::TempDir() + "/imported.jsonl";
  std::ofstream(path) << history_text(R"(, "node": "n1", "error": null)", false);
  CliResult r = run_cli("check " + path);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("warning: ignored unknown keys \"error\", \"node\" (--strict rejects "
                          "them)"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("warning"), r.output.rfind("warning")) << "one warning: " << r.output;
  CliResult strict = run_cli("check " + path + " --strict");
  EXPECT_EQ(strict.exit_code, 2) << strict.output;
  EXPECT_NE(strict.output.find("line 1: unknown field \"error\""), std::string::npos)
      << strict.output;
  CliResult json = run_cli("check " + path + " --json");
  EXPECT_EQ(json.exit_code, 0) << json.output;
  const auto at = json.output.find("{\"file\"");  // the warning goes to stderr, on its own line
  ASSERT_NE(at, std::string::npos) << json.output;
  EXPECT_TRUE(at == 0 || json.output[at - 1] == '\n') << json.output;
  const auto summary =
      nlohmann::json::parse(json.output.substr(at, json.output.find('\n', at) - at));
  EXPECT_EQ(summary.at("ignored_keys"), nlohmann::json::array({"error", "node"})) << json.output;
}

}  // namespace
}  // namespace contend::model
