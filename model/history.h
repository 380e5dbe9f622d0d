// A history: the operations a set of processes invoked on a queue and how each one completed,
// in Jepsen's vocabulary. This is the interface between the simulator (which records histories)
// and the checkers (which judge them); it knows nothing of MVCC or of the simulator.
//
// Invariants of a well-formed history (checked by validate_history in history_json.h):
// - events are in non-decreasing `time_us` order and `index` equals the position in the vector;
// - each process has at most one operation in flight: an `invoke` is followed, in that process,
//   by exactly one completion (`ok`, `fail` or `info`) of the same `f` before its next `invoke`;
//   an invocation without completion is treated as `info` (indeterminate);
// - a process that completes with `info` never invokes again (a crashed client continues under a
//   fresh process id).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace contend::model {

enum class EventType : std::uint8_t { invoke, ok, fail, info };

enum class OpFunction : std::uint8_t {
  enqueue,
  dequeue,
  push,
  pop_min,
  peek_min,
  pop_max,
  peek_max
};

// A queue item. FIFO operations leave `priority` empty; priority-queue operations set it.
struct Item {
  std::string value;
  std::optional<std::int64_t> priority;
  friend bool operator==(const Item&, const Item&) = default;
};

// One line of a history. `value`: enqueue/push carry the item on invoke and on every completion;
// dequeue/pop/peek carry nothing on invoke, and on `ok` the item taken or seen, or nothing when
// the queue was empty; `fail`/`info` completions of dequeue/pop/peek carry nothing.
struct Event {
  std::int64_t index = 0;
  EventType type = EventType::invoke;
  std::int64_t process = 0;
  std::int64_t time_us = 0;
  OpFunction f = OpFunction::enqueue;
  std::optional<Item> value;
  friend bool operator==(const Event&, const Event&) = default;
};

using History = std::vector<Event>;

std::string_view to_string(EventType type);
std::string_view to_string(OpFunction f);
std::optional<EventType> parse_event_type(std::string_view text);
std::optional<OpFunction> parse_op_function(std::string_view text);

// Whether the function adds an item (enqueue, push), removes one (dequeue, pop_*), or only looks.
inline bool is_insert(OpFunction f) {
  return f == OpFunction::enqueue || f == OpFunction::push;
}
inline bool is_remove(OpFunction f) {
  return f == OpFunction::dequeue || f == OpFunction::pop_min || f == OpFunction::pop_max;
}
inline bool is_peek(OpFunction f) {
  return f == OpFunction::peek_min || f == OpFunction::peek_max;
}
// Whether the function works at the back of the order (the maximum), not the front.
inline bool takes_back(OpFunction f) {
  return f == OpFunction::pop_max || f == OpFunction::peek_max;
}

}  // namespace contend::model
