#include "scenarios/expectation.h"

#include <algorithm>
#include <string_view>

#include "base/shell_quote.h"

namespace contend {

model::SpecKind spec_for(const Scenario& scenario) {
  if (auto named = model::parse_spec(scenario.model)) return *named;
  const RecipeInfo* info = find_recipe(scenario.recipe);
  if (info != nullptr && !info->spec.empty()) {
    if (auto s = model::parse_spec(info->spec)) return *s;
  }
  return info != nullptr && info->kind == RecipeKind::priority ? model::SpecKind::priority
                                                               : model::SpecKind::fifo;
}

model::CheckRequest check_request_for(const Scenario& scenario) {
  model::CheckRequest r;
  r.spec = spec_for(scenario);
  r.fast = r.search = r.accounting = false;
  for (const std::string& c : scenario.checks) {
    if (c == "fast") r.fast = true;
    if (c == "search") r.search = true;
    if (c == "accounting") r.accounting = true;
  }
  r.search_budget = scenario.search_budget;
  return r;
}

namespace {

// A run that stopped at a step or time bound before every client finished: a prefix with no
// violation says nothing of the operations it never ran (nor, undrained, of lost items).
std::optional<model::Verdict> stopped_at_a_bound(const Scenario& scenario, const SeedRun& run) {
  const BoundHit bound = run.metrics.bound;
  if (bound != BoundHit::steps && bound != BoundHit::virtual_time) return std::nullopt;
  model::Verdict v;
  v.kind = model::VerdictKind::unknown;
  v.checker = "limits";
  v.explanation = bound == BoundHit::steps ? "the run stopped at [limits] max_steps = " +
                                                 std::to_string(scenario.max_steps)
                                           : "the run stopped at [limits] max_virtual_seconds = " +
                                                 std::to_string(scenario.max_virtual_seconds);
  if (run.metrics.bound_in_drain) {
    v.explanation +=
        " in the drain, after every client finished, before the queue answered empty: the "
        "history shows no violation, but what the drain did not take out cannot be counted as "
        "lost or not; the drain meets the scenario's faults too, so lower their rates (reads "
        "above all) or raise the limit";
  } else {
    v.explanation +=
        " before every client finished: the history it left shows no violation, which says "
        "nothing of the operations never run; raise the limit or run a smaller scope";
  }
  return v;
}

}  // namespace

model::CheckReport check_run(const Scenario& scenario, const SeedRun& run) {
  model::CheckReport report = model::check_history(run.history, check_request_for(scenario));
  if (report.verdict.kind == model::VerdictKind::linearizable) {
    if (std::optional<model::Verdict> v = stopped_at_a_bound(scenario, run)) {
      report.verdicts.push_back(*v);
      report.verdict = *v;
    }
  }
  if (run.store_not_serializable) {
    model::Verdict v;
    v.kind = model::VerdictKind::violation;
    v.violation = model::ViolationKind::store_not_serializable;
    v.checker = "serializability";
    v.explanation = *run.store_not_serializable;
    report.verdicts.push_back(v);
    report.verdict = v;  // a broken store invalidates every other verdict
  }
  if (run.simulator_fault) {
    model::Verdict v;
    v.kind = model::VerdictKind::simulator_fault;
    v.checker = "simulator";
    v.explanation = *run.simulator_fault;
    report.verdicts.push_back(v);
    report.verdict = v;  // the history is not evidence about the recipe
  }
  return report;
}

std::optional<std::string> validate_expectation(const std::string& expect) {
  if (expect == "linearizable" || expect == "violation") return std::nullopt;
  auto kind = model::parse_violation_kind(expect);
  if (kind && *kind != model::ViolationKind::none) return std::nullopt;
  std::string kinds;
  const auto last = static_cast<int>(model::ViolationKind::store_not_serializable);
  for (int k = static_cast<int>(model::ViolationKind::value_from_nowhere); k <= last; ++k)
    kinds += (kinds.empty() ? "" : ", ") +
             std::string(model::to_string(static_cast<model::ViolationKind>(k)));
  return "'" + expect + "' is not linearizable, violation, or a violation kind (" + kinds + ")";
}

namespace {

bool has_check(const Scenario& s, std::string_view check) {
  return std::ranges::find(s.checks, check) != s.checks.end();
}

// Why the spec can never show `kind` (fast_check.cpp: order is judged under fifo alone,
// priorities under priority alone, and multiset lets "empty" be answered at any time).
std::optional<std::string> spec_never_shows(model::ViolationKind kind, model::SpecKind spec) {
  using model::SpecKind;
  using model::ViolationKind;
  const std::string model = "the " + std::string(model::to_string(spec)) + " model";
  if (kind == ViolationKind::order_inversion && spec != SpecKind::fifo)
    return model + " does not judge FIFO order";
  if (kind == ViolationKind::priority_inversion && spec != SpecKind::priority)
    return model + " does not judge priorities";
  if (kind == ViolationKind::empty_while_nonempty && spec == SpecKind::multiset)
    return model + " lets a remove answer empty at any time";
  return std::nullopt;
}

// Why none of the checks named can report `kind`: the search names no pattern (only
// not_linearizable), the fast checker alone names order and empties, and the store's
// serializability is reported by its own check alone.
std::optional<std::string> checks_never_show(model::ViolationKind kind, const Scenario& s) {
  using model::ViolationKind;
  const bool fast = has_check(s, "fast");
  switch (kind) {
    case ViolationKind::store_not_serializable:
      if (has_check(s, "serializability")) return std::nullopt;
      return "only the serializability check reports it, and checks does not name it";
    case ViolationKind::not_linearizable:
      if (has_check(s, "search")) return std::nullopt;
      return "only the search reports it, and checks does not name it";
    case ViolationKind::order_inversion:
    case ViolationKind::empty_while_nonempty:
    case ViolationKind::priority_inversion:
      if (fast) return std::nullopt;
      return "only the fast checker reports it, and checks does not name it";
    default:
      if (fast || has_check(s, "accounting")) return std::nullopt;
      return "only the fast checker and the accounting report it, and checks names neither";
  }
}

}  // namespace

std::optional<std::string> unreachable_expectation(const Scenario& s) {
  const std::optional<model::ViolationKind> kind = model::parse_violation_kind(s.expect);
  if (!kind || *kind == model::ViolationKind::none) return std::nullopt;
  std::optional<std::string> why = spec_never_shows(*kind, spec_for(s));
  if (!why) why = checks_never_show(*kind, s);
  if (!why) return std::nullopt;
  return s.file + ": expect: no run could ever show '" + s.expect + "': " + *why +
         "; expect a kind this scenario can report, or violation";
}

bool seed_consistent(const std::string& expect, const model::Verdict& verdict) {
  if (expect == "linearizable") return verdict.kind == model::VerdictKind::linearizable;
  return verdict.kind == model::VerdictKind::linearizable ||
         verdict.kind == model::VerdictKind::violation;
}

bool shows_expected_violation(const std::string& expect, const model::Verdict& verdict) {
  if (verdict.kind != model::VerdictKind::violation) return false;
  return expect == "violation" || model::to_string(verdict.violation) == expect;
}

std::string undecided_remedy(const Scenario& scenario, const model::Verdict& verdict) {
  if (verdict.kind != model::VerdictKind::unknown || verdict.checker != "search" ||
      verdict.steps <= scenario.search_budget) {
    return "";
  }
  return "; the search spent its whole budget, limits.search_budget = " +
         std::to_string(scenario.search_budget) + ": a larger one gives it more";
}

std::string reproduction_command(const Scenario& scenario, std::uint64_t seed) {
  return "contend replay " + shell_quoted_path(scenario.file) + scenario.scope_flags + " --seed " +
         std::to_string(seed);
}

}  // namespace contend
