// The last resort of linearizability.h's search: when the whole history is beyond its budget,
// the parts of the history that concern one item, then two items whose lifetimes overlap
// (item_projection.h), are searched one by one. A part with no linearization proves that the
// whole has none (every spec is closed under leaving items out), and it is the smallest
// evidence a reader can be given: most queue violations (an item delivered twice, lost, taken
// out of order, an "empty" while it was there) concern one item or two.
//
// Bounds: the parts spend at most as many steps again as the whole search had, each part at most
// kPartStepsMax, and look at kPairsLookedAtPerStep pairs of items a step at most; a part that runs
// out of its own steps is counted and passed. The parts can only
// find violations: a history none of whose parts fails stays `unknown`, and the explanation says
// how many parts were searched and whether every one was.
#pragma once

#include <array>
#include <cctype>
#include <numeric>
#include <span>
#include <string>
#include <string_view>

#include "base/invariant.h"
#include "model/item_projection.h"
#include "model/linearizability_search.h"

namespace contend::model {

inline constexpr std::int64_t kPartStepsMax = 100'000;
// How many pairs of items the part search may look at (to see whether they overlap) for each
// step of its budget: the look is a comparison, a step a search step.
inline constexpr std::int64_t kPairsLookedAtPerStep = 64;

namespace search_detail {

struct PartTally {
  std::int64_t budget = 0;
  std::int64_t spent = 0;
  std::int64_t searched = 0;
  std::int64_t beyond_budget = 0;  // parts that ran out of their own steps
  bool stopped = false;            // the parts' budget ran out before every part was searched
  bool observers_minimal = false;  // no empty answer or peek can leave the failing part
};

// "No linearization exists: the part ... has none ...", from the part's own violation.
inline Verdict part_violation(const Operations& part, Verdict found, const Verdict& whole,
                              const PartTally& tally) {
  constexpr std::string_view lead = "no linearization exists. ";
  CONTEND_ASSERT(found.explanation.starts_with(lead),
                 "a search violation opens with the sentence the part's evidence follows");
  std::string rest = found.explanation.substr(lead.size());
  rest[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(rest[0])));
  std::vector<ItemId> items(part.items.size());
  std::iota(items.begin(), items.end(), 0);
  found.explanation =
      "no linearization exists: the part of the history that concerns " +
      describe_items(part, items) + " alone, " + std::to_string(part.ops.size()) +
      " operation(s) (their inserts, removes and peeks, every indeterminate remove and " +
      (tally.observers_minimal ? "the empty answers it cannot do without"
                               : "the empty answers during their lifetime") +
      "), has none, and a linearization of the whole would give one of every part. In that "
      "part, " +
      rest + ". The whole history was beyond the search: " + whole.explanation +
      "; this part was number " + std::to_string(tally.searched) + " of those searched after it";
  found.events.clear();
  for (const Operation& op : part.ops)
    found.events.push_back(op.invoke);
  found.steps = whole.steps + tally.spent;
  return found;
}

inline Verdict parts_undecided(Verdict whole, const PartTally& tally) {
  whole.explanation +=
      "; then no part of one item, or of two items whose lifetimes overlap, "
      "showed a violation: " +
      std::to_string(tally.searched) + " parts searched in " + std::to_string(tally.spent) +
      " steps";
  whole.explanation += tally.stopped ? ", when the parts' budget ran out" : ", every such part";
  if (tally.beyond_budget > 0) {
    whole.explanation +=
        " (" + std::to_string(tally.beyond_budget) + " of them beyond their own budget)";
  }
  whole.steps += tally.spent;
  return whole;
}

// Leaves out of a part with no linearization every empty answer and peek it can do without
// (the part stays without one), pass after pass until none can go or the parts' budget runs out:
// the evidence a reader gets keeps only the observers that matter.
template <Spec S>
void leave_out_observers(Operations& part, Verdict& found, const S& spec, SearchOptions options,
                         PartTally& tally) {
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = part.ops.size(); i-- > 0;) {
      if (!only_observes(part.ops[i])) continue;
      if (tally.spent >= tally.budget) return;
      options.step_budget = std::min(tally.budget - tally.spent, kPartStepsMax);
      Operations smaller = without_operation(part, i);
      Verdict v = search_whole(smaller, spec, options);
      tally.spent += v.steps;
      if (v.kind != VerdictKind::violation) continue;
      part = std::move(smaller);
      found = std::move(v);
      changed = true;
    }
  }
  tally.observers_minimal = true;
}

}  // namespace search_detail

template <Spec S>
Verdict search_parts(const Operations& ops, const S& spec, const SearchOptions& options,
                     Verdict whole) {
  const ItemProjections parts(ops);
  search_detail::PartTally tally{.budget = options.step_budget};
  SearchOptions part_options = options;
  std::optional<Verdict> found;
  const auto try_part = [&](std::span<const ItemId> items) {  // false: stop
    if (tally.spent >= tally.budget) {
      tally.stopped = true;
      return false;
    }
    part_options.step_budget = std::min(tally.budget - tally.spent, kPartStepsMax);
    Operations part = parts.project(items);
    Verdict v = search_whole(part, spec, part_options);
    tally.spent += v.steps;
    ++tally.searched;
    if (v.kind == VerdictKind::unknown) ++tally.beyond_budget;
    if (v.kind != VerdictKind::violation) return true;
    search_detail::leave_out_observers(part, v, spec, options, tally);
    found = search_detail::part_violation(part, std::move(v), whole, tally);
    return false;
  };
  bool go_on = true;
  for (ItemId item : parts.items()) {
    go_on = try_part(std::span<const ItemId>(&item, 1));
    if (!go_on) break;
  }
  if (go_on) {
    const bool looked_at_all = parts.for_each_overlapping_pair(
        kPairsLookedAtPerStep * tally.budget, [&](ItemId a, ItemId b) {
          const std::array<ItemId, 2> pair{a, b};
          return try_part(pair);
        });
    tally.stopped = tally.stopped || !looked_at_all;
  }
  if (found) return std::move(*found);
  return search_detail::parts_undecided(std::move(whole), tally);
}

template <Spec S>
Verdict search_linearizable(const Operations& ops, const S& spec, const SearchOptions& options) {
  Verdict whole = search_whole(ops, spec, options);
  if (whole.kind != VerdictKind::unknown || !options.search_parts) return whole;
  return search_parts(ops, spec, options, std::move(whole));
}

}  // namespace contend::model
