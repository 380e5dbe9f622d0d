// The order in which the linearizability search tries the operations that may go next.
//
// Any order is sound: the search tries every candidate before it backtracks, so the order
// decides only how soon a linearization is found, never whether one exists. Trying candidates in
// invocation order (Porcupine's walk) places two concurrent inserts in the order they were
// invoked; when the queue later hands them out the other way, the mistake shows only when the
// first of them is removed — often hundreds of operations on — and the search backtracks over
// everything placed since. A linearizable history of four clients of the seed recipe ran the
// search out of two million steps that way.
//
// `by_observation` inserts each item just in time, using what the history says happened
// afterwards:
// - The operations that observe the queue (removes and peeks with a known answer) are tried
//   first, in invocation order: an item that is not there yet cannot be in their way.
// - Inserts come next. Each is *needed* from the invocation of the first operation that saw its
//   item (its sighting; with repeated items the k-th insert of an item is seen by the k-th removal
//   of it). Inserts whose item has one priority (all of a FIFO queue's) must go in in the order
//   the queue hands them out, which is a deque's: from the front in push order, from the back
//   (pop_max, peek_max) in reverse push order, an item nobody saw never. So within a priority
//   they are ordered front items by sighting, then unseen items by invocation, then back items
//   by latest sighting first — the *deque order*. An insert is needed once its item's sighting
//   is invoked, or when its completion ends the candidates (it must go now), and so is every
//   insert before such a forced one in deque order (it must go in below it). Needed inserts go
//   first, in deque order within a priority, the one needed soonest first; the others wait, out
//   of the way of observers, until they are needed.
// - Indeterminate operations come last: each may be left out, and a remove of unknown answer
//   could take any item. But when no observer can go and no insert is needed, an item must leave
//   the queue, and only an indeterminate remove can take it: those are tried before the inserts
//   that are not needed yet.
//
// Invariant: a window's order is a total order (ties broken by operation id), so the search is
// deterministic; under `invocation` it is the order of invocation.
#pragma once

#include <algorithm>
#include <compare>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "model/operations.h"

