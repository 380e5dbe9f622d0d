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
  RunControls controls;
  controls.strategy = run;
  controls.exhaustive = true;
  controls.summarize = false;
  controls.explore_draws = o.explore_draws;
  SeedRun seed_run = run_seed(planned, o.seed, std::move(controls));
  CONTEND_ASSERT(!run->diverged(), "a probe did not replay the path it followed");
  if (blocked_out != nullptr) *blocked_out = run->blocked();
  return seed_run;
}

// The step taken at scheduling node number `step` of `path` (followed to `follow`), resolved.
ResolvedStep step_of(const Scenario& planned, const ExhaustiveOptions& o,
                     std::vector<SearchNode>& path, std::size_t follow, std::size_t step) {
  SeedRun run = probe_run(planned, o, path, follow);
  CONTEND_ASSERT(step < run.step_log.steps.size(), "a probe did not reach the step it probes");
  return resolve_step(run.step_log.steps[step], run.step_log, run.metrics.bound == BoundHit::none);
}

// Thread `thread`'s first step merged over the fault choices inside it (the fault nodes between
// the root and the next scheduling node), within the fault budget; null past the probe's bound.
std::shared_ptr<ResolvedStep> probe_first_step(const Scenario& planned, const ExhaustiveOptions& o,
                                               int thread) {
  SearchNode root;
  root.thread = thread;
  std::vector<SearchNode> path{root};
  auto merged = std::make_shared<ResolvedStep>(step_of(planned, o, path, 1, 0));
  constexpr int kFaultCombinationsMax = 4096;
  for (int combination = 1;; ++combination) {
    if (combination > kFaultCombinationsMax) return nullptr;
    std::size_t fault_nodes = 1;
    while (fault_nodes < path.size() && !path[fault_nodes].schedules())
      ++fault_nodes;
    std::size_t i = fault_nodes;
    for (; i-- > 1;) {
      SearchNode& n = path[i];
      if (n.has_next_choice(o.max_faults)) break;
    }
    if (i == 0) return merged;
    ++path[i].choice;
    path.resize(i + 1);
    merge_into(*merged, step_of(planned, o, path, i + 1, 0));
  }
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
    if ((t & (t - 1)) != 0) {  // a later sibling sleeps on this thread's step
      std::vector<SearchNode> probe_path = child.path;
      const auto index = static_cast<std::size_t>(q);
      if (node.footprints.size() <= index) node.footprints.resize(index + 1);
      node.footprints[index] = std::make_shared<ResolvedStep>(
          step_of(planned, o, probe_path, probe_path.size(), steps_before));
      earlier |= bit(q);
    }
    out.push_back(std::move(child));
  }
  return out;
}

// A unit's units one node deeper: one per thread ready and awake at the next scheduling node,
// each with the earlier ones asleep (their step there probed). Nothing when every ready thread
// sleeps there (other units search its classes); none when the execution ends on the path.
std::optional<std::vector<Unit>> children_of(const Scenario& planned, const ExhaustiveOptions& o,
                                             const Unit& unit) {
  std::vector<SearchNode> path = unit.path;
  const std::size_t fixed = path.size();
  bool probe_blocked = false;
  probe_run(planned, o, path, fixed, &probe_blocked);
  std::size_t at = fixed;
  while (at < path.size() && !path[at].schedules())
    ++at;
  if (at == path.size()) {
    if (probe_blocked) return std::vector<Unit>{};
    return std::nullopt;
  }
  SearchNode node = path[at];
  path.resize(at);
  return siblings_at(planned, o, unit, path, std::move(node), 0);
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
  return o.reduce && !o.max_preemptions && o.max_faults == 0 && !o.explore_draws;
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
  d.broken_draws = o.broken_draws;
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
  // Fault nodes come first where the scenario enables faults; without a fault budget each keeps
  // its one choice (none), so they join the fixed path, as children_of's cut does.
  std::size_t at_index = fixed;
  while (at_index < stopped.nodes.size() && !stopped.nodes[at_index].schedules()) {
    CONTEND_ASSERT(stopped.nodes[at_index].choice == 0,
                   "a search without a fault budget placed a fault");
    ++at_index;
  }
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
