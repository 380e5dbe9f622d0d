// One entry point for every checker: runs the requested ones on a history and combines their
// verdicts. The first violation wins; checkers that disagree — one reports a violation while
// another proves a linearization exists (the search, or the fast checker where it is exact) —
// are reported as a disagreement: a bug in contend, never hidden.
#pragma once

#include <string>
#include <vector>

#include "model/accounting.h"
#include "model/history.h"
#include "model/operations.h"
#include "model/spec.h"
#include "model/verdict.h"

namespace contend::model {

struct CheckRequest {
  SpecKind spec = SpecKind::fifo;
  bool fast = true;
  bool search = false;
  bool accounting = true;
  std::int64_t search_budget = 2'000'000;
  bool drained = false;  // the history ends with the queue empty (else inferred by accounting)
  // Histories recorded by contend's simulator: the event order is the real order. Histories
  // from elsewhere: TieOrder::concurrent (Porcupine's reading of equal timestamps).
  TieOrder ties = TieOrder::event_order;
};

struct CheckReport {
  Verdict verdict;                // the combined verdict
  std::vector<Verdict> verdicts;  // one per checker run, in order fast, search, accounting
  Accounting accounting;
  bool disagreement = false;
};

CheckReport check_history(const History& history, const CheckRequest& request);

}  // namespace contend::model
