// The parts of a history (item_projection.h) in linearizability.h's search: the operations that
// concern one item, then two items whose lifetimes overlap, searched one by one. A part with no
// linearization proves that the whole has none (every spec is closed under leaving items out),
// and it is the smallest evidence a reader can be given: most queue violations (an item
// delivered twice, lost, taken out of order, an "empty" while it was there) concern one item or
// two. Two uses:
// - the whole history is beyond the budget: its parts are searched with as many steps again; a
//   failing part is the violation (its evidence the verdict's), and a history none of whose parts
//   fails stays `unknown`, saying how many parts were searched and whether that was every one;
// - the whole search found a violation: the parts are searched within the steps its evidence
//   search may take, and a failing part that names fewer operations than the whole's evidence is
//   said after it, as a smaller proof.
//
// Bounds: each part at most kPartStepsMax steps, and kPairsLookedAtPerStep pairs of items looked
// at a step of the parts' budget at most; a part that runs out of its own steps is counted and
// passed.
#pragma once

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>
#include <numeric>
#include <optional>
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

  // The steps the next part's search may take: what is left, at most kPartStepsMax.
  std::int64_t next_part_budget() const { return std::min(budget - spent, kPartStepsMax); }
};

// A part with no linearization and its own verdict.
struct FailingPart {
  Operations part;
  Verdict verdict;
};

// "the part of the history that concerns ['a'] alone, 2 operation(s) (...)".
inline std::string describe_part(const Operations& part, const PartTally& tally) {
  std::vector<ItemId> items(part.items.size());
  std::iota(items.begin(), items.end(), 0);
  const std::string their = items.size() == 1 ? "its" : "their";
  return "the part of the history that concerns " + describe_items(part, items) + " alone, " +
         std::to_string(part.ops.size()) + " operation(s) (" + their +
         " inserts, removes and peeks, every indeterminate remove and " +
         (tally.observers_minimal ? "the empty answers it cannot do without"
                                  : "the empty answers during " + their + " lifetime") +
         ")";
}

// The part's own evidence: "the longest linearizable prefix found has ...".
inline std::string part_evidence(const Verdict& found) {
  constexpr std::string_view lead = "no linearization exists. ";
  CONTEND_ASSERT(found.explanation.starts_with(lead),
                 "a search violation opens with the sentence the part's evidence follows");
  std::string rest = found.explanation.substr(lead.size());
  rest[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(rest[0])));
  return rest;
}

// A whole history beyond the search, decided by a part: the part's evidence is the verdict's.
inline Verdict part_violation(FailingPart failing, const Verdict& whole, const PartTally& tally) {
  Verdict found = std::move(failing.verdict);
  found.explanation =
      "no linearization exists: " + describe_part(failing.part, tally) +
      ", has none, and a linearization of the whole would give one of every "
      "part. In that part, " +
      part_evidence(found) + ". The whole history was beyond the search: " + whole.explanation +
      "; this part was number " + std::to_string(tally.searched) + " of those searched after it";
  found.events.clear();
  for (const Operation& op : failing.part.ops)
    found.events.push_back(op.invoke);
  found.steps = whole.steps + tally.spent;
  found.part_operations = static_cast<std::int64_t>(failing.part.ops.size());
  return found;
}

// A violation the whole search found, proved again by a part that names fewer operations than
// its evidence (not necessarily the same fault: the first part that fails): said after it; the
// whole's prefix and operations stay the verdict's, as the report draws them.
inline Verdict with_smaller_evidence(Verdict whole, const std::optional<FailingPart>& failing,
                                     const PartTally& tally) {
  whole.steps += tally.spent;
  if (!failing) return whole;
  const std::size_t named = whole.longest_prefix.size() + whole.stuck.size();
  if (failing->part.ops.size() >= named) return whole;
  whole.explanation += ". A smaller proof: " + describe_part(failing->part, tally) +
                       ", has no linearization either, and a linearization of the whole would "
                       "give one of every part. In that part, " +
                       part_evidence(failing->verdict);
  return whole;
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
      options.step_budget = tally.next_part_budget();
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

// The first part of one item, then of two items whose lifetimes overlap, with no
// linearization, its observers left out as far as it can do without them; none when every part
// linearizes or the tally's budget runs out first.
template <Spec S>
std::optional<FailingPart> first_failing_part(const Operations& ops, const S& spec,
                                              const SearchOptions& options, PartTally& tally) {
  const ItemProjections parts(ops);
  SearchOptions part_options = options;
  std::optional<FailingPart> found;
  const auto try_part = [&](std::span<const ItemId> items) {  // false: stop
    if (tally.spent >= tally.budget) {
      tally.stopped = true;
      return false;
    }
    part_options.step_budget = tally.next_part_budget();
    Operations part = parts.project(items);
    Verdict v = search_whole(part, spec, part_options);
    tally.spent += v.steps;
    ++tally.searched;
    if (v.kind == VerdictKind::unknown) ++tally.beyond_budget;
    if (v.kind != VerdictKind::violation) return true;
    leave_out_observers(part, v, spec, options, tally);
    found = FailingPart{std::move(part), std::move(v)};
    return false;
  };
  for (ItemId item : parts.items()) {
    if (!try_part(std::span<const ItemId>(&item, 1))) return found;
  }
  const std::int64_t looks_max =
      tally.budget > std::numeric_limits<std::int64_t>::max() / kPairsLookedAtPerStep
          ? std::numeric_limits<std::int64_t>::max()
          : kPairsLookedAtPerStep * tally.budget;
  const bool looked_at_all = parts.for_each_overlapping_pair(looks_max, [&](ItemId a, ItemId b) {
    const std::array<ItemId, 2> pair{a, b};
    return try_part(pair);
  });
  tally.stopped = tally.stopped || !looked_at_all;
  return found;
}

}  // namespace search_detail

// The whole search, then its parts: a history beyond the budget is searched part by part with
// as many steps again; a violation found is shown again in the smallest part that shows it,
// within the steps its evidence search may take (evidence_budget).
template <Spec S>
Verdict search_linearizable(const Operations& ops, const S& spec, const SearchOptions& options) {
  using namespace search_detail;
  Verdict whole = search_whole(ops, spec, options);
  if (!options.search_parts || whole.kind == VerdictKind::linearizable) return whole;
  if (whole.kind == VerdictKind::violation) {
    PartTally tally{.budget = evidence_budget(whole, options)};
    const std::optional<FailingPart> failing =
        tally.budget > 0 ? first_failing_part(ops, spec, options, tally) : std::nullopt;
    return with_smaller_evidence(std::move(whole), failing, tally);
  }
  PartTally tally{.budget = options.step_budget};
  std::optional<FailingPart> failing = first_failing_part(ops, spec, options, tally);
  if (failing) return part_violation(std::move(*failing), whole, tally);
  return parts_undecided(std::move(whole), tally);
}

}  // namespace contend::model
