// An execution's outcome as the exhaustive search counts and compares it: the verdict, each
// operation's result by (client, ordinal), the final store, and — when the run recorded its
// attempts — what each client's attempts read and how each commit was answered, in the client's
// order. (Commit versions are left out: two commits that touch no common key take either order,
// and no read sees which, unless a versionstamp does: footprint.h makes those dependent.)
//
// Two spellings of one value: outcome_of is readable (tests compare and print sets of them);
// outcome_digest is 32 hex digits of a 128-bit digest of the same fields, which is what a search
// keeps when it only counts distinct outcomes (a search meets millions of executions, and the
// readable form costs a string of a kilobyte or more each). Invariant: two executions have equal
// digests exactly when their readable outcomes are equal, but for digest collisions (about 2^-64
// for a billion outcomes).
#pragma once

#include <string>

#include "model/verdict.h"
#include "scenarios/runner.h"

namespace contend {

std::string outcome_of(const SeedRun& run, const model::Verdict& verdict);
std::string outcome_digest(const SeedRun& run, const model::Verdict& verdict);

}  // namespace contend
