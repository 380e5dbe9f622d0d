// A vector whose cleared elements keep their storage: clear() only forgets how many elements are
// live, and the next push_slot() hands back a spare slot, so assigning into its strings and
// vectors reuses their capacity. For buffers refilled once per transaction or per commit: in a
// steady state they allocate nothing.
//
// Invariants: elements [0, size()) are live; elements [size(), capacity_slots()) are spares in an
// unspecified (but valid) state, which callers overwrite before use; erase() keeps the order of
// the live elements and moves the erased ones to the spares.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "base/invariant.h"

namespace contend {

template <class T>
class SlotVector {
 public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using iterator = T*;
  using const_iterator = const T*;

  // The next slot, live from now on. Its contents are whatever a previous use left: overwrite
  // every field.
  T& push_slot() {
    if (size_ == slots_.size()) slots_.emplace_back();
    return slots_[size_++];
  }
  void clear() { size_ = 0; }
  void pop_back() {
    CONTEND_ASSERT(size_ > 0, "pop_back of an empty SlotVector");
    --size_;
  }
  // Makes the last live element the one at `index`, shifting [index, size - 1) up by one: with
  // push_slot(), a sorted insert that moves elements by swapping (no copies of their storage).
  void move_last_to(std::size_t index) {
    CONTEND_ASSERT(index < size_, "move_last_to a live index");
    std::rotate(slots_.begin() + static_cast<std::ptrdiff_t>(index),
                slots_.begin() + static_cast<std::ptrdiff_t>(size_ - 1),
                slots_.begin() + static_cast<std::ptrdiff_t>(size_));
  }
  // Removes the live elements [first, last), keeping their storage as spares.
  void erase(std::size_t first, std::size_t last) {
    CONTEND_ASSERT(first <= last && last <= size_, "erase live elements");
    std::rotate(slots_.begin() + static_cast<std::ptrdiff_t>(first),
                slots_.begin() + static_cast<std::ptrdiff_t>(last),
                slots_.begin() + static_cast<std::ptrdiff_t>(size_));
    size_ -= last - first;
  }
  // Drops spares beyond `max_spares` (bounds what a one-off large use keeps alive).
  void trim_spares(std::size_t max_spares) {
    if (slots_.size() > size_ + max_spares) slots_.resize(size_ + max_spares);
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::size_t capacity_slots() const { return slots_.size(); }
  T& operator[](std::size_t i) {
    CONTEND_DEBUG_ASSERT(i < size_, "a live element");
    return slots_[i];
  }
  const T& operator[](std::size_t i) const {
    CONTEND_DEBUG_ASSERT(i < size_, "a live element");
    return slots_[i];
  }
  T& back() { return (*this)[size_ - 1]; }
  const T& back() const { return (*this)[size_ - 1]; }
  T* begin() { return slots_.data(); }
  T* end() { return slots_.data() + size_; }
  const T* begin() const { return slots_.data(); }
  const T* end() const { return slots_.data() + size_; }

 private:
  std::vector<T> slots_;
  std::size_t size_ = 0;
};

}  // namespace contend
