#include "model/verdict.h"

namespace contend::model {

std::string_view to_string(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::linearizable:
      return "linearizable";
    case VerdictKind::violation:
      return "violation";
    case VerdictKind::unknown:
      return "unknown";
  }
  return "?";
}

namespace {
constexpr ViolationKind kKinds[] = {ViolationKind::none,
                                    ViolationKind::value_from_nowhere,
                                    ViolationKind::duplicate_delivery,
                                    ViolationKind::lost,
                                    ViolationKind::order_inversion,
                                    ViolationKind::empty_while_nonempty,
                                    ViolationKind::priority_inversion,
                                    ViolationKind::not_linearizable,
                                    ViolationKind::store_not_serializable};
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

}  // namespace contend::model
