// Values counted by how often they occur (value -> count, in order): what a summary over many
// seeds keeps instead of every seed's value, so that its memory is bounded by the distinct values
// and not by the seeds. An order statistic of the counts is the one of the values counted.
#pragma once

#include <cstdint>
#include <map>

#include "base/invariant.h"

namespace contend {

// The value at 0-based rank `rank` of the values counted in `counts` (the rank-th smallest).
// REQUIRES: rank < the number of values counted.
template <class Value, class Count>
Value value_at_rank(const std::map<Value, Count>& counts, std::uint64_t rank) {
  for (const auto& [value, count] : counts) {
    if (rank < static_cast<std::uint64_t>(count)) return value;
    rank -= static_cast<std::uint64_t>(count);
  }
  CONTEND_ASSERT(false, "a rank within the values counted");
  return Value{};
}

}  // namespace contend
