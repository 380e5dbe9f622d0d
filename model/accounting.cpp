#include "model/accounting.h"

#include <map>
#include <set>
#include <sstream>

#include "model/operations.h"

namespace contend::model {

namespace {
bool ends_drained(const std::vector<Operation>& ops) {
  std::int64_t last_insert_end = -1;
  for (const Operation& op : ops) {
    if (is_insert(op.f)) last_insert_end = std::max(last_insert_end, op.complete);
  }
  for (const Operation& op : ops) {
    if (is_remove(op.f) && !op.indeterminate && !op.output && op.invoke > last_insert_end)
      return true;
  }
  return false;
}
}  // namespace

Accounting account(const History& history) {
  Accounting a;
  std::vector<Operation> ops = operations_of(history);
  a.drained = ends_drained(ops);
  std::set<std::string> attempted, acknowledged;
  std::map<std::string, int> removed;
  for (const Event& e : history) {
    if (is_insert(e.f) && e.type == EventType::invoke) attempted.insert(e.value->value);
    if (is_insert(e.f) && e.type == EventType::ok) acknowledged.insert(e.value->value);
    if (is_remove(e.f) && e.type == EventType::ok && e.value) removed[e.value->value]++;
  }
  for (const Operation& op : ops)
    a.indeterminate_removes += is_remove(op.f) && op.indeterminate;
  a.attempted = static_cast<std::int64_t>(attempted.size());
  a.acknowledged = static_cast<std::int64_t>(acknowledged.size());
  for (const auto& [v, n] : removed) {
    a.removed += n;
    if (n > 1) a.duplicated.push_back(v);
    if (attempted.count(v) == 0) a.unexpected.push_back(v);
    if (attempted.count(v) && !acknowledged.count(v)) a.recovered.push_back(v);
  }
  if (a.drained) {
    std::vector<std::string> missing;
    for (const auto& v : acknowledged) {
      if (removed.count(v) == 0) missing.push_back(v);
    }
    auto explained =
        std::min<std::int64_t>(a.indeterminate_removes, static_cast<std::int64_t>(missing.size()));
    a.possibly_consumed = explained;
    if (static_cast<std::int64_t>(missing.size()) > explained) a.lost = missing;
  }
  return a;
}

Verdict accounting_verdict(const Accounting& a) {
  Verdict v;
  v.checker = "accounting";
  auto list = [](const std::vector<std::string>& values) {
    std::string out;
    for (std::size_t i = 0; i < values.size() && i < 5; ++i)
      out += (i ? ", '" : "'") + values[i] + "'";
    if (values.size() > 5) out += ", ...";
    return out;
  };
  if (!a.unexpected.empty()) {
    v.kind = VerdictKind::violation;
    v.violation = ViolationKind::value_from_nowhere;
    v.explanation = std::to_string(a.unexpected.size()) +
                    " value(s) came out that nobody put in: " + list(a.unexpected);
  } else if (!a.duplicated.empty()) {
    v.kind = VerdictKind::violation;
    v.violation = ViolationKind::duplicate_delivery;
    v.explanation = std::to_string(a.duplicated.size()) +
                    " value(s) delivered more than once: " + list(a.duplicated);
  } else if (!a.lost.empty()) {
    v.kind = VerdictKind::violation;
    v.violation = ViolationKind::lost;
    v.explanation =
        std::to_string(a.lost.size()) +
        " acknowledged value(s) never came out of the drained queue" +
        (a.possibly_consumed > 0 ? " (more than the " + std::to_string(a.possibly_consumed) +
                                       " indeterminate removes could have taken)"
                                 : "") +
        ": " + list(a.lost);
  }
  return v;
}

std::string accounting_table(const Accounting& a) {
  std::ostringstream out;
  out << "attempted " << a.attempted << ", acknowledged " << a.acknowledged << ", removed "
      << a.removed << ", lost " << a.lost.size() << ", duplicated " << a.duplicated.size()
      << ", unexpected " << a.unexpected.size() << ", recovered " << a.recovered.size()
      << ", indeterminate removes " << a.indeterminate_removes
      << (a.drained ? " (drained)" : " (not drained: lost not counted)");
  return out.str();
}

}  // namespace contend::model
