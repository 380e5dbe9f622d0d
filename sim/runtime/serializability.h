// The simulator checked against itself: the committed transactions of a run, replayed one by one
// in commit-version order on a plain std::map, must reproduce every value their non-snapshot
// reads returned (each evaluated at its place in the transaction, after the transaction's own
// earlier writes). Read-only transactions are placed at their read version. A difference means
// the store is not serializable — a bug in contend, not in the recipe under test.
// Snapshot reads are exempt here: they may legitimately see an older state (the store property
// tests check them against their read version).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/runtime/world.h"

namespace contend {

// Nothing when every read replays; else a description of the first that does not.
std::optional<std::string> check_serializable(const std::vector<CommittedTransaction>& committed);

}  // namespace contend
