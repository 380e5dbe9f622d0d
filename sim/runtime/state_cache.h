// The states an exhaustive search has explored from, as 128-bit digests (World::state_digest plus
// the search's own state: faults placed, preemptions). A set with open addressing: 16 bytes a slot,
// at most half the slots full, so a state costs 32 bytes at worst.
//
// Invariants: a digest once inserted stays (insert() of it again says "seen"); the table never
// grows past kSlotsMax slots. Once half of them hold states it is *full*: it remembers no new
// state (insert() says "new" for every state it does not hold, which only costs the search the
// pruning it would have had), and full() reports it so the search can say so.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/digest128.h"

namespace contend {

class StateCache {
 public:
  static constexpr std::size_t kSlotsMax = std::size_t{1} << 25;  // 512 MiB of slots
  static constexpr std::size_t kSlotsFirst = 1024;

  // `slots_max` (a power of two, at least kSlotsFirst): smaller only in tests.
  explicit StateCache(std::size_t slots_max = kSlotsMax);

  // Whether `state` was not in the set; it is in it afterwards unless the set is full.
  bool insert(const Digest128::Value& state);
  std::size_t size() const { return size_; }
  bool full() const { return full_; }

 private:
  void grow();
  std::size_t slots_max_;
  std::vector<Digest128::Value> slots_;  // {0, 0}: empty (a state digesting to it is moved off)
  std::size_t size_ = 0;
  bool full_ = false;
};

}  // namespace contend
