#include "scenarios/exhaustive.h"

#include <algorithm>
#include <chrono>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "base/digest128.h"
#include "base/input_file.h"
#include "base/invariant.h"
#include "scenarios/runner.h"
#include "scenarios/search_checkpoint.h"
#include "scenarios/search_estimate.h"
#include "scenarios/search_run.h"
#include "scenarios/search_sizing.h"
#include "scenarios/search_units.h"
#include "sim/runtime/dpor.h"

namespace contend {

namespace {

Scenario with_plan(const Scenario& s, Plan plan) {
  Scenario c = s;
  c.clients = static_cast<int>(plan.size());
  c.operations_per_client = longest_client_plan(plan);
  c.plan = std::move(plan);
  return c;
}

// ---- checkpoints (search_checkpoint.h) ----

// A checkpoint file belongs to one search (the scenario's contents, recipe, plans, seed, bounds,
// shard) and holds the finished units of each of its scope searches (smallest first runs several).
// The path the scenario was read from is not part of it: a search resumed from another working
// directory, or a shard dealt on another machine from a file sized on this one, is the same search.
// The version of the unit cut: units of another cut count other executions, so a checkpoint
// written by one is refused by the other. 2: the root's sleep sets are shared by its units.
// 3: a unit keeps its outcomes as digests (outcome.h), not in readable form.
// 4: a unit that found a violation is not kept as finished (3 kept it without its counterexample,
// and a resumed search for every violation lost it).
// 5: a search with few root units is cut below the root (search_units.h).
// 6: and its units that outgrow their sizing runs are cut again (size_units).
// 7: a lineage stops being cut at kSizingGoingMax parts going; the file keeps the cut after every
// sizing round (with the rounds it took and whether sizing finished).
// 8: a search with --draws all is cut below the root too, over every choice of the draws it passes.
// 9: a unit keeps what its executions exercised (coverage.h); the identity names the scenario's
// contents.
// 10: the reduced search parks a high-contention pop at a wait that made no progress.
// 11: inert steps run inside the step before them (WorldOptions::split_inert_steps): paths name
// fewer scheduling nodes.
// 12: a unit's progress says from which depth its runs were made (DporProgress::runs_from_depth).
// 13: a sleeping step's footprint keeps whether a conflict refused it and its attempts (the sleep
// sets judged at a run's end narrow the dependence of refused commits, footprint.h).
// 14: a cut may hold the sizing round a stop cut short (round_under_way), which a resumed search
// ends as it was begun.
constexpr int kUnitCutVersion = 14;

std::string search_identity(const Scenario& s, const ExhaustiveOptions& o) {
  return fmt::format(
      "cut={}|units={}|{}|contents={}|{}x{}|plans={}|seed={}|faults<={}|preemptions={}|"
      "reduce={}{}|real_time={}|shard={}/{}{}{}{}",
      kUnitCutVersion, o.units_wanted, s.recipe, contents_digest(s), s.clients,
      s.operations_per_client, o.all_plans ? "all" : "seed", o.seed, o.max_faults,
      o.max_preemptions ? std::to_string(*o.max_preemptions) : "none", o.reduce,
      o.cache_states ? "|states" : "", o.real_time_by_schedule ? "scheduled" : "most-ordered",
      o.shard.index, o.shard.count, o.deal_from.empty() ? "" : "|dealt=" + o.deal_digest,
      o.explore_draws ? "|draws=all" : "", o.split_inert_steps ? "|split" : "");
}

// The digest of a file's bytes in hex: shards dealt from one sized search name it (merge checks
// that they are of one), and a shard's own checkpoint belongs to it. Nothing (and `error`, naming
// the file) when it cannot be read, or when a stop is asked for while it is read (a sized file of
// 500 MB takes a second or two): reading_stopped's error, as the parse after it would give.
std::optional<std::string> file_digest(const std::string& path, const ExhaustiveOptions& o,
                                       std::string& error) {
  std::string why;
  std::unique_ptr<InputFile> opened = open_input(path, kCheckpointInput, why);
  error = path + ": cannot read it (--deal-from: " + why + ")";
  if (!opened) return std::nullopt;
  std::istream& in = opened->stream();
  Digest128 digest;
  std::string chunk(1 << 16, '\0');
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0) {
    if (stop_requested(o)) {
      error = reading_stopped(path);
      return std::nullopt;
    }
    digest.add_raw(std::string_view(chunk.data(), static_cast<std::size_t>(in.gcount())));
  }
  if (in.bad()) return std::nullopt;
  if (opened->cut_short()) {
    error = path + ": cannot read it (--deal-from: " + opened->over_bound_reason() + ")";
    return std::nullopt;
  }
  error.clear();
  const Digest128::Value v = digest.finish();
  return fmt::format("{:016x}{:016x}", v[0], v[1]);
}

std::string scope_key(const Scenario& scoped_scenario, int faults) {
  return fmt::format("{}x{}|faults={}", scoped_scenario.clients,
                     scoped_scenario.operations_per_client, faults);
}

// ---- budgets ----

// A plan's budget (max_executions) is shared evenly by its units at first. Units are of very
// different sizes, so when some end under their share and others hit it, what the first left
// is shared evenly again by the others (the remainder a run each, in unit order), which go on
// from where they stopped — round after round until no unit is left stopped or nothing is left. A
// round's shares depend only on the results of the rounds before it, so the totals do not depend on
// the jobs. A shard shares out its own units' part of each plan's budget.
constexpr int kBudgetRoundsMax = 1000;

// Each plan's budget for this shard: its units' first shares (without shards, the whole budget).
std::vector<std::int64_t> budgets_by_plan(const std::vector<Unit>& units,
                                          const std::vector<std::int64_t>& unit_budgets,
                                          std::size_t plans) {
  std::vector<std::int64_t> out(plans, 0);
  for (std::size_t i = 0; i < units.size(); ++i)
    out[units[i].plan] += unit_budgets[i];
  return out;
}

// Gives the units a budget stopped what their plan has left, to go on from where they stopped;
// false when there is nothing to go on with.
bool share_unused_budget(const std::vector<Unit>& units,
                         const std::vector<std::int64_t>& plan_budgets, const ExhaustiveOptions& o,
                         std::map<std::size_t, UnitResult>& done,
                         std::map<std::size_t, UnitProgress>& partial,
                         std::vector<std::int64_t>& unit_budgets) {
  std::vector<std::int64_t> used(plan_budgets.size(), 0);
  // Per plan: the units waiting for budget, stopped by it or never started (a first share of 0).
  std::vector<std::vector<std::size_t>> waiting(plan_budgets.size());
  for (std::size_t index = 0; index < units.size(); ++index) {
    auto it = done.find(index);
    if (it == done.end()) {
      waiting[units[index].plan].push_back(index);
      continue;
    }
    const UnitResult& r = it->second;
    if (r.violation && o.stop_at_first_violation) return false;
    used[units[index].plan] += r.executions + r.blocked;
    if (r.stopped_at) waiting[units[index].plan].push_back(index);
  }
  bool shared = false;
  for (std::size_t p = 0; p < plan_budgets.size(); ++p) {
    const auto count = static_cast<std::int64_t>(waiting[p].size());
    const std::int64_t spare = plan_budgets[p] - used[p];
    for (std::int64_t k = 0; k < count && spare > 0; ++k) {
      const std::int64_t share = even_share(spare, count, k);
      if (share == 0) break;
      const std::size_t index = waiting[p][static_cast<std::size_t>(k)];
      shared = true;
      auto it = done.find(index);
      if (it == done.end()) {
        unit_budgets[index] = share;
        continue;
      }
      UnitResult& r = it->second;
      unit_budgets[index] = r.executions + r.blocked + share;
      DporProgress at = std::move(*r.stopped_at);
      r.stopped_at.reset();
      partial[index] = UnitProgress{std::move(r), std::move(at)};
      done.erase(it);
    }
  }
  return shared;
}

// The runs of the units that came from the checkpoint (not made by this search).
std::int64_t runs_resumed(const SizedUnits& sized) {
  std::int64_t runs = 0;
  for (const auto& [index, r] : sized.done)
    runs += r.resumed;
  for (const auto& [index, p] : sized.partial)
    runs += p.result.resumed;
  return runs;
}

std::vector<std::size_t> plans_of(const std::vector<Unit>& units) {
  std::vector<std::size_t> out;
  for (const Unit& u : units)
    out.push_back(u.plan);
  return out;
}

// Each unit's size as sizing, or a checkpoint, left it (search_estimate.h).
std::vector<UnitSize> sizes_of(const std::vector<Unit>& units, const SizedUnits& sized,
                               int max_faults) {
  std::vector<UnitSize> out(units.size());
  for (const auto& [index, r] : sized.done)
    out[index] = size_of(r, max_faults);
  for (const auto& [index, p] : sized.partial) {
    out[index] = size_of(p.explorer, static_cast<double>(p.result.executions + p.result.blocked),
                         max_faults);
  }
  return out;
}

// A search a stop asked for ended (ExhaustiveOptions::stop_requested): its totals count the units
// that ran and, for those the stop kept from starting, what the checkpoint keeps of them. It is
// interrupted unless every unit had finished.
void add_up_stopped(const std::vector<Unit>& units, const std::map<std::size_t, UnitResult>& done,
                    const std::map<std::size_t, UnitProgress>& partial, const ExhaustiveOptions& o,
                    ExhaustiveResult& r) {
  std::map<std::size_t, UnitResult> counted = with_units_in_progress(done, partial);
  add_up_units(units, counted, o, r);
  r.interrupted = !r.exhausted;
}

ExhaustiveResult search(const Scenario& s, const ExhaustiveOptions& o) {
  ExhaustiveResult r;
  const RecipeInfo* info = find_recipe(s.recipe);
  CONTEND_ASSERT(info != nullptr, "explore_exhaustively: validate the scenario first");
  std::vector<Plan> plans;
  if (std::optional<Plan> one = searched_plan(s, o)) {
    plans.push_back(std::move(*one));
  } else {
    auto all = enumerate_plans(s, info->kind, o.max_plans, r.error);
    if (!all) return r;
    plans = std::move(*all);
  }
  r.plans = static_cast<std::int64_t>(plans.size());
  std::vector<Scenario> planned;
  std::vector<Root> roots;
  for (std::size_t p = 0; p < plans.size(); ++p) {
    planned.push_back(with_plan(s, plans[p]));
    roots.push_back(Root{probe_enabled(planned.back(), o), false, {}});
  }
  const std::vector<Unit> all_units = cut_units(planned, roots, o);
  std::vector<std::int64_t> units_of_plan(plans.size(), 0);
  std::vector<std::int64_t> rank_in_plan;  // by unit: its place among its plan's units
  for (const Unit& u : all_units)
    rank_in_plan.push_back(units_of_plan[u.plan]++);
  // This shard's units, in order; a plan's budget is shared evenly by its units.
  // Dealt from a sized search, the shard starts from every first unit (deal_sized_units).
  const Shard first_units = o.deal_from.empty() ? o.shard : Shard{};
  std::vector<Unit> own;
  std::vector<std::int64_t> shares;
  for (std::size_t u = 0; u < all_units.size(); ++u) {
    if (first_units.includes(u, 0)) {
      const std::size_t p = all_units[u].plan;
      if (o.deal_from.empty()) probe_first_steps(planned[p], o, roots[p]);
      own.push_back(all_units[u]);
      own.back().lineage = own.size() - 1;
      shares.push_back(even_share(o.max_executions, units_of_plan[p], rank_in_plan[u]));
    }
  }
  std::vector<std::int64_t> plan_budgets = budgets_by_plan(own, shares, plans.size());
  // One meter for sizing and every round after it: a long search's runs count on across them.
  ExhaustiveProgress start;
  start.clients = s.clients;
  start.operations = s.operations_per_client;
  start.max_faults = o.max_faults;
  start.units = static_cast<std::int64_t>(own.size());
  ProgressMeter meter(o, start);
  Checkpoint checkpoint(o.opened_checkpoint, scope_key(s, o.max_faults), o.checkpoint_every);
  SizedUnits sized;
  if (o.deal_from.empty()) {
    if (!units_to_search(planned, roots, std::move(own), shares, o, checkpoint, meter, sized,
                         r.error)) {
      return r;
    }
  } else {
    if (!deal_sized_units(planned, std::move(own), shares, scope_key(s, o.max_faults), o,
                          checkpoint, sized, r.error)) {
      return r;
    }
    plan_budgets = budgets_by_plan(sized.units, shares, plans.size());  // lineage = unit
    for (const Unit& u : sized.units)  // the root units dealt to this shard need their probes
      probe_first_steps(planned[u.plan], o, roots[u.plan]);
  }
  if (sized.interrupted) {  // as if killed after the saved sizing rounds
    r.checkpoint_error = checkpoint.write_error();
    if (stop_requested(o)) {  // what the saved rounds made, as the file keeps it
      add_up_stopped(sized.units, sized.done, sized.partial, o, r);
      r.units = static_cast<std::int64_t>(sized.units.size());
    }
    return r;
  }
  if (o.sizing_only) {
    checkpoint.flush();
    r.checkpoint_error = checkpoint.write_error();
    r.units = static_cast<std::int64_t>(sized.units.size());
    total_after_sizing(sized, o, r);
    return r;
  }
  const std::vector<Unit>& units = sized.units;
  std::vector<std::int64_t>& unit_budgets = sized.budgets;
  std::map<std::size_t, UnitResult>& done = sized.done;
  std::map<std::size_t, UnitProgress>& partial = sized.partial;
  r.units = static_cast<std::int64_t>(units.size());
  meter.restart_units(static_cast<std::int64_t>(done.size()), r.units);
  meter.start_estimates(plans_of(units), sizes_of(units, sized, o.max_faults), runs_resumed(sized));
  for (int round = 0; round < kBudgetRoundsMax; ++round) {
    done = run_units(planned, roots, units, unit_budgets, o, std::move(done), partial, checkpoint,
                     meter);
    checkpoint.flush();
    if (stop_requested(o)) break;
    if (!share_unused_budget(units, plan_budgets, o, done, partial, unit_budgets)) break;
  }
  checkpoint.flush();
  r.checkpoint_error = checkpoint.write_error();
  if (stop_requested(o)) {
    add_up_stopped(units, done, partial, o, r);
  } else {
    add_up_units(units, done, o, r);
  }
  return r;
}

// Adds one scope's search to the running totals.
void accumulate(ExhaustiveResult& total, const ExhaustiveResult& r) {
  add_run_counts(total, r);
  total.state_caches_full += r.state_caches_full;
  total.distinct_outcomes += r.distinct_outcomes;
  total.outcomes.insert(r.outcomes.begin(), r.outcomes.end());
}

// Smallest first: every scope up to the asked one by operations in all, then clients, and in each
// every fault budget up to the asked one. The first violation found is then minimal in that order
// by construction; with none, the last search is the asked scope's.
ExhaustiveResult search_smallest_first(const Scenario& s, const ExhaustiveOptions& o) {
  ExhaustiveResult total;
  total.exhausted = true;
  total.smallest_first = true;
  total.scopes = 0;
  Scenario base = s;
  if (std::optional<Plan> one = searched_plan(s, o)) base.plan = std::move(*one);
  ExhaustiveOptions sub = o;
  for (auto [clients, operations] : smaller_scopes(s.clients, s.operations_per_client)) {
    for (int faults = 0; faults <= o.max_faults; ++faults) {
      sub.max_faults = faults;
      ExhaustiveResult r = search(within_scope(base, clients, operations), sub);
      if (!r.error.empty()) {
        total.error = r.error;
        total.last_clients = clients;  // the scope refused
        total.last_operations = operations;
        total.last_faults = faults;
        return total;
      }
      if (total.checkpoint_error.empty()) total.checkpoint_error = r.checkpoint_error;
      accumulate(total, r);
      total.plans = r.plans;  // the plans of the scope searched last
      total.units = r.units;
      total.units_done = r.units_done;
      total.units_unrun = r.units_unrun;
      total.runs_estimate = r.runs_estimate;
      total.runs_in_scope = r.runs_in_scope;
      total.last_clients = clients;
      total.last_operations = operations;
      total.last_faults = faults;
      total.scopes += 1;
      if (r.violation) {
        total.violation = std::move(r.violation);
        total.violation->minimal = true;
        total.violation->minimal_note = fmt::format(
            "minimal: {} client(s) x {} operation(s), {} fault(s); every smaller scope, and this "
            "one with fewer faults, was searched exhaustively first without a violation",
            clients, operations, faults);
        total.exhausted = false;
        return total;
      }
      if (r.sized_only) {  // sizing only: every scope is sized, none is searched to its end
        total.exhausted = false;
        total.sized_only = true;
        continue;
      }
      if (!r.exhausted) {
        total.exhausted = false;  // a budget ran out: larger scopes would prove nothing more
        total.interrupted = r.interrupted;
        return total;
      }
    }
  }
  return total;
}

}  // namespace

