// A history's operations: each invocation paired with its completion, with the interval it
// occupies. Time is the event index, so real-time order is exact and ties cannot occur:
// operation a precedes b when a's completion comes before b's invocation (closed intervals).
// `fail` operations never took effect and are dropped; `info` and never-completed operations
// are indeterminate and end at +infinity.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "model/history.h"

namespace contend::model {

inline constexpr std::int64_t kForever = std::numeric_limits<std::int64_t>::max();

struct Operation {
  std::int64_t id = 0;  // position in the operations vector
  OpFunction f = OpFunction::enqueue;
  std::int64_t process = 0;
  std::int64_t invoke = 0;           // event index of the invocation
  std::int64_t complete = kForever;  // event index of the completion (kForever if indeterminate)
  bool indeterminate = false;
  std::optional<Item> input;   // inserts: the item
  std::optional<Item> output;  // removes/peeks that completed ok: the item, or nothing = empty
};

// REQUIRES: a history that passed validate_history.
std::vector<Operation> operations_of(const History& history);

}  // namespace contend::model
