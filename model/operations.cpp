#include "model/operations.h"

#include <map>

namespace contend::model {

std::vector<Operation> operations_of(const History& history) {
  std::vector<Operation> ops;
  std::map<std::int64_t, std::size_t> open;  // process -> index into ops
  for (const Event& e : history) {
    if (e.type == EventType::invoke) {
      Operation op;
      op.id = static_cast<std::int64_t>(ops.size());
      op.f = e.f;
      op.process = e.process;
      op.invoke = e.index;
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
    if (e.type == EventType::fail) {
      op.f = e.f;
      op.complete = -1;  // marked for removal below
      continue;
    }
    if (e.type == EventType::ok) {
      op.indeterminate = false;
      op.complete = e.index;
      if (!is_insert(e.f)) op.output = e.value;
    }
  }
  std::vector<Operation> kept;
  kept.reserve(ops.size());
  for (Operation& op : ops) {
    if (op.complete == -1) continue;
    op.id = static_cast<std::int64_t>(kept.size());
    kept.push_back(std::move(op));
  }
  return kept;
}

}  // namespace contend::model
