#include "scenarios/real_time_orders.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <map>
#include <optional>
#include <type_traits>

#include "base/invariant.h"

namespace contend {

namespace {

// A set of step indexes in 64-bit words: on the heap (a std::vector, any number of steps) or
// inline (a std::array of N words, at most 64 * N steps, for the search below, which tests and
// changes these on every visit and keys its states by them).
template <typename Words>
class StepBits {
 public:
  explicit StepBits(std::size_t steps = 0) {
    if constexpr (std::is_same_v<Words, std::vector<std::uint64_t>>) {
      words_.assign((steps + 63) / 64, 0);
    } else {
      CONTEND_ASSERT(steps <= 64 * words_.size(), "more steps than an inline step set holds");
    }
  }
  // A copy of `other` in this storage. REQUIRES: it fits.
  template <typename OtherWords>
  explicit StepBits(const StepBits<OtherWords>& other) : StepBits(64 * other.words().size()) {
    CONTEND_ASSERT(other.words().size() <= words_.size(), "a step set wider than its copy");
    std::copy(other.words().begin(), other.words().end(), words_.begin());
  }
  void add(std::size_t i) { words_[i / 64] |= std::uint64_t{1} << (i % 64); }
  void remove(std::size_t i) { words_[i / 64] &= ~(std::uint64_t{1} << (i % 64)); }
  bool has(std::size_t i) const { return (words_[i / 64] >> (i % 64)) & 1U; }
  void add_all(const StepBits& other) {
    for (std::size_t w = 0; w < words_.size(); ++w)
      words_[w] |= other.words_[w];
  }
  // Adds the steps of a set held as words_.size() raw words.
  void add_words(const std::uint64_t* words) {
    for (std::size_t w = 0; w < words_.size(); ++w)
      words_[w] |= words[w];
  }
  bool within(const StepBits& other) const {
    for (std::size_t w = 0; w < words_.size(); ++w) {
      if ((words_[w] & ~other.words_[w]) != 0) return false;
    }
    return true;
  }
  const Words& words() const { return words_; }

