// Fast checkers for unique-value queue histories (every inserted value distinct), in
// O(n log n): they look for the named violation patterns of Henzinger, Sezgin & Vafeiadis
// (CONCUR 2013) and their priority-queue counterparts (Bouajjani, Enea & Wang, CONCUR 2017):
//   value_from_nowhere   a value removed/peeked that was never inserted, or only after
//   duplicate_delivery   two successful removes of one value
//   order_inversion      (fifo) a inserted before b, b removed before a was even invoked to be
//   empty_while_nonempty an empty result although more values were provably present throughout
//                        its interval than indeterminate removes could have taken
//   lost                 the same, for the empty result that ends a drain
//   priority_inversion   (priority) a better item provably present throughout a pop/peek
// They are sound: a reported violation is a real one (each is checked against the search in the
// property tests). They are complete for the single-witness patterns; a queue kept non-empty
// only by a relay of values, none spanning the empty result alone, is left to the search
// (docs/checkers.md).
#pragma once

#include "model/history.h"
#include "model/spec.h"
#include "model/verdict.h"

namespace contend::model {

Verdict check_fast(const History& history, SpecKind spec);

}  // namespace contend::model
