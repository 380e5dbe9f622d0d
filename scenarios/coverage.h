// What the executions of an exhaustive search exercised: for each kind of event, in how many
// executions it happened at least once. A proof that no execution reached a conflict or a fault
// covered the recipe's uncontended path alone (a plan whose operations never race), and says so.
//
// Kinds of events, each a key of the Coverage map (scripts read them from --json "coverage"):
// - "conflict: <step>": a commit refused by a conflict, under the recipe step label of the read
//   range that conflicted (Transaction::set_step; "unlabelled" without one);
// - "fault: <what>": a fault the search placed (the fault's name as counterexamples print it);
// - "<function> <ok|fail|info>", with ": empty" or ": an item" for a removal or peek that
//   completed ok: how the plan's operations ended (the drain's, which always ends on an empty
//   dequeue, are left out).
// Every kind is a property of the execution's equivalence class (the reduction keeps each read,
// each commit's answer and each operation's result), so counts do not depend on which execution
// of a class the search ran, nor on jobs or shards, and the counts of units add up.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "scenarios/runner.h"

namespace contend {

using Coverage = std::map<std::string, std::int64_t, std::less<>>;

// Counts the kinds of events of one execution (each once) into `coverage`. `clients`: the
// scenario's (slots at or above it are the drain's).
void add_execution_coverage(const SeedRun& run, int clients, Coverage& coverage);

// Adds `part` (a unit's, a scope's) into `total`.
void add_coverage(const Coverage& part, Coverage& total);

// Whether some execution met a conflict or a fault.
bool exercised_contention(const Coverage& coverage);

// The lines a report prints: a heading, then a line per kind of event with its count.
std::vector<std::string> coverage_lines(const Coverage& coverage, std::int64_t executions);

}  // namespace contend