 private:
  Words words_{};
};

using StepSet = StepBits<std::vector<std::uint64_t>>;
template <std::size_t N>
using InlineSteps = StepBits<std::array<std::uint64_t, N>>;

// One operation per invocation recorded before or inside the steps, as a bit of a 64-bit mask.
struct OperationMasks {
  std::vector<std::uint64_t> invokes;    // per step: the operations it invokes
  std::vector<std::uint64_t> completes;  // per step: the operations it completes ok
  std::uint64_t completed_before = 0;    // completed ok before the first step
  std::size_t operations = 0;
};

constexpr std::size_t kMaxOperations = 64;

// The step that recorded each history event, or -1 for events recorded outside the steps.
std::vector<long> owners(const model::History& history, const StepLog& log) {
  std::vector<long> owner(history.size(), -1);
  for (std::size_t k = 0; k < log.steps.size(); ++k) {
    for (std::int64_t e : log.steps[k].events) {
      CONTEND_ASSERT(e >= 0 && static_cast<std::size_t>(e) < history.size(),
                     "a step names a history event that does not exist");
      CONTEND_ASSERT(owner[static_cast<std::size_t>(e)] == -1, "two steps recorded one event");
      owner[static_cast<std::size_t>(e)] = static_cast<long>(k);
    }
  }
  // Events outside the steps come before the first step's or after the last's (the drain).
  const auto first = std::find_if(owner.begin(), owner.end(), [](long o) { return o >= 0; });
  const auto last = std::find_if(owner.rbegin(), owner.rend(), [](long o) { return o >= 0; });
  if (first != owner.end()) {
    CONTEND_ASSERT(std::find(first, last.base(), -1) == last.base(),
                   "a history event was recorded between two steps, outside both");
  }
  return owner;
}

OperationMasks operation_masks(const model::History& history, const StepLog& log,
                               const std::vector<long>& owner) {
  OperationMasks m;
  m.invokes.assign(log.steps.size(), 0);
  m.completes.assign(log.steps.size(), 0);
  std::map<std::int64_t, std::size_t> open;  // process -> its operation in flight
  bool steps_began = false;
  for (std::size_t i = 0; i < history.size(); ++i) {
    const model::Event& e = history[i];
    CONTEND_ASSERT(e.index == static_cast<std::int64_t>(i), "history events are in index order");
    const long step = owner[i];
    steps_began |= step >= 0;
    if (step < 0 && steps_began) continue;  // after the steps: the drain, the same in every order
    const auto k = static_cast<std::size_t>(step);
    if (e.type == model::EventType::invoke) {
      CONTEND_ASSERT(m.operations < kMaxOperations,
                     "more than 64 operations in one exhaustive execution");
      open[e.process] = m.operations;
      if (step >= 0) m.invokes[k] |= std::uint64_t{1} << m.operations;
      ++m.operations;
      continue;
    }
    auto it = open.find(e.process);
    CONTEND_ASSERT(it != open.end(), "a completion without its invocation");
    const std::uint64_t op = std::uint64_t{1} << it->second;
    open.erase(it);
    if (e.type != model::EventType::ok) continue;  // indeterminate or failed: precedes nothing
    if (step >= 0) {
      m.completes[k] |= op;
    } else {
      m.completed_before |= op;
    }
  }
  return m;
}

// dependence_order from vector clocks: the steps before step j are, for each thread, its first
// clock(j)[thread] steps (step j's own excepted). So each row is the union of one prefix set per
// thread: the prefix sets are built once, a row costs a few words per thread.
std::vector<StepSet> order_of_clocks(const std::vector<ResolvedStep>& steps,
                                     const KnownOrder& known) {
  const std::size_t n = steps.size();
  const std::size_t width = known.width;
  CONTEND_ASSERT(known.positions != nullptr && known.positions->size() == n &&
                     known.clocks->size() == n * width,
                 "the known order's clocks are the steps'");
  const std::size_t words = (n + 63) / 64;
  // prefixes[t]: rows of `words` words, row p the set of thread t's first p steps.
  std::vector<std::vector<std::uint64_t>> prefixes(width, std::vector<std::uint64_t>(words, 0));
  for (std::size_t i = 0; i < n; ++i) {
    const auto t = static_cast<std::size_t>(steps[i].thread);
    CONTEND_ASSERT(t < width, "a step's thread outside the known clocks");
    std::vector<std::uint64_t>& rows = prefixes[t];
    CONTEND_ASSERT(rows.size() == words * static_cast<std::size_t>((*known.positions)[i]),
                   "a step's position is one past its thread's steps before it");
    rows.insert(rows.end(), rows.end() - static_cast<std::ptrdiff_t>(words), rows.end());
    rows[rows.size() - words + i / 64] |= std::uint64_t{1} << (i % 64);
  }
  std::vector<StepSet> before;
  before.reserve(n);
  for (std::size_t j = 0; j < n; ++j) {
    StepSet& row = before.emplace_back(n);
    const int* clock = known.clocks->data() + j * width;
    const auto own = static_cast<std::size_t>(steps[j].thread);
    for (std::size_t t = 0; t < width; ++t) {
      const int seen = t == own ? (*known.positions)[j] - 1 : clock[t];
      CONTEND_ASSERT(seen >= 0 && static_cast<std::size_t>(seen) * words < prefixes[t].size(),
                     "a clock beyond its thread's steps");
      row.add_words(prefixes[t].data() + static_cast<std::size_t>(seen) * words);
    }
  }
  return before;
}

// before[j]: the steps that every schedule of the class runs before step j (the store's
// dependence; real time is what the schedules differ in), from `known` when it is given.
std::vector<StepSet> dependence_order(const std::vector<ResolvedStep>& steps,
                                      const KnownOrder& known) {
  if (known.clocks != nullptr) return order_of_clocks(steps, known);
  const std::size_t n = steps.size();
  std::vector<StepSet> before;
  before.reserve(n);
  const ExecutionDependence depends(steps, DependenceRule{});
  for (std::size_t j = 0; j < n; ++j) {
    before.emplace_back(n);
    for (std::size_t i = j; i-- > 0;) {
      if (before[j].has(i)) continue;
      if (steps[i].thread != steps[j].thread && (depends.inert(i) || depends.inert(j))) continue;
      if (!depends(i, j)) continue;
      before[j].add(i);
      before[j].add_all(before[i]);
    }
  }
  return before;
}

// Whether no schedule of the class orders an operation pair the executed one leaves concurrent:
// every invocation that ran before another client's completion must precede it. Then every
// schedule's relation is contained in the executed one's. `before(i, c)`: whether step i comes
// before step c (i < c) in every schedule of the class.
template <class Before>
bool executed_orders_most(std::size_t steps, const OperationMasks& ops, Before before) {
  for (std::size_t c = 0; c < steps; ++c) {
    if (ops.completes[c] == 0) continue;
    for (std::size_t i = 0; i < c; ++i) {
      if (ops.invokes[i] != 0 && !before(i, c)) return false;
    }
  }
  return true;
}

// Per operation invoked in the steps, the operations completed before its invocation.
using Relation = std::vector<std::uint64_t>;

bool contained(const Relation& a, const Relation& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if ((a[i] & ~b[i]) != 0) return false;
  }
  return true;
}

// A set of keys of `width` words each, stored in one arena: an insert allocates only when the
// arena or the table grows (the search inserts a state per visit). Membership only: nothing
// iterates it, so its order reaches no output.
class StateSet {
 public:
  explicit StateSet(std::size_t width) : width_(width), slots_(kSlotsFirst, kEmpty) {}

