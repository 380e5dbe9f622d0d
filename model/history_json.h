// Histories as JSON lines, in exactly the schema other checkers read (docs/history.md):
//   {"index": 0, "type": "invoke", "process": 3, "time": 120034, "f": "enqueue", "value": "v17"}
// Keys in that order, one event per line. Reading never throws (nlohmann's exceptions are caught
// and parsed without them): a malformed line is reported with its line number and the field at
// fault, e.g. `line 7: field "type": expected one of invoke|ok|fail|info, got "done"`.
// Values that are not UTF-8 cannot be written as JSON; they are written with U+FFFD instead.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/history.h"

namespace contend::model {

struct HistoryError {
  std::size_t line = 0;  // 1-based; 0 when the error is not about one line
  std::string message;
  std::string to_string() const;  // "line 7: field ..."
};

// One event as one compact JSON line (no trailing newline).
std::string to_json_line(const Event& event);
void write_history(std::ostream& out, const History& history);

// Each event's 1-based line in the file it was read from (blank lines are skipped, so the event
// at position i need not be on line i + 1). Empty: event i is on line i + 1.
using EventLines = std::vector<std::size_t>;
std::size_t line_of(const EventLines& lines, std::size_t position);

// How strictly read_history takes histories written by other tools.
struct ReadOptions {
  // A key outside the schema is an error naming its line. Otherwise it is ignored, and listed
  // in `ignored_keys` (each key once, in the order first met) for the caller to warn about.
  bool strict = false;
  std::vector<std::string>* ignored_keys = nullptr;
};

// The longest line read_history reads: an event is some 90 bytes, and a FoundationDB value at most
// 100 kB. A longer line is refused once this much of it is read (a file of one line as long as
// the file's bound, 1 GiB, was held whole before it was refused).
inline constexpr std::size_t kHistoryLineBytesMax = std::size_t{1} << 20;

// Parses JSON lines; blank lines are skipped, a missing "value" reads as null, a missing "index"
// reads as the event's position (line order is the order). On error (a line longer than
// kHistoryLineBytesMax among them) returns nothing and fills `error`. `lines`, when given, receives
// each event's line.
std::optional<History> read_history(std::istream& in, HistoryError& error,
                                    EventLines* lines = nullptr, const ReadOptions& options = {});

// Checks the invariants documented in history.h, reporting the first violation by line:
// consecutive indexes, non-decreasing times, one operation in flight per process, a completion
// matches its invocation's f (and an insert's completion repeats its item), no invocation by a
// process after its info completion, inserts carry their item and removes/peeks carry null on
// invocation and on fail/info, priority-queue items carry a priority and FIFO items none.
// Errors name the event's line in `lines`.
std::optional<HistoryError> validate_history(const History& history, const EventLines& lines = {});

// JSON read by contend (history lines, run reports for `merge`, tuples for `tuple pack`) nests
// at most this deep; deeper text is refused before parsing (a run report, read as a stream: at
// its first level too deep), with an error, since printing or converting it recurses once per
// level (a line nesting 100,000 arrays would exhaust the stack).
inline constexpr std::size_t kMaxJsonDepth = 100;
// The deepest nesting of arrays and objects in JSON text (brackets inside strings do not count;
// the text need not be valid JSON). Stops counting, and returns, once past `limit`.
std::size_t json_nesting_depth(std::string_view text, std::size_t limit = SIZE_MAX);

}  // namespace contend::model