std::vector<std::pair<int, int>> smaller_scopes(int clients, int operations) {
  std::vector<std::pair<int, int>> out;
  for (int c = 1; c <= clients; ++c) {
    for (int o = 1; o <= operations; ++o)
      out.emplace_back(c, o);
  }
  std::stable_sort(out.begin(), out.end(), [](auto a, auto b) {
    return std::pair(a.first * a.second, a.first) < std::pair(b.first * b.second, b.first);
  });
  return out;
}

std::string_view plans_name(const Scenario& s, const ExhaustiveOptions& o) {
  if (!s.plan.empty()) return "scenario";
  return o.all_plans ? "all" : "seed";
}

std::optional<Plan> searched_plan(const Scenario& s, const ExhaustiveOptions& o) {
  if (!s.plan.empty()) return s.plan;
  if (o.all_plans) return std::nullopt;
  const RecipeInfo* info = find_recipe(s.recipe);
  CONTEND_ASSERT(info != nullptr, "searched_plan: validate the scenario first");
  return seed_plan(s, info->kind, o.seed);
}

std::string plans_covered(const Scenario& s, const ExhaustiveOptions& o,
                          std::optional<std::int64_t> plan_count) {
  std::optional<Plan> one = searched_plan(s, o);
  if (!one) return plan_count ? fmt::format("every plan ({})", *plan_count) : "every plan";
  return fmt::format("the {} plan {}", s.plan.empty() ? "seed's" : "scenario's",
                     describe_plan(*one));
}

