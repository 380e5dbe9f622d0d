#include "model/history.h"

namespace contend::model {

std::string_view to_string(EventType type) {
  switch (type) {
    case EventType::invoke:
      return "invoke";
    case EventType::ok:
      return "ok";
    case EventType::fail:
      return "fail";
    case EventType::info:
      return "info";
  }
  return "?";
}

std::string_view to_string(OpFunction f) {
  switch (f) {
    case OpFunction::enqueue:
      return "enqueue";
    case OpFunction::dequeue:
      return "dequeue";
    case OpFunction::push:
      return "push";
    case OpFunction::pop_min:
      return "pop_min";
    case OpFunction::peek_min:
      return "peek_min";
    case OpFunction::pop_max:
      return "pop_max";
    case OpFunction::peek_max:
      return "peek_max";
  }
  return "?";
}

std::optional<EventType> parse_event_type(std::string_view text) {
  for (auto t : {EventType::invoke, EventType::ok, EventType::fail, EventType::info}) {
    if (to_string(t) == text) return t;
  }
  return std::nullopt;
}

std::optional<OpFunction> parse_op_function(std::string_view text) {
  for (auto f : {OpFunction::enqueue, OpFunction::dequeue, OpFunction::push, OpFunction::pop_min,
                 OpFunction::peek_min, OpFunction::pop_max, OpFunction::peek_max}) {
    if (to_string(f) == text) return f;
  }
  return std::nullopt;
}

}  // namespace contend::model
