// What a checker concludes about a history, and the evidence: a violation names its kind and the
// history events (by index) that show it, with a sentence a person can follow.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace contend::model {

enum class VerdictKind : std::uint8_t { linearizable, violation, unknown };

enum class ViolationKind : std::uint8_t {
  none,
  value_from_nowhere,      // removed/peeked a value never inserted, or before its insert began
  duplicate_delivery,      // two successful removes of one value
  lost,                    // acknowledged, never removed, yet a later empty result proves it gone
  order_inversion,         // FIFO: inserted a before b, yet b came out before a
  empty_while_nonempty,    // reported empty although some value was provably present throughout
  priority_inversion,      // took x while a better item was provably present throughout
  not_linearizable,        // the search found no linearization (no simpler pattern named)
  store_not_serializable,  // the simulated store itself broke serializability (a contend bug)
};

std::string_view to_string(VerdictKind kind);
std::string_view to_string(ViolationKind kind);
std::optional<ViolationKind> parse_violation_kind(std::string_view text);

struct Verdict {
  VerdictKind kind = VerdictKind::linearizable;
  ViolationKind violation = ViolationKind::none;
  std::string checker;               // "fast", "search", "accounting"
  std::string explanation;           // one paragraph, names values and event indexes
  std::vector<std::int64_t> events;  // history indexes involved
  // Search evidence: the longest linearizable prefix (operation event indexes, in order) and
  // the operations that could not be placed after it.
  std::vector<std::int64_t> longest_prefix;
  std::vector<std::int64_t> stuck;
  std::int64_t steps = 0;  // search steps spent

  bool ok() const { return kind == VerdictKind::linearizable; }
  // "linearizable", "violation: lost", "unknown"
  std::string summary() const;
};

}  // namespace contend::model
