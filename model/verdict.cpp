#include "model/verdict.h"

#include <nlohmann/json.hpp>

#include "model/json_keys.h"

namespace contend::model {

namespace {
constexpr VerdictKind kVerdictKinds[] = {VerdictKind::linearizable, VerdictKind::violation,
                                         VerdictKind::unknown, VerdictKind::simulator_fault};
constexpr ViolationKind kKinds[] = {ViolationKind::none,
                                    ViolationKind::value_from_nowhere,
                                    ViolationKind::duplicate_delivery,
                                    ViolationKind::lost,
                                    ViolationKind::order_inversion,
                                    ViolationKind::empty_while_nonempty,
                                    ViolationKind::priority_inversion,
                                    ViolationKind::not_linearizable,
                                    ViolationKind::store_not_serializable};
}  // namespace

std::string_view to_string(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::linearizable:
      return "linearizable";
    case VerdictKind::violation:
      return "violation";
    case VerdictKind::unknown:
      return "unknown";
    case VerdictKind::simulator_fault:
      return "simulator_fault";
  }
  return "?";
}

std::string_view to_string(ViolationKind kind) {
  switch (kind) {
    case ViolationKind::none:
      return "none";
    case ViolationKind::value_from_nowhere:
      return "value_from_nowhere";
    case ViolationKind::duplicate_delivery:
      return "duplicate_delivery";
    case ViolationKind::lost:
      return "lost";
    case ViolationKind::order_inversion:
      return "order_inversion";
    case ViolationKind::empty_while_nonempty:
      return "empty_while_nonempty";
    case ViolationKind::priority_inversion:
      return "priority_inversion";
    case ViolationKind::not_linearizable:
      return "not_linearizable";
    case ViolationKind::store_not_serializable:
      return "store_not_serializable";
  }
  return "?";
}

std::optional<VerdictKind> parse_verdict_kind(std::string_view text) {
  for (VerdictKind k : kVerdictKinds) {
    if (to_string(k) == text) return k;
  }
  return std::nullopt;
}

std::optional<ViolationKind> parse_violation_kind(std::string_view text) {
  for (ViolationKind k : kKinds) {
    if (to_string(k) == text) return k;
  }
  return std::nullopt;
}

std::string Verdict::summary() const {
  if (kind != VerdictKind::violation) return std::string(to_string(kind));
  return "violation: " + std::string(to_string(violation));
}

Verdict violation_verdict(std::string checker, ViolationKind kind, std::string explanation,
                          std::vector<std::int64_t> events) {
  Verdict v;
  v.kind = VerdictKind::violation;
  v.violation = kind;
  v.checker = std::move(checker);
  v.explanation = std::move(explanation);
  v.events = std::move(events);
  return v;
}

Verdict unknown_verdict(std::string checker, std::string explanation) {
  Verdict v;
  v.kind = VerdictKind::unknown;
  v.checker = std::move(checker);
  v.explanation = std::move(explanation);
  return v;
}

std::string to_json(const Verdict& v) {
  nlohmann::ordered_json j;
  j["kind"] = to_string(v.kind);
  j["violation"] = to_string(v.violation);
  j["checker"] = v.checker;
  j["explanation"] = v.explanation;
  j["events"] = v.events;
  j["longest_prefix"] = v.longest_prefix;
  j["stuck"] = v.stuck;
  j["steps"] = v.steps;
  j["exact"] = v.exact;
  j["part_operations"] = v.part_operations;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

namespace {

bool read_indexes(const nlohmann::json& j, const char* key, std::vector<std::int64_t>& out) {
  if (!j.contains(key)) return true;
  if (!j[key].is_array()) return false;
  for (const auto& e : j[key]) {
    if (!e.is_number_integer()) return false;
    out.push_back(e.get<std::int64_t>());
  }
  return true;
}

std::optional<Verdict> verdict_of(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string()) return std::nullopt;
  Verdict v;
  auto kind = parse_verdict_kind(j["kind"].get<std::string>());
  if (!kind) return std::nullopt;
  v.kind = *kind;
  if (j.contains("violation")) {
    if (!j["violation"].is_string()) return std::nullopt;
    auto violation = parse_violation_kind(j["violation"].get<std::string>());
    if (!violation) return std::nullopt;
    v.violation = *violation;
  }
  // The invariant of verdict.h: a violation names its kind, nothing else does.
  if ((v.kind == VerdictKind::violation) != (v.violation != ViolationKind::none)) {
    return std::nullopt;
  }
  if (j.contains("checker") && j["checker"].is_string()) v.checker = j["checker"];
  if (j.contains("explanation") && j["explanation"].is_string()) v.explanation = j["explanation"];
  if (!read_indexes(j, "events", v.events) ||
      !read_indexes(j, "longest_prefix", v.longest_prefix) || !read_indexes(j, "stuck", v.stuck)) {
    return std::nullopt;
  }
  if (j.contains("steps") && j["steps"].is_number_integer()) v.steps = j["steps"];
  if (j.contains("exact") && j["exact"].is_boolean()) v.exact = j["exact"];
  if (v.exact && v.kind != VerdictKind::linearizable) return std::nullopt;
  if (j.contains("part_operations")) {
    if (!j["part_operations"].is_number_integer()) return std::nullopt;
    v.part_operations = j["part_operations"];
    if (v.part_operations < 0) return std::nullopt;
    if (v.part_operations > 0 && v.kind != VerdictKind::violation) return std::nullopt;
  }
  return v;
}

}  // namespace

std::optional<Verdict> verdict_from_json(std::string_view text) {
  try {
    std::string duplicate;
    nlohmann::json j = parse_json_unique_keys(text, duplicate);
    if (j.is_discarded()) return std::nullopt;
    return verdict_of(j);
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

}  // namespace contend::model
