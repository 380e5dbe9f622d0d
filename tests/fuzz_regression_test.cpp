// Inputs the fuzz targets (fuzz/) found, kept as regression tests: each failed before its fix.
#include <gtest/gtest.h>

#include "scenarios/scenario.h"

namespace contend {
namespace {

// scenario_fuzz: a scenario whose name held a carriage return ("\r" in the TOML) was written back
// by to_toml with the raw control character, which TOML does not allow in a string, so the
// written scenario did not parse. (The name found held backslashes before it too; a name holds
// none, scenario_bounds.h, so here the description does.)
TEST(FuzzRegression, ControlCharactersInScenarioStringsWriteBackAsEscapes) {
  const std::string text =
      "name = \"hc-priority-queueSSSirsZ\\rity-queue\"\n"
      "description = \"SSSirsZ\\\\\\\\\\r, tab\\there, bell\\u0007, delete\\u007f\"\n"
      "recipe = \"queue\"\n";
  ScenarioError error;
  std::optional<Scenario> s = parse_scenario(text, "fuzz.toml", error);
  ASSERT_TRUE(s.has_value()) << error.message;
  EXPECT_EQ(s->name, "hc-priority-queueSSSirsZ\rity-queue");
  EXPECT_EQ(s->description, "SSSirsZ\\\\\r, tab\there, bell\u0007, delete\u007f");
  const std::string written = to_toml(*s);
  ScenarioError again_error;
  std::optional<Scenario> again = parse_scenario(written, "fuzz.toml", again_error);
  ASSERT_TRUE(again.has_value()) << again_error.message << "\n" << written;
  EXPECT_EQ(again->name, s->name);
  EXPECT_EQ(again->description, s->description);
  EXPECT_EQ(to_toml(*again), written);
}

// scenario_fuzz under UBSan: an integer key given a float far past int64's range was converted
// before its type was checked (undefined behaviour in the conversion).
TEST(FuzzRegression, AFloatWhereAnIntegerBelongsIsAnErrorWhateverItsSize) {
  for (const char* clients : {"2222e222", "-1e300", "2.5", "nan", "inf"}) {
    ScenarioError error;
    auto s = parse_scenario(std::string("recipe = \"queue\"\nclients = ") + clients + "\n",
                            "fuzz.toml", error);
    EXPECT_FALSE(s.has_value()) << clients;
    EXPECT_NE(error.message.find("expected an integer"), std::string::npos)
        << clients << ": " << error.message;
  }
}

// scenario_fuzz: a knob of -0.0 was kept negative, written by to_toml as `-0` (TOML's integer
// zero), read back as +0.0 and written as `0`: the written scenario did not write back the same.
TEST(FuzzRegression, NegativeZeroKnobsWriteBackTheSame) {
  ScenarioError error;
  auto s = parse_scenario("recipe = \"queue\"\n[faults]\nunknown_result_applied = -0.0\n",
                          "fuzz.toml", error);
  ASSERT_TRUE(s.has_value()) << error.message;
  const std::string written = to_toml(*s);
  auto again = parse_scenario(written, "fuzz.toml", error);
  ASSERT_TRUE(again.has_value()) << error.message;
  EXPECT_EQ(to_toml(*again), written);
}

}  // namespace
}  // namespace contend
