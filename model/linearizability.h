// Linearizability search (Wing & Gong with Lowe's memoisation of (linearized set, state)): the
// exact reference checker. Iterative — an explicit stack, no recursion — and bounded by a step
// budget: running out gives an `unknown` verdict, never a hang.
// `info` operations may take effect at any point after their invocation, or never; `fail`
// operations never took effect. Works for histories without unique values too.
// Cost: exponential in concurrency in the worst case — use it for small histories and as the
// reference the fast checkers are tested against.
#pragma once

#include <cstdint>

#include "model/history.h"
#include "model/spec.h"
#include "model/verdict.h"

namespace contend::model {

struct SearchOptions {
  std::int64_t step_budget = 2'000'000;
};

Verdict check_linearizable(const History& history, SpecKind spec,
                           const SearchOptions& options = {});

}  // namespace contend::model
