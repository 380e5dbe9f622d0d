// Fuzz target: seed ranges ("N", "A..B") and shard specs ("K/N"). Each parses to a range or
// shard that satisfies its contract, or is refused with a message.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/invariant.h"
#include "scenarios/batch.h"
#include "scenarios/seed_range.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contend;
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::string error;
  if (auto range = parse_seed_range(text, error)) {
    CONTEND_ASSERT(range->first <= range->last && range->count() <= kMaxSeedsPerRun,
                   "a seed range is ordered and bounded");
  } else {
    CONTEND_ASSERT(!error.empty(), "a refused range says why");
  }
  error.clear();
  if (auto shard = parse_shard(text, error)) {
    CONTEND_ASSERT(shard->index >= 1 && shard->index <= shard->count, "1 <= K <= N");
    // Every seed falls in exactly one shard.
    int owners = 0;
    for (std::uint64_t k = 1; k <= shard->count && k <= 64; ++k)
      owners += Shard{k, shard->count}.includes(12345, 1) ? 1 : 0;
    CONTEND_ASSERT(shard->count > 64 || owners == 1, "each seed belongs to one shard");
  } else {
    CONTEND_ASSERT(!error.empty(), "a refused shard says why");
  }
  return 0;
}
