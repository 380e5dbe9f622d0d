#include "model/accounting.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/invariant.h"

namespace contend::model {

namespace {

struct Counts {
  std::int64_t attempted = 0;
  std::int64_t failed = 0;
  std::int64_t acknowledged = 0;
  std::int64_t removed = 0;
  std::int64_t possible() const { return attempted - failed; }  // inserts that may have applied
};

// Some remove answered empty after every acknowledged insert had completed.
bool ends_with_empty_answer(const Operations& ops) {
  std::int64_t last_ack = -1;
  for (const Operation& op : ops.ops) {
    if (is_insert(op.f) && !op.indeterminate) last_ack = std::max(last_ack, op.ret);
  }
  return std::any_of(ops.ops.begin(), ops.ops.end(), [&](const Operation& op) {
    return is_remove(op.f) && op.empty_result() && op.call > last_ack;
  });
}

void count_events(const History& history, std::map<std::string, Counts>& counts,
                  std::map<std::string, std::vector<std::int64_t>>& events) {
  std::map<std::int64_t, const Event*> open;
  for (const Event& e : history) {
    if (e.type == EventType::invoke) {
      open[e.process] = &e;
      if (is_insert(e.f)) {
        counts[e.value->value].attempted++;
        events[e.value->value].push_back(e.index);
      }
      continue;
    }
    auto it = open.find(e.process);
    const std::int64_t invoke = it == open.end() ? e.index : it->second->index;
    if (it != open.end()) open.erase(it);
    if (is_insert(e.f) && e.type == EventType::ok) counts[e.value->value].acknowledged++;
    if (is_insert(e.f) && e.type == EventType::fail) counts[e.value->value].failed++;
    if (is_remove(e.f) && e.type == EventType::ok && e.value) {
      counts[e.value->value].removed++;
      events[e.value->value].push_back(invoke);
    }
  }
}

std::string listed(const std::vector<std::string>& values, std::size_t limit) {
  std::string out;
  for (std::size_t i = 0; i < values.size() && i < limit; ++i)
    out += (i ? ", '" : "'") + values[i] + "'";
  if (values.size() > limit) out += ", ... (" + std::to_string(values.size()) + " in all)";
  return out;
}

}  // namespace

Accounting account(const History& history, const AccountingOptions& options) {
  return account(history, operations_of(history, options.ties), options);
}

Accounting account(const History& history, const Operations& ops,
                   const AccountingOptions& options) {
  Accounting a;
  std::map<std::string, Counts> counts;
  std::map<std::string, std::vector<std::int64_t>> events;
  count_events(history, counts, events);
  for (const Operation& op : ops.ops)
    a.indeterminate_removes += is_remove(op.f) && op.indeterminate ? 1 : 0;
  a.drained = options.drained ? *options.drained : ends_with_empty_answer(ops);
  const std::int64_t slack = a.indeterminate_removes;  // each may have taken one, at any time
  std::vector<std::string> missing;
  for (const auto& [v, c] : counts) {
    a.attempted += c.attempted;
    a.acknowledged += c.acknowledged;
    a.removed += c.removed;
    if (c.removed > 0 && c.possible() == 0) a.unexpected.push_back(v);
    if (c.removed > c.possible() && c.possible() > 0) a.duplicated.push_back(v);
    if (std::min(c.removed, c.possible()) > c.acknowledged) a.recovered.push_back(v);
    if (c.acknowledged > c.removed) {
      for (std::int64_t i = c.removed; i < c.acknowledged; ++i)
        missing.push_back(v);
    }
  }
  std::int64_t inserts_invoked = 0;
  for (const Event& e : history)
    inserts_invoked += e.type == EventType::invoke && is_insert(e.f) ? 1 : 0;
  CONTEND_ASSERT(a.attempted == inserts_invoked, "every insert invocation is counted once");
  CONTEND_ASSERT(a.acknowledged <= a.attempted, "only an attempted insert is acknowledged");
  if (a.drained) {
    if (static_cast<std::int64_t>(missing.size()) > slack) {
      a.lost = missing;
    } else {
      a.possibly_consumed_values = missing;
      a.possibly_consumed = static_cast<std::int64_t>(missing.size());
    }
  }
  CONTEND_ASSERT(!a.drained || static_cast<std::int64_t>(a.lost.size()) + a.possibly_consumed ==
                                   static_cast<std::int64_t>(missing.size()),
                 "a drained queue's missing values are lost or possibly consumed");
  for (const auto* list :
       {&a.lost, &a.duplicated, &a.unexpected, &a.recovered, &a.possibly_consumed_values}) {
    for (const std::string& v : *list)
      a.events[v] = events[v];
  }
  return a;
}

Verdict accounting_verdict(const Accounting& a) {
  auto events_of = [&](const std::vector<std::string>& values) {
    std::vector<std::int64_t> out;
    for (const std::string& v : values) {
      auto it = a.events.find(v);
      if (it != a.events.end()) out.insert(out.end(), it->second.begin(), it->second.end());
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  };
  if (!a.unexpected.empty()) {
    return violation_verdict("accounting", ViolationKind::value_from_nowhere,
                             std::to_string(a.unexpected.size()) +
                                 " value(s) came out that nobody put in (or only a failed insert "
                                 "did): " +
                                 listed(a.unexpected, 5),
                             events_of(a.unexpected));
  }
  if (!a.duplicated.empty()) {
    return violation_verdict(
        "accounting", ViolationKind::duplicate_delivery,
        std::to_string(a.duplicated.size()) +
            " value(s) delivered more often than inserted: " + listed(a.duplicated, 5),
        events_of(a.duplicated));
  }
  if (!a.lost.empty()) {
    std::string why = a.indeterminate_removes > 0
                          ? " (more than the indeterminate removes could have taken)"
                          : "";
    return violation_verdict("accounting", ViolationKind::lost,
                             std::to_string(a.lost.size()) +
                                 " acknowledged value(s) never came out of the drained queue" +
                                 why + ": " + listed(a.lost, 5),
                             events_of(a.lost));
  }
  Verdict v;
  v.checker = "accounting";
  return v;
}

std::string accounting_table(const Accounting& a) {
  return fmt::format(
      "attempted {}, acknowledged {}, removed {}, lost {}, duplicated {}, unexpected {}, "
      "recovered {}, indeterminate removes {}{}",
      a.attempted, a.acknowledged, a.removed, a.lost.size(), a.duplicated.size(),
      a.unexpected.size(), a.recovered.size(), a.indeterminate_removes,
      a.drained ? " (drained)" : " (not drained: lost not counted)");
}

std::string accounting_report(const Accounting& a) {
  std::string out;
  auto row = [&](const char* name, std::int64_t n, const std::vector<std::string>* values) {
    out += fmt::format("  {:<22} {:>8}", name, n);
    if (values != nullptr && !values->empty()) out += "  " + listed(*values, 8);
    out += "\n";
  };
  row("attempted", a.attempted, nullptr);
  row("acknowledged", a.acknowledged, nullptr);
  row("removed", a.removed, nullptr);
  row("indeterminate removes", a.indeterminate_removes, nullptr);
  if (a.drained) {
    row("lost", static_cast<std::int64_t>(a.lost.size()), &a.lost);
    row("possibly consumed", a.possibly_consumed, &a.possibly_consumed_values);
  } else {
    out += fmt::format("  {:<22} {:>8}  (not drained: cannot be counted)\n", "lost", "-");
  }
  row("duplicated", static_cast<std::int64_t>(a.duplicated.size()), &a.duplicated);
  row("unexpected", static_cast<std::int64_t>(a.unexpected.size()), &a.unexpected);
  row("recovered", static_cast<std::int64_t>(a.recovered.size()), &a.recovered);
  return out;
}

std::string to_json(const Accounting& a) {
  nlohmann::ordered_json j;
  j["attempted"] = a.attempted;
  j["acknowledged"] = a.acknowledged;
  j["removed"] = a.removed;
  j["indeterminate_removes"] = a.indeterminate_removes;
  j["drained"] = a.drained;
  j["lost"] = a.lost;
  j["possibly_consumed"] = a.possibly_consumed_values;
  j["duplicated"] = a.duplicated;
  j["unexpected"] = a.unexpected;
  j["recovered"] = a.recovered;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace contend::model