std::string_view reduction_name(const ExhaustiveOptions& o) {
  return o.reduce ? "dpor" : o.cache_states ? "states" : "none";
}

std::string refusal(const Scenario& scenario, const ExhaustiveOptions& o) {
  if (scenario.clients > kMaxThreads) {  // each client is a thread of the search's bit sets
    return fmt::format(
        "{}: clients: the exhaustive search takes at most {} clients, and this scenario has {}",
        scenario.file, kMaxThreads, scenario.clients);
  }
  if (o.max_faults > 0 && seed_faults(scenario, o.seed).explored().empty()) {
    return fmt::format(
        "{}: a fault budget of {} places nothing, since the scenario enables no fault a search "
        "can place: set one of [faults] not_committed, unknown_result_applied, "
        "unknown_result_not_applied, read_too_old, read_future_version or crash above 0 (each "
        "is then a choice; its value is ignored)",
        scenario.file, o.max_faults);
  }
  return {};
}

ExhaustiveResult explore_exhaustively(const Scenario& scenario, const ExhaustiveOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  if (std::string why = refusal(scenario, o); !why.empty()) {
    ExhaustiveResult r;
    r.error = std::move(why);
    return r;
  }
  // The checkpoint file is the asked search's, whichever scope runs.
  ExhaustiveOptions options = o;
  if (!o.deal_from.empty()) {
    ExhaustiveOptions whole = o;  // the search whose sizing saved the file: unsharded
    whole.shard = Shard{};
    whole.deal_from.clear();
    options.deal_identity = search_identity(scenario, whole);
    ExhaustiveResult r;
    std::optional<std::string> digest = file_digest(o.deal_from, o, r.error);
    if (!digest) return r;
    options.deal_digest = *digest;
    options.deal_file = parse_checkpoint_file(o.deal_from, options.deal_identity, o.shard, r.error,
                                              o.stop_requested);
    if (options.deal_file == nullptr) return r;
  }
  options.checkpoint_identity = search_identity(scenario, options);
  options.opened_checkpoint =
      open_checkpoint_file(o.checkpoint_file, options.checkpoint_identity, o.stop_requested);
  if (ExhaustiveResult r;
      !Checkpoint(options.opened_checkpoint, "", o.checkpoint_every).read(r.error)) {
    return r;
  }
  if (o.on_start) o.on_start();
  const bool smallest_first = o.stop_at_first_violation && o.minimise;
  ExhaustiveResult r =
      smallest_first ? search_smallest_first(scenario, options) : search(scenario, options);
  if (!smallest_first) {  // one scope: the one asked for
    r.last_clients = scenario.clients;
    r.last_operations = scenario.operations_per_client;
    r.last_faults = options.max_faults;
  }
  if (!o.collect_outcomes) r.outcomes.clear();
  r.deal_digest = options.deal_digest;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

namespace {

// Reduction states: what the state caches held, and whether any filled (then that unit searched
// on without pruning at new states: more executions, the same outcomes).
std::string states_note(const ExhaustiveResult& r) {
  std::string note = fmt::format("; {} states cached", r.states_cached);
  if (r.state_caches_full > 0) {
    note += fmt::format(
        " ({} unit(s) filled their cache of {} states and searched on without "
        "pruning at new ones)",
        r.state_caches_full, StateCache::kSlotsMax / 2);
  }
  return note;
}

// Whether the last scope searched is the one asked for (else a smaller one, searched first, is
// where a budget stopped).
bool last_scope_is_asked(const Scenario& s, const ExhaustiveOptions& o, const ExhaustiveResult& r) {
  return r.last_clients == s.clients && r.last_operations == s.operations_per_client &&
         r.last_faults == o.max_faults;
}

// The scope a budget stopped in, as the size note names it: "this scope" when it is the one asked
// for, else "that scope" (the stopped statement has named it).
std::string stopped_scope(const Scenario& s, const ExhaustiveOptions& o,
                          const ExhaustiveResult& r) {
  return last_scope_is_asked(s, o, r) ? "this scope" : "that scope";
}

// A stopped search's units: those of the scope it stopped in. Searching smallest first, that is
// the first scope it did not finish, named when it is not the one asked for.
std::string stopped_units(const Scenario& s, const ExhaustiveOptions& o, const ExhaustiveResult& r,
                          const std::string& scope) {
  if (last_scope_is_asked(s, o, r)) {
    return fmt::format("{} of {} units searched to the end in {}", r.units_done, r.units, scope);
  }
  return fmt::format(
      "it stopped in a smaller scope searched first, {} client(s) x {} operation(s) with {} "
      "fault(s), with {} of that scope's {} units searched to the end, in a search of {}",
      r.last_clients, r.last_operations, r.last_faults, r.units_done, r.units, scope);
}

// A search a budget stopped: how large its last scope's whole search is, by the estimate from
// where its units stopped (search_estimate.h), and how long the rest takes at this search's rate.
std::string size_note(const Scenario& s, const ExhaustiveOptions& o, const ExhaustiveResult& r) {
  if (!r.runs_estimate) return "";
  const bool shard = o.shard.count > 1;
  const auto whole = static_cast<double>(*r.runs_estimate);
  const auto made = static_cast<double>(r.runs_in_scope);
  const std::string scope = stopped_scope(s, o, r);
  std::string note = fmt::format(
      "; estimated from where {} units stopped, the whole search of {} takes about {} runs "
      "(executions and abandoned; {} of them made)",
      shard ? "the shard's" : "its", shard ? "the shard's units of " + scope : scope,
      about_count(whole), percent(made / std::max(whole, 1.0)));
  // The rate of the runs made here: those a checkpoint held took no time of this search's.
  const auto runs_here = static_cast<double>(r.executions + r.blocked - r.resumed);
  if (r.seconds > 0 && runs_here > 0) {
    note += fmt::format(", about {} more at this search's rate",
                        about_duration((whole - made) * r.seconds / runs_here));
  }
  return note;
}

}  // namespace

std::string proof_statement(const Scenario& s, const ExhaustiveOptions& o,
                            const ExhaustiveResult& r) {
  const std::string bounds =
      fmt::format("{} fault(s) per execution{}, {}", o.max_faults,
                  o.max_faults > 0
                      ? fmt::format(" (of: {})", fmt::join(seed_faults(s, o.seed).explored(), ", "))
                      : std::string(),
                  o.max_preemptions ? fmt::format("at most {} preemption(s)", *o.max_preemptions)
                                    : std::string("no preemption bound"));
  const std::string smaller =
      r.smallest_first
          ? fmt::format(" (and first every smaller scope and fault budget: {} searches)", r.scopes)
          : std::string();
  const std::string scope =
      fmt::format("{} ({}), {} client(s) x {} operation(s), {}{}", s.name, s.recipe, s.clients,
                  s.operations_per_client, plans_covered(s, o, r.plans), smaller);
  // Without explore_draws, random draws (key suffixes, back-off jitter, ids) are the seed's: the
  // search covers those values. With it, key suffixes take every order under their prefix; what
  // is left drawn from the seed is named: back-off jitter (which sets no choice in an exhaustive
  // world) and ids (random_bytes: only their being distinct matters).
  std::string draws;
  if (o.explore_draws) {
    draws = "; random key suffixes in every order under each key prefix";
    if (r.seeded_draws > 0) draws += fmt::format(" (ids and back-off jitter: seed {}'s)", o.seed);
  } else if (r.seeded_draws > 0) {
    draws = fmt::format("; the recipe's random draws are seed {}'s ({} execution(s) drew)", o.seed,
                        r.seeded_draws);
  }
  const std::string parked =
      r.parked > 0 ? fmt::format(" ({} of them parked at a wait that made no progress)", r.parked)
                   : std::string();
  const std::string counts =
      fmt::format(
          "{} executions ({}), {} abandoned as equivalent{}, {} distinct outcomes, {:.2f} s",
          r.executions,
          o.reduce         ? "one per equivalence class"
          : o.cache_states ? "the full search, each state's continuations explored once"
                           : "every interleaving, no reduction",
          r.blocked, parked, r.distinct_outcomes, r.seconds) +
      (r.resumed > 0
           ? fmt::format(" ({} of the executions and abandoned from {})", r.resumed,
                         o.deal_from.empty() ? "the checkpoint"
                                             : "the sized search's file and the checkpoint")
           : std::string()) +
      (o.cache_states ? states_note(r) : std::string()) + draws;
  const std::string shard = o.shard.count > 1
                                ? fmt::format(" [shard {}/{}: {} of the search's units]",
                                              o.shard.index, o.shard.count, r.units)
                                : std::string();
  if (r.violation) {
    const ExhaustiveFinding& f = *r.violation;
    return fmt::format(
        "VIOLATION: {} at {} client(s) x {} operation(s) with {} fault(s){}, in an exhaustive "
        "search of {} ({}) up to {} x {}, {}{}; {}; {}{}",
        f.verdict.summary(), f.scenario.clients, f.scenario.operations_per_client, f.faults.size(),
        f.minimal ? " (minimal)" : "", s.name, s.recipe, s.clients, s.operations_per_client,
        plans_covered(s, o, std::nullopt), r.smallest_first ? ", smallest scope first" : "", bounds,
        counts, shard);
  }
  if (r.sized_only) {
    // A search that is not cut below the root is not sized: its units are the root's.
    const std::string why_unrun =
        may_cut_below_root(o)
            ? fmt::format("sizing keeps at most {} units in progress", o.sizing_going_max)
            : std::string(
                  "a search with a fault budget or a preemption bound is not sized: its units "
                  "are the root's");
    const std::string unrun = r.units_unrun == 0
                                  ? std::string()
                                  : fmt::format(" and {} never run ({})", r.units_unrun, why_unrun);
    return fmt::format(
        "SIZED, NOT VERIFIED: the search of {} is cut into {} unit(s), {} of them searched to "
        "the end while sizing{}; {}; {}{}; the units are saved in {}: search them with --shard "
        "K/N --deal-from {} on each of N machines, then `contend merge` their --json",
        scope, r.units, r.units_done, unrun, bounds, counts, size_note(s, o, r), o.checkpoint_file,
        o.checkpoint_file);
  }
  const std::int64_t clean = r.verdicts.count("linearizable") ? r.verdicts.at("linearizable") : 0;
  if (r.exhausted && (clean != r.executions || r.bound_hits > 0)) {
    const std::string stopped = r.bound_hits == 0
                                    ? ""
                                    : fmt::format(
                                          ", {} of them stopped at [limits] max_steps = {} or "
                                          "max_virtual_seconds = {} before every client finished",
                                          r.bound_hits, s.max_steps, s.max_virtual_seconds);
    return fmt::format(
        "NOT VERIFIED: every execution of {} was run, but {} of them could not be judged "
        "(verdict unknown){}; {}; {}{}",
        scope, std::max(r.executions - clean, r.bound_hits), stopped, bounds, counts, shard);
  }
  if (r.exhausted && o.shard.count > 1) {  // one shard proves its units, not the scope
    return fmt::format(
        "SHARD {}/{} VERIFIED: every execution of its {} unit(s) of the search of {} is "
        "linearizable{}; {}; {}; the scope is verified when `contend merge` of all {} shards' "
        "--json says so",
        o.shard.index, o.shard.count, r.units, scope, o.max_preemptions ? " within the bounds" : "",
        bounds, counts, o.shard.count);
  }
  if (r.exhausted) {
    // A proof of the uncontended path alone says so: its plan never lets two operations race.
    const std::string vacuous =
        r.executions > 0 && !exercised_contention(r.coverage)
            ? "; no execution met a conflict or a fault: this scope exercises no contention"
            : "";
    return fmt::format("VERIFIED: every execution of {} is linearizable{}; {}; {}{}{}", scope,
                       o.max_preemptions ? " within the bounds" : "", bounds, counts, vacuous,
                       shard);
  }
  if (r.interrupted) {
    const std::string saved =
        o.checkpoint_file.empty()
            ? std::string(
                  "; without --checkpoint nothing of it is kept: a search run with "
                  "--checkpoint FILE goes on from where it was stopped")
            : fmt::format("; {} keeps where the search stood: the same command goes on from there",
                          o.checkpoint_file);
    return fmt::format(
        "NOT VERIFIED: {}: {}; {}; {}{}{}{}", r.stop_cause.empty() ? "interrupted" : r.stop_cause,
        stopped_units(s, o, r, scope), bounds, counts, size_note(s, o, r), shard, saved);
  }
  return fmt::format("NOT VERIFIED: the budget ran out: {}; {}; {}{}{}",
                     stopped_units(s, o, r, scope), bounds, counts, size_note(s, o, r), shard);
}

}  // namespace contend
