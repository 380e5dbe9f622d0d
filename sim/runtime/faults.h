// Fault knobs: the probability of each fault FoundationDB can throw at a queue, per step.
// All are 0 by default. Swarm mode draws a fresh set of knobs per seed (TigerBeetle's VOPR and
// FoundationDB's BUGGIFY both enable each fault site at random per run).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "base/invariant.h"
#include "sim/runtime/rng.h"

namespace contend {

struct FaultKnobs {
  double not_committed = 0.0;               // spurious not_committed before a commit
  double unknown_result_applied = 0.0;      // commit applied, then commit_unknown_result
  double unknown_result_not_applied = 0.0;  // commit not applied, commit_unknown_result
  double read_too_old = 0.0;                // transaction_too_old on a read
  double read_future_version = 0.0;         // future_version on a read
  double crash = 0.0;                       // client crash at a scheduling point
  double pause = 0.0;                       // a long client pause before a step
  std::int64_t pause_us = 6'000'000;        // longer than the 5 s MVCC window by default

  bool any() const {
    return not_committed > 0 || unknown_result_applied > 0 || unknown_result_not_applied > 0 ||
           read_too_old > 0 || read_future_version > 0 || crash > 0 || pause > 0;
  }

  // The faults an exhaustive search places as choices, by name, in a fixed order: each knob above
  // 0 enables its fault (its value is ignored there), and pauses are off in such a search.
  std::vector<std::string_view> explored() const {
    std::vector<std::string_view> names;
    if (not_committed > 0) names.push_back("not_committed");
    if (unknown_result_applied > 0) names.push_back("commit_unknown_result (applied)");
    if (unknown_result_not_applied > 0) names.push_back("commit_unknown_result (not applied)");
    if (read_too_old > 0) names.push_back("transaction_too_old on a read");
    if (read_future_version > 0) names.push_back("future_version on a read");
    if (crash > 0) names.push_back("crash");
    return names;
  }

  // Swarm: each knob is on with probability 1/2, at a level uniform in [0, its maximum here].
  static FaultKnobs swarm(Rng& rng, const FaultKnobs& maximum) {
    auto pick = [&rng](double max) { return rng.chance(0.5) ? rng.unit() * max : 0.0; };
    FaultKnobs k;
    k.not_committed = pick(maximum.not_committed);
    k.unknown_result_applied = pick(maximum.unknown_result_applied);
    k.unknown_result_not_applied = pick(maximum.unknown_result_not_applied);
    k.read_too_old = pick(maximum.read_too_old);
    k.read_future_version = pick(maximum.read_future_version);
    k.crash = pick(maximum.crash);
    k.pause = pick(maximum.pause);
    k.pause_us = maximum.pause_us;
    CONTEND_ASSERT(k.crash <= maximum.crash && k.pause <= maximum.pause &&
                       k.not_committed <= maximum.not_committed,
                   "swarm knobs stay within the scenario's maxima");
    return k;
  }
};

}  // namespace contend
