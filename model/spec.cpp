#include "model/spec.h"

#include <algorithm>

#include "base/invariant.h"

namespace contend::model {

std::optional<SpecKind> parse_spec(std::string_view name) {
  if (name == "fifo") return SpecKind::fifo;
  if (name == "priority") return SpecKind::priority;
  if (name == "multiset") return SpecKind::multiset;
  return std::nullopt;
}

std::string_view to_string(SpecKind spec) {
  switch (spec) {
    case SpecKind::fifo:
      return "fifo";
    case SpecKind::priority:
      return "priority";
    case SpecKind::multiset:
      return "multiset";
  }
  return "?";
}

bool spec_allows(SpecKind spec, OpFunction f) {
  const bool fifo_f = f == OpFunction::enqueue || f == OpFunction::dequeue;
  switch (spec) {
    case SpecKind::fifo:
      return fifo_f;
    case SpecKind::priority:
      return !fifo_f;
    case SpecKind::multiset:
      return true;
  }
  return false;
}

std::optional<HistoryError> check_functions(const History& history, SpecKind spec,
                                            const EventLines& lines) {
  for (std::size_t i = 0; i < history.size(); ++i) {
    if (spec_allows(spec, history[i].f)) continue;
    const char* hint = spec == SpecKind::fifo ? " (a priority history: use --model priority)"
                                              : " (a FIFO history: use --model fifo)";
    return HistoryError{line_of(lines, i), "field \"f\": " + std::string(to_string(history[i].f)) +
                                               " is not an operation of the " +
                                               std::string(to_string(spec)) + " model" + hint};
  }
  return std::nullopt;
}

namespace {

std::uint64_t hash_ids(const std::vector<ItemId>& ids) {
  std::uint64_t h = ids.size();
  for (ItemId id : ids)
    h = mix_hash(h, static_cast<std::uint64_t>(id));
  return h;
}

// The positions a remove or peek may take in a sequence where the first `window` are eligible.
// Appends one successor per eligible position holding the observed item (or any, if unknown).
void take_within(const std::vector<ItemId>& state, const Operation& op, std::size_t window,
                 std::vector<std::vector<ItemId>>& out) {
  const bool remove = is_remove(op.f);
  if (op.empty_result()) {
    if (state.empty()) out.push_back(state);
    return;
  }
  if (op.indeterminate && state.empty()) {
    out.push_back(state);
    return;
  }
  const std::size_t n = std::min(window, state.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (!op.indeterminate && state[i] != op.output_id) continue;
    if (op.indeterminate && !remove) {  // an unknown peek changes nothing
      out.push_back(state);
      return;
    }
    if (std::find(state.begin(), state.begin() + static_cast<std::ptrdiff_t>(i), state[i]) !=
        state.begin() + static_cast<std::ptrdiff_t>(i)) {
      continue;  // an equal item earlier in the window gives the same successor
    }
    std::vector<ItemId> next = state;
    if (remove) next.erase(next.begin() + static_cast<std::ptrdiff_t>(i));
    out.push_back(std::move(next));
  }
}

}  // namespace

bool FifoSpec::step(State& state, const Operation& op) const {
  if (is_insert(op.f)) {
    state.push_back(op.input_id);
    return true;
  }
  const bool remove = is_remove(op.f);
  if (op.indeterminate) {
    if (remove && !state.empty()) state.erase(state.begin());
    return true;
  }
  if (op.empty_result()) return state.empty();
  if (state.empty() || state.front() != op.output_id) return false;
  if (remove) state.erase(state.begin());
  return true;
}

std::uint64_t FifoSpec::hash(const State& state) const {
  return hash_ids(state);
}

bool PrioritySpec::step(State& state, const Operation& op) const {
  if (is_insert(op.f)) {
    const Entry e{op.input->priority.value_or(0), op.input_id};
    auto at = std::upper_bound(state.begin(), state.end(), e, [](const Entry& a, const Entry& b) {
      return a.priority < b.priority;
    });
    state.insert(at, e);
    return true;
  }
  const bool remove = is_remove(op.f);
  const bool back = takes_back(op.f);
  if (op.indeterminate) {
    if (remove && !state.empty()) state.erase(back ? state.end() - 1 : state.begin());
    return true;
  }
  if (op.empty_result()) return state.empty();
  if (state.empty()) return false;
  auto it = back ? state.end() - 1 : state.begin();
  if (it->item != op.output_id) return false;
  if (remove) state.erase(it);
  CONTEND_DEBUG_ASSERT(
      std::is_sorted(state.begin(), state.end(),
                     [](const Entry& a, const Entry& b) { return a.priority < b.priority; }),
      "the priority state stays ordered by priority");
  return true;
}

std::uint64_t PrioritySpec::hash(const State& state) const {
  std::uint64_t h = state.size();
  for (const Entry& e : state) {
    h = mix_hash(h, static_cast<std::uint64_t>(e.priority));
    h = mix_hash(h, static_cast<std::uint64_t>(e.item));
  }
  return h;
}

std::vector<ItemId> PrioritySpec::items(const State& state) const {
  std::vector<ItemId> out;
  out.reserve(state.size());
  for (const Entry& e : state)
    out.push_back(e.item);
  return out;
}

void MultisetSpec::successors(const State& state, const Operation& op,
                              std::vector<State>& out) const {
  if (is_insert(op.f)) {
    State next = state;
    next.insert(std::upper_bound(next.begin(), next.end(), op.input_id), op.input_id);
    CONTEND_DEBUG_ASSERT(std::is_sorted(next.begin(), next.end()), "a multiset stays sorted");
    out.push_back(std::move(next));
    return;
  }
  if (op.empty_result() || (op.indeterminate && !is_remove(op.f))) {
    out.push_back(state);  // "empty" may be answered at any time; an unknown peek sees nothing
    return;
  }
  if (op.indeterminate) {
    take_within(state, op, state.size(), out);
    return;
  }
  auto it = std::lower_bound(state.begin(), state.end(), op.output_id);
  if (it == state.end() || *it != op.output_id) return;
  State next = state;
  if (is_remove(op.f)) next.erase(next.begin() + (it - state.begin()));
  out.push_back(std::move(next));
}

std::uint64_t MultisetSpec::hash(const State& state) const {
  return hash_ids(state);
}

void RelaxedFifoSpec::successors(const State& state, const Operation& op,
                                 std::vector<State>& out) const {
  if (is_insert(op.f)) {
    State next = state;
    next.push_back(op.input_id);
    out.push_back(std::move(next));
    return;
  }
  take_within(state, op, k, out);
}

std::uint64_t RelaxedFifoSpec::hash(const State& state) const {
  return hash_ids(state);
}

}  // namespace contend::model
