#include "scenarios/search_units.h"

#include <bit>
#include <optional>

#include "base/invariant.h"
#include "scenarios/runner.h"

namespace contend {

namespace {

std::uint64_t bit(int thread) {
  return std::uint64_t{1} << thread;
}

// Runs `path` (its first `follow` nodes followed, then extended with default choices) to its end;
// `blocked_out`, when given, learns whether the run ended blocked (asleep everywhere).
SeedRun probe_run(const Scenario& planned, const ExhaustiveOptions& o,
                  std::vector<SearchNode>& path, std::size_t follow, bool* blocked_out = nullptr) {
  auto run = std::make_shared<DporRun>(&path, follow, dpor_options(o));
  SeedRun seed_run = run_seed(planned, o.seed, search_run_controls(o, run));
  CONTEND_ASSERT(!run->diverged(), "a probe did not replay the path it followed");
  if (blocked_out != nullptr) *blocked_out = run->blocked();
  return seed_run;
}

// The fault and draw choice combinations a cut or a probe enumerates at most at one place.
constexpr int kChoiceCombinationsMax = 4096;

// The index of the first scheduling node of `path` at or after `from` (its size: none).
std::size_t next_scheduling_node(const std::vector<SearchNode>& path, std::size_t from) {
  while (from < path.size() && !path[from].schedules())
    ++from;
  return from;
}

// Runs `path` once per combination of choices at the fault and draw nodes from index `from` up to
// the next scheduling node (those before `from` followed as they are), in the order one search
// takes them, within the fault budget; `visit(path, run, blocked)` sees each run, its path
// extended to the run's end with default choices. False, after kChoiceCombinationsMax runs, when
// there were more combinations.
template <typename Visit>
bool each_choice_combination(const Scenario& planned, const ExhaustiveOptions& o,
                             std::vector<SearchNode> path, std::size_t from, Visit&& visit) {
  std::size_t follow = from;
  for (int combination = 0; combination < kChoiceCombinationsMax; ++combination) {
    bool blocked = false;
    SeedRun run = probe_run(planned, o, path, follow, &blocked);
    visit(path, run, blocked);
    std::size_t i = next_scheduling_node(path, from);
    while (i > from && !path[i - 1].has_next_choice(o.max_faults))
      --i;
    if (i == from) return true;
    ++path[i - 1].choice;
    path.resize(i);
    follow = i;
  }
  return false;
}

// The step of the thread chosen at `path`'s last node (a scheduling node, the step's number
// `step`), merged over the fault and draw choices inside it within the fault budget, as a
// search's node merges them once the thread's subtree there is explored; null past
// kChoiceCombinationsMax.
std::shared_ptr<ResolvedStep> probe_step_merged(const Scenario& planned, const ExhaustiveOptions& o,
                                                const std::vector<SearchNode>& path,
                                                std::size_t step) {
  CONTEND_ASSERT(!path.empty() && path.back().schedules(), "a step is probed at its node");
  std::shared_ptr<ResolvedStep> merged;
  const bool whole = each_choice_combination(
      planned, o, path, path.size(), [&](std::vector<SearchNode>&, SeedRun& run, bool) {
        CONTEND_ASSERT(step < run.step_log.steps.size(),
                       "a probe did not reach the step it probes");
        ResolvedStep taken = resolve_step(run.step_log.steps[step], run.step_log,
                                          run.metrics.bound == BoundHit::none);
        if (merged) {
          merge_into(*merged, taken);
        } else {
          merged = std::make_shared<ResolvedStep>(std::move(taken));
        }
      });
  return whole ? merged : nullptr;
}

// Thread `thread`'s first step merged over the choices inside it; null past the probe's bound.
std::shared_ptr<ResolvedStep> probe_first_step(const Scenario& planned, const ExhaustiveOptions& o,
                                               int thread) {
  SearchNode root;
  root.thread = thread;
  return probe_step_merged(planned, o, {root}, 0);
}

// The root node of `thread`'s unit: the threads before it asleep, with their first steps.
SearchNode root_node(const Root& root, int thread) {
  SearchNode n;
  n.enabled = root.enabled;
  n.thread = thread;
  n.done = bit(thread);
  n.backtrack = n.done;
  n.footprints = root.first_steps;
  for (std::size_t q = 0; q < static_cast<std::size_t>(thread); ++q) {
    if (q < n.footprints.size() && n.footprints[q]) n.sleep |= std::uint64_t{1} << q;
  }
  return n;
}

// The units below `prefix` (the nodes before a scheduling node `at`): one per thread ready and
// awake at `at` that `taken` leaves out, each with the taken threads and the earlier siblings
// asleep (a sibling's step there probed when `at` lacks its footprint).
std::vector<Unit> siblings_at(const Scenario& planned, const ExhaustiveOptions& o, const Unit& unit,
                              const std::vector<SearchNode>& prefix, SearchNode node,
                              std::uint64_t taken) {
  std::size_t steps_before = 0;
  for (const SearchNode& n : prefix)
    steps_before += n.schedules() ? 1 : 0;
  const std::uint64_t awake = node.enabled & ~node.sleep & ~taken;
  const std::uint64_t asleep = node.sleep | taken;
  std::uint64_t earlier = 0;
  std::vector<Unit> out;
  for (std::uint64_t t = awake; t != 0; t &= t - 1) {
    const int q = std::countr_zero(t);
    node.thread = q;
    node.done = bit(q);
    node.backtrack = node.done;
    node.sleep = asleep | earlier;
    Unit child = unit;
    child.path = prefix;
    child.path.push_back(node);
    if ((t & (t - 1)) != 0) {  // a later sibling sleeps on this thread's step, when it is known
      const auto index = static_cast<std::size_t>(q);
      if (node.footprints.size() <= index) node.footprints.resize(index + 1);
      node.footprints[index] = probe_step_merged(planned, o, child.path, steps_before);
      if (node.footprints[index]) earlier |= bit(q);
    }
    out.push_back(std::move(child));
  }
  return out;
}

// A unit's units one node deeper: for each combination of choices at the fault and draw nodes
// below its path (one, without a fault budget or explored draws), one unit per thread ready and
// awake at the next scheduling node, the earlier ones asleep (their step there probed); or, where
// the execution ends before one, a unit of that one execution. Nothing for a combination in which
// every ready thread sleeps (other units search its classes). None when the unit's only
// execution ends on its path, or it has more combinations than a cut enumerates.
std::optional<std::vector<Unit>> children_of(const Scenario& planned, const ExhaustiveOptions& o,
                                             const Unit& unit) {
  const std::size_t fixed = unit.path.size();
  std::vector<Unit> children;
  int combinations = 0;
  bool ends = false;
  const bool whole = each_choice_combination(
      planned, o, unit.path, fixed, [&](std::vector<SearchNode>& path, SeedRun&, bool blocked) {
        ++combinations;
        const std::size_t at = next_scheduling_node(path, fixed);
        if (at == path.size()) {
          if (blocked) return;
          ends = true;
          Unit last = unit;
          last.path = path;
          children.push_back(std::move(last));
          return;
        }
        const std::vector<SearchNode> prefix(path.begin(),
                                             path.begin() + static_cast<std::ptrdiff_t>(at));
        for (Unit& u : siblings_at(planned, o, unit, prefix, path[at], 0))
          children.push_back(std::move(u));
      });
  if (!whole || (combinations == 1 && ends)) return std::nullopt;
  return children;
}

// Every unit one level deeper; nothing when no unit has a scheduling node below its path.
std::optional<std::vector<Unit>> one_level_deeper(const std::vector<Scenario>& planned,
                                                  const std::vector<Unit>& units,
                                                  const ExhaustiveOptions& o) {
  std::vector<Unit> deeper;
  bool cut = false;
  for (const Unit& u : units) {
    std::optional<std::vector<Unit>> children = children_of(planned[u.plan], o, u);
    if (!children) {
      deeper.push_back(u);
      continue;
    }
    cut = true;
    for (Unit& c : *children)
      deeper.push_back(std::move(c));
  }
  if (!cut) return std::nullopt;
  return deeper;
}

}  // namespace

bool may_cut_below_root(const ExhaustiveOptions& o) {
  return o.reduce && !o.max_preemptions && o.max_faults == 0;
}

RunControls search_run_controls(const ExhaustiveOptions& o, std::shared_ptr<Strategy> strategy) {
  RunControls controls;
  controls.strategy = std::move(strategy);
  controls.exhaustive = true;
  controls.summarize = false;
  controls.explore_draws = o.explore_draws;
  controls.park_unproductive_waits = o.reduce && o.park_unproductive_waits;
  // Scheduled, an operation's completion is ordered against other clients' invocations.
  controls.split_inert_steps = o.split_inert_steps || o.real_time_by_schedule;
  return controls;
}

DporOptions dpor_options(const ExhaustiveOptions& o) {
  DporOptions d;
  d.max_faults = o.max_faults;
  d.max_preemptions = o.max_preemptions;
  d.reduce = o.reduce;
  d.cache_states = o.cache_states;
  d.broken_states = o.broken_states;
  d.broken_independence = o.broken_independence;
  d.broken_reads_as_decided = o.broken_reads_as_decided;
  d.broken_fetches_inline = o.broken_fetches_inline;
  d.broken_draws = o.broken_draws;
  d.check_reuse = o.check_reuse;
  d.broken_reuse = o.broken_reuse;
  d.real_time_dependence = o.real_time_by_schedule;
  return d;
}

std::uint64_t probe_enabled(const Scenario& planned, const ExhaustiveOptions& o) {
  std::vector<SearchNode> nodes;
  probe_run(planned, o, nodes, 0);
  return nodes.empty() ? 0 : nodes.front().enabled;
}

void probe_first_steps(const Scenario& planned, const ExhaustiveOptions& o, Root& root) {
  if (!o.reduce || root.probed) return;
  root.probed = true;
  for (std::uint64_t t = root.enabled; t != 0; t &= t - 1) {
    const int thread = std::countr_zero(t);
    root.first_steps.resize(static_cast<std::size_t>(thread) + 1);
    root.first_steps[static_cast<std::size_t>(thread)] = probe_first_step(planned, o, thread);
  }
}

std::vector<Unit> cut_units(const std::vector<Scenario>& planned, std::vector<Root>& roots,
                            const ExhaustiveOptions& o) {
  std::vector<Unit> units;
  for (std::size_t p = 0; p < roots.size(); ++p) {
    for (std::uint64_t t = roots[p].enabled; t != 0; t &= t - 1)
      units.push_back(Unit{p, std::countr_zero(t), {}});
  }
  if (units.size() >= o.units_wanted || !may_cut_below_root(o)) return units;
  for (Unit& u : units) {
    probe_first_steps(planned[u.plan], o, roots[u.plan]);
    u.path = {root_node(roots[u.plan], u.thread)};
  }
  for (std::size_t depth = 1; depth < kCutDepthMax && units.size() < o.units_wanted; ++depth) {
    std::optional<std::vector<Unit>> deeper = one_level_deeper(planned, units, o);
    if (!deeper || deeper->size() <= units.size()) break;  // the cut no longer adds units
    units = std::move(*deeper);
  }
  return units;
}

std::optional<SplitUnit> split_stopped(const Scenario& planned, const ExhaustiveOptions& o,
                                       const Unit& unit, const DporProgress& stopped) {
  const std::size_t fixed = stopped.fixed_depth;
  CONTEND_ASSERT(fixed == std::max<std::size_t>(unit.path.size(), 1),
                 "a stopped unit's progress starts below the unit's own path");
  if (!may_cut_below_root(o)) return std::nullopt;
  // Fault and draw nodes may come first: they join the fixed path at the choices the search
  // stands at, and the choices it has yet to take there become units of their own (below).
  const std::size_t at_index = next_scheduling_node(stopped.nodes, fixed);
  if (at_index >= stopped.nodes.size()) return std::nullopt;
  const SearchNode& at = stopped.nodes[at_index];
  CONTEND_ASSERT(at.thread >= 0 && (at.done & bit(at.thread)) != 0,
                 "a stopped search below a cut is at a scheduling node it took");
  SplitUnit out;
  out.resumed = stopped;
  out.resumed.fixed_depth = at_index + 1;
  // The going search's footprints at its fixed nodes are merged into as it goes on: its own.
  for (std::size_t i = 0; i <= at_index; ++i) {
    for (std::shared_ptr<ResolvedStep>& f : out.resumed.nodes[i].footprints) {
      if (f) f = std::make_shared<ResolvedStep>(*f);
    }
  }
  std::vector<SearchNode> prefix(stopped.nodes.begin(),
                                 stopped.nodes.begin() + static_cast<std::ptrdiff_t>(at_index));
  Unit going = unit;
  going.path = prefix;
  going.path.push_back(at);
  out.units.push_back(std::move(going));
  for (Unit& u : siblings_at(planned, o, unit, prefix, at, at.done))
    out.units.push_back(std::move(u));
  // Then, deepest first as the search would go on, one unit per choice still to take at each
  // fault or draw node above `at`, its path ending at that node.
  for (std::size_t i = at_index; i-- > fixed;) {
    SearchNode n = stopped.nodes[i];
    while (n.has_next_choice(o.max_faults)) {
      ++n.choice;
      Unit u = unit;
      u.path.assign(stopped.nodes.begin(), stopped.nodes.begin() + static_cast<std::ptrdiff_t>(i));
      u.path.push_back(n);
      out.units.push_back(std::move(u));
    }
  }
  return out;
}

std::vector<SearchNode> unit_path(const Root& root, const Unit& unit) {
  std::vector<SearchNode> path =
      unit.path.empty() ? std::vector<SearchNode>{root_node(root, unit.thread)} : unit.path;
  for (SearchNode& n : path) {
    for (std::shared_ptr<ResolvedStep>& f : n.footprints) {
      if (f) f = std::make_shared<ResolvedStep>(*f);
    }
  }
  return path;
}

bool progress_belongs_to(const DporProgress& progress, const Unit& unit) {
  const std::size_t fixed = unit.path.empty() ? 1 : unit.path.size();
  if (progress.fixed_depth != fixed || progress.nodes.size() < fixed) return false;
  if (unit.path.empty()) return progress.nodes.front().thread == unit.thread;
  for (std::size_t i = 0; i < fixed; ++i) {
    const SearchNode& saved = progress.nodes[i];
    const SearchNode& own = unit.path[i];
    if (saved.kind != own.kind || saved.thread != own.thread || saved.choice != own.choice) {
      return false;
    }
  }
  return true;
}

}  // namespace contend
