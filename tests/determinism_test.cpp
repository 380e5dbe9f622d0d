// Determinism is a feature with a test: the same scenario and seed give byte-identical histories
// and run hashes across runs, across --jobs-free reruns in one process, and across build types
// (an -O0 build with assertions against this optimised one).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <sstream>

#include "model/history_json.h"
#include "scenarios/runner.h"

namespace contend {
namespace {

const char* kScenarios[] = {"scenarios/queue.toml", "scenarios/priority-queue.toml",
                            "scenarios/hc-queue.toml", "scenarios/idempotent-queue.toml"};

std::string path_of(const char* relative) {
  return std::string(CONTEND_SOURCE_DIR) + "/" + relative;
}

TEST(Determinism, DebugAndReleaseBuildsGiveTheSameRunHashes) {
  std::string command = CONTEND_DEBUG_PROBE;
  for (const char* s : kScenarios)
    command += " " + path_of(s);
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    out.append(buffer.data(), n);
  ASSERT_EQ(pclose(pipe), 0) << out;
  std::istringstream lines(out);
  int compared = 0;
  std::string file;
  std::uint64_t seed = 0;
  std::string hash;
  while (lines >> file >> seed >> hash) {
    ScenarioError error;
    auto scenario = load_scenario(file, error);
    ASSERT_TRUE(scenario.has_value()) << error.message;
    char mine[32];
    std::snprintf(mine, sizeof mine, "%016llx",
                  static_cast<unsigned long long>(run_seed(*scenario, seed).metrics.run_hash));
    EXPECT_EQ(hash, mine) << file << " seed " << seed << " differs between the -O0 and this build";
    ++compared;
  }
  EXPECT_EQ(compared, 5 * static_cast<int>(std::size(kScenarios)));
}

TEST(Determinism, SerializedHistoriesAreByteIdenticalAcrossReruns) {
  ScenarioError error;
  auto s = load_scenario(path_of("scenarios/queue.toml"), error);
  ASSERT_TRUE(s.has_value());
  s->faults.crash = 0.01;
  s->faults.unknown_result_applied = 0.05;
  s->faults.read_too_old = 0.02;
  for (std::uint64_t seed : {1, 2, 99}) {
    std::ostringstream a, b;
    SeedRun first = run_seed(*s, seed);
    SeedRun second = run_seed(*s, seed);
    model::write_history(a, first.history);
    model::write_history(b, second.history);
    EXPECT_EQ(a.str(), b.str()) << "seed " << seed;
    EXPECT_EQ(first.metrics.unseed, second.metrics.unseed) << "unseed mismatch at seed " << seed;
  }
}

}  // namespace
}  // namespace contend
