#include "model/spec.h"

#include <algorithm>

namespace contend::model {

std::optional<SpecKind> parse_spec(std::string_view name) {
  if (name == "fifo") return SpecKind::fifo;
  if (name == "priority") return SpecKind::priority;
  if (name == "multiset") return SpecKind::multiset;
  return std::nullopt;
}

std::string_view to_string(SpecKind spec) {
  switch (spec) {
    case SpecKind::fifo:
      return "fifo";
    case SpecKind::priority:
      return "priority";
    case SpecKind::multiset:
      return "multiset";
  }
  return "?";
}

bool SpecState::step(const Operation& op) {
  switch (op.f) {
    case OpFunction::enqueue:
    case OpFunction::push: {
      SpecEntry e{kind_ == SpecKind::priority ? op.input->priority.value_or(0) : 0, next_order_++,
                  op.input->value};
      auto at =
          std::upper_bound(entries_.begin(), entries_.end(), e, [](const auto& a, const auto& b) {
            return a.priority != b.priority ? a.priority < b.priority : a.order < b.order;
          });
      entries_.insert(at, std::move(e));
      return true;
    }
    case OpFunction::dequeue:
    case OpFunction::pop_min:
      return take(op, false, true);
    case OpFunction::pop_max:
      return take(op, true, true);
    case OpFunction::peek_min:
      return take(op, false, false);
    case OpFunction::peek_max:
      return take(op, true, false);
  }
  return false;
}

bool SpecState::take(const Operation& op, bool back, bool remove) {
  if (op.indeterminate) {  // took the item the spec names, if any
    if (remove && !entries_.empty()) {
      entries_.erase(back ? entries_.end() - 1 : entries_.begin());
    }
    return true;
  }
  if (!op.output) return kind_ == SpecKind::multiset || entries_.empty();
  auto matches = [&](const SpecEntry& e) {
    return e.value == op.output->value && (!op.output->priority || kind_ != SpecKind::priority ||
                                           e.priority == *op.output->priority);
  };
  std::vector<SpecEntry>::iterator it;
  if (kind_ == SpecKind::multiset) {
    it = std::find_if(entries_.begin(), entries_.end(), matches);
    if (it == entries_.end()) return false;
  } else {
    if (entries_.empty()) return false;
    it = back ? entries_.end() - 1 : entries_.begin();
    if (!matches(*it)) return false;
  }
  if (remove) entries_.erase(it);
  return true;
}

std::string SpecState::key() const {
  std::vector<const SpecEntry*> order;
  for (const auto& e : entries_)
    order.push_back(&e);
  if (kind_ == SpecKind::multiset) {
    std::sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->value < b->value; });
  }
  std::string k;
  for (const SpecEntry* e : order) {
    k += std::to_string(e->priority);
    k.push_back('\x1f');
    k += e->value;
    k.push_back('\x1e');
  }
  return k;
}

}  // namespace contend::model
