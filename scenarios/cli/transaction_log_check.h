// Judging a transaction log written by contend's libfdb_c (fdb_c/transaction_log.h documents the
// lines) as a function of its text, so `contend serializable` and its fuzz target run the same
// code: every line is read in the shape the library writes — a line it could not have written
// (a missing or mistyped field, a key it never writes, an inverted range, an applied attempt
// whose outcome says nothing was applied) is bad input naming the line and the field — and then the
// commits the store applied are replayed in commit-version order on a plain map, and must reproduce
// every value their non-snapshot reads returned (sim/runtime/serializability.h); read-only commits
// are placed at their read version.
#pragma once

#include <istream>
#include <string>

namespace contend::cli {

struct LogCheck {
  int exit_code = 0;  // 0 serializable, 1 not, 2 bad input
  // What the command prints: the counts (0), the first read that does not replay (1), or
  // "NAME:LINE: field: why" (2).
  std::string message;
};

// `name`: the log's name in messages. Never throws and never reads past what `in` holds.
LogCheck check_transaction_log(std::istream& in, const std::string& name);

}  // namespace contend::cli
