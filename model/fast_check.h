// Fast checkers for unique-value queue histories (every inserted value distinct), O(n log n):
// they look for the named violation patterns of Henzinger, Sezgin & Vafeiadis (CONCUR 2013) and
// their priority-queue counterparts (Bouajjani, Enea & Wang, CONCUR 2017):
//   value_from_nowhere   a value removed/peeked that was never inserted (or only by a failed
//                        insert), with another priority, before its insert was invoked, or
//                        peeked after its removal completed
//   duplicate_delivery   two successful removes of one value
//   empty_while_nonempty an empty answer while values provably present cover its whole interval
//                        (one value or a relay of several)
//   lost                 the same with one acknowledged, never-removed value as the witness; or
//                        (with `drained`) more never-removed values than indeterminate removes
//   order_inversion      (fifo) a inserted before b, yet b removed before a's remove was invoked,
//                        or b removed while a never is
//   priority_inversion   (priority) a pop/peek returned x while a better item — by priority,
//                        then by push order per end — was provably present throughout it
//
// Each value v gets the window in which it provably sits in the queue: from hi_start (its insert,
// or the first operation that saw it, had completed) to lo_end (its remove, or the last peek that
// saw it, had been invoked). Indeterminate ops: an info insert took effect iff its value is seen;
// an info remove may have taken one value no other remove returned, at any time after its
// invocation — so patterns that need a never-removed value stay silent when one could have.
//
// SOUND: a reported violation is a real one (no linearization exists); cross-checked against
// the search by property tests. COMPLETE (a pass is a proof, Verdict::exact) for FIFO histories
// with unique values and no indeterminate operation. Otherwise a pass means "no pattern found":
// use the search (docs/checkers.md lists what can be missed).
// Histories whose values are not unique get an `unknown` verdict.
#pragma once

#include "model/history.h"
#include "model/operations.h"
#include "model/spec.h"
#include "model/verdict.h"

namespace contend::model {

struct FastOptions {
  bool drained = false;  // the history ends with the queue empty (every value must come out)
  TieOrder ties = TieOrder::concurrent;
};

Verdict check_fast(const History& history, SpecKind spec, const FastOptions& options = {});
Verdict check_fast(const Operations& ops, SpecKind spec, const FastOptions& options = {});

}  // namespace contend::model
