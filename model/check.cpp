#include "model/check.h"

#include "model/fast_check.h"
#include "model/linearizability.h"

#include "base/invariant.h"

namespace contend::model {

namespace {

// No violation: linearizable if a checker proved it or no checker was inconclusive.
Verdict combine_clean(const CheckRequest& request, const std::vector<Verdict>& verdicts) {
  Verdict out;
  out.checker = request.search ? "search" : "fast";
  bool unknown = false;
  for (const Verdict& v : verdicts) {
    if (v.ok() && v.exact) {
      out.checker = v.checker;
      out.exact = true;
      return out;
    }
    unknown = unknown || v.kind == VerdictKind::unknown;
  }
  // A search that ran out of budget beside a fast checker that found nothing stays
  // linearizable (the fast checker's word), as a scenario run expects.
  const bool fast_passed = request.fast && !verdicts.empty() && verdicts.front().ok();
  if (unknown && !fast_passed) {
    for (const Verdict& v : verdicts) {
      if (v.kind == VerdictKind::unknown) return v;
    }
  }
  return out;
}

}  // namespace

CheckReport check_history(const History& history, const CheckRequest& request) {
  // With no checker the verdict would be a clean one that nothing reached.
  CONTEND_ASSERT(request.fast || request.search || request.accounting,
                 "a check asks for at least one checker");
  CheckReport report;
  const Operations ops = operations_of(history, request.ties);
  report.accounting = account(
      history, ops,
      AccountingOptions{request.drained ? std::optional<bool>(true) : std::nullopt, request.ties});
  // Under multiset an empty answer proves nothing, so a drain the accounting inferred is passed
  // on: the checkers then hold the multiset to "nothing lost", as the accounting does.
  const bool drained =
      request.drained || (request.spec == SpecKind::multiset && report.accounting.drained);
  if (request.fast) {
    report.verdicts.push_back(check_fast(ops, request.spec, {drained, request.ties}));
  }
  if (request.search) {
    SearchOptions options;
    options.step_budget = request.search_budget;
    options.drained = drained;
    options.ties = request.ties;
    report.verdicts.push_back(check_linearizable(ops, request.spec, options));
  }
  if (request.accounting) report.verdicts.push_back(accounting_verdict(report.accounting));
  const Verdict* first_violation = nullptr;
  bool proven_ok = false;
  for (const Verdict& v : report.verdicts) {
    if (v.kind == VerdictKind::violation && first_violation == nullptr) first_violation = &v;
    proven_ok = proven_ok || (v.ok() && v.exact);
  }
  CONTEND_ASSERT(report.verdicts.size() == static_cast<std::size_t>(request.fast) +
                                               static_cast<std::size_t>(request.search) +
                                               static_cast<std::size_t>(request.accounting),
                 "one verdict per checker asked for");
  report.disagreement = first_violation != nullptr && proven_ok;
  report.verdict =
      first_violation != nullptr ? *first_violation : combine_clean(request, report.verdicts);
  CONTEND_ASSERT((report.verdict.kind == VerdictKind::violation) ==
                     (report.verdict.violation != ViolationKind::none),
                 "a violation verdict names its kind, and only it does");
  return report;
}

}  // namespace contend::model
