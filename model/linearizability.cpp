#include "model/linearizability.h"

namespace contend::model {

Verdict check_linearizable(const Operations& ops, SpecKind spec, const SearchOptions& options) {
  return with_spec(spec, [&](const auto& s) { return search_linearizable(ops, s, options); });
}

Verdict check_linearizable(const History& history, SpecKind spec, const SearchOptions& options) {
  return check_linearizable(operations_of(history, options.ties), spec, options);
}

}  // namespace contend::model
