// The schedules of one execution that order its operations most in real time.
//
// The exhaustive search (dpor.h, without real-time dependence) runs one schedule of each class of
// executions that differ only in how clients' steps interleave where no store outcome depends on
// it. Every schedule of a class — every order of its steps that keeps each client's steps in
// order and every dependent pair of steps (footprint.h) in order — reaches the same reads, commit
// answers and final store; the schedules differ only in the real-time order of operations: which
// operation completed before another client's invoked. Linearizability is monotone in that order
// (a history whose operations are ordered more allows fewer linearisations, each of them one of
// the less ordered history's), so a class holds a violation exactly when one of its *most ordered*
// schedules does — those whose real-time order no other schedule of the class strictly contains.
// This unit finds them, one schedule per distinct most-ordered relation.
//
// How: a completion taken as early as its dependences allow only adds precedences, and a step
// that neither invokes nor completes changes none, so both are taken as soon as they are ready.
// First, a greedy pass looks for one schedule with every precedence any schedule of the class
// has (each invocation taken only once all it can follow completed); when there is one, its
// relation is the only most ordered one (priority-queue 3 x 2: 58% of the classes the executed
// schedule does not settle; hc-queue 3 x 2: 98%). Otherwise the search branches only on which ready
// invoking step comes next, remembers the (steps taken, precedences so far) states it has seen, and
// keeps the relations no other one contains.
//
// Invariants: every order returned is a permutation of the log's steps that keeps every dependent
// pair in its executed order (replaying it reaches the same store outcomes); the relations of the
// orders returned are pairwise different and none contains another; the executed schedule's own
// relation is contained in one of them.
#pragma once

#include <cstddef>
#include <vector>

#include "model/history.h"
#include "sim/runtime/footprint.h"

namespace contend {

struct RealTimeOrders {
  std::vector<std::vector<std::size_t>> orders;  // step indexes of the log, in schedule order
  bool executed_is_most_ordered = false;         // the only order is the executed one's relation
};

// The steps' dependence order when the caller has it already — the transitive closure of
// ExecutionDependence with DependenceRule{}, as vector clocks (the reduced search computes them
// for its races: dpor.h's DporExplorer::clocks): step i comes before step j in every schedule of
// the class exactly when (*clocks)[j * width + steps[i].thread] >= (*positions)[i]. Without
// clocks the order is computed here.
struct KnownOrder {
  const std::vector<int>* clocks = nullptr;
  const std::vector<int>* positions = nullptr;  // per step: 1-based, among its thread's steps
  std::size_t width = 0;                        // entries a step: every thread id is below it
};

// REQUIRES: `steps` are the log's steps resolved (footprint.h's resolve_step), `history` the
// run's history, whose events the log's steps name.
RealTimeOrders most_ordered_schedules(const std::vector<ResolvedStep>& steps, const StepLog& log,
                                      const model::History& history, const KnownOrder& known = {});

// The history as the schedule `order` (a permutation of the log's steps) records it: the events
// recorded outside any step (before the first step, and the drain after the last) stay where
// they were; each step's events move with the step. Indexes are renumbered; times are the
// original times in their original order, so they still never decrease.
model::History reordered_history(const model::History& history, const StepLog& log,
                                 const std::vector<std::size_t>& order);

}  // namespace contend
