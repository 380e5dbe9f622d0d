// Queue accounting in the manner of Jepsen's total-queue checker: what went in, what came out.
//   attempted     values of every insert invocation
//   acknowledged  values of ok inserts
//   removed       values of ok removes (with multiplicity)
//   lost          acknowledged, never removed — counted only for drained histories
//   duplicated    removed more than once
//   unexpected    removed, never attempted
//   recovered     removed although the insert was not acknowledged (indeterminate)
// Unlike Jepsen's total-queue, duplicates fail the check. Lost values that indeterminate removes
// may have taken (at most one each) are reported as possibly consumed, not as lost.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/history.h"
#include "model/verdict.h"

namespace contend::model {

struct Accounting {
  std::int64_t attempted = 0;
  std::int64_t acknowledged = 0;
  std::int64_t removed = 0;
  std::int64_t indeterminate_removes = 0;
  std::vector<std::string> lost;
  std::vector<std::string> duplicated;
  std::vector<std::string> unexpected;
  std::vector<std::string> recovered;
  std::int64_t possibly_consumed =
      0;  // never-removed acknowledged values explained by info removes
  bool drained = false;
};

// `drained`: the history ends with an empty result after every insert completed.
Accounting account(const History& history);
// lost/duplicated/unexpected as a verdict (checker "accounting").
Verdict accounting_verdict(const Accounting& a);
std::string accounting_table(const Accounting& a);

}  // namespace contend::model
