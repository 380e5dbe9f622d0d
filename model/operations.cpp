#include "model/operations.h"

#include <algorithm>
#include <map>

namespace contend::model {

namespace {

class Interner {
 public:
  ItemId id(const Item& item, std::vector<Item>& items) {
    auto key = std::make_pair(item.value, item.priority);
    auto [it, fresh] = ids_.emplace(std::move(key), static_cast<ItemId>(items.size()));
    if (fresh) items.push_back(item);
    return it->second;
  }

 private:
  std::map<std::pair<std::string, std::optional<std::int64_t>>, ItemId> ids_;
};

// Pairs each invocation with its completion. Failed operations are marked with complete = -1.
std::vector<Operation> pair_events(const History& history) {
  std::vector<Operation> ops;
  std::map<std::int64_t, std::size_t> open;  // process -> index into ops
  for (const Event& e : history) {
    if (e.type == EventType::invoke) {
      Operation op;
      op.f = e.f;
      op.process = e.process;
      op.invoke = e.index;
      op.invoke_time = e.time_us;
      op.indeterminate = true;  // until its completion says otherwise
      if (is_insert(e.f)) op.input = e.value;
      open[e.process] = ops.size();
      ops.push_back(std::move(op));
      continue;
    }
    auto it = open.find(e.process);
    if (it == open.end()) continue;
    Operation& op = ops[it->second];
    open.erase(it);
    if (e.type == EventType::fail) op.complete = -1;
    if (e.type != EventType::ok) continue;
    op.indeterminate = false;
    op.complete = e.index;
    op.complete_time = e.time_us;
    if (!is_insert(e.f)) op.output = e.value;
  }
  return ops;
}

// Real-time positions: the event index, or Porcupine's order (time, invocations first, index).
void place_in_time(const History& history, TieOrder ties, std::vector<Operation>& ops) {
  std::vector<std::int64_t> rank(history.size());
  if (ties == TieOrder::event_order) {
    for (std::size_t i = 0; i < history.size(); ++i)
      rank[i] = static_cast<std::int64_t>(i);
  } else {
    std::vector<std::size_t> order(history.size());
    for (std::size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    auto key = [&](std::size_t i) {
      const Event& e = history[i];
      return std::make_tuple(e.time_us, e.type == EventType::invoke ? 0 : 1, i);
    };
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
    for (std::size_t r = 0; r < order.size(); ++r)
      rank[order[r]] = static_cast<std::int64_t>(r);
  }
  for (Operation& op : ops) {
    op.call = rank[static_cast<std::size_t>(op.invoke)];
    op.ret = op.indeterminate ? kForever : rank[static_cast<std::size_t>(op.complete)];
  }
}

}  // namespace

Operations operations_of(const History& history, TieOrder ties) {
  std::vector<Operation> paired = pair_events(history);
  place_in_time(history, ties, paired);
  Operations out;
  Interner interner;
  out.ops.reserve(paired.size());
  for (Operation& op : paired) {
    if (op.complete == -1) {  // failed: never took effect
      out.failed.push_back(op.invoke);
      if (op.input) out.failed_items.push_back(op.input->value);
      continue;
    }
    if (op.indeterminate) op.complete = kForever;
    if (op.input) op.input_id = interner.id(*op.input, out.items);
    if (op.output) op.output_id = interner.id(*op.output, out.items);
    op.id = static_cast<std::int64_t>(out.ops.size());
    out.ops.push_back(std::move(op));
  }
  return out;
}

namespace {
std::string item_text(const Item& item) {
  std::string s = "'" + item.value + "'";
  if (item.priority) s += "@" + std::to_string(*item.priority);
  return s;
}
}  // namespace

std::string describe(const Operation& op) {
  std::string s(to_string(op.f));
  if (op.input) {
    s += " " + item_text(*op.input);
  } else if (op.indeterminate) {
    s += " -> ?";
  } else {
    s += " -> " + (op.output ? item_text(*op.output) : std::string("empty"));
  }
  s += " (process " + std::to_string(op.process) + ", events " + std::to_string(op.invoke) + "..";
  s += op.complete == kForever ? std::string(op.indeterminate ? "info" : "?")
                               : std::to_string(op.complete);
  return s + ")";
}

std::string describe_items(const Operations& ops, const std::vector<ItemId>& ids) {
  std::string s = "[";
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i > 0) s += ", ";
    s += item_text(ops.items[static_cast<std::size_t>(ids[i])]);
  }
  return s + "]";
}

}  // namespace contend::model
