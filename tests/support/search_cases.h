// Test support for the exhaustive search's soundness tests (dpor_test, state_cache_test): small
// scopes of a recipe, the cases they are listed as (printed readably: CTest names each test by
// what they print), and the first outcome two searches disagree on, for the failure message.
#pragma once

#include <ostream>
#include <set>
#include <string>

#include "model/verdict.h"
#include "scenarios/exhaustive.h"
#include "scenarios/scenario.h"

namespace contend::testing {

// `clients` x `ops` of `recipe`, checked by every checker; with `faults`, the commit faults a
// fault budget may place are enabled.
inline Scenario small_scope(const std::string& recipe, int clients, int ops, int faults = 0) {
  Scenario s;
  s.file = "(test)";
  s.name = recipe;
  s.recipe = recipe;
  s.clients = clients;
  s.operations_per_client = ops;
  s.checks = {"fast", "accounting", "serializability"};
  s.priority_min = 0;
  s.priority_max = 1;
  if (faults > 0) {
    s.faults.unknown_result_applied = 0.1;
    s.faults.unknown_result_not_applied = 0.1;
    s.faults.not_committed = 0.1;
  }
  return s;
}

// A search that a soundness comparison runs: to the end (every violation, no minimising), every
// outcome kept readable with what each attempt read, `reduce` or the full search.
inline ExhaustiveOptions soundness_options(bool reduce, bool all_plans, int faults) {
  ExhaustiveOptions o;
  o.reduce = reduce;
  o.all_plans = all_plans;
  o.max_faults = faults;
  o.stop_at_first_violation = false;
  o.minimise = false;
  o.collect_outcomes = true;
  o.observe_attempts = true;
  // A parked run leaves out the attempts of a round that made no progress, which the attempts
  // observed here would count as another outcome: parking is checked on its own (dpor_test's
  // Parking), by the outcomes a user sees.
  o.park_unproductive_waits = false;
  // The full search schedules every store step; the reduced one runs inert steps inside the step
  // before them (WorldOptions::split_inert_steps), which the comparison checks too.
  o.split_inert_steps = !reduce;
  o.max_executions = 3'000'000;
  // Each run keeps the steps it shares with the last one from it (dpor.h); here every run also
  // computes them afresh and asserts they are equal.
  o.check_reuse = true;
  return o;
}

struct SearchCase {
  const char* recipe;
  int clients;
  int ops;
  bool all_plans;
  int faults;
};

inline void PrintTo(const SearchCase& c, std::ostream* os) {
  *os << c.recipe << " " << c.clients << "x" << c.ops << (c.all_plans ? " all plans" : " seed plan")
      << " faults<=" << c.faults;
}

// A known-wrong recipe at the smallest scope its violation needs, and the violation's kind.
struct WrongCase {
  const char* recipe;
  int clients;
  int ops;
  int faults;
  model::ViolationKind kind;
};

inline void PrintTo(const WrongCase& w, std::ostream* os) {
  *os << w.recipe << " " << w.clients << "x" << w.ops << " faults<=" << w.faults << " finds "
      << model::to_string(w.kind);
}

inline Scenario scope_of(const SearchCase& c) {
  return small_scope(c.recipe, c.clients, c.ops, c.faults);
}

// The first outcome one set has and the other lacks ("only in <name>: ..."), or "none".
inline std::string first_difference(const std::set<std::string>& full,
                                    const std::set<std::string>& other,
                                    const std::string& other_name) {
  for (const std::string& x : full) {
    if (other.count(x) == 0) return "only in the full search: " + x;
  }
  for (const std::string& x : other) {
    if (full.count(x) == 0) return "only in the " + other_name + ": " + x;
  }
  return "none";
}

}  // namespace contend::testing
