// Sequential specifications of the queues: the step functions the linearizability search drives.
//
//   fifo      enqueue appends; dequeue takes the front, or answers empty only when empty.
//   priority  a double-ended priority queue ordered by (priority, push order): pop_min/peek_min
//             take the front (smallest priority, earliest pushed among equals), pop_max/peek_max
//             the back (largest priority, LATEST pushed among equals) — exactly what the
//             recipe's key (priority, count, random) gives when read forward or in reverse.
//   multiset  the weaker spec the high-contention variants guarantee (docs/checkers.md): every
//             value removed was inserted and is removed at most once; no order, and "empty" may
//             be answered at any time (a fulfiller cancels requests it has no items for).
//   relaxed fifo (k)  a dequeue takes one of the first k items; empty only when empty. The first
//             member of a "relaxed" family; k = 1 is fifo. Not selectable by name yet.
//
// A spec is one small class (see the Spec concept below): a State (copyable, equality-comparable,
// canonical: equal behaviour <=> equal State, so the search can memoise on it), init(), and either
// a deterministic `bool step(State&, const Operation&)` or, for a nondeterministic (relaxed)
// spec, `void successors(const State&, const Operation&, std::vector<State>& out)`.
// Indeterminate operations (op.indeterminate): an insert inserts; a remove takes what the spec
// lets a remove take at that moment (its output is unknown, so any such choice), or nothing if
// empty; a peek changes nothing. Whether an indeterminate op took effect at all is the search's
// choice, not the spec's.
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/history_json.h"
#include "model/operations.h"

namespace contend::model {

enum class SpecKind : std::uint8_t { fifo, priority, multiset };

std::optional<SpecKind> parse_spec(std::string_view name);
std::string_view to_string(SpecKind spec);

// Whether `f` is an operation of the spec (fifo: enqueue/dequeue; priority: push/pop/peek;
// multiset: either family).
bool spec_allows(SpecKind spec, OpFunction f);
// The first event whose `f` the spec does not have, as a line-numbered error.
std::optional<HistoryError> check_functions(const History& history, SpecKind spec,
                                            const EventLines& lines = {});

// A readable queue entry, for generators that keep their own sequential queue.
struct SpecEntry {
  std::int64_t priority = 0;
  std::int64_t order = 0;  // insertion order
  std::string value;
  friend bool operator==(const SpecEntry&, const SpecEntry&) = default;
};

inline std::uint64_t mix_hash(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h ^= h >> 31;
  return h * 0xbf58476d1ce4e5b9ULL;
}

template <class S>
concept DeterministicSpec = requires(const S& s, typename S::State& st, const Operation& op) {
  { s.step(st, op) } -> std::same_as<bool>;
};

template <class S>
concept NondeterministicSpec = requires(const S& s, const typename S::State& st,
                                        const Operation& op, std::vector<typename S::State>& out) {
  s.successors(st, op, out);
};

template <class S>
concept Spec = std::copyable<typename S::State> && std::equality_comparable<typename S::State> &&
    (DeterministicSpec<S> || NondeterministicSpec<S>)&&requires(const S& s,
                                                                const typename S::State& st) {
  { s.init() } -> std::same_as<typename S::State>;
  { s.hash(st) } -> std::same_as<std::uint64_t>;
  { s.size(st) } -> std::same_as<std::size_t>;
  { s.items(st) } -> std::same_as<std::vector<ItemId>>;  // front to back
};

// Every state a spec allows after `op`: none when the op's observed output is impossible.
template <Spec S>
void successors_of(const S& spec, const typename S::State& state, const Operation& op,
                   std::vector<typename S::State>& out) {
  out.clear();
  if constexpr (DeterministicSpec<S>) {
    typename S::State next = state;
    if (spec.step(next, op)) out.push_back(std::move(next));
  } else {
    spec.successors(state, op, out);
  }
}

struct FifoSpec {
  using State = std::vector<ItemId>;  // front first
  State init() const { return {}; }
  bool step(State& state, const Operation& op) const;
  std::uint64_t hash(const State& state) const;
  std::size_t size(const State& state) const { return state.size(); }
  std::vector<ItemId> items(const State& state) const { return state; }
  // The item a remove or peek at that end would see (kNoItem when empty): step() accepts a
  // determinate one exactly when it answered this item (or "empty" on an empty queue).
  ItemId at_end(const State& state, bool /*back*/) const {
    return state.empty() ? kNoItem : state.front();
  }
};

struct PrioritySpec {
  struct Entry {
    std::int64_t priority = 0;
    ItemId item = kNoItem;
    friend bool operator==(const Entry&, const Entry&) = default;
  };
  // Sorted by (priority, push order): a push goes after every entry of its priority, so the
  // order within a priority is push order and needs no counter (the state stays canonical).
  using State = std::vector<Entry>;
  State init() const { return {}; }
  bool step(State& state, const Operation& op) const;
  std::uint64_t hash(const State& state) const;
  std::size_t size(const State& state) const { return state.size(); }
  std::vector<ItemId> items(const State& state) const;
  // As FifoSpec::at_end: the minimum's item at the front, the maximum's at the back.
  ItemId at_end(const State& state, bool back) const {
    if (state.empty()) return kNoItem;
    return back ? state.back().item : state.front().item;
  }
};

struct MultisetSpec {
  using State = std::vector<ItemId>;  // sorted: a multiset has no order
  State init() const { return {}; }
  void successors(const State& state, const Operation& op, std::vector<State>& out) const;
  std::uint64_t hash(const State& state) const;
  std::size_t size(const State& state) const { return state.size(); }
  std::vector<ItemId> items(const State& state) const { return state; }
};

struct RelaxedFifoSpec {
  std::size_t k = 2;                  // a dequeue may take any of the first k items
  using State = std::vector<ItemId>;  // front first
  State init() const { return {}; }
  void successors(const State& state, const Operation& op, std::vector<State>& out) const;
  std::uint64_t hash(const State& state) const;
  std::size_t size(const State& state) const { return state.size(); }
  std::vector<ItemId> items(const State& state) const { return state; }
};

// Calls `fn(spec)` with the spec object SpecKind names.
template <class Fn>
decltype(auto) with_spec(SpecKind kind, Fn&& fn) {
  switch (kind) {
    case SpecKind::priority:
      return fn(PrioritySpec{});
    case SpecKind::multiset:
      return fn(MultisetSpec{});
    case SpecKind::fifo:
      break;
  }
  return fn(FifoSpec{});
}

}  // namespace contend::model
