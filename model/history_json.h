// Histories as JSON lines, in exactly the schema other checkers read (docs/history.md):
//   {"index": 0, "type": "invoke", "process": 3, "time": 120034, "f": "enqueue", "value": "v17"}
// Reading never throws: a malformed line is reported with its line number and the field at fault.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include "model/history.h"

namespace contend::model {

struct HistoryError {
  std::size_t line = 0;  // 1-based; 0 when the error is not about one line
  std::string message;
  std::string to_string() const;
};

// One event as one compact JSON line (no trailing newline).
std::string to_json_line(const Event& event);
void write_history(std::ostream& out, const History& history);

// Parses JSON lines; blank lines are skipped. On error returns nothing and fills `error`.
std::optional<History> read_history(std::istream& in, HistoryError& error);

// Checks the invariants documented in history.h. Returns the first violation.
std::optional<HistoryError> validate_history(const History& history);

}  // namespace contend::model
