// Test support for comparing two exhaustive searches that must agree in everything but how the
// work was shared out (jobs, shards, cuts): their totals, verdicts and first violation.
#pragma once

#include <gtest/gtest.h>

#include "scenarios/exhaustive.h"

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
  EXPECT_EQ(a.distinct_outcomes, b.distinct_outcomes);
  EXPECT_EQ(a.verdicts, b.verdicts);
  EXPECT_EQ(a.violation.has_value(), b.violation.has_value());
  if (a.violation && b.violation) {
    EXPECT_EQ(a.violation->path, b.violation->path);
  }
}

}  // namespace contend::testing
