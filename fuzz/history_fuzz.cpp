// Fuzz target: history JSON lines, then every checker. Malformed text is refused with a line
// number; a history that reads and validates is checked by the fast checker, the search and the
// accounting under each spec its operations fit, and the checkers must agree (a violation beside
// a proof of linearizability is a bug) or say unknown.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "base/invariant.h"
#include "model/check.h"
#include "model/history_json.h"
#include "model/spec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contend::model;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  HistoryError error;
  EventLines lines;
  std::optional<History> history = read_history(in, error, &lines);
  if (!history) {
    CONTEND_ASSERT(!error.message.empty(), "a refused history says why");
    return 0;
  }
  if (validate_history(*history, lines)) return 0;
  if (history->size() > 200) return 0;  // the search is exponential: keep each input fast
  for (SpecKind spec : {SpecKind::fifo, SpecKind::priority, SpecKind::multiset}) {
    if (check_functions(*history, spec, lines)) continue;
    for (TieOrder ties : {TieOrder::event_order, TieOrder::concurrent}) {
      CheckRequest request;
      request.spec = spec;
      request.fast = request.search = request.accounting = true;
      request.search_budget = 20'000;
      request.ties = ties;
      CheckReport report = check_history(*history, request);
      CONTEND_ASSERT(!report.disagreement, "the checkers agree (or one says unknown)");
      CONTEND_ASSERT(report.verdicts.size() == 3, "one verdict per checker");
    }
  }
  return 0;
}
