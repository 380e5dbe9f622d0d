#include "model/check.h"

#include "model/fast_check.h"
#include "model/linearizability.h"

namespace contend::model {

CheckReport check_history(const History& history, const CheckRequest& request) {
  CheckReport report;
  report.accounting = account(history);
  if (request.fast) report.verdicts.push_back(check_fast(history, request.spec));
  if (request.search) {
    report.verdicts.push_back(check_linearizable(history, request.spec, {request.search_budget}));
  }
  if (request.accounting) report.verdicts.push_back(accounting_verdict(report.accounting));
  bool any_violation = false, proven_ok = false, any_unknown = false;
  for (const Verdict& v : report.verdicts) {
    if (v.kind == VerdictKind::violation && !any_violation) {
      report.verdict = v;
      any_violation = true;
    }
    // Only the search proves linearizability; the fast checkers and accounting can only miss.
    if (v.checker == "search" && v.kind == VerdictKind::linearizable) proven_ok = true;
    if (v.kind == VerdictKind::unknown) any_unknown = true;
  }
  if (any_violation && proven_ok) report.disagreement = true;
  if (!any_violation) {
    report.verdict = Verdict{};
    report.verdict.checker = request.search ? "search" : "fast";
    if (any_unknown && !request.fast) report.verdict.kind = VerdictKind::unknown;
  }
  return report;
}

}  // namespace contend::model