  // Whether `key` (width words) was new.
  bool insert(const std::uint64_t* key) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    const std::size_t slot = find(key);
    if (slots_[slot] != kEmpty) return false;
    slots_[slot] = static_cast<std::uint32_t>(size_++);
    arena_.insert(arena_.end(), key, key + width_);
    return true;
  }

 private:
  static constexpr std::uint32_t kEmpty = UINT32_MAX;
  static constexpr std::size_t kSlotsFirst = 64;

  std::uint64_t hash(const std::uint64_t* key) const {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (std::size_t w = 0; w < width_; ++w) {
      h = (h ^ key[w]) * 0xbf58476d1ce4e5b9ULL;
      h ^= h >> 31;
    }
    return h;
  }

  // The slot holding `key`, or the empty slot where it belongs.
  std::size_t find(const std::uint64_t* key) const {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t slot = hash(key) & mask;; slot = (slot + 1) & mask) {
      const std::uint32_t at = slots_[slot];
      if (at == kEmpty || std::equal(key, key + width_, arena_.begin() + at * width_)) {
        return slot;
      }
    }
  }

  void grow() {
    CONTEND_ASSERT(size_ < kEmpty / 2, "more than 2^31 states in one real-time search");
    slots_.assign(slots_.size() * 2, kEmpty);
    for (std::size_t k = 0; k < size_; ++k)
      slots_[find(&arena_[k * width_])] = static_cast<std::uint32_t>(k);
  }

  std::size_t width_;
  std::vector<std::uint64_t> arena_;
  std::vector<std::uint32_t> slots_;  // a power of two, at most three quarters full
  std::size_t size_ = 0;
};

// Every order of the steps that keeps the dependence order, up to the states it passes through;
// Set holds a set of the log's steps (InlineSteps wide enough for them, else StepSet).
template <typename Set>
class Search {
 public:
  Search(const std::vector<StepSet>& before, const OperationMasks& ops)
      : ops_(ops),
        done_(before.size()),
        completed_(ops.completed_before),
        relation_(ops.operations, 0),
        seen_(done_.words().size() + ops.operations) {
    before_.reserve(before.size());
    for (const StepSet& b : before)
      before_.emplace_back(b);
    for (std::size_t i = 0; i < before.size(); ++i) {
      if (ops.invokes[i] == 0) free_steps_.push_back(i);
    }
    order_.reserve(before.size());
  }

  // Every schedule's relation, with the first schedule found to give it.
  std::map<Relation, std::vector<std::size_t>> run() {
    visit();
    return std::move(leaves_);
  }

 private:
  bool ready(std::size_t i) const { return !done_.has(i) && before_[i].within(done_); }

  void take(std::size_t i) {
    for (std::uint64_t b = ops_.invokes[i]; b != 0; b &= b - 1)
      relation_[static_cast<std::size_t>(std::countr_zero(b))] = completed_;
    completed_ |= ops_.completes[i];
    done_.add(i);
    order_.push_back(i);
  }

  void untake(std::size_t i, std::uint64_t completed_was) {
    order_.pop_back();
    done_.remove(i);
    completed_ = completed_was;
    for (std::uint64_t b = ops_.invokes[i]; b != 0; b &= b - 1)
      relation_[static_cast<std::size_t>(std::countr_zero(b))] = 0;
  }

