#include "model/operations.h"

#include <algorithm>
#include <functional>
#include <map>
#include <unordered_map>

#include "base/invariant.h"

namespace contend::model {

namespace {

// Lookups only (ids are handed out in operation order), so the hash map never reaches output.
class Interner {
 public:
  ItemId id(const Item& item, std::vector<Item>& items) {
    auto [it, fresh] =
        ids_.try_emplace(Key{item.value, item.priority}, static_cast<ItemId>(items.size()));
    if (fresh) items.push_back(item);
    return it->second;
  }

 private:
  using Key = std::pair<std::string, std::optional<std::int64_t>>;
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      const std::size_t h = std::hash<std::string>{}(k.first);
      return k.second ? h ^ (std::hash<std::int64_t>{}(*k.second) * 0x9e3779b97f4a7c15ULL + 1) : h;
    }
  };
  std::unordered_map<Key, ItemId, KeyHash> ids_;
};

// Pairs each invocation with its completion. Failed operations are marked with complete = -1.
std::vector<Operation> pair_events(const History& history) {
  std::vector<Operation> ops;
  ops.reserve(history.size() / 2 + 1);
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
    CONTEND_ASSERT(op.indeterminate && op.complete != -1, "each operation completes once");
    CONTEND_ASSERT(e.index > op.invoke, "a completion follows its invocation");
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
// Times never decrease along the history, so Porcupine's order only reorders within a run of
// equal times: its invocations first, then its completions, each in index order.
std::vector<std::int64_t> ranks(const History& history, TieOrder ties) {
  std::vector<std::int64_t> rank(history.size());
  std::size_t next = 0;
  for (std::size_t begin = 0; begin < history.size();) {
    std::size_t end = begin + 1;
    while (ties == TieOrder::concurrent && end < history.size() &&
           history[end].time_us == history[begin].time_us) {
      ++end;
    }
    for (int pass = 0; pass < 2; ++pass) {
      for (std::size_t i = begin; i < end; ++i) {
        const bool invoke = history[i].type == EventType::invoke;
        if (invoke == (pass == 0)) rank[i] = static_cast<std::int64_t>(next++);
      }
    }
    begin = end;
  }
  CONTEND_ASSERT(next == history.size(), "every event has exactly one rank");
  return rank;
}

void place_in_time(const History& history, TieOrder ties, std::vector<Operation>& ops) {
  const std::vector<std::int64_t> rank = ranks(history, ties);
  for (Operation& op : ops) {
    op.call = rank[static_cast<std::size_t>(op.invoke)];
    op.ret = op.indeterminate ? kForever : rank[static_cast<std::size_t>(op.complete)];
    CONTEND_ASSERT(op.call < op.ret, "an operation returns after it is called");
  }
}

}  // namespace

Operations operations_of(const History& history, TieOrder ties) {
  Operations out;
  out.ops = pair_events(history);
  place_in_time(history, ties, out.ops);
  Interner interner;
  std::size_t kept = 0;  // failed operations are dropped in place
  for (Operation& op : out.ops) {
    if (op.complete == -1) {  // failed: never took effect
      out.failed.push_back(op.invoke);
      if (op.input) out.failed_items.push_back(op.input->value);
      continue;
    }
    if (op.indeterminate) op.complete = kForever;
    if (op.input) op.input_id = interner.id(*op.input, out.items);
    if (op.output) op.output_id = interner.id(*op.output, out.items);
    op.id = static_cast<std::int64_t>(kept);
    if (&op != &out.ops[kept]) out.ops[kept] = std::move(op);
    ++kept;
  }
  CONTEND_ASSERT(kept + out.failed.size() == out.ops.size(),
                 "every operation is kept or failed, never both");
  out.ops.erase(out.ops.begin() + static_cast<std::ptrdiff_t>(kept), out.ops.end());
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
