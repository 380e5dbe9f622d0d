// A verdict no checker could decide (unknown: the search spent its step budget) is neither a pass
// nor a finding, in every command that judges runs: run, replay, merge and every explore strategy
// exit 3 and say which seed or schedule could not be judged and what gives its checker more; the
// batch judgement that run, merge and contend::testing share calls the batch undecided.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenarios/batch.h"
#include "tests/support/run_cli.h"

namespace contend::testing {
namespace {

std::string scratch(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("contend-undecided-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

// The queue recipe judged by the search alone, with a budget of one step: no seed can be judged.
std::string starved_search(const std::string& dir, int clients, int operations) {
  const std::string path = dir + "/starved.toml";
  std::ofstream(path) << "recipe = \"queue\"\nclients = " << clients
                      << "\noperations_per_client = " << operations
                      << "\nchecks = [\"search\"]\n[limits]\nsearch_budget = 1\n";
  return path;
}

// Runs `scenario` over `seeds` in two shards, each writing DIR/sK.json; each is undecided.
void run_starved_shards(const std::string& dir, const std::string& scenario,
                        const std::string& seeds) {
  for (const char* k : {"1", "2"}) {
    CliResult shard = run_cli("run " + scenario + " --seeds " + seeds + " --shard " + k +
                              "/2 --report json=" + dir + "/s" + k + ".json");
    EXPECT_EQ(shard.exit_code, 3) << shard.output;
  }
}

bool says(const CliResult& r, const std::string& text) {
  return r.output.find(text) != std::string::npos;
}

const char* const kRemedy = "limits.search_budget = 1: a larger one gives it more";

SeedOutcome outcome(std::uint64_t seed, model::Verdict verdict, const std::string& expect) {
  SeedOutcome o;
  o.seed = seed;
  o.as_expected = seed_consistent(expect, verdict);
  o.shows_expected = shows_expected_violation(expect, verdict);
  o.verdict = std::move(verdict);
  return o;
}

model::Verdict lost() {
  return model::violation_verdict("fast", model::ViolationKind::lost, "v0-0 is lost", {0});
}
model::Verdict unknown() {
  return model::unknown_verdict("search", "out of budget");
}
model::Verdict clean() {
  return model::Verdict{};
}

// Before: an unknown seed was judged as an unexpected verdict, a finding no checker made.
TEST(Undecided, AnUnknownSeedLeavesTheBatchUndecidedUnlessTheExpectedViolationWasShown) {
  Scenario s;
  s.expect = "linearizable";
  BatchJudgement j = judge(s, {outcome(1, clean(), s.expect), outcome(2, unknown(), s.expect),
                               outcome(3, clean(), s.expect)});
  EXPECT_FALSE(j.passed);
  EXPECT_TRUE(j.undecided);
  EXPECT_FALSE(j.first_unexpected.has_value());
  EXPECT_EQ(j.first_unknown, std::optional<std::uint64_t>(2));
  EXPECT_NE(j.why.find("seed 2: unknown"), std::string::npos) << j.why;

  // A seed that refutes the expectation is the finding, whatever else could not be judged.
  j = judge(s, {outcome(1, unknown(), s.expect), outcome(2, lost(), s.expect)});
  EXPECT_FALSE(j.passed);
  EXPECT_FALSE(j.undecided);
  EXPECT_EQ(j.first_unexpected, std::optional<std::uint64_t>(2));

  // The violation expected, shown by one seed, is the batch's result; an unknown beside it is not.
  s.expect = "lost";
  j = judge(s, {outcome(1, unknown(), s.expect), outcome(2, lost(), s.expect)}, true);
  EXPECT_TRUE(j.passed) << j.why;
  EXPECT_FALSE(j.undecided);

  // Not shown, over the whole range: the unknown seed might have been the one to show it.
  j = judge(s, {outcome(1, unknown(), s.expect), outcome(2, clean(), s.expect)}, true);
  EXPECT_FALSE(j.passed);
  EXPECT_TRUE(j.undecided);
  EXPECT_EQ(j.first_unknown, std::optional<std::uint64_t>(1));
}

// Before: "UNEXPECTED (linearizable)", exit 1 — and the JUnit failure called it unexpected.
TEST(Undecided, RunSaysUndecidedNamesTheSeedAndTheBudgetAndExitsThree) {
  const std::string dir = scratch("run");
  const std::string scenario = starved_search(dir, 2, 2);
  CliResult r = run_cli("run " + scenario + " --seeds 1..3 --report junit=" + dir + "/j.xml");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_TRUE(says(r, "UNDECIDED (expect linearizable): no checker could judge seed 1"))
      << r.output;
  EXPECT_TRUE(says(r, kRemedy)) << r.output;
  EXPECT_TRUE(says(r, "3 of 3 seeds could not be judged by any checker")) << r.output;
  EXPECT_TRUE(says(r, "reproduce: contend replay " + scenario + " --seed 1")) << r.output;
  EXPECT_FALSE(says(r, "UNEXPECTED")) << r.output;
  std::ifstream junit(dir + "/j.xml");
  const std::string xml((std::istreambuf_iterator<char>(junit)), std::istreambuf_iterator<char>());
  EXPECT_NE(xml.find("type=\"unknown verdict\""), std::string::npos) << xml;
}

// Before: replay printed "verdict: unknown" and exited 1, as for a violation.
TEST(Undecided, ReplaySaysWhatTheSearchLackedAndExitsThree) {
  const std::string dir = scratch("replay");
  CliResult r = run_cli("replay " + starved_search(dir, 2, 2) + " --seed 1 --quiet");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_TRUE(says(r, "verdict: unknown")) << r.output;
  EXPECT_TRUE(says(r, kRemedy)) << r.output;
}

// Before: "UNEXPECTED: seed 1: unknown", exit 1.
TEST(Undecided, MergedShardsOfUnjudgedSeedsAreUndecided) {
  const std::string dir = scratch("merge");
  run_starved_shards(dir, starved_search(dir, 2, 2), "1..4");
  CliResult merged =
      run_cli("merge " + dir + "/s1.json " + dir + "/s2.json --out " + dir + "/merged.json");
  EXPECT_EQ(merged.exit_code, 3) << merged.output;
  EXPECT_TRUE(says(merged, "UNDECIDED: seed 1: no checker could judge it, expected linearizable"))
      << merged.output;
  EXPECT_FALSE(says(merged, "UNEXPECTED")) << merged.output;
}

// Before: a report said only "passed": false, the same as for a finding; merged to standard
// output (where merge prints no verdict line), nothing but the exit code told them apart.
TEST(Undecided, TheReportsNameTheResultUndecidedAsTheExitCodeDoes) {
  const std::string dir = scratch("result");
  run_starved_shards(dir, starved_search(dir, 2, 1), "1..2");
  for (const char* k : {"1", "2"}) {
    const nlohmann::json report = nlohmann::json::parse(read_file(dir + "/s" + k + ".json"));
    EXPECT_EQ(report.value("result", ""), "undecided") << report.dump(2);
    EXPECT_EQ(report.at("passed"), false);
  }
  CliResult merged = run_cli("merge " + dir + "/s1.json " + dir + "/s2.json --out -");
  EXPECT_EQ(merged.exit_code, 3) << merged.output;
  const nlohmann::json report = nlohmann::json::parse(merged.output);
  EXPECT_EQ(report.value("result", ""), "undecided") << merged.output;
}

// Before: random, PCT and DFS said "no violation found" and exited 0 with every schedule unknown.
TEST(Undecided, ExplorationThatCouldJudgeNoScheduleIsNoPass) {
  const std::string dir = scratch("explore");
  const std::string scenario = starved_search(dir, 2, 2);
  for (const char* strategy : {"random", "pct", "dfs"}) {
    CliResult r = run_cli("explore " + scenario + " --strategy " + strategy + " --schedules 5");
    EXPECT_EQ(r.exit_code, 3) << strategy << "\n" << r.output;
    EXPECT_TRUE(says(r, "UNDECIDED: 5 of the 5 schedules run could not be judged")) << r.output;
    EXPECT_TRUE(says(r, kRemedy)) << r.output;
    EXPECT_TRUE(says(r, "reproduce: contend replay " + scenario + " --seed ")) << r.output;
    EXPECT_FALSE(says(r, "no violation found")) << r.output;
  }
}

// Before: dpor exhausted its space, printed "NOT VERIFIED ... could not be judged" and exited 0,
// because every execution had the one verdict "unknown".
TEST(Undecided, AnExhaustedSearchOfUnjudgedExecutionsIsNotVerified) {
  const std::string dir = scratch("dpor");
  CliResult r = run_cli("explore " + starved_search(dir, 2, 2) + " --strategy dpor");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_TRUE(says(r, "NOT VERIFIED: every execution of")) << r.output;
  EXPECT_TRUE(says(r, "of them could not be judged")) << r.output;
  EXPECT_FALSE(says(r, "\nVERIFIED")) << r.output;
}

// Before: each shard of that search exited 0 with "verdict": "linearizable" in its --json, and
// their merge, seeing every execution unknown, exited 1 as for a finding.
TEST(Undecided, ShardsOfASearchOfUnjudgedExecutionsMergeToUnknown) {
  const std::string dir = scratch("dpor-shards");
  const std::string scenario = starved_search(dir, 2, 2);
  std::string files;
  for (const char* k : {"1", "2"}) {
    const std::string json = dir + "/shard" + k + ".json";
    CliResult shard =
        run_cli("explore " + scenario + " --strategy dpor --shard " + k + "/2 --json " + json);
    EXPECT_EQ(shard.exit_code, 3) << shard.output;
    EXPECT_EQ(nlohmann::json::parse(read_file(json)).at("verdict"), "unknown");
    files += " " + json;
  }
  CliResult merged = run_cli("merge" + files + " --out " + dir + "/merged.json");
  EXPECT_EQ(merged.exit_code, 3) << merged.output;
  EXPECT_TRUE(says(merged, "NOT VERIFIED: 2 shards")) << merged.output;
  EXPECT_EQ(nlohmann::json::parse(read_file(dir + "/merged.json")).at("verdict"), "unknown");
}

}  // namespace
}  // namespace contend::testing