  // Takes every ready step that invokes nothing, until none is ready; returns how many. One pass
  // in index order is enough: a step depends only on steps before it in the log.
  std::size_t take_free_steps() {
    std::size_t taken = 0;
    for (std::size_t i : free_steps_) {
      if (ready(i)) {
        take(i);
        ++taken;
      }
    }
    return taken;
  }

  void visit() {
    const std::uint64_t completed_was = completed_;
    const std::size_t free_taken = take_free_steps();
    if (order_.size() == before_.size()) {
      leaves_.try_emplace(relation_, order_);  // copies only a relation not met before
    } else if (seen_.insert(state_key())) {
      bool any = false;
      for (std::size_t i = 0; i < before_.size(); ++i) {
        if (!ready(i)) continue;
        any = true;
        const std::uint64_t completed_before_step = completed_;
        take(i);
        visit();
        untake(i, completed_before_step);
      }
      CONTEND_ASSERT(any, "the steps' dependence order has a cycle");
    }
    for (std::size_t t = 0; t < free_taken; ++t) {
      const std::size_t i = order_.back();
      order_.pop_back();
      done_.remove(i);
    }
    completed_ = completed_was;
  }

  const std::uint64_t* state_key() {
    key_.assign(done_.words().begin(), done_.words().end());
    key_.insert(key_.end(), relation_.begin(), relation_.end());
    return key_.data();
  }

  std::vector<Set> before_;
  std::vector<std::size_t> free_steps_;  // the steps that invoke nothing, in index order
  const OperationMasks& ops_;
  Set done_;
  std::uint64_t completed_;
  Relation relation_;
  std::vector<std::size_t> order_;
  StateSet seen_;
  std::vector<std::uint64_t> key_;  // state_key's buffer
  std::map<Relation, std::vector<std::size_t>> leaves_;
};

// The search with sets just wide enough for the log's steps.
std::map<Relation, std::vector<std::size_t>> every_relation(const std::vector<StepSet>& before,
                                                            const OperationMasks& ops) {
  const std::size_t n = before.size();
  if (n <= 64) return Search<InlineSteps<1>>(before, ops).run();
  if (n <= 128) return Search<InlineSteps<2>>(before, ops).run();
  if (n <= 256) return Search<InlineSteps<4>>(before, ops).run();
  return Search<StepSet>(before, ops).run();
}

Relation relation_of_executed(const OperationMasks& ops) {
  Relation r(ops.operations, 0);
  std::uint64_t completed = ops.completed_before;
  for (std::size_t k = 0; k < ops.invokes.size(); ++k) {
    for (std::uint64_t b = ops.invokes[k]; b != 0; b &= b - 1)
      r[static_cast<std::size_t>(std::countr_zero(b))] = completed;
    completed |= ops.completes[k];
  }
  return r;
}

// Per operation invoked in the steps, every operation that completes before its invocation in
// some schedule of the class: one completed before the steps began, or completed by another step
// that the invoking step does not precede in the dependence order. No schedule's relation holds
// more.
Relation every_possible_precedence(const std::vector<StepSet>& before, const OperationMasks& ops) {
  Relation possible(ops.operations, 0);
  for (std::size_t j = 0; j < before.size(); ++j) {
    if (ops.invokes[j] == 0) continue;
    std::uint64_t completed = ops.completed_before;
    for (std::size_t i = 0; i < before.size(); ++i) {
      if (i != j && ops.completes[i] != 0 && !before[i].has(j)) completed |= ops.completes[i];
    }
    for (std::uint64_t b = ops.invokes[j]; b != 0; b &= b - 1)
      possible[static_cast<std::size_t>(std::countr_zero(b))] = completed;
  }
  return possible;
}

