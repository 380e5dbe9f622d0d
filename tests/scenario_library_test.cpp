// Every shipped scenario states its expected verdict; each is run here over a small seed range
// and must give it. A scenario whose [strategy] is dpor (a rare bug random seeds seldom show)
// must give it under the exhaustive search it names instead.
#include <gtest/gtest.h>

#include <filesystem>

#include "scenarios/exhaustive.h"
#include "scenarios/expectation.h"

namespace contend {
namespace {

std::vector<std::string> shipped_scenarios() {
  std::vector<std::string> out;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(CONTEND_SOURCE_DIR) + "/scenarios")) {
    if (entry.path().extension() == ".toml") out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

class ShippedScenarios : public ::testing::TestWithParam<std::string> {};

TEST_P(ShippedScenarios, GiveTheirExpectedVerdict) {
  ScenarioError error;
  auto s = load_scenario(GetParam(), error);
  ASSERT_TRUE(s.has_value()) << error.message;
  ASSERT_FALSE(validate_scenario(*s).has_value()) << *validate_scenario(*s);
  const std::uint64_t last = std::min(s->seed_last, s->seed_first + 19);
  bool found_expected = false;
  for (std::uint64_t seed = s->seed_first; seed <= last; ++seed) {
    model::CheckReport report = check_run(*s, run_seed(*s, seed));
    ASSERT_FALSE(report.disagreement) << "seed " << seed;
    ASSERT_TRUE(seed_consistent(s->expect, report.verdict))
        << s->name << " seed " << seed << ": " << report.verdict.summary() << ": "
        << report.verdict.explanation;
    found_expected = found_expected || shows_expected_violation(s->expect, report.verdict);
  }
  if (s->expect != "linearizable" && s->strategy.name == "dpor") {
    ExhaustiveOptions o;
    o.seed = s->seed_first;
    o.max_faults = s->strategy.dpor_max_faults;
    o.all_plans = s->strategy.dpor_plans == "all";
    o.explore_draws = s->strategy.dpor_draws == "all";
    ExhaustiveResult r = explore_exhaustively(*s, o);
    ASSERT_TRUE(r.violation.has_value()) << s->name << ": " << proof_statement(*s, o, r);
    EXPECT_TRUE(shows_expected_violation(s->expect, r.violation->verdict))
        << r.violation->verdict.summary();
  } else if (s->expect != "linearizable") {
    EXPECT_TRUE(found_expected) << s->name << ": no seed in the first 20 showed " << s->expect;
  }
}

INSTANTIATE_TEST_SUITE_P(Library, ShippedScenarios, ::testing::ValuesIn(shipped_scenarios()),
                         [](const auto& info) {
                           std::string n = std::filesystem::path(info.param).stem().string();
                           for (char& c : n)
                             c = c == '-' ? '_' : c;
                           return n;
                         });

}  // namespace
}  // namespace contend
