#include "scenarios/search_sizing.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "base/invariant.h"

namespace contend {

namespace {

// Sizing (size_units): rounds, the nodes a stopped unit is cut at in one round, and the parts
// still going at which a lineage is cut no further. Without that bound a large budget cut the
// units ever finer (hc-queue 4 x 2 with --schedules 2000000000: 69,665 units by the third
// round, whose runs alone were over a hundred million, none of them saved by a checkpoint).
constexpr int kSizingRoundsMax = 6;
constexpr int kSizingCutLevels = 4;
constexpr std::int64_t kSizingGoingMax = 64;
// Sizing only (it runs once, for every shard), after those rounds: rounds that run the units no
// round ran yet (fresh parts cut off a lineage that had reached kSizingGoingMax), cutting the ones
// that do not finish, the last of them without cutting. In hc-queue 3 x 3 seed 1 such units held
// 69% of the runs, one of them 14.1%: no deal of the cut could take a shard below that.
// A going unit keeps its search's state in memory, and cutting every fresh unit that does not
// finish multiplies them (hc-queue 4 x 2 seed 1: 17,968 units, then 33,761 and 59,765 in two
// rounds, 13.9 GB), so a fresh round runs only as many fresh units as keep the units in progress
// within ExhaustiveOptions::sizing_going_max, those rooted highest first (the shortest paths,
// likely the largest).
constexpr int kFreshRoundsMax = 4;

int sizing_rounds_max(const ExhaustiveOptions& o) {
  return kSizingRoundsMax + (o.sizing_only ? kFreshRoundsMax : 0);
}

std::int64_t runs_of(const UnitResult& r) {
  return r.executions + r.blocked;
}

std::int64_t runs_of(const SizedUnits& sized, std::size_t unit) {
  if (auto d = sized.done.find(unit); d != sized.done.end()) return runs_of(d->second);
  if (auto p = sized.partial.find(unit); p != sized.partial.end()) return runs_of(p->second.result);
  return 0;
}

// Per lineage: the runs its parts have made, and how many of them are still to finish.
struct LineageUse {
  std::int64_t runs = 0;
  std::int64_t going = 0;
};

std::vector<LineageUse> lineage_use(const SizedUnits& sized, std::size_t lineages) {
  std::vector<LineageUse> use(lineages);
  for (std::size_t i = 0; i < sized.units.size(); ++i) {
    LineageUse& u = use[sized.units[i].lineage];
    u.runs += runs_of(sized, i);
    u.going += sized.done.count(i) == 0 ? 1 : 0;
  }
  return use;
}

// A unit its sizing runs stopped, cut kSizingCutLevels nodes deep, into `next`; as it stands
// when it may not be cut there.
void cut_stopped(const Scenario& planned, const ExhaustiveOptions& o, const Unit& unit,
                 UnitResult r, SizedUnits& next) {
  DporProgress stopped = std::move(*r.stopped_at);
  r.stopped_at.reset();
  Unit going = unit;
  std::vector<Unit> fresh;  // deepest cut node first
  for (int level = 0; level < kSizingCutLevels; ++level) {
    std::optional<SplitUnit> split = split_stopped(planned, o, going, stopped);
    if (!split) break;
    going = std::move(split->units.front());
    stopped = std::move(split->resumed);
    for (std::size_t k = split->units.size(); k-- > 1;)
      fresh.push_back(std::move(split->units[k]));
  }
  next.partial[next.units.size()] = UnitProgress{std::move(r), std::move(stopped)};
  next.units.push_back(std::move(going));
  // In the order one search would take them: the shallowest cut node's threads last.
  for (auto it = fresh.rbegin(); it != fresh.rend(); ++it)
    next.units.push_back(std::move(*it));
}

// One round's results into the next round's units, cutting the stopped units of `cut` lineages.
SizedUnits after_sizing_round(const std::vector<Scenario>& planned, const ExhaustiveOptions& o,
                              const SizedUnits& was, std::map<std::size_t, UnitResult> results,
                              const std::vector<bool>& cut) {
  std::int64_t runs = 0;  // every unit's runs: the same after the round's cuts
  for (std::size_t i = 0; i < was.units.size(); ++i) {
    auto it = results.find(i);
    runs += it == results.end() ? runs_of(was, i) : runs_of(it->second);
  }
  SizedUnits next;
  next.rounds = was.rounds;
  for (std::size_t i = 0; i < was.units.size(); ++i) {
    const Unit& u = was.units[i];
    const std::size_t index = next.units.size();
    auto it = results.find(i);
    if (it == results.end()) {  // not run this round: as it was
      next.units.push_back(u);
      if (auto d = was.done.find(i); d != was.done.end()) next.done[index] = d->second;
      if (auto p = was.partial.find(i); p != was.partial.end()) next.partial[index] = p->second;
      continue;
    }
    UnitResult r = std::move(it->second);
    if (r.stopped_at && cut[u.lineage]) {
      cut_stopped(planned[u.plan], o, u, std::move(r), next);
      continue;
    }
    next.units.push_back(u);
    if (r.stopped_at) {
      DporProgress at = std::move(*r.stopped_at);
      r.stopped_at.reset();
      next.partial[index] = UnitProgress{std::move(r), std::move(at)};
    } else {
      next.done[index] = std::move(r);
    }
  }
  std::int64_t kept = 0;
  for (std::size_t i = 0; i < next.units.size(); ++i)
    kept += runs_of(next, i);
  CONTEND_ASSERT(kept == runs, "cutting the stopped units lost or doubled some of their runs");
  return next;
}

// Each unit's budget after sizing: its runs so far and an even part of what its lineage has left.
void share_lineage_budgets(SizedUnits& sized, const std::vector<std::int64_t>& shares) {
  const std::vector<LineageUse> use = lineage_use(sized, shares.size());
  std::vector<std::int64_t> rank(shares.size(), 0);
  sized.budgets.assign(sized.units.size(), 0);
  for (std::size_t i = 0; i < sized.units.size(); ++i) {
    const std::size_t l = sized.units[i].lineage;
    sized.budgets[i] = runs_of(sized, i);
    if (sized.done.count(i) != 0) continue;
    const std::int64_t left = std::max<std::int64_t>(0, shares[l] - use[l].runs);
    sized.budgets[i] += even_share(left, use[l].going, rank[l]++);
  }
}

// The units a sizing round runs (by unit: the runs it may reach; 0: not run) and the lineages whose
// stopped units it cuts. The choice depends on the units and the rounds so far alone, so a search
// resumed between rounds chooses as the uninterrupted one would.
struct SizingRound {
  std::vector<std::int64_t> budgets;
  std::vector<bool> cut;
  bool any = false;
};

// A lineage runs a regular round only while it stays under half its budget by the round's end,
// and while it has fewer than kSizingGoingMax parts going; all of its going units run.
SizingRound regular_round(const SizedUnits& sized, const std::vector<std::int64_t>& shares,
                          const ExhaustiveOptions& o) {
  const std::vector<LineageUse> use = lineage_use(sized, shares.size());
  SizingRound round;
  round.cut.assign(shares.size(), false);
  for (std::size_t l = 0; l < shares.size(); ++l) {
    round.cut[l] = use[l].going > 0 && use[l].going < kSizingGoingMax &&
                   use[l].runs + use[l].going * o.sizing_runs <= shares[l] / 2;
  }
  round.budgets.assign(sized.units.size(), 0);
  for (std::size_t i = 0; i < sized.units.size(); ++i) {
    if (sized.done.count(i) != 0 || !round.cut[sized.units[i].lineage]) continue;
    round.budgets[i] = runs_of(sized, i) + o.sizing_runs;
    round.any = true;
  }
  return round;
}

// A fresh round (sizing only): the units no round ran, of lineages that stay under half their
// budget by its end, as many as keep the units in progress within o.sizing_going_max.
SizingRound fresh_round(const SizedUnits& sized, const std::vector<std::int64_t>& shares,
                        const ExhaustiveOptions& o) {
  const std::vector<LineageUse> use = lineage_use(sized, shares.size());
  std::vector<std::int64_t> fresh(shares.size(), 0);
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < sized.units.size(); ++i) {
    if (sized.done.count(i) == 0 && runs_of(sized, i) == 0) {
      ++fresh[sized.units[i].lineage];
      candidates.push_back(i);
    }
  }
  SizingRound round;
  round.cut.assign(shares.size(), false);
  for (std::size_t l = 0; l < shares.size(); ++l)
    round.cut[l] = fresh[l] > 0 && use[l].runs + fresh[l] * o.sizing_runs <= shares[l] / 2;
  round.budgets.assign(sized.units.size(), 0);
  const std::size_t in_progress = sized.partial.size();
  const std::size_t room = o.sizing_going_max - std::min(o.sizing_going_max, in_progress);
  std::stable_sort(candidates.begin(), candidates.end(), [&](std::size_t a, std::size_t b) {
    return sized.units[a].path.size() < sized.units[b].path.size();
  });
  std::size_t taken = 0;
  for (std::size_t i : candidates) {
    if (taken == room) break;
    if (!round.cut[sized.units[i].lineage]) continue;
    round.budgets[i] = o.sizing_runs;
    round.any = true;
    ++taken;
  }
  return round;
}

SizingRound next_sizing_round(SizedUnits& sized, const std::vector<std::int64_t>& shares,
                              const ExhaustiveOptions& o) {
  SizingRound round;
  if (sized.round_under_way) {  // the round a stop cut short, as it was begun
    round.budgets = std::move(sized.round_under_way->budgets);
    round.cut = std::move(sized.round_under_way->cut);
    round.any = true;
    sized.round_under_way.reset();
    return round;
  }
  // Each phase's last round cuts none, so the usual rounds cut as a search's own sizing does.
  if (sized.rounds < kSizingRoundsMax) {
    round = regular_round(sized, shares, o);
    if (round.any && sized.rounds + 1 == kSizingRoundsMax)
      round.cut.assign(round.cut.size(), false);
  }
  if (!round.any && o.sizing_only) {
    round = fresh_round(sized, shares, o);
    if (sized.rounds + 1 == sizing_rounds_max(o)) round.cut.assign(round.cut.size(), false);
  }
  return round;
}

// A round a stop cut short: what its units made joins what the rounds before made (as the
// next round would take it, without cutting), and the cut is saved with the round and that
// progress, so that the resumed search ends the round as one never stopped would.
void keep_round_under_way(SizedUnits& sized, std::map<std::size_t, UnitResult> results,
                          SizingRound round, Checkpoint& checkpoint) {
  for (auto& [index, r] : results) {
    if (sized.done.count(index) != 0) continue;  // run_units hands the finished units back
    if (r.stopped_at) {
      DporProgress at = std::move(*r.stopped_at);
      r.stopped_at.reset();
      sized.partial[index] = UnitProgress{std::move(r), std::move(at)};
    } else {
      sized.partial.erase(index);
      sized.done[index] = std::move(r);
    }
  }
  sized.round_under_way = SizingRoundUnderWay{std::move(round.budgets), std::move(round.cut)};
  checkpoint.save_units(SavedCut{sized.units, sized.rounds, false, sized.round_under_way},
                        sized.done, sized.partial);
}

// `sized` holds the shard's units (and, resumed, what the saved rounds found of them), `shares`
// their budgets; every part of a unit keeps to its budget. Each round's cut is saved.
void size_units(const std::vector<Scenario>& planned, const std::vector<Root>& roots,
                SizedUnits& sized, const std::vector<std::int64_t>& shares,
                const ExhaustiveOptions& o, ProgressMeter& meter, Checkpoint& checkpoint) {
  Checkpoint none("", "", "", 1);
  for (; o.sizing_runs > 0 && may_cut_below_root(o) && sized.rounds < sizing_rounds_max(o);
       ++sized.rounds) {
    if (o.stop_after_sizing_rounds && sized.rounds >= *o.stop_after_sizing_rounds) {
      sized.interrupted = true;
      return;
    }
    SizingRound round = next_sizing_round(sized, shares, o);
    if (!round.any) break;
    meter.restart_units(static_cast<std::int64_t>(sized.done.size()),
                        static_cast<std::int64_t>(sized.units.size()), sized.rounds + 1);
    std::map<std::size_t, UnitResult> results = run_units(
        planned, roots, sized.units, round.budgets, o, sized.done, sized.partial, none, meter);
    if (stop_requested(o)) {  // its stopped units were cut by no budget: the round goes on later
      keep_round_under_way(sized, std::move(results), std::move(round), checkpoint);
      sized.interrupted = true;
      return;
    }
    for (const auto& [index, r] : sized.done)
      results.erase(index);  // run_units hands the finished units back
    sized = after_sizing_round(planned, o, sized, std::move(results), round.cut);
    checkpoint.save_units(SavedCut{sized.units, sized.rounds + 1, false, std::nullopt}, sized.done,
                          sized.partial);
  }
  checkpoint.save_units(SavedCut{sized.units, sized.rounds, true, std::nullopt}, sized.done,
                        sized.partial);
}

// "FILE: scope 3x2|faults=0": where a message about a scope's saved units says they are.
std::string scope_in(const std::string& file, const std::string& scope) {
  return file + ": scope " + scope;
}

// The units a checkpoint kept, checked against this search: each of a plan of it, cut from one of
// the shard's first units, and with its path where `searched` takes it (a dealt shard's file
// holds the paths of its own units only: parse_checkpoint_file), a path that starts at the
// unit's own first thread (the path's digest covers its nodes, not the unit's fields).
bool check_saved_units(const std::vector<Unit>& saved, std::size_t plans, std::size_t lineages,
                       const std::string& where, std::string& error, Shard searched = Shard{}) {
  for (std::size_t i = 0; i < saved.size(); ++i) {
    const bool pathless = saved[i].path.empty() && searched.includes(i, 0);
    const bool other_thread =
        !saved[i].path.empty() && saved[i].path.front().thread != saved[i].thread;
    if (saved[i].plan >= plans || saved[i].lineage >= lineages || pathless || other_thread) {
      error = fmt::format("{}: unit {} is not one of this search's", where, i);
      return false;
    }
  }
  return true;
}

// What the checkpoint holds of the units (finished, in progress) into `sized`, checked against
// them — the progress of those `searched` takes (the others' runs only count for budgets); false
// (and `error`) when it names a unit the search does not have.
bool take_saved_results(std::map<std::size_t, UnitResult> saved_done,
                        std::map<std::size_t, UnitProgress> saved_partial, const std::string& where,
                        SizedUnits& sized, std::string& error, Shard searched = Shard{}) {
  const std::vector<Unit>& units = sized.units;
  for (const auto& [index, result] : saved_done) {
    if (index >= units.size()) {
      error = where + ": unit " + std::to_string(index) + " is not in this search";
      return false;
    }
  }
  for (const auto& [index, progress] : saved_partial) {
    if (index >= units.size() ||
        (searched.includes(index, 0) && !progress_belongs_to(progress.explorer, units[index]))) {
      error =
          where + ": the progress saved for unit " + std::to_string(index) + " is not that unit's";
      return false;
    }
  }
  for (auto& [index, progress] : saved_partial)
    sized.partial[index] = std::move(progress);
  for (auto& [index, result] : saved_done) {
    sized.partial.erase(index);
    sized.done[index] = std::move(result);
  }
  return true;
}

}  // namespace