namespace contend::model {

enum class CandidateOrder : std::uint8_t { invocation, by_observation };

// What a candidate is to `by_observation`: an observer, an insert, an indeterminate remove, or
// another indeterminate operation (a peek, an insert whose item nobody saw).
enum class CandidateKind : std::uint8_t { observer, insert, optional_remove, optional };

// The tiers of a window's trying order (WindowCandidate::tier).
enum class CandidateTier : std::uint8_t {
  observer,
  needed_insert,
  optional_remove,  // when no observer can go and no insert is needed, an item must leave
  waiting_insert,
  optional,
};

// Where an insert stands in its priority's deque order: front items, unseen, back items.
enum class DequeGroup : std::uint8_t { front, unseen, back };

// What the history says of one operation, for ordering it among the candidates.
struct CandidateRank {
  CandidateKind kind = CandidateKind::observer;
  std::int64_t point = 0;  // needed from: a real-time position (operations.h's scale), kForever
  std::int64_t id = 0;
  // Inserts: the item's priority (0 in a FIFO queue) and the place in its deque order.
  std::int64_t priority = 0;
  DequeGroup group = DequeGroup::front;
  std::int64_t deque_key = 0;  // front: sighting; unseen: invocation; back: minus sighting
};

// One candidate of a window (the candidates before the first completion not yet placed), with
// its place in the window's trying order.
struct WindowCandidate {
  CandidateTier tier = CandidateTier::observer;
  std::int64_t needed_from = 0;  // inserts: the soonest point of it or any insert after it
  std::int64_t priority = 0;
  DequeGroup group = DequeGroup::front;
  std::int64_t deque_key = 0;
  std::int64_t id = 0;
  std::int32_t entry = -1;  // the search's call entry
  CandidateKind kind = CandidateKind::observer;
  bool not_needed_yet = false;
  friend auto operator<=>(const WindowCandidate&, const WindowCandidate&) = default;
};

namespace search_order_detail {

// Where an insert's item was first seen, and from which end.
struct Sighting {
  std::int64_t at = kForever;  // the invocation of the first operation that saw it
  bool from_back = false;      // that operation works at the back (pop_max, peek_max)
};

// The k-th insert of an item (invocation order) is seen by the k-th determinate removal of it,
// or, the first insert, by an earlier peek of it.
inline std::vector<Sighting> sightings(const Operations& ops) {
  std::map<ItemId, std::vector<Sighting>> removed;  // item -> its removals, in invocation order
  std::map<ItemId, Sighting> first_peek;
  for (const Operation& op : ops.ops) {
    if (op.indeterminate || op.output_id == kNoItem) continue;
    const Sighting sighting{op.call, takes_back(op.f)};
    if (is_remove(op.f)) removed[op.output_id].push_back(sighting);
    if (is_peek(op.f)) first_peek.try_emplace(op.output_id, sighting);
  }
  std::vector<Sighting> seen(ops.ops.size());
  std::map<ItemId, std::size_t> inserts_so_far;
  for (const Operation& op : ops.ops) {
    if (!is_insert(op.f) || op.input_id == kNoItem) continue;
    const std::size_t k = inserts_so_far[op.input_id]++;
    Sighting& s = seen[static_cast<std::size_t>(op.id)];
    if (auto r = removed.find(op.input_id); r != removed.end() && k < r->second.size()) {
      s = r->second[k];
    }
    auto p = first_peek.find(op.input_id);
    if (p != first_peek.end() && k == 0 && p->second.at < s.at) s = p->second;
  }
  return seen;
}

inline bool same_priority(const WindowCandidate& a, const WindowCandidate& b) {
  return a.kind == CandidateKind::insert && b.kind == CandidateKind::insert &&
         a.priority == b.priority;
}

}  // namespace search_order_detail

// Each operation's rank, indexed by operation id.
inline std::vector<CandidateRank> candidate_ranks(const Operations& ops, CandidateOrder order) {
  std::vector<CandidateRank> ranks(ops.ops.size());
  std::vector<search_order_detail::Sighting> seen;
  if (order == CandidateOrder::by_observation) seen = search_order_detail::sightings(ops);
  for (const Operation& op : ops.ops) {
    CandidateRank& rank = ranks[static_cast<std::size_t>(op.id)];
    rank.id = op.id;
    rank.point = op.call;
    if (order == CandidateOrder::invocation) continue;
    if (is_insert(op.f)) {
      const search_order_detail::Sighting& s = seen[static_cast<std::size_t>(op.id)];
      rank.kind = CandidateKind::insert;
      rank.point = s.at;
      rank.priority = op.input ? op.input->priority.value_or(0) : 0;
      rank.group = s.at == kForever ? DequeGroup::unseen
                                    : (s.from_back ? DequeGroup::back : DequeGroup::front);
      rank.deque_key = rank.group == DequeGroup::unseen ? op.call : (s.from_back ? -s.at : s.at);
    }
    // An indeterminate insert whose item was seen took effect: it is an insert like any other.
    if (op.indeterminate && is_remove(op.f)) {
      rank.kind = CandidateKind::optional_remove;
    } else if (op.indeterminate && (!is_insert(op.f) || rank.point == kForever)) {
      rank.kind = CandidateKind::optional;
    }
  }
  return ranks;
}

// The inserts window[first, last) of one priority, in deque order: which are needed now, and
// in what order they go. An insert is needed when its item is seen within the window, or when
// its completion ends the window (it must go in now) — and so is every insert before a forced
// one in deque order, which must go in below it. An insert needed only by its sighting does not
// make those before it needed: they may as well go in after its item has left, and an item in
// the queue before its time is in the way of observers (an item nobody saw never leaves).
// Needed inserts keep deque order among themselves: each goes by the soonest point of itself
// and the needed inserts after it.
template <typename Forced>
void order_one_priority(std::size_t first, std::size_t last, std::vector<WindowCandidate>& window,
                        std::int64_t end_point, Forced forced) {
  std::int64_t soonest = kForever;  // over the needed inserts from i on
  bool forced_from_here = false;    // some insert from i on is forced
  for (std::size_t i = last; i-- > first;) {
    WindowCandidate& c = window[i];
    forced_from_here = forced_from_here || forced(c);
    const bool needed = forced_from_here || c.needed_from <= end_point;
    c.not_needed_yet = !needed;
    if (needed) {
      soonest = std::min(soonest, c.needed_from);
      c.needed_from = soonest;
    }
  }
}

inline CandidateTier tier_of(const WindowCandidate& c) {
  switch (c.kind) {
    case CandidateKind::observer:
      return CandidateTier::observer;
    case CandidateKind::insert:
      return c.not_needed_yet ? CandidateTier::waiting_insert : CandidateTier::needed_insert;
    case CandidateKind::optional_remove:
      return CandidateTier::optional_remove;
    case CandidateKind::optional:
      return CandidateTier::optional;
  }
  return CandidateTier::optional;
}

// Orders one window's candidates (each with its `id` and `entry` set) for trying. `end_point`:
// the real-time position of the completion that ends the window (kForever: none);
// `forced(candidate)`: whether that completion is the candidate's own.
template <typename Forced>
void order_window(std::vector<WindowCandidate>& window, const std::vector<CandidateRank>& ranks,
                  std::int64_t end_point, Forced forced) {
  for (WindowCandidate& c : window) {
    const CandidateRank& rank = ranks[static_cast<std::size_t>(c.id)];
    c.kind = rank.kind;
    c.needed_from = rank.point;
    c.priority = rank.priority;
    c.group = rank.group;
    c.deque_key = rank.deque_key;
    c.not_needed_yet = false;
  }
  // Each priority's inserts side by side in deque order, for order_one_priority.
  std::sort(window.begin(), window.end(), [](const WindowCandidate& a, const WindowCandidate& b) {
    return std::tie(a.kind, a.priority, a.group, a.deque_key, a.id) <
           std::tie(b.kind, b.priority, b.group, b.deque_key, b.id);
  });
  for (std::size_t last = window.size(); last > 0;) {
    std::size_t first = last - 1;
    while (first > 0 && search_order_detail::same_priority(window[first - 1], window[last - 1]))
      --first;
    if (window[first].kind == CandidateKind::insert)
      order_one_priority(first, last, window, end_point, forced);
    last = first;
  }
  for (WindowCandidate& c : window)
    c.tier = tier_of(c);
  std::sort(window.begin(), window.end());
}

}  // namespace contend::model
