// RangeSet: the key ranges of one footprint (what an attempt read, what a commit checked or
// wrote), shared rather than copied.
//
// A run's step log makes each set once; the search then resolves every step and keeps resolved
// steps across runs and in its nodes, and each of those copies a pointer, not the ranges' bytes.
// Invariants: a set another holder shares is never modified (push_back copies it first, so a
// holder's ranges change only through its own calls); equality is by contents.
#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

#include "sim/store/bytes.h"

namespace contend {

class RangeSet {
 public:
  RangeSet() = default;
  RangeSet(std::initializer_list<KeyRange> ranges)
      : RangeSet(std::vector<KeyRange>(ranges.begin(), ranges.end())) {}
  explicit RangeSet(std::vector<KeyRange> ranges) {
    if (!ranges.empty()) ranges_ = std::make_shared<std::vector<KeyRange>>(std::move(ranges));
  }

  bool empty() const { return size() == 0; }
  std::size_t size() const { return ranges_ ? ranges_->size() : 0; }
  const KeyRange* begin() const { return ranges_ ? ranges_->data() : nullptr; }
  const KeyRange* end() const { return begin() + size(); }

  // Appends `range`; the holders this set shares its ranges with keep theirs as they were.
  void push_back(KeyRange range) {
    if (!ranges_) {
      ranges_ = std::make_shared<std::vector<KeyRange>>();
    } else if (ranges_.use_count() > 1) {
      ranges_ = std::make_shared<std::vector<KeyRange>>(*ranges_);
    }
    ranges_->push_back(std::move(range));
  }

  friend bool operator==(const RangeSet& a, const RangeSet& b) {
    return a.ranges_ == b.ranges_ || std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  // Empty sets hold nothing; a set held here alone may grow in place (push_back).
  std::shared_ptr<std::vector<KeyRange>> ranges_;
};

}  // namespace contend