bool units_to_search(const std::vector<Scenario>& planned, const std::vector<Root>& roots,
                     std::vector<Unit> own, const std::vector<std::int64_t>& shares,
                     const ExhaustiveOptions& o, Checkpoint& checkpoint, ProgressMeter& meter,
                     SizedUnits& sized, std::string& error) {
  std::map<std::size_t, UnitResult> saved_done;
  std::map<std::size_t, UnitProgress> saved_partial;
  if (!checkpoint.load(saved_done, saved_partial, error)) return false;
  const bool cut_below_root = !own.empty() && !own.front().path.empty();
  std::optional<SavedCut> kept;
  if (cut_below_root && !checkpoint.saved_units(kept, error)) return false;
  const std::string where = scope_in(o.checkpoint_file, checkpoint.scope());
  if (kept) {
    if (!check_saved_units(kept->units, planned.size(), own.size(), where, error)) return false;
    if (kept->round_under_way && kept->round_under_way->cut.size() != own.size()) {
      error = fmt::format("{}: the sizing round under way cuts {} lineages of {}", where,
                          kept->round_under_way->cut.size(), own.size());
      return false;
    }
    sized.units = std::move(kept->units);
    sized.rounds = kept->sizing_rounds;
    sized.round_under_way = std::move(kept->round_under_way);
  } else {
    if (cut_below_root && (!saved_done.empty() || !saved_partial.empty())) {
      error = where + ": holds units but not the cut they belong to";
      return false;
    }
    sized.units = std::move(own);
  }
  if (!take_saved_results(std::move(saved_done), std::move(saved_partial), where, sized, error)) {
    return false;
  }
  if (cut_below_root && !(kept && kept->sizing_finished)) {
    size_units(planned, roots, sized, shares, o, meter, checkpoint);
  }
  share_lineage_budgets(sized, shares);
  return true;
}

