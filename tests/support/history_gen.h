// Random concurrent histories that are linearizable by construction: processes invoke, take
// effect on a sequential model and complete in a random interleaving; some crash (an `info`
// completion, after or before taking effect). Optionally drained at the end (one more process
// removes until the queue answers empty) and stamped with a coarse clock (runs of equal
// timestamps, so TieOrder decides which operations are concurrent). Optionally corrupted.
// Linearizable under either TieOrder: reading equal times as concurrent only removes
// real-time constraints.
#pragma once

#include <rapidcheck.h>

#include <deque>
#include <map>
#include <string>
#include <vector>

#include "model/history.h"
#include "model/spec.h"

namespace contend::testing {

struct GenOptions {
  model::SpecKind spec = model::SpecKind::fifo;
  int processes = 3;
  int operations = 8;
  bool crashes = true;
  bool drain = false;         // end with removes until the queue is empty, then one empty answer
  bool coarse_clock = false;  // time advances by 0 or 1 per event
};

inline model::History linearizable_history(const GenOptions& o) {
  using namespace model;
  struct Proc {
    std::int64_t id = 0;
    int state = 0;  // 0 idle, 1 invoked, 2 took effect
    Event invocation;
    std::optional<Item> output;
  };
  auto fresh = [](std::int64_t id) {
    Proc p;
    p.id = id;
    return p;
  };
  History h;
  std::vector<SpecEntry> queue;  // sorted like SpecState
  std::int64_t order = 0, next_value = 0, next_process = 0;
  std::vector<Proc> procs;
  for (int p = 0; p < o.processes; ++p)
    procs.push_back(fresh(next_process++));
  int invoked = 0;
  std::int64_t clock = 0;
  auto emit = [&](Event e) {
    e.index = static_cast<std::int64_t>(h.size());
    clock += o.coarse_clock ? *rc::gen::inRange(0, 2) : 1;
    e.time_us = clock;
    h.push_back(std::move(e));
  };
  for (int guard = 0; guard < 1000; ++guard) {
    bool all_idle = true;
    for (auto& p : procs)
      all_idle = all_idle && p.state == 0;
    if (invoked >= o.operations && all_idle) break;
    auto& p = procs[static_cast<std::size_t>(*rc::gen::inRange(0, o.processes))];
    if (p.state == 0) {
      if (invoked >= o.operations) continue;
      ++invoked;
      Event e;
      e.type = EventType::invoke;
      e.process = p.id;
      if (o.spec == SpecKind::fifo) {
        e.f = *rc::gen::element(OpFunction::enqueue, OpFunction::enqueue, OpFunction::dequeue);
      } else {
        e.f = *rc::gen::element(OpFunction::push, OpFunction::push, OpFunction::pop_min,
                                OpFunction::pop_max, OpFunction::peek_min, OpFunction::peek_max);
      }
      if (is_insert(e.f)) {
        e.value = Item{"v" + std::to_string(next_value++), std::nullopt};
        if (o.spec != SpecKind::fifo) e.value->priority = *rc::gen::inRange(0, 3);
      }
      p.invocation = e;
      p.state = 1;
      emit(e);
    } else if (p.state == 1) {
      const Event& inv = p.invocation;
      if (o.crashes && *rc::gen::inRange(0, 12) == 0) {  // crash before taking effect
        Event e = inv;
        e.type = EventType::info;
        if (!is_insert(e.f)) e.value.reset();
        emit(e);
        p = fresh(next_process++);
        continue;
      }
      p.output.reset();
      if (is_insert(inv.f)) {
        SpecEntry entry{inv.value->priority.value_or(0), order++, inv.value->value};
        auto at =
            std::upper_bound(queue.begin(), queue.end(), entry, [](const auto& a, const auto& b) {
              return a.priority != b.priority ? a.priority < b.priority : a.order < b.order;
            });
        queue.insert(at, entry);
      } else if (!queue.empty()) {
        bool back = inv.f == OpFunction::pop_max || inv.f == OpFunction::peek_max;
        auto it = back ? queue.end() - 1 : queue.begin();
        p.output = Item{it->value, std::nullopt};
        if (o.spec != SpecKind::fifo) p.output->priority = it->priority;
        if (is_remove(inv.f)) queue.erase(it);
      }
      p.state = 2;
    } else {
      Event e = p.invocation;
      bool crash = o.crashes && *rc::gen::inRange(0, 12) == 0;  // took effect, then crashed
      e.type = crash ? EventType::info : EventType::ok;
      if (!is_insert(e.f)) e.value = crash ? std::nullopt : p.output;
      emit(e);
      p = fresh(crash ? next_process++ : p.id);
    }
  }
  if (o.drain) {
    const OpFunction f = o.spec == SpecKind::fifo ? OpFunction::dequeue : OpFunction::pop_min;
    const std::int64_t drainer = next_process++;
    for (std::size_t left = queue.size() + 1; left > 0; --left) {
      Event e;
      e.type = EventType::invoke;
      e.process = drainer;
      e.f = f;
      emit(e);
      e.type = EventType::ok;
      if (!queue.empty()) {
        e.value = Item{queue.front().value, std::nullopt};
        if (o.spec != SpecKind::fifo) e.value->priority = queue.front().priority;
        queue.erase(queue.begin());
      }
      emit(e);
    }
  }
  return h;
}

// Corrupts one completion's result: another value, a duplicate, or a spurious empty.
inline void corrupt(model::History& h) {
  using namespace model;
  std::vector<std::size_t> removes;
  std::vector<std::string> values;
  for (std::size_t i = 0; i < h.size(); ++i) {
    if (h[i].type == EventType::ok && !is_insert(h[i].f)) removes.push_back(i);
    if (h[i].type == EventType::invoke && is_insert(h[i].f)) values.push_back(h[i].value->value);
  }
  if (removes.empty() || values.empty()) return;
  Event& e = h[removes[*rc::gen::inRange<std::size_t>(0, removes.size())]];
  switch (*rc::gen::inRange(0, 3)) {
    case 0:
      e.value.reset();
      break;
    default: {
      std::optional<std::int64_t> p;
      if (e.value) p = e.value->priority;
      e.value = Item{values[*rc::gen::inRange<std::size_t>(0, values.size())], p};
      if (e.f != OpFunction::dequeue && !e.value->priority) e.value->priority = 0;
    }
  }
}

}  // namespace contend::testing
