// Inputs the fuzz targets (fuzz/) found, kept as regression tests: each failed before its fix.
#include <gtest/gtest.h>

#include "scenarios/scenario.h"

namespace contend {
namespace {

// scenario_fuzz: a scenario whose name held a carriage return ("\r" in the TOML) was written back
// by to_toml with the raw control character, which TOML does not allow in a string, so the
// written scenario did not parse.
TEST(FuzzRegression, ControlCharactersInScenarioStringsWriteBackAsEscapes) {
  const std::string text =
      "name = \"hc-priority-queueSSSirsZ\\\\\\\\\\rity-queue\"\n"
      "description = \"tab\\there, bell\\u0007, delete\\u007f\"\n"
      "recipe = \"queue\"\n";
  ScenarioError error;
  std::optional<Scenario> s = parse_scenario(text, "fuzz.toml", error);
  ASSERT_TRUE(s.has_value()) << error.message;
  EXPECT_EQ(s->name, "hc-priority-queueSSSirsZ\\\\\rity-queue");
  const std::string written = to_toml(*s);
  ScenarioError again_error;
  std::optional<Scenario> again = parse_scenario(written, "fuzz.toml", again_error);
  ASSERT_TRUE(again.has_value()) << again_error.message << "\n" << written;
  EXPECT_EQ(again->name, s->name);
  EXPECT_EQ(again->description, s->description);
  EXPECT_EQ(to_toml(*again), written);
}

}  // namespace
}  // namespace contend
