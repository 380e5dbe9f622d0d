// What a checker concludes about a history, and the evidence: a violation names its kind and the
// history events (by index) that show it, with a sentence a person can follow.
//
// Invariants: kind == violation <=> violation != none; `events` are event indexes of the
// history judged (invocations of the operations involved); `exact` is set only on a
// `linearizable` verdict that is a proof (the search, or the fast checker on a history in the
// class it decides exactly — docs/checkers.md); `part_operations` is positive only on a
// violation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace contend::model {

// simulator_fault: contend itself broke during the run (a recipe met data the simulator cannot
// have produced correctly); the history says nothing about the recipe. Never a violation.
enum class VerdictKind : std::uint8_t { linearizable, violation, unknown, simulator_fault };

enum class ViolationKind : std::uint8_t {
  none,
  value_from_nowhere,      // removed/peeked a value never inserted, or before its insert began
  duplicate_delivery,      // two successful removes of one value
  lost,                    // acknowledged, never removed, and provably gone (a drain, or a later
                           // empty answer)
  order_inversion,         // FIFO: inserted a before b, yet b came out before a
  empty_while_nonempty,    // reported empty although some value was provably present throughout
  priority_inversion,      // took x while a better item was provably present throughout
  not_linearizable,        // the search found no linearization (no simpler pattern named)
  store_not_serializable,  // the simulated store itself broke serializability (a contend bug)
};

std::string_view to_string(VerdictKind kind);
std::string_view to_string(ViolationKind kind);
std::optional<VerdictKind> parse_verdict_kind(std::string_view text);
std::optional<ViolationKind> parse_violation_kind(std::string_view text);

struct Verdict {
  VerdictKind kind = VerdictKind::linearizable;
  ViolationKind violation = ViolationKind::none;
  std::string checker;               // "fast", "search", "accounting"
  std::string explanation;           // one paragraph, names values and event indexes
  std::vector<std::int64_t> events;  // history indexes involved (invocations)
  // Search evidence: the longest linearizable prefix (operation invocation indexes, in order)
  // and the operations none of which could be placed after it.
  std::vector<std::int64_t> longest_prefix;
  std::vector<std::int64_t> stuck;
  std::int64_t steps = 0;  // search steps spent
  bool exact = false;      // a `linearizable` verdict that is a proof
  // A violation decided by a part of the history (part_search.h: the whole was beyond the
  // search): the part's operation count, and longest_prefix and stuck are the part's. 0 when
  // the whole history decided the verdict.
  std::int64_t part_operations = 0;

  bool ok() const { return kind == VerdictKind::linearizable; }
  // "linearizable", "violation: lost", "unknown"
  std::string summary() const;
};

Verdict violation_verdict(std::string checker, ViolationKind kind, std::string explanation,
                          std::vector<std::int64_t> events);
Verdict unknown_verdict(std::string checker, std::string explanation);

// One compact JSON object:
// {"kind": "violation", "violation": "lost", "checker": "fast", "explanation": "...",
//  "events": [3, 7], "longest_prefix": [], "stuck": [], "steps": 0, "exact": false,
//  "part_operations": 0}
std::string to_json(const Verdict& verdict);
// The inverse of to_json; nothing when the text is not such an object (or breaks the invariant
// above: a "violation" kind without a violation, a violation on another kind, or `exact` on a
// verdict that is not "linearizable", a negative `part_operations` or a positive one on a
// verdict that is not a violation).
std::optional<Verdict> verdict_from_json(std::string_view text);

}  // namespace contend::model
