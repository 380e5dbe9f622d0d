// Hand-written histories in a compact form, one event per string:
//   "p invoke enqueue a", "p ok dequeue a", "p ok dequeue -" (empty), "p info dequeue",
//   "p invoke push a 2", "p ok pop_min a 2".
// A leading "@t" sets the event's time in microseconds ("@5 0 invoke enqueue a"); without it
// the time is 10 x the event index, so times are distinct and follow the event order.
// The result must pass validate_history (a failed expectation says why otherwise).
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <sstream>
#include <string>

#include "model/history.h"
#include "model/history_json.h"

namespace contend::testing {

inline model::History history_of(std::initializer_list<const char*> lines) {
  using namespace model;
  History h;
  for (const char* text : lines) {
    std::istringstream in(text);
    Event e;
    e.index = static_cast<std::int64_t>(h.size());
    e.time_us = e.index * 10;
    if (in.peek() == '@') {
      in.get();
      in >> e.time_us;
    }
    std::string type, f, value;
    std::int64_t priority = 0;
    in >> e.process >> type >> f;
    e.type = *parse_event_type(type);
    e.f = *parse_op_function(f);
    if (in >> value && value != "-") {
      e.value = Item{value, std::nullopt};
      if (in >> priority) e.value->priority = priority;
    }
    h.push_back(e);
  }
  auto invalid = validate_history(h);
  EXPECT_FALSE(invalid.has_value()) << invalid->to_string();
  return h;
}

}  // namespace contend::testing
