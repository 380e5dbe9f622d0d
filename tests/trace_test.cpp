// The readable trace of a run (scenarios/trace.h): what its operation lines say of who ran them.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "scenarios/runner.h"
#include "scenarios/trace.h"
#include "tests/support/run_cli.h"

namespace contend {
namespace {

RunControls recording_attempts() {
  RunControls controls;
  controls.record_attempts = true;
  return controls;
}

Scenario queue_scenario() {
  ScenarioError error;
  auto s = load_scenario(testing::source_path("scenarios/queue.toml"), error);
  EXPECT_TRUE(s.has_value()) << error.message;
  return *s;
}

// A counterexample of one client showed a second, "process 1 (client 1)", dequeuing what the
// first enqueued, and nothing said it was the drain the scenario runs after its clients.
TEST(Trace, TheDrainsOperationsAndOnlyTheyAreMarkedAsTheDrains) {
  Scenario s = queue_scenario();
  s.clients = 2;
  s.operations_per_client = 3;
  ASSERT_TRUE(s.drain);
  const SeedRun run = run_seed(s, 1, recording_attempts());
  ASSERT_TRUE(run.drained);
  ASSERT_TRUE(run.drain_process.has_value());
  const ClientId drain_client = run.process_client.at(*run.drain_process);
  const std::string drain_label = "process " + std::to_string(*run.drain_process) + " (client " +
                                  std::to_string(drain_client) + ": the drain) ";
  std::istringstream lines(trace_text(run));
  int drain_lines = 0;
  int client_lines = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("  op  ") == std::string::npos) continue;
    const bool marked = line.find(": the drain)") != std::string::npos;
    if (line.find(drain_label) != std::string::npos) {
      ++drain_lines;
    } else {
      EXPECT_FALSE(marked) << line;
      ++client_lines;
    }
  }
  EXPECT_GE(drain_lines, 2) << "the drain's invoke and ok of at least one dequeue";
  EXPECT_EQ(client_lines, 2 * 2 * 3) << "an invoke and a completion of each client operation";

  s.drain = false;
  const SeedRun undrained = run_seed(s, 1, recording_attempts());
  EXPECT_FALSE(undrained.drain_process.has_value());
  EXPECT_EQ(trace_text(undrained).find("the drain"), std::string::npos);
}

}  // namespace
}  // namespace contend