bool deal_sized_units(const std::vector<Scenario>& planned, std::vector<Unit> first,
                      std::vector<std::int64_t>& shares, const std::string& scope,
                      const ExhaustiveOptions& o, Checkpoint& checkpoint, SizedUnits& sized,
                      std::string& error) {
  CONTEND_ASSERT(o.deal_file != nullptr, "explore_exhaustively parses the file to deal from");
  Checkpoint cut_file(o.deal_file, o.deal_from, o.deal_identity, scope);
  std::map<std::size_t, UnitResult> cut_done;
  std::map<std::size_t, UnitProgress> cut_partial;
  if (!cut_file.load_read_only(cut_done, cut_partial, error)) return false;
  SizedUnits whole;
  const bool cut_below_root = !first.empty() && !first.front().path.empty();
  if (cut_below_root) {
    std::optional<SavedCut> kept;
    if (!cut_file.saved_units(kept, error)) return false;
    if (!kept || !kept->sizing_finished) {
      error = fmt::format(
          "{}: holds no finished sizing of the scope {}: run the whole search with "
          "--sizing-only --checkpoint {} to its end, then deal from it",
          o.deal_from, scope, o.deal_from);
      return false;
    }
    if (!check_saved_units(kept->units, planned.size(), first.size(), scope_in(o.deal_from, scope),
                           error, o.shard)) {
      return false;
    }
    whole.units = std::move(kept->units);
    whole.rounds = kept->sizing_rounds;
  } else {
    whole.units = std::move(first);
  }
  if (!take_saved_results(std::move(cut_done), std::move(cut_partial), scope_in(o.deal_from, scope),
                          whole, error, o.shard)) {
    return false;
  }
  share_lineage_budgets(whole, shares);
  shares.clear();
  sized = SizedUnits{};
  sized.rounds = whole.rounds;
  for (std::size_t i = 0; i < whole.units.size(); ++i) {
    if (!o.shard.includes(i, 0)) continue;
    const std::size_t index = sized.units.size();
    sized.units.push_back(std::move(whole.units[i]));
    sized.units.back().lineage = index;
    if (auto d = whole.done.find(i); d != whole.done.end())
      sized.done[index] = std::move(d->second);
    if (auto p = whole.partial.find(i); p != whole.partial.end()) {
      sized.partial[index] = std::move(p->second);
    }
    shares.push_back(whole.budgets[i]);
  }
  std::map<std::size_t, UnitResult> saved_done;
  std::map<std::size_t, UnitProgress> saved_partial;
  if (!checkpoint.load(saved_done, saved_partial, error)) return false;
  if (!take_saved_results(std::move(saved_done), std::move(saved_partial),
                          scope_in(o.checkpoint_file, scope), sized, error)) {
    return false;
  }
  share_lineage_budgets(sized, shares);
  return true;
}

std::map<std::size_t, UnitResult> with_units_in_progress(
    std::map<std::size_t, UnitResult> done, const std::map<std::size_t, UnitProgress>& partial) {
  for (const auto& [index, progress] : partial) {
    if (done.count(index) != 0) continue;
    UnitResult saved = progress.result;
    saved.stopped_at = progress.explorer;  // where it stands, for the estimate of its size
    done[index] = std::move(saved);
  }
  return done;
}

void total_after_sizing(const SizedUnits& sized, const ExhaustiveOptions& o, ExhaustiveResult& r) {
  std::map<std::size_t, UnitResult> ran = with_units_in_progress(sized.done, sized.partial);
  r.units_unrun = static_cast<std::int64_t>(sized.units.size() - ran.size());
  add_up_units(sized.units, ran, o, r);
  r.sized_only = !r.exhausted && !r.violation;
}

}  // namespace contend
