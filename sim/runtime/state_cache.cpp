#include "sim/runtime/state_cache.h"

#include "base/invariant.h"

namespace contend {

namespace {

constexpr Digest128::Value kEmpty{0, 0};

// A digest as stored: never the empty marker.
Digest128::Value stored(const Digest128::Value& state) {
  return state == kEmpty ? Digest128::Value{0, 1} : state;
}

}  // namespace

StateCache::StateCache(std::size_t slots_max) : slots_max_(slots_max) {
  CONTEND_ASSERT(slots_max_ >= kSlotsFirst && (slots_max_ & (slots_max_ - 1)) == 0,
                 "a state table's size bound is a power of two, at least its first size");
}

bool StateCache::insert(const Digest128::Value& state) {
  if (slots_.empty()) slots_.assign(kSlotsFirst, kEmpty);
  const Digest128::Value key = stored(state);
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = static_cast<std::size_t>(key[0]) & mask;
  for (std::size_t probes = 0; probes < slots_.size(); ++probes, i = (i + 1) & mask) {
    if (slots_[i] == key) return false;
    if (slots_[i] != kEmpty) continue;
    if (full_) return true;
    slots_[i] = key;
    ++size_;
    if (2 * size_ >= slots_.size()) grow();
    return true;
  }
  CONTEND_ASSERT(false, "a state table at most half full has an empty slot");
  return true;
}

void StateCache::grow() {
  if (slots_.size() >= slots_max_) {
    full_ = true;
    return;
  }
  std::vector<Digest128::Value> old = std::move(slots_);
  slots_.assign(old.size() * 2, kEmpty);
  const std::size_t mask = slots_.size() - 1;
  for (const Digest128::Value& key : old) {
    if (key == kEmpty) continue;
    std::size_t i = static_cast<std::size_t>(key[0]) & mask;
    while (slots_[i] != kEmpty)
      i = (i + 1) & mask;
    slots_[i] = key;
  }
}

}  // namespace contend
