#include "scenarios/testing/contend_testing.h"

#include <fmt/format.h>

#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <string_view>

#include "base/shell_quote.h"
#include "scenarios/explore.h"
#include "scenarios/trace.h"

namespace contend::testing {

Scenario scenario_for(const RecipeInfo& recipe, int clients, int operations_per_client) {
  Scenario s;
  s.file = "(" + std::string(recipe.name) + ")";
  s.name = std::string(recipe.name);
  s.recipe = std::string(recipe.name);
  s.clients = clients;
  s.operations_per_client = operations_per_client;
  s.seed_first = 1;
  s.seed_last = 50;
  if (recipe.kind == RecipeKind::priority) {
    s.mix.peek_min = 1;
    s.mix.pop_max = 1;
    s.mix.peek_max = 1;
  }
  return s;
}

namespace {

// The GoogleTest flags that run just the current test (a disabled one too).
std::string current_test_flags() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  if (info == nullptr) return "";
  const std::string suite = info->test_suite_name(), name = info->name();
  const bool disabled = suite.rfind("DISABLED_", 0) == 0 || name.rfind("DISABLED_", 0) == 0;
  return (disabled ? "--gtest_also_run_disabled_tests " : "") + std::string("--gtest_filter=") +
         suite + "." + name;
}

}  // namespace

RecipeCheck check_recipe(const RecipeInfo& recipe, Scenario scenario) {
  add_recipe(recipe);
  scenario.recipe = std::string(recipe.name);
  SeedRange seeds{scenario.seed_first, scenario.seed_last};
  RecipeCheck out;
  if (const char* env = std::getenv("CONTEND_SEEDS"); env != nullptr && *env != '\0') {
    // A range mistyped must fail the check: run over the scenario's seeds instead, a nightly
    // job meant to widen the range would pass on the default one.
    std::string error;
    std::optional<SeedRange> parsed = parse_seed_range(env, error);
    if (!parsed) {
      out.passed = false;
      out.report = fmt::format("CONTEND_SEEDS={}: {}; no seed was run\n", env, error);
      return out;
    }
    seeds = *parsed;
  }
  if (auto problem = validate_scenario(scenario)) {
    out.passed = false;
    out.report = *problem;
    return out;
  }
  std::vector<SeedOutcome> outcomes = run_batch(scenario, BatchOptions{seeds, Shard{}, 1, nullptr});
  BatchJudgement j = judge(scenario, outcomes);
  if (j.passed) return out;
  out.passed = false;
  out.report = fmt::format("{} over seeds {}..{} (expect {}): {}\n", recipe.name, seeds.first,
                           seeds.last, scenario.expect, j.why);
  if (j.undecided) out.report += "no checker could judge that seed: it is no pass\n";
  if (const std::optional<std::uint64_t> seed =
          j.first_unexpected ? j.first_unexpected : j.first_unknown) {
    for (const SeedOutcome& r : outcomes) {
      if (r.seed != *seed || r.verdict.kind != model::VerdictKind::violation) continue;
      Counterexample c = shrink(scenario, Finding{r.seed, {}, r.verdict, 0});
      out.report += fmt::format(
          "counterexample: {} client(s) x {} operation(s), seed {}: {}\n  {}\n\n{}\n",
          c.scenario.clients, c.scenario.operations_per_client, c.finding.seed,
          c.finding.verdict.summary(), c.finding.verdict.explanation, trace_text(c.run));
    }
    char exe[4096] = {};
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    out.report += fmt::format(
        "reproduce: CONTEND_SEEDS={} {} {}\n", *seed,
        n > 0 ? shell_quoted(std::string_view(exe, static_cast<std::size_t>(n))) : "<test binary>",
        current_test_flags());
  }
  return out;
}

}  // namespace contend::testing
