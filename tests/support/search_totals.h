// Test support for comparing exhaustive searches that must agree in everything but how the
// work was shared out (jobs, shards, cuts): their totals, verdicts and first violation.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>

#include "scenarios/exhaustive.h"
#include "tests/support/search_cases.h"

namespace contend::testing {

// The result without what may differ between equal searches: the readable outcomes (kept by one
// search only) and the time.
inline ExhaustiveResult without_outcome_strings(ExhaustiveResult r) {
  r.outcomes.clear();
  r.seconds = 0;
  return r;
}

inline void expect_same_totals(const ExhaustiveResult& a, const ExhaustiveResult& b) {
  EXPECT_EQ(a.exhausted, b.exhausted);
  EXPECT_EQ(a.executions, b.executions);
  EXPECT_EQ(a.blocked, b.blocked);
  EXPECT_EQ(a.parked, b.parked);
  EXPECT_EQ(a.distinct_outcomes, b.distinct_outcomes);
  EXPECT_EQ(a.verdicts, b.verdicts);
  EXPECT_EQ(a.coverage, b.coverage);
  EXPECT_EQ(a.violation.has_value(), b.violation.has_value());
  if (a.violation && b.violation) {
    EXPECT_EQ(a.violation->path, b.violation->path);
  }
}

// `s` searched with `o` cut at the root (`root_units` units), then cut ever deeper below it: the
// same outcomes, and at each depth two jobs give the same totals and three shards add up to it.
inline void expect_cutting_below_the_root_changes_nothing(const Scenario& s,
                                                          const ExhaustiveOptions& o,
                                                          std::int64_t root_units) {
  ExhaustiveOptions root_only = o;
  root_only.units_wanted = 1;
  const ExhaustiveResult at_root = explore_exhaustively(s, root_only);
  ASSERT_TRUE(at_root.exhausted) << at_root.error;
  EXPECT_EQ(at_root.units, root_units);
  for (std::size_t wanted : {8U, 64U, 400U}) {
    ExhaustiveOptions deeper = o;
    deeper.units_wanted = wanted;
    const ExhaustiveResult cut = explore_exhaustively(s, deeper);
    ASSERT_TRUE(cut.exhausted) << wanted << " units wanted";
    EXPECT_GT(cut.units, at_root.units) << wanted << " units wanted";
    EXPECT_EQ(cut.outcomes, at_root.outcomes)
        << wanted << " units wanted: " << first_difference(at_root.outcomes, cut.outcomes, "cut");
    EXPECT_EQ(cut.verdicts, at_root.verdicts) << wanted << " units wanted";
    ExhaustiveOptions two_jobs = deeper;
    two_jobs.jobs = 2;
    expect_same_totals(without_outcome_strings(cut),
                       without_outcome_strings(explore_exhaustively(s, two_jobs)));
    std::int64_t executions = 0;
    Coverage coverage;
    std::set<std::string> outcomes;
    for (std::uint64_t k = 1; k <= 3; ++k) {
      ExhaustiveOptions shard = deeper;
      shard.shard = Shard{k, 3};
      const ExhaustiveResult part = explore_exhaustively(s, shard);
      EXPECT_TRUE(part.exhausted) << "shard " << k << "/3";
      executions += part.executions;
      add_coverage(part.coverage, coverage);
      outcomes.insert(part.outcomes.begin(), part.outcomes.end());
    }
    EXPECT_EQ(executions, cut.executions) << wanted << " units wanted";
    EXPECT_EQ(coverage, cut.coverage) << wanted << " units wanted";
    EXPECT_EQ(outcomes, cut.outcomes) << wanted << " units wanted";
  }
}

}  // namespace contend::testing