// A schedule whose relation is `possible` (every precedence some schedule has), when one exists:
// then it is the class's only most ordered relation. Built greedily: a ready step that invokes
// nothing is taken at once (it can only add completions), and a ready invoking step once every
// completion its invocations can follow has happened. Either move keeps `possible` reachable when
// it was: in a schedule that reaches it, moving the step taken up to here breaks no dependence
// and only moves completions earlier. When nothing ready can be taken without losing a
// precedence, no schedule has them all.
std::optional<std::vector<std::size_t>> schedule_with_every_precedence(
    const std::vector<StepSet>& before, const OperationMasks& ops, const Relation& possible) {
  const std::size_t n = before.size();
  std::vector<std::size_t> order;
  order.reserve(n);
  StepSet done(n);
  std::uint64_t completed = ops.completed_before;
  auto loses_nothing = [&](std::size_t i) {
    for (std::uint64_t b = ops.invokes[i]; b != 0; b &= b - 1) {
      if ((possible[static_cast<std::size_t>(std::countr_zero(b))] & ~completed) != 0) {
        return false;
      }
    }
    return true;
  };
  while (order.size() < n) {
    bool took = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (done.has(i) || !before[i].within(done) || !loses_nothing(i)) continue;
      completed |= ops.completes[i];
      done.add(i);
      order.push_back(i);
      took = true;
    }
    if (!took) return std::nullopt;
  }
  return order;
}

}  // namespace

RealTimeOrders most_ordered_schedules(const std::vector<ResolvedStep>& steps, const StepLog& log,
                                      const model::History& history, const KnownOrder& known) {
  CONTEND_ASSERT(steps.size() == log.steps.size(), "every step resolved");
  const std::vector<long> owner = owners(history, log);
  const OperationMasks ops = operation_masks(history, log, owner);
  auto executed_only = [&steps] {
    RealTimeOrders only;
    only.orders.emplace_back(steps.size());
    for (std::size_t k = 0; k < steps.size(); ++k)
      only.orders[0][k] = k;
    only.executed_is_most_ordered = true;
    return only;
  };
  // Asked of the search's vector clocks first, with no row built: step i comes before step c
  // when it is c's thread's, or c's clock counts i's position.
  auto clocks_order = [&steps, &known](std::size_t i, std::size_t c) {
    const auto t = static_cast<std::size_t>(steps[i].thread);
    return steps[i].thread == steps[c].thread ||
           (*known.clocks)[c * known.width + t] >= (*known.positions)[i];
  };
  if (known.clocks != nullptr && executed_orders_most(steps.size(), ops, clocks_order)) {
    return executed_only();
  }
  const std::vector<StepSet> before = dependence_order(steps, known);
  if (executed_orders_most(steps.size(), ops,
                           [&before](std::size_t i, std::size_t c) { return before[c].has(i); })) {
    return executed_only();
  }
  const Relation executed = relation_of_executed(ops);
  const Relation possible = every_possible_precedence(before, ops);
  if (std::optional<std::vector<std::size_t>> order =
          schedule_with_every_precedence(before, ops, possible)) {
    RealTimeOrders only;
    only.orders.push_back(std::move(*order));
    only.executed_is_most_ordered = executed == possible;
    return only;
  }
  std::map<Relation, std::vector<std::size_t>> leaves = every_relation(before, ops);
  CONTEND_ASSERT(!leaves.empty(), "no schedule of the class");
  RealTimeOrders out;
  bool executed_covered = false;
  for (const auto& [relation, order] : leaves) {
    bool dominated = false;
    for (const auto& [other, unused] : leaves) {
      if (other != relation && contained(relation, other)) dominated = true;
    }
    if (dominated) continue;
    executed_covered |= contained(executed, relation);
    out.orders.push_back(order);
    if (out.orders.size() == 1 && relation == executed) out.executed_is_most_ordered = true;
  }
  if (out.orders.size() != 1) out.executed_is_most_ordered = false;
  CONTEND_ASSERT(executed_covered, "the executed schedule's real-time order is in no maximal one");
  return out;
}

model::History reordered_history(const model::History& history, const StepLog& log,
                                 const std::vector<std::size_t>& order) {
  CONTEND_ASSERT(order.size() == log.steps.size(), "an order names every step once");
  const std::vector<long> owner = owners(history, log);
  model::History out;
  out.reserve(history.size());
  std::size_t i = 0;
  for (; i < history.size() && owner[i] < 0; ++i)
    out.push_back(history[i]);
  for (std::size_t k : order) {
    for (std::int64_t e : log.steps[k].events)
      out.push_back(history[static_cast<std::size_t>(e)]);
  }
  for (; i < history.size(); ++i) {
    if (owner[i] < 0) out.push_back(history[i]);
  }
  CONTEND_ASSERT(out.size() == history.size(), "reordering kept every event once");
  for (std::size_t j = 0; j < out.size(); ++j) {
    out[j].index = static_cast<std::int64_t>(j);
    out[j].time_us = history[j].time_us;
  }
  return out;
}

}  // namespace contend
