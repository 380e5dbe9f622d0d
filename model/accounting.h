// Queue accounting in the manner of Jepsen's total-queue checker: what went in, what came out.
// Multisets of values, so histories without unique values are counted correctly.
//   attempted     insert invocations
//   acknowledged  ok inserts
//   removed       ok removes that returned a value ("dequeued")
//   lost          acknowledged, never removed — counted only for drained histories
//   duplicated    removed more often than inserted
//   unexpected    removed, never inserted (or only by inserts that failed: a failed op never
//                 took effect — unlike Jepsen, which counts those as recovered)
//   recovered     removed although the insert was not acknowledged (indeterminate)
// Unlike Jepsen's total-queue, duplicates fail the check. Never-removed acknowledged values
// that indeterminate removes may have taken (at most one each) are "possibly consumed", not lost.
//
// Drained: either stated (AccountingOptions::drained) or inferred — some remove answered empty
// after every acknowledged insert had completed (real time per TieOrder). Each indeterminate
// remove may explain one missing value.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/history.h"
#include "model/operations.h"
#include "model/verdict.h"

namespace contend::model {

struct AccountingOptions {
  std::optional<bool> drained;  // nothing: inferred from an empty answer at the end
  TieOrder ties = TieOrder::concurrent;
};

struct Accounting {
  std::int64_t attempted = 0;
  std::int64_t acknowledged = 0;
  std::int64_t removed = 0;
  std::int64_t indeterminate_removes = 0;
  std::vector<std::string> lost;
  std::vector<std::string> duplicated;
  std::vector<std::string> unexpected;
  std::vector<std::string> recovered;
  std::vector<std::string> possibly_consumed_values;  // missing, explained by info removes
  std::int64_t possibly_consumed = 0;
  bool drained = false;
  // Invocation indexes of the inserts and ok removes of every listed value.
  std::map<std::string, std::vector<std::int64_t>> events;
};

Accounting account(const History& history, const AccountingOptions& options = {});
// The same, with the history's operations already paired (operations_of with options.ties).
Accounting account(const History& history, const Operations& ops, const AccountingOptions& options);
// lost/duplicated/unexpected as a verdict (checker "accounting").
Verdict accounting_verdict(const Accounting& a);
// One line: "attempted 4, acknowledged 4, removed 3, lost 1, ..." (run and replay print it).
std::string accounting_table(const Accounting& a);
// A table, one row per count, with the values of each non-empty list.
std::string accounting_report(const Accounting& a);
std::string to_json(const Accounting& a);

}  // namespace contend::model
