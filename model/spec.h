// Sequential specifications of the queues, as step functions the linearizability search drives.
//
//   fifo      enqueue appends; dequeue takes the front, or reports empty only when empty.
//   priority  a double-ended priority queue ordered by (priority, push order): pop_min/peek_min
//             take the front (smallest priority, earliest pushed among equals), pop_max/peek_max
//             the back (largest priority, latest pushed among equals) — exactly what the
//             recipe's key (priority, count, random) gives when read forward or in reverse.
//   multiset  the weaker spec the high-contention variants guarantee (docs/checkers.md): every
//             value removed was inserted and is removed at most once; no order, and "empty" may
//             be answered at any time (a fulfiller cancels requests it has no items for).
// An indeterminate remove takes whatever the spec says it would take (the front), or nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/operations.h"

namespace contend::model {

enum class SpecKind : std::uint8_t { fifo, priority, multiset };

std::optional<SpecKind> parse_spec(std::string_view name);
std::string_view to_string(SpecKind spec);

struct SpecEntry {
  std::int64_t priority = 0;
  std::int64_t order = 0;  // insertion order in the linearization
  std::string value;
  friend bool operator==(const SpecEntry&, const SpecEntry&) = default;
};

class SpecState {
 public:
  explicit SpecState(SpecKind kind) : kind_(kind) {}
  // Applies `op` with its observed output. False when the output is impossible in this state.
  bool step(const Operation& op);
  // A canonical encoding for memoisation (equal states, equal keys).
  std::string key() const;
  const std::vector<SpecEntry>& entries() const { return entries_; }

 private:
  bool take(const Operation& op, bool back, bool remove);
  SpecKind kind_;
  std::vector<SpecEntry> entries_;  // sorted: the front is entries_.front()
  std::int64_t next_order_ = 0;
};

}  // namespace contend::model
