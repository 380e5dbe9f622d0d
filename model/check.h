// One entry point for every checker: runs the requested ones on a history and combines their
// verdicts. The first violation wins; checkers that disagree (one finds a violation the other
// proves impossible) are reported as a disagreement — a bug in contend, never hidden.
#pragma once

#include <string>
#include <vector>

#include "model/accounting.h"
#include "model/history.h"
#include "model/spec.h"
#include "model/verdict.h"

namespace contend::model {

struct CheckRequest {
  SpecKind spec = SpecKind::fifo;
  bool fast = true;
  bool search = false;
  bool accounting = true;
  std::int64_t search_budget = 2'000'000;
};

struct CheckReport {
  Verdict verdict;                // the combined verdict
  std::vector<Verdict> verdicts;  // one per checker run, in order fast, search, accounting
  Accounting accounting;
  bool disagreement = false;
};

CheckReport check_history(const History& history, const CheckRequest& request);

}  // namespace contend::model
