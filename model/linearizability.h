// Linearizability search (Wing & Gong with Lowe's memoisation of (linearized set, state), in
// Porcupine's form): the exact reference checker. Iterative — an explicit stack of frames and a
// doubly linked list of call/return entries, no recursion — and bounded by a step budget (and a
// memo size budget): running out gives an `unknown` verdict, never a hang.
//
// Semantics:
// - real time: operation a must precede b exactly when a completed before b was invoked
//   (operations.h; closed intervals, ties per TieOrder);
// - `info` operations and invocations never completed may take effect at any point after their
//   invocation, or never; `fail` operations never took effect (dropped);
// - an indeterminate remove, if it takes effect, takes whatever the spec lets a remove take at
//   that point (its output is unknown);
// - with `drained`, the queue must end empty: every item that took effect was removed (an
//   indeterminate remove left over may take one item at the end).
// Works for every spec in spec.h and for histories whose values are not unique.
// Evidence: on a violation, the longest linearizable prefix found (operation invocation
// indexes, in order), the queue it leaves, and the operations none of which can be placed next.
// On success, `longest_prefix` holds the linearization found.
// Past the budget, the history's parts of one and two items are searched (part_search.h): one
// with no linearization decides a violation, and is its evidence; the verdict is `unknown` only
// when none fails. After a violation, a smaller failing part is added to the evidence.
// Candidates are tried in the order of search_order.h (by default: observers first, each insert
// just in time, in the order the queue hands its items out), which decides how soon a
// linearization is found and never the verdict; a remove or peek the spec says would see another
// item is passed over without a step (specs with at_end()). Cost: exponential in concurrency in
// the worst case; a linearizable FIFO history of 64 processes takes one step an operation
// (docs/checkers.md has the figures).
#pragma once

#include <cstdint>

#include "model/history.h"
#include "model/operations.h"
#include "model/search_order.h"
#include "model/spec.h"
#include "model/verdict.h"

namespace contend::model {

struct SearchOptions {
  std::int64_t step_budget = 2'000'000;  // spec steps tried
  bool drained = false;                  // the history ends with the queue empty
  TieOrder ties = TieOrder::concurrent;
  std::int64_t memo_budget_bytes = std::int64_t{1} << 30;
  CandidateOrder order = CandidateOrder::by_observation;  // search_order.h: speed, never verdicts
  // Under by_observation: pass over operations placed against the orders every linearization
  // keeps (necessary_orders.h). Speed, never verdicts; a violation's evidence comes from a
  // search without them when that one ends within a few times the steps (see
  // search_linearizable), as its longest prefix goes as far as the spec allows.
  bool keep_necessary_orders = true;
  // Search the history's parts of one and two items (part_search.h): when the whole is beyond
  // the budget, with as many steps again (a part with no linearization is a violation of the
  // whole, and its smallest evidence); after a violation, for a smaller proof.
  bool search_parts = true;
};

Verdict check_linearizable(const History& history, SpecKind spec,
                           const SearchOptions& options = {});
Verdict check_linearizable(const Operations& ops, SpecKind spec, const SearchOptions& options = {});

// The search against any spec class (spec.h's Spec concept), e.g. RelaxedFifoSpec{3}.
template <Spec S>
Verdict search_linearizable(const Operations& ops, const S& spec, const SearchOptions& options);

}  // namespace contend::model

#include "model/linearizability_search.h"
#include "model/part_search.h"
